"""Graded-relevance metrics: CG, DCG, ideal DCG, nDCG and ERR.

Every function takes ``rels``, the relevance grades in ranked order (``rels[0]`` is rank 1),
and ``k`` (``None``: the whole list). DCG composes a *gain* (what a grade is worth) with a
*discount* (how much a rank lowers it):

- ``gain="linear"``: g(rel) = rel (trec_eval, scikit-learn, ranx, ir_measures, course note 003);
  ``gain="exponential"``: g(rel) = 2^rel - 1 (Burges et al. 2005; the lecture's "final
  formulation", course notes 000 and 001).
- ``discount="log2"``: 1 / log2(i + 1); ``discount="jarvelin"``: 1 / max(1, log_b i), the
  original formula of Järvelin & Kekäläinen (2002), DCG = rel_1 + sum_{i>=2} rel_i / log_2 i
  for b = 2, as the lecture writes it first.

Each metric has a ``*_breakdown`` twin returning the worked table of the lecture exercise as a
:class:`~rankviz.metrics.breakdown.Breakdown` (table, value, formula with numbers, details).

The functions validate their input, then score the ranking as a one-list
:class:`~rankviz.metrics.kernels.lists.RankedLists` with the kernels of
:mod:`rankviz.metrics.kernels.graded`, the very ones :func:`rankviz.evaluate` runs over every
query of a run: one formula per metric. A breakdown's table is made of that kernel's own
intermediate arrays (gains, denominators, contributions, ideal gains, ERR's cascade) and its
value is the kernel's, so the two cannot disagree.
"""

from __future__ import annotations

import numpy as np

from rankviz.i18n import N_, _
from rankviz.metrics._docwords import fill_metric_docstrings
from rankviz.metrics._latex import number as _num
from rankviz.metrics._latex import sum_latex
from rankviz.metrics.validation import (
    as_grades,
    check_choice,
    check_k,
    check_positive_number,
    ideal_grades,
    truncate,
)
from rankviz.metrics.breakdown import Breakdown
from rankviz.metrics.kernels import BatchContext, Cut, RankedLists
from rankviz.metrics.kernels import graded as kernels

__all__ = [
    "cumulative_gain",
    "cumulative_gain_breakdown",
    "dcg",
    "dcg_breakdown",
    "ideal_dcg",
    "ideal_dcg_breakdown",
    "ndcg",
    "ndcg_breakdown",
    "err",
    "err_breakdown",
]

GAINS = kernels.GAINS
DISCOUNTS = kernels.DISCOUNTS


# ------------------------------------------------------------------------ validation


def _reject_grades_above(grades: np.ndarray, limit: float, allowed: str, *, func: str, name: str = "rels",
                         position: str = "rank") -> None:
    """Raise naming the first grade above ``limit``; ``allowed`` says what the limit is."""
    above = np.flatnonzero(grades > limit)
    if above.size:
        i = int(above[0])
        raise ValueError(
            f"relevance grades in '{name}' of {func} must {allowed}; got {grades[i]:g} at {position} {i + 1}."
        )


def _check_exponential_gain_range(grades: np.ndarray, gain: str, func: str, name: str, position: str) -> None:
    # 2^1024 overflows float64: beyond this grade an exponential gain is infinite, and nDCG would
    # be inf / inf = NaN. The kernel refuses too; this message names the parameter and the rank.
    if gain == "exponential":
        top = kernels.MAX_EXPONENTIAL_GRADE
        _reject_grades_above(grades, top, f"be at most {top} with gain='exponential' (2^rel - 1 overflows beyond "
                             "it)", func=func, name=name, position=position)


def _check_dcg_options(func: str, gain, discount, log_base) -> float:
    check_choice(gain, GAINS, func=func, name="gain")
    check_choice(discount, DISCOUNTS, func=func, name="discount")
    base = check_positive_number(log_base, func=func, name="log_base")
    if base <= 1:
        raise ValueError(
            f"The 'log_base' parameter of {func} must be a number in the range (1, inf). Got {log_base} instead."
        )
    return base


