"""Evaluate a whole TREC run against qrels: trec_eval's numbers, a block of whole queries at a time.

:func:`evaluate` parses the measure names once (:mod:`rankviz.evaluation.measures`), indexes the
judgments once (:class:`~rankviz.evaluation.ranking.JudgmentIndex`) and reads the run: a big TREC run
file block by block, in bounded memory (:meth:`rankviz.trec.readers.RunStream.blocks`), anything else
whole, as one block. Each block's rankings are sorted and judged in one pass
(:func:`~rankviz.evaluation.ranking.prepare_block`) and scored by one vectorized kernel per measure
(:mod:`rankviz.metrics.kernels`, the kernel each measure's registry entry names: :attr:`Measure.spec
<rankviz.evaluation.measures.Measure.spec>`); only the per-query values are kept. A query's values never
depend on the block it was evaluated in, so the numbers are those of the whole run at once, digit for
digit. :func:`evaluate_values` is the same without pandas (:class:`RunValues`: numpy columns), what the
command line prints from.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from rankviz.evaluation.measures import Measure, parse_measures
from rankviz.trec.judgments import JUDGMENT_FORMATS

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["EvalResult", "RunValues", "aggregate", "evaluate", "evaluate_values"]



@dataclass(frozen=True)
class EvalResult:
    """What :func:`evaluate` returns, whatever the number of measures.

    Attributes
    ----------
    per_query : pandas.DataFrame
        One row per evaluated query (index ``query_id``, sorted as strings), one column per
        measure named ``str(measure)`` (``"P@10"``, ``"AP"``...). Counts are int64 columns,
        ``relstring`` is a column of str, everything else float64. With
        ``evaluate(per_query=False)`` the rows (the evaluated queries) are kept, the columns not.
    mean : pandas.Series
        The aggregate over queries, indexed like the columns: the arithmetic mean, the
        geometric mean for GMAP and gm_bpref (values floored at 1e-5), the sum for counts
        (num_ret, num_rel, num_rel_ret, num_nonrel_judged_ret, num_q). ``relstring`` has no
        aggregate and is absent.
    measures : tuple of Measure
        The measures, in the order of the columns.
    run_name : str or None
        The run's tag (``runid``): ``run.attrs["run_name"]`` when the reader set it.
    """

    per_query: pd.DataFrame
    mean: pd.Series
    measures: tuple[Measure, ...] = field(default=())
    run_name: str | None = None

    # Rich display (notebooks) and a readable print: the measures with their conventions.
    def __repr__(self) -> str:
        from rankviz.evaluation.presentation import eval_result_text

        return eval_result_text(self)

    __str__ = __repr__

    def _repr_html_(self) -> str:
        from rankviz.evaluation.presentation import eval_result_html

        return eval_result_html(self)

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict:
        bundle = {"text/plain": repr(self), "text/html": self._repr_html_()}
        return {k: v for k, v in bundle.items() if (include is None or k in include) and not (exclude and k in exclude)}


def _check_flag(value, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"The '{name}' parameter of evaluate must be True or False. Got {value!r} instead.")
    return bool(value)


def _check_int(value, name: str, minimum: int, allow_none: bool = False):
    if value is None and allow_none:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral) or value < minimum:
        extra = " or None" if allow_none else ""
        raise ValueError(
            f"The '{name}' parameter of evaluate must be an int in the range [{minimum}, inf){extra}. "
            f"Got {value!r} instead."
        )
    return int(value)


def _show(value) -> str:
    """repr of a cell, without numpy's np.float64(...) wrapper."""
    return repr(value.item() if isinstance(value, np.generic) else value)


def _as_table(source, kind: str):
    """A validated qrels/run as a :class:`~rankviz.trec.readers.TrecTable`: a file, text or dict
    is read (with the keys its reader computed), a DataFrame (or a TrecTable's frame, which its
    owner may have changed since reading) is checked."""
    from rankviz.trec.readers import TrecTable, is_dataframe, read_qrels_table, read_run_table  # pyarrow: loaded on use

    if isinstance(source, TrecTable):
        _check_frame(source.frame, kind)
        return source
    if not is_dataframe(source):
        return read_qrels_table(source) if kind == "qrels" else read_run_table(source)
    _check_frame(source, kind)
    return TrecTable(source)  # no keys: prepare computes them from the ids


