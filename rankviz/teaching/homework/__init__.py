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

Language: verdict messages, mistake sentences, summaries, hints, step labels and stages come in
the session's language, English or Simplified Chinese: set it with ``rankviz.i18n.use("zh")``
(or for a block, ``with rankviz.i18n.speaking("zh"): ...``), or pass ``language="zh"`` to
:func:`steps_for`, :func:`check_answers`, :func:`summary`, :func:`hints` or :func:`hint_summary`
(``language=None``, the default, keeps the language in force). Text is translated when a message is
made, not at import, from ``rankviz/locale/zh/LC_MESSAGES/teaching.po``; numbers and formulas stay
as they are. Steps built in one language may be checked in another: a verdict names its mistake in
the language of the check (labels and stages keep the language the steps were built in, so a
cache of steps must key on the language).

>>> check_answers(steps, ["1", "0.5", "0.6"], tolerance=0.001, language="zh")[2].message
'与精确值相差 0.067（容差 ±0.001）。'

A student who divides q1's P@1 + P@3 + P@6 + P@10 + P@15 = 2.9 by the relevant documents they
retrieved (5) instead of R = 10 (0.58 for 0.29) is told that this is another convention's answer:

>>> steps = steps_for(exercise_from_preset("q1_binary"))
>>> verdict = check_answers(steps, [""] * 15 + ["0.58"])[-1]
>>> verdict.mistake, verdict.message.split(";")[0]
('ap_divided_by_retrieved_relevant', 'That is right under another convention, AP over the relevant documents retrieved')
"""

from __future__ import annotations

import math
from dataclasses import replace

from rankviz.i18n import DEFAULT_LANGUAGE, _
from rankviz.i18n import language as language_in_force
from rankviz.registry import get_spec
from rankviz.teaching.homework.core import (KIND_SPECS, MAX_EXERCISE_LENGTH, STATUS_WORDS, Alternative, Exercise,
    InputError, KindSpec, OwnInput, Step, TranslatedWords, Verdict, check_answers, check_seed, first_wrong,
    in_language, parse_answer, seeded_random, summary)
from rankviz.teaching.homework.kinds import COURSE_ORDER
from rankviz.teaching.homework.kinds.graded import DISCOUNTS, GAINS
from rankviz.teaching.homework.hints import RUNG_NAMES, hint_summary, hints
from rankviz.teaching.homework.mistakes import MISTAKES, Mistake, mistake_catalogue
from rankviz.teaching.homework.own import input_text, read_input
from rankviz.teaching.homework.printed import printed_values
from rankviz.teaching.homework.words import translated

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
    "InputError",
    "Mistake",
    "OwnInput",
    "Step",
    "Verdict",
    "own_exercise",
    "own_inputs",
    "own_fields",
    "own_text",
    "own_choices",
    "hints",
    "hint_summary",
    "RUNG_NAMES",
    "exercise_from_preset",
    "preset_title",
    "option_choices",
    "option_params",
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
# (English source, read in the language in force.)
KINDS = TranslatedWords({key: object.__getattribute__(KIND_SPECS[key], "title")
                         for key in (*COURSE_ORDER, *sorted(set(KIND_SPECS) - set(COURSE_ORDER))) if key in KIND_SPECS})
# Course exercises the checker walks through, and the kind of each.
HOMEWORK_PRESETS = {preset: spec.key for spec in (KIND_SPECS[k] for k in KINDS) for preset in spec.presets}
# Kinds a student can also work on their own input (the page's "your own exercise"): every kind.
OWN_KINDS = tuple(KINDS)


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
                found[i].append(Alternative(mistake.key, wrong_step, aligned, exercise, mistake.units))
    return [replace(step, alternatives=tuple(alternatives)) for step, alternatives in zip(steps, found)]


def steps_for(exercise: Exercise, *, mistakes: bool = True, language: str | None = None) -> list[Step]:
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

    Labels, stages, hints and the mistaken workings' words are in ``language`` (None: the
    language in force, :func:`rankviz.i18n.use`); a cache of steps must key on it.

    >>> [step.stage for step in steps_for(exercise_from_preset("ndcg_exercise"), language="zh")][-1]
    '第 4 步：NDCG'
    """
    with in_language(language):
        steps = _spec(exercise.kind).steps(exercise)
        steps = _attach_printed(exercise, steps)
        if mistakes:
            steps = _attach_alternatives(exercise, steps)
        # Labels and stages are keys (English) while the steps are built; the student reads them translated.
        if language_in_force() != DEFAULT_LANGUAGE:
            steps = [replace(step, label=translated(step.label), stage=translated(step.stage)) for step in steps]
        return steps


