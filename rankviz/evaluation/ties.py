r"""Tied scores: the same run under three tie rules, and why evaluation tools disagree.

A run gives each retrieved document a score; when two documents of a query have the same score
the run does not say which comes first, yet every rank-based measure needs an order. Tools
choose differently:

* ``"trec_eval"``: score descending, ties broken by docno **descending** (``strcmp`` order).
  trec_eval, pytrec_eval and :func:`rankviz.evaluate` do this; the rank column is ignored.
* ``"input order"``: score descending, ties kept in the order the run lists them (a stable
  sort, what ``sorted(..., key=score, reverse=True)`` gives in many Python tools).
* ``"tie-averaged"``: the expected value over every ordering of the tied documents, each
  equally likely (McSherry & Najork 2008). No arbitrary choice: a run that ties a relevant and
  a non-relevant document gets half the credit of ranking the relevant one first.

For P@k, R@k, R-precision, AP (and AP@k), RR (and RR@k), Success@k, DCG and nDCG (linear or
exponential gain, with or without a cut-off) the tie-averaged value is computed exactly from
closed forms. Write a query's ranking as tie groups in score order: group :math:`g` holds
:math:`n_g` documents at the ranks after the :math:`s_g` documents of the groups above it,
:math:`r_g` of them relevant, :math:`G_g` their total gain, and :math:`B_g` relevant documents
in the groups above. A document of group :math:`g` lands at each of its :math:`n_g` ranks with
probability :math:`1/n_g`, so for a rank :math:`p` in group :math:`g`, at place :math:`i`
within it (:math:`p = s_g + i`):

.. math::

    E[\mathrm{rel}_p] = \frac{r_g}{n_g}, \qquad E[\mathrm{gain}_p] = \frac{G_g}{n_g}, \qquad
    E[\mathrm{rel}_p \cdot \#\mathrm{rel}_{\le p}] = \frac{r_g}{n_g}\left(B_g + 1 +
    \frac{(i - 1)(r_g - 1)}{n_g - 1}\right)

(given a relevant document at place :math:`i`, each of the other :math:`r_g - 1` relevant
documents of the group is above it with probability :math:`(i-1)/(n_g-1)`). Hence
:math:`E[P@k] = \frac1k\sum_{p \le k} E[\mathrm{rel}_p]`,
:math:`E[\mathrm{DCG}@k] = \sum_{p \le k} E[\mathrm{gain}_p] / \log_2(p+1)` and
:math:`E[\mathrm{AP}] = \frac1R \sum_p E[\mathrm{rel}_p \#\mathrm{rel}_{\le p}] / p`. RR depends
only on the first group holding a relevant document: its first relevant document is at place
:math:`j` with probability :math:`\binom{n-j}{r-1} / \binom{n}{r}`, so
:math:`E[\mathrm{RR}] = \sum_j \binom{n-j}{r-1}\binom{n}{r}^{-1} / (s + j)`. Success@k fails
only when the :math:`m` places of the group cut by rank :math:`k` all hold non-relevant
documents: :math:`1 - \binom{n-r}{m} / \binom{n}{m}`. nDCG divides by the ideal DCG, which does
not depend on the order. Measures that do not depend on the order at all (counts, set
measures) are the same under every rule. Every other measure (ERR, bpref, ...) is averaged
over seeded random tie-breaks: a Monte Carlo estimate whose number of samples is reported.

Conventions are trec_eval's (see :func:`rankviz.evaluate`): a document is relevant when its
grade is at least ``rel_threshold`` (or the measure's ``rel=``); unjudged and negative grades
are non-relevant with gain 0; R counts the relevant judgments of the query.

References
----------
McSherry, F. & Najork, M. (2008). Computing information retrieval performance measures
efficiently in the presence of tied scores. ECIR 2008, LNCS 4956, 414-421.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from rankviz.evaluation.measures import Measure, parse_measures
from rankviz.i18n import _
from rankviz.evaluation.ranking import trec_eval_order
from rankviz.metrics.kernels import BatchContext, Cut, RankedLists
from rankviz.metrics.kernels import graded as graded_kernels
from rankviz.metrics.kernels.graded import gain_values
# 0 where the denominator is 0; every denominator here (R, the ideal DCG) is a count or a sum of
# gains, never negative, so this is the former "> 0" rule.
from rankviz.metrics.kernels.segments import safe_divide
from rankviz.registry import GAIN

__all__ = [
    "TIE_RULES",
    "TieComparison",
    "order_run",
    "compare_tie_rules",
    "tie_example",
    "orderings_side_by_side",
    "expected_relevance_by_rank",
    "sampled_measures",
    "affordable_samples",
    "expected_precision",
    "expected_recall",
    "expected_r_precision",
    "expected_average_precision",
    "expected_reciprocal_rank",
    "expected_success",
    "expected_dcg",
    "expected_ndcg",
]

TIE_RULES = ("trec_eval", "input order", "tie-averaged")



@dataclass(frozen=True)
class TieComparison:
    """What :func:`compare_tie_rules` returns.

    Attributes
    ----------
    per_query : pandas.DataFrame
        One row per (query, measure): columns ``query_id``, ``measure``, one column per rule
        (``"trec_eval"``, ``"input order"``, ``"tie-averaged"``) and the differences
        ``"input order - trec_eval"`` and ``"tie-averaged - trec_eval"``.
    mean : pandas.DataFrame
        Index: measure; columns: the three rules (aggregated over queries as
        :func:`rankviz.evaluate` aggregates each measure) and ``queries that differ`` (queries
        where the rules do not all agree, to 1e-12).
    method : dict of str to str
        Measure -> how its tie-averaged value was obtained: ``"exact"``, ``"order-free"``
        (same under every rule) or ``"Monte Carlo, N samples (seed S)"``.
    ties : pandas.DataFrame
        Per query: ``retrieved``, ``tied documents`` (documents sharing their score with
        another document of the query) and ``tie groups`` (scores shared by 2+ documents).
    """

    per_query: pd.DataFrame
    mean: pd.DataFrame
    method: dict
    ties: pd.DataFrame


# --------------------------------------------------------------------------------------------
# Orderings


def _check_rule(rule) -> str:
    if rule not in ("trec_eval", "input order"):
        raise ValueError(f"The 'rule' parameter of order_run must be 'trec_eval' or 'input order'. Got {rule!r} "
                         "instead. (The tie-averaged rule has no single order: see compare_tie_rules.)")
    return rule


def _check_run(run, func: str) -> pd.DataFrame:
    if not isinstance(run, pd.DataFrame):
        from rankviz.trec.readers import read_run  # lazily: reading is only needed for files and text

        return read_run(run)
    missing = [c for c in ("query_id", "doc_id", "score") if c not in run.columns]
    if missing:
        raise ValueError(f"The 'run' parameter of {func} must have columns query_id, doc_id and score (as "
                         f"rankviz.read_run returns); missing {', '.join(missing)}.")
    return run


def order_run(run, rule: str = "trec_eval") -> pd.DataFrame:
    """The run's documents ranked per query under one tie rule, with a ``rank`` column.

    Parameters
    ----------
    run : DataFrame (query_id, doc_id, score) or anything :func:`rankviz.read_run` reads
        Rows in input order (the order of the file).
    rule : {"trec_eval", "input order"}
        ``"trec_eval"``: score descending, then docno descending (byte order, as ``strcmp``).
        ``"input order"``: score descending, ties in input order (a stable sort).

    Returns
    -------
    pandas.DataFrame
        Columns query_id, doc_id, score, rank (1-based within the query), sorted by query id
        (as strings) then rank. The input is not modified.

    Examples
    --------
    d1 and d2 tie at 2.0; trec_eval puts the larger docno first, the input order keeps d1 first:

    >>> run = pd.DataFrame({"query_id": ["q"] * 3, "doc_id": ["d1", "d2", "d3"], "score": [2.0, 2.0, 3.0]})
    >>> order_run(run, "trec_eval").doc_id.tolist()
    ['d3', 'd2', 'd1']
    >>> order_run(run, "input order").doc_id.tolist()
    ['d3', 'd1', 'd2']
    """
    rule = _check_rule(rule)
    run = _check_run(run, "order_run")
    order, rank = _ranking_order(run, rule)
    return pd.DataFrame({"query_id": run["query_id"].take(order).reset_index(drop=True),
                         "doc_id": run["doc_id"].take(order).reset_index(drop=True),
                         "score": run["score"].to_numpy(dtype=np.float64)[order], "rank": rank})


def _ranking_order(run: pd.DataFrame, rule: str) -> tuple[np.ndarray, np.ndarray]:
    """Row order (queries as sorted strings, then the rule) and the 1-based rank of each ordered row.

    Integer codes instead of string sorts: a 1M-line run orders in well under a second.
    """
    query_codes = pd.factorize(run["query_id"].astype(str), sort=True)[0]
    score = run["score"].to_numpy(dtype=np.float64)
    if rule == "trec_eval":
        order = trec_eval_order(query_codes, score, run["doc_id"].astype(str))
    else:
        order = np.lexsort((-score, query_codes))  # lexsort is stable: ties keep input order
    return order, _ranks(query_codes[order])


def _ranks(sorted_codes: np.ndarray) -> np.ndarray:
    """1-based position of each row within its run of equal codes."""
    rows = np.arange(sorted_codes.size)
    first = np.ones(sorted_codes.size, dtype=bool)
    first[1:] = sorted_codes[1:] != sorted_codes[:-1]
    return rows - np.maximum.accumulate(np.where(first, rows, 0)) + 1


def _strict_scores(ordered: pd.DataFrame) -> pd.DataFrame:
    """A run whose scores are strictly decreasing in the given rank order (so any tool agrees)."""
    return pd.DataFrame({"query_id": ordered["query_id"], "doc_id": ordered["doc_id"],
                         "score": -ordered["rank"].to_numpy(dtype=np.float64)})


# --------------------------------------------------------------------------------------------
# The tie layout of every query: groups of equal scores, as flat arrays


@dataclass(frozen=True, eq=False)
class _Layout:
    query_ids: np.ndarray      # every query of the layout, sorted as strings
    row_query: np.ndarray      # per row (sorted by query, score desc): query code
    position: np.ndarray       # 1-based rank of the row's place
    group_start: np.ndarray    # per row: number of documents above its tie group (s_g)
    group_size: np.ndarray     # per row: n_g
    place: np.ndarray          # per row: 1-based place within its group (i)
    group_id: np.ndarray       # per row: a global group number
    grade: np.ndarray          # per row: the grade, in some order within the group (NaN = unjudged)
    judged_query: np.ndarray   # per judgment of an evaluated query: its query code
    judged_grade: np.ndarray   # per judgment: its grade


def _layout(qrels: pd.DataFrame, run: pd.DataFrame, query_ids: np.ndarray) -> _Layout:
    """Tie groups of every evaluated query (the order within a group does not matter)."""
    queries = pd.Index(query_ids)
    order = np.lexsort((-run["score"].to_numpy(dtype=np.float64), queries.get_indexer(run["query_id"].astype(str))))
    run_query = queries.get_indexer(run["query_id"].astype(str))[order]
    kept = run_query >= 0  # queries only in the run are not evaluated
    order, run_query = order[kept], run_query[kept]
    score = run["score"].to_numpy(dtype=np.float64)[order]
    # Match run rows to judgments by (query code, doc code) integer keys.
    qrels_query = queries.get_indexer(qrels["query_id"].astype(str))
    doc_codes, _ = pd.factorize(pd.concat([run["doc_id"].astype(str), qrels["doc_id"].astype(str)],
                                          ignore_index=True))
    n_docs = int(doc_codes.max()) + 1 if doc_codes.size else 1
    run_keys = run_query.astype(np.int64) * n_docs + doc_codes[: len(run)][order]
    judged = qrels_query >= 0
    qrels_keys = pd.Index(qrels_query[judged].astype(np.int64) * n_docs + doc_codes[len(run):][judged])
    relevance = qrels["relevance"].to_numpy(dtype=np.float64)[judged]
    if not qrels_keys.is_unique:
        raise ValueError("compare_tie_rules: the qrels judge a document twice for the same query.")
    found = qrels_keys.get_indexer(run_keys)
    grade = np.where(found >= 0, relevance[np.maximum(found, 0)] if relevance.size else np.nan, np.nan)
    n = run_query.size
    rows = np.arange(n)
    new_group = np.ones(n, dtype=bool)
    new_group[1:] = (run_query[1:] != run_query[:-1]) | (score[1:] != score[:-1])
    position = _ranks(run_query)
    group_first = np.maximum.accumulate(np.where(new_group, rows, 0))
    group_id = np.cumsum(new_group) - 1
    size = np.bincount(group_id)[group_id] if n else np.zeros(0, dtype=np.int64)
    place = rows - group_first + 1
    return _Layout(query_ids=np.asarray(query_ids), row_query=run_query, position=position,
                   group_start=position - place, group_size=size, place=place, group_id=group_id, grade=grade,
                   judged_query=qrels_query[judged], judged_grade=relevance)


def _per_query(layout: _Layout, values: np.ndarray) -> np.ndarray:
    return np.bincount(layout.row_query, weights=values, minlength=len(layout.query_ids))


def _relevant_counts(layout: _Layout, threshold: int) -> np.ndarray:
    """Per query: R, the number of judgments with grade >= threshold."""
    relevant = layout.judged_grade >= threshold
    return np.bincount(layout.judged_query[relevant], minlength=len(layout.query_ids)).astype(np.float64)


def _gains(grades: np.ndarray, gain) -> np.ndarray:
    """Gains of grades (:func:`rankviz.metrics.kernels.graded.gain_values`, the one gain rule),
    after this page's input policy: unjudged (NaN) and negative grades have gain 0."""
    if gain not in GAIN.values:
        raise ValueError(f"tie-averaged DCG supports gain {' or '.join(map(repr, GAIN.values))}; got {gain!r}.")
    return gain_values(np.where(np.isnan(grades) | (grades < 0), 0.0, grades), gain)


