"""Rank correlation between two rankings: Spearman's rho, Kendall's tau, Kendall tau distance@K.

``spearman_rho`` and ``kendall_tau`` take two vectors over the *same* items: ``a[j]`` and
``b[j]`` are the positions (or scores) of document j in ranking 1 and ranking 2, as in the
lecture's SRCC exercise. ``kendall_tau_distance`` takes two ranked lists of item ids, which may
hold different items (top-K lists).

Each function has a ``*_breakdown`` twin returning a :class:`~rankviz.metrics.breakdown.Breakdown`
whose table has one row per document (Spearman) or per pair of items (Kendall).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Hashable
from typing import NamedTuple

import numpy as np

from rankviz.metrics._docwords import fill_metric_docstrings
from rankviz.i18n import _
from rankviz.metrics._latex import text
from rankviz.metrics._latex import number as _num
from rankviz.metrics.validation import as_scores, check_choice, check_k, check_positive_number, undefined
from rankviz.metrics.breakdown import Breakdown
from rankviz.registry import KENDALL_VARIANT

__all__ = [
    "average_ranks",
    "pair_signs",
    "PairCounts",
    "pair_counts",
    "kendall_tau_from_pair_counts",
    "spearman_rho",
    "spearman_rho_breakdown",
    "kendall_tau",
    "kendall_tau_breakdown",
    "kendall_tau_a_formula",
    "kendall_tau_distance",
    "kendall_tau_distance_breakdown",
]

KENDALL_VARIANTS = KENDALL_VARIANT.values


# ------------------------------------------------------------------------ validation


def _paired(a, b, func: str):
    x = as_scores(a, func=func, name="a")
    y = as_scores(b, func=func, name="b")
    if x.shape[0] != y.shape[0]:
        raise ValueError(
            f"The 'a' and 'b' parameters of {func} must have the same length (one value per document in each "
            f"ranking). Got {x.shape[0]} and {y.shape[0]} instead."
        )
    return x, y


def _item_labels(items, n: int, func: str) -> list:
    if items is None:
        return [f"d{j + 1}" for j in range(n)]
    labels = list(items.to_numpy() if hasattr(items, "to_numpy") else items)
    if len(labels) != n:
        raise ValueError(
            f"The 'items' parameter of {func} must name one document per value of 'a' and 'b' ({n}). "
            f"Got {len(labels)} names instead."
        )
    return labels




# --------------------------------------------------------------------------- kernels


def _orderable(values, func: str) -> np.ndarray:
    """``values`` as a 1-D float array without NaN (which has no place in an order)."""
    x = np.asarray(values, dtype=np.float64)
    if x.ndim != 1:
        raise ValueError(f"The 'values' parameter of {func} must be 1-D. Got shape {x.shape} instead.")
    if np.isnan(x).any():
        raise ValueError(f"The 'values' parameter of {func} must not hold NaN (it has no order); got NaN at "
                         f"position {int(np.flatnonzero(np.isnan(x))[0]) + 1}.")
    return x


def average_ranks(values) -> np.ndarray:
    """Ranks 1..n of the values, ascending, tied values sharing the mean of the ranks they span.

    The smallest value gets rank 1. A group of t tied values that would occupy ranks
    s + 1, ..., s + t all get (s + 1 + s + t) / 2. This is scipy's ``rankdata(method="average")``;
    Spearman's rho is the Pearson correlation of these ranks and the AUC's rank-sum form uses
    them too.

    Parameters
    ----------
    values : array-like of float, 1-D
        The values to rank (NaN is not allowed: it has no place in an order).

    Returns
    -------
    numpy.ndarray of float64
        ``ranks[j]`` is the rank of ``values[j]``.

    Raises
    ------
    ValueError
        When ``values`` is not 1-D or holds NaN.

    References
    ----------
    .. [1] M. G. Kendall, "The treatment of ties in ranking problems", Biometrika 33, 1945.

    Examples
    --------
    5 is the smallest (rank 1); the two 7s would take ranks 2 and 3 and share (2 + 3) / 2 = 2.5;
    9 is rank 4.

    >>> average_ranks([7, 5, 9, 7]).tolist()
    [2.5, 1.0, 4.0, 2.5]

    Rank grades from the highest down by ranking their negatives: the ideal ranking of grades
    0, 2, 2, 1 puts both 2s at (1 + 2) / 2 = 1.5.

    >>> average_ranks(-np.array([0, 2, 2, 1])).tolist()
    [4.0, 1.5, 1.5, 3.0]
    """
    x = _orderable(values, "average_ranks")
    n = x.shape[0]
    order = np.argsort(x, kind="mergesort")
    sorted_x = x[order]
    starts_group = np.concatenate(([True], sorted_x[1:] != sorted_x[:-1]))
    group = np.cumsum(starts_group) - 1
    starts = np.flatnonzero(starts_group)
    ends = np.concatenate((starts[1:], [n]))
    ranks = np.empty(n, dtype=np.float64)
    ranks[order] = ((starts + 1 + ends) / 2.0)[group]
    return ranks


def _pearson_parts(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """Sums of co-deviations and of squared deviations: Pearson's r = cov / sqrt(var_x var_y)."""
    dx = x - x.mean()
    dy = y - y.mean()
    return float(np.sum(dx * dy)), float(np.sum(dx * dx)), float(np.sum(dy * dy))


