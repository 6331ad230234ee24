"""The one-ranking page shows what the package computes, follows edits, restores shared links and
survives bad input. Values are compared with rankviz's own functions, never copied from the page."""

import math

import pandas as pd
import pytest
from app_helpers import HOME, ONE_RANKING, edit_grid, errors, metric_values, open_app, result_lines, table_with

from rankviz.formatting import format_number
from rankviz.metrics import ndcg, ndcg_breakdown
from rankviz.metrics.reference import reference_source
from rankviz.registry import get_spec, specs_for

LECTURE = [3, 2, 3, 0, 1, 2]  # 002 lecture, "Class Exercise - Compute DCG / IDCG / NDCG"


def _shown_ranking(at):
    grid = table_with(at, "grade")
    return list(grid["grade"]), list(grid["doc"])


def _lecture_exercise_from_home():
    at = open_app(HOME)
    at.selectbox(key="home_preset").select("ndcg_exercise").run()
    at.button(key="home_load").click().run()  # opens the graded page when it exists
    assert not at.exception
    at.switch_page(ONE_RANKING).run()  # the shared ranking and settings follow
    assert not at.exception
    return at


def test_the_lecture_preset_shows_ndcg_0949_with_exponential_gain():
    at = _lecture_exercise_from_home()
    assert at.radio(key="gain").value == "exponential"
    expected = ndcg(LECTURE, gain="exponential")
    assert round(expected, 3) == 0.949  # the slide's printed value
    assert metric_values(at)["nDCG@6"] == pytest.approx(expected, abs=1e-12)
    assert "nDCG@6 = 0.949" in result_lines(at)


def test_the_table_holds_every_binary_and_graded_metric_as_the_package_computes_it():
    at = open_app(ONE_RANKING, {"rels": "3,2,3,0,1,2", "k": "5", "gain": "exponential", "R": "6"})
    shown = table_with(at, "variant")
    specs = specs_for(inputs="ranking", families=("binary", "graded"))
    assert len(shown) == len(specs)
    settings = {"k": 5, "gain": "exponential", "discount": "log2", "n_relevant": 6}
    for spec, value in zip(specs, shown["value"]):
        assert value == pytest.approx(spec.function(LECTURE, **spec.applicable(settings)), nan_ok=True), spec.name
    assert "exponential gain" in shown.set_index("metric").loc["nDCG@5", "variant"]  # variants are never silent


def test_the_worked_table_formula_and_result_are_the_breakdowns():
    at = open_app(ONE_RANKING, {"rels": "3,2,3,0,1,2", "gain": "exponential"})
    expected = ndcg_breakdown(LECTURE, gain="exponential", discount="log2")
    shown = table_with(at, "running IDCG")
    pd.testing.assert_frame_equal(shown.reset_index(drop=True), expected.table.reset_index(drop=True),
                                  check_dtype=False)
    shown_latex = [latex.value.strip("$\n") for latex in at.latex]
    assert shown_latex == [get_spec("ndcg").formula, expected.latex]  # definition, then the numbers


def test_the_other_convention_is_shown_beside_the_result():
    at = open_app(ONE_RANKING, {"rels": "3,2,3,0,1,2", "gain": "exponential"})
    linear = format_number(ndcg(LECTURE, gain="linear"), 3)
    jarvelin = format_number(ndcg(LECTURE, gain="exponential", discount="jarvelin"), 3)
    boxes = " ".join(info.value for info in at.info)
    # Each box names the other choice in the registry's words (GAIN.label), and says what it changes.
    gain, discount = get_spec("ndcg").param("gain"), get_spec("ndcg").param("discount")
    assert f"**With the {gain.label('linear')}**: nDCG@6 = **{linear}**" in boxes
    assert f"**With the {discount.label('jarvelin')}**: nDCG@6 = **{jarvelin}**" in boxes
    assert gain.choice("linear").description in boxes


def test_editing_a_grade_in_the_grid_changes_ndcg_and_the_url():
    at = _lecture_exercise_from_home()
    edit_grid(at, edited_rows={3: {"grade": 3}})  # rank 4: 0 -> 3
    assert not at.exception
    edited = [3, 2, 3, 3, 1, 2]
    assert _shown_ranking(at)[0] == edited
    assert metric_values(at)["nDCG@6"] == pytest.approx(ndcg(edited, gain="exponential"))
    assert at.text_input(key="rels").value == "3,2,3,3,1,2"
    assert at.query_params["rels"] in ("3,2,3,3,1,2", ["3,2,3,3,1,2"])  # the shareable link follows
    at.run()  # the grid re-applies its edit to the new data: nothing may change twice
    assert _shown_ranking(at)[0] == edited and not at.exception


