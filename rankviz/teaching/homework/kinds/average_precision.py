"""Average precision of one ranking: P@i down the ranking, then AP, and the mistakes made on the way.

``ap`` exercises use ``rels`` (binary: grade >= 1 is relevant) and ``n_relevant`` (R, the
relevant documents of the whole collection; None: the relevant documents of the list), and in
``params`` optionally ``k`` (AP@k: only the top k ranks count) and ``denominator`` (what the sum of
P@i is divided by, a choice of :data:`rankviz.registry.AP_DENOMINATOR`: R, the default of IIR and
trec_eval; the relevant documents retrieved; or min(R, k)). A list longer than 20 ranks is worked
at its relevant ranks only (the other P@i add nothing).
"""

from __future__ import annotations

from dataclasses import replace

from rankviz.i18n import N_
from rankviz.i18n import _ as translate
from rankviz.metrics import count_relevant
from rankviz.registry import AP_DENOMINATOR
from rankviz.teaching.homework.core import (Exercise, InputError, KindSpec, OwnInput, Step, TranslatedWords,
    binary_ranking_words, check_length, english_title, ranking_preset, register_kind, tex_number)
from rankviz.teaching.homework.mistakes import register_convention, register_mistake
from rankviz.teaching.homework.words import register_title_templates

__all__ = ["ap_steps", "ap_denominator", "check_cutoff", "EVERY_RANK_UP_TO"]

# Up to this many ranks the working writes P@i at every rank, as the slides do; beyond, at the relevant ranks.
EVERY_RANK_UP_TO = 20

# What a student reads: the step hints and the inputs, in IIR's and trec_eval's words.
TEXTS = TranslatedWords({
    "precision_hint": N_("P@{rank} is the fraction of the top {rank} documents that are relevant: "
                      "$P@i = \\frac{{\\text{{relevant in the top }} i}}{{i}}$."),
    "ap_hint": N_("AP is the mean of P@i over the relevant ranks, divided by R (relevant documents never retrieved "
               "add 0): $\\mathrm{{AP}} = \\frac{{1}}{{R}} \\sum_{{i \\text{{ relevant}}}} P@i$."),
    "ap_k_hint": N_("AP@{k} adds P@i at the relevant ranks i ≤ {k}, then divides ({divisor_words}): "
                 "$\\mathrm{{AP@{k}}} = {fraction} \\sum_{{i \\le {k} \\text{{ relevant}}}} P@i$."),
    "rels": N_("Relevance of each retrieved document in ranked order, rank 1 first: R N R N N, 1 0 1 0 0 or grades "
            "3,2,3,0 (grade ≥ 1 is relevant), or a column pasted from the sheet."),
    "n_relevant": N_("R: the relevant documents of the query in the whole collection, retrieved or not (IIR: "
                  "'the set of relevant documents'). Blank: the relevant documents of the list."),
    "k": N_("Cut-off k for AP@k: only the top k ranks count (trec_eval's map_cut_k). Blank: the whole list."),
    "denominator": N_("What the sum of P@i is divided by. IIR (§8.4) and trec_eval divide by R, so a relevant document "
                   "never retrieved counts as precision 0; some sheets divide by the relevant documents retrieved, "
                   "Kaggle's MAP@k by min(R, k)."),
    "own_title": N_("Your ranking {ranking}: {title}"),
    "describe": N_('{given} Compute P@i at every rank i, then AP = (1/R) Σ P@i over the relevant ranks.'),
    "describe_cut": N_(' at the ranks up to k = {k}'),
    "describe_options": N_('{given} Compute P@i{cut}, then {label}: Σ P@i over the relevant ranks{cut}, divided as '
                           '{divided}.'),
})


