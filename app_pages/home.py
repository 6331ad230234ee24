"""Home: what each page is for, and a course exercise to load into the shared ranking."""

import streamlit as st

from rankviz.i18n import _
from rankviz.teaching.presets import PRESETS
from rankviz.ui import state
from rankviz.ui.layout import page_header
from rankviz.ui.pages import available_pages, page_for_preset

page_header(_("rankviz: ranking metrics that explain themselves"),
            _("Edit a ranked list and see every metric worked out like a lecture exercise: the table, "
              "the formula with your numbers, and the result."))

pages_col, preset_col = st.columns([1, 1], gap="large")

with pages_col:
    st.subheader(_("Pages"))
    for page in available_pages():
        if page.default:
            continue
        st.page_link(page.file, label=_(page.title), icon=page.icon)
        st.caption(_(page.purpose))


with preset_col:
    st.subheader(_("Course exercises"))
    loadable = [key for key, preset in PRESETS.items() if preset.kind in ("ranking", "two_rankings")]
    st.session_state.setdefault("home_preset", "ndcg_exercise")
    chosen = st.selectbox(_("Exercise"), loadable, key="home_preset", format_func=lambda key: _(PRESETS[key].title))
    preset = PRESETS[chosen]
    st.markdown(_(preset.description))
    st.caption(_("Source: {source}").format(source=_(preset.source)))
    if preset.note:
        st.info(_(preset.note), icon=":material/info:")
    target = page_for_preset(preset)
    if st.button(_("Open it on “{page}”").format(page=_(target.title)), key="home_load", type="primary",
                 icon=":material/play_arrow:"):
        # Not a callback: switch_page needs the navigation this run registers.
        if preset.kind == "ranking":
            state.load_preset(chosen)
        st.session_state["preset"] = chosen
        st.switch_page(target.file)
