"""Homework kinds map, gmap, interpolated_map and eleven_point (rankviz.teaching.homework.kinds.means).

Course lecture 002 (../shared/course/002_0700abc891719c11.txt):

* "MAP - An example": q1 (relevant at ranks 1, 3, 6, 10, 15; R = 10) and q2 (ranks 3, 8, 15;
  R = 3); the slide's per-query "MAP" is the mean of interpolated precision at recall 0.1, ...,
  1.0: q1 (1 + 0.66 + 0.5 + 0.4 + 0.33 + 0 x 5) / 10 = 0.28, q2 (0.33 x 3 + 0.25 x 3 + 0.2 x 4)
  / 10 = 0.254, MAP (0.28 + 0.254) / 2 = 0.267.
* "GMAP - example": Run 1 AP 0.05, 0.10, 0.50, 0.50, 0.75 and Run 2 0.10, 0.30, 0.45, 0.45,
  0.60: both MAP 0.38; GMAP 0.25 and 0.33.

Hand values are written as formulas with their input in a comment.
"""

import math
from dataclasses import replace

import pytest

from rankviz.metrics import (
    average_precision,
    eleven_point_precision,
    geometric_mean_average_precision,
    harmonic_mean_average_precision,
    interpolated_average_precision,
    mean_average_precision,
)
from rankviz.teaching.homework import (
    MISTAKES,
    Exercise,
    check_answers,
    describe,
    exercise_from_preset,
    generate_exercise,
    stages,
    steps_for,
)

Q1 = (1, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1)  # relevant at 1, 3, 6, 10, 15; R = 10
Q2 = (0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1)  # relevant at 3, 8, 15; R = 3
RUN_1 = (0.05, 0.10, 0.50, 0.50, 0.75)
RUN_2 = (0.10, 0.30, 0.45, 0.45, 0.60)
TEN_MEAN = "interpolated MAP (mean of the 10 levels)"
ELEVEN_MEAN = "11-point average"


def _values(steps):
    return {step.label: step.expected for step in steps}


def _verdict(steps, label, answer, tolerance=0.001, before=None):
    """The verdict of ``answer`` at step ``label``, the steps before it answered exactly (or ``before``)."""
    i = next(i for i, step in enumerate(steps) if step.label == label)
    answers = [repr(step.expected) for step in steps[:i]] if before is None else list(before)
    return check_answers(steps, answers + [""] * (i - len(answers)) + [answer], tolerance)[i]


def values_index(steps, label):
    return next(i for i, step in enumerate(steps) if step.label == label)


def _named(verdict, key):
    assert verdict.status == "wrong", verdict.message
    assert key in verdict.mistakes, verdict.message
    assert MISTAKES[key].sentence.split("{asked}")[0] in verdict.message
    return verdict


def _map_exercise(rankings, n_relevant, **params):
    return Exercise("map", "MAP", params={"rankings": rankings, "n_relevant": n_relevant, **params})


# ---------------------------------------------------------------------------- course presets


def test_gmap_runs_reproduce_the_slide():
    # "GMAP - example": both MAP 0.38; GMAP 0.25 and 0.33, the exact 0.2480 and 0.3253 rounded to 2 decimals.
    values = _values(steps_for(exercise_from_preset("gmap_runs")))
    assert values["Run 1: MAP"] == pytest.approx(1.9 / 5) == pytest.approx(0.38)  # 0.05 + 0.1 + 0.5 + 0.5 + 0.75
    assert values["Run 2: MAP"] == pytest.approx(1.9 / 5)  # 0.1 + 0.3 + 0.45 + 0.45 + 0.6
    assert values["Run 1: Σ ln AP"] == pytest.approx(sum(map(math.log, RUN_1)))
    assert values["Run 1: GMAP"] == pytest.approx((0.05 * 0.10 * 0.50 * 0.50 * 0.75) ** (1 / 5))
    assert values["Run 2: GMAP"] == pytest.approx((0.10 * 0.30 * 0.45 * 0.45 * 0.60) ** (1 / 5))
    assert round(values["Run 1: GMAP"], 2) == 0.25 and round(values["Run 2: GMAP"], 2) == 0.33
    assert values["Run 1: Σ 1/AP"] == pytest.approx(20 + 10 + 2 + 2 + 4 / 3)
    assert values["Run 1: HMAP"] == pytest.approx(5 / (20 + 10 + 2 + 2 + 4 / 3))
    assert values["Run 2: HMAP"] == pytest.approx(5 / (10 + 10 / 3 + 2 * 20 / 9 + 5 / 3))
    for run, aps in (("Run 1", RUN_1), ("Run 2", RUN_2)):
        assert values[f"{run}: MAP"] == pytest.approx(mean_average_precision(aps))
        assert values[f"{run}: GMAP"] == pytest.approx(geometric_mean_average_precision(aps))
        assert values[f"{run}: HMAP"] == pytest.approx(harmonic_mean_average_precision(aps))