def ap_denominator(rels, k, n_relevant, denominator: str) -> int:
    """What AP divides by under ``denominator`` (a value of :data:`rankviz.registry.AP_DENOMINATOR`).

    R is ``n_relevant`` (None: the relevant documents of the whole list); "retrieved" counts the
    relevant documents in the top k; "min_r_k" is min(R, k).

    >>> ap_denominator((1, 0, 1, 0, 1), 3, 4, "R"), ap_denominator((1, 0, 1, 0, 1), 3, 4, "retrieved")
    (4, 2)
    >>> ap_denominator((1, 0, 1, 0, 1), 3, 4, "min_r_k")
    3
    """
    AP_DENOMINATOR.choice(denominator)
    r = n_relevant if n_relevant is not None else count_relevant(rels)
    if denominator == "retrieved":
        return count_relevant(rels[:k] if k is not None else rels)
    if denominator == "min_r_k" and k is not None:
        return min(r, k)
    return r


def check_cutoff(k, n: int, name: str = "k"):
    """``k`` when it is None or a whole number of at least 1 (past the list's end the missing ranks
    count as not relevant, as trec_eval pads); InputError naming ``name`` otherwise."""
    if k is None:
        return None
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise InputError(name, translate(N_('The cut-off {name} must be a whole number of at least 1 (or blank: the '
                                            'whole list); got {k}.')).format(name=name, k=repr(k)))
    return k


def _shown_ranks(rels) -> list[int]:
    """The ranks whose P@i the working writes: every rank of a short list, the relevant ones of a long one."""
    if len(rels) <= EVERY_RANK_UP_TO:
        return list(range(1, len(rels) + 1))
    return [rank for rank, grade in enumerate(rels, 1) if grade >= 1]


def _ap_label(exercise: Exercise) -> str:
    k = exercise.param("k")
    return "AP" if k is None else f"AP@{k}"


def ap_steps(exercise: Exercise) -> list[Step]:
    """P@i at every rank (stage 1), then AP = (1/R) Σ P@i over the relevant ranks (stage 2),
    every value from :func:`rankviz.metrics.average_precision_breakdown`.

    With ``k`` in ``params`` only the top k ranks count (AP@k); ``denominator`` picks what the sum
    is divided by (:func:`ap_denominator`). A list of more than 20 ranks is worked at its relevant
    ranks only.

    >>> [round(s.expected, 3) for s in ap_steps(Exercise("ap", "x", rels=(1, 0, 1, 0, 0, 1), n_relevant=3))][-1]
    0.722
    >>> steps = ap_steps(Exercise("ap", "x", rels=(1, 0, 1, 0, 0, 1), n_relevant=3, params={"k": 3}))
    >>> [(s.label, round(s.expected, 3)) for s in steps][-1]
    ('AP@3', 0.556)
    """
    from rankviz.metrics import average_precision_breakdown

    k = check_cutoff(exercise.param("k"), len(exercise.rels))
    rels = tuple(exercise.rels)
    check_length(min(len(rels), k or len(rels)), N_("ranks"))
    denominator = exercise.param("denominator", "R")
    divisor = exercise.param("divisor")  # a mistake's working: another number to divide by
    n_rel = divisor if divisor is not None else ap_denominator(rels, k, exercise.n_relevant, denominator)
    # The top k alone (past the end the missing ranks add nothing): a divisor below the relevant documents of the
    # whole list (those in the top k, or min(R, k)) is then a valid R for the metric.
    worked = average_precision_breakdown(rels[:k] if k is not None else rels, n_relevant=n_rel)
    table = worked.by_roles()
    shown = set(_shown_ranks(rels[:k] if k is not None else rels))
    steps, relevant_steps = [], []
    for rank, is_relevant, hits, precision in zip(table["rank"], table["relevant"], table["relevant_so_far"],
                                                  table["precision"]):
        if int(rank) not in shown:
            continue
        if is_relevant:
            relevant_steps.append(len(steps))
        mark = "relevant" if is_relevant else "not relevant"
        steps.append(Step(f"P@{int(rank)} ({mark})", float(precision),
                          rf"\frac{{{int(hits)}}}{{{int(rank)}}} = {tex_number(precision)}", stage="Step 1: P@i",
                          hint=TEXTS["precision_hint"].format(rank=int(rank))))
    n_rel = int(worked.details["n_relevant"])
    value = float(worked.value)
    terms = " + ".join(tex_number(steps[i].expected) for i in relevant_steps) or "0"
    if k is None:
        hint = TEXTS["ap_hint"].format()
    else:
        hint = TEXTS["ap_k_hint"].format(k=k, fraction=AP_DENOMINATOR.choice(denominator).formula,
                                         divisor_words=AP_DENOMINATOR.label(denominator))
    steps.append(Step(_ap_label(exercise), value, rf"\frac{{1}}{{{n_rel}}}\left({terms}\right) = {tex_number(value)}",
                      uses=tuple(relevant_steps), rule="sum", scale=float(max(n_rel, 1)), stage="Step 2: AP",
                      hint=hint))
    return steps


