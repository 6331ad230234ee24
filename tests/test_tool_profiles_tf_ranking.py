"""Differential tests: ``evaluate(..., as_tool="tensorflow_ranking")`` equals TensorFlow Ranking 0.5.5,
list by list.

TF-Ranking 0.5.5 needs tensorflow 2.15 and numpy < 2, which cannot share rankviz's environment, so
it lives in a virtual environment of its own (``.ci/run`` makes it; by hand:
``python -m venv /opt/rankviz-tf-ranking && /opt/rankviz-tf-ranking/bin/pip install
tensorflow-ranking==0.5.5``; another place through ``RANKVIZ_TF_RANKING_PYTHON``) and
``tests/tool_runners/tensorflow_ranking_values.py`` runs there: lists in, per-list values and
weights out, as JSON. These tests skip with a message where that Python is missing, except under
CI (``CI=true``), where they must run.

What TF-Ranking is given, as its users give it: one list per query, the run's documents with their
scores, labels their grades (0 where unjudged). Scores get a small distinct offset: TF-Ranking
shuffles tied scores at random at every call (``sort_by_scores(shuffle_ties=True)``, no seed), so a
tied list has no one value to compare with (the profile's ``ties="random"`` names that).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import rankviz
from generated_runs import SEEDS, frames, generated
from tool_environments import run_tool, tool_python

MEASURES = {("NDCGMetric", 5): "nDCG@5", ("NDCGMetric", None): "nDCG", ("MeanAveragePrecisionMetric", 5): "AP@5",
            ("MeanAveragePrecisionMetric", None): "AP", ("PrecisionMetric", 5): "P@5", ("RecallMetric", 5): "R@5",
            ("RecallMetric", 12): "R@12", ("MRRMetric", None): "RR", ("MRRMetric", 3): "RR@3",
            ("HitsMetric", 5): "Success@5", ("BPrefMetric", None): "Bpref"}


@pytest.fixture(scope="module")
def tf_ranking_python() -> str:
    return tool_python("tensorflow_ranking", "/opt/rankviz-tf-ranking/bin/python", "RANKVIZ_TF_RANKING_PYTHON",
                       "python -m venv /opt/rankviz-tf-ranking && /opt/rankviz-tf-ranking/bin/pip install "
                       "tensorflow-ranking==0.5.5 tensorflow==2.15.1 numpy==1.26.4")


def tf_ranking(python: str, lists: list[dict], metrics) -> dict:
    return run_tool(python, "tensorflow_ranking_values.py", {"lists": lists, "metrics": metrics})


def without_ties(run: dict, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    return {q: {d: s + float(rng.random()) * 1e-3 for d, s in docs.items()} for q, docs in run.items()}


def test_every_measure_on_generated_runs_list_by_list(tf_ranking_python):
    """One call for every seed's lists (TensorFlow starts once): each list's value equals the profile's,
    and a list TF-Ranking weighs 0 in the mean is one the profile leaves out."""
    cases, lists = [], []
    for seed in SEEDS:
        qrels, run = generated(seed)
        run = without_ties(run, seed)
        for q, docs in run.items():
            if q in qrels:  # TF-Ranking is given the judged queries' lists
                cases.append((seed, q))
                lists.append({"labels": [qrels[q].get(d, 0) for d in docs], "scores": list(docs.values())})
    theirs = tf_ranking(tf_ranking_python, lists, [list(m) for m in MEASURES])
    for (name, topn), measure in MEASURES.items():
        values = theirs[f"{name}@{topn}"]
        ours = {}
        for seed in SEEDS:
            qrels, run = generated(seed)
            column = rankviz.evaluate(*frames(qrels, without_ties(run, seed)), [measure],
                                      as_tool="tensorflow_ranking").per_query.iloc[:, 0]
            ours.update({(seed, q): v for q, v in column.items()})
        for case, (value, weight) in zip(cases, values):
            got = ours.get(case, math.nan)
            if weight == 0:
                assert math.isnan(got), f"{measure} {case}: TF-Ranking weighs it 0, rankviz gives {got}"
            else:
                assert got == pytest.approx(value, abs=1e-6), f"{measure} {case}: {got} != TF-Ranking's {value}"
    assert any(w == 1 and v == 0 for v, w in theirs["NDCGMetric@None"]), "no list without a relevant label"


def test_item_weighted_ndcg(tf_ranking_python):
    """A weight column of the run weighs each document's gain, and the ideal ranking sorts weighted gains."""
    rng = np.random.default_rng(7)
    rows, lists = [], []
    for q in range(12):
        n = int(rng.integers(2, 11))
        labels, scores = rng.integers(0, 4, n), rng.permutation(n) + rng.random(n) * 0.1
        weights = rng.choice([0.5, 1.0, 2.0, 3.0], n)
        lists.append({"labels": labels.tolist(), "scores": scores.tolist(), "weights": weights.tolist()})
        rows += [(f"q{q:02d}", f"d{i}", int(g), float(s), float(w)) for i, (g, s, w) in
                 enumerate(zip(labels, scores, weights))]
    table = pd.DataFrame(rows, columns=["query_id", "doc_id", "relevance", "score", "weight"])
    qrels, run = table[["query_id", "doc_id", "relevance"]], table[["query_id", "doc_id", "score", "weight"]]
    theirs = tf_ranking(tf_ranking_python, lists, [["NDCGMetric", 3], ["NDCGMetric", None]])
    for topn, measure in ((3, "nDCG@3"), (None, "nDCG")):
        ours = rankviz.evaluate(qrels, run, [measure], as_tool="tensorflow_ranking").per_query.iloc[:, 0].tolist()
        unweighted = rankviz.evaluate(qrels, run[["query_id", "doc_id", "score"]], [measure],
                                      as_tool="tensorflow_ranking").per_query.iloc[:, 0].tolist()
        expected = [v for v, _ in theirs[f"NDCGMetric@{topn}"]]
        assert ours == pytest.approx(expected, abs=1e-6)
        assert unweighted != pytest.approx(expected, abs=1e-6)  # the weights matter on these lists
    named = rankviz.disagreement(qrels, run, "nDCG@3", a="tensorflow_ranking",
                                 b={"tool": "tensorflow_ranking", "item_weights": "ignored"})
    assert set(c for found in named["conventions"] for c in found) == {"item_weights"}
