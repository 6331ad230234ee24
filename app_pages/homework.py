"""Homework checker: pick an exercise (a course preset, your own list, or a practice exercise
whose seed is in the link), type your answer for every step, and see each step marked, the
first one that went wrong and the correct working from there."""

import hashlib
import random

import streamlit as st

from rankviz.teaching.export import format_number
from rankviz.teaching.homework import (
    DISCOUNTS,
    GAINS,
    HOMEWORK_PRESETS,
    KINDS,
    OWN_KINDS,
    STATUS_WORDS,
    check_answers,
    describe,
    exercise_from_preset,
    first_wrong,
    generate_exercise,
    option_choices,
    own_exercise,
    preset_title,
    steps_for,
    summary,
)
from rankviz.teaching.parsing import parse_grades, parse_optional_int
from rankviz.ui.cached_results import cached_call
from rankviz.ui.fields import number_field
from rankviz.ui.layout import page_header
from rankviz.ui.link import link_value, link_widget, stop
from rankviz.ui.pages import page_for
from rankviz.ui.render import compute
from rankviz.ui.reveal import reveal_section
from rankviz.ui.settings import DISCOUNT_LABELS, GAIN_LABELS
from rankviz.ui.two_rankings import parse_ranks
from rankviz.ui.worksheet import worksheet_section

page = page_for("app_pages/homework.py")
page_header(page.title, page.purpose)

SOURCES = {"course": "a course exercise", "own": "your own list", "practice": "a practice exercise"}
TOLERANCES = {"0.0005": "3 decimals, rounded", "0.001": "3 decimals, rounded or cut",
              "0.005": "2 decimals, rounded", "0.01": "2 decimals, rounded or cut"}
# How the options of a practice exercise are asked (rankviz.teaching.homework.option_choices names them).
OPTION_LABELS = {"max_grade": "Top of the grading scale, g_max", "variant": "Kendall's tau variant",
                 "weights": "Weight of each user in GAUC"}
# Beyond this many the named mistakes are in the table only (the page stays short).
MAX_MISTAKES_SHOWN = 4
MARKS = {"right": "✓ right", "carried": "✓ follows from your answers", "wrong": "✗ wrong", "blank": "—",
         "unreadable": "? cannot read"}


def _new_seed() -> None:
    st.session_state["seed"] = str(random.randrange(1, 100_000))


def _text(label: str, key: str, help: str, container=None) -> str:
    return link_widget((container or st).text_input, label, key=key, help=help)


def _choice(label: str, options: dict, *, key: str, help: str, horizontal: bool = True, **default) -> str:
    """A radio of plain values (``options`` maps value -> caption) kept in the link."""
    return link_widget(st.radio, label, list(options), key=key, captions=list(options.values()), help=help,
                       horizontal=horizontal, **default)


# A link with only ?seed=1234 opens that practice exercise.
source_default = "practice" if link_value("seed") is not None and link_value("hw_source") is None else "course"
pick_col, tolerance_col = st.columns([3, 2], gap="medium")
with pick_col:
    source = _choice("Exercise", SOURCES, key="hw_source", default=source_default,
                     help="A course exercise as the notes set it, your own list and variant, or a practice "
                          "exercise drawn from a seed: share the link and everyone gets the same one.")
with tolerance_col:
    tolerance_text = link_widget(st.selectbox, "Accept answers within ±", list(TOLERANCES), key="tol",
                                 format_func=lambda t: f"±{t} ({TOLERANCES[t]})",
                                 help="How far an answer may be from the exact value. ±0.001 accepts a value "
                                      "rounded or cut to 3 decimals, as the lecture's tables do.")
tolerance = float(tolerance_text)

exercise = None
if source == "course":
    keys = list(HOMEWORK_PRESETS)
    chosen = link_widget(st.selectbox, "Course exercise", keys, key="hw_preset", default=keys[0],
                         format_func=preset_title,
                         help="Every exercise of the course notes the checker can walk through.")
    exercise = compute(exercise_from_preset, chosen)
