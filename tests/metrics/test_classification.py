"""AUC, ROC curve and GAUC: hand values, scikit-learn, properties, breakdowns, errors."""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rankviz.metrics import classification
from rankviz.metrics.classification import (
    GaucResult,
    auc,
    auc_breakdown,
    gauc,
    gauc_breakdown,
    roc_curve,
    roc_curve_breakdown,
)


@st.composite
def labelled_scores(draw, min_size=2, max_size=30):
    """Binary labels with both classes and integer-valued scores (so ties are common)."""
    n = draw(st.integers(min_value=min_size, max_value=max_size))
    labels = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n).filter(lambda y: 0 < sum(y) < len(y)))
    scores = draw(st.lists(st.integers(-3, 3), min_size=n, max_size=n))
    return labels, scores


def slow_auc(labels, scores):
    """The definition of course note 001: P(positive outranks negative), ties 1/2."""
    pos = [s for y, s in zip(labels, scores) if y == 1]
    neg = [s for y, s in zip(labels, scores) if y == 0]
    credit = sum(1.0 if p > n else 0.5 if p == n else 0.0 for p, n in itertools.product(pos, neg))
    return credit / (len(pos) * len(neg))


# -------------------------------------------------------------------------- AUC


def test_auc_hand_values():
    # Positives 0.9, 0.4; negatives 0.5, 0.4: (1 + 1 + 0 + 0.5) / 4.
    assert auc([1, 0, 1, 0], [0.9, 0.5, 0.4, 0.4]) == (1 + 1 + 0 + 0.5) / 4
    assert auc([1, 1, 0, 0], [4, 3, 2, 1]) == 1.0
    assert auc([0, 0, 1, 1], [4, 3, 2, 1]) == 0.0
    assert auc([1, 0, 1, 0], [7, 7, 7, 7]) == 0.5  # a constant scorer
    assert auc([True, False], [0.2, 0.1]) == 1.0


