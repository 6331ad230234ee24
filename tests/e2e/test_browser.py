"""Real-browser tests: what AppTest cannot see (grid edits, KaTeX, URL round trips, screenshots).

Kept few and robust; each waits for Streamlit to finish its run before reading the page.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import SCREENSHOTS, edit_grade_in_grid, no_error_text, wait_until_idle
from rankviz.formatting import format_number
from rankviz.metrics import ndcg
from rankviz.ui.pages import available_pages

pytestmark = pytest.mark.e2e

TALL = {"width": 1280, "height": 2000}


def _url_path(page) -> str:
    """The URL path st.navigation gives a page: the default page is "/", others their file stem."""
    return "" if page.default else Path(page.path).stem


def _result_text(tab) -> str:
    """The worked result line, e.g. "nDCG@6 = 0.949"."""
    heading = tab.locator("h3", has_text=re.compile(r"nDCG@\d+ = ")).first
    heading.wait_for()
    return heading.inner_text().splitlines()[0].strip()


# The pages this file screenshots for the README, opened in a state worth showing. Other pages
# are screenshotted by their own tests (with their own example state), so they are only opened here.
SCREENSHOT_STATES = {"home": "", "one_ranking": "?rels=3,2,3,0,1,2&gain=exponential"}


@pytest.mark.parametrize("page_info", available_pages(), ids=lambda p: Path(p.path).stem)
def test_every_page_opens_without_errors_or_sideways_scrolling(page, app_url, page_info):
    stem = Path(page_info.path).stem
    page.goto(f"{app_url}/{_url_path(page_info)}{SCREENSHOT_STATES.get(stem, '')}")
    wait_until_idle(page)
    no_error_text(page)
    overflow = page.evaluate("() => { const m = document.querySelector('[data-testid=\"stMain\"]');"
                             " return m.scrollWidth - m.clientWidth; }")
    assert overflow <= 1, f"{stem}: the page scrolls sideways by {overflow} px at 1280 px"
    if stem in SCREENSHOT_STATES:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{stem}.png"))
        page.set_viewport_size(TALL)  # Streamlit scrolls inside its main block: a tall window shows it all
        wait_until_idle(page)
        page.screenshot(path=str(SCREENSHOTS / f"{stem}_full.png"))


def test_shared_link_restores_the_state(page, app_url):
    page.goto(f"{app_url}/one_ranking?rels=1,0,3&k=2&gain=exponential")
    wait_until_idle(page)
    no_error_text(page)
    assert page.get_by_role("textbox", name="Grades in ranked order").input_value() == "1,0,3"
    assert page.get_by_role("textbox", name="k (cut-off)").input_value() == "2"
    expected = format_number(ndcg([1, 0, 3], k=2, gain="exponential"), 3)
    assert _result_text(page) == f"nDCG@2 = {expected}"


def test_editing_a_grade_in_the_grid_changes_ndcg(page, app_url):
    page.goto(f"{app_url}/one_ranking?rels=3,2,3,0,1,2&gain=exponential")
    wait_until_idle(page)
    assert _result_text(page) == f"nDCG@6 = {format_number(ndcg([3, 2, 3, 0, 1, 2], gain='exponential'), 3)}"

    edit_grade_in_grid(page, rank=4, grade=3)  # grade 0 -> 3

    expected = format_number(ndcg([3, 2, 3, 3, 1, 2], gain="exponential"), 3)
    page.wait_for_function(
        "(want) => [...document.querySelectorAll('h3')].some(h => h.innerText.startsWith(want))",
        arg=f"nDCG@6 = {expected}", timeout=20_000)
    assert page.get_by_role("textbox", name="Grades in ranked order").input_value() == "3,2,3,3,1,2"
    page.wait_for_url(re.compile(r"rels=3%2C2%2C3%2C3%2C1%2C2|rels=3,2,3,3,1,2"))


def test_projector_mode_enlarges_type_and_still_fits_1280_px(page, app_url):
    from rankviz.ui.layout import PROJECTOR_FONT_PX

    page.goto(f"{app_url}/one_ranking?rels=3,2,3,0,1,2&gain=exponential&projector=true")
    wait_until_idle(page)
    no_error_text(page)
    assert page.evaluate("() => getComputedStyle(document.documentElement).fontSize") == f"{PROJECTOR_FONT_PX}px"
    overflow = page.evaluate("() => { const m = document.querySelector('[data-testid=\"stMain\"]');"
                             " return m.scrollWidth - m.clientWidth; }")
    assert overflow <= 1, f"projector mode scrolls sideways by {overflow} px"
    # The grid is sized for the larger rows: all six ranks visible, none cut off.
    grid = page.get_by_test_id("stDataFrame").first
    assert grid.bounding_box()["height"] >= 7 * 35 * PROJECTOR_FONT_PX / 16
    page.screenshot(path=str(SCREENSHOTS / "one_ranking_projector.png"))


def test_a_course_exercise_follows_the_student_across_pages_and_into_the_url(page, app_url):
    page.goto(app_url)
    wait_until_idle(page)
    page.get_by_role("button", name=re.compile("Open it on")).click()  # the lecture's NDCG exercise
    wait_until_idle(page)
    page.get_by_role("link", name="One ranking, every metric").click()
    wait_until_idle(page)
    assert _result_text(page) == f"nDCG@6 = {format_number(ndcg([3, 2, 3, 0, 1, 2], gain='exponential'), 3)}"
    page.wait_for_url(re.compile(r"gain=exponential"))

    k_box = page.get_by_role("textbox", name="k (cut-off)")
    k_box.fill("3")
    k_box.press("Enter")
    expected = format_number(ndcg([3, 2, 3, 0, 1, 2], k=3, gain="exponential"), 3)
    page.wait_for_function(
        "(want) => [...document.querySelectorAll('h3')].some(h => h.innerText.startsWith(want))",
        arg=f"nDCG@3 = {expected}", timeout=20_000)
    page.wait_for_url(re.compile(r"[?&]k=3(&|$)"))


def test_a_link_to_a_page_is_the_first_request_of_a_fresh_server(page, fresh_app_url):
    # A shared link opened before anyone visited the app must still run app.py (state, settings
    # from the link, top navigation): Streamlit's legacy pages/ mode would run the page alone.
    page.goto(f"{fresh_app_url}/one_ranking?rels=3,2,3,0,1,2&gain=exponential")
    wait_until_idle(page)
    no_error_text(page)
    assert page.get_by_role("textbox", name="Grades in ranked order").input_value() == "3,2,3,0,1,2"
    assert _result_text(page) == f"nDCG@6 = {format_number(ndcg([3, 2, 3, 0, 1, 2], gain='exponential'), 3)}"
    assert page.get_by_test_id("stSidebarNav").count() == 0
