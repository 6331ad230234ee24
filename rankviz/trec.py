"""Read TREC qrels and runs (and their CSV/TSV/Parquet/DataFrame/dict cousins) into tidy DataFrames.

Two public readers, :func:`read_qrels` and :func:`read_run`, accept a path, a ``.gz`` file, a file
object, bytes, the text itself, a CSV/TSV/Parquet file with named columns, a pandas DataFrame, a
pyarrow Table or the nested dicts pytrec_eval and ranx use. They return validated DataFrames whose
ids are strings (``"001"`` stays ``"001"``), stored as pyarrow-backed strings, never one Python
object per row.

Speed: a TREC file with one separator (a single space or a single tab between fields, the form
every toolkit writes) is parsed by pyarrow's multithreaded CSV reader. Anything else (mixed or
repeated whitespace, ``#`` comment lines, extra columns, or an error) goes through a normalising
pass and, when that is not enough, through an exact line-by-line parser, which is also what
produces every error message, so errors always carry the true line number.
"""

from __future__ import annotations

import csv
import gzip
import io
import math
import mmap
import os
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv

__all__ = ["TrecFormatError", "read_qrels", "read_run"]


class TrecFormatError(ValueError):
    """A qrels or run input that cannot be read; the message names the source, the line and what was expected.

    Attributes
    ----------
    path : str
        The file name, or ``"<text>"``, ``"<bytes>"``, ``"<DataFrame>"``, ``"<dict>"``...
    line : int or None
        1-based line number in the file (row number for tables, counting the header as line 1
        for CSV/TSV), or None when the problem is the whole input (empty, wrong columns).
    expected : str
        What the reader expected there.
    """

    def __init__(self, message: str, *, path: str, line: int | None, expected: str):
        super().__init__(message)
        self.path = path
        self.line = line
        self.expected = expected


# --------------------------------------------------------------------------------------------
# The two kinds of file: their TREC fields and the column names accepted in tables.

_QRELS = {
    "what": "qrels",
    "fields": ("qid", "iter", "docno", "rel"),
    "value": "relevance",
    "value_field": "rel",
    "value_kind": "an integer relevance grade",
    "empty": "no judgments",
}
_RUN = {
    "what": "run",
    "fields": ("qid", "Q0", "docno", "rank", "score", "tag"),
    "value": "score",
    "value_field": "score",
    "value_kind": "a numeric score",
    "empty": "no run lines",
}

# Names people give these columns (matched case-insensitively), first match wins.
_QUERY_NAMES = ("query_id", "qid", "query", "q_id", "topic", "topic_id", "query id")
_DOC_NAMES = ("doc_id", "docno", "doc", "docid", "document", "document_id", "d_id", "pid", "passage_id")
_RELEVANCE_NAMES = ("relevance", "rel", "label", "grade", "judgment", "judgement", "qrel")
_SCORE_NAMES = ("score", "sim", "similarity", "rsv", "value")
_RUN_NAME_NAMES = ("run_name", "run", "tag", "run_id", "system", "name")
_GROUP_NAMES = ("group", "iteration", "iter", "jg", "judgment_group")

_ASCII_BLANKS = re.compile(r"[ \t\r\v\f]+")
_INT_TOKEN = re.compile(r"[+-]?[0-9]+\Z")
_FLOAT_TOKEN = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?|inf|infinity)\Z",
                          re.IGNORECASE)


def _error(name: str, line: int | None, expected: str, got: str) -> TrecFormatError:
    where = f"{name} line {line}" if line is not None else name
    return TrecFormatError(f"{where}: expected {expected}, got {got}", path=name, line=line, expected=expected)


# --------------------------------------------------------------------------------------------
# Public readers


