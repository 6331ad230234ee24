"""The student's own exercise, from any course (issue 22).

* every published exercise of tests/homework_sheets.py (Manning et al.'s IIR ch. 8, Croft et al. ch. 8,
  Wikipedia's worked examples, scipy's and scikit-learn's documented values, another course's sheet),
  posed through ``own_exercise`` as a student pastes it, marks the answers its source prints right;
* every kind takes its own input (OwnInput) and the contract holds: OWN_KINDS is every kind, each input
  has a one-line description, an input a kind cannot use is named;
* the textbooks' conventions are the default (trec_eval's and IIR's) and another textbook's answer is
  named as such ("that is right under another convention, ...; this exercise asks for ...");
* the hint ladder: what to compute, then the formula with the student's own numbers, then the value.
"""

from __future__ import annotations

import re

import pytest

from homework_sheets import SHEETS, VARIANTS
from rankviz.homework import (
    KINDS,
    OWN_KINDS,
    InputError,
    check_answers,
    hints,
    own_exercise,
    own_fields,
    own_inputs,
    own_text,
    steps_for,
)


def _steps(kind, **inputs):
    return steps_for(own_exercise(kind, **inputs))


def _by_label(steps):
    return {step.label: step for step in steps}


# ---------------------------------------------------------------- published exercises


@pytest.mark.parametrize("sheet", SHEETS, ids=[sheet.id for sheet in SHEETS])
def test_a_published_exercise_marks_its_printed_answers_right(sheet):
    steps = _steps(sheet.kind, **sheet.inputs)
    labels = [step.label for step in steps]
    assert set(sheet.answers) <= set(labels), set(sheet.answers) - set(labels)
    verdicts = check_answers(steps, [sheet.answers.get(label, "") for label in labels], sheet.tolerance)
    marked = {v.step.label: v for v in verdicts if v.answer}
    assert all(v.ok for v in marked.values()), {label: v.message for label, v in marked.items() if not v.ok}


def test_every_kind_has_a_published_exercise():
    assert {sheet.kind for sheet in SHEETS} == set(KINDS)


def test_an_answer_off_by_more_than_the_printed_rounding_is_wrong():
    """The tolerance follows the sheet's rounding, no further: Croft's AP (4.65 / 6 = 0.775) printed 0.78 is right to
    2 decimals, 0.76 is not, and 0.78 is not right to 3 decimals."""
    steps = _steps("ap", rels="R N R R R R N N N R", n_relevant=6)
    assert check_answers(steps, [""] * 10 + ["0.78"], 0.005)[-1].ok
    assert not check_answers(steps, [""] * 10 + ["0.76"], 0.005)[-1].ok
    assert not check_answers(steps, [""] * 10 + ["0.78"], 0.0005)[-1].ok


# ---------------------------------------------------------------- the contract


def test_every_kind_takes_its_own_input_with_a_described_field():
    assert OWN_KINDS == tuple(KINDS)
    for kind in OWN_KINDS:
        inputs = own_inputs(kind)
        assert inputs and all(isinstance(text, str) and text.endswith((".", ")")) and "\n" not in text
                              for text in inputs.values()), kind
        assert list(inputs) == [field.name for field in own_fields(kind)]


@pytest.mark.parametrize("kind, inputs, name", [
    ("ap", {"rels": "R N", "cutoffs": [2]}, "cutoffs"),
    ("ndcg", {"rels": "3 2", "n_relevant": 2}, "n_relevant"),
    ("spearman", {"ranks_a": "1 2", "ranks_b": "2 1", "variant": "a"}, "variant"),
    ("auc", {"labels": "1 0", "scores": "1 0", "groups": "u u"}, "groups"),
])
def test_an_input_a_kind_cannot_use_is_named(kind, inputs, name):
    with pytest.raises(InputError, match=f"take no input {name}") as raised:
        own_exercise(kind, **inputs)
    assert raised.value.name == name


