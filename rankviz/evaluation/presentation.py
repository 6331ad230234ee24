"""What ``EvalResult`` and ``Comparison`` show in a notebook or a terminal: the measures with their conventions.

The rich-display hooks of :class:`~rankviz.evaluation.evaluator.EvalResult` and
:class:`~rankviz.evaluation.comparison.Comparison` call these; no number is computed here, each
value is the result's own.

>>> from rankviz.evaluation.measures import parse_measure
>>> measure_conventions(parse_measure("P(rel=2)@10"))
'top 10 ranks; relevant: grade ≥ 2; mean over queries'
>>> measure_conventions(parse_measure("nDCG@10"))
'top 10 ranks; linear gain g, log2(i + 1) discount, ideal from the qrels; mean over queries'
"""

from __future__ import annotations

import html

from rankviz.display import html_table, text_table
from rankviz.evaluation.measures import Measure, parse_measure
from rankviz.registry import DISCOUNT, GAIN

__all__ = ["P_VALUE_FORMAT", "value_format", "run_labels", "measure_conventions", "measures_table",
           "eval_result_text", "eval_result_html",
           "comparison_text", "comparison_html"]

_OVER_QUERIES = {"mean": "mean over queries", "gmean": "geometric mean over queries (values floored at 1e-5)",
                 "sum": "sum over queries", "none": "per query only"}
_TIES = "Ties in scores: score descending, then docno descending (trec_eval); the run's rank column is ignored."


#: How p-values are printed (printf style; the command line's ``compare`` and the app's significance
#: table): four significant digits, so a small p-value never reads as 0.0000 (0.00695, 1.489e-05).
P_VALUE_FORMAT = "%.4g"


def value_format(measure) -> str | None:
    """How a measure's value is printed (printf style), as trec_eval prints it: ``"%d"`` for a
    count, else ``"%.4f"``, whatever the values (a mean RR of exactly 1 prints 1.0000, beside AP's
    0.4460); None when ``measure`` is no measure's name.

    >>> value_format("RR"), value_format("num_rel_ret"), value_format("ndcg_cut_10"), value_format("run")
    ('%.4f', '%d', '%.4f', None)
    """
    if not isinstance(measure, Measure):
        try:
            measure = parse_measure(str(measure))
        except ValueError:
            return None
    return "%d" if measure.spec.integer else "%.4f"


def run_labels(runs) -> list[str]:
    """The names runs go by in tables, as the command line and the app print them: each run's tag
    (the last field of its lines, trec_eval's ``runid``), or its file name when it has none.

    Where two runs share a tag, each becomes ``tag (file)``; a file given twice gets ``#2``, ``#3``.

    Parameters
    ----------
    runs : sequence of (tag or None, file name)
        In the order given.

    Examples
    --------
    >>> run_labels([("sysA", "run_sysA.txt"), ("sysB", "run_sysB.txt"), (None, "clicks.csv")])
    ['sysA', 'sysB', 'clicks.csv']
    >>> run_labels([("bm25", "old/bm25.run"), ("bm25", "new/bm25.run"), ("bm25", "new/bm25.run")])
    ['bm25 (old/bm25.run)', 'bm25 (new/bm25.run)', 'bm25 (new/bm25.run) #2']
    """
    from collections import Counter

    runs = [(tag or file, file) for tag, file in runs]
    uses = Counter(tag for tag, _ in runs)
    labels = []
    for tag, file in runs:
        label = f"{tag} ({file})" if uses[tag] > 1 and tag != file else tag
        base, copy = label, 1
        while label in labels:
            copy += 1
            label = f"{base} #{copy}"
        labels.append(label)
    return labels


def measure_conventions(measure) -> str:
    """The conventions of one measure in words: its cutoff, relevance threshold or gain, how queries are combined.

    ``measure``: a :class:`~rankviz.evaluation.measures.Measure` or a measure name; a name that
    is no measure (a column of ``compare_per_query``) gives ``""``.
    """
    if not isinstance(measure, Measure):
        try:
            measure = parse_measure(str(measure))
        except ValueError:
            return ""
    spec = measure.spec
    parts = []
    if measure.cutoff is not None:
        parts.append({"int": f"top {measure.cutoff:g} ranks", "optional_int": f"top {measure.cutoff:g} ranks",
                      "float": f"at {measure.cutoff:g} × R", "recall": f"recall level {measure.cutoff:g}"}
                     .get(spec.cutoff, f"cutoff {measure.cutoff:g}"))
    rel = measure.param("rel")
    if rel is not None:
        parts.append(f"relevant: grade ≥ {rel:g}" if isinstance(rel, (int, float)) else f"relevant: {rel}")
    elif any(p.name == "rel_threshold" for p in spec.params):
        parts.append("relevant: grade ≥ evaluate's rel_threshold (1 by default)")
    if any(p.name == "gain" for p in spec.params):
        gain = measure.param("gain") or GAIN.default
        words = GAIN.label(gain) if gain in GAIN.values else f"gains {gain}"
        # The DCG family's measures always use the log2(i + 1) discount (trec_eval's); its ideal is the qrels'.
        if "discount" in spec.param_names:
            words += f", {DISCOUNT.label(DISCOUNT.default)}, ideal from the qrels"
        parts.append(words)
    for key, value in measure.params:
        if key not in ("rel", "gain"):
            parts.append(f"{key} = {value}")
    parts.append(_OVER_QUERIES.get(spec.aggregate, spec.aggregate))
    return "; ".join(parts)


