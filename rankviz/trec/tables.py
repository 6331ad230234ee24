"""Qrels and runs given as tables: CSV/TSV, Parquet, pandas DataFrames, pyarrow Tables, nested dicts.

The part of :mod:`rankviz.trec.readers` that matches column names (``query_id``/``qid``/``query``,
``doc_id``/``docno``/``doc``, ``relevance``/``rel``/``label``, ``score``/``sim``) and validates
the values row by row, so errors name the file (or ``<DataFrame>``), the row and the column.
"""

from __future__ import annotations

import csv
import io
import math
import re

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv

from rankviz.trec.readers import (
    _DOC_NAMES,
    _GROUP_NAMES,
    _QRELS,
    _QUERY_NAMES,
    _RELEVANCE_NAMES,
    _RUN,
    _RUN_NAME_NAMES,
    _SCORE_NAMES,
    TrecFormatError,
    _error,
    _finish,
)
from rankviz.trec.duplicates import has_duplicate_pairs



def from_delimited(data: bytes, spec: dict, name: str, judgment_groups: bool, delimiter: str) -> pa.Table:
    try:
        text_head = data[:65536].decode("utf-8", "replace")
    except Exception:  # pragma: no cover - decode with "replace" does not raise
        text_head = ""
    stripped = text_head.lstrip("\ufeff")
    header = next(csv.reader(io.StringIO(stripped), delimiter=delimiter), [])
    if not header or not any(h.strip() for h in header):
        raise _error(name, None, f"a header line naming the columns ({_expected_columns(spec)})", "an empty file")
    # Read every column as text first: ids must stay strings, numbers are checked per row below.
    try:
        table = pa_csv.read_csv(
            pa.BufferReader(bytes(data).removeprefix(b"\xef\xbb\xbf")),
            parse_options=pa_csv.ParseOptions(delimiter=delimiter, ignore_empty_lines=True),
            convert_options=pa_csv.ConvertOptions(column_types={h: pa.string() for h in header},
                                                  strings_can_be_null=False, null_values=[""]),
        )
    except pa.ArrowInvalid as exc:
        match = re.search(r"[Rr]ow #?(\d+)", str(exc))
        line = int(match.group(1)) if match else None
        raise _error(name, line, f"{len(header)} columns like the header ({', '.join(header)})",
                     str(exc).splitlines()[0]) from None
    return from_table(table, spec, name, judgment_groups, first_line=2)


def from_parquet(data: bytes, spec: dict, name: str, judgment_groups: bool) -> pa.Table:
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(pa.BufferReader(pa.py_buffer(data)))
    except (pa.ArrowInvalid, OSError) as exc:
        raise _error(name, None, "a readable Parquet file", str(exc).splitlines()[0]) from None
    return from_table(table, spec, name, judgment_groups, first_line=1)


def _expected_columns(spec: dict) -> str:
    value_names = _RELEVANCE_NAMES if spec is _QRELS else _SCORE_NAMES
    return (f"a query column ({'/'.join(_QUERY_NAMES[:3])}), a document column ({'/'.join(_DOC_NAMES[:3])}) "
            f"and a {spec['value']} column ({'/'.join(value_names[:3])})")


def _find_column(columns: list[str], candidates: tuple[str, ...]) -> str | None:
    lowered = {str(c).strip().lower(): c for c in reversed(columns)}
    for candidate in candidates:
        if candidate in lowered:
            return lowered[candidate]
    return None


def from_table(table: pa.Table, spec: dict, name: str, judgment_groups: bool, first_line: int) -> pa.Table:
    """Validate a table with named columns. ``first_line`` is the line/row number of row 0."""
    columns = table.column_names
    query = _find_column(columns, _QUERY_NAMES)
    doc = _find_column(columns, _DOC_NAMES)
    value = _find_column(columns, _RELEVANCE_NAMES if spec is _QRELS else _SCORE_NAMES)
    group = _find_column(columns, _GROUP_NAMES) if judgment_groups else None
    missing = query is None or doc is None or value is None or (judgment_groups and group is None)
    if missing:
        expected = _expected_columns(spec) + (" and a group column" if judgment_groups else "")
        raise _error(name, None, expected, f"columns {', '.join(map(repr, columns)) or '(none)'}")
    if table.num_rows == 0:
        raise _error(name, None, f"{spec['what']} rows", f"{spec['empty']} (0 rows)")
    row_word = "line" if name not in ("<DataFrame>", "<Table>") else "row"
    out = {"query_id": _id_column(table[query], name, query, first_line, row_word)}
    if judgment_groups:
        out["group"] = _id_column(table[group], name, group, first_line, row_word)
    out["doc_id"] = _id_column(table[doc], name, doc, first_line, row_word)
    if spec is _QRELS:
        out["relevance"] = _grade_column(table[value], name, value, first_line, row_word)
    else:
        out["score"] = _score_column(table[value], name, value, first_line, row_word)
    result = pa.table(out)
    if has_duplicate_pairs(result, judgment_groups):
        _raise_duplicate(result, name, judgment_groups, first_line, row_word)
    run_name = None
    if spec is _RUN:
        tag = _find_column(columns, _RUN_NAME_NAMES)
        if tag is not None and table[tag][-1].is_valid:
            run_name = str(table[tag][-1].as_py())
    return _finish(result, spec, name, run_name)


def _table_error(name, row_word, line, expected, got):
    where = f"{name} {row_word} {line}" if line is not None else name
    return TrecFormatError(f"{where}: expected {expected}, got {got}", path=name, line=line, expected=expected)


