"""Generate the sample test collection in ``sample/`` (run once; seeded, so re-running rewrites
identical files).

    python -m rankviz.data.make_sample

The collection imitates a small ad-hoc TREC task: 20 queries (ids 401-420), for each a pool of
120 candidate documents of which a few are relevant (grades 1-3), judged to a depth that
leaves some retrieved documents unjudged, as real pools do. Three runs retrieve 50 documents
per query:

* ``bm25``: a lexical baseline, scores with 4 decimals (almost no ties);
* ``dense``: a better system (relevance weighs more in its scores);
* ``bm25_rounded``: bm25's scores rounded to one decimal, so tied scores are common, the case
  where trec_eval, input order and tie-averaged evaluation disagree.

Two queries are hard on purpose: 407 has a single relevant document that bm25 misses, and 415
has no relevant document at all (every measure is 0, trec_eval's policy).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

SEED = 20261121
QUERIES = [str(q) for q in range(401, 421)]
POOL = 120
RETRIEVED = 50
OUT = Path(__file__).resolve().parent / "sample"


def _grades(rng: np.random.Generator, query: str) -> np.ndarray:
    grades = rng.choice([0, 1, 2, 3], size=POOL, p=[0.86, 0.07, 0.045, 0.025])
    if query == "407":
        grades[:] = 0
        grades[rng.integers(POOL)] = 2
    if query == "415":
        grades[:] = 0
    return grades


def _scores(rng, grades, weight, noise, decimals):
    raw = 8.0 + weight * grades + rng.normal(0.0, noise, size=grades.size)
    return np.round(raw, decimals)


def _run_lines(query, docs, scores, tag):
    order = np.lexsort((docs, -scores))[:RETRIEVED]  # file order: score descending, then docno
    return [f"{query} Q0 {docs[i]} {rank} {scores[i]:.4f} {tag}\n" for rank, i in enumerate(order, start=1)]


def main() -> None:
    rng = np.random.default_rng(SEED)
    qrels, runs = [], {"bm25": [], "dense": [], "bm25_rounded": []}
    for query in QUERIES:
        docs = np.array([f"doc{query}-{i:03d}" for i in range(POOL)])
        grades = _grades(rng, query)
        bm25 = _scores(rng, grades, weight=0.9, noise=1.2, decimals=4)
        if query == "407":  # bm25 buries the one relevant document
            bm25[grades > 0] = 1.0
        dense = _scores(rng, grades, weight=1.6, noise=1.0, decimals=4)
        # Judged: every relevant document, and a pool of the top documents of both runs.
        pooled = set(np.argsort(-bm25)[:30]) | set(np.argsort(-dense)[:30]) | set(np.flatnonzero(grades > 0))
        qrels += [f"{query} 0 {docs[i]} {grades[i]}\n" for i in sorted(pooled)]
        runs["bm25"] += _run_lines(query, docs, bm25, "bm25")
        runs["dense"] += _run_lines(query, docs, dense, "dense")
        runs["bm25_rounded"] += _run_lines(query, docs, np.round(bm25, 1), "bm25_rounded")
    OUT.mkdir(exist_ok=True)
    (OUT / "qrels.txt").write_text("".join(qrels))
    for name, lines in runs.items():
        (OUT / f"{name}.run").write_text("".join(lines))


if __name__ == "__main__":
    main()
