"""The Dask engine gives the in-memory engine's numbers, digit for digit, on real workers.

Reference: the in-memory engine (:func:`rankviz.evaluation.evaluator.evaluate`), itself checked
line by line against trec_eval in tests/test_conformance.py, whose cases (files and flags) are
reused here. Every comparison is exact (``check_exact``, ``==`` on the means): the Dask engine
must not merely be close. Runs are cut into small blocks so that queries, ties and duplicates
straddle block boundaries; every test runs on the session's 2-worker LocalCluster
(``dask_client``).
"""

from __future__ import annotations

import gzip
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from test_conformance import CASES, _case_id, read_expected

import rankviz
from rankviz.cli import main
from rankviz.evaluation.distributed import ClusterLimitError, evaluate_dask, evaluate_run_files, evaluate_runs, run_files
from rankviz.evaluation.evaluator import evaluate as evaluate_in_memory
from rankviz.evaluation.measures import parse_measure
from rankviz.trec.readers import TrecFormatError, read_run

MEASURES = ["all_trec", "ndcg.1=3,2=9,4=4.5", "relstring.10"]


def assert_identical(got, expected) -> None:
    """Same rows, columns, dtypes and values, bit for bit; same means; same run name."""
    pd.testing.assert_frame_equal(got.per_query, expected.per_query, check_exact=True)
    pd.testing.assert_series_equal(got.mean, expected.mean, check_exact=True)
    assert got.mean.to_numpy().tobytes() == expected.mean.to_numpy().tobytes()
    assert got.run_name == expected.run_name
    assert [str(m) for m in got.measures] == [str(m) for m in expected.measures]


