"""Differential test: ``evaluate(..., as_tool="spark")`` equals Spark MLlib's RankingMetrics (pyspark 4.3.0), query by query.

How a query reaches Spark, i.e. what a Spark user builds and what the "spark" profile assumes:

* one row per judged query that the run answers: the run joined with the judgments, as Spark's own
  example ("Ranking systems" in mllib-evaluation-metrics) joins the recommendations with the ground
  truth. A run query without judgments has no row. A judged query the run misses has none either
  (``missing_query="skip"``); a left join would give it an empty predicted list, which Spark scores 0
  (``missing_query="zero"``: checked too);
* the predicted list: the run's documents, best score first, tied documents in the run's order as given
  (a stable sort by score: ``ties="input_order"``);
* the labels (Spark's "ground truth set"): the judged documents of grade >= 1, retrieved or not, the
  highest grade first. A query whose judgments hold no relevant document gets an empty set: Spark logs
  "Empty ground truth set, check input data" and counts 0 (RankingMetrics.scala, in
  ``countRelevantItemRatio``, ``averagePrecision`` and ``ndcgAt``: ``if (labSet.nonEmpty) ... else
  { logWarning(...); 0.0 }``), so ``no_relevant="zero"``.

RankingMetrics only returns means over its rows, so each query gets a RankingMetrics of its own over a
one-row RDD and each value is one small job. The rows are Scala tuples of Java arrays built through py4j,
so no Python worker starts: the per-query values come from RankingMetrics' own Scala methods.

Graded nDCG. Spark >= 3.4's Scala RankingMetrics also takes rows (predicted, labels, relevance values)
(SPARK-39446): ndcgAt then weighs a document 2^rel − 1 and divides by the DCG of the *label list in the
order given* (``maxDcg += (2^rel(lab(i)) − 1) / log(i + 2)`` for i < min(|labels|, k)): with the labels
sorted by grade it is nDCG with exponential gain, in another order its "ideal" is not the ideal.
pyspark's RankingMetrics accepts such triples but passes Spark only the first two columns
(``PythonMLLibAPI.newRankingMetrics`` builds ``(row.getSeq(0), row.getSeq(1))``), so from Python ndcgAt is
always binary, the profile's ``gain="binary"``. Each of these is checked below against Spark itself.

One SparkSession for the module (``local[1]``, no UI, logs at ERROR, a C1-only JVM); the module takes 19 s on
a busy 2-core machine: Spark's start 5-8 s, pyspark's own class 4-6 s (its Python worker), some 470 one-row
jobs the rest. Without java or pyspark the tests skip, except under ``CI=true`` where they must run (``.ci/run``
installs a JRE when ``java`` is missing, requirements-dev.txt pins pyspark).
"""

from __future__ import annotations

import math
import os
import shutil
import sys
import warnings

import pytest

import rankviz
from generated_runs import SEEDS, frames, generated
from rankviz.metrics.kernels.conventions import dcg_value
from test_tool_profiles import assert_same, ours

K = 5
#: rankviz's name -> the RankingMetrics call giving it.
MEASURES = {f"nDCG@{K}": lambda m: m.ndcgAt(K), f"AP@{K}": lambda m: m.meanAveragePrecisionAt(K),
            "AP": lambda m: m.meanAveragePrecision(), f"P@{K}": lambda m: m.precisionAt(K),
            f"R@{K}": lambda m: m.recallAt(K)}

LOG4J2 = """rootLogger.level = error
rootLogger.appenderRef.console.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %p %c{1}: %m%n
"""


def _missing() -> str | None:
    java_home = os.environ.get("JAVA_HOME")
    if shutil.which("java") is None and not (java_home and os.path.isfile(os.path.join(java_home, "bin", "java"))):
        return "java is not installed (apt-get install default-jre-headless): Spark needs a JVM"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)  # pyspark 4.3 on pandas 3
            import pyspark  # noqa: F401
            import pyspark.sql  # noqa: F401
    except ImportError as error:
        return f"pyspark is not installed ({error}); install requirements-dev.txt to run these tests"
    return None


