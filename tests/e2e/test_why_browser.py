"""Real-browser test of the "Why tools disagree" page: the sample run and an uploaded run, the
summary and reasons as the package computes them, each reason linking to its worked example page
(the link followed), and the table's cells as drawn (the grid is a canvas: its fillText calls are
recorded). Screenshots go to /tmp for a look."""

from __future__ import annotations

import pytest

from conftest import CHROMIUM, no_error_text, type_into, wait_until_idle  # noqa: F401
from rankviz.conventions import CONVENTIONS
from rankviz.data import SAMPLE_QRELS, SAMPLE_RUNS
from rankviz.evaluation.tools import disagreement

pytestmark = pytest.mark.e2e

RECORD_CANVAS_TEXT = """(() => {
  window.__drawn = [];
  const fill = CanvasRenderingContext2D.prototype.fillText;
  CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
    window.__drawn.push(String(text));
    return fill.call(this, text, ...rest);
  };
})();"""

# Two queries: q1's relevant a and irrelevant b tie (trec_eval puts b first, by docno descending);
# q2's relevant y is never retrieved (the judgments' ideal ranking holds it, the run's does not).
QRELS = "q1 0 a 1\nq1 0 b 0\nq2 0 x 1\nq2 0 y 2\n"
RUN = "q1 Q0 a 1 2.0 T\nq1 Q0 b 2 2.0 T\nq1 Q0 c 3 1.0 T\nq2 Q0 x 1 5.0 T\nq2 Q0 w 2 4.0 T\n"


def _drawn(tab) -> set[str]:
    return set(tab.evaluate("() => { const t = window.__drawn; window.__drawn = []; return t; }"))


def test_the_sample_then_an_uploaded_run_with_reasons_linked_to_their_examples(browser, app_url, tmp_path):
    context = browser.new_context(viewport={"width": 1280, "height": 2400})
    tab = context.new_page()
    tab.set_default_timeout(20_000)
    tab.add_init_script(RECORD_CANVAS_TEXT)
    tab.goto(f"{app_url}/why")
    wait_until_idle(tab)
    no_error_text(tab)
    expected = disagreement(SAMPLE_QRELS, SAMPLE_RUNS["bm25_rounded"], "nDCG@10", a="trec_eval", b="sklearn")
    main = tab.get_by_test_id("stMain")
    assert expected.attrs["summary"] in main.inner_text()
    differ = expected[expected["conventions"].map(len) > 0]
    drawn = _drawn(tab)
    assert set(differ["query"].iloc[:5]) <= drawn, sorted(drawn)  # the rows in view
    assert f"{differ['b'].iloc[0]:.4f}" in drawn
    main.screenshot(path="/tmp/why_sample.png")

    qrels, run = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels.write_text(QRELS)
    run.write_text(RUN)
    tab.get_by_text("Upload files").first.click()
    wait_until_idle(tab)
    inputs = tab.locator("[data-testid='stFileUploaderDropzoneInput']")
    inputs.nth(0).set_input_files(str(qrels))
    wait_until_idle(tab)
    inputs.nth(1).set_input_files(str(run))
    tab.wait_for_timeout(500)
    wait_until_idle(tab)
    no_error_text(tab)
    text = main.inner_text()
    assert "2 of 2 queries differ: tie order 1, IDCG and R from the run 1" in text, text[:1500]
    assert "`run.txt` against `qrels.txt`" in text or "run.txt against qrels.txt" in text
    for c in ("ties", "ideal_from"):
        assert CONVENTIONS[c].description in text
    main.screenshot(path="/tmp/why_upload.png")
    # A mistyped measure: its error, and the last table of these same files, said so.
    type_into(tab, "Measure", "nDCG@x")
    assert tab.get_by_test_id("stAlertContentError").count() == 1
    assert "the last valid choice (nDCG@10" in main.inner_text()
    type_into(tab, "Measure", "nDCG@10")
    # The tie order's worked example: the Ties page.
    tab.get_by_role("link", name="Worked example: Ties").click()
    tab.wait_for_url("**/ties")
    wait_until_idle(tab)
    no_error_text(tab)
    assert "A small example" in tab.get_by_test_id("stMain").inner_text()
    context.close()
