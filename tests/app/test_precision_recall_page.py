"""AppTest of the precision-recall page: shown values equal the package's, presets, URL, edits, bad input."""

import pytest

from app_helpers import open_app
from rankviz.metrics import (
    average_precision,
    eleven_point_precision_breakdown,
    f_beta,
    precision_recall_points_breakdown,
    r_precision,
)
from rankviz.teaching.presets import PRESETS
from rankviz.ui.state import grid_key
from teaching_helpers import chart_frames, errors, page_path, results, shown

PAGE = page_path("precision_recall")


def _open(query=None):
    at = open_app(PAGE, query)
    assert not at.exception, at.exception
    return at


def _check_values(at, rels, *, n_relevant=None, k=None, beta=1.0):
    r = {"n_relevant": n_relevant} if n_relevant is not None else {}
    k_shown = k or len(rels)
    values = results(at)
    assert values[f"AP@{k_shown}"] == shown(average_precision(rels, k, **r))
    assert values[f"F{beta:g}@{k_shown}"] == shown(f_beta(rels, k, beta=beta, **r))
    n = n_relevant if n_relevant is not None else sum(g >= 1 for g in rels)
    assert values[f"R-precision (R = {n})"] == shown(r_precision(rels, **r))


def test_default_ranking_values_match_the_package():
    at = _open()
    _check_values(at, [3, 2, 3, 0, 1, 2])
    table = next(d.value for d in at.dataframe if "R@i" in d.value.columns)
    expected = precision_recall_points_breakdown([3, 2, 3, 0, 1, 2])
    assert table["P@i"].tolist() == pytest.approx(expected.table["P@i"].tolist())
    assert table["R@i"].tolist() == pytest.approx(expected.table["R@i"].tolist())


def test_load_q1_and_q2_draws_both_on_one_plot():
    at = _open()
    at.button(key="pr_load_q1_q2").click().run()
    assert not at.exception
    q1, q2 = PRESETS["q1_binary"], PRESETS["q2_binary"]
    assert at.text_input(key="rels").value == ",".join(map(str, q1.rels))
    assert at.text_input(key="b_rels").value == ",".join(map(str, q2.rels))
    assert at.text_input(key="R").value == "10" and at.text_input(key="b_R").value == "3"
    assert at.toggle(key="compare").value is True
    _check_values(at, list(q1.rels), n_relevant=10)
    assert results(at)["AP@15"] == "0.29"  # (1/1 + 2/3 + 3/6 + 4/10 + 5/15) / 10, lecture 002 q1
    raw = next(frame for frame in chart_frames(at, 0) if "relevance" in frame.columns)
    assert sorted(raw["system"].unique()) == ["A: Query q1", "B: Query q2"]
    b_points = raw[raw["system"] == "B: Query q2"]
    expected = precision_recall_points_breakdown(list(q2.rels), n_relevant=3)
    assert b_points["precision"].tolist() == pytest.approx(expected.table["P@i"].tolist())


def _callouts(at) -> list[str]:
    return [box.value for box in at.info if "the course note prints" in box.value]


@pytest.mark.parametrize(("preset_key", "printed", "exact"), [("q1_binary", "0.28", "0.29"),
                                                              ("q2_binary", "0.254", "0.255")])
def test_a_course_query_shows_the_slides_map_beside_the_exact_value(preset_key, printed, exact):
    # 002 "MAP - An example": q1's 'MAP' 0.28 (0.289 cut; exactly 0.290, AP too), q2's 0.254 (1/3 as 0.33;
    # exactly 0.255, while AP is 0.261). Opened on the query, the page says so beside its AP.
    preset = PRESETS[preset_key]
    at = _open({"rels": ",".join(map(str, preset.rels)), "R": str(preset.n_relevant)})
    (callout,) = _callouts(at)
    assert f"| the slide's 'MAP' of the query | {printed} | {exact} |" in callout
    assert preset.note in callout
    assert not _callouts(_open({"rels": ",".join(map(str, preset.rels)), "R": "9"}))  # another R: another query


def test_url_parameters_restore_the_state():
    at = _open({"rels": "1,0,1,0,0,1", "R": "4", "beta": "2", "rounding": "lround", "k": "3"})
    assert at.radio(key="rounding").value == "lround"
    _check_values(at, [1, 0, 1, 0, 0, 1], n_relevant=4, k=3, beta=2.0)
    eleven = at.dataframe[[i for i, d in enumerate(at.dataframe) if "recall level" in d.value.columns][0]].value
    expected = eleven_point_precision_breakdown([1, 0, 1, 0, 0, 1], n_relevant=4, rounding="lround")
    assert eleven["interpolated P"].tolist() == pytest.approx(expected.table["interpolated P"].tolist())


