"""Homework kinds err (kinds/graded.py) and kendall (kinds/correlation.py): steps, presets, mistakes.

Course note 001 (Chinese notes, section "ERR (Expected reciprocal rank)") defines
ERR = Σ_r (1/r) Π_{i<r} (1 − R_i) R_r with R_i = (2^g − 1) / 2^g_max, g ∈ {0, 1, ..., g_max}, and
prints no worked example. Course notes 000/004 define the normalized Kendall tau distance at K,
K_n@K = 2 / (n(n − 1)) Σ K̄_{i,j} over the pairs of the items in either top-K list, citing
Wikipedia's "Kendall tau distance" (whose worked example is used below), and print no Kendall
exercise either. So the homework presets reuse the lecture's own exercises (the NDCG class
exercise's grades on its 0-3 scale for ERR, the SRCC class exercise's two rankings for Kendall)
with values worked out here by hand; the lecture prints neither.
"""

import math
import warnings

import pytest

from rankviz.metrics import err, kendall_tau, kendall_tau_distance, spearman_rho
from rankviz.teaching.homework import (
    HOMEWORK_PRESETS,
    MISTAKES,
    Exercise,
    check_answers,
    describe,
    exercise_from_preset,
    generate_exercise,
    stages,
    steps_for,
)

SEEDS = range(40)


def _err(rels, max_grade=3):
    return Exercise("err", "ERR", rels=tuple(rels), params={"max_grade": max_grade})


def _kendall(ranks_a, ranks_b, items=None, **params):
    items = items or tuple(f"d{i}" for i in range(1, len(ranks_a) + 1))
    return Exercise("kendall", "Kendall", items=tuple(items), ranks_a=tuple(ranks_a), ranks_b=tuple(ranks_b),
                    params={"variant": "b", **params})


def _values(steps):
    return {step.label: step.expected for step in steps}


def _index(steps, label):
    return next(i for i, step in enumerate(steps) if step.label == label)


def _verdict(steps, label, answer, answers=None):
    """The verdict of ``answer`` at step ``label`` after exact answers to every earlier step (or ``answers``)."""
    i = _index(steps, label)
    given = list(answers) if answers is not None else [repr(step.expected) for step in steps[:i]]
    return check_answers(steps, given + [answer])[i]


def _named(steps, label, answer, key, answers=None):
    verdict = _verdict(steps, label, answer, answers)
    assert verdict.status == "wrong", (label, answer, verdict.message)
    assert key in verdict.mistakes, (label, answer, verdict.message)
    assert MISTAKES[key].sentence in verdict.message
    return verdict


# ============================================================================ ERR

# Grades 2, 0, 1 on a 0-3 scale (rankviz.metrics.err's docstring example): R = 3/8, 0, 1/8;
# P(reach) = 1, 5/8, 5/8; terms 3/8, 0, (1/8)(5/8)/3 = 5/192; ERR = 3/8 + 5/192 = 0.40104.
SMALL = _err((2, 0, 1), 3)


def test_err_steps_of_a_hand_computed_example():
    steps = steps_for(SMALL)
    assert _values(steps) == pytest.approx({
        "R_1 (grade 2)": 3 / 8, "R_2 (grade 0)": 0, "R_3 (grade 1)": 1 / 8,
        "P(reach rank 1)": 1, "P(reach rank 2)": 5 / 8, "P(reach rank 3)": 5 / 8,
        "term at rank 1": 3 / 8, "term at rank 2": 0, "term at rank 3": 5 / 192,
        "ERR": 3 / 8 + 5 / 192}, abs=1e-12)
    assert steps[-1].expected == pytest.approx(err([2, 0, 1], max_grade=3), abs=1e-15)
    assert stages(steps) == ["Step 1: R_i", "Step 2: P(reach rank i)", "Step 3: R_i · P(reach) / i", "Step 4: ERR"]
    by_label = {step.label: step for step in steps}
    assert by_label["R_1 (grade 2)"].formula == r"R_1 = \frac{2^{2} - 1}{2^{3}} = \frac{3}{8} = 0.375"
    assert by_label["P(reach rank 3)"].formula == r"\prod_{j < 3} (1 - R_j) = (1 - 0.375)(1 - 0) = 0.625"
    assert by_label["term at rank 3"].formula == (r"\frac{R_3 \cdot P(\text{reach 3})}{3} = "
                                                  r"\frac{0.125 \times 0.625}{3} = 0.026")
    assert by_label["ERR"].formula == "0.375 + 0 + 0.026 = 0.401"


