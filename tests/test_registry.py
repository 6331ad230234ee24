"""Invariants that every metric in the registry must satisfy (scikit-learn's common-tests idea).

Each property is checked for every spec that takes one ranked list, so a metric added to the
registry is tested without writing a new test.
"""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rankviz import registry
from rankviz.metrics import Breakdown
from rankviz.registry import METRICS, get_spec, ranking_metric_table, specs_for

RANKING_SPECS = specs_for(inputs="ranking")
RANKING_IDS = [s.name for s in RANKING_SPECS]

grades = st.lists(st.integers(min_value=0, max_value=3), min_size=1, max_size=12)
# Metrics that reach their maximum, 1, on an ideal ranking when the list holds every relevant
# document (R taken from the list) and at least one is relevant.
IDEAL_IS_ONE = {"hit", "r_precision", "average_precision", "eleven_point_precision",
                "interpolated_average_precision", "reciprocal_rank", "ndcg", "recall"}


def call(spec, rels, **settings):
    return spec.function(rels, **spec.applicable(settings))


def test_registry_names_are_unique_and_resolve():
    names = [s.name for s in METRICS]
    assert len(names) == len(set(names))
    for spec in METRICS:
        assert callable(spec.function), spec.name
        assert callable(spec.breakdown), spec.name
        assert spec.function.__name__ == spec.name
        low, high = spec.value_range
        assert low < high


@pytest.mark.parametrize("spec", METRICS, ids=[s.name for s in METRICS])
def test_every_public_function_documents_formula_reference_and_example(spec):
    for func in (spec.function, spec.breakdown):
        doc = func.__doc__ or ""
        for section in ("Parameters", "Returns", "References", "Examples"):
            assert section in doc, f"{func.__name__} docstring lacks {section}"
        assert ">>>" in doc


def test_unknown_metric_names_close_matches():
    with pytest.raises(ValueError, match="Did you mean 'ndcg'"):
        get_spec("ndgc")


@pytest.mark.parametrize("spec", RANKING_SPECS, ids=RANKING_IDS)
@settings(max_examples=40, deadline=None)
@given(rels=grades, k=st.one_of(st.none(), st.integers(min_value=1, max_value=15)))
def test_value_in_declared_range(spec, rels, k):
    value = call(spec, rels, k=k, wanted=1)
    low, high = spec.value_range
    assert isinstance(value, float)
    assert low - 1e-12 <= value <= high + 1e-12


@pytest.mark.parametrize("spec", RANKING_SPECS, ids=RANKING_IDS)
@settings(max_examples=25, deadline=None)
@given(rels=grades)
def test_list_ndarray_and_series_agree_and_input_is_not_mutated(spec, rels):
    as_array = np.array(rels, dtype=float)
    before = as_array.copy()
    expected = call(spec, rels)
    assert call(spec, as_array) == pytest.approx(expected, abs=0, rel=1e-12)
    assert call(spec, pd.Series(rels)) == pytest.approx(expected, abs=0, rel=1e-12)
    np.testing.assert_array_equal(as_array, before)


@pytest.mark.parametrize("spec", [s for s in RANKING_SPECS if s.name in IDEAL_IS_ONE],
                         ids=[n for n in RANKING_IDS if n in IDEAL_IS_ONE])
@settings(max_examples=30, deadline=None)
@given(rels=grades.filter(lambda r: max(r) >= 1))
def test_ideal_ranking_scores_one(spec, rels):
    ideal = sorted(rels, reverse=True)
    assert call(spec, ideal) == pytest.approx(1.0)


@pytest.mark.parametrize("spec", [s for s in RANKING_SPECS if s.monotone],
                         ids=[s.name for s in RANKING_SPECS if s.monotone])
@settings(max_examples=40, deadline=None)
@given(rels=grades, data=st.data())
def test_moving_a_better_document_up_never_lowers_the_value(spec, rels, data):
    # Swap an adjacent pair so that the higher grade moves up one rank.
    pairs = [i for i in range(len(rels) - 1) if rels[i] < rels[i + 1]]
    if not pairs:
        return
    i = data.draw(st.sampled_from(pairs))
    improved = list(rels)
    improved[i], improved[i + 1] = improved[i + 1], improved[i]
    k = data.draw(st.one_of(st.none(), st.integers(min_value=1, max_value=13)))
    # The same R and the same ideal for both lists: they hold the same documents.
    assert call(spec, improved, k=k) >= call(spec, rels, k=k) - 1e-12


