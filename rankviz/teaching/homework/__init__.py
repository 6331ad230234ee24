"""Homework checking: an exercise becomes a list of steps, a student's answers become verdicts.

Pure logic (no streamlit), so the app's homework page only draws what this package decides.
An :class:`Exercise` is a course preset (:func:`exercise_from_preset`), the student's own
ranking (:func:`own_exercise`) or a practice exercise generated from a seed
(:func:`generate_exercise`: the same seed always gives the same exercise, so a lecturer can
share ``?seed=1234`` with a class). :func:`steps_for` lays it out step by step like the
lecture's worked tables, every expected value computed by :mod:`rankviz.metrics`, and attaches
to each step what every catalogued mistake (:data:`MISTAKES`) gives for it;
:func:`check_answers` marks each typed answer within a tolerance, names the mistake a wrong
answer matches, and a step computed from earlier steps (a sum, a ratio) also counts as right
when it follows from the student's own earlier answers ("error carried forward"), so one slip
is marked once, where it happened.

Layout: :mod:`~rankviz.teaching.homework.core` (exercises, steps, marking),
:mod:`~rankviz.teaching.homework.mistakes` (the catalogue and the rounding mistakes every kind
shares), :mod:`~rankviz.teaching.homework.kinds` (one module per family: its kinds, presets and
mistakes) and :mod:`~rankviz.teaching.homework.worksheets` (printable sheets and answer keys).

>>> exercise = exercise_from_preset("ap_positions_1_3_6")
>>> steps = steps_for(exercise)
>>> [step.label for step in steps][-1]
'AP'
>>> verdicts = check_answers(steps, ["1", "1/2", "0.667", "0.5", "0.4", "0.5", "0.722"], tolerance=0.001)
>>> [v.status for v in verdicts]
['right', 'right', 'right', 'right', 'right', 'right', 'right']
>>> verdicts = check_answers(steps, ["1", "0.5", "0.5", "0.5", "0.4", "0.5", "0.667"], tolerance=0.001)
>>> first_wrong(verdicts), verdicts[2].status, verdicts[6].status
(2, 'wrong', 'carried')

A student who divides q1's P@1 + P@3 + P@6 + P@10 + P@15 = 2.9 by the relevant documents they
retrieved (5) instead of R = 10 (0.58 for 0.29) is told so:

>>> steps = steps_for(exercise_from_preset("q1_binary"))
>>> verdict = check_answers(steps, [""] * 15 + ["0.58"])[-1]
>>> verdict.mistake, verdict.message.split(";")[0]
('ap_divided_by_retrieved_relevant', 'You divided by the relevant documents you retrieved')
"""

from __future__ import annotations

import math
from dataclasses import replace

from rankviz.teaching.export import format_number
from rankviz.teaching.homework.core import (
    KIND_SPECS,
    MAX_EXERCISE_LENGTH,
    STATUS_WORDS,
    Alternative,
    Exercise,
    KindSpec,
    Step,
    Verdict,
    check_answers,
    check_length,
    check_seed,
    first_wrong,
    parse_answer,
    seeded_random,
    summary,
)
from rankviz.teaching.homework.kinds import COURSE_ORDER
from rankviz.teaching.homework.kinds.graded import DISCOUNTS, GAINS, variant_words
from rankviz.teaching.homework.mistakes import MISTAKES, Mistake, mistake_catalogue

__all__ = [
    "KINDS",
    "GAINS",
    "DISCOUNTS",
    "MAX_EXERCISE_LENGTH",
    "HOMEWORK_PRESETS",
    "MISTAKES",
    "OWN_KINDS",
    "STATUS_WORDS",
    "Exercise",
    "Mistake",
    "Step",
    "Verdict",
    "own_exercise",
    "exercise_from_preset",
    "preset_title",
    "option_choices",
    "generate_exercise",
    "describe",
    "steps_for",
    "stages",
    "parse_answer",
    "check_answers",
    "first_wrong",
    "summary",
    "mistake_catalogue",
    "catalogue_markdown",
]

# What the checker can walk through, in the course's order, and how each is named to a student.
KINDS = {key: KIND_SPECS[key].title for key in (*COURSE_ORDER, *sorted(set(KIND_SPECS) - set(COURSE_ORDER)))
         if key in KIND_SPECS}
# Course exercises the checker walks through, and the kind of each.
HOMEWORK_PRESETS = {preset: spec.key for spec in (KIND_SPECS[k] for k in KINDS) for preset in spec.presets}
# Kinds a student can also work on their own input (the page's "your own list").
OWN_KINDS = ("ap", "ndcg", "spearman")


def _spec(kind) -> KindSpec:
    if kind not in KIND_SPECS:
        raise ValueError(f"The exercise kind must be one of {', '.join(KINDS)}; got {kind!r}.")
    return KIND_SPECS[kind]


