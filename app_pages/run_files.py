"""Evaluate run files: qrels + runs (uploaded, or the sample collection) -> trec_eval's numbers per
query and on average, their distribution, run against run, significance tests, the averaged
precision-recall curve, and CSV/LaTeX downloads. Widgets -> rankviz calls -> render."""

from functools import partial

import streamlit as st

from rankviz.display import in_language
from rankviz.i18n import N_, _, ngettext
from rankviz.evaluation.comparison import count_wins_ties_losses
from rankviz.data import SAMPLE_RUNS
from rankviz.teaching.export import to_csv_bytes
from rankviz.ui.cached_charts import show_chart
from rankviz.ui.layout import page_header, table_height_px
from rankviz.ui.link import stop
from rankviz.ui.pages import page_for
from rankviz.trec.judgments import JUDGMENT_FORMATS
from rankviz.ui.run_files import (aggregate_table, chosen_measures, default_choices, distribution_frame,
                                  evaluate_files, latex_bytes, measure_choices, measure_columns, per_query_table,
                                  pr_points, run_deltas, significance, styled_significance)
from rankviz.ui.uploads import MAX_UPLOAD_MB, last_result_for, remember_result, sample_file, uploaded_file

LAST = "rf_last_evaluation"  # the last evaluation that succeeded, with the files it came from

page = page_for("app_pages/run_files.py")
page_header(_(page.title), _(page.purpose))

# ---------------------------------------------------------------------------------------------
# Input: the sample collection or uploaded files
SOURCE_WORDS = (N_("Sample collection"), N_("Upload files"))  # the source radio's values, shown through _
source_col, measure_col = st.columns([1, 1], gap="large")
with source_col:
    source = st.radio(_("Files"), ["Sample collection", "Upload files"], key="rf_source", horizontal=True,
                      format_func=_,  # the values stay English; shown in the session's language
                      help=_("The sample: 20 queries judged 0-3 and three runs (bm25, dense, and bm25 with "
                             "scores rounded so that many tie)."))
    problems = []
    qrels_file, run_files, zscores_file, qrels_format = None, [], None, "qrels"
    if source == "Sample collection":
        qrels_file = sample_file("qrels")
        chosen_runs = st.multiselect(_("Sample runs"), list(SAMPLE_RUNS), default=["bm25", "dense"], key="rf_sample_runs")
        run_files = [sample_file("run", name) for name in chosen_runs]
        st.caption(_("Sample qrels: `qrels.txt`; runs in TREC format (`qid Q0 docno rank score tag`)."))
    else:
        qrels_format = st.selectbox(_("Judgments (trec_eval -R)"), list(JUDGMENT_FORMATS), key="rf_qrels_format",
                                    format_func=lambda name: f"{name}: {JUDGMENT_FORMATS[name].fields}",
                                    help="\n".join(f"- **{f.name}**: {f.description}." for f in JUDGMENT_FORMATS.values()))
        fields = JUDGMENT_FORMATS[qrels_format].fields
        kinds = _("TREC, CSV, TSV, Parquet or .gz") if qrels_format == "qrels" else _("TREC text or .gz")
        qrels_upload = st.file_uploader(_("Judgments file ({fields}; {kinds})").format(fields=fields, kinds=kinds), key="rf_qrels_file",
                                        max_upload_size=MAX_UPLOAD_MB)
        run_uploads = st.file_uploader(_("Run files (qid Q0 docno rank score tag; one or more)"),
                                       accept_multiple_files=True, key="rf_run_files", max_upload_size=MAX_UPLOAD_MB)
        zscores_upload = st.file_uploader(_("Z-score file (optional, trec_eval -Z: qid measure mean stddev)"),
                                          key="rf_zscores_file", max_upload_size=MAX_UPLOAD_MB,
                                          help=_("Per-query values become (value − mean) / stddev of the query's "
                                                 "line for the measure."))
        st.caption(_("Up to {mb} MB per file; larger files: `python -m rankviz eval QRELS RUN`.").format(mb=MAX_UPLOAD_MB))
        try:
            zscores_file = uploaded_file(zscores_upload) if zscores_upload is not None else None
            qrels_file = uploaded_file(qrels_upload) if qrels_upload is not None else None
            run_files = [uploaded_file(upload) for upload in run_uploads or []]
        except ValueError as error:
            problems.append(str(error))
            qrels_file, run_files = None, []

with measure_col:
    # One choice kept per judgment format: each offers its own measures.
    picked = st.multiselect(_("Measures"), measure_choices(qrels_format), default=list(default_choices(qrels_format)),
                            key=f"rf_measures_{qrels_format}" if qrels_format != "qrels" else "rf_measures",
                            help=_("ir_measures names; trec_eval names can be typed below."))
    typed = st.text_input(_("More measures (either naming family)"), key="rf_measures_text",
                          placeholder=_("e.g. {example}").format(example="ndcg_cut_20, ERR@20, P.5,10, iprec_at_recall_0.50"))
    option_a, option_b = st.columns(2)
    rel_threshold = option_a.number_input(_("Relevant if grade ≥ (trec_eval -l)"), min_value=0, max_value=100, value=1,
                                          step=1, key="rf_rel_threshold")
    complete = option_b.checkbox(_("Missing queries score 0 (-c)"), key="rf_complete",
                                 help=_("trec_eval -c: qrels queries a run retrieved nothing for count as 0 in its "
                                        "means. Without it they are left out."))
    try:
        measures = chosen_measures(picked, typed)
    except ValueError as error:
        problems.append(str(error))
        measures = None

