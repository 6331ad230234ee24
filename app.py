"""rankviz teaching app: page config, shared state and navigation only.

Run with ``python -m streamlit run app.py``. Pages live in ``app_pages/`` and are listed in
``rankviz/ui/pages.py``; a listed page appears once its file exists. The wheel installs this file,
``app_pages/`` and ``.streamlit/config.toml`` unchanged as ``rankviz/ui/app/`` (pyproject.toml's
``package-dir``), where ``rankviz app`` runs them (``pip install "rankviz[app]"``).

Why not a ``pages/`` folder: beside one, Streamlit keeps its legacy multipage mode on until the
first ``st.navigation`` call, so on a fresh server a shared link to a page (``/graded?rels=...``)
ran that page without this script (no state, no URL settings, an automatic sidebar), and AppTest,
which resets that mode before every run, never ran this script after ``switch_page``.
"""

import streamlit as st

from rankviz.i18n import _

from rankviz.ui.language import start_language
from rankviz.ui.layout import projector_view
from rankviz.ui.link import sync_url
from rankviz.ui.pages import available_pages
from rankviz.ui.script_slots import script_slot
from rankviz.ui.state import init_state

# One run at a time, the others in line: a class editing at once otherwise thrashes the GIL
# (rankviz.ui.script_slots says what was measured; RANKVIZ_SCRIPT_SLOTS changes it).
with script_slot():
    st.set_page_config(page_title="rankviz", page_icon=":material/leaderboard:", layout="wide",
                       initial_sidebar_state="collapsed")
    init_state()  # the link read (or restored by Back/Forward), queued widget values written
    start_language()  # every _() of this run speaks the session's language (rankviz.ui.language)
    navigation = st.navigation([
        st.Page(page.file, title=_(page.title), icon=page.icon, default=page.default, help=_(page.purpose))
        for page in available_pages()
    ], position="top")  # page links in the header: at 1280 px a sidebar would eat a third of the width
    with projector_view():  # the page, drawn again whenever its type size changes
        navigation.run()
    sync_url()  # the URL holds what this run showed (a page that stops early calls rankviz.ui.link.stop)
