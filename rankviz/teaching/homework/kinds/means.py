"""Mean-based exercises: MAP over queries, GMAP and HMAP of runs, the lecture's interpolated
per-query "MAP" and 11-point interpolated precision, and the mistakes made on the way.

* ``map`` keeps in ``params``: ``rankings`` (one tuple of binary grades per query, in ranked
  order), ``n_relevant`` (R of each query: every relevant document of the collection) and,
  optionally, ``queries`` (their names; q1, q2, ... by default). A relevant document never
  retrieved adds a precision of 0 (the lecture's note under "Mean Average Precision").
* ``gmap`` keeps ``runs``: pairs (run name, the AP of each topic), every run over the same
  topics, every AP above 0 (so trec_eval's floor of 1e-5 for AP = 0 never enters).
* ``interpolated_map`` (levels 0.1, ..., 1.0: course 002, "MAP - An example") and
  ``eleven_point`` (levels 0.0, ..., 1.0) use ``rels`` (binary) and ``n_relevant`` (R) like
  ``ap``; a mistaken working may set ``params["rounding"]`` (how a level becomes a count of
  relevant documents, "ceil" unless a mistake says otherwise).
"""

from __future__ import annotations

import math
from dataclasses import replace

from rankviz.formatting import format_number
from rankviz.i18n import N_
from rankviz.i18n import _ as translate
from rankviz.metrics import count_relevant
from rankviz.registry import AP_DENOMINATOR, ELEVEN_LEVELS, ROUNDING
from rankviz.teaching.homework.core import (Exercise, InputError, KindSpec, OwnInput, Step, TranslatedWords,
    binary_ranking_words, check_length, english_title, ranking_preset, register_kind, tex_number)
from rankviz.teaching.homework.kinds.average_precision import ap_denominator, check_cutoff
from rankviz.teaching.homework.mistakes import register_convention, register_mistake
from rankviz.teaching.homework.words import register_title_templates

__all__ = ["eleven_point_steps", "gmap_steps", "interpolated_map_steps", "map_steps"]

_ELEVEN_LEVELS = ELEVEN_LEVELS  # the registry's 0.0, 0.1, ..., 1.0
_TEN_LEVELS = ELEVEN_LEVELS[1:]  # the lecture's interpolated MAP leaves out level 0
INTERPOLATED_MAP_LABEL = "interpolated MAP (mean of the 10 levels)"
ELEVEN_POINT_LABEL = "11-point average"

# What a student reads: the step hints and the inputs of their own exercise, in the textbooks' words.
TEXTS = TranslatedWords({
    "map_precision_hint": N_("P@{rank} of {name}: the relevant documents in its top {rank}, divided by {rank}."),
    "map_ap_hint": N_("AP of {name} adds P@i at its relevant ranks and divides by {divisor_words} (IIR §8.4: a relevant "
                   "document never retrieved adds 0; a query with no relevant document has AP 0): "
                   "$\\mathrm{{AP}} = {fraction} \\sum_{{i \\text{{ relevant}}}} P@i$."),
    "map_hint": N_("MAP is the mean of the {count} queries' AP, every query counted, an AP of 0 too: "
                "$\\mathrm{{MAP}} = \\frac{{1}}{{|Q|}} \\sum_q \\mathrm{{AP}}(q)$."),
    "gmap_map_hint": N_("MAP of {name} is the arithmetic mean of its APs."),
    "gmap_logs_hint": N_("Add up the natural logarithms of {name}'s APs: $\\sum \\ln \\mathrm{{AP}}$."),
    "gmap_hint": N_("GMAP of {name} is the geometric mean of its APs: $\\mathrm{{GMAP}} = \\exp\\left(\\frac{{1}}{{n}} "
                 "\\sum \\ln \\mathrm{{AP}}\\right) = \\sqrt[n]{{\\prod \\mathrm{{AP}}}}$."),
    "gmap_reciprocals_hint": N_("Add up 1/AP over {name}'s topics: $\\sum 1/\\mathrm{{AP}}$."),
    "hmap_hint": N_("HMAP of {name} is the harmonic mean of its APs: $\\mathrm{{HMAP}} = \\frac{{n}}{{\\sum "
                 "1/\\mathrm{{AP}}}}$."),
    "level_hint": N_("P_interp({level}) is the largest precision at any rank whose recall is at least {level} (IIR "
                  "§8.4: $p_{{interp}}(r) = \\max_{{r' \\ge r}} p(r')$); recall {level} needs {rule} relevant "
                  "documents."),
    "mean_hint": N_("The mean of the interpolated precisions at the {count} recall levels."),
    "rels": N_("Relevance of each retrieved document in ranked order, rank 1 first: R N R N N, 1 0 1 0 0, or a column "
            "pasted from the sheet (grade ≥ 1 is relevant)."),
    "n_relevant": N_("R: the relevant documents of the query in the whole collection, retrieved or not; recall is "
                  "measured against it. Blank: the relevant documents of the list."),
    "rankings": N_("One query per line, its relevance in ranked order (R N R or 1 0 1). A line of only N is a query "
                "that retrieved no relevant document."),
    "names": N_("The queries' names, in the order of the lines (blank: q1, q2, ...)."),
    "n_relevant_each": N_("R of each query, in the order of the lines: its relevant documents in the whole collection "
                       "(0 for a query with none: its AP is 0). Blank: the relevant documents of each line."),
    "k": N_("Cut-off k for MAP@k: each query's AP looks at its top k only. Blank: the whole lists."),
    "denominator": N_("What each query's sum of P@i is divided by: R (IIR, trec_eval), the relevant documents retrieved, "
                   "or min(R, k) (Kaggle's MAP@k)."),
    "runs": N_("One run per line: the AP of each topic, in the same topic order for every run."),
    "run_names": N_("The runs' names, in the order of the lines (blank: Run 1, Run 2, ...)."),
    "levels": N_("The recall levels the sheet asks about, e.g. 0.33, 25% or 0.1 0.2 0.3 (blank: the 10 levels 0.1 to "
              "1.0)."),
    "rounding": N_("How a recall level r becomes a number of relevant documents: the textbook's 'recall at least r' "
                "(IIR), or trec_eval's rounding."),
    "map_title": N_("Your {count} queries: AP of each and {mean}"),
    "gmap_title": N_("Your {count} runs over {topics} topics: MAP, GMAP and HMAP"),
    "interpolated_title": N_("Your ranking {ranking}: interpolated precision at recall {levels}"),
    "eleven_title": N_("Your ranking {ranking}: 11-point interpolated average precision"),
    "mean_label": N_("mean of the {count} levels"),
    "map_given": N_('Relevance in ranked order (1 = relevant) of each query, and R, its relevant documents in the '
                    'collection:\n\n| {query} | {ranking} | R |\n|---|---|---|\n{rows}\n\n'),
    "query": N_('query'),
    "ranking": N_('ranking'),
    "topic": N_('topic'),
    "topic_number": N_('Topic {t}'),
    "map_describe": N_('For each query compute P@i at each relevant rank and AP = (1/R) Σ P@i (a relevant document '
                       'never retrieved adds 0); then MAP, the mean of the {n} APs.'),
    "map_describe_cut": N_(' in its top k = {k}'),
    "map_describe_options": N_('For each query compute P@i at each relevant rank{cut} and {ap}, their sum divided as '
                               '{divided}; then the mean of the {n} values.'),
    "gmap_describe": N_('The average precision of each run on each of {n} topics:\n\n{table}\n\nFor each run compute '
                        'MAP (the arithmetic mean of the APs), Σ ln AP and GMAP = exp(Σ ln AP / n) (the n-th root of '
                        'the product of the APs), then Σ 1/AP and HMAP = n / Σ 1/AP.'),
    "then": N_('then {what}'),
    "joiner": N_('; '),
    "level_rule": N_(' A level r needs {rule} relevant documents.'),
    "interpolated_describe": N_('{given} At each recall level r = {levels}, compute the interpolated precision '
                                'P_interp(r) = the largest P@i over the ranks i with recall R@i ≥ r (0 when no rank '
                                'reaches r){mean}.{rule}'),
    "f_recall": N_('recall'),
    "f_no_rank_has": N_('no rank has {needed} of the {r} relevant'),
    "f_no_rank_reaches": N_('no rank reaches recall {level}'),
})