def measures_table(mean):
    """One row per measure: its name, trec_eval's name, the value as trec_eval prints it (4 decimals,
    counts whole) and its conventions, every cell text.

    ``mean``: the Series of an ``EvalResult`` (index: the measures' names).
    """
    import pandas as pd

    rows = []
    for name, value in mean.items():
        try:
            measure = parse_measure(str(name))
        except ValueError:
            measure = None
        integer = measure is not None and measure.spec.integer
        shown = "—" if pd.isna(value) else f"{value:.0f}" if integer else f"{value:.4f}"
        rows.append({"measure": str(name), "trec_eval": measure.trec_name if measure else "", "value": shown,
                     "conventions": measure_conventions(measure) if measure else ""})
    return pd.DataFrame(rows, columns=["measure", "trec_eval", "value", "conventions"])


def _eval_caption(result) -> str:
    run = f"run {result.run_name}" if result.run_name else "the run"
    queries = len(result.per_query)
    return f"Evaluation of {run} over {queries} quer{'y' if queries == 1 else 'ies'}"


def eval_result_text(result) -> str:
    """An ``EvalResult`` as text: the caption, the measures table (4 decimals, as trec_eval prints), the tie rule."""
    return "\n".join([_eval_caption(result), text_table(measures_table(result.mean), right=("value",)), _TIES,
                      "Per-query values: result.per_query."])


def eval_result_html(result) -> str:
    """An ``EvalResult`` as an accessible HTML table of the measures with their conventions."""
    return "\n".join([
        '<section class="rankviz-evaluation">',
        html_table(measures_table(result.mean), caption=_eval_caption(result), row_headers=1, right=("value",)),
        f'<p style="font-size: 0.85em; margin: 0.4em 0;">{html.escape(_TIES)} Per-query values: '
        "<code>result.per_query</code>.</p>",
        "</section>",
    ])


def _comparison_caption(comparison) -> str:
    test = {"t": "paired t-test", "randomization": "paired randomization test",
            "bootstrap": "paired bootstrap test"}.get(comparison.test, comparison.test)
    correction = f", {comparison.correction.capitalize()} correction" if comparison.correction else ", no correction"
    return (f"Runs against the baseline {comparison.baseline} ({test}{correction}, α = {comparison.alpha:g}); "
            "† significantly better, ‡ significantly worse")


def _comparison_frame(comparison):
    """The means (runs × measures) with the significance marks, and a row of conventions."""
    import pandas as pd

    rows = comparison.table.set_index(["run", "measure"])
    frame = {"run": list(comparison.means.index)}
    for measure in comparison.means.columns:
        cells = []
        for run in comparison.means.index:
            value = comparison.means.loc[run, measure]
            text = "—" if pd.isna(value) else f"{value:.4f}"
            if (run, measure) in rows.index:
                row = rows.loc[(run, measure)]
                if bool(row["significant"]):
                    text += " †" if row["delta"] > 0 else " ‡"
            cells.append(text)
        frame[str(measure)] = cells
    table = pd.DataFrame(frame)
    conventions = pd.DataFrame({"measure": [str(m) for m in comparison.means.columns],
                                "conventions": [measure_conventions(m) for m in comparison.means.columns]})
    return table, conventions


def comparison_text(comparison) -> str:
    table, conventions = _comparison_frame(comparison)
    measures = tuple(table.columns[1:])
    return "\n".join([_comparison_caption(comparison), text_table(table, right=measures), "", text_table(conventions),
                      "Tests, p-values and effect sizes: comparison.table."])


def comparison_html(comparison) -> str:
    """A ``Comparison`` as accessible HTML: the test in a sentence, then the means table and the
    measures' conventions.

    The sentence stands above the table rather than in its ``<caption>``: a caption is as wide as
    its table, and a table of two runs and one measure wrapped it one word a line in a notebook.
    """
    table, conventions = _comparison_frame(comparison)
    return "\n".join([
        '<section class="rankviz-comparison">',
        f'<p style="margin: 0 0 0.3em 0; max-width: 60em;">{html.escape(_comparison_caption(comparison))}</p>',
        html_table(table, caption="Means per run", row_headers=1, right=tuple(table.columns[1:])),
        html_table(conventions, caption="The measures' conventions", row_headers=1),
        '<p style="font-size: 0.85em; margin: 0.4em 0;">Tests, p-values and effect sizes: '
        "<code>comparison.table</code>.</p>",
        "</section>",
    ])
