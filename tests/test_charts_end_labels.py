"""The behaviour explorer's end-of-line labels: metrics ending on close values (P@10 = 0.1,
AP = 0.11...) get labels one text line apart instead of printed on top of each other."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rankviz.charts import metric_vs_position_chart
from rankviz.charts.behaviour import _plot_height, _spread
from rankviz.teaching.explore import position_sweep


def _end_labels(spec: dict) -> list[dict]:
    text_layer = next(layer for layer in spec["layer"] if layer["mark"]["type"] == "text")
    assert text_layer["encoding"]["y"]["field"] == "label_value"
    return spec["datasets"][text_layer["data"]["name"]]


def test_labels_far_apart_stay_on_their_values():
    assert _spread(np.array([0.1, 0.5, 0.9]), 0.05, 0.0, 1.0).tolist() == pytest.approx([0.1, 0.5, 0.9])


def test_two_close_labels_move_apart_around_their_mean():
    # 0.10 and 0.12 with a gap of 0.06: centred on 0.11, at 0.11 -+ 0.03
    assert _spread(np.array([0.12, 0.10]), 0.06, 0.0, 1.0).tolist() == pytest.approx([0.14, 0.08])


def test_a_block_at_the_bottom_is_kept_inside_the_axis():
    # 0, 0.01, 0.02 with a gap of 0.1 would centre on 0.01 (-0.09 ... 0.11): lifted to 0, 0.1, 0.2
    assert _spread(np.array([0.0, 0.01, 0.02]), 0.1, 0.0, 1.0).tolist() == pytest.approx([0.0, 0.1, 0.2])


@given(st.lists(st.floats(0, 1), min_size=1, max_size=13), st.floats(0.001, 0.07))
def test_spread_keeps_the_order_a_gap_apart_and_inside_the_axis(values, gap):
    values = np.array(values)
    spread = _spread(values, gap, 0.0, 1.0)
    order = np.argsort(values, kind="stable")
    assert np.all(np.diff(spread[order]) >= gap - 1e-9)  # one line apart, bottom to top as the values
    assert spread.min() >= -1e-9 and spread.max() <= 1 + 1e-9  # 13 labels * 0.07 < 1: they fit


def test_the_plot_height_estimate_is_at_most_what_chromium_drew():
    # Measured on the explorer page in Chromium (1400 px window, 6 metrics, the legend in 2 rows):
    # of the 420 px chart, the y axis spans 207 px at 16 px type and 167 px at 22 px type.
    assert _plot_height(420, 16, n_series=6) <= 207
    assert _plot_height(420, 22, n_series=6) <= 167
    assert _plot_height(420, 22, n_series=6) >= 0.8 * 167  # not so small that labels fly off their lines
    assert _plot_height(420, 22, n_series=13) < _plot_height(420, 22, n_series=6)  # more legend rows
    assert _plot_height(100, 22, n_series=13) == 25  # never below a quarter of the chart


def test_close_end_values_get_labels_one_line_apart_in_the_chart():
    # Three metrics ending at rank 10 on 0.10, 0.11, 0.12: 0.01 of a ~200 px axis is 2 px, far less
    # than a 16 px font's line (0.9 * 16 * 1.2 = 17.3 px).
    table = pd.DataFrame({"position": [1, 10] * 3, "metric": ["P@10"] * 2 + ["AP@10"] * 2 + ["RR@10"] * 2,
                          "value": [1.0, 0.10, 1.0, 0.11, 1.0, 0.12]})
    ends = sorted(_end_labels(metric_vs_position_chart(table, height=420, font_size=16).to_dict()),
                  key=lambda row: row["value"])
    assert [row["metric"] for row in ends] == ["P@10", "AP@10", "RR@10"]
    assert [row["value"] for row in ends] == [0.10, 0.11, 0.12]  # the tooltip keeps each metric's own value
    pixels = np.diff([row["label_value"] for row in ends]) * _plot_height(420, 16, n_series=3) / (1.0 - 0.0)
    assert np.all(pixels >= 0.9 * 16 * 1.2 - 1e-6)


def test_the_explorer_sweep_labels_do_not_overlap():
    # The page's default sweep: one relevant document (grade 1 of 0-1) at rank 10 of 10 gives
    # P@10 = AP = RR = 1/10 (one shared label) and ERR = (2^1 - 1) / 2^1 * 1/10 = 0.05: 0.05 of the
    # ~200 px axis Chromium drew is 10 px, less than a line of 16 px labels (17.3 px); at 22 px, 8 px.
    sweep = position_sweep(10)
    for font_size, drawn in ((16, 207), (22, 167)):
        ends = _end_labels(metric_vs_position_chart(sweep, font_size=font_size).to_dict())
        by_label = {row["metric"]: row["value"] for row in ends}
        assert by_label["P@10, AP@10, RR@10"] == pytest.approx(1 / 10) and by_label["ERR@10"] == pytest.approx(0.05)
        labels = sorted(row["label_value"] for row in ends)
        assert np.all(np.diff(labels) * drawn >= 0.9 * font_size * 1.2 - 1e-6)
