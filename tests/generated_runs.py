"""Generated qrels and runs for the tool-profile and disagreement tests (a helper, not a test file)."""

from __future__ import annotations

import random

import pandas as pd

SEEDS = range(12)


def generated(seed: int, all_judged_retrieved: bool = False):
    """(qrels dict, run dict): 6 judged queries (one with no relevant document, one missing from the run) and
    one run query without judgments; scores from 4 values, so ties are frequent. ``all_judged_retrieved``: every
    judged document is in the run and every query has a relevant one (what differs then is the tie order). One
    score value is 0 and one negative, as in runs of log-probabilities: torchmetrics' AP, P, R and RR count no
    hit at a score of 0 or below (the ``nonpositive_scores`` convention); the others only rank by score."""
    rng = random.Random(seed)
    qrels, run = {}, {}
    for q in range(6):
        qid = f"q{q}"
        docs = [f"d{i:02d}" for i in rng.sample(range(20), 12)]
        n = rng.randint(1, 12)
        pool = docs[:n] if all_judged_retrieved else docs + [f"u{i}" for i in range(4)]  # u*: never retrieved
        judged = rng.sample(pool, rng.randint(1, min(8, len(pool))))
        qrels[qid] = {d: (0 if q == 1 and not all_judged_retrieved else rng.choice([0, 0, 1, 2, 3])) for d in judged}
        if all_judged_retrieved:
            qrels[qid][judged[0]] = rng.choice([1, 2, 3])
        elif q == 4:
            continue  # judged, missing from the run
        scored = [(d, rng.choice([-0.5, 0.0, 0.5, 0.9])) for d in docs[:n]]
        scored.sort(key=lambda pair: -pair[1])  # best first, ties in the random order of docs
        run[qid] = dict(scored)
    if not all_judged_retrieved:
        run["q9"] = {"d01": 1.0, "d02": 0.5}  # no judgments: every tool ignores it
    return qrels, run


def frames(qrels, run):
    q = pd.DataFrame([(qid, d, g) for qid, docs in qrels.items() for d, g in docs.items()],
                     columns=["query_id", "doc_id", "relevance"])
    r = pd.DataFrame([(qid, d, s) for qid, docs in run.items() for d, s in docs.items()],
                     columns=["query_id", "doc_id", "score"])
    return q, r


