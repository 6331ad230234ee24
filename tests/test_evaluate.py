"""evaluate(): API behaviour, trec_eval's conventions on tiny hand-checked cases, and a
differential test that walks the registry: for every entry with a per-query function and a
vectorized kernel, evaluate equals the per-query function of rankviz.metrics (the
obviously-correct reference) called as the entry says, on random data."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rankviz import metrics
from rankviz.evaluation.evaluator import EvalResult, evaluate
from rankviz.evaluation.measures import Measure
from rankviz.metrics.kernels.segments import segment_cumsum, segment_sum, suffix_max
from rankviz.registry import METRICS
from rankviz.trec.readers import read_qrels_table, read_run_table

QRELS = """\
q1 0 a 1
q1 0 b 0
q1 0 c 2
q1 0 d 1
q2 0 x 1
q3 0 y 1
"""
RUN = """\
q1 Q0 b 1 9.0 tagA
q1 Q0 a 2 8.0 tagA
q1 Q0 c 3 8.0 tagA
q1 Q0 e 4 7.0 tagA
q2 Q0 z 1 3.0 tagA
q2 Q0 x 2 2.0 tagA
q9 Q0 a 1 1.0 tagA
"""


def frames():
    qrels = pd.DataFrame({"query_id": ["q1", "q1", "q1", "q1", "q2", "q3"],
                          "doc_id": ["a", "b", "c", "d", "x", "y"],
                          "relevance": [1, 0, 2, 1, 1, 1]})
    run = pd.DataFrame({"query_id": ["q1", "q1", "q1", "q1", "q2", "q2", "q9"],
                        "doc_id": ["b", "a", "c", "e", "z", "x", "a"],
                        "score": [9.0, 8.0, 8.0, 7.0, 3.0, 2.0, 1.0]})
    return qrels, run


# ---------------------------------------------------------------------------------------------
# Conventions, on hand-checked values
# ---------------------------------------------------------------------------------------------


def test_ties_broken_by_docno_descending():
    # q1: b (9.0), then a and c tie at 8.0: docno descending puts c before a. Ranking b, c, a, e
    # with grades 0, 2, 1, unjudged. relstring shows it; P@2 = 1/2 (c); RR = 1/2.
    result = evaluate(QRELS, RUN, ["relstring", "P@2", "RR"])
    row = result.per_query.loc["q1"]
    assert row["relstring"] == "021-"
    assert row["P@2"] == 1 / 2
    assert row["RR"] == 1 / 2


def test_tie_order_is_byte_order_not_case_insensitive():
    # "B" (0x42) < "a" (0x61) in strcmp order, so descending puts "a" first.
    qrels = pd.DataFrame({"query_id": ["q"] * 2, "doc_id": ["B", "a"], "relevance": [0, 1]})
    run = pd.DataFrame({"query_id": ["q"] * 2, "doc_id": ["B", "a"], "score": [1.0, 1.0]})
    assert evaluate(qrels, run, "RR").per_query.at["q", "RR"] == 1.0


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.text(alphabet="aB\u00e9z0", min_size=1,
                                                                       max_size=4)), max_size=40))
def test_trec_eval_order_of_docnos_of_one_width_is_byte_order_descending(rows):
    """Docnos of one byte width take trec_eval_order's fixed-width path (their bytes read in
    place, compared by Arrow): the same order as Python's sort of their bytes, grouped or not."""
    from rankviz.evaluation.ranking import trec_eval_order

    rows = list({(q, d): (q, s, d) for q, s, d in rows}.values())  # a docno once per query
    query = np.array([q for q, _, _ in rows], dtype=np.int64)
    score = np.array([s / 2 for _, s, _ in rows], dtype=np.float64)
    same_width = [d.encode().ljust(8, b"_").decode() for _, _, d in rows]
    expected = sorted(range(len(rows)), key=lambda i: (query[i], -score[i], [-b for b in same_width[i].encode()]))
    assert trec_eval_order(query, score, same_width).tolist() == expected


def test_tie_order_of_same_width_docnos_is_unsigned_byte_order():
    # Same byte width (4), so the fixed-width path sorts them: "ab\u00e9" is 61 62 c3 a9 and
    # 0xc3 > "z" (0x7a) as unsigned bytes, as strcmp compares; "abzz" > "abza" at the last byte.
    # Descending: "ab\u00e9", "abzz", "abza". Only "abza" is relevant: RR = 1/3.
    docs = ["abza", "ab\u00e9", "abzz"]
    qrels = pd.DataFrame({"query_id": ["q"] * 3, "doc_id": docs, "relevance": [1, 0, 0]})
    run = pd.DataFrame({"query_id": ["q"] * 3, "doc_id": docs, "score": [2.0, 2.0, 2.0]})
    assert evaluate(qrels, run, "RR").per_query.at["q", "RR"] == 1 / 3


@given(st.lists(st.tuples(st.integers(0, 3), st.sampled_from([1.0, 2.0, 2.5]),
                          st.text("aBz\u00e9\u4e2d", min_size=1, max_size=3)),
                unique_by=lambda row: (row[0], row[2]), max_size=25),
       st.booleans())
