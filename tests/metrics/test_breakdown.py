"""The Breakdown result object: read-only details, a short repr, and it survives pickling (the
app's caches pickle what they keep)."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pandas as pd
import pytest

from rankviz.metrics import Breakdown


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
