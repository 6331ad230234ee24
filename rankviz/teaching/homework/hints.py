"""The hint ladder of a step: what to compute and its formula, then the formula with the student's own
numbers, then the value (step-based tutoring: help one rung at a time, the answer last).

Rung 1 is the step's ``hint``, written by its kind's module in the textbook's words (with the formula
in LaTeX between ``$``); a step without one says what its label names. Rung 2 fills the formula in: a
step computed from earlier steps (``Step.uses`` and ``rule``) takes the student's own earlier answers
where they typed a readable one, the exact values elsewhere; any other step shows its own working with
the exercise's numbers, its value left out. Rung 3 is the value. The texts are whole sentences with
named placeholders (:data:`LADDER`), in one place, to be translated.

>>> from rankviz.teaching.homework import Exercise, steps_for
>>> steps = steps_for(Exercise("ap", "AP", rels=(1, 0, 1, 0), n_relevant=3))
>>> for rung in hints(steps[-1], answers=["1", "0.5", "0.6", ""], steps=steps):
...     print(rung)
AP is the mean of P@i over the relevant ranks, divided by R (relevant documents never retrieved add 0): $\\mathrm{AP} = \\frac{1}{R} \\sum_{i \\text{ relevant}} P@i$.
With your answers: $\\frac{1 + 0.6}{3} = 0.533$.
The value: $\\mathrm{AP} = 0.556$.
"""

from __future__ import annotations

import re

from rankviz.i18n import N_, _, ngettext
from rankviz.teaching.homework.core import Step, TranslatedTuple, TranslatedWords, in_language, parse_answer, tex_number

__all__ = ["LADDER", "RUNG_NAMES", "hints", "hint_summary"]

# The words of the ladder; {placeholders} are filled in by hints().
# (English source, read in the language in force.)
LADDER = TranslatedWords({
    "what": N_("Compute {label}."),
    "with_yours": N_("With your answers: ${working}$."),
    "with_yours_and_exact": N_("With your answers (the exact value where you have none yet): ${working}$."),
    "with_exercise": N_("With this exercise's numbers: ${working}$."),
    "nothing_to_fill": N_("Nothing to fill in: read it off what the exercise gives ({label})."),
    "value": N_("The value: ${label} = {value}$."),
})
#: What each rung gives, as the marks name a hint used.
RUNG_NAMES = TranslatedTuple((N_("what to compute"), N_("the formula with your numbers"), N_("the value")))


def _tex_label(label: str) -> str:
    """A step label inside math: an abbreviation in capitals (AP, NDCG) upright, anything else as text."""
    return rf"\mathrm{{{label}}}" if re.fullmatch(r"[A-Z]+", label) else rf"\text{{{label}}}"


def _joined(values, sign: str) -> str:
    return f" {sign} ".join(tex_number(v, 4) for v in values)


def _rule_working(step: Step, values: list[float]) -> str:
    """The step's rule written out with ``values`` (those of ``step.uses``), then its result."""
    scale = step.scale
    if step.rule == "sum":
        total = _joined(values, "+")
        shown = total if scale == 1 else rf"\frac{{{total}}}{{{tex_number(scale, 4)}}}"
    elif step.rule == "ratio":
        shown = rf"\frac{{{tex_number(values[0], 4)}}}{{{tex_number(values[1], 4)}}}"
    elif step.rule == "spearman":
        shown = rf"1 - \frac{{6 \times {tex_number(values[0], 4)}}}{{{tex_number(scale, 4)}}}"
    elif step.rule == "product":
        product = _joined(values, r"\times")
        shown = product if scale == 1 else rf"\sqrt[{tex_number(scale)}]{{{product}}}"
    elif step.rule == "harmonic":
        shown = rf"\frac{{{tex_number(scale)}}}{{{' + '.join(rf'1/{tex_number(v, 4)}' for v in values)}}}"
    elif step.rule == "f_beta":
        p, r = (tex_number(v, 4) for v in values[:2])
        b2 = tex_number(scale, 4)
        shown = rf"\frac{{(1 + {b2}) \times {p} \times {r}}}{{{b2} \times {p} + {r}}}"
    elif step.rule == "difference":
        shown = rf"\frac{{{tex_number(values[0], 4)} - {tex_number(values[1], 4)}}}{{{tex_number(scale, 4)}}}"
    elif step.rule == "max":
        shown = rf"\max({', '.join(tex_number(v, 4) for v in values)})"
    elif step.rule == "reciprocal":
        shown = rf"\frac{{{tex_number(scale, 4)}}}{{{tex_number(values[0], 4)}}}"
    elif step.rule == "multiply":
        shown = rf"\frac{{{_joined(values, chr(92) + 'times')}}}{{{tex_number(scale, 4)}}}"
    elif step.rule == "survival":
        shown = "".join(rf"(1 - {tex_number(v, 4)})" for v in values)
    elif step.rule == "complement":
        shown = rf"{tex_number(scale, 4)} - {tex_number(values[0], 4)}"
    elif step.rule == "spearman_ties":
        s1, s2, total = (tex_number(v, 4) for v in values[:3])
        shown = rf"\frac{{{s1} + {s2} - {total}}}{{2\sqrt{{{s1} \times {s2}}}}}"
    else:  # exp_mean
        shown = rf"\exp\left(\frac{{{tex_number(values[0], 4)}}}{{{tex_number(scale, 4)}}}\right)"
    result = step.apply_rule(values)
    return shown if result is None else f"{shown} = {tex_number(result)}"


