r"""C/W/L user-model measures (SDCG, NERR8-11, INST, INSQ) and Compat, as ir_measures defines them.

A C/W/L measure (Moffat et al.; Azzopardi, Thomas & Moffat, SIGIR 2019) is a user who, at rank
i, reads on with probability C_i. Rank i is read with probability prod_{j<i} C_j; normalised
over the ranks, these are the weights W_i, and the measure is the expected gain per document
read, sum_i W_i g_i. Each measure is its C_i (see :mod:`rankviz.metrics.kernels.cwl`). As in
cwl_eval, which ir_measures runs, the ranking is cut or padded to 1000 ranks with gain 0 and
grades become gains in [0, 1]: g = (clip(grade, min_rel, max_rel) - min_rel) / (max_rel -
min_rel). ``max_rel`` None: the largest grade of ``judged``, else of the list
(:func:`rankviz.evaluate` uses the qrels' largest grade; ir_measures requires it).

Compat (Clarke, Vtyurina & Smucker 2021) is the rank-biased overlap of the ranking with the
ideal ranking of the judged relevant documents (:mod:`rankviz.metrics.kernels.compat`).

Each function scores the list with the kernel :func:`rankviz.evaluate` runs over every query,
and each ``*_breakdown`` shows that kernel's per-rank arrays.
"""

from __future__ import annotations

import numpy as np

from rankviz.metrics._docwords import fill_metric_docstrings
from rankviz.metrics._latex import number as _num
from rankviz.metrics._latex import sum_latex
from rankviz.metrics.breakdown import Breakdown
from rankviz.metrics.kernels import BatchContext, Cut, RankedLists
from rankviz.metrics.kernels import compat as compat_kernels
from rankviz.metrics.kernels import cwl as kernels
from rankviz.metrics.validation import as_grades, check_k, check_positive_number, ideal_grades

__all__ = [
    "sdcg", "sdcg_breakdown", "nerr8", "nerr8_breakdown", "nerr9", "nerr9_breakdown", "nerr10", "nerr10_breakdown",
    "nerr11", "nerr11_breakdown", "inst", "inst_breakdown", "insq", "insq_breakdown", "compat", "compat_breakdown",
]


# ------------------------------------------------------------------------ input


def _input(rels, func: str, *, k=None, min_rel=0, max_rel=None, judged=None, params=None):
    """Validated grades and the one-list context and Cut of a C/W/L call."""
    grades = as_grades(rels, func=func)
    k = check_k(k, func=func)
    if isinstance(min_rel, bool) or not isinstance(min_rel, (int, float, np.integer, np.floating)) \
            or not np.isfinite(min_rel):
        raise ValueError(f"The 'min_rel' parameter of {func} must be a finite number. Got {min_rel!r} instead.")
    pool = None
    if judged is not None:
        pool = as_grades(judged, func=func, name="judged", position="position")
        ideal_grades(grades, func=func, judged=pool)
    if max_rel is None:
        source = grades if pool is None else pool
        max_rel = float(source.max()) if source.size else 0.0
    else:
        max_rel = check_positive_number(max_rel, func=func, name="max_rel", allow_zero=True)
    cut = Cut(k, {"min_rel": float(min_rel), "max_rel": max_rel, **(params or {})})
    ctx = BatchContext(RankedLists.from_grades([grades], judged=[pool], max_grade=max_rel))
    return grades, ctx, cut


def _check_t(t, func: str) -> float:
    return check_positive_number(t, func=func, name="T")


def _check_p(p, func: str, *, allow_zero: bool) -> float:
    value = check_positive_number(p, func=func, name="p", allow_zero=allow_zero)
    if value > 1:
        low = "[0" if allow_zero else "(0"
        raise ValueError(f"The 'p' parameter of {func} must be a number in the range {low}, 1]. Got {p} instead.")
    return value


def _value(name: str, ctx, cut) -> float:
    return float(getattr(kernels, name.lower())(ctx, cut)[0])


