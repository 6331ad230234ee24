"""Charts of graded relevance: DCG contributions of a ranking beside the ideal one, and ERR."""

from __future__ import annotations

import altair as alt
import numpy as np

from rankviz._docstrings import fill_docstrings
from rankviz.charts._frames import BY_ROLE, columns_by_role, frame_of, require_columns
from rankviz.charts._parts import ChartParts, table
from rankviz.i18n import N_, _
from rankviz.charts._style import (CHART_WORDS, DEFAULT_FONT_SIZE, DEFAULT_HEIGHT, MARKER_LEGEND, above_the_plot, finish,
                                  series_scales)

__all__ = ["gain_contribution_chart", "err_chart", "gain_contribution_parts", "err_parts"]

SYSTEM = N_("system ranking")
IDEAL = N_("ideal ranking")


def _grade_label(value) -> str:
    """A grade as a student writes it: 3, not 3.0."""
    if isinstance(value, (int, float, np.number)) and not isinstance(value, bool):
        return "" if np.isnan(value) else f"{float(value):g}"
    return str(value)


def gain_contribution_chart(df, *, rank=BY_ROLE, grade=BY_ROLE, contribution=BY_ROLE, ideal_grade=BY_ROLE,
                            ideal_contribution=BY_ROLE, running=None, ideal_running=None,
                            title=N_("DCG: what each rank contributes"), font_size=DEFAULT_FONT_SIZE,
                            width="container", height=DEFAULT_HEIGHT):
    r"""Per-rank DCG contributions as bars, the system's ranking beside the ideal one.

    .. math:: \mathrm{DCG@}k = \sum_{i=1}^{k} \underbrace{\frac{g(\mathrm{rel}_i)}{\log_2(i + 1)}}_{\text{bar } i},
              \qquad \mathrm{nDCG@}k = \frac{\mathrm{DCG@}k}{\mathrm{IDCG@}k}

    Each bar is labelled with its document's grade, so relevance is read as a number; the
    ideal ranking's bars are pale with a dashed outline, the system's solid. Optional lines
    show the running DCG and IDCG on a second axis (right).

    Parameters
    ----------
    df : Breakdown or DataFrame
        One row per rank, e.g. ``ndcg_breakdown(rels)`` or ``dcg_breakdown(rels)`` (no ideal
        ranking: the system's bars only), or a DataFrame whose columns are named below.
    rank, grade, contribution : str
        Column names of the rank i, the grade at rank i and its discounted gain. Default
        (``BY_ROLE``): the breakdown's columns of roles ``rank``, ``grade`` and ``contribution``;
        a DataFrame must name them.
    ideal_grade, ideal_contribution : str or None
        The same for the ideal ranking (default: the breakdown's ``ideal_grade`` and
        ``ideal_contribution``, if it has them); None draws the system's bars only.
    running, ideal_running : str, BY_ROLE or None
        Columns of the running DCG and IDCG, drawn as lines on a second axis when given
        (``BY_ROLE``: the breakdown's ``running`` and ``ideal_running``).
    {title, font_size, width, height}

    {Returns a layered chart}

    Notes
    -----
    The chart draws the table's values; which gain (linear or exponential) and discount they
    use is the breakdown's choice, so say it in ``title``.

    References
    ----------
    Järvelin & Kekäläinen, Cumulated gain-based evaluation of IR techniques, ACM TOIS 20(4) (2002).

    Examples
    --------
    Grades 0, 3 against the ideal 3, 0 with exponential gain: (2^3 - 1) / log2(3) = 4.417 at rank 2
    against 7 / log2(2) = 7 at rank 1.

    >>> from rankviz.metrics import ndcg_breakdown
    >>> spec = gain_contribution_chart(ndcg_breakdown([0, 3], gain="exponential")).to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['bar', 'text']
    >>> spec = gain_contribution_chart(ndcg_breakdown([0, 3]), running=BY_ROLE, ideal_running=BY_ROLE).to_dict()
    >>> len(spec["layer"])  # bars and their grades, then the running sums' lines
    2
    """
    return gain_contribution_parts(df, rank=rank, grade=grade, contribution=contribution, ideal_grade=ideal_grade,
                                   ideal_contribution=ideal_contribution, running=running, ideal_running=ideal_running,
                                   title=title, font_size=font_size, width=width, height=height).chart()


