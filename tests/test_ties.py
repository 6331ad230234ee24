"""Tests of rankviz.evaluation.ties: closed forms against brute-force enumeration of every tie ordering,
trec_eval's order against rankviz.evaluate, hand-computed values, Monte Carlo, bad input.

The brute-force reference evaluates every ordering of the tied documents with rankviz.evaluate
itself (each ordering becomes its own query, with a copy of the judgments), so it shares no code
with the closed forms and uses exactly trec_eval's definitions.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from rankviz import metrics
from rankviz.evaluation.evaluator import evaluate
from rankviz.evaluation.ties import (TIE_RULES, compare_tie_rules, expected_relevance_by_rank, order_run,
                          orderings_side_by_side, tie_example)

EXACT_MEASURES = ["P@1", "P@3", "P@5", "R@2", "Rprec", "AP", "AP@3", "GMAP", "RR", "RR@2", "Success@1",
                  "Success@3", "nDCG", "nDCG@3", "nDCG(gain=exp)@4", "DCG"]


def _all_orderings(run: pd.DataFrame):
    """Every ordering of one query's documents that respects the scores (ties permuted)."""
    groups = [list(g["doc_id"]) for _, g in run.groupby("score", sort=True)][::-1]  # score descending
    for choice in itertools.product(*(itertools.permutations(g) for g in groups)):
        yield [doc for group in choice for doc in group]


def _brute_force_means(qrels: pd.DataFrame, run: pd.DataFrame, measures, **options) -> pd.Series:
    """The mean over all tie orderings of each measure, each ordering evaluated by rankviz.evaluate."""
    run_rows, qrels_rows = [], []
    for number, ordering in enumerate(_all_orderings(run)):
        query = f"perm{number:06d}"
        run_rows += [(query, doc, float(-rank)) for rank, doc in enumerate(ordering)]
        qrels_rows += [(query, doc, grade) for doc, grade in zip(qrels["doc_id"], qrels["relevance"])]
    all_runs = pd.DataFrame(run_rows, columns=["query_id", "doc_id", "score"])
    all_qrels = pd.DataFrame(qrels_rows, columns=["query_id", "doc_id", "relevance"])
    return evaluate(all_qrels, all_runs, measures, **options).per_query.mean()


def _random_query(rng: np.random.Generator):
    """A small query with ties, unjudged documents, a -1 grade and judged documents not retrieved."""
    n = int(rng.integers(1, 8))
    docs = [f"d{i}" for i in rng.permutation(12)[:n]]
    scores = rng.choice([1.0, 2.0, 3.0], size=n, p=[0.4, 0.4, 0.2])
    run = pd.DataFrame({"query_id": "q", "doc_id": docs, "score": scores})
    judged_docs = [d for d in docs if rng.random() < 0.8] + ["x1", "x2"][: int(rng.integers(0, 3))]
    grades = rng.choice([-1, 0, 0, 1, 2, 3], size=len(judged_docs))
    if not len(judged_docs):
        judged_docs, grades = ["x9"], np.array([1])
    qrels = pd.DataFrame({"query_id": "q", "doc_id": judged_docs, "relevance": grades.astype(np.int64)})
    return qrels, run


@pytest.mark.parametrize("seed", range(25))
def test_closed_forms_equal_the_mean_over_every_tie_ordering(seed):
    qrels, run = _random_query(np.random.default_rng(seed))
    result = compare_tie_rules(qrels, run, EXACT_MEASURES)
    assert set(result.method.values()) == {"exact"}
    averaged = result.per_query.set_index("measure")["tie-averaged"]
    expected = _brute_force_means(qrels, run, EXACT_MEASURES)
    for measure in EXACT_MEASURES:
        name = str(evaluate(qrels, run, [measure]).measures[0])
        assert averaged[name] == pytest.approx(expected[name], abs=1e-12), (measure, qrels, run)


@pytest.mark.parametrize("seed", range(8))
def test_closed_forms_with_another_relevance_threshold(seed):
    qrels, run = _random_query(np.random.default_rng(100 + seed))
    measures = ["P@3", "AP", "RR", "Success@2", "Rprec", "P(rel=3)@2"]
    result = compare_tie_rules(qrels, run, measures, rel_threshold=2)
    averaged = result.per_query.set_index("measure")["tie-averaged"]
    expected = _brute_force_means(qrels, run, measures, rel_threshold=2)
    for name in expected.index:
        assert averaged[name] == pytest.approx(expected[name], abs=1e-12), name


