"""Click logs at scale: AUC, GAUC and per-group ranking measures over a table of impressions.

A click log is a table with one row per impression: the group it was shown in (a user, a search
session, a query), its label (1 clicked, 0 not; or a grade) and the model's score.
:func:`evaluate_clicks` computes, in one pass over the table,

* ``AUC``: one ROC AUC over every row (ties in score count one half);
* ``GAUC``: the AUC of each group, averaged with weights (impressions by default), groups
  holding one class only left out and counted (course note 001: AUC within each search
  session, then averaged; Zhou et al., KDD 2018);
* ranking measures per group (``nDCG@10``, ``P@5``, ``RR`` (alias ``MRR``), ``AP``,
  ``Success@k``, ``R@k``): each group's impressions ranked by score, scored by the batch kernels of
  :mod:`rankviz.metrics.kernels` with the labels as grades, averaged over the groups holding
  a positive.

Two engines give the same digits: ``"memory"`` (a pandas DataFrame or a Parquet file read
whole) and ``"dask"`` (a Parquet dataset or a dask DataFrame, on a dask.distributed cluster).
Both use the one AUC kernel of :mod:`rankviz.metrics.kernels.auc`, the one behind
:func:`rankviz.metrics.auc` and :func:`rankviz.metrics.gauc`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from os import PathLike
from types import MappingProxyType

import numpy as np
import pandas as pd

from rankviz.evaluation.engines import ENGINES
from rankviz.evaluation.measures import Measure, parse_measure
from rankviz.metrics.kernels.auc import auc_from_runs, auc_values, score_runs, weighted_mean
from rankviz.metrics.kernels.context import BatchContext
from rankviz.metrics.kernels.lists import RankedLists
from rankviz.registry import GAUC_WEIGHT, METRICS

__all__ = ["ClickEvaluation", "evaluate_clicks", "CLICK_WEIGHTS", "RANKING_FAMILIES", "DEFAULT_CLICK_MEASURES",
           "MissingColumnError", "click_measure_name"]

#: GAUC weights, the registry's and their aliases: "size" (alias "impressions") rows of the group, "positives" its
#: clicks, "uniform" 1.
CLICK_WEIGHTS = GAUC_WEIGHT.accepted
#: Ranking measure families a click table can be scored with: their kernels need no qrels beyond
#: the labels, and a group's value depends on its own rows only, to the last digit, so batches and
#: Dask partitions agree exactly. (ERR is not offered: its g_max is the top label of the whole
#: table, which one batch or partition does not see; the table's top would have to be passed to each.)
RANKING_FAMILIES = tuple(spec.measure for spec in METRICS if spec.from_clicks)  # the registry's from_clicks
DEFAULT_CLICK_MEASURES = ("auc", "gauc", "nDCG@10", "P@10", "RR")


@dataclass(frozen=True)
class ClickEvaluation:
    """What :func:`evaluate_clicks` returns, whichever engine computed it.

    Attributes
    ----------
    values : pandas.Series
        One value per requested measure, in the requested order: ``"AUC"``, ``"GAUC"`` and the
        ranking measures' canonical names (``"nDCG@10"``, ``"RR"``...).
    per_group : pandas.DataFrame or None
        One row per group, sorted by group id (index named after the group column):
        ``impressions``, ``positives``, ``negatives``, ``auc`` (NaN for one class),
        ``weight`` (GAUC's w_g) and a column per ranking measure. None when not asked for.
    counts : mapping
        ``rows``, ``positives``, and, when groups were formed (GAUC, a ranking measure or
        ``per_group`` asked for), ``groups``, ``one_class_groups`` (left out of GAUC) and
        ``groups_without_positive`` (left out of the ranking means).
    engine : str
        ``"memory"`` or ``"dask"``.
    """

    values: pd.Series
    per_group: pd.DataFrame | None = None
    counts: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    engine: str = "memory"


# ------------------------------------------------------------------------------ measures


@dataclass(frozen=True)
class _Plan:
    """The parsed request: which of AUC / GAUC, which ranking measures, in the caller's order."""

    names: tuple  # output names, in order
    global_auc: bool
    group_auc: bool
    ranking: tuple  # Measure values


def click_measure_name(measure) -> str:
    """The name :func:`evaluate_clicks` reports ``measure`` under: ``"AUC"``, ``"GAUC"`` or the
    ranking measure's canonical name (``"MRR"`` and ``"RR"`` are both ``"RR"``).

    Raises ValueError for a measure the click evaluation has no rule for.

    >>> click_measure_name("auc"), click_measure_name("MRR"), click_measure_name("ndcg_cut_10")
    ('AUC', 'RR', 'nDCG@10')
    """
    text = str(measure)
    if text.lower() in ("auc", "gauc"):
        return text.upper()
    parsed = measure if isinstance(measure, Measure) else parse_measure(text)
    if parsed.name not in RANKING_FAMILIES:
        raise ValueError(f"accepts 'auc', 'gauc' and the ranking measures {', '.join(RANKING_FAMILIES)} (with a "
                         f"cutoff, e.g. nDCG@10). Got {text!r} instead.")
    return str(parsed)


def _plan(measures) -> _Plan:
    if isinstance(measures, (str, Measure)):
        measures = [measures]
    names, ranking, global_auc, group_auc = [], [], False, False
    for item in measures:
        try:
            name = click_measure_name(item)
        except ValueError as error:
            raise ValueError(f"The 'measures' parameter of evaluate_clicks {error}") from None
        if name == "AUC":
            global_auc = True
        elif name == "GAUC":
            group_auc = True
        else:
            measure = item if isinstance(item, Measure) else parse_measure(str(item))
            if measure not in ranking:
                ranking.append(measure)
        if name not in names:
            names.append(name)
    if not names:
        raise ValueError("The 'measures' parameter of evaluate_clicks must name at least one measure. Got none.")
    return _Plan(tuple(names), global_auc, group_auc, tuple(ranking))


# ---------------------------------------------------------------------- one table, in memory


class MissingColumnError(ValueError):
    """A click log without a column :func:`evaluate_clicks` was told to read (``column``; the log's
    ``columns``). The message tells a Python caller to name the columns with ``group=, label= and
    score=``; another front end says it in its own words (the command line: ``--group``...)."""

    def __init__(self, what: str, column: str, columns):
        self.column, self.columns = column, [str(c) for c in columns]
        super().__init__(f"evaluate_clicks: {what} has no column {column!r} (columns: {', '.join(self.columns)}); "
                         "name the columns with group=, label= and score=.")


def _check_columns(what: str, columns, wanted) -> None:
    """MissingColumnError for the first of ``wanted`` (None: not needed) not among ``columns``."""
    missing = [c for c in wanted if c is not None and c not in columns]
    if missing:
        raise MissingColumnError(what, missing[0], columns)


def _checked_arrays(frame: pd.DataFrame, group: str | None, label: str, score: str):
    """(group values, labels, scores) of a pandas frame, validated: clear errors, no traceback.
    ``group=None``: the labels and scores only (the group values returned are None)."""
    _check_columns("the table", frame.columns, (group, label, score))
    arrays = {}
    for column in (label, score):
        try:
            values = pd.to_numeric(frame[column], errors="raise").to_numpy(dtype=np.float64)
        except (ValueError, TypeError):
            raise ValueError(f"evaluate_clicks: column {column!r} must hold numbers; got dtype {frame[column].dtype}.") from None
        bad = ~np.isfinite(values) | ((values < 0) if column == label else False)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            what = "finite numbers >= 0 (0 not clicked, 1 clicked, or a grade)" if column == label else "finite numbers"
            where = f" (group {frame[group].iloc[i]!r})" if group is not None else ""
            raise ValueError(f"evaluate_clicks: column {column!r} must hold {what}; got {float(values[i])!r} in row {i + 1}"
                             f"{where} of {_part(frame)}.")
        arrays[column] = values
    if group is None:
        return None, arrays[label], arrays[score]
    if frame[group].isna().any():
        i = int(np.flatnonzero(frame[group].isna().to_numpy())[0])
        raise ValueError(f"evaluate_clicks: column {group!r} (the group id) is missing in row {i + 1} of {_part(frame)}.")
    return frame[group], arrays[label], arrays[score]


def _part(frame: pd.DataFrame) -> str:
    """Where a row number counts from: the table, or (Dask engine) one partition of it."""
    return frame.attrs.get("rankviz_part", "the table")


#: Groups are scored in batches of whole groups of about this many rows: the sort and run arrays
#: of one batch, not of the whole table, are what the memory engine holds at its peak.
BATCH_ROWS = 1 << 22


def _group_table(frame: pd.DataFrame, group: str, label: str, score: str, ranking: tuple,
                 rel_threshold: float) -> pd.DataFrame:
    """One row per group of ``frame`` (sorted by group id): counts, AUC and ranking measures.

    Every group must lie whole in ``frame``: the Dask engine calls this per partition after a
    shuffle by group, the memory engine on the whole table. A group's values depend on its own
    rows only (see :data:`RANKING_FAMILIES`), so batches and partitions change no digit.
    """
    ids, labels, scores = _checked_arrays(frame, group, label, score)
    codes, uniques = pd.factorize(ids, sort=True)
    del ids
    n, n_groups = codes.shape[0], len(uniques)
    if n <= BATCH_ROWS:
        columns = _group_batch(codes, labels, scores, n_groups, ranking, rel_threshold)
    else:
        order = np.argsort(codes, kind="stable")
        codes = codes[order]
        # Cut at the first row of the group holding every BATCH_ROWS-th row: batches of whole groups.
        cuts = np.searchsorted(codes, codes[np.arange(BATCH_ROWS, n, BATCH_ROWS)], side="left")
        bounds = np.unique(np.concatenate(([0], cuts, [n])))
        parts = []
        for a, b in zip(bounds[:-1].tolist(), bounds[1:].tolist()):  # a loop over batches, not rows
            rows, first = order[a:b], int(codes[a])
            parts.append(_group_batch(codes[a:b] - first, labels[rows], scores[rows], int(codes[b - 1]) - first + 1,
                                      ranking, rel_threshold))
        columns = {name: np.concatenate([part[name] for part in parts]) for name in parts[0]}
    return pd.DataFrame(columns, index=pd.Index(uniques, name=group))


def _group_batch(codes, labels, scores, n_groups: int, ranking: tuple, rel_threshold: float) -> dict:
    """The per-group columns of rows whose group codes are 0 .. n_groups - 1."""
    positive = labels >= rel_threshold
    run_group, _, run_positives, run_negatives = score_runs(codes, positive, scores, n_groups)
    del positive
    u, n_pos, n_neg = auc_from_runs(run_group, run_positives, run_negatives, n_groups)
    del run_group, run_positives, run_negatives
    columns = {"impressions": n_pos + n_neg, "positives": n_pos, "negatives": n_neg, "auc": auc_values(u, n_pos, n_neg)}
    if ranking:
        context = BatchContext(_ranked_lists(codes, labels, scores, n_groups), rel_threshold=rel_threshold)
        for measure in ranking:
            columns[str(measure)] = measure.spec.kernel(context, measure) if n_groups else np.zeros(0)
    return columns


def _ranked_lists(codes: np.ndarray, labels: np.ndarray, scores: np.ndarray, n_groups: int) -> RankedLists:
    """Each group's rows ranked by decreasing score, ties by increasing label (pessimistic), and
    its own labels as the judged pool (the ideal ranking of nDCG)."""
    order = np.lexsort((labels, -scores, codes))
    counts = np.bincount(codes, minlength=n_groups).astype(np.int64)
    starts = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    row_query = np.repeat(np.arange(n_groups, dtype=np.int64), counts)
    judged = labels[np.lexsort((-labels, codes))]
    return RankedLists(starts=starts, row_query=row_query, grade=labels[order], judged_starts=starts,
                       judged_query=row_query, judged_grade=judged,
                       max_grade=max(float(labels.max(initial=0.0)), 0.0))


def _located(frame: pd.DataFrame, partition_info) -> pd.DataFrame:
    """One Dask partition, marked so that row numbers in errors say which partition they count from."""
    if partition_info is None:
        return frame
    frame = frame.copy(deep=False)
    frame.attrs["rankviz_part"] = f"partition {partition_info['number']}"
    return frame


def _partition_histogram(frame: pd.DataFrame, label, score, rel_threshold, partition_info=None):
    return _score_histogram(_located(frame, partition_info), label, score, rel_threshold)


def _partition_groups(frame: pd.DataFrame, group, label, score, ranking, rel_threshold, partition_info=None):
    return _group_table(_located(frame, partition_info), group, label, score, ranking, rel_threshold)


def _score_histogram(frame: pd.DataFrame, label: str, score: str, rel_threshold: float) -> pd.DataFrame:
    """Positives and negatives per distinct score (columns score, positives, negatives), sorted by score."""
    _, labels, scores = _checked_arrays(frame, None, label, score)
    _, run_score, run_positives, run_negatives = score_runs(np.zeros(0, np.int64), labels >= rel_threshold, scores, 1)
    return pd.DataFrame({"score": run_score, "positives": run_positives, "negatives": run_negatives})


# ----------------------------------------------------------------------------- reduction


def _weights(table: pd.DataFrame, weights: str) -> np.ndarray:
    if weights in ("impressions", "size"):
        return table["impressions"].to_numpy(dtype=np.float64)
    if weights == "positives":
        return table["positives"].to_numpy(dtype=np.float64)
    return np.ones(len(table))


def _summarise(plan: _Plan, table: pd.DataFrame, histogram: pd.DataFrame | None, weights: str,
               keep_per_group: bool, engine: str) -> ClickEvaluation:
    """Overall values from the per-group table (sorted by group) and the score histogram: the
    same reductions, in the same order, whichever engine built them."""
    values = {}
    if histogram is not None:
        u, n_pos, n_neg = auc_from_runs(np.zeros(len(histogram), np.int64), histogram["positives"].to_numpy(),
                                        histogram["negatives"].to_numpy(), 1)
        values["AUC"] = float(auc_values(u, n_pos, n_neg)[0])
    if table is None:  # AUC alone: no group was formed, the rows are counted from the histogram
        counts = {"rows": int(histogram["positives"].sum() + histogram["negatives"].sum()),
                  "positives": int(histogram["positives"].sum())}
        return ClickEvaluation(values=pd.Series([values["AUC"]], index=["AUC"], dtype=float), per_group=None,
                               counts=MappingProxyType(counts), engine=engine)
    table = table.assign(weight=_weights(table, weights))
    two_classes = (table["positives"] > 0) & (table["negatives"] > 0)
    if plan.group_auc:
        used = table[two_classes & (table["weight"] > 0)]
        w = used["weight"].to_numpy()
        values["GAUC"] = weighted_mean(used["auc"], w) if len(used) else float("nan")
    with_positive = table["positives"] > 0
    for measure in plan.ranking:
        column = table.loc[with_positive, str(measure)].to_numpy()
        values[str(measure)] = float(np.mean(column)) if column.size else float("nan")
    counts = {
        "rows": int(table["impressions"].sum()),
        "positives": int(table["positives"].sum()),
        "groups": len(table),
        "one_class_groups": int((~two_classes).sum()),
        "groups_without_positive": int((~with_positive).sum()),
    }
    return ClickEvaluation(values=pd.Series([values[n] for n in plan.names], index=list(plan.names), dtype=float),
                           per_group=table if keep_per_group else None, counts=MappingProxyType(counts), engine=engine)


# ---------------------------------------------------------------------------------- engines


def _is_dask_frame(table) -> bool:
    module = type(table).__module__
    return module.startswith("dask")


def _check_parquet_columns(path, columns) -> None:
    """A clear error naming the Parquet file or dataset and its columns when one is missing."""
    import pyarrow.dataset

    try:
        names = pyarrow.dataset.dataset(path, format="parquet").schema.names
    except (OSError, ValueError) as error:
        raise ValueError(f"evaluate_clicks: cannot read {str(path)!r} as a Parquet file or dataset: {error}") from None
    _check_columns(repr(str(path)), names, columns)


def _columns_needed(plan: _Plan, columns, per_group) -> tuple[bool, list]:
    """Whether groups are needed, and the columns to read: the global AUC alone needs no group ids."""
    needs_groups = bool(plan.group_auc or plan.ranking or per_group)
    return needs_groups, (list(columns) if needs_groups else list(columns[1:]))


def _opened(table, wanted, read_parquet):
    """``table`` as a frame: a Parquet file or dataset read by ``read_parquet`` (pandas' or dask's)
    once it is checked to hold the ``wanted`` columns, a dask frame's ``wanted`` columns, or the
    pandas DataFrame itself; anything else is refused."""
    if isinstance(table, (str, PathLike)):
        _check_parquet_columns(table, wanted)
        return read_parquet(table, columns=wanted)
    if _is_dask_frame(table):
        _check_columns("the table", table.columns, wanted)
        return table[wanted]
    if isinstance(table, pd.DataFrame):
        _check_columns("the table", table.columns, wanted)
        return table
    raise ValueError(f"evaluate_clicks: 'table' must be a pandas DataFrame, a dask DataFrame or the path of a Parquet "
                     f"file or dataset directory. Got {type(table).__name__} instead.")


def _memory(table, plan: _Plan, columns, weights, rel_threshold, per_group) -> ClickEvaluation:
    group, label, score = columns
    needs_groups, wanted = _columns_needed(plan, columns, per_group)
    table = _opened(table, wanted, pd.read_parquet)
    if _is_dask_frame(table):
        table = table.compute()
    group_table = _group_table(table, group, label, score, plan.ranking, rel_threshold) if needs_groups else None
    histogram = _score_histogram(table, label, score, rel_threshold) if plan.global_auc else None
    return _summarise(plan, group_table, histogram, weights, per_group, "memory")


def _compute(client, *collections, many: bool = False):
    """Compute on ``client`` (None: dask's default scheduler, the current Client if any)."""
    import dask

    if client is not None:
        computed = client.compute(list(collections), sync=True)
    else:
        computed = dask.compute(*collections)
    return list(computed) if many else computed[0]


def _dask(table, plan: _Plan, columns, weights, rel_threshold, per_group, client, partitions,
          shuffle: bool) -> ClickEvaluation:
    import dask.dataframe as dd

    group, label, score = columns
    needs_groups, wanted = _columns_needed(plan, columns, per_group)
    frame = _opened(table, wanted, dd.read_parquet)
    if isinstance(frame, pd.DataFrame):
        frame = dd.from_pandas(frame[wanted], npartitions=partitions or 4)
    empty = frame._meta
    collections = {}
    if plan.global_auc:
        # Exact with ties: per-partition (score -> positives, negatives) histograms, added up in a
        # tree; memory on the final reducer and the client is bounded by the number of distinct scores.
        meta = _score_histogram(empty, label, score, rel_threshold)
        partial = frame.map_partitions(_partition_histogram, label, score, rel_threshold, meta=meta)
        collections["histogram"] = partial.groupby("score").sum(split_every=8)
    if needs_groups:
        # Each group whole in one partition, then the in-memory kernel per partition.
        if shuffle:
            frame = frame.shuffle(on=group, npartitions=partitions) if partitions else frame.shuffle(on=group)
        meta = _group_table(empty, group, label, score, plan.ranking, rel_threshold)
        collections["groups"] = frame.map_partitions(_partition_groups, group, label, score, plan.ranking,
                                                     rel_threshold, meta=meta)
    keys = list(collections)
    results = dict(zip(keys, _compute(client, *[collections[k] for k in keys], many=True)))
    histogram = None
    if "histogram" in results:
        histogram = results["histogram"].sort_index().reset_index()
    group_table = results["groups"].sort_index(kind="stable") if "groups" in results else None
    if group_table is not None and not shuffle and group_table.index.has_duplicates:
        split = group_table.index[group_table.index.duplicated()][0]
        raise ValueError(
            f"evaluate_clicks: shuffle=False needs every group in one partition, but group {split!r} has rows in "
            f"several partitions (files or row groups); its per-partition values would be wrong. Leave shuffle=True."
        )
    return _summarise(plan, group_table, histogram, weights, per_group, "dask")


def evaluate_clicks(table, *, group: str = "group", label: str = "label", score: str = "score",
                    measures=DEFAULT_CLICK_MEASURES, weights: str = "impressions", rel_threshold: float = 1,
                    engine: str = "memory", client=None, per_group: bool = False,
                    partitions: int | None = None, shuffle: bool = True) -> ClickEvaluation:
    r"""AUC, GAUC and per-group ranking measures of a click log, in memory or on Dask.

    .. math::

        \mathrm{AUC} = \frac{U}{|P|\,|N|}, \qquad
        \mathrm{GAUC} = \frac{\sum_g w_g \, \mathrm{AUC}_g}{\sum_g w_g}, \qquad
        \overline{M} = \frac{1}{|G^+|} \sum_{g \in G^+} M_g

    with U the Mann-Whitney count (pairs a positive wins, plus half the tied pairs), the GAUC
    sum over the groups holding both classes, and G+ the groups holding a positive.

    Parameters
    ----------
    table : pandas.DataFrame, dask DataFrame, str or path
        One row per impression. A path names a Parquet file or a Parquet dataset directory
        (only the three columns are read).
    group, label, score : str, default "group", "label", "score"
        Column names: the group (user, session, query) of the impression, its label (1
        clicked, 0 not, or a grade >= 0) and the model's score (higher: more likely clicked).
    measures : sequence of str, default ("auc", "gauc", "nDCG@10", "P@10", "RR")
        ``"auc"`` (over every row), ``"gauc"`` and ranking measures of the families
        ``nDCG, P, RR (alias MRR), AP, Success, R``, spelled as
        :func:`rankviz.evaluation.parse_measure` reads them (``"nDCG(gain=exp)@10"``).
    weights : {"impressions", "size", "positives", "uniform"}, default "impressions"
        GAUC's w_g: the group's rows (``"size"`` is an alias, as in :func:`rankviz.metrics.gauc`),
        its positives (clicks), or 1.
    rel_threshold : float, default 1
        A row is positive (clicked, relevant) when its label is >= this, for AUC, GAUC and the
        binary ranking measures; nDCG uses the labels as grades.
    engine : {"memory", "dask"}, default "memory"
        ``"memory"`` reads the whole table into pandas; ``"dask"`` works partition by partition
        on a dask.distributed cluster (see Notes).
    client : distributed.Client or None
        The cluster for ``engine="dask"``; None: dask's default (the current Client, if any).
    per_group : bool, default False
        Keep the per-group table in the result.
    partitions : int or None
        Dask only: the number of partitions after the shuffle by group (None: as many as read).
    shuffle : bool, default True
        Dask only: shuffle the rows by group before the per-group pass. ``False`` when every group
        already lies in one partition (e.g. each Parquet file holds whole sessions) saves the
        shuffle, the Dask engine's main cost; it is checked, not trusted: a group found in two
        partitions raises ValueError (no wrong value is returned).

    Returns
    -------
    ClickEvaluation
        ``values`` (a Series, one value per measure), ``per_group`` (or None), ``counts`` and
        ``engine``. Always this type.

    Notes
    -----
    *Ties.* AUC and GAUC count a tied (positive, negative) pair one half, exactly as
    :func:`rankviz.metrics.auc` (same kernel, :mod:`rankviz.metrics.kernels.auc`). The ranking
    measures rank a group's rows by decreasing score and put tied rows in increasing label
    order (the pessimistic order: a tie never helps), so the value does not depend on row order.

    *Degenerate groups.* A group with only positives or only negatives has no AUC: it is left
    out of GAUC and counted in ``counts["one_class_groups"]``. A group without a positive scores
    0 on every ranking measure (rankviz's per-query policy) but is left out of their means and
    counted in ``counts["groups_without_positive"]``: sessions without a click say nothing about
    the ranking. Nothing left: NaN.

    *Dask engine.* The global AUC combines per-partition histograms of (score -> positives,
    negatives) in a tree and applies the Mann-Whitney count to the merged, sorted histogram:
    exact with ties, and the memory it needs is bounded by the number of *distinct scores*, not
    rows (round or bin scores upstream if they are all distinct floats and that number is too
    large). GAUC and the ranking measures shuffle the rows by group, so that every group lies in
    one partition, run the in-memory kernel per partition and collect one row per group on the
    client, where the same reduction as in memory (groups sorted by id, sum(w AUC) / sum(w))
    gives the same digits. Client memory is bounded by the number of groups. A bad value is
    reported with its row number within a partition (after the shuffle, for the per-group pass).

    References
    ----------
    .. [1] H. B. Mann and D. R. Whitney, "On a test of whether one of two random variables is
       stochastically larger than the other", Ann. Math. Statist. 18, 1947.
    .. [2] G. Zhou et al., "Deep Interest Network for click-through rate prediction", KDD 2018 (GAUC).
    .. [3] Course note 001, "AUC/GAUC".

    Examples
    --------
    Session s1: clicked 0.9, skipped 0.5 and 0.9 (a tie): AUC_s1 = (1 + 0.5) / 2 = 0.75;
    session s2: clicked 0.2, skipped 0.1: AUC_s2 = 1; GAUC by impressions (3 * 0.75 + 2 * 1) / 5 = 0.85.

    >>> clicks = pd.DataFrame({"group": ["s1", "s1", "s1", "s2", "s2"], "label": [1, 0, 0, 1, 0],
    ...                        "score": [0.9, 0.5, 0.9, 0.2, 0.1]})
    >>> result = evaluate_clicks(clicks, measures=["gauc", "auc", "RR"])
    >>> result.values.round(4).to_dict()  # AUC: pairs won (0.9 > 0.5, 0.9 > 0.1, 0.2 > 0.1) + tie / 2
    {'GAUC': 0.85, 'AUC': 0.5833, 'RR': 0.75}
    >>> dict(result.counts)
    {'rows': 5, 'positives': 2, 'groups': 2, 'one_class_groups': 0, 'groups_without_positive': 0}

    The 0.5833 is (3 + 0.5) / (2 * 3); RR is (1/2 + 1) / 2, the tie in s1 ranked pessimistically.
    """
    if engine not in ENGINES:
        raise ValueError(f"The 'engine' parameter of evaluate_clicks must be one of 'memory', 'dask'. Got {engine!r} instead.")
    if weights not in CLICK_WEIGHTS:
        raise ValueError(f"The 'weights' parameter of evaluate_clicks must be one of "
                         f"{', '.join(map(repr, CLICK_WEIGHTS))}. Got {weights!r} instead.")
    plan = _plan(measures)
    columns = (group, label, score)
    if engine == "memory":
        return _memory(table, plan, columns, weights, rel_threshold, per_group)
    return _dask(table, plan, columns, weights, rel_threshold, per_group, client, partitions, shuffle)
