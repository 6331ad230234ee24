"""Homework checking: an exercise becomes a list of steps, a student's answers become verdicts.

Pure logic (no streamlit), so the app's homework page only draws what this module decides.
An :class:`Exercise` is a course preset (:func:`exercise_from_preset`), the student's own
ranking (:func:`own_exercise`) or a practice exercise generated from a seed
(:func:`generate_exercise`: the same seed always gives the same exercise, so a lecturer can
share ``?seed=1234`` with a class). :func:`steps_for` lays it out step by step like the
lecture's worked tables, every expected value computed by :mod:`rankviz.metrics`;
:func:`check_answers` marks each typed answer within a tolerance, and a step computed from
earlier steps (a sum, a ratio) also counts as right when it follows from the student's own
earlier answers ("error carried forward"), so one slip is marked once, where it happened.

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
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass

from rankviz.teaching.export import format_number

__all__ = [
    "KINDS",
    "GAINS",
    "DISCOUNTS",
    "MAX_EXERCISE_LENGTH",
    "HOMEWORK_PRESETS",
    "Exercise",
    "Step",
    "Verdict",
    "own_exercise",
    "exercise_from_preset",
    "generate_exercise",
    "describe",
    "steps_for",
    "parse_answer",
    "check_answers",
    "first_wrong",
    "summary",
]

# What the checker can walk through, and how each is named to a student.
KINDS = {
    "ndcg": "CG, DCG, IDCG and NDCG",
    "ap": "P@i down the ranking and average precision (AP)",
    "spearman": "Spearman's rank correlation (rho)",
}
GAINS = ("exponential", "linear")
DISCOUNTS = ("log2", "jarvelin")
# Beyond this a homework table stops being something one types in by hand.
MAX_EXERCISE_LENGTH = 20
# Course exercises the checker walks through, and the kind of each.
HOMEWORK_PRESETS = {
    "ndcg_exercise": "ndcg",
    "q1_graded": "ndcg",
    "ap_positions_1_3_6": "ap",
    "q1_binary": "ap",
    "q2_binary": "ap",
    "srcc_exercise": "spearman",
}
_MAX_SEED = 10**9

STATUS_WORDS = {
    "right": "right",
    "carried": "follows from your earlier answers",
    "wrong": "wrong",
    "blank": "not answered",
    "unreadable": "cannot read it",
}


@dataclass(frozen=True)
class Exercise:
    """One exercise: what is given and which kind of working is asked for.

    ``kind`` is a key of :data:`KINDS`. ``ndcg`` uses ``rels``, ``gain``, ``discount`` and
    optionally ``judged`` (every judged grade of the query, for the ideal ranking); ``ap``
    uses ``rels`` (binary: grade >= 1 is relevant) and ``n_relevant`` (R); ``spearman`` uses
    ``items``, ``ranks_a`` and ``ranks_b``.

    Examples
    --------
    Relevant documents at ranks 1 and 3 of 4, R = 3 (one relevant document was not retrieved):
    P@1 = 1/1, P@2 = 1/2, P@3 = 2/3, P@4 = 2/4, then AP = (1 + 2/3) / 3 = 0.556.

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


