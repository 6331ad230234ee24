"""affordable_samples: the Monte Carlo samples of compare_tie_rules that fit a budget of run lines
(the ties page calls it; each sample evaluates the whole run once)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rankviz.evaluation.ties import affordable_samples


def test_by_hand():
    assert affordable_samples(100, 50_000, 2_000_000) == 40     # 2,000,000 // 50,000 = 40 < 100
    assert affordable_samples(100, 20_000, 2_000_000) == 100    # 100 * 20,000 = 2,000,000: fits exactly
    assert affordable_samples(100, 20_001, 2_000_000) == 99     # 2,000,000 // 20,001 = 99
    assert affordable_samples(100, 5_000_000, 2_000_000) == 1   # longer than the budget: still one sample
    assert affordable_samples(7, 0, 10) == 7                    # an empty run costs nothing


@given(st.integers(1, 5000), st.integers(1, 10**7), st.integers(1, 10**8))
def test_never_more_than_asked_within_budget_and_at_least_one(samples, n_lines, budget):
    kept = affordable_samples(samples, n_lines, budget)
    assert 1 <= kept <= samples
    assert kept * n_lines <= budget or kept == 1
    assert kept == samples or (kept + 1) * n_lines > budget  # the most that fit


@pytest.mark.parametrize("args, name", [((0, 10, 10), "samples"), ((1.5, 10, 10), "samples"), ((True, 10, 10), "samples"),
                                        ((5, -1, 10), "n_lines"), ((5, 10, 0), "budget")])
def test_bad_input_names_the_parameter(args, name):
    with pytest.raises(ValueError, match=rf"'{name}' parameter of affordable_samples must be an int in the range"):
        affordable_samples(*args)