def test_trec_eval_order_is_query_then_score_then_docno_bytes_descending(rows, grouped):
    # The one tie routine (evaluate, order_run and the diversity run all rank with it), against
    # the rule written as a Python sort key; ``grouped`` lays the rows out as run files do (each
    # query's lines together, best first), the case ranked without a sort of the whole run.
    from rankviz.evaluation.ranking import trec_eval_order

    def key(i):
        return rows[i][0], -rows[i][1], [-b for b in rows[i][2].encode()] + [1]

    if grouped:
        rows = sorted(rows, key=lambda row: (row[0], -row[1]))
    expected = sorted(range(len(rows)), key=key)
    order = trec_eval_order(np.array([q for q, _, _ in rows], dtype=np.int64), np.array([s for _, s, _ in rows]),
                            [d for _, _, d in rows])
    assert order.tolist() == expected


def test_rank_column_is_ignored():
    reversed_ranks = RUN.replace(" 1 9.0", " 4 9.0").replace(" 4 7.0", " 1 7.0")
    a = evaluate(QRELS, RUN, "official")
    b = evaluate(QRELS, reversed_ranks, "official")
    pd.testing.assert_frame_equal(a.per_query, b.per_query)


def test_scores_not_sorted_in_the_file_are_sorted():
    qrels, run = frames()
    shuffled = run.sample(frac=1.0, random_state=3)
    pd.testing.assert_frame_equal(evaluate(qrels, run, "official").per_query,
                                  evaluate(qrels, shuffled, "official").per_query)


def test_queries_only_in_the_run_are_ignored_and_missing_ones_left_out():
    result = evaluate(QRELS, RUN, ["AP", "NumQ"])
    assert list(result.per_query.index) == ["q1", "q2"]  # q9 has no judgments, q3 no run
    assert result.mean["NumQ"] == 2


def test_complete_scores_missing_queries_as_empty_rankings():
    # AP: q1 = (1/2 + 2/3) / 3 (c at 2, a at 3, R = 3), q2 = (1/2) / 1, q3 = 0.
    result = evaluate(QRELS, RUN, ["AP", "NumQ", "NumRet", "NumRel"], complete=True)
    assert list(result.per_query.index) == ["q1", "q2", "q3"]
    assert result.per_query.at["q3", "AP"] == 0.0
    assert result.per_query.at["q3", "NumRet"] == 0
    assert result.per_query.at["q3", "NumRel"] == 1
    ap_q1 = (1 / 2 + 2 / 3) / 3
    assert result.mean["AP"] == pytest.approx((ap_q1 + 1 / 2 + 0) / 3)
    assert result.mean["NumQ"] == 3
    without = evaluate(QRELS, RUN, ["AP"])
    assert without.mean["AP"] == pytest.approx((ap_q1 + 1 / 2) / 2)


def test_depth_keeps_the_top_documents_after_sorting():
    # depth 2 on q1 keeps b, c: AP = (1/2) / 3; num_ret 2.
    result = evaluate(QRELS, RUN, ["AP", "NumRet"], depth=2)
    assert result.per_query.at["q1", "NumRet"] == 2
    assert result.per_query.at["q1", "AP"] == pytest.approx((1 / 2) / 3)


def test_rel_threshold_and_per_measure_rel():
    # -l 2: only c (grade 2) is relevant in q1: R = 1, c at rank 2 -> AP = 1/2; nDCG unaffected.
    low = evaluate(QRELS, RUN, ["AP", "nDCG"])
    high = evaluate(QRELS, RUN, ["AP", "nDCG"], rel_threshold=2)
    assert high.per_query.at["q1", "AP"] == 1 / 2
    assert high.per_query.at["q1", "nDCG"] == low.per_query.at["q1", "nDCG"]
    own = evaluate(QRELS, RUN, ["AP(rel=2)"])
    assert own.per_query.at["q1", "AP(rel=2)"] == 1 / 2


def test_negative_grades_are_pooled_but_unjudged():
    # d1 (-1) at rank 1, d2 (0) at 2, d3 (1) at 3. P@3 = 1/3 (-1 is not relevant); bpref skips
    # d1: one judged non-relevant (d2) above d3, R = 1, N = 1: 1 - min(1,1)/min(1,1) = 0.
    # infAP at j = 2: 1/3 + (2/3) * ((0 + 1 + 1)/2) * ((0 + e)/(0 + 1 + 2e)) ~= 1/3.
    qrels = "q 0 d1 -1\nq 0 d2 0\nq 0 d3 1\n"
    run = "q Q0 d1 1 3 t\nq Q0 d2 2 2 t\nq Q0 d3 3 1 t\n"
    row = evaluate(qrels, run, ["P@3", "Bpref", "infAP", "unj@3", "relstring"]).per_query.loc["q"]
    assert row["P@3"] == 1 / 3
    assert row["Bpref"] == 0.0
    e = 1e-5
    assert row["infAP"] == pytest.approx(1 / 3 + (2 / 3) * (2 / 2) * (e / (1 + 2 * e)))
    assert row["unj@3"] == 1 / 3
    assert row["relstring"] == ".01"


