"""AppTest of the "Many queries" page: shown values equal the package's for the same input."""

import pytest

from app_helpers import open_app, table_grid_key
from rankviz.formatting import format_number
from rankviz.metrics import (
    average_precision,
    geometric_mean_average_precision,
    mean_average_precision,
    mean_reciprocal_rank,
    ndcg,
    reciprocal_rank,
)
from rankviz.teaching.presets import get_preset
from rankviz.ui.table_editor import table_key

PAGE = "app_pages/many_queries.py"
Q1, Q2 = get_preset("q1_binary").rels, get_preset("q2_binary").rels


def _metrics(at) -> dict:
    return {m.label: m.value for m in at.metric}


def _results(at) -> dict:
    """The worked results' headings, e.g. {"AP(q1)": "0.29"}."""
    found = {}
    for block in at.markdown:
        if block.value.startswith("### "):
            label, value = block.value[4:].split("  \n")[0].split(" = ")
            found[label] = value
    return found


@pytest.fixture
def at():
    app = open_app(PAGE)
    assert not app.exception, app.exception
    return app


def test_default_is_the_course_map_example_with_every_aggregate(at):
    aps = [average_precision(Q1, n_relevant=10), average_precision(Q2, n_relevant=3)]
    shown = _metrics(at)
    assert shown["MAP"] == format_number(mean_average_precision(aps), 3)
    assert shown["GMAP"] == format_number(geometric_mean_average_precision(aps), 3)
    assert shown["MRR"] == format_number(mean_reciprocal_rank([reciprocal_rank(Q1), reciprocal_rank(Q2)]), 3)
    per_query = at.dataframe[1].value.set_index("query")
    assert per_query.loc["q2", "AP"] == pytest.approx((1 / 3 + 2 / 8 + 3 / 15) / 3)  # ranks 3, 8, 15; R = 3
    assert per_query.loc["q1", "nDCG"] == pytest.approx(ndcg(Q1, judged=list(Q1) + [1] * 5))


def test_the_mrr_example_loads_with_its_threshold():
    at = open_app(PAGE)
    at.selectbox(key="mq_example").set_value("mrr_threshold")
    at.button(key="mq_load").click().run()
    assert not at.exception
    assert at.text_input(key="mq_sh").value == "3"
    # Course 002 "MRR - an example": (1/1 + 1/3) / 2 = 0.667.
    assert _metrics(at)["MRR@3"] == format_number((1 + 1 / 3) / 2, 3)


def test_the_gmap_example_shows_equal_map_and_different_gmap():
    at = open_app(PAGE)
    at.selectbox(key="mq_example").set_value("gmap_runs")
    at.button(key="mq_load").click().run()
    assert not at.exception
    shown = _metrics(at)
    run1, run2 = get_preset("gmap_runs").runs["Run 1"], get_preset("gmap_runs").runs["Run 2"]
    assert shown["Run 1: MAP"] == shown["Run 2: MAP"] == format_number(0.38, 3)
    assert shown["Run 1: GMAP"] == format_number(geometric_mean_average_precision(run1), 3)  # 0.248
    assert shown["Run 2: GMAP"] == format_number(geometric_mean_average_precision(run2), 3)  # 0.325
    assert _results(at)["GMAP (Run 1)"] == format_number(geometric_mean_average_precision(run1), 3)
    assert any(c.value.startswith(f"Table loaded from **{get_preset('gmap_runs').title}") for c in at.caption)


def test_editing_a_ranking_in_the_grid_changes_the_values(at):
    at.session_state[table_grid_key(at, "mq_queries")] = {"edited_rows": {1: {"grades": "1,1,0"}}, "added_rows": [],
                                       "deleted_rows": []}
    at.run()
    assert not at.exception
    per_query = at.dataframe[1].value.set_index("query")
    # q2 is now 1,1,0 with R = 3: AP = (1/1 + 2/2) / 3.
    assert per_query.loc["q2", "AP"] == pytest.approx(2 / 3)
    aps = [average_precision(Q1, n_relevant=10), 2 / 3]
    assert _metrics(at)["MAP"] == format_number(mean_average_precision(aps), 3)


