"""The graded family has one formula: the per-query functions and evaluate's kernels agree.

Per query, :mod:`rankviz.metrics.graded` scores a one-list ``RankedLists`` with the kernels of
:mod:`rankviz.metrics.kernels.graded`. These tests score many random lists at once (as
``evaluate`` does, so a segment must never see its neighbours) and compare every list with the
per-query function and with slow loops written straight from the formulas; and they check
that each worked table ends exactly where its value does.
"""

from __future__ import annotations

import inspect
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rankviz.metrics import graded
from rankviz.metrics.kernels import BatchContext, Cut, RankedLists
from rankviz.metrics.kernels import graded as kernels

# Float grades (the per-query functions accept any non-negative number), zeros included.
grade = st.one_of(st.integers(0, 4).map(float), st.floats(0, 6, allow_nan=False, allow_infinity=False))
ranking = st.lists(grade, min_size=0, max_size=12)
variant = st.fixed_dictionaries({
    "gain": st.sampled_from(["linear", "exponential"]),
    "discount": st.sampled_from(["log2", "jarvelin"]),
    "log_base": st.sampled_from([2.0, 3.0, 2.5, 10.0]),
})


@st.composite
def queries(draw):
    """Several rankings, each with the grades of its unretrieved judged documents (sometimes none)."""
    lists = draw(st.lists(ranking, min_size=1, max_size=5))
    extras = [draw(st.one_of(st.none(), st.lists(grade, max_size=5))) for _ in lists]
    judged = [None if extra is None else rels + extra for rels, extra in zip(lists, extras)]
    return lists, judged


def _cut(k, options):
    return Cut(k, dict(options))


# ------------------------------------------------------------------ slow references


def slow_denominator(i, discount, log_base):
    return math.log2(i + 1) if discount == "log2" else max(1.0, math.log(i) / math.log(log_base))


def slow_dcg(grades, k, gain, discount, log_base):
    total = 0.0
    for i, g in enumerate(grades[:k] if k else grades, start=1):
        total += (g if gain == "linear" else 2.0**g - 1) / slow_denominator(i, discount, log_base)
    return total


def slow_err(grades, k, g_max):
    total, reach = 0.0, 1.0
    for r, g in enumerate(grades[:k] if k else grades, start=1):
        stop = (2.0**g - 1) / 2.0**g_max
        total += reach * stop / r
        reach *= 1 - stop
    return total


# --------------------------------------------------------- many lists == one list each


@settings(max_examples=80, deadline=None)
@given(data=queries(), k=st.one_of(st.none(), st.integers(1, 16)), options=variant)
def test_batch_kernels_equal_the_per_query_functions_list_by_list(data, k, options):
    lists, judged = data
    ctx = BatchContext(RankedLists.from_grades(lists, judged=judged))
    cut = _cut(k, options)
    values = {
        "dcg": kernels.dcg(ctx, cut), "ideal_dcg": kernels.ideal_dcg(ctx, cut), "ndcg": kernels.ndcg(ctx, cut),
        "cg": kernels.cumulative_gain(ctx, Cut(k)),
    }
    for q, (rels, pool) in enumerate(zip(lists, judged)):
        assert values["cg"][q] == pytest.approx(graded.cumulative_gain(rels, k), rel=1e-12, abs=1e-12)
        assert values["dcg"][q] == pytest.approx(graded.dcg(rels, k, **options), rel=1e-12, abs=1e-12)
        assert values["ideal_dcg"][q] == pytest.approx(graded.ideal_dcg(rels, k, judged=pool, **options),
                                                       rel=1e-12, abs=1e-12)
        assert values["ndcg"][q] == pytest.approx(graded.ndcg(rels, k, judged=pool, **options),
                                                  rel=1e-12, abs=1e-12)
        # ... and both equal the formula written as a loop.
        assert values["dcg"][q] == pytest.approx(slow_dcg(rels, k, **options), rel=1e-12, abs=1e-12)
        ideal = sorted(rels if pool is None else pool, reverse=True)
        assert values["ideal_dcg"][q] == pytest.approx(slow_dcg(ideal, k, **options), rel=1e-12, abs=1e-12)


