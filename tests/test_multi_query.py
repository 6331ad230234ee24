"""Tests of the many-queries computations (rankviz.teaching.multi_query)."""

import math

import numpy as np
import pandas as pd
import pytest

from rankviz.metrics import average_precision, ndcg, reciprocal_rank
from rankviz.teaching.multi_query import (
    QueryRanking,
    aggregate_table,
    parse_query_rows,
    parse_run_values,
    per_query_table,
    preset_query_rows,
    preset_run_values,
    query_breakdowns,
    query_rows_frame,
    runs_aggregate_table,
)


def test_parse_rows_reads_grades_and_optional_r_and_skips_blank_rows():
    frame = pd.DataFrame({"query": ["q1", None, "", "q4"], "grades": ["1,0,1", None, "0 1", "2;0"],
                          "R": ["4", None, None, 3.0]})
    queries = parse_query_rows(frame)
    assert queries == (QueryRanking("q1", (1, 0, 1), 4), QueryRanking("q3", (0, 1), None),
                       QueryRanking("q4", (2, 0), 3))


@pytest.mark.parametrize("rows, match", [
    ([{"query": "q1", "grades": "1,abc"}], r"Row 1 \(q1\).*'abc'"),
    ([{"query": "q1", "grades": "1,-1"}], r"Row 1 \(q1\)"),
    ([{"query": "q1", "grades": ""}, {"query": "q2", "grades": "1"}], r"Row 1 \(q1\): no grades"),
    ([{"query": "q1", "grades": "1,1", "R": "1"}], r"R = 1 is smaller than the 2 relevant"),
    ([{"query": "q1", "grades": "1", "R": "x"}], r"Row 1 \(q1\): R must be"),
    ([{"query": "q1", "grades": "1"}, {"query": "q1", "grades": "0"}], r"Row 2 \(q1\).*already used by row 1"),
    ([{"query": None, "grades": None, "R": None}], "holds no query"),
])
def test_bad_rows_name_the_row(rows, match):
    with pytest.raises(ValueError, match=match):
        parse_query_rows(rows)


def test_rows_frame_round_trips():
    queries = (QueryRanking("a", (1, 0, 2.5), None), QueryRanking("b", (0,), 3))
    assert parse_query_rows(query_rows_frame(queries)) == queries


def test_per_query_values_are_the_metric_functions():
    queries = parse_query_rows([{"query": "q1", "grades": "1,0,1,0,0,1", "R": "4"},
                                {"query": "q2", "grades": "0,0,2,0,1"}])
    table = per_query_table(queries, k=3, rr_cutoff=2, gain="exponential").table.set_index("query")
    # q1: AP = (1/1 + 2/3 + 3/6) / 4 = 0.5417 (course note 001's positions 1, 3, 6, with R = 4).
    assert table.loc["q1", "AP"] == pytest.approx((1 / 1 + 2 / 3 + 3 / 6) / 4)
    assert table.loc["q2", "AP"] == pytest.approx(average_precision([0, 0, 2, 0, 1]))
    # RR@2: q1's first relevant is rank 1; q2's is rank 3, beyond S_h = 2.
    assert table["RR@2"].tolist() == [1.0, 0.0]
    # nDCG@3 of q1 with R = 4 counts the unretrieved relevant document (grade 1) in the ideal.
    assert table.loc["q1", "nDCG@3"] == pytest.approx(ndcg([1, 0, 1, 0, 0, 1], 3, judged=[1, 0, 1, 0, 0, 1, 1],
                                                           gain="exponential"))
    assert table.loc["q2", "P@3"] == pytest.approx(1 / 3)
    assert table.loc["q1", "R"] == 4 and table.loc["q2", "R"] == 2


def test_course_map_example_reproduces_the_exact_values_the_preset_note_gives():
    # Course 002 (map_q1_q2 preset note): interpolated (0.290 + 0.255) / 2 = 0.2725; AP (0.290 + 0.261) / 2.
    queries = parse_query_rows(preset_query_rows("map_q1_q2"))
    aggregates = aggregate_table(per_query_table(queries)).set_index("measure")["value"]
    assert aggregates["lecture's MAP (mean iAP)"] == pytest.approx(0.2725, abs=5e-4)
    q2_ap = (1 / 3 + 2 / 8 + 3 / 15) / 3  # relevant at ranks 3, 8, 15 of q2, R = 3
    q1_ap = (1 / 1 + 2 / 3 + 3 / 6 + 4 / 10 + 5 / 15) / 10  # ranks 1, 3, 6, 10, 15, R = 10
    assert aggregates["MAP"] == pytest.approx((q1_ap + q2_ap) / 2)


def test_course_mrr_example_with_threshold():
    # Course 002 "MRR - an example": S_h = 3, first relevant at rank 1 (q1) and 3 (q2): (1 + 1/3) / 2.
    queries = parse_query_rows(preset_query_rows("mrr_threshold"))
    aggregates = aggregate_table(per_query_table(queries, rr_cutoff=3)).set_index("measure")["value"]
    assert aggregates["MRR@3"] == pytest.approx((1 + 1 / 3) / 2)


