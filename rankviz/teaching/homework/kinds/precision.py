"""Set-based exercises: P@k, R@k and F-beta at cut-offs; RR and MRR with a rank threshold S_h;
R-precision; and the mistakes made on the way.

``precision_recall`` exercises hold ``rels`` (binary), ``n_relevant`` (R) and, in ``params``,
``cutoffs`` (the ranks k where P, R and F are asked) and ``betas`` (1, 2 and 0.5: F1, F2, F0.5).
``rr`` exercises hold ``params["queries"]`` (name, binary grades) pairs and ``params["threshold"]``
(S_h). ``r_precision`` exercises hold ``rels`` and ``n_relevant``.

The lecture's only homework (002, "F-Measure – Homework Exercise") asks for the F-measures of Q1
and Q2 "using the P and R values computed in class": those are P and R at the rank of each
relevant document (the precision-recall slides and "MAP - An example" list them), so the
presets ``fmeasure_q1`` and ``fmeasure_q2`` ask for P, R, F1, F2 and F0.5 at those ranks.
"""

from __future__ import annotations

from dataclasses import replace

from rankviz.formatting import format_number
from rankviz.i18n import N_
from rankviz.i18n import _ as translate
from rankviz.metrics import count_relevant
from rankviz.teaching.homework.core import (Exercise, InputError, KindSpec, OwnInput, Step, TranslatedWords,
    binary_ranking_words, check_length, english_title, ranking_preset, register_kind, tex_number)
from rankviz.teaching.homework.mistakes import register_mistake
from rankviz.teaching.homework.words import register_title_templates

__all__ = ["precision_recall_steps", "rr_steps", "r_precision_steps", "BETAS"]

BETAS = (1.0, 2.0, 0.5)
_MAX_STEPS = 60  # a sheet's several cut-offs and betas: Q1's homework is 5 cut-offs x (P, R, F1, F2, F0.5)
_MAX_CUTOFF = 1000

# What a student reads: the step hints and the inputs of their own exercise, in IIR's and trec_eval's words.
TEXTS = TranslatedWords({
    "p_hint": N_("P@{k} is the fraction of the top {k} ranks holding a relevant document, k in the denominator even "
              "when fewer than k were retrieved: $P@k = \\frac{{\\text{{relevant in the top }} k}}{{k}}$."),
    "r_hint": N_("R@{k} is the fraction of all R relevant documents found in the top {k}: "
              "$R@k = \\frac{{\\text{{relevant in the top }} k}}{{R}}$."),
    "f_hint": N_("F{beta} at {k} combines P@{k} and R@{k} (β = {beta}; β > 1 weighs recall more): "
              "$F_\\beta = \\frac{{(1 + \\beta^2) P R}}{{\\beta^2 P + R}}$."),
    "rr_hint": N_("RR of {name} is 1 over the rank of its first relevant document{threshold_words}; 0 when there is "
               "none: $\\mathrm{{RR}} = \\frac{{1}}{{\\text{{rank of the first relevant}}}}$."),
    "rr_threshold_words": N_(" when that rank is at most S_h = {threshold}"),
    "mrr_hint": N_("MRR is the mean of the queries' RR, every query counted (an RR of 0 too): "
                "$\\mathrm{{MRR}} = \\frac{{1}}{{|Q|}} \\sum_q \\mathrm{{RR}}(q)$."),
    "rprec_count_hint": N_("Count the relevant documents among the top R = {r} ranks (a rank past the end of the list "
                        "counts as not relevant)."),
    "rprec_hint": N_("R-precision is precision at rank R, the query's number of relevant documents: "
                  "$\\text{{R-precision}} = \\frac{{\\text{{relevant in the top }} R}}{{R}}$."),
    "rels": N_("Relevance of each retrieved document in ranked order, rank 1 first: R N R N N, 1 0 1 0 0, or a "
            "column pasted from the sheet (grade ≥ 1 is relevant)."),
    "n_relevant_recall": N_("R: the relevant documents of the query in the whole collection (recall's denominator). "
                         "Blank: the relevant documents of the list."),
    "cutoffs": N_("The cut-offs k where P@k, R@k and F are asked, e.g. 5 10 20 (a k past the end of the list counts "
               "the missing ranks as not relevant). Blank: the whole list."),
    "k": N_("One cut-off k (instead of several cut-offs)."),
    "betas": N_("The β of each F-measure asked: 1 for F1 (van Rijsbergen's harmonic mean of P and R), 2 for F2, "
             "0.5 for F0.5. Blank: F1 only."),
    "rankings": N_("One query per line, its relevance in ranked order (R N R or 1 0 1). Each line is a query."),
    "names": N_("The queries' names, in the order of the lines (blank: q1, q2, ...)."),
    "threshold": N_("S_h, the rank threshold: a first relevant document ranked below S_h gives RR = 0 (blank: no "
                 "threshold, RR = 1/rank wherever it is)."),
    "n_relevant_rprec": N_("R: the number of relevant documents of the query in the whole collection; R-precision "
                        "looks at the top R ranks. Blank: the relevant documents of the list."),
    "pr_title": N_("Your ranking {ranking}: P@k, R@k and F at k = {cutoffs}"),
    "rr_title": N_("Your {count} queries: RR per query and MRR{threshold_words}"),
    "rr_title_threshold": N_(" with S_h = {threshold}"),
    "rprec_title": N_("Your ranking {ranking}: R-precision with R = {r}"),
    "pr_describe": N_('{given} At each cut-off k = {cutoffs}: P@k = (relevant in the top k) / k, R@k = (relevant in '
                      'the top k) / R, then {betas} with F_β = (1 + β²) · P · R / (β² · P + R).'),
    "rr_describe": N_('Relevance in ranked order (1 = relevant) per query — {lines}. Compute RR of each query (1 / '
                      'the rank of its first relevant document, 0 when it has none), then MRR, their mean.'),
    "rr_describe_threshold": N_('Relevance in ranked order (1 = relevant) per query — {lines}. Rank threshold S_h = '
                                '{threshold}. Compute RR of each query (1 / the rank of its first relevant document '
                                'if that rank is at most S_h, else 0), then MRR, their mean.'),
    "rprec_describe": N_('{given} Count the relevant documents in the top R, then R-precision = that count / R.'),
    "f_relevant_among": N_('relevant among ranks 1..{k}'),
})