def _without_printed(key):
    """The steps of course exercise ``key`` as if the notes printed nothing (a practice exercise's marking)."""
    return steps_for(replace(exercise_from_preset(key), printed={}))


def test_the_slides_gmap_is_rounded_to_two_decimals():
    steps = steps_for(exercise_from_preset("gmap_runs"))
    verdict = _verdict(steps, "Run 1: GMAP", "0.25")  # the slide's own value: recognised with its reason
    assert verdict.status == "printed" and "print GMAP to 2 decimals (exact 0.248)" in verdict.message
    verdict = _named(_verdict(_without_printed("gmap_runs"), "Run 1: GMAP", "0.25"), "rounded_2")
    assert verdict.mistakes == ("rounded_2",)
    assert _verdict(steps, "Run 2: GMAP", "0.33", tolerance=0.005).status == "right"


def test_interpolated_map_q1_reproduces_the_slide():
    # "MAP - An example" for q1: recall 0.1..0.5 reached at ranks 1, 3, 6, 10, 15; 0.6..1.0 never (R = 10).
    steps = steps_for(exercise_from_preset("interpolated_map_q1"))
    assert [step.expected for step in steps[:10]] == pytest.approx([1, 2 / 3, 3 / 6, 4 / 10, 5 / 15, 0, 0, 0, 0, 0])
    assert steps[-1].label == TEN_MEAN
    assert steps[-1].expected == pytest.approx((1 + 2 / 3 + 1 / 2 + 2 / 5 + 1 / 3) / 10)
    assert steps[-1].expected == pytest.approx(interpolated_average_precision(Q1, n_relevant=10))
    assert round(steps[-1].expected, 3) == 0.29


def test_the_slides_q1_value_is_the_truncated_2_mistake():
    # The slide writes 2/3 as 0.66 and 1/3 as 0.33 (cut to 2 decimals), sums to 2.89, and prints 0.289 cut to
    # 2 decimals: 0.28. That is the catalogued mistake truncated_2 step for step, and the checker names it.
    steps = _without_printed("interpolated_map_q1")
    truncated = [next(a.step.expected for a in step.alternatives if a.mistake == "truncated_2")
                 if any(a.mistake == "truncated_2" for a in step.alternatives) else step.expected for step in steps]
    assert truncated[:10] == pytest.approx([1, 0.66, 0.5, 0.4, 0.33, 0, 0, 0, 0, 0])
    assert truncated[-1] == pytest.approx(0.28)
    verdict = _named(_verdict(steps, TEN_MEAN, "0.28"), "truncated_2")
    assert verdict.mistakes == ("truncated_2",)  # no other mistake gives 0.28
    # The slide's own rows, then its 0.28: 0.66 is named truncated_2 alone (rounding gives 0.67), 0.33 could be
    # either rounding mistake, and 0.28 still is truncated_2 (the rows give 0.289).
    slide_rows = ["1", "0.66", "0.5", "0.4", "0.33", "0", "0", "0", "0", "0", "0.28"]
    verdicts = check_answers(steps, slide_rows)
    assert verdicts[1].mistakes == ("truncated_2",)
    assert set(verdicts[4].mistakes) == {"truncated_2", "rounded_2"} and "cannot tell" in verdicts[4].message
    assert verdicts[-1].mistake == "truncated_2"
    # On the course exercise itself the slide's numbers are recognised as the notes' (rounded, so right).
    verdicts = check_answers(steps_for(exercise_from_preset("interpolated_map_q1")), slide_rows)
    assert [verdicts[i].status for i in (1, 4, 10)] == ["printed"] * 3
    assert "cuts 0.289 to 0.28 (exact 0.29)" in verdicts[-1].message