def _blocksize(path: Path) -> int:
    """About 6 blocks per file: queries, ties and runs of lines cut at block boundaries."""
    return max(path.stat().st_size // 6, 512)


# --------------------------------------------------------------------------------------------
# Conformance files: every case of tests/test_conformance.py, both engines


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_conformance_case_same_numbers_as_memory_engine(conformance_dir, dask_client, case):
    name, qrels, run, options, _ = case
    names = [n for n in dict.fromkeys(n for n, _, _ in read_expected(conformance_dir / name)) if n != "runid"]
    measures = [parse_measure(n) for n in names]
    expected = evaluate_in_memory(conformance_dir / qrels, conformance_dir / run, measures, **options)
    got = evaluate_dask(conformance_dir / qrels, conformance_dir / run, measures, client=dask_client,
                        blocksize=_blocksize(conformance_dir / run), **options)
    assert_identical(got, expected)


# --------------------------------------------------------------------------------------------
# Randomized differential tests: ties, unsorted runs, many files, every option


def _random_collection(seed: int, folder: Path, n_files: int = 1, shuffle: bool = True):
    """A qrels and a run (cut into ``n_files`` files) with scores rounded to 1 decimal (many ties),
    lines in random order (a query's lines in non-adjacent blocks), queries only in the run, and
    queries only in the qrels."""
    rng = np.random.default_rng(seed)
    run_rows, qrels_rows = [], []
    for q in range(int(rng.integers(8, 20))):
        qid = str(int(rng.integers(1, 400)))  # numeric ids: string order "10" < "9" exercised
        docs = rng.choice(300, size=int(rng.integers(1, 60)), replace=False)
        if q % 7 != 6:  # some queries only in the run
            judged = rng.choice(300, size=int(rng.integers(1, 40)), replace=False)
            qrels_rows += [(qid, f"doc{d}", int(rng.choice([-1, 0, 0, 1, 2, 3]))) for d in judged]
        if q % 5 != 4:  # some only in the qrels
            run_rows += [(qid, f"doc{d}", round(float(rng.random()), 1)) for d in docs]
    run = pd.DataFrame(run_rows, columns=["query_id", "doc_id", "score"]).drop_duplicates(["query_id", "doc_id"])
    qrels = pd.DataFrame(qrels_rows, columns=["query_id", "doc_id", "relevance"]).drop_duplicates(["query_id", "doc_id"])
    if shuffle:
        run = run.sample(frac=1.0, random_state=seed)
    qrels_path = folder / "qrels.txt"
    qrels_path.write_text("".join(f"{q} 0 {d} {r}\n" for q, d, r in qrels.itertuples(index=False)))
    paths = []
    for part, rows in enumerate(np.array_split(np.arange(len(run)), n_files)):
        path = folder / f"run{part}.txt"
        path.write_text("".join(f"{q} Q0 {d} {i} {s} tag{seed}\n"
                                for i, (q, d, s) in enumerate(run.iloc[rows].itertuples(index=False))))
        paths.append(path)
    return qrels_path, paths


OPTIONS = [{}, {"complete": True}, {"depth": 5, "rel_threshold": 2}, {"judged_only": True, "complete": True},
           {"trec_eval_version": "9", "complete": True}]


@pytest.mark.parametrize("seed", range(4))
def test_random_runs_same_numbers_as_memory_engine(tmp_path, dask_client, seed):
    qrels, [path] = _random_collection(seed, tmp_path)
    options = OPTIONS[seed % len(OPTIONS)]
    expected = evaluate_in_memory(qrels, path, MEASURES, **options)
    got = evaluate_dask(qrels, path, MEASURES, client=dask_client, blocksize=300, npartitions=3, **options)
    assert_identical(got, expected)


def test_run_cut_into_files_equals_the_whole_run(tmp_path, dask_client):
    qrels, paths = _random_collection(11, tmp_path, n_files=3)
    whole = tmp_path / "whole.txt"
    whole.write_bytes(b"".join(p.read_bytes() for p in paths))
    expected = evaluate_in_memory(qrels, whole, MEASURES, complete=True)
    got = evaluate_dask(qrels, str(tmp_path / "run*.txt"), MEASURES, client=dask_client, blocksize=400,
                        complete=True)
    assert_identical(got, expected)


def test_gzip_and_parquet_runs_equal_text(tmp_path, dask_client):
    import pyarrow as pa
    import pyarrow.parquet as pq

    qrels, [path] = _random_collection(5, tmp_path)
    expected = evaluate_in_memory(qrels, path, MEASURES)
    gz = tmp_path / "run.txt.gz"
    gz.write_bytes(gzip.compress(path.read_bytes()))
    assert_identical(evaluate_dask(qrels, gz, MEASURES, client=dask_client), expected)
    frame = read_run(path)
    parquet = tmp_path / "run.parquet"
    table = pa.Table.from_pandas(frame.assign(run_name=expected.run_name), preserve_index=False)
    pq.write_table(table, parquet, row_group_size=50)  # several row groups: several blocks
    assert_identical(evaluate_dask(qrels, parquet, MEASURES, client=dask_client), expected)


# --------------------------------------------------------------------------------------------
# Block boundaries, built on purpose


def _blocks_of_lines(path: Path, blocksize: int) -> list[set[int]]:
    """The line numbers of each block as dask.bytes.read_bytes cuts the file (at the first line
    end after each multiple of blocksize)."""
    data = path.read_bytes()
    ends = [data.find(b"\n", k) for k in range(blocksize, len(data), blocksize)]
    cuts = sorted({0, *[e + 1 for e in ends if e >= 0], len(data)})
    return [set(range(data.count(b"\n", 0, a) + 1, data.count(b"\n", 0, b) + 1)) for a, b in zip(cuts, cuts[1:])]


def test_ties_across_a_block_boundary_follow_trec_eval(tmp_path, dask_client):
    qrels = tmp_path / "qrels"
    qrels.write_text("q1 0 d05 1\nq1 0 d15 2\nq1 0 d25 1\n")
    run = tmp_path / "run"
    # 30 documents of q1, all tied at 1.0: trec_eval ranks them d29, d28, ..., d00 (docno descending).
    run.write_text("".join(f"q1 Q0 d{i:02d} {i} 1.0 t\n" for i in range(30)))
    blocks = _blocks_of_lines(run, 200)
    assert len(blocks) >= 3 and all(blocks)  # the tied lines of q1 straddle several blocks
    expected = evaluate_in_memory(qrels, run, MEASURES)
    got = evaluate_dask(qrels, run, MEASURES, client=dask_client, blocksize=200)
    assert_identical(got, expected)
    # d29, d28, d27, d26 unjudged ("-"), d25 relevant at rank 5, then unjudged d24..d20:
    assert got.per_query.at["q1", "relstring@10"] == "----1-----"


def test_query_in_non_adjacent_blocks_of_an_unsorted_run(tmp_path, dask_client):
    qrels = tmp_path / "qrels"
    qrels.write_text("q1 0 a1 1\nq1 0 z1 1\nq2 0 m1 1\n")
    run = tmp_path / "run"
    lines = [f"q1 Q0 a{i} 0 {i / 10} t\n" for i in range(8)] + [f"q2 Q0 m{i} 0 {i / 10} t\n" for i in range(20)]
    lines += [f"q1 Q0 z{i} 0 {i / 10} t\n" for i in range(8)]  # q1 again, at the end
    run.write_text("".join(lines))
    blocks = _blocks_of_lines(run, 150)
    holding_q1 = [k for k, block in enumerate(blocks) if block & ({*range(1, 9)} | {*range(29, 37)})]
    assert holding_q1[0] + 1 < holding_q1[-1]  # q1's lines sit in blocks that are not neighbours
    expected = evaluate_in_memory(qrels, run, MEASURES)
    assert_identical(evaluate_dask(qrels, run, MEASURES, client=dask_client, blocksize=150), expected)


def _memory_error(path: Path) -> str:
    with pytest.raises(TrecFormatError) as error:
        read_run(path)
    return str(error.value)


def test_duplicate_docno_in_two_blocks_names_the_file_and_both_lines(tmp_path, dask_client):
    qrels = tmp_path / "qrels"
    qrels.write_text("q1 0 d1 1\n")
    run = tmp_path / "run.txt"
    lines = [f"q1 Q0 d{i} {i} {100 - i} t\n" for i in range(40)] + ["q1 Q0 d3 41 0.5 t\n"]  # d3: lines 4 and 41
    run.write_text("".join(lines))
    blocks = _blocks_of_lines(run, 200)
    assert not any({4, 41} <= block for block in blocks)  # the two copies are in different blocks
    message = _memory_error(run)
    assert message == f"{run} line 41: expected each docno at most once per query, got doc 'd3' of query 'q1' again (first on line 4)"
    with pytest.raises(TrecFormatError) as error:
        evaluate_dask(qrels, run, "AP", client=dask_client, blocksize=200)
    assert str(error.value) == message


def test_duplicate_docno_within_one_block_has_file_line_numbers(tmp_path, dask_client):
    qrels = tmp_path / "qrels"
    qrels.write_text("q1 0 d1 1\n")
    run = tmp_path / "run.txt"
    lines = [f"q1 Q0 d{i} {i} {100 - i} t\n" for i in range(40)]
    lines[37] = "q1 Q0 d35 38 0.5 t\n"  # lines 36 and 38, same block near the end
    run.write_text("".join(lines))
    assert any({36, 38} <= block for block in _blocks_of_lines(run, 200))
    with pytest.raises(TrecFormatError) as error:
        evaluate_dask(qrels, run, "AP", client=dask_client, blocksize=200)
    assert str(error.value) == _memory_error(run)


def test_duplicate_across_two_files_names_both_files(tmp_path, dask_client):
    qrels = tmp_path / "qrels"
    qrels.write_text("q1 0 d1 1\n")
    (tmp_path / "part1.run").write_text("q1 Q0 d1 1 2.0 t\nq1 Q0 d2 2 1.0 t\n")
    (tmp_path / "part2.run").write_text("q1 Q0 d5 1 2.0 t\nq1 Q0 d2 2 1.0 t\n")
    with pytest.raises(TrecFormatError, match=r"part2\.run line 2: expected each docno at most once per query, "
                                              r"got doc 'd2' of query 'q1' again \(first on .*part1\.run line 2\)"):
        evaluate_dask(qrels, str(tmp_path / "part*.run"), "AP", client=dask_client)


def test_malformed_line_in_a_later_block_names_its_file_line(tmp_path, dask_client):
    qrels = tmp_path / "qrels"
    qrels.write_text("q1 0 d1 1\n")
    run = tmp_path / "run.txt"
    lines = [f"q1 Q0 d{i} {i} {100 - i} t\n" for i in range(40)]
    lines[33] = "q1 Q0 d33 34 high t\n"
    run.write_text("".join(lines))
    with pytest.raises(TrecFormatError) as error:
        evaluate_dask(qrels, run, "AP", client=dask_client, blocksize=200)
    assert str(error.value) == _memory_error(run)
    assert error.value.line == 34


# --------------------------------------------------------------------------------------------
# Many runs, one table; the public entry points


def test_evaluate_runs_one_table_both_engines(tmp_path, dask_client):
    qrels, [base] = _random_collection(3, tmp_path)
    folder = tmp_path / "runs"
    folder.mkdir()
    rng = np.random.default_rng(0)
    for system in range(3):  # three systems: the base run's lines, some dropped, scores redrawn
        lines = [line.split() for line in base.read_text().splitlines() if rng.random() < 0.8]
        (folder / f"system{system}.run").write_text("".join(
            f"{q} Q0 {d} {r} {round(float(rng.random()), 1)} sys{system}\n" for q, _, d, r, _, _ in lines))
    memory = evaluate_runs(qrels, folder, ["AP", "P@5", "num_ret"], engine="memory", per_query=True)
    dask = evaluate_runs(qrels, str(folder / "*.run"), ["AP", "P@5", "num_ret"], client=dask_client, per_query=True)
    pd.testing.assert_frame_equal(dask, memory, check_exact=True)
    assert list(memory.index.get_level_values("run").unique()) == run_files(folder)
    for path in run_files(folder):
        expected = evaluate_in_memory(qrels, path, ["AP", "P@5", "num_ret"])
        assert memory.loc[(path, "all"), "AP"] == expected.mean["AP"]


def test_rankviz_evaluate_engine_option(tmp_path, dask_client):
    qrels, [path] = _random_collection(7, tmp_path)
    assert_identical(rankviz.evaluate(qrels, path, "official", engine="dask", client=dask_client, blocksize=500),
                     rankviz.evaluate(qrels, path, "official"))
    with pytest.raises(ValueError, match="The 'engine' parameter of evaluate must be one of 'memory', 'dask'. Got 'spark'"):
        rankviz.evaluate(qrels, path, engine="spark")
    with pytest.raises(ValueError, match="'client' parameter"):
        rankviz.evaluate(qrels, path, client=dask_client)


def test_memory_engine_does_not_import_dask(tmp_path):
    qrels, [path] = _random_collection(1, tmp_path)
    code = (f"import sys, rankviz; rankviz.evaluate({str(qrels)!r}, {str(path)!r}); "
            f"assert not [m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')], 'dask imported'")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parents[1])


