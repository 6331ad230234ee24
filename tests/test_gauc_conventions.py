"""GAUC and AUC conventions: rankviz's own equal rankviz.metrics.gauc, per-impression weights equal
scikit-learn's roc_auc_score(sample_weight=), and torchrec's GAUCMetric rules (read from
torchrec/metrics/gauc.py, compute_gauc_3d: sessions with one class or identical predictions skipped,
the plain mean over the rest, 0.5 when none is left) on hand-made logs."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import rankviz.metrics
from rankviz.evaluation.tools import gauc_as_tool
from rankviz.metrics.kernels.conventions import gauc_value, weighted_auc


def random_log(seed: int):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 60))
    groups = rng.integers(0, 6, n).astype(str)
    labels = rng.random(n) < 0.4
    scores = np.round(rng.random(n), 1)  # ties within groups
    return labels.astype(int), scores, groups


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("weights", ["size", "positives", "uniform"])
def test_rankvizs_conventions_are_rankviz_metrics_gauc(seed, weights):
    labels, scores, groups = random_log(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = float(rankviz.metrics.gauc(labels, scores, groups, weights=weights))
        got = gauc_as_tool(labels, scores, groups, {"gauc_weights": weights})
    assert (math.isnan(expected) and math.isnan(got)) or got == pytest.approx(expected)


@pytest.mark.parametrize("seed", range(30))
def test_impression_weights_are_sklearns_sample_weight(seed):
    metrics = pytest.importorskip("sklearn.metrics")
    labels, scores, _ = random_log(seed)
    if labels.all() or not labels.any():
        return
    weight = np.random.default_rng(seed).integers(1, 5, len(labels)).astype(float)
    assert weighted_auc(labels, scores, weight) == pytest.approx(
        metrics.roc_auc_score(labels, scores, sample_weight=weight))
    # A weight of 2 is the row shown twice.
    doubled = np.repeat(np.arange(len(labels)), weight.astype(int))
    assert weighted_auc(labels, scores, weight) == pytest.approx(weighted_auc(labels[doubled], scores[doubled]))


def test_torchrecs_gauc_rules_by_hand():
    # Sessions: s1 ranks its click first (AUC 1); s2's predictions are all 0.5 (identical: skipped by
    # torchrec, 0.5 for rankviz); s3 ranks its click below one of two non-clicks (AUC 1/2); s4 has no
    # click (skipped by both). torchrec: plain mean (1 + 1/2) / 2; rankviz: by impressions
    # (2·1 + 2·0.5 + 3·0.5) / 7.
    labels = [1, 0, 1, 0, 0, 1, 0, 0, 0]
    scores = [0.9, 0.2, 0.5, 0.5, 0.8, 0.4, 0.1, 0.3, 0.6]
    groups = ["s1", "s1", "s2", "s2", "s3", "s3", "s3", "s4", "s4"]
    assert gauc_as_tool(labels, scores, groups, "torchrec") == pytest.approx((1 + 0.5) / 2)
    assert gauc_as_tool(labels, scores, groups) == pytest.approx((2 * 1 + 2 * 0.5 + 3 * 0.5) / 7)
    # One convention at a time from rankviz's towards torchrec's.
    assert gauc_as_tool(labels, scores, groups, {"gauc_weights": "uniform"}) == pytest.approx((1 + 0.5 + 0.5) / 3)
    assert gauc_as_tool(labels, scores, groups, {"gauc_constant": "drop"}) == pytest.approx((2 + 1.5) / 5)
    # No session with both classes and varied predictions: 0.5 for torchrec, NaN for rankviz.
    assert gauc_as_tool([1, 0, 1], [0.5, 0.5, 0.2], ["a", "a", "b"], "torchrec") == 0.5
    assert math.isnan(gauc_as_tool([1, 1, 0], [0.5, 0.5, 0.2], ["a", "a", "b"]))
    # Impression weights: used by rankviz's convention (sklearn's), ignored by torchrec.
    weight = [1, 1, 1, 1, 5, 1, 1, 1, 1]
    assert gauc_as_tool(labels, scores, groups, "torchrec", sample_weight=weight) == pytest.approx(0.75)
    s3 = weighted_auc([0, 1, 0], [0.8, 0.4, 0.1], [5, 1, 1])  # the non-click above weighs 5: 1 / 6
    assert s3 == pytest.approx(1 / 6)
    assert gauc_value(labels, scores, groups, sample_weight=weight) == pytest.approx((2 * 1 + 2 * 0.5 + 3 * s3) / 7)


@pytest.mark.parametrize("seed", range(30))
def test_partial_and_multiclass_auc_are_sklearns(seed):
    metrics = pytest.importorskip("sklearn.metrics")
    from rankviz.metrics.kernels.conventions import multiclass_auc, partial_auc

    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 2, 12)
    if labels.all() or not labels.any():
        return
    scores = np.round(rng.random(12), 1)  # ties
    for max_fpr in (0.1, 0.25, 0.5, 1.0):
        assert partial_auc(labels, scores, max_fpr) == pytest.approx(
            metrics.roc_auc_score(labels, scores, max_fpr=max_fpr)), max_fpr
    assert partial_auc(labels, scores, 1.0, "raw") == pytest.approx(metrics.roc_auc_score(labels, scores))
    classes = rng.integers(0, 3, 12)
    if len(set(classes)) < 3:
        return
    probabilities = rng.dirichlet([1, 1, 1], 12)
    for average in ("ovr", "ovo"):
        assert multiclass_auc(classes, probabilities, average) == pytest.approx(
            metrics.roc_auc_score(classes, probabilities, multi_class=average)), average