def read_qrels(source, *, format: str = "auto", judgment_groups: bool = False) -> pd.DataFrame:
    """Read relevance judgments (qrels) into a tidy DataFrame.

    A TREC qrels file has one judgment per line, ``qid iter docno rel``, separated by
    whitespace (spaces or tabs, possibly several). ``iter`` is ignored, as trec_eval does.
    Lines whose first non-blank character is ``#`` are comments (a ``#`` inside a docno, as in
    MS MARCO v2.1 segment ids, is not); blank lines are ignored.

    Parameters
    ----------
    source : path, file object, bytes, str, DataFrame, pyarrow.Table or dict
        A path (``str`` without a newline, or ``os.PathLike``; ``.gz`` is decompressed, by name
        or by its magic bytes), an open file (text or binary), bytes, the text itself (a ``str``
        holding a newline), a CSV/TSV/Parquet file or DataFrame with named columns (query:
        ``query_id``/``qid``/``query``; document: ``doc_id``/``docno``/``doc``; grade:
        ``relevance``/``rel``/``label``), or a nested dict ``{qid: {docno: grade}}``
        (pytrec_eval, ranx).
    format : {"auto", "trec", "csv", "tsv", "parquet"}, default "auto"
        ``"auto"`` recognises Parquet by its magic bytes or suffix, CSV/TSV by their suffix or
        by a header line naming known columns, and TREC otherwise.
    judgment_groups : bool, default False
        Read trec_eval's ``qrels_jg`` form, where the second column is a judgment group (a user)
        id: it is kept as a ``group`` column and a docno may then appear once per group.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id`` (str), ``doc_id`` (str), ``relevance`` (int64), in input order
        (plus ``group`` (str) after ``query_id`` with ``judgment_groups=True``).
        ``df.attrs["source"]`` names the input.

    Raises
    ------
    TrecFormatError
        (a ``ValueError``) naming the source, the line and what was expected: wrong number of
        fields, a grade that is not an integer, an empty or binary file, a docno judged twice for
        the same query, a table without the needed columns.
    FileNotFoundError
        When the path does not exist (the message names it).

    Notes
    -----
    Grades must be integers because trec_eval reads them as integers. Negative grades (``-1``:
    pooled but not judged) are kept; how each measure treats them is the evaluator's business.
    A docno judged twice for one query stops trec_eval with an error, and so does this reader.

    References
    ----------
    trec_eval 10.0, ``get_qrels.c``; https://github.com/usnistgov/trec_eval

    Examples
    --------
    >>> qrels = read_qrels("q1 0 d1 2\\nq1 0 d2 0\\n# a comment line\\nq2 0 d1#3 1\\n")
    >>> qrels
      query_id doc_id  relevance
    0       q1     d1          2
    1       q1     d2          0
    2       q2   d1#3          1
    >>> read_qrels({"001": {"d7": 1}}).query_id.tolist()   # ids stay strings
    ['001']
    """
    table = _read(source, _QRELS, format=format, judgment_groups=judgment_groups)
    return _to_pandas(table)


def read_run(source, *, format: str = "auto") -> pd.DataFrame:
    """Read a ranked run into a tidy DataFrame.

    A TREC run file has one retrieved document per line, ``qid Q0 docno rank score tag``,
    separated by whitespace; fields after ``tag`` are ignored, ``#`` comment lines and blank
    lines are skipped (a ``#`` inside a docno is kept).

    Parameters
    ----------
    source : path, file object, bytes, str, DataFrame, pyarrow.Table or dict
        As for :func:`read_qrels`; tables need a query, a document and a score column
        (``score``/``sim``), and may carry a run-name column (``run_name``/``run``/``tag``);
        dicts are ``{qid: {docno: score}}``.
    format : {"auto", "trec", "csv", "tsv", "parquet"}, default "auto"
        See :func:`read_qrels`.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id`` (str), ``doc_id`` (str), ``score`` (float64), in input order.
        ``df.attrs["run_name"]`` is the tag of the last line (trec_eval keeps only that one;
        None when the input has no tag), ``df.attrs["source"]`` names the input.

    Raises
    ------
    TrecFormatError
        (a ``ValueError``) naming the source, the line and what was expected: fewer than 6
        fields, a score that is not a number, an empty or binary file, a docno retrieved twice
        for the same query, a table without the needed columns.
    FileNotFoundError
        When the path does not exist (the message names it).

    Notes
    -----
    The rank column is ignored, as trec_eval ignores it: the evaluator re-sorts each query by
    score descending and breaks ties by docno descending (``strcmp`` order). Rows are returned
    in file order. A NaN score is rejected because it has no place in that order.

    References
    ----------
    trec_eval 10.0, ``get_trec_results.c``; https://github.com/usnistgov/trec_eval

    Examples
    --------
    >>> run = read_run("q1 Q0 d1 1 2.5 bm25\\nq1\\tQ0\\td2\\t2\\t1.0\\tbm25  extra text\\n")
    >>> run
      query_id doc_id  score
    0       q1     d1    2.5
    1       q1     d2    1.0
    >>> run.attrs["run_name"]
    'bm25'
    """
    table = _read(source, _RUN, format=format, judgment_groups=False)
    return _to_pandas(table)


