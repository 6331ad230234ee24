"""Binary-relevance metrics: P@k, R@k, Hit@k, F_beta, R-precision, AP, interpolated precision, RR.

Every function takes ``rels``, the relevance grades in ranked order (``rels[0]`` is rank 1), and
counts a document as relevant when its grade is ``>= rel_threshold`` (default 1, as trec_eval's
``-l``). ``k=None`` means the whole list.

Metrics that divide by R, the number of relevant documents of the query (recall, F, R-precision,
AP, interpolated precision), take it from ``n_relevant`` when given, else from ``judged`` (the
grades of every judged document of the query, retrieved or not), else from the list itself, which
is only right when every relevant document was retrieved. R = 0 gives 0.0 (trec_eval's policy).

Conventions shared with trec_eval: a cut-off k beyond the end of the list counts the missing ranks
as non-relevant (P@10 of a 6-document list divides by 10), and AP@k divides by R, not by the
relevant documents within the top k.

Each metric has a ``*_breakdown`` twin returning the worked table of a lecture exercise as a
DataFrame, with ``attrs["value"]`` (computed from the table's columns) and ``attrs["latex"]``.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from rankviz.metrics._latex import fraction as _frac
from rankviz.metrics._latex import number as _num
from rankviz.metrics._validation import (
    as_grades,
    as_scores,
    check_choice,
    check_k,
    check_positive_number,
    check_rel_threshold,
    relevant_mask,
    resolve_n_relevant,
    truncate,
)

__all__ = [
    "precision",
    "precision_breakdown",
    "recall",
    "recall_breakdown",
    "hit",
    "hit_breakdown",
    "f_beta",
    "f_beta_breakdown",
    "r_precision",
    "r_precision_breakdown",
    "average_precision",
    "average_precision_breakdown",
    "PrecisionRecallPoints",
    "precision_recall_points",
    "precision_recall_points_breakdown",
    "interpolated_precision",
    "interpolated_precision_breakdown",
    "eleven_point_precision",
    "eleven_point_precision_breakdown",
    "interpolated_average_precision",
    "interpolated_average_precision_breakdown",
    "reciprocal_rank",
    "reciprocal_rank_breakdown",
    "ROUNDINGS",
    "ELEVEN_RECALL_LEVELS",
]

#: How a recall level p becomes the number of relevant documents c a rank must have reached.
#: "ceil": c = ceil(p R), the textbook "recall >= p"; "floor_plus_0.9": c = floor(p R + 0.9),
#: trec_eval 9.x (and pytrec_eval, ranx, ir_measures); "lround": c = round-half-up(p R), trec_eval 10.0.
ROUNDINGS = ("ceil", "floor_plus_0.9", "lround")
#: The 11 standard recall levels 0.0, 0.1, ..., 1.0.
ELEVEN_RECALL_LEVELS = tuple(i / 10 for i in range(11))
# Beyond this many terms the LaTeX shows the first ones and an ellipsis: a formula with hundreds
# of terms teaches nothing and is slow to render.
_LATEX_TERMS = 10


# ------------------------------------------------------------------------- validation


def _binary_input(rels, rel_threshold, func: str):
    """Validated grades and their relevant mask."""
    grades = as_grades(rels, func=func)
    threshold = check_rel_threshold(rel_threshold, func=func)
    return grades, relevant_mask(grades, threshold), threshold


def _n_relevant(grades, threshold, func: str, n_relevant, judged) -> int:
    return resolve_n_relevant(grades, func=func, n_relevant=n_relevant, judged=judged, rel_threshold=threshold)


def _check_beta(beta, func: str) -> float:
    # The lecture allows any non-negative beta; beta = 0 reduces F to precision.
    return check_positive_number(beta, func=func, name="beta", allow_zero=True)


def _check_levels(recall_levels, func: str) -> np.ndarray:
    if recall_levels is None:
        return np.array(ELEVEN_RECALL_LEVELS)
    levels = as_scores(recall_levels, func=func, name="recall_levels")
    if levels.size == 0:
        raise ValueError(f"The 'recall_levels' parameter of {func} must hold at least one level. Got none.")
    outside = np.flatnonzero((levels < 0) | (levels > 1))
    if outside.size:
        i = int(outside[0])
        raise ValueError(
            f"The 'recall_levels' parameter of {func} must hold numbers in the range [0, 1]. "
            f"Got {levels[i]:g} at position {i + 1}."
        )
    return levels


def _check_level_count(levels, func: str) -> int:
    if levels is None:
        raise ValueError(f"The 'levels' parameter of {func} must be an int in the range [1, inf). Got None instead.")
    return check_k(levels, func=func, name="levels")


# ---------------------------------------------------------------------------- kernels


def _relevant_in_top(relevant: np.ndarray, k: int | None) -> int:
    return int(np.count_nonzero(truncate(relevant, k)))


def _precision_at(relevant: np.ndarray, k: int | None) -> float:
    depth = relevant.shape[0] if k is None else k
    return 0.0 if depth == 0 else _relevant_in_top(relevant, k) / depth


def _recall_at(relevant: np.ndarray, k: int | None, n_rel: int) -> float:
    return 0.0 if n_rel == 0 else _relevant_in_top(relevant, k) / n_rel


def _f_from(p: float, r: float, beta: float) -> float:
    if p + r == 0:
        return 0.0
    b2 = beta * beta
    return (1 + b2) * p * r / (b2 * p + r)


def _average_precision(relevant: np.ndarray, k: int | None, n_rel: int) -> float:
    if n_rel == 0:
        return 0.0
    ranks = np.flatnonzero(truncate(relevant, k)) + 1
    return float(np.sum(np.arange(1, ranks.size + 1) / ranks) / n_rel)


def _reciprocal_rank(relevant: np.ndarray, k: int | None) -> float:
    ranks = np.flatnonzero(truncate(relevant, k))
    return 0.0 if ranks.size == 0 else 1.0 / (int(ranks[0]) + 1)


def _relevant_needed(level: float, n_rel: int, rounding: str) -> int:
    """The number of relevant documents c a rank must have reached to count for recall level p."""
    x = level * n_rel
    if rounding == "ceil":
        # The tolerance absorbs binary noise: 0.7 * 10 is 7.000000000000001, which must give 7.
        return math.ceil(x - 1e-9 * max(1.0, x))
    if rounding == "floor_plus_0.9":
        return math.floor(x + 0.9)  # trec_eval 9.x: (long) (p * R + 0.9)
    whole = math.floor(x)  # C's lround: halves away from zero (Python's round() halves to even)
    return whole + (1 if x - whole >= 0.5 else 0)


class _Interpolation(NamedTuple):
    values: np.ndarray  # interpolated precision per level
    needed: np.ndarray  # relevant documents needed per level
    first_rank: np.ndarray  # first rank that reaches them (0: never)
    best_rank: np.ndarray  # rank where the maximum precision is reached (0: none)


def _interpolate(relevant: np.ndarray, n_rel: int, levels: np.ndarray, rounding: str) -> _Interpolation:
    n = relevant.shape[0]
    hits = np.cumsum(relevant)
    precision_at = hits / np.arange(1, n + 1)
    # best_from[i]: the highest precision at rank i + 1 or any later rank (read right to left).
    best_from = np.maximum.accumulate(precision_at[::-1])[::-1]
    found = int(hits[-1]) if n else 0
    out = _Interpolation(np.zeros(levels.size), np.zeros(levels.size, dtype=np.int64),
                         np.zeros(levels.size, dtype=np.int64), np.zeros(levels.size, dtype=np.int64))
    for j, level in enumerate(levels):
        needed = _relevant_needed(float(level), n_rel, rounding)
        out.needed[j] = needed
        if n_rel == 0 or found == 0 or needed > found:
            continue  # no rank reaches this recall: 0, as in trec_eval
        start = int(np.searchsorted(hits, needed, side="left"))  # first index with hits >= needed
        out.first_rank[j] = start + 1
        out.values[j] = best_from[start]
        out.best_rank[j] = start + 1 + int(np.argmax(precision_at[start:]))
    return out


# ------------------------------------------------------------------------ formatting






def _sum_latex(terms: list[str]) -> str:
    if not terms:
        return "0"
    if len(terms) > _LATEX_TERMS:
        terms = terms[: _LATEX_TERMS - 2] + [r"\cdots"] + terms[-2:]
    return " + ".join(terms)


def _at(k: int | None) -> str:
    return "" if k is None else f"@{k}"


def _rank_table(grades: np.ndarray, relevant: np.ndarray, depth: int):
    """One row per rank 1..depth; ranks past the end of the list have rel NaN and are not relevant."""
    import pandas as pd

    shown = min(depth, grades.shape[0])
    rel = np.full(depth, np.nan)
    rel[:shown] = grades[:shown]
    is_relevant = np.zeros(depth, dtype=bool)
    is_relevant[:shown] = relevant[:shown]
    return pd.DataFrame({
        "rank": np.arange(1, depth + 1),
        "rel": rel,
        "relevant?": is_relevant,
        "relevant so far": np.cumsum(is_relevant, dtype=np.int64),
    })


def _depth(n: int, k: int | None, *, pad: bool) -> int:
    """Rows to show: the top k, padded with missing ranks when ``pad`` (P@k counts them)."""
    if k is None:
        return n
    return k if pad else min(n, k)


# ------------------------------------------------------------------- public: P@k, R@k


def precision(rels, k=None, *, rel_threshold=1) -> float:
    r"""Precision at k: the fraction of the top k documents that is relevant.

    .. math:: P@k = \frac{1}{k} \sum_{i=1}^{k} \mathrm{rel}(i)

    where rel(i) is 1 when the grade at rank i is ``>= rel_threshold``, else 0.

    Parameters
    ----------
    rels : sequence of float
        Relevance grades in ranked order (``rels[0]`` is rank 1), non-negative.
    k : int or None, default None
        Cut-off. ``None`` divides by the length of the list (trec_eval's ``set_P``).
    rel_threshold : float, default 1
        A document is relevant when its grade is at least this (trec_eval ``-l``).

    Returns
    -------
    float
        P@k in [0, 1]; 0.0 for an empty ranking with ``k=None``.

    Notes
    -----
    A k beyond the end of the list counts the missing ranks as non-relevant, as trec_eval's
    ``P_k`` does: P@10 of a 6-document list divides by 10, not 6. P@k ignores the order inside
    the top k (course note 003: "Precision @ top N does not care about position").

    References
    ----------
    .. [1] C. D. Manning, P. Raghavan and H. Schütze, *Introduction to Information Retrieval*,
       section 8.3, 2008.
    .. [2] trec_eval 10.0, NIST, measures ``P_k`` and ``set_P``.

    Examples
    --------
    Relevant documents at ranks 1, 3 and 6 (course note 001): 2 relevant in the top 3, 2/3 = 0.667.

    >>> round(precision([1, 0, 1, 0, 0, 1], k=3), 3)
    0.667

    P@10 of the same 6 documents: 3/10 = 0.3 (ranks 7-10 count as non-relevant).

    >>> precision([1, 0, 1, 0, 0, 1], k=10)
    0.3
    """
    func = "precision"
    _, relevant, _ = _binary_input(rels, rel_threshold, func)
    return float(_precision_at(relevant, check_k(k, func=func)))


def precision_breakdown(rels, k=None, *, rel_threshold=1):
    r"""Worked table of :func:`precision`: one row per rank with the running P@i.

    Parameters
    ----------
    rels, k, rel_threshold
        As in :func:`precision`.

    Returns
    -------
    pandas.DataFrame
        Rows for ranks 1..k (1..len(rels) for ``k=None``), including ranks past the end of the
        list (``rel`` NaN, not relevant). Columns ``rank``, ``rel``, ``relevant?``,
        ``relevant so far``, ``P@i``. ``attrs["value"]`` is the relevant count of the table over
        its number of rows; ``attrs["latex"]`` the fraction.

    References
    ----------
    .. [1] Manning, Raghavan and Schütze, *Introduction to Information Retrieval*, 8.3, 2008.

    Examples
    --------
    >>> table = precision_breakdown([1, 0, 1], k=5)
    >>> table["P@i"].round(3).tolist()
    [1.0, 0.5, 0.667, 0.5, 0.4]
    >>> table.attrs["latex"]
    'P@5 = \\frac{2}{5} = 0.400'
    """
    func = "precision_breakdown"
    grades, relevant, _ = _binary_input(rels, rel_threshold, func)
    k = check_k(k, func=func)
    table = _rank_table(grades, relevant, _depth(grades.shape[0], k, pad=True))
    table["P@i"] = table["relevant so far"] / table["rank"]
    depth, found = len(table), int(table["relevant?"].sum())
    value = found / depth if depth else 0.0
    table.attrs["value"] = float(value)
    if depth:
        table.attrs["latex"] = rf"P{_at(k)} = {_frac(found, depth)} = {value:.3f}"
    else:
        table.attrs["latex"] = r"P = 0 \quad (\text{empty ranking})"
    return table


def recall(rels, k=None, *, n_relevant=None, judged=None, rel_threshold=1) -> float:
    r"""Recall at k: the fraction of the query's R relevant documents found in the top k.

    .. math:: R@k = \frac{1}{R} \sum_{i=1}^{k} \mathrm{rel}(i)

    Parameters
    ----------
    rels : sequence of float
        Relevance grades in ranked order (``rels[0]`` is rank 1), non-negative.
    k : int or None, default None
        Cut-off; ``None`` uses the whole list (trec_eval's ``set_recall``).
    n_relevant : int or None, default None
        R, the number of relevant documents of the query in the collection.
    judged : sequence of float or None, default None
        Grades of every judged document of the query (retrieved ones included); R is the
        number of relevant grades in it. Used when ``n_relevant`` is None.
    rel_threshold : float, default 1
        A document is relevant when its grade is at least this.

    Returns
    -------
    float
        R@k in [0, 1]; 0.0 when R = 0 (trec_eval).

    Notes
    -----
    Without ``n_relevant`` or ``judged``, R is the number of relevant documents in ``rels``:
    right only when every relevant document was retrieved. R smaller than the relevant
    documents already in the list is a contradiction and raises ``ValueError``.

    References
    ----------
    .. [1] Manning, Raghavan and Schütze, *Introduction to Information Retrieval*, 8.3, 2008.
    .. [2] trec_eval 10.0, NIST, measures ``recall_k`` and ``set_recall``.

    Examples
    --------
    The lecture's q1 (course 002): relevant at ranks 1, 3, 6, 10, 15, R = 10.
    In the top 5: 2 of 10, 2/10 = 0.2.

    >>> q1 = [1, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    >>> recall(q1, k=5, n_relevant=10)
    0.2
    """
    func = "recall"
    grades, relevant, threshold = _binary_input(rels, rel_threshold, func)
    k = check_k(k, func=func)
    n_rel = _n_relevant(grades, threshold, func, n_relevant, judged)
    return float(_recall_at(relevant, k, n_rel))


def recall_breakdown(rels, k=None, *, n_relevant=None, judged=None, rel_threshold=1):
    r"""Worked table of :func:`recall`: one row per rank with the running R@i.

    Parameters
    ----------
    rels, k, n_relevant, judged, rel_threshold
        As in :func:`recall`.

    Returns
    -------
    pandas.DataFrame
        Rows for the ranks of the top k that exist. Columns ``rank``, ``rel``, ``relevant?``,
        ``relevant so far``, ``R@i``. ``attrs["value"]`` is the relevant count of the table over
        R; ``attrs["latex"]`` the fraction; ``attrs["n_relevant"]`` is R.

    References
    ----------
    .. [1] Manning, Raghavan and Schütze, *Introduction to Information Retrieval*, 8.3, 2008.

    Examples
    --------
    >>> table = recall_breakdown([1, 0, 1, 0], n_relevant=4)
    >>> table["R@i"].tolist()
    [0.25, 0.25, 0.5, 0.5]
    >>> table.attrs["latex"]
    'R = \\frac{2}{4} = 0.500'
    """
    func = "recall_breakdown"
    grades, relevant, threshold = _binary_input(rels, rel_threshold, func)
    k = check_k(k, func=func)
    n_rel = _n_relevant(grades, threshold, func, n_relevant, judged)
    table = _rank_table(grades, relevant, _depth(grades.shape[0], k, pad=False))
    table["R@i"] = table["relevant so far"] / n_rel if n_rel else 0.0
    found = int(table["relevant?"].sum())
    value = found / n_rel if n_rel else 0.0
    table.attrs["value"] = float(value)
    table.attrs["n_relevant"] = n_rel
    if n_rel:
        table.attrs["latex"] = rf"R{_at(k)} = {_frac(found, n_rel)} = {value:.3f}"
    else:
        table.attrs["latex"] = rf"R{_at(k)} = 0 \quad (\text{{no relevant documents: }} R = 0)"
    return table


# ------------------------------------------------------------------------ public: Hit@k


def hit(rels, k=None, *, rel_threshold=1) -> float:
    r"""Hit at k (Accuracy@K, success@k): 1 if any of the top k documents is relevant, else 0.

    .. math:: \mathrm{Hit@}k = \mathbb{1}\left[\sum_{i=1}^{k} \mathrm{rel}(i) > 0\right]

    Parameters
    ----------
    rels : sequence of float
        Relevance grades in ranked order (``rels[0]`` is rank 1), non-negative.
    k : int or None, default None
        Cut-off; ``None`` uses the whole list.
    rel_threshold : float, default 1
        A document is relevant when its grade is at least this.

    Returns
    -------
    float
        1.0 or 0.0; 0.0 for an empty ranking.

    Notes
    -----
    Course notes 000/004 call it Accuracy@K; trec_eval calls it ``success_k``. Its mean over
    queries is the fraction of queries answered in the top k.

    References
    ----------
    .. [1] trec_eval 10.0, NIST, measure ``success_k``.
    .. [2] Course note 000, "Accuracy@K".

    Examples
    --------
    The lecture's q2 (course 002) has its first relevant document at rank 3.

    >>> q2 = [0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1]
    >>> hit(q2, k=2), hit(q2, k=3)
    (0.0, 1.0)
    """
    func = "hit"
    _, relevant, _ = _binary_input(rels, rel_threshold, func)
    return 1.0 if _relevant_in_top(relevant, check_k(k, func=func)) else 0.0


def hit_breakdown(rels, k=None, *, rel_threshold=1):
    r"""Worked table of :func:`hit`: the top k with their relevance.

    Parameters
    ----------
    rels, k, rel_threshold
        As in :func:`hit`.

    Returns
    -------
    pandas.DataFrame
        Columns ``rank``, ``rel``, ``relevant?``, ``relevant so far``. ``attrs["value"]`` is 1.0
        when any ``relevant?`` is true; ``attrs["latex"]`` names the first relevant rank.

    References
    ----------
    .. [1] trec_eval 10.0, NIST, measure ``success_k``.

    Examples
    --------
    >>> hit_breakdown([0, 0, 1], k=3).attrs["latex"]
    '\\mathrm{Hit@3} = 1 \\quad (\\text{first relevant document at rank } 3)'
    """
    func = "hit_breakdown"
    grades, relevant, _ = _binary_input(rels, rel_threshold, func)
    k = check_k(k, func=func)
    table = _rank_table(grades, relevant, _depth(grades.shape[0], k, pad=False))
    value = 1.0 if table["relevant?"].any() else 0.0
    table.attrs["value"] = value
    name = rf"\mathrm{{Hit{_at(k)}}}"
    if value:
        first = int(table.loc[table["relevant?"], "rank"].iloc[0])
        table.attrs["latex"] = rf"{name} = 1 \quad (\text{{first relevant document at rank }} {first})"
    else:
        where = "in the list" if k is None else f"in the top {k}"
        table.attrs["latex"] = rf"{name} = 0 \quad (\text{{no relevant document {where}}})"
    return table


# ------------------------------------------------------------------------ public: F_beta


def f_beta(rels, k=None, *, beta=1.0, n_relevant=None, judged=None, rel_threshold=1) -> float:
    r"""F-measure at k: the weighted harmonic mean of P@k and R@k.

    .. math:: F_\beta = (1 + \beta^2) \frac{P \cdot R}{\beta^2 P + R}

    Parameters
    ----------
    rels : sequence of float
        Relevance grades in ranked order (``rels[0]`` is rank 1), non-negative.
    k : int or None, default None
        Cut-off for both P and R; ``None`` uses the whole list (trec_eval's ``set_F``).
    beta : float, default 1.0
        Weight of recall relative to precision, >= 0: ``beta=1`` is F1 (balanced),
        ``beta=2`` F2 (recall weighted higher), ``beta=0.5`` F0.5 (precision weighted higher).
    n_relevant, judged : optional
        R for the recall, as in :func:`recall`.
    rel_threshold : float, default 1
        A document is relevant when its grade is at least this.

    Returns
    -------
    float
        F_beta in [0, 1]; 0.0 when P + R = 0 (nothing relevant in the top k, or R = 0).

    Notes
    -----
    P and R are :func:`precision` and :func:`recall` at the same k, so a k beyond the list
    counts the missing ranks as non-relevant. The lecture (course 002, "F-Measure") writes
    F1 = 2PR / (P + R), F2 = 5PR / (4P + R) and F0.5 = 1.25 PR / (0.25 P + R). Its slide
    prints the F0.5 denominator as "(0.5)P + R"; beta^2 = 0.25 is meant, as in van Rijsbergen's
    formula above it. ``beta=0`` gives P.

    References
    ----------
    .. [1] C. J. van Rijsbergen, *Information Retrieval*, 2nd ed., chapter 7, 1979.
    .. [2] Course lecture 002, slides "F-Measure: Harmonic Mean" and "F-Measure - Homework".

    Examples
    --------
    The lecture's q1 at k = 10: P = 4/10, R = 4/10 (R = 10 relevant), so every F is 0.4.
    At k = 15: P = 5/15 = 1/3 and R = 5/10 = 1/2, so
    F1 = 2 (1/3)(1/2) / (1/3 + 1/2) = 0.4 and F2 = 5 (1/6) / (4/3 + 1/2) = 0.455.

    >>> q1 = [1, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    >>> round(f_beta(q1, k=15, n_relevant=10), 3), round(f_beta(q1, k=15, beta=2, n_relevant=10), 3)
    (0.4, 0.455)
    """
    func = "f_beta"
    grades, relevant, threshold = _binary_input(rels, rel_threshold, func)
    k = check_k(k, func=func)
    beta = _check_beta(beta, func)
    n_rel = _n_relevant(grades, threshold, func, n_relevant, judged)
    return float(_f_from(_precision_at(relevant, k), _recall_at(relevant, k, n_rel), beta))


def f_beta_breakdown(rels, k=None, *, beta=1.0, n_relevant=None, judged=None, rel_threshold=1):
    r"""Worked table of :func:`f_beta`: P@i, R@i and F at every rank down to k.

    Parameters
    ----------
    rels, k, beta, n_relevant, judged, rel_threshold
        As in :func:`f_beta`.

    Returns
    -------
    pandas.DataFrame
        Rows for ranks 1..k (padded past the end of the list, as P@k counts those ranks).
        Columns ``rank``, ``rel``, ``relevant?``, ``relevant so far``, ``P@i``, ``R@i`` and
        ``F<beta>@i`` (``F1@i``, ``F2@i``, ``F0.5@i``...). ``attrs["value"]`` is the F of the last
        row; ``attrs["latex"]`` the formula with that row's P and R.

    References
    ----------
    .. [1] van Rijsbergen, *Information Retrieval*, chapter 7, 1979.

    Examples
    --------
    >>> table = f_beta_breakdown([1, 0, 1, 0], n_relevant=4)
    >>> list(table.columns)
    ['rank', 'rel', 'relevant?', 'relevant so far', 'P@i', 'R@i', 'F1@i']
    >>> table.attrs["value"]  # P = 2/4, R = 2/4
    0.5
    """
    func = "f_beta_breakdown"
    grades, relevant, threshold = _binary_input(rels, rel_threshold, func)
    k = check_k(k, func=func)
    beta = _check_beta(beta, func)
    n_rel = _n_relevant(grades, threshold, func, n_relevant, judged)
    table = _rank_table(grades, relevant, _depth(grades.shape[0], k, pad=True))
    table["P@i"] = table["relevant so far"] / table["rank"]
    table["R@i"] = table["relevant so far"] / n_rel if n_rel else 0.0
    column = f"F{beta:g}@i"
    table[column] = [_f_from(p, r, beta) for p, r in zip(table["P@i"], table["R@i"])]
    value = float(table[column].iloc[-1]) if len(table) else 0.0
    table.attrs["value"] = value
    table.attrs["n_relevant"] = n_rel
    b = _num(beta)
    name = rf"F_{{{b}}}{_at(k)}"
    if not len(table):
        table.attrs["latex"] = rf"{name} = 0 \quad (\text{{empty ranking}})"
        return table
    depth, found = len(table), int(table["relevant so far"].iloc[-1])
    p_tex = _frac(found, depth)
    r_tex = _frac(found, n_rel) if n_rel else "0"
    if value == 0:
        formula = rf"{name} = 0 \quad (P = {p_tex},\ R = {r_tex},\ P + R = 0)"
    else:
        formula = (rf"P = {p_tex},\ R = {r_tex}: \quad {name} = "
                   rf"\frac{{(1 + {b}^2) \cdot {p_tex} \cdot {r_tex}}}{{{b}^2 \cdot {p_tex} + {r_tex}}} = {value:.3f}")
    table.attrs["latex"] = formula
    return table


# ---------------------------------------------------------------------- public: R-precision


def r_precision(rels, *, n_relevant=None, judged=None, rel_threshold=1) -> float:
    r"""R-precision: precision at rank R, R being the number of relevant documents of the query.

    .. math:: \mathrm{R\text{-}Prec} = P@R = \frac{1}{R} \sum_{i=1}^{R} \mathrm{rel}(i)

    Parameters
    ----------
    rels : sequence of float
        Relevance grades in ranked order (``rels[0]`` is rank 1), non-negative.
    n_relevant, judged : optional
        R, as in :func:`recall`; by default the relevant documents in ``rels``.
    rel_threshold : float, default 1
        A document is relevant when its grade is at least this.

    Returns
    -------
    float
        R-precision in [0, 1]; 0.0 when R = 0 (trec_eval).

    Notes
    -----
    As in trec_eval's ``Rprec``, a list shorter than R counts the missing ranks as
    non-relevant. At rank R precision equals recall, so R-precision is also the break-even
    point of the precision-recall curve.

    References
    ----------
    .. [1] Manning, Raghavan and Schütze, *Introduction to Information Retrieval*, 8.4, 2008.
    .. [2] trec_eval 10.0, NIST, measure ``Rprec``.

    Examples
    --------
    The lecture's q1 (course 002), R = 10: 4 relevant in the top 10, 4/10 = 0.4.

    >>> q1 = [1, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    >>> r_precision(q1, n_relevant=10)
    0.4
    """
    func = "r_precision"
    grades, relevant, threshold = _binary_input(rels, rel_threshold, func)
    n_rel = _n_relevant(grades, threshold, func, n_relevant, judged)
    return 0.0 if n_rel == 0 else float(_relevant_in_top(relevant, n_rel) / n_rel)


def r_precision_breakdown(rels, *, n_relevant=None, judged=None, rel_threshold=1):
    r"""Worked table of :func:`r_precision`: ranks 1..R.

    Parameters
    ----------
    rels, n_relevant, judged, rel_threshold
        As in :func:`r_precision`.

    Returns
    -------
    pandas.DataFrame
        Rows for ranks 1..R (padded past the end of the list), columns ``rank``, ``rel``,
        ``relevant?``, ``relevant so far``, ``P@i``. ``attrs["value"]`` is the relevant count of
        the table over R (0.0 when R = 0, empty table); ``attrs["latex"]`` the fraction.

    References
    ----------
    .. [1] trec_eval 10.0, NIST, measure ``Rprec``.

    Examples
    --------
    >>> r_precision_breakdown([1, 0, 1, 0], n_relevant=3).attrs["latex"]
    '\\mathrm{R\\text{-}Prec} = P@3 = \\frac{2}{3} = 0.667'
    """
    func = "r_precision_breakdown"
    grades, relevant, threshold = _binary_input(rels, rel_threshold, func)
    n_rel = _n_relevant(grades, threshold, func, n_relevant, judged)
    table = _rank_table(grades, relevant, n_rel)
    table["P@i"] = table["relevant so far"] / table["rank"]
    found = int(table["relevant?"].sum())
    value = found / len(table) if len(table) else 0.0
    table.attrs["value"] = float(value)
    table.attrs["n_relevant"] = n_rel
    if n_rel:
        table.attrs["latex"] = rf"\mathrm{{R\text{{-}}Prec}} = P@{n_rel} = {_frac(found, n_rel)} = {value:.3f}"
    else:
        table.attrs["latex"] = r"\mathrm{R\text{-}Prec} = 0 \quad (\text{no relevant documents: } R = 0)"
    return table


# ------------------------------------------------------------------- public: AP (trec map)


def average_precision(rels, k=None, *, n_relevant=None, judged=None, rel_threshold=1) -> float:
    r"""Average precision (non-interpolated): the mean of P@i over the ranks i of relevant documents.

    .. math:: \mathrm{AP@}k = \frac{1}{R} \sum_{i=1}^{k} P@i \cdot \mathrm{rel}(i)

    Parameters
    ----------
    rels : sequence of float
        Relevance grades in ranked order (``rels[0]`` is rank 1), non-negative.
    k : int or None, default None
        Cut-off; ``None`` uses the whole list.
    n_relevant, judged : optional
        R, as in :func:`recall`; by default the relevant documents in ``rels``.
    rel_threshold : float, default 1
        A document is relevant when its grade is at least this.

    Returns
    -------
    float
        AP in [0, 1]; 0.0 when R = 0 (trec_eval).

    Notes
    -----
    The sum divides by R, the relevant documents of the query, so a relevant document that was
    not retrieved (or lies below k) contributes 0, as the lecture says ("when a relevant
    document is not retrieved at all, the precision value is taken to be 0"). With a cut-off,
    trec_eval's ``map_cut_k`` still divides by R, not by the relevant documents in the top k
    nor by min(k, R): this function does the same, so AP@k can only reach 1 when R <= k.
    Course note 004 ("AP@K") uses the same 1/m. Writing position(r) for the rank of the r-th
    relevant document, AP = (1/R) sum_r r / position(r) (course note 001).

    With R equal to all positives in the list, AP is scikit-learn's ``average_precision_score``
    of the list scored by descending rank: sum_n (R_n - R_{n-1}) P_n (course note 003).
    It is not the lecture's per-query "MAP" (0.28 and 0.254 on the slides): that one
    interpolates, see :func:`interpolated_average_precision`.

    References
    ----------
    .. [1] Manning, Raghavan and Schütze, *Introduction to Information Retrieval*, 8.4, 2008.
    .. [2] trec_eval 10.0, NIST, measures ``map`` and ``map_cut_k``.

    Examples
    --------
    Relevant documents at positions 1, 3 and 6 (course note 001):
    (1/1 + 2/3 + 3/6) / 3 = 0.722.

    >>> round(average_precision([1, 0, 1, 0, 0, 1]), 3)
    0.722

    The lecture's q2 (course 002), relevant at ranks 3, 8, 15, R = 3:
    (1/3 + 2/8 + 3/15) / 3 = 0.261.

    >>> q2 = [0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1]
    >>> round(average_precision(q2, n_relevant=3), 3)
    0.261

    AP@5 of q2 still divides by R = 3: (1/3) / 3 = 0.111.

    >>> round(average_precision(q2, k=5, n_relevant=3), 3)
    0.111
    """
    func = "average_precision"
    grades, relevant, threshold = _binary_input(rels, rel_threshold, func)
    k = check_k(k, func=func)
    n_rel = _n_relevant(grades, threshold, func, n_relevant, judged)
    return _average_precision(relevant, k, n_rel)


def average_precision_breakdown(rels, k=None, *, n_relevant=None, judged=None, rel_threshold=1):
    r"""Worked table of :func:`average_precision`: P@i at every rank, kept where the document is relevant.

    Parameters
    ----------
    rels, k, n_relevant, judged, rel_threshold
        As in :func:`average_precision`.

    Returns
    -------
    pandas.DataFrame
        One row per rank of the top k: ``rank``, ``rel``, ``relevant?``, ``relevant so far``,
        ``P@i`` and ``contribution`` (P@i where relevant, else 0). ``attrs["value"]`` is the sum
        of ``contribution`` divided by R; ``attrs["latex"]`` the formula with this input's
        fractions; ``attrs["n_relevant"]`` is R.

    References
    ----------
    .. [1] trec_eval 10.0, NIST, measure ``map``.

    Examples
    --------
    >>> table = average_precision_breakdown([1, 0, 1, 0, 0, 1])
    >>> table["contribution"].round(3).tolist()
    [1.0, 0.0, 0.667, 0.0, 0.0, 0.5]
    >>> table.attrs["latex"]
    '\\mathrm{AP} = \\frac{1}{3}\\left(\\frac{1}{1} + \\frac{2}{3} + \\frac{3}{6}\\right) = 0.722'
    """
    func = "average_precision_breakdown"
    grades, relevant, threshold = _binary_input(rels, rel_threshold, func)
    k = check_k(k, func=func)
    n_rel = _n_relevant(grades, threshold, func, n_relevant, judged)
    table = _rank_table(grades, relevant, _depth(grades.shape[0], k, pad=False))
    table["P@i"] = table["relevant so far"] / table["rank"]
    table["contribution"] = table["P@i"].where(table["relevant?"], 0.0)
    value = float(table["contribution"].sum() / n_rel) if n_rel else 0.0
    table.attrs["value"] = value
    table.attrs["n_relevant"] = n_rel
    name = rf"\mathrm{{AP{_at(k)}}}"
    if n_rel == 0:
        table.attrs["latex"] = rf"{name} = 0 \quad (\text{{no relevant documents: }} R = 0)"
        return table
    hits = table.loc[table["relevant?"], ["relevant so far", "rank"]].to_numpy()
    terms = [_frac(found, rank) for found, rank in hits]
    table.attrs["latex"] = rf"{name} = \frac{{1}}{{{n_rel}}}\left({_sum_latex(terms)}\right) = {value:.3f}"
    return table


# ------------------------------------------------------- public: precision-recall points


class PrecisionRecallPoints(NamedTuple):
    """P@i and R@i at every rank i of a ranking: the points of its precision-recall curve."""

    rank: np.ndarray
    precision: np.ndarray
    recall: np.ndarray


def precision_recall_points(rels, *, n_relevant=None, judged=None, rel_threshold=1) -> PrecisionRecallPoints:
    r"""Precision and recall after each rank: the raw (non-interpolated) precision-recall curve.

    .. math:: P@i = \frac{1}{i} \sum_{j \le i} \mathrm{rel}(j), \quad
              R@i = \frac{1}{R} \sum_{j \le i} \mathrm{rel}(j)

    Parameters
    ----------
    rels : sequence of float
        Relevance grades in ranked order (``rels[0]`` is rank 1), non-negative.
    n_relevant, judged : optional
        R, as in :func:`recall`; by default the relevant documents in ``rels``.
    rel_threshold : float, default 1
        A document is relevant when its grade is at least this.

    Returns
    -------
    PrecisionRecallPoints
        Named tuple of three new arrays of length ``len(rels)``: ``rank`` (1, 2, ...),
        ``precision`` and ``recall``. Recall is all zeros when R = 0.

    Notes
    -----
    Charts draw these points and, for the interpolated curve, :func:`interpolated_precision`.
    The curve has no single value; its breakdown table reports the final recall.

    References
    ----------
    .. [1] Manning, Raghavan and Schütze, *Introduction to Information Retrieval*, 8.4, 2008.

    Examples
    --------
    Relevant at ranks 1 and 3, R = 4: precision 1/1, 1/2, 2/3; recall 1/4, 1/4, 2/4.

    >>> points = precision_recall_points([1, 0, 1], n_relevant=4)
    >>> points.precision.round(3).tolist(), points.recall.tolist()
    ([1.0, 0.5, 0.667], [0.25, 0.25, 0.5])
    """
    func = "precision_recall_points"
    grades, relevant, threshold = _binary_input(rels, rel_threshold, func)
    n_rel = _n_relevant(grades, threshold, func, n_relevant, judged)
    ranks = np.arange(1, relevant.shape[0] + 1)
    hits = np.cumsum(relevant, dtype=np.int64)
    recall_at = hits / n_rel if n_rel else np.zeros(hits.shape[0])
    return PrecisionRecallPoints(ranks, hits / ranks, recall_at)


def precision_recall_points_breakdown(rels, *, n_relevant=None, judged=None, rel_threshold=1):
    r"""Worked table of :func:`precision_recall_points`: one row per rank with P@i and R@i.

    Parameters
    ----------
    rels, n_relevant, judged, rel_threshold
        As in :func:`precision_recall_points`.

    Returns
    -------
    pandas.DataFrame
        Columns ``rank``, ``rel``, ``relevant?``, ``relevant so far``, ``P@i``, ``R@i``.
        The curve has no natural single value: ``attrs["value"]`` is the final recall (the
        last ``R@i``, 0.0 for an empty list), which equals ``recall(rels, ...)``;
        ``attrs["latex"]`` the final precision and recall.

    References
    ----------
    .. [1] Manning, Raghavan and Schütze, *Introduction to Information Retrieval*, 8.4, 2008.

    Examples
    --------
    >>> table = precision_recall_points_breakdown([1, 0, 1], n_relevant=4)
    >>> table[["P@i", "R@i"]].round(3).values.tolist()
    [[1.0, 0.25], [0.5, 0.25], [0.667, 0.5]]
    >>> table.attrs["value"]
    0.5
    """
    func = "precision_recall_points_breakdown"
    grades, relevant, threshold = _binary_input(rels, rel_threshold, func)
    n_rel = _n_relevant(grades, threshold, func, n_relevant, judged)
    table = _rank_table(grades, relevant, grades.shape[0])
    table["P@i"] = table["relevant so far"] / table["rank"]
    table["R@i"] = table["relevant so far"] / n_rel if n_rel else 0.0
    value = float(table["R@i"].iloc[-1]) if len(table) else 0.0
    table.attrs["value"] = value
    table.attrs["n_relevant"] = n_rel
    if not len(table):
        table.attrs["latex"] = r"R = 0 \quad (\text{empty ranking})"
    else:
        depth, found = len(table), int(table["relevant so far"].iloc[-1])
        r_tex = _frac(found, n_rel) if n_rel else r"0 \ (R = 0)"
        table.attrs["latex"] = rf"P@{depth} = {_frac(found, depth)}, \quad R@{depth} = {r_tex} = {value:.3f}"
    return table


# ------------------------------------------------------- public: interpolated precision


def interpolated_precision(rels, recall_levels=None, *, n_relevant=None, judged=None, rel_threshold=1,
                           rounding="ceil") -> np.ndarray:
    r"""Interpolated precision at recall levels: the best precision at any rank reaching that recall.

    .. math:: P_{\mathrm{interp}}(r) = \max_{i \,:\, R@i \ge r} P@i

    (0 when no rank reaches recall r).

    Parameters
    ----------
    rels : sequence of float
        Relevance grades in ranked order (``rels[0]`` is rank 1), non-negative.
    recall_levels : sequence of float or None, default None
        Levels in [0, 1], in any order; ``None`` gives the 11 standard levels 0.0, 0.1, ..., 1.0.
    n_relevant, judged : optional
        R, as in :func:`recall`; by default the relevant documents in ``rels``.
    rel_threshold : float, default 1
        A document is relevant when its grade is at least this.
    rounding : {"ceil", "floor_plus_0.9", "lround"}, default "ceil"
        How level r becomes c, the relevant documents a rank must have reached (recall
        c / R). ``"ceil"``: c = ceil(r R), the textbook "R@i >= r"; ``"floor_plus_0.9"``:
        c = floor(r R + 0.9) in double arithmetic, trec_eval 9.x exactly (and pytrec_eval,
        which bundles it); ``"lround"``: c = r R rounded half up, trec_eval 10.0.

    Returns
    -------
    numpy.ndarray
        One interpolated precision per level, in the order given; all zeros when R = 0.

    Notes
    -----
    Interpolation makes the precision-recall curve non-increasing: the value at r is the
    precision of the best cut-off from the first rank reaching recall r downwards.

    trec_eval 10.0 changed its ``iprec_at_recall`` (commit 2a9e214): a level becomes a count of
    relevant documents with ``lround(r R)`` rather than 9.x's ``(long)(r R + 0.9)``. So 10.0 may
    use a rank whose recall is *below* r: topic 301 of its test data (R = 474) gives
    ``iprec_at_recall_0.10`` = 0.2098 in 10.0 and 0.2096 in 9.0.8 and the textbook. The 9.x
    rule is close to the textbook's but not equal: it differs when r R has a fractional part in
    (0, 0.1], and where binary rounding puts r R + 0.9 just below an integer: 0.7 x 3 + 0.9 =
    2.9999999999999996 gives c = 2, so 9.x reports at recall 0.7 the precision of a rank whose
    recall is only 2/3. Pick ``rounding`` to match the trec_eval you compare with; the default
    is the textbook. The tolerance of ``"ceil"`` (1e-9) absorbs binary noise in the other
    direction, such as 0.7 x 10 = 7.000000000000001, which must give c = 7.

    References
    ----------
    .. [1] Manning, Raghavan and Schütze, *Introduction to Information Retrieval*, 8.4, 2008.
    .. [2] trec_eval 9.0.8 and 10.0, NIST, measure ``iprec_at_recall``.

    Examples
    --------
    The lecture's q2 (course 002), relevant at ranks 3, 8, 15 with R = 3: recall 1/3 at rank 3
    (P = 1/3), 2/3 at rank 8 (P = 2/8), 1 at rank 15 (P = 3/15).

    >>> q2 = [0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1]
    >>> interpolated_precision(q2, [0.3, 0.4, 0.7], n_relevant=3).round(3).tolist()
    [0.333, 0.25, 0.2]

    trec_eval 10.0 rounds 0.4 x 3 = 1.2 to 1 relevant document and 0.7 x 3 = 2.1 to 2:

    >>> interpolated_precision(q2, [0.3, 0.4, 0.7], n_relevant=3, rounding="lround").round(3).tolist()
    [0.333, 0.333, 0.25]
    """
    func = "interpolated_precision"
    grades, relevant, threshold = _binary_input(rels, rel_threshold, func)
    levels = _check_levels(recall_levels, func)
    rounding = check_choice(rounding, ROUNDINGS, func=func, name="rounding")
    n_rel = _n_relevant(grades, threshold, func, n_relevant, judged)
    return _interpolate(relevant, n_rel, levels, rounding).values


def _interpolation_table(func, rels, levels, n_relevant, judged, rel_threshold, rounding, *, name: str):
    """The per-level table shared by the interpolated breakdowns; value = mean over the levels."""
    import pandas as pd

    grades, relevant, threshold = _binary_input(rels, rel_threshold, func)
    rounding = check_choice(rounding, ROUNDINGS, func=func, name="rounding")
    n_rel = _n_relevant(grades, threshold, func, n_relevant, judged)
    result = _interpolate(relevant, n_rel, levels, rounding)
    reached = result.first_rank > 0
    table = pd.DataFrame({
        "recall level": levels,
        "relevant needed": result.needed,
        "first rank reaching it": pd.array(np.where(reached, result.first_rank, 0), dtype="Int64"),
        "best rank": pd.array(np.where(reached, result.best_rank, 0), dtype="Int64"),
        "interpolated P": result.values,
    })
    # Levels no rank reaches have no rank to show (pd.NA), not rank 0.
    table.loc[~reached, ["first rank reaching it", "best rank"]] = pd.NA
    value = float(table["interpolated P"].mean())
    table.attrs["value"] = value
    table.attrs["n_relevant"] = n_rel
    table.attrs["rounding"] = rounding
    terms = [_num(p) for p in table["interpolated P"]]
    count = len(table)
    table.attrs["latex"] = rf"{name} = \frac{{1}}{{{count}}}\left({_sum_latex(terms)}\right) = {value:.3f}"
    return table


def interpolated_precision_breakdown(rels, recall_levels=None, *, n_relevant=None, judged=None, rel_threshold=1,
                                     rounding="ceil"):
    r"""Worked table of :func:`interpolated_precision`: one row per recall level.

    Parameters
    ----------
    rels, recall_levels, n_relevant, judged, rel_threshold, rounding
        As in :func:`interpolated_precision`.

    Returns
    -------
    pandas.DataFrame
        Columns ``recall level``, ``relevant needed`` (c, from ``rounding``), ``first rank
        reaching it`` (the rank of the c-th relevant document), ``best rank`` (the rank at or
        below it with the highest precision) and ``interpolated P``; ranks are ``<NA>`` for
        levels no rank reaches. ``attrs["value"]`` is the mean of ``interpolated P``, which is
        trec_eval's ``11pt_avg`` for these levels (:func:`eleven_point_precision` for the
        default ones); ``attrs["latex"]`` the mean written out.

    References
    ----------
    .. [1] trec_eval 10.0, NIST, measures ``iprec_at_recall`` and ``11pt_avg``.

    Examples
    --------
    >>> table = interpolated_precision_breakdown([0, 1, 1], [0.5, 1.0])
    >>> table[["recall level", "best rank", "interpolated P"]].round(3).values.tolist()
    [[0.5, 3, 0.667], [1.0, 3, 0.667]]
    """
    func = "interpolated_precision_breakdown"
    levels = _check_levels(recall_levels, func)
    return _interpolation_table(func, rels, levels, n_relevant, judged, rel_threshold, rounding,
                                name=r"\overline{P}_{\mathrm{interp}}")


def eleven_point_precision(rels, *, n_relevant=None, judged=None, rel_threshold=1, rounding="ceil") -> float:
    r"""11-point interpolated average precision: mean interpolated precision at recall 0.0, 0.1, ..., 1.0.

    .. math:: \frac{1}{11} \sum_{r \in \{0, 0.1, \ldots, 1\}} P_{\mathrm{interp}}(r)

    Parameters
    ----------
    rels : sequence of float
        Relevance grades in ranked order (``rels[0]`` is rank 1), non-negative.
    n_relevant, judged : optional
        R, as in :func:`recall`; by default the relevant documents in ``rels``.
    rel_threshold : float, default 1
        A document is relevant when its grade is at least this.
    rounding : {"ceil", "floor_plus_0.9", "lround"}, default "ceil"
        As in :func:`interpolated_precision`: ``"lround"`` matches trec_eval 10.0's
        ``11pt_avg``, ``"floor_plus_0.9"`` trec_eval 9.x's.

    Returns
    -------
    float
        In [0, 1]; 0.0 when R = 0.

    Notes
    -----
    The level 0.0 is reached by every rank, so its interpolated precision is the best precision
    anywhere in the list (1 when rank 1 is relevant). Compare
    :func:`interpolated_average_precision`, the lecture's 10-level variant without 0.0.

    References
    ----------
    .. [1] Manning, Raghavan and Schütze, *Introduction to Information Retrieval*, 8.4, 2008.
    .. [2] trec_eval 10.0, NIST, measure ``11pt_avg``.

    Examples
    --------
    The lecture's q2 (course 002), R = 3: levels 0.0 to 0.3 give 1/3, 0.4 to 0.6 give 2/8,
    0.7 to 1.0 give 3/15: (4/3 + 3/4 + 4/5) / 11 = 0.262.

    >>> q2 = [0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1]
    >>> round(eleven_point_precision(q2, n_relevant=3), 3)
    0.262
    """
    func = "eleven_point_precision"
    grades, relevant, threshold = _binary_input(rels, rel_threshold, func)
    rounding = check_choice(rounding, ROUNDINGS, func=func, name="rounding")
    n_rel = _n_relevant(grades, threshold, func, n_relevant, judged)
    return float(_interpolate(relevant, n_rel, np.array(ELEVEN_RECALL_LEVELS), rounding).values.mean())


def eleven_point_precision_breakdown(rels, *, n_relevant=None, judged=None, rel_threshold=1, rounding="ceil"):
    r"""Worked table of :func:`eleven_point_precision`: one row per recall level 0.0, ..., 1.0.

    Parameters
    ----------
    rels, n_relevant, judged, rel_threshold, rounding
        As in :func:`eleven_point_precision`.

    Returns
    -------
    pandas.DataFrame
        The table of :func:`interpolated_precision_breakdown` at the 11 levels;
        ``attrs["value"]`` is the mean of ``interpolated P``.

    References
    ----------
    .. [1] trec_eval 10.0, NIST, measure ``11pt_avg``.

    Examples
    --------
    >>> table = eleven_point_precision_breakdown([1, 0, 1, 0])
    >>> table["interpolated P"].round(3).tolist()
    [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.667, 0.667, 0.667, 0.667, 0.667]
    >>> table.attrs["latex"]
    '11\\text{pt} = \\frac{1}{11}\\left(1 + 1 + 1 + 1 + 1 + 1 + 0.667 + 0.667 + \\cdots + 0.667 + 0.667\\right) = 0.848'
    """
    func = "eleven_point_precision_breakdown"
    return _interpolation_table(func, rels, np.array(ELEVEN_RECALL_LEVELS), n_relevant, judged, rel_threshold,
                                rounding, name=r"11\text{pt}")


def _lecture_levels(levels, func: str) -> np.ndarray:
    count = _check_level_count(levels, func)
    return np.arange(1, count + 1) / count


def interpolated_average_precision(rels, *, n_relevant=None, judged=None, rel_threshold=1, levels=10,
                                   rounding="ceil") -> float:
    r"""The lecture's per-query "MAP": mean interpolated precision at recall 0.1, 0.2, ..., 1.0.

    .. math:: \frac{1}{10} \sum_{r \in \{0.1, 0.2, \ldots, 1\}} P_{\mathrm{interp}}(r)

    Parameters
    ----------
    rels : sequence of float
        Relevance grades in ranked order (``rels[0]`` is rank 1), non-negative.
    n_relevant, judged : optional
        R, as in :func:`recall`; by default the relevant documents in ``rels``.
    rel_threshold : float, default 1
        A document is relevant when its grade is at least this.
    levels : int, default 10
        Number of equally spaced recall levels 1/levels, 2/levels, ..., 1.
    rounding : {"ceil", "floor_plus_0.9", "lround"}, default "ceil"
        As in :func:`interpolated_precision`.

    Returns
    -------
    float
        In [0, 1]; 0.0 when R = 0.

    Notes
    -----
    The lecture (course 002, "MAP - An example") reads its per-query value off the interpolated
    precision-recall curve at the 10 levels 0.1, ..., 1.0, and calls it MAP:

    - q1 (relevant at ranks 1, 3, 6, 10, 15; R = 10) reaches recall 0.1..0.5 with precisions
      1, 2/3, 1/2, 4/10, 5/15 and never reaches 0.6..1.0: (1 + 0.667 + 0.5 + 0.4 + 0.333)/10
      = 0.290. The slide writes 0.66 and 0.33, sums to 2.89, and prints 0.289 truncated as 0.28.
    - q2 (relevant at ranks 3, 8, 15; R = 3): 3 x 1/3 + 3 x 2/8 + 4 x 3/15 over 10 = 0.255;
      the slide, with 1/3 written 0.33, prints 0.254.

    Both slide values are reproduced by the textbook rule (``rounding="ceil"``), which is the
    rule the slide's rows follow: q2's levels 0.4 to 0.6 take 2/8 from rank 8 (the first rank
    with recall >= 0.4), not 1/3. trec_eval 10.0's ``lround`` would give 1/3 at 0.4 and 2/8 at
    0.7 and 0.8 (0.4 x 3 = 1.2 rounds to 1 relevant document, 2.4 to 2): 0.273 in all.

    Non-interpolated :func:`average_precision` averages the precisions at the R relevant ranks
    instead of the interpolated curve at fixed recall levels. The two agree when R equals the
    number of levels and precision never rises from one relevant rank to a later one: q1 gives
    0.290 both ways. Otherwise they differ: q2's AP is (1/3 + 2/8 + 3/15) / 3 = 0.261, not 0.255.

    References
    ----------
    .. [1] Course lecture 002 "Evaluating IR Systems", slides "MAP - An example".
    .. [2] Manning, Raghavan and Schütze, *Introduction to Information Retrieval*, 8.4, 2008.

    Examples
    --------
    The lecture's q1: (1 + 2/3 + 1/2 + 4/10 + 5/15 + 0 + 0 + 0 + 0 + 0) / 10 = 0.290.

    >>> q1 = [1, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    >>> round(interpolated_average_precision(q1, n_relevant=10), 3)
    0.29

    The lecture's q2: (3 x 1/3 + 3 x 2/8 + 4 x 3/15) / 10 = 0.255.

    >>> q2 = [0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1]
    >>> round(interpolated_average_precision(q2, n_relevant=3), 3)
    0.255
    """
    func = "interpolated_average_precision"
    grades, relevant, threshold = _binary_input(rels, rel_threshold, func)
    grid = _lecture_levels(levels, func)
    rounding = check_choice(rounding, ROUNDINGS, func=func, name="rounding")
    n_rel = _n_relevant(grades, threshold, func, n_relevant, judged)
    return float(_interpolate(relevant, n_rel, grid, rounding).values.mean())


def interpolated_average_precision_breakdown(rels, *, n_relevant=None, judged=None, rel_threshold=1, levels=10,
                                             rounding="ceil"):
    r"""Worked table of :func:`interpolated_average_precision`, like the lecture's "MAP - An example".

    Parameters
    ----------
    rels, n_relevant, judged, rel_threshold, levels, rounding
        As in :func:`interpolated_average_precision`.

    Returns
    -------
    pandas.DataFrame
        The table of :func:`interpolated_precision_breakdown` at the levels 0.1, ..., 1.0;
        ``attrs["value"]`` is the mean of ``interpolated P``.

    References
    ----------
    .. [1] Course lecture 002, slides "MAP - An example".

    Examples
    --------
    The lecture's q1 slide, exactly: (1 + 0.667 + 0.5 + 0.4 + 0.333 + 0 + ... + 0) / 10.

    >>> q1 = [1, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    >>> table = interpolated_average_precision_breakdown(q1, n_relevant=10)
    >>> table["interpolated P"].round(3).tolist()
    [1.0, 0.667, 0.5, 0.4, 0.333, 0.0, 0.0, 0.0, 0.0, 0.0]
    >>> round(table.attrs["value"], 3)
    0.29
    """
    func = "interpolated_average_precision_breakdown"
    grid = _lecture_levels(levels, func)
    return _interpolation_table(func, rels, grid, n_relevant, judged, rel_threshold, rounding,
                                name=r"\mathrm{MAP}_{\mathrm{interp}}")


# ------------------------------------------------------------------ public: reciprocal rank


def reciprocal_rank(rels, k=None, *, rel_threshold=1) -> float:
    r"""Reciprocal rank: 1 / the rank of the first relevant document, 0 if it lies below k.

    .. math:: \mathrm{RR} = \begin{cases} 1 / S_{\mathrm{correct}} & S_{\mathrm{correct}} \le S_h \\
              0 & \text{otherwise} \end{cases}

    Parameters
    ----------
    rels : sequence of float
        Relevance grades in ranked order (``rels[0]`` is rank 1), non-negative.
    k : int or None, default None
        The lecture's rank threshold S_h: a first relevant document below rank k gives 0.
        ``None``: no threshold (trec_eval's ``recip_rank``).
    rel_threshold : float, default 1
        A document is relevant when its grade is at least this.

    Returns
    -------
    float
        RR in [0, 1]; 0.0 when no relevant document is in the top k (or the list is empty).

    Notes
    -----
    Only the first relevant document counts (course note 003: N, N, R, R, R and N, N, R, N, N
    both have RR 1/3). The mean over queries is MRR.

    References
    ----------
    .. [1] E. M. Voorhees, "The TREC-8 Question Answering Track Report", TREC-8, 1999.
    .. [2] Course lecture 002, slides "Mean Reciprocal Rank (MRR)".
    .. [3] trec_eval 10.0, NIST, measure ``recip_rank``.

    Examples
    --------
    The lecture's example (course 002) with S_h = 3: q1's first relevant document is at rank 1,
    RR = 1/1; q2's at rank 3, RR = 1/3; MRR = (1 + 1/3) / 2 = 0.667 (the slide's 0.67).

    >>> q1 = [1, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    >>> q2 = [0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1]
    >>> reciprocal_rank(q1, k=3), round(reciprocal_rank(q2, k=3), 3)
    (1.0, 0.333)

    With S_h = 2, q2's first relevant document lies below the threshold: RR = 0.

    >>> reciprocal_rank(q2, k=2)
    0.0
    """
    func = "reciprocal_rank"
    _, relevant, _ = _binary_input(rels, rel_threshold, func)
    return _reciprocal_rank(relevant, check_k(k, func=func))


def reciprocal_rank_breakdown(rels, k=None, *, rel_threshold=1):
    r"""Worked table of :func:`reciprocal_rank`: the top k and which rank is the first relevant one.

    Parameters
    ----------
    rels, k, rel_threshold
        As in :func:`reciprocal_rank`.

    Returns
    -------
    pandas.DataFrame
        One row per rank of the top k: ``rank``, ``rel``, ``relevant?``, ``relevant so far``,
        ``1/rank``, ``contribution`` (1/rank at the first relevant rank, else 0).
        ``attrs["value"]`` is the sum of ``contribution``; ``attrs["latex"]`` the case taken.

    References
    ----------
    .. [1] Course lecture 002, slides "Mean Reciprocal Rank (MRR)".

    Examples
    --------
    >>> table = reciprocal_rank_breakdown([0, 0, 1, 0, 0, 0, 0, 1], k=3)
    >>> table["contribution"].round(3).tolist()
    [0.0, 0.0, 0.333]
    >>> table.attrs["latex"]
    '\\mathrm{RR} = \\frac{1}{3} = 0.333 \\quad (S_{\\mathrm{correct}} = 3 \\le S_h = 3)'
    """
    func = "reciprocal_rank_breakdown"
    grades, relevant, _ = _binary_input(rels, rel_threshold, func)
    k = check_k(k, func=func)
    table = _rank_table(grades, relevant, _depth(grades.shape[0], k, pad=False))
    table["1/rank"] = 1.0 / table["rank"]
    first = table["relevant?"] & (table["relevant so far"] == 1)
    table["contribution"] = table["1/rank"].where(first, 0.0)
    value = float(table["contribution"].sum())
    table.attrs["value"] = value
    if value:
        rank = int(table.loc[first, "rank"].iloc[0])
        bound = "" if k is None else rf" \quad (S_{{\mathrm{{correct}}}} = {rank} \le S_h = {k})"
        table.attrs["latex"] = rf"\mathrm{{RR}} = {_frac(1, rank)} = {value:.3f}{bound}"
    else:
        later = np.flatnonzero(relevant)
        if k is not None and later.size:
            why = rf"S_{{\mathrm{{correct}}}} = {int(later[0]) + 1} > S_h = {k}"
        else:
            why = r"\text{no relevant document in the list}"
        table.attrs["latex"] = rf"\mathrm{{RR}} = 0 \quad ({why})"
    return table