@dataclass(frozen=True)
class Step:
    """One value a student writes down, with its working.

    ``formula`` is KaTeX with this exercise's numbers (``\\frac{7}{1.585} = 4.417``).
    A step computed from earlier ones names them in ``uses`` (indices into the step list)
    and says how in ``rule``: ``"sum"`` (their sum divided by ``scale``), ``"ratio"``
    (first / second) or ``"spearman"`` (1 - 6 x first / ``scale``).

    Examples
    --------
    The last step of an AP exercise (relevant at ranks 1 and 3, R = 3) sums P@1 and P@3, steps
    0 and 2, and divides by R:

    >>> exercise = Exercise("ap", "AP", rels=(1, 0, 1, 0), n_relevant=3)
    >>> ap = steps_for(exercise)[-1]
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

    def from_values(self, values) -> float | None:
        """This step computed from other values of the steps in ``uses`` (None if one is missing).

        Examples
        --------
        AP from a student's own P@1 = 1 and P@3 = 0.6 (steps 0 and 2): (1 + 0.6) / 3 = 0.533.

        >>> ap = steps_for(Exercise("ap", "AP", rels=(1, 0, 1, 0), n_relevant=3))[-1]
        >>> round(ap.from_values([1.0, 0.5, 0.6, 0.5]), 3)
        0.533
        >>> ap.from_values([1.0, 0.5, None, 0.5]) is None  # P@3 not answered
        True
        """
        picked = [values[i] for i in self.uses]
        if not self.rule or any(v is None for v in picked):
            return None
        if self.rule == "sum":
            return math.fsum(picked) / self.scale
        if self.rule == "ratio":
            return picked[0] / picked[1] if picked[1] else 0.0
        if self.rule == "spearman":
            return 1 - 6 * picked[0] / self.scale
        raise ValueError(f"Step {self.label!r} has an unknown rule {self.rule!r}.")


@dataclass(frozen=True)
class Verdict:
    """The mark of one answer: ``status`` is right, carried, wrong, blank or unreadable.

    Examples
    --------
    Relevant at ranks 1 and 3, R = 3. A student writes P@3 = 0.6 (it is 2/3 = 0.667), then
    AP = 0.533: wrong, but (1 + 0.6) / 3 = 0.533 follows from their own P@3, so it is "carried"
    and counts as right (``ok``).

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

    @property
    def ok(self) -> bool:
        """Right, or right given the student's own earlier answers.

        Examples
        --------
        >>> step = Step("P@2", 0.5, "1/2 = 0.5")
        >>> [verdict.ok for verdict in check_answers([step], ["1/2"])], check_answers([step], [""])[0].ok
        ([True], False)
        """
        return self.status in ("right", "carried")


# ---------------------------------------------------------------------------- exercises


def _check_kind(kind) -> str:
    if kind not in KINDS:
        raise ValueError(f"The exercise kind must be one of {', '.join(KINDS)}; got {kind!r}.")
    return kind


def _check_length(n: int, what: str) -> None:
    if n > MAX_EXERCISE_LENGTH:
        raise ValueError(f"A homework exercise has at most {MAX_EXERCISE_LENGTH} {what}; got {n}. "
                         f"Use the other pages for longer rankings.")


def own_exercise(kind: str, *, rels=(), gain="exponential", discount="log2", n_relevant=None, unretrieved=(),
                 ranks_a=(), ranks_b=(), items=()) -> Exercise:
    """An exercise on the student's own input; raises ValueError with a readable message if it is unusable.

    ``unretrieved`` (ndcg only): grades of judged documents the ranking missed; the ideal ranking
    then sorts ``rels`` and these together.

    >>> own_exercise("ndcg", rels=[2, 0, 1], gain="linear").title
    'Your ranking 2, 0, 1: CG, DCG, IDCG and NDCG (linear gain, log2(i + 1) discount)'
    """
    kind = _check_kind(kind)
    if kind == "spearman":
        ranks_a, ranks_b = tuple(ranks_a), tuple(ranks_b)
        items = tuple(items) or tuple(f"d{i}" for i in range(1, len(ranks_a) + 1))
        _check_length(len(ranks_a), "documents")
        exercise = Exercise(kind, f"Your two rankings of {len(ranks_a)} documents: {KINDS[kind]}",
                            items=items, ranks_a=ranks_a, ranks_b=ranks_b)
    else:
        rels = tuple(rels)
        _check_length(len(rels), "ranks")
        if gain not in GAINS or discount not in DISCOUNTS:
            raise ValueError(f"gain must be one of {', '.join(GAINS)} and discount one of {', '.join(DISCOUNTS)}; "
                             f"got {gain!r} and {discount!r}.")
        shown = ", ".join(format_number(g) for g in rels)
        variant = f" ({_variant_words(gain, discount)})" if kind == "ndcg" else ""
        judged = rels + tuple(unretrieved) if kind == "ndcg" and len(unretrieved) else None
        exercise = Exercise(kind, f"Your ranking {shown}: {KINDS[kind]}{variant}", rels=rels, gain=gain,
                            discount=discount, n_relevant=n_relevant, judged=judged)
    steps_for(exercise)  # validates everything through the metric functions
    return exercise


