"""Binary-relevance metrics: P@k, R@k, Hit@k, F_beta, R-precision, AP, RR.

Every function takes ``rels``, the relevance grades in ranked order (``rels[0]`` is rank 1), and
counts a document as relevant when its grade is ``>= rel_threshold`` (default 1, as trec_eval's
``-l``). ``k=None`` means the whole list.

Metrics that divide by R, the number of relevant documents of the query (recall, F, R-precision,
AP), take it from ``n_relevant`` when given, else from ``judged`` (the grades of every judged
document of the query, retrieved or not), else from the list itself, which is only right when
every relevant document was retrieved. R = 0 gives 0.0 (trec_eval's policy).

Conventions shared with trec_eval: a cut-off k beyond the end of the list counts the missing ranks
as non-relevant (P@10 of a 6-document list divides by 10), and AP@k divides by R, not by the
relevant documents within the top k.

Each value is computed by the kernel :func:`rankviz.evaluate` uses
(:mod:`rankviz.metrics.kernels.binary`), scoring the ranking as a one-list
:class:`~rankviz.metrics.kernels.context.BatchContext` (:mod:`rankviz.metrics.binary_input`).
Each metric has a ``*_breakdown`` twin returning the worked table of a lecture exercise as a
:class:`~rankviz.metrics.breakdown.Breakdown`: its ``table`` is built from that context's arrays,
its ``value`` is the kernel's, with ``latex`` (the formula with numbers) and ``details`` (R, for
the metrics that divide by it). The precision-recall family (interpolated precision, 11-point and
interpolated AP) lives in :mod:`rankviz.metrics.precision_recall`.
"""

from __future__ import annotations

import numpy as np

from rankviz.metrics._docwords import fill_metric_docstrings
from rankviz.metrics._latex import fraction as _frac
from rankviz.metrics._latex import number as _num
from rankviz.metrics._latex import sum_latex, text
from rankviz.metrics.validation import check_k, check_positive_number
from rankviz.i18n import _
from rankviz.metrics.binary_input import BINARY_HEADERS, binary_grades, binary_ranking, cutoff_suffix, rank_table
from rankviz.metrics.breakdown import Breakdown, by_role
from rankviz.metrics.kernels import binary as binary_kernels

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
    "reciprocal_rank",
    "reciprocal_rank_breakdown",
]


def _score(kernel, rels, k, rel_threshold, func: str, *, n_relevant=None, judged=None, **params) -> float:
    """The value of a binary ``kernel`` at cut-off ``k`` on the validated ranking (the arguments
    named in errors as ``func``'s)."""
    grades, threshold = binary_grades(rels, rel_threshold, func=func)
    k = check_k(k, func=func)
    ranking = binary_ranking(grades, threshold, func=func, n_relevant=n_relevant, judged=judged)
    return ranking.score(kernel, k, **params)


def _check_beta(beta, func: str) -> float:
    # The lecture allows any non-negative beta; beta = 0 reduces F to precision.
    return check_positive_number(beta, func=func, name="beta", allow_zero=True)


def _worked(table, value, latex, details=None, **headers) -> Breakdown:
    """The Breakdown of a table whose columns are named by role: headers in the language in force
    (:data:`BINARY_HEADERS`, and ``headers`` for a role whose header depends on the call, F_β's)."""
    shown, roles = by_role(table, {**BINARY_HEADERS, **headers})
    return Breakdown(shown, value, latex, details or {}, roles)


def _no_relevant() -> str:
    return text(_("no relevant documents:") + " ") + "R = 0"


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
    {rels}
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
    # k=None is the kernel's set precision: it divides by the length of the list.
    return _score(binary_kernels.precision, rels, k, rel_threshold, "precision")


def precision_breakdown(rels, k=None, *, rel_threshold=1):
    r"""Worked table of :func:`precision`: one row per rank with the running P@i.

    {Parameters of precision}

    Returns
    -------
    Breakdown
        ``table``: rows for ranks 1..k (1..len(rels) for ``k=None``), including ranks past the
        end of the list (``rel`` NaN, not relevant); columns ``rank``, ``rel``, ``relevant?``,
        ``relevant so far``, ``P@i``. ``value``: the relevant count of the table over its number
        of rows, :func:`precision`'s value. ``latex``: the fraction. ``details``: none.

    {References of precision}

    Examples
    --------
    >>> worked = precision_breakdown([1, 0, 1], k=5)
    >>> worked.table["P@i"].round(3).tolist()
    [1.0, 0.5, 0.667, 0.5, 0.4]
    >>> worked.latex
    'P@5 = \\frac{2}{5} = 0.400'
    """
    func = "precision_breakdown"
    grades, threshold = binary_grades(rels, rel_threshold, func=func)
    k = check_k(k, func=func)
    ranking = binary_ranking(grades, threshold, func=func)
    table = rank_table(ranking, _depth(grades.shape[0], k, pad=True))
    table["precision"] = table["relevant_so_far"] / table["rank"]
    value = ranking.score(binary_kernels.precision, k)
    depth, found = len(table), int(ranking.context.relevant_in_top(threshold, k)[0])
    if depth:
        latex = rf"P{cutoff_suffix(k)} = {_frac(found, depth)} = {value:.3f}"
    else:
        latex = r"P = 0 \quad (" + text(_("empty ranking")) + ")"
    return _worked(table, value, latex)


