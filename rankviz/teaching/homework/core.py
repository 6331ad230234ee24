"""What every homework kind shares: exercises, steps, verdicts, reading and marking answers.

An :class:`Exercise` says what is given; its kind's step builder (a :class:`KindSpec` in
:data:`KIND_SPECS`) lays it out as :class:`Step` values a student writes down, each with its
formula; :func:`check_answers` marks typed answers within a tolerance. A step that is wrong is
compared with what each catalogued mistake gives for it (the step's ``alternatives``, attached
by :func:`rankviz.teaching.homework.steps_for`): a match names the mistake in the verdict.
A step computed from earlier steps also counts as right when it follows from the student's own
earlier answers ("error carried forward"), so one slip is marked once, where it happened.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field, replace

from rankviz.i18n import N_, _, ngettext, speaking
from rankviz.registry import get_spec
from rankviz.formatting import format_number
from rankviz.metrics import count_relevant
from rankviz.teaching.homework.words import translated

__all__ = [
    "KIND_SPECS",
    "MAX_EXERCISE_LENGTH",
    "MAX_SEED",
    "STATUS_WORDS",
    "Alternative",
    "Exercise",
    "InputError",
    "KindSpec",
    "OwnInput",
    "Step",
    "Verdict",
    "check_answers",
    "check_length",
    "check_seed",
    "first_wrong",
    "parse_answer",
    "ranking_preset",
    "register_kind",
    "seeded_random",
    "summary",
    "tex_number",
    "binary_ranking_words",
    "english_title",
    "in_language",
    "TranslatedWords",
    "TranslatedTuple",
]

# Beyond this a homework table stops being something one types in by hand (a sheet's 24-rank list, a
# textbook's top 100, fits).
MAX_EXERCISE_LENGTH = 100
MAX_SEED = 10**9



def in_language(language: str | None):
    """The block speaks ``language`` (``"en"``, ``"zh"``); None: the language already in force
    (:func:`rankviz.i18n.use`). What the public checking functions' ``language=`` argument does."""
    return nullcontext() if language is None else speaking(language)


class TranslatedWords(MutableMapping):
    """A module-level table of English source words (marked with ``N_``), read in the language in
    force: ``STATUS_WORDS["wrong"]`` is "wrong" in English and 错误 in Chinese, looked up when read."""

    def __init__(self, source: Mapping[str, str]):
        self.source = dict(source)

    def __getitem__(self, key):
        return _(self.source[key])

    def __setitem__(self, key, value):  # a kind registered later (a test's, a plug-in's)
        self.source[key] = value

    def __delitem__(self, key):
        del self.source[key]

    def __iter__(self):
        return iter(self.source)

    def __len__(self):
        return len(self.source)

    def __repr__(self):
        return f"TranslatedWords({dict(self)!r})"


class TranslatedTuple(Sequence):
    """A tuple of English source words (marked with ``N_``), each read in the language in force."""

    def __init__(self, source):
        self.source = tuple(source)

    def __getitem__(self, index):
        found = self.source[index]
        return tuple(_(word) for word in found) if isinstance(index, slice) else _(found)

    def __len__(self):
        return len(self.source)

    def __repr__(self):
        return repr(tuple(self))

    def __eq__(self, other):
        return tuple(self) == tuple(other) if isinstance(other, (tuple, Sequence)) else NotImplemented

    __hash__ = None


STATUS_WORDS = TranslatedWords({
    "right": N_("right"),
    "carried": N_("follows from your earlier answers"),
    "wrong": N_("wrong"),
    "blank": N_("not answered"),
    "unreadable": N_("cannot read it"),
    "printed": N_("as the course notes print it"),
})


def english_title(thing, name: str = "title") -> str:
    """The English title (or ``name``: a preset's ``note``) of a kind, exercise or preset, as written
    (read as an attribute, it comes translated).

    >>> from rankviz.i18n import speaking
    >>> with speaking("zh"):
    ...     english_title(Exercise("ap", "AP with relevant documents at positions 1, 3 and 6"))
    'AP with relevant documents at positions 1, 3 and 6'
    """
    return object.__getattribute__(thing, name)


def tex_number(x, digits: int = 3) -> str:
    """A number as the worked formulas print it: ``digits`` decimals, trailing zeros dropped.

    >>> tex_number(1 / 3), tex_number(7.0), tex_number(0.5)
    ('0.333', '7', '0.5')
    """
    return format_number(float(x), digits)


