r"""Diversity kernels over subtopic judgments: alpha-DCG/alpha-nDCG, ERR-IA/nERR-IA, NRBP/nNRBP,
AP-IA, P-IA and subtopic recall, every query at once, with the TREC Web track's ``ndeval``
conventions.

A topic q has subtopics (intents) s; J(d, s) = 1 when document d is relevant to s (its subtopic
judgment is at least the relevance threshold). Only the S_q subtopics with at least one
relevant judged document count (ndeval's "actual subtopics"). Down the ranking, c_s(i) is the
number of documents above rank i relevant to s, and the *novelty-biased gain* of rank i is

    g(i) = sum_s J(d_i, s) (1 - alpha)^{c_s(i)}

(Clarke et al. 2008): a subtopic seen n times before is worth (1 - alpha)^n. Then, with k the
cutoff (the list's length without one) and D(i) = 1 / log2(i + 1),

* alpha-DCG@k = sum_{i<=k} g(i) D(i) / Z_k, Z_k = S sum_{i<=k} (1 - alpha)^{i-1} D(i): ndeval's
  "collection-independent" normalisation by the DCG of documents relevant to every subtopic;
* alpha-nDCG@k = sum_{i<=k} g(i) D(i) / sum_{i<=k} g*(i) D(i), g* the gains of the ideal ranking;
* ERR-IA@k and nERR-IA@k: the same with D(i) = 1/i (Chapelle et al. 2009 with binary grades,
  each relevant document satisfying an intent with probability alpha);
* NRBP = (1 - (1 - alpha) beta) / S sum_i beta^{i-1} g(i) over the whole list (Clarke, Kolla &
  Vechtomova 2009), nNRBP = NRBP / NRBP of the ideal ranking;
* AP-IA = (1/S) sum_s AP_s, AP_s over the documents relevant to s and R_s of them judged;
* P-IA@k = sum_{i<=k} sum_s J(d_i, s) / (k S) (Agrawal et al. 2009, intents equally likely);
* subtopic recall@k = |{s : J(d_i, s) = 1 for some i <= k}| / S (Zhai, Cohen & Lafferty 2003).

The ideal ranking is ndeval's greedy one: rank after rank, the judged document with the largest
novelty-biased gain given the documents already placed; equal gains go to the document that
comes first in the lists' tie order (in :func:`rankviz.evaluate`, the greatest docno, as
ndeval's ``strcmp``). Finding the best ranking is NP-hard; the greedy one is not always the
best, so a ranking can score above 1 on the normalised measures. A topic without relevant
judgment scores 0 on every measure (ndeval's nNRBP is 0/0 there).

Gains (1 - alpha)^n and beta^{i-1} are repeated products and sums run in subtopic order, as in
ndeval, so that equal gains compare equal in the greedy ranking exactly as they do there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = [
    "ALPHA",
    "BETA",
    "DiversityContext",
    "SubtopicLists",
    "repeated_powers",
    "discounts",
    "discounted_gains",
    "novelty_gains",
    "collection_ideal_terms",
    "ideal_terms",
    "rank_biased_terms",
    "nrbp_factor",
    "subtopic_precisions",
    "alpha_dcg",
    "alpha_ndcg",
    "ap_ia",
    "err_ia",
    "nerr_ia",
    "nnrbp",
    "nrbp",
    "p_ia",
    "subtopic_recall",
]

#: ndeval's defaults: redundancy intolerance alpha and patience beta.
ALPHA = 0.5
BETA = 0.5


@dataclass(frozen=True, eq=False)
class SubtopicLists:
    """Ranked lists with subtopic judgments, and each topic's judged pool, as flat arrays.

    Attributes
    ----------
    n_queries : int
    row_query : ndarray of int64
        Per ranked document, its list; rows are grouped by list (0, 1, ...) in rank order.
    row_judged : ndarray of bool
        Whether the qrels judge the document (any subtopic, any judgment): for ``judged_only``.
    hit_row, hit_subtopic, hit_grade : ndarray
        The subtopic judgments of the ranked documents, sorted by (row, subtopic).
    pool_query : ndarray of int64
        Per judged document of the pool (the ideal ranking's candidates), its list; grouped by
        list, and within a list in tie order (the first of equal gains is ranked first).
    pool_doc, pool_subtopic, pool_grade : ndarray
        The pool's judgments, sorted by (pool document, subtopic).
    subtopic_query : ndarray of int64
        Per subtopic (numbered over all lists, in each list's subtopic order), its list.
    depth : int or None
        Only the top ``depth`` documents of each list count (after ``judged_only``).
    judged_only : bool
        Drop documents without a judgment before ranking, for every measure.
    subtopic_labels, pool_labels : tuple
        Names of the subtopics and of the pool's documents (worked tables).
    """

    n_queries: int
    row_query: np.ndarray
    row_judged: np.ndarray
    hit_row: np.ndarray
    hit_subtopic: np.ndarray
    hit_grade: np.ndarray
    pool_query: np.ndarray
    pool_doc: np.ndarray
    pool_subtopic: np.ndarray
    pool_grade: np.ndarray
    subtopic_query: np.ndarray
    depth: int | None = None
    judged_only: bool = False
    subtopic_labels: tuple = field(default=(), repr=False)
    pool_labels: tuple = field(default=(), repr=False)


@dataclass(frozen=True)
class RankedHits:
    """The relevant judgments of the ranked documents that count, for one threshold and view.

    ``rank`` (1-based), ``query``, ``subtopic``, ``seen`` (c_s: earlier relevant documents of the
    same subtopic) per hit, in (row, subtopic) order; ``row_rank``/``row_query``/``rows`` per
    kept row; ``length`` per list (documents that count).
    """

    rank: np.ndarray
    query: np.ndarray
    subtopic: np.ndarray
    seen: np.ndarray
    row: np.ndarray
    rows: np.ndarray
    row_rank: np.ndarray
    length: np.ndarray


@dataclass(frozen=True)
class IdealRanking:
    """The greedy ideal ranking of each list's pool: per placed document, its list, rank, gain, pool index."""

    query: np.ndarray
    rank: np.ndarray
    gain: np.ndarray
    doc: np.ndarray


class DiversityContext:
    """:class:`SubtopicLists` plus evaluate's relevance threshold and a cache of derived arrays."""

    def __init__(self, lists: SubtopicLists, *, rel_threshold: float = 1):
        self.lists = lists
        self.rel_threshold = rel_threshold
        self._cache: dict[Any, Any] = {}

    @property
    def n(self) -> int:
        return self.lists.n_queries

    def _cached(self, key, compute):
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    def threshold(self, measure) -> float:
        """The measure's own ``rel=`` if given, else evaluate's threshold; grades below 0 never count."""
        own = measure.param("rel")
        return max(float(self.rel_threshold if own is None else own), 0.0)

    # -- what the qrels say --------------------------------------------------------------------
    def relevant_per_subtopic(self, thr: float) -> np.ndarray:
        """R_s: relevant documents of the pool per subtopic."""
        lists = self.lists
        return self._cached(("R_s", thr), lambda: np.bincount(
            lists.pool_subtopic[lists.pool_grade >= thr], minlength=lists.subtopic_query.size))

    def subtopics(self, thr: float) -> np.ndarray:
        """S per list: subtopics with at least one relevant judged document."""
        lists = self.lists
        return self._cached(("S", thr), lambda: np.bincount(
            lists.subtopic_query[self.relevant_per_subtopic(thr) > 0], minlength=self.n))

    # -- the ranked documents ------------------------------------------------------------------
    def hits(self, thr: float, judged_only: bool = False) -> RankedHits:
        """The relevant judgments of the ranked documents within depth, with their ranks."""
        judged_only = judged_only or self.lists.judged_only
        return self._cached(("hits", thr, judged_only), lambda: self._hits(thr, judged_only))

    def _hits(self, thr: float, judged_only: bool) -> RankedHits:
        lists = self.lists
        keep = lists.row_judged if judged_only else np.ones(lists.row_query.size, dtype=bool)
        rows = np.flatnonzero(keep)
        row_query = lists.row_query[rows]
        first = np.searchsorted(row_query, np.arange(self.n))
        row_rank = np.arange(rows.size, dtype=np.int64) - first[row_query] + 1
        if lists.depth is not None:
            within = row_rank <= lists.depth
            rows, row_query, row_rank = rows[within], row_query[within], row_rank[within]
        length = np.bincount(row_query, minlength=self.n)
        # Rank of every original row (0: does not count), then of every relevant judgment.
        rank_of_row = np.zeros(lists.row_query.size, dtype=np.int64)
        rank_of_row[rows] = row_rank
        relevant = lists.hit_grade >= thr
        hit_row = lists.hit_row[relevant]
        hit_rank = rank_of_row[hit_row]
        counted = hit_rank > 0
        hit_row, hit_rank = hit_row[counted], hit_rank[counted]
        hit_subtopic = lists.hit_subtopic[relevant][counted]
        return RankedHits(rank=hit_rank, query=lists.row_query[hit_row], subtopic=hit_subtopic,
                          seen=_occurrences_before(hit_subtopic), row=hit_row, rows=rows, row_rank=row_rank,
                          length=length)

    def hit_gains(self, thr: float, alpha: float, judged_only: bool = False) -> tuple[np.ndarray, RankedHits]:
        """(1 - alpha)^{c_s(i)} per relevant judgment of the ranked documents (aligned with the hits), and the hits."""
        def compute():
            hits = self.hits(thr, judged_only)
            return repeated_powers(1.0 - alpha, int(hits.seen.max(initial=0)) + 1)[hits.seen], hits
        return self._cached(("hitgains", thr, alpha, judged_only or self.lists.judged_only), compute)

    def row_gains(self, thr: float, alpha: float, judged_only: bool = False) -> tuple[np.ndarray, RankedHits]:
        """g(i) per kept row (aligned with ``hits.rows``): its hits' gains summed in subtopic order, and the hits."""
        def compute():
            per_hit, hits = self.hit_gains(thr, alpha, judged_only)
            position = np.zeros(self.lists.row_query.size, dtype=np.int64)
            position[hits.rows] = np.arange(hits.rows.size)
            gains = np.bincount(position[hits.row], weights=per_hit, minlength=hits.rows.size)
            return gains, hits
        return self._cached(("gains", thr, alpha, judged_only or self.lists.judged_only), compute)

    # -- the ideal ranking ---------------------------------------------------------------------
    def ideal(self, thr: float, alpha: float) -> IdealRanking:
        """ndeval's greedy ideal ranking of each pool (relevant documents only: the others add 0)."""
        return self._cached(("ideal", thr, alpha), lambda: _greedy_ideal(self.lists, thr, alpha, self.n))


def _occurrences_before(labels: np.ndarray) -> np.ndarray:
    """For each element, how many earlier elements carry the same label."""
    if labels.size == 0:
        return np.zeros(0, dtype=np.int64)
    order = np.argsort(labels, kind="stable")
    ordered = labels[order]
    new = np.r_[True, ordered[1:] != ordered[:-1]]
    start = np.maximum.accumulate(np.where(new, np.arange(ordered.size), 0))
    seen = np.empty(labels.size, dtype=np.int64)
    seen[order] = np.arange(ordered.size) - start
    return seen


def repeated_powers(base: float, n: int) -> np.ndarray:
    """base^0, base^1, ..., base^(n-1), each the previous one times ``base`` (as ndeval's loops).

    >>> repeated_powers(0.5, 4).tolist()
    [1.0, 0.5, 0.25, 0.125]
    """
    out = np.empty(max(n, 1))
    out[0] = 1.0
    if out.size > 1:
        out[1:] = base
        out = np.cumprod(out)
    return out


def _ragged(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Indices starts[j] .. starts[j] + counts[j] - 1 of every j, concatenated."""
    total = int(counts.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    offsets = np.repeat(starts - np.concatenate(([0], np.cumsum(counts)[:-1])), counts)
    return np.arange(total, dtype=np.int64) + offsets


def _greedy_ideal(lists: SubtopicLists, thr: float, alpha: float, n: int) -> IdealRanking:
    """Rank after rank, in every list at once, the unplaced pool document of largest gain.

    One step per rank, vectorised over the lists that still have documents to place; the
    first of equal gains in pool order wins (max, then the smallest index among the maxima).
    """
    relevant = lists.pool_grade >= thr
    doc, subtopic = lists.pool_doc[relevant], lists.pool_subtopic[relevant]
    candidates = np.unique(doc)  # pool documents relevant to some subtopic, in pool (tie) order
    empty = np.zeros(0, dtype=np.int64)
    if candidates.size == 0:
        return IdealRanking(empty, empty, np.zeros(0), empty)
    # Candidates numbered 0..m-1, still grouped by list in tie order; their judgments in order.
    number = np.full(lists.pool_query.size, -1, dtype=np.int64)
    number[candidates] = np.arange(candidates.size)
    hit_candidate = number[doc]
    hit_start = np.searchsorted(hit_candidate, np.arange(candidates.size))
    hit_count = np.bincount(hit_candidate, minlength=candidates.size)
    per_list = np.bincount(lists.pool_query[candidates], minlength=n)
    list_start = np.concatenate(([0], np.cumsum(per_list)[:-1]))
    powers = repeated_powers(1.0 - alpha, int(per_list.max()) + 1)
    seen = np.zeros(lists.subtopic_query.size, dtype=np.int64)
    placed = np.zeros(candidates.size, dtype=bool)
    out_query, out_rank, out_gain, out_doc = [], [], [], []
    for rank in range(1, int(per_list.max()) + 1):
        active = np.flatnonzero(per_list >= rank)  # lists with a document left to place
        rows = _ragged(list_start[active], per_list[active])
        segment_starts = np.concatenate(([0], np.cumsum(per_list[active])[:-1]))
        hit_index = _ragged(hit_start[rows], hit_count[rows])
        owner = np.repeat(np.arange(rows.size), hit_count[rows])
        gains = np.bincount(owner, weights=powers[seen[subtopic[hit_index]]], minlength=rows.size)
        gains[placed[rows]] = -1.0
        best = np.maximum.reduceat(gains, segment_starts)
        is_best = gains == np.repeat(best, per_list[active])
        first = np.minimum.reduceat(np.where(is_best, np.arange(rows.size), rows.size), segment_starts)
        chosen = rows[first]
        placed[chosen] = True
        seen[subtopic[_ragged(hit_start[chosen], hit_count[chosen])]] += 1
        out_query.append(active)
        out_rank.append(np.full(active.size, rank, dtype=np.int64))
        out_gain.append(gains[first])
        out_doc.append(candidates[chosen])
    return IdealRanking(np.concatenate(out_query), np.concatenate(out_rank), np.concatenate(out_gain),
                        np.concatenate(out_doc))


# --------------------------------------------------------------------------------------------
# The measures: kernel(context, measure) -> one value per list


def _unit(measure, key: str, default: float) -> float:
    """A parameter that must lie in [0, 1] (alpha, beta), or a ValueError naming the measure."""
    value = float(measure.param(key, default))
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"Measure {str(measure)!r}: {key} must be a number in [0, 1]; got {value:g}.")
    return value


def _options(ctx: DiversityContext, measure) -> tuple[float, float, bool]:
    """(threshold, alpha, judged_only) of a measure (``alpha`` is ndeval's 0.5 when it has none)."""
    return ctx.threshold(measure), _unit(measure, "alpha", ALPHA), bool(measure.param("judged_only", False))


def _cutoffs(measure, hits: RankedHits) -> np.ndarray:
    """k per list: the measure's cutoff, else the list's length (per-query calls without k)."""
    if measure.cutoff is None:
        return hits.length.astype(np.int64)
    return np.full(hits.length.size, int(measure.cutoff), dtype=np.int64)


def discounts(kind: str, n: int) -> np.ndarray:
    """D(i) for i = 1..n: ndeval's log(2)/log(i + 1) (``kind="dcg"``) or 1/i (``"err"``).

    >>> discounts("err", 3).tolist()
    [1.0, 0.5, 0.3333333333333333]
    """
    i = np.arange(1, n + 1, dtype=np.float64)
    return np.log(2.0) / np.log(i + 1.0) if kind == "dcg" else 1.0 / i


def novelty_gains(ctx, measure) -> tuple[np.ndarray, np.ndarray, RankedHits]:
    """The novelty-biased gains under the measure's threshold and alpha: (1 - alpha)^{c_s(i)} per
    relevant judgment of the ranked documents (aligned with the hits), g(i) per kept row (aligned
    with ``hits.rows``), and the hits."""
    thr, alpha, judged_only = _options(ctx, measure)
    per_hit, hits = ctx.hit_gains(thr, alpha, judged_only)
    return per_hit, ctx.row_gains(thr, alpha, judged_only)[0], hits


def discounted_gains(ctx, measure, kind: str) -> tuple[np.ndarray, RankedHits]:
    """g(i) D(i) per kept row of the lists (aligned with ``hits.rows``), and the hits: the terms
    alpha-DCG, alpha-nDCG, ERR-IA and nERR-IA add up to k."""
    thr, alpha, judged_only = _options(ctx, measure)
    gains, hits = ctx.row_gains(thr, alpha, judged_only)
    return gains * discounts(kind, int(hits.row_rank.max(initial=0)))[hits.row_rank - 1], hits


def _discounted_sums(ctx, measure, kind: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, float]:
    """(sum_{i<=k} g(i) D(i) per list, k per list, S per list, thr, alpha) of the ranking."""
    thr, alpha, _ = _options(ctx, measure)
    terms, hits = discounted_gains(ctx, measure, kind)
    k = _cutoffs(measure, hits)
    row_query = ctx.lists.row_query[hits.rows]
    within = hits.row_rank <= k[row_query]
    total = np.bincount(row_query[within], weights=terms[within], minlength=ctx.n)
    return total, k, ctx.subtopics(thr), thr, alpha


def collection_ideal_terms(alpha: float, kind: str, depth: int) -> np.ndarray:
    """(1 - alpha)^{i-1} D(i) for i = 1..depth: S times their sum to k is Z_k, the score of k
    documents each relevant to all S subtopics (ndeval's collection-independent normaliser).

    >>> collection_ideal_terms(0.5, "err", 3).tolist()   # 1/1, 0.5/2, 0.25/3
    [1.0, 0.25, 0.08333333333333333]
    """
    return repeated_powers(1.0 - alpha, depth)[:depth] * discounts(kind, depth)


def _ideal_ideal(k: np.ndarray, subtopics: np.ndarray, alpha: float, kind: str) -> np.ndarray:
    """Z_k = S sum_{i<=k} (1 - alpha)^{i-1} D(i): every document relevant to every subtopic."""
    depth = int(k.max(initial=0))
    prefix = np.concatenate(([0.0], np.cumsum(collection_ideal_terms(alpha, depth=depth, kind=kind))))
    return subtopics * prefix[k]


def ideal_terms(ctx, thr: float, alpha: float, kind: str) -> tuple[IdealRanking, np.ndarray]:
    """The greedy ideal ranking and g*(i) D(i) per document it places (what :func:`alpha_ndcg` and
    :func:`nerr_ia` divide by, summed to k)."""
    ideal = ctx.ideal(thr, alpha)
    return ideal, ideal.gain * discounts(kind, int(ideal.rank.max(initial=0)))[ideal.rank - 1]


def _ideal_sums(ctx, thr: float, alpha: float, k: np.ndarray, kind: str) -> np.ndarray:
    """sum_{i<=k} g*(i) D(i) of the greedy ideal ranking, per list."""
    ideal, terms = ideal_terms(ctx, thr, alpha, kind)
    within = ideal.rank <= k[ideal.query]
    return np.bincount(ideal.query[within], weights=terms[within], minlength=ctx.n)


def _ratio(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    out = np.zeros(numerator.shape)
    np.divide(numerator, denominator, out=out, where=denominator > 0)
    return out


def alpha_dcg(ctx, measure):
    """alpha-DCG@k with ndeval's collection-independent normalisation: sum g(i)/log2(i+1) over Z_k."""
    total, k, subtopics, _, alpha = _discounted_sums(ctx, measure, "dcg")
    return _ratio(total, _ideal_ideal(k, subtopics, alpha, "dcg"))


def alpha_ndcg(ctx, measure):
    """alpha-nDCG@k: alpha-DCG of the ranking over alpha-DCG of the greedy ideal ranking."""
    total, k, _, thr, alpha = _discounted_sums(ctx, measure, "dcg")
    return _ratio(total, _ideal_sums(ctx, thr, alpha, k, "dcg"))


def err_ia(ctx, measure):
    """ERR-IA@k with ndeval's collection-independent normalisation: sum g(i)/i over Z_k."""
    total, k, subtopics, _, alpha = _discounted_sums(ctx, measure, "err")
    return _ratio(total, _ideal_ideal(k, subtopics, alpha, "err"))


def nerr_ia(ctx, measure):
    """nERR-IA@k: ERR-IA of the ranking over ERR-IA of the greedy ideal ranking."""
    total, k, _, thr, alpha = _discounted_sums(ctx, measure, "err")
    return _ratio(total, _ideal_sums(ctx, thr, alpha, k, "err"))


def rank_biased_terms(gains: np.ndarray, ranks: np.ndarray, beta: float) -> np.ndarray:
    """beta^{i-1} g(i) for gains at 1-based ranks i (NRBP's sum, term by term).

    >>> rank_biased_terms(np.array([1.0, 0.0, 0.5]), np.array([1, 2, 3]), 0.5).tolist()
    [1.0, 0.0, 0.125]
    """
    return gains * repeated_powers(beta, int(ranks.max(initial=0)))[ranks - 1]


def nrbp_factor(alpha: float, beta: float) -> float:
    """1 - (1 - alpha) beta: NRBP multiplies its sum by this over S, so that an endless list of
    documents relevant to every subtopic scores 1."""
    return 1.0 - (1.0 - alpha) * beta


def _rank_biased(ctx, gains: np.ndarray, ranks: np.ndarray, query: np.ndarray, beta: float) -> np.ndarray:
    """sum_i beta^{i-1} g(i) per list."""
    return np.bincount(query, weights=rank_biased_terms(gains, ranks, beta), minlength=ctx.n)


def nrbp(ctx, measure):
    """NRBP = (1 - (1 - alpha) beta) / S sum_i beta^{i-1} g(i), the whole list."""
    thr, alpha, judged_only = _options(ctx, measure)
    beta = _unit(measure, "beta", BETA)
    gains, hits = ctx.row_gains(thr, alpha, judged_only)
    total = _rank_biased(ctx, gains, hits.row_rank, ctx.lists.row_query[hits.rows], beta)
    return _ratio(total * nrbp_factor(alpha, beta), ctx.subtopics(thr).astype(np.float64))


def nnrbp(ctx, measure):
    """nNRBP: NRBP of the ranking over NRBP of the greedy ideal ranking (0 without relevant documents)."""
    thr, alpha, judged_only = _options(ctx, measure)
    beta = _unit(measure, "beta", BETA)
    gains, hits = ctx.row_gains(thr, alpha, judged_only)
    total = _rank_biased(ctx, gains, hits.row_rank, ctx.lists.row_query[hits.rows], beta)
    ideal = ctx.ideal(thr, alpha)
    if nrbp_factor(alpha, beta) == 0.0:  # alpha = 0, beta = 1: every NRBP is 0, and 0/0 is 0 here
        return np.zeros(ctx.n)
    return _ratio(total, _rank_biased(ctx, ideal.gain, ideal.rank, ideal.query, beta))


def subtopic_precisions(ctx, measure) -> tuple[np.ndarray, RankedHits]:
    """Per relevant judgment of the ranked documents: the precision for its subtopic at its rank,
    (c_s(i) + 1) / i, and the hits (AP-IA's terms)."""
    thr, _, judged_only = _options(ctx, measure)
    hits = ctx.hits(thr, judged_only)
    return (hits.seen + 1) / hits.rank, hits


def ap_ia(ctx, measure):
    """AP-IA (ndeval's MAP-IA): the mean over the S subtopics of each subtopic's AP, the whole list."""
    thr = ctx.threshold(measure)
    precisions, hits = subtopic_precisions(ctx, measure)
    per_subtopic = np.bincount(hits.subtopic, weights=precisions, minlength=ctx.lists.subtopic_query.size)
    ap = _ratio(per_subtopic, ctx.relevant_per_subtopic(thr).astype(np.float64))
    return _ratio(np.bincount(ctx.lists.subtopic_query, weights=ap, minlength=ctx.n),
                  ctx.subtopics(thr).astype(np.float64))


def p_ia(ctx, measure):
    """P-IA@k: relevant (document, subtopic) pairs in the top k over k S."""
    thr, _, judged_only = _options(ctx, measure)
    hits = ctx.hits(thr, judged_only)
    k = _cutoffs(measure, hits)
    count = np.bincount(hits.query[hits.rank <= k[hits.query]], minlength=ctx.n)
    return _ratio(count.astype(np.float64), (k * ctx.subtopics(thr)).astype(np.float64))


def subtopic_recall(ctx, measure):
    """Subtopic recall@k: subtopics with a relevant document in the top k, over S."""
    thr, _, judged_only = _options(ctx, measure)
    hits = ctx.hits(thr, judged_only)
    k = _cutoffs(measure, hits)
    first = (hits.seen == 0) & (hits.rank <= k[hits.query])
    return _ratio(np.bincount(hits.query[first], minlength=ctx.n).astype(np.float64),
                  ctx.subtopics(thr).astype(np.float64))