def test_err_preset_is_the_lecture_ndcg_exercise_on_its_0_to_3_scale():
    # Lecture 002, "Class Exercise - Compute DCG": grades 3, 2, 3, 0, 1, 2 on a 0-3 scale (NDCG 0.949 there).
    # With note 001's R_i and g_max = 3: R = 7/8, 3/8, 7/8, 0, 1/8, 3/8;
    # P(reach) = 1, 1/8, 1/8 x 5/8 = 5/64, 5/64 x 1/8 = 5/512, 5/512, 5/512 x 7/8 = 35/4096;
    # ERR = 7/8 + (3/8)(1/8)/2 + (7/8)(5/64)/3 + 0 + (1/8)(5/512)/5 + (3/8)(35/4096)/6 = 0.92200.
    assert HOMEWORK_PRESETS["err_ndcg_exercise"] == "err"
    exercise = exercise_from_preset("err_ndcg_exercise")
    assert exercise.rels == (3, 2, 3, 0, 1, 2) and exercise.param("max_grade") == 3
    assert "print no ERR" in exercise.note and exercise.source
    values = _values(steps_for(exercise))
    reach = [1, 1 / 8, 5 / 64, 5 / 512, 5 / 512, 35 / 4096]
    assert [values[f"P(reach rank {r})"] for r in range(1, 7)] == pytest.approx(reach, abs=1e-15)
    expected = 7 / 8 + (3 / 8) * (1 / 8) / 2 + (7 / 8) * (5 / 64) / 3 + 0 + (1 / 8) * (5 / 512) / 5 + (
        3 / 8) * (35 / 4096) / 6
    assert values["ERR"] == pytest.approx(expected, abs=1e-12)
    assert round(values["ERR"], 3) == 0.922


def test_err_g_max_is_the_scale_not_the_list():
    # The same grades on a 0-4 scale: R_1 = 3/16, not 3/8: ERR depends on the scale, not on the list's top.
    assert _values(steps_for(_err((2, 0, 1), 4)))["R_1 (grade 2)"] == 3 / 16
    verdict = _named(steps_for(SMALL), "R_1 (grade 2)", "3/4", "err_gmax_from_list")  # g_max = 2 taken from the list
    assert r"2^{2}" in verdict.mistaken_formula
    # The list holding the scale's top grade: the mistake cannot be made, so it is never named.
    steps = steps_for(_err((3, 0, 1), 3))
    assert not any(a.mistake == "err_gmax_from_list" for step in steps for a in step.alternatives)


def test_err_reach_forgotten():
    steps = steps_for(SMALL)
    _named(steps, "P(reach rank 2)", "1", "err_reach_forgotten")
    # ERR written straight away as Σ R_i / i = 3/8 + 0 + (1/8)/3 = 0.4167, the earlier steps left blank.
    answers = [""] * (len(steps) - 1)
    verdict = _named(steps, "ERR", repr(3 / 8 + 1 / 24), "err_reach_forgotten", answers)
    assert verdict.mistake == "err_reach_forgotten"


def test_err_reach_including_its_own_rank():
    # P(reach rank 1) = 1 - R_1 = 5/8: the rank's own (1 - R_i) multiplied in.
    _named(steps_for(SMALL), "P(reach rank 1)", "0.625", "err_reach_includes_own_rank")