def _check_frame(source: pd.DataFrame, kind: str) -> None:
    """Raise ValueError naming the column and row when a qrels/run DataFrame cannot be evaluated."""
    import pandas as pd

    value_column = "relevance" if kind == "qrels" else "score"
    missing = [c for c in ("query_id", "doc_id", value_column) if c not in source.columns]
    if missing:
        raise ValueError(
            f"The '{kind}' DataFrame given to evaluate must have columns query_id, doc_id and {value_column} "
            f"(as rankviz.read_{kind} returns); missing {', '.join(missing)}. Got columns {list(source.columns)}."
        )
    values = source[value_column]
    if kind == "qrels":
        if not pd.api.types.is_integer_dtype(values):
            numeric = pd.to_numeric(values, errors="coerce")
            bad = numeric.isna() | (numeric != np.floor(numeric))
            if bad.any():
                row = int(np.flatnonzero(bad.to_numpy())[0])
                raise ValueError(
                    f"qrels relevance grades must be integers; got {_show(values.iloc[row])} at row {row} "
                    f"(query {source['query_id'].iloc[row]!r}, doc {source['doc_id'].iloc[row]!r})."
                )
    else:
        if pd.api.types.is_float_dtype(values) or pd.api.types.is_integer_dtype(values):
            numeric = values.to_numpy(dtype=np.float64, na_value=np.nan)  # to_numeric would copy millions
        else:
            numeric = pd.to_numeric(values, errors="coerce").to_numpy(dtype=np.float64)
        finite = np.isfinite(numeric)
        if not finite.all():
            row = int(np.flatnonzero(~finite)[0])
            raise ValueError(
                f"run scores must be finite numbers; got {_show(values.iloc[row])} at row {row} "
                f"(query {source['query_id'].iloc[row]!r}, doc {source['doc_id'].iloc[row]!r})."
            )
    for column in ("query_id", "doc_id"):
        if _has_missing(source[column]):
            row = int(np.flatnonzero(source[column].isna().to_numpy())[0])
            raise ValueError(f"The '{kind}' DataFrame has a missing {column} at row {row}.")


def _has_missing(column: pd.Series) -> bool:
    """Whether a column holds a missing value: Arrow-backed strings (what the readers return)
    know their null count without a scan over millions of rows."""
    import pandas as pd

    if isinstance(column.dtype, pd.StringDtype) and column.dtype.storage == "pyarrow":
        import pyarrow as pa

        return pa.array(column.array).null_count > 0
    return bool(column.isna().any())


def aggregate(measure: Measure, values: np.ndarray) -> float:
    """The value over queries of ``measure`` from its per-query ``values``, as trec_eval forms its ``all`` line.

    The rule is the measure's registry entry's ``aggregate``: ``"mean"`` (arithmetic), ``"gmean"``
    (geometric mean of the values floored at 1e-5, trec_eval's ``gm_map`` and ``gm_bpref``) or
    ``"sum"`` (counts); no values give 0.0.

    Examples
    --------
    >>> from rankviz.evaluation.measures import parse_measure
    >>> aggregate(parse_measure("AP"), np.array([0.5, 0.0]))
    0.25
    >>> round(aggregate(parse_measure("GMAP"), np.array([0.5, 0.0])), 6)  # sqrt(0.5 * 1e-5)
    0.002236
    >>> aggregate(parse_measure("num_ret"), np.array([10, 4]))
    14.0
    """
    from rankviz.metrics.kernels.aggregate import arithmetic_mean, geometric_mean

    if values.size == 0:
        return 0.0
    how = measure.aggregate
    if how == "sum":
        return float(np.sum(values))
    if how == "gmean":
        return geometric_mean(values)  # values floored at trec_eval's 1e-5
    return arithmetic_mean(values)


