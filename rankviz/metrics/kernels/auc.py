"""The AUC kernel: the Mann-Whitney count of every group at once, ties counting one half.

One definition serves :func:`rankviz.metrics.auc` (one group), :func:`rankviz.metrics.gauc`
(a group per user or session) and :func:`rankviz.evaluation.clicks.evaluate_clicks` (click logs
of any size, in memory or on Dask). For each group g with positives P_g and negatives N_g

.. math::

    U_g = \\sum_{p \\in P_g} \\sum_{n \\in N_g} \\left(\\mathbb{1}[s_p > s_n]
          + \\tfrac{1}{2} \\mathbb{1}[s_p = s_n]\\right), \\qquad
    \\mathrm{AUC}_g = \\frac{U_g}{|P_g|\\,|N_g|}

computed from *runs*: the rows of a group with one score, in increasing score order. A run with
p positives and n negatives, above ``below`` negatives of its group, adds
``p * below + p * n / 2`` to U_g. This is the rank-sum formula with tie-averaged ranks
(Mann-Whitney 1947), written as counts: every term is an integer or a half integer, so U_g is
exact while the counts stay below 2^53.

Runs are what a distributed engine can combine: the per-partition histograms of (score ->
positives, negatives) add up to the runs of the whole table, and :func:`auc_from_runs` turns
them into the same U as :func:`grouped_auc` on the rows (same runs, same order, same digits).

>>> u, n_pos, n_neg = grouped_auc(np.array([0, 0, 0, 0]), np.array([True, False, True, False]),
...                               np.array([0.9, 0.5, 0.4, 0.4]), 1)
>>> u.tolist(), n_pos.tolist(), n_neg.tolist()   # 0.9 beats both negatives, 0.4 ties one: 1 + 1 + 0.5
([2.5], [2], [2])
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["score_runs", "auc_from_runs", "grouped_auc", "auc_values", "weighted_mean"]


def score_runs(group: np.ndarray, positive: np.ndarray, score: np.ndarray, n_groups: int):
    """Runs of equal (group, score), ordered by group then increasing score.

    Returns ``(run_group, run_score, run_positives, run_negatives)``: the group (int64) and
    score of each run, and its numbers of positive and negative rows (int64). ``group`` holds
    codes ``0 .. n_groups - 1``; ``positive`` is boolean. Sorting is O(n log n), the rest linear.
    """
    n = score.shape[0]
    if n == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, np.zeros(0, dtype=score.dtype), empty, empty
    if n_groups <= 1:  # one group: no group array to sort or compare (a global AUC over 10^8 rows)
        order = np.argsort(score, kind="stable")
        s = score[order]
        starts = np.flatnonzero(np.concatenate(([True], s[1:] != s[:-1])))
        run_group = np.zeros(starts.shape[0], dtype=np.int64)
    else:
        order = np.lexsort((score, group))
        g = group[order].astype(np.int64, copy=False)
        s = score[order]
        starts = np.flatnonzero(np.concatenate(([True], (g[1:] != g[:-1]) | (s[1:] != s[:-1]))))
        run_group = g[starts]
        del g
    p = positive[order]
    del order
    sizes = np.diff(np.append(starts, n)).astype(np.int64)
    run_positives = np.add.reduceat(p, starts, dtype=np.int64)
    return run_group, s[starts], run_positives, sizes - run_positives


def auc_from_runs(run_group: np.ndarray, run_positives: np.ndarray, run_negatives: np.ndarray, n_groups: int):
    """U, |P| and |N| per group from runs ordered by group, then strictly increasing score.

    Returns ``(u, n_pos, n_neg)``: float64 U_g (pairs won + half the tied pairs) and the int64
    counts, one entry per group code; AUC_g = U_g / (|P_g| |N_g|), undefined when a class is empty.
    """
    run_group = np.asarray(run_group, dtype=np.int64)
    run_positives = np.asarray(run_positives, dtype=np.int64)
    run_negatives = np.asarray(run_negatives, dtype=np.int64)
    n_pos = np.bincount(run_group, weights=run_positives, minlength=n_groups).astype(np.int64)
    n_neg = np.bincount(run_group, weights=run_negatives, minlength=n_groups).astype(np.int64)
    # Negatives of the same group in the runs below each run: an exclusive running sum that
    # restarts at each group's first run.
    before = np.cumsum(run_negatives) - run_negatives
    first_run = np.concatenate(([True], run_group[1:] != run_group[:-1])) if run_group.size else run_group.astype(bool)
    group_offset = before[first_run]
    below = before - np.repeat(group_offset, np.diff(np.append(np.flatnonzero(first_run), run_group.size)))
    credit = run_positives * below + run_positives * run_negatives * 0.5
    u = np.bincount(run_group, weights=credit, minlength=n_groups)
    return u, n_pos, n_neg


def grouped_auc(group: np.ndarray, positive: np.ndarray, score: np.ndarray, n_groups: int):
    """U, |P| and |N| of every group of a table: :func:`score_runs` then :func:`auc_from_runs`.

    ``group``: int codes 0 .. n_groups - 1 (any order); ``positive``: bool; ``score``: float.
    """
    run_group, _, run_positives, run_negatives = score_runs(group, positive, score, n_groups)
    return auc_from_runs(run_group, run_positives, run_negatives, n_groups)


def auc_values(u: np.ndarray, n_pos: np.ndarray, n_neg: np.ndarray) -> np.ndarray:
    """AUC_g = U_g / (|P_g| |N_g|); NaN where a group holds one class only (no pair to compare)."""
    pairs = n_pos.astype(np.float64) * n_neg.astype(np.float64)
    out = np.full(u.shape, np.nan)
    np.divide(u, pairs, out=out, where=pairs > 0)
    return out


def weighted_mean(values, weights) -> float:
    """GAUC's reduction, sum_g w_g AUC_g / sum_g w_g, with both sums correctly rounded
    (``math.fsum``): the result does not depend on the order of the groups, so
    :func:`rankviz.metrics.gauc`, its breakdown and the click-log evaluator (groups in order of
    appearance, sorted, or gathered from Dask partitions) give the same digits. NaN when the
    weights sum to 0 (the callers say why)."""
    values = np.asarray(values, dtype=np.float64)
    weights = np.asarray(weights, dtype=np.float64)
    total = math.fsum(weights.tolist())
    return math.fsum((weights * values).tolist()) / total if total else float("nan")