def _pearson(x: np.ndarray, y: np.ndarray) -> float:
    covariance, var_x, var_y = _pearson_parts(x, y)
    return covariance / math.sqrt(var_x * var_y)


def pair_signs(values) -> np.ndarray:
    """For every pair of positions i < j, the sign of ``values[j] - values[i]``: 1, -1 or 0 (a tie).

    Pairs come in the order of ``numpy.triu_indices(n, 1)``: (0, 1), (0, 2), ..., (1, 2), ...
    Two sign vectors of the same items give :func:`pair_counts`, hence Kendall's tau.

    Parameters
    ----------
    values : array-like of float, 1-D
        One value (position, score, metric value) per item.

    Returns
    -------
    numpy.ndarray of int8
        n(n - 1)/2 signs.

    Examples
    --------
    Values 0.2, 0.5, 0.5: the pairs (1, 2) and (1, 3) increase, (2, 3) is tied.

    >>> pair_signs([0.2, 0.5, 0.5]).tolist()
    [1, 1, 0]
    """
    x = _orderable(values, "pair_signs")
    n = x.shape[0]
    # Signs straight from two comparisons as int8, then the upper triangle (row-major: the order
    # of triu_indices): several times faster than np.sign of float differences picked with
    # triu_indices' two index arrays, in a few n^2 bytes.
    later = x[None, :]
    signs = (later > x[:, None]).astype(np.int8) - (later < x[:, None])
    return signs[np.triu(np.ones((n, n), dtype=bool), 1)]


class PairCounts(NamedTuple):
    """The pairs of items of two rankings, by kind (every pair is exactly one kind).

    ``tied_a``: tied in ranking a only; ``tied_b``: tied in b only.
    """

    concordant: int
    discordant: int
    tied_a: int
    tied_b: int
    tied_both: int


def pair_counts(signs_a, signs_b) -> PairCounts:
    """Concordant, discordant and tied pairs from two vectors of pair signs (:func:`pair_signs`).

    A pair is concordant when both signs are non-zero and equal, discordant when they are
    non-zero and opposite, tied in a (or b) only when only that sign is 0, tied in both when
    both are 0.

    Parameters
    ----------
    signs_a, signs_b : array-like of int, same length
        The signs (-1, 0, 1) of the same pairs of items in rankings a and b.

    Returns
    -------
    PairCounts
        ``(concordant, discordant, tied_a, tied_b, tied_both)``, ints summing to the number
        of pairs.

    Examples
    --------
    a = 1, 2, 3 and b = 1, 1, 2: pairs (1, 2) tied in b only, (1, 3) and (2, 3) concordant.

    >>> pair_counts(pair_signs([1, 2, 3]), pair_signs([1, 1, 2]))
    PairCounts(concordant=2, discordant=0, tied_a=0, tied_b=1, tied_both=0)
    """
    sx, sy = np.asarray(signs_a), np.asarray(signs_b)
    if sx.shape != sy.shape or sx.ndim != 1:
        raise ValueError(f"The 'signs_a' and 'signs_b' parameters of pair_counts must be 1-D and of the same "
                         f"length (one sign per pair). Got shapes {sx.shape} and {sy.shape} instead.")
    product = sx * sy  # -1, 0 or 1 whatever the integer type
    concordant = int(np.count_nonzero(product > 0))
    discordant = int(np.count_nonzero(product < 0))
    untied = concordant + discordant
    tied_a = int(np.count_nonzero(sy)) - untied  # sign of a is 0, sign of b is not
    tied_b = int(np.count_nonzero(sx)) - untied
    return PairCounts(concordant, discordant, tied_a, tied_b, sx.shape[0] - untied - tied_a - tied_b)


def _pair_counts(x: np.ndarray, y: np.ndarray) -> PairCounts:
    """Pair counts of two value vectors, one row of pairs (i, i + 1..n) at a time: O(n) memory
    for long lists."""
    total = np.zeros(5, dtype=np.int64)
    for i in range(x.shape[0] - 1):
        total += pair_counts(np.sign(x[i + 1:] - x[i]), np.sign(y[i + 1:] - y[i]))
    return PairCounts(*(int(v) for v in total))