def test_aggregates_by_hand():
    table = pd.DataFrame({"query": ["t1", "t2", "t3"], "AP": [0.5, 0.25, 0.0], "RR": [1.0, 0.5, 0.0]})
    values = aggregate_table(table).set_index("measure")["value"]
    assert values["MAP"] == pytest.approx(0.75 / 3)
    assert values["GMAP"] == pytest.approx((0.5 * 0.25 * 1e-5) ** (1 / 3))  # the 0 is floored at 1e-5
    assert values["HMAP"] == pytest.approx(3 / (2 + 4 + 1e5))
    assert values["MRR"] == pytest.approx(0.5)


def test_breakdowns_of_one_query_total_the_table_values():
    query = QueryRanking("q", (0, 1, 0, 2), n_relevant=3)
    tables = query_breakdowns(query, k=3, rr_cutoff=3)
    assert list(tables) == ["AP", "RR@3", "nDCG@3"]
    assert tables["AP"].value == pytest.approx(average_precision([0, 1, 0, 2], n_relevant=3))
    assert tables["RR@3"].value == pytest.approx(reciprocal_rank([0, 1, 0, 2], 3))
    assert tables["nDCG@3"].value == pytest.approx(ndcg([0, 1, 0, 2], 3, judged=[0, 1, 0, 2, 1]))


def test_gmap_runs_preset_has_equal_map_and_different_gmap():
    # Course 002 slide "GMAP - example": both MAPs 0.38, GMAP 0.25 and 0.33 printed.
    runs = parse_run_values(preset_run_values("gmap_runs"))
    table = runs_aggregate_table(runs).set_index("measure")
    assert table.loc["MAP", "Run 1"] == pytest.approx(0.38) and table.loc["MAP", "Run 2"] == pytest.approx(0.38)
    assert table.loc["GMAP", "Run 1"] == pytest.approx(math.prod([0.05, 0.1, 0.5, 0.5, 0.75]) ** 0.2)
    assert round(table.loc["GMAP", "Run 1"], 2) == 0.25 and round(table.loc["GMAP", "Run 2"], 2) == 0.33


@pytest.mark.parametrize("rows, match", [
    ([{"query": "t1", "A": 1.5}], r"Row 1 \(t1\), A: AP must be a number from 0 to 1; got 1.5"),
    ([{"query": "t1", "A": "x"}], r"got 'x'"),
    ([{"query": "t1", "A": None}], r"got None"),
    ([{"query": "t1", "A": 0.1}, {"query": "t1", "A": 0.2}], "used twice"),
    ([{"query": "t1"}], "at least one run"),
    ([], "holds no query"),
])
def test_bad_run_values_name_the_cell(rows, match):
    with pytest.raises(ValueError, match=match):
        parse_run_values(rows)


def test_presets_of_the_wrong_kind_are_refused():
    with pytest.raises(ValueError, match="not several queries"):
        preset_query_rows("gmap_runs")
    with pytest.raises(ValueError, match="not per-query values"):
        preset_run_values("map_q1_q2")


def test_per_query_table_lists_its_metric_columns_in_order():
    scored = per_query_table([QueryRanking("q", (1, 0))])
    assert scored.metric_columns == ("AP", "iAP", "RR", "nDCG", "P@n")
    assert list(scored.table.columns) == ["query", "ranked", "R", *scored.metric_columns]
    assert np.isfinite(scored.table[list(scored.metric_columns)].to_numpy()).all()
    assert set(scored.conventions) == set(scored.metric_columns)


def test_the_link_form_round_trips_and_names_a_bad_part():
    from rankviz.teaching.multi_query import format_query_link, parse_query_link

    queries = (QueryRanking("q1", (1, 0, 3), 5), QueryRanking("topic 2", (0.5, 0), None))
    assert parse_query_link(format_query_link(queries)) == queries
    with pytest.raises(ValueError, match=r"Query 2 of the link \('b'\)"):
        parse_query_link("a=1;b")
    with pytest.raises(ValueError, match=r"Row 1 \(a\): R = 0 is smaller"):
        parse_query_link("a=1/0")


def test_unretrieved_relevant_documents_get_the_lowest_relevant_grade_in_the_ideal():
    # R = 2 at threshold 2 with one grade-2 document retrieved: the missing relevant document
    # has grade >= 2, so the ideal ranking is 2, 2 and nDCG = (2/1) / (2/1 + 2/log2(3)).
    query = QueryRanking("q", (2, 0), n_relevant=2)
    table = per_query_table([query], rel_threshold=2).table
    expected = 2 / (2 + 2 / np.log2(3))
    assert table["nDCG"].iloc[0] == pytest.approx(expected)
    assert query_breakdowns(query, rel_threshold=2)["nDCG"].value == pytest.approx(expected)
