"""Binary-relevance kernels (relevant = grade >= threshold), all queries at once.

Each kernel takes a :class:`~rankviz.metrics.kernels.context.BatchContext` and a
:class:`~rankviz.evaluation.measures.Measure` and returns one float64 value per query. Definitions and
degenerate cases follow trec_eval 10.0 (``m_*.c``): a ratio whose denominator is 0 (no
relevant document, nothing retrieved) is 0.0.
"""

from __future__ import annotations

import numpy as np

from rankviz.metrics.kernels.segments import safe_divide, segment_sum

__all__ = [
    "num_q", "num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret",
    "precision", "recall", "average_precision", "geometric_average_precision", "r_precision",
    "reciprocal_rank", "success", "relative_precision", "set_precision", "set_relative_precision",
    "set_recall", "set_average_precision", "set_f", "utility", "binary_g", "yaap",
]


def num_q(ctx, measure):
    return np.ones(ctx.n)


def num_ret(ctx, measure):
    return ctx.num_ret.astype(np.float64)


def num_rel(ctx, measure):
    return ctx.n_relevant(ctx.threshold(measure)).astype(np.float64)


def num_rel_ret(ctx, measure):
    return ctx.num_rel_ret(ctx.threshold(measure)).astype(np.float64)


def num_nonrel_judged_ret(ctx, measure):
    return ctx.count_rows(ctx.judged_nonrelevant(ctx.threshold(measure))).astype(np.float64)


def precision(ctx, measure):
    """P@k = relevant in the top k / k (missing ranks count as non-relevant)."""
    k = measure.cutoff
    return ctx.relevant_in_top(ctx.threshold(measure), k) / k


def recall(ctx, measure):
    """R@k = relevant in the top k / R."""
    thr = ctx.threshold(measure)
    return safe_divide(ctx.relevant_in_top(thr, measure.cutoff), ctx.n_relevant(thr))


def average_precision(ctx, measure):
    """AP = sum over retrieved relevant docs (within the top k for AP@k) of precision there / R."""
    thr = ctx.threshold(measure)
    if measure.cutoff is None:
        total = ctx.precision_sum(thr)
    else:
        inside = ctx.relevant_rank(thr) <= measure.cutoff
        total = segment_sum(ctx.precision_at_relevant(thr)[inside], ctx.relevant_query(thr)[inside], ctx.n)
    return safe_divide(total, ctx.n_relevant(thr))


def geometric_average_precision(ctx, measure):
    """Per query this is AP; the geometric mean is taken when aggregating."""
    return average_precision(ctx, measure)


def r_precision(ctx, measure):
    """Precision after R documents (R = relevant documents of the query)."""
    thr = ctx.threshold(measure)
    n_rel = ctx.n_relevant(thr)
    return safe_divide(ctx.relevant_in_top(thr, n_rel), n_rel)


def reciprocal_rank(ctx, measure):
    """1 / rank of the first relevant document (0 if none, or none within the cutoff)."""
    first = ctx.first_relevant_rank(ctx.threshold(measure))
    found = first > 0
    if measure.cutoff is not None:
        found &= first <= measure.cutoff
    out = np.zeros(ctx.n)
    out[found] = 1.0 / first[found]
    return out


def success(ctx, measure):
    """1 if a relevant document is in the top k, else 0."""
    return (ctx.relevant_in_top(ctx.threshold(measure), measure.cutoff) > 0).astype(np.float64)


def relative_precision(ctx, measure):
    """Relevant in the top k / min(k, R): precision up to R, recall after."""
    thr = ctx.threshold(measure)
    k = measure.cutoff
    return safe_divide(ctx.relevant_in_top(thr, k), np.minimum(k, ctx.n_relevant(thr)))


def set_precision(ctx, measure):
    return safe_divide(ctx.num_rel_ret(ctx.threshold(measure)), ctx.num_ret)


def set_relative_precision(ctx, measure):
    thr = ctx.threshold(measure)
    return safe_divide(ctx.num_rel_ret(thr), np.minimum(ctx.num_ret, ctx.n_relevant(thr)))


def set_recall(ctx, measure):
    thr = ctx.threshold(measure)
    return safe_divide(ctx.num_rel_ret(thr), ctx.n_relevant(thr))


def set_average_precision(ctx, measure):
    """relret^2 / (ret * R): set precision times set recall."""
    thr = ctx.threshold(measure)
    rel_ret = ctx.num_rel_ret(thr).astype(np.float64)
    return safe_divide(rel_ret * rel_ret, ctx.num_ret.astype(np.float64) * ctx.n_relevant(thr))


def set_f(ctx, measure):
    """(beta + 1) P R / (beta P + R) on the retrieved set; 0 when nothing is retrieved or R = 0."""
    beta = measure.param("beta")
    p = set_precision(ctx, measure)
    r = set_recall(ctx, measure)
    return safe_divide((beta + 1.0) * p * r, beta * p + r)


def utility(ctx, measure):
    """a * relret + b * nonrelret + c * relnotret + d * nonrelnotret (collection size N)."""
    thr = ctx.threshold(measure)
    a, b, c, d = (measure.param(k) for k in "abcd")
    rel_ret = ctx.num_rel_ret(thr).astype(np.float64)
    ret = ctx.num_ret.astype(np.float64)
    n_rel = ctx.n_relevant(thr).astype(np.float64)
    return a * rel_ret + b * (ret - rel_ret) + c * (n_rel - rel_ret) + d * (ctx.collection_size + rel_ret - ret - n_rel)


def binary_g(ctx, measure):
    """Sum over retrieved relevant docs of 1 / log2(2 + non-relevant docs above it), / R."""
    thr = ctx.threshold(measure)
    nonrel_above = ctx.relevant_rank(thr) - ctx.relevant_so_far(thr)
    total = segment_sum(1.0 / np.log2(2.0 + nonrel_above), ctx.relevant_query(thr), ctx.n)
    return safe_divide(total, ctx.n_relevant(thr))


def yaap(ctx, measure):
    """log((1 + S) / (1 + R - S)), S = the AP numerator (Robertson 2012)."""
    thr = ctx.threshold(measure)
    s = ctx.precision_sum(thr)
    return np.log((1.0 + s) / (1.0 + ctx.n_relevant(thr) - s))