def kendall_tau_from_pair_counts(counts, variant="b") -> float:
    r"""Kendall's tau from the counts of the pairs: the one formula every rankviz tau uses.

    .. math::

        \tau_a = \frac{C - D}{C + D + T_a + T_b + T_{ab}}, \qquad
        \tau_b = \frac{C - D}{\sqrt{(C + D + T_a)(C + D + T_b)}}

    C concordant, D discordant, T_a tied in a only, T_b tied in b only, T_ab tied in both
    (the five add up to the n(n - 1)/2 pairs).

    Parameters
    ----------
    counts : PairCounts or sequence of 5 ints >= 0
        ``(concordant, discordant, tied_a, tied_b, tied_both)``, e.g. from :func:`pair_counts`.
    variant : {"b", "a"}, default "b"
        ``"b"`` corrects for ties (scipy's default), ``"a"`` divides by every pair.

    Returns
    -------
    float
        tau in [-1, 1], or NaN when undefined (tau-b: one ranking ties every pair; tau-a: no
        pair). No warning here: the callers say why, in their own words.

    References
    ----------
    .. [1] M. G. Kendall, "The treatment of ties in ranking problems", Biometrika 33, 1945.

    Examples
    --------
    C = 2, D = 0 and one pair tied in b only: tau-b = 2 / sqrt(3 * 2) = 0.816, tau-a = 2 / 3.

    >>> counts = PairCounts(concordant=2, discordant=0, tied_a=0, tied_b=1, tied_both=0)
    >>> round(kendall_tau_from_pair_counts(counts), 3), round(kendall_tau_from_pair_counts(counts, "a"), 3)
    (0.816, 0.667)
    """
    func = "kendall_tau_from_pair_counts"
    check_choice(variant, KENDALL_VARIANTS, func=func, name="variant")
    values = tuple(counts) if not isinstance(counts, (str, bytes)) else ()
    if len(values) != 5 or any(isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Integral) or v < 0
                               for v in values):
        raise ValueError(f"The 'counts' parameter of {func} must hold 5 ints >= 0 (concordant, discordant, "
                         f"tied_a, tied_b, tied_both). Got {counts!r} instead.")
    concordant, discordant, tied_a, tied_b, tied_both = (int(v) for v in values)
    if variant == "a":
        n_pairs = concordant + discordant + tied_a + tied_b + tied_both
        return math.nan if n_pairs == 0 else (concordant - discordant) / n_pairs
    denominator = (concordant + discordant + tied_a) * (concordant + discordant + tied_b)
    return math.nan if denominator == 0 else (concordant - discordant) / math.sqrt(denominator)


def _all_tied(x: np.ndarray) -> bool:
    return bool(np.all(x == x[0]))


def _undefined_reason(x: np.ndarray, y: np.ndarray, func: str) -> str | None:
    if x.shape[0] < 2:
        return f"{func} is undefined for fewer than 2 documents (got {x.shape[0]}); returning NaN."
    if _all_tied(x) or _all_tied(y):
        side = "'a'" if _all_tied(x) else "'b'"
        return f"{func} is undefined when every value of {side} is tied (no order to correlate); returning NaN."
    return None


# -------------------------------------------------------------------- Spearman's rho


def spearman_rho(a, b, *, items=None) -> float:
    r"""Spearman's rank correlation coefficient between two rankings of the same documents.

    .. math:: \rho = 1 - \frac{6 \sum_j (s_{1,j} - s_{2,j})^2}{K (K^2 - 1)}

    where s_{1,j} and s_{2,j} are the ranks of document j in the two rankings and K the number
    of documents. With ties it is the Pearson correlation of the average ranks.

    Parameters
    ----------
    a, b : sequence of float
        ``a[j]`` and ``b[j]``: the position (or score) of document j in ranking 1 and ranking 2.
        Both must point the same way (both positions, or both scores where higher is better).
    {items}

    Returns
    -------
    float
        rho in [-1, 1]: 1 for the same order, -1 for the reversed order.

    Notes
    -----
    Values are turned into ranks 1..K first, ties sharing their average rank (scipy's
    ``rankdata(method="average")``); rho is the Pearson correlation of those ranks, which
    equals the lecture's 1 - 6 sum d^2 / (K(K^2 - 1)) when there are no ties. Undefined
    (fewer than 2 documents, or every value of one side tied): NaN with a RuntimeWarning.
    Different lengths raise ValueError.

    References
    ----------
    .. [1] C. Spearman, "The proof and measurement of association between two things",
       Am. J. Psychol. 15, 1904.
    .. [2] Course lecture 002, "SRCC - class exercise".

    Examples
    --------
    The lecture's exercise (course 002): sum d^2 = 24, so 1 - 6 * 24 / (10 * 99) = 0.855
    (the slide prints 0.854).

    >>> r1 = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    >>> r2 = [2, 3, 1, 5, 4, 7, 8, 10, 6, 9]
    >>> round(spearman_rho(r1, r2), 4)
    0.8545
    """
    func = "spearman_rho"
    x, y = _paired(a, b, func)
    reason = _undefined_reason(x, y, func)
    if reason:
        return undefined(reason)
    return _pearson(average_ranks(x), average_ranks(y))


