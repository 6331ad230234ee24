"""trec_eval's other relevance inputs: preference files (``-R prefs``) and z-score files (``-Z``).

* :func:`read_prefs`: ``qid jg jsg docno rel_level``, one line per document of a judgment
  sub-group. Within a sub-group (``jsg``) of a judgment group (``jg``, one user's information
  need), a document with a higher ``rel_level`` is preferred to one with a lower level; equal
  levels express no preference. ``rel_level`` is a real number, 0 meaning non-relevant.
* :func:`read_qrels_prefs`: an ordinary qrels read as preferences (``-R qrels_prefs``): the
  ``iter`` column is the judgment group, every line is in sub-group ``"0"``, the grade is the level.
* :func:`read_zscores`: ``qid measure mean stddev``, the per-topic mean and standard deviation of
  each measure over reference runs, with which ``-Z`` standardises the scores.

The readers accept a path, a file object, bytes, the text itself or a DataFrame with the
columns they return. ``#`` lines are comments (a ``#`` inside a docno is kept).

References
----------
trec_eval 10.0, ``get_prefs.c``, ``get_qrels_prefs.c``, ``get_zscores.c``;
https://github.com/usnistgov/trec_eval
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rankviz.trec.fields import FieldsFormat, read_fields, source_text
from rankviz.trec.formats import format_error

__all__ = ["PREFS_COLUMNS", "ZSCORES_COLUMNS", "read_prefs", "read_qrels_prefs", "read_zscores"]

PREFS_COLUMNS = ("query_id", "group", "subgroup", "doc_id", "rel_level")
ZSCORES_COLUMNS = ("query_id", "measure", "mean", "stddev")

PREFS_FORMAT = FieldsFormat("prefs", ("qid", "jg", "jsg", "docno", "rel_level"), PREFS_COLUMNS, ("rel_level",),
                            "no preference judgments")
ZSCORES_FORMAT = FieldsFormat("zscores", ("qid", "measure", "mean", "stddev"), ZSCORES_COLUMNS,
                              ("mean", "stddev"), "no means")


def read_prefs(source) -> pd.DataFrame:
    """Read a trec_eval preference file (``-R prefs``) into a DataFrame.

    Each line is ``qid jg jsg docno rel_level``, separated by blanks. Lines of one judgment
    sub-group (``jsg``) within a judgment group (``jg``) state that a document with a higher
    ``rel_level`` is preferred to one with a lower level. Several sub-groups of one group state a
    partial order, closed transitively by the measures; different groups (users) may disagree.

    Parameters
    ----------
    source : path, file object, bytes, str or DataFrame
        A path, an open file, bytes, the text itself (a ``str`` holding a line break), or a
        DataFrame with the columns below.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id``, ``group``, ``subgroup``, ``doc_id`` (str) and ``rel_level``
        (float64), in input order. ``df.attrs["source"]`` names the input.

    Raises
    ------
    TrecFormatError
        (a ``ValueError``) naming the file, the line and what was expected: a line without 5
        fields, a level that is not a finite number, a docno listed twice in one sub-group, an
        empty file.

    Notes
    -----
    trec_eval reads the level with ``atof``, which turns a word into 0; rankviz refuses it. A
    docno listed twice in one sub-group makes trec_eval stop when the two levels differ and
    count the document's preferences twice when they are equal; rankviz refuses both.

    References
    ----------
    trec_eval 10.0, ``get_prefs.c`` (the format's description) and ``form_prefs_counts.c``.

    Examples
    --------
    >>> prefs = read_prefs("q1 u1 s1 d1 2\\nq1 u1 s1 d2 1\\n# d1 > d2\\nq1 u1 s1 d3 0\\n")
    >>> prefs[["doc_id", "rel_level"]].to_dict("list")
    {'doc_id': ['d1', 'd2', 'd3'], 'rel_level': [2.0, 1.0, 0.0]}
    >>> read_prefs("q1 u1 d1 2\\n")
    Traceback (most recent call last):
    ...
    rankviz.trec.formats.TrecFormatError: <text> line 1: expected 5 fields (qid jg jsg docno rel_level), got 4: 'q1 u1 d1 2'
    """
    if isinstance(source, pd.DataFrame):
        return _prefs_from_frame(source)
    data, name = source_text(source, "read_prefs")
    frame = read_fields(data, name, PREFS_FORMAT)
    _check_once_per_subgroup(frame, data, name)
    return frame


def read_qrels_prefs(qrels: pd.DataFrame) -> pd.DataFrame:
    """A qrels read as preferences, as trec_eval's ``-R qrels_prefs`` reads it.

    ``qrels`` is what :func:`rankviz.read_qrels` returns with ``judgment_groups=True`` (its
    ``group`` column is the ``iter`` field): each ``iter`` value is a judgment group, all its
    lines one sub-group ``"0"``, the grade the level. So a binary qrels states that every
    relevant document is preferred to every non-relevant one.

    Examples
    --------
    >>> from rankviz.trec.readers import read_qrels
    >>> prefs = read_qrels_prefs(read_qrels("q1 0 d1 1\\nq1 0 d2 0\\n", judgment_groups=True))
    >>> prefs.loc[0, ["group", "subgroup", "doc_id"]].tolist(), float(prefs.loc[0, "rel_level"])
    (['0', '0', 'd1'], 1.0)
    """
    frame = pd.DataFrame({
        "query_id": qrels["query_id"],
        "group": qrels["group"],
        "subgroup": pd.Series("0", index=qrels.index, dtype=qrels["group"].dtype),
        "doc_id": qrels["doc_id"],
        "rel_level": qrels["relevance"].astype(np.float64),
    })
    frame.attrs.update(qrels.attrs)
    return frame


def read_zscores(source) -> pd.DataFrame:
    """Read a trec_eval z-score file (``-Z``): ``qid measure mean stddev`` per line.

    ``measure`` is the name trec_eval prints (``map``, ``P_10``, ``iprec_at_recall_0.10``). Each
    line gives the mean and the standard deviation of that measure on that topic over a set of
    reference runs (trec_eval's ``make_zscore_file.py`` writes the sample standard deviation).

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id``, ``measure`` (str), ``mean``, ``stddev`` (float64).

    Raises
    ------
    TrecFormatError
        Naming the file and line: a line without 4 fields, a mean or deviation that is not a
        number, a (qid, measure) given twice.

    Examples
    --------
    >>> read_zscores("301 map 0.12 0.15\\n301 P_10 0.45 0.35\\n").measure.tolist()
    ['map', 'P_10']
    """
    if isinstance(source, pd.DataFrame):
        missing = [c for c in ZSCORES_COLUMNS if c not in source.columns]
        if missing:
            raise format_error("<DataFrame>", None, f"columns {', '.join(ZSCORES_COLUMNS)}",
                               f"no {', '.join(missing)} (columns {list(source.columns)})")
        frame = source[list(ZSCORES_COLUMNS)].astype({"query_id": str, "measure": str, "mean": np.float64,
                                                      "stddev": np.float64})
        name, data = "<DataFrame>", None
    else:
        data, name = source_text(source, "read_zscores")
        frame = read_fields(data, name, ZSCORES_FORMAT)
    twice = frame.duplicated(["query_id", "measure"], keep="first").to_numpy()
    if twice.any():
        row = int(np.flatnonzero(twice)[0])
        query_id, measure = frame["query_id"].iloc[row], frame["measure"].iloc[row]
        line = _line_of(data, name, ZSCORES_FORMAT, row)
        raise format_error(name, line, "one mean per query and measure",
                           f"measure {measure!r} of query {query_id!r} again")
    return frame


def _line_of(data: bytes | None, name: str, spec: FieldsFormat, row: int) -> int | None:
    """The file line of data row ``row`` (None for a DataFrame)."""
    if data is None:
        return None
    return int(read_fields(data, name, spec, line_numbers=True)["line"].iloc[row])


def _prefs_from_frame(source: pd.DataFrame) -> pd.DataFrame:
    missing = [c for c in PREFS_COLUMNS if c not in source.columns]
    if missing:
        raise format_error("<DataFrame>", None, f"columns {', '.join(PREFS_COLUMNS)}",
                           f"no {', '.join(missing)} (columns {list(source.columns)})")
    frame = source[list(PREFS_COLUMNS)].copy()
    for column in ("query_id", "group", "subgroup", "doc_id"):
        frame[column] = frame[column].astype(str)
    levels = pd.to_numeric(frame["rel_level"], errors="coerce").to_numpy(dtype=np.float64)
    bad = ~np.isfinite(levels)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise format_error("<DataFrame>", row, "a finite number in column rel_level",
                           repr(source["rel_level"].iloc[row]))
    frame["rel_level"] = levels
    frame.attrs["source"] = "<DataFrame>"
    _check_once_per_subgroup(frame, None, "<DataFrame>")
    return frame


def _check_once_per_subgroup(frame: pd.DataFrame, data: bytes | None, name: str) -> None:
    twice = frame.duplicated(["query_id", "group", "subgroup", "doc_id"], keep="first").to_numpy()
    if not twice.any():
        return
    row = int(np.flatnonzero(twice)[0])
    q, g, s, d = (frame[c].iloc[row] for c in ("query_id", "group", "subgroup", "doc_id"))
    first = frame.index[(frame["query_id"] == q) & (frame["group"] == g) & (frame["subgroup"] == s)
                        & (frame["doc_id"] == d)][0]
    if data is not None:
        lines = read_fields(data, name, PREFS_FORMAT, line_numbers=True)["line"]
        line, first_line = int(lines.iloc[row]), int(lines.iloc[first])
    else:
        line, first_line = row, int(first)
    raise format_error(name, line, "each docno at most once per sub-group (qid jg jsg)",
                       f"doc {d!r} of query {q!r}, group {g!r}, sub-group {s!r} again "
                       f"(first on {'line' if data is not None else 'row'} {first_line})")
