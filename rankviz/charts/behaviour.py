"""Charts for the metric behaviour explorer: metrics against a relevant document's position, metric vs metric."""

from __future__ import annotations

import altair as alt
import pandas as pd

from rankviz.charts._frames import check_flag, pick, require_columns
from rankviz.charts._style import DEFAULT_FONT_SIZE, DEFAULT_HEIGHT, NEUTRAL_GREY, finish, series_scales

__all__ = ["metric_vs_position_chart", "metric_scatter_chart"]


def metric_vs_position_chart(df, *, position="position", metric="metric", value="value",
                             title="Every metric as one relevant document moves down the ranking",
                             font_size=DEFAULT_FONT_SIZE, width="container", height=DEFAULT_HEIGHT):
    r"""Each metric's value against the rank of the one relevant document: how steeply each one punishes a drop.

    With a single relevant document at rank p, for example, RR = AP = 1/p and
    nDCG = 1/log2(p + 1), while P@k is 1/k for every p <= k and 0 after.

    Parameters
    ----------
    df : DataFrame
        Long form, one row per (position, metric): the columns named below.
    position, metric, value : str
        Column names of the relevant document's rank, the metric's name and its value.
    title, font_size, width, height
        As in :func:`rankviz.charts.precision_recall_chart`.

    Returns
    -------
    alt.LayerChart

    Notes
    -----
    Metrics are told apart by colour, dash and marker shape, and each line is labelled with
    its metric's name at its last position, so no legend look-up is needed.

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"position": [1, 2, 3] * 2, "metric": ["RR"] * 3 + ["P@2"] * 3,
    ...                       "value": [1, 1/2, 1/3, 1/2, 1/2, 0]})
    >>> spec = metric_vs_position_chart(table).to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['line', 'point', 'text']
    """
    func = "metric_vs_position_chart"
    require_columns(df, {"position": position, "metric": metric, "value": value}, func=func)
    data = pick(df, {"position": position, "metric": metric, "value": value})
    data["metric"] = data["metric"].astype(str)
    metrics = list(dict.fromkeys(data["metric"])) or ["metric"]
    scales = series_scales(metrics)
    colour = alt.Color("metric:N", scale=scales["color"], title=None)
    tooltip = [alt.Tooltip("metric:N"), alt.Tooltip("position:Q", title=f"{position} of the relevant document"),
               alt.Tooltip("value:Q", format=".4f")]
    base = alt.Chart(data).encode(
        alt.X("position:Q", title="rank of the relevant document", scale=alt.Scale(nice=False),
              axis=alt.Axis(tickMinStep=1)),
        alt.Y("value:Q", title="metric value"), color=colour, tooltip=tooltip)
    # Metrics that end on the same value share one label ("RR, AP"), so labels do not overprint.
    ends = data.dropna(subset=["value"]).sort_values("position", kind="stable").groupby("metric", sort=False).tail(1)
    ends = ends.assign(level=ends["value"].round(3)).groupby("level", sort=False).agg(
        position=("position", "max"), value=("value", "first"), metric=("metric", ", ".join)).reset_index(drop=True)
    layers = [
        base.mark_line(strokeWidth=2.5).encode(strokeDash=alt.StrokeDash("metric:N", scale=scales["strokeDash"],
                                                                          title=None)),
        base.mark_point(filled=True, size=font_size * 4).encode(shape=alt.Shape("metric:N", scale=scales["shape"],
                                                                                title=None)),
        # limit: a long shared label ("P@5, R@5, Hit@3, ...") is cut with an ellipsis rather than
        # squeezing the plot; the tooltip has the full list.
        alt.Chart(ends).mark_text(align="left", dx=font_size * 0.5, fontSize=font_size * 0.9, fontWeight="bold",
                                  limit=font_size * 7)
        .encode(alt.X("position:Q"), alt.Y("value:Q"), text=alt.Text("metric:N"),
                tooltip=[alt.Tooltip("metric:N", title="ends here"), alt.Tooltip("value:Q", format=".4f")]),
    ]
    return finish(alt.layer(*layers), func=func, title=title, font_size=font_size, width=width, height=height)


def metric_scatter_chart(df, x, y, *, label=None, group=None, diagonal=False, subtitle=None, title=None,
                         font_size=DEFAULT_FONT_SIZE, width="container", height=DEFAULT_HEIGHT):
    r"""One metric against another over many rankings (or systems): where they agree and where they part.

    Two metrics induce the same ordering of rankings exactly when the points rise together;
    Kendall's tau between the two columns measures how often they do (pass it in ``subtitle``).

    Parameters
    ----------
    df : DataFrame
        One row per ranking or system.
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
    func = "metric_scatter_chart"
    require_columns(df, {"x": x, "y": y, "label": label, "group": group}, func=func)
    check_flag(diagonal, func=func, name="diagonal")
    data = pick(df, {"x": x, "y": y, "label": label, "group": group})
    tooltip = [alt.Tooltip("x:Q", format=".4f", title=str(x)), alt.Tooltip("y:Q", format=".4f", title=str(y))]
    if label is not None:
        data["label"] = data["label"].astype(str)
        tooltip.insert(0, alt.Tooltip("label:N", title=str(label)))
    encoding = {"tooltip": tooltip}
    if group is not None:
        data["group"] = data["group"].astype(str)
        scales = series_scales(data["group"].unique())
        encoding["color"] = alt.Color("group:N", scale=scales["color"], title=str(group))
        encoding["shape"] = alt.Shape("group:N", scale=scales["shape"], title=str(group))
        tooltip.append(alt.Tooltip("group:N", title=str(group)))
    x_axis = alt.X("x:Q", title=str(x), scale=alt.Scale(zero=False), axis=alt.Axis(tickCount=8))
    y_axis = alt.Y("y:Q", title=str(y), scale=alt.Scale(zero=False), axis=alt.Axis(tickCount=8))
    layers = []
    if diagonal:
        values = pd.concat([data["x"], data["y"]]).astype(float)
        low, high = (float(values.min()), float(values.max())) if len(values) else (0.0, 1.0)
        line = pd.DataFrame({"x": [low, high], "y": [low, high], "line": f"{y} = {x}"})
        layers.append(alt.Chart(line).mark_line(color=NEUTRAL_GREY, strokeDash=[6, 4], strokeWidth=1.5).encode(
            x_axis, y_axis, tooltip=[alt.Tooltip("line:N", title="diagonal")]))
    layers.append(alt.Chart(data).mark_point(filled=True, size=font_size * 5, opacity=0.75, stroke="black",
                                             strokeWidth=0.5).encode(x_axis, y_axis, **encoding))
    chart_title = title or f"{y} against {x}"
    if subtitle:
        chart_title = alt.Title(chart_title, subtitle=subtitle)
    return finish(alt.layer(*layers), func=func, title=chart_title, font_size=font_size, width=width, height=height)
