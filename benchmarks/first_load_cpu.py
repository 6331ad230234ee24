"""Server CPU per first load: new sessions open the lecturer's shared link one after another, and
the server's own CPU seconds (``/proc/PID/stat``) are divided by the loads.

    python benchmarks/first_load_cpu.py [--loads 60]                               # its own server
    python benchmarks/first_load_cpu.py --url http://127.0.0.1:8611 --server-pid PID [--loads 60]

The companion of ``edit_cpu.py``: what one student opening the link costs the server, without
the queueing of a burst (``load.py --arrival burst``). After an untimed warm-up session over the
pages (the lecturer opened the link first), each load is a fresh websocket session opening
``/graded?rels=...`` and closing once its first run has finished. CPU seconds barely move when
other jobs share the machine, so before/after servers can be compared on a busy machine.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load  # noqa: E402
from streamlit_client import RunResult, StreamlitSession  # noqa: E402


async def first_loads(url: str, pid: int, loads: int, timeout: float) -> tuple[float, float, RunResult]:
    """(server CPU ms per load, median latency ms, the last load's answer: its messages by kind)."""
    await load.warm_up(url, argparse.Namespace(timeout=timeout))
    before = load.proc_cpu_seconds(pid)
    latencies = []
    for _ in range(loads):
        session = StreamlitSession(url, timeout=timeout)
        result = await session.open(load.HOME_PAGE, load.shared_link())
        latencies.append(result.seconds)
        await session.close()
    await asyncio.sleep(0.5)  # the last session's closing is the server's work too
    return 1000 * (load.proc_cpu_seconds(pid) - before) / loads, 1000 * statistics.median(latencies), result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="a running server (default: start one)")
    parser.add_argument("--server-pid", type=int, help="with --url: the server's pid")
    parser.add_argument("--loads", type=int, default=60)
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args(argv)
    if args.url and not args.server_pid:
        parser.error("--url needs --server-pid (the CPU measured is the server's)")
    server = None if args.url else load.Server(Path(tempfile.mkdtemp(prefix="rankviz-first-load-")) / "server.log")
    url, pid = (args.url, args.server_pid) if server is None else (server.url, server.pid)
    try:
        cpu, latency, last = asyncio.run(first_loads(url.rstrip("/"), pid, args.loads, args.timeout))
    finally:
        if server is not None:
            server.stop()
    print(f"{url}: server CPU {cpu:.1f} ms per first load, median latency {latency:.1f} ms ({args.loads} loads, "
          f"one after another)")
    kinds = ", ".join(f"{kind} {count}" for kind, count in last.kinds.most_common())
    print(f"a first load's {last.messages} messages ({last.bytes / 1000:.0f} kB); page elements: {kinds}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
