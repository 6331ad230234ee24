"""AppTest of the homework checker: answers typed by step key are marked as rankviz.teaching.homework marks them."""


import pytest

from app_helpers import open_app
from rankviz.teaching.homework import (
    HOMEWORK_PRESETS,
    KINDS,
    describe,
    exercise_from_preset,
    generate_exercise,
    own_exercise,
    steps_for,
)
from teaching_helpers import errors, homework_marks, open_reveal, page_path

PAGE = page_path("homework")
# Lecture 002's printed working of the NDCG exercise: truncated terms, and 1.286 for 3/log2(5) = 1.292.
SLIDE = ["11", "7", "1.892", "3.5", "0", "0.386", "1.068", "13.846", "7", "4.416", "1.5", "1.286", "0.386",
         "14.588", "0.949"]


def _open(query=None):
    at = open_app(PAGE, query)
    assert not at.exception, at.exception
    return at


def _answer_inputs(at):
    """The answer boxes in the order of the page (what Tab and a phone's stacking follow)."""
    return [box for box in at.text_input if box.key.startswith("hw_answer_")]


def _marks(at):
    return homework_marks(at)


def _formulas(at):
    """The worked lines drawn after a check (inline display-style math, rankviz.ui.wrapping)."""
    return [markdown.value for markdown in at.markdown if markdown.value.startswith("$\\displaystyle")]


def _type_and_check(at, answers):
    for box, answer in zip(_answer_inputs(at), answers):
        box.set_value(answer)
    at.button(key="hw_check").click().run()
    assert not at.exception, at.exception
    return _marks(at)


def test_the_slides_working_is_marked_step_by_step():
    at = _open({"hw_source": "course", "hw_preset": "ndcg_exercise"})
    steps = steps_for(exercise_from_preset("ndcg_exercise"))
    assert [box.label for box in _answer_inputs(at)] == [step.label for step in steps]
    marks = _type_and_check(at, SLIDE)
    labels = marks["step"].tolist()
    assert marks.loc[labels.index("DCG"), "mark"] == "✓ as the notes print it"
    assert marks.loc[labels.index("DCG"), "why"] == ("The course notes print this; they cut each term to 3 decimals "
                                                     "before adding (exact 13.848).")
    assert marks.loc[labels.index("IDCG term at rank 4 (grade 2)"), "mark"] == "✗ wrong"
    assert "a slip on the slide: 3/2.322 = 1.292" in marks.loc[labels.index("IDCG term at rank 4 (grade 2)"), "why"]
    assert marks.loc[labels.index("IDCG"), "mark"] == "✓ follows from your answers"
    assert "print 1.286 for 3/2.322 = 1.292 at rank 4 (exact 14.595)" in marks.loc[labels.index("IDCG"), "why"]
    assert marks.loc[labels.index("NDCG"), "mark"] == "✓ right"
    first = next(text for text in errors(at) if "First step that went wrong" in text)
    assert "IDCG term at rank 4 (grade 2)" in first and "1.286" in first
    # The working from the wrong step on: 3 / log2(5) = 1.292, then IDCG and NDCG; nothing before it.
    formulas = _formulas(at)
    assert r"\frac{3}{2.322} = 1.292" in formulas[0]
    assert len(formulas) == len(steps) - labels.index("IDCG term at rank 4 (grade 2)")
    note = next(e for e in at.expander if "course note" in e.label)  # the preset's note, after checking
    assert any("1.286" in markdown.value for markdown in note.markdown)


def test_exact_answers_get_a_success_message():
    at = _open({"hw_source": "course", "hw_preset": "ap_positions_1_3_6"})
    marks = _type_and_check(at, ["1", "1/2", "2/3", "0.5", "0.4", "0,5", "0.722"])
    assert set(marks["mark"]) == {"✓ right"}
    assert any("7 of 7 steps right" in success.value for success in at.success)
    assert not _formulas(at)  # nothing went wrong: no working is revealed


def test_nothing_is_marked_or_revealed_before_checking():
    at = _open({"hw_source": "course", "hw_preset": "srcc_exercise"})
    assert _marks(at) is None
    assert not any("course note" in e.label for e in at.expander) and not _formulas(at)


def test_tolerance_is_selectable():
    at = _open({"hw_source": "course", "hw_preset": "ap_positions_1_3_6", "tol": "0.005"})
    marks = _type_and_check(at, ["", "", "0.67"])
    assert marks.loc[2, "mark"] == "✓ right"
    at.selectbox(key="tol").set_value("0.001").run()
    marks = _marks(at)
    assert marks.loc[2, "mark"] == "✗ wrong"


def test_a_shared_seed_link_opens_the_same_practice_exercise():
    at = _open({"seed": "1234"})
    assert at.radio(key="hw_source").value == "practice"
    exercise = generate_exercise(1234, "ndcg")
    assert any(describe(exercise) == markdown.value for markdown in at.markdown)
    assert [box.label for box in _answer_inputs(at)] == [step.label for step in steps_for(exercise)]


