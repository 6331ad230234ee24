"""Qrels and runs given as tables: CSV/TSV, Parquet, pandas DataFrames, pyarrow Tables, nested dicts.

What :mod:`rankviz.trec.readers` hands over when the input is not TREC text: matches column names (``query_id``/``qid``/``query``,
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

from rankviz.trec.duplicates import has_duplicate_pairs
from rankviz.trec.formats import (
    DOC_COLUMN_NAMES,
    GROUP_COLUMN_NAMES,
    QRELS_FORMAT,
    QUERY_COLUMN_NAMES,
    RUN_FORMAT,
    RUN_NAME_COLUMN_NAMES,
    TrecFileFormat,
    TrecFormatError,
    format_error,
    with_source_metadata,
)

__all__ = ["from_delimited", "from_parquet", "from_table", "from_dict"]


def from_delimited(data: bytes, spec: TrecFileFormat, name: str, judgment_groups: bool, delimiter: str) -> pa.Table:
    """The validated table of a CSV (``delimiter=","``) or TSV (``"\\t"``) file with a header line.

    Every column is read as text, so ids stay strings ("001" stays "001"); values are then
    checked row by row by :func:`from_table`, whose errors count the header as line 1.
    """
    try:
        text_head = data[:65536].decode("utf-8", "replace")
    except Exception:  # pragma: no cover - decode with "replace" does not raise
        text_head = ""
    stripped = text_head.lstrip("\ufeff")
    header = next(csv.reader(io.StringIO(stripped), delimiter=delimiter), [])
    if not header or not any(h.strip() for h in header):
        raise format_error(name, None, f"a header line naming the columns ({_expected_columns(spec)})", "an empty file")
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
        raise format_error(name, line, f"{len(header)} columns like the header ({', '.join(header)})",
                     str(exc).splitlines()[0]) from None
    return from_table(table, spec, name, judgment_groups, first_line=2)


def from_parquet(data: bytes, spec: TrecFileFormat, name: str, judgment_groups: bool) -> pa.Table:
    """The validated table of a Parquet file's bytes (see :func:`from_table`; row 0 is line 1)."""
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(pa.BufferReader(pa.py_buffer(data)))
    except (pa.ArrowInvalid, OSError) as exc:
        raise format_error(name, None, "a readable Parquet file", str(exc).splitlines()[0]) from None
    return from_table(table, spec, name, judgment_groups, first_line=1)


def _expected_columns(spec: TrecFileFormat) -> str:
    value_names = spec.value_column_names
    return (f"a query column ({'/'.join(QUERY_COLUMN_NAMES[:3])}), a document column ({'/'.join(DOC_COLUMN_NAMES[:3])}) "
            f"and a {spec.value} column ({'/'.join(value_names[:3])})")


def _find_column(columns: list[str], candidates: tuple[str, ...]) -> str | None:
    lowered = {str(c).strip().lower(): c for c in reversed(columns)}
    for candidate in candidates:
        if candidate in lowered:
            return lowered[candidate]
    return None


def from_table(table: pa.Table, spec: TrecFileFormat, name: str, judgment_groups: bool, first_line: int) -> pa.Table:
    """Validate a table with named columns into the readers' columns (query_id, [group,] doc_id,
    relevance or score), raising :class:`~rankviz.trec.formats.TrecFormatError` naming the row.

    Columns are found by the names of :mod:`rankviz.trec.formats` (case-insensitively, first
    match wins); ``first_line`` is the line/row number of row 0 in messages.
    """
    columns = table.column_names
    query = _find_column(columns, QUERY_COLUMN_NAMES)
    doc = _find_column(columns, DOC_COLUMN_NAMES)
    value = _find_column(columns, spec.value_column_names)
    group = _find_column(columns, GROUP_COLUMN_NAMES) if judgment_groups else None
    missing = query is None or doc is None or value is None or (judgment_groups and group is None)
    if missing:
        expected = _expected_columns(spec) + (" and a group column" if judgment_groups else "")
        raise format_error(name, None, expected, f"columns {', '.join(map(repr, columns)) or '(none)'}")
    if table.num_rows == 0:
        raise format_error(name, None, f"{spec.what} rows", f"{spec.empty} (0 rows)")
    row_word = "line" if name not in ("<DataFrame>", "<Table>") else "row"
    out = {"query_id": _id_column(table[query], name, query, first_line, row_word)}
    if judgment_groups:
        out["group"] = _id_column(table[group], name, group, first_line, row_word)
    out["doc_id"] = _id_column(table[doc], name, doc, first_line, row_word)
    if spec is QRELS_FORMAT:
        out["relevance"] = _grade_column(table[value], name, value, first_line, row_word)
    else:
        out["score"] = _score_column(table[value], name, value, first_line, row_word)
    result = pa.table(out)
    if has_duplicate_pairs(result, judgment_groups):
        _raise_duplicate(result, name, judgment_groups, first_line, row_word)
    run_name = None
    if spec is RUN_FORMAT:
        tag = _find_column(columns, RUN_NAME_COLUMN_NAMES)
        if tag is not None and table[tag][-1].is_valid:
            run_name = str(table[tag][-1].as_py())
    return with_source_metadata(result, spec, name, run_name)


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


def from_dict(source: dict, spec: TrecFileFormat, name: str) -> pa.Table:
    """The validated table of a nested dict ``{qid: {docno: value}}`` (pytrec_eval's and ranx's form);
    keys become strings, rows come in the dicts' order."""
    query_ids, doc_ids, values = [], [], []
    for query, docs in source.items():
        if not isinstance(docs, dict):
            raise format_error(name, None, f"a dict {{qid: {{docno: {spec.value}}}}}",
                         f"{type(docs).__name__} for query {query!r}")
        query = str(query)
        for doc, value in docs.items():
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
                raise format_error(name, None, f"{spec.value_kind} for every document",
                             f"{value!r} for query {query!r}, doc {doc!r}")
            if spec is QRELS_FORMAT and not float(value).is_integer():
                raise format_error(name, None, "an integer relevance grade for every document",
                             f"{value!r} for query {query!r}, doc {doc!r}")
            if spec is RUN_FORMAT and math.isnan(value):
                raise format_error(name, None, "a numeric score for every document", f"NaN for query {query!r}, doc {doc!r}")
            query_ids.append(query)
            doc_ids.append(str(doc))
            values.append(value)
    if not query_ids:
        raise format_error(name, None, f"{spec.what} entries", f"{spec.empty} (an empty dict)")
    if spec is QRELS_FORMAT:
        value_array = pa.array(np.asarray(values, dtype=np.float64).astype(np.int64))
    else:
        value_array = pa.array(np.asarray(values, dtype=np.float64))
    columns = {"query_id": pa.array(query_ids, pa.large_string()), "doc_id": pa.array(doc_ids, pa.large_string()),
               spec.value: value_array}
    table = pa.table(columns)
    if has_duplicate_pairs(table, False):  # only possible when str() merges distinct keys, e.g. 1 and "1"
        _raise_duplicate(table, name, False, 1, "entry")
    return with_source_metadata(table, spec, name, None)
