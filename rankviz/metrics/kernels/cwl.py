"""C/W/L kernels (Moffat et al.): SDCG, INST, INSQ and the NERR variants, all lists at once, as
ir_measures computes them through cwl_eval (Azzopardi, Thomas & Moffat, SIGIR 2019).

A C/W/L measure is a user model given by its *continuation* probabilities C_i (the chance
that a user at rank i reads on to rank i + 1). The weight of rank i is

    W_i = prod_{j<i} C_j / sum_{m=1}^{D} prod_{j<m} C_j

and the measure is the expected gain per document read, sum_i W_i g_i. As in cwl_eval (and so
ir_measures), every list is cut or padded to depth D = 1000 with gain 0 (``max_n``): the
padded ranks still take weight, so a short list cannot score as if the user stopped at its
end. Gains are grades scaled to [0, 1]: g = (clip(grade, min_rel, max_rel) - min_rel) /
(max_rel - min_rel), negative grades and unjudged documents 0 (ir_measures' ``min_rel``,
``max_rel``; rankviz takes ``max_rel`` from the lists' ``max_grade`` when the measure does not
set it, the qrels' largest grade in :func:`rankviz.evaluate`, where ir_measures requires it).
When max_rel <= min_rel no grade can carry gain and every gain is 0.

The continuation probabilities (i = 1, 2, ...; cwl_eval's ``c_vector``):

* SDCG@k: C_i = log2(i + 1) / log2(i + 2) for i < k, 0 from k on, so W_i = (1/log2(i + 1)) /
  sum_{j<=k} 1/log2(j + 1): DCG@k over the DCG of k documents of the top grade;
* NERR8@k: C_i = 1 - g_i for i < k, 0 from k on; NERR9@k: C_i = i/(i + 1) (1 - g_i) for i < k;
* NERR10(p): C_i = p (1 - g_i); NERR11(T): C_i = ((i + 2T - 1)/(i + 2T))^2 (1 - g_i);
* INSQ(T): C_i = ((i + 2T - 1)/(i + 2T))^2;
* INST(T): C_i = ((i + T + T_i - 1)/(i + T + T_i))^2 with T_i = T - sum_{j<=i} g_j.

With no cutoff (``k`` None, the per-query functions' whole list), SDCG and NERR8/9 take k =
the list's length. Lists are scored in chunks of queries so that the n x D matrices stay small.
"""

from __future__ import annotations

import numpy as np

__all__ = ["DEPTH", "scaled_gains", "cwl_rows", "sdcg", "nerr8", "nerr9", "nerr10", "nerr11", "inst", "insq",
           "sdcg_continuation", "nerr8_continuation", "nerr9_continuation", "nerr10_continuation",
           "nerr11_continuation", "inst_continuation", "insq_continuation"]

#: cwl_eval's max_n: every list is cut or padded to this depth (ir_measures passes 1000).
DEPTH = 1000
# Queries scored together: CHUNK x DEPTH floats per array.
_CHUNK = 1024


def gain_range(ctx, measure) -> tuple[float, float]:
    """(min_rel, max_rel): the measure's, else 0 and the lists' ``max_grade``."""
    low = measure.param("min_rel")
    high = measure.param("max_rel")
    low = 0.0 if low is None else float(low)
    high = float(ctx.ranking.max_grade) if high is None else float(high)
    return low, high


def scaled_gains(grades: np.ndarray, low: float, high: float) -> np.ndarray:
    """Grades to gains in [0, 1] as cwl_eval's handler in ir_measures: negative grades (and
    unjudged documents) 0, then clipped to [low, high] and scaled; all 0 when high <= low.

    >>> scaled_gains(np.array([-1.0, 0, 1, 2, 5]), 0.0, 4.0).tolist()
    [0.0, 0.0, 0.25, 0.5, 1.0]
    """
    if high <= low:
        return np.zeros(grades.shape)
    rel = np.clip(np.maximum(grades.astype(np.float64), 0.0), low, high)
    return (rel - low) / (high - low)


# Each user model is its continuation C_i, for every rank 1..D of every list (rows): ``i`` the ranks
# (1 x D), ``gains`` the lists' gains padded with zeros, ``cutoff`` k per list, ``measure`` its parameters.


def sdcg_continuation(i: np.ndarray, gains: np.ndarray, cutoff: np.ndarray, measure) -> np.ndarray:
    """SDCG@k: C_i = log2(i + 1) / log2(i + 2) before k, 0 from k on."""
    return np.where(i < cutoff[:, None], np.log2(i + 1.0) / np.log2(i + 2.0), 0.0) + 0.0 * gains


def nerr8_continuation(i, gains, cutoff, measure):
    """NERR8@k: C_i = 1 - g_i before k, 0 from k on."""
    return np.where(i < cutoff[:, None], 1.0 - gains, 0.0)


def nerr9_continuation(i, gains, cutoff, measure):
    """NERR9@k: C_i = i / (i + 1) (1 - g_i) before k, 0 from k on."""
    return np.where(i < cutoff[:, None], i / (i + 1.0) * (1.0 - gains), 0.0)


