"""User-oriented measures (course 002, "User-oriented Metrics"): what one user sees and knew.

Three kinds of input, following the lecture's definitions:

- **sets of document ids** for coverage and novelty: ``relevant`` (R, the relevant documents),
  ``answer`` (A, the answer set the system retrieved) and ``known`` (K, the relevant documents
  the user already knew of). Any iterable of hashable ids is accepted (list, set, array,
  Series); a set has no duplicates, so an id given twice counts once. A bare string is
  refused, since ``"d12"`` would otherwise be read as the ids ``d``, ``1``, ``2``;
- **counts** for relative recall and recall effort;
- **a ranking** ``rels`` (grades in ranked order) for expected search length, satisfaction and
  frustration, with binary relevance ``grade >= rel_threshold``.

Degenerate policy: a ratio whose denominator is empty (coverage when the user knew no relevant
document, novelty when no relevant document was returned, satisfaction of an empty list) is
0.0, as the rest of rankviz scores a query with no relevant documents (trec_eval's policy).

Each measure has a ``*_breakdown`` twin returning a :class:`~rankviz.metrics.breakdown.Breakdown`:
the worked table, the value, the formula with numbers and (expected search length) the
quantities of Cooper's formula as ``details``.
"""

from __future__ import annotations

import numbers
from collections.abc import Hashable, Iterable

import numpy as np

from rankviz.i18n import _
from rankviz.metrics._latex import text
from rankviz.metrics._docwords import fill_metric_docstrings
from rankviz.metrics.validation import as_grades, as_scores, check_k, check_rel_threshold, relevant_mask, truncate
from rankviz.metrics.binary_input import BinaryRanking, binary_ranking
from rankviz.metrics.breakdown import Breakdown
from rankviz.metrics.kernels import binary as binary_kernels

__all__ = [
    "coverage",
    "coverage_breakdown",
    "novelty",
    "novelty_breakdown",
    "relative_recall",
    "relative_recall_breakdown",
    "recall_effort",
    "recall_effort_breakdown",
    "expected_search_length",
    "expected_search_length_breakdown",
    "satisfaction",
    "satisfaction_breakdown",
    "frustration",
    "frustration_breakdown",
]

LECTURE = "Course lecture 'Evaluating IR Systems' (shared/course/002), 'User-oriented Metrics'"


def _ratio(numerator: int | float, denominator: int | float) -> float:
    return float(numerator / denominator) if denominator else 0.0


def _tex_ratio(numerator, denominator, value: float) -> str:
    if not denominator:
        return rf"\frac{{{numerator}}}{{{denominator}}} := 0 " + text(_(" (empty denominator: 0 by convention)"))
    return rf"\frac{{{numerator}}}{{{denominator}}} = {value:.3f}"


# --------------------------------------------------------------------------- set measures


def _id_list(ids, *, name: str, func: str) -> list:
    """The distinct ids of ``ids`` in first-seen order (order only matters for the tables)."""
    if ids is None or isinstance(ids, (str, bytes)) or not isinstance(ids, Iterable):
        shown = repr(ids) if isinstance(ids, (str, bytes)) else str(ids)
        raise ValueError(
            f"The '{name}' parameter of {func} must be an iterable of document ids (a list or set), "
            f"not {type(ids).__name__}. Got {shown} instead; e.g. {{'d1', 'd3'}}."
        )
    if hasattr(ids, "to_numpy"):  # pandas Series / Index
        ids = ids.to_numpy()
    if isinstance(ids, np.ndarray) and ids.ndim != 1:
        raise ValueError(
            f"The '{name}' parameter of {func} must be one-dimensional. Got an array of shape {ids.shape} instead."
        )
    seen = {}
    for position, doc in enumerate(ids, start=1):
        if not isinstance(doc, Hashable):
            raise ValueError(
                f"document ids in '{name}' of {func} must be hashable (strings, numbers); "
                f"got {doc!r} at position {position}."
            )
        seen.setdefault(doc, None)
    return list(seen)