def gain_contribution_parts(df, *, rank=BY_ROLE, grade=BY_ROLE, contribution=BY_ROLE, ideal_grade=BY_ROLE,
                            ideal_contribution=BY_ROLE, running=None, ideal_running=None,
                            title=N_("DCG: what each rank contributes"), font_size=DEFAULT_FONT_SIZE,
                            width="container", height=DEFAULT_HEIGHT) -> ChartParts:
    """:func:`gain_contribution_chart` as its frames and layout (see :class:`rankviz.charts.ChartParts`)."""
    func = "gain_contribution_chart"
    columns = columns_by_role(df, {
        "rank": ("rank", rank), "grade": ("grade", grade), "contribution": ("contribution", contribution),
        "ideal_grade": ("ideal_grade", ideal_grade), "ideal_contribution": ("ideal_contribution", ideal_contribution),
        "running": ("running", running), "ideal_running": ("ideal_running", ideal_running)}, func=func,
        required=("rank", "grade", "contribution"))
    rank, grade, contribution, ideal_grade, ideal_contribution, running, ideal_running = columns.values()
    df = frame_of(df)
    require_columns(df, columns, func=func)
    if grade is None or contribution is None:
        raise ValueError(f"The 'grade' and 'contribution' parameters of {func} must name columns: the bars are "
                         f"labelled with their grades. Got grade={grade!r}, contribution={contribution!r}.")
    if (ideal_grade is None) != (ideal_contribution is None):
        raise ValueError(f"The 'ideal_grade' and 'ideal_contribution' parameters of {func} must both name columns "
                         f"or both be None. Got {ideal_grade!r} and {ideal_contribution!r}.")
    n = len(df)
    ideal = ideal_contribution is not None
    system, ideal_name = _(SYSTEM), _(IDEAL)  # the legend's words, in the language in force
    rankings = [system, ideal_name] if ideal and n else [system]  # an empty table: no ideal bars to name

    def both(system_column, ideal_column):
        """The system's column, then the ideal ranking's (NaN where the table has none)."""
        values = [df[system_column].to_numpy()]
        if ideal:
            values.append(df[ideal_column].to_numpy() if ideal_column is not None else np.full(n, np.nan))
        return np.concatenate(values)

    grades = both(grade, ideal_grade)
    bars = {"rank": both(rank, rank), "grade": grades, "contribution": both(contribution, ideal_contribution),
            "ranking": np.repeat(np.array(rankings, dtype=object), n),
            "grade label": np.array([_grade_label(g) for g in grades.tolist()], dtype=object)}
    if running is not None:
        bars["running"] = both(running, ideal_running).astype(float)
    frames = {"bars": table(**bars)}
    if running is not None:
        drawn = ~np.isnan(bars["running"])
        line_titles = {system: str(running), ideal_name: str(ideal_running)}
        lines = {name: values[drawn] for name, values in bars.items()}
        lines["sum"] = np.array([line_titles[r] for r in lines["ranking"].tolist()], dtype=object)
        frames["lines"] = table(**lines)
    layout = {"rankings": rankings, "rank": str(rank), "grade": str(grade),
              "contribution": str(contribution), "running": running is not None, "title": title,
              "font_size": font_size, "width": width, "height": height}
    return ChartParts(_draw_gain_contribution, layout, frames)


