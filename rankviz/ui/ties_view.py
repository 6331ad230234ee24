"""The ties page's work: the editable example (grid rows -> validated lists) and the cached
comparison of a whole run under the three tie rules. Numbers come from :mod:`rankviz.evaluation.ties`."""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from rankviz.i18n import _, language
from rankviz.ui.uploads import InputFile, read_qrels_file, read_run_file

__all__ = ["DEFAULT_EXAMPLE", "EXAMPLE_MEASURES", "RUN_MEASURES", "SAMPLING_BUDGET", "example_lists", "example_tables",
           "compare_files", "tie_counts"]

# Run lines evaluated in total by the Monte Carlo samples of one comparison (each sample
# evaluates the whole run): the page lowers the number of samples to stay within it.
SAMPLING_BUDGET = 2_000_000

# Input order d1..d6; d2, d3, d4 tie at 2.5 and d5, d6 at 1.0. trec_eval ranks the first tie as
# d4, d3, d2 (docno descending), the input order as d2, d3, d4: the relevant d2 moves from rank
# 4 to rank 2, so P@2 (0 vs 1/2), RR (1/4 vs 1/2), AP and nDCG all change; averaged, d2 is at
# rank 2, 3 or 4 with chance 1/3 each.
DEFAULT_EXAMPLE = pd.DataFrame({
    "doc": ["d1", "d2", "d3", "d4", "d5", "d6"],
    "score": [3.2, 2.5, 2.5, 2.5, 1.0, 1.0],
    "grade": [0, 2, 0, 0, 0, 1],
})
EXAMPLE_MEASURES = ("P@2", "AP", "RR", "nDCG", "nDCG@3", "Success@1", "ERR@3")
RUN_MEASURES = ("AP", "nDCG@10", "P@10", "RR", "P@5", "R@100", "nDCG", "Rprec", "Success@1", "ERR@20", "Bpref")


def _number(value, what: str, row: int) -> float:
    if value is None or (isinstance(value, str) and not value.strip()) or (
            isinstance(value, float) and math.isnan(value)):
        raise ValueError(_("Row {row}: the {what} is empty; type a number.").format(row=row, what=_(what)))
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(_("Row {row}: the {what} must be a number; got {value}.").format(
            row=row, what=_(what), value=repr(value))) from None
    if not math.isfinite(number):
        raise ValueError(_("Row {row}: the {what} must be a finite number; got {value}.").format(
            row=row, what=_(what), value=repr(value)))
    return number


def example_lists(grid: pd.DataFrame) -> tuple[list[str], list[float], list[int]]:
    """The example grid's rows (input order) as doc ids, scores and integer grades.

    Raises ValueError naming the row for an empty doc id, a score or grade that is not a number,
    a fractional grade or an empty table (duplicates are caught by :func:`rankviz.evaluation.ties.tie_example`).

    >>> example_lists(pd.DataFrame({"doc": ["a", "b"], "score": [1, 1.5], "grade": [2, 0]}))
    (['a', 'b'], [1.0, 1.5], [2, 0])
    """
    rows = grid.dropna(how="all")
    if rows.empty:
        raise ValueError(_("The example is empty: add at least one row (doc, score, grade)."))
    doc_ids, scores, grades = [], [], []
    for row, (doc, score, grade) in enumerate(zip(rows["doc"], rows["score"], rows["grade"]), start=1):
        if doc is None or (isinstance(doc, float) and math.isnan(doc)) or not str(doc).strip():
            raise ValueError(_("Row {row}: the doc id is empty.").format(row=row))
        doc_ids.append(str(doc).strip())
        scores.append(_number(score, "score", row))
        number = _number(grade, "grade", row)
        if not number.is_integer():
            raise ValueError(_("Row {row}: the grade must be a whole number; got {grade}.").format(row=row, grade=repr(grade)))
        grades.append(int(number))
    return doc_ids, scores, grades


@st.cache_data(show_spinner=False, max_entries=64)
def example_tables(doc_ids: tuple, scores: tuple, grades: tuple, measures: tuple, lang: str = "en"):
    """The example's three tables, cached by its rows and measures (every rerun of the page would
    otherwise re-rank and re-evaluate an example that did not change), and by ``lang``, the language
    of their headers (pass ``rankviz.i18n.language()``).

    Returns ``(orderings_side_by_side, tie_example, expected_relevance_by_rank)`` of
    :mod:`rankviz.evaluation.ties`; their ValueError (e.g. a duplicate doc id) passes through uncached.
    """
    from rankviz.evaluation.ties import expected_relevance_by_rank, orderings_side_by_side, tie_example

    doc_ids, scores, grades = list(doc_ids), list(scores), list(grades)
    return (orderings_side_by_side(doc_ids, scores, grades), tie_example(doc_ids, scores, grades, list(measures)),
            expected_relevance_by_rank(scores, grades))


@st.cache_data(show_spinner=False, max_entries=16)
def _compare_cached(qrels_digest: str, run_digest: str, measures: tuple, samples: int, seed: int,
                    rel_threshold: int, lang: str, _qrels: InputFile, _run: InputFile):
    from rankviz.evaluation.ties import compare_tie_rules

    return compare_tie_rules(read_qrels_file(_qrels), read_run_file(_run), list(measures), samples=samples,
                             seed=seed, rel_threshold=rel_threshold)


def compare_files(qrels: InputFile, run: InputFile, measures, *, samples: int, seed: int, rel_threshold: int = 1):
    """:func:`rankviz.evaluation.ties.compare_tie_rules` on two files, cached by their content hashes.

    Raises ValueError naming the file (and line) that cannot be read.
    """
    try:
        return _compare_cached(qrels.digest, run.digest, tuple(measures), int(samples), int(seed), int(rel_threshold),
                               language(),
                               qrels, run)
    except ValueError as error:
        message = str(error)
        if not message.startswith((run.name, qrels.name)):
            message = f"{run.name}: {message}"
        raise ValueError(message) from None


def tie_counts(ties: pd.DataFrame) -> dict:
    """The headline numbers of a run's ties (from ``TieComparison.ties``), as shown text.

    >>> ties = pd.DataFrame({"retrieved": [3, 2], "tied documents": [2, 0], "tie groups": [1, 0]})
    >>> tie_counts(ties)
    {'queries': '1 of 2', 'documents': '2 of 5', 'groups': '1'}
    """
    of = _("{part} of {whole}")  # a share as a count: "823 of 1000"
    return {"queries": of.format(part=int((ties["tied documents"] > 0).sum()), whole=len(ties)),
            "documents": of.format(part=int(ties["tied documents"].sum()), whole=int(ties["retrieved"].sum())),
            "groups": str(int(ties["tie groups"].sum()))}
