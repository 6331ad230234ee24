"""Many queries at once: a small table of rankings (or of per-query AP values) in, the per-query
metrics and their aggregates (MAP, GMAP, HMAP, MRR) out.

What the "Many queries" page computes, kept free of Streamlit so it can be tested and reused:

- :func:`parse_query_rows` validates the page's table (query id, grades "1,0,1,0", optional R)
  and names the row of any bad cell;
- :func:`per_query_table` scores each query (AP, RR, nDCG@k, P@k and the lecture's interpolated
  AP), :func:`aggregate_table` averages them four ways;
- :func:`query_breakdowns` gives the worked tables of one query;
- :func:`parse_run_values` and :func:`runs_aggregate_table` do the same for per-query AP values of
  several runs (the lecture's GMAP Run 1 / Run 2 table);
- :func:`preset_query_rows` and :func:`preset_run_values` turn course exercises into those tables.

>>> queries = parse_query_rows([{"query": "q1", "grades": "1,0,1", "R": ""},
...                             {"query": "q2", "grades": "0,0,1", "R": "2"}])
>>> scored = per_query_table(queries)
>>> scored.table["AP"].round(3).tolist()  # q1: (1/1 + 2/3) / 2; q2: (1/3) / 2
[0.833, 0.167]
>>> aggregate_table(scored).set_index("measure").loc["MAP", "value"].round(3)  # (0.833 + 0.167) / 2
np.float64(0.5)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from rankviz.i18n import N_
from rankviz.i18n import _ as translate
from rankviz.metrics import count_relevant
from rankviz.teaching.parsing import format_grades, parse_grades, parse_optional_int

__all__ = [
    "QueryRanking",
    "PerQueryMetrics",
    "MAX_QUERIES",
    "QUERY_COLUMNS",
    "parse_query_rows",
    "query_rows_frame",
    "format_query_link",
    "parse_query_link",
    "per_query_table",
    "aggregate_table",
    "query_breakdowns",
    "parse_run_values",
    "runs_aggregate_table",
    "preset_query_rows",
    "preset_run_values",
    "QUERY_PRESETS",
    "RUN_PRESETS",
]

# A page of queries a person types or reads; run files (thousands of topics) go to the
# "Evaluate run files" page instead.
MAX_QUERIES = 200
QUERY_COLUMNS = ("query", "grades", "R")
MAX_RELEVANT = 100_000
# Course exercises this module can load: several rankings, or per-query AP values of runs.
QUERY_PRESETS = ("map_q1_q2", "mrr_threshold", "rr_same_first_relevant")
RUN_PRESETS = ("gmap_runs",)


@dataclass(frozen=True)
class QueryRanking:
    """One query of the table: its id, grades in ranked order, and R (None: counted from the list).

    Examples
    --------
    Relevant at ranks 1 and 3 with R = 10 relevant documents in the collection: AP divides by
    R, not by the 2 retrieved, (1/1 + 2/3) / 10 = 0.167.

    >>> query = QueryRanking("q1", (1, 0, 1), n_relevant=10)
    >>> per_query_table([query]).table[["query", "R", "AP"]].round(3).values.tolist()
    [['q1', 10, 0.167]]
    """

    query_id: str
    rels: tuple
    n_relevant: int | None = None


@dataclass(frozen=True, eq=False)
class PerQueryMetrics:
    """What :func:`per_query_table` returns: the metrics of each query, and how to read them.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per query: ``query``, ``ranked``, ``R``, then one column per metric.
    metric_columns : tuple of str
        The metric columns of ``table``, in order (every column but ``query``, ``ranked``, ``R``).
    conventions : dict
        Metric column -> the convention it follows, in words (e.g. ``"AP"`` ->
        ``"non-interpolated, divided by R"``), for a caption.
    """

    table: Any
    metric_columns: tuple
    conventions: dict


def _blank(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value)) or str(value).strip() == ""


def _rows(rows) -> list[dict]:
    if hasattr(rows, "to_dict"):  # a DataFrame from the page's grid
        return rows.to_dict("records")
    return [dict(row) for row in rows]


def parse_query_rows(rows) -> tuple[QueryRanking, ...]:
    """Validate a table of queries: one row per query with ``query``, ``grades`` and optional ``R``.

    Parameters
    ----------
    rows : DataFrame or sequence of mappings
        ``query`` (an id, blank: ``q<row>``), ``grades`` (text such as ``"1,0,1,0"`` or a
        sequence of numbers, in ranked order) and ``R`` (the relevant documents of the query in
        the collection; blank: the relevant documents in the list). Rows whose cells are all
        blank (a row just added in the grid) are skipped.

    Returns
    -------
    tuple of QueryRanking

    Raises
    ------
    ValueError
        Naming the row (and query) of the first bad cell: unparsable grades, an R smaller than
        the relevant documents already ranked, a repeated query id, no query at all, or more
        than ``MAX_QUERIES`` queries.

    Examples
    --------
    >>> parse_query_rows([{"query": "q1", "grades": "1 0 2", "R": 4}])
    (QueryRanking(query_id='q1', rels=(1, 0, 2), n_relevant=4),)
    >>> parse_query_rows([{"query": "q1", "grades": "1,x"}])
    Traceback (most recent call last):
    ...
    ValueError: Row 1 (q1): Grade at rank 2 is 'x': grades must be numbers from 0 to 100.
    """
    parsed: list[QueryRanking] = []
    seen: dict[str, int] = {}
    for number, row in enumerate(_rows(rows), start=1):
        query, grades, r_text = row.get("query"), row.get("grades"), row.get("R")
        if all(_blank(v) for v in (query, grades, r_text)):
            continue
        query_id = f"q{number}" if _blank(query) else str(query).strip()
        where = translate(N_("Row {number} ({query_id})")).format(number=number, query_id=query_id)
        if query_id in seen:
            raise ValueError(translate(N_('{where}: query id {query_id} is already used by row {seen_query_id}; give '
                                          'each query its own id.')).format(
                where=where, query_id=repr(query_id), seen_query_id=seen[query_id]))
        seen[query_id] = number
        try:
            if _blank(grades):
                raise ValueError(translate(N_('no grades; type them in ranked order, e.g. 1,0,1,0.')))
            rels = parse_grades(grades if isinstance(grades, str) else format_grades(grades))
            n_relevant = None
            if not _blank(r_text):
                text = str(int(r_text)) if isinstance(r_text, float) and float(r_text).is_integer() else str(r_text)
                n_relevant = parse_optional_int(text, name="R", minimum=0, maximum=MAX_RELEVANT)
        except ValueError as error:
            raise ValueError(translate(N_('{where}: {error}')).format(where=where, error=error)) from None
        ranked_relevant = count_relevant(rels)
        if n_relevant is not None and n_relevant < ranked_relevant:
            raise ValueError(translate(N_('{where}: R = {n_relevant} is smaller than the {ranked_relevant} relevant '
                                          'documents already in its ranking; R counts every relevant document of the '
                                          'query.')).format(
                where=where, n_relevant=n_relevant, ranked_relevant=ranked_relevant))
        parsed.append(QueryRanking(query_id, rels, n_relevant))
    if not parsed:
        raise ValueError(translate(N_('The table holds no query; add a row with a query id and its grades, e.g. q1 | '
                                      '1,0,1,0.')))
    if len(parsed) > MAX_QUERIES:
        raise ValueError(translate(N_('{len_parsed} queries is more than this page shows ({MAX_QUERIES}); evaluate '
                                      'larger sets as run files.')).format(
            len_parsed=len(parsed), MAX_QUERIES=MAX_QUERIES))
    return tuple(parsed)


def query_rows_frame(queries):
    """The editable table of ``queries`` (the inverse of :func:`parse_query_rows`), all text columns.

    Examples
    --------
    Grades become comma-separated text and a missing R an empty cell; parsing the table gives
    the queries back:

    >>> queries = (QueryRanking("q1", (1, 0, 1), 10), QueryRanking("q2", (0, 2)))
    >>> frame = query_rows_frame(queries)
    >>> frame.values.tolist()
    [['q1', '1,0,1', '10'], ['q2', '0,2', '']]
    >>> parse_query_rows(frame) == queries
    True
    """
    import pandas as pd

    return pd.DataFrame({
        "query": [q.query_id for q in queries],
        "grades": [format_grades(q.rels) for q in queries],
        "R": ["" if q.n_relevant is None else str(q.n_relevant) for q in queries],
    })


def format_query_link(queries) -> str:
    """The queries as one URL parameter: ``id=grades`` or ``id=grades/R``, joined by ``;``.

    >>> format_query_link([QueryRanking("q1", (1, 0, 1), 10), QueryRanking("q2", (0, 2))])
    'q1=1,0,1/10;q2=0,2'
    """
    parts = []
    for query in queries:
        part = f"{query.query_id}={format_grades(query.rels)}"
        if query.n_relevant is not None:
            part += f"/{query.n_relevant}"
        parts.append(part)
    return ";".join(parts)


def parse_query_link(text: str) -> tuple[QueryRanking, ...]:
    """The inverse of :func:`format_query_link`, validated like the table (:func:`parse_query_rows`).

    >>> [(q.query_id, q.rels, q.n_relevant) for q in parse_query_link("q1=1,0,1/10;q2=0,2")]
    [('q1', (1, 0, 1), 10), ('q2', (0, 2), None)]
    >>> parse_query_link("q1:1,0")
    Traceback (most recent call last):
    ...
    ValueError: Query 1 of the link ('q1:1,0') is not of the form id=grades or id=grades/R, e.g. q1=1,0,1/3.
    """
    rows = []
    for number, part in enumerate((p for p in str(text).split(";") if p.strip()), start=1):
        query_id, equals, rest = part.partition("=")
        grades, _, r_text = rest.partition("/")
        if not equals or not query_id.strip() or not grades.strip():
            raise ValueError(translate(N_('Query {number} of the link ({part}) is not of the form id=grades or '
                                          'id=grades/R, e.g. q1=1,0,1/3.')).format(number=number, part=repr(part)))
        rows.append({"query": query_id.strip(), "grades": grades, "R": r_text})
    return parse_query_rows(rows)


def _at(name: str, cutoff: int | None) -> str:
    return name if cutoff is None else f"{name}@{cutoff}"


def per_query_table(queries, *, k: int | None = None, rr_cutoff: int | None = None, gain: str = "linear",
                    rel_threshold: float = 1):
    """The metrics of each query: one row per query.

    Columns: ``query``, ``ranked`` (list length), ``R``, ``AP`` (non-interpolated, whole list,
    with the row's R), ``iAP`` (the lecture's mean interpolated precision at recall 0.1 ... 1.0,
    ceil rounding), ``RR`` or ``RR@S_h`` (0 when the first relevant document is below the
    cut-off), ``nDCG`` or ``nDCG@k`` (gain ``gain``, log2(i+1) discount, ideal from the list and
    the row's R unretrieved relevant documents of grade 1), ``P@k`` (k: the list's length when
    None). Returned as a :class:`PerQueryMetrics`: that ``table``, its ``metric_columns`` in
    that order and the ``conventions`` of each.

    Examples
    --------
    >>> scored = per_query_table([QueryRanking("q1", (0, 1, 0))], k=2, rr_cutoff=1)
    >>> scored.table[["RR@1", "P@2"]].values.tolist()  # the relevant document is at rank 2
    [[0.0, 0.5]]
    >>> scored.metric_columns
    ('AP', 'iAP', 'RR@1', 'nDCG@2', 'P@2')
    """
    import pandas as pd

    from rankviz.metrics import average_precision, interpolated_average_precision, ndcg, precision, reciprocal_rank

    rr_name, ndcg_name = _at("RR", rr_cutoff), _at("nDCG", k)
    rows = []
    for query in queries:
        rels = list(query.rels)
        ranked_relevant = sum(1 for g in rels if g >= rel_threshold)
        r = query.n_relevant if query.n_relevant is not None else ranked_relevant
        # Unretrieved relevant documents (R beyond those ranked) raise the ideal DCG; their
        # grade is unknown from R alone, so they get the lowest grade that is relevant.
        judged = (rels + [max(1, rel_threshold)] * max(0, r - ranked_relevant)
                  if query.n_relevant is not None else None)
        p_at = k if k is not None else len(rels)
        rows.append({
            "query": query.query_id,
            "ranked": len(rels),
            "R": r,
            "AP": average_precision(rels, n_relevant=query.n_relevant, rel_threshold=rel_threshold),
            "iAP": interpolated_average_precision(rels, n_relevant=query.n_relevant, rel_threshold=rel_threshold),
            rr_name: reciprocal_rank(rels, rr_cutoff, rel_threshold=rel_threshold),
            ndcg_name: ndcg(rels, k, judged=judged, gain=gain),
            f"P@{p_at}" if k is not None else "P@n": precision(rels, k, rel_threshold=rel_threshold),
        })
    table = pd.DataFrame(rows)
    # In the language in force (a caption and the worked tables' subtitles read them).
    conventions = {
        "AP": translate(N_("non-interpolated, divided by R")),
        "iAP": translate(N_("interpolated precision at recall 0.1 ... 1.0, averaged (lecture's MAP slide)")),
        rr_name: (translate(N_("1/rank of the first relevant document, 0 below rank {cutoff}")).format(cutoff=rr_cutoff)
                  if rr_cutoff else translate(N_("1/rank of the first relevant document"))),
        ndcg_name: translate(N_("{gain} gain, log2(i+1) discount, ideal from the list and R")).format(
            gain=translate(gain)),
        (f"P@{k}" if k is not None else "P@n"): (translate(N_("precision at k = {k}")).format(k=k) if k is not None
                                                 else translate(N_("precision at the list's length n"))),
    }
    return PerQueryMetrics(table, tuple(c for c in table.columns if c not in ("query", "ranked", "R")), conventions)


def aggregate_table(per_query, *, ap="AP", rr=None, floor: float = 1e-5):
    """MAP, GMAP, HMAP and MRR (and the means of the other columns) of a :func:`per_query_table`.

    ``per_query`` is what :func:`per_query_table` returned (its other metric columns are
    averaged too, with their conventions), or any DataFrame with an AP column (and an RR one).
    Returns one row per aggregate: ``measure``, ``value``, ``over`` (the per-query column it
    averages) and ``convention``. GMAP and HMAP floor each AP at ``floor`` (trec_eval's 1e-5).

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"query": ["t1", "t2"], "AP": [0.1, 0.4], "RR": [1.0, 0.5]})
    >>> aggregate_table(table).set_index("measure")["value"].round(3).to_dict()  # GMAP sqrt(0.1 * 0.4)
    {'MAP': 0.25, 'GMAP': 0.2, 'HMAP': 0.16, 'MRR': 0.75}
    """
    import pandas as pd

    from rankviz.metrics import (
        arithmetic_mean,
        geometric_mean_average_precision,
        harmonic_mean_average_precision,
        mean_average_precision,
        mean_reciprocal_rank,
    )

    if isinstance(per_query, PerQueryMetrics):
        per_query, metric_columns, conventions = per_query.table, per_query.metric_columns, per_query.conventions
    else:
        metric_columns, conventions = (), {}
    if rr is None:
        rr = next((c for c in per_query.columns if str(c).startswith("RR")), None)
    aps = per_query[ap].to_numpy(dtype=float)
    rows = [
        {"measure": "MAP", "value": mean_average_precision(aps), "over": ap,
         "convention": translate(N_("arithmetic mean of AP"))},
        {"measure": "GMAP", "value": geometric_mean_average_precision(aps, floor), "over": ap,
         "convention": translate(N_("geometric mean of max(AP, {floor}) (trec_eval's gm_map floor)")).format(
             floor=f"{floor:g}")},
        {"measure": "HMAP", "value": harmonic_mean_average_precision(aps, floor), "over": ap,
         "convention": translate(N_("harmonic mean of max(AP, {floor})")).format(floor=f"{floor:g}")},
    ]
    if rr is not None:
        rows.append({"measure": f"M{rr}",  # MRR, or MRR@S_h with a threshold
                     "value": mean_reciprocal_rank(per_query[rr].to_numpy(dtype=float)), "over": rr,
                     "convention": translate(N_("arithmetic mean of the reciprocal ranks"))})
    for column in metric_columns:
        if column in (ap, rr):
            continue
        label = (translate(N_("lecture's MAP (mean iAP)")) if column == "iAP"
                 else translate(N_("mean {column}")).format(column=column))
        rows.append({"measure": label, "value": arithmetic_mean(per_query[column].to_numpy(dtype=float)),
                     "over": column, "convention": conventions.get(column, translate(N_("arithmetic mean")))})
    return pd.DataFrame(rows)


def query_breakdowns(query: QueryRanking, *, k: int | None = None, rr_cutoff: int | None = None,
                     gain: str = "linear", rel_threshold: float = 1) -> dict:
    """The worked tables of one query, with the same conventions as :func:`per_query_table`.

    Returns an ordered dict: label -> :class:`~rankviz.metrics.breakdown.Breakdown` (its
    ``table``, ``value`` and ``latex``) for AP, RR and nDCG.

    >>> worked = query_breakdowns(QueryRanking("q", (1, 0, 1), n_relevant=3))
    >>> list(worked), round(worked["AP"].value, 3)  # (1/1 + 2/3) / 3
    (['AP', 'RR', 'nDCG'], 0.556)
    """
    from rankviz.metrics import average_precision_breakdown, ndcg_breakdown, reciprocal_rank_breakdown

    rels = list(query.rels)
    ranked_relevant = sum(1 for g in rels if g >= rel_threshold)
    judged = None
    if query.n_relevant is not None:
        judged = rels + [max(1, rel_threshold)] * max(0, query.n_relevant - ranked_relevant)
    return {
        "AP": average_precision_breakdown(rels, n_relevant=query.n_relevant, rel_threshold=rel_threshold),
        _at("RR", rr_cutoff): reciprocal_rank_breakdown(rels, rr_cutoff, rel_threshold=rel_threshold),
        _at("nDCG", k): ndcg_breakdown(rels, k, judged=judged, gain=gain),
    }


def parse_run_values(rows, runs=None) -> dict:
    """Per-query AP values of several runs from a table: a ``query`` column and one column per run.

    Returns ``{run: pandas.Series of AP indexed by query}``. Every cell must be a number in
    [0, 1]; a bad one is named by row and run.

    >>> values = parse_run_values([{"query": "t1", "A": 0.5, "B": "0.25"}])
    >>> {run: series.tolist() for run, series in values.items()}
    {'A': [0.5], 'B': [0.25]}
    """
    import pandas as pd

    records = _rows(rows)
    if not records:
        raise ValueError(translate(N_('The table holds no query; add a row with a query id and one AP value per run.')))
    runs = list(runs) if runs is not None else [c for c in records[0] if c != "query"]
    if not runs:
        raise ValueError(translate(N_("The table needs at least one run column besides 'query'.")))
    queries, columns = [], {run: [] for run in runs}
    for number, row in enumerate(records, start=1):
        if all(_blank(row.get(c)) for c in ["query", *runs]):
            continue
        query_id = f"q{number}" if _blank(row.get("query")) else str(row["query"]).strip()
        if query_id in queries:
            raise ValueError(translate(N_('Row {number}: query id {query_id} is used twice; give each query its own '
                                          'id.')).format(number=number, query_id=repr(query_id)))
        queries.append(query_id)
        for run in runs:
            cell = row.get(run)
            try:
                value = float(str(cell).strip())
            except (TypeError, ValueError):
                value = math.nan
            if not (0 <= value <= 1):  # also catches NaN and a blank cell
                raise ValueError(translate(N_('Row {number} ({query_id}), {run}: AP must be a number from 0 to 1; '
                                              'got {cell}.')).format(
                    number=number, query_id=query_id, run=run, cell=repr(cell)))
            columns[run].append(value)
    if not queries:
        raise ValueError(translate(N_('The table holds no query; add a row with a query id and one AP value per run.')))
    return {run: pd.Series(values, index=pd.Index(queries, name="query"), name=run) for run, values in columns.items()}


def runs_aggregate_table(run_values: dict, *, floor: float = 1e-5):
    """MAP, GMAP and HMAP of each run: one row per measure, one column per run, plus ``convention``.

    >>> import pandas as pd
    >>> values = {"Run 1": pd.Series([0.05, 0.1, 0.5, 0.5, 0.75]), "Run 2": pd.Series([0.1, 0.3, 0.45, 0.45, 0.6])}
    >>> runs_aggregate_table(values).set_index("measure")[["Run 1", "Run 2"]].round(4).values.tolist()
    [[0.38, 0.38], [0.248, 0.3253], [0.1415, 0.2571]]

    Equal MAP, but Run 1's HMAP is 5 / (1/0.05 + 1/0.1 + 1/0.5 + 1/0.5 + 1/0.75) = 5 / 35.33 = 0.1415.
    """
    import pandas as pd

    from rankviz.metrics import (
        geometric_mean_average_precision,
        harmonic_mean_average_precision,
        mean_average_precision,
    )

    table = pd.DataFrame({"measure": ["MAP", "GMAP", "HMAP"]})
    for run, aps in run_values.items():
        values = aps.to_numpy(dtype=float)
        table[run] = [mean_average_precision(values), geometric_mean_average_precision(values, floor),
                      harmonic_mean_average_precision(values, floor)]
    table["convention"] = ["arithmetic mean of AP", f"geometric mean of max(AP, {floor:g})",
                           f"harmonic mean of max(AP, {floor:g})"]
    return table


def preset_query_rows(preset_key: str):
    """The queries of a course exercise of kind ``"queries"`` (e.g. ``"map_q1_q2"``) as the page's table.

    >>> preset_query_rows("map_q1_q2")[["query", "R"]].values.tolist()
    [['q1', '10'], ['q2', '3']]
    """
    from rankviz.teaching.presets import get_preset

    preset = get_preset(preset_key)
    if preset.kind != "queries":
        raise ValueError(translate(N_('Preset {preset_key} holds {preset_kind}, not several queries.')).format(
            preset_key=repr(preset_key), preset_kind=preset.kind))
    queries = []
    for key in preset.queries:
        ranking = get_preset(key)
        query_id = key.removesuffix("_binary").removesuffix("_graded")
        queries.append(QueryRanking(query_id, tuple(ranking.rels), ranking.n_relevant))
    return query_rows_frame(queries)


def preset_run_values(preset_key: str):
    """The per-query values of a ``"per_query_values"`` exercise as the page's table: ``query`` + a column per run.

    >>> preset_run_values("gmap_runs").columns.tolist()
    ['query', 'Run 1', 'Run 2']
    """
    import pandas as pd

    from rankviz.teaching.presets import get_preset

    preset = get_preset(preset_key)
    if preset.kind != "per_query_values":
        raise ValueError(translate(N_('Preset {preset_key} holds {preset_kind}, not per-query values of runs.')).format(
            
            preset_key=repr(preset_key), preset_kind=preset.kind))
    n = max(len(values) for values in preset.runs.values())
    table = pd.DataFrame({"query": [f"Topic #{i}" for i in range(1, n + 1)]})
    for run, values in preset.runs.items():
        table[run] = [float(v) for v in values]
    return table
