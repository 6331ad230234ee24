"""Compatibility (Clarke, Vtyurina & Smucker, ACM TOIS 2021), all lists at once, as ir_measures'
``compat_provider`` computes it.

Compat is the rank-biased overlap (RBO, Webber, Moffat & Zobel 2010) between the ranking and an
ideal ranking: every judged document with a positive grade, grades descending, documents of the
same grade in the order the ranking retrieved them, unretrieved ones after them. Over the
depth D = max(n retrieved, |ideal|),

    RBO = sum_{i=1}^{D} p^(i-1) |top_i(ranking) ∩ top_i(ideal)| / i  /  sum_{i=1}^{D} p^(i-1)

and with ``normalize`` (the default) it is divided by the RBO of the ideal ranking with itself,
so that the ideal ranking scores 1. p = 0.95 by default.

Without documents: a document with a positive grade at rank r of the ranking and position s of
the ideal is in both tops from depth m = max(r, s) on, so it adds sum_{i=m}^{D} p^(i-1)/i; the
ideal shares min(i, |ideal|) documents with itself at depth i. Both are prefix sums, so no
list is walked document by document.
"""

from __future__ import annotations

import numpy as np

from rankviz.metrics.kernels.segments import safe_divide

__all__ = ["ideal_positions", "compat_terms", "compat"]


def ideal_positions(ctx) -> np.ndarray:
    """Per row of the lists: the 1-based position of the document in the ideal ranking (0 for a
    document with no positive grade): the judged documents of a higher grade, plus the retrieved
    ones of the same grade above it, plus one.

    >>> from rankviz.metrics.kernels import BatchContext, RankedLists
    >>> ideal_positions(BatchContext(RankedLists.from_grades([[1, 0, 2, 1]], judged=[[2, 2, 1, 1, 0]]))).tolist()
    [3, 0, 1, 4]
    """
    r = ctx.ranking

    def compute():
        grade = ctx.grade.astype(np.float64)
        n_rows = grade.size
        out = np.zeros(n_rows, dtype=np.int64)
        positive = np.flatnonzero(grade > 0)
        if positive.size == 0:
            return out
        # Judged grades are sorted by query, then grade descending: key q*S - grade ascends.
        span = 2.0 * (max(np.abs(r.judged_grade).max(initial=0.0), np.abs(grade).max(initial=0.0)) + 1.0)
        judged_key = r.judged_query * span - r.judged_grade
        q = ctx.row_query[positive]
        higher = np.searchsorted(judged_key, q * span - grade[positive], side="left") - r.judged_starts[q]
        # Retrieved documents of the same grade above this one (rows are in rank order).
        order = np.lexsort((positive, grade[positive], q))
        key_q, key_g = q[order], grade[positive][order]
        new_group = np.ones(order.size, dtype=bool)
        new_group[1:] = (key_q[1:] != key_q[:-1]) | (key_g[1:] != key_g[:-1])
        group_start = np.maximum.accumulate(np.where(new_group, np.arange(order.size), 0))
        same_above = np.empty(order.size, dtype=np.int64)
        same_above[order] = np.arange(order.size) - group_start
        out[positive] = higher + same_above + 1
        return out
    return ctx._cached("compat_ideal", compute)


def compat_terms(ctx, measure):
    """(depth D, n_ideal, per-row first depth m at which the row is in both tops (0: never), the
    prefix sums of p^(i-1)/i and of p^(i-1) over i = 0..max D): what :func:`compat` adds up."""
    p = float(measure.param("p", 0.95))
    r = ctx.ranking
    n_ideal = np.bincount(r.judged_query[r.judged_grade > 0], minlength=ctx.n)
    depth = np.maximum(ctx.num_ret, n_ideal)
    top = int(depth.max(initial=0))
    i = np.arange(1, top + 1, dtype=np.float64)
    power = p ** (i - 1.0)
    by_rank = np.concatenate(([0.0], np.cumsum(power / i)))
    plain = np.concatenate(([0.0], np.cumsum(power)))
    ideal = ideal_positions(ctx)
    first = np.where(ideal > 0, np.maximum(ctx.rank, ideal), 0)
    return depth, n_ideal, first, by_rank, plain


def compat(ctx, measure):
    """Compat(p, normalize): RBO of the ranking against the ideal ranking, over the ideal's own
    RBO when ``normalize`` (the default) and that is positive; 0 for a list with neither
    retrieved nor relevant documents."""
    depth, n_ideal, first, by_rank, plain = compat_terms(ctx, measure)
    rows = np.flatnonzero(first > 0)
    q = ctx.row_query[rows]
    overlap = ctx.sum_rows_subset(by_rank[depth[q]] - by_rank[first[rows] - 1], rows)
    score = safe_divide(overlap, plain[depth])
    if not measure.param("normalize", True):
        return score
    best = plain[n_ideal] + n_ideal * (by_rank[depth] - by_rank[n_ideal])
    best = safe_divide(best, plain[depth])
    return np.where(best > 0, safe_divide(score, best), score)
