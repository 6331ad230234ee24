"""Charts over many queries: per-query values, the per-query difference of two runs, distributions."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from rankviz._docstrings import fill_docstrings
from rankviz.charts._frames import check_flag, pick, require_columns
from rankviz.charts._parts import ChartParts, table, table_of
from rankviz.charts._style import (CHART_WORDS, DEFAULT_FONT_SIZE, DEFAULT_HEIGHT, NEUTRAL_GREY, OKABE_ITO, finish,
                                   series_scales)
from rankviz.i18n import N_, _
from rankviz.metrics.validation import check_choice, check_positive_number

__all__ = ["per_query_chart", "delta_chart", "distribution_chart", "query_selection", "per_query_parts",
           "delta_parts", "distribution_parts"]


def query_selection():
    """The click selection the pages read back: ``event["selection"]["pick"]`` holds the clicked query_id."""
    return alt.selection_point(name="pick", fields=["query_id"])


def _faded_unless_picked():
    """Opacity 1 for the picked query (and for all while nothing is picked), 0.25 for the others."""
    # Built as an object: alt.condition() goes through a slow schema lookup on every call.
    return alt.OpacityValue(0.25, condition=alt.ConditionalParameterValueDefnumberExprRef(param="pick", value=1.0))


def _auto_height(rows: int, row_height: float, font_size: float) -> int:
    """A band per row tall enough for its label, plus room for title, axis and legend (about 9 lines of type).

    Streamlit fits the whole chart, title and legend included, into this height.
    """
    return int(min(max(rows * row_height + 9 * font_size, DEFAULT_HEIGHT // 2), 6000))


def per_query_chart(df, *, query="query_id", system="system", value="value", measure="value", kind="dots",
                    sort="input", select=False, title=None, font_size=DEFAULT_FONT_SIZE, width="container",
                    height=None):
    r"""One measure's value on every query, for each system: a dot plot (default) or grouped bars.

    The mean over queries of what is drawn is the system's MAP, MRR, mean nDCG...:

    .. math:: \mathrm{MAP} = \frac{1}{Q} \sum_{q=1}^{Q} \mathrm{AP}(q)

    Parameters
    ----------
    df : DataFrame
        Long form, one row per (query, system): the columns named below.
    query, system, value : str
        Column names of the query id, the system (None: a single system) and the value.
    measure : str
        The measure's name, for the value axis ("AP", "nDCG@10").
    kind : {"dots", "bars"}
        "dots": queries down the y axis, a marker per system (colour and shape), readable with
        hundreds of queries. "bars": queries along x, one bar per system side by side.
    sort : {"input", "value"}
        Queries in the order of the table, or by their mean value, highest first.
    select : bool, default False
        Make queries clickable: adds ``alt.selection_point(name="pick", fields=["query_id"])``;
        the clicked query stays opaque, the others fade.
    title : str, optional
        Default: "<measure> per query".
    font_size, width
        As in :func:`rankviz.charts.precision_recall_chart`.
    height : int, optional
        Default: a row per query for "dots", 360 px for "bars".

    Returns
    -------
    alt.LayerChart

    Notes
    -----
    The chart's query column is always named ``query_id`` (whatever ``query`` is), so a page
    reads ``event["selection"]["pick"][0]["query_id"]``.

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"query_id": ["q1", "q2", "q1", "q2"], "system": ["A", "A", "B", "B"],
    ...                       "value": [0.5, 1.0, 0.25, 0.75]})
    >>> spec = per_query_chart(table, measure="AP", select=True).to_dict()
    >>> [param["name"] for param in spec["params"]]
    ['pick']
    """
    return per_query_parts(df, query=query, system=system, value=value, measure=measure, kind=kind, sort=sort,
                           select=select, title=title, font_size=font_size, width=width, height=height).chart()


def per_query_parts(df, *, query="query_id", system="system", value="value", measure="value", kind="dots",
                    sort="input", select=False, title=None, font_size=DEFAULT_FONT_SIZE, width="container",
                    height=None) -> ChartParts:
    """:func:`per_query_chart` as its frames and layout (see :class:`rankviz.charts.ChartParts`).

    The order of the queries travels in the data (a "query order" column the query axis sorts by).
    """
    func = "per_query_chart"
    require_columns(df, {"query": query, "system": system, "value": value}, func=func)
    check_choice(kind, ("dots", "bars"), func=func, name="kind")
    check_choice(sort, ("input", "value"), func=func, name="sort")
    check_flag(select, func=func, name="select")
    data = pick(df, {"query_id": query, "system": system, "value": value})
    if system is None:
        data["system"] = str(measure)
    data["query_id"] = data["query_id"].astype(str)
    data["system"] = data["system"].astype(str)
    queries = list(dict.fromkeys(data["query_id"]))
    if sort == "value":
        queries = data.groupby("query_id", sort=False)["value"].mean().sort_values(ascending=False,
                                                                                   kind="stable").index.tolist()
    place = {name: i for i, name in enumerate(queries)}
    data["query order"] = [place[name] for name in data["query_id"]]
    if height is None:
        height = _auto_height(len(queries), 1.6 * font_size, font_size) if kind == "dots" else DEFAULT_HEIGHT
    layout = {"systems": list(dict.fromkeys(data["system"])) or ["system"], "query": str(query),
              "measure": str(measure), "kind": kind, "select": select, "title": title or f"{measure} per query",
              "font_size": font_size, "width": width, "height": height}
    return ChartParts(_draw_per_query, layout, {"values": table_of(data)})


def _by_order(column: str):
    """Sort a discrete axis by an order column of the data (its minimum per axis value)."""
    return alt.EncodingSortField(field=column, op="min")


def _draw_per_query(data, layout: dict):
    font_size, systems, query, measure = layout["font_size"], layout["systems"], layout["query"], layout["measure"]
    scales = series_scales(systems)
    colour = alt.Color("system:N", scale=scales["color"], title=None)
    tooltip = [alt.Tooltip("query_id:N", title=query), alt.Tooltip("system:N"),
               alt.Tooltip("value:Q", format=".4f", title=measure)]
    y_or_x_query = dict(sort=_by_order("query order"), title=query)
    if layout["kind"] == "dots":
        chart = alt.Chart(data["values"]).mark_point(filled=True, size=font_size * 9, strokeWidth=1,
                                                     stroke="black").encode(
            alt.Y("query_id:N", **y_or_x_query), alt.X("value:Q", title=measure, axis=alt.Axis(tickCount=10)),
            color=colour,
            shape=alt.Shape("system:N", scale=scales["shape"], title=None), tooltip=tooltip)
    else:
        chart = alt.Chart(data["values"]).mark_bar(stroke="black", strokeWidth=1).encode(
            alt.X("query_id:N", axis=alt.Axis(labelAngle=-45, labelOverlap=True), **y_or_x_query),
            alt.Y("value:Q", title=measure), xOffset=alt.XOffset("system:N", scale=alt.Scale(domain=systems)),
            color=colour, tooltip=tooltip)
    if layout["select"]:
        pick_query = query_selection()
        chart = chart.add_params(pick_query).encode(opacity=_faded_unless_picked())
    return finish(chart, func="per_query_chart", title=layout["title"], font_size=font_size, width=layout["width"],
                  height=layout["height"])


def delta_chart(deltas, *, query="query_id", delta="delta", name_a="A", name_b="B", measure="value",
                tie_tolerance=0.0, select=False, title=None, font_size=DEFAULT_FONT_SIZE, width="container",
                height=DEFAULT_HEIGHT):
    r"""The per-query difference between two runs, sorted, as signed bars: wins, ties and losses.

    .. math:: \Delta_q = m_B(q) - m_A(q)

    A bar above 0 is a query where B wins, below 0 one where A wins; the outcome is also told by
    colour and by a marker (up triangle, circle, down triangle), and counted in the subtitle.

    Parameters
    ----------
    deltas : Series or DataFrame
        A Series indexed by query id, or a DataFrame with the columns named below.
    query, delta : str
        Column names of the query id and the difference B - A (DataFrame input).
    name_a, name_b : str
        Names of the two runs.
    measure : str
        The measure compared, for the axis title ("AP").
    tie_tolerance : float, default 0.0
        Differences with ``|delta| <= tie_tolerance`` count as ties.
    select : bool, default False
        Make queries clickable with ``alt.selection_point(name="pick", fields=["query_id"])``.
    {title, font_size, width, height}

    {Returns a layered chart}

    Notes
    -----
    A tie is drawn as a thin sliver around 0 (2.5% of the largest difference), so it can be seen,
    hovered and clicked like any other bar; its tooltip gives the exact difference.
    Missing differences (NaN) are left out and counted in the subtitle.

    Examples
    --------
    >>> import pandas as pd
    >>> deltas = pd.Series({"q1": 0.25, "q2": -0.5, "q3": 0.0})
    >>> spec = delta_chart(deltas, name_a="BM25", name_b="neural", measure="AP").to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['rule', 'bar', 'point']
    >>> spec["title"]["subtitle"]
    'neural better on 1, tied on 1, BM25 better on 1 of 3 queries'
    """
    return delta_parts(deltas, query=query, delta=delta, name_a=name_a, name_b=name_b, measure=measure,
                       tie_tolerance=tie_tolerance, select=select, title=title, font_size=font_size, width=width,
                       height=height).chart()


def delta_parts(deltas, *, query="query_id", delta="delta", name_a="A", name_b="B", measure="value",
                tie_tolerance=0.0, select=False, title=None, font_size=DEFAULT_FONT_SIZE, width="container",
                height=DEFAULT_HEIGHT) -> ChartParts:
    """:func:`delta_chart` as its frames and layout (see :class:`rankviz.charts.ChartParts`).

    The queries' order travels in the data (a "query order" column), the counts in the subtitle
    (``top_level``).
    """
    func = "delta_chart"
    if isinstance(deltas, pd.Series):
        data = pd.DataFrame({"query_id": deltas.index.astype(str), "delta": deltas.to_numpy(dtype=float)})
    else:
        require_columns(deltas, {"query": query, "delta": delta}, func=func, name="deltas")
        data = pick(deltas, {"query_id": query, "delta": delta}).astype({"query_id": str, "delta": float})
    tolerance = check_positive_number(tie_tolerance, func=func, name="tie_tolerance", allow_zero=True)
    check_flag(select, func=func, name="select")
    missing = int(data["delta"].isna().sum())
    data = data.dropna(subset=["delta"]).sort_values("delta", ascending=False, kind="stable")
    wins, ties, losses = _delta_outcomes(name_a, name_b)
    data["outcome"] = np.select([data["delta"] > tolerance, data["delta"] < -tolerance], [wins, losses], ties)
    # A tie's bar would have no height: nothing to see, hover or click. It gets a thin sliver
    # around 0 instead (2.5% of the largest difference); the tooltip still reads its exact delta.
    sliver = 0.025 * (float(data["delta"].abs().max()) if len(data) and data["delta"].abs().max() > 0 else 1.0)
    is_tie = (data["outcome"] == ties).to_numpy()
    data["bar top"] = np.where(is_tie, sliver, data["delta"])
    data["bar bottom"] = np.where(is_tie, -sliver, 0.0)
    # What a screen reader announces for a bar (Vega's aria-label), with the exact difference.
    data["summary"] = [f"{q}: {o}, {measure} {name_b} - {name_a} = {d:+.4f}"
                       for q, o, d in zip(data["query_id"], data["outcome"], data["delta"])]
    # The bars run in this order, largest difference first (a stable sort: ties keep the input order).
    data["query order"] = np.arange(len(data))
    counts = data["outcome"].value_counts()
    subtitle = _("{b} better on {wins}, tied on {ties}, {a} better on {losses} of {n} queries").format(
        a=name_a, b=name_b, wins=counts.get(wins, 0), ties=counts.get(ties, 0), losses=counts.get(losses, 0),
        n=len(data))
    if missing:
        subtitle += " " + _("({missing} without a value left out)").format(missing=missing)
    frames = {"zero": table(delta=[0.0], line=[_("no difference ({a} = {b})").format(a=name_a, b=name_b)]),
              "deltas": table_of(data)}
    layout = {"name_a": str(name_a), "name_b": str(name_b), "measure": str(measure), "query": str(query),
              "select": select, "font_size": font_size, "width": width, "height": height}
    return ChartParts(_draw_delta, layout, frames,
                      top_level={"title": {"text": title or _("Per-query difference in {measure}").format(measure=measure),
                                           "subtitle": subtitle}})


def _delta_outcomes(name_a, name_b) -> tuple:
    """The three outcomes of a query, in the language in force: B better, a tie, A better."""
    better = _("{name} better")
    return better.format(name=name_b), _("tie"), better.format(name=name_a)


def _draw_delta(data, layout: dict):
    name_a, name_b, measure, font_size = layout["name_a"], layout["name_b"], layout["measure"], layout["font_size"]
    outcomes = list(_delta_outcomes(name_a, name_b))
    colour = alt.Color("outcome:N", scale=alt.Scale(domain=outcomes, range=[OKABE_ITO["blue"], NEUTRAL_GREY,
                                                                            OKABE_ITO["vermillion"]]), title=None)
    tooltip = [alt.Tooltip("query_id:N", title=layout["query"]),
               alt.Tooltip("delta:Q", format="+.4f", title=f"{measure}: {name_b} - {name_a}"), alt.Tooltip("outcome:N")]
    base = alt.Chart(data["deltas"]).encode(
        alt.X("query_id:N", sort=_by_order("query order"), title=_("{column} (sorted by difference)").format(column=_(layout["query"])),
              axis=alt.Axis(labelAngle=-45, labelOverlap=True)),
        alt.Y("delta:Q", title=f"{measure}: {name_b} - {name_a}"), color=colour, tooltip=tooltip,
        description=alt.Description("summary:N"))
    bars = base.mark_bar().encode(alt.Y("bar top:Q", title=f"{measure}: {name_b} - {name_a}"),
                                  y2=alt.Y2(field="bar bottom"))
    markers = base.mark_point(filled=True, size=font_size * 6, stroke="black", strokeWidth=0.5).encode(
        shape=alt.Shape("outcome:N", scale=alt.Scale(domain=outcomes, range=["triangle-up", "circle", "triangle-down"]),
                        title=None))
    if layout["select"]:
        faded = _faded_unless_picked()
        bars = bars.add_params(query_selection()).encode(opacity=faded)
        markers = markers.encode(opacity=faded)
    zero = alt.Chart(data["zero"]).mark_rule(color="black", strokeWidth=1.5).encode(
        alt.Y("delta:Q"), tooltip=[alt.Tooltip("line:N", title="0")])
    chart = alt.layer(zero, bars, markers)  # the 0 line underneath, so it never takes a click meant for a tie
    # The title (its subtitle counts the outcomes) is set by ChartParts.
    return finish(chart, func="delta_chart", title=None, font_size=font_size, width=layout["width"],
                  height=layout["height"])


def _box_statistics(data: pd.DataFrame) -> pd.DataFrame:
    """Tukey's box per row: quartiles (linear interpolation, numpy's default) and 1.5 IQR whiskers."""
    rows = []
    for row, group in data.groupby("row", sort=False):
        values = group["value"].dropna().to_numpy(dtype=float)
        if not values.size:
            continue
        q1, median, q3 = np.quantile(values, [0.25, 0.5, 0.75])
        reach = 1.5 * (q3 - q1)
        inside = values[(values >= q1 - reach) & (values <= q3 + reach)]
        rows.append({"row": row, "system": group["system"].iloc[0], "queries": int(values.size), "q1": q1,
                     "median": median, "q3": q3, "mean": float(values.mean()),
                     "whisker low": float(inside.min()), "whisker high": float(inside.max())})
    return pd.DataFrame(rows, columns=["row", "system", "queries", "q1", "median", "q3", "mean", "whisker low",
                                       "whisker high"])


def distribution_chart(df, *, measure="measure", value="value", system=None, query="query_id", kind="box",
                       title=N_("Distribution over queries"), font_size=DEFAULT_FONT_SIZE, width="container",
                       height=None):
    r"""How each measure is spread over the queries: box plots with every query's dot, or a histogram.

    Box: quartiles Q1, median, Q3; whiskers reach the most extreme values within
    :math:`1.5 (Q_3 - Q_1)` of the box (Tukey); the diamond is the mean (MAP for AP).

    Parameters
    ----------
    df : DataFrame
        Long form, one row per (query, measure[, system]) with the columns named below.
    measure, value : str
        Column names of the measure's name and its value.
    system : str, optional
        Column of the system; each (measure, system) gets its own row, coloured by system.
    query : str or None
        Column of the query id, shown in each dot's tooltip (None: no dots' ids).
    kind : {"box", "histogram"}
        "histogram" bins the values of a single measure (filter the table first), stacked by system.
    title, font_size, width
        As in :func:`rankviz.charts.precision_recall_chart`.
    height : int, optional
        Default: a row per box, or 360 px for a histogram.

    Returns
    -------
    alt.LayerChart or alt.Chart

    Notes
    -----
    Quartiles use linear interpolation between order statistics (numpy's and pandas' default,
    also Vega's), so they match ``df.quantile``.

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"query_id": ["q1", "q2", "q3"], "measure": "AP", "value": [0.2, 0.4, 0.9]})
    >>> spec = distribution_chart(table).to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['rule', 'bar', 'tick', 'point', 'point']
    """
    return distribution_parts(df, measure=measure, value=value, system=system, query=query, kind=kind, title=title,
                              font_size=font_size, width=width, height=height).chart()


def distribution_parts(df, *, measure="measure", value="value", system=None, query="query_id", kind="box",
                       title=N_("Distribution over queries"), font_size=DEFAULT_FONT_SIZE, width="container",
                       height=None) -> ChartParts:
    """:func:`distribution_chart` as its frames and layout (see :class:`rankviz.charts.ChartParts`).

    The order of the box rows travels in the data (a "row order" column the row axis sorts by).
    """
    func = "distribution_chart"
    require_columns(df, {"measure": measure, "value": value, "system": system, "query": query}, func=func)
    check_choice(kind, ("box", "histogram"), func=func, name="kind")
    data = pick(df, {"query_id": query, "measure": measure, "system": system, "value": value})
    data["measure"] = data["measure"].astype(str)
    data["system"] = data["system"].astype(str) if system is not None else ""
    if query is None:
        data["query_id"] = ""
    data["query_id"] = data["query_id"].astype(str)
    data["value"] = data["value"].astype(float)
    layout = {"systems": list(dict.fromkeys(data["system"])) or [""], "legend": system is not None, "kind": kind,
              "query": str(query or "query"), "title": title, "font_size": font_size, "width": width}
    if kind == "histogram":
        measures = data["measure"].unique()
        if len(measures) > 1:
            raise ValueError(f"{func} draws a histogram of one measure; the table holds {len(measures)} "
                             f"({', '.join(map(str, measures[:5]))}). Filter it to one measure first.")
        layout.update(measure=str(measures[0]) if len(measures) else "value",
                      height=DEFAULT_HEIGHT if height is None else height)
        return ChartParts(_draw_distribution, layout, {"values": table_of(data)})
    data["row"] = data["measure"] + (" · " + data["system"] if system is not None else "")
    rows = list(dict.fromkeys(data["row"]))
    place = {row: i for i, row in enumerate(rows)}
    boxes = _box_statistics(data)
    data["row order"] = [place[row] for row in data["row"]]
    boxes["row order"] = [place[row] for row in boxes["row"]]
    layout["height"] = _auto_height(len(rows), 3 * font_size, font_size) if height is None else height
    return ChartParts(_draw_distribution, layout, {"boxes": table_of(boxes), "values": table_of(data)})


def _draw_distribution(data, layout: dict):
    font_size = layout["font_size"]
    scales = series_scales(layout["systems"])
    colour = alt.Color("system:N", scale=scales["color"], title=None, legend=alt.Legend() if layout["legend"] else None)
    if layout["kind"] == "histogram":
        measure_name = layout["measure"]
        chart = alt.Chart(data["values"]).mark_bar(stroke="black", strokeWidth=1).encode(
            alt.X("value:Q", bin=alt.Bin(maxbins=20), title=measure_name, axis=alt.Axis(tickCount=10)),
            alt.Y("count():Q", title=_("queries")), color=colour,
            tooltip=[alt.Tooltip("value:Q", bin=True, title=_("{measure} bin").format(measure=measure_name)), alt.Tooltip("system:N"),
                     alt.Tooltip("count():Q", title=_("queries"))])
        return finish(chart, func="distribution_chart", title=layout["title"], font_size=font_size,
                      width=layout["width"], height=layout["height"])
    y_row = alt.Y("row:N", sort=_by_order("row order"), title=None)
    box_tooltip = [alt.Tooltip("row:N", title=_("measure")), alt.Tooltip("queries:Q")] + [
        alt.Tooltip(f"{name}:Q", format=".4f") for name in ("whisker low", "q1", "median", "mean", "q3",
                                                            "whisker high")]
    box_base = alt.Chart(data["boxes"]).encode(y_row, tooltip=box_tooltip)
    layers = [
        box_base.mark_rule(strokeWidth=2, color="black").encode(alt.X("whisker low:Q", title=_("value"),
                                                                       axis=alt.Axis(tickCount=10)),
                                                                 x2=alt.X2(field="whisker high")),
        box_base.mark_bar(opacity=0.35, stroke="black", strokeWidth=1.5).encode(alt.X("q1:Q"), x2=alt.X2(field="q3"),
                                                                                color=colour),
        box_base.mark_tick(color="black", thickness=3).encode(alt.X("median:Q")),
        box_base.mark_point(shape="diamond", filled=True, color="black", size=font_size * 8).encode(alt.X("mean:Q")),
        alt.Chart(data["values"]).mark_point(filled=False, size=font_size * 4, strokeWidth=1.5).encode(
            alt.X("value:Q"), y_row, color=colour,
            tooltip=[alt.Tooltip("query_id:N", title=layout["query"]), alt.Tooltip("measure:N"),
                     alt.Tooltip("system:N"),
                     alt.Tooltip("value:Q", format=".4f")]),
    ]
    return finish(alt.layer(*layers), func="distribution_chart", title=layout["title"], font_size=font_size,
                  width=layout["width"], height=layout["height"])


fill_docstrings(globals(), CHART_WORDS)  # the {title, font_size, width, height} lines above