def binary_ranking_words(rels, n_relevant) -> str:
    """What a binary exercise gives, as every kind words it (R counted from the list when None).

    >>> binary_ranking_words((1, 0, 1), 4)
    'Relevance in ranked order (1 = relevant): 1, 0, 1; R = 4 relevant documents in the collection.'
    """
    r = n_relevant if n_relevant is not None else count_relevant(rels)
    grades = ", ".join(format_number(g) for g in rels)
    return _("Relevance in ranked order (1 = relevant): {grades}; R = {r} relevant documents in the "
             "collection.").format(grades=grades, r=r)


@dataclass(frozen=True)
class Exercise:
    """One exercise: what is given and which kind of working is asked for.

    ``kind`` is a key of :data:`rankviz.teaching.homework.KINDS`. ``ndcg`` uses ``rels``,
    ``gain``, ``discount`` and optionally ``judged`` (every judged grade of the query, for the
    ideal ranking); ``ap`` uses ``rels`` (binary: grade >= 1 is relevant) and ``n_relevant``
    (R); ``spearman`` uses ``items``, ``ranks_a`` and ``ranks_b``. Other kinds keep what they
    are given in ``params`` (read with :meth:`param`); each kind's module documents its names.
    ``printed`` maps step labels to what the course notes print for them
    (:class:`rankviz.teaching.homework.printed.Printed`; a course exercise's only).

    Examples
    --------
    Relevant documents at ranks 1 and 3 of 4, R = 3 (one relevant document was not retrieved):
    P@1 = 1/1, P@2 = 1/2, P@3 = 2/3, P@4 = 2/4, then AP = (1 + 2/3) / 3 = 0.556.

    >>> from rankviz.teaching.homework import steps_for
    >>> exercise = Exercise("ap", "Two of three relevant documents retrieved", rels=(1, 0, 1, 0), n_relevant=3)
    >>> for step in steps_for(exercise):
    ...     print(step.label, round(step.expected, 3))
    P@1 (relevant) 1.0
    P@2 (not relevant) 0.5
    P@3 (relevant) 0.667
    P@4 (not relevant) 0.5
    AP 0.556
    """

    kind: str
    title: str
    rels: tuple = ()
    gain: str = "exponential"
    discount: str = "log2"
    judged: tuple | None = None
    n_relevant: int | None = None
    items: tuple = ()
    ranks_a: tuple = ()
    ranks_b: tuple = ()
    source: str = ""
    note: str = ""
    params: Mapping = field(default_factory=dict, hash=False)
    printed: Mapping = field(default_factory=dict, hash=False, repr=False)

    def __getattribute__(self, name):
        # The title is kept in English (an exercise is a cache key and compares equal in any language)
        # and read in the language in force.
        value = object.__getattribute__(self, name)
        if name == "title":
            return translated(value)
        return _(value) if name == "note" and value else value

    def param(self, name: str, default=None):
        """The given value ``name`` of ``params`` (``default`` when absent).

        >>> Exercise("rr", "RR", params={"threshold": 3}).param("threshold")
        3
        """
        return self.params.get(name, default)

    def with_params(self, **changes) -> Exercise:
        """A copy with ``changes`` merged into ``params`` (how a mistake's working is built).

        >>> Exercise("ndcg", "x", rels=(1, 0)).with_params(log_base=10).param("log_base")
        10
        """
        return replace(self, params={**self.params, **changes})


def ranking_preset(kind: str, key: str, *, title=None, note: str | None = None):
    """A builder of the ``kind`` exercise on the ranking and R of the course preset ``key``.

    The exercise is named by the preset's title, or ``title(preset)``; it carries the preset's
    source and its note (``note`` given: that note instead, ``""`` none). The preset is read when
    the exercise is built, so listing presets imports nothing.

    >>> ranking_preset("ap", "q2_binary")().n_relevant
    3
    """
    def build() -> Exercise:
        from rankviz.teaching.presets import get_preset

        preset = get_preset(key)
        return Exercise(kind, english_title(preset) if title is None else title(preset), rels=tuple(preset.rels),
                        n_relevant=preset.n_relevant, source=preset.source,
                        note=english_title(preset, "note") if note is None else note)
    return build


