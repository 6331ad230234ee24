"""Rank-correlation exercises: Spearman's rho from d² per document, Kendall's tau pair by pair with the
normalized Kendall tau distance at K, and the mistakes made on the way.

``spearman`` exercises use ``items``, ``ranks_a`` (rank of each item in R1) and ``ranks_b``
(in R2), every item at its own rank.
"""

from __future__ import annotations

import math
from dataclasses import replace

from rankviz.i18n import N_
from rankviz.i18n import _ as translate
from rankviz.registry import KENDALL_VARIANT, SPEARMAN_TIES
from rankviz.teaching.homework.core import (Exercise, InputError, KindSpec, OwnInput, Step, TranslatedWords,
    check_length, english_title, register_kind, tex_number)
from rankviz.teaching.homework.mistakes import register_convention, register_mistake
from rankviz.teaching.homework.words import register_title_templates

# What a student reads: the step hints and the inputs of their own exercise, in the textbooks' words.
TEXTS = TranslatedWords({
    "d2_hint": N_("d is the difference of {doc}'s two ranks (tied documents share their average rank); square it: "
               "$d^2 = (s_1 - s_2)^2$."),
    "sum_hint": N_("Add up the squared differences of every document: $\\sum d^2$."),
    "rho_hint": N_("Spearman's ρ without ties: $\\rho = 1 - \\frac{{6 \\sum d^2}}{{K(K^2 - 1)}}$, K the number of "
                "documents."),
    "t_hint": N_("For each group of t documents tied in {ranking}, add (t³ − t)/12: $T = \\sum \\frac{{t^3 - t}}{{12}}$ "
              "(0 without ties)."),
    "s_hint": N_("S{index} is the spread of ranking {index}'s average ranks: $S = \\frac{{K^3 - K}}{{12}} - T$."),
    "rho_ties_hint": N_("With ties ρ is Pearson's r of the average ranks: $\\rho = \\frac{{S_1 + S_2 - \\sum d^2}}"
                     "{{2\\sqrt{{S_1 S_2}}}}$."),
    "ranks_a": N_("The rank of each document in R1 (1 = first), or the raw values of the first variable: tied values "
               "share their average rank (two at ranks 2 and 3 both get 2.5)."),
    "ranks_b": N_("The rank of the same documents in R2, in the same order, or the raw values of the second variable."),
    "items": N_("The documents' names, in the same order (blank: d1, d2, ...)."),
    "ties": N_("With ties: Spearman's ρ as the Pearson correlation of the average ranks (the definition; scipy, R), or "
            "the shortcut 1 − 6Σd²/(n(n² − 1)) on them, as some sheets do."),
    "variant": N_("Which Kendall's tau: tau-b corrects for ties (Kendall 1945, scipy's default), tau-a divides by all "
               "n(n − 1)/2 pairs."),
    "kendall_k": N_("K for the normalized Kendall tau distance between the two top-K lists (rankings without ties). "
                 "Blank: tau only."),
    "penalty": N_("p, the penalty of a pair of documents both missing from one top-K list (Fagin et al.'s K^(p); 0.5 "
               "unless the sheet says)."),
    "kendall_n0_hint": N_("Every pair of the n documents once: $n_0 = \\frac{{n(n - 1)}}{{2}}$."),
    "kendall_D_hint": N_("A pair is discordant when R1 and R2 put its two documents in opposite orders; count them."),
    "kendall_n1_hint": N_("Count the pairs tied in R1 (same rank): a group of t tied documents holds t(t − 1)/2 "
                          "pairs."),
    "kendall_n2_hint": N_("Count the pairs tied in R2 (same rank): a group of t tied documents holds t(t − 1)/2 "
                          "pairs."),
    "kendall_C_hint": N_("A pair is concordant when both rankings order it the same way: what is neither discordant nor "
                      "tied, $C = n_0 - D - \\text{{tied pairs}}$."),
    "kendall_tau_hint": N_("{variant_label}: ${formula}$."),
    "kendall_union_hint": N_("Put the two top-{k} lists together: n counts each document in either list once."),
    "kendall_union_pairs_hint": N_("The pairs of the n documents of the union: $\\frac{{n(n - 1)}}{{2}}$."),
    "kendall_penalties_hint": N_("Go through every pair of the union: penalty 1 when the two top-{k} lists order it "
                              "differently (a list missing one of the two ranks the one it holds higher), p for two "
                              "documents both missing from the same list, 0 otherwise; add them up."),
    "kendall_distance_hint": N_("The normalized distance divides the penalties by the pairs of the union: "
                             "$K_n = \\frac{{\\sum \\bar K}}{{n(n - 1)/2}}$."),
    "spearman_title": N_("Your two rankings of {count} documents: Spearman's rank correlation (rho)"),
    "kendall_title": N_("Your two rankings of {count} documents: {title}"),
    "describe": N_('Documents with (rank in R1, rank in R2): {pairs}. Compute d² = (s1 − s2)² for each document, '
                   'then Σd² and ρ = 1 − 6 Σd² / (K (K² − 1)).'),
    "kendall_describe": N_('Documents with (rank in R1, rank in R2): {pairs}. Go through every pair of documents: '
                           'count n0 = n(n − 1)/2, the discordant pairs D (ordered differently by R1 and R2) and the '
                           'concordant pairs C; then {tau}.'),
    "kendall_describe_ties": N_('Documents with (rank in R1, rank in R2): {pairs} (tied documents share their '
                                'average rank). Go through every pair of documents: count n0 = n(n − 1)/2, the '
                                'discordant pairs D (ordered differently by R1 and R2), the pairs tied in R1 (n1) '
                                'and in R2 (n2) (a tie is neither concordant nor discordant) and the concordant '
                                'pairs C; then {tau}.'),
    "kendall_describe_distance": N_(' Then compare the top-{k} lists (R1: {first}; R2: {second}) with the normalized '
                                    'Kendall tau distance at K = {k}: over every pair of the n documents in either '
                                    'list, penalty 1 when the two lists order the pair differently (a list missing '
                                    'one of the two ranks the one it holds higher; two documents each in a different '
                                    'list only: 1), p = {p} for two documents both missing from the same list, 0 '
                                    'otherwise; K_n@{k} = (Σ of the penalties) / (n(n − 1)/2).'),
    "f_no_tie": N_('no tie in {ranking}'),
    "f_tied_pairs": N_('tied pairs'),
    "f_no_ties": N_('(no ties)'),
})

__all__ = ["KENDALL_VARIANTS", "kendall_steps", "spearman_steps"]


def _tie_groups(ranks) -> list[int]:
    """The sizes of the groups of tied values (2 or more) of a ranking."""
    from collections import Counter

    return [size for size in Counter(ranks).values() if size > 1]


def _rank_columns(table):
    """The ranks the d² are taken of: the breakdown's average ranks when it ranked the values, else the ranks given."""
    if "rank s1" in table.columns:
        return table["rank s1"], table["rank s2"]
    return table["s1"], table["s2"]


