"""Precision and recall: P@i and R@i down the ranking, the precision-recall curve (raw and
interpolated), the 11-point interpolated precision, AP as the area it sums, R-precision and
F-beta; a second ranking on the same plot (the course's q1 and q2)."""

import streamlit as st

from rankviz.display import in_language
from rankviz.i18n import N_, _
from rankviz.formatting import format_number
from rankviz.teaching.homework import own_exercise
from rankviz.metrics import (
    average_precision,
    average_precision_breakdown,
    count_relevant,
    eleven_point_precision,
    eleven_point_precision_breakdown,
    f_beta_breakdown,
    interpolated_average_precision,
    precision_recall_points_breakdown,
    r_precision_breakdown,
)
from rankviz.registry import ROUNDING
from rankviz.teaching.presets import PRESETS, ranking_presets
from rankviz.teaching.ranking import Ranking
from rankviz.ui import state
from rankviz.ui.cached_charts import show_chart
from rankviz.ui.cached_results import cached_call
from rankviz.ui.editor import ranking_editor
from rankviz.ui.fields import number_field
from rankviz.ui.layout import page_header
from rankviz.ui.link import link_widget
from rankviz.ui.pages import page_for
from rankviz.ui.render import compute, number_columns, render_breakdown, render_result
from rankviz.ui.reveal import reveal_exercise
from rankviz.ui.settings import ranking_settings
from rankviz.ui.teaching import chart_font_size, printed_vs_exact

page = page_for("app_pages/precision_recall.py")
page_header(_(page.title), _(page.purpose))

ROUNDING_HELP = N_(
    "Interpolated precision at recall level r is the best precision of any rank whose recall reaches r. "
    "A level becomes a count of relevant documents c that a rank must have found: the textbook takes "
    "c = ceil(r·R) (recall really ≥ r); trec_eval 9 takes floor(r·R + 0.9), which differs when r·R has a "
    "fractional part up to 0.1; trec_eval 10 rounds r·R to the nearest whole number, so it may use a rank "
    "whose recall is a little below r."
)


def _load_q1_q2() -> None:
    state.load_preset("q1_binary", "")
    state.load_preset("q2_binary", "b_")
    state.set_widget_values({"compare": True})


def _system_name(letter: str, prefix: str, ranking) -> str:
    """The legend name: "A", or "A: Query q1" while the ranking is still the course preset loaded into it."""
    preset = PRESETS.get(st.session_state.get(f"{prefix}preset") or "")
    if preset is not None and tuple(preset.rels) == tuple(ranking.grades):
        return f"{letter}: {_(preset.title).replace('：', ':').split(':')[0]}"
    return letter


def _binary_settings(settings: dict) -> dict:
    """The settings binary metrics take (R or judged grades; k), without the graded switches."""
    return {name: settings[name] for name in ("k", "n_relevant", "judged") if name in settings}


edit_col, chart_col = st.columns([2, 3], gap="medium")
with edit_col:
    ranking = ranking_editor()
    settings = _binary_settings(ranking_settings(ranking, show_graded=False))
    beta_col, button_col = st.columns([1, 1], vertical_alignment="bottom")
    beta = number_field(_("β of F-β"), key="beta", minimum=0.01, maximum=100, container=beta_col,
                        help=_("β > 1 weighs recall more (F2), β < 1 precision more (F0.5); β = 1 is F1."))
    button_col.button(_("Load the course's q1 and q2"), key="pr_load_q1_q2", on_click=_load_q1_q2,
                      help=_("Lecture 002: q1 (relevant at 1, 3, 6, 10, 15; R = 10) as A and q2 "
                             "(relevant at 3, 8, 15; R = 3) as B."), width="stretch")
    compare = link_widget(st.toggle, _("Compare with a second ranking (B) on the same plot"), key="compare")

r_only = {name: settings[name] for name in ("n_relevant", "judged") if name in settings}
name_a = _system_name("A", "", ranking)
points = {name_a: compute(cached_call, precision_recall_points_breakdown, ranking.rels, where=edit_col, **r_only)}
r_prec = compute(cached_call, r_precision_breakdown, ranking.rels, where=edit_col, **r_only)
k_shown = settings.get("k") or len(ranking)
# The chart can only mark a rank the ranking has; beyond it P@k keeps falling but R@k stays put.
k_marker = min(k_shown, len(ranking))
f_table = compute(cached_call, f_beta_breakdown, ranking.rels, where=edit_col, beta=beta, **settings)
ap = compute(cached_call, average_precision_breakdown, ranking.rels, where=edit_col, **settings)

ranking_b = None
if compare:
    st.subheader(_("Ranking B"))
    b_edit, b_settings_col = st.columns([3, 2], gap="medium")
    with b_edit:
        ranking_b = ranking_editor("b_", default=Ranking.from_grades((0, 0, 1, 0, 0, 0, 0, 1)))
    with b_settings_col:
        settings_b = _binary_settings(ranking_settings(ranking_b, "b_", show_graded=False))
    r_only_b = {name: settings_b[name] for name in ("n_relevant", "judged") if name in settings_b}
    points[_system_name("B", "b_", ranking_b)] = compute(cached_call, precision_recall_points_breakdown,
                                                         ranking_b.rels, where=b_edit, **r_only_b)
