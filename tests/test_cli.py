"""The command line (`python -m rankviz eval|compare`): trec_eval's output byte for byte, the
csv/json formats, the -m syntaxes, and one-line errors with file:line and exit status 2.

The expected outputs are trec_eval 10.0's own files in ../shared/conformance/trec_eval (see its
README for the command that produced each one); the command lines below are the same ones.
"""

from __future__ import annotations

import functools
import io
import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import rankviz
from rankviz.cli import main
from rankviz.evaluation.evaluator import evaluate
from rankviz.evaluation.measures import parse_measure

REPOSITORY = Path(__file__).resolve().parents[1]

# Lines where rankviz knowingly differs from trec_eval ({(file, measure, qid): reason}); one list,
# kept with the conformance tests (tests/test_conformance.py), which the CLI output must follow too.
from test_conformance import KNOWN_DIFFERENCES  # noqa: E402  (pytest puts tests/ on sys.path)


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    status = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


# --- trec_eval's expected outputs, byte for byte -------------------------------------------------

_TINY_QRELS = "1 0 a 2\n1 0 b 0\n1 0 c 1\n1 0 d -1\n2 0 a 1\n"
_TINY_RUN = "1 Q0 a 1 3 tiny\n1 Q0 b 2 2 tiny\n1 Q0 d 3 1 tiny\n2 Q0 b 1 1 tiny\n"


@functools.cache
def supported(trec_name: str) -> bool:
    """Whether rankviz.evaluate computes this trec_eval output name (tried on a tiny run)."""
    if trec_name in ("runid", "num_q"):  # filled in by the CLI itself
        return True
    try:
        measure = parse_measure(trec_name)
        qrels, run = rankviz.read_qrels(_TINY_QRELS), rankviz.read_run(_TINY_RUN)
        evaluate(qrels, run, [measure], per_query=True)
    except (ValueError, NotImplementedError, KeyError):
        return False
    return True


# (expected output, trec_eval's arguments): the README's commands.
MEAS_PARAMS = ["-q", "-m", "iprec_at_recall..10,.20,.25,.75,.50", "-m", "P.5,7,3", "-m", "recall.20,2000",
               "-m", "Rprec_mult.5.0,0.2,0.35", "-m", "utility.2,-1,0,0", "-m", "11pt_avg..25,.5,.75",
               "-m", "ndcg.1=3,2=9,4=4.5", "-m", "ndcg_cut.10,20,23.4", "-m", "success.2,5,20"]
EDGE = ["-q", "-c", "-m", "official", "-m", "relstring.10", "-m", "recall.1,3,5", "-m", "success.1,3", "-m", "ndcg",
        "-m", "dcg", "-m", "ideal_dcg", "-m", "ndcg_cut.1,3,5", "-m", "map_cut.3,5", "-m", "set_P", "-m", "set_recall",
        "-m", "set_F", "-m", "infAP", "-m", "yaap", "-m", "unj.1,3,5", "-m", "num_nonrel_judged_ret"]
CONFORMANCE = {
    "out.test": ["qrels.test", "results.test"],
    "out.test (with-comments)": ["qrels.test.with-comments", "results.test"],
    "out.comment.test": ["qrels.comment.test", "results.comment.test"],
    "out.test.a": ["-m", "all_trec", "qrels.test", "results.test"],
    "out.test.aq": ["-m", "all_trec", "-q", "qrels.test", "results.test"],
    "out.test.aqc": ["-m", "all_trec", "-q", "-c", "qrels.test", "results.trunc"],
    "out.test.aqcM": ["-m", "all_trec", "-q", "-c", "-M", "100", "qrels.test", "results.trunc"],
    "out.test.aql": ["-m", "all_trec", "-m", "relstring.20", "-q", "-l", "2", "qrels.rel_level", "results.test"],
    "out.test.meas_params": [*MEAS_PARAMS, "qrels.test", "results.test"],
    "generated/edge.out.qc": [*EDGE, "generated/edge.qrels", "generated/edge.run"],
    "generated/edge.out.qcl2": [*EDGE, "-l", "2", "generated/edge.qrels", "generated/edge.run"],
    "generated/edge.out.qc_expgain": ["-q", "-c", "-m", "ndcg.1=1,2=3,3=7", "-m", "ndcg_cut.3,5",
                                      "generated/edge.qrels", "generated/edge.run"],
    "generated/out.302.iprec": ["-q", "-m", "iprec_at_recall", "-m", "11pt_avg", "-m", "Rprec_mult", "-m", "map",
                                "qrels-302.test", "results-302.test"],
}


