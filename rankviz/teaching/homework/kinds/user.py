"""User-oriented measures (lecture 002, "User-oriented Metrics"): coverage, novelty, relative recall,
recall effort and expected search length on one answer list, and the mistakes made on the way.

``user`` exercises keep in ``params``: ``docs`` (the answer set A, in the order shown),
``levels`` (the tie level of each rank: documents of a level share a score and come in random
order), ``relevant`` (R, the relevant documents, some never retrieved), ``known`` (K, the
documents the user already knew of), ``expected`` (how many relevant documents the user
expected to find: relative recall) and ``wanted`` (how many relevant documents the user wants:
recall effort and expected search length).
"""

from __future__ import annotations

from dataclasses import replace

from rankviz.i18n import N_
from rankviz.i18n import _ as translate
from rankviz.teaching.homework.core import (Exercise, InputError, KindSpec, OwnInput, Step, TranslatedWords,
    check_length, english_title, register_kind, tex_number)
from rankviz.teaching.homework.mistakes import register_mistake
from rankviz.teaching.homework.words import register_title_templates

__all__ = ["user_steps"]

COVERAGE = ("|K ∩ R| (known relevant)", "|K ∩ R ∩ A| (known relevant retrieved)", "coverage")
NOVELTY = ("|R ∩ A| (relevant retrieved)", "|(R ∩ A) − K| (relevant retrieved, new to the user)", "novelty")
RELATIVE = "relative recall"
EFFORT = "recall effort"
ESL_PARTS = ("j: non-relevant in the levels read in full", "r: relevant in the last level read",
             "i: non-relevant in the last level read", "s: relevant still wanted from the last level")
ESL = "expected search length"

# What a student reads: the step hints and the inputs of their own exercise, in the textbooks' words
# (Baeza-Yates & Ribeiro-Neto's coverage and novelty ratios, Korfhage's relative recall and recall effort,
# Cooper's expected search length).
TEXTS = TranslatedWords({
    "known_relevant_hint": N_("Count the relevant documents the user already knew: |K ∩ R|."),
    "known_retrieved_hint": N_("Of those, count the ones the system retrieved: |K ∩ R ∩ A|."),
    "coverage_hint": N_("Coverage is the share of the relevant documents the user knew that were retrieved: "
                     "$\\frac{{|K \\cap R \\cap A|}}{{|K \\cap R|}}$."),
    "found_hint": N_("Count the relevant documents retrieved: |R ∩ A|."),
    "new_hint": N_("Of those, count the ones the user did not know: |(R ∩ A) − K|."),
    "novelty_hint": N_("Novelty is the share of the relevant documents retrieved that were new to the user: "
                    "$\\frac{{|(R \\cap A) - K|}}{{|R \\cap A|}}$."),
    "relative_hint": N_("Relative recall is the relevant documents found over those the user expected to find, at most 1: "
                     "$\\min\\left(1, \\frac{{\\#\\text{{found}}}}{{\\#\\text{{expected}}}}\\right)$."),
    "examined_hint": N_("Read the answer in the order shown and count the documents until the {wanted}-th relevant "
                        "one."),
    "effort_hint": N_("Recall effort is the relevant documents wanted over the documents examined to find them: "
                   "$\\frac{{\\#\\text{{wanted}}}}{{\\#\\text{{examined}}}}$."),
    "esl_part_hint": N_("Within the levels (documents of one level tie and come in random order): {what}."),
    "esl_hint": N_("Cooper's expected search length, the non-relevant documents expected before the wanted relevant "
                "ones: $j + \\frac{{i \\cdot s}}{{r + 1}}$."),
    "answer": N_("A: the documents the system shows, in the order shown (e.g. d5 d3 d21 d36)."),
    "tie_levels": N_("The tie level of each document of A, in the same order: documents of one level share a score and "
                  "come in random order (blank: each document its own level)."),
    "relevant": N_("R: every relevant document of the query, retrieved or not."),
    "known": N_("K: the relevant documents the user already knew before the search."),
    "expected": N_("How many relevant documents the user expected to find (relative recall's denominator)."),
    "wanted": N_("How many relevant documents the user wants (recall effort and expected search length)."),
    "title": N_("Your answer list of {count} documents: coverage, novelty, relative recall, recall effort, expected "
             "search length"),
    "answer_header": N_('| rank | doc | level |'),
    "describe": N_('The system answers with A, {n} documents in the order shown; documents of one level tie (same '
                   'score), so the system returns them in random order.\n\n{table}\n\nR (relevant) = {relevant}; K '
                   '(known to the user) = {known}.\n\nCompute coverage = |K ∩ R ∩ A| / |K ∩ R| and novelty = |(R ∩ '
                   'A) − K| / |R ∩ A|; relative recall = # found / # expected when the user, reading all of A, '
                   'expected to find {expected} relevant documents; recall effort = # wanted / # examined for a user '
                   'who wants {wanted} relevant documents and reads A in the order shown; and the expected search '
                   'length (non-relevant documents seen before {wanted} relevant ones when each level comes in '
                   'random order): j + i s / (r + 1).'),
})
_ESL_WHAT = ("j, the non-relevant documents in the levels read in full", "r, the relevant documents in the last "
             "level read", "i, the non-relevant documents in the last level read", "s, the relevant documents still "
             "wanted from the last level")


