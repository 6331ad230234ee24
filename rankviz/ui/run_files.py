"""The run-files page's work: evaluate a qrels file against runs (cached), then shape the results
into the tables and chart data the page shows. Every number comes from :func:`rankviz.evaluate`
and :mod:`rankviz.evaluation.comparison` (``compare_per_query``, ``count_wins_ties_losses``); this module only
arranges them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from rankviz.evaluation.measures import parse_measures, split_measure_text
from rankviz.evaluation.presentation import P_VALUE_FORMAT, run_labels, value_format
from rankviz.i18n import _, language
from rankviz.registry import ELEVEN_LEVELS
from rankviz.trec.judgments import JUDGMENT_FORMATS
from rankviz.ui.uploads import InputFile, read_judgments_file, read_run_file_as_table, read_zscores_file

__all__ = ["COMMON_MEASURES", "DEFAULT_MEASURES", "PR_LEVELS", "measure_choices", "default_choices", "Evaluation", "split_measure_text",
           "chosen_measures", "evaluate_files", "aggregate_table", "per_query_table", "distribution_frame",
           "run_deltas", "pr_points", "significance", "latex_bytes", "measure_columns", "styled_significance"]

COMMON_MEASURES = ("AP", "nDCG@10", "P@10", "RR", "R@100", "nDCG", "P@5", "Rprec", "Bpref", "Success@10",
                   "ERR@20", "GMAP", "NumRet", "NumRelRet", "Judged@10", "SDCG@10", "NERR8@10", "INST", "Compat")
DEFAULT_MEASURES = ("AP", "nDCG@10", "P@10", "RR")
# What the page offers and picks first for the other judgment formats (trec_eval -R, ndeval).
_FORMAT_DEFAULTS = {"subtopics": ("alpha_nDCG@10", "ERR_IA@20", "NRBP", "P_IA@10", "StRecall@10"),
                    "prefs": ("prefs_simp", "prefs_pair", "prefs_avgjg"),
                    "qrels_prefs": ("prefs_simp", "prefs_pair", "prefs_avgjg"),
                    "qrels_jg": ("map_avgjg", "P_avgjg@10", "Rprec_mult_avgjg@1")}


def measure_choices(qrels_format: str = "qrels") -> tuple[str, ...]:
    """The measures the page offers for judgments in ``qrels_format``: the common ones for qrels,
    else the format's own default set (what the CLI prints for ``-R FORMAT`` without ``-m``).

    >>> measure_choices("subtopics")[:3]
    ('ERR_IA@5', 'ERR_IA@10', 'ERR_IA@20')
    """
    if qrels_format == "qrels":
        return COMMON_MEASURES
    names = (str(m) for m in parse_measures(list(JUDGMENT_FORMATS[qrels_format].default_measures)))
    return tuple(dict.fromkeys(n for n in names if n not in ("runid", "NumQ")))


def default_choices(qrels_format: str = "qrels") -> tuple[str, ...]:
    """The measures picked when the page opens (or the format changes).

    >>> default_choices("qrels_jg")
    ('map_avgjg', 'P_avgjg@10', 'Rprec_mult_avgjg@1')
    """
    return DEFAULT_MEASURES if qrels_format == "qrels" else _FORMAT_DEFAULTS[qrels_format]
# The 11 recall levels of interpolated precision, trec_eval's iprec_at_recall_0.00 ... 1.00.
PR_LEVELS = ELEVEN_LEVELS  # the registry's 11 recall levels, trec_eval's iprec_at_recall
_PR_MEASURES = tuple(str(m) for m in parse_measures([f"IPrec@{level}" for level in PR_LEVELS]))


@dataclass(frozen=True)
class Evaluation:
    """Every run evaluated on the same qrels with the same measures.

    ``per_query[run]`` and ``mean[run]`` are ``evaluate``'s tables restricted to the chosen
    measures (``measures``, canonical names); ``iprec_mean[run]`` (qrels only) is interpolated precision at
    the 11 recall levels averaged over queries (the averaged precision-recall curve).
    ``run_names`` are the runs' tags (their file names where two share a tag, see
    :func:`rankviz.evaluation.presentation.run_labels`), ``run_files[i]`` the file ``run_names[i]``
    came from. ``key`` identifies the inputs (file contents, run names, measures, options): the
    tables derived from an evaluation are cached by it.
    """

    qrels_name: str
    run_names: tuple[str, ...]
    measures: tuple[str, ...]
    per_query: dict
    mean: dict
    iprec_mean: dict
    n_queries: dict
    key: tuple = ()
    run_files: tuple[str, ...] = ()


def chosen_measures(selected, text: str) -> tuple[str, ...]:
    """The canonical names of the picked and typed measures, in order, without duplicates.

    Raises ValueError (with close matches) for an unknown name; ``runid`` and ``relstring``
    have no numbers to show and are dropped.

    >>> chosen_measures(["AP"], "P_10 map ndcg_cut.5,10")
    ('AP', 'P@10', 'nDCG@5', 'nDCG@10')
    """
    parsed = parse_measures(list(selected) + split_measure_text(text or "")) if (selected or (text or "").strip()) \
        else ()
    names = tuple(dict.fromkeys(str(m) for m in parsed if m.name not in ("runid", "relstring")))
    if not names:
        raise ValueError(_("Choose at least one measure (or type one, e.g. P@10 or ndcg_cut_10)."))
    return names


@st.cache_data(show_spinner=False, max_entries=32)
def _evaluate_cached(qrels_digest: str, run_digest: str, measures: tuple, rel_threshold: int, complete: bool,
                     qrels_format: str, zscores_digest, _qrels: InputFile, _run: InputFile, _zscores):
    from rankviz.evaluation.evaluator import evaluate

    qrels = read_judgments_file(_qrels, qrels_format)  # a TrecTable for qrels: evaluate reuses its keys
    run = read_run_file_as_table(_run)
    zscores = read_zscores_file(_zscores) if _zscores is not None else None
    # The averaged precision-recall curve needs graded qrels: no IPrec for the other formats.
    curve = list(_PR_MEASURES) if qrels_format == "qrels" else []
    result = evaluate(qrels, run, list(measures) + curve, rel_threshold=rel_threshold, complete=complete,
                      qrels_format=qrels_format, zscores=zscores)
    return result.per_query, result.mean


def evaluate_files(qrels: InputFile, runs, measures, *, rel_threshold: int = 1, complete: bool = False,
                   qrels_format: str = "qrels", zscores: InputFile | None = None, progress=None) -> Evaluation:
    """Read and evaluate every run (cached by content hash); all or nothing.

    Runs are named by their tags, as the command line names them (``run_sysA.txt`` whose lines
    end in ``sysA`` is ``sysA``; the file name where two runs share a tag or a run has none).

    Parameters
    ----------
    qrels : InputFile
        Judgments in ``qrels_format`` (a key of :data:`rankviz.trec.judgments.JUDGMENT_FORMATS`:
        trec_eval's ``-R`` formats and ndeval's subtopics).
    runs : sequence of InputFile
    measures : sequence of str
        Canonical measure names (see :func:`chosen_measures`).
    rel_threshold, complete, qrels_format
        As for :func:`rankviz.evaluate`.
    zscores : InputFile, optional
        trec_eval's ``-Z`` file (qid measure mean stddev): per-query values become z-scores.
    progress : callable(fraction, text), optional
        Told before each file is read and evaluated.

    Raises
    ------
    ValueError
        The first file that cannot be read (its message names the file and the line) or a run
        with no query in common with the qrels; nothing is returned half-evaluated.
    """
    runs = list(runs)
    if not runs:
        raise ValueError(_("Add at least one run file."))
    measures = tuple(measures)
    per_query, mean, iprec, n_queries, tags = [], [], [], [], []
    steps = len(runs) + 1
    if progress:
        progress(0.0, _("Reading {file}").format(file=qrels.name))
    read_judgments_file(qrels, qrels_format)
    if zscores is not None:
        read_zscores_file(zscores)
    zscores_digest = zscores.digest if zscores is not None else None
    for step, run in enumerate(runs, start=1):
        if progress:
            progress(step / steps, _("Reading and evaluating {file}").format(file=run.name))
        try:
            table, means = _evaluate_cached(qrels.digest, run.digest, measures, rel_threshold, complete, qrels_format,
                                            zscores_digest, qrels, run, zscores)
        except ValueError as error:
            message = str(error)
            if not message.startswith((run.name, qrels.name) + ((zscores.name,) if zscores is not None else ())):
                message = f"{run.name}: {message}"
            raise ValueError(message) from None
        tags.append(read_run_file_as_table(run).frame.attrs.get("run_name"))  # read once, cached
        per_query.append(table[list(measures)])
        mean.append(means.reindex(list(measures)))
        if qrels_format == "qrels":
            iprec.append(means.reindex(list(_PR_MEASURES)).to_numpy(dtype=np.float64))
        n_queries.append(len(table))
    if progress:
        progress(1.0, "Done")
    names = run_labels(zip(tags, (run.name for run in runs)))
    key = (qrels.name, qrels.digest, tuple((name, run.digest) for name, run in zip(names, runs)), measures,
           rel_threshold, complete, qrels_format, zscores_digest)
    return Evaluation(qrels.name, tuple(names), measures, dict(zip(names, per_query)), dict(zip(names, mean)),
                      dict(zip(names, iprec)), dict(zip(names, n_queries)), key, tuple(run.name for run in runs))


@st.cache_data(show_spinner=False, max_entries=128)
def _derived(table: str, key: tuple, options: tuple, _evaluation: Evaluation):
    return _DERIVED[table](_evaluation, **dict(options))


def _cached(table: str, evaluation: Evaluation, **options):
    """``table``'s function of ``evaluation`` (options hashable), cached by ``evaluation.key``: on a
    rerun where the files and measures did not change, pandas reshaping and the significance tests
    are not redone."""
    if not evaluation.key:  # built by hand: nothing identifies it
        return _DERIVED[table](evaluation, **options)
    # Keyed on the language too: a table's headers and notes are words (rankviz.i18n).
    return _derived(table, (language(), evaluation.key), tuple(sorted(options.items())), evaluation)


def aggregate_table(evaluation: Evaluation) -> pd.DataFrame:
    """One row per run, one column per measure: the aggregate over queries (as evaluate reports it)."""
    return _cached("aggregate", evaluation)


def _aggregate_table(evaluation: Evaluation) -> pd.DataFrame:
    table = pd.DataFrame({name: evaluation.mean[name] for name in evaluation.run_names}).T
    table.insert(0, "queries", [evaluation.n_queries[name] for name in evaluation.run_names])
    return table.rename_axis("run").reset_index()


def per_query_table(evaluation: Evaluation, *, runs=None, query_filter: str = "") -> pd.DataFrame:
    """One row per (query, run), one column per measure; ``query_filter`` keeps query ids that
    contain it (several filters separated by commas: any of them)."""
    return _cached("per_query", evaluation, runs=None if runs is None else tuple(runs), query_filter=query_filter)


def _per_query_table(evaluation: Evaluation, *, runs, query_filter: str) -> pd.DataFrame:
    wanted = [name for name in evaluation.run_names if runs is None or name in runs]
    parts = [evaluation.per_query[name].reset_index().assign(run=name) for name in wanted]
    if not parts:
        return pd.DataFrame(columns=["query_id", "run", *evaluation.measures])
    table = pd.concat(parts, ignore_index=True)[["query_id", "run", *evaluation.measures]]
    needles = [part.strip() for part in (query_filter or "").split(",") if part.strip()]
    if needles:
        keep = np.zeros(len(table), dtype=bool)
        for needle in needles:
            keep |= table["query_id"].astype(str).str.contains(needle, regex=False).to_numpy()
        table = table[keep]
    return table.sort_values(["query_id", "run"], kind="stable").reset_index(drop=True)


def distribution_frame(evaluation: Evaluation, measures) -> pd.DataFrame:
    """Long table for the distribution chart: query_id, measure, system, value."""
    return _cached("distribution", evaluation, measures=tuple(measures))


def _distribution_frame(evaluation: Evaluation, *, measures) -> pd.DataFrame:
    parts = []
    for name in evaluation.run_names:
        table = evaluation.per_query[name]
        for measure in measures:
            parts.append(pd.DataFrame({"query_id": table.index.astype(str), "measure": measure, "system": name,
                                       "value": table[measure].to_numpy(dtype=np.float64)}))
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(
        columns=["query_id", "measure", "system", "value"])


def run_deltas(evaluation: Evaluation, run_a: str, run_b: str, measure: str) -> pd.Series:
    """Per query, ``B - A`` for one measure, on the queries both runs were evaluated on."""
    a = evaluation.per_query[run_a][measure].astype(float)
    b = evaluation.per_query[run_b][measure].astype(float)
    common = a.index.intersection(b.index)
    return (b.loc[common] - a.loc[common]).rename("delta")


def pr_points(evaluation: Evaluation) -> dict:
    """Per run: the averaged interpolated precision at recall 0.0, 0.1, ..., 1.0 (columns ``R@i``, ``P@i``);
    empty for judgments other than qrels (no recall levels to interpolate at)."""
    return {name: pd.DataFrame({"R@i": PR_LEVELS, "P@i": evaluation.iprec_mean[name]})
            for name in evaluation.run_names if name in evaluation.iprec_mean}


def significance(evaluation: Evaluation, *, baseline: str, test: str, correction, measures=None, seed: int = 0):
    """Paired tests of every run against ``baseline`` (rankviz.evaluation.comparison.compare_per_query)."""
    return _cached("significance", evaluation, baseline=baseline, test=test, correction=correction,
                   measures=None if measures is None else tuple(measures), seed=seed)


def _significance(evaluation: Evaluation, *, baseline: str, test: str, correction, measures, seed: int):
    from rankviz.evaluation.comparison import compare_per_query

    measures = list(measures or evaluation.measures)
    tables = {name: evaluation.per_query[name][measures] for name in evaluation.run_names}
    means = {name: evaluation.mean[name] for name in evaluation.run_names}
    return compare_per_query(tables, test=test, correction=correction, baseline=baseline, means=means, seed=seed,
                             measures=measures)


def latex_bytes(comparison) -> bytes:
    """The comparison's LaTeX table as UTF-8 bytes, for a download button that writes it when clicked."""
    return comparison.to_latex().encode("utf-8")


