"""AppTest of the ties page: the example and the whole-run comparison show exactly what
rankviz.evaluation.ties computes; grid edits, bad rows, uploads and malformed files."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from app_helpers import open_app, table_grid_key
from rankviz.data import SAMPLE_QRELS, SAMPLE_RUNS
from rankviz.evaluation.ties import TIE_RULES, compare_tie_rules, tie_example
from rankviz.ui.ties_view import DEFAULT_EXAMPLE, example_lists

PAGE = "app_pages/ties.py"
RUN_MEASURES = ["AP", "nDCG@10", "P@10", "RR"]  # the page's default choice

QRELS = b"q1 0 a 1\nq1 0 b 0\nq1 0 c 2\nq2 0 x 1\n"
RUN = b"q1 Q0 a 1 2.0 T\nq1 Q0 b 2 2.0 T\nq1 Q0 c 3 1.0 T\nq2 Q0 w 1 5.0 T\nq2 Q0 x 2 5.0 T\n"

_MARKERS = {"example": "rules disagree", "orderings": "input order", "mean": "queries that differ",
            "per_query": "tied documents"}


def _table(at, which):
    tables = [df.value for df in at.dataframe if _MARKERS[which] in df.value.columns
              and (which != "orderings" or "rank" in df.value.columns)]
    assert len(tables) == 1, (which, [list(df.value.columns) for df in at.dataframe])
    return tables[0]


def _edit_grid(at, edited_rows=None, added_rows=None, deleted_rows=None):
    at.session_state[table_grid_key(at, "ties")] = {"edited_rows": edited_rows or {}, "added_rows": added_rows or [],
                                                 "deleted_rows": deleted_rows or []}
    return at.run()


def test_default_example_shows_the_package_values():
    at = open_app(PAGE)
    assert not at.exception and not at.error
    shown = _table(at, "example").set_index("measure")
    docs, scores, grades = example_lists(DEFAULT_EXAMPLE)
    expected = tie_example(docs, scores, grades, ["P@2", "AP", "RR", "nDCG"])
    pd.testing.assert_frame_equal(shown[list(TIE_RULES)], expected[list(TIE_RULES)], check_names=False)
    # By hand: d2 (grade 2) ties with d3, d4 (grade 0) at ranks 2-4. trec_eval: d4, d3, d2 -> P@2 = 0 and
    # RR = 1/4; input order: d2 first -> P@2 = 1/2, RR = 1/2; averaged: P@2 = (1/3) / 2, RR = (1/2 + 1/3 + 1/4) / 3.
    assert shown.loc["P@2", list(TIE_RULES)].tolist() == pytest.approx([0, 1 / 2, 1 / 6])
    assert shown.loc["RR", list(TIE_RULES)].tolist() == pytest.approx([1 / 4, 1 / 2, (1 / 2 + 1 / 3 + 1 / 4) / 3])
    orderings = _table(at, "orderings")
    assert orderings["trec_eval"].tolist()[:4] == ["d1 (0)", "d4 (0)", "d3 (0)", "d2 (2)"]
    assert orderings["input order"].tolist()[:4] == ["d1 (0)", "d2 (2)", "d3 (0)", "d4 (0)"]


def test_editing_the_grid_recomputes():
    at = open_app(PAGE)
    at = _edit_grid(at, edited_rows={3: {"score": 9.0}})  # d4 now alone at the top
    assert not at.exception and not at.error
    docs, scores, grades = example_lists(DEFAULT_EXAMPLE)
    scores[3] = 9.0
    expected = tie_example(docs, scores, grades, ["P@2", "AP", "RR", "nDCG"])
    shown = _table(at, "example").set_index("measure")
    np.testing.assert_allclose(shown[list(TIE_RULES)].to_numpy(float), expected[list(TIE_RULES)].to_numpy(float))
    assert _table(at, "orderings")["trec_eval"].iloc[0] == "d4 (0)"


@pytest.mark.parametrize(("edit", "fragment"), [
    ({"edited_rows": {1: {"score": None}}}, "Row 2: the score is empty"),
    ({"edited_rows": {2: {"grade": None}}}, "Row 3: the grade is empty"),
    ({"edited_rows": {2: {"doc": "d1"}}}, "document 'd1' appears twice"),
    ({"deleted_rows": [0, 1, 2, 3, 4, 5]}, "The example is empty"),
])
def test_bad_rows_give_a_message_and_keep_the_last_valid_example(edit, fragment):
    at = open_app(PAGE)
    before = _table(at, "example")
    at = _edit_grid(at, **edit)
    assert not at.exception
    assert any(fragment in e.value for e in at.error), [e.value for e in at.error]
    assert any(fragment in e.value and "last valid example" in e.value for e in at.error)
    pd.testing.assert_frame_equal(_table(at, "example"), before)


def test_reset_restores_the_default_example():
    at = _edit_grid(open_app(PAGE), edited_rows={3: {"score": 9.0}})
    at.button(key="ties_reset").click().run()
    assert table_grid_key(at, "ties") == "ties_grid_1"
    assert _table(at, "orderings")["trec_eval"].iloc[1] == "d4 (0)"  # back in the tie at 2.5


def test_sample_run_comparison_equals_compare_tie_rules():
    at = open_app(PAGE)
    assert not at.exception and not at.error
    expected = compare_tie_rules(SAMPLE_QRELS, SAMPLE_RUNS["bm25_rounded"], RUN_MEASURES)
    mean = _table(at, "mean").set_index("measure")
    np.testing.assert_allclose(mean[list(TIE_RULES)].to_numpy(float), expected.mean[list(TIE_RULES)].to_numpy(float))
    assert mean["queries that differ"].tolist() == expected.mean["queries that differ"].tolist()
    assert set(mean["tie-averaged by"]) == {"exact"}
    per_query = _table(at, "per_query")
    focus = at.selectbox(key="ties_measure").value
    part = expected.per_query[expected.per_query.measure == focus]
    np.testing.assert_allclose(per_query["tie-averaged"].to_numpy(float), part["tie-averaged"].to_numpy(float))
    tied = int((expected.ties["tied documents"] > 0).sum())
    assert at.metric[0].value == f"{tied} of {len(expected.ties)}"


def test_monte_carlo_measure_states_its_samples():
    at = open_app(PAGE)
    at.multiselect(key="ties_measures").set_value(["AP", "ERR@20"])
    at.number_input(key="ties_samples").set_value(20)
    at.run()
    assert not at.exception and not at.error
    method = _table(at, "mean").set_index("measure")["tie-averaged by"]
    assert method["ERR@20"] == "Monte Carlo, 20 samples (seed 0)" and method["AP"] == "exact"


def test_monte_carlo_samples_are_capped_on_big_runs(monkeypatch):
    import rankviz.ui.ties_view as ties_view

    monkeypatch.setattr(ties_view, "SAMPLING_BUDGET", 3000)  # the sample run has 1000 lines: 3 samples
    at = open_app(PAGE)
    at.multiselect(key="ties_measures").set_value(["ERR@20"]).run()
    assert not at.exception and not at.error
    assert any("using 3 samples" in w.value for w in at.warning), [w.value for w in at.warning]
    assert _table(at, "mean").set_index("measure").loc["ERR@20", "tie-averaged by"] == "Monte Carlo, 3 samples (seed 0)"


def test_uploaded_run_and_malformed_run():
    at = open_app(PAGE)
    at.radio(key="ties_source").set_value("Upload files").run()
    at.file_uploader(key="ties_qrels_file").set_value(("q.txt", QRELS, "text/plain"))
    at.file_uploader(key="ties_run_file").set_value(("t.run", RUN, "text/plain"))
    at.run()
    assert not at.exception and not at.error
    expected = compare_tie_rules(QRELS.decode(), RUN.decode(), RUN_MEASURES)
    mean = _table(at, "mean").set_index("measure")
    np.testing.assert_allclose(mean[list(TIE_RULES)].to_numpy(float), expected.mean[list(TIE_RULES)].to_numpy(float))
    # q1: a (relevant) and b tie at 2.0: trec_eval ranks b first (AP = (1/2 + 2/3) / 2), input order a first.
    assert expected.per_query.set_index(["measure", "query_id"]).loc[("AP", "q1"), "trec_eval"] == pytest.approx(
        (1 / 2 + 2 / 3) / 2)
    at.file_uploader(key="ties_run_file").set_value(("bad.run", b"q1 Q0 a 1 2.0 T\nq1 Q0 b 2\n", "text/plain"))
    at.run()
    assert not at.exception
    assert any("bad.run line 2" in e.value for e in at.error), [e.value for e in at.error]
    # t.run's numbers are not bad.run's: the error alone (issue 20, item 9).
    assert not at.warning and not any(f"`{name}`" in c.value for c in at.caption for name in ("t.run", "bad.run"))
    assert not at.get("metric")
    assert not [df for df in at.dataframe if "tie-averaged by" in df.value.columns]


@pytest.mark.parametrize(("rows", "fragment"), [
    ({"doc": ["a", "b"], "score": [1.0, 2.0], "grade": [1, 0.5]}, "Row 2: the grade must be a whole number; got 0.5"),
    ({"doc": ["a", "b"], "score": ["1", "abc"], "grade": [1, 0]}, "Row 2: the score must be a number; got 'abc'"),
    ({"doc": ["a", " "], "score": [1.0, 2.0], "grade": [1, 0]}, "Row 2: the doc id is empty"),
    ({"doc": ["a"], "score": [float("inf")], "grade": [1]}, "Row 1: the score must be a finite number"),
])
def test_example_lists_rejects_bad_rows(rows, fragment):
    with pytest.raises(ValueError, match=fragment.replace("(", r"\(")):
        example_lists(pd.DataFrame(rows))


def test_no_measure_is_a_message():
    at = open_app(PAGE)
    at.multiselect(key="ties_measures").set_value([]).run()
    assert not at.exception
    assert any("Pick at least one measure" in e.value for e in at.error)