def recall(rels, k=None, *, n_relevant=None, judged=None, rel_threshold=1) -> float:
    r"""Recall at k: the fraction of the query's R relevant documents found in the top k.

    .. math:: R@k = \frac{1}{R} \sum_{i=1}^{k} \mathrm{rel}(i)

    Parameters
    ----------
    {rels}
    k : int or None, default None
        Cut-off; ``None`` uses the whole list (trec_eval's ``set_recall``).
    n_relevant : int or None, default None
        R, the number of relevant documents of the query in the collection.
    judged : sequence of float or None, default None
        Grades of every judged document of the query (retrieved ones included); R is the
        number of relevant grades in it. Used when ``n_relevant`` is None.
    {rel_threshold}

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
    return _score(binary_kernels.recall, rels, k, rel_threshold, "recall", n_relevant=n_relevant, judged=judged)


def recall_breakdown(rels, k=None, *, n_relevant=None, judged=None, rel_threshold=1):
    r"""Worked table of :func:`recall`: one row per rank with the running R@i.

    {Parameters of recall}

    Returns
    -------
    Breakdown
        ``table``: rows for the ranks of the top k that exist; columns ``rank``, ``rel``,
        ``relevant?``, ``relevant so far``, ``R@i``. ``value``: the relevant count of the table
        over R, :func:`recall`'s value. ``latex``: the fraction. ``details``: ``n_relevant`` (R).

    {References of recall}

    Examples
    --------
    >>> worked = recall_breakdown([1, 0, 1, 0], n_relevant=4)
    >>> worked.table["R@i"].tolist()
    [0.25, 0.25, 0.5, 0.5]
    >>> worked.latex, worked.details["n_relevant"]
    ('R = \\frac{2}{4} = 0.500', 4)
    """
    func = "recall_breakdown"
    grades, threshold = binary_grades(rels, rel_threshold, func=func)
    k = check_k(k, func=func)
    ranking = binary_ranking(grades, threshold, func=func, n_relevant=n_relevant, judged=judged)
    n_rel = ranking.n_relevant
    table = rank_table(ranking, _depth(grades.shape[0], k, pad=False))
    table["recall"] = table["relevant_so_far"] / n_rel if n_rel else 0.0
    value = ranking.score(binary_kernels.recall, k)
    found = int(ranking.context.relevant_in_top(threshold, k)[0])
    if n_rel:
        latex = rf"R{cutoff_suffix(k)} = {_frac(found, n_rel)} = {value:.3f}"
    else:
        latex = rf"R{cutoff_suffix(k)} = 0 \quad ({_no_relevant()})"
    return _worked(table, value, latex, {"n_relevant": n_rel})


# ------------------------------------------------------------------------ public: Hit@k


def hit(rels, k=None, *, rel_threshold=1) -> float:
    r"""Hit at k (Accuracy@K, success@k): 1 if any of the top k documents is relevant, else 0.

    .. math:: \mathrm{Hit@}k = \mathbb{1}\left[\sum_{i=1}^{k} \mathrm{rel}(i) > 0\right]

    Parameters
    ----------
    {rels}
    {k}
    {rel_threshold}

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
    return _score(binary_kernels.success, rels, k, rel_threshold, "hit")


