r"""One call, one worked example: a metric's value with its formula, its worked table and its chart,
displayed in JupyterLab, VS Code and marimo as the app shows it, and readable in a terminal.

:func:`explain` runs the metric's ``*_breakdown`` (the registry's ``MetricSpec.breakdown``: the same
kernel as the metric's value) and returns an :class:`Explanation` that carries the standard
rich-display hooks:

* ``_repr_html_``: the result with its variant (as the app labels it), the definition and the
  formula with the numbers substituted (``$$...$$``, typeset by JupyterLab's MathJax), the worked
  table as an accessible HTML table, the reference;
* ``_repr_latex_``: the definition and the substituted formula as one display-math block;
* ``_repr_mimebundle_``: ``text/plain``, ``text/html``, ``text/latex`` and, where
  :mod:`rankviz.charts` has a chart for the metric, the Vega-Lite spec under
  ``application/vnd.vegalite.v<major>+json`` (the major version of the spec's ``$schema``);
* ``_ipython_display_``: in Jupyter (IPython kernels), the worked example and then the chart as
  two outputs, since a front-end shows one MIME type of a bundle and ranks HTML and Vega-Lite
  differently (JupyterLab prefers HTML, so the chart would never show);
* ``_mime_``: marimo's hook, the HTML; ``Explanation.chart()`` gives the Altair chart to show
  beside it;
* ``str`` / ``repr``: the result, the formula and the table as text.

Metrics that only :func:`rankviz.evaluate` computes (bpref, infAP, the counts...) have no
per-query function and so no worked table: :func:`explain` raises a ValueError that names the
metrics it can explain (a table-less explanation would show a formula without numbers).

>>> worked = explain("ndcg", [3, 2, 3, 0, 1, 2], gain="exponential")
>>> print(worked.label, "=", round(worked.value, 3), f"({worked.variant})")
nDCG@6 = 0.949 (exponential gain 2^g − 1, log2(i + 1) discount)
"""

from __future__ import annotations

import html
import inspect
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from rankviz.display import html_table, text_table
from rankviz.i18n import _, ngettext
from rankviz.registry import METRICS, MetricSpec, get_spec
from rankviz.formatting import format_number
from rankviz.teaching.labels import at_k_label, variant_text

__all__ = ["Explanation", "explain", "explainable_metrics"]

# The per-query input of each kind, in words (the first positional arguments of the function).
_INPUT_WORDS = {
    "ranking": "grades in ranked order",
    "ranking_levels": "grades in ranked order and recall levels",
    "two_rankings": "two rankings of the same items",
    "labels_scores": "labels and scores",
    "groups": "labels, scores and groups",
    "per_query_values": "one value per query",
    "sets": "the sets R (relevant), A (answer) and K (known)",
    "counts": "two counts",
    "subtopics": "the subtopics of each ranked document (and of every judged one)",
}


def explainable_metrics() -> list[str]:
    """Names of the registry's metrics :func:`explain` takes: those with a per-query worked table.

    >>> explainable_metrics()[:4]
    ['hit', 'precision', 'recall', 'f_beta']
    """
    return [spec.name for spec in METRICS if spec.module]


def _resolve(metric) -> MetricSpec:
    """The spec of a registry name (``"ndcg"``) or, failing that, of a measure name (``"nDCG"``, ``"AP"``)."""
    if isinstance(metric, MetricSpec):
        return metric
    if not isinstance(metric, str):
        raise ValueError(f"The 'metric' parameter of explain must be a metric name such as 'ndcg'. "
                         f"Got {metric!r} instead.")
    try:
        return get_spec(metric)
    except ValueError as unknown:
        from rankviz.evaluation.measures import parse_measure

        try:
            measure = parse_measure(metric)
        except ValueError:
            raise unknown from None
        if measure.cutoff is not None or measure.params:
            raise ValueError(f"explain takes a metric's name without a cutoff or parameters; got {metric!r}. "
                             f"Pass them as the function does, e.g. explain({measure.spec.name!r}, rels, k=10)."
                             ) from None
        return measure.spec


