"""Shared helpers of the AppTest tests: a fresh app, switched to a page.

Imported as ``from app_helpers import ...`` (pytest puts this folder on sys.path).
"""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from rankviz.i18n import use

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app.py"
PAGE_FILES = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "app_pages").glob("*.py"))


def open_app(page: str | None = None, query_params: dict | None = None) -> AppTest:
    """Run the app (with ``query_params`` in the URL), then switch to ``page`` (e.g. ``app_pages/home.py``).

    AppTest calls a widget's ``format_func`` again in the test's thread (to find the chosen
    option's index among the labels the script sent), so that thread speaks the link's language
    too; tests/conftest.py puts it back to English after each test."""
    use((query_params or {}).get("lang"))
    at = AppTest.from_file(str(APP), default_timeout=30)
    for key, value in (query_params or {}).items():
        at.query_params[key] = value
    at.run()
    if page is not None:
        at.switch_page(page).run()
    return at


ONE_RANKING = "app_pages/one_ranking.py"
HOME = "app_pages/home.py"


def table_with(at: AppTest, column: str):
    """The first shown table (st.dataframe or grid) that has ``column``."""
    for frame in at.dataframe:
        if column in frame.value.columns:
            return frame.value
    raise AssertionError(f"no table with a {column!r} column; tables: {[list(f.value.columns) for f in at.dataframe]}")


def metric_values(at: AppTest) -> dict:
    """The every-metric table as {shown metric label: value}."""
    table = table_with(at, "variant")
    return dict(zip(table["metric"], table["value"]))


def result_lines(at: AppTest) -> list[str]:
    """The worked results shown in large type, e.g. ["nDCG@6 = 0.949"]."""
    return [m.value.split("\n")[0].removeprefix("### ").strip() for m in at.markdown if m.value.startswith("### ")]


def errors(at: AppTest) -> list[str]:
    return [e.value for e in at.error]


def edit_grid(at: AppTest, *, edited_rows=None, added_rows=None, deleted_rows=None, prefix: str = "") -> AppTest:
    """Seed an edit of the ranking grid (as the browser would send it) and rerun."""
    from rankviz.ui.state import grid_key

    revision = at.session_state[f"{prefix}ranking_revision"]
    at.session_state[grid_key(prefix, revision)] = {
        "edited_rows": edited_rows or {}, "added_rows": added_rows or [], "deleted_rows": deleted_rows or []}
    return at.run()


def table_grid_key(at: AppTest, prefix: str) -> str:
    """The key of the grid of ``rankviz.ui.table_editor`` ``prefix`` as the page last drew it
    (its revision read the way the page reads it), to seed an edit under."""
    revision = at.session_state[f"{prefix}_table_revision"] if f"{prefix}_table_revision" in at.session_state else 0
    return f"{prefix}_grid_{revision}"
