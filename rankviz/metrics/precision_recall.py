"""Precision-recall metrics: the precision-recall points of a ranking and interpolated precision.

Holds :func:`precision_recall_points` (P@i and R@i after every rank, the raw curve),
:func:`interpolated_precision` at chosen recall levels, and the two averages of the interpolated
curve: :func:`eleven_point_precision` (levels 0.0, 0.1, ..., 1.0, trec_eval's ``11pt_avg``) and
:func:`interpolated_average_precision` (levels 0.1, ..., 1.0, the lecture's per-query "MAP"),
each with its ``*_breakdown`` twin, and the constants :data:`ROUNDINGS` (how a recall level
becomes a count of relevant documents) and :data:`ELEVEN_RECALL_LEVELS`.

The conventions are those of :mod:`rankviz.metrics.binary`, and the input helpers
(:mod:`rankviz.metrics.binary_input`) are the same: ``rels`` are relevance grades in ranked order
(``rels[0]`` is rank 1), a document is relevant when its grade is ``>= rel_threshold`` (default
1, as trec_eval's ``-l``), and R, the number of relevant documents of the query, comes from
``n_relevant`` when given, else from ``judged``, else from the list itself. R = 0 gives 0.0
(trec_eval's policy).

Every value is computed by the kernels :func:`rankviz.evaluate` uses: the precision-recall
points by :func:`rankviz.metrics.kernels.binary.precision_recall_at_ranks`, interpolated
precision by :func:`rankviz.metrics.kernels.interpolated.interpolate`, whose rounding rule
(``rounding=``) is the one trec_eval's versions differ by; the breakdown tables read the
intermediate arrays of the same one-list context, and each returns a
:class:`~rankviz.metrics.breakdown.Breakdown` (table, value, formula with numbers, details).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from rankviz.metrics._docwords import fill_metric_docstrings
from rankviz.metrics._latex import fraction as _frac
from rankviz.metrics._latex import number as _num
from rankviz.i18n import N_, _
from rankviz.metrics._latex import sum_latex, text
from rankviz.metrics.validation import as_scores, check_choice, check_k
from rankviz.metrics.binary_input import BINARY_HEADERS, BinaryRanking, binary_grades, binary_ranking, rank_table
from rankviz.metrics.breakdown import Breakdown, by_role
from rankviz.metrics.kernels import binary as binary_kernels
from rankviz.metrics.kernels import interpolated as interpolated_kernels

__all__ = [
    "PrecisionRecallPoints",
    "precision_recall_points",
    "precision_recall_points_breakdown",
    "interpolated_precision",
    "interpolated_precision_breakdown",
    "eleven_point_precision",
    "eleven_point_precision_breakdown",
    "interpolated_average_precision",
    "interpolated_average_precision_breakdown",
    "ROUNDINGS",
    "ELEVEN_RECALL_LEVELS",
]

#: How a recall level p becomes the number of relevant documents c a rank must have reached.
#: "ceil": c = ceil(p R), the textbook "recall >= p"; "floor_plus_0.9": c = floor(p R + 0.9),
#: trec_eval 9.x (and pytrec_eval, ranx, ir_measures); "lround": c = round-half-up(p R), trec_eval 10.0.
#: The kernels' own rules (:data:`rankviz.metrics.kernels.interpolated.ROUNDINGS`).
ROUNDINGS = interpolated_kernels.ROUNDINGS
#: role -> header of the interpolated tables (one row per recall level), English source.
LEVEL_HEADERS = {
    "level": N_("recall level"),
    "needed": N_("relevant needed"),
    "first_reaching": N_("first rank reaching it"),
    "best_rank": N_("best rank"),
    "interpolated": N_("interpolated P"),
}


def _worked(table, headers, value, latex, details) -> Breakdown:
    """The Breakdown of a table named by role, its headers in the language in force (:func:`by_role`)."""
    shown, roles = by_role(table, headers)
    return Breakdown(shown, value, latex, details, roles)


#: The 11 standard recall levels 0.0, 0.1, ..., 1.0.
ELEVEN_RECALL_LEVELS = interpolated_kernels.STANDARD_RECALL_LEVELS


# ------------------------------------------------------------------------- validation


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


# ---------------------------------------------------------------------------- scoring


def _interpolated_mean(ranking: BinaryRanking, levels, rounding: str) -> float:
    """The kernel of trec_eval's 11pt_avg at ``levels``: mean interpolated precision."""
    return ranking.score(interpolated_kernels.eleven_point_average, levels=tuple(levels), rounding=rounding)


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
    {rels, R, rel_threshold}

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
    grades, threshold = binary_grades(rels, rel_threshold, func=func)
    ranking = binary_ranking(grades, threshold, func=func, n_relevant=n_relevant, judged=judged)
    precision_at, recall_at = binary_kernels.precision_recall_at_ranks(ranking.context, ranking.cut())
    return PrecisionRecallPoints(ranking.context.rank.copy(), precision_at, recall_at)