points = {name: table for name, table in points.items() if table is not None}

with chart_col:
    # Drawn once the rounding rule (chosen further down, with the 11-point table) is known.
    curve_slot = st.container()
    summary = st.container()
    with summary:
        if ap is not None:
            render_result(f"AP@{k_shown}", ap.value,
                          variant=_("the shaded area; non-interpolated, R = {R}").format(R=ap.details["n_relevant"]))
            # A course query (q1, q2) loaded or typed here: the 'MAP' its slide prints beside the exact value.
            for preset in ranking_presets():
                if ("map_slide" in preset.printed and tuple(ranking.grades) == tuple(preset.rels)
                        and ap.details["n_relevant"] == preset.n_relevant):
                    slide_map = compute(cached_call, interpolated_average_precision, preset.rels,
                                        n_relevant=preset.n_relevant)
                    printed_vs_exact(preset, {"map_slide": (_("the slide's 'MAP' of the query"), slide_map)},
                                     convention=_("mean interpolated precision at recall 0.1, …, 1.0"))
        if r_prec is not None:
            render_result(_("R-precision (R = {R})").format(R=r_prec.details["n_relevant"]), r_prec.value,
                          variant=_("precision at rank R; equals recall there"))
        if f_table is not None:
            render_result(f"F{format_number(beta)}@{k_shown}", f_table.value,
                          variant=_("relevant: grade ≥ 1, R = {R}, β = {beta}").format(
                              R=f_table.details["n_relevant"], beta=format_number(beta)))
            st.latex(f_table.latex)

st.subheader(_("Down the ranking: P@i and R@i"))
table_col, rank_chart_col = st.columns([2, 3], gap="medium")
if name_a in points:
    table = in_language(points[name_a].table)
    table_col.dataframe(table, hide_index=True, width="stretch", column_config=number_columns(table),
                        height=min(420, 35 * (len(table) + 1) + 3), key="pr_table")
    table_col.caption(_("Binary relevance: grade ≥ 1. R = {R} ({how}).").format(
        R=points[name_a].details["n_relevant"],
        how=_("given") if "n_relevant" in settings else _("counted from the judged grades")))
    with rank_chart_col:
        show_chart("precision_recall_at_rank_chart", table, key="pr_at_rank", font_size=chart_font_size())

st.subheader(_("11-point interpolated precision"))
rounding = link_widget(st.radio, _("Recall level → relevant documents needed"), ROUNDING.values, key="rounding",
                       captions=[ROUNDING.label(value) for value in ROUNDING.values], horizontal=True,
                       format_func=lambda value: ROUNDING.choice(value).text,
                       help=_(ROUNDING_HELP))
st.caption(_(ROUNDING_HELP))
eleven = compute(cached_call, eleven_point_precision_breakdown, ranking.rels, rounding=rounding, **r_only)
with curve_slot:
    if points:
        r_precisions = {name_a: r_prec.value} if r_prec is not None and name_a in points else None
        # The curve and squares follow the same rounding rule as the 11-point table below.
        compute(show_chart, "precision_recall_chart", points, key="pr_curve", ap_area=True, eleven_point=True,
                r_precision=r_precisions, f_beta_rank={name_a: k_marker} if name_a in points else None, beta=beta,
                rounding=rounding, font_size=chart_font_size(),
                title=_("Precision-recall curve, AP shaded"), where=chart_col)
        rule = ("" if rounding == "ceil" else
                " " + _("Interpolation here follows {rule} (chosen under the 11-point table), so a "
                        "step may start a little before the recall it stands for.").format(
                    rule=ROUNDING.label(rounding)))
        st.caption(_("Circles: relevant ranks, crosses: the others, joined in rank order. Thick line: interpolated "
                     "precision max{{P(r') : r' ≥ r}} (0 beyond the last recall reached). Squares: the 11 standard "
                     "levels. Shaded: AP, a rectangle 1/R wide and P@i high at each relevant rank. Triangles: "
                     "R-precision on the diagonal P = R and {f_at_k}.").format(
                         f_at_k=f"F{format_number(beta)}@{k_marker}") + rule)
if eleven is not None:
    render_breakdown(eleven, key="pr_eleven", title=_("11-point interpolated precision"), file_stem="eleven_point",
                     variant=f"{ROUNDING.label(rounding)}, R = {eleven.details['n_relevant']}",
                     function=eleven_point_precision)

st.subheader(_("Average precision: the shaded area"))
if ap is not None:
    render_breakdown(ap, key="pr_ap", title=f"AP@{k_shown}", file_stem="average_precision",
                     variant=_("non-interpolated: (1/R) × Σ P@i over the relevant ranks; relevant: grade ≥ 1, "
                               "R = {R}").format(R=ap.details["n_relevant"]),
                     function=average_precision)
    # The same working as the slides build it, one step at a time (the homework checker's steps for ranking A).
    judged_relevant = count_relevant(settings["judged"]) if "judged" in settings else None
    reveal_exercise(own_exercise, "ap", rels=tuple(ranking.grades),
                    n_relevant=settings.get("n_relevant", judged_relevant), key="step",
                    title=_("AP step by step, as the slides build it (for the lecture hall)"))
