"""Tests of the behaviour explorer's computations (rankviz.teaching.explore)."""

import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st

from rankviz import metrics
from rankviz.teaching.explore import (
    DEFAULT_SWEEP_METRICS,
    SWEEP_METRICS,
    metric_agreement,
    metric_label,
    perturbed_rankings,
    position_sweep,
    random_rankings,
    score_rankings,
    sweep_changes,
    sweep_rankings,
)


def _values(sweep, name):
    table = sweep.table
    return table[table["name"] == name].sort_values("position")["value"].to_numpy()


# ------------------------------------------------------------------ position sweep: known values


@pytest.mark.parametrize("n_relevant", [1, 2, 5])
def test_ap_of_a_single_relevant_document_is_one_over_position_over_r(n_relevant):
    sweep = position_sweep(10, metrics=("average_precision",), n_relevant=n_relevant)
    positions = np.arange(1, 11)
    np.testing.assert_allclose(_values(sweep, "average_precision"), (1 / positions) / n_relevant)


def test_rr_ndcg_precision_of_a_single_relevant_document():
    sweep = position_sweep(8, metrics=("reciprocal_rank", "ndcg", "precision", "recall"), k=4, n_relevant=2)
    p = np.arange(1, 9)
    # RR@4 = 1/p up to rank 4, then 0.
    np.testing.assert_allclose(_values(sweep, "reciprocal_rank"), np.where(p <= 4, 1 / p, 0))
    # nDCG@4 with R = 2 (the other relevant document, grade 1, not retrieved):
    # (1/log2(p+1)) / (1/log2(2) + 1/log2(3)) while p <= 4.
    np.testing.assert_allclose(_values(sweep, "ndcg"),
                               np.where(p <= 4, 1 / np.log2(p + 1), 0) / (1 + 1 / np.log2(3)))
    # P@4 = 1/4 while the document is in the top 4; R@4 = 1/2 then.
    np.testing.assert_allclose(_values(sweep, "precision"), np.where(p <= 4, 1 / 4, 0))
    np.testing.assert_allclose(_values(sweep, "recall"), np.where(p <= 4, 1 / 2, 0))


def test_sweep_labels_name_the_cutoff():
    sweep = position_sweep(5, metrics=("average_precision", "ndcg", "r_precision"), k=3)
    assert list(dict.fromkeys(sweep.table["metric"])) == ["AP@3", "nDCG@3", "R-precision"]
    assert metric_label("precision", None, 7) == "P@7"


def test_sweep_rankings_move_one_document_past_the_others_in_order():
    rankings = sweep_rankings(4, grade=3, others=[2, 1, 0])
    assert rankings.tolist() == [[3, 2, 1, 0], [2, 3, 1, 0], [2, 1, 3, 0], [2, 1, 0, 3]]
    assert sweep_rankings(1, grade=2).tolist() == [[2.0]]


@pytest.mark.parametrize("options", [
    {},
    {"k": 3, "n_relevant": 3},
    {"grade": 3, "max_grade": 4, "gain": "exponential", "discount": "jarvelin"},
    {"others": [0, 2, 0, 1, 0], "n_relevant": 4, "rel_threshold": 1, "k": 8},
    {"grade": 2, "rel_threshold": 2, "beta": 2.0},
])
def test_every_sweep_value_is_the_metric_function_on_that_ranking(options):
    sweep = position_sweep(6, metrics=SWEEP_METRICS, **options)
    rankings = np.array(sweep.rankings)
    used = sweep.settings
    threshold = used["rel_threshold"]
    for row in sweep.table.itertuples():
        ranking = rankings[row.position - 1]
        kwargs = {}
        spec_params = {"k", "rel_threshold", "n_relevant", "beta", "gain", "discount", "max_grade"}
        from rankviz.registry import get_spec

        spec = get_spec(row.name)
        for name in spec.param_names & spec_params:
            if name in used:
                kwargs[name] = used[name]
        if "judged" in spec.param_names and "n_relevant" not in spec.param_names:
            unretrieved = used["n_relevant"] - int(np.sum(ranking >= threshold))
            if unretrieved:
                kwargs["judged"] = list(ranking) + [options.get("grade", 1)] * unretrieved
        assert row.value == pytest.approx(spec.function(list(ranking), **kwargs), abs=1e-12), row


