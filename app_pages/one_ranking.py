"""One ranking, every metric: edit a ranked list, see every binary and graded metric at k, and
open any of them as a worked table with its formula and numbers."""

import streamlit as st

from rankviz.i18n import _
from rankviz.registry import get_spec, specs_for
from rankviz.ui.cached_results import cached_call
from rankviz.ui.editor import ranking_editor
from rankviz.ui.layout import page_header, table_height_px
from rankviz.ui.pages import page_for
from rankviz.ui.render import compute, render_breakdown
from rankviz.ui.link import link_widget
from rankviz.ui.settings import ranking_settings
from rankviz.ui.why import tools_for_ranking
from rankviz.ui.tables import (
    FAMILIES,
    at_k_label,
    every_metric_table,
    metric_table_config,
    render_other_convention,
    variant_text,
)

page = page_for("app_pages/one_ranking.py")
page_header(_(page.title), _(page.purpose))

edit_col, table_col = st.columns([2, 3], gap="medium")
with edit_col:
    ranking = ranking_editor()
    settings = ranking_settings(ranking)

with table_col:
    st.subheader(_("Every metric at k"))
    table, errors = cached_call(every_metric_table, ranking.rels, settings, len(ranking))
    for message in errors:
        st.error(message)
    st.dataframe(table, hide_index=True, width="stretch", column_config=metric_table_config(table),
                 height=table_height_px(len(table)))
    tools_for_ranking(ranking.rels, settings, key="one_ranking_tools")

st.subheader(_("Worked out"))
names = [spec.name for spec in specs_for(inputs="ranking", families=FAMILIES)]
metric = link_widget(st.selectbox, _("Metric (the rankviz function)"), names, key="metric")
spec = get_spec(metric)
st.caption(_("**{name}**: {description} Source: {reference}.").format(
    name=spec.pretty_name, description=spec.description, reference=spec.reference))
used = spec.applicable(settings)
breakdown = compute(cached_call, spec.breakdown, ranking.rels, **used)
if breakdown is not None:
    render_breakdown(breakdown, key="one_ranking", title=at_k_label(spec, settings, len(ranking)),
                     file_stem=f"{spec.name}_breakdown", variant=variant_text(used, spec),
                     function=spec.function, formula=spec.formula,
                     aside=lambda: render_other_convention(spec, ranking.rels, used, len(ranking)))