@pytest.mark.parametrize("kind, inputs, name, match", [
    ("ap", {"rels": "R N R", "n_relevant": 1}, "n_relevant", "R = 1 is below the 2 relevant documents"),
    ("ap", {"rels": "R N x"}, "rels", "Relevance in ranked order: Grade at rank 3 is 'x'"),
    ("precision_recall", {"rels": "R N", "betas": "0,5"}, "betas", "Each β must be a number above 0"),
    ("interpolated_map", {"rels": "R N", "levels": "120%"}, "levels", "a recall level is from 0 to 1"),
    ("rr", {"rankings": "R N\nN R", "names": "a"}, "names", "its own name"),
    ("err", {"rels": "2 4", "max_grade": 3}, "max_grade", "g_max = 3 is below the grade 4"),
    ("gauc", {"labels": "1 0 1", "scores": "1 2 3", "groups": "u1 u1"}, "groups", "3 labels, 2 users"),
    ("kendall", {"ranks_a": "1 2 3", "ranks_b": "1 2"}, "ranks_b", "one rank in R1 and one in R2"),
    ("user", {"answer": "d1 d2", "relevant": "d1", "tie_levels": "2 1"}, "tie_levels", "a run of tied"),
    ("r_precision", {"rels": "N N"}, "n_relevant", "R-precision needs R"),
])
def test_bad_input_names_its_field(kind, inputs, name, match):
    with pytest.raises(InputError, match=match) as raised:
        own_exercise(kind, **inputs)
    assert raised.value.name == name


@pytest.mark.parametrize("kind, inputs", [(sheet.kind, sheet.inputs) for sheet in SHEETS] + VARIANTS,
                         ids=[sheet.id for sheet in SHEETS] + [f"variant {kind} {i}" for i, (kind, _) in
                                                               enumerate(VARIANTS)])
def test_every_input_reads_back_from_its_text(kind, inputs):
    """What a page's field (and its link) holds gives the same exercise again: own_text then own_exercise."""
    exercise = own_exercise(kind, **inputs)
    values = {name: _value(kind, name, text) for name, text in inputs.items()}
    again = own_exercise(kind, **{name: own_text(kind, name, value) for name, value in values.items()})
    assert again == exercise
    assert [s.label for s in steps_for(again)] == [s.label for s in steps_for(exercise)]


def _value(kind, name, given):
    """The value own_exercise reads from ``given`` (text or a value), for own_text to write back."""
    from rankviz.teaching.homework.own import read_input

    field = {f.name: f for f in own_fields(kind)}[name]
    if isinstance(given, str) and field.kind not in ("choice", "option"):
        return read_input(field.kind, given, field.label, name=name)
    return given


# ---------------------------------------------------------------- conventions


def test_the_ideal_ranking_is_cut_at_k():
    """Croft's NDCG@5: IDCG@5 of the ideal 3, 3, 3, 2, 2 (9.75), not of the ideal ranking's 7 relevant (10.88)."""
    steps = _by_label(_steps("ndcg", rels="3 2 3 0 0 1 2 2 3 0", k=5, gain="linear", discount="jarvelin"))
    assert steps["IDCG@5"].expected == pytest.approx(3 + 3 + 3 / 1.5849625 + 2 / 2 + 2 / 2.3219281, abs=1e-6)
    assert [label for label in steps if label.startswith("IDCG term")] == [
        f"IDCG term at rank {rank} (grade {grade})" for rank, grade in zip(range(1, 6), (3, 3, 3, 2, 2))]
    verdict = check_answers(list(steps.values()), [""] * (len(steps) - 2) + ["10.88", ""], 0.005)[-2]
    assert verdict.mistake == "idcg_not_cut_at_k" and "cuts the ideal ranking at k too" in verdict.message


