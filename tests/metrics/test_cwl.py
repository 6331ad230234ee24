"""Hand-worked values of the measures taken from ir_measures: SDCG, NERR8-11, INST, INSQ, Compat
and Judged@k. Each value is derived in its comment from the measure's definition (the C/W/L
continuation probabilities of cwl_eval 1.0.12, Compat's RBO as in ir_measures 0.4.3,
Judged as in OpenNIR / ir_measures); tests/test_ir_measures_diff.py checks the same code
against ir_measures itself on random collections.
"""

from __future__ import annotations

import math

import pandas as pd
import pytest

from rankviz import metrics
from rankviz.evaluation.evaluator import evaluate
from rankviz.evaluation.measures import parse_measure


def test_sdcg_is_dcg_over_k_top_grade_documents():
    # Grades 2, 0, 1 on the scale 0-2: gains 1, 0, 1/2. DCG@3 = 1 + 0 + (1/2)/log2(4) = 1.25;
    # k documents of grade 2: 1 + 1/log2(3) + 1/2 = 2.13093. 1.25 / 2.13093 = 0.58660.
    assert metrics.sdcg([2, 0, 1], k=3) == pytest.approx(1.25 / (1 + 1 / math.log2(3) + 0.5), abs=1e-12)
    # The scale 0-4 halves every gain.
    assert metrics.sdcg([2, 0, 1], k=3, max_rel=4) == pytest.approx(0.625 / (1 + 1 / math.log2(3) + 0.5))
    # min_rel = 1: grades clipped to [1, 2], gains (g - 1)/(2 - 1) = 1, 0, 0: 1 / 2.13093.
    assert metrics.sdcg([2, 0, 1], k=3, min_rel=1) == pytest.approx(1 / (1 + 1 / math.log2(3) + 0.5))
    # k past the list: the empty ranks still count in the denominator (k = 5).
    assert metrics.sdcg([2], k=5) == pytest.approx(1 / sum(1 / math.log2(i + 1) for i in range(1, 6)))
    # A grade 3 was judged but not retrieved: the scale is 0-3 (gains 2/3, 0, 1/3).
    assert metrics.sdcg([2, 0, 1], k=3, judged=[3, 2, 1]) == pytest.approx(
        (2 / 3 + (1 / 3) / 2) / (1 + 1 / math.log2(3) + 0.5))


def test_nerr_variants_by_hand():
    # Grades 0, 2 (gains 0, 1), k = 2.
    # NERR8: C_1 = 1 - 0 = 1, reach 1, 1; W = 1/2, 1/2; value 1/2.
    assert metrics.nerr8([0, 2], k=2) == pytest.approx(0.5)
    # NERR9: C_1 = (1/2)(1 - 0), reach 1, 1/2; W = 2/3, 1/3; value 1/3.
    assert metrics.nerr9([0, 2], k=2) == pytest.approx(1 / 3)
    # NERR10, p = 0.5: C_1 = 0.5, C_2 = 0 (gain 1): reach 1, 1/2, 0...: value 1/3.
    assert metrics.nerr10([0, 2], p=0.5) == pytest.approx(1 / 3)
    # NERR11, T = 1: C_1 = ((1 + 1)/(1 + 2))^2 = 4/9, C_2 = 0: W = 9/13, 4/13; value 4/13.
    assert metrics.nerr11([0, 2]) == pytest.approx(4 / 13)
    # NERR8 with a half gain first (grades 1, 2 on 0-2): reach 1, 1/2; W = 2/3, 1/3;
    # value (2/3)(1/2) + (1/3)(1) = 2/3.
    assert metrics.nerr8([1, 2], k=2) == pytest.approx(2 / 3)
    # k = 1: the user reads rank 1 only.
    assert metrics.nerr8([1, 2], k=1) == pytest.approx(0.5)


def test_inst_and_insq_by_hand():
    # INST, T = 1, one relevant document at rank 1: T_i = 0, C_i = (i/(i + 1))^2 for i >= 1, so
    # reaching rank i has probability 1/i^2; W_1 = 1 / sum_{i<=1000} 1/i^2.
    basel = sum(1 / i**2 for i in range(1, 1001))
    assert metrics.inst([1, 0, 0]) == pytest.approx(1 / basel, abs=1e-12)
    # INSQ, T = 1: C_i = ((i + 1)/(i + 2))^2, reach_i = (2/(i + 1))^2: W_1 = 1 / sum 4/(i + 1)^2.
    insq_norm = sum(4 / (i + 1) ** 2 for i in range(1, 1001))
    assert metrics.insq([1, 0]) == pytest.approx(1 / insq_norm, abs=1e-12)
    # INSQ does not adapt: the same relevant document at rank 2 scores W_2 = (4/9) W_1.
    assert metrics.insq([0, 1]) == pytest.approx((4 / 9) / insq_norm, abs=1e-12)
    # No gain at all: 0.
    assert metrics.inst([0, 0]) == 0.0 and metrics.insq([]) == 0.0


