"""Graded kernels: CG, DCG, ideal DCG, nDCG and their trec_eval relatives (ndcg_rel, Rndcg, G),
RBP and ERR, all lists at once. The per-query functions of :mod:`rankviz.metrics.graded` call
these same kernels on a one-list :class:`~rankviz.metrics.kernels.lists.RankedLists`.

Gains (``gain`` parameter): ``"linear"`` (gain = grade, trec_eval's default), ``"exponential"``
(2^grade - 1), or a map ``((level, gain), ...)`` as trec_eval's ``-m ndcg.1=3,2=9`` (levels not
listed keep gain = grade). Documents without a judgment have gain 0. Discounts (``discount``
parameter, with ``log_base``): ``"log2"``, divide the gain at rank i by log2(i + 1) (trec_eval,
the default), or ``"jarvelin"``, divide by max(1, log_b i) (Järvelin & Kekäläinen 2002, b =
``log_base``, default 2). The ideal ranking sorts the positive gains of every judged document
of the list, retrieved or not, in decreasing order. ndcg_rel, Rndcg and G are trec_eval's and
always use the log2 discount. trec_eval's ``ndcg_cut`` ignores gain
parameters (it always uses the grades), so ``nDCG@k`` with a non-linear gain is a rankviz
extension. trec_eval sorts gain levels with a comparator that truncates gain differences to an
int, so gains closer than 1 may be ordered arbitrarily in its ideal ranking; rankviz sorts
them exactly (a difference only for custom fractional gains).
"""

from __future__ import annotations

import numpy as np

from rankviz.metrics.kernels.segments import safe_divide, segment_cumsum, segment_sum
from rankviz.registry import DISCOUNT, GAIN

__all__ = [
    "GAINS", "DISCOUNTS", "MAX_EXPONENTIAL_GRADE", "gain_values", "discount_denominators",
    "cumulative_gain", "ndcg", "dcg", "ideal_dcg", "ndcg_rel", "r_ndcg", "normalized_gain", "rank_biased_precision",
    "expected_reciprocal_rank", "err_max_grade", "dcg_rows", "ideal_rows", "err_rows",
]

# The named gains (the registry's choices); a map ((level, gain), ...) is the third form a kernel accepts.
GAINS = GAIN.values
DISCOUNTS = DISCOUNT.values
# 2^1024 overflows a float64: exponential gains are defined up to this grade.
MAX_EXPONENTIAL_GRADE = 1023


def gain_values(grades: np.ndarray, spec) -> np.ndarray:
    """Gains of judged grades (>= 0): ``"linear"`` g, ``"exponential"`` 2^g - 1, or a map
    ``((level, gain), ...)`` (trec_eval's ``-m ndcg.1=3,2=9``; levels not listed keep gain = g).

    >>> gain_values(np.array([0, 1, 3]), "exponential").tolist()
    [0.0, 1.0, 7.0]
    """
    grades = grades.astype(np.float64)
    if spec == "linear":
        return grades
    if spec == "exponential":
        if grades.size and grades.max() > MAX_EXPONENTIAL_GRADE:
            raise ValueError(f"exponential gain 2^g - 1 overflows a float for grades above {MAX_EXPONENTIAL_GRADE}; "
                             f"the qrels hold grade {grades.max():g}. Use linear gain for such grades.")
        return np.exp2(grades) - 1.0
    out = grades.copy()
    for level, gain in spec:
        out[grades == level] = gain
    return out


def discount_denominators(rank, discount: str = "log2", log_base: float = 2.0) -> np.ndarray:
    """What the gain at each 1-based ``rank`` is divided by: log2(i + 1) for ``"log2"``,
    max(1, log_b i) for ``"jarvelin"`` (b = ``log_base``: ranks below b are not discounted).

    >>> discount_denominators(np.array([1, 2, 3])).round(3).tolist()
    [1.0, 1.585, 2.0]
    >>> discount_denominators(np.array([1, 2, 4]), "jarvelin").tolist()
    [1.0, 1.0, 2.0]
    """
    if discount == "log2":
        return np.log2(rank + 1.0)
    if discount == "jarvelin":
        return np.maximum(1.0, np.log(rank) / np.log(log_base))
    raise ValueError(f"The discount must be one of {', '.join(map(repr, DISCOUNTS))}. Got {discount!r} instead.")


