"""The set-based homework kinds: P@k, R@k and F-beta (the lecture's F-measure homework), RR and MRR
with S_h, R-precision; their course presets against the notes' printed values, and their mistakes
named on concrete student answers."""

from __future__ import annotations

import math

import pytest

from rankviz.teaching.homework import Exercise, check_answers, exercise_from_preset, steps_for
from rankviz.teaching.presets import get_preset


def _by_label(steps):
    return {step.label: step for step in steps}


def _answer(steps, label, text):
    """Exact answers up to ``label``, then ``text`` there; the verdict of that step."""
    index = [step.label for step in steps].index(label)
    answers = [repr(step.expected) for step in steps[:index]] + [text]
    return check_answers(steps, answers)[index]


# ---------------------------------------------------------------- the F-measure homework (lecture 002)


def test_fmeasure_q1_reproduces_the_p_and_r_computed_in_class():
    # 002, "MAP - An example": P at Q1's relevant documents 1, 0.66, 0.5, 0.4, 0.33 at recall 0.1 ... 0.5.
    steps = _by_label(steps_for(exercise_from_preset("fmeasure_q1")))
    printed = get_preset("fmeasure_q1").printed
    for k, p, r in zip((1, 3, 6, 10, 15), printed["P"], printed["R"]):
        assert math.floor(steps[f"P@{k}"].expected * 100) / 100 == p  # the slide cuts to two decimals
        assert steps[f"R@{k}"].expected == pytest.approx(r)


def test_fmeasure_q1_f_values_by_hand():
    steps = _by_label(steps_for(exercise_from_preset("fmeasure_q1")))
    # At rank 1: P = 1, R = 0.1. F1 = 2PR/(P+R) = 0.2/1.1; F2 = 5PR/(4P+R) = 0.5/4.1; F0.5 = 1.25PR/(0.25P+R) = 0.125/0.35.
    assert steps["F1@1"].expected == pytest.approx(0.2 / 1.1)
    assert steps["F2@1"].expected == pytest.approx(0.5 / 4.1)
    assert steps["F0.5@1"].expected == pytest.approx(0.125 / 0.35)
    # At rank 10: P = R = 0.4, so every F is 0.4 (the harmonic mean of two equal numbers).
    assert [steps[f"{f}@10"].expected for f in ("F1", "F2", "F0.5")] == pytest.approx([0.4, 0.4, 0.4])
    # Q1 is precision-oriented early (F0.5 > F1 > F2), as the homework's "observations" ask.
    assert steps["F0.5@3"].expected > steps["F1@3"].expected > steps["F2@3"].expected


def test_fmeasure_q2_is_recall_oriented_at_its_last_relevant_document():
    steps = _by_label(steps_for(exercise_from_preset("fmeasure_q2")))
    # Rank 15: P = 3/15 = 0.2, R = 1. F2 = 5 * 0.2 / (0.8 + 1) = 0.556 > F1 = 0.4/1.2 = 0.333 > F0.5 = 0.25/1.05.
    assert steps["F2@15"].expected == pytest.approx(1.0 / 1.8)
    assert steps["F1@15"].expected == pytest.approx(0.4 / 1.2)
    assert steps["F0.5@15"].expected == pytest.approx(0.25 / 1.05)


def test_the_slides_f05_formula_is_named_as_beta_where_beta_squared_belongs():
    steps = steps_for(exercise_from_preset("fmeasure_q1"))
    # The slide: F0.5 = 1.25 PR / ((0.5)P + R): at rank 1, 1.25 * 0.1 / 0.6 = 0.208.
    verdict = _answer(steps, "F0.5@1", "0.208")
    assert verdict.mistake == "f_beta_not_squared_below"
    assert "(0.5)P + R" in verdict.message
    # β for β² above and below (set_F's parameter trap): 1.5 * 0.1 / 0.6 = 0.25.
    assert _answer(steps, "F0.5@1", "0.25").mistake == "f_beta_not_squared"


def test_f1_as_the_arithmetic_mean_is_named():
    steps = steps_for(exercise_from_preset("fmeasure_q1"))
    verdict = _answer(steps, "F1@1", "0.55")  # (1 + 0.1) / 2
    assert verdict.mistake == "f1_arithmetic_mean" and "harmonic mean" in verdict.message


def test_f2_with_the_weights_on_the_wrong_side_is_named():
    steps = steps_for(exercise_from_preset("fmeasure_q1"))
    verdict = _answer(steps, "F2@1", str(5 * 0.1 / (4 * 0.1 + 1)))  # β² on R: 0.357
    assert "f_beta_weights_swapped" in verdict.mistakes


def test_precision_and_recall_denominators_are_named():
    exercise = Exercise("precision_recall", "x", rels=(1, 0, 1, 0, 0, 0, 0, 0), n_relevant=5,
                        params={"cutoffs": (4,), "betas": (1.0,)})
    steps = steps_for(exercise)
    assert _answer(steps, "P@4", "2/8").mistake == "precision_over_list_length"
    assert _answer(steps, "P@4", "2/5").mistake == "precision_over_r"
    assert _answer(steps, "R@4", "2/4").mistake == "recall_over_retrieved"
    # F1 from the student's own (wrong) P@4 = 2/8 and the right R: carried, not marked twice.
    verdicts = check_answers(steps, ["0.25", "0.4", str(2 * 0.25 * 0.4 / 0.65)])
    assert [v.status for v in verdicts] == ["wrong", "right", "carried"]


