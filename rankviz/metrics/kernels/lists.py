"""Ranked lists as flat segmented arrays: what every kernel scores.

One ranking, a matrix of rankings (the explorer's perturbations) and every query of a TREC run
(:class:`rankviz.evaluation.ranking.JudgedRanking`, which extends this class) all take this one
shape, so a metric has one kernel whichever way it is asked for.

>>> lists = RankedLists.from_grades([[3, 0, 2], [1]])
>>> lists.n_queries, lists.starts.tolist(), lists.row_query.tolist()
(2, [0, 3, 4], [0, 0, 0, 1])
>>> lists.judged_grade.tolist(), lists.max_grade   # judged: each list's own grades, descending
([3.0, 2.0, 0.0, 1.0], 3.0)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

# The kernels' view of a measure is part of the vocabulary: a MetricSpec says how its kernel computes it.
from rankviz.registry import Cut

__all__ = ["RankedLists", "Cut"]


@dataclass(frozen=True, eq=False)
class RankedLists:
    """Ranked, judged lists as flat arrays, one segment per list (query).

    Attributes
    ----------
    starts : ndarray of int64, length n_queries + 1
        List ``q`` owns rows ``starts[q]:starts[q+1]``, in rank order.
    row_query, grade : ndarray
        Per ranked document: its list and its grade (negative: no usable judgment, see
        :data:`~rankviz.metrics.kernels.segments.NONPOOL` and ``UNJUDGED``).
    judged_starts, judged_query, judged_grade : ndarray
        Every judged document of each list, retrieved or not, grouped by list, grades in
        descending order within a list: the ideal ranking and R come from these.
    max_grade : float
        The top of the grade scale (ERR's g_max); 0 when no grade is positive.
    n_relevant : ndarray of int64 or None
        R per list when given by the caller (``n_relevant=`` of the per-query metrics); None:
        counted from the judged grades.
    """

    starts: np.ndarray
    row_query: np.ndarray
    grade: np.ndarray
    judged_starts: np.ndarray
    judged_query: np.ndarray
    judged_grade: np.ndarray
    max_grade: Any
    n_relevant: np.ndarray | None = field(default=None, kw_only=True)

    @classmethod
    def from_grades(cls, rankings, judged=None, *, n_relevant=None, max_grade=None) -> RankedLists:
        """Lists from validated grade arrays, one per ranking.

        ``judged`` (one array per ranking, or None for a ranking) holds the grades of every
        judged document of that list; None: the ranking's own grades (only right when every
        relevant document was retrieved). ``n_relevant`` (one int or None per ranking) overrides
        R. ``max_grade``: the grade scale's top (None: the largest judged grade).
        """
        rankings = [np.asarray(r, dtype=np.float64) for r in rankings]
        judged = [None] * len(rankings) if judged is None else list(judged)
        judged = [r if j is None else np.asarray(j, dtype=np.float64) for r, j in zip(rankings, judged)]
        counts = np.array([r.size for r in rankings], dtype=np.int64)
        judged_counts = np.array([j.size for j in judged], dtype=np.int64)
        n = len(rankings)
        judged_grade = (np.concatenate([np.sort(j)[::-1] for j in judged]) if n else np.zeros(0))
        if max_grade is None:
            max_grade = max(float(judged_grade.max(initial=0.0)), 0.0)
        overrides = None
        if n_relevant is not None and any(r is not None for r in n_relevant):
            overrides = np.array([-1 if r is None else r for r in n_relevant], dtype=np.int64)
        return cls(
            starts=_starts(counts),
            row_query=np.repeat(np.arange(n, dtype=np.int64), counts),
            grade=np.concatenate(rankings) if n else np.zeros(0),
            judged_starts=_starts(judged_counts),
            judged_query=np.repeat(np.arange(n, dtype=np.int64), judged_counts),
            judged_grade=judged_grade,
            max_grade=max_grade,
            n_relevant=overrides,
        )

    @classmethod
    def one(cls, grades, judged=None, *, n_relevant=None, max_grade=None) -> RankedLists:
        """One list: what ``from_grades([grades], [judged], n_relevant=[n_relevant])`` builds,
        without the loops over lists (a per-query metric builds one on every call).

        >>> one = RankedLists.one([3, 0, 2], n_relevant=5)
        >>> general = RankedLists.from_grades([[3, 0, 2]], n_relevant=[5])
        >>> all(np.array_equal(getattr(one, f), getattr(general, f)) for f in
        ...     ("starts", "row_query", "grade", "judged_starts", "judged_query", "judged_grade", "n_relevant"))
        True
        """
        grades = np.asarray(grades, dtype=np.float64)
        pool = grades if judged is None else np.asarray(judged, dtype=np.float64)
        judged_grade = np.sort(pool)[::-1]
        if max_grade is None:
            max_grade = max(float(judged_grade[0]), 0.0) if judged_grade.size else 0.0
        return cls(
            starts=np.array([0, grades.size], dtype=np.int64),
            row_query=np.zeros(grades.size, dtype=np.int64),
            grade=grades,
            judged_starts=np.array([0, judged_grade.size], dtype=np.int64),
            judged_query=np.zeros(judged_grade.size, dtype=np.int64),
            judged_grade=judged_grade,
            max_grade=max_grade,
            n_relevant=None if n_relevant is None else np.array([n_relevant], dtype=np.int64),
        )

    @property
    def n_queries(self) -> int:
        return int(self.starts.size - 1)

    @property
    def num_ret(self) -> np.ndarray:
        return np.diff(self.starts)

    @cached_property
    def rank(self) -> np.ndarray:
        """The 1-based rank of every row (computed on first use: most measures only need the
        ranks of a few rows, :meth:`rank_of`)."""
        return self.rank_of(np.arange(self.row_query.size, dtype=np.int64))

    def rank_of(self, rows: np.ndarray) -> np.ndarray:
        """The 1-based ranks of the given rows."""
        rows = np.asarray(rows, dtype=np.int64)
        return rows - self.starts[self.row_query[rows]] + 1


def _starts(counts: np.ndarray) -> np.ndarray:
    return np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
