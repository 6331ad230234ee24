"""``python -m rankviz``: see :mod:`rankviz.cli` (``python -m rankviz --help``)."""

import sys

from rankviz.cli import main

if __name__ == "__main__":
    sys.exit(main())