def test_the_defaults_are_trec_evals_and_iirs():
    """AP over R (a relevant document never retrieved adds 0), P@k over k past the end of the list, RR with no
    threshold, Spearman with ties as Pearson's r of the average ranks, interpolation 'recall at least r'."""
    assert _by_label(_steps("ap", rels="R N R", n_relevant=4))["AP"].expected == pytest.approx((1 + 2 / 3) / 4)
    assert _by_label(_steps("precision_recall", rels="R N R", k=5))["P@5"].expected == 2 / 5
    assert _by_label(_steps("rr", rankings="N N N N N N R"))["MRR"].expected == pytest.approx(1 / 7)
    assert _by_label(_steps("spearman", ranks_a="1 2 3 4 5", ranks_b="5 6 7 8 7"))[
        "ρ (Spearman)"].expected == pytest.approx(0.8207826816681233)  # scipy's spearmanr
    assert _by_label(_steps("interpolated_map", rels="R N N R", n_relevant=2, levels="0.5"))[
        "P_interp(0.5)"].expected == 1  # ceil(0.5 x 2) = 1 relevant: rank 1


def test_a_query_without_relevant_documents_counts_with_ap_0():
    steps = _by_label(_steps("map", rankings="R N R\nN N N", n_relevant="2 0"))
    assert steps["AP of q2"].expected == 0 and steps["MAP"].expected == pytest.approx(1 / 2 * (1 + 2 / 3) / 2)


@pytest.mark.parametrize("kind, inputs, label, answer, key, words", [
    # R-precision at the rank of the R-th relevant document (IIR 8.8 system 1: the 4th relevant is at rank 10).
    ("r_precision", {"rels": "R N R N N N N N R R", "n_relevant": 4}, "R-precision", "4/10",
     "rprec_at_rth_relevant", "precision at the rank of the R-th relevant document"),
    # P@5 over the 3 documents retrieved.
    ("precision_recall", {"rels": "R N R", "k": 5}, "P@5", "2/3", "precision_over_retrieved_when_short",
     "the precision of the retrieved set"),
    # RR from the last relevant rank.
    ("rr", {"rankings": "N R N R\nR N"}, "RR(q1)", "1/4", "rr_last_relevant", "RR takes the first one"),
    # MAP over the queries that have relevant documents only.
    ("map", {"rankings": "R N R\nN N N", "n_relevant": "2 0"}, "MAP", "0.833", "map_over_queries_with_relevant",
     "MAP over the queries that have relevant documents only"),
    # Spearman's shortcut on tied ranks (scipy's example: 1 − 6 × 3.5 / 120 = 0.825).
    ("spearman", {"ranks_a": "1 2 3 4 5", "ranks_b": "5 6 7 8 7"}, "ρ (Spearman)", "0.825", "spearman_formula_on_ties",
     "1 − 6Σd²/(n(n² − 1)) on average ranks; this exercise asks for Pearson's r of the average ranks"),
    # AP over the relevant documents retrieved (IIR 8.9: 3.330 / 6).
    ("ap", {"rels": "R R N N N N N N R N R N N N R N N N N R", "n_relevant": 8}, "AP", "0.555",
     "ap_divided_by_retrieved_relevant", "AP over the relevant documents retrieved; this exercise asks for AP over R"),
    # trec_eval 10's rounding of recall levels (r x R rounded: 0.33 x 8 = 2.64 -> 3, the same; 0.3 x 8 = 2.4 -> 2).
    ("interpolated_map", {"rels": "R R N N N N N N R N R N N N R N N N N R", "n_relevant": 8, "levels": "0.3"},
     "P_interp(0.3)", "1", "interpolated_nearest_recall", "trec_eval 10: round(r·R); this exercise asks for textbook"),
])
def test_another_conventions_answer_is_named(kind, inputs, label, answer, key, words):
    steps = _steps(kind, **inputs)
    at = [step.label for step in steps].index(label)
    verdict = check_answers(steps, [""] * at + [answer], 0.001)[at]
    assert verdict.status == "wrong" and key in verdict.mistakes, verdict.message
    assert words in verdict.message


def test_the_student_picks_the_convention_and_the_other_becomes_the_mistake():
    sheet = {"rels": "R R N N N N N N R N R N N N R N N N N R", "n_relevant": 8}
    retrieved = _steps("ap", **sheet, denominator="retrieved")
    assert retrieved[-1].expected == pytest.approx(3.3303030 / 6, abs=1e-6)
    verdict = check_answers(retrieved, [""] * (len(retrieved) - 1) + ["0.416"], 0.001)[-1]
    assert verdict.mistake == "ap_divided_by_r"
    assert "AP over R, every relevant document of the query; this exercise asks for AP over the relevant" in \
        verdict.message