def _grades_text(rels) -> str:
    return ", ".join(format_number(g) for g in rels)


def _preset(key: str):
    from rankviz.teaching.presets import get_preset

    return get_preset(key)


# ---------------------------------------------------------------------------- MAP


def _map_queries(exercise: Exercise) -> tuple[tuple, tuple, tuple]:
    """(names, rankings, R per query) of a ``map`` exercise, checked (an R of None: the relevant documents of
    the ranking)."""
    rankings = tuple(tuple(ranking) for ranking in exercise.param("rankings", ()))
    n_relevant = tuple(exercise.param("n_relevant", ()))
    if not rankings:
        raise InputError("rankings", translate(N_('A MAP exercise needs at least one query; got no rankings.')))
    if len(n_relevant) != len(rankings):
        raise InputError("n_relevant", translate(N_('Give R (the relevant documents of the collection) for each '
                                                    'query: {len_rankings} rankings but {len_n_relevant} values of R.')).format(
            len_rankings=len(rankings), len_n_relevant=len(n_relevant)))
    names = tuple(exercise.param("queries", ())) or tuple(f"q{i}" for i in range(1, len(rankings) + 1))
    if len(names) != len(rankings) or len(set(names)) != len(names):
        raise InputError("names", translate(N_('Give each of the {len_rankings} queries its own name; got {names}.')).format(
            
            len_rankings=len(rankings), names=repr(names)))
    for name, ranking, r in zip(names, rankings, n_relevant):
        check_length(len(ranking), f"ranks per query ({name} has {len(ranking)})")
        if r is not None and r < count_relevant(ranking):
            raise InputError("n_relevant", translate(N_('R = {r} of {name} is below the {count_relevant_ranking} '
                                                        'relevant documents of its ranking: R counts every relevant '
                                                        'document of the query.')).format(
                r=r, name=name, count_relevant_ranking=count_relevant(ranking)))
    return names, rankings, n_relevant


def _ap_word(exercise: Exercise) -> str:
    k = exercise.param("k")
    return "AP" if k is None else f"AP@{k}"


def map_steps(exercise: Exercise) -> list[Step]:
    """For each query (one stage each): P@i at its relevant ranks and its AP = (1/R) Σ P@i
    (a relevant document never retrieved adds 0); then MAP, the mean of the APs. Values from
    :func:`rankviz.metrics.average_precision_breakdown` and
    :func:`rankviz.metrics.mean_average_precision_breakdown`.

    Examples
    --------
    q1 relevant at ranks 1 and 3 with R = 3: AP = (1 + 2/3 + 0) / 3 = 0.556; q2 relevant at
    rank 2 with R = 1: AP = 1/2; MAP = (0.556 + 0.5) / 2 = 0.528.

    >>> steps = map_steps(Exercise("map", "x", params={"rankings": ((1, 0, 1), (0, 1)), "n_relevant": (3, 1)}))
    >>> for step in steps:
    ...     print(step.label, round(step.expected, 3), step.uses, step.rule or "-", step.scale)
    q1: P@1 1.0 () - 1.0
    q1: P@3 0.667 () - 1.0
    AP of q1 0.556 (0, 1) sum 3.0
    q2: P@2 0.5 () - 1.0
    AP of q2 0.5 (3,) sum 1.0
    MAP 0.528 (2, 4) sum 2.0
    >>> print(steps[2].formula)
    \\frac{1}{3}\\left(1 + 0.667 + 0\\right) = 0.556
    """
    from rankviz.metrics import average_precision_breakdown, mean_average_precision_breakdown

    names, rankings, n_relevants = _map_queries(exercise)
    steps: list[Step] = []
    ap_indices = []
    k = check_cutoff(exercise.param("k"), 0)
    denominator = exercise.param("denominator", "R")
    divisors = exercise.param("divisors")  # a mistake's working: another number to divide each AP by
    ap_word = _ap_word(exercise)
    for number, (name, rels, n_relevant) in enumerate(zip(names, rankings, n_relevants), 1):
        top = rels[:k] if k is not None else rels
        n_rel = divisors[number - 1] if divisors is not None else ap_denominator(rels, k, n_relevant, denominator)
        worked = average_precision_breakdown(top, n_relevant=n_rel)
        table = worked.by_roles()
        stage = f"Step {number}: {ap_word} of {name}"
        used = []
        for rank, is_relevant, hits, precision in zip(table["rank"], table["relevant"], table["relevant_so_far"],
                                                      table["precision"]):
            if is_relevant:
                used.append(len(steps))
                steps.append(Step(f"{name}: P@{int(rank)}", float(precision),
                                  rf"\frac{{{int(hits)}}}{{{int(rank)}}} = {tex_number(precision)}", stage=stage,
                                  hint=TEXTS["map_precision_hint"].format(name=name, rank=int(rank))))
        n_rel = int(worked.details["n_relevant"])
        # The lecture: a relevant document never retrieved counts with precision 0.
        terms = [tex_number(steps[i].expected) for i in used] + ["0"] * (n_rel - len(used))
        value = float(worked.value)
        hint = TEXTS["map_ap_hint"].format(name=name, divisor_words=AP_DENOMINATOR.label(denominator),
                                           fraction=AP_DENOMINATOR.choice(denominator).formula)
        steps.append(Step(f"{ap_word} of {name}", value,
                          rf"\frac{{1}}{{{n_rel}}}\left({' + '.join(terms) or '0'}\right) = {tex_number(value)}"
                          if n_rel else r"\text{no relevant document} \Rightarrow 0",
                          uses=tuple(used), rule="sum", scale=float(max(n_rel, 1)), stage=stage, hint=hint))
        ap_indices.append(len(steps) - 1)
    check_length(len(steps) + 1, "steps (relevant documents retrieved, APs and MAP)")
    mean = mean_average_precision_breakdown([steps[i].expected for i in ap_indices], queries=list(names))
    count = len(ap_indices)
    terms = " + ".join(tex_number(steps[i].expected) for i in ap_indices)
    steps.append(Step("MAP" if k is None else f"MAP@{k}", float(mean.value),
                      rf"\frac{{1}}{{{count}}}\left({terms}\right) = {tex_number(mean.value)}",
                      uses=tuple(ap_indices), rule="sum", scale=float(count), stage=f"Step {count + 1}: MAP",
                      hint=TEXTS["map_hint"].format(count=count)))
    return steps


def _generate_map(rng, seed: int) -> Exercise:
    n_queries = rng.randint(2, 3)
    # Now and then a query retrieves none of its relevant documents: AP 0, still one of the queries.
    empty = rng.randrange(n_queries) if rng.random() < 0.3 else None
    rankings, n_relevant = [], []
    for query in range(n_queries):
        n = rng.randint(4, 7)
        if query == empty:
            grades = [0] * n
            missed = rng.randint(1, 3)
        else:
            grades = [int(rng.random() < 0.45) for _ in range(n)]
            while sum(grades) > 4:
                grades[rng.choice([i for i, g in enumerate(grades) if g])] = 0
            if not any(grades):
                grades[rng.randrange(n)] = 1
            missed = rng.randint(0, 2)
        rankings.append(tuple(grades))
        n_relevant.append(sum(grades) + missed)
    return Exercise("map", f"Practice exercise {seed}: {english_title(MAP_KIND)}",
                    params={"rankings": tuple(rankings), "n_relevant": tuple(n_relevant)})


def _describe_map(exercise: Exercise) -> str:
    names, rankings, n_relevants = _map_queries(exercise)
    rows = "\n".join(f"| {name} | {_grades_text(rels)} | {r if r is not None else count_relevant(rels)} |"
                     for name, rels, r in zip(names, rankings, n_relevants))
    k, denominator = exercise.param("k"), exercise.param("denominator", "R")
    given = TEXTS["map_given"].format(query=TEXTS["query"], ranking=TEXTS["ranking"], rows=rows)
    if k is None and denominator == "R":
        return given + TEXTS["map_describe"].format(n=len(names))
    cut = TEXTS["map_describe_cut"].format(k=k) if k is not None else ""
    return given + TEXTS["map_describe_options"].format(cut=cut, ap=_ap_word(exercise), n=len(names),
                                                        divided=translate(AP_DENOMINATOR.label(denominator)))