def evaluate(qrels, run, measures="official", *, per_query: bool = True, complete: bool = False,
             rel_threshold: int = 1, depth: int | None = None, judged_only: bool = False,
             trec_eval_version: str = "10", collection_size: int = 0, qrels_format: str = "qrels",
             zscores=None) -> EvalResult:
    """Evaluate a run against qrels with trec_eval's conventions, all queries at once.

    Parameters
    ----------
    qrels : DataFrame, TrecTable, path, file object, text or ``{qid: {docno: grade}}``
        Judgments. A DataFrame needs columns query_id, doc_id, relevance (as
        :func:`rankviz.read_qrels` returns); a :class:`~rankviz.trec.readers.TrecTable` (what
        ``read_qrels_table`` returns) lends the keys its reader computed; anything else is read
        with ``read_qrels_table``.
    run : DataFrame, TrecTable, path, file object, text or ``{qid: {docno: score}}``
        The ranking. A DataFrame needs query_id, doc_id, score; a TrecTable is what
        ``read_run_table`` returns; anything else is read with it. The rank column of a run
        file is ignored.
    measures : str, Measure or list of them, default "official"
        Names in either family (``"P@10"``, ``"P_10"``, ``"ndcg_cut.10,20"``) or named sets
        (``"official"``, ``"all_trec"``); see :mod:`rankviz.evaluation.measures`. ``runid`` adds no
        column: the run's tag is ``result.run_name``. Names that spell the same measure
        (``"P@10"``, ``"P_10"``, ``"P.10"``, or one name twice) are one measure: it gets one
        column, where it first appears.
    per_query : bool, default True
        Keep the per-query values (trec_eval's ``-q``): ``result.per_query`` has one column per
        measure. With False it keeps only the index (the queries the means are over) and no
        columns, for a caller that wants the means alone.
    complete : bool, default False
        trec_eval's ``-c``: qrels queries the run does not retrieve anything for are scored as
        empty rankings (0 for most measures) and count in the means. Without it they are left
        out of the table and of the means (trec_eval 9's behaviour; trec_eval 10 stops with an
        error instead).
    rel_threshold : int, default 1
        trec_eval's ``-l``: a document is relevant for binary measures when its grade is at
        least this. Graded measures (nDCG...) use the grades. A measure's own ``rel=``
        parameter (``"P(rel=2)@10"``) takes precedence.
    depth : int or None
        trec_eval's ``-M``: keep only the top ``depth`` documents of each query (after sorting).
    judged_only : bool, default False
        trec_eval's ``-J``: drop retrieved documents without a judgment, then rank the rest.
    trec_eval_version : {"10", "9"}, default "10"
        Only changes how recall levels become numbers of relevant documents in
        ``iprec_at_recall`` and ``11pt_avg``: ``lround(x * R)`` in 10.0, ``(long)(x * R + 0.9)`` in
        9.x (as pytrec_eval, ranx and ir_measures). See :mod:`rankviz.metrics.kernels.interpolated`.
    collection_size : int, default 0
        trec_eval's ``-N``, used by ``utility``'s ``d`` coefficient only.
    qrels_format : {"qrels", "prefs", "qrels_prefs", "qrels_jg"}, default "qrels"
        trec_eval's ``-R``: how ``qrels`` is read. ``"prefs"``: a preference file
        (``qid jg jsg docno rel_level``, :func:`rankviz.trec.preferences.read_prefs`, or such a
        DataFrame); ``"qrels_prefs"``: a qrels read as preferences (its ``iter`` column the
        judgment group); both are for the ``prefs_*`` measures (``"all_prefs"``, ``"prefs"``).
        ``"qrels_jg"``: a qrels whose second column is a judgment group (a DataFrame needs a
        ``group`` column), for ``map_avgjg``, ``P_avgjg``, ``Rprec_mult_avgjg`` (``"qrels_jg"``).
        ``"subtopics"`` (not trec_eval's: ndeval's): subtopic qrels, ``topic subtopic docno
        judgment`` (:func:`rankviz.trec.subtopics.read_subtopic_qrels`, or such a DataFrame), for
        the diversity measures (``alpha_nDCG@k``, ``alpha_DCG@k``, ``ERR_IA@k``, ``nERR_IA@k``,
        ``NRBP``, ``nNRBP``, ``AP_IA``, ``P_IA@k``, ``StRecall@k``) with ndeval's conventions
        (:mod:`rankviz.metrics.kernels.diversity`); topics are ranked as ndeval ``-traditional``
        ranks them (trec_eval's tie rule), ``complete`` is ndeval's ``-c``.
        A measure of another format is an error, as in trec_eval.
    zscores : path, file object, text, DataFrame or None
        trec_eval's ``-Z``: a file of ``qid measure mean stddev`` lines; every value is then
        replaced by its z-score ``(x - mean) / stddev`` (see :mod:`rankviz.evaluation.zscores`
        for trec_eval's conventions: -1000000 where no mean is known). Needs ``per_query=True``.

    Returns
    -------
    EvalResult
        ``per_query`` (one row per query, one column per distinct measure, named by its
        canonical spelling ``str(measure)``: ``"P_10"`` gives the column ``"P@10"``) and
        ``mean`` (indexed the same way).

    Notes
    -----
    Conventions are trec_eval's: documents are sorted by score descending, ties broken by
    docno descending (byte order); queries only in the run are ignored; negative grades mean
    "pooled but not judged" (non-relevant, but skipped by bpref and infAP, counted by unj).
    A ratio with a zero denominator (no relevant document, nothing retrieved) is 0.0.

    Examples
    --------
    >>> import pandas as pd
    >>> qrels = pd.DataFrame({"query_id": ["q1", "q1", "q1"], "doc_id": ["d1", "d2", "d3"],
    ...                       "relevance": [1, 0, 2]})
    >>> run = pd.DataFrame({"query_id": ["q1", "q1", "q1"], "doc_id": ["d2", "d1", "d3"],
    ...                     "score": [9.0, 8.0, 8.0]})
    >>> result = evaluate(qrels, run, ["P@2", "AP"])
    >>> result.per_query.loc["q1"].tolist()  # ranking d2, d3, d1 (tie: d3 > d1 by docno)
    [0.5, 0.5833333333333333]

    P@2 = 1/2 (d3 relevant); AP = (1/2 + 2/3) / 2 = 0.583.

    Two spellings of one measure give one column, under its canonical name; a measure whose
    parameters differ (``P(rel=2)@2`` counts only grade 2 as relevant) is another column:

    >>> evaluate(qrels, run, ["P@2", "P_2", "P(rel=2)@2"]).mean.to_dict()
    {'P@2': 0.5, 'P(rel=2)@2': 0.5}
    """
    parsed = parse_measures(measures)
    _check_formats(parsed, qrels_format)
    per_query = _check_flag(per_query, "per_query")
    options = _checked_options(complete=complete, rel_threshold=rel_threshold, depth=depth, judged_only=judged_only,
                               trec_eval_version=trec_eval_version, collection_size=collection_size)
    if zscores is not None and not per_query:
        raise ValueError("The 'zscores' parameter of evaluate needs per_query=True: z-scores are per query.")
    if qrels_format != "qrels":
        values = _evaluate_other_format(_read_other_format(qrels, qrels_format), _as_table(run, "run"), parsed,
                                        qrels_format, **options)
    else:
        values = _evaluate_blocks(qrels, run, parsed, **options)
    return _standardized(values.result(per_query), zscores)


