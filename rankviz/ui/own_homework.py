"""The homework page's form for the student's own exercise, and its hint ladder.

One field per input of the kind (:func:`rankviz.teaching.homework.own_fields`), labelled and explained
in the textbook's words, in the order a sheet gives them, two to a row: each row is its own set of
columns, so Tab and a phone's stacking follow the form's order. A list is a text area, so a column
pasted from a sheet keeps its lines; a convention is a radio with the registry's words. Every field
is in the link. A field whose text does not read, or that the exercise refuses (R below the relevant
documents listed, a cut-off of 0), shows the message beside that field; the exercise made from the
last valid input stays, so the answers typed for it stay too, and the link keeps the last valid
text of that field (:func:`rankviz.ui.last_valid.parse_or_last_valid`).

:func:`hint_section` draws the hint ladder: pick a step, reveal one more rung per click (what to
compute, the formula with your own numbers, the value); the marks then say which steps used hints.
"""

from __future__ import annotations

import streamlit as st

from rankviz.i18n import N_, _
from rankviz.teaching.homework import (
    RUNG_NAMES,
    InputError,
    hints,
    own_choices,
    own_exercise,
    own_fields,
)
from rankviz.teaching.homework.own import read_input
from rankviz.ui.last_valid import parse_or_last_valid
from rankviz.ui.link import keep_last_valid_in_link, link_widget
from rankviz.ui.url_keys import url_key

__all__ = ["own_form", "widget_key", "hint_section", "hints_used", "hint_mark", "FORM_TEXTS"]

# The words of the form and of the hint ladder on the page (whole sentences, to be translated).
FORM_TEXTS = {
    "intro": N_("Type the exercise as your sheet gives it: lists as printed (R N R N, 1 0 1 0, 3,2,3,0,1,2, a column "
             "pasted from the sheet; 0,9 with a decimal comma). Leave a field blank for what it says."),
    "blank": N_("blank: {blank}"),
    "example": N_("e.g. {example}"),
    "kept": N_("{message} Still using your last valid exercise."),
    "field_kept": N_("{message} Still using this field's last valid value."),
    "hints_title": N_("Stuck? Hints, one rung at a time"),
    "hints_caption": N_("Each step has three hints: what to compute and its formula, then the formula with your own "
                     "numbers (those you checked), then the value. Your marks say which steps used hints."),
    "hint_step": N_("Hint for the step"),
    "hint_next": N_("Show the next hint"),
    "hint_done": N_("That was the last hint for this step: the value."),
    "hint_mark": N_("{count} of 3: {rung}"),
}
# A list is typed in a text area (a column pasted from a sheet keeps its lines).
_LISTS = ("relevance", "ints", "numbers", "levels", "names", "labels", "ranks", "rankings", "rows")
# Inputs whose field the page had before this form (their links keep working) or that share a name with
# another kind's input of another type.
_KEYS = {("n_relevant", "int"): "hw_R", ("n_relevant", "ints"): "hw_Rs", ("ranks_a", "ranks"): "hw_r1",
         ("ranks_b", "ranks"): "hw_r2", ("max_grade", "int"): "hw_gmax"}


def widget_key(field) -> str:
    """The widget (and link) key of an input's field: ``hw_<name>`` unless :data:`_KEYS` names another.

    >>> from rankviz.teaching.homework import own_fields
    >>> [widget_key(f) for f in own_fields("ap")]
    ['hw_rels', 'hw_R', 'hw_k', 'hw_denominator']
    """
    return _KEYS.get((field.name, field.kind), f"hw_{field.name}")


def _placeholder(field) -> str:
    if field.example:
        return _(FORM_TEXTS["example"]).format(example=field.example.replace("\n", " / "))
    return _(FORM_TEXTS["blank"]).format(blank=field.blank) if field.blank else ""


def _choice(kind: str, field, box):
    # The registry's words name each convention (the link holds its value).
    words = {"format_func": field.param.label} if field.param is not None else {}
    return link_widget(box.radio, field.label, list(own_choices(kind, field.name)), key=widget_key(field),
                       help=field.description, horizontal=True, **words)


