"""Differential tests: ``evaluate(..., as_tool=NAME)`` equals the tool itself, query by query.

Generated runs carry what makes tools disagree: tied scores (a few score values), graded
judgments (0-3), judged documents never retrieved, queries whose judgments hold no relevant
document, judged queries missing from the run and run queries without judgments. The tools are
dev-only dependencies pinned in requirements-dev.txt (pytrec-eval-terrier, ir-measures,
scikit-learn, ranx, trectools; torchmetrics, with a CPU build of torch, in
tests/test_tool_profiles_torch.py; Spark MLlib, pyspark in a JVM, in tests/test_tool_profiles_spark.py);
TF-Ranking and RecBole, which need numpy < 2, each in an environment of its own, in
tests/test_tool_profiles_tf_ranking.py and tests/test_tool_profiles_recbole.py. Elasticsearch needs a
server and TorchRec pins an older torchmetrics: their profiles are read from their source
(``ToolProfile.checked`` is False, and docs/conventions.md says so).

Run rows are written best score first, ties in a random order (as most run files are): trectools'
nDCG reads the rows in that order. Lists have at most 12 documents; ranx, which orders ties as numba's
quicksort leaves them (the input order only up to 15 documents), is also run on long tied lists.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankviz
from generated_runs import SEEDS, frames, generated
from rankviz.conventions import PROFILES

def ours(qrels, run, measure: str, tool: str) -> dict:
    column = rankviz.evaluate(*frames(qrels, run), [measure], as_tool=tool).per_query.iloc[:, 0]
    return {q: v for q, v in column.items() if not math.isnan(v)}


def assert_same(expected: dict, got: dict, what: str):
    assert sorted(got) == sorted(expected), f"{what}: queries {sorted(got)} != the tool's {sorted(expected)}"
    for q in expected:
        assert got[q] == pytest.approx(expected[q], abs=1e-9), f"{what}, query {q}: {got[q]} != {expected[q]}"


# --- the tools themselves --------------------------------------------------------------------------

PYTREC = [("nDCG@5", "ndcg_cut_5"), ("nDCG", "ndcg"), ("AP@5", "map_cut_5"), ("AP", "map"), ("P@5", "P_5"),
          ("R@5", "recall_5"), ("RR", "recip_rank"), ("Success@5", "success_5"), ("Bpref", "bpref")]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("tool", ["pytrec_eval", "trec_eval"])
def test_pytrec_eval(seed, tool):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels, run = generated(seed)
    names = {"ndcg_cut.5", "ndcg", "map_cut.5", "map", "P.5", "recall.5", "recip_rank", "success.5", "bpref"}
    values = pytrec_eval.RelevanceEvaluator(qrels, names).evaluate(run)
    for measure, key in PYTREC:
        assert_same({q: v[key] for q, v in values.items()}, ours(qrels, run, measure, tool), f"{tool} {measure}")


def test_the_trec_eval_profile_is_rankviz_evaluate():
    """The trec_eval profile and rankviz's trec_eval-exact evaluator agree on every generated run."""
    for seed in SEEDS:
        qrels, run = generated(seed)
        for measure, _ in PYTREC:
            exact = rankviz.evaluate(*frames(qrels, run), [measure]).per_query.iloc[:, 0].to_dict()
            assert_same(exact, ours(qrels, run, measure, "trec_eval"), f"seed {seed} {measure}")


@pytest.mark.parametrize("seed", SEEDS)
def test_ir_measures(seed):
    ir_measures = pytest.importorskip("ir_measures")
    qrels, run = generated(seed)
    names = ["nDCG@5", "nDCG", "AP@5", "AP", "P@5", "R@5", "RR", "RR@5", "Success@5"]
    parsed = [ir_measures.parse_measure(n) for n in names]
    got: dict = {n: {} for n in names}
    for metric in ir_measures.iter_calc(parsed, qrels, run):
        got[str(metric.measure)][metric.query_id] = metric.value
    for name in names:
        assert_same(got[name], ours(qrels, run, name, "ir_measures"), f"ir_measures {name}")


@pytest.mark.parametrize("seed", SEEDS)
def test_ranx(seed):
    ranx = pytest.importorskip("ranx")
    qrels, run = generated(seed)
    names = [("nDCG@5", "ndcg@5"), ("nDCG", "ndcg"), ("AP@5", "map@5"), ("AP", "map"), ("P@5", "precision@5"),
             ("R@5", "recall@5"), ("RR@5", "mrr@5"), ("RR", "mrr"), ("Success@5", "hit_rate@5"), ("DCG", "dcg")]
    theirs = ranx.Run(run)
    ranx.evaluate(ranx.Qrels(qrels), theirs, [n for _, n in names], return_mean=False, make_comparable=True)
    for measure, name in names:
        expected = {q: float(v) for q, v in theirs.scores[name].items()}
        assert_same(expected, ours(qrels, run, measure, "ranx"), f"ranx {name}")


