"""How metrics behave: the computations of the metric behaviour explorer.

Three experiments, each a pure function of its settings (the page only draws them):

- :func:`position_sweep`: one relevant document moves from rank 1 to rank N; every metric's value
  at every position. :func:`sweep_changes` compares two sweeps (e.g. R = 1 against R = 3, k = 10
  against k = 5, a 0-1 against a 0-3 grade scale) and says which metrics moved.
- :func:`random_rankings` and :func:`perturbed_rankings` generate many rankings, reproducibly
  from a seed (numpy's PCG64), as the "systems" of a simulated test collection.
- :func:`score_rankings` scores each of them with several metrics, and :func:`metric_agreement`
  gives Kendall's tau-b between the orderings of the rankings that two metrics induce: 1 when
  the two metrics always rank systems alike, -1 when always opposite.

Every metric value comes from rankviz's own definitions, so the explorer can never disagree with
the rest of rankviz: the rankings of an experiment are scored together by the batch kernels of
:mod:`rankviz.metrics.kernels` (those :func:`rankviz.evaluate` uses), and metrics or variants
without a kernel by the metric functions of :mod:`rankviz.metrics`, through the registry
(:mod:`rankviz.registry`). Kendall's tau comes from :mod:`rankviz.metrics.correlation`.

The sweep and the scores come back as small frozen results (:class:`PositionSweep`,
:class:`SweepValues`, :class:`RankingScores`): a ``table`` and named fields for what the page
needs beside it (the settings used, the position shown, each metric's column label).

>>> sweep = position_sweep(4, metrics=("average_precision",))
>>> sweep.table["value"].round(3).tolist()  # one relevant document at rank p: AP = (1/p) / R, R = 1
[1.0, 0.5, 0.333, 0.25]
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np

from rankviz.i18n import N_
from rankviz.i18n import _ as translate
from rankviz.metrics.validation import as_grades, check_choice, check_k, check_positive_number, undefined
from rankviz.registry import DISCOUNT, GAIN, METRICS

__all__ = [
    "PositionSweep",
    "SweepValues",
    "RankingScores",
    "SWEEP_METRICS",
    "DEFAULT_SWEEP_METRICS",
    "MAX_SWEEP_RANKS",
    "MAX_RANKINGS",
    "metric_label",
    "parse_sweep_others",
    "sweep_length",
    "parse_ranking_to_perturb",
    "sweep_rankings",
    "position_sweep",
    "sweep_values_at",
    "sweep_changes",
    "random_rankings",
    "perturbed_rankings",
    "score_rankings",
    "metric_agreement",
]

# Ranking metrics with values in [0, 1], so that their curves share one axis: the registry's sweep flag.
SWEEP_METRICS = tuple(spec.name for spec in METRICS if spec.sweep)
DEFAULT_SWEEP_METRICS = ("precision", "recall", "average_precision", "reciprocal_rank", "ndcg", "err")
MAX_SWEEP_RANKS = 200
MAX_RANKINGS = 1000
# Two values closer than this are "the same" (metric values are sums of a few floats).
_SAME = 1e-12


@dataclass(frozen=True, eq=False)
class PositionSweep:
    """What :func:`position_sweep` returns: every metric's value at every position, and how.

    Attributes
    ----------
    table : pandas.DataFrame
        Long form, one row per (position, metric): ``position``, ``metric`` (label such as
        "AP@10"), ``name`` (the rankviz function) and ``value``.
    rankings : tuple of tuple of float
        The swept rankings: row p - 1 holds the moving document at rank p.
    settings : dict
        The keywords the metrics were called with (``k``, ``n_relevant``, ``rel_threshold``,
        ``gain``, ``discount``, ``max_grade``, ``beta``), those left at None omitted; ``n_relevant``
        is the R actually used.
    """

    table: Any
    rankings: tuple
    settings: dict


@dataclass(frozen=True, eq=False)
class SweepValues:
    """What :func:`sweep_values_at` returns: the metrics' values with the moving document at one position.

    Attributes
    ----------
    table : pandas.DataFrame
        Columns ``metric`` and ``value``, one row per metric in the sweep's order.
    position : int
        The position actually used (the one asked for, or the sweep's last when beyond it).
    """

    table: Any
    position: int


@dataclass(frozen=True, eq=False)
class RankingScores:
    """What :func:`score_rankings` returns: one row per ranking, one column per metric.

    Attributes
    ----------
    table : pandas.DataFrame
        ``ranking`` ("r1", "r2", ...), ``grades`` (the ranking as text), then one column per
        metric named by its label ("AP@10").
    labels : dict
        Metric function name -> its column label, e.g. ``{"average_precision": "AP@10"}``.
    """

    table: Any
    labels: dict


def _table_of(result, kind: type):
    """The DataFrame of a result of this module (``kind``), or ``result`` itself (a DataFrame)."""
    return result.table if isinstance(result, kind) else result


def _spec(name: str, func: str):
    from rankviz.registry import get_spec

    if name not in SWEEP_METRICS:
        raise ValueError(translate(N_('{func} explores the ranking metrics with values in [0, 1]: '
                                      '{join_SWEEP_METRICS}. Got {name} instead.')).format(
            func=func, join_SWEEP_METRICS=', '.join(SWEEP_METRICS), name=repr(name)))
    return get_spec(name)


def metric_label(name: str, k: int | None = None, n_ranks: int | None = None) -> str:
    """The metric's short name with its cut-off: ``metric_label("ndcg", 5)`` -> ``"nDCG@5"``.

    ``k=None`` is the whole list: ``@n_ranks`` when it is given, else the ``@k`` is dropped.

    >>> metric_label("average_precision", None, 10), metric_label("reciprocal_rank", 3), metric_label("ndcg")
    ('AP@10', 'RR@3', 'nDCG')
    """
    from rankviz.registry import get_spec

    pretty = get_spec(name).pretty_name
    cutoff = k if k is not None else n_ranks
    for marker in ("@k", "@S_h"):
        if marker in pretty:
            return pretty.replace(marker, f"@{cutoff}" if cutoff is not None else "")
    return pretty


def _check_count(value, *, func: str, name: str, minimum: int, maximum: int) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral) or not (
            minimum <= value <= maximum):
        shown = repr(value) if isinstance(value, str) else str(value)
        raise ValueError(translate(N_("The '{name}' parameter of {func} must be an int in the range [{minimum}, "
                                      "{maximum}]. Got {shown} instead.")).format(
            name=name, func=func, minimum=minimum, maximum=maximum, shown=shown))
    return int(value)


def _check_metrics(metrics, func: str) -> tuple:
    if isinstance(metrics, str) or not metrics:
        raise ValueError(translate(N_("The 'metrics' parameter of {func} must be a non-empty sequence of metric "
                                      "names, e.g. {DEFAULT_SWEEP_METRICS_2}. Got {metrics} instead.")).format(
            func=func, DEFAULT_SWEEP_METRICS_2=DEFAULT_SWEEP_METRICS[:2], metrics=repr(metrics)))
    names = tuple(dict.fromkeys(metrics))
    for name in names:
        _spec(name, func)
    return names


def _keywords(spec, settings: dict) -> dict:
    """The keywords ``spec`` takes from ``settings``. A binary metric gets R as ``n_relevant``; the
    graded ones get ``judged`` (R alone cannot tell them the grades of the unretrieved documents)."""
    used = spec.applicable(settings)
    if "n_relevant" in used:
        used.pop("judged", None)
    return used


# ------------------------------------------------------------------ scoring a matrix of rankings
# Every row of a matrix of rankings is one list of a RankedLists, scored by the batch kernels of
# rankviz.metrics.kernels, the ones rankviz.evaluate uses: one pass for all rows (scoring two
# thousand simulated systems one call at a time would take seconds), and no second copy of any
# metric's formula here. The registry says which kernel and how (MetricSpec.cut); metrics without
# a kernel are called row by row. tests/test_explore.py checks every value against the per-query
# function, and that every sweepable metric with a kernel takes the batch path.


def _score_matrix(names, matrix: np.ndarray, settings: dict, *, func: str, judged=None, name_rows: bool = False):
    """Each metric's label and values on every row of ``matrix``: ``{name: (label, values)}``.

    ``settings`` holds the explorer's keywords (k, n_relevant, rel_threshold, gain, discount,
    max_grade, beta); ``judged`` optionally one array of judged grades per row (the graded
    metrics' ideal ranking). ``name_rows``: errors of the metric functions name the ranking
    ("Ranking r3 (1,0,2): ...").
    """
    from rankviz.metrics.kernels import BatchContext, RankedLists
    from rankviz.teaching.parsing import format_grades

    n_rows, n_ranks = matrix.shape
    n_relevant = settings.get("n_relevant")
    lists = RankedLists.from_grades(list(matrix), judged=judged,
                                    n_relevant=None if n_relevant is None else [n_relevant] * n_rows,
                                    max_grade=settings.get("max_grade"))
    context = BatchContext(lists, rel_threshold=settings.get("rel_threshold", 1))  # one cache for all metrics

    def call(spec, used, i):
        keywords = dict(used)
        if judged is not None and judged[i] is not None and "judged" in spec.param_names:
            keywords["judged"] = judged[i]
        try:
            return float(spec.function(matrix[i], **keywords))
        except ValueError as error:
            if not name_rows:
                raise
            raise ValueError(translate(N_('Ranking r{i_1} ({format_grades_matrix_i}): {error}')).format(
                i_1=i + 1, format_grades_matrix_i=format_grades(matrix[i]), error=error)) from None

    scores = {}
    for name in names:
        spec = _spec(name, func)
        used = _keywords(spec, settings)
        label = metric_label(name, used.get("k"), n_ranks if "k" in spec.param_names else None)
        # The metric function on the first ranking validates the settings, with its own messages.
        first = call(spec, used, 0)
        values = None
        cut = spec.cut(used)
        if cut is not None:
            try:
                values = spec.kernel(context, cut)
            except ValueError:
                values = None  # e.g. a grade too large for exponential gain: the row loop names the ranking
        if values is None:
            values = np.array([first] + [call(spec, used, i) for i in range(1, n_rows)])
        scores[name] = (label, values)
    return scores


def _agreement(signs_x: np.ndarray, signs_y: np.ndarray) -> float:
    """Kendall's tau-b of two metrics from their pair-sign vectors (NaN if undefined)."""
    from rankviz.metrics.correlation import kendall_tau_from_pair_counts, pair_counts

    return kendall_tau_from_pair_counts(pair_counts(signs_x, signs_y), "b")


def parse_sweep_others(text: str):
    """The other documents of a position sweep, from typed grades such as ``"1,0,0,2"``.

    The moving document passes them one by one, so N = len(others) + 1 (see
    :func:`sweep_length`), at most :data:`MAX_SWEEP_RANKS`.

    Parameters
    ----------
    text : str
        Grades in ranked order, separated by commas, semicolons or blanks
        (:func:`rankviz.teaching.parsing.parse_grades`). Blank text: no other documents given.

    Returns
    -------
    tuple or None
        The grades (ints when whole), or None for blank text (the sweep then uses N - 1
        documents that are not relevant).

    Raises
    ------
    ValueError
        A grade that is not a number from 0 to 100 (naming its position), or more than
        MAX_SWEEP_RANKS - 1 = 199 documents. Messages are written for the app's user, as
        :mod:`rankviz.teaching.parsing`'s are.

    Examples
    --------
    Four other documents: the moving one makes N = 4 + 1 = 5.

    >>> parse_sweep_others("1, 0 0;2")
    (1, 0, 0, 2)
    >>> parse_sweep_others("   ") is None
    True
    """
    from rankviz.teaching.parsing import parse_grades

    if text is None or not str(text).strip():
        return None
    others = parse_grades(text, position="position")
    if len(others) > MAX_SWEEP_RANKS - 1:
        raise ValueError(translate(N_('Give at most {MAX_SWEEP_RANKS_1} other documents (N = others + 1 <= '
                                      '{MAX_SWEEP_RANKS}); got {len_others}.')).format(
            MAX_SWEEP_RANKS_1=MAX_SWEEP_RANKS - 1, MAX_SWEEP_RANKS=MAX_SWEEP_RANKS, len_others=len(others)))
    return others


def sweep_length(others, n_ranks: int) -> int:
    """N, the length of a position sweep's rankings: the other documents plus the moving one.

    Parameters
    ----------
    others : sequence of float or None
        The other documents' grades (:func:`parse_sweep_others`), or None when none were given.
    n_ranks : int
        The N asked for, used when ``others`` is None.

    Returns
    -------
    int
        ``len(others) + 1`` when others are given, else ``n_ranks``.

    Examples
    --------
    >>> sweep_length((1, 0, 0, 2), 10), sweep_length(None, 10)  # 4 others + 1 moving = 5
    (5, 10)
    """
    return n_ranks if others is None else len(others) + 1


def parse_ranking_to_perturb(text: str) -> tuple:
    """The ranking :func:`perturbed_rankings` shuffles, from typed grades such as ``"3,2,3,0"``.

    Parameters
    ----------
    text : str
        Grades in ranked order (:func:`rankviz.teaching.parsing.parse_grades`).

    Returns
    -------
    tuple
        The grades, 2 to MAX_SWEEP_RANKS of them: what :func:`perturbed_rankings` accepts.

    Raises
    ------
    ValueError
        Blank text, a grade that is not a number from 0 to 100, or fewer than 2 or more than
        MAX_SWEEP_RANKS grades (a single document has no order to perturb).

    Examples
    --------
    >>> parse_ranking_to_perturb("3 2 3 0")
    (3, 2, 3, 0)
    >>> parse_ranking_to_perturb("3")
    Traceback (most recent call last):
    ...
    ValueError: Give 2 to 200 grades to perturb (one document has no order to shuffle); got 1.
    """
    from rankviz.teaching.parsing import parse_grades

    grades = parse_grades(text)
    if not 2 <= len(grades) <= MAX_SWEEP_RANKS:  # the sizes perturbed_rankings accepts
        raise ValueError(translate(N_('Give 2 to {MAX_SWEEP_RANKS} grades to perturb (one document has no order to '
                                      'shuffle); got {len_grades}.')).format(
            MAX_SWEEP_RANKS=MAX_SWEEP_RANKS, len_grades=len(grades)))
    return grades


def sweep_rankings(n_ranks: int, *, grade=1, others=None) -> np.ndarray:
    """The rankings of a position sweep: row p - 1 has the moving document (grade ``grade``) at rank p.

    Parameters
    ----------
    n_ranks : int
        N, the length of every ranking, in [1, MAX_SWEEP_RANKS].
    grade : float, default 1
        The grade of the moving document.
    others : sequence of float, optional
        The grades of the other N - 1 documents, in their ranked order (they keep that order
        while the moving document passes them). Default: N - 1 non-relevant documents.

    Returns
    -------
    numpy.ndarray
        Shape (N, N), float grades.

    Examples
    --------
    >>> sweep_rankings(3, grade=2, others=[1, 0]).tolist()
    [[2.0, 1.0, 0.0], [1.0, 2.0, 0.0], [1.0, 0.0, 2.0]]
    """
    func = "sweep_rankings"
    n = _check_count(n_ranks, func=func, name="n_ranks", minimum=1, maximum=MAX_SWEEP_RANKS)
    moving = check_positive_number(grade, func=func, name="grade")
    rest = np.zeros(n - 1) if others is None else as_grades(others, func=func, name="others", position="position")
    if rest.size != n - 1:
        raise ValueError(translate(N_("The 'others' parameter of {func} must hold the other n_ranks - 1 = {n_1} "
                                      "grades. Got {rest_size} instead.")).format(
            func=func, n_1=n - 1, rest_size=rest.size))
    position = np.arange(n)[:, None]  # row: where the moving document sits
    rank = np.arange(n)[None, :]
    # Ranks before the moving document show others[rank], those after it others[rank - 1].
    source = np.where(rank < position, rank, rank - 1)
    rankings = rest[np.clip(source, 0, max(n - 2, 0))] if n > 1 else np.zeros((1, 1))
    rankings = np.where(rank == position, moving, rankings)
    return rankings.astype(float)


def position_sweep(n_ranks: int = 10, *, metrics=DEFAULT_SWEEP_METRICS, grade=1, max_grade=None, n_relevant=None,
                   k: int | None = None, rel_threshold=1, gain: str = "linear", discount: str = "log2", beta=1.0,
                   others=None):
    r"""Every metric's value as one relevant document moves from rank 1 to rank N.

    The ranking at position p is :func:`sweep_rankings` row p: the moving document of grade
    ``grade`` at rank p among the ``others``. For a lone relevant document (``others`` all 0) at
    rank p, with R relevant documents in the collection:

    .. math:: \mathrm{AP} = \frac{1/p}{R}, \quad \mathrm{RR} = \frac{1}{p}, \quad
              \mathrm{nDCG} = \frac{1/\log_2(p+1)}{\mathrm{IDCG}}, \quad
              \mathrm{P@}k = \frac{[p \le k]}{k}

    Parameters
    ----------
    n_ranks : int, default 10
        N, the ranking's length, in [1, 200].
    metrics : sequence of str
        Names from :data:`SWEEP_METRICS` (the [0, 1]-valued ranking metrics of the registry).
    grade : float, default 1
        The moving document's grade; it must be relevant (``>= rel_threshold``).
    max_grade : float, optional
        The top of the grade scale, g_max in ERR's stop probability (2^g - 1) / 2^g_max.
        Default: the highest grade in the ranking.
    n_relevant : int, optional
        R, the relevant documents of the query in the whole collection. Default: those in the
        ranking. The R minus ranked relevant documents that were not retrieved count, for nDCG's
        ideal ranking, as documents of grade ``grade``.
    k : int, optional
        Cut-off of the metrics that take one (None: the whole list, @N).
    rel_threshold : float, default 1
        Binary relevance: grade >= rel_threshold.
    gain, discount : str
        nDCG's gain ("linear" or "exponential") and discount ("log2" or "jarvelin").
    beta : float, default 1
        F_beta's beta.
    others : sequence of float, optional
        The grades of the other N - 1 documents, in order (default: all 0).

    Returns
    -------
    PositionSweep
        ``table``: long form, one row per (position, metric): ``position``, ``metric`` (label
        such as "AP@10"), ``name`` (the rankviz function) and ``value``. ``rankings``: the
        swept rankings. ``settings``: the keywords the metrics were called with.

    Notes
    -----
    Each value is the registry's metric function on one ranking, so every degenerate policy of
    rankviz applies unchanged (no relevant document: 0).

    Examples
    --------
    R = 2: the moving document is one of two relevant documents, the other never retrieved.
    At rank 2: AP = (1/2) / 2 = 0.25, RR = 1/2, recall@3 = 1/2.

    >>> sweep = position_sweep(3, metrics=("average_precision", "reciprocal_rank", "recall"), n_relevant=2)
    >>> sweep.table[sweep.table["position"] == 2].set_index("metric")["value"].to_dict()
    {'AP@3': 0.25, 'RR@3': 0.5, 'R@3': 0.5}
    >>> sweep.settings["n_relevant"], sweep.rankings[1]
    (2, (0.0, 1.0, 0.0))
    """
    import pandas as pd

    func = "position_sweep"
    names = _check_metrics(metrics, func)
    rankings = sweep_rankings(n_ranks, grade=grade, others=others)
    k = check_k(k, func=func)
    threshold = check_positive_number(rel_threshold, func=func, name="rel_threshold")
    check_choice(gain, GAIN.values, func=func, name="gain")
    check_choice(discount, DISCOUNT.values, func=func, name="discount")
    if grade < threshold:
        raise ValueError(translate(N_("The 'grade' parameter of {func} is {grade}, below rel_threshold = "
                                      "{threshold}: the moving document must be relevant.")).format(
            func=func, grade=format(grade, 'g'), threshold=format(threshold, 'g')))
    ranked_relevant = int(np.count_nonzero(rankings[0] >= threshold))
    if n_relevant is None:
        n_relevant = ranked_relevant
    n_relevant = _check_count(n_relevant, func=func, name="n_relevant", minimum=1, maximum=10**6)
    if n_relevant < ranked_relevant:
        raise ValueError(translate(N_("The 'n_relevant' parameter of {func} is {n_relevant}, smaller than the "
                                      "{ranked_relevant} relevant documents in the ranking (the moving one "
                                      "included): R counts every relevant document of the query.")).format(
            func=func, n_relevant=n_relevant, ranked_relevant=ranked_relevant))
    top = float(rankings[0].max())
    if max_grade is None:
        max_grade = top
    elif check_positive_number(max_grade, func=func, name="max_grade") < top:
        raise ValueError(translate(N_("The 'max_grade' parameter of {func} is {max_grade}, below the grade {top} in "
                                      "the ranking: it is the top of the grade scale.")).format(
            func=func, max_grade=format(max_grade, 'g'), top=format(top, 'g')))
    unretrieved = [float(grade)] * (n_relevant - ranked_relevant)
    settings = {"k": k, "n_relevant": n_relevant, "rel_threshold": threshold, "gain": gain, "discount": discount,
                "max_grade": max_grade, "beta": beta}
    # Unretrieved relevant documents enter the graded metrics' ideal ranking through judged.
    judged = [np.concatenate([ranking, unretrieved]) for ranking in rankings] if unretrieved else None
    scores = _score_matrix(names, rankings, settings, func=func, judged=judged)
    positions = np.arange(1, rankings.shape[0] + 1)
    rows = [{"position": int(position), "metric": label, "name": name, "value": float(value)}
            for name, (label, values) in scores.items() for position, value in zip(positions, values)]
    table = pd.DataFrame(rows, columns=["position", "metric", "name", "value"])
    return PositionSweep(table, tuple(tuple(row) for row in rankings.tolist()),
                         {key: value for key, value in settings.items() if value is not None})


def sweep_values_at(sweep, position: int):
    """Every metric's value with the moving document at one position of a :func:`position_sweep`.

    Parameters
    ----------
    sweep : PositionSweep or DataFrame
        What :func:`position_sweep` returned, or its table.
    position : int
        The rank of the moving document (>= 1); beyond the sweep's last position, its last one.

    Returns
    -------
    SweepValues
        ``table``: columns ``metric`` and ``value``, one row per metric in the sweep's order.
        ``position``: the position actually used.

    Examples
    --------
    One relevant document at rank 2 of 3: RR = 1/2; a sweep of 1 rank has only rank 1 (RR = 1).

    >>> sweep_values_at(position_sweep(3, metrics=("reciprocal_rank",)), 2).table.values.tolist()
    [['RR@3', 0.5]]
    >>> sweep_values_at(position_sweep(1, metrics=("reciprocal_rank",)), 2).position
    1
    """
    func = "sweep_values_at"
    sweep = _table_of(sweep, PositionSweep)
    if not {"position", "metric", "value"} <= set(getattr(sweep, "columns", ())) or sweep.empty:
        raise ValueError(translate(N_("The 'sweep' parameter of {func} must be a non-empty position_sweep table.")).format(
            
            func=func))
    last = int(sweep["position"].max())
    used = min(_check_count(position, func=func, name="position", minimum=1, maximum=10**6), last)
    return SweepValues(sweep.loc[sweep["position"] == used, ["metric", "value"]].reset_index(drop=True), used)


def sweep_changes(before, after):
    """Which metrics moved between two position sweeps, and by how much.

    Parameters
    ----------
    before, after : PositionSweep or DataFrame
        Two :func:`position_sweep` results (or their tables) over the same positions (matched by
        ``name`` and ``position``, so a metric whose label changed with k is still matched).

    Returns
    -------
    pandas.DataFrame
        One row per metric of both sweeps: ``metric`` (label before → after when it changed),
        ``name``, ``moved`` (any value differs by more than 1e-12), ``largest change``
        (signed, after - before, the change of largest size) and ``at position``.

    Examples
    --------
    Raising R from 1 to 2 halves AP at every position and leaves RR alone:

    >>> a = position_sweep(3, metrics=("average_precision", "reciprocal_rank"))
    >>> b = position_sweep(3, metrics=("average_precision", "reciprocal_rank"), n_relevant=2)
    >>> sweep_changes(a, b)[["name", "moved", "largest change", "at position"]].values.tolist()
    [['average_precision', True, -0.5, 1], ['reciprocal_rank', False, 0.0, 1]]
    """
    import pandas as pd

    func = "sweep_changes"
    before, after = _table_of(before, PositionSweep), _table_of(after, PositionSweep)
    for label, table in (("before", before), ("after", after)):
        missing = {"position", "name", "value", "metric"} - set(getattr(table, "columns", ()))
        if missing:
            raise ValueError(translate(N_("The '{label}' parameter of {func} must be a position_sweep table; it "
                                          "lacks {join_sorted_missing}.")).format(
                label=label, func=func, join_sorted_missing=', '.join(sorted(missing))))
    columns = ["name", "position", "metric", "value"]
    merged = before[columns].merge(after[columns], on=["name", "position"], suffixes=(" before", " after"))
    if merged.empty:
        raise ValueError(translate(N_('{func}: the two sweeps share no metric at the same positions.')).format(
            func=func))
    merged["change"] = merged["value after"] - merged["value before"]
    rows = []
    for name, group in merged.groupby("name", sort=False):
        largest = group.loc[group["change"].abs().idxmax()]
        label_before, label_after = group["metric before"].iloc[0], group["metric after"].iloc[0]
        rows.append({"metric": label_before if label_before == label_after else f"{label_before} → {label_after}",
                     "name": name, "moved": bool(abs(largest["change"]) > _SAME),
                     "largest change": float(largest["change"]) if abs(largest["change"]) > _SAME else 0.0,
                     "at position": int(largest["position"])})
    return pd.DataFrame(rows, columns=["metric", "name", "moved", "largest change", "at position"])


def _generator(seed, func: str) -> np.random.Generator:
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(translate(N_("The 'seed' parameter of {func} must be an int >= 0 (the same seed gives the "
                                      "same rankings). Got {seed} instead.")).format(func=func, seed=repr(seed)))
    return np.random.default_rng(int(seed))


def random_rankings(n_rankings: int, n_ranks: int, *, seed: int, grades=(0, 1), weights=None) -> np.ndarray:
    """Rankings whose grades are drawn independently at every rank: the "systems" of a simulation.

    Parameters
    ----------
    n_rankings : int
        How many rankings, in [1, MAX_RANKINGS].
    n_ranks : int
        The length of each, in [1, MAX_SWEEP_RANKS].
    seed : int
        Seed of numpy's default generator (PCG64): the same seed gives the same rankings.
    grades : sequence of float, default (0, 1)
        The grades to draw from (the grade scale).
    weights : sequence of float, optional
        Probability weight of each grade (normalized here). Default: equally likely.

    Returns
    -------
    numpy.ndarray
        Shape (n_rankings, n_ranks), float grades.

    Examples
    --------
    >>> a = random_rankings(3, 4, seed=7, grades=(0, 1, 2))
    >>> a.shape, bool((a == random_rankings(3, 4, seed=7, grades=(0, 1, 2))).all())
    ((3, 4), True)
    """
    func = "random_rankings"
    rng = _generator(seed, func)
    rows = _check_count(n_rankings, func=func, name="n_rankings", minimum=1, maximum=MAX_RANKINGS)
    columns = _check_count(n_ranks, func=func, name="n_ranks", minimum=1, maximum=MAX_SWEEP_RANKS)
    scale = as_grades(grades, func=func, name="grades", position="position")
    if scale.size == 0:
        raise ValueError(translate(N_("The 'grades' parameter of {func} must hold at least one grade.")).format(
            func=func))
    if weights is None:
        probabilities = None
    else:
        w = np.asarray(weights, dtype=float)
        if w.shape != scale.shape or not np.all(np.isfinite(w)) or np.any(w < 0) or w.sum() <= 0:
            raise ValueError(translate(N_("The 'weights' parameter of {func} must hold one weight >= 0 per grade "
                                          "({scale_size}), not all 0. Got {list_weights} instead.")).format(
                func=func, scale_size=scale.size, list_weights=repr(list(weights))))
        probabilities = w / w.sum()
    return rng.choice(scale, size=(rows, columns), p=probabilities)


def perturbed_rankings(base, n_rankings: int, *, seed: int, max_swaps: int | None = None) -> np.ndarray:
    """Rankings made from ``base`` by random swaps: ranking i swaps s_i random pairs of documents.

    s_i is drawn uniformly from 0 ... ``max_swaps``, so the set runs from the base ranking
    itself to thoroughly shuffled versions of it: systems of varied quality over the same
    documents.

    Parameters
    ----------
    base : sequence of float
        The grades of the ranking to perturb, in ranked order (at least 2 documents).
    n_rankings : int
        How many rankings, in [1, MAX_RANKINGS]. The first one is always ``base`` itself.
    seed : int
        Seed of numpy's default generator: the same seed gives the same rankings.
    max_swaps : int, optional
        The most swaps of one ranking (default: the ranking's length).

    Returns
    -------
    numpy.ndarray
        Shape (n_rankings, len(base)); each row is a permutation of ``base``.

    Examples
    --------
    >>> rows = perturbed_rankings([3, 2, 1, 0], 5, seed=1)
    >>> rows[0].tolist(), sorted(rows[4].tolist())  # the base first; every row permutes it
    ([3.0, 2.0, 1.0, 0.0], [0.0, 1.0, 2.0, 3.0])
    """
    func = "perturbed_rankings"
    rng = _generator(seed, func)
    grades = as_grades(base, func=func, name="base")
    if grades.size < 2 or grades.size > MAX_SWEEP_RANKS:
        raise ValueError(translate(N_("The 'base' parameter of {func} must hold 2 to {MAX_SWEEP_RANKS} grades to "
                                      "perturb. Got {grades_size}.")).format(
            func=func, MAX_SWEEP_RANKS=MAX_SWEEP_RANKS, grades_size=grades.size))
    rows = _check_count(n_rankings, func=func, name="n_rankings", minimum=1, maximum=MAX_RANKINGS)
    most = grades.size if max_swaps is None else _check_count(max_swaps, func=func, name="max_swaps", minimum=0,
                                                               maximum=10 * MAX_SWEEP_RANKS)
    swaps = rng.integers(0, most + 1, size=rows)
    swaps[0] = 0
    rankings = np.tile(grades, (rows, 1))
    row_index = np.arange(rows)
    for step in range(int(swaps.max(initial=0))):
        # Every row draws a pair at every step (so the draws do not depend on the other rows);
        # only rows with more swaps to go apply it.
        first, second = rng.integers(0, grades.size, size=(2, rows))
        active = row_index[swaps > step]
        a, b = first[active], second[active]
        rankings[active, a], rankings[active, b] = rankings[active, b], rankings[active, a].copy()
    return rankings


def score_rankings(rankings, metrics=DEFAULT_SWEEP_METRICS, *, k: int | None = None, n_relevant=None,
                   rel_threshold=1, gain: str = "linear", discount: str = "log2", max_grade=None, beta=1.0):
    """Score each ranking (a row) with each metric: one row per ranking, one column per metric.

    Parameters
    ----------
    rankings : 2-D array-like
        One ranking per row (grades in ranked order), e.g. from :func:`random_rankings`.
    metrics : sequence of str
        Names from :data:`SWEEP_METRICS`.
    k, n_relevant, rel_threshold, gain, discount, max_grade, beta
        As in :func:`position_sweep`; ``n_relevant=None`` takes each ranking's own relevant
        documents as R, ``n_relevant="most"`` the most relevant documents any of the rankings
        holds, one R for all (the rankings as systems answering the same query).
        ``max_grade`` defaults to the highest grade over all rankings, so ERR uses one scale
        for every system. nDCG's ideal ranking is each ranking's own grades, sorted.

    Returns
    -------
    RankingScores
        ``table``: ``ranking`` ("r1", "r2", ...), ``grades`` (the ranking as text), then one
        column per metric named by its label ("AP@10"). ``labels``: function name -> label.

    Examples
    --------
    >>> scores = score_rankings([[1, 0, 0], [0, 0, 1]], ("reciprocal_rank", "precision"), k=2)
    >>> scores.table[["ranking", "RR@2", "P@2"]].values.tolist()
    [['r1', 1.0, 0.5], ['r2', 0.0, 0.0]]
    >>> scores.labels
    {'reciprocal_rank': 'RR@2', 'precision': 'P@2'}

    One R for every ranking: R = 2, the most relevant documents of any ranking; r1's recall is 1/2.

    >>> score_rankings([[1, 0, 0], [1, 0, 1]], ("recall",), n_relevant="most").table["R@3"].tolist()
    [0.5, 1.0]
    """
    import pandas as pd

    from rankviz.teaching.parsing import format_grade_rows, format_grades

    func = "score_rankings"
    names = _check_metrics(metrics, func)
    matrix = np.asarray(rankings, dtype=float) if not isinstance(rankings, np.ndarray) else rankings.astype(float)
    if matrix.ndim != 2 or matrix.shape[0] == 0 or matrix.shape[1] == 0:
        raise ValueError(translate(N_("The 'rankings' parameter of {func} must be a non-empty 2-D table, one ranking "
                                      "per row. Got shape {matrix_shape}.")).format(
            func=func, matrix_shape=matrix.shape))
    bad = np.flatnonzero(~np.isfinite(matrix).all(axis=1) | (matrix < 0).any(axis=1))
    if bad.size:
        row = int(bad[0])
        raise ValueError(translate(N_('Ranking r{row_1} of {func}: grades must be finite numbers >= 0; got '
                                      '{matrix_row_tolist}.')).format(
            row_1=row + 1, func=func, matrix_row_tolist=matrix[row].tolist()))
    k = check_k(k, func=func)
    threshold = check_positive_number(rel_threshold, func=func, name="rel_threshold")
    if isinstance(n_relevant, str) and n_relevant == "most":
        n_relevant = int((matrix >= threshold).sum(axis=1).max())
    if n_relevant is not None:
        counts = (matrix >= threshold).sum(axis=1)
        over = np.flatnonzero(counts > n_relevant)
        if over.size:
            row = int(over[0])
            raise ValueError(translate(N_("R = {n_relevant} is smaller than the {counts_row} relevant documents of "
                                          "ranking r{row_1} ({format_grades_matrix_row}); R counts every relevant "
                                          "document of the query, so it must be at least {counts_max} here (or "
                                          "blank: each ranking's own).")).format(
                n_relevant=n_relevant, counts_row=counts[row], row_1=row + 1, format_grades_matrix_row=format_grades(matrix[row]), counts_max=counts.max()))
    if max_grade is None:
        max_grade = float(matrix.max()) if matrix.max() > 0 else None
    elif check_positive_number(max_grade, func=func, name="max_grade") < matrix.max():
        raise ValueError(translate(N_("The 'max_grade' parameter of {func} is {max_grade}, below the grade "
                                      "{matrix_max} in the rankings: it is the top of the grade scale.")).format(
            func=func, max_grade=format(max_grade, 'g'), matrix_max=format(matrix.max(), 'g')))
    settings = {"k": k, "n_relevant": n_relevant, "rel_threshold": threshold, "gain": gain,
                "discount": discount, "max_grade": max_grade, "beta": beta}
    scores = _score_matrix(names, matrix, settings, func=func, name_rows=True)
    # One frame from all columns: inserting them one at a time cost more than the scoring.
    table = pd.DataFrame({"ranking": [f"r{i}" for i in range(1, matrix.shape[0] + 1)],
                          "grades": format_grade_rows(matrix),
                          **{label: values for label, values in scores.values()}})
    return RankingScores(table, {name: label for name, (label, _) in scores.items()})


def metric_agreement(table, columns=None):
    r"""Kendall's tau-b between the orderings of the rankings that each pair of metrics induces.

    .. math:: \tau_b = \frac{C - D}{\sqrt{(C + D + T_x)(C + D + T_y)}}

    over the pairs of rankings (systems): C concordant (both metrics prefer the same one),
    D discordant, T ties in one metric only (:func:`rankviz.metrics.kendall_tau`).

    Parameters
    ----------
    table : RankingScores or DataFrame
        One row per ranking or system, e.g. what :func:`score_rankings` returned (or its table).
    columns : sequence of str, optional
        The metric columns (default: every numeric column).

    Returns
    -------
    pandas.DataFrame
        Square and symmetric, indexed and labelled by ``columns``. The diagonal is 1 (a metric
        orders systems exactly as itself) unless the metric ties every system.

    Notes
    -----
    A pair where one metric gives every system the same value has no tau: NaN, and one
    RuntimeWarning lists those pairs (rankviz's policy for undefined correlations).

    Examples
    --------
    >>> import pandas as pd
    >>> systems = pd.DataFrame({"AP": [0.2, 0.5, 0.9], "P@1": [0.0, 1.0, 1.0]})
    >>> metric_agreement(systems).round(3).values.tolist()  # C = 2, D = 0, one pair tied in P@1
    [[1.0, 0.816], [0.816, 1.0]]
    """
    import pandas as pd

    from rankviz.metrics.correlation import pair_signs

    func = "metric_agreement"
    table = _table_of(table, RankingScores)
    if columns is None:
        columns = [c for c in table.columns if pd.api.types.is_numeric_dtype(table[c])]
    columns = list(columns)
    missing = [c for c in columns if c not in table.columns]
    if missing or len(columns) < 1:
        raise ValueError(translate(N_("The 'columns' parameter of {func} must name metric columns of the table; "
                                      "{join_map_repr_missing_or} not found.")).format(
            func=func, join_map_repr_missing_or=', '.join(map(repr, missing)) or 'none given'))
    if len(table) < 2:
        raise ValueError(translate(N_('{func} needs at least 2 rankings to compare orderings; got {len_table}.')).format(
            
            func=func, len_table=len(table)))
    blank = [c for c in columns if table[c].isna().any()]
    if blank:
        raise ValueError(translate(N_("The 'columns' parameter of {func} names columns with missing values, which "
                                      "have no order: {join_map_repr_blank}.")).format(
            func=func, join_map_repr_blank=', '.join(map(repr, blank))))
    values = np.full((len(columns), len(columns)), np.nan)
    undefined_pairs = []
    signs = [pair_signs(table[column].to_numpy(dtype=float)) for column in columns]
    for i, x in enumerate(columns):
        for j in range(i, len(columns)):
            tau = _agreement(signs[i], signs[j])
            if math.isnan(tau):
                undefined_pairs.append(x if i == j else f"{x} / {columns[j]}")
            values[i, j] = values[j, i] = tau  # filled as an array: .loc per cell took most of the time
    matrix = pd.DataFrame(values, index=pd.Index(columns, name="metric"), columns=columns)
    if undefined_pairs:
        undefined(f"{func}: Kendall's tau is undefined where a metric ties every ranking: "
                  f"{', '.join(undefined_pairs[:6])}{' ...' if len(undefined_pairs) > 6 else ''}; NaN there.")
    return matrix