def _judged_grades(grades: np.ndarray, judged, func: str):
    """``judged`` validated (None stays None): it must hold every positive grade of the ranking."""
    if judged is None:
        return None
    pool = as_grades(judged, func=func, name="judged", position="position")
    ideal_grades(grades, func=func, judged=pool)
    return pool


def _graded_input(rels, k, judged, gain, discount, log_base, func: str):
    """Validated grades, k, the one-list context and the kernels' Cut of a DCG-family call."""
    grades = as_grades(rels, func=func)
    k = check_k(k, func=func)
    base = _check_dcg_options(func, gain, discount, log_base)
    _check_exponential_gain_range(grades, gain, func, "rels", "rank")
    pool = _judged_grades(grades, judged, func)
    if pool is not None:
        _check_exponential_gain_range(pool, gain, func, "judged", "position")
    cut = Cut(k, {"gain": gain, "discount": discount, "log_base": base})
    return grades, k, _context(grades, pool), cut


def _err_input(rels, k, max_grade, judged, func: str):
    """Validated grades, k and the one-list context of an ERR call (its max_grade is g_max)."""
    grades = as_grades(rels, func=func)
    k = check_k(k, func=func)
    top = None
    if max_grade is not None:
        top = check_positive_number(max_grade, func=func, name="max_grade", allow_zero=True)
        _reject_grades_above(grades, top, f"not exceed max_grade={top:g}", func=func)
    pool = _judged_grades(grades, judged, func)
    if pool is not None and top is not None:
        _reject_grades_above(pool, top, f"not exceed max_grade={top:g}", func=func, name="judged",
                             position="position")
    # max_grade None: the lists' g_max is the largest judged grade, the ranking's own without judged.
    return grades, k, _context(grades, pool, top)


def _context(grades: np.ndarray, judged=None, max_grade=None) -> BatchContext:
    """One ranking as the kernels' lists: the per-query functions score it with the very
    kernels :func:`rankviz.evaluate` runs over every query of a run."""
    return BatchContext(RankedLists.from_grades([grades], judged=[judged], max_grade=max_grade))


# ------------------------------------------------------------------------ formatting


def _discount_label(discount: str, log_base: float) -> str:
    if discount == "log2":
        return "log2(1+i)"
    return f"max(1, log{_num(log_base)}(i))"


def _gain_latex(grade: float, gain: str) -> str:
    return _num(grade) if gain == "linear" else f"(2^{{{_num(grade)}}} - 1)"


def _dcg_terms_latex(grades, denominators, gain: str) -> list[str]:
    terms = []
    for grade, denominator in zip(grades, denominators):
        numerator = _gain_latex(grade, gain)
        terms.append(numerator if denominator == 1 else rf"\frac{{{numerator}}}{{{_num(denominator)}}}")
    return terms


# What fills the ranks past the end of the shorter side of ndcg_breakdown: no grade, no gain, no
# denominator of its own, and nothing added.
_PADDING = (np.nan, np.nan, np.nan, 0.0)


def _padded(values: np.ndarray, n: int, fill: float) -> np.ndarray:
    out = np.full(n, fill)
    out[: values.shape[0]] = values
    return out


def _dcg_table(grades: np.ndarray, rows, value: float, cut: Cut, name: str, *, rel_name: str = N_("rel")) -> Breakdown:
    """The worked DCG (``name``: "DCG" or "IDCG") of ``grades`` (already cut at k): the kernel's
    per-rank (gain, denominator, contribution) arrays ``rows`` cut at the same k, and the
    kernel's ``value`` with the sum written out."""
    import pandas as pd

    gains, denominators, contributions = (truncate(a, cut.cutoff) for a in rows)
    # Headers in the language in force; code reads the table by these roles.
    roles = {"rank": _("rank"), "grade": _(rel_name), "gain": _("gain"),
             "discount": _discount_label(cut.param("discount"), cut.param("log_base")),
             "contribution": _("contribution"), "running": _("running DCG")}
    table = pd.DataFrame(dict(zip(roles.values(), (np.arange(1, grades.shape[0] + 1), grades, gains, denominators,
                                                   contributions, np.cumsum(contributions)))))
    terms = _dcg_terms_latex(grades, denominators, cut.param("gain"))
    at = "" if cut.cutoff is None else f"@{cut.cutoff}"
    return Breakdown(table, value, rf"\mathrm{{{name}{at}}} = {sum_latex(terms)} = {value:.3f}", roles=roles)


