"""The look every rankviz chart shares: palette, marker shapes, dashes, type sizes, sizing.

Colours are the Okabe-Ito palette (Okabe & Ito, "Color Universal Design", 2008), readable by
viewers with any common colour-vision deficiency. Its yellow is left out: it vanishes on a white
projector screen. Colour never carries meaning alone: every series also gets a marker shape or a
dash pattern, and relevance is spelled out in text or shape.
"""

from __future__ import annotations

import altair as alt

from rankviz.i18n import _

from rankviz.metrics.validation import check_positive_number

__all__ = [
    "OKABE_ITO",
    "SERIES_COLOURS",
    "SERIES_SHAPES",
    "SERIES_DASHES",
    "DEFAULT_FONT_SIZE",
    "DEFAULT_HEIGHT",
    "chart_config",
    "projector_theme",
    "MARKER_LEGEND",
    "above_the_plot",
    "haloed_text",
]

OKABE_ITO = {
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "bluish green": "#009E73",
    "reddish purple": "#CC79A7",
    "orange": "#E69F00",
    "sky blue": "#56B4E9",
    "black": "#000000",
    "yellow": "#F0E442",
}
# Darkest first: the first two series (the usual "system vs ideal", "run A vs run B") get the
# pair with the highest contrast against white and against each other.
SERIES_COLOURS = [OKABE_ITO[name] for name in
                  ("blue", "vermillion", "bluish green", "reddish purple", "orange", "sky blue", "black")]
SERIES_SHAPES = ["circle", "square", "triangle-up", "diamond", "cross", "triangle-down", "triangle-right",
                 "triangle-left"]
# Vega stroke dash arrays: solid, dashed, dotted, dash-dot, long dash.
SERIES_DASHES = [[1, 0], [8, 4], [2, 3], [8, 3, 2, 3], [14, 4]]
NEUTRAL_GREY = "#767676"  # 4.5:1 against white: the lightest grey that passes WCAG AA for text

DEFAULT_FONT_SIZE = 16
# The whole chart, title and legend included: Streamlit sizes charts with autosize "fit".
# 420 px leaves room for a page heading on a 720 px projector screen.
DEFAULT_HEIGHT = 420

# What the docstring of every chart builder says of its size and type options and of what it
# returns (placed by rankviz._docstrings: each chart module ends with fill_docstrings(globals(), CHART_WORDS)).
CHART_WORDS = {
    "title, font_size, width, height": f"""
        title : str
            Chart title.
        font_size : float, default {DEFAULT_FONT_SIZE}
            Axis and legend type size in pixels (22 for a projector).
        width : "container" or int, default "container"
            "container" fills the page column, so the chart is never cut off.
        height : int, default {DEFAULT_HEIGHT}
            Height in pixels of the whole chart, title and legend included.
        """,
    "Returns a layered chart": """
        Returns
        -------
        alt.LayerChart
        """,
}


def chart_config(font_size: float = DEFAULT_FONT_SIZE) -> dict:
    """Vega-Lite ``config`` with type sized for a lecture hall: every label at least ``font_size`` px.

    Parameters
    ----------
    font_size : float, default 16
        Size in pixels of axis labels and legend entries; titles are a quarter larger.

    Returns
    -------
    dict
        Keyword arguments for ``alt.Chart.configure``.

    Examples
    --------
    >>> chart_config(20)["axis"]["labelFontSize"]
    20.0
    """
    size = check_positive_number(font_size, func="chart_config", name="font_size")
    title_size = round(size * 1.25, 1)
    return {
        "font": "Source Sans Pro, Helvetica, Arial, sans-serif",
        "title": {"fontSize": title_size, "subtitleFontSize": size, "anchor": "start", "offset": 10},
        "axis": {"labelFontSize": size, "titleFontSize": size, "titleFontWeight": "bold", "labelLimit": 240,
                 "gridColor": "#dddddd", "domainColor": "#444444", "tickColor": "#444444",
                 "labelColor": "#222222", "titleColor": "#000000"},
        "legend": {"labelFontSize": size, "titleFontSize": size, "symbolSize": size * 12,
                   "symbolStrokeWidth": 2.5, "labelLimit": 320, "orient": "bottom", "direction": "horizontal",
                   # Four entries a row: a legend of many series wraps instead of widening the chart.
                   "columns": 4, "titleOrient": "left", "labelColor": "#222222", "titleColor": "#000000"},
        "header": {"labelFontSize": size, "titleFontSize": size},
        "range": {"category": SERIES_COLOURS},
        "view": {"stroke": None},
    }