def _group_mean(layout: _Layout, per_row: np.ndarray) -> np.ndarray:
    """Per row: the mean of ``per_row`` over the row's tie group (its expectation at this rank)."""
    if not per_row.size:
        return per_row
    return (np.bincount(layout.group_id, weights=per_row) / np.bincount(layout.group_id))[layout.group_id]


def _cut(layout: _Layout, k) -> np.ndarray:
    return np.ones(layout.position.size, dtype=bool) if k is None else layout.position <= k


def _threshold(measure: Measure, rel_threshold) -> float:
    """The measure's own rel=, else evaluate's rel_threshold."""
    own = measure.param("rel")
    return rel_threshold if own is None else own


# The exact tie-averaged values, named by the registry (MetricSpec.tie_average_path): each takes
# the tie groups' layout, the measure and evaluate's rel_threshold, and gives one value per query.


def expected_precision(layout: _Layout, measure: Measure, rel_threshold) -> np.ndarray:
    """E[P@k] over the orders of tied documents: each rank holds its group's share of relevant documents."""
    threshold, k = _threshold(measure, rel_threshold), measure.cutoff
    relevant = layout.grade >= threshold  # NaN compares False: unjudged is non-relevant
    hits = _per_query(layout, _group_mean(layout, relevant.astype(float)) * _cut(layout, k))
    return hits / k