def test_interpolated_map_q2_reproduces_the_slide():
    # "MAP - An example" for q2 (R = 3): 1/3 at 0.1..0.3 (rank 3), 2/8 at 0.4..0.6 (rank 8), 3/15 at 0.7..1.0.
    steps = steps_for(exercise_from_preset("interpolated_map_q2"))
    assert [step.expected for step in steps[:10]] == pytest.approx([1 / 3] * 3 + [2 / 8] * 3 + [3 / 15] * 4)
    exact = (3 * 1 / 3 + 3 * 2 / 8 + 4 * 3 / 15) / 10
    assert steps[-1].expected == pytest.approx(exact) == pytest.approx(0.255)
    assert steps[-1].expected == pytest.approx(interpolated_average_precision(Q2, n_relevant=3))


def test_the_slides_q2_value_keeps_three_decimals():
    # The slide writes 1/3 as 0.33 and prints the mean (0.99 + 0.75 + 0.8) / 10 = 0.254 with 3 decimals (unlike
    # q1, whose mean it cut to 2). 0.254 is 0.001 from the exact 0.255: right at the default tolerance.
    steps = steps_for(exercise_from_preset("interpolated_map_q2"))
    assert _verdict(steps, TEN_MEAN, "0.254").status == "right"
    # At a tighter tolerance it is the notes' value: 1/3 taken as 0.33.
    slide_rows = ["0.33"] * 3 + ["0.25"] * 3 + ["0.2"] * 4
    verdicts = check_answers(steps, slide_rows + ["0.254"], tolerance=0.0005)
    assert [v.status for v in verdicts] == ["printed"] * 3 + ["right"] * 7 + ["printed"]
    assert "1/3 taken as 0.33 (exact 0.255)" in verdicts[-1].message
    # Marked as a practice exercise would be: named rounding mistakes, and the mean follows from the rows.
    steps = _without_printed("interpolated_map_q2")
    verdicts = check_answers(steps, slide_rows + ["0.254"], tolerance=0.0005)
    assert set(verdicts[0].mistakes) == {"truncated_2", "rounded_2"}
    assert verdicts[-1].status == "carried"
    # truncated_2 would cut the mean to 0.25; it is cutting 1/3 to 0.333 (truncated_3) that gives 0.2549 -> 0.254.
    alternatives = {a.mistake: a.step.expected for a in steps[-1].alternatives}
    assert alternatives["truncated_2"] == pytest.approx(0.25)
    assert alternatives["truncated_3"] == pytest.approx(0.254)
    assert "truncated_3" in _verdict(steps, TEN_MEAN, "0.254", tolerance=0.0005).mistakes


def test_map_q1_q2_uses_non_interpolated_ap_and_the_slides_mean_follows_from_its_values():
    steps = steps_for(exercise_from_preset("map_q1_q2"))
    values = _values(steps)
    assert [label for label in values if ": P@" in label] == [
        "q1: P@1", "q1: P@3", "q1: P@6", "q1: P@10", "q1: P@15", "q2: P@3", "q2: P@8", "q2: P@15"]
    assert values["AP of q1"] == pytest.approx((1 / 1 + 2 / 3 + 3 / 6 + 4 / 10 + 5 / 15) / 10)  # 5 never retrieved: 0
    assert values["AP of q2"] == pytest.approx((1 / 3 + 2 / 8 + 3 / 15) / 3)
    assert values["MAP"] == pytest.approx((values["AP of q1"] + values["AP of q2"]) / 2) == pytest.approx(0.2756, abs=1e-4)
    # The slide's 0.267 averages its interpolated per-query values 0.28 and 0.254 (see the interpolated_map
    # presets): the MAP step applied to them gives it, so a student copying the slide is carried, not wrong.
    mean = steps[-1]
    assert round(mean.from_values([0.28 if i == mean.uses[0] else 0.254 for i in range(len(steps))]), 3) == 0.267
    answers = [""] * len(steps)
    answers[mean.uses[0]], answers[mean.uses[1]], answers[-1] = "0.28", "0.254", "0.267"
    assert check_answers(steps, answers)[-1].status == "carried"