else:
    kinds = dict(KINDS) if source == "practice" else {kind: KINDS[kind] for kind in OWN_KINDS}
    kind_col, variant_col = st.columns([2, 3], gap="medium")
    with kind_col:
        kind = link_widget(st.selectbox, "What to compute", list(kinds), key="hw_kind", format_func=kinds.get,
                           help="The kind of working the checker walks you through.")
    options = {}
    if kind == "ndcg":
        with variant_col:
            options["gain"] = _choice("Gain", {g: GAIN_LABELS[g] for g in GAINS}, key="hw_gain",
                                      help="Exponential 2^g − 1 is the lecture's final formula; linear g is "
                                           "trec_eval's.")
            options["discount"] = _choice("Discount", {d: DISCOUNT_LABELS[d] for d in DISCOUNTS}, key="hw_discount",
                                          help="Divide the gain at rank i by log2(i + 1), or by max(1, log2 i) "
                                               "(Järvelin-Kekäläinen).")
    else:
        with variant_col:
            for name, values in option_choices(kind).items():
                choices = {str(value): value for value in values}  # the link holds text
                picked = _choice(OPTION_LABELS.get(name, name.replace("_", " ").capitalize()),
                                 {text: "" for text in choices}, key=f"hw_{name}",
                                 help="An option of this kind of exercise; it is in the link with the seed.")
                options[name] = choices[picked]
    if source == "practice":
        seed_col, new_col = st.columns([3, 1], vertical_alignment="bottom")
        seed = number_field("Seed (in the link: share it and the class gets the same exercise)", key="seed",
                            minimum=0, maximum=10**9, whole=True, container=seed_col,
                            help="The same seed always gives the same exercise.")
        new_col.button("New exercise", key="hw_new", on_click=_new_seed, icon=":material/casino:", width="stretch")
        exercise = compute(generate_exercise, seed, kind, **options)
    elif kind == "spearman":
        a_col, b_col = st.columns(2)
        a_text = _text("Rank of each document in R1", "hw_r1", "Ranks 1..K, no ties.", a_col)
        b_text = _text("Rank of each document in R2", "hw_r2", "The same documents' ranks in R2.", b_col)
        ranks = compute(lambda: (parse_ranks(a_text, "R1"), parse_ranks(b_text, "R2")))
        if ranks is not None:
            exercise = compute(own_exercise, "spearman", ranks_a=ranks[0], ranks_b=ranks[1])
    else:
        rels_col, r_col = st.columns([3, 1])
        rels_text = _text("Grades in ranked order", "hw_rels",
                          "Rank 1 first, e.g. 3,2,3,0,1,2. For AP, grade ≥ 1 is relevant.", rels_col)
        r_value, unretrieved = None, ()
        if kind == "ap":
            r_text = _text("R (blank: count them)", "hw_R", "Relevant documents in the whole collection.", r_col)
            r_value = compute(parse_optional_int, r_text, name="R", minimum=0, maximum=1000, where=r_col)
        else:
            missed_text = _text("Judged, not retrieved", "hw_unretrieved",
                                "Grades of relevant documents the ranking missed, e.g. 3,1: they join the ideal "
                                "ranking. Blank: none.", r_col)
            if missed_text.strip():
                unretrieved = compute(parse_grades, missed_text, where=r_col) or ()
        grades = compute(parse_grades, rels_text, where=rels_col)
        if grades is not None:
            exercise = compute(own_exercise, kind, rels=grades, n_relevant=r_value, unretrieved=unretrieved,
                               **options)

if exercise is None:
    worksheet_section()
    stop()

steps = cached_call(steps_for, exercise)  # the same exercise for the whole class: built once
st.subheader(exercise.title)
st.markdown(describe(exercise))
if exercise.source:
    st.caption(f"Source: {exercise.source}")
fingerprint = hashlib.sha1(repr(exercise).encode("utf-8")).hexdigest()[:10]
# Another exercise starts its reveal from the beginning (a link's step applies to the exercise it opens).
if st.session_state.get("hw_step_for", fingerprint) != fingerprint:
    st.session_state["hw_step"] = "0"
st.session_state["hw_step_for"] = fingerprint
# The lecture-hall reveal, above the answers; closed until a lecturer starts it (or a link opens it at a step).
reveal_section("Worked solution, step by step (for the lecture hall)", lambda: steps, key="hw_step")
answer_keys = [f"hw_answer_{fingerprint}_{i}" for i in range(len(steps))]

with st.form(key=f"hw_form_{fingerprint}", border=True):
    st.caption("Type each value as a decimal (1.893), a fraction (3/1.585) or with a decimal comma (1,893). "
               "Leave a step blank to skip it.")
    columns = st.columns(3)
    for i, (step, key) in enumerate(zip(steps, answer_keys)):
        columns[i % 3].text_input(step.label, key=key, placeholder="your answer")
    submitted = st.form_submit_button("Check my answers", type="primary", key="hw_check",
                                      icon=":material/fact_check:")
if submitted:
    st.session_state["hw_checked"] = fingerprint
if st.session_state.get("hw_checked") == fingerprint:
    verdicts = check_answers(steps, [st.session_state.get(key, "") for key in answer_keys], tolerance)
    wrong_at = first_wrong(verdicts)
    message = summary(verdicts)
    if wrong_at is None and all(v.status in ("right", "carried") for v in verdicts):
        st.success(f"{message} Well done.", icon=":material/check_circle:")
    else:
        st.info(message, icon=":material/info:")

    marks = [{"step": v.step.label, "your answer": v.answer, "mark": MARKS[v.status], "why": v.message}
             for v in verdicts]
    st.dataframe(marks, hide_index=True, width="stretch", height="content", key="hw_marks",
                 column_config={"step": st.column_config.TextColumn("step", width="medium"),
                                "your answer": st.column_config.TextColumn("your answer", width="small"),
                                "mark": st.column_config.TextColumn("mark", width="medium"),
                                "why": st.column_config.TextColumn("why", width="large")})
    for verdict in verdicts:
        if verdict.status == "unreadable":
            st.error(f"{verdict.step.label}: {verdict.message}")

    if wrong_at is not None:
        wrong = verdicts[wrong_at]
        st.error(f"**First step that went wrong: {wrong.step.label}.** You wrote {wrong.answer.strip()}. "
                 f"{wrong.message}", icon=":material/error:")
        named = [v for v in verdicts if v.mistake][:MAX_MISTAKES_SHOWN]
        if named:
            st.markdown("**Where your working parts from the formula**")
            for verdict in named:
                st.markdown(f"*{verdict.step.label}*, as you worked it:")
                st.latex(verdict.mistaken_formula)
                st.markdown("as the formula works it:")
                st.latex(verdict.step.formula)
        st.markdown(f"**The correct working from there** (within ±{format_number(tolerance, 6)}; later steps marked "
                    f"“{STATUS_WORDS['carried']}” used your own earlier numbers correctly):")
        for step in steps[wrong_at:]:
            st.markdown(f"**{step.label}**")
            st.latex(rf"{step.formula}")

    if exercise.note:
        # Shown only after checking: the note quotes exact values.
        with st.expander("What the course note prints, and why it differs from the exact values"):
            st.markdown(exercise.note)

worksheet_section()