def nerr10_continuation(i, gains, cutoff, measure):
    """NERR10(p): C_i = p (1 - g_i)."""
    return measure.param("p", 0.9) * (1.0 - gains)


def nerr11_continuation(i, gains, cutoff, measure):
    """NERR11(T): C_i = ((i + 2T - 1) / (i + 2T))^2 (1 - g_i)."""
    t = measure.param("T", 1.0)
    return ((i + 2.0 * t - 1.0) / (i + 2.0 * t)) ** 2 * (1.0 - gains)


def insq_continuation(i, gains, cutoff, measure):
    """INSQ(T): C_i = ((i + 2T - 1) / (i + 2T))^2."""
    t = measure.param("T", 1.0)
    return ((i + 2.0 * t - 1.0) / (i + 2.0 * t)) ** 2 + 0.0 * gains


def inst_continuation(i, gains, cutoff, measure):
    """INST(T): C_i = ((s - 1) / s)^2, s = i + T + T_i, T_i = T - the gain found down to i."""
    t = measure.param("T", 1.0)
    s = i + t + (t - np.cumsum(gains, axis=1))
    return ((s - 1.0) / s) ** 2


def _chunk_rows(ctx, continuation, measure, first: int, last: int):
    """(gains, C, W) as (last - first) x D matrices for the queries first..last - 1."""
    r = ctx.ranking
    low, high = gain_range(ctx, measure)
    rows = np.arange(r.starts[first], r.starts[last])
    rank = r.rank_of(rows)
    rows, rank = rows[rank <= DEPTH], rank[rank <= DEPTH]
    gains = np.zeros((last - first, DEPTH))
    gains[r.row_query[rows] - first, rank - 1] = scaled_gains(r.grade[rows], low, high)
    k = measure.cutoff
    cutoff = (np.diff(r.starts)[first:last] if k is None else np.full(last - first, k)).astype(np.float64)
    cont = continuation(np.arange(1, DEPTH + 1, dtype=np.float64)[None, :], gains, cutoff, measure)
    reach = np.ones_like(cont)
    reach[:, 1:] = np.cumprod(cont[:, :-1], axis=1)
    weight = reach / reach.sum(axis=1, keepdims=True)
    return gains, cont, weight


def cwl_rows(ctx, continuation, measure, query: int = 0):
    """One list's (gain, C_i, W_i) over ranks 1..D under a user model (its ``*_continuation``):
    the columns of the per-query breakdowns.

    >>> from rankviz.metrics.kernels import BatchContext, Cut, RankedLists
    >>> ctx = BatchContext(RankedLists.from_grades([[2, 0, 1]]))
    >>> gains, cont, weight = cwl_rows(ctx, sdcg_continuation, Cut(2))
    >>> gains[:3].tolist(), cont[:3].round(3).tolist(), weight[:3].round(3).tolist()
    ([1.0, 0.0, 0.5], [0.631, 0.0, 0.0], [0.613, 0.387, 0.0])
    """
    gains, cont, weight = _chunk_rows(ctx, continuation, measure, query, query + 1)
    return gains[0], cont[0], weight[0]


def _score(ctx, continuation, measure) -> np.ndarray:
    out = np.zeros(ctx.n)
    for first in range(0, ctx.n, _CHUNK):
        last = min(first + _CHUNK, ctx.n)
        gains, _, weight = _chunk_rows(ctx, continuation, measure, first, last)
        out[first:last] = (weight * gains).sum(axis=1)
    return out


def sdcg(ctx, measure):
    """SDCG@k: DCG@k of the scaled gains over sum_{i<=k} 1/log2(i + 1), the DCG of k top-grade documents."""
    return _score(ctx, sdcg_continuation, measure)


def nerr8(ctx, measure):
    """NERR8@k (Azzopardi, Mackenzie & Moffat 2021, eq. 8): C_i = 1 - g_i before rank k."""
    return _score(ctx, nerr8_continuation, measure)


def nerr9(ctx, measure):
    """NERR9@k (eq. 9): C_i = i/(i + 1) (1 - g_i) before rank k."""
    return _score(ctx, nerr9_continuation, measure)


def nerr10(ctx, measure):
    """NERR10(p) (eq. 10): C_i = p (1 - g_i), p = 0.9 by default."""
    return _score(ctx, nerr10_continuation, measure)


def nerr11(ctx, measure):
    """NERR11(T) (eq. 12 of the paper, cwl_eval's eq11): C_i = ((i + 2T - 1)/(i + 2T))^2 (1 - g_i)."""
    return _score(ctx, nerr11_continuation, measure)


def inst(ctx, measure):
    """INST(T) (Moffat, Bailey, Scholer & Thomas 2015): C_i = ((i + T + T_i - 1)/(i + T + T_i))^2."""
    return _score(ctx, inst_continuation, measure)


def insq(ctx, measure):
    """INSQ(T) (Moffat, Scholer & Thomas 2012): C_i = ((i + 2T - 1)/(i + 2T))^2."""
    return _score(ctx, insq_continuation, measure)