# --------------------------------------------------------------------- public: CG


def cumulative_gain(rels, k=None) -> float:
    r"""Cumulative gain: the sum of the grades in the top k.

    .. math:: \mathrm{CG@}k = \sum_{i=1}^{k} \mathrm{rel}_i

    Parameters
    ----------
    {rels}
    {k}

    Returns
    -------
    float
        The cumulative gain; 0.0 for an empty ranking.

    Notes
    -----
    CG ignores the order within the top k: any permutation of the same documents scores the
    same. That blindness is why DCG adds a discount.

    References
    ----------
    .. [1] K. Järvelin and J. Kekäläinen, "Cumulated gain-based evaluation of IR techniques",
       ACM TOIS 20(4), 2002.

    Examples
    --------
    The lecture's exercise (course 002): 3 + 2 + 3 + 0 + 1 + 2 = 11.

    >>> cumulative_gain([3, 2, 3, 0, 1, 2])
    11.0
    >>> cumulative_gain([3, 2, 3, 0, 1, 2], k=3)  # 3 + 2 + 3
    8.0
    """
    func = "cumulative_gain"
    grades = as_grades(rels, func=func)
    k = check_k(k, func=func)
    return float(kernels.cumulative_gain(_context(grades), Cut(k, {"gain": "linear"}))[0])


def cumulative_gain_breakdown(rels, k=None):
    r"""Worked table of :func:`cumulative_gain`: one row per rank with the running CG.

    Parameters
    ----------
    rels : sequence of float
        Relevance grades in ranked order.
    {k}

    Returns
    -------
    Breakdown
        ``table``: columns ``rank``, ``rel``, ``running CG``. ``value``: the sum of ``rel``.
        ``latex``: the sum written out. ``details``: none.

    {References of cumulative_gain}

    Examples
    --------
    >>> worked = cumulative_gain_breakdown([3, 2, 3])
    >>> worked.table["running CG"].tolist()
    [3.0, 5.0, 8.0]
    >>> worked.latex
    '\\mathrm{CG} = 3 + 2 + 3 = 8'
    """
    import pandas as pd

    func = "cumulative_gain_breakdown"
    grades = as_grades(rels, func=func)
    k = check_k(k, func=func)
    ctx, variant = _context(grades), Cut(k, {"gain": "linear"})
    shown = truncate(grades, k)
    gains = truncate(kernels.dcg_rows(ctx, variant)[0], k)  # the gains the kernel adds up
    table = pd.DataFrame({
        _("rank"): np.arange(1, shown.shape[0] + 1),
        _("rel"): shown,
        _("running CG"): np.cumsum(gains),
    })
    value = float(kernels.cumulative_gain(ctx, variant)[0])
    cut = "" if k is None else f"@{k}"
    return Breakdown(table, value, rf"\mathrm{{CG{cut}}} = {sum_latex([_num(g) for g in shown])} = {_num(value)}",
                     roles={"rank": _("rank"), "grade": _("rel"), "running": _("running CG")})


# -------------------------------------------------------------------- public: DCG


