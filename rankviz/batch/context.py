"""Shared, cached intermediate arrays for the kernels of one evaluate() call.

Many measures need the same running counts (relevant so far, R, precision at each relevant
document...). They are computed once per relevance threshold and reused, so asking for
P@5..P@1000, AP and R-prec costs one cumulative sum, not eleven.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from rankviz.batch.ranking import UNJUDGED, JudgedRanking
from rankviz.batch.segments import segment_count, segment_cumsum, segment_sum

__all__ = ["BatchContext"]


class BatchContext:
    """A :class:`JudgedRanking` plus the evaluation options and a cache of derived arrays."""

    def __init__(self, ranking: JudgedRanking, *, rel_threshold: int = 1, trec_eval_version: str = "10",
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

    def threshold(self, measure) -> int:
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
    def relevant(self, thr: int) -> np.ndarray:
        """Per row: judged with grade >= thr."""
        return self._cached(("relevant", thr), lambda: self.grade >= max(thr, 0))

    def judged_nonrelevant(self, thr: int) -> np.ndarray:
        """Per row: judged (grade >= 0) with grade < thr."""
        return self._cached(("nonrel", thr), lambda: (self.grade >= 0) & (self.grade < thr))

    def relevant_so_far(self, thr: int) -> np.ndarray:
        """Per row: relevant documents at this rank or above (int64)."""
        return self._cached(("cumrel", thr), lambda: self.cumsum_rows(self.relevant(thr).astype(np.int64)))

    def n_relevant(self, thr: int) -> np.ndarray:
        """R per query: judgments with grade >= thr (negative grades never count)."""
        r = self.ranking
        return self._cached(
            ("R", thr),
            lambda: np.bincount(r.judged_query[r.judged_grade >= max(thr, 0)], minlength=self.n).astype(np.int64),
        )

    def n_nonrelevant(self, thr: int) -> np.ndarray:
        """Judged non-relevant documents per query (0 <= grade < thr)."""
        r = self.ranking
        mask = (r.judged_grade >= 0) & (r.judged_grade < thr)
        return self._cached(("nonrelR", thr), lambda: np.bincount(r.judged_query[mask], minlength=self.n))

    def num_rel_ret(self, thr: int) -> np.ndarray:
        return self._cached(("relret", thr), lambda: self.count_rows(self.relevant(thr)))

    def relevant_rows(self, thr: int) -> np.ndarray:
        """Indices of the relevant rows, in (query, rank) order."""
        return self._cached(("relrows", thr), lambda: np.flatnonzero(self.relevant(thr)))

    def first_relevant_rank(self, thr: int) -> np.ndarray:
        """Per query: rank of the first relevant document, 0 when none was retrieved."""
        def compute():
            rows = self.relevant_rows(thr)
            queries, first = np.unique(self.row_query[rows], return_index=True)
            out = np.zeros(self.n, dtype=np.int64)
            out[queries] = self.rank[rows[first]]
            return out
        return self._cached(("firstrel", thr), compute)

    def precision_at_relevant(self, thr: int) -> np.ndarray:
        """For each relevant row (see :meth:`relevant_rows`): relevant so far / rank."""
        def compute():
            rows = self.relevant_rows(thr)
            return self.relevant_so_far(thr)[rows] / self.rank[rows]
        return self._cached(("precrel", thr), compute)

    def precision_sum(self, thr: int) -> np.ndarray:
        """Per query: sum of the precisions at each retrieved relevant document."""
        def compute():
            rows = self.relevant_rows(thr)
            return segment_sum(self.precision_at_relevant(thr), self.row_query[rows], self.n)
        return self._cached(("precsum", thr), compute)

    def relevant_in_top(self, thr: int, k) -> np.ndarray:
        """Per query: relevant documents within the top k (k a scalar or one per query)."""
        if np.isscalar(k):
            return self._cached(("reltop", thr, k), lambda: self.count_rows(self.relevant(thr) & (self.rank <= k)))
        return self.count_rows(self.relevant(thr) & (self.rank <= k[self.row_query]))

    # -- incomplete judgments ----------------------------------------------------------------
    @cached_property
    def unjudged_in_pool(self) -> np.ndarray:
        """Per row: listed in the qrels with a negative grade (pooled, not judged)."""
        return self.grade == UNJUDGED

    @cached_property
    def without_judgment(self) -> np.ndarray:
        """Per row: no usable judgment (not in the qrels, or a negative grade)."""
        return self.grade < 0
