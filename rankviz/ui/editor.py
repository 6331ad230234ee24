"""``ranking_editor``: the ranked-list editor every ranking page reuses.

A paste box (grades, mirrored in the URL as ``rels``), an optional box of document ids (``docs``),
a grid of (doc, grade) rows, and buttons that move, delete and add rows. Whatever the source,
the edit is validated and written to the canonical ranking in session state
(``rankviz.ui.state``); a bad value shows an error beside the input and the last valid ranking
stays in force. The boxes are drawn by ``rankviz.ui.link.link_widget``: their texts are the link.
"""

from __future__ import annotations

import streamlit as st

from rankviz.i18n import _
from rankviz.teaching.parsing import MAX_GRADE, check_ranking, default_doc_ids, parse_doc_ids, parse_grades
from rankviz.teaching.ranking import DEFAULT_RANKING, Ranking
from rankviz.ui import state
from rankviz.ui.layout import table_height_px
from rankviz.ui.link import current_value, keep_last_valid_in_link, link_widget, set_value
from rankviz.ui.state import grid_key, keys

__all__ = ["ranking_editor", "grid_rows_visible"]

# Rows the grid shows before it scrolls: keeps the editor within a 720 px projector screen.
grid_rows_visible = 8


def _ids_for(grades: tuple, previous: Ranking) -> tuple[str, ...]:
    """Doc ids for new grades typed into the paste box: keep the old ids rank by rank."""
    kept = previous.doc_ids[: len(grades)]
    return kept + default_doc_ids(len(grades) - len(kept), taken=kept)


def _ids_from_box(text: str, n: int) -> tuple[str, ...] | None:
    """The ids typed in the doc-id box when they fit ``n`` grades (a shared link holds both)."""
    try:
        ids = parse_doc_ids(text)
    except ValueError:
        return None
    return ids if len(ids) == n else None


def _text_boxes(prefix: str, ranking: Ranking) -> Ranking:
    """The paste box and the doc-id box; returns the ranking they describe (or the old one)."""
    k = keys(prefix)
    col_rels, col_docs = st.columns([3, 2])
    text = link_widget(
        col_rels.text_input, _("Grades in ranked order"), key=k.rels,
        help=_("Relevance grades from rank 1 down, separated by commas or spaces, e.g. 3,2,3,0,1,2. "
               "Grades are numbers from 0 to {max_grade}.").format(max_grade=MAX_GRADE),
    )
    try:
        grades = parse_grades(text)
    except ValueError as error:
        keep_last_valid_in_link(k.rels)
        col_rels.error(_("{error} Still showing the last valid ranking.").format(error=error))
    else:
        if grades != ranking.grades:
            ids = _ids_from_box(current_value(k.docs), len(grades)) or _ids_for(grades, ranking)
            ranking = Ranking(ids, grades)
            state.set_ranking(ranking, prefix)
            state.discard_pending(k.rels, k.docs)
            # The doc-id box is drawn below in this same run, so it can take its new text now.
            set_value(k.docs, "" if ranking.has_default_ids() else ",".join(ranking.doc_ids))

    docs_text = link_widget(
        col_docs.text_input, _("Doc ids (optional)"), key=k.docs, placeholder="d1, d2, ...",
        help=_("One id per grade, in the same order. Blank: d1, d2, ..."),
    )
    try:
        doc_ids = parse_doc_ids(docs_text) or default_doc_ids(len(ranking))
        if len(doc_ids) != len(ranking):
            raise ValueError(_("Give one document id per grade: {grades} grades but {ids} ids.").format(
                grades=len(ranking), ids=len(doc_ids)))
    except ValueError as error:
        keep_last_valid_in_link(k.docs)
        col_docs.error(_("{error} Still using {ids}, ...").format(error=error, ids=", ".join(ranking.doc_ids[:3])))
    else:
        if doc_ids != ranking.doc_ids:
            ranking = Ranking(doc_ids, ranking.grades)
            state.set_ranking(ranking, prefix)
            state.discard_pending(k.rels, k.docs)
    return ranking


