"""Homework kinds auc and gauc (rankviz.teaching.homework.kinds.pairs): steps, generated exercises, mistakes.

Course note 001 ("AUC/GAUC") defines AUC as the probability that a random positive is scored above a
random negative, equal to the area under the ROC curve, and GAUC as AUC within each search session,
then averaged. It prints no worked numbers, so there is no course preset for these kinds; the known
values below are scikit-learn's published example and hand counts written as formulas.
"""

import pytest

from rankviz.metrics import auc, gauc, roc_curve_breakdown
from rankviz.teaching.homework import Exercise, check_answers, describe, generate_exercise, stages, steps_for

SEEDS = range(40)


def _auc_exercise(labels, scores, items=None):
    items = items or tuple("abcdefgh"[:len(labels)])
    return Exercise("auc", "AUC", params={"items": tuple(items), "labels": tuple(labels), "scores": tuple(scores)})


def _gauc_exercise(labels, scores, groups, weights="impressions"):
    return Exercise("gauc", "GAUC", params={"items": tuple("abcdefghijkl"[:len(labels)]), "labels": tuple(labels),
                                            "scores": tuple(scores), "groups": tuple(groups), "weights": weights})


def _values(steps):
    return {step.label: step.expected for step in steps}


def _answers(steps, **by_label):
    """Exact answers for every step, with the given ones (label -> text) instead."""
    return [by_label.get(step.label, repr(step.expected)) for step in steps]


def _verdict(steps, label, answer, answers=None):
    answers = answers or _answers(steps)
    i = next(i for i, step in enumerate(steps) if step.label == label)
    answers[i] = answer
    return check_answers(steps, answers[:i + 1])[i]


# A GAUC exercise with a user who clicked nothing (u3), weighted by impressions:
# u1: + 0.9, − 0.1 (AUC 1); u2: + 0.2, − 0.3, − 0.1 (AUC 1/2); u3: − 0.5 only (left out).
GAUC_LABELS, GAUC_SCORES = (1, 0, 1, 0, 0, 0), (0.9, 0.1, 0.2, 0.3, 0.1, 0.5)
GAUC_GROUPS = ("u1", "u1", "u2", "u2", "u2", "u3")


# ---------------------------------------------------------------- AUC: known values


def test_auc_of_scikit_learns_published_example():
    # scikit-learn, sklearn.metrics.auc / roc_auc_score docstring: y = 0, 0, 1, 1; scores 0.1, 0.4, 0.35, 0.8 -> 0.75
    # Pairs: 0.35 beats 0.1, loses to 0.4; 0.8 beats both: (1 + 2) / (2 x 2) = 0.75.
    steps = _values(steps_for(_auc_exercise((0, 0, 1, 1), (0.1, 0.4, 0.35, 0.8))))
    assert steps["|P| (positives)"] == 2 and steps["|N| (negatives)"] == 2 and steps["pairs |P| × |N|"] == 4
    assert steps["negatives below c (0.35)"] == 1 and steps["negatives below d (0.8)"] == 2
    assert steps["pairs won (s_p > s_n)"] == 3 and steps["tied pairs (s_p = s_n)"] == 0
    assert steps["AUC"] == 0.75


def test_auc_ties_count_half():
    # + 0.9, − 0.5, + 0.4, − 0.4 (rankviz.metrics.auc's example): a wins twice, c loses to b and ties d.
    steps = steps_for(_auc_exercise((1, 0, 1, 0), (0.9, 0.5, 0.4, 0.4)))
    values = _values(steps)
    assert values["negatives tied with c (0.4)"] == 1 and values["tied pairs counted ½"] == 0.5
    assert values["credit: won + ½ tied"] == 2 + 0.5
    assert values["AUC"] == (2 + 0.5) / (2 * 2) == auc((1, 0, 1, 0), (0.9, 0.5, 0.4, 0.4))
    assert stages(steps) == ["Step 1: count the pairs", "Step 2: compare each positive with every negative",
                             "Step 3: add up the pairs", "Step 4: AUC"]
    by_label = {step.label: step for step in steps}
    assert by_label["AUC"].formula == r"\frac{2.5}{4} = 0.625"
    assert by_label["tied pairs counted ½"].formula == r"\frac{1}{2} \times 1 = 0.5"