# Columns of the significance table printed as the command line's compare prints them.
_SIGNIFICANCE_VALUES = ("baseline_mean", "mean", "delta", "effect_size")
_P_VALUES = ("p_value", "p_adjusted")


def measure_columns(table: pd.DataFrame) -> dict:
    """Column config printing every measure column as trec_eval and the command line print it
    (:func:`rankviz.evaluation.presentation.value_format`: 4 decimals, counts whole), whatever its
    values: a column of whole numbers (a mean RR of 1) must not print "1" beside "0.4460"."""
    config = {}
    for column in table.columns:
        form = "%.4f" if column in _SIGNIFICANCE_VALUES else value_format(column)
        if form is not None:
            config[column] = st.column_config.NumberColumn(str(column), format=form)
    return config


def styled_significance(table: pd.DataFrame):
    """The significance table for ``st.dataframe``: p-values written by Python in the command line's
    format (``P_VALUE_FORMAT``: 0.00695, 1.489e-05; the grid's own printf writes 1.489e-5 or
    0.00001489), kept numeric underneath so a click on the header still sorts them by value."""
    return table.style.format({column: lambda value: P_VALUE_FORMAT % value for column in _P_VALUES
                               if column in table.columns})


_DERIVED = {"aggregate": _aggregate_table, "per_query": _per_query_table, "distribution": _distribution_frame,
            "significance": _significance}
