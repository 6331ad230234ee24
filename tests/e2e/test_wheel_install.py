"""The app as a user installs it: build the wheel, check what it holds, install it with the [app]
extra into a fresh venv outside the checkout, start ``rankviz app`` from an empty folder and open
a page in Chromium; and ``pip install -e .`` runs the checkout's own files.

What this proves that the other browser tests (which run ``app.py`` from the checkout) cannot: the
top-level ``app.py``, ``app_pages/`` and ``.streamlit/config.toml`` are in the wheel as
``rankviz/ui/app/`` (pyproject.toml's package-dir), unchanged, with no top-level ``app`` or
``app_pages`` module beside rankviz; the ``rankviz`` console script and its ``app`` command work;
nothing the app needs is read from the checkout; the app's Streamlit settings apply wherever it
is started.

Lean on purpose: the venvs are made with ``--system-site-packages`` and without pip (the
interpreter's own pip installs into them), so streamlit, altair, pandas... are those already
installed, and ``pip install --no-index "rankviz-*.whl[app]"`` checks that the extra's
requirements resolve without downloading anything. Only the builds fetch setuptools (build
isolation). About 15 s.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import _wait_healthy, free_port, no_error_text, wait_until_idle

from rankviz.metrics import ndcg
from rankviz.formatting import format_number

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
APP_IN_WHEEL = "rankviz/ui/app"
PAGE_STEM, PAGE_TITLE = "graded", "Graded relevance"
RELS = [3, 2, 3, 0, 1, 2]


def _run(command: list, **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run([str(part) for part in command], capture_output=True, text=True, timeout=180,
                            check=False, env=_clean_env(), **kwargs)
    assert result.returncode == 0, f"{' '.join(map(str, command))} failed:\n{result.stdout}\n{result.stderr}"
    return result


def _clean_env() -> dict:
    """The environment without anything that would put the checkout on a venv's path."""
    return {key: value for key, value in os.environ.items()
            if key not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSAFEPATH", "VIRTUAL_ENV")}


def _copy_sources(target: Path) -> Path:
    """The files a build reads: the top level's files, rankviz/, app_pages/ and .streamlit/.

    A copy, because an in-tree build leaves build/ and *.egg-info behind, whose stale files (a page
    since deleted) would end up in the next wheel. Every top-level file is copied, so a stray
    ``.py`` there would show up in the wheel as it would in a release.
    """
    target.mkdir()
    for path in ROOT.iterdir():
        if path.is_file():
            shutil.copy2(path, target / path.name)
    for name in ("rankviz", "app_pages", ".streamlit"):
        shutil.copytree(ROOT / name, target / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info"))
    return target


def _venv(folder: Path) -> Path:
    _run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", folder])
    return folder / "bin" / "python"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel ``pip wheel`` builds from a copy of the checkout."""
    work = tmp_path_factory.mktemp("wheel")
    source = _copy_sources(work / "source")
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", work / "wheels", source], cwd=work)
    (built,) = (work / "wheels").glob("rankviz-*.whl")
    return built


def test_the_wheel_holds_the_app_unchanged_under_rankviz(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        assert {name.split("/")[0] for name in names} == {"rankviz", wheel.name.split("-py3")[0] + ".dist-info"}, \
            "the wheel installs something beside the rankviz package (a top-level app or app_pages?)"
        package = {path.relative_to(ROOT).as_posix() for path in (ROOT / "rankviz").rglob("*.py")}
        app = {f"{APP_IN_WHEEL}/{path.relative_to(ROOT).as_posix()}": path
               for path in (ROOT / "app.py", *(ROOT / "app_pages").glob("*.py"), ROOT / ".streamlit" / "config.toml")}
        assert {name for name in names if name.endswith(".py")} == package | {name for name in app if name.endswith(".py")}
        for name, source in app.items():
            assert archive.read(name) == source.read_bytes(), f"{name} differs from {source.relative_to(ROOT)}"
        samples = {path.relative_to(ROOT).as_posix() for path in (ROOT / "rankviz" / "data" / "sample").iterdir()}
        assert samples <= names


@pytest.fixture(scope="module")
def installed_venv(wheel, browser_or_skip, tmp_path_factory) -> Path:
    """A venv outside the checkout with the wheel installed (``rankviz[app]``)."""
    work = tmp_path_factory.mktemp("installed")
    python = _venv(work / "venv")
    # The venv sees the interpreter's pip through --system-site-packages and installs into itself.
    _run([python, "-m", "pip", "install", "--no-index", "--quiet", f"{wheel}[app]"], cwd=work)
    where = _run([python, "-c", "import rankviz.app_launch as a; print(a.__file__); print(a.app_script())"], cwd=work)
    module, script = where.stdout.split()
    assert Path(module).is_relative_to(work / "venv"), f"rankviz imported from {module}, not the venv"
    assert Path(script).as_posix().endswith(f"site-packages/{APP_IN_WHEEL}/app.py"), script
    return work / "venv"


def test_rankviz_app_from_the_installed_wheel(installed_venv, tmp_path, page):
    rankviz = installed_venv / "bin" / "rankviz"
    assert rankviz.is_file(), "the wheel installed no `rankviz` console script"
    port = free_port()
    log_path = tmp_path / "server.log"
    with open(log_path, "w") as log:
        process = subprocess.Popen(
            [str(rankviz), "app", "--port", str(port), "--server.headless", "true", "--server.address", "127.0.0.1",
             "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
            cwd=tmp_path, env=_clean_env(), stdout=log, stderr=subprocess.STDOUT)  # an empty folder, not the checkout
        try:
            try:
                _wait_healthy(f"http://127.0.0.1:{port}/_stcore/health", process)
            except RuntimeError as error:
                log.flush()
                raise AssertionError(f"{error}\n--- server log ---\n{log_path.read_text()}") from None
            base = f"http://127.0.0.1:{port}"
            page.goto(f"{base}/{PAGE_STEM}?rels={','.join(map(str, RELS))}")  # a shared link: the URL is the page file's stem
            wait_until_idle(page)
            no_error_text(page)
            assert page.get_by_text(PAGE_TITLE, exact=True).first.is_visible()
            expected = format_number(ndcg(RELS), 3)  # computed here, by the checkout's rankviz
            assert f"nDCG@6 = {expected}" in page.locator("body").inner_text()
            # Links between pages (st.page_link, st.switch_page) with the installed files' paths.
            page.get_by_test_id("stTopNav").get_by_role("link", name="Home", exact=True).click()
            wait_until_idle(page)
            # The app's .streamlit/config.toml applies from an empty folder: its primary colour
            # (Okabe-Ito blue #0072B2), not Streamlit's red, on the home page's primary button.
            open_button = page.get_by_role("button", name=re.compile("Open it on"))
            assert open_button.evaluate("b => getComputedStyle(b).backgroundColor") == "rgb(0, 114, 178)"
            page.get_by_test_id("stMainBlockContainer").get_by_role("link", name="Precision and recall").click()
            page.wait_for_url(re.compile(r"/precision_recall(\?|$)"))
            wait_until_idle(page)
            no_error_text(page)
            page.get_by_test_id("stTopNav").get_by_role("link", name="Home", exact=True).click()
            wait_until_idle(page)
            open_button.click()  # the lecture's nDCG exercise, on the graded page (st.switch_page)
            page.wait_for_url(re.compile(rf"/{PAGE_STEM}(\?|$)"))
            wait_until_idle(page)
            no_error_text(page)
        finally:
            process.terminate()  # `rankviz app` execs streamlit: this pid is the server's
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
    assert "Traceback" not in log_path.read_text(), log_path.read_text()


def test_the_command_line_from_the_installed_wheel_in_any_folder(installed_venv, tmp_path):
    # The README's command-line section says: install first (`python -m pip install .`), then
    # `python -m rankviz` works outside the clone (issue 20: it failed there). An empty folder here.
    (tmp_path / "qrels.txt").write_text("q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 2\n")
    (tmp_path / "run_sysA.txt").write_text("q1 Q0 d2 1 2.0 sysA\nq1 Q0 d1 2 1.0 sysA\nq2 Q0 d3 1 1.0 sysA\n")
    for command in ([installed_venv / "bin" / "python", "-m", "rankviz"], [installed_venv / "bin" / "rankviz"]):
        result = _run([*command, "eval", "-m", "map", "-m", "ndcg_cut.10", "qrels.txt", "run_sysA.txt"], cwd=tmp_path)
        # AP: q1 (1/2) / 1 = 0.5, q2 1; mean 0.75. nDCG@10: q1 (1/log2 3) / 1 = 0.6309, q2 1; mean 0.8155.
        assert result.stdout == "map                   \tall\t0.7500\nndcg_cut_10           \tall\t0.8155\n"


def test_an_editable_install_runs_the_checkouts_own_files(tmp_path):
    source = _copy_sources(tmp_path / "source")
    python = _venv(tmp_path / "venv")
    _run([python, "-m", "pip", "install", "--no-deps", "--quiet", "-e", source], cwd=tmp_path)
    probe = ("import rankviz.app_launch as a, importlib.util as u; print(a.__file__); print(a.app_script()); "
             "print(u.find_spec('app_pages'), u.find_spec('app'))")
    where = _run([python, "-c", probe], cwd=tmp_path)
    module, script, *top_level = where.stdout.split()
    assert Path(module) == source / "rankviz" / "app_launch.py"
    assert Path(script) == source / "app.py"
    assert top_level == ["None", "None"], "an editable install must not make app or app_pages importable"