def test_judged_only_drops_unjudged_then_reranks():
    # q1 ranking b, c, a, e: e is unjudged; judged-only keeps b, c, a.
    result = evaluate(QRELS, RUN, ["NumRet", "P@3"], judged_only=True)
    assert result.per_query.at["q1", "NumRet"] == 3
    # q2: z unjudged dropped, x moves to rank 1.
    assert result.per_query.at["q2", "P@3"] == 1 / 3


def test_aggregates_sum_counts_and_geometric_mean_for_gmap():
    result = evaluate(QRELS, RUN, ["NumRet", "GMAP", "AP"], complete=True)
    assert result.mean["NumRet"] == 4 + 2
    aps = result.per_query["GMAP"].to_numpy()
    expected = np.exp(np.mean(np.log(np.maximum(aps, 1e-5))))  # trec_eval floors AP at 1e-5
    assert result.mean["GMAP"] == pytest.approx(expected)
    assert result.mean["GMAP"] == pytest.approx(metrics.geometric_mean_average_precision(aps))


def test_interpolated_precision_rounding_follows_the_trec_eval_version():
    # R = 4 (one relevant never retrieved); relevant at ranks 1, 2, 6. Level 0.6: 0.6 * 4 = 2.4
    # relevant docs -> lround = 2 in trec_eval 10 (max(2/2, 3/6) = 1.0), (long)(2.4 + 0.9) = 3
    # in trec_eval 9 (3/6 = 0.5).
    qrels = "q 0 r1 1\nq 0 r2 1\nq 0 r3 1\nq 0 r4 1\n"
    run = "".join(f"q Q0 {d} {i} {10 - i} t\n" for i, d in enumerate(["r1", "r2", "n1", "n2", "n3", "r3"], 1))
    v10 = evaluate(qrels, run, "IPrec@0.6").per_query.at["q", "IPrec@0.6"]
    v9 = evaluate(qrels, run, "IPrec@0.6", trec_eval_version="9").per_query.at["q", "IPrec@0.6"]
    assert (v10, v9) == (1.0, 0.5)


# ---------------------------------------------------------------------------------------------
# API shape and validation
# ---------------------------------------------------------------------------------------------


def test_per_query_false_keeps_the_queries_and_the_means_but_no_per_query_values():
    full = evaluate(QRELS, RUN, ["P@2", "AP", "NumRet"])
    means_only = evaluate(QRELS, RUN, ["P@2", "AP", "NumRet"], per_query=False)
    assert list(full.per_query.columns) == ["P@2", "AP", "NumRet"]
    assert list(means_only.per_query.columns) == []
    assert list(means_only.per_query.index) == list(full.per_query.index) == ["q1", "q2"]
    pd.testing.assert_series_equal(means_only.mean, full.mean)
    assert means_only.measures == full.measures
    with pytest.raises(ValueError, match=r"'per_query' parameter of evaluate must be True or False. Got 1"):
        evaluate(QRELS, RUN, "P@2", per_query=1)


def test_result_shape_with_one_and_many_measures():
    one = evaluate(QRELS, RUN, "P@2")
    assert isinstance(one, EvalResult)
    assert list(one.per_query.columns) == ["P@2"]
    assert list(one.mean.index) == ["P@2"]
    assert one.per_query.index.name == "query_id"
    many = evaluate(QRELS, RUN, ["P_2", "map", "ndcg_cut_10", "num_ret"])
    assert list(many.per_query.columns) == ["P@2", "AP", "nDCG@10", "NumRet"]
    assert list(many.mean.index) == ["P@2", "AP", "nDCG@10", "NumRet"]
    assert many.per_query["NumRet"].dtype == np.int64
    assert many.run_name == "tagA"
    with pytest.raises(dataclasses.FrozenInstanceError):
        many.mean = None


def test_per_query_index_is_sorted_as_strings():
    qrels = "".join(f"{q} 0 d 1\n" for q in ["10", "9", "100"])
    run = "".join(f"{q} Q0 d 1 1 t\n" for q in ["9", "10", "100"])
    assert list(evaluate(qrels, run, "P@1").per_query.index) == ["10", "100", "9"]


def test_dataframe_text_and_dict_inputs_agree():
    qrels, run = frames()
    from_frames = evaluate(qrels, run, "official").per_query
    from_text = evaluate(QRELS, RUN, "official").per_query
    qrels_dict = {q: dict(zip(g.doc_id, g.relevance)) for q, g in qrels.groupby("query_id")}
    run_dict = {q: dict(zip(g.doc_id, g.score)) for q, g in run.groupby("query_id")}
    from_dicts = evaluate(qrels_dict, run_dict, "official").per_query
    pd.testing.assert_frame_equal(from_frames, from_text)
    pd.testing.assert_frame_equal(from_frames, from_dicts)


