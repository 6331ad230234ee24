"""AUC per group and GAUC with ROC curves on an editable click log, and its GAUC under each tool's
rules; the lecture's user-oriented measures (coverage, novelty, relative recall, recall effort, expected search length,
satisfaction, frustration) on an editable example, each with its formula and worked table."""

import streamlit as st

from rankviz.i18n import N_, _
from rankviz.formatting import format_number
from rankviz.metrics import auc, auc_breakdown, gauc_breakdown, roc_curve_breakdown
from rankviz.metrics.classification import GAUC_WEIGHTS
from rankviz.teaching.parsing import parse_grades
from rankviz.teaching.presets import get_preset
from rankviz.registry import get_spec
from rankviz.ui.cached_charts import show_chart
from rankviz.ui.cached_results import cached_call
from rankviz.ui.convention_examples import gauc_rules_section
from rankviz.ui.fields import int_field
from rankviz.ui.last_valid import keep_choice, parse_or_last_valid
from rankviz.ui.layout import page_header
from rankviz.ui.link import keep_last_valid_in_link, link_widget
from rankviz.ui.pages import page_for
from rankviz.ui.render import compute, render_breakdown
from rankviz.ui.table_editor import table_editor
from rankviz.ui.teaching import chart_font_size
from rankviz.ui.user_inputs import DEFAULT_CLICK_LOG, DEFAULT_SETS, parse_click_log, parse_id_set

page = page_for("app_pages/user_measures.py")
page_header(_(page.title), _(page.purpose))


def _explained(name: str, breakdown, *, key: str, title: str, variant: str = "") -> None:
    """The registry's formula and definition, then the worked table with this input's numbers."""
    spec = get_spec(name)
    st.caption(_("**{name}**: {description} Source: {reference}.").format(
        name=spec.pretty_name, description=spec.description, reference=spec.reference))
    st.latex(spec.formula)
    if breakdown is not None:
        render_breakdown(breakdown, key=key, title=title, file_stem=f"{name}_breakdown", variant=variant,
                         function=spec.function)


# ------------------------------------------------------------------ AUC and GAUC
st.subheader(_("AUC per group and GAUC"))
log_col, result_col = st.columns([2, 3], gap="medium")
with log_col:
    edited = table_editor("um_clicks", DEFAULT_CLICK_LOG, column_config={
        "group": st.column_config.TextColumn(_("group"), help=_("The user, session or query the item was shown in.")),
        "item": st.column_config.TextColumn(_("item"), help=_("Item id.")),
        "label": st.column_config.NumberColumn(_("label"), help=_("1 = positive (clicked), 0 = negative."),
                                               min_value=0, max_value=1, step=1),
        "score": st.column_config.NumberColumn(_("score"), help=_("The model's score."), format="%.3f"),
    })
    log = parse_or_last_valid("um_clicks", lambda: parse_click_log(edited),
                              default=lambda: parse_click_log(DEFAULT_CLICK_LOG), message=_("Showing the last valid log."))
    def weight_name(w: str) -> str:
        return {"size": _("items shown"), "positives": _("positives"), "uniform": _("1 per group")}.get(w, w)

    weights = link_widget(st.radio, _("Group weight w_g"), [w for w in GAUC_WEIGHTS if w != "impressions"],
                          key="um_weights", horizontal=True, format_func=weight_name,
                          help=_("GAUC is the weighted mean of the groups' AUCs; Zhou et al. weight by impressions."))

gauc_table = compute(cached_call, gauc_breakdown, log.labels, log.scores, log.groups, weights, where=result_col)
global_auc = compute(cached_call, auc, log.labels, log.scores, where=result_col)
with result_col:
    gauc_col, auc_col = st.columns(2)
    gauc_value = gauc_table.value if gauc_table is not None else None
    gauc_col.metric("GAUC", format_number(gauc_value, 3) if gauc_value == gauc_value else _("undefined"),
                    border=True, help=_("Mean of the groups' AUCs weighted by {weights}; groups with one class only "
                           "are left out.").format(weights=weight_name(weights)))
    auc_col.metric(_("AUC over all items (no groups)"), format_number(global_auc, 3) if global_auc is not None else "—",
                   border=True, help=_("Pairs across groups count too: a model whose score scale differs between "
                           "users can rank well within each user and still lose here."))
    curves, aucs = {}, {}
    for group in log.group_ids():
        rows = log.group(group)
        if rows.has_both_classes:
            curves[group] = cached_call(roc_curve_breakdown, rows.labels, rows.scores)
            aucs[group] = cached_call(auc, rows.labels, rows.scores)
    if log.has_both_classes:
        curves[_("all items")] = cached_call(roc_curve_breakdown, log.labels, log.scores)
        aucs[_("all items")] = global_auc
    if curves:
        show_chart("roc_chart", curves, key="um_roc", threshold="threshold", auc=aucs, title=_("ROC curve of each group"),
                   height=360, font_size=chart_font_size())
    else:
        st.error(_("No group holds both a positive and a negative item: there is no ROC curve to draw."))

if gauc_table is not None:
    _explained("gauc", gauc_table, key="um_gauc", title="GAUC", variant=_("weights: {weights}; skipped groups: {skipped}").format(
               weights=weight_name(weights), skipped=", ".join(map(str, gauc_table.details["skipped_groups"])) or _("none")))