def test_eleven_point_presets():
    # q2: levels 0.0..0.3 give 1/3, 0.4..0.6 give 2/8, 0.7..1.0 give 3/15 (R = 3).
    q2 = _values(steps_for(exercise_from_preset("eleven_point_q2")))
    assert q2[ELEVEN_MEAN] == pytest.approx((4 / 3 + 3 * 2 / 8 + 4 * 3 / 15) / 11) == pytest.approx(0.262, abs=5e-4)
    assert q2["P_interp(0.0)"] == pytest.approx(1 / 3)
    # q1: level 0.0 and 0.1 give 1, then 2/3, 3/6, 4/10, 5/15 and five levels never reached (R = 10).
    q1 = _values(steps_for(exercise_from_preset("eleven_point_q1")))
    assert q1[ELEVEN_MEAN] == pytest.approx((1 + 1 + 2 / 3 + 1 / 2 + 2 / 5 + 1 / 3) / 11)
    assert q1[ELEVEN_MEAN] == pytest.approx(eleven_point_precision(Q1, n_relevant=10))


# ---------------------------------------------------------------------------- worked examples


def test_map_counts_a_query_that_retrieved_nothing_relevant():
    # q1: 1, 0, 1 with R = 2: (1 + 2/3) / 2; q2: 0, 0, 0 with R = 1: AP 0 (its relevant document adds 0).
    steps = steps_for(_map_exercise(((1, 0, 1), (0, 0, 0)), (2, 1)))
    values = _values(steps)
    assert values["AP of q1"] == pytest.approx((1 + 2 / 3) / 2)
    assert values["AP of q2"] == 0
    assert values["MAP"] == pytest.approx((1 + 2 / 3) / 2 / 2)
    assert stages(steps) == ["Step 1: AP of q1", "Step 2: AP of q2", "Step 3: MAP"]
    assert steps[-1].formula == r"\frac{1}{2}\left(0.833 + 0\right) = 0.417"
    ap_q2 = steps[values_index(steps, "AP of q2")]
    assert ap_q2.formula == r"\frac{1}{1}\left(0\right) = 0"


def test_map_query_names_and_unretrieved_zeros_in_the_formula():
    steps = steps_for(_map_exercise(((0, 1),), (3,), queries=("cats",)))
    assert [step.label for step in steps] == ["cats: P@2", "AP of cats", "MAP"]
    assert steps[1].formula == r"\frac{1}{3}\left(0.5 + 0 + 0\right) = 0.167"
    assert steps[1].expected == pytest.approx(average_precision((0, 1), n_relevant=3))


def test_interpolation_takes_the_best_precision_further_down():
    # Relevant at 2, 4, 5 of 8, R = 4: P = 1/2, 2/4, 3/5. Recall 0.1 needs 1 relevant (from rank 2): max = 3/5.
    exercise = Exercise("interpolated_map", "x", rels=(0, 1, 0, 1, 1, 0, 0, 0), n_relevant=4)
    steps = steps_for(exercise)
    # 0.1 to 0.7 need at most ceil(0.7 x 4) = 3 relevant (rank 5); 0.8 x 4 = 3.2 needs 4, never retrieved.
    assert [step.expected for step in steps[:10]] == pytest.approx([3 / 5] * 7 + [0, 0, 0])
    assert steps[0].formula == (r"\text{recall} \ge 0.1: \text{1 of 4 relevant from rank 2} \Rightarrow "
                                r"\max\left(\frac{1}{2}, \frac{2}{4}, \frac{3}{5}\right) = 0.6")
    assert steps[-2].formula == r"\text{recall} \ge 1.0: \text{no rank has 4 of the 4 relevant} \Rightarrow 0"
    assert stages(steps) == ["Step 1: interpolated precision at each recall level", "Step 2: the mean"]


def test_gmap_carries_the_students_own_sum_of_logs():
    steps = steps_for(exercise_from_preset("gmap_runs"))
    i = values_index(steps, "Run 1: Σ ln AP")
    answers = ["0.38", "0.38", "-7.0", repr(math.exp(-7.0 / 5))]  # a slip in the sum, GMAP right from it
    verdicts = check_answers(steps, answers)
    assert verdicts[i].status == "wrong" and verdicts[i + 1].status == "carried"
    j = values_index(steps, "Run 1: Σ 1/AP")
    answers = [""] * j + ["35", "5/35"]  # HMAP = n / Σ 1/AP from their own 35
    assert check_answers(steps, answers)[j + 1].status == "carried"