def _items(exercise: Exercise, n: int) -> tuple:
    items = tuple(exercise.items) or tuple(f"d{i}" for i in range(1, n + 1))
    if len(items) != n:
        raise InputError("items", translate(N_('Give one name per document: {n} documents, {len_items} names.')).format(
            
            n=n, len_items=len(items)))
    if len(set(items)) != len(items):
        raise InputError("items", translate(N_('Each document must be named once; got {join_map_str_items}.')).format(
            join_map_str_items=', '.join(map(str, items))))
    return items


def spearman_steps(exercise: Exercise) -> list[Step]:
    """d² = (s1 − s2)² per document (stage 1), Σd² (stage 2), ρ = 1 − 6 Σd² / (K (K² − 1)) (stage 3),
    every value from :func:`rankviz.metrics.spearman_rho_breakdown`.

    The ranks may tie, and raw values may be given instead of ranks: each ranking is ranked (1 =
    the smallest value, tied values sharing their average rank, as Wikipedia's IQ example ranks its
    columns). With ties, ``params["ties"]`` says how ρ is computed (:data:`rankviz.registry.SPEARMAN_TIES`):
    "pearson" (the default: Pearson's r of the average ranks, worked with the tie corrections
    T = Σ(t³ − t)/12 and S = (K³ − K)/12 − T of each ranking, ρ = (S1 + S2 − Σd²) / (2 √(S1 S2)))
    or "formula" (the shortcut on the average ranks, as some sheets do).

    >>> round(spearman_steps(Exercise("spearman", "x", items=("a", "b", "c"), ranks_a=(1, 2, 3),
    ...                                ranks_b=(2, 1, 3)))[-1].expected, 3)
    0.5

    scipy's spearmanr example, [1, 2, 3, 4, 5] against [5, 6, 7, 8, 7] (two tied 7s):

    >>> steps = spearman_steps(Exercise("spearman", "x", ranks_a=(1, 2, 3, 4, 5), ranks_b=(5, 6, 7, 8, 7)))
    >>> [(s.label, round(s.expected, 4)) for s in steps[5:]]  # doctest: +NORMALIZE_WHITESPACE
    [('Σd²', 3.5), ('T1 = Σ(t³ − t)/12 (ties in R1)', 0.0), ('T2 = Σ(t³ − t)/12 (ties in R2)', 0.5),
     ('S1 = (K³ − K)/12 − T1', 10.0), ('S2 = (K³ − K)/12 − T2', 9.5), ('ρ (Spearman)', 0.8208)]
    """
    from rankviz.metrics import spearman_rho_breakdown

    a, b = tuple(exercise.ranks_a), tuple(exercise.ranks_b)
    if len(a) != len(b):
        raise InputError("ranks_b", translate(N_('Give one rank in R1 and one in R2 per document: {len_a} ranks in '
                                                 'R1 and {len_b} in R2.')).format(len_a=len(a), len_b=len(b)))
    if len(a) < 2:
        raise InputError("ranks_a", translate(N_("Spearman's ρ compares at least 2 documents; this exercise has "
                                                 "{len_a}.")).format(len_a=len(a)))
    check_length(len(a), N_("documents"))
    items = _items(exercise, len(a))
    for name, ranks in (("ranks_a", a), ("ranks_b", b)):
        if len(set(ranks)) == 1:
            raise InputError(name, translate(N_('{R1_if_name_ranks_a_else} ties every document: there is no order to '
                                                'correlate, so ρ is undefined.')).format(
                R1_if_name_ranks_a_else='R1' if name == 'ranks_a' else 'R2'))
    ties = exercise.param("ties", "pearson")
    SPEARMAN_TIES.choice(ties)
    k = len(a)
    worked = spearman_rho_breakdown(a, b, items=list(items))
    table = worked.table
    steps = [Step(f"d² of {doc} (s1 = {tex_number(s1)}, s2 = {tex_number(s2)})", float(d2),
                  rf"({tex_number(s1)} - {tex_number(s2)})^2 = {tex_number(d2)}", stage="Step 1: d² per document",
                  hint=TEXTS["d2_hint"].format(doc=doc))
             for doc, s1, s2, d2 in zip(table["doc"], *_rank_columns(table), table["d^2"])]
    total = float(worked.details["sum_d2"])
    steps.append(Step("Σd²", total, " + ".join(tex_number(s.expected) for s in steps) + f" = {tex_number(total)}",
                      uses=tuple(range(len(steps))), rule="sum", stage="Step 2: Σd²", hint=TEXTS["sum_hint"]))
    tied = bool(_tie_groups(a) or _tie_groups(b))
    if not tied or ties == "formula":
        value = 1 - 6 * total / (k * (k * k - 1))
        steps.append(Step("ρ (Spearman)", value,
                          rf"1 - \frac{{6 \times {tex_number(total)}}}{{{k} \times ({k}^2 - 1)}} = {tex_number(value)}",
                          uses=(len(steps) - 1,), rule="spearman", scale=float(k * (k * k - 1)), stage="Step 3: ρ",
                          hint=TEXTS["rho_hint"].format()))
        return steps
    whole = (k ** 3 - k) / 12
    stage = "Step 3: the tie corrections"
    for index, (ranking, ranks) in enumerate((("R1", a), ("R2", b)), 1):
        groups = _tie_groups(ranks)
        correction = sum(t ** 3 - t for t in groups) / 12
        shown = (" + ".join(rf"\frac{{{t}^3 - {t}}}{{12}}" for t in groups) + f" = {tex_number(correction)}"
                 if groups else rf"\text{{{TEXTS['f_no_tie'].format(ranking=ranking)}}} \Rightarrow 0")
        steps.append(Step(f"T{index} = Σ(t³ − t)/12 (ties in {ranking})", correction, shown, stage=stage,
                          hint=TEXTS["t_hint"].format(ranking=ranking)))
    first_t = len(steps) - 2
    for index in (1, 2):
        correction = steps[first_t + index - 1].expected
        steps.append(Step(f"S{index} = (K³ − K)/12 − T{index}", whole - correction,
                          rf"\frac{{{k}^3 - {k}}}{{12}} - {tex_number(correction)} = {tex_number(whole - correction)}",
                          uses=(first_t + index - 1,), rule="complement", scale=whole, stage=stage,
                          hint=TEXTS["s_hint"].format(index=index)))
    s1, s2 = steps[-2].expected, steps[-1].expected
    value = float(worked.value)
    steps.append(Step("ρ (Spearman)", value,
                      rf"\frac{{{tex_number(s1)} + {tex_number(s2)} - {tex_number(total)}}}{{2\sqrt{{{tex_number(s1)} "
                      rf"\times {tex_number(s2)}}}}} = {tex_number(value)}",
                      uses=(len(steps) - 2, len(steps) - 1, first_t - 1), rule="spearman_ties",
                      stage="Step 4: ρ", hint=TEXTS["rho_ties_hint"].format()))
    return steps


