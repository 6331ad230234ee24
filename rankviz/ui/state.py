"""The shared ranking in session state, and the keys of the widgets bound to the URL.

One canonical ranking per key prefix (``""`` for the app's main ranking, e.g. ``"b_"`` for a
second one): a ``Ranking`` of (doc id, grade) rows. Widgets are derived from it and edits are
written back to it, never the other way round (``st.session_state.df = st.data_editor(df)``
loses every second edit, streamlit#7749).

Three rules keep the widgets and the canonical ranking in step:

* The grid's key holds a revision number, bumped whenever something other than a cell edit
  replaces the ranking (preset, paste, URL, added/deleted/moved rows): a keyed
  ``st.data_editor`` re-applies its old edits by row position to new data (streamlit#17026).
* Text widgets bound to the URL (``rels``, ``docs``, ``k``, ...) can only be written before they
  are drawn in a run. ``set_ranking`` and ``set_widget_values`` queue the new texts; ``init_state``
  (called by app.py at the top of every run) writes them before any page draws its widgets.
* Settings are plain keyed widgets; a preset sets them through the same queue.

Values that must survive a page switch (the ranking texts, k, R, gain, ...) are drawn with
``persistent_widget``: the value lives in a plain session-state key (``_kept_<key>``) that
Streamlit never cleans up, is copied into the widget key before the widget is drawn and back in
its ``on_change``. (Streamlit 1.67 drops a widget's state when a page without it runs; with
``persist_state="session"`` or ``bind="query-params"`` the first run of the next page still
computed with the default while showing the kept value: seen in AppTest and in Chromium.)

Shareable links: the URL mirrors those values. ``init_state`` reads the URL on a session's
first run and ``sync_url`` (end of app.py) writes the current values back. There is no separate
"share" link: the address bar is the link, so every writer (``sync_url`` here,
``rankviz.ui.teaching.to_link`` for the pages' own settings, a page keeping a table in the link)
goes through ``write_url_param``, and values are encoded by ``url_text`` and flags read by
``url_flag``, in this module only.

Browser Back/Forward: each URL write pushes a history entry (``sync_url`` sends its changes as
one write, so an entry does not hold half of a preset; not beside a widget bound to the URL,
see ``_replace_link``). On Back/Forward Streamlit 1.67 reruns
the page the entry's path names with ``st.query_params`` set to the entry's query string and
flags the run as history navigation (``is_history_navigation`` of the script-run context; a page
switch by a link or ``st.switch_page`` instead reruns with the app's parameters stripped and no
flag). When such a run finds the link's values differing from what the app last wrote,
``init_state`` forgets the link-derived state and reads the link again through the code a fresh
session uses, so the page shows what opening that link shows (a page's own settings, registered
by ``forget_with_link``, only when that link or the one left holds them: other pages keep theirs). An entry holding none of the app's
parameters is skipped (the state stays): Streamlit may push one on a page switch, before the
app writes its parameters.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import streamlit as st

from rankviz.teaching.parsing import check_ranking, default_doc_ids, format_doc_ids, format_grades

__all__ = [
    "Ranking",
    "DEFAULT_RANKING",
    "Keys",
    "keys",
    "grid_key",
    "init_state",
    "get_ranking",
    "set_ranking",
    "set_widget_values",
    "discard_pending",
    "URL_DEFAULTS",
    "url_text",
    "url_flag",
    "write_url_param",
    "use_url_keys",
    "sync_url",
    "forget_with_link",
    "persistent_widget",
    "kept_value",
    "set_now",
    "load_preset",
    "preset_widget_values",
    "unretrieved_grades",
]


@dataclass(frozen=True)
class Ranking:
    """A ranked list: ``doc_ids[i]`` is at rank i + 1 with grade ``grades[i]``."""

    doc_ids: tuple[str, ...]
    grades: tuple

    @property
    def rels(self) -> list:
        """The grades as the metrics take them (``rels[0]`` is rank 1)."""
        return list(self.grades)

    def __len__(self) -> int:
        return len(self.grades)

    @classmethod
    def from_grades(cls, grades, doc_ids=None) -> "Ranking":
        """Validated ranking; missing doc ids become ``d1 ... dn``."""
        grades = tuple(grades)
        ids, checked = check_ranking(doc_ids if doc_ids else default_doc_ids(len(grades)), grades)
        return cls(ids, checked)

    def has_default_ids(self) -> bool:
        return self.doc_ids == default_doc_ids(len(self.grades))

    def to_frame(self):
        """The grid's data: columns ``rank`` (from 1), ``doc`` and ``grade``."""
        import pandas as pd

        return pd.DataFrame({"rank": range(1, len(self.grades) + 1), "doc": list(self.doc_ids),
                             "grade": list(self.grades)})