def _cwl_breakdown(name: str, grades: np.ndarray, ctx, cut, label: str) -> Breakdown:
    """The worked C/W/L table: per rank of the list, gain, C_i, P(reach), W_i and W_i g_i."""
    import pandas as pd

    # The kernel module names each user model's continuation after its measure: kernels.sdcg_continuation.
    gains, cont, weight = kernels.cwl_rows(ctx, getattr(kernels, f"{name.lower()}_continuation"), cut)
    n = min(grades.size, kernels.DEPTH)
    reach = np.ones(kernels.DEPTH)
    reach[1:] = np.cumprod(cont[:-1])
    contribution = weight * gains
    table = {
        "rank": np.arange(1, n + 1),
        "grade": grades[:n],
        "gain": gains[:n],
    }
    if name == "INST":
        table["T_i"] = cut.param("T") - np.cumsum(gains[:n])
    table.update({
        "C_i": cont[:n],
        "P(reach rank)": reach[:n],
        "W_i": weight[:n],
        "W_i gain": contribution[:n],
        "running value": np.cumsum(contribution[:n]),
    })
    value = _value(name, ctx, cut)
    terms = [rf"{_num(w)} \cdot {_num(g)}" for w, g in zip(weight[:n], gains[:n]) if g > 0]
    latex = rf"\mathrm{{{label}}} = \sum_i W_i\, g_i = {sum_latex(terms) if terms else '0'} = {value:.3f}"
    details = {
        "min_rel": cut.param("min_rel"), "max_rel": cut.param("max_rel"), "depth": kernels.DEPTH,
        "normaliser": float(reach.sum()), "expected_documents": float(1.0 / weight[0]),
        "weight_past_the_list": float(weight[n:].sum()),
    }
    return Breakdown(pd.DataFrame(table), value, latex, details)


# ------------------------------------------------------------------------ SDCG


def sdcg(rels, k=None, *, min_rel=0, max_rel=None, judged=None) -> float:
    r"""Scaled DCG@k (ir_measures' SDCG, cwl_eval's NDCG-k): DCG@k of the gains over the DCG of k
    documents of the top grade, as if k fully relevant documents existed.

    .. math::

        \mathrm{SDCG@}k = \frac{\sum_{i=1}^{k} g_i / \log_2(i + 1)}{\sum_{i=1}^{k} 1 / \log_2(i + 1)},
        \qquad g_i = \frac{\mathrm{clip}(\mathrm{rel}_i, m, M) - m}{M - m}

    Parameters
    ----------
    {rels}
    k : int or None, default None
        Cut-off (ir_measures requires one); ``None``: the length of the list.
    min_rel, max_rel : float
        m and M, the ends of the grade scale (ir_measures' ``min_rel`` and ``max_rel``);
        grades are clipped to [m, M]. ``max_rel`` None: the largest grade of ``judged``, else of
        ``rels``. When M <= m every gain is 0.
    judged : sequence of float or None, default None
        Grades of every judged document of the query: only the default ``max_rel``.

    Returns
    -------
    float
        SDCG in [0, 1]; 0.0 for an empty list.

    References
    ----------
    .. [1] K. Järvelin and J. Kekäläinen, "Cumulated gain-based evaluation of IR techniques",
       ACM TOIS 20(4), 2002; the scaled form is cwl_eval's NDCG-k (Azzopardi, Thomas & Moffat,
       SIGIR 2019), ir_measures' SDCG.

    Examples
    --------
    Grades 2, 0, 1 on a 0-2 scale, k = 3: gains 1, 0, 0.5; DCG = 1 + 0 + 0.5/2 = 1.25 over
    1 + 1/log2(3) + 1/2 = 2.131:

    >>> round(sdcg([2, 0, 1], k=3), 4)
    0.5866
    >>> round(sdcg([2, 0, 1], k=3, max_rel=4), 4)  # gains 0.5, 0, 0.25: half of it
    0.2933
    """
    _, ctx, cut = _input(rels, "sdcg", k=k, min_rel=min_rel, max_rel=max_rel, judged=judged)
    return _value("SDCG", ctx, cut)


