"""Charts of binary relevance: the precision-recall curve, P@i and R@i down a ranking, ROC curves."""

from __future__ import annotations

from collections.abc import Mapping

import altair as alt
import numpy as np
import pandas as pd

from rankviz.charts._frames import check_flag, pick, require_columns
from rankviz.charts._style import DEFAULT_FONT_SIZE, DEFAULT_HEIGHT, NEUTRAL_GREY, finish, series_scales
from rankviz.metrics._validation import check_positive_number

__all__ = ["precision_recall_chart", "precision_recall_at_rank_chart", "roc_chart"]

RELEVANCE_SHAPES = alt.Scale(domain=["relevant", "not relevant"], range=["circle", "cross"])
UNIT = alt.Scale(domain=[0, 1], nice=False)
TENTHS = alt.Axis(values=[i / 10 for i in range(11)], format=".1f")


def _raw_points(name, df, *, rank, recall, precision) -> pd.DataFrame:
    """One row per rank; a rank is relevant when recall rises there (each relevant document adds 1/R)."""
    raw = pick(df, {"rank": rank, "recall": recall, "precision": precision}).astype({"recall": float,
                                                                                     "precision": float})
    if rank is None:
        raw.insert(0, "rank", np.arange(1, len(raw) + 1))
    rises = np.diff(raw["recall"].to_numpy(), prepend=0.0) > 0
    raw.insert(0, "system", name)
    raw["relevance"] = np.where(rises, "relevant", "not relevant")
    return raw


def _interpolated_steps(raw: pd.DataFrame) -> pd.DataFrame:
    """Corners of the interpolated curve p_interp(r) = max{P(r') : r' >= r}, drawn with step-before.

    With step-before, the value on (r_{j-1}, r_j] is the one at r_j, which is exactly this
    left-continuous step function. Beyond the largest recall reached nothing is left to
    maximize over, so the curve is 0 there (trec_eval's convention).
    """
    recall = raw["recall"].to_numpy()
    precision = raw["precision"].to_numpy()
    levels = np.unique(recall[recall > 0])
    best = [float(precision[recall >= level].max()) for level in levels]
    xs = [0.0] + levels.tolist()
    ys = (best[:1] or [0.0]) + best
    if not levels.size or levels[-1] < 1:
        xs.append(1.0)
        ys.append(0.0)
    return pd.DataFrame({"system": raw["system"].iloc[0] if len(raw) else "", "recall": xs,
                         "interpolated precision": ys, "corner": np.arange(len(xs))})


def _eleven_points(raw: pd.DataFrame) -> pd.DataFrame:
    """Interpolated precision at recall 0.0, 0.1, ..., 1.0 (0 where that recall is never reached)."""
    recall = raw["recall"].to_numpy()
    precision = raw["precision"].to_numpy()
    # k/10 is the same double as a recall r/R of the same rational value, so >= is exact here.
    levels = np.arange(11) / 10
    values = [float(precision[recall >= level].max()) if np.any(recall >= level) else 0.0 for level in levels]
    return pd.DataFrame({"system": raw["system"].iloc[0] if len(raw) else "", "recall level": levels,
                         "interpolated precision": values})


def _ap_area(raw: pd.DataFrame) -> pd.DataFrame:
    """Corners of the area AP sums: a rectangle of width 1/R and height P@i at each relevant rank."""
    relevant = raw[raw["relevance"] == "relevant"]
    xs = [0.0] + relevant["recall"].tolist()
    ys = relevant["precision"].tolist()[:1] + relevant["precision"].tolist()
    widths = np.diff(xs)
    area = float(np.sum(widths * np.asarray(ys[1:]))) if len(xs) > 1 else 0.0
    return pd.DataFrame({"system": raw["system"].iloc[0] if len(raw) else "", "recall": xs,
                         "precision": ys or [0.0], "AP area": area, "corner": np.arange(len(xs))})