def _attach_printed(exercise: Exercise, steps: list[Step]) -> list[Step]:
    """Each step with what the course notes print for it, where that is not its exact value."""
    if not exercise.printed:
        return steps
    return [replace(step, printed=printed) if (printed := exercise.printed.get(step.label)) is not None
            and not math.isclose(printed.value, step.expected, abs_tol=1e-9) else step for step in steps]


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

    The values the course note prints come along (:mod:`rankviz.teaching.homework.printed`):

    >>> exercise_from_preset("ndcg_exercise").printed["DCG"].value
    13.846
    """
    if key not in HOMEWORK_PRESETS:
        raise ValueError(f"The homework checker has no steps for preset {key!r}; "
                         f"it knows {', '.join(HOMEWORK_PRESETS)}.")
    exercise = KIND_SPECS[HOMEWORK_PRESETS[key]].presets[key]()
    return replace(exercise, printed=printed_values(key))


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


def option_params(kind: str) -> dict:
    """The options of ``kind`` that are parameters of the metrics it exercises: name -> registry ``Param``.

    A page takes their words (labels, formulas, descriptions) from there.

    >>> params = option_params("ndcg")
    >>> sorted(params), params["gain"].choice("exponential").text
    (['discount', 'gain'], '2^g − 1')
    >>> option_params("ap")
    {}
    """
    spec = _spec(kind)
    found = {}
    for name, values in spec.options.items():
        for metric in spec.metrics:
            params = [p for p in get_spec(metric).params if p.name == name and p.choices]
            if params and set(values) <= set(params[0].values):
                found[name] = params[0]
                break
    return found


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


def own_fields(kind: str) -> tuple:
    """The inputs of a student's own exercise of ``kind`` (:class:`~rankviz.teaching.homework.core.OwnInput`,
    in the order a page asks for them).

    >>> [field.name for field in own_fields("ndcg")]
    ['rels', 'k', 'unretrieved', 'gain', 'discount']
    """
    return tuple(_spec(kind).inputs)


def own_inputs(kind: str) -> dict[str, str]:
    """The inputs ``kind`` takes from a student: name -> a one-line description, in the textbook's words.

    >>> list(own_inputs("r_precision"))
    ['rels', 'n_relevant']
    >>> own_inputs("rr")["threshold"].split(":")[0]
    'S_h, the rank threshold'
    """
    return {field.name: field.description for field in own_fields(kind)}


def own_choices(kind: str, name: str) -> tuple:
    """The values a choice input ``name`` of ``kind`` offers: its registry parameter's, or the kind's option's.

    >>> own_choices("ndcg", "gain"), own_choices("gauc", "weights")
    (('linear', 'exponential'), ('impressions', 'clicks', 'uniform'))
    """
    field = {f.name: f for f in own_fields(kind)}[name]
    if field.kind == "choice":
        return tuple(field.param.values)
    if field.kind == "option":
        return tuple(_spec(kind).options[name])
    raise ValueError(f"Input {name!r} of kind {kind!r} is typed, not chosen.")


def _read(kind: str, field: OwnInput, value):
    """A value given to own_exercise: text is read as the page reads it; a choice must be one of its values."""
    if field.kind in ("choice", "option"):
        allowed = own_choices(kind, field.name)
        if value not in allowed:
            raise InputError(field.name, _("{label} must be one of {allowed}; got {value}.").format(
                label=field.label, allowed=", ".join(map(str, allowed)), value=repr(value)))
        return value
    if isinstance(value, str):
        return read_input(field.kind, value, field.label, name=field.name)
    return value


def own_exercise(kind: str, **inputs) -> Exercise:
    """An exercise on the student's own input: what their sheet gives, with its conventions.

    ``inputs`` are the kind's inputs (:func:`own_inputs`; the names are shared across kinds: ``rels``,
    ``n_relevant``, ``k``, ``cutoffs``, ``betas``, ``gain``, ``discount``, ``unretrieved``, ``rankings``
    and ``names``, ``threshold``, ``levels``, ``items``, ``ranks_a``, ``ranks_b``, ``variant``,
    ``labels``, ``scores``, ``groups``...). A value may be given as the text a sheet prints
    (``rels="R N R N"``); None or an empty list leaves an input out (its default, which
    :func:`own_inputs` states). An input the kind cannot use, a missing one or a bad value raises
    :class:`~rankviz.teaching.homework.core.InputError` (a ValueError) naming the input.

    Examples
    --------
    IIR exercise 8.9: 20 results, 8 relevant documents in the collection; P@20, F1 at 20 and the
    interpolated precision at 33% recall are asked.

    >>> sheet = "R R N N N N N N R N R N N N R N N N N R"
    >>> steps = steps_for(own_exercise("precision_recall", rels=sheet, n_relevant=8, cutoffs=[20]))
    >>> [(step.label, round(step.expected, 3)) for step in steps]
    [('P@20', 0.3), ('R@20', 0.75), ('F1@20', 0.429)]
    >>> [round(s.expected, 3) for s in steps_for(own_exercise("interpolated_map", rels=sheet, n_relevant=8,
    ...                                                        levels=[0.33]))]
    [0.364]
    >>> own_exercise("ndcg", rels=[2, 0, 1], gain="linear").title
    'Your ranking 2, 0, 1: CG, DCG, IDCG and NDCG (linear gain g, log2(i + 1) discount)'
    >>> own_exercise("ap", rels=[1, 0], cutoffs=[2])
    Traceback (most recent call last):
    ...
    rankviz.teaching.homework.core.InputError: Exercises of kind 'ap' take no input cutoffs; they take rels, n_relevant, k, denominator.
    """
    spec = _spec(kind)
    fields = {field.name: field for field in spec.inputs}
    given = {name: value for name, value in inputs.items()
             if value is not None and not (isinstance(value, (tuple, list)) and not value)
             and not (isinstance(value, str) and not value.strip())}
    unknown = [name for name in given if name not in fields]
    if unknown:
        raise InputError(unknown[0], _("Exercises of kind {kind} take no input {unknown}; they take {known}.").format(
            kind=repr(kind), unknown=", ".join(unknown), known=", ".join(fields)))
    values = {name: _read(kind, fields[name], value) for name, value in given.items()}
    values = {name: value for name, value in values.items() if value is not None}
    for field in spec.inputs:
        if field.required and field.name not in values:
            raise InputError(field.name, _("Give {label}: {description}").format(label=field.label,
                                                                                 description=field.description))
    exercise = spec.own(**values)
    try:
        steps_for(exercise, mistakes=False)  # validates everything through the metric functions
    except InputError:
        raise
    except ValueError as error:
        raise InputError(None, str(error)) from None
    return exercise


def own_text(kind: str, name: str, value) -> str:
    """The text of input ``name`` of ``kind`` as a page's field and its link hold it (read back by
    :func:`own_exercise`).

    >>> own_text("map", "rankings", [(1, 0, 1), (0, 1)])
    '1 0 1\\n0 1'
    """
    field = {f.name: f for f in own_fields(kind)}[name]
    return str(value) if field.kind in ("choice", "option") else input_text(field.kind, value)


def catalogue_markdown() -> str:
    """docs/homework.md: every exercise kind with its course presets, and the mistake catalogue.

    Regenerate with ``python -m rankviz.teaching.homework > docs/homework.md`` (a test checks it).

    >>> catalogue_markdown().splitlines()[0]
    '# Homework checker: exercise kinds and the mistakes it names'
    """
    lines = ["# Homework checker: exercise kinds and the mistakes it names", "",
             "Generated from `rankviz.teaching.homework` by `python -m rankviz.teaching.homework > docs/homework.md`;",
             "do not edit by hand.", "", "## Exercise kinds", "",
             "| kind | what the student computes | metrics (docs/metrics.md) | options | course presets |",
             "|---|---|---|---|---|"]
    for key, title in KINDS.items():
        spec = KIND_SPECS[key]
        params = option_params(key)
        options = "; ".join(
            f"{name}: " + ", ".join(f"{value} ({params[name].label(value)})" if name in params else str(value)
                                   for value in values)
            for name, values in spec.options.items())
        metrics = ", ".join(get_spec(metric).pretty_name for metric in spec.metrics)
        presets = ", ".join(f"`{preset}`" for preset in spec.presets)
        lines.append(f"| `{key}` | {title} | {metrics} | {options or '—'} | {presets or '—'} |")
    lines += ["", "## Your own exercise: what each kind takes", "",
              "The homework page's form for your own exercise asks, per kind, for these inputs (the keywords of",
              "`own_exercise`); a list may be pasted as the sheet prints it (`R N R N N`, `1 0 1 0`, `3,2,3,0,1,2`,",
              "a column of numbers, `0,9 0,6` with decimal commas, `33%`).", ""]
    for key, title in KINDS.items():
        lines += [f"### `{key}`: {title}", "", "| input | what the sheet gives | blank |", "|---|---|---|"]
        for field in own_fields(key):
            if field.kind in ("choice", "option"):
                values = own_choices(key, field.name)
                words = ", ".join(f"`{value}`" + (f" ({field.param.label(value)})" if field.param is not None else "")
                                  for value in values)
                blank = field.blank or f"`{field.param.default if field.param is not None else values[0]}`"
                description = f"{field.description} One of {words}."
            else:
                blank = "required" if field.required else field.blank
                description = field.description
            lines.append(f"| `{field.name}` | {description.replace('|', chr(92) + '|')} | {blank} |")
        lines.append("")
    lines += ["## Language", "",
              "Verdict messages, mistake sentences, summaries, hints, step labels and stages come in the session's",
              "language, English (`en`) or Simplified Chinese (`zh`): `rankviz.i18n.use(\"zh\")` (or",
              "`with rankviz.i18n.speaking(\"zh\"): ...`) sets it, or pass `language=\"zh\"` to `steps_for`,",
              "`check_answers`, `summary`, `hints` and `hint_summary` (`None`, the default: the language in force).",
              "Messages are translated when they are made, from `rankviz/locale/zh/LC_MESSAGES/teaching.po`, with the",
              "course notes' terms (准确率 precision, 召回率 recall, ...); numbers and formulas stay as they are.", "",
              "```python",
              "from rankviz.teaching.homework import check_answers, exercise_from_preset, steps_for",
              "steps = steps_for(exercise_from_preset(\"ndcg_exercise\"), language=\"zh\")",
              "check_answers(steps, [\"11\"], language=\"zh\")[0].message   # '正确（在 ±0.001 以内）。'",
              "```", "",
              "## Mistakes the checker names", "",
              "A wrong answer within the tolerance of what one of these gives is named in its verdict; when",
              "two give the same number, both are named and the checker says it cannot tell which.", "",
              mistake_catalogue(), ""]
    return "\n".join(lines)
