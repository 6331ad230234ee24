"""Turn a qrels and a run table into trec_eval's ranked, judged lists, for all queries at once.

The result (:class:`JudgedRanking`) holds flat integer arrays, one row per retrieved document,
grouped by query and sorted the way trec_eval sorts: score descending, then docno descending
(``strcmp`` byte order). The rank column of a run file is never used. Each row carries the
document's grade:

* its qrels grade (>= 0) when judged,
* ``NONPOOL`` (-1) when the qrels do not list it (trec_eval's RELVALUE_NONPOOL),
* ``UNJUDGED`` (-2) when the qrels list it with a negative grade, "pooled but not judged"
  (trec_eval 10's RELVALUE_UNJUDGED; bpref and infAP skip these, unj counts them).

How the work is done, since it dominates the run time on big files:

* queries are numbered in the order the run first lists them (from the run-length encoded
  query column: a few thousand labels looked up, not one per line), so that a run listing each
  query's lines together, best score first, as run files do, is already in trec_eval's order:
  no row moves except within ties of equal score, which are re-sorted by docno; any other run
  is sorted once. Callers put their output in query-id order;
* docnos are matched to judgments without a string hash table when they all have one width
  (ClueWeb, GOV2...): a 64-bit key (query code in the high bits, a hash of the docno's bytes
  read in place 8 at a time in the low bits) and one look-up per run line in the sorted
  judgment keys, bucketed by their top bits, every hit verified byte for byte; otherwise
  through a dictionary of the judged docnos (``pyarrow.compute.index_in``). Both give the
  same answer (tested);
* ranks are computed only for the rows a measure looks at (:meth:`JudgedRanking.rank_of`).
"""

from __future__ import annotations

import os
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from rankviz.metrics.kernels.lists import RankedLists
from rankviz.metrics.kernels.segments import NONPOOL, UNJUDGED
from rankviz.trec.duplicates import (RowKeys, fixed_width_bytes, fixed_width_words, hash_fixed_width, pair_keys,
                                     query_bits, query_codes_and_labels)
from rankviz.trec.readers import TrecTable

__all__ = ["NONPOOL", "UNJUDGED", "JudgedRanking", "prepare"]



@dataclass(frozen=True, eq=False)
class JudgedRanking(RankedLists):
    """Ranked, judged lists of every query of a run (see the module docstring): the kernels'
    :class:`~rankviz.metrics.kernels.lists.RankedLists` plus which query each segment is.

    Attributes
    ----------
    query_ids : ndarray of str
        Every query of the run, in the order the run first lists them, then the queries only
        the qrels list (which have no rows). Callers sort their output by query id; this
        order lets a run whose lines are grouped by query keep its row order.
    judged : ndarray of bool
        Whether the qrels list the query. trec_eval evaluates only these: the values of the
        others (run lines without judgments) are computed with the rest and never shown.
    has_run : ndarray of bool
        Whether the run has lines for the query (before the depth and judged-only cuts).

    The arrays of :class:`RankedLists` are int64 here: ``row_query`` may be the reader's own
    array of query codes (read-only), grades are the qrels' or a sentinel, ``max_grade`` is
    the largest grade in the qrels (0 when none is positive).
    """

    query_ids: np.ndarray = field(kw_only=True)
    judged: np.ndarray = field(kw_only=True)
    has_run: np.ndarray = field(kw_only=True)


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


def _query_codes(keys: RowKeys | None, strings: pa.ChunkedArray | None) -> tuple[np.ndarray, list[str]]:
    """Per row, the code of its query id, codes numbering the ids in order of first appearance,
    and the id of each code: a reader's (``keys``), or computed from the strings."""
    if keys is not None:
        return keys.query_codes, keys.query_labels
    return query_codes_and_labels(strings)


def _recode(codes: np.ndarray, labels: list[str], universe: dict[str, int]) -> np.ndarray:
    """Per row, the code in ``universe`` of its id, given the rows' first-appearance ``codes``
    and their ``labels``."""
    translation = np.fromiter((universe[label] for label in labels), dtype=np.int64, count=len(labels))
    return translation[codes]