def test_a_bad_grade_names_the_row_and_keeps_the_last_valid_values(at):
    before = _metrics(at)
    at.session_state[table_grid_key(at, "mq_queries")] = {"edited_rows": {1: {"grades": "1,abc"}}, "added_rows": [],
                                       "deleted_rows": []}
    at.run()
    assert not at.exception
    assert any("Row 2 (q2)" in e.value and "'abc'" in e.value for e in at.error)
    assert _metrics(at) == before


def test_a_new_query_row_is_scored():
    at = open_app(PAGE)
    at.session_state[table_grid_key(at, "mq_queries")] = {"edited_rows": {}, "added_rows": [{"query": "q3", "grades": "0,1"}],
                                       "deleted_rows": []}
    at.run()
    assert not at.exception
    per_query = at.dataframe[1].value.set_index("query")
    assert per_query.loc["q3", "RR"] == 0.5


def test_bad_k_shows_a_message_and_no_exception(at):
    at.text_input(key="mq_k").input("0").run()
    assert not at.exception
    assert any("k" in e.value and "got '0'" in e.value for e in at.error)


def test_k_from_the_link_sets_the_cutoff():
    at = open_app(PAGE, {"mq_k": "5"})
    assert not at.exception
    per_query = at.dataframe[1].value.set_index("query")
    assert per_query.loc["q1", "P@5"] == pytest.approx(2 / 5)  # q1: relevant at ranks 1 and 3 of the top 5


def test_choosing_a_query_opens_its_worked_tables(at):
    at.selectbox(key="mq_query").set_value("q2").run()
    assert _results(at)["AP(q2)"] == format_number(average_precision(Q2, n_relevant=3), 3)
    assert _results(at)["RR(q2)"] == format_number(1 / 3, 3)


def test_clicking_a_query_in_the_chart_opens_it(at):
    at.session_state["mq_chart"] = {"selection": {"pick": [{"query_id": "q2"}]}}
    at.run()
    assert not at.exception
    assert at.selectbox(key="mq_query").value == "q2"
    assert "AP(q2)" in _results(at)


def test_a_bad_ap_value_in_runs_mode_is_named():
    at = open_app(PAGE, {"mq_mode": "AP per query"})
    at.session_state[table_grid_key(at, "mq_runs")] = {"edited_rows": {0: {"Run 1": None}}, "added_rows": [],
                                                  "deleted_rows": []}
    at.run()
    assert not at.exception
    assert any("Row 1 (Topic #1), Run 1" in e.value for e in at.error)


def test_table_key_helper_matches_the_page_key():
    at = open_app(PAGE)
    assert table_grid_key(at, "mq_queries") == "mq_queries_grid_0"
    assert callable(table_key)


def test_queries_in_the_link_open_the_page_with_them():
    at = open_app(PAGE, {"mq_queries": "a=1,0,1/4;b=0,0,1"})
    assert not at.exception
    per_query = at.dataframe[1].value.set_index("query")
    assert per_query.loc["a", "AP"] == pytest.approx((1 / 1 + 2 / 3) / 4)  # R = 4
    assert per_query.loc["b", "RR"] == pytest.approx(1 / 3)
    assert at.query_params["mq_queries"] == "a=1,0,1/4;b=0,0,1"


def test_an_edit_is_written_to_the_link(at):
    assert "mq_queries" not in at.query_params  # the course example needs no parameter
    at.session_state[table_grid_key(at, "mq_queries")] = {"edited_rows": {1: {"grades": "1"}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert at.query_params["mq_queries"].endswith(";q2=1/3")


def test_a_bad_link_is_explained_and_the_example_shown():
    at = open_app(PAGE, {"mq_queries": "q1:1,0"})
    assert not at.exception
    assert any("link's queries" in e.value for e in at.error)
    assert "MAP" in {m.label for m in at.metric}
