"""``rankviz why QRELS RUN -m MEASURE --a TOOL --b TOOL``: the disagreement table on the command line."""

from __future__ import annotations

import pytest

import rankviz
from generated_runs import frames, generated
from rankviz.cli import main


def run_cli(capsys, *argv):
    status = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def files(tmp_path):
    qrels, run = generated(1)
    q, r = tmp_path / "qrels.txt", tmp_path / "run.txt"
    q.write_text("".join(f"{qid} 0 {d} {g}\n" for qid, docs in qrels.items() for d, g in docs.items()))
    r.write_text("".join(f"{qid} Q0 {d} {i + 1} {s} t\n" for qid, docs in run.items()
                         for i, (d, s) in enumerate(docs.items())))
    return q, r, frames(qrels, run)


def test_why_prints_the_queries_that_differ_their_conventions_and_the_summary(capsys, files):
    q, r, (qrels, run) = files
    status, out, err = run_cli(capsys, "why", q, r, "-m", "nDCG@5", "--a", "trec_eval", "--b", "sklearn")
    table = rankviz.disagreement(qrels, run, "nDCG@5", a="trec_eval", b="sklearn")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "nDCG@5: trec_eval vs sklearn"
    differ = table[table["conventions"].map(len) > 0]
    assert len(differ) > 0
    for row in differ.itertuples():
        line = next(x for x in lines if x.startswith(row.query + " "))
        assert f"{row.a:.4f}" in line and f"{row.b:.4f}" in line and ", ".join(row.conventions) in line
    assert lines[-1] == table.attrs["summary"]
    assert "ties: trec_eval: score, then docno descending; sklearn: tied documents as one group" in lines


def test_why_all_lists_agreeing_queries_too(capsys, files):
    q, r, (qrels, run) = files
    status, out, _ = run_cli(capsys, "why", q, r, "-m", "AP@10", "--b", "recbole", "--all")
    table = rankviz.disagreement(qrels, run, "AP@10", a="trec_eval", b="recbole")
    assert status == 0
    assert sum(line.endswith("  =") for line in out.splitlines()) == (table["conventions"].map(len) == 0).sum()


@pytest.mark.parametrize(("argv", "message"), [
    (["-m", "P@5", "--b", "sklearn"], "rankviz: error: --b: scikit-learn has no P@5"),
    (["-m", "RR@5"], "rankviz: error: --a: trec_eval has no RR@5"),
    (["-m", "AP", "--a", "sklearn2"], "rankviz: error: --a: The tool must be one of 'trec_eval'"),
    (["-m", "nope"], "rankviz: error: -m: Unknown measure 'nope'"),
])
def test_why_errors_are_one_line_with_status_2(capsys, files, argv, message):
    q, r, _ = files
    status, out, err = run_cli(capsys, "why", q, r, *argv)
    assert status == 2 and out == ""
    assert err.startswith(message) and err.count("\n") == 1


def test_why_names_a_missing_file(capsys, files, tmp_path):
    q, _, _ = files
    status, out, err = run_cli(capsys, "why", q, tmp_path / "none.txt", "-m", "AP")
    assert (status, out) == (2, "")
    assert err == f"rankviz: error: {tmp_path / 'none.txt'}: no such file\n"