def _generate(rng, seed: int) -> Exercise:
    n = rng.randint(5, 8)
    order = list(range(1, n + 1))
    while order == sorted(order):
        rng.shuffle(order)
    return Exercise("spearman", f"Practice exercise {seed}: {english_title(KIND)}", items=tuple(f"d{i}" for i in range(1, n + 1)),
                    ranks_a=tuple(range(1, n + 1)), ranks_b=tuple(order))


def _describe(exercise: Exercise) -> str:
    pairs = ", ".join(f"{d} ({a}, {b})" for d, a, b in zip(exercise.items, exercise.ranks_a, exercise.ranks_b))
    return TEXTS["describe"].format(pairs=pairs)


def _from_preset() -> Exercise:
    from rankviz.teaching.presets import get_preset

    preset = get_preset("srcc_exercise")
    return Exercise("spearman", english_title(preset), items=tuple(preset.doc_ids), ranks_a=tuple(preset.ranks_a),
                    ranks_b=tuple(preset.ranks_b), source=preset.source, note=english_title(preset, "note"))


def _reference(exercise: Exercise) -> dict:
    from rankviz.metrics import spearman_rho

    a, b = list(exercise.ranks_a), list(exercise.ranks_b)
    items = _items(exercise, len(a))
    rank_a, rank_b = _average_ranks(a), _average_ranks(b)
    tied = bool(_tie_groups(a) or _tie_groups(b))
    total = float(sum((x - y) ** 2 for x, y in zip(rank_a, rank_b)))
    n = len(a)
    shortcut = 1 - 6 * total / (n * (n * n - 1))
    values = {"ρ (Spearman)": shortcut if tied and exercise.param("ties", "pearson") == "formula"
              else spearman_rho(a, b), "Σd²": total}
    for doc, s1, s2 in zip(items, rank_a, rank_b):
        values[f"d² of {doc} (s1 = {tex_number(s1)}, s2 = {tex_number(s2)})"] = (s1 - s2) ** 2
    if tied and exercise.param("ties", "pearson") == "pearson":
        # S is the spread Σ(r − r̄)² of the average ranks, T what the ties take off (K³ − K)/12.
        for index, ranks in ((1, rank_a), (2, rank_b)):
            mean = sum(ranks) / n
            spread = sum((r - mean) ** 2 for r in ranks)
            values[f"S{index} = (K³ − K)/12 − T{index}"] = spread
            values[f"T{index} = Σ(t³ − t)/12 (ties in R{index})"] = (n ** 3 - n) / 12 - spread
    return values


def _own_spearman(*, ranks_a, ranks_b, items=None, ties="pearson") -> Exercise:
    return Exercise("spearman", TEXTS.source["spearman_title"].format(count=len(ranks_a)), items=tuple(items or ()),
                    ranks_a=tuple(ranks_a), ranks_b=tuple(ranks_b), params={"ties": ties})


_RANKS_INPUTS = (
    OwnInput("ranks_a", N_("Ranks in R1 (or values)"), TEXTS.source["ranks_a"], "ranks", required=True, example="1 2 3 4 5"),
    OwnInput("ranks_b", N_("Ranks in R2 (or values)"), TEXTS.source["ranks_b"], "ranks", required=True, example="2 1 4 3 5"),
    OwnInput("items", N_("Document names"), TEXTS.source["items"], "names", blank="d1, d2, ..."),
)

KIND = register_kind(KindSpec("spearman", N_("Spearman's rank correlation (rho)"), _generate, spearman_steps, _describe,
                              presets={"srcc_exercise": _from_preset}, reference=_reference,
                              metrics=("spearman_rho",),
                              inputs=(*_RANKS_INPUTS, OwnInput("ties", N_("With tied ranks"), TEXTS.source["ties"], "choice",
                                                               param=SPEARMAN_TIES)),
                              own=_own_spearman))


# ---------------------------------------------------------------------------- mistakes


def _average_ranks(values) -> list[float]:
    """Each value's rank, 1 for the smallest, tied values sharing their average rank (computed apart from the
    breakdown: 1 + the values below + half the other values equal to it)."""
    return [1 + sum(w < v for w in values) + (sum(w == v for w in values) - 1) / 2 for v in values]


def _shortcut_working(exercise, steps) -> bool:
    """Whether rho is worked with 1 − 6Σd²/(K(K² − 1)) (no ties, or the sheet's shortcut): the mistakes below
    rework that formula."""
    return steps[-1].rule == "spearman"


def _with_differences(how: str):
    """d² replaced by d itself (``signed``) or by |d|: the sum and rho then follow the same formulas."""
    def working(exercise, steps):
        if not _shortcut_working(exercise, steps):
            return None
        ranks_a, ranks_b = _average_ranks(exercise.ranks_a), _average_ranks(exercise.ranks_b)
        n = len(ranks_a)
        differences = [float(a - b) for a, b in zip(ranks_a, ranks_b)]
        values = differences if how == "signed" else [abs(d) for d in differences]
        mistaken = [replace(step, expected=value, alternatives=(),
                            formula=(rf"{tex_number(a)} - {tex_number(b)} = {tex_number(value)}" if how == "signed"
                                     else rf"|{tex_number(a)} - {tex_number(b)}| = {tex_number(value)}"))
                    for step, value, a, b in zip(steps[:n], values, ranks_a, ranks_b)]
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
        if not _shortcut_working(exercise, steps):
            return None
        n = len(exercise.ranks_a)
        last = steps[-1]
        total = steps[last.uses[0]].expected
        scale = scale_of(n)
        rho = 1 - 6 * total / scale
        return steps[:-1] + [replace(last, expected=rho, scale=float(scale), alternatives=(),
                                     formula=rf"1 - \frac{{6 \times {tex_number(total)}}}{{{formula_of(n)}}} = "
                                             rf"{tex_number(rho)}")]
    return working


def _without_one_minus(exercise, steps):
    if not _shortcut_working(exercise, steps):
        return None
    last = steps[-1]
    total = steps[last.uses[0]].expected
    value = 6 * total / last.scale
    n = len(exercise.ranks_a)
    return steps[:-1] + [replace(last, expected=value, rule="", uses=(), alternatives=(),
                                 formula=rf"\frac{{6 \times {tex_number(total)}}}{{{n} \times ({n}^2 - 1)}} = "
                                         rf"{tex_number(value)}")]


def _spearman_has_ties(exercise) -> bool:
    return bool(_tie_groups(exercise.ranks_a) or _tie_groups(exercise.ranks_b))


def _spearman_other(ties: str):
    """The working under the other way of treating ties (None without ties: then both give the same)."""
    def working(exercise, steps):
        if not _spearman_has_ties(exercise):
            return None
        return spearman_steps(exercise.with_params(ties=ties))
    return working


register_convention("spearman_formula_on_ties", SPEARMAN_TIES, "formula", "spearman", _spearman_other("formula"),
                    asked_of=lambda exercise: exercise.param("ties", "pearson"))