@dataclass(frozen=True, eq=False, repr=False)
class Explanation:
    r"""A metric worked out on one input: the value, the variant, the formula with numbers, the table.

    Built by :func:`explain`. Displays itself in notebooks (see the module's docstring) and prints
    as text.

    Attributes
    ----------
    spec : rankviz.registry.MetricSpec
        The metric's registry entry: ``formula`` (LaTeX), ``description``, ``reference``.
    breakdown : rankviz.metrics.breakdown.Breakdown
        What the metric's ``*_breakdown`` returned: ``table``, ``value``, ``latex``, ``details``.
    arguments : Mapping[str, Any]
        Every argument of the call, defaults included, by the function's parameter names.
    label : str
        The metric's name with k filled in, as the app titles it (``"nDCG@6"``).
    variant : str
        The conventions the value used, in words (``"exponential gain 2^g − 1, log2(i + 1) discount"``).

    Examples
    --------
    AP of the grades 1, 0, 1: (1/1 + 2/3) / 2 = 0.833.

    >>> worked = explain("average_precision", [1, 0, 1])
    >>> print(worked)  # doctest: +NORMALIZE_WHITESPACE
    AP@3 = 0.833  (relevant: grade ≥ 1, R from the list)
    Mean of the precisions at the ranks of the relevant documents; unretrieved ones add 0.
    Formula:  \mathrm{AP@}k = \frac{1}{R} \sum_{i=1}^{k} P@i \cdot \mathrm{rel}(i)
    Worked:   \mathrm{AP} = \frac{1}{2}\left(\frac{1}{1} + \frac{2}{3}\right) = 0.833
    rank  rel  relevant?  relevant so far    P@i  contribution
       1    1        yes                1  1.000         1.000
       2    0         no                1  0.500         0.000
       3    1        yes                2  0.667         0.667
    Reference: Manning, Raghavan & Schütze, Introduction to Information Retrieval, ch. 8 (2008), 8.4;
    trec_eval 10.0, NIST (https://github.com/usnistgov/trec_eval): map, map_cut_k
    """

    spec: MetricSpec
    breakdown: Any
    arguments: Mapping[str, Any] = field(default_factory=dict)
    label: str = ""
    variant: str = ""

    def __post_init__(self):
        object.__setattr__(self, "arguments", MappingProxyType(dict(self.arguments)))
        if not self.label:
            object.__setattr__(self, "label", self.spec.pretty_name)

    # -- what it holds ---------------------------------------------------------------------
    @property
    def value(self) -> float:
        """The metric's value: what its per-query function returns for the same input."""
        return self.breakdown.value

    @property
    def table(self):
        """The worked table (a DataFrame), one row per step."""
        return self.breakdown.table

    @property
    def formula(self) -> str:
        """The definition in LaTeX (the registry's ``MetricSpec.formula``)."""
        return self.spec.formula

    @property
    def worked_latex(self) -> str:
        """The formula with this input's numbers substituted (the breakdown's ``latex``)."""
        return self.breakdown.latex

    @property
    def reference(self) -> str:
        return self.spec.reference

    @property
    def result_text(self) -> str:
        """``"nDCG@6 = 0.949 (exponential gain 2^g − 1, log2(i + 1) discount)"``: the value as the app writes it, with its variant."""
        text = f"{self.label} = {format_number(self.value, 3)}"
        return text + (f"  ({self.variant})" if self.variant else "")

    # -- the chart ---------------------------------------------------------------------------
    def chart(self, **options):
        """The metric's chart from :mod:`rankviz.charts` (an Altair chart), or None for a metric without one.

        ``options`` go to the chart builder (``font_size=22`` for a projector, ``title=...``).
        Imports Altair, so only call it where Altair is installed (``pip install "rankviz[app]"``).
        """
        build = _CHART_BUILDERS.get(self.spec.chart)
        if build is None:
            return None
        import rankviz.charts as charts  # Altair: loaded here, never by `import rankviz`

        return build(charts, self, options)

    def vega_lite(self) -> dict | None:
        """The chart as a Vega-Lite spec (a dict with ``$schema``), or None: no chart, or no Altair.

        :data:`NOTEBOOK_CHART_WIDTH` pixels wide: the app's charts fill their column (``"container"``),
        but a notebook's output has no width of its own to fill; JupyterLab 4.6 re-rendered such a
        chart without end, and the notebook stalled.
        """
        try:
            chart = self.chart(width=NOTEBOOK_CHART_WIDTH)
        except ImportError:
            return None
        return None if chart is None else chart.to_dict()

    # -- the renderings ---------------------------------------------------------------------
    def to_text(self) -> str:
        """The result, the definition, the formula with numbers, the table and the reference, as plain text."""
        lines = [self.result_text, _(self.spec.description), _("Formula:  {formula}").format(formula=self.formula)]
        if self.worked_latex:
            lines.append(_("Worked:   {formula}").format(formula=self.worked_latex))
        lines += [text_table(self.table), _("Reference: {reference}").format(reference=self.reference)]
        return "\n".join(lines)

    def to_latex(self) -> str:
        r"""The definition and the substituted formula as one display-math block, ``$$ ... $$``.

        Valid KaTeX and MathJax input: the two lines sit in a ``gathered`` environment.
        """
        rows = [self.formula] + ([self.worked_latex] if self.worked_latex else [])
        return "$$\\begin{gathered}\n" + " \\\\\n".join(rows) + "\n\\end{gathered}$$"

    def to_html(self) -> str:
        """The result with its variant, the definition, the formulas, the worked table and the reference, as HTML."""
        escape = html.escape
        value = format_number(self.value, 3)
        variant = (f' <span class="rankviz-variant" style="font-weight: normal;">({escape(self.variant)})</span>'
                   if self.variant else "")
        formulas = "\n".join(
            f'<div class="rankviz-formula" role="math" aria-label="{escape(what)}: {escape(latex)}">'
            f"$${escape(latex)}$$</div>"
            for what, latex in ((_("definition"), self.formula), (_("with the numbers"), self.worked_latex)) if latex)
        caption = ngettext("Worked table of {label} ({n} row)", "Worked table of {label} ({n} rows)",
                           len(self.table)).format(label=self.label, n=len(self.table))
        worked_out = _("{name} worked out").format(name=self.spec.pretty_name)
        return "\n".join([
            f'<section class="rankviz-explanation" aria-label="{escape(worked_out)}">',
            f'<p class="rankviz-result" style="font-size: 1.3em; font-weight: bold; margin: 0.2em 0;">'
            f"{escape(self.label)} = {escape(value)}{variant}</p>",
            f'<p class="rankviz-description" style="margin: 0.2em 0;">{escape(_(self.spec.description))}</p>',
            formulas,
            html_table(self.table, caption=caption),
            f'<p class="rankviz-reference" style="font-size: 0.85em; margin: 0.4em 0;">'
            f"{escape(_('Reference: {reference}').format(reference=self.reference))}</p>",
            "</section>",
        ])

    # -- the display hooks ------------------------------------------------------------------
    def __repr__(self) -> str:
        return self.to_text()

    __str__ = __repr__

    def _repr_html_(self) -> str:
        return self.to_html()

    def _repr_latex_(self) -> str:
        return self.to_latex()

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict:
        """text/plain, text/html, text/latex and, where there is a chart and Altair, its Vega-Lite spec."""
        bundle = {"text/plain": self.to_text(), "text/html": self.to_html(), "text/latex": self.to_latex()}

        def wanted(key):
            return (include is None or key in include) and not (exclude and key in exclude)

        spec = self.vega_lite() if any(wanted(key) for key in _possible_chart_keys()) else None
        if spec is not None:
            bundle[vega_lite_mime_type(spec)] = spec
        return {key: data for key, data in bundle.items() if wanted(key)}

    def _ipython_display_(self) -> None:
        """In Jupyter: the worked example (HTML, LaTeX, text), then the chart as a second output."""
        from IPython.display import display

        display({"text/plain": self.to_text(), "text/html": self.to_html(), "text/latex": self.to_latex()},
                raw=True)
        spec = self.vega_lite()
        if spec is not None:
            display(jupyter_chart_bundle(spec, f"<chart of {self.label}>"), raw=True)

    def _mime_(self) -> tuple[str, str]:
        """marimo's hook: the worked example as HTML (``mo.ui.altair_chart(e.chart())`` shows the chart)."""
        return "text/html", self.to_html()