@dataclass(frozen=True)
class Step:
    """One value a student writes down, with its working.

    ``formula`` is KaTeX with this exercise's numbers (``\\frac{7}{1.585} = 4.417``).
    A step computed from earlier ones names them in ``uses`` (indices into the step list)
    and says how in ``rule``: ``"sum"`` (their sum divided by ``scale``), ``"ratio"``
    (first / second), ``"spearman"`` (1 - 6 x first / ``scale``), ``"product"`` (their
    product, then to the power ``1 / scale``: a geometric mean), ``"harmonic"`` (``scale``
    over the sum of reciprocals), ``"f_beta"`` ((1 + b²) P R / (b² P + R) of the first two,
    b² = ``scale``), ``"difference"`` (first - second, divided by ``scale``), ``"max"`` (the
    largest), ``"reciprocal"`` (``scale`` / first), ``"multiply"`` (their product divided by
    ``scale``: ERR's R_r × P(reach r) / r), ``"survival"`` (the product of 1 - each, divided
    by ``scale``: ERR's chance of reaching a rank past documents that each satisfy with
    probability R), ``"exp_mean"`` (e to the power first / ``scale``: GMAP from Σ ln AP),
    ``"complement"`` (``scale`` minus first: Spearman's S = (K³ − K)/12 − T) or ``"spearman_ties"``
    ((first + second − third) / (2 √(first × second)): Spearman's ρ from S1, S2 and Σd² with ties).
    ``stage`` groups steps the way the slides build the working ("Step 2: DCG"): the
    lecture-hall reveal shows one stage at a time.
    ``alternatives`` are what catalogued mistakes give for this step (set by ``steps_for``);
    ``printed`` what the course notes print for it where that is not the exact value (a
    :class:`~rankviz.teaching.homework.printed.Printed`, set by ``steps_for``; None otherwise).
    ``hint`` is the first rung of the step's hint ladder: what to compute and its formula, in the
    words of its kind's module (:func:`rankviz.teaching.homework.hints` builds the other rungs).

    Examples
    --------
    The last step of an AP exercise (relevant at ranks 1 and 3, R = 3) sums P@1 and P@3, steps
    0 and 2, and divides by R:

    >>> from rankviz.teaching.homework import steps_for
    >>> ap = steps_for(Exercise("ap", "AP", rels=(1, 0, 1, 0), n_relevant=3))[-1]
    >>> ap.label, round(ap.expected, 3)
    ('AP', 0.556)
    >>> print(ap.formula)
    \\frac{1}{3}\\left(1 + 0.667\\right) = 0.556
    >>> ap.uses, ap.rule, ap.scale
    ((0, 2), 'sum', 3.0)
    """

    label: str
    expected: float
    formula: str
    uses: tuple[int, ...] = ()
    rule: str = ""
    scale: float = 1.0
    stage: str = ""
    alternatives: tuple = field(default=(), compare=False, repr=False)
    printed: object = field(default=None, compare=False, repr=False)
    hint: str = field(default="", compare=False, repr=False)

    def from_values(self, values) -> float | None:
        """This step computed from other values of the steps in ``uses`` (None if one is missing).

        Examples
        --------
        AP from a student's own P@1 = 1 and P@3 = 0.6 (steps 0 and 2): (1 + 0.6) / 3 = 0.533.

        >>> from rankviz.teaching.homework import steps_for
        >>> ap = steps_for(Exercise("ap", "AP", rels=(1, 0, 1, 0), n_relevant=3))[-1]
        >>> round(ap.from_values([1.0, 0.5, 0.6, 0.5]), 3)
        0.533
        >>> ap.from_values([1.0, 0.5, None, 0.5]) is None  # P@3 not answered
        True
        """
        if not self.rule or any(i >= len(values) for i in self.uses):
            return None
        return self.apply_rule([values[i] for i in self.uses])

    def apply_rule(self, picked) -> float | None:
        """This step's ``rule`` applied to ``picked``, the values of the steps in ``uses`` in order
        (None when one is missing or the rule cannot apply, e.g. a ratio over 0).

        >>> round(Step("AP", 0.556, "", uses=(0, 2), rule="sum", scale=3.0).apply_rule([1.0, 2 / 3]), 4)
        0.5556
        """
        if not self.rule or any(v is None for v in picked):
            return None
        return _RULES[self.rule](list(picked), self.scale)


def _geometric(picked, scale):
    if any(v <= 0 for v in picked):
        return None
    return math.exp(math.fsum(math.log(v) for v in picked) / scale)


def _harmonic(picked, scale):
    if any(v <= 0 for v in picked):
        return None
    return scale / math.fsum(1 / v for v in picked)