# The lecture's CG/DCG/NDCG class exercise: what a first visitor sees.
DEFAULT_RANKING = Ranking(("d1", "d2", "d3", "d4", "d5", "d6"), (3, 2, 3, 0, 1, 2))


@dataclass(frozen=True)
class Keys:
    """Session-state keys of one ranking editor. ``rels`` and ``docs`` are also URL parameters."""

    prefix: str

    @property
    def ranking(self) -> str:
        return f"{self.prefix}ranking"

    @property
    def revision(self) -> str:
        return f"{self.prefix}ranking_revision"

    @property
    def rels(self) -> str:
        return f"{self.prefix}rels"

    @property
    def docs(self) -> str:
        return f"{self.prefix}docs"

    @property
    def message(self) -> str:
        return f"{self.prefix}ranking_message"

    @property
    def row(self) -> str:
        return f"{self.prefix}ranking_row"

    def setting(self, name: str) -> str:
        """Key (and URL parameter) of a setting such as ``k`` or ``gain``."""
        return f"{self.prefix}{name}"


def keys(prefix: str = "") -> Keys:
    return Keys(prefix)


def grid_key(prefix: str = "", revision: int = 0) -> str:
    """Key of the ranking grid at a revision (tests seed ``edited_rows`` under it)."""
    return f"{prefix}ranking_grid_{revision}"


_PENDING = "_pending_widget_values"
_URL_READ = "_url_read"

# URL parameters the app keeps in step with session state, and the values left out of the URL.
# Ranking and settings keys also exist with a prefix ("b_rels", "b_k", ...) for a second ranking.
URL_DEFAULTS = {"rels": None, "docs": "", "k": "", "R": "", "unretrieved": "", "gain": "linear",
                "discount": "log2"}
_APP_URL_DEFAULTS = {"metric": "ndcg", "projector": False}


_URL_INITIAL = "_url_initial"
_URL_PREFIXES = "_url_prefixes"
_URL_WRITTEN = "_url_written"  # {URL parameter: text the app last put there, None when left out}
_LINK_DERIVED = "_link_derived"  # {URL parameter: session-state keys read from it}, see forget_with_link


# One encoding of values in the URL, for every writer: sync_url (the ranking and settings, end of
# app.py), rankviz.ui.teaching's link widgets (the pages' own settings) and pages that keep a
# table in the link. Reading a flag back is url_flag; every other value stays text.


def url_text(value, default) -> str | None:
    """The text of ``value`` in the URL, or None when it is left out (None or equal to ``default``,
    so a link holds only what differs from what a fresh session shows).

    Booleans are written ``true`` / ``false`` (read back by :func:`url_flag`), anything else with
    ``str``.

    >>> url_text(True, False), url_text(5, ""), url_text("linear", "linear"), url_text(None, "")
    ('true', '5', None, None)
    """
    if value is None or value == default:
        return None
    return str(value).lower() if isinstance(value, bool) else str(value)


def url_flag(text) -> bool:
    """A boolean URL parameter: ``1``, ``true``, ``yes`` or ``on`` (any case) is on, anything else off.

    >>> url_flag("true"), url_flag(" On "), url_flag("0"), url_flag("nope")
    (True, True, False, False)
    """
    return str(text).strip().lower() in ("1", "true", "yes", "on")


