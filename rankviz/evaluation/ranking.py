"""Turn qrels and run lines into trec_eval's ranked, judged lists, a block of whole queries at a time.

The result (:class:`JudgedRanking`) holds flat integer arrays, one row per retrieved document,
grouped by query and sorted the way trec_eval sorts: score descending, then docno descending
(``strcmp`` byte order; :func:`trec_eval_order`). The rank column of a run file is never used.
Each row carries the document's grade:

* its qrels grade (>= 0) when judged,
* ``NONPOOL`` (-1) when the qrels do not list it (trec_eval's RELVALUE_NONPOOL),
* ``UNJUDGED`` (-2) when the qrels list it with a negative grade, "pooled but not judged"
  (trec_eval 10's RELVALUE_UNJUDGED; bpref and infAP skip these, unj counts them).

The qrels are indexed once (:class:`JudgmentIndex`); a run is then ranked and judged in blocks
of whole queries (:func:`prepare_block`), each block independently of the others: evaluate
reads a big run file block by block (:meth:`rankviz.trec.readers.RunStream.blocks`) and keeps
only each block's per-query values. How the work is done, since it dominates the run time:

* a block's queries are numbered in the order it first lists them, so that a run listing each
  query's lines together, best score first, as run files do, is already in trec_eval's order:
  no row moves except within ties of equal score, which are re-sorted by docno; any other
  block is sorted once;
* docnos are matched to judgments by a 64-bit key per (query, docno) (the query's code in the
  high bits, :func:`~rankviz.trec.duplicates.content_hashes` of the docno's bytes in the low
  bits), one look-up per run line in the sorted judgment keys, bucketed by their top bits,
  and every hit verified byte for byte; qrels whose keys collide are matched through a
  dictionary of the judged docnos (``pyarrow.compute.index_in``) instead. Both give the same
  answer (tested);
* ranks are computed only for the rows a measure looks at (:meth:`JudgedRanking.rank_of`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from rankviz.metrics.kernels.lists import RankedLists
from rankviz.metrics.kernels.segments import NONPOOL, UNJUDGED
from rankviz.trec.duplicates import (RowKeys, arrow_of, first_duplicate, fixed_width_bytes,
                                     fixed_width_words, numpy_of, pair_keys, row_keys)
from rankviz.trec.readers import RunBlock, TrecTable

__all__ = ["NONPOOL", "UNJUDGED", "JudgedRanking", "JudgmentIndex", "evaluated_queries", "prepare", "prepare_block",
           "run_block", "trec_eval_order"]


@dataclass(frozen=True, eq=False)
class JudgedRanking(RankedLists):
    """Ranked, judged lists of the queries of a run (or of a block of it; see the module
    docstring): the kernels' :class:`~rankviz.metrics.kernels.lists.RankedLists` plus which
    query each segment is.

    Attributes
    ----------
    query_ids : ndarray of str
        The queries of the run (or block), in the order it first lists them, then the queries
        asked for without run lines (the qrels-only ones, which have no rows). Callers sort
        their output by query id; this order lets a run whose lines are grouped by query keep
        its row order.
    judged : ndarray of bool
        Whether the qrels list the query. trec_eval evaluates only these: the values of the
        others (run lines without judgments) are computed with the rest and never shown.
    has_run : ndarray of bool
        Whether the run has lines for the query (before the depth and judged-only cuts).

    The arrays of :class:`RankedLists` are int64 here (``row_query`` may be int32 codes, the
    run reader's own read-only array): grades are the qrels' or a sentinel, ``max_grade`` is
    the largest grade in the whole qrels (0 when none is positive), whichever block this is.
    """

    query_ids: np.ndarray = field(kw_only=True)
    judged: np.ndarray = field(kw_only=True)
    has_run: np.ndarray = field(kw_only=True)


def _duplicate_error(kind: str, query_id: str, doc_id: str) -> ValueError:
    return ValueError(
        f"evaluate: the {kind} lists document {doc_id!r} twice for query {query_id!r}; "
        f"trec_eval stops on duplicates too. Remove one of the lines."
    )


# --------------------------------------------------------------------------------------------
# trec_eval's order


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


def evaluated_queries(judged_ids, run_ids, *, complete: bool, judgments: str = "judgments in the qrels",
                      unit: str = "query") -> tuple[list, dict]:
    """The queries an evaluation scores, sorted as strings, and the position of each.

    A query with judgments is scored when the run has lines for it, or with ``complete``
    (trec_eval's ``-c``) always; a query only in the run is ignored (trec_eval). ``judgments``
    and ``unit`` word the error raised when no query is left ("no topic of the run has
    subtopic judgments").

    >>> evaluated_queries(["q2", "q1", "q3"], ["q1", "q2", "q9"], complete=False)
    (['q1', 'q2'], {'q1': 0, 'q2': 1})
    """
    import pandas as pd  # its callers read pandas tables; evaluate's own path never needs it

    in_run = set(pd.unique(np.asarray(run_ids, dtype=object)))
    evaluated = sorted(q for q in pd.unique(np.asarray(judged_ids, dtype=object)) if complete or q in in_run)
    if not evaluated:
        raise ValueError(f"evaluate: no {unit} of the run has {judgments} ({unit} ids must match exactly, as "
                         "strings); nothing to evaluate.")
    return evaluated, {q: i for i, q in enumerate(evaluated)}


def trec_eval_order(query: np.ndarray, score: np.ndarray, docs, *,
                    characters: list[np.ndarray] | None = None) -> np.ndarray:
    """The order trec_eval ranks a run's rows in: query code ascending, score descending, then
    docno descending (``strcmp`` byte order, which is also the code-point order of the strings).

    The one routine for trec_eval's tie rule: :func:`prepare_block` (evaluate, the CLI, a block
    of whole queries at a time), :func:`rankviz.evaluation.ties.order_run` and the diversity
    measures' run (:mod:`rankviz.evaluation.subtopics`) all rank with it.

    Parameters
    ----------
    query : ndarray of int
        Per row, the code of its query; the order groups the rows by code, smallest first.
    score : ndarray of float
        Per row, the run's score.
    docs : pyarrow string array, pandas.Series or sequence of str
        Per row, the docno.
    characters : list of ndarray, optional
        The fixed-width views of ``docs`` (:func:`~rankviz.trec.duplicates.fixed_width_bytes`),
        when the caller has them: the tied docnos' bytes are then read in place.

    Returns
    -------
    ndarray of int64
        ``order[i]`` is the row at position ``i``.

    Notes
    -----
    A run file usually lists each query's lines together, best score first: when ``query``
    numbers the queries in order of first appearance, such a run is already in this order but
    for ties, so no sort of the whole run happens; only the tied docnos are sorted. The rank
    column of a run file plays no part.

    Examples
    --------
    d1 and d2 tie at 2.0 for query 0: the larger docno, d2, comes first; query 0's rows come
    before query 1's although the file lists query 1 first.

    >>> trec_eval_order(np.array([1, 0, 0, 0]), np.array([5.0, 2.0, 2.0, 3.0]), ["d9", "d1", "d2", "d3"]).tolist()
    [3, 2, 1, 0]
    """
    query = np.asarray(query, dtype=np.int64)
    docs = _arrow_strings_of(docs)
    score = np.asarray(score, dtype=np.float64)
    order = _score_order(query, score)
    positions, rows = _tie_moves(order, query, score, docs, characters)
    if order is None:
        order = np.arange(query.size, dtype=np.int64)
    order[positions] = rows
    return order


def _score_order(query: np.ndarray, score: np.ndarray) -> np.ndarray | None:
    """The (query, score descending) order of the rows, None when they are in it already: the
    first half of :func:`trec_eval_order`, :func:`_tie_moves` the second. :func:`prepare_block`
    runs them apart (the tie moves applied in place to a block in file order, saving two
    gathers of every row)."""
    return None if _in_order(query, score) else np.lexsort((-score, query))


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
        tied_docs = _take(docs, tied_rows)
    table = pa.Table.from_arrays([arrow_of(group), tied_docs], names=["group", "doc"])
    within = numpy_of(pc.sort_indices(table, sort_keys=[("group", "ascending"), ("doc", "descending")]))
    return positions, tied_rows[within]


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


def _key_buckets(sorted_keys: np.ndarray) -> tuple[np.ndarray, np.uint64]:
    """(bucket_start, shift) of :func:`_find_keys`: where each bucket of keys sharing their top
    bits starts in ``sorted_keys``, and the shift that gives a key's bucket."""
    bits = min(int(sorted_keys.size).bit_length() + 1, 30)
    shift = np.uint64(64 - bits)
    # int32 positions: the arrays of a look-up are as long as the run lines looked up.
    index_type = np.int32 if sorted_keys.size < 2**31 else np.int64
    bucket_start = np.zeros((1 << bits) + 1, dtype=index_type)
    counts = np.bincount((sorted_keys >> shift).view(np.int64), minlength=1 << bits).astype(index_type)
    np.cumsum(counts, out=bucket_start[1:])  # same type in and out: numpy's casting cumsum is slower
    return bucket_start, shift


def _find_keys(sorted_keys: np.ndarray, keys: np.ndarray, found: np.ndarray | None = None,
               buckets: tuple | None = None) -> np.ndarray:
    """Position of each key in ``sorted_keys`` (distinct, ascending uint64), -1 when absent
    (written to ``found``, an int64 array as long as ``keys``, when given; ``buckets``: the
    :func:`_key_buckets` of ``sorted_keys``, built once for many look-ups).

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
    bucket_start, shift = buckets if buckets is not None else _key_buckets(sorted_keys)
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


# --------------------------------------------------------------------------------------------
# The qrels, indexed once


@dataclass(frozen=True, eq=False)
class JudgmentIndex:
    """The judgments of a qrels, indexed for matching run lines and for the ideal rankings.

    Built once per qrels (:meth:`of`), then used by every block of every run evaluated against
    it. Holds one int64 grade, one 64-bit key and the docno of each judgment; nothing per run line.

    Attributes
    ----------
    query_ids : list of str
        The judged queries; a query's code is its position (order of first appearance).
    codes : dict
        Query id -> code.
    grade : ndarray of int64
        Each judgment's grade, in the qrels' row order.
    ideal_starts, ideal_grade : ndarray of int64
        The grades grouped by query code, best first within a query (``ideal_starts[c]`` to
        ``ideal_starts[c + 1]`` for code ``c``): the ideal rankings and R come from these.
    max_grade : int
        The largest grade of the qrels (0 when none is positive): ERR's g_max, for every block.
    """

    query_ids: list
    codes: dict
    grade: np.ndarray
    ideal_starts: np.ndarray
    ideal_grade: np.ndarray
    max_grade: int
    _docs: pa.ChunkedArray | None = field(repr=False)  # the docnos, when they have several widths
    _views: list | None = field(repr=False)  # [their bytes as one (n, width) array], when they have one
    _sorted_keys: np.ndarray | None = field(repr=False)  # None: keys collide, match by dictionary
    _key_order: np.ndarray = field(repr=False)
    _buckets: tuple | None = field(repr=False)
    _judged_query: np.ndarray = field(repr=False)

    @classmethod
    def of(cls, qrels) -> JudgmentIndex:
        """The index of a validated qrels: a DataFrame with columns query_id, doc_id, relevance,
        a :class:`~rankviz.trec.readers.TrecTable` (whose reader's keys are reused), a pyarrow
        Table read by :func:`rankviz.trec.readers.read_qrels_arrow` with its keys as a pair
        ``(table, keys)``, or an index (returned as is).

        Raises ValueError when a docno is judged twice for one query.
        """
        if isinstance(qrels, JudgmentIndex):
            return qrels
        if isinstance(qrels, tuple):
            table, keys = qrels
            return cls.from_columns(table["doc_id"], numpy_of(table["relevance"]).astype(np.int64, copy=False),
                                    keys if keys is not None else row_keys(table))
        frame, keys = _frame_and_keys(qrels)
        docs = _arrow_strings(frame["doc_id"])
        if keys is None:
            keys = row_keys(pa.table({"query_id": _arrow_strings(frame["query_id"]), "doc_id": docs}))
        return cls.from_columns(docs, frame["relevance"].to_numpy(dtype=np.int64, copy=True), keys)

    @classmethod
    def from_columns(cls, docs: pa.ChunkedArray, grade: np.ndarray, keys: RowKeys) -> JudgmentIndex:
        """The index of judgments given as their docnos, grades and :class:`RowKeys` (query
        codes in order of first appearance and content hashes of the docnos)."""
        query_ids = list(keys.query_labels)
        n_queries = len(query_ids)
        query = keys.query_codes  # int32
        ideal_order = _by_query_then_grade_descending(query.astype(np.int64), grade, n_queries)
        ideal_starts = _starts(np.bincount(query, minlength=n_queries))
        views = fixed_width_bytes(docs, keys.doc_width)
        if views is not None:  # docnos of one width: kept as one contiguous array, looked up directly
            views = [np.concatenate(views)] if len(views) > 1 else views
        judged_keys = pair_keys(keys.query_codes, keys.doc_hashes, n_queries)
        key_order = np.argsort(judged_keys)
        sorted_keys = judged_keys[key_order]
        del judged_keys
        if key_order.size < 2**31:  # half the memory of the judgments' positions
            key_order = key_order.astype(np.int32)
        if np.any(sorted_keys[1:] == sorted_keys[:-1]):
            repeated = first_duplicate(pair_keys(keys.query_codes, keys.doc_hashes, n_queries), [keys.query_codes, docs])
            if repeated is not None:
                raise _duplicate_error("qrels", query_ids[keys.query_codes[repeated[1]]], docs[repeated[1]].as_py())
            sorted_keys = None  # two docnos of a query share a key (rare): the dictionary path is exact
        return cls(query_ids=query_ids, codes={q: c for c, q in enumerate(query_ids)}, grade=grade,
                   ideal_starts=ideal_starts, ideal_grade=grade[ideal_order],
                   max_grade=int(max(grade.max(initial=0), 0)), _docs=None if views is not None else docs,
                   _views=views, _sorted_keys=sorted_keys,
                   _key_order=key_order, _buckets=None if sorted_keys is None else _key_buckets(sorted_keys),
                   _judged_query=query)

    def match(self, query: np.ndarray, hashes: np.ndarray, docs: pa.ChunkedArray, views) -> np.ndarray:
        """The judgment (row of the qrels) of each run line, -1 for none.

        ``query``: the index's code of each line's query (-1 for a query the qrels lack);
        ``hashes``: :func:`~rankviz.trec.duplicates.content_hashes` of the docnos ``docs``;
        ``views``: their fixed-width views (:func:`~rankviz.trec.duplicates.fixed_width_bytes`) or None.
        """
        out = np.full(query.size, -1, dtype=np.int64)
        lines = np.flatnonzero(query >= 0)
        if lines.size == 0 or self.grade.size == 0:
            return out
        if self._sorted_keys is None:
            return self._match_by_dictionary(query, docs, out)
        keys = pair_keys(query[lines], hashes[lines], len(self.query_ids))
        slot = _find_keys(self._sorted_keys, keys, buckets=self._buckets)
        hit = np.flatnonzero(slot >= 0)
        candidate, judgment = lines[hit], self._key_order[slot[hit]].astype(np.int64)
        # The key's high bits are the query code: a hit is in the right query; the docno's
        # bytes are compared, so a hash collision is never a match.
        same = self._same_docnos(candidate, judgment, docs, views)
        out[candidate[same]] = judgment[same]
        return out

    def _same_docnos(self, lines: np.ndarray, judgments: np.ndarray, docs: pa.ChunkedArray, views) -> np.ndarray:
        """Whether run line ``lines[i]`` has the docno of judgment ``judgments[i]``, byte for byte."""
        if views is not None and self._views is not None and views[0].shape[1] == self._views[0].shape[1]:
            return _same_bytes(_gather(views, lines), _gather(self._views, judgments))
        same = pc.equal(_take(docs, lines), _take(self._doc_strings(), judgments))
        return numpy_of(pc.cast(same, pa.int8())).astype(bool)

    def _doc_strings(self) -> pa.ChunkedArray:
        """The judged docnos as Arrow strings (made from their bytes when they have one width)."""
        if self._docs is not None:
            return self._docs
        characters = self._views[0]
        binary = pa.Array.from_buffers(pa.binary(characters.shape[1]), characters.shape[0],
                                       [None, pa.py_buffer(characters)])
        return pa.chunked_array([binary.cast(pa.large_string())])

    def _match_by_dictionary(self, query: np.ndarray, docs: pa.ChunkedArray, out: np.ndarray) -> np.ndarray:
        """The exact path: a dictionary of the judged docnos (one C-level hash look-up per run
        line) and a binary search on int64 keys (query, docno code)."""
        encoding = pc.dictionary_encode(self._doc_strings().combine_chunks())
        dictionary = encoding.dictionary
        n_docs = np.int64(max(len(dictionary), 1))
        judged_keys = self._judged_query.astype(np.int64) * n_docs + numpy_of(encoding.indices).astype(np.int64)
        key_order = np.argsort(judged_keys, kind="stable")
        sorted_keys = judged_keys[key_order]
        found = pc.fill_null(pc.index_in(docs.cast(dictionary.type), value_set=dictionary), -1)
        found = numpy_of(found).astype(np.int64)
        known = (found >= 0) & (query >= 0)
        run_keys = np.where(known, query * n_docs + found, 0)
        slot = np.minimum(np.searchsorted(sorted_keys, run_keys), sorted_keys.size - 1)
        matched = known & (sorted_keys[slot] == run_keys)
        out[matched] = key_order[slot[matched]]
        return out

    def judgments_of(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(counts, grades): how many judgments each of ``codes`` has (0 for -1, a query the
        qrels lack), and their grades, best first within each, concatenated in that order."""
        counts = np.zeros(codes.size, dtype=np.int64)
        known = codes >= 0
        counts[known] = self.ideal_starts[codes[known] + 1] - self.ideal_starts[codes[known]]
        first = np.zeros(codes.size, dtype=np.int64)
        first[known] = self.ideal_starts[codes[known]]
        # Positions first[q], first[q] + 1, ... for each query q in turn, without a loop.
        offsets = np.arange(int(counts.sum()), dtype=np.int64) - np.repeat(_starts(counts)[:-1], counts)
        return counts, self.ideal_grade[np.repeat(first, counts) + offsets]


def _take(strings: pa.ChunkedArray, rows: np.ndarray) -> pa.Array:
    return strings.take(arrow_of(rows.astype(np.int64)))


# --------------------------------------------------------------------------------------------
# A block of run lines, ranked and judged


def run_block(run) -> RunBlock:
    """A whole run table as one :class:`~rankviz.trec.readers.RunBlock`: a validated DataFrame
    with columns query_id, doc_id, score, or a :class:`~rankviz.trec.readers.TrecTable` (whose
    reader's keys are reused while its id columns are unchanged).

    Raises ValueError when a docno is listed twice for one query (the readers check every line
    of a file; this catches DataFrames built by hand).
    """
    frame, keys = _frame_and_keys(run)
    docs = _arrow_strings(frame["doc_id"])
    score = frame["score"].to_numpy(dtype=np.float64)
    if keys is None:
        keys = row_keys(pa.table({"query_id": _arrow_strings(frame["query_id"]), "doc_id": docs}))
        repeated = first_duplicate(keys.pair_keys, [keys.query_codes, docs])
        if repeated is not None:
            row = repeated[1]
            raise _duplicate_error("run", keys.query_labels[keys.query_codes[row]], docs[row].as_py())
    return RunBlock(keys, docs, score)


def prepare_block(index: JudgmentIndex, block: RunBlock, *, depth: int | None = None, judged_only: bool = False,
                  without_run: tuple = ()) -> JudgedRanking:
    """The :class:`JudgedRanking` of a block of whole queries, judged with ``index``.

    ``depth`` keeps the top ``depth`` documents per query after sorting (trec_eval ``-M``);
    ``judged_only`` drops documents without a judgment before ranks are assigned (trec_eval
    ``-J``). ``without_run``: ids of queries to add after the block's own, with their judgments
    and no rows (the qrels-only queries, scored as empty rankings under ``complete``). A query's
    values do not depend on the block it is evaluated in.
    """
    keys = block.keys
    query_ids = list(keys.query_labels) + list(without_run)
    n_queries = len(query_ids)
    index_code = np.fromiter((index.codes.get(q, -1) for q in query_ids), dtype=np.int64, count=n_queries)
    run_query = keys.query_codes
    score = block.score
    docs = block.doc_id

    # --- trec_eval's order, and the judgment of each run line ------------------------------
    # A run usually lists each query's lines together, best score first: then its order is
    # already trec_eval's but for ties, and no row moves except the tied ones.
    views = fixed_width_bytes(docs, keys.doc_width)
    order = _score_order(run_query, score)
    tied_positions, tied_rows = _tie_moves(order, run_query, score, docs, views)
    judged_row = index.match(index_code[run_query], keys.doc_hashes, docs, views)

    # --- grades of the retrieved documents -------------------------------------------------
    matched = np.flatnonzero(judged_row >= 0)  # a fifth of the rows or so: indices, gathered once
    matched_grade = index.grade[judged_row[matched]]
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

    # --- the judgments of these queries, best grade first (for the ideal rankings) ---------
    counts, judged_grade = index.judgments_of(index_code)
    return JudgedRanking(
        query_ids=np.array(query_ids, dtype=object),
        judged=index_code >= 0,
        has_run=np.arange(n_queries) < len(keys.query_labels),
        starts=starts,
        row_query=row_query,
        grade=grade,
        judged_starts=_starts(counts),
        judged_query=np.repeat(np.arange(n_queries, dtype=np.int64), counts),
        judged_grade=judged_grade,
        max_grade=index.max_grade,
    )


def prepare(qrels, run, *, depth: int | None = None, judged_only: bool = False) -> JudgedRanking:
    """Build the :class:`JudgedRanking` of a validated qrels and run table, all queries at once.

    ``qrels`` has columns query_id, doc_id, relevance (int); ``run`` has query_id, doc_id,
    score (float). Either may be a :class:`~rankviz.trec.readers.TrecTable` (what
    ``read_qrels_table`` / ``read_run_table`` return): its frame is used, with the keys its
    reader computed (:meth:`~rankviz.trec.readers.TrecTable.current_keys`) instead of new ones.
    Neither is modified. The run's queries come first, in the order it first lists them, then
    the queries only the qrels list (sorted). ``depth`` and ``judged_only``: as for
    :func:`prepare_block`.
    """
    index = JudgmentIndex.of(qrels)
    block = run_block(run)
    without_run = sorted(set(index.query_ids).difference(block.keys.query_labels))
    return prepare_block(index, block, depth=depth, judged_only=judged_only, without_run=tuple(without_run))


def _frame_and_keys(table) -> tuple:
    """The DataFrame, and the reader's keys of its ids when it is a TrecTable whose ids are unchanged."""
    if isinstance(table, TrecTable):
        return table.frame, table.current_keys()
    return table, None


def _arrow_strings(column) -> pa.ChunkedArray:
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


def _arrow_strings_of(docs) -> pa.ChunkedArray:
    """Docnos given as an Arrow string array, a pandas column or a sequence of str, as a chunked Arrow array."""
    if isinstance(docs, pa.ChunkedArray):
        return docs
    if isinstance(docs, pa.Array):
        return pa.chunked_array([docs])
    if hasattr(docs, "array"):  # a pandas Series
        return _arrow_strings(docs)
    return pa.chunked_array([pa.array([str(doc) for doc in docs], type=pa.string())])


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


def _starts(counts: np.ndarray) -> np.ndarray:
    """Segment starts (length len(counts) + 1) of consecutive segments of these sizes."""
    return np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
