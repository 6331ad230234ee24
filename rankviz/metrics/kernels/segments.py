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

    Integer inputs stay exact; float inputs are summed in row order.
    """
    total = np.cumsum(values)
    if total.size == 0:
        return total
    before = np.concatenate(([0], total))[starts[:-1]]  # running total before each segment
    return total - before[row_query]


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