def spearman_rho_breakdown(a, b, *, items=None):
    r"""Worked table of :func:`spearman_rho`, laid out like the lecture's SRCC exercise.

    {Parameters of spearman_rho}

    Returns
    -------
    Breakdown
        ``table``: one row per document: ``doc``, ``s1``, ``s2`` (the values given), ``rank s1``
        and ``rank s2`` when the values are not already the ranks 1..K (ties get their average
        rank), ``d`` = rank difference and ``d^2``. ``value``: without ties
        1 - 6 sum(d^2) / (K(K^2 - 1)) from the ``d^2`` column; with ties the Pearson correlation
        of the two rank columns (NaN with a RuntimeWarning when undefined). ``latex``: the
        formula used, with numbers. ``details``: ``sum_d2`` (sum(d^2)) and ``ties`` (bool:
        whether either ranking has tied values, i.e. which of the two formulas was used).

    {References of spearman_rho}

    Examples
    --------
    >>> worked = spearman_rho_breakdown([1, 2, 3], [2, 1, 3], items=["x", "y", "z"])
    >>> worked.table.to_dict("list")
    {'doc': ['x', 'y', 'z'], 's1': [1.0, 2.0, 3.0], 's2': [2.0, 1.0, 3.0], 'd': [-1.0, 1.0, 0.0], 'd^2': [1.0, 1.0, 0.0]}
    >>> worked.latex  # 1 - 6 * 2 / (3 * 8) = 0.5
    '\\rho = 1 - \\frac{6 \\sum d^2}{K(K^2 - 1)} = 1 - \\frac{6 \\times 2}{3 \\times (3^2 - 1)} = 0.500'
    """
    import pandas as pd

    func = "spearman_rho_breakdown"
    x, y = _paired(a, b, func)
    labels = _item_labels(items, x.shape[0], func)
    rank_x, rank_y = average_ranks(x), average_ranks(y)
    columns = {"doc": labels, "s1": x, "s2": y}
    already_ranks = np.array_equal(rank_x, x) and np.array_equal(rank_y, y)
    if not already_ranks:
        columns["rank s1"] = rank_x
        columns["rank s2"] = rank_y
    columns["d"] = rank_x - rank_y
    columns["d^2"] = (rank_x - rank_y) ** 2
    table = pd.DataFrame(columns)
    n = len(table)
    sum_d2 = float(table["d^2"].sum())
    reason = _undefined_reason(x, y, func)
    has_ties = np.unique(x).shape[0] < n or np.unique(y).shape[0] < n
    if reason:
        value = undefined(reason)
        why = "K < 2" if n < 2 else text(_("one ranking is all tied"))
        latex = r"\rho " + text(_(" is undefined here")) + rf"\ ({why})"
    elif not has_ties:
        value = 1.0 - 6.0 * sum_d2 / (n * (n * n - 1))
        latex = (
            rf"\rho = 1 - \frac{{6 \sum d^2}}{{K(K^2 - 1)}} = 1 - \frac{{6 \times {_num(sum_d2)}}}"
            rf"{{{n} \times ({n}^2 - 1)}} = {value:.3f}"
        )
    else:
        rx = table["rank s1"].to_numpy() if "rank s1" in table else table["s1"].to_numpy()
        ry = table["rank s2"].to_numpy() if "rank s2" in table else table["s2"].to_numpy()
        covariance, var_x, var_y = _pearson_parts(rx, ry)
        value = _pearson(rx, ry)
        latex = (
            r"\rho = \frac{\sum_j (r_{1,j} - \bar r_1)(r_{2,j} - \bar r_2)}"
            r"{\sqrt{\sum_j (r_{1,j} - \bar r_1)^2 \sum_j (r_{2,j} - \bar r_2)^2}}"
            rf" = \frac{{{_num(covariance)}}}{{\sqrt{{{_num(var_x)} \times {_num(var_y)}}}}} = {value:.3f}"
            r"\quad \text{(ties: Pearson correlation of average ranks; } 1 - \tfrac{6\sum d^2}{K(K^2-1)}"
            rf" = {1.0 - 6.0 * sum_d2 / (n * (n * n - 1)):.3f} \text{{ would be only approximate)}}"
        )
    return Breakdown(table, value, latex, {"sum_d2": sum_d2, "ties": bool(has_ties)})


