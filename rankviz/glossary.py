"""The course's terms in Chinese and English, side by side, each with its source.

The course notes come first: ``../shared/course/001_*.txt`` (the Chinese notes on precision,
recall, AUC/GAUC, MAP, NDCG, MRR and ERR) write 准确率 for precision and 召回率 for recall, and
name the other measures by their English names and abbreviations (``MAP(Mean Average
Precision)``, ``DCG (Discounted cumulative gain)``...). Where the notes give no Chinese name,
the term the app uses is the one in common use in Chinese IR and machine-learning writing, and
the entry says so. Textbooks differ on one word: 李航《统计学习方法》 writes 准确率 for *accuracy*
and 精确率 for precision, 周志华《机器学习》 writes 查准率 / 查全率 for precision / recall; the notes'
准确率 means precision, and so does the app's (:data:`PRECISION_NOTE`).

Each :class:`Term` names what the notes write (``in_notes``, checked against the notes' text by
tests/test_glossary.py) and the Chinese the app's catalogue uses (``chinese``). No Streamlit here;
the glossary page (``app_pages/glossary.py``) draws :data:`TERMS`.

>>> term("precision").chinese, term("precision").in_notes
('准确率', '准确率')
>>> term("ndcg").chinese
'归一化折损累计增益'
"""

from __future__ import annotations

from dataclasses import dataclass

from rankviz.i18n import N_

__all__ = ["Term", "TERMS", "NOTES", "term", "PRECISION_NOTE", "SOURCES"]

NOTES = "001"  # ../shared/course/001_*.txt, the Chinese notes

# Where a term comes from (shown through rankviz.i18n._ on the page).
SOURCES = {
    "notes": N_("course notes 001 (Chinese)"),
    "notes_english": N_("course notes 001 write the English name; Chinese: common usage"),
    "lecture": N_("lecture 002 (English); Chinese: common usage"),
    "summary": N_("metrics summary 000 (English); Chinese: common usage"),
    "usage": N_("not in the course notes; common usage in Chinese IR writing"),
}

PRECISION_NOTE = N_(
    "准确率 means precision in the course notes (001: “P(k) 表示前k个文档的准确率,即precision@K”) and "
    "on every page of this app. Other Chinese textbooks use 准确率 for accuracy (the share of all "
    "predictions that are right) and 精确率 or 查准率 for precision (李航《统计学习方法》: 精确率; "
    "周志华《机器学习》: 查准率 and 查全率 for precision and recall). Read 准确率 in another book with care.")


@dataclass(frozen=True)
class Term:
    """One term: its English name, the symbol the app writes, the Chinese the app uses, other
    Chinese names in use, what the course notes write (None when they do not use the term), the
    source key (:data:`SOURCES`) and, for a term the English course files name, ``(file, text)``
    (``("002", "GMAP")``: lecture 002 writes it)."""

    key: str
    english: str
    symbol: str
    chinese: str
    other_chinese: str
    in_notes: str | None
    source: str
    in_course: tuple[str, str] | None = None


TERMS: tuple[Term, ...] = (
    Term("precision", "precision", "P@k", "准确率", "精确率, 查准率", "准确率", "notes"),
    Term("recall", "recall", "R@k", "召回率", "查全率", "召回率", "notes"),
    Term("f_measure", "F-measure (F1, F-beta)", "F1, Fβ", "F值", "F1值, F分数", None, "lecture",
         ("002", "F-measure")),
    Term("average_precision", "average precision", "AP", "平均精度", "平均准确率", "AP/AveP", "notes_english"),
    Term("map", "mean average precision", "MAP", "平均精度均值", "平均准确率均值", "MAP(Mean Average Precision)",
         "notes_english"),
    Term("interpolated_precision", "interpolated precision", "P_interp(r)", "插值准确率", "插值精确率", None,
         "usage"),
    Term("eleven_point", "11-point interpolated precision", "11-pt", "11点插值准确率", "11点插值平均准确率", None,
         "usage"),
    Term("r_precision", "R-precision", "R-prec", "R-准确率", "R-精确率", None, "usage"),
    Term("cg", "cumulative gain", "CG", "累计增益", "累积增益", None, "lecture",
         ("002", "Cumulative Gain")),
    Term("dcg", "discounted cumulative gain", "DCG", "折损累计增益", "折扣累积增益", "DCG (Discounted cumulative gain)",
         "notes_english"),
    Term("ndcg", "normalized discounted cumulative gain", "nDCG", "归一化折损累计增益", "归一化折扣累积增益",
         "NDCG (Normalize DCG)", "notes_english"),
    Term("gain", "gain", "g", "增益", "", "gain", "notes_english"),
    Term("discount", "discount", "d", "折损", "折扣", "discount", "notes_english"),
    Term("rr", "reciprocal rank", "RR", "倒数排名", "", "RR (reciprocal rank)", "notes_english"),
    Term("mrr", "mean reciprocal rank", "MRR", "平均倒数排名", "", "MRR (Mean reciprocal rank)", "notes_english"),
    Term("err", "expected reciprocal rank", "ERR", "期望倒数排名", "", "ERR (Expected reciprocal rank)",
         "notes_english"),
    Term("auc", "area under the ROC curve", "AUC", "ROC曲线下面积", "AUC值", "AUC", "notes_english"),
    Term("gauc", "group AUC", "GAUC", "分组AUC", "", "GAUC", "notes_english"),
    Term("roc", "ROC curve", "ROC", "ROC曲线", "受试者工作特征曲线", "ROC(tpr-fpr)曲线", "notes_english"),
    Term("gmap", "geometric mean average precision", "GMAP", "几何平均精度均值", "", None, "lecture", ("002", "GMAP")),
    Term("kendall", "Kendall's rank correlation coefficient", "τ", "肯德尔等级相关系数", "肯德尔相关系数", None,
         "summary", ("000", "Kendall tau distance at K")),
    Term("spearman", "Spearman's rank correlation coefficient", "ρ", "斯皮尔曼等级相关系数", "斯皮尔曼相关系数", None,
         "lecture", ("002", "Spearman")),
    Term("relevance_grade", "relevance grade", "rel, g", "相关度等级", "相关性等级", "label", "notes_english"),
    Term("ideal_ranking", "ideal ranking", "IDCG", "理想排序", "", None, "lecture", ("002", "Ideal")),
    Term("cutoff", "cut-off k", "@k", "截断位置", "截断值", "Precision@K", "notes_english"),
    Term("query", "query", "q", "查询", "", "query", "notes_english"),
    Term("ties", "tied scores", "", "并列分数", "分数相同", None, "usage"),
    Term("recall_effort", "recall effort", "", "召回代价", "召回努力", None, "lecture", ("002", "Recall Effort")),
)


def term(key: str) -> Term:
    """The glossary entry ``key`` (e.g. ``"precision"``); raises ValueError naming the keys when absent."""
    for entry in TERMS:
        if entry.key == key:
            return entry
    raise ValueError(f"No glossary term {key!r}; terms: {', '.join(t.key for t in TERMS)}.")
