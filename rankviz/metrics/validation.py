"""Validation at the public boundary, shared by every metric module.

Every public metric calls these helpers first, so that a bad input gets the same clear
``ValueError`` wherever it enters: the message names the function, the parameter, what is
allowed and what was given (scikit-learn's form). Inputs are never mutated: each helper
returns a fresh float64 array.
"""

from __future__ import annotations

import math
import numbers
import warnings

import numpy as np

__all__ = [
    "as_grades",
    "as_scores",
    "check_k",
    "check_positive_number",
    "check_choice",
    "check_rel_threshold",
    "relevant_mask",
    "count_relevant",
    "resolve_n_relevant",
    "ideal_grades",
    "truncate",
    "undefined",
]


def _describe(value) -> str:
    return repr(value) if isinstance(value, str) else str(value)


def _to_1d(values, name: str, func: str) -> np.ndarray:
    """Turn a list, tuple, array or Series into a 1-D object-free array, or raise."""
    if values is None:
        raise ValueError(f"The '{name}' parameter of {func} must be a sequence of numbers. Got None instead.")
    if isinstance(values, (str, bytes)):
        raise ValueError(
            f"The '{name}' parameter of {func} must be a sequence of numbers, not a string. "
            f"Got {values!r} instead; split it first, e.g. [3, 2, 3, 0]."
        )
    if hasattr(values, "to_numpy"):  # pandas Series / Index
        values = values.to_numpy()
    arr = values
    if not isinstance(values, np.ndarray):
        # Numbers only (the common case) convert in C; anything else keeps its Python objects so
        # that _to_float can name the first entry that is not a number.
        try:
            arr = np.asarray(values)
        except (ValueError, TypeError):  # ragged nesting
            arr = None
        if arr is None or arr.dtype.kind not in "biuf":
            arr = np.asarray(values, dtype=object)
    if arr.ndim != 1:
        if arr.ndim == 0:
            raise ValueError(
                f"The '{name}' parameter of {func} must be a sequence of numbers. Got the scalar {_describe(values)} instead."
            )
        raise ValueError(
            f"The '{name}' parameter of {func} must be one-dimensional. Got an array of shape {arr.shape} instead."
        )
    return arr


def _to_float(arr: np.ndarray, name: str, func: str, what: str, position: str) -> np.ndarray:
    """Convert to float64, naming the first entry that is not a number."""
    if arr.dtype.kind in "biuf":
        out = arr.astype(np.float64, copy=True)
    else:
        out = np.empty(arr.shape[0], dtype=np.float64)
        for i, v in enumerate(arr):
            if isinstance(v, (bool, np.bool_)):
                out[i] = float(v)
            elif isinstance(v, numbers.Real):
                out[i] = float(v)
            else:
                raise ValueError(
                    f"{what} in '{name}' of {func} must be numbers; got {_describe(v)} at {position} {i + 1}."
                )
    bad = np.flatnonzero(~np.isfinite(out))
    if bad.size:
        i = int(bad[0])
        raise ValueError(
            f"{what} in '{name}' of {func} must be finite numbers; got {out[i]} at {position} {i + 1}."
        )
    return out


def as_grades(rels, *, func: str, name: str = "rels", position: str = "rank") -> np.ndarray:
    """Validate relevance grades in ranked order and return them as a new float64 array.

    Grades must be finite and non-negative (bools count as 0/1). An empty sequence is allowed:
    it is a ranking that retrieved nothing, and each metric documents what it gives for it.
    """
    arr = _to_1d(rels, name, func)
    out = _to_float(arr, name, func, "relevance grades", position)
    neg = np.flatnonzero(out < 0)
    if neg.size:
        i = int(neg[0])
        raise ValueError(
            f"relevance grades in '{name}' of {func} must be non-negative numbers; "
            f"got {out[i]:g} at {position} {i + 1}."
        )
    return out


def as_scores(values, *, func: str, name: str) -> np.ndarray:
    """Validate finite real numbers (scores, ranks); may be negative."""
    arr = _to_1d(values, name, func)
    return _to_float(arr, name, func, "values", "position")


def check_k(k, *, func: str, name: str = "k") -> int | None:
    """``None`` (the whole list) or an int >= 1."""
    if k is None:
        return None
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Integral):
        raise ValueError(
            f"The '{name}' parameter of {func} must be an int in the range [1, inf) or None. Got {_describe(k)} instead."
        )
    if k < 1:
        raise ValueError(
            f"The '{name}' parameter of {func} must be an int in the range [1, inf) or None. Got {k} instead."
        )
    return int(k)


def check_positive_number(value, *, func: str, name: str, allow_zero: bool = False) -> float:
    """A finite real number > 0 (or >= 0 with ``allow_zero``)."""
    ok = isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))
    if ok:
        value = float(value)
        ok = math.isfinite(value) and (value >= 0 if allow_zero else value > 0)
    if not ok:
        interval = "[0, inf)" if allow_zero else "(0, inf)"
        raise ValueError(
            f"The '{name}' parameter of {func} must be a number in the range {interval}. Got {_describe(value)} instead."
        )
    return value


