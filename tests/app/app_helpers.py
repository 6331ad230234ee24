"""Shared helpers of the AppTest tests: a fresh app, switched to a page.

Imported as ``from app_helpers import ...`` (pytest puts this folder on sys.path).
"""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app.py"
PAGE_FILES = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "app_pages").glob("*.py"))


def open_app(page: str | None = None, query_params: dict | None = None) -> AppTest:
    """Run the app (with ``query_params`` in the URL), then switch to ``page`` (e.g. ``app_pages/home.py``)."""
    at = AppTest.from_file(str(APP), default_timeout=30)
    for key, value in (query_params or {}).items():
        at.query_params[key] = value
    at.run()
    if page is not None:
        at.switch_page(page).run()
    return at