register_convention("spearman_pearson_on_ties", SPEARMAN_TIES, "pearson", "spearman", _spearman_other("pearson"),
                    asked_of=lambda exercise: exercise.param("ties", "pearson"))
register_mistake("spearman_d_not_squared", N_("You added the differences d = s1 − s2 without squaring them; they "
                                           "always add up to 0. Square each one: d²."),
                 "spearman", _with_differences("signed"))
register_mistake("spearman_absolute_d", N_("You added |d| instead of d²: square each difference, so a document two "
                                        "ranks away counts 4, not 2."), "spearman", _with_differences("absolute"))
register_mistake("spearman_denominator_k2_minus_1", N_("You divided by K² − 1; the denominator is K (K² − 1)."),
                 "spearman", _denominator(lambda n: n * n - 1, lambda n: f"{n}^2 - 1"))
register_mistake("spearman_without_one_minus", N_("You stopped at 6 Σd² / (K (K² − 1)); ρ is 1 minus that."),
                 "spearman", _without_one_minus)


# ============================================================================ Kendall
#
# ``kendall`` exercises use ``items``, ``ranks_a`` (R1) and ``ranks_b`` (R2), tied documents
# sharing their average rank, and ``params``: ``variant`` ("b" or "a": which tau is asked),
# ``k`` (the K of the normalized Kendall tau distance at K; None: no distance part; only for
# rankings without ties, whose top-K lists are well defined) and ``penalty`` (p, the cost of a
# pair of items both missing from the other top-K list; 0.5 unless given).

KENDALL_VARIANTS = KENDALL_VARIANT.ordered("b")  # the registry's variants, tau-b (the default) first


def _names(pairs) -> str:
    return ", ".join(f"({i}, {j})" for i, j in pairs)


# Beyond this many pairs a working names the first ones only (a sheet's 100 documents have 4950 pairs).
_PAIRS_NAMED = 24


def _pair_list(pairs, empty: str) -> str:
    r"""The pairs named in a working, the first :data:`_PAIRS_NAMED` of a long list then how many in all.

    >>> print(_pair_list([(1, 2)], "none"), _pair_list([], "none"))
    \text{(1, 2)} \text{none}
    >>> print(_pair_list([(i, i + 1) for i in range(30)], "none").split("}, ")[-1])
    \dots\ \text{(30 pairs)}
    """
    if not pairs:
        return rf"\text{{{empty}}}"
    if len(pairs) <= _PAIRS_NAMED:
        return rf"\text{{{_names(pairs)}}}"
    return rf"\text{{{_names(pairs[:_PAIRS_NAMED])}}}, \dots\ \text{{({len(pairs)} pairs)}}"


def _kendall_labels(exercise: Exercise) -> dict:
    variant = exercise.param("variant", "b")
    k = exercise.param("k")
    return {"n0": "n0 = n(n − 1)/2 (all pairs)", "D": "D (discordant pairs)", "n1": "n1 (pairs tied in R1)",
            "n2": "n2 (pairs tied in R2)", "C": "C (concordant pairs)", "tau": f"τ_{variant} (Kendall)",
            "union": f"n (items in the union of the two top-{k} lists)", "union pairs": "pairs of the union n(n − 1)/2",
            "penalties": "Σ of the pair penalties", "distance": f"K_n@{k} (normalized Kendall tau distance)"}


def _ranked_lists(exercise: Exercise) -> tuple[list, list]:
    """The two rankings as lists of items, best first (only for rankings without ties)."""
    order_a = [item for _, item in sorted(zip(exercise.ranks_a, exercise.items))]
    order_b = [item for _, item in sorted(zip(exercise.ranks_b, exercise.items))]
    return order_a, order_b


def _check_kendall(exercise: Exercise) -> tuple[str, int | None, float, bool]:
    items, a, b = exercise.items, exercise.ranks_a, exercise.ranks_b
    if len(a) != len(b) or len(a) != len(items):
        raise InputError("ranks_b", translate(N_('Give one rank in R1 and one in R2 per document: {len_items} '
                                                 'documents, {len_a} ranks in R1 and {len_b} in R2.')).format(
            len_items=len(items), len_a=len(a), len_b=len(b)))
    if len(set(items)) != len(items):
        raise InputError("items", translate(N_('Each document must be named once; got {join_map_str_items}.')).format(
            join_map_str_items=', '.join(map(str, items))))
    check_length(len(items), N_("documents"))
    if len(items) < 3:
        raise InputError("ranks_a", translate(N_('A Kendall exercise needs at least 3 documents (3 pairs); got '
                                                 '{len_items}.')).format(len_items=len(items)))
    for name, field, ranks in (("R1", "ranks_a", a), ("R2", "ranks_b", b)):
        if len(set(ranks)) == 1:
            raise InputError(field, translate(N_('{name} ties every document: there is no order to compare, so tau '
                                                 'is undefined.')).format(name=name))
    variant = exercise.param("variant", "b")
    if variant not in KENDALL_VARIANTS:
        raise ValueError(f"The Kendall variant must be 'b' (tau-b) or 'a' (tau-a); got {variant!r}.")
    ties = len(set(a)) < len(a) or len(set(b)) < len(b)
    k = exercise.param("k")
    if k is not None:
        if isinstance(k, bool) or not isinstance(k, int) or not 2 <= k <= len(items):
            raise InputError("k", translate(N_('K of the distance at K must be a whole number from 2 to {len_items} '
                                               '(the documents); got {k}.')).format(len_items=len(items), k=repr(k)))
        if ties:
            raise InputError("k", translate(N_('The distance at K compares two top-K lists: give rankings without '
                                               'ties (every document at its own rank), or no K.')))
    penalty = exercise.param("penalty", 0.5)
    if isinstance(penalty, bool) or not isinstance(penalty, (int, float)) or not 0 <= penalty <= 1:
        raise InputError("penalty", translate(N_('The penalty p for a pair missing from the other top-K list must be '
                                                 'a number from 0 to 1; got {penalty}.')).format(
            penalty=repr(penalty)))
    return variant, k, float(penalty), ties


def _with_kendall_hints(exercise: Exercise, steps: list[Step]) -> list[Step]:
    """Each step with the first rung of its hint ladder (:data:`TEXTS`), found by its role in the working."""
    labels = _kendall_labels(exercise)
    role_of = {label: role for role, label in labels.items()}
    variant = exercise.param("variant", "b")
    choice = KENDALL_VARIANT.choice(variant)
    words = {"tau": TEXTS["kendall_tau_hint"].format(variant_label=choice.label, formula=choice.formula),
             "union pairs": TEXTS["kendall_union_pairs_hint"].format()}
    for role in ("n0", "D", "n1", "n2", "C", "union", "penalties", "distance"):
        words[role] = TEXTS[f"kendall_{role}_hint"].format(k=exercise.param("k"))
    return [replace(step, hint=words.get(role_of.get(step.label), "")) for step in steps]


