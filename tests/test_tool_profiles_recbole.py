"""Differential tests: ``evaluate(..., as_tool="recbole")`` equals RecBole 1.2.1's top-k metrics, user by user.

RecBole 1.2.1's NDCG, MAP and MRR use ``np.float`` (removed in NumPy 1.24), so it runs in an
environment of its own with numpy 1.23 (``.ci/run`` makes it:
``python -m venv /opt/rankviz-recbole && /opt/rankviz-recbole/bin/pip install torch==2.13.0
recbole==1.2.1 numpy==1.23.5``; ``RANKVIZ_RECBOLE_PYTHON`` chooses another) and
``tests/tool_runners/recbole_values.py`` runs there. Without it these tests skip with that
command, except under CI (``CI=true``), where they must run.

What RecBole is given, as its evaluator builds it: for each user (a judged query of the run with
at least one relevant document: RecBole evaluates only users with test positives), ``pos_index``,
whether each of the top k documents is relevant (grade >= 1), and ``pos_len``, how many relevant
documents the user has in the judgments, retrieved or not. The top k is the run's documents by
score; scores are made distinct, since RecBole takes them from ``torch.topk``, whose order of
ties torch does not specify.
"""

from __future__ import annotations

import pytest

import rankviz
from generated_runs import SEEDS, frames, generated
from tool_environments import run_tool, tool_python

TOPK = [1, 3, 5, 15]
NAMES = {"NDCG": "nDCG", "MAP": "AP", "MRR": "RR", "Hit": "Success", "Recall": "R", "Precision": "P"}


@pytest.fixture(scope="module")
def recbole_python() -> str:
    return tool_python("recbole.evaluator.metrics", "/opt/rankviz-recbole/bin/python", "RANKVIZ_RECBOLE_PYTHON",
                       "python -m venv /opt/rankviz-recbole && /opt/rankviz-recbole/bin/pip install "
                       "torch==2.13.0 recbole==1.2.1 numpy==1.23.5")


def distinct(run: dict) -> dict:
    """The run with its order kept and every score different (best first, as generated)."""
    return {q: {d: float(len(docs) - i) for i, d in enumerate(docs)} for q, docs in run.items()}


def test_every_top_k_metric_user_by_user(recbole_python):
    users, hits, positives = [], [], []
    for seed in SEEDS:
        qrels, run = generated(seed)
        for q, docs in distinct(run).items():
            relevant = sum(g >= 1 for g in qrels.get(q, {}).values())
            if relevant:
                ranked = sorted(docs, key=lambda d: -docs[d])
                row = [qrels[q].get(d, 0) >= 1 for d in ranked][: max(TOPK)]
                users.append((seed, q))
                hits.append(row + [False] * (max(TOPK) - len(row)))
                positives.append(relevant)
    theirs = run_tool(recbole_python, "recbole_values.py", {"hits": hits, "positives": positives, "topk": TOPK})
    for metric, family in NAMES.items():
        for k in TOPK:
            ours = {}
            for seed in SEEDS:
                qrels, run = generated(seed)
                column = rankviz.evaluate(*frames(qrels, distinct(run)), [f"{family}@{k}"], as_tool="recbole").per_query
                ours.update({(seed, q): v for q, v in column.iloc[:, 0].dropna().items()})
            assert sorted(ours) == sorted(users), f"{family}@{k}: rankviz scores other queries than RecBole's users"
            for user, value in zip(users, theirs[f"{metric}@{k}"]):
                assert ours[user] == pytest.approx(value, abs=1e-9), f"{metric}@{k} {user}: {ours[user]} != {value}"