def _three_sets(relevant, answer, known, *, func: str) -> tuple[list, list, list]:
    return (
        _id_list(relevant, name="relevant", func=func),
        _id_list(answer, name="answer", func=func),
        _id_list(known, name="known", func=func),
    )


def _membership_table(relevant: list, answer: list, known: list, columns: dict):
    """One row per document of R ∪ A ∪ K, ticking its sets and the measure's two counts."""
    import pandas as pd

    docs = list(dict.fromkeys([*relevant, *answer, *known]))
    in_r, in_a, in_k = set(relevant), set(answer), set(known)
    table = pd.DataFrame({
        "doc": docs,
        "in R (relevant)": [d in in_r for d in docs],
        "in A (answer)": [d in in_a for d in docs],
        "in K (known)": [d in in_k for d in docs],
    })
    for column, rule in columns.items():
        table[column] = [rule(d in in_r, d in in_a, d in in_k) for d in docs]
    return table


def coverage(relevant, answer, known) -> float:
    r"""Coverage ratio: the share of the relevant documents the user knew of that were returned.

    .. math:: \mathrm{coverage} = \frac{|K \cap R \cap A|}{|K \cap R|}

    Parameters
    ----------
    relevant : iterable of hashable
        R, the ids of the relevant documents.
    answer : iterable of hashable
        A, the ids of the documents the system returned.
    known : iterable of hashable
        K, the ids of the documents known to the user. Only those also in R count.

    Returns
    -------
    float
        Coverage, in [0, 1].

    Notes
    -----
    Sets: an id repeated within one argument counts once. When the user knew no relevant
    document (:math:`K \cap R = \emptyset`) the ratio is undefined; it is 0.0 here, the same
    policy as a query without relevant documents elsewhere in rankviz.

    References
    ----------
    Korfhage, Information Storage and Retrieval (1997). Baeza-Yates & Ribeiro-Neto, Modern
    Information Retrieval, ch. 3 (1999). Course lecture 002, "User-oriented Metrics".

    Examples
    --------
    The user knew d1, d2, d3 (all relevant); the system returned d1 and d3:
    |{d1, d3}| / |{d1, d2, d3}| = 2/3 = 0.667.

    >>> round(coverage({"d1", "d2", "d3", "d4"}, {"d1", "d3", "d9"}, {"d1", "d2", "d3"}), 3)
    0.667
    """
    relevant, answer, known = _three_sets(relevant, answer, known, func="coverage")
    known_relevant = set(known) & set(relevant)
    return _ratio(len(known_relevant & set(answer)), len(known_relevant))


def coverage_breakdown(relevant, answer, known):
    r"""Coverage as a table: each document of R ∪ A ∪ K, its sets, and whether it is counted.

    Parameters
    ----------
    relevant, answer, known : iterable of hashable
        R, A and K as in :func:`coverage`.

    Returns
    -------
    Breakdown
        ``table``: one row per document (first seen in R, then A, then K) with boolean columns
        ``in R (relevant)``, ``in A (answer)``, ``in K (known)``, ``K ∩ R`` (the denominator)
        and ``K ∩ R ∩ A`` (the numerator). ``value``: the numerator column's sum over the
        denominator column's sum (0.0 when that is 0). ``latex``: the ratio with the counts.
        ``details``: none.

    {References of coverage}

    Examples
    --------
    >>> worked = coverage_breakdown(["d1", "d2"], ["d1", "d7"], ["d1", "d2", "d5"])
    >>> worked.table[["doc", "K ∩ R", "K ∩ R ∩ A"]].values.tolist()
    [['d1', True, True], ['d2', True, False], ['d7', False, False], ['d5', False, False]]
    >>> worked.latex  # 1 of the 2 relevant documents the user knew was returned
    '\\mathrm{coverage} = \\frac{|K \\cap R \\cap A|}{|K \\cap R|} = \\frac{1}{2} = 0.500'
    """
    relevant, answer, known = _three_sets(relevant, answer, known, func="coverage_breakdown")
    table = _membership_table(relevant, answer, known, {
        "K ∩ R": lambda r, a, k: k and r,
        "K ∩ R ∩ A": lambda r, a, k: k and r and a,
    })
    numerator, denominator = int(table["K ∩ R ∩ A"].sum()), int(table["K ∩ R"].sum())
    value = _ratio(numerator, denominator)
    latex = r"\mathrm{coverage} = \frac{|K \cap R \cap A|}{|K \cap R|} = " + _tex_ratio(numerator, denominator, value)
    return Breakdown(table, value, latex)


