"""Read TREC qrels and runs (and their CSV/TSV/Parquet/DataFrame/dict cousins) into tidy DataFrames.

Two public readers, :func:`read_qrels` and :func:`read_run`, accept a path, a ``.gz`` file, a file
object, bytes, the text itself, a CSV/TSV/Parquet file with named columns, a pandas DataFrame, a
pyarrow Table or the nested dicts pytrec_eval and ranx use. They return validated DataFrames whose
ids are strings (``"001"`` stays ``"001"``), stored as pyarrow-backed strings, never one Python
object per row.

Speed: a TREC file with one separator (a single space or a single tab between fields, the form
every toolkit writes) is parsed by pyarrow's multithreaded CSV reader, straight from the disk for
files over 1 MiB (no copy of the file in memory). Anything else (mixed or
repeated whitespace, ``#`` comment lines, extra columns, or an error) goes through a normalising
pass and, when that is not enough, through an exact line-by-line parser, which is also what
produces every error message, so errors always carry the true line number.

:func:`read_qrels_table` and :func:`read_run_table` read the same way and return a
:class:`TrecTable`: the DataFrame together with the integer keys of its ids that the duplicate
check computed, which :func:`rankviz.evaluate` reuses instead of hashing every docno again.
:func:`read_qrels_arrow` and :func:`read_run_arrow` return the pyarrow Table and those keys,
without pandas (what the command line evaluates from).

A big run file need not be held whole: :func:`open_run_stream` gives a :class:`RunStream`,
whose :meth:`~RunStream.blocks` are :class:`RunBlock` s of whole queries, read and parsed a
piece at a time on a thread of their own, every line checked as :func:`read_run` checks it
(a docno listed twice is named with both lines, whichever blocks hold them).

Tables (CSV/TSV/Parquet/DataFrame/dict) are handled in :mod:`rankviz.trec.tables`; the check for
a docno listed twice in a query, fast on millions of rows, is :mod:`rankviz.trec.duplicates`; the
two formats, the column names and :class:`TrecFormatError` are :mod:`rankviz.trec.formats`.
"""

from __future__ import annotations

import gzip
import mmap
import math
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv

if TYPE_CHECKING:  # pandas is imported where a frame is made: the eval command's path never needs it
    import pandas as pd

from rankviz.i18n import _
from rankviz.trec.duplicates import RowKeys, arrow_of, first_duplicate, has_duplicate_pairs, numpy_of, row_keys
from rankviz.trec.formats import (
    DOC_COLUMN_NAMES,
    QRELS_FORMAT,
    QUERY_COLUMN_NAMES,
    RUN_FORMAT,
    TrecFileFormat,
    TrecFormatError,
    format_error,
    source_metadata,
    with_source_metadata,
)

__all__ = ["RunBlock", "RunNotGrouped", "RunNotStreamable", "RunStream", "TrecFormatError", "TrecTable", "is_dataframe",
           "open_run_stream", "read_qrels", "read_qrels_arrow", "read_qrels_table", "read_run", "read_run_arrow",
           "read_run_table"]


_ASCII_BLANKS = re.compile(r"[ \t\r\v\f]+")
_INT_TOKEN = re.compile(r"[+-]?[0-9]+\Z")
_FLOAT_TOKEN = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?|inf|infinity)\Z",
                          re.IGNORECASE)


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
    table, _source = _read(source, QRELS_FORMAT, format=format, judgment_groups=judgment_groups)
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
    table, _source = _read(source, RUN_FORMAT, format=format, judgment_groups=False)
    return _to_pandas(table)


# --------------------------------------------------------------------------------------------
# The same, with what reading learned: for evaluate


@dataclass(frozen=True, eq=False)
class TrecTable:
    """A qrels or run as read, together with what reading it learned: the integer keys of its ids.

    :func:`read_qrels_table` and :func:`read_run_table` return it; :func:`rankviz.evaluate`
    (and :func:`rankviz.evaluation.ranking.prepare`) accept it wherever they accept a
    DataFrame. The duplicate check of a big TREC file computes a code per query id and a hash
    per docno (:func:`rankviz.trec.duplicates.row_keys`); evaluate needs the same keys to match
    run lines to judgments, and takes them from here instead of hashing every docno again (a
    few tenths of a second on a 5M-line run).

    Attributes
    ----------
    frame : pandas.DataFrame
        What :func:`read_qrels` / :func:`read_run` return for the same source.
    keys : RowKeys or None
        The :class:`~rankviz.trec.duplicates.RowKeys` of ``frame``'s query_id and doc_id
        columns as read; None when the reader did not compute them (tables, dicts, and TREC
        text the exact line-by-line parser read), and evaluate then computes its own.

    Notes
    -----
    Read the keys with :meth:`current_keys`: they describe the id columns as read, and a
    frame whose query_id or doc_id column was changed afterwards is evaluated from its ids,
    like any DataFrame. The check compares the columns with the ones read (Arrow's
    ``equals``: microseconds while they are the same buffers). A TrecTable equals only itself
    (DataFrames have no single truth value). Pickled (``st.cache_data`` does), the copy's keys
    describe the copy's own frame.

    Examples
    --------
    >>> run = read_run_table("q1 Q0 d1 1 2.5 bm25\\nq1 Q0 d2 2 1.0 bm25\\n")
    >>> run.frame["doc_id"].tolist(), run.keys.query_labels
    (['d1', 'd2'], ['q1'])
    >>> run.current_keys() is run.keys
    True
    >>> run.frame.loc[1, "doc_id"] = "d3"   # the keys no longer describe the frame
    >>> run.current_keys() is None
    True
    """

    frame: pd.DataFrame
    keys: RowKeys | None = None
    # The id columns the keys were computed from (they share the frame's buffers: no copy).
    _ids_read: tuple | None = field(default=None, init=False, repr=False)

    def __post_init__(self):
        if not is_dataframe(self.frame):
            raise TypeError(f"The 'frame' of a TrecTable must be a pandas DataFrame. Got {type(self.frame).__name__}.")
        if self.keys is not None and not isinstance(self.keys, RowKeys):
            raise TypeError(f"The 'keys' of a TrecTable must be RowKeys or None. Got {type(self.keys).__name__}.")
        if self.keys is not None:
            # evaluate may use the query codes as its own row -> query map: nobody may write
            # to them (the flag does not survive pickling, hence set again here).
            self.keys.query_codes.flags.writeable = False
            object.__setattr__(self, "_ids_read", _arrow_id_columns(self.frame))

    def current_keys(self) -> RowKeys | None:
        """:attr:`keys` while ``frame``'s query_id and doc_id columns hold the values they were
        computed from; None when there are none or the columns changed since."""
        if self.keys is None or self._ids_read is None:
            return None
        now = _arrow_id_columns(self.frame)
        if now is None or not all(a.equals(b) for a, b in zip(now, self._ids_read)):
            return None
        return self.keys

    def __reduce__(self):
        # Pickled without the columns kept for the check: the copy takes its own frame's.
        return (TrecTable, (self.frame, self.current_keys()))


