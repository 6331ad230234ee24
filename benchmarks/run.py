"""Time rankviz against pytrec_eval, ir_measures and ranx on the same TREC files, in one run.

    python benchmarks/run.py                       # 5,000 queries x 1,000 docs (generated once, cached)
    python benchmarks/run.py --queries 200 --docs 100 --repeat 3 --check
    python benchmarks/run.py --qrels my.qrels --run my.run --tools rankviz,pytrec_eval

The work is the issue's: read a qrels file and a run file, then compute P@10, R@100, AP, RR,
nDCG@10 and nDCG for every query and their means over the queries that are both judged and
retrieved (trec_eval's default, no ``-c``). Each tool runs in its own fresh Python process so
that its peak memory (``ru_maxrss`` of that child, read with ``os.wait4``) is its own, and the
process wall time includes interpreter start and imports, as a user running it would see. Inside
the process the worker times parsing (file -> the tool's own data structures) and computing
(data structures -> means) separately.

Each peer is used the way its documentation shows, with its own file readers:
``pytrec_eval.parse_qrel/parse_run`` + ``RelevanceEvaluator``; ``ir_measures.read_trec_*``
converted to the dict-of-dicts its pytrec_eval backend builds anyway + ``calc_aggregate``;
``ranx.Qrels/Run.from_file`` + ``ranx.evaluate(make_comparable=True)``. ranx compiles with numba
for the exact types it meets, so its worker does the whole work once untimed and then times a
second, warm pass; its process wall time includes both passes and is not comparable.

The timings are the best of ``--repeat`` runs (peak memory: the largest). ``--check`` also
verifies that every tool's means agree to 1e-4 (so the table compares equal work) and exits with
status 1 when they do not. The table is printed as Markdown on stdout; progress goes to stderr.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent
REPOSITORY = BENCHMARKS.parent
MEASURES = ("P@10", "R@100", "AP", "RR", "nDCG@10", "nDCG")
REFERENCE_TOOL = "pytrec_eval"  # the fastest peer: it wraps trec_eval's C code
AGREEMENT_TOLERANCE = 1e-4


# --- the workers: one function per tool, run inside a fresh process -----------------------------
# Each returns (parse_seconds, compute_seconds, means: {measure in MEASURES: float}) and imports
# its tool itself, so that the import is timed separately by the caller.


def _work_rankviz(qrels_path: str, run_path: str):
    from rankviz.evaluation.evaluator import evaluate
    from rankviz.evaluation.measures import parse_measure
    from rankviz.trec.readers import read_qrels_table, read_run_table

    start = time.perf_counter()
    # The *_table readers hand evaluate the keys their duplicate check computed (as the CLI does).
    qrels = read_qrels_table(qrels_path)
    run = read_run_table(run_path)
    parsed = time.perf_counter()
    result = evaluate(qrels, run, list(MEASURES))
    computed = time.perf_counter()
    # EvalResult.mean is indexed by str(measure); ask rankviz for that string rather than guess it.
    means = {name: float(result.mean[str(parse_measure(name))]) for name in MEASURES}
    return parsed - start, computed - parsed, means


PYTREC_EVAL_NAMES = {
    "P@10": ("P.10", "P_10"),
    "R@100": ("recall.100", "recall_100"),
    "AP": ("map", "map"),
    "RR": ("recip_rank", "recip_rank"),
    "nDCG@10": ("ndcg_cut.10", "ndcg_cut_10"),
    "nDCG": ("ndcg", "ndcg"),
}


def _work_pytrec_eval(qrels_path: str, run_path: str):
    import pytrec_eval

    start = time.perf_counter()
    with open(qrels_path) as qrels_file:
        qrels = pytrec_eval.parse_qrel(qrels_file)
    with open(run_path) as run_file:
        run = pytrec_eval.parse_run(run_file)
    parsed = time.perf_counter()
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {request for request, _ in PYTREC_EVAL_NAMES.values()})
    per_query = evaluator.evaluate(run)
    means = {
        name: sum(values[output] for values in per_query.values()) / len(per_query)
        for name, (_, output) in PYTREC_EVAL_NAMES.items()
    }
    computed = time.perf_counter()
    return parsed - start, computed - parsed, means


def _work_ir_measures(qrels_path: str, run_path: str):
    import ir_measures
    from ir_measures.util import QrelsConverter, RunConverter

    start = time.perf_counter()
    # calc_aggregate would build these dicts from the lazy readers itself; building them here
    # separates parsing from computing without adding work.
    qrels = QrelsConverter(ir_measures.read_trec_qrels(qrels_path)).as_dict_of_dict()
    run = RunConverter(ir_measures.read_trec_run(run_path)).as_dict_of_dict()
    parsed = time.perf_counter()
    measures = [ir_measures.parse_measure(name) for name in MEASURES]
    # ir_measures scores judged queries missing from the run as 0 (trec_eval -c); leave them out
    # of the mean, as trec_eval's default and the other tools do.
    totals = {measure: 0.0 for measure in measures}
    counts = {measure: 0 for measure in measures}
    for metric in ir_measures.iter_calc(measures, qrels, run):
        if metric.query_id in run:
            totals[metric.measure] += metric.value
            counts[metric.measure] += 1
    computed = time.perf_counter()
    return parsed - start, computed - parsed, {str(m): totals[m] / counts[m] for m in measures}


RANX_NAMES = {
    "P@10": "precision@10", "R@100": "recall@100", "AP": "map", "RR": "mrr", "nDCG@10": "ndcg@10", "nDCG": "ndcg",
}


def _ranx_pass(ranx, qrels_path: str, run_path: str):
    start = time.perf_counter()
    qrels = ranx.Qrels.from_file(qrels_path, kind="trec")
    run = ranx.Run.from_file(run_path, kind="trec")
    parsed = time.perf_counter()
    # ranx insists on identical query sets: make_comparable drops run-only queries and adds empty
    # rankings for judged queries missing from the run; those are left out of the mean below, as
    # trec_eval (without -c) and the other tools do.
    retrieved = set(run.keys())
    per_query = ranx.evaluate(qrels, run, list(RANX_NAMES.values()), return_mean=False, make_comparable=True)
    keep = [position for position, query_id in enumerate(run.get_query_ids()) if query_id in retrieved]
    means = {name: float(per_query[ranx_name][keep].mean()) for name, ranx_name in RANX_NAMES.items()}
    computed = time.perf_counter()
    return parsed - start, computed - parsed, means


def _work_ranx(qrels_path: str, run_path: str):
    import warnings

    import ranx

    warnings.simplefilter("ignore")  # numba's type-safety chatter on every compile
    # numba compiles ranx's kernels for the exact types it meets (docno string widths included),
    # so a warm-up on other data is not enough: run the same work once untimed, then time it.
    _ranx_pass(ranx, qrels_path, run_path)
    return _ranx_pass(ranx, qrels_path, run_path)


# What each worker imports before its clock starts: the modules its work uses, so that parse times
# do not include a lazy first import (rankviz loads pandas and pyarrow on first use).
IMPORTS = {
    "rankviz": ("rankviz.trec.readers", "rankviz.evaluation.evaluator", "rankviz.metrics.kernels"),
    "pytrec_eval": ("pytrec_eval",),
    "ir_measures": ("ir_measures", "pytrec_eval"),
    "ranx": ("ranx",),
}

WORKERS = {
    "rankviz": _work_rankviz,
    "pytrec_eval": _work_pytrec_eval,
    "ir_measures": _work_ir_measures,
    "ranx": _work_ranx,
}


def _worker_main(tool: str, qrels_path: str, run_path: str) -> None:
    """Entry point of a child process: time one tool, print one JSON line on stdout."""
    started = time.perf_counter()
    worker = WORKERS[tool]
    for module in IMPORTS[tool]:  # timed on their own
        importlib.import_module(module)
    imported = time.perf_counter()
    parse_seconds, compute_seconds, means = worker(qrels_path, run_path)
    report = {"import": imported - started, "parse": parse_seconds, "compute": compute_seconds, "means": means}
    print(json.dumps(report), flush=True)


# --- the parent: run the workers, collect times and memory, print the table ---------------------


def run_tool(tool: str, qrels_path: Path, run_path: Path) -> dict:
    """Run one tool in a fresh process; return its timings, means, wall time and peak RSS (MB)."""
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", tool, str(qrels_path), str(run_path)]
    python_path = os.pathsep.join(filter(None, [str(REPOSITORY), os.environ.get("PYTHONPATH")]))
    environment = dict(os.environ, PYTHONPATH=python_path)
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=environment, cwd=REPOSITORY)
    output = child.stdout.read()
    child.stdout.close()
    # os.wait4 gives this child's own resource usage, so each tool's peak memory is its own.
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0 or not output.strip():
        return {"tool": tool, "error": f"exit status {child.returncode}"}
    report = json.loads(output.strip().splitlines()[-1])
    report.update(tool=tool, wall=wall, cpu=usage.ru_utime + usage.ru_stime,
                  peak_mb=usage.ru_maxrss / 1024)  # ru_maxrss is in KiB on Linux
    return report


def best_of(reports: list[dict]) -> dict:
    """Combine repeated runs: the fastest time of each phase and the largest peak memory."""
    good = [report for report in reports if "error" not in report]
    if not good:
        return reports[0]
    combined = dict(good[0])
    for key in ("import", "parse", "compute", "wall", "cpu"):
        combined[key] = min(report[key] for report in good)
    combined["peak_mb"] = max(report["peak_mb"] for report in good)
    return combined


def markdown_table(results: dict[str, dict], reference: str | None) -> str:
    reference_result = results.get(reference) if reference else None
    if reference_result is not None and "error" in reference_result:
        reference_result = None
    header = ["tool", "import s", "parse s", "compute s", "parse+compute s", "process s", "process CPU s", "peak MB"]
    if reference_result:
        header += [f"parse+compute vs {reference}", f"process vs {reference}", f"CPU vs {reference}",
                   f"memory vs {reference}"]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|"]
    for tool, result in results.items():
        if "error" in result:
            lines.append(f"| {tool} | failed: {result['error']} |" + " |" * (len(header) - 2))
            continue
        cells = [
            tool,
            f"{result['import']:.2f}",
            f"{result['parse']:.2f}",
            f"{result['compute']:.2f}",
            f"{result['parse'] + result['compute']:.2f}",
            f"{result['wall']:.2f}",
            f"{result['cpu']:.2f}",
            f"{result['peak_mb']:,.0f}",
        ]
        if reference_result:
            reference_total = reference_result["parse"] + reference_result["compute"]
            cells += [
                f"{(result['parse'] + result['compute']) / reference_total:.2f}x",
                f"{result['wall'] / reference_result['wall']:.2f}x",
                f"{result['cpu'] / reference_result['cpu']:.2f}x",
                f"{result['peak_mb'] / reference_result['peak_mb']:.2f}x",
            ]
        lines.append("| " + " | ".join(cells) + " |")
    if "ranx" in results:
        lines.append("\nranx: times are a warm second pass; its process time includes the untimed first pass "
                     "(numba compilation).")
    lines.append("\nprocess CPU s: user + system time of the whole process (all its threads), less sensitive "
                 "to other load on the machine than wall times.")
    return "\n".join(lines)


def agreement(results: dict[str, dict]) -> tuple[str, bool]:
    """A Markdown table of every tool's means, and whether they all agree within the tolerance."""
    good = {tool: result["means"] for tool, result in results.items() if "error" not in result}
    lines = ["| measure | " + " | ".join(good) + " | max difference |", "|---|" + "---:|" * (len(good) + 1)]
    all_agree = True
    for name in MEASURES:
        values = [means[name] for means in good.values()]
        spread = max(values) - min(values) if values else 0.0
        all_agree &= spread <= AGREEMENT_TOLERANCE
        flag = "" if spread <= AGREEMENT_TOLERANCE else " **differs**"
        lines.append(f"| {name} | " + " | ".join(f"{value:.4f}" for value in values) + f" | {spread:.1e}{flag} |")
    return "\n".join(lines), all_agree


