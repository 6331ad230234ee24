"""Charts of binary relevance: the precision-recall curve, P@i and R@i down a ranking, ROC curves."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

import altair as alt
import numpy as np
import pandas as pd
import pyarrow as pa

from rankviz._docstrings import fill_docstrings
from rankviz.charts._frames import BY_ROLE, check_flag, frame_of, require_columns, role_or
from rankviz.i18n import N_, _
from rankviz.charts._parts import ChartParts, table
from rankviz.charts._style import (CHART_WORDS, DEFAULT_FONT_SIZE, DEFAULT_HEIGHT, MARKER_LEGEND, NEUTRAL_GREY, above_the_plot,
                                  finish, haloed_text, series_scales)
from rankviz.metrics import interpolated_precision
from rankviz.metrics.precision_recall import ROUNDINGS
from rankviz.metrics.validation import check_choice, check_positive_number
from rankviz.registry import ELEVEN_LEVELS as RECALL_LEVELS

__all__ = ["precision_recall_chart", "precision_recall_at_rank_chart", "roc_chart",
           "precision_recall_parts", "precision_recall_at_rank_parts", "roc_parts"]

RELEVANCE_WORDS = (N_("relevant"), N_("not relevant"))  # a legend's values, in the language in force


def _relevance_shapes() -> alt.Scale:
    return alt.Scale(domain=[_(word) for word in RELEVANCE_WORDS], range=["circle", "cross"])
UNIT = alt.Scale(domain=[0, 1], nice=False)
TENTHS = alt.Axis(values=list(RECALL_LEVELS), format=".1f")
ELEVEN_LEVELS = np.array(RECALL_LEVELS)
# Under each rounding rule, recall level r asks for c relevant documents on an interval of r*R whose
# right end is c + this: (c-1, c] for ceil, [c-0.9, c+0.1) for floor(rR + 0.9), [c-0.5, c+0.5) for lround.
_STEP_RIGHT_END = {"ceil": 0.0, "floor_plus_0.9": 0.1, "lround": 0.5}


class _Points(NamedTuple):
    """One system's ranks, as numpy columns (frames are built once, at the end: pandas costs per call)."""

    system: str
    rank: np.ndarray
    recall: np.ndarray
    precision: np.ndarray
    relevant: np.ndarray  # bool: recall rises at this rank


def _raw_points(name, df, *, rank, recall, precision) -> _Points:
    """One row per rank; a rank is relevant when recall rises there (each relevant document adds 1/R)."""
    recall_values = df[recall].to_numpy(dtype=float)
    ranks = np.arange(1, len(df) + 1) if rank is None else df[rank].to_numpy()
    return _Points(name, ranks, recall_values, df[precision].to_numpy(dtype=float),
                   np.diff(recall_values, prepend=0.0) > 0)


def _stack(columns_by_system: list[dict], columns: list[str]):
    """One table of every system's columns, one after the other; "system" repeated to each system's length."""
    data = {}
    for name in columns:
        if name == "system":
            parts = [np.full(len(part["corner" if "corner" in part else columns[1]]), part["system"], dtype=object)
                     for part in columns_by_system]
        else:
            parts = [np.asarray(part[name]) for part in columns_by_system]
        data[name] = np.concatenate(parts) if parts else np.array([], dtype=object if name == "system" else float)
    return table(**data)


def _rows(records: list[dict], columns: list[str]):
    """A table of a few rows given as dicts."""
    return table(**{name: np.array([row[name] for row in records],
                                   dtype=object if name in ("system", "label") else float) for name in columns})


def _raw_columns(points: _Points) -> dict:
    return {"system": points.system, "rank": points.rank, "recall": points.recall, "precision": points.precision,
            "relevance": np.where(points.relevant, _(RELEVANCE_WORDS[0]), _(RELEVANCE_WORDS[1])).astype(object)}


def _interpolated_steps(points: _Points) -> dict:
    """Corners of the interpolated curve p_interp(r) = max{P(r') : r' >= r} of the points as given.

    With step-before, the value on (r_{j-1}, r_j] is the one at r_j, which is exactly this
    left-continuous step function. Beyond the largest recall reached nothing is left to
    maximize over, so the curve is 0 there (trec_eval's convention).
    """
    recall, precision = points.recall, points.precision
    levels = np.unique(recall[recall > 0])
    best = [float(precision[recall >= level].max()) for level in levels]
    xs = [0.0] + levels.tolist()
    ys = (best[:1] or [0.0]) + best
    if not levels.size or levels[-1] < 1:
        xs.append(1.0)
        ys.append(0.0)
    return _steps_columns(points, xs, ys)