def novelty(relevant, answer, known) -> float:
    r"""Novelty ratio: the share of the relevant documents returned that the user did not know.

    .. math:: \mathrm{novelty} = \frac{|(R \cap A) - K|}{|R \cap A|}

    {Parameters of coverage}

    Returns
    -------
    float
        Novelty, in [0, 1].

    Notes
    -----
    Sets: an id repeated within one argument counts once. When no relevant document was
    returned (:math:`R \cap A = \emptyset`) the ratio is undefined; it is 0.0 here (nothing new
    was revealed), the same policy as a query without relevant documents elsewhere in rankviz.

    {References of coverage}

    Examples
    --------
    Returned and relevant: d1, d3, d4; the user knew d1: |{d3, d4}| / |{d1, d3, d4}| = 2/3 = 0.667.

    >>> round(novelty({"d1", "d2", "d3", "d4"}, {"d1", "d3", "d4", "d9"}, {"d1", "d2"}), 3)
    0.667
    """
    relevant, answer, known = _three_sets(relevant, answer, known, func="novelty")
    returned_relevant = set(relevant) & set(answer)
    return _ratio(len(returned_relevant - set(known)), len(returned_relevant))


def novelty_breakdown(relevant, answer, known):
    r"""Novelty as a table: each document of R ∪ A ∪ K, its sets, and whether it is counted.

    Parameters
    ----------
    relevant, answer, known : iterable of hashable
        R, A and K as in :func:`novelty`.

    Returns
    -------
    Breakdown
        ``table``: one row per document (first seen in R, then A, then K) with boolean columns
        ``in R (relevant)``, ``in A (answer)``, ``in K (known)``, ``R ∩ A`` (the denominator)
        and ``(R ∩ A) − K`` (the numerator). ``value``: the numerator column's sum over the
        denominator column's sum (0.0 when that is 0). ``latex``: the ratio with the counts.
        ``details``: none.

    {References of novelty}

    Examples
    --------
    >>> worked = novelty_breakdown(["d1", "d2"], ["d1", "d2", "d7"], ["d1"])
    >>> worked.table[["doc", "R ∩ A", "(R ∩ A) − K"]].values.tolist()
    [['d1', True, False], ['d2', True, True], ['d7', False, False]]
    >>> worked.value  # 1 new relevant document of the 2 returned
    0.5
    """
    relevant, answer, known = _three_sets(relevant, answer, known, func="novelty_breakdown")
    table = _membership_table(relevant, answer, known, {
        "R ∩ A": lambda r, a, k: r and a,
        "(R ∩ A) − K": lambda r, a, k: r and a and not k,
    })
    numerator, denominator = int(table["(R ∩ A) − K"].sum()), int(table["R ∩ A"].sum())
    value = _ratio(numerator, denominator)
    latex = r"\mathrm{novelty} = \frac{|(R \cap A) - K|}{|R \cap A|} = " + _tex_ratio(numerator, denominator, value)
    return Breakdown(table, value, latex)


# --------------------------------------------------------------------------- count measures


def _count(value, *, name: str, func: str, minimum: int) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral) or value < minimum:
        shown = repr(value) if isinstance(value, str) else str(value)
        raise ValueError(
            f"The '{name}' parameter of {func} must be an int in the range [{minimum}, inf). Got {shown} instead."
        )
    return int(value)