def hit_breakdown(rels, k=None, *, rel_threshold=1):
    r"""Worked table of :func:`hit`: the top k with their relevance.

    {Parameters of hit}

    Returns
    -------
    Breakdown
        ``table``: columns ``rank``, ``rel``, ``relevant?``, ``relevant so far``. ``value``: 1.0
        when any ``relevant?`` is true, else 0.0. ``latex``: names the first relevant rank.
        ``details``: none.

    {References of hit}

    Examples
    --------
    >>> hit_breakdown([0, 0, 1], k=3).latex
    '\\mathrm{Hit@3} = 1 \\quad (\\text{first relevant document at rank 3})'
    """
    func = "hit_breakdown"
    grades, threshold = binary_grades(rels, rel_threshold, func=func)
    k = check_k(k, func=func)
    ranking = binary_ranking(grades, threshold, func=func)
    table = rank_table(ranking, _depth(grades.shape[0], k, pad=False))
    value = ranking.score(binary_kernels.success, k)
    name = rf"\mathrm{{Hit{cutoff_suffix(k)}}}"
    if value:
        first = int(ranking.context.first_relevant_rank(threshold)[0])
        why = text(_("first relevant document at rank {rank}"), rank=first)
        latex = rf"{name} = 1 \quad ({why})"
    else:
        none = _("no relevant document in the list") if k is None else _("no relevant document in the top {k}")
        latex = rf"{name} = 0 \quad ({text(none, k=k)})"
    return _worked(table, value, latex)


# ------------------------------------------------------------------------ public: F_beta


def f_beta(rels, k=None, *, beta=1.0, n_relevant=None, judged=None, rel_threshold=1) -> float:
    r"""F-measure at k: the weighted harmonic mean of P@k and R@k.

    .. math:: F_\beta = (1 + \beta^2) \frac{P \cdot R}{\beta^2 P + R}

    Parameters
    ----------
    {rels}
    k : int or None, default None
        Cut-off for both P and R; ``None`` uses the whole list (trec_eval's ``set_F``).
    beta : float, default 1.0
        Weight of recall relative to precision, >= 0: ``beta=1`` is F1 (balanced),
        ``beta=2`` F2 (recall weighted higher), ``beta=0.5`` F0.5 (precision weighted higher).
    n_relevant, judged : optional
        R for the recall, as in :func:`recall`.
    {rel_threshold}

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
    return _score(binary_kernels.f_beta, rels, k, rel_threshold, "f_beta", n_relevant=n_relevant, judged=judged,
                  beta=_check_beta(beta, "f_beta"))


def f_beta_breakdown(rels, k=None, *, beta=1.0, n_relevant=None, judged=None, rel_threshold=1):
    r"""Worked table of :func:`f_beta`: P@i, R@i and F at every rank down to k.

    {Parameters of f_beta}

    Returns
    -------
    Breakdown
        ``table``: rows for ranks 1..k (padded past the end of the list, as P@k counts those
        ranks); columns ``rank``, ``rel``, ``relevant?``, ``relevant so far``, ``P@i``, ``R@i``
        and ``F<beta>@i`` (``F1@i``, ``F2@i``, ``F0.5@i``...). ``value``: the F of the last row,
        :func:`f_beta`'s value. ``latex``: the formula with that row's P and R. ``details``:
        ``n_relevant`` (R).

    {References of f_beta}

    Examples
    --------
    >>> worked = f_beta_breakdown([1, 0, 1, 0], n_relevant=4)
    >>> list(worked.table.columns)
    ['rank', 'rel', 'relevant?', 'relevant so far', 'P@i', 'R@i', 'F1@i']
    >>> worked.value  # P = 2/4, R = 2/4
    0.5
    """
    func = "f_beta_breakdown"
    grades, threshold = binary_grades(rels, rel_threshold, func=func)
    k = check_k(k, func=func)
    beta = _check_beta(beta, func)
    ranking = binary_ranking(grades, threshold, func=func, n_relevant=n_relevant, judged=judged)
    n_rel = ranking.n_relevant
    table = rank_table(ranking, _depth(grades.shape[0], k, pad=True))
    table["precision"] = table["relevant_so_far"] / table["rank"]
    table["recall"] = table["relevant_so_far"] / n_rel if n_rel else 0.0
    # The kernels' one F formula, row by row; the last row is the value.
    f_header = f"F{beta:g}@i"
    table["f"] = binary_kernels.f_measure(table["precision"].to_numpy(), table["recall"].to_numpy(), beta * beta)
    value = ranking.score(binary_kernels.f_beta, k, beta=beta)
    details = {"n_relevant": n_rel}
    b = _num(beta)
    name = rf"F_{{{b}}}{cutoff_suffix(k)}"
    if not len(table):
        empty = text(_("empty ranking"))
        return _worked(table, value, rf"{name} = 0 \quad ({empty})", details, f=f_header)
    depth, found = len(table), int(table["relevant_so_far"].iloc[-1])
    p_tex = _frac(found, depth)
    r_tex = _frac(found, n_rel) if n_rel else "0"
    if value == 0:
        formula = rf"{name} = 0 \quad (P = {p_tex},\ R = {r_tex},\ P + R = 0)"
    else:
        formula = (rf"P = {p_tex},\ R = {r_tex}: \quad {name} = "
                   rf"\frac{{(1 + {b}^2) \cdot {p_tex} \cdot {r_tex}}}{{{b}^2 \cdot {p_tex} + {r_tex}}} = {value:.3f}")
    return _worked(table, value, formula, details, f=f_header)


# ---------------------------------------------------------------------- public: R-precision


def r_precision(rels, *, n_relevant=None, judged=None, rel_threshold=1) -> float:
    r"""R-precision: precision at rank R, R being the number of relevant documents of the query.

    .. math:: \mathrm{R\text{-}Prec} = P@R = \frac{1}{R} \sum_{i=1}^{R} \mathrm{rel}(i)

    Parameters
    ----------
    {rels, R, rel_threshold}

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
    grades, threshold = binary_grades(rels, rel_threshold, func=func)
    ranking = binary_ranking(grades, threshold, func=func, n_relevant=n_relevant, judged=judged)
    return ranking.score(binary_kernels.r_precision)