def _to_pandas(table: pa.Table) -> pd.DataFrame:
    # types_mapper keeps ids as pyarrow-backed strings (pandas' "str" dtype), not objects.
    df = table.to_pandas(types_mapper=_arrow_string_dtype)
    df.attrs.update(_decode_metadata(table))
    return df


def _arrow_string_dtype(arrow_type):
    if pa.types.is_string(arrow_type) or pa.types.is_large_string(arrow_type):
        return pd.StringDtype("pyarrow", na_value=np.nan)
    return None


def _decode_metadata(table: pa.Table) -> dict:
    meta = table.schema.metadata or {}
    attrs = {}
    if b"rankviz.source" in meta:
        attrs["source"] = meta[b"rankviz.source"].decode()
    if b"rankviz.run_name" in meta:
        attrs["run_name"] = meta[b"rankviz.run_name"].decode()
    elif b"rankviz.kind" in meta and meta[b"rankviz.kind"] == b"run":
        attrs["run_name"] = None
    return attrs


def _finish(table: pa.Table, spec: dict, name: str, run_name: str | None) -> pa.Table:
    meta = {"rankviz.source": name, "rankviz.kind": spec["what"]}
    if run_name is not None:
        meta["rankviz.run_name"] = run_name
    return table.replace_schema_metadata(meta)


# --------------------------------------------------------------------------------------------
# Sources: what was given, and its bytes


def _read(source, spec: dict, *, format: str, judgment_groups: bool) -> pa.Table:
    func = f"read_{spec['what']}"
    if format not in ("auto", "trec", "csv", "tsv", "parquet"):
        raise ValueError(
            f"The 'format' parameter of {func} must be one of 'auto', 'trec', 'csv', 'tsv', 'parquet'. "
            f"Got {format!r} instead."
        )
    if isinstance(source, pd.DataFrame):
        try:
            table = pa.Table.from_pandas(source, preserve_index=False)
        except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:  # e.g. a column mixing str and float
            raise _error("<DataFrame>", None, "columns of one type each (ids: str or int; values: numbers)",
                         str(exc).splitlines()[0]) from None
        return _from_table(table, spec, "<DataFrame>", judgment_groups, first_line=0)
    if isinstance(source, pa.Table):
        return _from_table(source, spec, "<Table>", judgment_groups, first_line=0)
    if isinstance(source, dict):
        return _from_dict(source, spec, "<dict>")
    data, name, suffixes = _source_bytes(source, func)
    try:
        return _read_bytes(data, name, suffixes, spec, format=format, judgment_groups=judgment_groups)
    finally:
        _close(data)


def _read_bytes(data, name: str, suffixes: list[str], spec: dict, *, format: str, judgment_groups: bool) -> pa.Table:
    """``data`` is bytes or a read-only mmap: only find/rfind/slicing are used on it directly."""
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as exc:
            raise _error(name, None, "a readable gzip file", f"a damaged one ({exc})") from None
    kind = _detect_format(data, suffixes, format, spec)
    if kind == "parquet":
        return _from_parquet(data, spec, name, judgment_groups)
    _reject_binary(data, name, spec)
    if kind in ("csv", "tsv"):
        return _from_delimited(data, spec, name, judgment_groups, delimiter="," if kind == "csv" else "\t")
    return _from_trec(data, spec, name, judgment_groups)


def _source_bytes(source, func: str) -> tuple[bytes, str, list[str]]:
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), "<bytes>", []
    if isinstance(source, str) and ("\n" in source or "\r" in source):
        return source.encode("utf-8"), "<text>", []
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        name = os.fspath(source)
        if not path.is_file():
            if path.is_dir():
                raise IsADirectoryError(f"{func}: {name!r} is a directory, not a file")
            raise FileNotFoundError(f"{func}: no such file: {name!r}")
        return _map_file(path), name, [s.lower() for s in path.suffixes]
    if hasattr(source, "read"):
        content = source.read()
        name = getattr(source, "name", None)
        name = os.fspath(name) if isinstance(name, (str, os.PathLike)) else "<file>"
        if isinstance(content, str):
            content = content.encode("utf-8")
        return bytes(content), name, [s.lower() for s in Path(name).suffixes] if name != "<file>" else []
    raise TypeError(
        f"{func} reads a path, a file object, bytes, the text itself, a DataFrame, a pyarrow Table or a "
        f"dict {{qid: {{docno: value}}}}; got {type(source).__name__}"
    )


