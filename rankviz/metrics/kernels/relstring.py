"""trec_eval's ``relstring``: the grades of the top documents, one character each."""

from __future__ import annotations

import numpy as np

from rankviz.metrics.kernels.segments import NONPOOL, UNJUDGED

__all__ = ["relevance_string"]


def relevance_string(ctx, measure) -> np.ndarray:
    """Per query, one character per rank in the top k (k = 10 by default): the grade 0-9,
    '>' above 9, '-' not in the qrels, '.' pooled but unjudged (negative grade)."""
    k = 10 if measure.cutoff is None else measure.cutoff
    inside = ctx.rank <= k
    grade = ctx.grade[inside]
    chars = np.where(grade > 9, ord(">"), np.where(grade >= 0, ord("0") + np.clip(grade, 0, 9), ord("<")))
    chars = np.where(grade == NONPOOL, ord("-"), np.where(grade == UNJUDGED, ord("."), chars)).astype(np.uint8)
    text = chars.tobytes().decode("ascii")
    counts = np.bincount(ctx.row_query[inside], minlength=ctx.n)
    bounds = np.concatenate(([0], np.cumsum(counts)))
    return np.array([text[bounds[q]:bounds[q + 1]] for q in range(ctx.n)], dtype=object)
