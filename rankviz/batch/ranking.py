"""Turn a qrels and a run table into trec_eval's ranked, judged lists, for all queries at once.

The result (:class:`JudgedRanking`) holds flat int64 arrays, one row per retrieved document,
grouped by query (queries in string order) and sorted the way trec_eval sorts: score
descending, then docno descending (``strcmp`` byte order). The rank column of a run file is
never used. Each row carries the document's grade:

* its qrels grade (>= 0) when judged,
* ``NONPOOL`` (-1) when the qrels do not list it (trec_eval's RELVALUE_NONPOOL),
* ``UNJUDGED`` (-2) when the qrels list it with a negative grade, "pooled but not judged"
  (trec_eval 10's RELVALUE_UNJUDGED; bpref and infAP skip these, unj counts them).

How the work is done, since it dominates the run time on big files:

* query ids are mapped to codes block by block (run and qrels files list a query's lines
  together, so only a few thousand labels are looked up in a dict);
* the sort is skipped when the run is already in (query, score descending) order, as run
  files usually are (whole query blocks are reordered when the queries are not in string
  order), and only rows whose score ties with a neighbour are re-sorted by docno;
* docnos are matched to judgments without a string hash table when they all have one width
  (ClueWeb, GOV2...): a 64-bit key (query code in the high bits, a hash of the docno's bytes
  read in place 8 at a time in the low bits) and one look-up per run line in the sorted
  judgment keys, bucketed by their top bits, every hit verified byte for byte; otherwise
  through a dictionary of the judged docnos (``pyarrow.compute.index_in``). Both give the
  same answer (tested).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from rankviz.trec_duplicates import RowKeys, fixed_width_bytes, hash_fixed_width, remembered

__all__ = ["NONPOOL", "UNJUDGED", "JudgedRanking", "prepare"]

NONPOOL = -1
UNJUDGED = -2


@dataclass(frozen=True, eq=False)
class JudgedRanking:
    """Ranked, judged lists of every query, as flat arrays (see the module docstring).

    Attributes
    ----------
    query_ids : ndarray of str
        Every qrels query, sorted as strings. Queries absent from the run have no rows.
    has_run : ndarray of bool
        Whether the run has lines for the query (before the depth and judged-only cuts).
    starts : ndarray of int64, length n_queries + 1
        Query ``q`` owns rows ``starts[q]:starts[q+1]``.
    row_query, rank, grade : ndarray of int64
        Per retrieved document: its query, its 1-based rank and its grade (or a sentinel).
    judged_starts, judged_query, judged_grade : ndarray of int64
        Every qrels judgment, grouped by query, grades in descending order within a query.
    max_grade : int
        The largest grade in the qrels (0 when none is positive).
    """

    query_ids: np.ndarray
    has_run: np.ndarray
    starts: np.ndarray
    row_query: np.ndarray
    rank: np.ndarray
    grade: np.ndarray
    judged_starts: np.ndarray
    judged_query: np.ndarray
    judged_grade: np.ndarray
    max_grade: int

    @property
    def n_queries(self) -> int:
        return int(self.query_ids.size)

    @property
    def num_ret(self) -> np.ndarray:
        return np.diff(self.starts)


def _arrow_strings(column: pd.Series) -> pa.ChunkedArray:
    """A pyarrow string array for a column of ids (zero-copy when already Arrow-backed; the
    chunks are kept as they are, since combining them would copy every docno)."""
    try:
        array = pa.array(column.array)
    except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError):
        array = pa.array(column.astype(str).to_numpy(dtype=object), type=pa.string())
    if not (pa.types.is_string(array.type) or pa.types.is_large_string(array.type)):
        array = pa.array(column.astype(str).to_numpy(dtype=object), type=pa.string())
    if not isinstance(array, pa.ChunkedArray):
        array = pa.chunked_array([array])
    return array


def _blocks(strings: pa.Array) -> tuple[np.ndarray, list[str]]:
    """Start row and label of each run of equal adjacent strings."""
    n = len(strings)
    if n == 0:
        return np.zeros(0, dtype=np.int64), []
    changed = pc.not_equal(strings.slice(1), strings.slice(0, n - 1))
    starts = np.concatenate(([0], np.flatnonzero(changed.to_numpy(zero_copy_only=False)) + 1))
    # Scalar access per block: a take() on a chunked array would concatenate its chunks.
    return starts.astype(np.int64), [strings[int(i)].as_py() for i in starts]


def _codes(strings: pa.Array, universe: dict[str, int]) -> np.ndarray:
    """Code of each string in ``universe`` (-1 when absent), looked up once per block."""
    n = len(strings)
    starts, labels = _blocks(strings)
    if len(labels) * 4 > n and n > 10_000:  # not grouped: one C-level lookup per row instead
        value_set = pa.array(list(universe), type=pa.string())
        found = pc.index_in(strings, value_set=value_set).to_numpy(zero_copy_only=False)
        codes = np.where(np.isnan(found), -1, found).astype(np.int64)
        return codes
    block_codes = np.fromiter((universe.get(label, -1) for label in labels), dtype=np.int64, count=len(labels))
    lengths = np.diff(np.append(starts, n))
    return np.repeat(block_codes, lengths)


def _grouped_order(query: np.ndarray, score: np.ndarray, ignored: int) -> np.ndarray | None:
    """The (query, score descending) order, cheaply, when the run lists each query's lines
    together in descending score order; ``None`` otherwise. Rows of query ``ignored`` (lines
    of unjudged queries, dropped later) may be anywhere and in any order: they sort last."""
    n = query.size
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    same = query[1:] == query[:-1]
    if np.any(same & (score[1:] > score[:-1]) & (query[1:] != ignored)):
        return None
    block_starts = np.concatenate(([0], np.flatnonzero(~same) + 1))
    block_query = query[block_starts]
    kept = block_query[block_query != ignored]
    if np.unique(kept).size != kept.size:  # a query split over several blocks
        return None
    lengths = np.diff(np.append(block_starts, n))
    if np.all(block_query[1:] > block_query[:-1]):
        return np.arange(n, dtype=np.int64)
    # Reorder whole blocks: row i of block b moves with its block.
    perm = np.argsort(block_query, kind="stable")
    new_lengths = lengths[perm]
    offsets = np.repeat(block_starts[perm] - np.concatenate(([0], np.cumsum(new_lengths)[:-1])), new_lengths)
    return np.arange(n, dtype=np.int64) + offsets


def _break_ties_by_docno(order: np.ndarray, query: np.ndarray, score: np.ndarray, docs: pa.ChunkedArray,
                         characters: list[np.ndarray] | None) -> np.ndarray:
    """Within runs of equal (query, score), put docnos in descending byte order (trec_eval).

    ``characters`` are the fixed-width views of ``docs`` (see
    :func:`~rankviz.trec_duplicates.fixed_width_bytes`) when available: only the tied docnos'
    bytes are then gathered, without going through the Arrow string chunks."""
    q = query[order]
    s = score[order]
    equal_next = (q[1:] == q[:-1]) & (s[1:] == s[:-1])
    if not equal_next.any():
        return order
    in_tie = np.zeros(order.size, dtype=bool)
    in_tie[1:] |= equal_next
    in_tie[:-1] |= equal_next
    positions = np.flatnonzero(in_tie)
    # Group id: a new group starts where a tied row does not continue its predecessor's tie.
    starts_group = np.ones(positions.size, dtype=bool)
    starts_group[1:] = ~equal_next[positions[1:] - 1]
    group = np.cumsum(starts_group)
    tied_rows = order[positions]
    if characters is not None:
        # The tied docnos' bytes, copied once, seen by Arrow as fixed-size binary values (no
        # copy): its sort compares them byte by byte (strcmp order), several times faster than
        # a numpy lexsort over their 8-byte words.
        tied = np.ascontiguousarray(_gather(characters, tied_rows))
        tied_docs = pa.Array.from_buffers(pa.binary(tied.shape[1]), tied.shape[0], [None, pa.py_buffer(tied)])
    else:
        tied_docs = docs.combine_chunks().take(pa.array(tied_rows))
    table = pa.table({"group": group, "doc": tied_docs})
    within = pc.sort_indices(table, sort_keys=[("group", "ascending"), ("doc", "descending")]).to_numpy()
    order = order.copy()
    order[positions] = tied_rows[within]
    return order


def _duplicate_error(kind: str, query_id: str, doc_id: str) -> ValueError:
    return ValueError(
        f"evaluate: the {kind} lists document {doc_id!r} twice for query {query_id!r}; "
        f"trec_eval stops on duplicates too. Remove one of the lines."
    )


def _gather(views: list[np.ndarray], rows: np.ndarray) -> np.ndarray:
    """Rows (global indices) of chunked fixed-width character views, as one (len(rows), width) array."""
    if len(views) == 1:
        return views[0][rows]
    order = None
    if rows.size > 1 and np.any(rows[1:] < rows[:-1]):
        order = np.argsort(rows, kind="stable")
        rows = rows[order]
    out = np.empty((rows.size, views[0].shape[1]), dtype=np.uint8)
    bounds = np.cumsum([0] + [v.shape[0] for v in views])
    cuts = np.searchsorted(rows, bounds)  # rows are sorted: each chunk's rows are one slice
    for view, start, lo, hi in zip(views, bounds, cuts, cuts[1:]):
        out[lo:hi] = view[rows[lo:hi] - start]
    if order is not None:
        unsorted = np.empty_like(out)
        unsorted[order] = out
        out = unsorted
    return out


def _with_query(doc_hashes: np.ndarray, query: np.ndarray, n_queries: int) -> np.ndarray:
    """A 64-bit key for (query, document): the query code in the high bits (so that keys of
    one query are close together and the look-ups stay in cache), the docno's hash
    (:func:`rankviz.trec_duplicates.hash_fixed_width`, whose high bits depend on every byte)
    in the low bits."""
    query_bits = np.uint64(max(int(n_queries).bit_length(), 1))
    return (query.astype(np.uint64) << (np.uint64(64) - query_bits)) | (doc_hashes >> query_bits)


_PROBES = 4


def _find_keys(sorted_keys: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Position of each key in ``sorted_keys`` (distinct, ascending uint64), -1 when absent.

    One ``searchsorted`` per run row takes ~20 cache-missing steps over a million judgments
    and was the slowest part of matching. Instead the sorted keys are cut into buckets by their
    top bits (two to four buckets per key, so most hold zero or one key) and a key only looks at
    the first few keys of its bucket, in ascending order. Keys of one query share their top
    bits (the query code), so consecutive run rows touch neighbouring buckets, in cache. Keys
    whose bucket holds more than a few judgments (say one query judged far more deeply than
    the others) finish with ``searchsorted``, so the answer never depends on the spread.
    """
    found = np.full(keys.size, -1, dtype=np.int64)
    if sorted_keys.size == 0 or keys.size == 0:
        return found
    bits = min(int(sorted_keys.size).bit_length() + 1, 30)
    shift = np.uint64(64 - bits)
    # int32 positions and in-place steps: the arrays below are as long as the run (millions).
    index_type = np.int32 if sorted_keys.size < 2**31 else np.int64
    bucket_start = np.zeros((1 << bits) + 1, dtype=index_type)
    np.cumsum(np.bincount((sorted_keys >> shift).view(np.int64), minlength=1 << bits), out=bucket_start[1:])
    bucket = (keys >> shift).view(np.int64)  # < 2**30 after the shift: the view is exact
    position = bucket_start[bucket]
    bucket += 1
    end = bucket_start[bucket]
    del bucket
    active = np.flatnonzero(position < end)
    for _ in range(_PROBES):
        slot = position[active]
        key = keys[active]
        candidate = sorted_keys[slot]
        hit = candidate == key
        found[active[hit]] = slot[hit]
        # A bucket is sorted: a larger key there means this key is absent.
        active = active[(candidate < key) & (slot + 1 < end[active])]
        if active.size == 0:
            return found
        position[active] += 1
    slot = np.searchsorted(sorted_keys, keys[active])
    slot[slot >= sorted_keys.size] = 0
    hit = sorted_keys[slot] == keys[active]
    found[active[hit]] = slot[hit]
    return found