def _map_file(path: Path):
    """The file's bytes; large files are memory-mapped rather than copied (a 5M-line run is ~200 MB)."""
    if path.stat().st_size < 1 << 20:
        return path.read_bytes()
    with open(path, "rb") as handle:
        return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)


def _close(data) -> None:
    if isinstance(data, mmap.mmap):
        try:
            data.close()
        except BufferError:  # pyarrow still holds a view of it: the garbage collector will close it
            pass


def _detect_format(data: bytes, suffixes: list[str], format: str, spec: dict) -> str:
    if format != "auto":
        return format
    if data[:4] == b"PAR1":
        return "parquet"
    plain = [s for s in suffixes if s != ".gz"]
    last = plain[-1] if plain else ""
    if last in (".parquet", ".pq"):
        return "parquet"
    if last == ".csv":
        return "csv"
    if last == ".tsv":
        return "tsv"
    # A header line naming a query and a document column means a table, whatever its suffix.
    first = data[:4096].lstrip().split(b"\n", 1)[0].decode("utf-8", "replace").strip().lower()
    for delimiter, kind in (("\t", "tsv"), (",", "csv")):
        names = [c.strip().strip('"') for c in first.split(delimiter)]
        if len(names) > 1 and any(n in _QUERY_NAMES for n in names) and any(n in _DOC_NAMES for n in names):
            return kind
    return "trec"


def _reject_binary(data: bytes, name: str, spec: dict) -> None:
    nul = data.find(b"\x00")
    if nul >= 0:
        line = _line_of_byte(data, nul)
        raise _error(name, line, f"a text {spec['what']} file", "a binary file (NUL byte)")


def _line_of_byte(data, position: int) -> int:
    return bytes(data[:position]).count(b"\n") + 1


# --------------------------------------------------------------------------------------------
# TREC text: fast pyarrow path, normalising path, exact line-by-line path


def _from_trec(data: bytes, spec: dict, name: str, judgment_groups: bool) -> pa.Table:
    first_line = _first_data_line(data)
    if first_line is None:
        raise _error(name, None, f"{spec['what']} lines ({' '.join(spec['fields'])})", f"{spec['empty']} (empty input)")
    delimiter, other = (b"\t", b" ") if b"\t" in first_line else (b" ", b"\t")
    table = None
    if data.find(other) < 0:  # one kind of blank only (a single-byte search: fast)
        table = _parse_single_delimiter(data, spec, delimiter, judgment_groups)
    if table is None:
        normalised = _normalise_whitespace(data)
        if normalised:
            table = _parse_single_delimiter(normalised, spec, b" ", judgment_groups)
    if table is None or _has_duplicate_pairs(table, judgment_groups):
        # The exact parser raises the precise error (line number, field), or reads what the
        # fast paths refused (extra columns after the run tag).
        table = _parse_exact(data, spec, name, judgment_groups)
    run_name = None
    if spec is _RUN:
        run_name = _last_run_tag(data)
    return _finish(table, spec, name, run_name)


def _first_data_line(data: bytes) -> bytes | None:
    for line in _iter_lines(data):
        stripped = line.strip()
        if stripped and not stripped.startswith(b"#"):
            return line
    return None


def _last_run_tag(data: bytes) -> str:
    """The tag of the last run line: trec_eval keeps only that one as the run name."""
    end = len(data)
    while end > 0:
        start = data.rfind(b"\n", 0, end) + 1
        parts = data[start:end].split()
        if parts and not parts[0].startswith(b"#"):
            return parts[5].decode("utf-8")
        end = start - 1
    raise AssertionError("unreachable: the run was parsed, so it has a data line")  # pragma: no cover


def _iter_lines(data: bytes):
    start = 0
    while start < len(data):
        end = data.find(b"\n", start)
        if end < 0:
            end = len(data)
        yield data[start:end]
        start = end + 1


