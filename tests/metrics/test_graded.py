"""CG, DCG, IDCG, nDCG and ERR: course values, hand formulas, scikit-learn, properties, errors."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rankviz.metrics import Breakdown
from rankviz.metrics.graded import (
    cumulative_gain,
    cumulative_gain_breakdown,
    dcg,
    dcg_breakdown,
    err,
    err_breakdown,
    ideal_dcg,
    ideal_dcg_breakdown,
    ndcg,
    ndcg_breakdown,
)
from rankviz.teaching.presets import PRESETS

EXERCISE = [3, 2, 3, 0, 1, 2]  # course 002, 'Class Exercise - Compute DCG / IDCG / NDCG'
EXACT_DCG = 7 + 3 / np.log2(3) + 7 / 2 + 0 + 1 / np.log2(6) + 3 / np.log2(7)  # rel = 3,2,3,0,1,2, gain 2^rel-1
EXACT_IDCG = 7 + 7 / np.log2(3) + 3 / 2 + 3 / np.log2(5) + 1 / np.log2(6) + 0  # ideal rel = 3,3,2,2,1,0

grades = st.lists(st.integers(min_value=0, max_value=4), min_size=0, max_size=15)
nonempty_grades = st.lists(st.integers(min_value=0, max_value=4), min_size=1, max_size=15)
cutoffs = st.one_of(st.none(), st.integers(min_value=1, max_value=18))
variants = st.fixed_dictionaries({
    "gain": st.sampled_from(["linear", "exponential"]),
    "discount": st.sampled_from(["log2", "jarvelin"]),
    "log_base": st.sampled_from([2, 3, 10, 2.5]),
})


# ------------------------------------------------------------------ course exercise


def test_course_002_exercise_exact_values():
    assert dcg(EXERCISE, gain="exponential") == pytest.approx(EXACT_DCG, rel=1e-12)
    assert ideal_dcg(EXERCISE, gain="exponential") == pytest.approx(EXACT_IDCG, rel=1e-12)
    assert ndcg(EXERCISE, gain="exponential") == pytest.approx(EXACT_DCG / EXACT_IDCG, rel=1e-12)
    assert round(EXACT_DCG, 3) == 13.848 and round(EXACT_IDCG, 3) == 14.595
    assert round(ndcg(EXERCISE, gain="exponential"), 3) == 0.949  # the slide's 0.949


def test_course_002_exercise_matches_the_preset():
    preset = PRESETS["ndcg_exercise"]
    value = ndcg(list(preset.rels), **preset.settings)
    assert round(value, 3) == preset.printed["ndcg"]


def test_course_002_slide_dcg_table_explained():
    # The slide's table shows log2(1+i) to three decimals (1, 1.585, 2, 2.322, 2.585, 2.807) and
    # contributions 7, 1.892, 3.5, 0, 0.386, 1.068: each contribution is gain / rounded log
    # truncated (not rounded) to three decimals, e.g. 3 / 1.585 = 1.89274 -> 1.892.
    worked = dcg_breakdown(EXERCISE, gain="exponential")
    shown_logs = worked.table["log2(1+i)"].round(3)
    assert shown_logs.tolist() == [1.0, 1.585, 2.0, 2.322, 2.585, 2.807]
    truncated = np.floor(worked.table["gain"] / shown_logs * 1000) / 1000
    assert truncated.tolist() == [7, 1.892, 3.5, 0, 0.386, 1.068]
    assert round(truncated.sum(), 3) == 13.846  # the slide's DCG
    # Rounding the logs alone does not explain it: 13.848 again.
    assert round((worked.table["gain"] / shown_logs).sum(), 3) == 13.848


def test_course_002_slide_idcg_table_explained():
    # The slide's IDCG table: 7, 4.416, 1.5, 1.286, 0.386, 0 -> 14.588. Truncating as for DCG
    # reproduces every row but rank 4, where 3 / 2.322 = 1.292 is printed as 1.286: the slide's
    # 14.588 is the sum of its printed column, 0.006 below the truncated 14.594.
    worked = ideal_dcg_breakdown(EXERCISE, gain="exponential")
    shown_logs = worked.table["log2(1+i)"].round(3)
    truncated = (np.floor(worked.table["gain"] / shown_logs * 1000) / 1000).tolist()
    assert truncated == [7, 4.416, 1.5, 1.291, 0.386, 0]
    slide_column = [7, 4.416, 1.5, 1.286, 0.386, 0]
    assert round(sum(slide_column), 3) == 14.588
    assert 3 / 2.322 == pytest.approx(1.292, abs=5e-4)  # what rank 4 should show
    # NDCG is 0.949 with either set of numbers.
    assert round(13.846 / 14.588, 3) == round(EXACT_DCG / EXACT_IDCG, 3) == 0.949


def test_course_002_cumulative_gain():
    assert cumulative_gain(EXERCISE) == 3 + 2 + 3 + 0 + 1 + 2
    assert cumulative_gain(EXERCISE, k=2) == 3 + 2


def test_course_002_jarvelin_formula():
    # Lecture: DCG_p = rel_1 + sum_{i=2}^p rel_i / log2 i.
    expected = 3 + 2 / np.log2(2) + 3 / np.log2(3) + 0 + 1 / np.log2(5) + 2 / np.log2(6)
    assert dcg(EXERCISE, discount="jarvelin") == pytest.approx(expected, rel=1e-12)


def test_jarvelin_base_leaves_ranks_below_b_undiscounted():
    # b = 3: ranks 1 and 2 are not discounted, then rel_i / log_3 i.
    expected = 3 + 2 + 3 / (np.log(3) / np.log(3)) + 0 + 1 / (np.log(5) / np.log(3)) + 2 / (np.log(6) / np.log(3))
    assert dcg(EXERCISE, discount="jarvelin", log_base=3) == pytest.approx(expected, rel=1e-12)


def test_exponential_gain_composes_with_jarvelin_discount():
    expected = 7 + 3 / np.log2(2) + 7 / np.log2(3) + 0 + 1 / np.log2(5) + 3 / np.log2(6)  # rel = 3,2,3,0,1,2
    assert dcg(EXERCISE, gain="exponential", discount="jarvelin") == pytest.approx(expected, rel=1e-12)


def test_course_003_linear_gain():
    # Course 003: DCG_p = sum rel_i / log2(i + 1).
    rels = [0, 5, 0, 4]
    assert dcg(rels) == pytest.approx(5 / np.log2(3) + 4 / np.log2(5), rel=1e-12)  # rel = 0,5,0,4
    assert ndcg(rels) == pytest.approx((5 / np.log2(3) + 4 / np.log2(5)) / (5 + 4 / np.log2(3)), rel=1e-12)


def test_course_002_limitation_bad_document_not_penalized():
    # Slide 'DCG and NDCG - Limitations' (first): {1,1,1} and {1,1,1,0} are equally good.
    assert ndcg([1, 1, 1]) == ndcg([1, 1, 1, 0]) == 1.0
    assert ndcg([1, 1, 1], gain="exponential") == ndcg([1, 1, 1, 0], gain="exponential") == 1.0


def test_course_002_limitation_missing_documents_not_penalized_without_judged():
    # Slide 'DCG and NDCG - Limitations' (second): {1,1,1} vs {1,1,1,1,1}.
    assert ndcg([1, 1, 1]) == ndcg([1, 1, 1, 1, 1]) == 1.0
    # Given every judged grade of the query, the two missing documents count.
    penalized = ndcg([1, 1, 1], judged=[1, 1, 1, 1, 1])
    expected = (1 + 1 / np.log2(3) + 1 / 2) / (1 + 1 / np.log2(3) + 1 / 2 + 1 / np.log2(5) + 1 / np.log2(6))
    assert penalized == pytest.approx(expected, rel=1e-12)
    assert penalized < 1


def test_ndcg_cut_uses_top_k_of_the_judged_ideal():
    # trec_eval ndcg_cut_k: rel = 0,1 with judged 2,1: DCG@1 = 0, IDCG@1 = 2.
    assert ndcg([0, 1], k=1, judged=[2, 1]) == 0.0
    # rel = 1,0,2 judged 2,1: DCG@2 = 1, IDCG@2 = 2 + 1/log2(3).
    assert ndcg([1, 0, 2], k=2, judged=[2, 1]) == pytest.approx(1 / (2 + 1 / np.log2(3)), rel=1e-12)


def test_degenerate_cases():
    assert ndcg([]) == 0.0 and dcg([]) == 0.0 and err([]) == 0.0 and cumulative_gain([]) == 0.0
    assert ndcg([0, 0, 0]) == 0.0  # IDCG = 0: trec_eval gives 0
    assert err([0, 0]) == 0.0
    assert ideal_dcg([0, 0]) == 0.0


# ------------------------------------------------------------------------------ ERR


def test_err_hand_computation():
    # Chapelle et al.: R_i = (2^g - 1) / 2^gmax; grades 3, 1, 2 with gmax = 3.
    r = [7 / 8, 1 / 8, 3 / 8]
    expected = r[0] + (1 - r[0]) * r[1] / 2 + (1 - r[0]) * (1 - r[1]) * r[2] / 3
    assert err([3, 1, 2]) == pytest.approx(expected, rel=1e-12)
    assert err([3, 1, 2], k=2) == pytest.approx(r[0] + (1 - r[0]) * r[1] / 2, rel=1e-12)


def test_err_max_grade_of_the_scale():
    # Scale 0-4: grade 2 alone gives R = 3/16.
    assert err([2], max_grade=4) == pytest.approx(3 / 16, rel=1e-12)
    # Default g_max is the list's own maximum (before the cut-off).
    assert err([1, 3], k=1) == pytest.approx(1 / 8, rel=1e-12)
    with pytest.raises(ValueError, match=r"err.*must not exceed max_grade=2.*got 3 at rank 2"):
        err([1, 3], max_grade=2)
    with pytest.raises(ValueError, match=r"'max_grade' parameter of err"):
        err([1], max_grade=-1)


def test_err_of_a_perfect_document_first_is_one():
    # R = 1 needs 2^g - 1 = 2^gmax, impossible for finite grades; a huge grade gets close.
    assert err([50, 0]) == pytest.approx(1.0, abs=1e-12)


# ------------------------------------------------------------------- differential


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_ndcg_equals_sklearn_ndcg_score_without_ties(data):
    from sklearn.metrics import ndcg_score

    n = data.draw(st.integers(min_value=2, max_value=12))
    truth = data.draw(st.lists(st.integers(min_value=0, max_value=4), min_size=n, max_size=n))
    scores = data.draw(st.permutations(list(range(n))))  # distinct scores: no ties
    k = data.draw(st.one_of(st.none(), st.integers(min_value=1, max_value=n + 2)))
    order = np.argsort(-np.asarray(scores), kind="stable")
    rels = np.asarray(truth)[order]
    expected = ndcg_score([truth], [scores], k=k)
    if sum(truth) == 0:
        expected = 0.0  # scikit-learn also returns 0 when the ideal DCG is 0
    assert ndcg(rels, k=k) == pytest.approx(expected, rel=1e-9, abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_dcg_equals_sklearn_dcg_score(data):
    from sklearn.metrics import dcg_score

    n = data.draw(st.integers(min_value=2, max_value=12))
    truth = data.draw(st.lists(st.integers(min_value=0, max_value=4), min_size=n, max_size=n))
    scores = data.draw(st.permutations(list(range(n))))
    order = np.argsort(-np.asarray(scores), kind="stable")
    assert dcg(np.asarray(truth)[order]) == pytest.approx(dcg_score([truth], [scores]), rel=1e-9, abs=1e-12)


def slow_dcg(rels, k, gain, discount, log_base):
    """Obviously-correct loop over ranks."""
    total = 0.0
    for i, rel in enumerate(rels[:k] if k else rels, start=1):
        g = rel if gain == "linear" else 2**rel - 1
        if discount == "log2":
            d = math.log2(i + 1)
        else:
            d = 1.0 if i < log_base else math.log(i, log_base)
        total += g / d
    return total


@settings(max_examples=60, deadline=None)
@given(rels=grades, k=cutoffs, options=variants)
def test_dcg_equals_a_slow_loop(rels, k, options):
    assert dcg(rels, k=k, **options) == pytest.approx(slow_dcg(rels, k, **options), rel=1e-12, abs=1e-12)


# --------------------------------------------------------------------- properties


@settings(max_examples=60, deadline=None)
@given(rels=grades, k=cutoffs, options=variants)
def test_ndcg_in_unit_interval(rels, k, options):
    value = ndcg(rels, k=k, **options)
    assert isinstance(value, float)
    assert 0.0 <= value <= 1.0 + 1e-12


@settings(max_examples=60, deadline=None)
@given(rels=nonempty_grades.filter(lambda r: max(r) > 0), k=cutoffs, options=variants)
def test_ideal_ranking_scores_one(rels, k, options):
    assert ndcg(sorted(rels, reverse=True), k=k, **options) == pytest.approx(1.0, rel=1e-12)


@settings(max_examples=80, deadline=None)
@given(rels=nonempty_grades, k=cutoffs, options=variants, data=st.data())
def test_moving_a_higher_grade_up_never_lowers_dcg_ndcg_err(rels, k, options, data):
    i = data.draw(st.integers(min_value=0, max_value=len(rels) - 1))
    j = data.draw(st.integers(min_value=0, max_value=len(rels) - 1))
    i, j = min(i, j), max(i, j)
    if rels[i] >= rels[j]:
        return
    better = list(rels)
    better[i], better[j] = better[j], better[i]
    assert dcg(better, k=k, **options) >= dcg(rels, k=k, **options) - 1e-12
    assert ndcg(better, k=k, **options) >= ndcg(rels, k=k, **options) - 1e-12
    assert err(better, k=k) >= err(rels, k=k) - 1e-12


@settings(max_examples=40, deadline=None)
@given(rels=grades, k=cutoffs, options=variants)
def test_list_ndarray_series_agree_and_input_not_mutated(rels, k, options):
    array = np.array(rels, dtype=float)
    before = array.copy()
    for func in (dcg, ndcg, ideal_dcg):
        expected = func(rels, k=k, **options)
        assert func(array, k=k, **options) == expected
        assert func(pd.Series(rels, dtype=float), k=k, **options) == expected
    assert err(array, k=k) == err(rels, k=k)
    np.testing.assert_array_equal(array, before)


@settings(max_examples=40, deadline=None)
@given(rels=grades, k=cutoffs)
def test_err_in_unit_interval(rels, k):
    assert 0.0 <= err(rels, k=k) < 1.0


# --------------------------------------------------------------------- breakdowns


@settings(max_examples=50, deadline=None)
@given(rels=grades, k=cutoffs, options=variants, extra=st.lists(st.integers(0, 4), max_size=4))
def test_breakdown_values_equal_the_scalars(rels, k, options, extra):
    judged = rels + extra  # every retrieved grade plus some unretrieved ones
    pairs = [
        (cumulative_gain_breakdown(rels, k), cumulative_gain(rels, k)),
        (dcg_breakdown(rels, k, **options), dcg(rels, k, **options)),
        (ideal_dcg_breakdown(rels, k, judged=judged, **options), ideal_dcg(rels, k, judged=judged, **options)),
        (ndcg_breakdown(rels, k, judged=judged, **options), ndcg(rels, k, judged=judged, **options)),
        (err_breakdown(rels, k), err(rels, k)),
        (err_breakdown(rels, k, max_grade=5), err(rels, k, max_grade=5)),
    ]
    for worked, value in pairs:
        assert isinstance(worked, Breakdown) and isinstance(worked.table, pd.DataFrame) and not worked.table.attrs
        assert worked.value == pytest.approx(value, rel=1e-12, abs=1e-12)
        assert isinstance(worked.latex, str) and "=" in worked.latex


def test_dcg_breakdown_layout_names_the_discount():
    worked = dcg_breakdown([3, 2], discount="jarvelin")
    assert list(worked.table.columns) == ["rank", "rel", "gain", "max(1, log2(i))", "contribution", "running DCG"]
    assert worked.table["running DCG"].iloc[-1] == pytest.approx(3 + 2)  # rel = 3, 2: no discount at ranks 1, 2


def test_ndcg_breakdown_side_by_side_and_latex():
    worked = ndcg_breakdown(EXERCISE, gain="exponential")
    assert worked.table["rel"].tolist() == EXERCISE
    assert worked.table["ideal rel"].tolist() == [3, 3, 2, 2, 1, 0]
    assert worked.table["running DCG"].iloc[-1] == pytest.approx(EXACT_DCG)
    assert worked.table["running IDCG"].iloc[-1] == pytest.approx(EXACT_IDCG)
    assert r"\frac{13.848}{14.595} = 0.949" in worked.latex


def test_ndcg_breakdown_pads_unretrieved_ideal_ranks():
    worked = ndcg_breakdown([1], judged=[1, 1])
    assert len(worked.table) == 2
    assert math.isnan(worked.table["rel"].iloc[1]) and worked.table["contribution"].iloc[1] == 0
    assert worked.value == pytest.approx(1 / (1 + 1 / np.log2(3)))


def test_err_breakdown_columns():
    # grades 2, 0, 1 with gmax 2: R = 3/4, 0, 1/4.
    worked = err_breakdown([2, 0, 1])
    assert worked.table["R_i"].tolist() == [0.75, 0.0, 0.25]
    assert worked.table["P(reach rank)"].tolist() == [1.0, 0.25, 0.25]
    assert worked.table["P(stop here)"].tolist() == [0.75, 0.0, 0.0625]
    assert worked.value == pytest.approx(0.75 + 0.0625 / 3)


def test_long_list_latex_is_abbreviated():
    # The rule every breakdown's sum follows (rankviz.metrics._latex.sum_latex): the first 8 terms,
    # \cdots, and the last two, here ranks 49 and 50: 1/log2(50) = 1/5.644 and 1/log2(51) = 1/5.672.
    latex = dcg_breakdown([1] * 50).latex
    assert latex.startswith(r"\mathrm{DCG} = 1 + \frac{1}{1.585} + \frac{1}{2} + ")
    assert latex.endswith(r"\frac{1}{3.17} + \cdots + \frac{1}{5.644} + \frac{1}{5.672} = 12.898")
    assert latex.count(" + ") == 10


# ------------------------------------------------------------------------- errors


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"gain": "exp"}, r"'gain' parameter of ndcg must be one of 'linear', 'exponential'. Got 'exp'"),
    ({"discount": "log"}, r"'discount' parameter of ndcg must be one of 'log2', 'jarvelin'. Got 'log'"),
    ({"discount": "jarvelin", "log_base": 1}, r"'log_base' parameter of ndcg must be a number in the range \(1, inf\)"),
    ({"log_base": 0}, r"'log_base' parameter of ndcg must be a number in the range \(0, inf\)"),
    ({"k": 0}, r"'k' parameter of ndcg must be an int in the range \[1, inf\)"),
    ({"judged": [1]}, r"'judged' parameter of ndcg holds 0 document\(s\) of grade 2"),
])
def test_bad_options_raise(kwargs, message):
    with pytest.raises(ValueError, match=message):
        ndcg([2, 1], **kwargs)


@pytest.mark.parametrize("func", [cumulative_gain, dcg, ideal_dcg, ndcg, err, dcg_breakdown, ndcg_breakdown,
                                  err_breakdown])
def test_bad_grades_raise_naming_the_rank(func):
    with pytest.raises(ValueError, match=r"non-negative numbers; got -1 at rank 3"):
        func([1, 0, -1])
    with pytest.raises(ValueError, match=r"not a string"):
        func("3,2,1")


@pytest.mark.parametrize("func", [dcg, ideal_dcg, ndcg, dcg_breakdown, ideal_dcg_breakdown, ndcg_breakdown])
def test_exponential_gain_rejects_grades_whose_gain_overflows(func):
    # 2^1030 - 1 is inf in float64: nDCG of [0, 1030] was NaN, and its table said 1.0 (the true
    # value is 1/log2(3) = 0.631). Linear gain has no such limit.
    with pytest.raises(ValueError, match=r"'rels' of \w+ must be at most 1023 with gain='exponential'; got 1030 at rank 2"
                       .replace("; got", r" \(2\^rel - 1 overflows beyond it\); got")):
        func([0, 1030], gain="exponential")
    assert func([0, 1030]) is not None
    if func in (ideal_dcg, ndcg, ideal_dcg_breakdown, ndcg_breakdown):
        with pytest.raises(ValueError, match=r"'judged' of \w+ must be at most 1023 .*got 2000 at position 3"):
            func([0, 3], judged=[0, 3, 2000], gain="exponential")
    assert ndcg([0, 1023], gain="exponential") == pytest.approx(1 / np.log2(3))  # rel = 0, 1023: gains cancel