def _steps_columns(points: _Points, xs, ys) -> dict:
    return {"system": points.system, "recall": np.asarray(xs, dtype=float),
            "interpolated precision": np.asarray(ys, dtype=float), "corner": np.arange(len(xs))}


def _eleven_points(points: _Points) -> dict:
    """Interpolated precision of the points as given at recall 0.0, 0.1, ..., 1.0 (0 where never reached)."""
    recall, precision = points.recall, points.precision
    # k/10 is the same double as a recall r/R of the same rational value, so >= is exact here.
    values = [float(precision[recall >= level].max()) if np.any(recall >= level) else 0.0 for level in ELEVEN_LEVELS]
    return _eleven_columns(points, values)


def _eleven_columns(points: _Points, values) -> dict:
    return {"system": points.system, "recall level": ELEVEN_LEVELS, "interpolated precision": np.asarray(values, float)}


def _ranking_of(name, data, points: _Points, *, func) -> tuple[np.ndarray, int]:
    """The binary ranking a per-rank table describes: relevant where recall rises, and its R.

    R is the breakdown's ``details["n_relevant"]`` when ``data`` is a breakdown, else relevant
    found / last recall.
    """
    relevant = points.relevant.astype(np.int64)
    found = int(relevant.sum())
    n_relevant = getattr(data, "details", {}).get("n_relevant")
    if n_relevant is None:
        last = float(points.recall[-1]) if len(points.recall) else 0.0
        n_relevant = round(found / last) if last > 0 else found
    if isinstance(n_relevant, bool) or not isinstance(n_relevant, (int, np.integer)) or n_relevant < found:
        raise ValueError(f"points_by_system[{name!r}] of {func} must be one ranking's table, one row per rank, "
                         f"when 'rounding' is given: its R (details['n_relevant']) is {n_relevant!r} but recall "
                         f"rises at {found} ranks.")
    return relevant, int(n_relevant)


def _interpolation_by_rule(points: _Points, relevant, n_relevant, rounding) -> tuple[dict, dict]:
    """The step curve and the 11 points of ``rankviz.metrics.interpolated_precision`` under ``rounding``.

    Level r asks for c = rounding(r R) relevant documents; the curve's value for c is the metric's at
    r = c / R, and its corner sits at the right end of the recall interval that asks for c.
    """
    found = int(relevant.sum())
    eleven = interpolated_precision(relevant, ELEVEN_LEVELS, n_relevant=n_relevant, rounding=rounding)
    if found == 0:
        return _steps_columns(points, [0.0, 1.0], [0.0, 0.0]), _eleven_columns(points, eleven)
    counts = np.arange(1, found + 1)
    values = interpolated_precision(relevant, np.concatenate([[0.0], counts / n_relevant]), n_relevant=n_relevant,
                                    rounding=rounding)
    xs = [0.0] + np.minimum(1.0, (counts + _STEP_RIGHT_END[rounding]) / n_relevant).tolist()
    ys = values.tolist()
    if xs[-1] < 1:
        xs.append(1.0)
        ys.append(0.0)
    return _steps_columns(points, xs, ys), _eleven_columns(points, eleven)


def _ap_area(points: _Points) -> dict:
    """Corners of the area AP sums: a rectangle of width 1/R and height P@i at each relevant rank."""
    recall, precision = points.recall[points.relevant], points.precision[points.relevant]
    xs = np.concatenate([[0.0], recall])
    ys = np.concatenate([precision[:1], precision])
    area = float(np.sum(np.diff(xs) * precision))
    return {"system": points.system, "recall": xs, "precision": ys if ys.size else np.array([0.0]),
            "AP area": np.full(xs.size, area), "corner": np.arange(xs.size)}