def precision_recall_points_breakdown(rels, *, n_relevant=None, judged=None, rel_threshold=1):
    r"""Worked table of :func:`precision_recall_points`: one row per rank with P@i and R@i.

    {Parameters of precision_recall_points}

    Returns
    -------
    Breakdown
        ``table``: columns ``rank``, ``rel``, ``relevant?``, ``relevant so far``, ``P@i``,
        ``R@i``. The curve has no natural single value: ``value`` is the final recall (the last
        ``R@i``, 0.0 for an empty list), which equals ``recall(rels, ...)``. ``latex``: the
        final precision and recall. ``details``: ``n_relevant`` (R).

    {References of precision_recall_points}

    Examples
    --------
    >>> worked = precision_recall_points_breakdown([1, 0, 1], n_relevant=4)
    >>> worked.table[["P@i", "R@i"]].round(3).values.tolist()
    [[1.0, 0.25], [0.5, 0.25], [0.667, 0.5]]
    >>> worked.value
    0.5
    """
    func = "precision_recall_points_breakdown"
    grades, threshold = binary_grades(rels, rel_threshold, func=func)
    ranking = binary_ranking(grades, threshold, func=func, n_relevant=n_relevant, judged=judged)
    n_rel = ranking.n_relevant
    table = rank_table(ranking, ranking.grades.shape[0])
    table["precision"], table["recall"] = binary_kernels.precision_recall_at_ranks(ranking.context, ranking.cut())
    value = ranking.score(binary_kernels.recall)  # the final recall: the whole list's
    if not len(table):
        latex = r"R = 0 \quad (" + text(_("empty ranking")) + ")"
    else:
        depth, found = len(table), int(table["relevant_so_far"].iloc[-1])
        r_tex = _frac(found, n_rel) if n_rel else r"0 \ (R = 0)"
        latex = rf"P@{depth} = {_frac(found, depth)}, \quad R@{depth} = {r_tex} = {value:.3f}"
    return _worked(table, BINARY_HEADERS, value, latex, {"n_relevant": n_rel})


# ------------------------------------------------------- public: interpolated precision