# --------------------------------------------------------------------- Kendall's tau


def kendall_tau(a, b, variant="b", *, items=None) -> float:
    r"""Kendall's rank correlation tau between two rankings of the same documents (tau-b by default).

    .. math::

        \tau_a = \frac{C - D}{n(n-1)/2}, \qquad
        \tau_b = \frac{C - D}{\sqrt{(C + D + T_a)(C + D + T_b)}}

    C: concordant pairs (both rankings order the two documents the same way), D: discordant
    pairs, T_a: pairs tied in ``a`` only, T_b: pairs tied in ``b`` only.

    Parameters
    ----------
    a, b : sequence of float
        ``a[j]`` and ``b[j]``: the position (or score) of document j in each ranking.
    variant : {"b", "a"}, default "b"
        ``"b"`` corrects for ties (scipy's default); ``"a"`` divides by every pair.
    {items}

    Returns
    -------
    float
        tau in [-1, 1].

    Notes
    -----
    Pairs tied in both rankings count in neither C, D, T_a nor T_b. Without ties tau-a and tau-b
    agree. Undefined (fewer than 2 documents, or one side all tied): NaN with a RuntimeWarning,
    for both variants. Pairs are counted directly, O(n^2) time and O(n) memory: meant for the
    rankings a person reads, not for millions of items.

    References
    ----------
    .. [1] M. G. Kendall, "A new measure of rank correlation", Biometrika 30, 1938.
    .. [2] M. G. Kendall, "The treatment of ties in ranking problems", Biometrika 33, 1945.

    Examples
    --------
    a = 1, 2, 3 and b = 1, 3, 2: pairs (1,2) and (1,3) concordant, (2,3) discordant:
    (2 - 1) / 3 = 0.333.

    >>> round(kendall_tau([1, 2, 3], [1, 3, 2]), 3)
    0.333

    With a tie in b (1, 1, 2): C = 2, D = 0, T_b = 1: tau-b = 2 / sqrt(3 * 2) = 0.816,
    tau-a = 2 / 3 = 0.667.

    >>> round(kendall_tau([1, 2, 3], [1, 1, 2]), 3), round(kendall_tau([1, 2, 3], [1, 1, 2], "a"), 3)
    (0.816, 0.667)
    """
    func = "kendall_tau"
    x, y = _paired(a, b, func)
    check_choice(variant, KENDALL_VARIANTS, func=func, name="variant")
    reason = _undefined_reason(x, y, func)
    if reason:
        return undefined(reason)
    return float(kendall_tau_from_pair_counts(_pair_counts(x, y), variant))


