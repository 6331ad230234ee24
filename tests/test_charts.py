"""Tests of rankviz.charts: every builder's Vega-Lite spec validates and carries the input's numbers.

Charts are checked through ``chart.to_dict()`` (Altair validates against the Vega-Lite schema
there): the datasets must equal the breakdown tables they were built from, the encodings must
name the expected fields, every mark must have a tooltip, and a second cue besides colour must
be there. Inputs are the real ``*_breakdown`` tables of rankviz.metrics, so a renamed column in a
breakdown breaks these tests rather than a page. What a chart computes itself (the interpolated
curve, the AP area, the box statistics) is checked against hand computations or against the
metric functions.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
import subprocess
import sys

import altair as alt
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankviz.metrics as m
from rankviz import charts
from rankviz.charts import (
    delta_chart,
    distribution_chart,
    err_chart,
    gain_contribution_chart,
    metric_scatter_chart,
    metric_vs_position_chart,
    pair_matrix_chart,
    per_query_chart,
    precision_recall_at_rank_chart,
    precision_recall_chart,
    rank_scatter_chart,
    roc_chart,
)
from rankviz.teaching.presets import PRESETS

# --- reading a spec -------------------------------------------------------------------------


def units(spec: dict, data=None) -> list[dict]:
    """Every single-mark view of a (possibly nested) layer spec, with the dataset name it reads."""
    data = spec.get("data", data)
    if "layer" in spec:
        return [unit for child in spec["layer"] for unit in units(child, data)]
    return [{**spec, "data": data}]


def rows(spec: dict, unit: dict) -> list[dict]:
    return spec["datasets"][unit["data"]["name"]]


def mark(unit: dict) -> str:
    return unit["mark"]["type"] if isinstance(unit["mark"], dict) else unit["mark"]


def marks(spec: dict) -> list[str]:
    return [mark(u) for u in units(spec)]


def unit_with(spec: dict, mark_type: str, **encoded) -> dict:
    """The first unit of this mark type whose encoding uses the given fields, e.g. y="running"."""
    for unit in units(spec):
        enc = unit.get("encoding", {})
        if mark(unit) == mark_type and all(enc.get(ch, {}).get("field") == f for ch, f in encoded.items()):
            return unit
    raise AssertionError(f"no {mark_type} layer encoding {encoded}; layers: {marks(spec)}")


def tooltip_fields(unit: dict) -> list[str]:
    tooltip = unit["encoding"]["tooltip"]
    return [t.get("field") or t.get("aggregate") for t in (tooltip if isinstance(tooltip, list) else [tooltip])]


def column(records: list[dict], name: str) -> list:
    return [r[name] for r in records]


# --- one chart of every builder, from real breakdowns ----------------------------------------

NDCG_RELS = list(PRESETS["ndcg_exercise"].rels)  # 3, 2, 3, 0, 1, 2 (course 002, CG/DCG/NDCG exercise)


def per_query_table():
    return pd.DataFrame({"query_id": ["q1", "q2", "q3"] * 2, "system": ["A"] * 3 + ["B"] * 3,
                         "value": [0.5, 1.0, 0.0, 0.25, 0.75, 0.5]})


def every_chart():
    pr = m.precision_recall_points_breakdown([1, 0, 1, 0], n_relevant=3)
    srcc = PRESETS["srcc_exercise"]
    kendall = m.kendall_tau_breakdown(list(srcc.ranks_a), list(srcc.ranks_b))
    position = pd.DataFrame({"position": [1, 2, 3] * 2, "metric": ["RR"] * 3 + ["nDCG"] * 3,
                             "value": [1, 1 / 2, 1 / 3, 1, 1 / math.log2(3), 1 / 2]})
    return {
        "precision_recall_chart": precision_recall_chart({"A": pr}, ap_area=True, eleven_point=True,
                                                         r_precision={"A": 0.5}, f_beta_rank=3),
        "precision_recall_at_rank_chart": precision_recall_at_rank_chart(pr),
        "roc_chart": roc_chart({"q1": m.roc_curve_breakdown([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])},
                               threshold="threshold"),
        "gain_contribution_chart": gain_contribution_chart(m.ndcg_breakdown(NDCG_RELS), running="running DCG",
                                                           ideal_running="running IDCG"),
        "err_chart": err_chart(m.err_breakdown(NDCG_RELS), reach="P(reach rank)"),
        "rank_scatter_chart": rank_scatter_chart(m.spearman_rho_breakdown(list(srcc.ranks_a), list(srcc.ranks_b)),
                                                 highlight_pairs=[("d1", "d3")]),
        "pair_matrix_chart": pair_matrix_chart(kendall),
        "metric_vs_position_chart": metric_vs_position_chart(position),
        "metric_scatter_chart": metric_scatter_chart(pd.DataFrame({"AP": [0.1, 0.5], "nDCG": [0.2, 0.7],
                                                                   "run": ["r1", "r2"]}), "AP", "nDCG",
                                                     label="run", diagonal=True),
        "per_query_chart": per_query_chart(per_query_table(), select=True),
        "per_query_chart bars": per_query_chart(per_query_table(), kind="bars"),
        "delta_chart": delta_chart(pd.Series({"q1": 0.25, "q2": 0.0, "q3": -0.5}), select=True),
        "distribution_chart": distribution_chart(per_query_table().assign(measure="AP"), system="system"),
        "distribution_chart histogram": distribution_chart(per_query_table().assign(measure="AP"),
                                                           kind="histogram"),
    }


@pytest.fixture(scope="module")
def specs():
    return {name: chart.to_dict() for name, chart in every_chart().items()}


def test_every_builder_is_exported_and_charted(specs):
    builders = {name for name in charts.__all__ if name.endswith("_chart")}
    assert builders == {name.split()[0] for name in specs}


@pytest.mark.parametrize("name", list(every_chart()))
def test_every_mark_has_a_tooltip(specs, name):
    for unit in units(specs[name]):
        assert tooltip_fields(unit), f"{name}: a {mark(unit)} layer has no tooltip"


@pytest.mark.parametrize("name", list(every_chart()))
def test_charts_fill_their_container_and_use_projector_type(specs, name):
    spec = specs[name]
    assert spec["width"] == "container"
    assert spec["config"]["axis"]["labelFontSize"] == 16
    assert spec["config"]["legend"]["labelFontSize"] == 16
    assert spec["config"]["range"]["category"] == charts._style.SERIES_COLOURS


def test_font_size_reaches_axes_legends_and_text_marks():
    worked = m.precision_recall_points_breakdown([1, 0, 1])
    spec = precision_recall_at_rank_chart(worked, font_size=22).to_dict()
    assert spec["config"]["axis"]["labelFontSize"] == 22
    assert spec["config"]["axis"]["titleFontSize"] == 22
    assert spec["config"]["title"]["fontSize"] == 22 * 1.25
    assert unit_with(spec, "text")["mark"]["fontSize"] == 22


def test_palette_is_okabe_ito_without_the_yellow_that_vanishes_on_white():
    assert set(charts._style.SERIES_COLOURS) <= set(charts.OKABE_ITO.values())
    assert charts.OKABE_ITO["yellow"] not in charts._style.SERIES_COLOURS
    assert len(set(charts._style.SERIES_COLOURS)) == 7


def test_projector_theme_registers_as_an_altair_theme():
    @alt.theme.register("rankviz_test_projector", enable=False)
    def theme():
        return charts.projector_theme(24)

    with alt.theme.enable("rankviz_test_projector"):
        spec = alt.Chart(pd.DataFrame({"x": [1]})).mark_point().encode(x="x:Q").to_dict()
    assert spec["config"]["axis"]["labelFontSize"] == 24
    assert spec["config"]["range"]["category"][0] == charts.OKABE_ITO["blue"]


def test_width_and_height_can_be_fixed():
    spec = precision_recall_at_rank_chart(m.precision_recall_points_breakdown([1]), width=600, height=300).to_dict()
    assert (spec["width"], spec["height"]) == (600, 300)


@pytest.mark.parametrize("bad", [{"width": "full"}, {"width": 0}, {"height": -1}, {"height": 2.5}, {"font_size": 0}])
def test_bad_sizes_are_rejected(bad):
    with pytest.raises(ValueError, match=f"'{next(iter(bad))}' parameter of precision_recall_at_rank_chart"):
        precision_recall_at_rank_chart(m.precision_recall_points_breakdown([1]), **bad)


def test_builders_never_modify_their_input():
    worked = m.ndcg_breakdown(NDCG_RELS)
    before = worked.table.copy()
    gain_contribution_chart(worked, running="running DCG", ideal_running="running IDCG").to_dict()
    pd.testing.assert_frame_equal(worked.table, before)
    assert not worked.table.attrs


def test_importing_the_charts_never_imports_streamlit_and_rankviz_never_imports_altair():
    code = ("import sys, rankviz, rankviz.metrics; assert 'altair' not in sys.modules, 'rankviz imported altair'; "
            "import rankviz.charts; assert 'streamlit' not in sys.modules, 'charts imported streamlit'")
    subprocess.run([sys.executable, "-c", code], check=True)


# --- precision-recall -----------------------------------------------------------------------

def test_a_breakdown_and_its_table_draw_the_same_chart():
    worked = m.precision_recall_points_breakdown([1, 0, 1, 0], n_relevant=3)
    assert precision_recall_at_rank_chart(worked).to_dict() == precision_recall_at_rank_chart(worked.table).to_dict()


def test_pr_raw_points_are_the_breakdowns_p_and_r_with_relevance_spelled_out():
    worked = m.precision_recall_points_breakdown([1, 0, 1, 0], n_relevant=3)
    spec = precision_recall_chart({"A": worked}).to_dict()
    points = unit_with(spec, "point", x="recall", y="precision", shape="relevance")
    data = rows(spec, points)
    assert column(data, "precision") == pytest.approx(worked.table["P@i"].tolist())
    assert column(data, "recall") == pytest.approx(worked.table["R@i"].tolist())
    assert column(data, "rank") == worked.table["rank"].tolist()
    assert column(data, "relevance") == ["relevant" if r else "not relevant" for r in worked.table["relevant?"]]
    assert {"rank", "precision", "recall", "relevance", "system"} <= set(tooltip_fields(points))
    # The tooltip titles are the breakdown's own column names.
    titles = {t["field"]: t.get("title") for t in points["encoding"]["tooltip"]}
    assert titles["precision"] == "P@i" and titles["recall"] == "R@i"


def interpolated_corners(spec):
    line = unit_with(spec, "line", y="interpolated precision")
    assert line["mark"]["interpolate"] == "step-before"
    return [value for r in rows(spec, line) for value in (r["recall"], r["interpolated precision"])]


def test_interpolated_curve_by_hand_drops_to_zero_beyond_the_last_recall():
    # rels 1, 0, 1, 0 with R = 3: (R, P) = (1/3, 1), (1/3, 1/2), (2/3, 2/3), (2/3, 1/2).
    # p_interp = max P at recall >= r: 1 on (0, 1/3], 2/3 on (1/3, 2/3], 0 beyond (recall 1 never reached).
    worked = m.precision_recall_points_breakdown([1, 0, 1, 0], n_relevant=3)
    corners = interpolated_corners(precision_recall_chart({"A": worked}).to_dict())
    assert corners == pytest.approx([0, 1, 1 / 3, 1, 2 / 3, 2 / 3, 1, 0])  # corners (recall, precision)


def test_interpolated_curve_by_hand_lifts_early_precision():
    # rels 0, 1, 1 with R = 2: P = 0, 1/2, 2/3 and R = 0, 1/2, 1; the later 2/3 lifts every level.
    worked = m.precision_recall_points_breakdown([0, 1, 1])
    corners = interpolated_corners(precision_recall_chart({"A": worked}).to_dict())
    assert corners == pytest.approx([0, 2 / 3, 1 / 2, 2 / 3, 1, 2 / 3])


def test_interpolated_curve_with_nothing_relevant_retrieved_is_flat_zero():
    worked = m.precision_recall_points_breakdown([0, 0], n_relevant=2)
    assert interpolated_corners(precision_recall_chart({"A": worked}).to_dict()) == [0, 0, 1, 0]


rankings = st.lists(st.integers(0, 3), min_size=1, max_size=12)


@settings(max_examples=25, deadline=None)
@given(rels=rankings, missing=st.integers(0, 3))
def test_eleven_point_markers_equal_eleven_point_precision(rels, missing):
    n_relevant = sum(g >= 1 for g in rels) + missing
    worked = m.precision_recall_points_breakdown(rels, n_relevant=n_relevant)
    spec = precision_recall_chart({"A": worked}, eleven_point=True).to_dict(validate=False)  # validated elsewhere
    squares = rows(spec, unit_with(spec, "point", x="recall level"))
    expected = m.eleven_point_precision_breakdown(rels, n_relevant=n_relevant)
    assert column(squares, "recall level") == pytest.approx(np.arange(11) / 10)
    assert column(squares, "interpolated precision") == pytest.approx(expected.table["interpolated P"].tolist())


@settings(max_examples=25, deadline=None)
@given(rels=rankings, missing=st.integers(0, 3))
def test_shaded_area_is_average_precision(rels, missing):
    n_relevant = sum(g >= 1 for g in rels) + missing
    worked = m.precision_recall_points_breakdown(rels, n_relevant=n_relevant)
    spec = precision_recall_chart({"A": worked}, ap_area=True).to_dict(validate=False)  # validated elsewhere
    area = unit_with(spec, "area")
    assert area["mark"]["interpolate"] == "step-before"
    assert area["encoding"]["y"]["stack"] is None  # several systems overlap, never pile up
    corners = rows(spec, area)
    width_times_height = sum((b["recall"] - a["recall"]) * b["precision"] for a, b in zip(corners, corners[1:]))
    expected = m.average_precision(rels, n_relevant=n_relevant)
    assert width_times_height == pytest.approx(expected)
    assert corners[0]["AP area"] == pytest.approx(expected)


def test_ap_area_of_the_course_positions_1_3_6_example():
    # Course note 001: relevant at ranks 1, 3, 6 -> AP = (1/1 + 2/3 + 3/6) / 3 = 0.722.
    worked = m.precision_recall_points_breakdown(list(PRESETS["ap_positions_1_3_6"].rels))
    spec = precision_recall_chart({"notes": worked}, ap_area=True).to_dict()
    assert rows(spec, unit_with(spec, "area"))[0]["AP area"] == pytest.approx((1 / 1 + 2 / 3 + 3 / 6) / 3)


def test_r_precision_and_f_beta_markers():
    rels = [1, 0, 1, 1, 0]  # R = 3: R-precision = P@3 = 2/3; at k = 4, P = 3/4, R = 3/3
    worked = m.precision_recall_points_breakdown(rels)
    spec = precision_recall_chart({"A": worked}, r_precision={"A": m.r_precision(rels)}, f_beta_rank=4,
                                  beta=2.0).to_dict()
    (points,) = [u for u in units(spec) if mark(u) == "point" and u["mark"].get("shape") == "triangle-up"]
    r_prec, f_two = rows(spec, points)
    every_text = [u for u in units(spec) if mark(u) == "text"]
    texts = [u for u in every_text if u["mark"].get("stroke") != "white"]
    assert sorted(r["label"] for u in texts for r in rows(spec, u)) == sorted([r_prec["label"], f_two["label"]])
    # Each label is drawn over a white outline of itself (issue 20: the diagonal crossed "R-prec = ..."
    # and a curve crossed "F2@15 = 0.455"): the halo comes first, same data, place and size.
    halos = [u for u in every_text if u["mark"].get("stroke") == "white"]
    assert len(halos) == len(texts)
    for halo in halos:
        text = every_text[every_text.index(halo) + 1]
        assert halo["mark"]["strokeWidth"] > 0 and halo["data"] == text["data"]
        assert {k: halo["mark"][k] for k in ("dx", "dy", "fontSize", "align")} == \
            {k: text["mark"][k] for k in ("dx", "dy", "fontSize", "align")}
    # R-precision's label above its point, F-beta's below: close points never overprint.
    assert [u["mark"]["dy"] < 0 for u in texts] == [r["label"].startswith("R-prec") for u in texts
                                                    for r in rows(spec, u)]
    assert (r_prec["recall"], r_prec["precision"]) == pytest.approx((2 / 3, 2 / 3))  # on the diagonal P = R
    assert r_prec["label"] == "R-prec = 0.667"
    expected_f = (1 + 4) * (3 / 4) * 1 / (4 * 3 / 4 + 1)  # (1 + b^2) P R / (b^2 P + R), b = 2
    assert f_two["value"] == pytest.approx(expected_f)
    assert f_two["value"] == pytest.approx(m.f_beta(rels, k=4, beta=2.0))
    assert f_two["label"] == f"F2@4 = {expected_f:.3f}"
    assert (f_two["recall"], f_two["precision"]) == pytest.approx((1.0, 3 / 4))
    (diagonal,) = [u for u in units(spec) if tooltip_fields(u) == ["line"]]
    assert [(r["recall"], r["precision"]) for r in rows(spec, diagonal)] == [(0, 0), (1, 1)]


def test_two_systems_share_colour_shape_and_dash_scales_in_input_order():
    first = m.precision_recall_points_breakdown([1, 0, 1])
    second = m.precision_recall_points_breakdown([0, 1, 1])
    spec = precision_recall_chart({"BM25": first, "neural": second}).to_dict()
    curve = unit_with(spec, "line", y="interpolated precision")
    assert curve["encoding"]["color"]["scale"]["domain"] == ["BM25", "neural"]
    # Colour is never alone: each system also has its own dash.
    dashes = curve["encoding"]["strokeDash"]["scale"]["range"]
    assert curve["encoding"]["strokeDash"]["field"] == "system" and dashes[0] != dashes[1]
    assert sorted({r["system"] for r in rows(spec, curve)}) == ["BM25", "neural"]


def test_pr_chart_of_an_empty_ranking_still_draws():
    spec = precision_recall_chart({"A": m.precision_recall_points_breakdown([])}, ap_area=True,
                                  eleven_point=True).to_dict()
    assert interpolated_corners(spec) == [0, 0, 1, 0]


def test_pr_chart_bad_input():
    worked = m.precision_recall_points_breakdown([1, 0])
    with pytest.raises(ValueError, match=r"'points_by_system' parameter of precision_recall_chart must be a non-empty"):
        precision_recall_chart(worked)
    with pytest.raises(ValueError, match=r"has no column 'Prec' \(named by its 'precision' parameter\).*'P@i'"):
        precision_recall_chart({"A": worked}, precision="Prec")
    with pytest.raises(ValueError, match="'f_beta_rank' parameter of precision_recall_chart asks for rank 5"):
        precision_recall_chart({"A": worked}, f_beta_rank=5)
    with pytest.raises(ValueError, match="'ap_area' parameter of precision_recall_chart must be True or False"):
        precision_recall_chart({"A": worked}, ap_area="yes")
    with pytest.raises(ValueError, match="'beta' parameter of precision_recall_chart"):
        precision_recall_chart({"A": worked}, beta=0)


def test_precision_recall_at_rank_draws_both_columns_and_the_grades_as_text():
    worked = m.precision_recall_points_breakdown([2, 0, 1], n_relevant=3)
    spec = precision_recall_at_rank_chart(worked).to_dict()
    assert marks(spec) == ["line", "point", "text"]
    long = rows(spec, unit_with(spec, "line", x="rank", y="value"))
    assert [r["value"] for r in long if r["measure"] == "P@i"] == pytest.approx([1, 1 / 2, 2 / 3])
    assert [r["value"] for r in long if r["measure"] == "R@i"] == pytest.approx([1 / 3, 1 / 3, 2 / 3])
    grades = unit_with(spec, "text")
    assert column(rows(spec, grades), "label") == ["2", "0", "1"]
    assert grades["encoding"]["text"]["field"] == "label"
    point = unit_with(spec, "point")
    assert point["encoding"]["shape"]["field"] == "measure"  # P and R told apart by shape as well


def test_precision_recall_at_rank_without_grades():
    table = m.precision_recall_points_breakdown([1, 0]).table.drop(columns="rel")
    assert marks(precision_recall_at_rank_chart(table, grade=None).to_dict()) == ["line", "point"]
    with pytest.raises(ValueError, match="no column 'rel'.*Pass grade="):
        precision_recall_at_rank_chart(table)


# --- ROC ------------------------------------------------------------------------------------

def test_roc_chart_draws_the_breakdowns_rates_in_order_with_the_diagonal():
    labels, scores = [1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1]
    worked = m.roc_curve_breakdown(labels, scores)
    spec = roc_chart({"q1": worked}, threshold="threshold", auc={"q1": m.auc(labels, scores)}).to_dict()
    line = unit_with(spec, "line", x="fpr", y="tpr", order="step")
    data = rows(spec, line)
    assert column(data, "fpr") == pytest.approx(worked.table["FPR"].tolist())
    assert column(data, "tpr") == pytest.approx(worked.table["TPR"].tolist())
    assert data[0]["threshold"] == "∞"  # the "nothing is positive" threshold, which JSON cannot hold as a number
    assert {r["curve"] for r in data} == {"q1 (AUC 0.750)"}  # 3 of the 4 (positive, negative) pairs in order
    chance = [u for u in units(spec) if mark(u) == "line"][0]
    assert [(r["fpr"], r["tpr"]) for r in rows(spec, chance)] == [(0, 0), (1, 1)]


def test_roc_chart_takes_plain_arrays_and_rejects_unequal_lengths():
    spec = roc_chart({"a": ([0, 0.5, 1], [0, 1, 1]), "b": ([0, 1], [0, 1])}).to_dict()
    line = unit_with(spec, "line", x="fpr", order="step")
    assert [r["curve"] for r in rows(spec, line)] == ["a", "a", "a", "b", "b"]
    with pytest.raises(ValueError, match=r"curves\['a'\] of roc_chart must hold fpr and tpr of the same length"):
        roc_chart({"a": ([0, 1], [0, 0.5, 1])})


# --- graded -----------------------------------------------------------------------------------

def test_gain_bars_are_the_ndcg_breakdowns_contributions_side_by_side():
    worked = m.ndcg_breakdown(NDCG_RELS, gain="exponential")
    spec = gain_contribution_chart(worked).to_dict()
    bars = unit_with(spec, "bar", x="rank", y="contribution", xOffset="ranking")
    data = rows(spec, bars)
    system = [r["contribution"] for r in data if r["ranking"] == "system ranking"]
    ideal = [r["contribution"] for r in data if r["ranking"] == "ideal ranking"]
    assert system == pytest.approx(worked.table["contribution"].tolist())
    assert ideal == pytest.approx(worked.table["ideal contribution"].tolist())
    # Course 002, CG/DCG/NDCG exercise: the bars sum to DCG 13.848 and IDCG 14.595, NDCG 0.949.
    assert sum(system) / sum(ideal) == pytest.approx(0.949, abs=5e-4)
    # Relevance is written on each bar, and the ideal bars differ in dash and opacity, not colour only.
    labels = rows(spec, unit_with(spec, "text", text="grade label"))
    assert [r["grade label"] for r in labels if r["ranking"] == "system ranking"] == ["3", "2", "3", "0", "1", "2"]
    assert [r["grade label"] for r in labels if r["ranking"] == "ideal ranking"] == ["3", "3", "2", "2", "1", "0"]
    assert bars["encoding"]["strokeDash"]["field"] == "ranking"
    assert bars["encoding"]["fillOpacity"]["field"] == "ranking"
    # An ordinal scale, named: Vega-Lite 5 (JupyterLab 4's renderer) picks a "point" scale for a discrete
    # opacity otherwise, which maps a one-ranking range [0.9] to nothing (hollow bars in the tutorial).
    assert bars["encoding"]["fillOpacity"]["scale"]["type"] == "ordinal"


def test_gain_chart_running_sums_on_their_own_axis():
    worked = m.ndcg_breakdown(NDCG_RELS)
    spec = gain_contribution_chart(worked, running="running DCG", ideal_running="running IDCG").to_dict()
    assert spec["resolve"]["scale"]["y"] == "independent"
    line = unit_with(spec, "line", y="running")
    data = rows(spec, line)
    assert [r["running"] for r in data if r["ranking"] == "system ranking"] == pytest.approx(
        worked.table["running DCG"].tolist())
    assert [r["running"] for r in data if r["ranking"] == "ideal ranking"] == pytest.approx(
        worked.table["running IDCG"].tolist())
    assert line["encoding"]["y"]["axis"]["orient"] == "right"


def test_gain_chart_of_dcg_alone():
    worked = m.dcg_breakdown([0, 3])
    spec = gain_contribution_chart(worked, ideal_grade=None, ideal_contribution=None).to_dict()
    data = rows(spec, unit_with(spec, "bar"))
    assert {r["ranking"] for r in data} == {"system ranking"}
    assert column(data, "contribution") == pytest.approx([0, 3 / math.log2(3)])  # rel = 0, 3; linear gain
    with pytest.raises(ValueError, match="'ideal_grade' and 'ideal_contribution' parameters of gain_contribution"):
        gain_contribution_chart(m.ndcg_breakdown([1]), ideal_grade=None)
    # By role: a worked DCG has no ideal ranking, so the chart draws the system's bars alone.
    assert gain_contribution_chart(worked).to_dict()["datasets"] == spec["datasets"]
    # A bare DataFrame has no roles: its columns are named, or the message says how.
    with pytest.raises(ValueError, match="'grade' parameter of gain_contribution_chart must name a column"):
        gain_contribution_chart(worked.table, rank="rank", contribution="contribution")


def test_err_bars_are_stop_probabilities_and_the_line_the_running_err():
    # Grades 2, 1 with g_max = 2: R = (2^2 - 1) / 4 = 3/4 and (2 - 1) / 4 = 1/4;
    # P(stop at 1) = 3/4, P(stop at 2) = (1 - 3/4) * 1/4; ERR = 3/4 / 1 + 1/16 / 2.
    worked = m.err_breakdown([2, 1])
    spec = err_chart(worked).to_dict()
    bars = rows(spec, unit_with(spec, "bar", x="rank", y="value"))
    assert column(bars, "value") == pytest.approx([3 / 4, (1 - 3 / 4) * 1 / 4])
    line = rows(spec, unit_with(spec, "line", y="value"))
    assert column(line, "value") == pytest.approx([3 / 4, 3 / 4 + (1 / 16) / 2])
    assert column(rows(spec, unit_with(spec, "text")), "grade label") == ["2", "1"]


def test_err_chart_reach_line_and_renamed_columns():
    table = m.err_breakdown([1, 1]).table.rename(columns={"P(stop here)": "stop"})
    spec = err_chart(table, rank="rank", grade="grade", stop="stop", running="running ERR",
                     reach="P(reach rank)").to_dict()
    lines = rows(spec, unit_with(spec, "line"))
    assert [r["value"] for r in lines if r["quantity"] == "P(reach rank)"] == pytest.approx(
        table["P(reach rank)"].tolist())
    with pytest.raises(ValueError, match=r"'stop' parameter of err_chart must name a column"):
        err_chart(table, rank="rank")
    with pytest.raises(ValueError, match=r"err_chart has no column 'P\(stop here\)'"):
        err_chart(table, rank="rank", stop="P(stop here)")


# --- two rankings -----------------------------------------------------------------------------

def test_rank_scatter_points_are_the_spearman_table_and_the_diagonal_spans_it():
    srcc = PRESETS["srcc_exercise"]  # course 002, SRCC exercise: R1 = 1..10, R2 = 2, 3, 1, 5, 4, 7, 8, 10, 6, 9
    worked = m.spearman_rho_breakdown(list(srcc.ranks_a), list(srcc.ranks_b))
    spec = rank_scatter_chart(worked, name_a="R1", name_b="R2").to_dict()
    points = rows(spec, unit_with(spec, "point", x="a", y="b"))
    assert column(points, "a") == pytest.approx(worked.table["s1"].tolist())
    assert column(points, "b") == pytest.approx(worked.table["s2"].tolist())
    assert sum(d * d for d in column(points, "d")) == 24  # the slide's sum of d^2
    labels = unit_with(spec, "text", text="doc")
    assert column(rows(spec, labels), "doc") == worked.table["doc"].astype(str).tolist()
    diagonal = [u for u in units(spec) if mark(u) == "line"][0]
    assert [(r["a"], r["b"]) for r in rows(spec, diagonal)] == [(0.5, 0.5), (10.5, 10.5)]


def test_rank_scatter_pair_segments_agree_with_kendalls_verdicts():
    a, b = [1, 2, 3, 4], [2, 1, 3, 3]
    worked = m.spearman_rho_breakdown(a, b)
    kendall = m.kendall_tau_breakdown(a, b)
    pairs = list(zip(kendall.table["i"], kendall.table["j"]))
    spec = rank_scatter_chart(worked, highlight_pairs=pairs).to_dict()
    segments = rows(spec, unit_with(spec, "line", detail="pair"))
    verdicts = {r["pair"]: r["pair is"] for r in segments}
    for (x, y), expected in zip(pairs, kendall.table["pair"]):
        assert verdicts[f"{x}, {y}"] == ("tied" if expected.startswith("tied") else expected)
    with pytest.raises(ValueError, match="'highlight_pairs' parameter of rank_scatter_chart names 'd9'"):
        rank_scatter_chart(worked, highlight_pairs=[("d1", "d9")])


def test_pair_matrix_letters_and_counts_follow_the_kendall_table():
    srcc = PRESETS["srcc_exercise"]
    worked = m.kendall_tau_breakdown(list(srcc.ranks_a), list(srcc.ranks_b))
    spec = pair_matrix_chart(worked).to_dict()
    cells = rows(spec, unit_with(spec, "rect", x="j", y="i"))
    assert column(cells, "letter") == [{"concordant": "C", "discordant": "D"}[p] for p in worked.table["pair"]]
    letters = unit_with(spec, "text", text="letter")
    assert letters["mark"]["color"] == "black"
    counts = worked.details["counts"]
    assert spec["title"]["subtitle"] == f"{counts['concordant']} concordant, {counts['discordant']} discordant, 0 tied"
    assert {"i", "j", "pair", "order in a", "order in b"} <= set(tooltip_fields(letters))
    # The matrix keeps the documents in ranking order on both axes: each axis sorts by an order column.
    order = list(dict.fromkeys(worked.table["i"].tolist() + worked.table["j"].tolist()))
    assert axis_order(cells, letters, "x") == order[1:]  # d1 is never the second document of a pair
    assert axis_order(cells, letters, "y") == order[:-1]


def axis_order(cells: list[dict], unit: dict, channel: str) -> list:
    """The documents along an axis sorted by the field its sort names (its minimum over each document's cells)."""
    sort, field = unit["encoding"][channel]["sort"], unit["encoding"][channel]["field"]
    assert sort["op"] == "min"
    position = {}
    for cell in cells:
        position[cell[field]] = min(position.get(cell[field], math.inf), cell[sort["field"]])
    return sorted(position, key=position.get)


def test_pair_matrix_follows_the_order_given_and_puts_unlisted_documents_after_it():
    pairs = pd.DataFrame({"i": ["a", "a", "b"], "j": ["b", "c", "c"], "pair": ["C", "D", "C"]})
    spec = pair_matrix_chart(pairs, order=["c", "b"]).to_dict()
    cells = rows(spec, unit_with(spec, "rect"))
    letters = unit_with(spec, "text", text="letter")
    assert axis_order(cells, letters, "x") == ["c", "b"] and axis_order(cells, letters, "y") == ["b", "a"]


def test_pair_matrix_with_ties_letters_them_t_and_counts_each_kind():
    worked = m.kendall_tau_breakdown([1, 1, 2], [1, 2, 2])  # pairs: tied in a, concordant, tied in b
    spec = pair_matrix_chart(worked).to_dict()
    assert column(rows(spec, unit_with(spec, "rect")), "letter") == ["T", "C", "T"]
    assert spec["title"]["subtitle"] == "1 concordant, 0 discordant, 1 tied in a, 1 tied in b"


def test_pair_matrix_accepts_letters_and_rejects_other_verdicts():
    pairs = pd.DataFrame({"doc i": ["a", "a", "b"], "doc j": ["b", "c", "c"], "verdict": ["c", "D", "T"]})
    spec = pair_matrix_chart(pairs, first="doc i", second="doc j", verdict="verdict", order=["a", "b", "c"]).to_dict()
    assert column(rows(spec, unit_with(spec, "rect")), "pair is") == ["concordant", "discordant", "tied"]
    with pytest.raises(ValueError, match="must hold C, D or T.*got 'maybe' in row 2"):
        pair_matrix_chart(pairs.assign(verdict=["C", "maybe", "T"]), first="doc i", second="doc j",
                          verdict="verdict")


# --- behaviour explorer -------------------------------------------------------------------------

def position_table(n=5):
    # One relevant document at rank p of n: RR = AP = 1/p, nDCG = 1/log2(p + 1) (hand formulas).
    rows_ = []
    for p in range(1, n + 1):
        rows_ += [{"position": p, "metric": "RR", "value": 1 / p}, {"position": p, "metric": "AP", "value": 1 / p},
                  {"position": p, "metric": "nDCG", "value": 1 / math.log2(p + 1)}]
    return pd.DataFrame(rows_)


def test_metric_vs_position_lines_and_shared_end_labels():
    table = position_table()
    spec = metric_vs_position_chart(table).to_dict()
    assert marks(spec) == ["line", "point", "text"]
    line = unit_with(spec, "line", x="position", y="value")
    data = rows(spec, line)
    assert [r["value"] for r in data if r["metric"] == "nDCG"] == pytest.approx(
        [1 / math.log2(p + 1) for p in range(1, 6)])
    assert line["encoding"]["strokeDash"]["field"] == "metric"
    ends = rows(spec, unit_with(spec, "text"))
    assert sorted(column(ends, "metric")) == ["RR, AP", "nDCG"]  # RR and AP end on the same value
    assert all(e["position"] == 5 for e in ends)


def test_metric_scatter_points_group_and_diagonal():
    table = pd.DataFrame({"AP": [0.2, 0.5, 0.9], "nDCG": [0.3, 0.6, 0.95], "how": ["random", "perturbed", "random"]})
    spec = metric_scatter_chart(table, "AP", "nDCG", group="how", diagonal=True,
                                subtitle="Kendall's τ = 1.00").to_dict()
    points = unit_with(spec, "point", x="x", y="y")
    data = rows(spec, points)
    assert column(data, "x") == table["AP"].tolist() and column(data, "y") == table["nDCG"].tolist()
    assert points["encoding"]["shape"]["field"] == "group" and points["encoding"]["color"]["field"] == "group"
    assert points["encoding"]["x"]["title"] == "AP" and points["encoding"]["y"]["title"] == "nDCG"
    diagonal = unit_with(spec, "line")
    assert [(r["x"], r["y"]) for r in rows(spec, diagonal)] == [(0.2, 0.2), (0.95, 0.95)]
    assert spec["title"] == {"text": "nDCG against AP", "subtitle": "Kendall's τ = 1.00"}
    with pytest.raises(ValueError, match="metric_scatter_chart has no column 'MRR'"):
        metric_scatter_chart(table, "AP", "MRR")


# --- many queries ---------------------------------------------------------------------------------

def test_per_query_dots_carry_the_table_and_the_pick_selection():
    table = per_query_table()
    spec = per_query_chart(table, measure="AP", select=True).to_dict()
    dots = unit_with(spec, "point", y="query_id", x="value")
    data = rows(spec, dots)
    assert list(zip(column(data, "query_id"), column(data, "system"), column(data, "value"))) == list(
        table.itertuples(index=False, name=None))
    (param,) = spec["params"]
    assert param["name"] == "pick" and param["select"] == {"type": "point", "fields": ["query_id"]}
    assert dots["encoding"]["opacity"]["condition"]["param"] == "pick"
    assert dots["encoding"]["shape"]["field"] == "system"
    assert dots["encoding"]["x"]["title"] == "AP"


def test_per_query_sorting_renaming_and_bars():
    table = per_query_table().rename(columns={"query_id": "topic", "value": "AP"})
    spec = per_query_chart(table, query="topic", value="AP", sort="value", kind="bars").to_dict()
    assert "params" not in spec  # no selection unless asked
    bars = unit_with(spec, "bar", x="query_id", xOffset="system")
    # Mean AP: q1 (0.5 + 0.25) / 2 = 0.375, q2 (1 + 0.75) / 2 = 0.875, q3 (0 + 0.5) / 2 = 0.25.
    assert axis_order(rows(spec, bars), bars, "x") == ["q2", "q1", "q3"]
    assert bars["encoding"]["x"]["title"] == "topic"


def test_per_query_dot_plot_grows_with_the_number_of_queries():
    few = per_query_chart(per_query_table()).to_dict()["height"]
    many_table = pd.DataFrame({"query_id": [f"q{i}" for i in range(200)], "value": 0.5})
    many = per_query_chart(many_table, system=None).to_dict()["height"]
    assert many > 200 * 16 > few


def test_delta_chart_sorts_signs_and_counts_wins_ties_losses():
    deltas = pd.Series({"q1": 0.25, "q2": -0.5, "q3": 0.0, "q4": 0.75, "q5": np.nan})
    spec = delta_chart(deltas, name_a="BM25", name_b="neural", measure="AP", select=True).to_dict()
    bars = unit_with(spec, "bar", x="query_id", y="bar top", y2="bar bottom")
    data = rows(spec, bars)
    assert column(data, "query_id") == ["q4", "q1", "q3", "q2"]
    assert column(data, "delta") == [0.75, 0.25, 0.0, -0.5]
    assert column(data, "outcome") == ["neural better", "neural better", "tie", "BM25 better"]
    # Bars run from 0 to the difference; the tie gets a sliver of 2.5% of the largest |difference| (0.75)
    # around 0, so it can be seen, hovered and clicked.
    assert column(data, "bar bottom") == pytest.approx([0, 0, -0.025 * 0.75, 0])
    assert column(data, "bar top") == pytest.approx([0.75, 0.25, 0.025 * 0.75, -0.5])
    assert column(data, "summary")[2] == "q3: tie, AP neural - BM25 = +0.0000"  # what a screen reader says
    assert bars["encoding"]["description"]["field"] == "summary"
    assert axis_order(data, bars, "x") == ["q4", "q1", "q3", "q2"]
    assert spec["title"]["subtitle"] == ("neural better on 2, tied on 1, BM25 better on 1 of 4 queries "
                                         "(1 without a value left out)")
    markers = unit_with(spec, "point", shape="outcome")  # a second cue, and something to hover at a tie
    assert markers["encoding"]["shape"]["scale"]["range"] == ["triangle-up", "circle", "triangle-down"]
    (param,) = spec["params"]
    assert param["name"] == "pick" and param["select"] == {"type": "point", "fields": ["query_id"]}
    assert param["views"] == [bars["name"]]
    assert markers["encoding"]["opacity"]["condition"]["param"] == "pick"
    assert bars["encoding"]["opacity"]["condition"]["param"] == "pick"


def test_delta_chart_tie_tolerance_and_dataframe_input():
    table = pd.DataFrame({"qid": ["a", "b", "c"], "diff": [0.004, -0.02, 0.01]})
    spec = delta_chart(table, query="qid", delta="diff", tie_tolerance=0.005).to_dict()
    data = rows(spec, unit_with(spec, "bar"))
    assert dict(zip(column(data, "query_id"), column(data, "outcome"))) == {"c": "B better", "a": "tie",
                                                                            "b": "A better"}
    with pytest.raises(ValueError, match="'tie_tolerance' parameter of delta_chart"):
        delta_chart(table, query="qid", delta="diff", tie_tolerance=-1)


def test_distribution_box_statistics_by_hand():
    # values 1, 2, 3, 4, 5, 20: linear quartiles Q1 = 2 + 0.25 * (3 - 2) = 2.25, median 3.5,
    # Q3 = 4 + 0.75 * (5 - 4) = 4.75; IQR 2.5 so the fences are -1.5 and 8.5: whiskers 1 and 5, 20 an outlier.
    table = pd.DataFrame({"query_id": [f"q{i}" for i in range(6)], "measure": "AP", "value": [1, 2, 3, 4, 5, 20]})
    spec = distribution_chart(table).to_dict()
    (box,) = rows(spec, unit_with(spec, "bar", x="q1"))
    assert box["q1"] == pytest.approx(2.25) and box["median"] == pytest.approx(3.5) and box["q3"] == pytest.approx(4.75)
    assert (box["whisker low"], box["whisker high"]) == (1, 5)
    assert box["mean"] == pytest.approx(35 / 6) and box["queries"] == 6
    assert box["q1"] == pytest.approx(table["value"].quantile(0.25))  # pandas' default agrees
    dots = rows(spec, unit_with(spec, "point", x="value"))
    assert column(dots, "value") == [1, 2, 3, 4, 5, 20] and column(dots, "query_id")[-1] == "q5"


def test_distribution_rows_per_measure_and_system():
    table = pd.concat([per_query_table().assign(measure="AP"), per_query_table().assign(measure="RR")])
    spec = distribution_chart(table, system="system").to_dict()
    boxes = rows(spec, unit_with(spec, "bar", x="q1"))
    assert column(boxes, "row") == ["AP · A", "AP · B", "RR · A", "RR · B"]  # the system is in the label too


def test_distribution_histogram_needs_one_measure():
    table = per_query_table().assign(measure="AP")
    spec = distribution_chart(table, system="system", kind="histogram").to_dict()
    bar = unit_with(spec, "bar")
    assert bar["encoding"]["x"]["bin"] == {"maxbins": 20}
    assert bar["encoding"]["y"]["aggregate"] == "count"
    with pytest.raises(ValueError, match="distribution_chart draws a histogram of one measure; the table holds 2"):
        distribution_chart(pd.concat([table, table.assign(measure="RR")]), kind="histogram")
    with pytest.raises(ValueError, match="'kind' parameter of distribution_chart must be one of 'box', 'histogram'"):
        distribution_chart(table, kind="violin")


EMPTY_PER_QUERY = pd.DataFrame({"query_id": [], "system": [], "measure": [], "value": []})


@pytest.mark.parametrize("build", [
    lambda: per_query_chart(EMPTY_PER_QUERY, select=True),
    lambda: per_query_chart(EMPTY_PER_QUERY, kind="bars"),
    lambda: delta_chart(pd.Series([], dtype=float), select=True),
    lambda: delta_chart(pd.Series({"q1": np.nan})),
    lambda: distribution_chart(EMPTY_PER_QUERY),
    lambda: distribution_chart(EMPTY_PER_QUERY, kind="histogram"),
    lambda: gain_contribution_chart(m.ndcg_breakdown([]), running="running DCG", ideal_running="running IDCG"),
    lambda: err_chart(m.err_breakdown([])),
    lambda: precision_recall_at_rank_chart(m.precision_recall_points_breakdown([])),
    lambda: rank_scatter_chart(pd.DataFrame({"doc": [], "s1": [], "s2": []})),
    lambda: pair_matrix_chart(pd.DataFrame({"i": [], "j": [], "pair": []})),
    lambda: metric_vs_position_chart(pd.DataFrame({"position": [], "metric": [], "value": []})),
    lambda: metric_scatter_chart(pd.DataFrame({"a": [], "b": []}), "a", "b", diagonal=True),
], ids=["per_query", "per_query bars", "delta", "delta all NaN", "distribution", "histogram", "gain", "err",
        "P/R at rank", "rank scatter", "pair matrix", "behaviour", "metric scatter"])
def test_empty_tables_give_an_empty_chart_not_an_error(build):
    # A page shows an empty ranking or an empty upload without a traceback.
    spec = build().to_dict()
    assert spec["width"] == "container"


# --- a chart in two parts: the template (options only) and the frames (data) ---------------------

def resolved(spec: dict, datasets: dict):
    """The spec with every named-data reference replaced by its rows (NaN read as None), datasets dropped."""
    if isinstance(spec, dict):
        return {key: ([{k: None if isinstance(v, float) and math.isnan(v) else v for k, v in row.items()}
                       for row in datasets[value["name"]]]
                      if key == "data" and isinstance(value, dict) and "name" in value else resolved(value, datasets))
                for key, value in spec.items() if key not in ("datasets", "$schema")}
    if isinstance(spec, list):
        return [resolved(value, datasets) for value in spec]
    return spec


def split_cases():
    """(builder, data, options) as the teaching pages call them, for rankings of different shapes."""
    cases = []
    for rels in ([(3 * i + i // 7) % 4 for i in range(40)], list(NDCG_RELS), [0, 0, 1], [0, 0]):
        pr = m.precision_recall_points_breakdown(rels, n_relevant=sum(g >= 1 for g in rels) + 1)
        q2 = m.precision_recall_points_breakdown(list(PRESETS["q2_binary"].rels), n_relevant=3)
        for rounding in (None, "ceil", "lround", "floor_plus_0.9"):
            cases.append(("precision_recall_chart", {"A: q1": pr, "B": q2},
                          dict(ap_area=True, eleven_point=True, r_precision={"A: q1": 0.5}, f_beta_rank={"A: q1": 2},
                               beta=2.0, rounding=rounding, font_size=22, title="PR")))
        cases.append(("precision_recall_chart", {"A": pr}, {}))
        cases.append(("precision_recall_at_rank_chart", pr, dict(font_size=22)))
        cases.append(("precision_recall_at_rank_chart", pr, dict(grade=None)))
        cases.append(("gain_contribution_chart", m.ndcg_breakdown(rels, gain="exponential"),
                      dict(running="running DCG", ideal_running="running IDCG", font_size=22, title="DCG")))
        cases.append(("gain_contribution_chart", m.dcg_breakdown(rels), dict(ideal_grade=None, ideal_contribution=None)))
        cases.append(("err_chart", m.err_breakdown(rels), dict(grade="grade", reach="P(reach rank)")))
        cases.append(("err_chart", m.err_breakdown(rels), dict(grade=None, running=None)))
    srcc = PRESETS["srcc_exercise"]
    spearman = m.spearman_rho_breakdown(list(srcc.ranks_a), list(srcc.ranks_b))
    kendall = m.kendall_tau_breakdown(list(srcc.ranks_a), list(srcc.ranks_b))
    cases += [("rank_scatter_chart", spearman, dict(highlight_pairs=[("d1", "d3"), ("d2", "d4")], name_a="ideal")),
              ("rank_scatter_chart", spearman, {}),
              ("pair_matrix_chart", kendall, dict(order=list(kendall.table["i"].unique())[::-1], font_size=22)),
              ("pair_matrix_chart", m.kendall_tau_breakdown([1, 1, 2], [1, 2, 2]), {}),
              ("metric_vs_position_chart", position_table(), dict(font_size=22)),
              ("metric_scatter_chart", pd.DataFrame({"AP": [0.1, 0.5, 0.5], "nDCG": [0.2, 0.7, 0.4],
                                                     "run": ["r1", "r2", "r3"], "kind": ["a", "b", "a"]}),
               dict(x="AP", y="nDCG", label="run", group="kind", diagonal=True, subtitle="Kendall's τ = 0.33")),
              ("metric_scatter_chart", pd.DataFrame({"AP": [0.1, 0.5], "nDCG": [0.2, 0.7]}), dict(x="AP", y="nDCG"))]
    per_query = per_query_table()
    cases += [("per_query_chart", per_query, dict(select=True, sort="value")),
              ("per_query_chart", per_query.rename(columns={"value": "AP"}), dict(value="AP", kind="bars")),
              ("delta_chart", pd.Series({"q1": 0.25, "q2": -0.5, "q3": 0.0, "q4": np.nan}),
               dict(select=True, name_a="BM25", name_b="neural", measure="AP")),
              ("distribution_chart", per_query.assign(measure="AP"), dict(system="system")),
              ("distribution_chart", per_query.assign(measure="AP"), dict(kind="histogram", font_size=22))]
    roc = m.roc_curve_breakdown([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    cases += [("roc_chart", {"q1": roc, "q2": ([0, 0.5, 1], [0.5, 1, 1])}, dict(threshold="threshold",
                                                                             auc={"q1": 0.75})),
              ("roc_chart", {"q1": roc}, {})]
    # Averaged interpolated precision (the run-files page): not one ranking's table.
    cases.append(("precision_recall_chart", {"run": pd.DataFrame({"R@i": np.arange(11) / 10,
                                                                  "P@i": np.linspace(1, 0.1, 11)})},
                  dict(rank=None, raw_points=False, eleven_point=True)))
    return cases


@pytest.mark.parametrize("builder, data, options", split_cases())
def test_template_filled_with_the_frames_is_the_builders_chart(builder, data, options):
    parts = charts.chart_parts(builder, data, **options)
    template = parts.template(validate=True)
    assert "datasets" not in template
    template.update(parts.top_level)
    public = getattr(charts, builder)(data, **options).to_dict()
    frames = {name: frame.to_pylist() for name, frame in parts.frames.items()}
    assert views_numbered(resolved(template, frames)) == views_numbered(resolved(public, public["datasets"]))


def views_numbered(spec: dict) -> str:
    """The spec as JSON with Altair's view names (a hash of the chart, data included) numbered in order."""
    text = json.dumps(spec, sort_keys=True)
    names = list(dict.fromkeys(re.findall(r"view_[0-9a-f]+", text)))
    for number, name in enumerate(names):
        text = text.replace(name, f"view_{number}")
    return text


def test_the_template_depends_on_the_options_not_on_the_grades():
    tables = [m.ndcg_breakdown(rels) for rels in ([3, 2, 3, 0, 1, 2], [0, 1, 0], [2] * 30)]
    parts = [charts.chart_parts("gain_contribution_chart", table, running="running DCG") for table in tables]
    assert len({p.template_key() for p in parts}) == 1
    assert parts[0].template() == parts[2].template()
    other = charts.chart_parts("gain_contribution_chart", tables[0], running="running DCG", font_size=30)
    assert other.template_key() != parts[0].template_key()


def test_every_builder_is_split_and_other_names_have_no_parts():
    every = every_chart()
    assert all(name.split()[0] in charts._PARTS for name in every)
    assert charts.chart_parts("no_such_chart", per_query_table()) is None


# --- the precision-recall chart follows the chosen rounding rule --------------------------------

Q2 = list(PRESETS["q2_binary"].rels)  # lecture 002: relevant at ranks 3, 8, 15, R = 3


def eleven_squares(spec):
    squares = rows(spec, unit_with(spec, "point", x="recall level"))
    return column(squares, "interpolated precision")


def step_value(corners: list, level: float) -> float:
    """The step-before curve at recall ``level``: the value of the first corner at or right of it."""
    pairs = list(zip(corners[::2], corners[1::2]))
    return next(y for x, y in pairs if x >= level - 1e-12)


def test_lround_chart_draws_trec_eval_10s_values_like_the_table():
    # Level 0.4: 0.4 x 3 = 1.2 rounds to 1 relevant document under lround (trec_eval 10), so the best
    # precision from rank 3 on: max(1/3, 2/8, 3/15) = 1/3; the textbook ceil(1.2) = 2 gives max(2/8, 3/15) = 0.25.
    worked = m.precision_recall_points_breakdown(Q2, n_relevant=3)
    lround = precision_recall_chart({"A": worked}, eleven_point=True, rounding="lround").to_dict()
    textbook = precision_recall_chart({"A": worked}, eleven_point=True, rounding="ceil").to_dict()
    assert eleven_squares(lround)[4] == pytest.approx(1 / 3)
    assert eleven_squares(textbook)[4] == pytest.approx(2 / 8)
    assert step_value(interpolated_corners(lround), 0.4) == pytest.approx(1 / 3)
    assert step_value(interpolated_corners(textbook), 0.4) == pytest.approx(2 / 8)
    expected = m.eleven_point_precision_breakdown(Q2, n_relevant=3, rounding="lround").table["interpolated P"]
    assert eleven_squares(lround) == pytest.approx(expected.tolist())


@settings(max_examples=30, deadline=None)
@given(rels=rankings, missing=st.integers(0, 3), rounding=st.sampled_from(["ceil", "floor_plus_0.9", "lround"]))
def test_chart_squares_and_curve_equal_the_metric_under_every_rounding(rels, missing, rounding):
    n_relevant = sum(g >= 1 for g in rels) + missing
    worked = m.precision_recall_points_breakdown(rels, n_relevant=n_relevant)
    spec = precision_recall_chart({"A": worked}, eleven_point=True, rounding=rounding).to_dict(validate=False)
    expected = m.eleven_point_precision_breakdown(rels, n_relevant=n_relevant, rounding=rounding)
    assert eleven_squares(spec) == pytest.approx(expected.table["interpolated P"].tolist())
    # The curve, read at recall levels away from the rule's break points, is the metric there too.
    corners = interpolated_corners(spec)
    levels = [level for level in np.linspace(0, 1, 41)
              if n_relevant == 0 or all(abs(level * n_relevant - (c + shift)) > 1e-6 for c in range(n_relevant + 1)
                                        for shift in (0.0, 0.1, 0.5))]
    metric = m.interpolated_precision(rels, levels, n_relevant=n_relevant, rounding=rounding)
    assert [step_value(corners, level) for level in levels] == pytest.approx(metric.tolist())


def test_textbook_rule_draws_what_the_points_alone_give():
    # On one ranking's breakdown, rounding="ceil" (from rankviz.metrics) and None (from the points) agree.
    for rels in ([1, 0, 1, 0], [0, 1, 1], [(3 * i + i // 7) % 4 for i in range(40)]):
        worked = m.precision_recall_points_breakdown(rels, n_relevant=sum(g >= 1 for g in rels) + 1)
        given = precision_recall_chart({"A": worked}, eleven_point=True).to_dict()
        textbook = precision_recall_chart({"A": worked}, eleven_point=True, rounding="ceil").to_dict()
        assert interpolated_corners(textbook) == pytest.approx(interpolated_corners(given))
        assert eleven_squares(textbook) == pytest.approx(eleven_squares(given))


def test_rounding_needs_one_rankings_table():
    worked = m.precision_recall_points_breakdown([1, 0, 1], n_relevant=2)
    with pytest.raises(ValueError, match="The 'rounding' parameter of precision_recall_chart must be one of"):
        precision_recall_chart({"A": worked}, rounding="round")
    wrong_r = dataclasses.replace(worked, details={"n_relevant": 1})  # fewer than the two relevant ranks shown
    with pytest.raises(ValueError, match=r"must be one ranking's table.*R \(details\['n_relevant'\]\) is 1"):
        precision_recall_chart({"A": wrong_r}, rounding="lround")


def test_grade_labels_sit_in_a_row_above_the_plot_and_legends_show_markers_without_dashes():
    # Issue 20: grade labels were drawn at the bars' tops and at y = 1.09 inside the plot, where the
    # running lines' markers and P@1 = 1 sat on them; legends drew each series' dash round its
    # filled marker ("blobs"). A row above the plot (a negative pixel y) is clear of every mark.
    from rankviz.charts import metric_vs_position_chart

    worked = m.ndcg_breakdown(NDCG_RELS)
    specs = {
        "gain": gain_contribution_chart(worked, running="running DCG", ideal_running="running IDCG",
                                        font_size=22).to_dict(),
        "err": err_chart(m.err_breakdown([3, 2, 3, 0, 1, 2]), reach="P(reach rank)", font_size=22).to_dict(),
        "P@i": precision_recall_at_rank_chart(m.precision_recall_points_breakdown([1, 0, 1]),
                                              font_size=22).to_dict(),
    }
    for name, spec in specs.items():
        labels = unit_with(spec, "text", text="grade label" if name != "P@i" else "label")
        assert labels["encoding"]["y"] == {"value": -1.2 * 22}, name
        assert "dy" not in labels["mark"], name
    specs["roc"] = roc_chart({"A": ([0.0, 0.5, 1.0], [0.0, 1.0, 1.0])}).to_dict()
    specs["moving"] = metric_vs_position_chart(pd.DataFrame({"position": [1, 2, 1, 2], "metric": ["P@2", "P@2", "RR",
                                                                                                "RR"],
                                                             "value": [0.5, 0.5, 1.0, 0.5]})).to_dict()
    for name, spec in specs.items():
        dashed = [u for u in units(spec) if u.get("encoding", {}).get("strokeDash", {}).get("field")]
        assert dashed, name
        for unit in dashed:  # the dash stays on the plot; its legend symbols carry no outline
            assert unit["encoding"]["strokeDash"]["legend"] == {"symbolStrokeWidth": 0}, name