def _match_fixed_width(run_query, run_chars, judged_query, judged_docs, n_queries,
                       run_hashes: np.ndarray | None = None,
                       judged_hashes: np.ndarray | None = None) -> np.ndarray | None:
    """Fast path: judgment row of each run row (-1 if none) by 64-bit keys of (query, docno),
    every candidate verified byte for byte. ``run_chars`` are the run docnos' fixed-width
    views; ``run_hashes`` and ``judged_hashes`` the docnos'
    :func:`~rankviz.trec_duplicates.hash_fixed_width`, when the readers computed them already.
    ``None`` when the docnos are not all of one width or two judgments of a query share a key
    (then the exact path runs)."""
    judged_chars = fixed_width_bytes(judged_docs)
    if run_chars is None or judged_chars is None:
        return None
    if run_chars[0].shape[1] != judged_chars[0].shape[1]:
        return np.full(run_query.size, -1, dtype=np.int64)  # no docno can be in both
    if len(judged_chars) > 1:  # the judgments are small: one contiguous copy makes lookups direct
        judged_chars = [np.concatenate(judged_chars)]

    if judged_hashes is None:
        judged_hashes = hash_fixed_width(judged_chars[0])
    judged_keys = _with_query(judged_hashes, judged_query, n_queries)
    key_order = np.argsort(judged_keys)
    sorted_keys = judged_keys[key_order]
    if np.any(sorted_keys[1:] == sorted_keys[:-1]):
        return None  # a duplicate judgment, or a (rare) collision: let the exact path decide
    if run_hashes is None:
        run_hashes = np.concatenate([hash_fixed_width(view) for view in run_chars])
    run_keys = _with_query(run_hashes, run_query, n_queries)
    slot = _find_keys(sorted_keys, run_keys)
    candidate = np.flatnonzero(slot >= 0)
    judged_row = key_order[slot[candidate]]
    same = judged_query[judged_row] == run_query[candidate]
    same &= np.all(_gather(run_chars, candidate) == _gather(judged_chars, judged_row), axis=1)
    out = np.full(run_query.size, -1, dtype=np.int64)
    out[candidate[same]] = judged_row[same]
    return out


