"""Many queries: type several rankings (or per-query AP values of runs), see AP, RR, nDCG and P@k
per query, MAP vs GMAP vs HMAP vs MRR, and any query's worked tables."""

import pandas as pd
import streamlit as st

from rankviz.display import in_language
from rankviz.i18n import N_, _
from rankviz.formatting import format_number
from rankviz.metrics import (
    geometric_mean_average_precision_breakdown,
    harmonic_mean_average_precision_breakdown,
    mean_average_precision_breakdown,
)
from rankviz.teaching.multi_query import (
    QUERY_PRESETS,
    RUN_PRESETS,
    aggregate_table,
    format_query_link,
    parse_query_link,
    parse_query_rows,
    parse_run_values,
    per_query_table,
    preset_query_rows,
    preset_run_values,
    query_breakdowns,
    query_rows_frame,
    runs_aggregate_table,
)
from rankviz.registry import GAIN
from rankviz.teaching.presets import PRESETS
from rankviz.ui.cached_charts import show_chart
from rankviz.ui.cached_results import cached_call
from rankviz.ui.fields import int_field, number_field
from rankviz.ui.last_valid import chart_pick, parse_or_last_valid
from rankviz.ui.layout import page_header
from rankviz.ui.link import current_value, keep_in_link, link_value, link_widget, set_value
from rankviz.ui.pages import page_for
from rankviz.ui.render import compute, number_columns, render_breakdown
from rankviz.ui.settings import choice_radio
from rankviz.ui.table_editor import get_table, replace_table, table_editor, table_origin
from rankviz.ui.teaching import chart_font_size

page = page_for("app_pages/many_queries.py")
page_header(_(page.title), _(page.purpose))

MODES = ("rankings", "AP per query")  # the link's values (?mq_mode=AP+per+query); shown in the session's language
MODE_LABELS = {"rankings": N_("rankings"), "AP per query": N_("AP per query")}
DEFAULT_QUERIES = preset_query_rows("map_q1_q2")
DEFAULT_RUNS = preset_run_values("gmap_runs")


def _load_example() -> None:
    key = st.session_state.get("mq_example")
    if key in QUERY_PRESETS:
        replace_table("mq_queries", preset_query_rows(key), origin=key)
        st.session_state["mq_mode"] = MODES[0]
        st.session_state["mq_sh"] = str(PRESETS[key].settings.get("rr_threshold", ""))
    elif key in RUN_PRESETS:
        replace_table("mq_runs", preset_run_values(key), origin=key)
        st.session_state["mq_mode"] = MODES[1]
    st.session_state.pop("mq_query", None)


example_col, load_col, mode_col = st.columns([3, 1, 2], vertical_alignment="bottom")
st.session_state.setdefault("mq_example", QUERY_PRESETS[0])
example_col.selectbox(_("Course example"), QUERY_PRESETS + RUN_PRESETS, key="mq_example",
                      format_func=lambda key: _(PRESETS[key].title))
load_col.button(_("Load"), key="mq_load", on_click=_load_example, type="primary", icon=":material/play_arrow:",
                width="stretch", help=_("Replace the table below with the chosen course example."))
mode = link_widget(mode_col.radio, _("Enter"), MODES, key="mq_mode", horizontal=True,
                   format_func=lambda m: _(MODE_LABELS[m]),
                   help=_("Rankings: one row per query with its grades. AP per query: the AP values of two runs, "
                          "as in the lecture's GMAP example."))
# The exercise the table below started from (each mode keeps its own table).
loaded = PRESETS[table_origin("mq_queries", QUERY_PRESETS[0]) if mode == MODES[0] else
                 table_origin("mq_runs", RUN_PRESETS[0])]
st.caption(_("Table loaded from **{title}.**").format(title=_(loaded.title))
           + f" {_(loaded.description)} {_(loaded.note)} " + _("Source: {source}").format(source=_(loaded.source)) + ".")


LINK_KEY = "mq_queries"  # URL parameter holding the queries table: ?mq_queries=q1=1,0,1/10;q2=0,1
DEFAULT_LINK = format_query_link(parse_query_rows(DEFAULT_QUERIES))