def _attach_alternatives(exercise: Exercise, steps: list[Step]) -> list[Step]:
    """Each step with what every catalogued mistake of its kind gives for it (where that differs)."""
    labels = [step.label for step in steps]
    found: list[list[Alternative]] = [[] for _ in steps]
    position = {label: i for i, label in enumerate(labels)}
    for mistake in MISTAKES.values():
        if not mistake.applies_to(exercise.kind):
            continue
        try:
            wrong = mistake.working(exercise, steps)
        except (ValueError, ZeroDivisionError, OverflowError):
            continue  # this mistake cannot be made on this exercise (e.g. it would divide by zero)
        if not wrong:
            continue
        aligned = [step.label for step in wrong] == labels
        for wrong_step in wrong:
            i = position.get(wrong_step.label)
            if i is None or not math.isfinite(wrong_step.expected):
                continue
            if not math.isclose(wrong_step.expected, steps[i].expected, rel_tol=1e-12, abs_tol=1e-12):
                found[i].append(Alternative(mistake.key, wrong_step, aligned, mistake.sentence, mistake.units))
    return [replace(step, alternatives=tuple(alternatives)) for step, alternatives in zip(steps, found)]


def steps_for(exercise: Exercise, *, mistakes: bool = True) -> list[Step]:
    """The steps of ``exercise`` in the order a student works them out, each with its expected value.

    ndcg: CG, one DCG term per rank, DCG, one IDCG term per rank of the ideal ranking holding
    a relevant document, IDCG, NDCG. ap: P@i at every rank, then AP. spearman: d² per
    document, Σd², rho. Every kind's module documents its steps. Expected values come from
    :mod:`rankviz.metrics`; bad input raises their ValueError. Each step carries the
    ``alternatives`` the catalogued mistakes give for it; ``mistakes=False`` leaves them out (a
    worked solution to show needs none, and each mistake's working costs a build of the steps).

    >>> steps = steps_for(exercise_from_preset("ndcg_exercise"))
    >>> {s.label: round(s.expected, 3) for s in steps if s.label in ("DCG", "IDCG", "NDCG")}
    {'DCG': 13.848, 'IDCG': 14.595, 'NDCG': 0.949}
    """
    steps = _spec(exercise.kind).steps(exercise)
    return _attach_alternatives(exercise, steps) if mistakes else steps


def stages(steps) -> list[str]:
    """The stages of a working in order (the reveal shows one more each time), one per distinct
    ``Step.stage``.

    >>> stages(steps_for(exercise_from_preset("ndcg_exercise")))
    ['Step 1: CG', 'Step 2: DCG', 'Step 3: IDCG', 'Step 4: NDCG']
    """
    return list(dict.fromkeys(step.stage for step in steps))


def describe(exercise: Exercise) -> str:
    """What is given and what to compute, in one or two sentences of Markdown.

    Examples
    --------
    >>> print(describe(Exercise("ap", "AP", rels=(1, 0, 1, 0), n_relevant=3)))  # doctest: +NORMALIZE_WHITESPACE
    Relevance in ranked order (1 = relevant): 1, 0, 1, 0; R = 3 relevant documents in the collection.
    Compute P@i at every rank i, then AP = (1/R) Σ P@i over the relevant ranks.
    """
    return _spec(exercise.kind).describe(exercise)


def exercise_from_preset(key: str) -> Exercise:
    """The course exercise ``key`` (a key of :data:`HOMEWORK_PRESETS`) as a homework exercise.

    Examples
    --------
    The lecture's q2: 15 ranked documents, relevant at ranks 3, 8 and 15, R = 3.

    >>> exercise = exercise_from_preset("q2_binary")
    >>> exercise.kind, exercise.n_relevant, [rank for rank, grade in enumerate(exercise.rels, 1) if grade]
    ('ap', 3, [3, 8, 15])
    >>> exercise_from_preset("no_such_exercise")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: The homework checker has no steps for preset 'no_such_exercise'; it knows ...
    """
    if key not in HOMEWORK_PRESETS:
        raise ValueError(f"The homework checker has no steps for preset {key!r}; "
                         f"it knows {', '.join(HOMEWORK_PRESETS)}.")
    return KIND_SPECS[HOMEWORK_PRESETS[key]].presets[key]()


def preset_title(key: str) -> str:
    """The title of homework preset ``key``, as the course exercise picker lists it.

    >>> preset_title("ap_positions_1_3_6")
    'AP with relevant documents at positions 1, 3 and 6'
    """
    return exercise_from_preset(key).title


def option_choices(kind: str) -> dict:
    """The options a practice exercise of ``kind`` takes: name -> allowed values, the default first.

    >>> option_choices("ndcg")["gain"], option_choices("ap")
    (('exponential', 'linear'), {})
    """
    return dict(_spec(kind).options)