def test_auc_equals_the_area_under_the_roc_curve():
    # Course note 001: "AUC的值与ROC(tpr-fpr)曲线下方面积相等" (AUC equals the area under the ROC curve).
    for seed in SEEDS:
        exercise = generate_exercise(seed, "auc")
        area = roc_curve_breakdown(exercise.param("labels"), exercise.param("scores")).value
        assert _values(steps_for(exercise))["AUC"] == pytest.approx(area)


def test_generated_auc_exercises_have_ties_and_fit_by_hand():
    for seed in SEEDS:
        exercise = generate_exercise(seed, "auc")
        labels, scores = exercise.param("labels"), exercise.param("scores")
        assert 5 <= len(labels) <= 8 and 2 <= sum(labels) <= 4 and len(labels) - sum(labels) >= 2
        values = _values(steps_for(exercise))
        assert values["tied pairs (s_p = s_n)"] >= 1 and values["pairs won (s_p > s_n)"] >= 1
        assert len(steps_for(exercise)) <= 20
        assert exercise.title == f"Practice exercise {seed}: AUC by counting positive-negative pairs"
        text = describe(exercise)
        assert "| label |" in text and all(f"| {s:g} " in text or f"| {s:g} |" in text for s in scores)
    assert len({generate_exercise(seed, "auc") for seed in SEEDS}) == len(SEEDS)


# ---------------------------------------------------------------- AUC: mistakes


def test_ties_as_zero_is_named_then_carried():
    steps = steps_for(_auc_exercise((1, 0, 1, 0), (0.9, 0.5, 0.4, 0.4)))
    answers = _answers(steps, **{"tied pairs counted ½": "0", "credit: won + ½ tied": "2", "AUC": "0.5"})
    verdicts = {v.step.label: v for v in check_answers(steps, answers)}
    assert verdicts["tied pairs counted ½"].mistake == "auc_ties_as_zero"
    assert "a tie (s_p = s_n) counts ½" in verdicts["tied pairs counted ½"].message
    assert verdicts["credit: won + ½ tied"].status == "carried" and verdicts["AUC"].status == "carried"


def test_ties_as_one():
    steps = steps_for(_auc_exercise((1, 0, 1, 0), (0.9, 0.5, 0.4, 0.4)))
    verdict = _verdict(steps, "AUC", "0.75")  # (2 + 1) / 4
    assert verdict.mistake == "auc_ties_as_one" and "counts only ½" in verdict.message


def test_all_pairs_instead_of_p_times_n():
    steps = steps_for(_auc_exercise((1, 0, 1, 0), (0.9, 0.5, 0.4, 0.4)))
    verdict = _verdict(steps, "pairs |P| × |N|", "6")  # 4 x 3 / 2
    assert verdict.mistake == "auc_all_pairs" and "n(n − 1)/2" in verdict.message
    assert "auc_all_pairs" in _verdict(steps, "AUC", str(2.5 / 6)).mistakes


def test_pairs_where_the_negative_scores_higher():
    steps = steps_for(_auc_exercise((1, 0, 1, 0), (0.9, 0.5, 0.4, 0.4)))
    assert _verdict(steps, "negatives below c (0.4)", "1").mistake == "auc_negative_higher"  # b (0.5) is above c
    assert "auc_negative_higher" in _verdict(steps, "AUC", "0.375").mistakes  # 1 - 0.625


def test_ties_dropped_from_the_pairs():
    steps = steps_for(_auc_exercise((1, 0, 1, 0), (0.9, 0.5, 0.4, 0.4)))
    verdict = _verdict(steps, "AUC", "2/3")  # 2 won / (4 - 1 tied)
    assert verdict.mistake == "auc_ties_dropped" and "stay in |P| × |N|" in verdict.message


def test_a_right_auc_answer_names_no_mistake():
    steps = steps_for(_auc_exercise((1, 0, 1, 0), (0.9, 0.5, 0.4, 0.4)))
    verdicts = check_answers(steps, _answers(steps, AUC="5/8"))
    assert all(v.status == "right" and v.mistake is None for v in verdicts)


# ---------------------------------------------------------------- AUC: bad input


