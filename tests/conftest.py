"""Shared fixtures.

``conformance_dir``: trec_eval's test data, kept outside the repository in
``../shared/conformance/trec_eval`` (next to the checkout). Tests that need it skip with a clear
message where it is absent, except under CI (``CI=true``), where its absence is a failure: CI must
run the conformance tests.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CONFORMANCE_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "conformance" / "trec_eval"


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