def _draw_gain_contribution(data, layout: dict):
    rankings, font_size, rank, contribution = layout["rankings"], layout["font_size"], layout["rank"], \
        layout["contribution"]
    scales = series_scales(rankings)
    x_rank = alt.X("rank:O", title=_("rank i"), axis=alt.Axis(labelAngle=0))
    offset = alt.XOffset("ranking:N", scale=alt.Scale(domain=rankings))
    y_contribution = alt.Y("contribution:Q", title=_("{column} at rank i").format(column=contribution))
    tooltip = [alt.Tooltip("ranking:N"), alt.Tooltip("rank:O", title=rank),
               alt.Tooltip("grade:N", title=_("{column} (grade)").format(column=layout["grade"])),
               alt.Tooltip("contribution:Q", format=".3f", title=contribution)]
    bar_layer = alt.Chart(data["bars"]).mark_bar(stroke="black", strokeWidth=1.5).encode(
        x_rank, y_contribution, xOffset=offset,
        color=alt.Color("ranking:N", scale=scales["color"], title=None),
        # Every channel on "ranking" has the same (empty) title, so Vega-Lite merges them into one
        # legend whose symbols show fill and opacity (and the lines' markers); the dashes stay on the
        # plot only (legend=None): a dash drawn over a filled symbol made a blob.
        # An explicit ordinal scale: Vega-Lite 5 (JupyterLab's renderer) would pick a "point" scale for
        # a discrete opacity, which maps a one-value range to nothing and drew hollow bars.
        fillOpacity=alt.FillOpacity("ranking:N", scale=alt.Scale(type="ordinal", domain=rankings,
                                                                 range=[0.9, 0.35][:len(rankings)]), title=None),
        strokeDash=alt.StrokeDash("ranking:N", scale=scales["strokeDash"], title=None, legend=MARKER_LEGEND),
        tooltip=tooltip)
    # Each bar's grade in a row above the plot: over the bars, the running-sum lines crossed them.
    text_layer = alt.Chart(data["bars"]).mark_text(fontSize=font_size, fontWeight="bold", baseline="middle").encode(
        x_rank, xOffset=offset, y=above_the_plot(font_size), text=alt.Text("grade label:N"), tooltip=tooltip)
    chart = alt.layer(bar_layer, text_layer)
    if layout["running"]:
        line_tooltip = [alt.Tooltip("ranking:N"), alt.Tooltip("rank:O", title=rank),
                        alt.Tooltip("sum:N", title=_("running sum")),
                        alt.Tooltip("running:Q", format=".3f", title=_("value"))]
        line_base = alt.Chart(data["lines"]).encode(
            x_rank, alt.Y("running:Q", title=_("running sum (line)"), axis=alt.Axis(orient="right")),
            color=alt.Color("ranking:N", scale=scales["color"], title=None), tooltip=line_tooltip)
        running_layer = alt.layer(
            line_base.mark_line(strokeWidth=3).encode(strokeDash=alt.StrokeDash("ranking:N", scale=scales["strokeDash"],
                                                                                title=None, legend=MARKER_LEGEND)),
            line_base.mark_point(filled=True, size=font_size * 5).encode(
                shape=alt.Shape("ranking:N", scale=scales["shape"], title=None)))
        chart = alt.layer(chart, running_layer)
        # Assigned rather than .resolve_scale(), which deep-copies the whole layered chart again.
        chart.resolve = alt.Resolve(scale=alt.ScaleResolveMap(y="independent"))
    return finish(chart, func="gain_contribution_chart", title=layout["title"], font_size=font_size,
                  width=layout["width"], height=layout["height"])


def err_chart(df, *, rank=BY_ROLE, grade=BY_ROLE, stop=BY_ROLE, running=BY_ROLE, reach=None,
              title=N_("ERR: where the user stops"), font_size=DEFAULT_FONT_SIZE, width="container",
              height=DEFAULT_HEIGHT):
    r"""The probability that a cascading user stops at each rank (bars) and the running ERR (line).

    .. math:: P(\text{stop at } r) = R_r \prod_{i=1}^{r-1}(1 - R_i), \qquad
              \mathrm{ERR} = \sum_{r} \frac{1}{r} P(\text{stop at } r)

    Parameters
    ----------
    df : Breakdown or DataFrame
        One row per rank, e.g. ``err_breakdown(rels)``, or a DataFrame whose columns are named below.
        Every column parameter left at ``BY_ROLE`` takes the breakdown's column of its role
        (``rank``, ``grade``, ``stop_here``, ``running``, ``reach``); a DataFrame must name them.
    rank, grade : str
        Column names of the rank and the grade there (written above each bar; None leaves it out).
    stop : str
        Column of the probability of stopping at rank r.
    running : str or None
        Column of the running ERR (the sum up to rank r), drawn as a line.
    reach : str, BY_ROLE or None
        Column of the probability of reaching rank r, drawn as a dashed line.
    {title, font_size, width, height}

    {Returns a layered chart}

    Notes
    -----
    All quantities are probabilities or a sum of probabilities divided by ranks, so they share
    one axis from 0 to 1.

    References
    ----------
    Chapelle, Metzler, Zhang & Grinspan, Expected reciprocal rank for graded relevance, CIKM (2009).

    Examples
    --------
    Grades 2, 1 on a 0-2 scale: R_1 = 3/4, R_2 = 1/4; P(stop at 2) = (1 - 3/4) * 1/4 = 0.0625,
    ERR = 0.75/1 + 0.0625/2 = 0.78125.

    >>> import pandas as pd
    >>> table = pd.DataFrame({"rank": [1, 2], "grade": [2, 1], "stop": [0.75, 0.0625], "ERR": [0.75, 0.78125]})
    >>> spec = err_chart(table, rank="rank", grade="grade", stop="stop", running="ERR").to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['bar', 'text', 'line', 'point']
    """
    return err_parts(df, rank=rank, grade=grade, stop=stop, running=running, reach=reach, title=title,
                     font_size=font_size, width=width, height=height).chart()