@pytest.fixture(scope="module")
def spark(tmp_path_factory):
    """One local SparkSession for the module; its JVM is ended (stdin closed) when the module is done."""
    missing = _missing()
    if missing:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(missing + " (CI=true: the Spark differential tests must run in CI)")
        pytest.skip(missing)
    from pyspark import SparkContext
    from pyspark.sql import SparkSession

    config = tmp_path_factory.mktemp("spark") / "log4j2.properties"
    config.write_text(LOG4J2)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYSPARK_PYTHON", sys.executable)  # the Python worker of the pyspark-class test
        # C1 only and the serial collector: quicker to start, for a JVM that runs a few hundred tiny jobs
        java_options = f"-Dlog4j2.configurationFile=file:{config} -XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)  # pyspark 4.3 on pandas 3
            session = (SparkSession.builder.master("local[1]").appName("rankviz-spark-profile")
                       .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
                       .config("spark.driver.extraJavaOptions", java_options).getOrCreate())
        session.sparkContext.setLogLevel("ERROR")
        gateway = SparkContext._gateway
        try:
            yield session
        finally:
            session.stop()
            gateway.shutdown()
            if gateway.proc is not None:  # the gateway JVM exits when its stdin closes
                gateway.proc.stdin.close()
                gateway.proc.wait(timeout=30)
            SparkContext._gateway = SparkContext._jvm = None


def spark_input(qrels: dict, run: dict, q: str):
    """A query's (predicted list, labels, their grades), as the module docstring says."""
    docs = run.get(q, {})
    predicted = sorted(docs, key=lambda d: -docs[d])  # stable: ties in the run's order
    labels = sorted((d for d, g in qrels[q].items() if g >= 1), key=lambda d: -qrels[q][d])
    return predicted, labels, [float(qrels[q][d]) for d in labels]


def ranking_metrics(session, predicted, labels, relevance=None):
    """Spark's RankingMetrics (Scala) over one row: (predicted, labels) or (predicted, labels, relevance)."""
    jvm, gateway = session.sparkContext._jvm, session.sparkContext._gateway

    def array(items, kind):
        out = gateway.new_array(kind, len(items))
        for i, item in enumerate(items):
            out[i] = item
        return out

    row = (jvm.scala.Tuple2(array(predicted, jvm.java.lang.Object), array(labels, jvm.java.lang.Object))
           if relevance is None else
           jvm.scala.Tuple3(array(predicted, jvm.java.lang.Object), array(labels, jvm.java.lang.Object),
                            array(relevance, jvm.double)))
    rdd = session.sparkContext._jsc.parallelize([row], 1).rdd()
    class_tag = getattr(getattr(jvm.scala.reflect, "ClassTag$"), "MODULE$").AnyRef()
    return jvm.org.apache.spark.mllib.evaluation.RankingMetrics(rdd, class_tag)


def variant(qrels, run, measure: str, **changes) -> dict:
    """The spark profile with some conventions changed, per query (the queries it leaves out dropped)."""
    table = rankviz.disagreement(*frames(qrels, run), measure, a="spark", b={"tool": "spark", **changes})
    assert set(c for named in table["conventions"] for c in named) <= set(changes)
    return {q: v for q, v in zip(table["query"], table["b"]) if not math.isnan(v)}


@pytest.mark.parametrize("seed", SEEDS)
def test_spark_ranking_metrics(spark, seed):
    """precisionAt, recallAt, ndcgAt, meanAveragePrecisionAt and meanAveragePrecision, query by query."""
    qrels, run = generated(seed)
    expected: dict = {name: {} for name in MEASURES}
    for q in qrels:
        if q in run:
            predicted, labels, _ = spark_input(qrels, run, q)
            metrics = ranking_metrics(spark, predicted, labels)
            for name, call in MEASURES.items():
                expected[name][q] = call(metrics)
    assert any(not spark_input(qrels, run, q)[1] for q in expected["AP"]), "no query without relevant documents"
    for name in MEASURES:
        assert_same(expected[name], ours(qrels, run, name, "spark"), f"Spark {name}")