def kendall_tau_breakdown(a, b, variant="b", *, items=None):
    r"""Worked table of :func:`kendall_tau`: one row per pair of documents.

    {Parameters of kendall_tau}

    Returns
    -------
    Breakdown
        ``table``: one row per pair i < j: ``i``, ``j``, ``order in a`` and ``order in b``
        (``"<"``, ``">"`` or ``"="``, comparing i's value with j's), and ``pair``:
        ``"concordant"``, ``"discordant"``, ``"tied in a"``, ``"tied in b"`` or
        ``"tied in both"``. ``value``: tau from the counts of the ``pair`` column (NaN with a
        RuntimeWarning when undefined). ``latex``: the formula with the counts. ``details``:
        ``counts``, a dict of those five counts.

    {References of kendall_tau}

    Examples
    --------
    >>> worked = kendall_tau_breakdown([1, 2, 3], [1, 3, 2], items=["x", "y", "z"])
    >>> worked.table["pair"].tolist()
    ['concordant', 'concordant', 'discordant']
    >>> worked.latex
    '\\tau_b = \\frac{C - D}{\\sqrt{(C + D + T_a)(C + D + T_b)}} = \\frac{2 - 1}{\\sqrt{(2 + 1 + 0)(2 + 1 + 0)}} = 0.333'
    """
    import pandas as pd

    func = "kendall_tau_breakdown"
    x, y = _paired(a, b, func)
    check_choice(variant, KENDALL_VARIANTS, func=func, name="variant")
    labels = _item_labels(items, x.shape[0], func)
    i, j = np.triu_indices(x.shape[0], k=1)  # the pairs in pair_signs' order
    sx, sy = pair_signs(x), pair_signs(y)
    symbol = np.array([">", "=", "<"])  # indexed by sign + 1: value of i vs value of j
    kind = np.where(sx * sy > 0, "concordant", "discordant").astype(object)
    kind[(sx == 0) & (sy != 0)] = "tied in a"
    kind[(sy == 0) & (sx != 0)] = "tied in b"
    kind[(sx == 0) & (sy == 0)] = "tied in both"
    table = pd.DataFrame({
        "i": [labels[t] for t in i],
        "j": [labels[t] for t in j],
        "order in a": symbol[sx.astype(int) + 1],
        "order in b": symbol[sy.astype(int) + 1],
        "pair": kind,
    })
    counts = table["pair"].value_counts()
    c, d, ta, tb, tboth = (int(counts.get(name, 0)) for name in
                           ("concordant", "discordant", "tied in a", "tied in b", "tied in both"))
    details = {"counts": {"concordant": c, "discordant": d, "tied in a": ta, "tied in b": tb, "tied in both": tboth}}
    reason = _undefined_reason(x, y, func)
    if reason:
        latex = r"\tau " + text(_(" is undefined here (fewer than 2 documents, or one ranking all tied)"))
        return Breakdown(table, undefined(reason), latex, details)
    value = kendall_tau_from_pair_counts((c, d, ta, tb, tboth), variant)
    if variant == "a":
        n = x.shape[0]
        latex = rf"\tau_a = \frac{{C - D}}{{n(n-1)/2}} = \frac{{{c} - {d}}}{{{n} \times {n - 1} / 2}} = {value:.3f}"
    else:
        latex = (
            rf"\tau_b = \frac{{C - D}}{{\sqrt{{(C + D + T_a)(C + D + T_b)}}}} = "
            rf"\frac{{{c} - {d}}}{{\sqrt{{({c} + {d} + {ta})({c} + {d} + {tb})}}}} = {value:.3f}"
        )
    return Breakdown(table, float(value), latex, details)


_PAIR_KINDS = ("concordant", "discordant", "tied in a", "tied in b", "tied in both")


def kendall_tau_a_formula(counts) -> str:
    r"""Kendall's tau-a with the pair counts substituted, in plain text for a caption.

    .. math:: \tau_a = \frac{C - D}{n(n-1)/2}

    Every one of the n(n-1)/2 pairs of n documents is exactly one of concordant, discordant,
    tied in a only, tied in b only or tied in both, so the denominator is the sum of the five
    counts.

    Parameters
    ----------
    counts : mapping
        The pair counts of :func:`kendall_tau_breakdown` (its ``details["counts"]``): ints >= 0
        under ``"concordant"``, ``"discordant"``, ``"tied in a"``, ``"tied in b"`` and
        ``"tied in both"``.

    Returns
    -------
    str
        ``"(C − D) / (n(n − 1)/2) = (c − d) / pairs"`` with this input's numbers.

    Notes
    -----
    Only the formula is written out, not its value (the caller shows the value, which is
    undefined when there are no pairs).

    References
    ----------
    .. [1] M. G. Kendall, "A new measure of rank correlation", Biometrika 30, 1938.

    Examples
    --------
    a = 1, 2, 3 and b = 1, 3, 2: C = 2, D = 1 over 3 × 2 / 2 = 3 pairs.

    >>> kendall_tau_a_formula(kendall_tau_breakdown([1, 2, 3], [1, 3, 2]).details["counts"])
    '(C − D) / (n(n − 1)/2) = (2 − 1) / 3'
    """
    func = "kendall_tau_a_formula"
    if not hasattr(counts, "get"):
        raise ValueError(f"The 'counts' parameter of {func} must be a mapping of pair kinds to counts (a "
                         f"kendall_tau_breakdown's details['counts']). Got {type(counts).__name__} instead.")
    values = {}
    for kind in _PAIR_KINDS:
        value = counts.get(kind)
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral) or value < 0:
            raise ValueError(f"The 'counts' parameter of {func} must hold an int >= 0 under {kind!r}. "
                             f"Got {value!r} instead.")
        values[kind] = int(value)
    n_pairs = sum(values.values())
    return f"(C − D) / (n(n − 1)/2) = ({values['concordant']} − {values['discordant']}) / {n_pairs}"


# ------------------------------------------------------ normalized Kendall tau distance


