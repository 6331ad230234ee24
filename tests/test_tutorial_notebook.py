"""docs/tutorial.ipynb runs from top to bottom in a fresh Jupyter kernel, and what it shows are the
lecture's values.

The notebook is executed with nbclient (the ``python3`` kernel that ipykernel installs: both in
requirements-dev.txt) in the checkout's folder, as a reader would run it. Its cells are found by
their tags; the value each one shows is read from its output, as a reader sees it, and compared
with the value the course note prints (``PRESETS[...].printed``), within how far the note's own
rounding puts it (each tolerance says why). About 5 s.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from rankviz.teaching.presets import PRESETS

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "docs" / "tutorial.ipynb"
VEGA_LITE = re.compile(r"application/vnd\.vegalite\.v\d+\+json")

# How far from the exact value a note's printed number may be, from how it was printed:
ROUNDED_3 = 0.0005 + 0.0005  # printed rounded to 3 decimals; the notebook shows 3 decimals rounded too
ROUNDED_2 = 0.005 + 0.0005  # printed rounded to 2 decimals
TRUNCATED_3 = 0.001 + 0.0005  # printed cut to 3 decimals

ndcg_exercise, q1, q2 = PRESETS["ndcg_exercise"].printed, PRESETS["q1_binary"], PRESETS["q2_binary"]
gmap, mrr = PRESETS["gmap_runs"].printed, PRESETS["mrr_threshold"].printed

# cell tag -> (the label the result starts with, the lecture's value, tolerance, why)
LECTURE_VALUES = {
    "dcg": ("DCG@6", ndcg_exercise["dcg"], 0.003, "each term cut to 3 decimals: 13.846 vs 13.848 (preset note)"),
    "idcg": ("IDCG@6", ndcg_exercise["idcg"], 0.008, "the slide's slip at rank 4, 1.286 for 1.292 (preset note)"),
    "ndcg": ("nDCG@6", ndcg_exercise["ndcg"], ROUNDED_3, "printed to 3 decimals"),
    "map_q1": ("Interpolated AP (lecture's MAP)", q1.printed["map_slide"], 0.0105,
               "precisions cut to 2 decimals, then 0.289 truncated to 0.28 (preset note)"),
    "map_q2": ("Interpolated AP (lecture's MAP)", q2.printed["map_slide"], 0.0015, "1/3 taken as 0.33 (preset note)"),
    "map_q1_q2": ("MAP", PRESETS["map_q1_q2"].printed["map_slide"], 0.0065, "the mean of the two slide values above"),
    "ap_1_3_6": ("AP@6", PRESETS["ap_positions_1_3_6"].printed["ap"], ROUNDED_3, "printed to 3 decimals"),
    "rr_q1": ("RR@S_h", mrr["rr_q1"], ROUNDED_2, "printed to 2 decimals"),
    "rr_q2": ("RR@S_h", mrr["rr_q2"], ROUNDED_2, "printed to 2 decimals"),
    "mrr": ("MRR", mrr["mrr"], ROUNDED_2, "printed to 2 decimals"),
    "map_run1": ("MAP", gmap["map"], ROUNDED_2, "printed to 2 decimals"),
    "map_run2": ("MAP", gmap["map"], ROUNDED_2, "printed to 2 decimals"),
    "gmap_run1": ("GMAP", gmap["gmap_run1"], ROUNDED_2, "printed to 2 decimals"),
    "gmap_run2": ("GMAP", gmap["gmap_run2"], ROUNDED_2, "printed to 2 decimals"),
    "srcc": ("Spearman's ρ", PRESETS["srcc_exercise"].printed["srcc"], TRUNCATED_3, "0.8545 cut to 0.854 (preset note)"),
    "ndcg_limit_bad": ("nDCG@4", PRESETS["ndcg_limit_bad_document"].printed["ndcg"], 0, "exactly 1"),
    "ndcg_limit_missing": ("nDCG@3", PRESETS["ndcg_limit_missing_documents"].printed["ndcg"], 0, "exactly 1"),
}


@pytest.fixture(scope="module")
def executed() -> dict:
    """The executed notebook's code cells by tag (a cell without a tag is run, not looked up)."""
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(notebook, timeout=120, kernel_name="python3", allow_errors=False,
                   resources={"metadata": {"path": str(ROOT)}}).execute()  # raises CellExecutionError on any error
    cells = {}
    for cell in notebook.cells:
        for tag in cell.metadata.get("tags", []):
            assert tag not in cells, f"two cells tagged {tag!r}"
            cells[tag] = cell
    return cells