def sdcg_breakdown(rels, k=None, *, min_rel=0, max_rel=None, judged=None):
    r"""Worked table of :func:`sdcg`: C/W/L weights W_i = (1/log2(i + 1)) / sum_{j<=k} 1/log2(j + 1).

    {Parameters of sdcg}

    Returns
    -------
    Breakdown
        ``table``: ``rank``, ``grade``, ``gain``, ``C_i``, ``P(reach rank)`` (= 1/log2(i + 1)
        up to k), ``W_i``, ``W_i gain``, ``running value``. ``details``: ``min_rel``,
        ``max_rel``, ``depth`` (1000), ``normaliser`` (sum_{i<=k} 1/log2(i + 1)),
        ``expected_documents`` (1/W_1), ``weight_past_the_list``.

    {References of sdcg}

    Examples
    --------
    >>> worked = sdcg_breakdown([2, 0, 1], k=3)
    >>> worked.table["P(reach rank)"].round(3).tolist(), round(worked.details["normaliser"], 3)
    ([1.0, 0.631, 0.5], 2.131)
    >>> round(worked.value, 4)
    0.5866
    """
    grades, ctx, cut = _input(rels, "sdcg_breakdown", k=k, min_rel=min_rel, max_rel=max_rel, judged=judged)
    return _cwl_breakdown("SDCG", grades, ctx, cut, "SDCG" if k is None else f"SDCG@{k}")


# ------------------------------------------------------------------------ NERR


def nerr8(rels, k=None, *, min_rel=0, max_rel=None, judged=None) -> float:
    r"""NERR8@k, the C/W/L approximation of ERR of Azzopardi et al. (2021), eq. 8: the user reads
    on from rank i with probability 1 - g_i, and stops at k.

    .. math:: C_i = 1 - g_i \ (i < k),\ C_i = 0 \ (i \ge k);\qquad
              \mathrm{NERR8@}k = \frac{\sum_{i=1}^{k} g_i \prod_{j<i} (1 - g_j)}{\sum_{i=1}^{k} \prod_{j<i} (1 - g_j)}

    Parameters
    ----------
    {C/W/L rels}
    k : int or None, default None
        Cut-off (ir_measures requires one); ``None``: the length of the list.
    {grade scale}

    Returns
    -------
    float
        In [0, 1]; 0.0 for an empty list.

    References
    ----------
    .. [1] L. Azzopardi, J. Mackenzie and A. Moffat, "ERR is not C/W/L: exploring the
       relationship between expected reciprocal rank and other metrics", ICTIR 2021.

    Examples
    --------
    Gains 1, 0, 0.5 (grades 2, 0, 1 on 0-2), k = 3: the user stops at rank 1 for sure, so
    W = 1, 0, 0 and NERR8 = 1. With k = 1 the same; grades 0, 2: (0 + 1) / (1 + 1) = 0.5.

    >>> nerr8([2, 0, 1], k=3), nerr8([0, 2], k=2)
    (1.0, 0.5)
    """
    _, ctx, cut = _input(rels, "nerr8", k=k, min_rel=min_rel, max_rel=max_rel, judged=judged)
    return _value("NERR8", ctx, cut)


def nerr8_breakdown(rels, k=None, *, min_rel=0, max_rel=None, judged=None):
    r"""Worked table of :func:`nerr8`.

    {Parameters of nerr8}

    Returns
    -------
    Breakdown
        The C/W/L table (``gain``, ``C_i``, ``P(reach rank)``, ``W_i``, ``W_i gain``) and
        ``details`` as in :func:`sdcg_breakdown`.

    {References of nerr8}

    Examples
    --------
    >>> nerr8_breakdown([0, 2], k=2).table["W_i"].tolist()
    [0.5, 0.5]
    """
    grades, ctx, cut = _input(rels, "nerr8_breakdown", k=k, min_rel=min_rel, max_rel=max_rel, judged=judged)
    return _cwl_breakdown("NERR8", grades, ctx, cut, "NERR8" if k is None else f"NERR8@{k}")


def nerr9(rels, k=None, *, min_rel=0, max_rel=None, judged=None) -> float:
    r"""NERR9@k (Azzopardi et al. 2021, eq. 9): gain-based stopping and a reciprocal-rank discount.

    .. math:: C_i = \frac{i}{i + 1} (1 - g_i) \ (i < k),\ C_i = 0 \ (i \ge k)

    {Parameters of nerr8}

    {Returns of nerr8}

    References
    ----------
    .. [1] Azzopardi, Mackenzie and Moffat, ICTIR 2021, eq. 9.

    Examples
    --------
    Grades 0, 2 (gains 0, 1), k = 2: C_1 = 1/2, so reach = 1, 1/2; W = 2/3, 1/3; value 1/3.

    >>> round(nerr9([0, 2], k=2), 4)
    0.3333
    """
    _, ctx, cut = _input(rels, "nerr9", k=k, min_rel=min_rel, max_rel=max_rel, judged=judged)
    return _value("NERR9", ctx, cut)


