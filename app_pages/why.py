"""Why tools disagree: a run (the sample, or uploaded files) scored as two tools score it, and the
conventions behind each query's difference, each linked to the page that works it through.
Widgets -> rankviz.disagreement (through rankviz.ui.why) -> render."""

import streamlit as st

from rankviz.conventions import TOOLS
from rankviz.data import SAMPLE_RUNS
from rankviz.i18n import _
from rankviz.ui.layout import page_header
from rankviz.ui.link import stop
from rankviz.ui.pages import page_for
from rankviz.ui.uploads import MAX_UPLOAD_MB, last_result_for, remember_result, sample_file, uploaded_file
from rankviz.ui.why import DEFAULT_MEASURE, DEFAULT_TOOLS, disagreement_for_files, render_disagreement, tool_label

LAST = "why_last_result"

page = page_for("app_pages/why.py")
page_header(_(page.title), _(page.purpose))
st.markdown(_("The same run can score differently in two tools without either being wrong: they order tied "
              "scores differently, take the ideal ranking from the judgments or from the list, weigh grades as "
              "g or 2^g − 1, divide MAP@k by R or by min(R, k)... Pick two tools and a measure: every query where "
              "they differ is listed with the conventions that explain it."))

source_col, tools_col = st.columns([1, 1], gap="large")
problems = []
qrels_file = run_file = None
with source_col:
    source = st.radio(_("Files"), ["sample", "upload"], key="why_source", horizontal=True,
                      format_func=lambda s: _("Sample collection") if s == "sample" else _("Upload files"))
    if source == "sample":
        run_name = st.selectbox(_("Sample run"), list(SAMPLE_RUNS), index=list(SAMPLE_RUNS).index("bm25_rounded"),
                                key="why_sample_run",
                                help=_("bm25_rounded: bm25's scores rounded to one decimal, so many documents tie."))
        qrels_file, run_file = sample_file("qrels"), sample_file("run", run_name)
    else:
        qrels_upload = st.file_uploader(_("Qrels file"), key="why_qrels_file", max_upload_size=MAX_UPLOAD_MB)
        run_upload = st.file_uploader(_("Run file (rows in the order the tool wrote them)"), key="why_run_file",
                                      max_upload_size=MAX_UPLOAD_MB)
        try:
            qrels_file = uploaded_file(qrels_upload) if qrels_upload is not None else None
            run_file = uploaded_file(run_upload) if run_upload is not None else None
        except ValueError as error:
            problems.append(str(error))
with tools_col:
    measure = st.text_input(_("Measure"), value=DEFAULT_MEASURE, key="why_measure",
                            help=_("nDCG@10, nDCG, DCG, AP, AP@10, P@5, R@100, RR, RR@10, Success@1"))
    a_col, b_col = st.columns(2)
    tool_a = a_col.selectbox(_("Tool A"), TOOLS, index=TOOLS.index(DEFAULT_TOOLS[0]), key="why_a",
                             format_func=tool_label)
    tool_b = b_col.selectbox(_("Tool B"), TOOLS, index=TOOLS.index(DEFAULT_TOOLS[1]), key="why_b",
                             format_func=tool_label)

table = None
inputs = (qrels_file, run_file, measure, tool_a, tool_b)
if not problems and qrels_file is not None and run_file is not None:
    try:
        with st.spinner(_("Scoring the run as both tools do")):
            table = disagreement_for_files(qrels_file, run_file, measure, tool_a, tool_b)
        remember_result(LAST, inputs[:2], table)
    except ValueError as error:
        problems.append(str(error))
    except Exception as error:  # noqa: BLE001 (an unreadable upload must never show a traceback)
        problems.append(_("Could not read these files: {error}").format(error=f"{type(error).__name__}: {error}"))
elif not problems:
    st.info(_("Upload a qrels file and a run file (or choose the sample collection)."), icon=":material/upload_file:")
for message in problems:
    st.error(message, icon=":material/error:")
if table is None and problems:  # a mistyped measure: the last table of these same files, said so
    table = last_result_for(LAST, inputs[:2])
    if table is not None:
        st.warning(_("Below: the last valid choice ({measure}, {a} vs {b}), on these same files.").format(
            measure=table.attrs["measure"], a=table.attrs["a"], b=table.attrs["b"]), icon=":material/history:")
if table is None:
    stop()
st.caption(_("`{run}` against `{qrels}`.").format(run=run_file.name, qrels=qrels_file.name))
render_disagreement(table, key="why")