def _discount(measure) -> tuple[str, float]:
    """(discount, log base) of a measure; the base only matters to "jarvelin", so "log2" always
    gets 2.0 and shares its cached arrays whatever ``log_base`` says."""
    discount = measure.param("discount", "log2")
    return discount, float(measure.param("log_base", 2)) if discount == "jarvelin" else 2.0


def _row_gains(ctx, spec) -> np.ndarray:
    def compute():
        judged = ctx.grade >= 0
        gains = np.zeros(ctx.grade.size)
        gains[judged] = gain_values(ctx.grade[judged], spec)
        return gains
    return ctx._cached(("rowgain", spec), compute)


def _ideal(ctx, spec):
    """Positive ideal gains grouped by query in decreasing order: (gains, query, starts, position)."""
    def compute():
        r = ctx.ranking
        if spec in GAINS:
            # The judged grades are sorted best first within each list and these gains grow with
            # the grade: the positive ones are already in ideal order, no sort needed.
            positive = r.judged_grade > 0
            gains, query = gain_values(r.judged_grade[positive], spec), r.judged_query[positive]
        else:
            judged = r.judged_grade >= 0
            gains = gain_values(r.judged_grade[judged], spec)
            query = r.judged_query[judged]
            positive = gains > 0
            gains, query = gains[positive], query[positive]
            order = np.lexsort((-gains, query))
            gains, query = gains[order], query[order]
        counts = np.bincount(query, minlength=ctx.n)
        starts = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
        position = np.arange(gains.size) - starts[query]  # 0-based
        return gains, query, starts, position
    return ctx._cached(("ideal", spec), compute)


def _ideal_discounted(ctx, spec, discount: str = "log2", base: float = 2.0) -> np.ndarray:
    """Per positive ideal gain (in :func:`_ideal`'s order): gain / d(position + 1)."""
    def compute():
        gains, _, _, position = _ideal(ctx, spec)
        return gains / discount_denominators(position + 1, discount, base)
    return ctx._cached(("idisc", spec, discount, base), compute)


def _discounted(ctx, spec) -> np.ndarray:
    """Per row: gain / log2(rank + 1)."""
    return ctx._cached(("disc", spec), lambda: _row_gains(ctx, spec) / discount_denominators(ctx.rank))


def _gain_rows(ctx, spec):
    """(rows, gains) of the retrieved documents with a non-zero gain: CG and DCG only need
    these, usually a small part of the run."""
    def compute():
        if spec in GAINS:  # grade 0 has gain 0 in both
            rows = np.flatnonzero(ctx.grade > 0)
            gains = gain_values(ctx.grade[rows], spec)
        else:
            rows = np.flatnonzero(ctx.grade >= 0)
            gains = gain_values(ctx.grade[rows], spec)
            nonzero = gains != 0
            rows, gains = rows[nonzero], gains[nonzero]
        return rows, gains
    return ctx._cached(("gainrows", spec), compute)


def _discounted_rows(ctx, spec, discount: str = "log2", base: float = 2.0):
    """(query, rank, gain / d(rank)) of the rows of :func:`_gain_rows`."""
    def compute():
        rows, gains = _gain_rows(ctx, spec)
        rank = ctx.ranking.rank_of(rows)
        return ctx.row_query[rows], rank, gains / discount_denominators(rank, discount, base)
    return ctx._cached(("discrows", spec, discount, base), compute)


def _dcg(ctx, spec, discount: str = "log2", base: float = 2.0, k=None) -> np.ndarray:
    def compute():
        query, rank, discounted = _discounted_rows(ctx, spec, discount, base)
        if k is None:
            return segment_sum(discounted, query, ctx.n)
        inside = rank <= k
        return segment_sum(discounted[inside], query[inside], ctx.n)
    return ctx._cached(("dcg", spec, discount, base, k), compute)


def _ideal_dcg(ctx, spec, discount: str = "log2", base: float = 2.0, k=None) -> np.ndarray:
    def compute():
        _, query, _, position = _ideal(ctx, spec)
        values = _ideal_discounted(ctx, spec, discount, base)
        if k is None:
            return segment_sum(values, query, ctx.n)
        inside = position < k
        return segment_sum(values[inside], query[inside], ctx.n)
    return ctx._cached(("idcg", spec, discount, base, k), compute)