def test_closed_forms_on_a_large_tie_group():
    # 7 tied documents, 3 relevant, behind one non-relevant: 7! = 5040 orderings.
    docs = ["top"] + [f"t{i}" for i in range(7)]
    run = pd.DataFrame({"query_id": "q", "doc_id": docs, "score": [5.0] + [1.0] * 7})
    qrels = pd.DataFrame({"query_id": "q", "doc_id": ["top", "t1", "t3", "t6", "gone"],
                          "relevance": [0, 1, 2, 1, 3]})
    measures = ["P@4", "AP", "RR@3", "Success@2", "nDCG@5", "Rprec"]
    averaged = compare_tie_rules(qrels, run, measures).per_query.set_index("measure")["tie-averaged"]
    expected = _brute_force_means(qrels, run, measures)
    for name in expected.index:
        assert averaged[name] == pytest.approx(expected[name], abs=1e-12), name


def test_hand_computed_values():
    # d0 (relevant) scores 3; d1, d2, d3 tie at 2 and only d2 is relevant; R = 2.
    run = pd.DataFrame({"query_id": "q", "doc_id": ["d0", "d1", "d2", "d3"], "score": [3.0, 2.0, 2.0, 2.0]})
    qrels = pd.DataFrame({"query_id": "q", "doc_id": ["d0", "d2"], "relevance": [1, 1]})
    table = compare_tie_rules(qrels, run, ["AP", "P@2", "RR", "Success@1"]).per_query.set_index("measure")
    # d2 lands at rank 2, 3 or 4 with chance 1/3 each: AP = mean of (1/1 + 2/k) / 2 over k = 2, 3, 4.
    assert table.loc["AP", "tie-averaged"] == pytest.approx(((1 + 2 / 2) / 2 + (1 + 2 / 3) / 2 + (1 + 2 / 4) / 2) / 3)
    # trec_eval: docno descending within the tie -> d0, d3, d2, d1: AP = (1/1 + 2/3) / 2.
    assert table.loc["AP", "trec_eval"] == pytest.approx((1 + 2 / 3) / 2)
    # input order: d0, d1, d2, d3 -> the same ranks, AP = (1/1 + 2/3) / 2.
    assert table.loc["AP", "input order"] == pytest.approx((1 + 2 / 3) / 2)
    # P@2: rank 2 holds d2 with chance 1/3: (1 + 1/3) / 2.
    assert table.loc["P@2", "tie-averaged"] == pytest.approx((1 + 1 / 3) / 2)
    assert table.loc["RR", "tie-averaged"] == 1.0
    assert table.loc["Success@1", "tie-averaged"] == 1.0


def test_tie_averaged_dcg_by_hand_with_negative_and_unjudged_grades():
    # a (grade -1), b (unjudged) and c (grade 2) tie: gains 0, 0, 2, so every rank expects 2/3.
    run = pd.DataFrame({"query_id": "q", "doc_id": ["a", "b", "c"], "score": [1.0] * 3})
    qrels = pd.DataFrame({"query_id": "q", "doc_id": ["a", "c", "gone"], "relevance": [-1, 2, 1]})
    table = compare_tie_rules(qrels, run, ["DCG", "nDCG", "nDCG@1", "nDCG(gain=exp)@2"]).per_query
    averaged = table.set_index("measure")["tie-averaged"]
    expected_dcg = 2 / 3 * (1 + 1 / np.log2(3) + 1 / 2)
    assert averaged["DCG"] == pytest.approx(expected_dcg)
    # The ideal ranking holds the judged gains 2 and 1 (the unretrieved "gone"): 2 + 1/log2(3).
    assert averaged["nDCG"] == pytest.approx(expected_dcg / (2 + 1 / np.log2(3)))
    assert averaged["nDCG@1"] == pytest.approx((2 / 3) / 2)
    # Exponential gain 2^2 - 1 = 3: each rank expects 1; ideal@2 = 3 + 1/log2(3).
    assert averaged["nDCG(gain=exponential)@2"] == pytest.approx((1 + 1 / np.log2(3)) / (3 + 1 / np.log2(3)))


def test_tie_averaged_ndcg_is_zero_without_a_positive_judgment():
    run = pd.DataFrame({"query_id": "q", "doc_id": ["a", "b"], "score": [1.0, 1.0]})
    qrels = pd.DataFrame({"query_id": "q", "doc_id": ["a", "b"], "relevance": [0, -1]})
    averaged = compare_tie_rules(qrels, run, ["nDCG", "nDCG@1"]).per_query.set_index("measure")["tie-averaged"]
    assert averaged.tolist() == [0.0, 0.0]


