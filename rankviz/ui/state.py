"""The shared ranking in session state, and widget values queued for the next run.

One canonical ranking per key prefix (``""`` for the app's main ranking, ``"b_"`` for the
precision-recall page's second one): a :class:`~rankviz.teaching.ranking.Ranking`. Widgets are
derived from it and edits are written back to it, never the other way round
(``st.session_state.df = st.data_editor(df)`` loses every second edit, streamlit#7749).

Three rules keep the widgets and the canonical ranking in step:

* The grid's key holds a revision number, bumped whenever something other than a cell edit
  replaces the ranking (preset, paste, link, added/deleted/moved rows): a keyed
  ``st.data_editor`` re-applies its old edits by row position to new data (streamlit#17026).
* A widget's value can only be written before the widget is drawn in a run. ``set_ranking``
  and ``set_widget_values`` queue the new texts; :func:`init_state` (top of app.py, every run)
  writes them before any page draws its widgets.
* The ranking's texts (``rels``, ``docs``) and settings are in the link (:mod:`rankviz.ui.link`);
  when Back/Forward restores another link, the ranking is dropped and re-created from the
  restored texts, with a new grid revision.
"""

from __future__ import annotations

from typing import NamedTuple

import streamlit as st

from rankviz.teaching.parsing import format_doc_ids, format_grades
from rankviz.teaching.ranking import DEFAULT_RANKING, Ranking, preset_settings
from rankviz.ui import link
from rankviz.ui.url_keys import RANKING_PREFIXES

__all__ = [
    "Keys",
    "keys",
    "grid_key",
    "revision",
    "init_state",
    "get_ranking",
    "set_ranking",
    "set_widget_values",
    "discard_pending",
    "load_preset",
    "preset_widget_values",
]


class Keys(NamedTuple):
    """Session-state keys of one ranking editor. ``rels``, ``docs`` and the settings are URL keys
    (rankviz.ui.url_keys) too."""

    prefix: str
    ranking: str
    revision: str
    rels: str
    docs: str
    message: str
    row: str

    def setting(self, name: str) -> str:
        """Key (and URL parameter) of a setting such as ``k`` or ``gain``."""
        return f"{self.prefix}{name}"


# Each key of Keys after the prefix: the prefix followed by this.
_SUFFIXES = ("ranking", "ranking_revision", "rels", "docs", "ranking_message", "ranking_row")


def keys(prefix: str = "") -> Keys:
    """The keys of the ranking editor ``prefix`` (``""``: the app's shared ranking)."""
    return Keys(prefix, *(prefix + suffix for suffix in _SUFFIXES))


def grid_key(prefix: str = "", revision: int = 0) -> str:
    """Key of the ranking grid at a revision (tests seed ``edited_rows`` under it)."""
    return f"{prefix}ranking_grid_{revision}"


def revision(prefix: str = "") -> int:
    return st.session_state.get(keys(prefix).revision, 0)


_PENDING = "_pending_widget_values"


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


def init_state() -> None:
    """Run at the top of every script run, before any page draws a widget.

    Follows the link (:func:`rankviz.ui.link.follow_link`): after Back/Forward to another link,
    the rankings whose texts were forgotten are dropped too (their editors re-create them from
    the restored texts). Then writes queued widget values (from presets, grid edits, row buttons).
    """
    forgotten = link.follow_link()
    for prefix in RANKING_PREFIXES:
        k = keys(prefix)
        if forgotten & {k.rels, k.docs} and k.ranking in st.session_state:
            del st.session_state[k.ranking]
            st.session_state[k.revision] = revision(prefix) + 1  # old cell edits are not re-applied
    discard_pending(*forgotten)
    pending = st.session_state.get(_PENDING)
    if pending:
        for key, value in pending.items():
            st.session_state[key] = value
        st.session_state[_PENDING] = {}


def get_ranking(prefix: str = "", default: Ranking = DEFAULT_RANKING) -> Ranking:
    """The canonical ranking of ``prefix`` (created from ``default`` on first use)."""
    k = keys(prefix)
    if k.ranking not in st.session_state:
        st.session_state[k.ranking] = default
        st.session_state.setdefault(k.revision, 0)
        # The editor's boxes start from the link's texts, else from the default ranking.
        if link.current_value(k.rels) is None:
            link.set_value(k.rels, format_grades(default.grades))
            link.set_value(k.docs, "" if default.has_default_ids() else format_doc_ids(default.doc_ids))
    return st.session_state[k.ranking]


def set_ranking(ranking: Ranking, prefix: str = "", *, bump: bool = True) -> None:
    """Replace the canonical ranking and queue the texts of its boxes.

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


def preset_widget_values(preset, prefix: str = "") -> dict:
    """The setting values a ranking preset implies (k, R, unretrieved grades, gain, discount),
    keyed by the widgets of ``prefix`` (:func:`rankviz.teaching.ranking.preset_settings`)."""
    k = keys(prefix)
    return {k.setting(name): value for name, value in preset_settings(preset).items()}


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