# ---------------------------------------------------------------------------------------------
# Evaluate: all files or nothing. After an error the last numbers stay only if they came from
# exactly these files (a mistyped measure); a bad file shows its error alone.
evaluation = None
inputs = (qrels_format, int(rel_threshold), complete, qrels_file, zscores_file, *run_files)
if not problems and measures and qrels_file is not None and run_files:
    bar = st.progress(0.0, text=_("Reading files"))
    try:
        evaluation = evaluate_files(qrels_file, run_files, measures, rel_threshold=int(rel_threshold),
                                    complete=complete, qrels_format=qrels_format, zscores=zscores_file,
                                    progress=lambda fraction, text: bar.progress(fraction, text=text))
        remember_result(LAST, inputs, evaluation)
    except ValueError as error:
        problems.append(str(error))
    except Exception as error:  # noqa: BLE001 (an unreadable upload must never show a traceback)
        problems.append(_("Could not evaluate these files: {error}").format(error=f"{type(error).__name__}: {error}"))
    finally:
        bar.empty()
elif not problems and source == "Upload files":
    st.info(_("Upload a judgments (qrels) file to evaluate (or choose the sample collection).") if qrels_file is None
            else _("Upload at least one run file to evaluate (or choose the sample collection)."),
            icon=":material/upload_file:")
elif not problems and not run_files:
    st.info(_("Choose at least one sample run."), icon=":material/info:")

for message in problems:
    st.error(message, icon=":material/error:")
if evaluation is None and problems:
    evaluation = last_result_for(LAST, inputs)
    if evaluation is not None:
        st.warning(_("Below: the last measures that were valid ({measures}), on these same files.").format(
            measures=", ".join(evaluation.measures)),
                   icon=":material/history:")
if evaluation is None:
    stop()

runs = list(evaluation.run_names)
# Widgets whose options are the runs or the measures start afresh when those change (a kept
# selection of runs that are gone would silently show nothing).
signature = (tuple(runs), evaluation.measures)
if st.session_state.get("rf_signature") != signature:
    for key in ("rf_per_query_runs", "rf_distribution_measures", "rf_run_a", "rf_run_b", "rf_delta_measure",
                "rf_baseline"):
        st.session_state.pop(key, None)
    st.session_state["rf_signature"] = signature
# Exactly the files these numbers came from; runs go by their tags, as the command line prints them.
runs_from = ", ".join(f"{name} (`{file}`)" if name != file else f"`{file}`"
                      for name, file in zip(runs, evaluation.run_files))
st.caption((_("Qrels `{qrels}`; runs {runs}. trec_eval's conventions: ties broken by docno descending, relevant if "
             "grade ≥ {threshold}, missing queries scored 0 (-c).") if complete else
            _("Qrels `{qrels}`; runs {runs}. trec_eval's conventions: ties broken by docno descending, relevant if "
              "grade ≥ {threshold}.")).format(qrels=evaluation.qrels_name, runs=runs_from, threshold=int(rel_threshold)))

(aggregate_tab, per_query_tab, distribution_tab, delta_tab, significance_tab,
 pr_tab) = st.tabs([_("Aggregate"), _("Per query"), _("Distribution"), _("Run vs run"), _("Significance"),
                   _("Precision-recall")])

with aggregate_tab:
    aggregate = aggregate_table(evaluation)
    shown_aggregate = in_language(aggregate)
    st.dataframe(shown_aggregate, hide_index=True, width="stretch", column_config=measure_columns(shown_aggregate),
                 key="rf_aggregate_table")
    st.download_button(_("Aggregate CSV"), data=partial(to_csv_bytes, aggregate), file_name="aggregate.csv",
                       mime="text/csv", key="rf_aggregate_csv", icon=":material/download:", on_click="ignore")
    st.caption(_("Mean over queries (GMAP: geometric mean with AP floored at 1e-5; counts: sums), as trec_eval's "
                 "`all`."))

with per_query_tab:
    filter_col, runs_col = st.columns([1, 2])
    query_filter = filter_col.text_input(_("Query ids containing"), key="rf_query_filter",
                                         placeholder=_("e.g. 40, 41 (any of them)"))
    shown_runs = runs_col.multiselect(_("Runs"), runs, default=runs, key="rf_per_query_runs")
    table = per_query_table(evaluation, runs=shown_runs, query_filter=query_filter)
    shown_table = in_language(table)  # the CSV keeps the English headers a script reads
    st.dataframe(shown_table, hide_index=True, width="stretch", column_config=measure_columns(shown_table),
                 height=table_height_px(len(table), max_rows=12), key="rf_per_query_table")
    st.caption(ngettext("{n} row; click a column header to sort.", "{n} rows; click a column header to sort.",
                        len(table)).format(n=len(table)))
    st.download_button(_("Per-query CSV"), data=partial(to_csv_bytes, table), file_name="per_query.csv", mime="text/csv",
                       key="rf_per_query_csv", icon=":material/download:", on_click="ignore")