def vega_lite_mime_type(spec: dict) -> str:
    """The MIME type of a Vega-Lite spec, from the major version in its ``$schema``.

    Altair 5 writes Vega-Lite 5 specs, Altair 6 Vega-Lite 6:

    >>> vega_lite_mime_type({"$schema": "https://vega.github.io/schema/vega-lite/v5.20.1.json"})
    'application/vnd.vegalite.v5+json'
    """
    return f"application/vnd.vegalite.v{_vega_lite_major(spec)}+json"


def _vega_lite_major(spec: dict) -> int:
    """The major Vega-Lite version in a spec's ``$schema`` (5 when it names none)."""
    import re

    found = re.search(r"/vega-lite/v(\d+)", str(spec.get("$schema", "")))
    return int(found.group(1)) if found else 5


NOTEBOOK_CHART_WIDTH = 640  # px, the width of a chart in a notebook's output (Explanation.vega_lite)

# The newest Vega-Lite MIME type JupyterLab 4 renders (its vega5-extension: Vega-Lite 3, 4 and 5).
JUPYTERLAB_VEGA_LITE = "application/vnd.vegalite.v5+json"


def jupyter_chart_bundle(spec: dict, text: str) -> dict:
    """The chart as one Jupyter output: the spec under its own Vega-Lite MIME type, and ``text``.

    A spec newer than Vega-Lite 5 (Altair 6 writes 6) goes under the v5 type as well: JupyterLab
    4 (4.6.6 checked) renders the Vega-Lite 3 to 5 types only, and with the v6 type alone it
    showed ``text`` instead of the chart; its bundled Vega-Lite 5 draws rankviz's charts (a
    console warning about the ``$schema`` aside: docs/screenshots/tutorial_*.png). A front-end
    that knows the newer type picks by its own ranking; the spec is the same.

    >>> bundle = jupyter_chart_bundle({"$schema": "https://vega.github.io/schema/vega-lite/v6.4.1.json"}, "chart")
    >>> sorted(bundle)
    ['application/vnd.vegalite.v5+json', 'application/vnd.vegalite.v6+json', 'text/plain']
    >>> sorted(jupyter_chart_bundle({"$schema": "https://vega.github.io/schema/vega-lite/v5.20.1.json"}, "chart"))
    ['application/vnd.vegalite.v5+json', 'text/plain']
    """
    bundle = {vega_lite_mime_type(spec): spec}
    if _vega_lite_major(spec) > 5:
        bundle[JUPYTERLAB_VEGA_LITE] = spec
    bundle["text/plain"] = text
    return bundle