def _match_by_dictionary(run_query, run_docs, judged_query, judged_docs, query_ids) -> np.ndarray:
    """Exact path: judgment row of each run row (-1 if none), via a dictionary of the judged
    docnos (one C-level hash lookup per run row) and a binary search on int64 keys."""
    judged_docs = judged_docs.combine_chunks() if isinstance(judged_docs, pa.ChunkedArray) else judged_docs
    encoding = pc.dictionary_encode(judged_docs)
    dictionary = encoding.dictionary
    n_docs = np.int64(max(len(dictionary), 1))
    judged_keys = judged_query * n_docs + encoding.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    key_order = np.argsort(judged_keys, kind="stable")
    sorted_keys = judged_keys[key_order]
    dup = np.flatnonzero(sorted_keys[1:] == sorted_keys[:-1])
    if dup.size:
        row = int(key_order[dup[0]])
        raise _duplicate_error("qrels", str(query_ids[judged_query[row]]), judged_docs[row].as_py())
    out = np.full(run_query.size, -1, dtype=np.int64)
    if sorted_keys.size == 0:
        return out
    found = pc.index_in(run_docs, value_set=dictionary).to_numpy(zero_copy_only=False)
    in_dictionary = ~np.isnan(found)
    run_keys = run_query * n_docs + np.where(in_dictionary, found, 0).astype(np.int64)
    slot = np.searchsorted(sorted_keys, run_keys)
    slot[slot >= sorted_keys.size] = 0
    matched = in_dictionary & (sorted_keys[slot] == run_keys)
    out[matched] = key_order[slot[matched]]
    return out