def _checked_options(*, complete, rel_threshold, depth, judged_only, trec_eval_version, collection_size) -> dict:
    """evaluate's options, checked, as the keywords of :func:`_evaluate_blocks`."""
    version = str(trec_eval_version).split(".")[0]
    if version not in ("9", "10"):
        raise ValueError(
            f"The 'trec_eval_version' parameter of evaluate must be '10' or '9'. Got {trec_eval_version!r} instead."
        )
    return {"complete": _check_flag(complete, "complete"), "rel_threshold": _check_int(rel_threshold, "rel_threshold", 0),
            "depth": _check_int(depth, "depth", 1, allow_none=True), "judged_only": _check_flag(judged_only, "judged_only"),
            "version": version, "collection_size": _check_int(collection_size, "collection_size", 0)}


@dataclass(frozen=True)
class RunValues:
    """What :func:`evaluate_values` returns: :class:`EvalResult`'s numbers as numpy columns, no pandas.

    Attributes
    ----------
    query_ids : list of str
        The evaluated queries, sorted as strings (trec_eval's order).
    columns : dict
        ``str(measure)`` -> per-query values aligned with ``query_ids`` (counts as int64,
        ``relstring`` as str, everything else float64).
    means : dict
        ``str(measure)`` -> the value over queries (:func:`aggregate`); ``relstring`` has none.
    measures : tuple of Measure
        The measures, in the order of ``columns``.
    run_name : str or None
        The run's tag.
    retrieved : ndarray of bool
        Per query: whether the run has lines for it (False for queries scored as empty
        rankings under ``complete``).
    """

    query_ids: list
    columns: dict
    means: dict
    measures: tuple = ()
    run_name: str | None = None
    retrieved: np.ndarray | None = None

    def result(self, per_query: bool = True) -> EvalResult:
        """The :class:`EvalResult` of these values (``per_query=False``: the rows without columns)."""
        import pandas as pd

        index = pd.Index(self.query_ids, name="query_id", dtype=object)
        table = pd.DataFrame(self.columns if per_query else {}, index=index)
        return EvalResult(per_query=table, mean=pd.Series(self.means, dtype=np.float64, name="mean"),
                          measures=self.measures, run_name=self.run_name)

    def standardized(self, zscores) -> RunValues:
        """These values as z-scores (trec_eval's ``-Z``; see :mod:`rankviz.evaluation.zscores`)."""
        return RunValues.of(_standardized(self.result(), zscores), self.retrieved)

    @classmethod
    def of(cls, result: EvalResult, retrieved=None) -> RunValues:
        """The values of an :class:`EvalResult` (the Dask engine's, or one with z-scores)."""
        table = result.per_query
        return cls(query_ids=[str(q) for q in table.index],
                   columns={name: table[name].to_numpy() for name in table.columns},
                   means=result.mean.to_dict(), measures=result.measures, run_name=result.run_name,
                   retrieved=None if retrieved is None else np.asarray(retrieved, dtype=bool))


