"""Graded-relevance exercises: CG, DCG, IDCG and nDCG (both gains, both discounts), and their mistakes.

``ndcg`` exercises use ``rels``, ``gain``, ``discount`` and ``judged`` (every judged grade of the
query, for the ideal ranking; None: the ranking's own grades). Mistaken workings change
``params``: ``log_base`` (2 unless a mistake says ln or log10) and ``idcg`` ("judged", or
"retrieved" / "unsorted" for the two ways students get the ideal ranking wrong).
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from rankviz.teaching.export import format_number
from rankviz.teaching.homework.core import Exercise, KindSpec, Step, register_kind, seeded_random, tex_number
from rankviz.teaching.homework.mistakes import register_mistake, same_working_with

__all__ = ["GAINS", "DISCOUNTS", "variant_words", "ndcg_steps"]

GAINS = ("exponential", "linear")
DISCOUNTS = ("log2", "jarvelin")
_OTHER = {"exponential": "linear", "linear": "exponential", "log2": "jarvelin", "jarvelin": "log2"}


def variant_words(gain: str, discount: str) -> str:
    """The gain and discount of an exercise in words.

    >>> variant_words("linear", "log2")
    'linear gain, log2(i + 1) discount'
    """
    gain_words = "exponential gain 2^g − 1" if gain == "exponential" else "linear gain"
    discount_words = "log2(i + 1) discount" if discount == "log2" else "Järvelin-Kekäläinen discount max(1, log2 i)"
    return f"{gain_words}, {discount_words}"


def _gain_tex(grade: float, gain: str) -> str:
    return f"2^{{{tex_number(grade)}}} - 1" if gain == "exponential" else tex_number(grade)


def _log_tex(base: float) -> str:
    if base == 2:
        return r"\log_2"
    if base == math.e:
        return r"\ln"
    return rf"\log_{{{format_number(base)}}}"


def _discount_tex(rank: int, discount: str, base: float) -> str:
    log = _log_tex(base)
    return rf"{log}({rank} + 1)" if discount == "log2" else rf"\max(1, {log} {rank})"


def _dcg_terms(table, grade_column: str, exercise: Exercise, what: str, stage: str, rows=None) -> list[Step]:
    denominator_column = table.columns[3]  # the discount column, after rank, grade and gain
    base = exercise.param("log_base", 2)
    steps = []
    for rank, grade, gain_value, denominator, contribution in zip(
            table["rank"], table[grade_column], table["gain"], table[denominator_column], table["contribution"]):
        if rows is not None and int(rank) not in rows:
            continue
        formula = (rf"\frac{{{_gain_tex(grade, exercise.gain)}}}{{{_discount_tex(int(rank), exercise.discount, base)}}}"
                   rf" = \frac{{{tex_number(gain_value)}}}{{{tex_number(denominator)}}} = {tex_number(contribution)}")
        steps.append(Step(f"{what} term at rank {int(rank)} (grade {tex_number(grade)})", float(contribution), formula,
                          stage=stage))
    return steps


def _rebased(worked, base: float):
    """A log2(i + 1) worked table recomputed with log_base(i + 1): the working of a student who used ln or log10."""
    table = worked.table.copy()
    table[table.columns[3]] = np.log(table["rank"].to_numpy(float) + 1) / math.log(base)
    table["contribution"] = table["gain"] / table[table.columns[3]]
    table["running DCG"] = table["contribution"].cumsum()
    return replace(worked, table=table, value=float(math.fsum(table["contribution"])))


def ndcg_steps(exercise: Exercise) -> list[Step]:
    """CG, one DCG term per rank, DCG, one IDCG term per rank of the ideal ranking holding a
    relevant document, IDCG, NDCG: every value from :mod:`rankviz.metrics`' worked tables.

    >>> steps = ndcg_steps(Exercise("ndcg", "x", rels=(3, 2, 3, 0, 1, 2)))
    >>> {s.label: round(s.expected, 3) for s in steps if s.label in ("DCG", "IDCG", "NDCG")}
    {'DCG': 13.848, 'IDCG': 14.595, 'NDCG': 0.949}
    """
    from rankviz.metrics import cumulative_gain_breakdown, dcg_breakdown, ideal_dcg_breakdown

    base = exercise.param("log_base", 2)
    # The metrics take a log base for the Järvelin discount only; log2(i + 1) in another base is a mistake's working.
    options = {"gain": exercise.gain, "discount": exercise.discount,
               "log_base": base if exercise.discount == "jarvelin" else 2}
    cg = cumulative_gain_breakdown(exercise.rels)
    steps = [Step("CG", float(cg.value), cg.latex.replace(r"\mathrm{CG} = ", ""), stage="Step 1: CG")]
    system = dcg_breakdown(exercise.rels, **options)
    how_ideal = exercise.param("idcg", "judged")
    if how_ideal == "unsorted":  # the mistake of not sorting: the ranking itself as "ideal"
        ideal = dcg_breakdown(exercise.rels, **options)
        ideal = replace(ideal, table=ideal.table.rename(columns={"rel": "ideal rel"}))
    else:
        judged = exercise.judged if how_ideal == "judged" else None
        ideal = ideal_dcg_breakdown(exercise.rels, judged=judged, **options)
    if base != 2 and exercise.discount == "log2":
        system, ideal = _rebased(system, base), _rebased(ideal, base)
    dcg_terms = _dcg_terms(system.table, "rel", exercise, "DCG", "Step 2: DCG")
    # Ideal ranks past the last relevant document add 0; they are left out so a long judged list stays short.
    useful = {int(r) for r, g in zip(ideal.table["rank"], ideal.table["ideal rel"]) if g > 0} or {1}
    idcg_terms = _dcg_terms(ideal.table, "ideal rel", exercise, "IDCG", "Step 3: IDCG", rows=useful)
    first_dcg, first_idcg = len(steps), len(steps) + len(dcg_terms) + 1
    steps += dcg_terms
    dcg_value = float(system.value)
    steps.append(Step("DCG", dcg_value,
                      " + ".join(tex_number(t.expected) for t in dcg_terms) + f" = {tex_number(dcg_value)}",
                      uses=tuple(range(first_dcg, first_dcg + len(dcg_terms))), rule="sum", stage="Step 2: DCG"))
    steps += idcg_terms
    idcg_value = float(ideal.value)
    steps.append(Step("IDCG", idcg_value,
                      " + ".join(tex_number(t.expected) for t in idcg_terms) + f" = {tex_number(idcg_value)}",
                      uses=tuple(range(first_idcg, first_idcg + len(idcg_terms))), rule="sum", stage="Step 3: IDCG"))
    value = dcg_value / idcg_value if idcg_value else 0.0
    steps.append(Step("NDCG", value, rf"\frac{{\mathrm{{DCG}}}}{{\mathrm{{IDCG}}}} = "
                                     rf"\frac{{{tex_number(dcg_value)}}}{{{tex_number(idcg_value)}}} = {tex_number(value)}",
                      uses=(first_dcg + len(dcg_terms), len(steps) - 1), rule="ratio", stage="Step 4: NDCG"))
    return steps


def _generate(rng, seed: int, *, gain: str = "exponential", discount: str = "log2") -> Exercise:
    if gain not in GAINS or discount not in DISCOUNTS:
        raise ValueError(f"gain must be one of {', '.join(GAINS)} and discount one of {', '.join(DISCOUNTS)}; "
                         f"got {gain!r} and {discount!r}.")
    n = rng.randint(5, 7)
    grades = [rng.randint(0, 3) for _ in range(n)]
    while max(grades) == 0 or grades == sorted(grades, reverse=True):
        rng.shuffle(grades)
        grades[rng.randrange(n)] = rng.randint(1, 3)
    title = f"Practice exercise {seed}: {KIND.title} ({variant_words(gain, discount)})"
    return Exercise("ndcg", title, rels=tuple(grades), gain=gain, discount=discount)


def _describe(exercise: Exercise) -> str:
    grades = ", ".join(format_number(g) for g in exercise.rels)
    judged = ""
    if exercise.judged is not None:
        judged = (f" The ideal ranking uses every judged grade of the query: "
                  f"{', '.join(format_number(g) for g in sorted(exercise.judged, reverse=True) if g > 0)}.")
    return (f"Grades in ranked order: {grades}; {variant_words(exercise.gain, exercise.discount)}.{judged} "
            f"Compute CG, the DCG term at each rank, DCG, the IDCG terms of the ideal ranking, IDCG and NDCG.")


def _from_preset(key: str):
    def build() -> Exercise:
        from rankviz.teaching.presets import get_preset

        preset = get_preset(key)
        return Exercise("ndcg", preset.title, rels=tuple(preset.rels), gain=preset.settings.get("gain", "linear"),
                        discount=preset.settings.get("discount", "log2"), judged=preset.judged,
                        source=preset.source, note=preset.note)
    return build


def _reference(exercise: Exercise) -> dict:
    from rankviz.metrics import cumulative_gain, dcg, ideal_dcg, ndcg

    options = {"gain": exercise.gain, "discount": exercise.discount}
    values = {"CG": cumulative_gain(exercise.rels), "DCG": dcg(exercise.rels, **options),
              "IDCG": ideal_dcg(exercise.rels, judged=exercise.judged, **options),
              "NDCG": ndcg(exercise.rels, judged=exercise.judged, **options)}
    for rank, grade in enumerate(exercise.rels, 1):  # a term is the DCG of the list with only that grade kept
        values[f"DCG term at rank {rank} (grade {tex_number(grade)})"] = dcg(
            [0] * (rank - 1) + [grade], **options)
    return values


KIND = register_kind(KindSpec(
    "ndcg", "CG, DCG, IDCG and NDCG", _generate, ndcg_steps, _describe, reference=_reference,
    options={"gain": GAINS, "discount": DISCOUNTS},
    presets={"ndcg_exercise": _from_preset("ndcg_exercise"), "q1_graded": _from_preset("q1_graded")}))


# ---------------------------------------------------------------------------- mistakes


def _swapped(field: str):
    def working(exercise, steps):
        return ndcg_steps(replace(exercise, **{field: _OTHER[getattr(exercise, field)]}))
    return working


def _only_when(condition, working):
    def guarded(exercise, steps):
        return working(exercise, steps) if condition(exercise) else None
    return guarded


def _ndcg_inverted(exercise, steps):
    last = steps[-1]
    dcg, idcg = steps[last.uses[0]].expected, steps[last.uses[1]].expected
    if not dcg:
        return None
    return steps[:-1] + [replace(last, expected=idcg / dcg, uses=(last.uses[1], last.uses[0]), alternatives=(),
                                 formula=rf"\frac{{\mathrm{{IDCG}}}}{{\mathrm{{DCG}}}} = \frac{{{tex_number(idcg)}}}"
                                         rf"{{{tex_number(dcg)}}} = {tex_number(idcg / dcg)}")]


register_mistake("ln_discount", "You used the natural logarithm ln in the discount; the formula takes log2.",
                 "ndcg", same_working_with(ndcg_steps, log_base=math.e))
register_mistake("log10_discount", "You used log10 in the discount; the formula takes log2.",
                 "ndcg", same_working_with(ndcg_steps, log_base=10))
register_mistake("log2_i_discount", "You divided by log2(i) (leaving rank 1 undiscounted); this discount is "
                                    "log2(i + 1), so rank 1 divides by log2(2) = 1 and rank 2 by log2(3).",
                 "ndcg", _only_when(lambda e: e.discount == "log2", _swapped("discount")))
register_mistake("log2_i_plus_1_discount", "You divided by log2(i + 1); this exercise uses the "
                                           "Järvelin-Kekäläinen discount max(1, log2 i).",
                 "ndcg", _only_when(lambda e: e.discount == "jarvelin", _swapped("discount")))
register_mistake("linear_for_exponential_gain", "You used the grade itself as the gain; this exercise uses the "
                                                "exponential gain 2^g − 1.",
                 "ndcg", _only_when(lambda e: e.gain == "exponential", _swapped("gain")))
register_mistake("exponential_for_linear_gain", "You used the exponential gain 2^g − 1; this exercise uses the "
                                                "grade itself (linear gain).",
                 "ndcg", _only_when(lambda e: e.gain == "linear", _swapped("gain")))
register_mistake("idcg_from_retrieved", "You built the ideal ranking from the retrieved documents only; IDCG "
                                        "sorts every judged document of the query, retrieved or not.",
                 "ndcg", _only_when(lambda e: e.judged is not None, same_working_with(ndcg_steps, idcg="retrieved")))
register_mistake("idcg_unsorted", "You computed IDCG on the ranking as given; the ideal ranking sorts the grades "
                                  "from highest to lowest first.", "ndcg", same_working_with(ndcg_steps, idcg="unsorted"))
register_mistake("ndcg_inverted", "You divided IDCG by DCG; NDCG is DCG / IDCG, never above 1.", "ndcg", _ndcg_inverted)
