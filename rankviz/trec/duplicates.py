"""Find a (query, doc) pair listed twice in millions of rows without one Python object per row.

trec_eval stops when a docno appears twice for a query, and so do the readers. Hashing millions
of id strings one by one is the slow part of reading a big run; here queries (few, in long runs
of equal values) get exact dictionary codes, and documents a 64-bit hash of every byte computed with
numpy straight from the Arrow string buffers. Rows sharing a key are then compared exactly, so a
hash collision costs time, never a wrong answer.

evaluate needs the same keys to match run lines to judgments: the readers hand them over as a
value, in the :class:`~rankviz.trec.readers.TrecTable` that ``read_run_table`` and
``read_qrels_table`` return, and evaluate reuses them from there.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

__all__ = ["RowKeys", "arrow_of", "content_hashes", "dictionary_codes", "first_duplicate", "fixed_width_bytes",
           "fixed_width_chunk", "fixed_width_hashes", "fixed_width_words", "hash_fixed_width", "has_duplicate_pairs",
           "numpy_of", "pair_keys", "query_bits", "query_codes_and_labels", "row_keys"]


@dataclass(frozen=True, eq=False)
class RowKeys:
    """The integer keys of a table's ids that the duplicate check computes, one per row.

    evaluate needs the same keys to match run lines to judgments (``rankviz.evaluation.ranking``):
    the readers return them with the DataFrame, in a :class:`~rankviz.trec.readers.TrecTable`,
    so that they are computed once per file, not twice.

    Attributes
    ----------
    query_codes : ndarray of int32
        Dictionary code of each row's query id, codes in order of first appearance.
    query_labels : list of str
        The query id of each code.
    doc_hashes : ndarray of uint64
        :func:`content_hashes` of the docnos: a hash of every byte and of the length (for docnos
        of one byte width, :func:`fixed_width_hashes`).
    doc_width : int or None
        The byte width of every docno when they all have one, else None.
    pair_keys : ndarray of uint64
        :func:`pair_keys` of the query codes and docno hashes: equal for rows of one query
        with equal docnos (and, rarely, for a hash collision). The duplicate check sorts
        them; evaluate looks up run lines by them.
    """

    query_codes: np.ndarray
    query_labels: list
    doc_hashes: np.ndarray
    doc_width: int | None
    pair_keys: np.ndarray


def pair_keys(query_codes: np.ndarray, doc_hashes: np.ndarray, n_queries: int) -> np.ndarray:
    """A 64-bit key per (query, document): the query code in the high bits (so that the keys of
    one query are close together, and look-ups among them stay in cache), the docno's hash in
    the low bits (its high bits: those of :func:`hash_fixed_width` depend on every byte).

    Codes must be below ``n_queries``; keys built with the same ``n_queries`` are comparable.
    """
    bits = query_bits(n_queries)
    keys = doc_hashes >> np.uint64(bits)
    keys |= np.left_shift(query_codes, 64 - bits, dtype=np.uint64, casting="unsafe")
    return keys


def query_bits(n_queries: int) -> int:
    """How many high bits of a :func:`pair_keys` key hold the query code."""
    return max(int(n_queries).bit_length(), 1)


def row_keys(table: pa.Table) -> RowKeys:
    """The :class:`RowKeys` of a table with string columns query_id and doc_id."""
    query_codes, query_labels = query_codes_and_labels(table["query_id"])
    query_codes.flags.writeable = False  # evaluate may use this very array as its row -> query map
    docs = table["doc_id"]
    views = fixed_width_bytes(docs)
    doc_hashes = content_hashes(docs)
    return RowKeys(query_codes, query_labels, doc_hashes, None if views is None else views[0].shape[1],
                   pair_keys(query_codes, doc_hashes, len(query_labels)))


def has_duplicate_pairs(table: pa.Table, judgment_groups: bool, keys: RowKeys | None = None) -> bool:
    """True when some (query, [group,] doc) occurs twice.

    Queries (and groups) are few: their dictionary codes are exact. Documents are many: each
    gets a 64-bit hash read straight from the Arrow buffers (:func:`row_keys`; ``keys`` when
    the caller computed them already). Rows sharing a key are then compared exactly, so a
    hash collision costs time, never a wrong answer.
    """
    if keys is None:
        keys = row_keys(table)
    if judgment_groups:
        with np.errstate(over="ignore"):
            combined = keys.query_codes.astype(np.uint64) * _MIX_B + dictionary_codes(table["group"])
            combined = combined * _MIX_A ^ keys.doc_hashes
        columns = [keys.query_codes, dictionary_codes(table["group"]), table["doc_id"]]
    else:
        combined = keys.pair_keys
        columns = [keys.query_codes, table["doc_id"]]
    return first_duplicate(combined, columns) is not None


def first_duplicate(keys: np.ndarray, columns: list) -> tuple[int, int] | None:
    """The rows ``(first, again)`` of the earliest repeated row: ``again`` is the smallest row
    whose values in ``columns`` (numpy arrays or Arrow string columns, one value per row) equal
    those of an earlier row ``first``; None when every row is distinct.

    ``keys`` (uint64, one per row) must be equal for equal rows (:func:`pair_keys`); only rows
    sharing a key are compared, value by value, so a hash collision costs time, never a wrong
    answer. What a reader reports for a docno listed twice: the line that repeats, and where
    it first was.

    >>> docs = pa.chunked_array([["d1", "d2", "d3", "d2", "d1"]])
    >>> codes = np.zeros(5, dtype=np.int32)
    >>> first_duplicate(pair_keys(codes, content_hashes(docs), 1), [codes, docs])
    (1, 3)
    """
    ordered = np.sort(keys)
    same = ordered[1:] == ordered[:-1]
    if not same.any():
        return None
    shared = np.unique(ordered[1:][same])
    rows = np.flatnonzero(np.isin(keys, shared))  # few: the rows of the repeated keys
    values = []
    for column in columns:
        if isinstance(column, np.ndarray):
            values.append(column[rows].tolist())
        else:
            values.append(column.take(arrow_of(rows)).to_pylist())
    seen: dict = {}
    for row, value in zip(rows.tolist(), zip(*values)):
        first = seen.setdefault(value, row)
        if first != row:
            return first, row
    return None


def dictionary_codes(column: pa.ChunkedArray) -> np.ndarray:
    """One integer per distinct value. Query ids come in long runs (a file is usually grouped by
    query), so encoding the runs and repeating their codes is cheaper than hashing every row."""
    return query_codes_and_labels(column)[0].astype(np.uint64)


def query_codes_and_labels(column: pa.ChunkedArray) -> tuple[np.ndarray, list]:
    """Per row, an int32 code of its string, codes numbering the distinct strings in order of
    first appearance; and the string of each code. Run-length encoded first (ids come in long
    runs), so that only one value per run is hashed."""
    chunks = column.chunks if isinstance(column, pa.ChunkedArray) else [column]
    runs = [pc.run_end_encode(chunk) for chunk in chunks if len(chunk)]
    if not runs:
        return np.zeros(0, dtype=np.int32), []
    encoded = pc.dictionary_encode(pa.chunked_array([run.values for run in runs]))  # one shared dictionary
    codes = np.concatenate([numpy_of(chunk.indices) for chunk in encoded.chunks])
    run_lengths = np.concatenate([np.diff(numpy_of(run.run_ends), prepend=0) for run in runs])
    labels = encoded.chunks[0].dictionary.to_pylist()
    return np.repeat(codes.astype(np.int32), run_lengths), labels  # int32: ids are far fewer than 2**31


def numpy_of(array) -> np.ndarray:
    """The values of a numeric Arrow array without nulls (or of a chunked one) as numpy: a view
    of its buffer for one chunk. (``Array.to_numpy`` would import pandas, which the command
    line never needs.)"""
    if isinstance(array, pa.ChunkedArray):
        parts = [numpy_of(chunk) for chunk in array.chunks]
        if len(parts) == 1:
            return parts[0]
        return np.concatenate(parts) if parts else np.zeros(0, dtype=array.type.to_pandas_dtype())
    if array.null_count:
        raise ValueError("numpy_of: the array has missing values")
    dtype = np.dtype(array.type.to_pandas_dtype())
    return np.frombuffer(array.buffers()[1], dtype=dtype, count=len(array), offset=array.offset * dtype.itemsize)


def arrow_of(values: np.ndarray) -> pa.Array:
    """A numeric numpy array as an Arrow array sharing its memory (``pa.array`` would import
    pandas)."""
    values = np.ascontiguousarray(values)
    return pa.Array.from_buffers(pa.from_numpy_dtype(values.dtype), values.size, [None, pa.py_buffer(values)])


_MIX_A = np.uint64(0x9E3779B97F4A7C15)
_MIX_B = np.uint64(0xBF58476D1CE4E5B9)


# --------------------------------------------------------------------------------------------
# Docnos of one byte width (ClueWeb, GOV2, MS MARCO passages...): every byte hashed, in place


def fixed_width_chunk(strings: pa.Array, known_width: int | None = None) -> np.ndarray | None:
    """An (n, width) uint8 view of one chunk's characters when all have the same byte length.

    ``known_width``: the width :func:`row_keys` found for these very strings, which spares
    checking every length again."""
    n = len(strings)
    if n == 0 or strings.null_count:
        return None
    if pa.types.is_string(strings.type):
        offset_type = np.int32
    elif pa.types.is_large_string(strings.type):
        offset_type = np.int64
    else:
        return None
    _, offsets_buffer, data_buffer = strings.buffers()
    itemsize = np.dtype(offset_type).itemsize
    offsets = np.frombuffer(offsets_buffer, dtype=offset_type, count=n + 1, offset=strings.offset * itemsize)
    first, last = int(offsets[0]), int(offsets[-1])
    width, remainder = divmod(last - first, n)
    if width == 0 or remainder or (width != known_width and not np.all(np.diff(offsets) == width)):
        return None
    return np.frombuffer(data_buffer, dtype=np.uint8, count=last - first, offset=first).reshape(n, width)


def fixed_width_bytes(strings: pa.ChunkedArray, known_width: int | None = None) -> list[np.ndarray] | None:
    """Per non-empty chunk, an (n, width) uint8 view of the characters, when every string of
    every chunk has the same byte length; ``None`` otherwise. ``known_width``: as for
    :func:`fixed_width_chunk`."""
    views = []
    for chunk in strings.chunks:
        if len(chunk) == 0:
            continue
        view = fixed_width_chunk(chunk, known_width)
        if view is None or (views and view.shape[1] != views[0].shape[1]):
            return None
        views.append(view)
    return views or None


_MIX = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB))


def fixed_width_words(characters: np.ndarray):
    """The docnos' bytes as unaligned little-endian uint64 words, 8 bytes at a time, read in
    place (no copy); the last word ends at the last byte and may overlap the previous one."""
    n, width = characters.shape
    if width < 8:  # too short to read 8 bytes in place: pad a copy
        padded = np.zeros((n, 8), dtype=np.uint8)
        padded[:, :width] = characters
        yield padded.view("<u8").ravel()
        return
    flat = characters.reshape(-1)  # a view: the (n, width) array is C-contiguous
    for start in list(range(0, width - 7, 8)) + ([width - 8] if width % 8 else []):
        yield np.ndarray(shape=(n,), dtype="<u8", buffer=flat, offset=start, strides=(width,))


def hash_fixed_width(characters: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """A 64-bit hash of each row of an (n, width) uint8 array, every byte counted (written to
    ``out``, a uint64 array of length n, when given).

    Polynomial hash over the 8-byte words, then one avalanche step so that the high bits
    (which evaluate keeps) depend on every byte. Collisions only cost speed: hits are verified.
    """
    n, width = characters.shape
    h = np.empty(n, dtype=np.uint64) if out is None else out
    h.fill((width * int(_MIX[0])) % 2**64)
    for word in fixed_width_words(characters):
        h *= _MIX[1]
        h += word
    h ^= h >> np.uint64(29)
    h *= _MIX[2]
    return h


def fixed_width_hashes(column: pa.ChunkedArray) -> tuple[np.ndarray, int] | None:
    """(:func:`hash_fixed_width` of every string, their byte width) when all strings have one
    byte width; ``None`` otherwise."""
    views = fixed_width_bytes(column)
    if views is None:
        return None
    # Each chunk hashed straight into its slice of the result (no concatenation afterwards).
    hashes = np.empty(len(column), dtype=np.uint64)
    bounds = np.cumsum([0] + [view.shape[0] for view in views])
    slices = [hashes[start:end] for start, end in zip(bounds, bounds[1:])]
    if len(column) > 1_000_000 and len(views) > 1 and (os.cpu_count() or 1) > 1:
        with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:  # numpy releases the GIL
            list(pool.map(hash_fixed_width, views, slices))
    else:
        for view, part in zip(views, slices):
            hash_fixed_width(view, part)
    return hashes, views[0].shape[1]


def _word_starts(width: int) -> list[int]:
    """Where :func:`fixed_width_words` reads the 8-byte words of a string of ``width`` bytes."""
    if width < 8:
        return [0]
    return list(range(0, width - 7, 8)) + ([width - 8] if width % 8 else [])


def content_hashes(column: pa.ChunkedArray | pa.Array) -> np.ndarray:
    """:func:`hash_fixed_width` of every string of ``column``, whatever their byte lengths.

    A hash of every byte and of the length, so two strings of different lengths (MS MARCO's
    numeric passage ids, URLs) are told apart as well as ClueWeb's docnos of one width are.
    Chunks whose strings share one width are hashed in place, the fast path; otherwise the
    strings are grouped by length and their words gathered from the chunk's buffer, so a
    string's hash never depends on the others (a run read in blocks gets the keys of the whole).

    >>> strings = pa.chunked_array([["d1", "doc22"], ["doc22", "d1", "d10"]])
    >>> h = content_hashes(strings)
    >>> bool(h[0] == h[3] and h[1] == h[2] and len(set(h.tolist())) == 3)
    True
    >>> bool(h[1] == hash_fixed_width(np.frombuffer(b"doc22", dtype=np.uint8).reshape(1, 5))[0])
    True
    """
    chunks = column.chunks if isinstance(column, pa.ChunkedArray) else [column]
    out = np.empty(len(column), dtype=np.uint64)
    start = 0
    for chunk in chunks:
        if len(chunk):
            _chunk_content_hashes(chunk, out[start:start + len(chunk)])
        start += len(chunk)
    return out


def _chunk_content_hashes(chunk: pa.Array, out: np.ndarray) -> None:
    if not (pa.types.is_string(chunk.type) or pa.types.is_large_string(chunk.type)):
        chunk = chunk.cast(pa.large_string())
    view = fixed_width_chunk(chunk)
    if view is not None:
        hash_fixed_width(view, out)
        return
    offset_type = np.int64 if pa.types.is_large_string(chunk.type) else np.int32
    buffers = chunk.buffers()
    offsets = np.frombuffer(buffers[1], dtype=offset_type, count=len(chunk) + 1,
                            offset=chunk.offset * np.dtype(offset_type).itemsize).astype(np.int64)
    low, high = int(offsets[0]), int(offsets[-1])
    # 8 zero bytes after the last string, so that every 8-byte window stays inside the buffer.
    padded = np.zeros(high - low + 8, dtype=np.uint8)
    if high > low:
        padded[:high - low] = np.frombuffer(buffers[2], dtype=np.uint8, count=high - low, offset=low)
    windows = np.ndarray(buffer=padded, dtype="<u8", shape=(padded.size - 7,), strides=(1,))
    lengths = np.diff(offsets)
    starts = offsets[:-1] - low
    by_length = np.argsort(lengths, kind="stable")
    bounds = np.flatnonzero(np.diff(lengths[by_length])) + 1
    for rows in np.split(by_length, bounds):
        width = int(lengths[rows[0]])
        h = np.full(rows.size, (width * int(_MIX[0])) % 2**64, dtype=np.uint64)
        at = starts[rows]
        for word_start in _word_starts(width):
            word = windows[at + word_start]
            if width < 8:  # a short string: its bytes and zeros, as fixed_width_words pads it
                word &= np.uint64((1 << (8 * width)) - 1)
            h *= _MIX[1]
            h += word
        h ^= h >> np.uint64(29)
        h *= _MIX[2]
        out[rows] = h