def _split_options(arguments: list[str]) -> tuple[list[str], list[str], list[str]]:
    """trec_eval's argument list -> (measure tokens, other options, files)."""
    measures, options, files = [], [], []
    items = iter(arguments)
    for item in items:
        if item == "-m":
            measures.append(next(items))
        elif item in ("-l", "-M"):
            options += [item, next(items)]
        elif item.startswith("-"):
            options.append(item)
        else:
            files.append(item)
    return measures, options, files


def _comparable(file_name: str):
    """Lines to compare: all but the known, documented differences from trec_eval."""

    def keep(line: str) -> bool:
        name, query_id, _ = line.split("\t")
        return (file_name, name.rstrip(), query_id) not in KNOWN_DIFFERENCES

    return keep


@pytest.mark.conformance
@pytest.mark.parametrize("expected_name", sorted(CONFORMANCE))
def test_trec_eval_command_lines_reproduce_their_output(capsys, conformance_dir, expected_name):
    """trec_eval's own command line, given to `rankviz eval`, prints trec_eval's bytes.

    Same flags, same -m syntax (sets, ``P.5,7,3``, ``ndcg.1=3,2=9,4=4.5``...), same files; every
    line must match except the few listed in tests/test_conformance.py's KNOWN_DIFFERENCES.
    """
    file_name = expected_name.split(" ")[0]
    arguments = [a if a.startswith("-") or not (conformance_dir / a).is_file() else str(conformance_dir / a)
                 for a in CONFORMANCE[expected_name]]
    status, out, err = run_cli(capsys, "eval", *arguments)
    assert (status, err) == (0, "")
    expected = (conformance_dir / file_name).read_text().splitlines(keepends=True)
    printed = out.splitlines(keepends=True)
    keep = _comparable(file_name)
    assert len(printed) == len(expected)
    assert [line for line in printed if keep(line)] == [line for line in expected if keep(line)]
    if all(keep(line) for line in expected):
        assert out == "".join(expected)  # no known difference here: the whole output, byte for byte


@pytest.mark.conformance
@pytest.mark.parametrize("expected_name", sorted(CONFORMANCE))
def test_supported_measures_reproduce_trec_eval_lines(capsys, conformance_dir, expected_name):
    """Each expected file, restricted to the measures rankviz supports, byte for byte.

    The measures are passed with -m by the names trec_eval printed (so output names and order
    are checked too); the lines of measures rankviz does not compute are left out of both sides.
    """
    expected_lines = (conformance_dir / expected_name.split(" ")[0]).read_text().splitlines(keepends=True)
    printed_names = list(dict.fromkeys(line.split("\t")[0].rstrip() for line in expected_lines))
    kept = [name for name in printed_names if supported(name)]
    # The measures must be among them, so that this test cannot pass vacuously.
    core = {"map", "P_10", "recip_rank", "num_rel_ret", "ndcg", "ndcg_cut_10", "recall_100"} & set(printed_names)
    assert core <= set(kept), f"not supported: {sorted(core - set(kept))}"
    _, options, files = _split_options(CONFORMANCE[expected_name])
    measure_options = [item for name in kept for item in ("-m", name)]
    status, out, err = run_cli(capsys, "eval", *options, *measure_options, *[conformance_dir / f for f in files])
    assert (status, err) == (0, "")
    file_name = expected_name.split(" ")[0]

    def comparable(line: str) -> bool:
        name, query_id, _ = line.split("\t")
        return name.rstrip() in kept and (file_name, name.rstrip(), query_id) not in KNOWN_DIFFERENCES

    wanted = [line for line in expected_lines if comparable(line)]
    printed = out.splitlines(keepends=True)
    assert [line for line in printed if comparable(line)] == wanted
    skipped = sum(not comparable(line) for line in expected_lines if line.split("\t")[0].rstrip() in kept)
    assert len(printed) == len(wanted) + skipped


V9 = "generated/trec_eval-9.0.8/"
V9_CASES = ["out.test", "out.test.a", "out.test.aq", "out.test.aqc", "out.test.aqcM", "out.test.aql",
            "out.test.meas_params"]


