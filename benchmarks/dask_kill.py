"""Kill Dask workers in the middle of a real job: the output must still be the memory engine's.

    python benchmarks/dask_kill.py QRELS RUN --at 25 70 [--memory-limit 1GiB] [--workers 2]

Runs ``python -m rankviz eval QRELS RUN`` with the memory engine, then with ``--engine dask
--workers N --memory-limit M`` (its own local cluster), and at each time of ``--at`` (seconds
after the start) sends SIGKILL to one of the command's worker processes (children started by
multiprocessing), as the kernel's OOM killer or a crash would. Prints the exit status, the wall
time, when workers were killed, whether stdout is byte-identical to the memory engine's, and the
end of stderr. Not a test: it needs a run big enough to kill something mid-way (tens of seconds).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import threading
import time

import psutil


def workers_of(pid: int) -> list[psutil.Process]:
    try:
        return [child for child in psutil.Process(pid).children(recursive=True)
                if "multiprocessing-fork" in " ".join(child.cmdline())]
    except psutil.Error:
        return []


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("qrels")
    parser.add_argument("run")
    parser.add_argument("--at", type=float, nargs="+", required=True, help="seconds after the start to kill a worker")
    parser.add_argument("--memory-limit", default="1GiB")
    parser.add_argument("--workers", default="2")
    args = parser.parse_args(argv)
    command = [sys.executable, "-m", "rankviz", "eval", args.qrels, args.run]
    memory = subprocess.run(command, capture_output=True)
    started = time.perf_counter()
    job = subprocess.Popen([*command, "--engine", "dask", "--workers", args.workers, "--memory-limit",
                            args.memory_limit], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    output = {}
    reader = threading.Thread(target=lambda: output.update(zip(("out", "err"), job.communicate())))
    reader.start()
    killed = []
    for at in args.at:
        while time.perf_counter() - started < at and job.poll() is None:
            time.sleep(0.2)
        victims = workers_of(job.pid)
        if victims and job.poll() is None:
            os.kill(victims[0].pid, signal.SIGKILL)
            killed.append(round(time.perf_counter() - started))
    reader.join()
    print(f"exit {job.returncode}, {time.perf_counter() - started:.0f} s, workers killed at {killed} s, "
          f"output identical to the memory engine's: {output['out'] == memory.stdout}, "
          f"stderr: {output['err'].decode(errors='replace')[-300:]!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
