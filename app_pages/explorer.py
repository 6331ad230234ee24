"""Metric behaviour explorer: one relevant document moved from rank 1 to rank N under every
metric; which metrics move when R, k or the grade scale changes; many simulated rankings scored
by two metrics, with Kendall's tau between the orderings they induce."""

import streamlit as st

from rankviz.display import in_language
from rankviz.i18n import _
from rankviz.teaching.explore import (
    DEFAULT_SWEEP_METRICS,
    MAX_RANKINGS,
    MAX_SWEEP_RANKS,
    SWEEP_METRICS,
    metric_agreement,
    parse_ranking_to_perturb,
    parse_sweep_others,
    perturbed_rankings,
    position_sweep,
    random_rankings,
    score_rankings,
    sweep_changes,
    sweep_length,
    sweep_values_at,
)
from rankviz.formatting import format_number
from rankviz.teaching.parsing import format_grades
from rankviz.registry import GAIN, get_spec
from rankviz.ui.cached_charts import show_chart
from rankviz.ui.cached_results import cached_call
from rankviz.ui.fields import int_field
from rankviz.ui.last_valid import keep_choice, parse_or_last_valid
from rankviz.ui.layout import page_header
from rankviz.ui.link import keep_last_valid_in_link, link_widget
from rankviz.ui.pages import page_for
from rankviz.ui.render import compute, number_columns
from rankviz.ui.settings import choice_radio
from rankviz.ui.teaching import chart_font_size

page = page_for("app_pages/explorer.py")
page_header(_(page.title), _(page.purpose))

# Grade scales: the moving document gets the top grade; random rankings draw from the whole scale.
SCALES = {"0-1": (0, 1), "0-2": (0, 1, 2), "0-3": (0, 1, 2, 3), "0-4": (0, 1, 2, 3, 4)}


def _pretty(name: str) -> str:
    return get_spec(name).pretty_name


st.session_state.setdefault("ex_metrics", list(DEFAULT_SWEEP_METRICS))
metrics = st.multiselect(_("Metrics"), SWEEP_METRICS, key="ex_metrics", format_func=_pretty,
                         help=_("The ranking metrics whose values lie in [0, 1], so they share one axis."))
if not metrics:
    st.error(_("Choose at least one metric; showing the default ones."))
    metrics = list(DEFAULT_SWEEP_METRICS)

# ------------------------------------------------------------------ 1. position sweep
st.subheader(_("1. Move one relevant document from rank 1 to rank N"))
n_col, r_col, k_col, others_col = st.columns([1, 1, 1, 3])
# The chart gets most of the width; the grade settings and the values at rank 2 sit beside it.
chart_col, note_col = st.columns([3, 1], gap="medium")
scale_col = gain_col = note_col
others_text = link_widget(
    others_col.text_input, _("The other documents (optional)"), key="ex_others", placeholder=_("all not relevant"),
    help=_("Grades of the other documents in their ranked order, e.g. 1,0,0,2,0: the moving document passes them "
           "one by one. Their number sets N. Blank: N − 1 documents that are not relevant."))
try:
    others = parse_sweep_others(others_text)
except ValueError as error:
    others = None
    keep_last_valid_in_link("ex_others")
    others_col.error(_("The other documents: {error} Using documents that are not relevant.").format(error=error))
n_ranks = int_field(_("N (ranks)"), key="ex_n", minimum=1, maximum=MAX_SWEEP_RANKS, container=n_col, placeholder="10",
                    help=_("The length of the ranking (set by the other documents when they are given).")) or 10
n_ranks = sweep_length(others, n_ranks)
if others is not None:
    n_col.caption(_("N = {n}: the moving document and the {others} others.").format(n=n_ranks, others=len(others)))
n_relevant = int_field(_("R (relevant)"), key="ex_r", minimum=1, maximum=10_000, container=r_col,
                       placeholder=_("counted"),
                       help=_("Relevant documents of the query in the collection: those ranked and R minus them never "
                              "retrieved (with the moving one's grade). Blank: the relevant documents in the ranking."))
k = int_field(_("k (cut-off)"), key="ex_k", minimum=1, maximum=MAX_SWEEP_RANKS, container=k_col,
              help=_("Cut-off of the metrics that take one. Blank: the whole list (k = N)."))
scale = link_widget(scale_col.selectbox, _("Grade scale"), list(SCALES), key="ex_scale",
                    help=_("The moving document has the top grade; ERR's stop probability is "
                           "(2^g − 1) / 2^g_max with g_max the top of the scale."))
gain = choice_radio(GAIN, _("nDCG gain"), key="ex_gain", container=gain_col)
top_grade = SCALES[scale][-1]
settings = {"n_relevant": n_relevant, "k": k, "grade": top_grade, "max_grade": top_grade, "gain": gain,
            "others": others}
