"""Z-scores (trec_eval ``-Z``): every per-query value standardised by reference runs' mean and deviation.

Given, for a topic and a measure, the mean ``mu`` and standard deviation ``sd`` of that measure
over a set of reference runs (a z-score file, :func:`rankviz.trec.preferences.read_zscores`), a
value ``x`` becomes ``z = (x - mu) / sd``: how many standard deviations this run is above the
reference runs on that topic. Topics of different difficulty then weigh the same in the mean
(Webber, Moffat & Zobel, "Score standardization for inter-collection comparison of retrieval
systems", SIGIR 2008).

trec_eval 10.0's conventions (``convert_zscores.c``), reproduced by :func:`standardize`:

* a (topic, measure) absent from the file, or a topic absent altogether, gives -1000000;
* ``sd == 0`` gives 0 when ``x == mu`` and -1000000 otherwise;
* the measure names looked up are trec_eval's printed names (``P_10``, ``iprec_at_recall_0.10``);
* the summary line aggregates the z-scores as the raw values are aggregated: the mean, or the
  sum for counts (``num_ret``...). For ``gm_map`` and ``gm_bpref`` the value standardised is
  trec_eval's per-topic ``log(max(x, 1e-5))``, and the summary is ``exp`` of the mean z;
* ``num_q`` stays the number of topics, ``relstring`` and ``runid`` are not numbers: unchanged.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rankviz.metrics.kernels.aggregate import arithmetic_mean

__all__ = ["MISSING_ZSCORE", "standardize"]

#: trec_eval's value for a z-score it cannot compute (no mean for that topic and measure).
MISSING_ZSCORE = -1000000.0

_GEOMETRIC_FLOOR = 1e-5


def standardize(result, zscores: pd.DataFrame) -> tuple[pd.DataFrame, pd.Series]:
    """The per-query z-scores of ``result`` and their aggregates.

    Parameters
    ----------
    result : EvalResult
        What :func:`rankviz.evaluate` returned with ``per_query=True`` (the z-scores are per
        query). ``evaluate(..., zscores=...)`` calls this and returns an EvalResult of the two.
    zscores : DataFrame
        ``query_id, measure, mean, stddev`` (:func:`rankviz.trec.preferences.read_zscores`).

    Returns
    -------
    (per_query, mean)
        Same rows and columns as ``result``'s; every numeric column (counts included) float64
        z-scores, the means aggregated from them. See the module docstring for trec_eval's
        conventions.

    Examples
    --------
    >>> from rankviz.evaluation.evaluator import evaluate
    >>> qrels = "q1 0 d1 1\\nq1 0 d2 0\\nq2 0 d1 1\\n"
    >>> run = "q1 Q0 d1 1 2.0 r\\nq1 Q0 d2 2 1.0 r\\nq2 Q0 d2 1 1.0 r\\n"
    >>> raw = evaluate(qrels, run, ["P@1", "num_ret"])
    >>> raw.per_query["P@1"].tolist()
    [1.0, 0.0]
    >>> per_query, mean = standardize(raw, pd.DataFrame({
    ...     "query_id": ["q1", "q2", "q1"], "measure": ["P_1", "P_1", "num_ret"],
    ...     "mean": [0.5, 0.5, 2.0], "stddev": [0.25, 0.5, 0.0]}))
    >>> per_query.to_dict("list")  # (1 - 0.5) / 0.25, (0 - 0.5) / 0.5; num_ret of q2 has no mean
    {'P@1': [2.0, -1.0], 'NumRet': [0.0, -1000000.0]}
    >>> mean.to_dict()  # the mean of the z-scores; the sum for a count
    {'P@1': 0.5, 'NumRet': -1000000.0}
    """
    table = result.per_query
    if len(result.measures) and table.shape[1] == 0 and len(table.index):
        raise ValueError("standardize needs per-query values: evaluate with per_query=True")
    reference = {(str(q), str(m)): (float(mu), float(sd))
                 for q, m, mu, sd in zip(zscores["query_id"], zscores["measure"], zscores["mean"], zscores["stddev"])}
    query_ids = [str(q) for q in table.index]
    columns, means = {}, {}
    for measure in result.measures:
        name = str(measure)
        if name not in table.columns:
            continue
        if measure.name in ("relstring", "NumQ"):
            columns[name] = table[name]
            if name in result.mean.index:
                means[name] = result.mean[name]
            continue
        raw = table[name].to_numpy(dtype=np.float64)
        if measure.aggregate == "gmean":
            raw = np.log(np.maximum(raw, _GEOMETRIC_FLOOR))
        pairs = [reference.get((q, measure.trec_name)) for q in query_ids]
        mu = np.array([p[0] if p else np.nan for p in pairs])
        sd = np.array([p[1] if p else np.nan for p in pairs])
        with np.errstate(divide="ignore", invalid="ignore"):
            z = np.where(sd != 0, (raw - mu) / sd, np.where(raw == mu, 0.0, MISSING_ZSCORE))
        z = np.where(np.isnan(mu) | np.isnan(sd), MISSING_ZSCORE, z)
        columns[name] = z
        if measure.aggregate == "gmean":
            means[name] = float(np.exp(np.mean(z))) if z.size else 0.0
        elif measure.aggregate != "none":
            means[name] = float(np.sum(z)) if measure.aggregate == "sum" else (arithmetic_mean(z) if z.size else 0.0)
    return pd.DataFrame(columns, index=table.index), pd.Series(means, dtype=np.float64, name="mean")
