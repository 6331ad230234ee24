"""AppTest of the run-files page: the sample collection and uploaded bytes give exactly
rankviz.evaluate's numbers; malformed files give a message naming the file and line, no
exception, and the last valid result stays; the size limit; a 200k-line run through the page."""

from __future__ import annotations

import gzip
import time

import numpy as np
import pandas as pd
import pytest

from app_helpers import open_app
from rankviz.evaluation.comparison import compare
from rankviz.data import SAMPLE_QRELS, SAMPLE_RUNS
from rankviz.evaluation.evaluator import evaluate
from rankviz.ui.run_files import PR_LEVELS, chosen_measures, split_measure_text
from rankviz.ui.uploads import size_problem

PAGE = "app_pages/run_files.py"
MEASURES = ["AP", "nDCG@10", "P@10", "RR"]  # the page's default choice

QRELS = b"q1 0 a 1\nq1 0 b 0\nq1 0 c 2\nq2 0 x 1\nq2 0 y 1\nq3 0 z 3\n"
RUN_A = b"q1 Q0 a 1 3.0 A\nq1 Q0 b 2 2.0 A\nq1 Q0 c 3 1.0 A\nq2 Q0 y 1 5.0 A\nq2 Q0 w 2 4.0 A\nq3 Q0 z 1 1 A\n"
RUN_B = b"q1 Q0 c 1 3.0 B\nq1 Q0 a 2 2.0 B\nq2 Q0 w 1 5.0 B\nq2 Q0 x 2 5.0 B\nq3 Q0 v 1 2 B\nq3 Q0 z 2 1 B\n"


def _upload(at, qrels=("qrels.txt", QRELS), runs=(("a.run", RUN_A), ("b.run", RUN_B))):
    at.radio(key="rf_source").set_value("Upload files").run()
    at.file_uploader(key="rf_qrels_file").set_value((qrels[0], qrels[1], "text/plain"))
    at.file_uploader(key="rf_run_files").set_value([(name, data, "text/plain") for name, data in runs])
    return at.run()


# AppTest does not expose a dataframe's key: each table is recognised by a column only it has.
_MARKERS = {"rf_aggregate_table": "queries", "rf_per_query_table": "query_id", "rf_significance_table": "p_value"}


def _table(at, key):
    tables = [df.value for df in at.dataframe if _MARKERS[key] in df.value.columns]
    assert len(tables) == 1, f"expected one table with column {_MARKERS[key]!r}, found {len(tables)}"
    return tables[0]


def test_sample_collection_shows_evaluate_numbers_with_no_files():
    at = open_app(PAGE)
    assert not at.exception and not at.error
    aggregate = _table(at, "rf_aggregate_table").set_index("run")
    assert list(aggregate.index) == ["bm25", "dense"]
    for name in ("bm25", "dense"):
        expected = evaluate(SAMPLE_QRELS, SAMPLE_RUNS[name], MEASURES)
        for measure in MEASURES:
            assert aggregate.loc[name, measure] == pytest.approx(expected.mean[measure], abs=1e-12)
        assert aggregate.loc[name, "queries"] == len(expected.per_query)
    per_query = _table(at, "rf_per_query_table")
    expected = evaluate(SAMPLE_QRELS, SAMPLE_RUNS["dense"], MEASURES).per_query
    shown = per_query[per_query.run == "dense"].set_index("query_id")[MEASURES]
    assert len(shown) == 20
    np.testing.assert_allclose(shown.to_numpy(float), expected.loc[list(shown.index)].to_numpy(float), rtol=0,
                               atol=1e-12)


def test_uploaded_bytes_equal_evaluate_on_the_same_text():
    at = _upload(open_app(PAGE))
    assert not at.exception and not at.error
    aggregate = _table(at, "rf_aggregate_table").set_index("run")
    for name, data in (("A", RUN_A), ("B", RUN_B)):
        expected = evaluate(QRELS.decode(), data.decode(), MEASURES)
        for measure in MEASURES:
            assert aggregate.loc[name, measure] == pytest.approx(expected.mean[measure], abs=1e-12)
    # Hand check of one value: run B on q1 ranks c (2), a (1): AP = (1/1 + 2/2) / 2 = 1; on q2
    # w and x tie at 5.0 and trec_eval puts x (larger docno) first: AP = (1/1) / 2 = 0.5.
    per_query = _table(at, "rf_per_query_table").set_index(["query_id", "run"])
    assert per_query.loc[("q1", "B"), "AP"] == 1.0
    assert per_query.loc[("q2", "B"), "AP"] == 0.5


