"""The diversity measures of subtopic qrels: known values worked by hand from each measure's paper,
ndeval's conventions (greedy ideal ranking and its tie rule, trec_eval's run order, topics without
relevant documents), the subtopic qrels reader's errors, and properties over random inputs.

ndeval's own values are checked in test_pyndeval_diff.py (pyndeval, a dev-only dependency).
Here each expected value is written as the formula of its paper with this input's numbers, so a
reader can redo it by hand. The running example (call it E) has three subtopics 1, 2, 3 and four
documents, ranked d1, d2, d3, d4:

    d1: {1, 2}    d2: {1}    d3: none    d4: {3}        (judged: these four documents)

With alpha = 0.5 the novelty-biased gains (Clarke et al. 2008, G[k] = sum_i J(d_k, i)
(1 - alpha)^{r_{i,k-1}}) are 2 (two new subtopics), 0.5 (subtopic 1 again), 0, 1 (subtopic 3, new).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rankviz import metrics
from rankviz.evaluation.evaluator import evaluate
from rankviz.trec.formats import TrecFormatError
from rankviz.trec.subtopics import read_subtopic_qrels

E = [{"1", "2"}, {"1"}, None, {"3"}]
E_JUDGED = {"d1": {"1", "2"}, "d2": {"1"}, "d3": set(), "d4": {"3"}}
LOG2 = np.log2


# ------------------------------------------------------------------------------------------------
# Known values, worked by hand from each paper's definition


def test_alpha_ndcg_of_clarke_et_al_2008():
    # Clarke et al., SIGIR 2008, section 4: gains G = 2, 0.5, 0, 1, discounted by log2(1 + k).
    # The greedy ideal ranking: d1 (gain 2), d4 (1 beats d2's 0.5), d2 (0.5), d3: G* = 2, 1, 0.5, 0.
    dcg = 2 / LOG2(2) + 0.5 / LOG2(3) + 0 + 1 / LOG2(5)
    ideal = 2 / LOG2(2) + 1 / LOG2(3) + 0.5 / LOG2(4) + 0
    assert metrics.alpha_ndcg(E, k=4, judged=E_JUDGED) == pytest.approx(dcg / ideal, abs=1e-12)
    # At k = 2: (2 + 0.5/log2 3) / (2 + 1/log2 3).
    assert metrics.alpha_ndcg(E, k=2, judged=E_JUDGED) == pytest.approx(
        (2 + 0.5 / LOG2(3)) / (2 + 1 / LOG2(3)), abs=1e-12)
    # alpha = 0: every subtopic always counts, G = 2, 1, 0, 1 and G* = 2, 1, 1, 0 (plain nDCG of the counts).
    assert metrics.alpha_ndcg(E, k=4, alpha=0, judged=E_JUDGED) == pytest.approx(
        (2 + 1 / LOG2(3) + 1 / LOG2(5)) / (2 + 1 / LOG2(3) + 1 / LOG2(4)), abs=1e-12)
    # alpha = 1: only new subtopics count, G = 2, 0, 0, 1 and G* = 2, 1, 0, 0.
    assert metrics.alpha_ndcg(E, k=4, alpha=1, judged=E_JUDGED) == pytest.approx(
        (2 + 1 / LOG2(5)) / (2 + 1 / LOG2(3)), abs=1e-12)


def test_alpha_dcg_normalises_by_documents_relevant_to_every_subtopic():
    # ndeval's collection-independent normalisation: Z_k = S sum_{i<=k} (1 - alpha)^{i-1} / log2(i + 1).
    z4 = 3 * (1 / LOG2(2) + 0.5 / LOG2(3) + 0.25 / LOG2(4) + 0.125 / LOG2(5))
    assert metrics.alpha_dcg(E, k=4, judged=E_JUDGED) == pytest.approx(
        (2 + 0.5 / LOG2(3) + 1 / LOG2(5)) / z4, abs=1e-12)
    assert metrics.alpha_dcg(E, k=1, judged=E_JUDGED) == pytest.approx(2 / 3)  # ndeval prints 2 (undivided)


def test_err_ia_of_chapelle_et_al_2009():
    # Chapelle et al., CIKM 2009, section 7: ERR-IA = sum_s P(s|q) ERR_s, ERR_s = sum_r (1/r) R_{r,s}
    # prod_{i<r} (1 - R_{i,s}); binary grades with g_max = 1 give R = (2^1 - 1)/2^1 = 0.5 = alpha
    # for a relevant document; P(s|q) = 1/3.
    err_1 = 1 / 1 * 0.5 + 1 / 2 * 0.5 * (1 - 0.5)  # d1 at rank 1, d2 at rank 2
    err_2 = 1 / 1 * 0.5  # d1
    err_3 = 1 / 4 * 0.5  # d4
    chapelle = (err_1 + err_2 + err_3) / 3
    # ndeval divides by the same for documents relevant to every subtopic (R = 0.5 at every rank).
    everything = sum(1 / r * 0.5 * 0.5 ** (r - 1) for r in range(1, 5))
    assert metrics.err_ia(E, k=4, judged=E_JUDGED) == pytest.approx(chapelle / everything, abs=1e-12)
    # nERR-IA divides by the greedy ideal ranking's: gains 2, 1, 0.5, 0 over 1/r.
    assert metrics.nerr_ia(E, k=4, judged=E_JUDGED) == pytest.approx(
        (2 + 0.5 / 2 + 0 + 1 / 4) / (2 + 1 / 2 + 0.5 / 3), abs=1e-12)


def test_nrbp_of_clarke_kolla_vechtomova_2009():
    # ICTIR 2009: NRBP = (1 - (1 - alpha) beta) / N sum_k beta^{k-1} sum_i J(d_k, i) (1 - alpha)^{r_{i,k-1}}.
    assert metrics.nrbp(E, judged=E_JUDGED) == pytest.approx((1 - 0.5 * 0.5) / 3 * (2 + 0.5 * 0.5 + 0 + 0.125 * 1))
    assert metrics.nrbp(E, beta=0.8, judged=E_JUDGED) == pytest.approx(
        (1 - 0.5 * 0.8) / 3 * (2 + 0.8 * 0.5 + 0.8**3 * 1))
    # nNRBP: over the ideal d1, d4, d2, d3 (gains 2, 1, 0.5, 0).
    assert metrics.nnrbp(E, judged=E_JUDGED) == pytest.approx(
        (2 + 0.5 * 0.5 + 0.125 * 1) / (2 + 0.5 * 1 + 0.25 * 0.5), abs=1e-12)


def test_intent_aware_precision_and_ap_of_agrawal_et_al_2009():
    # WSDM 2009: M-IA = sum_c P(c|q) M(c), intents equally likely (P(c|q) = 1/3).
    # P@4 per subtopic: 2/4 (d1, d2), 1/4 (d1), 1/4 (d4).
    assert metrics.p_ia(E, k=4, judged=E_JUDGED) == pytest.approx((2 / 4 + 1 / 4 + 1 / 4) / 3)
    assert metrics.p_ia(E, k=10, judged=E_JUDGED) == pytest.approx((2 / 10 + 1 / 10 + 1 / 10) / 3)  # P@k's rule
    # AP per subtopic: (1/1 + 2/2)/2, 1/1, (1/4)/1 (ndeval's MAP-IA of one topic).
    assert metrics.ap_ia(E, judged=E_JUDGED) == pytest.approx((1.0 + 1.0 + 0.25) / 3)
    # R_s counts judged documents not retrieved: with d5 relevant to 3, AP_3 = (1/4) / 2.
    assert metrics.ap_ia(E, judged={**E_JUDGED, "d5": {"3"}}) == pytest.approx((1.0 + 1.0 + 0.125) / 3)


def test_subtopic_recall_of_zhai_cohen_lafferty_2003():
    # SIGIR 2003: S-recall at K = |union of the subtopics of d_1..d_K| / n_A.
    assert [metrics.subtopic_recall(E, k=k, judged=E_JUDGED) for k in (1, 2, 3, 4)] == pytest.approx(
        [2 / 3, 2 / 3, 2 / 3, 3 / 3])
    assert metrics.subtopic_recall(E[:3], judged=E_JUDGED) == pytest.approx(2 / 3)  # subtopic 3 not retrieved


def test_worked_tables_show_the_novelty_discount():
    worked = metrics.alpha_ndcg_breakdown(E, k=4, judged=E_JUDGED)
    table = worked.table
    assert table["gain 1"].tolist() == [1.0, 0.5, 0.0, 0.0]  # subtopic 1 seen once before at rank 2
    assert table["g(i)"].tolist() == [2.0, 0.5, 0.0, 1.0]
    assert table["ideal document"].tolist() == ["d1", "d4", "d2", "–"]  # d3, relevant to nothing, adds nothing
    assert table["running sum"].iloc[-1] / table["running ideal sum"].iloc[-1] == pytest.approx(worked.value)
    assert worked.details["subtopics"] == 3
    ap = metrics.ap_ia_breakdown(E, judged=E_JUDGED).table
    assert ap[["subtopic", "ranks", "AP_s"]].values.tolist() == [["1", "1, 2", 1.0], ["2", "1", 1.0], ["3", "4", 0.25]]


# ------------------------------------------------------------------------------------------------
# ndeval's conventions


def test_greedy_ideal_breaks_equal_gains_by_the_greatest_docno_and_can_be_beaten():
    # x = {1, 4}, y = {2, 3}, z = {1, 3}: each has gain 2 at rank 1. ndeval takes the greatest
    # docno, z; then x and y both add 1 + 0.5 = 1.5: ideal DCG@2 = 2 + 1.5/log2 3. The ranking
    # x, y (gains 2, 2) beats it: alpha-nDCG@2 = (2 + 2/log2 3) / (2 + 1.5/log2 3) > 1.
    judged = {"x": {"1", "4"}, "y": {"2", "3"}, "z": {"1", "3"}}
    ranking = [judged["x"], judged["y"]]
    assert metrics.alpha_ndcg(ranking, k=2, judged=judged) == pytest.approx((2 + 2 / LOG2(3)) / (2 + 1.5 / LOG2(3)))
    assert metrics.alpha_ndcg(ranking, k=2, judged=judged) > 1
    # Rename z to a, now the smallest docno: the greedy takes y, then x (gain 2): the ideal is x, y's.
    renamed = {"x": judged["x"], "y": judged["y"], "a": judged["z"]}
    assert metrics.alpha_ndcg(ranking, k=2, judged=renamed) == pytest.approx(1.0)
    # The same through evaluate, from subtopic qrels.
    qrels = "1 1 x 1\n1 4 x 1\n1 2 y 1\n1 3 y 1\n1 1 z 1\n1 3 z 1\n"
    run = "1 Q0 x 1 2.0 r\n1 Q0 y 2 1.0 r\n"
    value = evaluate(qrels, run, ["alpha_nDCG@2"], qrels_format="subtopics").per_query.loc["1", "alpha_nDCG@2"]
    assert value == pytest.approx((2 + 2 / LOG2(3)) / (2 + 1.5 / LOG2(3)))


def test_run_ties_are_broken_by_docno_descending_as_ndeval_traditional():
    # d1 relevant, d2 not, same score: d2 ranks first (trec_eval's and ndeval -traditional's rule;
    # pyndeval and ir_measures would put d1 first). The rank column (1, 2) is ignored.
    qrels = "7 1 d1 1\n7 1 d2 0\n"
    run = "7 Q0 d1 1 3.0 r\n7 Q0 d2 2 3.0 r\n"
    result = evaluate(qrels, run, ["alpha_nDCG@1", "P_IA@1", "StRecall@1", "alpha_nDCG@2"], qrels_format="subtopics")
    assert result.per_query.loc["7"].tolist() == pytest.approx([0.0, 0.0, 0.0, (1 / LOG2(3)) / 1.0])


def test_topics_without_relevant_documents_unjudged_documents_and_missing_topics():
    qrels = ("1 1 a 1\n1 2 b 1\n"  # topic 1: two subtopics
             "2 1 c 0\n2 2 c -2\n"  # topic 2: judged, nothing relevant (-2: the Web track's spam grade)
             "3 1 e 1\n")  # topic 3: the run has nothing for it
    run = "1 Q0 x 1 5 r\n1 Q0 a 2 4 r\n2 Q0 c 1 1 r\n9 Q0 a 1 1 r\n"  # x unjudged; topic 9 not judged
    measures = ["alpha_nDCG@5", "alpha_DCG@5", "ERR_IA@5", "nERR_IA@5", "NRBP", "nNRBP", "AP_IA", "P_IA@5",
                "StRecall@5"]
    result = evaluate(qrels, run, measures, qrels_format="subtopics")
    assert list(result.per_query.index) == ["1", "2"]  # ndeval: topics of the qrels the run retrieves
    assert (result.per_query.loc["2"] == 0).all()  # nothing relevant: 0 everywhere (ndeval's nNRBP: nan)
    # Topic 1: x unjudged at rank 1 counts as non-relevant; a (subtopic 1) at rank 2.
    assert result.per_query.loc["1", "StRecall@5"] == 0.5
    assert result.per_query.loc["1", "alpha_nDCG@5"] == pytest.approx((1 / LOG2(3)) / (1 + 1 / LOG2(3)))
    complete = evaluate(qrels, run, measures, qrels_format="subtopics", complete=True)  # ndeval -c
    assert list(complete.per_query.index) == ["1", "2", "3"] and (complete.per_query.loc["3"] == 0).all()
    assert complete.mean["StRecall@5"] == pytest.approx(0.5 / 3)
    judged_only = evaluate(qrels, run, ["StRecall@1"], qrels_format="subtopics", judged_only=True)
    assert judged_only.per_query.loc["1", "StRecall@1"] == 0.5  # x dropped: a is at rank 1
    assert evaluate(qrels, run, ["StRecall@1"], qrels_format="subtopics", depth=1).per_query.loc["1"].item() == 0
    rel2 = evaluate("1 1 a 2\n1 2 a 1\n", "1 Q0 a 1 1 r\n", ["StRecall@1", "StRecall(rel=2)@1"],
                    qrels_format="subtopics", rel_threshold=1)
    assert rel2.per_query.loc["1"].tolist() == [1.0, 1.0]  # rel=2: one subtopic, covered


def test_names_of_both_families_and_ndevals_own():
    qrels = "1 1 a 1\n1 2 b 1\n"
    run = "1 Q0 a 1 2 r\n1 Q0 b 2 1 r\n"
    names = ["alpha-nDCG@10", "α_nDCG@10", "ERR-IA@10", "MAP-IA", "MAP_IA", "strec@10", "ST-recall@10", "P-IA@10"]
    result = evaluate(qrels, run, names, qrels_format="subtopics")
    assert list(result.per_query.columns) == ["alpha_nDCG@10", "ERR_IA@10", "AP_IA", "StRecall@10", "P_IA@10"]


def test_format_and_parameter_errors_say_what_to_do():
    qrels = "1 1 a 1\n"
    run = "1 Q0 a 1 2 r\n"
    with pytest.raises(ValueError, match=r"'alpha_nDCG@10' is computed from qrels_format 'subtopics'.*-R subtopics"):
        evaluate("1 0 a 1\n", run, ["alpha_nDCG@10"])
    with pytest.raises(ValueError, match=r"'map' is computed from qrels_format 'qrels'.*diversity measures"):
        evaluate(qrels, run, ["map"], qrels_format="subtopics")
    with pytest.raises(ValueError, match=r"alpha_nDCG needs a cutoff"):
        evaluate(qrels, run, ["alpha_nDCG"], qrels_format="subtopics")
    with pytest.raises(ValueError, match=r"alpha must be a number in \[0, 1\]; got 2"):
        evaluate(qrels, run, ["alpha_nDCG(alpha=2)@5"], qrels_format="subtopics")
    with pytest.raises(ValueError, match=r"NRBP has no parameter 'p'"):
        evaluate(qrels, run, ["NRBP(p=0.5)"], qrels_format="subtopics")
    with pytest.raises(ValueError, match=r"no topic of the run has subtopic judgments"):
        evaluate(qrels, "2 Q0 a 1 2 r\n", ["P_IA@5"], qrels_format="subtopics")
    with pytest.raises(ValueError, match=r"doc 'a' is retrieved twice for topic '1'"):
        evaluate(qrels, pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "a"], "score": [1.0, 2.0]}),
                 ["P_IA@5"], qrels_format="subtopics")


@pytest.mark.parametrize(("call", "message"), [
    (lambda: metrics.alpha_ndcg([{"a"}, 2.5]), r"'ranking' parameter of alpha_ndcg must hold.*Got 2.5 at rank 2"),
    (lambda: metrics.alpha_ndcg("ab"), r"'ranking' parameter of alpha_ndcg must be a sequence"),
    (lambda: metrics.alpha_ndcg([{"a"}, {"z"}], judged=[{"a"}]), r"subtopic 'z' at rank 2, to which no document of"),
    (lambda: metrics.nrbp([{"a"}], beta=1.5), r"'beta' parameter of nrbp must be a number in the range \[0, 1\]"),
    (lambda: metrics.err_ia([{"a"}], k=0), r"'k' parameter of err_ia must be an int in the range \[1, inf\)"),
    (lambda: metrics.p_ia(np.array([[0, 2]])), r"2-D array, must hold 0 or 1"),
])
def test_bad_per_query_input_is_named(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_command_line_reads_subtopic_qrels(tmp_path, capsys):
    from rankviz.cli import main

    qrels = tmp_path / "qrels.div"
    run = tmp_path / "run.txt"
    qrels.write_text("0 a A 1\n0 b B 1\n0 b D 1\n0 c C 1\n")
    run.write_text("0 Q0 A 1 9.3 r\n0 Q0 D 2 8.4 r\n0 Q0 E 3 8.1 r\n0 Q0 B 4 7.6 r\n")
    assert main(["eval", "-R", "subtopics", str(qrels), str(run)]) == 0
    lines = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    # Without -m: what ndeval prints, in its order (ERR-IA, nERR-IA, alpha-DCG, alpha-nDCG at 5,
    # 10, 20, NRBP, nNRBP, MAP-IA, P-IA and strec at 5, 10, 20).
    names = [line[0].strip() for line in lines]
    assert names[:3] == ["ERR_IA@5", "ERR_IA@10", "ERR_IA@20"] and names[-1] == "StRecall@20" and len(names) == 21
    assert {name: value for name, _, value in lines}["AP_IA                 "] == "0.5000"
    assert main(["eval", str(qrels), str(run), "-m", "alpha_nDCG@10"]) == 2
    assert "-R subtopics" in capsys.readouterr().err


# ------------------------------------------------------------------------------------------------
# The subtopic qrels reader


def test_reader_reads_text_files_and_frames(tmp_path):
    path = tmp_path / "qrels.txt"
    path.write_text("# topic subtopic docno judgment\n101 1 d1 1\n101\t2  d1 2\n101 2 d2 -2\n")
    qrels = read_subtopic_qrels(path)
    assert qrels.to_dict("list") == {"query_id": ["101"] * 3, "subtopic": ["1", "2", "2"],
                                     "doc_id": ["d1", "d1", "d2"], "relevance": [1, 2, -2]}
    assert qrels.attrs["source"] == str(path)
    frame = read_subtopic_qrels(pd.DataFrame({"qid": [101], "iteration": [0], "docno": ["d"], "rel": [1]}))
    assert frame.loc[0, ["query_id", "subtopic", "doc_id"]].tolist() == ["101", "0", "d"]


@pytest.mark.parametrize(("text", "message"), [
    ("1 1 d1 1\n1 1 d2\n", r"qrels.txt line 2: expected 4 fields \(topic subtopic docno judgment\), got 3: '1 1 d2'"),
    ("1 1 d1 1\n\n1 1 d2 0.5\n", r"qrels.txt line 3: expected an integer judgment in field 4 \(judgment\), got '0.5'"),
    ("1 1 d1 1\n1 2 d1 1\n1 1 d1 0\n", (r"qrels.txt line 3: expected each docno judged at most once per subtopic "
                                        r"of a topic, got doc 'd1' of topic '1', subtopic '1' again \(first on line 1\)")),
    ("# nothing\n", r"qrels.txt: expected subtopic qrels lines .*got no judgments"),
])
def test_reader_errors_name_file_line_and_expectation(tmp_path, text, message):
    path = tmp_path / "qrels.txt"
    path.write_text(text)
    with pytest.raises(TrecFormatError, match=message):
        read_subtopic_qrels(str(path))


def test_reader_errors_for_frames():
    with pytest.raises(TrecFormatError, match=r"<DataFrame>: expected columns query_id, subtopic, doc_id, relevance "
                                              r".*got no subtopic"):
        read_subtopic_qrels(pd.DataFrame({"qid": [1], "docno": ["d"], "rel": [1]}))
    with pytest.raises(TrecFormatError, match=r"<DataFrame> line 1: expected an integer judgment"):
        read_subtopic_qrels(pd.DataFrame({"qid": [1, 1], "subtopic": [1, 2], "docno": ["d", "d"], "rel": [1, 0.5]}))


# ------------------------------------------------------------------------------------------------
# Properties over random inputs

LABELS = ["1", "2", "3", "4"]
documents = st.lists(st.frozensets(st.sampled_from(LABELS), max_size=3), min_size=1, max_size=8)


@st.composite
def ranking_and_pool(draw):
    """A pool of judged documents (docnos d0..), and a ranking of some of them (plus unjudged ones)."""
    pool = draw(documents)
    judged = {f"d{i}": set(subtopics) for i, subtopics in enumerate(pool)}
    order = draw(st.permutations(list(judged)))
    retrieved = order[: draw(st.integers(0, len(order)))]
    ranking = [judged[d] for d in retrieved]
    for _ in range(draw(st.integers(0, 2))):
        ranking.insert(draw(st.integers(0, len(ranking))), None)  # an unjudged document
    return ranking, judged


def greedy_ideal(judged: dict, alpha: float) -> list:
    """ndeval's greedy ideal ranking, written plainly: the largest gain, then the greatest docno."""
    left, seen, out = dict(judged), {}, []
    while left:
        def gain(doc):
            return sum((1 - alpha) ** seen.get(s, 0) for s in left[doc])
        best = max(left, key=lambda doc: (gain(doc), doc))
        for s in left.pop(best):
            seen[s] = seen.get(s, 0) + 1
        out.append(judged[best])
    return out