def test_descriptions_say_what_is_given():
    text = describe(exercise_from_preset("gmap_runs"))
    # One row per topic (a phone shows every column): Topic 1 is 0.05 in Run 1 and 0.1 in Run 2.
    assert "| topic | Run 1 AP | Run 2 AP |" in text and "| Topic 1 | 0.05 | 0.1 |" in text and "\n\n|" in text
    text = describe(exercise_from_preset("map_q1_q2"))
    assert "| q2 | 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1 | 3 |" in text and "never retrieved adds 0" in text
    assert "0.1, 0.2, ..., 1.0" in describe(exercise_from_preset("interpolated_map_q2"))
    assert "0.0, 0.1, ..., 1.0" in describe(exercise_from_preset("eleven_point_q2"))


# ---------------------------------------------------------------------------- mistakes, each with a concrete answer


def test_map_mistakes():
    steps = steps_for(exercise_from_preset("map_q1_q2"))
    # q1's P@i add up to 1 + 2/3 + 3/6 + 4/10 + 5/15 = 2.9.
    _named(_verdict(steps, "AP of q1", "0.58"), "map_ap_divided_by_retrieved_relevant")  # 2.9 / 5, not / 10
    _named(_verdict(steps, "AP of q1", repr(2.9 / 15)), "map_ap_divided_by_k")  # 15 ranked documents
    every_rank = sum(sum(Q1[:i]) / i for i in range(1, 16)) / 15  # P@1 .. P@15 of q1, relevant or not
    _named(_verdict(steps, "AP of q1", repr(every_rank)), "map_ap_every_rank")
    ap1, ap2 = (1 + 2 / 3 + 1 / 2 + 2 / 5 + 1 / 3) / 10, (1 / 3 + 2 / 8 + 3 / 15) / 3
    _named(_verdict(steps, "MAP", repr(ap1 + ap2)), "map_not_divided")
    pooled = (2.9 + 1 / 3 + 2 / 8 + 3 / 15) / (10 + 3)
    _named(_verdict(steps, "MAP", repr(pooled)), "map_pooled")
    right = [repr(step.expected) for step in steps]
    assert all(verdict.mistake is None for verdict in check_answers(steps, right))


def test_map_divided_by_queries_with_a_relevant_document_retrieved():
    steps = steps_for(_map_exercise(((1, 0, 1), (0, 0, 0)), (2, 1)))  # AP 0.833 and 0
    _named(_verdict(steps, "MAP", repr((1 + 2 / 3) / 2)), "map_divided_by_queries_with_relevant_retrieved")


def test_gmap_and_hmap_mistakes():
    steps = steps_for(exercise_from_preset("gmap_runs"))
    _named(_verdict(steps, "Run 1: GMAP", "0.38"), "gmap_arithmetic_mean")
    _named(_verdict(steps, "Run 2: GMAP", repr(0.10 * 0.30 * 0.45 * 0.45 * 0.60)), "gmap_root_forgotten")
    _named(_verdict(steps, "Run 2: GMAP", repr(0.10 * 0.30 * 0.45 * 0.45 * 0.60 / 5)), "gmap_product_divided_by_n")
    _named(_verdict(steps, "Run 1: GMAP", repr(sum(map(math.log, RUN_1)) / 5)), "gmap_exp_forgotten")
    log10_sum = sum(map(math.log10, RUN_1))
    _named(_verdict(steps, "Run 1: Σ ln AP", repr(log10_sum)), "gmap_log10_with_exp")
    _named(_verdict(steps, "Run 1: GMAP", repr(math.exp(log10_sum / 5)), before=["0.38", "0.38"]),
           "gmap_log10_with_exp")
    _named(_verdict(steps, "Run 1: HMAP", "0.38"), "hmap_arithmetic_mean")
    reciprocals = 20 + 10 + 2 + 2 + 4 / 3  # 1/0.05 + 1/0.1 + 1/0.5 + 1/0.5 + 1/0.75
    _named(_verdict(steps, "Run 1: HMAP", repr(reciprocals / 5)), "hmap_not_inverted")
    _named(_verdict(steps, "Run 1: HMAP", repr(1 / reciprocals)), "hmap_n_forgotten")


def test_interpolation_mistakes():
    rising = steps_for(Exercise("interpolated_map", "x", rels=(0, 1, 0, 1, 1, 0, 0, 0), n_relevant=4))
    _named(_verdict(rising, "P_interp(0.1)", "0.5"), "interpolated_at_first_rank")  # P@2, not max(1/2, 2/4, 3/5)
    q1 = steps_for(exercise_from_preset("interpolated_map_q1"))
    _named(_verdict(q1, TEN_MEAN, "0.58"), "interpolated_unreached_left_out")  # 2.9 / 5 reached levels
    _named(_verdict(q1, TEN_MEAN, repr((1 + 2.9) / 11)), "interpolated_map_zero_level_added")  # P_interp(0.0) = 1
    q2 = steps_for(exercise_from_preset("interpolated_map_q2"))
    _named(_verdict(q2, "P_interp(0.4)", "1/3"), "interpolated_nearest_recall")  # 0.4 x 3 = 1.2 rounded to 1
    _named(_verdict(q2, TEN_MEAN, repr((1 / 3 + 2 / 8 + 3 / 15) / 3)), "interpolated_noninterpolated_ap")


