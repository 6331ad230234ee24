"""Every homework kind and every catalogued mistake, walked generically.

* every kind generates from seeds (each option combination), lays out steps whose values, every
  one of them, equal the public functions of rankviz.metrics (the kind's ``reference``, computed
  without the step builder), and marks its own exact working right with no mistake named;
* every catalogued mistake is observable: on some seeded exercise, course preset or student's own
  exercise of its kinds (the published exercises of tests/homework_sheets.py, and the same inputs
  under the other conventions a sheet may ask for), the answer the mistake produces is marked wrong
  and the mistake is named (alone or among the ambiguous ones), and a right answer never names it;
* docs/homework.md is what ``python -m rankviz.teaching.homework`` prints.
"""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import pytest

from homework_sheets import SHEETS, VARIANTS
from rankviz.teaching.homework import (
    HOMEWORK_PRESETS,
    KINDS,
    MISTAKES,
    catalogue_markdown,
    check_answers,
    exercise_from_preset,
    generate_exercise,
    own_exercise,
    stages,
    steps_for,
)
from rankviz.teaching.homework.core import KIND_SPECS
from rankviz.teaching.homework.kinds import COURSE_ORDER

ROOT = Path(__file__).resolve().parents[1]
SEEDS = range(25)
TOLERANCE = 0.001


def _option_sets(kind):
    options = KIND_SPECS[kind].options
    names = list(options)
    return [dict(zip(names, values)) for values in itertools.product(*(options[n] for n in names))] or [{}]


def _exercises(kind, seeds=SEEDS):
    for options in _option_sets(kind):
        for seed in seeds:
            yield generate_exercise(seed, kind, **options)
    for preset, preset_kind in HOMEWORK_PRESETS.items():
        if preset_kind == kind:
            yield exercise_from_preset(preset)
    for sheet_kind, inputs in [(sheet.kind, sheet.inputs) for sheet in SHEETS] + VARIANTS:
        if sheet_kind == kind:
            yield own_exercise(kind, **inputs)


def test_every_kind_is_in_the_course_order():
    assert set(KINDS) <= set(COURSE_ORDER), set(KINDS) - set(COURSE_ORDER)
    assert list(KINDS) == [kind for kind in COURSE_ORDER if kind in KINDS]


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_seed_always_gives_the_same_exercise(kind):
    for options in _option_sets(kind):
        assert generate_exercise(7, kind, **options) == generate_exercise(7, kind, **options)
    assert len({repr(generate_exercise(seed, kind)) for seed in SEEDS}) > 1, "every seed gives the same exercise"


@pytest.mark.parametrize("kind", list(KINDS))
def test_steps_equal_rankviz_metrics(kind):
    spec = KIND_SPECS[kind]
    assert spec.reference is not None, f"kind {kind} has no reference computed with rankviz.metrics"
    checked = 0
    for exercise in _exercises(kind):
        steps = {step.label: step for step in steps_for(exercise)}
        assert len(steps) == len(steps_for(exercise)), "step labels must be unique"
        reference = spec.reference(exercise)
        unchecked = [label for label in steps if label not in reference]
        assert not unchecked, f"{kind}: steps with no value from rankviz.metrics to check them against: {unchecked}"
        for label, value in reference.items():
            assert label in steps, f"{kind}: reference names a step {label!r} the working does not have"
            assert steps[label].expected == pytest.approx(float(value), rel=1e-9, abs=1e-12), (exercise, label)
            checked += 1
    assert checked


@pytest.mark.parametrize("kind", list(KINDS))
def test_exact_answers_are_right_and_name_no_mistake(kind):
    for exercise in _exercises(kind, seeds=range(8)):
        steps = steps_for(exercise)
        assert all(math.isfinite(step.expected) for step in steps)
        assert all(step.stage for step in steps), "every step belongs to a stage of the reveal"
        assert stages(steps) == list(dict.fromkeys(step.stage for step in steps))
        verdicts = check_answers(steps, [repr(step.expected) for step in steps], TOLERANCE)
        assert [v.status for v in verdicts] == ["right"] * len(steps)
        assert all(v.mistake is None and not v.mistakes for v in verdicts)
        # The steps a derived step uses come before it.
        for i, step in enumerate(steps):
            assert all(j < i for j in step.uses), (step.label, step.uses)


def _observations(mistake):
    """(exercise, steps, index, wrong value) where ``mistake`` gives a value the tolerance tells from right."""
    kinds = list(KINDS) if "*" in mistake.kinds else list(mistake.kinds)
    for kind in kinds:
        for exercise in _exercises(kind, seeds=range(40)):
            steps = steps_for(exercise)
            for i, step in enumerate(steps):
                for alternative in step.alternatives:
                    if alternative.mistake == mistake.key and abs(
                            alternative.step.expected - step.expected) > 2 * TOLERANCE:
                        yield exercise, steps, i, alternative.step.expected


@pytest.mark.parametrize("key", list(MISTAKES))
def test_every_mistake_is_named_when_made(key):
    mistake = MISTAKES[key]
    assert mistake.sentence.endswith((".", "!")) and len(mistake.sentence) < 260
    seen = 0
    for exercise, steps, i, wrong in itertools.islice(_observations(mistake), 12):
        answers = [repr(step.expected) for step in steps[:i]] + [repr(wrong)]
        verdict = check_answers(steps, answers, TOLERANCE)[i]
        assert verdict.status == "wrong", (exercise, steps[i].label)
        assert key in verdict.mistakes, (exercise.title, steps[i].label, wrong, verdict.message)
        assert verdict.mistake == verdict.mistakes[0]
        assert mistake.sentence_for(exercise) in verdict.message
        if len(verdict.mistakes) > 1:
            assert "cannot tell" in verdict.message
        assert verdict.mistaken_formula
        seen += 1
    assert seen, f"mistake {key} never gives a different answer on any seeded or course exercise of its kinds"


def test_a_mistake_carries_forward():
    """DCG terms computed with ln, then their own sum: the sum follows from the student's answers."""
    exercise = exercise_from_preset("ndcg_exercise")
    steps = steps_for(exercise)
    ln_terms = {step.label: next(a.step.expected for a in step.alternatives if a.mistake == "ln_discount")
                for step in steps if step.label.startswith("DCG term") and step.expected}
    answers = [repr(ln_terms.get(step.label, step.expected)) if step.label.startswith("DCG term") else ""
               for step in steps]
    dcg = next(i for i, step in enumerate(steps) if step.label == "DCG")
    answers[dcg] = repr(sum(ln_terms.values()))
    verdicts = check_answers(steps, answers, TOLERANCE)
    named = [v for v in verdicts if v.mistake]
    assert named and all(v.mistake == "ln_discount" for v in named)
    assert "natural logarithm" in named[0].message and r"\ln" in named[0].mistaken_formula
    assert verdicts[dcg].status == "carried"


def test_docs_list_the_catalogue():
    assert (ROOT / "docs" / "homework.md").read_text(encoding="utf-8") == catalogue_markdown(), (
        "docs/homework.md is stale: python -m rankviz.teaching.homework > docs/homework.md")
    for key in MISTAKES:
        assert f"`{key}`" in catalogue_markdown()
