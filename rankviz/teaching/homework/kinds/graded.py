"""Graded-relevance exercises: CG, DCG, IDCG and nDCG (both gains, both discounts), ERR, and their mistakes.

``ndcg`` exercises use ``rels``, ``gain``, ``discount`` and ``judged`` (every judged grade of the
query, for the ideal ranking; None: the ranking's own grades). Mistaken workings change
``params``: ``log_base`` (2 unless a mistake says ln or log10) and ``idcg`` ("judged", or
"retrieved" / "unsorted" for the two ways students get the ideal ranking wrong).
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from rankviz.formatting import format_number
from rankviz.i18n import DEFAULT_LANGUAGE, N_, speaking
from rankviz.i18n import _ as translate
from rankviz.registry import DISCOUNT, GAIN
from rankviz.teaching.homework.core import (Exercise, InputError, KindSpec, OwnInput, Step, TranslatedWords,
    check_length, english_title, register_kind, tex_number)
from rankviz.teaching.homework.mistakes import register_mistake, same_working_with
from rankviz.teaching.homework.words import register_title_templates
from rankviz.teaching.labels import variant_text

__all__ = ["DISCOUNTS", "ERR_SCALES", "GAINS", "err_steps", "ndcg_steps", "variant_words"]

# The registry's choices; an exercise starts from the lecture's final formula (exponential gain).
GAINS = GAIN.ordered("exponential")
DISCOUNTS = DISCOUNT.values
_SWITCHES = {"gain": GAIN, "discount": DISCOUNT}

# What a student reads: the step hints and the inputs of their own exercise, in the textbooks' words.
TEXTS = TranslatedWords({
    "cg_hint": N_("CG{at} adds up the grades of the top {n} ranks, without any discount: $\\mathrm{{CG}} = \\sum_i "
                  "g_i$."),
    "term_hint": N_("The {what} term at rank {rank} is the gain of grade {grade} divided by the discount at rank {rank}: "
                 "${gain_formula} \\times {discount_formula}$ with g = {grade}, i = {rank}."),
    "dcg_hint": N_("DCG{at} adds up the discounted gains of the top {n} ranks: $\\mathrm{{DCG}} = \\sum_i "
                "\\frac{{\\text{{gain}}(g_i)}}{{\\text{{discount}}(i)}}$."),
    "idcg_hint": N_("IDCG{at} is the DCG of the ideal ranking: every judged grade sorted from highest to lowest, "
                 "{cut}."),
    "idcg_cut": N_("cut at rank {k} like the DCG"),
    "idcg_whole": N_("as long as the ranking"),
    "ndcg_hint": N_("NDCG{at} divides DCG by IDCG, so a perfect ranking scores 1: $\\mathrm{{NDCG}} = "
                 "\\frac{{\\mathrm{{DCG}}}}{{\\mathrm{{IDCG}}}}$."),
    "err_r_hint": N_("R_{rank} is the chance the user is satisfied by the document at rank {rank}: "
                  "$R_i = \\frac{{2^{{g_i}} - 1}}{{2^{{g_{{max}}}}}}$ with g_max = {top}, the top of the scale."),
    "err_reach_hint": N_("The chance of reaching rank {rank}: the user was satisfied by none of the ranks above: "
                      "$\\prod_{{j < i}} (1 - R_j)$."),
    "err_term_hint": N_("The term at rank {rank}: the chance of stopping there, over the rank: "
                     "$\\frac{{R_i \\cdot P(\\text{{reach }} i)}}{{i}}$."),
    "err_hint": N_("ERR adds up the terms of every rank (Chapelle et al. 2009): $\\mathrm{{ERR}} = \\sum_i "
                "\\frac{{1}}{{i}} R_i \\prod_{{j<i}} (1 - R_j)$."),
    "rels": N_("Grade of each retrieved document in ranked order, rank 1 first (e.g. 3,2,3,0,1,2 on a 0-3 scale), or "
            "a column pasted from the sheet."),
    "k": N_("Cut-off k for NDCG@k: DCG looks at the top k ranks and the ideal ranking is cut at k too. Blank: the "
         "whole list."),
    "unretrieved": N_("Grades of the judged relevant documents the ranking did not retrieve (or ranked below k), e.g. "
                   "3 2: they join the ideal ranking. Blank: none."),
    "gain": N_("The gain of a grade g: IIR (§8.4) and the lecture use 2^g − 1, trec_eval and Croft et al. the grade "
            "itself."),
    "discount": N_("The discount at rank i: log2(i + 1) (IIR, trec_eval), or Järvelin and Kekäläinen's original "
                "max(1, log2 i), which Croft et al. write DCG = rel_1 + Σ_{i≥2} rel_i / log2 i."),
    "err_rels": N_("Grade of each document in ranked order, rank 1 first (e.g. 2 0 1 on a 0-4 scale)."),
    "max_grade": N_("g_max, the top of the sheet's grading scale (4 for grades 0-4), whatever grades this list holds."),
    "err_k": N_("Cut-off k for ERR@k: only the top k ranks count. Blank: the whole list."),
    "ndcg_title": N_("Your ranking {ranking}: {title} ({variant})"),
    "err_title": N_("Your ranking {ranking}: ERR{at} on a 0–{top} scale"),
    "describe_judged": N_(' The ideal ranking uses every judged grade of the query: {grades}.'),
    "describe": N_('Grades in ranked order: {grades}; {variant}.{judged} Compute CG, the DCG term at each rank, DCG, '
                   'the IDCG terms of the ideal ranking, IDCG and NDCG.'),
    "describe_cut": N_('Grades in ranked order: {grades}; {variant}.{judged} Cut-off k = {k}: compute CG@{k}, the '
                       'DCG term at each of the top {k} ranks, DCG@{k}, the IDCG terms of the ideal ranking cut at '
                       '{k}, IDCG@{k} and NDCG@{k}.'),
    "err_describe_cut": N_(' ERR@{k} looks at the top {k} ranks only.'),
    "err_describe": N_("Grades in ranked order: {grades}, on a 0–{top} scale (g_max = {top}).{cut} A user reads down "
                       "the ranking and stops at rank i, satisfied, with probability R_i = (2^g − 1) / 2^(g_max). "
                       "Compute R_i at every rank, the probability P(reach rank i) = Π_(j<i) (1 − R_j) that the user "
                       "gets to rank i, each rank's term R_i · P(reach rank i) / i, and ERR, the sum of the terms."),
    "f_every_user": N_('(every user sees rank 1)'),
    "f_reach": N_('reach {rank}'),
})


def variant_words(gain: str, discount: str) -> str:
    """The gain and discount of an exercise in words (the registry's labels, as the app writes them).

    >>> variant_words("linear", "log2")
    'linear gain g, log2(i + 1) discount'
    """
    return variant_text({"gain": gain, "discount": discount})


def _english_variant(gain: str, discount: str) -> str:
    """The variant words as an exercise's title keeps them (English; the title is read translated)."""
    with speaking(DEFAULT_LANGUAGE):
        return variant_words(gain, discount)


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


def _dcg_terms(worked, exercise: Exercise, what: str, stage: str, rows=None) -> list[Step]:
    """One step per rank of a worked DCG, read by role (its discount column is named after the discount)."""
    base = exercise.param("log_base", 2)
    gain_formula = GAIN.choice(exercise.gain).formula.replace("g", "g_i")
    discount_formula = DISCOUNT.choice(exercise.discount).formula
    steps = []
    for rank, grade, gain_value, denominator, contribution in zip(
            *(worked.column(role) for role in ("rank", "grade", "gain", "discount", "contribution"))):
        if rows is not None and int(rank) not in rows:
            continue
        formula = (rf"\frac{{{_gain_tex(grade, exercise.gain)}}}{{{_discount_tex(int(rank), exercise.discount, base)}}}"
                   rf" = \frac{{{tex_number(gain_value)}}}{{{tex_number(denominator)}}} = {tex_number(contribution)}")
        hint = TEXTS["term_hint"].format(what=what, rank=int(rank), grade=tex_number(grade),
                                         gain_formula=gain_formula, discount_formula=discount_formula)
        steps.append(Step(f"{what} term at rank {int(rank)} (grade {tex_number(grade)})", float(contribution), formula,
                          stage=stage, hint=hint))
    return steps


def _rebased(worked, base: float):
    """A log2(i + 1) worked table recomputed with log_base(i + 1): the working of a student who used ln or log10."""
    table, roles = worked.table.copy(), worked.roles
    table[roles["discount"]] = np.log(worked.column("rank").to_numpy(float) + 1) / math.log(base)
    table[roles["contribution"]] = table[roles["gain"]] / table[roles["discount"]]
    table[roles["running"]] = table[roles["contribution"]].cumsum()
    return replace(worked, table=table, value=float(math.fsum(table[roles["contribution"]])))


def _cutoff(exercise: Exercise):
    k = exercise.param("k")
    if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 1):
        raise InputError("k", translate(N_('The cut-off k must be a whole number of at least 1 (or blank: the whole '
                                           'list); got {k}.')).format(k=repr(k)))
    return k