def write_url_param(name: str, value, default) -> None:
    """Put ``value`` in the URL as ``?name=...`` (:func:`url_text`), or take ``name`` out of the URL
    when the value is the default. ``st.query_params`` is written only on a change: each write
    sends a message to the browser, which pushes a history entry."""
    _write_text(name, url_text(value, default))


def _write_text(name: str, wanted: str | None) -> None:
    current = st.query_params.get(name)
    if wanted is None and current is not None:
        del st.query_params[name]
    elif wanted is not None and current != wanted:
        st.query_params[name] = wanted
    # What the app last wrote: a later run whose link differs came from Back/Forward.
    st.session_state.setdefault(_URL_WRITTEN, {})[name] = wanted


def _from_url(name: str, text: str):
    return url_flag(text) if name == "projector" else text


def use_url_keys(prefix: str = "") -> None:
    """Mirror the ranking and settings keys of ``prefix`` in the URL (``rels``, ``k``, ... or
    ``b_rels``, ``b_k``, ...). The first call for a prefix takes their values from the link the
    session was opened with. Called by the editor and the settings before they draw widgets.
    """
    registered = st.session_state.setdefault(_URL_PREFIXES, [])
    if prefix in registered:
        return
    registered.append(prefix)
    initial = st.session_state.get(_URL_INITIAL, {})
    for suffix in URL_DEFAULTS:
        name = prefix + suffix
        # A value set meanwhile (a course exercise loaded on Home) is newer than the link.
        if name in initial and _kept(name) not in st.session_state:
            st.session_state[_kept(name)] = initial[name]


def _url_keys() -> dict:
    """Every URL key the app syncs now, with the value left out of the URL."""
    synced = dict(_APP_URL_DEFAULTS)
    for prefix in st.session_state.get(_URL_PREFIXES, []):
        for suffix, default in URL_DEFAULTS.items():
            synced[prefix + suffix] = default
    return synced


def _kept(key: str) -> str:
    return f"_kept_{key}"


def kept_value(key: str, default=None):
    """The kept value of a persistent widget (what it shows), or ``default``."""
    return st.session_state.get(_kept(key), default)


def set_now(key: str, value) -> None:
    """Set a persistent widget's value; only before that widget is drawn in this run."""
    st.session_state[_kept(key)] = value
    st.session_state[key] = value


def _save(key: str) -> None:
    st.session_state[_kept(key)] = st.session_state[key]


def persistent_widget(widget, label: str, *args, key: str, default, **kwargs):
    """Draw ``widget`` (e.g. ``st.text_input`` or ``column.radio``) with a value that survives
    page switches and is mirrored in the URL when ``key`` is a URL key; returns its value."""
    st.session_state[key] = kept_value(key, default)
    value = widget(label, *args, key=key, on_change=_save, args=(key,), **kwargs)
    st.session_state[_kept(key)] = value
    return value


def forget_with_link(name: str, *state_keys: str) -> None:
    """Register session-state keys read from the URL parameter ``name`` (default: the key ``name``
    itself, as for a page's own setting). When Back/Forward brings a link holding ``name``, or
    leaves the page whose link held it, they are dropped, so the page reads them from that link
    again as a fresh session would. Settings of other pages, absent from both links, stay."""
    registered = st.session_state.setdefault(_LINK_DERIVED, {}).setdefault(name, [])
    registered.extend(key for key in (state_keys or (name,)) if key not in registered)


def _read_link() -> None:
    """Take the session's state from the URL: what a session opened on this link starts with.

    Values of the app's URL keys are kept here (``_URL_INITIAL``) and taken over by each ranking
    editor and its settings when they are first drawn (:func:`use_url_keys`).
    """
    st.session_state[_URL_READ] = True
    st.session_state[_URL_INITIAL] = {name: st.query_params[name] for name in st.query_params}
    for name in _APP_URL_DEFAULTS:
        if name in st.query_params:
            st.session_state[_kept(name)] = _from_url(name, st.query_params[name])