_BLANKS = bytes.maketrans(b"\t\r\v\f", b"    ")
_MANY_SPACES = re.compile(rb" {2,}")
_COMMENT_LINES = re.compile(rb"(?m)^#[^\n]*(?:\n|\Z)")


def _normalise_whitespace(data: bytes) -> bytes:
    """One space between fields, none at line ends, comment lines dropped (line numbers shift)."""
    out = bytes(data).translate(_BLANKS)
    if b"  " in out:
        out = _MANY_SPACES.sub(b" ", out)
    out = out.replace(b"\n ", b"\n").replace(b" \n", b"\n").strip(b" ")
    if out.startswith(b"#") or b"\n#" in out:
        out = _COMMENT_LINES.sub(b"", out)
    return out


def _arrow_columns(spec: dict, judgment_groups: bool) -> tuple[list[str], dict, list[str]]:
    if spec is _QRELS:
        names = ["query_id", "group", "doc_id", "relevance"]
        types = {"query_id": pa.string(), "group": pa.string(), "doc_id": pa.string(), "relevance": pa.int64()}
        keep = ["query_id", "group", "doc_id", "relevance"] if judgment_groups else ["query_id", "doc_id", "relevance"]
    else:
        names = ["query_id", "q0", "doc_id", "rank", "score", "tag"]
        types = {"query_id": pa.string(), "doc_id": pa.string(), "score": pa.float64()}
        keep = ["query_id", "doc_id", "score"]
    return names, types, keep


def _parse_single_delimiter(data: bytes, spec: dict, delimiter: bytes, judgment_groups: bool) -> pa.Table | None:
    """pyarrow's multithreaded reader, strict: None as soon as anything is irregular."""
    names, types, keep = _arrow_columns(spec, judgment_groups)
    irregular = []

    def on_invalid_row(row):
        irregular.append(row.number)
        return "skip"

    try:
        table = pa_csv.read_csv(
            pa.BufferReader(pa.py_buffer(data)),
            read_options=pa_csv.ReadOptions(column_names=names, block_size=1 << 24),
            parse_options=pa_csv.ParseOptions(
                delimiter=delimiter.decode(), quote_char=False, escape_char=False, double_quote=False,
                newlines_in_values=False, ignore_empty_lines=True, invalid_row_handler=on_invalid_row,
            ),
            convert_options=pa_csv.ConvertOptions(
                column_types=types, include_columns=keep, strings_can_be_null=False,
                quoted_strings_can_be_null=False, null_values=[],
            ),
        )
    except (pa.ArrowInvalid, pa.ArrowTypeError, UnicodeDecodeError):
        return None
    if irregular or table.num_rows == 0:
        return None
    # An empty field comes from a blank at a line start or a doubled blank. Only the columns kept
    # are checked: a doubled blank standing in for a missing Q0 or rank field goes unnoticed
    # (trec_eval would stop), a leniency that cannot change the ids or numbers read.
    for column in ("query_id", "doc_id", "group"):
        if column in table.column_names and pc.any(pc.equal(table[column], "")).as_py():
            return None
    if pc.any(pc.starts_with(table["query_id"], "#")).as_py():
        return None  # a comment line with the right number of fields
    if spec is _RUN and pc.any(pc.is_nan(table["score"])).as_py():
        return None
    return table


