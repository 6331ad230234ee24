"""Homework kind user (rankviz.teaching.homework.kinds.user): the lecture's user-oriented measures.

Lecture 002, "User-oriented Metrics", defines coverage = |K ∩ R ∩ A| / |K ∩ R|, novelty =
|(R ∩ A) − K| / |R ∩ A|, relative recall = # found / # expected, recall effort = # expected /
# examined until all are found, and expected search length ("good for weakly ordered rankings",
Cooper 1968: j + i s / (r + 1)). It prints no worked numbers for them, so there is no course
preset; the values below are hand counts written as formulas.
"""

import pytest

from rankviz.metrics import coverage, expected_search_length, novelty, recall_effort, relative_recall
from rankviz.teaching.homework import Exercise, check_answers, describe, generate_exercise, stages, steps_for

# Answer A in the order shown, two tie levels {d1, d2}, {d3, d4, d5}; R = {d2, d5, d9} (d9 never retrieved);
# K = {d2, d9, d4} (d4 known but not relevant). The user expected 4 relevant documents and wants 2.
PARAMS = {"docs": ("d1", "d2", "d3", "d4", "d5"), "levels": (1, 1, 2, 2, 2), "relevant": ("d2", "d5", "d9"),
          "known": ("d2", "d4", "d9"), "expected": 4, "wanted": 2}


def _exercise(**changes):
    return Exercise("user", "User-oriented measures", params={**PARAMS, **changes})


def _values(steps):
    return {step.label: step.expected for step in steps}


def _verdict(steps, label, answer):
    answers = [repr(step.expected) for step in steps]
    i = next(i for i, step in enumerate(steps) if step.label == label)
    answers[i] = answer
    return check_answers(steps, answers[:i + 1])[i]


EXAMINED = "documents examined until 2 relevant are found"


def test_steps_by_hand():
    steps = steps_for(_exercise())
    values = _values(steps)
    # coverage: K ∩ R = {d2, d9}, of which d2 was retrieved: 1/2
    assert values["|K ∩ R| (known relevant)"] == 2 and values["|K ∩ R ∩ A| (known relevant retrieved)"] == 1
    assert values["coverage"] == 1 / 2 == coverage(PARAMS["relevant"], PARAMS["docs"], PARAMS["known"])
    # novelty: R ∩ A = {d2, d5}, d5 unknown to the user: 1/2
    assert values["|R ∩ A| (relevant retrieved)"] == 2
    assert values["|(R ∩ A) − K| (relevant retrieved, new to the user)"] == 1
    assert values["novelty"] == 1 / 2 == novelty(PARAMS["relevant"], PARAMS["docs"], PARAMS["known"])
    # relative recall: 2 found of the 4 expected
    assert values["relative recall"] == 2 / 4 == relative_recall(2, 4)
    # recall effort: the 2nd relevant document (d5) is at rank 5: 2/5
    assert values[EXAMINED] == 5 and values["recall effort"] == 2 / 5 == recall_effort(2, 5)
    # ESL: level 1 read in full (d1 non-relevant: j = 1, d2 found); level 2 has r = 1 (d5), i = 2 (d3, d4),
    # s = 1 still wanted: 1 + 2 x 1 / (1 + 1) = 2.
    assert values["j: non-relevant in the levels read in full"] == 1
    assert values["r: relevant in the last level read"] == 1 and values["i: non-relevant in the last level read"] == 2
    assert values["s: relevant still wanted from the last level"] == 1
    assert values["expected search length"] == 1 + 2 * 1 / (1 + 1) == expected_search_length(
        [0, 1, 0, 0, 1], wanted=2, levels=[1, 1, 2, 2, 2])
    assert stages(steps) == ["Step 1: coverage", "Step 2: novelty", "Step 3: relative recall",
                             "Step 4: recall effort", "Step 5: expected search length"]
    by_label = {step.label: step for step in steps}
    assert by_label["expected search length"].formula.endswith(r"1 + \frac{2 \cdot 1}{1 + 1} = 2.000")
    assert "2nd relevant" in by_label[EXAMINED].formula


def test_relative_recall_is_capped_when_more_are_found_than_expected():
    # 2 found, 1 expected: the expectation is met, relative recall is 1 (rankviz.metrics.relative_recall's cap)
    steps = steps_for(_exercise(expected=1))
    assert _values(steps)["relative recall"] == 1
    verdict = _verdict(steps, "relative recall", "2")
    assert verdict.mistake == "relative_recall_not_capped" and "is 1" in verdict.message


def test_an_exact_working_names_no_mistake_and_own_values_carry_forward():
    steps = steps_for(_exercise())
    assert all(v.status == "right" and v.mistake is None
               for v in check_answers(steps, [repr(step.expected) for step in steps]))
    answers = [repr(step.expected) for step in steps]
    answers[0], answers[2] = "3", "1/3"  # |K ∩ R| miscounted, coverage from it
    verdicts = check_answers(steps, answers)
    assert verdicts[0].status == "wrong" and verdicts[2].status == "carried"


