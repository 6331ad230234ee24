"""The registry's words are translated when read: the same Choice, Param and MetricSpec read in
Chinese under ``speaking("zh")`` and in English otherwise, the English source kept for the CLI,
the docs and the architecture rules."""

from __future__ import annotations

from rankviz.i18n import speaking
from rankviz.registry import GAIN, GAUC_WEIGHT, METRICS, get_spec, metrics_markdown


def test_a_choice_reads_in_the_language_in_force_and_keeps_its_english_source():
    exponential = GAIN.choice("exponential")
    assert exponential.label == exponential.source_label == "exponential gain 2^g − 1"
    with speaking("zh"):
        assert exponential.label == "指数增益 2^g − 1"  # the formula's text stays as it is
        assert GAIN.label("linear") == "线性增益 g"
        assert "课程讲义" in exponential.description
        assert GAUC_WEIGHT.choice("positives").text == "点击数"
        assert exponential.text == "2^g − 1"  # a formula is not translated
        assert exponential.source_label == "exponential gain 2^g − 1"
    assert exponential.label == "exponential gain 2^g − 1"


def test_metric_names_follow_the_course_notes_and_symbols_stay():
    with speaking("zh"):
        assert get_spec("ndcg").pretty_name == "nDCG@k"  # a symbol
        assert get_spec("precision").description == "前 k 个中相关文档所占的比例；缺少的位置算作不相关。"
        assert get_spec("auc").description == "任取一对正例和负例，正例得分大于负例得分的概率。"  # the notes' words
        assert get_spec("interpolated_precision").pretty_name == "召回率 r 处的插值准确率"
        assert get_spec("recall").param("k").description.startswith("截断")
    assert get_spec("interpolated_precision").pretty_name == "Interpolated precision at recall r"


def test_every_word_of_the_registry_has_chinese_where_it_has_letters():
    untranslated = []
    with speaking("zh"):
        for spec in METRICS:
            texts = [(spec.source_description, spec.description)]
            texts += [(p.source_description, p.description) for p in spec.params]
            texts += [(c.source_label, c.label) for p in spec.params for c in p.choices]
            texts += [(c.source_description, c.description) for p in spec.params for c in p.choices]
            untranslated += [source for source, shown in texts if source == shown]
    assert not untranslated, untranslated[:10]


def test_the_generated_docs_stay_english_whatever_the_language():
    english = metrics_markdown()
    with speaking("zh"):
        assert metrics_markdown() == english
    assert "### Interpolated precision at recall r" in english
