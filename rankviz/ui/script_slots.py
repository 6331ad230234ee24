"""One script run at a time in a server process (a setting), the others in line.

Streamlit runs each session's script in its own thread, and every thread competes for one GIL.
With a class editing at once, dozens of runs were in flight together: each got a sliver of the
interpreter, the event loop that sends the answers waited behind them for the GIL, and the server
could fall into a slow state it did not leave (100 sessions editing every 4-6 s: edit p50 up to
4.1 s, p95 up to 5.0 s, with the server using only ~0.55 of a core). Measured side by side on the
same machine (benchmarks/README.md, "One script run at a time"), two rounds each: unlimited runs
gave edit p95 1.08 and 4.98 s, two at a time 0.59 and 0.77 s, **one at a time 0.22 and 0.16 s**
(p50 0.06-0.08 s, the same 10.3-10.6 edits a second): with one core's worth of interpreter,
runs in line finish sooner than runs side by side. A waiting run holds nothing, so a student whose
newer edit replaces it loses nothing.

The price: one long run (a large upload evaluated on the run-files page) makes the others wait
for it. The number of slots is ``RANKVIZ_SCRIPT_SLOTS`` (default 1), a server setting read once:
a server for analysts evaluating big uploads side by side may want 2 or more.
"""

from __future__ import annotations

import contextlib
import os
import threading

__all__ = ["DEFAULT_SLOTS", "SLOTS_VARIABLE", "slots_from_environment", "script_slot"]

DEFAULT_SLOTS = 1
SLOTS_VARIABLE = "RANKVIZ_SCRIPT_SLOTS"


def slots_from_environment(environ=os.environ) -> int:
    """The number of script runs allowed at once: ``RANKVIZ_SCRIPT_SLOTS``, else 1.

    >>> slots_from_environment({})
    1
    >>> slots_from_environment({"RANKVIZ_SCRIPT_SLOTS": "4"})
    4
    >>> slots_from_environment({"RANKVIZ_SCRIPT_SLOTS": "many"})
    Traceback (most recent call last):
    ...
    ValueError: RANKVIZ_SCRIPT_SLOTS must be a whole number >= 1 (script runs at once); got 'many'.
    """
    text = environ.get(SLOTS_VARIABLE, "").strip()
    if not text:
        return DEFAULT_SLOTS
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"{SLOTS_VARIABLE} must be a whole number >= 1 (script runs at once); got {text!r}.")
    return int(text)


_SLOTS = threading.BoundedSemaphore(slots_from_environment())


@contextlib.contextmanager
def script_slot(slots: threading.BoundedSemaphore | None = None):
    """Hold one of the process's script slots while the block runs (waiting for one if all are
    taken); released however the block ends, including Streamlit's rerun and stop exceptions."""
    slots = _SLOTS if slots is None else slots
    slots.acquire()
    try:
        yield
    finally:
        slots.release()
