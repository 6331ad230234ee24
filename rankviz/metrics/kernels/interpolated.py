"""Interpolated precision (iprec_at_recall, 11pt_avg) and precision at multiples of R.

Interpolated precision at recall level x is the best precision at or after the rank where
recall first reaches x. A level becomes a number of relevant documents ``c`` by a rounding
rule (:data:`ROUNDINGS`), the one place where trec_eval's versions and the textbook differ:

* ``"lround"``: ``lround(x * R)``, halves rounded away from zero: trec_eval 10.0 (the default of
  :func:`rankviz.evaluate`, ``trec_eval_version="10"``, and the ``out.*`` conformance files);
* ``"floor_plus_0.9"``: ``(long)(x * R + 0.9)``: trec_eval 9.x (``trec_eval_version="9"``;
  pytrec_eval, ranx and ir_measures behave so), close to ``ceil(x * R)``;
* ``"ceil"``: ``ceil(x * R)``, the textbook's "recall >= x" (the default of the per-query
  :func:`rankviz.metrics.interpolated_precision`), with a 1e-9 tolerance so that binary noise
  such as 0.7 x 10 = 7.000000000000001 still gives 7.

A measure picks its rule with the parameter ``rounding``; without it the context's
``trec_eval_version`` decides (:data:`ROUNDING_OF_VERSION`). Then the value is the maximum of
``j / rank_j`` over the relevant documents ``j >= max(c, 1)`` (``rank_j`` the rank of the j-th
relevant document retrieved), and 0 when fewer than ``c`` relevant documents were retrieved.
``Rprec_mult`` (precision at rank ``(long)(x * R + 0.9)``) keeps the 9.x rounding in both
versions, as trec_eval 10.0 does.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from rankviz.metrics.kernels.segments import safe_divide, suffix_max
from rankviz.registry import ELEVEN_LEVELS, ROUNDING

__all__ = [
    "ROUNDINGS", "ROUNDING_OF_VERSION", "STANDARD_RECALL_LEVELS", "Interpolation",
    "relevant_counts_for_levels", "rounding_rule", "interpolate", "precision_at_recall_levels",
    "interpolated_precision", "eleven_point_average", "r_precision_multiple",
]

#: The rules that turn a recall level x into c, the relevant documents a rank must have reached.
ROUNDINGS = ROUNDING.values
#: The rule of each trec_eval version (``evaluate(trec_eval_version=...)``).
ROUNDING_OF_VERSION = {"10": "lround", "9": "floor_plus_0.9"}
#: The 11 standard recall levels 0.0, 0.1, ..., 1.0 (trec_eval's iprec_at_recall and 11pt_avg).
STANDARD_RECALL_LEVELS = ELEVEN_LEVELS


def relevant_counts_for_levels(levels, n_relevant: np.ndarray, rounding: str) -> np.ndarray:
    """Number of relevant documents each recall level stands for, shape (n_lists, n_levels).

    >>> relevant_counts_for_levels([0.4, 0.7], np.array([3]), "lround").tolist()   # 1.2, 2.1
    [[1, 2]]
    >>> relevant_counts_for_levels([0.4, 0.7], np.array([3]), "ceil").tolist()
    [[2, 3]]
    >>> relevant_counts_for_levels([0.4, 0.7], np.array([3]), "floor_plus_0.9").tolist()  # 2.9999999999999996
    [[2, 2]]
    """
    x = np.asarray(levels, dtype=np.float64)[None, :] * np.asarray(n_relevant, dtype=np.float64)[:, None]
    if rounding == "floor_plus_0.9":
        return (x + 0.9).astype(np.int64)  # C's (long) cast truncates toward zero
    if rounding == "ceil":
        return np.ceil(x - 1e-9 * np.maximum(1.0, x)).astype(np.int64)
    if rounding == "lround":
        lower = np.floor(x)
        return np.where(x - lower >= 0.5, lower + 1, lower).astype(np.int64)  # lround for x >= 0
    raise ValueError(f"The 'rounding' of an interpolated precision must be one of {ROUNDINGS}. Got {rounding!r}.")


def rounding_rule(ctx, measure) -> str:
    """The measure's own ``rounding`` if given, else the one of the context's trec_eval version."""
    own = measure.param("rounding")
    return ROUNDING_OF_VERSION[ctx.trec_eval_version] if own is None else own


class Interpolation(NamedTuple):
    """Interpolated precision of every list at some recall levels, with the counts behind it.

    Every field has shape (n_lists, n_levels).
    """

    needed: np.ndarray  #: c, the relevant documents the level stands for (int64)
    reached: np.ndarray  #: whether at least max(c, 1) relevant documents were retrieved
    first_relevant: np.ndarray  #: where reached: index, into the context's relevant rows, of relevant document max(c, 1)
    values: np.ndarray  #: the interpolated precision (0 where not reached)


def interpolate(ctx, thr: float, levels: tuple, rounding: str) -> Interpolation:
    """Interpolated precision of every list at ``levels`` (cached per threshold, levels and rule)."""
    key = ("iprec", thr, tuple(levels), rounding)

    def compute():
        best_after = suffix_max(ctx.precision_at_relevant(thr), ctx.relevant_query(thr))
        rel_ret = ctx.num_rel_ret(thr)
        counts = relevant_counts_for_levels(levels, ctx.n_relevant(thr), rounding)
        needed = np.maximum(counts, 1)
        reached = needed <= rel_ret[:, None]
        first_row = np.concatenate(([0], np.cumsum(rel_ret)))[:-1]
        first = np.where(reached, first_row[:, None] + needed - 1, 0)
        out = np.zeros(counts.shape)
        out[reached] = best_after[first[reached]]
        return Interpolation(counts, reached, first, out)

    return ctx._cached(key, compute)


def precision_at_recall_levels(ctx, measure) -> np.ndarray:
    """Interpolated precision at every level of ``measure.param("levels")`` (default: the 11
    standard levels), shape (n_lists, n_levels): the matrix behind the two kernels below."""
    levels = measure.param("levels")
    levels = STANDARD_RECALL_LEVELS if levels is None else tuple(levels)
    return interpolate(ctx, ctx.threshold(measure), levels, rounding_rule(ctx, measure)).values


def interpolated_precision(ctx, measure):
    """iprec_at_recall_x: interpolated precision at recall level x = ``measure.cutoff``.

    A level among the 11 standard ones is read off their shared table, so asking for all 11
    interpolates once.
    """
    level = measure.cutoff
    levels = STANDARD_RECALL_LEVELS if level in STANDARD_RECALL_LEVELS else (level,)
    table = interpolate(ctx, ctx.threshold(measure), levels, rounding_rule(ctx, measure)).values
    return table[:, levels.index(level)]


def eleven_point_average(ctx, measure):
    """Interpolated precision averaged over the recall levels (default 0.0, 0.1, ..., 1.0)."""
    return precision_at_recall_levels(ctx, measure).mean(axis=1)


def r_precision_multiple(ctx, measure):
    """Precision at rank c = (long)(x * R + 0.9); 0 when c = 0 (R = 0 or x * R < 0.1)."""
    thr = ctx.threshold(measure)
    cut = relevant_counts_for_levels((measure.cutoff,), ctx.n_relevant(thr), "floor_plus_0.9")[:, 0]
    return safe_divide(ctx.relevant_in_top(thr, cut), cut)
