"""Graded relevance: CG, DCG, IDCG and nDCG under every gain and discount, the ideal ranking
beside the system's with per-rank contributions, and ERR with its stop probabilities."""

import streamlit as st

from rankviz.display import in_language
from rankviz.i18n import _
from rankviz.formatting import format_number
from rankviz.teaching.graded_variants import graded_variants
from rankviz.metrics import err, err_breakdown, ndcg, ndcg_breakdown
from rankviz.teaching.homework import own_exercise
from rankviz.teaching.presets import ranking_presets
from rankviz.charts import BY_ROLE
from rankviz.registry import get_spec
from rankviz.ui.cached_charts import show_chart
from rankviz.ui.cached_results import arrow_frame, cached_call
from rankviz.ui.editor import ranking_editor
from rankviz.ui.layout import page_header
from rankviz.ui.pages import page_for
from rankviz.ui.render import compute, number_columns, render_breakdown
from rankviz.ui.reveal import reveal_exercise
from rankviz.ui.settings import ranking_settings, variant_label
from rankviz.ui.tables import at_k_label, render_other_convention, variant_text
from rankviz.ui.teaching import chart_font_size, printed_vs_exact

page = page_for("app_pages/graded.py")
page_header(_(page.title), _(page.purpose))

edit_col, table_col = st.columns([2, 3], gap="medium")
with edit_col:
    ranking = ranking_editor()
    settings = ranking_settings(ranking)
k, judged = settings.get("k"), settings.get("judged")
chosen = {"gain": settings["gain"], "discount": settings["discount"]}
spec = get_spec("ndcg")
k_label = k if k is not None else len(ranking)

with table_col:
    st.subheader(_("Every gain and discount, at k = {k}").format(k=k_label))
    variants = compute(cached_call, graded_variants, ranking.rels, k, judged=judged, where=table_col)
    if variants is not None:
        variants.insert(0, "shown below", [
            "▶" if (g, d) == (chosen["gain"], chosen["discount"]) else ""
            for g, d in zip(variants["gain"], variants["discount"])])
        # The formulas are in the radio captions and the caption below: seven narrow columns fit a projector.
        variants = in_language(variants[["shown below", "gain", "discount", "nDCG", "DCG", "IDCG", "CG"]])
        config = {**number_columns(variants),
                  "shown below": st.column_config.TextColumn("", width="small",
                                                             help=_("▶ marks the variant worked out below."))}
        st.dataframe(arrow_frame(variants), hide_index=True, width="stretch", column_config=config, height="content",
                     key="graded_variants")
        st.caption(" ".join(f"{c.label}: {c.description}" for p in (spec.param("gain"), spec.param("discount"))
                            for c in p.choices) + " "
                   + (_("The ideal ranking sorts every judged grade (the ranking's and the unretrieved ones).")
                      if judged is not None else
                      _("The ideal ranking sorts the ranking's own grades (add judged-but-not-retrieved grades to "
                        "penalize misses).")))
    # A course exercise loaded (or typed) here: its printed numbers beside the exact ones.
    for preset in ranking_presets():
        if "dcg" in preset.printed and tuple(ranking.grades) == tuple(preset.rels):
            exact = compute(cached_call, ndcg_breakdown, preset.rels, **dict(preset.settings))
            if exact is not None:
                printed_vs_exact(preset, {"dcg": ("DCG", exact.details["dcg"]), "idcg": ("IDCG", exact.details["idcg"]),
                                          "ndcg": ("nDCG", exact.value)},
                                 convention=variant_label(dict(preset.settings)))

st.subheader(_("nDCG worked out: your ranking beside the ideal one ({variant})").format(variant=variant_label(chosen)))
used = spec.applicable(settings)
table = compute(cached_call, ndcg_breakdown, ranking.rels, **used)
if table is not None:
    show_chart("gain_contribution_chart", table, key="graded_contributions", running=BY_ROLE,
               ideal_running=BY_ROLE, font_size=chart_font_size(),
               title=_("What each rank adds: ({gain}) × {discount}").format(
                   gain=spec.param("gain").choice(chosen["gain"]).text,
                   discount=spec.param("discount").choice(chosen["discount"]).text))
    st.caption(_("Bars: what each rank adds, labelled with its grade (solid: your ranking, pale and dashed: the ideal "
                 "one). Lines (right axis): the running DCG and IDCG; nDCG is their ratio at the last rank."))
    render_breakdown(table, key="graded_ndcg", title=at_k_label(spec, settings, len(ranking)), file_stem="ndcg",
                     variant=variant_text(used), function=ndcg,
                     aside=lambda: render_other_convention(spec, ranking.rels, used, len(ranking)))

# The same working as the slides build it, one step at a time (the homework checker's steps for this ranking).
unretrieved = tuple(judged[len(ranking.grades):]) if judged is not None else ()
reveal_exercise(own_exercise, "ndcg", rels=tuple(ranking.grades), unretrieved=unretrieved, **chosen, key="step",
                title=_("nDCG step by step, as the slides build it (for the lecture hall)"),
                caption=(_("The steps work out the whole ranking of {n} (the table above stops at k = {k}).").format(
                    n=len(ranking), k=k) if k is not None and k < len(ranking) else ""))

st.subheader(_("ERR: a user who stops once satisfied"))
# err takes g_max from the judged grades when the unretrieved ones are given, else from the ranking.
err_table = compute(cached_call, err_breakdown, ranking.rels, k, judged=judged)
if err_table is not None:
    g_max = err_table.details["max_grade"]
    whose = _("the highest judged grade") if judged is not None else _("the highest grade in the ranking")
    st.caption(_("R_i = (2^g_i − 1) / 2^g_max is the chance that the document at rank i satisfies the user, with "
                 "g_max = {g_max} ({whose}). The user reaches rank r only if no earlier document satisfied them; "
                 "ERR sums P(stop at r) / r.").format(g_max=format_number(g_max), whose=whose))
    show_chart("err_chart", err_table, key="graded_err", reach=BY_ROLE, font_size=chart_font_size())
    render_breakdown(err_table, key="graded_err_table", title=f"ERR@{k_label}", file_stem="err",
                     variant=f"g_max = {format_number(g_max)}, R_i = (2^g − 1) / 2^g_max", function=err)
