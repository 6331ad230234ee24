"""Small widgets and renderers the teaching pages (precision-recall, graded, correlation,
homework) share beyond the foundation's editor and settings: settings kept in the link, number
fields that keep their last valid value, the charts' type size for the projector, and a course
preset's printed numbers beside the exact ones. (Charts are drawn by ``rankviz.ui.cached_charts``.)
"""

from __future__ import annotations

import math

import streamlit as st

from rankviz.teaching.export import format_number
from rankviz.ui.state import forget_with_link, url_flag, write_url_param

__all__ = ["chart_font_size", "from_link", "to_link", "link_text_input", "link_toggle",
           "link_selectbox", "number_field", "choice_field", "printed_vs_exact"]


def chart_font_size() -> int:
    """Axis and label type: 22 px in projector mode, 16 px otherwise."""
    return 22 if st.session_state.get("projector") else 16


def from_link(key: str, default, *, convert=str) -> None:
    """Before drawing the keyed widget ``key``: its first value in the session comes from the link
    (``?key=...``), else ``default``.

    Like the foundation's ``sync_url`` (rankviz.ui.state), and for the same reason, the pages'
    own settings do not use ``bind="query-params"``: in Streamlit 1.67 a bound widget first drawn
    on a page reached by a page switch returned its default for one run. Widgets keep their value
    for the session (``persist_state="session"``) and :func:`to_link` mirrors it in the URL.
    Browser Back/Forward to another link drops the value (``forget_with_link``), so it is read
    from that link again.
    """
    forget_with_link(key)
    if key not in st.session_state:
        raw = st.query_params.get(key)
        st.session_state[key] = default if raw is None else convert(raw)


def to_link(key: str, default) -> None:
    """After drawing ``key``: write its value into the URL, or drop it there when it is the default
    (:func:`rankviz.ui.state.write_url_param`, the writer ``sync_url`` uses too)."""
    write_url_param(key, st.session_state.get(key), default)


def link_text_input(label: str, *, key: str, default: str = "", help: str, container=None, **kwargs) -> str:
    """A text input whose value is in the link (``?key=text``)."""
    box = container if container is not None else st
    from_link(key, default)
    text = box.text_input(label, key=key, help=help, persist_state="session", **kwargs)
    to_link(key, default)
    return text


def link_toggle(label: str, *, key: str, help: str = "", container=None) -> bool:
    """A toggle whose value is in the link (``?key=true``)."""
    box = container if container is not None else st
    from_link(key, False, convert=url_flag)
    on = box.toggle(label, key=key, help=help or None, persist_state="session")
    to_link(key, False)
    return on


def _check_choice(key: str, options, default, box) -> None:
    """A value the widget cannot show (``?rounding=bogus`` in a link): say so and use the default."""
    value = st.session_state.get(key)
    if value not in options:
        box.error(f"{key} = {value!r} is not one of {', '.join(map(str, options))}; using {default}.")
        st.session_state[key] = default


def link_selectbox(label: str, options, *, key: str, default, help: str = "", container=None):
    """A selectbox of plain values kept in the link; an unknown value says so and falls back to ``default``."""
    box = container if container is not None else st
    from_link(key, default)
    _check_choice(key, options, default, box)
    chosen = box.selectbox(label, list(options), key=key, help=help or None, persist_state="session")
    to_link(key, default)
    return chosen


def number_field(label: str, *, key: str, default: float, minimum: float, maximum: float, help: str,
                 container=None, whole: bool = False) -> float:
    """A text field in the link (``?key=value``) holding a number in [minimum, maximum].

    A bad value shows an error beside the field and the last valid value stays in force.
    """
    text = link_text_input(label, key=key, default=format_number(default), help=help, container=container)
    box = container if container is not None else st
    last_key = f"_{key}_last_valid"
    forget_with_link(key, last_key)  # after Back/Forward, a bad value in the link falls back to the default
    kind = "a whole number" if whole else "a number"
    try:
        value = float(str(text).strip().replace(",", "."))
        if not math.isfinite(value) or not minimum <= value <= maximum or (whole and not value.is_integer()):
            raise ValueError
    except ValueError:
        value = st.session_state.get(last_key, default)
        box.error(f"{label} must be {kind} from {format_number(minimum)} to {format_number(maximum)}; "
                  f"got {str(text).strip()!r}. Still using {format_number(value)}.")
        return value
    value = int(value) if whole else value
    st.session_state[last_key] = value
    return value


def choice_field(label: str, options: dict, *, key: str, default: str, help: str, container=None,
                 horizontal: bool = True) -> str:
    """A radio in the link whose options are plain values (``?key=value``), each with a caption.

    ``options`` maps value -> caption. An unknown value in the URL says so and falls back to ``default``.
    """
    box = container if container is not None else st
    from_link(key, default)
    _check_choice(key, options, default, box)
    chosen = box.radio(label, list(options), key=key, captions=list(options.values()), help=help,
                       horizontal=horizontal, persist_state="session")
    to_link(key, default)
    return chosen


def printed_vs_exact(preset, exact: dict, *, convention: str = "", where=None) -> None:
    """The numbers a course note prints beside the exact ones, and the note saying why they differ.

    ``exact`` maps a key of ``preset.printed`` to ``(label, exact value)``, the value computed by the
    page's rankviz call under the preset's convention (named by ``convention``).
    """
    box = where or st
    rows = [f"| {label} | {preset.printed[name]} | {format_number(value, 3)} |"
            for name, (label, value) in exact.items() if name in preset.printed]
    if not rows:
        return
    exact_header = f"exact ({convention})" if convention else "exact"
    table = "\n".join([f"| value | the course note prints | {exact_header} |", "|---|---|---|", *rows])
    box.info(f"**Course exercise: {preset.title}**\n\n{table}\n\n{preset.note}\n\n*Source: {preset.source}*",
             icon=":material/school:")
