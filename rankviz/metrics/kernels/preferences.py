"""Kernels of trec_eval's preference measures (``-R prefs`` / ``-R qrels_prefs``, ``prefs_*``).

A preference ``a > b`` of a judgment group (JG, one user's judgments of one topic) says that
document ``a`` should be ranked above ``b``. Within a judgment sub-group (JSG) every document with
a higher level is preferred to every one with a lower level. A JG with one JSG holds the
preferences between its *equivalence classes* (ECs: documents of equal level); a JG with several
JSGs holds their union, closed transitively (``a > b`` in one JSG and ``b > c`` in another give
``a > c``); a preference and its reverse in one JG is an error.

Documents are numbered per query as trec_eval numbers them (``form_prefs_counts.c``): the judged
documents the run retrieved get 0, 1, ... in rank order (``num_judged_ret`` of them), then the
judged documents it did not retrieve, in docno order. A preference ``a > b`` (numbers) is

* *fulfilled* when ``a < b`` and ``a`` was retrieved;
* *retrieved* when both were retrieved, *implied* when exactly one was, *not occurring* when neither.

Per JG, the kernels count fulfilled and possible preferences in each category, and per query the
preferences of each document pair summed over JGs (for the ``pair`` measures: a pair preferred
one way by 3 JGs and the other way by 2 scores 3/5).

Work is per query and per JG: one Python iteration per JG (a JG is typically a few to a few
thousand documents), and within it numpy arrays over its preferences; a JG's preferences are
enumerated once (trec_eval keeps a num_judged x num_judged array per query instead).

References
----------
trec_eval 10.0: ``form_prefs_counts.c`` and the ``m_prefs_*.c`` measures;
https://github.com/usnistgov/trec_eval
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

__all__ = [
    "PreferenceContext",
    "PreferenceCounts",
    "PreferenceJudgments",
    "count_preferences",
    "preferences_possible",
    "preferences_fulfilled",
    "preferences_fulfilled_retrieved",
    "preference_ratio",
    "preference_ratio_retrieved",
    "preference_ratio_implied",
    "pair_ratio",
    "pair_ratio_retrieved",
    "pair_ratio_implied",
    "group_ratio",
    "group_ratio_retrieved",
    "group_ratio_implied",
    "group_ratio_r_nonrelevant",
    "group_ratio_r_nonrelevant_retrieved",
]


@dataclass(frozen=True, eq=False)
class PreferenceJudgments:
    """Every preference line of every evaluated query, with its document's number in the run.

    Attributes
    ----------
    num_judged, num_judged_ret : ndarray of int64, one per query
        Distinct documents the query's preference lines name; how many of them the run retrieved
        (within its depth).
    line_query, line_group, line_subgroup : ndarray of int64, one per line
        The line's query (0 .. n_queries - 1), judgment group (a code unique over all queries)
        and sub-group (a code unique within the group at least).
    line_doc : ndarray of int64
        The document's number in its query: retrieved judged documents 0 .. num_judged_ret - 1
        in rank order, then the unretrieved ones in docno order.
    line_level : ndarray of float64
        The line's ``rel_level``.
    query_ids : sequence of str
        The query ids, for error messages.
    """

    num_judged: np.ndarray
    num_judged_ret: np.ndarray
    line_query: np.ndarray
    line_group: np.ndarray
    line_subgroup: np.ndarray
    line_doc: np.ndarray
    line_level: np.ndarray
    query_ids: tuple = ()

    @property
    def n_queries(self) -> int:
        return int(self.num_judged.size)


@dataclass(frozen=True, eq=False)
class PreferenceCounts:
    """What :func:`count_preferences` finds: per JG counts and per query pair sums.

    Per JG (arrays aligned with ``group_query``): ``fulfilled_ret``, ``possible_ret`` (both
    retrieved), ``fulfilled_imp``, ``possible_imp`` (one retrieved), ``possible_notoccur``
    (neither), where possible counts include the fulfilled ones; ``r_nonrel`` and
    ``r_nonrel_ret``, each JG's ratio for ``prefs_avgjg_Rnonrel`` and its retrieved variant (NaN
    for 0/0, as trec_eval's C division gives).

    Per query: ``pair_sum``/``pair_count`` (every judged pair), ``pair_sum_ret``/
    ``pair_count_ret`` (both retrieved), ``pair_sum_imp``/``pair_count_imp`` (at least one).
    """

    n_queries: int
    group_query: np.ndarray
    fulfilled_ret: np.ndarray
    possible_ret: np.ndarray
    fulfilled_imp: np.ndarray
    possible_imp: np.ndarray
    possible_notoccur: np.ndarray
    r_nonrel: np.ndarray
    r_nonrel_ret: np.ndarray
    pair_sum: np.ndarray
    pair_count: np.ndarray
    pair_sum_ret: np.ndarray
    pair_count_ret: np.ndarray
    pair_sum_imp: np.ndarray
    pair_count_imp: np.ndarray

    def per_query(self, values: np.ndarray) -> np.ndarray:
        """Sum of a per-JG array over each query's JGs."""
        return np.bincount(self.group_query, weights=values, minlength=self.n_queries)

    @cached_property
    def groups_per_query(self) -> np.ndarray:
        return np.bincount(self.group_query, minlength=self.n_queries)


