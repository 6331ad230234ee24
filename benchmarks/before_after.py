"""Time the rankviz CLI at two commits on the same files, interleaved, in one run.

    python benchmarks/before_after.py BEFORE [AFTER] [--repeat 5] [--qrels Q --run R]

BEFORE and AFTER are git revisions of this repository (AFTER defaults to the working tree). Each
revision is checked out once into a temporary git worktree; every round then runs
``python -m rankviz eval QRELS RUN -m P@10 -m R@100 -m AP -m RR -m nDCG@10 -m nDCG`` (the
measures of ``run.py``) in a fresh process per revision, alternating which goes first, and reads
the child's wall time, CPU time and peak memory from ``os.wait4``. Interleaving matters on a
shared machine whose speed drifts by tens of percent within minutes: a before/after pair measured
in the same round sees the same machine.

Without ``--qrels/--run`` the 5,000 x 1,000 collection of ``generate.py`` is used (generated once
into the git-ignored ``benchmarks/data/``). The outputs of the two revisions are compared byte for
byte (``--check``), so the table compares equal work. The table is Markdown on stdout: best and
median of the rounds per revision, and AFTER / BEFORE ratios.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent
REPOSITORY = BENCHMARKS.parent
MEASURES = ("P@10", "R@100", "AP", "RR", "nDCG@10", "nDCG")


def checkout(revision: str, into: Path) -> Path:
    """A worktree of ``revision`` under ``into`` (the working tree itself for ``None``)."""
    if revision is None:
        return REPOSITORY
    path = into / revision.replace("/", "_")
    subprocess.run(["git", "-C", str(REPOSITORY), "worktree", "add", "--detach", "-q", str(path), revision], check=True)
    return path


def run_cli(source: Path, qrels: Path, run: Path, output: Path) -> dict:
    """One CLI run from ``source``: wall s, CPU s and peak MB of the child process."""
    command = [sys.executable, "-m", "rankviz", "eval", str(qrels), str(run)]
    for measure in MEASURES:
        command += ["-m", measure]
    return measure_process(command, output, cwd=source, env=dict(os.environ, PYTHONPATH=str(source)))


def measure_process(command: list[str], output: Path, *, cwd: Path | None = None, env: dict | None = None) -> dict:
    """Run ``command`` as a whole process, its stdout into ``output``: its wall s, CPU s (user +
    system, all threads) and peak MB (``ru_maxrss``), from ``os.wait4``; SystemExit if it fails."""
    start = time.perf_counter()
    with open(output, "wb") as out:
        child = subprocess.Popen(command, cwd=cwd, env=env, stdout=out, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(command[:4])}... failed: {child.stderr.read().decode()[-2000:]}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "peak_mb": usage.ru_maxrss / 1024}


def table(rows: dict[str, list[dict]], before: str, after: str) -> str:
    """Best and median wall time, best CPU time, median and largest peak memory per revision, and
    the after / before ratio of each (peak memory varies from run to run with thread timing)."""
    def stat(label, key, how):
        return how([r[key] for r in rows[label]])

    columns = [("best s", "wall", min, "{:.2f}"), ("median s", "wall", statistics.median, "{:.2f}"),
               ("best CPU s", "cpu", min, "{:.2f}"), ("median peak MB", "peak_mb", statistics.median, "{:,.0f}"),
               ("largest peak MB", "peak_mb", max, "{:,.0f}")]
    lines = ["| revision | " + " | ".join(c[0] for c in columns) + " |", "|---|" + "---:|" * len(columns)]
    for label in (before, after):
        lines.append(f"| {label} | " + " | ".join(fmt.format(stat(label, key, how)) for _, key, how, fmt in columns)
                     + " |")
    lines.append("| after / before | " + " | ".join(
        f"{stat(after, key, how) / stat(before, key, how):.3f}x" for _, key, how, _ in columns) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", help="git revision measured first (e.g. a commit before the change)")
    parser.add_argument("after", nargs="?", default=None, help="git revision after (default: the working tree)")
    parser.add_argument("--repeat", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--qrels", type=Path, help="qrels file (default: generated benchmarks/data/qrels.txt)")
    parser.add_argument("--run", type=Path, help="run file (default: generated benchmarks/data/run.txt)")
    parser.add_argument("--check", action="store_true", help="fail unless both revisions print the same output")
    args = parser.parse_args(argv)
    if (args.qrels is None) != (args.run is None):
        parser.error("give both --qrels and --run, or neither")
    qrels, run = args.qrels, args.run
    if qrels is None:
        data = BENCHMARKS / "data"
        qrels, run = data / "qrels.txt", data / "run.txt"
        if not (qrels.exists() and run.exists()):
            subprocess.run([sys.executable, str(BENCHMARKS / "generate.py"), "--out", str(data)], check=True)
    before_label, after_label = args.before, args.after or "working tree"
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        sources = {before_label: checkout(args.before, scratch), after_label: checkout(args.after, scratch)}
        try:
            rows = {label: [] for label in sources}
            for round_number in range(args.repeat):
                order = list(sources) if round_number % 2 == 0 else list(sources)[::-1]
                for label in order:
                    rows[label].append(run_cli(sources[label], qrels, run, scratch / f"{len(rows[label])}.out"))
                    print(f"round {round_number + 1} {label}: {rows[label][-1]['wall']:.2f} s", file=sys.stderr)
                    os.replace(scratch / f"{len(rows[label]) - 1}.out", scratch / f"{label.replace('/', '_')}.last")
            if args.check:
                outputs = {label: (scratch / f"{label.replace('/', '_')}.last").read_bytes() for label in sources}
                if outputs[before_label] != outputs[after_label]:
                    print("outputs differ between the two revisions", file=sys.stderr)
                    return 1
                print("outputs identical (--check)", file=sys.stderr)
        finally:
            for path in sources.values():
                if path != REPOSITORY:
                    subprocess.run(["git", "-C", str(REPOSITORY), "worktree", "remove", "--force", str(path)],
                                   check=False)
    print(f"{len(next(iter(rows.values())))} interleaved rounds; {qrels} and {run}\n")
    print(table(rows, before_label, after_label))
    return 0


if __name__ == "__main__":
    sys.exit(main())