def expected_recall(layout: _Layout, measure: Measure, rel_threshold) -> np.ndarray:
    """E[R@k] = E[relevant in the top k] / R."""
    threshold, k = _threshold(measure, rel_threshold), measure.cutoff
    relevant = layout.grade >= threshold
    hits = _per_query(layout, _group_mean(layout, relevant.astype(float)) * _cut(layout, k))
    return safe_divide(hits, _relevant_counts(layout, threshold))


def expected_r_precision(layout: _Layout, measure: Measure, rel_threshold) -> np.ndarray:
    """E[P@R]: R is fixed by the qrels, so this is E[P@k] at k = R."""
    threshold = _threshold(measure, rel_threshold)
    n_relevant = _relevant_counts(layout, threshold)
    relevant = layout.grade >= threshold
    within = layout.position <= n_relevant[layout.row_query]
    hits = _per_query(layout, _group_mean(layout, relevant.astype(float)) * within)
    return safe_divide(hits, n_relevant)


def expected_average_precision(layout: _Layout, measure: Measure, rel_threshold) -> np.ndarray:
    """E[AP@k]: per relevant document, the expected precision at its rank given its group's order."""
    threshold, k = _threshold(measure, rel_threshold), measure.cutoff
    relevant = (layout.grade >= threshold).astype(float)
    group_relevant = _group_mean(layout, relevant) * layout.group_size  # r_g per row
    # B_g: relevant documents in the groups above (running count at the group's first row).
    running = np.cumsum(relevant) - relevant
    first_row = np.arange(relevant.size) - layout.place + 1
    query_first = np.arange(relevant.size) - layout.position + 1
    above = running[first_row] - running[query_first] if relevant.size else running
    others_above = np.divide((layout.place - 1) * (group_relevant - 1), layout.group_size - 1,
                             out=np.zeros_like(group_relevant), where=layout.group_size > 1)
    expected = group_relevant / layout.group_size * (above + 1 + others_above) / layout.position
    total = _per_query(layout, np.where(group_relevant > 0, expected, 0.0) * _cut(layout, k))
    return safe_divide(total, _relevant_counts(layout, threshold))


