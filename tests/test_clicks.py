"""Click-log evaluation (rankviz.evaluation.clicks): AUC and GAUC equal rankviz.metrics.auc / gauc
and scikit-learn's roc_auc_score per group on random data with ties; the ranking measures equal
the per-query rankviz.metrics functions; the Dask engine (on the session's 2-worker LocalCluster)
gives the same digits as the memory engine from pandas, Parquet and dask DataFrames."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rankviz.evaluation.clicks import evaluate_clicks
from rankviz.metrics import auc, average_precision, gauc, ndcg, precision, reciprocal_rank
from rankviz.metrics.kernels.auc import auc_from_runs, auc_values, grouped_auc, score_runs

MEASURES = ["auc", "gauc", "nDCG@10", "nDCG(gain=exp)@5", "P@5", "RR", "AP", "Success@3", "R@5"]


def click_log(seed: int, n: int = 3000, groups: int = 120, grades: bool = False) -> pd.DataFrame:
    """Random impressions with many tied scores (one decimal), some one-class groups."""
    rng = np.random.default_rng(seed)
    group = rng.integers(0, groups, n)
    label = rng.integers(0, 3, n) if grades else (rng.random(n) < 0.25).astype(np.int64)
    score = np.round(rng.random(n), 1)
    # A few small sessions of one class: no click at all, or nothing but clicks.
    group = np.concatenate((group, np.repeat(np.arange(groups, groups + 6), 2)))
    label = np.concatenate((label, np.repeat([0, 0, 0, 0, 1, 2 if grades else 1], 2)))
    score = np.concatenate((score, np.round(rng.random(12), 1)))
    return pd.DataFrame({"session": [f"s{g:04d}" for g in group], "click": label, "pred": score})


def evaluate(frame, **options):
    return evaluate_clicks(frame, group="session", label="click", score="pred", **options)


def pessimistic_ranking(rows: pd.DataFrame) -> np.ndarray:
    """The labels of one group by decreasing score, ties by increasing label (the documented order)."""
    return rows.sort_values(["pred", "click"], ascending=[False, True])["click"].to_numpy()


# ------------------------------------------------------------------------- the AUC kernel


@settings(max_examples=50, deadline=None)
@given(data=st.lists(st.tuples(st.integers(0, 4), st.booleans(), st.integers(-2, 2)), min_size=1, max_size=40))
def test_kernel_equals_the_pair_definition_per_group(data):
    group = np.array([g for g, _, _ in data])
    positive = np.array([p for _, p, _ in data])
    score = np.array([s for _, _, s in data], dtype=np.float64)
    u, n_pos, n_neg = grouped_auc(group, positive, score, 5)
    for g in range(5):
        pos, neg = score[(group == g) & positive], score[(group == g) & ~positive]
        credit = sum(1.0 if p > q else 0.5 if p == q else 0.0 for p in pos for q in neg)
        assert u[g] == credit and n_pos[g] == pos.size and n_neg[g] == neg.size
    values = auc_values(u, n_pos, n_neg)
    assert np.array_equal(np.isnan(values), (n_pos == 0) | (n_neg == 0))


def test_kernel_on_merged_partition_histograms_equals_the_kernel_on_rows():
    # What the Dask engine does for the global AUC: histograms of parts, added, then the runs.
    rng = np.random.default_rng(3)
    positive, score = rng.random(5000) < 0.3, np.round(rng.random(5000), 2)
    parts = []
    for rows in np.array_split(np.arange(5000), 7):
        _, s, p, n = score_runs(np.zeros(0, np.int64), positive[rows], score[rows], 1)
        parts.append(pd.DataFrame({"score": s, "p": p, "n": n}))
    merged = pd.concat(parts).groupby("score").sum().sort_index()
    from_histogram = auc_from_runs(np.zeros(len(merged), np.int64), merged["p"].to_numpy(), merged["n"].to_numpy(), 1)
    from_rows = grouped_auc(np.zeros(5000, np.int64), positive, score, 1)
    assert all(np.array_equal(a, b) for a, b in zip(from_histogram, from_rows))


# ----------------------------------------------------------------- memory engine vs references


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("weights", ["impressions", "positives", "uniform"])
def test_auc_and_gauc_equal_rankviz_metrics_and_sklearn(seed, weights):
    from sklearn.metrics import roc_auc_score

    frame = click_log(seed)
    result = evaluate(frame, measures=["auc", "gauc"], weights=weights, per_group=True)
    assert result.values["AUC"] == auc(frame["click"], frame["pred"])
    assert result.values["AUC"] == pytest.approx(roc_auc_score(frame["click"], frame["pred"]), abs=1e-12)
    reference = gauc(frame["click"], frame["pred"], frame["session"], weights="size" if weights == "impressions" else weights)
    assert result.values["GAUC"] == reference.value  # one reduction (kernels.auc.weighted_mean): same digits
    assert result.counts["one_class_groups"] == len(reference.skipped_groups) > 0
    per_group = result.per_group.dropna(subset=["auc"])
    assert dict(zip(per_group.index, per_group["auc"])) == dict(reference.per_group)
    sklearn_values = {g: roc_auc_score(rows["click"], rows["pred"]) for g, rows in frame.groupby("session")
                      if rows["click"].nunique() == 2}
    assert per_group["auc"].to_dict() == pytest.approx(sklearn_values, abs=1e-12)
    w = np.array([sklearn_values[g] for g in per_group.index]), per_group["weight"].to_numpy()
    assert result.values["GAUC"] == pytest.approx(np.sum(w[0] * w[1]) / np.sum(w[1]), abs=1e-12)


@settings(max_examples=25, deadline=None)
@given(rows=st.lists(st.tuples(st.sampled_from("abcd"), st.integers(0, 1), st.integers(0, 3)), min_size=1, max_size=40))
def test_gauc_equals_rankviz_gauc_on_any_small_log(rows):
    frame = pd.DataFrame(rows, columns=["session", "click", "pred"])
    with pytest.warns(RuntimeWarning) if frame.groupby("session")["click"].nunique().max() < 2 else _no_warning():
        reference = gauc(frame["click"], frame["pred"], frame["session"])
    value = evaluate(frame, measures=["gauc"]).values["GAUC"]
    if np.isnan(reference.value):
        assert np.isnan(value)
    else:
        assert value == reference.value


class _no_warning:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@pytest.mark.parametrize("grades", [False, True])
def test_ranking_measures_equal_the_per_query_functions(grades):
    frame = click_log(4, n=1500, groups=60, grades=grades)
    result = evaluate(frame, measures=MEASURES[2:], per_group=True)
    expected = {}
    for session, rows in frame.groupby("session"):
        rels = pessimistic_ranking(rows)
        expected[session] = {
            "nDCG@10": ndcg(rels, 10), "nDCG(gain=exponential)@5": ndcg(rels, 5, gain="exponential"),
            "P@5": precision(rels, 5), "RR": reciprocal_rank(rels), "AP": average_precision(rels),
        }
    table = pd.DataFrame(expected).T.loc[result.per_group.index]
    for column in table.columns:
        np.testing.assert_allclose(result.per_group[column], table[column], rtol=0, atol=1e-12)
    clicked = result.per_group["positives"] > 0
    assert result.values["RR"] == pytest.approx(table.loc[clicked, "RR"].mean(), abs=1e-12)
    assert result.counts["groups_without_positive"] == int((~clicked).sum())


def test_batches_of_whole_groups_change_no_digit(monkeypatch):
    from rankviz.evaluation import clicks

    frame = click_log(5, n=2000, groups=80, grades=True)
    whole = evaluate(frame, measures=MEASURES, per_group=True)
    monkeypatch.setattr(clicks, "BATCH_ROWS", 50)  # about 40 batches, some groups larger than a batch
    batched = evaluate(frame, measures=MEASURES, per_group=True)
    assert batched.values.equals(whole.values)
    pd.testing.assert_frame_equal(batched.per_group, whole.per_group, check_exact=True)


def test_hand_values_and_tie_order():
    # s1: clicked 0.9, skipped 0.9 (a tie) and 0.5; s2: clicked 0.2, skipped 0.1; s3: no click.
    frame = pd.DataFrame({"session": ["s1", "s1", "s1", "s2", "s2", "s3"], "click": [1, 0, 0, 1, 0, 0],
                          "pred": [0.9, 0.9, 0.5, 0.2, 0.1, 0.7]})
    result = evaluate(frame, measures=["gauc", "RR", "P@1", "auc"])
    # GAUC = (3 * (1 + 0.5) / 2 + 2 * 1) / (3 + 2); RR = (1/2 + 1/1) / 2, the tie ranked pessimistically.
    assert result.values["GAUC"] == pytest.approx((3 * 0.75 + 2 * 1) / 5)
    assert result.values["RR"] == (1 / 2 + 1) / 2
    assert result.values["P@1"] == (0 + 1) / 2
    # AUC: positives 0.9, 0.2 vs negatives 0.9, 0.5, 0.1, 0.7: (0.5 + 1 + 1 + 1) + (0 + 0 + 1 + 0).
    assert result.values["AUC"] == 4.5 / 8
    assert list(result.values.index) == ["GAUC", "RR", "P@1", "AUC"]
    assert dict(result.counts) == {"rows": 6, "positives": 2, "groups": 3, "one_class_groups": 1,
                                   "groups_without_positive": 1}
    shuffled = frame.sample(frac=1, random_state=5)
    assert evaluate(shuffled, measures=["gauc", "RR", "P@1", "auc"]).values.equals(result.values)


def test_degenerate_logs_give_nan_and_counts():
    frame = pd.DataFrame({"session": ["a", "a", "b"], "click": [0, 0, 0], "pred": [0.1, 0.2, 0.3]})
    result = evaluate(frame, measures=["gauc", "nDCG@10"])
    assert np.isnan(result.values["GAUC"]) and np.isnan(result.values["nDCG@10"])
    assert result.counts["one_class_groups"] == 2 and result.counts["groups_without_positive"] == 2


def test_errors_name_what_was_expected(tmp_path):
    frame = click_log(0, n=50, groups=5)
    with pytest.raises(ValueError, match="no column 'group'"):
        evaluate_clicks(frame)
    bad = frame.copy()
    bad.loc[7, "pred"] = np.nan
    with pytest.raises(ValueError, match=r"column 'pred' must hold finite numbers; got nan in row 8"):
        evaluate(bad)
    bad = frame.copy()
    bad.loc[2, "click"] = -1
    with pytest.raises(ValueError, match=r"column 'click' must hold finite numbers >= 0.*row 3"):
        evaluate(bad)
    with pytest.raises(ValueError, match="'engine' parameter of evaluate_clicks must be one of"):
        evaluate(frame, engine="spark")
    with pytest.raises(ValueError, match="'weights' parameter of evaluate_clicks"):
        evaluate(frame, weights="clicks")
    with pytest.raises(ValueError, match="accepts 'auc', 'gauc' and the ranking measures"):
        evaluate(frame, measures=["num_ret"])
    with pytest.raises(ValueError, match="accepts 'auc', 'gauc' and the ranking measures"):
        evaluate(frame, measures=["ERR@10"])  # its kernel's digits depend on the groups before
    with pytest.raises(ValueError, match="must be a pandas DataFrame, a dask DataFrame or the path"):
        evaluate_clicks([1, 2, 3])


# ------------------------------------------------------------------------------ Dask engine


def assert_same(memory, dask_result, engine="dask"):
    assert dask_result.engine == engine
    assert memory.values.equals(dask_result.values)  # the same digits, not only close ones
    assert dict(memory.counts) == dict(dask_result.counts)
    if memory.per_group is not None:
        # Dask reads strings as pyarrow strings: same ids, another index dtype.
        pd.testing.assert_frame_equal(memory.per_group, dask_result.per_group, check_exact=True, check_index_type=False)


def test_dask_engine_equals_memory_engine_from_pandas(dask_client):
    frame = click_log(7, grades=True)
    memory = evaluate(frame, measures=MEASURES, per_group=True)
    assert_same(memory, evaluate(frame, measures=MEASURES, per_group=True, engine="dask", client=dask_client,
                                 partitions=3))
    only_auc = evaluate(frame, measures=["auc"], engine="dask", client=dask_client)
    assert only_auc.values["AUC"] == memory.values["AUC"] == auc(frame["click"] >= 1, frame["pred"])
    assert dict(only_auc.counts) == {"rows": len(frame), "positives": int((frame["click"] >= 1).sum())}


def test_dask_engine_on_a_parquet_dataset_and_a_dask_frame(dask_client, tmp_path):
    import dask.dataframe as dd

    frame = click_log(8)
    directory = tmp_path / "clicks"
    directory.mkdir()
    for i, rows in enumerate(np.array_split(np.arange(len(frame)), 4)):  # groups spread over files, as in a real log
        frame.iloc[rows].to_parquet(directory / f"part-{i}.parquet", index=False)
    memory = evaluate(frame, measures=MEASURES, weights="positives", per_group=True)
    assert_same(memory, evaluate(str(directory), measures=MEASURES, weights="positives", per_group=True,
                                 engine="dask", client=dask_client))
    assert_same(memory, evaluate(dd.read_parquet(directory), measures=MEASURES, weights="positives", per_group=True,
                                 engine="dask", client=dask_client))
    from_parquet = evaluate(directory, measures=MEASURES, weights="positives", per_group=True)  # memory engine, Parquet
    assert_same(memory, from_parquet, engine="memory")


def test_dask_engine_reports_bad_rows_with_their_partition(dask_client):
    frame = click_log(9, n=400, groups=10)
    frame.loc[300, "pred"] = np.inf
    with pytest.raises(ValueError, match=r"column 'pred' must hold finite numbers; got inf in row \d+ of partition \d"):
        evaluate(frame, measures=["auc"], engine="dask", client=dask_client, partitions=2)


def test_dask_engine_without_shuffle_when_files_hold_whole_groups(dask_client, tmp_path):
    frame = click_log(10).sort_values("session", kind="stable")
    whole, split = tmp_path / "whole", tmp_path / "split"
    whole.mkdir()
    split.mkdir()
    sessions = frame["session"].unique()
    for i, names in enumerate(np.array_split(sessions, 3)):  # each file: a range of whole sessions
        frame[frame["session"].isin(names)].to_parquet(whole / f"part-{i}.parquet", index=False)
    memory = evaluate(frame, measures=MEASURES, per_group=True)
    assert_same(memory, evaluate(str(whole), measures=MEASURES, per_group=True, engine="dask", client=dask_client,
                                 shuffle=False))
    for i, rows in enumerate(np.array_split(np.arange(len(frame)), 3)):  # cuts through sessions
        frame.iloc[rows].to_parquet(split / f"part-{i}.parquet", index=False)
    with pytest.raises(ValueError, match=r"shuffle=False needs every group in one partition, but group 's\d+' has rows"):
        evaluate(str(split), measures=["gauc"], engine="dask", client=dask_client, shuffle=False)
