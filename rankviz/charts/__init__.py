"""Altair chart builders: data in (breakdowns, tables, arrays), ``alt.Chart`` out.

Each builder takes what :mod:`rankviz.metrics` produces (a ``*_breakdown``'s result or its
``table``, long per-query tables) with their readable column names, which any keyword can
rename, and returns a chart that fills its container's width ("container"), with projector-sized type
(``font_size``), the Okabe-Ito colour-blind-safe palette, a second cue besides colour for every
series (shape, dash, text) and a tooltip on every mark. Builders never import Streamlit;
importing this package imports Altair (``import rankviz`` does not).

Pages make a query clickable with ``select=True`` (per-query and delta charts): the chart then
carries ``alt.selection_point(name="pick", fields=["query_id"])``, read back with
``st.altair_chart(chart, on_select="rerun", key=...)["selection"]["pick"]``.

>>> import pandas as pd
>>> from rankviz.charts import precision_recall_at_rank_chart
>>> table = pd.DataFrame({"rank": [1, 2], "rel": [1, 0], "P@i": [1.0, 0.5], "R@i": [1.0, 1.0]})
>>> precision_recall_at_rank_chart(table, font_size=22).to_dict()["width"]
'container'

An app that redraws a chart on every edit can skip Altair for the data: ``chart_parts`` gives a
builder's frames (pandas, recomputed per call) apart from its Vega-Lite ``template()``, which
depends on the options only and can be cached by ``template_key()``; the frames fill the
template's named datasets (``rankviz.ui.cached_charts.show_chart`` does this).

>>> parts = chart_parts("precision_recall_at_rank_chart", table, font_size=22)
>>> sorted(parts.frames), "datasets" in parts.template()
(['grades', 'long'], False)
"""

from rankviz.charts._frames import BY_ROLE
from rankviz.charts._parts import ChartParts
from rankviz.charts._style import OKABE_ITO, chart_config, projector_theme
from rankviz.charts.behaviour import (
    metric_scatter_chart,
    metric_scatter_parts,
    metric_vs_position_chart,
    metric_vs_position_parts,
)
from rankviz.charts.correlation import pair_matrix_chart, pair_matrix_parts, rank_scatter_chart, rank_scatter_parts
from rankviz.charts.graded import err_chart, err_parts, gain_contribution_chart, gain_contribution_parts
from rankviz.charts.precision_recall import (
    precision_recall_at_rank_chart,
    precision_recall_at_rank_parts,
    precision_recall_chart,
    precision_recall_parts,
    roc_chart,
    roc_parts,
)
from rankviz.charts.queries import (
    delta_chart,
    delta_parts,
    distribution_chart,
    distribution_parts,
    per_query_chart,
    per_query_parts,
    query_selection,
)

__all__ = [
    "BY_ROLE",
    "OKABE_ITO",
    "chart_config",
    "projector_theme",
    "precision_recall_chart",
    "precision_recall_at_rank_chart",
    "roc_chart",
    "gain_contribution_chart",
    "err_chart",
    "rank_scatter_chart",
    "pair_matrix_chart",
    "metric_vs_position_chart",
    "metric_scatter_chart",
    "per_query_chart",
    "delta_chart",
    "distribution_chart",
    "query_selection",
    "ChartParts",
    "chart_parts",
]

# Builders split into frames and a template (see ChartParts); the others are drawn whole.
_PARTS = {
    "precision_recall_chart": precision_recall_parts,
    "precision_recall_at_rank_chart": precision_recall_at_rank_parts,
    "gain_contribution_chart": gain_contribution_parts,
    "err_chart": err_parts,
    "roc_chart": roc_parts,
    "rank_scatter_chart": rank_scatter_parts,
    "pair_matrix_chart": pair_matrix_parts,
    "metric_vs_position_chart": metric_vs_position_parts,
    "metric_scatter_chart": metric_scatter_parts,
    "per_query_chart": per_query_parts,
    "delta_chart": delta_parts,
    "distribution_chart": distribution_parts,
}


def chart_parts(builder: str, data, **options):
    """The frames and layout of ``rankviz.charts.<builder>(data, **options)``, or None if that builder is not split.

    ``parts.chart()`` is the builder's chart; ``parts.template()`` its Vega-Lite spec with every
    layer reading a named dataset (``parts.frames[name]``), the same for every call with the same
    ``parts.template_key()``.
    """
    split = _PARTS.get(builder)
    return None if split is None else split(data, **options)
