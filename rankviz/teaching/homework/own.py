"""A student's own exercise, typed as the sheet prints it: each kind's inputs, read from text and back.

Every kind (:class:`~rankviz.teaching.homework.core.KindSpec`) lists the inputs a student types to
pose their own exercise (:class:`~rankviz.teaching.homework.core.OwnInput`, in the kind's module,
in the textbook's words) and builds the exercise from them. This module reads what is pasted from a
sheet into those values, writes a value back as the text a link holds, and validates one input at a
time: a bad input raises :class:`~rankviz.teaching.homework.core.InputError` naming that input, so a
page shows the message beside its field and keeps the others.

What is read (:data:`READERS`):

* relevance in ranked order: ``R N R N N``, ``RNRNN``, ``1 0 1 0``, ``3,2,3,0,1,2``, ``+ − +`` or a
  column of numbers (one per line);
* numbers: spaces, semicolons or new lines between them, or commas when no decimal comma is used
  (``0,5; 2`` is 0.5 and 2; ``0.5, 2`` too); fractions (``1/3``) and percentages (``33%``);
* several queries or runs: one per line.

>>> read_input("relevance", "R N R N N", "Relevance")
(1, 0, 1, 0, 0)
>>> read_input("numbers", "0,9 0,6; 0,6", "Scores")
(0.9, 0.6, 0.6)
>>> read_input("rankings", "R N R\\n0 0 1", "Rankings")
((1, 0, 1), (0, 0, 1))
>>> input_text("rankings", ((1, 0, 1), (0, 0, 1)))
'1 0 1\\n0 0 1'
"""

from __future__ import annotations

import math
import re

from rankviz.formatting import format_number
from rankviz.i18n import _
from rankviz.teaching.homework.core import InputError, parse_answer
from rankviz.teaching.parsing import check_grade

__all__ = ["READERS", "read_input", "input_text", "split_numbers"]

# One relevance mark per character or token: what sheets print for relevant and not relevant.
_RELEVANT_MARKS = {"r": 1, "y": 1, "+": 1, "✓": 1, "✔": 1, "n": 0, "-": 0, "−": 0, "✗": 0, "✘": 0, ".": 0}
_LABEL_WORDS = {"1": 1, "1.0": 1, "+": 1, "yes": 1, "y": 1, "true": 1, "click": 1, "clicked": 1, "pos": 1,
                "0": 0, "0.0": 0, "-": 0, "−": 0, "no": 0, "n": 0, "false": 0, "skip": 0, "neg": 0}
_BETWEEN = re.compile(r"[;\s|]+")
_DECIMAL_COMMA = re.compile(r"^[-−+]?\d*,\d+%?$")


def split_numbers(text: str) -> list[str]:
    """The number tokens of ``text``: spaces, semicolons, bars or new lines separate them, and so do
    commas, except a comma between digits in a list separated otherwise (a decimal comma).

    >>> split_numbers("3,2,3,0,1,2"), split_numbers("0,9 0,6"), split_numbers("0.9, 0.6"), split_numbers("1/3; 25%")
    (['3', '2', '3', '0', '1', '2'], ['0,9', '0,6'], ['0.9', '0.6'], ['1/3', '25%'])
    """
    parts = [part for part in _BETWEEN.split(str(text or "").strip()) if part.strip(",")]
    if len(parts) > 1 and all(_DECIMAL_COMMA.match(part) or "," not in part.strip(",") for part in parts):
        return [part.strip(",") for part in parts]
    return [token for part in parts for token in part.split(",") if token]


def _relevance(text: str, label: str) -> tuple:
    tokens = split_numbers(text)
    if len(tokens) == 1 and len(tokens[0]) > 1 and all(c.lower() in _RELEVANT_MARKS for c in tokens[0]):
        tokens = list(tokens[0])  # "RNRNN": one mark per character
    grades = []
    for rank, token in enumerate(tokens, 1):
        mark = _RELEVANT_MARKS.get(token.lower())
        if mark is not None:
            grades.append(mark)
            continue
        try:
            grades.append(check_grade(token.replace(",", "."), rank))
        except ValueError as error:
            raise InputError(None, _("{label}: {error} Or write R and N (relevant, not relevant).").format(
                label=label, error=error)) from None
    return tuple(grades)


def _number(token: str, label: str, position: int | None = None) -> float:
    where = label if position is None else _("{label}, value {position}").format(label=label, position=position)
    try:
        value = parse_answer(token)
    except ValueError:
        raise InputError(None, _("{where}: cannot read {token} as a number (write e.g. 0.5, 0,5, 1/3 or 25%).").format(
            where=where, token=repr(token))) from None
    if value is None or not math.isfinite(value):
        raise InputError(None, _("{where}: {token} is not a finite number.").format(where=where, token=repr(token)))
    return value


