"""Pair-counting exercises: AUC of one list of scored items, GAUC over users, and their mistakes.

``auc`` exercises keep in ``params``: ``items`` (names), ``labels`` (1 positive, 0 negative)
and ``scores`` (the model's scores, some tied). ``gauc`` exercises add ``groups`` (the user of
each item, items listed user by user) and ``weights`` ("impressions": the items a user was
shown, "clicks": their positives, or "uniform": every user 1).

AUC (course note 001, "AUC/GAUC") is the probability that a positive is scored above a
negative: over the |P| × |N| positive-negative pairs, (pairs won + ½ tied pairs) / (|P| |N|).
GAUC computes AUC within each user (the note's "search session"), then averages with weights;
a user shown only one class has no pair and is left out.
"""

from __future__ import annotations

from dataclasses import replace

from rankviz.i18n import N_
from rankviz.i18n import _ as translate
from rankviz.teaching.homework.core import (Exercise, InputError, KindSpec, OwnInput, Step, TranslatedWords,
    check_length, english_title, register_kind, tex_number)
from rankviz.teaching.homework.mistakes import register_mistake
from rankviz.teaching.homework.words import register_title_templates

__all__ = ["GAUC_WEIGHTS", "auc_steps", "gauc_steps"]

GAUC_WEIGHTS = ("impressions", "clicks", "uniform")
# The exercise's weight names as rankviz.metrics.gauc spells them.
_METRIC_WEIGHTS = {"impressions": "impressions", "clicks": "positives", "uniform": "uniform"}
_WEIGHT_WORDS = {"impressions": N_("impressions (items shown)"), "clicks": N_("clicks (positives)"),
                 "uniform": N_("1 per user")}
_LETTERS = "abcdefghijkl"

# What a student reads: the step hints and the inputs of their own exercise, in the course notes' words.
TEXTS = TranslatedWords({
    "positives_hint": N_("Count the positives (label 1: clicked, relevant)."),
    "negatives_hint": N_("Count the negatives (label 0)."),
    "pairs_hint": N_("AUC compares every positive with every negative: $|P| \\times |N|$ pairs."),
    "below_hint": N_("Count the negatives scored below {name}'s {score}: each such pair is won."),
    "tied_hint": N_("Count the negatives scored exactly {score}, like {name}: each such pair is a tie."),
    "won_hint": N_("Add up the pairs won over the positives."),
    "ties_hint": N_("Add up the tied pairs over the positives."),
    "half_hint": N_("A tie counts half a pair won: $\\frac{{1}}{{2}} \\times \\text{{tied pairs}}$."),
    "credit_hint": N_("The credit is the pairs won plus half the tied pairs."),
    "auc_hint": N_("AUC is the chance a positive is scored above a negative: $\\mathrm{{AUC}} = \\frac{{\\text{{won}} + "
                "\\frac{{1}}{{2}} \\text{{tied}}}}{{|P| \\times |N|}}$."),
    "group_pairs_hint": N_("{group}'s positive-negative pairs: its positives times its negatives (0: {group} has one "
                        "class only and is left out)."),
    "group_auc_hint": N_("AUC within {group} only: its pairs won plus half its tied pairs, over its pairs."),
    "weight_hint": N_("{group}'s weight: {weight_words}."),
    "weighted_hint": N_("{group}'s weight times its AUC."),
    "sum_weighted_hint": N_("Add up weight × AUC over the users kept."),
    "sum_weights_hint": N_("Add up the weights of the users kept."),
    "gauc_hint": N_("GAUC is the weighted mean of the users' AUC: $\\mathrm{{GAUC}} = \\frac{{\\sum w \\cdot "
                 "\\mathrm{{AUC}}}}{{\\sum w}}$."),
    "labels": N_("The label of each item: 1 (positive: clicked, relevant) or 0; also + and −, or a column."),
    "scores": N_("The model's score of each item, in the same order (decimal commas welcome: 0,9 0,6)."),
    "items": N_("The items' names, in the same order (blank: a, b, c, ... or i1, i2, ...)."),
    "groups": N_("The user (or session, or query) each item was shown to, in the same order: AUC is computed within "
              "each user."),
    "weights": N_("How each user's AUC is weighted: by impressions (the items it was shown, Zhou et al.'s GAUC), by its "
               "clicks, or 1 per user."),
    "auc_title": N_("Your {count} scored items: AUC by counting positive-negative pairs"),
    "gauc_title": N_("Your {count} items shown to {users} users: GAUC (weights: {weights})"),
    "auc_describe": N_('A model scores {n} items; + marks a positive (clicked, relevant), − a '
                       'negative.\n\n{table}\n\nCount |P|, |N| and the |P| × |N| positive-negative pairs; for each '
                       'positive, the negatives scored below it and tied with it; then the pairs won, the tied pairs '
                       '(each counts ½) and AUC = (won + ½ tied) / (|P| |N|).'),
    "left_out": N_(' {group} {what}: with one class only it has no positive-negative pair, no AUC, and is left out '
                   'of GAUC.'),
    "gauc_describe": N_("Items shown to {n} users; + marks a click, − an item shown but not "
                        "clicked.\n\n{table}\n\nCompute AUC within each user (pairs of that user's items only), "
                        "weight each user by {weights}, then GAUC = Σ w × AUC / Σ w.{left_out}"),
    "item": N_('item'),
    "user": N_('user'),
    "label": N_('label'),
    "score": N_('score'),
})


