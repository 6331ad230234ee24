"""Aggregates over queries: MAP, GMAP, HMAP, MRR and the plain arithmetic mean.

Each function takes the per-query values a run scored (one AP or one RR per query, in any
order) and returns one float. The ``*_breakdown`` twins lay the same computation out as a
table with one row per query, the way the lecture's "GMAP - example" slide does, and return it
as a :class:`~rankviz.metrics.breakdown.Breakdown` (table, value, formula with numbers, details).

Policies, the same for every function here:

- at least one query is needed (an empty input raises: a mean of nothing is not 0);
- AP and RR values must be finite numbers in [0, 1];
- GMAP and HMAP floor every AP at ``floor`` (default 1e-5, trec_eval's ``gm_map``) before
  taking logs or reciprocals, so that one query with AP = 0 does not send GMAP to 0 and
  HMAP to 0 outright. ``floor=0`` is allowed and then does exactly that.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from rankviz.metrics._docwords import fill_metric_docstrings
from rankviz.metrics._latex import sum_latex
from rankviz.metrics.validation import as_scores
from rankviz.metrics.breakdown import Breakdown
from rankviz.metrics.kernels import aggregate as kernels

__all__ = [
    "mean_average_precision",
    "mean_average_precision_breakdown",
    "geometric_mean_average_precision",
    "geometric_mean_average_precision_breakdown",
    "harmonic_mean_average_precision",
    "harmonic_mean_average_precision_breakdown",
    "mean_reciprocal_rank",
    "mean_reciprocal_rank_breakdown",
    "arithmetic_mean",
    "arithmetic_mean_breakdown",
]

# trec_eval's MIN_GEO_MEAN (m_gm_map.c): the AP a query with AP = 0 counts as in gm_map.
TREC_EVAL_FLOOR = kernels.TREC_EVAL_FLOOR



# --------------------------------------------------------------------------- validation


def _per_query_values(values, *, func: str, name: str, unit_interval: bool) -> np.ndarray:
    arr = as_scores(values, func=func, name=name)
    if arr.size == 0:
        raise ValueError(f"{func} needs at least one query; '{name}' is empty.")
    if unit_interval:
        outside = np.flatnonzero((arr < 0) | (arr > 1))
        if outside.size:
            i = int(outside[0])
            raise ValueError(
                f"values in '{name}' of {func} must be in the range [0, 1]; got {arr[i]:g} at query {i + 1}."
            )
    return arr


def _check_floor(floor, *, func: str) -> float:
    ok = isinstance(floor, numbers.Real) and not isinstance(floor, (bool, np.bool_))
    if ok:
        floor = float(floor)
        ok = math.isfinite(floor) and 0 <= floor <= 1
    if not ok:
        raise ValueError(
            f"The 'floor' parameter of {func} must be a number in the range [0, 1]. Got {floor!r} instead."
        )
    return floor


def _query_labels(queries, n: int, *, func: str, values=None) -> list:
    if queries is None:
        index = getattr(values, "index", None)
        # A Series indexed by query id (a column of per-query results) labels its own rows.
        if index is not None and hasattr(values, "to_numpy") and type(index).__name__ != "RangeIndex":
            return list(index)
        return [f"q{i}" for i in range(1, n + 1)]
    if isinstance(queries, (str, bytes)):
        raise ValueError(
            f"The 'queries' parameter of {func} must be a sequence of query labels, not a string. Got {queries!r}."
        )
    labels = list(queries)
    if len(labels) != n:
        raise ValueError(
            f"The 'queries' parameter of {func} must hold one label per value: {n} value(s) but "
            f"{len(labels)} label(s)."
        )
    return labels


# --------------------------------------------------------------------------- LaTeX helpers


def _tex_number(x: float) -> str:
    """A per-query value as a student would write it: 0.05, 0.333, 10^{-5}."""
    if math.isinf(x):
        return r"-\infty" if x < 0 else r"\infty"
    text = f"{x:.4g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        power = f"10^{{{int(exponent)}}}"
        return power if mantissa == "1" else rf"{mantissa} \times {power}"
    return text


def _tex_result(x: float) -> str:
    return f"{x:.3f}" if math.isfinite(x) else _tex_number(x)


def _mean_breakdown(values, queries, func: str, name: str, column: str, symbol: str, *,
                    unit_interval: bool = True) -> Breakdown:
    """The worked table of an arithmetic mean of per-query values (MAP, MRR, any measure's):
    the values checked as ``func``'s parameter ``name``, one row per query, the mean written
    ``symbol`` = (sum of the terms) / Q."""
    checked = _per_query_values(values, func=func, name=name, unit_interval=unit_interval)
    table = _mean_table(checked, _query_labels(queries, checked.size, func=func, values=values), column)
    value = kernels.arithmetic_mean(checked)
    return Breakdown(table, value, _arithmetic_latex(symbol, table[column].to_numpy(), value),
                     roles=_per_query_roles(column))
def _per_query_roles(column: str) -> dict:
    """The roles of an aggregate's table: its queries, and the per-query values it combines."""
    return {"query": "query", "value": column}


def _mean_table(values: np.ndarray, labels: list, column: str):
    import pandas as pd

    return pd.DataFrame({"query": labels, column: values})


def _arithmetic_latex(symbol: str, column_values: np.ndarray, value: float) -> str:
    terms = sum_latex([_tex_number(v) for v in column_values])
    return rf"{symbol} = \frac{{{terms}}}{{{column_values.size}}} = {_tex_result(value)}"


# --------------------------------------------------------------------------- MAP


def mean_average_precision(aps) -> float:
    r"""Mean average precision: the arithmetic mean of per-query APs.

    .. math:: \mathrm{MAP} = \frac{1}{Q} \sum_{q=1}^{Q} \mathrm{AP}(q)

    Parameters
    ----------
    aps : sequence of float
        The average precision of each query, each in [0, 1] (list, tuple, array or Series).

    Returns
    -------
    float
        MAP, in [0, 1].

    Notes
    -----
    Every query weighs the same, whatever its number of relevant documents. Which queries are
    averaged is the caller's choice: trec_eval ``-c`` counts a qrels query the run missed as
    AP = 0, so pass a 0 for it. An empty ``aps`` raises (a mean over no queries is undefined).

    References
    ----------
    Manning, Raghavan & Schütze, Introduction to Information Retrieval, 8.4 (2008).
    Course lecture 002, slide "MAP - An example".

    Examples
    --------
    The lecture averages q1's 0.28 and q2's 0.254: (0.28 + 0.254) / 2 = 0.267.

    >>> round(mean_average_precision([0.28, 0.254]), 3)
    0.267
    """
    aps = _per_query_values(aps, func="mean_average_precision", name="aps", unit_interval=True)
    return kernels.arithmetic_mean(aps)


def mean_average_precision_breakdown(aps, *, queries=None):
    r"""MAP as a worked table: one row per query with its AP.

    Parameters
    ----------
    aps : sequence of float
        The average precision of each query, each in [0, 1].
    {queries}

    Returns
    -------
    Breakdown
        ``table``: columns ``query`` and ``AP``. ``value``: the mean of the ``AP`` column.
        ``latex``: the formula with the numbers substituted. ``details``: none.

    {References of mean_average_precision}

    Examples
    --------
    >>> worked = mean_average_precision_breakdown([0.28, 0.254], queries=["q1", "q2"])
    >>> worked.latex
    '\\mathrm{MAP} = \\frac{0.28 + 0.254}{2} = 0.267'
    """
    return _mean_breakdown(aps, queries, "mean_average_precision_breakdown", "aps", "AP", r"\mathrm{MAP}")


# --------------------------------------------------------------------------- GMAP


def _logs(floored: np.ndarray) -> np.ndarray:
    # With floor=0 a zero AP has log -inf on purpose: the geometric mean is then exactly 0.
    with np.errstate(divide="ignore"):
        return np.log(floored)


def geometric_mean_average_precision(aps, floor: float = TREC_EVAL_FLOOR) -> float:
    r"""Geometric mean of per-query APs (GMAP), each AP floored at ``floor`` first.

    .. math:: \mathrm{GMAP} = \exp\left(\frac{1}{Q} \sum_{q=1}^{Q} \ln \max(\mathrm{AP}(q), \epsilon)\right)
              = \sqrt[Q]{\prod_{q=1}^{Q} \max(\mathrm{AP}(q), \epsilon)}

    Parameters
    ----------
    aps : sequence of float
        The average precision of each query, each in [0, 1].
    floor : float, default 1e-5
        :math:`\epsilon`, in [0, 1]: an AP below it counts as ``floor``. The default is
        trec_eval's (``gm_map``, ``MIN_GEO_MEAN = 0.00001``). With ``floor=0`` any query with
        AP = 0 makes GMAP exactly 0.

    Returns
    -------
    float
        GMAP, in [0, 1]. By the AM-GM inequality it is never above the mean of the floored
        APs (so at most MAP + ``floor``), and equal to it when all floored APs are equal.

    Notes
    -----
    GMAP rewards lifting the worst queries: a query going from AP 0.05 to 0.10 doubles its
    factor, while MAP sees only +0.01 per query. Without the floor a single AP of 0 would make
    GMAP 0 whatever the other queries do; the floor keeps it informative, and a reader must
    know which floor a published GMAP used. An empty ``aps`` raises.

    References
    ----------
    Robertson, "On GMAP", CIKM (2006). Voorhees, TREC 2004 Robust track overview.
    trec_eval 10.0, ``m_gm_map.c``. Course lecture 002, slide "GMAP - example".

    Examples
    --------
    The lecture's Run 1 and Run 2 both have MAP 0.38; GMAP tells them apart.
    Run 1: (0.05 x 0.10 x 0.50 x 0.50 x 0.75)^(1/5) = 0.0009375^(1/5) = 0.248 (slide: 0.25).

    >>> round(geometric_mean_average_precision([0.05, 0.10, 0.50, 0.50, 0.75]), 3)
    0.248

    Run 2: (0.10 x 0.30 x 0.45 x 0.45 x 0.60)^(1/5) = 0.003645^(1/5) = 0.325 (slide: 0.33).

    >>> round(geometric_mean_average_precision([0.10, 0.30, 0.45, 0.45, 0.60]), 3)
    0.325
    """
    func = "geometric_mean_average_precision"
    aps = _per_query_values(aps, func=func, name="aps", unit_interval=True)
    floor = _check_floor(floor, func=func)
    return kernels.geometric_mean(aps, floor)


def geometric_mean_average_precision_breakdown(aps, floor: float = TREC_EVAL_FLOOR, *, queries=None):
    r"""GMAP as a worked table: each query's AP, the floored AP and its natural log.

    Parameters
    ----------
    aps : sequence of float
        The average precision of each query, each in [0, 1].
    floor : float, default 1e-5
        :math:`\epsilon`: an AP below it counts as ``floor`` (trec_eval's ``gm_map``).
    {queries}

    Returns
    -------
    Breakdown
        ``table``: columns ``query``, ``AP``, ``max(AP, ε)`` and ``ln max(AP, ε)``. ``value``:
        exp of the mean of the log column. ``latex``: the formula with the numbers.
        ``details``: ``floor``, the validated ε.

    {References of geometric_mean_average_precision}

    Examples
    --------
    A query with AP = 0 counts as 1e-5, whose log is -11.51:

    >>> worked = geometric_mean_average_precision_breakdown([0.0, 0.5])
    >>> worked.table["ln max(AP, ε)"].round(2).tolist()
    [-11.51, -0.69]
    >>> round(worked.value, 5)  # exp((-11.513 - 0.693) / 2) = sqrt(1e-5 x 0.5)
    0.00224
    """
    table, floor = _floored_ap_table(aps, floor, queries, "ln max(AP, ε)", _logs,
                                     func="geometric_mean_average_precision_breakdown")
    logs = table["ln max(AP, ε)"].to_numpy()
    value = kernels.geometric_mean(table["AP"].to_numpy(), floor)
    log_terms = sum_latex([rf"\ln {_tex_number(v)}" for v in table["max(AP, ε)"]])
    latex = (
        rf"\mathrm{{GMAP}} = \exp\left(\frac{{{log_terms}}}{{{len(table)}}}\right)"
        rf" = \exp\left(\frac{{{_tex_number(float(logs.sum()))}}}{{{len(table)}}}\right) = {_tex_result(value)}"
    )
    return Breakdown(table, value, latex, {"floor": floor}, roles=_per_query_roles("AP"))


# --------------------------------------------------------------------------- HMAP


def _reciprocals(floored: np.ndarray) -> np.ndarray:
    # With floor=0 a zero AP has reciprocal +inf on purpose: the harmonic mean is then 0.
    with np.errstate(divide="ignore"):
        return 1.0 / floored


def harmonic_mean_average_precision(aps, floor: float = TREC_EVAL_FLOOR) -> float:
    r"""Harmonic mean of per-query APs (HMAP), each AP floored at ``floor`` first.

    .. math:: \mathrm{HMAP} = \frac{Q}{\sum_{q=1}^{Q} 1 / \max(\mathrm{AP}(q), \epsilon)}

    Parameters
    ----------
    aps : sequence of float
        The average precision of each query, each in [0, 1].
    floor : float, default 1e-5
        :math:`\epsilon`, in [0, 1]: an AP below it counts as ``floor`` (the same default as
        GMAP, so that the two are comparable). With ``floor=0`` any query with AP = 0 makes
        HMAP exactly 0.

    Returns
    -------
    float
        HMAP, in [0, 1]. With the same floor, HMAP <= GMAP <= the mean of the floored APs,
        all equal when all floored APs are equal.

    Notes
    -----
    The harmonic mean is dominated by the worst queries even more than the geometric mean: a
    single AP of 1e-5 among Q queries caps HMAP below Q x 1e-5. trec_eval has no HMAP; the
    floor is this package's choice, kept equal to GMAP's. An empty ``aps`` raises.

    References
    ----------
    Course lecture 002 ("GMAP - example", which contrasts arithmetic and geometric means).
    Robertson, "On GMAP", CIKM (2006), on means that emphasise poorly performing topics.

    Examples
    --------
    Run 1 of the lecture: 5 / (1/0.05 + 1/0.10 + 1/0.50 + 1/0.50 + 1/0.75) = 5 / 35.33 = 0.142.

    >>> round(harmonic_mean_average_precision([0.05, 0.10, 0.50, 0.50, 0.75]), 3)
    0.142
    """
    func = "harmonic_mean_average_precision"
    aps = _per_query_values(aps, func=func, name="aps", unit_interval=True)
    floor = _check_floor(floor, func=func)
    return kernels.harmonic_mean(aps, floor)


def harmonic_mean_average_precision_breakdown(aps, floor: float = TREC_EVAL_FLOOR, *, queries=None):
    r"""HMAP as a worked table: each query's AP, the floored AP and its reciprocal.

    Parameters
    ----------
    aps : sequence of float
        The average precision of each query, each in [0, 1].
    floor : float, default 1e-5
        :math:`\epsilon`: an AP below it counts as ``floor``.
    {queries}

    Returns
    -------
    Breakdown
        ``table``: columns ``query``, ``AP``, ``max(AP, ε)`` and ``1 / max(AP, ε)``. ``value``:
        the number of rows over the sum of the reciprocal column. ``latex``: the formula with
        the numbers. ``details``: ``floor``, the validated ε.

    {References of harmonic_mean_average_precision}

    Examples
    --------
    >>> worked = harmonic_mean_average_precision_breakdown([0.5, 0.25])
    >>> worked.table["1 / max(AP, ε)"].tolist()
    [2.0, 4.0]
    >>> worked.latex  # 2 / (2 + 4) = 0.333
    '\\mathrm{HMAP} = \\frac{2}{\\frac{1}{0.5} + \\frac{1}{0.25}} = \\frac{2}{6} = 0.333'
    """
    table, floor = _floored_ap_table(aps, floor, queries, "1 / max(AP, ε)", _reciprocals,
                                     func="harmonic_mean_average_precision_breakdown")
    total = float(table["1 / max(AP, ε)"].sum())
    value = kernels.harmonic_mean(table["AP"].to_numpy(), floor)
    terms = sum_latex([rf"\frac{{1}}{{{_tex_number(v)}}}" for v in table["max(AP, ε)"]])
    latex = (
        rf"\mathrm{{HMAP}} = \frac{{{len(table)}}}{{{terms}}} = \frac{{{len(table)}}}{{{_tex_number(total)}}}"
        rf" = {_tex_result(value)}"
    )
    return Breakdown(table, value, latex, {"floor": floor}, roles=_per_query_roles("AP"))


def _floored_ap_table(aps, floor, queries, column: str, transform, *, func: str):
    """The per-query table GMAP and HMAP share (query, AP, max(AP, ε) and ``column`` =
    ``transform(max(AP, ε))``) and the validated floor."""
    import pandas as pd

    original = aps
    aps = _per_query_values(aps, func=func, name="aps", unit_interval=True)
    floor = _check_floor(floor, func=func)
    floored = kernels.floored(aps, floor)
    table = pd.DataFrame({
        "query": _query_labels(queries, aps.size, func=func, values=original),
        "AP": aps,
        "max(AP, ε)": floored,
        column: transform(floored),
    })
    return table, floor


# --------------------------------------------------------------------------- MRR and plain mean


def mean_reciprocal_rank(rrs) -> float:
    r"""Mean reciprocal rank: the arithmetic mean of per-query reciprocal ranks.

    .. math:: \mathrm{MRR} = \frac{1}{Q} \sum_{q=1}^{Q} \mathrm{RR}(q)

    Parameters
    ----------
    rrs : sequence of float
        The reciprocal rank of each query, each in [0, 1] (0 for a query whose first relevant
        document was not found, or was found below the lecture's threshold :math:`S_h`).

    Returns
    -------
    float
        MRR, in [0, 1].

    Notes
    -----
    The rank threshold :math:`S_h` of the lecture belongs to the per-query RR, not to the
    mean: compute each RR with its cut-off, then average here. An empty ``rrs`` raises.

    References
    ----------
    Voorhees, "The TREC-8 Question Answering Track Report" (1999).
    Course lecture 002, slides "Mean Reciprocal Rank (MRR) - An example".

    Examples
    --------
    The lecture's q1 finds its first relevant document at rank 1 and q2 at rank 3, both
    within S_h = 3: (1/1 + 1/3) / 2 = 0.667 (the slide rounds 1/3 to 0.33 and prints 0.67).

    >>> round(mean_reciprocal_rank([1, 1 / 3]), 3)
    0.667
    """
    rrs = _per_query_values(rrs, func="mean_reciprocal_rank", name="rrs", unit_interval=True)
    return kernels.arithmetic_mean(rrs)


def mean_reciprocal_rank_breakdown(rrs, *, queries=None):
    r"""MRR as a worked table: one row per query with its reciprocal rank.

    Parameters
    ----------
    rrs : sequence of float
        The reciprocal rank of each query, each in [0, 1].
    {queries}

    Returns
    -------
    Breakdown
        ``table``: columns ``query`` and ``RR``. ``value``: the mean of the ``RR`` column.
        ``latex``: the formula with the numbers. ``details``: none.

    {References of mean_reciprocal_rank}

    Examples
    --------
    >>> mean_reciprocal_rank_breakdown([1, 0.5]).latex
    '\\mathrm{MRR} = \\frac{1 + 0.5}{2} = 0.750'
    """
    return _mean_breakdown(rrs, queries, "mean_reciprocal_rank_breakdown", "rrs", "RR", r"\mathrm{MRR}")


def arithmetic_mean(values) -> float:
    r"""The arithmetic mean of any per-query values (mean P@10, mean nDCG, ...).

    .. math:: \bar{x} = \frac{1}{Q} \sum_{q=1}^{Q} x_q

    Parameters
    ----------
    values : sequence of float
        One finite value per query. Unlike the AP-type means, values are not restricted to
        [0, 1], so that unbounded per-query measures (DCG, expected search length) can be
        averaged too.

    Returns
    -------
    float
        The mean.

    Notes
    -----
    This is how trec_eval summarises almost every measure ("all" line). An empty ``values``
    raises.

    References
    ----------
    trec_eval 10.0, the "all" summary line.

    Examples
    --------
    (0.6 + 0.4 + 0.2) / 3 = 0.4

    >>> round(arithmetic_mean([0.6, 0.4, 0.2]), 3)
    0.4
    """
    values = _per_query_values(values, func="arithmetic_mean", name="values", unit_interval=False)
    return kernels.arithmetic_mean(values)


def arithmetic_mean_breakdown(values, *, queries=None):
    r"""The arithmetic mean as a worked table: one row per query with its value.

    Parameters
    ----------
    values : sequence of float
        One finite value per query.
    {queries}

    Returns
    -------
    Breakdown
        ``table``: columns ``query`` and ``value``. ``value``: the mean of the ``value``
        column. ``latex``: the formula with the numbers. ``details``: none.

    {References of arithmetic_mean}

    Examples
    --------
    >>> arithmetic_mean_breakdown([2, 3.5], queries=["a", "b"]).latex
    '\\bar{x} = \\frac{2 + 3.5}{2} = 2.750'
    """
    return _mean_breakdown(values, queries, "arithmetic_mean_breakdown", "values", "value", r"\bar{x}",
                           unit_interval=False)


fill_metric_docstrings(globals(), {  # the {queries} and {Parameters of metric} lines of the docstrings above
    "queries": """
        queries : sequence, optional
            A label per query for the ``query`` column (default: the index of a Series indexed by
            query id, else ``q1, q2, ...``).
        """,
})