BOUNDED = [metrics.alpha_dcg, metrics.err_ia, metrics.nrbp, metrics.ap_ia, metrics.p_ia, metrics.subtopic_recall]
NORMALISED = [metrics.alpha_ndcg, metrics.nerr_ia, metrics.nnrbp]


@settings(max_examples=60, deadline=None)
@given(data=ranking_and_pool(), k=st.integers(1, 10), alpha=st.sampled_from([0.0, 0.3, 0.5, 1.0]))
def test_values_are_in_range(data, k, alpha):
    ranking, judged = data
    for function in BOUNDED + NORMALISED:
        keywords = {"judged": judged}
        if "k" in function.__code__.co_varnames[:function.__code__.co_argcount]:
            keywords["k"] = k
        if function in (metrics.alpha_dcg, metrics.err_ia, metrics.nrbp, *NORMALISED):
            keywords["alpha"] = alpha
        value = function(ranking, **keywords)
        assert value >= 0
        if function in BOUNDED:
            assert value <= 1 + 1e-12, function.__name__


@settings(max_examples=60, deadline=None)
@given(pool=documents, k=st.integers(1, 10), alpha=st.sampled_from([0.0, 0.3, 0.5, 0.9]))
def test_the_greedy_ideal_ranking_scores_one(pool, k, alpha):
    judged = {f"d{i}": set(subtopics) for i, subtopics in enumerate(pool)}
    if not any(judged.values()):
        return
    ideal = greedy_ideal(judged, alpha)
    assert metrics.alpha_ndcg(ideal, k=k, alpha=alpha, judged=judged) == pytest.approx(1.0)
    assert metrics.nerr_ia(ideal, k=k, alpha=alpha, judged=judged) == pytest.approx(1.0)
    assert metrics.nnrbp(ideal, alpha=alpha, judged=judged) == pytest.approx(1.0)
    assert metrics.subtopic_recall(ideal, judged=judged) == 1.0


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 8), s=st.integers(1, 4), k=st.integers(1, 8), alpha=st.sampled_from([0.0, 0.5, 0.8]),
       beta=st.sampled_from([0.3, 0.5, 1.0]))