def cumulative_gain(ctx, measure):
    """CG@k: the gains of the top k summed, without a discount (Järvelin & Kekäläinen 2002)."""
    rows, gains = _gain_rows(ctx, measure.param("gain", "linear"))
    query = ctx.row_query[rows]
    k = measure.cutoff
    if k is None:
        return segment_sum(gains, query, ctx.n)
    inside = ctx.ranking.rank_of(rows) <= k
    return segment_sum(gains[inside], query[inside], ctx.n)


def ndcg(ctx, measure):
    """DCG / ideal DCG of the top k (the whole list without a cutoff); 0 when the ideal is 0."""
    spec = measure.param("gain", "linear")
    discount, base = _discount(measure)
    k = measure.cutoff
    return safe_divide(_dcg(ctx, spec, discount, base, k), _ideal_dcg(ctx, spec, discount, base, k))


def dcg(ctx, measure):
    """DCG@k: sum over the top k of gain / d(rank)."""
    return _dcg(ctx, measure.param("gain", "linear"), *_discount(measure), measure.cutoff)


def ideal_dcg(ctx, measure):
    """DCG@k of the ideal ranking: the positive gains of every judged document, best first."""
    return _ideal_dcg(ctx, measure.param("gain", "linear"), *_discount(measure), measure.cutoff)


def dcg_rows(ctx, measure):
    """Per row of the lists: (gain, denominator d(rank), contribution = gain / d(rank)).

    The contributions are the very numbers :func:`dcg` and :func:`ndcg` add up (0 where the
    gain is 0), so a worked table built from them ends where the kernel's value does. The
    cutoff is the caller's to apply (rows are in rank order).

    >>> from rankviz.metrics.kernels import BatchContext, Cut, RankedLists
    >>> ctx = BatchContext(RankedLists.from_grades([[3, 0, 2]]))
    >>> [a.round(3).tolist() for a in dcg_rows(ctx, Cut())]
    [[3.0, 0.0, 2.0], [1.0, 1.585, 2.0], [3.0, 0.0, 1.0]]
    """
    spec = measure.param("gain", "linear")
    discount, base = _discount(measure)

    def compute():
        rows, gains = _gain_rows(ctx, spec)
        discounted = _discounted_rows(ctx, spec, discount, base)[2]
        gain = np.zeros(ctx.grade.size)
        gain[rows] = gains
        contribution = np.zeros(ctx.grade.size)
        contribution[rows] = discounted
        return gain, discount_denominators(ctx.rank, discount, base), contribution
    return ctx._cached(("dcgrows", spec, discount, base), compute)


def ideal_rows(ctx, measure):
    """Per judged document of the lists, in the order of ``ctx.ranking.judged_grade`` (best
    first within a list): (gain, denominator d(position), contribution).

    The contributions are those :func:`ideal_dcg` adds up, placed at the first positions of
    each list (0 for the judged documents without a positive gain). The judged grades line up
    with them when the gain grows with the grade, as ``"linear"`` and ``"exponential"`` do.

    >>> from rankviz.metrics.kernels import BatchContext, Cut, RankedLists
    >>> ctx = BatchContext(RankedLists.from_grades([[0, 2]], judged=[[2, 0, 1]]))
    >>> [a.round(3).tolist() for a in ideal_rows(ctx, Cut())]
    [[2.0, 1.0, 0.0], [1.0, 1.585, 2.0], [2.0, 0.631, 0.0]]
    """
    spec = measure.param("gain", "linear")
    discount, base = _discount(measure)

    def compute():
        r = ctx.ranking
        size = r.judged_grade.size
        gains, query, _, position = _ideal(ctx, spec)
        at = r.judged_starts[query] + position
        gain = np.zeros(size)
        gain[at] = gains
        contribution = np.zeros(size)
        contribution[at] = _ideal_discounted(ctx, spec, discount, base)
        judged_position = np.arange(size, dtype=np.int64) - r.judged_starts[r.judged_query]
        return gain, discount_denominators(judged_position + 1, discount, base), contribution
    return ctx._cached(("idealrows", spec, discount, base), compute)