def evaluate_values(qrels, run, measures="official", *, complete: bool = False, rel_threshold: int = 1,
                    depth: int | None = None, judged_only: bool = False, trec_eval_version: str = "10",
                    collection_size: int = 0) -> RunValues:
    """:func:`evaluate` of TREC qrels without pandas: the same numbers as numpy columns.

    ``qrels`` may also be a :class:`~rankviz.evaluation.ranking.JudgmentIndex` (or a
    ``concurrent.futures.Future`` of one), so that several runs are evaluated against judgments
    indexed once; ``run`` the path of a big TREC run file,
    which is then read in blocks of whole queries and never held whole (see the module
    docstring). The options are evaluate's; ``per_query`` has no meaning here (the values of
    every query are kept: a few numbers per query). What ``rankviz eval`` computes: it never
    imports pandas for TREC files.

    Examples
    --------
    >>> values = evaluate_values("q1 0 d1 1\\nq1 0 d2 0\\n", "q1 Q0 d2 1 9 t\\nq1 Q0 d1 2 8 t\\n", ["P@1", "AP"])
    >>> values.query_ids, values.columns["AP"].tolist(), values.means
    (['q1'], [0.5], {'P@1': 0.0, 'AP': 0.5})
    """
    parsed = parse_measures(measures)
    _check_formats(parsed, "qrels")
    options = _checked_options(complete=complete, rel_threshold=rel_threshold, depth=depth, judged_only=judged_only,
                               trec_eval_version=trec_eval_version, collection_size=collection_size)
    return _evaluate_blocks(qrels, run, parsed, **options)


