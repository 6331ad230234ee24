"""AppTest of the graded-relevance page: every variant's values, the course note, URL, edits, bad input."""

import pytest

from app_helpers import open_app
from rankviz.teaching.graded_variants import graded_variants
from rankviz.metrics import err, ndcg, ndcg_breakdown
from rankviz.ui.state import grid_key
from teaching_helpers import chart_frames, errors, page_path, results, shown

PAGE = page_path("graded")


def _open(query=None):
    at = open_app(PAGE, query)
    assert not at.exception, at.exception
    return at


def _variant_table(at):
    return next(d.value for d in at.dataframe if "nDCG" in d.value.columns and "discount" in d.value.columns)


def test_course_exercise_with_exponential_gain_shows_0949_and_the_slide_numbers():
    # Lecture 002, "Class Exercise - Compute DCG / IDCG / NDCG": 3,2,3,0,1,2 with gain 2^g - 1 -> 0.949
    at = _open({"rels": "3,2,3,0,1,2", "gain": "exponential"})
    assert results(at)["nDCG@6"] == "0.949"
    note = next(info.value for info in at.info if "Course exercise" in info.value)
    assert "| DCG | 13.846 | 13.848 |" in note and "| IDCG | 14.588 | 14.595 |" in note
    assert "1.286" in note  # the preset's note: the slide's slip at IDCG rank 4


def test_variant_table_equals_the_package_and_marks_the_selected_variant():
    at = _open({"rels": "3,2,3,0,1,2", "gain": "exponential", "discount": "jarvelin", "k": "4"})
    table = _variant_table(at)
    expected = graded_variants([3, 2, 3, 0, 1, 2], 4)
    for column in ("CG", "DCG", "IDCG", "nDCG"):
        assert table[column].tolist() == pytest.approx(expected[column].tolist())
    selected = table[table["shown below"] != ""]
    assert selected[["gain", "discount"]].values.tolist() == [["exponential", "jarvelin"]]
    assert results(at)["nDCG@4"] == shown(ndcg([3, 2, 3, 0, 1, 2], 4, gain="exponential", discount="jarvelin"))


def test_worked_table_and_contribution_chart_show_the_ideal_beside_the_system():
    at = _open({"rels": "0,3,1", "gain": "linear"})
    worked = next(d.value for d in at.dataframe if "ideal contribution" in d.value.columns)
    expected = ndcg_breakdown([0, 3, 1])
    assert worked["contribution"].tolist() == pytest.approx(expected.table["contribution"].tolist())
    bars = next(frame for frame in chart_frames(at, 0) if "ranking" in frame.columns)
    assert set(bars["ranking"]) == {"system ranking", "ideal ranking"}
    assert bars["grade label"].tolist()[:3] == ["0", "3", "1"]  # relevance written as numbers, not colour only


def test_err_is_shown_with_its_stop_probabilities():
    at = _open({"rels": "2,0,1"})
    assert results(at)["ERR@3"] == shown(err([2, 0, 1]))
    stop = next(d.value for d in at.dataframe if "P(stop here)" in d.value.columns)
    assert stop["P(stop here)"].tolist()[0] == pytest.approx(3 / 4)  # R_1 = (2^2 - 1) / 2^2


def test_judged_grades_raise_the_ideal_and_gmax():
    at = _open({"rels": "1,1", "unretrieved": "3", "gain": "linear"})
    assert results(at)["nDCG@2"] == shown(ndcg([1, 1], judged=[1, 1, 3]))
    assert results(at)["ERR@2"] == shown(err([1, 1], max_grade=3))


def test_editing_a_grade_changes_ndcg_and_hides_the_course_note():
    at = _open({"rels": "3,2,3,0,1,2", "gain": "exponential"})
    revision = at.session_state["ranking_revision"]
    at.session_state[grid_key("", revision)] = {"edited_rows": {3: {"grade": 3}}, "added_rows": [],
                                                 "deleted_rows": []}
    at.run()
    assert not at.exception
    assert results(at)["nDCG@6"] == shown(ndcg([3, 2, 3, 3, 1, 2], gain="exponential")) != "0.949"
    assert not any("Course exercise" in info.value for info in at.info)


@pytest.mark.parametrize("key, value, message", [
    ("rels", "3,abc", "abc"),
    ("rels", "1e9", "1e9"),
    ("rels", "", "empty"),
    ("k", "0", "k must be a whole number"),
    ("unretrieved", "-2", "-2"),
])
def test_bad_input_shows_a_message_and_no_exception(key, value, message):
    at = _open({"rels": "3,2,1"})
    at.text_input(key=key).set_value(value).run()
    assert not at.exception
    assert any(message in text for text in errors(at)), errors(at)
    assert "nDCG@3" in results(at)  # last valid ranking still worked out


def test_the_ndcg_working_reveals_step_by_step_and_the_link_keeps_the_step():
    from rankviz.teaching.homework import own_exercise, steps_for

    at = _open({"rels": "3,2,3,0,1,2", "gain": "exponential", "step": "2"})
    steps = steps_for(own_exercise("ndcg", rels=(3, 2, 3, 0, 1, 2), gain="exponential"))
    rows = [line for m in at.markdown for line in m.value.splitlines() if line.startswith("| ") and "|---" not in line
            and not line.startswith("| step") and ("CG" in line or "term" in line)]
    assert rows[0].startswith("| CG |") and rows[1].startswith("| DCG term at rank 1 (grade 3)")
    at.button(key="step_all").click().run()
    assert not at.exception
    assert any("| NDCG | " in line and line.endswith(f"**{shown(steps[-1].expected)}** |")
               for m in at.markdown for line in m.value.splitlines())
    assert at.query_params.get("step") in (str(len(steps)), [str(len(steps))])