def _exp_mean(picked, scale):
    exponent = picked[0] / scale
    return math.exp(exponent) if exponent < 700 else None  # a typo's huge value follows from nothing


def _spearman_ties(picked, scale):
    s1, s2, total = picked[0], picked[1], picked[2]
    return (s1 + s2 - total) / (2 * math.sqrt(s1 * s2)) if s1 > 0 and s2 > 0 else None


def _f_beta(picked, scale):
    precision, recall = picked[0], picked[1]
    denominator = scale * precision + recall
    return (1 + scale) * precision * recall / denominator if denominator else 0.0


_RULES: dict[str, Callable] = {
    "sum": lambda picked, scale: math.fsum(picked) / scale,
    # A zero denominator follows from nothing: no carried value (None), not a made-up 0.
    "ratio": lambda picked, scale: picked[0] / picked[1] if picked[1] else None,
    "spearman": lambda picked, scale: 1 - 6 * picked[0] / scale,
    "product": _geometric,
    "harmonic": _harmonic,
    "f_beta": _f_beta,
    "difference": lambda picked, scale: (picked[0] - picked[1]) / scale,
    "max": lambda picked, scale: max(picked),
    "reciprocal": lambda picked, scale: scale / picked[0] if picked[0] else None,
    "multiply": lambda picked, scale: math.prod(picked) / scale,
    "survival": lambda picked, scale: math.prod(1 - v for v in picked) / scale,
    "exp_mean": _exp_mean,
    "complement": lambda picked, scale: scale - picked[0],
    "spearman_ties": _spearman_ties,
}


@dataclass(frozen=True)
class Alternative:
    """What the catalogued mistake ``mistake`` gives for a step: its ``step`` in the mistaken
    working. ``aligned`` when the mistaken working has the same steps (so a step computed from
    earlier ones can also be recomputed from the student's own values the mistaken way).
    ``units`` scales the tolerance: 100 for a percentage, where 66.7 stands for 0.667."""

    mistake: str
    step: Step
    aligned: bool
    exercise: object = field(default=None, compare=False, repr=False)
    units: float = 1.0

    @property
    def sentence(self) -> str:
        """The mistake's sentence for this exercise, in the language in force (made when read)."""
        return MISTAKES[self.mistake].sentence_for(self.exercise)


@dataclass(frozen=True)
class Verdict:
    """The mark of one answer: ``status`` is right, carried, printed (the course notes' rounded
    value), wrong, blank or unreadable.

    ``mistake`` is the key of the catalogued mistake (:data:`rankviz.teaching.homework.MISTAKES`)
    a wrong answer matches, None when none does or the answer is right; ``mistakes`` all of
    them when several give the same number (the message then says it is ambiguous);
    ``mistaken_formula`` is the step's line as the (first) mistake computes it, to show beside
    the right one: where the two part.

    Examples
    --------
    Relevant at ranks 1 and 3, R = 3. A student writes P@3 = 0.6 (it is 2/3 = 0.667), then
    AP = 0.533: wrong, but (1 + 0.6) / 3 = 0.533 follows from their own P@3, so it is "carried"
    and counts as right (``ok``).

    >>> from rankviz.teaching.homework import steps_for
    >>> steps = steps_for(Exercise("ap", "AP", rels=(1, 0, 1, 0), n_relevant=3))
    >>> verdicts = check_answers(steps, ["1", "0.5", "0.6", "0.5", "0.533"])
    >>> [(verdict.status, verdict.ok) for verdict in verdicts[2:]]
    [('wrong', False), ('right', True), ('carried', True)]
    >>> verdicts[2].message
    'That is 0.067 away from the exact value (tolerance ±0.001).'
    """

    step: Step
    answer: str
    given: float | None
    status: str
    message: str
    mistake: str | None = None
    mistakes: tuple[str, ...] = ()
    mistaken_formula: str = ""

    @property
    def ok(self) -> bool:
        """Right, right given the student's own earlier answers, or the course notes' rounded value.

        Examples
        --------
        >>> step = Step("P@2", 0.5, "1/2 = 0.5")
        >>> [verdict.ok for verdict in check_answers([step], ["1/2"])], check_answers([step], [""])[0].ok
        ([True], False)
        """
        return self.status in ("right", "carried", "printed")