def _parse_exact(data: bytes, spec: dict, name: str, judgment_groups: bool) -> pa.Table:
    """Line-by-line parser: slow, complete, and the source of every error message."""
    try:
        text = bytes(data).decode("utf-8")
    except UnicodeDecodeError as exc:
        line = _line_of_byte(data, exc.start)
        raise _error(name, line, "UTF-8 text", f"undecodable bytes (a binary file?)") from None
    fields = spec["fields"]
    n_fields = len(fields)
    is_run = spec is _RUN
    query_ids, groups, doc_ids, values = [], [], [], []
    seen: dict[tuple, int] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        # trec_eval splits on ASCII whitespace only; str.split() would also split on e.g. U+00A0.
        parts = line.split() if line.isascii() else [p for p in _ASCII_BLANKS.split(line) if p]
        if not parts or parts[0].startswith("#"):
            continue
        if len(parts) != n_fields and not (is_run and len(parts) > n_fields):
            raise _error(
                name, number, f"{n_fields} fields ({' '.join(fields)})",
                f"{len(parts)}: {_shorten(line)!r}{_swapped_hint(parts, is_run)}",
            )
        token = parts[4] if is_run else parts[3]
        if is_run:
            if not _FLOAT_TOKEN.match(token):
                raise _error(name, number, f"{spec['value_kind']} in field 5 ({spec['value_field']})", repr(token))
            value = float(token)
        else:
            if not _INT_TOKEN.match(token):
                raise _error(name, number, f"{spec['value_kind']} in field 4 ({spec['value_field']})", repr(token))
            value = int(token)
        key = (parts[0], parts[1], parts[2]) if judgment_groups else (parts[0], parts[2])
        previous = seen.setdefault(key, number)
        if previous != number:
            group = f" in judgment group {parts[1]!r}" if judgment_groups else ""
            raise _error(
                name, number, f"each docno at most once per query{group}",
                f"doc {parts[2]!r} of query {parts[0]!r} again (first on line {previous})",
            )
        query_ids.append(parts[0])
        groups.append(parts[1])
        doc_ids.append(parts[2])
        values.append(value)
    if not query_ids:
        raise _error(name, None, f"{spec['what']} lines ({' '.join(fields)})", f"{spec['empty']} (only blank or comment lines)")
    columns = {"query_id": pa.array(query_ids, pa.string())}
    if judgment_groups:
        columns["group"] = pa.array(groups, pa.string())
    columns["doc_id"] = pa.array(doc_ids, pa.string())
    if is_run:
        columns["score"] = pa.array(values, pa.float64())
    else:
        columns["relevance"] = pa.array(values, pa.int64())
    return pa.table(columns)


def _swapped_hint(parts: list[str], is_run: bool) -> str:
    """A qrels file given as a run, or the other way round, is a common slip: say so."""
    if is_run and len(parts) == 4 and _INT_TOKEN.match(parts[3]):
        return " (this looks like a qrels line: read it with read_qrels)"
    if not is_run and len(parts) >= 6 and parts[1].upper() == "Q0":
        return " (this looks like a run line: read it with read_run)"
    return ""


def _shorten(line: str, width: int = 80) -> str:
    line = line.rstrip("\r")
    return line if len(line) <= width else line[: width - 3] + "..."


# --------------------------------------------------------------------------------------------
# Duplicate (query, doc) pairs, without hashing millions of strings one Python object at a time


def _has_duplicate_pairs(table: pa.Table, judgment_groups: bool) -> bool:
    """True when some (query, [group,] doc) occurs twice.

    Queries (and groups) are few: their dictionary codes are exact. Documents are many: each
    gets a 64-bit fingerprint from its length and its first and last 8 bytes, read straight
    from the Arrow buffers. Rows sharing a key are then compared exactly, so a fingerprint
    collision costs time, never a wrong answer.
    """
    keys = ["query_id", "group", "doc_id"] if judgment_groups else ["query_id", "doc_id"]
    with np.errstate(over="ignore"):
        combined = _dictionary_codes(table["query_id"])
        if judgment_groups:
            combined = combined * _MIX_B + _dictionary_codes(table["group"])
        combined = combined * _MIX_A ^ _fingerprints(table["doc_id"])
    ordered = np.sort(combined)
    same = ordered[1:] == ordered[:-1]
    if not same.any():
        return False
    shared = np.unique(ordered[1:][same])
    rows = np.flatnonzero(np.isin(combined, shared))
    subset = table.select(keys).take(pa.array(rows)).to_pandas(types_mapper=_arrow_string_dtype)
    return bool(subset.duplicated().any())


def _dictionary_codes(column: pa.ChunkedArray) -> np.ndarray:
    """One integer per distinct value. Query ids come in long runs (a file is usually grouped by
    query), so encoding the runs and repeating their codes is cheaper than hashing every row."""
    runs = [pc.run_end_encode(chunk) for chunk in column.chunks if len(chunk)]
    if not runs:
        return np.zeros(0, dtype=np.uint64)
    encoded = pc.dictionary_encode(pa.chunked_array([run.values for run in runs]))  # one shared dictionary
    codes = np.concatenate([chunk.indices.to_numpy(zero_copy_only=False) for chunk in encoded.chunks])
    run_lengths = np.concatenate([np.diff(run.run_ends.to_numpy(), prepend=0) for run in runs])
    return np.repeat(codes.astype(np.uint64), run_lengths)