@pytest.mark.conformance
@pytest.mark.parametrize("expected_name", V9_CASES)
def test_trec_eval_9_outputs_with_the_version_flag(capsys, conformance_dir, expected_name):
    """--trec-eval-version 9 reproduces trec_eval 9.0.8's outputs (pytrec_eval's behaviour)."""
    file_name = V9 + expected_name
    arguments = [a if a.startswith("-") or not (conformance_dir / a).is_file() else str(conformance_dir / a)
                 for a in CONFORMANCE[expected_name]]
    status, out, err = run_cli(capsys, "eval", "--trec-eval-version", "9", *arguments)
    assert (status, err) == (0, "")
    expected = (conformance_dir / file_name).read_text().splitlines(keepends=True)
    keep = _comparable(file_name)
    printed = out.splitlines(keepends=True)
    assert len(printed) == len(expected)
    assert [line for line in printed if keep(line)] == [line for line in expected if keep(line)]


# --- formats -----------------------------------------------------------------------------------------


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


QRELS = "1 0 a 1\n1 0 b 0\n1 0 c 2\n2 0 x 1\n10 0 y 1\n"
# Query 1: a (rel 1) at rank 1, b (0), c (rel 2) at rank 3; ties broken by docno descending.
RUN_A = "1 Q0 a 1 3.0 runA\n1 Q0 b 2 2.0 runA\n1 Q0 c 3 1.0 runA\n2 Q0 z 1 1.0 runA\n10 Q0 y 1 1.0 runA\n"
RUN_B = "1 Q0 c 1 3.0 runB\n1 Q0 a 2 2.0 runB\n1 Q0 b 3 1.0 runB\n2 Q0 x 1 1.0 runB\n10 Q0 q 1 1.0 runB\n"


@pytest.fixture
def small_files(tmp_path):
    return _write(tmp_path, "qrels.txt", QRELS), _write(tmp_path, "a.run", RUN_A), _write(tmp_path, "b.run", RUN_B)


def test_trec_format_by_hand(capsys, small_files):
    qrels, run_a, _ = small_files
    status, out, _ = run_cli(capsys, "eval", "-q", "-m", "map", "-m", "num_rel_ret", qrels, run_a)
    assert status == 0
    # AP: q1 (1/1 + 2/3) / 2 = 0.8333, q2 0, q10 1; mean (0.8333 + 0 + 1) / 3 = 0.6111.
    # num_rel_ret: 2, 0, 1 -> all 3. Per-query blocks by qid as a string: "1" < "10" < "2".
    # trec_eval's order puts num_rel_ret before map.
    assert out == (
        "num_rel_ret           \t1\t2\n"
        "map                   \t1\t0.8333\n"
        "num_rel_ret           \t10\t1\n"
        "map                   \t10\t1.0000\n"
        "num_rel_ret           \t2\t0\n"
        "map                   \t2\t0.0000\n"
        "num_rel_ret           \tall\t3\n"
        "map                   \tall\t0.6111\n"
    )


def test_ir_measures_names_keep_their_spelling_and_order(capsys, small_files):
    qrels, run_a, _ = small_files
    status, out, _ = run_cli(capsys, "eval", "-m", "P@2", "-m", "AP", qrels, run_a)
    assert status == 0
    # P@2: q1 1/2, q2 0/2, q10 1/2 -> 1/3 = 0.3333; AP as above 0.6111.
    assert out == "P@2                   \tall\t0.3333\nAP                    \tall\t0.6111\n"


def test_trec_eval_parameter_syntax_expands_and_sorts_cutoffs(capsys, small_files):
    qrels, run_a, _ = small_files
    status, out, _ = run_cli(capsys, "eval", "-m", "P.3,1", qrels, run_a)
    assert status == 0
    # P_1: q1 1, q2 0, q10 1 -> 2/3; P_3: q1 2/3, q2 0, q10 1/3 -> 1/3.
    assert out == "P_1                   \tall\t0.6667\nP_3                   \tall\t0.3333\n"


def test_several_runs_get_one_block_each(capsys, small_files):
    qrels, run_a, run_b = small_files
    status, out, _ = run_cli(capsys, "eval", "-m", "runid", "-m", "recip_rank", qrels, run_a, run_b)
    assert status == 0
    # RR: runA q1 1, q2 0, q10 1 -> 0.6667; runB q1 1 (c rel 2), q2 1, q10 0 -> 0.6667.
    assert out == (
        f"# run: runA ({run_a})\n"
        "runid                 \tall\trunA\n"
        "recip_rank            \tall\t0.6667\n"
        f"# run: runB ({run_b})\n"
        "runid                 \tall\trunB\n"
        "recip_rank            \tall\t0.6667\n"
    )


