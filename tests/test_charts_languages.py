"""Charts in the language in force: a Chinese worked table is found by role, titles, axes, legends
and the text alternative read in Chinese, and a cached template never crosses languages."""

from __future__ import annotations

import json

from rankviz import metrics as m
from rankviz.charts import chart_parts, gain_contribution_chart, precision_recall_at_rank_chart, precision_recall_chart
from rankviz.charts.descriptions import chart_description
from rankviz.i18n import speaking

RELS = [1, 0, 1, 0, 0, 1]  # course note 001: relevant at ranks 1, 3, 6


def _text(chart) -> str:
    return json.dumps(chart.to_dict(), ensure_ascii=False)


def test_a_chinese_breakdown_is_drawn_by_role_with_chinese_words():
    english = precision_recall_at_rank_chart(m.precision_recall_points_breakdown(RELS)).to_dict()
    with speaking("zh"):
        worked = m.precision_recall_points_breakdown(RELS)
        assert "位置" in worked.table.columns  # the table itself is Chinese: the chart reads it by role
        chart = precision_recall_at_rank_chart(worked)
        curve = precision_recall_chart({"run": worked})
        dcg = gain_contribution_chart(m.ndcg_breakdown([3, 2, 3, 0, 1, 2]))
    spec = chart.to_dict()
    assert spec["title"] == "沿排序往下的准确率和召回率" and english["title"] == "Precision and recall down the ranking"
    assert "位置 i" in _text(chart) and "rank i" not in _text(chart)
    # The same numbers drawn: the long frame of P@i then R@i.
    assert [d for d in spec["datasets"].values()] == [d for d in english["datasets"].values()]
    assert "准确率-召回率曲线" in _text(curve) and "不相关" in _text(curve)
    assert "DCG：每个位置的贡献" in _text(dcg)


def test_a_template_is_cached_per_language():
    worked = m.precision_recall_points_breakdown(RELS)
    english = chart_parts("precision_recall_at_rank_chart", worked)
    with speaking("zh"):
        chinese = chart_parts("precision_recall_at_rank_chart", worked)
        chinese_key = chinese.template_key()
    assert english.template_key() != chinese_key


def test_the_text_alternative_speaks_the_language_in_force():
    assert chart_description("err_chart").startswith("Chart: ERR down the ranking.")
    with speaking("zh"):
        assert chart_description("err_chart", title="ERR: where the user stops").startswith(
            "图表：ERR：用户在哪里停止。沿排序往下的 ERR。")
