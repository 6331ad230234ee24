"""The tool-profile kernels' ordering steps (rankviz.metrics.kernels.conventions) are numpy sorts and
cumulative sums; here they meet their definitions, written the plain way (Python's sorted, a loop
over the ranks), on any scores with ties and any docnos."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rankviz.evaluation.tools import read_queries
from rankviz.metrics.kernels.conventions import _group_means, order_documents, quicksort_order, tie_group_ends

DOCNOS = st.lists(st.text(alphabet="abcAB09-é文", min_size=1, max_size=4), unique=True, max_size=25)


@st.composite
def scored(draw):
    docnos = draw(DOCNOS)
    scores = draw(st.lists(st.sampled_from([-1.0, 0.0, 0.5, 2.0, 1e300]), min_size=len(docnos), max_size=len(docnos)))
    return np.array(docnos, dtype=object), np.array(scores)


@settings(max_examples=300, deadline=None)
@given(scored())
def test_every_tie_rule_is_its_definition(case):
    docnos, scores = case
    positions = range(len(scores))
    definitions = {
        "docno_desc": sorted(positions, key=lambda i: (scores[i], docnos[i]), reverse=True),  # trec_eval
        "docno_asc": sorted(positions, key=lambda i: (-scores[i], docnos[i])),
        "input_order": sorted(positions, key=lambda i: -scores[i]),  # Python's sort is stable
        "tie_groups": sorted(positions, key=lambda i: -scores[i]),
    }
    for ties, expected in definitions.items():
        assert order_documents(scores, docnos, ties).tolist() == expected, ties


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([-1.0, 0.0, 0.5, 2.0, float("nan")]), max_size=80))
def test_quicksort_order_is_numbas_argsort(keys):
    """ranx's tie order: numba's own np.argsort (numba comes with ranx, a dev dependency) is the reference."""
    a = np.array(keys, dtype=np.float64)
    assert quicksort_order(a).tolist() == _numba_argsort()(a).tolist()


@functools.cache
def _numba_argsort():
    """numba's np.argsort, compiled once (compiling it per example took half a minute)."""
    numba = pytest.importorskip("numba")
    return numba.njit(lambda a: np.argsort(a))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([0.0, 1.0, 2.0]), max_size=30), st.data())
def test_tie_groups_end_where_the_score_changes_and_share_their_mean(sorted_scores, data):
    s = np.array(sorted(sorted_scores, reverse=True))
    ends = tie_group_ends(s)
    for i in range(len(s)):
        end = i + 1
        while end < len(s) and s[end] == s[i]:
            end += 1
        assert ends[i] == end
    values = np.array(data.draw(st.lists(st.integers(0, 3), min_size=len(s), max_size=len(s))), dtype=float)
    means = _group_means(values, ends)
    for i in range(len(s)):
        start = i
        while start > 0 and s[start - 1] == s[i]:
            start -= 1
        assert means[i] == values[start:ends[i]].mean()


def test_read_queries_keeps_the_run_order_and_joins_each_grade():
    qrels = {"q2": {"b": 2, "z": 1}, "q1": {"a": 0}, "q3": {"x": 1}}
    run = {"q1": {"c": 1.0, "a": 3.0}, "q2": {"b": 0.5, "y": 0.5, "z": 0.9}, "q9": {"a": 1.0}}
    queries = read_queries(qrels, run)
    assert list(queries) == ["q1", "q2", "q3"]  # judged queries only, sorted; q9 has no judgments
    q2 = queries["q2"]
    assert q2.docnos.tolist() == ["b", "y", "z"] and q2.scores.tolist() == [0.5, 0.5, 0.9]
    assert q2.grades.tolist() == [2.0, 0.0, 1.0] and q2.is_judged.tolist() == [True, False, True]
    assert sorted(q2.judged.tolist()) == [1.0, 2.0]
    assert queries["q3"].docnos is None and queries["q3"].judged.tolist() == [1.0]