def ensure_data(queries: int, docs: int, seed: int) -> tuple[Path, Path]:
    """Generate the synthetic files once per (queries, docs, seed) and reuse them afterwards."""
    folder = BENCHMARKS / "data" / f"{queries}x{docs}-seed{seed}"
    qrels_path, run_path = folder / "qrels.txt", folder / "run.txt"
    if not (qrels_path.exists() and run_path.exists()):
        print(f"generating {folder} ...", file=sys.stderr, flush=True)
        subprocess.run(
            [sys.executable, str(BENCHMARKS / "generate.py"), "--queries", str(queries), "--docs", str(docs),
             "--seed", str(seed), "--out", str(folder)],
            check=True,
        )
    return qrels_path, run_path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog="See the module docstring for the method.")
    parser.add_argument("--queries", type=int, default=5000, help="generated run topics (default 5000)")
    parser.add_argument("--docs", type=int, default=1000, help="generated documents per topic (default 1000)")
    parser.add_argument("--seed", type=int, default=42, help="generator seed (default 42)")
    parser.add_argument("--qrels", type=Path, help="use this qrels file instead of generated data (with --run)")
    parser.add_argument("--run", type=Path, help="use this run file instead of generated data (with --qrels)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per tool; the best time is kept (default 1)")
    parser.add_argument("--tools", default=",".join(WORKERS), help=f"comma-separated subset of {','.join(WORKERS)}")
    parser.add_argument("--check", action="store_true", help="fail (exit 1) unless all tools' means agree to 1e-4")
    parser.add_argument("--worker", nargs=3, metavar=("TOOL", "QRELS", "RUN"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.worker:
        _worker_main(*args.worker)
        return 0
    tools = [tool.strip() for tool in args.tools.split(",") if tool.strip()]
    unknown = [tool for tool in tools if tool not in WORKERS]
    if unknown or args.repeat < 1 or (args.qrels is None) != (args.run is None):
        parser.error(f"--tools must name some of {', '.join(WORKERS)}; --repeat >= 1; --qrels and --run go together")
    if args.qrels:
        qrels_path, run_path = args.qrels.resolve(), args.run.resolve()
    else:
        qrels_path, run_path = ensure_data(args.queries, args.docs, args.seed)

    load_before = os.getloadavg()[0]
    reports: dict[str, list[dict]] = {tool: [] for tool in tools}
    for round_number in range(args.repeat):  # interleaved, so slow drifts of the machine hit every tool alike
        for tool in tools:
            print(f"[{round_number + 1}/{args.repeat}] {tool} ...", file=sys.stderr, flush=True)
            reports[tool].append(run_tool(tool, qrels_path, run_path))
    results = {tool: best_of(tool_reports) for tool, tool_reports in reports.items()}

    lines_in = sum(1 for _ in open(run_path, "rb")), sum(1 for _ in open(qrels_path, "rb"))
    print(f"{lines_in[0]:,} run lines, {lines_in[1]:,} judgments ({run_path.parent}); "
          f"measures {', '.join(MEASURES)}; best of {args.repeat}; Python {sys.version.split()[0]}, "
          f"{os.cpu_count()} CPUs, load average {load_before:.1f} before and {os.getloadavg()[0]:.1f} after "
          f"(timings are only comparable on an idle machine)\n")
    print(markdown_table(results, REFERENCE_TOOL if REFERENCE_TOOL in results else None))
    table, all_agree = agreement(results)
    print("\nMeans (queries both judged and retrieved):\n")
    print(table)
    if args.check and not all_agree:
        print(f"\nrun.py: the tools' means differ by more than {AGREEMENT_TOLERANCE}", file=sys.stderr)
        return 1
    return 0 if all("error" not in result for result in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