def test_adding_and_deleting_rows_in_the_grid():
    at = open_app(ONE_RANKING, {"rels": "1,0,2"})
    edit_grid(at, added_rows=[{"doc": "new", "grade": 3}])
    assert _shown_ranking(at) == ([1, 0, 2, 3], ["d1", "d2", "d3", "new"])
    edit_grid(at, added_rows=[{}])  # the grid's "+" adds an empty row: grade 0, a fresh id
    assert _shown_ranking(at) == ([1, 0, 2, 3, 0], ["d1", "d2", "d3", "new", "d4"])
    edit_grid(at, deleted_rows=[0, 2])
    assert _shown_ranking(at) == ([0, 3, 0], ["d2", "new", "d4"])
    assert at.text_input(key="rels").value == "0,3,0" and at.text_input(key="docs").value == "d2,new,d4"
    assert not at.exception


def test_row_buttons_move_delete_and_add():
    at = open_app(ONE_RANKING, {"rels": "1,0,2"})
    at.number_input(key="ranking_row").set_value(3).run()
    at.button(key="row_up").click().run()
    assert _shown_ranking(at) == ([1, 2, 0], ["d1", "d3", "d2"])
    assert at.number_input(key="ranking_row").value == 2  # the selection follows the row
    at.button(key="row_up").click().run()
    at.button(key="row_up").click().run()  # already at the top: nothing happens
    assert _shown_ranking(at)[1] == ["d3", "d1", "d2"]
    at.button(key="row_down").click().run()
    assert _shown_ranking(at)[1] == ["d1", "d3", "d2"]
    at.button(key="row_delete").click().run()
    assert _shown_ranking(at)[1] == ["d1", "d2"]
    at.button(key="row_add").click().run()
    assert _shown_ranking(at) == ([1, 0, 0], ["d1", "d2", "d3"])
    assert not at.exception


def test_typing_a_ranking_replaces_the_grid():
    at = open_app(ONE_RANKING)
    at.text_input(key="rels").set_value("2 2 0 1").run()
    assert _shown_ranking(at)[0] == [2, 2, 0, 1]
    at.text_input(key="docs").set_value("a, b, c, d").run()
    assert _shown_ranking(at)[1] == ["a", "b", "c", "d"]
    assert metric_values(at)["nDCG@4"] == pytest.approx(ndcg([2, 2, 0, 1]))


def test_a_shared_link_restores_ranking_settings_and_metric():
    params = {"rels": "1,0,3", "docs": "x,y,z", "k": "2", "unretrieved": "3", "gain": "exponential",
              "discount": "jarvelin", "metric": "dcg"}
    at = open_app(ONE_RANKING, params)
    assert not at.exception, at.exception
    assert _shown_ranking(at) == ([1, 0, 3], ["x", "y", "z"])
    assert at.text_input(key="k").value == "2"
    assert at.radio(key="gain").value == "exponential" and at.radio(key="discount").value == "jarvelin"
    assert at.selectbox(key="metric").value == "dcg"
    expected = ndcg([1, 0, 3], k=2, judged=[1, 0, 3, 3], gain="exponential", discount="jarvelin")
    assert metric_values(at)["nDCG@2"] == pytest.approx(expected)
    assert result_lines(at)[0].startswith("DCG@2 = ")


def test_judged_grades_not_retrieved_lower_ndcg():
    at = open_app(ONE_RANKING, {"rels": "1,1,1"})
    assert metric_values(at)["nDCG@3"] == pytest.approx(1.0)  # lecture: NDCG does not penalize missing docs
    at.text_input(key="unretrieved").set_value("1,1").run()
    assert metric_values(at)["nDCG@3"] == pytest.approx(ndcg([1, 1, 1], judged=[1, 1, 1, 1, 1]))
    assert metric_values(at)["nDCG@3"] < 1


@pytest.mark.parametrize("bad", ["abc", "-1", "", "1e9", "3,2,nan", "1, 2, 101"])
def test_bad_grades_show_an_error_and_keep_the_last_valid_ranking(bad):
    at = open_app(ONE_RANKING, {"rels": "3,2,3,0,1,2"})
    at.text_input(key="rels").set_value(bad).run()
    assert not at.exception
    assert any("Still showing the last valid ranking" in message for message in errors(at))
    assert _shown_ranking(at)[0] == LECTURE
    assert metric_values(at)["nDCG@6"] == pytest.approx(ndcg(LECTURE))


