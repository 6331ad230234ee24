"""Charts for the metric behaviour explorer: metrics against a relevant document's position, metric vs metric."""

from __future__ import annotations

import altair as alt
import numpy as np

from rankviz._docstrings import fill_docstrings
from rankviz.charts._frames import check_flag, frame_of, pick, require_columns
from rankviz.charts._parts import ChartParts, table, table_of
from rankviz.charts._style import (CHART_WORDS, DEFAULT_FONT_SIZE, DEFAULT_HEIGHT, MARKER_LEGEND, NEUTRAL_GREY, finish,
                                  series_scales)
from rankviz.i18n import N_, _

__all__ = ["metric_vs_position_chart", "metric_scatter_chart", "metric_vs_position_parts", "metric_scatter_parts"]


def metric_vs_position_chart(df, *, position="position", metric="metric", value="value",
                             title=N_("Every metric as one relevant document moves down the ranking"),
                             font_size=DEFAULT_FONT_SIZE, width="container", height=DEFAULT_HEIGHT):
    r"""Each metric's value against the rank of the one relevant document: how steeply each one punishes a drop.

    With a single relevant document at rank p, for example, RR = AP = 1/p and
    nDCG = 1/log2(p + 1), while P@k is 1/k for every p <= k and 0 after.

    Parameters
    ----------
    df : DataFrame or a result holding one as ``table``
        Long form, one row per (position, metric): the columns named below, e.g.
        ``rankviz.teaching.explore.position_sweep(...)``.
    position, metric, value : str
        Column names of the relevant document's rank, the metric's name and its value.
    {title, font_size, width, height}

    {Returns a layered chart}

    Notes
    -----
    Metrics are told apart by colour, dash and marker shape, and each line is labelled with
    its metric's name at its last position, so no legend look-up is needed. Metrics ending on
    the same value (to 3 decimals) share a label; labels of close values are nudged apart to
    one text line each (their tooltip keeps the value).

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"position": [1, 2, 3] * 2, "metric": ["RR"] * 3 + ["P@2"] * 3,
    ...                       "value": [1, 1/2, 1/3, 1/2, 1/2, 0]})
    >>> spec = metric_vs_position_chart(table).to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['line', 'point', 'text']
    """
    return metric_vs_position_parts(df, position=position, metric=metric, value=value, title=title,
                                    font_size=font_size, width=width, height=height).chart()


def metric_vs_position_parts(df, *, position="position", metric="metric", value="value",
                             title=N_("Every metric as one relevant document moves down the ranking"),
                             font_size=DEFAULT_FONT_SIZE, width="container", height=DEFAULT_HEIGHT) -> ChartParts:
    """:func:`metric_vs_position_chart` as its frames and layout (see :class:`rankviz.charts.ChartParts`)."""
    func = "metric_vs_position_chart"
    df = frame_of(df)
    require_columns(df, {"position": position, "metric": metric, "value": value}, func=func)
    data = pick(df, {"position": position, "metric": metric, "value": value})
    data["metric"] = data["metric"].astype(str)
    # Metrics that end on the same value share one label ("RR, AP"), so labels do not overprint.
    ends = data.dropna(subset=["value"]).sort_values("position", kind="stable").groupby("metric", sort=False).tail(1)
    ends = ends.assign(level=ends["value"].round(3)).groupby("level", sort=False).agg(
        position=("position", "max"), value=("value", "first"), metric=("metric", ", ".join)).reset_index(drop=True)
    # Labels ending on close but different values (P@10 = 0.1, AP = 0.11) are nudged apart to one
    # line of text each; the label's value in the tooltip stays the metric's own.
    plot_height = _plot_height(height if isinstance(height, int) and not isinstance(height, bool) else DEFAULT_HEIGHT,
                               font_size, n_series=data["metric"].nunique())
    values = data["value"].dropna()
    low = min(0.0, float(values.min())) if len(values) else 0.0
    high = max(low + 1e-9, float(values.max())) if len(values) else 1.0
    line_gap = font_size * 0.9 * 1.2 / plot_height * (high - low)  # one label's height, in value units
    ends["label_value"] = ends["value"].astype(float)
    for _position, same_end in ends.groupby("position", sort=False):
        ends.loc[same_end.index, "label_value"] = _spread(same_end["value"].to_numpy(dtype=float), line_gap, low,
                                                          high)
    frames = {"data": table_of(data), "ends": table_of(ends)}
    layout = {"metrics": list(dict.fromkeys(data["metric"])) or ["metric"], "position": str(position),
              "title": title, "font_size": font_size, "width": width, "height": height}
    return ChartParts(_draw_metric_vs_position, layout, frames)


