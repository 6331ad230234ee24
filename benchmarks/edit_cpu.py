"""Server CPU per edit: one websocket session edits the graded page's ranking back to back, and
the server's own CPU seconds (``/proc/PID/stat``) are divided by the edits.

    python benchmarks/edit_cpu.py --url http://127.0.0.1:8611 --server-pid PID [--edits 60] [--seed 1]

Unlike load.py's latencies, CPU seconds per edit barely move when other jobs share the machine
(they take wall time, not the server's CPU time), so two servers (before and after a change)
can be compared on a busy machine: run both, alternating, with a new ``--seed`` per round so
neither finds the other round's rankings in its caches.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import SHARED_RANKING, edited, proc_cpu_seconds, shared_link  # noqa: E402
from streamlit_client import StreamlitSession  # noqa: E402

WARM_UP_EDITS = 5


async def cpu_per_edit(url: str, pid: int, edits: int, seed: int) -> tuple[float, float]:
    """(server CPU ms, wall ms) per edit over ``edits`` edits after a few untimed ones."""
    session = StreamlitSession(url, timeout=120)
    rng, grades = random.Random(seed), list(SHARED_RANKING)
    try:
        await session.open("graded", shared_link())

        async def edit():
            nonlocal grades
            grades = edited(grades, rng)
            box = session.widget(kind="text_input", key="rels")
            await session.rerun(set_values={box.id: ("string_value", ",".join(map(str, grades)))})

        for _ in range(WARM_UP_EDITS):
            await edit()
        cpu, wall = proc_cpu_seconds(pid), time.perf_counter()
        for _ in range(edits):
            await edit()
        return 1000 * (proc_cpu_seconds(pid) - cpu) / edits, 1000 * (time.perf_counter() - wall) / edits
    finally:
        await session.close()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--server-pid", type=int, required=True)
    parser.add_argument("--edits", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    cpu, wall = asyncio.run(cpu_per_edit(args.url, args.server_pid, args.edits, args.seed))
    print(f"{args.url}: server CPU {cpu:.1f} ms per edit, wall {wall:.1f} ms per edit ({args.edits} edits)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