# --------------------------------------------------------------------------------------------
# Command line: same output as the memory engine


def _cli(capsys, argv) -> str:
    assert main(argv) == 0, capsys.readouterr().err
    return capsys.readouterr().out


@pytest.mark.parametrize("flags", [["-q", "-c", "-m", "all_trec"], ["-M", "100", "-l", "2", "-m", "official"],
                                   ["-q", "-c", "--trec-eval-version", "9"]])
def test_cli_engine_dask_prints_what_the_memory_engine_prints(conformance_dir, dask_client, capsys, flags):
    files = [str(conformance_dir / "qrels.test"), str(conformance_dir / "results.trunc"),
             str(conformance_dir / "results.test")]
    memory = _cli(capsys, ["eval", *files, *flags])
    dask = _cli(capsys, ["eval", *files, *flags, "--engine", "dask", "--scheduler", dask_client.scheduler.address,
                         "--blocksize", "4000"])
    assert dask == memory


def test_cli_engine_dask_error_names_file_and_line(tmp_path, dask_client, capsys):
    qrels = tmp_path / "qrels"
    qrels.write_text("q1 0 d1 1\n")
    run = tmp_path / "run.txt"
    run.write_text("q1 Q0 d1 1 2.0 t\nq1 Q0 d2 2 1.0 t\nq1 Q0 d1 3 0.5 t\n")
    assert main(["eval", str(qrels), str(run), "--engine", "dask", "--scheduler", dask_client.scheduler.address]) == 2
    assert capsys.readouterr().err == (f"rankviz: error: {run}:3: expected each docno at most once per query, "
                                       f"got doc 'd1' of query 'q1' again (first on line 1)\n")


