"""The address bar is the shareable link: one helper draws every widget whose value is in the URL.

Every such value is a row of :mod:`rankviz.ui.url_keys` and is drawn with :func:`link_widget`;
app.py calls :func:`follow_link` at the top of every run and :func:`sync_url` at its end (a page
that stops early calls :func:`stop`, which writes the link first). So
``/graded?rels=3,2,3,0,1,2&gain=exponential`` opens exactly that state, every edit updates the
address, and browser Back/Forward shows the state of each address the app wrote.

How, and why so (Streamlit 1.67: the first point was seen in AppTest, the second read in
Streamlit's source and frontend bundle; tests/e2e/test_history.py presses the real buttons):

* **Value.** A widget's value lives in its own key, drawn with ``persist_state="session"`` and
  set again just before it is drawn. ``persist_state`` keeps the value while a page without the
  widget runs, but a widget first drawn on another page (the ranking box on the graded page
  after the one-ranking page) computes its default in its first run unless the key is set
  before the call.
* **Writing the URL.** The app writes ``st.query_params`` itself, once at the end of a run and
  as one message (``from_dict``): each message is a browser history entry, so a course
  exercise that sets the ranking, gain and R at once makes one entry, never half of one. Not
  ``bind="query-params"``: a bound widget's own edits replace the current history entry
  (``window.history.replaceState`` in the frontend), so Back would skip every edit, while
  bound values set by code push one entry each; and a bound parameter cannot be written
  through ``st.query_params`` at all.
* **Reading the URL.** A value is taken from the link the session opened with (or the one
  Back/Forward restored) the first time its widget is drawn, else the table's default; later
  the session's value wins.
* **Only valid values.** A field whose text is not valid shows the error beside it and calls
  :func:`keep_last_valid_in_link`: the field keeps what was typed, the link its last valid text,
  so a copied link reopens what the page showed, never the error.
* **Back/Forward.** The browser reruns the app with the history entry's query string and flags
  the run as history navigation (:func:`history_navigation`). A page switch also reruns with
  the app's parameters stripped, without the flag: the state stays and the page writes its
  link again. When a flagged run's link differs from what the app last wrote,
  :func:`follow_link` forgets every value that link or the last written one holds, so each is
  read again from the restored link, as a fresh session opening it would. Values of other
  pages (in neither link) stay. An entry holding none of the app's parameters is skipped:
  Streamlit may push one on a page switch, before the app writes its parameters.
"""

from __future__ import annotations

from typing import NoReturn

import streamlit as st

from rankviz.i18n import _
from rankviz.ui.url_keys import FROM_PAGE, URL_KEYS, from_url, url_key, url_text

__all__ = ["link_widget", "current_value", "set_value", "link_value", "keep_in_link", "last_valid_key",
           "keep_last_valid_in_link", "follow_link", "sync_url", "stop", "history_navigation"]

_READ = "_link_read"          # the session has read a link
_LINK = "_link_opened"        # {URL parameter: text} of the link read (at the start, or after Back/Forward)
_WRITTEN = "_link_written"    # {URL parameter: text the app last wrote there, None when left out}
_DRAWN = "_link_drawn"        # {widget key: default} shown in this run: sync_url writes these (tests read it)
_INVALID = "_link_invalid"    # widget keys whose text is not valid in this run: the link keeps their last valid text
_VALID = "_link_valid"        # {widget key: its last valid value, as last written to the link}
_NOT_GIVEN = object()


def last_valid_key(widget_key: str) -> str:
    """The session-state key under which a field keeps its last valid value (a number, a grade
    list) while its text is bad; forgotten with the field's value on Back/Forward."""
    return f"_last_valid_{widget_key}"


def keep_last_valid_in_link(widget_key: str) -> None:
    """Say that the text of ``widget_key`` is not valid in this run (its field shows the error and
    the page goes on with its last valid value): the link keeps the last valid text, at first the
    default, so a copied link opens what the page shows, never an error (``?rels=2,abc,1&k=0``).
    The field keeps what was typed. Call it where the error is shown, before ``sync_url``."""
    url_key(widget_key)
    st.session_state.setdefault(_INVALID, set()).add(widget_key)


def link_value(widget_key: str):
    """The value the link read by this session holds for ``widget_key`` (a bool for a flag, else
    text), or None when the link does not hold it."""
    key = url_key(widget_key)
    text = st.session_state.get(_LINK, {}).get(key.name)
    return None if text is None else from_url(key, text)


def current_value(widget_key: str, default=None):
    """What the widget of ``widget_key`` shows (or would show if drawn now): the session's value,
    else the link's, else the table's default (else ``default`` when the table leaves it to the page)."""
    if widget_key in st.session_state:
        return st.session_state[widget_key]
    from_link = link_value(widget_key)
    if from_link is not None:
        return from_link
    table_default = url_key(widget_key).default
    return default if table_default is FROM_PAGE else table_default


def set_value(widget_key: str, value) -> None:
    """Set the value of a widget in the link; only before it is drawn in this run (or in a callback)."""
    url_key(widget_key)
    st.session_state[widget_key] = value


def _default(widget_key: str, given):
    table_default = url_key(widget_key).default
    if table_default is FROM_PAGE:
        if given is _NOT_GIVEN:
            raise ValueError(f"The default of URL key {widget_key!r} comes from the page: pass default=.")
        return given
    if given is not _NOT_GIVEN and given != table_default:
        raise ValueError(f"URL key {widget_key!r} has the default {table_default!r} in rankviz/ui/url_keys.py; "
                         f"got default={given!r}.")
    return table_default


def _shown(widget_key: str, default) -> None:
    """Record that this run shows ``widget_key``: sync_url writes its value (left out when ``default``)."""
    st.session_state.setdefault(_DRAWN, {})[widget_key] = default


