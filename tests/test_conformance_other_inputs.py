"""trec_eval's other inputs reproduced line by line: preferences (-R prefs, -R qrels_prefs),
judgment groups (-R qrels_jg) and z-scores (-Z).

The expected outputs are trec_eval 10.0's own (``test/`` of usnistgov/trec_eval at v10.0, kept in
``../shared/conformance/trec_eval``; its README.md gives the command line of each file). Every
line is checked through :func:`rankviz.evaluate` (per query and ``all``, counts exactly, values to
the 4 printed decimals), and ``python -m rankviz eval`` with trec_eval's flags must print the
file byte for byte.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path

import pytest

from rankviz.cli import main
from rankviz.evaluation.evaluator import evaluate
from rankviz.evaluation.measures import parse_measure, parse_measures

pytestmark = pytest.mark.conformance

# (expected output, relevance file, run, evaluate() options, trec_eval's command-line flags)
CASES = [
    ("out.test.prefs", "prefs.test", "prefs.results.test", {"qrels_format": "prefs"},
     ["-m", "all_prefs", "-q", "-R", "prefs"]),
    ("out.test.prefs", "prefs.comment.test", "prefs.results.test", {"qrels_format": "prefs"},
     ["-m", "all_prefs", "-q", "-R", "prefs"]),
    ("out.test.qrels_prefs", "qrels.test", "results.test", {"qrels_format": "qrels_prefs"},
     ["-m", "all_prefs", "-q", "-R", "qrels_prefs"]),
    ("out.test.qrels_jg", "qrels.123", "results.test", {"qrels_format": "qrels_jg"},
     ["-m", "qrels_jg", "-q", "-R", "qrels_jg"]),
    ("out.test.qrels_jg", "qrels.comments.123", "results.test", {"qrels_format": "qrels_jg"},
     ["-m", "qrels_jg", "-q", "-R", "qrels_jg"]),
    ("out.test.aqZ", "qrels.test", "results.test", {"zscores": "zscores_file"},
     ["-q", "-m", "all_trec", "-Z", "zscores_file"]),
]


def _case_id(case) -> str:
    return f"{case[0]}[{case[1]}]"


def _trec_name(printed: str, zscores: bool) -> str:
    """The measure of a printed name: with -Z, numbers' names carry a leading Z."""
    return printed[1:] if zscores and printed.startswith("Z") else printed


def read_expected(path: Path) -> list[tuple[str, str, str]]:
    lines = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        fields = line.split("\t")
        assert len(fields) == 3, f"{path.name}:{number}: expected 3 TAB-separated fields, got {line!r}"
        lines.append((fields[0].strip(), fields[1], fields[2]))
    return lines


@functools.lru_cache(maxsize=None)
def _evaluate(folder: str, relevance: str, run: str, options: tuple, names: tuple):
    options = dict(options)
    if "zscores" in options:
        options["zscores"] = Path(folder) / options["zscores"]
    measures = [parse_measure(name) for name in names if name != "runid"]
    return evaluate(Path(folder) / relevance, Path(folder) / run, measures, per_query=True, **options)


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_every_line_matches_trec_eval(conformance_dir, case):
    name, relevance, run, options, _ = case
    zscores = "zscores" in options
    expected = read_expected(conformance_dir / name)
    names = tuple(dict.fromkeys(_trec_name(n, zscores) for n, _, _ in expected))
    result = _evaluate(str(conformance_dir), relevance, run, tuple(sorted(options.items())), names)
    mismatches = []
    for printed, qid, value in expected:
        measure_name = _trec_name(printed, zscores)
        if measure_name == "runid":
            if result.run_name != value:
                mismatches.append(f"runid: expected {value!r}, got {result.run_name!r}")
            continue
        measure = parse_measure(measure_name)
        column = str(measure)
        got = result.mean.get(column) if qid == "all" else result.per_query.at[qid, column]
        if measure.name == "relstring":
            ok = value == f"'{got}'"
        elif measure.is_count and not zscores:
            ok = float(got) == float(value)
        else:
            ok = math.isclose(float(got), float(value), rel_tol=0, abs_tol=5e-5)
        if not ok:
            mismatches.append(f"{printed} {qid}: expected {value}, got {got!r}")
    assert not mismatches, f"{len(mismatches)} of {len(expected)} lines differ:\n" + "\n".join(mismatches[:50])


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_per_query_rows_are_the_topics_trec_eval_printed(conformance_dir, case):
    name, relevance, run, options, _ = case
    zscores = "zscores" in options
    expected = read_expected(conformance_dir / name)
    names = tuple(dict.fromkeys(_trec_name(n, zscores) for n, _, _ in expected))
    result = _evaluate(str(conformance_dir), relevance, run, tuple(sorted(options.items())), names)
    assert list(result.per_query.index) == sorted({qid for _, qid, _ in expected if qid != "all"})


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_the_command_line_prints_trec_eval_s_file_byte_for_byte(conformance_dir, case, capsys):
    name, relevance, run, _, flags = case
    flags = [str(conformance_dir / f) if f == "zscores_file" else f for f in flags]
    assert main(["eval", *flags, str(conformance_dir / relevance), str(conformance_dir / run)]) == 0
    assert capsys.readouterr().out == (conformance_dir / name).read_text()


@pytest.mark.parametrize("case", CASES[::2] + CASES[3:4], ids=_case_id)
def test_command_line_sets_name_exactly_the_printed_measures(conformance_dir, case):
    name, _, _, options, flags = case
    zscores = "zscores" in options
    printed = {_trec_name(n, zscores) for n, _, _ in read_expected(conformance_dir / name)}
    specs = [flags[i + 1] for i, flag in enumerate(flags) if flag == "-m"]
    assert {m.trec_name for m in parse_measures(specs)} == printed


def test_without_m_each_format_prints_its_own_set(conformance_dir, capsys):
    """trec_eval's default (official) cannot be computed from preferences; rankviz defaults to the
    format's set: "prefs" for -R prefs, "qrels_jg" for -R qrels_jg."""
    d = conformance_dir
    assert main(["eval", "-R", "prefs", str(d / "prefs.test"), str(d / "prefs.results.test")]) == 0
    names = [line.split("\t")[0].strip() for line in capsys.readouterr().out.splitlines()]
    assert names == [m.trec_name for m in parse_measures("prefs")]
    assert main(["eval", "-R", "qrels_jg", str(d / "qrels.123"), str(d / "results.test")]) == 0
    names = [line.split("\t")[0].strip() for line in capsys.readouterr().out.splitlines()]
    assert names == [m.trec_name for m in parse_measures("qrels_jg")]
