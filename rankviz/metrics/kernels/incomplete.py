"""Kernels for incomplete judgments: bpref, infAP, unj@k, rbp_resid.

They tell apart three kinds of retrieved document without a usable grade (see
:mod:`rankviz.evaluation.ranking`): not in the qrels at all (``NONPOOL``), and listed with a
negative grade, "pooled but not judged" (``UNJUDGED``). As in trec_eval 10.0:

* bpref skips both; relevant = grade >= threshold, non-relevant = 0 <= grade < threshold;
* infAP skips documents not in the pool but counts pooled-unjudged ones above each relevant
  document (Yilmaz & Aslam's estimate, with trec_eval's epsilon 1e-5);
* unj@k and rbp_resid count both kinds as unjudged.
"""

from __future__ import annotations

import numpy as np

from rankviz.metrics.kernels.segments import NONPOOL, safe_divide

__all__ = ["bpref", "geometric_bpref", "inferred_ap", "unjudged_at", "rbp_residual", "judged_at"]

INFAP_EPSILON = 1e-5


def bpref(ctx, measure):
    """(1/R) sum over retrieved relevant r of 1 - min(n_r, R) / min(N, R), n_r the judged
    non-relevant documents above r, N the judged non-relevant documents of the query
    (the term is 1 when n_r = 0)."""
    thr = ctx.threshold(measure)
    nonrel_above = ctx.cumsum_rows(ctx.judged_nonrelevant(thr).astype(np.int64))
    rows = ctx.relevant_rows(thr)
    q = ctx.row_query[rows]
    n_rel = ctx.n_relevant(thr)
    above = nonrel_above[rows]
    denominator = np.minimum(ctx.n_nonrelevant(thr), n_rel)[q]
    term = np.ones(rows.size)
    some = above > 0
    term[some] = 1.0 - np.minimum(above[some], n_rel[q][some]) / denominator[some]
    return safe_divide(ctx.sum_rows_subset(term, rows), n_rel)


def geometric_bpref(ctx, measure):
    """bpref per query; the geometric mean is taken when aggregating."""
    return bpref(ctx, measure)


def inferred_ap(ctx, measure):
    """infAP (trec_eval's m_infap.c): for the relevant document at 0-based position j,
    1 if j = 0, else 1/(j+1) + j/(j+1) * (judged+pooled above)/j * (rel above + e)/(judged above + 2e);
    summed and divided by R."""
    thr = ctx.threshold(measure)
    rows = ctx.relevant_rows(thr)
    j = (ctx.rank[rows] - 1).astype(np.float64)
    rel_above = (ctx.relevant_so_far(thr) - 1).astype(np.float64)
    nonrel_above = ctx.cumsum_rows(ctx.judged_nonrelevant(thr).astype(np.int64))[rows].astype(np.float64)
    pooled_above = ctx.cumsum_rows(ctx.unjudged_in_pool.astype(np.int64))[rows].astype(np.float64)
    term = np.ones(rows.size)
    deeper = j > 0
    jd = j[deeper]
    term[deeper] = 1.0 / (jd + 1.0) + (jd / (jd + 1.0)) * (
        (rel_above[deeper] + nonrel_above[deeper] + pooled_above[deeper]) / jd
    ) * ((rel_above[deeper] + INFAP_EPSILON) / (rel_above[deeper] + nonrel_above[deeper] + 2 * INFAP_EPSILON))
    return safe_divide(ctx.sum_rows_subset(term, rows), ctx.n_relevant(thr))


def unjudged_at(ctx, measure):
    """Fraction of the top k without a judgment (ranks past the end count as judged)."""
    k = measure.cutoff
    return ctx.count_rows(ctx.without_judgment & (ctx.rank <= k)) / k


def rbp_residual(ctx, measure):
    """p^n + (1 - p) sum over unjudged ranks i of p^(i-1), with p = 0.9 and n = documents
    retrieved: the most RBP could still grow; 0 when every retrieved document is judged."""
    p = 0.9
    rows = np.flatnonzero(ctx.without_judgment)
    weights = ctx.sum_rows_subset(p ** (ctx.rank[rows] - 1.0), rows)
    has_unjudged = ctx.count_rows(ctx.without_judgment) > 0
    return np.where(has_unjudged, p ** ctx.num_ret.astype(np.float64) + (1.0 - p) * weights, 0.0)


def judged_at(ctx, measure):
    """Judged@k (ir_measures, after OpenNIR): the fraction of the top min(k, n) retrieved
    documents that the qrels list, whatever their grade (a negative grade counts: the document
    is in the qrels); n = documents retrieved, k = n without a cutoff; 0 when none is retrieved.
    unj@k is its trec_eval counterpart with the other denominator, k."""
    k = measure.cutoff
    listed = ctx.grade != NONPOOL
    if k is None:
        return safe_divide(ctx.count_rows(listed), ctx.num_ret)
    return safe_divide(ctx.count_rows(listed & (ctx.rank <= k)), np.minimum(ctx.num_ret, k))