class PreferenceContext:
    """The preference judgments of one evaluation and their counts, computed once for all measures."""

    def __init__(self, judgments: PreferenceJudgments):
        self.judgments = judgments

    @property
    def n(self) -> int:
        return self.judgments.n_queries

    @cached_property
    def counts(self) -> PreferenceCounts:
        return count_preferences(self.judgments)


# --------------------------------------------------------------------------------------------
# Counting


def _class_pairs(docs: np.ndarray, levels: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every preference of one sub-group: (a, b, b_in_lowest_class) with ``a`` preferred to ``b``.

    ``docs`` and ``levels`` are sorted by level descending: each document is preferred to every
    document of every later (lower) equivalence class.
    """
    m = docs.size
    if m == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, np.zeros(0, dtype=bool)
    new_class = np.r_[True, levels[1:] != levels[:-1]]
    class_start = np.flatnonzero(new_class)
    class_end = np.r_[class_start[1:], m]
    class_of = np.cumsum(new_class) - 1
    end = class_end[class_of]
    counts = m - end
    total = int(counts.sum())
    offsets = np.cumsum(counts) - counts
    b_index = np.arange(total, dtype=np.int64) - np.repeat(offsets, counts) + np.repeat(end, counts)
    a = np.repeat(docs, counts)
    return a, docs[b_index], b_index >= class_start[-1]


def _transitive_closure(matrix: np.ndarray) -> np.ndarray:
    """The transitive closure of a boolean preference matrix (by repeated squaring)."""
    reach = matrix.copy()
    while True:
        as_float = reach.astype(np.float32)
        grown = reach | ((as_float @ as_float) > 0)
        if np.array_equal(grown, reach):
            return reach
        reach = grown


class _Group:
    """One JG's preferences (a preferred to b) and what the R-nonrel measures need of it."""

    def __init__(self, docs, levels, subgroups, query_id, group_index):
        # Lines sorted by sub-group, level descending, document (trec_eval's order).
        self.is_classes = subgroups[0] == subgroups[-1]
        if self.is_classes:
            self.a, self.b, self.b_lowest = _class_pairs(docs, levels)
            self.docs, self.levels = docs, levels
            relevant = levels > 0.0
            self.relevant_docs = docs[relevant]
            self.nonrelevant_docs = docs[~relevant]
            lowest = levels == levels[-1]
            self.lowest_class = docs[lowest]  # ascending: sorted by document within a level
        else:
            self._partial_order(docs, levels, subgroups, query_id, group_index)

    def _partial_order(self, docs, levels, subgroups, query_id, group_index):
        local, inverse = np.unique(docs, return_inverse=True)
        m = local.size
        matrix = np.zeros((m, m), dtype=bool)
        bounds = np.flatnonzero(np.r_[True, subgroups[1:] != subgroups[:-1], True])
        for start, stop in zip(bounds[:-1], bounds[1:]):
            a, b, _ = _class_pairs(inverse[start:stop], levels[start:stop])
            matrix[a, b] = True
        closed = _transitive_closure(matrix)
        np.fill_diagonal(closed, False)
        conflict = closed & closed.T
        if conflict.any():
            i, j = np.argwhere(conflict)[0]
            raise ValueError(
                f"preferences of query {query_id!r}, judgment group {group_index}: documents number "
                f"{local[i]} and {local[j]} are each preferred to the other (directly or through other "
                f"sub-groups); one judgment group must be consistent (trec_eval aborts here too)"
            )
        # A document's level is the one of its last line (trec_eval's rel_array); 0 in one
        # sub-group and > 0 in another is an error.
        level = np.full(m, -1.0)
        level[inverse] = levels  # later lines overwrite earlier ones, as in trec_eval
        zero = np.zeros(m, dtype=bool)
        positive = np.zeros(m, dtype=bool)
        zero[inverse[levels == 0.0]] = True
        positive[inverse[levels > 0.0]] = True
        if (zero & positive).any():
            doc = local[np.flatnonzero(zero & positive)[0]]
            raise ValueError(
                f"preferences of query {query_id!r}: document number {doc} has level 0 in one sub-group "
                f"and a level > 0 in another of the same judgment group (non-relevant and relevant at once)"
            )
        ia, ib = np.nonzero(closed)
        self.a, self.b = local[ia], local[ib]
        self.pa_docs, self.pa_level = local, level
        self.relevant_docs = local[level > 0.0]
        self.nonrelevant_docs = local[level == 0.0]


def _ratio(fulfilled, possible) -> float:
    """fulfilled / possible as C divides doubles: 0/0 is NaN."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return float(np.float64(fulfilled) / np.float64(possible))


def _r_nonrel_ratio(group: _Group, njr: int, nj: int, retrieved_only: bool, counts: dict) -> float:
    """One JG's ratio for prefs_avgjg_Rnonrel (retrieved_only=False) or its _ret variant.

    The JG's non-relevant documents are cut to as many as it has relevant ones (R); when it
    has fewer, R x (R - N) fulfilled preferences are added. Reproduces trec_eval 10.0's
    ``m_prefs_avgjg_Rnonrel*.c`` exactly, including two of its quirks: with classes, the
    reduced non-relevant class (its first R documents) is also compared with the lowest class
    itself; and the _ret variant adds ``num_rel * (R - N)`` possible preferences (all relevant
    documents, retrieved or not).
    """
    rel, nonrel = group.relevant_docs, group.nonrelevant_docs
    num_rel, num_nonrel = rel.size, nonrel.size
    num_rel_ret = int(np.count_nonzero(rel < njr))
    if retrieved_only:
        big_r, big_n = num_rel_ret, int(np.count_nonzero(nonrel < njr))
    else:
        big_r, big_n = num_rel, num_nonrel
    if big_r >= big_n:
        if retrieved_only:
            fulfilled = counts["fulfilled_ret"] + num_rel_ret * (big_r - big_n)
            possible = counts["possible_ret"] + num_rel * (big_r - big_n)
        else:
            fulfilled = counts["fulfilled_ret"] + counts["fulfilled_imp"] + num_rel_ret * (big_r - big_n)
            possible = (counts["possible_ret"] + counts["possible_imp"] + counts["possible_notoccur"]
                        + num_rel * (big_r - big_n))
        return _ratio(fulfilled, possible)
    a, b = group.a, group.b
    if group.is_classes:
        keep = ~group.b_lowest  # preferences between the classes above the lowest one
        a1, b1 = a[keep], b[keep]
        reduced = group.lowest_class[:big_r]
        every = group.docs
        if retrieved_only:
            both = (a1 < njr) & (b1 < njr)
            a1, b1 = a1[both], b1[both]
            every = every[every < njr]
            reduced = reduced[reduced < njr]
            fulfilled = np.count_nonzero(a1 < b1)
            # every retrieved document against the reduced class: fulfilled when ranked above
            fulfilled += int(np.searchsorted(np.sort(every), reduced, side="left").sum())
        else:
            fulfilled = np.count_nonzero((a1 < b1) & (a1 < njr))
            fulfilled += int(np.searchsorted(np.sort(every), np.minimum(reduced, njr), side="left").sum())
        possible = a1.size + every.size * reduced.size
        return _ratio(fulfilled, possible)
    # Partial order: drop the non-relevant documents after the (num_rel + 1)-th one (in document
    # number order; the _ret variant looks only among the retrieved ones).
    scan = np.sort(nonrel)
    if retrieved_only:
        scan = scan[scan < njr]
    first_discarded = scan[num_rel] if scan.size > num_rel else (njr if retrieved_only else nj)
    discarded = np.sort(nonrel[nonrel >= first_discarded])
    keep = ~(np.isin(a, discarded) | np.isin(b, discarded))
    if retrieved_only:
        keep &= (a < njr) & (b < njr)
        a1, b1 = a[keep], b[keep]
        fulfilled = np.count_nonzero(a1 < b1)
    else:
        a1, b1 = a[keep], b[keep]
        fulfilled = np.count_nonzero((a1 < b1) & (a1 < njr))
    return _ratio(fulfilled, a1.size)


def _pair_sums(a: np.ndarray, b: np.ndarray, nj: int, njr: int) -> tuple:
    """Per query: the pair measures' sums and pair counts from every JG's preferences a > b."""
    if a.size == 0:
        return 0.0, 0, 0.0, 0, 0.0, 0
    low, high = np.minimum(a, b), np.maximum(a, b)
    keys, index = np.unique(low * nj + high, return_inverse=True)
    forward = np.bincount(index, weights=(a < b), minlength=keys.size)
    total = np.bincount(index, minlength=keys.size)
    share = forward / total  # fraction of the pair's preferences that the ranking fulfils
    low_u, high_u = keys // nj, keys % nj
    first_retrieved = low_u < njr
    both_retrieved = high_u < njr
    return (float(share[first_retrieved].sum()), int(keys.size),
            float(share[both_retrieved].sum()), int(np.count_nonzero(both_retrieved)),
            float(share[first_retrieved].sum()), int(np.count_nonzero(first_retrieved)))


def count_preferences(judgments: PreferenceJudgments) -> PreferenceCounts:
    """Count every JG's fulfilled and possible preferences, and every query's pair sums.

    Raises ValueError when a JG's preferences contradict each other, or a document is both
    non-relevant (level 0) and relevant in one JG.
    """
    j = judgments
    n = j.n_queries
    order = np.lexsort((j.line_doc, -j.line_level, j.line_subgroup, j.line_group))
    group, query = j.line_group[order], j.line_query[order]
    subgroup, doc, level = j.line_subgroup[order], j.line_doc[order], j.line_level[order]
    bounds = np.flatnonzero(np.r_[True, group[1:] != group[:-1], True]) if group.size else np.zeros(1, np.int64)
    n_groups = bounds.size - 1
    names = ("fulfilled_ret", "possible_ret", "fulfilled_imp", "possible_imp", "possible_notoccur")
    per_group = {name: np.zeros(n_groups, dtype=np.int64) for name in names}
    r_nonrel = np.zeros(n_groups)
    r_nonrel_ret = np.zeros(n_groups)
    group_query = query[bounds[:-1]] if n_groups else np.zeros(0, dtype=np.int64)
    pairs_a: list[list] = [[] for _ in range(n)]
    pairs_b: list[list] = [[] for _ in range(n)]
    for g in range(n_groups):  # one iteration per judgment group: see the module docstring
        start, stop = bounds[g], bounds[g + 1]
        q = int(group_query[g])
        njr, nj = int(j.num_judged_ret[q]), int(j.num_judged[q])
        query_id = j.query_ids[q] if j.query_ids else q
        item = _Group(doc[start:stop], level[start:stop], subgroup[start:stop], query_id, g)
        a, b = item.a, item.b
        forward = a < b
        a_ret, b_ret = a < njr, b < njr
        counts = {
            "fulfilled_ret": int(np.count_nonzero(forward & b_ret)),
            "fulfilled_imp": int(np.count_nonzero(forward & ~b_ret & a_ret)),
            "possible_notoccur": int(np.count_nonzero(~a_ret & ~b_ret)),
        }
        counts["possible_ret"] = counts["fulfilled_ret"] + int(np.count_nonzero(~forward & a_ret))
        counts["possible_imp"] = counts["fulfilled_imp"] + int(np.count_nonzero(~forward & ~a_ret & b_ret))
        for name in names:
            per_group[name][g] = counts[name]
        r_nonrel[g] = _r_nonrel_ratio(item, njr, nj, False, counts)
        r_nonrel_ret[g] = _r_nonrel_ratio(item, njr, nj, True, counts)
        pairs_a[q].append(a)
        pairs_b[q].append(b)
    sums = np.zeros((n, 6))
    for q in range(n):
        if pairs_a[q]:
            sums[q] = _pair_sums(np.concatenate(pairs_a[q]), np.concatenate(pairs_b[q]),
                                 int(j.num_judged[q]), int(j.num_judged_ret[q]))
    return PreferenceCounts(
        n_queries=n, group_query=group_query.astype(np.int64), **per_group,
        r_nonrel=r_nonrel, r_nonrel_ret=r_nonrel_ret,
        pair_sum=sums[:, 0], pair_count=sums[:, 1], pair_sum_ret=sums[:, 2], pair_count_ret=sums[:, 3],
        pair_sum_imp=sums[:, 4], pair_count_imp=sums[:, 5],
    )


# --------------------------------------------------------------------------------------------
# Measures: kernel(context, measure) -> one value per query


def _divide(numerator, denominator) -> np.ndarray:
    """numerator / denominator where the denominator is not 0, else 0 (trec_eval's ``if (poss)``)."""
    numerator = np.asarray(numerator, dtype=np.float64)
    denominator = np.asarray(denominator, dtype=np.float64)
    out = np.zeros_like(numerator)
    np.divide(numerator, denominator, out=out, where=denominator != 0)
    return out


def _average_over_groups(counts: PreferenceCounts, ratios: np.ndarray) -> np.ndarray:
    """Sum of the JGs' ratios / number of JGs; 0 unless the sum is > 0 (NaN included, as in C)."""
    total = counts.per_query(ratios)
    with np.errstate(invalid="ignore"):
        positive = total > 0.0
    return np.where(positive, total / np.maximum(counts.groups_per_query, 1), 0.0)


def preferences_possible(ctx, measure):
    """prefs_num_prefs_poss: every preference, retrieved or not."""
    c = ctx.counts
    return c.per_query(c.possible_ret + c.possible_imp + c.possible_notoccur)


def preferences_fulfilled(ctx, measure):
    """prefs_num_prefs_ful: fulfilled preferences (both retrieved, or only the preferred one)."""
    c = ctx.counts
    return c.per_query(c.fulfilled_ret + c.fulfilled_imp)


def preferences_fulfilled_retrieved(ctx, measure):
    """prefs_num_prefs_ful_ret: fulfilled preferences between two retrieved documents."""
    c = ctx.counts
    return c.per_query(c.fulfilled_ret)


def preference_ratio(ctx, measure):
    """prefs_simp: fulfilled / possible preferences, all JGs pooled."""
    return _divide(preferences_fulfilled(ctx, measure), preferences_possible(ctx, measure))


def preference_ratio_retrieved(ctx, measure):
    """prefs_simp_ret: as prefs_simp over the preferences between retrieved documents."""
    c = ctx.counts
    return _divide(c.per_query(c.fulfilled_ret), c.per_query(c.possible_ret))


def preference_ratio_implied(ctx, measure):
    """prefs_simp_imp: as prefs_simp over the preferences with at least one retrieved document."""
    c = ctx.counts
    return _divide(c.per_query(c.fulfilled_ret + c.fulfilled_imp), c.per_query(c.possible_ret + c.possible_imp))


def pair_ratio(ctx, measure):
    """prefs_pair: mean over judged document pairs of the share of their preferences fulfilled."""
    c = ctx.counts
    return _divide(c.pair_sum, c.pair_count)


def pair_ratio_retrieved(ctx, measure):
    """prefs_pair_ret: prefs_pair over the pairs of retrieved documents."""
    c = ctx.counts
    return _divide(c.pair_sum_ret, c.pair_count_ret)


def pair_ratio_implied(ctx, measure):
    """prefs_pair_imp: prefs_pair over the pairs with at least one retrieved document."""
    c = ctx.counts
    return _divide(c.pair_sum_imp, c.pair_count_imp)


def _group_ratios(c: PreferenceCounts, fulfilled: np.ndarray, possible: np.ndarray) -> np.ndarray:
    return _divide(fulfilled, possible)  # a JG without possible preferences adds 0


def group_ratio(ctx, measure):
    """prefs_avgjg: fulfilled / possible within each JG, averaged over the query's JGs."""
    c = ctx.counts
    ratios = _group_ratios(c, c.fulfilled_ret + c.fulfilled_imp, c.possible_ret + c.possible_imp + c.possible_notoccur)
    return _average_over_groups(c, ratios)


def group_ratio_retrieved(ctx, measure):
    """prefs_avgjg_ret: prefs_avgjg over the preferences between retrieved documents."""
    c = ctx.counts
    return _average_over_groups(c, _group_ratios(c, c.fulfilled_ret, c.possible_ret))


def group_ratio_implied(ctx, measure):
    """prefs_avgjg_imp: prefs_avgjg over the preferences with at least one retrieved document."""
    c = ctx.counts
    return _average_over_groups(c, _group_ratios(c, c.fulfilled_ret + c.fulfilled_imp, c.possible_ret + c.possible_imp))


def group_ratio_r_nonrelevant(ctx, measure):
    """prefs_avgjg_Rnonrel: prefs_avgjg with each JG's non-relevant documents set to R."""
    c = ctx.counts
    return _average_over_groups(c, c.r_nonrel)


def group_ratio_r_nonrelevant_retrieved(ctx, measure):
    """prefs_avgjg_Rnonrel_ret: prefs_avgjg_Rnonrel over the retrieved documents."""
    c = ctx.counts
    return _average_over_groups(c, c.r_nonrel_ret)
