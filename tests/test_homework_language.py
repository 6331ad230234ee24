"""The homework checker in the students' language (issue 23): verdicts, mistake sentences, hints,
step labels and stages in Simplified Chinese with the same numbers as in English.

The Chinese is asked for both ways the contract names: the session's language
(``rankviz.i18n.use("zh")`` / ``speaking("zh")``) and the ``language=`` argument of the public
checking functions. A message is translated when it is made: steps built in English, checked in
Chinese, name their mistake in Chinese.
"""

from __future__ import annotations

import itertools
import re

import pytest

from homework_sheets import SHEETS, VARIANTS
from rankviz.i18n import speaking, use
from rankviz.teaching.homework import (
    HOMEWORK_PRESETS,
    KINDS,
    MISTAKES,
    STATUS_WORDS,
    RUNG_NAMES,
    check_answers,
    exercise_from_preset,
    generate_exercise,
    hint_summary,
    hints,
    own_exercise,
    stages,
    steps_for,
    summary,
)
from rankviz.teaching.homework.core import KIND_SPECS

TOLERANCE = 0.001
CJK = re.compile(r"[\u4e00-\u9fff]")
NUMBER = re.compile(r"(?<![A-Za-z_])[-−]?\d+(?:\.\d+)?")
# Symbols and names a Chinese sheet keeps as they are: metrics' symbols, variables, tools and authors.
SYMBOLS = {
    "AP", "MAP", "GMAP", "HMAP", "CG", "DCG", "IDCG", "NDCG", "ERR", "RR", "MRR", "AUC", "GAUC", "ESL", "max",
    "log", "ln", "exp", "min", "tau", "rel", "P_interp", "interp", "IIR", "trec_eval", "map_cut_k", "Rprec",
    "set_F", "Kaggle", "scipy", "Croft", "Chapelle", "Cooper", "Fagin", "Goodman", "Kruskal", "Kendall",
    "Zhou", "van", "Rijsbergen", "Järvelin", "Kekäläinen", "qrels", "session", "R-precision", "precision",
    "g_max", "g_i", "s_p", "s_n", "K_n", "R_i", "R_j", "d2", "Run", "tau-a", "tau-b",
}


def english_words(text: str) -> list[str]:
    """Words of Latin letters in ``text`` outside LaTeX math ($...$) that are not symbols: what a
    Chinese reader should not meet."""
    outside = re.sub(r"\$[^$]*\$", " ", text)
    words = re.findall(r"[A-Za-zÀ-ÿ_][A-Za-zÀ-ÿ_\-]*", outside)
    return [w for w in words if len(w.strip("_-")) > 1 and w not in SYMBOLS
            and not re.fullmatch(r"[A-Za-z](_?[0-9a-z]{0,3})?", w)  # P, R, k, d1, q2, s1, n0 ...
            and not re.fullmatch(r"[a-z]\d+|[A-Z]{1,2}\d*|[a-z]", w)]


def _data_names(exercise) -> set[str]:
    """The names a student typed (queries, runs, items, users): data, kept as typed."""
    found = set(map(str, exercise.items))

    def collect(value):
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, (tuple, list)):
            for inner in value:
                collect(inner)

    for value in exercise.params.values():
        collect(value)
    return {name for name in found if name}


def _without(text: str, names) -> str:
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    return text


def _without_text(formula: str) -> str:
    return re.sub(r"\\text\{[^{}]*\}", "", formula)


def numbers(text: str) -> list[str]:
    return NUMBER.findall(re.sub(r"\$[^$]*\$", " ", text))


def _exercises(kind, seeds=range(30)):
    options = KIND_SPECS[kind].options
    for values in itertools.product(*options.values()) if options else [()]:
        for seed in seeds:
            yield generate_exercise(seed, kind, **dict(zip(options, values)))
    for preset, preset_kind in HOMEWORK_PRESETS.items():
        if preset_kind == kind:
            yield exercise_from_preset(preset)
    for sheet_kind, inputs in [(sheet.kind, sheet.inputs) for sheet in SHEETS] + VARIANTS:
        if sheet_kind == kind:
            yield own_exercise(kind, **inputs)


def _observation(key):
    """An exercise, its (English) steps, a step index and the value mistake ``key`` gives there:
    named alone if it ever is, else among others."""
    mistake = MISTAKES[key]
    kinds = list(KINDS) if "*" in mistake.kinds else list(mistake.kinds)
    shared = None
    for kind in kinds:
        for exercise in _exercises(kind):
            steps = steps_for(exercise)
            for i, step in enumerate(steps):
                for alternative in step.alternatives:
                    if alternative.mistake != key or abs(alternative.step.expected - step.expected) <= 2 * TOLERANCE:
                        continue
                    answers = [repr(s.expected) for s in steps[:i]] + [repr(alternative.step.expected)]
                    named = check_answers(steps, answers, TOLERANCE)[i].mistakes
                    if named == (key,):
                        return exercise, steps, i, answers
                    if key in named and shared is None:
                        shared = exercise, steps, i, answers
    return shared