def test_inputs_are_not_mutated():
    qrels, run = frames()
    qrels_copy, run_copy = qrels.copy(deep=True), run.copy(deep=True)
    evaluate(qrels, run, "all_trec", depth=2, judged_only=True, complete=True)
    pd.testing.assert_frame_equal(qrels, qrels_copy)
    pd.testing.assert_frame_equal(run, run_copy)


def test_unknown_measure_lists_close_matches():
    with pytest.raises(ValueError, match=r"Unknown measure 'nDGC@10'.*Close matches: nDCG"):
        evaluate(QRELS, RUN, "nDGC@10")


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"depth": 0}, r"'depth' parameter of evaluate must be an int in the range \[1, inf\) or None. Got 0"),
        ({"rel_threshold": 1.5}, r"'rel_threshold' parameter of evaluate must be an int"),
        ({"complete": "yes"}, r"'complete' parameter of evaluate must be True or False. Got 'yes'"),
        ({"trec_eval_version": "8"}, r"'trec_eval_version' parameter of evaluate must be '10' or '9'. Got '8'"),
    ],
)
def test_bad_options(kwargs, message):
    with pytest.raises(ValueError, match=message):
        evaluate(QRELS, RUN, "P@5", **kwargs)


def test_bad_dataframes():
    qrels, run = frames()
    with pytest.raises(ValueError, match=r"must have columns query_id, doc_id and score.*missing score"):
        evaluate(qrels, run.rename(columns={"score": "sim"}), "P@5")
    bad = run.assign(score=run["score"].where(run.index != 2, np.nan))
    with pytest.raises(ValueError, match=r"run scores must be finite numbers; got nan at row 2"):
        evaluate(qrels, bad, "P@5")
    for dtype in ("Int64", "Float64"):  # nullable columns: a missing score is named too
        nullable = run.assign(score=pd.array([3, None] + [1] * (len(run) - 2), dtype=dtype))
        with pytest.raises(ValueError, match=r"run scores must be finite numbers; got <NA> at row 1"):
            evaluate(qrels, nullable, "P@5")
    with pytest.raises(ValueError, match=r"run scores must be finite numbers; got 'x' at row 0"):
        evaluate(qrels, run.assign(score=["x"] + [1.0] * (len(run) - 1)), "P@5")
    with pytest.raises(ValueError, match=r"qrels relevance grades must be integers; got 0.5 at row 1"):
        evaluate(qrels.assign(relevance=[1, 0.5, 2, 1, 1, 1]), run, "P@5")


def test_duplicate_documents_are_an_error():
    qrels, run = frames()
    twice = pd.concat([run, run.iloc[[0]].assign(score=1.5)], ignore_index=True)
    with pytest.raises(ValueError, match=r"run lists document 'b' twice for query 'q1'"):
        evaluate(qrels, twice, "P@5")
    with pytest.raises(ValueError, match=r"qrels lists document 'a' twice for query 'q1'"):
        evaluate(pd.concat([qrels, qrels.iloc[[0]]], ignore_index=True), run, "P@5")


def test_no_common_query_is_an_error():
    with pytest.raises(ValueError, match="no query of the run has judgments"):
        evaluate("q1 0 a 1\n", "q2 Q0 a 1 1 t\n", "P@5")


# ---------------------------------------------------------------------------------------------
# Differential: vectorized kernels == per-query reference functions, on random data
# ---------------------------------------------------------------------------------------------


def random_collection(seed: int, n_queries: int = 40, fixed_width: bool = True):
    """Random qrels and run with ties, unjudged documents, grades -1..3 and missing queries.
    Docnos of one width ("d007") take evaluate's fast matching path, others ("d7") the exact one."""
    rng = np.random.default_rng(seed)
    qrels_rows, run_rows = [], []
    for q in range(n_queries):
        qid = f"q{q}"
        docs = [f"d{i:03d}" if fixed_width else f"d{i}" for i in rng.permutation(60)]
        n_judged = int(rng.integers(0, 40))
        for doc in docs[:n_judged]:
            qrels_rows.append((qid, doc, int(rng.choice([-1, 0, 0, 0, 1, 1, 2, 3]))))
        if q % 7 == 3:
            continue  # judged, not in the run
        n_ret = int(rng.integers(0, 45))
        retrieved = rng.choice(docs, size=n_ret, replace=False)
        scores = np.round(rng.normal(size=n_ret), 1)  # 1 decimal: many ties
        run_rows += [(qid, d, float(s)) for d, s in zip(retrieved, scores)]
        if q % 11 == 5:
            run_rows.append((f"only-run-{q}", "d000", 1.0))
    qrels = pd.DataFrame(qrels_rows, columns=["query_id", "doc_id", "relevance"])
    run = pd.DataFrame(run_rows, columns=["query_id", "doc_id", "score"])
    return qrels, run