def _possible_chart_keys() -> tuple[str, ...]:
    return tuple(f"application/vnd.vegalite.v{major}+json" for major in (4, 5, 6, 7))


# ------------------------------------------------------------------------------------------------
# The variant in words: the app's labels for the ranking settings, and a few words for the others.

def _levels_words(levels) -> str:
    if levels is None:
        return _("a strict order")
    return _("{levels} recall levels").format(levels=levels) if isinstance(levels, int) else _("a weak order (tie levels)")


# Words for the parameters without choices that change what a value means, by parameter.
_PARAM_WORDS = {
    "floor": lambda value: _("APs floored at ε = {floor}").format(floor=format_number(value, 6)),
    "penalty": lambda value: f"p = {format_number(value)}",
    "wanted": lambda value: _("{wanted} relevant wanted").format(wanted=value),
    "levels": _levels_words,
}


def _variant(spec: MetricSpec, arguments: Mapping, breakdown) -> str:
    """The conventions of a worked value in words: the ranking settings as the app labels them, then
    the label of each chosen choice (the registry's) and the other parameters' words."""
    ranking = spec.inputs.startswith("ranking")
    parts = [variant_text(spec.applicable(dict(arguments)), spec)] if ranking else []
    for p in spec.params:
        if p.name not in arguments or (ranking and p.name in ("gain", "discount")):  # variant_text said them
            continue
        if p.choices:
            parts.append(_(p.label(arguments[p.name])))
        elif p.name in _PARAM_WORDS:
            parts.append(_PARAM_WORDS[p.name](arguments[p.name]))
    if "ties" in breakdown.details:  # Spearman's rho: the formula it could use
        parts.append(_("with ties: Pearson correlation of the average ranks") if breakdown.details["ties"]
                     else _("1 − 6 Σd² / (K (K² − 1)), no ties"))
    return _(", ").join(part for part in parts if part)


