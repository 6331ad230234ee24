"""The suite's own layout: pytest's default import mode ("prepend") imports every test file by its
basename, and ``tests/`` has no ``__init__.py`` files, so two test files with one basename in
different folders stop the whole run at collection ("import file mismatch"). One CI run was lost
to ``tests/test_homework_own.py`` beside ``tests/e2e/test_homework_own.py``."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).parent


def test_every_test_file_has_a_basename_of_its_own():
    by_name: dict[str, list[str]] = defaultdict(list)
    for path in TESTS.rglob("*.py"):
        if path.name.startswith("test_") or path.name == "conftest.py":
            by_name[path.name].append(str(path.relative_to(TESTS)))
    shared = {name: paths for name, paths in by_name.items()
              if len(paths) > 1 and name != "conftest.py"}
    assert not shared, f"test files sharing a basename (rename one): {shared}"