def test_changed_settings_are_written_into_the_link():
    at = _open()
    at.text_input(key="beta").set_value("2").run()
    at.radio(key="rounding").set_value("floor_plus_0.9").run()
    assert at.query_params["beta"] == "2" and at.query_params["rounding"] == "floor_plus_0.9"
    at.radio(key="rounding").set_value("ceil").run()
    assert "rounding" not in at.query_params  # the default is left out of the link


def test_settings_survive_a_visit_to_another_page():
    at = _open({"rels": "1,0,1"})
    at.text_input(key="beta").set_value("2").run()
    at.switch_page(page_path("graded")).run()
    at.switch_page(PAGE).run()
    assert not at.exception
    assert at.text_input(key="beta").value == "2"
    assert "F2@3" in results(at)


def test_rounding_rule_changes_the_eleven_point_values():
    # q2 of lecture 002 (R = 3): trec_eval 10 rounds 0.4 x 3 = 1.2 down to one relevant document.
    q2 = ",".join(map(str, PRESETS["q2_binary"].rels))
    at = _open({"rels": q2, "R": "3"})
    ceil = results(at)["11-point interpolated precision"]
    at.radio(key="rounding").set_value("lround").run()
    lround = results(at)["11-point interpolated precision"]
    expected = eleven_point_precision_breakdown(list(PRESETS["q2_binary"].rels), n_relevant=3, rounding="lround")
    assert lround == shown(expected.value) and lround != ceil


def test_k_beyond_the_ranking_is_labelled_with_k():
    at = _open({"rels": "1,0,1", "k": "5"})
    _check_values(at, [1, 0, 1], k=5)  # F1@5 and AP@5: the two missing ranks count as non-relevant


def test_editing_a_grade_in_the_grid_changes_the_values():
    at = _open({"rels": "1,0,1,0"})
    before = results(at)["AP@4"]
    revision = at.session_state["ranking_revision"]
    at.session_state[grid_key("", revision)] = {"edited_rows": {1: {"grade": 1}}, "added_rows": [],
                                                 "deleted_rows": []}
    at.run()
    assert not at.exception
    assert at.text_input(key="rels").value == "1,1,1,0"
    assert results(at)["AP@4"] == shown(average_precision([1, 1, 1, 0])) != before


@pytest.mark.parametrize("key, value, message", [
    ("beta", "abc", "β of F-β must be a number"),
    ("beta", "0", "β of F-β must be a number"),
    ("rels", "1,abc", "abc"),
    ("R", "-1", "R must be a whole number"),
    ("k", "0", "k must be a whole number"),
])
def test_bad_input_shows_a_message_and_keeps_the_last_valid_state(key, value, message):
    at = _open({"rels": "1,0,1"})
    at.text_input(key=key).set_value(value).run()
    assert not at.exception
    assert any(message in text for text in errors(at)), errors(at)
    assert "AP@3" in results(at)  # the page still draws its results


def test_unknown_rounding_in_a_link_says_so_and_uses_the_textbook():
    at = _open({"rels": "1,0,1", "rounding": "bogus"})
    assert any("rounding = 'bogus' is not one of" in text for text in errors(at))
    assert at.radio(key="rounding").value == "ceil"


def test_second_ranking_bad_input_does_not_break_the_page():
    at = _open({"compare": "true"})
    at.text_input(key="b_rels").set_value("").run()
    assert not at.exception
    assert any("empty" in text for text in errors(at))


def test_the_ap_working_reveals_step_by_step():
    from rankviz.teaching.homework import own_exercise, steps_for

    at = open_app(page_path("precision_recall"), {"rels": "1,0,1,0,0,1", "R": "3", "step": "3"})
    assert not at.exception, at.exception
    steps = steps_for(own_exercise("ap", rels=(1, 0, 1, 0, 0, 1), n_relevant=3))
    rows = [line for m in at.markdown for line in m.value.splitlines() if line.startswith("| P@")]
    assert [row.split(" | ")[0] for row in rows] == ["| P@1 (relevant)", "| P@2 (not relevant)", "| P@3 (relevant)"]
    at.button(key="step_all").click().run()
    assert any(line.startswith("| AP |") and "**0.722**" in line for m in at.markdown for line in m.value.splitlines())
    assert len(steps) == 7