def test_evaluate_run_files_keeps_the_order_of_the_runs(tmp_path, dask_client):
    qrels, [a] = _random_collection(2, tmp_path)
    b = tmp_path / "b.txt"
    b.write_text("".join(line for line in a.read_text().splitlines(keepends=True)[::2]))
    got = evaluate_run_files(qrels, [b, a], "official", client=dask_client)
    assert [e.files for e in got] == [(str(b),), (str(a),)]
    assert_identical(got[0].result, evaluate_in_memory(qrels, b, "official"))
    assert_identical(got[1].result, evaluate_in_memory(qrels, a, "official"))


def test_progress_bar_goes_to_stderr_not_to_the_results(tmp_path, dask_client, capfd):
    qrels, [path] = _random_collection(4, tmp_path)
    evaluate_dask(qrels, path, "AP", client=dask_client, blocksize=500, progress=True)
    captured = capfd.readouterr()
    assert captured.out == ""
    assert "Completed" in captured.err


def test_comment_and_blank_lines_keep_file_line_numbers(tmp_path, dask_client):
    qrels = tmp_path / "qrels"
    qrels.write_text("q1 0 d1 1\nq1 0 d7 1\n")
    run = tmp_path / "run.txt"
    lines = [f"q1 Q0 d{i} {i} {100 - i} t\n" for i in range(40)]
    lines[5:5] = ["# a comment\n", "\n"]
    lines[30:30] = ["# another\n"]
    run.write_text("".join(lines))
    assert_identical(evaluate_dask(qrels, run, MEASURES, client=dask_client, blocksize=150),
                     evaluate_in_memory(qrels, run, MEASURES))
    lines[38] = "q1 Q0 d35 36 x t\n"
    run.write_text("".join(lines))
    with pytest.raises(TrecFormatError) as error:
        evaluate_dask(qrels, run, "AP", client=dask_client, blocksize=150)
    assert str(error.value) == _memory_error(run)


