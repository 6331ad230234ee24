"""Rank-correlation exercises: Spearman's rho from d² per document, and the mistakes made on the way.

``spearman`` exercises use ``items``, ``ranks_a`` (rank of each item in R1) and ``ranks_b``
(in R2), every item at its own rank.
"""

from __future__ import annotations

from dataclasses import replace

from rankviz.teaching.homework.core import Exercise, KindSpec, Step, register_kind, tex_number
from rankviz.teaching.homework.mistakes import register_mistake

__all__ = ["spearman_steps"]


def spearman_steps(exercise: Exercise) -> list[Step]:
    """d² = (s1 − s2)² per document (stage 1), Σd² (stage 2), ρ = 1 − 6 Σd² / (K (K² − 1)) (stage 3),
    every value from :func:`rankviz.metrics.spearman_rho_breakdown`.

    >>> round(spearman_steps(Exercise("spearman", "x", items=("a", "b", "c"), ranks_a=(1, 2, 3),
    ...                                ranks_b=(2, 1, 3)))[-1].expected, 3)
    0.5
    """
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
    steps = [Step(f"d² of {doc} (s1 = {tex_number(s1)}, s2 = {tex_number(s2)})", float(d2),
                  rf"({tex_number(s1)} - {tex_number(s2)})^2 = {tex_number(d2)}", stage="Step 1: d² per document")
             for doc, s1, s2, d2 in zip(table["doc"], table["s1"], table["s2"], table["d^2"])]
    total = float(worked.details["sum_d2"])
    steps.append(Step("Σd²", total, " + ".join(tex_number(s.expected) for s in steps) + f" = {tex_number(total)}",
                      uses=tuple(range(len(steps))), rule="sum", stage="Step 2: Σd²"))
    k = len(a)
    value = float(worked.value)
    steps.append(Step("ρ (Spearman)", value,
                      rf"1 - \frac{{6 \times {tex_number(total)}}}{{{k} \times ({k}^2 - 1)}} = {tex_number(value)}",
                      uses=(len(steps) - 1,), rule="spearman", scale=float(k * (k * k - 1)), stage="Step 3: ρ"))
    return steps


def _generate(rng, seed: int) -> Exercise:
    n = rng.randint(5, 8)
    order = list(range(1, n + 1))
    while order == sorted(order):
        rng.shuffle(order)
    return Exercise("spearman", f"Practice exercise {seed}: {KIND.title}", items=tuple(f"d{i}" for i in range(1, n + 1)),
                    ranks_a=tuple(range(1, n + 1)), ranks_b=tuple(order))


def _describe(exercise: Exercise) -> str:
    pairs = ", ".join(f"{d} ({a}, {b})" for d, a, b in zip(exercise.items, exercise.ranks_a, exercise.ranks_b))
    return (f"Documents with (rank in R1, rank in R2): {pairs}. Compute d² = (s1 − s2)² for each document, "
            f"then Σd² and ρ = 1 − 6 Σd² / (K (K² − 1)).")


def _from_preset() -> Exercise:
    from rankviz.teaching.presets import get_preset

    preset = get_preset("srcc_exercise")
    return Exercise("spearman", preset.title, items=tuple(preset.doc_ids), ranks_a=tuple(preset.ranks_a),
                    ranks_b=tuple(preset.ranks_b), source=preset.source, note=preset.note)


def _reference(exercise: Exercise) -> dict:
    from rankviz.metrics import spearman_rho

    return {"ρ (Spearman)": spearman_rho(list(exercise.ranks_a), list(exercise.ranks_b))}


KIND = register_kind(KindSpec("spearman", "Spearman's rank correlation (rho)", _generate, spearman_steps, _describe,
                              presets={"srcc_exercise": _from_preset}, reference=_reference))


# ---------------------------------------------------------------------------- mistakes


def _with_differences(how: str):
    """d² replaced by d itself (``signed``) or by |d|: the sum and rho then follow the same formulas."""
    def working(exercise, steps):
        n = len(exercise.items)
        differences = [float(a - b) for a, b in zip(exercise.ranks_a, exercise.ranks_b)]
        values = differences if how == "signed" else [abs(d) for d in differences]
        mistaken = [replace(step, expected=value, alternatives=(),
                            formula=(rf"{tex_number(a)} - {tex_number(b)} = {tex_number(value)}" if how == "signed"
                                     else rf"|{tex_number(a)} - {tex_number(b)}| = {tex_number(value)}"))
                    for step, value, a, b in zip(steps[:n], values, exercise.ranks_a, exercise.ranks_b)]
        total = sum(values)
        mistaken.append(replace(steps[n], expected=total, alternatives=(),
                                formula=" + ".join(tex_number(v) for v in values) + f" = {tex_number(total)}"))
        rho = 1 - 6 * total / steps[n + 1].scale
        mistaken.append(replace(steps[n + 1], expected=rho, alternatives=(),
                                formula=rf"1 - \frac{{6 \times {tex_number(total)}}}{{{n} \times ({n}^2 - 1)}} = "
                                        rf"{tex_number(rho)}"))
        return mistaken
    return working


def _denominator(scale_of, formula_of):
    def working(exercise, steps):
        n = len(exercise.items)
        last = steps[-1]
        total = steps[last.uses[0]].expected
        scale = scale_of(n)
        rho = 1 - 6 * total / scale
        return steps[:-1] + [replace(last, expected=rho, scale=float(scale), alternatives=(),
                                     formula=rf"1 - \frac{{6 \times {tex_number(total)}}}{{{formula_of(n)}}} = "
                                             rf"{tex_number(rho)}")]
    return working


def _without_one_minus(exercise, steps):
    last = steps[-1]
    total = steps[last.uses[0]].expected
    value = 6 * total / last.scale
    n = len(exercise.items)
    return steps[:-1] + [replace(last, expected=value, rule="", uses=(), alternatives=(),
                                 formula=rf"\frac{{6 \times {tex_number(total)}}}{{{n} \times ({n}^2 - 1)}} = "
                                         rf"{tex_number(value)}")]


register_mistake("spearman_d_not_squared", "You added the differences d = s1 − s2 without squaring them; they "
                                           "always add up to 0. Square each one: d².",
                 "spearman", _with_differences("signed"))
register_mistake("spearman_absolute_d", "You added |d| instead of d²: square each difference, so a document two "
                                        "ranks away counts 4, not 2.", "spearman", _with_differences("absolute"))
register_mistake("spearman_denominator_k2_minus_1", "You divided by K² − 1; the denominator is K (K² − 1).",
                 "spearman", _denominator(lambda n: n * n - 1, lambda n: f"{n}^2 - 1"))
register_mistake("spearman_without_one_minus", "You stopped at 6 Σd² / (K (K² − 1)); ρ is 1 minus that.",
                 "spearman", _without_one_minus)
