"""A worked table is built in the language in force: Chinese headers under ``speaking("zh")``,
the same numbers and the same roles, so code reading it by role never depends on the language."""

from __future__ import annotations

import pandas as pd
import pytest

from rankviz import metrics as m
from rankviz.i18n import speaking

LECTURE_Q1 = [1, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1]  # course 002, q1: relevant at 1, 3, 6, 10, 15
GRADES = [3, 2, 3, 0, 1, 2]  # the nDCG exercise's grades

CASES = {
    "precision": lambda: m.precision_breakdown(LECTURE_Q1, k=5),
    "recall": lambda: m.recall_breakdown(LECTURE_Q1, k=5, n_relevant=10),
    "f_beta": lambda: m.f_beta_breakdown(LECTURE_Q1, k=5, n_relevant=10),
    "hit": lambda: m.hit_breakdown(LECTURE_Q1, k=3),
    "r_precision": lambda: m.r_precision_breakdown(LECTURE_Q1, n_relevant=5),
    "average_precision": lambda: m.average_precision_breakdown(LECTURE_Q1, n_relevant=10),
    "reciprocal_rank": lambda: m.reciprocal_rank_breakdown([0, 0, 1, 0]),
    "eleven_point": lambda: m.eleven_point_precision_breakdown(LECTURE_Q1, n_relevant=10),
    "points": lambda: m.precision_recall_points_breakdown(LECTURE_Q1, n_relevant=10),
    "cumulative_gain": lambda: m.cumulative_gain_breakdown(GRADES),
    "dcg": lambda: m.dcg_breakdown(GRADES, gain="exponential"),
    "ideal_dcg": lambda: m.ideal_dcg_breakdown(GRADES),
    "ndcg": lambda: m.ndcg_breakdown(GRADES, k=5),
    "err": lambda: m.err_breakdown(GRADES),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_same_breakdown_in_chinese_has_chinese_headers_the_same_numbers_and_roles(name):
    english = CASES[name]()
    with speaking("zh"):
        chinese = CASES[name]()
    assert chinese.value == english.value
    assert list(chinese.roles) == list(english.roles) and chinese.roles  # every lecture table is read by role
    for role in english.roles:
        pd.testing.assert_series_equal(chinese.column(role), english.column(role), check_names=False)
    # The headers are the English ones translated (symbols such as P@i, R_i, log2(1+i) stay).
    assert list(chinese.table.columns) != list(english.table.columns)
    # Cell for cell the same table, only the headers differ.
    pd.testing.assert_frame_equal(chinese.table.set_axis(english.table.columns, axis=1), english.table)


def test_the_lecture_tables_read_in_the_notes_terms():
    with speaking("zh"):
        ap = m.average_precision_breakdown([1, 0, 1, 0, 0, 1])
        ndcg = m.ndcg_breakdown(GRADES)
        err = m.err_breakdown([2, 0])
    assert list(ap.table.columns) == ["位置", "相关度", "相关？", "累计相关数", "P@i", "贡献"]
    assert ap.column("contribution").round(3).tolist() == [1.0, 0.0, 0.667, 0.0, 0.0, 0.5]  # 1/1, 2/3, 3/6 (note 001)
    assert ndcg.roles["ideal_running"] == "累计 IDCG" and ndcg.roles["discount"] == "log2(1+i)"
    assert err.roles["reach"] == "P(到达该位置)" and err.roles["stop"] == "R_i"


def test_words_inside_a_formula_follow_the_language_and_the_english_stays_as_it_was():
    assert m.hit_breakdown([0, 0, 1], k=3).latex == r"\mathrm{Hit@3} = 1 \quad (\text{first relevant document at rank 3})"
    assert m.recall_breakdown([0, 0]).latex == r"R = 0 \quad (\text{no relevant documents: }R = 0)"
    with speaking("zh"):
        assert m.hit_breakdown([0, 0, 1], k=3).latex == r"\mathrm{Hit@3} = 1 \quad (\text{第一个相关文档在位置 3})"
        assert m.hit_breakdown([0, 0], k=2).latex.endswith(r"(\text{前 2 个中没有相关文档})")
        assert m.recall_breakdown([0, 0]).latex == r"R = 0 \quad (\text{没有相关文档： }R = 0)"