def _arrow_id_columns(frame: pd.DataFrame) -> tuple[pa.ChunkedArray, pa.ChunkedArray] | None:
    """The Arrow arrays behind the frame's query_id and doc_id columns (shared, not copied);
    None when either is missing or not an Arrow-backed string column."""
    import pandas as pd

    arrays = []
    for name in ("query_id", "doc_id"):
        if name not in frame.columns:
            return None
        dtype = frame[name].dtype
        if not (isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow"):
            return None
        array = pa.array(frame[name].array)
        arrays.append(array if isinstance(array, pa.ChunkedArray) else pa.chunked_array([array]))
    return tuple(arrays)


def read_qrels_table(source, *, format: str = "auto", judgment_groups: bool = False) -> TrecTable:
    """:func:`read_qrels`, keeping what reading learned for :func:`rankviz.evaluate`.

    Parameters and errors are those of :func:`read_qrels`; ``.frame`` of the result equals what
    it returns. Pass the result (not its frame) to evaluate to spare it hashing the ids again:
    the command line and the app do, for files of millions of lines.

    Examples
    --------
    >>> qrels = read_qrels_table("q1 0 d1 2\\nq1 0 d2 0\\n")
    >>> qrels.frame["relevance"].tolist()
    [2, 0]
    """
    table, keys = _read(source, QRELS_FORMAT, format=format, judgment_groups=judgment_groups)
    return TrecTable(_to_pandas(table), keys)


def read_run_table(source, *, format: str = "auto") -> TrecTable:
    """:func:`read_run`, keeping what reading learned for :func:`rankviz.evaluate`.

    Parameters and errors are those of :func:`read_run`; ``.frame`` of the result equals what
    it returns (``.frame.attrs["run_name"]`` is the run's tag). See :class:`TrecTable`.

    Examples
    --------
    >>> run = read_run_table("q1 Q0 d1 1 2.5 bm25\\n")
    >>> run.frame.attrs["run_name"], run.keys is not None
    ('bm25', True)
    """
    table, keys = _read(source, RUN_FORMAT, format=format, judgment_groups=False)
    return TrecTable(_to_pandas(table), keys)


def is_dataframe(source) -> bool:
    """Whether ``source`` is a pandas DataFrame, without importing pandas: a DataFrame can only
    exist once something imported it (the command line evaluates TREC files without pandas)."""
    pd = sys.modules.get("pandas")
    return pd is not None and isinstance(source, pd.DataFrame)


def read_qrels_arrow(source, *, format: str = "auto") -> tuple[pa.Table, RowKeys | None]:
    """:func:`read_qrels` without pandas: the pyarrow Table (columns query_id, doc_id, relevance;
    the source's name in its schema metadata) and the keys of its ids when reading computed them.

    What the command line evaluates from, so that it never imports pandas; errors are those of
    :func:`read_qrels`.

    >>> table, keys = read_qrels_arrow("q1 0 d1 2\\nq1 0 d2 0\\n")
    >>> table.column_names, keys.query_labels
    (['query_id', 'doc_id', 'relevance'], ['q1'])
    """
    return _read(source, QRELS_FORMAT, format=format, judgment_groups=False)


def read_run_arrow(source, *, format: str = "auto") -> tuple[pa.Table, RowKeys | None]:
    """:func:`read_run` without pandas: the pyarrow Table (columns query_id, doc_id, score; the
    run's tag in its schema metadata, :func:`~rankviz.trec.formats.source_metadata`) and the
    keys of its ids when reading computed them. Errors are those of :func:`read_run`.

    >>> table, keys = read_run_arrow("q1 Q0 d1 1 2.5 bm25\\n")
    >>> table.num_rows, source_metadata(table)["run_name"]
    (1, 'bm25')
    """
    return _read(source, RUN_FORMAT, format=format, judgment_groups=False)


def _to_pandas(table: pa.Table) -> pd.DataFrame:
    # types_mapper keeps ids as pyarrow-backed strings (pandas' "str" dtype), not objects.
    df = table.to_pandas(types_mapper=_arrow_string_dtype)
    df.attrs.update(source_metadata(table))
    return df


def _arrow_string_dtype(arrow_type):
    import pandas as pd

    if pa.types.is_string(arrow_type) or pa.types.is_large_string(arrow_type):
        return pd.StringDtype("pyarrow", na_value=np.nan)
    return None


# --------------------------------------------------------------------------------------------
# Sources: what was given, and its bytes


def _read(source, spec: TrecFileFormat, *, format: str, judgment_groups: bool) -> tuple[pa.Table, RowKeys | None]:
    """The table read from ``source``, and the keys of its ids when the TREC path computed them."""
    func = f"read_{spec.what}"
    if format not in ("auto", "trec", "csv", "tsv", "parquet"):
        raise ValueError(
            f"The 'format' parameter of {func} must be one of 'auto', 'trec', 'csv', 'tsv', 'parquet'. "
            f"Got {format!r} instead."
        )
    if is_dataframe(source) or isinstance(source, (pa.Table, dict)):
        return _read_table(source, spec, judgment_groups), None
    if _is_path(source):
        path, name = _existing_file(source, func)
        if format in ("auto", "trec") and path.stat().st_size >= _LARGE_FILE:
            read = _read_large_trec_file(path, name, spec, format=format, judgment_groups=judgment_groups)
            if read is not None:
                return read
        data, suffixes = path.read_bytes(), [s.lower() for s in path.suffixes]
    else:
        data, name, suffixes = _source_bytes(source, func)
    return _read_bytes(data, name, suffixes, spec, format=format, judgment_groups=judgment_groups)


def _read_table(source, spec: TrecFileFormat, judgment_groups: bool) -> pa.Table:
    """A DataFrame, pyarrow Table or nested dict, checked as :mod:`rankviz.trec.tables` checks them."""
    from rankviz.trec.tables import from_dict, from_table  # pandas: loaded for tables only

    if is_dataframe(source):
        try:
            table = pa.Table.from_pandas(source, preserve_index=False)
        except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:  # e.g. a column mixing str and float
            raise format_error("<DataFrame>", None, "columns of one type each (ids: str or int; values: numbers)",
                         str(exc).splitlines()[0]) from None
        return from_table(table, spec, "<DataFrame>", judgment_groups, first_line=0)
    if isinstance(source, pa.Table):
        return from_table(source, spec, "<Table>", judgment_groups, first_line=0)
    return from_dict(source, spec, "<dict>")


def _read_bytes(data: bytes, name: str, suffixes: list[str], spec: TrecFileFormat, *, format: str,
                judgment_groups: bool) -> tuple[pa.Table, RowKeys | None]:
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as exc:
            raise format_error(name, None, "a readable gzip file", f"a damaged one ({exc})") from None
    kind = _detect_format(data, suffixes, format, spec)
    if kind == "parquet":
        from rankviz.trec.tables import from_parquet  # pandas: loaded for tables only

        return from_parquet(data, spec, name, judgment_groups), None
    _reject_binary(data, name, spec)
    if kind in ("csv", "tsv"):
        from rankviz.trec.tables import from_delimited

        return from_delimited(data, spec, name, judgment_groups, delimiter="," if kind == "csv" else "\t"), None
    return _from_trec(data, spec, name, judgment_groups)


def _source_bytes(source, func: str) -> tuple[bytes, str, list[str]]:
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), "<bytes>", []
    if isinstance(source, str) and (not source or "\n" in source or "\r" in source):
        return source.encode("utf-8"), "<text>", []
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