def _prefix_dcg(ctx, spec, length: np.ndarray, query: np.ndarray) -> np.ndarray:
    """DCG of the first ``length`` retrieved documents of ``query`` (arrays of the same shape)."""
    running = ctx._cached(("dcgcum", spec), lambda: ctx.cumsum_rows(_discounted(ctx, spec)))
    out = np.zeros(length.shape)
    some = length > 0
    out[some] = running[ctx.ranking.starts[query[some]] + length[some] - 1]
    return out


def ndcg_rel(ctx, measure):
    """nDCG averaged over the relevant documents (gain > 0): at each retrieved one, the
    running nDCG there; for each one not retrieved, the final nDCG (trec_eval's ndcg_rel)."""
    spec = measure.param("gain")
    gains = _row_gains(ctx, spec)
    _, ideal_query, ideal_starts, _ = _ideal(ctx, spec)
    ideal_running = segment_cumsum(_ideal_discounted(ctx, spec), ideal_starts, ideal_query)
    n_positive = np.diff(ideal_starts)
    rows = np.flatnonzero(gains > 0)
    q = ctx.row_query[rows]
    running = ctx._cached(("dcgcum", spec), lambda: ctx.cumsum_rows(_discounted(ctx, spec)))
    ideal_at = ideal_running[ideal_starts[q] + np.minimum(ctx.rank[rows] - 1, n_positive[q] - 1)]
    total = segment_sum(running[rows] / ideal_at, q, ctx.n)
    retrieved_positive = np.bincount(q, minlength=ctx.n)
    total += (n_positive - retrieved_positive) * safe_divide(_dcg(ctx, spec), _ideal_dcg(ctx, spec))
    return np.where(total > 0, safe_divide(total, n_positive), 0.0)


def r_ndcg(ctx, measure):
    """nDCG averaged at the ranks where the ideal gain changes (trec_eval's Rndcg, including
    its extra point at the end of the ranking when more than R+1 documents were retrieved)."""
    spec = measure.param("gain")
    thr = ctx.threshold(measure)
    ideal_gains, ideal_query, ideal_starts, position = _ideal(ctx, spec)
    n_positive = np.diff(ideal_starts)
    ideal_running = segment_cumsum(_ideal_discounted(ctx, spec), ideal_starts, ideal_query)
    # A change point i (1 <= i <= L) is where the ideal gain at position i differs from the one
    # at i - 1 (past the end the gain is 0, so i = L always is one).
    next_gain = np.zeros(ideal_gains.size)
    next_gain[:-1] = ideal_gains[1:]
    last = position == n_positive[ideal_query] - 1
    next_gain[last] = 0.0
    change = next_gain != ideal_gains  # change between position p and p + 1, i.e. at i = p + 1
    rows = np.flatnonzero(change)
    q = ideal_query[rows]
    i = position[rows] + 1
    num_ret = ctx.num_ret
    points = _prefix_dcg(ctx, spec, np.minimum(i, num_ret[q]), q) / ideal_running[rows]
    total = segment_sum(points, q, ctx.n)
    count = np.bincount(q, minlength=ctx.n).astype(np.float64)
    final = (n_positive >= 1) & (n_positive + 1 < num_ret)
    total[final] += _dcg(ctx, spec)[final] / _ideal_dcg(ctx, spec)[final]
    count[final] += 1
    value = safe_divide(total, count)
    value[ctx.n_relevant(thr) == 0] = 0.0
    return value


def normalized_gain(ctx, measure):
    """trec_eval's G: sum of gain_i / log2(2 + cost_i - gained_i), / total ideal gain, where
    cost_i sums max(ideal gain, 1) over ranks 1..i and gained_i sums the gains retrieved."""
    spec = measure.param("gain")
    gains = _row_gains(ctx, spec)
    ideal_gains, ideal_query, ideal_starts, position = _ideal(ctx, spec)
    n_positive = np.diff(ideal_starts)
    cost = segment_cumsum(np.maximum(ideal_gains, 1.0), ideal_starts, ideal_query)
    full_cost = np.zeros(ctx.n)
    has = n_positive > 0
    full_cost[has] = cost[ideal_starts[1:][has] - 1]
    gained = ctx.cumsum_rows(gains)
    rows = np.flatnonzero(gains != 0)
    q = ctx.row_query[rows]
    i = ctx.rank[rows] - 1
    within = i < n_positive[q]
    row_cost = np.where(within, cost[np.where(within, ideal_starts[q] + i, 0)] if cost.size else 0.0,
                        full_cost[q] + (i - n_positive[q] + 1))
    total = segment_sum(gains[rows] / np.log2(2.0 + row_cost - gained[rows]), q, ctx.n)
    return safe_divide(total, segment_sum(ideal_gains, ideal_query, ctx.n))