def _draw_metric_vs_position(data, layout: dict):
    font_size = layout["font_size"]
    scales = series_scales(layout["metrics"])
    colour = alt.Color("metric:N", scale=scales["color"], title=None)
    tooltip = [alt.Tooltip("metric:N"), alt.Tooltip("position:Q", title=_("{column} of the relevant document").format(column=layout["position"])),
               alt.Tooltip("value:Q", format=".4f")]
    base = alt.Chart(data["data"]).encode(
        alt.X("position:Q", title=_("rank of the relevant document"), scale=alt.Scale(nice=False),
              axis=alt.Axis(tickMinStep=1)),
        alt.Y("value:Q", title=_("metric value")), color=colour, tooltip=tooltip)
    layers = [
        base.mark_line(strokeWidth=2.5).encode(strokeDash=alt.StrokeDash("metric:N", scale=scales["strokeDash"],
                                                                          title=None, legend=MARKER_LEGEND)),
        base.mark_point(filled=True, size=font_size * 4).encode(shape=alt.Shape("metric:N", scale=scales["shape"],
                                                                                title=None)),
        # limit: a long shared label ("P@5, R@5, Hit@3, ...") is cut with an ellipsis rather than
        # squeezing the plot; the tooltip has the full list.
        alt.Chart(data["ends"]).mark_text(align="left", dx=font_size * 0.5, fontSize=font_size * 0.9,
                                          fontWeight="bold", limit=font_size * 7)
        .encode(alt.X("position:Q"), alt.Y("label_value:Q", title=_("metric value")), text=alt.Text("metric:N"),
                tooltip=[alt.Tooltip("metric:N", title=_("ends here")), alt.Tooltip("value:Q", format=".4f")]),
    ]
    return finish(alt.layer(*layers), func="metric_vs_position_chart", title=layout["title"], font_size=font_size,
                  width=layout["width"], height=layout["height"])


