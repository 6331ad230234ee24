"""Click-log evaluation, memory engine and Dask engine side by side on one Parquet dataset.

    python benchmarks/generate_clicks.py --rows 10000000 --out /work/bench-data/clicks/1e7
    nice -n 10 python benchmarks/clicks.py /work/bench-data/clicks/1e7 --workers 2

Each engine runs in its own fresh Python process (``--child``), which evaluates the dataset with
:func:`rankviz.evaluation.clicks.evaluate_clicks` and prints its timings as JSON. Meanwhile this
process samples, every 0.1 s, the resident memory (RSS) of that process *and of all its
descendants* (the Dask engine's nanny and worker processes included) and keeps the largest sum:
"peak MB" is what the machine had to hold for the run. Reported per engine:

* **evaluate s**: wall time of ``evaluate_clicks`` (reading the Parquet files included; for
  Dask, not the cluster's start, shown apart as **cluster s**);
* **process s**: wall time of the whole child process (imports, cluster start and stop);
* **peak MB**: the largest sampled sum of RSS over the process tree (a sample every 0.1 s can
  miss a shorter peak);
* the values, which must be equal between the engines (``--check``, on by default).

Options: ``--measures`` (default auc,gauc,nDCG@10,RR), ``--engines`` (memory,dask; add
``dask-noshuffle`` for ``evaluate_clicks(..., shuffle=False)``: the generated files hold whole sessions),
``--workers`` and ``--memory-limit`` (per Dask worker, default 4GiB), ``--partitions``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

MEASURES = "auc,gauc,nDCG@10,RR"
REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def child(args) -> int:
    start = time.perf_counter()
    sys.path.insert(0, REPOSITORY)  # this checkout's rankviz (the workers inherit sys.path)
    from rankviz.evaluation.clicks import evaluate_clicks

    measures = args.measures.split(",")
    options = dict(group="session", label="label", score="score", measures=measures)
    report = {"engine": args.child}
    if args.child == "memory":
        t = time.perf_counter()
        result = evaluate_clicks(args.data, **options)
        report["evaluate_s"] = time.perf_counter() - t
    else:
        from distributed import Client, LocalCluster

        t = time.perf_counter()
        with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None,
                          memory_limit=args.memory_limit) as cluster, Client(cluster) as client:
            report["cluster_s"] = time.perf_counter() - t
            t = time.perf_counter()
            result = evaluate_clicks(args.data, engine="dask", client=client, partitions=args.partitions,
                                     shuffle=args.child != "dask-noshuffle", **options)
            report["evaluate_s"] = time.perf_counter() - t
    report["values"] = {k: float(v) for k, v in result.values.items()}
    report["counts"] = dict(result.counts)
    report["child_s"] = time.perf_counter() - start
    print(json.dumps(report))
    return 0


def tree_rss(process) -> int:
    """RSS of a process and every descendant, in bytes (processes that end meanwhile are skipped)."""
    import psutil

    total = 0
    try:
        members = [process] + process.children(recursive=True)
    except psutil.Error:
        return 0
    for member in members:
        try:
            total += member.memory_info().rss
        except psutil.Error:
            pass
    return total


def run_engine(engine: str, args) -> dict:
    import psutil

    command = [sys.executable, os.path.abspath(__file__), args.data, "--child", engine, "--measures", args.measures,
               "--workers", str(args.workers), "--memory-limit", args.memory_limit]
    if args.partitions:
        command += ["--partitions", str(args.partitions)]
    start = time.perf_counter()
    popen = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    process = psutil.Process(popen.pid)
    peak = 0
    while popen.poll() is None:
        peak = max(peak, tree_rss(process))
        time.sleep(0.1)
    out = popen.stdout.read()
    wall = time.perf_counter() - start
    if popen.returncode != 0:
        raise SystemExit(f"{engine} engine failed with status {popen.returncode}")
    report = json.loads(out.strip().splitlines()[-1])
    report.update(process_s=wall, peak_mb=peak / 2**20)
    return report


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", help="Parquet dataset directory (benchmarks/generate_clicks.py)")
    parser.add_argument("--measures", default=MEASURES)
    parser.add_argument("--engines", default="memory,dask")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--memory-limit", default="4GiB")
    parser.add_argument("--partitions", type=int, default=None)
    parser.add_argument("--no-check", dest="check", action="store_false")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child(args)
    reports = [run_engine(engine, args) for engine in args.engines.split(",")]
    counts = reports[0]["counts"]
    sessions = (f", {counts['groups']:,} sessions ({counts['one_class_groups']:,} one-class)"
                if "groups" in counts else "")  # the global AUC alone forms no groups
    print(f"{counts['rows']:,} rows{sessions}, measures {args.measures}; "
          f"Dask: {args.workers} workers x 1 thread, memory limit {args.memory_limit} each\n")
    names = list(reports[0]["values"])
    print("| engine | evaluate s | cluster s | process s | peak MB (all processes) | " + " | ".join(names) + " |")
    print("|---|---:|---:|---:|---:|" + "---:|" * len(names))
    for r in reports:
        cluster = f"{r['cluster_s']:.1f}" if "cluster_s" in r else "-"
        values = " | ".join(f"{r['values'][n]:.6f}" for n in names)
        print(f"| {r['engine']} | {r['evaluate_s']:.1f} | {cluster} | {r['process_s']:.1f} | {r['peak_mb']:,.0f} | {values} |")
    if args.check and len(reports) > 1:
        same = all(r["values"] == reports[0]["values"] and r["counts"] == counts for r in reports[1:])
        print(f"\nvalues and counts identical across engines (every digit): {same}")
        if not same:
            return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
