"""Rank correlation: two rankings of the same documents; Spearman's table and rho, Kendall's
concordant and discordant pairs with tau-a and tau-b, the four variants of tau beside the tools
that use each, the normalized Kendall tau distance at K, and a scatter of rank against rank."""

import warnings

import streamlit as st

from rankviz.i18n import _
from rankviz.formatting import format_number
from rankviz.teaching.homework import own_exercise
from rankviz.metrics import (
    kendall_tau,
    kendall_tau_breakdown,
    kendall_tau_distance,
    kendall_tau_distance_breakdown,
    spearman_rho,
    spearman_rho_breakdown,
)
from rankviz.metrics.correlation import kendall_tau_a_formula
from rankviz.teaching.presets import PRESETS
from rankviz.ui.cached_charts import show_chart
from rankviz.ui.cached_results import cached_call
from rankviz.ui.convention_examples import kendall_variants_section
from rankviz.ui.fields import number_field
from rankviz.ui.layout import page_header
from rankviz.ui.pages import page_for
from rankviz.ui.render import compute, render_breakdown, render_result
from rankviz.ui.reveal import reveal_exercise
from rankviz.ui.teaching import chart_font_size, printed_vs_exact
from rankviz.ui.two_rankings import MAX_DOCUMENTS, load_shared_ranking, load_two_rankings_preset, two_rankings_editor

page = page_for("app_pages/correlation.py")
page_header(_(page.title), _(page.purpose))
# Pairs beyond this make the pair matrix unreadable on a projector; the pair list stays.
MATRIX_MAX_DOCUMENTS = 15
# Beyond this many discordant pairs the segments hide the points (and the chart's data grows as n^2).
MAX_DRAWN_PAIRS = 60