def _queries_from_link(where) -> None:
    """The table the link describes, on the session's first visit and after Back/Forward brought
    another link (which forgets the table's text, rankviz.ui.link); later the table's own edits win."""
    if LINK_KEY in st.session_state:
        return
    text = link_value(LINK_KEY)
    try:
        frame = query_rows_frame(parse_query_link(text)) if text else DEFAULT_QUERIES
    except ValueError as error:
        where.error(_("The link's queries could not be read: {error} Showing the course example instead.").format(
            error=error))
        frame = DEFAULT_QUERIES
    if not get_table("mq_queries", DEFAULT_QUERIES).equals(frame):  # a new grid only for another table
        replace_table("mq_queries", frame)


def _queries_to_link(queries) -> None:
    """Keep the valid table in the URL (left out while it is the course example)."""
    keep_in_link(LINK_KEY, format_query_link(queries), default=DEFAULT_LINK)


def _render_rankings() -> None:
    input_col, result_col = st.columns([2, 3], gap="medium")
    with input_col:
        _queries_from_link(input_col)
        edited = table_editor("mq_queries", DEFAULT_QUERIES, column_config={
            "query": st.column_config.TextColumn(_("query"), help=_("Query id (unique)."), width="small"),
            "grades": st.column_config.TextColumn(_("grades"), help=_("Grades in ranked order, e.g. 1,0,1,0."),
                                                  width="medium"),
            "R": st.column_config.TextColumn("R", help=_("Relevant documents of the query in the collection, "
                                                         "retrieved or not. Blank: those in the list."), width="small"),
        })
        queries = parse_or_last_valid("mq_queries", lambda: parse_query_rows(edited),
                                      default=lambda: parse_query_rows(DEFAULT_QUERIES),
                                      message=_("Showing the last valid table."))
        _queries_to_link(queries)
        k_col, sh_col = st.columns(2)
        k = int_field(_("k (for P@k, nDCG@k)"), key="mq_k", minimum=1, maximum=1000, container=k_col,
                      help=_("Cut-off of P@k and nDCG@k. Blank: each query's whole list."))
        rr_cutoff = int_field(_("S_h (for RR)"), key="mq_sh", minimum=1, maximum=1000, container=sh_col,
                              help=_("RR is 0 when the first relevant document is below rank S_h "
                                     "(the lecture's threshold). Blank: no threshold."))
        gain = choice_radio(GAIN, _("nDCG gain"), key="mq_gain")

    per_query = cached_call(per_query_table, queries, k=k, rr_cutoff=rr_cutoff, gain=gain)
    aggregates = cached_call(aggregate_table, per_query)
    columns = list(per_query.metric_columns)
    conventions = per_query.conventions
    with result_col:
        st.subheader(_("MAP vs GMAP vs HMAP vs MRR"))
        for box, row in zip(st.columns(4), aggregates.head(4).itertuples()):
            box.metric(row.measure, format_number(row.value, 3),
                       help=_("{convention}, over {n} queries ({over} per query).").format(
                           convention=row.convention, n=len(per_query.table), over=row.over),
                       border=True)
        # A static table: its long names and conventions wrap (a grid cut "lecture's MAP (m…" and the
        # conventions at its edge, worse in projector mode), and its type follows the page's.
        st.table(in_language(aggregates.assign(value=[f"{value:.4f}" for value in aggregates["value"]])),
                 hide_index=True)

    st.subheader(_("Per query"))
    table_col, chart_col = st.columns([1, 1], gap="medium")
    # Auto height (every row, at any font size, e.g. projector mode) up to 10 queries, then a scroll box.
    per_query_shown = in_language(per_query.table)
    table_col.dataframe(per_query_shown, hide_index=True, width="stretch",
                        column_config=number_columns(per_query_shown, 3),
                        height="auto" if len(per_query.table) <= 10 else 420)
    table_col.caption(" · ".join(f"**{name}**: {text}" for name, text in conventions.items()))
    long = per_query.table.melt(id_vars="query", value_vars=columns, var_name="metric", value_name="value")
    with chart_col:
        # A row per query plus room for the title and the legend below the plot.
        event = show_chart("per_query_chart", long, key="mq_chart", on_select="rerun", query="query",
                           system="metric", measure="value", kind="dots", select=True,
                           title=_("Each query's metrics (click a query)"),
                           height=min(900, 240 + 45 * len(queries)), font_size=chart_font_size())
    ids = [q.query_id for q in queries]
    picked = chart_pick(event, "query_id", key="mq_chart")  # a click on the chart chooses the query
    if picked in ids:
        set_value("mq_query", picked)
    elif current_value("mq_query", ids[0]) not in ids:  # the queries changed: the first one
        set_value("mq_query", ids[0])
    st.subheader(_("Worked out"))
    query_id = link_widget(st.selectbox, _("Query"), ids, key="mq_query", default=ids[0],
                           help=_("Click a query in the chart, or choose it here."))
    query = next(q for q in queries if q.query_id == query_id)
    tables = cached_call(query_breakdowns, query, k=k, rr_cutoff=rr_cutoff, gain=gain)
    for tab, (label, breakdown) in zip(st.tabs(list(tables)), tables.items()):
        with tab:
            variant = conventions.get(label, "") + (f", R = {query.n_relevant}" if query.n_relevant is not None
                                                    and label == "AP" else "")
            render_breakdown(breakdown, key=f"mq_{label}", title=f"{label}({query_id})",
                             file_stem=f"{label.replace('@', '_at_')}_{query_id}", variant=variant)