@dataclass(frozen=True)
class KindSpec:
    """One kind of exercise: how it is generated, laid out and described.

    ``generate(rng, seed, **options)`` draws an exercise from a seeded :class:`random.Random`;
    ``steps(exercise)`` lays it out (expected values from :mod:`rankviz.metrics`, bad input a
    ValueError); ``describe(exercise)`` says in Markdown what is given and what to compute;
    ``options`` are the keyword choices ``generate`` takes (name -> allowed values, first the
    default); ``presets`` maps a homework preset key to a function building its exercise;
    ``reference(exercise)`` gives, for step labels, the values the public functions of
    :mod:`rankviz.metrics` return, computed without the step builder (the tests compare them);
    ``metrics`` names the registry's metric specs the kind exercises (``("dcg", "ndcg", ...)``):
    an option that is one of their parameters takes its words from the registry. ``inputs`` are
    what a student types to pose their own exercise of this kind (:class:`OwnInput`, in the order
    the page asks for them) and ``own(**values)`` builds that exercise from them (each value
    already read, blank ones left out): :func:`rankviz.teaching.homework.own_exercise`.
    """

    key: str
    title: str
    generate: Callable
    steps: Callable
    describe: Callable
    options: Mapping = field(default_factory=dict)
    presets: Mapping = field(default_factory=dict)
    reference: Callable | None = None
    metrics: tuple[str, ...] = ()
    inputs: tuple = ()
    own: Callable | None = None

    def __getattribute__(self, name):
        value = object.__getattribute__(self, name)
        return _(value) if name == "title" else value  # English source (N_), read in the language in force


class InputError(ValueError):
    """Bad input of a student's own exercise: ``name`` is the input it is about (None: the inputs
    together), so a page shows the message beside that field and keeps the others.

    >>> error = InputError("k", "k must be a whole number from 1 to 6; got 9.")
    >>> error.name, str(error)
    ('k', 'k must be a whole number from 1 to 6; got 9.')
    """

    def __init__(self, name: str | None, message: str):
        super().__init__(message)
        self.name = name


@dataclass(frozen=True)
class OwnInput:
    """One input of a student's own exercise: what a sheet gives and how it is typed.

    ``name`` is the keyword of :func:`~rankviz.teaching.homework.own_exercise`; ``label`` the
    field's name on the page; ``description`` one line in the textbook's words; ``kind`` how it is
    read from text (:data:`rankviz.teaching.homework.own.READERS`: ``"relevance"``, ``"binary"``,
    ``"int"``, ``"ints"``, ``"numbers"``, ``"levels"``, ``"names"``, ``"labels"``, ``"ranks"``,
    ``"rankings"``, ``"rows"``, ``"choice"``); ``param`` the registry :class:`~rankviz.registry.Param`
    whose choices a ``"choice"`` input offers (its words and its default come from there);
    ``required``: the exercise cannot be built without it (else blank means ``blank``, in words);
    ``example`` a text the field shows before anything is typed.

    ``label``, ``description`` and ``blank`` are written in English (marked with ``N_``) and read
    in the language in force: the kinds' tables are built at import, the words when a page asks.

    >>> from rankviz.i18n import speaking
    >>> field = OwnInput("k", "Cut-off k", "Blank: the whole list.", "int", blank="the whole list")
    >>> with speaking("zh"):
    ...     field.blank
    '整个列表'
    >>> field.blank
    'the whole list'
    """

    name: str
    label: str
    description: str
    kind: str
    param: object = None
    required: bool = False
    blank: str = ""
    example: str = ""

    def __getattribute__(self, name):
        value = object.__getattribute__(self, name)
        return _(value) if name in _OWN_INPUT_WORDS and value else value


_OWN_INPUT_WORDS = frozenset({"label", "description", "blank"})


KIND_SPECS: dict[str, KindSpec] = {}
# The catalogue of mistakes, key -> Mistake (filled by rankviz.teaching.homework.mistakes.register_mistake;
# here so that a step's alternatives name their mistake by key and stay picklable for a page's cache).
MISTAKES: dict = {}


def register_kind(spec: KindSpec) -> KindSpec:
    """Add ``spec`` to :data:`KIND_SPECS` (each kind module registers its kinds on import)."""
    if spec.key in KIND_SPECS:
        raise ValueError(f"Homework kind {spec.key!r} is registered twice.")
    if not spec.metrics:
        raise ValueError(f"Homework kind {spec.key!r} names no metric of the registry it exercises.")
    for name in spec.metrics:
        get_spec(name)  # a ValueError names an unknown metric
    KIND_SPECS[spec.key] = spec
    return spec