def _at(k) -> str:
    return "" if k is None else f"@{k}"


def ndcg_steps(exercise: Exercise) -> list[Step]:
    """CG, one DCG term per rank, DCG, one IDCG term per rank of the ideal ranking holding a
    relevant document, IDCG, NDCG: every value from :mod:`rankviz.metrics`' worked tables.

    With ``k`` in ``params`` (NDCG@k) only the top k ranks count, and the ideal ranking is cut
    at k too (IIR's Z_k; trec_eval's ndcg_cut): the labels say so (``DCG@5``, ``IDCG@5``).

    >>> steps = ndcg_steps(Exercise("ndcg", "x", rels=(3, 2, 3, 0, 1, 2)))
    >>> {s.label: round(s.expected, 3) for s in steps if s.label in ("DCG", "IDCG", "NDCG")}
    {'DCG': 13.848, 'IDCG': 14.595, 'NDCG': 0.949}
    >>> steps = ndcg_steps(Exercise("ndcg", "x", rels=(3, 2, 3, 0, 0, 1, 2, 2, 3, 0), gain="linear",
    ...                             discount="jarvelin", params={"k": 5}))
    >>> {s.label: round(s.expected, 3) for s in steps if s.label.endswith("@5")}
    {'CG@5': 8.0, 'DCG@5': 6.893, 'IDCG@5': 9.754, 'NDCG@5': 0.707}
    """
    from rankviz.metrics import cumulative_gain_breakdown, dcg_breakdown, ideal_dcg_breakdown

    k = _cutoff(exercise)
    check_length(len(exercise.rels) if k is None else min(k, len(exercise.rels)), N_("ranks"))
    at = _at(k)
    base = exercise.param("log_base", 2)
    # The metrics take a log base for the Järvelin discount only; log2(i + 1) in another base is a mistake's working.
    options = {"gain": exercise.gain, "discount": exercise.discount,
               "log_base": base if exercise.discount == "jarvelin" else 2}
    cg = cumulative_gain_breakdown(exercise.rels, k)
    shown = len(exercise.rels) if k is None else min(k, len(exercise.rels))
    steps = [Step(f"CG{at}", float(cg.value), cg.latex.replace(r"\mathrm{CG} = ", ""), stage="Step 1: CG",
                  hint=TEXTS["cg_hint"].format(at=at, n=shown))]
    system = dcg_breakdown(exercise.rels, None if exercise.param("dcg") == "uncut" else k, **options)
    how_ideal = exercise.param("idcg", "judged")
    ideal_k = None if how_ideal == "uncut" else k
    if how_ideal == "unsorted":  # the mistake of not sorting: the ranking itself as "ideal"
        ideal = dcg_breakdown(exercise.rels, k, **options)
    elif how_ideal == "top_k":  # the mistake of sorting the top k retrieved only
        ideal = ideal_dcg_breakdown(exercise.rels[:k], k, **options)
    else:
        judged = exercise.judged if how_ideal in ("judged", "uncut") else None
        ideal = ideal_dcg_breakdown(exercise.rels, ideal_k, judged=judged, **options)
    if base != 2 and exercise.discount == "log2":
        system, ideal = _rebased(system, base), _rebased(ideal, base)
    dcg_terms = _dcg_terms(system, exercise, "DCG", "Step 2: DCG")
    # Ideal ranks past the last relevant document add 0; they are left out so a long judged list stays short.
    useful = {int(r) for r, g in zip(ideal.column("rank"), ideal.column("grade")) if g > 0} or {1}
    idcg_terms = _dcg_terms(ideal, exercise, "IDCG", "Step 3: IDCG", rows=useful)
    first_dcg, first_idcg = len(steps), len(steps) + len(dcg_terms) + 1
    steps += dcg_terms
    dcg_value = float(system.value)
    steps.append(Step(f"DCG{at}", dcg_value,
                      " + ".join(tex_number(t.expected) for t in dcg_terms) + f" = {tex_number(dcg_value)}",
                      uses=tuple(range(first_dcg, first_dcg + len(dcg_terms))), rule="sum", stage="Step 2: DCG",
                      hint=TEXTS["dcg_hint"].format(at=at, n=shown)))
    steps += idcg_terms
    idcg_value = float(ideal.value)
    cut = TEXTS["idcg_cut"].format(k=k) if k is not None else TEXTS["idcg_whole"]
    steps.append(Step(f"IDCG{at}", idcg_value,
                      " + ".join(tex_number(t.expected) for t in idcg_terms) + f" = {tex_number(idcg_value)}",
                      uses=tuple(range(first_idcg, first_idcg + len(idcg_terms))), rule="sum", stage="Step 3: IDCG",
                      hint=TEXTS["idcg_hint"].format(at=at, cut=cut)))
    value = dcg_value / idcg_value if idcg_value else 0.0
    steps.append(Step(f"NDCG{at}", value, rf"\frac{{\mathrm{{DCG}}}}{{\mathrm{{IDCG}}}} = "
                                          rf"\frac{{{tex_number(dcg_value)}}}{{{tex_number(idcg_value)}}} = "
                                          rf"{tex_number(value)}",
                      uses=(first_dcg + len(dcg_terms), len(steps) - 1), rule="ratio", stage="Step 4: NDCG",
                      hint=TEXTS["ndcg_hint"].format(at=at)))
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
    title = f"Practice exercise {seed}: {english_title(KIND)} ({_english_variant(gain, discount)})"
    return Exercise("ndcg", title, rels=tuple(grades), gain=gain, discount=discount)