def _render_runs() -> None:
    input_col, result_col = st.columns([2, 3], gap="medium")
    with input_col:
        edited = table_editor("mq_runs", DEFAULT_RUNS, column_config={
            "query": st.column_config.TextColumn(_("query"), help=_("Query (topic) id.")),
            **{run: st.column_config.NumberColumn(run, min_value=0.0, max_value=1.0, step=0.01, format="%.3f",
                                                  help=_("AP of {run} on the query, 0 to 1.").format(run=run))
               for run in DEFAULT_RUNS.columns.drop("query")},
        })
        runs = parse_or_last_valid("mq_runs", lambda: parse_run_values(edited),
                                   default=lambda: parse_run_values(DEFAULT_RUNS),
                                   message=_("Showing the last valid table."))
        floor = number_field(_("GMAP/HMAP floor ε"), key="mq_floor", minimum=0.0, maximum=1.0,
                             help=_("Each AP counts as max(AP, ε) in GMAP and HMAP, so one AP of 0 does not send "
                                    "them to 0 (trec_eval's gm_map uses 1e-5)."))
    summary = cached_call(runs_aggregate_table, runs, floor=floor)
    with result_col:
        st.subheader(_("Same MAP, different GMAP?"))
        run_names = list(runs)
        for box, run in zip(st.columns(len(run_names)), run_names):
            values = summary.set_index("measure")[run]
            box.metric(f"{run}: MAP", format_number(values["MAP"], 3), border=True,
                       help=_("Arithmetic mean of AP."))
            box.metric(f"{run}: GMAP", format_number(values["GMAP"], 3), border=True,
                       help=_("Geometric mean of max(AP, {floor}).").format(floor=f"{floor:g}"))
        st.dataframe(summary, hide_index=True, width="stretch",
                     column_config={run: st.column_config.NumberColumn(run, format="%.4f") for run in run_names})
        st.caption(_("GMAP multiplies the APs, so a run that fails badly on a few topics (an AP near 0) loses far "
                     "more than a run that is steadily mediocre, even when their arithmetic means (MAP) are equal."))
    long = pd.concat([pd.DataFrame({"query": aps.index, "run": run, "AP": aps.to_numpy()})
                      for run, aps in runs.items()])
    show_chart("per_query_chart", long, key="mq_runs_chart", query="query", system="run", value="AP", measure="AP",
               kind="bars", title=_("AP per query of each run"), font_size=chart_font_size())
    st.subheader(_("Worked out"))
    run = st.selectbox(_("Run"), run_names, key="mq_run")
    aps = runs[run]
    for tab, (label, breakdown) in zip(st.tabs(["MAP", "GMAP", "HMAP"]), [
        ("MAP", compute(cached_call, mean_average_precision_breakdown, aps)),
        ("GMAP", compute(cached_call, geometric_mean_average_precision_breakdown, aps, floor)),
        ("HMAP", compute(cached_call, harmonic_mean_average_precision_breakdown, aps, floor)),
    ]):
        with tab:
            if breakdown is not None:
                render_breakdown(breakdown, key=f"mq_runs_{label}", title=f"{label} ({run})",
                                 file_stem=f"{label}_{run.replace(' ', '_')}",
                                 variant=_("arithmetic mean") if label == "MAP" else _("floor ε = {floor}").format(
                                     floor=f"{floor:g}"))


if mode == MODES[0]:
    _render_rankings()
else:
    _render_runs()
