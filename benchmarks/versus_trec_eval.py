"""rankviz's command line against the C trec_eval, as whole processes, on the same 5M-line run.

    python benchmarks/versus_trec_eval.py --trec-eval /path/to/trec_eval [--before 9a214d0] [--rounds 7]

trec_eval is not part of rankviz (do not commit its code): build it from its public source with
the optimisation a user's build would have,

    git clone https://github.com/usnistgov/trec_eval && cd trec_eval
    make CFLAGS='-O2 -I. -DVERSIONID=\\"10.0\\"'

and pass the binary as ``--trec-eval PATH`` or in the environment as ``TREC_EVAL``
(otherwise ``trec_eval`` on the PATH is used).

Without ``--qrels/--run`` the 5,000 x 1,000 collection of ``generate.py`` is used (generated
once into the git-ignored ``benchmarks/data/``; ``--sparse`` uses its MS MARCO-like variant with
~15 judgments per query, in ``benchmarks/data-sparse/``). Every round runs, as fresh processes and
in a rotating order (so that no tool always goes first on a machine whose speed drifts):
``trec_eval -c QRELS RUN``, ``python -m rankviz eval -c QRELS RUN`` from the working tree and,
with ``--before REV``, the same command from a temporary git worktree of that revision. Without
``-m`` both compute trec_eval's default measures; ``-c`` because trec_eval 10 stops on a judged
topic without run lines ("result qid ... not found in qrels"), which the collection has on
purpose (``--measure`` adds ``-m`` options, ``--no-complete`` drops ``-c``). Each process's wall
time, CPU time (user + system, all threads) and peak memory (``ru_maxrss``) come from
``os.wait4``. Every output is compared with trec_eval's, byte for byte. rankviz's modules are
byte-compiled first (``compileall``), as pip compiles an installed package.

The table (Markdown, on stdout) gives per tool the best and median wall time, the best CPU time,
the median and largest peak memory, and the ratios to trec_eval: best/best, median/median and
median peak memory; with ``--before``, a second table gives the working tree's ratios to that
revision. The machine's load average is printed before and after every round: on a
shared machine, compare the rounds measured together, not separate runs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from before_after import checkout, measure_process

BENCHMARKS = Path(__file__).resolve().parent
REPOSITORY = BENCHMARKS.parent
BUILD = "git clone https://github.com/usnistgov/trec_eval && cd trec_eval && make CFLAGS='-O2 -I. -DVERSIONID=\\\"10.0\\\"'"


def find_trec_eval(given: str | None) -> str:
    """The trec_eval binary: ``--trec-eval``, else $TREC_EVAL, else ``trec_eval`` on the PATH."""
    candidate = given or os.environ.get("TREC_EVAL") or shutil.which("trec_eval")
    if not candidate or not (os.path.isfile(candidate) and os.access(candidate, os.X_OK)):
        raise SystemExit(f"trec_eval not found (--trec-eval PATH or TREC_EVAL=PATH); build it with:\n  {BUILD}")
    return candidate


def collection(args) -> tuple[Path, Path]:
    """The qrels and run files: given, or generated once by generate.py."""
    if args.qrels is not None:
        return args.qrels, args.run
    data = BENCHMARKS / ("data-sparse" if args.sparse else "data")
    qrels, run = data / "qrels.txt", data / "run.txt"
    if not (qrels.exists() and run.exists()):
        subprocess.run([sys.executable, str(BENCHMARKS / "generate.py"), "--out", str(data)]
                       + (["--sparse"] if args.sparse else []), check=True)
    return qrels, run


def load() -> str:
    return "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def table(rows: dict[str, list[dict]], reference: str) -> str:
    """Best/median wall, best CPU, median/largest peak MB per tool, and the ratios to ``reference``."""
    def stat(label, key, how):
        return how([r[key] for r in rows[label]])

    header = ["best s", "median s", "best CPU s", "median peak MB", "largest peak MB",
              "best vs trec_eval", "median vs trec_eval", "CPU vs trec_eval", "memory vs trec_eval"]
    lines = ["| tool | " + " | ".join(header) + " |", "|---|" + "---:|" * len(header)]
    for label in rows:
        best, median = stat(label, "wall", min), stat(label, "wall", statistics.median)
        cpu, peak = stat(label, "cpu", min), stat(label, "peak_mb", statistics.median)
        ratios = [best / stat(reference, "wall", min), median / stat(reference, "wall", statistics.median),
                  cpu / stat(reference, "cpu", min), peak / stat(reference, "peak_mb", statistics.median)]
        lines.append(f"| {label} | {best:.2f} | {median:.2f} | {cpu:.2f} | {peak:,.0f} | "
                     f"{stat(label, 'peak_mb', max):,.0f} | " + " | ".join(f"{r:.2f}x" for r in ratios) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trec-eval", help="the trec_eval binary (default: $TREC_EVAL, then trec_eval on the PATH)")
    parser.add_argument("--before", help="also time the command line of this git revision (e.g. 9a214d0)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--qrels", type=Path, help="qrels file (default: generated benchmarks/data/qrels.txt)")
    parser.add_argument("--run", type=Path, help="run file (default: generated benchmarks/data/run.txt)")
    parser.add_argument("--sparse", action="store_true", help="generate.py's MS MARCO-like qrels (~15 judgments a query)")
    parser.add_argument("--measure", "-m", action="append", default=[], help="a -m option for both tools (repeatable)")
    parser.add_argument("--no-complete", dest="complete", action="store_false", help="do not pass -c")
    args = parser.parse_args(argv)
    if (args.qrels is None) != (args.run is None):
        parser.error("give both --qrels and --run, or neither")
    trec_eval = find_trec_eval(args.trec_eval)
    qrels, run = collection(args)
    options = (["-c"] if args.complete else []) + [f"-m{measure}" for measure in args.measure]
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        commands = {"trec_eval -O2": ([trec_eval, *options, str(qrels), str(run)], None)}
        sources = {"rankviz (working tree)": REPOSITORY}
        if args.before:
            sources[f"rankviz ({args.before})"] = checkout(args.before, scratch)
        for label, source in sources.items():
            commands[label] = ([sys.executable, "-m", "rankviz", "eval", *options, str(qrels), str(run)], source)
            # Bytecode, as an installed package has it (pip compiles at install): a checkout run
            # with PYTHONDONTWRITEBYTECODE set would compile every module on every start.
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(source / "rankviz")], check=True)
        rows = {label: [] for label in commands}
        try:
            for number in range(args.rounds):
                order = list(commands)[number % len(commands):] + list(commands)[:number % len(commands)]
                before = load()
                for label in order:
                    command, source = commands[label]
                    env = None if source is None else dict(os.environ, PYTHONPATH=str(source))
                    rows[label].append(measure_process(command, scratch / f"{len(rows[label]) % 2}-{label}.out",
                                                       cwd=source, env=env))
                print(f"round {number + 1}: load {before} -> {load()}; "
                      + ", ".join(f"{label} {rows[label][-1]['wall']:.2f} s" for label in order), file=sys.stderr)
                expected = (scratch / f"{number % 2}-trec_eval -O2.out").read_bytes()
                for label in sources:
                    same = (scratch / f"{number % 2}-{label}.out").read_bytes() == expected
                    if not same:
                        print(f"  {label}: output differs from trec_eval's", file=sys.stderr)
                        rows[label][-1]["differs"] = True
        finally:
            for path in sources.values():
                if path != REPOSITORY:
                    subprocess.run(["git", "-C", str(REPOSITORY), "worktree", "remove", "--force", str(path)],
                                   check=False)
    identical = [label for label in sources if not any(r.get("differs") for r in rows[label])]
    print(f"{args.rounds} interleaved rounds; {qrels} and {run}; options {' '.join(options) or '(none)'}; "
          f"outputs identical to trec_eval's: {', '.join(identical) or 'none'}\n")
    print(table(rows, "trec_eval -O2"))
    if args.before:
        print("\n" + versus_before(rows, "rankviz (working tree)", f"rankviz ({args.before})"))
    return 0 if len(identical) == len(sources) else 1


def versus_before(rows: dict[str, list[dict]], after: str, before: str) -> str:
    """The working tree's best and median wall time, best CPU time and median peak memory as
    ratios to the previous revision's."""
    def ratio(key, how):
        return how([r[key] for r in rows[after]]) / how([r[key] for r in rows[before]])

    return ("| working tree / " + before.split("(", 1)[1].rstrip(")") + " | best s | median s | best CPU s | median peak MB |\n"
            "|---|---:|---:|---:|---:|\n"
            f"| ratio | {ratio('wall', min):.2f}x | {ratio('wall', statistics.median):.2f}x | {ratio('cpu', min):.2f}x | "
            f"{ratio('peak_mb', statistics.median):.2f}x |")


if __name__ == "__main__":
    sys.exit(main())
