"""Two or more app servers up together, driven in turns by ``load.py``: a before/after of the app.

    git archive 9a214d0 | (mkdir -p /tmp/before && tar -x -C /tmp/before)
    python benchmarks/load_side_by_side.py /tmp/before . --rounds 3 -- --sessions 100 --arrival burst --think 4 6 --duration 20

Each CHECKOUT (a directory holding ``app.py`` and ``benchmarks/load.py``: this repository, or a
copy of another commit) gets its own ``streamlit run app.py`` on a free loopback port, started by
that checkout's ``load.Server`` (so each runs its own code and settings). Every round then runs
this checkout's ``benchmarks/load.py --url URL --server-pid PID`` with the options after ``--``
against each server in turn: the servers see the same machine within a round, which matters on a
shared machine whose load drifts within minutes. One Markdown row per round and server on stdout,
with the 1-minute load average before it; the servers are stopped by their own pids at the end.
Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent


def start_server(checkout: Path, log_dir: Path):
    """The checkout's own ``load.Server`` (its app, its settings) on a free port."""
    name = f"rankviz_load_{abs(hash(str(checkout)))}"
    spec = importlib.util.spec_from_file_location(name, checkout / "benchmarks" / "load.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    sys.path.insert(0, str(checkout / "benchmarks"))  # its streamlit_client
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(checkout / "benchmarks"))
    return module.Server(log_dir / f"{name}.log")


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    load_options = argv[argv.index("--") + 1:] if "--" in argv else []
    argv = argv[:argv.index("--")] if "--" in argv else argv
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkouts", nargs="+", type=Path, help="directories holding app.py (e.g. a copy of main, and .)")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="rankviz-side-by-side-") as log_dir:
        servers = []
        try:
            for checkout in args.checkouts:
                servers.append((checkout, start_server(checkout.resolve(), Path(log_dir))))
            print("| round | server | load avg before | row of load.py (sessions, first load p50 p95 max, edit p50 p95 max, "
                  "edits, edits/s, page p50 p95 max, errors, server peak MB, server CPU, client CPU) |")
            print("|---:|---|---|---|")
            for round_ in range(1, args.rounds + 1):
                for checkout, server in servers:
                    load = f"{os.getloadavg()[0]:.2f}"
                    result = subprocess.run([sys.executable, str(BENCHMARKS / "load.py"), "--url", server.url,
                                             "--server-pid", str(server.pid), *load_options],
                                            capture_output=True, text=True, cwd=BENCHMARKS.parent)
                    lines = result.stdout.strip().splitlines()
                    print(f"| {round_} | {checkout} | {load} | {lines[-1] if lines else result.stderr[-300:]} |",
                          flush=True)
        finally:
            for _, server in servers:
                server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
