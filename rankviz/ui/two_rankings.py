"""Two rankings of the same documents, editable: the rank-correlation page's input.

Three text boxes kept in the link (``items`` = document ids, ``r1`` and ``r2`` = each
document's rank in ranking R1 and R2, e.g. ``?r1=1,2,3&r2=2,1,3``) and a grid of
(doc, rank in R1, rank in R2) rows, like the lecture's SRCC table. One canonical
``TwoRankings`` lives in session state; widgets are derived from it and edits written back
(the same rules as ``rankviz.ui.state``: the grid's key carries a revision, text boxes get
their new text through the foundation's pending-value queue). A bad value shows an error
beside its box and the last valid rankings stay in force.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np
import streamlit as st

from rankviz.i18n import _
from rankviz.metrics.correlation import average_ranks
from rankviz.formatting import format_number
from rankviz.teaching.parsing import default_doc_ids, parse_doc_ids
from rankviz.ui import state
from rankviz.ui.link import keep_last_valid_in_link, link_widget

__all__ = ["TwoRankings", "DEFAULT_TWO_RANKINGS", "MAX_DOCUMENTS", "parse_ranks", "check_two_rankings",
           "ideal_against_system", "two_rankings_editor", "load_two_rankings_preset", "load_shared_ranking"]

# Kendall's pair table grows with n^2; beyond this it stops being a lecture exercise.
MAX_DOCUMENTS = 100
_KEY = "two_rankings"
_REVISION = "two_rankings_revision"
_MESSAGE = "two_rankings_message"
ITEMS, R1, R2 = "items", "r1", "r2"


@dataclass(frozen=True)
class TwoRankings:
    """``items[j]`` is at rank ``ranks_a[j]`` in R1 and ``ranks_b[j]`` in R2."""

    items: tuple[str, ...]
    ranks_a: tuple
    ranks_b: tuple

    def ordered(self, which: str) -> list[str]:
        """The documents in ranked order of R1 (``"a"``) or R2 (``"b"``); ties keep the table's order."""
        ranks = self.ranks_a if which == "a" else self.ranks_b
        return [item for _, _, item in sorted(zip(ranks, range(len(ranks)), self.items))]

    def to_frame(self):
        import pandas as pd

        return pd.DataFrame({"doc": list(self.items), "rank in R1": list(self.ranks_a),
                             "rank in R2": list(self.ranks_b)})


def _default():
    from rankviz.teaching.presets import get_preset

    preset = get_preset("srcc_exercise")
    return TwoRankings(tuple(preset.doc_ids), tuple(preset.ranks_a), tuple(preset.ranks_b))


DEFAULT_TWO_RANKINGS = _default()


def _format(values) -> str:
    return ",".join(format_number(float(v)) for v in values)


def _rank(value, position: int, name: str):
    message = _("{name}: position {position} is {value}; ranks must be numbers from 1 to {most}.")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(message.format(name=name, position=position, value=repr(value), most=MAX_DOCUMENTS)) from None
    if not math.isfinite(number) or not 1 <= number <= MAX_DOCUMENTS:
        raise ValueError(message.format(name=name, position=position, value=format_number(number), most=MAX_DOCUMENTS))
    return int(number) if number.is_integer() else number


def parse_ranks(text: str, name: str) -> tuple:
    """Ranks from text such as ``"2, 3, 1"``; equal ranks are ties. Raises ValueError naming the position."""
    items = [item for item in re.split(r"[,;\s]+", str(text or "").strip()) if item]
    if not items:
        raise ValueError(_("{name} is empty: give one rank per document, e.g. 2,3,1.").format(name=name))
    if len(items) > MAX_DOCUMENTS:
        raise ValueError(_("{name} has {n} ranks; at most {most} documents are allowed.").format(
            name=name, n=len(items), most=MAX_DOCUMENTS))
    return tuple(_rank(item, i, name) for i, item in enumerate(items, start=1))


def check_two_rankings(items, ranks_a, ranks_b) -> TwoRankings:
    """Validated rankings; blank ids become d1, d2, ...; raises ValueError with a student's message."""
    ranks_a = tuple(_rank(v, i, "R1") for i, v in enumerate(ranks_a, start=1))
    ranks_b = tuple(_rank(v, i, "R2") for i, v in enumerate(ranks_b, start=1))
    if len(ranks_a) != len(ranks_b):
        raise ValueError(_("R1 has {a} ranks and R2 has {b}: give both rankings one rank per document.").format(
            a=len(ranks_a), b=len(ranks_b)))
    if len(ranks_a) < 2:
        raise ValueError(_("Rank correlation needs at least two documents."))
    if len(ranks_a) > MAX_DOCUMENTS:
        raise ValueError(_("At most {most} documents are allowed; got {n}.").format(most=MAX_DOCUMENTS, n=len(ranks_a)))
    ids = [("" if d is None or (isinstance(d, float) and math.isnan(d)) else str(d).strip()) for d in items]
    if not any(ids):
        ids = list(default_doc_ids(len(ranks_a)))
    if len(ids) != len(ranks_a):
        raise ValueError(_("Give one document id per rank: {ranks} ranks but {ids} ids.").format(
            ranks=len(ranks_a), ids=len(ids)))
    blanks = [i for i, d in enumerate(ids) if not d]
    for i, fresh in zip(blanks, default_doc_ids(len(blanks), taken=ids)):
        ids[i] = fresh
    parse_doc_ids(" ".join(ids))  # raises on a duplicate id, naming it
    return TwoRankings(tuple(ids), ranks_a, ranks_b)


