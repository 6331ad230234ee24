"""What the explorer page reads from its text boxes, parsed and checked by rankviz.teaching.explore (the page
only calls these): the other documents of the sweep, N, the ranking to perturb, the values at a rank."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rankviz.teaching.explore import (
    MAX_SWEEP_RANKS,
    parse_ranking_to_perturb,
    parse_sweep_others,
    perturbed_rankings,
    position_sweep,
    sweep_length,
    sweep_values_at,
)


@pytest.mark.parametrize("text", ["", "   ", "\t\n", None])
def test_blank_others_mean_none_given(text):
    assert parse_sweep_others(text) is None


def test_others_accept_every_separator_and_keep_whole_grades_int():
    assert parse_sweep_others("1, 0 0;2 0.5") == (1, 0, 0, 2, 0.5)


def test_others_up_to_n_minus_one_and_no_more():
    most = ",".join(["0"] * (MAX_SWEEP_RANKS - 1))  # 199 others + the moving one = 200 ranks
    assert len(parse_sweep_others(most)) == MAX_SWEEP_RANKS - 1
    with pytest.raises(ValueError, match=r"at most 199 other documents .*got 200\."):
        parse_sweep_others(most + ",1")


@pytest.mark.parametrize("text, match", [("1,zz", r"position 2 is 'zz'"), ("1,-1", r"position 2 is -1"),
                                         ("1,101", r"position 2 is 101")])
def test_bad_other_grades_name_their_position(text, match):
    with pytest.raises(ValueError, match=match):
        parse_sweep_others(text)


@given(st.lists(st.integers(0, 3), max_size=30), st.integers(1, MAX_SWEEP_RANKS))
def test_sweep_length_is_the_others_plus_the_moving_document(others, asked):
    given_others = tuple(others) if others else None
    n = sweep_length(given_others, asked)
    assert n == (asked if given_others is None else len(others) + 1)
    # and a sweep of that length accepts those others
    assert len(position_sweep(n, metrics=("reciprocal_rank",), others=given_others).table) == n


def test_ranking_to_perturb_is_what_perturbed_rankings_accepts():
    base = parse_ranking_to_perturb("3 2 3 0")
    assert base == (3, 2, 3, 0)
    assert perturbed_rankings(base, 2, seed=0)[0].tolist() == [3.0, 2.0, 3.0, 0.0]


@pytest.mark.parametrize("text, match", [
    ("3", r"Give 2 to 200 grades to perturb .*got 1\."),
    (",".join(["1"] * 201), r"Give 2 to 200 grades to perturb .*got 201\."),
    ("", "The ranking is empty"),
    ("1,x", r"rank 2 is 'x'"),
])
def test_bad_ranking_to_perturb_is_refused(text, match):
    with pytest.raises(ValueError, match=match):
        parse_ranking_to_perturb(text)


def test_values_at_a_position_and_clamped_to_the_last_one():
    sweep = position_sweep(3, metrics=("reciprocal_rank", "average_precision"))
    at_2 = sweep_values_at(sweep, 2)
    # one relevant document at rank 2, R = 1: RR = 1/2, AP = (1/2) / 1
    assert at_2.table.values.tolist() == [["RR@3", 0.5], ["AP@3", 0.5]]
    assert at_2.position == 2
    short = sweep_values_at(position_sweep(1, metrics=("reciprocal_rank",)), 2)
    assert short.position == 1 and short.table["value"].tolist() == [1.0]  # rank 1 of 1: RR = 1/1
    from_table = sweep_values_at(sweep.table, 2)  # the sweep's table alone reads the same
    assert from_table.position == 2 and from_table.table.equals(at_2.table)


@pytest.mark.parametrize("sweep, position, match", [
    (None, 2, "must be a non-empty position_sweep table"),
    ("sweep", 2, "must be a non-empty position_sweep table"),
    (position_sweep(3, metrics=("reciprocal_rank",)), 0, r"'position' parameter of sweep_values_at must be an int"),
    (position_sweep(3, metrics=("reciprocal_rank",)), 1.5, r"'position' parameter of sweep_values_at must be an int"),
])
def test_values_at_refuses_bad_input(sweep, position, match):
    with pytest.raises(ValueError, match=match):
        sweep_values_at(sweep, position)