def _computed(function, *args, where=None, **kwargs):
    """``compute`` that also shows an undefined correlation's RuntimeWarning (NaN) as a message."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RuntimeWarning)
        result = compute(function, *args, where=where, **kwargs)
    for warning in caught:
        (where or st).warning(str(warning.message))
    return result


edit_col, chart_col = st.columns([1, 1], gap="medium")
with edit_col:
    rankings = two_rankings_editor()
    presets = [key for key, preset in PRESETS.items() if preset.kind == "two_rankings"]
    preset_col, shared_col = st.columns(2)
    preset_col.button(_("The course's SRCC exercise"), key="corr_load_preset", on_click=load_two_rankings_preset,
                      args=(presets[0],), icon=":material/school:", width="stretch",
                      help=_("{title}: R1 ideal, R2 a new ranking function.").format(title=_(PRESETS[presets[0]].title)))
    shared_col.button(_("Ideal vs your graded ranking"), key="corr_load_shared", on_click=load_shared_ranking,
                      icon=":material/swap_vert:", width="stretch",
                      help=_("R1: the ideal order of the ranking edited on the other pages (equal grades tie and "
                             "share their average rank), R2: that ranking as the system returned it."))
items, a, b = list(rankings.items), rankings.ranks_a, rankings.ranks_b

kendall = _computed(cached_call, kendall_tau_breakdown, a, b, items=items, where=edit_col)
spearman = _computed(cached_call, spearman_rho_breakdown, a, b, items=items, where=edit_col)
with chart_col:
    discordant = ([] if kendall is None else
                  list(zip(*[kendall.table.loc[kendall.table["pair"] == "discordant", c] for c in ("i", "j")])))
    drawn = discordant if len(discordant) <= MAX_DRAWN_PAIRS else []
    _computed(show_chart, "rank_scatter_chart", rankings.to_frame(), key="corr_scatter", rank_a="rank in R1",
              rank_b="rank in R2", highlight_pairs=drawn, font_size=chart_font_size(), where=chart_col,
              title=_("Rank in R1 against rank in R2"))  # the legend and the caption say what the dashes are
    if len(discordant) > MAX_DRAWN_PAIRS:
        st.caption(_("{n} discordant pairs are too many to draw; Kendall's table below lists them.").format(
            n=len(discordant)))
    st.caption(_("On the diagonal a document has the same rank in both rankings; d = s1 − s2 is its horizontal "
                 "distance from it. A dashed segment joins each discordant pair: the two rankings order it "
                 "differently."))
    if spearman is not None and kendall is not None:
        st.markdown(_("**ρ = {rho}** (Spearman) · **τ-b = {tau}** (Kendall) — worked out below.").format(
            rho=format_number(spearman.value, 3), tau=format_number(kendall.value, 3)))

st.subheader(_("Spearman's rank correlation ρ"))
if spearman is not None:
    render_breakdown(spearman, key="corr_spearman", title=_("ρ (Spearman)"), file_stem="spearman_rho",
                     variant=(_("with ties: Pearson correlation of the average ranks") if spearman.details["ties"]
                              else _("1 − 6 Σd² / (K (K² − 1)), no ties")),
                     function=spearman_rho)
    for key in presets:
        preset = PRESETS[key]
        if (tuple(items), a, b) == (tuple(preset.doc_ids), tuple(preset.ranks_a), tuple(preset.ranks_b)):
            printed_vs_exact(preset, {"sum_d2": ("Σd²", spearman.details["sum_d2"]),
                                      "srcc": ("ρ", spearman.value)}, convention="1 − 6Σd²/(K(K²−1))")

    reveal_exercise(own_exercise, "spearman", ranks_a=a, ranks_b=b, items=items, key="step",
                    title=_("ρ step by step, as the slides build it (for the lecture hall)"))

st.subheader(_("Kendall's τ: concordant and discordant pairs"))
if kendall is not None:
    counts = kendall.details["counts"]
    tau_a = _computed(cached_call, kendall_tau, a, b, "a")
    tau_col, matrix_col = st.columns([2, 3], gap="medium")
    with tau_col:
        render_result("τ-b", kendall.value,
                      variant=_("(C − D) / √((C + D + T_a)(C + D + T_b)), scipy's default"))
        if tau_a is not None:
            render_result("τ-a", tau_a, variant=kendall_tau_a_formula(counts))
        st.caption(_("C = {c} concordant, D = {d} discordant, T_a = {ta} tied in R1 only, T_b = {tb} tied in R2 "
                     "only, {both} tied in both. Without ties τ-a = τ-b.").format(
            c=counts["concordant"], d=counts["discordant"], ta=counts["tied in a"], tb=counts["tied in b"],
            both=counts["tied in both"]))
    with matrix_col:
        if len(items) <= MATRIX_MAX_DOCUMENTS:
            # A short title: the builder's longer one was cut at the projector's type size.
            _computed(show_chart, "pair_matrix_chart", kendall, key="corr_pairs", order=rankings.ordered("a"),
                      font_size=chart_font_size(), title=_("Kendall's pairs: C concordant, D discordant"))
        else:
            st.caption(_("The pair matrix is drawn for up to {n} documents; the list below has every pair.").format(
                n=MATRIX_MAX_DOCUMENTS))
    kendall_variants_section(a, b, key="corr_kendall_variants")
    render_breakdown(kendall, key="corr_kendall", title=_("τ-b (Kendall)"), file_stem="kendall_tau",
                     variant=_("pairs i < j in the table's order; a tie is '='"), function=kendall_tau)

st.subheader(_("Normalized Kendall tau distance at K"))
k_col, p_col = st.columns(2)
top_k = number_field(_("K (top of each list)"), key="topk", default=min(5, len(items)), minimum=1,
                     maximum=MAX_DOCUMENTS, whole=True, container=k_col,
                     help=_("Compare the top K documents of R1 and R2 (each ordered by its ranks)."))
penalty = number_field(_("p (penalty for a pair only one list ranks)"), key="p", minimum=0, maximum=1,
                       container=p_col,
                       help=_("Two documents both in one top-K list and both missing from the other: that list's "
                              "order is not contradicted or confirmed. p = 0.5 is Fagin et al.'s neutral choice."))
list_a, list_b = rankings.ordered("a"), rankings.ordered("b")
st.caption(_("Top {k} of R1: {a}. Top {k} of R2: {b}. Tied ranks are ordered as in the table.").format(
    k=top_k, a=", ".join(list_a[:top_k]), b=", ".join(list_b[:top_k])))
distance = _computed(cached_call, kendall_tau_distance_breakdown, list_a, list_b, k=top_k, penalty=penalty)
if distance is not None:
    render_breakdown(distance, key="corr_distance", title=f"K_n@{top_k}", file_stem="kendall_tau_distance",
                     variant=_("normalized over the n(n−1)/2 pairs of the union, p = {p}").format(
                         p=format_number(penalty)),
                     function=kendall_tau_distance)
