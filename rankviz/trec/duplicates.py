"""Find a (query, doc) pair listed twice in millions of rows without one Python object per row.

trec_eval stops when a docno appears twice for a query, and so do the readers. Hashing millions
of id strings one by one is the slow part of reading a big run; here queries (few, in long runs
of equal values) get exact dictionary codes, and documents a 64-bit fingerprint computed with
numpy straight from the Arrow string buffers. Rows sharing a key are then compared exactly, so a
fingerprint collision costs time, never a wrong answer.

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

__all__ = ["RowKeys", "dictionary_codes", "fingerprints", "fixed_width_bytes", "fixed_width_chunk", "fixed_width_hashes",
           "fixed_width_words", "hash_fixed_width", "has_duplicate_pairs", "pair_keys", "query_bits",
           "query_codes_and_labels", "row_keys"]


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
        A hash of each row's docno: :func:`fixed_width_hashes` when every docno has the same
        byte length (``doc_width``), :func:`fingerprints` otherwise (``doc_width`` None).
    doc_width : int or None
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
    hashed = fixed_width_hashes(docs)
    doc_hashes, doc_width = hashed if hashed is not None else (fingerprints(docs), None)
    return RowKeys(query_codes, query_labels, doc_hashes, doc_width,
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
    columns = ["query_id", "group", "doc_id"] if judgment_groups else ["query_id", "doc_id"]
    if judgment_groups:
        with np.errstate(over="ignore"):
            combined = keys.query_codes.astype(np.uint64) * _MIX_B + dictionary_codes(table["group"])
            combined = combined * _MIX_A ^ keys.doc_hashes
    else:
        combined = keys.pair_keys
    ordered = np.sort(combined)
    same = ordered[1:] == ordered[:-1]
    if not same.any():
        return False
    shared = np.unique(ordered[1:][same])
    rows = np.flatnonzero(np.isin(combined, shared))
    subset = table.select(columns).take(pa.array(rows)).to_pandas()
    return bool(subset.duplicated().any())


def dictionary_codes(column: pa.ChunkedArray) -> np.ndarray:
    """One integer per distinct value. Query ids come in long runs (a file is usually grouped by
    query), so encoding the runs and repeating their codes is cheaper than hashing every row."""
    return query_codes_and_labels(column)[0].astype(np.uint64)


def query_codes_and_labels(column: pa.ChunkedArray) -> tuple[np.ndarray, list]:
    """Per row, an int32 code of its string, codes numbering the distinct strings in order of
    first appearance; and the string of each code. Run-length encoded first (ids come in long
    runs), so that only one value per run is hashed."""
    runs = [pc.run_end_encode(chunk) for chunk in column.chunks if len(chunk)]
    if not runs:
        return np.zeros(0, dtype=np.int32), []
    encoded = pc.dictionary_encode(pa.chunked_array([run.values for run in runs]))  # one shared dictionary
    codes = np.concatenate([chunk.indices.to_numpy(zero_copy_only=False) for chunk in encoded.chunks])
    run_lengths = np.concatenate([np.diff(run.run_ends.to_numpy(), prepend=0) for run in runs])
    labels = encoded.chunks[0].dictionary.to_pylist()
    return np.repeat(codes.astype(np.int32), run_lengths), labels  # int32: ids are far fewer than 2**31


_MIX_A = np.uint64(0x9E3779B97F4A7C15)
_MIX_B = np.uint64(0xBF58476D1CE4E5B9)


def fingerprints(column: pa.ChunkedArray) -> np.ndarray:
    """A 64-bit fingerprint of each string of ``column`` (uint64), from its first and last 8
    bytes and its length, read straight from the Arrow buffers. Equal strings get equal
    fingerprints; distinct ones rarely collide, and every user compares hits exactly."""
    if not (pa.types.is_string(column.type) or pa.types.is_large_string(column.type)):
        column = column.cast(pa.large_string())
    chunks = [chunk for chunk in column.chunks if len(chunk)]
    if len(column) > 1_000_000 and len(chunks) > 1 and (os.cpu_count() or 1) > 1:
        # numpy releases the GIL in these loops: one thread per core halves the wait on big runs.
        with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
            parts = list(pool.map(_chunk_fingerprints, chunks))
    else:
        parts = [_chunk_fingerprints(chunk) for chunk in chunks]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.uint64)


def _chunk_fingerprints(chunk: pa.Array) -> np.ndarray:
    offset_type = np.int64 if pa.types.is_large_string(chunk.type) else np.int32
    buffers = chunk.buffers()
    offsets = np.frombuffer(buffers[1], dtype=offset_type, count=len(chunk) + 1,
                            offset=chunk.offset * np.dtype(offset_type).itemsize)
    low, high = int(offsets[0]), int(offsets[-1])
    # 8 zero bytes on both sides so that every 8-byte window stays inside the buffer.
    padded = np.zeros(high - low + 16, dtype=np.uint8)
    if high > low:
        padded[8:8 + high - low] = np.frombuffer(buffers[2], dtype=np.uint8, count=high - low, offset=low)
    windows = np.ndarray(buffer=padded, dtype=np.uint64, shape=(padded.size - 7,), strides=(1,))
    positions = offsets[1:].astype(np.int64)
    lengths = positions - offsets[:-1]
    positions -= low
    last = windows[positions]  # the 8 bytes that end where the string ends
    # Little endian: a string shorter than 8 bytes is the high bytes of `last`; shift out the rest.
    shift = np.subtract(8, lengths)
    np.maximum(shift, 0, out=shift)
    shift <<= 3
    last >>= shift.view(np.uint64)  # numpy gives 0 for a shift by 64 (the empty string)
    positions -= lengths
    positions += 8
    first = windows[positions]  # the first 8 bytes; `last` already holds all of a short string
    first[lengths < 8] = 0
    with np.errstate(over="ignore"):
        first *= _MIX_A
        first ^= last
        first *= _MIX_B
        first += lengths.view(np.uint64)
    return first


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
