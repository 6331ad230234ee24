"""Means over queries: the one place MAP, GMAP, HMAP and MRR are formed from per-query values.

:func:`rankviz.evaluation.evaluator.aggregate` (trec_eval's ``all`` line) and the per-query-values
metrics of :mod:`rankviz.metrics.aggregate` (with their worked tables) both call these.
"""

from __future__ import annotations

import numpy as np

__all__ = ["TREC_EVAL_FLOOR", "floored", "arithmetic_mean", "geometric_mean", "harmonic_mean"]

#: trec_eval's MIN_GEO_MEAN: values below it count as it in a geometric (or harmonic) mean.
TREC_EVAL_FLOOR = 1e-5


def floored(values: np.ndarray, floor: float = TREC_EVAL_FLOOR) -> np.ndarray:
    """``max(value, floor)`` for each value: a zero AP would make the mean 0 (or infinite)."""
    return np.maximum(np.asarray(values, dtype=np.float64), floor)


def arithmetic_mean(values: np.ndarray) -> float:
    r"""\frac{1}{Q} \sum_q v_q; 0.0 for no values (trec_eval's policy)."""
    values = np.asarray(values, dtype=np.float64)
    return float(np.mean(values)) if values.size else 0.0


def geometric_mean(values: np.ndarray, floor: float = TREC_EVAL_FLOOR) -> float:
    r"""\exp(\frac{1}{Q} \sum_q \ln \max(v_q, \epsilon)) (trec_eval's gm_map, gm_bpref); 0.0 for no values.

    >>> round(geometric_mean(np.array([0.5, 0.0])), 6)  # sqrt(0.5 * 1e-5)
    0.002236
    """
    values = np.asarray(values, dtype=np.float64)
    if not values.size:
        return 0.0
    with np.errstate(divide="ignore"):  # floor 0: a zero value's log is -inf on purpose, the mean is then 0
        return float(np.exp(np.mean(np.log(floored(values, floor)))))


def harmonic_mean(values: np.ndarray, floor: float = TREC_EVAL_FLOOR) -> float:
    r"""Q / \sum_q 1 / \max(v_q, \epsilon); 0.0 for no values.

    >>> harmonic_mean(np.array([0.5, 0.25]))  # 2 / (2 + 4)
    0.3333333333333333
    """
    values = np.asarray(values, dtype=np.float64)
    if not values.size:
        return 0.0
    with np.errstate(divide="ignore"):  # floor 0: a zero value's reciprocal is inf, the mean is then 0
        return float(values.size / np.sum(1.0 / floored(values, floor)))