def relative_recall(found, expected) -> float:
    r"""Relative recall: relevant documents found over the relevant documents the user expected.

    .. math:: \text{relative recall} = \frac{\min(\#\text{found}, \#\text{expected})}{\#\text{expected}}

    Parameters
    ----------
    found : int
        How many relevant documents the user found, >= 0.
    expected : int
        How many relevant documents the user expected to find, >= 1.

    Returns
    -------
    float
        Relative recall, in [0, 1].

    Notes
    -----
    The lecture writes # found / # expected. When the user finds more relevant documents than
    expected, the expectation is fully met and the value is capped at 1 (the user stops
    searching once the expected number is reached), so relative recall stays a recall in
    [0, 1]; the breakdown shows the cap. ``expected = 0`` raises: the user expected nothing,
    and the ratio has no meaning.

    {References of coverage}

    Examples
    --------
    The user expected 5 relevant documents and found 3: 3/5 = 0.6.

    >>> relative_recall(3, 5)
    0.6
    """
    found = _count(found, name="found", func="relative_recall", minimum=0)
    expected = _count(expected, name="expected", func="relative_recall", minimum=1)
    return float(min(found, expected) / expected)


def relative_recall_breakdown(found, expected):
    r"""Relative recall as a one-row table: found, expected, the capped count and the value.

    {Parameters of relative_recall}

    Returns
    -------
    Breakdown
        ``table``: one row with columns ``found``, ``expected``,
        ``counted = min(found, expected)`` and ``relative recall``. ``value``: counted /
        expected. ``latex``: the fraction. ``details``: none.

    {References of relative_recall}

    Examples
    --------
    >>> relative_recall_breakdown(7, 5).latex  # found more than expected: capped
    '\\text{relative recall} = \\frac{\\min(7, 5)}{5} = \\frac{5}{5} = 1.000'
    """
    import pandas as pd

    func = "relative_recall_breakdown"
    found = _count(found, name="found", func=func, minimum=0)
    expected = _count(expected, name="expected", func=func, minimum=1)
    table = pd.DataFrame({"found": [found], "expected": [expected], "counted = min(found, expected)": [
        min(found, expected)]})
    value = float(table["counted = min(found, expected)"].iloc[0] / table["expected"].iloc[0])
    table["relative recall"] = value
    counted = min(found, expected)
    numerator = f"{found}" if found <= expected else rf"\min({found}, {expected})"
    shown = rf"\frac{{{numerator}}}{{{expected}}}"
    if found > expected:
        shown += rf" = \frac{{{counted}}}{{{expected}}}"
    return Breakdown(table, value, text(_("relative recall")) + rf" = {shown} = {value:.3f}")


def recall_effort(expected, examined) -> float:
    r"""Recall effort: relevant documents expected over documents examined until all were found.

    .. math:: \text{recall effort} = \frac{\#\text{expected}}{\#\text{examined}}

    Parameters
    ----------
    expected : int
        How many relevant documents the user expected to find, >= 1.
    examined : int
        How many documents the user examined until all the expected ones were found; at
        least ``expected``, since each relevant document found was examined.

    Returns
    -------
    float
        Recall effort, in (0, 1]; 1 when every document examined was one of those expected.

    Notes
    -----
    ``examined < expected`` raises: the user cannot have found more documents than were looked
    at. Higher is better (less effort per relevant document).

    References
    ----------
    Korfhage, Information Storage and Retrieval (1997). Course lecture 002,
    "User-oriented Metrics".

    Examples
    --------
    The user wanted 4 relevant documents and had to read 10 to find them: 4/10 = 0.4.

    >>> recall_effort(4, 10)
    0.4
    """
    expected, examined = _effort_counts(expected, examined, func="recall_effort")
    return float(expected / examined)


def _effort_counts(expected, examined, *, func: str) -> tuple[int, int]:
    expected = _count(expected, name="expected", func=func, minimum=1)
    examined = _count(examined, name="examined", func=func, minimum=1)
    if examined < expected:
        raise ValueError(
            f"The 'examined' parameter of {func} must be at least 'expected' ({expected}): finding "
            f"{expected} relevant documents means examining at least {expected}. Got {examined} instead."
        )
    return expected, examined