def kendall_steps(exercise: Exercise) -> list[Step]:
    """Kendall's tau pair by pair, then the normalized Kendall tau distance at K.

    Stage 1 counts the pairs: n0 = n(n − 1)/2, the discordant pairs D (named), with ties the
    pairs tied in R1 (n1) and in R2 (n2), then the concordant pairs C = n0 − D − tied pairs.
    Stage 2: τ_a = (C − D) / n0 or τ_b = (C − D) / √((n0 − n1)(n0 − n2)), as the exercise asks.
    When ``k`` is given (rankings without ties): the union of the two top-K lists and its pairs
    (stage 3), the sum of the pair penalties (stage 4) and K_n@K = Σ K̄ / (n(n − 1)/2) (stage 5).
    Values from :func:`rankviz.metrics.kendall_tau_breakdown` and
    :func:`rankviz.metrics.kendall_tau_distance_breakdown`.

    Examples
    --------
    Wikipedia's example (course note 000's reference for the distance): R1 = 1 2 3 4 5 and
    R2 = 3 4 1 2 5, i.e. documents d1..d5 at ranks 3, 4, 1, 2, 5 in R2. Discordant pairs
    (d1, d3), (d1, d4), (d2, d3), (d2, d4): D = 4, C = 6, tau = 2/10 = 0.2; at K = 5 the
    distance is 4 / 10 = 0.4.

    >>> exercise = Exercise("kendall", "x", items=("d1", "d2", "d3", "d4", "d5"), ranks_a=(1, 2, 3, 4, 5),
    ...                     ranks_b=(3, 4, 1, 2, 5), params={"variant": "b", "k": 5})
    >>> [(s.label, round(s.expected, 3)) for s in kendall_steps(exercise)]  # doctest: +NORMALIZE_WHITESPACE
    [('n0 = n(n − 1)/2 (all pairs)', 10.0), ('D (discordant pairs)', 4.0), ('C (concordant pairs)', 6.0),
     ('τ_b (Kendall)', 0.2), ('n (items in the union of the two top-5 lists)', 5.0),
     ('pairs of the union n(n − 1)/2', 10.0), ('Σ of the pair penalties', 4.0),
     ('K_n@5 (normalized Kendall tau distance)', 0.4)]
    """
    from rankviz.metrics import kendall_tau_breakdown, kendall_tau_distance_breakdown

    variant, k, penalty, ties = _check_kendall(exercise)
    labels = _kendall_labels(exercise)
    a, b = list(exercise.ranks_a), list(exercise.ranks_b)
    worked = kendall_tau_breakdown(a, b, variant, items=list(exercise.items))
    table, counts = worked.table, worked.details["counts"]
    n = len(exercise.items)
    n0 = len(table)
    c, d = counts["concordant"], counts["discordant"]
    n1 = counts["tied in a"] + counts["tied in both"]
    n2 = counts["tied in b"] + counts["tied in both"]
    tied = n0 - c - d
    pairs_of = {kind: list(zip(table["i"][table["pair"] == kind], table["j"][table["pair"] == kind]))
                for kind in ("discordant", "tied in a", "tied in b", "tied in both")}
    stage = "Step 1: pairs"
    steps = [Step(labels["n0"], float(n0), rf"\frac{{{n} \times {n - 1}}}{{2}} = {n0}", stage=stage),
             Step(labels["D"], float(d), _pair_list(pairs_of["discordant"], "no pair is ordered differently")
                  + rf" \Rightarrow D = {d}", stage=stage)]
    if ties:
        both = pairs_of["tied in both"]
        steps += [Step(labels["n1"], float(n1), _pair_list(pairs_of["tied in a"] + both, TEXTS["f_no_tie"].format(ranking="R1"))
                       + rf" \Rightarrow n_1 = {n1}", stage=stage),
                  Step(labels["n2"], float(n2), _pair_list(pairs_of["tied in b"] + both, TEXTS["f_no_tie"].format(ranking="R2"))
                       + rf" \Rightarrow n_2 = {n2}", stage=stage)]
    steps.append(Step(labels["C"], float(c), rf"n_0 - D - \text{{{TEXTS['f_tied_pairs']}}} = {n0} - {d} - {tied} = {c}"
                      if ties else rf"n_0 - D = {n0} - {d} = {c}", stage=stage))
    value = float(worked.value)
    symbol = rf"\tau_{variant}"
    if variant == "a" or not ties:
        denominator = float(n0)
        shown = (rf"{symbol} = \frac{{C - D}}{{n_0}} = \frac{{{c} - {d}}}{{{n0}}} = {tex_number(value)}"
                 if variant == "a" else
                 rf"{symbol} = \frac{{C - D}}{{\sqrt{{(n_0 - n_1)(n_0 - n_2)}}}} = \frac{{{c} - {d}}}{{\sqrt{{({n0} - 0)"
                 rf"({n0} - 0)}}}} = {tex_number(value)}\ \text{{{TEXTS['f_no_ties']}}}")
    else:
        denominator = math.sqrt((n0 - n1) * (n0 - n2))
        shown = (rf"{symbol} = \frac{{C - D}}{{\sqrt{{(n_0 - n_1)(n_0 - n_2)}}}} = \frac{{{c} - {d}}}"
                 rf"{{\sqrt{{({n0} - {n1})({n0} - {n2})}}}} = {tex_number(value)}")
    index = {step.label: i for i, step in enumerate(steps)}
    steps.append(Step(labels["tau"], value, shown, uses=(index[labels["C"]], index[labels["D"]]), rule="difference",
                      scale=denominator, stage=f"Step 2: τ_{variant}"))
    if k is None:
        return _with_kendall_hints(exercise, steps)
    order_a, order_b = _ranked_lists(exercise)
    distance = kendall_tau_distance_breakdown(order_a, order_b, k, penalty=penalty)
    rows = distance.table
    union = list(dict.fromkeys([*order_a[:k], *order_b[:k]]))
    m = len(union)
    union_pairs = len(rows)
    steps += [Step(labels["union"], float(m),
                   rf"\{{\text{{{', '.join(order_a[:k])}}}\}} \cup \{{\text{{{', '.join(order_b[:k])}}}\}}"
                   rf" = \{{\text{{{', '.join(union)}}}\}} \Rightarrow n = {m}", stage=f"Step 3: the top-{k} lists"),
              Step(labels["union pairs"], float(union_pairs), rf"\frac{{{m} \times {m - 1}}}{{2}} = {union_pairs}",
                   stage=f"Step 3: the top-{k} lists")]
    total = float(rows["penalty"].sum())
    steps.append(Step(labels["penalties"], total, _penalty_formula(rows, total), stage="Step 4: pair penalties"))
    value = float(distance.value)
    steps.append(Step(labels["distance"], value,
                      rf"K_n@{k} = \frac{{\sum \bar K}}{{n(n - 1)/2}} = \frac{{{tex_number(total)}}}{{{union_pairs}}}"
                      rf" = {tex_number(value)}", uses=(len(steps) - 1, len(steps) - 2), rule="ratio",
                      stage=f"Step 5: K_n@{k}"))
    return _with_kendall_hints(exercise, steps)