def nerr9_breakdown(rels, k=None, *, min_rel=0, max_rel=None, judged=None):
    r"""Worked table of :func:`nerr9`.

    {Parameters of nerr9}

    Returns
    -------
    Breakdown
        The C/W/L table and ``details`` as in :func:`sdcg_breakdown`.

    {References of nerr9}

    Examples
    --------
    >>> nerr9_breakdown([0, 2], k=2).table["C_i"].tolist()
    [0.5, 0.0]
    """
    grades, ctx, cut = _input(rels, "nerr9_breakdown", k=k, min_rel=min_rel, max_rel=max_rel, judged=judged)
    return _cwl_breakdown("NERR9", grades, ctx, cut, "NERR9" if k is None else f"NERR9@{k}")


def nerr10(rels, *, p=0.9, min_rel=0, max_rel=None, judged=None) -> float:
    r"""NERR10(p) (Azzopardi et al. 2021, eq. 10): gain-based stopping with RBP's patience p,
    over 1000 ranks.

    .. math:: C_i = p\,(1 - g_i)

    Parameters
    ----------
    {C/W/L rels}
    p : float, default 0.9
        Persistence, in [0, 1].
    {grade scale}

    Returns
    -------
    float
        In [0, 1].

    References
    ----------
    .. [1] Azzopardi, Mackenzie and Moffat, ICTIR 2021, eq. 10.

    Examples
    --------
    Grades 0, 2 with p = 0.5: reach 1, 0.5 and 0 after the relevant rank-2 document; W =
    2/3, 1/3: value 1/3.

    >>> round(nerr10([0, 2], p=0.5), 4)
    0.3333
    """
    _check_p(p, "nerr10", allow_zero=True)
    _, ctx, cut = _input(rels, "nerr10", min_rel=min_rel, max_rel=max_rel, judged=judged, params={"p": p})
    return _value("NERR10", ctx, cut)


def nerr10_breakdown(rels, *, p=0.9, min_rel=0, max_rel=None, judged=None):
    r"""Worked table of :func:`nerr10`.

    {Parameters of nerr10}

    {Returns of nerr9_breakdown}

    {References of nerr10}

    Examples
    --------
    >>> nerr10_breakdown([0, 2], p=0.5).table["P(reach rank)"].tolist()
    [1.0, 0.5]
    """
    _check_p(p, "nerr10_breakdown", allow_zero=True)
    grades, ctx, cut = _input(rels, "nerr10_breakdown", min_rel=min_rel, max_rel=max_rel, judged=judged,
                              params={"p": p})
    return _cwl_breakdown("NERR10", grades, ctx, cut, "NERR10")


def nerr11(rels, *, T=1.0, min_rel=0, max_rel=None, judged=None) -> float:
    r"""NERR11(T) (Azzopardi et al. 2021, eq. 12; cwl_eval's and ir_measures' "eq. 11"):
    gain-based stopping with INSQ's goal T, over 1000 ranks.

    .. math:: C_i = \left(\frac{i + 2T - 1}{i + 2T}\right)^2 (1 - g_i)

    Parameters
    ----------
    {C/W/L rels}
    T : float, default 1.0
        The gain the user wants, > 0.
    {grade scale}

    {Returns of nerr10}

    References
    ----------
    .. [1] Azzopardi, Mackenzie and Moffat, ICTIR 2021.

    Examples
    --------
    Grades 2 then zeros: the user stops at rank 1 (C_1 = 0), W_1 = 1.

    >>> nerr11([2, 0, 0])
    1.0
    """
    _check_t(T, "nerr11")
    _, ctx, cut = _input(rels, "nerr11", min_rel=min_rel, max_rel=max_rel, judged=judged, params={"T": T})
    return _value("NERR11", ctx, cut)