def recall_effort_breakdown(expected, examined):
    r"""Recall effort as a one-row table: expected, examined and the value.

    {Parameters of recall_effort}

    Returns
    -------
    Breakdown
        ``table``: one row with columns ``expected``, ``examined`` and ``recall effort``.
        ``value``: expected / examined. ``latex``: the fraction. ``details``: none.

    {References of recall_effort}

    Examples
    --------
    >>> recall_effort_breakdown(4, 10).latex
    '\\text{recall effort} = \\frac{4}{10} = 0.400'
    """
    import pandas as pd

    expected, examined = _effort_counts(expected, examined, func="recall_effort_breakdown")
    table = pd.DataFrame({"expected": [expected], "examined": [examined]})
    value = float(table["expected"].iloc[0] / table["examined"].iloc[0])
    table["recall effort"] = value
    name = text(_("recall effort"))
    return Breakdown(table, value, rf"{name} = \frac{{{expected}}}{{{examined}}} = {value:.3f}")


# --------------------------------------------------------------------------- expected search length


def _tie_levels(levels, n: int, *, func: str) -> np.ndarray:
    """Level index (0, 1, 2, ...) of each rank; consecutive equal labels form one level."""
    if levels is None:
        return np.arange(n)
    labels = as_scores(levels, func=func, name="levels")
    if labels.size != n:
        raise ValueError(
            f"The 'levels' parameter of {func} must give one tie level per rank: 'rels' has {n} rank(s), "
            f"'levels' has {labels.size}."
        )
    down = np.flatnonzero(np.diff(labels) < 0)
    if down.size:
        i = int(down[0]) + 1
        raise ValueError(
            f"The 'levels' parameter of {func} must be non-decreasing down the ranking (level 1 first, "
            f"e.g. [1, 1, 2, 2, 2, 3]); got {labels[i]:g} at rank {i + 1} after {labels[i - 1]:g}."
        )
    return np.concatenate([[0], np.cumsum(np.diff(labels) > 0)]).astype(int) if n else np.zeros(0, int)


def _check_wanted(wanted, *, func: str) -> int:
    return _count(wanted, name="wanted", func=func, minimum=1)


def _search_plan(rels, wanted, rel_threshold, levels, *, func: str):
    """Per rank: relevant?, level index, and the expected number of times it is examined
    while non-relevant. Returns (grades, relevant, level_index, weights, summary)."""
    grades = as_grades(rels, func=func)
    wanted = _check_wanted(wanted, func=func)
    level_index = _tie_levels(levels, grades.size, func=func)
    relevant = relevant_mask(grades, check_rel_threshold(rel_threshold, func=func))
    weights = np.zeros(grades.size)  # expected count of this (non-relevant) doc being examined
    n_levels = int(level_index.max()) + 1 if grades.size else 0
    found_before = 0
    summary = {"wanted": wanted, "final_level": None, "j": 0, "i": 0, "r": 0, "s": 0,
               "exhausted": False, "available": int(relevant.sum())}
    for level in range(n_levels):
        in_level = level_index == level
        r = int(np.count_nonzero(relevant & in_level))
        i = int(np.count_nonzero(~relevant & in_level))
        if found_before + r >= wanted:
            s = wanted - found_before
            # Cooper: within a level in random order, each of the i non-relevant documents
            # precedes the s-th of the r relevant ones with probability s / (r + 1).
            weights[in_level & ~relevant] = s / (r + 1)
            summary.update(final_level=level, i=i, r=r, s=s)
            break
        weights[in_level & ~relevant] = 1.0
        summary["j"] += i
        found_before += r
    else:
        # Fewer than `wanted` relevant documents: as Cooper, the search runs to exhaustion and
        # every non-relevant document in the list is examined.
        summary["exhausted"] = True
    return grades, relevant, level_index, weights, summary