def r_precision_breakdown(rels, *, n_relevant=None, judged=None, rel_threshold=1):
    r"""Worked table of :func:`r_precision`: ranks 1..R.

    {Parameters of r_precision}

    Returns
    -------
    Breakdown
        ``table``: rows for ranks 1..R (padded past the end of the list), columns ``rank``,
        ``rel``, ``relevant?``, ``relevant so far``, ``P@i``. ``value``: the relevant count of
        the table over R (0.0 when R = 0, empty table). ``latex``: the fraction. ``details``:
        ``n_relevant`` (R).

    {References of r_precision}

    Examples
    --------
    >>> r_precision_breakdown([1, 0, 1, 0], n_relevant=3).latex
    '\\mathrm{R\\text{-}Prec} = P@3 = \\frac{2}{3} = 0.667'
    """
    func = "r_precision_breakdown"
    grades, threshold = binary_grades(rels, rel_threshold, func=func)
    ranking = binary_ranking(grades, threshold, func=func, n_relevant=n_relevant, judged=judged)
    n_rel = ranking.n_relevant
    table = rank_table(ranking, n_rel)
    table["precision"] = table["relevant_so_far"] / table["rank"]
    value = ranking.score(binary_kernels.r_precision)
    found = int(ranking.context.relevant_in_top(threshold, n_rel)[0])
    if n_rel:
        latex = rf"\mathrm{{R\text{{-}}Prec}} = P@{n_rel} = {_frac(found, n_rel)} = {value:.3f}"
    else:
        latex = rf"\mathrm{{R\text{{-}}Prec}} = 0 \quad ({_no_relevant()})"
    return _worked(table, value, latex, {"n_relevant": n_rel})


# ------------------------------------------------------------------- public: AP (trec map)