def test_csv_format_parses_and_matches_trec_values(capsys, small_files):
    qrels, run_a, run_b = small_files
    status, out, _ = run_cli(capsys, "eval", "-q", "--format", "csv", "-m", "map", "-m", "num_ret", qrels, run_a, run_b)
    assert status == 0
    table = pd.read_csv(io.StringIO(out), dtype={"query_id": str, "run": str, "measure": str})
    assert list(table.columns) == ["run", "query_id", "measure", "value"]
    assert set(table["run"]) == {"runA", "runB"}
    assert set(table["query_id"]) == {"1", "2", "10", "all"}
    value = table.set_index(["run", "query_id", "measure"])["value"]
    assert value["runA", "all", "map"] == pytest.approx((1 / 1 + 2 / 3) / 2 / 3 + 1 / 3)
    assert value["runA", "all", "num_ret"] == 5
    # runB q1: c (2) at 1, a (1) at 2 -> AP (1 + 1) / 2 = 1; q2: x at 1 -> 1; q10: 0.
    assert value["runB", "all", "map"] == pytest.approx(2 / 3)


def test_json_format_parses(capsys, small_files):
    qrels, run_a, _ = small_files
    status, out, _ = run_cli(capsys, "eval", "-q", "--format", "json", "-m", "AP", "-m", "NumRet", qrels, run_a)
    assert status == 0
    document = json.loads(out)
    (entry,) = document["runs"]
    assert entry["run"] == "runA" and entry["file"] == str(run_a)
    assert entry["measures"] == ["AP", "NumRet"]
    assert entry["all"]["AP"] == pytest.approx((5 / 6 + 0 + 1) / 3)  # AP per query 5/6, 0, 1
    assert entry["all"]["NumRet"] == 5 and isinstance(entry["all"]["NumRet"], int)
    assert set(entry["per_query"]) == {"1", "2", "10"}
    assert entry["per_query"]["1"]["AP"] == pytest.approx(5 / 6)


def test_complete_flag_scores_missing_queries_as_zero(capsys, tmp_path):
    qrels = _write(tmp_path, "q", "1 0 a 1\n2 0 b 1\n")
    run = _write(tmp_path, "r", "1 Q0 a 1 1 r\n")
    _, without, _ = run_cli(capsys, "eval", "-m", "map", "-m", "num_q", qrels, run)
    _, with_c, _ = run_cli(capsys, "eval", "-c", "-m", "map", "-m", "num_q", qrels, run)
    # Without -c only query 1 counts (AP 1); with -c query 2 adds an AP of 0: (1 + 0) / 2.
    assert without == "num_q                 \tall\t1\nmap                   \tall\t1.0000\n"
    assert with_c == "num_q                 \tall\t2\nmap                   \tall\t0.5000\n"


# --- errors: one line on stderr, file:line, exit status 2, nothing on stdout ----------------------------


@pytest.mark.parametrize(
    ("which", "content", "line", "fragment"),
    [
        ("run", "1 Q0 a 1 3.0 r\n1 Q0 b 2 r\n", 2, "field"),  # wrong field count
        ("run", "1 Q0 a 1 3.0 r\n1 Q0 b 2 high r\n", 2, "score"),  # non-numeric score
        ("qrels", "1 0 a 1\n1 0 b 1\n1 0 c yes\n", 3, "rel"),  # non-numeric grade
        ("qrels", "1 0 a 1\n1 0 a 0\n", 2, "a"),  # duplicate docno in a query
    ],
)
def test_malformed_line_names_file_and_line(capsys, tmp_path, which, content, line, fragment):
    files = {"qrels": _write(tmp_path, "good.qrels", QRELS), "run": _write(tmp_path, "good.run", RUN_A)}
    files[which] = _write(tmp_path, f"bad.{which}", content)
    status, out, err = run_cli(capsys, "eval", files["qrels"], files["run"])
    assert (status, out) == (2, "")
    assert err.count("\n") == 1
    assert err.startswith(f"rankviz: error: {files[which]}:{line}: ")
    assert fragment in err.split(f":{line}: ", 1)[1]


