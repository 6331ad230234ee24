"""Spearman's rho, Kendall's tau and the Kendall tau distance@K: course values, scipy, properties."""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rankviz.metrics.correlation import (
    PairCounts,
    average_ranks,
    kendall_tau,
    kendall_tau_breakdown,
    kendall_tau_distance,
    kendall_tau_distance_breakdown,
    kendall_tau_from_pair_counts,
    pair_counts,
    pair_signs,
    spearman_rho,
    spearman_rho_breakdown,
)
from rankviz.teaching.presets import PRESETS

# Course 002, 'SRCC - class exercise'.
SRCC_DOCS = ["d123", "d84", "d56", "d6", "d8", "d9", "d511", "d129", "d187", "d25"]
SRCC_R1 = list(range(1, 11))
SRCC_R2 = [2, 3, 1, 5, 4, 7, 8, 10, 6, 9]

tied_values = st.lists(st.integers(min_value=0, max_value=5), min_size=2, max_size=25)


def paired(draw_values=tied_values):
    return draw_values.flatmap(
        lambda a: st.tuples(st.just(a), st.lists(st.integers(0, 5), min_size=len(a), max_size=len(a)))
    )


def has_order(values) -> bool:
    return len(set(values)) > 1


# --------------------------------------------------------------------- Spearman


def test_course_002_srcc_exercise():
    assert spearman_rho(SRCC_R1, SRCC_R2) == pytest.approx(1 - 6 * 24 / (10 * (10**2 - 1)), rel=1e-12)
    assert math.floor(spearman_rho(SRCC_R1, SRCC_R2) * 1000) / 1000 == 0.854  # the slide, truncated


def test_course_002_srcc_breakdown_is_the_slide_table():
    worked = spearman_rho_breakdown(SRCC_R1, SRCC_R2, items=SRCC_DOCS)
    assert list(worked.table.columns) == ["doc", "s1", "s2", "d", "d^2"]
    assert worked.table["doc"].tolist() == SRCC_DOCS
    # The slide's columns s1 - s2 and (s1 - s2)^2.
    assert worked.table["d"].tolist() == [-1, -1, 2, -1, 1, -1, -1, -2, 3, 1]
    assert worked.table["d^2"].tolist() == [1, 1, 4, 1, 1, 1, 1, 4, 9, 1]
    assert worked.details["sum_d2"] == 24
    assert worked.value == pytest.approx(1 - 6 * 24 / 990, rel=1e-12)
    assert r"1 - \frac{6 \times 24}{10 \times (10^2 - 1)} = 0.855" in worked.latex


def test_srcc_preset_agrees():
    preset = PRESETS["srcc_exercise"]
    assert math.floor(spearman_rho(preset.ranks_a, preset.ranks_b) * 1000) / 1000 == preset.printed["srcc"]


def test_spearman_with_ties_uses_average_ranks():
    # a = 1, 2, 2, 3 -> ranks 1, 2.5, 2.5, 4; b = 1, 2, 3, 4.
    ra, rb = np.array([1, 2.5, 2.5, 4]), np.array([1, 2, 3, 4])
    expected = np.corrcoef(ra, rb)[0, 1]
    assert spearman_rho([1, 2, 2, 3], [1, 2, 3, 4]) == pytest.approx(expected, rel=1e-12)
    worked = spearman_rho_breakdown([1, 2, 2, 3], [1, 2, 3, 4])
    assert worked.table["rank s1"].tolist() == [1, 2.5, 2.5, 4]
    assert "average ranks" in worked.latex
    assert worked.value == pytest.approx(expected, rel=1e-12)


def test_spearman_scores_instead_of_positions():
    # Scores point the same way in both: only their order matters.
    assert spearman_rho([0.9, 0.5, 0.1], [10, 7, 3]) == pytest.approx(1.0)
    worked = spearman_rho_breakdown([0.9, 0.5, 0.1], [10, 7, 3])
    assert "rank s1" in worked.table.columns and worked.value == pytest.approx(1.0)


