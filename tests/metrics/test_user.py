"""User-oriented measures: hand formulas, a brute-force check of Cooper's ESL, properties, errors."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rankviz.metrics import binary
from rankviz.metrics.user import (
    coverage,
    coverage_breakdown,
    expected_search_length,
    expected_search_length_breakdown,
    frustration,
    frustration_breakdown,
    novelty,
    novelty_breakdown,
    recall_effort,
    recall_effort_breakdown,
    relative_recall,
    relative_recall_breakdown,
    satisfaction,
    satisfaction_breakdown,
)

small_id_sets = st.sets(st.integers(min_value=0, max_value=9), max_size=8)
grades = st.lists(st.integers(min_value=0, max_value=3), max_size=12)


# ----------------------------------------------------------------- coverage and novelty


def test_coverage_by_hand():
    relevant = {"d1", "d2", "d3", "d4", "d5"}
    answer = {"d1", "d2", "d6", "d7"}
    known = {"d1", "d3", "d5", "d8"}
    # K ∩ R = {d1, d3, d5}; K ∩ R ∩ A = {d1}: 1/3.
    assert coverage(relevant, answer, known) == pytest.approx(1 / 3)


def test_novelty_by_hand():
    relevant = {"d1", "d2", "d3", "d4", "d5"}
    answer = {"d1", "d2", "d4", "d6"}
    known = {"d1", "d3"}
    # R ∩ A = {d1, d2, d4}; (R ∩ A) - K = {d2, d4}: 2/3.
    assert novelty(relevant, answer, known) == pytest.approx(2 / 3)


def test_empty_denominators_give_zero():
    # The user knew no relevant document: coverage undefined, 0.0 by policy.
    assert coverage({"d1"}, {"d1"}, {"d9"}) == 0.0
    assert coverage({"d1"}, {"d1"}, []) == 0.0
    # Nothing relevant was returned: novelty undefined, 0.0 by policy.
    assert novelty({"d1"}, {"d2"}, set()) == 0.0
    assert novelty([], [], []) == 0.0
    assert coverage_breakdown([], [], []).value == 0.0
    assert novelty_breakdown(["d1"], ["d2"], []).value == 0.0


def test_duplicates_count_once_and_any_iterable_works():
    as_sets = coverage({1, 2, 3}, {2, 3}, {1, 2})
    assert coverage([1, 2, 2, 3, 3], (2, 3, 3), np.array([1, 2, 1])) == as_sets
    assert coverage(pd.Series([1, 2, 3]), iter([2, 3]), {1: "x", 2: "y"}) == as_sets
    assert novelty([1, 1, 2], [1, 2, 2, 2], [1]) == pytest.approx(1 / 2)  # R ∩ A = {1, 2}, new {2}


def test_inputs_are_not_mutated():
    relevant, answer, known = ["d1", "d2"], {"d1"}, ["d2", "d2"]
    coverage_breakdown(relevant, answer, known)
    novelty(relevant, answer, known)
    assert relevant == ["d1", "d2"] and answer == {"d1"} and known == ["d2", "d2"]


def _reference_coverage(r, a, k):
    return len(k & r & a) / len(k & r) if k & r else 0.0


def _reference_novelty(r, a, k):
    return len((r & a) - k) / len(r & a) if r & a else 0.0


@settings(max_examples=80, deadline=None)
@given(r=small_id_sets, a=small_id_sets, k=small_id_sets)
def test_set_measures_match_a_plain_set_reference_and_their_breakdowns(r, a, k):
    assert coverage(r, a, k) == _reference_coverage(r, a, k)
    assert novelty(r, a, k) == _reference_novelty(r, a, k)
    for func, breakdown in ((coverage, coverage_breakdown), (novelty, novelty_breakdown)):
        worked = breakdown(r, a, k)
        assert worked.value == func(r, a, k)
        assert 0.0 <= worked.value <= 1.0
        assert set(worked.table["doc"]) == r | a | k and len(worked.table) == len(r | a | k)
        assert worked.latex


@settings(max_examples=50, deadline=None)
@given(r=small_id_sets, a=small_id_sets, k=small_id_sets)
def test_returning_everything_known_gives_full_coverage(r, a, k):
    if k & r:
        assert coverage(r, a | k, k) == 1.0
    if r & a:
        # Novelty and the known share of R ∩ A split it in two.
        assert novelty(r, a, k) + len(r & a & k) / len(r & a) == pytest.approx(1.0)


def test_coverage_breakdown_table():
    worked = coverage_breakdown(["d1", "d2", "d3"], ["d1", "d4"], ["d1", "d2"])
    assert list(worked.table.columns) == [
        "doc", "in R (relevant)", "in A (answer)", "in K (known)", "K ∩ R", "K ∩ R ∩ A"]
    assert worked.table["doc"].tolist() == ["d1", "d2", "d3", "d4"]  # R first, then A, then K
    assert worked.table["K ∩ R"].tolist() == [True, True, False, False]
    assert worked.table["K ∩ R ∩ A"].tolist() == [True, False, False, False]
    assert worked.latex.endswith(r"\frac{1}{2} = 0.500")


def test_novelty_breakdown_table():
    worked = novelty_breakdown(["d1", "d2", "d3"], ["d1", "d2", "d4"], ["d1"])
    assert worked.table["R ∩ A"].tolist() == [True, True, False, False]
    assert worked.table["(R ∩ A) − K"].tolist() == [False, True, False, False]
    assert worked.value == 0.5  # 1 new of 2 returned relevant


@pytest.mark.parametrize("func", [coverage, novelty, coverage_breakdown, novelty_breakdown],
                         ids=lambda f: f.__name__)
@pytest.mark.parametrize(("position", "bad", "message"), [
    (0, "d1d2", r"'relevant' parameter of \w+ must be an iterable of document ids.*not str. Got 'd1d2'"),
    (1, None, r"'answer' parameter of \w+ must be an iterable of document ids.*Got None"),
    (2, 7, r"'known' parameter of \w+ must be an iterable of document ids.*not int. Got 7"),
    (1, [["d1"]], r"document ids in 'answer' of \w+ must be hashable.*\['d1'\] at position 1"),
    (0, np.zeros((2, 2)), r"'relevant' parameter of \w+ must be one-dimensional"),
])
def test_bad_sets_raise(func, position, bad, message):
    args = [{"d1"}, {"d1"}, {"d1"}]
    args[position] = bad
    with pytest.raises(ValueError, match=message):
        func(*args)


# ----------------------------------------------------------------- relative recall and recall effort


def test_relative_recall_by_hand():
    assert relative_recall(3, 5) == 3 / 5  # found 3 of the 5 expected
    assert relative_recall(0, 4) == 0.0
    assert relative_recall(5, 5) == 1.0


def test_relative_recall_is_capped_when_more_are_found_than_expected():
    assert relative_recall(7, 5) == 1.0
    worked = relative_recall_breakdown(7, 5)
    assert worked.table["counted = min(found, expected)"].tolist() == [5]
    assert worked.value == 1.0
    assert r"\min(7, 5)" in worked.latex


def test_recall_effort_by_hand():
    assert recall_effort(4, 10) == 4 / 10  # expected 4, examined 10 until all were found
    assert recall_effort(3, 3) == 1.0


@settings(max_examples=60, deadline=None)
@given(a=st.integers(min_value=0, max_value=50), b=st.integers(min_value=1, max_value=50))
def test_count_measures_range_and_breakdowns(a, b):
    value = relative_recall(a, b)
    assert 0.0 <= value <= 1.0 and isinstance(value, float)
    assert relative_recall_breakdown(a, b).value == value
    expected, examined = min(a, b) or 1, max(a, b)
    effort = recall_effort(expected, examined)
    assert 0.0 < effort <= 1.0
    assert recall_effort_breakdown(expected, examined).value == effort


@pytest.mark.parametrize("func", [relative_recall, relative_recall_breakdown], ids=lambda f: f.__name__)
@pytest.mark.parametrize(("found", "expected", "message"), [
    (1, 0, r"'expected' parameter of \w+ must be an int in the range \[1, inf\). Got 0"),
    (-1, 3, r"'found' parameter of \w+ must be an int in the range \[0, inf\). Got -1"),
    (1.5, 3, r"'found' .* Got 1.5"),
    (True, 3, r"'found' .* Got True"),
    (2, "3", r"'expected' .* Got '3'"),
])
def test_relative_recall_bad_counts(func, found, expected, message):
    with pytest.raises(ValueError, match=message):
        func(found, expected)


@pytest.mark.parametrize("func", [recall_effort, recall_effort_breakdown], ids=lambda f: f.__name__)
@pytest.mark.parametrize(("expected", "examined", "message"), [
    (5, 3, r"'examined' parameter of \w+ must be at least 'expected' \(5\).*Got 3"),
    (0, 3, r"'expected' parameter of \w+ must be an int in the range \[1, inf\). Got 0"),
    (2, 0, r"'examined' parameter of \w+ must be an int in the range \[1, inf\). Got 0"),
    (2, 4.0, r"'examined' .* Got 4.0"),
])
def test_recall_effort_bad_counts(func, expected, examined, message):
    with pytest.raises(ValueError, match=message):
        func(expected, examined)


# ----------------------------------------------------------------- expected search length


def _brute_force_esl(rels, wanted, levels, rel_threshold=1):
    """Average, over every ordering of the documents within each tie level (each equally
    likely), of the non-relevant documents examined before the wanted-th relevant one, or of
    all non-relevant ones when the list runs out first. Exact, with fractions."""
    groups = [[g >= rel_threshold for g, lv in zip(rels, levels) if lv == level]
              for level in sorted(set(levels))]
    total, count = Fraction(0), 0
    for ordering in itertools.product(*(itertools.permutations(group) for group in groups)):
        seen_relevant = seen_non_relevant = 0
        for is_relevant in itertools.chain.from_iterable(ordering):
            if is_relevant:
                seen_relevant += 1
                if seen_relevant == wanted:
                    break
            else:
                seen_non_relevant += 1
        total += seen_non_relevant
        count += 1
    return total / count if count else Fraction(0)


@st.composite
def weak_orderings(draw):
    """Small tie levels of binary relevance (at most 7 documents, so brute force is cheap)."""
    sizes = draw(st.lists(st.integers(min_value=1, max_value=4), min_size=0, max_size=4)
                 .filter(lambda s: sum(s) <= 7))
    rels, levels = [], []
    for level, size in enumerate(sizes, start=1):
        rels += draw(st.lists(st.integers(min_value=0, max_value=2), min_size=size, max_size=size))
        levels += [level] * size
    wanted = draw(st.integers(min_value=1, max_value=5))
    return rels, levels, wanted


@settings(max_examples=150, deadline=None)
@given(case=weak_orderings())
def test_cooper_formula_equals_the_average_over_all_orderings_within_levels(case):
    rels, levels, wanted = case
    expected = _brute_force_esl(rels, wanted, levels)
    assert expected_search_length(rels, wanted, levels=levels) == pytest.approx(float(expected), rel=1e-12)
    worked = expected_search_length_breakdown(rels, wanted, levels=levels)
    assert worked.value == pytest.approx(float(expected), rel=1e-12)


@settings(max_examples=60, deadline=None)
@given(case=weak_orderings(), threshold=st.sampled_from([1, 2]))
def test_brute_force_agrees_with_a_raised_threshold(case, threshold):
    rels, levels, wanted = case
    expected = _brute_force_esl(rels, wanted, levels, rel_threshold=threshold)
    assert expected_search_length(rels, wanted, rel_threshold=threshold, levels=levels) == pytest.approx(
        float(expected), rel=1e-12)


def test_cooper_formula_by_hand():
    # levels {1,2}, {3,4,5,6}, {7}; rels N R | N R N R | N; wanted 2.
    # Level 1 gives 1 relevant (j = 1); level 2: r = 2, i = 2, s = 1: 1 + 2*1/(2+1).
    rels, levels = [0, 1, 0, 1, 0, 1, 0], [1, 1, 2, 2, 2, 2, 3]
    assert expected_search_length(rels, 2, levels=levels) == pytest.approx(1 + 2 * 1 / (2 + 1))
    # wanted 3: both relevant of level 2 needed, s = 2: 1 + 2*2/(2+1).
    assert expected_search_length(rels, 3, levels=levels) == pytest.approx(1 + 2 * 2 / (2 + 1))
    # One big tie of 4 relevant and 6 non-relevant, wanted 1: 6/(4+1) = 1.2 (Cooper's random search).
    assert expected_search_length([1] * 4 + [0] * 6, 1, levels=[1] * 10) == pytest.approx(6 / 5)


def test_strict_order_counts_non_relevant_above_the_wanted_relevant():
    rels = [0, 0, 1, 0, 1, 1, 0]
    assert expected_search_length(rels) == 2.0  # first relevant at rank 3
    assert expected_search_length(rels, 2) == 3.0  # second at rank 5: 5 - 2
    assert expected_search_length(rels, 3) == 3.0  # third at rank 6: 6 - 3
    # A strict order given explicitly as levels 1..n is the same thing.
    assert expected_search_length(rels, 2, levels=range(1, 8)) == 3.0


def test_fewer_relevant_than_wanted_searches_to_exhaustion():
    # Two relevant, three wanted: the user examines everything, ESL = all 4 non-relevant.
    rels = [0, 1, 0, 0, 1, 0]
    assert expected_search_length(rels, 3) == 4.0
    assert expected_search_length(rels, 3, levels=[1, 1, 2, 2, 2, 3]) == 4.0
    worked = expected_search_length_breakdown(rels, 3)
    assert set(worked.table["examined"]) == {"all (list exhausted)"}
    assert "exhaustion" in worked.latex
    assert expected_search_length([0, 0, 0]) == 3.0
    assert expected_search_length([]) == 0.0


def test_rel_threshold_decides_what_is_relevant():
    assert expected_search_length([1, 2, 1, 2], rel_threshold=2) == 1.0  # grade 1 is not relevant at 2
    assert expected_search_length([1, 2, 1, 2], rel_threshold=1) == 0.0


def test_esl_breakdown_table():
    worked = expected_search_length_breakdown([0, 1, 0, 1, 0, 1, 0], 2, levels=[1, 1, 2, 2, 2, 2, 3])
    assert list(worked.table.columns) == ["rank", "level", "rel", "relevant", "examined", "expected non-relevant seen"]
    assert worked.table["level"].tolist() == [1, 1, 2, 2, 2, 2, 3]
    assert worked.table["expected non-relevant seen"].tolist() == pytest.approx([1, 0, 1 / 3, 0, 1 / 3, 0, 0])
    assert worked.table["examined"].tolist()[0] == "all (level fully examined)"
    assert worked.table["examined"].tolist()[2] == "partly, in random order: until 1 of its 2 relevant are found"
    assert worked.table["examined"].tolist()[6] == "no (search over)"
    assert worked.latex == (
        r"\mathrm{ESL} = j + \frac{i \cdot s}{r + 1} = 1 + \frac{2 \cdot 1}{2 + 1} = 1.667")
    assert (worked.details["j"], worked.details["i"], worked.details["r"], worked.details["s"]) == (1, 2, 2, 1)


def test_level_labels_can_be_any_non_decreasing_numbers():
    rels = [0, 1, 0, 0, 1]
    assert expected_search_length(rels, 2, levels=[10, 10, 20.5, 20.5, 20.5]) == expected_search_length(
        rels, 2, levels=[1, 1, 2, 2, 2])


@settings(max_examples=60, deadline=None)
@given(rels=grades, wanted=st.integers(min_value=1, max_value=6))
def test_esl_range_and_breakdown_on_strict_orders(rels, wanted):
    value = expected_search_length(rels, wanted)
    non_relevant = sum(1 for g in rels if g < 1)
    assert isinstance(value, float) and 0.0 <= value <= non_relevant
    assert expected_search_length_breakdown(rels, wanted).value == value


@pytest.mark.parametrize("func", [expected_search_length, expected_search_length_breakdown],
                         ids=lambda f: f.__name__)
@pytest.mark.parametrize(("kwargs", "message"), [
    ({"wanted": 0}, r"'wanted' parameter of \w+ must be an int in the range \[1, inf\). Got 0"),
    ({"wanted": 1.5}, r"'wanted' .* Got 1.5"),
    ({"levels": [1, 1, 2]}, r"one tie level per rank: 'rels' has 4 rank\(s\), 'levels' has 3"),
    ({"levels": [1, 2, 1, 3]}, r"non-decreasing down the ranking .* got 1 at rank 3 after 2"),
    ({"levels": [1, 1, "a", 2]}, r"must be numbers; got 'a' at position 3"),
    ({"levels": [1, 1, math.nan, 2]}, r"finite numbers; got nan at position 3"),
])
def test_esl_bad_input(func, kwargs, message):
    with pytest.raises(ValueError, match=message):
        func([0, 1, 0, 1], **kwargs)


def test_esl_bad_grades_name_the_rank():
    with pytest.raises(ValueError, match=r"non-negative numbers; got -1 at rank 2"):
        expected_search_length([1, -1, 0])


# ----------------------------------------------------------------- satisfaction and frustration


def test_satisfaction_and_frustration_by_hand():
    rels = [2, 0, 1, 0, 0, 3]
    assert satisfaction(rels) == 3 / 6  # relevant at ranks 1, 3, 6
    assert frustration(rels) == 3 / 6
    assert satisfaction(rels, k=3) == 2 / 3
    assert frustration(rels, k=3) == 1 / 3
    assert satisfaction(rels, k=3, rel_threshold=2) == 1 / 3  # only the grade-2 document


def test_k_beyond_the_list_divides_by_what_the_user_saw():
    rels = [1, 0, 1, 0, 1]
    assert satisfaction(rels, k=10) == 3 / 5  # trec_eval's P_10 would be 3/10
    assert frustration(rels, k=10) == 2 / 5
    assert satisfaction_breakdown(rels, k=10).latex == r"\mathrm{satisfaction@10} = \frac{3}{5} = 0.600"


def test_satisfaction_equals_precision_within_the_list():
    rels = [1, 0, 2, 0, 0, 1, 0]
    for k in range(1, len(rels) + 1):
        assert satisfaction(rels, k=k) == pytest.approx(binary.precision(rels, k=k))


def test_empty_list_gives_zero_for_both():
    assert satisfaction([]) == 0.0 and frustration([]) == 0.0
    assert satisfaction_breakdown([]).value == 0.0
    assert frustration_breakdown([], k=3).value == 0.0


@settings(max_examples=80, deadline=None)
@given(rels=grades, k=st.one_of(st.none(), st.integers(min_value=1, max_value=15)))
def test_satisfaction_plus_frustration_is_one_and_breakdowns_agree(rels, k):
    s, f = satisfaction(rels, k=k), frustration(rels, k=k)
    assert 0.0 <= s <= 1.0 and 0.0 <= f <= 1.0
    if rels:
        assert s + f == pytest.approx(1.0)
        seen = rels if k is None else rels[:k]
        assert s == pytest.approx(np.mean(np.array(seen) >= 1))  # rel = grades, threshold 1
    assert satisfaction_breakdown(rels, k=k).value == s
    assert frustration_breakdown(rels, k=k).value == f


def test_satisfaction_breakdown_table():
    worked = satisfaction_breakdown([2, 0, 1, 0], k=3)
    assert list(worked.table.columns) == ["rank", "rel", "relevant", "running relevant share"]
    assert worked.table["relevant"].tolist() == [1, 0, 1]
    assert worked.table["running relevant share"].tolist() == pytest.approx([1 / 1, 1 / 2, 2 / 3])
    frustrated = frustration_breakdown([2, 0, 1, 0], k=3)
    assert frustrated.table["non-relevant"].tolist() == [0, 1, 0]
    assert frustrated.latex == r"\mathrm{frustration@3} = \frac{1}{3} = 0.333"


@pytest.mark.parametrize("func", [satisfaction, frustration, satisfaction_breakdown, frustration_breakdown],
                         ids=lambda f: f.__name__)
def test_satisfaction_bad_input(func):
    with pytest.raises(ValueError, match=r"'k' parameter of \w+ must be an int in the range \[1, inf\)"):
        func([1, 0], k=0)
    with pytest.raises(ValueError, match=r"finite numbers; got nan at rank 2"):
        func([1, math.nan])
    with pytest.raises(ValueError, match=r"not a string"):
        func("1010")


@pytest.mark.parametrize("func", [satisfaction, frustration, expected_search_length], ids=lambda f: f.__name__)
def test_ranking_input_not_mutated_and_types_agree(func):
    rels = np.array([0, 1, 2, 0, 1])
    before = rels.copy()
    value = func(rels)
    assert func(list(rels)) == value and func(pd.Series(rels)) == value
    np.testing.assert_array_equal(rels, before)