def _describe(exercise: Exercise) -> str:
    grades = ", ".join(format_number(g) for g in exercise.rels)
    judged = ""
    if exercise.judged is not None:
        judged = TEXTS["describe_judged"].format(
            grades=", ".join(format_number(g) for g in sorted(exercise.judged, reverse=True) if g > 0))
    k = exercise.param("k")
    variant = variant_words(exercise.gain, exercise.discount)
    if k is None:
        return TEXTS["describe"].format(grades=grades, variant=variant, judged=judged)
    return TEXTS["describe_cut"].format(grades=grades, variant=variant, judged=judged, k=k)


def _from_preset(key: str):
    def build() -> Exercise:
        from rankviz.teaching.presets import get_preset

        preset = get_preset(key)
        return Exercise("ndcg", english_title(preset), rels=tuple(preset.rels), gain=preset.settings.get("gain", "linear"),
                        discount=preset.settings.get("discount", "log2"), judged=preset.judged,
                        source=preset.source, note=english_title(preset, "note"))
    return build


def _reference(exercise: Exercise) -> dict:
    from rankviz.metrics import cumulative_gain, dcg, ideal_dcg, ndcg

    options = {"gain": exercise.gain, "discount": exercise.discount}
    k = exercise.param("k")
    at = _at(k)
    values = {f"CG{at}": cumulative_gain(exercise.rels, k), f"DCG{at}": dcg(exercise.rels, k, **options),
              f"IDCG{at}": ideal_dcg(exercise.rels, k, judged=exercise.judged, **options),
              f"NDCG{at}": ndcg(exercise.rels, k, judged=exercise.judged, **options)}
    ideal = sorted(exercise.judged if exercise.judged is not None else exercise.rels, reverse=True)
    top = exercise.rels if k is None else exercise.rels[:k]
    for what, grades in (("DCG", top), ("IDCG", ideal if k is None else ideal[:k])):
        for rank, grade in enumerate(grades, 1):  # a term is the DCG of the list with only that grade kept
            if what == "IDCG" and grade <= 0 and rank > 1:
                continue  # the working leaves out the ideal ranking's zeros: they add nothing
            values[f"{what} term at rank {rank} (grade {tex_number(grade)})"] = dcg([0] * (rank - 1) + [grade], **options)
    return values


