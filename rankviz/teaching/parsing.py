"""Read what a user types into the app: grade lists, document ids, k and R.

Pure functions (no streamlit), so every message the app shows for bad input is unit-tested.
Each parser raises ``ValueError`` with a message written for a student: it names the
position and the value that was wrong and says what is allowed.

>>> parse_grades("3,2,3,0,1,2")
(3, 2, 3, 0, 1, 2)
>>> parse_grades("3 2 3")
(3, 2, 3)
>>> parse_grades("3, -1")
Traceback (most recent call last):
...
ValueError: Grade at rank 2 is -1: grades must be numbers from 0 to 100.
"""

from __future__ import annotations

import math
import re

from rankviz.i18n import N_
from rankviz.i18n import _ as translate

__all__ = [
    "MAX_GRADE",
    "MAX_RANKING_LENGTH",
    "parse_grades",
    "parse_doc_ids",
    "parse_optional_int",
    "check_grade",
    "check_ranking",
    "format_grade_rows",
    "format_grades",
    "format_doc_ids",
    "default_doc_ids",
]

# Relevance scales in practice run 0-3 or 0-4; 2^100 is still a finite float, so exponential
# gain never overflows. A larger number is almost surely a typo (1e9 for 1).
MAX_GRADE = 100
# Beyond this the worked tables stop being readable and the page stops being fast.
MAX_RANKING_LENGTH = 1000

# Commas, semicolons and any whitespace separate items: "3,2,3", "3 2 3", "3, 2; 3".
_SEPARATORS = re.compile(r"[,;\s]+")


def _split(text: str) -> list[str]:
    if text is None:
        return []
    return [item for item in _SEPARATORS.split(str(text).strip()) if item]


_POSITION_WORDS = {"rank": N_("rank"), "position": N_("position")}


def check_grade(value, rank: int, *, position: str = "rank"):
    """Return ``value`` as a grade (int when whole, else float) or raise naming the rank.

    >>> check_grade("2", rank=1), check_grade(1.5, rank=2)
    (2, 1.5)
    """
    allowed = translate(N_("grades must be numbers from 0 to {most}")).format(most=MAX_GRADE)
    position = translate(_POSITION_WORDS.get(position, position))
    if value is None:
        raise ValueError(translate(N_('Grade at {position} {rank} is missing: {allowed}.')).format(
            position=position, rank=rank, allowed=allowed))
    if isinstance(value, bool):
        value = int(value)
    try:
        if isinstance(value, str) and "_" in value:  # float("1_0") is 10: a typo, not a grade
            raise ValueError(value)
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(translate(N_('Grade at {position} {rank} is {value}: {allowed}.')).format(
            position=position, rank=rank, value=repr(value), allowed=allowed)) from None
    shown = value if isinstance(value, str) else f"{number:g}"
    if math.isnan(number):
        raise ValueError(translate(N_('Grade at {position} {rank} is missing (NaN): {allowed}.')).format(
            position=position, rank=rank, allowed=allowed))
    if not math.isfinite(number) or number < 0 or number > MAX_GRADE:
        raise ValueError(translate(N_('Grade at {position} {rank} is {shown}: {allowed}.')).format(
            position=position, rank=rank, shown=shown, allowed=allowed))
    return int(number) if number.is_integer() else number


def parse_grades(text: str, *, position: str = "rank") -> tuple:
    """Grades in ranked order from text such as ``"3,2,3,0,1,2"`` or ``"3 2 3 0 1 2"``.

    Raises ``ValueError`` for an empty list, a non-number, a negative, NaN or infinite
    grade, a grade above ``MAX_GRADE`` or more than ``MAX_RANKING_LENGTH`` grades.

    >>> parse_grades("1; 0.5")
    (1, 0.5)
    """
    items = _split(text)
    if not items:
        raise ValueError(translate(N_('The ranking is empty: type at least one grade, e.g. 3,2,3,0,1,2.')))
    if len(items) > MAX_RANKING_LENGTH:
        raise ValueError(translate(N_('The ranking has {len_items} grades; at most {MAX_RANKING_LENGTH} are allowed.')).format(
            
            len_items=len(items), MAX_RANKING_LENGTH=MAX_RANKING_LENGTH))
    return tuple(check_grade(item, rank, position=position) for rank, item in enumerate(items, start=1))


def parse_doc_ids(text: str) -> tuple[str, ...]:
    """Document ids from text such as ``"d1, d2, d3"``; an empty text gives ``()``.

    >>> parse_doc_ids("d123 d84,d56")
    ('d123', 'd84', 'd56')
    """
    ids = tuple(_split(text))
    _check_unique(ids)
    return ids


def _check_unique(doc_ids) -> None:
    seen: dict[str, int] = {}
    for rank, doc_id in enumerate(doc_ids, start=1):
        if doc_id in seen:
            raise ValueError(
                translate(N_('Document id {doc_id} appears twice, at ranks {seen_doc_id} and {rank}: each document '
                             'can be ranked only once.')).format(
                    doc_id=repr(doc_id), seen_doc_id=seen[doc_id], rank=rank)
            )
        seen[doc_id] = rank


