"""The course notes' own numbers typed into the checker: each is recognised in its row with the
notes' reason (rankviz.teaching.homework.printed), never a bare "0.007 away"."""

from __future__ import annotations

import re

import pytest

from rankviz.teaching.homework import HOMEWORK_PRESETS, check_answers, exercise_from_preset, first_wrong, steps_for
from rankviz.teaching.presets import PRESETS

TIGHTEST = 0.0005  # the checker's tightest tolerance: the notes' 2- and 3-decimal values all differ at it

# Each course preset whose note says the notes round, cut or slip -> the homework exercises built on it.
EXERCISES_OF = {
    "ndcg_exercise": ("ndcg_exercise",),
    "q1_binary": ("q1_binary", "interpolated_map_q1", "mrr_threshold"),
    "q2_binary": ("q2_binary", "interpolated_map_q2", "mrr_threshold"),
    "srcc_exercise": ("srcc_exercise",),
    "gmap_runs": ("gmap_runs",),
    "mrr_threshold": ("mrr_threshold",),
    "fmeasure_q1": ("fmeasure_q1",),
    "fmeasure_q2": ("fmeasure_q2",),
    "map_q1_q2": ("map_q1_q2",),
}


def _numbers(value):
    return [float(x) for x in (value if isinstance(value, tuple) else (value,))]


def test_every_preset_whose_note_rounds_cuts_or_slips_is_listed():
    says = re.compile(r"round|cut|truncat|slip|decimals|exact", re.IGNORECASE)
    noted = {key for key, preset in PRESETS.items() if preset.note and says.search(preset.note)
             and any(isinstance(v, (int, float, tuple)) for v in preset.printed.values())}
    assert noted == set(EXERCISES_OF)


@pytest.mark.parametrize("preset_key", list(EXERCISES_OF))
def test_each_printed_value_is_a_step_the_checker_knows(preset_key):
    """Every number the note prints is, in one of the preset's exercises, a step's exact value (to the
    tightest tolerance) or a value the checker recognises as printed."""
    known = []
    for key in EXERCISES_OF[preset_key]:
        for step in steps_for(exercise_from_preset(key)):
            known.append(step.expected)
            if step.printed is not None:
                known.append(step.printed.value)
    for name, value in PRESETS[preset_key].printed.items():
        for number in _numbers(value):
            assert any(abs(number - k) <= TIGHTEST for k in known), (preset_key, name, number)


PRINTED_STEPS = [(key, i) for key in HOMEWORK_PRESETS
                 for i, step in enumerate(steps_for(exercise_from_preset(key))) if step.printed is not None]


def test_the_printed_steps_include_the_slides_ndcg_and_map_values():
    labels = {(key, steps_for(exercise_from_preset(key))[i].label) for key, i in PRINTED_STEPS}
    assert {("ndcg_exercise", "DCG"), ("ndcg_exercise", "IDCG"), ("ndcg_exercise", "IDCG term at rank 4 (grade 2)"),
            ("q1_binary", "AP"), ("q2_binary", "AP"), ("map_q1_q2", "MAP"), ("srcc_exercise", "ρ (Spearman)"),
            ("mrr_threshold", "MRR"), ("fmeasure_q1", "P@3")} <= labels


@pytest.mark.parametrize(("key", "index"), PRINTED_STEPS)
@pytest.mark.parametrize("tolerance", [TIGHTEST, 0.001])
def test_a_printed_value_typed_alone_is_recognised_in_its_row(key, index, tolerance):
    steps = steps_for(exercise_from_preset(key))
    step = steps[index]
    verdict = check_answers(steps, [""] * index + [repr(step.printed.value)], tolerance)[index]
    if abs(step.printed.value - step.expected) <= tolerance * (1 + 1e-9):  # the checker's own slack
        assert verdict.status == "right"
        return
    assert verdict.message.startswith("The course notes print this"), (step.label, verdict.message)
    assert verdict.message.endswith(f"(exact {format(step.expected, '.3f').rstrip('0').rstrip('.')}).")
    assert verdict.status == ("printed" if step.printed.rounded else "wrong")


def test_the_slide_map_of_q1_counts_and_q2s_is_another_quantity():
    steps = steps_for(exercise_from_preset("q1_binary"))
    verdict = check_answers(steps, [""] * 15 + ["0.28"], 0.001)[-1]
    assert verdict.status == "printed" and "0.289, and cuts that to 0.28 (exact 0.29)" in verdict.message
    steps = steps_for(exercise_from_preset("q2_binary"))
    verdicts = check_answers(steps, [""] * 15 + ["0.254"], 0.001)
    assert verdicts[-1].status == "wrong" and "not AP (exact 0.261)" in verdicts[-1].message
    assert first_wrong(verdicts) == 15


def test_the_slides_interpolated_precisions_add_up_to_its_map():
    # 002, "MAP - An example": (1 + 0.66 + 0.5 + 0.4 + 0.33 + 0 + ... + 0) / 10 = 0.28 (0.289 cut).
    steps = steps_for(exercise_from_preset("interpolated_map_q1"))
    slide = ["1", "0.66", "0.5", "0.4", "0.33", "0", "0", "0", "0", "0", "0.28"]
    verdicts = check_answers(steps, slide, 0.001)
    # 0.66 and 0.33 (2/3 and 1/3 cut) and 0.28 are the notes' own; the rest is exact.
    assert [v.status for v in verdicts] == (["right", "printed", "right", "right", "printed"] + ["right"] * 5
                                            + ["printed"])
    assert first_wrong(verdicts) is None