def nerr11_breakdown(rels, *, T=1.0, min_rel=0, max_rel=None, judged=None):
    r"""Worked table of :func:`nerr11`.

    {Parameters of nerr11}

    {Returns of nerr9_breakdown}

    {References of nerr11}

    Examples
    --------
    >>> nerr11_breakdown([2, 0, 0]).details["expected_documents"]
    1.0
    """
    _check_t(T, "nerr11_breakdown")
    grades, ctx, cut = _input(rels, "nerr11_breakdown", min_rel=min_rel, max_rel=max_rel, judged=judged,
                              params={"T": T})
    return _cwl_breakdown("NERR11", grades, ctx, cut, "NERR11")


# ------------------------------------------------------------------------ INST, INSQ


def inst(rels, *, T=1.0, min_rel=0, max_rel=None, judged=None) -> float:
    r"""INST(T) (Moffat, Bailey, Scholer & Thomas 2015): a user who wants gain T reads on less
    eagerly as the gain still wanted, T_i, shrinks; over 1000 ranks as cwl_eval does.

    .. math::

        C_i = \left(\frac{i + T + T_i - 1}{i + T + T_i}\right)^2,\quad T_i = T - \sum_{j \le i} g_j,
        \qquad \mathrm{INST} = \sum_i W_i g_i,\ W_i = \frac{\prod_{j<i} C_j}{\sum_m \prod_{j<m} C_j}

    Parameters
    ----------
    {C/W/L rels}
    T : float, default 1.0
        The gain the user wants (e.g. how many relevant documents), > 0.
    {grade scale}

    Returns
    -------
    float
        In [0, 1]; 0.0 when no document has a gain.

    References
    ----------
    .. [1] A. Moffat, P. Bailey, F. Scholer and P. Thomas, "INST: an adaptive metric for
       information retrieval evaluation", ADCS 2015.

    Examples
    --------
    One relevant document at rank 1 (T = 1): T_i = 0 from rank 1 on, so C_1 = (1/2)^2 and
    C_i = (i/(i + 1))^2; the chance of reaching rank i telescopes to 1/i^2, and W_1 =
    1 / sum_{i<=1000} 1/i^2 = 1 / 1.6439 = 0.608 (nearly 6/pi^2): the user reads 1.64
    documents on average, and all the gain is at rank 1.

    >>> round(inst([1, 0, 0]), 4)
    0.6083
    >>> round(inst([0, 1, 0]), 4)  # found one rank later: less weight on it
    0.2072
    """
    _check_t(T, "inst")
    _, ctx, cut = _input(rels, "inst", min_rel=min_rel, max_rel=max_rel, judged=judged, params={"T": T})
    return _value("INST", ctx, cut)


def inst_breakdown(rels, *, T=1.0, min_rel=0, max_rel=None, judged=None):
    r"""Worked table of :func:`inst`: the gain still wanted T_i, the continuation C_i it
    implies, the chance of reaching each rank and its weight W_i.

    {Parameters of inst}

    Returns
    -------
    Breakdown
        ``table``: ``rank``, ``grade``, ``gain``, ``T_i``, ``C_i``, ``P(reach rank)``, ``W_i``,
        ``W_i gain``, ``running value``, one row per rank of the list. ``details``:
        ``min_rel``, ``max_rel``, ``depth`` (1000, the ranks the user may read),
        ``normaliser`` (sum of P(reach) over them), ``expected_documents`` (1/W_1),
        ``weight_past_the_list`` (the weight of the padded ranks, which carry no gain).

    {References of inst}

    Examples
    --------
    >>> worked = inst_breakdown([1, 0, 0])
    >>> worked.table["T_i"].tolist(), worked.table["C_i"].round(4).tolist()
    ([0.0, 0.0, 0.0], [0.25, 0.4444, 0.5625])
    >>> round(worked.details["expected_documents"], 3), round(worked.details["weight_past_the_list"], 3)
    (1.644, 0.172)
    """
    _check_t(T, "inst_breakdown")
    grades, ctx, cut = _input(rels, "inst_breakdown", min_rel=min_rel, max_rel=max_rel, judged=judged,
                              params={"T": T})
    return _cwl_breakdown("INST", grades, ctx, cut, "INST")