def test_gzip_and_csv_uploads():
    csv_run = b"query_id,doc_id,score\nq1,c,3\nq1,a,2\nq2,x,1\n"
    at = _upload(open_app(PAGE), qrels=("qrels.txt.gz", gzip.compress(QRELS)), runs=(("run.csv", csv_run),))
    assert not at.exception and not at.error
    expected = evaluate(QRELS.decode(), pd.DataFrame({"query_id": ["q1", "q1", "q2"], "doc_id": ["c", "a", "x"],
                                                      "score": [3.0, 2.0, 1.0]}), MEASURES)
    assert _table(at, "rf_aggregate_table").set_index("run").loc["run.csv", "AP"] == pytest.approx(expected.mean["AP"])


@pytest.mark.parametrize(("name", "data", "fragment"), [
    ("short.run", b"q1 Q0 a 1 3.0 A\nq1 Q0 b 2 2.0 A\nq1 Q0 c 3\n", "short.run line 3"),
    ("score.run", b"q1 Q0 a 1 3.0 A\nq1 Q0 b 2 high A\n", "score.run line 2"),
    ("dup.run", b"q1 Q0 a 1 3.0 A\nq1 Q0 a 2 2.0 A\n", "dup.run line 2"),
    ("empty.run", b"", "empty.run"),
    ("binary.run", bytes(range(256)) * 4, "binary.run"),
])
def test_malformed_run_names_file_and_line_and_shows_no_other_files_numbers(name, data, fragment):
    at = _upload(open_app(PAGE))
    assert _table(at, "rf_aggregate_table") is not None
    at.file_uploader(key="rf_run_files").set_value([(name, data, "text/plain")])
    at.run()
    assert not at.exception
    messages = [e.value for e in at.error]
    assert any(fragment in m for m in messages), messages
    # The last numbers came from a.run and b.run, which are no longer chosen: none are shown.
    assert not at.dataframe and not at.warning, [w.value for w in at.warning]


def test_a_bad_qrels_after_the_sample_shows_its_error_alone():
    # Issue 20, item 9: a fresh session evaluates the sample; a qrels line with 3 fields (or a run
    # in the qrels slot) must not leave the sample's bm25/dense table under "Qrels qrels.txt".
    for qrels in (("qrels.txt", QRELS + b"q3 0 y\n"), ("qrels.txt", RUN_A)):
        at = open_app(PAGE)
        assert list(_table(at, "rf_aggregate_table")["run"]) == ["bm25", "dense"]
        at = _upload(at, qrels=qrels)
        assert not at.exception
        assert any("qrels.txt line" in e.value for e in at.error), [e.value for e in at.error]
        assert not at.dataframe and not at.warning
        assert not any("Qrels `qrels.txt`" in c.value for c in at.caption)
    # The run in the qrels slot is named in the app's words, not a Python function's (read_run).
    message = at.error[0].value
    assert message.endswith("(this looks like a run line: upload it with the run files)") and "read_" not in message


def test_a_mistyped_measure_keeps_the_numbers_of_the_same_files_and_says_so():
    at = _upload(open_app(PAGE))
    before = _table(at, "rf_aggregate_table")
    at.text_input(key="rf_measures_text").set_value("nDGC@10").run()
    assert any("nDGC@10" in e.value for e in at.error)
    assert any("last measures that were valid (AP, nDCG@10, P@10, RR), on these same files" in w.value
               for w in at.warning), [w.value for w in at.warning]
    pd.testing.assert_frame_equal(_table(at, "rf_aggregate_table"), before)
    assert any("runs A (`a.run`), B (`b.run`)" in c.value for c in at.caption), [c.value for c in at.caption]


def test_runs_go_by_their_tags_as_on_the_command_line():
    # The files' lines end in A and B: the CLI prints "# run: A (a.run)"; the page names them A and B,
    # and two uploads with one tag are told apart by their file names.
    at = _upload(open_app(PAGE), runs=(("run_sysA.txt", RUN_A), ("copy.txt", RUN_A), ("b.run", RUN_B)))
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert list(_table(at, "rf_aggregate_table")["run"]) == ["A (run_sysA.txt)", "A (copy.txt)", "B"]