sweep = compute(cached_call, position_sweep, n_ranks, metrics=metrics, **settings)
if sweep is None:  # e.g. R below the relevant documents ranked: the message is shown, fall back to the defaults
    settings = {"n_relevant": None, "k": None, "grade": top_grade, "max_grade": top_grade, "gain": gain,
                "others": None}
    sweep = cached_call(position_sweep, n_ranks, metrics=metrics, **settings)
used_r = sweep.settings["n_relevant"]

with chart_col:
    show_chart("metric_vs_position_chart", sweep, key="ex_sweep", font_size=chart_font_size(),
               title=_("A document of grade {grade} moving down {n} ranks (R = {R})").format(
                   grade=top_grade, n=n_ranks, R=used_r))
with note_col:
    at_rank_2 = sweep_values_at(sweep, 2)
    st.markdown(_("**At rank {rank}**").format(rank=at_rank_2.position))
    st.dataframe(in_language(at_rank_2.table), hide_index=True, width="stretch",
                 column_config={_("value"): st.column_config.NumberColumn(_("value"), format="%.3f")})
    st.caption(_("Conventions: binary relevance grade ≥ 1; R = {R}; nDCG {gain}, log2(i+1) discount, "
                 "ideal from the ranking and the unretrieved relevant ones; ERR with g_max = {g_max}.").format(
        R=used_r, gain=GAIN.label(gain), g_max=top_grade))
with st.expander(_("Every value (position × metric)")):
    wide = sweep.table.pivot(index="position", columns="metric", values="value")[
        list(dict.fromkeys(sweep.table["metric"]))]
    wide = in_language(wide.reset_index())
    st.dataframe(wide, hide_index=True, width="stretch", column_config=number_columns(wide))

st.markdown(_("**Which metrics move?** Change one setting and compare with the sweep above."))
what_col, value_col, changes_col = st.columns([1, 1, 3], gap="medium")
change = link_widget(what_col.selectbox, _("Change"), ("R", "k", "grade scale"), key="ex_change",
                     format_func=lambda c: _("grade scale") if c == "grade scale" else c)
if change == "grade scale":
    st.session_state.setdefault("ex_other_scale", "0-3")
    other_scale = value_col.selectbox(_("to"), list(SCALES), key="ex_other_scale")
    other_top = SCALES[other_scale][-1]
    other = {**settings, "grade": other_top, "max_grade": other_top}
    described = _("grade scale {before} → {after}").format(before=scale, after=other_scale)
else:
    other_value = int_field(_("to"), key="ex_other_value", minimum=1, maximum=MAX_SWEEP_RANKS if change == "k" else 10_000,
                            container=value_col, placeholder="3", help=_("The new value (k blank: the whole list)."))
    other = {**settings, ("n_relevant" if change == "R" else "k"): other_value if change == "k" else
             (other_value or used_r)}
    described = (f"R = {used_r} → {other['n_relevant']}" if change == "R"
                 else f"k = {settings['k'] or 'N'} → {other['k'] or 'N'}")
other_sweep = compute(cached_call, position_sweep, n_ranks, metrics=metrics, **other, where=changes_col)
if other_sweep is not None:
    changes = cached_call(sweep_changes, sweep, other_sweep)
    changes["moved"] = changes["moved"].map({True: _("yes"), False: _("no")})  # in words, not by colour
    changes_col.dataframe(changes.drop(columns="name"), hide_index=True, width="stretch", column_config={
        "largest change": st.column_config.NumberColumn(_("largest change"), format="%+.3f",
                                                        help=_("After − before, the change of largest size.")),
        "at position": st.column_config.NumberColumn(_("at position"), help=_("Rank of the moving document there.")),
        "metric": st.column_config.TextColumn(_("metric")), "moved": st.column_config.TextColumn(_("moved")),
    })
    moved = changes.loc[changes["moved"] == _("yes"), "metric"].tolist()
    still = changes.loc[changes["moved"] == _("no"), "metric"].tolist()
    changes_col.caption(f"{described}: " + (_("{metrics} moved;").format(metrics=", ".join(moved)) if moved
                                            else _("nothing moved;"))
                        + " " + _("{still} of {total} metrics did not.").format(still=len(still), total=len(changes)))

# ------------------------------------------------------------------ 2. many rankings
st.subheader(_("2. Many rankings: metric against metric"))
gen_col, count_col, seed_col, sim_r_col, detail_col = st.columns([2, 1, 1, 1, 2])
generator = link_widget(gen_col.radio, _("Rankings"), ("random", "perturbed"), key="ex_generator", horizontal=True,
                        format_func=lambda g: _("random") if g == "random" else _("perturbed"),
                        captions=[_("grades drawn at random"), _("random swaps of one ranking")])
n_rankings = int_field(_("How many"), key="ex_m", minimum=2, maximum=MAX_RANKINGS, container=count_col,
                       placeholder="200", help=_("Systems (rankings) to simulate.")) or 200
