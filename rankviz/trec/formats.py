"""What the TREC readers share: the two file formats, the column names tables may use, the error.

:mod:`rankviz.trec.readers` (TREC text) and :mod:`rankviz.trec.tables` (CSV/TSV, Parquet,
DataFrames, dicts) both import from here, and neither imports the other's internals: one
definition of what a qrels or run holds, of the names its columns go by and of the error that
names the source, the line and what was expected.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa

from rankviz.i18n import N_, _

__all__ = ["DOC_COLUMN_NAMES", "GROUP_COLUMN_NAMES", "QRELS_FORMAT", "QUERY_COLUMN_NAMES", "RELEVANCE_COLUMN_NAMES",
           "RUN_FORMAT", "RUN_NAME_COLUMN_NAMES", "SCORE_COLUMN_NAMES", "TrecFileFormat", "TrecFormatError",
           "format_error", "source_metadata", "with_source_metadata", "PYTHON_ADVICE"]


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
    looks_like : {"run", "qrels"} or None
        The line read looks like the other kind of file (a run given as qrels, or the other way
        round): the message ends with advice for a Python caller (``read it with read_run``);
        :meth:`with_advice` gives it in another audience's words (the command line's, the app's).
    """

    def __init__(self, message: str, *, path: str, line: int | None, expected: str, looks_like: str | None = None):
        self.base_message = message
        self.looks_like = looks_like
        super().__init__(self.with_advice(PYTHON_ADVICE))
        self.path = path
        self.line = line
        self.expected = expected

    def with_advice(self, advice: dict) -> str:
        """The message, with the advice for a swapped file taken from ``advice`` (``{"run": ...,
        "qrels": ...}``: what to do with a file that looks like a run, or like qrels).

        >>> error = format_error("qrels.txt", 1, "4 fields", "6", looks_like="run")
        >>> str(error)
        'qrels.txt line 1: expected 4 fields, got 6 (this looks like a run line: read it with read_run)'
        >>> error.with_advice({"run": "upload it under Run files", "qrels": "..."})
        'qrels.txt line 1: expected 4 fields, got 6 (this looks like a run line: upload it under Run files)'
        """
        if self.looks_like is None:
            return self.base_message
        return _("{message} (this looks like a {kind} line: {advice})").format(
            message=self.base_message, kind=self.looks_like, advice=advice[self.looks_like])


#: What :class:`TrecFormatError` advises a Python caller who gave a run as qrels or qrels as a run.
PYTHON_ADVICE = {"run": "read it with read_run", "qrels": "read it with read_qrels"}


# Names people give these columns in tables (matched case-insensitively), first match wins.
QUERY_COLUMN_NAMES = ("query_id", "qid", "query", "q_id", "topic", "topic_id", "query id")
DOC_COLUMN_NAMES = ("doc_id", "docno", "doc", "docid", "document", "document_id", "d_id", "pid", "passage_id")
RELEVANCE_COLUMN_NAMES = ("relevance", "rel", "label", "grade", "judgment", "judgement", "qrel")
SCORE_COLUMN_NAMES = ("score", "sim", "similarity", "rsv", "value")
RUN_NAME_COLUMN_NAMES = ("run_name", "run", "tag", "run_id", "system", "name")
GROUP_COLUMN_NAMES = ("group", "iteration", "iter", "jg", "judgment_group")