def _map_from_preset() -> Exercise:
    preset = _preset("map_q1_q2")
    queries = [_preset(key) for key in preset.queries]
    return Exercise("map", N_("MAP over q1 and q2 with (non-interpolated) AP"), source=preset.source,
                    note=("This working averages each query's non-interpolated AP: (0.290 + 0.261) / 2 = 0.276. "
                          "The slide's 0.28 and 0.254 are the interpolated per-query values (the "
                          "interpolated_map_q1 and interpolated_map_q2 exercises); its MAP (0.28 + 0.254) / 2 = "
                          "0.267 is this MAP step applied to those. " + english_title(preset, "note")),
                    params={"rankings": tuple(tuple(q.rels) for q in queries),
                            "n_relevant": tuple(q.n_relevant for q in queries), "queries": ("q1", "q2")})


def _map_reference(exercise: Exercise) -> dict:
    from rankviz.metrics import average_precision, mean_average_precision, precision

    names, rankings, n_relevants = _map_queries(exercise)
    k = exercise.param("k")
    values, aps = {}, []
    for name, rels, n_relevant in zip(names, rankings, n_relevants):
        top = rels[:k] if k is not None else rels
        for rank, grade in enumerate(top, 1):
            if grade >= 1:
                values[f"{name}: P@{rank}"] = precision(rels, rank)
        n_rel = ap_denominator(rels, k, n_relevant, exercise.param("denominator", "R"))
        aps.append(average_precision(top, n_relevant=n_rel))
        values[f"{_ap_word(exercise)} of {name}"] = aps[-1]
    values["MAP" if k is None else f"MAP@{k}"] = mean_average_precision(aps)
    return values


def _own_map(*, rankings, names=None, n_relevant=None, k=None, denominator="R") -> Exercise:
    if n_relevant is None:
        n_relevant = (None,) * len(rankings)
    elif len(n_relevant) != len(rankings):
        raise InputError("n_relevant", translate(N_('Give R for each of the {len_rankings} queries (one per line of '
                                                    'the rankings); got {len_n_relevant}.')).format(
            len_rankings=len(rankings), len_n_relevant=len(n_relevant)))
    if names is not None and (len(names) != len(rankings) or len(set(names)) != len(names)):
        raise InputError("names", translate(N_('Give each of the {len_rankings} queries its own name (or none: q1, '
                                               'q2, ...); got {join_map_str_names}.')).format(
            len_rankings=len(rankings), join_map_str_names=', '.join(map(str, names))))
    mean = "MAP" if k is None else f"MAP@{k}"
    return Exercise("map", TEXTS.source["map_title"].format(count=len(rankings), mean=mean),
                    params={"rankings": tuple(tuple(r) for r in rankings), "n_relevant": tuple(n_relevant),
                            "queries": tuple(names or ()), "k": k, "denominator": denominator})


MAP_INPUTS = (
    OwnInput("rankings", N_("Rankings, one query per line"), TEXTS.source["rankings"], "rankings", required=True,
             example="R N R N N N N N R R\nN R N N R R R N N N"),
    OwnInput("names", N_("Query names"), TEXTS.source["names"], "names", blank="q1, q2, ..."),
    OwnInput("n_relevant", N_("R of each query"), TEXTS.source["n_relevant_each"], "ints",
             blank=N_("the relevant documents of each line"), example="4 4"),
    OwnInput("k", N_("Cut-off k (MAP@k)"), TEXTS.source["k"], "int", blank=N_("the whole lists")),
    OwnInput("denominator", N_("Divide each AP's sum by"), TEXTS.source["denominator"], "choice", param=AP_DENOMINATOR),
)

MAP_KIND = register_kind(KindSpec(
    "map", N_("AP of each query and mean average precision (MAP)"), _generate_map, map_steps, _describe_map,
    reference=_map_reference, presets={"map_q1_q2": _map_from_preset},
    metrics=("average_precision", "mean_average_precision"), inputs=MAP_INPUTS, own=_own_map))


# ---------------------------------------------------------------------------- GMAP and HMAP


def _runs(exercise: Exercise) -> tuple[tuple[str, tuple[float, ...]], ...]:
    """The (run name, APs) pairs of a ``gmap`` exercise, checked."""
    runs = tuple((str(name), tuple(float(ap) for ap in aps)) for name, aps in exercise.param("runs", ()))
    if not runs:
        raise InputError("runs", translate(N_('A GMAP exercise needs at least one run; got none.')))
    if len({name for name, _ in runs}) != len(runs):
        raise InputError("names", translate(N_('Give each run its own name; a name is given twice.')))
    counts = {len(aps) for _, aps in runs}
    if len(counts) != 1 or 0 in counts:
        raise InputError("runs", translate(N_('Give every run one AP per topic, over the same topics; got '
                                              '{join_f_len_aps_for_name}.')).format(
            join_f_len_aps_for_name=', '.join((f'{len(aps)} for {name}' for name, aps in runs))))
    check_length(len(runs[0][1]), N_("topics"))
    check_length(5 * len(runs), "steps (5 per run)")
    for name, aps in runs:
        for topic, ap in enumerate(aps, 1):
            if not (math.isfinite(ap) and 0 < ap <= 1):
                raise InputError("runs", translate(N_("Every AP of a GMAP exercise must be above 0 and at most 1; "
                                                      "got {ap} for topic {topic} of {name}. (An AP of 0 counts as "
                                                      "trec_eval's floor 1e-5, whose log and reciprocal would swamp "
                                                      "the others.)")).format(
                    ap=format(ap, 'g'), topic=topic, name=name))
    return runs


def gmap_steps(exercise: Exercise) -> list[Step]:
    """MAP of each run (stage 1); Σ ln AP and GMAP = exp(Σ ln AP / n) = (Π AP)^(1/n) of each run
    (stage 2); Σ 1/AP and HMAP = n / Σ 1/AP of each run (stage 3). Values from
    :func:`rankviz.metrics.mean_average_precision_breakdown`,
    :func:`~rankviz.metrics.geometric_mean_average_precision_breakdown` and
    :func:`~rankviz.metrics.harmonic_mean_average_precision_breakdown`.

    Examples
    --------
    The lecture's "GMAP - example", Run 1: ln 0.05 + ln 0.1 + 2 ln 0.5 + ln 0.75 = -6.972,
    exp(-6.972 / 5) = 0.248; 1/0.05 + 1/0.1 + 2/0.5 + 1/0.75 = 35.333, 5 / 35.333 = 0.142.

    >>> runs = (("Run 1", (0.05, 0.10, 0.50, 0.50, 0.75)),)
    >>> for step in gmap_steps(Exercise("gmap", "x", params={"runs": runs})):
    ...     print(step.label, round(step.expected, 3), step.rule or "-")
    Run 1: MAP 0.38 -
    Run 1: Σ ln AP -6.972 -
    Run 1: GMAP 0.248 exp_mean
    Run 1: Σ 1/AP 35.333 -
    Run 1: HMAP 0.142 reciprocal
    """
    from rankviz.metrics import (
        geometric_mean_average_precision_breakdown,
        harmonic_mean_average_precision_breakdown,
        mean_average_precision_breakdown,
    )

    runs = _runs(exercise)
    n = len(runs[0][1])
    means, geometric, harmonic = [], [], []
    for name, aps in runs:
        listed = [tex_number(ap, 4) for ap in aps]
        product = r" \times ".join(listed)
        worked = mean_average_precision_breakdown(aps)
        means.append(Step(f"{name}: MAP", float(worked.value),
                          rf"\frac{{{' + '.join(listed)}}}{{{n}}} = {tex_number(worked.value)}", stage="Step 1: MAP",
                          hint=TEXTS["gmap_map_hint"].format(name=name)))
        worked = geometric_mean_average_precision_breakdown(aps)
        logs = float(math.fsum(worked.table["ln max(AP, ε)"]))
        geometric.append((
            Step(f"{name}: Σ ln AP", logs, " + ".join(rf"\ln {ap}" for ap in listed) + f" = {tex_number(logs)}",
                 stage="Step 2: GMAP", hint=TEXTS["gmap_logs_hint"].format(name=name)),
            Step(f"{name}: GMAP", float(worked.value),
                 rf"\exp\left(\frac{{{tex_number(logs)}}}{{{n}}}\right) = \sqrt[{n}]{{{product}}}"
                 rf" = {tex_number(worked.value)}", rule="exp_mean", scale=float(n), stage="Step 2: GMAP",
                 hint=TEXTS["gmap_hint"].format(name=name))))
        worked = harmonic_mean_average_precision_breakdown(aps)
        reciprocals = float(math.fsum(worked.table["1 / max(AP, ε)"]))
        harmonic.append((
            Step(f"{name}: Σ 1/AP", reciprocals,
                 " + ".join(rf"\frac{{1}}{{{ap}}}" for ap in listed) + f" = {tex_number(reciprocals)}",
                 stage="Step 3: HMAP", hint=TEXTS["gmap_reciprocals_hint"].format(name=name)),
            Step(f"{name}: HMAP", float(worked.value),
                 rf"\frac{{{n}}}{{{tex_number(reciprocals)}}} = {tex_number(worked.value)}", rule="reciprocal",
                 scale=float(n), stage="Step 3: HMAP", hint=TEXTS["hmap_hint"].format(name=name))))
    steps = list(means)
    for total, mean in (*geometric, *harmonic):
        steps.append(total)
        steps.append(replace(mean, uses=(len(steps) - 1,)))
    return steps