def _marks(rels) -> str:
    return " ".join("R" if grade >= 1 else "N" for grade in rels)


def _beta_name(beta: float) -> str:
    return f"F{format_number(beta)}"


def _f_formula(beta: float, precision: float, recall: float, value: float, *, above: float | None = None,
               below: float | None = None) -> str:
    """(1 + above) P R / (below P + R) with the numbers in; above = below = beta² unless a mistake says otherwise."""
    top = tex_number(beta * beta if above is None else above)
    bottom = tex_number(beta * beta if below is None else below)
    return (rf"\frac{{(1 + {top}) \times {tex_number(precision)} \times {tex_number(recall)}}}"
            rf"{{{bottom} \times {tex_number(precision)} + {tex_number(recall)}}} = {tex_number(value)}")


def _check_cutoffs(exercise: Exercise) -> tuple[int, ...]:
    cutoffs = tuple(exercise.param("cutoffs", ()))
    if not cutoffs or any(isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= _MAX_CUTOFF for k in cutoffs):
        raise InputError("cutoffs", translate(N_('The cut-offs must be whole numbers from 1 to {_MAX_CUTOFF} (past '
                                                 'the end of the list the missing ranks count as not relevant); got '
                                                 '{cutoffs}.')).format(
            _MAX_CUTOFF=_MAX_CUTOFF, cutoffs=repr(cutoffs)))
    if len(set(cutoffs)) != len(cutoffs):
        raise InputError("cutoffs", translate(N_('Each cut-off once, please; got {cutoffs}.')).format(
            cutoffs=repr(cutoffs)))
    return cutoffs


def precision_recall_steps(exercise: Exercise) -> list[Step]:
    """Per cut-off k (one stage each): P@k = hits/k, R@k = hits/R, then F_beta for each beta,
    F_beta = (1 + beta²) P R / (beta² P + R) (van Rijsbergen 1979; the lecture's F-measure slides),
    every value from :func:`rankviz.metrics.precision`, :func:`~rankviz.metrics.recall` and
    :func:`~rankviz.metrics.f_beta`.

    >>> steps = precision_recall_steps(Exercise("precision_recall", "x", rels=(1, 0, 1, 0), n_relevant=4,
    ...                                         params={"cutoffs": (2,)}))
    >>> [(s.label, round(s.expected, 3)) for s in steps]
    [('P@2', 0.5), ('R@2', 0.25), ('F1@2', 0.333), ('F2@2', 0.278), ('F0.5@2', 0.417)]
    """
    from rankviz.metrics import f_beta, precision, recall

    cutoffs = _check_cutoffs(exercise)
    betas = tuple(exercise.param("betas", BETAS))
    if not betas or any(isinstance(b, bool) or not isinstance(b, (int, float)) or not b > 0 for b in betas):
        raise InputError("betas", translate(N_('Each β must be a number above 0 (1 for F1); got {betas}. With '
                                               'decimal commas, separate the values by spaces or semicolons: 0,5; 2.')).format(
            betas=repr(betas)))
    check_length(len(exercise.rels), N_("ranks"))
    if len(cutoffs) * (2 + len(betas)) > _MAX_STEPS:
        raise InputError("cutoffs", translate(N_('At most {_MAX_STEPS} steps by hand: fewer cut-offs or betas, '
                                                 'please.')).format(_MAX_STEPS=_MAX_STEPS))
    n_rel = exercise.n_relevant if exercise.n_relevant is not None else count_relevant(exercise.rels)
    steps: list[Step] = []
    for k in cutoffs:
        stage = f"Cut-off k = {k}"
        hits = count_relevant(exercise.rels[:k])
        p = float(precision(exercise.rels, k))
        r = float(recall(exercise.rels, k, n_relevant=n_rel))
        p_at, r_at = len(steps), len(steps) + 1
        steps.append(Step(f"P@{k}", p, rf"\frac{{{hits}}}{{{k}}} = {tex_number(p)}", stage=stage,
                          hint=TEXTS["p_hint"].format(k=k)))
        steps.append(Step(f"R@{k}", r, rf"\frac{{{hits}}}{{{n_rel}}} = {tex_number(r)}", stage=stage,
                          hint=TEXTS["r_hint"].format(k=k)))
        for beta in betas:
            value = float(f_beta(exercise.rels, k, beta=beta, n_relevant=n_rel))
            steps.append(Step(f"{_beta_name(beta)}@{k}", value, _f_formula(beta, p, r, value), uses=(p_at, r_at),
                              rule="f_beta", scale=beta * beta, stage=stage,
                              hint=TEXTS["f_hint"].format(beta=format_number(beta), k=k)))
    return steps


