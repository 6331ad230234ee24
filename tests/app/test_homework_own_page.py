"""AppTest of the homework page's own-exercise forms and its hint ladder (issue 22).

* every kind's form shows only that kind's inputs, and a published exercise typed into it round-trips
  through the page's link: the link the page writes reopens the same exercise (the same steps);
* a bad input names its field, keeps the answers typed and the exercise, and the link keeps only
  valid input;
* the hint ladder reveals one rung per click (what to compute, the formula with the student's own
  numbers, the value) and the marks say which steps used hints.
"""

from __future__ import annotations


import pytest

from app_helpers import open_app
from homework_sheets import SHEETS
from rankviz.teaching.homework import KINDS, describe, own_exercise, own_fields, own_text, steps_for
from rankviz.ui.own_homework import widget_key
from teaching_helpers import errors, homework_marks, page_path

PAGE = page_path("homework")
FIRST_SHEET = {kind: next(sheet for sheet in SHEETS if sheet.kind == kind) for kind in KINDS}


def _link_of(kind: str, inputs: dict) -> dict:
    """The page's link for ``inputs`` as a student would have typed them (each field's text)."""
    fields = {field.name: field for field in own_fields(kind)}
    query = {"hw_source": "own", "hw_kind": kind}
    for name, value in inputs.items():
        exercise_value = value if not isinstance(value, str) or fields[name].kind in ("choice", "option") else value
        query[widget_key(fields[name])] = (exercise_value if isinstance(exercise_value, str)
                                           else own_text(kind, name, exercise_value))
    return query


def _open(query):
    at = open_app(PAGE, query)
    assert not at.exception, at.exception
    return at


def _answer_boxes(at):
    return [box for box in at.text_input if box.key.startswith("hw_answer_")]


def _fields(at) -> set[str]:
    """The keys of the own form's fields drawn (text boxes, text areas, radios)."""
    own = {widget_key(field) for kind in KINDS for field in own_fields(kind)}
    drawn = {box.key for box in (*at.text_input, *at.text_area, *at.radio)}
    return drawn & own


def _marks(at):
    return homework_marks(at)


@pytest.mark.parametrize("kind", list(KINDS))
def test_each_kinds_form_round_trips_a_published_exercise_through_the_link(kind):
    sheet = FIRST_SHEET[kind]
    exercise = own_exercise(kind, **sheet.inputs)
    at = _open(_link_of(kind, sheet.inputs))
    assert not errors(at), errors(at)
    assert _fields(at) == {widget_key(field) for field in own_fields(kind)}, "the form shows only this kind's inputs"
    assert any(describe(exercise) == markdown.value for markdown in at.markdown)
    labels = [step.label for step in steps_for(exercise, mistakes=False)]
    assert [box.label for box in _answer_boxes(at)] == labels
    # The link the page wrote opens the same exercise in a fresh session.
    again = _open(dict(at.query_params))
    assert [box.label for box in _answer_boxes(again)] == labels
    assert any(describe(exercise) == markdown.value for markdown in again.markdown)


def test_the_printed_answers_typed_into_the_page_are_marked_right():
    """Wikipedia's DCG example typed as the article prints it, with the tolerance of 3 decimals."""
    sheet = next(sheet for sheet in SHEETS if sheet.name == "Wikipedia nDCG")
    at = _open({**_link_of("ndcg", sheet.inputs), "tol": "0.0005"})
    for box in _answer_boxes(at):
        box.set_value(sheet.answers.get(box.label, ""))
    at.button(key="hw_check").click().run()
    marks = _marks(at)
    typed = marks[marks["your answer"] != ""]
    assert set(typed["mark"]) == {"✓ right"}, typed[["step", "mark", "why"]]


def test_a_bad_input_names_its_field_and_keeps_the_answers_and_the_link():
    at = _open({"hw_source": "own", "hw_kind": "ap", "hw_rels": "R N R N", "hw_R": "3"})
    boxes = _answer_boxes(at)
    boxes[0].set_value("1")
    boxes[2].set_value("2/3")
    at.button(key="hw_check").click().run()
    link = dict(at.query_params)
    # R below the relevant documents listed: the message sits beside R and names it.
    at.text_input(key="hw_R").set_value("1").run()
    assert not at.exception
    assert any(text.startswith("R = 1 is below the 2 relevant documents") for text in errors(at)), errors(at)
    assert [box.value for box in _answer_boxes(at)][:3] == ["1", "", "2/3"]  # the answers stay
    assert dict(at.query_params) == link  # the link keeps R = 3
    # A list that does not read: the same, and the field keeps what was typed.
    at.text_area(key="hw_rels").set_value("R N Q N").run()
    assert any("Relevance in ranked order" in text and "'Q'" in text for text in errors(at)), errors(at)
    assert at.text_area(key="hw_rels").value == "R N Q N"
    assert [box.value for box in _answer_boxes(at)][:3] == ["1", "", "2/3"]
    assert dict(at.query_params) == link
    assert not _open(link).error


def test_a_list_pasted_as_a_column_with_decimal_commas_reads():
    at = _open({"hw_source": "own", "hw_kind": "auc", "hw_labels": "0\n0\n1\n1", "hw_scores": "0,1\n0,4\n0,35\n0,8"})
    assert not errors(at)
    assert _answer_boxes(at)[-1].label == "AUC"
    assert any("0.35" in markdown.value for markdown in at.markdown)


def _hint_texts(at) -> list[str]:
    rungs = ("AP is the mean", "With your answers", "With this exercise's numbers", "The value:")
    return [markdown.value for markdown in at.markdown if markdown.value.startswith(rungs)]


def test_the_hint_ladder_reveals_one_rung_per_click_and_the_marks_say_so():
    at = _open({"hw_source": "own", "hw_kind": "ap", "hw_rels": "R N R N", "hw_R": "3"})
    steps = steps_for(own_exercise("ap", rels="R N R N", n_relevant=3))
    boxes = _answer_boxes(at)
    boxes[0].set_value("1")
    boxes[2].set_value("0.6")  # the student's own (wrong) P@3
    at.button(key="hw_check").click().run()
    # Checked: the ladder opens on the first step that went wrong (P@3); pick AP instead.
    picker = next(box for box in at.selectbox if box.key.startswith("hw_hint_step_"))
    assert picker.value == 2
    picker.set_value(len(steps) - 1).run()
    assert not _hint_texts(at)  # nothing before a click
    at.button(key="hw_hint_next").click().run()
    assert _hint_texts(at) == [steps[-1].hint]
    at.button(key="hw_hint_next").click().run()
    assert _hint_texts(at)[1] == "With your answers: $\\frac{1 + 0.6}{3} = 0.533$."  # their 0.6, not 2/3
    at.button(key="hw_hint_next").click().run()
    assert _hint_texts(at)[2] == "The value: $\\mathrm{AP} = 0.556$."
    assert at.button(key="hw_hint_next").disabled  # the value was the last rung
    marks = _marks(at)
    assert marks["hints"].tolist() == ["—"] * (len(steps) - 1) + ["3 of 3: the value"]
    assert any("Hints used on 1 step: AP (the value)." in info.value for info in at.info)