def _given(exercise: Exercise, *names: str) -> tuple:
    values = tuple(tuple(exercise.param(name, ())) for name in names)
    lengths = {len(value) for value in values}
    if len(lengths) != 1:
        raise ValueError(translate(N_('Give one value per item for each of {join_names}; got '
                                      '{join_f_len_v_n_for_n_v_i}.')).format(
            join_names=', '.join(names), join_f_len_v_n_for_n_v_i=', '.join((f'{len(v)} {n}' for n, v in zip(names, values)))))
    return values


def _sign(label) -> str:
    return "+" if label else "−"


# ---------------------------------------------------------------------------- AUC


def _pair_counts(table, name) -> tuple[int, int]:
    """(negatives below, negatives tied) of the positive ``name`` in an auc_breakdown pair table."""
    rows = table[table["positive"] == name]
    return int((rows["outcome"] == "positive higher").sum()), int((rows["outcome"] == "tie").sum())


def auc_steps(exercise: Exercise) -> list[Step]:
    """|P|, |N| and the pairs |P| × |N| (stage 1); for each positive, the negatives scored
    below it and tied with it (stage 2); the pairs won, the tied pairs, the tied pairs counted
    ½ and the credit won + ½ tied (stage 3); AUC = credit / (|P| |N|) (stage 4). Every value
    from :func:`rankviz.metrics.auc_breakdown`'s pair table.

    >>> steps = auc_steps(Exercise("auc", "x", params={"items": ("a", "b", "c", "d"), "labels": (1, 0, 1, 0),
    ...                                                "scores": (0.9, 0.5, 0.4, 0.4)}))
    >>> for step in steps[-5:]:  # a beats b and d; c loses to b and ties d: (2 + ½ × 1) / (2 × 2)
    ...     print(step.label, step.expected)
    pairs won (s_p > s_n) 2.0
    tied pairs (s_p = s_n) 1.0
    tied pairs counted ½ 0.5
    credit: won + ½ tied 2.5
    AUC 0.625
    """
    from rankviz.metrics import auc_breakdown

    items, labels, scores = _given(exercise, "items", "labels", "scores")
    if len(set(items)) != len(items):
        raise ValueError(translate(N_('Every item needs its own name; a name is given twice.')))
    n_pos = int(sum(1 for label in labels if label == 1))
    n_neg = int(sum(1 for label in labels if label == 0))
    if n_pos + n_neg == len(labels) and (not n_pos or not n_neg):
        raise ValueError(translate(N_('AUC needs at least one positive and one negative item; got {n_pos} positive '
                                      'and {n_neg} negative.')).format(n_pos=n_pos, n_neg=n_neg))
    check_length(len(labels), N_("items"))
    worked = auc_breakdown(labels, scores, items=list(items))
    table = worked.table
    count = "Step 1: count the pairs"
    steps = [Step("|P| (positives)", float(n_pos), f"{n_pos}", stage=count, hint=TEXTS["positives_hint"]),
             Step("|N| (negatives)", float(n_neg), f"{n_neg}", stage=count, hint=TEXTS["negatives_hint"]),
             Step("pairs |P| × |N|", float(len(table)), rf"{n_pos} \times {n_neg} = {len(table)}", uses=(0, 1),
                  rule="product", stage=count, hint=TEXTS["pairs_hint"])]
    below_steps, tied_steps = [], []
    compare = "Step 2: compare each positive with every negative"
    negative_scores = [s for s, label in zip(scores, labels) if not label]
    for name, label, score in zip(items, labels, scores):
        if not label:
            continue
        below, tied = _pair_counts(table, name)
        lower = [tex_number(s) for s in negative_scores if s < score]
        equal = [tex_number(s) for s in negative_scores if s == score]
        below_steps.append(len(steps))
        steps.append(Step(f"negatives below {name} ({tex_number(score)})", float(below),
                          rf"\#\{{s_n < {tex_number(score)}\}} = {below}"
                          + (rf"\ \ ({', '.join(lower)})" if lower else ""), stage=compare,
                          hint=TEXTS["below_hint"].format(name=name, score=tex_number(score))))
        tied_steps.append(len(steps))
        steps.append(Step(f"negatives tied with {name} ({tex_number(score)})", float(tied),
                          rf"\#\{{s_n = {tex_number(score)}\}} = {tied}"
                          + (rf"\ \ ({', '.join(equal)})" if equal else ""), stage=compare,
                          hint=TEXTS["tied_hint"].format(name=name, score=tex_number(score))))
    add = "Step 3: add up the pairs"
    won = int((table["outcome"] == "positive higher").sum())
    ties = int((table["outcome"] == "tie").sum())
    credit = float(table["credit"].sum())
    steps.append(Step("pairs won (s_p > s_n)", float(won),
                      " + ".join(f"{int(steps[i].expected)}" for i in below_steps) + f" = {won}",
                      uses=tuple(below_steps), rule="sum", stage=add, hint=TEXTS["won_hint"]))
    steps.append(Step("tied pairs (s_p = s_n)", float(ties),
                      " + ".join(f"{int(steps[i].expected)}" for i in tied_steps) + f" = {ties}",
                      uses=tuple(tied_steps), rule="sum", stage=add, hint=TEXTS["ties_hint"]))
    steps.append(Step("tied pairs counted ½", ties / 2, rf"\frac{{1}}{{2}} \times {ties} = {tex_number(ties / 2)}",
                      uses=(len(steps) - 1,), rule="sum", scale=2.0, stage=add, hint=TEXTS["half_hint"].format()))
    steps.append(Step("credit: won + ½ tied", credit, rf"{won} + {tex_number(ties / 2)} = {tex_number(credit)}",
                      uses=(len(steps) - 3, len(steps) - 1), rule="sum", stage=add, hint=TEXTS["credit_hint"]))
    value = float(worked.value)
    steps.append(Step("AUC", value, rf"\frac{{{tex_number(credit)}}}{{{len(table)}}} = {tex_number(value)}",
                      uses=(len(steps) - 1, 2), rule="ratio", stage="Step 4: AUC", hint=TEXTS["auc_hint"].format()))
    return steps