def rank_biased_precision(ctx, measure):
    """RBP = (1 - p) sum_i gain_i p^(i-1) (Moffat & Zobel 2008), p = 0.9 by default; gains are
    the grades, min-max scaled to [0, 1] per query over the levels 0..max grade of the query
    when that maximum exceeds 1 (trec_eval 10.0's m_rbp.c, intended semantics)."""
    p = measure.param("p")
    r = ctx.ranking
    top_grade = np.zeros(ctx.n)
    has = np.diff(r.judged_starts) > 0
    top_grade[has] = np.maximum(r.judged_grade[r.judged_starts[:-1][has]], 0)
    scale = np.where(top_grade > 1, top_grade, 1.0)
    gains = np.where(ctx.grade > 0, ctx.grade, 0) / scale[ctx.row_query]
    rows = np.flatnonzero(gains != 0)
    total = ctx.sum_rows_subset(gains[rows] * p ** (ctx.rank[rows] - 1.0), rows)
    return (1.0 - p) * total


def err_max_grade(ctx, measure):
    """ERR's g_max: the measure's ``max_grade`` parameter when given, else the lists'
    ``max_grade`` (for :func:`rankviz.evaluate` the qrels' largest grade, so values compare
    across queries; for one list, its judged grades' largest, or the list's own)."""
    own = measure.param("max_grade")
    return ctx.ranking.max_grade if own is None else own


def err_rows(ctx, measure):
    """Per row of the lists: (R, P(reach), P(stop here) = P(reach) R, P(stop here) / rank), the
    cascade of :func:`expected_reciprocal_rank`, whose value sums the last array over the top k.

    R = (2^g - 1) / 2^g_max (g_max from :func:`err_max_grade`), unjudged documents g = 0;
    P(reach) = prod over the earlier rows of the list of (1 - R).

    >>> from rankviz.metrics.kernels import BatchContext, Cut, RankedLists
    >>> ctx = BatchContext(RankedLists.from_grades([[2, 0, 1]]))
    >>> [a.tolist() for a in err_rows(ctx, Cut())[:3]]
    [[0.75, 0.0, 0.25], [1.0, 0.25, 0.25], [0.75, 0.0, 0.0625]]
    """
    g_max = err_max_grade(ctx, measure)

    def compute():
        grade = np.where(ctx.grade > 0, ctx.grade, 0).astype(np.float64)
        # (2^g - 1) / 2^g_max written so that no power overflows, whatever the grades.
        stop = np.exp2(grade - g_max) - np.exp2(-float(g_max))
        # A segmented running product is a running sum of logs. With g_max >= 53 a top grade
        # rounds to R = 1 and log(1 - 1) = -inf would give NaN; one ulp short of 1 keeps every
        # later term (exactly 0 in theory) at ~1e-16.
        log_continue = np.log1p(-np.minimum(stop, 1.0 - 2.0**-53))
        # Each row adds up the rows above it in its list: shifted by one, restarting at each list
        # (an exclusive sum: the first rows get exactly 0, so P(reach) = 1).
        earlier = np.zeros(stop.size)
        earlier[1:] = log_continue[:-1]
        first = ctx.ranking.starts[:-1]
        earlier[first[first < stop.size]] = 0.0
        reach = np.exp(ctx.cumsum_rows(earlier))
        stop_here = reach * stop
        return stop, reach, stop_here, stop_here / ctx.rank
    return ctx._cached(("err", g_max), compute)


def expected_reciprocal_rank(ctx, measure):
    """ERR@k = sum_r (1/r) R_r prod_{i<r} (1 - R_i), R = (2^g - 1) / 2^g_max (Chapelle et al.
    2009), g_max from :func:`err_max_grade`; unjudged documents have g = 0."""
    term = err_rows(ctx, measure)[3]
    k = measure.cutoff
    if k is None:
        return ctx.sum_rows(term)
    inside = ctx.rank <= k
    return segment_sum(term[inside], ctx.row_query[inside], ctx.n)