def insq(rels, *, T=1.0, min_rel=0, max_rel=None, judged=None) -> float:
    r"""INSQ(T) (Moffat, Scholer & Thomas 2012): INST's user with a goal T that does not adapt to
    the gain found; over 1000 ranks.

    .. math:: C_i = \left(\frac{i + 2T - 1}{i + 2T}\right)^2

    {Parameters of nerr11}

    {Returns of nerr11}

    References
    ----------
    .. [1] A. Moffat, F. Scholer and P. Thomas, "Models and metrics: IR evaluation as a user
       process", ADCS 2012.

    Examples
    --------
    T = 1: C_i = ((i + 1)/(i + 2))^2, so reach_i = (2/(i + 1))^2 and W_1 = 1 / sum_{i<=1000}
    4/(i + 1)^2 = 1 / 2.576 = 0.388; one relevant document at rank 1 scores W_1.

    >>> round(insq([1, 0]), 4)
    0.3882
    """
    _check_t(T, "insq")
    _, ctx, cut = _input(rels, "insq", min_rel=min_rel, max_rel=max_rel, judged=judged, params={"T": T})
    return _value("INSQ", ctx, cut)


def insq_breakdown(rels, *, T=1.0, min_rel=0, max_rel=None, judged=None):
    r"""Worked table of :func:`insq`.

    {Parameters of insq}

    Returns
    -------
    Breakdown
        The C/W/L table and ``details`` as in :func:`inst_breakdown` (without ``T_i``).

    {References of insq}

    Examples
    --------
    >>> insq_breakdown([1, 0]).table["C_i"].round(4).tolist()
    [0.4444, 0.5625]
    """
    _check_t(T, "insq_breakdown")
    grades, ctx, cut = _input(rels, "insq_breakdown", min_rel=min_rel, max_rel=max_rel, judged=judged,
                              params={"T": T})
    return _cwl_breakdown("INSQ", grades, ctx, cut, "INSQ")


# ------------------------------------------------------------------------ Compat


def _compat_input(rels, judged, p, normalize, func: str):
    grades = as_grades(rels, func=func)
    pool = None
    if judged is not None:
        pool = as_grades(judged, func=func, name="judged", position="position")
        ideal_grades(grades, func=func, judged=pool)
    _check_p(p, func, allow_zero=False)
    if not isinstance(normalize, (bool, np.bool_)):
        raise ValueError(f"The 'normalize' parameter of {func} must be a bool. Got {normalize!r} instead.")
    ctx = BatchContext(RankedLists.from_grades([grades], judged=[pool]))
    return grades, ctx, Cut(None, {"p": float(p), "normalize": bool(normalize)})


def compat(rels, *, judged=None, p=0.95, normalize=True) -> float:
    r"""Compatibility (Clarke, Vtyurina & Smucker 2021): the rank-biased overlap of the ranking
    with the ideal ranking, normalised so that the ideal ranking scores 1.

    .. math::

        \mathrm{RBO}(A, B) = \frac{\sum_{i=1}^{D} p^{i-1}\, |A_{1:i} \cap B_{1:i}| / i}{\sum_{i=1}^{D} p^{i-1}},
        \qquad \mathrm{Compat} = \frac{\mathrm{RBO}(\text{ranking}, \text{ideal})}{\mathrm{RBO}(\text{ideal}, \text{ideal})}

    The ideal ranking holds every judged document with a positive grade, grades descending;
    documents of the same grade keep the ranking's order, the unretrieved ones after them (as
    in ir_measures when scores are positive). D = max(length of the list, size of the ideal).

    Parameters
    ----------
    {C/W/L rels}
    judged : sequence of float or None, default None
        Grades of every judged document of the query, retrieved or not (it must hold every
        positive grade of ``rels``); None: the list's own grades.
    p : float, default 0.95
        Persistence of RBO, in (0, 1].
    normalize : bool, default True
        Divide by the ideal ranking's own RBO (ir_measures' default).

    Returns
    -------
    float
        In [0, 1]; 0.0 when no document has a positive grade.

    References
    ----------
    .. [1] C. L. A. Clarke, A. Vtyurina and M. D. Smucker, "Assessing top-k preferences",
       ACM TOIS 39(3), 2021.
    .. [2] W. Webber, A. Moffat and J. Zobel, "A similarity measure for indefinite rankings",
       ACM TOIS 28(4), 2010.

    Examples
    --------
    Grades 0, 1 with p = 0.5: the ideal is the grade-1 document alone, D = 2. Overlaps 0 at
    depth 1 and 1 at depth 2: RBO = (0.5 * 1/2) / 1.5 = 1/6. The ideal with itself: (1 + 0.5 *
    1/2) / 1.5 = 5/6, so Compat = 1/5.

    >>> round(compat([0, 1], p=0.5), 4), round(compat([0, 1], p=0.5, normalize=False), 4)
    (0.2, 0.1667)
    >>> compat([2, 1, 0])  # the ideal order
    1.0
    """
    _, ctx, cut = _compat_input(rels, judged, p, normalize, "compat")
    return float(compat_kernels.compat(ctx, cut)[0])


