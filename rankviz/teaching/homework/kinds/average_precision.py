"""Average precision of one ranking: P@i down the ranking, then AP, and the mistakes made on the way.

``ap`` exercises use ``rels`` (binary: grade >= 1 is relevant) and ``n_relevant`` (R, the
relevant documents of the whole collection; None: the relevant documents retrieved).
"""

from __future__ import annotations

from dataclasses import replace

from rankviz.teaching.homework.core import Exercise, binary_ranking_words, KindSpec, Step, register_kind, tex_number
from rankviz.teaching.homework.mistakes import register_mistake

__all__ = ["ap_steps"]


def ap_steps(exercise: Exercise) -> list[Step]:
    """P@i at every rank (stage 1), then AP = (1/R) Σ P@i over the relevant ranks (stage 2),
    every value from :func:`rankviz.metrics.average_precision_breakdown`.

    >>> [round(s.expected, 3) for s in ap_steps(Exercise("ap", "x", rels=(1, 0, 1, 0, 0, 1), n_relevant=3))][-1]
    0.722
    """
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
                          rf"\frac{{{int(hits)}}}{{{int(rank)}}} = {tex_number(precision)}", stage="Step 1: P@i"))
    n_rel = int(worked.details["n_relevant"])
    value = float(worked.value)
    terms = " + ".join(tex_number(steps[i].expected) for i in relevant_steps) or "0"
    steps.append(Step("AP", value, rf"\frac{{1}}{{{n_rel}}}\left({terms}\right) = {tex_number(value)}",
                      uses=tuple(relevant_steps), rule="sum", scale=float(max(n_rel, 1)), stage="Step 2: AP"))
    return steps


def _generate(rng, seed: int) -> Exercise:
    n = rng.randint(6, 10)
    grades = [int(rng.random() < 0.4) for _ in range(n)]
    if not any(grades):
        grades[rng.randrange(n)] = 1
    return Exercise("ap", f"Practice exercise {seed}: {KIND.title}", rels=tuple(grades),
                    n_relevant=sum(grades) + rng.randint(0, 2))


def _describe(exercise: Exercise) -> str:
    return (f"{binary_ranking_words(exercise.rels, exercise.n_relevant)} Compute P@i at every rank i, then "
            f"AP = (1/R) Σ P@i over the relevant ranks.")


def _from_preset(key: str):
    def build() -> Exercise:
        from rankviz.teaching.presets import get_preset

        preset = get_preset(key)
        return Exercise("ap", preset.title, rels=tuple(preset.rels), n_relevant=preset.n_relevant,
                        source=preset.source, note=preset.note)
    return build


def _reference(exercise: Exercise) -> dict:
    from rankviz.metrics import average_precision, precision

    values = {"AP": average_precision(exercise.rels, n_relevant=exercise.n_relevant)}
    for rank, grade in enumerate(exercise.rels, 1):
        values[f"P@{rank} ({'relevant' if grade >= 1 else 'not relevant'})"] = precision(exercise.rels, rank)
    return values


KIND = register_kind(KindSpec(
    "ap", "P@i down the ranking and average precision (AP)", _generate, ap_steps, _describe, reference=_reference,
    presets={key: _from_preset(key) for key in ("ap_positions_1_3_6", "q1_binary", "q2_binary")}))


# ---------------------------------------------------------------------------- mistakes


def _hits(exercise: Exercise) -> int:
    return sum(1 for grade in exercise.rels if grade >= 1)


def _divided_by(count):
    def working(exercise, steps):
        n = count(exercise)
        if n == (exercise.n_relevant if exercise.n_relevant is not None else _hits(exercise)) or n <= 0:
            return None
        return ap_steps(replace(exercise, n_relevant=n))
    return working


def _averaged_every_rank(exercise, steps):
    last = steps[-1]
    every = tuple(range(len(steps) - 1))
    value = sum(steps[i].expected for i in every) / len(every)
    terms = " + ".join(tex_number(steps[i].expected) for i in every)
    return steps[:-1] + [replace(last, expected=value, uses=every, scale=float(len(every)), alternatives=(),
                                 formula=rf"\frac{{1}}{{{len(every)}}}\left({terms}\right) = {tex_number(value)}")]


def _recall_for_precision(exercise, steps):
    n_rel = exercise.n_relevant if exercise.n_relevant is not None else _hits(exercise)
    if not n_rel:
        return None
    mistaken = []
    hits = 0
    for rank, grade in enumerate(exercise.rels, 1):
        hits += grade >= 1
        step = steps[rank - 1]
        mistaken.append(replace(step, expected=hits / n_rel, alternatives=(),
                                formula=rf"\frac{{{hits}}}{{{n_rel}}} = {tex_number(hits / n_rel)}"))
    return mistaken + [replace(steps[-1], expected=sum(mistaken[i].expected for i in steps[-1].uses) / steps[-1].scale,
                               alternatives=())]


register_mistake("ap_divided_by_retrieved_relevant", "You divided by the relevant documents you retrieved; AP "
                                                     "divides by R, every relevant document of the query (a relevant "
                                                     "document never retrieved adds a precision of 0).",
                 "ap", _divided_by(_hits))
register_mistake("ap_divided_by_k", "You divided by the length of the ranking; AP divides the sum of P@i at the "
                                    "relevant ranks by R, the number of relevant documents.",
                 "ap", _divided_by(lambda exercise: len(exercise.rels)))
register_mistake("ap_every_rank", "You averaged P@i over every rank; AP adds P@i only at the ranks of relevant "
                                  "documents, then divides by R.", "ap", _averaged_every_rank)
register_mistake("ap_recall_for_precision", "You divided the relevant documents so far by R (that is recall at i); "
                                            "P@i divides them by i, the number of documents seen.",
                 "ap", _recall_for_precision)
