"""Aggregates over queries: course values, hand formulas, scipy as a reference, properties."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from rankviz.metrics import Breakdown
from rankviz.metrics.aggregate import (
    arithmetic_mean,
    arithmetic_mean_breakdown,
    geometric_mean_average_precision,
    geometric_mean_average_precision_breakdown,
    harmonic_mean_average_precision,
    harmonic_mean_average_precision_breakdown,
    mean_average_precision,
    mean_average_precision_breakdown,
    mean_reciprocal_rank,
    mean_reciprocal_rank_breakdown,
)

# Course 002, slide "GMAP - example": per-topic AP of two runs.
RUN_1 = [0.05, 0.10, 0.50, 0.50, 0.75]
RUN_2 = [0.10, 0.30, 0.45, 0.45, 0.60]

AP_TYPE = [
    mean_average_precision,
    geometric_mean_average_precision,
    harmonic_mean_average_precision,
    mean_reciprocal_rank,
]
ALL = AP_TYPE + [arithmetic_mean]
PAIRS = [
    (mean_average_precision, mean_average_precision_breakdown),
    (geometric_mean_average_precision, geometric_mean_average_precision_breakdown),
    (harmonic_mean_average_precision, harmonic_mean_average_precision_breakdown),
    (mean_reciprocal_rank, mean_reciprocal_rank_breakdown),
    (arithmetic_mean, arithmetic_mean_breakdown),
]
unit_values = st.lists(st.floats(min_value=0, max_value=1, allow_nan=False), min_size=1, max_size=20)


# ----------------------------------------------------------------- course values


def test_gmap_slide_both_runs_have_map_038():
    # Course 002 'GMAP - example': "Run 1 and Run 2 have the same MAP of 0.38".
    assert mean_average_precision(RUN_1) == pytest.approx((0.05 + 0.10 + 0.50 + 0.50 + 0.75) / 5)
    assert mean_average_precision(RUN_1) == pytest.approx(0.38)
    assert mean_average_precision(RUN_2) == pytest.approx(0.38)


def test_gmap_slide_values_exact_and_as_printed():
    # Course 002 'GMAP - example': "Run 1 has a GMAP of 0.25 and Run 2 has a GMAP of 0.33".
    run_1 = geometric_mean_average_precision(RUN_1)
    run_2 = geometric_mean_average_precision(RUN_2)
    assert run_1 == pytest.approx((0.05 * 0.10 * 0.50 * 0.50 * 0.75) ** (1 / 5))  # = 0.2480
    assert run_2 == pytest.approx((0.10 * 0.30 * 0.45 * 0.45 * 0.60) ** (1 / 5))  # = 0.3253
    assert round(run_1, 2) == 0.25
    assert round(run_2, 2) == 0.33
    # No AP is below the floor, so the floor plays no part in the slide's numbers.
    assert geometric_mean_average_precision(RUN_1, floor=0) == pytest.approx(run_1, rel=1e-15)


def test_map_slide_q1_q2():
    # Course 002 'MAP - An example': (0.28 + 0.254) / 2 = 0.267.
    assert mean_average_precision([0.28, 0.254]) == pytest.approx((0.28 + 0.254) / 2)
    assert round(mean_average_precision([0.28, 0.254]), 3) == 0.267


def test_mrr_slide_q1_q2():
    # Course 002 'Mean Reciprocal Rank (MRR) - An example': RR(q1) = 1/1, RR(q2) = 1/3 (S_h = 3);
    # the slide prints (1 + 0.33) / 2 = 0.67.
    value = mean_reciprocal_rank([1 / 1, 1 / 3])
    assert value == pytest.approx((1 + 1 / 3) / 2)
    assert round(value, 2) == 0.67
    assert mean_reciprocal_rank([1, 0.33]) == pytest.approx(0.665)


def test_hmap_by_hand_on_run_1():
    expected = 5 / (1 / 0.05 + 1 / 0.10 + 1 / 0.50 + 1 / 0.50 + 1 / 0.75)  # RUN_1
    assert harmonic_mean_average_precision(RUN_1) == pytest.approx(expected)


# ----------------------------------------------------------------- the floor


def test_gmap_floor_is_trec_evals_1e5():
    # trec_eval m_gm_map.c: log(max(AP, 0.00001)) averaged, then exp.
    expected = math.exp((math.log(1e-5) + math.log(0.5)) / 2)  # APs 0, 0.5
    assert geometric_mean_average_precision([0.0, 0.5]) == pytest.approx(expected)


def test_gmap_floor_is_a_parameter():
    expected = math.exp((math.log(0.01) + math.log(0.5)) / 2)  # APs 0.001 -> 0.01, 0.5
    assert geometric_mean_average_precision([0.001, 0.5], floor=0.01) == pytest.approx(expected)


def test_floor_zero_makes_any_zero_ap_zero():
    assert geometric_mean_average_precision([0.0, 0.9, 1.0], floor=0) == 0.0
    assert harmonic_mean_average_precision([0.0, 0.9, 1.0], floor=0) == 0.0
    gmap = geometric_mean_average_precision_breakdown([0.0, 0.9], floor=0)
    assert gmap.value == 0.0
    assert gmap.table["ln max(AP, ε)"].iloc[0] == -math.inf
    assert harmonic_mean_average_precision_breakdown([0.0, 0.9], floor=0).value == 0.0


def test_hmap_floors_a_zero_ap():
    expected = 2 / (1 / 1e-5 + 1 / 0.5)  # APs 0, 0.5
    assert harmonic_mean_average_precision([0.0, 0.5]) == pytest.approx(expected)


def test_all_queries_zero_gives_the_floor():
    assert geometric_mean_average_precision([0, 0, 0]) == pytest.approx(1e-5)
    assert harmonic_mean_average_precision([0, 0, 0]) == pytest.approx(1e-5)


# ----------------------------------------------------------------- references and properties


@settings(max_examples=60, deadline=None)
@given(aps=st.lists(st.floats(min_value=1e-5, max_value=1), min_size=1, max_size=20))
def test_means_agree_with_scipy_above_the_floor(aps):
    assert mean_average_precision(aps) == pytest.approx(np.mean(aps), rel=1e-12)
    assert geometric_mean_average_precision(aps) == pytest.approx(stats.gmean(aps), rel=1e-9)
    assert harmonic_mean_average_precision(aps) == pytest.approx(stats.hmean(aps), rel=1e-9)


@settings(max_examples=60, deadline=None)
@given(aps=unit_values)
def test_hmap_le_gmap_le_map_in_unit_interval(aps):
    hmap = harmonic_mean_average_precision(aps)
    gmap = geometric_mean_average_precision(aps)
    mean = mean_average_precision(aps)
    # With a floor the inequality is between means of the floored APs, whose mean is >= MAP.
    floored_mean = float(np.mean(np.maximum(aps, 1e-5)))
    tolerance = 1e-12  # the three means round differently when all values are equal
    assert 0 <= hmap <= gmap + tolerance
    assert gmap <= floored_mean + tolerance
    assert floored_mean <= 1
    assert 0 <= mean <= 1
    assert isinstance(hmap, float) and isinstance(gmap, float) and isinstance(mean, float)


@settings(max_examples=30, deadline=None)
@given(value=st.floats(min_value=0.01, max_value=1), n=st.integers(min_value=1, max_value=10))
def test_equal_values_give_that_value_for_every_mean(value, n):
    for func in AP_TYPE + [arithmetic_mean]:
        assert func([value] * n) == pytest.approx(value, rel=1e-12)


def test_gmap_rewards_lifting_the_worst_query_more_than_map():
    # Lifting the worst topic 0.05 -> 0.10 and lowering the best 0.75 -> 0.70 keeps MAP equal.
    lifted = [0.10, 0.10, 0.50, 0.50, 0.70]
    assert mean_average_precision(lifted) == pytest.approx(mean_average_precision(RUN_1))
    assert geometric_mean_average_precision(lifted) > geometric_mean_average_precision(RUN_1)


def test_arithmetic_mean_accepts_values_beyond_one():
    assert arithmetic_mean([2.0, 3.5, -1.0]) == pytest.approx((2.0 + 3.5 - 1.0) / 3)


@pytest.mark.parametrize("func", ALL, ids=lambda f: f.__name__)
def test_list_array_series_agree_and_input_not_mutated(func):
    values = np.array([0.2, 0.9, 0.4])
    before = values.copy()
    expected = func([0.2, 0.9, 0.4])
    assert func(values) == expected
    assert func(pd.Series(values)) == expected
    assert func((0.2, 0.9, 0.4)) == expected
    np.testing.assert_array_equal(values, before)


# ----------------------------------------------------------------- breakdowns


@pytest.mark.parametrize(("func", "breakdown"), PAIRS, ids=lambda f: getattr(f, "__name__", ""))
@settings(max_examples=40, deadline=None)
@given(values=unit_values)
def test_breakdown_value_equals_scalar(func, breakdown, values):
    worked = breakdown(values)
    assert isinstance(worked, Breakdown) and isinstance(worked.table, pd.DataFrame) and not worked.table.attrs
    assert len(worked.table) == len(values)
    assert worked.value == pytest.approx(func(values), rel=1e-9, abs=1e-15)
    assert worked.latex.endswith(f"{func(values):.3f}")


def test_gmap_breakdown_rows_follow_the_slide():
    worked = geometric_mean_average_precision_breakdown(RUN_1, queries=["#1", "#2", "#3", "#4", "#5"])
    assert list(worked.table.columns) == ["query", "AP", "max(AP, ε)", "ln max(AP, ε)"]
    assert worked.table["query"].tolist() == ["#1", "#2", "#3", "#4", "#5"]
    np.testing.assert_allclose(worked.table["ln max(AP, ε)"], np.log(RUN_1))
    assert worked.latex.startswith(r"\mathrm{GMAP} = \exp\left(\frac{\ln 0.05 + \ln 0.1")
    assert worked.latex.endswith("= 0.248")
    assert worked.details["floor"] == 1e-5


def test_gmap_breakdown_shows_the_floor_applied():
    worked = geometric_mean_average_precision_breakdown([0.0, 0.5])
    assert worked.table["max(AP, ε)"].tolist() == [1e-5, 0.5]
    assert worked.table["ln max(AP, ε)"].iloc[0] == pytest.approx(math.log(1e-5))
    assert r"\ln 10^{-5}" in worked.latex


def test_hmap_breakdown_reciprocal_column():
    worked = harmonic_mean_average_precision_breakdown([0.5, 0.25, 0.0])
    assert worked.table["1 / max(AP, ε)"].tolist() == pytest.approx([2.0, 4.0, 1e5])
    assert worked.value == pytest.approx(3 / (2 + 4 + 1e5))  # APs 0.5, 0.25, 0 -> 1e-5


def test_map_and_mrr_breakdown_latex_from_the_slides():
    assert mean_average_precision_breakdown([0.28, 0.254]).latex == (
        r"\mathrm{MAP} = \frac{0.28 + 0.254}{2} = 0.267")
    worked = mean_reciprocal_rank_breakdown([1, 1 / 3], queries=["q1", "q2"])
    assert worked.table["query"].tolist() == ["q1", "q2"]
    assert worked.latex == r"\mathrm{MRR} = \frac{1 + 0.3333}{2} = 0.667"


def test_default_query_labels():
    assert mean_average_precision_breakdown([0.1, 0.2, 0.3]).table["query"].tolist() == ["q1", "q2", "q3"]


def test_many_queries_are_elided_in_latex():
    latex = mean_average_precision_breakdown([0.5] * 50).latex
    assert r"\cdots" in latex and latex.count("0.5 +") < 10
    assert latex.endswith(r"{50} = 0.500")


def test_the_elided_sum_keeps_the_last_two_queries():
    # The same rule as every breakdown's sum: 8 terms, \cdots, the last two; 10 queries are shown in full.
    latex = mean_average_precision_breakdown([0.5] * 9 + [0.25, 0.75]).latex
    assert latex == r"\mathrm{MAP} = \frac{" + "0.5 + " * 8 + r"\cdots + 0.25 + 0.75}{11} = 0.500"
    assert r"\cdots" not in mean_average_precision_breakdown([0.5] * 10).latex


# ----------------------------------------------------------------- bad input


@pytest.mark.parametrize("func", ALL + [b for _, b in PAIRS], ids=lambda f: f.__name__)
def test_empty_input_raises(func):
    with pytest.raises(ValueError, match=rf"{func.__name__} needs at least one query"):
        func([])


@pytest.mark.parametrize("func", AP_TYPE, ids=lambda f: f.__name__)
@pytest.mark.parametrize(("bad", "message"), [
    ([0.5, 1.2], r"must be in the range \[0, 1\]; got 1.2 at query 2"),
    ([-0.1], r"must be in the range \[0, 1\]; got -0.1 at query 1"),
    ([0.5, float("nan")], r"finite numbers; got nan at position 2"),
    ([0.5, "0.3"], r"must be numbers; got '0.3' at position 2"),
    (0.5, r"sequence of numbers. Got the scalar 0.5"),
    ("0.5", r"not a string"),
    (None, r"Got None"),
])
def test_bad_values_raise(func, bad, message):
    with pytest.raises(ValueError, match=message):
        func(bad)


def test_arithmetic_mean_still_rejects_non_finite():
    with pytest.raises(ValueError, match=r"'values' of arithmetic_mean must be finite numbers; got inf"):
        arithmetic_mean([1.0, math.inf])


@pytest.mark.parametrize("func", [geometric_mean_average_precision, harmonic_mean_average_precision,
                                  geometric_mean_average_precision_breakdown,
                                  harmonic_mean_average_precision_breakdown], ids=lambda f: f.__name__)
@pytest.mark.parametrize("floor", [-1e-5, 1.5, math.nan, "0.1", True, None])
def test_bad_floor_raises(func, floor):
    message = rf"'floor' parameter of {func.__name__} must be a number in the range \[0, 1\]"
    with pytest.raises(ValueError, match=message):
        func([0.5], floor=floor)


def test_query_labels_must_match_the_values():
    with pytest.raises(ValueError, match=r"one label per value: 2 value\(s\) but 3 label\(s\)"):
        mean_average_precision_breakdown([0.1, 0.2], queries=["a", "b", "c"])
    with pytest.raises(ValueError, match=r"'queries' parameter .* not a string"):
        mean_reciprocal_rank_breakdown([0.1, 0.2], queries="ab")


def test_a_series_indexed_by_query_labels_its_rows():
    per_query = pd.Series([0.5, 0.25], index=["401", "402"])
    assert mean_average_precision_breakdown(per_query).table["query"].tolist() == ["401", "402"]
    assert geometric_mean_average_precision_breakdown(per_query).table["query"].tolist() == ["401", "402"]
    # A default RangeIndex says nothing about the queries: the labels stay q1, q2.
    assert mean_reciprocal_rank_breakdown(pd.Series([1.0, 0.5])).table["query"].tolist() == ["q1", "q2"]
    # Explicit labels win.
    assert arithmetic_mean_breakdown(per_query, queries=["a", "b"]).table["query"].tolist() == ["a", "b"]


def test_gmap_matches_trec_eval_through_pytrec_eval(pytrec_eval):
    # q2 retrieves nothing relevant (AP 0), so trec_eval's floor is exercised.
    qrels = {"q1": {"a": 1, "b": 1}, "q2": {"c": 1}, "q3": {"d": 1}, "q4": {"e": 1, "f": 1, "g": 1}}
    run = {"q1": {"a": 3.0, "x": 2.0, "b": 1.0}, "q2": {"y": 1.0}, "q3": {"z": 2.0, "d": 1.0},
           "q4": {"n": 4.0, "g": 3.0, "m": 2.0, "e": 1.0}}
    per_query = pytrec_eval.RelevanceEvaluator(qrels, {"map", "gm_map"}).evaluate(run)
    queries = sorted(per_query)
    aps = [per_query[q]["map"] for q in queries]
    # trec_eval's per-query gm_map is ln(max(AP, 1e-5)); its summary is exp of their mean.
    trec_logs = [per_query[q]["gm_map"] for q in queries]
    assert geometric_mean_average_precision(aps) == pytest.approx(math.exp(np.mean(trec_logs)), rel=1e-12)
    worked = geometric_mean_average_precision_breakdown(aps, queries=queries)
    np.testing.assert_allclose(worked.table["ln max(AP, ε)"], trec_logs, rtol=1e-12)
