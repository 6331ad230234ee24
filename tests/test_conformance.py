"""rankviz.evaluate reproduces trec_eval's own expected outputs, line by line.

The data is trec_eval's ``test/`` folder (v10.0) plus fixtures generated with trec_eval 10.0
and 9.0.8 binaries, kept in ``../shared/conformance/trec_eval`` (see its README.md). Every line
of every expected output below is checked: per query and ``all``, to the 4 printed decimals
(|difference| <= 5e-5), counts exactly, ``runid`` and ``relstring`` as strings. The measures
evaluated are parsed from the names trec_eval printed, so parsing is under test too, and the
command-line measure specs of each file are checked to name exactly those measures.

Where trec_eval 10.0 and 9.x differ (interpolated precision's rounding of x * R), rankviz
defaults to 10.0; the 9.0.8 files are checked with ``trec_eval_version="9"``.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path

import pytest

from rankviz.evaluation.evaluator import evaluate
from rankviz.evaluation.measures import parse_measure, parse_measures

pytestmark = pytest.mark.conformance

V9 = "generated/trec_eval-9.0.8/"

# (expected output, qrels, run, evaluate() options, the -m specs of its command line)
CASES = [
    ("out.test", "qrels.test", "results.test", {}, ["official"]),
    ("out.test", "qrels.test.with-comments", "results.test", {}, ["official"]),
    ("out.test.a", "qrels.test", "results.test", {}, ["all_trec"]),
    ("out.test.aq", "qrels.test", "results.test", {}, ["all_trec"]),
    ("out.test.aqc", "qrels.test", "results.trunc", {"complete": True}, ["all_trec"]),
    ("out.test.aqcM", "qrels.test", "results.trunc", {"complete": True, "depth": 100}, ["all_trec"]),
    ("out.test.aql", "qrels.rel_level", "results.test", {"rel_threshold": 2}, ["all_trec", "relstring.20"]),
    ("out.test.meas_params", "qrels.test", "results.test", {},
     ["iprec_at_recall..10,.20,.25,.75,.50", "P.5,7,3", "recall.20,2000", "Rprec_mult.5.0,0.2,0.35",
      "utility.2,-1,0,0", "11pt_avg..25,.5,.75", "ndcg.1=3,2=9,4=4.5", "ndcg_cut.10,20,23.4", "success.2,5,20"]),
    ("out.comment.test", "qrels.comment.test", "results.comment.test", {}, ["official"]),
    ("generated/edge.out.qc", "generated/edge.qrels", "generated/edge.run", {"complete": True},
     ["official", "relstring.10", "recall.1,3,5", "success.1,3", "ndcg", "dcg", "ideal_dcg", "ndcg_cut.1,3,5",
      "map_cut.3,5", "set_P", "set_recall", "set_F", "infAP", "yaap", "unj.1,3,5", "num_nonrel_judged_ret"]),
    ("generated/edge.out.qcl2", "generated/edge.qrels", "generated/edge.run", {"complete": True, "rel_threshold": 2},
     ["official", "relstring.10", "recall.1,3,5", "success.1,3", "ndcg", "dcg", "ideal_dcg", "ndcg_cut.1,3,5",
      "map_cut.3,5", "set_P", "set_recall", "set_F", "infAP", "yaap", "unj.1,3,5", "num_nonrel_judged_ret"]),
    ("generated/edge.out.qc_expgain", "generated/edge.qrels", "generated/edge.run", {"complete": True},
     ["ndcg.1=1,2=3,3=7", "ndcg_cut.3,5"]),
    ("generated/out.302.iprec", "qrels-302.test", "results-302.test", {},
     ["iprec_at_recall", "11pt_avg", "Rprec_mult", "map"]),
]
# trec_eval 9.0.8 (pytrec_eval's behaviour): same commands, trec_eval_version="9". Its all_trec
# has no unj/rbp, and with -c it prints no lines for the topic missing from the run.
CASES += [
    (V9 + name, qrels, run, {**options, "trec_eval_version": "9"}, specs)
    for name, qrels, run, options, specs in CASES[:8]
    if name != "out.test" or qrels == "qrels.test"
]

# Output files whose measures rankviz does not implement (optional in issue 3): none left.
UNSUPPORTED_FILES: dict[str, str] = {}
# Output files of trec_eval's other inputs, checked line by line in tests/test_conformance_other_inputs.py.
OTHER_INPUT_FILES = {
    "out.test.prefs": "-R prefs",
    "out.test.qrels_prefs": "-R qrels_prefs",
    "out.test.qrels_jg": "-R qrels_jg",
    "out.test.aqZ": "-Z zscores_file",
}

# Lines where rankviz knowingly differs from trec_eval, with the reason.
KNOWN_DIFFERENCES = {
    ("generated/edge.out.qc", "relstring_10", "T3"):
        "trec_eval 10.0 prints '-' for topic T3, missing from the run under -c, although it retrieved "
        "nothing (num_ret 0, unj 0); rankviz prints '' as trec_eval does for topic 302 in out.test.aqc",
    ("generated/edge.out.qcl2", "relstring_10", "T3"):
        "same artifact as in edge.out.qc",
    ("generated/edge.out.qcl2", "num_rel", "all"):
        "trec_eval 10.0 with -c -l2 prints num_rel all = 9 (the count at -l1) while its own per-query "
        "num_rel lines (3, 0, 1, 0, 0) sum to 4; rankviz prints the sum of its per-query values, 4",
}


def _case_id(case) -> str:
    name, qrels, _, options, _ = case
    flags = ",".join(f"{k}={v}" for k, v in options.items())
    return f"{name}[{qrels}{';' + flags if flags else ''}]"


def read_expected(path: Path) -> list[tuple[str, str, str]]:
    """(measure name, qid, value text) per line of a trec_eval output (name padded, TAB separated)."""
    lines = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        fields = line.split("\t")
        assert len(fields) == 3, f"{path.name}:{number}: expected 3 TAB-separated fields, got {line!r}"
        lines.append((fields[0].strip(), fields[1], fields[2]))
    return lines


@functools.lru_cache(maxsize=None)
def _evaluate(folder: str, qrels: str, run: str, options: tuple, names: tuple):
    measures = [parse_measure(name) for name in names if name != "runid"]
    return evaluate(Path(folder) / qrels, Path(folder) / run, measures, per_query=True, **dict(options))


def _compare(expected_value: str, measure, got) -> bool:
    if measure.name == "relstring":
        return expected_value == f"'{got}'"
    if measure.is_count:
        return float(got) == float(expected_value)
    return math.isclose(float(got), float(expected_value), rel_tol=0, abs_tol=5e-5)


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_every_line_matches_trec_eval(conformance_dir, case):
    name, qrels, run, options, _ = case
    expected = read_expected(conformance_dir / name)
    names = tuple(dict.fromkeys(n for n, _, _ in expected))
    result = _evaluate(str(conformance_dir), qrels, run, tuple(sorted(options.items())), names)
    columns = {parse_measure(n).trec_name: str(parse_measure(n)) for n in names if n != "runid"}

    mismatches, checked, known = [], 0, 0
    for measure_name, qid, value in expected:
        if (name, measure_name, qid) in KNOWN_DIFFERENCES:
            known += 1
            continue
        checked += 1
        if measure_name == "runid":
            if result.run_name != value:
                mismatches.append(f"runid: expected {value!r}, got {result.run_name!r}")
            continue
        measure = parse_measure(measure_name)
        column = columns[measure_name]
        if qid == "all":
            got = result.mean.get(column)
        elif qid in result.per_query.index:
            got = result.per_query.at[qid, column]
        else:
            got = None
        if got is None:
            mismatches.append(f"{measure_name} {qid}: expected {value}, rankviz has no value")
        elif not _compare(value, measure, got):
            mismatches.append(f"{measure_name} {qid}: expected {value}, got {got!r}")
    assert not mismatches, f"{len(mismatches)} of {checked} lines differ:\n" + "\n".join(mismatches[:50])
    assert checked + known == len(expected)


SUMMARY_ONLY = {"out.test", "out.test.a", "out.comment.test"}  # run without -q


@pytest.mark.parametrize(
    "case", [c for c in CASES if not c[0].startswith(V9) and c[0] not in SUMMARY_ONLY], ids=_case_id
)
def test_per_query_rows_are_the_topics_trec_eval_printed(conformance_dir, case):
    """trec_eval 10.0 prints one block per evaluated topic (with -c, also those missing from the run)."""
    name, qrels, run, options, _ = case
    expected = read_expected(conformance_dir / name)
    topics = sorted({qid for _, qid, _ in expected if qid != "all"})
    names = tuple(dict.fromkeys(n for n, _, _ in expected))
    result = _evaluate(str(conformance_dir), qrels, run, tuple(sorted(options.items())), names)
    assert list(result.per_query.index) == topics  # same topics, in string order


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_command_line_specs_name_exactly_the_printed_measures(conformance_dir, case):
    """parse_measures(the -m arguments) gives the measures trec_eval printed, no more, no fewer."""
    name, _, _, _, specs = case
    expected = read_expected(conformance_dir / name)
    printed = {n for n, _, _ in expected}
    parsed = parse_measures(specs)
    if all(qid == "all" for _, qid, _ in expected):
        # Without -q, measures with no summary value (relstring) print nothing.
        parsed = [m for m in parsed if m.aggregate != "none" or m.name == "runid"]
    if name.startswith(V9) and "all_trec" in specs:
        # trec_eval 9's all_trec has no unj, rbp, rbp_resid (added in 10.0).
        parsed = [m for m in parsed if m.name not in ("unj", "rbp", "rbp_resid")]
    if any(s.startswith("relstring") for s in specs):
        # -m relstring.20 on top of all_trec: trec_eval keeps only the last relstring parameters.
        relstrings = [m for m in parsed if m.name == "relstring"]
        parsed = [m for m in parsed if m.name != "relstring"] + relstrings[-1:]
    assert {m.trec_name for m in parsed} == printed


def test_unsupported_outputs_are_the_optional_ones(conformance_dir):
    """Every out.* file is either checked above or listed, with its reason, as unsupported."""
    checked = {c[0] for c in CASES} | set(OTHER_INPUT_FILES)
    present = {p.name for p in conformance_dir.glob("out.*")}
    assert present - checked == set(UNSUPPORTED_FILES)
