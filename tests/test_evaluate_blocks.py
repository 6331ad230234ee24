"""A big run file is evaluated a block of whole queries at a time (issue 25): the numbers are
those of the whole run evaluated at once, digit for digit, whatever the blocks, the order of
the run's lines and the options; a docno listed twice is named with file:line as read_run
names it, whichever blocks hold the two lines.

The blocks are made tiny here (a few hundred bytes of text parsed at a time, blocks of a few
queries, every file "big") so that small files cut queries across pyarrow's batches and across
blocks; the whole-run reference is evaluate on DataFrames of the same lines."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from rankviz import cli
from rankviz.evaluation import ranking
from rankviz.evaluation.evaluator import evaluate, evaluate_values
from rankviz.trec import readers
from rankviz.trec.formats import TrecFormatError
from rankviz.trec.readers import read_qrels, read_run

MEASURES = "all_trec"  # every trec_eval measure: cutoffs, ties, -1 grades, gm_map's floor...


@pytest.fixture
def tiny_blocks(monkeypatch):
    """Every run file streamed, 512 bytes of text parsed at a time, blocks of ~2 KB of lines;
    the number of blocks each evaluation ran is recorded."""
    monkeypatch.setattr(readers, "_LARGE_FILE", 0)
    monkeypatch.setattr(readers, "_READ_BLOCK", 512)
    monkeypatch.setattr(readers, "RUN_BLOCK_BYTES", 2048)
    seen = {"blocks": 0, "bucketed": 0}
    prepare_block, bucketed = ranking.prepare_block, readers.RunStream._bucketed_blocks

    def count_block(*args, **kwargs):
        seen["blocks"] += 1
        return prepare_block(*args, **kwargs)

    def count_bucketed(self, *args):
        seen["bucketed"] += 1
        return bucketed(self, *args)

    monkeypatch.setattr(ranking, "prepare_block", count_block)
    monkeypatch.setattr(readers.RunStream, "_bucketed_blocks", count_bucketed)
    return seen


def collection(seed: int = 5, n_queries: int = 30):
    """qrels and run lines with what makes evaluation tools differ: tied scores (one decimal),
    -1 grades, run-only and qrels-only queries, numeric query ids (string order is not numeric
    order), docnos of several widths, a query without relevant documents."""
    rng = np.random.default_rng(seed)
    qrels, run = [], []
    for q in range(n_queries):
        docs = [f"d{i}" for i in rng.permutation(120)]  # d0..d119: 2 to 4 characters
        if q % 7 != 3:  # run only otherwise
            grades = rng.choice([-1, 0, 0, 1, 1, 2, 3], size=int(rng.integers(1, 40)))
            if q % 11 == 5:
                grades = np.minimum(grades, 0)
            qrels += [(str(q), d, int(g)) for d, g in zip(docs, grades)]
        if q % 9 != 2:  # qrels only otherwise
            n = int(rng.integers(1, 90))
            scores = np.sort(np.round(rng.normal(size=n), 1))[::-1]
            run += [(str(q), d, float(s)) for d, s in zip(rng.choice(docs, size=n, replace=False), scores)]
    return (pd.DataFrame(qrels, columns=["query_id", "doc_id", "relevance"]),
            pd.DataFrame(run, columns=["query_id", "doc_id", "score"]))


def ordered(run: pd.DataFrame, order: str) -> pd.DataFrame:
    """The run's lines grouped by query best first (as run files are), grouped but each query's
    lines shuffled, queries interleaved (a query's lines in two places), or shuffled."""
    rng = np.random.default_rng(1)
    if order == "grouped":
        return run
    if order == "grouped, lines shuffled":
        return run.groupby("query_id", sort=False, group_keys=False).sample(frac=1.0, random_state=2)
    if order == "interleaved":
        half = run.groupby("query_id", sort=False).cumcount() % 2
        return pd.concat([run[half == 0], run[half == 1]])
    return run.iloc[rng.permutation(len(run))]


def write(tmp_path, qrels: pd.DataFrame, run: pd.DataFrame, blank_lines: bool = False):
    qrels_path, run_path = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels_path.write_text("".join(f"{q} 0 {d} {g}\n" for q, d, g in qrels.itertuples(index=False)))
    lines = [f"{q} Q0 {d} {i} {s!r} tag\n" for i, (q, d, s) in enumerate(run.itertuples(index=False))]
    if blank_lines:
        lines = [line + ("\n" if i % 17 == 3 else "") for i, line in enumerate(lines)]
    run_path.write_text("".join(lines))
    return qrels_path, run_path


def assert_same(blockwise, whole):
    pd.testing.assert_frame_equal(blockwise.per_query, whole.per_query, check_exact=True)
    pd.testing.assert_series_equal(blockwise.mean, whole.mean, check_exact=True)


@pytest.mark.parametrize("order", ["grouped", "grouped, lines shuffled", "interleaved", "shuffled"])
def test_blockwise_evaluation_equals_whole_run_evaluation(tmp_path, tiny_blocks, order):
    """Grouped runs are cut where queries end (a query split across pyarrow's batches goes
    whole into one block); a run whose queries come in two places is found out and read again,
    dealt out by query into temporary files. Every value is the whole run's, exactly."""
    qrels, run = collection()
    run = ordered(run, order)
    qrels_path, run_path = write(tmp_path, qrels, run)
    blockwise = evaluate(qrels_path, run_path, MEASURES, complete=True)
    whole = evaluate(qrels, run, MEASURES, complete=True)
    assert_same(blockwise, whole)
    assert tiny_blocks["blocks"] > 5 + 2  # blocks of the file (the reference is one more, plus -c's)
    assert tiny_blocks["bucketed"] == (order in ("interleaved", "shuffled"))
    assert blockwise.run_name == "tag"


@pytest.mark.parametrize("options", [
    {"complete": False}, {"rel_threshold": 2}, {"depth": 7}, {"judged_only": True}, {"depth": 5, "judged_only": True},
    {"trec_eval_version": "9", "complete": True}, {"per_query": False}, {"collection_size": 500},
])
def test_every_option_gives_the_whole_runs_numbers(tmp_path, tiny_blocks, options):
    qrels, run = collection(seed=8)
    qrels_path, run_path = write(tmp_path, qrels, ordered(run, "grouped, lines shuffled"))
    assert_same(evaluate(qrels_path, run_path, MEASURES, **options), evaluate(qrels, run, MEASURES, **options))
    assert tiny_blocks["blocks"] > 5


def test_a_measure_of_named_parameters_and_several_runs_against_one_index(tmp_path, tiny_blocks):
    """The command line indexes the qrels once and evaluates each run against that index."""
    qrels, run = collection(seed=9)
    qrels_path, run_path = write(tmp_path, qrels, run)
    index = ranking.JudgmentIndex.of(read_qrels(qrels_path))
    measures = ["nDCG(gain=exp)@10", "P(rel=2)@5", "ERR@20", "RBP(p=0.5)", "Judged@10", "relstring@5"]
    expected = evaluate(qrels, run, measures)
    for _ in range(2):
        values = evaluate_values(index, run_path, measures)
        assert_same(values.result(), expected)


@pytest.mark.parametrize("order", ["grouped", "shuffled"])
@pytest.mark.parametrize("blank_lines", [False, True])
def test_a_docno_listed_twice_is_named_as_read_run_names_it(tmp_path, tiny_blocks, order, blank_lines):
    """Two copies of a line far apart in one query (different batches and, unsorted, maybe
    different temporary files), and a later repeat in another query: the error names the first
    repeat in the file and where its line first was, as the exact line-by-line reader does,
    blank lines counted."""
    qrels, run = collection(seed=3)
    run = ordered(run, order)
    first_query = run.query_id.iloc[0]
    lines = run[run.query_id == first_query]
    repeat = lines.iloc[[0]].assign(score=-5.0)  # last in its query when grouped
    later = run[run.query_id != first_query].iloc[[3]]
    at = run.index.get_loc(lines.index[-1]) + 1
    doubled = pd.concat([run.iloc[:at], repeat, run.iloc[at:], later])
    qrels_path, run_path = write(tmp_path, qrels, doubled, blank_lines=blank_lines)
    with pytest.raises(TrecFormatError) as expected:
        readers._parse_exact(run_path.read_bytes(), readers.RUN_FORMAT, str(run_path), False)
    assert "again (first on line" in str(expected.value)
    with pytest.raises(TrecFormatError) as raised:
        evaluate(qrels_path, run_path, "P@10")
    assert str(raised.value) == str(expected.value)
    assert (raised.value.path, raised.value.line) == (expected.value.path, expected.value.line)
    with pytest.raises(TrecFormatError, match="again"):
        read_run(run_path)  # the whole-file reader agrees


@pytest.mark.parametrize("damage", ["comment line", "extra field", "nan score", "missing field", "tab", "NUL byte",
                                    "short last line"])
def test_a_run_that_is_not_plain_trec_text_is_read_whole(tmp_path, tiny_blocks, damage):
    """Anything irregular sends evaluate back to the whole-file reader, found in whichever
    block: its leniencies (comments, extra fields) give the same numbers, its errors the same
    message."""
    qrels, run = collection(seed=4)
    qrels_path, run_path = write(tmp_path, qrels, run)
    lines = run_path.read_text().splitlines(keepends=True)
    middle = len(lines) // 2
    lines[middle] = {"comment line": "# a comment line of six fields here\n" + lines[middle],
                     "extra field": lines[middle].rstrip("\n") + " more\n",
                     "nan score": lines[middle].replace(" tag", "").rsplit(" ", 1)[0] + " nan tag\n",
                     "missing field": " ".join(lines[middle].split()[:5]) + "\n",
                     "tab": lines[middle].replace(" Q0 ", "\tQ0 "),
                     "NUL byte": lines[middle].replace(" Q0 ", " Q\x000 "),
                     "short last line": lines[middle]}[damage]
    if damage == "short last line":
        lines[-1] = " ".join(lines[-1].split()[:4]) + "\n"
    run_path.write_text("".join(lines))
    if damage in ("nan score", "missing field", "NUL byte", "short last line"):
        with pytest.raises(TrecFormatError) as expected:
            read_run(run_path)
        with pytest.raises(TrecFormatError) as raised:
            evaluate(qrels_path, run_path, "P@10")
        assert str(raised.value) == str(expected.value)
        assert f"line {len(lines) if damage == 'short last line' else middle + 1}" in str(raised.value)
    else:
        assert_same(evaluate(qrels_path, run_path, MEASURES), evaluate(qrels, read_run(run_path), MEASURES))


@pytest.mark.parametrize("arguments", [
    [], ["-q"], ["-q", "-c"], ["-q", "-l", "2"], ["-q", "-M", "5"], ["-q", "-c", "--trec-eval-version", "9"],
    ["-q", "-m", "all_trec"], ["-q", "--format", "csv"], ["--format", "json", "-q", "-m", "ndcg_cut.5,10"],
    ["-q", "-Z", "ZSCORES"], ["-m", "runid", "-m", "num_q"], ["-q", "-R", "qrels_prefs"], ["-q", "-R", "qrels_jg"],
    ["-q", "-R", "subtopics"], ["-q", "-R", "prefs"],
])
def test_the_command_line_prints_the_same_bytes_blockwise(tmp_path, monkeypatch, capsys, arguments):
    """rankviz eval on a run streamed in tiny blocks (grouped, then shuffled) prints exactly what
    it prints reading the file whole, with every option (the -R formats read their runs whole)."""
    qrels, run = collection(seed=6)
    zscores = tmp_path / "zscores.txt"
    zscores.write_text("".join(f"{q} map 0.3 0.1\n{q} P_10 0.2 0.05\n" for q in sorted(set(qrels.query_id))))
    arguments = [str(zscores) if a == "ZSCORES" else a for a in arguments]

    def output(order: str, stream: bool) -> str:
        qrels_path, run_path = write(tmp_path, qrels, ordered(run, order))
        if "prefs" in arguments and "qrels_prefs" not in arguments:  # qid jg jsg docno rel_level
            qrels_path.write_text("".join(f"{q} 0 0 {d} {g}\n" for q, d, g in qrels.itertuples(index=False)))
        with monkeypatch.context() as patch:
            patch.setattr(readers, "_LARGE_FILE", 0 if stream else 1 << 40)
            patch.setattr(readers, "_READ_BLOCK", 512)
            patch.setattr(readers, "RUN_BLOCK_BYTES", 2048)
            assert cli.main(["eval", str(qrels_path), str(run_path), *arguments]) == 0
        return capsys.readouterr().out

    whole = output("grouped", stream=False)
    assert output("grouped", stream=True) == whole
    assert output("shuffled", stream=True) == output("shuffled", stream=False)
    if "json" in arguments:
        assert json.loads(whole)["runs"][0]["per_query"]


def test_the_command_line_names_a_repeated_docno_with_file_and_line(tmp_path, tiny_blocks, capsys):
    qrels, run = collection(seed=2)
    doubled = pd.concat([run, run.iloc[[10]]])  # the last line repeats line 11, far past its query
    qrels_path, run_path = write(tmp_path, qrels, doubled)
    assert cli.main(["eval", str(qrels_path), str(run_path)]) == 2
    query, doc = run.iloc[10].query_id, run.iloc[10].doc_id
    assert capsys.readouterr().err == (f"rankviz: error: {run_path}:{len(doubled)}: expected each docno at most once "
                                       f"per query, got doc {doc!r} of query {query!r} again (first on line 11)\n")


def test_the_command_line_evaluates_trec_files_without_pandas(tmp_path):
    """pandas takes a third of a second to import: the command line never needs it for TREC
    files, whole or in blocks; nor does importing it load numpy, whose options main() sets (a
    fresh interpreter, as users run it)."""
    import subprocess
    import sys

    qrels, run = collection(seed=1)
    qrels_path, run_path = write(tmp_path, qrels, run)
    code = ("import sys; from rankviz.cli import main; numpy_first = 'numpy' in sys.modules; "
            "from rankviz.trec import readers; readers._LARGE_FILE = 0; "
            f"status = main(['eval', '-q', {str(qrels_path)!r}, {str(run_path)!r}]); "
            "print(numpy_first, 'pandas' in sys.modules, status, file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    # numpy is imported after main() set its options (no BLAS threads, no huge pages), pandas never.
    assert done.stderr.strip() == "False False 0"
    assert "map                   \tall\t" in done.stdout


@pytest.mark.parametrize("size", [7, 64, 4096])
def test_a_run_file_is_read_in_pieces_of_whole_lines(tmp_path, size):
    """The pieces pyarrow parses end at a line's end, lines longer than a piece included, and
    together they are the file (read into one reused buffer)."""
    rng = np.random.default_rng(size)
    lines = [f"q{i} Q0 {'d' * int(rng.integers(1, 3 * size))} 1 0.5 t\n" for i in range(200)]
    path = tmp_path / "run.txt"
    path.write_text("".join(lines) + "q9 Q0 last 1 0.5 t")  # no line break at the end
    stream = readers.RunStream(path, str(path), b" ")
    pieces = [piece.to_pybytes() for piece in stream._pieces(size)]
    assert b"".join(pieces) == path.read_bytes()
    assert all(piece.endswith(b"\n") for piece in pieces[:-1]) and len(pieces) > 1