def test_changing_r_moves_the_recall_oriented_metrics_only():
    before = position_sweep(6, metrics=("average_precision", "recall", "reciprocal_rank", "precision"))
    after = position_sweep(6, metrics=("average_precision", "recall", "reciprocal_rank", "precision"), n_relevant=3)
    changes = sweep_changes(before, after).set_index("name")
    assert changes["moved"].to_dict() == {"average_precision": True, "recall": True, "reciprocal_rank": False,
                                          "precision": False}
    # AP at rank 1 drops from 1/1 to (1/1) / 3.
    assert changes.loc["average_precision", "largest change"] == pytest.approx(1 / 3 - 1)


def test_changing_the_grade_scale_moves_err_but_not_ndcg():
    # A grade-1 document on a 0-1 scale, then a grade-3 document on a 0-3 scale.
    binary = position_sweep(5, metrics=("ndcg", "err", "average_precision"), grade=1, max_grade=1)
    graded = position_sweep(5, metrics=("ndcg", "err", "average_precision"), grade=3, max_grade=3)
    moved = sweep_changes(binary, graded).set_index("name")["moved"].to_dict()
    # ERR at rank 1: (2^1 - 1)/2^1 = 0.5 against (2^3 - 1)/2^3 = 0.875; nDCG and AP normalize it away.
    assert moved == {"ndcg": False, "err": True, "average_precision": False}


def test_changing_k_relabels_and_is_matched_by_function_name():
    changes = sweep_changes(position_sweep(5, metrics=("precision",), k=5),
                            position_sweep(5, metrics=("precision",), k=2))
    assert changes["metric"].tolist() == ["P@5 → P@2"]
    assert bool(changes["moved"].iloc[0])


def test_the_sweeps_tables_compare_as_the_sweeps_do():
    before = position_sweep(4, metrics=("average_precision", "reciprocal_rank"))
    after = position_sweep(4, metrics=("average_precision", "reciprocal_rank"), n_relevant=2)
    pd.testing.assert_frame_equal(sweep_changes(before.table, after.table), sweep_changes(before, after))