def _label(spec: MetricSpec, arguments: Mapping, breakdown) -> str:
    if spec.inputs == "ranking_levels":  # one value per level: the breakdown's value is their mean
        levels = breakdown.column("level").tolist()
        if len(levels) == 1:
            return _("Interpolated precision at recall {level}").format(level=format_number(levels[0]))
        return _("Mean interpolated precision over {n} recall levels").format(n=len(levels))
    if spec.inputs.startswith("ranking"):
        return at_k_label(spec, arguments, len(arguments["rels"]))
    k = arguments.get("k")
    if spec.name == "kendall_tau":
        return _("Kendall's τ-{variant}").format(variant=arguments["variant"])
    if "@K" in spec.pretty_name:
        return spec.pretty_name.replace("@K", f"@{k}" if k is not None else "")
    return spec.pretty_name


# ------------------------------------------------------------------------------------------------
# The charts: which builder of rankviz.charts draws which metric, from the same breakdown.

def _points(explanation):
    """P@i and R@i at every rank of the ranking, with the call's R and threshold."""
    from rankviz.metrics import precision_recall_points_breakdown

    given = explanation.arguments
    return precision_recall_points_breakdown(given["rels"], n_relevant=given.get("n_relevant"),
                                             judged=given.get("judged"),
                                             rel_threshold=given.get("rel_threshold", 1))


def _at_rank(charts, explanation, options):
    table = explanation.table if "R@i" in explanation.table and "P@i" in explanation.table else _points(explanation)
    return charts.precision_recall_at_rank_chart(table, **options)


def _curve(**layers):
    def build(charts, explanation, options):
        rounding = explanation.arguments.get("rounding")
        return charts.precision_recall_chart({explanation.label: _points(explanation)}, rounding=rounding,
                                             **{**layers, **options})
    return build


def _gain(charts, explanation, options):
    # By role: nDCG's worked table has the ideal ranking's bars and running sum, DCG's has none.
    ideal = charts.BY_ROLE if "ideal_running" in explanation.breakdown.roles else None
    return charts.gain_contribution_chart(explanation.breakdown, running=charts.BY_ROLE, ideal_running=ideal,
                                          **options)


def _roc(charts, explanation, options):
    from rankviz.metrics import roc_curve_breakdown

    curve = roc_curve_breakdown(explanation.arguments["labels"], explanation.arguments["scores"])
    return charts.roc_chart({explanation.label: curve}, threshold="threshold",
                            auc={explanation.label: explanation.value}, **options)


def _per_query(charts, explanation, options):
    column = explanation.breakdown.roles["value"]
    return charts.per_query_chart(explanation.table, query=explanation.breakdown.roles["query"], system=None,
                                  value=column, measure=column, **options)