def test_reciprocal_rank_of_a_tied_top():
    # 4 documents tie, 2 relevant: first relevant at place j with chance C(4-j, 1)/C(4, 2) = 3/6, 2/6, 1/6.
    run = pd.DataFrame({"query_id": "q", "doc_id": ["a", "b", "c", "d"], "score": [1.0] * 4})
    qrels = pd.DataFrame({"query_id": "q", "doc_id": ["b", "c"], "relevance": [1, 1]})
    table = compare_tie_rules(qrels, run, ["RR", "Success@1"]).per_query.set_index("measure")
    assert table.loc["RR", "tie-averaged"] == pytest.approx(3 / 6 * 1 / 1 + 2 / 6 * 1 / 2 + 1 / 6 * 1 / 3)
    # Success@1 = 1 - C(2, 1) / C(4, 1) = 1/2.
    assert table.loc["Success@1", "tie-averaged"] == pytest.approx(1 - 2 / 4)
    # trec_eval: d, c, b, a -> first relevant (c) at rank 2; input order: a, b -> rank 2.
    assert table.loc["RR", "trec_eval"] == 0.5 and table.loc["RR", "input order"] == 0.5


def test_no_ties_means_every_rule_agrees():
    run = pd.DataFrame({"query_id": ["q1"] * 3 + ["q2"] * 2, "doc_id": ["a", "b", "c", "a", "z"],
                        "score": [3.0, 2.0, 1.0, 9.0, 8.0]})
    qrels = pd.DataFrame({"query_id": ["q1", "q1", "q2"], "doc_id": ["b", "c", "z"], "relevance": [1, 2, 1]})
    result = compare_tie_rules(qrels, run, EXACT_MEASURES)
    rules = result.per_query[list(TIE_RULES)].to_numpy()
    np.testing.assert_allclose(rules, rules[:, [0, 0, 0]], atol=1e-12)
    assert (result.mean["queries that differ"] == 0).all()
    assert result.ties["tied documents"].tolist() == [0, 0]


def _generated_collection(seed: int, queries: int = 15):
    rng = np.random.default_rng(seed)
    run_rows, qrels_rows = [], []
    for q in range(queries):
        query = f"{q:03d}"
        docs = [f"doc{d}" for d in rng.permutation(60)[: int(rng.integers(1, 30))]]
        scores = np.round(rng.normal(size=len(docs)), 1)  # one decimal: plenty of ties
        run_rows += [(query, d, s) for d, s in zip(docs, scores)]
        qrels_rows += [(query, d, int(g)) for d, g in zip(rng.permutation(60)[:20].astype(str), rng.integers(-1, 4, 20))]
    run = pd.DataFrame(run_rows, columns=["query_id", "doc_id", "score"])
    qrels = pd.DataFrame(qrels_rows, columns=["query_id", "doc_id", "relevance"])
    qrels["doc_id"] = "doc" + qrels["doc_id"]
    qrels = qrels.drop_duplicates(["query_id", "doc_id"])
    return qrels, run


def test_trec_eval_column_and_order_equal_rankviz_evaluate():
    qrels, run = _generated_collection(7)
    result = compare_tie_rules(qrels, run, ["AP", "P@5", "nDCG@10"])
    reference = evaluate(qrels, run, ["AP", "P@5", "nDCG@10"]).per_query
    for name, part in result.per_query.groupby("measure"):
        np.testing.assert_array_equal(part.set_index("query_id")["trec_eval"].to_numpy(),
                                      reference.loc[part["query_id"], name].to_numpy())
    # order_run's trec_eval ranking, scored per query with rankviz.metrics, gives evaluate's AP.
    ranked = order_run(run, "trec_eval")
    grades = qrels.set_index(["query_id", "doc_id"])["relevance"]
    for query, ranking in ranked.groupby("query_id"):
        rels = [max(int(grades.get((query, d), 0)), 0) for d in ranking["doc_id"]]
        n_relevant = int((qrels[qrels.query_id == query]["relevance"] >= 1).sum())
        if query in reference.index:
            assert metrics.average_precision(rels, n_relevant=n_relevant) == pytest.approx(reference.loc[query, "AP"])


