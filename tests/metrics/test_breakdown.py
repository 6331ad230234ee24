"""The Breakdown result object: read-only details, a short repr, and it survives pickling (the
app's caches pickle what they keep); and every breakdown of the registry returns one whose value
is its metric's."""

from __future__ import annotations

import copy
import dataclasses
import math
import pickle
import warnings

import pandas as pd
import pytest

from rankviz.metrics import Breakdown
from rankviz.registry import METRICS


@pytest.fixture
def worked():
    # P@2 of the grades 1, 0: 1 relevant in the top 2.
    table = pd.DataFrame({"rank": [1, 2], "relevant so far": [1, 1]})
    return Breakdown(table, 0.5, r"P@2 = \frac{1}{2} = 0.500", {"n_relevant": 1})


def test_fields_and_read_only_details(worked):
    assert worked.value == 0.5 and worked.latex.endswith("0.500")
    assert dict(worked.details) == {"n_relevant": 1}
    with pytest.raises(TypeError):
        worked.details["n_relevant"] = 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        worked.value = 1.0


def test_details_are_a_copy_of_the_mapping_given():
    given = {"floor": 1e-5}
    worked = Breakdown(pd.DataFrame(), 0.0, "x", given)
    given["floor"] = 0.1
    assert worked.details["floor"] == 1e-5


def test_details_default_to_empty():
    assert dict(Breakdown(pd.DataFrame({"a": [1]}), 1.0, "x").details) == {}


@pytest.mark.parametrize("copier", [lambda b: pickle.loads(pickle.dumps(b)), copy.deepcopy, copy.copy],
                         ids=["pickle", "deepcopy", "copy"])
def test_a_copy_has_the_same_fields_and_read_only_details(worked, copier):
    again = copier(worked)
    assert isinstance(again, Breakdown)
    assert (again.value, again.latex, dict(again.details)) == (worked.value, worked.latex, dict(worked.details))
    pd.testing.assert_frame_equal(again.table, worked.table)
    with pytest.raises(TypeError):
        again.details["n_relevant"] = 2


def test_repr_shows_the_value_the_table_shape_and_the_detail_names(worked):
    assert repr(worked) == "Breakdown(value=0.5, table=2 rows x 2 columns, details: n_relevant)"
    assert repr(Breakdown(pd.DataFrame({"a": [1]}), 1.0, "x")) == (
        "Breakdown(value=1.0, table=1 row x 1 column, details: none)")


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"latex": None}, r"'latex' parameter of Breakdown must be a str\. Got NoneType"),
    ({"details": [("n_relevant", 1)]}, r"'details' parameter of Breakdown must be a mapping.*Got list"),
])
def test_bad_fields_raise_naming_them(kwargs, message):
    fields = {"table": pd.DataFrame(), "value": 0.0, "latex": "x", "details": {}, **kwargs}
    with pytest.raises(TypeError, match=message):
        Breakdown(**fields)


# ------------------------------------------------------------------ every breakdown of the registry

# Inputs of each kind a MetricSpec declares (``MetricSpec.inputs``), degenerate cases included
# (an empty ranking, one class only, a ranking all tied, no relevant document known).
EXAMPLES = {
    "ranking": [([3, 2, 3, 0, 1, 2],), ([0, 0, 1, 0],), ([],), ([2],), ([1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 1],)],
    "two_rankings": [([1, 2, 3, 4, 5], [2, 1, 4, 3, 5]), ([1, 2, 2, 3], [1, 1, 2, 3]), ([1, 1], [1, 2])],
    "labels_scores": [([1, 0, 1, 0, 1], [0.9, 0.8, 0.4, 0.4, 0.1]), ([1, 1], [0.5, 0.4])],
    "groups": [([1, 0, 1, 0, 0, 0], [0.9, 0.1, 0.2, 0.3, 0.1, 0.5], ["u1", "u1", "u2", "u2", "u2", "u3"]),
               ([1, 1], [0.5, 0.4], ["u1", "u2"])],
    "per_query_values": [([0.5, 0.25, 0.0],), ([0.28, 0.254, 0.1, 0.9, 0.3, 0.7, 0.2, 0.6, 0.8, 0.05, 0.4],)],
    "sets": [(["d1", "d2", "d3"], ["d1", "d4"], ["d1", "d2"]), ([], [], [])],
    "counts": [(3, 5), (4, 10)],
    # Subtopics per rank (diversity): repeats, a document covering two, none relevant, empty.
    "subtopics": [([{"a"}, {"b"}, None, {"b"}, {"a", "c"}],), ([{"1", "2"}, {"1"}, set()],), ([None, None],), ([],)],
}
# Interpolated precision gives one value per recall level; its worked table's value is their mean.
EXAMPLES["ranking_levels"] = EXAMPLES["ranking"]
# The Kendall tau distance compares two top-K lists of item ids, which may hold different items.
ID_LISTS = [(["a", "b", "c", "d"], ["b", "a", "d", "x"]), (["a"], ["b"])]
# Families whose breakdown takes its value from the very kernel call the function makes: equal to
# the last bit. The others add their table's column (pandas) where the function adds an array
# (numpy): equal to 1e-12.
SAME_KERNEL = {"binary", "precision_recall", "graded"}


# Batch-only measures of the registry (trec_eval's bpref, infAP, set_P...) have no per-query
# function, hence no breakdown.
WORKED_SPECS = [spec for spec in METRICS if spec.function is not None]


def _cases():
    for spec in WORKED_SPECS:
        examples = ID_LISTS if spec.name == "kendall_tau_distance" else EXAMPLES[spec.inputs]
        for number, args in enumerate(examples):
            for k in (None, 3) if "k" in spec.param_names else (None,):
                yield pytest.param(spec, args, spec.applicable({"k": k}), id=f"{spec.name}-{number}-k{k}")


def test_every_input_kind_of_the_registry_has_examples():
    assert {spec.inputs for spec in WORKED_SPECS} <= set(EXAMPLES)


@pytest.mark.parametrize(("spec", "args", "keywords"), list(_cases()))
def test_every_registry_breakdown_is_a_breakdown_worth_its_function(spec, args, keywords):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # undefined cases (one class, all tied) warn: NaN
        expected = spec.function(*args, **keywords)
        worked = spec.breakdown(*args, **keywords)
    expected = getattr(expected, "value", expected)  # gauc returns a GaucResult
    if spec.inputs == "ranking_levels":  # one value per recall level: the table's value is their mean
        expected = float(sum(expected) / len(expected))
    assert isinstance(worked, Breakdown)
    assert isinstance(worked.table, pd.DataFrame) and not worked.table.attrs
    assert isinstance(worked.latex, str) and worked.latex.strip()
    assert isinstance(worked.value, float)
    if math.isnan(expected):
        assert math.isnan(worked.value)
    elif spec.module in SAME_KERNEL and spec.inputs != "ranking_levels":  # a mean of levels: summed twice
        assert worked.value == expected
    else:
        assert worked.value == pytest.approx(expected, rel=1e-12, abs=1e-12)