def _five_percent(units: int) -> float:
    return round(units * 0.05, 2)


def _generate_gmap(rng, seed: int) -> Exercise:
    n = rng.randint(3, 5)
    first = [rng.randint(1, 19) for _ in range(n)]  # APs in units of 0.05
    while len(set(first)) == 1:
        first[rng.randrange(n)] = rng.randint(1, 19)
    # The lecture's point: the same MAP, spread differently. Move 0.05s between topics (keeping the sum), towards
    # consistency or at random, until the runs differ as sets, so GMAP and HMAP tell apart what MAP cannot.
    second = list(first)
    toward = rng.random() < 0.5
    moves = rng.randint(2, 5)
    while moves > 0 or sorted(second) == sorted(first):
        high, low = second.index(max(second)), second.index(min(second))
        if toward and second[high] - second[low] >= 2:
            donor, receiver = high, low
        else:
            donor, receiver = rng.choice([(d, r) for d in range(n) for r in range(n)
                                          if d != r and second[d] > 1 and second[r] < 19])
        second[donor] -= 1
        second[receiver] += 1
        moves -= 1
    rng.shuffle(second)
    runs = (("Run 1", tuple(map(_five_percent, first))), ("Run 2", tuple(map(_five_percent, second))))
    return Exercise("gmap", f"Practice exercise {seed}: {english_title(GMAP_KIND)}", params={"runs": runs})


def _describe_gmap(exercise: Exercise) -> str:
    runs = _runs(exercise)
    n = len(runs[0][1])
    # One row per topic, a column per run: a phone shows every column however many topics there are.
    header = f"| {TEXTS['topic']} | " + " | ".join(f"{name} AP" for name, _ in runs) + " |"
    rule = "|---" * (len(runs) + 1) + "|"
    rows = "\n".join(f"| {TEXTS['topic_number'].format(t=t)} | "
                     + " | ".join(format_number(aps[t - 1], 4) for _, aps in runs) + " |" for t in range(1, n + 1))
    return TEXTS["gmap_describe"].format(n=n, table=f"{header}\n{rule}\n{rows}")


def _gmap_from_preset() -> Exercise:
    preset = _preset("gmap_runs")
    return Exercise("gmap", english_title(preset), source=preset.source, note=english_title(preset, "note"),
                    params={"runs": tuple((name, tuple(aps)) for name, aps in preset.runs.items())})


def _gmap_reference(exercise: Exercise) -> dict:
    from rankviz.metrics import (
        geometric_mean_average_precision,
        harmonic_mean_average_precision,
        mean_average_precision,
    )

    values = {}
    for name, aps in _runs(exercise):
        values[f"{name}: MAP"] = mean_average_precision(aps)
        values[f"{name}: GMAP"] = geometric_mean_average_precision(aps)
        values[f"{name}: HMAP"] = harmonic_mean_average_precision(aps)
        # The sums the means are made of, read back from the means: GMAP = exp(Σ ln AP / n), HMAP = n / Σ 1/AP.
        values[f"{name}: Σ ln AP"] = len(aps) * math.log(values[f"{name}: GMAP"])
        values[f"{name}: Σ 1/AP"] = len(aps) / values[f"{name}: HMAP"]
    return values


def _own_gmap(*, runs, names=None) -> Exercise:
    if names is None:
        names = tuple(f"Run {i}" for i in range(1, len(runs) + 1))
    if len(names) != len(runs) or len(set(names)) != len(names):
        raise InputError("names", translate(N_('Give each of the {len_runs} runs its own name (or none: Run 1, Run '
                                               '2, ...); got {join_map_str_names}.')).format(
            len_runs=len(runs), join_map_str_names=', '.join(map(str, names))))
    topics = len(runs[0]) if runs else 0
    return Exercise("gmap", TEXTS.source["gmap_title"].format(count=len(runs), topics=topics),
                    params={"runs": tuple((str(name), tuple(aps)) for name, aps in zip(names, runs))})


GMAP_INPUTS = (
    OwnInput("runs", N_("AP of each topic, one run per line"), TEXTS.source["runs"], "rows", required=True,
             example="0.05 0.1 0.5 0.5 0.75\n0.3 0.3 0.3 0.4 0.6"),
    OwnInput("names", N_("Run names"), TEXTS.source["run_names"], "names", blank="Run 1, Run 2, ..."),
)

GMAP_KIND = register_kind(KindSpec(
    "gmap", N_("MAP, GMAP and HMAP of runs over the same topics"), _generate_gmap, gmap_steps, _describe_gmap,
    reference=_gmap_reference, presets={"gmap_runs": _gmap_from_preset},
    metrics=("mean_average_precision", "geometric_mean_average_precision",
             "harmonic_mean_average_precision"), inputs=GMAP_INPUTS, own=_own_gmap))


# ---------------------------------------------------------------------------- interpolated precision


def _level_text(level: float) -> str:
    """A recall level as its step label writes it: one decimal for the standard levels, else as given.

    >>> _level_text(0.3), _level_text(0.0), _level_text(0.33), _level_text(0.25)
    ('0.3', '0.0', '0.33', '0.25')
    """
    return f"{level:.1f}" if math.isclose(level * 10, round(level * 10), abs_tol=1e-9) else format_number(level, 4)


def _custom_levels(exercise: Exercise) -> tuple | None:
    """The recall levels the sheet asks about (an interpolated_map exercise's ``levels``), None for the 10 standard ones."""
    levels = exercise.param("levels")
    if levels is None:
        return None
    levels = tuple(float(level) for level in levels)
    if not levels or any(not 0 <= level <= 1 for level in levels) or len(set(levels)) != len(levels):
        raise InputError("levels", translate(N_('The recall levels must be different numbers from 0 to 1; got '
                                                '{levels}.')).format(levels=repr(levels)))
    check_length(len(levels), N_("recall levels"))
    return levels