def _in_order(query: np.ndarray, score: np.ndarray) -> bool:
    """Whether the rows are already in (query, score descending) order, given query codes
    numbered in order of first appearance: each query's rows together, best score first."""
    if query.size < 2:
        return True
    changes = np.flatnonzero(query[1:] != query[:-1])
    if np.any(query[changes + 1] <= query[changes]):  # a query listed in two places
        return False
    rising = np.flatnonzero(score[1:] > score[:-1])  # allowed only where the query changes
    return bool(np.all(query[rising + 1] != query[rising]))


def _tie_moves(order: np.ndarray | None, query: np.ndarray, score: np.ndarray, docs: pa.ChunkedArray,
               characters: list[np.ndarray] | None) -> tuple[np.ndarray, np.ndarray]:
    """Within runs of equal (query, score), put docnos in descending byte order (trec_eval).

    ``order`` is the (query, score descending) order of the rows (None: the rows are in it).
    Returns ``(positions, rows)``: position ``positions[i]`` of that order holds row
    ``rows[i]``; the other positions keep theirs. ``characters`` are the fixed-width views of
    ``docs`` (see :func:`~rankviz.trec.duplicates.fixed_width_bytes`) when available: only the
    tied docnos' bytes are then gathered, without going through the Arrow string chunks."""
    q = query if order is None else query[order]
    s = score if order is None else score[order]
    # Position i ties with i + 1: equal scores first (few), then the same query among those.
    ties_next = np.flatnonzero(s[1:] == s[:-1])
    ties_next = ties_next[q[ties_next + 1] == q[ties_next]]
    if not ties_next.size:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    # Every row of a tie, in order. (Sorted by hand: numpy's unique, union1d and isin are far
    # slower than one sort on arrays of this size.)
    positions = np.sort(np.concatenate((ties_next, ties_next + 1)))
    positions = positions[np.concatenate(([True], positions[1:] != positions[:-1]))]
    # Group id: a new group starts where a tied row does not tie with the row before it.
    before = positions - 1
    found = np.minimum(np.searchsorted(ties_next, before), ties_next.size - 1)
    group = np.cumsum(ties_next[found] != before)
    tied_rows = positions if order is None else order[positions]
    if characters is not None:
        # The tied docnos' bytes, copied once, seen by Arrow as fixed-size binary values (no
        # copy): its sort compares them byte by byte (strcmp order), several times faster than
        # a numpy lexsort over their 8-byte words.
        tied = _gather(characters, tied_rows)
        tied_docs = pa.Array.from_buffers(pa.binary(tied.shape[1]), tied.shape[0], [None, pa.py_buffer(tied)])
    else:
        tied_docs = docs.combine_chunks().take(pa.array(tied_rows))
    table = pa.table({"group": group, "doc": tied_docs})
    within = pc.sort_indices(table, sort_keys=[("group", "ascending"), ("doc", "descending")]).to_numpy()
    return positions, tied_rows[within]


def _duplicate_error(kind: str, query_id: str, doc_id: str) -> ValueError:
    return ValueError(
        f"evaluate: the {kind} lists document {doc_id!r} twice for query {query_id!r}; "
        f"trec_eval stops on duplicates too. Remove one of the lines."
    )


def _gather(views: list[np.ndarray], rows: np.ndarray) -> np.ndarray:
    """Rows (global indices) of chunked fixed-width character views, as one contiguous
    (len(rows), width) array. Each docno is moved as one opaque item (a numpy void of its
    width), about twice as fast as gathering rows of a 2-d uint8 array."""
    width = views[0].shape[1]
    items = [_as_items(view) for view in views]
    if len(items) == 1:
        return items[0][rows].view(np.uint8).reshape(-1, width)
    order = None
    if rows.size > 1 and np.any(rows[1:] < rows[:-1]):
        order = np.argsort(rows, kind="stable")
        rows = rows[order]
    out = np.empty(rows.size, dtype=items[0].dtype)
    bounds = np.cumsum([0] + [len(chunk) for chunk in items])
    cuts = np.searchsorted(rows, bounds)  # rows are sorted: each chunk's rows are one slice
    for chunk, start, lo, hi in zip(items, bounds, cuts, cuts[1:]):
        out[lo:hi] = chunk[rows[lo:hi] - start]
    if order is not None:
        unsorted = np.empty_like(out)
        unsorted[order] = out
        out = unsorted
    return out.view(np.uint8).reshape(-1, width)


