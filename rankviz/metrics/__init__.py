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
from rankviz.registry import METRICS

# The metrics are the registry's; these public helpers live beside them without being metrics.
_HELPERS = {
    "precision_recall": ["precision_recall_points"],
    "classification": ["roc_curve"],
    "aggregate": ["arithmetic_mean"],
}

# The binary relevance rule (grade >= rel_threshold), for code that counts relevant documents.
_WHERE: dict[str, str] = {"Breakdown": "rankviz.metrics.breakdown", "count_relevant": "rankviz.metrics.validation",
                          "relevant_mask": "rankviz.metrics.validation"}
for _module, _name in [(spec.module, spec.name) for spec in METRICS if spec.module] + [
        (module, name) for module, names in _HELPERS.items() for name in names]:
    _WHERE[_name] = _WHERE[_name + "_breakdown"] = f"rankviz.metrics.{_module}"

__all__ = sorted(_WHERE)
__getattr__, __dir__ = lazy_names(__name__, _WHERE)