@pytest.mark.parametrize(
    ("content", "fragment"),
    [(b"", "empty"), (b"\x00\x01\x02\xff\xfe binary \x00", "binary")],
)
def test_empty_or_binary_file_is_one_clear_error(capsys, tmp_path, content, fragment):
    run = tmp_path / "weird.run"
    run.write_bytes(content)
    status, out, err = run_cli(capsys, "eval", _write(tmp_path, "q", QRELS), run)
    assert (status, out) == (2, "")
    assert err.startswith(f"rankviz: error: {run}") and err.count("\n") == 1
    assert fragment in err.lower()


def test_missing_file(capsys, tmp_path):
    status, out, err = run_cli(capsys, "eval", tmp_path / "nope.qrels", tmp_path / "nope.run")
    assert (status, out) == (2, "")
    assert err == f"rankviz: error: {tmp_path / 'nope.qrels'}: no such file\n"


def test_unknown_measure_lists_close_matches(capsys, small_files):
    qrels, run_a, _ = small_files
    status, out, err = run_cli(capsys, "eval", "-m", "nDGC@10", qrels, run_a)
    assert (status, out) == (2, "")
    assert err.startswith("rankviz: error: ") and err.count("\n") == 1
    assert "nDGC" in err and "nDCG" in err


def test_no_progress_output_when_stderr_is_not_a_terminal(capsys, small_files):
    qrels, run_a, _ = small_files
    status, _, err = run_cli(capsys, "eval", qrels, run_a)
    assert (status, err) == (0, "")


def test_progress_is_written_to_a_terminal():
    from rankviz.cli import Progress

    class FakeTerminal(io.StringIO):
        def isatty(self):
            return True

    terminal = FakeTerminal()
    progress = Progress(terminal)
    progress.step("reading run 1/2")
    progress.done()
    assert "reading run 1/2" in terminal.getvalue() and terminal.getvalue().endswith("\r\033[K")


# --- compare ----------------------------------------------------------------------------------------


def test_compare_prints_a_table_with_both_runs(capsys, small_files):
    qrels, run_a, run_b = small_files
    status, out, err = run_cli(capsys, "compare", "-m", "AP", "--test", "t", qrels, run_a, run_b)
    assert (status, err) == (0, "")
    assert "runA" in out and "runB" in out


def test_compare_latex(capsys, small_files):
    qrels, run_a, run_b = small_files
    status, out, _ = run_cli(capsys, "compare", "-m", "AP", "--latex", "--correction", "none", qrels, run_a, run_b)
    assert status == 0
    assert "\\begin{tabular}" in out or "\\begin{table}" in out


def test_compare_needs_two_runs(capsys, small_files):
    qrels, run_a, _ = small_files
    with pytest.raises(SystemExit) as exit_info:
        main(["compare", str(qrels), str(run_a)])
    assert exit_info.value.code == 2
    assert "at least two runs" in capsys.readouterr().err


# --- the module entry point --------------------------------------------------------------------------


def test_list_measures_prints_every_measure_of_the_registry(capsys):
    from rankviz.evaluation.measures import FAMILIES, NAMED_SETS

    with pytest.raises(SystemExit) as exit_info:
        main(["eval", "--list-measures"])  # no QRELS or RUN needed, as with --version
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line for line in out.splitlines()[2:2 + len(FAMILIES)]}
    assert [name.split("@")[0].split("[")[0] for name in rows] == [f.measure for f in FAMILIES]
    assert rows["nDCG[@k]"].split()[1:5] == ["ndcg,", "ndcg_cut_k", "mean", "gain"]
    assert rows["P@k"].split()[1:4] == ["P_k", "mean", "rel"]
    assert rows["utility"].split()[1:4] == ["utility", "mean", "rel,a,b,c,d"]
    assert rows["ERR[@k]"].split()[1] == "-"  # not a trec_eval measure
    for name in NAMED_SETS:
        assert f"  {name:<10}" in out


def test_python_dash_m_help_works():
    completed = subprocess.run(
        [sys.executable, "-m", "rankviz", "--help"], capture_output=True, text=True, cwd=REPOSITORY, timeout=60
    )
    assert completed.returncode == 0, completed.stderr
    assert "usage: rankviz" in completed.stdout and "eval" in completed.stdout and "compare" in completed.stdout
    eval_help = subprocess.run([sys.executable, "-m", "rankviz", "eval", "--help"], capture_output=True, text=True,
                               cwd=REPOSITORY, timeout=60)
    assert eval_help.returncode == 0 and "--list-measures" in eval_help.stdout