def _penalty_formula(rows, total: float) -> str:
    """Σ K̄ with the pairs that cost something named, grouped by what each costs."""
    parts, sums = [], []
    for cost in sorted(set(rows["penalty"]) - {0.0}, reverse=True):
        pairs = list(zip(rows["i"][rows["penalty"] == cost], rows["j"][rows["penalty"] == cost]))
        parts.append(rf"\text{{penalty {tex_number(cost)}: {_names(pairs)}}}")
        sums.append(rf"{len(pairs)} \times {tex_number(cost)}")
    if not parts:
        return r"\text{every pair in the same order} \Rightarrow 0"
    return r";\ ".join(parts) + r";\ " + " + ".join(sums) + f" = {tex_number(total)}"


def _kendall_generate(rng, seed: int, *, variant: str = "b") -> Exercise:
    if variant not in KENDALL_VARIANTS:
        raise ValueError(f"variant must be one of {', '.join(KENDALL_VARIANTS)}; got {variant!r}.")
    n = rng.randint(5, 7)
    items = tuple(f"d{i}" for i in range(1, n + 1))
    order = list(range(n))  # order[r] = the document at rank r + 1 of R2
    while order == sorted(order):
        for _ in range(rng.randint(2, 3)):  # a few swaps: a ranking like R1, not a random shuffle
            i, j = rng.sample(range(n), 2)
            order[i], order[j] = order[j], order[i]
    ranks_b = [0.0] * n
    for rank, doc in enumerate(order, 1):
        ranks_b[doc] = rank
    ranks_a = list(range(1, n + 1))
    params = {"variant": variant}
    if rng.random() < 0.5:  # ties: a group of 2 or 3 documents in R2 share their average rank, sometimes 2 in R1
        _tie(rng, ranks_b, order, rng.choice((2, 2, 3)))
        if rng.random() < 0.35:
            _tie(rng, ranks_a, list(range(n)), 2)
    else:
        params["k"] = rng.randint(3, n - 2)
    return Exercise("kendall", f"Practice exercise {seed}: {english_title(KENDALL_KIND)}", items=items,
                    ranks_a=tuple(_whole(r) for r in ranks_a), ranks_b=tuple(_whole(r) for r in ranks_b),
                    params=params)


def _tie(rng, ranks: list, order: list, size: int) -> None:
    """Give the documents at ``size`` consecutive ranks of ``order`` their average rank."""
    start = rng.randrange(len(order) - size + 1)
    shared = sum(range(start + 1, start + size + 1)) / size
    for doc in order[start:start + size]:
        ranks[doc] = shared


def _whole(rank):
    return int(rank) if float(rank).is_integer() else float(rank)


def _kendall_describe(exercise: Exercise) -> str:
    pairs = ", ".join(f"{doc} ({tex_number(a)}, {tex_number(b)})"
                      for doc, a, b in zip(exercise.items, exercise.ranks_a, exercise.ranks_b))
    variant = exercise.param("variant", "b")
    tau = ("τ_a = (C − D) / n0" if variant == "a" else "τ_b = (C − D) / √((n0 − n1)(n0 − n2))")
    ties = len(set(exercise.ranks_a)) < len(exercise.ranks_a) or len(set(exercise.ranks_b)) < len(exercise.ranks_b)
    text = TEXTS["kendall_describe_ties" if ties else "kendall_describe"].format(pairs=pairs, tau=tau)
    k = exercise.param("k")
    if k is not None:
        order_a, order_b = _ranked_lists(exercise)
        p = tex_number(exercise.param("penalty", 0.5))
        text += TEXTS["kendall_describe_distance"].format(k=k, first=", ".join(order_a[:k]),
                                                          second=", ".join(order_b[:k]), p=p)
    return text


def _kendall_from_srcc() -> Exercise:
    from rankviz.teaching.presets import get_preset

    preset = get_preset("srcc_exercise")
    return Exercise("kendall", N_("Kendall's tau of the SRCC class exercise (R1 ideal, R2 new ranking function)"),
                    items=tuple(preset.doc_ids), ranks_a=tuple(preset.ranks_a), ranks_b=tuple(preset.ranks_b),
                    params={"variant": "b", "k": 5}, source=preset.source,
                    note="The lecture computes Spearman's rho (0.854) for these rankings, not Kendall's tau: "
                         "here its 45 pairs are counted (7 discordant), and the top 5 of both rankings hold the "
                         "same five documents.")


def _kendall_reference(exercise: Exercise) -> dict:
    from rankviz.metrics import kendall_tau, kendall_tau_breakdown, kendall_tau_distance

    labels = _kendall_labels(exercise)
    a, b = list(exercise.ranks_a), list(exercise.ranks_b)
    variant = exercise.param("variant", "b")
    counts = kendall_tau_breakdown(a, b, variant).details["counts"]
    values = {labels["tau"]: kendall_tau(a, b, variant), labels["C"]: counts["concordant"],
              labels["D"]: counts["discordant"], labels["n0"]: sum(counts.values())}
    if len(set(a)) < len(a) or len(set(b)) < len(b):
        values[labels["n1"]] = counts["tied in a"] + counts["tied in both"]
        values[labels["n2"]] = counts["tied in b"] + counts["tied in both"]
    k = exercise.param("k")
    if k is not None:
        order_a, order_b = _ranked_lists(exercise)
        penalty = exercise.param("penalty", 0.5)
        values[labels["penalties"]] = kendall_tau_distance(order_a, order_b, k, normalized=False, penalty=penalty)
        union = len(set(order_a[:k]) | set(order_b[:k]))
        values[labels["union"]] = union
        values[labels["union pairs"]] = union * (union - 1) / 2
        values[labels["distance"]] = kendall_tau_distance(order_a, order_b, k, penalty=penalty)
    return values


def _own_kendall(*, ranks_a, ranks_b, items=None, variant="b", k=None, penalty=None) -> Exercise:
    items = tuple(items) if items else tuple(f"d{i}" for i in range(1, len(ranks_a) + 1))
    params = {"variant": variant, "k": k}
    if penalty is not None:
        if len(penalty) != 1:
            raise InputError("penalty", translate(N_('p is one number from 0 to 1; got {len_penalty} numbers.')).format(
                
                len_penalty=len(penalty)))
        params["penalty"] = float(penalty[0])
    return Exercise("kendall", TEXTS.source["kendall_title"].format(count=len(ranks_a), title=english_title(KENDALL_KIND)),
                    items=items, ranks_a=tuple(ranks_a), ranks_b=tuple(ranks_b), params=params)


