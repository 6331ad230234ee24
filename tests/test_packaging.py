"""pyproject.toml's package list matches the source tree, without building anything.

The list is written out (a find directive cannot map the top-level app.py and app_pages/ to
``rankviz.ui.app``), so a new subpackage of rankviz/ that is not added to it would be left out of
the wheel: this test names it. tests/e2e/test_wheel_install.py builds the wheel and checks its files.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from rankviz.app_launch import INSTALLED_APP

ROOT = Path(__file__).resolve().parents[1]
SETUPTOOLS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
APP_PACKAGE = ".".join(INSTALLED_APP.relative_to(INSTALLED_APP.parents[2]).parts)  # "rankviz.ui.app"


def test_every_folder_of_rankviz_with_an_init_is_listed_and_the_app_is_mapped():
    source_packages = {".".join(init.parent.relative_to(ROOT).parts) for init in (ROOT / "rankviz").rglob("__init__.py")}
    assert set(SETUPTOOLS["packages"]) == source_packages | {APP_PACKAGE, f"{APP_PACKAGE}.app_pages"}
    assert not (ROOT / "rankviz" / "ui" / "app").exists(), "rankviz/ui/app is the wheel's name for the top level"


def test_the_app_package_is_the_top_level_app_py_and_app_pages():
    mapping = SETUPTOOLS["package-dir"]
    assert mapping == {APP_PACKAGE: ".", f"{APP_PACKAGE}.app_pages": "app_pages"}
    # Every .py file of a mapped folder is shipped: the top level must hold app.py alone.
    assert sorted(path.name for path in ROOT.glob("*.py")) == ["app.py"]
    assert any((ROOT / "app_pages").glob("*.py"))


def test_package_data_names_files_that_exist():
    for package, patterns in SETUPTOOLS["package-data"].items():
        folder = ROOT / SETUPTOOLS["package-dir"].get(package, package.replace(".", "/"))
        for pattern in patterns:
            assert list(folder.glob(pattern)), f"{package}: {pattern} matches no file in {folder}"