def _grid(prefix: str, ranking: Ranking) -> None:
    """The editable grid; an accepted edit is stored and the page rerun so every widget agrees."""
    key = grid_key(prefix, state.revision(prefix))
    height = table_height_px(len(ranking), max_rows=grid_rows_visible)
    edited = st.data_editor(
        ranking.to_frame(), key=key, num_rows="dynamic", height=height, width="stretch", hide_index=True,
        disabled=["rank"],
        column_config={
            "rank": st.column_config.NumberColumn(_("rank"), help=_("Rank 1 is the top of the list."), width="small"),
            "doc": st.column_config.TextColumn(_("doc"), help=_("Document id (unique)."), width="small"),  # "medium" pushed the grades off a 390 px phone
            "grade": st.column_config.NumberColumn(
                _("grade"), help=_("Relevance grade, 0 (not relevant) to {max_grade}.").format(max_grade=MAX_GRADE),
                min_value=0, max_value=MAX_GRADE, step=1, default=0, width="small"),
        },
    )
    doc_ids = tuple(edited["doc"].tolist())
    grades = tuple(0 if g is None or g != g else g for g in edited["grade"].tolist())  # a new row: grade 0
    if doc_ids == ranking.doc_ids and grades == ranking.grades:
        return
    structural = len(grades) != len(ranking)
    try:
        ids, checked = check_ranking(doc_ids, grades)
    except ValueError as error:
        # Renew the grid so it shows the last valid ranking again, and say why once.
        st.session_state[keys(prefix).message] = _("{error} The last valid ranking is kept.").format(error=error)
        st.session_state[keys(prefix).revision] = state.revision(prefix) + 1
    else:
        state.set_ranking(Ranking(ids, checked), prefix, bump=structural)
    st.rerun()


def _move(prefix: str, offset: int) -> None:
    ranking, row_key = state.get_ranking(prefix), keys(prefix).row
    row = min(int(st.session_state.get(row_key, 1)), len(ranking))
    target = row + offset
    if not 1 <= target <= len(ranking):
        return
    ids, grades = list(ranking.doc_ids), list(ranking.grades)
    for column in (ids, grades):
        column[row - 1], column[target - 1] = column[target - 1], column[row - 1]
    state.set_ranking(Ranking(tuple(ids), tuple(grades)), prefix)
    st.session_state[row_key] = target  # the selection follows the moved row


def _delete(prefix: str) -> None:
    ranking, row_key = state.get_ranking(prefix), keys(prefix).row
    if len(ranking) <= 1:
        st.session_state[keys(prefix).message] = _("A ranking needs at least one document; nothing was deleted.")
        return
    row = min(int(st.session_state.get(row_key, 1)), len(ranking))
    keep = [i for i in range(len(ranking)) if i != row - 1]
    state.set_ranking(Ranking(tuple(ranking.doc_ids[i] for i in keep), tuple(ranking.grades[i] for i in keep)),
                      prefix)
    st.session_state[row_key] = min(row, len(keep))


def _add(prefix: str) -> None:
    ranking = state.get_ranking(prefix)
    try:
        new = Ranking(*check_ranking(ranking.doc_ids + default_doc_ids(1, taken=ranking.doc_ids),
                                     ranking.grades + (0,)))
    except ValueError as error:  # too many rows
        st.session_state[keys(prefix).message] = str(error)
        return
    state.set_ranking(new, prefix)


def _row_tools(prefix: str, ranking: Ranking) -> None:
    k = keys(prefix)
    st.session_state[k.row] = max(1, min(int(st.session_state.get(k.row, 1)), len(ranking)))
    # One horizontal row, not five columns: fewer layout messages to every browser opening the
    # page (issue 25's burst of a class), the same order for Tab and on a phone.
    with st.container(horizontal=True, vertical_alignment="bottom", gap="small", key=f"{prefix}row_tools"):
        st.number_input(_("Row (rank)"), min_value=1, max_value=max(1, len(ranking)), step=1, key=k.row,
                        help=_("The row the buttons act on."), width=110)
        st.button("↑", key=f"{prefix}row_up", on_click=_move, args=(prefix, -1), help=_("Move the row up one rank."),
                  width="stretch")
        st.button("↓", key=f"{prefix}row_down", on_click=_move, args=(prefix, 1),
                  help=_("Move the row down one rank."), width="stretch")
        st.button("✕", key=f"{prefix}row_delete", on_click=_delete, args=(prefix,), help=_("Delete the row."),
                  width="stretch")
        st.button("+", key=f"{prefix}row_add", on_click=_add, args=(prefix,),
                  help=_("Add a row at the bottom (grade 0)."), width="stretch")


def ranking_editor(key_prefix: str = "", *, default: Ranking = DEFAULT_RANKING,
                   show_row_tools: bool = True) -> Ranking:
    """Draw the editor of the ranking stored under ``key_prefix`` and return the current valid ranking.

    Use ``key_prefix=""`` for the app's shared ranking (URL parameters ``rels`` and ``docs``),
    another prefix (e.g. ``"b_"``) for a second ranking on the same page (``b_rels``, ``b_docs``).
    """
    ranking = state.get_ranking(key_prefix, default)
    ranking = _text_boxes(key_prefix, ranking)
    _grid(key_prefix, ranking)
    message = st.session_state.pop(keys(key_prefix).message, None)
    if message:
        st.error(message)
    if show_row_tools:
        _row_tools(key_prefix, ranking)
    return ranking
