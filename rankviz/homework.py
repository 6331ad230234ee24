"""Public import path of :mod:`rankviz.teaching.homework` (``from rankviz.homework import ...``)."""

from rankviz.teaching.homework import *  # noqa: F403
from rankviz.teaching.homework import __all__  # noqa: F401
