"""Tests of rankviz.teaching.graded_variants: every gain/discount pair, with hand-computed values."""

import numpy as np
import pytest

from rankviz.teaching.graded_variants import graded_variants


def _row(table, gain, discount):
    return table[(table["gain"] == gain) & (table["discount"] == discount)].iloc[0]


def test_the_four_variants_of_the_lecture_exercise():
    # Lecture 002 exercise, rel = 3,2,3,0,1,2; ideal = 3,3,2,2,1,0
    table = graded_variants([3, 2, 3, 0, 1, 2])
    assert len(table) == 4 and set(table["CG"]) == {11}
    exp_log2 = _row(table, "exponential", "log2")
    assert exp_log2["DCG"] == pytest.approx(7 + 3 / np.log2(3) + 7 / 2 + 1 / np.log2(6) + 3 / np.log2(7))
    assert exp_log2["IDCG"] == pytest.approx(7 + 7 / np.log2(3) + 3 / 2 + 3 / np.log2(5) + 1 / np.log2(6))
    lin_jk = _row(table, "linear", "jarvelin")
    # Järvelin-Kekäläinen: ranks 1 and 2 undiscounted, then rel_i / log2 i
    dcg = 3 + 2 + 3 / np.log2(3) + 0 + 1 / np.log2(5) + 2 / np.log2(6)
    idcg = 3 + 3 + 2 / np.log2(3) + 2 / np.log2(4) + 1 / np.log2(5)
    assert lin_jk["DCG"] == pytest.approx(dcg)
    assert lin_jk["nDCG"] == pytest.approx(dcg / idcg)


def test_k_and_judged_are_passed_on():
    table = graded_variants([1, 0, 2], 2, judged=[1, 0, 2, 3])
    row = _row(table, "linear", "log2")
    assert row["CG"] == 1  # top 2: 1 + 0
    assert row["IDCG"] == pytest.approx(3 + 2 / np.log2(3))  # ideal top 2 of the judged grades: 3, 2
    assert row["nDCG"] == pytest.approx(1 / (3 + 2 / np.log2(3)))


def test_bad_input_raises_the_metrics_message():
    with pytest.raises(ValueError, match="rels"):
        graded_variants([1, -1])
    with pytest.raises(ValueError, match="k"):
        graded_variants([1, 0], 0)