def _is_path(source) -> bool:
    """A ``str`` without a line break, or an ``os.PathLike``; a ``str`` with one is the text itself."""
    if isinstance(source, str):
        # "" is empty text (reported as an empty input), not the current directory.
        return bool(source) and "\n" not in source and "\r" not in source
    return isinstance(source, os.PathLike)


def _existing_file(source, func: str) -> tuple[Path, str]:
    path, name = Path(source), os.fspath(source)
    if not path.is_file():
        if path.is_dir():
            raise IsADirectoryError(f"{func}: {name!r} is a directory, not a file")
        raise FileNotFoundError(f"{func}: no such file: {name!r}")
    return path, name


# Files at least this big are parsed by pyarrow straight from the disk when they are regular
# (no copy of the file in memory: a 5M-line run is 200-300 MB); smaller ones are read whole.
_LARGE_FILE = 1 << 20
_SCAN_CHUNK = 1 << 24


def _read_large_trec_file(path: Path, name: str, spec: TrecFileFormat, *, format: str, judgment_groups: bool):
    """The fast path for a big regular TREC file: (table, keys of its ids), or None to fall back
    to reading it whole.

    One pass over the file in 16 MB chunks looks for NUL bytes (binary) and for the blank that
    is not the separator; only a plain text file with one kind of separator is handed to
    pyarrow, which reads it from the disk with all cores.
    """
    delimiter = _plain_trec_delimiter(path, spec, format)
    if delimiter is None:
        return None
    parsed = _parse_fast(str(path), spec, delimiter, judgment_groups)
    if parsed is None:
        return None
    table, keys = parsed
    run_name = _last_run_tag(_tail(path)) if spec is RUN_FORMAT else None
    return with_source_metadata(table, spec, name, run_name), keys


