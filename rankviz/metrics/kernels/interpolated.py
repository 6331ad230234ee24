"""Interpolated precision (iprec_at_recall, 11pt_avg) and precision at multiples of R.

Interpolated precision at recall level x is the best precision at or after the rank where
recall first reaches x. trec_eval turns x into a number of relevant documents
``c = round(x * R)``, and the rounding is the one place where its versions differ:

* trec_eval 10.0 (the default here, and the ``out.*`` conformance files): ``lround(x * R)``,
  halves rounded away from zero;
* trec_eval 9.x (``trec_eval_version="9"``; pytrec_eval, ranx and ir_measures behave so):
  ``(long)(x * R + 0.9)``, close to ``ceil(x * R)``.

Then the value is the maximum of ``j / rank_j`` over the relevant documents ``j >= max(c, 1)``
(``rank_j`` the rank of the j-th relevant document retrieved), and 0 when fewer than ``c``
relevant documents were retrieved. ``Rprec_mult`` (precision at rank ``(long)(x * R + 0.9)``)
keeps the 9.x rounding in both versions, as trec_eval 10.0 does.
"""

from __future__ import annotations

import numpy as np

from rankviz.metrics.kernels.segments import safe_divide, suffix_max

__all__ = ["relevant_counts_for_levels", "interpolated_precision", "eleven_point_average", "r_precision_multiple"]


def relevant_counts_for_levels(levels: np.ndarray, n_relevant: np.ndarray, version: str) -> np.ndarray:
    """Number of relevant documents each recall level stands for, shape (n_queries, n_levels)."""
    x = np.asarray(levels, dtype=np.float64)[None, :] * n_relevant.astype(np.float64)[:, None]
    if version == "9":
        return (x + 0.9).astype(np.int64)  # C's (long) cast truncates toward zero
    lower = np.floor(x)
    return np.where(x - lower >= 0.5, lower + 1, lower).astype(np.int64)  # lround for x >= 0


def _interpolated_table(ctx, thr: int, levels) -> np.ndarray:
    key = ("iprec", thr, tuple(levels), ctx.trec_eval_version)

    def compute():
        best_after = suffix_max(ctx.precision_at_relevant(thr), ctx.relevant_query(thr))
        rel_ret = ctx.num_rel_ret(thr)
        counts = relevant_counts_for_levels(np.asarray(levels), ctx.n_relevant(thr), ctx.trec_eval_version)
        needed = np.maximum(counts, 1)
        reached = needed <= rel_ret[:, None]
        first_row = np.concatenate(([0], np.cumsum(rel_ret)))[:-1]
        out = np.zeros(counts.shape)
        out[reached] = best_after[(first_row[:, None] + needed - 1)[reached]]
        return out

    return ctx._cached(key, compute)


def interpolated_precision(ctx, measure):
    """iprec_at_recall_x: interpolated precision at recall level x (see the module docstring)."""
    levels = measure.family.default_cutoffs
    if measure.cutoff in levels:
        return _interpolated_table(ctx, ctx.threshold(measure), levels)[:, levels.index(measure.cutoff)]
    return _interpolated_table(ctx, ctx.threshold(measure), (measure.cutoff,))[:, 0]


def eleven_point_average(ctx, measure):
    """Interpolated precision averaged over the recall levels (default 0.0, 0.1, ..., 1.0)."""
    levels = tuple(measure.param("levels"))
    return _interpolated_table(ctx, ctx.threshold(measure), levels).mean(axis=1)


def r_precision_multiple(ctx, measure):
    """Precision at rank c = (long)(x * R + 0.9); 0 when c = 0 (R = 0 or x * R < 0.1)."""
    thr = ctx.threshold(measure)
    n_rel = ctx.n_relevant(thr)
    cut = (measure.cutoff * n_rel.astype(np.float64) + 0.9).astype(np.int64)
    return safe_divide(ctx.relevant_in_top(thr, cut), cut)