@pytest.mark.parametrize("call, match", [
    (lambda: position_sweep(0), "n_ranks"),
    (lambda: position_sweep(5, grade=0.5), "must be relevant|grade"),
    (lambda: position_sweep(5, others=[1, 1, 0, 0], n_relevant=2), "n_relevant"),
    (lambda: position_sweep(5, metrics=("dcg",)), "values in \\[0, 1\\]"),
    (lambda: position_sweep(5, metrics="ndcg"), "sequence of metric names"),
    (lambda: position_sweep(5, k=0), "'k'"),
    (lambda: position_sweep(5, gain="cubic"), "'gain'"),
    (lambda: position_sweep(5, grade=3, max_grade=2), "max_grade"),
    (lambda: sweep_rankings(3, others=[0]), "n_ranks - 1 = 2"),
    (lambda: sweep_changes(pd.DataFrame({"x": [1]}), position_sweep(3)), "position_sweep table"),
])
def test_bad_sweep_input_raises_a_message(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# ------------------------------------------------------------------ generators


def test_random_rankings_are_reproducible_from_the_seed():
    a = random_rankings(50, 10, seed=3, grades=(0, 1, 2, 3))
    assert np.array_equal(a, random_rankings(50, 10, seed=3, grades=(0, 1, 2, 3)))
    assert not np.array_equal(a, random_rankings(50, 10, seed=4, grades=(0, 1, 2, 3)))
    assert a.shape == (50, 10) and set(np.unique(a)) <= {0, 1, 2, 3}


def test_random_rankings_follow_the_weights():
    assert (random_rankings(20, 5, seed=0, grades=(0, 1), weights=(0, 1)) == 1).all()
    share = (random_rankings(1000, 20, seed=0, grades=(0, 1), weights=(3, 1)) == 1).mean()
    assert share == pytest.approx(0.25, abs=0.02)  # 1 / (3 + 1), 20,000 draws


def test_perturbed_rankings_permute_the_base_reproducibly():
    base = [3, 2, 2, 1, 0, 0, 0]
    rows = perturbed_rankings(base, 40, seed=11)
    assert np.array_equal(rows, perturbed_rankings(base, 40, seed=11))
    assert rows[0].tolist() == base
    assert all(sorted(row) == sorted(base) for row in rows.tolist())
    assert len({tuple(row) for row in rows.tolist()}) > 10  # swaps really change the order
    assert (perturbed_rankings(base, 5, seed=1, max_swaps=0) == base).all()


@pytest.mark.parametrize("call, match", [
    (lambda: random_rankings(5, 5, seed=-1), "seed"),
    (lambda: random_rankings(5, 5, seed=1.5), "seed"),
    (lambda: random_rankings(0, 5, seed=1), "n_rankings"),
    (lambda: random_rankings(5, 5, seed=1, grades=(0, 1), weights=(1,)), "weights"),
    (lambda: random_rankings(5, 5, seed=1, grades=(0, -1)), "non-negative|>= 0|negative"),
    (lambda: perturbed_rankings([1], 5, seed=1), "2 to"),
])
def test_bad_generator_input_raises_a_message(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# ------------------------------------------------------------------ scoring many rankings


@pytest.mark.parametrize("options", [
    {},
    {"k": 5},
    {"k": 15},
    {"n_relevant": 12},
    {"k": 4, "gain": "exponential", "discount": "jarvelin", "max_grade": 4, "beta": 0.5},
    {"rel_threshold": 2, "n_relevant": 12},
])
def test_scores_equal_the_metric_functions_row_by_row(options):
    rankings = random_rankings(60, 10, seed=5, grades=(0, 1, 2, 3), weights=(4, 2, 1, 1))
    rankings[0] = 0  # a ranking without any relevant document
    scores = score_rankings(rankings, SWEEP_METRICS, **options)
    from rankviz.registry import get_spec

    for name, label in scores.labels.items():
        spec = get_spec(name)
        kwargs = {key: value for key, value in options.items() if key in spec.param_names}
        if "max_grade" in spec.param_names and "max_grade" not in kwargs:
            kwargs["max_grade"] = 3.0  # one scale for every system: the highest grade drawn
        expected = [spec.function(list(row), **kwargs) for row in rankings]
        np.testing.assert_allclose(scores.table[label].to_numpy(), expected, atol=1e-12, err_msg=name)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.integers(0, 3), min_size=1, max_size=8), min_size=1, max_size=6).filter(
    lambda rows: len({len(r) for r in rows}) == 1), st.sampled_from([None, 1, 3, 10]))
def test_vectorized_scores_match_the_functions_on_any_grades(rows, k):
    scores = score_rankings(rows, DEFAULT_SWEEP_METRICS + ("f_beta", "hit", "r_precision"), k=k)
    from rankviz.registry import get_spec

    top = max(max(r) for r in rows)
    for name, label in scores.labels.items():
        spec = get_spec(name)
        kwargs = {"k": k} if "k" in spec.param_names else {}
        if name == "err" and top > 0:
            kwargs["max_grade"] = top
        expected = [spec.function(r, **kwargs) for r in rows]
        np.testing.assert_allclose(scores.table[label].to_numpy(), expected, atol=1e-12, err_msg=name)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0, 3.5]), min_size=6, max_size=6), min_size=1,
                max_size=5),
       st.sampled_from([None, 2, 6, 9]), st.sampled_from([0.5, 1.0, 1.5, 2.0]), st.sampled_from([None, 7]),
       st.sampled_from(["linear", "exponential"]))
def test_kernel_scores_keep_the_per_query_conventions(rows, k, threshold, n_relevant, gain):
    # Float grades and thresholds, k beyond the list (P@k pads missing ranks as non-relevant), P with
    # k=None over the list's length, R given or counted from the list: the batch kernels the explorer
    # scores with must give what the per-query functions give.
    from rankviz.registry import get_spec

    names = ("precision", "recall", "hit", "r_precision", "average_precision", "reciprocal_rank", "ndcg", "err")
    scores = score_rankings(rows, names, k=k, rel_threshold=threshold, n_relevant=n_relevant, gain=gain,
                            max_grade=4)
    for name, label in scores.labels.items():
        spec = get_spec(name)
        options = {"k": k, "rel_threshold": threshold, "n_relevant": n_relevant, "gain": gain, "max_grade": 4}
        kwargs = {key: value for key, value in options.items() if key in spec.param_names and value is not None}
        expected = [spec.function(r, **kwargs) for r in rows]
        np.testing.assert_allclose(scores.table[label].to_numpy(), expected, atol=1e-12, err_msg=name)


