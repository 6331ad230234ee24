"""Time one rerun of each Streamlit page script, as AppTest runs it (issue 4: "the script's own work
stays under 100 ms").

    python benchmarks/app_script.py [--repeat 20] [--rows 100]

For every page of the app, open it once (imports and caches warm up, untimed), then time
``--repeat`` reruns, which is what every widget interaction triggers, with a ``--rows``-row
ranking loaded through the shareable-link parameters (``?rels=...``). Prints a Markdown table of
the median and the slowest rerun per page. AppTest adds its own bookkeeping to each run, so the
numbers are an upper bound on the script's own work; the browser's rendering is not included.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
BUDGET_MS = 100.0


def time_page(page_path: str, repeat: int, rels: str) -> list[float]:
    from streamlit.testing.v1 import AppTest

    from rankviz.ui.testing import use_navigation_pages

    use_navigation_pages()
    app = AppTest.from_file(str(REPOSITORY / "app.py"), default_timeout=60)
    app.query_params["rels"] = rels
    app.run()
    app.switch_page(page_path).run()
    if app.exception:
        raise RuntimeError(f"{page_path} raised: {app.exception}")
    timings = []
    for _ in range(repeat):
        start = time.perf_counter()
        app.run()
        timings.append((time.perf_counter() - start) * 1000)
    return timings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=20, help="timed reruns per page (default 20)")
    parser.add_argument("--rows", type=int, default=100, help="length of the ranking loaded (default 100)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPOSITORY))
    from rankviz.ui.pages import available_pages

    # A reproducible ranking: grades 0..3 cycling with a few zeros, as a lecture example would be.
    rels = ",".join(str((3 * i + i // 7) % 4) for i in range(args.rows))
    lines = [
        f"| page | median ms | slowest ms | under {BUDGET_MS:.0f} ms |",
        "|---|---:|---:|:---:|",
    ]
    for page in available_pages():
        print(f"timing {page.path} ...", file=sys.stderr, flush=True)
        try:
            timings = time_page(page.path, args.repeat, rels)
        except Exception as error:  # a broken page is reported, the others are still timed
            lines.append(f"| {page.title} | failed: {error} | | |")
            continue
        median = statistics.median(timings)
        lines.append(f"| {page.title} | {median:.0f} | {max(timings):.0f} | {'yes' if median < BUDGET_MS else 'no'} |")
    print(f"AppTest reruns with a {args.rows}-row ranking, {args.repeat} per page (Python {sys.version.split()[0]})\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