def check_length(n: int, what: str) -> None:
    """Refuse an exercise too long to work by hand (more than :data:`MAX_EXERCISE_LENGTH`)."""
    if n > MAX_EXERCISE_LENGTH:
        raise ValueError(_("A homework exercise has at most {most} {what}; got {n}. Use the other pages for longer "
                           "rankings.").format(most=MAX_EXERCISE_LENGTH, what=_(what), n=n))


def check_seed(seed) -> int:
    """``seed`` if it is a whole number from 0 to :data:`MAX_SEED`; ValueError otherwise."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ValueError(_("The seed must be a whole number from 0 to {most}; got {seed}.").format(most=MAX_SEED,
                                                                                            seed=repr(seed)))
    return seed


def seeded_random(kind: str, seed: int) -> random.Random:
    """The random source of exercise ``seed`` of ``kind``: the same pair always draws the same.

    A string seed is hashed with SHA-512 by :func:`random.seed`: stable across runs and Python
    versions, so a printed worksheet's seed opens the same exercise years later.

    >>> seeded_random("ap", 7).random() == seeded_random("ap", 7).random()
    True
    """
    return random.Random(f"rankviz-homework-{kind}-{check_seed(seed)}")


# ---------------------------------------------------------------------------- answers

_NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
_FRACTION = re.compile(rf"^({_NUMBER})(?:/({_NUMBER}))?(%?)$")


# What a sheet prints around a number: a leading "≈" or "=", a trailing ellipsis.
_PRINTED_AROUND = re.compile(r"^(?:≈|~|=|≃)+|(?:\.\.\.|…)$")
_MINUS = str.maketrans({"−": "-", "–": "-", "‒": "-", "﹣": "-", "÷": "/", "⁄": "/", "∕": "/"})


def _vulgar_fraction(text: str) -> str:
    """``⅔`` -> ``2/3`` (and ``1½`` -> ``1+1/2`` is not a sheet's way: only a lone fraction character).

    >>> _vulgar_fraction("⅔"), _vulgar_fraction("-¾"), _vulgar_fraction("0.5")
    ('2/3', '-3/4', '0.5')
    """
    import unicodedata

    sign = "-" if text.startswith("-") else ""
    body = text[1:] if sign else text
    if len(body) == 1 and not body.isascii() and unicodedata.numeric(body, None) is not None:
        value = unicodedata.numeric(body)
        if 0 < value < 1:
            from fractions import Fraction

            fraction = Fraction(value).limit_denominator(12)
            return f"{sign}{fraction.numerator}/{fraction.denominator}"
    return text


def parse_answer(text) -> float | None:
    """A typed answer as a number; None when blank. Raises ValueError saying what can be typed.

    Accepts what a sheet prints: decimals (``1.892``, ``.5``), a decimal comma (``1,892``), a
    fraction of two numbers (``3/1.585``, ``2/3``, ``⅔``), a percentage (``94.9%``, ``26,84 %``),
    a minus sign (``−0.176``), a leading ``≈`` or ``=`` and a trailing ``...``, and spaces anywhere.

    >>> parse_answer(" 3 / 1.585 "), parse_answer("1,5"), parse_answer("50%"), parse_answer("")
    (1.8927444794952681, 1.5, 0.5, None)
    >>> parse_answer("26.84%"), parse_answer("−0.176"), parse_answer("≈ 0.333..."), parse_answer("⅔")
    (0.2684, -0.176, 0.333, 0.6666666666666666)
    >>> parse_answer("abc")
    Traceback (most recent call last):
    ...
    ValueError: Cannot read 'abc' as a number: write e.g. 1.892, 3/1.585, 2/3, 1,892 or 26.84%.
    """
    if text is None:
        return None
    raw = str(text)
    cleaned = re.sub(r"\s+", "", raw).translate(_MINUS)
    cleaned = _vulgar_fraction(_PRINTED_AROUND.sub("", cleaned))
    if cleaned == "":
        return None
    if "," in cleaned and "." not in cleaned and cleaned.count(",") == 1:
        cleaned = cleaned.replace(",", ".")  # a decimal comma, as many students write it
    match = _FRACTION.match(cleaned)
    if not match:
        raise ValueError(_("Cannot read {answer} as a number: write e.g. 1.892, 3/1.585, 2/3, 1,892 or "
                           "26.84%.").format(answer=repr(raw.strip())))
    numerator, denominator, percent = match.groups()
    value = float(numerator)
    if denominator is not None:
        if float(denominator) == 0:
            raise ValueError(_("{answer} divides by zero.").format(answer=repr(raw.strip())))
        value /= float(denominator)
    if percent:
        # 26.84% is 0.2684 exactly as printed (26.84 / 100 in floats is 0.26839999999999997).
        from decimal import Decimal

        value = float(Decimal(numerator) / 100) if denominator is None else value / 100
    return value


def _matching_mistakes(step: Step, value: float, given, slack: float) -> list[Alternative]:
    """The alternatives of ``step`` that give ``value`` (directly, or from the student's own
    earlier values the mistaken way), leaving out those the tolerance cannot tell from right."""
    found: dict[str, Alternative] = {}
    for alternative in step.alternatives:
        wrong = alternative.step
        if abs(wrong.expected - step.expected) <= slack or alternative.mistake in found:
            continue
        own = wrong.from_values(given) if alternative.aligned else None
        near = slack * alternative.units
        if abs(value - wrong.expected) <= near or (own is not None and abs(value - own) <= near):
            found[alternative.mistake] = alternative
    return list(found.values())


def _mistake_message(matches: list[Alternative], value: float, step: Step) -> str:
    sentences = [m.sentence for m in matches]
    numbers = {"value": tex_number(value), "exact": tex_number(step.expected)}
    if len(sentences) == 1:
        return _("{sentence} That gives {value}; the exact value is {exact}.").format(sentence=sentences[0], **numbers)
    listed = _(" Or: ").join(sentences)
    return _("{value} is what {n} different mistakes give, so the checker cannot tell which you made: {listed} "
             "Either way, the exact value is {exact}.").format(n=len(sentences), listed=listed, **numbers)


def _carried_message(step: Step, own: float, verdicts) -> str:
    """Why a step that is not right still follows from the student's earlier answers: one of them is
    off, or each is right within the tolerance and their rounding added up (13.846 for 13.848)."""
    if all(verdicts[i].status in ("right", "printed") for i in step.uses):
        return _("Follows from your earlier answers ({own}), each right within the tolerance: their rounding adds "
                 "up. Keep more decimals until the last step (exact {exact}).").format(
            own=tex_number(own), exact=tex_number(step.expected))
    return _("Follows from your earlier answers ({own}); an earlier step is off.").format(own=tex_number(own))


def check_answers(steps, answers, tolerance: float = 0.001, *, language: str | None = None) -> list[Verdict]:
    """Mark each answer against its step, naming the catalogued mistake a wrong one matches.

    ``answers[i]`` is the text typed for ``steps[i]`` (missing or blank: not answered).
    An answer is right when it is within ``tolerance`` of the exact value. A step computed
    from earlier steps that is not right may still follow from the student's own earlier
    answers (within ``tolerance``): it is then marked "carried", so a single slip counts once.
    A wrong answer within ``tolerance`` of what a catalogued mistake gives for the step names
    that mistake (``Verdict.mistake``); several mistakes giving the same number are all named.
    An answer within ``tolerance`` of the value the course notes print for the step
    (``Step.printed``) is recognised with the notes' reason: "printed" (counts as right) where the
    notes only rounded or cut, "wrong" (or "carried") where they slip or print another quantity.

    >>> from rankviz.teaching.homework import exercise_from_preset, steps_for
    >>> steps = steps_for(exercise_from_preset("srcc_exercise"))
    >>> [v.status for v in check_answers(steps, [""] * 10 + ["24", "0.854"], tolerance=0.001)][-2:]
    ['right', 'right']

    ``language`` (``"en"``, ``"zh"``) gives the messages in that language; None: the language in
    force (:func:`rankviz.i18n.use`). Numbers and formulas stay as they are:

    >>> check_answers(steps, [""] * 11 + ["0.9"], language="zh")[-1].message
    '与精确值相差 0.045（容差 ±0.001）。'
    """
    with in_language(language):
        return _check_answers(steps, answers, tolerance)


def _check_answers(steps, answers, tolerance) -> list[Verdict]:
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or not (
            math.isfinite(tolerance) and tolerance > 0):
        raise ValueError(_("The tolerance must be a positive number such as 0.001; got {tolerance}.").format(
            tolerance=repr(tolerance)))
    answers = list(answers or ())
    if len(answers) > len(steps):
        raise ValueError(_("Got {answers} answers for {steps} steps.").format(answers=len(answers), steps=len(steps)))
    answers += [""] * (len(steps) - len(answers))
    slack = tolerance * (1 + 1e-9)  # so 0.001 away from the exact value still passes with tolerance 0.001
    given: list[float | None] = []
    verdicts = []
    for step, text in zip(steps, answers):
        text = "" if text is None else str(text)
        try:
            value = parse_answer(text)
        except ValueError as error:
            given.append(None)
            verdicts.append(Verdict(step, text, None, "unreadable", str(error)))
            continue
        if value is None:
            given.append(None)
            verdicts.append(Verdict(step, text, None, "blank", _("Not answered yet.")))
            continue
        if abs(value - step.expected) <= slack:
            given.append(value)
            verdicts.append(Verdict(step, text, value, "right",
                                    _("Right (within ±{tolerance}).").format(tolerance=format_number(tolerance, 6))))
            continue
        own = step.from_values(given)
        given.append(value)
        follows = own is not None and abs(value - own) <= slack
        printed = step.printed
        if printed is not None and abs(value - printed.value) <= slack:
            # The course notes' own number: say why it is not the exact value, in this row.
            status = "printed" if printed.rounded else "carried" if follows else "wrong"
            verdicts.append(Verdict(step, text, value, status, printed.message(step.expected)))
            continue
        if follows:
            verdicts.append(Verdict(step, text, value, "carried", _carried_message(step, own, verdicts)))
            continue
        matches = _matching_mistakes(step, value, given[:-1], slack)
        if matches:
            verdicts.append(Verdict(step, text, value, "wrong", _mistake_message(matches, value, step),
                                    mistake=matches[0].mistake, mistakes=tuple(m.mistake for m in matches),
                                    mistaken_formula=matches[0].step.formula))
        else:
            verdicts.append(Verdict(step, text, value, "wrong",
                                    _("That is {distance} away from the exact value (tolerance ±{tolerance}).").format(
                                        distance=tex_number(abs(value - step.expected)),
                                        tolerance=format_number(tolerance, 6))))
    return verdicts


def first_wrong(verdicts) -> int | None:
    """Index of the first step marked wrong (where the working went astray), or None.

    Examples
    --------
    P@3 of ranks 1 and 3 relevant is 2/3, not 0.6: step 2 is where the working went astray.

    >>> from rankviz.teaching.homework import steps_for
    >>> steps = steps_for(Exercise("ap", "AP", rels=(1, 0, 1, 0), n_relevant=3))
    >>> first_wrong(check_answers(steps, ["1", "0.5", "0.6", "0.5", "0.533"]))
    2
    >>> first_wrong(check_answers(steps, ["1", "1/2", "2/3", "2/4", "5/9"])) is None  # (1 + 2/3) / 3 = 5/9
    True
    """
    for i, verdict in enumerate(verdicts):
        if verdict.status == "wrong":
            return i
    return None


def summary(verdicts, *, language: str | None = None) -> str:
    """One sentence: how many steps are right, wrong, unread and unanswered.

    Examples
    --------
    P@1 and P@2 right, P@3 wrong (0.6 for 2/3), P@4 not answered, AP = (1 + 0.6) / 3 carried
    from the wrong P@3:

    >>> from rankviz.teaching.homework import steps_for
    >>> steps = steps_for(Exercise("ap", "AP", rels=(1, 0, 1, 0), n_relevant=3))
    >>> summary(check_answers(steps, ["1", "0.5", "0.6", "", "0.533"]))
    '3 of 5 steps right, 1 of them following from your earlier answers, 1 wrong, 1 not answered.'
    """
    with in_language(language):
        counts = {status: sum(v.status == status for v in verdicts) for status in STATUS_WORDS}
        right = counts["right"] + counts["carried"] + counts["printed"]
        parts = [ngettext("{right} of {total} step right", "{right} of {total} steps right", len(verdicts)).format(
            right=right, total=len(verdicts))]
        if counts["carried"]:
            parts.append(_("{n} of them following from your earlier answers").format(n=counts["carried"]))
        if counts["printed"]:
            parts.append(_("{n} of them as the course notes print them").format(n=counts["printed"]))
        named = sum(v.mistake is not None for v in verdicts)
        if counts["wrong"]:
            parts.append(_("{n} wrong ({named} with the mistake named)").format(n=counts["wrong"], named=named)
                         if named else _("{n} wrong").format(n=counts["wrong"]))
        if counts["unreadable"]:
            parts.append(_("{n} unreadable").format(n=counts["unreadable"]))
        if counts["blank"]:
            parts.append(_("{n} not answered").format(n=counts["blank"]))
        return _(", ").join(parts) + _(".")