@pytest.mark.parametrize("params, message", [
    ({"items": ("a", "b"), "labels": (1, 1), "scores": (0.5, 0.4)}, "at least one positive and one negative"),
    ({"items": ("a", "b"), "labels": (1, 0, 1), "scores": (0.5, 0.4)}, "one value per item"),
    ({"items": ("a", "a"), "labels": (1, 0), "scores": (0.5, 0.4)}, "its own name"),
    ({"items": ("a", "b"), "labels": (2, 0), "scores": (0.5, 0.4)}, "must be 0 or 1"),
    ({"items": tuple(range(101)), "labels": (1, 0) * 50 + (1,), "scores": (0.5,) * 101}, "at most 100 items"),
])
def test_bad_auc_input_raises_a_readable_error(params, message):
    with pytest.raises(ValueError, match=message):
        steps_for(Exercise("auc", "AUC", params=params))


# ---------------------------------------------------------------- GAUC: known values


def test_gauc_weighted_by_impressions_leaves_the_one_class_user_out():
    # rankviz.metrics.gauc's example, weighted by impressions (Zhou et al., KDD 2018): (2 x 1 + 3 x 0.5) / (2 + 3)
    steps = steps_for(_gauc_exercise(GAUC_LABELS, GAUC_SCORES, GAUC_GROUPS))
    values = _values(steps)
    assert values["pairs |P| × |N| of u1"] == 1 and values["pairs |P| × |N| of u2"] == 2
    assert values["pairs |P| × |N| of u3"] == 0 and "AUC of u3" not in values and "weight of u3" not in values
    assert values["AUC of u1"] == 1 and values["AUC of u2"] == 0.5
    assert values["weight of u1"] == 2 and values["weight of u2"] == 3
    assert values["weight × AUC of u2"] == 1.5
    assert values["Σ w × AUC"] == 3.5 and values["Σ w"] == 5
    assert values["GAUC"] == pytest.approx(0.7) == float(gauc(GAUC_LABELS, GAUC_SCORES, GAUC_GROUPS))
    assert stages(steps) == ["Step 1: AUC of each user", "Step 2: weight each user", "Step 3: GAUC"]
    assert "left out" in {step.label: step for step in steps}["pairs |P| × |N| of u3"].formula


@pytest.mark.parametrize("weights, expected", [
    ("uniform", (1 + 0.5) / 2),  # note 001: AUC per session, then the mean over sessions
    ("clicks", (1 * 1 + 1 * 0.5) / (1 + 1)),  # one click each
])
def test_gauc_other_weights(weights, expected):
    steps = steps_for(_gauc_exercise(GAUC_LABELS, GAUC_SCORES, GAUC_GROUPS, weights))
    assert _values(steps)["GAUC"] == pytest.approx(expected)


def test_generated_gauc_exercises():
    left_out = 0
    for seed in SEEDS:
        for weights in ("impressions", "clicks", "uniform"):
            exercise = generate_exercise(seed, "gauc", weights=weights)
            assert exercise.param("weights") == weights and f"(weights: {weights})" in exercise.title
            groups = exercise.param("groups")
            assert 2 <= len(set(groups)) <= 3 and len(groups) <= 12
            steps = steps_for(exercise)
            assert len(steps) <= 20
            one_class = [label.split(" of ")[1] for label, value in _values(steps).items()
                         if label.startswith("pairs") and value == 0]
            for user in one_class:  # the description says which user is left out, and why
                assert f"{user} clicked" in describe(exercise) and "left out of GAUC" in describe(exercise)
            left_out += bool(one_class)
        # The same users and scores whatever the weights.
        assert (generate_exercise(seed, "gauc", weights="uniform").param("scores")
                == generate_exercise(seed, "gauc").param("scores"))
    assert 0 < left_out < 3 * len(SEEDS)


# ---------------------------------------------------------------- GAUC: mistakes


def test_plain_mean_where_weights_were_asked():
    steps = steps_for(_gauc_exercise(GAUC_LABELS, GAUC_SCORES, GAUC_GROUPS))
    verdict = _verdict(steps, "GAUC", "0.75")  # (1 + 0.5) / 2
    assert verdict.mistake == "gauc_unweighted" and "plain mean" in verdict.message
    assert _verdict(steps, "weight of u1", "1").mistake == "gauc_unweighted"


