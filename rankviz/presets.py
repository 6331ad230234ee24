"""Public import path of :mod:`rankviz.teaching.presets` (``from rankviz.presets import ...``)."""

from rankviz.teaching.presets import *  # noqa: F403
from rankviz.teaching.presets import __all__  # noqa: F401