def _score(rng, label: int) -> float:
    """A score of one decimal; a positive tends to score higher, as from a model that learned something."""
    return rng.randint(3, 9) / 10 if label else rng.randint(1, 7) / 10


def _scores_with_ties(rng, labels: list[int]) -> list[float]:
    """Scores of one decimal, at least one positive tied with a negative and one pair won."""
    n = len(labels)
    while True:
        scores = [_score(rng, label) for label in labels]
        positives = [i for i in range(n) if labels[i]]
        negatives = [i for i in range(n) if not labels[i]]
        scores[rng.choice(negatives)] = scores[rng.choice(positives)]
        won = sum(scores[p] > scores[q] for p in positives for q in negatives)
        if won:
            return scores


def _generate_auc(rng, seed: int) -> Exercise:
    n = rng.randint(5, 8)
    n_pos = rng.randint(2, min(4, n - 2))
    labels = [1] * n_pos + [0] * (n - n_pos)
    rng.shuffle(labels)
    scores = _scores_with_ties(rng, labels)
    return Exercise("auc", f"Practice exercise {seed}: {english_title(AUC_KIND)}",
                    params={"items": tuple(_LETTERS[:n]), "labels": tuple(labels), "scores": tuple(scores)})


def _items_table(items, labels, scores, group_row=None) -> str:
    """One row per item (a phone shows every column of a long list: no row runs off the screen)."""
    users = group_row is not None
    header = f"| {TEXTS['item']} |" + (f" {TEXTS['user']} |" if users else "") + f" {TEXTS['label']} | {TEXTS['score']} |"
    rule = "|---|" + ("---|" if users else "") + "---|---|"
    rows = [f"| {item} |" + (f" {group_row[i]} |" if users else "") + f" {_sign(label)} | {tex_number(score)} |"
            for i, (item, label, score) in enumerate(zip(items, labels, scores))]
    return "\n".join([header, rule, *rows])


def _describe_auc(exercise: Exercise) -> str:
    items, labels, scores = _given(exercise, "items", "labels", "scores")
    return TEXTS["auc_describe"].format(n=len(items), table=_items_table(items, labels, scores))