numeric = [m for m in evaluation.measures if not m.startswith(("Num",))]
with distribution_tab:
    plotted = st.multiselect(_("Measures to plot"), list(evaluation.measures), default=numeric[:3] or
                             list(evaluation.measures)[:1], key="rf_distribution_measures")
    if plotted:
        # Between picker and chart: the chart's toolbar (shown on hover, above its top right corner)
        # covered the picker's clear and open buttons when the chart came right below it.
        st.caption(_("Box: the middle half of the queries, bar at the median, ◆ the mean; whiskers reach the "
                     "farthest query within 1.5 box lengths; a dot per query."))
        long = distribution_frame(evaluation, plotted)
        show_chart("distribution_chart", long, key="rf_distribution_chart",
                   system="system" if len(runs) > 1 else None, title=_("Distribution over queries"))
    else:
        st.info(_("Pick a measure to plot."))

with delta_tab:
    if len(runs) < 2:
        st.info(_("Add a second run to compare two runs query by query."))
    else:
        a_col, b_col, m_col = st.columns(3)
        run_a = a_col.selectbox(_("Run A"), runs, index=0, key="rf_run_a")
        run_b = b_col.selectbox(_("Run B"), runs, index=1, key="rf_run_b")
        delta_measure = m_col.selectbox(_("Measure"), list(evaluation.measures), key="rf_delta_measure")
        deltas = run_deltas(evaluation, run_a, run_b, delta_measure)
        counts = count_wins_ties_losses(deltas)  # B - A: a win is a query where B is better
        wins_col, ties_col, losses_col = st.columns(3)
        wins_col.metric(_("{run} better").format(run=run_b), counts.wins)
        ties_col.metric(_("Tied"), counts.ties)
        losses_col.metric(_("{run} better").format(run=run_a), counts.losses)
        show_chart("delta_chart", deltas, key="rf_delta_chart", name_a=run_a, name_b=run_b, measure=delta_measure)

with significance_tab:
    if len(runs) < 2:
        st.info(_("Add a second run to test differences between runs."))
    else:
        base_col, test_col, correction_col = st.columns(3)
        baseline = base_col.selectbox(_("Baseline"), runs, key="rf_baseline")
        test = test_col.selectbox(_("Test"), ["t", "randomization", "bootstrap"], key="rf_test",
                                  format_func=lambda t: {"t": _("paired t-test"),
                                                         "randomization": _("randomization (permutation)"),
                                                         "bootstrap": _("paired bootstrap")}[t])
        def correction_name(c: str) -> str:
            return _("none") if c == "none" else c.capitalize()  # Holm, Bonferroni: their authors' names

        correction = correction_col.selectbox(_("Multiple-testing correction"), ["holm", "bonferroni", "none"],
                                              key="rf_correction", format_func=correction_name)
        try:
            comparison = significance(evaluation, baseline=baseline, test=test,
                                      correction=None if correction == "none" else correction)
        except ValueError as error:
            st.error(str(error))
        else:
            st.dataframe(styled_significance(comparison.table), hide_index=True, width="stretch",
                         column_config=measure_columns(comparison.table), key="rf_significance_table")
            st.caption(_("Each run against {baseline}, per measure; p-values adjusted ({correction}) over the runs "
                         "compared on the same measure; significant at α = {alpha}.").format(
                baseline=baseline, correction=correction_name(correction), alpha=comparison.alpha))
            csv_col, tex_col = st.columns(2)
            csv_col.download_button(_("Significance CSV"), data=partial(to_csv_bytes, comparison.table),
                                    file_name="significance.csv", mime="text/csv", key="rf_significance_csv",
                                    icon=":material/download:", on_click="ignore")
            tex_col.download_button(_("LaTeX table"), data=partial(latex_bytes, comparison), file_name="runs.tex",
                                    mime="text/x-tex", key="rf_latex", icon=":material/download:", on_click="ignore")

with pr_tab:
    curves = pr_points(evaluation)
    if not curves:
        st.info(_("The averaged precision-recall curve needs graded qrels (judgments format qrels)."),
                icon=":material/info:")
    else:
        show_chart("precision_recall_chart", curves, key="rf_pr_chart", rank=None, raw_points=False,
                   eleven_point=True, title=_("Interpolated precision at 11 recall levels, averaged over queries"))
        st.caption(_("trec_eval's iprec_at_recall_0.00 ... 1.00 per query, averaged over the queries: the curve "
                     "trec_eval's 11-point average summarises."))