def dcg(rels, k=None, *, gain="linear", discount="log2", log_base=2) -> float:
    r"""Discounted cumulative gain of the top k.

    .. math:: \mathrm{DCG@}k = \sum_{i=1}^{k} \frac{g(\mathrm{rel}_i)}{d(i)}

    with gain ``g(rel) = rel`` (linear) or ``2^rel - 1`` (exponential), and discount
    denominator ``d(i) = log2(i + 1)`` ("log2") or ``max(1, log_b i)`` ("jarvelin").

    Parameters
    ----------
    {rels}
    {k}
    gain : {"linear", "exponential"}, default "linear"
        ``"linear"``: the grade itself (trec_eval, scikit-learn, course note 003);
        ``"exponential"``: 2^rel - 1 (Burges et al.; the lecture's final formulation).
    discount : {"log2", "jarvelin"}, default "log2"
        ``"log2"``: divide by log2(i + 1). ``"jarvelin"``: Järvelin & Kekäläinen's original
        rel_1 + sum_{i>=2} rel_i / log_b(i): ranks i < b are not discounted.
    log_base : float, default 2
        Base b of the ``"jarvelin"`` discount (must be > 1). Only the ``"jarvelin"`` discount
        uses it; ``"log2"`` is always base 2.

    Returns
    -------
    float
        The DCG; 0.0 for an empty ranking.

    Notes
    -----
    Gain and discount compose freely: ``gain="exponential", discount="jarvelin"`` is allowed.
    With ``discount="jarvelin"`` and b = 2, ranks 1 and 2 are both undiscounted, so swapping
    them does not change DCG. DCG has no upper bound; :func:`ndcg` normalizes it.

    References
    ----------
    .. [1] K. Järvelin and J. Kekäläinen, "Cumulated gain-based evaluation of IR techniques",
       ACM TOIS 20(4), 2002.
    .. [2] C. Burges et al., "Learning to rank using gradient descent", ICML 2005.

    Examples
    --------
    Linear gain (course note 003): 3/log2(2) + 2/log2(3) + 3/log2(4) = 3 + 1.262 + 1.5 = 5.762.

    >>> round(dcg([3, 2, 3]), 3)
    5.762

    The lecture's exercise (course 002) with exponential gain:
    7/1 + 3/1.585 + 7/2 + 0/2.322 + 1/2.585 + 3/2.807 = 13.848.

    >>> round(dcg([3, 2, 3, 0, 1, 2], gain="exponential"), 3)
    13.848

    Järvelin & Kekäläinen's formula: 3 + 2/log2(2) + 3/log2(3) = 3 + 2 + 1.893 = 6.893.

    >>> round(dcg([3, 2, 3], discount="jarvelin"), 3)
    6.893
    """
    _, _, ctx, variant = _graded_input(rels, k, None, gain, discount, log_base, "dcg")
    return float(kernels.dcg(ctx, variant)[0])


def dcg_breakdown(rels, k=None, *, gain="linear", discount="log2", log_base=2):
    r"""Worked table of :func:`dcg`, laid out like the lecture's "Compute DCG" exercise.

    {Parameters of dcg}

    Returns
    -------
    Breakdown
        ``table``: one row per rank: ``rank``, ``rel``, ``gain``, the discount denominator
        (named after the discount: ``log2(1+i)`` or ``max(1, log2(i))``), ``contribution`` =
        gain / denominator and ``running DCG``. ``value``: the sum of the contributions.
        ``latex``: the sum with this input's numbers. ``details``: none.

    {References of dcg}

    Examples
    --------
    >>> worked = dcg_breakdown([3, 2, 3, 0, 1, 2], gain="exponential")
    >>> list(worked.table.columns)
    ['rank', 'rel', 'gain', 'log2(1+i)', 'contribution', 'running DCG']
    >>> worked.table["contribution"].round(3).tolist()  # the slide's last column, exactly
    [7.0, 1.893, 3.5, 0.0, 0.387, 1.069]
    >>> round(worked.value, 3)
    13.848
    """
    grades, k, ctx, variant = _graded_input(rels, k, None, gain, discount, log_base, "dcg_breakdown")
    return _dcg_table(truncate(grades, k), kernels.dcg_rows(ctx, variant), float(kernels.dcg(ctx, variant)[0]),
                      variant, "DCG")