def generate_exercise(seed: int, kind: str = "ndcg", **options) -> Exercise:
    """A practice exercise drawn from ``seed``: the same seed and kind always give the same exercise.

    ``options`` are the kind's choices (ndcg: ``gain`` and ``discount``); each kind's module
    says what it draws (ndcg: 5 to 7 grades from 0 to 3, not already in ideal order; ap: 6 to
    10 binary grades with at least one relevant, and 0 to 2 relevant documents never retrieved).

    >>> generate_exercise(1234, "ap") == generate_exercise(1234, "ap")
    True
    >>> generate_exercise(1, "ap", gain="linear")
    Traceback (most recent call last):
    ...
    ValueError: Exercises of kind 'ap' take no option gain; they take none.
    """
    spec = _spec(kind)
    seed = check_seed(seed)
    unknown = sorted(set(options) - set(spec.options))
    if unknown:
        raise ValueError(f"Exercises of kind {kind!r} take no option {', '.join(unknown)}; "
                         f"they take {', '.join(spec.options) or 'none'}.")
    return spec.generate(seeded_random(kind, seed), seed, **options)


def own_exercise(kind: str, *, rels=(), gain="exponential", discount="log2", n_relevant=None, unretrieved=(),
                 ranks_a=(), ranks_b=(), items=()) -> Exercise:
    """An exercise on the student's own input; raises ValueError with a readable message if it is unusable.

    ``kind`` is one of :data:`OWN_KINDS`. ``unretrieved`` (ndcg only): grades of judged
    documents the ranking missed; the ideal ranking then sorts ``rels`` and these together.

    >>> own_exercise("ndcg", rels=[2, 0, 1], gain="linear").title
    'Your ranking 2, 0, 1: CG, DCG, IDCG and NDCG (linear gain, log2(i + 1) discount)'
    """
    _spec(kind)
    if kind not in OWN_KINDS:
        raise ValueError(f"Your own input can be checked for {', '.join(OWN_KINDS)}; {kind!r} exercises come "
                         f"from the course or from a seed.")
    if kind == "spearman":
        ranks_a, ranks_b = tuple(ranks_a), tuple(ranks_b)
        items = tuple(items) or tuple(f"d{i}" for i in range(1, len(ranks_a) + 1))
        check_length(len(ranks_a), "documents")
        exercise = Exercise(kind, f"Your two rankings of {len(ranks_a)} documents: {KINDS[kind]}",
                            items=items, ranks_a=ranks_a, ranks_b=ranks_b)
    else:
        rels = tuple(rels)
        check_length(len(rels), "ranks")
        if gain not in GAINS or discount not in DISCOUNTS:
            raise ValueError(f"gain must be one of {', '.join(GAINS)} and discount one of {', '.join(DISCOUNTS)}; "
                             f"got {gain!r} and {discount!r}.")
        shown = ", ".join(format_number(g) for g in rels)
        variant = f" ({variant_words(gain, discount)})" if kind == "ndcg" else ""
        judged = rels + tuple(unretrieved) if kind == "ndcg" and len(unretrieved) else None
        exercise = Exercise(kind, f"Your ranking {shown}: {KINDS[kind]}{variant}", rels=rels, gain=gain,
                            discount=discount, n_relevant=n_relevant, judged=judged)
    steps_for(exercise, mistakes=False)  # validates everything through the metric functions
    return exercise


def catalogue_markdown() -> str:
    """docs/homework.md: every exercise kind with its course presets, and the mistake catalogue.

    Regenerate with ``python -m rankviz.teaching.homework > docs/homework.md`` (a test checks it).

    >>> catalogue_markdown().splitlines()[0]
    '# Homework checker: exercise kinds and the mistakes it names'
    """
    lines = ["# Homework checker: exercise kinds and the mistakes it names", "",
             "Generated from `rankviz.teaching.homework` by `python -m rankviz.teaching.homework > docs/homework.md`;",
             "do not edit by hand.", "", "## Exercise kinds", "",
             "| kind | what the student computes | options | course presets |", "|---|---|---|---|"]
    for key, title in KINDS.items():
        spec = KIND_SPECS[key]
        options = "; ".join(f"{name}: {', '.join(map(str, values))}" for name, values in spec.options.items())
        presets = ", ".join(f"`{preset}`" for preset in spec.presets)
        lines.append(f"| `{key}` | {title} | {options or '—'} | {presets or '—'} |")
    lines += ["", "## Mistakes the checker names", "",
              "A wrong answer within the tolerance of what one of these gives is named in its verdict; when",
              "two give the same number, both are named and the checker says it cannot tell which.", "",
              mistake_catalogue(), ""]
    return "\n".join(lines)