def _plot_height(height: int, font_size: float, *, n_series: int) -> float:
    """The plot's height in pixels, estimated on the small side, for a chart ``height`` px tall in all.

    Streamlit draws charts with autosize "fit" (see ``rankviz.charts._style``): ``height`` holds
    the title, the x axis with its title and the legend below as well. Measured in Chromium on
    the explorer page (1400 px window, 6 metrics, legend in 2 rows of 4): the y axis spans 207 of
    420 px at 16 px type and 167 px at 22 px type; this gives 206 and 155. Too small an estimate
    only nudges labels a little further apart than needed; too large a one lets them overlap.
    """
    legend_rows = -(-max(n_series, 1) // 4)
    overhead = 76 + font_size * (1.5 + 1.5 + 2 + 1.8 * legend_rows)  # padding; title; tick labels; axis title
    return max(height - overhead, height / 4)


def _spread(values: np.ndarray, gap: float, low: float, high: float) -> np.ndarray:
    """Label positions at least ``gap`` apart, each as close to its value as the others allow.

    Labels that would overlap are joined into a block centred on their values' mean (so the
    block moves as little as possible on average), shifted inside [low, high] when it fits there,
    until no two blocks overlap. Returns the positions in the order of ``values``.
    """
    def centre(total: float, n: int) -> float:
        half = (n - 1) * gap / 2
        mean = total / n
        return min(max(mean, low + half), high - half) if 2 * half <= high - low else mean

    order = np.argsort(values, kind="stable")
    blocks = [[float(values[i]), 1] for i in order]  # [sum of the values, number of labels], bottom to top
    merged = True
    while merged:
        merged = False
        for b in range(len(blocks) - 1):
            (sum_a, n_a), (sum_b, n_b) = blocks[b], blocks[b + 1]
            top_a = centre(sum_a, n_a) + (n_a - 1) * gap / 2
            bottom_b = centre(sum_b, n_b) - (n_b - 1) * gap / 2
            if bottom_b - top_a < gap - 1e-12:
                blocks[b:b + 2] = [[sum_a + sum_b, n_a + n_b]]
                merged = True
                break
    positions = [centre(total, n) - (n - 1) * gap / 2 + j * gap for total, n in blocks for j in range(n)]
    spread = np.empty(len(values))
    spread[order] = positions
    return spread


def metric_scatter_chart(df, x, y, *, label=None, group=None, diagonal=False, subtitle=None, title=None,
                         font_size=DEFAULT_FONT_SIZE, width="container", height=DEFAULT_HEIGHT):
    r"""One metric against another over many rankings (or systems): where they agree and where they part.

    Two metrics induce the same ordering of rankings exactly when the points rise together;
    Kendall's tau between the two columns measures how often they do (pass it in ``subtitle``).

    Parameters
    ----------
    df : DataFrame or a result holding one as ``table``
        One row per ranking or system, e.g. ``rankviz.teaching.explore.score_rankings(...)``.
    x, y : str
        Column names of the two metrics.
    label : str, optional
        Column identifying each point (ranking id, system), shown in the tooltip.
    group : str, optional
        Column to colour and shape the points by (e.g. how the ranking was generated).
    diagonal : bool, default False
        Draw y = x, for metrics on the same scale.
    subtitle : str, optional
        E.g. "Kendall's τ between the orderings = 0.81".
    title : str, optional
        Default: "<y> against <x>".
    font_size, width, height
        As in :func:`rankviz.charts.precision_recall_chart`.

    Returns
    -------
    alt.LayerChart

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"AP": [0.2, 0.5, 0.9], "nDCG": [0.3, 0.6, 0.95]})
    >>> spec = metric_scatter_chart(table, "AP", "nDCG", diagonal=True).to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['line', 'point']
    """
    return metric_scatter_parts(df, x, y, label=label, group=group, diagonal=diagonal, subtitle=subtitle, title=title,
                                font_size=font_size, width=width, height=height).chart()


def metric_scatter_parts(df, x, y, *, label=None, group=None, diagonal=False, subtitle=None, title=None,
                         font_size=DEFAULT_FONT_SIZE, width="container", height=DEFAULT_HEIGHT) -> ChartParts:
    """:func:`metric_scatter_chart` as its frames and layout (see :class:`rankviz.charts.ChartParts`).

    The title and subtitle (which often carry a value, such as Kendall's tau) are ``top_level``.
    """
    func = "metric_scatter_chart"
    df = frame_of(df)
    require_columns(df, {"x": x, "y": y, "label": label, "group": group}, func=func)
    check_flag(diagonal, func=func, name="diagonal")
    columns = {"x": df[x].to_numpy(), "y": df[y].to_numpy()}
    if label is not None:
        columns["label"] = np.array([str(v) for v in df[label].tolist()], dtype=object)
    groups = None
    if group is not None:
        columns["group"] = np.array([str(v) for v in df[group].tolist()], dtype=object)
        groups = list(dict.fromkeys(columns["group"].tolist()))
    frames = {}
    if diagonal:
        values = np.concatenate([columns["x"], columns["y"]]).astype(float)
        low, high = (float(np.nanmin(values)), float(np.nanmax(values))) if len(values) else (0.0, 1.0)
        frames["diagonal"] = table(x=[low, high], y=[low, high], line=[f"{y} = {x}"] * 2)
    frames["points"] = table(**columns)
    chart_title = title or _("{y} against {x}").format(y=y, x=x)
    layout = {"x": str(x), "y": str(y), "label": None if label is None else str(label),
              "group": None if group is None else str(group), "groups": groups, "font_size": font_size,
              "width": width, "height": height}
    return ChartParts(_draw_metric_scatter, layout, frames,
                      top_level={"title": {"text": chart_title, "subtitle": subtitle} if subtitle else chart_title})


def _draw_metric_scatter(data, layout: dict):
    font_size, x, y = layout["font_size"], layout["x"], layout["y"]
    tooltip = [alt.Tooltip("x:Q", format=".4f", title=x), alt.Tooltip("y:Q", format=".4f", title=y)]
    if layout["label"] is not None:
        tooltip.insert(0, alt.Tooltip("label:N", title=layout["label"]))
    encoding = {"tooltip": tooltip}
    if layout["group"] is not None:
        scales = series_scales(layout["groups"])
        encoding["color"] = alt.Color("group:N", scale=scales["color"], title=layout["group"])
        encoding["shape"] = alt.Shape("group:N", scale=scales["shape"], title=layout["group"])
        tooltip.append(alt.Tooltip("group:N", title=layout["group"]))
    x_axis = alt.X("x:Q", title=x, scale=alt.Scale(zero=False), axis=alt.Axis(tickCount=8))
    y_axis = alt.Y("y:Q", title=y, scale=alt.Scale(zero=False), axis=alt.Axis(tickCount=8))
    layers = []
    if "diagonal" in data:
        layers.append(alt.Chart(data["diagonal"]).mark_line(color=NEUTRAL_GREY, strokeDash=[6, 4],
                                                            strokeWidth=1.5).encode(
            x_axis, y_axis, tooltip=[alt.Tooltip("line:N", title=_("diagonal"))]))
    layers.append(alt.Chart(data["points"]).mark_point(filled=True, size=font_size * 5, opacity=0.75, stroke="black",
                                                       strokeWidth=0.5).encode(x_axis, y_axis, **encoding))
    # The title (it may carry a value in its subtitle) is set by ChartParts.
    return finish(alt.layer(*layers), func="metric_scatter_chart", title=None, font_size=font_size,
                  width=layout["width"], height=layout["height"])


fill_docstrings(globals(), CHART_WORDS)  # the {title, font_size, width, height} lines above
