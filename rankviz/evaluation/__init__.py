"""Whole runs against qrels, as trec_eval evaluates them, and comparisons of runs.

* :mod:`~rankviz.evaluation.measures`: measure names of both families parsed into ``Measure``;
* :mod:`~rankviz.evaluation.ranking`: trec_eval's ranking and tie rule, lines matched to judgments;
* :mod:`~rankviz.evaluation.engines`: :func:`evaluate`, in memory or on Dask (:mod:`~rankviz.evaluation.distributed`,
  also :func:`evaluate_runs`: many runs, one table);
* :mod:`~rankviz.evaluation.evaluator`: the in-memory :func:`evaluate` (the kernels of :mod:`rankviz.metrics.kernels`
  over every query at once) and :class:`EvalResult`;
* :mod:`~rankviz.evaluation.comparison` and :mod:`~rankviz.evaluation.significance`: :func:`compare`;
* :mod:`~rankviz.evaluation.ties`: one run under other tie rules, and the tie-averaged values;
* :mod:`~rankviz.evaluation.clicks`: :func:`evaluate_clicks`, AUC, GAUC and per-group measures of
  click logs, in memory or on Dask;
* :mod:`~rankviz.evaluation.tools`: other tools' numbers (``evaluate(..., as_tool=...)``) and
  :func:`disagreement`, the conventions (:mod:`rankviz.conventions`) behind each difference.
"""

from rankviz._lazy import lazy_names

__all__ = ["EvalResult", "evaluate", "evaluate_runs", "Comparison", "compare", "compare_per_query", "Measure",
           "parse_measure", "parse_measures", "evaluate_clicks", "ClickEvaluation", "disagreement"]
__getattr__, __dir__ = lazy_names(__name__, {
    "EvalResult": "rankviz.evaluation.evaluator",
    "evaluate": "rankviz.evaluation.engines",
    "evaluate_runs": "rankviz.evaluation.distributed",
    "Comparison": "rankviz.evaluation.comparison",
    "compare": "rankviz.evaluation.comparison",
    "compare_per_query": "rankviz.evaluation.comparison",
    "Measure": "rankviz.evaluation.measures",
    "parse_measure": "rankviz.evaluation.measures",
    "parse_measures": "rankviz.evaluation.measures",
    "evaluate_clicks": "rankviz.evaluation.clicks",
    "ClickEvaluation": "rankviz.evaluation.clicks",
    "disagreement": "rankviz.evaluation.tools",
})
