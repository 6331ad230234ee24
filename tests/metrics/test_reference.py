"""The reference implementations the app shows ("Show the code") compute what the package computes.

rankviz.metrics.reference holds one plain-Python function per metric the app works out; each is
called here beside its public function (kernel-backed) on random inputs drawn for its
parameters: rankings with ties of grades and cut-offs beyond the list, R given, counted from
judged grades or from the list, every gain and discount, scores with ties, top-k lists with
different items, weak orderings.
"""

from __future__ import annotations

import inspect
import math
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankviz.metrics
from rankviz.metrics import reference
from rankviz.registry import METRICS

NAMES = [name for name in reference.__all__ if name not in ("reference_for", "reference_source")]
# The families whose metrics the app works out with their source; interpolated_precision is a
# curve (an array of values), drawn as a chart rather than worked out as one number.
SHOWN_FAMILIES = ("binary", "graded", "correlation", "classification", "user")
NOT_SHOWN = {"interpolated_precision"}

grades = st.lists(st.integers(0, 3), max_size=12)
cutoffs = st.none() | st.integers(1, 15)
scores = st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0, 2.0]), min_size=0, max_size=9)
items = st.text("abcdefgh", min_size=1, max_size=1)


@st.composite
def ranking_arguments(draw, parameters):
    """``rels`` and the keywords the function takes, each drawn where it is valid."""
    rels = draw(grades)
    kwargs = {}
    if "k" in parameters:
        kwargs["k"] = draw(cutoffs)
    threshold = draw(st.sampled_from([1, 2])) if "rel_threshold" in parameters else 1
    if "rel_threshold" in parameters:
        kwargs["rel_threshold"] = threshold
    # judged holds every grade retrieved (a judged pool contains the ranking) and maybe more.
    judged = rels + draw(st.lists(st.integers(0, 3), max_size=4))
    source = draw(st.sampled_from(["list", "n_relevant", "judged"]))
    if "n_relevant" in parameters and source == "n_relevant":
        kwargs["n_relevant"] = sum(g >= threshold for g in rels) + draw(st.integers(0, 4))
    if "judged" in parameters and source == "judged":
        kwargs["judged"] = judged
    if "gain" in parameters:
        kwargs["gain"] = draw(st.sampled_from(["linear", "exponential"]))
        kwargs["discount"] = draw(st.sampled_from(["log2", "jarvelin"]))
        kwargs["log_base"] = draw(st.sampled_from([2, 3, 10]))
    if "beta" in parameters:
        kwargs["beta"] = draw(st.sampled_from([0.0, 0.5, 1.0, 2.0]))
    if "max_grade" in parameters:
        top = max(kwargs.get("judged", rels), default=0)
        kwargs["max_grade"] = draw(st.none() | st.integers(max(top, 1), 5))
    if "levels" in parameters and parameters["levels"].default == 10:
        kwargs["levels"] = draw(st.integers(1, 12))
    if "wanted" in parameters:
        kwargs["wanted"] = draw(st.integers(1, 4))
        steps = draw(st.lists(st.booleans(), min_size=len(rels), max_size=len(rels)))
        # a weak ordering: a new level where the step is True (or a strict order)
        kwargs["levels"] = draw(st.none() | st.just([sum(steps[: i + 1]) for i in range(len(rels))]))
    return (rels,), kwargs


@st.composite
def two_rankings(draw, name):
    if name == "kendall_tau_distance":
        a = draw(st.lists(items, unique=True, max_size=7))
        b = draw(st.lists(items, unique=True, max_size=7))
        return (a, b), {"k": draw(cutoffs), "normalized": draw(st.booleans()),
                        "penalty": draw(st.sampled_from([0.0, 0.25, 0.5, 1.0]))}
    a = draw(scores)
    b = draw(st.lists(st.sampled_from([0.0, 1.0, 2.0, 3.0]), min_size=len(a), max_size=len(a)))
    kwargs = {"variant": draw(st.sampled_from(["a", "b"]))} if name == "kendall_tau" else {}
    return (a, b), kwargs


