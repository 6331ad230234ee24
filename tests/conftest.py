"""Shared fixtures.

``main_module_restored`` (every test): Streamlit's AppTest runs a page as the module
``__main__`` and leaves it in ``sys.modules``; a Dask LocalCluster started later in the same
process spawns workers that import ``__main__`` again, i.e. run ``app.py`` in bare mode, and
their Streamlit warnings reach the terminal (two CLI tests of Dask's quiet logs failed so, only
after app tests had run).

``conformance_dir``: trec_eval's test data, kept outside the repository in
``../shared/conformance/trec_eval`` (next to the checkout). Tests that need it skip with a clear
message where it is absent, except under CI (``CI=true``), where its absence is a failure: CI must
run the conformance tests.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

CONFORMANCE_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "conformance" / "trec_eval"


# Scripts other Pythons run (TF-Ranking's own environment): not rankviz's tests, nor importable here.
collect_ignore = ["tool_runners"]

@pytest.fixture(scope="session")
def conformance_dir() -> Path:
    """The folder holding trec_eval's qrels/results/out.* files (see its README.md)."""
    if not (CONFORMANCE_DIR / "qrels.test").is_file():
        message = (
            f"trec_eval conformance data not found at {CONFORMANCE_DIR}: put trec_eval's test/ data "
            f"(qrels.*, results.*, out.*) there to run these tests"
        )
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message + " (CI=true: conformance tests must run in CI)")
        pytest.skip(message)
    return CONFORMANCE_DIR


@pytest.fixture(scope="session")
def pytrec_eval():
    """pytrec_eval (pytrec-eval-terrier, a dev-only reference that wraps trec_eval 9's C code).

    Its differential tests skip where it is not installed, except under CI (``CI=true``), where
    requirements-dev.txt installs it and its absence is a failure, not a silent skip.
    """
    try:
        import pytrec_eval as module
    except ImportError as error:
        message = f"pytrec_eval is not installed ({error}); install requirements-dev.txt to run these tests"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message + " (CI=true: the differential tests must run in CI)")
        pytest.skip(message)
    return module



@pytest.fixture(scope="session")
def dask_client():
    """A dask.distributed Client on a LocalCluster of 2 worker processes (1 thread each), shared
    by every Dask-engine test of the session: the engines are tested on real workers, with
    pickling and inter-process transfers, not on the synchronous scheduler.

    dask and distributed are dev dependencies (requirements-dev.txt), so a missing install is an
    error here, never a skip.
    """
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                      memory_limit="1GiB") as cluster, Client(cluster) as client:
        yield client


@pytest.fixture(autouse=True)
def main_module_restored():
    """``sys.modules["__main__"]`` as it was before the test (see the module docstring)."""
    main = sys.modules["__main__"]
    yield
    sys.modules["__main__"] = main


@pytest.fixture(autouse=True)
def english_after_each_test():
    """The test thread speaks English again after a test that chose a language (rankviz.i18n.use
    lasts for the thread: tests/app/app_helpers.open_app sets the link's language)."""
    yield
    from rankviz.i18n import use

    use("en")