def _history_navigation() -> bool:
    """True when Back/Forward started this run (Streamlit sets the flag on the run's context)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    return bool(getattr(get_script_run_ctx(), "is_history_navigation", False))


def _link_moved_in_history() -> bool:
    """Back/Forward brought a link whose app values differ from those the app last wrote.

    Only history navigation counts: a page switch also reruns with the app's parameters missing
    (they are written back at the end of that run). A link holding none of the app's parameters
    is an entry Streamlit may push on a page switch, before the app wrote them: not a state.
    """
    if not _history_navigation():
        return False
    written = st.session_state.get(_URL_WRITTEN, {})
    if not any(name in st.query_params for name in set(written) | set(_url_keys())):
        return False
    return any(st.query_params.get(name) != text for name, text in written.items())


def _forget_records_left_out_of_the_link() -> None:
    """Keep the record of what the app wrote to what the URL still holds: a page switch strips the
    parameters, and the parameters of the page left (its own settings) are no longer in the link."""
    written = st.session_state.get(_URL_WRITTEN)
    if written:
        st.session_state[_URL_WRITTEN] = {name: text for name, text in written.items()
                                          if text is None or st.query_params.get(name) == text}


def _forget_link_state() -> None:
    """Drop every value the link describes, so the next read takes them from the link.

    Rankings are re-created by their editors (from the kept texts); their grids get a new revision
    so old cell edits are not re-applied to the restored rows (streamlit#17026).
    """
    for prefix in st.session_state.get(_URL_PREFIXES, []):
        st.session_state.pop(keys(prefix).ranking, None)
        st.session_state[keys(prefix).revision] = revision(prefix) + 1
    synced = set(_url_keys())
    for name in synced:
        st.session_state.pop(name, None)
        st.session_state.pop(_kept(name), None)
    written = st.session_state.get(_URL_WRITTEN, {})
    for name, state_keys in st.session_state.get(_LINK_DERIVED, {}).items():
        if name in st.query_params or name in written:
            for key in state_keys:
                st.session_state.pop(key, None)
    discard_pending(*synced)
    st.session_state[_URL_PREFIXES] = []
    st.session_state[_URL_WRITTEN] = {}


def init_state() -> None:
    """Run at the top of every script run, before any page draws a widget.

    On a session's first run, copies the app's URL parameters into session state (a shared link
    opens exactly its state); after Back/Forward to another link, does the same again (see the
    module docstring). Then writes queued widget values (from presets, grid edits, row buttons)
    into session state.
    """
    if not st.session_state.get(_URL_READ):
        _read_link()
    elif _link_moved_in_history():
        _forget_link_state()
        _read_link()
    else:
        _forget_records_left_out_of_the_link()
    pending = st.session_state.get(_PENDING)
    if pending:
        for key, value in pending.items():
            set_now(key, value)
        st.session_state[_PENDING] = {}


def sync_url() -> None:
    """Write the app's URL parameters from session state (run at the end of app.py).

    Only this app's keys are touched; values equal to their default are left out of the URL.
    Several changes (a course exercise sets the ranking, gain and R at once) go out as one
    message, so the browser keeps one history entry for them and Back never shows half of them.
    """
    wanted = {name: url_text(st.session_state[_kept(name)], default)
              for name, default in _url_keys().items() if _kept(name) in st.session_state}
    changed = {name: text for name, text in wanted.items() if st.query_params.get(name) != text}
    if len(changed) > 1:
        _replace_link(changed)
    for name, text in wanted.items():
        _write_text(name, text)  # whatever the batch left, and the record of what was written


def _replace_link(changed: dict) -> None:
    """Apply ``changed`` ({name: text, None to remove}) to the URL in one message, if possible."""
    from streamlit.errors import StreamlitAPIException

    link = {}
    for name in st.query_params:
        values = st.query_params.get_all(name)
        link[name] = values[0] if len(values) == 1 else values
    for name, text in changed.items():
        if text is None:
            link.pop(name, None)
        else:
            link[name] = text
    try:
        st.query_params.from_dict(link)
    except StreamlitAPIException:
        # A widget bound to the URL (bind="query-params") is on the page: from_dict may not set
        # its parameter and leaves the URL as it was. The caller then writes key by key.
        pass


def set_widget_values(values: dict) -> None:
    """Queue values for keyed widgets; they are written at the start of the next run.

    Safe to call at any point of a run; call ``st.rerun()`` afterwards when called after the
    widgets were drawn.
    """
    pending = dict(st.session_state.get(_PENDING) or {})
    pending.update(values)
    st.session_state[_PENDING] = pending


def discard_pending(*widget_keys: str) -> None:
    """Drop queued values of widgets whose current text is the source of the change (so a later
    run does not overwrite what the user typed meanwhile)."""
    pending = st.session_state.get(_PENDING)
    if pending:
        st.session_state[_PENDING] = {k: v for k, v in pending.items() if k not in widget_keys}


def get_ranking(prefix: str = "", default: Ranking = DEFAULT_RANKING) -> Ranking:
    """The canonical ranking of ``prefix`` (created from ``default`` on first use)."""
    use_url_keys(prefix)
    k = keys(prefix)
    if k.ranking not in st.session_state:
        st.session_state[k.ranking] = default
        st.session_state.setdefault(k.revision, 0)
        # Initial texts of the editor's boxes; a URL parameter, when present, is already kept.
        st.session_state.setdefault(_kept(k.rels), format_grades(default.grades))
        st.session_state.setdefault(_kept(k.docs), "" if default.has_default_ids() else format_doc_ids(default.doc_ids))
    return st.session_state[k.ranking]


def revision(prefix: str = "") -> int:
    return st.session_state.get(keys(prefix).revision, 0)


def set_ranking(ranking: Ranking, prefix: str = "", *, bump: bool = True) -> None:
    """Replace the canonical ranking and queue the texts of its bound widgets.

    ``bump`` renews the grid (see the module docstring); only a plain cell edit, which the grid
    already shows, may skip it.
    """
    k = keys(prefix)
    st.session_state[k.ranking] = ranking
    if bump:
        st.session_state[k.revision] = revision(prefix) + 1
    set_widget_values({
        k.rels: format_grades(ranking.grades),
        k.docs: "" if ranking.has_default_ids() else format_doc_ids(ranking.doc_ids),
    })


def unretrieved_grades(judged, rels) -> tuple:
    """Grades in ``judged`` that the ranking did not retrieve (multiset difference), non-zero only,
    highest first: what the settings call "judged but not retrieved".

    >>> unretrieved_grades([3, 3, 2, 1, 0, 0], [3, 0, 1])
    (3, 2)
    """
    left = Counter(judged)
    left.subtract(Counter(rels))
    return tuple(sorted((g for g, n in left.items() if g > 0 for _ in range(max(n, 0))), reverse=True))


def preset_widget_values(preset, prefix: str = "") -> dict:
    """The setting values a ranking preset implies (k, R, unretrieved grades, gain, discount)."""
    k = keys(prefix)
    settings = dict(preset.settings)
    unretrieved = unretrieved_grades(preset.judged, preset.rels) if preset.judged is not None else ()
    return {
        k.setting("k"): "",
        k.setting("R"): "" if preset.n_relevant is None else str(preset.n_relevant),
        k.setting("unretrieved"): format_grades(unretrieved),
        k.setting("gain"): settings.get("gain", "linear"),
        k.setting("discount"): settings.get("discount", "log2"),
    }


def load_preset(preset_key: str, prefix: str = "") -> None:
    """Load a course exercise (a ranking preset) into the ranking and settings of ``prefix``.

    Safe in a callback; after drawing widgets, follow with ``st.rerun()``.
    """
    from rankviz.teaching.presets import get_preset

    preset = get_preset(preset_key)
    if preset.kind != "ranking":
        raise ValueError(f"Preset {preset_key!r} holds {preset.kind}, not one ranking.")
    set_ranking(Ranking.from_grades(preset.rels, preset.doc_ids or None), prefix)
    set_widget_values(preset_widget_values(preset, prefix))
    st.session_state[f"{prefix}preset"] = preset_key