def test_practice_kind_and_new_exercise_button():
    at = _open({"hw_source": "practice", "hw_kind": "spearman", "seed": "7"})
    assert any(describe(generate_exercise(7, "spearman")) == m.value for m in at.markdown)
    at.button(key="hw_new").click().run()
    assert not at.exception
    assert at.text_input(key="seed").value != "7"


def test_own_list_for_ap_with_r():
    at = _open({"hw_source": "own", "hw_kind": "ap", "hw_rels": "1,0,1", "hw_R": "4"})
    steps = steps_for(own_exercise("ap", rels=[1, 0, 1], n_relevant=4))
    marks = _type_and_check(at, ["1", "0.5", "0.667", "0.3"])
    assert marks["step"].tolist() == [step.label for step in steps]
    assert marks.loc[3, "mark"] == "✗ wrong"  # (1 + 2/3) / 4 = 0.417


def test_own_list_for_ndcg_with_unretrieved_grades():
    at = _open({"hw_source": "own", "hw_kind": "ndcg", "hw_rels": "1,0", "hw_gain": "linear", "hw_unretrieved": "2"})
    steps = steps_for(own_exercise("ndcg", rels=[1, 0], gain="linear", unretrieved=[2]))
    assert [box.label for box in _answer_inputs(at)] == [step.label for step in steps]
    assert any("every judged grade" in markdown.value for markdown in at.markdown)


@pytest.mark.parametrize("query, message", [
    ({"hw_source": "own", "hw_kind": "ndcg", "hw_rels": "3,abc"}, "abc"),
    ({"hw_source": "own", "hw_kind": "ap", "hw_rels": "1,0", "hw_R": "x"},
     "R (relevant documents in the collection): cannot read 'x' as a number"),
    ({"hw_source": "own", "hw_kind": "ndcg", "hw_rels": "1,0", "hw_unretrieved": "-1"}, "-1"),
    ({"hw_source": "own", "hw_kind": "spearman", "hw_r1": "1,2,3", "hw_r2": "1,2"}, "one rank in R1 and one in R2"),
    ({"hw_source": "own", "hw_kind": "ndcg", "hw_rels": ",".join(["1"] * 101)}, "at most 100"),
    ({"hw_source": "practice", "seed": "-5"}, "Seed"),
])
def test_bad_exercise_input_shows_a_message_and_no_exception(query, message):
    at = _open(query)
    assert any(message in text for text in errors(at)), errors(at)


def test_unreadable_answer_gets_a_clear_message():
    at = _open({"hw_source": "course", "hw_preset": "ap_positions_1_3_6"})
    marks = _type_and_check(at, ["one"])
    assert marks.loc[0, "mark"] == "? cannot read"
    assert any("Cannot read 'one' as a number" in text for text in errors(at))


# ---------------------------------------------------------------- every kind, mistakes named, the reveal


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_kind_opens_as_a_practice_exercise(kind):
    at = _open({"hw_source": "practice", "hw_kind": kind, "seed": "3"})
    exercise = generate_exercise(3, kind)
    assert any(describe(exercise) == markdown.value for markdown in at.markdown)
    assert [box.label for box in _answer_inputs(at)] == [step.label for step in steps_for(exercise)]
    assert not errors(at)


@pytest.mark.parametrize("preset", list(HOMEWORK_PRESETS))
def test_every_course_exercise_opens(preset):
    at = _open({"hw_source": "course", "hw_preset": preset})
    exercise = exercise_from_preset(preset)
    assert [box.label for box in _answer_inputs(at)] == [step.label for step in steps_for(exercise)]
    assert not errors(at)


def test_a_mistake_is_named_with_the_line_where_the_working_parts():
    """DCG terms typed with ln (a student's slip the issue names): the page says so and shows both lines."""
    at = _open({"hw_source": "course", "hw_preset": "ndcg_exercise"})
    steps = steps_for(exercise_from_preset("ndcg_exercise"))
    rank_2 = next(i for i, step in enumerate(steps) if step.label == "DCG term at rank 2 (grade 2)")
    answers = [""] * len(steps)
    answers[rank_2] = "2.731"  # (2^2 - 1) / ln 3
    marks = _type_and_check(at, answers)
    assert "natural logarithm" in marks.loc[rank_2, "why"]
    assert any("natural logarithm" in text for text in errors(at))
    formulas = _formulas(at)
    assert any(r"\ln(2 + 1)" in formula for formula in formulas)
    assert any(r"\log_2(2 + 1)" in formula for formula in formulas)


def _revealed_rows(at):
    return [line for markdown in at.markdown for line in markdown.value.splitlines()
            if line.startswith("| ") and not line.startswith("| step")]