def _f_beta_markers(raw_by_system, ranks, beta, *, func) -> pd.DataFrame:
    rows = []
    for name, raw in raw_by_system.items():
        if name not in ranks:
            continue
        k = ranks[name]
        at_k = raw[raw["rank"] == k]
        if at_k.empty:
            raise ValueError(f"The 'f_beta_rank' parameter of {func} asks for rank {k} of system {name!r}, "
                             f"which its table does not have (ranks {raw['rank'].min()} to {raw['rank'].max()}).")
        p, r = float(at_k["precision"].iloc[0]), float(at_k["recall"].iloc[0])
        denominator = beta**2 * p + r
        value = (1 + beta**2) * p * r / denominator if denominator > 0 else 0.0
        rows.append({"system": name, "recall": r, "precision": p, "value": value,
                     "label": f"F{beta:g}@{k} = {value:.3f}"})
    return pd.DataFrame(rows, columns=["system", "recall", "precision", "value", "label"])


def _threshold_label(value) -> str:
    number = float(value)
    return "∞" if number == np.inf else "-∞" if number == -np.inf else f"{number:g}"


def precision_recall_chart(points_by_system, *, rank="rank", recall="R@i", precision="P@i", raw_points=True,
                           interpolated=True, eleven_point=False, ap_area=False, r_precision=None,
                           f_beta_rank=None, beta=1.0, title="Precision-recall curve",
                           font_size=DEFAULT_FONT_SIZE, width="container", height=DEFAULT_HEIGHT):
    r"""Precision against recall for one or more systems: raw points, interpolated curve, AP as an area.

    Draws, per system, the raw point (R@i, P@i) of every rank i (relevant ranks as circles,
    the others as crosses, joined in rank order: the "sawtooth"), and the interpolated curve

    .. math:: p_{\mathrm{interp}}(r) = \max_{r' \ge r} P(r'),

    a step function that is 0 beyond the largest recall reached. Options add the 11-point
    interpolated values, the area under the raw step curve (a rectangle of width 1/R and
    height P@i at each relevant rank, whose total is AP), the R-precision point and an
    F-beta point.

    Parameters
    ----------
    points_by_system : mapping of str to DataFrame
        System name -> one row per rank in ranked order, as
        ``precision_recall_points_breakdown`` gives, with the columns named below.
    rank, recall, precision : str
        Column names of the rank i (None: the row position), R@i and P@i.
    raw_points, interpolated, eleven_point, ap_area : bool
        Which layers to draw.
    r_precision : mapping of str to float, optional
        System -> its R-precision. At rank R precision and recall are both (relevant in the
        top R) / R, so the point is drawn on the diagonal P = R, which is drawn too.
    f_beta_rank : int or mapping of str to int, optional
        Mark the point (R@k, P@k) at this rank k (per system if a mapping), labelled with
        :math:`F_\beta = (1 + \beta^2) P R / (\beta^2 P + R)` (0 when P = R = 0).
    beta : float, default 1.0
        The beta of that F-measure.
    title : str
        Chart title.
    font_size : float, default 16
        Axis and legend type size in pixels (22 for a projector).
    width : "container" or int, default "container"
        "container" fills the page column, so the chart is never cut off.
    height : int, default 360

    Returns
    -------
    alt.LayerChart

    Notes
    -----
    A rank counts as relevant when its recall is higher than the rank before: this needs no
    grade column and matches the binary relevance the recall was computed with. The curve
    shown is the interpolation of Manning et al. and trec_eval (0 beyond the last recall).

    References
    ----------
    Manning, Raghavan & Schütze, Introduction to Information Retrieval, 8.4 (2008).

    Examples
    --------
    Relevant documents at ranks 1 and 3 of 4, R = 2:

    >>> import pandas as pd
    >>> table = pd.DataFrame({"rank": [1, 2, 3, 4], "P@i": [1, 1/2, 2/3, 2/4], "R@i": [0.5, 0.5, 1, 1]})
    >>> chart = precision_recall_chart({"run A": table}, ap_area=True)
    >>> [layer["mark"]["type"] for layer in chart.to_dict()["layer"]]
    ['area', 'line', 'line', 'point']

    The shaded area is 0.5 * 1 + 0.5 * 2/3 = 0.833, the AP of this ranking.
    """
    func = "precision_recall_chart"
    if not isinstance(points_by_system, Mapping) or not points_by_system:
        raise ValueError(f"The 'points_by_system' parameter of {func} must be a non-empty mapping of system name "
                         f"to DataFrame. Got {points_by_system!r} instead.")
    for flag, value in {"raw_points": raw_points, "interpolated": interpolated, "eleven_point": eleven_point,
                        "ap_area": ap_area}.items():
        check_flag(value, func=func, name=flag)
    beta = check_positive_number(beta, func=func, name="beta")
    raw_by_system = {}
    for name, df in points_by_system.items():
        require_columns(df, {"rank": rank, "recall": recall, "precision": precision}, func=func,
                        name=f"points_by_system[{name!r}]")
        raw_by_system[str(name)] = _raw_points(str(name), df, rank=rank, recall=recall, precision=precision)
    systems = list(raw_by_system)
    scales = series_scales(systems)
    # A stroke symbol in the legend, so it shows each system's dash as well as its colour.
    colour = alt.Color("system:N", scale=scales["color"], title="system",
                       legend=alt.Legend(symbolType="stroke", symbolOpacity=1, symbolStrokeWidth=3, columns=2))
    dash = alt.StrokeDash("system:N", scale=scales["strokeDash"], title="system")
    x_recall = alt.X("recall:Q", scale=UNIT, title="recall", axis=TENTHS)
    y_precision = alt.Y("precision:Q", scale=UNIT, title="precision", axis=TENTHS)
    layers = []

    if ap_area:
        area = pd.concat([_ap_area(raw) for raw in raw_by_system.values()], ignore_index=True)
        layers.append(alt.Chart(area).mark_area(interpolate="step-before", fillOpacity=0.18).encode(
            # stack=None: each system's area starts at 0, they overlap rather than pile up.
            # No order channel here: on an area mark it sets the stack order, and with it Chromium drew no
            # area at all. Area points are joined in x order, which is the corner order.
            x_recall, alt.Y("precision:Q", scale=UNIT, title="precision", axis=TENTHS, stack=None), color=colour,
            tooltip=[alt.Tooltip("system:N"), alt.Tooltip("AP area:Q", format=".3f", title="area = AP")]))
    if interpolated:
        steps = pd.concat([_interpolated_steps(raw) for raw in raw_by_system.values()], ignore_index=True)
        layers.append(alt.Chart(steps).mark_line(interpolate="step-before", strokeWidth=3).encode(
            x_recall, alt.Y("interpolated precision:Q", scale=UNIT, title="precision", axis=TENTHS), color=colour,
            strokeDash=dash, order=alt.Order("corner:Q"),
            tooltip=[alt.Tooltip("system:N"), alt.Tooltip("recall:Q", format=".3f"),
                     alt.Tooltip("interpolated precision:Q", format=".3f")]))
    if raw_points:
        raw = pd.concat(list(raw_by_system.values()), ignore_index=True)
        tooltip = [alt.Tooltip("system:N"), alt.Tooltip("rank:Q", title=str(rank or "rank")),
                   alt.Tooltip("relevance:N"),
                   alt.Tooltip("precision:Q", format=".3f", title=str(precision)),
                   alt.Tooltip("recall:Q", format=".3f", title=str(recall))]
        base = alt.Chart(raw).encode(x_recall, y_precision, color=colour, tooltip=tooltip)
        layers.append(base.mark_line(strokeWidth=1, opacity=0.5).encode(order=alt.Order("rank:Q")))
        layers.append(base.mark_point(filled=True, size=font_size * 6, opacity=0.9).encode(
            shape=alt.Shape("relevance:N", scale=RELEVANCE_SHAPES, title="rank is",
                            legend=alt.Legend(columns=1, direction="vertical"))))
    if eleven_point:
        eleven = pd.concat([_eleven_points(raw) for raw in raw_by_system.values()], ignore_index=True)
        layers.append(alt.Chart(eleven).mark_point(shape="square", filled=False, size=font_size * 10,
                                                   strokeWidth=2).encode(
            alt.X("recall level:Q", scale=UNIT, title="recall", axis=TENTHS),
            alt.Y("interpolated precision:Q", scale=UNIT, title="precision", axis=TENTHS), color=colour,
            tooltip=[alt.Tooltip("system:N"), alt.Tooltip("recall level:Q", format=".1f"),
                     alt.Tooltip("interpolated precision:Q", format=".3f", title="11-point interpolated precision")]))
    markers = []
    if r_precision is not None:
        if not isinstance(r_precision, Mapping):
            raise ValueError(f"The 'r_precision' parameter of {func} must map system name to R-precision. "
                             f"Got {r_precision!r} instead.")
        markers.append(pd.DataFrame([{"system": str(name), "recall": float(value), "precision": float(value),
                                      "value": float(value), "label": f"R-prec = {float(value):.3f}"}
                                     for name, value in r_precision.items()],
                                    columns=["system", "recall", "precision", "value", "label"]))
        diagonal = pd.DataFrame({"recall": [0.0, 1.0], "precision": [0.0, 1.0],
                                 "line": "P = R (R-precision lies on it)"})
        layers.append(alt.Chart(diagonal).mark_line(color=NEUTRAL_GREY, strokeDash=[2, 4], strokeWidth=1.5).encode(
            x_recall, y_precision, tooltip=[alt.Tooltip("line:N", title="diagonal")]))
    if f_beta_rank is not None:
        ranks = f_beta_rank if isinstance(f_beta_rank, Mapping) else dict.fromkeys(systems, f_beta_rank)
        markers.append(_f_beta_markers(raw_by_system, {str(s): k for s, k in ranks.items()}, beta, func=func))
    if markers:
        marked = pd.concat(markers, ignore_index=True)
        base = alt.Chart(marked).encode(x_recall, y_precision, color=colour,
                                        tooltip=[alt.Tooltip("system:N"), alt.Tooltip("label:N", title="marker"),
                                                 alt.Tooltip("recall:Q", format=".3f"),
                                                 alt.Tooltip("precision:Q", format=".3f")])
        layers.append(base.mark_point(shape="triangle-up", filled=True, size=font_size * 14, stroke="black",
                                      strokeWidth=1))
        # Labels of points on the right half read leftwards, so they never run off the chart; R-precision
        # labels sit above their point and F-beta labels below, so the two never overprint when close.
        above = marked["label"].str.startswith("R-prec")
        for side, dy, rows in (("left", -0.7, (marked["recall"] <= 0.6) & above),
                               ("right", -0.7, (marked["recall"] > 0.6) & above),
                               ("left", 1.2, (marked["recall"] <= 0.6) & ~above),
                               ("right", 1.2, (marked["recall"] > 0.6) & ~above)):
            if rows.any():
                layers.append(alt.Chart(marked[rows]).mark_text(
                    align=side, dx=font_size * (0.7 if side == "left" else -0.7), dy=font_size * dy,
                    fontSize=font_size, fontWeight="bold").encode(
                    x_recall, y_precision, color=colour, text=alt.Text("label:N"), tooltip=base.encoding.tooltip))
    chart = alt.layer(*layers) if layers else alt.Chart(pd.DataFrame()).mark_point()
    return finish(chart, func=func, title=title, font_size=font_size, width=width, height=height)