def _without_value(formula: str, step: Step) -> str | None:
    """The step's working with its final ``= value`` left out; None when the working is the value alone."""
    head, _, tail = formula.rpartition(" = ")
    if head and tail.strip() == tex_number(step.expected):
        return head
    return None if formula.strip() == tex_number(step.expected) else formula


def _given(answers, steps, uses) -> tuple[list[float] | None, bool]:
    """The values of the steps in ``uses``: the student's readable answers, else the exact ones (when
    ``steps`` is given); None when one is missing. Also whether every value is the student's own."""
    values, own = [], True
    for i in uses:
        value = None
        if answers is not None and i < len(answers):
            try:
                value = parse_answer(answers[i])
            except ValueError:
                value = None
        if value is None:
            own = False
            if steps is None or i >= len(steps):
                return None, False
            value = steps[i].expected
        values.append(value)
    return values, own


def hints(step: Step, answers=None, *, steps=None, language: str | None = None) -> list[str]:
    """The hint ladder of ``step``: three texts (Markdown with LaTeX between ``$``), to show one at a time.

    Parameters
    ----------
    step : Step
        The step (from :func:`~rankviz.teaching.homework.steps_for`).
    answers : sequence of str, optional
        The student's answers to every step of the exercise, in order (what the page's boxes hold):
        rung 2 of a step computed from earlier steps fills in the student's own numbers.
    steps : sequence of Step, optional
        Every step of the exercise: the exact value of an earlier step the student has not answered.
    language : str, optional
        ``"en"`` or ``"zh"``; None: the language in force (:func:`rankviz.i18n.use`). The step's
        own texts (label, rung 1) are in the language its steps were built in.

    Returns
    -------
    list of str
        (1) what to compute and its formula, (2) the formula with the student's numbers, (3) the value.

    Examples
    --------
    P@3 of relevant, not, relevant: nothing earlier is used, so rung 2 is the working with the
    exercise's numbers.

    >>> from rankviz.teaching.homework import Exercise, steps_for
    >>> steps = steps_for(Exercise("ap", "AP", rels=(1, 0, 1, 0), n_relevant=3))
    >>> hints(steps[2])[1:]
    ["With this exercise's numbers: $\\\\frac{2}{3}$.", 'The value: $\\\\text{P@3 (relevant)} = 0.667$.']
    """
    with in_language(language):
        return _hints(step, answers, steps)


def _hints(step: Step, answers, steps) -> list[str]:
    label = step.label
    first = step.hint or LADDER["what"].format(label=label)
    if step.rule and step.uses:
        values, own = _given(answers, steps, step.uses)
        if values is not None:
            second = LADDER["with_yours" if own else "with_yours_and_exact"].format(working=_rule_working(step, values))
        else:
            second = LADDER["with_exercise"].format(working=step.formula)
    else:
        working = _without_value(step.formula, step)
        second = (LADDER["with_exercise"].format(working=working) if working is not None
                  else LADDER["nothing_to_fill"].format(label=label))
    third = LADDER["value"].format(label=_tex_label(label), value=tex_number(step.expected))
    return [first, second, third]


def hint_summary(used: dict, steps, *, language: str | None = None) -> str:
    """The marks' word on hints: which steps used them and how far (``used``: step index -> rungs seen).

    >>> from rankviz.teaching.homework import Exercise, steps_for
    >>> steps = steps_for(Exercise("ap", "AP", rels=(1, 0, 1, 0), n_relevant=3))
    >>> hint_summary({4: 2, 0: 1}, steps)
    'Hints used on 2 steps: P@1 (relevant) (what to compute), AP (the formula with your numbers).'
    >>> hint_summary({}, steps)
    ''
    """
    shown = [(i, n) for i, n in sorted(used.items()) if n and 0 <= i < len(steps)]
    if not shown:
        return ""
    with in_language(language):
        listed = _(", ").join(_("{label} ({rung})").format(label=steps[i].label,
                                                           rung=RUNG_NAMES[min(n, len(RUNG_NAMES)) - 1])
                              for i, n in shown)
        return ngettext("Hints used on {n} step: {listed}.", "Hints used on {n} steps: {listed}.",
                        len(shown)).format(n=len(shown), listed=listed)