def reference_lists(qrels: pd.DataFrame, run: pd.DataFrame, complete: bool = False):
    """Per query: grades in trec_eval's order (pure Python sort; 0 for a document without a
    judgment or with a negative grade), and the non-negative judged grades. With ``complete``,
    judged queries absent from the run are empty rankings."""
    judged = {q: dict(zip(g.doc_id, g.relevance)) for q, g in qrels.groupby("query_id")}
    out = {}
    for q, group in run.groupby("query_id"):
        if q not in judged:
            continue
        items = sorted(zip(group.doc_id, group.score), key=lambda t: t[0].encode(), reverse=True)
        items = sorted(items, key=lambda t: -t[1])  # stable: ties keep docno descending
        out[q] = [max(judged[q].get(d, 0), 0) for d, _ in items]
    if complete:
        for q in judged:
            out.setdefault(q, [])
    return {q: (grades, [g for g in judged[q].values() if g >= 0]) for q, grades in out.items()}


# Cutoffs exercised for each kind of cutoff (0.0 and 1.0: the ends of the recall levels).
CUTOFFS = {"none": [None], "optional_int": [None, 1, 3, 10], "int": [1, 3, 10, 50],
           "recall": [0.0, 0.3, 0.5, 0.7, 1.0], "float": [0.5, 1.0, 2.0]}
WALKED = [spec for spec in METRICS
          if spec.measure and spec.kernel is not None and spec.inputs in ("ranking", "ranking_levels")]


def registry_measures() -> list[Measure]:
    """For every walked entry: its measure at each cutoff of its kind, with its parameters at
    their defaults, with rel=2, and with each other choice of a choice parameter (gain)."""
    out = []
    for spec in WALKED:
        variants = [()]
        for p in spec.measure_params:
            if p.measure_key == "rel":
                variants.append((("rel", 2),))
            variants += [((p.measure_key, choice),) for choice in p.values if choice != p.default]
        out += [Measure(spec.measure, cutoff, params) for cutoff in CUTOFFS[spec.cutoff] for params in variants]
    return out


def test_the_walk_covers_every_metric_with_both_forms():
    # If an entry loses its kernel or function, the walk below would skip it silently.
    assert [spec.name for spec in WALKED] == [
        "hit", "precision", "recall", "r_precision", "average_precision", "interpolated_precision",
        "eleven_point_precision", "reciprocal_rank", "dcg", "ideal_dcg", "ndcg", "err", "sdcg", "nerr8", "nerr9",
        "nerr10", "nerr11", "inst", "insq", "compat"]
    assert {str(m) for m in registry_measures()} >= {"P(rel=2)@10", "nDCG(gain=exponential)@10", "IPrec@0.3",
                                                     "11pt_avg", "ERR@10", "AP", "RR@3", "Success@50"}


@pytest.mark.parametrize("options", [{}, {"trec_eval_version": "9", "rel_threshold": 2, "complete": True}],
                         ids=["defaults", "v9-l2-complete"])
@pytest.mark.parametrize("fixed_width", [True, False])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_evaluate_equals_each_registry_entrys_per_query_function(seed, fixed_width, options):
    """Random qrels (grades -1..3) and runs with ties and queries missing on either side: every
    per-query value of evaluate equals the entry's per-query function, called with the keywords
    the entry maps the measure to (k from the cutoff, judged grades from the qrels, rel_threshold
    from rel, gain, ERR's g_max = the qrels' maximum, the trec_eval version's rounding)."""
    qrels, run = random_collection(seed, fixed_width=fixed_width)
    measures = registry_measures()
    result = evaluate(qrels, run, measures, **options)
    lists = reference_lists(qrels, run, complete=options.get("complete", False))
    assert sorted(result.per_query.index) == sorted(lists)
    context = {"qrels_max_grade": max(int(qrels["relevance"].max()), 0),
               "rel_threshold": options.get("rel_threshold", 1),
               "trec_eval_version": options.get("trec_eval_version", "10")}
    for measure in measures:
        spec, column = measure.spec, result.per_query[str(measure)]
        for q, (grades, judged) in lists.items():
            keywords = spec.per_query_keywords(measure, judged=judged, **context)
            expected = np.asarray(spec.function(grades, **keywords)).item()  # IPrec: one value per level
            assert column[q] == pytest.approx(expected, abs=1e-12), (str(measure), q, grades, keywords)


def test_aggregates_with_a_kernel_equal_their_function_over_the_per_query_values():
    """GMAP's entry is the per-query-values function geometric_mean_average_precision: evaluate's
    mean is that function of its own per-query column (AP floored at 1e-5)."""
    specs = [spec for spec in METRICS if spec.kernel is not None and spec.inputs == "per_query_values"]
    assert [spec.measure for spec in specs] == ["GMAP"]
    qrels, run = random_collection(5)
    for complete in (False, True):
        result = evaluate(qrels, run, [spec.measure for spec in specs], complete=complete)
        for spec in specs:
            values = result.per_query[spec.measure]
            assert (values == 0).any()  # the floor matters
            assert result.mean[spec.measure] == pytest.approx(spec.function(values), rel=1e-12)