def judgment_index(qrels):
    """The :class:`~rankviz.evaluation.ranking.JudgmentIndex` of TREC qrels (an index as is, or
    the result of a ``concurrent.futures.Future`` of one; a DataFrame or TrecTable checked first;
    a path, file object, text or dict read), for :func:`evaluate_values`. Errors are the readers'
    (:class:`~rankviz.trec.formats.TrecFormatError`) and ValueError naming a bad column, row or
    duplicate."""
    from concurrent.futures import Future

    from rankviz.evaluation.ranking import JudgmentIndex
    from rankviz.trec.readers import TrecTable, is_dataframe, read_qrels_arrow

    if isinstance(qrels, Future):  # an index being built on another thread (the command line's)
        qrels = qrels.result()
    if isinstance(qrels, JudgmentIndex):
        return qrels
    if isinstance(qrels, TrecTable) or is_dataframe(qrels):
        _check_frame(getattr(qrels, "frame", qrels), "qrels")
        return JudgmentIndex.of(qrels)
    return JudgmentIndex.of(read_qrels_arrow(qrels))


def _run_blocks(run):
    """(blocks, run_name, retry) of a run: ``blocks`` an iterable of RunBlocks of whole queries;
    ``run_name`` a function giving the run's tag once they were read; ``retry`` None, or a
    function giving the blocks again when the first ones turn out not to be whole queries
    (:class:`~rankviz.trec.readers.RunNotGrouped`)."""
    from rankviz.evaluation.ranking import run_block
    from rankviz.trec.formats import source_metadata
    from rankviz.trec.readers import TrecTable, is_dataframe, open_run_stream, read_run_arrow

    if isinstance(run, TrecTable) or is_dataframe(run):
        frame = getattr(run, "frame", run)
        _check_frame(frame, "run")
        return [run_block(run)], lambda: frame.attrs.get("run_name"), None
    stream = open_run_stream(run)
    if stream is not None:
        return stream.blocks(), lambda: stream.run_name, lambda: stream.blocks(grouped=False)
    table, keys = read_run_arrow(run)
    return [_table_block(table, keys)], lambda: source_metadata(table).get("run_name"), None


def _table_block(table, keys):
    """A run table as the readers return it (every line checked) as one block."""
    from rankviz.trec.duplicates import numpy_of, row_keys
    from rankviz.trec.readers import RunBlock

    return RunBlock(keys if keys is not None else row_keys(table), table["doc_id"], numpy_of(table["score"]))


def _evaluate_blocks(qrels, run, parsed, *, complete, rel_threshold, depth, judged_only, version,
                     collection_size) -> RunValues:
    """Every block of whole queries of ``run``, ranked, judged and scored; the values kept."""
    from rankviz.evaluation.ranking import prepare_block
    from rankviz.metrics.kernels import BatchContext  # numpy/pyarrow kernels, loaded on use
    from rankviz.trec.formats import source_metadata
    from rankviz.trec.readers import RunNotGrouped, RunNotStreamable, read_run_arrow

    # The run's first blocks are read (on a thread of their own) while the qrels are indexed;
    # the qrels' problems are still reported before the run's.
    try:
        blocks, run_name, retry = _run_blocks(run)
    except (OSError, ValueError):
        judgment_index(qrels)
        raise
    try:
        index = judgment_index(qrels)
    except BaseException:
        _close(blocks)
        raise
    kept = tuple(measure for measure in parsed if measure.spec.kernel is not None)  # runid: result.run_name

    def values_of(blocks, without_run=()):
        ids, retrieved, parts = [], [], {measure: [] for measure in kept}
        for block in blocks:
            ranking = prepare_block(index, block, depth=depth, judged_only=judged_only, without_run=without_run)
            context = BatchContext(ranking, rel_threshold=rel_threshold, trec_eval_version=version,
                                   collection_size=collection_size)
            judged = np.flatnonzero(ranking.judged)  # a run query the qrels lack is never shown
            ids += ranking.query_ids[judged].tolist()
            retrieved.append(ranking.has_run[judged])
            for measure in kept:
                parts[measure].append(np.asarray(measure.spec.kernel(context, measure))[judged])
        return ids, retrieved, parts

    try:
        ids, retrieved, parts = values_of(blocks)
    except RunNotGrouped:  # a query's lines in two places: deal the lines out by query instead
        blocks = retry()
        ids, retrieved, parts = values_of(blocks)
    except RunNotStreamable:  # not plain TREC text: read whole, the exact parser names any problem
        table, keys = read_run_arrow(run)
        ids, retrieved, parts = values_of([_table_block(table, keys)])
        run_name = lambda: source_metadata(table).get("run_name")  # noqa: E731
    finally:
        _close(blocks)
    # The qrels-only queries, as empty rankings: shown under `complete`, and computed anyway so
    # that a measure's checks see every judgment whatever the run retrieves.
    unseen = tuple(sorted(set(index.query_ids).difference(ids)))
    more_ids, more_retrieved, more_parts = values_of([_empty_block()], unseen)
    ids += more_ids
    retrieved = np.concatenate(retrieved + more_retrieved)
    # Output rows in trec_eval's order: query ids sorted as strings (Python's str order is UTF-8
    # byte order, strcmp's); blocks come in the run's order instead.
    shown = np.flatnonzero(retrieved | complete)
    selected = np.array(sorted(shown, key=ids.__getitem__), dtype=np.int64)
    if not selected.size:
        raise ValueError(
            "evaluate: no query of the run has judgments in the qrels (query ids must match exactly, "
            "as strings); nothing to evaluate."
        )
    columns, means = {}, {}
    for measure in kept:
        values = np.concatenate(parts[measure] + more_parts[measure])[selected]
        name = str(measure)
        columns[name] = values.astype(np.int64) if measure.is_count else values
        if measure.aggregate != "none":
            means[name] = aggregate(measure, values)
    return RunValues(query_ids=[ids[i] for i in selected], columns=columns, means=means, measures=kept,
                     run_name=run_name(), retrieved=retrieved[selected])