def _own(*, rels, k=None, unretrieved=None, gain="exponential", discount="log2") -> Exercise:
    shown = ", ".join(format_number(g) for g in rels)
    judged = tuple(rels) + tuple(unretrieved) if unretrieved else None
    variant = _english_variant(gain, discount)
    title = TEXTS.source["ndcg_title"].format(ranking=shown, title=english_title(KIND) if k is None else
                                       f"CG@{k}, DCG@{k}, IDCG@{k} and NDCG@{k}", variant=variant)
    return Exercise("ndcg", title, rels=tuple(rels), gain=gain, discount=discount, judged=judged,
                    params={} if k is None else {"k": k})


INPUTS = (
    OwnInput("rels", N_("Grades in ranked order"), TEXTS.source["rels"], "relevance", required=True, example="3,2,3,0,1,2"),
    OwnInput("k", N_("Cut-off k (NDCG@k)"), TEXTS.source["k"], "int", blank=N_("the whole list")),
    OwnInput("unretrieved", N_("Judged, not retrieved"), TEXTS.source["unretrieved"], "relevance", blank=N_("none")),
    OwnInput("gain", N_("Gain"), TEXTS.source["gain"], "choice", param=GAIN, blank="exponential"),
    OwnInput("discount", N_("Discount"), TEXTS.source["discount"], "choice", param=DISCOUNT),
)

KIND = register_kind(KindSpec(
    "ndcg", N_("CG, DCG, IDCG and NDCG"), _generate, ndcg_steps, _describe, reference=_reference,
    options={"gain": GAINS, "discount": DISCOUNTS},
    presets={"ndcg_exercise": _from_preset("ndcg_exercise"), "q1_graded": _from_preset("q1_graded")},
    metrics=("cumulative_gain", "dcg", "ideal_dcg", "ndcg"), inputs=INPUTS, own=_own))


# ---------------------------------------------------------------------------- mistakes


def _swapped(field: str):
    def working(exercise, steps):
        return ndcg_steps(replace(exercise, **{field: _SWITCHES[field].other(getattr(exercise, field))}))
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


register_mistake("ln_discount", N_("You used the natural logarithm ln in the discount; the formula takes log2."),
                 "ndcg", same_working_with(ndcg_steps, log_base=math.e))
register_mistake("log10_discount", N_("You used log10 in the discount; the formula takes log2."),
                 "ndcg", same_working_with(ndcg_steps, log_base=10))
register_mistake("log2_i_discount", N_("You divided by log2(i) (leaving rank 1 undiscounted); this discount is "
                                    "log2(i + 1), so rank 1 divides by log2(2) = 1 and rank 2 by log2(3)."),
                 "ndcg", _only_when(lambda e: e.discount == "log2", _swapped("discount")))