_MIX_A = np.uint64(0x9E3779B97F4A7C15)
_MIX_B = np.uint64(0xBF58476D1CE4E5B9)


def _fingerprints(column: pa.ChunkedArray) -> np.ndarray:
    if not (pa.types.is_string(column.type) or pa.types.is_large_string(column.type)):
        column = column.cast(pa.large_string())
    chunks = [chunk for chunk in column.chunks if len(chunk)]
    if len(column) > 1_000_000 and len(chunks) > 1 and (os.cpu_count() or 1) > 1:
        # numpy releases the GIL in these loops: one thread per core halves the wait on big runs.
        with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
            parts = list(pool.map(_chunk_fingerprints, chunks))
    else:
        parts = [_chunk_fingerprints(chunk) for chunk in chunks]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.uint64)


def _chunk_fingerprints(chunk: pa.Array) -> np.ndarray:
    offset_type = np.int64 if pa.types.is_large_string(chunk.type) else np.int32
    buffers = chunk.buffers()
    offsets = np.frombuffer(buffers[1], dtype=offset_type, count=len(chunk) + 1,
                            offset=chunk.offset * np.dtype(offset_type).itemsize)
    low, high = int(offsets[0]), int(offsets[-1])
    # 8 zero bytes on both sides so that every 8-byte window stays inside the buffer.
    padded = np.zeros(high - low + 16, dtype=np.uint8)
    if high > low:
        padded[8:8 + high - low] = np.frombuffer(buffers[2], dtype=np.uint8, count=high - low, offset=low)
    windows = np.ndarray(buffer=padded, dtype=np.uint64, shape=(padded.size - 7,), strides=(1,))
    positions = offsets[1:].astype(np.int64)
    lengths = positions - offsets[:-1]
    positions -= low
    last = windows[positions]  # the 8 bytes that end where the string ends
    # Little endian: a string shorter than 8 bytes is the high bytes of `last`; shift out the rest.
    shift = np.subtract(8, lengths)
    np.maximum(shift, 0, out=shift)
    shift <<= 3
    last >>= shift.view(np.uint64)  # numpy gives 0 for a shift by 64 (the empty string)
    positions -= lengths
    positions += 8
    first = windows[positions]  # the first 8 bytes; `last` already holds all of a short string
    first[lengths < 8] = 0
    with np.errstate(over="ignore"):
        first *= _MIX_A
        first ^= last
        first *= _MIX_B
        first += lengths.view(np.uint64)
    return first


# --------------------------------------------------------------------------------------------
# Tables: CSV/TSV, Parquet, DataFrame, pyarrow Table, dict


def _from_delimited(data: bytes, spec: dict, name: str, judgment_groups: bool, delimiter: str) -> pa.Table:
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
    return _from_table(table, spec, name, judgment_groups, first_line=2)


def _from_parquet(data: bytes, spec: dict, name: str, judgment_groups: bool) -> pa.Table:
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(pa.BufferReader(pa.py_buffer(data)))
    except (pa.ArrowInvalid, OSError) as exc:
        raise _error(name, None, "a readable Parquet file", str(exc).splitlines()[0]) from None
    return _from_table(table, spec, name, judgment_groups, first_line=1)


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


def _from_table(table: pa.Table, spec: dict, name: str, judgment_groups: bool, first_line: int) -> pa.Table:
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
    if _has_duplicate_pairs(result, judgment_groups):
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
        return column.cast(pa.string())
    if pa.types.is_string(kind) or pa.types.is_large_string(kind) or pa.types.is_string_view(kind):
        column = column.cast(pa.string()) if not pa.types.is_string(kind) else column
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


def _from_dict(source: dict, spec: dict, name: str) -> pa.Table:
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
    columns = {"query_id": pa.array(query_ids, pa.string()), "doc_id": pa.array(doc_ids, pa.string()),
               spec["value"]: value_array}
    table = pa.table(columns)
    if _has_duplicate_pairs(table, False):  # only possible when str() merges distinct keys, e.g. 1 and "1"
        _raise_duplicate(table, name, False, 1, "entry")
    return _finish(table, spec, name, None)
