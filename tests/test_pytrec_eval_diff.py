"""Differential test against pytrec_eval (dev-only dependency; it wraps trec_eval 9.x's C code).

Random runs with score ties, unjudged documents, grades -1..3 and queries missing on either
side are evaluated by both; every per-query value of every measure both support must agree
to 1e-9. rankviz runs with ``trec_eval_version="9"``, the interpolated-precision rounding
pytrec_eval uses (the only difference between the two trec_eval versions in these measures).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from rankviz.evaluation.evaluator import evaluate
from rankviz.evaluation.measures import parse_measures

# Every trec_eval family both implement (pytrec_eval.supported_measures minus runid/relstring,
# which are strings), with the cutoffs/parameters given explicitly so both compute the same.
TREC_SPECS = [
    "num_q", "num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret", "map", "gm_map", "Rprec", "bpref",
    "gm_bpref", "recip_rank", "iprec_at_recall", "P", "recall", "infAP", "Rprec_mult", "utility", "11pt_avg",
    "binG", "G", "ndcg", "ndcg_rel", "Rndcg", "ndcg_cut", "map_cut", "relative_P", "success", "set_P",
    "set_relative_P", "set_recall", "set_map", "set_F",
]
GEOMETRIC = {"gm_map", "gm_bpref"}  # trec_eval's per-query value is log(max(x, 1e-5))


def random_collection(seed: int, n_queries: int = 60):
    rng = np.random.default_rng(seed)
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in range(n_queries):
        qid = f"{q}"  # numeric ids: string order differs from numeric order
        docs = [f"doc-{i:03d}" for i in rng.permutation(80)]
        n_judged = int(rng.integers(1, 50))
        grades = rng.choice([-1, 0, 0, 0, 1, 1, 2, 3], size=n_judged)
        if q % 9 == 4:
            grades = np.minimum(grades, 0)  # a query without relevant documents
        if q % 6 != 1:  # q % 6 == 1: run only
            qrels[qid] = {d: int(g) for d, g in zip(docs[:n_judged], grades)}
        if q % 8 != 2:  # q % 8 == 2: qrels only
            n_ret = int(rng.integers(1, 70))
            picked = rng.choice(docs, size=n_ret, replace=False)
            scores = np.round(rng.normal(size=n_ret), 1)  # one decimal: many ties
            run[qid] = {d: float(s) for d, s in zip(picked, scores)}
    return qrels, run


def as_frames(qrels, run):
    qrels_df = pd.DataFrame([(q, d, g) for q, docs in qrels.items() for d, g in docs.items()],
                            columns=["query_id", "doc_id", "relevance"])
    run_df = pd.DataFrame([(q, d, s) for q, docs in run.items() for d, s in docs.items()],
                          columns=["query_id", "doc_id", "score"])
    return qrels_df, run_df


@pytest.mark.parametrize(
    "seed, rel_threshold, judged_only", [(0, 1, False), (1, 1, False), (2, 1, False), (0, 2, False), (1, 2, False),
                                         (0, 1, True), (1, 2, True)],
)
def test_per_query_values_equal_pytrec_eval(pytrec_eval, seed, rel_threshold, judged_only):
    qrels, run = random_collection(seed)
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, set(TREC_SPECS), relevance_level=rel_threshold,
                                               judged_docs_only_flag=judged_only)
    expected = evaluator.evaluate(run)
    measures = parse_measures(TREC_SPECS)
    qrels_df, run_df = as_frames(qrels, run)
    result = evaluate(qrels_df, run_df, measures, rel_threshold=rel_threshold, judged_only=judged_only,
                      trec_eval_version="9")

    common = sorted(set(qrels) & set(run))
    assert sorted(expected) == common
    assert list(result.per_query.index) == sorted(common)
    compared = 0
    mismatches = []
    for measure in measures:
        name, column = measure.trec_name, str(measure)
        for qid in common:
            theirs = expected[qid][name]
            ours = float(result.per_query.at[qid, column])
            if measure.family.trec in GEOMETRIC:
                ours = math.log(max(ours, 1e-5))
            compared += 1
            if math.isnan(theirs) and ours == 0.0 and result.per_query.at[qid, "NumRet"] == 0:
                # Empty ranking (every retrieved document unjudged, with judged_only): trec_eval's
                # iprec/11pt compute 0/0. rankviz's policy is 0.0, what trec_eval 10 prints for
                # the empty rankings of -c (out.test.aqc, topic 302).
                continue
            if not math.isclose(ours, theirs, rel_tol=1e-9, abs_tol=1e-9):
                mismatches.append(f"{name} q{qid}: pytrec_eval {theirs!r}, rankviz {ours!r}")
    assert not mismatches, f"{len(mismatches)} of {compared} values differ:\n" + "\n".join(mismatches[:40])
    assert compared == len(measures) * len(common)


def test_every_shared_measure_is_compared(pytrec_eval):
    """The list above covers every numeric measure pytrec_eval supports."""
    assert set(pytrec_eval.supported_measures) - set(TREC_SPECS) == {"runid", "relstring"}


def _write_trec_files(directory, qrels_df: pd.DataFrame, run_df: pd.DataFrame):
    qrels_path, run_path = directory / "qrels.txt", directory / "run.txt"
    qrels_path.write_text("".join(f"{q} 0 {d} {g}\n" for q, d, g in qrels_df.itertuples(index=False)))
    run_path.write_text("".join(f"{q} Q0 {d} {i} {s!r} tag\n" for i, (q, d, s) in enumerate(run_df.itertuples(index=False))))
    return qrels_path, run_path


@pytest.mark.parametrize("row_order", ["best first", "as generated", "shuffled", "best first, from files"])
def test_values_do_not_depend_on_the_order_of_run_lines(pytrec_eval, tmp_path, row_order):
    """evaluate takes a shortcut when each query's lines come together, best score first (as
    run files usually are: rows then only move within score ties), and sorts otherwise; run-only
    queries sit between judged ones. Every way must give pytrec_eval's values."""
    from rankviz.evaluation.ranking import _in_order, prepare
    from rankviz.trec.readers import read_qrels, read_run

    qrels, run = random_collection(3)
    qrels_df, run_df = as_frames(qrels, run)
    if row_order.startswith("best first"):
        # Blocks in the generated query order (not string order), best score first in each.
        block = run_df["query_id"].map({q: i for i, q in enumerate(run)})
        run_df = run_df.assign(block=block).sort_values(["block", "score"], ascending=[True, False],
                                                         kind="stable").drop(columns="block")
    elif row_order == "shuffled":
        run_df = run_df.sample(frac=1.0, random_state=7)
    if row_order.endswith("from files"):
        qrels_path, run_path = _write_trec_files(tmp_path, qrels_df, run_df)
        qrels_df, run_df = read_qrels(qrels_path), read_run(run_path)

    ranking = prepare(qrels_df, run_df)
    universe = {q: i for i, q in enumerate(ranking.query_ids)}
    codes = run_df["query_id"].map(universe).to_numpy()
    took_shortcut = _in_order(codes, run_df["score"].to_numpy())
    assert took_shortcut == row_order.startswith("best first")
    assert set(ranking.query_ids[ranking.judged]) == set(qrels)
    assert ranking.row_query.size == len(run_df)

    measures = parse_measures(TREC_SPECS)
    result = evaluate(qrels_df, run_df, measures, trec_eval_version="9")
    expected = pytrec_eval.RelevanceEvaluator(qrels, set(TREC_SPECS)).evaluate(run)
    assert list(result.per_query.index) == sorted(expected)
    for measure in measures:
        theirs = np.array([expected[q][measure.trec_name] for q in sorted(expected)])
        ours = result.per_query[str(measure)].to_numpy(dtype=np.float64)
        if measure.family.trec in GEOMETRIC:
            ours = np.log(np.maximum(ours, 1e-5))
        np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-9, err_msg=measure.trec_name)