def _f_beta_markers(points_by_system, ranks, beta, *, func) -> list[dict]:
    rows = []
    for name, points in points_by_system.items():
        if name not in ranks:
            continue
        k = ranks[name]
        at_k = np.flatnonzero(points.rank == k)
        if not at_k.size:
            raise ValueError(f"The 'f_beta_rank' parameter of {func} asks for rank {k} of system {name!r}, "
                             f"which its table does not have (ranks {points.rank.min()} to {points.rank.max()}).")
        p, r = float(points.precision[at_k[0]]), float(points.recall[at_k[0]])
        denominator = beta**2 * p + r
        value = (1 + beta**2) * p * r / denominator if denominator > 0 else 0.0
        rows.append({"system": name, "recall": r, "precision": p, "value": value,
                     "label": f"F{beta:g}@{k} = {value:.3f}"})
    return rows


def _threshold_label(value) -> str:
    number = float(value)
    return "∞" if number == np.inf else "-∞" if number == -np.inf else f"{number:g}"


# Marker labels on the right half read leftwards, so they never run off the chart; R-precision labels sit
# above their point and F-beta labels below, so the two never overprint when close: (align, dy in font sizes).
_LABEL_PLACES = (("left", -0.7), ("right", -0.7), ("left", 1.2), ("right", 1.2))