def projector_theme(font_size: float = 22) -> dict:
    """A Vega-Lite theme with large type and the colour-blind-safe palette, for charts a page draws itself.

    The chart builders of :mod:`rankviz.charts` configure their own type size (their
    ``font_size`` parameter); this theme gives any other Altair chart of the app the same look.

    Parameters
    ----------
    font_size : float, default 22
        Axis label and legend size in pixels (22 matches Streamlit's ``--theme.baseFontSize 22``).

    Returns
    -------
    dict
        ``{"config": {...}}``, the form ``alt.theme.register`` expects.

    Examples
    --------
    >>> import altair as alt
    >>> @alt.theme.register("rankviz_projector", enable=False)
    ... def _theme():
    ...     return projector_theme(24)
    >>> projector_theme(24)["config"]["legend"]["labelFontSize"]
    24.0
    """
    config = chart_config(font_size)
    config["view"] = {"stroke": None, "continuousHeight": DEFAULT_HEIGHT}
    return {"config": config}


def finish(chart, *, func: str, title, font_size, width, height):
    """Size and style a built chart: container width, given height, title, projector-sized type."""
    if not (width == "container" or (isinstance(width, int) and not isinstance(width, bool) and width > 0)):
        raise ValueError(f"The 'width' parameter of {func} must be 'container' or a positive int. "
                         f"Got {width!r} instead.")
    if isinstance(height, bool) or not isinstance(height, int) or height <= 0:
        raise ValueError(f"The 'height' parameter of {func} must be a positive int. Got {height!r} instead.")
    font_size = check_positive_number(font_size, func=func, name="font_size")
    # Set in place rather than with .properties()/.configure(): each of those deep-copies the whole
    # chart, which took most of the build time, and this chart was just built by the caller.
    chart.width = width
    chart.height = height
    if title:
        chart.title = _(title)  # a builder's default title is marked for the catalogue; a caller's own stays
    chart.config = alt.Config(**chart_config(font_size))
    return chart


def series_scales(names) -> dict:
    """Colour, shape and dash scales that give each named series the same look on every layer."""
    names = list(dict.fromkeys(names))
    return {
        "color": alt.Scale(domain=names, range=[SERIES_COLOURS[i % len(SERIES_COLOURS)] for i in range(len(names))]),
        "shape": alt.Scale(domain=names, range=[SERIES_SHAPES[i % len(SERIES_SHAPES)] for i in range(len(names))]),
        "strokeDash": alt.Scale(domain=names, range=[SERIES_DASHES[i % len(SERIES_DASHES)] for i in range(len(names))]),
    }


# The legend of a series drawn as a dashed line with filled markers: the markers' colour and shape,
# without an outline (a dash drawn round a filled symbol made a blob). A dash channel given
# legend=None would drop the whole legend its channels share: Vega-Lite merges them.
MARKER_LEGEND = alt.Legend(symbolStrokeWidth=0)


def above_the_plot(font_size: float):
    """A y position in a row just above the plot area: labels there (the grade of each rank) never
    sit on a bar, a line or a marker, however high the data reach."""
    return alt.value(-1.2 * font_size)


def haloed_text(base, *, font_size: float, colour=None, **mark) -> list:
    """A label as two text layers: first the text in a thick white outline, then the text itself
    (coloured by ``colour``, an encoding), so a line or curve crossing the label does not cross its
    letters ("F2@15 = 0.455" over the diagonal P = R).

    ``base``: an ``alt.Chart`` with the label's x, y and text encoded; ``mark``: ``mark_text`` options.
    """
    halo = base.mark_text(fontSize=font_size, color="white", stroke="white", strokeWidth=font_size * 0.35,
                          strokeJoin="round", **mark)
    text = base.mark_text(fontSize=font_size, **mark)
    return [halo, text.encode(color=colour) if colour is not None else text]