def _top_k_positions(ranking, name: str, k, func: str) -> dict:
    if ranking is None or isinstance(ranking, (str, bytes)):
        raise ValueError(
            f"The '{name}' parameter of {func} must be a sequence of item ids in ranked order. "
            f"Got {ranking!r} instead."
        )
    items = list(ranking.to_numpy() if hasattr(ranking, "to_numpy") else ranking)
    positions: dict = {}
    for rank, item in enumerate(items, start=1):
        if isinstance(item, np.generic):
            item = item.item()
        if not isinstance(item, Hashable):
            raise ValueError(
                f"Item ids in '{name}' of {func} must be hashable (strings or numbers); got {item!r} at rank {rank}."
            )
        if item in positions:
            raise ValueError(
                f"Item ids in '{name}' of {func} must be unique; {item!r} appears at ranks {positions[item]} and {rank}."
            )
        positions[item] = rank
    return {item: rank for item, rank in positions.items() if k is None or rank <= k}


def _pair_penalties(pos_a: dict, pos_b: dict, penalty: float):
    """Every unordered pair of the union with its Fagin-Kumar-Sivakumar K^(p) penalty."""
    union = list(pos_a) + [item for item in pos_b if item not in pos_a]
    rows = []
    for s in range(len(union)):
        for t in range(s + 1, len(union)):
            i, j = union[s], union[t]
            ai, aj, bi, bj = pos_a.get(i), pos_a.get(j), pos_b.get(i), pos_b.get(j)
            in_a = (ai is not None) + (aj is not None)
            in_b = (bi is not None) + (bj is not None)
            if in_a == 2 and in_b == 2:
                case = "both in both lists"
                cost = float((ai < aj) != (bi < bj))
            elif in_a == 2 and in_b == 1 or in_b == 2 and in_a == 1:
                # The list holding only one of them ranks it ahead of the missing one.
                full, partial = ((ai, aj), (bi, bj)) if in_a == 2 else ((bi, bj), (ai, aj))
                present_first = partial[0] is not None  # i is the one present in the partial list
                full_says_i_first = full[0] < full[1]
                case = "both in one list, one in the other"
                cost = float(full_says_i_first != present_first)
            elif in_a == 1 and in_b == 1:
                # Every union item is in some list, so i is in one list only and j in the other.
                case = "each only in a different list"
                cost = 1.0
            else:
                case = "both only in the same list"
                cost = penalty
            rows.append((i, j, ai, aj, bi, bj, case, cost))
    return union, rows


def _check_penalty(penalty, func: str) -> float:
    value = check_positive_number(penalty, func=func, name="penalty", allow_zero=True)
    if value > 1:
        raise ValueError(f"The 'penalty' parameter of {func} must be a number in the range [0, 1]. Got {penalty} instead.")
    return value


def _check_normalized(normalized, func: str) -> bool:
    if not isinstance(normalized, (bool, np.bool_)):
        raise ValueError(
            f"The 'normalized' parameter of {func} must be True or False. Got {normalized!r} instead.")
    return bool(normalized)


def _checked_pair_penalties(ranking_a, ranking_b, k, normalized, penalty, func: str):
    """The validated arguments of :func:`kendall_tau_distance` (or its breakdown, ``func``) and its
    pairs: ``(union, rows, normalized)`` as :func:`_pair_penalties` gives them."""
    k = check_k(k, func=func)
    p = _check_penalty(penalty, func)
    normalized = _check_normalized(normalized, func)
    pos_a = _top_k_positions(ranking_a, "ranking_a", k, func)
    pos_b = _top_k_positions(ranking_b, "ranking_b", k, func)
    return (*_pair_penalties(pos_a, pos_b, p), normalized)