KENDALL_KIND = register_kind(KindSpec(
    "kendall", N_("Kendall's tau (tau-a, tau-b) and the normalized Kendall tau distance at K"), _kendall_generate,
    kendall_steps, _kendall_describe, options={"variant": KENDALL_VARIANTS},
    presets={"kendall_srcc_exercise": _kendall_from_srcc}, reference=_kendall_reference,
    metrics=("kendall_tau", "kendall_tau_distance"),
    inputs=(*_RANKS_INPUTS, OwnInput("variant", N_("Kendall's tau"), TEXTS.source["variant"], "choice", param=KENDALL_VARIANT,
                                     blank=KENDALL_VARIANT.choice(KENDALL_VARIANT.default).text),
            OwnInput("k", N_("K (distance at K)"), TEXTS.source["kendall_k"], "int", blank=N_("no distance")),
            OwnInput("penalty", N_("p (distance at K)"), TEXTS.source["penalty"], "numbers", blank="0.5")),
    own=_own_kendall))


# ---------------------------------------------------------------------------- Kendall mistakes
#
# Each working starts from the right steps and changes what the mistake changes, computing the
# wrong values here (labels kept, so a student's own earlier values still carry forward).


def _at(steps, exercise, *names):
    labels = _kendall_labels(exercise)
    index = {step.label: i for i, step in enumerate(steps)}
    return [index.get(labels[name]) for name in names]


def _value(steps, i) -> float:
    return steps[i].expected


def _tau_step(step: Step, c: float, d: float, denominator: float, how: str) -> Step:
    value = (c - d) / denominator
    return replace(step, expected=value, scale=float(denominator), alternatives=(),
                   formula=rf"\frac{{{tex_number(c)} - {tex_number(d)}}}{{{how}}} = {tex_number(value)}")


def _has_ties(exercise: Exercise) -> bool:
    return len(set(exercise.ranks_a)) < len(exercise.ranks_a) or len(set(exercise.ranks_b)) < len(exercise.ranks_b)


def _other_tau(exercise, steps):
    """tau-a where tau-b was asked, or tau-b where tau-a was: they differ only with ties."""
    if not _has_ties(exercise):
        return None
    n0, c, d, n1, n2, tau = _at(steps, exercise, "n0", "C", "D", "n1", "n2", "tau")
    n0, n1, n2 = (_value(steps, i) for i in (n0, n1, n2))
    wrong = list(steps)
    if exercise.param("variant", "b") == "b":
        wrong[tau] = _tau_step(steps[tau], _value(steps, c), _value(steps, d), n0, tex_number(n0))
    else:
        root = math.sqrt((n0 - n1) * (n0 - n2))
        wrong[tau] = _tau_step(steps[tau], _value(steps, c), _value(steps, d), root,
                               rf"\sqrt{{({tex_number(n0)} - {tex_number(n1)})({tex_number(n0)} - {tex_number(n2)})}}")
    return wrong


def _only_variant(variant: str, working):
    def guarded(exercise, steps):
        return working(exercise, steps) if exercise.param("variant", "b") == variant else None
    return guarded


def _ties_counted_as(kind: str):
    def working(exercise, steps):
        if not _has_ties(exercise):
            return None
        n0, c, d, tau = _at(steps, exercise, "n0", "C", "D", "tau")
        tied = _value(steps, n0) - _value(steps, c) - _value(steps, d)
        wrong = list(steps)
        target = c if kind == "concordant" else d
        new = _value(steps, target) + tied
        symbol = "C" if kind == "concordant" else "D"
        wrong[target] = replace(steps[target], expected=new, alternatives=(),
                                formula=rf"{symbol} + \text{{{TEXTS['f_tied_pairs']}}} = {tex_number(_value(steps, target))} + "
                                        rf"{tex_number(tied)} = {tex_number(new)}")
        concordant = new if kind == "concordant" else _value(steps, c)
        discordant = new if kind == "discordant" else _value(steps, d)
        wrong[tau] = _tau_step(steps[tau], concordant, discordant, steps[tau].scale, tex_number(steps[tau].scale))
        return wrong
    return working


def _gamma(exercise, steps):
    if not _has_ties(exercise):
        return None
    c, d, tau = _at(steps, exercise, "C", "D", "tau")
    c, d = _value(steps, c), _value(steps, d)
    if c + d == 0:
        return None
    wrong = list(steps)
    wrong[tau] = replace(_tau_step(steps[tau], c, d, c + d, f"{tex_number(c)} + {tex_number(d)}"), uses=(), rule="")
    return wrong


def _swapped_counts(exercise, steps):
    c, d, tau = _at(steps, exercise, "C", "D", "tau")
    cv, dv = _value(steps, c), _value(steps, d)
    wrong = list(steps)
    wrong[c] = replace(steps[c], expected=dv, alternatives=(), formula=rf"\text{{the discordant pairs}} = {tex_number(dv)}")
    wrong[d] = replace(steps[d], expected=cv, alternatives=(), formula=rf"\text{{the concordant pairs}} = {tex_number(cv)}")
    wrong[tau] = _tau_step(steps[tau], dv, cv, steps[tau].scale, tex_number(steps[tau].scale))
    return wrong


def _pairs_not_halved(exercise, steps):
    n0, n1, n2, c, d, tau, union, union_pairs, penalties, distance = _at(
        steps, exercise, "n0", "n1", "n2", "C", "D", "tau", "union", "union pairs", "penalties", "distance")
    n = len(exercise.items)
    wrong = list(steps)
    doubled = float(n * (n - 1))
    wrong[n0] = replace(steps[n0], expected=doubled, alternatives=(), formula=rf"{n} \times {n - 1} = {n * (n - 1)}")
    cv, dv = _value(steps, c), _value(steps, d)
    if exercise.param("variant", "b") == "b" and _has_ties(exercise):
        t1, t2 = _value(steps, n1), _value(steps, n2)
        root = math.sqrt((doubled - t1) * (doubled - t2))
        wrong[tau] = _tau_step(steps[tau], cv, dv, root, rf"\sqrt{{({tex_number(doubled)} - {tex_number(t1)})"
                                                         rf"({tex_number(doubled)} - {tex_number(t2)})}}")
    else:
        wrong[tau] = _tau_step(steps[tau], cv, dv, doubled, tex_number(doubled))
    if union is not None:
        m = int(_value(steps, union))
        wrong[union_pairs] = replace(steps[union_pairs], expected=float(m * (m - 1)), alternatives=(),
                                     formula=rf"{m} \times {m - 1} = {m * (m - 1)}")
        total = _value(steps, penalties)
        wrong[distance] = replace(steps[distance], expected=total / (m * (m - 1)), alternatives=(),
                                  formula=rf"\frac{{{tex_number(total)}}}{{{m * (m - 1)}}} = "
                                          rf"{tex_number(total / (m * (m - 1)))}")
    return wrong


