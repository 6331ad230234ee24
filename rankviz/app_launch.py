"""Where the teaching app's files are, and the ``streamlit run`` command that ``rankviz app`` runs.

The app is ``app.py`` (page config, shared state, navigation), the pages in ``app_pages/`` and the
app's Streamlit settings in ``.streamlit/config.toml``. In the source tree they sit at the top
level, beside the ``rankviz`` package (``python -m streamlit run app.py`` from a clone). The wheel
carries the same files, unchanged and in the same relative layout, as the subpackage
``rankviz.ui.app``: ``pyproject.toml`` maps that package to the top-level folder
(``package-dir``), so ``pip install "rankviz[app]"`` installs ``rankviz/ui/app/app.py``,
``rankviz/ui/app/app_pages/*.py`` and ``rankviz/ui/app/.streamlit/config.toml``, and no top-level
``app`` or ``app_pages`` module. :func:`app_folder` finds whichever of the two is there.

Nothing here imports Streamlit: the command line builds the command without it, and names the
``[app]`` extra when it is missing.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

__all__ = ["APP_EXTRA_HINT", "INSTALLED_APP", "PROJECTOR_OPTIONS", "SOURCE_APP", "app_folder", "app_script",
           "config_options", "streamlit_command"]

_PACKAGE = Path(__file__).resolve().parent
INSTALLED_APP = _PACKAGE / "ui" / "app"  # what the wheel installs (pyproject.toml's package-dir)
SOURCE_APP = _PACKAGE.parent  # a clone, or an editable install: the repository's top level

# What ``--projector`` adds: the README's projector command (big type, no Deploy button).
PROJECTOR_OPTIONS = ("--theme.baseFontSize", "22", "--client.toolbarMode", "minimal")
APP_EXTRA_HINT = 'the app needs the [app] extra: python -m pip install "rankviz[app]"'


def app_folder() -> Path:
    """The folder holding ``app.py``, ``app_pages/`` and ``.streamlit/config.toml``.

    ``rankviz/ui/app`` where rankviz was installed from a wheel, else the folder above the
    ``rankviz`` package (a clone or ``pip install -e .``). Raises FileNotFoundError naming both
    places when neither holds ``app.py`` (rankviz installed from something other than its wheel).
    """
    for folder in (INSTALLED_APP, SOURCE_APP):
        if (folder / "app.py").is_file() and (folder / "app_pages").is_dir():
            return folder
    raise FileNotFoundError(f"the rankviz app (app.py and app_pages/) is neither in {INSTALLED_APP} (a wheel's "
                            f"install) nor in {SOURCE_APP} (a clone); reinstall with: "
                            'python -m pip install "rankviz[app]"')


def app_script() -> Path:
    """The app's main script, ``app.py`` in :func:`app_folder`."""
    return app_folder() / "app.py"


def config_options(config: Path) -> list[str]:
    """The settings of a Streamlit ``config.toml`` as ``streamlit run`` options, in file order.

    Streamlit reads ``.streamlit/config.toml`` from the working folder and the user's home, and
    recent versions from the main script's folder too; ``rankviz app`` passes the app's own
    settings (theme, toolbar, upload size, ...) on the command line as well, so that they apply
    wherever it is started, with any Streamlit the ``[app]`` extra allows. Booleans are written as
    ``true``/``false``; a missing file gives no options.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "config.toml"
    ...     _ = path.write_text('[theme]\\nprimaryColor = "#0072B2"\\n[runner]\\npostScriptGC = false\\n')
    ...     config_options(path)
    ['--theme.primaryColor', '#0072B2', '--runner.postScriptGC', 'false']
    """
    if not config.is_file():
        return []
    with open(config, "rb") as file:
        settings = tomllib.load(file)
    options = []
    for section, values in settings.items():
        for name, value in values.items():
            text = ("true" if value else "false") if isinstance(value, bool) else str(value)
            options += [f"--{section}.{name}", text]
    return options


def streamlit_command(python: str, projector: bool = False, port: int | None = None, streamlit_args=()) -> list[str]:
    """The ``streamlit run`` command that ``rankviz app`` executes with the interpreter ``python``.

    In order: the app's ``config.toml`` settings, ``--server.port``, the projector options, then
    ``streamlit_args`` as given; Streamlit keeps the last value of an option given twice, so an
    option typed by the user wins over the app's settings.

    >>> command = streamlit_command("python", projector=True, port=8502, streamlit_args=["--server.headless", "true"])
    >>> command[:5] == ["python", "-m", "streamlit", "run", str(app_script())]
    True
    >>> command[-8:]
    ['--server.port', '8502', '--theme.baseFontSize', '22', '--client.toolbarMode', 'minimal', '--server.headless', 'true']
    """
    folder = app_folder()
    command = [python, "-m", "streamlit", "run", str(folder / "app.py")]
    command += config_options(folder / ".streamlit" / "config.toml")
    if port is not None:
        command += ["--server.port", str(port)]
    if projector:
        command += PROJECTOR_OPTIONS
    return command + list(streamlit_args)