@settings(max_examples=60, deadline=None)
@given(pair=paired())
def test_spearman_equals_scipy_with_ties(pair):
    from scipy.stats import spearmanr

    a, b = pair
    if not (has_order(a) and has_order(b)):
        return
    assert spearman_rho(a, b) == pytest.approx(spearmanr(a, b).statistic, rel=1e-9, abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(perm=st.permutations(list(range(1, 9))))
def test_spearman_without_ties_is_the_lecture_formula(perm):
    n = len(perm)
    d2 = sum((i + 1 - p) ** 2 for i, p in enumerate(perm))
    assert spearman_rho(list(range(1, n + 1)), perm) == pytest.approx(1 - 6 * d2 / (n * (n * n - 1)), abs=1e-12)


# ---------------------------------------------------------------------- Kendall


def slow_tau(a, b, variant):
    """Obviously-correct count over every pair."""
    c = d = ta = tb = 0
    for i, j in itertools.combinations(range(len(a)), 2):
        sa, sb = np.sign(a[j] - a[i]), np.sign(b[j] - b[i])
        if sa * sb > 0:
            c += 1
        elif sa * sb < 0:
            d += 1
        elif sa == 0 and sb != 0:
            ta += 1
        elif sb == 0 and sa != 0:
            tb += 1
    n0 = len(a) * (len(a) - 1) / 2
    if variant == "a":
        return (c - d) / n0
    return (c - d) / math.sqrt((c + d + ta) * (c + d + tb))


def test_kendall_hand_values():
    # a = 1,2,3,4, b = 2,1,4,3: C = 4, D = 2 of 6 pairs.
    assert kendall_tau([1, 2, 3, 4], [2, 1, 4, 3]) == pytest.approx((4 - 2) / 6)
    assert kendall_tau([1, 2, 3, 4], [2, 1, 4, 3], "a") == pytest.approx((4 - 2) / 6)
    # Course 002 SRCC data: count the pairs by hand-checkable loop.
    assert kendall_tau(SRCC_R1, SRCC_R2) == pytest.approx(slow_tau(SRCC_R1, SRCC_R2, "b"))


def test_kendall_tau_a_with_ties():
    # a = 1,2,3, b = 1,1,2: C = 2 (1-3, 2-3), D = 0, T_b = 1 (1-2): tau-a = 2/3, tau-b = 2/sqrt(3*2).
    assert kendall_tau([1, 2, 3], [1, 1, 2], variant="a") == pytest.approx(2 / 3)
    assert kendall_tau([1, 2, 3], [1, 1, 2], variant="b") == pytest.approx(2 / math.sqrt(6))


@settings(max_examples=60, deadline=None)
@given(pair=paired())
def test_kendall_tau_b_equals_scipy_with_ties(pair):
    from scipy.stats import kendalltau

    a, b = pair
    if not (has_order(a) and has_order(b)):
        return
    assert kendall_tau(a, b) == pytest.approx(kendalltau(a, b, variant="b").statistic, rel=1e-9, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(pair=paired())
def test_kendall_tau_a_equals_the_pair_count(pair):
    a, b = pair
    if not (has_order(a) and has_order(b)):
        return
    assert kendall_tau(a, b, variant="a") == pytest.approx(slow_tau(a, b, "a"), abs=1e-12)


def test_kendall_breakdown_rows_and_counts():
    worked = kendall_tau_breakdown([1, 2, 2], [1, 1, 3], items=["x", "y", "z"])
    assert worked.table[["i", "j"]].values.tolist() == [["x", "y"], ["x", "z"], ["y", "z"]]
    assert worked.table["order in a"].tolist() == ["<", "<", "="]
    assert worked.table["order in b"].tolist() == ["=", "<", "<"]
    assert worked.table["pair"].tolist() == ["tied in b", "concordant", "tied in a"]
    # tau-b = (1 - 0) / sqrt((1 + 0 + 1)(1 + 0 + 1)) = 0.5
    assert worked.value == pytest.approx(0.5)
    assert r"\frac{1 - 0}{\sqrt{(1 + 0 + 1)(1 + 0 + 1)}} = 0.500" in worked.latex
    assert kendall_tau_breakdown([1, 2, 2], [1, 1, 3], "a").value == pytest.approx(1 / 3)


# ------------------------------------------------------------- shared properties


@settings(max_examples=60, deadline=None)
@given(pair=paired())
def test_correlations_in_range_and_breakdowns_agree(pair):
    a, b = pair
    if not (has_order(a) and has_order(b)):
        return
    for func, table_func, extra in [
        (spearman_rho, spearman_rho_breakdown, {}),
        (kendall_tau, kendall_tau_breakdown, {}),
        (kendall_tau, kendall_tau_breakdown, {"variant": "a"}),
    ]:
        value = func(a, b, **extra)
        assert isinstance(value, float)
        assert -1 - 1e-12 <= value <= 1 + 1e-12
        assert table_func(a, b, **extra).value == pytest.approx(value, rel=1e-9, abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(values=st.lists(st.floats(-100, 100), min_size=2, max_size=20, unique=True))
def test_same_order_is_one_reversed_is_minus_one(values):
    reversed_values = [-v for v in values]
    for func in (spearman_rho, kendall_tau):
        assert func(values, values) == pytest.approx(1.0)
        assert func(values, reversed_values) == pytest.approx(-1.0)


@settings(max_examples=30, deadline=None)
@given(pair=paired())
def test_list_ndarray_series_agree(pair):
    a, b = pair
    if not (has_order(a) and has_order(b)):
        return
    for func in (spearman_rho, kendall_tau):
        expected = func(a, b)
        assert func(np.array(a), np.array(b)) == expected
        assert func(pd.Series(a), pd.Series(b)) == expected


@pytest.mark.parametrize("func", [spearman_rho, kendall_tau, spearman_rho_breakdown, kendall_tau_breakdown])
@pytest.mark.parametrize(("a", "b", "reason"), [
    ([1], [1], "fewer than 2"),
    ([], [], "fewer than 2"),
    ([1, 1, 1], [1, 2, 3], "'a' is tied"),
    ([1, 2, 3], [4, 4, 4], "'b' is tied"),
])
def test_undefined_correlation_is_nan_with_warning(func, a, b, reason):
    with pytest.warns(RuntimeWarning, match=reason):
        result = func(a, b)
    value = result if isinstance(result, float) else result.value
    assert math.isnan(value)


def test_defined_correlation_does_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        spearman_rho([1, 2], [2, 1])
        kendall_tau([1, 2], [2, 1])


@pytest.mark.parametrize("func", [spearman_rho, kendall_tau, spearman_rho_breakdown, kendall_tau_breakdown])
def test_bad_inputs_raise(func):
    with pytest.raises(ValueError, match=r"'a' and 'b' parameters of \w+ must have the same length.*Got 3 and 2"):
        func([1, 2, 3], [1, 2])
    with pytest.raises(ValueError, match=r"values in 'b' of \w+ must be finite numbers; got nan at position 2"):
        func([1, 2], [1, float("nan")])


@pytest.mark.parametrize("func", [spearman_rho_breakdown, kendall_tau_breakdown])
def test_breakdowns_check_the_item_names(func):
    with pytest.raises(ValueError, match=r"'items' parameter of \w+ must name one document"):
        func([1, 2], [2, 1], items=["x"])


@pytest.mark.parametrize("func", [spearman_rho, kendall_tau])
def test_item_names_do_not_change_the_value(func):
    # items only label the breakdown's rows: the value function accepts them for symmetry and ignores them.
    a, b = [1, 2, 3, 4], [2, 1, 4, 3]
    assert func(a, b, items=["w", "x", "y", "z"]) == func(a, b)
    assert func(a, b, items=["x"]) == func(a, b)  # not read, so not checked: the breakdown checks them


@pytest.mark.parametrize("func", [kendall_tau_distance, kendall_tau_distance_breakdown])
@pytest.mark.parametrize("normalized", ["no", 0, None])
def test_normalized_must_be_a_bool(func, normalized):
    # A truthy string such as "no" used to normalize silently.
    with pytest.raises(ValueError, match=r"'normalized' parameter of \w+ must be True or False"):
        func(["a", "b"], ["b", "a"], normalized=normalized)


def test_bad_kendall_variant():
    with pytest.raises(ValueError, match=r"'variant' parameter of kendall_tau must be one of 'a', 'b'. Got 'c'"):
        kendall_tau([1, 2], [1, 2], variant="c")


# ---------------------------------------------------------- Kendall tau distance


def test_distance_identical_and_reversed():
    items = ["d1", "d2", "d3", "d4", "d5"]
    assert kendall_tau_distance(items, items) == 0.0
    assert kendall_tau_distance(items, items[::-1]) == 1.0
    # One adjacent swap: 1 of 10 pairs.
    assert kendall_tau_distance(items, ["d2", "d1", "d3", "d4", "d5"]) == pytest.approx(1 / 10)
    assert kendall_tau_distance(items, ["d2", "d1", "d3", "d4", "d5"], normalized=False) == 1.0


@settings(max_examples=40, deadline=None)
@given(perm=st.permutations(list(range(7))))
def test_distance_of_permutations_is_one_minus_tau_a_over_two(perm):
    # Same items in both lists: K_n = D / (n(n-1)/2) = (1 - tau_a) / 2.
    identity = list(range(7))
    positions_b = [perm.index(item) for item in identity]
    expected = (1 - kendall_tau(list(range(7)), positions_b, variant="a")) / 2
    assert kendall_tau_distance(identity, perm) == pytest.approx(expected, abs=1e-12)


def test_distance_fagin_cases_one_by_one():
    # Case 1, both in both lists, ordered differently: a b vs b a.
    assert kendall_tau_distance(["a", "b"], ["b", "a"], normalized=False) == 1
    # Case 2, both in list 1, only b in list 2 (top 2): list 2 says b above a, list 1 a above b -> 1.
    assert kendall_tau_distance(["a", "b"], ["b", "x"], k=2, normalized=False) == pytest.approx(
        1  # (a, b) case 2 disagreeing
        + 1  # (a, x): a only in list 1, x only in list 2
        + 0  # (b, x): both in list 2, only b in list 1, b above x in list 2: agree
    )
    # Case 3 alone: disjoint singletons: a only in list 1, b only in list 2.
    assert kendall_tau_distance(["a"], ["b"]) == 1.0
    # Case 4: a, b only in list 1, c, d only in list 2; pairs (a,b), (c,d) cost p, four cross pairs cost 1.
    for p in (0, 0.5, 1):
        assert kendall_tau_distance(["a", "b"], ["c", "d"], normalized=False, penalty=p) == 4 + 2 * p
        assert kendall_tau_distance(["a", "b"], ["c", "d"], penalty=p) == pytest.approx((4 + 2 * p) / 6)


def test_distance_at_k_course_000_definition():
    # Top 3 of a b c d e and a c b e d: the same three items, b and c swapped: 1 of 3 pairs.
    assert kendall_tau_distance(list("abcde"), list("acbed"), k=3) == pytest.approx(1 / 3)
    # Whole lists: (b,c) and (d,e) swapped: 2 of 10 pairs.
    assert kendall_tau_distance(list("abcde"), list("acbed")) == pytest.approx(2 / 10)


def test_distance_degenerate_and_types():
    assert kendall_tau_distance([], []) == 0.0
    assert kendall_tau_distance(["a"], ["a"]) == 0.0
    assert kendall_tau_distance(np.array([3, 1, 2]), [3, 1, 2]) == 0.0
    assert kendall_tau_distance(pd.Series(["x", "y"]), ("y", "x")) == 1.0


@settings(max_examples=40, deadline=None)
@given(
    a=st.lists(st.integers(0, 9), unique=True, max_size=8),
    b=st.lists(st.integers(0, 9), unique=True, max_size=8),
    k=st.one_of(st.none(), st.integers(1, 8)),
    p=st.sampled_from([0, 0.25, 0.5, 1]),
)
def test_distance_range_symmetry_and_breakdown(a, b, k, p):
    value = kendall_tau_distance(a, b, k=k, penalty=p)
    assert 0.0 <= value <= 1.0
    assert kendall_tau_distance(b, a, k=k, penalty=p) == pytest.approx(value)
    worked = kendall_tau_distance_breakdown(a, b, k=k, penalty=p)
    assert worked.value == pytest.approx(value, abs=1e-12)
    raw = kendall_tau_distance_breakdown(a, b, k=k, normalized=False, penalty=p)
    assert raw.value == pytest.approx(kendall_tau_distance(a, b, k=k, normalized=False, penalty=p))


def test_distance_breakdown_rows():
    worked = kendall_tau_distance_breakdown(["a", "b"], ["b", "x"])
    assert worked.table[["i", "j"]].values.tolist() == [["a", "b"], ["a", "x"], ["b", "x"]]
    assert worked.table["case"].tolist() == ["both in one list, one in the other", "each only in a different list",
                                      "both in one list, one in the other"]
    assert worked.table["penalty"].tolist() == [1.0, 1.0, 0.0]
    assert pd.isna(worked.table["rank i in b"].iloc[0]) and worked.table["rank j in b"].iloc[0] == 1
    assert r"\frac{2 \times 2}{3 \times 2} = 0.667" in worked.latex


@pytest.mark.parametrize("func", [kendall_tau_distance, kendall_tau_distance_breakdown])
def test_distance_bad_inputs(func):
    with pytest.raises(ValueError, match=r"'a' appears at ranks 1 and 3"):
        func(["a", "b", "a"], ["a"])
    with pytest.raises(ValueError, match=r"'ranking_b' parameter of \w+ must be a sequence of item ids"):
        func(["a"], "abc")
    with pytest.raises(ValueError, match=r"must be hashable.*rank 2"):
        func(["a", ["b"]], ["a"])
    with pytest.raises(ValueError, match=r"'k' parameter of \w+ must be an int in the range \[1, inf\)"):
        func(["a"], ["a"], k=0)
    with pytest.raises(ValueError, match=r"'penalty' parameter of \w+ must be a number in the range \[0, 1\]"):
        func(["a"], ["a"], penalty=2)


# ------------------------------------------------ the building blocks other modules share


@given(st.lists(st.integers(-3, 3), min_size=1, max_size=30))
def test_average_ranks_equal_scipys_rankdata(values):
    from scipy.stats import rankdata

    np.testing.assert_array_equal(average_ranks(values), rankdata(values, method="average"))


def test_average_ranks_by_hand_and_bad_input():
    # 5 smallest; the two 7s share ranks 2 and 3: (2 + 3) / 2 = 2.5; 9 last.
    assert average_ranks([7, 5, 9, 7]).tolist() == [2.5, 1.0, 4.0, 2.5]
    assert average_ranks([]).tolist() == []
    with pytest.raises(ValueError, match=r"must not hold NaN \(it has no order\); got NaN at position 2"):
        average_ranks([1.0, float("nan")])
    with pytest.raises(ValueError, match="must be 1-D"):
        average_ranks([[1, 2]])


def test_pair_signs_and_counts_by_hand():
    # a = 1, 2, 3, 3 and b = 2, 1, 3, 3: pairs (1,2) discordant, (1,3) (1,4) (2,3) (2,4) concordant,
    # (3,4) tied in both.
    sa, sb = pair_signs([1, 2, 3, 3]), pair_signs([2, 1, 3, 3])
    assert sa.tolist() == [1, 1, 1, 1, 1, 0] and sb.tolist() == [-1, 1, 1, 1, 1, 0]
    assert pair_counts(sa, sb) == PairCounts(concordant=4, discordant=1, tied_a=0, tied_b=0, tied_both=1)
    # tau-b = (4 - 1) / sqrt(5 * 5) = 0.6; tau-a = (4 - 1) / 6 = 0.5.
    assert kendall_tau_from_pair_counts(pair_counts(sa, sb)) == pytest.approx(0.6)
    assert kendall_tau_from_pair_counts(pair_counts(sa, sb), "a") == pytest.approx(0.5)
    with pytest.raises(ValueError, match="same length"):
        pair_counts(sa, sb[:3])
    with pytest.raises(ValueError, match=r"'values' parameter of pair_signs must not hold NaN"):
        pair_signs([1.0, float("nan"), 2.0])
    assert pair_signs([4.0]).tolist() == [] and pair_signs([4.0]).dtype == np.int8


def test_tau_from_counts_is_nan_when_undefined_and_checks_its_input():
    assert math.isnan(kendall_tau_from_pair_counts(PairCounts(0, 0, 3, 0, 0)))  # a ties every pair
    assert math.isnan(kendall_tau_from_pair_counts((0, 0, 0, 0, 0), "a"))  # no pair at all
    with pytest.raises(ValueError, match=r"'counts' parameter of kendall_tau_from_pair_counts must hold 5 ints"):
        kendall_tau_from_pair_counts((1, 2, 3))
    with pytest.raises(ValueError, match="5 ints >= 0"):
        kendall_tau_from_pair_counts((1, -1, 0, 0, 0))
    with pytest.raises(ValueError, match="'variant'"):
        kendall_tau_from_pair_counts((1, 0, 0, 0, 0), "c")


@settings(max_examples=60)
@given(paired())
def test_counts_from_signs_equal_the_breakdowns_pair_table(pair):
    a, b = pair
    counts = pair_counts(pair_signs(a), pair_signs(b))
    worked = kendall_tau_breakdown(a, b) if has_order(a) and has_order(b) else None
    if worked is not None:
        assert counts._asdict() == {"concordant": worked.details["counts"]["concordant"],
                                    "discordant": worked.details["counts"]["discordant"],
                                    "tied_a": worked.details["counts"]["tied in a"],
                                    "tied_b": worked.details["counts"]["tied in b"],
                                    "tied_both": worked.details["counts"]["tied in both"]}
        assert kendall_tau_from_pair_counts(counts) == kendall_tau(a, b)
    assert sum(counts) == len(a) * (len(a) - 1) // 2
