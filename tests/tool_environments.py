"""Reference tools that cannot share rankviz's environment (TF-Ranking and RecBole need numpy < 2): finding
their Python and running a script of tests/tool_runners/ in it (a helper of the test modules, not a test file;
its own module so that every test directory's conftest leaves the name alone)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest


def tool_python(module: str, default: str, variable: str, install: str) -> str:
    """The Python of a reference tool that cannot share rankviz's environment (TF-Ranking and RecBole
    need numpy < 2), made by ``.ci/run`` at ``default`` (``variable`` names another): its path, or a skip
    saying how to make it, except under CI (``CI=true``), where its absence is a failure."""
    python = os.environ.get(variable, default)
    quiet = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3", "CUDA_VISIBLE_DEVICES": ""}
    if Path(python).exists() and subprocess.run([python, "-c", f"import {module}"], capture_output=True,
                                                 env=quiet).returncode == 0:
        return python
    message = f"no Python with {module} at {python} (make it: {install}; {variable} chooses another)"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message + " (CI=true: .ci/run makes it and these tests must run)")
    pytest.skip(message)


def run_tool(python: str, script: str, request: dict) -> dict:
    """Run ``tests/tool_runners/<script>`` in ``python`` with ``request`` as JSON on stdin; its JSON answer."""
    quiet = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3", "CUDA_VISIBLE_DEVICES": ""}
    done = subprocess.run([python, str(Path(__file__).parent / "tool_runners" / script)], input=json.dumps(request),
                          capture_output=True, text=True, env=quiet, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])