def _generate(rng, seed: int) -> Exercise:
    n = rng.randint(6, 10)
    grades = [int(rng.random() < 0.4) for _ in range(n)]
    if not any(grades):
        grades[rng.randrange(n)] = 1
    return Exercise("ap", f"Practice exercise {seed}: {english_title(KIND)}", rels=tuple(grades),
                    n_relevant=sum(grades) + rng.randint(0, 2))


def _describe(exercise: Exercise) -> str:
    k = exercise.param("k")
    denominator = exercise.param("denominator", "R")
    if k is None and denominator == "R":
        return TEXTS["describe"].format(given=binary_ranking_words(exercise.rels, exercise.n_relevant))
    cut = TEXTS["describe_cut"].format(k=k) if k is not None else ""
    return TEXTS["describe_options"].format(given=binary_ranking_words(exercise.rels, exercise.n_relevant), cut=cut,
                                            label=_ap_label(exercise), divided=translate(AP_DENOMINATOR.label(denominator)))


def _reference(exercise: Exercise) -> dict:
    from rankviz.metrics import average_precision, precision

    k = exercise.param("k")
    rels = tuple(exercise.rels)
    n_rel = ap_denominator(rels, k, exercise.n_relevant, exercise.param("denominator", "R"))
    values = {_ap_label(exercise): average_precision(rels[:k] if k is not None else rels, n_relevant=n_rel)}
    for rank in _shown_ranks(rels[:k] if k is not None else rels):
        values[f"P@{rank} ({'relevant' if rels[rank - 1] >= 1 else 'not relevant'})"] = precision(rels, rank)
    return values


def _own(*, rels, n_relevant=None, k=None, denominator="R") -> Exercise:
    shown = " ".join("R" if grade >= 1 else "N" for grade in rels)
    exercise = Exercise("ap", TEXTS.source["own_title"].format(ranking=shown, title=english_title(KIND)), rels=tuple(rels),
                        n_relevant=n_relevant, params={"k": k, "denominator": denominator})
    if n_relevant is not None and n_relevant < count_relevant(rels):
        raise InputError("n_relevant", translate(N_('R = {n_relevant} is below the {count_relevant_rels} relevant '
                                                    'documents of the list: R counts every relevant document of the '
                                                    'query.')).format(
            n_relevant=n_relevant, count_relevant_rels=count_relevant(rels)))
    return exercise


INPUTS = (
    OwnInput("rels", N_("Relevance in ranked order"), TEXTS.source["rels"], "relevance", required=True, example="R N R N N R"),
    OwnInput("n_relevant", N_("R (relevant documents in the collection)"), TEXTS.source["n_relevant"], "int",
             blank=N_("the relevant documents of the list")),
    OwnInput("k", N_("Cut-off k (AP@k)"), TEXTS.source["k"], "int", blank=N_("the whole list")),
    OwnInput("denominator", N_("Divide the sum by"), TEXTS.source["denominator"], "choice", param=AP_DENOMINATOR),
)

KIND = register_kind(KindSpec(
    "ap", N_("P@i down the ranking and average precision (AP)"), _generate, ap_steps, _describe, reference=_reference,
    presets={key: ranking_preset("ap", key) for key in ("ap_positions_1_3_6", "q1_binary", "q2_binary")},
    metrics=("precision", "average_precision"), inputs=INPUTS, own=_own))


# ---------------------------------------------------------------------------- mistakes


def _with_params(**changes):
    def working(exercise, steps):
        return ap_steps(exercise.with_params(**changes))
    return working