@pytest.mark.parametrize("spec", RANKING_SPECS, ids=RANKING_IDS)
@settings(max_examples=30, deadline=None)
@given(rels=grades, k=st.one_of(st.none(), st.integers(min_value=1, max_value=15)))
def test_breakdown_value_equals_the_scalar(spec, rels, k):
    used = spec.applicable({"k": k})
    worked = spec.breakdown(rels, **used)
    assert isinstance(worked, Breakdown)
    value = worked.value
    assert value == pytest.approx(spec.function(rels, **used), rel=1e-9, abs=1e-12) or (
        math.isnan(value) and math.isnan(spec.function(rels, **used)))
    assert isinstance(worked.latex, str) and worked.latex


@pytest.mark.parametrize("spec", RANKING_SPECS, ids=RANKING_IDS)
@pytest.mark.parametrize(("bad", "message"), [
    ([1, -1, 0], r"non-negative.*rank 2"),
    ([1, float("nan")], r"finite.*rank 2"),
    ([1, "abc"], r"numbers.*'abc'.*rank 2"),
])
def test_bad_grades_raise_naming_the_rank(spec, bad, message):
    with pytest.raises(ValueError, match=message):
        call(spec, bad)


@pytest.mark.parametrize("spec", [s for s in RANKING_SPECS if "k" in s.param_names],
                         ids=[s.name for s in RANKING_SPECS if "k" in s.param_names])
@pytest.mark.parametrize("k", [0, -2, 1.5, "3"])
def test_bad_k_raises(spec, k):
    with pytest.raises(ValueError, match=r"'k' parameter of \w+ must be an int in the range \[1, inf\)"):
        spec.function([1, 0, 1], k=k)


def test_ranking_metric_table_lists_every_ranking_metric_with_its_variant():
    table = ranking_metric_table([3, 2, 3, 0, 1, 2], k=6, gain="exponential")
    assert list(table["metric"]) == RANKING_IDS
    ndcg_row = table.set_index("metric").loc["ndcg"]
    # Course 002, 'Class Exercise - Compute NDCG': 13.848 / 14.595 = 0.949.
    assert ndcg_row["value"] == pytest.approx(0.9488, abs=1e-4)
    assert "gain=exponential" in ndcg_row["variant"] and "discount=log2" in ndcg_row["variant"]


def test_import_rankviz_is_light():
    code = ("import sys, rankviz, rankviz.metrics, rankviz.registry; "
            "heavy = [m for m in ('streamlit', 'altair', 'scipy', 'sklearn') if m in sys.modules]; "
            "print(','.join(heavy))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_registry_module_exports():
    assert set(registry.__all__) >= {"METRICS", "get_spec", "MetricSpec"}


def test_generated_metric_reference_is_up_to_date():
    from pathlib import Path

    from rankviz.registry import metrics_markdown

    docs = Path(__file__).resolve().parents[1] / "docs" / "metrics.md"
    assert docs.read_text(encoding="utf-8") == metrics_markdown(), (
        "docs/metrics.md is stale: regenerate it with `python -m rankviz.registry > docs/metrics.md`")


@pytest.mark.parametrize("spec", [s for s in RANKING_SPECS if "rel_threshold" in s.param_names],
                         ids=[s.name for s in RANKING_SPECS if "rel_threshold" in s.param_names])
def test_rel_threshold_policy_is_the_same_for_every_binary_metric(spec):
    # trec_eval's -l accepts any level; 0 makes every document relevant (grade 0 included).
    with_zero = spec.function([0, 0, 2], **spec.applicable({"rel_threshold": 0}))
    assert with_zero == spec.function([1, 1, 1], **spec.applicable({"rel_threshold": 1}))
    for bad in (-1, float("nan"), "abc"):
        with pytest.raises(ValueError, match=r"'rel_threshold' parameter of \w+ must be a number in the range \[0, inf\)"):
            spec.function([1, 0], **spec.applicable({"rel_threshold": bad}))