def compat_breakdown(rels, *, judged=None, p=0.95, normalize=True):
    r"""Worked table of :func:`compat`: one row per depth, the two tops' overlap and its weight.

    {Parameters of compat}

    Returns
    -------
    Breakdown
        ``table``: ``depth`` i, ``grade`` (at rank i of the ranking; NaN past its end),
        ``ideal grade``, ``overlap`` |A_{1:i} ∩ B_{1:i}|, ``weight`` p^(i-1), ``term``
        p^(i-1) overlap / i, ``ideal term`` p^(i-1) min(i, |ideal|) / i. ``details``:
        ``rbo``, ``ideal_rbo``, ``depth``, ``n_ideal``.

    {References of compat}

    Examples
    --------
    >>> worked = compat_breakdown([0, 1], p=0.5)
    >>> worked.table["overlap"].tolist(), worked.table["term"].tolist()
    ([0, 1], [0.0, 0.25])
    >>> round(worked.details["rbo"], 4), round(worked.details["ideal_rbo"], 4), round(worked.value, 4)
    (0.1667, 0.8333, 0.2)
    """
    import pandas as pd

    grades, ctx, cut = _compat_input(rels, judged, p, normalize, "compat_breakdown")
    depth, n_ideal, first, _, plain = compat_kernels.compat_terms(ctx, cut)
    d, n_ideal = int(depth[0]), int(n_ideal[0])
    i = np.arange(1, d + 1)
    overlap = np.cumsum(np.bincount(first[first > 0], minlength=d + 1)[1:])
    weight = float(cut.param("p")) ** (i - 1.0)
    ideal = ctx.ranking.judged_grade
    table = pd.DataFrame({
        "depth": i,
        "grade": np.concatenate([grades, np.full(d - grades.size, np.nan)]),
        "ideal grade": np.concatenate([ideal[ideal > 0], np.full(d - n_ideal, np.nan)]),
        "overlap": overlap,
        "weight": weight,
        "term": weight * overlap / i,
        "ideal term": weight * np.minimum(i, n_ideal) / i,
    })
    total = float(plain[d])
    rbo = float(table["term"].sum()) / total if total else 0.0
    ideal_rbo = float(table["ideal term"].sum()) / total if total else 0.0
    value = float(compat_kernels.compat(ctx, cut)[0])
    normalised = cut.param("normalize") and ideal_rbo > 0
    latex = (rf"\mathrm{{RBO}} = \frac{{{_num(float(table['term'].sum()))}}}{{{_num(total)}}} = {rbo:.3f}"
             + (rf",\quad \mathrm{{Compat}} = \frac{{{rbo:.3f}}}{{{ideal_rbo:.3f}}} = {value:.3f}" if normalised
                else rf" = \mathrm{{Compat}} = {value:.3f}"))
    return Breakdown(table, value, latex, {"rbo": rbo, "ideal_rbo": ideal_rbo, "depth": d, "n_ideal": n_ideal})


fill_metric_docstrings(globals(), {
    "C/W/L rels": "rels : sequence of float\n    Relevance grades in ranked order, non-negative.",
    "grade scale": "min_rel, max_rel, judged\n    The grade scale, as in :func:`sdcg`.",
})
