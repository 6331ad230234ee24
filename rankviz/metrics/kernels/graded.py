"""Graded kernels: nDCG and its trec_eval relatives (dcg, ideal_dcg, ndcg_rel, Rndcg, G),
RBP and ERR, all queries at once.

Gains (``gain`` parameter): ``"linear"`` (gain = grade, trec_eval's default), ``"exponential"``
(2^grade - 1), or a map ``((level, gain), ...)`` as trec_eval's ``-m ndcg.1=3,2=9`` (levels not
listed keep gain = grade). Documents without a judgment have gain 0. The discount is
log2(rank + 1). The ideal ranking sorts the positive gains of every judged document of the
query, retrieved or not, in decreasing order. trec_eval's ``ndcg_cut`` ignores gain
parameters (it always uses the grades), so ``nDCG@k`` with a non-linear gain is a rankviz
extension. trec_eval sorts gain levels with a comparator that truncates gain differences to an
int, so gains closer than 1 may be ordered arbitrarily in its ideal ranking; rankviz sorts
them exactly (a difference only for custom fractional gains).
"""

from __future__ import annotations

import numpy as np

from rankviz.metrics.kernels.segments import safe_divide, segment_sum

__all__ = [
    "gain_values",
    "ndcg", "dcg", "ideal_dcg", "ndcg_rel", "r_ndcg", "normalized_gain", "rank_biased_precision",
    "expected_reciprocal_rank",
]


# 2^1024 overflows a float64: exponential gains are defined up to this grade.
_MAX_EXP_GRADE = 1023


def gain_values(grades: np.ndarray, spec) -> np.ndarray:
    """Gains of judged grades (>= 0): ``"linear"`` g, ``"exponential"`` 2^g - 1, or a map
    ``((level, gain), ...)`` (trec_eval's ``-m ndcg.1=3,2=9``; levels not listed keep gain = g).

    >>> gain_values(np.array([0, 1, 3]), "exponential").tolist()
    [0.0, 1.0, 7.0]
    """
    grades = grades.astype(np.float64)
    if spec == "linear":
        return grades
    if spec == "exponential":
        if grades.size and grades.max() > _MAX_EXP_GRADE:
            raise ValueError(f"exponential gain 2^g - 1 overflows a float for grades above {_MAX_EXP_GRADE}; "
                             f"the qrels hold grade {grades.max():g}. Use linear gain for such grades.")
        return np.exp2(grades) - 1.0
    out = grades.copy()
    for level, gain in spec:
        out[grades == level] = gain
    return out


def _row_gains(ctx, spec) -> np.ndarray:
    def compute():
        judged = ctx.grade >= 0
        gains = np.zeros(ctx.grade.size)
        gains[judged] = gain_values(ctx.grade[judged], spec)
        return gains
    return ctx._cached(("rowgain", spec), compute)


def _ideal(ctx, spec):
    """Positive ideal gains grouped by query in decreasing order: (gains, query, starts, position)."""
    def compute():
        r = ctx.ranking
        judged = r.judged_grade >= 0
        gains = gain_values(r.judged_grade[judged], spec)
        query = r.judged_query[judged]
        positive = gains > 0
        gains, query = gains[positive], query[positive]
        order = np.lexsort((-gains, query))
        gains, query = gains[order], query[order]
        counts = np.bincount(query, minlength=ctx.n)
        starts = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
        position = np.arange(gains.size) - starts[query]  # 0-based
        return gains, query, starts, position
    return ctx._cached(("ideal", spec), compute)


def _discounted(ctx, spec) -> np.ndarray:
    """Per row: gain / log2(rank + 1)."""
    return ctx._cached(("disc", spec), lambda: _row_gains(ctx, spec) / np.log2(ctx.rank + 1.0))


def _gain_rows(ctx, spec):
    """(query, rank, discounted gain) of the retrieved documents with a non-zero gain: DCG
    only needs these, usually a small part of the run."""
    def compute():
        if spec in ("linear", "exponential"):  # grade 0 has gain 0 in both
            rows = np.flatnonzero(ctx.grade > 0)
            gains = gain_values(ctx.grade[rows], spec)
        else:
            rows = np.flatnonzero(ctx.grade >= 0)
            gains = gain_values(ctx.grade[rows], spec)
            nonzero = gains != 0
            rows, gains = rows[nonzero], gains[nonzero]
        rank = ctx.ranking.rank_of(rows)
        return ctx.row_query[rows], rank, gains / np.log2(rank + 1.0)
    return ctx._cached(("gainrows", spec), compute)