def _generate_pr(rng, seed: int) -> Exercise:
    n = rng.randint(8, 12)
    grades = [int(rng.random() < 0.45) for _ in range(n)]
    if not any(grades[: n // 2]):
        grades[rng.randrange(n // 2)] = 1
    n_relevant = sum(grades) + rng.randint(0, 2)
    cutoffs = tuple(sorted(rng.sample(range(2, n + 1), rng.randint(2, 3))))
    return Exercise("precision_recall", f"Practice exercise {seed}: {english_title(PR_KIND)}", rels=tuple(grades),
                    n_relevant=n_relevant, params={"cutoffs": cutoffs, "betas": BETAS})


def _describe_pr(exercise: Exercise) -> str:
    cutoffs = ", ".join(str(k) for k in exercise.param("cutoffs", ()))
    betas = ", ".join(_beta_name(b) for b in exercise.param("betas", BETAS))
    return TEXTS["pr_describe"].format(given=binary_ranking_words(exercise.rels, exercise.n_relevant),
                                       cutoffs=cutoffs, betas=betas)


def _fmeasure_preset(query: str):
    def build() -> Exercise:
        from rankviz.teaching.presets import get_preset

        preset = get_preset(f"fmeasure_{query}")
        ranking = get_preset(preset.queries[0])
        return Exercise("precision_recall", english_title(preset), rels=tuple(ranking.rels), n_relevant=ranking.n_relevant,
                        params={"cutoffs": tuple(preset.settings["cutoffs"]), "betas": BETAS},
                        source=preset.source, note=english_title(preset, "note"))
    return build


def _pr_reference(exercise: Exercise) -> dict:
    from rankviz.metrics import f_beta, precision, recall

    values = {}
    for k in exercise.param("cutoffs", ()):
        values[f"P@{k}"] = precision(exercise.rels, k)
        values[f"R@{k}"] = recall(exercise.rels, k, n_relevant=exercise.n_relevant)
        for beta in exercise.param("betas", BETAS):
            values[f"{_beta_name(beta)}@{k}"] = f_beta(exercise.rels, k, beta=beta, n_relevant=exercise.n_relevant)
    return values


def _own_pr(*, rels, n_relevant=None, cutoffs=None, k=None, betas=(1.0,)) -> Exercise:
    if cutoffs is not None and k is not None:
        raise InputError("k", translate(N_('Give either one cut-off k or several cut-offs, not both.')))
    cutoffs = tuple(cutoffs) if cutoffs is not None else (k,) if k is not None else (len(rels),)
    betas = tuple(float(b) if isinstance(b, (int, float)) and not isinstance(b, bool) else b for b in betas)
    _check_r(rels, n_relevant)
    title = TEXTS.source["pr_title"].format(ranking=_marks(rels), cutoffs=", ".join(map(str, cutoffs)))
    return Exercise("precision_recall", title, rels=tuple(rels), n_relevant=n_relevant,
                    params={"cutoffs": cutoffs, "betas": betas})


def _check_r(rels, n_relevant, name: str = "n_relevant") -> None:
    if n_relevant is not None and n_relevant < count_relevant(rels):
        raise InputError(name, translate(N_('R = {n_relevant} is below the {count_relevant_rels} relevant documents '
                                            'of the list: R counts every relevant document of the query.')).format(
            n_relevant=n_relevant, count_relevant_rels=count_relevant(rels)))


PR_INPUTS = (
    OwnInput("rels", N_("Relevance in ranked order"), TEXTS.source["rels"], "relevance", required=True,
             example="R R N N N N N N R N"),
    OwnInput("n_relevant", N_("R (relevant documents in the collection)"), TEXTS.source["n_relevant_recall"], "int",
             blank=N_("the relevant documents of the list")),
    OwnInput("cutoffs", N_("Cut-offs k"), TEXTS.source["cutoffs"], "ints", blank=N_("the whole list"), example="5 10"),
    OwnInput("k", N_("Cut-off k"), TEXTS.source["k"], "int", blank=N_("the cut-offs above")),
    OwnInput("betas", N_("β of each F-measure"), TEXTS.source["betas"], "numbers", blank=N_("F1 only"), example="1 2 0.5"),
)

PR_KIND = register_kind(KindSpec(
    "precision_recall", N_("P@k, R@k and F-beta (F1, F2, F0.5) at cut-offs"), _generate_pr, precision_recall_steps,
    _describe_pr, presets={"fmeasure_q1": _fmeasure_preset("q1"), "fmeasure_q2": _fmeasure_preset("q2")},
    reference=_pr_reference,
    metrics=("precision", "recall", "f_beta"), inputs=PR_INPUTS, own=_own_pr))


# ---------------------------------------------------------------------------- RR and MRR with S_h


def _first_relevant(rels) -> int | None:
    return next((rank for rank, grade in enumerate(rels, 1) if grade >= 1), None)


def _rr_formula(first: int | None, threshold: int, value: float, ignore_threshold: bool = False) -> str:
    if first is None:
        return r"\text{no relevant document} \Rightarrow 0"
    if threshold is None or first <= threshold or ignore_threshold:
        return rf"\frac{{1}}{{{first}}} = {tex_number(value)}"
    return rf"{first} > S_h = {threshold} \Rightarrow 0"


def rr_steps(exercise: Exercise) -> list[Step]:
    """RR of each query: 1 / (rank of its first relevant document) when that rank is at most the
    threshold S_h, else 0 (the lecture's RR(R_i) with S_h); then MRR, their mean. Values from
    :func:`rankviz.metrics.reciprocal_rank` (k = S_h) and :func:`~rankviz.metrics.mean_reciprocal_rank`.

    >>> steps = rr_steps(Exercise("rr", "x", params={"queries": (("q1", (0, 1)), ("q2", (0, 0, 0, 1))),
    ...                                              "threshold": 3}))
    >>> [(s.label, round(s.expected, 3)) for s in steps]
    [('RR(q1)', 0.5), ('RR(q2)', 0.0), ('MRR', 0.25)]
    """
    from rankviz.metrics import mean_reciprocal_rank, reciprocal_rank

    queries = tuple(exercise.param("queries", ()))
    threshold = exercise.param("threshold")
    if not queries:
        raise InputError("rankings", translate(N_("Give at least one query's ranking.")))
    if threshold is not None and (isinstance(threshold, bool) or not isinstance(threshold, int) or threshold < 1):
        raise InputError("threshold", translate(N_('The rank threshold S_h must be a whole number of at least 1 (or '
                                                   'none); got {threshold}.')).format(threshold=repr(threshold)))
    check_length(len(queries), N_("queries"))
    steps = []
    threshold_words = TEXTS["rr_threshold_words"].format(threshold=threshold) if threshold is not None else ""
    for name, rels in queries:
        check_length(len(rels), f"ranks per query ({name} has {len(rels)})")
        value = float(reciprocal_rank(rels, threshold))
        steps.append(Step(f"RR({name})", value, _rr_formula(_first_relevant(rels), threshold, value),
                          stage="Step 1: RR per query",
                          hint=TEXTS["rr_hint"].format(name=name, threshold_words=threshold_words)))
    mrr = float(mean_reciprocal_rank([s.expected for s in steps]))
    terms = " + ".join(tex_number(s.expected) for s in steps)
    steps.append(Step("MRR", mrr, rf"\frac{{{terms}}}{{{len(queries)}}} = {tex_number(mrr)}",
                      uses=tuple(range(len(queries))), rule="sum", scale=float(len(queries)), stage="Step 2: MRR",
                      hint=TEXTS["mrr_hint"].format()))
    return steps


def _generate_rr(rng, seed: int) -> Exercise:
    threshold = rng.randint(3, 5)
    queries = []
    for q in range(rng.randint(3, 4)):
        n = rng.randint(6, 10)
        first = rng.choice([*range(1, threshold + 1), rng.randint(threshold + 1, n), None])
        grades = [0] * n
        if first is not None:
            grades[first - 1] = 1
            for i in range(first, n):
                grades[i] = int(rng.random() < 0.3)
        queries.append((f"q{q + 1}", tuple(grades)))
    if all(_first_relevant(r) is not None and _first_relevant(r) <= threshold for _, r in queries):
        # one query finds its first relevant document only past S_h: the threshold has to matter
        name, rels = queries[-1]
        late = [0] * len(rels)
        late[-1] = 1
        queries[-1] = (name, tuple(late))
    return Exercise("rr", f"Practice exercise {seed}: {english_title(RR_KIND)}",
                    params={"queries": tuple(queries), "threshold": threshold})


def _describe_rr(exercise: Exercise) -> str:
    lines = "; ".join(f"{name}: {', '.join(format_number(g) for g in rels)}"
                      for name, rels in exercise.param("queries", ()))
    threshold = exercise.param("threshold")
    if threshold is None:
        return TEXTS["rr_describe"].format(lines=lines)
    return TEXTS["rr_describe_threshold"].format(lines=lines, threshold=threshold)


def _mrr_preset() -> Exercise:
    from rankviz.teaching.presets import get_preset

    preset = get_preset("mrr_threshold")
    queries = tuple((key.split("_")[0], tuple(get_preset(key).rels)) for key in preset.queries)
    return Exercise("rr", english_title(preset), params={"queries": queries, "threshold": int(preset.settings["rr_threshold"])},
                    source=preset.source, note=english_title(preset, "note"))


def _rr_reference(exercise: Exercise) -> dict:
    from rankviz.metrics import mean_reciprocal_rank, reciprocal_rank

    threshold = exercise.param("threshold")
    values = {f"RR({name})": reciprocal_rank(rels, threshold) for name, rels in exercise.param("queries", ())}
    values["MRR"] = mean_reciprocal_rank(list(values.values()))
    return values


def _query_names(names, count: int, name: str = "names") -> tuple:
    """The queries' names: those given (one per query, each once), else q1, q2, ..."""
    if names is None:
        return tuple(f"q{i}" for i in range(1, count + 1))
    names = tuple(str(n) for n in names)
    if len(names) != count or len(set(names)) != len(names):
        raise InputError(name, translate(N_('Give each of the {count} queries its own name (or none: q1, q2, ...); '
                                            'got {join_names}.')).format(count=count, join_names=', '.join(names)))
    return names


def _own_rr(*, rankings, names=None, threshold=None) -> Exercise:
    names = _query_names(names, len(rankings))
    queries = tuple((name, tuple(rels)) for name, rels in zip(names, rankings))
    words = TEXTS.source["rr_title_threshold"].format(threshold=threshold) if threshold is not None else ""
    return Exercise("rr", TEXTS.source["rr_title"].format(count=len(queries), threshold_words=words),
                    params={"queries": queries, "threshold": threshold})


RR_INPUTS = (
    OwnInput("rankings", N_("Rankings, one query per line"), TEXTS.source["rankings"], "rankings", required=True,
             example="N N R\nN R\nR"),
    OwnInput("names", N_("Query names"), TEXTS.source["names"], "names", blank="q1, q2, ..."),
    OwnInput("threshold", N_("S_h (rank threshold)"), TEXTS.source["threshold"], "int", blank=N_("no threshold")),
)

RR_KIND = register_kind(KindSpec(
    "rr", N_("RR per query and MRR with a rank threshold S_h"), _generate_rr, rr_steps, _describe_rr,
    presets={"mrr_threshold": _mrr_preset}, reference=_rr_reference,
    metrics=("reciprocal_rank", "mean_reciprocal_rank"), inputs=RR_INPUTS, own=_own_rr))


# ---------------------------------------------------------------------------- R-precision


def r_precision_steps(exercise: Exercise) -> list[Step]:
    """The relevant documents in the top R, then R-precision = that count / R (P@R), from
    :func:`rankviz.metrics.r_precision_breakdown`.

    >>> [round(s.expected, 3) for s in r_precision_steps(Exercise("r_precision", "x", rels=(1, 0, 1, 0), n_relevant=3))]
    [2.0, 0.667]
    """
    from rankviz.metrics import r_precision

    n_rel = exercise.n_relevant
    if isinstance(n_rel, bool) or not isinstance(n_rel, int) or n_rel < 1:
        raise InputError("n_relevant", translate(N_('R-precision needs R, the number of relevant documents, at least '
                                                    '1; got {n_rel}.')).format(n_rel=repr(n_rel)))
    check_length(len(exercise.rels), N_("ranks"))
    hits = count_relevant(exercise.rels[:n_rel])
    value = float(r_precision(exercise.rels, n_relevant=n_rel))
    shown = min(n_rel, len(exercise.rels))
    return [Step(f"relevant in the top R = {n_rel}", float(hits),
                 rf"\text{{{TEXTS['f_relevant_among'].format(k=shown)}}} = {hits}", stage="Step 1: the top R",
                 hint=TEXTS["rprec_count_hint"].format(r=n_rel)),
            Step("R-precision", value, rf"\frac{{{hits}}}{{{n_rel}}} = {tex_number(value)}", uses=(0,), rule="sum",
                 scale=float(n_rel), stage="Step 2: R-precision", hint=TEXTS["rprec_hint"].format())]


def _generate_rprec(rng, seed: int) -> Exercise:
    n = rng.randint(8, 12)
    grades = [int(rng.random() < 0.4) for _ in range(n)]
    if sum(grades) < 2:
        for i in rng.sample(range(n), 2):
            grades[i] = 1
    return Exercise("r_precision", f"Practice exercise {seed}: {english_title(RPREC_KIND)}", rels=tuple(grades),
                    n_relevant=sum(grades) + rng.randint(0, 2))


def _describe_rprec(exercise: Exercise) -> str:
    return TEXTS["rprec_describe"].format(given=binary_ranking_words(exercise.rels, exercise.n_relevant))


def _rprec_preset(key: str):
    return ranking_preset("r_precision", key, note="",
                          title=lambda preset: f"R-precision of the lecture's {key.split('_')[0]} (R = {preset.n_relevant})")


def _rprec_reference(exercise: Exercise) -> dict:
    from rankviz.metrics import precision, r_precision

    n_rel = exercise.n_relevant
    # The count in the top R is P@R x R (precision over a list shorter than R counts the missing ranks as misses).
    return {"R-precision": r_precision(exercise.rels, n_relevant=n_rel),
            f"relevant in the top R = {n_rel}": round(precision(exercise.rels, n_rel) * n_rel)}


def _own_rprec(*, rels, n_relevant=None) -> Exercise:
    _check_r(rels, n_relevant)
    if n_relevant is None:
        n_relevant = count_relevant(rels)
    return Exercise("r_precision", TEXTS.source["rprec_title"].format(ranking=_marks(rels), r=n_relevant), rels=tuple(rels),
                    n_relevant=n_relevant)


RPREC_INPUTS = (
    OwnInput("rels", N_("Relevance in ranked order"), TEXTS.source["rels"], "relevance", required=True,
             example="R N R N N N N N R R"),
    OwnInput("n_relevant", N_("R (relevant documents in the collection)"), TEXTS.source["n_relevant_rprec"], "int",
             blank=N_("the relevant documents of the list"), example="4"),
)

RPREC_KIND = register_kind(KindSpec(
    "r_precision", N_("R-precision (precision at R)"), _generate_rprec, r_precision_steps, _describe_rprec,
    presets={"rprec_q1": _rprec_preset("q1_binary"), "rprec_q2": _rprec_preset("q2_binary")},
    reference=_rprec_reference,
    metrics=("r_precision",), inputs=RPREC_INPUTS, own=_own_rprec))


# ---------------------------------------------------------------------------- mistakes


def _pr_with(precision_of=None, recall_of=None, f_of=None):
    """The P/R/F working with P@k, R@k or F computed the mistaken way (None: as it should be)."""
    def working(exercise, steps):
        betas = tuple(exercise.param("betas", BETAS))
        mistaken, changed = [], False
        for k in _check_cutoffs(exercise):
            hits = count_relevant(exercise.rels[:k])
            p_step, r_step, *f_steps = [s for s in steps if s.stage == f"Cut-off k = {k}"]
            p, r = p_step.expected, r_step.expected
            if precision_of is not None and precision_of(exercise, k, hits) is not None:
                p, formula = precision_of(exercise, k, hits)
                p_step = replace(p_step, expected=p, formula=formula, alternatives=())
                changed = True
            if recall_of is not None and recall_of(exercise, k, hits) is not None:
                r, formula = recall_of(exercise, k, hits)
                r_step = replace(r_step, expected=r, formula=formula, alternatives=())
                changed = True
            mistaken += [p_step, r_step]
            for beta, f_step in zip(betas, f_steps):
                if f_of is not None and f_of(beta, p, r) is not None:
                    value, formula = f_of(beta, p, r)
                    changed = True
                else:
                    b2 = beta * beta
                    value = (1 + b2) * p * r / (b2 * p + r) if b2 * p + r else 0.0
                    formula = _f_formula(beta, p, r, value)
                mistaken.append(replace(f_step, expected=value, formula=formula, alternatives=()))
        return mistaken if changed else None
    return working


def _precision_over_length(exercise, k, hits):
    n = len(exercise.rels)
    return None if n <= k else (hits / n, rf"\frac{{{hits}}}{{{n}}} = {tex_number(hits / n)}")


def _precision_over_retrieved(exercise, k, hits):
    """P@k over the documents retrieved when the list is shorter than k (the set's precision)."""
    n = len(exercise.rels)
    return None if n >= k or not n else (hits / n, rf"\frac{{{hits}}}{{{n}}} = {tex_number(hits / n)}"
                                                   rf"\ \text{{(over the {n} retrieved)}}")


def _precision_over_r(exercise, k, hits):
    n_rel = exercise.n_relevant
    return None if not n_rel or n_rel == k else (hits / n_rel, rf"\frac{{{hits}}}{{{n_rel}}} = {tex_number(hits / n_rel)}")


def _recall_over_k(exercise, k, hits):
    return None if exercise.n_relevant == k else (hits / k, rf"\frac{{{hits}}}{{{k}}} = {tex_number(hits / k)}")


def _f_beta_not_squared(beta, p, r):
    if beta == 1 or not (beta * p + r):
        return None
    value = (1 + beta) * p * r / (beta * p + r)
    return value, _f_formula(beta, p, r, value, above=beta, below=beta)


def _f_beta_not_squared_below(beta, p, r):
    if beta == 1 or not (beta * p + r):
        return None
    value = (1 + beta * beta) * p * r / (beta * p + r)
    return value, _f_formula(beta, p, r, value, below=beta)


def _f_without_factor(beta, p, r):
    b2 = beta * beta
    if not (b2 * p + r) or not p * r:
        return None
    value = p * r / (b2 * p + r)
    return value, (rf"\frac{{{tex_number(p)} \times {tex_number(r)}}}{{{tex_number(b2)} \times {tex_number(p)} + "
                   rf"{tex_number(r)}}} = {tex_number(value)}")


def _f_arithmetic(beta, p, r):
    if beta != 1:
        return None
    value = (p + r) / 2
    return value, rf"\frac{{{tex_number(p)} + {tex_number(r)}}}{{2}} = {tex_number(value)}"


def _f_weights_swapped(beta, p, r):
    b2 = beta * beta
    if beta == 1 or not (b2 * r + p):
        return None
    value = (1 + b2) * p * r / (b2 * r + p)
    return value, (rf"\frac{{(1 + {tex_number(b2)}) \times {tex_number(p)} \times {tex_number(r)}}}"
                   rf"{{{tex_number(b2)} \times {tex_number(r)} + {tex_number(p)}}} = {tex_number(value)}")


register_mistake("precision_over_list_length", N_("You divided the relevant documents in the top k by the length of "
                                               "the whole list; P@k divides them by k."),
                 "precision_recall", _pr_with(precision_of=_precision_over_length))
register_mistake("precision_over_retrieved_when_short",
                 N_("That is right under another convention, the precision of the retrieved set (relevant retrieved / "
                 "retrieved, IIR §8.3's unranked precision); P@k divides by k even when fewer than k documents were "
                 "retrieved (trec_eval): the missing ranks count as not relevant."),
                 "precision_recall", _pr_with(precision_of=_precision_over_retrieved))
register_mistake("precision_over_r", N_("You divided the relevant documents in the top k by R (that is recall); P@k "
                                     "divides them by k."), "precision_recall", _pr_with(precision_of=_precision_over_r))
register_mistake("recall_over_retrieved", N_("You divided the relevant documents in the top k by k, the documents "
                                          "retrieved (that is precision); R@k divides them by R, all relevant "
                                          "documents."), "precision_recall", _pr_with(recall_of=_recall_over_k))
register_mistake("f_beta_not_squared", N_("You used β where the formula takes β², above and below (the trap of "
                                       "trec_eval's set_F, whose parameter is β² itself): "
                                       "F_β = (1 + β²) P R / (β² P + R)."),
                 "precision_recall", _pr_with(f_of=_f_beta_not_squared))
register_mistake("f_beta_not_squared_below", N_("You multiplied P by β in the denominator, as the lecture's F0.5 slide "
                                             "does ((0.5)P + R); the formula takes β² there too: β² P + R."),
                 "precision_recall", _pr_with(f_of=_f_beta_not_squared_below))
register_mistake("f_without_factor", N_("You left out the factor (1 + β²) above the line: F_β = (1 + β²) P R / "
                                     "(β² P + R), so F1 = 2 P R / (P + R)."),
                 "precision_recall", _pr_with(f_of=_f_without_factor))
register_mistake("f1_arithmetic_mean", N_("You took the arithmetic mean (P + R) / 2; F1 is their harmonic mean "
                                       "2 P R / (P + R)."), "precision_recall", _pr_with(f_of=_f_arithmetic))
register_mistake("f_beta_weights_swapped", N_("You put β² on R instead of on P: F_β = (1 + β²) P R / (β² P + R), so "
                                           "F2 leans towards recall and F0.5 towards precision."),
                 "precision_recall", _pr_with(f_of=_f_weights_swapped))


def _rr_with(rr_of=None, mrr_scale=None, with_rels=False):
    def working(exercise, steps):
        threshold = exercise.param("threshold")
        queries = tuple(exercise.param("queries", ()))
        mistaken, changed = [], False
        for (name, rels), step in zip(queries, steps):
            found = None
            if rr_of is not None:
                found = (rr_of(_first_relevant(rels), threshold, rels) if with_rels
                         else rr_of(_first_relevant(rels), threshold))
            if found is None:
                mistaken.append(replace(step, alternatives=()))
            else:
                mistaken.append(replace(step, expected=found[0], formula=found[1], alternatives=()))
                changed = True
        last = steps[-1]
        scale = mrr_scale(queries, threshold) if mrr_scale is not None else last.scale
        if scale != last.scale:
            changed = True
        if not changed or not scale:
            return None
        total = sum(s.expected for s in mistaken)
        terms = " + ".join(tex_number(s.expected) for s in mistaken)
        mistaken.append(replace(last, expected=total / scale, scale=float(scale), alternatives=(),
                                formula=rf"\frac{{{terms}}}{{{format_number(scale)}}} = {tex_number(total / scale)}"))
        return mistaken
    return working


def _rr_ignoring_threshold(first, threshold):
    if first is None or threshold is None or first <= threshold:
        return None
    return 1 / first, _rr_formula(first, threshold, 1 / first, ignore_threshold=True)


def _rank_not_inverted(first, threshold):
    if first is None or (threshold is not None and first > threshold) or first == 1:
        return None
    return float(first), rf"{first}"


def _threshold_exclusive(first, threshold):
    if first is None or first != threshold:
        return None
    return 0.0, rf"{first} \geq S_h = {threshold} \Rightarrow 0"


register_mistake("rr_threshold_ignored", N_("You took 1 / rank past the threshold; with S_h, a first relevant document "
                                         "ranked below S_h gives RR = 0."), "rr", _rr_with(rr_of=_rr_ignoring_threshold))
register_mistake("rr_rank_not_inverted", N_("You wrote the rank of the first relevant document; RR is its reciprocal, "
                                         "1 / rank."), "rr", _rr_with(rr_of=_rank_not_inverted))
register_mistake("rr_threshold_exclusive", N_("You dropped a first relevant document ranked exactly at S_h; the "
                                           "threshold includes it: RR = 1 / rank when rank ≤ S_h (the lecture's q2, "
                                           "at rank 3 = S_h, counts 1/3)."), "rr", _rr_with(rr_of=_threshold_exclusive))
register_mistake("mrr_over_found", N_("You divided by the queries that found a relevant document within S_h; MRR "
                                   "divides by every query (a query with RR = 0 counts)."),
                 "rr", _rr_with(mrr_scale=lambda queries, threshold: sum(
                     1 for _, rels in queries if _first_relevant(rels) is not None
                     and (threshold is None or _first_relevant(rels) <= threshold))))
def _last_relevant(rels) -> int | None:
    return max((rank for rank, grade in enumerate(rels, 1) if grade >= 1), default=None)


def _rr_of_last(first, threshold, rels):
    """RR from the rank of the last relevant document (within S_h as the exercise says)."""
    last = _last_relevant(rels)
    if last is None or last == first:
        return None
    value = 1 / last if threshold is None or last <= threshold else 0.0
    return value, (rf"\frac{{1}}{{{last}}} = {tex_number(value)}\ \text{{(last relevant)}}"
                   if value else rf"{last} > S_h = {threshold} \Rightarrow 0\ \text{{(last relevant)}}")


register_mistake("rr_last_relevant", N_("You took the rank of the last relevant document; RR takes the first one, where "
                                     "the user first finds what they need: RR = 1 / rank of the first relevant "
                                     "document."), "rr", _rr_with(rr_of=_rr_of_last, with_rels=True))
register_mistake("mrr_not_divided", N_("You added the RRs up; MRR is their mean: divide by the number of queries."),
                 "rr", _rr_with(mrr_scale=lambda queries, threshold: 1))


def _rprec_at(cutoff_of, divide_by_cutoff=True):
    def working(exercise, steps):
        n_rel = exercise.n_relevant
        cutoff = cutoff_of(exercise)
        if cutoff is None or cutoff < 1 or cutoff == n_rel:
            return None
        hits = count_relevant(exercise.rels[:cutoff])
        denominator = cutoff if divide_by_cutoff else n_rel
        value = hits / denominator
        return [replace(steps[0], expected=float(hits), alternatives=(),
                        formula=rf"\text{{{TEXTS['f_relevant_among'].format(k=cutoff)}}} = {hits}"),
                replace(steps[1], expected=value, scale=float(denominator), alternatives=(),
                        formula=rf"\frac{{{hits}}}{{{denominator}}} = {tex_number(value)}")]
    return working


register_mistake("rprec_at_list_length", N_("You counted the relevant documents in the whole list; R-precision looks "
                                         "at the top R only (P@R)."),
                 "r_precision", _rprec_at(lambda exercise: len(exercise.rels)))
def _rank_of_rth_relevant(exercise):
    ranks = [rank for rank, grade in enumerate(exercise.rels, 1) if grade >= 1]
    n_rel = exercise.n_relevant
    return ranks[n_rel - 1] if n_rel is not None and 0 < n_rel <= len(ranks) else None


register_mistake("rprec_at_rth_relevant",
                 N_("That is right under another reading, the precision at the rank of the R-th relevant document; "
                 "R-precision (IIR §8.4, trec_eval's Rprec) is the precision at rank R: the relevant documents "
                 "among the top R ranks, divided by R."), "r_precision", _rprec_at(_rank_of_rth_relevant))
register_mistake("rprec_at_retrieved_relevant", N_("You cut at the number of relevant documents retrieved; R-precision "
                                                "cuts at R, all relevant documents of the query."),
                 "r_precision", _rprec_at(lambda exercise: count_relevant(exercise.rels)))

register_title_templates(*(text for key, text in TEXTS.source.items() if "title" in key))