register_mistake("log2_i_plus_1_discount", N_("You divided by log2(i + 1); this exercise uses the {discount}."),
                 "ndcg", _only_when(lambda e: e.discount == "jarvelin", _swapped("discount")),
                 words={"discount": lambda: DISCOUNT.label("jarvelin")})
register_mistake("linear_for_exponential_gain", N_("You used the grade itself as the gain; this exercise uses the "
                                                   "{gain}."),
                 "ndcg", _only_when(lambda e: e.gain == "exponential", _swapped("gain")),
                 words={"gain": lambda: GAIN.label("exponential")})
register_mistake("exponential_for_linear_gain", N_("You used the {used}; this exercise uses the grade itself "
                                                   "({gain})."),
                 "ndcg", _only_when(lambda e: e.gain == "linear", _swapped("gain")),
                 words={"used": lambda: GAIN.label("exponential"), "gain": lambda: GAIN.label("linear")})
register_mistake("idcg_from_retrieved", N_("You built the ideal ranking from the retrieved documents only; IDCG "
                                        "sorts every judged document of the query, retrieved or not."),
                 "ndcg", _only_when(lambda e: e.judged is not None, same_working_with(ndcg_steps, idcg="retrieved")))
register_mistake("idcg_unsorted", N_("You computed IDCG on the ranking as given; the ideal ranking sorts the grades "
                                  "from highest to lowest first."), "ndcg", same_working_with(ndcg_steps, idcg="unsorted"))
def _cut_and_longer(exercise) -> bool:
    """A cut-off that leaves part of the ranking (or of the judged grades) out: only then can it be forgotten."""
    k = exercise.param("k")
    grades = exercise.judged if exercise.judged is not None else exercise.rels
    return k is not None and (k < len(exercise.rels) or k < sum(1 for g in grades if g > 0))


register_mistake("idcg_not_cut_at_k", N_("You took IDCG over the whole ideal ranking; NDCG@k cuts the ideal ranking at "
                                      "k too (IDCG@k), like DCG@k, so a perfect top k scores 1."),
                 "ndcg", _only_when(_cut_and_longer, same_working_with(ndcg_steps, idcg="uncut")))
register_mistake("dcg_not_cut_at_k", N_("You added the DCG terms of every rank; DCG@k stops at rank k."),
                 "ndcg", _only_when(lambda e: e.param("k") is not None and e.param("k") < len(e.rels),
                                    same_working_with(ndcg_steps, dcg="uncut")))
register_mistake("idcg_from_top_k", N_("You sorted only the top k retrieved documents into the ideal ranking; it sorts "
                                    "every judged document of the query, those ranked below k or never retrieved too."),
                 "ndcg", _only_when(lambda e: e.param("k") is not None and e.param("k") < len(e.rels),
                                    same_working_with(ndcg_steps, idcg="top_k")))
register_mistake("ndcg_inverted", N_("You divided IDCG by DCG; NDCG is DCG / IDCG, never above 1."), "ndcg", _ndcg_inverted)


# ============================================================================ ERR
#
# ``err`` exercises use ``rels`` (grades in ranked order) and ``params["max_grade"]``: g_max,
# the top of the grading scale (3 for a 0-3 scale), never the largest grade of the list. Mistaken
# workings are computed here, from the grades, by :func:`_cascade_steps` (the wrong formula is the
# point); the right one comes from :func:`rankviz.metrics.err_breakdown`.

ERR_SCALES = (3, 4)
_ERR_DIGITS = 4  # later ranks' terms are small: four decimals keep them from printing as 0


def _err_number(x) -> str:
    return tex_number(x, _ERR_DIGITS)


def _err_max_grade(exercise: Exercise) -> int:
    top = exercise.param("max_grade")
    if isinstance(top, bool) or not isinstance(top, (int, np.integer)) or top < 1:
        raise ValueError(f"An ERR exercise needs max_grade, the top of its grading scale (a whole number >= 1, "
                         f"e.g. 3 for grades 0-3); got {top!r}.")
    return int(top)


def _err_cut(exercise: Exercise) -> Exercise:
    """The exercise with its ranking cut at ``params["k"]`` (ERR@k is the ERR of the top k)."""
    k = _cutoff(exercise)
    return exercise if k is None else replace(exercise, rels=tuple(exercise.rels[:k]))


def _err_label(exercise: Exercise) -> str:
    return f"ERR{_at(exercise.param('k'))}"


def _err_labels(exercise: Exercise):
    """The step labels of an ERR working: R per rank, P(reach) per rank, term per rank, ERR."""
    grades = [tex_number(g) for g in exercise.rels]
    return ([f"R_{r} (grade {g})" for r, g in enumerate(grades, 1)],
            [f"P(reach rank {r})" for r in range(1, len(grades) + 1)],
            [f"term at rank {r}" for r in range(1, len(grades) + 1)])


