"""The README's two set-up commands are the ones CI and users run: keep them honest."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEST_COMMAND = "python -m pip install -r requirements-dev.txt && python -m pytest"
APP_COMMAND = "python -m pip install -r requirements.txt && python -m streamlit run app.py"


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return [line.strip() for block in re.findall(r"```(?:bash|sh)\n(.*?)```", text, flags=re.S)
            for line in block.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def test_readme_gives_the_test_command_that_ci_runs():
    assert TEST_COMMAND in _readme_commands()
    ci_lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()
                if line.strip() and not line.lstrip().startswith("#")]
    assert ci_lines[-1] == TEST_COMMAND, "the last command of .ci/run must be the README's test command"


def test_readme_gives_the_app_command():
    assert APP_COMMAND in _readme_commands()
    assert (ROOT / "app.py").is_file()


def test_requirements_pin_every_runtime_dependency():
    pins = dict(line.split("==") for line in (ROOT / "requirements.txt").read_text().splitlines()
                if "==" in line and not line.startswith("#"))
    assert {"streamlit", "altair", "pandas", "numpy"} <= set(pins)