def check_choice(value, choices, *, func: str, name: str):
    """One of a fixed set of options."""
    if value not in choices:
        options = ", ".join(repr(c) for c in choices)
        raise ValueError(f"The '{name}' parameter of {func} must be one of {options}. Got {_describe(value)} instead.")
    return value


def check_rel_threshold(rel_threshold, *, func: str) -> float:
    """The binary-relevance threshold: a finite number >= 0.

    As trec_eval's ``-l``, any level is allowed; 0 makes every document relevant, grade 0 included.
    """
    return check_positive_number(rel_threshold, func=func, name="rel_threshold", allow_zero=True)


def relevant_mask(grades, rel_threshold: float = 1) -> np.ndarray:
    """Binary relevance, the package's one rule: a document is relevant when its grade is
    ``>= rel_threshold`` (trec_eval's ``-l``; default 1, so of the usual 0-3 scales only grade 0
    is not relevant).

    >>> relevant_mask([3, 0, 1]).tolist(), relevant_mask([3, 0, 1], rel_threshold=2).tolist()
    ([True, False, True], [True, False, False])
    """
    return np.asarray(grades) >= rel_threshold


def count_relevant(grades, rel_threshold: float = 1) -> int:
    """How many of ``grades`` are relevant (:func:`relevant_mask`): R of a list, or of the
    judged documents of a query.

    >>> count_relevant([3, 0, 1, 2, 0]), count_relevant([3, 0, 1, 2, 0], rel_threshold=2), count_relevant([])
    (3, 2, 0)
    """
    return int(np.count_nonzero(relevant_mask(grades, rel_threshold)))


def resolve_n_relevant(
    grades: np.ndarray,
    *,
    func: str,
    n_relevant=None,
    judged=None,
    rel_threshold: float = 1,
) -> int:
    """R, the number of relevant documents of the query.

    Priority: ``n_relevant`` when given, else the relevant grades in ``judged``, else the
    relevant documents in the ranked list itself. R can never be smaller than the relevant
    documents already in the list: that is a contradiction and raises.
    """
    in_list = count_relevant(grades, rel_threshold)
    if n_relevant is not None:
        if isinstance(n_relevant, (bool, np.bool_)) or not isinstance(n_relevant, numbers.Integral) or n_relevant < 0:
            raise ValueError(
                f"The 'n_relevant' parameter of {func} must be an int in the range [0, inf) or None. "
                f"Got {_describe(n_relevant)} instead."
            )
        if n_relevant < in_list:
            raise ValueError(
                f"The 'n_relevant' parameter of {func} is {n_relevant}, smaller than the {in_list} relevant "
                f"documents already in 'rels' (grade >= {rel_threshold:g}): R counts every relevant document "
                f"of the query."
            )
        if judged is not None:
            from_judged = count_relevant(as_grades(judged, func=func, name="judged", position="position"), rel_threshold)
            if from_judged != n_relevant:
                raise ValueError(
                    f"{func} was given n_relevant={n_relevant} and 'judged' with {from_judged} relevant grades; "
                    f"give one of them, or make them agree."
                )
        return int(n_relevant)
    if judged is not None:
        from_judged = count_relevant(as_grades(judged, func=func, name="judged", position="position"), rel_threshold)
        if from_judged < in_list:
            raise ValueError(
                f"The 'judged' parameter of {func} holds {from_judged} relevant grades, fewer than the {in_list} "
                f"relevant documents in 'rels': 'judged' must hold the grades of every judged document of the query, "
                f"those in the ranking included."
            )
        return from_judged
    return in_list


def ideal_grades(grades: np.ndarray, *, func: str, judged=None) -> np.ndarray:
    """Grades of the ideal ranking: ``judged`` (or the list itself) sorted descending.

    ``judged`` must hold at least as many documents of each grade as the ranking does, since
    it is the grade of every judged document of the query, those retrieved included.
    """
    if judged is None:
        pool = grades
    else:
        pool = as_grades(judged, func=func, name="judged", position="position")
        # Each retrieved grade must be accounted for in the judged pool.
        need_vals, need_counts = np.unique(grades[grades > 0], return_counts=True)
        have_vals, have_counts = np.unique(pool, return_counts=True)
        have = dict(zip(have_vals.tolist(), have_counts.tolist()))
        for v, c in zip(need_vals.tolist(), need_counts.tolist()):
            if have.get(v, 0) < c:
                raise ValueError(
                    f"The 'judged' parameter of {func} holds {have.get(v, 0)} document(s) of grade {v:g}, but 'rels' "
                    f"retrieved {c}: 'judged' must hold the grades of every judged document of the query, "
                    f"those in the ranking included."
                )
    return np.sort(pool)[::-1]


def truncate(grades: np.ndarray, k: int | None) -> np.ndarray:
    """The top k of a ranking (the whole ranking for ``k=None``)."""
    return grades if k is None else grades[:k]


def undefined(message: str) -> float:
    """Return NaN with a RuntimeWarning: the policy for undefined correlations."""
    warnings.warn(message, RuntimeWarning, stacklevel=3)
    return float("nan")