@dataclass(frozen=True)
class TrecFileFormat:
    """One of the two kinds of input (:data:`QRELS_FORMAT`, :data:`RUN_FORMAT`): its TREC fields,
    the value it carries and the words error messages use for it.

    Attributes
    ----------
    what : str
        ``"qrels"`` or ``"run"``: the word in messages, and the reader's name (``read_<what>``).
    fields : tuple of str
        The fields of one TREC line, in order (``qid iter docno rel``; ``qid Q0 docno rank score tag``).
    value : str
        The name of the value column of the table a reader returns (``relevance``, ``score``).
    value_field : str
        The name of the value's field in a TREC line (``rel``, ``score``).
    value_kind : str
        What a value must be, as messages say it ("an integer relevance grade").
    empty : str
        How messages describe an input without data ("no judgments").
    value_column_names : tuple of str
        The names a table's value column may have (:data:`RELEVANCE_COLUMN_NAMES`,
        :data:`SCORE_COLUMN_NAMES`).

    Examples
    --------
    >>> RUN_FORMAT.fields[4], QRELS_FORMAT.value
    ('score', 'relevance')
    """

    what: str
    fields: tuple[str, ...]
    value: str
    value_field: str
    value_kind: str
    empty: str
    value_column_names: tuple[str, ...]


QRELS_FORMAT = TrecFileFormat(what="qrels", fields=("qid", "iter", "docno", "rel"), value="relevance",
                              value_field="rel", value_kind=N_("an integer relevance grade"), empty=N_("no judgments"),
                              value_column_names=RELEVANCE_COLUMN_NAMES)
RUN_FORMAT = TrecFileFormat(what="run", fields=("qid", "Q0", "docno", "rank", "score", "tag"), value="score",
                            value_field="score", value_kind=N_("a numeric score"), empty=N_("no run lines"),
                            value_column_names=SCORE_COLUMN_NAMES)


def format_error(source: str, line: int | None, expected: str, got: str, *,
                 looks_like: str | None = None) -> TrecFormatError:
    """The :class:`TrecFormatError` every reader raises: ``"<source> line <n>: expected ..., got ..."``.

    Parameters
    ----------
    source : str
        The file name or ``"<text>"``, ``"<DataFrame>"``...
    line : int or None
        1-based line number; None when the problem is the whole input.
    expected, got : str
        What the reader expected, and what it found.
    looks_like : {"run", "qrels"} or None
        The line looks like the other kind of file (see :class:`TrecFormatError`).

    Examples
    --------
    >>> str(format_error("run.txt", 17, "6 fields", "4"))
    'run.txt line 17: expected 6 fields, got 4'
    """
    # In the language in force (the app's; the CLI and Python callers get English). The pieces
    # ``expected`` and ``got`` come translated from the readers.
    where = _("{source} line {line}").format(source=source, line=line) if line is not None else source
    message = _("{where}: expected {expected}, got {got}").format(where=where, expected=expected, got=got)
    return TrecFormatError(message, path=source, line=line, expected=expected, looks_like=looks_like)


def with_source_metadata(table: pa.Table, file_format: TrecFileFormat, source: str, run_name: str | None) -> pa.Table:
    """``table`` carrying where it was read from, its kind and (runs) the run's tag, in its
    schema metadata; :func:`source_metadata` turns them into the DataFrame's ``attrs``."""
    meta = {"rankviz.source": source, "rankviz.kind": file_format.what}
    if run_name is not None:
        meta["rankviz.run_name"] = run_name
    return table.replace_schema_metadata(meta)


def source_metadata(table: pa.Table) -> dict:
    """The ``attrs`` of the DataFrame read from ``table``: ``source``, and for a run ``run_name``
    (None when the input had no tag), from what :func:`with_source_metadata` stored.

    Examples
    --------
    >>> table = pa.table({"query_id": ["q1"]})
    >>> source_metadata(with_source_metadata(table, RUN_FORMAT, "<text>", None))
    {'source': '<text>', 'run_name': None}
    """
    meta = table.schema.metadata or {}
    attrs = {}
    if b"rankviz.source" in meta:
        attrs["source"] = meta[b"rankviz.source"].decode()
    if b"rankviz.run_name" in meta:
        attrs["run_name"] = meta[b"rankviz.run_name"].decode()
    elif b"rankviz.kind" in meta and meta[b"rankviz.kind"] == b"run":
        attrs["run_name"] = None
    return attrs