def _reference_auc(exercise: Exercise) -> dict:
    from rankviz.metrics import auc, auc_breakdown

    items, labels, scores = _given(exercise, "items", "labels", "scores")
    table = auc_breakdown(labels, scores, items=list(items)).table
    values = {"AUC": auc(labels, scores), "pairs |P| × |N|": len(table),
              "pairs won (s_p > s_n)": (table["credit"] == 1).sum(), "tied pairs (s_p = s_n)": (table["credit"] == 0.5).sum(),
              "credit: won + ½ tied": table["credit"].sum(), "|P| (positives)": sum(1 for y in labels if y),
              "|N| (negatives)": sum(1 for y in labels if not y), "tied pairs counted ½": 0.5 * (table["credit"] == 0.5).sum()}
    for name, score in zip(items, scores):
        rows = table[table["positive"] == name]
        if len(rows):
            values[f"negatives below {name} ({tex_number(score)})"] = (rows["credit"] == 1).sum()
            values[f"negatives tied with {name} ({tex_number(score)})"] = (rows["credit"] == 0.5).sum()
    return values


def _item_names(items, count: int) -> tuple:
    if items is None:
        return tuple(_LETTERS[:count]) if count <= len(_LETTERS) else tuple(f"i{i}" for i in range(1, count + 1))
    if len(items) != count:
        raise InputError("items", translate(N_('Give one name per item: {count} labels, {len_items} names.')).format(
            count=count, len_items=len(items)))
    return tuple(str(item) for item in items)


def _check_lengths(labels, scores, groups=None) -> None:
    if len(scores) != len(labels):
        raise InputError("scores", translate(N_('Give one score per item: {len_labels} labels, {len_scores} scores.')).format(
            
            len_labels=len(labels), len_scores=len(scores)))
    if groups is not None and len(groups) != len(labels):
        raise InputError("groups", translate(N_('Give the user of each item: {len_labels} labels, {len_groups} users.')).format(
            
            len_labels=len(labels), len_groups=len(groups)))


def _own_auc(*, labels, scores, items=None) -> Exercise:
    _check_lengths(labels, scores)
    return Exercise("auc", TEXTS.source["auc_title"].format(count=len(labels)),
                    params={"items": _item_names(items, len(labels)), "labels": tuple(labels), "scores": tuple(scores)})


_SCORED = (
    OwnInput("labels", N_("Labels (1 positive, 0 negative)"), TEXTS.source["labels"], "labels", required=True, example="1 0 1 0"),
    OwnInput("scores", N_("Scores"), TEXTS.source["scores"], "numbers", required=True, example="0.9 0.6 0.6 0.2"),
)
_ITEMS = OwnInput("items", N_("Item names"), TEXTS.source["items"], "names", blank="a, b, c, ...")

AUC_KIND = register_kind(KindSpec(
    "auc", N_("AUC by counting positive-negative pairs"), _generate_auc, auc_steps, _describe_auc,
    reference=_reference_auc,
    metrics=("auc",), inputs=(*_SCORED, _ITEMS), own=_own_auc))


# ---------------------------------------------------------------------------- GAUC


def _group_order(groups) -> list:
    return list(dict.fromkeys(groups))