def _first_relevant_group(layout, relevant) -> tuple[np.ndarray, np.ndarray]:
    """Per row: r_g, and whether the row's group is the first of its query holding a relevant doc."""
    group_relevant = np.rint(_group_mean(layout, relevant) * layout.group_size)
    first_relevant_position = np.full(len(layout.query_ids), np.inf)
    has = group_relevant > 0
    np.minimum.at(first_relevant_position, layout.row_query[has], layout.group_start[has])
    is_first = has & (layout.group_start == first_relevant_position[layout.row_query])
    return group_relevant, is_first


def expected_reciprocal_rank(layout: _Layout, measure: Measure, rel_threshold) -> np.ndarray:
    """E[RR@k]: the first relevant document is in the first group holding one, at a place of known law."""
    threshold, k = _threshold(measure, rel_threshold), measure.cutoff
    relevant = (layout.grade >= threshold).astype(float)
    r, is_first = _first_relevant_group(layout, relevant)
    probability = np.zeros(layout.position.size)
    # P(first relevant at place j) = C(n-j, r-1) / C(n, r): P(1) = r/n and
    # P(j+1) = P(j) (n-j-r+1) / (n-j), a product that stays exact where log-gamma would round.
    for row in np.flatnonzero(is_first & (layout.place == 1)):
        n, rel = int(layout.group_size[row]), int(r[row])
        j = np.arange(1, n - rel + 1)
        ratios = np.concatenate(([rel / n], (n - j - rel + 1) / (n - j)))
        probability[row:row + n - rel + 1] = np.cumprod(ratios)
    return _per_query(layout, probability / layout.position * _cut(layout, k))


def expected_success(layout: _Layout, measure: Measure, rel_threshold) -> np.ndarray:
    """E[Success@k] = P(a relevant document in the top k)."""
    threshold, k = _threshold(measure, rel_threshold), measure.cutoff
    relevant = (layout.grade >= threshold).astype(float)
    r, is_first = _first_relevant_group(layout, relevant)
    out = np.zeros(len(layout.query_ids))
    # The first relevant group's first row decides: entirely above k -> 1; cut by k -> 1 - C(n-r,m)/C(n,m).
    rows = np.flatnonzero(is_first & (layout.place == 1))
    for row in rows:
        s, n, rel = int(layout.group_start[row]), int(layout.group_size[row]), int(r[row])
        m = min(k - s, n)
        if m <= 0:
            continue
        out[layout.row_query[row]] = 1.0 - math.comb(n - rel, m) / math.comb(n, m)
    return out