# Chart kind (the registry's MetricSpec.chart) -> how explain draws it from the worked table.
_CHART_BUILDERS = {
    "precision_at_rank": _at_rank,
    "ap_area": _curve(ap_area=True),
    "eleven_point": _curve(eleven_point=True),
    "gain_contribution": _gain,
    "err_cascade": lambda charts, explanation, options: charts.err_chart(explanation.breakdown,
                                                                         reach=charts.BY_ROLE, **options),
    "rank_scatter": lambda charts, explanation, options: charts.rank_scatter_chart(explanation.breakdown, **options),
    "pair_matrix": lambda charts, explanation, options: charts.pair_matrix_chart(explanation.breakdown, **options),
    "roc": _roc,
    "per_query": _per_query,
}


def has_chart(metric) -> bool:
    """Whether :meth:`Explanation.chart` draws ``metric`` (a registry name).

    >>> has_chart("ndcg"), has_chart("hit")
    (True, False)
    """
    return _resolve(metric).chart in _CHART_BUILDERS


# ------------------------------------------------------------------------------------------------

def explain(metric, *args, **kwargs) -> Explanation:
    r"""Work out a metric on one input: its value, its variant, the formula with the numbers, the table.

    Parameters
    ----------
    metric : str
        A registry name (``"ndcg"``, ``"average_precision"``, ``"kendall_tau"``; see
        :func:`explainable_metrics`), or a measure name without cutoff (``"nDCG"``, ``"AP"``, ``"RR"``).
    *args, **kwargs
        As the metric's per-query function takes them: ``explain("ndcg", rels, k=5,
        gain="exponential")`` works out ``rankviz.metrics.ndcg(rels, k=5, gain="exponential")``.

    Returns
    -------
    Explanation
        Displays itself in a notebook (HTML, LaTeX, Vega-Lite chart) and prints as text.

    Raises
    ------
    ValueError
        An unknown name (with close matches), a metric without a per-query function (a measure
        of :func:`rankviz.evaluate` only: the message names those explain takes), or an input
        the metric rejects (its own message).

    Notes
    -----
    The value is the breakdown's, which the registry-driven tests hold equal to the metric's
    function; the variant is labelled as the app labels it, so a notebook and the app agree.

    Examples
    --------
    The lecture's nDCG exercise with exponential gain 2^g - 1: DCG = 13.848, IDCG = 14.595.

    >>> worked = explain("ndcg", [3, 2, 3, 0, 1, 2], gain="exponential")
    >>> worked.result_text
    'nDCG@6 = 0.949  (exponential gain 2^g − 1, log2(i + 1) discount)'
    >>> round(worked.breakdown.details["dcg"], 3), round(worked.breakdown.details["idcg"], 3)
    (13.848, 14.595)
    >>> sorted(worked._repr_mimebundle_(include=["text/plain", "text/html", "text/latex"]))
    ['text/html', 'text/latex', 'text/plain']

    A measure of evaluate only has nothing to work out per query:

    >>> explain("bpref", [1, 0])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: bpref has no per-query function to work out: it is a measure of rankviz.evaluate only ...
    """
    spec = _resolve(metric)
    if not spec.module:
        how = f"rankviz.evaluate(qrels, run, {spec.measure!r})" if spec.measure else "rankviz.evaluate"
        raise ValueError(f"{spec.name} has no per-query function to work out: it is a measure of rankviz.evaluate "
                         f"only ({how}). explain takes: {', '.join(explainable_metrics())}.")
    function = spec.breakdown
    try:
        bound = inspect.signature(function).bind(*args, **kwargs)
    except TypeError as error:
        raise TypeError(f"explain({spec.name!r}, ...) takes the arguments of rankviz.metrics.{spec.name}"
                        f"{inspect.signature(spec.function)} ({_INPUT_WORDS.get(spec.inputs, spec.inputs)}): "
                        f"{error}") from None
    bound.apply_defaults()
    breakdown = function(*args, **kwargs)
    arguments = dict(bound.arguments)
    return Explanation(spec=spec, breakdown=breakdown, arguments=arguments, label=_label(spec, arguments, breakdown),
                       variant=_variant(spec, arguments, breakdown))