def gauc_steps(exercise: Exercise) -> list[Step]:
    """Per user: the pairs |P| × |N| and, when there is a pair, its AUC (stage 1); per user kept,
    its weight and weight × AUC (stage 2); Σ w × AUC, Σ w and GAUC = Σ w AUC / Σ w (stage 3).
    A user shown one class only has 0 pairs and is left out. Every value from
    :func:`rankviz.metrics.gauc_breakdown` and :func:`rankviz.metrics.auc_breakdown`.

    >>> exercise = Exercise("gauc", "x", params={
    ...     "items": ("a", "b", "c", "d", "e", "f"), "labels": (1, 0, 1, 0, 0, 0),
    ...     "scores": (0.9, 0.1, 0.2, 0.3, 0.1, 0.5), "groups": ("u1", "u1", "u2", "u2", "u2", "u3"),
    ...     "weights": "impressions"})
    >>> [(s.label, round(s.expected, 3)) for s in gauc_steps(exercise)][-3:]  # (2 × 1 + 3 × 0.5) / (2 + 3)
    [('Σ w × AUC', 3.5), ('Σ w', 5.0), ('GAUC', 0.7)]
    """
    from rankviz.metrics import auc_breakdown, gauc_breakdown

    items, labels, scores, groups = _given(exercise, "items", "labels", "scores", "groups")
    weights = exercise.param("weights", "impressions")
    if weights not in GAUC_WEIGHTS:
        raise ValueError(translate(N_('The GAUC weights must be one of {join_GAUC_WEIGHTS}; got {weights}.')).format(
            join_GAUC_WEIGHTS=', '.join(GAUC_WEIGHTS), weights=repr(weights)))
    check_length(len(labels), N_("items"))
    if not any({labels[i] for i, g in enumerate(groups) if g == group} == {0, 1} for group in set(groups)):
        raise ValueError(translate(N_('GAUC needs at least one user shown both a positive and a negative item.')))
    worked = gauc_breakdown(labels, scores, groups, weights=_METRIC_WEIGHTS[weights])
    table = worked.table
    first = "Step 1: AUC of each user"
    steps: list[Step] = []
    auc_step = {}
    for group, n_pos, n_neg, group_auc, included in zip(table["group"], table["positives"], table["negatives"],
                                                        table["auc"], table["included"]):
        pairs = int(n_pos) * int(n_neg)
        steps.append(Step(f"pairs |P| × |N| of {group}", float(pairs),
                          rf"{int(n_pos)} \times {int(n_neg)} = {pairs}"
                          + ("" if included else rf"\ \ \text{{(no pair: {group} is left out)}}"), stage=first,
                          hint=TEXTS["group_pairs_hint"].format(group=group)))
        if not included:
            continue
        rows = [i for i, g in enumerate(groups) if g == group]
        pair_table = auc_breakdown([labels[i] for i in rows], [scores[i] for i in rows],
                                   items=[items[i] for i in rows]).table
        won = int((pair_table["outcome"] == "positive higher").sum())
        ties = int((pair_table["outcome"] == "tie").sum())
        auc_step[group] = len(steps)
        steps.append(Step(f"AUC of {group}", float(group_auc),
                          rf"\frac{{{won} + \frac{{1}}{{2}} \times {ties}}}{{{pairs}}} = {tex_number(group_auc)}",
                          stage=first, hint=TEXTS["group_auc_hint"].format(group=group)))
    second = "Step 2: weight each user"
    weight_steps, product_steps = [], []
    used = table[table["included"]]
    for group, n, n_pos, weight in zip(used["group"], used["n"], used["positives"], used["weight"]):
        why = {"impressions": f"{int(n)} items shown", "clicks": f"{int(n_pos)} click{'s' if n_pos != 1 else ''}",
               "uniform": "1 per user"}
        weight_steps.append(len(steps))
        steps.append(Step(f"weight of {group}", float(weight), rf"{tex_number(weight)}\ \ \text{{({why[weights]})}}",
                          stage=second, hint=TEXTS["weight_hint"].format(group=group,
                                                                         weight_words=translate(_WEIGHT_WORDS[weights]))))
        group_auc = steps[auc_step[group]].expected
        product_steps.append(len(steps))
        steps.append(Step(f"weight × AUC of {group}", float(weight) * group_auc,
                          rf"{tex_number(weight)} \times {tex_number(group_auc)} = "
                          rf"{tex_number(float(weight) * group_auc)}",
                          uses=(len(steps) - 1, auc_step[group]), rule="product", stage=second,
                          hint=TEXTS["weighted_hint"].format(group=group)))
    third = "Step 3: GAUC"
    weighted = float((used["weight"] * used["auc"]).sum())
    total = float(used["weight"].sum())
    steps.append(Step("Σ w × AUC", weighted, " + ".join(tex_number(steps[i].expected) for i in product_steps)
                      + f" = {tex_number(weighted)}", uses=tuple(product_steps), rule="sum", stage=third,
                      hint=TEXTS["sum_weighted_hint"]))
    steps.append(Step("Σ w", total, " + ".join(tex_number(steps[i].expected) for i in weight_steps)
                      + f" = {tex_number(total)}", uses=tuple(weight_steps), rule="sum", stage=third,
                      hint=TEXTS["sum_weights_hint"]))
    value = float(worked.value)
    steps.append(Step("GAUC", value, rf"\frac{{{tex_number(weighted)}}}{{{tex_number(total)}}} = {tex_number(value)}",
                      uses=(len(steps) - 2, len(steps) - 1), rule="ratio", stage=third, hint=TEXTS["gauc_hint"].format()))
    return steps


