"""Wins, ties and losses of one run against another: count_wins_ties_losses, the one count that
compare_per_query's table and the run-files page both show."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rankviz.evaluation.comparison import WinsTiesLosses, compare_per_query, count_wins_ties_losses


def reference_counts(differences, tolerance=0.0):
    """Obviously correct: one comparison per difference, NaN left out."""
    wins = ties = losses = 0
    for d in differences:
        if math.isnan(d):
            continue
        if d > tolerance:
            wins += 1
        elif d < -tolerance:
            losses += 1
        else:
            ties += 1
    return wins, ties, losses


def test_counts_by_hand():
    # d = 0.5, 0.0, -0.25, 0.1: above 0 twice, equal once, below once
    assert count_wins_ties_losses([0.5, 0.0, -0.25, 0.1]) == (2, 1, 1)
    # tolerance 0.1: |0.1| <= 0.1 and |0.0| <= 0.1 tie; 0.5 wins; -0.25 loses
    assert count_wins_ties_losses([0.5, 0.0, -0.25, 0.1], tolerance=0.1) == (1, 2, 1)


def test_returns_named_python_ints():
    counts = count_wins_ties_losses(np.array([1.0, -1.0]))
    assert isinstance(counts, WinsTiesLosses)
    assert (counts.wins, counts.ties, counts.losses) == (1, 0, 1)
    assert all(type(value) is int for value in counts)


def test_nan_is_neither_win_tie_nor_loss():
    # q2 has no score in one run: 2 of the 3 differences are counted
    assert count_wins_ties_losses(pd.Series([0.2, np.nan, 0.0])) == (1, 1, 0)


def test_empty_differences_count_nothing():
    assert count_wins_ties_losses([]) == (0, 0, 0)


def test_input_is_not_mutated():
    deltas = pd.Series([0.3, -0.1, np.nan], index=["q1", "q2", "q3"])
    before = deltas.copy()
    count_wins_ties_losses(deltas)
    pd.testing.assert_series_equal(deltas, before)


@given(st.lists(st.one_of(st.floats(-1, 1), st.just(math.nan)), max_size=30),
       st.sampled_from([0.0, 1e-9, 0.05, 0.5]))
def test_matches_reference_and_flips_with_the_sign(differences, tolerance):
    counts = count_wins_ties_losses(differences, tolerance=tolerance)
    assert counts == reference_counts(differences, tolerance)
    assert sum(counts) == sum(not math.isnan(d) for d in differences)
    flipped = count_wins_ties_losses([-d for d in differences], tolerance=tolerance)
    assert (flipped.wins, flipped.ties, flipped.losses) == (counts.losses, counts.ties, counts.wins)


@pytest.mark.parametrize("tolerance", [-0.1, math.nan, math.inf, True, "0"])
def test_bad_tolerance_is_refused(tolerance):
    with pytest.raises(ValueError, match=r"'tolerance' parameter of count_wins_ties_losses .* \[0, inf\)"):
        count_wins_ties_losses([0.1], tolerance=tolerance)


@pytest.mark.parametrize("differences", [[[0.1, 0.2], [0.3, 0.4]], ["a", "b"], 0.5])
def test_bad_differences_are_refused(differences):
    with pytest.raises(ValueError, match=r"'differences' parameter of count_wins_ties_losses must be a 1-D"):
        count_wins_ties_losses(differences)


def test_compare_per_query_table_uses_the_same_counts():
    base = pd.DataFrame({"AP": [0.2, 0.4, 0.3, 0.5], "RR": [1.0, 0.5, 0.5, 1.0]}, index=["q1", "q2", "q3", "q4"])
    new = pd.DataFrame({"AP": [0.3, 0.4, 0.1, 0.6], "RR": [1.0, 1.0, 0.5, 0.25]}, index=["q1", "q2", "q3", "q4"])
    result = compare_per_query({"base": base, "new": new})
    for measure, expected in {"AP": (2, 1, 1),   # d = 0.1, 0, -0.2, 0.1
                              "RR": (1, 2, 1)}.items():  # d = 0, 0.5, 0, -0.75
        row = result.table.set_index("measure").loc[measure]
        assert (row["wins"], row["ties"], row["losses"]) == expected
        deltas = result.deltas[result.deltas["measure"] == measure]["delta"]
        assert count_wins_ties_losses(deltas) == expected