def _text(kind: str, field, box):
    key = widget_key(field)
    widget = box.text_area if field.kind in _LISTS else box.text_input
    extra = {"height": 68 if field.kind not in ("rankings", "rows") else 100} if field.kind in _LISTS else {}
    text = link_widget(widget, field.label, key=key, help=field.description, placeholder=_placeholder(field), **extra)
    default = url_key(key).default

    def parse():
        return read_input(field.kind, text, field.label, name=field.name)

    return parse_or_last_valid(key, parse, default=lambda: read_input(field.kind, default, field.label),
                               where=box, message=lambda error, kept: _(FORM_TEXTS["field_kept"]).format(message=error))


def own_form(kind: str):
    """Draw the form of ``kind``'s own exercise and return the exercise it makes (None before any valid input)."""
    st.caption(_(FORM_TEXTS["intro"]))
    fields = own_fields(kind)
    boxes, values = {}, {}
    texts = [field for field in fields if field.kind not in ("choice", "option")]
    choices = [field for field in fields if field.kind in ("choice", "option")]
    # Two text fields to a row, each row its own columns: Tab and a phone's stacking follow the form's order.
    for start in range(0, len(texts), 2):
        row = st.columns(2, gap="medium")
        for box, field in zip(row, texts[start:start + 2]):
            boxes[field.name] = box
            values[field.name] = _text(kind, field, box)
    for field in choices:
        boxes[field.name] = st.container()
        values[field.name] = _choice(kind, field, boxes[field.name])
    last = f"_hw_own_last_{kind}"
    try:
        exercise = own_exercise(kind, **values)
    except InputError as error:
        named = [field for field in fields if field.name == error.name]
        where = boxes.get(error.name, st)
        where.error(_(FORM_TEXTS["kept"]).format(message=error) if last in st.session_state else str(error))
        for field in named or fields:  # the link keeps the last valid text of what was refused
            if field.kind not in ("choice", "option"):
                keep_last_valid_in_link(widget_key(field))
        return st.session_state.get(last)
    st.session_state[last] = exercise
    return exercise


def hints_used(fingerprint: str) -> dict:
    """Step index -> rungs of its hint ladder shown, for the exercise ``fingerprint`` (this session)."""
    return st.session_state.setdefault(f"hw_hints_{fingerprint}", {})


def hint_mark(used: dict, index: int) -> str:
    """The marks table's word on step ``index``'s hints: "—" or "2 of 3: the formula with your numbers"."""
    count = used.get(index, 0)
    return _(FORM_TEXTS["hint_mark"]).format(count=count, rung=RUNG_NAMES[count - 1]) if count else "—"


def hint_section(steps, answer_keys, fingerprint: str, *, start: int | None = None) -> None:
    """The hint ladder: a step to pick and a button revealing its next rung. ``start``: the step to show
    now (the first that went wrong, just checked); None keeps the step picked."""
    used = hints_used(fingerprint)
    key = f"hw_hint_step_{fingerprint}"
    if start is not None:
        st.session_state[key] = min(start, len(steps) - 1)
    st.markdown(f"**{_(FORM_TEXTS['hints_title'])}**")
    st.caption(_(FORM_TEXTS["hints_caption"]))
    labels = [step.label for step in steps]
    pick_col, button_col = st.columns([3, 2], vertical_alignment="bottom")
    index = pick_col.selectbox(_(FORM_TEXTS["hint_step"]), range(len(steps)), format_func=labels.__getitem__, key=key)

    def reveal():
        used[index] = min(len(RUNG_NAMES), used.get(index, 0) + 1)

    shown = used.get(index, 0)
    button_col.button(_(FORM_TEXTS["hint_next"]), key="hw_hint_next", on_click=reveal, icon=":material/lightbulb:",
                      disabled=shown >= len(RUNG_NAMES), width="stretch")
    if shown:
        answers = [st.session_state.get(key, "") for key in answer_keys]
        for rung in hints(steps[index], answers=answers, steps=steps)[:shown]:
            st.markdown(rung)
        if shown >= len(RUNG_NAMES):
            st.caption(_(FORM_TEXTS["hint_done"]))