def _close(blocks) -> None:
    """Stop reading a run streamed on a thread of its own (nothing for a list of blocks)."""
    close = getattr(blocks, "close", None)
    if close is not None:
        close()


def _empty_block():
    """A block of no run lines (its queries are the ``without_run`` ones)."""
    import pyarrow as pa

    from rankviz.trec.duplicates import RowKeys
    from rankviz.trec.readers import RunBlock

    nothing = np.zeros(0, dtype=np.uint64)
    keys = RowKeys(np.zeros(0, dtype=np.int32), [], nothing, None, nothing)
    return RunBlock(keys, pa.chunked_array([], type=pa.large_string()), np.zeros(0))


def _values(parsed, context, selected: np.ndarray, query_ids: np.ndarray, run_name) -> RunValues:
    """Run every measure's kernel over ``context`` and keep the ``selected`` lists, in that order."""
    columns: dict[str, np.ndarray] = {}
    means: dict[str, float] = {}
    kept: list[Measure] = []
    for measure in parsed:
        kernel = measure.spec.kernel
        if kernel is None:  # runid: the run's tag is result.run_name
            continue
        values = np.asarray(kernel(context, measure))[selected]
        kept.append(measure)
        name = str(measure)
        columns[name] = values.astype(np.int64) if measure.is_count else values
        if measure.aggregate != "none":
            means[name] = aggregate(measure, values)
    return RunValues(query_ids=query_ids[selected].astype(str).tolist(), columns=columns, means=means,
                     measures=tuple(kept), run_name=run_name, retrieved=np.ones(selected.size, dtype=bool))


QRELS_FORMATS = tuple(JUDGMENT_FORMATS)  # trec_eval's -R formats and ndeval's subtopics
# MetricSpec.inputs -> the qrels formats (trec_eval -R) its measures are computed from.
_FORMATS_OF_INPUTS = {"prefs_run": ("prefs", "qrels_prefs"), "qrels_jg_run": ("qrels_jg",), "subtopics": ("subtopics",)}


