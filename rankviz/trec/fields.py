"""Whitespace-separated text files with a fixed number of fields: trec_eval's other inputs.

trec_eval reads its preference files (``-R prefs``: ``qid jg jsg docno rel_level``) and its
z-score files (``-Z``: ``qid measure mean stddev``) as lines of blank-separated fields, ``#``
lines being comments. :func:`read_fields` reads such a file into a DataFrame of strings and
floats: pyarrow's CSV reader parses the whole file at once (no Python loop per line) after one
pass that makes the blanks uniform; when anything is irregular, an exact line-by-line parser
finds the first bad line and raises a :class:`~rankviz.trec.formats.TrecFormatError` naming the
file, the line and what was expected there.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.csv as pa_csv

from rankviz.i18n import _
from rankviz.trec.formats import format_error

__all__ = ["FieldsFormat", "read_fields", "source_text"]

_BLANKS = bytes.maketrans(b"\t\r\v\f", b"    ")
_MANY_SPACES = re.compile(rb" {2,}")
_COMMENT_LINES = re.compile(rb"(?m)^ *#[^\n]*(?:\n|\Z)")
_EMPTY_LINES = re.compile(rb"\n{2,}")
_FLOAT_TOKEN = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?)\Z")
_ASCII_BLANKS = re.compile(r"[ \t\r\v\f]+")


@dataclass(frozen=True)
class FieldsFormat:
    """One kind of whitespace-separated file: what :func:`read_fields` expects and reports.

    Attributes
    ----------
    what : str
        The kind of file, as messages name it (``"prefs"``, ``"zscores"``).
    fields : tuple of str
        The fields of a line, as trec_eval's documentation names them.
    columns : tuple of str
        The DataFrame column of each field, in order.
    numbers : tuple of str
        The columns holding numbers (float64); the others are strings.
    empty : str
        How messages describe a file without data lines.
    """

    what: str
    fields: tuple[str, ...]
    columns: tuple[str, ...]
    numbers: tuple[str, ...]
    empty: str


def source_text(source, func: str) -> tuple[bytes, str]:
    """The bytes of ``source`` and the name messages give it.

    ``source`` is a path (``str`` without a line break, or ``os.PathLike``), an open file (text or
    binary), bytes, or the text itself (a ``str`` holding a line break).
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), "<bytes>"
    if isinstance(source, str) and (not source or "\n" in source or "\r" in source):
        return source.encode("utf-8"), "<text>"
    if isinstance(source, (str, os.PathLike)):
        path, name = Path(source), os.fspath(source)
        if path.is_dir():
            raise IsADirectoryError(f"{func}: {name!r} is a directory, not a file")
        if not path.is_file():
            raise FileNotFoundError(f"{func}: no such file: {name!r}")
        return path.read_bytes(), name
    if hasattr(source, "read"):
        content = source.read()
        name = getattr(source, "name", None)
        name = os.fspath(name) if isinstance(name, (str, os.PathLike)) else "<file>"
        return (content.encode("utf-8") if isinstance(content, str) else bytes(content)), name
    raise TypeError(f"{func} reads a path, a file object, bytes or the text itself; got {type(source).__name__}")


def read_fields(data: bytes, name: str, spec: FieldsFormat, *, line_numbers: bool = False) -> pd.DataFrame:
    """The lines of ``data`` as a DataFrame with ``spec.columns`` (strings, and float64 numbers).

    Blank lines and lines whose first non-blank character is ``#`` are skipped (a ``#`` inside a
    field is kept). Every other line must hold exactly ``len(spec.fields)`` fields, and the number
    columns finite decimal numbers; otherwise a :class:`~rankviz.trec.formats.TrecFormatError`
    names the line. ``line_numbers=True`` adds a ``line`` column (1-based line of each row), for
    messages about rows (a docno given twice), at the cost of the line-by-line parser.

    Examples
    --------
    >>> spec = FieldsFormat("zscores", ("qid", "measure", "mean", "stddev"),
    ...                     ("query_id", "measure", "mean", "stddev"), ("mean", "stddev"), "no lines")
    >>> read_fields(b"# mean and sd\\n301 map 0.25 0.1\\n", "<bytes>", spec).to_dict("records")
    [{'query_id': '301', 'measure': 'map', 'mean': 0.25, 'stddev': 0.1}]
    >>> read_fields(b"301 map 0.25\\n", "z.txt", spec)
    Traceback (most recent call last):
    ...
    rankviz.trec.formats.TrecFormatError: z.txt line 1: expected 4 fields (qid measure mean stddev), got 3: '301 map 0.25'
    """
    table = None if line_numbers else _parse_fast(data, spec)
    if table is None:
        table = _parse_exact(data, name, spec, line_numbers)
    frame = table.to_pandas(types_mapper=lambda t: pd.StringDtype("pyarrow", na_value=math.nan)
                            if pa.types.is_large_string(t) or pa.types.is_string(t) else None)
    frame.attrs["source"] = name
    return frame


