"""Real-browser tests of the many-queries, behaviour-explorer and AUC/user-measures pages: each
opens at 1280x720 with its key number visible and no sideways scrolling, is screenshotted for
docs/screenshots/, and a click on a query in the many-queries chart opens that query.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import SCREENSHOTS, no_error_text, wait_until_idle
from rankviz.formatting import format_number
import warnings

from rankviz.teaching.explore import DEFAULT_SWEEP_METRICS, metric_agreement, random_rankings, score_rankings
from rankviz.metrics import average_precision, gauc, mean_average_precision
from rankviz.teaching.presets import get_preset
from rankviz.ui.pages import page_for
from rankviz.ui.user_inputs import DEFAULT_CLICK_LOG

pytestmark = pytest.mark.e2e

TALL = {"width": 1280, "height": 3200}
Q1, Q2 = get_preset("q1_binary").rels, get_preset("q2_binary").rels


def _default_tau() -> str:
    """The explorer's default: Kendall's tau of AP@10 and nDCG@10 over 200 random rankings, seed 42."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        scores = score_rankings(random_rankings(200, 10, seed=42, grades=(0, 1)), DEFAULT_SWEEP_METRICS,
                                n_relevant="most")
        return format_number(metric_agreement(scores, ["AP@10", "nDCG@10"]).loc["AP@10", "nDCG@10"], 3)


def _key_numbers() -> dict:
    """Per page: a number the page must show, computed by the package."""
    log = DEFAULT_CLICK_LOG
    return {
        "app_pages/many_queries.py": format_number(mean_average_precision(
            [average_precision(Q1, n_relevant=10), average_precision(Q2, n_relevant=3)]), 3),
        "app_pages/explorer.py": _default_tau(),
        "app_pages/user_measures.py": format_number(float(gauc(log["label"], log["score"], log["group"])), 3),
    }


def _open(tab, app_url, path: str, query: str = "") -> None:
    tab.goto(f"{app_url}/{Path(path).stem}{query}")
    wait_until_idle(tab)
    # Charts render after the script run: wait for their canvases or SVGs.
    wait_for_charts(tab)


def wait_for_charts(tab) -> None:
    """Charts and grids draw after the script run, slowly on a busy machine: wait until each holds its canvas."""
    tab.wait_for_function("() => [...document.querySelectorAll('[data-testid=\"stVegaLiteChart\"], "
                          "[data-testid=\"stDataFrame\"]')].every(c => c.querySelector('canvas, svg'))",
                          timeout=30_000)
    tab.wait_for_timeout(1000)


@pytest.mark.parametrize("path", list(_key_numbers()), ids=lambda p: Path(p).stem)
def test_page_shows_its_key_number_and_is_screenshotted(page, app_url, path):
    stem = Path(path).stem
    _open(page, app_url, path)
    no_error_text(page)
    main = page.get_by_test_id("stMain")
    assert page_for(path).title in main.inner_text()
    assert _key_numbers()[path] in main.inner_text()
    overflow = page.evaluate("() => { const m = document.querySelector('[data-testid=\"stMain\"]');"
                             " return m.scrollWidth - m.clientWidth; }")
    assert overflow <= 1, f"{stem}: the page scrolls sideways by {overflow} px at 1280 px"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{stem}.png"))
    page.set_viewport_size(TALL)
    wait_until_idle(page)
    wait_for_charts(page)
    page.screenshot(path=str(SCREENSHOTS / f"{stem}_full.png"))


def test_clicking_a_query_in_the_chart_opens_its_worked_tables(page, app_url):
    page.set_viewport_size({"width": 1280, "height": 1400})
    _open(page, app_url, "app_pages/many_queries.py")
    heading = page.locator("h3", has_text=re.compile(r"^AP\(q\d\) = ")).first
    heading.wait_for()
    assert heading.inner_text().startswith("AP(q1)")
    # Vega marks carry their datum in aria-label: the AP point of q2.
    mark = page.locator('[data-testid="stVegaLiteChart"] [aria-label*="q2"][aria-label*="AP"]').first
    mark.wait_for(state="attached")
    box = mark.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expected = f"AP(q2) = {format_number(average_precision(Q2, n_relevant=3), 3)}"
    page.wait_for_function("(want) => [...document.querySelectorAll('h3')].some(h => h.innerText.startsWith(want))",
                           arg=expected, timeout=20_000)
    no_error_text(page)


def test_a_shared_explorer_link_restores_the_seed(page, app_url):
    _open(page, app_url, "app_pages/explorer.py", "?ex_seed=7&ex_r=3")
    no_error_text(page)
    assert page.get_by_role("textbox", name="Seed").input_value() == "7"
    assert page.get_by_role("textbox", name="R (relevant)").input_value() == "3"
    # The comparison below the sweep starts from the linked R (compared with R = 3 by default).
    assert "R = 3 → 3: nothing moved" in page.get_by_test_id("stMain").inner_text()
