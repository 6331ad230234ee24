"""The mistakes students really make, each a named alternative computation.

A :class:`Mistake` is the working done the wrong way: ``working(exercise, steps)`` returns the
steps as the mistake computes them (from the exercise, usually through the same step builder
with one convention changed, e.g. ``log_base=math.e`` for "ln instead of log2"), or None where
the mistake cannot happen in that exercise. :func:`rankviz.teaching.homework.steps_for`
attaches, to every step, what each mistake of its kind gives for it; :func:`check_answers`
then names the mistake a wrong answer matches. Kind modules register their own mistakes
(:func:`register_mistake`); the ones here apply to every kind: how students round.

>>> from rankviz.teaching.homework import MISTAKES
>>> MISTAKES["truncated_2"].sentence
'You cut an intermediate value to 2 decimals (as the slides do); keep at least 4 until the last step.'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from rankviz.i18n import N_, _
from rankviz.teaching.homework.core import MISTAKES as _CATALOGUE
from rankviz.teaching.homework.core import tex_number

__all__ = ["ALL_KINDS", "CONVENTION", "MISTAKES", "Mistake", "register_mistake", "register_convention",
           "same_working_with", "mistake_catalogue"]

ALL_KINDS = "*"
# An answer that another textbook's or tool's convention gives: {used} and {asked} are the two conventions.
CONVENTION = N_("That is right under another convention, {used}; this exercise asks for {asked}.")


@dataclass(frozen=True)
class Mistake:
    """One catalogued mistake.

    ``sentence`` is what the student reads (one plain sentence saying what went wrong and what
    is right), in English, the catalogue's source: :meth:`sentence_for` gives it in the language in
    force; ``kinds`` the exercise kinds it applies to (``("*",)``: every kind); ``working``
    computes the steps the mistaken way: ``working(exercise, steps)`` with ``steps`` the right
    working, returning the mistaken steps (labels as the right ones where the step is the same
    step) or None where the mistake cannot arise in this exercise. ``units`` is how many of the
    mistaken answer's units make one of the right one's (100 for a percentage): the tolerance
    grows with it, so 66.7 is named as 0.667 written as a percentage. ``asked(exercise)``, when
    given, says what the exercise asks for in the sentence's ``{asked}`` (a convention mistake,
    :func:`register_convention`).
    """

    key: str
    sentence: str
    kinds: tuple[str, ...]
    working: Callable
    units: float = 1.0
    asked: Callable | None = None
    convention: tuple | None = None
    words: Mapping = field(default_factory=dict, hash=False)

    def sentence_for(self, exercise) -> str:
        """The sentence as a student of ``exercise`` reads it (``{asked}`` filled in), in the language
        in force (translated now, not when the mistake was registered).

        >>> from rankviz.teaching.homework import Exercise
        >>> MISTAKES["ap_divided_by_retrieved_relevant"].sentence_for(Exercise("ap", "x", rels=(1, 0)))
        'That is right under another convention, AP over the relevant documents retrieved; this exercise asks for AP over R, every relevant document of the query.'
        >>> from rankviz.i18n import speaking
        >>> with speaking("zh"):
        ...     MISTAKES["ln_discount"].sentence_for(Exercise("ndcg", "x", rels=(1, 0)))
        '你在折损里用了自然对数 ln，而不是 log2：公式要求用 log2。'
        """
        if self.convention is not None:
            param, used = self.convention
            return _(CONVENTION).format(used=_(param.label(used)), asked=_(self.asked(exercise)))
        filled = {name: _(word()) for name, word in self.words.items()}
        if self.asked is not None:
            filled["asked"] = _(self.asked(exercise))
        sentence = _(self.sentence)
        return sentence.format(**filled) if filled else sentence

    def applies_to(self, kind: str) -> bool:
        """Whether this mistake belongs to exercises of ``kind``.

        >>> MISTAKES["truncated_2"].applies_to("ndcg")
        True
        """
        return ALL_KINDS in self.kinds or kind in self.kinds


MISTAKES: dict[str, Mistake] = _CATALOGUE  # one dict, kept in core (a verdict reads a sentence by key)


def register_mistake(key: str, sentence: str, kinds, working: Callable, units: float = 1.0, *,
                     asked: Callable | None = None, convention: tuple | None = None,
                     words: Mapping | None = None) -> Mistake:
    """Add a mistake to :data:`MISTAKES` (kind modules call this on import). ``sentence`` is English
    marked with ``N_`` (translated when a verdict is made); ``words`` fills its other placeholders:
    name -> a function giving the (English) word, e.g. a registry label, translated with it."""
    if key in MISTAKES:
        raise ValueError(f"Mistake {key!r} is registered twice.")
    kinds = (kinds,) if isinstance(kinds, str) else tuple(kinds)
    MISTAKES[key] = mistake = Mistake(key, sentence, kinds, working, units, asked, convention,
                                      dict(words or {}))
    return mistake


def register_convention(key: str, param, used, kinds, working: Callable, *, asked_of: Callable) -> Mistake:
    """A mistake that is another convention's right answer: ``used``, a choice of the registry
    :class:`~rankviz.registry.Param` ``param``, where the exercise asks for ``asked_of(exercise)``.

    ``working(exercise, steps)`` gives the working under ``used`` (None where it is the exercise's own
    convention or changes nothing). The sentence names both conventions with the registry's labels:
    :data:`CONVENTION`.
    """
    def guarded(exercise, steps):
        return None if asked_of(exercise) == used else working(exercise, steps)

    return register_mistake(key, CONVENTION.format(used=param.label(used), asked="{asked}"), kinds, guarded,
                            asked=lambda exercise: param.label(asked_of(exercise)), convention=(param, used))


def same_working_with(build_steps: Callable, **changes) -> Callable:
    """A mistake's ``working``: the kind's own step builder on the exercise with ``changes`` in
    its params (None when the exercise already has them: then it is no mistake).

    >>> from rankviz.teaching.homework import Exercise, KIND_SPECS
    >>> ln = same_working_with(KIND_SPECS["ndcg"].steps, log_base=math.e)
    >>> round(ln(Exercise("ndcg", "x", rels=(1, 1)), None)[2].expected, 3)  # DCG at rank 2: (2 - 1) / ln 3
    0.91
    """
    def working(exercise, steps):
        if all(exercise.param(name) == value for name, value in changes.items()):
            return None
        return build_steps(exercise.with_params(**changes))
    return working


# ---------------------------------------------------------------------------- every kind: rounding


def _cut(value: float, decimals: int, how: str) -> float:
    if how == "round":
        return round(value, decimals)
    factor = 10**decimals
    return math.trunc(value * factor + math.copysign(1e-9, value)) / factor


def _rounded_working(decimals: int, how: str) -> Callable:
    """Every value cut (or rounded) to ``decimals`` as it is written down, later steps computed
    from the cut values: the lecture's 0.28 for MAP(q1) is 0.289 this way.

    A step computed from earlier ones says so: the lecture's DCG 13.846 is its terms cut to 3
    decimals and added (7 + 1.892 + 3.5 + 0 + 0.386 + 1.068), not 13.848 cut.

    >>> from rankviz.teaching.homework import Exercise, steps_for
    >>> steps = steps_for(Exercise("ndcg", "x", rels=(3, 2, 3, 0, 1, 2)), mistakes=False)
    >>> dcg = _rounded_working(3, "cut")(None, steps)[7]
    >>> dcg.expected
    13.846
    >>> print(dcg.formula.split(" =")[0])
    7 + 1.892 + 3.5 + 0 + 0.386 + 1.068
    """
    words = _ROUNDED_WORDS[how]

    def working(exercise, steps):
        values: list[float] = []
        mistaken = []
        for step in steps:
            exact = step.from_values(values) if step.rule else step.expected
            cut = _cut(step.expected if exact is None else exact, decimals, how)
            values.append(cut)
            if step.rule == "sum" and step.scale == 1 and exact is not None:
                terms = " + ".join(tex_number(values[i], decimals) for i in step.uses)
                formula = (rf"{terms} = {tex_number(cut, decimals)}"
                           rf"\ \text{{{_(words['terms']).format(decimals=decimals)}}}")
            elif step.rule and exact is not None:
                formula = (rf"{tex_number(exact, 6)} \to {cut:.{decimals}f}"
                           rf"\ \text{{{_(words['earlier']).format(decimals=decimals)}}}")
            else:
                formula = (rf"{tex_number(step.expected, 6)} \to {cut:.{decimals}f}"
                           rf"\ \text{{{_(words['value']).format(decimals=decimals)}}}")
            mistaken.append(replace(step, expected=cut, alternatives=(), formula=formula))
        return mistaken
    return working


_ROUNDED_WORDS = {
    "cut": {"terms": N_("(terms cut to {decimals} decimals, then added)"),
            "earlier": N_("(from the earlier values cut to {decimals} decimals, then cut)"),
            "value": N_("(cut to {decimals} decimals)")},
    "round": {"terms": N_("(terms rounded to {decimals} decimals, then added)"),
              "earlier": N_("(from the earlier values rounded to {decimals} decimals, then rounded)"),
              "value": N_("(rounded to {decimals} decimals)")},
}


def _percent_working(exercise, steps):
    # Only values a percentage could be written for: strictly between 0 and 1 (not a count, not a sum of gains).
    return [replace(step, expected=100 * step.expected, rule="", uses=(), alternatives=(),
                    formula=rf"{tex_number(step.expected)} \times 100 = {tex_number(100 * step.expected)}")
            for step in steps if 0 < step.expected < 1]


register_mistake("truncated_2", N_("You cut an intermediate value to 2 decimals (as the slides do); keep at least 4 "
                                "until the last step."), ALL_KINDS, _rounded_working(2, "cut"))
register_mistake("rounded_2", N_("You rounded an intermediate value to 2 decimals; keep at least 4 until the last "
                              "step."), ALL_KINDS, _rounded_working(2, "round"))
register_mistake("truncated_3", N_("You cut an intermediate value to 3 decimals before using it; rounding early "
                                "moves the later steps."), ALL_KINDS, _rounded_working(3, "cut"))
register_mistake("percent", N_("You wrote a percentage without the % sign: write 0.667 or 66.7%, not 66.7."),
                 ALL_KINDS, _percent_working, units=100)


def mistake_catalogue() -> str:
    """The catalogue as a Markdown table (key, what the student reads, kinds): docs/mistakes.md.

    >>> print(mistake_catalogue().splitlines()[0])
    | mistake | what the checker says | exercise kinds |
    """
    rows = ["| mistake | what the checker says | exercise kinds |", "|---|---|---|"]
    for mistake in MISTAKES.values():
        kinds = "every kind" if ALL_KINDS in mistake.kinds else ", ".join(f"`{kind}`" for kind in mistake.kinds)
        words = {name: word() for name, word in mistake.words.items()}
        sentence = mistake.sentence.replace("{asked}", "its own convention (named in the verdict)")
        sentence = sentence.format(**words) if words else sentence
        rows.append(f"| `{mistake.key}` | {sentence.replace('|', chr(92) + '|')} | {kinds} |")
    return "\n".join(rows)