def _generate_gauc(rng, seed: int, *, weights: str = "impressions") -> Exercise:
    if weights not in GAUC_WEIGHTS:
        raise ValueError(translate(N_('weights must be one of {join_GAUC_WEIGHTS}; got {weights}.')).format(
            join_GAUC_WEIGHTS=', '.join(GAUC_WEIGHTS), weights=repr(weights)))
    n_groups = rng.choice((2, 3, 3))
    one_class = rng.randrange(n_groups) if n_groups == 3 and rng.random() < 0.5 else None
    while True:
        labels: list[int] = []
        groups: list[str] = []
        for g in range(n_groups):
            if g == one_class:
                size = rng.randint(1, 3)
                group_labels = [int(rng.random() < 0.25)] * size  # mostly a user who clicked nothing
            else:
                size = rng.randint(4, 5) if n_groups == 2 else rng.randint(3, 4)
                n_pos = rng.randint(1, size - 2)
                group_labels = [1] * n_pos + [0] * (size - n_pos)
                rng.shuffle(group_labels)
            labels += group_labels
            groups += [f"u{g + 1}"] * size
        scores = [_score(rng, label) for label in labels]
        kept = [[i for i, name in enumerate(groups) if name == f"u{g + 1}"] for g in range(n_groups) if g != one_class]
        tie = rng.choice(kept)  # one positive of one user tied with one of its negatives
        scores[next(i for i in tie if not labels[i])] = scores[next(i for i in tie if labels[i])]
        aucs, sizes, clicks = set(), set(), set()
        for rows in kept:
            pos = [scores[i] for i in rows if labels[i]]
            neg = [scores[i] for i in rows if not labels[i]]
            aucs.add(sum((p > q) + (p == q) / 2 for p in pos for q in neg) / (len(pos) * len(neg)))
            sizes.add(len(rows))
            clicks.add(len(pos))
        # Users that differ in AUC, size and clicks, so the weights matter whichever is asked.
        if len(aucs) > 1 and len(sizes) > 1 and len(clicks) > 1:
            break
    title = f"Practice exercise {seed}: {english_title(GAUC_KIND)} (weights: {weights})"
    return Exercise("gauc", title, params={"items": tuple(_LETTERS[:len(labels)]), "labels": tuple(labels),
                                           "scores": tuple(scores), "groups": tuple(groups), "weights": weights})


def _one_class_users(exercise: Exercise) -> list[tuple[str, str]]:
    labels, groups = exercise.param("labels", ()), exercise.param("groups", ())
    found = []
    for group in _group_order(groups):
        classes = {labels[i] for i, g in enumerate(groups) if g == group}
        if len(classes) == 1:
            found.append((group, N_("clicked every item") if classes == {1} else N_("clicked nothing")))
    return found


def _describe_gauc(exercise: Exercise) -> str:
    items, labels, scores, groups = _given(exercise, "items", "labels", "scores", "groups")
    weights = exercise.param("weights", "impressions")
    left_out = "".join(TEXTS["left_out"].format(group=group, what=translate(what)) for group, what in _one_class_users(exercise))
    return TEXTS["gauc_describe"].format(n=len(_group_order(groups)), weights=translate(_WEIGHT_WORDS[weights]),
                                         table=_items_table(items, labels, scores, group_row=groups), left_out=left_out)


def _reference_gauc(exercise: Exercise) -> dict:
    from rankviz.metrics import gauc, gauc_breakdown

    _, labels, scores, groups = _given(exercise, "items", "labels", "scores", "groups")
    weights = _METRIC_WEIGHTS[exercise.param("weights", "impressions")]
    result = gauc(labels, scores, groups, weights=weights)
    table = gauc_breakdown(labels, scores, groups, weights=weights).table
    values = {"GAUC": result.value, "Σ w": sum(result.weights.values()),
              "Σ w × AUC": sum(result.weights[g] * result.per_group[g] for g in result.per_group)}
    for group, n_pos, n_neg in zip(table["group"], table["positives"], table["negatives"]):
        values[f"pairs |P| × |N| of {group}"] = n_pos * n_neg
    for group, value in result.per_group.items():
        values[f"AUC of {group}"] = value
        values[f"weight of {group}"] = result.weights[group]
        values[f"weight × AUC of {group}"] = result.weights[group] * value
    return values


def _own_gauc(*, labels, scores, groups, items=None, weights="impressions") -> Exercise:
    _check_lengths(labels, scores, groups)
    users = len(_group_order(groups))
    return Exercise("gauc", TEXTS.source["gauc_title"].format(count=len(labels), users=users, weights=weights),
                    params={"items": _item_names(items, len(labels)), "labels": tuple(labels),
                            "scores": tuple(scores), "groups": tuple(str(g) for g in groups), "weights": weights})


GAUC_KIND = register_kind(KindSpec(
    "gauc", N_("GAUC: AUC per user, weighted"), _generate_gauc, gauc_steps, _describe_gauc,
    options={"weights": GAUC_WEIGHTS}, reference=_reference_gauc,
    metrics=("gauc",),
    inputs=(*_SCORED, OwnInput("groups", N_("User of each item"), TEXTS.source["groups"], "names", required=True,
                               example="u1 u1 u2 u2"),
            _ITEMS, OwnInput("weights", N_("Weight of each user"), TEXTS.source["weights"], "option", blank="impressions")),
    own=_own_gauc))


# ---------------------------------------------------------------------------- AUC mistakes
# An auc working ends with: pairs won, tied pairs, tied pairs counted ½, credit, AUC (steps -5 to -1);
# step 2 is |P| × |N|.