def test_the_reveal_shows_one_more_step_per_click_and_keeps_it_in_the_link():
    at = _open({"hw_source": "course", "hw_preset": "ndcg_exercise"})
    assert not _revealed_rows(at)
    assert not [b for b in at.button if b.key == "hw_step_next"]  # closed: nothing of the working is drawn
    open_reveal(at, "hw_step")
    assert not _revealed_rows(at)
    for _ in range(3):
        at.button(key="hw_step_next").click().run()
    assert not at.exception
    rows = _revealed_rows(at)
    # CG, then two DCG terms, and the DCG sum being built from the two revealed terms.
    assert rows[0].startswith("| CG |") and rows[1].startswith("| DCG term at rank 1")
    assert rows[-1].startswith("| DCG (so far)") and r"7 + 1.893 + \dots" in rows[-1]
    assert any("**Step 2: DCG**\n\n| step | working | value |" in markdown.value for markdown in at.markdown)
    assert at.query_params.get("hw_step") in ("3", ["3"])
    at.button(key="hw_step_previous").click().run()
    assert len(_revealed_rows(at)) == 3  # CG, one DCG term, the sum so far


def test_a_link_opens_the_reveal_at_its_step_and_show_all_reveals_every_step():
    steps = steps_for(exercise_from_preset("ndcg_exercise"))
    at = _open({"hw_source": "course", "hw_preset": "ndcg_exercise", "hw_step": "8"})
    rows = _revealed_rows(at)
    assert rows[-1].startswith("| DCG |") and len(rows) == 8
    at.button(key="hw_step_all").click().run()
    assert len(_revealed_rows(at)) == len(steps)
    assert _revealed_rows(at)[-1].startswith("| NDCG |")
    at.button(key="hw_step_reset").click().run()
    assert not _revealed_rows(at)


def test_an_unreadable_answer_keeps_the_other_answers_and_they_are_still_marked():
    at = _open({"hw_source": "course", "hw_preset": "ap_positions_1_3_6"})
    marks = _type_and_check(at, ["1", "half", "0.667", "", "0.4", "0.5", "0.722"])
    assert marks["mark"].tolist() == ["✓ right", "? cannot read", "✓ right", "—", "✓ right", "✓ right", "✓ right"]
    assert [box.value for box in _answer_inputs(at)][:3] == ["1", "half", "0.667"]  # nothing typed is lost
    assert any("P@2 (not relevant): Cannot read 'half' as a number" in text for text in errors(at))


def test_a_worksheet_is_made_from_kinds_count_and_seed_with_four_downloads():
    at = _open({"hw_source": "course", "hw_preset": "ndcg_exercise"})
    assert not at.get("download_button")  # nothing is built before it is asked for
    at.multiselect(key="ws_kinds").set_value(["ap", "ndcg"])
    at.number_input(key="ws_count").set_value(3)
    at.number_input(key="ws_seed").set_value(7)
    at.button(key="ws_make").click().run()
    assert not at.exception, at.exception
    assert at.session_state["ws_choice"] == (("ap", "ndcg"), 3, 7)
    downloads = at.get("download_button")
    assert len(downloads) == 4
    labels = [button.proto.label for button in downloads]
    assert labels == ["Worksheet (LaTeX)", "Worksheet (HTML, prints cleanly)", "Answer key (LaTeX)",
                      "Answer key (HTML, prints cleanly)"]


def test_a_worksheet_without_kinds_says_so():
    at = _open({"hw_source": "course", "hw_preset": "ndcg_exercise"})
    at.multiselect(key="ws_kinds").set_value([])
    at.button(key="ws_make").click().run()
    assert any("Pick at least one kind" in text for text in errors(at))


def test_another_exercise_starts_its_reveal_from_the_beginning():
    # After "Show all" on one exercise, the next (another preset, or a new practice seed) is not given away.
    at = _open({"hw_source": "course", "hw_preset": "ndcg_exercise", "hw_step": "3"})
    assert len(_revealed_rows(at)) == 4  # the link's step applies to the exercise it opens (3 + the sum so far)
    at.button(key="hw_step_all").click().run()
    assert _revealed_rows(at)
    at.selectbox(key="hw_preset").set_value("ap_positions_1_3_6").run()
    assert not at.exception and not _revealed_rows(at)
    assert at.query_params.get("hw_step") in (None, "0", ["0"])
    at = open_reveal(_open({"hw_source": "practice", "hw_kind": "ap", "seed": "5"}), "hw_step")
    at.button(key="hw_step_all").click().run()
    assert _revealed_rows(at)
    at.button(key="hw_new").click().run()
    assert not at.exception and not _revealed_rows(at)


def test_a_closed_reveal_keeps_its_step_in_the_link_and_reopens_there():
    at = _open({"hw_source": "course", "hw_preset": "ndcg_exercise", "hw_step": "2"})
    before = _revealed_rows(at)
    assert len(before) == 3  # CG, the DCG term at rank 1, the DCG sum so far
    at.session_state["hw_step_open"] = False
    at.run()
    assert not at.exception and not _revealed_rows(at)
    assert at.query_params.get("hw_step") in ("2", ["2"])
    open_reveal(at, "hw_step")
    assert _revealed_rows(at) == before