def _dcg(ctx, spec, k=None) -> np.ndarray:
    def compute():
        query, rank, discounted = _gain_rows(ctx, spec)
        if k is None:
            return segment_sum(discounted, query, ctx.n)
        inside = rank <= k
        return segment_sum(discounted[inside], query[inside], ctx.n)
    return ctx._cached(("dcg", spec, k), compute)


def _ideal_dcg(ctx, spec, k=None) -> np.ndarray:
    def compute():
        gains, query, _, position = _ideal(ctx, spec)
        values = gains / np.log2(position + 2.0)
        if k is None:
            return segment_sum(values, query, ctx.n)
        inside = position < k
        return segment_sum(values[inside], query[inside], ctx.n)
    return ctx._cached(("idcg", spec, k), compute)


def ndcg(ctx, measure):
    """DCG / ideal DCG of the top k (the whole list without a cutoff); 0 when the ideal is 0."""
    spec = measure.param("gain")
    k = measure.cutoff
    return safe_divide(_dcg(ctx, spec, k), _ideal_dcg(ctx, spec, k))


def dcg(ctx, measure):
    return _dcg(ctx, measure.param("gain"))


def ideal_dcg(ctx, measure):
    return _ideal_dcg(ctx, measure.param("gain"))


def _prefix_dcg(ctx, spec, length: np.ndarray, query: np.ndarray) -> np.ndarray:
    """DCG of the first ``length`` retrieved documents of ``query`` (arrays of the same shape)."""
    running = ctx._cached(("dcgcum", spec), lambda: ctx.cumsum_rows(_discounted(ctx, spec)))
    out = np.zeros(length.shape)
    some = length > 0
    out[some] = running[ctx.ranking.starts[query[some]] + length[some] - 1]
    return out


def ndcg_rel(ctx, measure):
    """nDCG averaged over the relevant documents (gain > 0): at each retrieved one, the
    running nDCG there; for each one not retrieved, the final nDCG (trec_eval's ndcg_rel)."""
    spec = measure.param("gain")
    gains = _row_gains(ctx, spec)
    ideal_gains, ideal_query, ideal_starts, position = _ideal(ctx, spec)
    ideal_running = np.cumsum(ideal_gains / np.log2(position + 2.0))
    ideal_running -= np.concatenate(([0.0], ideal_running))[ideal_starts[:-1]][ideal_query]
    n_positive = np.diff(ideal_starts)
    rows = np.flatnonzero(gains > 0)
    q = ctx.row_query[rows]
    running = ctx._cached(("dcgcum", spec), lambda: ctx.cumsum_rows(_discounted(ctx, spec)))
    ideal_at = ideal_running[ideal_starts[q] + np.minimum(ctx.rank[rows] - 1, n_positive[q] - 1)]
    total = segment_sum(running[rows] / ideal_at, q, ctx.n)
    retrieved_positive = np.bincount(q, minlength=ctx.n)
    total += (n_positive - retrieved_positive) * safe_divide(_dcg(ctx, spec), _ideal_dcg(ctx, spec))
    return np.where(total > 0, safe_divide(total, n_positive), 0.0)


def r_ndcg(ctx, measure):
    """nDCG averaged at the ranks where the ideal gain changes (trec_eval's Rndcg, including
    its extra point at the end of the ranking when more than R+1 documents were retrieved)."""
    spec = measure.param("gain")
    thr = ctx.threshold(measure)
    ideal_gains, ideal_query, ideal_starts, position = _ideal(ctx, spec)
    n_positive = np.diff(ideal_starts)
    ideal_running = np.cumsum(ideal_gains / np.log2(position + 2.0))
    ideal_running -= np.concatenate(([0.0], ideal_running))[ideal_starts[:-1]][ideal_query]
    # A change point i (1 <= i <= L) is where the ideal gain at position i differs from the one
    # at i - 1 (past the end the gain is 0, so i = L always is one).
    next_gain = np.zeros(ideal_gains.size)
    next_gain[:-1] = ideal_gains[1:]
    last = position == n_positive[ideal_query] - 1
    next_gain[last] = 0.0
    change = next_gain != ideal_gains  # change between position p and p + 1, i.e. at i = p + 1
    rows = np.flatnonzero(change)
    q = ideal_query[rows]
    i = position[rows] + 1
    num_ret = ctx.num_ret
    points = _prefix_dcg(ctx, spec, np.minimum(i, num_ret[q]), q) / ideal_running[rows]
    total = segment_sum(points, q, ctx.n)
    count = np.bincount(q, minlength=ctx.n).astype(np.float64)
    final = (n_positive >= 1) & (n_positive + 1 < num_ret)
    total[final] += _dcg(ctx, spec)[final] / _ideal_dcg(ctx, spec)[final]
    count[final] += 1
    value = safe_divide(total, count)
    value[ctx.n_relevant(thr) == 0] = 0.0
    return value