# --------------------------------------------------------------------------------------------
# Found in review: each of these gave other numbers than the memory engine, or no clear error


def test_measures_of_the_scale_top_see_the_whole_qrels_top_grade(tmp_path, dask_client):
    """ERR's g_max, INST/INSQ/SDCG's max_rel and NERR's come from the whole qrels in memory (here
    grade 3, judged for one query only), not from the queries a partition happens to hold."""
    qrels, [path] = _random_collection(5, tmp_path)
    text = qrels.read_text()
    qrels.write_text(text.replace(" 3\n", " 2\n") + "999 0 top 3\n")  # the only grade 3, query absent from the run
    measures = ["ERR@10", "NERR10", "NERR11", "NERR8@10", "INST", "INSQ", "SDCG@5", "nDCG@10", "AP"]
    for options in ({}, {"complete": True}):
        expected = evaluate_in_memory(qrels, path, measures, **options)
        got = evaluate_dask(qrels, path, measures, client=dask_client, blocksize=300, npartitions=3, **options)
        assert_identical(got, expected)
        assert "999" in got.per_query.index if options else "999" not in got.per_query.index


@pytest.mark.parametrize("npartitions", [1, 2])
def test_one_or_few_partitions_still_gather_each_query(tmp_path, dask_client, npartitions):
    qrels, [path] = _random_collection(6, tmp_path)
    expected = evaluate_in_memory(qrels, path, MEASURES)
    got = evaluate_dask(qrels, path, MEASURES, client=dask_client, blocksize=300, npartitions=npartitions)
    assert path.stat().st_size > 3 * 300  # several blocks, each query's lines scattered over them
    assert_identical(got, expected)