gauc_rules_section(log.labels, log.scores, log.groups, key="um_gauc_rules")
groups = log.group_ids()
keep_choice("um_group", groups, groups[0])
group = st.selectbox(_("AUC of one group, pair by pair"), groups, key="um_group")
rows = log.group(group)
_explained("auc", compute(cached_call, auc_breakdown, rows.labels, rows.scores, items=rows.items), key="um_auc",
           title=f"AUC ({group})", variant=_("ties count 1/2"))

# ------------------------------------------------------------------ user-oriented measures
st.subheader(_("User-oriented measures"))
st.caption(_("The lecture's measures (course 002, 'User-oriented Metrics'): what one user sees and already knew. "
             "Defaults: the course's query q1, its 10 relevant documents R and the 15 it retrieved A."))
sets_col, counts_col, ranking_col = st.columns([2, 1, 2], gap="medium")
with sets_col:
    st.markdown(_("**Sets of documents**"))
    texts = {}
    for name, label, help_text in (("R", N_("R: relevant documents"), N_("Every relevant document of the query.")),
                                   ("A", N_("A: answer set (retrieved)"), N_("The documents the system returned.")),
                                   ("K", N_("K: known to the user"), N_("Relevant documents the user already knew."))):
        texts[name] = link_widget(st.text_input, _(label), key=f"um_{name}", default=DEFAULT_SETS[name],
                                    help=_(help_text))
    relevant, answer, known = (parse_id_set(texts[n], name=n) for n in ("R", "A", "K"))
with counts_col:
    st.markdown(_("**Counts**"))
    expected = int_field(_("# expected"), key="um_expected", minimum=1, maximum=100_000, placeholder="5",
                         help=_("Relevant documents the user expected to find.")) or 5
    found = int_field(_("# found"), key="um_found", minimum=0, maximum=100_000, placeholder="4",
                      help=_("Relevant documents the user found."))
    found = 4 if found is None else found
    examined = int_field(_("# examined"), key="um_examined", minimum=1, maximum=100_000, placeholder="10",
                         help=_("Documents examined until all expected ones were found.")) or 10
with ranking_col:
    st.markdown(_("**A ranking**"))
    q1 = get_preset("q1_binary")
    rels_text = link_widget(st.text_input, _("Grades in ranked order"), key="um_rels",
                            default=",".join(str(g) for g in q1.rels),
                            help=_("For expected search length, satisfaction and frustration."))
    rels = parse_or_last_valid("um_rels", lambda: parse_grades(rels_text), default=tuple(q1.rels),
                               message=_("Still using the last valid ranking."))
    levels_text = link_widget(st.text_input, _("Tie levels (optional)"), key="um_levels", placeholder=_("none"),
                              help=_("One level per rank for a weak ordering, e.g. 1,1,1,2,2: documents of a level "
                                     "are tied and read in random order. Blank: a strict order."))
    levels = None
    if levels_text.strip():
        try:
            levels = parse_grades(levels_text, position="rank")
        except ValueError as error:
            keep_last_valid_in_link("um_levels")
            st.error(_("Tie levels: {error} Using a strict order.").format(error=error))
    wanted_col, k_col = st.columns(2)
    wanted = int_field(_("wanted"), key="um_wanted", minimum=1, maximum=10_000, placeholder="2", container=wanted_col,
                       help=_("How many relevant documents the user wants.")) or 2
    k = int_field("k", key="um_k", minimum=1, maximum=10_000, container=k_col,
                  help=_("Satisfaction and frustration over the top k. Blank: the whole list."))

tabs = st.tabs([_("Coverage"), _("Novelty"), _("Relative recall"), _("Recall effort"), _("Expected search length"),
                _("Satisfaction"), _("Frustration")])
from rankviz.metrics import (  # noqa: E402
    coverage_breakdown,
    expected_search_length_breakdown,
    frustration_breakdown,
    novelty_breakdown,
    recall_effort_breakdown,
    relative_recall_breakdown,
    satisfaction_breakdown,
)

with tabs[0]:
    _explained("coverage", compute(cached_call, coverage_breakdown, relevant, answer, known), key="um_coverage",
               title=_("coverage"), variant=f"|R| = {len(relevant)}, |A| = {len(answer)}, |K| = {len(known)}")
with tabs[1]:
    _explained("novelty", compute(cached_call, novelty_breakdown, relevant, answer, known), key="um_novelty",
               title=_("novelty"), variant=f"|R| = {len(relevant)}, |A| = {len(answer)}, |K| = {len(known)}")
with tabs[2]:
    _explained("relative_recall", compute(cached_call, relative_recall_breakdown, found, expected), key="um_relrec",
               title=_("relative recall"), variant=_("capped at 1 when more are found than expected"))
with tabs[3]:
    _explained("recall_effort", compute(cached_call, recall_effort_breakdown, expected, examined), key="um_effort",
               title=_("recall effort"))
with tabs[4]:
    _explained("expected_search_length",
               compute(cached_call, expected_search_length_breakdown, rels, wanted, levels=levels), key="um_esl",
               title=_("ESL (wanted {wanted})").format(wanted=wanted),
               variant=(_("weak ordering: {n} tie levels").format(n=len(set(levels))) if levels else _("strict order")))
with tabs[5]:
    _explained("satisfaction", compute(cached_call, satisfaction_breakdown, rels, k), key="um_satisfaction",
               title=_("satisfaction@{k}").format(k=k or len(rels)), variant=_("relevant: grade ≥ 1"))
with tabs[6]:
    _explained("frustration", compute(cached_call, frustration_breakdown, rels, k), key="um_frustration",
               title=_("frustration@{k}").format(k=k or len(rels)), variant=_("relevant: grade ≥ 1"))