@settings(max_examples=40, deadline=None)
@given(data=labelled_scores())
def test_auc_equals_sklearn_and_the_definition_with_ties(data):
    from sklearn.metrics import roc_auc_score

    labels, scores = data
    value = auc(labels, scores)
    assert value == pytest.approx(roc_auc_score(labels, scores), abs=1e-12)
    assert value == pytest.approx(slow_auc(labels, scores), abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(data=labelled_scores())
def test_auc_properties(data):
    labels, scores = data
    value = auc(labels, scores)
    assert isinstance(value, float)
    assert 0.0 <= value <= 1.0
    assert auc(labels, [-s for s in scores]) == pytest.approx(1 - value, abs=1e-12)
    assert auc(np.array(labels, dtype=bool), np.array(scores)) == value
    assert auc(pd.Series(labels), pd.Series(scores)) == value
    # Any strictly increasing transform of the scores leaves AUC unchanged: it only sees order.
    assert auc(labels, [math.exp(s) for s in scores]) == pytest.approx(value, abs=1e-12)


def test_auc_is_o_n_log_n_not_pairwise():
    rng = np.random.default_rng(0)
    labels = rng.integers(0, 2, 200_000)
    scores = rng.normal(size=200_000) + labels
    # Would need 10^10 pair comparisons done pairwise; the rank formula answers at once.
    assert 0.7 < auc(labels, scores) < 0.8


# ------------------------------------------------------------------ AUC breakdown


def test_auc_breakdown_pairs():
    worked = auc_breakdown([1, 0, 1, 0], [0.9, 0.5, 0.4, 0.4], items=["a", "b", "c", "d"])
    assert worked.details["layout"] == "pairs"
    assert worked.table["outcome"].tolist() == ["positive higher", "positive higher", "negative higher", "tie"]
    assert worked.table["credit"].tolist() == [1, 1, 0, 0.5]
    assert worked.value == (1 + 1 + 0 + 0.5) / 4
    assert r"\frac{2 + \frac{1}{2} \times 1}{2 \times 2} = 0.625" in worked.latex


def test_auc_breakdown_summarizes_per_positive_above_the_cap():
    rng = np.random.default_rng(1)
    labels = np.r_[np.ones(120), np.zeros(100)]  # 12,000 pairs > 10,000
    scores = rng.integers(0, 10, labels.shape[0]).astype(float)
    assert 120 * 100 > classification.MAX_PAIR_ROWS
    worked = auc_breakdown(labels, scores)
    assert worked.details["layout"] == "per positive"
    assert len(worked.table) == 120
    row = worked.table.iloc[0]
    negatives = scores[labels == 0]
    assert row["negatives below"] == np.sum(negatives < row["score"])
    assert row["negatives tied"] == np.sum(negatives == row["score"])
    assert row["negatives above"] == np.sum(negatives > row["score"])
    assert worked.value == pytest.approx(auc(labels, scores), abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(data=labelled_scores())
def test_breakdown_values_equal_the_scalars(data):
    labels, scores = data
    groups = [i % 3 for i in range(len(labels))]
    assert auc_breakdown(labels, scores).value == pytest.approx(auc(labels, scores), abs=1e-12)
    assert roc_curve_breakdown(labels, scores).value == pytest.approx(auc(labels, scores), abs=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all groups may be one-class: NaN both ways
        expected = gauc(labels, scores, groups).value
        got = gauc_breakdown(labels, scores, groups).value
    assert got == pytest.approx(expected, abs=1e-12) or (math.isnan(got) and math.isnan(expected))


# ---------------------------------------------------------------------- ROC curve


@settings(max_examples=60, deadline=None)
@given(data=labelled_scores())
def test_roc_curve_equals_sklearn(data):
    from sklearn.metrics import roc_curve as sk_roc_curve

    labels, scores = data
    fpr, tpr, thresholds = roc_curve(labels, scores)
    sk_fpr, sk_tpr, sk_thresholds = sk_roc_curve(labels, scores, drop_intermediate=False)
    np.testing.assert_allclose(fpr, sk_fpr)
    np.testing.assert_allclose(tpr, sk_tpr)
    np.testing.assert_array_equal(thresholds, sk_thresholds)
    assert np.trapezoid(tpr, fpr) == pytest.approx(auc(labels, scores), abs=1e-12)


def test_roc_curve_named_fields_and_breakdown():
    curve = roc_curve([1, 0, 1, 0], [0.9, 0.5, 0.4, 0.4])
    assert curve.fpr.tolist() == [0, 0, 0.5, 1] and curve.tpr.tolist() == [0, 0.5, 0.5, 1]
    worked = roc_curve_breakdown([1, 0, 1, 0], [0.9, 0.5, 0.4, 0.4])
    assert worked.table[["TP", "FP", "FN", "TN"]].values.tolist() == [[0, 0, 2, 2], [1, 0, 1, 2], [1, 1, 1, 1], [2, 2, 0, 0]]
    # Trapezoids: (0.5 - 0) * (0.5 + 0.5) / 2 and (1 - 0.5) * (0.5 + 1) / 2.
    assert worked.value == 0.5 * 0.5 + 0.5 * 1.5 / 2


def test_roc_curve_one_class_gives_nan_rates_with_warning():
    with pytest.warns(RuntimeWarning, match="only one class"):
        fpr, tpr, _ = roc_curve([1, 1], [0.3, 0.2])
    assert np.isnan(fpr).all() and tpr.tolist() == [0, 0.5, 1]


# ---------------------------------------------------------------------------- GAUC

GAUC_LABELS = [1, 0, 1, 0, 0, 0]
GAUC_SCORES = [0.9, 0.1, 0.2, 0.3, 0.1, 0.5]
GAUC_GROUPS = ["u1", "u1", "u2", "u2", "u2", "u3"]
# u1: AUC 1 (2 items); u2: positive 0.2 vs negatives 0.3, 0.1 -> (0 + 1) / 2 (3 items); u3: one class.


def test_gauc_hand_values_for_each_weighting():
    assert gauc(GAUC_LABELS, GAUC_SCORES, GAUC_GROUPS).value == pytest.approx((2 * 1 + 3 * 0.5) / (2 + 3))
    assert gauc(GAUC_LABELS, GAUC_SCORES, GAUC_GROUPS, weights="impressions").value == pytest.approx(3.5 / 5)
    assert gauc(GAUC_LABELS, GAUC_SCORES, GAUC_GROUPS, weights="uniform").value == pytest.approx((1 + 0.5) / 2)
    assert gauc(GAUC_LABELS, GAUC_SCORES, GAUC_GROUPS, weights="positives").value == pytest.approx((1 + 0.5) / 2)
    explicit = gauc(GAUC_LABELS, GAUC_SCORES, GAUC_GROUPS, weights={"u1": 1, "u2": 3, "u3": 9})
    assert explicit.value == pytest.approx((1 * 1 + 3 * 0.5) / 4)


def test_gauc_result_reports_groups_and_acts_as_a_number():
    result = gauc(GAUC_LABELS, GAUC_SCORES, GAUC_GROUPS)
    assert isinstance(result, GaucResult)
    assert result.skipped_groups == ("u3",)
    assert dict(result.per_group) == {"u1": 1.0, "u2": 0.5}
    assert dict(result.weights) == {"u1": 2.0, "u2": 3.0}
    assert float(result) == result.value
    assert round(result, 2) == 0.7
    assert f"{result:.3f}" == "0.700"
    with pytest.raises(AttributeError):
        result.value = 1.0  # frozen


def test_gauc_differs_from_global_auc():
    # Each user is ranked perfectly, but user b's scores sit below user a's negatives.
    labels, scores, groups = [1, 0, 1, 0], [0.9, 0.8, 0.2, 0.1], ["a", "a", "b", "b"]
    assert gauc(labels, scores, groups).value == 1.0
    assert auc(labels, scores) == pytest.approx(slow_auc(labels, scores)) == 0.75


@settings(max_examples=40, deadline=None)
@given(data=labelled_scores(), n_groups=st.integers(1, 4))
def test_gauc_equals_weighted_mean_of_sklearn_auc_per_group(data, n_groups):
    from sklearn.metrics import roc_auc_score

    labels, scores = data
    groups = [i % n_groups for i in range(len(labels))]
    total = weight = 0.0
    for g in set(groups):
        y = [labels[i] for i in range(len(labels)) if groups[i] == g]
        s = [scores[i] for i in range(len(labels)) if groups[i] == g]
        if 0 < sum(y) < len(y):
            total += len(y) * roc_auc_score(y, s)
            weight += len(y)
    if weight == 0:
        with pytest.warns(RuntimeWarning, match="undefined"):
            assert math.isnan(gauc(labels, scores, groups).value)
        return
    value = gauc(labels, scores, groups).value
    assert value == pytest.approx(total / weight, abs=1e-12)
    assert 0.0 <= value <= 1.0


def test_gauc_with_one_group_is_auc():
    labels, scores = [1, 0, 1, 0, 1], [3, 1, 2, 2, 0]
    assert gauc(labels, scores, ["q"] * 5).value == auc(labels, scores)


def test_gauc_breakdown_rows():
    worked = gauc_breakdown(GAUC_LABELS, GAUC_SCORES, GAUC_GROUPS)
    assert list(worked.table.columns) == ["group", "n", "positives", "negatives", "auc", "weight", "included"]
    assert worked.table["n"].tolist() == [2, 3, 1] and worked.table["included"].tolist() == [True, True, False]
    assert worked.details["skipped_groups"] == ("u3",)
    assert worked.value == pytest.approx(0.7)
    assert r"\frac{2 \times 1 + 3 \times 0.5}{2 + 3} = 0.700" in worked.latex


# ------------------------------------------------------------- degenerate / errors


@pytest.mark.parametrize("func", [auc, auc_breakdown, roc_curve_breakdown])
@pytest.mark.parametrize("labels", [[1, 1, 1], [0, 0], []])
def test_one_class_is_nan_with_warning(func, labels):
    with pytest.warns(RuntimeWarning, match="only one class"):
        result = func(labels, list(range(len(labels))))
    value = result if isinstance(result, float) else result.value
    assert math.isnan(value)


def test_gauc_all_groups_one_class_is_nan_with_warning():
    with pytest.warns(RuntimeWarning, match="no group holds both"):
        result = gauc([1, 0], [0.5, 0.4], ["a", "b"])
    assert math.isnan(result.value) and result.skipped_groups == ("a", "b")
    with pytest.warns(RuntimeWarning, match="no group holds both"):
        assert math.isnan(gauc_breakdown([1, 0], [0.5, 0.4], ["a", "b"]).value)


@pytest.mark.parametrize("func", [auc, roc_curve, auc_breakdown, roc_curve_breakdown])
def test_bad_labels_and_scores_raise(func):
    with pytest.raises(ValueError, match=r"labels in 'labels' of \w+ must be 0 or 1 \(or False/True\); got 2 at position 3"):
        func([1, 0, 2], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match=r"'labels' and 'scores' parameters of \w+ must have the same length.*3 and 2"):
        func([1, 0, 1], [0.1, 0.2])
    with pytest.raises(ValueError, match=r"values in 'scores' of \w+ must be finite numbers; got inf at position 1"):
        func([1, 0], [float("inf"), 0.2])


@pytest.mark.parametrize("func", [gauc, gauc_breakdown])
def test_gauc_bad_inputs_raise(func):
    with pytest.raises(ValueError, match=r"'groups' parameter of \w+ must hold one group id per label \(2\)"):
        func([1, 0], [0.5, 0.4], ["a"])
    with pytest.raises(ValueError, match=r"'groups' parameter of \w+ must be a sequence of group ids"):
        func([1, 0], [0.5, 0.4], "ab")
    with pytest.raises(ValueError, match=r"'weights' parameter of \w+ must be one of 'size', 'positives', 'uniform', 'impressions'"):
        func([1, 0], [0.5, 0.4], ["a", "a"], weights="clicks")
    with pytest.raises(ValueError, match=r"'weights' mapping of \w+ has no weight for group 'a'"):
        func([1, 0], [0.5, 0.4], ["a", "a"], weights={"b": 1})
    with pytest.raises(ValueError, match=r"finite number >= 0; got -1 for group 'a'"):
        func([1, 0], [0.5, 0.4], ["a", "a"], weights={"a": -1})
    with pytest.raises(ValueError, match=r"must be hashable.*position 2"):
        func([1, 0], [0.5, 0.4], ["a", ["b"]])


def test_auc_items_never_change_the_value_and_are_checked_by_the_breakdown():
    # Same as kendall_tau(items=...): the names label the breakdown's pairs, the value ignores them.
    labels, scores = [1, 0, 1, 0], [0.9, 0.5, 0.4, 0.4]
    assert auc(labels, scores, items=["a", "b", "c", "d"]) == auc(labels, scores) == 0.625  # (1 + 1 + 0.5 + 0) / 4
    with pytest.raises(ValueError, match="items"):
        auc_breakdown(labels, scores, items=["a", "b"])