def _auc_tail(steps, *, half: Step | None = None, pairs: Step | None = None, won: Step | None = None) -> list[Step]:
    """The working with the pairs, won or half-ties step replaced, the credit and AUC recomputed from them."""
    pairs = pairs or steps[2]
    won = won or steps[-5]
    half = half or steps[-3]
    credit_value = won.expected + half.expected
    credit = replace(steps[-2], expected=credit_value, alternatives=(),
                     formula=rf"{tex_number(won.expected)} + {tex_number(half.expected)} = {tex_number(credit_value)}")
    value = credit_value / pairs.expected
    auc = replace(steps[-1], expected=value, alternatives=(),
                  formula=rf"\frac{{{tex_number(credit_value)}}}{{{tex_number(pairs.expected)}}} = {tex_number(value)}")
    return [steps[0], steps[1], pairs, *steps[3:-5], won, steps[-4], half, credit, auc]


def _auc_ties_counted(credit_per_tie: float):
    def working(exercise, steps):
        ties = steps[-4].expected
        if not ties:
            return None
        value = credit_per_tie * ties
        shown = "0" if credit_per_tie == 0 else "1"
        half = replace(steps[-3], expected=value, alternatives=(), rule="sum" if credit_per_tie else "",
                       uses=steps[-3].uses if credit_per_tie else (), scale=1.0,
                       formula=rf"{shown} \times {tex_number(ties)} = {tex_number(value)}")
        return _auc_tail(steps, half=half)
    return working


def _auc_all_pairs(exercise, steps):
    n = len(exercise.param("items", ()))
    every = n * (n - 1) // 2
    pairs = replace(steps[2], expected=float(every), rule="", uses=(), alternatives=(),
                    formula=rf"\frac{{{n} \times {n - 1}}}{{2}} = {every}")
    return _auc_tail(steps, pairs=pairs)


def _auc_negative_higher(exercise, steps):
    items, labels, scores = _given(exercise, "items", "labels", "scores")
    negatives = [s for s, label in zip(scores, labels) if not label]
    mistaken = list(steps)
    for i, step in enumerate(steps):
        if step.label.startswith("negatives below "):
            score = next(s for name, s in zip(items, scores) if step.label == f"negatives below {name} ({tex_number(s)})")
            above = sum(1 for s in negatives if s > score)
            mistaken[i] = replace(step, expected=float(above), alternatives=(),
                                  formula=rf"\#\{{s_n > {tex_number(score)}\}} = {above}")
    lost = sum(mistaken[i].expected for i in steps[-5].uses)
    won = replace(steps[-5], expected=lost, alternatives=(),
                  formula=" + ".join(f"{int(mistaken[i].expected)}" for i in steps[-5].uses) + f" = {int(lost)}")
    return _auc_tail(mistaken, won=won)


def _auc_ties_dropped(exercise, steps):
    won, ties, pairs = steps[-5].expected, steps[-4].expected, steps[2].expected
    if not ties or pairs == ties:
        return None
    value = won / (pairs - ties)
    return steps[:-1] + [replace(steps[-1], expected=value, rule="", uses=(), alternatives=(),
                                 formula=rf"\frac{{{tex_number(won)}}}{{{tex_number(pairs)} - {tex_number(ties)}}} = "
                                         rf"{tex_number(value)}")]


register_mistake("auc_ties_as_zero", N_("You gave tied pairs no credit; a tie (s_p = s_n) counts ½, halfway between a "
                                     "pair won and a pair lost."), "auc", _auc_ties_counted(0.0))
register_mistake("auc_ties_as_one", N_("You counted tied pairs as won; a tie (s_p = s_n) counts only ½."),
                 "auc", _auc_ties_counted(1.0))
register_mistake("auc_all_pairs", N_("You divided by every pair of items, n(n − 1)/2; AUC compares only positives "
                                  "with negatives, so it divides by |P| × |N|."), "auc", _auc_all_pairs)
register_mistake("auc_negative_higher", N_("You counted the pairs where the negative scores higher (that gives 1 − AUC); "
                                        "count the negatives scored below each positive."), "auc", _auc_negative_higher)
register_mistake("auc_ties_dropped", N_("You left the tied pairs out of the count; they stay in |P| × |N| and each "
                                     "counts ½."), "auc", _auc_ties_dropped)


# ---------------------------------------------------------------------------- GAUC mistakes


def _weighted_as(asked: tuple, used: str):
    def working(exercise, steps):
        if exercise.param("weights", "impressions") not in asked:
            return None
        return gauc_steps(exercise.with_params(weights=used))
    return working


def _index(steps, label: str) -> int:
    return next(i for i, step in enumerate(steps) if step.label == label)