def test_every_sweepable_metric_with_a_kernel_is_scored_by_it(monkeypatch):
    # The registry says which kernel scores a metric and how (MetricSpec.cut): a metric added to the
    # registry with a kernel never silently falls to the row-by-row loop. The functions are poisoned
    # beyond the first row (which validates the settings), so any metric the loop scores fails here.
    from rankviz.registry import METRICS

    sweepable = [spec for spec in METRICS if spec.sweep]
    batch = [spec.name for spec in sweepable if spec.cut({}) is not None]
    # The rest have no kernel (satisfaction divides by the returned documents, not by k; the
    # lecture's 10-level interpolated AP counts levels, not trec_eval's list of them).
    assert sorted(set(SWEEP_METRICS) - set(batch)) == ["frustration", "interpolated_average_precision",
                                                       "satisfaction"]
    rows = random_rankings(5, 6, seed=3, grades=(0, 1, 2))
    expected = score_rankings(rows, batch, k=4).table
    calls = {"n": 0}
    for spec in sweepable:
        function = spec.function

        def counted(*args, _function=function, **kwargs):
            calls["n"] += 1
            return _function(*args, **kwargs)
        monkeypatch.setattr(f"rankviz.metrics.{spec.module}.{spec.name}", counted)
    scores = score_rankings(rows, batch, k=4)
    assert calls["n"] == len(batch)  # one validating call per metric, none per row
    assert scores.table.equals(expected)


def test_known_values_of_the_kernel_path_by_hand():
    # Grades 0.5, 2, 0, 1.5 with rel_threshold 1.5: relevant at ranks 2 and 4, R = 2 (the list's own).
    scores = score_rankings([[0.5, 2, 0, 1.5]], ("precision", "recall", "average_precision", "reciprocal_rank",
                                                  "hit", "ndcg"), k=6, rel_threshold=1.5)
    row = scores.table.iloc[0]
    assert row["P@6"] == pytest.approx(2 / 6)  # two missing ranks count as non-relevant
    assert row["R@6"] == pytest.approx(2 / 2)
    assert row["AP@6"] == pytest.approx((1 / 2 + 2 / 4) / 2)
    assert row["RR@6"] == pytest.approx(1 / 2)
    assert row[scores.labels["hit"]] == 1.0
    # nDCG@6, linear gain, ideal 2, 1.5, 0.5, 0:
    # (0.5 + 2/log2(3) + 1.5/log2(5)) / (2 + 1.5/log2(3) + 0.5/log2(4)).
    assert row["nDCG@6"] == pytest.approx((0.5 + 2 / np.log2(3) + 1.5 / np.log2(5))
                                          / (2 + 1.5 / np.log2(3) + 0.5 / 2))


def test_a_grade_the_kernel_refuses_is_reported_for_its_ranking():
    # 2^1100 - 1 overflows a float: the per-query function names the grade, the explorer the ranking.
    with pytest.raises(ValueError, match=r"Ranking r2 \(0,1100\): .*at most 1023"):
        score_rankings([[1, 0], [0, 1100]], ("ndcg",), gain="exponential")


def test_jarvelin_ndcg_and_f_beta_scored_by_the_kernels_match_the_per_query_functions():
    # Both variants have kernels now: the matrix path must give the per-query functions' values.
    rankings = random_rankings(30, 8, seed=4, grades=(0, 1, 2, 3))
    scores = score_rankings(rankings, ("ndcg", "f_beta"), k=5, discount="jarvelin", beta=2.0)
    expected_ndcg = [metrics.ndcg(list(r), 5, discount="jarvelin") for r in rankings]
    expected_f = [metrics.f_beta(list(r), 5, beta=2.0) for r in rankings]
    np.testing.assert_allclose(scores.table["nDCG@5"], expected_ndcg, atol=1e-12)
    np.testing.assert_allclose(scores.table[scores.labels["f_beta"]], expected_f, atol=1e-12)