def test_malformed_qrels_names_its_line():
    at = _upload(open_app(PAGE), qrels=("bad.qrels", b"q1 0 a 1\nq1 0 b one\n"))
    assert not at.exception
    assert any("bad.qrels line 2" in e.value for e in at.error), [e.value for e in at.error]


def test_run_without_common_queries_is_an_error_not_a_traceback():
    at = _upload(open_app(PAGE), runs=(("other.run", b"zz Q0 a 1 1.0 A\n"),))
    assert not at.exception
    assert any("other.run" in e.value and "no query" in e.value for e in at.error)


def test_measures_typed_in_either_family():
    at = open_app(PAGE)
    at.text_input(key="rf_measures_text").set_value("ndcg_cut_20, ERR@20 P.5,10").run()
    assert not at.exception and not at.error
    aggregate = _table(at, "rf_aggregate_table").set_index("run")
    expected = evaluate(SAMPLE_QRELS, SAMPLE_RUNS["bm25"], ["nDCG@20", "ERR@20", "P@5"])
    for measure in ("nDCG@20", "ERR@20", "P@5"):
        assert aggregate.loc["bm25", measure] == pytest.approx(expected.mean[measure], abs=1e-12)
    at.text_input(key="rf_measures_text").set_value("nDGC@10").run()
    assert not at.exception
    assert any("nDGC@10" in e.value and "nDCG" in e.value for e in at.error)
    assert "nDCG@20" in _table(at, "rf_aggregate_table").columns  # last valid result kept


def test_delta_metrics_and_significance_equal_the_package():
    at = open_app(PAGE)
    measure = at.selectbox(key="rf_delta_measure").value
    a = evaluate(SAMPLE_QRELS, SAMPLE_RUNS["bm25"], [measure]).per_query[measure]
    b = evaluate(SAMPLE_QRELS, SAMPLE_RUNS["dense"], [measure]).per_query[measure]
    delta = b - a
    assert [m.value for m in at.metric] == [str((delta > 0).sum()), str((delta == 0).sum()), str((delta < 0).sum())]
    shown = _table(at, "rf_significance_table")
    expected = compare(SAMPLE_QRELS, {name: SAMPLE_RUNS[name] for name in ("bm25", "dense")}, MEASURES).table
    np.testing.assert_allclose(shown["p_adjusted"].to_numpy(float), expected["p_adjusted"].to_numpy(float), rtol=1e-12)
    at.selectbox(key="rf_correction").set_value("none").run()
    at.selectbox(key="rf_test").set_value("randomization").run()
    assert not at.exception
    expected = compare(SAMPLE_QRELS, {name: SAMPLE_RUNS[name] for name in ("bm25", "dense")}, MEASURES,
                       test="randomization", correction=None).table
    np.testing.assert_allclose(_table(at, "rf_significance_table")["p_value"].to_numpy(float),
                               expected["p_value"].to_numpy(float))


def test_precision_recall_curve_averages_interpolated_precision():
    at = open_app(PAGE)
    chart = at.get("vega_lite_chart")
    specs = [c.proto.spec for c in chart]
    assert any("Interpolated precision at 11 recall levels" in spec for spec in specs)
    expected = evaluate(SAMPLE_QRELS, SAMPLE_RUNS["dense"], [f"IPrec@{level}" for level in PR_LEVELS]).mean
    # The chart's data (Arrow tables beside the spec) carry the averaged values.
    import pyarrow as pa

    pr_chart = next(c for c in chart if "Interpolated precision at 11" in c.proto.spec)
    frames = [pa.ipc.open_stream(d.data.data).read_all().to_pandas() for d in pr_chart.proto.datasets]
    rows = next(f for f in frames if "recall level" in f.columns)  # the 11-point layer
    dense = rows[rows["system"] == "dense"]
    shown = sorted({round(float(v), 12) for v in dense["interpolated precision"].dropna()})
    assert shown == sorted({round(float(v), 12) for v in expected.to_numpy()})


def test_per_query_filter_and_run_choice():
    at = open_app(PAGE)
    at.text_input(key="rf_query_filter").set_value("407, 415").run()
    table = _table(at, "rf_per_query_table")
    assert sorted(set(table["query_id"])) == ["407", "415"]
    at.multiselect(key="rf_per_query_runs").set_value(["dense"]).run()
    assert set(_table(at, "rf_per_query_table")["run"]) == {"dense"}


