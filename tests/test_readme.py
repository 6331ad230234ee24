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


def test_the_readmes_shared_link_opens_the_lectures_ndcg_exercise():
    # Issue 20: the link said k=5 and its page showed nDCG@5 = 0.876, not the exercise's 0.949. The
    # link's settings, as the one-ranking page applies them (rels, k, gain), must give the notes' value.
    from urllib.parse import parse_qsl

    from rankviz.metrics import ndcg
    from rankviz.teaching.presets import get_preset

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    query = re.search(r"`http://localhost:8501/one_ranking\?([^`]+)` opens the lecture's\s+nDCG exercise", text)
    assert query, "the README's shared-link example is gone"
    link = dict(parse_qsl(query.group(1)))
    exercise = get_preset("ndcg_exercise")
    assert tuple(int(g) for g in link["rels"].split(",")) == tuple(exercise.rels)
    value = ndcg(exercise.rels, k=int(link["k"]) if "k" in link else None, gain=link.get("gain", "linear"))
    assert round(value, 3) == exercise.printed["ndcg"]


def test_the_command_line_section_says_how_to_install_first():
    # Issue 20: `python -m rankviz` fails outside the clone until the package is installed; the
    # section said nothing. tests/e2e/test_wheel_install.py runs the command from the installed wheel.
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("### Command line", 1)[1].split("\n## ", 1)[0]
    first_block = re.search(r"```(\w+)\n(.*?)```", section, flags=re.S)
    assert first_block.group(1) == "bash" and first_block.group(2).startswith("python -m pip install . ")
    assert section.index("python -m pip install .") < section.index("python -m rankviz eval")
