"""Homework checker: pick an exercise (a course preset, your own list, or a practice exercise
whose seed is in the link), type your answer for every step, and see each step marked, the
first one that went wrong and the correct working from there."""

import hashlib
import itertools
import random

import streamlit as st

from rankviz.i18n import N_, _
from rankviz.formatting import format_number
from rankviz.teaching.homework import (
    HOMEWORK_PRESETS,
    KINDS,
    STATUS_WORDS,
    check_answers,
    describe,
    exercise_from_preset,
    first_wrong,
    generate_exercise,
    hint_summary,
    option_choices,
    option_params,
    preset_title,
    steps_for,
    summary,
)
from rankviz.ui.cached_results import cached_call
from rankviz.ui.fields import number_field
from rankviz.ui.layout import page_header
from rankviz.ui.link import link_value, link_widget, stop
from rankviz.ui.address import loopback_warning
from rankviz.ui.own_homework import hint_mark, hint_section, hints_used, own_form
from rankviz.ui.pages import page_for
from rankviz.ui.render import compute
from rankviz.ui.reveal import reveal_section
from rankviz.ui.settings import switch_help
from rankviz.ui.worksheet import worksheet_section
from rankviz.ui.wrapping import show_wrapping_formula, show_wrapping_table

page = page_for("app_pages/homework.py")
page_header(_(page.title), _(page.purpose))

# The source radio's values, shown through _ (the link keeps them); assigned, or Streamlit's magic would print them.
SOURCE_WORDS = (N_("course"), N_("own"), N_("practice"))
SOURCES = {"course": N_("a course exercise"), "own": N_("your own exercise"), "practice": N_("a practice exercise")}
TOLERANCES = {"0.0005": N_("3 decimals, rounded"), "0.001": N_("3 decimals, rounded or cut"),
              "0.005": N_("2 decimals, rounded"), "0.01": N_("2 decimals, rounded or cut")}
# How the options of a practice exercise are asked (rankviz.teaching.homework.option_choices names them).
OPTION_LABELS = {"max_grade": N_("Top of the grading scale, g_max"), "variant": N_("Kendall's tau variant"),
                 "weights": N_("Weight of each user in GAUC")}
# Beyond this many the named mistakes are in the table only (the page stays short).
MAX_MISTAKES_SHOWN = 4
MARKS = {"right": N_("✓ right"), "carried": N_("✓ follows from your answers"), "printed": N_("✓ as the notes print it"),
         "wrong": N_("✗ wrong"), "blank": "—", "unreadable": N_("? cannot read")}
# Answer boxes a row: each row is its own set of columns, so Tab and a phone's stacking follow the working.
ANSWERS_PER_ROW = 3


def _new_seed() -> None:
    st.session_state["seed"] = str(random.randrange(1, 100_000))


def _choice(label: str, options: dict, *, key: str, help: str, horizontal: bool = True, **default) -> str:
    """A radio of plain values (``options`` maps value -> caption) kept in the link."""
    return link_widget(st.radio, label, list(options), key=key, captions=[_(c) for c in options.values()], help=help,
                       horizontal=horizontal, **default)


# A link with only ?seed=1234 opens that practice exercise.
source_default = "practice" if link_value("seed") is not None and link_value("hw_source") is None else "course"
pick_col, tolerance_col = st.columns([3, 2], gap="medium")
with pick_col:
    source = _choice(_("Exercise"), SOURCES, key="hw_source", default=source_default, format_func=_,
                     help=_("A course exercise as the notes set it, your own exercise from any course or textbook "
                            "(typed as your sheet gives it, with its conventions), or a practice exercise drawn from "
                            "a seed: share the link and everyone gets the same one."))
with tolerance_col:
    tolerance_text = link_widget(st.selectbox, _("Accept answers within ±"), list(TOLERANCES), key="tol",
                                 format_func=lambda t: f"±{t} ({_(TOLERANCES[t])})",
                                 help=_("How far an answer may be from the exact value: pick how your sheet rounds. "
                                        "±0.001 accepts a value rounded or cut to 3 decimals, as the lecture's tables "
                                        "do; ±0.005 one printed to 2 decimals (0.78 for 0.775)."))
tolerance = float(tolerance_text)

exercise = None
if source == "course":
    keys = list(HOMEWORK_PRESETS)
    chosen = link_widget(st.selectbox, _("Course exercise"), keys, key="hw_preset", default=keys[0],
                         format_func=preset_title,
                         help=_("Every exercise of the course notes the checker can walk through."))
    exercise = compute(exercise_from_preset, chosen)
else:
    kind = link_widget(st.selectbox, _("What to compute"), list(KINDS), key="hw_kind", format_func=KINDS.get,
                       help=_("The kind of working the checker walks you through."))
    if source == "practice":
        options = {}
        params = option_params(kind)  # the options that are a metric's parameter: the registry's words for them
        for name, values in option_choices(kind).items():
            choices = {str(value): value for value in values}  # the link holds text
            param = params.get(name)
            picked = _choice(_(OPTION_LABELS[name]) if name in OPTION_LABELS else name.replace("_", " ").capitalize(),
                             {text: param.choice(value).text if param else "" for text, value in choices.items()},
                             key=f"hw_{name}",
                             help=switch_help(param) if param else _("An option of this kind of exercise; it is in "
                                                                     "the link with the seed."))
            options[name] = choices[picked]
        seed_col, new_col = st.columns([3, 1], vertical_alignment="bottom")
        seed = number_field(_("Seed (in the link: share it and the class gets the same exercise)"), key="seed",
                            minimum=0, maximum=10**9, whole=True, container=seed_col,
                            help=_("The same seed always gives the same exercise."))
        new_col.button(_("New exercise"), key="hw_new", on_click=_new_seed, icon=":material/casino:", width="stretch")
        loopback_warning(_("Links to this exercise"))
        exercise = compute(generate_exercise, seed, kind, **options)
    else:
        # Your own exercise, as your sheet gives it: one field per input of the kind, in the textbook's words.
        exercise = own_form(kind)

