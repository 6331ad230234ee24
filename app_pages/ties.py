"""Ties: the same run ranked under trec_eval's tie rule, input order and tie-averaged ordering, and
what that does to every measure, per query: why evaluation tools disagree. Widgets -> rankviz.evaluation.ties
-> render."""

from functools import partial

import streamlit as st

from rankviz.data import SAMPLE_RUNS
from rankviz.display import in_language
from rankviz.i18n import N_, _, language
from rankviz.teaching.export import to_csv_bytes
from rankviz.evaluation.ties import affordable_samples, sampled_measures
from rankviz.ui.cached_charts import show_chart
from rankviz.ui.last_valid import parse_or_last_valid
from rankviz.ui.layout import page_header, table_height_px
from rankviz.ui.pages import page_for
from rankviz.ui.render import number_columns
from rankviz.ui.table_editor import replace_table, table_editor
from rankviz.ui.ties_view import (DEFAULT_EXAMPLE, EXAMPLE_MEASURES, RUN_MEASURES, SAMPLING_BUDGET, compare_files,
                                  example_lists, example_tables, tie_counts)
from rankviz.ui.why import tools_for_example
from rankviz.ui.uploads import (MAX_UPLOAD_MB, last_result_for, read_run_file, remember_result, sample_file,
                                uploaded_file)

page = page_for("app_pages/ties.py")
page_header(_(page.title), _(page.purpose))

st.markdown(_(
    "A run gives every document a **score**; when two documents of a query have the same score, the run "
    "does not say which comes first, yet every rank-based measure needs an order. Tools choose differently:\n"
    "- **trec_eval** (and pytrec_eval, rankviz): score descending, then **docno descending**; the rank "
    "column of the file is ignored.\n"
    "- **input order**: score descending, ties left in the order the file lists them (a stable sort, "
    "what many Python scripts do).\n"
    "- **tie-averaged** (McSherry & Najork, ECIR 2008): the average over every ordering of the tied "
    "documents, so no arbitrary choice counts: a rank shared by 3 documents, 1 relevant, is relevant "
    "with probability 1/3."))

# ---------------------------------------------------------------------------------------------
st.subheader(_("A small example"))
edit_col, orders_col = st.columns([2, 3], gap="medium")
with edit_col:
    st.caption(_("One query, in input order. Equal scores are ties; every row counts as judged with its grade."))
    grid = table_editor("ties", DEFAULT_EXAMPLE, column_config={
        "doc": st.column_config.TextColumn(_("doc"), required=True),
        "score": st.column_config.NumberColumn(_("score"), required=True, format="%.2f"),
        "grade": st.column_config.NumberColumn(_("grade"), required=True, step=1, min_value=-1)})
    st.button(_("Reset the example"), key="ties_reset", on_click=replace_table, args=("ties", DEFAULT_EXAMPLE),
              icon=":material/restart_alt:")
    example_measures = st.multiselect(_("Measures"), EXAMPLE_MEASURES, default=["P@2", "AP", "RR", "nDCG"],
                                      key="ties_example_measures")



def _example():
    doc_ids, scores, grades = example_lists(grid)
    if not example_measures:
        raise ValueError(_("Pick at least one measure."))
    return example_tables(tuple(doc_ids), tuple(scores), tuple(grades), tuple(example_measures), language())


example = parse_or_last_valid("ties", _example, default=None, where=edit_col, icon=":material/error:",
                              message=lambda error, kept: f"{error}" + (" " + _("Showing the last valid example.")
                                                                         if kept is not None else ""))

if example is not None:
    sides, values, spread = example
    sides, spread = in_language(sides), in_language(spread)
    with orders_col:
        st.caption(_("What each rule puts at each rank (grade in brackets)."))
        st.dataframe(sides, hide_index=True, width="stretch", key="ties_orderings", column_config=number_columns(sides, 2),
                     height=table_height_px(len(sides), max_rows=12))
    st.caption(_("The measures under each rule (exact: closed form over all orderings of the ties; Monte Carlo: "
                 "averaged over random tie-breaks)."))
    shown = in_language(values.reset_index())
    st.dataframe(shown, hide_index=True, width="stretch", column_config=number_columns(shown, 4),
                 key="ties_example_values")
    with st.expander(_("Tie-averaged ranking, rank by rank")):
        st.markdown(_("Each rank inside a tie is relevant with probability *relevant in the tie / size of the tie* "
                      "and carries the tie's mean grade; tie-averaged P@k sums the first column, DCG the second "
                      "over log2(rank + 1)."))
        st.dataframe(spread, hide_index=True, width="stretch", column_config=number_columns(spread, 3),
                     key="ties_spread")
    tools_for_example(grid, example_measures, key="ties_tools")

# ---------------------------------------------------------------------------------------------
# Shown through _ (the radios' format_func): their values stay English in the session state.
RULE_WORDS = (N_("Sample collection"), N_("Upload files"), N_("tie-averaged"), N_("input order"))
st.subheader(_("A whole run"))
source_col, settings_col = st.columns([1, 1], gap="large")
problems = []
qrels_file = run_file = None
with source_col:
    source = st.radio(_("Files"), ["Sample collection", "Upload files"], key="ties_source", horizontal=True,
                      format_func=_)
    if source == "Sample collection":
        run_name = st.selectbox(_("Sample run"), list(SAMPLE_RUNS), index=list(SAMPLE_RUNS).index("bm25_rounded"),
                                key="ties_sample_run",
                                help=_("bm25_rounded: bm25's scores rounded to one decimal, so many documents tie."))
        qrels_file, run_file = sample_file("qrels"), sample_file("run", run_name)
    else:
        qrels_upload = st.file_uploader(_("Qrels file"), key="ties_qrels_file", max_upload_size=MAX_UPLOAD_MB)
        run_upload = st.file_uploader(_("Run file (rows in the order the tool wrote them)"), key="ties_run_file",
                                      max_upload_size=MAX_UPLOAD_MB)
        try:
            qrels_file = uploaded_file(qrels_upload) if qrels_upload is not None else None
            run_file = uploaded_file(run_upload) if run_upload is not None else None
        except ValueError as error:
            problems.append(str(error))
