"""Time one rerun of each Streamlit page script, as AppTest runs it (issue 4: "the script's own work
stays under 100 ms").

    python benchmarks/app_script.py [--repeat 20] [--rows 100] [--edits] [--pages ties run_files ...]

For every page of the app, open it once (imports and caches warm up, untimed), then time
``--repeat`` reruns, which is what every widget interaction triggers, with a ``--rows``-row
ranking loaded through the shareable-link parameters (``?rels=...``). Prints a Markdown table
per page of:

- **rerun**: the median (and slowest) wall time of ``AppTest.run()``: the script plus AppTest's
  own bookkeeping. This is the number the budget applies to.
- **script**: the median time the script thread spends running ``app.py`` and the page
  (Streamlit's ``ScriptRunner._run_script``: every widget, element and rankviz call), minus the
  time spent compiling the two files. AppTest builds a fresh script cache on every run, so it
  re-parses and compiles ``app.py`` and the page each time (``ScriptCache.get_bytecode``); a
  server compiles each file once. The browser's rendering is in neither number.
- **AppTest overhead**: rerun minus script: compiling, starting the script thread, polling for
  its end (1 ms sleeps) and parsing the messages into an element tree.

- with ``--edits``, **edit rerun** and **edit script**: the same, for reruns that each change one
  grade of the page's ranking box first (pages that have one: the shared ``rels`` box, or the
  page's own, loaded with a ``--rows``-long ranking too: the correlation page's R2 ranks, where
  an edit swaps two neighbours, the explorer's ranking to perturb, the user-measures ranking).
  Plain reruns find the pages' cached results and chart specs; an edit recomputes the worked
  tables and refills the charts whose data changed, which is what a student editing a grade
  waits for.

A first row, "empty page (AppTest floor)", reruns a one-line script through the same AppTest
path: what AppTest costs when the script does nothing. The script timings come from wrapping two
private Streamlit methods; if a Streamlit release renames them, the script column says "n/a" and
the rerun column is still measured.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import threading
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
BUDGET_MS = 100.0
EMPTY_PAGE = "empty page (AppTest floor)"


class ScriptClock:
    """Time spent in the script thread: whole script runs, and compiling inside them.

    Wraps ``ScriptRunner._run_script`` (one script run) and ``ScriptCache.get_bytecode``
    (reading, magic-rewriting and compiling a file, which AppTest repeats on every run).
    """

    def __init__(self):
        self.available = False
        self._local = threading.local()
        self.runs: list[float] = []  # per run: script milliseconds, compiling excluded

    def install(self) -> None:
        try:
            from streamlit.runtime.scriptrunner.script_cache import ScriptCache
            from streamlit.runtime.scriptrunner.script_runner import ScriptRunner
            run_script, get_bytecode = ScriptRunner._run_script, ScriptCache.get_bytecode
        except (ImportError, AttributeError):
            return
        clock = self

        def timed_run_script(runner, rerun_data):
            clock._local.compiling = 0.0
            start = time.perf_counter()
            try:
                return run_script(runner, rerun_data)
            finally:
                clock.runs.append((time.perf_counter() - start - clock._local.compiling) * 1000)

        def timed_get_bytecode(cache, script_path):
            start = time.perf_counter()
            try:
                return get_bytecode(cache, script_path)
            finally:
                clock._local.compiling = getattr(clock._local, "compiling", 0.0) + time.perf_counter() - start

        ScriptRunner._run_script = timed_run_script
        ScriptCache.get_bytecode = timed_get_bytecode
        self.available = True


def time_reruns(app, repeat: int, clock: ScriptClock, edit=None) -> tuple[list[float], list[float]]:
    """Wall times of ``repeat`` reruns of ``app`` and the script's own time in each (ms); ``edit(i)``,
    when given, changes a widget before rerun i (untimed)."""
    timings = []
    clock.runs.clear()
    for index in range(repeat):
        if edit is not None:
            edit(index)
        start = time.perf_counter()
        app.run()
        timings.append((time.perf_counter() - start) * 1000)
    return timings, list(clock.runs)


def edited_grades(grades: list[int], index: int) -> str:
    """The ranking with one grade changed, a different one each time (every edit is new to the caches)."""
    changed = list(grades)
    position = index % len(changed)
    changed[position] = (changed[position] + 1 + index // len(changed)) % 4
    return ",".join(map(str, changed))


def swapped_ranks(ranks: list[int], index: int) -> str:
    """The ranks with two neighbours swapped, a different pair each time."""
    changed = list(ranks)
    position = index % (len(changed) - 1)
    changed[position], changed[position + 1] = changed[position + 1], changed[position]
    return ",".join(map(str, changed))


def own_ranking_boxes(rels: str) -> dict:
    """Pages whose ranking box is their own, not the shared ``rels``: page stem -> (query parameters that
    load a ranking as long as ``rels``, the box's key, the i-th edited value)."""
    grades = [int(grade) for grade in rels.split(",")]
    rows = len(grades)
    ranks_b = list(range(1, rows + 1))
    random.Random(0).shuffle(ranks_b)  # R2: a reproducible shuffle of R1
    return {
        "correlation": ({"items": ",".join(f"d{i}" for i in range(1, rows + 1)),
                         "r1": ",".join(map(str, range(1, rows + 1))), "r2": ",".join(map(str, ranks_b))},
                        "r2", lambda index: swapped_ranks(ranks_b, index)),
        "explorer": ({"ex_generator": "perturbed", "ex_base": rels}, "ex_base",
                     lambda index: edited_grades(grades, index)),
        "user_measures": ({"um_rels": rels}, "um_rels", lambda index: edited_grades(grades, index)),
    }


def time_page(page_path: str, repeat: int, rels: str, clock: ScriptClock, edits: bool = False):
    from streamlit.testing.v1 import AppTest

    own_box = own_ranking_boxes(rels).get(Path(page_path).stem)
    app = AppTest.from_file(str(REPOSITORY / "app.py"), default_timeout=60)
    app.query_params["rels"] = rels
    for name, value in (own_box[0] if own_box else {}).items():
        app.query_params[name] = value
    app.run()
    app.switch_page(page_path).run()
    if app.exception:
        raise RuntimeError(f"{page_path} raised: {app.exception}")
    reruns = time_reruns(app, repeat, clock)
    if not edits:
        return reruns, None
    if own_box is not None:
        key, edited = own_box[1], own_box[2]
    else:
        grades = [int(grade) for grade in rels.split(",")]
        key, edited = "rels", (lambda index: edited_grades(grades, index))
    if not any(box.key == key for box in app.text_input):
        return reruns, None  # the page has no ranking box to edit
    timed = time_reruns(app, repeat, clock, edit=lambda index: app.text_input(key=key).set_value(edited(index)))
    if app.exception or app.error:
        raise RuntimeError(f"{page_path} after an edit: {app.exception or [e.value for e in app.error]}")
    return reruns, timed


def time_empty_page(repeat: int, clock: ScriptClock):
    from streamlit.testing.v1 import AppTest

    app = AppTest.from_string("import streamlit as st\n", default_timeout=60)
    app.run()
    return time_reruns(app, repeat, clock)


def table_row(title: str, timings: list[float], script: list[float], clock: ScriptClock, edited=None,
              edits: bool = False) -> str:
    median = statistics.median(timings)
    if clock.available and len(script) == len(timings):
        script_median = statistics.median(script)
        overhead = statistics.median(total - own for total, own in zip(timings, script))
        script_cells = f"{script_median:.0f} | {overhead:.0f}"
    else:
        script_cells = "n/a | n/a"
    verdict = "" if title == EMPTY_PAGE else ("yes" if median < BUDGET_MS else "no")
    edit_cells = ""
    if edits:
        edit_cells = " — | — |" if edited is None else (
            f" {statistics.median(edited[0]):.0f} | "
            f"{statistics.median(edited[1]) if len(edited[1]) == len(edited[0]) else float('nan'):.0f} |")
    return f"| {title} | {median:.0f} | {max(timings):.0f} | {script_cells} | {verdict} |{edit_cells}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=20, help="timed reruns per page (default 20)")
    parser.add_argument("--rows", type=int, default=100, help="length of the ranking loaded (default 100)")
    parser.add_argument("--edits", action="store_true",
                        help="also time reruns that each change one grade of the ranking box (pages that have one)")
    parser.add_argument("--pages", nargs="*", default=None,
                        help="only these pages (file stems, e.g. ties run_files); default every page")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPOSITORY))
    from rankviz.ui.pages import available_pages

    clock = ScriptClock()
    clock.install()
    # A reproducible ranking: grades 0..3 cycling with a few zeros, as a lecture example would be.
    rels = ",".join(str((3 * i + i // 7) % 4) for i in range(args.rows))
    lines = [
        f"| page | rerun median ms | rerun slowest ms | script median ms | AppTest overhead ms "
        f"| rerun under {BUDGET_MS:.0f} ms |" + (" edit rerun median ms | edit script median ms |" if args.edits else ""),
        "|---|---:|---:|---:|---:|:---:|" + ("---:|---:|" if args.edits else ""),
    ]
    print("timing the empty page ...", file=sys.stderr, flush=True)
    lines.append(table_row(EMPTY_PAGE, *time_empty_page(args.repeat, clock), clock, edits=args.edits))
    pages = [page for page in available_pages()
             if args.pages is None or Path(page.path).stem in args.pages]
    for page in pages:
        print(f"timing {page.path} ...", file=sys.stderr, flush=True)
        try:
            (timings, script), edited = time_page(page.path, args.repeat, rels, clock, edits=args.edits)
        except Exception as error:  # a broken page is reported, the others are still timed
            lines.append(f"| {page.title} | failed: {error} | | | | |")
            continue
        lines.append(table_row(page.title, timings, script, clock, edited, edits=args.edits))
    print(f"AppTest reruns with a {args.rows}-row ranking, {args.repeat} per page (Python {sys.version.split()[0]})\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