def _interpolated_working(exercise: Exercise, breakdown, mean_label: str | None) -> list[Step]:
    """One step per recall level (stage 1), then their mean (stage 2; none when ``mean_label`` is None),
    from ``breakdown``'s table."""
    import pandas as pd

    from rankviz.metrics import precision_recall_points

    check_length(len(exercise.rels), N_("ranks"))
    rounding = exercise.param("rounding", "ceil")
    ROUNDING.choice(rounding)
    if exercise.n_relevant is not None and exercise.n_relevant < count_relevant(exercise.rels):
        raise InputError("n_relevant", translate(N_('R = {exercise_n_relevant} is below the '
                                                    '{count_relevant_exercise} relevant documents of the list: R '
                                                    'counts every relevant document of the query.')).format(
            exercise_n_relevant=exercise.n_relevant, count_relevant_exercise=count_relevant(exercise.rels)))
    worked = breakdown(exercise.rels, n_relevant=exercise.n_relevant, rounding=rounding)
    points = precision_recall_points(exercise.rels, n_relevant=exercise.n_relevant)
    relevant_ranks = [rank for rank, grade in zip(points.rank, exercise.rels) if grade >= 1]
    hits_at = {rank: i for i, rank in enumerate(relevant_ranks, 1)}
    n_rel = int(worked.details["n_relevant"])
    rule = ROUNDING.choice(rounding).text
    steps = []
    for level, needed, first, value in zip(worked.column("level"), worked.column("needed"),
                                           worked.column("first_reaching"), worked.column("interpolated")):
        label = f"P_interp({_level_text(level)})"
        lead = rf"\text{{{TEXTS['f_recall']}}} \ge {_level_text(level)}: "
        if pd.isna(first):
            formula = lead + rf"\text{{{TEXTS['f_no_rank_has'].format(needed=int(needed), r=n_rel)}}} \Rightarrow 0"
        else:
            first = int(first)
            candidates = [rank for rank in relevant_ranks if rank >= first]
            terms = ", ".join(rf"\frac{{{hits_at[rank]}}}{{{rank}}}" for rank in candidates)
            where = (rf"\text{{{int(needed)} of {n_rel} relevant from rank {first}}}" if needed
                     else r"\text{every rank}")
            best = rf"\max\left({terms}\right)" if len(candidates) > 1 else terms
            formula = (lead + where + rf" \Rightarrow {best} = {tex_number(value)}" if candidates
                       else lead + where + r" \Rightarrow 0")
        hint = TEXTS["level_hint"].format(level=_level_text(level), rule=f"{rule} = {int(needed)}")
        steps.append(Step(label, float(value), formula, stage="Step 1: interpolated precision at each recall level",
                          hint=hint))
    if mean_label is None:
        return steps
    value = float(worked.value)
    count = len(steps)
    steps.append(Step(mean_label, value,
                      rf"\frac{{1}}{{{count}}}\left({' + '.join(tex_number(s.expected) for s in steps)}\right)"
                      rf" = {tex_number(value)}",
                      uses=tuple(range(count)), rule="sum", scale=float(count), stage="Step 2: the mean",
                      hint=TEXTS["mean_hint"].format(count=count)))
    return steps


def interpolated_map_steps(exercise: Exercise) -> list[Step]:
    """The lecture's per-query "MAP": interpolated precision at recall 0.1, ..., 1.0 (stage 1),
    then their mean (stage 2), from :func:`rankviz.metrics.interpolated_average_precision_breakdown`
    (the textbook rule: level r needs ceil(r R) relevant documents; ``params["rounding"]`` another
    rule of :data:`rankviz.registry.ROUNDING`). ``params["levels"]``: the recall levels a sheet asks
    about instead (any levels from 0 to 1; one level has no mean).

    Examples
    --------
    The lecture's q2 (relevant at ranks 3, 8 and 15, R = 3): 1/3 at 0.1 to 0.3, 2/8 at 0.4 to
    0.6, 3/15 at 0.7 to 1.0, mean 0.255 (the slide, with 1/3 written 0.33: 0.254).

    >>> q2 = (0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1)
    >>> steps = interpolated_map_steps(Exercise("interpolated_map", "q2", rels=q2, n_relevant=3))
    >>> [round(step.expected, 3) for step in steps]
    [0.333, 0.333, 0.333, 0.25, 0.25, 0.25, 0.2, 0.2, 0.2, 0.2, 0.255]
    >>> print(steps[3].formula)
    \\text{recall} \\ge 0.4: \\text{2 of 3 relevant from rank 8} \\Rightarrow \\max\\left(\\frac{2}{8}, \\frac{3}{15}\\right) = 0.25
    >>> [(s.label, round(s.expected, 3)) for s in interpolated_map_steps(Exercise(
    ...     "interpolated_map", "q2", rels=q2, n_relevant=3, params={"levels": (0.5,)}))]
    [('P_interp(0.5)', 0.25)]
    """
    from rankviz.metrics import interpolated_average_precision_breakdown, interpolated_precision_breakdown

    levels = _custom_levels(exercise)
    if levels is None:
        return _interpolated_working(exercise, interpolated_average_precision_breakdown, INTERPOLATED_MAP_LABEL)

    def at_levels(rels, **keywords):
        return interpolated_precision_breakdown(rels, list(levels), **keywords)

    mean_label = TEXTS.source["mean_label"].format(count=len(levels)) if len(levels) > 1 else None
    return _interpolated_working(exercise, at_levels, mean_label)


def eleven_point_steps(exercise: Exercise) -> list[Step]:
    """Interpolated precision at recall 0.0, 0.1, ..., 1.0 (stage 1), then their mean (stage 2),
    from :func:`rankviz.metrics.eleven_point_precision_breakdown`.

    Examples
    --------
    Relevant at ranks 2 and 3 of 4, R = 2: every level up to 0.5 takes max(1/2, 2/3) = 2/3
    and so do the levels up to 1.0 (rank 3 reaches recall 1): 11-point average 0.667.

    >>> steps = eleven_point_steps(Exercise("eleven_point", "x", rels=(0, 1, 1, 0), n_relevant=2))
    >>> len(steps), round(steps[0].expected, 3), round(steps[-1].expected, 3)
    (12, 0.667, 0.667)
    """
    from rankviz.metrics import eleven_point_precision_breakdown

    return _interpolated_working(exercise, eleven_point_precision_breakdown, ELEVEN_POINT_LABEL)


def _generate_ranking(kind_key: str, title: str):
    def generate(rng, seed: int) -> Exercise:
        n = rng.randint(8, 14)
        hits = rng.randint(2, 5)
        grades = [0] * n
        for rank in rng.sample(range(n), hits):
            grades[rank] = 1
        # R above the relevant documents retrieved now and then: the levels no rank reaches count 0.
        n_relevant = hits + rng.choice((0, 0, 1, 2, 3))
        return Exercise(kind_key, f"Practice exercise {seed}: {title}", rels=tuple(grades), n_relevant=n_relevant)
    return generate


def _describe_interpolated(levels_text: str, mean_text: str):
    def describe(exercise: Exercise) -> str:
        rounding = exercise.param("rounding", "ceil")
        levels = _custom_levels(exercise) if exercise.kind == "interpolated_map" else None
        shown_levels = ", ".join(map(_level_text, levels)) if levels is not None else translate(levels_text)
        mean = ((TEXTS["then"].format(what=TEXTS["mean_label"].format(count=len(levels))) if len(levels) > 1 else "")
                if levels is not None else TEXTS["then"].format(what=translate(mean_text)))
        rule = "" if rounding == "ceil" else TEXTS["level_rule"].format(rule=ROUNDING.choice(rounding).text)
        return TEXTS["interpolated_describe"].format(
            given=binary_ranking_words(exercise.rels, exercise.n_relevant), levels=shown_levels,
            mean=TEXTS["joiner"] + mean if mean else "", rule=rule)
    return describe


def _ranking_preset(kind_key: str, preset_key: str, query: str, title: str, note: str = ""):
    return ranking_preset(kind_key, preset_key, title=lambda preset: f"Query {query}: {title}", note=note or None)


def _interpolated_reference(levels, mean_function, mean_label: str):
    def reference(exercise: Exercise) -> dict:
        from rankviz.metrics import interpolated_precision

        rounding = exercise.param("rounding", "ceil")
        values = interpolated_precision(exercise.rels, list(levels), n_relevant=exercise.n_relevant,
                                        rounding=rounding)
        result = {f"P_interp({_level_text(level)})": value for level, value in zip(levels, values)}
        if mean_label is not None:
            result[mean_label] = (mean_function(exercise.rels, n_relevant=exercise.n_relevant, rounding=rounding)
                                  if mean_function is not None else float(sum(values) / len(values)))
        return result
    return reference


