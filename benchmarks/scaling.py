"""Scaling curve of the two engines: wall time and peak memory of ``rankviz eval`` on runs of 1M to 200M lines.

    python benchmarks/generate.py --queries 10000 --docs 1000 --chunk-queries 2000 --sparse --out DATA/q10000
    nice -n 10 python benchmarks/scaling.py DATA/q1000 DATA/q10000 --engines memory,dask --workers 2

Each measurement runs the command line in a fresh process (``python -m rankviz eval QRELS RUN``,
with ``--engine dask --workers N --memory-limit M`` for the Dask engine, whose local cluster's
scheduler, nannies and workers are child processes) and samples, every 0.1 s, the sum of the
resident memory (RSS) of that process and all its descendants: the peak is what the whole job
held at once, workers included (shared pages are counted once per process, so it errs high).
The Dask engine's output is compared with the memory engine's when both ran: they must be equal.
A measurement is stopped when the sum passes ``--kill-above`` (default 20 GB: the machine has
24) or the time ``--timeout``; the row then says so.

Every row is appended as JSON to ``--log`` and printed as a Markdown table row.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import psutil

GB = 1e9


def tree_rss(process: psutil.Process) -> int:
    """Resident bytes of ``process`` and every descendant (processes that end meanwhile count 0)."""
    total = 0
    for member in [process, *process.children(recursive=True)]:
        try:
            total += member.memory_info().rss
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            pass
    return total


def measure(command: list[str], *, timeout: float, kill_above: float) -> dict:
    """Run ``command``; return wall time, peak tree RSS, exit status, a digest of stdout, and why it stopped."""
    started = time.perf_counter()
    out_path = Path(f"/tmp/rankviz-scaling-{time.time_ns()}.out")
    with open(out_path, "wb") as out, open(out_path.with_suffix(".err"), "wb") as err:
        child = subprocess.Popen(command, stdout=out, stderr=err)
        process = psutil.Process(child.pid)
        peak, stopped = 0, None
        while child.poll() is None:
            peak = max(peak, tree_rss(process))
            elapsed = time.perf_counter() - started
            if peak > kill_above or elapsed > timeout:
                stopped = f"killed: total RSS above {kill_above / GB:.0f} GB" if peak > kill_above else \
                    f"killed: over {timeout:.0f} s"
                for member in [*process.children(recursive=True), process]:
                    try:
                        member.kill()
                    except psutil.NoSuchProcess:
                        pass
                child.wait()
                break
            time.sleep(0.1)
    wall = time.perf_counter() - started
    output = out_path.read_bytes()
    error = out_path.with_suffix(".err").read_text(errors="replace").strip().splitlines()
    out_path.unlink()
    out_path.with_suffix(".err").unlink()
    return {"wall_s": round(wall, 2), "peak_rss_gb": round(peak / GB, 3), "exit": child.returncode,
            "stopped": stopped, "stdout_sha1": hashlib.sha1(output).hexdigest(),
            "stderr_tail": error[-1] if error else ""}


def count_lines(path: Path) -> int:
    with open(path, "rb") as handle:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 24), b""))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", type=Path, help="folders holding qrels.txt and run.txt (generate.py)")
    parser.add_argument("--engines", default="memory,dask", help="comma-separated: memory, dask (default both)")
    parser.add_argument("--workers", default="2", help="comma-separated worker counts for the Dask engine (default 2)")
    parser.add_argument("--memory-limit", default="2.5GiB", help="memory limit per Dask worker (default 2.5GiB)")
    parser.add_argument("--blocksize", default=None,
                        help="Dask engine block size (default: none passed, the engine chooses it from the limit)")
    parser.add_argument("--skip-memory-above", type=float, default=3.0,
                        help="skip the memory engine for run files above this many GB (default 3)")
    parser.add_argument("--timeout", type=float, default=3600.0, help="seconds per measurement (default 3600)")
    parser.add_argument("--kill-above", type=float, default=20.0, help="stop a measurement above this many GB")
    parser.add_argument("--log", type=Path, default=Path("/work/bench-data/dask-scaling/results.jsonl"))
    args = parser.parse_args(argv)

    print("| run lines | run file | engine | workers | wall (s) | s per M lines | peak RSS, all processes (GB) | load "
          "| note |")
    print("|---:|---:|---|---:|---:|---:|---:|---|---|")
    for folder in args.folders:
        qrels, run = folder / "qrels.txt", folder / "run.txt"
        lines = count_lines(run)
        size_gb = run.stat().st_size / GB
        digests = {}
        for engine in args.engines.split(","):
            for workers in (args.workers.split(",") if engine == "dask" else ["-"]):
                command = [sys.executable, "-m", "rankviz", "eval", str(qrels), str(run)]
                if engine == "dask":
                    command += ["--engine", "dask", "--workers", workers, "--memory-limit", args.memory_limit]
                    command += ["--blocksize", args.blocksize] if args.blocksize else []
                row = {"folder": str(folder), "lines": lines, "run_gb": round(size_gb, 2), "engine": engine,
                       "workers": workers, "command": " ".join(command)}
                if engine == "memory" and size_gb > args.skip_memory_above:
                    row.update(stopped=f"skipped: run file {size_gb:.1f} GB > {args.skip_memory_above} GB "
                                       f"(the in-memory engine's peak, ~2.5x the file, would pass the machine's memory)")
                else:
                    load_before = os.getloadavg()[0]
                    row.update(measure(command, timeout=args.timeout, kill_above=args.kill_above * GB))
                    row["load"] = f"{load_before:.1f}-{os.getloadavg()[0]:.1f}"  # 1-min load average, before-after
                    if row["exit"] == 0 and not row["stopped"]:
                        digests[(engine, workers)] = row["stdout_sha1"]
                if engine == "dask" and ("memory", "-") in digests and (engine, workers) in digests:
                    row["same_output_as_memory"] = digests[("memory", "-")] == digests[(engine, workers)]
                args.log.parent.mkdir(parents=True, exist_ok=True)
                with open(args.log, "a") as log:
                    log.write(json.dumps(row) + "\n")
                wall = row.get("wall_s")
                per_m = f"{wall / (lines / 1e6):.2f}" if wall and not row.get("stopped") else ""
                note = row.get("stopped") or ("exit %s: %s" % (row["exit"], row["stderr_tail"]) if row.get("exit") else "")
                if "same_output_as_memory" in row:
                    note = (note + " " if note else "") + ("output identical to memory engine"
                                                          if row["same_output_as_memory"] else "OUTPUT DIFFERS")
                print(f"| {lines:,} | {size_gb:.2f} GB | {engine} | {workers} | {wall if wall else ''} | {per_m} | "
                      f"{row.get('peak_rss_gb', '')} | {row.get('load', '')} | {note} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
