"""``rankviz app``: where it finds the app, the command it runs, the options it passes on, and its
error without the [app] extra.

The wheel-install test (tests/e2e/test_wheel_install.py) starts it for real from a fresh venv.
"""

from __future__ import annotations

import importlib.util
import sys
import tomllib
from pathlib import Path

import pytest

from rankviz import app_launch, cli
from rankviz.app_launch import PROJECTOR_OPTIONS, app_folder, app_script, config_options, streamlit_command
from rankviz.cli import EXIT_USAGE, main

ROOT = Path(__file__).resolve().parents[1]


def test_from_a_clone_the_app_is_the_top_level_app_py_and_its_pages():
    assert app_folder() == ROOT
    assert app_script() == ROOT / "app.py"
    assert (app_folder() / "app_pages" / "home.py").is_file()


def test_an_installed_app_wins_over_the_folder_above_the_package(tmp_path, monkeypatch):
    installed = tmp_path / "rankviz" / "ui" / "app"
    (installed / "app_pages").mkdir(parents=True)
    (installed / "app.py").write_text("")
    monkeypatch.setattr(app_launch, "INSTALLED_APP", installed)
    assert app_folder() == installed


def test_no_app_anywhere_names_both_places_and_the_extra(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(app_launch, "INSTALLED_APP", tmp_path / "installed")
    monkeypatch.setattr(app_launch, "SOURCE_APP", tmp_path / "clone")
    with pytest.raises(FileNotFoundError, match=r"neither in .*installed .* nor in .*clone.*rankviz\[app\]"):
        app_folder()
    assert main(["app"]) == EXIT_USAGE
    assert capsys.readouterr().err.startswith("rankviz: error: the rankviz app (app.py and app_pages/) is neither in")


def test_the_apps_streamlit_settings_become_options():
    settings = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    options = config_options(ROOT / ".streamlit" / "config.toml")
    pairs = dict(zip(options[::2], options[1::2], strict=True))
    assert pairs["--theme.primaryColor"] == settings["theme"]["primaryColor"] == "#0072B2"
    assert pairs["--runner.postScriptGC"] == "false" and settings["runner"]["postScriptGC"] is False
    assert pairs["--server.maxUploadSize"] == "200"
    # Measured: the default watcher made 100 sessions opening one link wait 18-25 s (benchmarks/README.md).
    assert pairs["--server.fileWatcherType"] == "none"
    assert len(pairs) == sum(len(section) for section in settings.values())
    assert config_options(ROOT / "no-such-config.toml") == []


def test_projector_and_port_come_after_the_settings_and_before_the_users_options():
    settings = config_options(ROOT / ".streamlit" / "config.toml")
    command = streamlit_command(sys.executable, projector=True, port=8600, streamlit_args=["--theme.base", "dark"])
    assert command[:5] == [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py")]
    assert command[5:] == [*settings, "--server.port", "8600", *PROJECTOR_OPTIONS, "--theme.base", "dark"]
    assert streamlit_command(sys.executable)[5:] == settings  # streamlit's own port 8501, normal type


def test_app_execs_streamlit_with_the_options_it_does_not_know(monkeypatch):
    calls = []

    def fake_execv(path, argv):
        calls.append((path, argv))
        raise SystemExit(0)  # execv does not return

    monkeypatch.setattr(cli.os, "execv", fake_execv)
    monkeypatch.setattr(cli.os, "name", "posix")
    with pytest.raises(SystemExit):
        main(["app", "--projector", "--port", "8601", "--server.headless", "true"])
    expected = streamlit_command(sys.executable, projector=True, port=8601, streamlit_args=["--server.headless", "true"])
    assert calls == [(sys.executable, expected)]


def test_app_without_streamlit_names_the_extra(monkeypatch, capsys):
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *args: None if name == "streamlit" else real_find_spec(name, *args))
    assert main(["app"]) == EXIT_USAGE
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == 'rankviz: error: streamlit not installed; the app needs the [app] extra: ' \
                           'python -m pip install "rankviz[app]"\n'


def test_other_commands_still_reject_unknown_options(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["eval", "--server.port", "1", "qrels", "run"])
    assert exit_info.value.code == EXIT_USAGE
    assert "unrecognized arguments: --server.port" in capsys.readouterr().err


@pytest.mark.parametrize("port", ["0", "x"])
def test_port_must_be_a_positive_integer(port, capsys):
    with pytest.raises(SystemExit):
        main(["app", "--port", port])
    assert "--port: must be a positive integer" in capsys.readouterr().err