if exercise is None:
    worksheet_section()
    stop()

steps = cached_call(steps_for, exercise)  # the same exercise for the whole class: built once
st.subheader(exercise.title)
st.markdown(describe(exercise))
if exercise.source:
    st.caption(_("Source: {source}").format(source=exercise.source))
fingerprint = hashlib.sha1(repr(exercise).encode("utf-8")).hexdigest()[:10]
# The lecture-hall reveal, above the answers; closed until a lecturer starts it (or a link opens it at a step).
# Another exercise starts its reveal from the beginning (a link's step applies to the exercise it opens).
reveal_section(_("Worked solution, step by step (for the lecture hall)"), lambda: steps, key="hw_step",
               exercise=fingerprint)
answer_keys = [f"hw_answer_{fingerprint}_{i}" for i in range(len(steps))]

with st.form(key=f"hw_form_{fingerprint}", border=True):
    st.caption(_("Type each value as your sheet prints it: a decimal (1.893), a fraction (3/1.585, 2/3), a decimal "
                 "comma (1,893), a percentage (26.84%) or a minus sign (−0.176). Leave a step blank to skip it."))
    # One stage of the working at a time ("Step 2: DCG"), its boxes row by row: st.columns orders focus and a
    # phone's stacking column by column, so a single set of columns would scramble the working's order.
    for stage, in_stage in itertools.groupby(zip(steps, answer_keys), key=lambda pair: pair[0].stage):
        in_stage = list(in_stage)
        if stage:
            st.markdown(f"**{stage}**")
        for start in range(0, len(in_stage), ANSWERS_PER_ROW):
            row = st.columns(ANSWERS_PER_ROW)
            for column, (step, key) in zip(row, in_stage[start:start + ANSWERS_PER_ROW]):
                column.text_input(step.label, key=key, placeholder=_("your answer"))
    submitted = st.form_submit_button(_("Check my answers"), type="primary", key="hw_check",
                                      icon=":material/fact_check:")
if submitted:
    st.session_state["hw_checked"] = fingerprint
checked = st.session_state.get("hw_checked") == fingerprint
verdicts = check_answers(steps, [st.session_state.get(key, "") for key in answer_keys], tolerance) if checked else []
wrong_at = first_wrong(verdicts) if checked else None
# Hints before answers: one rung at a time, on the first step that went wrong once checked.
hint_section(steps, answer_keys, fingerprint, start=(wrong_at or 0) if submitted else None)
if checked:
    used = hints_used(fingerprint)
    message = " ".join(filter(None, [summary(verdicts), hint_summary(used, steps)]))
    if wrong_at is None and all(v.ok for v in verdicts):
        st.success(_("{message} Well done.").format(message=message), icon=":material/check_circle:")
    else:
        st.info(message, icon=":material/info:")

    # Wrapping cells, and a card per step on a phone: the reason is never off-screen in a grid.
    show_wrapping_table([{_("step"): v.step.label, _("your answer"): v.answer, _("mark"): _(MARKS[v.status]),
                          _("why"): v.message, _("hints"): hint_mark(used, i)} for i, v in enumerate(verdicts)],
                        caption=_("Your answers, marked"))
    for verdict in verdicts:
        if verdict.status == "unreadable":
            st.error(f"{verdict.step.label}: {verdict.message}")

    if wrong_at is not None:
        wrong = verdicts[wrong_at]
        st.error(_("**First step that went wrong: {step}.** You wrote {answer}.").format(
            step=wrong.step.label, answer=wrong.answer.strip()) + f" {wrong.message}", icon=":material/error:")
        named = [v for v in verdicts if v.mistake][:MAX_MISTAKES_SHOWN]
        if named:
            st.markdown(_("**Where your working parts from the formula**"))
            for verdict in named:
                st.markdown(_("*{step}*, as you worked it:").format(step=verdict.step.label))
                show_wrapping_formula(verdict.mistaken_formula)
                st.markdown(_("as the formula works it:"))
                show_wrapping_formula(verdict.step.formula)
        st.markdown(_("**The correct working from there** (within ±{tolerance}; later steps marked "
                      "“{carried}” used your own earlier numbers correctly):").format(
            tolerance=format_number(tolerance, 6), carried=STATUS_WORDS["carried"]))
        for step in steps[wrong_at:]:
            st.markdown(f"**{step.label}**")
            show_wrapping_formula(step.formula)

    if exercise.note:
        # Shown only after checking: the note quotes exact values.
        with st.expander(_("What the course note prints, and why it differs from the exact values")):
            st.markdown(exercise.note)

worksheet_section()