def _as_items(view: np.ndarray) -> np.ndarray:
    """An (n, width) C-contiguous uint8 array as n void items of ``width`` bytes (no copy)."""
    return view.view(np.dtype((np.void, view.shape[1]))).reshape(-1)


def _same_bytes(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """Row-wise equality of two (n, width) uint8 arrays, compared 8 bytes at a time."""
    if left.shape[1] < 8:
        return np.all(left == right, axis=1)
    same = None
    for a, b in zip(fixed_width_words(left), fixed_width_words(right)):
        equal = a == b
        same = equal if same is None else same & equal
    return same


_PROBES = 4


class _Inline:
    """The executor interface, running each call at once in the calling thread."""

    def submit(self, function, *args):
        future = Future()
        future.set_result(function(*args))
        return future

    def map(self, function, *iterables):
        return map(function, *iterables)

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        return False


# Below this many run lines a second thread costs more than it saves.
_THREADED_ROWS = 1_000_000


def _helpers(n_rows: int):
    """A two-thread executor for a big run on a machine with more than one core, else _Inline."""
    if n_rows >= _THREADED_ROWS and (os.cpu_count() or 1) > 1:
        return ThreadPoolExecutor(max_workers=2)
    return _Inline()


def _find_keys_in_parts(sorted_keys: np.ndarray, keys: np.ndarray, pool) -> np.ndarray:
    """:func:`_find_keys`, the keys cut in two halves looked up side by side by ``pool``."""
    if pool is None or isinstance(pool, _Inline) or keys.size < _THREADED_ROWS:
        return _find_keys(sorted_keys, keys)
    half = keys.size // 2
    found = np.empty(keys.size, dtype=np.int64)
    list(pool.map(_find_keys, (sorted_keys, sorted_keys), (keys[:half], keys[half:]), (found[:half], found[half:])))
    return found


def _find_keys(sorted_keys: np.ndarray, keys: np.ndarray, found: np.ndarray | None = None) -> np.ndarray:
    """Position of each key in ``sorted_keys`` (distinct, ascending uint64), -1 when absent
    (written to ``found``, an int64 array as long as ``keys``, when given).

    One ``searchsorted`` per run row takes ~20 cache-missing steps over a million judgments
    and was the slowest part of matching. Instead the sorted keys are cut into buckets by their
    top bits (two to four buckets per key, so most hold zero or one key) and a key only looks at
    the first few keys of its bucket, in ascending order. Keys of one query share their top
    bits (the query code), so consecutive run rows touch neighbouring buckets, in cache. Keys
    whose bucket holds more than a few judgments (say one query judged far more deeply than
    the others) finish with ``searchsorted``, so the answer never depends on the spread.
    """
    if found is None:
        found = np.empty(keys.size, dtype=np.int64)
    found.fill(-1)
    if sorted_keys.size == 0 or keys.size == 0:
        return found
    bits = min(int(sorted_keys.size).bit_length() + 1, 30)
    shift = np.uint64(64 - bits)
    # int32 positions and in-place steps: the arrays below are as long as the run (millions).
    index_type = np.int32 if sorted_keys.size < 2**31 else np.int64
    bucket_start = np.zeros((1 << bits) + 1, dtype=index_type)
    counts = np.bincount((sorted_keys >> shift).view(np.int64), minlength=1 << bits).astype(index_type)
    np.cumsum(counts, out=bucket_start[1:])  # same type in and out: numpy's casting cumsum is slower
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
                       judged_hashes: np.ndarray | None = None,
                       run_pair_keys: np.ndarray | None = None,
                       judged_width: int | None = None, pool=None) -> np.ndarray | None:
    """Fast path: judgment row of each run row (-1 if none) by 64-bit keys of (query, docno),
    every candidate verified byte for byte. ``run_chars`` are the run docnos' fixed-width
    views; ``run_hashes`` and ``judged_hashes`` the docnos'
    :func:`~rankviz.trec.duplicates.hash_fixed_width`, when the readers computed them already,
    and ``run_pair_keys`` the run's :func:`~rankviz.trec.duplicates.pair_keys` for
    ``n_queries`` (then ``run_hashes`` is not needed), ``judged_width`` the qrels reader's docno
    width. ``None`` when the docnos are not all of one width or two judgments of a query share a key
    (then the exact path runs)."""
    judged_chars = fixed_width_bytes(judged_docs, judged_width)
    if run_chars is None or judged_chars is None:
        return None
    if run_chars[0].shape[1] != judged_chars[0].shape[1]:
        return np.full(run_query.size, -1, dtype=np.int64)  # no docno can be in both
    if len(judged_chars) > 1:  # the judgments are small: one contiguous copy makes lookups direct
        judged_chars = [np.concatenate(judged_chars)]

    if judged_hashes is None:
        judged_hashes = hash_fixed_width(judged_chars[0])
    judged_keys = pair_keys(judged_query, judged_hashes, n_queries)
    key_order = np.argsort(judged_keys)
    sorted_keys = judged_keys[key_order]
    if np.any(sorted_keys[1:] == sorted_keys[:-1]):
        return None  # a duplicate judgment, or a (rare) collision: let the exact path decide
    run_keys = run_pair_keys
    if run_keys is None:
        if run_hashes is None:
            run_hashes = np.concatenate([hash_fixed_width(view) for view in run_chars])
        run_keys = pair_keys(run_query, run_hashes, n_queries)
    slot = _find_keys_in_parts(sorted_keys, run_keys, pool)
    candidate = np.flatnonzero(slot >= 0)
    judged_row = key_order[slot[candidate]]
    same = judged_query[judged_row] == run_query[candidate]
    same &= _same_bytes(_gather(run_chars, candidate), _gather(judged_chars, judged_row))
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


