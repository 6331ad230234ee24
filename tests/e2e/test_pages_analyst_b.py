"""Real-browser tests of the run-files and ties pages: upload the sample files through the file
inputs, see the tables and charts, and save the screenshots in docs/screenshots/ (looked at by hand;
names differ from test_browser.py's <page>.png and <page>_full.png, which show the default view)."""

from __future__ import annotations

import pytest

from conftest import SCREENSHOTS, no_error_text, wait_until_idle
from rankviz.data import SAMPLE_QRELS, SAMPLE_RUNS
from rankviz.evaluation.evaluator import evaluate

pytestmark = pytest.mark.e2e


def _no_sideways_scroll(tab, name):
    overflow = tab.evaluate("() => { const m = document.querySelector('[data-testid=\"stMain\"]');"
                            " return m.scrollWidth - m.clientWidth; }")
    assert overflow <= 1, f"{name}: the page scrolls sideways by {overflow} px at 1280 px"


def _charts_drawn(tab, at_least: int):
    tab.wait_for_function("(n) => document.querySelectorAll('[data-testid=\"stVegaLiteChart\"] canvas, "
                          "[data-testid=\"stVegaLiteChart\"] svg.marks').length >= n", arg=at_least, timeout=20_000)


def test_run_files_upload_tables_charts_and_screenshots(page, app_url):
    page.goto(f"{app_url}/run_files")
    wait_until_idle(page)
    no_error_text(page)
    page.get_by_text("Upload files").first.click()
    wait_until_idle(page)
    inputs = page.locator("[data-testid='stFileUploaderDropzoneInput']")
    inputs.nth(0).set_input_files(str(SAMPLE_QRELS))
    wait_until_idle(page)
    inputs.nth(1).set_input_files([str(SAMPLE_RUNS["bm25"]), str(SAMPLE_RUNS["dense"])])
    page.wait_for_timeout(500)
    wait_until_idle(page)
    no_error_text(page)
    assert page.get_by_test_id("stAlertContentError").count() == 0
    # The grid draws on a canvas; its accessible twin (role=gridcell) carries the cell texts.
    grid = page.get_by_test_id("stDataFrame").first
    grid.wait_for()
    cells = grid.locator("[role='gridcell']").all_inner_texts()
    expected = evaluate(SAMPLE_QRELS, SAMPLE_RUNS["dense"], ["AP"]).mean["AP"]
    numbers = [float(c) for c in cells if c.replace(".", "", 1).isdigit()]
    # dense.run's lines end in the tag "dense": the run goes by it, as on the command line.
    assert "dense" in cells and any(abs(n - expected) < 1e-12 for n in numbers), cells
    _no_sideways_scroll(page, "run_files")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "run_files_upload.png"))

    main = page.get_by_test_id("stMainBlockContainer")
    page.set_viewport_size({"width": 1280, "height": 1400})
    for tab_name, stem, charts in (("Distribution", "run_files_distribution", 1), ("Run vs run", "run_files_delta", 1),
                                   ("Precision-recall", "run_files_pr", 1)):
        page.get_by_role("tab", name=tab_name).click()
        _charts_drawn(page, charts)
        page.wait_for_timeout(600)
        no_error_text(page)
        _no_sideways_scroll(page, stem)
        main.screenshot(path=str(SCREENSHOTS / f"{stem}.png"))
    page.get_by_role("tab", name="Significance").click()
    page.get_by_role("button", name="LaTeX table").wait_for()
    page.wait_for_timeout(600)
    no_error_text(page)
    _no_sideways_scroll(page, "run_files_significance")
    main.screenshot(path=str(SCREENSHOTS / "run_files_significance.png"))


def test_ties_page_example_and_sample_run(page, app_url):
    page.goto(f"{app_url}/ties")
    wait_until_idle(page)
    no_error_text(page)
    _charts_drawn(page, 1)
    body = page.locator("body").inner_text()
    assert "Queries with ties" in body and "20 of 20" in body
    assert page.get_by_test_id("stDataFrame").count() >= 4
    _no_sideways_scroll(page, "ties")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "ties_top.png"))
    page.set_viewport_size({"width": 1280, "height": 3000})
    wait_until_idle(page)
    page.get_by_test_id("stMainBlockContainer").screenshot(path=str(SCREENSHOTS / "ties_whole_page.png"))