# ------------------------------------------------------------------- public: IDCG


def ideal_dcg(rels, k=None, *, judged=None, gain="linear", discount="log2", log_base=2) -> float:
    r"""DCG of the ideal ranking: the judged grades sorted from best to worst.

    .. math:: \mathrm{IDCG@}k = \mathrm{DCG@}k(\mathrm{sort}_{\downarrow}(\text{judged}))

    Parameters
    ----------
    rels : sequence of float
        Relevance grades in ranked order; they are the ideal's pool when ``judged`` is None.
    k : int or None, default None
        Cut-off: the ideal is cut at k too (trec_eval ``ndcg_cut_k``).
    judged : sequence of float or None, default None
        Grades of every judged document of the query, retrieved or not. ``None``: the ranked
        list itself is the pool, so relevant documents that were never retrieved are ignored.
    gain, discount, log_base
        As in :func:`dcg`.

    Returns
    -------
    float
        The ideal DCG; 0.0 when no grade is positive.

    Notes
    -----
    ``judged`` must hold at least as many documents of each positive grade as ``rels``
    retrieved, otherwise a ValueError says which grade is short.

    References
    ----------
    .. [1] Järvelin and Kekäläinen, ACM TOIS 20(4), 2002.

    Examples
    --------
    The lecture's exercise (course 002): ideal grades 3, 3, 2, 2, 1, 0, exponential gain:
    7 + 7/1.585 + 3/2 + 3/2.322 + 1/2.585 + 0 = 14.595.

    >>> round(ideal_dcg([3, 2, 3, 0, 1, 2], gain="exponential"), 3)
    14.595
    """
    _, _, ctx, variant = _graded_input(rels, k, judged, gain, discount, log_base, "ideal_dcg")
    return float(kernels.ideal_dcg(ctx, variant)[0])


def ideal_dcg_breakdown(rels, k=None, *, judged=None, gain="linear", discount="log2", log_base=2):
    r"""Worked table of :func:`ideal_dcg`, like the lecture's "Compute IDCG" exercise.

    {Parameters of ideal_dcg}

    Returns
    -------
    Breakdown
        ``table``: one row per rank of the ideal ranking: ``rank``, ``ideal rel``, ``gain``, the
        discount denominator, ``contribution`` and ``running DCG``. ``value``: the sum of the
        contributions. ``latex``: the sum with numbers. ``details``: none.

    {References of ideal_dcg}

    Examples
    --------
    >>> worked = ideal_dcg_breakdown([3, 2, 3, 0, 1, 2], gain="exponential")
    >>> worked.table["ideal rel"].tolist()
    [3.0, 3.0, 2.0, 2.0, 1.0, 0.0]
    >>> round(worked.value, 3)
    14.595
    """
    _, k, ctx, variant = _graded_input(rels, k, judged, gain, discount, log_base, "ideal_dcg_breakdown")
    ideal = truncate(ctx.ranking.judged_grade, k)  # every judged grade, best first
    return _dcg_table(ideal, kernels.ideal_rows(ctx, variant), float(kernels.ideal_dcg(ctx, variant)[0]),
                      variant, "IDCG", rel_name=N_("ideal rel"))


# ------------------------------------------------------------------- public: nDCG