def _plain_trec_delimiter(path: Path, spec: TrecFileFormat, format: str, *, scan: bool = True) -> bytes | None:
    """The separator of a TREC file holding plain text with one kind of blank between fields
    (what pyarrow may read straight from the disk); None for anything else (compressed, a
    table, binary, mixed blanks, no data line). ``scan=False`` looks at the file's start only
    (the caller scans the rest: :func:`_only_text_and`)."""
    with open(path, "rb") as handle:
        head = handle.read(1 << 16)
    suffixes = [s.lower() for s in path.suffixes]
    if head[:2] == b"\x1f\x8b" or _detect_format(head, suffixes, format, spec) != "trec":
        return None
    first_line = _first_data_line(head.rsplit(b"\n", 1)[0] if len(head) == 1 << 16 else head)
    if first_line is None:
        return None
    delimiter, other = (b"\t", b" ") if b"\t" in first_line else (b" ", b"\t")
    return delimiter if not scan or _only_text_and(path, delimiter, other) else None


def _parse_fast(data, spec: TrecFileFormat, delimiter: bytes, judgment_groups: bool) -> tuple[pa.Table, RowKeys] | None:
    """(table, keys of its ids) from pyarrow's reader when the input is regular and has no
    duplicate (query, docno); None otherwise, and the exact parser then names the problem."""
    table = _parse_single_delimiter(data, spec, delimiter, judgment_groups)
    if table is None:
        return None
    keys = row_keys(table)
    # Checked on the distinct query ids (a few thousand), not on every line: an empty one
    # comes from a blank at a line start, and one starting with "#" is a comment line that
    # happens to have the right number of fields.
    if any(not label or label.startswith("#") for label in keys.query_labels):
        return None
    if has_duplicate_pairs(table, judgment_groups, keys):
        return None
    return table, keys


