"""Preference judgments matched to a run: the input of the ``prefs_*`` kernels.

:func:`prepare_preferences` numbers every judged document of each query as trec_eval's
``form_prefs_counts.c`` does: the run is sorted by score descending, ties broken by docno
**ascending** (this file of trec_eval breaks ties the other way from the rest of it), cut at
``depth``; the judged documents it retrieved are numbered 0, 1, ... in that order, then the judged
documents it did not retrieve, in docno order. Everything is done with pandas/numpy over all
queries at once; the kernels (:mod:`rankviz.metrics.kernels.preferences`) then work per judgment
group.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rankviz.evaluation.ranking import evaluated_queries
from rankviz.metrics.kernels.preferences import PreferenceContext, PreferenceJudgments

__all__ = ["prepare_preferences"]


def _codes(*columns: pd.Series) -> np.ndarray:
    """One int64 code per distinct tuple of the columns' values."""
    frame = pd.DataFrame({str(i): c.to_numpy(dtype=object) for i, c in enumerate(columns)})
    return frame.groupby(list(frame.columns), sort=False, dropna=False).ngroup().to_numpy(dtype=np.int64)


def prepare_preferences(prefs: pd.DataFrame, run: pd.DataFrame, *, depth: int | None = None,
                        complete: bool = False) -> tuple[PreferenceContext, np.ndarray]:
    """The preference kernels' context for the queries to evaluate, and their ids (sorted as strings).

    Parameters
    ----------
    prefs : DataFrame
        ``query_id, group, subgroup, doc_id, rel_level`` (:func:`rankviz.trec.preferences.read_prefs`).
    run : DataFrame
        ``query_id, doc_id, score``.
    depth : int or None
        trec_eval's ``-M``: only the top ``depth`` documents of each query count as retrieved.
    complete : bool
        trec_eval's ``-c``: queries with preferences but no run lines are evaluated as empty
        rankings; otherwise they are left out.

    Returns
    -------
    (PreferenceContext, ndarray of str)
    """
    evaluated, position = evaluated_queries(prefs["query_id"], run["query_id"], complete=complete,
                                            judgments="preference judgments")
    lines = prefs[prefs["query_id"].isin(evaluated)]
    query_ids = lines["query_id"].to_numpy(dtype=object)
    doc_ids = lines["doc_id"].to_numpy(dtype=object)

    # The run, ranked as form_prefs_counts ranks it, within depth.
    ranked = run.loc[run["query_id"].isin(evaluated), ["query_id", "doc_id", "score"]]
    ranked = pd.DataFrame({"query_id": ranked["query_id"].to_numpy(dtype=object),
                           "doc_id": ranked["doc_id"].to_numpy(dtype=object),
                           "score": ranked["score"].to_numpy(dtype=np.float64)})
    ranked = ranked.sort_values(["query_id", "score", "doc_id"], ascending=[True, False, True], kind="stable")
    ranked["rank"] = ranked.groupby("query_id", sort=False).cumcount()
    if depth is not None:
        ranked = ranked[ranked["rank"] < depth]

    # Each judged document once per query, with its rank when retrieved.
    judged = pd.DataFrame({"query_id": query_ids, "doc_id": doc_ids}).drop_duplicates()
    judged = judged.merge(ranked[["query_id", "doc_id", "rank"]], on=["query_id", "doc_id"], how="left")
    judged["retrieved"] = judged["rank"].notna()
    # Retrieved first by rank, then the others by docno (byte order: Python's str order).
    judged["order"] = judged["rank"].fillna(-1.0)
    judged = judged.sort_values(["query_id", "retrieved", "order", "doc_id"], ascending=[True, False, True, True],
                                kind="stable")
    judged["number"] = judged.groupby("query_id", sort=False).cumcount()
    query_index = judged["query_id"].map(position).to_numpy(dtype=np.int64)
    n = len(evaluated)
    num_judged = np.bincount(query_index, minlength=n).astype(np.int64)
    num_judged_ret = np.bincount(query_index, weights=judged["retrieved"].to_numpy(), minlength=n).astype(np.int64)

    numbered = pd.DataFrame({"query_id": query_ids, "doc_id": doc_ids}).merge(
        judged[["query_id", "doc_id", "number"]], on=["query_id", "doc_id"], how="left")
    judgments = PreferenceJudgments(
        num_judged=num_judged,
        num_judged_ret=num_judged_ret,
        line_query=pd.Series(query_ids).map(position).to_numpy(dtype=np.int64),
        line_group=_codes(lines["query_id"], lines["group"]),
        line_subgroup=_codes(lines["query_id"], lines["group"], lines["subgroup"]),
        line_doc=numbered["number"].to_numpy(dtype=np.int64),
        line_level=lines["rel_level"].to_numpy(dtype=np.float64),
        query_ids=tuple(evaluated),
    )
    return PreferenceContext(judgments), np.array(evaluated, dtype=object)