def _parse_fast(data: bytes, spec: FieldsFormat) -> pa.Table | None:
    """pyarrow's reader over the normalised text; None when anything is irregular."""
    text = data.translate(_BLANKS)
    if b"  " in text:
        text = _MANY_SPACES.sub(b" ", text)
    text = text.replace(b"\n ", b"\n").replace(b" \n", b"\n").strip(b" \n")
    if b"#" in text:
        text = _COMMENT_LINES.sub(b"", text)
    text = _EMPTY_LINES.sub(b"\n", text).strip(b"\n")
    if not text:
        return None
    irregular = []

    def on_invalid_row(row):
        irregular.append(row.number)
        return "skip"

    types = {c: (pa.float64() if c in spec.numbers else pa.large_string()) for c in spec.columns}
    try:
        table = pa_csv.read_csv(
            pa.BufferReader(pa.py_buffer(text)),
            read_options=pa_csv.ReadOptions(column_names=list(spec.columns)),
            parse_options=pa_csv.ParseOptions(delimiter=" ", quote_char=False, escape_char=False,
                                              double_quote=False, invalid_row_handler=on_invalid_row),
            convert_options=pa_csv.ConvertOptions(column_types=types, strings_can_be_null=False,
                                                  quoted_strings_can_be_null=False, null_values=[]),
        )
    except (pa.ArrowInvalid, pa.ArrowTypeError, UnicodeDecodeError):
        return None
    if irregular or table.num_rows == 0:
        return None
    for column in spec.numbers:
        values = table[column].to_numpy()
        if not all(math.isfinite(v) for v in (values.min(), values.max())):
            return None  # nan or inf: the exact parser names the line
    return table


def _parse_exact(data: bytes, name: str, spec: FieldsFormat, line_numbers: bool = False) -> pa.Table:
    """Line by line: the source of every error message (and of tables the fast path refused)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise format_error(name, line, _("UTF-8 text"), _("undecodable bytes (a binary file?)")) from None
    n_fields = len(spec.fields)
    numbers = {spec.columns.index(c) for c in spec.numbers}
    values: list[list] = [[] for _ in spec.columns]
    lines: list[int] = []
    for number, line in enumerate(text.split("\n"), start=1):
        parts = line.split() if line.isascii() else [p for p in _ASCII_BLANKS.split(line) if p]
        if not parts or parts[0].startswith("#"):
            continue
        if len(parts) != n_fields:
            shown = line.rstrip("\r")
            shown = shown if len(shown) <= 80 else shown[:77] + "..."
            raise format_error(name, number, _("{n} fields ({names})").format(n=n_fields, names=" ".join(spec.fields)),
                               f"{len(parts)}: {shown!r}")
        for index, token in enumerate(parts):
            if index in numbers:
                if not _FLOAT_TOKEN.match(token):
                    raise format_error(name, number, _("{kind} in field {number} ({name})").format(
                        kind=_("a finite number"), number=index + 1, name=spec.fields[index]), repr(token))
                values[index].append(float(token))
            else:
                values[index].append(token)
        lines.append(number)
    if not values[0]:
        raise format_error(name, None, _("{kind} lines ({names})").format(kind=spec.what, names=" ".join(spec.fields)),
                           _("{nothing} (empty, or only blank or comment lines)").format(nothing=spec.empty))
    columns = {column: pa.array(column_values, pa.float64() if i in numbers else pa.large_string())
               for i, (column, column_values) in enumerate(zip(spec.columns, values))}
    if line_numbers:
        columns["line"] = pa.array(lines, pa.int64())
    return pa.table(columns)

