"""One ranking with binary relevance, made ready for the kernels: the input side of the per-query
binary metrics.

The per-query functions of :mod:`rankviz.metrics.binary`, :mod:`rankviz.metrics.precision_recall`
and the satisfaction/frustration pair of :mod:`rankviz.metrics.user` all score a ranking the same
way: validate ``rels`` and ``rel_threshold`` (:func:`binary_grades`), resolve R
(:func:`binary_ranking`), wrap the one list in a
:class:`~rankviz.metrics.kernels.context.BatchContext` and call the kernel that
:func:`rankviz.evaluate` calls (:meth:`BinaryRanking.score`). Their worked tables start from
:func:`rank_table`, which reads the same context's arrays, so table and value cannot disagree.

>>> grades, threshold = binary_grades([1, 0, 2], 1, func="example")
>>> ranking = binary_ranking(grades, threshold, func="example", n_relevant=4)
>>> from rankviz.metrics.kernels import binary
>>> ranking.score(binary.recall, 2)   # 1 relevant in the top 2, R = 4
0.25
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from rankviz.i18n import N_
from rankviz.metrics.validation import as_grades, check_rel_threshold, resolve_n_relevant
from rankviz.metrics.kernels.context import BatchContext
from rankviz.metrics.kernels.lists import Cut, RankedLists

__all__ = ["BinaryRanking", "BINARY_HEADERS", "binary_grades", "binary_ranking", "rank_table", "cutoff_suffix"]

#: role -> the header a person reads in the binary worked tables (English source; the tables are
#: built in the language in force by :func:`rankviz.metrics.breakdown.by_role`). Symbols stay.
BINARY_HEADERS = {
    "rank": N_("rank"),
    "grade": N_("rel"),
    "relevant": N_("relevant?"),
    "relevant_so_far": N_("relevant so far"),
    "precision": "P@i",
    "recall": "R@i",
    "reciprocal": N_("1/rank"),
    "contribution": N_("contribution"),
}


class BinaryRanking(NamedTuple):
    """A validated ranking, its threshold and R, and the one-list kernel context scoring it."""

    grades: np.ndarray  #: validated grades in ranked order (float64)
    threshold: float  #: relevant when grade >= threshold
    n_relevant: int  #: R, resolved from ``n_relevant``, ``judged`` or the list
    context: BatchContext  #: one list, its R given as ``n_relevant``

    def cut(self, k=None, **params) -> Cut:
        """The :class:`~rankviz.metrics.kernels.lists.Cut` a kernel reads: cutoff ``k``, this
        ranking's threshold as ``rel`` and any other kernel parameter."""
        return Cut(k, {"rel": self.threshold, **params})

    def score(self, kernel, k=None, **params) -> float:
        """``kernel``'s value for this one list, as a Python float."""
        return float(kernel(self.context, self.cut(k, **params))[0])


def binary_grades(rels, rel_threshold, *, func: str) -> tuple[np.ndarray, float]:
    """Validated grades (a new float64 array) and relevance threshold, with the errors of
    :func:`~rankviz.metrics.validation.as_grades` and
    :func:`~rankviz.metrics.validation.check_rel_threshold` naming ``func``."""
    return as_grades(rels, func=func), check_rel_threshold(rel_threshold, func=func)


def binary_ranking(grades: np.ndarray, threshold: float, *, func: str, n_relevant=None,
                   judged=None) -> BinaryRanking:
    """The validated ranking as one kernel list with its R.

    R comes from ``n_relevant`` when given, else from the relevant grades of ``judged``, else
    from the list itself (:func:`~rankviz.metrics.validation.resolve_n_relevant`, which raises
    for an R that contradicts the list). Metrics that do not read R (precision, hit, RR) get the
    list's own count, which their kernels ignore.
    """
    n_rel = resolve_n_relevant(grades, func=func, n_relevant=n_relevant, judged=judged, rel_threshold=threshold)
    # judged was validated by resolve_n_relevant; the lists keep it as the query's judged pool.
    pool = None if judged is None else np.asarray(judged, dtype=np.float64)
    lists = RankedLists.one(grades, judged=pool, n_relevant=n_rel)
    return BinaryRanking(grades, threshold, n_rel, BatchContext(lists, rel_threshold=threshold))


def rank_table(ranking: BinaryRanking, depth: int):
    """The first columns of a worked table: one row per rank 1..depth, from the context's arrays.

    Columns named by their roles (:data:`~rankviz.metrics.breakdown.ROLES`; :data:`BINARY_HEADERS`
    gives the headers a person reads): ``rank``, ``grade`` (the grade, header ``rel``; NaN past
    the end of the list), ``relevant`` (``relevant?``; False past the end: trec_eval counts
    missing ranks as non-relevant) and ``relevant_so_far`` (``relevant so far``: the context's
    running count of relevant documents, carried past the end).

    >>> grades, threshold = binary_grades([1, 0, 1], 1, func="example")
    >>> rank_table(binary_ranking(grades, threshold, func="example"), 4)["relevant_so_far"].tolist()
    [1, 1, 2, 2]
    """
    import pandas as pd

    ctx, thr = ranking.context, ranking.threshold
    shown = min(depth, ranking.grades.shape[0])
    rel = np.full(depth, np.nan)
    rel[:shown] = ctx.grade[:shown]
    is_relevant = np.zeros(depth, dtype=bool)
    is_relevant[:shown] = ctx.relevant(thr)[:shown]
    so_far = np.zeros(depth, dtype=np.int64)
    if shown:
        so_far[:shown] = ctx.running_relevant(thr)[:shown]
        so_far[shown:] = so_far[shown - 1]
    return pd.DataFrame({
        "rank": np.arange(1, depth + 1),
        "grade": rel,
        "relevant": is_relevant,
        "relevant_so_far": so_far,
    })


def cutoff_suffix(k: int | None) -> str:
    """``"@k"`` for a formula's name, ``""`` without a cutoff.

    >>> cutoff_suffix(5), cutoff_suffix(None)
    ('@5', '')
    """
    return "" if k is None else f"@{k}"