def test_one_r_for_every_ranking_is_the_most_any_ranking_holds():
    rankings = [[1, 0, 0, 0], [1, 1, 0, 1], [0, 0, 0, 0]]
    scores = score_rankings(rankings, ("recall", "average_precision"), n_relevant="most")
    # R = 3 (ranking r2): recall 1/3, 3/3, 0; AP of r1 = (1/1) / 3.
    np.testing.assert_allclose(scores.table["R@4"], [1 / 3, 1.0, 0.0])
    assert scores.table["AP@4"].iloc[0] == pytest.approx(1 / 3)


def test_score_rankings_names_the_ranking_r_is_too_small_for():
    with pytest.raises(ValueError, match=r"ranking r2 \(1,1,1\)"):
        score_rankings([[1, 0, 0], [1, 1, 1]], ("recall",), n_relevant=2)
    with pytest.raises(ValueError, match="2-D"):
        score_rankings([1, 0, 1], ("recall",))


# ------------------------------------------------------------------ agreement between metrics


def test_a_metric_agrees_perfectly_with_itself_and_oppositely_with_its_negation():
    table = score_rankings(random_rankings(100, 10, seed=2, grades=(0, 1, 2)), ("average_precision", "ndcg")).table
    table["minus AP"] = -table["AP@10"]
    matrix = metric_agreement(table, ["AP@10", "nDCG@10", "minus AP"])
    assert np.diag(matrix.to_numpy()).tolist() == [1.0, 1.0, 1.0]
    assert matrix.loc["AP@10", "minus AP"] == pytest.approx(-1.0)
    np.testing.assert_array_equal(matrix.to_numpy(), matrix.to_numpy().T)


def test_agreement_is_scipys_kendall_tau_b_and_rankviz_kendall_tau():
    scores = score_rankings(random_rankings(80, 8, seed=9, grades=(0, 1, 2)), ("precision", "reciprocal_rank",
                                                                               "ndcg"))
    matrix = metric_agreement(scores)  # the result itself; its table gives the same (below)
    table = scores.table
    for x in matrix.index:
        for y in matrix.columns:
            reference = scipy.stats.kendalltau(table[x], table[y], variant="b").statistic
            assert matrix.loc[x, y] == pytest.approx(reference, abs=1e-12)
            assert matrix.loc[x, y] == pytest.approx(metrics.kendall_tau(table[x], table[y]), abs=1e-12)
    pd.testing.assert_frame_equal(metric_agreement(table), matrix)


def test_hand_computed_agreement_with_a_tie():
    # AP orders three systems 0.2 < 0.5 < 0.9; P@1 gives 0, 1, 1. Pairs: (s1, s2) and (s1, s3)
    # concordant, (s2, s3) tied in P@1 only: tau_b = 2 / sqrt(3 * 2) = 0.816.
    matrix = metric_agreement(pd.DataFrame({"AP": [0.2, 0.5, 0.9], "P@1": [0.0, 1.0, 1.0]}))
    assert matrix.loc["AP", "P@1"] == pytest.approx(2 / np.sqrt(6))


def test_a_metric_that_ties_every_ranking_has_no_tau():
    table = pd.DataFrame({"AP": [0.1, 0.4, 0.3], "Hit": [1.0, 1.0, 1.0]})
    with pytest.warns(RuntimeWarning, match="undefined"):
        matrix = metric_agreement(table)
    assert np.isnan(matrix.loc["AP", "Hit"]) and np.isnan(matrix.loc["Hit", "Hit"])
    assert matrix.loc["AP", "AP"] == 1.0


def test_agreement_refuses_missing_values():
    with pytest.raises(ValueError, match=r"missing values, which have no order: 'AP'"):
        metric_agreement(pd.DataFrame({"AP": [0.5, np.nan, 0.1], "P@1": [1.0, 0.0, 1.0]}))


def test_agreement_needs_two_rankings_and_known_columns():
    with pytest.raises(ValueError, match="at least 2"):
        metric_agreement(pd.DataFrame({"AP": [0.5]}))
    with pytest.raises(ValueError, match="'nDCG' not found"):
        metric_agreement(pd.DataFrame({"AP": [0.5, 0.2]}), ["AP", "nDCG"])


def test_sweep_and_generators_do_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        position_sweep(20, metrics=SWEEP_METRICS, n_relevant=3, k=10)
        score_rankings(perturbed_rankings([2, 1, 1, 0, 0], 30, seed=0), SWEEP_METRICS)