def _divided_by(count):
    """The working dividing by ``count(exercise)`` instead (None where that is the right number)."""
    def working(exercise, steps):
        n = count(exercise)
        right = int(steps[-1].scale)
        if n == right or n <= 0:
            return None
        return ap_steps(exercise.with_params(divisor=n))
    return working


def _list_length(exercise: Exercise) -> int:
    k = exercise.param("k")
    return len(exercise.rels) if k is None else min(k, len(exercise.rels))


def _every_rank_shown(exercise: Exercise, steps) -> bool:
    return len(steps) - 1 == _list_length(exercise)


def _averaged_every_rank(exercise, steps):
    if not _every_rank_shown(exercise, steps):
        return None  # a long list's working writes the relevant ranks only
    last = steps[-1]
    every = tuple(range(len(steps) - 1))
    value = sum(steps[i].expected for i in every) / len(every)
    terms = " + ".join(tex_number(steps[i].expected) for i in every)
    return steps[:-1] + [replace(last, expected=value, uses=every, scale=float(len(every)), alternatives=(),
                                 formula=rf"\frac{{1}}{{{len(every)}}}\left({terms}\right) = {tex_number(value)}")]


def _recall_for_precision(exercise, steps):
    n_rel = exercise.n_relevant if exercise.n_relevant is not None else count_relevant(exercise.rels)
    if not n_rel:
        return None
    k = exercise.param("k")
    ranks = _shown_ranks(exercise.rels[:k] if k is not None else exercise.rels)
    mistaken = []
    for rank, step in zip(ranks, steps):
        hits = count_relevant(exercise.rels[:rank])
        mistaken.append(replace(step, expected=hits / n_rel, alternatives=(),
                                formula=rf"\frac{{{hits}}}{{{n_rel}}} = {tex_number(hits / n_rel)}"))
    return mistaken + [replace(steps[-1], expected=sum(mistaken[i].expected for i in steps[-1].uses) / steps[-1].scale,
                               alternatives=())]


def _whole_list(exercise, steps):
    """AP of the whole list where AP@k was asked."""
    from rankviz.metrics import average_precision

    k = exercise.param("k")
    if k is None or k >= len(exercise.rels):
        return None
    rels = tuple(exercise.rels)
    n_rel = ap_denominator(rels, None, exercise.n_relevant, exercise.param("denominator", "R"))
    value = float(average_precision(rels, n_relevant=n_rel))
    return steps[:-1] + [replace(steps[-1], expected=value, rule="", uses=(), alternatives=(),
                                 formula=rf"\mathrm{{AP}}\ \text{{of all {len(rels)} ranks}} = {tex_number(value)}")]


def _asked(exercise: Exercise) -> str:
    asked = exercise.param("denominator", "R")
    # min(R, k) without a cut-off is R itself.
    return "R" if asked == "min_r_k" and exercise.param("k") is None else asked


register_convention("ap_divided_by_retrieved_relevant", AP_DENOMINATOR, "retrieved", "ap",
                    _with_params(denominator="retrieved"), asked_of=_asked)
register_convention("ap_divided_by_r", AP_DENOMINATOR, "R", "ap", _with_params(denominator="R"), asked_of=_asked)
register_convention("ap_divided_by_min_r_k", AP_DENOMINATOR, "min_r_k", "ap", _with_params(denominator="min_r_k"),
                    asked_of=_asked)
register_mistake("ap_divided_by_k", N_("You divided by the length of the ranking; AP divides the sum of P@i at the "
                                    "relevant ranks by R, the number of relevant documents."),
                 "ap", _divided_by(_list_length))
register_mistake("ap_every_rank", N_("You averaged P@i over every rank; AP adds P@i only at the ranks of relevant "
                                  "documents, then divides by R."), "ap", _averaged_every_rank)
register_mistake("ap_recall_for_precision", N_("You divided the relevant documents so far by R (that is recall at i); "
                                            "P@i divides them by i, the number of documents seen."),
                 "ap", _recall_for_precision)
register_mistake("ap_at_k_whole_list", N_("You worked the whole list; AP@k stops at rank k: only the relevant documents "
                                       "in the top k add their P@i."), "ap", _whole_list)

register_title_templates(*(text for key, text in TEXTS.source.items() if "title" in key))