seed = int_field(_("Seed"), key="ex_seed", minimum=0, maximum=2**31 - 1, container=seed_col, placeholder="42",
                 help=_("The same seed gives the same rankings (it is in the link)."))
seed = 42 if seed is None else seed
if generator == "random":
    length = int_field(_("Ranking length"), key="ex_len", minimum=1, maximum=MAX_SWEEP_RANKS, container=detail_col,
                       placeholder="10", help=_("Grades are drawn uniformly from the grade scale chosen above.")) or 10
    rankings = cached_call(random_rankings, n_rankings, length, seed=seed, grades=SCALES[scale])
    described = _("{n} rankings of {length} grades drawn uniformly from {scale}, seed {seed}").format(
        n=n_rankings, length=length, scale=scale, seed=seed)
else:
    base_text = link_widget(detail_col.text_input, _("Ranking to perturb"), key="ex_base",
                            help=_("Grades in ranked order; ranking i swaps a random number (0 to its length) of "
                                   "random pairs."))
    base = parse_or_last_valid("ex_base", lambda: parse_ranking_to_perturb(base_text),
                               default=(3, 2, 3, 0, 1, 2, 0, 0, 1, 0), where=detail_col,
                               message=lambda error, base: _("{error} Still using {grades}.").format(error=error,
                                                                                        grades=format_grades(base)))
    rankings = compute(cached_call, perturbed_rankings, base, n_rankings, seed=seed, where=detail_col)
    if rankings is None:
        rankings = perturbed_rankings((3, 2, 3, 0, 1, 2, 0, 0, 1, 0), n_rankings, seed=seed)
    described = _("{n} random perturbations of {grades}, seed {seed}").format(
        n=n_rankings, grades=format_grades(base), seed=seed)
sim_r = int_field(_("R (all rankings)"), key="ex_sim_r", minimum=1, maximum=10_000, container=sim_r_col,
                  placeholder=_("most"), help=_("Relevant documents of the query, the same for every ranking. "
                                                "Blank: the most relevant documents any ranking holds."))
scores = compute(cached_call, score_rankings, rankings, metrics, k=k, gain=gain, n_relevant=sim_r or "most",
                 where=sim_r_col)
if scores is None:
    scores = score_rankings(rankings, metrics, gain=gain, n_relevant="most")
labels = [scores.labels[name] for name in metrics]
with st.spinner(_("Comparing orderings")):
    import warnings

    with warnings.catch_warnings(record=True) as caught:  # undefined tau: shown as a message below
        warnings.simplefilter("always", RuntimeWarning)
        agreement = cached_call(metric_agreement, scores, labels)

x_col, y_col, tau_col = st.columns([2, 2, 1], vertical_alignment="bottom")
# AP against nDCG first (when chosen): the classic question of whether two suites agree.
label_of = scores.labels
default_x = label_of.get("average_precision", labels[0])
default_y = label_of.get("ndcg", labels[min(1, len(labels) - 1)])
keep_choice("ex_x", labels, default_x)
keep_choice("ex_y", labels, default_y)
x = x_col.selectbox(_("x metric"), labels, key="ex_x")
y = y_col.selectbox(_("y metric"), labels, key="ex_y")
tau = agreement.loc[x, y]
tau_col.metric(_("Kendall's τ_b"), format_number(tau, 3) if tau == tau else _("undefined"), border=True,
               help=_("Between the orderings of the rankings by the two metrics: 1 = they always agree which "
                      "ranking is better, −1 = always the opposite. Ties counted as in tau-b."))
scatter_col, matrix_col = st.columns([3, 2], gap="medium")
with scatter_col:
    show_chart("metric_scatter_chart", scores, key="ex_scatter", x=x, y=y, label="grades", diagonal=True,
               subtitle=_("Kendall's τ_b between the orderings = {tau}").format(
                   tau=format_number(tau, 3) if tau == tau else _("undefined")),
               font_size=chart_font_size())
scatter_col.caption(_("Each point is one ranking: {described}.").format(described=described))
with matrix_col:
    st.markdown(_("**Kendall's τ_b between every pair of metrics**"))
    st.dataframe(in_language(agreement.reset_index()), hide_index=True, width="stretch",
                 column_config={c: st.column_config.NumberColumn(c, format="%.2f") for c in agreement.columns})
    if caught:
        st.warning(str(caught[0].message), icon=":material/info:")
    st.caption(_("Conventions: k = {k}, R = {R} for every ranking (grade ≥ 1), nDCG {gain} with each ranking's own "
                 "ideal, ERR with g_max = the top grade drawn.").format(
        k=k or _("the whole list"), R=sim_r or _("the most relevant documents of any ranking"), gain=GAIN.label(gain)))
with st.expander(_("The {n} rankings and their scores").format(n=len(scores.table))):
    st.dataframe(scores.table, hide_index=True, width="stretch", column_config=number_columns(scores.table),
                 height=300)
