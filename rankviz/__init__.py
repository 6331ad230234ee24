"""rankviz: ranking metrics that explain themselves, and trec_eval-exact batch evaluation.

``import rankviz`` is cheap and never imports streamlit or altair: submodules and the
public names below load on first use.

>>> import rankviz
>>> round(rankviz.metrics.ndcg([3, 2, 3, 0, 1, 2], gain="exponential"), 3)
0.949
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

_LAZY = {
    "metrics": ("rankviz.metrics", None),
    "registry": ("rankviz.registry", None),
    "presets": ("rankviz.presets", None),
    "read_qrels": ("rankviz.trec", "read_qrels"),
    "read_run": ("rankviz.trec", "read_run"),
    "parse_measure": ("rankviz.measures", "parse_measure"),
    "parse_measures": ("rankviz.measures", "parse_measures"),
    "Measure": ("rankviz.measures", "Measure"),
    "evaluate": ("rankviz.evaluation", "evaluate"),
    "EvalResult": ("rankviz.evaluation", "EvalResult"),
    "compare": ("rankviz.comparison", "compare"),
    "compare_per_query": ("rankviz.comparison", "compare_per_query"),
    "Comparison": ("rankviz.comparison", "Comparison"),
    "TrecFormatError": ("rankviz.trec", "TrecFormatError"),
}

__all__ = ["__version__", *sorted(_LAZY)]


def __getattr__(name: str):
    target = _LAZY.get(name)
    if target is None:
        raise AttributeError(f"module 'rankviz' has no attribute {name!r}")
    module = importlib.import_module(target[0])
    value = module if target[1] is None else getattr(module, target[1])
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
