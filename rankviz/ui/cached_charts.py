"""``show_chart``: draw a ``rankviz.charts`` builder's chart without rebuilding it in Altair on every rerun.

Building an Altair chart and turning it into a Vega-Lite spec costs 50-150 ms a chart on a busy
machine, almost all of it the same whatever the data. Two caches avoid it:

- the whole spec (a dict, datasets as Arrow bytes) per builder, data and options: a rerun that
  changed nothing redraws it as is;
- the template per builder and layout (``rankviz.charts.chart_parts``: the options and the few
  facts of the data the spec depends on, such as series names): an edit of the data recomputes
  the frames (about a millisecond a chart), fills the template's named datasets with them and
  never runs Altair.

The spec is drawn with ``st.vega_lite_chart``, which takes it as is. Selections work the same
way: ``on_select="rerun"`` returns the event dict with ``["selection"][name]``.
"""

from __future__ import annotations

import html

import streamlit as st

from rankviz.charts.descriptions import chart_description
from rankviz.i18n import language
from rankviz.ui.cached_results import fingerprint

__all__ = ["chart_spec", "show_chart"]


def chart_spec(builder: str, data, options: tuple) -> dict:
    """The Vega-Lite spec of ``rankviz.charts.<builder>(data, **dict(options))``, cached by the
    builder, the data, the options (see ``fingerprint``) and the language (titles and axes are words)."""
    return _chart_spec(builder, fingerprint(language(), data, options), data, options)


@st.cache_data(max_entries=256, show_spinner=False)
def _chart_spec(builder: str, key, _data, _options: tuple) -> dict:
    """The Vega-Lite spec of ``rankviz.charts.<builder>(_data, **dict(_options))``.

    Its named datasets are stored as Arrow IPC bytes, the form ``st.vega_lite_chart`` sends them
    in: given rows, it would convert every dataset again on every rerun (a few ms each); given
    bytes, it passes them through.
    """
    import rankviz.charts as charts

    parts = charts.chart_parts(builder, _data, **dict(_options))
    if parts is None:
        # No JSON-schema validation here: it is most of to_dict's time on every edit, and the same
        # spec is validated by tests/test_charts.py, which builds every chart with validation on.
        spec = getattr(charts, builder)(_data, **dict(_options)).to_dict(validate=False)
        return _datasets_as_arrow(spec)
    spec = _template((language(), parts.template_key()), parts)
    spec.update(parts.top_level)
    spec["datasets"] = {name: _arrow_bytes(frame) for name, frame in parts.frames.items()}
    return spec


@st.cache_data(max_entries=128, show_spinner=False)
def _template(key, _parts) -> dict:
    """The spec of ``_parts`` without rows (cache_data hands out a copy, so the caller may add them)."""
    return _parts.template(validate=False)


def _arrow_bytes(rows):
    try:
        from streamlit.dataframe_util import convert_anything_to_arrow_bytes
    except ImportError:  # a Streamlit without it: st.vega_lite_chart converts the rows itself
        return rows.to_pylist() if hasattr(rows, "to_pylist") else rows
    return convert_anything_to_arrow_bytes(rows)


def _datasets_as_arrow(spec: dict) -> dict:
    datasets = spec.get("datasets")
    if isinstance(datasets, dict):
        # The conversion st.vega_lite_chart applies to tabular rows (rankviz draws no GeoJSON, which it keeps).
        spec["datasets"] = {name: _arrow_bytes(rows) if isinstance(rows, list) else rows
                            for name, rows in datasets.items()}
    return spec


def show_chart(builder: str, data, *, key: str, on_select="ignore", **options):
    """Draw ``rankviz.charts.<builder>(data, **options)`` (options must be hashable values).

    Returns what ``st.vega_lite_chart`` returns: the selection event when ``on_select="rerun"``.
    """
    spec = chart_spec(builder, data, tuple(sorted(options.items())))
    event = st.vega_lite_chart(spec, key=key, on_select=on_select, width="stretch")
    # The chart's text alternative, read by screen readers and hidden on screen (the captions below the
    # charts say the same to everyone in the room).
    alt = html.escape(chart_description(builder, title=str(options.get("title") or "")))
    st.markdown(f'<p class="rv-sr-only">{alt}</p>', unsafe_allow_html=True)
    return event
