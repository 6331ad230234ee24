"""cached_call hands back what the function returned, whole: a Breakdown keeps its table, value,
formula and read-only details through st.cache_data's pickling."""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

from rankviz.metrics import Breakdown
from rankviz.ui.cached_results import cached_call

CALLS = []


def worked_precision(rels):
    """P@len of ``rels`` as a Breakdown, counting its calls (to see the cache answer)."""
    CALLS.append(tuple(rels))
    found = sum(1 for grade in rels if grade >= 1)
    table = pd.DataFrame({"rank": range(1, len(rels) + 1), "rel": rels})
    return Breakdown(table, found / len(rels), rf"P = \frac{{{found}}}{{{len(rels)}}}", {"n_relevant": found})


def test_a_cached_breakdown_comes_back_whole():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "No runtime found": st.cache_data in memory outside the app
        first = cached_call(worked_precision, [1, 0, 1, 0])
        again = cached_call(worked_precision, [1, 0, 1, 0])
    assert CALLS.count((1, 0, 1, 0)) == 1  # the second answer came from the cache
    for result in (first, again):
        assert isinstance(result, Breakdown)
        assert (result.value, result.latex, dict(result.details)) == (0.5, r"P = \frac{2}{4}", {"n_relevant": 2})
        assert result.table["rel"].tolist() == [1, 0, 1, 0]
        with pytest.raises(TypeError):
            result.details["n_relevant"] = 3