def test_documents_relevant_to_every_subtopic_score_one_on_the_normalised_by_every_subtopic(n, s, k, alpha, beta):
    ranking = [set(LABELS[:s])] * n
    if k <= n:
        assert metrics.alpha_dcg(ranking, k=k, alpha=alpha) == pytest.approx(1.0)
        assert metrics.err_ia(ranking, k=k, alpha=alpha) == pytest.approx(1.0)
        assert metrics.p_ia(ranking, k=k) == pytest.approx(1.0)
    # NRBP of n such documents: 1 - ((1 - alpha) beta)^n, 1 in the limit (Clarke et al. 2009).
    assert metrics.nrbp(ranking, alpha=alpha, beta=beta) == pytest.approx(1 - ((1 - alpha) * beta) ** n)


@settings(max_examples=60, deadline=None)
@given(data=ranking_and_pool(), k=st.integers(1, 10))
def test_without_redundancy_penalty_alpha_ndcg_is_ndcg_of_the_subtopic_counts(data, k):
    # alpha = 0: g(i) is the number of subtopics of d_i, and the greedy ideal sorts by it: nDCG
    # (linear gain, trec_eval's) of the counts, with the judged counts as its ideal.
    ranking, judged = data
    counts = [len(entry or ()) for entry in ranking]
    expected = metrics.ndcg(counts, k=k, judged=[len(v) for v in judged.values()])
    assert metrics.alpha_ndcg(ranking, k=k, alpha=0, judged=judged) == pytest.approx(expected, abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(data=ranking_and_pool())
def test_recall_and_precision_counts_grow_with_k_and_inputs_agree(data):
    ranking, judged = data
    recalls = [metrics.subtopic_recall(ranking, k=k, judged=judged) for k in range(1, 10)]
    assert recalls == sorted(recalls)
    counts = [metrics.p_ia(ranking, k=k, judged=judged) * k for k in range(1, 10)]
    assert all(b >= a - 1e-12 for a, b in itertools.pairwise(counts))
    # The same ranking as a 0/1 matrix (ranks x subtopics 0..3) and as label collections.
    matrix = np.array([[label in (entry or ()) for label in LABELS] for entry in ranking], dtype=int).reshape(-1, 4)
    relabelled = [{str(LABELS.index(label)) for label in (entry or ())} for entry in ranking]
    before = matrix.copy()
    assert metrics.alpha_ndcg(matrix, k=5) == pytest.approx(metrics.alpha_ndcg(relabelled, k=5), abs=0)
    np.testing.assert_array_equal(matrix, before)


def test_breakdown_values_are_the_functions():
    for name in ("alpha_ndcg", "alpha_dcg", "err_ia", "nerr_ia", "nrbp", "nnrbp", "ap_ia", "p_ia", "subtopic_recall"):
        function, breakdown = getattr(metrics, name), getattr(metrics, name + "_breakdown")
        for ranking in (E, [], [None], [{"1"}, {"1"}, {"1", "2"}]):
            judged = E_JUDGED if ranking is E else None
            assert breakdown(ranking, judged=judged).value == function(ranking, judged=judged), name
    assert math.isclose(metrics.alpha_ndcg([], k=3), 0.0)


def test_published_values_of_ir_measures_own_test():
    """ir_measures 0.4.3's test of its pyndeval provider (tests/test_pyndeval.py, test_ERR_IA):
    ERR_IA@20 is 0.4659 for topic 0, 0.1803 for topic 1, 0.3231 over both (4 decimals)."""
    qrels = ("0 0 D0 0\n0 0 D1 1\n0 0 D2 1\n0 1 D2 1\n0 1 D3 2\n0 0 D4 0\n"
             "1 0 D0 1\n1 0 D3 2\n1 1 D5 2\n")
    run = ("0 0 D0 1 0.8 run\n0 0 D2 2 0.7 run\n0 0 D1 3 0.3 run\n0 0 D3 4 0.4 run\n0 0 D4 5 0.1 run\n"
           "1 0 D1 1 0.8 run\n1 0 D3 2 0.7 run\n1 0 D4 3 0.3 run\n1 0 D2 4 0.4 run\n")
    result = evaluate(qrels, run, ["ERR_IA@20"], qrels_format="subtopics")
    assert result.per_query["ERR_IA@20"].round(4).to_dict() == {"0": 0.4659, "1": 0.1803}
    assert round(result.mean["ERR_IA@20"], 4) == 0.3231


@settings(max_examples=40, deadline=None)
@given(data=ranking_and_pool(), k=st.integers(1, 8), alpha=st.sampled_from([0.0, 0.3, 0.5, 1.0]),
       beta=st.sampled_from([0.3, 0.5, 1.0]))
def test_worked_tables_are_the_kernels_arrays_read_by_role(data, k, alpha, beta):
    # Issue 21: a worked table is made of its kernel's row arrays, not a second copy of the math. Read
    # by role, each table's sums give the kernel's value, and its D(i), Z_k terms and β^(i-1) are the
    # kernel module's own (exactly: the same repeated products ndeval uses).
    from rankviz.metrics.kernels import diversity as kernels

    ranking, judged = data
    for name, kind in (("alpha_ndcg", "dcg"), ("alpha_dcg", "dcg"), ("err_ia", "err"), ("nerr_ia", "err")):
        worked = getattr(metrics, name + "_breakdown")(ranking, k=k, alpha=alpha, judged=judged)
        assert worked.column("weight").tolist() == kernels.discounts(kind, k).tolist(), name
        numerator, denominator = worked.column("running").iloc[-1], worked.column("ideal_running").iloc[-1]
        expected = numerator / denominator if denominator > 0 else 0.0
        assert worked.value == pytest.approx(expected, abs=1e-12), name
        if name in ("alpha_dcg", "err_ia"):  # Z_k: k documents relevant to every one of the S subtopics
            terms = worked.details["subtopics"] * kernels.collection_ideal_terms(alpha, kind, k)
            assert worked.column("ideal_contribution").tolist() == terms.tolist(), name
    for name in ("nrbp", "nnrbp"):
        worked = getattr(metrics, name + "_breakdown")(ranking, alpha=alpha, beta=beta, judged=judged)
        n = len(ranking)
        assert worked.column("weight").tolist() == kernels.repeated_powers(beta, n)[:n].tolist(), name
        if n:  # NRBP = (1 - (1 - alpha) beta) / S times the table's sum
            assert worked.details["scale"] * worked.column("running").iloc[-1] == pytest.approx(
                metrics.nrbp(ranking, alpha=alpha, beta=beta, judged=judged), abs=1e-12)