def _check_formats(parsed, qrels_format: str) -> None:
    """Raise ValueError unless every measure can be computed from a qrels of ``qrels_format``."""
    if qrels_format not in QRELS_FORMATS:
        raise ValueError(f"The 'qrels_format' parameter of evaluate must be one of "
                         f"{', '.join(repr(f) for f in QRELS_FORMATS)}. Got {qrels_format!r} instead.")
    for measure in parsed:
        if measure.name in ("runid", "NumQ"):
            continue  # describe the evaluation, whatever its input
        needs = _FORMATS_OF_INPUTS.get(measure.spec.inputs, ("qrels",))
        if qrels_format not in needs:
            sets = {"prefs": "all_prefs", "qrels_prefs": "all_prefs", "qrels_jg": "qrels_jg"}
            hint = f" (the measures of {qrels_format!r} are the set {sets[qrels_format]!r})" if qrels_format in sets else ""
            if qrels_format == "subtopics":
                hint = " (subtopic qrels give the diversity measures: alpha_nDCG, ERR_IA, NRBP, P_IA, StRecall...)"
            if needs == ("subtopics",):
                hint = " (subtopic qrels, ndeval's 'topic subtopic docno judgment' lines; CLI: -R subtopics)"
            raise ValueError(
                f"evaluate: measure {measure.trec_name!r} is computed from qrels_format "
                f"{' or '.join(repr(f) for f in needs)} (trec_eval -R), not {qrels_format!r}{hint}."
            )


def _read_other_format(qrels, qrels_format: str) -> pd.DataFrame:
    """The judgments of a qrels_format other than "qrels", as a DataFrame (prefs columns, or qrels + group)."""
    from rankviz.trec.preferences import read_prefs, read_qrels_prefs
    from rankviz.trec.readers import TrecTable, read_qrels
    from rankviz.trec.subtopics import read_subtopic_qrels

    import pandas as pd

    source = qrels.frame if isinstance(qrels, TrecTable) else qrels
    if qrels_format == "prefs":
        return read_prefs(source)
    if qrels_format == "subtopics":
        return read_subtopic_qrels(source)
    if isinstance(source, pd.DataFrame):
        if "group" not in source.columns:
            if qrels_format == "qrels_jg":
                raise ValueError("qrels_format='qrels_jg' needs the judgment group of each judgment: a DataFrame "
                                 "with a 'group' column, as read_qrels(..., judgment_groups=True) returns; got "
                                 f"columns {list(source.columns)}.")
            source = source.assign(group="0")  # qrels_prefs: one judgment group, as an iter column of 0s gives
        _check_frame(source, "qrels")
        frame = source
    else:
        frame = read_qrels(source, judgment_groups=True)
    return read_qrels_prefs(frame) if qrels_format == "qrels_prefs" else frame


def _evaluate_other_format(frame: pd.DataFrame, run_table, parsed, qrels_format: str, *, complete, rel_threshold,
                           depth, judged_only, version, collection_size) -> RunValues:
    """evaluate() for preference files, qrels read as preferences, judgment-group and subtopic qrels.

    trec_eval's -J (``judged_only``) drops each group's unjudged documents before ranking for
    the judgment-group measures, and changes nothing for the preference measures, which only
    ever look at judged documents. (``collection_size``: -N, for utility, a qrels measure.)
    """
    if qrels_format == "subtopics":
        from rankviz.evaluation.subtopics import prepare_subtopics

        context, query_ids = prepare_subtopics(frame, run_table.frame, depth=depth, complete=complete,
                                               judged_only=judged_only, rel_threshold=rel_threshold)
    elif qrels_format == "qrels_jg":
        from rankviz.evaluation.judgment_groups import prepare_judgment_groups

        context, query_ids = prepare_judgment_groups(frame, run_table.frame, depth=depth, complete=complete,
                                                     judged_only=judged_only, rel_threshold=rel_threshold,
                                                     trec_eval_version=version)
    else:
        from rankviz.evaluation.preferences import prepare_preferences

        context, query_ids = prepare_preferences(frame, run_table.frame, depth=depth, complete=complete)
    return _values(parsed, context, np.arange(len(query_ids)), query_ids, run_table.frame.attrs.get("run_name"))


def _standardized(result: EvalResult, zscores) -> EvalResult:
    if zscores is None:
        return result
    from rankviz.evaluation.zscores import standardize
    from rankviz.trec.preferences import read_zscores

    per_query, mean = standardize(result, read_zscores(zscores))
    return EvalResult(per_query=per_query, mean=mean, measures=result.measures, run_name=result.run_name)