def test_order_run_rules():
    run = pd.DataFrame({"query_id": ["q2", "q1", "q1", "q1", "q1"], "doc_id": ["z", "b", "c", "a", "d"],
                        "score": [1.0, 2.0, 2.0, 2.0, 5.0]})
    trec = order_run(run, "trec_eval")
    assert trec["doc_id"].tolist() == ["d", "c", "b", "a", "z"]  # q1 first; ties by docno descending
    assert trec["rank"].tolist() == [1, 2, 3, 4, 1]
    assert order_run(run, "input order")["doc_id"].tolist() == ["d", "b", "c", "a", "z"]
    assert run["doc_id"].tolist() == ["z", "b", "c", "a", "d"]  # input untouched
    with pytest.raises(ValueError, match="'rule' parameter of order_run must be 'trec_eval' or 'input order'"):
        order_run(run, "random")


def test_input_order_column_equals_evaluating_the_stable_sort():
    qrels, run = _generated_collection(3)
    result = compare_tie_rules(qrels, run, ["AP"])
    ranked = order_run(run, "input order")
    strict = ranked.assign(score=-ranked["rank"].astype(float))[["query_id", "doc_id", "score"]]
    expected = evaluate(qrels, strict, ["AP"]).per_query["AP"]
    np.testing.assert_array_equal(result.per_query.set_index("query_id")["input order"].to_numpy(),
                                  expected.loc[result.per_query["query_id"]].to_numpy())


def test_monte_carlo_is_seeded_and_close_to_the_brute_force_mean():
    run = pd.DataFrame({"query_id": "q", "doc_id": ["a", "b", "c", "d", "e"], "score": [2.0, 1.0, 1.0, 1.0, 1.0]})
    qrels = pd.DataFrame({"query_id": "q", "doc_id": ["a", "c", "e"], "relevance": [0, 3, 1]})
    first = compare_tie_rules(qrels, run, ["ERR@3", "Bpref"], samples=400, seed=5)
    again = compare_tie_rules(qrels, run, ["ERR@3", "Bpref"], samples=400, seed=5)
    pd.testing.assert_frame_equal(first.per_query, again.per_query)
    assert first.method["ERR@3"] == "Monte Carlo, 400 samples (seed 5)"
    expected = _brute_force_means(qrels, run, ["ERR@3", "Bpref"])
    averaged = first.per_query.set_index("measure")["tie-averaged"]
    # Each value lies in [0, 1]: the standard error of a 400-sample mean is at most 0.5/20 = 0.025.
    assert averaged["ERR@3"] == pytest.approx(expected["ERR@3"], abs=0.08)
    assert averaged["Bpref"] == pytest.approx(expected["Bpref"], abs=0.08)


def test_order_free_measures_are_the_same_under_every_rule():
    qrels, run = _generated_collection(11)
    result = compare_tie_rules(qrels, run, ["NumRet", "NumRelRet", "SetP"])
    assert set(result.method.values()) == {"order-free"}
    assert (result.per_query["input order - trec_eval"] == 0).all()
    assert (result.per_query["tie-averaged - trec_eval"] == 0).all()


def test_means_aggregate_like_evaluate():
    qrels, run = _generated_collection(5)
    result = compare_tie_rules(qrels, run, ["AP", "GMAP", "NumRet"])
    reference = evaluate(qrels, run, ["AP", "GMAP", "NumRet"]).mean
    for name in ("AP", "GMAP", "NumRet"):
        assert result.mean.loc[name, "trec_eval"] == pytest.approx(reference[name])
    part = result.per_query[result.per_query.measure == "AP"]
    assert result.mean.loc["AP", "tie-averaged"] == pytest.approx(part["tie-averaged"].mean())
    assert result.mean.loc["AP", "queries that differ"] == int(
        ((part[list(TIE_RULES)].max(axis=1) - part[list(TIE_RULES)].min(axis=1)) > 1e-12).sum())


def test_complete_counts_queries_missing_from_the_run():
    run = pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["a", "b"], "score": [1.0, 1.0]})
    qrels = pd.DataFrame({"query_id": ["q1", "q2"], "doc_id": ["a", "x"], "relevance": [1, 1]})
    result = compare_tie_rules(qrels, run, ["AP"], complete=True)
    assert result.per_query["query_id"].tolist() == ["q1", "q2"]
    assert result.per_query.set_index("query_id").loc["q2", list(TIE_RULES)].tolist() == [0.0, 0.0, 0.0]
    assert result.per_query.set_index("query_id").loc["q1", "tie-averaged"] == pytest.approx((1 + 1 / 2) / 2)


