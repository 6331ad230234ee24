"""What the correlation page prints beside its numbers, computed by the package: tau-a's formula
with the pair counts (n(n-1)/2 pairs) and whether Spearman's breakdown met ties."""

from __future__ import annotations

import itertools
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rankviz.metrics.correlation import kendall_tau, kendall_tau_a_formula, kendall_tau_breakdown, spearman_rho_breakdown


def test_tau_a_formula_by_hand():
    # a = 1,2,3,4 ; b = 1,1,3,4: pairs (1,2) tied in b, the 5 others concordant; 4 * 3 / 2 = 6 pairs
    counts = kendall_tau_breakdown([1, 2, 3, 4], [1, 1, 3, 4]).details["counts"]
    assert kendall_tau_a_formula(counts) == "(C − D) / (n(n − 1)/2) = (5 − 0) / 6"


def test_tau_a_formula_counts_pairs_tied_in_both():
    # a = 1,1,2 ; b = 1,1,2: pair (1,2) tied in both, (1,3) and (2,3) concordant: 3 * 2 / 2 = 3 pairs
    counts = kendall_tau_breakdown([1, 1, 2], [1, 1, 2]).details["counts"]
    assert kendall_tau_a_formula(counts) == "(C − D) / (n(n − 1)/2) = (2 − 0) / 3"


@given(st.lists(st.tuples(st.integers(1, 5), st.integers(1, 5)), min_size=2, max_size=12))
def test_tau_a_formula_denominator_is_n_choose_2_and_gives_tau_a(pairs):
    a, b = [x for x, _ in pairs], [y for _, y in pairs]
    n = len(pairs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all tied: tau undefined, the counts still exist
        text = kendall_tau_a_formula(kendall_tau_breakdown(a, b).details["counts"])
    numerator, denominator = text.split(" = ")[1].split(" / ")
    assert int(denominator) == len(list(itertools.combinations(range(n), 2)))
    concordant, discordant = (int(part) for part in numerator.strip("()").split(" − "))
    if len(set(a)) > 1 and len(set(b)) > 1:  # tau-a defined
        assert (concordant - discordant) / int(denominator) == pytest.approx(kendall_tau(a, b, "a"))


@pytest.mark.parametrize("counts, match", [
    ([2, 1, 0, 0, 0], "must be a mapping"),
    ({"concordant": 2, "discordant": 1}, "int >= 0 under 'tied in a'"),
    ({"concordant": 2, "discordant": -1, "tied in a": 0, "tied in b": 0, "tied in both": 0},
     "int >= 0 under 'discordant'. Got -1"),
    ({"concordant": 2.5, "discordant": 1, "tied in a": 0, "tied in b": 0, "tied in both": 0},
     "int >= 0 under 'concordant'. Got 2.5"),
])
def test_tau_a_formula_refuses_bad_counts(counts, match):
    with pytest.raises(ValueError, match=f"'counts' parameter of kendall_tau_a_formula .*{match}"):
        kendall_tau_a_formula(counts)


@pytest.mark.parametrize("a, b, ties", [
    ([1, 2, 3], [2, 1, 3], False),
    ([1, 2, 3], [1, 1, 3], True),     # tie in b
    ([2, 2, 3], [1, 2, 3], True),     # tie in a
    ([0.3, 0.9, 0.1], [5, 4, 3], False),  # scores, all distinct
])
def test_spearman_breakdown_says_whether_it_met_ties(a, b, ties):
    worked = spearman_rho_breakdown(a, b)
    assert worked.details["ties"] is ties
    # and the formula it chose follows: the lecture's 1 - 6 sum d^2 / (K(K^2 - 1)) only without ties
    assert ("6 \\sum d^2" in worked.latex.split("=")[1]) is not ties