def _examined_label(wanted: int) -> str:
    return f"documents examined until {wanted} relevant are found"


def _ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, 21st.

    >>> [_ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st']
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _given(exercise: Exercise):
    for name in ("docs", "relevant", "known", "levels"):
        if isinstance(exercise.param(name, ()), (str, bytes)):  # bad input is a ValueError, as in rankviz.metrics
            raise ValueError(translate(N_("{name} must be a list of document ids (or levels), such as ('d1', 'd3'), "
                                          "not the string {exercise_param_name}.")).format(
                name=repr(name), exercise_param_name=repr(exercise.param(name))))
    docs = tuple(exercise.param("docs", ()))
    levels = tuple(exercise.param("levels", ())) or tuple(range(1, len(docs) + 1))
    relevant, known = tuple(exercise.param("relevant", ())), tuple(exercise.param("known", ()))
    expected, wanted = exercise.param("expected"), exercise.param("wanted")
    if len(set(docs)) != len(docs):
        raise InputError("answer", translate(N_('The answer list names a document twice; each document is shown once.')))
    # A sheet asking only coverage and novelty gives neither: relative recall, recall effort and ESL are then left out.
    return docs, levels, relevant, known, expected, wanted


def _strip(latex: str) -> str:
    """A breakdown's formula without its leading ``name =``."""
    return latex.split(" = ", 1)[1] if " = " in latex else latex


def user_steps(exercise: Exercise) -> list[Step]:
    """Coverage (|K ∩ R|, |K ∩ R ∩ A|, their ratio), novelty (|R ∩ A|, |(R ∩ A) − K|, their ratio),
    relative recall (# found / # expected, capped at 1), recall effort (the documents examined
    in the order shown until ``wanted`` relevant are found, then # wanted / # examined) and
    Cooper's expected search length over the tie levels (j, r, i, s, then j + i s / (r + 1)).
    Values from :mod:`rankviz.metrics`' coverage, novelty, relative recall, recall effort and
    expected search length breakdowns.

    >>> exercise = Exercise("user", "x", params={
    ...     "docs": ("d1", "d2", "d3", "d4", "d5"), "levels": (1, 1, 2, 2, 2), "relevant": ("d2", "d5", "d9"),
    ...     "known": ("d2", "d9"), "expected": 3, "wanted": 2})
    >>> {s.label: round(s.expected, 3) for s in user_steps(exercise)
    ...  if s.label in ("coverage", "novelty", "relative recall", "recall effort", "expected search length")}
    {'coverage': 0.5, 'novelty': 0.5, 'relative recall': 0.667, 'recall effort': 0.4, 'expected search length': 2.0}
    """
    from rankviz.metrics import (
        coverage_breakdown,
        expected_search_length_breakdown,
        novelty_breakdown,
        recall_effort_breakdown,
        relative_recall_breakdown,
    )

    docs, levels, relevant, known, expected, wanted = _given(exercise)
    check_length(len(docs), N_("documents"))
    covered = coverage_breakdown(relevant, docs, known)
    known_relevant, known_retrieved = int(covered.table["K ∩ R"].sum()), int(covered.table["K ∩ R ∩ A"].sum())
    stage = "Step 1: coverage"
    steps = [Step(COVERAGE[0], float(known_relevant), f"{known_relevant}", stage=stage),
             Step(COVERAGE[1], float(known_retrieved), f"{known_retrieved}", stage=stage),
             Step(COVERAGE[2], float(covered.value), _strip(covered.latex), uses=(1, 0), rule="ratio", stage=stage)]
    new = novelty_breakdown(relevant, docs, known)
    found, unknown = int(new.table["R ∩ A"].sum()), int(new.table["(R ∩ A) − K"].sum())
    stage = "Step 2: novelty"
    steps += [Step(NOVELTY[0], float(found), f"{found}", stage=stage),
              Step(NOVELTY[1], float(unknown), f"{unknown}", stage=stage),
              Step(NOVELTY[2], float(new.value), _strip(new.latex), uses=(4, 3), rule="ratio", stage=stage)]
    if expected is not None:
        relative = relative_recall_breakdown(found, expected)
        capped = found > expected
        steps.append(Step(RELATIVE, float(relative.value), _strip(relative.latex), uses=() if capped else (3,),
                          rule="" if capped else "sum", scale=float(expected), stage="Step 3: relative recall"))
    if wanted is None:
        return _with_hints(steps, wanted)
    rels = [int(doc in set(relevant)) for doc in docs]
    if sum(rels) < wanted:
        raise InputError("wanted", translate(N_('The user wants {wanted} relevant documents but the answer holds '
                                                '{sum_rels}; recall effort needs them all found.')).format(
            wanted=wanted, sum_rels=sum(rels)))
    examined = next(rank for rank in range(1, len(rels) + 1) if sum(rels[:rank]) == wanted)
    effort = recall_effort_breakdown(wanted, examined)
    stage = "Step 4: recall effort"
    steps += [Step(_examined_label(wanted), float(examined), f"{examined}\\ \\ \\text{{(rank of the {_ordinal(wanted)} "
                                                                   f"relevant document shown)}}", stage=stage),
              Step(EFFORT, float(effort.value), _strip(effort.latex), uses=(len(steps),), rule="reciprocal",
                   scale=float(wanted), stage=stage)]
    search = expected_search_length_breakdown(rels, wanted=wanted, levels=list(levels))
    if search.details["exhausted"]:
        raise ValueError(translate(N_('Expected search length needs the wanted relevant documents in the list.')))
    stage = "Step 5: expected search length"
    for label, key in zip(ESL_PARTS, ("j", "r", "i", "s")):
        value = search.details[key]
        steps.append(Step(label, float(value), f"{value}", stage=stage))
    steps.append(Step(ESL, float(search.value), _strip(search.latex), stage=stage))
    return _with_hints(steps, wanted)


def _with_hints(steps: list[Step], wanted) -> list[Step]:
    """Each step with the first rung of its hint ladder (:data:`TEXTS`), found by its label."""
    words = {COVERAGE[0]: TEXTS["known_relevant_hint"], COVERAGE[1]: TEXTS["known_retrieved_hint"],
             COVERAGE[2]: TEXTS["coverage_hint"].format(), NOVELTY[0]: TEXTS["found_hint"], NOVELTY[1]: TEXTS["new_hint"],
             NOVELTY[2]: TEXTS["novelty_hint"].format(), RELATIVE: TEXTS["relative_hint"].format(),
             _examined_label(wanted or 0): TEXTS["examined_hint"].format(wanted=wanted), EFFORT: TEXTS["effort_hint"].format(),
             ESL: TEXTS["esl_hint"].format(),
             **{label: TEXTS["esl_part_hint"].format(what=what) for label, what in zip(ESL_PARTS, _ESL_WHAT)}}
    return [replace(step, hint=words.get(step.label, "")) for step in steps]


def _generate(rng, seed: int) -> Exercise:
    n = rng.randint(8, 10)
    names = [f"d{i}" for i in rng.sample(range(1, 60), n + 2)]
    docs, elsewhere = names[:n], names[n:]
    while True:
        n_found = rng.randint(3, 5)
        rels = [1] * n_found + [0] * (n - n_found)
        rng.shuffle(rels)
        wanted = rng.randint(2, n_found)
        sizes = []
        while sum(sizes) < n:
            sizes.append(min(rng.choice((1, 2, 2, 3, 3)), n - sum(sizes)))
        levels = [level for level, size in enumerate(sizes, 1) for _ in range(size)]
        last = levels[[i for i, rel in enumerate(rels) if rel][wanted - 1]]
        # The level where the wanted-th relevant document lies holds a non-relevant one too: the formula matters.
        if any(not rel and level == last for rel, level in zip(rels, levels)):
            break
    found = [doc for doc, rel in zip(docs, rels) if rel]
    missed = elsewhere[:rng.randint(1, 2)]
    known = rng.sample(found, rng.randint(1, n_found - 1)) + rng.sample(missed, rng.randint(0, len(missed)))
    if rng.random() < 0.5:
        known.append(rng.choice([doc for doc, rel in zip(docs, rels) if not rel]))  # known, but not relevant
    relevant = sorted(found + missed, key=lambda d: int(d[1:]))
    known = sorted(known, key=lambda d: int(d[1:]))
    return Exercise("user", f"Practice exercise {seed}: {english_title(KIND)}",
                    params={"docs": tuple(docs), "levels": tuple(levels), "relevant": tuple(relevant),
                            "known": tuple(known), "expected": n_found + rng.choice((-1, 1, 1, 2, 2, 3)),
                            "wanted": wanted})


def _describe(exercise: Exercise) -> str:
    docs, levels, relevant, known, expected, wanted = _given(exercise)
    if expected is None or wanted is None:
        return _describe_sets(docs, relevant, known, expected, wanted)
    # One row per rank: a phone shows every column however long the answer.
    table = "\n".join([TEXTS["answer_header"], "|---|---|---|",
                       *(f"| {rank} | {doc} | {level} |" for rank, (doc, level) in enumerate(zip(docs, levels), 1))])
    return TEXTS["describe"].format(n=len(docs), table=table, relevant="{" + ", ".join(relevant) + "}",
                                    known="{" + ", ".join(known) + "}", expected=expected, wanted=wanted)


def _describe_sets(docs, relevant, known, expected, wanted) -> str:
    """What a sheet asking fewer measures gives: the sets, and the number expected or wanted when it gives one."""
    text = (f"The system answers with A = ({', '.join(docs)}), in the order shown. R (relevant) = "
            f"{{{', '.join(relevant)}}}; K (known to the user) = {{{', '.join(known)}}}.\n\n"
            f"Compute coverage = |K ∩ R ∩ A| / |K ∩ R| and novelty = |(R ∩ A) − K| / |R ∩ A|")
    if expected is not None:
        text += f"; relative recall = # found / # expected, the user expecting {expected} relevant documents"
    if wanted is not None:
        text += (f"; recall effort = # wanted / # examined and the expected search length j + i s / (r + 1), the "
                 f"user wanting {wanted} relevant documents")
    return text + "."


def _reference(exercise: Exercise) -> dict:
    from rankviz.metrics import coverage, expected_search_length, novelty, recall_effort, relative_recall

    docs, levels, relevant, known, expected, wanted = _given(exercise)
    if expected is None or wanted is None:
        found = len(set(relevant) & set(docs))
        values = {"|K ∩ R| (known relevant)": len(set(known) & set(relevant)),
                  "|K ∩ R ∩ A| (known relevant retrieved)": len(set(known) & set(relevant) & set(docs)),
                  "|R ∩ A| (relevant retrieved)": found,
                  "|(R ∩ A) − K| (relevant retrieved, new to the user)": len((set(relevant) & set(docs)) - set(known)),
                  "coverage": coverage(relevant, docs, known), "novelty": novelty(relevant, docs, known)}
        if expected is not None:
            values[RELATIVE] = relative_recall(found, expected)
        if wanted is not None:
            full = _reference(exercise.with_params(expected=max(found, 1)))
            values.update({label: value for label, value in full.items() if label != RELATIVE})
        return values
    rels = [int(doc in set(relevant)) for doc in docs]
    # In the order shown (each rank its own level) the examined documents are the non-relevant ones skipped plus
    # the wanted relevant ones.
    examined = int(expected_search_length(rels, wanted=wanted)) + wanted
    from rankviz.metrics import expected_search_length_breakdown

    relevant_set, known_set, answer = set(relevant), set(known), set(docs)
    esl = expected_search_length_breakdown(rels, wanted=wanted, levels=list(levels)).details
    counts = {"|K ∩ R| (known relevant)": len(known_set & relevant_set),
              "|K ∩ R ∩ A| (known relevant retrieved)": len(known_set & relevant_set & answer),
              "|R ∩ A| (relevant retrieved)": len(relevant_set & answer),
              "|(R ∩ A) − K| (relevant retrieved, new to the user)": len((relevant_set & answer) - known_set),
              "j: non-relevant in the levels read in full": esl["j"], "r: relevant in the last level read": esl["r"],
              "i: non-relevant in the last level read": esl["i"], "s: relevant still wanted from the last level": esl["s"]}
    return {**counts, "coverage": coverage(relevant, docs, known), "novelty": novelty(relevant, docs, known),
            RELATIVE: relative_recall(len(set(relevant) & set(docs)), expected), _examined_label(wanted): examined,
            EFFORT: recall_effort(wanted, examined), ESL: expected_search_length(rels, wanted=wanted,
                                                                                 levels=list(levels))}


def _own(*, answer, relevant, expected=None, wanted=None, known=None, tie_levels=None) -> Exercise:
    if tie_levels is not None and len(tie_levels) != len(answer):
        raise InputError("tie_levels", translate(N_('Give the level of each document of A: {len_answer} documents, '
                                                    '{len_tie_levels} levels.')).format(
            len_answer=len(answer), len_tie_levels=len(tie_levels)))
    if tie_levels is not None and list(tie_levels) != sorted(tie_levels):
        raise InputError("tie_levels", translate(N_('The levels go down the answer in order (1 1 2 2 3): a level is '
                                                    'a run of tied documents.')))
    return Exercise("user", TEXTS.source["title"].format(count=len(answer)),
                    params={"docs": tuple(answer), "levels": tuple(tie_levels or ()), "relevant": tuple(relevant),
                            "known": tuple(known or ()), "expected": expected, "wanted": wanted})


INPUTS = (
    OwnInput("answer", N_("A (the answer, in the order shown)"), TEXTS.source["answer"], "names", required=True,
             example="d5 d3 d21 d36 d30"),
    OwnInput("tie_levels", N_("Tie level of each document"), TEXTS.source["tie_levels"], "ints", blank=N_("no ties")),
    OwnInput("relevant", N_("R (relevant documents)"), TEXTS.source["relevant"], "names", required=True, example="d3 d12 d21"),
    OwnInput("known", N_("K (known to the user)"), TEXTS.source["known"], "names", blank=N_("none")),
    OwnInput("expected", N_("Relevant documents expected"), TEXTS.source["expected"], "int", blank=N_("no relative recall"),
             example="3"),
    OwnInput("wanted", N_("Relevant documents wanted"), TEXTS.source["wanted"], "int",
             blank=N_("no recall effort nor expected search length"), example="2"),
)

KIND = register_kind(KindSpec(
    "user", N_("User-oriented measures: coverage, novelty, relative recall, recall effort, expected search length"),
    _generate, user_steps, _describe, reference=_reference,
    metrics=("coverage", "novelty", "relative_recall", "recall_effort",
             "expected_search_length"), inputs=INPUTS, own=_own))


# ---------------------------------------------------------------------------- mistakes


def _at(steps, label: str) -> int:
    """The index of the step ``label``; ValueError when this working has none (a sheet without that measure)."""
    found = next((i for i, step in enumerate(steps) if step.label == label), None)
    if found is None:
        raise ValueError(translate(N_('No step {label} in this working.')).format(label=repr(label)))
    return found


def _changed(steps, label: str, value: float, formula: str, *, rule: str = "", uses: tuple = (),
             scale: float = 1.0) -> list[Step]:
    """``steps`` with the step ``label`` giving ``value`` (and, with ``rule``, recomputed that way from ``uses``)."""
    i = _at(steps, label)
    mistaken = list(steps)
    mistaken[i] = replace(steps[i], expected=float(value), formula=formula, rule=rule, uses=uses, scale=scale,
                          alternatives=())
    return mistaken


def _fraction(numerator, denominator) -> str:
    return rf"\frac{{{tex_number(numerator)}}}{{{tex_number(denominator)}}} = {tex_number(numerator / denominator)}"


def _swapped(exercise, steps):
    coverage, novelty = steps[_at(steps, COVERAGE[2])], steps[_at(steps, NOVELTY[2])]
    mistaken = _changed(steps, COVERAGE[2], novelty.expected, novelty.formula)
    return _changed(mistaken, NOVELTY[2], coverage.expected, coverage.formula)


def _ratio_over(label: str, numerator_label: str, count):
    """The ratio ``label`` with the right numerator over the wrong set ``count(exercise)``."""
    def working(exercise, steps):
        denominator = count(exercise)
        numerator = steps[_at(steps, numerator_label)].expected
        if not denominator:
            return None
        return _changed(steps, label, numerator / denominator, _fraction(numerator, denominator), rule="sum",
                        uses=(_at(steps, numerator_label),), scale=float(denominator))
    return working


def _answer_size(exercise):
    return len(_given(exercise)[0])


def _relevant_size(exercise):
    return len(set(_given(exercise)[2]))


def _coverage_all_known(exercise, steps):
    docs, _, relevant, known, _, _ = _given(exercise)
    if set(known) <= set(relevant):
        return None
    everything, retrieved = len(set(known)), len(set(known) & set(docs))
    mistaken = _changed(steps, COVERAGE[0], everything, rf"|K| = {everything}")
    mistaken = _changed(mistaken, COVERAGE[1], retrieved, rf"|K \cap A| = {retrieved}")
    return _changed(mistaken, COVERAGE[2], retrieved / everything, _fraction(retrieved, everything), rule="ratio",
                    uses=steps[_at(steps, COVERAGE[2])].uses)


def _novelty_counted_known(exercise, steps):
    docs, _, relevant, known, _, _ = _given(exercise)
    old = len(set(relevant) & set(docs) & set(known))
    found = steps[_at(steps, NOVELTY[0])].expected
    mistaken = _changed(steps, NOVELTY[1], old, rf"|R \cap A \cap K| = {old}")
    return _changed(mistaken, NOVELTY[2], old / found, _fraction(old, found), rule="ratio",
                    uses=steps[_at(steps, NOVELTY[2])].uses)


def _relative_recall(how: str):
    def working(exercise, steps):
        _, _, relevant, _, expected, _ = _given(exercise)
        if expected is None:
            return None
        found_at = _at(steps, NOVELTY[0])
        found = steps[found_at].expected
        if how == "inverted":
            if not found:
                return None
            return _changed(steps, RELATIVE, expected / found, _fraction(expected, found), rule="reciprocal",
                            uses=(found_at,), scale=float(expected))
        denominator = len(set(relevant)) if how == "all relevant" else expected
        if how == "not capped" and found <= expected:
            return None
        return _changed(steps, RELATIVE, found / denominator, _fraction(found, denominator), rule="sum",
                        uses=(found_at,), scale=float(denominator))
    return working


def _effort_inverted(exercise, steps):
    wanted = _given(exercise)[5]
    examined_at = _at(steps, _examined_label(wanted))
    examined = steps[examined_at].expected
    return _changed(steps, EFFORT, examined / wanted, _fraction(examined, wanted), rule="sum", uses=(examined_at,),
                    scale=float(wanted))


def _effort_whole_list(exercise, steps):
    docs, wanted = _given(exercise)[0], _given(exercise)[5]
    if wanted is None:
        return None
    return _changed(steps, EFFORT, wanted / len(docs), _fraction(wanted, len(docs)))


def _esl_parts(steps) -> tuple[float, float, float, float]:
    return tuple(steps[_at(steps, label)].expected for label in ESL_PARTS)


def _esl_with(value_of, formula_of, j_change=None):
    """ESL computed the mistaken way from (j, r, i, s, wanted); ``j_change`` also rewrites the j step."""
    def working(exercise, steps):
        j, r, i, s = _esl_parts(steps)
        wanted = _given(exercise)[5]
        mistaken = list(steps)
        if j_change is not None:
            new_j, formula = j_change(j, s, wanted)
            mistaken = _changed(mistaken, ESL_PARTS[0], new_j, formula)
            j = new_j
        value = value_of(j, r, i, s, wanted)
        if value is None:
            return None
        return _changed(mistaken, ESL, value, formula_of(j, r, i, s, wanted) + f" = {tex_number(value)}")
    return working


def _j_with_relevant(j, s, wanted):
    """j counting the relevant documents of the levels read in full too (wanted − s of them)."""
    return j + wanted - s, rf"{tex_number(j)} + {tex_number(wanted - s)}\ \ \text{{(relevant ones too)}}"


def _esl_all_wanted(exercise, steps):
    j, r, i, s = _esl_parts(steps)
    wanted = _given(exercise)[5]
    if s == wanted:
        return None
    mistaken = _changed(steps, ESL_PARTS[3], wanted, f"{wanted}")
    value = j + i * wanted / (r + 1)
    return _changed(mistaken, ESL, value, rf"{tex_number(j)} + \frac{{{tex_number(i)} \cdot {wanted}}}"
                                          rf"{{{tex_number(r)} + 1}} = {tex_number(value)}")


def _esl_in_order_shown(exercise, steps):
    wanted = _given(exercise)[5]
    examined = steps[_at(steps, _examined_label(wanted))].expected
    return _changed(steps, ESL, examined - wanted, rf"{tex_number(examined)} - {wanted} = "
                                                   rf"{tex_number(examined - wanted)}\ \ \text{{(order shown)}}")


register_mistake("user_coverage_novelty_swapped", N_("You swapped coverage and novelty: coverage is the share of the "
                                                  "relevant documents the user knew that were retrieved, novelty the "
                                                  "share of the relevant retrieved ones the user did not know."),
                 "user", _swapped)
register_mistake("coverage_divided_by_answer", N_("You divided coverage by the documents retrieved |A|; coverage divides "
                                               "by |K ∩ R|, the relevant documents the user knew."),
                 "user", _ratio_over(COVERAGE[2], COVERAGE[1], _answer_size))
register_mistake("coverage_divided_by_relevant", N_("You divided coverage by every relevant document |R|; coverage "
                                                 "divides by |K ∩ R|, only the relevant documents the user knew."),
                 "user", _ratio_over(COVERAGE[2], COVERAGE[1], _relevant_size))
register_mistake("coverage_all_known", N_("You counted documents the user knew that are not relevant; coverage counts "
                                       "only the known documents that are relevant, K ∩ R."),
                 "user", _coverage_all_known)
register_mistake("novelty_divided_by_answer", N_("You divided novelty by the documents retrieved |A|; novelty divides "
                                              "by |R ∩ A|, the relevant documents retrieved."),
                 "user", _ratio_over(NOVELTY[2], NOVELTY[1], _answer_size))
register_mistake("novelty_divided_by_relevant", N_("You divided novelty by every relevant document |R|; novelty divides "
                                                "by |R ∩ A|, the relevant documents retrieved."),
                 "user", _ratio_over(NOVELTY[2], NOVELTY[1], _relevant_size))
register_mistake("novelty_counted_known", N_("You counted the relevant retrieved documents the user already knew; "
                                          "novelty counts those the user did not know, (R ∩ A) − K."),
                 "user", _novelty_counted_known)
register_mistake("relative_recall_inverted", N_("You divided the number expected by the number found; relative recall "
                                             "is # found / # expected."), "user", _relative_recall("inverted"))
register_mistake("relative_recall_over_all_relevant", N_("You divided by every relevant document (that is recall); "
                                                      "relative recall divides by the number the user expected to "
                                                      "find."), "user", _relative_recall("all relevant"))
register_mistake("relative_recall_not_capped", N_("You let relative recall go above 1; once the user found as many as "
                                               "expected the expectation is met and relative recall is 1."),
                 "user", _relative_recall("not capped"))
register_mistake("recall_effort_inverted", N_("You divided the documents examined by the number wanted; recall effort "
                                           "is # wanted / # examined, at most 1."), "user", _effort_inverted)
register_mistake("recall_effort_whole_list", N_("You divided by every document of the answer; recall effort divides by "
                                             "the documents examined until the wanted relevant ones are found."),
                 "user", _effort_whole_list)
register_mistake("esl_counting_relevant", N_("You counted the relevant documents seen too; expected search length "
                                          "counts only the non-relevant documents the user goes through."),
                 "user", _esl_with(lambda j, r, i, s, w: j + s + i * s / (r + 1),
                                   lambda j, r, i, s, w: (rf"{tex_number(j)} + {tex_number(s)} + "
                                                          rf"\frac{{{tex_number(i)} \cdot {tex_number(s)}}}"
                                                          rf"{{{tex_number(r)} + 1}}"),
                                   j_change=_j_with_relevant))
register_mistake("esl_whole_last_level", N_("You counted every non-relevant document of the last level; in random order "
                                         "only i·s/(r + 1) of them are expected before the s-th relevant one."),
                 "user", _esl_with(lambda j, r, i, s, w: j + i, lambda j, r, i, s, w: rf"{tex_number(j)} + "
                                                                                      rf"{tex_number(i)}"))
register_mistake("esl_s_over_r", N_("You divided by r; the r relevant documents cut the level into r + 1 gaps, so "
                                 "the last level adds i·s/(r + 1)."),
                 "user", _esl_with(lambda j, r, i, s, w: j + i * s / r,
                                   lambda j, r, i, s, w: rf"{tex_number(j)} + \frac{{{tex_number(i)} \cdot "
                                                         rf"{tex_number(s)}}}{{{tex_number(r)}}}"))
register_mistake("esl_all_wanted_from_last_level", N_("You took s as every relevant document wanted; s counts only "
                                                   "those still wanted from the last level, after the earlier levels."),
                 "user", _esl_all_wanted)
register_mistake("esl_in_order_shown", N_("You counted the non-relevant documents in the order shown; within a level "
                                       "the order is random, so ESL takes the expected number, j + i·s/(r + 1)."),
                 "user", _esl_in_order_shown)

register_title_templates(*(text for key, text in TEXTS.source.items() if "title" in key))
