"""Scores judged as a classifier: AUC, the ROC curve, and GAUC (AUC per group, averaged).

``labels`` are 0/1 (or True/False): 1 marks a positive (clicked, relevant) item. ``scores`` are
the model's scores, higher meaning "more likely positive". AUC is the probability that a random
positive is scored above a random negative, ties counting one half (course note 001).

Each has a ``*_breakdown`` twin returning a :class:`~rankviz.metrics.breakdown.Breakdown`: the
worked table (pairs, thresholds or groups), the value, the formula with numbers and details.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import NamedTuple

import numpy as np

from rankviz.metrics._docwords import fill_metric_docstrings
from rankviz.i18n import _
from rankviz.metrics._latex import text
from rankviz.metrics._latex import number as _num
from rankviz.metrics._latex import sum_latex
from rankviz.metrics.validation import as_scores, check_choice, undefined
from rankviz.metrics.breakdown import Breakdown

# One AUC kernel (Mann-Whitney counts per group, ties 1/2) for auc, gauc and the click-log evaluator.
from rankviz.metrics.kernels.auc import auc_values, grouped_auc, weighted_mean
from rankviz.registry import GAUC_WEIGHT

__all__ = [
    "auc",
    "auc_breakdown",
    "roc_curve",
    "roc_curve_breakdown",
    "RocCurve",
    "gauc",
    "gauc_breakdown",
    "GaucResult",
]

# Above this many (positive, negative) pairs the AUC breakdown summarizes per positive.
MAX_PAIR_ROWS = 10_000
# The registry's weights and their aliases ("impressions", the click evaluator's name of "size").
GAUC_WEIGHTS = GAUC_WEIGHT.accepted


# ------------------------------------------------------------------------ validation


def _labels_and_scores(labels, scores, func: str):
    y = as_scores(labels, func=func, name="labels")
    s = as_scores(scores, func=func, name="scores")
    bad = np.flatnonzero((y != 0) & (y != 1))
    if bad.size:
        i = int(bad[0])
        raise ValueError(
            f"labels in 'labels' of {func} must be 0 or 1 (or False/True); got {y[i]:g} at position {i + 1}. "
            f"Turn graded labels into binary ones first, e.g. grade >= 1."
        )
    if y.shape[0] != s.shape[0]:
        raise ValueError(
            f"The 'labels' and 'scores' parameters of {func} must have the same length. "
            f"Got {y.shape[0]} and {s.shape[0]} instead."
        )
    return y.astype(bool), s


def _item_names(items, n: int, func: str) -> list:
    if items is None:
        return list(range(1, n + 1))
    names = list(items.to_numpy() if hasattr(items, "to_numpy") else items)
    if len(names) != n:
        raise ValueError(
            f"The 'items' parameter of {func} must name one item per label ({n}). Got {len(names)} names instead."
        )
    return names


def _one_class_message(func: str, n_pos: int, n_neg: int) -> str:
    return (
        f"{func} is undefined with only one class ({n_pos} positive, {n_neg} negative labels): "
        f"no (positive, negative) pair to compare; returning NaN."
    )


# --------------------------------------------------------------------------- kernels


def _auc_kernel(positive: np.ndarray, scores: np.ndarray) -> float:
    """One list as one group of :func:`rankviz.metrics.kernels.auc.grouped_auc` (Mann-Whitney, ties 1/2)."""
    u, n_pos, n_neg = grouped_auc(np.zeros(positive.shape[0], dtype=np.int64), positive, scores, 1)
    return float(auc_values(u, n_pos, n_neg)[0])




# ------------------------------------------------------------------------------- AUC


def auc(labels, scores, *, items=None) -> float:
    r"""Area under the ROC curve: the probability that a positive outranks a negative.

    .. math::

        \mathrm{AUC} = \frac{1}{|P|\,|N|} \sum_{p \in P} \sum_{n \in N}
        \left(\mathbb{1}[s_p > s_n] + \tfrac{1}{2} \mathbb{1}[s_p = s_n]\right)

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        1 (True) for a positive item, 0 (False) for a negative one.
    scores : sequence of float
        The model's scores; higher means more likely positive.
    {items}

    Returns
    -------
    float
        AUC in [0, 1]: 1 when every positive is scored above every negative, 0.5 for a random
        or constant scorer.

    Notes
    -----
    Computed as the Mann-Whitney U statistic in O(n log n) by the kernel
    :mod:`rankviz.metrics.kernels.auc` (shared with :func:`gauc` and the click-log evaluator):
    sort the scores, and for each run of tied scores holding p positives and n negatives add
    p * (negatives below the run) + p * n / 2; AUC = U / (|P||N|). This equals the pair count above
    with ties as 1/2, the rank-sum formula with tie-averaged ranks, and the trapezoidal area under
    the ROC curve; every term is a whole or half count, so U is exact. Labels must be 0/1: graded labels raise ValueError rather than being guessed.
    With only one class the value is undefined: NaN with a RuntimeWarning (scikit-learn raises).

    References
    ----------
    .. [1] J. A. Hanley and B. J. McNeil, "The meaning and use of the area under a receiver
       operating characteristic (ROC) curve", Radiology 143, 1982.
    .. [2] Course note 001, "AUC/GAUC".

    Examples
    --------
    Positives scored 0.9 and 0.4, negatives 0.5 and 0.4. Of the 2 * 2 pairs, 0.9 beats both,
    0.4 loses to 0.5 and ties 0.4: (1 + 1 + 0 + 0.5) / 4 = 0.625.

    >>> auc([1, 0, 1, 0], [0.9, 0.5, 0.4, 0.4])
    0.625
    """
    func = "auc"
    positive, s = _labels_and_scores(labels, scores, func)
    n_pos = int(positive.sum())
    n_neg = positive.shape[0] - n_pos
    if n_pos == 0 or n_neg == 0:
        return undefined(_one_class_message(func, n_pos, n_neg))
    return _auc_kernel(positive, s)


def auc_breakdown(labels, scores, *, items=None):
    r"""Worked table of :func:`auc`: every (positive, negative) pair, or one row per positive.

    {Parameters of auc}

    Returns
    -------
    Breakdown
        ``table``: when |P| |N| <= 10,000 (``MAX_PAIR_ROWS``), one row per pair with
        ``positive``, ``negative``, ``positive score``, ``negative score``, ``outcome``
        (``"positive higher"``, ``"tie"``, ``"negative higher"``) and ``credit`` (1, 0.5, 0);
        above that, one row per positive with ``positive``, ``score``, ``negatives below``,
        ``negatives tied``, ``negatives above`` and ``credit`` = below + tied / 2. ``value``:
        the sum of ``credit`` / (|P| |N|) (NaN with a RuntimeWarning for one class only).
        ``latex``: that fraction with numbers. ``details``: ``layout``, ``"pairs"`` or
        ``"per positive"``.

    {References of auc}

    Examples
    --------
    >>> worked = auc_breakdown([1, 0, 1, 0], [0.9, 0.5, 0.4, 0.4], items=["a", "b", "c", "d"])
    >>> worked.table[["positive", "negative", "credit"]].values.tolist()
    [['a', 'b', 1.0], ['a', 'd', 1.0], ['c', 'b', 0.0], ['c', 'd', 0.5]]
    >>> worked.latex
    '\\mathrm{AUC} = \\frac{\\#\\{s_p > s_n\\} + \\frac{1}{2}\\#\\{s_p = s_n\\}}{|P|\\,|N|} = \\frac{2 + \\frac{1}{2} \\times 1}{2 \\times 2} = 0.625'
    """
    import pandas as pd

    func = "auc_breakdown"
    positive, s = _labels_and_scores(labels, scores, func)
    names = np.array(_item_names(items, positive.shape[0], func), dtype=object)
    pos_idx, neg_idx = np.flatnonzero(positive), np.flatnonzero(~positive)
    n_pos, n_neg = pos_idx.shape[0], neg_idx.shape[0]
    if n_pos * n_neg <= MAX_PAIR_ROWS:
        p, n = np.repeat(pos_idx, n_neg), np.tile(neg_idx, n_pos)
        difference = np.sign(s[p] - s[n])
        table = pd.DataFrame({
            "positive": names[p],
            "negative": names[n],
            "positive score": s[p],
            "negative score": s[n],
            "outcome": np.array(["negative higher", "tie", "positive higher"])[difference.astype(int) + 1],
            "credit": (difference + 1) / 2.0,
        })
        layout = "pairs"
        higher = int((table["outcome"] == "positive higher").sum())
        ties = int((table["outcome"] == "tie").sum())
    else:
        negatives_sorted = np.sort(s[neg_idx])
        below = np.searchsorted(negatives_sorted, s[pos_idx], side="left")
        not_above = np.searchsorted(negatives_sorted, s[pos_idx], side="right")
        table = pd.DataFrame({
            "positive": names[pos_idx],
            "score": s[pos_idx],
            "negatives below": below,
            "negatives tied": not_above - below,
            "negatives above": n_neg - not_above,
        })
        table["credit"] = table["negatives below"] + table["negatives tied"] / 2.0
        layout = "per positive"
        higher = int(table["negatives below"].sum())
        ties = int(table["negatives tied"].sum())
    formula = (r"\mathrm{AUC} = \frac{\#\{s_p > s_n\} + \frac{1}{2}\#\{s_p = s_n\}}{|P|\,|N|}")
    details = {"layout": layout}
    if n_pos == 0 or n_neg == 0:
        latex = formula + " " + text(_(" is undefined: ")) + rf" |P| = {n_pos},\ |N| = {n_neg}"
        return Breakdown(table, undefined(_one_class_message(func, n_pos, n_neg)), latex, details)
    value = float(table["credit"].sum()) / (n_pos * n_neg)
    latex = formula + rf" = \frac{{{higher} + \frac{{1}}{{2}} \times {ties}}}{{{n_pos} \times {n_neg}}} = {value:.3f}"
    return Breakdown(table, value, latex, details)


# ------------------------------------------------------------------------- ROC curve


class RocCurve(NamedTuple):
    """Points of a ROC curve, unpackable as ``fpr, tpr, thresholds = roc_curve(...)``."""

    fpr: np.ndarray
    tpr: np.ndarray
    thresholds: np.ndarray


def _roc_points(positive: np.ndarray, s: np.ndarray):
    """Cumulative TP and FP counts at each distinct score, from the highest down."""
    order = np.argsort(-s, kind="mergesort")
    sorted_scores, sorted_pos = s[order], positive[order]
    # The last item of each run of equal scores closes a threshold.
    last_of_run = np.concatenate((sorted_scores[1:] != sorted_scores[:-1], [True])) if s.size else np.array([], bool)
    tp = np.cumsum(sorted_pos)[last_of_run]
    fp = np.cumsum(~sorted_pos)[last_of_run]
    thresholds = sorted_scores[last_of_run]
    # Start at (0, 0): a threshold above every score predicts nothing positive (scikit-learn uses inf).
    return (np.concatenate(([0], tp)).astype(np.float64), np.concatenate(([0], fp)).astype(np.float64),
            np.concatenate(([np.inf], thresholds)))


def roc_curve(labels, scores) -> RocCurve:
    r"""The ROC curve: true and false positive rates as the decision threshold falls.

    .. math:: \mathrm{TPR}(t) = \frac{TP(t)}{TP + FN}, \qquad \mathrm{FPR}(t) = \frac{FP(t)}{FP + TN}

    where an item is predicted positive when its score is >= t.

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        1 (True) for a positive item.
    scores : sequence of float
        The model's scores; higher means more likely positive.

    Returns
    -------
    RocCurve
        Named tuple ``(fpr, tpr, thresholds)`` of float arrays, one point per distinct score
        plus a first point (0, 0) at threshold ``inf``; thresholds decrease.

    Notes
    -----
    Every distinct score is a point (scikit-learn's ``drop_intermediate=False``), so a student
    can follow the curve threshold by threshold. Tied scores move the curve diagonally, which
    is why ties count 1/2 in :func:`auc`. With only one class, the rate of the missing class
    is undefined: NaN with a RuntimeWarning (as scikit-learn).

    References
    ----------
    .. [1] T. Fawcett, "An introduction to ROC analysis", Pattern Recognition Letters 27, 2006.
    .. [2] Course note 001: tpr = TP / (TP + FN), fpr = FP / (FP + TN).

    Examples
    --------
    Scores 0.9 (+), 0.5 (-), 0.4 (+), 0.4 (-): thresholds inf, 0.9, 0.5, 0.4.

    >>> fpr, tpr, thresholds = roc_curve([1, 0, 1, 0], [0.9, 0.5, 0.4, 0.4])
    >>> fpr.tolist(), tpr.tolist()
    ([0.0, 0.0, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0])
    >>> thresholds.tolist()
    [inf, 0.9, 0.5, 0.4]
    """
    func = "roc_curve"
    positive, s = _labels_and_scores(labels, scores, func)
    tp, fp, thresholds = _roc_points(positive, s)
    n_pos, n_neg = int(positive.sum()), int((~positive).sum())
    if n_pos == 0 or n_neg == 0:
        undefined(_one_class_message(func, n_pos, n_neg).replace("returning NaN", "its rate is NaN"))
    with np.errstate(invalid="ignore", divide="ignore"):
        tpr = tp / n_pos if n_pos else np.full(tp.shape, np.nan)
        fpr = fp / n_neg if n_neg else np.full(fp.shape, np.nan)
    return RocCurve(fpr, tpr, thresholds)


def roc_curve_breakdown(labels, scores):
    r"""Worked table of :func:`roc_curve`: one row per threshold, with the confusion counts.

    {Parameters of roc_curve}

    Returns
    -------
    Breakdown
        ``table``: one row per threshold (``inf`` first): ``threshold``, ``TP``, ``FP``,
        ``FN``, ``TN``, ``TPR``, ``FPR`` and ``area`` (the trapezoid between this point and the
        previous one). ``value``: the sum of ``area``, the AUC (ties as 1/2, equal to
        :func:`auc`); one class only: NaN with a RuntimeWarning. ``latex``: the sum.
        ``details``: none.

    {References of roc_curve}

    Examples
    --------
    >>> worked = roc_curve_breakdown([1, 0, 1, 0], [0.9, 0.5, 0.4, 0.4])
    >>> worked.table["area"].tolist()  # trapezoids: 0, 0, 0.5 * 0.5, 0.5 * (0.5 + 1) / 2
    [0.0, 0.0, 0.25, 0.375]
    >>> worked.value
    0.625
    """
    import pandas as pd

    func = "roc_curve_breakdown"
    positive, s = _labels_and_scores(labels, scores, func)
    tp, fp, thresholds = _roc_points(positive, s)
    n_pos, n_neg = int(positive.sum()), int((~positive).sum())
    table = pd.DataFrame({"threshold": thresholds, "TP": tp.astype(int), "FP": fp.astype(int),
                          "FN": (n_pos - tp).astype(int), "TN": (n_neg - fp).astype(int)})
    if n_pos == 0 or n_neg == 0:
        table["TPR"] = table["TP"] / n_pos if n_pos else np.nan
        table["FPR"] = table["FP"] / n_neg if n_neg else np.nan
        table["area"] = np.nan
        latex = r"\mathrm{AUC} " + text(_(" is undefined: ")) + rf" |P| = {n_pos},\ |N| = {n_neg}"
        return Breakdown(table, undefined(_one_class_message(func, n_pos, n_neg)), latex)
    table["TPR"] = table["TP"] / n_pos
    table["FPR"] = table["FP"] / n_neg
    previous_fpr = table["FPR"].shift(1, fill_value=0.0)
    previous_tpr = table["TPR"].shift(1, fill_value=0.0)
    table["area"] = (table["FPR"] - previous_fpr) * (table["TPR"] + previous_tpr) / 2.0
    value = float(table["area"].sum())
    terms = [_num(a) for a in table["area"] if a != 0] or ["0"]
    shown = sum_latex(terms)
    latex = (
        r"\mathrm{AUC} = \sum_t (\mathrm{FPR}_t - \mathrm{FPR}_{t-1}) \frac{\mathrm{TPR}_t + \mathrm{TPR}_{t-1}}{2}"
        rf" = {shown} = {value:.3f}"
    )
    return Breakdown(table, value, latex)


# ------------------------------------------------------------------------------ GAUC


@dataclass(frozen=True)
class GaucResult:
    """What :func:`gauc` returns: the value, and which groups made it.

    ``float(result)``, ``round(result, 3)`` and ``f"{result:.3f}"`` give the value, so it can be
    used as a number; ``per_group`` maps each included group to its AUC, ``weights`` to its
    weight, and ``skipped_groups`` lists the groups left out because they hold one class only.
    """

    value: float
    per_group: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    weights: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    skipped_groups: tuple = ()

    def __float__(self) -> float:
        return float(self.value)

    def __round__(self, ndigits=None):
        return round(self.value, ndigits)

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)


def _group_codes(groups, n: int, func: str):
    """(codes, group ids): int codes in order of first appearance, and the ids as Python values."""
    import pandas as pd

    if groups is None or isinstance(groups, (str, bytes)):
        raise ValueError(
            f"The 'groups' parameter of {func} must be a sequence of group ids (user, session, query), "
            f"one per label. Got {groups!r} instead."
        )
    ids = groups.to_numpy() if hasattr(groups, "to_numpy") else groups
    if len(ids) != n:
        raise ValueError(
            f"The 'groups' parameter of {func} must hold one group id per label ({n}). Got {len(ids)} instead."
        )
    try:
        codes, uniques = pd.factorize(pd.Index(list(ids), dtype=object, tupleize_cols=False), use_na_sentinel=False)
    except TypeError:
        position = next(i for i, group in enumerate(ids) if not _hashable(group))
        raise ValueError(
            f"Group ids in 'groups' of {func} must be hashable (strings or numbers); "
            f"got {ids[position]!r} at position {position + 1}."
        ) from None
    names = [u.item() if isinstance(u, np.generic) else u for u in uniques]
    # pandas folds None and NaN into one missing value: name such a group by its first id as given.
    for code in np.flatnonzero(pd.isna(np.asarray(uniques, dtype=object))).tolist():
        names[code] = ids[int(np.argmax(codes == code))]
    return codes.astype(np.int64), names


def _hashable(value) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _group_weight(weights, group, size: int, n_pos: int, func: str) -> float:
    if GAUC_WEIGHT.canonical(weights) == "size":
        return float(size)
    if weights == "positives":
        return float(n_pos)
    if weights == "uniform":
        return 1.0
    try:
        w = weights[group]
    except (KeyError, IndexError, TypeError):
        raise ValueError(f"The 'weights' mapping of {func} has no weight for group {group!r}.") from None
    if isinstance(w, bool) or not isinstance(w, (int, float, np.integer, np.floating)) or not math.isfinite(w) or w < 0:
        raise ValueError(
            f"The 'weights' mapping of {func} must give each group a finite number >= 0; got {w!r} for group {group!r}."
        )
    return float(w)


def _per_group(labels, scores, groups, weights, func: str):
    positive, s = _labels_and_scores(labels, scores, func)
    if isinstance(weights, str):
        check_choice(weights, GAUC_WEIGHTS, func=func, name="weights")
    elif not hasattr(weights, "__getitem__") or not hasattr(weights, "keys"):
        raise ValueError(
            f"The 'weights' parameter of {func} must be one of {', '.join(repr(w) for w in GAUC_WEIGHTS)} "
            f"or a mapping group -> weight. Got {weights!r} instead."
        )
    codes, names = _group_codes(groups, positive.shape[0], func)
    u, n_pos, n_neg = grouped_auc(codes, positive, s, len(names))
    values = auc_values(u, n_pos, n_neg)
    rows = []
    # One row per group (not per item): the weights mapping is read group by group.
    for group, p, q, value in zip(names, n_pos.tolist(), n_neg.tolist(), values.tolist()):
        weight = _group_weight(weights, group, p + q, p, func)
        rows.append((group, p + q, p, q, value, weight, p > 0 and q > 0))
    return rows


def gauc(labels, scores, groups, weights="size") -> GaucResult:
    r"""Group AUC: the AUC of each group (user, session, query), averaged with weights.

    .. math:: \mathrm{GAUC} = \frac{\sum_g w_g \, \mathrm{AUC}_g}{\sum_g w_g}

    over the groups holding both a positive and a negative item.

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        1 (True) for a positive item (e.g. clicked).
    scores : sequence of float
        The model's scores.
    groups : sequence of hashable
        The group of each item, e.g. the user or search session it was shown in.
    weights : {"size", "impressions", "positives", "uniform"} or mapping, default "size"
        w_g: ``"size"`` (alias ``"impressions"``) the number of items of the group, as in
        Zhou et al.'s GAUC weighted by impressions; ``"positives"`` the number of positives
        (clicks); ``"uniform"`` 1 for every group; or a mapping group -> weight >= 0.

    Returns
    -------
    GaucResult
        A frozen dataclass usable as a number (``float(result)``, ``round(result, 3)``,
        ``f"{result:.3f}"``) with ``value``, ``per_group`` (group -> AUC), ``weights``
        (group -> weight) and ``skipped_groups``. It is always this type, whatever the input.

    Notes
    -----
    A group with only positives or only negatives has no AUC: it is left out of the average
    and listed in ``skipped_groups`` (silently dropping it would hide how much data counted).
    If every group is left out, or the included weights sum to 0, GAUC is undefined: NaN with
    a RuntimeWarning. GAUC compares items only within a group, so a model that ranks well for
    each user but mixes users' score scales scores higher than its global AUC (course note 001:
    AUC within each search session, then averaged).

    References
    ----------
    .. [1] G. Zhou et al., "Deep Interest Network for click-through rate prediction", KDD 2018.
    .. [2] Course note 001, "AUC/GAUC".

    Examples
    --------
    User u1: positive 0.9, negative 0.1 (AUC 1); user u2: positive 0.2, negatives 0.3 and 0.1
    (AUC 1/2); user u3 has only a negative and is skipped. Weighted by size:
    (2 * 1 + 3 * 0.5) / (2 + 3) = 0.7.

    >>> result = gauc([1, 0, 1, 0, 0, 0], [0.9, 0.1, 0.2, 0.3, 0.1, 0.5],
    ...               ["u1", "u1", "u2", "u2", "u2", "u3"])
    >>> round(result, 3), result.skipped_groups
    (0.7, ('u3',))
    >>> round(gauc([1, 0, 1, 0, 0, 0], [0.9, 0.1, 0.2, 0.3, 0.1, 0.5],
    ...            ["u1", "u1", "u2", "u2", "u2", "u3"], weights="uniform"), 3)  # (1 + 0.5) / 2
    0.75
    """
    func = "gauc"
    rows = _per_group(labels, scores, groups, weights, func)
    included = [row for row in rows if row[6]]
    skipped = tuple(row[0] for row in rows if not row[6])
    total_weight = sum(row[5] for row in included)
    per_group = MappingProxyType({row[0]: row[4] for row in included})
    used_weights = MappingProxyType({row[0]: row[5] for row in included})
    if not included or total_weight == 0:
        value = undefined(
            f"{func} is undefined: no group holds both a positive and a negative item with a weight > 0 "
            f"({len(rows)} groups, {len(skipped)} with one class only); returning NaN."
        )
    else:
        value = weighted_mean([row[4] for row in included], [row[5] for row in included])
    return GaucResult(value=value, per_group=per_group, weights=used_weights, skipped_groups=skipped)


def gauc_breakdown(labels, scores, groups, weights="size"):
    r"""Worked table of :func:`gauc`: one row per group.

    {Parameters of gauc}

    Returns
    -------
    Breakdown
        ``table``: one row per group, in order of first appearance: ``group``, ``n``,
        ``positives``, ``negatives``, ``auc`` (NaN when the group has one class), ``weight``
        and ``included``. ``value``: sum(weight * auc) / sum(weight) over the included rows
        (NaN with a RuntimeWarning when no group is included). ``latex``: the weighted mean
        with numbers. ``details``: ``skipped_groups``, a tuple of the groups left out.

    {References of gauc}

    Examples
    --------
    >>> worked = gauc_breakdown([1, 0, 1, 0, 0, 0], [0.9, 0.1, 0.2, 0.3, 0.1, 0.5],
    ...                         ["u1", "u1", "u2", "u2", "u2", "u3"])
    >>> worked.table[["group", "auc", "weight", "included"]].values.tolist()
    [['u1', 1.0, 2.0, True], ['u2', 0.5, 3.0, True], ['u3', nan, 1.0, False]]
    >>> worked.details["skipped_groups"]
    ('u3',)
    >>> worked.latex
    '\\mathrm{GAUC} = \\frac{\\sum_g w_g \\mathrm{AUC}_g}{\\sum_g w_g} = \\frac{2 \\times 1 + 3 \\times 0.5}{2 + 3} = 0.700'
    """
    import pandas as pd

    func = "gauc_breakdown"
    rows = _per_group(labels, scores, groups, weights, func)
    table = pd.DataFrame(rows, columns=["group", "n", "positives", "negatives", "auc", "weight", "included"])
    table["included"] = table["included"].astype(bool)
    used = table[table["included"]]
    total_weight = float(used["weight"].sum())
    details = {"skipped_groups": tuple(table.loc[~table["included"], "group"])}
    formula = r"\mathrm{GAUC} = \frac{\sum_g w_g \mathrm{AUC}_g}{\sum_g w_g}"
    if used.empty or total_weight == 0:
        value = undefined(
            f"{func} is undefined: no group holds both a positive and a negative item with a weight > 0; returning NaN."
        )
        return Breakdown(table, value, formula + " " + text(_(" is undefined: no group has both classes")), details)
    value = weighted_mean(used["auc"], used["weight"])
    products = [rf"{_num(w)} \times {_num(a)}" for w, a in zip(used["weight"], used["auc"])]
    weights_shown = [_num(w) for w in used["weight"]]
    if len(products) > 10:
        products, weights_shown = products[:10] + [r"\cdots"], weights_shown[:10] + [r"\cdots"]
    latex = formula + rf" = \frac{{{' + '.join(products)}}}{{{' + '.join(weights_shown)}}} = {value:.3f}"
    return Breakdown(table, value, latex, details)


fill_metric_docstrings(globals())  # the {rels} and {Parameters of metric} lines of the docstrings above