def test_qrels_dataframe_with_integer_ids_compares_ids_as_strings(tmp_path, dask_client):
    qrels = pd.DataFrame({"query_id": [1, 2], "doc_id": ["d1", "d2"], "relevance": [1, 1]})
    run = tmp_path / "run.txt"
    run.write_text("1 Q0 d1 1 3 t\n2 Q0 d9 1 2 t\n2 Q0 d2 2 1 t\n")
    for options in ({}, {"complete": True}):
        expected = evaluate_in_memory(qrels, run, ["AP", "P@2"], **options)
        got = evaluate_dask(qrels, run, ["AP", "P@2"], client=dask_client, **options)
        assert_identical(got, expected)
        assert got.mean["AP"] == 0.75


def test_the_same_job_twice_in_a_row_on_one_client(tmp_path, dask_client):
    """Every job's tasks (the qrels' too) have keys of its own: identical jobs back to back never
    share (and release under each other) one key (dask/distributed#4612)."""
    qrels, [path] = _random_collection(7, tmp_path)
    results = [evaluate_dask(qrels, path, ["AP"], client=dask_client, blocksize=300) for _ in range(6)]
    for result in results[1:]:
        assert_identical(result, results[0])


def test_empty_run_file_gets_the_readers_error(tmp_path, dask_client, capsys):
    qrels = tmp_path / "qrels"
    qrels.write_text("q1 0 d1 1\n")
    run = tmp_path / "empty.run"
    run.write_text("")
    message = _memory_error(run)
    assert "empty" in message
    with pytest.raises(TrecFormatError) as error:
        evaluate_dask(qrels, run, "AP", client=dask_client)
    assert str(error.value) == message
    assert main(["eval", "--engine", "dask", "--scheduler", dask_client.scheduler.address, str(qrels), str(run)]) == 2
    assert capsys.readouterr().err.startswith(f"rankviz: error: {run}")


def test_carriage_return_inside_a_line_is_an_error_naming_its_line(tmp_path, dask_client):
    qrels = tmp_path / "qrels"
    qrels.write_text("q1 0 d1 1\n")
    run = tmp_path / "run.txt"
    run.write_bytes(b"q1 Q0 d3 1 3 a\nq1 Q0 d2 2 2 a\rq1 Q0 d1 3 1 a\n")
    with pytest.raises(TrecFormatError, match=r"run.txt line 2: .*carriage return"):
        evaluate_dask(qrels, run, "AP", client=dask_client)
    crlf = tmp_path / "crlf.txt"  # Windows line ends are fine
    crlf.write_bytes(b"q1 Q0 d3 1 3 a\r\nq1 Q0 d1 3 1 a\r\n")
    assert_identical(evaluate_dask(qrels, crlf, ["AP"], client=dask_client), evaluate_in_memory(qrels, crlf, ["AP"]))


def test_a_dataframe_run_is_refused_with_what_to_use(dask_client):
    run = pd.DataFrame({"query_id": ["q1"], "doc_id": ["d1"], "score": [1.0]})
    with pytest.raises(ValueError, match="engine='memory'"):
        rankviz.evaluate(pd.DataFrame({"query_id": ["q1"], "doc_id": ["d1"], "relevance": [1]}), run, "AP",
                         engine="dask", client=dask_client)


# --------------------------------------------------------------------------------------------
# Faults: a worker lost at any phase costs time, never the job; a job that cannot fit its
# workers' memory stops with an error naming the setting to change


class _Killer:
    """A worker plugin that kills its worker process the moment a task whose key matches ``phase``
    (a regular expression) starts (``os._exit``: no goodbye, as ``kill -9`` or a nanny's restart
    for memory), ``times`` times in all across the cluster (one marker file per kill, created
    atomically)."""

    def __init__(self, phase: str, folder: Path, times: int = 1):
        self.phase, self.folder, self.times = phase, str(folder), times

    def setup(self, worker):
        pass

    def teardown(self, worker):
        pass

    def transition(self, key, start, finish, **kwargs):
        import os
        import re

        if finish != "executing" or not re.search(self.phase, str(key)):
            return
        for kill in range(self.times):
            try:
                os.close(os.open(os.path.join(self.folder, f"kill-{kill}"), os.O_CREAT | os.O_EXCL))
            except FileExistsError:
                continue
            os._exit(1)