def exercise_from_preset(key: str) -> Exercise:
    """The course exercise ``key`` (a key of :data:`HOMEWORK_PRESETS`) as a homework exercise.

    Examples
    --------
    The lecture's q2: 15 ranked documents, relevant at ranks 3, 8 and 15, R = 3.

    >>> exercise = exercise_from_preset("q2_binary")
    >>> exercise.kind, exercise.n_relevant, [rank for rank, grade in enumerate(exercise.rels, 1) if grade]
    ('ap', 3, [3, 8, 15])
    >>> exercise_from_preset("gmap_runs")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: The homework checker has no steps for preset 'gmap_runs'; it knows ndcg_exercise, ...
    """
    from rankviz.teaching.presets import get_preset

    if key not in HOMEWORK_PRESETS:
        raise ValueError(f"The homework checker has no steps for preset {key!r}; "
                         f"it knows {', '.join(HOMEWORK_PRESETS)}.")
    preset = get_preset(key)
    kind = HOMEWORK_PRESETS[key]
    common = {"title": preset.title, "source": preset.source, "note": preset.note}
    if kind == "spearman":
        return Exercise(kind, items=tuple(preset.doc_ids), ranks_a=tuple(preset.ranks_a),
                        ranks_b=tuple(preset.ranks_b), **common)
    if kind == "ndcg":
        return Exercise(kind, rels=tuple(preset.rels), gain=preset.settings.get("gain", "linear"),
                        discount=preset.settings.get("discount", "log2"), judged=preset.judged, **common)
    return Exercise(kind, rels=tuple(preset.rels), n_relevant=preset.n_relevant, **common)


