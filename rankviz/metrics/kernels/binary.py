"""Binary-relevance kernels (relevant = grade >= threshold), all lists at once.

Each kernel takes a :class:`~rankviz.metrics.kernels.context.BatchContext` and a measure (a
:class:`~rankviz.evaluation.measures.Measure`, or the :class:`~rankviz.metrics.kernels.lists.Cut`
the per-query functions of :mod:`rankviz.metrics.binary` pass) and returns one float64 value per
list. They are the only definition of these metrics: :func:`rankviz.evaluate` and the per-query
functions both call them. Definitions and degenerate cases follow trec_eval 10.0 (``m_*.c``): a
ratio whose denominator is 0 (no relevant document, nothing retrieved) is 0.0. A cutoff of
``None`` means the whole retrieved list wherever a kernel takes a cutoff.
"""

from __future__ import annotations

import numpy as np

from rankviz.metrics.kernels.segments import safe_divide, segment_sum

__all__ = [
    "num_q", "num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret",
    "precision", "recall", "f_measure", "f_beta", "average_precision", "geometric_average_precision",
    "r_precision", "reciprocal_rank", "success", "relative_precision", "set_precision",
    "set_relative_precision", "set_recall", "set_average_precision", "set_f", "set_non_relevant_share",
    "precision_recall_at_ranks", "utility", "binary_g", "yaap",
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
    """P@k = relevant in the top k / k (missing ranks count as non-relevant).

    Without a cutoff, the precision of the retrieved set (:func:`set_precision`, trec_eval's
    ``set_P``): it divides by the length of the list.
    """
    k = measure.cutoff
    if k is None:
        return set_precision(ctx, measure)
    return ctx.relevant_in_top(ctx.threshold(measure), k) / k


def recall(ctx, measure):
    """R@k = relevant in the top k / R (without a cutoff: the whole list, ``set_recall``)."""
    thr = ctx.threshold(measure)
    return safe_divide(ctx.relevant_in_top(thr, measure.cutoff), ctx.n_relevant(thr))


def f_measure(precision, recall, beta_squared):
    r"""The F formula, the weighted harmonic mean of precision and recall; 0 where undefined.

    .. math:: F = \frac{(1 + b) P R}{b P + R}, \quad b = \beta^2

    The one place this formula is written: :func:`f_beta` (the per-query
    :func:`rankviz.metrics.f_beta`) passes ``beta ** 2``, van Rijsbergen's weight; trec_eval's
    ``set_F`` (:func:`set_f`) passes its parameter ``beta`` unchanged, because trec_eval writes
    ``(beta + 1) P R / (beta P + R)``: its "beta" is already beta squared, so ``set_F`` with
    beta = 4 is F_2. Where b P + R = 0 (then P = R = 0) the value is 0.0.

    >>> f_measure(np.array([0.5, 0.0]), np.array([1.0, 0.0]), 1.0).tolist()  # 2 (1/2) 1 / (1/2 + 1)
    [0.6666666666666666, 0.0]
    """
    return safe_divide((1.0 + beta_squared) * precision * recall, beta_squared * precision + recall)


def f_beta(ctx, measure):
    """F_beta of P@k and R@k (the retrieved set without a cutoff); ``beta`` (default 1) is van
    Rijsbergen's beta, squared before it weights precision (see :func:`f_measure`)."""
    beta = measure.param("beta", 1.0)
    return f_measure(precision(ctx, measure), recall(ctx, measure), beta * beta)


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
    """(beta + 1) P R / (beta P + R) on the retrieved set; 0 when nothing is retrieved or R = 0.

    trec_eval's parameter ``beta`` is beta squared in van Rijsbergen's notation (see
    :func:`f_measure`): it is passed to the formula as it is.
    """
    return f_measure(set_precision(ctx, measure), set_recall(ctx, measure), measure.param("beta"))


def set_non_relevant_share(ctx, measure):
    """(retrieved - relevant retrieved) / retrieved: the share of the list that is not relevant
    (documents without a judgment count as not relevant); 0 for an empty list.

    The per-query :func:`rankviz.metrics.frustration` scores the top k this way; it is counted,
    not taken as ``1 - set_precision``, so that 2 of 3 is exactly 2/3.
    """
    ret = ctx.num_ret
    return safe_divide(ret - ctx.num_rel_ret(ctx.threshold(measure)), ret)


def precision_recall_at_ranks(ctx, measure):
    """P@i and R@i at every row (every rank of every list): the points of the precision-recall
    curve, as two float64 arrays aligned with the rows. R@i is 0 where R = 0."""
    thr = ctx.threshold(measure)
    found = ctx.running_relevant(thr)
    return found / ctx.rank, safe_divide(found, ctx.n_relevant(thr)[ctx.row_query])


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
