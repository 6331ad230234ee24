"""Kernels of trec_eval's judgment-group measures (``-R qrels_jg``): ``map_avgjg``, ``P_avgjg``,
``Rprec_mult_avgjg``.

A qrels_jg file is several qrels in one: its second column names a judgment group (a user),
and each group judges the topic on its own. trec_eval computes AP, P@k or precision at x R once
per group, each with that group's judgments (and its own R), and averages over the groups that
judged the topic (``m_map_avgjg.c``, ``m_P_avgjg.c``, ``m_Rprec_mult_avgjg.c``).

Here every (query, group) is one ranked list of a :class:`~rankviz.metrics.kernels.BatchContext`
(the query's ranking, judged with the group's qrels), so the ordinary kernels score all of them
at once, and :class:`JudgmentGroupContext` averages their values per query.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rankviz.metrics.kernels import binary, interpolated
from rankviz.metrics.kernels.context import BatchContext

__all__ = ["JudgmentGroupContext", "average_precision_over_groups", "precision_over_groups",
           "r_precision_multiple_over_groups"]


@dataclass(frozen=True, eq=False)
class JudgmentGroupContext:
    """One ranked list per (query, judgment group), and which query each list belongs to.

    Attributes
    ----------
    lists : BatchContext
        The (query, group) lists: list ``i`` is query ``list_query[i]``'s ranking judged with one
        group's qrels.
    list_query : ndarray of int64
        The query (0 .. n_queries - 1) of each list; -1 for a list not evaluated.
    n_queries : int
        The number of queries evaluated.
    """

    lists: BatchContext
    list_query: np.ndarray
    n_queries: int

    @property
    def n(self) -> int:
        return self.n_queries

    def mean_over_groups(self, values: np.ndarray) -> np.ndarray:
        """Per query: the mean of its groups' values."""
        kept = self.list_query >= 0
        query = self.list_query[kept]
        total = np.bincount(query, weights=np.asarray(values, dtype=np.float64)[kept], minlength=self.n_queries)
        groups = np.bincount(query, minlength=self.n_queries)
        return total / np.maximum(groups, 1)


def average_precision_over_groups(ctx: JudgmentGroupContext, measure):
    """map_avgjg: AP with each group's judgments, averaged over the query's groups."""
    return ctx.mean_over_groups(binary.average_precision(ctx.lists, measure))


def precision_over_groups(ctx: JudgmentGroupContext, measure):
    """P_avgjg_k: P@k with each group's judgments, averaged over the query's groups."""
    return ctx.mean_over_groups(binary.precision(ctx.lists, measure))


def r_precision_multiple_over_groups(ctx: JudgmentGroupContext, measure):
    """Rprec_mult_avgjg_x: precision at floor(x R_g + 0.9), R_g the group's R, averaged over groups."""
    return ctx.mean_over_groups(interpolated.r_precision_multiple(ctx.lists, measure))