def _check_seed(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= _MAX_SEED:
        raise ValueError(f"The seed must be a whole number from 0 to {_MAX_SEED}; got {seed!r}.")
    return seed


def generate_exercise(seed: int, kind: str = "ndcg", *, gain: str = "exponential",
                      discount: str = "log2") -> Exercise:
    """A practice exercise drawn from ``seed``: the same seed and kind always give the same exercise.

    ndcg: 5 to 7 grades from 0 to 3, not already in ideal order; ap: 6 to 10 binary grades
    with at least one relevant, and 0 to 2 relevant documents never retrieved (so R is larger
    than the hits); spearman: 5 to 8 documents, ranking 2 a shuffle of ranking 1.

    >>> generate_exercise(1234, "ap") == generate_exercise(1234, "ap")
    True
    """
    seed, kind = _check_seed(seed), _check_kind(kind)
    # A string seed is hashed with SHA-512 by random.seed: stable across runs and Python versions.
    rng = random.Random(f"rankviz-homework-{kind}-{seed}")
    title = f"Practice exercise {seed}: {KINDS[kind]}"
    if kind == "ndcg":
        n = rng.randint(5, 7)
        grades = [rng.randint(0, 3) for _ in range(n)]
        while max(grades) == 0 or grades == sorted(grades, reverse=True):
            rng.shuffle(grades)
            grades[rng.randrange(n)] = rng.randint(1, 3)
        return Exercise(kind, f"{title} ({_variant_words(gain, discount)})", rels=tuple(grades), gain=gain,
                        discount=discount)
    if kind == "ap":
        n = rng.randint(6, 10)
        grades = [int(rng.random() < 0.4) for _ in range(n)]
        if not any(grades):
            grades[rng.randrange(n)] = 1
        return Exercise(kind, title, rels=tuple(grades), n_relevant=sum(grades) + rng.randint(0, 2))
    n = rng.randint(5, 8)
    order = list(range(1, n + 1))
    while order == sorted(order):
        rng.shuffle(order)
    return Exercise(kind, title, items=tuple(f"d{i}" for i in range(1, n + 1)), ranks_a=tuple(range(1, n + 1)),
                    ranks_b=tuple(order))


def _variant_words(gain: str, discount: str) -> str:
    gain_words = "exponential gain 2^g − 1" if gain == "exponential" else "linear gain"
    discount_words = "log2(i + 1) discount" if discount == "log2" else "Järvelin-Kekäläinen discount max(1, log2 i)"
    return f"{gain_words}, {discount_words}"


def describe(exercise: Exercise) -> str:
    """What is given and what to compute, in one or two sentences of Markdown.

    Examples
    --------
    >>> print(describe(Exercise("ap", "AP", rels=(1, 0, 1, 0), n_relevant=3)))  # doctest: +NORMALIZE_WHITESPACE
    Relevance in ranked order (1 = relevant): 1, 0, 1, 0; R = 3 relevant documents in the collection.
    Compute P@i at every rank i, then AP = (1/R) Σ P@i over the relevant ranks.
    """
    if exercise.kind == "spearman":
        pairs = ", ".join(f"{d} ({a}, {b})" for d, a, b in zip(exercise.items, exercise.ranks_a, exercise.ranks_b))
        return (f"Documents with (rank in R1, rank in R2): {pairs}. Compute d² = (s1 − s2)² for each document, "
                f"then Σd² and ρ = 1 − 6 Σd² / (K (K² − 1)).")
    grades = ", ".join(format_number(g) for g in exercise.rels)
    if exercise.kind == "ap":
        return (f"Relevance in ranked order (1 = relevant): {grades}; R = {exercise.n_relevant} relevant documents "
                f"in the collection. Compute P@i at every rank i, then AP = (1/R) Σ P@i over the relevant ranks.")
    judged = ""
    if exercise.judged is not None:
        judged = (f" The ideal ranking uses every judged grade of the query: "
                  f"{', '.join(format_number(g) for g in sorted(exercise.judged, reverse=True) if g > 0)}.")
    return (f"Grades in ranked order: {grades}; {_variant_words(exercise.gain, exercise.discount)}.{judged} "
            f"Compute CG, the DCG term at each rank, DCG, the IDCG terms of the ideal ranking, IDCG and NDCG.")


# ---------------------------------------------------------------------------- steps


def _n(x) -> str:
    return format_number(float(x), 3)


def _gain_tex(grade: float, gain: str) -> str:
    return f"2^{{{_n(grade)}}} - 1" if gain == "exponential" else _n(grade)


def _discount_tex(rank: int, discount: str) -> str:
    return rf"\log_2({rank} + 1)" if discount == "log2" else rf"\max(1, \log_2 {rank})"


def _dcg_terms(table, grade_column: str, gain: str, discount: str, what: str, rows=None) -> list[Step]:
    denominator_column = table.columns[3]  # "log2(1+i)" or "max(1, log2(i))", after rank, grade, gain
    steps = []
    for rank, grade, gain_value, denominator, contribution in zip(
            table["rank"], table[grade_column], table["gain"], table[denominator_column], table["contribution"]):
        if rows is not None and int(rank) not in rows:
            continue
        formula = (rf"\frac{{{_gain_tex(grade, gain)}}}{{{_discount_tex(int(rank), discount)}}} = "
                   rf"\frac{{{_n(gain_value)}}}{{{_n(denominator)}}} = {_n(contribution)}")
        steps.append(Step(f"{what} term at rank {int(rank)} (grade {_n(grade)})", float(contribution), formula))
    return steps


def _ndcg_steps(exercise: Exercise) -> list[Step]:
    from rankviz.metrics import cumulative_gain_breakdown, dcg_breakdown, ideal_dcg_breakdown, ndcg

    options = {"gain": exercise.gain, "discount": exercise.discount}
    cg = cumulative_gain_breakdown(exercise.rels)
    steps = [Step("CG", float(cg.value), cg.latex.replace(r"\mathrm{CG} = ", ""))]
    system = dcg_breakdown(exercise.rels, **options)
    ideal = ideal_dcg_breakdown(exercise.rels, judged=exercise.judged, **options)
    dcg_terms = _dcg_terms(system.table, "rel", exercise.gain, exercise.discount, "DCG")
    # Ideal ranks past the last relevant document add 0; they are left out so a long judged list stays short.
    useful = {int(r) for r, g in zip(ideal.table["rank"], ideal.table["ideal rel"]) if g > 0} or {1}
    idcg_terms = _dcg_terms(ideal.table, "ideal rel", exercise.gain, exercise.discount, "IDCG", rows=useful)
    first_dcg, first_idcg = len(steps), len(steps) + len(dcg_terms) + 1
    steps += dcg_terms
    dcg_value = float(system.value)
    steps.append(Step("DCG", dcg_value, " + ".join(_n(t.expected) for t in dcg_terms) + f" = {_n(dcg_value)}",
                      uses=tuple(range(first_dcg, first_dcg + len(dcg_terms))), rule="sum"))
    steps += idcg_terms
    idcg_value = float(ideal.value)
    steps.append(Step("IDCG", idcg_value, " + ".join(_n(t.expected) for t in idcg_terms) + f" = {_n(idcg_value)}",
                      uses=tuple(range(first_idcg, first_idcg + len(idcg_terms))), rule="sum"))
    value = ndcg(exercise.rels, judged=exercise.judged, **options)
    steps.append(Step("NDCG", float(value), rf"\frac{{\mathrm{{DCG}}}}{{\mathrm{{IDCG}}}} = "
                                            rf"\frac{{{_n(dcg_value)}}}{{{_n(idcg_value)}}} = {_n(value)}",
                      uses=(first_dcg + len(dcg_terms), len(steps) - 1), rule="ratio"))
    return steps


def _ap_steps(exercise: Exercise) -> list[Step]:
    from rankviz.metrics import average_precision_breakdown

    worked = average_precision_breakdown(exercise.rels, n_relevant=exercise.n_relevant)
    table = worked.table
    steps, relevant_steps = [], []
    for rank, is_relevant, hits, precision in zip(table["rank"], table["relevant?"], table["relevant so far"],
                                                  table["P@i"]):
        if is_relevant:
            relevant_steps.append(len(steps))
        mark = "relevant" if is_relevant else "not relevant"
        steps.append(Step(f"P@{int(rank)} ({mark})", float(precision),
                          rf"\frac{{{int(hits)}}}{{{int(rank)}}} = {_n(precision)}"))
    n_rel = int(worked.details["n_relevant"])
    value = float(worked.value)
    terms = " + ".join(_n(steps[i].expected) for i in relevant_steps) or "0"
    steps.append(Step("AP", value, rf"\frac{{1}}{{{n_rel}}}\left({terms}\right) = {_n(value)}",
                      uses=tuple(relevant_steps), rule="sum", scale=float(max(n_rel, 1))))
    return steps


def _spearman_steps(exercise: Exercise) -> list[Step]:
    from rankviz.metrics import spearman_rho_breakdown

    a, b = exercise.ranks_a, exercise.ranks_b
    if len(a) != len(b) or len(a) != len(exercise.items):
        raise ValueError(f"Give one rank in R1 and one in R2 per document: {len(exercise.items)} documents, "
                         f"{len(a)} ranks in R1 and {len(b)} in R2.")
    for name, ranks in (("R1", a), ("R2", b)):
        if len(set(ranks)) != len(ranks):
            raise ValueError(f"{name} has tied ranks; the lecture's formula 1 − 6 Σd² / (K (K² − 1)) needs "
                             f"every document at its own rank.")
    worked = spearman_rho_breakdown(a, b, items=list(exercise.items))
    table = worked.table
    steps = [Step(f"d² of {doc} (s1 = {_n(s1)}, s2 = {_n(s2)})", float(d2), rf"({_n(s1)} - {_n(s2)})^2 = {_n(d2)}")
             for doc, s1, s2, d2 in zip(table["doc"], table["s1"], table["s2"], table["d^2"])]
    total = float(worked.details["sum_d2"])
    steps.append(Step("Σd²", total, " + ".join(_n(s.expected) for s in steps) + f" = {_n(total)}",
                      uses=tuple(range(len(steps))), rule="sum"))
    k = len(a)
    value = float(worked.value)
    steps.append(Step("ρ (Spearman)", value,
                      rf"1 - \frac{{6 \times {_n(total)}}}{{{k} \times ({k}^2 - 1)}} = {_n(value)}",
                      uses=(len(steps) - 1,), rule="spearman", scale=float(k * (k * k - 1))))
    return steps


def steps_for(exercise: Exercise) -> list[Step]:
    """The steps of ``exercise`` in the order a student works them out, each with its expected value.

    ndcg: CG, one DCG term per rank, DCG, one IDCG term per rank of the ideal ranking holding
    a relevant document, IDCG, NDCG. ap: P@i at every rank, then AP. spearman: d² per
    document, Σd², rho. Every expected value comes from the ``*_breakdown`` tables of
    :mod:`rankviz.metrics`; bad input raises their ValueError.

    >>> steps = steps_for(exercise_from_preset("ndcg_exercise"))
    >>> {s.label: round(s.expected, 3) for s in steps if s.label in ("DCG", "IDCG", "NDCG")}
    {'DCG': 13.848, 'IDCG': 14.595, 'NDCG': 0.949}
    """
    _check_kind(exercise.kind)
    if exercise.kind == "ndcg":
        return _ndcg_steps(exercise)
    if exercise.kind == "ap":
        return _ap_steps(exercise)
    return _spearman_steps(exercise)


# ---------------------------------------------------------------------------- answers

_NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
_FRACTION = re.compile(rf"^({_NUMBER})(?:/({_NUMBER}))?(%?)$")


def parse_answer(text) -> float | None:
    """A typed answer as a number; None when blank. Raises ValueError saying what can be typed.

    Accepts decimals (``1.892``, ``.5``), a decimal comma (``1,892``), a fraction of two
    numbers (``3/1.585``, ``2/3``), a percentage (``94.9%``) and spaces anywhere.

    >>> parse_answer(" 3 / 1.585 "), parse_answer("1,5"), parse_answer("50%"), parse_answer("")
    (1.8927444794952681, 1.5, 0.5, None)
    >>> parse_answer("abc")
    Traceback (most recent call last):
    ...
    ValueError: Cannot read 'abc' as a number: write e.g. 1.892, 3/1.585, 2/3 or 1,892.
    """
    if text is None:
        return None
    raw = str(text)
    cleaned = re.sub(r"\s+", "", raw).replace("−", "-").replace("÷", "/")
    if cleaned == "":
        return None
    if "," in cleaned and "." not in cleaned and cleaned.count(",") == 1:
        cleaned = cleaned.replace(",", ".")  # a decimal comma, as many students write it
    match = _FRACTION.match(cleaned)
    if not match:
        raise ValueError(f"Cannot read {raw.strip()!r} as a number: write e.g. 1.892, 3/1.585, 2/3 or 1,892.")
    numerator, denominator, percent = match.groups()
    value = float(numerator)
    if denominator is not None:
        if float(denominator) == 0:
            raise ValueError(f"{raw.strip()!r} divides by zero.")
        value /= float(denominator)
    if percent:
        value /= 100
    return value


def check_answers(steps, answers, tolerance: float = 0.001) -> list[Verdict]:
    """Mark each answer against its step.

    ``answers[i]`` is the text typed for ``steps[i]`` (missing or blank: not answered).
    An answer is right when it is within ``tolerance`` of the exact value. A step computed
    from earlier steps that is not right may still follow from the student's own earlier
    answers (within ``tolerance``): it is then marked "carried", so a single slip counts once.

    >>> steps = steps_for(exercise_from_preset("srcc_exercise"))
    >>> [v.status for v in check_answers(steps, [""] * 10 + ["24", "0.854"], tolerance=0.001)][-2:]
    ['right', 'right']
    """
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or not (
            math.isfinite(tolerance) and tolerance > 0):
        raise ValueError(f"The tolerance must be a positive number such as 0.001; got {tolerance!r}.")
    answers = list(answers or ())
    if len(answers) > len(steps):
        raise ValueError(f"Got {len(answers)} answers for {len(steps)} steps.")
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
        given.append(value)
        if value is None:
            verdicts.append(Verdict(step, text, None, "blank", "Not answered yet."))
        elif abs(value - step.expected) <= slack:
            verdicts.append(Verdict(step, text, value, "right", f"Right (within ±{format_number(tolerance, 6)})."))
        else:
            own = step.from_values(given)
            if own is not None and abs(value - own) <= slack:
                verdicts.append(Verdict(step, text, value, "carried",
                                        f"Follows from your earlier answers ({_n(own)}); an earlier step is off."))
            else:
                verdicts.append(Verdict(step, text, value, "wrong",
                                        f"That is {_n(abs(value - step.expected))} away from the exact value "
                                        f"(tolerance ±{format_number(tolerance, 6)})."))
    return verdicts


def first_wrong(verdicts) -> int | None:
    """Index of the first step marked wrong (where the working went astray), or None.

    Examples
    --------
    P@3 of ranks 1 and 3 relevant is 2/3, not 0.6: step 2 is where the working went astray.

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


def summary(verdicts) -> str:
    """One sentence: how many steps are right, wrong, unread and unanswered.

    Examples
    --------
    P@1 and P@2 right, P@3 wrong (0.6 for 2/3), P@4 not answered, AP = (1 + 0.6) / 3 carried
    from the wrong P@3:

    >>> steps = steps_for(Exercise("ap", "AP", rels=(1, 0, 1, 0), n_relevant=3))
    >>> summary(check_answers(steps, ["1", "0.5", "0.6", "", "0.533"]))
    '3 of 5 steps right, 1 of them following from an earlier slip, 1 wrong, 1 not answered.'
    """
    counts = {status: sum(v.status == status for v in verdicts) for status in STATUS_WORDS}
    parts = [f"{counts['right'] + counts['carried']} of {len(verdicts)} steps right"]
    if counts["carried"]:
        parts.append(f"{counts['carried']} of them following from an earlier slip")
    if counts["wrong"]:
        parts.append(f"{counts['wrong']} wrong")
    if counts["unreadable"]:
        parts.append(f"{counts['unreadable']} unreadable")
    if counts["blank"]:
        parts.append(f"{counts['blank']} not answered")
    return ", ".join(parts) + "."
