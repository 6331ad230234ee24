"""A chart in two parts: the frames that fill its named datasets, and how to draw them.

Building a layered chart with Altair and turning it into a Vega-Lite dict takes 50-150 ms;
most of that is the same on every call with the same options. Each builder is therefore split:
a function that checks the input and computes the frames (numpy columns in Arrow tables, about
a millisecond a chart: a pandas DataFrame costs about that much per frame to build, and as much
again to turn into the Arrow bytes Streamlit sends) and the *layout* (plain values: the options,
and the few facts about the data the spec itself depends on, such as the series names of a
scale's domain), and a ``draw`` function that lays the frames out with Altair. What else depends
on the data goes into the frames (an axis order becomes an order column the axis sorts by) or
into ``top_level`` (a subtitle that counts something). The public builders draw the frames themselves (``ChartParts.chart``); the app draws
a *template* once per layout, with the frames referenced by name (``ChartParts.template``), and
sends the frames beside it, so an edit that only changes the data never runs Altair.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import altair as alt
import numpy as np
import pyarrow as pa

from rankviz.i18n import language

__all__ = ["ChartParts"]


@dataclass(frozen=True)
class ChartParts:
    """The frames of a chart and how to draw them.

    Attributes
    ----------
    draw : callable
        ``draw(data, layout) -> alt chart``: ``data`` maps each frame's name to what an
        ``alt.Chart`` takes (the DataFrame itself, or ``alt.NamedData(name)``).
    layout : dict
        Everything ``draw`` reads besides the rows: plain picklable values (options, series names).
    frames : dict of str to pyarrow.Table
        The named datasets.
    top_level : dict
        Top-level spec properties that depend on the data, such as a title with counts in it
        (``{"title": {"text": ..., "subtitle": ...}}``): not in the template, set on top of it.
    """

    draw: Callable[[Mapping, dict], alt.TopLevelMixin]
    layout: dict
    frames: dict = field(default_factory=dict)
    top_level: dict = field(default_factory=dict)

    def chart(self):
        """The Altair chart, data inline (what the public builders return)."""
        chart = self.draw({name: frame.to_pandas() for name, frame in self.frames.items()}, self.layout)
        for name, value in self.top_level.items():
            setattr(chart, name, value)
        return chart

    def template(self, *, validate: bool = False) -> dict:
        """The Vega-Lite spec without its rows: every layer reads a named dataset, ``frames[name]``.

        It depends on ``draw`` and ``layout`` only, so it can be cached by them; add
        ``"datasets": {name: rows}`` and ``top_level`` to draw it.
        """
        named = {name: alt.NamedData(name=name) for name in self.frames}
        return self.draw(named, self.layout).to_dict(validate=validate)

    def template_key(self) -> tuple:
        """What the template depends on, hashable: the drawing function's name, the language in force
        (titles, axes and legends are drawn in it) and the layout's repr (plain values, so equal
        layouts give equal text)."""
        return (f"{self.draw.__module__}.{self.draw.__qualname__}", language(), repr(self.layout))


def table(**columns) -> pa.Table:
    """An Arrow table of equal-length columns (arrays or lists); NaN becomes null, as from pandas."""
    return pa.table({name: _arrow_column(values) for name, values in columns.items()})


def table_of(df) -> pa.Table:
    """A DataFrame's columns as an Arrow table (names as text, the index left out)."""
    return table(**{str(column): df[column].to_numpy() for column in df.columns})


def _arrow_column(values) -> pa.Array:
    array = np.asarray(values)
    try:
        return pa.array(array, from_pandas=True)
    except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError):
        # Mixed kinds in one column (a user's rank column of 1, "2", ...): their text, as Streamlit shows them.
        return pa.array([None if value is None else str(value) for value in array.tolist()], type=pa.string())