@pytest.mark.parametrize("widths", ["one width", "mixed widths"])
def test_key_and_dictionary_matching_agree(widths):
    """The fast path (a 64-bit key per (query, docno): every byte hashed, every hit verified
    byte for byte) and the exact dictionary path give the same judgment for every run line,
    for docnos of one width (ClueWeb's) and of many (MS MARCO's numeric ids)."""
    import pyarrow as pa

    from rankviz.evaluation import ranking
    from rankviz.trec import duplicates as trec_duplicates

    rng = np.random.default_rng(7)
    for width in (3, 8, 13, 25):
        sizes = rng.integers(1, width + 1, size=300) if widths == "mixed widths" else np.full(300, width)
        pool = np.unique(["".join(rng.choice(list("ab0-"), size=size)) for size in sizes])
        judged_docs = np.concatenate([rng.choice(pool, size=15, replace=False) for _ in range(20)])
        run_docs = np.concatenate([rng.choice(pool, size=40, replace=False) for _ in range(20)])
        # Several chunks, as the readers produce for big files.
        judged_arrow = pa.chunked_array([judged_docs[:100], judged_docs[100:]])
        run_arrow = pa.chunked_array([run_docs[:333], run_docs[333:]])
        judged_keys = trec_duplicates.row_keys(pa.table({
            "query_id": pa.chunked_array([np.repeat([f"q{q}" for q in range(20)], 15).astype(object)]),
            "doc_id": judged_arrow}))
        index = ranking.JudgmentIndex.from_columns(judged_arrow, rng.integers(0, 3, size=300), judged_keys)
        exact = dataclasses.replace(index, _sorted_keys=None)  # as when two judged keys collide
        run_query = np.repeat(np.arange(20), 40)
        run_query[:40] = -1  # lines of a query the qrels lack: never matched
        hashes = trec_duplicates.content_hashes(run_arrow)
        views = trec_duplicates.fixed_width_bytes(run_arrow)
        assert (views is not None) == (widths == "one width")
        fast = index.match(run_query, hashes, run_arrow, views)
        slow = exact.match(run_query, hashes, run_arrow, views)
        np.testing.assert_array_equal(fast, slow)
        expected = [next((j for j in range(300) if j // 15 == q and judged_docs[j] == d), -1) if q >= 0 else -1
                    for q, d in zip(run_query, run_docs)]
        np.testing.assert_array_equal(fast, expected)
        assert (fast >= 0).sum() > 0


def test_a_hash_collision_is_never_a_match(monkeypatch):
    """Keys equal for different docnos (forced here: every docno hashes to 0) are told apart by
    their bytes; judged keys that collide within a query send matching to the exact path."""
    from rankviz.evaluation import ranking
    from rankviz.trec import duplicates as trec_duplicates

    monkeypatch.setattr(trec_duplicates, "content_hashes", lambda column: np.zeros(len(column), dtype=np.uint64))
    qrels = pd.DataFrame({"query_id": ["q1", "q1", "q2"], "doc_id": ["d1", "d2", "d1"], "relevance": [1, 2, 1]})
    run = pd.DataFrame({"query_id": ["q1", "q1", "q2", "q2"], "doc_id": ["d2", "d3", "d3", "d1"],
                        "score": [4.0, 3.0, 2.0, 1.0]})
    assert ranking.JudgmentIndex.of(qrels)._sorted_keys is None  # q1's two judgments share a key
    assert ranking.JudgmentIndex.of(qrels.iloc[[0, 2]])._sorted_keys is not None
    for judged in (qrels, qrels.iloc[[0, 2]]):
        result = evaluate(judged, run, ["NumRelRet", "relstring@2"]).per_query
        assert result["relstring@2"].tolist() == (["2-", "-1"] if len(judged) == 3 else ["--", "-1"])


def test_keys_read_with_the_files_are_reused_only_while_their_ids_are_unchanged():
    """The *_table readers hand evaluate their duplicate check's query codes and docno hashes as
    a value (TrecTable); a table whose frame's id columns were changed afterwards is evaluated
    from its new ids, not the keys read."""
    qrels = read_qrels_table("q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 1\n")
    run = read_run_table("q1 Q0 d2 1 9 t\nq1 Q0 d1 2 8 t\nq2 Q0 d4 1 5 t\n")
    assert run.keys is not None and run.current_keys() is run.keys
    assert evaluate(qrels, run, ["P@1", "RR"]).per_query.to_dict("list") == {"P@1": [0.0, 0.0], "RR": [0.5, 0.0]}
    run.frame.loc[2, "doc_id"] = "d3"  # q2 now retrieves its relevant document
    run.frame.loc[0, "query_id"] = "q2"  # and q1's d2 line moves to q2
    assert run.current_keys() is None
    result = evaluate(qrels, run, ["P@1", "RR"]).per_query
    # q1: d1 (relevant) alone; q2: d2 (score 9, not judged for q2), d3 (relevant): RR = 1/2.
    assert result.to_dict("list") == {"P@1": [1.0, 0.0], "RR": [1.0, 0.5]}
    assert qrels.current_keys() is qrels.keys is not None
    qrels.frame.loc[0, "doc_id"] = "d9"  # q1's relevant document is now one it did not retrieve
    assert qrels.current_keys() is None
    assert evaluate(qrels, run, ["P@1", "RR"]).per_query.to_dict("list") == {"P@1": [0.0, 0.0], "RR": [0.0, 0.5]}


def test_a_dataframe_lends_no_keys_and_a_table_lends_its_readers(monkeypatch):
    """evaluate judges run lines with the docno hashes of the run reader's duplicate check when
    given the TrecTable, and computes its own for the DataFrame of the same file (which is
    evaluated exactly as before); both give the same numbers."""
    from rankviz.evaluation import ranking

    computed = []
    row_keys = ranking.row_keys

    def spy(table):
        computed.append(table.num_rows)
        return row_keys(table)

    monkeypatch.setattr(ranking, "row_keys", spy)
    qrels = read_qrels_table("q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 1\n")
    run = read_run_table("q1 Q0 d2 1 9 t\nq1 Q0 d1 2 8 t\nq2 Q0 d3 1 5 t\n")
    from_table = evaluate(qrels, run, ["AP", "P@1"]).per_query
    assert computed == []  # both tables lent their keys
    from_frame = evaluate(qrels.frame, run.frame, ["AP", "P@1"]).per_query
    assert computed == [3, 3]
    pd.testing.assert_frame_equal(from_table, from_frame)
    assert from_table["AP"].tolist() == [0.5, 1.0]  # q1: d2 (0), d1 (1): AP = 1/2; q2: d3 at rank 1


@pytest.mark.parametrize("dtype", ["str", object])
@pytest.mark.parametrize("column", ["query_id", "doc_id"])
def test_a_missing_id_is_named_with_its_row(dtype, column):
    """Arrow-backed id columns (what the readers return: pandas' "str") and plain object
    columns both report a missing id, by column and row, before anything is evaluated."""
    qrels = pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["d1", "d2"], "relevance": [1, 0]})
    run = pd.DataFrame({"query_id": ["q1", "q1", "q1"], "doc_id": ["d1", "d2", "d3"], "score": [3.0, 2.0, 1.0]})
    run[column] = pd.array(["q1" if column == "query_id" else "d1", None, "q1" if column == "query_id" else "d3"],
                           dtype=dtype)
    with pytest.raises(ValueError, match=rf"'run' DataFrame has a missing {column} at row 1\."):
        evaluate(qrels, run, ["P@10"])