def test_too_large_file_gets_a_clear_message(monkeypatch):
    import rankviz.ui.uploads as uploads

    monkeypatch.setattr(uploads, "MAX_UPLOAD_MB", 1)
    big = RUN_A * (2 * 1024 * 1024 // len(RUN_A))  # 2 MB of valid lines
    at = _upload(open_app(PAGE), runs=(("big.run", big),))
    assert not at.exception
    assert any("big.run is 2 MB; the upload limit is 1 MB" in e.value for e in at.error), [e.value for e in at.error]
    monkeypatch.undo()
    assert size_problem("x.run", 200 * 1024 * 1024) is None
    assert "the upload limit is 200 MB" in size_problem("x.run", 200 * 1024 * 1024 + 1)


def test_measure_text_parsing():
    assert split_measure_text("a, b;c  d") == ["a", "b", "c", "d"]
    assert chosen_measures([], "map P_10 runid relstring") == ("AP", "P@10")
    with pytest.raises(ValueError, match="Choose at least one measure"):
        chosen_measures([], "  ")


def _big_collection(queries: int, docs: int):
    """A run of queries x docs lines, with qrels judging every 10th document."""
    rng = np.random.default_rng(0)
    qid = np.repeat(np.arange(queries), docs).astype(str)
    doc = np.tile(np.arange(docs), queries).astype(str)
    score = np.round(rng.random(queries * docs), 3)  # 3 decimals: some ties
    rank = np.tile(np.arange(1, docs + 1), queries).astype(str)
    lines = np.char.add(np.char.add(np.char.add(qid, " Q0 d"), doc), " ")
    lines = np.char.add(np.char.add(np.char.add(lines, rank), " "), np.char.mod("%.3f", score))
    run = ("\n".join(np.char.add(lines, " big").tolist()) + "\n").encode()
    judged = np.arange(0, queries * docs, 10)
    qrels = "".join(f"{qid[i]} 0 d{doc[i]} {int(rng.integers(0, 3))}\n" for i in judged).encode()
    return qrels, run


def test_a_large_run_uploaded_through_the_page_is_evaluated():
    # 200 queries x 1000 documents = 200k lines (~7 MB), to keep CI light. By hand, 1000 x 1000 = 1M lines
    # (~35 MB) took 3.0 s from upload to tables on this 2-core machine (1.2 GB peak for the whole test).
    qrels, run = _big_collection(200, 1000)
    at = open_app(PAGE)
    started = time.perf_counter()
    at = _upload(at, qrels=("big.qrels", qrels), runs=(("big.run", run),))
    elapsed = time.perf_counter() - started
    assert not at.exception and not at.error
    expected = evaluate(qrels.decode(), run.decode(), MEASURES)
    aggregate = _table(at, "rf_aggregate_table").set_index("run")
    assert aggregate.loc["big", "queries"] == 200
    for measure in MEASURES:
        assert aggregate.loc["big", measure] == pytest.approx(expected.mean[measure], abs=1e-12)
    print(f"200k-line run through the page: {elapsed:.1f} s")


def test_download_payloads_carry_the_shown_numbers():
    import io

    from rankviz.teaching.export import to_csv_bytes
    from rankviz.ui.run_files import aggregate_table, evaluate_files, per_query_table, significance
    from rankviz.ui.uploads import sample_file

    runs = [sample_file("run", name) for name in ("bm25", "dense")]
    evaluation = evaluate_files(sample_file("qrels"), runs, MEASURES)
    aggregate = pd.read_csv(io.BytesIO(to_csv_bytes(aggregate_table(evaluation))))
    expected = evaluate(SAMPLE_QRELS, SAMPLE_RUNS["dense"], MEASURES).mean
    assert aggregate.set_index("run").loc["dense", MEASURES].to_numpy() == pytest.approx(expected.to_numpy(), abs=1e-12)
    per_query = pd.read_csv(io.BytesIO(to_csv_bytes(per_query_table(evaluation))), dtype={"query_id": str})
    assert len(per_query) == 40 and set(per_query.columns) == {"query_id", "run", *MEASURES}
    latex = significance(evaluation, baseline="bm25", test="t", correction="holm").to_latex()
    assert "\\begin{table}" in latex and "dense" in latex and f"{expected['AP']:.4f}" in latex


SUBTOPICS = b"q1 1 a 1\nq1 1 c 1\nq1 2 b 1\nq1 2 c 1\nq2 1 x 1\nq2 2 y 1\nq2 3 y 1\n"


def _upload_format(at, qrels_format, qrels, runs=(("a.run", RUN_A), ("b.run", RUN_B)), zscores=None):
    at.radio(key="rf_source").set_value("Upload files").run()
    at.selectbox(key="rf_qrels_format").set_value(qrels_format).run()
    at.file_uploader(key="rf_qrels_file").set_value((qrels[0], qrels[1], "text/plain"))
    at.file_uploader(key="rf_run_files").set_value([(name, data, "text/plain") for name, data in runs])
    if zscores is not None:
        at.file_uploader(key="rf_zscores_file").set_value(("z.txt", zscores, "text/plain"))
    return at.run()


def test_subtopic_qrels_are_evaluated_with_the_diversity_measures_as_evaluate_does():
    from rankviz.ui.run_files import default_choices

    at = _upload_format(open_app(PAGE), "subtopics", ("div.qrels", SUBTOPICS))
    assert not at.exception and not at.error, [e.value for e in at.error]
    measures = list(default_choices("subtopics"))
    assert at.multiselect(key="rf_measures_subtopics").value == measures
    aggregate = _table(at, "rf_aggregate_table").set_index("run")
    for name, run in (("A", RUN_A), ("B", RUN_B)):
        expected = evaluate(SUBTOPICS.decode(), run.decode(), measures, qrels_format="subtopics")
        for measure in measures:
            assert aggregate.loc[name, measure] == pytest.approx(expected.mean[measure], abs=1e-12), measure
    assert any("needs graded qrels" in info.value for info in at.info)  # no precision-recall curve


def test_a_malformed_subtopic_file_names_its_line_and_shows_no_other_files_numbers():
    at = _upload_format(open_app(PAGE), "subtopics", ("div.qrels", SUBTOPICS))
    assert not at.error
    at.file_uploader(key="rf_qrels_file").set_value(("bad.qrels", SUBTOPICS + b"q2 2 z yes\n", "text/plain"))
    at.run()
    assert not at.exception
    message = " ".join(e.value for e in at.error)
    assert "bad.qrels" in message and "line 8" in message, message
    assert not at.dataframe  # div.qrels's numbers are not bad.qrels's


def test_preference_judgments_and_z_scores_give_evaluates_numbers():
    prefs = b"q1 1 1 a 2\nq1 1 1 b 1\nq1 1 1 c 0\nq2 1 1 x 1\nq2 1 1 y 0\nq3 1 1 z 1\nq3 1 1 v 0\n"
    at = _upload_format(open_app(PAGE), "prefs", ("p.prefs", prefs))
    assert not at.exception and not at.error, [e.value for e in at.error]
    aggregate = _table(at, "rf_aggregate_table").set_index("run")
    measures = at.multiselect(key="rf_measures_prefs").value
    assert measures == ["prefs_simp", "prefs_pair", "prefs_avgjg"]
    expected = evaluate(prefs.decode(), RUN_B.decode(), measures, qrels_format="prefs")
    for measure in measures:
        assert aggregate.loc["B", measure] == pytest.approx(expected.mean[measure], abs=1e-12)
    zscores = b"q1 map 0.5 0.25\nq2 map 0.2 0.1\nq3 map 0.4 0.2\n"
    at = _upload_format(open_app(PAGE), "qrels", ("qrels.txt", QRELS), zscores=zscores)
    assert not at.exception and not at.error, [e.value for e in at.error]
    from rankviz.trec.preferences import read_zscores

    expected = evaluate(QRELS.decode(), RUN_A.decode(), MEASURES, zscores=read_zscores(zscores.decode()))
    per_query = _table(at, "rf_per_query_table")
    shown = per_query[per_query.run == "A"].set_index("query_id")["AP"]
    np.testing.assert_allclose(shown.to_numpy(float), expected.per_query.loc[list(shown.index), "AP"].to_numpy(float),
                               rtol=0, atol=1e-12)
    assert shown.loc["q1"] == pytest.approx((evaluate(QRELS.decode(), RUN_A.decode(), ["AP"]).per_query.loc["q1", "AP"]
                                             - 0.5) / 0.25)