def ideal_against_system(doc_ids, grades) -> TwoRankings:
    """R1: the ideal ranking (grades sorted, highest first), R2: the system's ranking, for the same documents.

    Documents with the same grade are tied in the ideal ranking and share their average rank
    (:func:`rankviz.metrics.correlation.average_ranks` of the negated grades), so Kendall's tau-b
    (which corrects for ties) and tau-a differ.

    >>> ideal_against_system(["a", "b", "c", "d"], [0, 2, 2, 1]).ranks_a
    (4, 1.5, 1.5, 3)
    """
    ideal = average_ranks(-np.asarray(grades, dtype=np.float64))
    return check_two_rankings(doc_ids, ideal.tolist(), list(range(1, len(grades) + 1)))


def _texts(rankings: TwoRankings) -> dict:
    return {ITEMS: ",".join(rankings.items), R1: _format(rankings.ranks_a), R2: _format(rankings.ranks_b)}


def _set(rankings: TwoRankings, *, bump: bool = True) -> None:
    st.session_state[_KEY] = rankings
    if bump:
        st.session_state[_REVISION] = st.session_state.get(_REVISION, 0) + 1
    state.set_widget_values(_texts(rankings))


def load_two_rankings_preset(preset_key: str) -> None:
    """Load a ``two_rankings`` course preset (safe in a callback: the texts are written directly)."""
    from rankviz.teaching.presets import get_preset

    preset = get_preset(preset_key)
    if preset.kind != "two_rankings":
        raise ValueError(f"Preset {preset_key!r} holds {preset.kind}, not two rankings.")
    _load(check_two_rankings(preset.doc_ids, preset.ranks_a, preset.ranks_b))
    st.session_state["two_rankings_preset"] = preset_key


def load_shared_ranking() -> None:
    """Callback: R1 = the ideal order of the app's shared ranking (the other pages'), R2 = that ranking."""
    ranking = state.get_ranking("")
    _load(ideal_against_system(ranking.doc_ids, ranking.grades))


def _load(rankings: TwoRankings) -> None:
    st.session_state[_KEY] = rankings
    st.session_state[_REVISION] = st.session_state.get(_REVISION, 0) + 1
    state.discard_pending(ITEMS, R1, R2)
    st.session_state.update(_texts(rankings))


def _current() -> TwoRankings:
    # The text boxes start from the link's values (or the defaults); they replace this if they differ.
    return st.session_state.setdefault(_KEY, DEFAULT_TWO_RANKINGS)


def _text_boxes(rankings: TwoRankings) -> TwoRankings:
    docs_col, a_col, b_col = st.columns([4, 3, 3])
    defaults = _texts(DEFAULT_TWO_RANKINGS)
    docs_text = link_widget(docs_col.text_input, _("Documents"), key=ITEMS, default=defaults[ITEMS],
                            help=_("Document ids, separated by commas or spaces. Blank: d1, d2, ..."))
    a_text = link_widget(a_col.text_input, _("Rank in R1"), key=R1, default=defaults[R1],
                         help=_("Each document's rank in ranking R1 (e.g. the ideal ranking), in the order of "
                                "the documents. Equal ranks are ties."))
    b_text = link_widget(b_col.text_input, _("Rank in R2"), key=R2, default=defaults[R2],
                         help=_("Each document's rank in ranking R2 (e.g. the system's ranking)."))
    try:
        ranks_a = parse_ranks(a_text, "R1")
        ranks_b = parse_ranks(b_text, "R2")
        new = check_two_rankings(parse_doc_ids(docs_text) if str(docs_text or "").strip() else (), ranks_a, ranks_b)
    except ValueError as error:
        for key in (ITEMS, R1, R2):  # checked together: the link keeps the last valid three
            keep_last_valid_in_link(key)
        st.error(_("{error} Still showing the last valid rankings.").format(error=error))
        return rankings
    if new != rankings:
        _set(new)
        state.discard_pending(ITEMS, R1, R2)
    return new


def _grid(rankings: TwoRankings) -> None:
    key = f"two_rankings_grid_{st.session_state.get(_REVISION, 0)}"
    edited = st.data_editor(
        rankings.to_frame(), key=key, hide_index=True, width="stretch",
        height=35 * (min(len(rankings.items), 8) + 1) + 3,
        column_config={
            "doc": st.column_config.TextColumn(_("doc"), help=_("Document id (unique).")),
            "rank in R1": st.column_config.NumberColumn(_("rank in R1"), min_value=1, max_value=MAX_DOCUMENTS),
            "rank in R2": st.column_config.NumberColumn(_("rank in R2"), min_value=1, max_value=MAX_DOCUMENTS),
        },
    )
    frame = (tuple(edited["doc"].tolist()), tuple(edited["rank in R1"].tolist()), tuple(edited["rank in R2"].tolist()))
    if frame == (rankings.items, rankings.ranks_a, rankings.ranks_b):
        return
    try:
        new = check_two_rankings(*frame)
    except ValueError as error:
        st.session_state[_MESSAGE] = _("{error} The last valid rankings are kept.").format(error=error)
        st.session_state[_REVISION] = st.session_state.get(_REVISION, 0) + 1
    else:
        _set(new, bump=False)
    st.rerun()


def two_rankings_editor() -> TwoRankings:
    """Draw the editor and return the current valid rankings."""
    rankings = _text_boxes(_current())
    _grid(rankings)
    message = st.session_state.pop(_MESSAGE, None)
    if message:
        st.error(message)
    return rankings