def test_prepare_gives_the_same_ranking_from_tables_and_frames():
    """Tables read from text lend prepare their readers' keys (query codes, docno hashes);
    DataFrames of the same lines lend nothing: every array of the two rankings is equal."""
    from rankviz.evaluation.ranking import prepare

    rng = np.random.default_rng(11)
    queries = np.repeat([f"q{q}" for q in range(30)], 50)
    docs = np.concatenate([rng.permutation(80)[:50] for _ in range(30)])
    run = pd.DataFrame({"query_id": queries, "doc_id": [f"d{d:03d}" for d in docs],
                        "score": np.round(rng.normal(size=queries.size), 1)})  # ties
    judged = run.sample(frac=0.4, random_state=3)
    qrels = pd.DataFrame({"query_id": judged["query_id"], "doc_id": judged["doc_id"],
                          "relevance": rng.integers(-1, 4, size=len(judged))})
    run_table = read_run_table("".join(f"{q} Q0 {d} 0 {s!r} t\n" for q, d, s in run.itertuples(index=False)))
    qrels_table = read_qrels_table("".join(f"{q} 0 {d} {g}\n" for q, d, g in qrels.itertuples(index=False)))
    assert run_table.current_keys() is not None and qrels_table.current_keys() is not None
    from_frames = prepare(qrels, run)
    from_tables = prepare(qrels_table, run_table)
    for field in dataclasses.fields(from_frames):
        np.testing.assert_array_equal(getattr(from_tables, field.name), getattr(from_frames, field.name), field.name)
    assert (from_frames.grade >= 0).sum() == len(qrels[qrels.relevance >= 0])


@given(st.lists(st.tuples(st.integers(0, 4), st.integers(-3, 2**40)), max_size=30))
def test_judgments_ordered_by_query_then_grade_descending_as_lexsort_does(pairs):
    from rankviz.evaluation import ranking

    query = np.array([q for q, _ in pairs], dtype=np.int64)
    grade = np.array([g for _, g in pairs], dtype=np.int64)
    expected = np.lexsort((-grade, query))
    np.testing.assert_array_equal(ranking._by_query_then_grade_descending(query, grade, 5), expected)
    huge = np.append(grade, 2**62)
    np.testing.assert_array_equal(ranking._by_query_then_grade_descending(np.append(query, 0), huge, 5),
                                  np.lexsort((-huge, np.append(query, 0))))