def ndcg(rels, k=None, *, judged=None, gain="linear", discount="log2", log_base=2) -> float:
    r"""Normalized DCG: DCG divided by the DCG of the ideal ranking.

    .. math:: \mathrm{nDCG@}k = \frac{\mathrm{DCG@}k}{\mathrm{IDCG@}k}

    Parameters
    ----------
    {rels}
    k : int or None, default None
        Cut-off for both DCG and IDCG: the ideal is the top k of the judged grades
        (trec_eval ``ndcg_cut_k``). ``None``: the whole list (trec_eval ``ndcg``).
    judged : sequence of float or None, default None
        Grades of every judged document of the query (retrieved ones included). ``None``:
        the ideal is the ranked list itself sorted, so unretrieved relevant documents are not
        penalized (the lecture's "DCG and NDCG - Limitations").
    gain : {"linear", "exponential"}, default "linear"
        See :func:`dcg`. The default agrees with trec_eval, scikit-learn, ranx and ir_measures;
        the lecture's exercise uses ``"exponential"``.
    discount : {"log2", "jarvelin"}, default "log2"
        See :func:`dcg`.
    log_base : float, default 2
        Base of the ``"jarvelin"`` discount.

    Returns
    -------
    float
        nDCG in [0, 1]; 0.0 when IDCG is 0 (no positive grade: trec_eval's policy) and for an
        empty ranking.

    Notes
    -----
    Known limitations the lecture points out (course 002): ``{1,1,1}`` and ``{1,1,1,0}`` both
    score 1 (a bad document at the end is not penalized), and without ``judged`` ``{1,1,1}``
    scores 1 like ``{1,1,1,1,1}`` (missing documents are not penalized).

    References
    ----------
    .. [1] K. Järvelin and J. Kekäläinen, "Cumulated gain-based evaluation of IR techniques",
       ACM TOIS 20(4), 2002.
    .. [2] trec_eval 10.0, measures ``ndcg`` and ``ndcg_cut``.

    Examples
    --------
    The lecture's exercise (course 002, exponential gain): 13.848 / 14.595 = 0.949.

    >>> round(ndcg([3, 2, 3, 0, 1, 2], gain="exponential"), 3)
    0.949

    Linear gain: (3 + 2/1.585 + 3/2) / (3 + 3/1.585 + 2/2) = 5.762 / 5.893 = 0.978.

    >>> round(ndcg([3, 2, 3]), 3)
    0.978

    Unretrieved relevant documents count only when ``judged`` is given:
    (1 + 1/1.585) / (1 + 1/1.585 + 1/2) = 1.631 / 2.131 = 0.765.

    >>> ndcg([1, 1]), round(ndcg([1, 1], judged=[1, 1, 1]), 3)
    (1.0, 0.765)
    """
    _, _, ctx, variant = _graded_input(rels, k, judged, gain, discount, log_base, "ndcg")
    return float(kernels.ndcg(ctx, variant)[0])