def _fixed_width_hashes(keys: RowKeys | None) -> np.ndarray | None:
    return keys.doc_hashes if keys is not None and keys.doc_width is not None else None


def _reusable_pair_keys(run_keys: RowKeys | None, n_queries: int) -> np.ndarray | None:
    """The run reader's pair keys when they are the ones evaluate would build: its query codes
    are evaluate's, but the number of queries (qrels-only ones added) may need more bits."""
    if run_keys is None or run_keys.doc_width is None:
        return None
    return run_keys.pair_keys if query_bits(len(run_keys.query_labels)) == query_bits(n_queries) else None


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


def prepare(qrels: pd.DataFrame | TrecTable, run: pd.DataFrame | TrecTable, *, depth: int | None = None,
            judged_only: bool = False) -> JudgedRanking:
    """Build the :class:`JudgedRanking` of a validated qrels and run table.

    ``qrels`` has columns query_id, doc_id, relevance (int); ``run`` has query_id, doc_id,
    score (float). Either may be a :class:`~rankviz.trec.readers.TrecTable` (what
    ``read_qrels_table`` / ``read_run_table`` return): its frame is used, with the keys its
    reader computed (:meth:`~rankviz.trec.readers.TrecTable.current_keys`) instead of new ones.
    Neither is modified. ``depth`` keeps the top ``depth`` documents per query after sorting
    (trec_eval ``-M``); ``judged_only`` drops documents without a judgment before ranks are
    assigned (trec_eval ``-J``).
    """
    # --- queries, numbered in the run's order ----------------------------------------------
    # Tables straight from the readers come with the query codes and docno hashes their
    # duplicate check computed: reused rather than recomputed (a few tenths of a second on a
    # 5M-line run). The run's codes number its queries in order of first appearance: they
    # are the codes used here, so the run's rows need no translation; the queries only the
    # qrels list come after them.
    qrels, qrels_keys = _frame_and_keys(qrels)
    run, run_keys = _frame_and_keys(run)
    judged_d_str = _arrow_strings(qrels["doc_id"])
    judged_grade = qrels["relevance"].to_numpy(dtype=np.int64, copy=True)
    judged_codes, judged_labels = _query_codes(
        qrels_keys, None if qrels_keys is not None else _arrow_strings(qrels["query_id"]))
    run_query, run_labels = _query_codes(run_keys, None if run_keys is not None else _arrow_strings(run["query_id"]))
    query_ids = list(run_labels) + sorted(set(judged_labels).difference(run_labels))
    universe = {query_id: code for code, query_id in enumerate(query_ids)}
    n_queries = len(universe)
    query_ids = np.array(query_ids, dtype=object)
    judged_query = _recode(judged_codes, judged_labels, universe)
    judged = np.zeros(n_queries, dtype=bool)
    judged[[universe[label] for label in judged_labels]] = True
    has_run = np.arange(n_queries) < len(run_labels)
    run_docs = _arrow_strings(run["doc_id"])
    score = run["score"].to_numpy(dtype=np.float64)

    # --- trec_eval's order, and the judgment of each run line ------------------------------
    # A run usually lists each query's lines together, best score first: then its order is
    # already trec_eval's but for ties, and no row moves except the tied ones.
    run_chars = fixed_width_bytes(run_docs, run_keys.doc_width if run_keys is not None else None)
    order = None if _in_order(run_query, score) else np.lexsort((-score, run_query))
    with _helpers(run_query.size) as pool:
        # The two are independent; numpy and Arrow release the GIL in both. On a big run the
        # tie-break (small arrays) runs on a second core while lines are matched.
        ties = pool.submit(_tie_moves, order, run_query, score, run_docs, run_chars)
        judged_row = _match_fixed_width(run_query, run_chars, judged_query, judged_d_str, n_queries,
                                        _fixed_width_hashes(run_keys), _fixed_width_hashes(qrels_keys),
                                        _reusable_pair_keys(run_keys, n_queries),
                                        qrels_keys.doc_width if qrels_keys is not None else None, pool)
        if judged_row is None:
            judged_row = _match_by_dictionary(run_query, run_docs, judged_query, judged_d_str, query_ids)
        tied_positions, tied_rows = ties.result()

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

    # --- rows in trec_eval's order ---------------------------------------------------------
    if order is None:
        row_query = run_query
        grade[tied_positions] = grade[tied_rows]
    else:
        order[tied_positions] = tied_rows
        row_query, grade = run_query[order], grade[order]
    starts = _starts(np.bincount(row_query, minlength=n_queries))
    # trec_eval cuts at -M first, then drops unjudged documents (-J) and re-ranks the rest.
    if depth is not None or judged_only:
        within = np.ones(row_query.size, dtype=bool)
        if depth is not None:
            within &= np.arange(row_query.size) - starts[row_query] < depth
        if judged_only:
            within &= grade >= 0
        row_query, grade = row_query[within], grade[within]
        starts = _starts(np.bincount(row_query, minlength=n_queries))

    # --- judgments grouped by query, best grade first (for the ideal rankings) -------------
    ideal_order = _by_query_then_grade_descending(judged_query, judged_grade, n_queries)
    judged_query = judged_query[ideal_order]
    judged_grade = judged_grade[ideal_order]
    judged_starts = _starts(np.bincount(judged_query, minlength=n_queries))

    return JudgedRanking(
        query_ids=query_ids,
        judged=judged,
        has_run=has_run,
        starts=starts,
        row_query=row_query,
        grade=grade,
        judged_starts=judged_starts,
        judged_query=judged_query,
        judged_grade=judged_grade,
        max_grade=int(max(judged_grade.max(initial=0), 0)),
    )


def _frame_and_keys(table: pd.DataFrame | TrecTable) -> tuple[pd.DataFrame, RowKeys | None]:
    """The DataFrame, and the reader's keys of its ids when it is a TrecTable whose ids are unchanged."""
    if isinstance(table, TrecTable):
        return table.frame, table.current_keys()
    return table, None


def _starts(counts: np.ndarray) -> np.ndarray:
    """Segment starts (length len(counts) + 1) of consecutive segments of these sizes."""
    return np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