def average_precision(rels, k=None, *, n_relevant=None, judged=None, rel_threshold=1) -> float:
    r"""Average precision (non-interpolated): the mean of P@i over the ranks i of relevant documents.

    .. math:: \mathrm{AP@}k = \frac{1}{R} \sum_{i=1}^{k} P@i \cdot \mathrm{rel}(i)

    Parameters
    ----------
    {rels}
    {k}
    {R}
    {rel_threshold}

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
    return _score(binary_kernels.average_precision, rels, k, rel_threshold, "average_precision",
                  n_relevant=n_relevant, judged=judged)


def average_precision_breakdown(rels, k=None, *, n_relevant=None, judged=None, rel_threshold=1):
    r"""Worked table of :func:`average_precision`: P@i at every rank, kept where the document is relevant.

    {Parameters of average_precision}

    Returns
    -------
    Breakdown
        ``table``: one row per rank of the top k: ``rank``, ``rel``, ``relevant?``,
        ``relevant so far``, ``P@i`` and ``contribution`` (P@i where relevant, else 0).
        ``value``: the sum of ``contribution``, added in rank order as the kernel (and
        trec_eval) adds, divided by R: :func:`average_precision`'s value. ``latex``: the formula
        with this input's fractions. ``details``: ``n_relevant`` (R).

    {References of average_precision}

    Examples
    --------
    >>> worked = average_precision_breakdown([1, 0, 1, 0, 0, 1])
    >>> worked.table["contribution"].round(3).tolist()
    [1.0, 0.0, 0.667, 0.0, 0.0, 0.5]
    >>> worked.latex
    '\\mathrm{AP} = \\frac{1}{3}\\left(\\frac{1}{1} + \\frac{2}{3} + \\frac{3}{6}\\right) = 0.722'
    """
    func = "average_precision_breakdown"
    grades, threshold = binary_grades(rels, rel_threshold, func=func)
    k = check_k(k, func=func)
    ranking = binary_ranking(grades, threshold, func=func, n_relevant=n_relevant, judged=judged)
    n_rel, ctx = ranking.n_relevant, ranking.context
    table = rank_table(ranking, _depth(grades.shape[0], k, pad=False))
    table["precision"] = table["relevant_so_far"] / table["rank"]
    # The kernel's terms: the precision at each relevant rank within the top k.
    ranks, found = ctx.relevant_rank(threshold), ctx.relevant_so_far(threshold)
    inside = ranks <= len(table)
    contribution = np.zeros(len(table))
    contribution[ranks[inside] - 1] = ctx.precision_at_relevant(threshold)[inside]
    table["contribution"] = contribution
    value = ranking.score(binary_kernels.average_precision, k)
    details = {"n_relevant": n_rel}
    name = rf"\mathrm{{AP{cutoff_suffix(k)}}}"
    if n_rel == 0:
        return _worked(table, value, rf"{name} = 0 \quad ({_no_relevant()})", details)
    terms = [_frac(count, rank) for count, rank in zip(found[inside], ranks[inside])]
    latex = rf"{name} = \frac{{1}}{{{n_rel}}}\left({sum_latex(terms)}\right) = {value:.3f}"
    return _worked(table, value, latex, details)


# ------------------------------------------------------------------ public: reciprocal rank


def reciprocal_rank(rels, k=None, *, rel_threshold=1) -> float:
    r"""Reciprocal rank: 1 / the rank of the first relevant document, 0 if it lies below k.

    .. math:: \mathrm{RR} = \begin{cases} 1 / S_{\mathrm{correct}} & S_{\mathrm{correct}} \le S_h \\
              0 & \text{otherwise} \end{cases}

    Parameters
    ----------
    {rels}
    k : int or None, default None
        The lecture's rank threshold S_h: a first relevant document below rank k gives 0.
        ``None``: no threshold (trec_eval's ``recip_rank``).
    {rel_threshold}

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
    return _score(binary_kernels.reciprocal_rank, rels, k, rel_threshold, "reciprocal_rank")


def reciprocal_rank_breakdown(rels, k=None, *, rel_threshold=1):
    r"""Worked table of :func:`reciprocal_rank`: the top k and which rank is the first relevant one.

    {Parameters of reciprocal_rank}

    Returns
    -------
    Breakdown
        ``table``: one row per rank of the top k: ``rank``, ``rel``, ``relevant?``,
        ``relevant so far``, ``1/rank``, ``contribution`` (1/rank at the first relevant rank,
        else 0). ``value``: the sum of ``contribution``. ``latex``: the case taken.
        ``details``: none.

    {References of reciprocal_rank}

    Examples
    --------
    >>> worked = reciprocal_rank_breakdown([0, 0, 1, 0, 0, 0, 0, 1], k=3)
    >>> worked.table["contribution"].round(3).tolist()
    [0.0, 0.0, 0.333]
    >>> worked.latex
    '\\mathrm{RR} = \\frac{1}{3} = 0.333 \\quad (S_{\\mathrm{correct}} = 3 \\le S_h = 3)'
    """
    func = "reciprocal_rank_breakdown"
    grades, threshold = binary_grades(rels, rel_threshold, func=func)
    k = check_k(k, func=func)
    ranking = binary_ranking(grades, threshold, func=func)
    table = rank_table(ranking, _depth(grades.shape[0], k, pad=False))
    table["reciprocal"] = 1.0 / table["rank"]
    first = int(ranking.context.first_relevant_rank(threshold)[0])  # 0: no relevant document
    table["contribution"] = table["reciprocal"].where(table["rank"] == first, 0.0)
    value = ranking.score(binary_kernels.reciprocal_rank, k)
    if value:
        bound = "" if k is None else rf" \quad (S_{{\mathrm{{correct}}}} = {first} \le S_h = {k})"
        latex = rf"\mathrm{{RR}} = {_frac(1, first)} = {value:.3f}{bound}"
    else:
        if k is not None and first:
            why = rf"S_{{\mathrm{{correct}}}} = {first} > S_h = {k}"
        else:
            why = text(_("no relevant document in the list"))
        latex = rf"\mathrm{{RR}} = 0 \quad ({why})"
    return _worked(table, value, latex)


fill_metric_docstrings(globals())  # the {rels} and {Parameters of metric} lines of the docstrings above