def precision_recall_chart(points_by_system, *, rank=BY_ROLE, recall=BY_ROLE, precision=BY_ROLE, raw_points=True,
                           interpolated=True, eleven_point=False, ap_area=False, r_precision=None,
                           f_beta_rank=None, beta=1.0, rounding=None, title=N_("Precision-recall curve"),
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
    points_by_system : mapping of str to Breakdown or DataFrame
        System name -> one row per rank in ranked order: a ``precision_recall_points_breakdown``
        (or any table with the columns named below).
    rank, recall, precision : str, None or BY_ROLE
        Column names of the rank i (None: the row position), R@i and P@i. By default the
        columns a breakdown names for the roles ``rank``, ``recall`` and ``precision`` (in any
        language), else ``"rank"``, ``"R@i"`` and ``"P@i"``.
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
    rounding : {"ceil", "floor_plus_0.9", "lround"} or None, default None
        None interpolates the points as given, max{P : R >= r} (for tables that are not one
        ranking's, e.g. interpolated precision averaged over queries). A rule takes each table
        as one ranking's per-rank breakdown (relevant where recall rises, R from a breakdown's
        ``details["n_relevant"]``, else relevant found / last recall) and draws the curve and the 11 points from
        :func:`rankviz.metrics.interpolated_precision` with this ``rounding``, so they equal
        ``eleven_point_precision_breakdown(..., rounding=rounding)``. On such tables None and
        "ceil" draw the same.
    {title, font_size, width, height}

    {Returns a layered chart}

    Notes
    -----
    A rank counts as relevant when its recall is higher than the rank before: this needs no
    grade column and matches the binary relevance the recall was computed with. The curve
    shown is the interpolation of Manning et al. and trec_eval (0 beyond the last recall); under
    ``rounding="lround"`` (trec_eval 10) level r asks for round(r R) relevant documents, so the
    step for c documents starts at recall (c - 0.5) / R, and under "floor_plus_0.9" (trec_eval 9)
    at (c - 0.9) / R.

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

    The lecture's q2 (relevant at ranks 3, 8, 15; R = 3) under trec_eval 10's rule: level 0.4
    asks for round(0.4 x 3) = round(1.2) = 1 relevant document, so its square is the best
    precision from rank 3 on, max(1/3, 2/8, 3/15) = 0.333 (the textbook's ceil(1.2) = 2 gives 2/8):

    >>> from rankviz.metrics import precision_recall_points_breakdown
    >>> q2 = precision_recall_points_breakdown([0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1], n_relevant=3)
    >>> spec = precision_recall_chart({"q2": q2}, eleven_point=True, rounding="lround").to_dict()
    >>> squares = next(rows for rows in spec["datasets"].values() if "recall level" in rows[0])
    >>> [round(row["interpolated precision"], 3) for row in squares[3:5]]
    [0.333, 0.333]
    """

    return precision_recall_parts(
        points_by_system, rank=rank, recall=recall, precision=precision, raw_points=raw_points,
        interpolated=interpolated, eleven_point=eleven_point, ap_area=ap_area, r_precision=r_precision,
        f_beta_rank=f_beta_rank, beta=beta, rounding=rounding, title=title, font_size=font_size, width=width,
        height=height).chart()


def precision_recall_parts(points_by_system, *, rank=BY_ROLE, recall=BY_ROLE, precision=BY_ROLE, raw_points=True,
                           interpolated=True, eleven_point=False, ap_area=False, r_precision=None,
                           f_beta_rank=None, beta=1.0, rounding=None, title=N_("Precision-recall curve"),
                           font_size=DEFAULT_FONT_SIZE, width="container", height=DEFAULT_HEIGHT) -> ChartParts:
    """:func:`precision_recall_chart` as its frames and layout (see :class:`rankviz.charts.ChartParts`)."""
    func = "precision_recall_chart"
    if not isinstance(points_by_system, Mapping) or not points_by_system:
        raise ValueError(f"The 'points_by_system' parameter of {func} must be a non-empty mapping of system name "
                         f"to breakdown or DataFrame. Got {points_by_system!r} instead.")
    for flag, value in {"raw_points": raw_points, "interpolated": interpolated, "eleven_point": eleven_point,
                        "ap_area": ap_area}.items():
        check_flag(value, func=func, name=flag)
    beta = check_positive_number(beta, func=func, name="beta")
    if rounding is not None:
        rounding = check_choice(rounding, ROUNDINGS, func=func, name="rounding")
    raw_by_system, steps, elevens, shown = {}, [], [], {}
    for name, data in points_by_system.items():
        df = frame_of(data)
        columns = {"rank": role_or(data, "rank", rank, "rank"), "recall": role_or(data, "recall", recall, "R@i"),
                   "precision": role_or(data, "precision", precision, "P@i")}
        require_columns(df, columns, func=func, name=f"points_by_system[{name!r}]")
        points = _raw_points(str(name), df, **columns)
        shown = shown if raw_by_system else columns  # the first system's columns name the tooltips
        raw_by_system[str(name)] = points
        if rounding is None:
            steps.append(_interpolated_steps(points) if interpolated else None)
            elevens.append(_eleven_points(points) if eleven_point else None)
        elif interpolated or eleven_point:
            relevant, n_relevant = _ranking_of(name, data, points, func=func)
            curve, eleven = _interpolation_by_rule(points, relevant, n_relevant, rounding)
            steps.append(curve)
            elevens.append(eleven)
    frames = {}
    if ap_area:
        frames["ap_area"] = _stack([_ap_area(points) for points in raw_by_system.values()],
                                   ["system", "recall", "precision", "AP area", "corner"])
    if interpolated:
        frames["steps"] = _stack(steps, ["system", "recall", "interpolated precision", "corner"])
    if raw_points:
        frames["raw"] = _stack([_raw_columns(points) for points in raw_by_system.values()],
                               ["system", "rank", "recall", "precision", "relevance"])
    if eleven_point:
        frames["eleven"] = _stack(elevens, ["system", "recall level", "interpolated precision"])
    markers = []
    if r_precision is not None:
        if not isinstance(r_precision, Mapping):
            raise ValueError(f"The 'r_precision' parameter of {func} must map system name to R-precision. "
                             f"Got {r_precision!r} instead.")
        markers += [{"system": str(name), "recall": float(value), "precision": float(value), "value": float(value),
                     "label": f"R-prec = {float(value):.3f}"} for name, value in r_precision.items()]
        frames["diagonal"] = table(recall=[0.0, 1.0], precision=[0.0, 1.0],
                                   line=[_("P = R (R-precision lies on it)")] * 2)
    if f_beta_rank is not None:
        ranks = f_beta_rank if isinstance(f_beta_rank, Mapping) else dict.fromkeys(raw_by_system, f_beta_rank)
        markers += _f_beta_markers(raw_by_system, {str(s): k for s, k in ranks.items()}, beta, func=func)
    labels = []
    if r_precision is not None or f_beta_rank is not None:
        marked = _rows(markers, ["system", "recall", "precision", "value", "label"])
        frames["markers"] = marked
        above = np.array([row["label"].startswith("R-prec") for row in markers], dtype=bool)
        right = np.array([row["recall"] > 0.6 for row in markers], dtype=bool)
        for place, rows in enumerate((~right & above, right & above, ~right & ~above, right & ~above)):
            if rows.any():
                frames[f"labels_{place}"] = marked.filter(pa.array(rows))
                labels.append(place)
    if not frames:
        frames["empty"] = pa.table({})
    layout = {"systems": list(raw_by_system), "layers": list(frames), "labels": labels,
              "rank": None if shown["rank"] is None else str(shown["rank"]), "recall": str(shown["recall"]),
              "precision": str(shown["precision"]), "title": title, "font_size": font_size, "width": width, "height": height}
    return ChartParts(_draw_precision_recall, layout, frames)


def _draw_precision_recall(data, layout: dict):
    layers_present, font_size = layout["layers"], layout["font_size"]
    scales = series_scales(layout["systems"])
    # A stroke symbol in the legend, so it shows each system's dash as well as its colour.
    colour = alt.Color("system:N", scale=scales["color"], title=_("system"),
                       legend=alt.Legend(symbolType="stroke", symbolOpacity=1, symbolStrokeWidth=3, columns=2))
    dash = alt.StrokeDash("system:N", scale=scales["strokeDash"], title=_("system"))
    x_recall = alt.X("recall:Q", scale=UNIT, title=_("recall"), axis=TENTHS)
    y_precision = alt.Y("precision:Q", scale=UNIT, title=_("precision"), axis=TENTHS)
    layers = []
    if "ap_area" in layers_present:
        layers.append(alt.Chart(data["ap_area"]).mark_area(interpolate="step-before", fillOpacity=0.18).encode(
            # stack=None: each system's area starts at 0, they overlap rather than pile up.
            # No order channel here: on an area mark it sets the stack order, and with it Chromium drew no
            # area at all. Area points are joined in x order, which is the corner order.
            x_recall, alt.Y("precision:Q", scale=UNIT, title=_("precision"), axis=TENTHS, stack=None), color=colour,
            tooltip=[alt.Tooltip("system:N"), alt.Tooltip("AP area:Q", format=".3f", title=_("area = AP"))]))
    if "steps" in layers_present:
        layers.append(alt.Chart(data["steps"]).mark_line(interpolate="step-before", strokeWidth=3).encode(
            x_recall, alt.Y("interpolated precision:Q", scale=UNIT, title=_("precision"), axis=TENTHS), color=colour,
            strokeDash=dash, order=alt.Order("corner:Q"),
            tooltip=[alt.Tooltip("system:N"), alt.Tooltip("recall:Q", format=".3f"),
                     alt.Tooltip("interpolated precision:Q", format=".3f")]))
    if "raw" in layers_present:
        tooltip = [alt.Tooltip("system:N"), alt.Tooltip("rank:Q", title=layout["rank"] or "rank"),
                   alt.Tooltip("relevance:N"),
                   alt.Tooltip("precision:Q", format=".3f", title=layout["precision"]),
                   alt.Tooltip("recall:Q", format=".3f", title=layout["recall"])]
        base = alt.Chart(data["raw"]).encode(x_recall, y_precision, color=colour, tooltip=tooltip)
        layers.append(base.mark_line(strokeWidth=1, opacity=0.5).encode(order=alt.Order("rank:Q")))
        layers.append(base.mark_point(filled=True, size=font_size * 6, opacity=0.9).encode(
            shape=alt.Shape("relevance:N", scale=_relevance_shapes(), title=_("rank is"),
                            legend=alt.Legend(columns=1, direction="vertical"))))
    if "eleven" in layers_present:
        layers.append(alt.Chart(data["eleven"]).mark_point(shape="square", filled=False, size=font_size * 10,
                                                           strokeWidth=2).encode(
            alt.X("recall level:Q", scale=UNIT, title=_("recall"), axis=TENTHS),
            alt.Y("interpolated precision:Q", scale=UNIT, title=_("precision"), axis=TENTHS), color=colour,
            tooltip=[alt.Tooltip("system:N"), alt.Tooltip("recall level:Q", format=".1f"),
                     alt.Tooltip("interpolated precision:Q", format=".3f", title=_("11-point interpolated precision"))]))
    if "diagonal" in layers_present:
        layers.append(alt.Chart(data["diagonal"]).mark_line(color=NEUTRAL_GREY, strokeDash=[2, 4],
                                                            strokeWidth=1.5).encode(
            x_recall, y_precision, tooltip=[alt.Tooltip("line:N", title=_("diagonal"))]))
    if "markers" in layers_present:
        marker_tooltip = [alt.Tooltip("system:N"), alt.Tooltip("label:N", title=_("marker")),
                          alt.Tooltip("recall:Q", format=".3f"), alt.Tooltip("precision:Q", format=".3f")]
        layers.append(alt.Chart(data["markers"]).encode(x_recall, y_precision, color=colour, tooltip=marker_tooltip)
                      .mark_point(shape="triangle-up", filled=True, size=font_size * 14, stroke="black",
                                  strokeWidth=1))
        for place in layout["labels"]:
            side, dy = _LABEL_PLACES[place]
            layers += haloed_text(alt.Chart(data[f"labels_{place}"]).encode(
                x_recall, y_precision, text=alt.Text("label:N"), tooltip=marker_tooltip), font_size=font_size,
                colour=colour, align=side, dx=font_size * (0.7 if side == "left" else -0.7), dy=font_size * dy,
                fontWeight="bold")
    chart = alt.layer(*layers) if layers else alt.Chart(data["empty"]).mark_point()
    return finish(chart, func="precision_recall_chart", title=layout["title"], font_size=font_size,
                  width=layout["width"], height=layout["height"])


def precision_recall_at_rank_chart(df, *, rank=BY_ROLE, precision=BY_ROLE, recall=BY_ROLE, grade=BY_ROLE,
                                   title=N_("Precision and recall down the ranking"), font_size=DEFAULT_FONT_SIZE,
                                   width="container", height=DEFAULT_HEIGHT):
    r"""P@i and R@i at every rank i: precision falls at each miss, recall climbs at each hit.

    .. math:: P@i = \frac{1}{i}\sum_{j \le i} \mathrm{rel}(j), \qquad R@i = \frac{1}{R}\sum_{j \le i} \mathrm{rel}(j)

    Parameters
    ----------
    df : DataFrame or Breakdown
        One row per rank, in ranked order, e.g. ``precision_recall_points_breakdown(rels)`` (or its
        ``table``).
    rank, precision, recall : str or BY_ROLE
        Column names of i, P@i and R@i; by default a breakdown's columns of these roles (in
        any language), else ``"rank"``, ``"P@i"`` and ``"R@i"``.
    grade : str, None or BY_ROLE
        Column of the relevance grades, written above each rank so relevance is read as a
        number, not a colour (by default a breakdown's ``grade`` column, else ``"rel"``). None
        leaves the grades out.
    {title, font_size, width, height}

    {Returns a layered chart}

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
    return precision_recall_at_rank_parts(df, rank=rank, precision=precision, recall=recall, grade=grade, title=title,
                                          font_size=font_size, width=width, height=height).chart()


def precision_recall_at_rank_parts(df, *, rank=BY_ROLE, precision=BY_ROLE, recall=BY_ROLE, grade=BY_ROLE,
                                   title=N_("Precision and recall down the ranking"), font_size=DEFAULT_FONT_SIZE,
                                   width="container", height=DEFAULT_HEIGHT) -> ChartParts:
    """:func:`precision_recall_at_rank_chart` as its frames and layout (see :class:`rankviz.charts.ChartParts`)."""
    func = "precision_recall_at_rank_chart"
    rank, precision = role_or(df, "rank", rank, "rank"), role_or(df, "precision", precision, "P@i")
    recall, grade = role_or(df, "recall", recall, "R@i"), role_or(df, "grade", grade, "rel")
    df = frame_of(df)
    require_columns(df, {"rank": rank, "precision": precision, "recall": recall, "grade": grade}, func=func)
    measures = [str(precision), str(recall)]
    ranks = df[rank].to_numpy()
    # The long form of (rank, P@i, R@i): every P@i row, then every R@i row (as DataFrame.melt lays it out).
    frames = {"long": table(rank=np.concatenate([ranks, ranks]),
                            measure=np.repeat(np.array(measures, dtype=object), len(df)),
                            value=np.concatenate([df[precision].to_numpy(), df[recall].to_numpy()]))}
    if grade is not None:
        grades = df[grade].to_numpy()
        labels = [f"{g:g}" if isinstance(g, (int, float, np.number)) else str(g) for g in grades.tolist()]
        frames["grades"] = table(rank=ranks, grade=grades, label=np.array(labels, dtype=object))
    layout = {"measures": measures, "rank": str(rank), "grade": None if grade is None else str(grade),
              "title": title, "font_size": font_size, "width": width, "height": height}
    return ChartParts(_draw_precision_recall_at_rank, layout, frames)


def _draw_precision_recall_at_rank(data, layout: dict):
    font_size, rank = layout["font_size"], layout["rank"]
    scales = series_scales(layout["measures"])
    base = alt.Chart(data["long"]).encode(
        alt.X("rank:Q", title=_("rank i"), scale=alt.Scale(domainMin=1, nice=False), axis=alt.Axis(tickMinStep=1)),
        alt.Y("value:Q", scale=alt.Scale(domain=[0, 1.04], nice=False), axis=alt.Axis(values=[0, .2, .4, .6, .8, 1]),
              title=_("value")),
        color=alt.Color("measure:N", scale=scales["color"], title=None),
        tooltip=[alt.Tooltip("rank:Q", title=rank), alt.Tooltip("measure:N"),
                 alt.Tooltip("value:Q", format=".3f")])
    # The legend shows each series' marker (colour and shape); its dash stays on the plot only: a dash
    # drawn over a filled marker made a blob.
    layers = [base.mark_line(strokeWidth=3).encode(strokeDash=alt.StrokeDash("measure:N", scale=scales["strokeDash"],
                                                                             title=None, legend=MARKER_LEGEND)),
              base.mark_point(filled=True, size=font_size * 6).encode(
                  shape=alt.Shape("measure:N", scale=scales["shape"], title=None))]
    if layout["grade"] is not None:
        layers.append(alt.Chart(data["grades"]).mark_text(fontSize=font_size, fontWeight="bold",
                                                          baseline="middle").encode(
            alt.X("rank:Q"), y=above_the_plot(font_size), text=alt.Text("label:N"),
            tooltip=[alt.Tooltip("rank:Q", title=rank), alt.Tooltip("grade:Q", title=_("{column} (grade)").format(column=layout["grade"]))]))
    return finish(alt.layer(*layers), func="precision_recall_at_rank_chart", title=layout["title"],
                  font_size=font_size, width=layout["width"], height=layout["height"])


def roc_chart(curves, *, fpr="FPR", tpr="TPR", threshold=None, auc=None, title=N_("ROC curve"),
              font_size=DEFAULT_FONT_SIZE, width="container", height=DEFAULT_HEIGHT):
    r"""ROC curves (true positive rate against false positive rate), several on one plot, with the chance diagonal.

    .. math:: \mathrm{TPR} = \frac{TP}{P}, \qquad \mathrm{FPR} = \frac{FP}{N}

    Parameters
    ----------
    curves : mapping of str to Breakdown, DataFrame or (fpr, tpr) pair
        Curve label (a query, a group, a model) -> its points in threshold order: a
        ``roc_curve_breakdown`` (or its ``table``), or two arrays.
    fpr, tpr : str
        Column names of the rates in the DataFrames.
    threshold : str, optional
        Column of the score thresholds (``"threshold"`` in ``roc_curve_breakdown``), shown in
        the tooltip; infinite thresholds read "∞".
    auc : mapping of str to float, optional
        Label -> its AUC, added to the legend ("q1 (AUC 0.750)").
    {title, font_size, width, height}

    {Returns a layered chart}

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
    return roc_parts(curves, fpr=fpr, tpr=tpr, threshold=threshold, auc=auc, title=title, font_size=font_size,
                     width=width, height=height).chart()


def roc_parts(curves, *, fpr="FPR", tpr="TPR", threshold=None, auc=None, title=N_("ROC curve"),
              font_size=DEFAULT_FONT_SIZE, width="container", height=DEFAULT_HEIGHT) -> ChartParts:
    """:func:`roc_chart` as its frames and layout (see :class:`rankviz.charts.ChartParts`)."""
    func = "roc_chart"
    if not isinstance(curves, Mapping) or not curves:
        raise ValueError(f"The 'curves' parameter of {func} must be a non-empty mapping of label to a DataFrame "
                         f"or an (fpr, tpr) pair. Got {curves!r} instead.")
    if auc is not None and not isinstance(auc, Mapping):
        raise ValueError(f"The 'auc' parameter of {func} must map curve label to AUC. Got {auc!r} instead.")
    parts = []
    for name, curve in curves.items():
        curve = frame_of(curve)
        if isinstance(curve, pd.DataFrame):
            require_columns(curve, {"fpr": fpr, "tpr": tpr, "threshold": threshold}, func=func,
                            name=f"curves[{name!r}]")
            points = {"fpr": curve[fpr].to_numpy(), "tpr": curve[tpr].to_numpy()}
            if threshold is not None:
                # The first threshold of a ROC table is +inf ("nothing is positive"), which JSON cannot hold.
                points["threshold"] = np.array([_threshold_label(t) for t in curve[threshold].tolist()], dtype=object)
        else:
            try:
                x, y = (np.asarray(values, dtype=float) for values in curve)
            except (TypeError, ValueError):
                raise ValueError(f"curves[{name!r}] of {func} must be a DataFrame or an (fpr, tpr) pair of number "
                                 f"sequences. Got {curve!r} instead.") from None
            if x.shape != y.shape or x.ndim != 1:
                raise ValueError(f"curves[{name!r}] of {func} must hold fpr and tpr of the same length; "
                                 f"got {x.size} and {y.size} values.")
            points = {"fpr": x, "tpr": y}
        label = f"{name} (AUC {float(auc[name]):.3f})" if auc is not None and name in auc else str(name)
        size = len(points["fpr"])
        parts.append({"curve": np.full(size, label, dtype=object), **points, "step": np.arange(size)})
    columns = ["curve", "fpr", "tpr"] + (["threshold"] if threshold is not None else []) + ["step"]
    data = {}
    for column in columns:
        # A curve given as arrays has no thresholds: None there, as a DataFrame concat leaves NaN.
        data[column] = np.concatenate([part[column] if column in part else np.full(len(part["fpr"]), None, object)
                                       for part in parts])
    frames = {"chance": table(fpr=[0.0, 1.0], tpr=[0.0, 1.0], line=["random scoring (AUC 0.5)"] * 2),
              "curves": table(**data)}
    layout = {"curves": list(dict.fromkeys(data["curve"].tolist())), "fpr": str(fpr), "tpr": str(tpr),
              "threshold": None if threshold is None else str(threshold), "title": title, "font_size": font_size,
              "width": width, "height": height}
    return ChartParts(_draw_roc, layout, frames)


def _draw_roc(data, layout: dict):
    font_size = layout["font_size"]
    scales = series_scales(layout["curves"])
    tooltip = [alt.Tooltip("curve:N"), alt.Tooltip("fpr:Q", format=".3f", title=layout["fpr"]),
               alt.Tooltip("tpr:Q", format=".3f", title=layout["tpr"])]
    if layout["threshold"] is not None:
        tooltip.append(alt.Tooltip("threshold:N", title=layout["threshold"]))
    base = alt.Chart(data["curves"]).encode(alt.X("fpr:Q", scale=UNIT, title=_("false positive rate"), axis=TENTHS),
                                            alt.Y("tpr:Q", scale=UNIT, title=_("true positive rate"), axis=TENTHS),
                                            color=alt.Color("curve:N", scale=scales["color"], title=None),
                                            tooltip=tooltip)
    layers = [
        alt.Chart(data["chance"]).mark_line(color=NEUTRAL_GREY, strokeDash=[6, 4], strokeWidth=1.5).encode(
            alt.X("fpr:Q", scale=UNIT), alt.Y("tpr:Q", scale=UNIT), tooltip=[alt.Tooltip("line:N", title=_("diagonal"))]),
        base.mark_line(strokeWidth=3).encode(order=alt.Order("step:Q"),
                                             strokeDash=alt.StrokeDash("curve:N", scale=scales["strokeDash"],
                                                                       title=None, legend=MARKER_LEGEND)),
        base.mark_point(filled=True, size=font_size * 5).encode(shape=alt.Shape("curve:N", scale=scales["shape"],
                                                                                title=None)),
    ]
    return finish(alt.layer(*layers), func="roc_chart", title=layout["title"], font_size=font_size,
                  width=layout["width"], height=layout["height"])


fill_docstrings(globals(), CHART_WORDS)  # the {title, font_size, width, height} lines above