def precision_recall_at_rank_chart(df, *, rank="rank", precision="P@i", recall="R@i", grade="rel",
                                   title="Precision and recall down the ranking", font_size=DEFAULT_FONT_SIZE,
                                   width="container", height=DEFAULT_HEIGHT):
    r"""P@i and R@i at every rank i: precision falls at each miss, recall climbs at each hit.

    .. math:: P@i = \frac{1}{i}\sum_{j \le i} \mathrm{rel}(j), \qquad R@i = \frac{1}{R}\sum_{j \le i} \mathrm{rel}(j)

    Parameters
    ----------
    df : DataFrame
        One row per rank, in ranked order, e.g. ``precision_recall_points_breakdown(rels)``.
    rank, precision, recall : str
        Column names of i, P@i and R@i.
    grade : str or None, default "rel"
        Column of the relevance grades, written above each rank so relevance is read as a
        number, not a colour. None leaves the grades out.
    title, font_size, width, height
        As in :func:`precision_recall_chart`.

    Returns
    -------
    alt.LayerChart

    Notes
    -----
    Values are drawn as given: the chart computes nothing.

    References
    ----------
    Manning, Raghavan & Schütze, Introduction to Information Retrieval, 8.3 (2008).

    Examples
    --------
    Grades 1, 0, 1 with R = 2: P@i = 1/1, 1/2, 2/3 and R@i = 1/2, 1/2, 2/2.

    >>> import pandas as pd
    >>> table = pd.DataFrame({"rank": [1, 2, 3], "rel": [1, 0, 1], "P@i": [1, 1/2, 2/3], "R@i": [1/2, 1/2, 1]})
    >>> spec = precision_recall_at_rank_chart(table).to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['line', 'point', 'text']
    """
    func = "precision_recall_at_rank_chart"
    require_columns(df, {"rank": rank, "precision": precision, "recall": recall, "grade": grade}, func=func)
    measures = [str(precision), str(recall)]
    wide = pick(df, {"rank": rank, measures[0]: precision, measures[1]: recall})
    long = wide.melt(id_vars="rank", var_name="measure", value_name="value")
    scales = series_scales(measures)
    base = alt.Chart(long).encode(
        alt.X("rank:Q", title="rank i", scale=alt.Scale(domainMin=1, nice=False), axis=alt.Axis(tickMinStep=1)),
        alt.Y("value:Q", scale=alt.Scale(domain=[0, 1.15], nice=False), axis=alt.Axis(values=[0, .2, .4, .6, .8, 1]),
              title="value"),
        color=alt.Color("measure:N", scale=scales["color"], title=None),
        tooltip=[alt.Tooltip("rank:Q", title=str(rank)), alt.Tooltip("measure:N"),
                 alt.Tooltip("value:Q", format=".3f")])
    layers = [base.mark_line(strokeWidth=3).encode(strokeDash=alt.StrokeDash("measure:N", scale=scales["strokeDash"],
                                                                             title=None)),
              base.mark_point(filled=True, size=font_size * 6).encode(
                  shape=alt.Shape("measure:N", scale=scales["shape"], title=None))]
    if grade is not None:
        grades = pick(df, {"rank": rank, "grade": grade})
        grades["label"] = grades["grade"].map(lambda g: f"{g:g}" if isinstance(g, (int, float, np.number)) else str(g))
        layers.append(alt.Chart(grades).mark_text(fontSize=font_size, fontWeight="bold", baseline="middle").encode(
            alt.X("rank:Q"), y=alt.YDatum(1.09), text=alt.Text("label:N"),
            tooltip=[alt.Tooltip("rank:Q", title=str(rank)), alt.Tooltip("grade:Q", title=f"{grade} (grade)")]))
    return finish(alt.layer(*layers), func=func, title=title, font_size=font_size, width=width, height=height)