def test_err_stop_probability_mistakes():
    steps = steps_for(SMALL)
    _named(steps, "R_1 (grade 2)", "2/3", "err_linear_stop_probability")  # g / g_max
    _named(steps, "R_1 (grade 2)", "3/7", "err_divided_by_2_gmax_minus_1")  # (2^2 - 1) / (2^3 - 1)
    _named(steps, "R_1 (grade 2)", "4/8", "err_without_minus_one")  # 2^2 / 2^3
    _named(steps, "R_2 (grade 0)", "1/8", "err_without_minus_one")  # 2^0 / 2^3: a grade 0 that satisfies


def test_err_without_the_reciprocal_rank():
    # Term at rank 3 without the 1/3: (1/8)(5/8) = 0.078.
    _named(steps_for(SMALL), "term at rank 3", "0.078125", "err_without_reciprocal_rank")


def test_err_carries_the_students_own_values_forward():
    steps = steps_for(SMALL)
    # R_1 written as 0.4 (wrong): P(reach 2) = 1 - 0.4 = 0.6 and term 1 = 0.4 x 1 / 1 follow from it.
    answers = ["0.4", "0", "0.125", "1", "0.6", "0.6", "0.4", "0", repr(0.125 * 0.6 / 3), repr(0.4 + 0.025)]
    verdicts = check_answers(steps, answers)
    assert [v.status for v in verdicts] == ["wrong", "right", "right", "right", "carried", "carried", "carried",
                                            "right", "carried", "carried"]
    assert all(v.mistake is None for v in verdicts[1:])


def test_err_right_answers_name_no_mistake():
    steps = steps_for(exercise_from_preset("err_ndcg_exercise"))
    verdicts = check_answers(steps, [repr(step.expected) for step in steps])
    assert all(v.status == "right" and v.mistake is None for v in verdicts)


def test_err_generated_exercises():
    for max_grade in (3, 4):
        seen_top = seen_without_top = 0
        for seed in SEEDS:
            exercise = generate_exercise(seed, "err", max_grade=max_grade)
            assert exercise.title == f"Practice exercise {seed}: Expected reciprocal rank (ERR)"
            assert 4 <= len(exercise.rels) <= 6 and exercise.param("max_grade") == max_grade
            assert all(0 <= g <= max_grade for g in exercise.rels) and sum(g > 0 for g in exercise.rels) >= 2
            assert len(steps_for(exercise)) <= 19
            seen_top += max(exercise.rels) == max_grade
            seen_without_top += max(exercise.rels) < max_grade
        assert seen_top and seen_without_top  # g_max is sometimes in the list, sometimes not
    assert "0–4 scale (g_max = 4)" in describe(generate_exercise(1, "err", max_grade=4))


