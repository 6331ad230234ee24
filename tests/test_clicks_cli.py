"""`python -m rankviz clicks`: the values of evaluate_clicks printed as trec_eval's "all" lines
or JSON, the Dask engine through --scheduler (the session's 2-worker LocalCluster), and one-line
errors with exit status 2."""

from __future__ import annotations

import json
import os

import numpy as np
import pandas as pd
import pytest

from rankviz.cli import main
from rankviz.evaluation.clicks import evaluate_clicks


@pytest.fixture
def log_file(tmp_path):
    rng = np.random.default_rng(11)
    n = 2000
    frame = pd.DataFrame({"session": rng.integers(0, 90, n), "clicked": (rng.random(n) < 0.3).astype(int),
                          "pred": np.round(rng.random(n), 1)})
    path = tmp_path / "clicks.parquet"
    frame.to_parquet(path, index=False)
    return path, frame


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_trec_lines_are_the_values_of_evaluate_clicks(capsys, log_file):
    path, frame = log_file
    status, out, err = run(capsys, "clicks", path, "--group", "session", "--label", "clicked", "--score", "pred")
    assert status == 0 and err == ""
    expected = evaluate_clicks(frame, group="session", label="clicked", score="pred")
    lines = out.splitlines()
    assert lines[:5] == [f"{name:<22}\tall\t{value:6.4f}" for name, value in expected.values.items()]
    assert lines[5:] == [f"{name:<22}\tall\t{count}" for name, count in expected.counts.items()]


def test_dask_engine_through_the_scheduler_address(capsys, log_file, dask_client, tmp_path):
    path, frame = log_file
    per_group = tmp_path / "groups.csv"
    status, out, _ = run(capsys, "clicks", path, "--group", "session", "--label", "clicked", "--score", "pred",
                         "-m", "auc", "-m", "gauc", "-m", "MRR", "--weights", "positives", "--format", "json",
                         "--engine", "dask", "--scheduler", dask_client.scheduler.address, "--per-group", per_group)
    assert status == 0
    shown = json.loads(out)
    expected = evaluate_clicks(frame, group="session", label="clicked", score="pred", measures=["auc", "gauc", "MRR"],
                               weights="positives", per_group=True)
    assert shown["engine"] == "dask"
    # Printed under the names asked (-m auc -m gauc -m MRR), evaluate_clicks' AUC, GAUC and RR.
    assert shown["values"] == dict(zip(["auc", "gauc", "MRR"], expected.values.tolist()))  # JSON keeps every digit
    assert list(expected.values.index) == ["AUC", "GAUC", "RR"]
    assert shown["counts"] == dict(expected.counts)
    table = pd.read_csv(per_group, index_col="session")
    assert table["auc"].equals(expected.per_group["auc"])


def test_errors_are_one_line_with_status_2(capsys, log_file, tmp_path):
    path, _ = log_file
    status, out, err = run(capsys, "clicks", path)
    assert status == 2 and out == ""
    # The command line's words (before: "name the columns with group=, label= and score=", Python's).
    assert err == (f"rankviz: error: {path}: no column 'group' (columns: session, clicked, pred); "
                   f"name the columns with --group, --label and --score\n")
    status, _, err = run(capsys, "clicks", tmp_path / "missing.parquet")
    assert status == 2 and err.endswith("missing.parquet: no such file or directory\n")
    status, _, err = run(capsys, "clicks", path, "--group", "session", "--label", "clicked", "--score", "pred",
                         "-m", "num_ret")
    assert status == 2 and err.startswith("rankviz: error: -m accepts 'auc', 'gauc' and the ranking measures")
    assert "evaluate_clicks" not in err and "parameter" not in err


def test_no_shuffle_flag_on_a_file_of_whole_sessions(capsys, log_file, dask_client):
    path, frame = log_file  # one small file: one partition, so every session is whole
    argv = ["clicks", path, "--group", "session", "--label", "clicked", "--score", "pred", "--format", "json",
            "--engine", "dask", "--scheduler", dask_client.scheduler.address]
    status, out, _ = run(capsys, *argv, "--no-shuffle")
    assert status == 0
    expected = evaluate_clicks(frame, group="session", label="clicked", score="pred")
    assert json.loads(out)["values"] == expected.values.to_dict()


def test_mrr_is_printed_as_asked(capsys, log_file):
    path, frame = log_file
    status, out, _ = run(capsys, "clicks", path, "--group", "session", "--label", "clicked", "--score", "pred",
                         "-m", "MRR", "-m", "ndcg_cut_10")
    expected = evaluate_clicks(frame, group="session", label="clicked", score="pred", measures=["RR", "nDCG@10"])
    assert status == 0
    assert out.splitlines()[:2] == [f"{'MRR':<22}\tall\t{expected.values['RR']:6.4f}",
                                    f"{'ndcg_cut_10':<22}\tall\t{expected.values['nDCG@10']:6.4f}"]


def test_the_dask_engine_reads_the_csv_its_help_offers(capsys, log_file, dask_client, tmp_path):
    path, frame = log_file
    csv = tmp_path / "clicks.csv"
    frame.to_csv(csv, index=False)
    status, out, err = run(capsys, "clicks", csv, "--group", "session", "--label", "clicked", "--score", "pred",
                           "--format", "json", "--engine", "dask", "--scheduler", dask_client.scheduler.address)
    assert status == 0, err
    expected = evaluate_clicks(frame, group="session", label="clicked", score="pred")
    assert json.loads(out)["values"] == expected.values.to_dict()
    status, _, err = run(capsys, "clicks", csv, "--engine", "dask", "--scheduler", dask_client.scheduler.address)
    assert status == 2
    assert err == (f"rankviz: error: {csv}: no column 'group' (columns: session, clicked, pred); "
                   "name the columns with --group, --label and --score\n")


def test_dasks_own_logs_stay_off_the_terminal_unless_asked(log_file, tmp_path):
    # A local cluster of the command's own: its scheduler logs each shuffle by group as WARNING
    # lines, its workers warn and err on start and close; the user reads the output and rankviz's errors.
    import subprocess
    import sys
    from pathlib import Path

    path, _ = log_file
    argv = [sys.executable, "-m", "rankviz", "clicks", str(path), "--group", "session", "--label", "clicked",
            "--score", "pred", "-m", "gauc", "--engine", "dask", "--workers", "1"]
    repository = str(Path(__file__).resolve().parents[1])
    quiet = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=300,
                           env={**os.environ, "PYTHONPATH": repository})
    assert quiet.stderr == ""
    assert quiet.returncode == 0 and quiet.stdout.lower().startswith("gauc")


def test_verbose_leaves_dasks_logging_as_it_is(monkeypatch):
    import logging

    from rankviz.evaluation.distributed import quiet_dask_logs

    monkeypatch.delenv("DASK_LOGGING__DISTRIBUTED", raising=False)
    logger = logging.getLogger("distributed")
    level = logger.level
    with quiet_dask_logs(verbose=True):
        assert logger.level == level and "DASK_LOGGING__DISTRIBUTED" not in os.environ
    with quiet_dask_logs(verbose=False):  # this process's scheduler, and the workers it starts
        assert logger.level == logging.CRITICAL and os.environ["DASK_LOGGING__DISTRIBUTED"] == "critical"
    assert logger.level == level and "DASK_LOGGING__DISTRIBUTED" not in os.environ