def parse_optional_int(text, *, name: str, minimum: int = 1, maximum: int | None = None) -> int | None:
    """An int from text, or None for a blank text (meaning "not set", e.g. k = the whole list).

    >>> parse_optional_int(" 5 ", name="k"), parse_optional_int("", name="k")
    (5, None)
    >>> parse_optional_int("0", name="k")
    Traceback (most recent call last):
    ...
    ValueError: k must be a whole number of at least 1 (or blank); got '0'.
    """
    raw = "" if text is None else str(text).strip()
    if raw == "":
        return None
    if maximum is None:
        message = translate(N_("{name} must be a whole number of at least {minimum} (or blank); got {raw}.")).format(
            name=name, minimum=minimum, raw=repr(raw))
    else:
        message = translate(N_("{name} must be a whole number from {minimum} to {maximum} (or blank); got {raw}.")
                            ).format(name=name, minimum=minimum, maximum=maximum, raw=repr(raw))
    try:
        number = float(raw)
    except ValueError:
        raise ValueError(message) from None
    if not math.isfinite(number) or not number.is_integer():
        raise ValueError(message)
    value = int(number)
    if value < minimum or (maximum is not None and value > maximum):
        raise ValueError(message)
    return value


def default_doc_ids(n: int, *, taken=()) -> tuple[str, ...]:
    """``d1 ... dn``, skipping ids already ``taken``.

    >>> default_doc_ids(3)
    ('d1', 'd2', 'd3')
    >>> default_doc_ids(2, taken={"d1"})
    ('d2', 'd3')
    """
    taken = set(taken)
    ids, number = [], 1
    while len(ids) < n:
        candidate = f"d{number}"
        if candidate not in taken:
            ids.append(candidate)
        number += 1
    return tuple(ids)


def check_ranking(doc_ids, grades) -> tuple[tuple[str, ...], tuple]:
    """Validate rows of a ranking (one doc id and one grade per rank) and return them as tuples.

    Blank doc ids get a fresh ``d<n>`` id; grades are checked with :func:`check_grade`.

    >>> check_ranking(["a", "", "c"], [1, "0", 2])
    (('a', 'd1', 'c'), (1, 0, 2))
    """
    doc_ids, grades = list(doc_ids), list(grades)
    if len(doc_ids) != len(grades):
        raise ValueError(translate(N_('Give one document id per grade: {len_grades} grades but {len_doc_ids} ids.')).format(
            
            len_grades=len(grades), len_doc_ids=len(doc_ids)))
    if not grades:
        raise ValueError(translate(N_('The ranking is empty: add at least one document.')))
    if len(grades) > MAX_RANKING_LENGTH:
        raise ValueError(translate(N_('The ranking has {len_grades} documents; at most {MAX_RANKING_LENGTH} are '
                                      'allowed.')).format(
            len_grades=len(grades), MAX_RANKING_LENGTH=MAX_RANKING_LENGTH))
    cleaned_ids = [("" if d is None or (isinstance(d, float) and math.isnan(d)) else str(d).strip())
                   for d in doc_ids]
    blanks = [i for i, d in enumerate(cleaned_ids) if not d]
    for i, fresh in zip(blanks, default_doc_ids(len(blanks), taken=cleaned_ids)):
        cleaned_ids[i] = fresh
    _check_unique(cleaned_ids)
    checked = tuple(check_grade(g, rank) for rank, g in enumerate(grades, start=1))
    return tuple(cleaned_ids), checked


def format_grades(grades) -> str:
    """The inverse of :func:`parse_grades`: ``"3,2,3,0,1,2"``.

    >>> format_grades([3, 2.0, 0.5])
    '3,2,0.5'
    """
    return ",".join(f"{float(g):g}" for g in grades)


def format_grade_rows(matrix) -> list[str]:
    """:func:`format_grades` of every row of a 2-D array of grades, the same texts.

    Whole-number grades below a million (what ``:g`` prints in full) are written as integers in
    one go, about ten times faster on the explorer's 200 rankings of 100 grades; other grades
    one by one.

    >>> format_grade_rows([[3, 2.0, 0], [1, 0.5, 0]])
    ['3,2,0', '1,0.5,0']
    """
    import numpy as np

    matrix = np.asarray(matrix, dtype=float)
    whole = matrix.size and np.all(matrix == np.floor(matrix)) and np.abs(matrix).max() < 1e6
    if not whole:
        return [format_grades(row) for row in matrix]
    return [",".join(map(str, row)) for row in (matrix + 0.0).astype(np.int64).tolist()]


def format_doc_ids(doc_ids) -> str:
    """The inverse of :func:`parse_doc_ids`: ``"d1,d2,d3"``."""
    return ",".join(doc_ids)