def ndcg_breakdown(rels, k=None, *, judged=None, gain="linear", discount="log2", log_base=2):
    r"""Worked table of :func:`ndcg`: the system ranking and the ideal ranking side by side.

    {Parameters of ndcg}

    Returns
    -------
    Breakdown
        ``table``: one row per rank: ``rank``, the discount denominator, then for the system
        ranking ``rel``, ``gain``, ``contribution``, ``running DCG`` and for the ideal ranking
        ``ideal rel``, ``ideal gain``, ``ideal contribution``, ``running IDCG``. When the
        ideal is longer than the ranking (``judged`` holds unretrieved documents) the missing
        system ranks have ``rel`` NaN and contribute 0. ``value``: (sum of ``contribution``) /
        (sum of ``ideal contribution``), 0.0 when the latter is 0. ``latex``: DCG / IDCG with
        numbers. ``details``: ``dcg`` and ``idcg``, the two sums.

    {References of ndcg}

    Examples
    --------
    >>> worked = ndcg_breakdown([3, 2, 3, 0, 1, 2], gain="exponential")
    >>> worked.table[["rel", "ideal rel"]].astype(int).values.T.tolist()
    [[3, 2, 3, 0, 1, 2], [3, 3, 2, 2, 1, 0]]
    >>> worked.latex
    '\\mathrm{nDCG} = \\frac{\\mathrm{DCG}}{\\mathrm{IDCG}} = \\frac{13.848}{14.595} = 0.949'
    """
    import pandas as pd

    grades, k, ctx, variant = _graded_input(rels, k, judged, gain, discount, log_base, "ndcg_breakdown")
    system = [truncate(a, k) for a in (grades, *kernels.dcg_rows(ctx, variant))]
    ideal = [truncate(a, k) for a in (ctx.ranking.judged_grade, *kernels.ideal_rows(ctx, variant))]
    n = max(system[0].shape[0], ideal[0].shape[0])
    # The longer side has a denominator for every rank; both sides share the discount.
    denominators = (system if system[0].shape[0] == n else ideal)[2]
    # Pad the shorter side with NaN grades and gains that contribute nothing, so both columns line up.
    system_rel, system_gain, _denominators, contributions = (_padded(a, n, fill) for a, fill in zip(system, _PADDING))
    ideal_rel, ideal_gain, _ideal_denominators, ideal_contributions = (_padded(a, n, fill) for a, fill in zip(ideal, _PADDING))
    columns = {
        "rank": (_("rank"), np.arange(1, n + 1)),
        "discount": (_discount_label(discount, variant.param("log_base")), denominators),
        "grade": (_("rel"), system_rel),
        "gain": (_("gain"), system_gain),
        "contribution": (_("contribution"), contributions),
        "running": (_("running DCG"), np.cumsum(contributions)),
        "ideal_grade": (_("ideal rel"), ideal_rel),
        "ideal_gain": (_("ideal gain"), ideal_gain),
        "ideal_contribution": (_("ideal contribution"), ideal_contributions),
        "ideal_running": (_("running IDCG"), np.cumsum(ideal_contributions)),
    }
    table = pd.DataFrame(dict(columns.values()))
    dcg_value = float(kernels.dcg(ctx, variant)[0])
    idcg_value = float(kernels.ideal_dcg(ctx, variant)[0])
    value = float(kernels.ndcg(ctx, variant)[0])
    cut = "" if k is None else f"@{k}"
    name = rf"\mathrm{{nDCG{cut}}} = \frac{{\mathrm{{DCG{cut}}}}}{{\mathrm{{IDCG{cut}}}}}"
    if idcg_value > 0:
        latex = rf"{name} = \frac{{{dcg_value:.3f}}}{{{idcg_value:.3f}}} = {value:.3f}"
    else:
        latex = rf"{name},\ \mathrm{{IDCG{cut}}} = 0 \Rightarrow \mathrm{{nDCG{cut}}} = 0"
    return Breakdown(table, value, latex, {"dcg": dcg_value, "idcg": idcg_value},
                     roles={role: header for role, (header, _values) in columns.items()})


# -------------------------------------------------------------------- public: ERR


def err(rels, k=None, *, max_grade=None, judged=None) -> float:
    r"""Expected reciprocal rank (Chapelle et al. 2009): a cascade user stops when satisfied.

    .. math::

        \mathrm{ERR@}k = \sum_{r=1}^{k} \frac{1}{r} R_r \prod_{i=1}^{r-1} (1 - R_i),
        \qquad R_i = \frac{2^{g_i} - 1}{2^{g_{\max}}}

    Parameters
    ----------
    {rels}
    {k}
    max_grade : float or None, default None
        g_max, the top of the grade scale. ``None``: the largest grade in ``judged`` when it is
        given, else the largest grade in the whole list (before the cut-off). A grade above
        ``max_grade``, in ``rels`` or ``judged``, raises ValueError.
    judged : sequence of float or None, default None
        Grades of every judged document of the query, retrieved or not. They only set the
        default g_max (their largest), so that a ranking which missed the best documents is
        not measured against its own best grade. Like :func:`ndcg`'s ``judged``, it must hold
        every positive grade of ``rels``.

    Returns
    -------
    float
        ERR in [0, 1); 0.0 for an empty or all-zero ranking.

    Notes
    -----
    R_i is the probability that the document at rank i satisfies the user (course note 001).
    g_max is, in order: ``max_grade``, the largest grade of ``judged``, the largest grade of
    ``rels``. The last depends on the list, so the same ranking can score differently next to
    other queries: to compare queries or systems, give the scale's maximum (e.g.
    ``max_grade=4`` for a 0-4 scale), as Chapelle et al. do. :func:`rankviz.evaluate` uses
    the largest grade of the qrels.

    References
    ----------
    .. [1] O. Chapelle, D. Metzler, Y. Zhang and P. Grinspan, "Expected reciprocal rank for
       graded relevance", CIKM 2009.

    Examples
    --------
    Grades 2, 0, 1 with g_max = 2: R = 3/4, 0, 1/4, so
    ERR = 3/4 + (1/2)(1/4)(0) + (1/3)(1/4)(1)(1/4) = 0.75 + 0 + 0.021 = 0.771.

    >>> round(err([2, 0, 1]), 3)
    0.771
    >>> round(err([2, 0, 1], max_grade=3), 3)  # R = 3/8, 0, 1/8: 0.375 + 0.026
    0.401

    A grade 3 was judged but not retrieved, so g_max = 3 as above:

    >>> round(err([2, 0, 1], judged=[3, 2, 1, 0]), 3)
    0.401
    """
    _, k, ctx = _err_input(rels, k, max_grade, judged, "err")
    return float(kernels.expected_reciprocal_rank(ctx, Cut(k))[0])