def err_parts(df, *, rank=BY_ROLE, grade=BY_ROLE, stop=BY_ROLE, running=BY_ROLE, reach=None,
              title=N_("ERR: where the user stops"), font_size=DEFAULT_FONT_SIZE, width="container",
              height=DEFAULT_HEIGHT) -> ChartParts:
    """:func:`err_chart` as its frames and layout (see :class:`rankviz.charts.ChartParts`)."""
    func = "err_chart"
    columns = columns_by_role(df, {"rank": ("rank", rank), "grade": ("grade", grade), "stop": ("stop_here", stop),
                                   "running": ("running", running), "reach": ("reach", reach)},
                              func=func, required=("rank", "stop"))
    rank, grade, stop, running, reach = columns.values()
    df = frame_of(df)
    require_columns(df, columns, func=func)
    n = len(df)
    ranks = df[rank].to_numpy()
    bars = {"rank": ranks, "value": df[stop].to_numpy(), "quantity": np.full(n, str(stop), dtype=object)}
    if grade is not None:
        bars["grade"] = df[grade].to_numpy()
        bars["grade label"] = np.array([_grade_label(g) for g in bars["grade"].tolist()], dtype=object)
    frames = {"bars": table(**bars)}
    line_columns = {str(c): c for c in (running, reach) if c is not None}
    if line_columns:
        frames["lines"] = table(rank=np.concatenate([ranks] * len(line_columns)),
                                value=np.concatenate([df[column].to_numpy() for column in line_columns.values()]),
                                quantity=np.repeat(np.array(list(line_columns), dtype=object), n))
    layout = {"names": [str(stop)] + list(line_columns), "rank": str(rank), "stop": str(stop),
              "grade": None if grade is None else str(grade), "title": title, "font_size": font_size,
              "width": width, "height": height}
    return ChartParts(_draw_err, layout, frames)


def _draw_err(data, layout: dict):
    font_size, rank = layout["font_size"], layout["rank"]
    scales = series_scales(layout["names"])
    colour = alt.Color("quantity:N", scale=scales["color"], title=None)
    x_rank = alt.X("rank:O", title=_("rank r"), axis=alt.Axis(labelAngle=0))
    y_unit = alt.Y("value:Q", scale=alt.Scale(domain=[0, 1]), title=_("probability / ERR"))
    bar_tooltip = [alt.Tooltip("rank:O", title=rank), alt.Tooltip("value:Q", format=".4f", title=layout["stop"])]
    if layout["grade"] is not None:
        bar_tooltip.insert(1, alt.Tooltip("grade:N", title=_("{column} (grade)").format(column=layout["grade"])))
    layers = [alt.Chart(data["bars"]).mark_bar(stroke="black", strokeWidth=1, opacity=0.85).encode(
        x_rank, y_unit, color=colour, tooltip=bar_tooltip)]
    if layout["grade"] is not None:
        # Each rank's grade in a row above the plot: on the bars, the lines' markers sat on them.
        layers.append(alt.Chart(data["bars"]).mark_text(fontSize=font_size, fontWeight="bold",
                                                        baseline="middle").encode(
            x_rank, y=above_the_plot(font_size), text=alt.Text("grade label:N"), tooltip=bar_tooltip))
    if "lines" in data:
        line_base = alt.Chart(data["lines"]).encode(
            x_rank, y_unit, color=colour,
            tooltip=[alt.Tooltip("rank:O", title=rank), alt.Tooltip("quantity:N"),
                     alt.Tooltip("value:Q", format=".4f")])
        layers.append(line_base.mark_line(strokeWidth=3).encode(  # dashes on the plot, markers in the legend
            strokeDash=alt.StrokeDash("quantity:N", scale=scales["strokeDash"], title=None,
                                      legend=MARKER_LEGEND)))
        layers.append(line_base.mark_point(filled=True, size=font_size * 5).encode(
            shape=alt.Shape("quantity:N", scale=scales["shape"], title=None)))
    return finish(alt.layer(*layers), func="err_chart", title=layout["title"], font_size=font_size,
                  width=layout["width"], height=layout["height"])


fill_docstrings(globals(), CHART_WORDS)  # the {title, font_size, width, height} lines above