@st.composite
def labels_and_scores(draw, name):
    n = draw(st.integers(0, 10))
    labels = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    values = draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0]), min_size=n, max_size=n))
    if name == "auc":
        return (labels, values), {}
    groups = draw(st.lists(st.sampled_from("uvw"), min_size=n, max_size=n))
    return (labels, values, groups), {"weights": draw(st.sampled_from(["size", "impressions", "positives",
                                                                       "uniform"]))}


@st.composite
def user_arguments(draw, name):
    if name in ("coverage", "novelty"):
        return tuple(draw(st.sets(items, max_size=6)) for _ in range(3)), {}
    if name == "relative_recall":
        return (draw(st.integers(0, 20)), draw(st.integers(1, 20))), {}
    expected = draw(st.integers(1, 10))
    return (expected, expected + draw(st.integers(0, 20))), {}


def arguments(name):
    parameters = inspect.signature(getattr(reference, name)).parameters
    if "rels" in parameters:
        return ranking_arguments(parameters)
    if name in ("spearman_rho", "kendall_tau", "kendall_tau_distance"):
        return two_rankings(name)
    if name in ("auc", "gauc"):
        return labels_and_scores(name)
    return user_arguments(name)


def same(value, expected) -> bool:
    value, expected = float(value), float(expected)
    if math.isnan(expected):
        return math.isnan(value)
    return value == pytest.approx(expected, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_reference_equals_the_package(name, data):
    args, kwargs = data.draw(arguments(name), label="arguments")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # an undefined value is NaN with a warning
        expected = getattr(rankviz.metrics, name)(*args, **kwargs)
    assert same(getattr(reference, name)(*args, **kwargs), expected)


def test_every_metric_the_app_works_out_has_a_reference_with_its_parameters():
    shown = {spec.name for spec in METRICS if spec.family in SHOWN_FAMILIES and spec.module} - NOT_SHOWN
    assert shown == set(NAMES)
    for name in NAMES:
        public = inspect.signature(getattr(rankviz.metrics, name)).parameters
        own = inspect.signature(getattr(reference, name)).parameters
        # every parameter of the reference is the public function's (a student can call either alike)
        assert set(own) <= set(public), name
        assert reference.reference_for(name) is getattr(reference, name)


def test_reference_values_from_the_course_notes():
    # The lecture's q2 (course 002): relevant at ranks 3, 8, 15, R = 3: AP = (1/3 + 2/8 + 3/15) / 3.
    q2 = [0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1]
    assert reference.average_precision(q2, n_relevant=3) == pytest.approx((1 / 3 + 2 / 8 + 3 / 15) / 3)
    # The lecture's nDCG exercise with exponential gain: DCG 13.848 (course 002).
    assert round(reference.dcg([3, 2, 3, 0, 1, 2], gain="exponential"), 3) == 13.848
    # SRCC class exercise: 1 - 6 * 24 / (10 * 99).
    r1, r2 = list(range(1, 11)), [2, 3, 1, 5, 4, 7, 8, 10, 6, 9]
    assert reference.spearman_rho(r1, r2) == pytest.approx(1 - 6 * 24 / (10 * 99))


@pytest.mark.parametrize(("name", "args", "kwargs"), [
    # Recall 9/11 of R = 77 is 63.00000000000001 relevant documents in binary: 63 are meant
    # (P = 63/63 at rank 63), not 64 (at best 77/78 further down).
    ("interpolated_average_precision", ([1] * 63 + [0] + [1] * 14,), {"n_relevant": 77, "levels": 11}),
    # Two groups of different AUC whose weights differ by the rule: u (AUC 1) has 1 positive of 3,
    # v (AUC 1/2) 2 positives of 3.
    ("gauc", ([1, 0, 0, 1, 1, 0], [0.9, 0.1, 0.2, 0.5, 0.1, 0.3], list("uuuvvv")), {"weights": "positives"}),
    ("gauc", ([1, 0, 0, 1, 1, 0], [0.9, 0.1, 0.2, 0.5, 0.1, 0.3], list("uuuvvv")), {"weights": "size"}),
])
def test_reference_on_the_cases_random_inputs_rarely_reach(name, args, kwargs):
    assert same(getattr(reference, name)(*args, **kwargs), getattr(rankviz.metrics, name)(*args, **kwargs))