def _reach_formula(rank: int, stops, reach: float, include_own: bool = False) -> str:
    last = rank if include_own else rank - 1
    if last == 0:
        return rf"1 \ \text{{{TEXTS['f_every_user']}}}"
    factors = "".join(f"(1 - {_err_number(s)})" for s in stops[:last])
    bound = r"j \le" if include_own else "j <"
    return rf"\prod_{{{bound} {rank}}} (1 - R_j) = {factors} = {_err_number(reach)}"


def _cascade_steps(exercise: Exercise, stops, r_formulas, *, reach_includes_own=False, forget_reach=False,
                   divide_by_rank=True) -> list[Step]:
    """An ERR working from the satisfaction probabilities ``stops`` (one per rank), computed here
    step by step; the keywords make the cascade wrong the ways students do (for the mistakes)."""
    r_labels, reach_labels, term_labels = _err_labels(exercise)
    n = len(stops)
    steps = [Step(label, float(s), formula, stage="Step 1: R_i") for label, s, formula in zip(r_labels, stops, r_formulas)]
    reaches = []
    for rank in range(1, n + 1):
        last = rank if reach_includes_own else rank - 1
        reach = 1.0 if forget_reach else math.prod(1 - s for s in stops[:last])
        reaches.append(reach)
        formula = (r"1 \ \text{(the reach left out)}" if forget_reach and rank > 1
                   else _reach_formula(rank, stops, reach, reach_includes_own))
        steps.append(Step(reach_labels[rank - 1], reach, formula,
                          uses=tuple(range(last)) if last and not forget_reach else (),
                          rule="survival" if last and not forget_reach else "", stage="Step 2: P(reach rank i)"))
    first_term = len(steps)
    for rank, (s, reach) in enumerate(zip(stops, reaches), 1):
        divisor = rank if divide_by_rank else 1
        value = s * reach / divisor
        formula = (rf"\frac{{R_{rank} \cdot P(\text{{{TEXTS['f_reach'].format(rank=rank)}}})}}{{{rank}}} = "
                   rf"\frac{{{_err_number(s)} \times {_err_number(reach)}}}{{{rank}}} = {_err_number(value)}"
                   if divide_by_rank else
                   rf"R_{rank} \cdot P(\text{{{TEXTS['f_reach'].format(rank=rank)}}}) = {_err_number(s)} \times {_err_number(reach)} = "
                   rf"{_err_number(value)}")
        steps.append(Step(term_labels[rank - 1], value, formula, uses=(rank - 1, n + rank - 1), rule="multiply",
                          scale=float(divisor), stage="Step 3: R_i · P(reach) / i"))
    terms = steps[first_term:]
    total = math.fsum(t.expected for t in terms)
    steps.append(Step(_err_label(exercise), total, " + ".join(_err_number(t.expected) for t in terms)
                      + f" = {_err_number(total)}", uses=tuple(range(first_term, first_term + n)), rule="sum",
                      stage="Step 4: ERR"))
    return steps


