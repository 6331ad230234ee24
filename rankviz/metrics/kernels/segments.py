"""Segmented array operations: one segment per query, rows contiguous, no Python loop.

Rows of all queries live in flat arrays sorted by query; ``starts`` (length ``n_queries + 1``)
gives each segment's first row, so that query ``q`` owns rows ``starts[q]:starts[q + 1]``
(possibly none). ``row_query`` gives the segment of each row.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "NONPOOL",
    "UNJUDGED",
    "segment_sum",
    "segment_count",
    "segment_cumsum",
    "suffix_max",
    "safe_divide",
]

# Grades of rows without a usable judgment (trec_eval's RELVALUE_NONPOOL and RELVALUE_UNJUDGED):
# not in the qrels at all, and listed with a negative grade ("pooled but not judged").
NONPOOL = -1
UNJUDGED = -2


def segment_sum(values: np.ndarray, row_query: np.ndarray, n_queries: int) -> np.ndarray:
    """Sum of ``values`` per segment (float64). Rows are added in order, as a C loop would."""
    return np.bincount(row_query, weights=values, minlength=n_queries).astype(np.float64, copy=False)


def segment_count(mask: np.ndarray, row_query: np.ndarray, n_queries: int) -> np.ndarray:
    """Number of true rows per segment (int64)."""
    return np.bincount(row_query[mask], minlength=n_queries).astype(np.int64, copy=False)


def segment_cumsum(values: np.ndarray, starts: np.ndarray, row_query: np.ndarray) -> np.ndarray:
    """Running sum restarting at each segment (inclusive of the row itself).

    Integer inputs stay exact. Float inputs are summed in row order from 0 within each segment,
    as trec_eval's per-query C loop sums them: a segment's running sums do not depend on the
    other segments of the batch (a global running sum minus the total before the segment would
    lose the low digits of a query far down a big run, and give a query different last digits
    depending on which queries are evaluated with it: the Dask engine evaluates a run in pieces
    and must give the in-memory engine's numbers exactly). Segments are grouped by length (in
    powers of two) and each group summed as the rows of one zero-padded 2-D array, so the memory
    used stays within twice the input.

    >>> segment_cumsum(np.array([0.1, 0.2, 0.3, 0.4]), np.array([0, 2, 4]), np.array([0, 0, 1, 1])).tolist()
    [0.1, 0.30000000000000004, 0.3, 0.7]
    """
    values = np.asarray(values)
    if values.size == 0:
        return np.cumsum(values)
    if not np.issubdtype(values.dtype, np.floating):
        total = np.cumsum(values)
        before = np.concatenate(([0], total))[starts[:-1]]  # running total before each segment
        return total - before[row_query]
    lengths = np.diff(starts)
    position = np.arange(values.size) - starts[row_query]
    group = np.zeros(lengths.size, dtype=np.int64)
    long = lengths > 1
    group[long] = np.ceil(np.log2(lengths[long])).astype(np.int64)
    out = np.empty(values.size, dtype=np.result_type(values.dtype, np.float64))
    row_group = group[row_query]
    single = np.unique(row_group).size == 1
    slot = np.empty(lengths.size, dtype=np.int64)
    for g in np.unique(row_group):  # at most ~40 groups: segment lengths in powers of two
        rows = slice(None) if single else np.flatnonzero(row_group == g)
        segments = np.flatnonzero((group == g) & (lengths > 0))
        slot[segments] = np.arange(segments.size)
        grid = np.zeros((segments.size, int(lengths[segments].max())), dtype=out.dtype)
        at = (slot[row_query[rows]], position[rows])
        grid[at] = values[rows]
        np.cumsum(grid, axis=1, out=grid)
        out[rows] = grid[at]
    return out


def suffix_max(values: np.ndarray, row_query: np.ndarray) -> np.ndarray:
    """For each row, the maximum of ``values`` over this row and the later rows of its segment.

    Exact (no offset arithmetic on the floats): values are replaced by their dense rank, the
    segment index is put in the high bits, and a single running maximum over the reversed
    array is taken; segments are in increasing order, so a later segment's key is always larger.
    """
    if values.size == 0:
        return values.astype(np.float64)
    if row_query[0] == row_query[-1]:  # one segment (a per-query call): a plain running maximum
        return np.maximum.accumulate(values[::-1])[::-1]
    uniques, dense = np.unique(values, return_inverse=True)
    width = np.int64(uniques.size)
    # Reverse, so that "later in the segment" becomes "earlier"; negate the segment part so
    # that, in reversed order, segments appear with increasing keys.
    rev_key = (np.int64(row_query.max()) - row_query[::-1].astype(np.int64)) * width + dense[::-1]
    best = np.maximum.accumulate(rev_key)[::-1]
    return uniques[best % width]


def safe_divide(numerator, denominator) -> np.ndarray:
    """``numerator / denominator`` with 0.0 where the denominator is 0 (trec_eval's policy)."""
    numerator = np.asarray(numerator, dtype=np.float64)
    denominator = np.asarray(denominator, dtype=np.float64)
    out = np.zeros(np.broadcast(numerator, denominator).shape, dtype=np.float64)
    np.divide(numerator, denominator, out=out, where=denominator != 0)
    return out