def expected_search_length(rels, wanted: int = 1, *, rel_threshold: float = 1, levels=None) -> float:
    r"""Expected search length (Cooper 1968): non-relevant documents seen before ``wanted`` relevant.

    For a weak ordering (levels of tied documents in random order within each level), with the
    search ending in the level where the ``wanted``-th relevant document lies:

    .. math:: \mathrm{ESL} = j + \frac{i \cdot s}{r + 1}

    where :math:`j` is the number of non-relevant documents in the levels before it (all
    examined), and in that final level :math:`r` is the number of relevant documents,
    :math:`i` of non-relevant ones and :math:`s` the relevant documents still wanted from it.

    Parameters
    ----------
    rels : sequence of float
        Relevance grades in ranked order (``rels[0]`` is rank 1).
    wanted : int, default 1
        How many relevant documents the user wants, >= 1.
    {rel_threshold}
    levels : sequence of float, optional
        The tie level of each rank, non-decreasing (e.g. ``[1, 1, 2, 2, 2, 3]``: ranks 1-2 are
        one level, 3-5 the next). Documents of a level are in random order. ``None``: a strict
        order, each rank its own level, and ESL is simply the number of non-relevant
        documents above the ``wanted``-th relevant one.

    Returns
    -------
    float
        ESL, in [0, number of non-relevant documents]. Lower is better.

    Notes
    -----
    Why :math:`i s / (r + 1)`: the :math:`r` relevant documents of a level cut its random order
    into :math:`r + 1` gaps, and each non-relevant document falls in any gap with probability
    :math:`1/(r+1)`; it is examined when it falls before the :math:`s`-th relevant document,
    that is in one of the first :math:`s` gaps.

    When the list holds fewer than ``wanted`` relevant documents, the user searches to
    exhaustion as in Cooper's definition: ESL is the number of non-relevant documents in the
    whole list (0.0 for an empty list). The breakdown says so. Cooper counts the search over
    a whole collection; here it is over the ranked list given.

    References
    ----------
    Cooper, W. S. "Expected search length: A single measure of retrieval effectiveness based
    on the weak ordering action of retrieval systems." American Documentation 19(1), 30-41
    (1968). Course lecture 002, "Other user-oriented metrics".

    Examples
    --------
    A strict order N, R, N, N, R: wanting 2 relevant documents, the user skips 3 non-relevant.

    >>> expected_search_length([0, 1, 0, 0, 1], wanted=2)
    3.0

    The same documents in levels {1, 2}, {3, 4, 5}: level 1 gives j = 1 non-relevant and one
    relevant; level 3-5 has r = 1, i = 2, s = 1 still wanted: 1 + 2 x 1 / (1 + 1) = 2.

    >>> expected_search_length([0, 1, 0, 0, 1], wanted=2, levels=[1, 1, 2, 2, 2])
    2.0
    """
    *_, weights, _summary = _search_plan(rels, wanted, rel_threshold, levels, func="expected_search_length")
    return float(weights.sum())


def _examined_label(level: int, summary: dict) -> str:
    final = summary["final_level"]
    if final is None or level < final:
        return "all (level fully examined)"
    if level == final:
        return f"partly, in random order: until {summary['s']} of its {summary['r']} relevant are found"
    return "no (search over)"


