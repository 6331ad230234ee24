"""Per-query ranking metrics: pure functions over numpy arrays, one module per family.

``rels`` are relevance grades in ranked order (``rels[0]`` is rank 1). Each metric has a
``*_breakdown`` twin that works it out like a lecture exercise and returns a
:class:`~rankviz.metrics.breakdown.Breakdown`: ``table`` (the worked table, a DataFrame),
``value`` (the metric's value), ``latex`` (the formula with this input's numbers) and
``details`` (named intermediate values such as R, listed in each breakdown's docstring).

>>> from rankviz.metrics import average_precision_breakdown
>>> worked = average_precision_breakdown([1, 0, 1])  # (1/1 + 2/3) / 2
>>> round(worked.value, 3), worked.details["n_relevant"], worked.table["contribution"].round(3).tolist()
(0.833, 2, [1.0, 0.0, 0.667])

Modules are imported on first use, so ``import rankviz.metrics`` stays cheap.
"""

from __future__ import annotations

from rankviz._lazy import lazy_names

_FAMILIES = {
    "binary": ["precision", "recall", "hit", "f_beta", "r_precision", "average_precision", "reciprocal_rank"],
    "precision_recall": [
        "interpolated_precision", "eleven_point_precision", "interpolated_average_precision",
        "precision_recall_points",
    ],
    "graded": ["cumulative_gain", "dcg", "ideal_dcg", "ndcg", "err"],
    "correlation": ["spearman_rho", "kendall_tau", "kendall_tau_distance"],
    "classification": ["auc", "gauc", "roc_curve"],
    "aggregate": [
        "mean_average_precision", "geometric_mean_average_precision",
        "harmonic_mean_average_precision", "mean_reciprocal_rank", "arithmetic_mean",
    ],
    "user": [
        "coverage", "novelty", "relative_recall", "recall_effort",
        "expected_search_length", "satisfaction", "frustration",
    ],
}

_WHERE: dict[str, str] = {"Breakdown": "rankviz.metrics.breakdown"}
for _module, _names in _FAMILIES.items():
    for _name in _names:
        _WHERE[_name] = _WHERE[_name + "_breakdown"] = f"rankviz.metrics.{_module}"

__all__ = sorted(_WHERE)
__getattr__, __dir__ = lazy_names(__name__, _WHERE)
