"""Per-query ranking metrics: pure functions over numpy arrays, one module per family.

``rels`` are relevance grades in ranked order (``rels[0]`` is rank 1). Each metric has a
``*_breakdown`` twin that returns the worked table of a lecture exercise as a DataFrame
(``df.attrs["value"]`` is the final value, ``df.attrs["latex"]`` the formula with numbers).

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

_WHERE: dict[str, str] = {}
for _module, _name in [(spec.module, spec.name) for spec in METRICS if spec.module] + [
        (module, name) for module, names in _HELPERS.items() for name in names]:
    _WHERE[_name] = _WHERE[_name + "_breakdown"] = f"rankviz.metrics.{_module}"

__all__ = sorted(_WHERE)
__getattr__, __dir__ = lazy_names(__name__, _WHERE)
