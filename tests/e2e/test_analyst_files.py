"""Real-browser tests of what an analyst sees with their own files (issue 20, items 9 and 11):
after a bad upload no numbers of other files; runs named by their tags and numbers written as
the command line writes them; the Distribution chart's toolbar clear of its picker; a notebook
comparison's sentence readable.

The run-files grids draw on a canvas whose accessible twin holds the raw values, not what is
drawn: the tests record every ``fillText`` of the page (an init script), so they read exactly the
text a user sees in the grid.
"""

from __future__ import annotations

import re

import pytest

from conftest import CHROMIUM, no_error_text, wait_until_idle  # noqa: F401  (CHROMIUM: the launch fixture's)
from rankviz.cli import main

pytestmark = pytest.mark.e2e

RECORD_CANVAS_TEXT = """(() => {
  window.__drawn = [];
  const fill = CanvasRenderingContext2D.prototype.fillText;
  CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
    window.__drawn.push(String(text));
    return fill.call(this, text, ...rest);
  };
})();"""

# An analyst's own collection: three queries; both runs put a relevant document at rank 1 on every
# query (RR = 1 each: a column of whole numbers) and differ below. File names are not the tags.
QRELS = "q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\nq2 0 d4 1\nq2 0 d5 1\nq3 0 d7 3\nq3 0 d8 0\nq3 0 d9 1\n"
RUN_A = ("q1 Q0 d1 1 3.0 sysA\nq1 Q0 d2 2 2.0 sysA\nq1 Q0 d3 3 1.0 sysA\n"
         "q2 Q0 d5 1 5.0 sysA\nq2 Q0 d6 2 4.0 sysA\nq3 Q0 d7 1 2.0 sysA\nq3 Q0 d8 2 1.0 sysA\n")
RUN_B = ("q1 Q0 d3 1 3.0 sysB\nq1 Q0 d2 2 2.0 sysB\nq1 Q0 d1 3 1.0 sysB\nq2 Q0 d4 1 5.0 sysB\n"
         "q2 Q0 d5 2 4.0 sysB\nq3 Q0 d9 1 2.0 sysB\nq3 Q0 d8 2 1.5 sysB\nq3 Q0 d7 3 1.0 sysB\n")


@pytest.fixture
def own_files(tmp_path):
    files = {"qrels": tmp_path / "qrels.txt", "a": tmp_path / "run_sysA.txt", "b": tmp_path / "run_sysB.txt"}
    for key, text in (("qrels", QRELS), ("a", RUN_A), ("b", RUN_B)):
        files[key].write_text(text)
    return files


def _open_uploads(tab, app_url):
    tab.add_init_script(RECORD_CANVAS_TEXT)
    tab.goto(f"{app_url}/run_files")
    wait_until_idle(tab)
    tab.get_by_text("Upload files").first.click()
    wait_until_idle(tab)
    return tab.locator("[data-testid='stFileUploaderDropzoneInput']")


def _upload(tab, inputs, qrels, runs=()):
    inputs.nth(0).set_input_files(str(qrels))
    wait_until_idle(tab)
    if runs:
        inputs.nth(1).set_input_files([str(run) for run in runs])
    tab.wait_for_timeout(500)
    wait_until_idle(tab)


def _drawn(tab) -> set[str]:
    """The texts drawn on canvases since the last call (the grids' cells and headers)."""
    texts = tab.evaluate("() => { const t = window.__drawn; window.__drawn = []; return t; }")
    return set(texts)


def _show_tab(tab, name: str) -> None:
    tab.get_by_role("tab", name=name).click()
    tab.wait_for_timeout(300)
    wait_until_idle(tab)
    tab.wait_for_function("() => [...document.querySelectorAll('[data-testid=\"stDataFrame\"], "
                          "[data-testid=\"stVegaLiteChart\"]')].filter(e => e.offsetParent)"
                          ".every(e => e.querySelector('canvas, svg'))", timeout=30_000)
    tab.wait_for_timeout(800)


def test_a_bad_qrels_shows_its_error_and_no_numbers_of_other_files(page, app_url, own_files, tmp_path):
    # A fresh session shows the sample's bm25/dense table; the analyst then uploads a qrels file with
    # a 3-field line and two runs. Before: the error, then "Showing the last files that evaluated
    # without error" and the sample's table under "Qrels qrels.txt", files the analyst never chose.
    bad_qrels = tmp_path / "qrels_bad" / "qrels.txt"
    bad_qrels.parent.mkdir()
    bad_qrels.write_text(QRELS + "q3 0 d9\n")
    page.add_init_script(RECORD_CANVAS_TEXT)
    page.goto(f"{app_url}/run_files")
    wait_until_idle(page)
    assert {"bm25", "dense"} <= _drawn(page)  # the sample's table
    page.get_by_text("Upload files").first.click()
    wait_until_idle(page)
    inputs = page.locator("[data-testid='stFileUploaderDropzoneInput']")
    runs = [own_files["a"], own_files["b"]]
    for qrels in (bad_qrels, own_files["a"]):  # a qrels line of 3 fields; a run put in the qrels slot
        _upload(page, inputs, qrels, runs)
        runs = ()  # uploaded once: they stay
        no_error_text(page)
        error = page.get_by_test_id("stAlertContentError")
        assert error.count() == 1 and re.search(r"(qrels|run_sysA)\.txt line \d", error.inner_text()), \
            error.all_inner_texts()
        main = page.get_by_test_id("stMain").inner_text()
        assert "last files" not in main and "Qrels qrels.txt" not in main and "bm25" not in main
        assert page.locator("[data-testid='stDataFrame']:visible").count() == 0
        assert page.get_by_role("tab", name="Aggregate").count() == 0
    # The same files fixed: their numbers, under their names.
    _upload(page, inputs, own_files["qrels"])
    assert page.get_by_test_id("stAlertContentError").count() == 0
    assert "runs sysA (run_sysA.txt), sysB (run_sysB.txt)" in page.get_by_test_id("stMain").inner_text()