def _whole(value: float, label: str, position: int | None = None, minimum: int = 0) -> int:
    where = label if position is None else _("{label}, value {position}").format(label=label, position=position)
    if not float(value).is_integer() or value < minimum:
        raise InputError(None, _("{where} must be a whole number of at least {minimum}; got {value}.").format(
            where=where, minimum=minimum, value=format_number(value)))
    return int(value)


def _numbers(text: str, label: str) -> tuple:
    return tuple(_number(token, label, i) for i, token in enumerate(split_numbers(text), 1))


def _int(text: str, label: str) -> int:
    tokens = split_numbers(text)
    if len(tokens) != 1:
        raise InputError(None, _("{label} is one whole number; got {text}.").format(label=label, text=repr(text.strip())))
    return _whole(_number(tokens[0], label), label)


def _ints(text: str, label: str) -> tuple:
    return tuple(_whole(_number(token, label, i), label, i) for i, token in enumerate(split_numbers(text), 1))


def _levels(text: str, label: str) -> tuple:
    levels = _numbers(text, label)
    for i, level in enumerate(levels, 1):
        if not 0 <= level <= 1:
            raise InputError(None, _("{label}, value {i}: a recall level is from 0 to 1 (or 0% to 100%); got "
                                     "{level}.").format(label=label, i=i, level=format_number(level)))
    return levels


def _names(text: str, label: str) -> tuple:
    return tuple(name for name in re.split(r"[,;\s|]+", str(text or "").strip()) if name)


def _labels(text: str, label: str) -> tuple:
    tokens = split_numbers(text)
    if len(tokens) == 1 and len(tokens[0]) > 1 and set(tokens[0]) <= {"0", "1", "+", "-", "−"}:
        tokens = list(tokens[0])  # "1010" or "+-+-"
    labels = []
    for i, token in enumerate(tokens, 1):
        value = _LABEL_WORDS.get(token.lower())
        if value is None:
            raise InputError(None, _("{label}, item {i}: a label is 1 (positive: clicked, relevant) or 0; got "
                                     "{token}.").format(label=label, i=i, token=repr(token)))
        labels.append(value)
    return tuple(labels)


def _ranks(text: str, label: str) -> tuple:
    return tuple(int(value) if float(value).is_integer() else value for value in _numbers(text, label))


def _lines(text: str) -> list[str]:
    return [line for line in re.split(r"[\n|]+", str(text or "")) if line.strip()]


def _rankings(text: str, label: str) -> tuple:
    return tuple(_relevance(line, f"{label}, line {i}") for i, line in enumerate(_lines(text), 1))


def _rows(text: str, label: str) -> tuple:
    return tuple(_numbers(line, f"{label}, line {i}") for i, line in enumerate(_lines(text), 1))


#: kind of input -> reader(text, label) -> value (raising InputError without a name; read_input adds it).
READERS = {
    "relevance": _relevance,
    "int": _int,
    "ints": _ints,
    "numbers": _numbers,
    "levels": _levels,
    "names": _names,
    "labels": _labels,
    "ranks": _ranks,
    "rankings": _rankings,
    "rows": _rows,
}


def read_input(kind: str, text, label: str, name: str | None = None):
    """The value of one input typed as ``text`` (None when blank); InputError naming ``name`` otherwise.

    >>> read_input("levels", "33%", "Recall levels")
    (0.33,)
    >>> read_input("int", "x", "R", name="n_relevant")
    Traceback (most recent call last):
    ...
    rankviz.teaching.homework.core.InputError: R: cannot read 'x' as a number (write e.g. 0.5, 0,5, 1/3 or 25%).
    """
    if text is None or not str(text).strip():
        return None
    try:
        return READERS[kind](str(text), label)
    except InputError as error:
        raise InputError(name, str(error)) from None


def input_text(kind: str, value) -> str:
    """The text of ``value`` as a field (and a link) holds it; :func:`read_input` reads it back.

    >>> input_text("numbers", (0.9, 0.5)), input_text("int", 5), input_text("names", ("q1", "q2"))
    ('0.9 0.5', '5', 'q1 q2')
    """
    if value is None:
        return ""
    if kind in ("rankings", "rows"):
        return "\n".join(input_text("numbers", row) for row in value)
    if isinstance(value, (list, tuple)):
        return " ".join(format_number(v, 10) if isinstance(v, (int, float)) else str(v) for v in value)
    return format_number(value, 10) if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)