def interpolated_precision(rels, recall_levels=None, *, n_relevant=None, judged=None, rel_threshold=1,
                           rounding="ceil") -> np.ndarray:
    r"""Interpolated precision at recall levels: the best precision at any rank reaching that recall.

    .. math:: P_{\mathrm{interp}}(r) = \max_{i \,:\, R@i \ge r} P@i

    (0 when no rank reaches recall r).

    Parameters
    ----------
    {rels}
    recall_levels : sequence of float or None, default None
        Levels in [0, 1], in any order; ``None`` gives the 11 standard levels 0.0, 0.1, ..., 1.0.
    {R}
    {rel_threshold}
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
    grades, threshold = binary_grades(rels, rel_threshold, func=func)
    levels = _check_levels(recall_levels, func)
    rounding = check_choice(rounding, ROUNDINGS, func=func, name="rounding")
    ranking = binary_ranking(grades, threshold, func=func, n_relevant=n_relevant, judged=judged)
    cut = ranking.cut(levels=tuple(levels), rounding=rounding)
    return interpolated_kernels.precision_at_recall_levels(ranking.context, cut)[0].copy()


def _interpolation_table(func, rels, levels, n_relevant, judged, rel_threshold, rounding, *, name: str):
    """The per-level breakdown shared by the interpolated breakdowns; value = mean over the levels.

    Every column comes from the kernel's :class:`~rankviz.metrics.kernels.interpolated.Interpolation`
    and the context's relevant rows; the value from the 11pt_avg kernel at these levels.
    """
    import pandas as pd

    grades, threshold = binary_grades(rels, rel_threshold, func=func)
    rounding = check_choice(rounding, ROUNDINGS, func=func, name="rounding")
    ranking = binary_ranking(grades, threshold, func=func, n_relevant=n_relevant, judged=judged)
    ctx, thr, levels = ranking.context, threshold, tuple(levels)
    result = interpolated_kernels.interpolate(ctx, thr, levels, rounding)
    needed, reached, first, values = (field[0] for field in result)
    ranks, precision_at = ctx.relevant_rank(thr), ctx.precision_at_relevant(thr)
    first_rank = np.zeros(len(levels), dtype=np.int64)
    best_rank = np.zeros(len(levels), dtype=np.int64)
    if reached.any():
        # Recall 0 (c = 0) is reached at rank 1 already; otherwise at the c-th relevant document.
        first_rank[reached] = np.where(needed[reached] == 0, 1, ranks[first[reached]])
        # The best rank: the first relevant rank from there on whose precision is the value.
        rows = np.arange(ranks.size)
        is_best = (rows[None, :] >= first[reached, None]) & (precision_at[None, :] == values[reached, None])
        best_rank[reached] = ranks[np.argmax(is_best, axis=1)]
    table = pd.DataFrame({
        "level": np.asarray(levels, dtype=np.float64),
        "needed": needed,
        # Levels no rank reaches have no rank to show (pd.NA), not rank 0.
        "first_reaching": pd.arrays.IntegerArray(first_rank, ~reached),
        "best_rank": pd.arrays.IntegerArray(best_rank, ~reached),
        "interpolated": values,
    })
    value = _interpolated_mean(ranking, levels, rounding)
    terms = [_num(p) for p in values]
    count = len(table)
    latex = rf"{name} = \frac{{1}}{{{count}}}\left({sum_latex(terms)}\right) = {value:.3f}"
    details = {"n_relevant": ranking.n_relevant, "rounding": rounding}
    return _worked(table, LEVEL_HEADERS, value, latex, details)


def interpolated_precision_breakdown(rels, recall_levels=None, *, n_relevant=None, judged=None, rel_threshold=1,
                                     rounding="ceil"):
    r"""Worked table of :func:`interpolated_precision`: one row per recall level.

    {Parameters of interpolated_precision}

    Returns
    -------
    Breakdown
        ``table``: columns ``recall level``, ``relevant needed`` (c, from ``rounding``),
        ``first rank reaching it`` (the rank of the c-th relevant document), ``best rank`` (the
        rank at or below it with the highest precision) and ``interpolated P``; ranks are
        ``<NA>`` for levels no rank reaches. ``value``: the mean of ``interpolated P``, which is
        trec_eval's ``11pt_avg`` for these levels (:func:`eleven_point_precision` for the
        default ones). ``latex``: the mean written out. ``details``: ``n_relevant`` (R) and
        ``rounding`` (the rule used).

    {References of interpolated_precision}

    Examples
    --------
    >>> worked = interpolated_precision_breakdown([0, 1, 1], [0.5, 1.0])
    >>> worked.table[["recall level", "best rank", "interpolated P"]].round(3).values.tolist()
    [[0.5, 3, 0.667], [1.0, 3, 0.667]]
    >>> dict(worked.details)
    {'n_relevant': 2, 'rounding': 'ceil'}
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
    {rels, R, rel_threshold}
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
    grades, threshold = binary_grades(rels, rel_threshold, func=func)
    rounding = check_choice(rounding, ROUNDINGS, func=func, name="rounding")
    ranking = binary_ranking(grades, threshold, func=func, n_relevant=n_relevant, judged=judged)
    return _interpolated_mean(ranking, ELEVEN_RECALL_LEVELS, rounding)