def _expected_gain_lists(layout: _Layout, gain) -> BatchContext:
    """The kernels' input for the tie-averaged DCG and nDCG, gains given as "linear" grades: per
    rank, its expected gain (the mean gain of its tie group); per query, the gain of every judgment.

    DCG is a sum of gain_p / log2(p + 1), so by linearity of expectation E[DCG@k] is the DCG@k of
    the expected gains, and the ideal DCG does not depend on the order at all: both are the
    kernels' own (:mod:`rankviz.metrics.kernels.graded`), with no second discount or ideal
    ranking here.
    """
    n = len(layout.query_ids)
    judged_gain = _gains(layout.judged_grade, gain)
    order = np.lexsort((-judged_gain, layout.judged_query))  # RankedLists keeps judgments best first
    lists = RankedLists(
        starts=_starts(np.bincount(layout.row_query, minlength=n)),
        row_query=layout.row_query,
        grade=_group_mean(layout, _gains(layout.grade, gain)),
        judged_starts=_starts(np.bincount(layout.judged_query, minlength=n)),
        judged_query=layout.judged_query[order],
        judged_grade=judged_gain[order],
        max_grade=float(judged_gain.max(initial=0.0)),
    )
    return BatchContext(lists)


def _starts(counts: np.ndarray) -> np.ndarray:
    return np.concatenate(([0], np.cumsum(counts))).astype(np.int64)


_AS_GRADES = {"gain": "linear"}  # the lists above already hold gains


def expected_dcg(layout: _Layout, measure: Measure, rel_threshold) -> np.ndarray:
    """E[DCG]: the DCG of the expected gains (DCG is linear in the gains)."""
    return graded_kernels.dcg(_expected_gain_lists(layout, measure.param("gain")), Cut(None, _AS_GRADES))


def expected_ndcg(layout: _Layout, measure: Measure, rel_threshold) -> np.ndarray:
    """E[DCG@k] / IDCG@k (the kernels' nDCG, 0 when the ideal is 0): the ideal does not depend on the order."""
    return graded_kernels.ndcg(_expected_gain_lists(layout, measure.param("gain")), Cut(measure.cutoff, _AS_GRADES))


def _has_exact_form(measure: Measure) -> bool:
    """Whether the registry names a closed form for the measure, and its gain is one the form takes."""
    return measure.spec.tie_average is not None and measure.param("gain") in (None, *GAIN.values)


# --------------------------------------------------------------------------------------------
# Public comparison


def sampled_measures(measures) -> list[str]:
    """The measures whose tie-averaged value :func:`compare_tie_rules` estimates by Monte Carlo.

    Each of them costs one evaluation of the whole run per sample; the others are exact.

    >>> sampled_measures(["AP", "ERR@20", "NumRet", "nDCG(gain=exp)@10", "Bpref"])
    ['ERR@20', 'Bpref']
    """
    return [str(m) for m in parse_measures(measures)
            if not m.spec.order_free and not _has_exact_form(m)]