def kendall_tau_distance(ranking_a, ranking_b, k=None, normalized=True, *, penalty=0.5) -> float:
    r"""Normalized Kendall tau distance at K between two ranked lists of item ids.

    .. math::

        K_n@K(\tau_1, \tau_2) = \frac{2}{n(n-1)} \sum_{\{i,j\} \in \mathbb{K}} \bar K_{i,j}(\tau_1, \tau_2)

    over the unordered pairs of the n items in the union of the two top-K lists; the penalty
    \bar K_{i,j} is 1 when the lists order i and j differently (course note 000).

    Parameters
    ----------
    ranking_a, ranking_b : sequence of hashable
        Item ids in ranked order (``ranking_a[0]`` is rank 1). Ids must be unique in each list.
    k : int or None, default None
        Compare the top K of each list; ``None`` the whole lists.
    normalized : bool, default True
        Divide by the n(n-1)/2 pairs of the union; ``False`` returns the raw sum of penalties.
    penalty : float in [0, 1], default 0.5
        p, the penalty for a pair of items that are both in one top-K list and both absent from
        the other (whose order the other list says nothing about).

    Returns
    -------
    float
        The distance: 0 for identical lists, 1 for one list reversed (same items); 0.0 when the
        union holds fewer than 2 items (no pair can disagree).

    Notes
    -----
    Items in only one top-K list follow Fagin, Kumar & Sivakumar's K^(p), with i and j from the
    union:

    1. i and j in both lists: 1 if the lists order them differently, else 0.
    2. i and j both in one list, only i in the other: the other list ranks i above j (j fell
       below K), so the penalty is 1 if the first list ranks j above i, else 0.
    3. i only in one list and j only in the other: 1 (each list ranks its own item higher).
    4. i and j both only in the same list: p. The default p = 1/2 is Fagin et al.'s "neutral"
       choice; K^(p) is a metric for 1/2 <= p <= 1 and a near metric for 0 < p < 1/2.
       p = 0 is the "optimistic" choice (assume the other list agrees).

    With the same items in both lists only case 1 occurs: the classical Kendall tau distance,
    which equals (1 - tau_a) / 2.

    References
    ----------
    .. [1] R. Fagin, R. Kumar and D. Sivakumar, "Comparing top k lists", SODA 2003 / SIAM J.
       Discrete Math. 17(1), 2003.
    .. [2] Course note 000, "Normalized Kendall tau distance at K".

    Examples
    --------
    a b c d vs b a c d: 1 of the 4 * 3 / 2 = 6 pairs is ordered differently: 1/6 = 0.167.

    >>> round(kendall_tau_distance(list("abcd"), list("bacd")), 3)
    0.167

    Top 2 of a b c and a c b: union {a, b, c}; (a,b) case 2, a ahead in both: 0; (a,c) case 2:
    0; (b,c) case 3: 1. So 1 / 3 = 0.333.

    >>> round(kendall_tau_distance(list("abc"), list("acb"), k=2), 3)
    0.333
    """
    union, rows, normalized = _checked_pair_penalties(ranking_a, ranking_b, k, normalized, penalty,
                                                       "kendall_tau_distance")
    total = float(sum(row[-1] for row in rows))
    if not normalized:
        return total
    n = len(union)
    return total / (n * (n - 1) / 2) if n >= 2 else 0.0


def kendall_tau_distance_breakdown(ranking_a, ranking_b, k=None, normalized=True, *, penalty=0.5):
    r"""Worked table of :func:`kendall_tau_distance`: one row per pair of items of the union.

    {Parameters of kendall_tau_distance}

    Returns
    -------
    Breakdown
        ``table``: one row per unordered pair: ``i``, ``j``, ``rank i in a``, ``rank j in a``,
        ``rank i in b``, ``rank j in b`` (missing when the item is not in that top-K list),
        ``case`` (which of the four cases of the Notes applies) and ``penalty``. ``value``: the
        sum of ``penalty`` over n(n-1)/2 (or the raw sum when ``normalized=False``).
        ``latex``: the formula with numbers. ``details``: none.

    {References of kendall_tau_distance}

    Examples
    --------
    >>> worked = kendall_tau_distance_breakdown(["a", "b", "c"], ["b", "a", "c"])
    >>> worked.table["penalty"].tolist()
    [1.0, 0.0, 0.0]
    >>> worked.latex
    'K_n = \\frac{2}{n(n-1)} \\sum \\bar K_{i,j} = \\frac{2 \\times 1}{3 \\times 2} = 0.333'
    """
    import pandas as pd

    union, rows, normalized = _checked_pair_penalties(ranking_a, ranking_b, k, normalized, penalty,
                                                       "kendall_tau_distance_breakdown")
    columns = ["i", "j", "rank i in a", "rank j in a", "rank i in b", "rank j in b", "case", "penalty"]
    table = pd.DataFrame(rows, columns=columns)
    for name in columns[2:6]:
        table[name] = table[name].astype("Int64")  # missing ranks shown as <NA>, present ones as integers
    table["penalty"] = table["penalty"].astype(float)
    total = float(table["penalty"].sum())
    n = len(union)
    cut = "" if k is None else f"@{k}"
    if not normalized:
        value = total
        latex = rf"K{cut} = \sum \bar K_{{i,j}} = {_num(total)}"
    elif n >= 2:
        value = total / (n * (n - 1) / 2)
        latex = (
            rf"K_n{cut} = \frac{{2}}{{n(n-1)}} \sum \bar K_{{i,j}} = "
            rf"\frac{{2 \times {_num(total)}}}{{{n} \times {n - 1}}} = {value:.3f}"
        )
    else:
        value = 0.0
        latex = rf"K_n{cut} = 0 " + text(_(" (fewer than 2 items: no pair to disagree on)"))
    return Breakdown(table, value, latex)


fill_metric_docstrings(globals())  # the {rels} and {Parameters of metric} lines of the docstrings above