def test_tie_summary_counts_tied_documents_and_groups():
    run = pd.DataFrame({"query_id": ["q"] * 6, "doc_id": list("abcdef"), "score": [3, 2, 2, 1, 1, 1.0]})
    qrels = pd.DataFrame({"query_id": ["q"], "doc_id": ["a"], "relevance": [1]})
    ties = compare_tie_rules(qrels, run, ["AP"]).ties
    assert ties.loc["q"].tolist() == [6, 5, 2]  # retrieved, tied documents (2 + 3), tie groups


def test_tie_example_and_orderings_side_by_side():
    table = tie_example(["d1", "d2", "d3"], [1.0, 1.0, 2.0], [1, 0, 2], ["P@2", "NumRet"])
    # trec_eval: d3, d2, d1 -> P@2 = 1/2; input order: d3, d1, d2 -> 2/2; averaged (1 + 1/2) / 2.
    assert table.loc["P@2", list(TIE_RULES)].tolist() == [0.5, 1.0, 0.75]
    assert bool(table.loc["P@2", "rules disagree"]) and not bool(table.loc["NumRet", "rules disagree"])
    sides = orderings_side_by_side(["d1", "d2", "d3"], [1.0, 1.0, 2.0], [1, 0, 2])
    assert sides["trec_eval"].tolist() == ["d3 (2)", "d2 (0)", "d1 (1)"]
    assert sides["input order"].tolist() == ["d3 (2)", "d1 (1)", "d2 (0)"]
    assert sides["tie-averaged"].tolist() == ["d3 (2)", "d1 | d2 (mean grade 0.5)", "d1 | d2 (mean grade 0.5)"]


def test_expected_relevance_by_rank():
    table = expected_relevance_by_rank([1.0, 3.0, 1.0, 1.0], [2, 0, 0, 1])
    assert table["rank"].tolist() == [1, 2, 3, 4]
    assert table["tie group size"].tolist() == [1, 3, 3, 3]
    assert table["P(relevant)"].tolist() == pytest.approx([0, 2 / 3, 2 / 3, 2 / 3])
    assert table["expected grade"].tolist() == pytest.approx([0, 1, 1, 1])  # (2 + 0 + 1) / 3


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"samples": 0}, "'samples' parameter of compare_tie_rules must be an int in the range"),
    ({"samples": 2.5}, "'samples' parameter"),
    ({"seed": "x"}, "'seed' parameter of compare_tie_rules must be an int"),
])
def test_bad_parameters(kwargs, match):
    run = pd.DataFrame({"query_id": ["q"], "doc_id": ["a"], "score": [1.0]})
    qrels = pd.DataFrame({"query_id": ["q"], "doc_id": ["a"], "relevance": [1]})
    with pytest.raises(ValueError, match=match):
        compare_tie_rules(qrels, run, ["AP"], **kwargs)


@pytest.mark.parametrize(("args", "match"), [
    ((["a", "a"], [1.0, 2.0], [1, 0]), "document 'a' appears twice"),
    ((["a", "b"], [1.0, float("nan")], [1, 0]), "scores must be finite numbers; got nan at row 2"),
    ((["a", "b"], [1.0, 2.0], [1, 0.5]), "grades must be integers; got 0.5 at row 2"),
    ((["a"], [1.0, 2.0], [1, 0]), "must have the same length"),
    (([], [], []), "the ranking is empty"),
])
def test_bad_example_input(args, match):
    with pytest.raises(ValueError, match=match):
        tie_example(*args)


def test_bad_run_table():
    with pytest.raises(ValueError, match="must have columns query_id, doc_id and score"):
        order_run(pd.DataFrame({"query_id": ["q"], "doc": ["a"]}))


@pytest.mark.parametrize("relevant", ["a", "B", "é", "z", "Z1", "10", "9"])
def test_trec_eval_order_uses_byte_order_of_docnos_like_evaluate(relevant):
    # Upper case sorts before lower case and non-ASCII after both, in strcmp's byte order.
    docs = ["a", "B", "é", "z", "Z1", "10", "9"]
    run = pd.DataFrame({"query_id": "q", "doc_id": docs, "score": 1.0})
    qrels = pd.DataFrame({"query_id": ["q"], "doc_id": [relevant], "relevance": [1]})
    ranked = order_run(run, "trec_eval")
    assert ranked["doc_id"].tolist() == sorted(docs, key=lambda d: d.encode(), reverse=True)
    rank = ranked["doc_id"].tolist().index(relevant) + 1
    assert evaluate(qrels, run, ["RR"]).per_query.loc["q", "RR"] == 1 / rank
