"""Time an edit of the ranking as a student sees it: in Chromium, from pressing Enter in the
"Grades in ranked order" box until the page has finished re-rendering (issue 4: "an edit on a
100-row ranking re-renders in well under a second").

    python benchmarks/app_browser.py [--edits 10] [--rows 100] [--pages graded precision_recall ...]

Starts ``streamlit run app.py`` on a free port (as the browser tests do), opens each page with a
``--rows``-row ranking from its link (``?rels=...``), waits until it is idle, then ``--edits``
times changes one grade in the box and presses Enter. The clock stops when Streamlit has run the
script (the app root went through ``running`` back to ``notRunning``), no element is stale or
still a loading skeleton, the status widget is gone, and the browser has painted two more
frames. Prints a Markdown table: median and slowest edit per page. Needs Chromium at
/usr/bin/chromium and playwright (requirements-dev.txt).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPOSITORY / "tests" / "e2e"))

from conftest import CHROMIUM_ARGS, streamlit_server, wait_until_idle  # noqa: E402

PAGES = ("one_ranking", "precision_recall", "graded")
BUDGET_S = 1.0

# Installed before each edit: records that a script run started, so that "notRunning" afterwards
# means the edit's run finished (not the idle state before it began).
WATCH_RUN = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  window.__rankvizRunSeen = false;
  if (window.__rankvizObserver) window.__rankvizObserver.disconnect();
  // Any change of the attribute means a run started (it may have ended again before this
  // callback runs, so the current value is not checked).
  window.__rankvizObserver = new MutationObserver(() => { window.__rankvizRunSeen = true; });
  window.__rankvizObserver.observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
}"""

RENDERED = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  return window.__rankvizRunSeen
    && app.getAttribute('data-test-script-state') === 'notRunning'
    && !document.querySelector('[data-testid="stStatusWidget"]')
    && document.querySelectorAll('[data-testid="stSkeleton"]').length === 0
    && document.querySelectorAll('[data-stale="true"]').length === 0;
}"""

DIAGNOSE = """() => ({
  runSeen: window.__rankvizRunSeen,
  scriptState: document.querySelector('[data-testid="stApp"]').getAttribute('data-test-script-state'),
  statusWidget: !!document.querySelector('[data-testid="stStatusWidget"]'),
  skeletons: document.querySelectorAll('[data-testid="stSkeleton"]').length,
  stale: document.querySelectorAll('[data-stale="true"]').length,
})"""

TWO_FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"


def ranking(rows: int, edit: int) -> list[int]:
    """A fixed ``rows``-long ranking of grades 0-3; edit ``i`` changes the grade at rank 1 + i % rows."""
    grades = [(7 * i + 3) % 4 for i in range(rows)]
    position = edit % rows
    grades[position] = (grades[position] + 1 + edit // rows) % 4
    return grades


def time_page(tab, base_url: str, page: str, rows: int, edits: int) -> list[float]:
    tab.goto(f"{base_url}/{page}?rels={','.join(map(str, ranking(rows, -1)))}")
    wait_until_idle(tab)
    box = tab.get_by_role("textbox", name="Grades in ranked order").first
    seconds = []
    for edit in range(edits):
        box.fill(",".join(map(str, ranking(rows, edit))))
        tab.evaluate(WATCH_RUN)
        start = time.perf_counter()
        box.press("Enter")
        try:
            tab.wait_for_function(RENDERED, timeout=15_000, polling="raf")
        except Exception:
            state = tab.evaluate(DIAGNOSE)
            raise RuntimeError(f"{page}, edit {edit}: the page did not settle within 15 s ({state})") from None
        tab.evaluate(TWO_FRAMES)
        seconds.append(time.perf_counter() - start)
        tab.wait_for_timeout(200)  # let the address-bar write and any late message settle
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", type=int, default=10)
    parser.add_argument("--rows", type=int, default=100)
    parser.add_argument("--pages", nargs="+", default=list(PAGES), choices=PAGES)
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    results = {}
    with streamlit_server(Path("/tmp")) as base_url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        tab = browser.new_page(viewport={"width": 1440, "height": 900})
        time_page(tab, base_url, args.pages[0], args.rows, 2)  # warm-up: first runs fill the caches
        for page in args.pages:
            print(f"timing {page} ...", file=sys.stderr)
            results[page] = time_page(tab, base_url, page, args.rows, args.edits)
        browser.close()

    print(f"| page ({args.rows}-row ranking, {args.edits} edits) | median s | slowest s | under {BUDGET_S:g} s |")
    print("|---|---:|---:|---|")
    for page, seconds in results.items():
        median = statistics.median(seconds)
        print(f"| {page} | {median:.2f} | {max(seconds):.2f} | {'yes' if max(seconds) < BUDGET_S else 'no'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