def err_breakdown(rels, k=None, *, max_grade=None, judged=None):
    r"""Worked table of :func:`err`: one row per rank of the cascade.

    {Parameters of err}

    Returns
    -------
    Breakdown
        ``table``: columns ``rank``, ``grade``, ``R_i`` = (2^g - 1) / 2^g_max,
        ``P(reach rank)`` = prod_{j<i} (1 - R_j), ``P(stop here)`` = P(reach) R_i,
        ``P(stop)/r`` and ``running ERR``. ``value``: the sum of ``P(stop)/r``. ``latex``: the
        sum with numbers. ``details``: ``max_grade``, the g_max used.

    {References of err}

    Examples
    --------
    >>> worked = err_breakdown([2, 0, 1])
    >>> worked.table["R_i"].tolist()
    [0.75, 0.0, 0.25]
    >>> worked.table["P(reach rank)"].tolist()
    [1.0, 0.25, 0.25]
    >>> round(worked.value, 3), worked.details["max_grade"]
    (0.771, 2.0)
    """
    import pandas as pd

    grades, k, ctx = _err_input(rels, k, max_grade, judged, "err_breakdown")
    variant = Cut(k)
    shown = truncate(grades, k)
    stop, reach, stop_here, term = (truncate(a, k) for a in kernels.err_rows(ctx, variant))
    ranks = np.arange(1, shown.shape[0] + 1)
    columns = {"rank": (_("rank"), ranks), "grade": (_("grade"), shown), "stop": ("R_i", stop),
               "reach": (_("P(reach rank)"), reach), "stop_here": (_("P(stop here)"), stop_here),
               "contribution": (_("P(stop)/r"), term), "running": (_("running ERR"), np.cumsum(term))}
    table = pd.DataFrame(dict(columns.values()))
    value = float(kernels.expected_reciprocal_rank(ctx, variant)[0])
    top = kernels.err_max_grade(ctx, variant)
    terms = [
        rf"\frac{{1}}{{{r}}} \cdot {_num(p)} \cdot {_num(s)}"
        for r, p, s in zip(ranks, reach, stop)
    ]
    cut = "" if k is None else f"@{k}"
    latex = (
        rf"\mathrm{{ERR{cut}}} = \sum_r \frac{{1}}{{r}} \prod_{{i<r}}(1 - R_i)\, R_r"
        rf" = {sum_latex(terms)} = {value:.3f},\quad R_i = \frac{{2^{{g_i}} - 1}}{{2^{{{_num(top)}}}}}"
    )
    return Breakdown(table, value, latex, {"max_grade": top}, roles={role: header for role, (header, _values) in columns.items()})


fill_metric_docstrings(globals())  # the {rels} and {Parameters of metric} lines of the docstrings above