def _only_text_and(path: Path, delimiter: bytes, other: bytes) -> bool:
    """True when the file holds no NUL byte and no ``other`` blank.

    The file is memory-mapped and searched window by window; each window is dropped from
    memory once searched (``MADV_DONTNEED``), so the scan neither copies the file nor keeps it
    resident. Where madvise is missing, chunks are read into one reused buffer instead.
    """
    if not hasattr(mmap, "MADV_DONTNEED"):  # pragma: no cover - not Linux/macOS
        buffer = bytearray(_SCAN_CHUNK)
        with open(path, "rb", buffering=0) as handle:
            while size := handle.readinto(buffer):
                if buffer.find(b"\x00", 0, size) >= 0 or buffer.find(other, 0, size) >= 0:
                    return False
        return True
    with open(path, "rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
        size = len(mapped)
        for start in range(0, size, _SCAN_CHUNK):
            end = min(size, start + _SCAN_CHUNK)
            if mapped.find(b"\x00", start, end) >= 0 or mapped.find(other, start, end) >= 0:
                return False
            aligned = start - start % mmap.PAGESIZE
            mapped.madvise(mmap.MADV_DONTNEED, aligned, end - aligned)
    return True


def _tail(path: Path) -> bytes:
    """The end of the file, from a line start, long enough to hold its last data line."""
    size = path.stat().st_size
    with open(path, "rb") as handle:
        for length in (1 << 16, 1 << 22, size):
            handle.seek(max(0, size - length))
            data = handle.read()
            if length < size:
                data = data[data.find(b"\n") + 1:]
            if _first_data_line(data) is not None:
                return data
    return data  # pragma: no cover - the file was parsed, so it has a data line


def _detect_format(data: bytes, suffixes: list[str], format: str, spec: TrecFileFormat) -> str:
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
        if len(names) > 1 and any(n in QUERY_COLUMN_NAMES for n in names) and any(n in DOC_COLUMN_NAMES for n in names):
            return kind
    return "trec"


def _reject_binary(data: bytes, name: str, spec: TrecFileFormat) -> None:
    nul = data.find(b"\x00")
    if nul >= 0:
        line = _line_of_byte(data, nul)
        raise format_error(name, line, f"a text {spec.what} file", "a binary file (NUL byte)")


def _line_of_byte(data: bytes, position: int) -> int:
    return data.count(b"\n", 0, position) + 1


# --------------------------------------------------------------------------------------------
# A big run file in blocks of whole queries: evaluate reads it in bounded memory


class RunNotStreamable(Exception):
    """The run file is not plain, regular TREC text (a comment line, an extra field, a score
    that is not a finite number...): read it whole instead, and the exact parser names what is
    wrong, with its line."""


class RunNotGrouped(Exception):
    """A query's lines are not all in one stretch of the file: blocks of whole queries then come
    from :meth:`RunStream.blocks` with ``grouped=False``."""


@dataclass(frozen=True, eq=False)
class RunBlock:
    """The lines of some queries of a run file: every line of each query it holds, in file order.

    Attributes
    ----------
    keys : RowKeys
        The block's :func:`~rankviz.trec.duplicates.row_keys`: its queries numbered in order of
        first appearance (``query_codes``, ``query_labels``), the docnos'
        :func:`~rankviz.trec.duplicates.content_hashes`.
    doc_id : pyarrow.ChunkedArray
        The docnos (strings).
    score : ndarray of float64
        The scores (all finite).
    """

    keys: RowKeys
    doc_id: pa.ChunkedArray
    score: np.ndarray


#: Bytes of parsed run lines per block (about 8 MB of text: ~150,000 lines of a ClueWeb run).
RUN_BLOCK_BYTES = 8 << 20
# Bytes of run text read and parsed at a time (pyarrow's working memory is a few times this).
_READ_BLOCK = 4 << 20
# The lines of an ungrouped run are spread over at most this many temporary files.
_MAX_BUCKETS = 256


@dataclass(frozen=True)
class RunStream:
    """A run file that can be read in blocks of whole queries (:func:`open_run_stream`).

    Attributes
    ----------
    path : Path
    name : str
        The file as messages name it.
    delimiter : bytes
        The one blank between fields.
    """

    path: Path
    name: str
    delimiter: bytes

    @property
    def run_name(self) -> str:
        """The tag of the file's last line (trec_eval keeps only that one); ask once the blocks
        were read (a file that is not plain TREC text may have no tag to give)."""
        return _last_run_tag(_tail(self.path))

    def blocks(self, block_bytes: int | None = None, *, grouped: bool = True):
        """The run as :class:`RunBlock` s of whole queries, each about ``block_bytes`` of parsed
        lines (default :data:`RUN_BLOCK_BYTES`; one query longer than that is one block).

        ``grouped=True`` reads the file once, in order, and cuts it where a query ends; it raises
        :class:`RunNotGrouped` as soon as a query's lines turn out to be in two places (blocks
        already given out then hold part of a query: start again with ``grouped=False``).
        ``grouped=False`` deals the lines out by query into temporary files (one per block)
        and reads each back as a block. Both check every line as :func:`read_run` does: a docno
        listed twice for a query raises :class:`TrecFormatError` naming both lines, the first
        repeat in the file, whichever blocks hold them; anything else irregular raises
        :class:`RunNotStreamable`.
        """
        block_bytes = block_bytes or RUN_BLOCK_BYTES
        if grouped:
            return _ReadAhead(self._grouped_blocks(block_bytes))
        return _ReadAhead(self._bucketed_blocks(block_bytes))

    def _tables(self):
        """Tables of (query_id, doc_id, score), in file order, each checked.

        The file is read ``_READ_BLOCK`` bytes at a time, cut after its last whole line, and
        each piece parsed by pyarrow's multithreaded reader: both cores parse (its streaming
        reader parses on one), and only a piece of text is in memory at a time."""
        options, irregular = _strict_csv_options(RUN_FORMAT, False, self.delimiter, min(_READ_BLOCK, 1 << 20))
        try:
            for text in self._pieces(_READ_BLOCK):
                lines = pa_csv.read_csv(pa.BufferReader(text), **options)
                if irregular or _has_empty_string(lines["doc_id"]) or not pc.all(pc.is_finite(lines["score"])).as_py():
                    raise RunNotStreamable(self.name)
                yield lines
        except (pa.ArrowInvalid, pa.ArrowTypeError, UnicodeDecodeError):
            raise RunNotStreamable(self.name) from None

    def _pieces(self, size: int):
        """The file's text about ``size`` bytes at a time, each piece ending with a whole line (a
        line longer than ``size`` makes a longer piece); RunNotStreamable at a NUL byte (a
        binary file) or a blank other than the separator (the exact parser splits at both).

        One buffer is read into again and again (a piece is valid until the next is asked for:
        pyarrow copies what it parses), so reading allocates nothing per piece."""
        other = b"\t" if self.delimiter == b" " else b" "
        buffer = bytearray(2 * size)
        start = 0  # the unfinished line of the piece before, moved to the buffer's start
        with open(self.path, "rb", buffering=0) as handle:
            while True:
                if len(buffer) - start < size:  # a line longer than a piece: a bigger buffer
                    buffer = buffer[:start] + bytearray(len(buffer) + size - start)
                read = handle.readinto(memoryview(buffer)[start:start + size])
                end = start + read
                if buffer.find(b"\x00", start, end) >= 0 or buffer.find(other, start, end) >= 0:
                    raise RunNotStreamable(self.name)
                cut = end if read == 0 else buffer.rfind(b"\n", 0, end) + 1
                if cut:
                    yield pa.py_buffer(memoryview(buffer)[:cut])
                if read == 0:
                    return
                buffer[:end - cut] = buffer[cut:end]
                start = end - cut

    def _grouped_blocks(self, block_bytes: int):
        finished: set[str] = set()
        current = None  # the query whose lines the file is reading
        pending: list[pa.RecordBatch] = []  # lines read and not yet given out
        pending_rows = pending_bytes = 0
        current_start = 0  # where `current` starts in pending
        first_row = 0  # data line (0-based) of pending's first row
        for batch in (batch for lines in self._tables() for batch in lines.to_batches()):
            labels, starts = _query_runs(batch.column(0))
            for label, start in zip(labels, starts):
                if label == current:  # the query of the previous batch goes on
                    continue
                if not label or label.startswith("#"):
                    raise RunNotStreamable(self.name)  # a comment line with six fields, or a leading blank
                if label in finished:
                    raise RunNotGrouped(self.name)
                if current is not None:
                    finished.add(current)
                current, current_start = label, pending_rows + start
            pending.append(batch)
            pending_rows += batch.num_rows
            pending_bytes += batch.nbytes
            if pending_bytes >= block_bytes and current_start > 0:
                lines = pa.Table.from_batches(pending)
                yield self._block(lines.slice(0, current_start), first_row)
                rest = lines.slice(current_start)
                pending, first_row = rest.to_batches(), first_row + current_start
                pending_rows, pending_bytes, current_start = rest.num_rows, rest.nbytes, 0
        if pending_rows:
            yield self._block(pa.Table.from_batches(pending), first_row)

    def _block(self, lines: pa.Table, first_row: int) -> RunBlock:
        """A checked block; ``first_row``: the data line of its first row."""
        block, repeated = _checked_block(lines)
        if repeated is not None:
            raise self._duplicate(lines, repeated, first_row)
        return block

    def _duplicate(self, lines: pa.Table, repeated: tuple[int, int], first_row) -> TrecFormatError:
        first, again = repeated
        if isinstance(first_row, np.ndarray):
            rows = [int(first_row[first]), int(first_row[again])]
        else:
            rows = [first_row + first, first_row + again]
        line_numbers = _data_line_numbers(self.path, rows)
        return _duplicate_error(self.name, line_numbers[1], line_numbers[0], lines["query_id"][again].as_py(),
                                lines["doc_id"][again].as_py())

    def _bucketed_blocks(self, block_bytes: int):
        import tempfile

        size = self.path.stat().st_size
        n_buckets = int(min(_MAX_BUCKETS, max(1, -(-size // block_bytes))))
        bucket_of: dict[str, int] = {}
        with tempfile.TemporaryDirectory(prefix="rankviz-run-") as folder:
            writers: dict[int, pa.ipc.RecordBatchStreamWriter] = {}
            row = 0
            try:
                for lines in self._tables():
                    if not lines.num_rows:
                        continue
                    # Each distinct query of the piece looked up once (a shuffled run changes
                    # query at every line); queries dealt out in turn as they first appear.
                    batch = lines.combine_chunks().to_batches()[0]
                    encoded = pc.dictionary_encode(batch.column(0))
                    labels = encoded.dictionary.to_pylist()
                    if any(not label or label.startswith("#") for label in labels):
                        raise RunNotStreamable(self.name)
                    label_bucket = np.fromiter((bucket_of.setdefault(label, len(bucket_of) % n_buckets)
                                                for label in labels), dtype=np.int64, count=len(labels))
                    row_bucket = label_bucket[numpy_of(encoded.indices)]
                    rows = np.arange(row, row + batch.num_rows, dtype=np.int64)
                    row += batch.num_rows
                    batch = pa.RecordBatch.from_arrays(batch.columns + [arrow_of(rows)],
                                                       names=batch.schema.names + ["row"])
                    order = np.argsort(row_bucket, kind="stable")
                    cuts = np.flatnonzero(np.diff(row_bucket[order])) + 1
                    for part in np.split(order, cuts):
                        bucket = int(row_bucket[part[0]])
                        if bucket not in writers:
                            writers[bucket] = pa.ipc.new_stream(os.path.join(folder, f"{bucket}.arrow"), batch.schema)
                        writers[bucket].write_batch(batch.take(arrow_of(part)))
            finally:
                for writer in writers.values():
                    writer.close()
            earliest = None  # (again, first) rows of the first repeat in the file, over all buckets
            for bucket in sorted(writers):
                with pa.OSFile(os.path.join(folder, f"{bucket}.arrow")) as source:
                    lines = pa.ipc.open_stream(source).read_all()
                rows = numpy_of(lines["row"])
                block, repeated = _checked_block(lines.drop_columns(["row"]))
                if repeated is not None:
                    if earliest is None or rows[repeated[1]] < earliest[2][earliest[1][1]]:
                        earliest = (lines, repeated, rows)
                elif earliest is None:
                    yield block
                del lines, block
            if earliest is not None:
                raise self._duplicate(*earliest)


class _ReadAhead:
    """The items of the generator ``items``, produced on a thread of their own, started at once,
    up to ``depth`` ahead of the caller: pyarrow parses the next lines (and numpy hashes them)
    on one core while the caller evaluates the block before (or indexes the qrels) on the other.
    An exception of the producer is raised where its item would have come; a caller that stops
    early (:meth:`close`, or dropping the iterator) stops the producer."""

    _DONE = object()

    def __init__(self, items, depth: int = 3):
        import queue
        import threading

        self._ready = queue.Queue(maxsize=depth)
        self._stop = threading.Event()
        self._finished = False
        # The thread holds the queue and the event, not this object: dropping it stops the thread.
        self._producer = threading.Thread(target=_produce, args=(items, self._ready, self._stop),
                                          name="rankviz-run-reader", daemon=True)
        self._producer.start()

    def __iter__(self):
        return self

    def __next__(self):
        if self._finished:
            raise StopIteration
        item, error = self._ready.get()
        if item is _ReadAhead._DONE:
            self.close()
            if error is not None:
                raise error
            raise StopIteration
        return item

    def close(self) -> None:
        """Stop the producer and wait for it (it finishes the piece it is parsing)."""
        self._finished = True
        self._stop.set()
        self._producer.join()

    def __del__(self):
        self._stop.set()


def _produce(items, ready, stop) -> None:
    """The producer of :class:`_ReadAhead`: each item of ``items``, then an end mark (with the
    exception that ended it, if any), put into ``ready`` until ``stop`` is set."""
    import queue

    def offer(item) -> bool:
        while not stop.is_set():
            try:
                ready.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    try:
        for item in items:
            if not offer((item, None)):
                return
        offer((_ReadAhead._DONE, None))
    except BaseException as error:  # handed to the caller, raised there
        offer((_ReadAhead._DONE, error))
    finally:
        items.close()


def _checked_block(lines: pa.Table) -> tuple[RunBlock | None, tuple[int, int] | None]:
    """The block of ``lines`` and None, or None and the rows (first, again) of the first docno
    listed twice for a query."""
    keys = row_keys(lines)
    repeated = first_duplicate(keys.pair_keys, [keys.query_codes, lines["doc_id"]])
    if repeated is not None:
        return None, repeated
    return RunBlock(keys, lines["doc_id"], numpy_of(lines["score"])), None


def open_run_stream(source) -> RunStream | None:
    """A :class:`RunStream` of ``source`` when it is the path of a big plain TREC run file
    (at least 1 MiB of text, one kind of blank between fields, not compressed); None for
    anything else, which :func:`read_run_table` reads whole.

    Raises FileNotFoundError or IsADirectoryError as :func:`read_run` does.
    """
    if not _is_path(source):
        return None
    path, name = _existing_file(source, "read_run")
    if path.stat().st_size < _LARGE_FILE:
        return None
    delimiter = _plain_trec_delimiter(path, RUN_FORMAT, "auto", scan=False)  # the blocks scan the rest
    if delimiter is None:
        return None
    return RunStream(path, name, delimiter)


def _query_runs(column: pa.Array) -> tuple[list[str], np.ndarray]:
    """The query id of each stretch of equal ids in ``column`` and the row where it starts."""
    runs = pc.run_end_encode(column)
    ends = numpy_of(runs.run_ends)
    return runs.values.to_pylist(), np.concatenate(([0], ends[:-1])).astype(np.int64)


def _data_line_numbers(path: Path, rows: list[int]) -> list[int]:
    """The 1-based line number of each data row (0-based, in file order; blank lines, which
    pyarrow skips, are not rows)."""
    with open(path, "rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
        if mapped.find(b"\n\n") < 0 and mapped.find(b"\n\r\n") < 0 and mapped[:1] not in (b"\n", b"\r"):
            return [row + 1 for row in rows]  # no blank line: row r is line r + 1
        data = np.frombuffer(mapped, dtype=np.uint8)
        try:
            ends = np.flatnonzero(data == ord("\n"))
            starts = np.concatenate(([0], ends + 1))
            stops = np.append(ends, data.size)
            blank = (stops == starts) | ((stops == starts + 1) & (data[np.minimum(starts, data.size - 1)] == ord("\r")))
            data_lines = np.flatnonzero(~blank)
            return [int(data_lines[row]) + 1 for row in rows]
        finally:
            del data


# --------------------------------------------------------------------------------------------
# TREC text: fast pyarrow path, normalising path, exact line-by-line path


def _from_trec(data: bytes, spec: TrecFileFormat, name: str, judgment_groups: bool) -> tuple[pa.Table, RowKeys | None]:
    first_line = _first_data_line(data)
    if first_line is None:
        raise format_error(name, None, f"{spec.what} lines ({' '.join(spec.fields)})", f"{spec.empty} (empty input)")
    delimiter, other = (b"\t", b" ") if b"\t" in first_line else (b" ", b"\t")
    parsed = None
    if data.find(other) < 0:  # one kind of blank only (a single-byte search: fast)
        parsed = _parse_fast(data, spec, delimiter, judgment_groups)
    if parsed is None:
        normalised = _normalise_whitespace(data)
        if normalised:
            parsed = _parse_fast(normalised, spec, b" ", judgment_groups)
    if parsed is None:
        # The exact parser raises the precise error (line number, field), or reads what the
        # fast paths refused (extra columns after the run tag).
        table, keys = _parse_exact(data, spec, name, judgment_groups), None
    else:
        table, keys = parsed
    run_name = None
    if spec is RUN_FORMAT:
        run_name = _last_run_tag(data)
    return with_source_metadata(table, spec, name, run_name), keys


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
    out = data.translate(_BLANKS)
    if b"  " in out:
        out = _MANY_SPACES.sub(b" ", out)
    out = out.replace(b"\n ", b"\n").replace(b" \n", b"\n").strip(b" ")
    if out.startswith(b"#") or b"\n#" in out:
        out = _COMMENT_LINES.sub(b"", out)
    return out


# Ids are parsed as large_string, the layout of pandas' "str" dtype, so that handing the table
# to pandas copies nothing.
_ID = pa.large_string()


def _arrow_columns(spec: TrecFileFormat, judgment_groups: bool) -> tuple[list[str], dict, list[str]]:
    if spec is QRELS_FORMAT:
        names = ["query_id", "group", "doc_id", "relevance"]
        types = {"query_id": _ID, "group": _ID, "doc_id": _ID, "relevance": pa.int64()}
        keep = ["query_id", "group", "doc_id", "relevance"] if judgment_groups else ["query_id", "doc_id", "relevance"]
    else:
        names = ["query_id", "q0", "doc_id", "rank", "score", "tag"]
        types = {"query_id": _ID, "doc_id": _ID, "score": pa.float64()}
        keep = ["query_id", "doc_id", "score"]
    return names, types, keep


def _strict_csv_options(spec: TrecFileFormat, judgment_groups: bool, delimiter: bytes, block_size: int) -> tuple:
    """(keywords of pyarrow's ``read_csv``/``open_csv``, list of irregular rows): pyarrow's CSV
    reader as a strict TREC reader, one blank between fields, no quoting, the columns kept
    typed; a row with another number of fields is skipped and its number noted in the list."""
    names, types, keep = _arrow_columns(spec, judgment_groups)
    irregular = []

    def on_invalid_row(row):
        irregular.append(row.number)
        return "skip"

    return {
        "read_options": pa_csv.ReadOptions(column_names=names, block_size=block_size),
        "parse_options": pa_csv.ParseOptions(delimiter=delimiter.decode(), quote_char=False, escape_char=False,
                                             double_quote=False, newlines_in_values=False, ignore_empty_lines=True,
                                             invalid_row_handler=on_invalid_row),
        "convert_options": pa_csv.ConvertOptions(column_types=types, include_columns=keep, strings_can_be_null=False,
                                                 quoted_strings_can_be_null=False, null_values=[]),
    }, irregular


def _parse_single_delimiter(data, spec: TrecFileFormat, delimiter: bytes, judgment_groups: bool) -> pa.Table | None:
    """pyarrow's multithreaded reader, strict: None as soon as anything is irregular.

    ``data`` is the bytes, or the path of a file that pyarrow reads itself.
    """
    # Judgments in 1 MiB blocks: pyarrow's working memory is a few dozen times its block, and a
    # qrels is parsed in a few hundredths of a second either way (a whole run in 16 MiB ones, faster).
    options, irregular = _strict_csv_options(spec, judgment_groups, delimiter, 1 << (20 if spec is QRELS_FORMAT else 24))
    try:
        table = pa_csv.read_csv(data if isinstance(data, str) else pa.BufferReader(pa.py_buffer(data)), **options)
    except (pa.ArrowInvalid, pa.ArrowTypeError, UnicodeDecodeError):
        return None
    if irregular or table.num_rows == 0:
        return None
    # An empty field comes from a blank at a line start or a doubled blank. Only the columns kept
    # are checked (query ids by _parse_fast): a doubled blank standing in for a missing Q0 or
    # rank field goes unnoticed (trec_eval would stop), a leniency that cannot change the ids
    # or numbers read.
    for column in ("doc_id", "group"):
        if column in table.column_names and _has_empty_string(table[column]):
            return None
    if spec is RUN_FORMAT and not pc.all(pc.is_finite(table["score"])).as_py():
        return None  # nan or inf: the exact parser names the line
    return table


def _has_empty_string(column) -> bool:
    """Whether a string column holds "" (a blank at a line start, or two blanks in a row)."""
    return (pc.min(pc.binary_length(column)).as_py() or 0) == 0


def _parse_exact(data: bytes, spec: TrecFileFormat, name: str, judgment_groups: bool) -> pa.Table:
    """Line-by-line parser: slow, complete, and the source of every error message."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = _line_of_byte(data, exc.start)
        raise format_error(name, line, _("UTF-8 text"), _("undecodable bytes (a binary file?)")) from None
    fields = spec.fields
    n_fields = len(fields)
    is_run = spec is RUN_FORMAT
    query_ids, groups, doc_ids, values = [], [], [], []
    seen: dict[tuple, int] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        # trec_eval splits on ASCII whitespace only; str.split() would also split on e.g. U+00A0.
        parts = line.split() if line.isascii() else [p for p in _ASCII_BLANKS.split(line) if p]
        if not parts or parts[0].startswith("#"):
            continue
        if len(parts) != n_fields and not (is_run and len(parts) > n_fields):
            raise format_error(
                name, number, _("{n} fields ({names})").format(n=n_fields, names=" ".join(fields)),
                f"{len(parts)}: {_shorten(line)!r}", looks_like=_looks_swapped(parts, is_run),
            )
        token = parts[4] if is_run else parts[3]
        if is_run:
            if not _FLOAT_TOKEN.match(token):
                raise format_error(name, number, _in_field(spec, 5), repr(token))
            value = float(token)
            if not math.isfinite(value):
                raise format_error(name, number, _("{what} that is finite").format(what=_in_field(spec, 5)),
                                   repr(token))
        else:
            if not _INT_TOKEN.match(token):
                raise format_error(name, number, _in_field(spec, 4), repr(token))
            value = int(token)
            if not -(2**63) <= value < 2**63:
                raise format_error(name, number, _("{what} between -2^63 and 2^63 - 1").format(
                    what=_in_field(spec, 4)), repr(token))
        key = (parts[0], parts[1], parts[2]) if judgment_groups else (parts[0], parts[2])
        previous = seen.setdefault(key, number)
        if previous != number:
            raise _duplicate_error(name, number, previous, parts[0], parts[2], parts[1] if judgment_groups else None)
        query_ids.append(parts[0])
        groups.append(parts[1])
        doc_ids.append(parts[2])
        values.append(value)
    if not query_ids:
        raise format_error(name, None, _("{kind} lines ({names})").format(kind=spec.what, names=" ".join(fields)),
                           _("{nothing} (only blank or comment lines)").format(nothing=_(spec.empty)))
    columns = {"query_id": pa.array(query_ids, _ID)}
    if judgment_groups:
        columns["group"] = pa.array(groups, _ID)
    columns["doc_id"] = pa.array(doc_ids, _ID)
    if is_run:
        columns["score"] = pa.array(values, pa.float64())
    else:
        columns["relevance"] = pa.array(values, pa.int64())
    return pa.table(columns)


def _duplicate_error(name: str, line: int, first_line: int, query_id: str, doc_id: str,
                     group: str | None = None) -> TrecFormatError:
    """The error of a docno listed twice for a query (line ``line`` repeats line ``first_line``)."""
    if group is None:
        expected = _("each docno at most once per query")
    else:
        expected = _("each docno at most once per query in judgment group {group}").format(group=repr(group))
    return format_error(name, line, expected, _("doc {doc} of query {query} again (first on line {first})").format(
        doc=repr(doc_id), query=repr(query_id), first=first_line))


def _in_field(spec: TrecFileFormat, field: int) -> str:
    """``"an integer relevance grade in field 4 (rel)"`` in the language in force."""
    return _("{kind} in field {number} ({name})").format(kind=_(spec.value_kind), number=field, name=spec.value_field)


def _looks_swapped(parts: list[str], is_run: bool) -> str | None:
    """A qrels file given as a run, or the other way round, is a common slip: "qrels" or "run"
    when the line looks like the other kind (the error then says so, see TrecFormatError)."""
    if is_run and len(parts) == 4 and _INT_TOKEN.match(parts[3]):
        return "qrels"
    if not is_run and len(parts) >= 6 and parts[1].upper() == "Q0":
        return "run"
    return None


def _shorten(line: str, width: int = 80) -> str:
    line = line.rstrip("\r")
    return line if len(line) <= width else line[: width - 3] + "..."
