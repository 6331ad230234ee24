"""Judgment-group qrels (``-R qrels_jg``) matched to a run: the input of the ``*_avgjg`` kernels.

:func:`prepare_judgment_groups` makes one ranked list per (query, judgment group): the query's run
lines, judged with that group's qrels, ranked by trec_eval's rule (score descending, docno
descending, within ``depth``) by :func:`rankviz.evaluation.ranking.prepare`, as trec_eval's
``form_res_rels_jg.c`` ranks them. The run is repeated once per group of each query (a few
groups: the cost is a few copies of the run's columns, no Python loop).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rankviz.evaluation.ranking import evaluated_queries, prepare
from rankviz.metrics.kernels.context import BatchContext
from rankviz.metrics.kernels.judgment_groups import JudgmentGroupContext

__all__ = ["prepare_judgment_groups"]

_SEPARATOR = "\x1f"  # between query id and group in a list's id; blanks never occur in either


def prepare_judgment_groups(qrels: pd.DataFrame, run: pd.DataFrame, *, depth: int | None = None,
                            complete: bool = False, judged_only: bool = False, rel_threshold: int = 1,
                            trec_eval_version: str = "10") -> tuple[JudgmentGroupContext, np.ndarray]:
    """The judgment-group kernels' context for the queries to evaluate, and their ids (sorted as strings).

    Parameters
    ----------
    qrels : DataFrame
        ``query_id, group, doc_id, relevance`` (``read_qrels(..., judgment_groups=True)``).
    run : DataFrame
        ``query_id, doc_id, score``.
    depth, complete, judged_only, rel_threshold, trec_eval_version
        As for :func:`rankviz.evaluate` (``judged_only``: each group's unjudged documents are
        dropped before ranking, as trec_eval's -J does in ``form_res_rels_jg.c``).
    """
    evaluated, position = evaluated_queries(qrels["query_id"], run["query_id"], complete=complete)
    query = qrels["query_id"].to_numpy(dtype=object)
    group = qrels["group"].to_numpy(dtype=object)
    composite = pd.Series(query, dtype=object) + _SEPARATOR + pd.Series(group, dtype=object)
    judged = pd.DataFrame({"query_id": composite.to_numpy(dtype=object), "doc_id": qrels["doc_id"].to_numpy(dtype=object),
                           "relevance": qrels["relevance"].to_numpy(dtype=np.int64)})
    lists = pd.DataFrame({"query_id": query, "list_id": judged["query_id"]}).drop_duplicates()
    lines = pd.DataFrame({"query_id": run["query_id"].to_numpy(dtype=object), "doc_id": run["doc_id"].to_numpy(dtype=object),
                          "score": run["score"].to_numpy(dtype=np.float64)})
    repeated = lines.merge(lists, on="query_id", how="inner")
    repeated = pd.DataFrame({"query_id": repeated["list_id"], "doc_id": repeated["doc_id"], "score": repeated["score"]})
    ranking = prepare(judged, repeated, depth=depth, judged_only=judged_only)
    list_query = np.array([position.get(list_id.split(_SEPARATOR, 1)[0], -1) for list_id in ranking.query_ids],
                          dtype=np.int64)
    context = BatchContext(ranking, rel_threshold=rel_threshold, trec_eval_version=trec_eval_version)
    return JudgmentGroupContext(context, list_query, len(evaluated)), np.array(evaluated, dtype=object)