@pytest.mark.parametrize("seed", range(4))
def test_ranx_on_long_lists_with_ties(seed):
    """Lists of 16 to 120 documents with three score values: ranx's quicksort reorders the ties, and
    the ranx profile's tie order (rankviz.metrics.kernels.conventions.quicksort_order) follows it."""
    ranx = pytest.importorskip("ranx")
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for q in range(8):
        n = int(rng.integers(16, 121))
        docs = [f"d{i:03d}" for i in rng.permutation(200)[:n]]
        run[f"q{q}"] = {d: float(s) for d, s in zip(docs, rng.choice([0.25, 0.5, 0.75], n))}
        qrels[f"q{q}"] = {d: int(rng.integers(0, 4)) for d in docs if rng.random() < 0.4} or {docs[0]: 1}
    names = [("nDCG@10", "ndcg@10"), ("AP", "map"), ("RR", "mrr"), ("P@20", "precision@20")]
    theirs = ranx.Run(run)
    ranx.evaluate(ranx.Qrels(qrels), theirs, [n for _, n in names], return_mean=False, make_comparable=True)
    for measure, name in names:
        expected = {q: float(v) for q, v in theirs.scores[name].items()}
        assert_same(expected, ours(qrels, run, measure, "ranx"), f"ranx {name}")
    stable = {q: v for q, v in ours(qrels, run, "nDCG@10", "ranx").items()}
    as_given = rankviz.disagreement(*frames(qrels, run), "nDCG@10", a="ranx", b={"tool": "ranx", "ties": "input_order"})
    assert (as_given["conventions"] == ("ties",)).any(), "no list where the quicksort's order matters"
    assert dict(zip(as_given["query"], as_given["a"])) == pytest.approx(stable)


@pytest.mark.parametrize("seed", SEEDS)
def test_sklearn(seed):
    metrics = pytest.importorskip("sklearn.metrics")
    qrels, run = generated(seed)
    for measure, k, score in (("nDCG@5", 5, metrics.ndcg_score), ("nDCG", None, metrics.ndcg_score),
                              ("DCG", None, metrics.dcg_score)):
        expected = {}
        for q, docs in run.items():
            if q in qrels and len(docs) > 1:  # ndcg_score needs two documents
                y_true = [[qrels[q].get(d, 0) for d in docs]]
                expected[q] = score(y_true, [list(docs.values())], k=k)
        got = ours(qrels, run, measure, "sklearn")
        assert_same(expected, {q: v for q, v in got.items() if q in expected}, f"sklearn {measure}")
    expected = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # no positive: sklearn warns and gives 0
        for q, docs in run.items():
            if q in qrels:
                y_true = [int(qrels[q].get(d, 0) >= 1) for d in docs]
                expected[q] = float(metrics.average_precision_score(y_true, list(docs.values())))
    assert_same(expected, ours(qrels, run, "AP", "sklearn"), "sklearn average_precision_score")


@pytest.mark.parametrize("seed", SEEDS)
def test_trectools(seed):
    trectools = pytest.importorskip("trectools")
    qrels, run = generated(seed)
    tq = trectools.TrecQrel()
    tq.qrels_data = pd.DataFrame([(q, 0, d, g) for q, docs in qrels.items() for d, g in docs.items()],
                                 columns=["query", "q0", "docid", "rel"])
    tr = trectools.TrecRun()
    tr.run_data = pd.DataFrame([(q, "Q0", d, i + 1, s, "t") for q, docs in run.items()
                                for i, (d, s) in enumerate(docs.items())],
                               columns=["query", "q0", "docid", "rank", "score", "system"])
    te = trectools.TrecEval(tr, tq)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cases = [("nDCG@5", te.get_ndcg(depth=5, per_query=True)), ("AP@5", te.get_map(depth=5, per_query=True)),
                 ("AP", te.get_map(per_query=True)), ("P@5", te.get_precision(depth=5, per_query=True))]
    for measure, table in cases:
        column = table.iloc[:, 0]
        expected = {q: v for q, v in column.items() if q in qrels and not math.isnan(v)}
        assert_same(expected, ours(qrels, run, measure, "trectools"), f"trectools {measure}")


def test_every_checked_profile_has_a_differential_test():
    tested = {"trec_eval", "pytrec_eval", "ir_measures", "ranx", "sklearn", "trectools",
              "tensorflow_ranking",  # tests/test_tool_profiles_tf_ranking.py
              "torchmetrics",  # tests/test_tool_profiles_torch.py
              "spark",  # tests/test_tool_profiles_spark.py
              "recbole"}  # tests/test_tool_profiles_recbole.py
    assert {name for name, p in PROFILES.items() if p.checked} == tested


def test_a_measure_the_tool_lacks_is_refused_with_its_measures():
    qrels, run = generated(0)
    with pytest.raises(ValueError, match=r"scikit-learn has no P@5 \(its measures: nDCG@k, AP, DCG, AUC\)"):
        rankviz.evaluate(*frames(qrels, run), ["P@5"], as_tool="sklearn")
    with pytest.raises(ValueError, match="The tool must be one of 'trec_eval'"):
        rankviz.evaluate(*frames(qrels, run), ["P@5"], as_tool="trec-eval")
    with pytest.raises(ValueError, match=r"as_tool=\.\.\.\) takes no other options"):
        rankviz.evaluate(*frames(qrels, run), ["P@5"], as_tool="ranx", complete=True)