def test_weighted_where_the_plain_mean_was_asked():
    steps = steps_for(_gauc_exercise(GAUC_LABELS, GAUC_SCORES, GAUC_GROUPS, "uniform"))
    assert _verdict(steps, "GAUC", "0.7").mistake == "gauc_weighted_for_plain_mean"


def test_clicks_and_impressions_mixed_up():
    # u1: + 0.9, − 0.1, − 0.3 (AUC 1; 3 impressions, 1 click); u2: + 0.2, + 0.8, − 0.3 (AUC 1/2; 3 impressions, 2 clicks)
    labels, scores = (1, 0, 0, 1, 1, 0), (0.9, 0.1, 0.3, 0.2, 0.8, 0.3)
    groups = ("u1", "u1", "u1", "u2", "u2", "u2")
    impressions = steps_for(_gauc_exercise(labels, scores, groups))
    assert _values(impressions)["GAUC"] == pytest.approx((3 * 1 + 3 * 0.5) / 6)
    assert _verdict(impressions, "GAUC", str((1 * 1 + 2 * 0.5) / 3)).mistake == "gauc_clicks_for_impressions"
    clicks = steps_for(_gauc_exercise(labels, scores, groups, "clicks"))
    assert _verdict(clicks, "weight of u2", "3").mistake == "gauc_impressions_for_clicks"


def test_one_class_user_kept():
    steps = steps_for(_gauc_exercise(GAUC_LABELS, GAUC_SCORES, GAUC_GROUPS))
    kept = _verdict(steps, "Σ w", "6")  # u3's one impression counted
    assert set(kept.mistakes) == {"gauc_one_class_kept", "gauc_one_class_as_half"} and "cannot tell" in kept.message
    assert _verdict(steps, "GAUC", str(3.5 / 6)).mistake == "gauc_one_class_kept"  # u3 counted with AUC 0
    assert _verdict(steps, "GAUC", str(4 / 6)).mistake == "gauc_one_class_as_half"  # u3 counted with AUC 0.5


def test_pooled_auc_and_divided_by_users():
    steps = steps_for(_gauc_exercise(GAUC_LABELS, GAUC_SCORES, GAUC_GROUPS))
    pooled = auc(GAUC_LABELS, GAUC_SCORES)  # 0.9 beats all 4; 0.2 beats 0.1 twice: (4 + 2) / 8 = 0.75 ... see below
    assert pooled == pytest.approx((4 + 2) / 8)
    # 0.75 is also the plain mean here: both mistakes are named.
    assert {"gauc_pooled_auc", "gauc_unweighted"} <= set(_verdict(steps, "GAUC", "0.75").mistakes)
    assert _verdict(steps, "GAUC", "1.75").mistake == "gauc_divided_by_users"  # 3.5 / 2 users


def test_pooled_auc_alone():
    # u1: + 0.9, − 0.8 (AUC 1); u2: + 0.2, − 0.1 (AUC 1). Pooled: 0.2 loses to 0.8: (2 + 1) / 4 = 0.75.
    steps = steps_for(_gauc_exercise((1, 0, 1, 0), (0.9, 0.8, 0.2, 0.1), ("u1", "u1", "u2", "u2")))
    verdict = _verdict(steps, "GAUC", "0.75")
    assert verdict.mistakes == ("gauc_pooled_auc",) and "within each user" in verdict.message


# ---------------------------------------------------------------- GAUC: bad input


@pytest.mark.parametrize("weights, groups, labels, message", [
    ("views", GAUC_GROUPS, GAUC_LABELS, "weights must be one of"),
    ("impressions", GAUC_GROUPS[:-1], GAUC_LABELS, "one value per item"),
    ("impressions", GAUC_GROUPS, (0,) * 6, "at least one user shown both"),
])
def test_bad_gauc_input_raises_a_readable_error(weights, groups, labels, message):
    exercise = Exercise("gauc", "GAUC", params={"items": tuple("abcdef"), "labels": labels, "scores": GAUC_SCORES,
                                                "groups": groups, "weights": weights})
    with pytest.raises(ValueError, match=message):
        steps_for(exercise)


def test_bad_gauc_option_raises():
    with pytest.raises(ValueError, match="weights must be one of impressions, clicks, uniform"):
        generate_exercise(1, "gauc", weights="views")