@pytest.mark.parametrize("seed", SEEDS)
def test_a_query_missing_from_the_run_as_an_empty_predicted_list_scores_zero(spark, seed):
    """The left join's row (an empty predicted list) is what ``missing_query="zero"`` gives."""
    qrels, run = generated(seed)
    missing = [q for q in qrels if q not in run]
    assert missing
    for q in missing:
        metrics = ranking_metrics(spark, [], spark_input(qrels, run, q)[1])
        for name, call in MEASURES.items():
            assert_same({q: call(metrics)}, {q: variant(qrels, run, name, missing_query="zero")[q]}, f"Spark {name}")


@pytest.mark.parametrize("seed", SEEDS)
def test_scala_graded_ndcg_is_exponential_gain_over_the_labels_in_the_order_given(spark, seed):
    """Triples (predicted, labels, grades): with the labels sorted by grade, ndcgAt is the profile with
    ``gain="exponential"``; with the labels lowest grade first, it divides the same DCG by the DCG of that
    order (rankviz's dcg_value over the listed grades)."""
    qrels, run = generated(seed)
    measure = f"nDCG@{K}"
    graded, listed = {}, {}
    exponential = variant(qrels, run, measure, gain="exponential")
    for q in qrels:
        if q in run:
            predicted, labels, grades = spark_input(qrels, run, q)
            graded[q] = ranking_metrics(spark, predicted, labels, grades).ndcgAt(K)
            if labels:
                ascending = sorted(range(len(labels)), key=lambda i: grades[i])
                listed[q] = (ranking_metrics(spark, predicted, [labels[i] for i in ascending],
                                             [grades[i] for i in ascending]).ndcgAt(K),
                             exponential[q] * dcg_value(grades, k=K, gain="exponential")
                             / dcg_value([grades[i] for i in ascending], k=K, gain="exponential"))
    assert_same(graded, exponential, f"Spark graded {measure}")
    assert_same({q: v for q, (v, _) in listed.items()}, {q: v for q, (_, v) in listed.items()},
                f"Spark graded {measure}, labels lowest grade first")


def test_pyspark_passes_spark_no_relevance_values(spark):
    """pyspark's own RankingMetrics, given triples (predicted, labels, grades) for every seed's queries in one
    RDD: its mean ndcgAt is the binary profile's (the Python path drops the relevance values), not the
    exponential gain's; its MAP is the profile's too (two calls: each runs the rows through a Python worker)."""
    from pyspark.mllib.evaluation import RankingMetrics

    rows, binary, exponential, ap = [], [], [], []
    for seed in SEEDS:
        qrels, run = generated(seed)
        for values, got in ((binary, ours(qrels, run, f"nDCG@{K}", "spark")), (ap, ours(qrels, run, "AP", "spark")),
                            (exponential, variant(qrels, run, f"nDCG@{K}", gain="exponential"))):
            values += [got[q] for q in sorted(got)]
        rows += [spark_input(qrels, run, q) for q in sorted(qrels) if q in run]
    assert len(rows) == len(binary) == len(exponential) == len(ap)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # pyspark's SQLContext inside RankingMetrics
        metrics = RankingMetrics(spark.sparkContext.parallelize(rows, 1))
        ndcg, mean_ap = metrics.ndcgAt(K), metrics.meanAveragePrecision
    assert ndcg == pytest.approx(sum(binary) / len(binary), abs=1e-12)
    assert abs(ndcg - sum(exponential) / len(exponential)) > 1e-3
    assert mean_ap == pytest.approx(sum(ap) / len(ap), abs=1e-12)