def eleven_point_precision_breakdown(rels, *, n_relevant=None, judged=None, rel_threshold=1, rounding="ceil"):
    r"""Worked table of :func:`eleven_point_precision`: one row per recall level 0.0, ..., 1.0.

    {Parameters of eleven_point_precision}

    Returns
    -------
    Breakdown
        The breakdown of :func:`interpolated_precision_breakdown` at the 11 levels: ``value``
        is the mean of the ``interpolated P`` column, :func:`eleven_point_precision`'s value;
        ``details``: ``n_relevant`` (R) and ``rounding``.

    {References of eleven_point_precision}

    Examples
    --------
    >>> worked = eleven_point_precision_breakdown([1, 0, 1, 0])
    >>> worked.table["interpolated P"].round(3).tolist()
    [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.667, 0.667, 0.667, 0.667, 0.667]
    >>> worked.latex
    '11\\text{pt} = \\frac{1}{11}\\left(1 + 1 + 1 + 1 + 1 + 1 + 0.667 + 0.667 + \\cdots + 0.667 + 0.667\\right) = 0.848'
    """
    func = "eleven_point_precision_breakdown"
    return _interpolation_table(func, rels, ELEVEN_RECALL_LEVELS, n_relevant, judged, rel_threshold,
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
    {rels, R, rel_threshold}
    levels : int, default 10
        Number of equally spaced recall levels 1/levels, 2/levels, ..., 1.
    rounding : {"ceil", "floor_plus_0.9", "lround"}, default "ceil"
        As in :func:`interpolated_precision`.

    {Returns of eleven_point_precision}

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

    Non-interpolated :func:`~rankviz.metrics.binary.average_precision` averages the precisions at the R relevant ranks
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
    grades, threshold = binary_grades(rels, rel_threshold, func=func)
    grid = _lecture_levels(levels, func)
    rounding = check_choice(rounding, ROUNDINGS, func=func, name="rounding")
    ranking = binary_ranking(grades, threshold, func=func, n_relevant=n_relevant, judged=judged)
    return _interpolated_mean(ranking, grid, rounding)


def interpolated_average_precision_breakdown(rels, *, n_relevant=None, judged=None, rel_threshold=1, levels=10,
                                             rounding="ceil"):
    r"""Worked table of :func:`interpolated_average_precision`, like the lecture's "MAP - An example".

    {Parameters of interpolated_average_precision}

    Returns
    -------
    Breakdown
        The breakdown of :func:`interpolated_precision_breakdown` at the levels 0.1, ..., 1.0:
        ``value`` is the mean of the ``interpolated P`` column,
        :func:`interpolated_average_precision`'s value; ``details``: ``n_relevant`` (R) and
        ``rounding``.

    {References of interpolated_average_precision}

    Examples
    --------
    The lecture's q1 slide, exactly: (1 + 0.667 + 0.5 + 0.4 + 0.333 + 0 + ... + 0) / 10.

    >>> q1 = [1, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    >>> worked = interpolated_average_precision_breakdown(q1, n_relevant=10)
    >>> worked.table["interpolated P"].round(3).tolist()
    [1.0, 0.667, 0.5, 0.4, 0.333, 0.0, 0.0, 0.0, 0.0, 0.0]
    >>> round(worked.value, 3)
    0.29
    """
    func = "interpolated_average_precision_breakdown"
    grid = _lecture_levels(levels, func)
    return _interpolation_table(func, rels, grid, n_relevant, judged, rel_threshold, rounding,
                                name=r"\mathrm{MAP}_{\mathrm{interp}}")


fill_metric_docstrings(globals())  # the {rels} and {Parameters of metric} lines of the docstrings above
