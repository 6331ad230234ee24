"""evaluate() with one measure named twice, in one spelling or in two (P@10 and P_10): one column per
distinct measure, named canonically, in the order the measures first appear."""

from __future__ import annotations

import pytest

from rankviz.evaluation.evaluator import evaluate
from rankviz.evaluation.measures import parse_measures

QRELS = "q1 0 a 2\nq1 0 b 1\nq1 0 c 0\nq2 0 d 1\n"
# q1 ranks a (grade 2), c (0), b (1); q2 ranks x (unjudged), d (1)
RUN = "q1 Q0 a 1 3 r\nq1 Q0 c 2 2 r\nq1 Q0 b 3 1 r\nq2 Q0 x 1 2 r\nq2 Q0 d 2 1 r\n"


@pytest.mark.parametrize("names", [["P@10", "P_10"], ["P_10", "P@10"], ["P@10", "P@10"], ["P.10", "P_10", "P@10"]])
def test_two_spellings_of_one_measure_give_one_column(names):
    result = evaluate(QRELS, RUN, names)
    assert list(result.per_query.columns) == ["P@10"]
    assert list(result.mean.index) == ["P@10"]
    # P@10: q1 has 2 relevant in its top 10, q2 has 1: (2/10 + 1/10) / 2 = 0.15
    assert result.mean["P@10"] == pytest.approx((2 / 10 + 1 / 10) / 2)


def test_duplicates_of_several_measures_keep_the_order_of_first_appearance():
    result = evaluate(QRELS, RUN, ["AP", "P_10", "map", "ndcg_cut_10", "P@10", "nDCG@10", "recip_rank"])
    assert list(result.per_query.columns) == ["AP", "P@10", "nDCG@10", "RR"]
    alone = evaluate(QRELS, RUN, ["AP", "P@10", "nDCG@10", "RR"])
    assert result.per_query.equals(alone.per_query)


def test_a_default_parameter_written_out_is_the_same_measure():
    result = evaluate(QRELS, RUN, ["nDCG@10", "nDCG(gain=linear)@10"])
    assert list(result.per_query.columns) == ["nDCG@10"]


def test_an_explicit_rel_is_another_measure_than_the_threshold_default():
    # rel_threshold=2: P@10 counts grade >= 2 (q1: a; q2: none) = (1/10 + 0) / 2
    # P(rel=1)@10 keeps grade >= 1 (q1: a, b; q2: d)              = (2/10 + 1/10) / 2
    result = evaluate(QRELS, RUN, ["P@10", "P(rel=1)@10", "P_10"], rel_threshold=2)
    assert list(result.mean.index) == ["P@10", "P(rel=1)@10"]
    assert result.mean["P@10"] == pytest.approx((1 / 10 + 0) / 2)
    assert result.mean["P(rel=1)@10"] == pytest.approx((2 / 10 + 1 / 10) / 2)


def test_parse_measures_is_where_spellings_meet():
    assert parse_measures(["P@10", "P_10", "P.10"]) == parse_measures("P@10")