def _interpolated_map_reference(exercise: Exercise) -> dict:
    from rankviz.metrics import interpolated_average_precision

    levels = _custom_levels(exercise)
    if levels is not None:
        mean_label = TEXTS.source["mean_label"].format(count=len(levels)) if len(levels) > 1 else None
        return _interpolated_reference(levels, None, mean_label)(exercise)
    return _interpolated_reference(_TEN_LEVELS, interpolated_average_precision, INTERPOLATED_MAP_LABEL)(exercise)


def _eleven_point_reference(exercise: Exercise) -> dict:
    from rankviz.metrics import eleven_point_precision

    return _interpolated_reference(_ELEVEN_LEVELS, eleven_point_precision, ELEVEN_POINT_LABEL)(exercise)


def _own_interpolated(kind: str):
    def build(*, rels, n_relevant=None, levels=None, rounding="ceil") -> Exercise:
        ranking = " ".join("R" if grade >= 1 else "N" for grade in rels)
        if levels is not None:
            title = TEXTS.source["interpolated_title"].format(ranking=ranking, levels=", ".join(map(_level_text, levels)))
        elif kind == "interpolated_map":
            title = TEXTS.source["interpolated_title"].format(ranking=ranking, levels="0.1, ..., 1.0")
        else:
            title = TEXTS.source["eleven_title"].format(ranking=ranking)
        params = {"rounding": rounding} if levels is None else {"rounding": rounding, "levels": tuple(levels)}
        return Exercise(kind, title, rels=tuple(rels), n_relevant=n_relevant, params=params)
    return build


_RANKING_INPUTS = (
    OwnInput("rels", N_("Relevance in ranked order"), TEXTS.source["rels"], "relevance", required=True,
             example="R R N N N N N N R N R N N N R N N N N R"),
    OwnInput("n_relevant", N_("R (relevant documents in the collection)"), TEXTS.source["n_relevant"], "int",
             blank=N_("the relevant documents of the list"), example="8"),
)
_ROUNDING_INPUT = OwnInput("rounding", N_("Recall level r needs"), TEXTS.source["rounding"], "choice", param=ROUNDING)

_INTERPOLATED_MAP_TITLE = N_("Interpolated precision at recall 0.1 to 1.0 and its mean (the lecture's per-query MAP)")
_ELEVEN_POINT_TITLE = N_("11-point interpolated average precision (recall 0.0 to 1.0)")

INTERPOLATED_MAP_KIND = register_kind(KindSpec(
    "interpolated_map", _INTERPOLATED_MAP_TITLE, _generate_ranking("interpolated_map", _INTERPOLATED_MAP_TITLE),
    interpolated_map_steps,
    _describe_interpolated("0.1, 0.2, ..., 1.0", N_("the mean of the 10 values (the lecture calls it the query's MAP)")),
    reference=_interpolated_map_reference,
    presets={"interpolated_map_q1": _ranking_preset("interpolated_map", "q1_binary", "q1",
                                                    "interpolated precision at 10 recall levels (slide: 0.28)"),
             "interpolated_map_q2": _ranking_preset("interpolated_map", "q2_binary", "q2",
                                                    "interpolated precision at 10 recall levels (slide: 0.254)")},
    metrics=("interpolated_average_precision",),
    inputs=(*_RANKING_INPUTS, OwnInput("levels", N_("Recall levels"), TEXTS.source["levels"], "levels",
                                       blank=N_("the 10 levels 0.1 to 1.0"), example="0.33"), _ROUNDING_INPUT),
    own=_own_interpolated("interpolated_map")))

ELEVEN_POINT_KIND = register_kind(KindSpec(
    "eleven_point", _ELEVEN_POINT_TITLE, _generate_ranking("eleven_point", _ELEVEN_POINT_TITLE), eleven_point_steps,
    _describe_interpolated("0.0, 0.1, ..., 1.0", N_("their mean, the 11-point average")),
    reference=_eleven_point_reference,
    presets={key: _ranking_preset("eleven_point", f"{query}_binary", query, N_("11-point interpolated precision"),
                                  note=("The lecture's q1/q2 ranking; the lecture itself averages 10 levels "
                                        "(0.1 to 1.0), not these 11."))
             for key, query in (("eleven_point_q1", "q1"), ("eleven_point_q2", "q2"))},
    metrics=("eleven_point_precision",), inputs=(*_RANKING_INPUTS, _ROUNDING_INPUT),
    own=_own_interpolated("eleven_point")))


# ---------------------------------------------------------------------------- mistakes: MAP


def _map_with_r(count):
    """Each query's AP divided by ``count(rels, R)`` instead (None when that changes nothing)."""
    def working(exercise, steps):
        _, rankings, n_relevants = _map_queries(exercise)
        k = exercise.param("k")
        right = tuple(ap_denominator(rels, k, r, exercise.param("denominator", "R"))
                      for rels, r in zip(rankings, n_relevants))
        changed = tuple(count(rels[:k] if k is not None else rels, r) for rels, r in zip(rankings, n_relevants))
        if changed == right:
            return None
        return map_steps(exercise.with_params(divisors=changed))
    return working


def _map_with_denominator(denominator: str):
    def working(exercise, steps):
        return map_steps(exercise.with_params(denominator=denominator))
    return working


def _map_asked(exercise) -> str:
    asked = exercise.param("denominator", "R")
    return "R" if asked == "min_r_k" and exercise.param("k") is None else asked


def _map_mean_step(exercise, steps, scale_of, formula_of):
    last = steps[-1]
    scale = scale_of(exercise, steps)
    if not scale or scale == last.scale:
        return None
    value = math.fsum(steps[i].expected for i in last.uses) / scale
    return steps[:-1] + [replace(last, expected=value, scale=float(scale), alternatives=(),
                                 formula=formula_of(exercise, steps, scale) + f" = {tex_number(value)}")]


def _queries_where(keep):
    """MAP over the queries ``keep(rels, R)`` holds for only (None when that leaves every query or none)."""
    def working(exercise, steps):
        _, rankings, n_relevants = _map_queries(exercise)
        kept = [keep(rels, r if r is not None else count_relevant(rels)) for rels, r in zip(rankings, n_relevants)]
        if all(kept) or not any(kept):
            return None
        return _map_mean_step(
            exercise, steps, lambda e, s: sum(kept),
            lambda e, s, scale: rf"\frac{{1}}{{{scale}}}\left("
                                + " + ".join(tex_number(s[i].expected) for i, held in zip(s[-1].uses, kept) if held)
                                + r"\right)")
    return working


def _retrieved_one(rels, r) -> bool:
    return count_relevant(rels) > 0


def _has_relevant(rels, r) -> bool:
    return r > 0


def _queries_with_hits(exercise, steps):
    """Over the queries that retrieved a relevant document, where that is not the same as those having one."""
    _, rankings, n_relevants = _map_queries(exercise)
    if all((count_relevant(rels) > 0) == ((r if r is not None else count_relevant(rels)) > 0)
           for rels, r in zip(rankings, n_relevants)):
        return None  # the same queries as map_over_queries_with_relevant: that one names it
    return _queries_where(_retrieved_one)(exercise, steps)


def _map_not_divided(exercise, steps):
    return _map_mean_step(exercise, steps, lambda e, s: 1,
                          lambda e, s, scale: " + ".join(tex_number(s[i].expected) for i in s[-1].uses))


def _map_ap_every_rank(exercise, steps):
    """Each query's AP taken as the mean of P@i over every rank of its ranking."""
    names, rankings, _ = _map_queries(exercise)
    by_label = {step.label: i for i, step in enumerate(steps)}
    mistaken = list(steps)
    k = exercise.param("k")
    for name, rels in zip(names, rankings):
        rels = rels[:k] if k is not None else rels
        if not rels:
            return None
        precisions = [count_relevant(rels[:rank]) / rank for rank in range(1, len(rels) + 1)]
        value = math.fsum(precisions) / len(precisions)
        i = by_label[f"{_ap_word(exercise)} of {name}"]
        mistaken[i] = replace(steps[i], expected=value, rule="", uses=(), alternatives=(),
                              formula=rf"\frac{{1}}{{{len(rels)}}}\left({' + '.join(map(tex_number, precisions))}\right)"
                                      rf" = {tex_number(value)}")
    mean = mistaken[-1]
    value = math.fsum(mistaken[i].expected for i in mean.uses) / mean.scale
    return mistaken[:-1] + [replace(mean, expected=value, alternatives=(),
                                    formula=rf"\frac{{1}}{{{len(mean.uses)}}}\left("
                                            + " + ".join(tex_number(mistaken[i].expected) for i in mean.uses)
                                            + rf"\right) = {tex_number(value)}")]


