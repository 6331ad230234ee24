"""Keep Streamlit's AppTest on the same page path as the real server.

The app declares its pages with ``st.navigation`` and keeps them in ``pages/``. On the real
server the first ``st.navigation`` call switches Streamlit's legacy "pages/ folder" mode off for
good. AppTest, however, resets that mode before every run, so after ``switch_page`` it would run
the page file alone, without ``app.py`` (no state init, no navigation). ``use_navigation_pages``
makes AppTest behave like the server: every run starts from ``app.py``.
"""

from __future__ import annotations

__all__ = ["use_navigation_pages"]


def use_navigation_pages() -> None:
    """Patch AppTest's PagesManager so that runs always go through ``app.py`` (idempotent)."""
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.testing.v1 import app_test

    if getattr(app_test.PagesManager, "_rankviz_navigation", False):
        return

    class NavigationPagesManager(PagesManager):
        _rankviz_navigation = True

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            # What the server's first st.navigation call does, done before the first run.
            PagesManager.uses_pages_directory = False

    app_test.PagesManager = NavigationPagesManager