def affordable_samples(samples: int, n_lines: int, budget: int) -> int:
    """How many Monte Carlo samples fit a budget of run lines evaluated.

    Each sample of :func:`compare_tie_rules` evaluates the whole run once, so ``samples``
    samples of an ``n_lines`` run evaluate samples × n_lines lines:

    .. math:: \\min\\left(\\text{samples}, \\max\\left(1, \\left\\lfloor \\frac{\\text{budget}}{n_\\text{lines}}
              \\right\\rfloor\\right)\\right)

    Parameters
    ----------
    samples : int
        The samples asked for (>= 1).
    n_lines : int
        Lines of the run (>= 0; an empty run costs nothing).
    budget : int
        Most run lines to evaluate in total (>= 1).

    Returns
    -------
    int
        ``samples`` when it fits, else the most that fit, and always at least 1.

    Notes
    -----
    At least one sample is always kept, even for a run longer than the budget: the page then
    warns rather than shows nothing.

    Examples
    --------
    100 samples of a 50,000-line run evaluate 5,000,000 lines; a budget of 2,000,000 affords
    2,000,000 // 50,000 = 40 of them.

    >>> affordable_samples(100, 50_000, 2_000_000), affordable_samples(100, 1_000, 2_000_000)
    (40, 100)
    """
    func = "affordable_samples"
    for name, value, minimum in (("samples", samples, 1), ("n_lines", n_lines, 0), ("budget", budget, 1)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
            raise ValueError(f"The '{name}' parameter of {func} must be an int in the range [{minimum}, inf). "
                             f"Got {value!r} instead.")
    if n_lines == 0:
        return int(samples)
    return int(min(samples, max(1, budget // n_lines)))



def _check_samples(samples, seed) -> tuple[int, int]:
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or samples < 1:
        raise ValueError(f"The 'samples' parameter of compare_tie_rules must be an int in the range [1, inf). "
                         f"Got {samples!r} instead.")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise ValueError(f"The 'seed' parameter of compare_tie_rules must be an int. Got {seed!r} instead.")
    return int(samples), int(seed)


def _monte_carlo(qrels, ordered: pd.DataFrame, measures, samples: int, seed: int, **options) -> pd.DataFrame:
    """Mean per-query values over ``samples`` random tie-breaks (uniform within each tie group)."""
    from rankviz.evaluation.evaluator import evaluate

    generator = np.random.default_rng(seed)
    score = ordered["score"].to_numpy(dtype=np.float64)
    query_codes = pd.factorize(ordered["query_id"])[0]  # ``ordered`` is sorted by query: codes ascend
    total = None
    for _sample in range(samples):
        order = np.lexsort((generator.random(len(ordered)), -score, query_codes))
        run = pd.DataFrame({"query_id": ordered["query_id"].take(order).reset_index(drop=True),
                            "doc_id": ordered["doc_id"].take(order).reset_index(drop=True),
                            "score": -_ranks(query_codes[order]).astype(np.float64)})
        values = evaluate(qrels, run, measures, **options).per_query
        total = values.astype(float) if total is None else total + values.astype(float)
    return total / samples


def _tie_summary(layout: _Layout) -> pd.DataFrame:
    tied = layout.group_size > 1
    count = len(layout.query_ids)
    return pd.DataFrame({
        "retrieved": np.bincount(layout.row_query, minlength=count),
        "tied documents": np.bincount(layout.row_query[tied], minlength=count),
        "tie groups": np.bincount(layout.row_query[tied & (layout.place == 1)], minlength=count),
    }, index=pd.Index(layout.query_ids, name="query_id")).astype(np.int64)


def compare_tie_rules(qrels, run, measures=("P@10", "AP", "RR", "nDCG@10"), *, samples: int = 100, seed: int = 0,
                      rel_threshold: int = 1, complete: bool = False) -> TieComparison:
    """Evaluate one run under trec_eval's tie rule, input order and tie-averaged ordering.

    Parameters
    ----------
    qrels : DataFrame or anything :func:`rankviz.read_qrels` reads
    run : DataFrame or anything :func:`rankviz.read_run` reads
        Rows in input order: the "input order" rule breaks ties by it.
    measures : str, Measure or list of them
        As for :func:`rankviz.evaluate`.
    samples : int, default 100
        Random tie-breaks averaged for measures without a closed form (Monte Carlo).
    seed : int, default 0
        Seed of those tie-breaks: the same seed gives the same numbers.
    rel_threshold : int, default 1
        Binary relevance: grade >= rel_threshold (trec_eval's ``-l``).
    complete : bool, default False
        trec_eval's ``-c``: qrels queries absent from the run count, as empty rankings.

    Returns
    -------
    TieComparison
        ``per_query`` (long: one row per query and measure, the three rules and the
        differences), ``mean``, ``method`` (exact / order-free / Monte Carlo with its samples)
        and ``ties`` (tied documents per query).

    Notes
    -----
    The trec_eval and input-order values both come from :func:`rankviz.evaluate` (for input
    order, on a copy of the run whose scores are made strictly decreasing in input order), so
    a difference is due to the order alone. Tie-averaged values are exact for P, R, Rprec, AP,
    GMAP (per query: AP), RR, Success, DCG and nDCG (linear or exponential gain); see the
    module docstring for the formulas. A query without relevant documents scores 0.

    References
    ----------
    McSherry & Najork (2008), ECIR, LNCS 4956, 414-421.

    Examples
    --------
    One query, R = 1: the relevant d1 ties with d2 at the top. trec_eval ranks d2 (the larger
    docno) first, the input order d1; averaged, RR = (1/1 + 1/2) / 2 = 0.75:

    >>> qrels = pd.DataFrame({"query_id": ["q"], "doc_id": ["d1"], "relevance": [1]})
    >>> run = pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["d1", "d2"], "score": [1.0, 1.0]})
    >>> result = compare_tie_rules(qrels, run, ["RR"])
    >>> result.per_query[["trec_eval", "input order", "tie-averaged"]].iloc[0].tolist()
    [0.5, 1.0, 0.75]
    """
    from rankviz.evaluation.evaluator import evaluate
    from rankviz.trec.readers import read_qrels

    samples, seed = _check_samples(samples, seed)
    parsed = tuple(m for m in parse_measures(measures) if m.name != "runid")
    if not parsed:
        raise ValueError("compare_tie_rules: no measure to compare (runid has no value).")
    qrels_table = qrels if isinstance(qrels, pd.DataFrame) else read_qrels(qrels)
    run_table = _check_run(run, "compare_tie_rules")
    options = {"rel_threshold": rel_threshold, "complete": complete}

    by_trec_eval = evaluate(qrels_table, run_table, parsed, **options)
    query_ids = by_trec_eval.per_query.index.to_numpy(dtype=object)
    input_ranked = order_run(run_table, "input order")
    by_input = evaluate(qrels_table, _strict_scores(input_ranked), parsed, **options)

    layout = _layout(qrels_table, run_table, query_ids)
    averaged: dict[str, np.ndarray] = {}
    method: dict[str, str] = {}
    sampled = []
    for measure in parsed:
        name = str(measure)
        if measure.spec.order_free:
            averaged[name] = by_trec_eval.per_query[name].to_numpy(dtype=np.float64)
            method[name] = "order-free"
        elif _has_exact_form(measure):
            averaged[name] = measure.spec.tie_average(layout, measure, rel_threshold)
            method[name] = "exact"
        else:
            sampled.append(measure)
            # A sentence, in the language in force ("exact" and "order-free" are words a page translates).
            method[name] = _("Monte Carlo, {samples} samples (seed {seed})").format(samples=samples, seed=seed)
    if sampled:
        estimates = _monte_carlo(qrels_table, input_ranked, sampled, samples, seed, **options)
        for measure in sampled:
            averaged[str(measure)] = estimates[str(measure)].reindex(query_ids).to_numpy(dtype=np.float64)

    rows = []
    for measure in by_trec_eval.measures:
        name = str(measure)
        if name not in averaged:  # relstring and other non-numeric columns
            continue
        part = pd.DataFrame({
            "query_id": query_ids,
            "measure": name,
            "trec_eval": by_trec_eval.per_query[name].to_numpy(dtype=np.float64),
            "input order": by_input.per_query[name].reindex(query_ids).to_numpy(dtype=np.float64),
            "tie-averaged": averaged[name],
        })
        rows.append(part)
    per_query = pd.concat(rows, ignore_index=True)
    per_query["input order - trec_eval"] = per_query["input order"] - per_query["trec_eval"]
    per_query["tie-averaged - trec_eval"] = per_query["tie-averaged"] - per_query["trec_eval"]
    mean = _means(per_query, {str(m): m for m in by_trec_eval.measures})
    return TieComparison(per_query=per_query, mean=mean, method=method,
                         ties=_tie_summary(layout))


def _means(per_query: pd.DataFrame, measures: dict) -> pd.DataFrame:
    from rankviz.evaluation.evaluator import aggregate as _aggregate  # evaluate's own (mean, gmean, sum)

    rows = {}
    for name, part in per_query.groupby("measure", sort=False):
        measure = measures[name]
        row = {rule: _aggregate(measure, part[rule].to_numpy(dtype=np.float64)) for rule in TIE_RULES}
        spread = part[list(TIE_RULES)].max(axis=1) - part[list(TIE_RULES)].min(axis=1)
        row["queries that differ"] = int((spread > 1e-12).sum())
        rows[name] = row
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("measure")


# --------------------------------------------------------------------------------------------
# The teaching example: one query, typed by hand


def _example_tables(doc_ids, scores, grades) -> tuple[pd.DataFrame, pd.DataFrame]:
    doc_ids = [str(d) for d in doc_ids]
    if not (len(doc_ids) == len(scores) == len(grades)):
        raise ValueError(f"tie_example: doc_ids, scores and grades must have the same length; got "
                         f"{len(doc_ids)}, {len(scores)} and {len(grades)}.")
    if not doc_ids:
        raise ValueError("tie_example: the ranking is empty; give at least one document.")
    seen = set()
    for position, doc in enumerate(doc_ids, start=1):
        if doc in seen:
            raise ValueError(f"tie_example: document {doc!r} appears twice (row {position}); doc ids must be unique.")
        seen.add(doc)
    for position, score in enumerate(scores, start=1):
        if isinstance(score, bool) or not isinstance(score, (int, float, np.integer, np.floating)) \
                or not math.isfinite(score):
            raise ValueError(f"tie_example: scores must be finite numbers; got {score!r} at row {position}.")
    for position, grade in enumerate(grades, start=1):
        if isinstance(grade, bool) or not isinstance(grade, (int, float, np.integer, np.floating)) \
                or not float(grade).is_integer():
            raise ValueError(f"tie_example: grades must be integers; got {grade!r} at row {position}.")
    qrels = pd.DataFrame({"query_id": "q", "doc_id": doc_ids, "relevance": [int(g) for g in grades]})
    run = pd.DataFrame({"query_id": "q", "doc_id": doc_ids, "score": [float(s) for s in scores]})
    return qrels, run


def tie_example(doc_ids, scores, grades, measures=("P@3", "AP", "RR", "nDCG"), *, rel_threshold: int = 1,
                samples: int = 100, seed: int = 0) -> pd.DataFrame:
    """One query typed by hand, evaluated under the three tie rules: a table to teach from.

    Every listed document counts as judged with its grade, so R is the number of listed
    documents with grade >= ``rel_threshold`` and the ideal DCG uses the listed grades.

    Parameters
    ----------
    doc_ids : sequence of str
        Unique document ids, in input order.
    scores : sequence of float
        The run's score of each document (equal scores are ties).
    grades : sequence of int
        The relevance grade of each document.
    measures, rel_threshold, samples, seed
        As for :func:`compare_tie_rules`.

    Returns
    -------
    pandas.DataFrame
        Index: measure; columns: the three rules, ``"method"`` (exact, order-free or Monte
        Carlo) and ``"rules disagree"`` (bool).

    Examples
    --------
    d1 (relevant) and d2 tie; P@1 is 0, 1 or (0 + 1) / 2 = 0.5 depending on the rule:

    >>> tie_example(["d1", "d2"], [1.0, 1.0], [1, 0], ["P@1"]).loc["P@1", ["trec_eval", "input order", "tie-averaged"]].tolist()
    [0.0, 1.0, 0.5]
    """
    qrels, run = _example_tables(doc_ids, scores, grades)
    result = compare_tie_rules(qrels, run, measures, samples=samples, seed=seed, rel_threshold=rel_threshold)
    table = result.per_query.set_index("measure")[list(TIE_RULES)]
    table["method"] = [result.method[name] for name in table.index]
    spread = table[list(TIE_RULES)].max(axis=1) - table[list(TIE_RULES)].min(axis=1)
    table["rules disagree"] = spread > 1e-12
    return table


def expected_relevance_by_rank(scores, grades, *, rel_threshold: int = 1) -> pd.DataFrame:
    """Per rank, what the tie-averaged ordering expects there: P(relevant) and the expected grade.

    A rank inside a tie group of n documents holding r relevant ones is relevant with
    probability r / n and carries the group's mean grade: the "spread out" ranking that
    tie-averaged P@k and DCG are computed from.

    Parameters
    ----------
    scores : sequence of float
        Scores in any order.
    grades : sequence of int
        The grade of each scored document (negative = non-relevant, gain 0).
    rel_threshold : int, default 1

    Returns
    -------
    pandas.DataFrame
        Columns ``rank``, ``score``, ``tie group size``, ``P(relevant)``, ``expected grade``.

    Examples
    --------
    Two documents tie at 0.5, one relevant: each of ranks 2 and 3 is relevant with chance 1/2.

    >>> expected_relevance_by_rank([0.9, 0.5, 0.5], [0, 1, 0])["P(relevant)"].tolist()
    [0.0, 0.5, 0.5]
    """
    scores = np.asarray(scores, dtype=np.float64)
    grades = np.asarray(grades, dtype=np.float64)
    if scores.shape != grades.shape or scores.ndim != 1:
        raise ValueError(f"expected_relevance_by_rank: scores and grades must be 1-d of the same length; got "
                         f"{scores.shape} and {grades.shape}.")
    order = np.argsort(-scores, kind="stable")
    table = pd.DataFrame({"score": scores[order], "relevant": (grades[order] >= rel_threshold).astype(float),
                          "grade": np.where(grades[order] < 0, 0.0, grades[order])})
    groups = table.groupby("score", sort=False)
    return pd.DataFrame({
        "rank": np.arange(1, len(table) + 1),
        "score": table["score"],
        "tie group size": groups["score"].transform("size").astype(np.int64),
        "P(relevant)": groups["relevant"].transform("mean"),
        "expected grade": groups["grade"].transform("mean"),
    }).reset_index(drop=True)


def orderings_side_by_side(doc_ids, scores, grades) -> pd.DataFrame:
    """The three orderings of one query, one row per rank: what each tie rule puts there.

    Parameters
    ----------
    doc_ids, scores, grades : sequences
        As for :func:`tie_example` (input order).

    Returns
    -------
    pandas.DataFrame
        Columns ``rank``, ``score``, ``trec_eval`` and ``input order`` (the document at that
        rank, with its grade, e.g. ``"d3 (2)"``), ``tie-averaged`` (the tied documents that
        share the rank with equal chance, e.g. ``"d1 | d2 (mean grade 0.5)"``).

    Examples
    --------
    >>> orderings_side_by_side(["d1", "d2", "d3"], [1.0, 1.0, 2.0], [1, 0, 2])["trec_eval"].tolist()
    ['d3 (2)', 'd2 (0)', 'd1 (1)']
    """
    qrels, run = _example_tables(doc_ids, scores, grades)
    grade_of = dict(zip(qrels["doc_id"], qrels["relevance"]))
    by_trec = order_run(run, "trec_eval")
    by_input = order_run(run, "input order")
    groups = by_input.groupby("score", sort=False)["doc_id"]
    members = groups.transform(lambda docs: " | ".join(docs) if len(docs) > 1 else docs.iloc[0])
    mean_grade = by_input["doc_id"].map(grade_of).clip(lower=0).groupby(by_input["score"]).transform("mean")
    averaged = [
        _("{documents} (mean grade {grade})").format(documents=who, grade=format(grade, ".3g")) if "|" in who else f"{who} ({int(grade_of[who])})"
        for who, grade in zip(members, mean_grade)
    ]
    return pd.DataFrame({
        "rank": by_trec["rank"].to_numpy(),
        "score": by_trec["score"].to_numpy(),
        "trec_eval": [f"{d} ({grade_of[d]})" for d in by_trec["doc_id"]],
        "input order": [f"{d} ({grade_of[d]})" for d in by_input["doc_id"]],
        "tie-averaged": averaged,
    })