def roc_chart(curves, *, fpr="FPR", tpr="TPR", threshold=None, auc=None, title="ROC curve",
              font_size=DEFAULT_FONT_SIZE, width="container", height=DEFAULT_HEIGHT):
    r"""ROC curves (true positive rate against false positive rate), several on one plot, with the chance diagonal.

    .. math:: \mathrm{TPR} = \frac{TP}{P}, \qquad \mathrm{FPR} = \frac{FP}{N}

    Parameters
    ----------
    curves : mapping of str to DataFrame or (fpr, tpr) pair
        Curve label (a query, a group, a model) -> its points in threshold order, as
        ``roc_curve_breakdown`` gives or as two arrays.
    fpr, tpr : str
        Column names of the rates in the DataFrames.
    threshold : str, optional
        Column of the score thresholds (``"threshold"`` in ``roc_curve_breakdown``), shown in
        the tooltip; infinite thresholds read "∞".
    auc : mapping of str to float, optional
        Label -> its AUC, added to the legend ("q1 (AUC 0.750)").
    title, font_size, width, height
        As in :func:`precision_recall_chart`.

    Returns
    -------
    alt.LayerChart

    Notes
    -----
    Points are joined in the order given (tied scores give diagonal segments), not sorted.
    The dashed diagonal is a random scoring, AUC 0.5.

    References
    ----------
    Fawcett, An introduction to ROC analysis, Pattern Recognition Letters 27 (2006).

    Examples
    --------
    >>> chart = roc_chart({"q1": ([0, 0, 0.5, 1], [0, 0.5, 1, 1])}, auc={"q1": 0.875})
    >>> spec = chart.to_dict()
    >>> sorted({row["curve"] for rows in spec["datasets"].values() for row in rows if "curve" in row})
    ['q1 (AUC 0.875)']
    """
    func = "roc_chart"
    if not isinstance(curves, Mapping) or not curves:
        raise ValueError(f"The 'curves' parameter of {func} must be a non-empty mapping of label to a DataFrame "
                         f"or an (fpr, tpr) pair. Got {curves!r} instead.")
    if auc is not None and not isinstance(auc, Mapping):
        raise ValueError(f"The 'auc' parameter of {func} must map curve label to AUC. Got {auc!r} instead.")
    frames = []
    for name, curve in curves.items():
        if isinstance(curve, pd.DataFrame):
            require_columns(curve, {"fpr": fpr, "tpr": tpr, "threshold": threshold}, func=func,
                            name=f"curves[{name!r}]")
            points = pick(curve, {"fpr": fpr, "tpr": tpr, "threshold": threshold})
            if threshold is not None:
                # The first threshold of a ROC table is +inf ("nothing is positive"), which JSON cannot hold.
                points["threshold"] = [_threshold_label(t) for t in points["threshold"]]
        else:
            try:
                x, y = (np.asarray(values, dtype=float) for values in curve)
            except (TypeError, ValueError):
                raise ValueError(f"curves[{name!r}] of {func} must be a DataFrame or an (fpr, tpr) pair of number "
                                 f"sequences. Got {curve!r} instead.") from None
            if x.shape != y.shape or x.ndim != 1:
                raise ValueError(f"curves[{name!r}] of {func} must hold fpr and tpr of the same length; "
                                 f"got {x.size} and {y.size} values.")
            points = pd.DataFrame({"fpr": x, "tpr": y})
        label = f"{name} (AUC {float(auc[name]):.3f})" if auc is not None and name in auc else str(name)
        points.insert(0, "curve", label)
        points["step"] = np.arange(len(points))
        frames.append(points)
    data = pd.concat(frames, ignore_index=True)
    scales = series_scales(data["curve"].unique())
    tooltip = [alt.Tooltip("curve:N"), alt.Tooltip("fpr:Q", format=".3f", title=str(fpr)),
               alt.Tooltip("tpr:Q", format=".3f", title=str(tpr))]
    if threshold is not None:
        tooltip.append(alt.Tooltip("threshold:N", title=str(threshold)))
    base = alt.Chart(data).encode(alt.X("fpr:Q", scale=UNIT, title="false positive rate", axis=TENTHS),
                                  alt.Y("tpr:Q", scale=UNIT, title="true positive rate", axis=TENTHS),
                                  color=alt.Color("curve:N", scale=scales["color"], title=None), tooltip=tooltip)
    chance = pd.DataFrame({"fpr": [0.0, 1.0], "tpr": [0.0, 1.0], "line": "random scoring (AUC 0.5)"})
    layers = [
        alt.Chart(chance).mark_line(color=NEUTRAL_GREY, strokeDash=[6, 4], strokeWidth=1.5).encode(
            alt.X("fpr:Q", scale=UNIT), alt.Y("tpr:Q", scale=UNIT), tooltip=[alt.Tooltip("line:N", title="diagonal")]),
        base.mark_line(strokeWidth=3).encode(order=alt.Order("step:Q"),
                                             strokeDash=alt.StrokeDash("curve:N", scale=scales["strokeDash"],
                                                                       title=None)),
        base.mark_point(filled=True, size=font_size * 5).encode(shape=alt.Shape("curve:N", scale=scales["shape"],
                                                                                title=None)),
    ]
    return finish(alt.layer(*layers), func=func, title=title, font_size=font_size, width=width, height=height)