@pytest.mark.parametrize(("exercise", "message"), [
    (Exercise("err", "x", rels=(2, 0, 1)), "needs max_grade, the top of its grading scale"),
    (_err((2, 0, 1), 0), "a whole number >= 1"),
    (_err((2, 0, 1), 2.5), "a whole number >= 1"),
    (_err((2, 0, 4), 3), "g_max = 3 is below the grade 4 of the list"),
    (_err((1,) * 101, 3), "at most 100 ranks"),
    (_err((1, -1), 3), "non-negative"),
])
def test_err_bad_input_is_named(exercise, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        steps_for(exercise)


def test_err_bad_option():
    with pytest.raises(ValueError, match="max_grade must be one of 3, 4; got 5"):
        generate_exercise(1, "err", max_grade=5)


# ============================================================================ Kendall

# Wikipedia, "Kendall tau distance" (course notes 000/004's reference 2): τ1 = 1 2 3 4 5, τ2 = 3 4 1 2 5;
# "the Kendall tau distance is 4", normalized 4 / (5 x 4 / 2) = 0.4. As ranks of d1..d5 in τ2: 3, 4, 1, 2, 5.
WIKIPEDIA = _kendall((1, 2, 3, 4, 5), (3, 4, 1, 2, 5), k=5)

# Two top-3 lists sharing one item: R1 = a b c d e, R2 = d e a b c. Union {a, b, c, d, e}, 10 pairs:
# (b, c) and (d, e) both missing from the other list: p = 0.5 each; (a, d), (a, e): 1 each (R1 holds only a,
# so ranks it first; R2 puts d and e first); (b, d), (b, e), (c, d), (c, e): each only in a different list,
# 1 each; (a, b), (a, c): R2 holds only a, ranks it first, as R1 does: 0. Σ = 0.5 + 0.5 + 2 + 4 = 7, K_n = 0.7.
TOP_K = _kendall((1, 2, 3, 4, 5), (3, 4, 5, 1, 2), items=tuple("abcde"), k=3)

# Ties: R1 = 1 2 3 4 5, R2 = 2 1 3.5 3.5 5: (d1, d2) discordant, (d3, d4) tied in R2, 8 pairs concordant.
# tau-b = (8 - 1) / sqrt((10 - 0)(10 - 1)) = 0.7379, tau-a = 7 / 10.
TIED = _kendall((1, 2, 3, 4, 5), (2, 1, 3.5, 3.5, 5))


def test_kendall_wikipedia_example():
    steps = steps_for(WIKIPEDIA)
    assert _values(steps) == {
        "n0 = n(n − 1)/2 (all pairs)": 10, "D (discordant pairs)": 4, "C (concordant pairs)": 6,
        "τ_b (Kendall)": pytest.approx(0.2), "n (items in the union of the two top-5 lists)": 5,
        "pairs of the union n(n − 1)/2": 10, "Σ of the pair penalties": 4,
        "K_n@5 (normalized Kendall tau distance)": 0.4}
    assert steps[1].formula == r"\text{(d1, d3), (d1, d4), (d2, d3), (d2, d4)} \Rightarrow D = 4"
    assert stages(steps) == ["Step 1: pairs", "Step 2: τ_b", "Step 3: the top-5 lists", "Step 4: pair penalties",
                             "Step 5: K_n@5"]
    # Same items in both lists: the distance is (1 - tau_a) / 2.
    assert (1 - kendall_tau([1, 2, 3, 4, 5], [3, 4, 1, 2, 5], "a")) / 2 == pytest.approx(0.4)


def test_kendall_preset_is_the_srcc_class_exercise():
    # Lecture 002, "SRCC - class exercise": R2 = 2, 3, 1, 5, 4, 7, 8, 10, 6, 9 (rho = 0.854 on the slide).
    # Discordant pairs (inversions of R2): (d123, d56), (d84, d56), (d6, d8), (d9, d187), (d511, d187),
    # (d129, d187), (d129, d25): D = 7, C = 45 - 7 = 38, tau = 31/45 = 0.689 (tau-a = tau-b: no ties).
    # Top 5: R1 d123 d84 d56 d6 d8, R2 d56 d123 d84 d8 d6: the same five documents; discordant among them:
    # (d123, d56), (d84, d56), (d6, d8): K_n@5 = 3/10.
    assert HOMEWORK_PRESETS["kendall_srcc_exercise"] == "kendall"
    exercise = exercise_from_preset("kendall_srcc_exercise")
    values = _values(steps_for(exercise))
    assert values["D (discordant pairs)"] == 7 and values["C (concordant pairs)"] == 38
    assert values["τ_b (Kendall)"] == pytest.approx(31 / 45) and round(31 / 45, 3) == 0.689
    assert values["K_n@5 (normalized Kendall tau distance)"] == pytest.approx(0.3)
    assert "not Kendall's tau" in exercise.note
    # The slide's own number stays with the Spearman preset of the same rankings.
    assert round(spearman_rho(exercise.ranks_a, exercise.ranks_b), 4) == 0.8545


def test_kendall_distance_with_documents_missing_from_a_top_k_list():
    steps = steps_for(TOP_K)
    values = _values(steps)
    assert values["n (items in the union of the two top-3 lists)"] == 5
    assert values["pairs of the union n(n − 1)/2"] == 10
    assert values["Σ of the pair penalties"] == 7
    assert values["K_n@3 (normalized Kendall tau distance)"] == pytest.approx(0.7)
    assert values["K_n@3 (normalized Kendall tau distance)"] == kendall_tau_distance(list("abcde"), list("deabc"), 3)
    penalties = steps[_index(steps, "Σ of the pair penalties")].formula
    assert penalties == (r"\text{penalty 1: (a, d), (a, e), (b, d), (b, e), (c, d), (c, e)};\ "
                         r"\text{penalty 0.5: (b, c), (d, e)};\ 6 \times 1 + 2 \times 0.5 = 7")
    text = describe(TOP_K)
    assert "top-3 lists (R1: a, b, c; R2: d, e, a)" in text and "p = 0.5" in text


def test_kendall_tau_b_with_ties_against_scipy():
    from scipy.stats import kendalltau

    for variant in ("b", "a"):
        steps = steps_for(_kendall((1, 2, 3, 4, 5), (2, 1, 3.5, 3.5, 5), variant=variant))
        values = _values(steps)
        assert values["n1 (pairs tied in R1)"] == 0 and values["n2 (pairs tied in R2)"] == 1
        assert values["C (concordant pairs)"] == 8 and values["D (discordant pairs)"] == 1
        tau = values[f"τ_{variant}"" (Kendall)"]
        assert tau == pytest.approx(7 / math.sqrt(10 * 9) if variant == "b" else 7 / 10)
        if variant == "b":  # scipy's kendalltau is tau-b
            assert tau == pytest.approx(kendalltau([1, 2, 3, 4, 5], [2, 1, 3.5, 3.5, 5]).statistic)
        # No distance part for rankings with ties: their top-K lists are not defined.
        assert not any(label.startswith("K_n") for label in values)


def test_kendall_tau_variant_mistakes():
    _named(steps_for(TIED), "τ_b (Kendall)", "0.7", "kendall_tau_a_for_tau_b")
    _named(steps_for(_kendall((1, 2, 3, 4, 5), (2, 1, 3.5, 3.5, 5), variant="a")), "τ_a (Kendall)",
           repr(7 / math.sqrt(90)), "kendall_tau_b_for_tau_a")
    # Without ties both taus agree: the mistake cannot be told apart, so it is never named.
    assert not any(a.mistake == "kendall_tau_a_for_tau_b" for step in steps_for(WIKIPEDIA) for a in step.alternatives)


def test_kendall_ties_counted_as_concordant_or_discordant():
    steps = steps_for(TIED)
    _named(steps, "C (concordant pairs)", "9", "kendall_ties_as_concordant")
    _named(steps, "D (discordant pairs)", "2", "kendall_ties_as_discordant")
    # tau written straight from C = 9: (9 - 1) / sqrt(90).
    blank = [""] * _index(steps, "τ_b (Kendall)")
    _named(steps, "τ_b (Kendall)", repr(8 / math.sqrt(90)), "kendall_ties_as_concordant", blank)


def test_kendall_gamma_swapped_and_doubled_pairs():
    steps = steps_for(TIED)
    _named(steps, "τ_b (Kendall)", repr(7 / 9), "kendall_gamma")  # (C - D) / (C + D)
    _named(steps, "C (concordant pairs)", "1", "kendall_concordant_discordant_swapped")
    _named(steps, "n0 = n(n − 1)/2 (all pairs)", "20", "kendall_pairs_not_halved")
    blank = [""] * _index(steps, "τ_b (Kendall)")
    _named(steps, "τ_b (Kendall)", repr(7 / math.sqrt(20 * 19)), "kendall_pairs_not_halved", blank)


def test_kendall_distance_mistakes():
    steps = steps_for(TOP_K)
    distance = "K_n@3 (normalized Kendall tau distance)"
    _named(steps, distance, "7", "kendall_distance_not_normalized")
    _named(steps, distance, "7/3", "kendall_distance_k_pairs")  # K(K - 1)/2 = 3 pairs
    _named(steps, "pairs of the union n(n − 1)/2", "20", "kendall_pairs_not_halved")
    _named(steps, "pairs of the union n(n − 1)/2", "3", "kendall_distance_k_pairs")
    _named(steps, "Σ of the pair penalties", "8", "kendall_distance_missing_penalty_one")
    _named(steps, "Σ of the pair penalties", "6", "kendall_distance_missing_penalty_zero")
    _named(steps, "Σ of the pair penalties", "0", "kendall_distance_missing_pairs_free")
    blank = [""] * _index(steps, distance)
    _named(steps, distance, "0.6", "kendall_distance_whole_rankings", blank)  # D / n0 = 6 / 10 over all 5
    # Documents in both top-3 lists of the Wikipedia-like example R2 = 2 1 4 3 5 6 at K = 3: R1 d1 d2 d3,
    # R2 d2 d1 d4: common d1, d2 (1 pair, discordant: 1/1); the union d1..d4 gives 6 pairs.
    steps = steps_for(_kendall((1, 2, 3, 4, 5, 6), (2, 1, 4, 3, 5, 6), k=3))
    assert _values(steps)["n (items in the union of the two top-3 lists)"] == 4
    _named(steps, "n (items in the union of the two top-3 lists)", "2", "kendall_distance_common_documents_only")
    blank = [""] * _index(steps, distance)
    _named(steps, distance, "1", "kendall_distance_common_documents_only", blank)


def test_kendall_right_answers_name_no_mistake():
    for exercise in (WIKIPEDIA, TOP_K, TIED, exercise_from_preset("kendall_srcc_exercise")):
        steps = steps_for(exercise)
        verdicts = check_answers(steps, [repr(step.expected) for step in steps])
        assert all(v.status == "right" and v.mistake is None for v in verdicts)


def test_kendall_carries_the_students_counts_forward():
    steps = steps_for(WIKIPEDIA)
    # D miscounted as 3, C = 7 from it: tau = (7 - 3) / 10 follows from the student's own counts.
    answers = ["10", "3", "7", "0.4"]
    assert [v.status for v in check_answers(steps, answers)][:4] == ["right", "wrong", "wrong", "carried"]


def test_kendall_generated_exercises():
    with_ties = without_ties = 0
    for variant in ("b", "a"):
        for seed in SEEDS:
            exercise = generate_exercise(seed, "kendall", variant=variant)
            n = len(exercise.items)
            assert 5 <= n <= 7 and exercise.param("variant") == variant
            assert exercise.ranks_a != exercise.ranks_b  # never the same ranking twice
            ties = len(set(exercise.ranks_a)) < n or len(set(exercise.ranks_b)) < n
            if ties:
                with_ties += 1
                assert exercise.param("k") is None
            else:
                without_ties += 1
                assert 3 <= exercise.param("k") <= n - 2
            steps = steps_for(exercise)
            assert len(steps) <= 20 and len({step.label for step in steps}) == len(steps)
            assert all(math.isfinite(step.expected) for step in steps)
    assert with_ties and without_ties


@pytest.mark.parametrize(("exercise", "message"), [
    (_kendall((1, 2, 3), (1, 2)), "Give one rank in R1 and one in R2 per document: 3 documents, 3 ranks in R1 and 2"),
    (_kendall((1, 2, 3), (1, 3, 2), items=("a", "a", "b")), "Each document must be named once"),
    (_kendall((1, 2), (2, 1)), "at least 3 documents"),
    (_kendall((1, 2, 3), (2, 2, 2)), "R2 ties every document"),
    (_kendall((1, 2, 3), (1, 3, 2), variant="c"), "must be 'b' \\(tau-b\\) or 'a' \\(tau-a\\); got 'c'"),
    (_kendall((1, 2, 3), (1, 3, 2), k=4), "whole number from 2 to 3"),
    (_kendall((1, 2, 3), (1, 2.5, 2.5), k=2), "give rankings without ties"),
    (_kendall((1, 2, 3), (1, 3, 2), k=2, penalty=2), "number from 0 to 1; got 2"),
    (_kendall(tuple(range(101)), tuple(range(101))), "at most 100 documents"),
])
def test_kendall_bad_input_is_named(exercise, message):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a refused exercise never reaches the metric's NaN warning
        with pytest.raises(ValueError, match=message):
            steps_for(exercise)


def test_kendall_bad_option():
    with pytest.raises(ValueError, match="variant must be one of b, a; got 'c'"):
        generate_exercise(1, "kendall", variant="c")