@pytest.mark.parametrize("label, answer, key, words", [
    ("coverage", "0.5", None, None),  # right: coverage and novelty are both 1/2 here
    ("coverage", "1/5", "coverage_divided_by_answer", "|A|"),
    ("coverage", "1/3", "coverage_divided_by_relevant", "|R|"),  # 1 / |R| = 1/3
    ("|K ∩ R| (known relevant)", "3", "coverage_all_known", "K ∩ R"),  # |K| = 3 counts d4
    ("novelty", "1/5", "novelty_divided_by_answer", "|R ∩ A|"),
    ("novelty", "1/3", "novelty_divided_by_relevant", "|R ∩ A|"),
    ("relative recall", "2", "relative_recall_inverted", "# found / # expected"),  # 4 / 2
    ("relative recall", "2/3", "relative_recall_over_all_relevant", "that is recall"),  # 2 / |R|
    ("recall effort", "2.5", "recall_effort_inverted", "# wanted / # examined"),  # 5 / 2
    ("expected search length", "4", "esl_counting_relevant", "only the non-relevant"),  # 2 + the 2 relevant
    ("expected search length", "3", "esl_whole_last_level", "i·s/(r + 1)"),  # 1 + 2 (also s/r: 1 + 2 x 1 / 1)
    ("expected search length", "3", "esl_s_over_r", "r + 1 gaps"),
    ("s: relevant still wanted from the last level", "2", "esl_all_wanted_from_last_level", "still wanted"),
    ("expected search length", "3", "esl_all_wanted_from_last_level", "still wanted"),  # 1 + 2 x 2 / 2
    ("expected search length", "2.5", None, None),  # nothing catalogued gives 2.5
])
def test_mistakes_are_named(label, answer, key, words):
    verdict = _verdict(steps_for(_exercise()), label, answer)
    if key is None:
        assert verdict.mistake is None
        return
    assert key in verdict.mistakes, verdict.message
    assert words in verdict.message


def test_coverage_and_novelty_swapped():
    # K = {d2, d5}: coverage 2/2 = 1; novelty: R ∩ A = {d2, d5}, none new: 0
    steps = steps_for(_exercise(known=("d2", "d5")))
    verdict = _verdict(steps, "coverage", "0")
    assert verdict.mistake == "user_coverage_novelty_swapped" and "swapped" in verdict.message


def test_recall_effort_over_the_whole_list_and_esl_in_the_order_shown():
    # A longer answer: the 2nd relevant document at rank 3 of 6; levels {1, 2, 3, 4}, {5, 6}
    steps = steps_for(_exercise(docs=("d2", "d1", "d5", "d3", "d4", "d6"), levels=(1, 1, 1, 1, 2, 2)))
    values = _values(steps)
    assert values[EXAMINED] == 3 and values["recall effort"] == 2 / 3
    assert _verdict(steps, "recall effort", "2/6").mistake == "recall_effort_whole_list"
    # ESL over the tie level {d2, d1, d5, d3}: r = 2, i = 2, s = 2: 0 + 2 x 2 / 3 = 4/3; in the order shown, 1.
    assert values["expected search length"] == pytest.approx(4 / 3)
    assert _verdict(steps, "expected search length", "1").mistake == "esl_in_order_shown"


def test_generated_exercises_are_well_formed():
    for seed in range(60):
        exercise = generate_exercise(seed, "user")
        docs, relevant, known = exercise.param("docs"), exercise.param("relevant"), exercise.param("known")
        assert 8 <= len(docs) <= 10 and set(relevant) - set(docs), "some relevant document is never retrieved"
        assert set(known) & set(relevant) & set(docs), "coverage counts at least one document"
        assert (set(relevant) & set(docs)) - set(known), "something new for novelty"
        assert 2 <= exercise.param("wanted") <= len(set(relevant) & set(docs))
        values = _values(steps_for(exercise))
        assert values["i: non-relevant in the last level read"] >= 1
        assert 0 < values["coverage"] <= 1 and 0 < values["novelty"] < 1
        examined = values[f"documents examined until {exercise.param('wanted')} relevant are found"]
        assert values["recall effort"] == recall_effort(exercise.param("wanted"), int(examined))
        assert len(values) == 14
        assert "| level |" in describe(exercise) and "R (relevant) = {" in describe(exercise)
    assert len({generate_exercise(seed, "user") for seed in range(60)}) == 60


@pytest.mark.parametrize("changes, message", [
    ({"docs": ("d1", "d1", "d2")}, "names a document twice"),
    ({"wanted": 3}, "wants 3 relevant documents but the answer holds 2"),
    ({"expected": 0}, "'expected' parameter of relative_recall_breakdown must be an int"),
    ({"levels": (2, 1, 1, 1, 1)}, "non-decreasing"),
    ({"known": "d2"}, "must be a list of document ids"),
    ({"docs": tuple(f"d{i}" for i in range(1, 102)), "levels": ()}, "at most 100 documents"),
])
def test_bad_input_raises_a_readable_error(changes, message):
    with pytest.raises(ValueError, match=message):
        steps_for(_exercise(**changes))