def test_lists_of_100_ranks_are_worked():
    rels = " ".join("R" if rank % 7 == 0 else "N" for rank in range(1, 101))
    steps = _steps("ap", rels=rels, n_relevant=20)
    assert steps[-1].label == "AP" and len(steps) == 14 + 1  # a long list is worked at its 14 relevant ranks
    assert steps[-1].expected == pytest.approx(sum((i + 1) / (7 * (i + 1)) for i in range(14)) / 20)
    with pytest.raises(InputError, match="at most 100 ranks"):
        own_exercise("ap", rels=rels + " N")


def test_eleven_points_over_a_24_rank_list():
    """IIR 8.9's 20 results and 4 more (R at 21 and 24): 8 relevant, R = 8, recall 1.0 reached at rank 24."""
    steps = _by_label(_steps("eleven_point", rels="R R N N N N N N R N R N N N R N N N N R R N N R", n_relevant=8))
    assert steps["P_interp(1.0)"].expected == pytest.approx(8 / 24)
    assert steps["P_interp(0.9)"].expected == pytest.approx(8 / 24)  # ceil(7.2) = 8 relevant
    assert steps["P_interp(0.8)"].expected == pytest.approx(7 / 21)  # ceil(6.4) = 7: max(7/21, 8/24)


@pytest.mark.parametrize("typed", ["0.8", "80%", "0,8", "4/5", "80 %", "≈ 0.80", "0.800..."])
def test_an_answer_is_read_as_the_sheet_prints_it(typed):
    steps = _steps("precision_recall", rels="R N R R R R N N N R", n_relevant=6, k=5)  # Croft: P@5 = 0.8
    assert check_answers(steps, [typed], 0.0005)[0].status == "right"


def test_a_minus_sign_and_a_fraction_as_printed():
    steps = _steps("spearman", ranks_a="106 100 86 101 99 103 97 113 112 110", ranks_b="7 27 2 50 28 29 20 12 6 17")
    for typed in ("−29/165", "-0.1757575", "−0,176", "–0.176"):
        assert check_answers(steps, [""] * (len(steps) - 1) + [typed], 0.0005)[-1].ok, typed


# ---------------------------------------------------------------- the hint ladder


def test_the_hint_ladder_goes_from_the_formula_to_the_students_numbers_to_the_value():
    steps = _steps("ndcg", rels="3 2 3 0 1 2", k=3, gain="linear")
    dcg = _by_label(steps)["DCG@3"]
    answers = ["", "3", "1.26", "1.5"] + [""] * (len(steps) - 4)  # the student's own three terms
    what, filled, value = hints(dcg, answers=answers, steps=steps)
    assert what.startswith("DCG@3 adds up the discounted gains of the top 3 ranks")
    assert filled == "With your answers: $3 + 1.26 + 1.5 = 5.76$."
    assert value == "The value: $\\text{DCG@3} = 5.762$."
    # Without the student's numbers, the exact ones, said so.
    assert hints(dcg, answers=["", "3"], steps=steps)[1].startswith("With your answers (the exact value where")


def test_every_step_of_every_kind_has_a_ladder_of_three():
    for sheet in SHEETS:
        steps = _steps(sheet.kind, **sheet.inputs)
        for step in steps:
            ladder = hints(step, steps=steps)
            assert len(ladder) == 3 and all(ladder), step.label
            assert step.hint, f"{sheet.kind}: step {step.label!r} has no first rung of its own"
            # Every text filled in: no placeholder ({rank}) left, no brace doubled for str.format ({{).
            assert not any(re.search(r"(?<![A-Za-z_^])\{[a-z_]{2,}\}|\{\{", rung) for rung in ladder), ladder
            assert all(rung.count("$") % 2 == 0 for rung in ladder), ladder  # formulas closed
            assert ladder[2].endswith(f"= {ladder[2].split('= ')[-1]}")