@pytest.fixture
def kill_workers(dask_client, tmp_path):
    """``kill_workers(phase, times=1)`` -> the number of kills done so far; afterwards the plugin
    is removed and the cluster has its two workers again (nannies restart killed workers)."""
    from distributed import WorkerPlugin

    names = []

    def kill(phase: str, times: int = 1):
        folder = tmp_path / f"kills-{len(names)}"
        folder.mkdir()
        plugin = type("Killer", (_Killer, WorkerPlugin), {})(phase, folder, times)
        names.append(f"rankviz-test-killer-{len(names)}")
        dask_client.register_plugin(plugin, name=names[-1])
        return lambda: len(list(folder.iterdir()))

    yield kill
    for name in names:
        dask_client.unregister_worker_plugin(name)
    dask_client.wait_for_workers(2, timeout=120)


@pytest.mark.parametrize("phase", ["rankviz-parse", "shuffle-transfer", "rankviz-evaluate"],
                         ids=["reading", "shuffling", "evaluating"])
def test_a_worker_killed_during_a_phase_costs_time_not_the_job(tmp_path, dask_client, kill_workers, phase):
    qrels, [path] = _random_collection(3, tmp_path)
    expected = evaluate_in_memory(qrels, path, MEASURES, complete=True)
    kills = kill_workers(phase)
    got = evaluate_dask(qrels, path, MEASURES, client=dask_client, blocksize=400, npartitions=4, complete=True)
    assert kills() == 1  # the worker did die during that phase
    assert_identical(got, expected)


def test_a_task_that_keeps_killing_its_workers_is_an_error_naming_the_settings(tmp_path, dask_client, kill_workers):
    qrels, [path] = _random_collection(4, tmp_path)
    # One partition's task kills its worker each time it starts; Dask gives up on it after the
    # scheduler's allowed failures (3 by default; 1 here: two deaths).
    kills = kill_workers(r"rankviz-evaluate-\w+-0$", times=2)
    allowed = dask_client.run_on_scheduler(lambda dask_scheduler: dask_scheduler.allowed_failures)
    dask_client.run_on_scheduler(lambda dask_scheduler: setattr(dask_scheduler, "allowed_failures", 1))
    try:
        with pytest.raises(ClusterLimitError) as error:
            evaluate_dask(qrels, path, ["AP"], client=dask_client, blocksize=400)
    finally:
        dask_client.run_on_scheduler(lambda dask_scheduler: setattr(dask_scheduler, "allowed_failures", allowed))
    assert kills() == 2
    assert str(error.value).startswith("the Dask job stopped while ")
    assert "--blocksize" in str(error.value) and "--memory-limit" in str(error.value)


def test_a_memory_limit_too_small_for_the_default_block_size_picks_smaller_blocks(tmp_path, dask_client, monkeypatch):
    """The issue's case: 1 GiB workers and 64 MiB blocks passed 95% of the limit and died. The
    block size now follows the workers' limit (the session cluster's: 1 GiB)."""
    from rankviz.evaluation import distributed

    chosen = []
    choose = distributed.choose_blocksize
    monkeypatch.setattr(distributed, "choose_blocksize", lambda *a, **k: chosen.append(choose(*a, **k)) or chosen[-1])
    qrels, [path] = _random_collection(6, tmp_path)
    got = evaluate_dask(qrels, path, MEASURES, client=dask_client)
    assert_identical(got, evaluate_in_memory(qrels, path, MEASURES))
    [blocksize] = chosen
    assert 1 << 20 <= blocksize < 64 << 20  # 1 GiB workers: blocks of ~18 MiB, not the default 64 MiB


