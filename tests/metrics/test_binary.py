"""Tests of rankviz.metrics.binary and .precision_recall: course values, hand computations, trec_eval, sklearn, properties.

Known values are written as formulas with their input in a comment, or cite the course file
and slide they come from (shared/course/). trec_eval's own outputs are read from
shared/conformance/trec_eval through the ``conformance_dir`` fixture (a failure, not a skip, under CI).
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rankviz.metrics import Breakdown, binary, precision_recall
from rankviz.metrics.binary import (
    average_precision,
    average_precision_breakdown,
    f_beta,
    f_beta_breakdown,
    hit,
    precision,
    precision_breakdown,
    r_precision,
    recall,
    reciprocal_rank,
    reciprocal_rank_breakdown,
)
from rankviz.metrics.precision_recall import (
    eleven_point_precision,
    interpolated_average_precision,
    interpolated_average_precision_breakdown,
    interpolated_precision,
    interpolated_precision_breakdown,
    precision_recall_points,
    precision_recall_points_breakdown,
)

# Course 002, slides "MRR - An example" / "F-Measure - Homework Exercise": q1 has relevant
# documents (the bullets) at ranks 1, 3, 6, 10, 15 and R = 10; q2 at ranks 3, 8, 15 with R = 3.
Q1 = [1, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1]
Q2 = [0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1]
Q1_R, Q2_R = 10, 3
# Course 001, section "MAP": three relevant documents at positions 1, 3 and 6.
POSITIONS_1_3_6 = [1, 0, 1, 0, 0, 1]

SETTINGS = settings(max_examples=100, deadline=None)
grades = st.lists(st.integers(min_value=0, max_value=3), max_size=14)
binary_lists = st.lists(st.integers(min_value=0, max_value=1), max_size=14)
cutoffs = st.one_of(st.none(), st.integers(min_value=1, max_value=18))


# ------------------------------------------------------------------------- course values


def test_average_precision_of_positions_1_3_6_course_001():
    expected = (1 / 1 + 2 / 3 + 3 / 6) / 3  # relevant at positions 1, 3, 6; R = 3
    assert average_precision(POSITIONS_1_3_6) == pytest.approx(expected)
    assert average_precision(POSITIONS_1_3_6, n_relevant=3) == pytest.approx(expected)
    assert round(expected, 3) == 0.722


def test_average_precision_of_lecture_queries():
    # q2: (1/3 + 2/8 + 3/15) / 3, as course/README.md computes it; q1 divides by R = 10.
    assert average_precision(Q2, n_relevant=Q2_R) == pytest.approx((1 / 3 + 2 / 8 + 3 / 15) / 3)
    assert average_precision(Q1, n_relevant=Q1_R) == pytest.approx((1 / 1 + 2 / 3 + 3 / 6 + 4 / 10 + 5 / 15) / 10)


def _truncate2(values):
    """The slide writes precisions truncated to two decimals (2/3 -> 0.66, 1/3 -> 0.33)."""
    return [math.floor(v * 100 + 1e-9) / 100 for v in values]


def test_interpolated_precision_rows_of_the_lecture_map_slides():
    # Course 002, slides "MAP - An example": the ten terms of each sum, as printed.
    q1_slide = [1, 0.66, 0.5, 0.4, 0.33, 0, 0, 0, 0, 0]
    q2_slide = [0.33, 0.33, 0.33, 0.25, 0.25, 0.25, 0.2, 0.2, 0.2, 0.2]
    levels = [i / 10 for i in range(1, 11)]
    assert _truncate2(interpolated_precision(Q1, levels, n_relevant=Q1_R)) == q1_slide
    assert _truncate2(interpolated_precision(Q2, levels, n_relevant=Q2_R)) == q2_slide
    # The slide's sums: 2.89 / 10 printed (truncated) as 0.28, and 2.54 / 10 = 0.254.
    assert math.floor(sum(q1_slide) / 10 * 100) / 100 == 0.28
    assert round(sum(q2_slide) / 10, 3) == 0.254


def test_interpolated_average_precision_lecture_values_exactly():
    q1 = (1 + 2 / 3 + 1 / 2 + 4 / 10 + 5 / 15) / 10  # q1: recall 0.1..0.5 at ranks 1, 3, 6, 10, 15
    q2 = (3 * (1 / 3) + 3 * (2 / 8) + 4 * (3 / 15)) / 10  # q2: recall 1/3, 2/3, 1 at ranks 3, 8, 15
    assert interpolated_average_precision(Q1, n_relevant=Q1_R) == pytest.approx(q1)
    assert interpolated_average_precision(Q2, n_relevant=Q2_R) == pytest.approx(q2)
    # The slide's 0.28 is 0.289 truncated; its 0.254 uses 0.33 for 1/3. Exact values are close.
    assert interpolated_average_precision(Q1, n_relevant=Q1_R) == pytest.approx(0.28, abs=0.011)
    assert interpolated_average_precision(Q2, n_relevant=Q2_R) == pytest.approx(0.254, abs=0.0015)
    # and differ from non-interpolated AP for q2: 0.255 versus 0.261.
    assert average_precision(Q2, n_relevant=Q2_R) - interpolated_average_precision(Q2, n_relevant=Q2_R) > 0.005


def test_lecture_map_breakdown_table_reads_like_the_slide():
    worked = interpolated_average_precision_breakdown(Q2, n_relevant=Q2_R)
    table = worked.table
    assert table["recall level"].round(1).tolist() == [i / 10 for i in range(1, 11)]
    # Levels 0.1-0.3 are reached at rank 3, 0.4-0.6 at rank 8, 0.7-1.0 at rank 15 (q2).
    assert table["first rank reaching it"].tolist() == [3, 3, 3, 8, 8, 8, 15, 15, 15, 15]
    assert worked.value == pytest.approx((3 / 3 + 3 * 2 / 8 + 4 * 3 / 15) / 10)
    assert dict(worked.details) == {"n_relevant": Q2_R, "rounding": "ceil"}
    assert worked.latex.startswith(r"\mathrm{MAP}_{\mathrm{interp}} = \frac{1}{10}\left(0.333 + ")


def test_reciprocal_rank_with_threshold_s_h_3_course_002():
    # Course 002, slides "MRR - An example": S_h = 3; q1 first relevant at rank 1, q2 at rank 3.
    assert reciprocal_rank(Q1, k=3) == 1.0
    assert reciprocal_rank(Q2, k=3) == pytest.approx(1 / 3)
    mrr = (reciprocal_rank(Q1, k=3) + reciprocal_rank(Q2, k=3)) / 2
    assert round(mrr, 2) == 0.67
    assert reciprocal_rank(Q2, k=2) == 0.0  # first relevant (rank 3) is below S_h = 2
    assert reciprocal_rank(Q2) == pytest.approx(1 / 3)


def test_reciprocal_rank_sees_only_the_first_relevant_document_course_003():
    assert reciprocal_rank([0, 0, 1, 1, 1]) == reciprocal_rank([0, 0, 1, 0, 0]) == pytest.approx(1 / 3)


@pytest.mark.parametrize(("rels", "n_rel", "k", "found"), [
    (Q1, Q1_R, 10, 4),  # q1 top 10: ranks 1, 3, 6, 10
    (Q1, Q1_R, 15, 5),
    (Q2, Q2_R, 8, 2),  # q2 top 8: ranks 3, 8
    (Q2, Q2_R, 15, 3),
])
def test_f_measures_of_the_homework_exercise_course_002(rels, n_rel, k, found):
    p, r = found / k, found / n_rel
    # The slide's three formulas, "F-Measure: Harmonic Mean".
    assert f_beta(rels, k=k, n_relevant=n_rel) == pytest.approx(2 * p * r / (p + r))
    assert f_beta(rels, k=k, beta=2, n_relevant=n_rel) == pytest.approx(5 * p * r / (4 * p + r))
    assert f_beta(rels, k=k, beta=0.5, n_relevant=n_rel) == pytest.approx(1.25 * p * r / (0.25 * p + r))


def test_f_beta_weights_recall_or_precision_as_the_lecture_says():
    # q2 at k = 15: P = 3/15 (low), R = 3/3 (high): F2 > F1 > F0.5.
    f05, f1, f2 = (f_beta(Q2, k=15, beta=b, n_relevant=3) for b in (0.5, 1, 2))
    assert f05 < f1 < f2
    assert f_beta(Q2, k=15, beta=0, n_relevant=3) == pytest.approx(3 / 15)  # beta = 0 is P


def test_hit_is_accuracy_at_k_course_000():
    assert hit(Q2, k=2) == 0.0  # first relevant at rank 3
    assert hit(Q2, k=3) == 1.0
    assert hit([]) == 0.0
    assert hit([0, 0, 0]) == 0.0


# --------------------------------------------------------------- trec_eval semantics by hand


def test_precision_beyond_the_list_counts_missing_ranks_as_non_relevant():
    assert precision(POSITIONS_1_3_6, k=10) == pytest.approx(3 / 10)  # 6 docs, 3 relevant, P_10
    assert precision(POSITIONS_1_3_6) == pytest.approx(3 / 6)  # set_P
    assert precision([]) == 0.0
    assert precision([], k=5) == 0.0
    table = precision_breakdown(POSITIONS_1_3_6, k=10).table
    assert len(table) == 10 and table["rel"].iloc[6:].isna().all()


def test_recall_uses_r_from_n_relevant_then_judged_then_the_list():
    assert recall(POSITIONS_1_3_6, k=3) == pytest.approx(2 / 3)  # R = 3 from the list
    assert recall(POSITIONS_1_3_6, k=3, n_relevant=5) == pytest.approx(2 / 5)
    judged = [1, 1, 1, 1, 0, 0, 0]  # four relevant judged documents of the query
    assert recall(POSITIONS_1_3_6, k=3, judged=judged) == pytest.approx(2 / 4)
    assert recall([0, 0], n_relevant=0) == 0.0  # R = 0 -> 0 (trec_eval)


def test_rel_threshold_makes_lower_grades_non_relevant():
    rels = [1, 2, 0, 3]
    assert precision(rels, k=4, rel_threshold=2) == pytest.approx(2 / 4)
    assert average_precision(rels, rel_threshold=2) == pytest.approx((1 / 2 + 2 / 4) / 2)
    assert reciprocal_rank(rels, rel_threshold=3) == pytest.approx(1 / 4)


def test_r_precision_counts_missing_ranks_as_non_relevant():
    assert r_precision(Q1, n_relevant=Q1_R) == pytest.approx(4 / 10)  # q1: 4 relevant in the top 10
    assert r_precision([1, 1], n_relevant=4) == pytest.approx(2 / 4)  # list shorter than R
    assert r_precision([0, 0]) == 0.0  # R = 0


def test_average_precision_at_k_still_divides_by_r_like_map_cut():
    rels = [0, 1, 0, 1, 1]  # R = 3 in the list
    assert average_precision(rels, k=2) == pytest.approx((1 / 2) / 3)
    assert average_precision(rels, k=4) == pytest.approx((1 / 2 + 2 / 4) / 3)
    assert average_precision([1, 1], k=1) == pytest.approx(1 / 2)  # not 1: R = 2 > k
    assert average_precision([0, 0, 0]) == 0.0
    assert average_precision([], n_relevant=2) == 0.0


def test_interpolated_precision_rounding_variants():
    levels = [0.3, 0.4, 0.5, 0.7]
    # q2, R = 3: textbook needs ceil(rR) relevant documents: 1, 2, 2, 3.
    assert interpolated_precision(Q2, levels, n_relevant=3).tolist() == pytest.approx([1 / 3, 2 / 8, 2 / 8, 3 / 15])
    # trec_eval 10.0 rounds 0.9, 1.2, 1.5, 2.1 to 1, 1, 2, 2.
    assert interpolated_precision(Q2, levels, n_relevant=3, rounding="lround").tolist() == pytest.approx(
        [1 / 3, 1 / 3, 2 / 8, 2 / 8])
    # trec_eval 9.x: floor(rR + 0.9) in doubles; 0.7 * 3 + 0.9 = 2.9999999999999996 gives 2.
    assert interpolated_precision(Q2, levels, n_relevant=3, rounding="floor_plus_0.9").tolist() == pytest.approx(
        [1 / 3, 2 / 8, 2 / 8, 2 / 8])


def test_interpolated_precision_levels_that_no_rank_reaches_are_zero():
    values = interpolated_precision([1, 0, 0], [0.0, 0.5, 1.0], n_relevant=2)
    assert values.tolist() == [1.0, 1.0, 0.0]
    table = interpolated_precision_breakdown([1, 0, 0], [0.0, 0.5, 1.0], n_relevant=2).table
    assert table["best rank"].isna().tolist() == [False, False, True]
    assert interpolated_precision([0, 0], n_relevant=0).tolist() == [0.0] * 11


def test_ceil_rounding_is_not_fooled_by_binary_noise():
    # 0.7 * 10 = 7.000000000000001 must need 7 relevant documents, not 8.
    rels = [1] * 7 + [0] * 3
    assert interpolated_precision(rels, [0.7], n_relevant=10).tolist() == [1.0]
    assert interpolated_precision(rels, [0.71], n_relevant=10).tolist() == [0.0]


def test_eleven_point_precision_includes_level_zero():
    # Relevant at rank 2 only, R = 1: every level is reached at rank 2 with P = 1/2.
    assert eleven_point_precision([0, 1, 0]) == pytest.approx(1 / 2)
    # q2 textbook: levels 0.0-0.3 -> 1/3, 0.4-0.6 -> 2/8, 0.7-1.0 -> 3/15.
    assert eleven_point_precision(Q2, n_relevant=3) == pytest.approx((4 / 3 + 3 * 2 / 8 + 4 * 3 / 15) / 11)


def test_precision_recall_points_for_charts():
    points = precision_recall_points([1, 0, 1], n_relevant=4)  # R = 4, relevant at 1 and 3
    assert points.rank.tolist() == [1, 2, 3]
    assert points.precision.tolist() == pytest.approx([1 / 1, 1 / 2, 2 / 3])
    assert points.recall.tolist() == pytest.approx([1 / 4, 1 / 4, 2 / 4])
    rank, prec, rec = precision_recall_points([])
    assert rank.size == prec.size == rec.size == 0


def test_breakdown_latex_substitutes_the_numbers():
    assert average_precision_breakdown(POSITIONS_1_3_6).latex == (
        r"\mathrm{AP} = \frac{1}{3}\left(\frac{1}{1} + \frac{2}{3} + \frac{3}{6}\right) = 0.722")
    assert reciprocal_rank_breakdown(Q2, k=2).latex == (
        r"\mathrm{RR} = 0 \quad (S_{\mathrm{correct}} = 3 > S_h = 2)")
    assert precision_breakdown(POSITIONS_1_3_6, k=10).latex == r"P@10 = \frac{3}{10} = 0.300"
    assert "F_{2}@15" in f_beta_breakdown(Q2, k=15, beta=2, n_relevant=3).latex


def test_breakdown_columns_are_the_documented_ones():
    table = average_precision_breakdown(POSITIONS_1_3_6).table
    assert list(table.columns) == ["rank", "rel", "relevant?", "relevant so far", "P@i", "contribution"]
    assert table["contribution"].tolist() == pytest.approx([1, 0, 2 / 3, 0, 0, 3 / 6])
    assert list(f_beta_breakdown([1], beta=0.5).table.columns)[-1] == "F0.5@i"


# ----------------------------------------------------------------- scikit-learn / reference


@settings(max_examples=40, deadline=None)
@given(labels=st.lists(st.integers(min_value=0, max_value=1), min_size=1, max_size=30).filter(any))
def test_average_precision_equals_sklearn_with_r_all_positives(labels):
    from sklearn.metrics import average_precision_score

    # Distinct scores in ranked order: rank 1 gets the highest score.
    scores = np.arange(len(labels), 0, -1, dtype=float)
    assert average_precision(labels) == pytest.approx(average_precision_score(labels, scores), rel=1e-12)


@settings(max_examples=40, deadline=None)
@given(rels=binary_lists, k=st.integers(min_value=1, max_value=18), missing=st.integers(min_value=0, max_value=4),
       beta=st.sampled_from([0.5, 1.0, 2.0]))
def test_f_beta_equals_sklearn_on_the_retrieved_set(rels, k, missing, beta):
    from sklearn.metrics import fbeta_score

    # The collection: the ranked list, padded to k with non-relevant documents, plus `missing`
    # relevant documents never retrieved. The top k is predicted relevant.
    padded = rels + [0] * max(0, k - len(rels))
    y_true = padded + [1] * missing
    y_pred = [1] * k + [0] * (len(padded) - k) + [0] * missing
    n_rel = sum(rels) + missing
    expected = fbeta_score(y_true, y_pred, beta=beta, zero_division=0.0)
    assert f_beta(rels, k=k, beta=beta, n_relevant=n_rel) == pytest.approx(expected, abs=1e-12)


def _slow_interpolated(rels, levels: list[Fraction], n_rel: int) -> list[float]:
    """Textbook definition in exact fractions: max P@i over ranks i with R@i >= level."""
    out = []
    for level in levels:
        best = Fraction(0)
        for i in range(1, len(rels) + 1):
            hits = sum(rels[:i])
            if n_rel and Fraction(hits, n_rel) >= level:
                best = max(best, Fraction(hits, i))
        out.append(float(best))
    return out


@SETTINGS
@given(rels=binary_lists, missing=st.integers(min_value=0, max_value=6))
def test_interpolated_precision_equals_the_exact_textbook_definition(rels, missing):
    n_rel = sum(rels) + missing
    tenths = [Fraction(i, 10) for i in range(11)]
    expected = _slow_interpolated(rels, tenths, n_rel)
    assert interpolated_precision(rels, n_relevant=n_rel).tolist() == pytest.approx(expected, abs=1e-12)
    assert eleven_point_precision(rels, n_relevant=n_rel) == pytest.approx(sum(expected) / 11, abs=1e-12)
    quarters = [Fraction(i, 4) for i in range(1, 5)]
    assert interpolated_precision(rels, [0.25, 0.5, 0.75, 1.0], n_relevant=n_rel).tolist() == pytest.approx(
        _slow_interpolated(rels, quarters, n_rel), abs=1e-12)


def _pytrec_eval(pytrec_eval, rels, missing, measures, relevance_level=1):
    docs = [f"d{i:03d}" for i in range(len(rels))]
    qrel = {"q": {d: int(g) for d, g in zip(docs, rels)}}
    qrel["q"].update({f"m{i}": relevance_level for i in range(missing)})
    run = {"q": {d: float(len(rels) - i) for i, d in enumerate(docs)}}
    evaluator = pytrec_eval.RelevanceEvaluator(qrel, measures, relevance_level=relevance_level)
    return evaluator.evaluate(run)["q"]


@settings(max_examples=60, deadline=None)
@given(rels=st.lists(st.integers(min_value=0, max_value=2), min_size=1, max_size=14),
       missing=st.integers(min_value=0, max_value=5), threshold=st.sampled_from([1, 2]))
def test_agrees_with_pytrec_eval_which_is_trec_eval_9(pytrec_eval, rels, missing, threshold):
    out = _pytrec_eval(pytrec_eval, rels, missing, {"map", "map_cut.3,10", "P.3,10,20", "recall.5", "Rprec", "recip_rank",
                                       "success.1,5", "set_P", "set_recall", "set_F", "iprec_at_recall",
                                       "11pt_avg"}, threshold)
    n_rel = sum(g >= threshold for g in rels) + missing
    kw = {"n_relevant": n_rel, "rel_threshold": threshold}
    close = {"abs": 1e-12}
    assert average_precision(rels, **kw) == pytest.approx(out["map"], **close)
    for k in (3, 10):
        assert average_precision(rels, k=k, **kw) == pytest.approx(out[f"map_cut_{k}"], **close)
    for k in (3, 10, 20):
        assert precision(rels, k=k, rel_threshold=threshold) == pytest.approx(out[f"P_{k}"], **close)
    assert recall(rels, k=5, **kw) == pytest.approx(out["recall_5"], **close)
    assert r_precision(rels, **kw) == pytest.approx(out["Rprec"], **close)
    assert reciprocal_rank(rels, rel_threshold=threshold) == pytest.approx(out["recip_rank"], **close)
    for k in (1, 5):
        assert hit(rels, k=k, rel_threshold=threshold) == out[f"success_{k}"]
    assert precision(rels, rel_threshold=threshold) == pytest.approx(out["set_P"], **close)
    assert recall(rels, **kw) == pytest.approx(out["set_recall"], **close)
    assert f_beta(rels, **kw) == pytest.approx(out["set_F"], **close)
    levels = [i / 10 for i in range(11)]
    iprec = interpolated_precision(rels, **kw, rounding="floor_plus_0.9")
    assert iprec.tolist() == pytest.approx([out[f"iprec_at_recall_{p:.2f}"] for p in levels], **close)
    assert eleven_point_precision(rels, **kw, rounding="floor_plus_0.9") == pytest.approx(out["11pt_avg"], **close)


# ------------------------------------------------------------------------------ trec_eval

def _read_qrels(path: Path) -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            qid, _, docno, rel = line.split()[:4]
            qrels.setdefault(qid, {})[docno] = int(rel)
    return qrels


def _read_ranked_grades(qrels_path: Path, run_path: Path) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
    """Per query: the grades in trec_eval's order (score descending, then docno descending), and
    the judged grades. Negative grades (judged 'unjudged' in the pool) count as 0 here, which is
    what they are for binary measures at any threshold >= 1."""
    qrels = _read_qrels(qrels_path)
    run: dict[str, list[tuple[float, str]]] = {}
    for line in run_path.read_text().splitlines():
        if line.strip():
            qid, _, docno, _, score = line.split()[:5]
            run.setdefault(qid, []).append((float(score), docno))
    ranked = {}
    for qid, judged in qrels.items():
        order = sorted(run.get(qid, []), reverse=True)  # score desc, ties by docno desc
        ranked[qid] = [max(0, judged.get(docno, 0)) for _, docno in order]
    judged_grades = {qid: [max(0, g) for g in judged.values()] for qid, judged in qrels.items()}
    return ranked, judged_grades


def _read_expected(path: Path) -> dict[tuple[str, str], float]:
    expected = {}
    for line in path.read_text().splitlines():
        measure, qid, value = (part.strip() for part in line.split("\t"))
        if qid != "all":
            try:
                expected[(measure, qid)] = float(value)
            except ValueError:
                pass  # runid, relstring
    return expected


def _ours(measure: str, rels, judged, threshold: int, rounding: str):
    """The rankviz value of one trec_eval measure, or None for measures not in this module."""
    with_r = {"judged": judged, "rel_threshold": threshold}
    name, _, param = measure.rpartition("_")
    if measure == "map":
        return average_precision(rels, **with_r)
    if measure == "Rprec":
        return r_precision(rels, **with_r)
    if measure == "recip_rank":
        return reciprocal_rank(rels, rel_threshold=threshold)
    if measure == "set_P":
        return precision(rels, rel_threshold=threshold)
    if measure == "set_recall":
        return recall(rels, **with_r)
    if measure == "set_F":
        return f_beta(rels, **with_r)
    if measure == "11pt_avg":
        return eleven_point_precision(rels, **with_r, rounding=rounding)
    if measure.startswith("11pt_avg_"):  # 11pt_avg_.25,.5,.75: the mean at the given levels
        levels = [float(p) for p in measure[len("11pt_avg_"):].split(",")]
        return float(interpolated_precision(rels, levels, **with_r, rounding=rounding).mean())
    if name == "iprec_at_recall":
        return float(interpolated_precision(rels, [float(param)], **with_r, rounding=rounding)[0])
    if name in {"P", "recall", "success", "map_cut"}:
        k = int(param)
        if name == "P":
            return precision(rels, k=k, rel_threshold=threshold)
        if name == "recall":
            return recall(rels, k=k, **with_r)
        if name == "success":
            return hit(rels, k=k, rel_threshold=threshold)
        return average_precision(rels, k=k, **with_r)
    return None


CASES = [
    # (expected output, qrels, run, relevance threshold, rounding of the trec_eval version)
    ("out.test.aq", "qrels.test", "results.test", 1, "lround"),
    ("out.test.aqc", "qrels.test", "results.trunc", 1, "lround"),
    ("out.test.aql", "qrels.rel_level", "results.test", 2, "lround"),
    ("out.test.meas_params", "qrels.test", "results.test", 1, "lround"),
    ("generated/out.302.iprec", "qrels-302.test", "results-302.test", 1, "lround"),
    ("generated/edge.out.qc", "generated/edge.qrels", "generated/edge.run", 1, "lround"),
    ("generated/edge.out.qcl2", "generated/edge.qrels", "generated/edge.run", 2, "lround"),
    ("generated/trec_eval-9.0.8/out.test.aq", "qrels.test", "results.test", 1, "floor_plus_0.9"),
    ("generated/trec_eval-9.0.8/out.test.aql", "qrels.rel_level", "results.test", 2, "floor_plus_0.9"),
    ("generated/trec_eval-9.0.8/out.test.meas_params", "qrels.test", "results.test", 1, "floor_plus_0.9"),
]


@pytest.mark.conformance
@pytest.mark.parametrize(("expected_file", "qrels_file", "run_file", "threshold", "rounding"), CASES,
                         ids=[case[0] for case in CASES])
def test_matches_trec_eval_outputs(conformance_dir, expected_file, qrels_file, run_file, threshold, rounding):
    ranked, judged = _read_ranked_grades(conformance_dir / qrels_file, conformance_dir / run_file)
    expected = _read_expected(conformance_dir / expected_file)
    checked, wrong = 0, []
    for (measure, qid), value in expected.items():
        if qid not in ranked:
            continue
        ours = _ours(measure, ranked[qid], judged[qid], threshold, rounding)
        if ours is None:
            continue
        checked += 1
        if abs(ours - value) > 5.1e-5:  # trec_eval prints 4 decimals
            wrong.append((measure, qid, value, round(ours, 6)))
    assert checked >= 10, f"only {checked} values compared: is {expected_file} the expected format?"
    assert not wrong, wrong


@pytest.mark.conformance
def test_trec_eval_10_and_9_differ_where_the_readme_says(conformance_dir):
    # README "Version caveats": topic 301 (R = 474) iprec_at_recall_0.10 is 0.2098 in 10.0 and
    # 0.2096 in 9.0.8; topic 302 iprec_at_recall_0.25 is 0.7917 in 10.0 and 0.7500 in 9.0.8.
    ranked, judged = _read_ranked_grades(conformance_dir / "qrels.test", conformance_dir / "results.test")
    at = {rounding: {qid: interpolated_precision(ranked[qid], [0.1, 0.25], judged=judged[qid], rounding=rounding)
                     for qid in ("301", "302")} for rounding in precision_recall.ROUNDINGS}
    assert at["lround"]["301"][0] == pytest.approx(0.2098, abs=5e-5)
    assert at["ceil"]["301"][0] == pytest.approx(0.2096, abs=5e-5)
    assert at["lround"]["302"][1] == pytest.approx(0.7917, abs=5e-5)
    assert at["ceil"]["302"][1] == pytest.approx(0.7500, abs=5e-5)
    assert at["floor_plus_0.9"]["302"][1] == pytest.approx(0.7500, abs=5e-5)


# ---------------------------------------------------------------------------- properties

# name -> (function, accepts k, accepts n_relevant/judged)
SCALARS = {
    "precision": (precision, True, False),
    "recall": (recall, True, True),
    "hit": (hit, True, False),
    "f_beta": (f_beta, True, True),
    "r_precision": (r_precision, False, True),
    "average_precision": (average_precision, True, True),
    "eleven_point_precision": (eleven_point_precision, False, True),
    "interpolated_average_precision": (interpolated_average_precision, False, True),
    "reciprocal_rank": (reciprocal_rank, True, False),
}
MONOTONE = ["precision", "recall", "hit", "f_beta", "r_precision", "average_precision", "reciprocal_rank"]


def _call(name, rels, k=None, n_relevant=None, **extra):
    func, takes_k, takes_r = SCALARS[name]
    kwargs = dict(extra)
    if takes_k:
        kwargs["k"] = k
    if takes_r:
        kwargs["n_relevant"] = n_relevant
    return func(rels, **kwargs)


@pytest.mark.parametrize("name", SCALARS)
@SETTINGS
@given(rels=grades, k=cutoffs, missing=st.integers(min_value=0, max_value=5),
       threshold=st.sampled_from([1, 2, 0.5]))
def test_values_are_floats_in_zero_one(name, rels, k, missing, threshold):
    n_rel = sum(g >= threshold for g in rels) + missing
    value = _call(name, rels, k, n_rel, rel_threshold=threshold)
    assert type(value) is float
    assert 0.0 <= value <= 1.0


@pytest.mark.parametrize("name", SCALARS)
@settings(max_examples=50, deadline=None)
@given(rels=grades, k=cutoffs)
def test_list_ndarray_and_series_agree_and_input_is_not_mutated(name, rels, k):
    as_array = np.array(rels, dtype=float)
    as_series = pd.Series(rels, dtype="int64")
    expected = _call(name, rels, k)
    assert _call(name, as_array, k) == expected
    assert _call(name, as_series, k) == expected
    assert _call(name, tuple(rels), k) == expected
    np.testing.assert_array_equal(as_array, np.array(rels, dtype=float))
    assert as_series.tolist() == rels


@pytest.mark.parametrize("name", MONOTONE)
@SETTINGS
@given(rels=binary_lists, k=cutoffs, missing=st.integers(min_value=0, max_value=3), data=st.data())
def test_moving_a_relevant_document_up_never_lowers_the_value(name, rels, k, missing, data):
    swaps = [i for i in range(len(rels) - 1) if rels[i] == 0 and rels[i + 1] == 1]
    assume(swaps)
    i = data.draw(st.sampled_from(swaps))
    improved = list(rels)
    improved[i], improved[i + 1] = 1, 0
    n_rel = sum(rels) + missing  # same documents, same R
    assert _call(name, improved, k, n_rel) >= _call(name, rels, k, n_rel) - 1e-12


@SETTINGS
@given(rels=binary_lists, missing=st.integers(min_value=0, max_value=3))
def test_interpolated_precision_is_non_increasing_in_recall(rels, missing):
    values = interpolated_precision(rels, n_relevant=sum(rels) + missing)
    assert np.all(np.diff(values) <= 1e-12)


@SETTINGS
@given(rels=binary_lists.filter(any))
def test_perfect_ranking_scores_one(rels):
    ideal = sorted(rels, reverse=True)
    for name in ("average_precision", "r_precision", "reciprocal_rank", "eleven_point_precision",
                 "interpolated_average_precision", "recall", "hit"):
        assert _call(name, ideal) == pytest.approx(1.0), name


def _breakdown_pairs(rels, k, n_rel, threshold, beta, levels, rounding):
    """(scalar, breakdown table) for every function of the module with the same arguments."""
    r = {"n_relevant": n_rel, "rel_threshold": threshold}
    t = {"rel_threshold": threshold}
    return {
        "precision": (precision(rels, k, **t), precision_breakdown(rels, k, **t)),
        "recall": (recall(rels, k, **r), binary.recall_breakdown(rels, k, **r)),
        "hit": (hit(rels, k, **t), binary.hit_breakdown(rels, k, **t)),
        "f_beta": (f_beta(rels, k, beta=beta, **r), f_beta_breakdown(rels, k, beta=beta, **r)),
        "r_precision": (r_precision(rels, **r), binary.r_precision_breakdown(rels, **r)),
        "average_precision": (average_precision(rels, k, **r), average_precision_breakdown(rels, k, **r)),
        "precision_recall_points": (recall(rels, **r), precision_recall_points_breakdown(rels, **r)),
        "interpolated_precision": (float(interpolated_precision(rels, levels, **r, rounding=rounding).mean()),
                                   interpolated_precision_breakdown(rels, levels, **r, rounding=rounding)),
        "eleven_point_precision": (eleven_point_precision(rels, **r, rounding=rounding),
                                   precision_recall.eleven_point_precision_breakdown(rels, **r, rounding=rounding)),
        "interpolated_average_precision": (
            interpolated_average_precision(rels, **r, rounding=rounding),
            interpolated_average_precision_breakdown(rels, **r, rounding=rounding)),
        "reciprocal_rank": (reciprocal_rank(rels, k, **t), reciprocal_rank_breakdown(rels, k, **t)),
    }


@SETTINGS
@given(rels=grades, k=cutoffs, missing=st.integers(min_value=0, max_value=4), threshold=st.sampled_from([1, 2]),
       beta=st.sampled_from([0, 0.5, 1, 2]), rounding=st.sampled_from(precision_recall.ROUNDINGS),
       levels=st.lists(st.floats(min_value=0, max_value=1), min_size=1, max_size=5))
def test_breakdown_value_equals_the_scalar(rels, k, missing, threshold, beta, rounding, levels):
    n_rel = sum(g >= threshold for g in rels) + missing
    for name, (scalar, worked) in _breakdown_pairs(rels, k, n_rel, threshold, beta, levels, rounding).items():
        assert isinstance(worked, Breakdown) and isinstance(worked.table, pd.DataFrame), name
        assert worked.value == pytest.approx(scalar, rel=1e-12, abs=1e-15), name
        assert isinstance(worked.latex, str) and worked.latex, name
        assert not worked.table.attrs, name


# Every public name, from the module that defines it.
PUBLIC = {name: getattr(module, name) for module in (binary, precision_recall) for name in module.__all__
          if name in vars(module)}


def test_precision_recall_family_is_public_from_its_module_and_the_package_only():
    # The family moved from rankviz.metrics.binary to rankviz.metrics.precision_recall; the public
    # path is the package (rankviz.metrics.<name>). binary no longer serves the moved names: the
    # lazy forwarding it needed held an import circle between the two modules.
    import rankviz.metrics

    for name in precision_recall.__all__:
        assert not hasattr(binary, name), name
        assert name not in binary.__all__, name
        if not name.isupper() and name != "PrecisionRecallPoints":
            assert getattr(rankviz.metrics, name) is getattr(precision_recall, name), name
    with pytest.raises(AttributeError, match="has no attribute 'interpolated_precision'"):
        binary.interpolated_precision  # noqa: B018


@pytest.mark.parametrize("first", ["binary", "precision_recall"])
def test_either_module_imports_first_in_a_fresh_interpreter(first):
    import subprocess
    import sys

    other = "precision_recall" if first == "binary" else "binary"
    code = (f"import rankviz.metrics.{first}, rankviz.metrics.{other}; "
            "from rankviz.metrics.binary import *; "
            "assert 'interpolated_precision' not in dir(); "
            "from rankviz.metrics.precision_recall import interpolated_precision, ROUNDINGS; "
            "print(interpolated_precision([1, 0, 1], [0.5]).tolist(), precision([1, 0, 1]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    # Rank 1 is relevant: P@1 = 1/1 at recall 1/2; 2 relevant of 3.
    assert out.stdout.strip() == f"[1.0] {2 / 3}"


OWN_MODULES = ["binary", "precision_recall", "user", "binary_input"]


def _imports(module: str) -> list[tuple[str, str]]:
    """(module imported from, name) for every ``from x import y`` of rankviz/metrics/<module>.py."""
    import ast

    source = (Path(binary.__file__).parent / f"{module}.py").read_text()
    return [(node.module or "", alias.name) for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.ImportFrom) for alias in node.names]


@pytest.mark.parametrize("module", OWN_MODULES)
def test_no_circle_between_binary_and_precision_recall_and_no_private_names_imported(module):
    imported = _imports(module)
    # The shared helpers live in rankviz.metrics.binary_input, which both modules import.
    if module in ("binary", "precision_recall"):
        other = "precision_recall" if module == "binary" else "binary"
        assert not [m for m, _ in imported if m == f"rankviz.metrics.{other}"], imported
    # "_" alone is gettext's translation function (rankviz.i18n._), public by convention.
    assert not [(m, name) for m, name in imported if name.startswith("_") and name not in ("annotations", "_")], imported


def test_every_public_function_has_a_breakdown_twin_and_a_docstring_example():
    for name, obj in PUBLIC.items():
        if callable(obj) and not isinstance(obj, type) and not name.endswith("_breakdown"):
            twin = PUBLIC[name + "_breakdown"]
            for func in (obj, twin):
                assert ">>>" in (func.__doc__ or ""), func.__name__


# ------------------------------------------------------------------------------ bad input

ALL_FUNCTIONS = [obj for obj in PUBLIC.values() if callable(obj) and not isinstance(obj, type)]
IDS = [f.__name__ for f in ALL_FUNCTIONS]


@pytest.mark.parametrize("func", ALL_FUNCTIONS, ids=IDS)
@pytest.mark.parametrize(("rels", "message"), [
    ([1, 0, -1], r"must be non-negative numbers; got -1 at rank 3"),
    ([1, float("nan")], r"must be finite numbers; got nan at rank 2"),
    ("abc", r"not a string"),
    ([1, "abc"], r"must be numbers; got 'abc' at rank 2"),
    (None, r"Got None"),
    ([[1, 0], [0, 1]], r"one-dimensional"),
])
def test_bad_grades_name_the_function_and_the_rank(func, rels, message):
    with pytest.raises(ValueError, match=message) as error:
        func(rels)
    assert func.__name__ in str(error.value)


K_FUNCTIONS = [precision, precision_breakdown, recall, binary.recall_breakdown, hit, binary.hit_breakdown, f_beta,
               f_beta_breakdown, average_precision, average_precision_breakdown, reciprocal_rank,
               reciprocal_rank_breakdown]


@pytest.mark.parametrize("func", K_FUNCTIONS, ids=[f.__name__ for f in K_FUNCTIONS])
@pytest.mark.parametrize("k", [0, -2, 1.5, "3", True])
def test_bad_k(func, k):
    with pytest.raises(ValueError, match=rf"The 'k' parameter of {func.__name__} must be an int in the range"):
        func([1, 0, 1], k=k)


R_FUNCTIONS = [f for f in ALL_FUNCTIONS if "n_relevant" in f.__code__.co_varnames]


@pytest.mark.parametrize("func", R_FUNCTIONS, ids=[f.__name__ for f in R_FUNCTIONS])
def test_r_inconsistent_with_the_list_raises(func):
    with pytest.raises(ValueError, match=r"n_relevant' parameter of .* is 1, smaller than the 2 relevant"):
        func([1, 0, 1], n_relevant=1)
    with pytest.raises(ValueError, match=r"'judged' parameter of .* holds 1 relevant grades, fewer than the 2"):
        func([1, 0, 1], judged=[1, 0, 0])
    with pytest.raises(ValueError, match=r"n_relevant=3 and 'judged' with 2 relevant grades"):
        func([1, 0, 1], n_relevant=3, judged=[1, 1, 0])
    with pytest.raises(ValueError, match=r"'n_relevant' parameter .* must be an int in the range \[0, inf\)"):
        func([1, 0, 1], n_relevant=2.5)


@pytest.mark.parametrize("func", ALL_FUNCTIONS, ids=IDS)
@pytest.mark.parametrize("threshold", [-1, float("nan"), "1", None])
def test_bad_rel_threshold(func, threshold):
    # 0 is allowed, as trec_eval's -l 0: every document counts as relevant.
    with pytest.raises(ValueError, match=r"'rel_threshold' parameter .* must be a number in the range \[0, inf\)"):
        func([1, 0], rel_threshold=threshold)


@pytest.mark.parametrize("func", [f_beta, f_beta_breakdown])
@pytest.mark.parametrize("beta", [-1, float("inf"), "2"])
def test_bad_beta(func, beta):
    with pytest.raises(ValueError, match=r"'beta' parameter .* must be a number in the range \[0, inf\)"):
        func([1, 0], beta=beta)


@pytest.mark.parametrize("func", [interpolated_precision, interpolated_precision_breakdown])
@pytest.mark.parametrize(("levels", "message"), [
    ([0.5, 1.5], r"range \[0, 1\]. Got 1.5 at position 2"),
    ([-0.1], r"range \[0, 1\]. Got -0.1 at position 1"),
    ([], r"at least one level"),
    ([0.5, float("nan")], r"finite"),
])
def test_bad_recall_levels(func, levels, message):
    with pytest.raises(ValueError, match=message):
        func([1, 0], levels)


@pytest.mark.parametrize("func", [interpolated_precision, eleven_point_precision, interpolated_average_precision,
                                  interpolated_average_precision_breakdown])
def test_bad_rounding(func):
    with pytest.raises(ValueError, match=r"'rounding' parameter .* must be one of 'ceil', 'floor_plus_0.9', 'lround'"):
        func([1, 0], rounding="round")


@pytest.mark.parametrize("levels", [0, 2.5, None])
def test_bad_level_count(levels):
    with pytest.raises(ValueError, match=r"'levels' parameter of interpolated_average_precision must be an int"):
        interpolated_average_precision([1, 0], levels=levels)


def test_levels_count_changes_the_grid():
    # Relevant at rank 2, R = 1: every level reached at rank 2 with P = 1/2, whatever the grid.
    assert interpolated_average_precision([0, 1], levels=4) == pytest.approx(1 / 2)
    # Relevant at ranks 1 and 4, R = 2, 2 levels (0.5, 1.0): (1/1 + 2/4) / 2.
    assert interpolated_average_precision([1, 0, 0, 1], levels=2) == pytest.approx((1 + 2 / 4) / 2)
