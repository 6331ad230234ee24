"""rankviz's tool profiles against the tools themselves: the same run, the same measure, per query.

    python benchmarks/tool_profiles.py --queries 5000 --docs 100

``evaluate(qrels, run, [measure], as_tool=TOOL)`` reproduces a tool's numbers by running its
conventions (tie order, ideal ranking, ...) through rankviz's kernels, one query at a time over
numpy slices. This prints, for each tool that is installed, the tool's own time on the same data
(already in its own structures: dicts for pytrec_eval and ranx, arrays per query for
scikit-learn), rankviz's time with ``as_tool``, their ratio, the largest difference between the
two per query (the queries where they differ by more than 1e-9: none expected), and the time of ``rankviz.disagreement`` between the tool and
trec_eval. Generated data: 20 score values so ties are frequent, grades 0..3 on 30% of the
documents plus 5 judged documents per query that the run misses.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

import rankviz


def generated(queries: int, docs: int, seed: int):
    rng = np.random.default_rng(seed)
    q = np.repeat([f"q{i}" for i in range(queries)], docs)
    d = np.tile([f"d{j:04d}" for j in range(docs)], queries)
    run = pd.DataFrame({"query_id": q, "doc_id": d, "score": rng.integers(0, 20, len(q)).astype(float) / 10})
    judged = rng.random(len(q)) < 0.3
    missed = pd.DataFrame({"query_id": np.repeat([f"q{i}" for i in range(queries)], 5),
                           "doc_id": np.tile([f"u{j}" for j in range(5)], queries),
                           "relevance": rng.integers(0, 4, queries * 5)})
    qrels = pd.concat([pd.DataFrame({"query_id": q[judged], "doc_id": d[judged],
                                     "relevance": rng.integers(0, 4, judged.sum())}), missed], ignore_index=True)
    return qrels, run


def as_dicts(qrels, run):
    qd, rd = {}, {}
    for qid, doc, rel in qrels.itertuples(index=False):
        qd.setdefault(qid, {})[doc] = int(rel)
    for qid, doc, score in run.itertuples(index=False):
        rd.setdefault(qid, {})[doc] = float(score)
    return qd, rd


def timed(function):
    start = time.perf_counter()
    value = function()
    return time.perf_counter() - start, value


def pytrec_eval_values(qd, rd):
    import pytrec_eval

    values = pytrec_eval.RelevanceEvaluator(qd, {"ndcg_cut.10"}).evaluate(rd)
    return {q: v["ndcg_cut_10"] for q, v in values.items()}


def ranx_values(qd, rd):
    import ranx

    theirs = ranx.Run(rd)
    ranx.evaluate(ranx.Qrels(qd), theirs, "ndcg@10", return_mean=False, make_comparable=True)
    return {q: float(v) for q, v in theirs.scores["ndcg@10"].items()}


def sklearn_values(qd, rd):
    from sklearn.metrics import ndcg_score

    return {q: ndcg_score([[qd.get(q, {}).get(d, 0) for d in docs]], [list(docs.values())], k=10)
            for q, docs in rd.items() if q in qd}


PEERS = {"pytrec_eval": pytrec_eval_values, "ranx": ranx_values, "sklearn": sklearn_values}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=5000)
    parser.add_argument("--docs", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    qrels, run = generated(args.queries, args.docs, args.seed)
    qd, rd = as_dicts(qrels, run)
    print(f"{len(run):,} run lines, {len(qrels):,} judgments, {args.queries:,} queries; measure nDCG@10\n")
    print("| tool | tool s | rankviz as_tool s | rankviz vs tool | queries that differ | disagreement with trec_eval s |")
    print("|---|---:|---:|---:|---:|---:|")
    for tool, peer in PEERS.items():
        try:
            if tool == "ranx":
                peer(*as_dicts(qrels.head(50), run.head(50)))  # numba compiles on the first call: not timed
            tool_s, theirs = timed(lambda: peer(qd, rd))
        except ImportError:
            print(f"| {tool} | not installed | | | | |")
            continue
        ours_s, result = timed(lambda: rankviz.evaluate(qrels, run, ["nDCG@10"], as_tool=tool))
        ours = result.per_query["nDCG@10"].dropna().to_dict()
        differ = sum(abs(ours[q] - theirs[q]) > 1e-9 for q in theirs)
        why_s, _ = timed(lambda: rankviz.disagreement(qrels, run, "nDCG@10", a="trec_eval", b=tool))
        print(f"| {tool} | {tool_s:.2f} | {ours_s:.2f} | {ours_s / tool_s:.2f}x | {differ:,} of {len(theirs):,} | {why_s:.2f} |")


if __name__ == "__main__":
    main()