def test_inst_breakdown_teaches_the_adaptive_goal():
    worked = metrics.inst_breakdown([0, 2, 1], T=2.0)
    # Gains 0, 1, 1/2: T_i = T - cumulative gain = 2, 1, 0.5.
    assert worked.table["T_i"].tolist() == [2.0, 1.0, 0.5]
    # C_1 = ((1 + 2 + 2 - 1)/(1 + 2 + 2))^2 = (4/5)^2.
    assert worked.table["C_i"].iloc[0] == pytest.approx(0.64)
    assert worked.table["W_i gain"].sum() == pytest.approx(worked.value)
    assert worked.value == metrics.inst([0, 2, 1], T=2.0)


def test_compat_by_hand():
    # Grades 0, 1, p = 0.5: ideal = the grade-1 document alone; D = 2. Overlap 0 at depth 1, 1
    # at depth 2: RBO = (0.5 * 1/2) / (1 + 0.5) = 1/6. Ideal with itself: (1 + 0.5 * 1/2) / 1.5
    # = 5/6. Compat = 1/5.
    assert metrics.compat([0, 1], p=0.5, normalize=False) == pytest.approx(1 / 6)
    assert metrics.compat([0, 1], p=0.5) == pytest.approx(0.2)
    # An unretrieved relevant document enlarges the ideal: grades 1, 0 with judged 1, 1, p = 0.5.
    # Ideal = [retrieved rel, unretrieved rel]; D = 2. Overlap 1, 1: RBO = (1 + 0.5 * 1/2) / 1.5
    # = 5/6; ideal with itself: (1 + 0.5 * 2/2) / 1.5 = 1: Compat = 5/6.
    assert metrics.compat([1, 0], judged=[1, 1, 0], p=0.5) == pytest.approx(5 / 6)
    # The ideal ranking scores 1; nothing relevant scores 0.
    assert metrics.compat([3, 2, 2, 1, 0]) == pytest.approx(1.0)
    assert metrics.compat([0, 0]) == 0.0
    worked = metrics.compat_breakdown([0, 1], p=0.5)
    assert worked.details["rbo"] == pytest.approx(1 / 6) and worked.details["ideal_rbo"] == pytest.approx(5 / 6)


def test_judged_at_k_by_hand():
    # Ranking (score order): a (grade 1), b (not in the qrels), c (grade -1: listed, so judged),
    # d (grade 0). Judged@3 = 2/3 (a, c); Judged@10 over the 4 retrieved = 3/4; no cutoff: 3/4.
    qrels = pd.DataFrame({"query_id": ["q"] * 4, "doc_id": ["a", "c", "d", "e"], "relevance": [1, -1, 0, 2]})
    run = pd.DataFrame({"query_id": ["q"] * 4, "doc_id": list("abcd"), "score": [4.0, 3.0, 2.0, 1.0]})
    result = evaluate(qrels, run, ["Judged@3", "Judged@10", "Judged", "unj@3"])
    assert result.per_query.loc["q", "Judged@3"] == pytest.approx(2 / 3)
    assert result.per_query.loc["q", "Judged@10"] == pytest.approx(3 / 4)
    assert result.per_query.loc["q", "Judged"] == pytest.approx(3 / 4)
    # trec_eval's unj@3 counts the listed-but-negative c as unjudged: b and c, 2/3.
    assert result.per_query.loc["q", "unj@3"] == pytest.approx(2 / 3)


def test_names_and_errors():
    assert str(parse_measure("Compat(normalize=False,p=0.8)")) == "Compat(normalize=false,p=0.8)"
    assert parse_measure("compat(normalize=false)") == parse_measure("Compat(normalize=0)")
    with pytest.raises(ValueError, match="true or false"):
        parse_measure("Compat(normalize=maybe)")
    with pytest.raises(ValueError, match="needs a cutoff"):
        parse_measure("SDCG")
    with pytest.raises(ValueError, match=r"Close matches: .*NERR8"):
        parse_measure("NERR@10")
    with pytest.raises(ValueError, match=r"'T' parameter of inst must be a number in the range \(0, inf\)"):
        metrics.inst([1], T=0)
    with pytest.raises(ValueError, match=r"'p' parameter of compat must be a number in the range \(0, 1\]"):
        metrics.compat([1], p=1.5)