def _translate(keys: RowKeys, universe: dict[str, int]) -> np.ndarray:
    """A reader's query codes (first-appearance order) as codes of ``universe`` (-1 if absent)."""
    translation = np.fromiter((universe.get(label, -1) for label in keys.query_labels), dtype=np.int64,
                              count=len(keys.query_labels))
    return translation[keys.query_codes]


def _fixed_width_hashes(keys: RowKeys | None) -> np.ndarray | None:
    return keys.doc_hashes if keys is not None and keys.doc_width is not None else None


def _by_query_then_grade_descending(query: np.ndarray, grade: np.ndarray, n_queries: int) -> np.ndarray:
    """The stable order by query, then grade descending: one int64 key sorted once when it
    fits (about twice as fast as a two-key lexsort on a million judgments)."""
    if grade.size == 0:
        return np.zeros(0, dtype=np.int64)
    low, high = int(grade.min()), int(grade.max())
    span = high - low + 1
    if span * (n_queries + 1) >= 2**62:  # absurd grades: the key would overflow
        return np.lexsort((-grade, query))
    return np.argsort(query * span + (high - grade), kind="stable")


def prepare(qrels: pd.DataFrame, run: pd.DataFrame, *, depth: int | None = None,
            judged_only: bool = False) -> JudgedRanking:
    """Build the :class:`JudgedRanking` of a validated qrels and run table.

    ``qrels`` has columns query_id, doc_id, relevance (int); ``run`` has query_id, doc_id,
    score (float). Neither is modified. ``depth`` keeps the top ``depth`` documents per query
    after sorting (trec_eval ``-M``); ``judged_only`` drops documents without a judgment
    before ranks are assigned (trec_eval ``-J``).
    """
    # --- judgments -------------------------------------------------------------------
    judged_q_str = _arrow_strings(qrels["query_id"])
    judged_d_str = _arrow_strings(qrels["doc_id"])
    judged_grade = qrels["relevance"].to_numpy(dtype=np.int64, copy=True)
    # Frames straight from the readers come with the query codes and docno hashes their
    # duplicate check computed: reused rather than recomputed (a few tenths of a second on a
    # 5M-line run).
    qrels_keys, run_keys = remembered(qrels), remembered(run)
    if qrels_keys is not None:
        query_ids = np.array(sorted(qrels_keys.query_labels), dtype=object)
        universe = {q: i for i, q in enumerate(query_ids.tolist())}
        judged_query = _translate(qrels_keys, universe)
    else:
        _, block_labels = _blocks(judged_q_str)
        query_ids = np.array(sorted(set(block_labels)), dtype=object)
        universe = {q: i for i, q in enumerate(query_ids.tolist())}
        judged_query = _codes(judged_q_str, universe)
    n_queries = len(universe)

    # --- run rows of judged queries ----------------------------------------------------
    if run_keys is not None:
        run_query = _translate(run_keys, universe)
    else:
        run_query = _codes(_arrow_strings(run["query_id"]), universe)
    # Lines of queries without judgments go to an extra last query, dropped after sorting
    # (cheaper than filtering the docno strings).
    run_query[run_query < 0] = n_queries
    run_docs = _arrow_strings(run["doc_id"])
    score = run["score"].to_numpy(dtype=np.float64)
    has_run = np.bincount(run_query, minlength=n_queries + 1)[:n_queries] > 0

    # --- trec_eval's order, and the judgment of each run line ------------------------------
    run_chars = fixed_width_bytes(run_docs)
    order = _grouped_order(run_query, score, ignored=n_queries)
    if order is None:
        order = np.lexsort((-score, run_query))
    order = _break_ties_by_docno(order, run_query, score, run_docs, run_chars)
    judged_row = _match_fixed_width(run_query, run_chars, judged_query, judged_d_str, n_queries,
                                    _fixed_width_hashes(run_keys), _fixed_width_hashes(qrels_keys))
    if judged_row is None:
        judged_row = _match_by_dictionary(run_query, run_docs, judged_query, judged_d_str, query_ids)

    # --- grades of the retrieved documents -------------------------------------------------
    matched = np.flatnonzero(judged_row >= 0)  # a fifth of the rows or so: indices, gathered once
    matched_judgment = judged_row[matched]
    # A judgment matched by two run rows is a docno the run lists twice for one query (the
    # readers check every line; this catches DataFrames built by hand).
    reused = np.flatnonzero(np.bincount(matched_judgment, minlength=judged_grade.size) > 1)
    if reused.size:
        row = int(reused[0])
        raise _duplicate_error("run", str(query_ids[judged_query[row]]), judged_d_str[row].as_py())
    matched_grade = judged_grade[matched_judgment]
    matched_grade[matched_grade < 0] = UNJUDGED
    grade = np.full(run_query.size, NONPOOL, dtype=np.int64)
    grade[matched] = matched_grade

    # --- ranks, depth, judged-only ----------------------------------------------------------
    row_query = run_query[order]
    grade = grade[order]
    judged_query_rows = int(np.searchsorted(row_query, n_queries))  # the extra query sorts last
    row_query, grade = row_query[:judged_query_rows], grade[:judged_query_rows]
    counts = np.bincount(row_query, minlength=n_queries)
    starts = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    rank = np.arange(row_query.size, dtype=np.int64) - starts[row_query] + 1
    # trec_eval cuts at -M first, then drops unjudged documents (-J) and re-ranks the rest.
    if depth is not None or judged_only:
        within = np.ones(row_query.size, dtype=bool)
        if depth is not None:
            within &= rank <= depth
        if judged_only:
            within &= grade >= 0
        row_query, grade = row_query[within], grade[within]
        counts = np.bincount(row_query, minlength=n_queries)
        starts = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
        rank = np.arange(row_query.size, dtype=np.int64) - starts[row_query] + 1

    # --- judgments grouped by query, best grade first (for the ideal rankings) -------------
    ideal_order = _by_query_then_grade_descending(judged_query, judged_grade, n_queries)
    judged_query = judged_query[ideal_order]
    judged_grade = judged_grade[ideal_order]
    judged_counts = np.bincount(judged_query, minlength=n_queries)
    judged_starts = np.concatenate(([0], np.cumsum(judged_counts))).astype(np.int64)

    return JudgedRanking(
        query_ids=query_ids,
        has_run=has_run,
        starts=starts,
        row_query=row_query.astype(np.int64, copy=False),
        rank=rank,
        grade=grade,
        judged_starts=judged_starts,
        judged_query=judged_query,
        judged_grade=judged_grade,
        max_grade=int(max(judged_grade.max(initial=0), 0)),
    )