def test_eleven_point_mistakes():
    q2 = steps_for(exercise_from_preset("eleven_point_q2"))
    eleven_sum = 4 / 3 + 3 * 2 / 8 + 4 * 3 / 15
    _named(_verdict(q2, ELEVEN_MEAN, repr((eleven_sum - 1 / 3) / 10)), "eleven_point_zero_level_left_out")
    _named(_verdict(q2, ELEVEN_MEAN, repr(eleven_sum / 10)), "eleven_point_divided_by_10")
    _named(_verdict(q2, "P_interp(0.0)", "1"), "eleven_point_zero_level_as_one")
    _named(_verdict(q2, ELEVEN_MEAN, repr((eleven_sum - 1 / 3 + 1) / 11), before=[]), "eleven_point_zero_level_as_one")
    _named(_verdict(q2, "P_interp(0.7)", "0.25"), "interpolated_nearest_recall")  # 0.7 x 3 = 2.1 rounded to 2
    right = [repr(step.expected) for step in q2]
    assert all(verdict.mistake is None for verdict in check_answers(q2, right))


# ---------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("exercise, match", [
    (_map_exercise(((1, 0),), (1, 2)), "Give R .* 1 rankings but 2 values of R"),
    (_map_exercise((), ()), "at least one query"),
    (_map_exercise(((1, 1),), (1,)), "R = 1 of q1 is below the 2 relevant documents of its ranking"),
    (_map_exercise(((1,) * 40, (1,) * 40, (1,) * 40), (40, 40, 40)), "at most 100 steps"),
    (_map_exercise(((1, 0), (0, 1)), (1, 1), queries=("a", "a")), "its own name"),
    (Exercise("gmap", "x", params={"runs": (("A", (0.5, 0.0)),)}), "above 0 .* topic 2 of A"),
    (Exercise("gmap", "x", params={"runs": (("A", (0.5, 0.2)), ("B", (0.5,)))}), "2 for A, 1 for B"),
    (Exercise("gmap", "x", params={"runs": (("A", (0.5, 1.2)),)}), "at most 1"),
    (Exercise("gmap", "x", params={}), "at least one run"),
    (Exercise("interpolated_map", "x", rels=(1, 0) * 51, n_relevant=51), "at most 100 ranks"),
    (Exercise("eleven_point", "x", rels=(1, 1, 0), n_relevant=1), "R = 1 is below the 2 relevant documents"),
])
def test_bad_input_is_a_readable_value_error(exercise, match):
    with pytest.raises(ValueError, match=match):
        steps_for(exercise)


# ---------------------------------------------------------------------------- generated exercises


@pytest.mark.parametrize("seed", range(30))
def test_generated_exercises_are_small_and_not_degenerate(seed):
    exercise = generate_exercise(seed, "map")
    rankings, n_relevant = exercise.param("rankings"), exercise.param("n_relevant")
    assert 2 <= len(rankings) <= 3 and len(steps_for(exercise)) <= 20
    assert any(any(ranking) for ranking in rankings)
    assert all(r >= sum(ranking) and r >= 1 for ranking, r in zip(rankings, n_relevant))

    exercise = generate_exercise(seed, "gmap")
    (_, first), (_, second) = exercise.param("runs")
    assert len(first) == len(second) and 3 <= len(first) <= 5 and first != second
    assert all(0 < ap < 1 for ap in first + second)
    assert sum(first) == pytest.approx(sum(second))  # the same MAP, as in the lecture's example

    for kind in ("interpolated_map", "eleven_point"):
        exercise = generate_exercise(seed, kind)
        assert exercise.title.startswith(f"Practice exercise {seed}: ")
        assert 2 <= sum(exercise.rels) <= exercise.n_relevant <= sum(exercise.rels) + 3
        assert len(steps_for(exercise)) == (11 if kind == "interpolated_map" else 12)