def test_cutoffs_are_checked():
    with pytest.raises(ValueError, match="cut-offs must be whole numbers from 1 to 1000"):
        steps_for(Exercise("precision_recall", "x", rels=(1, 0, 1), n_relevant=2, params={"cutoffs": (0,)}))
    # Past the end of the list the missing ranks count as not relevant (trec_eval): P@4 = 2/4, not 2/3.
    steps = steps_for(Exercise("precision_recall", "x", rels=(1, 0, 1), n_relevant=2, params={"cutoffs": (4,)}))
    assert steps[0].label == "P@4" and steps[0].expected == 2 / 4
    with pytest.raises(ValueError, match="Each cut-off once"):
        steps_for(Exercise("precision_recall", "x", rels=(1, 0, 1), n_relevant=2, params={"cutoffs": (2, 2)}))


# ---------------------------------------------------------------- RR and MRR with S_h (lecture 002)


def test_mrr_threshold_preset_reproduces_the_slide():
    # 002, "Mean Reciprocal Rank (MRR) – An example": S_h = 3, RR(q1) = 1, RR(q2) = 0.33, MRR = 0.67.
    steps = _by_label(steps_for(exercise_from_preset("mrr_threshold")))
    printed = get_preset("mrr_threshold").printed
    assert steps["RR(q1)"].expected == printed["rr_q1"]
    assert round(steps["RR(q2)"].expected, 2) == printed["rr_q2"]
    assert round(steps["MRR"].expected, 2) == printed["mrr"]
    # The slide's 0.67 from its own 0.33: (1 + 0.33) / 2 = 0.665, within 0.005 of 0.67.
    verdicts = check_answers(list(steps.values()), ["1", "0.33", "0.665"], tolerance=0.005)
    assert [v.status for v in verdicts] == ["right", "right", "right"]


def test_rr_past_the_threshold_and_mrr_denominators_are_named():
    exercise = Exercise("rr", "x", params={"queries": (("q1", (0, 1, 0)), ("q2", (0, 0, 0, 0, 1)),
                                                       ("q3", (0, 0, 1))), "threshold": 3})
    steps = steps_for(exercise)
    assert [round(s.expected, 3) for s in steps] == [0.5, 0.0, 0.333, round((0.5 + 1 / 3) / 3, 3)]
    assert _answer(steps, "RR(q2)", "0.2").mistake == "rr_threshold_ignored"  # 1/5 although 5 > S_h
    assert _answer(steps, "RR(q1)", "2").mistake == "rr_rank_not_inverted"
    assert _answer(steps, "MRR", str((0.5 + 1 / 3) / 2)).mistake == "mrr_over_found"
    assert _answer(steps, "MRR", str(0.5 + 1 / 3)).mistake == "mrr_not_divided"
    # RR(q2) = 0.2 carried into MRR: (0.5 + 0.2 + 1/3) / 3 follows from the student's own RRs.
    verdicts = check_answers(steps, ["0.5", "0.2", repr(1 / 3), repr((0.5 + 0.2 + 1 / 3) / 3)])
    assert [v.status for v in verdicts] == ["right", "wrong", "right", "carried"]


def test_rr_bad_input():
    with pytest.raises(ValueError, match="threshold S_h must be a whole number"):
        steps_for(Exercise("rr", "x", params={"queries": (("q1", (1,)),), "threshold": 0}))
    with pytest.raises(ValueError, match="at least one query"):
        steps_for(Exercise("rr", "x", params={"queries": (), "threshold": 3}))


# ---------------------------------------------------------------- R-precision


def test_r_precision_of_the_lectures_queries():
    # q1: R = 10, relevant at ranks 1, 3, 6, 10 -> 4 in the top 10 -> 0.4; q2: R = 3, relevant at rank 3 -> 1/3.
    q1 = _by_label(steps_for(exercise_from_preset("rprec_q1")))
    q2 = _by_label(steps_for(exercise_from_preset("rprec_q2")))
    assert q1["R-precision"].expected == pytest.approx(0.4)
    assert q2["R-precision"].expected == pytest.approx(1 / 3)


def test_r_precision_mistakes_are_named():
    steps = steps_for(exercise_from_preset("rprec_q1"))
    assert _answer(steps, "R-precision", "5/15").mistake == "rprec_at_list_length"
    # Relevant at ranks 1, 2 and 5 of 8, R = 5: 3 in the top 5 -> 0.6. Cutting at the 3 retrieved: 2/3.
    steps = steps_for(Exercise("r_precision", "x", rels=(1, 1, 0, 0, 1, 0, 0, 0), n_relevant=5))
    assert steps[-1].expected == pytest.approx(0.6)
    assert _answer(steps, "R-precision", "2/3").mistake == "rprec_at_retrieved_relevant"
    with pytest.raises(ValueError, match="needs R"):
        steps_for(Exercise("r_precision", "x", rels=(1, 0), n_relevant=0))


def test_more_tutor_mistakes_are_named():
    steps = steps_for(exercise_from_preset("fmeasure_q1"))
    assert _answer(steps, "F1@1", str(0.1 / 1.1)).mistake == "f_without_factor"  # P R / (P + R), no 2
    steps = steps_for(exercise_from_preset("mrr_threshold"))
    verdict = _answer(steps, "RR(q2)", "0")  # q2's first relevant document is at rank 3 = S_h: it counts
    assert verdict.mistake == "rr_threshold_exclusive" and "rank ≤ S_h" in verdict.message