@settings(max_examples=80, deadline=None)
@given(data=queries(), k=st.one_of(st.none(), st.integers(1, 16)), scale=st.sampled_from([None, 6.0, 9.5]))
def test_batch_err_equals_the_per_query_function_on_one_scale(data, k, scale):
    # Over many lists g_max is one number (the largest judged grade of them all, or the
    # measure's max_grade): the per-query function gets it as max_grade.
    lists, judged = data
    ctx = BatchContext(RankedLists.from_grades(lists, judged=judged))
    cut = Cut(k) if scale is None else Cut(k, {"max_grade": scale})
    g_max = kernels.err_max_grade(ctx, cut)
    assert g_max == (ctx.ranking.max_grade if scale is None else scale)
    values = kernels.expected_reciprocal_rank(ctx, cut)
    for q, rels in enumerate(lists):
        assert values[q] == pytest.approx(graded.err(rels, k, max_grade=g_max), rel=1e-12, abs=1e-12)
        assert values[q] == pytest.approx(slow_err(rels, k, g_max), rel=1e-12, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(rels=ranking, extra=st.lists(grade, max_size=5), k=st.one_of(st.none(), st.integers(1, 16)))
def test_per_query_err_takes_gmax_from_max_grade_then_judged_then_the_list(rels, extra, k):
    judged = rels + extra
    top_judged = max(judged, default=0.0)
    assert graded.err(rels, k, judged=judged) == pytest.approx(slow_err(rels, k, top_judged), abs=1e-12)
    assert graded.err(rels, k) == pytest.approx(slow_err(rels, k, max(rels, default=0.0)), abs=1e-12)
    assert graded.err(rels, k, max_grade=7, judged=judged) == pytest.approx(slow_err(rels, k, 7), abs=1e-12)


def test_err_judged_examples_and_errors():
    # rel = 1, 1 with a judged grade 3 unretrieved: g_max = 3, R = 1/8, 1/8.
    assert graded.err([1, 1], judged=[1, 1, 3]) == pytest.approx(1 / 8 + (7 / 8) * (1 / 8) / 2, rel=1e-12)
    assert graded.err([1, 1], judged=[1, 1, 3]) == graded.err([1, 1], max_grade=3)
    assert graded.err_breakdown([1, 1], judged=[1, 1, 3]).details["max_grade"] == 3
    with pytest.raises(ValueError, match=r"'judged' parameter of err holds 0 document\(s\) of grade 2"):
        graded.err([2], judged=[1])
    with pytest.raises(ValueError, match=r"'judged' of err_breakdown must not exceed max_grade=2; got 3 at position 2"):
        graded.err_breakdown([1], max_grade=2, judged=[1, 3])
    with pytest.raises(ValueError, match=r"non-negative numbers; got -1 at position 1"):
        graded.err([1], judged=[-1, 1])


@pytest.mark.parametrize("func", [graded.err, graded.err_breakdown])
def test_err_signature_stays_backward_compatible(func):
    parameters = list(inspect.signature(func).parameters.values())
    assert [p.name for p in parameters] == ["rels", "k", "max_grade", "judged"]
    assert parameters[-1].kind is inspect.Parameter.KEYWORD_ONLY and parameters[-1].default is None
    assert parameters[2].kind is inspect.Parameter.KEYWORD_ONLY


# ----------------------------------------------------- tables end where values do


@settings(max_examples=60, deadline=None)
@given(rels=ranking, extra=st.lists(grade, max_size=5), k=st.one_of(st.none(), st.integers(1, 16)),
       options=variant)
def test_each_breakdown_value_is_its_function_and_its_table_ends_there(rels, extra, k, options):
    judged = rels + extra
    cg = graded.cumulative_gain_breakdown(rels, k)
    assert cg.value == graded.cumulative_gain(rels, k)
    assert (cg.table["running CG"].iloc[-1] if len(cg.table) else 0.0) == cg.value

    for worked, value, running in (
        (graded.dcg_breakdown(rels, k, **options), graded.dcg(rels, k, **options), "running DCG"),
        (graded.ideal_dcg_breakdown(rels, k, judged=judged, **options),
         graded.ideal_dcg(rels, k, judged=judged, **options), "running DCG"),
    ):
        assert worked.value == value
        assert (worked.table[running].iloc[-1] if len(worked.table) else 0.0) == value

    worked = graded.ndcg_breakdown(rels, k, judged=judged, **options)
    assert worked.value == graded.ndcg(rels, k, judged=judged, **options)
    if len(worked.table):
        assert worked.table["running DCG"].iloc[-1] == worked.details["dcg"] == graded.dcg(rels, k, **options)
        assert worked.table["running IDCG"].iloc[-1] == worked.details["idcg"] == graded.ideal_dcg(
            rels, k, judged=judged, **options)

    for kwargs in ({}, {"judged": judged}, {"max_grade": 9}):
        worked = graded.err_breakdown(rels, k, **kwargs)
        assert worked.value == graded.err(rels, k, **kwargs)
        assert (worked.table["running ERR"].iloc[-1] if len(worked.table) else 0.0) == worked.value
        np.testing.assert_array_equal(worked.table["P(stop here)"], worked.table["P(reach rank)"] * worked.table["R_i"])


def test_ndcg_table_columns_come_from_one_discount():
    # rel = 0, 2 and a judged 3 never retrieved: the ideal (3, 2, 0) is longer than the ranking.
    worked = graded.ndcg_breakdown([0, 2], judged=[0, 2, 3], discount="jarvelin", log_base=2)
    assert worked.table["max(1, log2(i))"].tolist() == [1.0, 1.0, pytest.approx(math.log2(3))]
    assert worked.table["ideal contribution"].tolist() == pytest.approx([3, 2, 0])
    assert worked.table["contribution"].tolist() == [0.0, 2.0, 0.0]  # rank 3 is padding: no grade, adds nothing
    assert math.isnan(worked.table["rel"].iloc[2]) and math.isnan(worked.table["gain"].iloc[2])
    assert worked.value == 2 / 5


# ---------------------------------------------------------------- the kernels alone


def test_discount_denominators_known_values():
    ranks = np.arange(1, 6)
    # log2(i + 1) = 1, 1.585, 2, 2.322, 2.585
    np.testing.assert_allclose(kernels.discount_denominators(ranks), np.log2(ranks + 1), rtol=0, atol=0)
    # Järvelin & Kekäläinen, b = 3: ranks 1, 2 undiscounted, then log_3 i.
    np.testing.assert_allclose(kernels.discount_denominators(ranks, "jarvelin", 3.0),
                               [1, 1, 1, math.log(4, 3), math.log(5, 3)], rtol=1e-15)
    with pytest.raises(ValueError, match="discount must be one of 'log2', 'jarvelin'. Got 'log'"):
        kernels.discount_denominators(ranks, "log")


def test_measures_without_discount_parameters_keep_trec_evals_log2():
    from rankviz.evaluation.measures import parse_measure

    ctx = BatchContext(RankedLists.from_grades([[0, 3, 1]], judged=[[3, 1, 2]]))
    measure = parse_measure("nDCG@2")
    # rel = 0, 3 (ideal 3, 2): 3 / log2(3) over 3 + 2 / log2(3)
    expected = (3 / math.log2(3)) / (3 + 2 / math.log2(3))
    assert kernels.ndcg(ctx, measure)[0] == pytest.approx(expected, rel=1e-15)
    assert kernels.ndcg(ctx, measure)[0] == kernels.ndcg(ctx, Cut(2, {"gain": "linear", "discount": "log2"}))[0]


def test_err_kernel_on_lists_of_different_lengths_restarts_the_cascade():
    # Lists 2 | (empty) | 2, 1 on one scale g_max = 2: each list starts at P(reach) = 1.
    ctx = BatchContext(RankedLists.from_grades([[2], [], [2, 1]]))
    stop, reach, _, _ = kernels.err_rows(ctx, Cut())
    assert stop.tolist() == [0.75, 0.75, 0.25]
    assert reach.tolist() == [1.0, 1.0, 0.25]
    values = kernels.expected_reciprocal_rank(ctx, Cut())
    assert values.tolist() == [0.75, 0.0, 0.75 + 0.25 * 0.25 / 2]
