"""Glossary: the course's terms in Chinese and English side by side, each with its source."""

import pandas as pd
import streamlit as st

from rankviz.glossary import PRECISION_NOTE, SOURCES, TERMS
from rankviz.i18n import _
from rankviz.ui.layout import page_header, table_height_px
from rankviz.ui.pages import page_for

page = page_for("app_pages/glossary.py")
page_header(_(page.title), _(page.purpose))

st.info(_(PRECISION_NOTE), icon=":material/translate:")

table = pd.DataFrame({
    "chinese": [t.chinese for t in TERMS],
    "english": [t.english for t in TERMS],
    "symbol": [t.symbol for t in TERMS],
    "other_chinese": [t.other_chinese for t in TERMS],
    "in_notes": [t.in_notes or "—" for t in TERMS],
    "source": [_(SOURCES[t.source]) for t in TERMS],
})
st.dataframe(table, hide_index=True, width="stretch", height=table_height_px(len(table)), key="glossary_table",
             column_config={
                 "chinese": st.column_config.TextColumn(_("Chinese (this app)"), pinned=True),
                 "english": st.column_config.TextColumn(_("English")),
                 "symbol": st.column_config.TextColumn(_("symbol")),
                 "other_chinese": st.column_config.TextColumn(_("other Chinese names")),
                 "in_notes": st.column_config.TextColumn(
                     _("the course notes write"), help=_("As written in course notes 001; — where they do not use it.")),
                 "source": st.column_config.TextColumn(_("source"), width="large"),
             })
st.caption(_("The app's Chinese uses these terms; the notes come first, and where they give only the English "
             "name the Chinese is the one in common use."))
