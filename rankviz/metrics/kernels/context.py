"""Shared, cached intermediate arrays for the kernels of one evaluate() call, or of one
per-query metric call (a single list).

Many measures need the same running counts (relevant so far, R, precision at each relevant
document...). They are computed once per relevance threshold and reused, so asking for
P@5..P@1000, AP and R-prec costs one cumulative sum, not eleven. The breakdown tables of the
per-query metrics read the same arrays, so a worked table and its value cannot disagree.

A threshold may be any number (the per-query metrics accept float grades and thresholds such as
0.5): a row is relevant when its grade is ``>= max(thr, 0)``, so negative grades (no usable
judgment) are never relevant.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from rankviz.metrics.kernels.segments import UNJUDGED, segment_count, segment_cumsum, segment_sum

__all__ = ["BatchContext"]


class BatchContext:
    """A judged ranking (:class:`rankviz.evaluation.ranking.JudgedRanking`) plus the evaluation options and a cache of derived arrays."""

    def __init__(self, ranking, *, rel_threshold: float = 1, trec_eval_version: str = "10",
                 collection_size: int = 0):
        self.ranking = ranking
        self.rel_threshold = rel_threshold
        self.trec_eval_version = trec_eval_version
        self.collection_size = collection_size
        self._cache: dict = {}

    # -- shorthands ----------------------------------------------------------------------
    @property
    def n(self) -> int:
        return self.ranking.n_queries

    @property
    def rank(self) -> np.ndarray:
        return self.ranking.rank

    @property
    def grade(self) -> np.ndarray:
        return self.ranking.grade

    @property
    def row_query(self) -> np.ndarray:
        return self.ranking.row_query

    @cached_property
    def num_ret(self) -> np.ndarray:
        return self.ranking.num_ret

    def threshold(self, measure) -> float:
        """The measure's own ``rel=`` if given, else evaluate()'s ``rel_threshold``."""
        own = measure.param("rel")
        return self.rel_threshold if own is None else own

    def _cached(self, key, compute):
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    def sum_rows(self, values) -> np.ndarray:
        return segment_sum(values, self.row_query, self.n)

    def sum_rows_subset(self, values, rows) -> np.ndarray:
        """Per-query sum of ``values``, one value per row index in ``rows``."""
        return segment_sum(values, self.row_query[rows], self.n)

    def count_rows(self, mask) -> np.ndarray:
        return segment_count(mask, self.row_query, self.n)

    def cumsum_rows(self, values) -> np.ndarray:
        return segment_cumsum(values, self.ranking.starts, self.row_query)

    # -- binary relevance ------------------------------------------------------------------
    # Everything below works on the relevant rows only (typically a few percent of the run):
    # one pass over all rows finds them, the rest is per relevant row.
    def relevant(self, thr: float) -> np.ndarray:
        """Per row: judged with grade >= thr."""
        return self._cached(("relevant", thr), lambda: self.grade >= max(thr, 0))

    def judged_nonrelevant(self, thr: float) -> np.ndarray:
        """Per row: judged (grade >= 0) with grade < thr."""
        return self._cached(("nonrel", thr), lambda: (self.grade >= 0) & (self.grade < thr))

    def relevant_rows(self, thr: float) -> np.ndarray:
        """Indices of the relevant rows, in (query, rank) order."""
        return self._cached(("relrows", thr), lambda: np.flatnonzero(self.relevant(thr)))

    def relevant_query(self, thr: float) -> np.ndarray:
        """Query of each relevant row."""
        return self._cached(("relq", thr), lambda: self.row_query[self.relevant_rows(thr)])

    def relevant_rank(self, thr: float) -> np.ndarray:
        """Rank of each relevant row."""
        return self._cached(("relrank", thr), lambda: self.ranking.rank_of(self.relevant_rows(thr)))

    def num_rel_ret(self, thr: float) -> np.ndarray:
        """Relevant documents retrieved, per query."""
        return self._cached(("relret", thr), lambda: np.bincount(self.relevant_query(thr), minlength=self.n))

    def _first_relevant_index(self, thr: float) -> np.ndarray:
        """Per query: index (into the relevant rows) of its first relevant row."""
        return self._cached(("relfirst", thr), lambda: np.concatenate(([0], np.cumsum(self.num_rel_ret(thr))))[:-1])

    def relevant_so_far(self, thr: float) -> np.ndarray:
        """For each relevant row: relevant documents at its rank or above (1, 2, 3... per query)."""
        def compute():
            q = self.relevant_query(thr)
            return np.arange(q.size, dtype=np.int64) - self._first_relevant_index(thr)[q] + 1
        return self._cached(("cumrel", thr), compute)

    def running_relevant(self, thr: float) -> np.ndarray:
        """Per row: relevant documents at its rank or above (a worked table's "relevant so far")."""
        return self._cached(("running", thr), lambda: self.cumsum_rows(self.relevant(thr).astype(np.int64)))

    def n_relevant(self, thr: float) -> np.ndarray:
        """R per query: judgments with grade >= thr (negative grades never count), or the
        caller's own R where the lists carry one (``RankedLists.n_relevant``)."""
        r = self.ranking

        def compute():
            counted = np.bincount(r.judged_query[r.judged_grade >= max(thr, 0)], minlength=self.n).astype(np.int64)
            given = getattr(r, "n_relevant", None)
            return counted if given is None else np.where(given >= 0, given, counted)
        return self._cached(("R", thr), compute)

    def n_nonrelevant(self, thr: float) -> np.ndarray:
        """Judged non-relevant documents per query (0 <= grade < thr)."""
        r = self.ranking
        mask = (r.judged_grade >= 0) & (r.judged_grade < thr)
        return self._cached(("nonrelR", thr), lambda: np.bincount(r.judged_query[mask], minlength=self.n))

    def first_relevant_rank(self, thr: float) -> np.ndarray:
        """Per query: rank of the first relevant document, 0 when none was retrieved."""
        def compute():
            found = self.num_rel_ret(thr) > 0
            out = np.zeros(self.n, dtype=np.int64)
            out[found] = self.relevant_rank(thr)[self._first_relevant_index(thr)[found]]
            return out
        return self._cached(("firstrel", thr), compute)

    def precision_at_relevant(self, thr: float) -> np.ndarray:
        """For each relevant row: relevant so far / rank."""
        return self._cached(("precrel", thr), lambda: self.relevant_so_far(thr) / self.relevant_rank(thr))

    def precision_sum(self, thr: float) -> np.ndarray:
        """Per query: sum of the precisions at each retrieved relevant document."""
        return self._cached(
            ("precsum", thr), lambda: segment_sum(self.precision_at_relevant(thr), self.relevant_query(thr), self.n)
        )

    def relevant_in_top(self, thr: float, k) -> np.ndarray:
        """Per query: relevant documents within the top k (k a scalar, one per query, or None
        for the whole list)."""
        if k is None:
            return self.num_rel_ret(thr)
        q, rank = self.relevant_query(thr), self.relevant_rank(thr)
        if np.isscalar(k):
            return self._cached(("reltop", thr, k), lambda: np.bincount(q[rank <= k], minlength=self.n))
        return np.bincount(q[rank <= k[q]], minlength=self.n)

    # -- incomplete judgments ----------------------------------------------------------------
    @cached_property
    def unjudged_in_pool(self) -> np.ndarray:
        """Per row: listed in the qrels with a negative grade (pooled, not judged)."""
        return self.grade == UNJUDGED

    @cached_property
    def without_judgment(self) -> np.ndarray:
        """Per row: no usable judgment (not in the qrels, or a negative grade)."""
        return self.grade < 0
