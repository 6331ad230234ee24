"""Find a (query, doc) pair listed twice in millions of rows without one Python object per row.

trec_eval stops when a docno appears twice for a query, and so do the readers. Hashing millions
of id strings one by one is the slow part of reading a big run; here queries (few, in long runs
of equal values) get exact dictionary codes, and documents a 64-bit fingerprint computed with
numpy straight from the Arrow string buffers. Rows sharing a key are then compared exactly, so a
fingerprint collision costs time, never a wrong answer.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

__all__ = ["has_duplicate_pairs", "fingerprints", "dictionary_codes"]


def has_duplicate_pairs(table: pa.Table, judgment_groups: bool) -> bool:
    """True when some (query, [group,] doc) occurs twice.

    Queries (and groups) are few: their dictionary codes are exact. Documents are many: each
    gets a 64-bit fingerprint from its length and its first and last 8 bytes, read straight
    from the Arrow buffers. Rows sharing a key are then compared exactly, so a fingerprint
    collision costs time, never a wrong answer.
    """
    keys = ["query_id", "group", "doc_id"] if judgment_groups else ["query_id", "doc_id"]
    with np.errstate(over="ignore"):
        combined = dictionary_codes(table["query_id"])
        if judgment_groups:
            combined = combined * _MIX_B + dictionary_codes(table["group"])
        combined = combined * _MIX_A ^ fingerprints(table["doc_id"])
    ordered = np.sort(combined)
    same = ordered[1:] == ordered[:-1]
    if not same.any():
        return False
    shared = np.unique(ordered[1:][same])
    rows = np.flatnonzero(np.isin(combined, shared))
    subset = table.select(keys).take(pa.array(rows)).to_pandas()
    return bool(subset.duplicated().any())


def dictionary_codes(column: pa.ChunkedArray) -> np.ndarray:
    """One integer per distinct value. Query ids come in long runs (a file is usually grouped by
    query), so encoding the runs and repeating their codes is cheaper than hashing every row."""
    runs = [pc.run_end_encode(chunk) for chunk in column.chunks if len(chunk)]
    if not runs:
        return np.zeros(0, dtype=np.uint64)
    encoded = pc.dictionary_encode(pa.chunked_array([run.values for run in runs]))  # one shared dictionary
    codes = np.concatenate([chunk.indices.to_numpy(zero_copy_only=False) for chunk in encoded.chunks])
    run_lengths = np.concatenate([np.diff(run.run_ends.to_numpy(), prepend=0) for run in runs])
    return np.repeat(codes.astype(np.uint64), run_lengths)


_MIX_A = np.uint64(0x9E3779B97F4A7C15)
_MIX_B = np.uint64(0xBF58476D1CE4E5B9)


def fingerprints(column: pa.ChunkedArray) -> np.ndarray:
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