def test_python_dash_m_reports_errors_without_traceback(tmp_path):
    bad = _write(tmp_path, "bad.qrels", "1 0 a 1\n1 0 b\n")
    run = _write(tmp_path, "a.run", RUN_A)
    completed = subprocess.run(
        [sys.executable, "-m", "rankviz", "eval", str(bad), str(run)],
        capture_output=True, text=True, cwd=REPOSITORY, timeout=60,
    )
    assert completed.returncode == 2
    assert completed.stdout == ""
    assert completed.stderr.startswith(f"rankviz: error: {bad}:2: ") and "Traceback" not in completed.stderr


# --- issue 20, item 12: what a command-line user reads ---------------------------------------------


@pytest.mark.parametrize(("asked", "printed"), [
    (["-m", "ndcg_cut.10"], ["ndcg_cut_10"]),
    (["-m", "ndcg_cut_10"], ["ndcg_cut_10"]),
    # Beside a rankviz name, each keeps the name it was asked by (before: nDCG@10 and AP for both).
    (["-m", "ndcg_cut_10", "-m", "AP"], ["ndcg_cut_10", "AP"]),
    (["-m", "nDCG@10", "-m", "map", "-m", "P.5"], ["nDCG@10", "map", "P_5"]),
    # Mixed families keep the order given (a dotted -m came last before).
    (["-m", "ndcg_cut.10", "-m", "ndcg_cut_20", "-m", "AP", "-m", "P.5"], ["ndcg_cut_10", "ndcg_cut_20", "AP", "P_5"]),
])
def test_each_measure_is_printed_under_the_name_it_was_asked_by(capsys, small_files, asked, printed):
    qrels, run_a, _ = small_files
    for output in ("trec", "csv"):
        status, out, err = run_cli(capsys, "eval", *asked, "--format", output, qrels, run_a)
        assert (status, err) == (0, "")
        lines = out.splitlines()[1:] if output == "csv" else out.splitlines()
        names = [line.split("," if output == "csv" else "\t")[2 if output == "csv" else 0].strip() for line in lines]
        assert names == printed, out


def test_a_run_given_as_the_qrels_is_told_in_command_line_words(capsys, small_files):
    qrels, run_a, _ = small_files
    status, out, err = run_cli(capsys, "eval", run_a, qrels)
    assert (status, out) == (2, "")
    assert err.startswith(f"rankviz: error: {run_a}:1: expected 4 fields") and err.count("\n") == 1
    assert "this looks like a run line: the qrels come first: rankviz eval QRELS RUN" in err
    assert "read_run" not in err and "read_qrels" not in err  # Python words, for Python callers only


def _python_without_dask(tmp_path) -> dict:
    """An environment whose interpreter cannot import dask or distributed, as without the [dask]
    extra: a sitecustomize on PYTHONPATH puts a finder first that refuses them."""
    shim = tmp_path / "no_dask"
    shim.mkdir()
    (shim / "sitecustomize.py").write_text(
        "import sys\n"
        "class _NoDask:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('dask', 'distributed'):\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
        "sys.meta_path.insert(0, _NoDask())\n")
    import os

    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(shim), str(REPOSITORY)])}


def test_the_dask_engine_without_the_extra_is_a_one_line_error(tmp_path, small_files):
    qrels, run_a, _ = small_files
    env = _python_without_dask(tmp_path)
    probe = subprocess.run([sys.executable, "-c", "import dask"], env=env, capture_output=True, text=True, timeout=60)
    assert probe.returncode != 0 and "No module named 'dask'" in probe.stderr  # the shim works
    log = tmp_path / "clicks.csv"
    log.write_text("group,label,score\ns1,1,0.9\ns1,0,0.2\n")
    for argv in (["eval", qrels, run_a, "--engine", "dask"], ["clicks", log, "--engine", "dask"]):
        completed = subprocess.run([sys.executable, "-m", "rankviz", *map(str, argv)], env=env, cwd=tmp_path,
                                   capture_output=True, text=True, timeout=120)
        assert completed.returncode == 2, completed.stderr
        assert completed.stdout == "" and "Traceback" not in completed.stderr
        assert completed.stderr == ('rankviz: error: --engine dask: the Dask engine needs dask and distributed: '
                                    'pip install "rankviz[dask]"\n')