def _distance_working(change):
    """A mistaken distance part: ``change(exercise, steps, rows)`` returns (n, pairs, Σ, formula of Σ) or None;
    K_n is then Σ / pairs (the rows are the right working's pair penalties)."""
    def working(exercise, steps):
        k = exercise.param("k")
        if k is None:
            return None
        from rankviz.metrics import kendall_tau_distance_breakdown

        order_a, order_b = _ranked_lists(exercise)
        rows = kendall_tau_distance_breakdown(order_a, order_b, k, penalty=exercise.param("penalty", 0.5)).table
        changed = change(exercise, steps, rows)
        if changed is None:
            return None
        m, pairs, total, total_formula = changed
        union, union_pairs, penalties, distance = _at(steps, exercise, "union", "union pairs", "penalties", "distance")
        wrong = list(steps)
        wrong[union] = replace(steps[union], expected=float(m), alternatives=(), formula=rf"n = {m}")
        wrong[union_pairs] = replace(steps[union_pairs], expected=float(pairs), alternatives=(),
                                     formula=rf"\frac{{{m} \times {m - 1}}}{{2}} = {pairs}")
        wrong[penalties] = replace(steps[penalties], expected=float(total), alternatives=(), formula=total_formula)
        wrong[distance] = replace(steps[distance], expected=total / pairs, alternatives=(),
                                  formula=rf"\frac{{{tex_number(total)}}}{{{pairs}}} = {tex_number(total / pairs)}")
        return wrong
    return working


def _right_union(steps, exercise):
    union, union_pairs, penalties = _at(steps, exercise, "union", "union pairs", "penalties")
    return int(_value(steps, union)), int(_value(steps, union_pairs)), _value(steps, penalties)


def _k_pairs(exercise, steps, rows):
    k = exercise.param("k")
    m, _, total = _right_union(steps, exercise)
    if m == k:
        return None
    return k, k * (k - 1) // 2, total, steps[_at(steps, exercise, "penalties")[0]].formula


def _missing_pair_penalty(cost: float):
    def change(exercise, steps, rows):
        m, pairs, total = _right_union(steps, exercise)
        same_list = rows["case"] == "both only in the same list"
        count = int(same_list.sum())
        if not count:
            return None
        p = exercise.param("penalty", 0.5)
        new = total + count * (cost - p)
        return m, pairs, new, (rf"{tex_number(total)} + {count} \times ({tex_number(cost)} - {tex_number(p)}) = "
                               rf"{tex_number(new)}")
    return change


def _only_pairs_in_both(normalize_by_common: bool):
    def change(exercise, steps, rows):
        m, pairs, _ = _right_union(steps, exercise)
        in_both = rows["case"] == "both in both lists"
        if in_both.all():
            return None
        total = float(rows["penalty"][in_both].sum())
        formula = rf"\text{{pairs in both lists only}} = {tex_number(total)}"
        if not normalize_by_common:
            return m, pairs, total, formula
        k = exercise.param("k")
        order_a, order_b = _ranked_lists(exercise)
        common = len(set(order_a[:k]) & set(order_b[:k]))
        if common < 2:
            return None
        return common, common * (common - 1) // 2, total, formula
    return change


def _whole_rankings(exercise, steps, rows):
    n = len(exercise.items)
    if exercise.param("k") >= n:
        return None
    d = _value(steps, _at(steps, exercise, "D")[0])
    return n, n * (n - 1) // 2, d, rf"D = {tex_number(d)}\ \text{{(the whole rankings)}}"


def _not_normalized(exercise, steps):
    if exercise.param("k") is None:
        return None
    penalties, distance = _at(steps, exercise, "penalties", "distance")
    total = _value(steps, penalties)
    wrong = list(steps)
    wrong[distance] = replace(steps[distance], expected=total, uses=(), rule="", alternatives=(),
                              formula=rf"K_n = \sum \bar K = {tex_number(total)}")
    return wrong


register_mistake("kendall_tau_a_for_tau_b", N_("You divided by all n0 pairs (tau-a); tau-b was asked: divide by "
                                            "√((n0 − n1)(n0 − n2)), which leaves out the tied pairs."),
                 "kendall", _only_variant("b", _other_tau))
register_mistake("kendall_tau_b_for_tau_a", N_("You corrected for ties (tau-b); tau-a was asked: divide C − D by all "
                                            "n0 = n(n − 1)/2 pairs."), "kendall", _only_variant("a", _other_tau))
register_mistake("kendall_ties_as_concordant", N_("You counted tied pairs as concordant; a pair tied in either ranking "
                                               "is neither concordant nor discordant."),
                 "kendall", _ties_counted_as("concordant"))
register_mistake("kendall_ties_as_discordant", N_("You counted tied pairs as discordant; a pair tied in either ranking "
                                               "is neither concordant nor discordant."),
                 "kendall", _ties_counted_as("discordant"))
register_mistake("kendall_gamma", N_("You divided by C + D (that is Goodman and Kruskal's gamma); Kendall's tau "
                                  "divides by the pairs, n0 for tau-a or √((n0 − n1)(n0 − n2)) for tau-b."),
                 "kendall", _gamma)
register_mistake("kendall_concordant_discordant_swapped", N_("You swapped concordant and discordant: a pair is "
                                                          "concordant when both rankings put the same one first."),
                 "kendall", _swapped_counts)
register_mistake("kendall_pairs_not_halved", N_("You counted n(n − 1) pairs; each unordered pair counts once, so there "
                                             "are n(n − 1)/2."), "kendall", _pairs_not_halved)
register_mistake("kendall_distance_not_normalized", N_("You stopped at the sum of the penalties; the normalized "
                                                    "distance divides it by the n(n − 1)/2 pairs of the union."),
                 "kendall", _not_normalized)
register_mistake("kendall_distance_k_pairs", N_("You divided by K(K − 1)/2; the distance at K divides by the pairs of "
                                             "all n documents in either top-K list, n(n − 1)/2."),
                 "kendall", _distance_working(_k_pairs))
register_mistake("kendall_distance_missing_penalty_one", N_("You charged 1 for a pair both missing from the other list; "
                                                         "that list says nothing about their order, so it costs p."),
                 "kendall", _distance_working(_missing_pair_penalty(1.0)))
register_mistake("kendall_distance_missing_penalty_zero", N_("You charged nothing for a pair both missing from the "
                                                          "other list; it costs p, the penalty the exercise gives."),
                 "kendall", _distance_working(_missing_pair_penalty(0.0)))
register_mistake("kendall_distance_common_documents_only", N_("You kept only the documents in both top-K lists; the "
                                                           "distance at K takes every document in either list."),
                 "kendall", _distance_working(_only_pairs_in_both(normalize_by_common=True)))
register_mistake("kendall_distance_missing_pairs_free", N_("You charged nothing for pairs with a document missing from "
                                                        "a list; a list holding only one of the two ranks it higher, "
                                                        "so such a pair costs 1 when the other list disagrees."),
                 "kendall", _distance_working(_only_pairs_in_both(normalize_by_common=False)))
register_mistake("kendall_distance_whole_rankings", N_("You compared the whole rankings; the distance at K compares "
                                                    "only the top K of each."),
                 "kendall", _distance_working(_whole_rankings))

register_title_templates(*(text for key, text in TEXTS.source.items() if "title" in key))
