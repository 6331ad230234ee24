"""Altair chart builders: data in (breakdown tables, arrays), ``alt.Chart`` out.

Each builder takes the tables :mod:`rankviz.metrics` produces (the ``*_breakdown`` twins,
long per-query tables) with their readable column names, which any keyword can rename, and
returns a chart that fills its container's width ("container"), with projector-sized type
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
"""

from rankviz.charts._style import OKABE_ITO, chart_config, projector_theme
from rankviz.charts.behaviour import metric_scatter_chart, metric_vs_position_chart
from rankviz.charts.correlation import pair_matrix_chart, rank_scatter_chart
from rankviz.charts.graded import err_chart, gain_contribution_chart
from rankviz.charts.precision_recall import precision_recall_at_rank_chart, precision_recall_chart, roc_chart
from rankviz.charts.queries import delta_chart, distribution_chart, per_query_chart, query_selection

__all__ = [
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
]