@pytest.mark.parametrize(("key", "bad", "message"), [
    ("k", "0", "k must be a whole number from 1 to 1000"),
    ("k", "abc", "k must be a whole number"),
    ("R", "x", "R must be a whole number"),
    ("R", "1", "R = 1 is smaller than the 5 relevant documents"),
    ("unretrieved", "a", "Grade at position 1 is 'a'"),
    ("docs", "a,b", "6 grades but 2 ids"),
    ("docs", "a,b,c,d,e,a", "'a' appears twice"),
])
def test_bad_settings_show_an_error_and_keep_the_last_valid_state(key, bad, message):
    at = open_app(ONE_RANKING, {"rels": "3,2,3,0,1,2", "k": "3"})
    at.text_input(key=key).set_value(bad).run()
    assert not at.exception
    assert any(message in shown for shown in errors(at)), errors(at)
    assert "nDCG@3" in metric_values(at)  # k = 3 (the last valid k) still in force
    assert _shown_ranking(at)[0] == LECTURE


def test_a_bad_grid_edit_shows_an_error_and_keeps_the_ranking():
    at = open_app(ONE_RANKING, {"rels": "3,2,3,0,1,2"})
    edit_grid(at, edited_rows={1: {"grade": -1}})
    assert not at.exception
    assert any("Grade at rank 2 is -1" in message for message in errors(at)), errors(at)
    assert _shown_ranking(at)[0] == LECTURE
    edit_grid(at, edited_rows={0: {"doc": "d2"}})
    assert any("'d2' appears twice" in message for message in errors(at))
    assert _shown_ranking(at)[1] == ["d1", "d2", "d3", "d4", "d5", "d6"]


def test_k_beyond_the_list_is_explained_not_refused():
    at = open_app(ONE_RANKING, {"rels": "1,0,1", "k": "10"})
    assert not errors(at)
    assert metric_values(at)["P@10"] == pytest.approx(2 / 10)  # missing ranks count as non-relevant
    assert any("beyond the 3 ranked documents" in caption.value for caption in at.caption)


@pytest.mark.parametrize("metric", [spec.name for spec in specs_for(inputs="ranking", families=("binary", "graded"))])
def test_every_metric_opens_as_a_worked_table(metric):
    at = open_app(ONE_RANKING, {"rels": "3,2,3,0,1,2", "metric": metric, "R": "7"})
    assert not at.exception, at.exception
    assert at.latex, f"{metric}: no formula"
    value = result_lines(at)[0].split(" = ")[-1]
    table = table_with(at, "variant").set_index("metric")
    shown = [v for label, v in table["value"].items() if label.split("@")[0] == result_lines(at)[0].split("@")[0]
             .split(" = ")[0]]
    if shown and not math.isnan(shown[0]):
        assert value == format_number(shown[0], 3)
    # "Show the code": the metric's reference implementation (plain loops, the formula visible;
    # tests/metrics/test_reference.py holds it equal to the package), not a call into a kernel.
    assert [code.value for code in at.code] == [reference_source(metric)]
    assert "kernel" not in reference_source(metric)


def test_a_thousand_row_ranking_is_fine_and_one_more_is_refused():
    at = open_app(ONE_RANKING)
    at.text_input(key="rels").set_value(",".join(["1", "0"] * 500)).run()
    assert not at.exception and len(table_with(at, "grade")) == 1000
    at.text_input(key="rels").set_value(",".join(["1"] * 1001)).run()
    assert any("at most 1000" in message for message in errors(at))
    assert len(table_with(at, "grade")) == 1000


@pytest.mark.parametrize(("param", "bad", "message", "key", "used"), [
    ("gain", "cubic", "gain = 'cubic' is not one of linear, exponential; using linear.", "gain", "linear"),
    ("discount", "log10", "discount = 'log10' is not one of log2, jarvelin; using log2.", "discount", "log2"),
    ("metric", "ndgc", "metric = 'ndgc' is not one of", "metric", "ndcg"),
])
def test_a_link_with_an_unknown_choice_says_so_and_uses_the_default(param, bad, message, key, used):
    at = open_app(ONE_RANKING, {"rels": "3,2,3,0,1,2", param: bad})
    assert not at.exception
    assert any(message in shown for shown in errors(at)), errors(at)
    widget = at.selectbox(key=key) if key == "metric" else at.radio(key=key)
    assert widget.value == used