def _map_pooled(exercise, steps):
    """Every query's P@i at its relevant ranks added up and divided by the total R."""
    last = steps[-1]
    precisions = tuple(i for i, step in enumerate(steps[:-1]) if not step.rule)  # the P@i steps
    _, rankings, n_relevants = _map_queries(exercise)
    n_relevants = [r if r is not None else count_relevant(rels) for rels, r in zip(rankings, n_relevants)]
    if exercise.param("k") is not None or exercise.param("denominator", "R") != "R":
        return None  # pooled over R: the mistake of an exercise dividing each AP by R
    total_r = sum(n_relevants)
    if not total_r:
        return None
    value = math.fsum(steps[i].expected for i in precisions) / total_r
    terms = " + ".join(tex_number(steps[i].expected) for i in precisions) or "0"
    return steps[:-1] + [replace(last, expected=value, uses=precisions, scale=float(total_r), alternatives=(),
                                 formula=rf"\frac{{1}}{{{' + '.join(map(str, n_relevants))}}}\left({terms}\right)"
                                         rf" = {tex_number(value)}")]


register_convention("map_ap_divided_by_retrieved_relevant", AP_DENOMINATOR, "retrieved", "map",
                    _map_with_denominator("retrieved"), asked_of=_map_asked)
register_convention("map_ap_divided_by_r", AP_DENOMINATOR, "R", "map", _map_with_denominator("R"),
                    asked_of=_map_asked)
register_convention("map_ap_divided_by_min_r_k", AP_DENOMINATOR, "min_r_k", "map", _map_with_denominator("min_r_k"),
                    asked_of=_map_asked)
register_mistake("map_over_queries_with_relevant",
                 N_("That is right under another convention, MAP over the queries that have relevant documents only; "
                 "this exercise counts every query of the sheet, a query without relevant documents with AP 0 (as "
                 "trec_eval counts a query of the qrels that has none)."), "map", _queries_where(_has_relevant))
register_mistake("map_ap_divided_by_k",
                 N_("You divided a query's sum of P@i by the length of its ranking; AP divides by R, the number of "
                 "relevant documents of the query."), "map", _map_with_r(lambda rels, r: len(rels)))
register_mistake("map_ap_every_rank", N_("You averaged P@i over every rank of a query's ranking; AP adds P@i only at the "
                                      "ranks of relevant documents, then divides by R."), "map", _map_ap_every_rank)
register_mistake("map_divided_by_queries_with_relevant_retrieved",
                 N_("You averaged over the queries that retrieved a relevant document only; MAP divides by every query, "
                 "a query with AP 0 included."), "map", _queries_with_hits)
register_mistake("map_not_divided", N_("You added the APs without dividing; MAP is their mean, the sum divided by the "
                                    "number of queries."), "map", _map_not_divided)
register_mistake("map_pooled", N_("You pooled the P@i of every query and divided by the total R; MAP is the mean of "
                               "each query's own AP, so every query weighs the same."), "map", _map_pooled)


# ---------------------------------------------------------------------------- mistakes: GMAP and HMAP


def _per_run(build):
    """A working changing each run's steps: ``build(aps, steps_of_run)`` returns {label: replacement}."""
    def working(exercise, steps):
        by_label = {step.label: i for i, step in enumerate(steps)}
        mistaken = list(steps)
        for name, aps in _runs(exercise):
            run_steps = {label.split(": ", 1)[1]: steps[i] for label, i in by_label.items()
                         if label.startswith(f"{name}: ")}
            for what, step in build(aps, run_steps).items():
                mistaken[by_label[f"{name}: {what}"]] = replace(step, alternatives=())
        return mistaken
    return working


def _mean_as(source: str, target: str):
    """``target`` (GMAP or HMAP) given the value of ``source`` (MAP): the arithmetic mean taken for it."""
    def build(aps, run):
        mean = run[source]
        return {target: replace(run[target], expected=mean.expected, rule="", uses=(), formula=mean.formula)}
    return build


def _gmap_root_forgotten(aps, run):
    product = math.prod(aps)
    return {"GMAP": replace(run["GMAP"], expected=product, scale=1.0,
                            formula=r" \times ".join(tex_number(ap, 4) for ap in aps) + f" = {tex_number(product, 6)}")}


def _gmap_exp_forgotten(aps, run):
    logs, n = run["Σ ln AP"].expected, len(aps)
    return {"GMAP": replace(run["GMAP"], expected=logs / n, rule="sum", scale=float(n),
                            formula=rf"\frac{{{tex_number(logs)}}}{{{n}}} = {tex_number(logs / n)}")}


def _gmap_product_over_n(aps, run):
    product, n = math.prod(aps), len(aps)
    factors = r" \times ".join(tex_number(ap, 4) for ap in aps)
    return {"GMAP": replace(run["GMAP"], expected=product / n, rule="", uses=(),
                            formula=rf"\frac{{{factors}}}{{{n}}} = {tex_number(product / n, 6)}")}


def _gmap_log10(aps, run):
    logs, n = math.fsum(math.log10(ap) for ap in aps), len(aps)
    return {"Σ ln AP": replace(run["Σ ln AP"], expected=logs,
                               formula=" + ".join(rf"\log_{{10}} {tex_number(ap, 4)}" for ap in aps)
                               + f" = {tex_number(logs)}"),
            "GMAP": replace(run["GMAP"], expected=math.exp(logs / n),
                            formula=rf"\exp\left(\frac{{{tex_number(logs)}}}{{{n}}}\right) = "
                                    rf"{tex_number(math.exp(logs / n))}")}


def _hmap_not_inverted(aps, run):
    total, n = run["Σ 1/AP"].expected, len(aps)
    return {"HMAP": replace(run["HMAP"], expected=total / n, rule="sum", scale=float(n),
                            formula=rf"\frac{{{tex_number(total)}}}{{{n}}} = {tex_number(total / n)}")}


def _hmap_n_forgotten(aps, run):
    total = run["Σ 1/AP"].expected
    return {"HMAP": replace(run["HMAP"], expected=1 / total, scale=1.0,
                            formula=rf"\frac{{1}}{{{tex_number(total)}}} = {tex_number(1 / total)}")}


register_mistake("gmap_arithmetic_mean", N_("You took the arithmetic mean (that is MAP); GMAP is the geometric mean, "
                                         "the n-th root of the product of the APs."),
                 "gmap", _per_run(_mean_as("MAP", "GMAP")))
register_mistake("gmap_root_forgotten", N_("You stopped at the product of the APs (exp of Σ ln AP); GMAP takes its n-th "
                                        "root, exp(Σ ln AP / n)."), "gmap", _per_run(_gmap_root_forgotten))
register_mistake("gmap_exp_forgotten", N_("You stopped at the mean of the logs, Σ ln AP / n; GMAP is exp of it, a number "
                                       "between the smallest and the largest AP."), "gmap", _per_run(_gmap_exp_forgotten))
register_mistake("gmap_product_divided_by_n", N_("You divided the product of the APs by n; GMAP takes the n-th root of "
                                              "the product."), "gmap", _per_run(_gmap_product_over_n))
register_mistake("gmap_log10_with_exp", N_("You took log10 of the APs, then exp; GMAP = exp(Σ ln AP / n) with the natural "
                                        "log (with log10, undo it with 10 to the power instead)."),
                 "gmap", _per_run(_gmap_log10))
register_mistake("hmap_arithmetic_mean", N_("You took the arithmetic mean (that is MAP); HMAP is the harmonic mean, "
                                         "n divided by the sum of 1/AP."), "gmap", _per_run(_mean_as("MAP", "HMAP")))