def link_widget(widget, label: str, *args, key: str, default=_NOT_GIVEN, **kwargs):
    """Draw ``widget`` (e.g. ``st.text_input``, ``column.radio``) with its value kept in the link.

    ``key`` must be a row of :mod:`rankviz.ui.url_keys`: it is the widget's key and names the
    URL parameter. Its value is the session's, or on first use the link's, or the table's
    default (``default=`` only where the table leaves the default to the page). A choice
    widget's value that is not among its options (``?gain=cubic`` in a link) is said beside
    the widget and replaced by the default. Returns what the widget returns.
    """
    spec = url_key(key)
    default = _default(key, default)
    value = current_value(key, default)
    if spec.kind == "choice":
        options = list(args[0] if args else kwargs["options"])
        if value not in options:
            box = getattr(widget, "__self__", st)  # the column or container the widget goes in
            box.error(_("{key} = {value} is not one of {options}; using {default}.").format(
                key=key, value=repr(value), options=", ".join(map(str, options)), default=default))
            value = default
    st.session_state[key] = value
    _shown(key, default)
    return widget(label, *args, key=key, persist_state="session", **kwargs)


def keep_in_link(widget_key: str, text: str, *, default) -> None:
    """Keep a value that no widget shows (a page's table as text) in the link from this run on,
    left out while it equals ``default``. Read it back with :func:`link_value`."""
    url_key(widget_key)
    st.session_state[widget_key] = text
    _shown(widget_key, default)


def history_navigation() -> bool:
    """True when the browser's Back/Forward started this run.

    Streamlit 1.67 has no public way to tell: it sets ``is_history_navigation`` on the run's
    script-run context (what its own ``bind="query-params"`` restore reads). This function is
    the app's only read of that private attribute. Without it, a rerun whose link differs from
    what the app wrote could not be told from Back/Forward: a page switch reruns with the link
    stripped too, and must keep the state.
    """
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    return bool(getattr(get_script_run_ctx(), "is_history_navigation", False))


def _read_link() -> None:
    st.session_state[_READ] = True
    st.session_state[_LINK] = {name: st.query_params[name] for name in st.query_params}


def _link_moved_in_history() -> bool:
    """Back/Forward brought a link whose values differ from those the app last wrote (see the
    module docstring); an entry holding none of the app's parameters does not count."""
    if not history_navigation():
        return False
    written = st.session_state.get(_WRITTEN, {})
    names = {key.name for key in URL_KEYS.values()}
    if not any(name in st.query_params for name in names):
        return False
    return any(st.query_params.get(name) != text for name, text in written.items())


def _forget_what_the_links_hold() -> set[str]:
    """Drop every value the restored link or the last written one holds; returns their widget keys."""
    written = st.session_state.get(_WRITTEN, {})
    forgotten = {key.widget_key for key in URL_KEYS.values() if key.name in st.query_params or key.name in written}
    for widget_key in forgotten:
        st.session_state.pop(widget_key, None)
        st.session_state.pop(last_valid_key(widget_key), None)
        st.session_state.get(_VALID, {}).pop(widget_key, None)
    st.session_state[_WRITTEN] = {}
    return forgotten


def _forget_records_left_out_of_the_link() -> None:
    """Keep the record of what the app wrote to what the URL still holds: a page switch strips the
    parameters, and those of the page left are no longer in the link."""
    written = st.session_state.get(_WRITTEN)
    if written:
        st.session_state[_WRITTEN] = {name: text for name, text in written.items()
                                      if text is None or st.query_params.get(name) == text}


def follow_link() -> set[str]:
    """Run at the top of every script run, before any widget is drawn.

    A session's first run reads the link; a Back/Forward run to a link other than the one the
    app wrote forgets what the two links hold and reads the restored link. Returns the widget
    keys forgotten (empty on every other run), so state derived from them (the canonical
    ranking, see ``rankviz.ui.state``) can be dropped too.
    """
    st.session_state[_DRAWN] = {}
    st.session_state[_INVALID] = set()
    if not st.session_state.get(_READ):
        _read_link()
        return set()
    if _link_moved_in_history():
        forgotten = _forget_what_the_links_hold()
        _read_link()
        return forgotten
    _forget_records_left_out_of_the_link()
    return set()


def sync_url() -> None:
    """Write the values shown in this run into the URL (run at the end of app.py, even when a
    page stopped early).

    Values equal to their default are left out; parameters this run did not show stay as they
    are; a value said not valid (:func:`keep_last_valid_in_link`) is written as its last valid
    one. All changes go out as one message, so the browser keeps one history entry for them.
    """
    valid, invalid = st.session_state.setdefault(_VALID, {}), st.session_state.get(_INVALID, set())
    wanted = {}
    for widget_key, default in st.session_state.get(_DRAWN, {}).items():
        if widget_key in invalid:
            value = valid.get(widget_key, default)
        else:
            value = valid[widget_key] = st.session_state.get(widget_key)
        wanted[URL_KEYS[widget_key].name] = url_text(value, default)
    link = {}
    for name in st.query_params:
        values = st.query_params.get_all(name)
        link[name] = values[0] if len(values) == 1 else values
    new = {name: value for name, value in link.items() if name not in wanted or wanted[name] is not None}
    new.update({name: text for name, text in wanted.items() if text is not None})
    if new != link:
        st.query_params.from_dict(new)
    # What the app last wrote: a later run whose link differs came from Back/Forward.
    st.session_state.setdefault(_WRITTEN, {}).update(wanted)


def stop() -> NoReturn:
    """``st.stop()`` for a page: writes the link first. After ``st.stop()`` Streamlit sends no
    further message in the run, so the ``sync_url`` at the end of app.py could not."""
    sync_url()
    st.stop()