def _rich_outputs(cell) -> list[dict]:
    return [output.data for output in cell.outputs if output.output_type in ("display_data", "execute_result")]


def _shown_value(cell, label: str) -> float:
    """The value of the worked example a cell displays, read from its plain text's first line."""
    worked = _rich_outputs(cell)[0]
    first_line = worked["text/plain"].splitlines()[0]
    match = re.match(rf"{re.escape(label)} = (-?[\d.]+)(  \(|$)", first_line)
    assert match, f"expected {label} = <value> first, got {first_line!r}"
    value = match.group(1)
    # The same result, with its variant, heads the HTML (what JupyterLab and VS Code show) and the LaTeX is there.
    assert f"{label} = {value}" in worked["text/html"].replace("&#x27;", "'")
    assert worked["text/latex"].startswith("$$\\begin{gathered}")
    return float(value)


@pytest.mark.parametrize("tag", sorted(LECTURE_VALUES))
def test_each_exercise_shows_the_lectures_value(executed, tag):
    label, lecture, tolerance, why = LECTURE_VALUES[tag]
    shown = _shown_value(executed[tag], label)
    assert abs(shown - lecture) <= tolerance, f"{tag}: shows {shown}, the lecture prints {lecture} ({why})"


def test_the_worked_examples_come_with_their_charts(executed):
    for tag in ("dcg", "ndcg", "map_q1", "srcc", "gmap_run1", "f05_at_1"):
        kinds = [key for output in _rich_outputs(executed[tag]) for key in output]
        assert any(VEGA_LITE.fullmatch(key) for key in kinds), f"{tag}: no Vega-Lite chart among {kinds}"


def test_the_f_measure_homework_shows_the_precision_and_recall_computed_in_class(executed):
    printed = PRESETS["fmeasure_q1"].printed  # P cut to 2 decimals (2/3 -> 0.66), R exact
    lines = "".join(output.text for output in executed["fmeasure_q1"].outputs if output.output_type == "stream")
    rows = re.findall(r"k = +(\d+):  P = ([\d.]+)  R = ([\d.]+)  F1 = ([\d.]+)  F2 = ([\d.]+)  F0\.5 = ([\d.]+)", lines)
    assert [int(row[0]) for row in rows] == list(PRESETS["fmeasure_q1"].settings["cutoffs"])
    for (_, p, r, f1, f2, f05), lecture_p, lecture_r in zip(rows, printed["P"], printed["R"], strict=True):
        p, r = float(p), float(r)
        assert 0 <= p - lecture_p <= 0.01 + 0.0005 and r == pytest.approx(lecture_r)
        for beta, f in ((1, f1), (2, f2), (0.5, f05)):  # F_beta = (1 + beta^2) P R / (beta^2 P + R), van Rijsbergen
            assert float(f) == pytest.approx((1 + beta**2) * p * r / (beta**2 * p + r), abs=0.002)


def test_the_slips_of_the_slides_are_explained_beside_the_values(executed):
    f05 = _shown_value(executed["f05_at_1"], "F_β@1")
    assert f05 == pytest.approx(1.25 * 0.1 / (0.25 * 1 + 0.1), abs=0.0005)  # β² = 0.25, not the slide's 0.5
    judged = _shown_value(executed["ndcg_judged"], "nDCG@3")
    assert 0 < judged < 1  # the two documents never retrieved now count


def test_evaluate_and_compare_display_as_tables_with_their_conventions(executed):
    for tag in ("evaluate", "compare"):
        (result,) = _rich_outputs(executed[tag])
        assert "<table" in result["text/html"]
    assert "ideal from the qrels" in _rich_outputs(executed["evaluate"])[0]["text/plain"]
