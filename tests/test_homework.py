"""Tests of rankviz.teaching.homework: steps with course values, marking, tolerance, carried errors, seeds."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rankviz.teaching.homework import (
    HOMEWORK_PRESETS,
    KINDS,
    MAX_EXERCISE_LENGTH,
    Exercise,
    check_answers,
    describe,
    exercise_from_preset,
    first_wrong,
    generate_exercise,
    own_exercise,
    parse_answer,
    steps_for,
    summary,
)
from rankviz.metrics import average_precision, ndcg, spearman_rho
from rankviz.teaching.homework.core import KIND_SPECS, Step


def _by_label(steps):
    return {step.label: step for step in steps}


def _exact_answers(steps):
    return [repr(step.expected) for step in steps]


# ---------------------------------------------------------------- steps: known values


def test_ndcg_exercise_steps_match_the_lecture():
    # 002_0700abc891719c11.txt, "Class Exercise - Compute DCG / IDCG / NDCG": grades 3,2,3,0,1,2, gain 2^g - 1
    steps = _by_label(steps_for(exercise_from_preset("ndcg_exercise")))
    assert steps["CG"].expected == 3 + 2 + 3 + 0 + 1 + 2
    assert steps["DCG term at rank 2 (grade 2)"].expected == pytest.approx(3 / np.log2(3))
    assert steps["DCG term at rank 6 (grade 2)"].expected == pytest.approx(3 / np.log2(7))
    dcg = 7 + 3 / np.log2(3) + 7 / 2 + 0 + 1 / np.log2(6) + 3 / np.log2(7)  # rel = 3,2,3,0,1,2
    idcg = 7 + 7 / np.log2(3) + 3 / 2 + 3 / np.log2(5) + 1 / np.log2(6)  # ideal = 3,3,2,2,1,0
    assert steps["DCG"].expected == pytest.approx(dcg)
    assert steps["IDCG"].expected == pytest.approx(idcg)
    assert steps["NDCG"].expected == pytest.approx(dcg / idcg)
    assert round(steps["NDCG"].expected, 3) == 0.949  # the slide's value
    # The ideal ranking's last grade is 0: its term is left out, so there are five IDCG terms.
    assert sum(label.startswith("IDCG term") for label in steps) == 5


def test_ndcg_formula_substitutes_the_numbers():
    steps = _by_label(steps_for(exercise_from_preset("ndcg_exercise")))
    assert steps["DCG term at rank 2 (grade 2)"].formula == r"\frac{2^{2} - 1}{\log_2(2 + 1)} = \frac{3}{1.585} = 1.893"
    assert steps["NDCG"].formula.endswith("= 0.949")


def test_ndcg_with_judged_grades_uses_the_whole_reference_collection():
    # 002, "Revised Reference Collections": the ideal of q1 is 3,3,3,2,2,2,1,1,1,1 (unretrieved ones included)
    exercise = exercise_from_preset("q1_graded")
    steps = _by_label(steps_for(exercise))
    ideal = [3, 3, 3, 2, 2, 2, 1, 1, 1, 1]
    idcg = sum((2**g - 1) / np.log2(i + 2) for i, g in enumerate(ideal))
    assert steps["IDCG"].expected == pytest.approx(idcg)
    assert steps["NDCG"].expected == pytest.approx(ndcg(exercise.rels, judged=exercise.judged, gain="exponential"))


def test_linear_gain_and_jarvelin_discount():
    steps = _by_label(steps_for(own_exercise("ndcg", rels=[2, 0, 3], gain="linear", discount="jarvelin")))
    # Järvelin-Kekäläinen: rank 1 and 2 undiscounted, rank 3 divided by log2(3)
    assert steps["DCG"].expected == pytest.approx(2 + 0 + 3 / np.log2(3))
    assert steps["IDCG"].expected == pytest.approx(3 + 2 + 0)
    assert r"\max(1, \log_2 3)" in steps["DCG term at rank 3 (grade 3)"].formula


def test_own_ndcg_with_unretrieved_grades_raises_the_ideal():
    exercise = own_exercise("ndcg", rels=[1, 0], gain="linear", unretrieved=[2])
    assert exercise.judged == (1, 0, 2)
    steps = _by_label(steps_for(exercise))
    assert steps["IDCG"].expected == pytest.approx(2 + 1 / np.log2(3))  # ideal 2, 1 (then 0)
    assert steps["NDCG"].expected == pytest.approx(1 / (2 + 1 / np.log2(3)))


def test_ap_steps_positions_1_3_6():
    # 001_7d3de9483860babd.txt, "MAP": relevant at positions 1, 3, 6 -> (1/1 + 2/3 + 3/6) / 3
    steps = steps_for(exercise_from_preset("ap_positions_1_3_6"))
    assert [s.label for s in steps] == ["P@1 (relevant)", "P@2 (not relevant)", "P@3 (relevant)",
                                        "P@4 (not relevant)", "P@5 (not relevant)", "P@6 (relevant)", "AP"]
    assert [s.expected for s in steps[:6]] == pytest.approx([1 / 1, 1 / 2, 2 / 3, 2 / 4, 2 / 5, 3 / 6])
    assert steps[-1].expected == pytest.approx((1 / 1 + 2 / 3 + 3 / 6) / 3)
    assert steps[-1].uses == (0, 2, 5)


def test_ap_steps_q2_with_r_larger_than_hits():
    # 002, q2: relevant at ranks 3, 8, 15, R = 3 -> (1/3 + 2/8 + 3/15) / 3 = 0.261
    exercise = exercise_from_preset("q2_binary")
    assert steps_for(exercise)[-1].expected == pytest.approx((1 / 3 + 2 / 8 + 3 / 15) / 3)
    ap = steps_for(own_exercise("ap", rels=[1, 0, 1], n_relevant=4))[-1]
    assert ap.expected == pytest.approx((1 / 1 + 2 / 3) / 4)  # two unretrieved relevant documents


def test_spearman_steps_srcc_exercise():
    # 002, "SRCC - class exercise": sum d^2 = 24, rho = 1 - 6 * 24 / (10 * 99) = 0.8545 (slide 0.854)
    exercise = exercise_from_preset("srcc_exercise")
    steps = _by_label(steps_for(exercise))
    assert steps["Σd²"].expected == 24
    assert steps["ρ (Spearman)"].expected == pytest.approx(1 - 6 * 24 / (10 * 99))
    assert steps["d² of d187 (s1 = 9, s2 = 6)"].expected == 9  # (9 - 6)^2


@pytest.mark.parametrize("key", list(HOMEWORK_PRESETS))
def test_every_homework_preset_has_steps_whose_final_value_matches_the_package(key):
    exercise = exercise_from_preset(key)
    steps = steps_for(exercise)
    final = steps[-1].expected
    if exercise.kind == "ndcg":
        expected = ndcg(exercise.rels, judged=exercise.judged, gain=exercise.gain, discount=exercise.discount)
    elif exercise.kind == "ap":
        expected = average_precision(exercise.rels, n_relevant=exercise.n_relevant)
    elif exercise.kind == "spearman":
        expected = spearman_rho(exercise.ranks_a, exercise.ranks_b)
    else:  # the other kinds' last step, as their reference computes it with rankviz.metrics
        expected = KIND_SPECS[exercise.kind].reference(exercise)[steps[-1].label]
    assert final == pytest.approx(expected)
    assert describe(exercise)


# ---------------------------------------------------------------- marking


@pytest.mark.parametrize("key", list(HOMEWORK_PRESETS))
def test_exact_answers_are_all_right(key):
    steps = steps_for(exercise_from_preset(key))
    verdicts = check_answers(steps, _exact_answers(steps), tolerance=1e-6)
    assert all(v.status == "right" for v in verdicts)
    assert first_wrong(verdicts) is None


def test_a_wrong_term_fails_at_that_step_and_later_sums_are_carried():
    steps = steps_for(exercise_from_preset("ndcg_exercise"))
    answers = _exact_answers(steps)
    wrong_at = [s.label for s in steps].index("DCG term at rank 3 (grade 3)")
    answers[wrong_at] = "7"  # forgot the discount: 7 instead of 7 / log2(4) = 3.5
    dcg_at = [s.label for s in steps].index("DCG")
    own_dcg = sum(float(a) for a in answers[wrong_at - 2:dcg_at])
    answers[dcg_at] = str(own_dcg)
    answers[-1] = str(own_dcg / steps[-2].expected)  # their DCG / the right IDCG
    verdicts = check_answers(steps, answers, tolerance=0.001)
    assert first_wrong(verdicts) == wrong_at
    assert verdicts[wrong_at].status == "wrong"
    assert verdicts[dcg_at].status == "carried"  # DCG follows from the student's own terms
    assert verdicts[-1].status == "carried"
    assert summary(verdicts) == "14 of 15 steps right, 2 of them following from your earlier answers, 1 wrong."
    answers[-1] = "0.5"
    assert check_answers(steps, answers, tolerance=0.001)[-1].status == "wrong"


def test_the_slides_truncated_numbers_pass_and_its_idcg_slip_is_found():
    # 002 prints 1.892, 0.386, 1.068 (truncated) and DCG 13.846; its IDCG table has 1.286 at rank 4
    # where 3/log2(5) = 1.292, and IDCG 14.588 (see the preset's note).
    steps = steps_for(exercise_from_preset("ndcg_exercise"))
    labels = [s.label for s in steps]
    slide = ["11", "7", "1.892", "3.5", "0", "0.386", "1.068", "13.846",
             "7", "4.416", "1.5", "1.286", "0.386", "14.588", "0.949"]
    assert len(slide) == len(labels)
    verdicts = check_answers(steps, slide, tolerance=0.001)
    assert [v.status for v in verdicts[:7]] == ["right"] * 7
    dcg = verdicts[labels.index("DCG")]  # 13.846 is 0.002 off: the slide cut each term before adding
    assert dcg.status == "printed" and dcg.ok
    assert dcg.message == ("The course notes print this; they cut each term to 3 decimals before adding "
                           "(exact 13.848).")
    slip = verdicts[labels.index("IDCG term at rank 4 (grade 2)")]
    assert first_wrong(verdicts) == labels.index("IDCG term at rank 4 (grade 2)")
    assert slip.message == "The course notes print this, but it is a slip on the slide: 3/2.322 = 1.292 (exact 1.292)."
    idcg = verdicts[labels.index("IDCG")]  # 14.588 adds the slip: it follows from the student's own terms
    assert idcg.status == "carried" and "print 1.286 for 3/2.322 = 1.292 at rank 4 (exact 14.595)" in idcg.message
    assert verdicts[-1].status == "right"
    assert summary(verdicts) == ("14 of 15 steps right, 1 of them following from your earlier answers, 1 of them "
                                 "as the course notes print them, 1 wrong.")


@pytest.mark.parametrize(("label", "typed", "status", "says"), [
    ("DCG", "13.846", "printed", "they cut each term to 3 decimals before adding (exact 13.848)"),
    ("IDCG", "14.588", "wrong", "print 1.286 for 3/2.322 = 1.292 at rank 4 (exact 14.595)"),
    ("IDCG term at rank 4 (grade 2)", "1.286", "wrong", "a slip on the slide: 3/2.322 = 1.292"),
])
def test_a_value_the_slide_prints_is_recognised_typed_alone(label, typed, status, says):
    steps = steps_for(exercise_from_preset("ndcg_exercise"))
    index = [s.label for s in steps].index(label)
    verdict = check_answers(steps, [""] * index + [typed], tolerance=0.001)[index]
    assert verdict.status == status and says in verdict.message, verdict.message
    assert "away" not in verdict.message and "cut to 3 decimals)" not in verdict.mistaken_formula


def test_a_sum_of_right_rounded_terms_does_not_blame_an_earlier_step():
    # The slide's DCG terms, each right within ±0.001, added: 13.846. On the student's own list (no
    # printed values) the sum follows from their answers; nothing earlier is off: the rounding added up.
    steps = steps_for(Exercise("ndcg", "own", rels=(3, 2, 3, 0, 1, 2)))
    answers = ["11", "7", "1.892", "3.5", "0", "0.386", "1.068", "13.846"]
    verdict = check_answers(steps, answers, tolerance=0.001)[7]
    assert verdict.status == "carried"
    assert "an earlier step is off" not in verdict.message
    assert "each right within the tolerance: their rounding adds up" in verdict.message and "13.848" in verdict.message
    answers[2] = "1.7"  # now one term is wrong: that one is to blame
    assert "an earlier step is off" in check_answers(steps, answers[:7] + ["13.654"], tolerance=0.001)[7].message


def test_cutting_early_shows_the_cut_terms_added_not_the_exact_value_cut():
    # Own list 3, 2, 3, 0, 1, 2: DCG 13.846 typed alone is the "cut to 3 decimals" mistake; its working is
    # the cut terms added, not "13.848264 -> 13.846 (cut to 3 decimals)" (13.848264 cut is 13.848).
    steps = steps_for(Exercise("ndcg", "own", rels=(3, 2, 3, 0, 1, 2)))
    verdict = check_answers(steps, [""] * 7 + ["13.846"], tolerance=0.001)[7]
    assert verdict.mistake == "truncated_3"
    assert verdict.mistaken_formula.startswith("7 + 1.892 + 3.5 + 0 + 0.386 + 1.068 = 13.846")


def test_tolerance_is_respected():
    steps = steps_for(exercise_from_preset("ap_positions_1_3_6"))
    third = steps[2]  # P@3 = 2/3
    for answer, tolerance, status in [("0.667", 0.001, "right"), ("0.67", 0.001, "wrong"), ("0.67", 0.005, "right"),
                                      ("0.66", 0.005, "wrong"), ("0.66", 0.01, "right")]:
        verdicts = check_answers([third], [answer], tolerance=tolerance)
        assert verdicts[0].status == status, (answer, tolerance)


def test_blank_and_unreadable_answers_are_not_marked_wrong():
    steps = steps_for(exercise_from_preset("ap_positions_1_3_6"))
    verdicts = check_answers(steps, ["1", "", "abc"], tolerance=0.001)
    assert [v.status for v in verdicts] == ["right", "blank", "unreadable"] + ["blank"] * 4
    assert "Cannot read 'abc'" in verdicts[2].message
    assert first_wrong(verdicts) is None
    assert summary(verdicts) == "1 of 7 steps right, 1 unreadable, 5 not answered."


def test_a_sum_is_not_carried_from_blank_terms():
    steps = steps_for(exercise_from_preset("ap_positions_1_3_6"))
    verdicts = check_answers(steps, [""] * 6 + ["0.5"], tolerance=0.001)
    assert verdicts[-1].status == "wrong"


@pytest.mark.parametrize("tolerance", [0, -0.1, math.nan, "0.001", True])
def test_bad_tolerance_raises(tolerance):
    steps = steps_for(exercise_from_preset("ap_positions_1_3_6"))
    with pytest.raises(ValueError, match="tolerance must be a positive number"):
        check_answers(steps, [], tolerance=tolerance)


def test_too_many_answers_raises():
    with pytest.raises(ValueError, match="Got 3 answers for 2 steps"):
        check_answers(steps_for(own_exercise("ap", rels=[1])), ["1", "1", "1"])


# ---------------------------------------------------------------- parsing answers


@pytest.mark.parametrize("text, value", [
    ("1.892", 1.892), (" 1.892 ", 1.892), ("1,892", 1.892), ("3/1.585", 3 / 1.585), ("2 / 3", 2 / 3),
    (".5", 0.5), ("7", 7.0), ("-0.25", -0.25), ("−0.25", -0.25), ("94.9%", 0.949), ("1e-3", 0.001),
    ("3÷4", 0.75),
])
def test_parse_answer_accepts(text, value):
    assert parse_answer(text) == pytest.approx(value)


@pytest.mark.parametrize("text", ["", "   ", None])
def test_parse_answer_blank_is_none(text):
    assert parse_answer(text) is None


@pytest.mark.parametrize("text, message", [
    ("abc", "Cannot read 'abc' as a number"), ("1,2,3", "Cannot read"), ("1/2/3", "Cannot read"),
    ("3/0", "divides by zero"), ("log2(3)", "Cannot read"),
])
def test_parse_answer_rejects(text, message):
    with pytest.raises(ValueError, match=message):
        parse_answer(text)


# ---------------------------------------------------------------- generated exercises


@pytest.mark.parametrize("kind", list(KINDS))
def test_seeds_are_reproducible_and_differ(kind):
    assert generate_exercise(1234, kind) == generate_exercise(1234, kind)
    assert steps_for(generate_exercise(1234, kind)) == steps_for(generate_exercise(1234, kind))
    exercises = {generate_exercise(seed, kind) for seed in range(20)}
    assert len(exercises) > 10


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9), kind=st.sampled_from(list(KINDS)))
def test_generated_exercises_are_well_formed(seed, kind):
    exercise = generate_exercise(seed, kind)
    steps = steps_for(exercise)
    assert all(math.isfinite(s.expected) for s in steps)
    if kind == "ndcg":
        assert 5 <= len(exercise.rels) <= 7 and max(exercise.rels) > 0
        assert list(exercise.rels) != sorted(exercise.rels, reverse=True)  # something to improve
    elif kind == "ap":
        assert any(exercise.rels) and exercise.n_relevant >= sum(exercise.rels)
    elif kind == "spearman":
        assert sorted(exercise.ranks_b) == list(exercise.ranks_a) and exercise.ranks_b != exercise.ranks_a
    verdicts = check_answers(steps, _exact_answers(steps), tolerance=1e-9)
    assert all(v.status == "right" for v in verdicts)


def test_generated_variant_is_kept():
    exercise = generate_exercise(7, "ndcg", gain="linear", discount="jarvelin")
    assert (exercise.gain, exercise.discount) == ("linear", "jarvelin")
    assert exercise.rels == generate_exercise(7, "ndcg").rels  # the variant does not change the grades


@pytest.mark.parametrize("seed", [-1, 10**9 + 1, 1.5, "12", True, None])
def test_bad_seed_raises(seed):
    with pytest.raises(ValueError, match="seed must be a whole number"):
        generate_exercise(seed, "ndcg")


# ---------------------------------------------------------------- own exercises and bad input


def test_own_exercise_rejects_bad_input():
    with pytest.raises(ValueError, match="kind must be one of"):
        own_exercise("cubic", rels=[1])
    with pytest.raises(ValueError, match="'map' take no input rels; they take rankings"):
        own_exercise("map", rels=[1])
    with pytest.raises(ValueError, match=f"at most {MAX_EXERCISE_LENGTH} ranks"):
        own_exercise("ap", rels=[1] * (MAX_EXERCISE_LENGTH + 1))
    with pytest.raises(ValueError, match="Gain must be one of linear, exponential; got 'cubic'"):
        own_exercise("ndcg", rels=[1, 0], gain="cubic")
    with pytest.raises(ValueError, match="rels"):
        own_exercise("ndcg", rels=[1, -1])  # the metric's own message
    with pytest.raises(ValueError, match="one rank in R1 and one in R2 per document"):
        own_exercise("spearman", ranks_a=[1, 2, 3], ranks_b=[1, 2])
    with pytest.raises(ValueError, match="R2 ties every document"):
        own_exercise("spearman", ranks_a=[1, 2, 3], ranks_b=[2, 2, 2])
    with pytest.raises(ValueError, match="at least 2 documents; this exercise has 1"):
        own_exercise("spearman", ranks_a=[1], ranks_b=[1])
    with pytest.raises(ValueError, match="Give Ranks in R1"):
        own_exercise("spearman", ranks_a=[], ranks_b=[])


def test_own_spearman_ranks_raw_values_and_ties():
    """Values that are not the ranks 1..K are ranked first (the smallest 1, ties sharing their average rank),
    and the d² are of those ranks: raw numbers never meet the formula."""
    steps = steps_for(own_exercise("spearman", ranks_a=[1, 5, 9], ranks_b=[1, 2, 3]))
    assert steps[0].label == "d² of d1 (s1 = 1, s2 = 1)" and steps[1].label == "d² of d2 (s1 = 2, s2 = 2)"
    assert steps[-1].expected == 1
    tied = steps_for(own_exercise("spearman", ranks_a=[1, 2, 3], ranks_b=[1, 1, 2]))
    assert tied[0].label == "d² of d1 (s1 = 1, s2 = 1.5)"


def test_unknown_preset_raises():
    with pytest.raises(ValueError, match="no steps for preset 'ndcg_limit_bad_document'"):
        exercise_from_preset("ndcg_limit_bad_document")  # a course preset that is a demonstration, not an exercise


def test_steps_for_unknown_kind_raises():
    with pytest.raises(ValueError, match="kind must be one of"):
        steps_for(Exercise("cubic", "x", rels=(1,)))


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_percentage_written_without_its_sign_is_named_at_the_precision_students_write_it(kind):
    # 0.667 written as "66.7" is 0.033 from 100 x 2/3: within the tolerance scaled to percent units.
    def fractions_of(steps):
        return [i for i, step in enumerate(steps) if 0.01 < step.expected < 0.99]

    steps = next(s for s in (steps_for(generate_exercise(seed, kind)) for seed in range(50)) if fractions_of(s))
    fractions = fractions_of(steps)
    for i in fractions:
        answers = [""] * len(steps)
        answers[i] = f"{100 * steps[i].expected:.1f}"
        verdict = check_answers(steps, answers, tolerance=0.001)[i]
        assert verdict.status == "wrong" and "percent" in verdict.mistakes, (steps[i].label, answers[i])
        assert "without the % sign" in verdict.message


def test_a_carried_ratio_or_reciprocal_over_a_zero_answer_follows_from_nothing():
    ratio = Step("P", 0.5, "1/2", uses=(0, 1), rule="ratio")
    reciprocal = Step("RR", 0.5, "1/2", uses=(0,), rule="reciprocal")
    assert ratio.from_values([1.0, 0.0]) is None and reciprocal.from_values([0.0]) is None
    assert ratio.from_values([1.0, 4.0]) == 0.25 and reciprocal.from_values([4.0]) == 0.25


def test_every_kind_names_the_metrics_it_exercises_and_their_words_reach_its_options():
    from rankviz.registry import get_spec
    from rankviz.teaching.homework import option_params
    from rankviz.teaching.homework.core import KIND_SPECS, KindSpec, register_kind

    assert all(spec.metrics for spec in KIND_SPECS.values())
    assert set(KIND_SPECS["ndcg"].metrics) == {"cumulative_gain", "dcg", "ideal_dcg", "ndcg"}
    # The nDCG exercise's gain and discount are the registry's parameters (exercises start from the
    # lecture's exponential gain); Kendall's variant too; GAUC's course words are its own.
    params = option_params("ndcg")
    assert params["gain"] is get_spec("ndcg").param("gain") and params["discount"] is get_spec("ndcg").param("discount")
    assert option_params("kendall")["variant"].label("b") == get_spec("kendall_tau").param("variant").label("b")
    assert option_params("gauc") == {}
    with pytest.raises(ValueError, match="Unknown metric 'ndgc'"):
        register_kind(KindSpec("typo", "A kind with a typo", None, None, None, metrics=("ndgc",)))
    with pytest.raises(ValueError, match="names no metric of the registry"):
        register_kind(KindSpec("none", "A kind without metrics", None, None, None))
    assert "typo" not in KIND_SPECS and "none" not in KIND_SPECS