with settings_col:
    run_measures = st.multiselect(_("Measures"), RUN_MEASURES, default=["AP", "nDCG@10", "P@10", "RR"],
                                  key="ties_measures")
    samples_col, seed_col = st.columns(2)
    samples = samples_col.number_input(_("Monte Carlo samples"), min_value=1, max_value=2000, value=100, step=50,
                                       key="ties_samples", help=_("For measures without a closed form (ERR, bpref)."))
    seed = seed_col.number_input(_("Seed"), min_value=0, value=0, step=1, key="ties_seed")

comparison = None
inputs = (qrels_file, run_file, samples, seed)  # what a result shown after an error must have come from
if not run_measures:
    problems.append(_("Pick at least one measure."))
if not problems and qrels_file is not None and run_file is not None:
    try:
        sampled = sampled_measures(run_measures)
        lines = len(read_run_file(run_file)) if sampled else 0
        affordable = affordable_samples(samples, lines, SAMPLING_BUDGET)
        if affordable < samples:  # each sample evaluates the whole run once: keep the page responsive
            samples = affordable
            st.warning(_("{measures}: no closed form, so each Monte Carlo sample evaluates all {lines} lines; using "
                         "{samples} samples to keep the page responsive.").format(
                measures=", ".join(sampled), lines=f"{lines:,}", samples=samples), icon=":material/speed:")
        with st.spinner(_("Evaluating under the three tie rules")):
            comparison = compare_files(qrels_file, run_file, run_measures, samples=samples, seed=seed)
        remember_result("ties_last_comparison", inputs, (run_file.name, comparison))
    except ValueError as error:
        problems.append(str(error))
    except Exception as error:  # noqa: BLE001 (an unreadable upload must never show a traceback)
        problems.append(_("Could not evaluate these files: {error}").format(error=f"{type(error).__name__}: {error}"))
elif not problems:
    st.info(_("Upload a qrels file and a run file (or choose the sample collection)."), icon=":material/upload_file:")
for message in problems:
    st.error(message, icon=":material/error:")
shown_name = run_file.name if run_file is not None else ""
# After an error, the last numbers only if they came from these same files (a bad file: its error alone).
if comparison is None and problems and last_result_for("ties_last_comparison", inputs) is not None:
    shown_name, comparison = last_result_for("ties_last_comparison", inputs)
    st.warning(_("Below: the last measures that were valid ({measures}), on these same files.").format(
        measures=", ".join(comparison.mean.index)), icon=":material/history:")

if comparison is not None:
    ties = comparison.ties
    counts = tie_counts(ties)
    q_col, d_col, g_col = st.columns(3)
    q_col.metric(_("Queries with ties"), counts["queries"])
    d_col.metric(_("Tied documents"), counts["documents"])
    g_col.metric(_("Tie groups"), counts["groups"])
    mean = comparison.mean.reset_index()
    mean.insert(1, "tie-averaged by", [comparison.method[name] for name in mean["measure"]])
    st.caption(f"`{shown_name}`: " + _("mean over queries under each rule; *queries that differ*: the rules do not all "
                                    "agree."))
    mean = in_language(mean)
    st.dataframe(mean, hide_index=True, width="stretch", column_config=number_columns(mean, 4), key="ties_mean")

    measure_col, versus_col = st.columns([1, 2])
    names = list(comparison.mean.index)
    focus = measure_col.selectbox(_("Measure, per query"), names, key="ties_measure")
    versus = versus_col.radio(_("Difference shown"), ["tie-averaged", "input order"], key="ties_versus",
                              horizontal=True, format_func=lambda rule: f"{_(rule)} − trec_eval")
    per_query = comparison.per_query[comparison.per_query["measure"] == focus].drop(columns="measure")
    per_query = per_query.merge(ties.reset_index(), on="query_id", how="left")
    differences = per_query.set_index("query_id")[f"{versus} - trec_eval"]
    show_chart("delta_chart", differences, key="ties_delta_chart", name_a="trec_eval", name_b=_(versus), measure=focus,
               tie_tolerance=1e-12, title=_("{measure}: {rule} − trec_eval, per query").format(measure=focus, rule=_(versus)))
    per_query = in_language(per_query)
    st.dataframe(per_query, hide_index=True, width="stretch", column_config=number_columns(per_query, 4),
                 height=table_height_px(len(per_query), max_rows=10), key="ties_per_query")
    st.download_button(_("Per-query CSV (every measure)"), data=partial(to_csv_bytes, comparison.per_query),
                       file_name="ties_per_query.csv", mime="text/csv", key="ties_csv", icon=":material/download:",
                       on_click="ignore")
    st.caption(_("trec_eval's column is what trec_eval prints; a tool that keeps the file's order reports the "
                 "input-order column. Tie-averaged values depend on neither docnos nor the file's order: the fair "
                 "number when a run has ties."))