def _gauc_end(steps, weighted: float, total: float, weighted_rule: bool, total_rule: bool) -> list[Step]:
    """The working with Σ w × AUC and Σ w replaced (their own rules kept when asked), GAUC their ratio."""
    mistaken = list(steps)
    i_weighted, i_total = _index(steps, "Σ w × AUC"), _index(steps, "Σ w")
    if weighted != steps[i_weighted].expected:
        mistaken[i_weighted] = replace(steps[i_weighted], expected=weighted, alternatives=(),
                                       rule=steps[i_weighted].rule if weighted_rule else "",
                                       uses=steps[i_weighted].uses if weighted_rule else (),
                                       formula=rf"{tex_number(steps[i_weighted].expected)} + \dots = {tex_number(weighted)}")
    if total != steps[i_total].expected:
        mistaken[i_total] = replace(steps[i_total], expected=total, alternatives=(),
                                    rule=steps[i_total].rule if total_rule else "",
                                    uses=steps[i_total].uses if total_rule else (),
                                    formula=rf"{tex_number(steps[i_total].expected)} + \dots = {tex_number(total)}")
    value = weighted / total
    mistaken[-1] = replace(steps[-1], expected=value, alternatives=(),
                           formula=rf"\frac{{{tex_number(weighted)}}}{{{tex_number(total)}}} = {tex_number(value)}")
    return mistaken


def _one_class_kept(auc_given: float):
    def working(exercise, steps):
        labels, groups = exercise.param("labels", ()), exercise.param("groups", ())
        weights = exercise.param("weights", "impressions")
        weighted, total = steps[_index(steps, "Σ w × AUC")].expected, steps[_index(steps, "Σ w")].expected
        kept = False
        for group, _ in _one_class_users(exercise):
            rows = [i for i, g in enumerate(groups) if g == group]
            weight = {"impressions": len(rows), "clicks": sum(labels[i] for i in rows), "uniform": 1}[weights]
            if weight:
                weighted += weight * auc_given
                total += weight
                kept = True
        return _gauc_end(steps, weighted, total, False, False) if kept else None
    return working


def _pooled(exercise, steps):
    from rankviz.metrics import auc

    value = auc(exercise.param("labels"), exercise.param("scores"))
    return steps[:-1] + [replace(steps[-1], expected=float(value), rule="", uses=(), alternatives=(),
                                 formula=rf"\mathrm{{AUC}}(\text{{every item, users mixed}}) = {tex_number(value)}")]


def _divided_by_users(exercise, steps):
    if exercise.param("weights", "impressions") == "uniform":
        return None
    users = sum(1 for step in steps if step.label.startswith("AUC of "))
    weighted = steps[_index(steps, "Σ w × AUC")]
    value = weighted.expected / users
    return steps[:-1] + [replace(steps[-1], expected=value, rule="sum", uses=(_index(steps, "Σ w × AUC"),),
                                 scale=float(users), alternatives=(),
                                 formula=rf"\frac{{{tex_number(weighted.expected)}}}{{{users}}} = {tex_number(value)}")]


register_mistake("gauc_unweighted", N_("You took the plain mean of the users' AUCs; this GAUC weights each user's AUC "
                                    "(by impressions or clicks, as asked) and divides by Σ w."),
                 "gauc", _weighted_as(("impressions", "clicks"), "uniform"))
register_mistake("gauc_clicks_for_impressions", N_("You weighted each user by its clicks; this GAUC weights a user by its "
                                                "impressions, the items it was shown."),
                 "gauc", _weighted_as(("impressions",), "clicks"))
register_mistake("gauc_impressions_for_clicks", N_("You weighted each user by its impressions; this GAUC weights a user "
                                                "by its clicks (positives)."),
                 "gauc", _weighted_as(("clicks",), "impressions"))
register_mistake("gauc_weighted_for_plain_mean", N_("You weighted the users by impressions; this GAUC gives every user "
                                                 "the weight 1 (the plain mean of their AUCs)."),
                 "gauc", _weighted_as(("uniform",), "impressions"))
register_mistake("gauc_one_class_kept", N_("You kept a user shown one class only (as AUC 0); it has no "
                                        "positive-negative pair, so it is left out of GAUC and of Σ w."),
                 "gauc", _one_class_kept(0.0))
register_mistake("gauc_one_class_as_half", N_("You gave a user shown one class only an AUC of 0.5; it has no "
                                           "positive-negative pair, so it is left out of GAUC and of Σ w."),
                 "gauc", _one_class_kept(0.5))
register_mistake("gauc_pooled_auc", N_("You computed one AUC over every item with the users mixed; GAUC compares items "
                                    "only within each user, then averages the users' AUCs."), "gauc", _pooled)
register_mistake("gauc_divided_by_users", N_("You divided Σ w × AUC by the number of users; divide it by Σ w, the sum "
                                          "of the weights."), "gauc", _divided_by_users)

register_title_templates(*(text for key, text in TEXTS.source.items() if "title" in key))