register_mistake("hmap_not_inverted", N_("You stopped at the mean of 1/AP; HMAP is its reciprocal, n / Σ 1/AP."),
                 "gmap", _per_run(_hmap_not_inverted))
register_mistake("hmap_n_forgotten", N_("You divided 1 by the sum of 1/AP; HMAP divides n, the number of topics, by "
                                     "it."), "gmap", _per_run(_hmap_n_forgotten))


# ---------------------------------------------------------------------------- mistakes: interpolated precision

_INTERPOLATED = ("interpolated_map", "eleven_point")
_BUILDERS = {"interpolated_map": interpolated_map_steps, "eleven_point": eleven_point_steps}


def _builder(exercise):
    return _BUILDERS[exercise.kind](exercise)


def _has_mean(steps) -> bool:
    return bool(steps) and steps[-1].rule == "sum"


def _with_levels(steps, values, formulas):
    """``steps`` with the level values replaced and the mean recomputed from them."""
    if not _has_mean(steps):
        return [replace(step, expected=value, formula=formula, alternatives=())
                for step, value, formula in zip(steps, values, formulas)]
    levels = [replace(step, expected=value, formula=formula, alternatives=())
              for step, value, formula in zip(steps[:-1], values, formulas)]
    last = steps[-1]
    mean = math.fsum(values) / len(values)
    return levels + [replace(last, expected=mean, alternatives=(),
                             formula=rf"\frac{{1}}{{{len(values)}}}\left({' + '.join(map(tex_number, values))}\right)"
                                     rf" = {tex_number(mean)}")]


def _level_table(exercise):
    """The levels of the exercise's kind and their worked table (the textbook rule)."""
    from rankviz.metrics import interpolated_precision_breakdown

    levels = _ELEVEN_LEVELS if exercise.kind == "eleven_point" else _custom_levels(exercise) or _TEN_LEVELS
    rounding = exercise.param("rounding", "ceil")
    worked = interpolated_precision_breakdown(exercise.rels, list(levels), n_relevant=exercise.n_relevant,
                                              rounding=rounding)
    return levels, worked.by_roles()


def _at_first_rank(exercise, steps):
    """Each level read at the first rank reaching it, without the maximum over the ranks below."""
    import pandas as pd

    from rankviz.metrics import precision_recall_points

    levels, table = _level_table(exercise)
    points = precision_recall_points(exercise.rels, n_relevant=exercise.n_relevant)
    precision_at = dict(zip(points.rank.tolist(), points.precision.tolist()))
    values, formulas = [], []
    for level, first in zip(levels, table["first_reaching"]):
        if pd.isna(first):
            values.append(0.0)
            formulas.append(rf"\text{{{TEXTS['f_no_rank_reaches'].format(level=_level_text(level))}}} \Rightarrow 0")
        else:
            value = precision_at[int(first)]
            values.append(value)
            formulas.append(rf"P@{int(first)} = {tex_number(value)}")
    return _with_levels(steps, values, formulas)


def _unreached_left_out(exercise, steps):
    if not _has_mean(steps):
        return None
    last = steps[-1]
    _, table = _level_table(exercise)
    reached = tuple(int(i) for i in table.index[table["first_reaching"].notna()])
    if len(reached) == len(steps) - 1 or not reached:
        return None
    value = math.fsum(steps[i].expected for i in reached) / len(reached)
    terms = " + ".join(tex_number(steps[i].expected) for i in reached)
    return steps[:-1] + [replace(last, expected=value, uses=reached, scale=float(len(reached)), alternatives=(),
                                 formula=rf"\frac{{1}}{{{len(reached)}}}\left({terms}\right) = {tex_number(value)}")]


def _noninterpolated_ap(exercise, steps):
    from rankviz.metrics import average_precision_breakdown

    if not _has_mean(steps):
        return None
    worked = average_precision_breakdown(exercise.rels, n_relevant=exercise.n_relevant)
    table = worked.by_roles()
    table = table[table["relevant"]]
    terms = " + ".join(rf"\frac{{{int(h)}}}{{{int(r)}}}" for h, r in zip(table["relevant_so_far"], table["rank"]))
    n_rel = int(worked.details["n_relevant"])
    last = steps[-1]
    return steps[:-1] + [replace(last, expected=float(worked.value), rule="", uses=(), alternatives=(),
                                 formula=rf"\frac{{1}}{{{n_rel}}}\left({terms or '0'}\right) = "
                                         rf"{tex_number(worked.value)}")]


def _other_levels(builder, label):
    """The mean over the other kind's levels, set on this kind's mean step (10 levels for 11 or back)."""
    def working(exercise, steps):
        if exercise.param("levels") is not None:
            return None  # the sheet's own levels: no standard set to mix up
        other = builder(exercise)
        return [replace(step, label=label) if step is other[-1] else step for step in other]
    return working


def _eleven_divided_by_10(exercise, steps):
    last = steps[-1]
    value = math.fsum(step.expected for step in steps[:-1]) / 10
    terms = " + ".join(tex_number(step.expected) for step in steps[:-1])
    return steps[:-1] + [replace(last, expected=value, scale=10.0, alternatives=(),
                                 formula=rf"\frac{{1}}{{10}}\left({terms}\right) = {tex_number(value)}")]


def _zero_level_as_one(exercise, steps):
    if steps[0].expected == 1:
        return None
    values = [1.0] + [step.expected for step in steps[1:-1]]
    formulas = [r"\text{recall} \ge 0.0 \Rightarrow 1"] + [step.formula for step in steps[1:-1]]
    return _with_levels(steps, values, formulas)


register_mistake("interpolated_at_first_rank",
                 N_("You took the precision at the first rank reaching each recall level; interpolated precision is the "
                 "largest precision at any rank whose recall is at least the level, further down included."),
                 _INTERPOLATED, _at_first_rank)
def _rounding_of(exercise) -> str:
    return exercise.param("rounding", "ceil")


def _with_rounding(rounding: str):
    def working(exercise, steps):
        return _builder(exercise.with_params(rounding=rounding))
    return working


register_convention("interpolated_nearest_recall", ROUNDING, "lround", _INTERPOLATED, _with_rounding("lround"),
                    asked_of=_rounding_of)
register_convention("interpolated_trec_eval_9_rounding", ROUNDING, "floor_plus_0.9", _INTERPOLATED,
                    _with_rounding("floor_plus_0.9"), asked_of=_rounding_of)
register_convention("interpolated_textbook_rounding", ROUNDING, "ceil", _INTERPOLATED, _with_rounding("ceil"),
                    asked_of=_rounding_of)
register_mistake("interpolated_unreached_left_out",
                 N_("You averaged over the recall levels the ranking reaches only; a level no rank reaches has "
                 "interpolated precision 0 and still counts in the mean."), _INTERPOLATED, _unreached_left_out)
register_mistake("interpolated_noninterpolated_ap",
                 N_("You computed non-interpolated AP (Σ P@i at the relevant ranks / R); this asks for the mean of "
                 "interpolated precision at the fixed recall levels."), _INTERPOLATED, _noninterpolated_ap)
register_mistake("interpolated_map_zero_level_added",
                 N_("You also averaged in recall level 0.0 (11 levels); the lecture's per-query MAP takes the 10 levels "
                 "0.1 to 1.0."), "interpolated_map", _other_levels(eleven_point_steps, INTERPOLATED_MAP_LABEL))
register_mistake("eleven_point_zero_level_left_out",
                 N_("You left out recall level 0.0; the 11-point average takes the 11 levels 0.0, 0.1, ..., 1.0."),
                 "eleven_point", _other_levels(interpolated_map_steps, ELEVEN_POINT_LABEL))
register_mistake("eleven_point_divided_by_10",
                 N_("You divided the sum of the 11 levels by 10; there are 11 levels, 0.0 to 1.0."),
                 "eleven_point", _eleven_divided_by_10)
register_mistake("eleven_point_zero_level_as_one",
                 N_("You took interpolated precision at recall 0.0 as 1; it is the largest precision at any rank, 1 only "
                 "when some rank has precision 1."), "eleven_point", _zero_level_as_one)

register_title_templates(*(text for key, text in TEXTS.source.items() if "title" in key))