def expected_search_length_breakdown(rels, wanted: int = 1, *, rel_threshold: float = 1, levels=None):
    r"""Expected search length as a per-rank table: levels, what the user examines, and why.

    Parameters
    ----------
    rels : sequence of float
        Relevance grades in ranked order.
    wanted : int, default 1
        How many relevant documents the user wants.
    {rel_threshold}
    levels : sequence of float, optional
        The tie level of each rank (non-decreasing); ``None`` for a strict order.

    Returns
    -------
    Breakdown
        ``table``: one row per rank: ``rank``, ``level`` (1, 2, ... in order), ``rel``,
        ``relevant``, ``examined`` (whether the user reads the level fully, partly in random
        order, or not at all) and ``expected non-relevant seen`` (1 for a non-relevant
        document in a fully examined level, :math:`s/(r+1)` in the final level, else 0).
        ``value``: the sum of that last column. ``latex``: Cooper's formula with j, i, s, r
        filled in. ``details``: ``j`` (non-relevant documents in the levels read fully),
        ``i`` (non-relevant in the final level), ``r`` (relevant in the final level), ``s``
        (relevant still wanted from it) and ``exhausted`` (True when the list holds fewer
        relevant documents than wanted).

    {References of expected_search_length}

    Examples
    --------
    >>> worked = expected_search_length_breakdown([0, 1, 0, 0, 1], wanted=2, levels=[1, 1, 2, 2, 2])
    >>> worked.table["expected non-relevant seen"].tolist()
    [1.0, 0.0, 0.5, 0.5, 0.0]
    >>> worked.latex
    '\\mathrm{ESL} = j + \\frac{i \\cdot s}{r + 1} = 1 + \\frac{2 \\cdot 1}{1 + 1} = 2.000'
    """
    import pandas as pd

    grades, relevant, level_index, weights, summary = _search_plan(
        rels, wanted, rel_threshold, levels, func="expected_search_length_breakdown")
    if summary["exhausted"]:
        examined = ["all (list exhausted)"] * grades.size
    else:
        examined = [_examined_label(int(level), summary) for level in level_index]
    table = pd.DataFrame({
        "rank": np.arange(1, grades.size + 1),
        "level": level_index + 1,
        "rel": grades,
        "relevant": relevant,
        "examined": examined,
        "expected non-relevant seen": weights,
    })
    value = float(table["expected non-relevant seen"].sum())
    details = {key: summary[key] for key in ("j", "i", "r", "s", "exhausted")}
    if summary["exhausted"]:
        latex = (
            rf"\mathrm{{ESL}} = j = {value:g} \text{{ (only {summary['available']} of {summary['wanted']} wanted "
            rf"relevant in the list: searched to exhaustion)}}"
        )
    else:
        j, i, r, s = (summary[key] for key in ("j", "i", "r", "s"))
        latex = (
            rf"\mathrm{{ESL}} = j + \frac{{i \cdot s}}{{r + 1}} = {j} + \frac{{{i} \cdot {s}}}{{{r} + 1}}"
            rf" = {value:.3f}"
        )
    return Breakdown(table, value, latex, details)


# --------------------------------------------------------------------------- satisfaction / frustration


def _returned(rels, k, rel_threshold, *, func: str) -> BinaryRanking:
    """The top k as a one-list ranking: what the user was shown is the list the set kernels score."""
    grades = as_grades(rels, func=func)
    k = check_k(k, func=func)
    threshold = check_rel_threshold(rel_threshold, func=func)
    return binary_ranking(truncate(grades, k), threshold, func=func)


def satisfaction(rels, k=None, *, rel_threshold: float = 1) -> float:
    r"""Satisfaction: the share of the returned documents (top k) that are relevant.

    .. math:: \mathrm{satisfaction@}k = \frac{|\text{relevant returned}|}{|\text{returned}|},
              \quad |\text{returned}| = \min(k, n)

    Parameters
    ----------
    rels : sequence of float
        Relevance grades in ranked order (``rels[0]`` is rank 1).
    k : int, optional
        Only the top k are returned to the user (``None``: the whole list).
    {rel_threshold}

    Returns
    -------
    float
        Satisfaction, in [0, 1]. For a non-empty list, satisfaction + frustration = 1.

    Notes
    -----
    Within the list this is precision@k, but it describes what the user saw: when k is beyond
    the list of n documents it divides by n, while trec_eval's ``P_k`` divides by k (missing
    ranks count as non-relevant). An empty list returns 0.0 (the rankviz policy for an empty
    ranking; frustration is 0.0 too, so the two do not sum to 1 there).

    References
    ----------
    Course lecture 002, "Other user-oriented metrics": "Satisfaction considers only % relevant
    docs returned".

    Examples
    --------
    Top 4 of R, N, R, N, R: 2 relevant of 4 returned, 2/4 = 0.5.

    >>> satisfaction([1, 0, 1, 0, 1], k=4)
    0.5

    k = 10 beyond a list of 5: the user saw 5 documents, 3 relevant: 3/5 = 0.6 (P@10 is 0.3).

    >>> satisfaction([1, 0, 1, 0, 1], k=10)
    0.6
    """
    return _returned(rels, k, rel_threshold, func="satisfaction").score(binary_kernels.set_precision)


