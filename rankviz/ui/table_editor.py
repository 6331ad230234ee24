"""``table_editor``: an editable table (queries, click logs, rankings) kept as one canonical
DataFrame in session state. (Number fields kept in the link: ``rankviz.ui.fields``.)

The same rules as the ranking editor (``rankviz.ui.state``): the grid is derived from the
canonical table and edits are written back to it; the grid's key holds a revision number,
bumped whenever rows are added or deleted or a preset replaces the table, because a keyed
``st.data_editor`` re-applies its old edits by row position to new data (streamlit#17026).
A cell edit keeps the key: re-applying the same cell values is harmless.
"""

from __future__ import annotations

import streamlit as st

__all__ = ["table_key", "get_table", "replace_table", "table_origin", "table_editor"]


def _canonical(prefix: str) -> str:
    return f"{prefix}_table"


def _revision(prefix: str) -> str:
    return f"{prefix}_table_revision"


def _origin(prefix: str) -> str:
    return f"{prefix}_table_origin"


def table_key(prefix: str) -> str:
    """The current key of the grid of ``prefix`` (tests seed ``edited_rows`` under it)."""
    return f"{prefix}_grid_{st.session_state.get(_revision(prefix), 0)}"


def get_table(prefix: str, default):
    """The canonical table of ``prefix`` (a copy of ``default`` on first use)."""
    if _canonical(prefix) not in st.session_state:
        st.session_state[_canonical(prefix)] = default.copy()
    return st.session_state[_canonical(prefix)]


def replace_table(prefix: str, frame, *, origin=None) -> None:
    """Replace the table (a preset, a reset) and renew the grid. Safe in a callback.

    ``origin`` names where the table came from (a course example's key): :func:`table_origin`
    returns it until another origin is given."""
    st.session_state[_canonical(prefix)] = frame.reset_index(drop=True).copy()
    st.session_state[_revision(prefix)] = st.session_state.get(_revision(prefix), 0) + 1
    if origin is not None:
        st.session_state[_origin(prefix)] = origin


def table_origin(prefix: str, default=None):
    """Where the table of ``prefix`` was last loaded from (``replace_table``'s ``origin``), else ``default``."""
    return st.session_state.get(_origin(prefix), default)


def table_editor(prefix: str, default, *, column_config=None, height=None, num_rows="dynamic", where=None):
    """Draw the editable grid of ``prefix`` and return the table as edited (not yet validated).

    The caller validates the returned table and shows its error beside the grid; the last
    valid result is the caller's to keep.
    """
    box = where or st
    canonical = get_table(prefix, default)
    edited = box.data_editor(canonical, key=table_key(prefix), num_rows=num_rows, hide_index=True,
                             column_config=column_config, width="stretch", height=height or "auto")
    edited = edited.reset_index(drop=True)
    if not edited.equals(canonical):
        structural = len(edited) != len(canonical)
        st.session_state[_canonical(prefix)] = edited.copy()
        if structural:
            # Renew the grid now so the added/deleted rows are not re-applied to the new data.
            st.session_state[_revision(prefix)] = st.session_state.get(_revision(prefix), 0) + 1
            st.rerun()
    return edited