@pytest.mark.parametrize("spread", ["uniform", "one deep query", "tiny"])
def test_bucketed_key_lookup_equals_searchsorted(spread):
    """_find_keys (buckets by top bits, a few probes, searchsorted for crowded buckets) finds
    exactly the keys a plain binary search finds, however the keys crowd into buckets."""
    from rankviz.evaluation import ranking

    rng = np.random.default_rng(11)
    if spread == "uniform":
        judged = rng.integers(0, 2**64, size=5000, dtype=np.uint64)
    elif spread == "one deep query":  # every key shares its top 20 bits: all in one bucket
        judged = (np.uint64(3) << np.uint64(44)) | rng.integers(0, 2**20, size=5000, dtype=np.uint64)
    else:
        judged = np.array([5, 2**63], dtype=np.uint64)
    judged = np.unique(judged)
    queries = np.concatenate([rng.choice(judged, size=3000), judged - np.uint64(1), judged + np.uint64(1),
                              np.array([0, 2**64 - 1], dtype=np.uint64)])
    slot = np.searchsorted(judged, queries)
    slot[slot >= judged.size] = 0
    expected = np.where(judged[slot] == queries, slot, -1)
    np.testing.assert_array_equal(ranking._find_keys(judged, queries), expected)
    assert (expected >= 0).sum() >= 3000 if spread != "tiny" else (expected >= 0).any()


# ---------------------------------------------------------------------------------------------
# Segmented operations behind the kernels, against per-segment Python loops
# ---------------------------------------------------------------------------------------------


@given(st.lists(st.lists(st.floats(0, 1, allow_nan=False), max_size=6), min_size=1, max_size=6))
def test_segmented_operations_equal_loops(segments):
    values = np.array([v for seg in segments for v in seg], dtype=np.float64)
    row_query = np.array([q for q, seg in enumerate(segments) for _ in seg], dtype=np.int64)
    starts = np.concatenate(([0], np.cumsum([len(seg) for seg in segments]))).astype(np.int64)
    np.testing.assert_allclose(segment_sum(values, row_query, len(segments)), [sum(seg) for seg in segments])
    np.testing.assert_allclose(segment_cumsum(values, starts, row_query),
                               [v for seg in segments for v in np.cumsum(seg)], atol=1e-12)
    expected = [max(seg[i:]) for seg in segments for i in range(len(seg))]
    assert suffix_max(values, row_query).tolist() == expected  # exact, no float offsets


def test_rankviz_evaluate_and_compare_stay_functions_after_importing_their_modules():
    # The modules are named evaluation/comparison so that importing them never shadows the
    # package's public functions.
    import rankviz
    import rankviz.evaluation.comparison  # noqa: F401
    import rankviz.evaluation.evaluator  # noqa: F401

    assert callable(rankviz.compare) and rankviz.compare.__name__ == "compare"
    assert rankviz.evaluate(QRELS, RUN, "P@2").per_query.at["q1", "P@2"] == 1 / 2


def test_huge_grades_give_err_without_overflow_and_a_clear_error_for_exponential_gain():
    # ERR's R_i = (2^g - 1) / 2^g_max: with g = g_max = 2000 the first document satisfies the
    # user almost surely, so ERR = 1 (no OverflowError from 2^2000).
    qrels, run = "q1 0 d1 2000\nq1 0 d2 1\n", "q1 Q0 d1 1 2.0 A\nq1 Q0 d2 2 1.0 A\n"
    assert evaluate(qrels, run, ["ERR@5"]).mean["ERR@5"] == pytest.approx(1.0)
    with pytest.raises(ValueError, match="exponential gain .* grades above 1023; the qrels hold grade 2000"):
        evaluate(qrels, run, ["nDCG(gain=exp)@5"])


def test_files_and_frames_give_the_same_values_with_qrels_only_queries(tmp_path):
    """A run read from a file lends evaluate its reader's keys; qrels-only queries (which need
    more bits for the query code of a (query, docno) key) change nothing: the per-query values
    equal those of DataFrame copies, which lend nothing."""
    run_lines = [f"q{q} Q0 d{d:02d} 0 {1.0 / (d + 1)} t" for q in range(3) for d in range(20)]
    (tmp_path / "run").write_text("\n".join(run_lines) + "\n")
    for extra_queries in (0, 2, 40):
        qrels_lines = [f"q{q} 0 d{d:02d} {d // 3 % 3}" for q in range(3 + extra_queries) for d in range(0, 20, 3)]
        (tmp_path / "qrels").write_text("\n".join(qrels_lines) + "\n")
        qrels, run = read_qrels_table(tmp_path / "qrels"), read_run_table(tmp_path / "run")
        measures = ["P@5", "AP", "nDCG", "NumRelRet"]
        from_files = evaluate(qrels, run, measures).per_query
        from_paths = evaluate(tmp_path / "qrels", tmp_path / "run", measures).per_query
        from_frames = evaluate(pd.DataFrame(qrels.frame), pd.DataFrame(run.frame), measures).per_query
        pd.testing.assert_frame_equal(from_files, from_frames)
        pd.testing.assert_frame_equal(from_paths, from_frames)
        assert from_files["NumRelRet"].tolist() == [4, 4, 4]  # d03 d06 d12 d15 of every query: grades 1, 2, 1, 2
