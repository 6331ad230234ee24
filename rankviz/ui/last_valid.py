"""Values kept across reruns: the last valid input while the text or table just typed does not
parse, a choice whose options changed, a chart click taken once.

Every input a student types (a grade list, a table of queries, a click log, a number in a field)
goes through :func:`parse_or_last_valid`: its value when it parses, kept; else an error beside
the input and the value of the last input that parsed (at first the default), so the page below
always has something to work out and never shows a traceback. The value is kept under
:func:`~rankviz.ui.link.last_valid_key` of the input's widget key, which Back/Forward forgets
with the input's own value: a bad value in a restored link then falls back to the default, as in
a freshly opened one. A result computed from uploaded files is kept by
:func:`rankviz.ui.uploads.remember_result`, and shown again only for the very same files.

:func:`keep_choice` keeps a select box's value among options that change with the input (the
groups of a click log, the metrics picked), and :func:`chart_pick` reads a click on a chart once,
so the select box it sets can be changed afterwards.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import streamlit as st

from rankviz.i18n import _
from rankviz.ui.link import keep_last_valid_in_link, last_valid_key
from rankviz.ui.url_keys import URL_KEYS

__all__ = ["parse_or_last_valid", "keep_choice", "chart_pick"]

T = TypeVar("T")


def parse_or_last_valid(key: str, parse: Callable[[], T], *, default, where=None,
                        message: str | Callable[[ValueError, T], str] | None = None,
                        icon: str | None = None) -> T:
    """``parse()``, or after a ``ValueError`` the last value it returned for ``key``.

    Parameters
    ----------
    key : str
        The input's widget key (a table editor's, a text field's).
    parse : callable
        No arguments; returns the value or raises ``ValueError`` with a message for the student.
    default : value or callable
        The value before any input parsed (a callable is called only when it is needed).
    where : container, optional
        Where the error is shown (default: the page).
    message : str or callable, default "Still using the last valid input."
        A sentence after the error's own message, or ``message(error, value)`` for the whole
        text (``value`` is the one kept in force).
    icon : str, optional
        The error's icon.

    Returns
    -------
    The parsed value, or the last valid one.
    """
    last = last_valid_key(key)
    try:
        value = parse()
    except ValueError as error:
        if key in URL_KEYS:  # the link keeps the last valid text: a copied link never opens an error
            keep_last_valid_in_link(key)
        if last in st.session_state:
            value = st.session_state[last]
        else:
            value = default() if callable(default) else default
        if message is None:
            message = _("Still using the last valid input.")
        text = message(error, value) if callable(message) else f"{error} {message}"

        (where if where is not None else st).error(text, icon=icon)
        return value
    st.session_state[last] = value
    return value


def keep_choice(key: str, options, default) -> None:
    """Before the select box of ``key`` is drawn: its value stays when it is still among
    ``options``, else becomes ``default`` (Streamlit would raise on a value no longer offered)."""
    if st.session_state.get(key) not in list(options):
        st.session_state[key] = default


def chart_pick(event, field: str, *, key: str):
    """The ``field`` of the datum just clicked in a chart's ``pick`` selection, once per click
    (None otherwise): the selection stays in the event on later reruns, and taking it again
    would undo a choice made since in the select box it sets. ``key`` names the chart."""
    picked = (event or {}).get("selection", {}).get("pick") or []
    value = picked[0].get(field) if picked and isinstance(picked[0], dict) else None
    seen = f"_chart_pick_{key}"
    if value == st.session_state.get(seen):
        return None
    st.session_state[seen] = value
    return value