@pytest.mark.parametrize("options, named", [
    (["--memory-limit", "1GiB", "--blocksize", "64MiB"], "--blocksize 31MiB"),  # what fits
    (["--memory-limit", "500MiB"], "--memory-limit 56"),                         # what it needs: ~560 MiB
], ids=["block size too large for the limit", "limit too small for any block"])
def test_a_job_that_cannot_fit_stops_with_the_setting_to_change(conformance_dir, capsys, options, named):
    files = [str(conformance_dir / "qrels.test"), str(conformance_dir / "results.test")]
    assert main(["eval", *files, "--engine", "dask", "--workers", "1", *options]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rankviz: error: ") and named in err and "Traceback" not in err


def _no_default_client(monkeypatch):
    """The command as a user runs it: no Dask client in its process (the session's cluster's
    client is the default one here), so it starts a local cluster of its own."""
    import distributed

    def none():
        raise ValueError("no default client")

    monkeypatch.setattr(distributed, "default_client", none)


def test_cli_local_cluster_at_1gib_prints_the_results_and_nothing_else(conformance_dir, capfd, monkeypatch):
    """The issue's command (its own local cluster, --memory-limit 1GiB, no --blocksize): the
    memory engine's output, and not a line of Dask's logs on the terminal (the workers are other
    processes: captured at the file descriptors)."""
    _no_default_client(monkeypatch)
    files = [str(conformance_dir / "qrels.test"), str(conformance_dir / "results.test")]
    assert main(["eval", *files, "-q"]) == 0
    memory = capfd.readouterr()
    assert main(["eval", *files, "-q", "--engine", "dask", "--workers", "1", "--memory-limit", "1GiB"]) == 0
    dask = capfd.readouterr()
    assert dask.out == memory.out
    assert dask.err == ""



_KILL_ONCE_PRELOAD = """
import os

from distributed import WorkerPlugin


class KillOnce(WorkerPlugin):
    def transition(self, key, start, finish, **kwargs):
        if finish == "executing" and "rankviz-parse" in str(key):
            try:
                os.close(os.open({marker!r}, os.O_CREAT | os.O_EXCL))
            except FileExistsError:
                return
            os._exit(1)


async def dask_setup(worker):
    await worker.plugin_add(KillOnce(), name="kill-once")
"""


@pytest.mark.parametrize("verbose", [False, True], ids=["quiet", "verbose"])
def test_cli_worker_killed_on_its_own_cluster_logs_only_with_verbose(conformance_dir, tmp_path, capfd, monkeypatch,
                                                                     verbose):
    """The command's own local cluster, one worker killed while reading (a worker preload kills
    it once): the results are the memory engine's; Dask's lines about it (the nanny restarting
    the worker, the workers' errors) reach the terminal only with --verbose."""
    import dask

    _no_default_client(monkeypatch)
    marker = tmp_path / "killed"
    preload = tmp_path / "kill_once.py"
    preload.write_text(_KILL_ONCE_PRELOAD.format(marker=str(marker)))
    files = [str(conformance_dir / "qrels.test"), str(conformance_dir / "results.test")]
    assert main(["eval", *files, "-q"]) == 0
    memory = capfd.readouterr()
    command = ["eval", *files, "-q", "--engine", "dask", "--workers", "2", "--memory-limit", "1GiB",
               "--blocksize", "4000", *(["--verbose"] if verbose else [])]
    # The records Dask logs in this process (its handler's stream may be an earlier test's capture,
    # so they are collected here rather than read back from stderr).
    import logging

    records = []
    collector = logging.Handler()
    collector.emit = records.append
    logger = logging.getLogger("distributed")
    logger.addHandler(collector)
    try:
        with dask.config.set({"distributed.worker.preload": [str(preload)]}):
            assert main(command) == 0
    finally:
        logger.removeHandler(collector)
    dask_run = capfd.readouterr()
    restarts = [r for r in records if r.name == "distributed.nanny" and "Restarting worker" in r.getMessage()]
    assert marker.exists()  # a worker was killed
    assert dask_run.out == memory.out
    if verbose:
        assert restarts
    else:
        assert dask_run.err == "" and not records
