"""The per-query binary and precision-recall metrics are the kernels of rankviz.evaluate.

Each per-query function scores its ranking as a one-list context; here the same kernels score a
batch of several lists at once (the generic multi-list path, as evaluate builds it), with float
grades, float thresholds and cut-offs beyond the end of the lists, and every per-query value must
be the batch's value for its list, to the last bit. Slow pure-Python references check the kernels
themselves, and every breakdown's ``value`` must be its function's value.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rankviz import metrics
from rankviz.metrics import user
from rankviz.metrics.kernels import BatchContext, Cut, RankedLists, interpolated
from rankviz.metrics.kernels import binary as kernels
from rankviz.metrics.precision_recall import ROUNDINGS

SETTINGS = settings(max_examples=80, deadline=None)
# Float grades, and thresholds that fall between them, on them and below them (0: everything relevant).
float_grades = st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0]), max_size=12)
thresholds = st.sampled_from([0, 0.25, 0.5, 0.75, 1, 1.5, 2, 2.5])
cutoffs = st.one_of(st.none(), st.integers(min_value=1, max_value=16))  # beyond a 12-document list too
batches = st.lists(st.tuples(float_grades, st.integers(min_value=0, max_value=4)), min_size=1, max_size=5)
betas = st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.0])
levels_lists = st.lists(st.floats(min_value=0, max_value=1), min_size=1, max_size=6)


def _relevant_count(grades, threshold) -> int:
    return sum(g >= threshold for g in grades)


def _batch(batch, threshold):
    """Every ranking of the batch as one multi-list context, R = relevant in the list + missing."""
    rankings = [grades for grades, _ in batch]
    n_rel = [_relevant_count(grades, threshold) + missing for grades, missing in batch]
    lists = RankedLists.from_grades([np.array(r, dtype=float) for r in rankings], n_relevant=n_rel)
    return rankings, n_rel, BatchContext(lists, rel_threshold=threshold)


def _per_query_values(rels, k, threshold, n_rel, beta) -> dict[str, float]:
    """The binary per-query functions on one ranking, with R = n_rel where they take it."""
    t, tr = {"rel_threshold": threshold}, {"rel_threshold": threshold, "n_relevant": n_rel}
    return {
        "precision": metrics.precision(rels, k, **t),
        "recall": metrics.recall(rels, k, **tr),
        "hit": metrics.hit(rels, k, **t),
        "f_beta": metrics.f_beta(rels, k, beta=beta, **tr),
        "r_precision": metrics.r_precision(rels, **tr),
        "average_precision": metrics.average_precision(rels, k, **tr),
        "reciprocal_rank": metrics.reciprocal_rank(rels, k, **t),
    }


@SETTINGS
@given(batch=batches, threshold=thresholds, k=cutoffs, beta=betas)
def test_binary_per_query_values_are_the_batch_kernel_values(batch, threshold, k, beta):
    rankings, n_rel, ctx = _batch(batch, threshold)
    # Cut(k) without "rel": the kernels take the threshold from the context, as in evaluate.
    expected = {
        "precision": kernels.precision(ctx, Cut(k)),
        "recall": kernels.recall(ctx, Cut(k)),
        "hit": kernels.success(ctx, Cut(k)),
        "f_beta": kernels.f_beta(ctx, Cut(k, {"beta": beta})),
        "r_precision": kernels.r_precision(ctx, Cut()),
        "average_precision": kernels.average_precision(ctx, Cut(k)),
        "reciprocal_rank": kernels.reciprocal_rank(ctx, Cut(k)),
    }
    for q, (rels, r) in enumerate(zip(rankings, n_rel)):
        for name, value in _per_query_values(rels, k, threshold, r, beta).items():
            assert type(value) is float, name
            assert value == expected[name][q], (name, rels, r)


@SETTINGS
@given(batch=batches, threshold=thresholds, levels=levels_lists, rounding=st.sampled_from(ROUNDINGS),
       count=st.integers(min_value=1, max_value=12))
def test_precision_recall_per_query_values_are_the_batch_kernel_values(batch, threshold, levels, rounding, count):
    rankings, n_rel, ctx = _batch(batch, threshold)
    at_levels = interpolated.precision_at_recall_levels(ctx, Cut(None, {"levels": levels, "rounding": rounding}))
    eleven = interpolated.eleven_point_average(
        ctx, Cut(None, {"levels": interpolated.STANDARD_RECALL_LEVELS, "rounding": rounding}))
    grid = tuple(np.arange(1, count + 1) / count)
    lecture = interpolated.eleven_point_average(ctx, Cut(None, {"levels": grid, "rounding": rounding}))
    precision_at, recall_at = kernels.precision_recall_at_ranks(ctx, Cut())
    for q, (rels, r) in enumerate(zip(rankings, n_rel)):
        kw = {"rel_threshold": threshold, "n_relevant": r}
        rows = slice(ctx.ranking.starts[q], ctx.ranking.starts[q + 1])
        assert metrics.interpolated_precision(rels, levels, rounding=rounding, **kw).tolist() == at_levels[q].tolist()
        assert metrics.eleven_point_precision(rels, rounding=rounding, **kw) == eleven[q]
        assert metrics.interpolated_average_precision(rels, levels=count, rounding=rounding, **kw) == lecture[q]
        points = metrics.precision_recall_points(rels, **kw)
        assert points.precision.tolist() == precision_at[rows].tolist()
        assert points.recall.tolist() == recall_at[rows].tolist()
        assert points.rank.tolist() == list(range(1, len(rels) + 1))


@SETTINGS
@given(batch=batches, threshold=thresholds, k=cutoffs)
def test_satisfaction_and_frustration_are_the_set_kernels_on_the_top_k(batch, threshold, k):
    # The per-query policy, as a kernel input: the user was shown the top k, which is the list.
    shown = [grades[:k] for grades, _ in batch]
    ctx = BatchContext(RankedLists.from_grades([np.array(s, dtype=float) for s in shown]), rel_threshold=threshold)
    satisfied, frustrated = kernels.set_precision(ctx, Cut()), kernels.set_non_relevant_share(ctx, Cut())
    for q, (rels, _) in enumerate(batch):
        assert user.satisfaction(rels, k, rel_threshold=threshold) == satisfied[q]
        assert user.frustration(rels, k, rel_threshold=threshold) == frustrated[q]


# ---------------------------------------------------------------- slow references


def _reference(rels, k, threshold, n_rel, beta):
    """Textbook definitions one rank at a time, trec_eval's conventions (missing ranks count as
    non-relevant, AP@k divides by R, 0 where a denominator is 0)."""
    top = rels if k is None else rels[:k]
    depth = len(rels) if k is None else k
    relevant = [g >= threshold for g in top]
    found = sum(relevant)
    p = found / depth if depth else 0.0
    r = found / n_rel if n_rel else 0.0
    b2 = beta * beta
    ap_sum, hits, first = 0.0, 0, 0
    for i, is_rel in enumerate(relevant, start=1):
        if is_rel:
            hits += 1
            ap_sum += hits / i
            first = first or i
    in_r = sum(g >= threshold for g in rels[:n_rel])
    return {
        "precision": p,
        "recall": r,
        "hit": 1.0 if found else 0.0,
        "f_beta": (1 + b2) * p * r / (b2 * p + r) if p + r else 0.0,
        "r_precision": in_r / n_rel if n_rel else 0.0,
        "average_precision": ap_sum / n_rel if n_rel else 0.0,
        "reciprocal_rank": 1 / first if first else 0.0,
    }


@SETTINGS
@given(rels=float_grades, missing=st.integers(min_value=0, max_value=4), threshold=thresholds, k=cutoffs,
       beta=betas)
def test_kernels_equal_slow_references_on_float_grades(rels, missing, threshold, k, beta):
    n_rel = _relevant_count(rels, threshold) + missing
    expected = _reference(rels, k, threshold, n_rel, beta)
    for name, value in _per_query_values(rels, k, threshold, n_rel, beta).items():
        assert value == pytest.approx(expected[name], rel=1e-12, abs=1e-15), name


# ---------------------------------------------------------------- one F formula, one rounding rule


@SETTINGS
@given(batch=batches, threshold=thresholds, beta=betas)
def test_trec_eval_set_f_is_f_beta_with_its_parameter_as_beta_squared(batch, threshold, beta):
    # trec_eval's set_F writes (b + 1) P R / (b P + R): its "beta" b is van Rijsbergen's beta^2.
    rankings, n_rel, ctx = _batch(batch, threshold)
    set_f = kernels.set_f(ctx, Cut(None, {"beta": beta * beta}))
    for q, (rels, r) in enumerate(zip(rankings, n_rel)):
        assert metrics.f_beta(rels, beta=beta, n_relevant=r, rel_threshold=threshold) == set_f[q]


def test_f_measure_is_the_lecture_formulas():
    p, r = np.array([4 / 10, 3 / 15]), np.array([4 / 10, 3 / 3])  # q1 and q2 of course 002 at k = 10, 15
    assert kernels.f_measure(p, r, 1.0) == pytest.approx(2 * p * r / (p + r))
    assert kernels.f_measure(p, r, 4.0) == pytest.approx(5 * p * r / (4 * p + r))
    assert kernels.f_measure(p, r, 0.25) == pytest.approx(1.25 * p * r / (0.25 * p + r))
    assert kernels.f_measure(np.zeros(1), np.zeros(1), 1.0).tolist() == [0.0]  # P + R = 0


def test_trec_eval_versions_and_per_query_roundings_map_onto_one_rule():
    lists = RankedLists.from_grades([[0, 0, 1, 0, 0, 0, 0, 1]], n_relevant=[3])  # q2's first 8 ranks, R = 3
    for version, rule in (("10", "lround"), ("9", "floor_plus_0.9")):
        ctx = BatchContext(lists, trec_eval_version=version)
        assert interpolated.rounding_rule(ctx, Cut(0.4)) == rule
        assert interpolated.rounding_rule(ctx, Cut(0.4, {"rounding": "ceil"})) == "ceil"  # a measure's own rule wins
        # recall 0.4 of R = 3 is 1.2 relevant documents: 1 by lround (P = 1/3 at rank 3), 2 by 9.x (2/8).
        expected = 1 / 3 if rule == "lround" else 2 / 8
        assert interpolated.interpolated_precision(ctx, Cut(0.4)).tolist() == [expected]
        assert metrics.interpolated_precision([0, 0, 1, 0, 0, 0, 0, 1], [0.4], n_relevant=3,
                                              rounding=rule).tolist() == [expected]
    with pytest.raises(ValueError, match="'rounding' of an interpolated precision must be one of"):
        interpolated.relevant_counts_for_levels([0.5], np.array([2]), "round")


# ---------------------------------------------------------------- one-list path == general path


@SETTINGS
@given(rels=float_grades, judged_extra=st.lists(st.sampled_from([0.0, 1.0, 2.5]), max_size=4),
       n_relevant=st.one_of(st.none(), st.integers(min_value=0, max_value=20)))
def test_one_list_constructor_builds_what_from_grades_builds(rels, judged_extra, n_relevant):
    judged = None if not judged_extra else np.array(rels + judged_extra, dtype=float)
    one = RankedLists.one(np.array(rels, dtype=float), judged, n_relevant=n_relevant)
    general = RankedLists.from_grades([np.array(rels, dtype=float)], [judged], n_relevant=[n_relevant])
    for field in ("starts", "row_query", "grade", "judged_starts", "judged_query", "judged_grade"):
        assert np.array_equal(getattr(one, field), getattr(general, field)), field
    assert one.max_grade == general.max_grade
    assert (one.n_relevant is None) == (general.n_relevant is None)
    if one.n_relevant is not None:
        assert one.n_relevant.tolist() == general.n_relevant.tolist()


# ---------------------------------------------------------------- breakdown value == function


def _pairs(rels, k, n_rel, threshold, beta, levels, rounding):
    r = {"n_relevant": n_rel, "rel_threshold": threshold}
    t = {"rel_threshold": threshold}
    i = {**r, "rounding": rounding}
    return {
        "precision": (metrics.precision(rels, k, **t), metrics.precision_breakdown(rels, k, **t)),
        "recall": (metrics.recall(rels, k, **r), metrics.recall_breakdown(rels, k, **r)),
        "hit": (metrics.hit(rels, k, **t), metrics.hit_breakdown(rels, k, **t)),
        "f_beta": (metrics.f_beta(rels, k, beta=beta, **r), metrics.f_beta_breakdown(rels, k, beta=beta, **r)),
        "r_precision": (metrics.r_precision(rels, **r), metrics.r_precision_breakdown(rels, **r)),
        "average_precision": (metrics.average_precision(rels, k, **r),
                              metrics.average_precision_breakdown(rels, k, **r)),
        "reciprocal_rank": (metrics.reciprocal_rank(rels, k, **t), metrics.reciprocal_rank_breakdown(rels, k, **t)),
        # The curve has no single value: its table reports the final recall.
        "precision_recall_points": (metrics.recall(rels, **r), metrics.precision_recall_points_breakdown(rels, **r)),
        "interpolated_precision": (float(metrics.interpolated_precision(rels, levels, **i).mean()),
                                   metrics.interpolated_precision_breakdown(rels, levels, **i)),
        "eleven_point_precision": (metrics.eleven_point_precision(rels, **i),
                                   metrics.eleven_point_precision_breakdown(rels, **i)),
        "interpolated_average_precision": (metrics.interpolated_average_precision(rels, **i),
                                           metrics.interpolated_average_precision_breakdown(rels, **i)),
        "satisfaction": (user.satisfaction(rels, k, **t), user.satisfaction_breakdown(rels, k, **t)),
        "frustration": (user.frustration(rels, k, **t), user.frustration_breakdown(rels, k, **t)),
    }


@SETTINGS
@given(rels=float_grades, k=cutoffs, missing=st.integers(min_value=0, max_value=4), threshold=thresholds,
       beta=betas, levels=levels_lists, rounding=st.sampled_from(ROUNDINGS))
def test_every_breakdown_value_is_its_function_value(rels, k, missing, threshold, beta, levels, rounding):
    n_rel = _relevant_count(rels, threshold) + missing
    for name, (value, worked) in _pairs(rels, k, n_rel, threshold, beta, levels, rounding).items():
        assert type(worked.value) is float, name
        assert worked.value == value, name


@SETTINGS
@given(rels=float_grades, k=cutoffs, missing=st.integers(min_value=0, max_value=4), threshold=thresholds)
def test_breakdown_tables_show_the_kernels_counts(rels, k, missing, threshold):
    n_rel = _relevant_count(rels, threshold) + missing
    r = {"n_relevant": n_rel, "rel_threshold": threshold}
    worked = metrics.average_precision_breakdown(rels, k, **r)
    relevant = [g >= threshold for g in rels[: len(worked.table)]]
    assert worked.table["relevant?"].tolist() == relevant
    assert worked.table["relevant so far"].tolist() == np.cumsum(relevant, dtype=int).tolist()
    # The contributions are the kernel's terms: their sum over R is AP (sequential sum, as the kernel adds).
    assert worked.value == pytest.approx(worked.table["contribution"].sum() / n_rel if n_rel else 0.0, rel=1e-12)
    # P@k's table runs to rank k past the end of the list: missing ranks are not relevant, and
    # the running count carries on, so the last row's P@i is the value.
    padded = metrics.precision_breakdown(rels, k, rel_threshold=threshold)
    assert len(padded.table) == (len(rels) if k is None else k)
    padded_relevant = [g >= threshold for g in rels[: len(padded.table)]] + [False] * (len(padded.table) - len(rels))
    assert padded.table["relevant?"].tolist() == padded_relevant
    assert padded.table["relevant so far"].tolist() == np.cumsum(padded_relevant, dtype=int).tolist()
    if len(padded.table):
        assert padded.table["P@i"].iloc[-1] == padded.value
