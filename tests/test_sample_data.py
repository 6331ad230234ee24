"""The sample collection shipped with the app: regenerated identically by its seeded script, and
readable by rankviz with the properties the pages rely on (ties in bm25_rounded, a query without
relevant documents)."""

from __future__ import annotations

from rankviz.data import SAMPLE_DIR, SAMPLE_QRELS, SAMPLE_RUNS, make_sample
from rankviz.evaluation.evaluator import evaluate
from rankviz.trec.readers import read_qrels, read_run


def test_make_sample_regenerates_the_shipped_files(tmp_path, monkeypatch):
    monkeypatch.setattr(make_sample, "OUT", tmp_path)
    make_sample.main()
    for path in [SAMPLE_QRELS, *SAMPLE_RUNS.values()]:
        assert (tmp_path / path.name).read_bytes() == path.read_bytes(), path.name
    assert sorted(p.name for p in SAMPLE_DIR.iterdir()) == sorted(p.name for p in tmp_path.iterdir())


def test_sample_collection_shape():
    qrels = read_qrels(SAMPLE_QRELS)
    assert qrels["query_id"].nunique() == 20
    relevant = qrels[qrels["relevance"] > 0].groupby("query_id").size()
    assert "415" not in relevant.index  # no relevant document: every measure is 0
    for name, path in SAMPLE_RUNS.items():
        run = read_run(path)
        assert len(run) == 20 * 50 and run.attrs["run_name"] == name
    rounded = read_run(SAMPLE_RUNS["bm25_rounded"])
    assert rounded.duplicated(["query_id", "score"]).mean() > 0.5  # most documents share a score
    means = {name: evaluate(qrels, path, ["AP"]).mean["AP"] for name, path in SAMPLE_RUNS.items()}
    assert means["dense"] > means["bm25"]  # the better system is better
    assert sum(p.stat().st_size for p in SAMPLE_DIR.iterdir()) < 300_000
