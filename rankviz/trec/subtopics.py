"""Subtopic (intent-aware) qrels, as the TREC Web track's ``ndeval`` reads them.

A subtopic qrels file judges each document once per subtopic (intent, aspect, nugget) of a
topic: one line ``topic subtopic docno judgment``, separated by blanks. It is the input of the
diversity measures (alpha-nDCG, ERR-IA, NRBP, P-IA, subtopic recall...: ``evaluate(...,
qrels_format="subtopics")``). A document relevant to two subtopics has two lines; a document
judged non-relevant to every subtopic has lines with judgment 0 (it is then *judged*, which
matters for ``judged_only``).

:func:`read_subtopic_qrels` accepts a path, a file object, bytes, the text itself or a
DataFrame, and raises a :class:`~rankviz.trec.formats.TrecFormatError` naming the file, the line
and what was expected there.

References
----------
ndeval 4.5 (29 Apr 2013), the TREC Web track's diversity evaluation program (C. L. A. Clarke),
its qrels reader; the same source is inside the pyndeval package on PyPI.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rankviz.trec.fields import FieldsFormat, read_fields, source_text
from rankviz.trec.formats import DOC_COLUMN_NAMES, QUERY_COLUMN_NAMES, RELEVANCE_COLUMN_NAMES, format_error

__all__ = ["SUBTOPIC_COLUMN_NAMES", "SUBTOPIC_QRELS_COLUMNS", "read_subtopic_qrels"]

SUBTOPIC_QRELS_COLUMNS = ("query_id", "subtopic", "doc_id", "relevance")
#: Names a table's subtopic column may have (ir_measures keeps it in ``iteration``).
SUBTOPIC_COLUMN_NAMES = ("subtopic", "subtopic_id", "intent", "aspect", "iteration", "iter")

SUBTOPIC_QRELS_FORMAT = FieldsFormat("subtopic qrels", ("topic", "subtopic", "docno", "judgment"),
                                     SUBTOPIC_QRELS_COLUMNS, ("relevance",), "no judgments")


def read_subtopic_qrels(source) -> pd.DataFrame:
    """Read subtopic qrels (``topic subtopic docno judgment`` per line) into a DataFrame.

    Parameters
    ----------
    source : path, file object, bytes, str or DataFrame
        A path, an open file, bytes, the text itself (a ``str`` holding a line break), or a
        DataFrame with a query column (``query_id``, ``qid``, ``topic``...), a subtopic column
        (``subtopic``, ``intent``, ``aspect``, or ir_measures' ``iteration``), a document column
        (``doc_id``, ``docno``...) and a judgment column (``relevance``, ``rel``, ``judgment``...).

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id``, ``subtopic``, ``doc_id`` (str) and ``relevance`` (int64), in
        input order. ``df.attrs["source"]`` names the input.

    Raises
    ------
    TrecFormatError
        (a ``ValueError``) naming the source, the line and what was expected: a line without
        4 fields, a judgment that is not an integer, a docno judged twice for one subtopic of
        one topic, an empty input, a table without the needed columns.

    Notes
    -----
    ndeval reads topics, subtopics and judgments as natural numbers and stops at anything
    else; rankviz reads topics, subtopics and docnos as strings (``"wt09-1"`` is a topic) and
    judgments as integers, negative ones meaning non-relevant (as ir_measures/pyndeval do with
    the ``-2`` spam grade of the 2011-2014 Web track qrels). ndeval caps judgments at 1:
    which judgments count as relevant is the evaluator's business (``rel_threshold``, the
    measures' ``rel=``). A docno judged twice for one subtopic would make ndeval keep the last
    judgment and count the document twice in the subtopic's number of relevant documents;
    rankviz refuses it.

    References
    ----------
    ndeval 4.5 (TREC Web track 2009-2014), ``processQrels``.

    Examples
    --------
    >>> qrels = read_subtopic_qrels("1 1 d1 1\\n1 2 d1 1\\n1 2 d2 0\\n# d2 judged, not relevant\\n")
    >>> qrels.to_dict("list")
    {'query_id': ['1', '1', '1'], 'subtopic': ['1', '2', '2'], 'doc_id': ['d1', 'd1', 'd2'], 'relevance': [1, 1, 0]}
    >>> read_subtopic_qrels("1 1 d1 yes\\n")
    Traceback (most recent call last):
    ...
    rankviz.trec.formats.TrecFormatError: <text> line 1: expected an integer judgment in field 4 (judgment), got 'yes'
    """
    if isinstance(source, pd.DataFrame):
        return _from_frame(source)
    data, name = source_text(source, "read_subtopic_qrels")
    frame = _read_text(data, name)
    _check_once_per_subtopic(frame, data, name)
    return frame


def _read_text(data: bytes, name: str) -> pd.DataFrame:
    try:
        frame = read_fields(data, name, SUBTOPIC_QRELS_FORMAT)
    except ValueError as error:
        # read_fields names the field as "a finite number"; a judgment is an integer.
        if "finite number in field 4" in str(error):
            _raise_first_bad_judgment(data, name)
        raise
    grades = frame["relevance"].to_numpy(dtype=np.float64)
    if not np.array_equal(grades, np.floor(grades)):
        _raise_first_bad_judgment(data, name)
    frame["relevance"] = grades.astype(np.int64)
    return frame


def _raise_first_bad_judgment(data: bytes, name: str) -> None:
    """Raise naming the first line whose judgment is not an integer."""
    text = data.decode("utf-8", errors="replace")
    for number, line in enumerate(text.split("\n"), start=1):
        parts = line.split()
        if len(parts) != 4 or parts[0].startswith("#"):
            continue
        token = parts[3]
        try:
            int(token)
        except ValueError:
            raise format_error(name, number, "an integer judgment in field 4 (judgment)", repr(token)) from None


def _column(source: pd.DataFrame, names: tuple[str, ...]) -> str | None:
    by_lower = {str(c).lower(): c for c in source.columns}
    for wanted in names:
        if wanted in by_lower:
            return by_lower[wanted]
    return None


def _from_frame(source: pd.DataFrame) -> pd.DataFrame:
    found = {
        "query_id": _column(source, QUERY_COLUMN_NAMES),
        "subtopic": _column(source, SUBTOPIC_COLUMN_NAMES),
        "doc_id": _column(source, DOC_COLUMN_NAMES),
        "relevance": _column(source, RELEVANCE_COLUMN_NAMES),
    }
    missing = [column for column, name in found.items() if name is None]
    if missing:
        raise format_error("<DataFrame>", None, f"columns {', '.join(SUBTOPIC_QRELS_COLUMNS)} (or their synonyms)",
                           f"no {', '.join(missing)} (columns {list(source.columns)})")
    frame = pd.DataFrame({column: source[name].to_numpy() for column, name in found.items()})
    for column in ("query_id", "subtopic", "doc_id"):
        values = frame[column]
        if values.isna().any():
            row = int(np.flatnonzero(values.isna().to_numpy())[0])
            raise format_error("<DataFrame>", row, f"a {column} in every row", "a missing value")
        frame[column] = values.astype(str)
    grades = pd.to_numeric(frame["relevance"], errors="coerce").to_numpy(dtype=np.float64)
    bad = ~np.isfinite(grades) | (grades != np.floor(np.where(np.isfinite(grades), grades, 0.0)))
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise format_error("<DataFrame>", row, "an integer judgment in column relevance",
                           repr(source[found["relevance"]].iloc[row]))
    if frame.empty:
        raise format_error("<DataFrame>", None, "subtopic judgments", "an empty table")
    frame["relevance"] = grades.astype(np.int64)
    frame.attrs["source"] = "<DataFrame>"
    _check_once_per_subtopic(frame, None, "<DataFrame>")
    return frame


def _check_once_per_subtopic(frame: pd.DataFrame, data: bytes | None, name: str) -> None:
    keys = ["query_id", "subtopic", "doc_id"]
    twice = frame.duplicated(keys, keep="first").to_numpy()
    if not twice.any():
        return
    row = int(np.flatnonzero(twice)[0])
    q, s, d = (frame[c].iloc[row] for c in keys)
    same = (frame["query_id"] == q) & (frame["subtopic"] == s) & (frame["doc_id"] == d)
    first = int(np.flatnonzero(same.to_numpy())[0])
    if data is not None:
        lines = read_fields(data, name, SUBTOPIC_QRELS_FORMAT, line_numbers=True)["line"]
        line, first_line, unit = int(lines.iloc[row]), int(lines.iloc[first]), "line"
    else:
        line, first_line, unit = row, first, "row"
    raise format_error(name, line, "each docno judged at most once per subtopic of a topic",
                       f"doc {d!r} of topic {q!r}, subtopic {s!r} again (first on {unit} {first_line})")