def frustration(rels, k=None, *, rel_threshold: float = 1) -> float:
    r"""Frustration: the share of the returned documents (top k) that are not relevant.

    .. math:: \mathrm{frustration@}k = \frac{|\text{non-relevant returned}|}{|\text{returned}|}
              = 1 - \mathrm{satisfaction@}k

    {Parameters of satisfaction}

    Returns
    -------
    float
        Frustration, in [0, 1]. Lower is better.

    Notes
    -----
    A k beyond the list divides by the list's length, as :func:`satisfaction`. An empty list
    returns 0.0 (nothing was returned, so nothing frustrated the user).

    References
    ----------
    Course lecture 002, "Other user-oriented metrics": "Frustration considers only %
    non-relevant docs returned".

    Examples
    --------
    Top 4 of R, N, N, N, R: 3 non-relevant of 4 returned, 3/4 = 0.75.

    >>> frustration([1, 0, 0, 0, 1], k=4)
    0.75
    """
    return _returned(rels, k, rel_threshold, func="frustration").score(binary_kernels.set_non_relevant_share)


def _returned_table(rels, k, rel_threshold, *, func: str, column: str, kernel):
    """The per-rank table of the returned documents, from the context's relevant mask and running
    count, ``kernel``'s value, and the numerator of its ratio."""
    import pandas as pd

    returned = _returned(rels, k, rel_threshold, func=func)
    ctx, thr = returned.context, returned.threshold
    rank = ctx.rank
    relevant, found = ctx.relevant(thr), ctx.running_relevant(thr)
    counted, running = (relevant, found) if column == "relevant" else (~relevant, rank - found)
    table = pd.DataFrame({
        "rank": rank,
        "rel": returned.grades,
        column: counted.astype(int),
        f"running {column} share": running / rank,
    })
    return table, returned.score(kernel), int(running[-1]) if rank.size else 0


def satisfaction_breakdown(rels, k=None, *, rel_threshold: float = 1):
    r"""Satisfaction as a per-rank table of the returned documents.

    Parameters
    ----------
    rels : sequence of float
        Relevance grades in ranked order.
    k : int, optional
        Only the top k are returned (``None``: the whole list).
    {rel_threshold}

    Returns
    -------
    Breakdown
        ``table``: one row per returned document: ``rank``, ``rel``, ``relevant`` (1/0) and
        ``running relevant share``. ``value``: the ``relevant`` column's sum over the number of
        rows (0.0 with no rows). ``latex``: the fraction. ``details``: none.

    {References of satisfaction}

    Examples
    --------
    >>> satisfaction_breakdown([1, 0, 1, 0, 1], k=4).latex
    '\\mathrm{satisfaction@4} = \\frac{2}{4} = 0.500'
    """
    table, value, numerator = _returned_table(rels, k, rel_threshold, func="satisfaction_breakdown",
                                              column="relevant", kernel=binary_kernels.set_precision)
    latex = rf"\mathrm{{satisfaction@{_k_label(k, rels)}}} = " + _tex_ratio(numerator, len(table), value)
    return Breakdown(table, value, latex)


def frustration_breakdown(rels, k=None, *, rel_threshold: float = 1):
    r"""Frustration as a per-rank table of the returned documents.

    {Parameters of satisfaction_breakdown}

    Returns
    -------
    Breakdown
        ``table``: one row per returned document: ``rank``, ``rel``, ``non-relevant`` (1/0) and
        ``running non-relevant share``. ``value``: the ``non-relevant`` column's sum over the
        number of rows (0.0 with no rows). ``latex``: the fraction. ``details``: none.

    {References of frustration}

    Examples
    --------
    >>> frustration_breakdown([1, 0, 0, 0, 1], k=4).latex
    '\\mathrm{frustration@4} = \\frac{3}{4} = 0.750'
    """
    table, value, numerator = _returned_table(rels, k, rel_threshold, func="frustration_breakdown",
                                              column="non-relevant", kernel=binary_kernels.set_non_relevant_share)
    latex = rf"\mathrm{{frustration@{_k_label(k, rels)}}} = " + _tex_ratio(numerator, len(table), value)
    return Breakdown(table, value, latex)


def _k_label(k, rels) -> str:
    # Called after validation, so len(rels) is safe.
    return str(k) if k is not None else str(len(rels))


fill_metric_docstrings(globals())  # the {rels} and {Parameters of metric} lines of the docstrings above
