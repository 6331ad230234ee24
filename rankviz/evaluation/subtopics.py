"""Subtopic qrels matched to a run: the input of the diversity kernels (``qrels_format="subtopics"``).

:func:`prepare_subtopics` ranks each topic's run lines as ndeval's ``-traditional`` option
(and trec_eval) do: score descending, ties broken by docno descending (byte order); ndeval
without that option orders by the run's rank column, which rankviz never reads. The topics
evaluated are those of the qrels that the run retrieves something for (all of the qrels'
with ``complete``, as ndeval's ``-c``). Each topic's judged documents form the pool of its
ideal ranking, in docno-descending order, so that equal gains go to the greatest docno as in
ndeval's greedy ideal ranking. Everything is done with pandas/numpy over all topics at once.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from rankviz.evaluation.ranking import evaluated_queries, trec_eval_order
from rankviz.metrics.kernels.diversity import DiversityContext, SubtopicLists

__all__ = ["prepare_subtopics"]

_NUMBER = re.compile(r"[+-]?[0-9]+\Z")


def _subtopic_order(labels: pd.Series) -> pd.Series:
    """A sort key numbering subtopics as ndeval does (by number), text after numbers."""
    text = labels.astype(str)
    numeric = text.str.fullmatch(_NUMBER.pattern)
    value = pd.to_numeric(text.where(numeric), errors="coerce")
    return pd.Series(list(zip(~numeric, value.fillna(0), text.where(~numeric, ""))), index=labels.index)


def prepare_subtopics(qrels: pd.DataFrame, run: pd.DataFrame, *, depth: int | None = None, complete: bool = False,
                      judged_only: bool = False, rel_threshold: float = 1) -> tuple[DiversityContext, np.ndarray]:
    """The diversity kernels' context for the topics to evaluate, and their ids (sorted as strings).

    Parameters
    ----------
    qrels : DataFrame
        ``query_id, subtopic, doc_id, relevance`` (:func:`rankviz.trec.subtopics.read_subtopic_qrels`).
    run : DataFrame
        ``query_id, doc_id, score``.
    depth : int or None
        ndeval's and trec_eval's ``-M``: only the top ``depth`` documents of each topic count.
    complete : bool
        ndeval's ``-c``: topics of the qrels the run has no line for are evaluated as empty
        rankings (0); otherwise they are left out.
    judged_only : bool
        trec_eval's ``-J``: documents the qrels do not judge are dropped before ranking.
    rel_threshold : float
        A subtopic judgment at least this makes the document relevant to the subtopic.

    Returns
    -------
    (DiversityContext, ndarray of str)

    Examples
    --------
    >>> qrels = pd.DataFrame({"query_id": ["1", "1"], "subtopic": ["1", "2"], "doc_id": ["d1", "d2"],
    ...                       "relevance": [1, 1]})
    >>> run = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["d1", "d2"], "score": [1.0, 1.0]})
    >>> context, topics = prepare_subtopics(qrels, run)
    >>> topics.tolist(), context.lists.hit_row.tolist()   # the tie: d2 (greater docno) first
    (['1'], [0, 1])
    """
    evaluated, position = evaluated_queries(qrels["query_id"], run["query_id"], complete=complete,
                                            judgments="subtopic judgments", unit="topic")
    judgments = pd.DataFrame({
        "query": qrels["query_id"].map(position),
        "subtopic": qrels["subtopic"].astype(str).to_numpy(dtype=object),
        "doc_id": qrels["doc_id"].astype(str).to_numpy(dtype=object),
        "grade": qrels["relevance"].to_numpy(dtype=np.float64),
    }).dropna(subset=["query"])
    judgments["query"] = judgments["query"].astype(np.int64)

    # Subtopics numbered over all topics, each topic's in ndeval's order.
    subtopics = judgments[["query", "subtopic"]].drop_duplicates()
    subtopics = subtopics.assign(order=_subtopic_order(subtopics["subtopic"]))
    subtopics = subtopics.sort_values(["query", "order"], kind="stable").reset_index(drop=True)
    subtopics["number"] = np.arange(len(subtopics), dtype=np.int64)
    judgments = judgments.merge(subtopics[["query", "subtopic", "number"]], on=["query", "subtopic"])

    # The pool: each judged document once, grouped by topic, greatest docno first.
    pool = judgments[["query", "doc_id"]].drop_duplicates()
    pool = pool.sort_values(["query", "doc_id"], ascending=[True, False], kind="stable").reset_index(drop=True)
    pool["doc"] = np.arange(len(pool), dtype=np.int64)
    judgments = judgments.merge(pool, on=["query", "doc_id"]).sort_values(["doc", "number"], kind="stable")

    # The run, ranked: score descending, then docno descending.
    ranked = pd.DataFrame({"query": run["query_id"].map(position), "doc_id": run["doc_id"].astype(str).to_numpy(
        dtype=object), "score": run["score"].to_numpy(dtype=np.float64)}).dropna(subset=["query"])
    ranked["query"] = ranked["query"].astype(np.int64)
    twice = ranked.duplicated(["query", "doc_id"])
    if twice.any():
        row = ranked[twice].iloc[0]
        raise ValueError(f"run: doc {row['doc_id']!r} is retrieved twice for topic {evaluated[row['query']]!r}; "
                         "each docno may appear once per topic (ndeval stops too).")
    ranked = ranked.take(trec_eval_order(ranked["query"].to_numpy(), ranked["score"].to_numpy(),
                                         ranked["doc_id"])).reset_index(drop=True)
    ranked["row"] = np.arange(len(ranked), dtype=np.int64)
    row_hits = ranked[["query", "doc_id", "row"]].merge(judgments[["query", "doc_id", "number", "grade"]],
                                                        on=["query", "doc_id"]).sort_values(["row", "number"],
                                                                                            kind="stable")
    judged_rows = np.zeros(len(ranked), dtype=bool)
    judged_rows[row_hits["row"].to_numpy(dtype=np.int64)] = True

    lists = SubtopicLists(
        n_queries=len(evaluated),
        row_query=ranked["query"].to_numpy(dtype=np.int64),
        row_judged=judged_rows,
        hit_row=row_hits["row"].to_numpy(dtype=np.int64),
        hit_subtopic=row_hits["number"].to_numpy(dtype=np.int64),
        hit_grade=row_hits["grade"].to_numpy(dtype=np.float64),
        pool_query=pool["query"].to_numpy(dtype=np.int64),
        pool_doc=judgments["doc"].to_numpy(dtype=np.int64),
        pool_subtopic=judgments["number"].to_numpy(dtype=np.int64),
        pool_grade=judgments["grade"].to_numpy(dtype=np.float64),
        subtopic_query=subtopics["query"].to_numpy(dtype=np.int64),
        depth=depth,
        judged_only=judged_only,
        subtopic_labels=tuple(subtopics["subtopic"]),
        pool_labels=tuple(pool["doc_id"]),
    )
    return DiversityContext(lists, rel_threshold=rel_threshold), np.array(evaluated, dtype=object)