def err_steps(exercise: Exercise) -> list[Step]:
    """ERR step by step: R_i = (2^g − 1) / 2^g_max at every rank (stage 1), the chance of reaching
    rank i, Π_{j<i} (1 − R_j) (stage 2), each rank's term R_i · P(reach i) / i (stage 3), and
    their sum ERR (stage 4); every value from :func:`rankviz.metrics.err_breakdown` with
    ``max_grade`` = g_max, the top of the exercise's grading scale.

    Examples
    --------
    Grades 2, 0, 1 on a 0-3 scale: R = 3/8, 0, 1/8; P(reach) = 1, 5/8, 5/8; terms 0.375, 0,
    (1/8)(5/8)/3 = 0.026; ERR = 0.401.

    >>> steps = err_steps(Exercise("err", "x", rels=(2, 0, 1), params={"max_grade": 3}))
    >>> [(s.label, round(s.expected, 4)) for s in steps][3:6]
    [('P(reach rank 1)', 1.0), ('P(reach rank 2)', 0.625), ('P(reach rank 3)', 0.625)]
    >>> steps[-1].label, round(steps[-1].expected, 3)
    ('ERR', 0.401)
    >>> err_steps(Exercise("err", "x", rels=(2, 0, 1)))
    Traceback (most recent call last):
    ...
    ValueError: An ERR exercise needs max_grade, the top of its grading scale (a whole number >= 1, e.g. 3 for grades 0-3); got None.
    """
    from rankviz.metrics import err_breakdown

    top = _err_max_grade(exercise)
    exercise = _err_cut(exercise)
    check_length(len(exercise.rels), N_("ranks"))
    if max(exercise.rels, default=0) > top:
        raise InputError("max_grade", translate(N_('g_max = {top} is below the grade {format_number_max_exerci} of '
                                                   'the list: g_max is the top of the grading scale.')).format(
            top=top, format_number_max_exerci=format_number(max(exercise.rels))))
    worked = err_breakdown(exercise.rels, max_grade=top)
    table = worked.by_roles()
    r_labels, reach_labels, term_labels = _err_labels(exercise)
    n = len(table)
    steps = [Step(label, float(stop), rf"R_{int(rank)} = \frac{{2^{{{tex_number(grade)}}} - 1}}{{2^{{{top}}}}} = "
                                      rf"\frac{{{tex_number(2 ** grade - 1)}}}{{{2 ** top}}} = {_err_number(stop)}",
                  stage="Step 1: R_i", hint=TEXTS["err_r_hint"].format(rank=int(rank), top=top))
             for label, rank, grade, stop in zip(r_labels, table["rank"], table["grade"], table["stop"])]
    stops = table["stop"].tolist()
    for label, rank, reach in zip(reach_labels, table["rank"], table["reach"]):
        rank = int(rank)
        steps.append(Step(label, float(reach), _reach_formula(rank, stops, reach), uses=tuple(range(rank - 1)),
                          rule="survival" if rank > 1 else "", stage="Step 2: P(reach rank i)",
                          hint=TEXTS["err_reach_hint"].format(rank=rank)))
    for label, rank, stop, reach, term in zip(term_labels, table["rank"], table["stop"], table["reach"],
                                              table["contribution"]):
        rank = int(rank)
        steps.append(Step(label, float(term),
                          rf"\frac{{R_{rank} \cdot P(\text{{{TEXTS['f_reach'].format(rank=rank)}}})}}{{{rank}}} = "
                          rf"\frac{{{_err_number(stop)} \times {_err_number(reach)}}}{{{rank}}} = {_err_number(term)}",
                          uses=(rank - 1, n + rank - 1), rule="multiply", scale=float(rank),
                          stage="Step 3: R_i · P(reach) / i", hint=TEXTS["err_term_hint"].format(rank=rank)))
    terms = steps[2 * n:]
    value = float(worked.value)
    steps.append(Step(_err_label(exercise), value, " + ".join(_err_number(t.expected) for t in terms)
                      + f" = {_err_number(value)}", uses=tuple(range(2 * n, 3 * n)), rule="sum", stage="Step 4: ERR",
                      hint=TEXTS["err_hint"].format()))
    return steps


def _err_generate(rng, seed: int, *, max_grade: int = 3) -> Exercise:
    if max_grade not in ERR_SCALES:
        raise ValueError(f"max_grade must be one of {', '.join(map(str, ERR_SCALES))}; got {max_grade!r}.")
    n = rng.randint(4, 6)
    # Mostly middling grades: a top grade at rank 1 would leave later ranks almost no chance.
    weights = [3, 3, 3, 2, 1][:max_grade + 1]
    grades = rng.choices(range(max_grade + 1), weights=weights, k=n)
    while sum(g > 0 for g in grades) < 2:
        grades[rng.randrange(n)] = rng.randint(1, max_grade)
    if rng.random() < 0.4:  # sometimes the scale's top grade appears, so g_max is in the list
        grades[rng.randrange(1, n)] = max_grade
    return Exercise("err", f"Practice exercise {seed}: {english_title(ERR_KIND)}", rels=tuple(grades),
                    params={"max_grade": max_grade})


def _err_describe(exercise: Exercise) -> str:
    grades = ", ".join(format_number(g) for g in exercise.rels)
    top = exercise.param("max_grade")
    k = exercise.param("k")
    cut = "" if k is None else TEXTS["err_describe_cut"].format(k=k)
    return TEXTS["err_describe"].format(grades=grades, top=top, cut=cut)


def _err_from_ndcg_exercise() -> Exercise:
    from rankviz.teaching.presets import get_preset

    preset = get_preset("ndcg_exercise")
    return Exercise("err", N_("ERR of the NDCG class exercise: grades 3, 2, 3, 0, 1, 2 on the 0-3 scale"),
                    rels=tuple(preset.rels), params={"max_grade": 3},
                    source=f"{preset.source}; ERR as in 001_7d3de9483860babd.txt (notes in Chinese), section 'ERR'",
                    note="The notes print no ERR for this ranking: the lecture's graded NDCG exercise, worked with the "
                         "Chinese notes' R_i = (2^g − 1) / 2^(g_max) and g_max = 3, the top of the lecture's 0-3 scale.")


def _err_reference(exercise: Exercise) -> dict:
    from rankviz.metrics import err

    top = exercise.param("max_grade")
    exercise = _err_cut(exercise)
    rels = list(exercise.rels)
    r_labels, reach_labels, term_labels = _err_labels(exercise)
    values = {_err_label(exercise): err(rels, max_grade=top)}
    for rank, grade in enumerate(rels, 1):
        # R_i is ERR of a one-document list; ERR@i - ERR@(i-1) is the term at rank i; R_i x P(reach) x (1/i) = term.
        stop = err([grade], max_grade=top)
        term = err(rels, rank, max_grade=top) - err(rels, rank - 1, max_grade=top) if rank > 1 else err(rels, 1, max_grade=top)
        values[r_labels[rank - 1]] = stop
        values[term_labels[rank - 1]] = term
        # P(reach rank i) = 1 - P(stopped above i); P(stop at j) = term_j x j.
        values[reach_labels[rank - 1]] = 1 - sum(values[term_labels[j - 1]] * j for j in range(1, rank))
    return values