@pytest.mark.parametrize("key", list(MISTAKES))
def test_a_named_mistake_reads_in_chinese_with_the_same_numbers(key):
    found = _observation(key)
    assert found is not None, f"{key} is never named"
    exercise, steps, i, answers = found
    english = check_answers(steps, answers, TOLERANCE)[i]
    chinese = check_answers(steps, answers, TOLERANCE, language="zh")[i]  # steps built in English
    assert chinese.status == english.status == "wrong"
    assert chinese.mistakes == english.mistakes and key in chinese.mistakes
    with speaking("zh"):
        sentence = MISTAKES[key].sentence_for(exercise)
        zh_steps = steps_for(exercise)
    assert sentence in chinese.message and CJK.search(sentence), chinese.message
    if len(chinese.mistakes) == 1:
        assert "这样得到" in chinese.message and "精确值是" in chinese.message
    else:
        assert "无法判断你犯的是哪一种" in chinese.message and "精确值都是" in chinese.message
    assert numbers(chinese.message) == numbers(english.message) or sorted(numbers(chinese.message)) == sorted(
        numbers(english.message)), (english.message, chinese.message)
    # The registry's labels a convention names are the words domain's; the rest is Chinese.
    message = chinese.message
    mistake = MISTAKES[key]
    if mistake.convention is not None or mistake.words or mistake.asked is not None:
        from rankviz.i18n import _
        with speaking("zh"):
            param = mistake.convention[0] if mistake.convention else None
            labels = [_(param.label(value)) for value in param.values] if param is not None else []
            labels += [_(word()) for word in mistake.words.values()]
            if mistake.asked is not None:
                labels.append(_(mistake.asked(exercise)))
        for label in sorted(labels, key=len, reverse=True):
            message = message.replace(label, " ")
    assert not english_words(message), (english_words(message), chinese.message)
    # The same verdict from steps built in Chinese, under the session's language.
    use("zh")
    try:
        again = check_answers(zh_steps, answers, TOLERANCE)[i]
    finally:
        use("en")
    assert again.message == chinese.message and again.mistakes == chinese.mistakes
    assert english.message == check_answers(steps, answers, TOLERANCE)[i].message  # English again after use("en")


def test_the_verdicts_of_a_course_exercise_in_chinese():
    """002's NDCG exercise: the slide's 13.846 for DCG, a slip of 0.6, a blank and an unreadable answer."""
    steps = steps_for(exercise_from_preset("ndcg_exercise"), language="zh")
    dcg = next(i for i, step in enumerate(steps) if step.label == "DCG")
    answers = [repr(steps[0].expected)] + [""] * (dcg - 1) + ["13.846", "abc"]
    verdicts = check_answers(steps, answers, TOLERANCE, language="zh")
    assert verdicts[0].message == "正确（在 ±0.001 以内）。"
    assert verdicts[1].message == "还没有作答。"
    assert verdicts[dcg].message == "课程讲义印的就是这个数；讲义先把每一项截断到 3 位小数再相加（精确值 13.848）。"
    assert verdicts[dcg + 1].message.startswith("无法把 'abc' 读成数字")
    assert [STATUS_WORDS[v.status] for v in verdicts[:2]] == ["right", "not answered"]  # English outside zh
    with speaking("zh"):
        assert [STATUS_WORDS[v.status] for v in verdicts[:2]] == ["正确", "未作答"]
    assert summary(verdicts, language="zh") == f"{len(steps)} 步中有 2 步正确，其中 1 步与课程讲义印的一致，1 步无法识别，" \
        f"{len(steps) - 3} 步未作答。"
    wrong = check_answers(steps, ["11.6"], TOLERANCE, language="zh")[0]  # CG = 11
    english = check_answers(steps, ["11.6"], TOLERANCE)[0]
    assert wrong.message == "与精确值相差 0.6（容差 ±0.001）。" and english.message.startswith("That is 0.6 away")


def test_a_step_following_from_a_slip_is_carried_in_chinese():
    steps = steps_for(exercise_from_preset("ap_positions_1_3_6"))
    verdicts = check_answers(steps, ["1", "0.5", "0.5", "0.5", "0.4", "0.5", "0.667"], language="zh")
    assert verdicts[6].status == "carried"
    assert verdicts[6].message == "由你前面的答案推得（0.667）；前面有一步算错了。"


def test_hints_in_chinese_keep_the_formula():
    steps = steps_for(exercise_from_preset("ap_positions_1_3_6"), language="zh")
    english_steps = steps_for(exercise_from_preset("ap_positions_1_3_6"))
    english = hints(english_steps[-1], ["1", "", "0.6"], steps=english_steps)
    rungs = hints(steps[-1], ["1", "", "0.6"], steps=steps, language="zh")
    assert rungs[0].startswith("AP 把各相关文档位置上的 P@i 相加再除以 R")
    assert rungs[1].startswith("代入你的答案（还没作答的地方用精确值）：") and rungs[1].split("$")[1] == english[1].split("$")[1]
    assert rungs[2] == "结果：$\\mathrm{AP} = 0.722$。"
    with speaking("zh"):
        assert list(RUNG_NAMES) == ["要算什么", "代入你的数字的公式", "结果"]
    assert hint_summary({0: 1, 6: 3}, steps, language="zh") == "在 2 步上用了提示：P@1（相关）（要算什么），AP（结果）。"
    assert hint_summary({0: 1}, steps) == "Hints used on 1 step: P@1（相关） (what to compute)."


@pytest.mark.parametrize("kind", list(KINDS))
def test_step_labels_and_stages_read_in_chinese(kind):
    seen_labels = set()
    for exercise in itertools.islice(_exercises(kind, seeds=range(6)), 40):
        english = steps_for(exercise, mistakes=False)
        chinese = steps_for(exercise, language="zh")
        assert [s.expected for s in chinese] == [s.expected for s in english]
        # Formulas stay as they are; only the words in their \text{...} are translated.
        assert [_without_text(s.formula) for s in chinese] == [_without_text(s.formula) for s in english]
        assert len(stages(chinese)) == len(stages(english))
        english_hints = {s.hint for s in english}
        data = _data_names(exercise)
        for step in chinese:
            assert not english_words(_without(step.label, data)), (kind, step.label)
            assert not english_words(_without(step.stage, data)), (kind, step.stage)
            assert step.hint == "" or CJK.search(step.hint) or step.hint not in english_hints, (kind, step.hint)
            seen_labels.add(step.label)
    assert seen_labels