def test_per_query_false_keeps_the_rows_and_the_means():
    qrels, run = generated(3)
    full = rankviz.evaluate(*frames(qrels, run), ["AP", "nDCG@5"], as_tool="ranx")
    short = rankviz.evaluate(*frames(qrels, run), ["AP", "nDCG@5"], as_tool="ranx", per_query=False)
    assert list(short.per_query.index) == list(full.per_query.index) and short.per_query.columns.empty
    assert short.mean.to_dict() == full.mean.to_dict()


def test_the_mean_is_over_the_queries_the_tool_scores():
    qrels, run = generated(3)
    result = rankviz.evaluate(*frames(qrels, run), ["AP"], as_tool="ir_measures")
    assert result.mean["AP"] == pytest.approx(np.mean(list(ours(qrels, run, "AP", "ir_measures").values())))
    assert "q4" in result.per_query.index  # missing from the run: 0 for ir_measures
    assert "q4" not in rankviz.evaluate(*frames(qrels, run), ["AP"], as_tool="trec_eval").per_query.index


@pytest.mark.parametrize("seed", SEEDS)
def test_sklearn_label_ranking_ap_is_its_ap_with_one_for_no_relevant(seed):
    """label_ranking_average_precision_score, one query a sample: scikit-learn's AP profile (tie groups,
    R from the run) with a query without relevant documents scoring 1 (no_relevant="one")."""
    metrics = pytest.importorskip("sklearn.metrics")
    qrels, run = generated(seed)
    expected = {q: metrics.label_ranking_average_precision_score([[int(qrels[q].get(d, 0) >= 1) for d in docs]],
                                                                  [list(docs.values())])
                for q, docs in run.items() if q in qrels}
    table = rankviz.disagreement(*frames(qrels, run), "AP", a="sklearn", b={"tool": "sklearn", "no_relevant": "one"})
    got = dict(zip(table["query"], table["b"]))
    assert_same(expected, {q: v for q, v in got.items() if not math.isnan(v)}, "label_ranking_average_precision")
    assert set(c for named in table["conventions"] for c in named) <= {"no_relevant"}


@pytest.mark.parametrize("seed", SEEDS)
def test_ir_measures_accuracy(seed):
    """ir_measures' Accuracy (its accuracy provider): per query, since a query whose top k is all relevant
    makes ir_measures 0.4.3 raise ZeroDivisionError (rankviz gives 1.0 there, documented)."""
    ir_measures = pytest.importorskip("ir_measures")
    qrels, run = generated(seed)
    for name in ("Accuracy", "Accuracy@5"):
        got = ours(qrels, run, name, "ir_measures")
        expected = {}
        for q, docs in run.items():
            try:
                expected.update({m.query_id: m.value for m in ir_measures.iter_calc(
                    [ir_measures.parse_measure(name)], qrels, {q: docs})})
            except ZeroDivisionError:
                assert got.pop(q) == 1.0
        assert_same(expected, got, f"ir_measures {name}")


# --- hypothesis: any small run, not only the seeded ones ------------------------------------------

DOCS = [f"d{i}" for i in range(8)]


@st.composite
def small_collections(draw):
    qrels, run = {}, {}
    for q in ("q1", "q2", "q3"):
        judged = draw(st.dictionaries(st.sampled_from(DOCS), st.integers(0, 3), min_size=1, max_size=6))
        qrels[q] = judged
        docs = draw(st.lists(st.sampled_from(DOCS), unique=True, min_size=2, max_size=8))
        scores = draw(st.lists(st.sampled_from([0.1, 0.5, 1.0]), min_size=len(docs), max_size=len(docs)))
        if draw(st.booleans()) or q == "q1":
            run[q] = dict(sorted(zip(docs, scores), key=lambda pair: -pair[1]))
    return qrels, run


@settings(max_examples=60, deadline=None)
@given(small_collections())
def test_any_small_run_pytrec_eval_and_sklearn(collection):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    metrics = pytest.importorskip("sklearn.metrics")
    qrels, run = collection
    values = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.3", "map", "P.3", "recip_rank"}).evaluate(run)
    for measure, key in (("nDCG@3", "ndcg_cut_3"), ("AP", "map"), ("P@3", "P_3"), ("RR", "recip_rank")):
        assert_same({q: v[key] for q, v in values.items()}, ours(qrels, run, measure, "trec_eval"), measure)
    expected = {q: metrics.ndcg_score([[qrels[q].get(d, 0) for d in docs]], [list(docs.values())], k=3)
                for q, docs in run.items()}
    assert_same(expected, ours(qrels, run, "nDCG@3", "sklearn"), "sklearn nDCG@3")