def _err_own(*, rels, max_grade, k=None) -> Exercise:
    shown = ", ".join(format_number(g) for g in rels)
    title = TEXTS.source["err_title"].format(ranking=shown, at=_at(k), top=max_grade)
    return Exercise("err", title, rels=tuple(rels), params={"max_grade": max_grade, "k": k})


ERR_INPUTS = (
    OwnInput("rels", N_("Grades in ranked order"), TEXTS.source["err_rels"], "relevance", required=True, example="2 0 1"),
    OwnInput("max_grade", N_("g_max (top of the grading scale)"), TEXTS.source["max_grade"], "int", required=True, example="3"),
    OwnInput("k", N_("Cut-off k (ERR@k)"), TEXTS.source["err_k"], "int", blank=N_("the whole list")),
)

ERR_KIND = register_kind(KindSpec(
    "err", N_("Expected reciprocal rank (ERR)"), _err_generate, err_steps, _err_describe,
    reference=_err_reference, options={"max_grade": ERR_SCALES},
    presets={"err_ndcg_exercise": _err_from_ndcg_exercise},
    metrics=("err",), inputs=ERR_INPUTS, own=_err_own))


# ---------------------------------------------------------------------------- ERR mistakes


def _stop_probabilities(grades, how: str, top: int) -> tuple[list[float], list[str]]:
    """R_i per grade the way ``how`` says (the right one, or a mistaken one), with each rank's formula."""
    stops, formulas = [], []
    for rank, g in enumerate(grades, 1):
        g = float(g)
        if how == "right":
            value, shown = (2 ** g - 1) / 2 ** top, rf"\frac{{2^{{{tex_number(g)}}} - 1}}{{2^{{{top}}}}}"
        elif how == "linear":
            value, shown = g / top, rf"\frac{{{tex_number(g)}}}{{{top}}}"
        elif how == "minus_one_below":
            value, shown = (2 ** g - 1) / (2 ** top - 1), rf"\frac{{2^{{{tex_number(g)}}} - 1}}{{2^{{{top}}} - 1}}"
        else:  # "no_minus_one"
            value, shown = 2 ** g / 2 ** top, rf"\frac{{2^{{{tex_number(g)}}}}}{{2^{{{top}}}}}"
        stops.append(value)
        formulas.append(rf"R_{rank} = {shown} = {_err_number(value)}")
    return stops, formulas


def _err_mistake(how: str = "right", *, top_from_list=False, **cascade):
    def working(exercise, steps):
        top = _err_max_grade(exercise)
        exercise = _err_cut(exercise)
        if top_from_list:
            listed = max(exercise.rels)
            if listed == top or listed <= 0:
                return None
            top = int(listed) if float(listed).is_integer() else listed
        stops, formulas = _stop_probabilities(exercise.rels, how, top)
        return _cascade_steps(exercise, stops, formulas, **cascade)
    return working


register_mistake("err_gmax_from_list", N_("You took g_max as the largest grade in this list; g_max is the top of the "
                                       "grading scale, whatever grades this list happens to hold."),
                 "err", _err_mistake(top_from_list=True))
register_mistake("err_reach_forgotten", N_("You left out the chance of reaching rank i, Π_(j<i) (1 − R_j): a user "
                                        "who was satisfied higher up never gets this far."),
                 "err", _err_mistake(forget_reach=True))
register_mistake("err_reach_includes_own_rank", N_("You multiplied (1 − R_i) of rank i itself into its reach; reaching "
                                                "rank i takes only the ranks above it, j < i."),
                 "err", _err_mistake(reach_includes_own=True))
register_mistake("err_linear_stop_probability", N_("You took R_i = g / g_max; the notes' R_i is (2^g − 1) / 2^g_max, "
                                                "exponential in the grade."), "err", _err_mistake("linear"))
register_mistake("err_divided_by_2_gmax_minus_1", N_("You divided by 2^g_max − 1; R_i = (2^g − 1) / 2^g_max, so even a "
                                                  "top-grade document satisfies with probability below 1."),
                 "err", _err_mistake("minus_one_below"))
register_mistake("err_without_minus_one", N_("You took 2^g / 2^g_max; R_i = (2^g − 1) / 2^g_max, so a grade-0 "
                                          "document never satisfies."), "err", _err_mistake("no_minus_one"))
register_mistake("err_without_reciprocal_rank", N_("You left out the 1/i: each rank's term is R_i · P(reach rank i) "
                                                "divided by the rank i."), "err", _err_mistake(divide_by_rank=False))

register_title_templates(*(text for key, text in TEXTS.source.items() if "title" in key))
