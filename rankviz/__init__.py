"""rankviz: ranking metrics that explain themselves, and trec_eval-exact batch evaluation.

``import rankviz`` is cheap and never imports streamlit or altair: submodules and the
public names below load on first use.

>>> import rankviz
>>> round(rankviz.metrics.ndcg([3, 2, 3, 0, 1, 2], gain="exponential"), 3)
0.949
"""

from __future__ import annotations

from rankviz._lazy import lazy_names

__version__ = "0.1.0"

_LAZY = {
    "metrics": ("rankviz.metrics", None),
    "registry": ("rankviz.registry", None),
    "presets": ("rankviz.presets", None),
    "read_qrels": ("rankviz.trec.readers", "read_qrels"),
    "read_run": ("rankviz.trec.readers", "read_run"),
    "parse_measure": ("rankviz.evaluation.measures", "parse_measure"),
    "parse_measures": ("rankviz.evaluation.measures", "parse_measures"),
    "Measure": ("rankviz.evaluation.measures", "Measure"),
    "evaluate": ("rankviz.evaluation.engines", "evaluate"),
    "evaluate_runs": ("rankviz.evaluation.distributed", "evaluate_runs"),
    "EvalResult": ("rankviz.evaluation.evaluator", "EvalResult"),
    "evaluate_clicks": ("rankviz.evaluation.clicks", "evaluate_clicks"),
    "ClickEvaluation": ("rankviz.evaluation.clicks", "ClickEvaluation"),
    "compare": ("rankviz.evaluation.comparison", "compare"),
    "compare_per_query": ("rankviz.evaluation.comparison", "compare_per_query"),
    "Comparison": ("rankviz.evaluation.comparison", "Comparison"),
    "TrecFormatError": ("rankviz.trec.readers", "TrecFormatError"),
    "explain": ("rankviz.teaching.explain", "explain"),
    "TOOLS": ("rankviz.conventions", "TOOLS"),
    "CONVENTIONS": ("rankviz.conventions", "CONVENTIONS"),
    "disagreement": ("rankviz.evaluation.tools", "disagreement"),
    "Explanation": ("rankviz.teaching.explain", "Explanation"),
}

__all__ = ["__version__", *sorted(_LAZY)]
__getattr__, __dir__ = lazy_names(__name__, _LAZY)