def test_runs_go_by_their_tags_and_numbers_read_as_the_command_line_prints_them(page, app_url, own_files,
                                                                                    capsys):
    inputs = _open_uploads(page, app_url)
    _upload(page, inputs, own_files["qrels"], [own_files["a"], own_files["b"]])
    no_error_text(page)
    drawn = _drawn(page)
    # Run names: the tags, as `rankviz compare` prints them, not the file names.
    assert {"sysA", "sysB"} <= drawn and not {"run_sysA.txt", "run_sysB.txt"} & drawn, sorted(drawn)
    # sysA's mean RR is exactly 1: written 1.0000 beside AP's four decimals, never "1".
    assert "1.0000" in drawn and "1" not in drawn, sorted(drawn)
    # p-values exactly as the command line prints them (before: 6.95e-3 where it printed 0.00695).
    status = main(["compare", str(own_files["qrels"]), str(own_files["a"]), str(own_files["b"]), "-m", "AP",
                   "-m", "nDCG@10", "-m", "P@10", "-m", "RR"])
    assert status == 0
    lines = capsys.readouterr().out.splitlines()
    header = lines.index("Against sysA:") + 1
    columns = lines[header].split()
    cli_p_values = {line.split()[columns.index("p_value")] for line in lines[header + 1:] if line.strip()}
    assert cli_p_values
    _show_tab(page, "Significance")
    drawn = _drawn(page)
    assert cli_p_values <= drawn, (cli_p_values, sorted(drawn))
    assert not any(re.fullmatch(r"\d\.\d+e-\d", text) for text in drawn), sorted(drawn)


def test_the_distribution_charts_toolbar_leaves_its_measure_picker_clear(page, app_url):
    page.goto(f"{app_url}/run_files")
    wait_until_idle(page)
    _show_tab(page, "Distribution")
    chart = page.locator("[data-testid='stVegaLiteChart']:visible").first
    chart.hover()  # the toolbar shows on hover, above the chart's top right corner
    toolbar = page.locator("[data-testid='stElementToolbar']:visible")
    toolbar.first.wait_for()
    boxes, previous = None, []
    for _ in range(20):  # the toolbar slides into place: measure once it stands still
        page.wait_for_timeout(250)
        boxes = [toolbar.nth(i).bounding_box() for i in range(toolbar.count())]
        if boxes == previous:
            break
        previous = boxes
    assert boxes, "no toolbar showed on hover"
    picker = page.locator("[data-testid='stMultiSelect']:visible", has_text="Measures to plot").bounding_box()
    for box in boxes:
        overlap_x = min(box["x"] + box["width"], picker["x"] + picker["width"]) - max(box["x"], picker["x"])
        overlap_y = min(box["y"] + box["height"], picker["y"] + picker["height"]) - max(box["y"], picker["y"])
        assert overlap_x <= 0 or overlap_y <= 0, f"the chart's toolbar {box} covers the picker {picker}"


def test_a_notebook_comparison_reads_its_sentence_on_one_or_two_lines(page):
    # JupyterLab lays tables out centred, at their content's width (its rendered-HTML rules for
    # tables); a caption is as wide as its table, and one of two runs and one measure wrapped the
    # test's sentence one word a line.
    import rankviz
    from rankviz.data import SAMPLE_QRELS, SAMPLE_RUNS

    comparison = rankviz.compare(SAMPLE_QRELS, {"bm25": SAMPLE_RUNS["bm25"], "dense": SAMPLE_RUNS["dense"]}, ["AP"])
    jupyter_tables = ("<style>body { font: 13px sans-serif; } table { border-collapse: collapse; "
                      "table-layout: fixed; margin-left: auto; margin-right: auto; }</style>")
    page.set_viewport_size({"width": 900, "height": 600})
    page.set_content(jupyter_tables + comparison._repr_html_())
    # Lines of each text: the distinct tops of its text's boxes.
    lines = page.evaluate("""() => [...document.querySelectorAll('caption, p')].map(e => {
        const range = document.createRange(); range.selectNodeContents(e);
        return [e.innerText, new Set([...range.getClientRects()].map(r => Math.round(r.top))).size]; })""")
    sentence = [n for text, n in lines if "paired t-test" in text]
    assert sentence and all(n <= 2 for _, n in lines), lines