def _id_column(column: pa.ChunkedArray, name, label, first_line, row_word) -> pa.ChunkedArray:
    kind = column.type
    if pa.types.is_dictionary(kind):
        column = column.cast(kind.value_type)
        kind = column.type
    if column.null_count:
        row = int(np.flatnonzero(column.is_null().to_numpy(zero_copy_only=False))[0])
        raise _table_error(name, row_word, first_line + row, f"an id in column {label!r}", "an empty value")
    if pa.types.is_integer(kind):
        return column.cast(pa.large_string())
    if pa.types.is_string(kind) or pa.types.is_large_string(kind) or pa.types.is_string_view(kind):
        # large_string is the layout of pandas' "str" dtype: the DataFrame then shares the buffers.
        column = column.cast(pa.large_string()) if not pa.types.is_large_string(kind) else column
        empty = pc.equal(column, "")
        if pc.any(empty).as_py():
            row = int(np.flatnonzero(empty.to_numpy(zero_copy_only=False))[0])
            raise _table_error(name, row_word, first_line + row, f"an id in column {label!r}", "an empty string")
        return column
    raise _table_error(name, row_word, None, f"strings or integers in id column {label!r}", f"type {kind}")


def _numbers(column: pa.ChunkedArray, name, label, first_line, row_word, expected) -> np.ndarray:
    kind = column.type
    if pa.types.is_dictionary(kind):
        column = column.cast(kind.value_type)
        kind = column.type
    if pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_boolean(kind):
        if column.null_count:
            row = int(np.flatnonzero(column.is_null().to_numpy(zero_copy_only=False))[0])
            raise _table_error(name, row_word, first_line + row, f"{expected} in column {label!r}", "an empty value")
        return column.to_numpy().astype(np.float64) if not pa.types.is_integer(kind) else column.to_numpy()
    if pa.types.is_string(kind) or pa.types.is_large_string(kind) or pa.types.is_string_view(kind):
        texts = column.to_pandas()
        parsed = pd.to_numeric(texts.str.strip(), errors="coerce")
        bad = parsed.isna().to_numpy()
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            raise _table_error(name, row_word, first_line + row, f"{expected} in column {label!r}", repr(texts.iloc[row]))
        return parsed.to_numpy()
    raise _table_error(name, row_word, None, f"numbers in column {label!r}", f"type {kind}")


def _grade_column(column, name, label, first_line, row_word) -> pa.Array:
    values = _numbers(column, name, label, first_line, row_word, "an integer relevance grade")
    if values.dtype.kind == "f":
        not_integer = ~np.isfinite(values) | (values != np.round(values))
        if not_integer.any():
            row = int(np.flatnonzero(not_integer)[0])
            raise _table_error(name, row_word, first_line + row, f"an integer relevance grade in column {label!r}",
                               repr(values[row].item()))
    return pa.array(values.astype(np.int64))


def _score_column(column, name, label, first_line, row_word) -> pa.Array:
    values = np.asarray(_numbers(column, name, label, first_line, row_word, "a numeric score"), dtype=np.float64)
    nan = np.isnan(values)
    if nan.any():
        row = int(np.flatnonzero(nan)[0])
        raise _table_error(name, row_word, first_line + row, f"a numeric score in column {label!r}", "NaN")
    return pa.array(values)


def _raise_duplicate(table: pa.Table, name, judgment_groups, first_line, row_word):
    keys = ["query_id", "group", "doc_id"] if judgment_groups else ["query_id", "doc_id"]
    frame = table.select(keys).to_pandas()
    dup = frame.duplicated(keep=False).to_numpy()
    rows = np.flatnonzero(dup)
    second_row = int(np.flatnonzero(frame.duplicated(keep="first").to_numpy())[0])
    same = (frame.iloc[rows] == frame.iloc[second_row]).all(axis=1).to_numpy()
    first_row = int(rows[same][0])
    query, doc = frame.iloc[second_row]["query_id"], frame.iloc[second_row]["doc_id"]
    raise _table_error(
        name, row_word, first_line + second_row, "each docno at most once per query",
        f"doc {doc!r} of query {query!r} again (first on {row_word} {first_line + first_row})",
    )


def from_dict(source: dict, spec: dict, name: str) -> pa.Table:
    query_ids, doc_ids, values = [], [], []
    for query, docs in source.items():
        if not isinstance(docs, dict):
            raise _error(name, None, f"a dict {{qid: {{docno: {spec['value']}}}}}",
                         f"{type(docs).__name__} for query {query!r}")
        query = str(query)
        for doc, value in docs.items():
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
                raise _error(name, None, f"{spec['value_kind']} for every document",
                             f"{value!r} for query {query!r}, doc {doc!r}")
            if spec is _QRELS and not float(value).is_integer():
                raise _error(name, None, "an integer relevance grade for every document",
                             f"{value!r} for query {query!r}, doc {doc!r}")
            if spec is _RUN and math.isnan(value):
                raise _error(name, None, "a numeric score for every document", f"NaN for query {query!r}, doc {doc!r}")
            query_ids.append(query)
            doc_ids.append(str(doc))
            values.append(value)
    if not query_ids:
        raise _error(name, None, f"{spec['what']} entries", f"{spec['empty']} (an empty dict)")
    if spec is _QRELS:
        value_array = pa.array(np.asarray(values, dtype=np.float64).astype(np.int64))
    else:
        value_array = pa.array(np.asarray(values, dtype=np.float64))
    columns = {"query_id": pa.array(query_ids, pa.large_string()), "doc_id": pa.array(doc_ids, pa.large_string()),
               spec["value"]: value_array}
    table = pa.table(columns)
    if has_duplicate_pairs(table, False):  # only possible when str() merges distinct keys, e.g. 1 and "1"
        _raise_duplicate(table, name, False, 1, "entry")
    return _finish(table, spec, name, None)
