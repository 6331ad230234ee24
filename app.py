"""rankviz teaching app: page config, shared state and navigation only.

Run with ``python -m streamlit run app.py``. Pages live in ``pages/`` and are listed in
``rankviz/ui/pages.py``; a listed page appears once its file exists. ``st.navigation`` below
replaces Streamlit's automatic ``pages/`` discovery (tests/conftest.py and rankviz/ui/testing.py
explain how AppTest is kept on the same path).
"""

import streamlit as st

from rankviz.ui.layout import projector_toggle
from rankviz.ui.pages import available_pages
from rankviz.ui.state import init_state, sync_url

st.set_page_config(page_title="rankviz", page_icon=":material/leaderboard:", layout="wide",
                   initial_sidebar_state="collapsed")
init_state()
projector_toggle()
navigation = st.navigation([
    st.Page(page.path, title=page.title, icon=page.icon, default=page.default, help=page.purpose)
    for page in available_pages()
], position="top")  # page links in the header: at 1280 px a sidebar would eat a third of the width
navigation.run()
sync_url()  # the URL mirrors the ranking and settings: a shareable link
