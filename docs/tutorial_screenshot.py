"""Screenshots of docs/tutorial.ipynb as JupyterLab shows it, run cell by cell in a live kernel.

Not a test and not run by CI (JupyterLab is no dependency of rankviz): it makes the pictures in
docs/screenshots/tutorial_*.png for a person to look at. Needs JupyterLab and Debian's Chromium::

    python -m pip install jupyterlab && python docs/tutorial_screenshot.py

It starts ``jupyter lab`` on a free loopback port without a browser or token, in a temporary copy
of the notebook's folder (so the run leaves no outputs in docs/tutorial.ipynb), with the checkout
on PYTHONPATH for the kernel; opens the notebook in headless Chromium, runs every cell
(``notebook:run-all-cells``), waits until the kernel is idle and every cell has run, and saves a
screenshot of each section named in SECTIONS; then stops the server it started.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "docs" / "tutorial.ipynb"
OUT = ROOT / "docs" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
# file name -> the heading the screenshot starts at
SECTIONS = {
    "tutorial_ndcg.png": "1. CG, DCG and NDCG: the class exercise",
    "tutorial_gmap.png": "6. GMAP against MAP: two runs over five topics",
}
VIEWPORT = {"width": 1280, "height": 1800}
KERNEL_STATUS = "document.querySelector('.jp-Notebook-ExecutionIndicator')?.dataset.status"
# Scroll the markdown cell that starts with "## <heading>" to the top (JupyterLab draws only the cells
# near the view, so the heading may not be in the DOM yet).
SCROLL_TO_HEADING = """async (heading) => {
    const notebook = window.jupyterapp.shell.currentWidget.content;
    const index = [...notebook.model.cells].findIndex(cell => cell.sharedModel.getSource().startsWith('## ' + heading));
    if (index < 0) throw new Error('no cell starts with ## ' + heading);
    await notebook.scrollToItem(index, 'start');
}"""
# Every code cell of the open notebook has an execution count (JupyterLab's own model, not the DOM,
# which holds only the cells near the view).
ALL_CODE_CELLS_RAN = ("[...window.jupyterapp.shell.currentWidget.content.model.cells]"
                      ".filter(cell => cell.type === 'code').every(cell => cell.executionCount)")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(url: str, process: subprocess.Popen, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"jupyter lab exited with code {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.5)
    raise RuntimeError(f"jupyter lab did not answer {url} within {timeout:.0f} s")


def main() -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        shutil.copy2(NOTEBOOK, Path(folder) / NOTEBOOK.name)
        port = free_port()
        environment = dict(os.environ, PYTHONPATH=str(ROOT))
        server = subprocess.Popen(
            [sys.executable, "-m", "jupyterlab", "--no-browser", "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}",
             "--IdentityProvider.token=", "--ServerApp.password=", f"--ServerApp.root_dir={folder}",
             "--LabApp.expose_app_in_browser=True", "--ServerApp.allow_root=True"],
            env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            base = f"http://127.0.0.1:{port}"
            wait_for(f"{base}/api/status", server)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM,
                                                     args=["--headless", "--no-sandbox", "--disable-gpu"])
                page = browser.new_page(viewport=VIEWPORT)
                page.goto(f"{base}/lab/tree/{NOTEBOOK.name}")
                page.wait_for_function("() => window.jupyterapp && document.querySelector('.jp-Notebook')",
                                       timeout=60_000)
                page.wait_for_timeout(3000)
                select = page.locator(".jp-Dialog").get_by_role("button", name="Select", exact=True)
                if select.count():  # "Select Kernel": the notebook's own, python3
                    select.click()
                page.wait_for_function(f"() => {KERNEL_STATUS} === 'idle'", timeout=60_000)  # the kernel started
                page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
                page.wait_for_function(f"() => {KERNEL_STATUS} === 'idle' && {ALL_CODE_CELLS_RAN}", timeout=180_000)
                news = page.get_by_role("button", name="No", exact=True)  # "get notified about Jupyter news?"
                if news.count():
                    news.first.click()
                for name, heading in SECTIONS.items():
                    page.evaluate(SCROLL_TO_HEADING, heading)
                    page.wait_for_timeout(3000)  # MathJax typesetting and the Vega charts of the cells now in view
                    page.screenshot(path=str(OUT / name))
                    print("saved", OUT / name)
                browser.close()
        finally:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()


if __name__ == "__main__":
    main()
