"""Real-browser fixtures: one `streamlit run app.py` on loopback and one headless Debian Chromium
for the whole session (see ../shared/TESTING.md for why each flag is there).

Where Chromium or Playwright is missing the tests skip with the install command, except under
CI (``CI=true``), where that is a failure: CI must run them.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SCREENSHOTS = ROOT / "docs" / "screenshots"
INSTALL_HINT = ("apt-get install -y chromium && python -m pip install playwright "
                "(never `playwright install`: the tests drive Debian's /usr/bin/chromium)")


def _missing_browser() -> str | None:
    if not (Path(CHROMIUM).is_file() or shutil.which("chromium")):
        return f"{CHROMIUM} not found"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed"
    return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_healthy(url: str, process: subprocess.Popen, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"streamlit exited with code {process.returncode} before answering {url}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.read().strip() == b"ok":
                    return
        except OSError:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"streamlit did not answer {url} within {timeout:.0f} s")


@pytest.fixture(scope="session")
def browser_or_skip():
    missing = _missing_browser()
    if missing:
        message = f"real-browser tests need Chromium and Playwright ({missing}); install with: {INSTALL_HINT}"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message + " -- under CI the browser tests must run, not skip.", pytrace=False)
        pytest.skip(message)


@contextlib.contextmanager
def streamlit_server(log_dir: Path, port: int | None = None):
    """A `streamlit run app.py` on a loopback port (``port``, else a free one); yields its base URL,
    stops it at the end."""
    port = port or free_port()
    command = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
               "--server.address", "127.0.0.1", "--server.port", str(port),
               "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]
    log_path = log_dir / "server.log"
    log = open(log_path, "w")  # noqa: SIM115 (closed below)
    process = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    try:
        try:
            _wait_healthy(f"http://127.0.0.1:{port}/_stcore/health", process)
        except RuntimeError as error:
            log.flush()
            raise RuntimeError(f"{error}\n--- server log ---\n{log_path.read_text()}") from None
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()  # our own Popen, by its pid
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


@pytest.fixture(scope="session")
def app_url(browser_or_skip, tmp_path_factory):
    """Base URL of a `streamlit run app.py` started for this test session, stopped at its end."""
    with streamlit_server(tmp_path_factory.mktemp("streamlit")) as url:
        yield url


@pytest.fixture
def fresh_app_url(browser_or_skip, tmp_path):
    """A server that has served nothing yet: its first request is the test's own."""
    with streamlit_server(tmp_path) as url:
        yield url


@pytest.fixture(scope="session")
def browser(browser_or_skip):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    """A fresh 1280x720 tab (a projector's screen)."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    tab = context.new_page()
    tab.set_default_timeout(20_000)
    yield tab
    context.close()


def wait_until_idle(tab) -> None:
    """Wait until the script run finished and every element is drawn (not just the first paint).

    Streamlit marks its root ``data-test-script-state="notRunning"`` after a run (``initial``
    before the first); grids and charts then load lazily behind ``stSkeleton`` placeholders.
    """
    tab.wait_for_selector('[data-testid="stApp"][data-test-connection-state="CONNECTED"]'
                          '[data-test-script-state="notRunning"]', timeout=30_000)
    tab.wait_for_function("() => document.querySelectorAll('[data-testid=\"stSkeleton\"]').length === 0",
                          timeout=30_000)
    tab.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=30_000)
    tab.wait_for_timeout(300)


# Drawn: every grid at the view's type (0.875 of the root font, what the page's stale-grid script
# checks before it redraws; grids below the fold draw their canvas only when scrolled to), and every
# chart shown (not in a closed tab or expander) its canvas or svg.
_DRAWN_JS = """
() => {
  const root = parseFloat(getComputedStyle(document.documentElement).fontSize);
  const typed = [...document.querySelectorAll('[data-testid="stDataFrame"] [style*="--gdg-base-font-style"]')];
  const charts = [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')];
  return typed.every((grid) => Math.abs(parseFloat(grid.style.getPropertyValue('--gdg-base-font-style').trim()
                                        .split(' ').pop()) - 0.875 * root) <= 0.5)
    && charts.every((chart) => chart.offsetParent === null || chart.querySelector('canvas, svg'));
}
"""


def open_drawn(tab, url: str) -> None:
    """Open ``url`` and wait until the script ran and its grids and charts are drawn at the view's type
    (a grid mounted before the projector's type is redrawn by the page, which starts a second run)."""
    tab.goto(url)
    wait_until_idle(tab)
    tab.get_by_test_id("stMain").wait_for(timeout=60_000)
    tab.wait_for_function(_DRAWN_JS, timeout=30_000)
    wait_until_idle(tab)


def type_into(tab, label: str, text: str) -> None:
    """Fill the text box named ``label``, press Enter and wait for the rerun it starts."""
    box = tab.get_by_role("textbox", name=label)
    box.fill(text)
    box.press("Enter")
    tab.wait_for_timeout(300)
    wait_until_idle(tab)


def no_error_text(tab) -> None:
    """Fail if Streamlit shows an exception box or a traceback anywhere on the page."""
    assert tab.get_by_test_id("stException").count() == 0, tab.get_by_test_id("stException").first.inner_text()
    body = tab.locator("body").inner_text()
    assert "Traceback" not in body, body[:2000]


def edit_grade_in_grid(tab, rank: int, grade: int) -> None:
    """Type ``grade`` into the grade cell of ``rank`` in the page's first grid, press Enter and
    wait for the rerun (see ../shared/TESTING.md for the waits: without them edits were lost)."""
    grid = tab.get_by_test_id("stDataFrame").first
    previous = None
    for _ in range(20):  # wait until the grid stops moving (fonts, columns settling)
        box = grid.bounding_box()
        if box == previous:
            break
        previous = box
        tab.wait_for_timeout(150)
    tab.wait_for_timeout(200)
    row_height = 35  # px at the default 16 px root font; the header row comes first
    grid.click(position={"x": box["width"] - 40, "y": row_height * rank + row_height / 2})  # grade: last column
    tab.wait_for_timeout(200)
    tab.keyboard.type(str(grade))
    editor = tab.locator("input.gdg-input")  # the grid's overlay editor, pre-filled by typing
    editor.wait_for()
    assert editor.input_value() == str(grade)
    tab.keyboard.press("Enter")
    tab.wait_for_timeout(500)
    wait_until_idle(tab)