def normalized_gain(ctx, measure):
    """trec_eval's G: sum of gain_i / log2(2 + cost_i - gained_i), / total ideal gain, where
    cost_i sums max(ideal gain, 1) over ranks 1..i and gained_i sums the gains retrieved."""
    spec = measure.param("gain")
    gains = _row_gains(ctx, spec)
    ideal_gains, ideal_query, ideal_starts, position = _ideal(ctx, spec)
    n_positive = np.diff(ideal_starts)
    cost = np.cumsum(np.maximum(ideal_gains, 1.0))
    cost -= np.concatenate(([0.0], cost))[ideal_starts[:-1]][ideal_query]
    full_cost = np.zeros(ctx.n)
    has = n_positive > 0
    full_cost[has] = cost[ideal_starts[1:][has] - 1]
    gained = ctx.cumsum_rows(gains)
    rows = np.flatnonzero(gains != 0)
    q = ctx.row_query[rows]
    i = ctx.rank[rows] - 1
    within = i < n_positive[q]
    row_cost = np.where(within, cost[np.where(within, ideal_starts[q] + i, 0)] if cost.size else 0.0,
                        full_cost[q] + (i - n_positive[q] + 1))
    total = segment_sum(gains[rows] / np.log2(2.0 + row_cost - gained[rows]), q, ctx.n)
    return safe_divide(total, segment_sum(ideal_gains, ideal_query, ctx.n))


def rank_biased_precision(ctx, measure):
    """RBP = (1 - p) sum_i gain_i p^(i-1) (Moffat & Zobel 2008), p = 0.9 by default; gains are
    the grades, min-max scaled to [0, 1] per query over the levels 0..max grade of the query
    when that maximum exceeds 1 (trec_eval 10.0's m_rbp.c, intended semantics)."""
    p = measure.param("p")
    r = ctx.ranking
    top_grade = np.zeros(ctx.n)
    has = np.diff(r.judged_starts) > 0
    top_grade[has] = np.maximum(r.judged_grade[r.judged_starts[:-1][has]], 0)
    scale = np.where(top_grade > 1, top_grade, 1.0)
    gains = np.where(ctx.grade > 0, ctx.grade, 0) / scale[ctx.row_query]
    rows = np.flatnonzero(gains != 0)
    total = ctx.sum_rows_subset(gains[rows] * p ** (ctx.rank[rows] - 1.0), rows)
    return (1.0 - p) * total


def expected_reciprocal_rank(ctx, measure):
    """ERR@k = sum_r (1/r) R_r prod_{i<r} (1 - R_i), R = (2^g - 1) / 2^g_max (Chapelle et al.
    2009), g_max the largest grade in the qrels (of the whole collection, so values compare
    across queries); unjudged documents have g = 0."""
    g_max = ctx.ranking.max_grade
    if g_max <= 0:
        return np.zeros(ctx.n)
    k = measure.cutoff
    inside = np.ones(ctx.rank.size, dtype=bool) if k is None else ctx.rank <= k
    grade = np.where(ctx.grade > 0, ctx.grade, 0).astype(np.float64)
    # (2^g - 1) / 2^g_max written so that no power overflows, whatever the grades.
    stop = np.exp2(grade - g_max) - np.exp2(-float(g_max))
    # With g_max >= 53 a top grade rounds to stop = 1 and log(1 - 1) = -inf would give NaN below;
    # one ulp short of 1 keeps every later term (exactly 0 in theory) at ~1e-16.
    log_continue = np.log1p(-np.minimum(stop, 1.0 - 2.0**-53))
    before = ctx.cumsum_rows(log_continue) - log_continue
    term = stop / ctx.rank * np.exp(before)
    return segment_sum(term[inside], ctx.row_query[inside], ctx.n)
