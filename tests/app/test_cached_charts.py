"""show_chart (rankviz.ui.cached_charts): what it sends is the chart the builder draws, and the
precision-recall page's chart agrees with its 11-point table under every rounding rule."""

import json

import pandas as pd
import pyarrow as pa
import pytest
from app_helpers import open_app
from teaching_helpers import chart_frames, page_path

import rankviz.charts as charts
from rankviz.metrics import eleven_point_precision_breakdown, ndcg_breakdown, precision_recall_points_breakdown
from rankviz.teaching.presets import PRESETS
from rankviz.ui.cached_charts import chart_spec

Q2 = list(PRESETS["q2_binary"].rels)  # lecture 002: relevant at ranks 3, 8, 15 (R = 3)


def _sent_rows(spec: dict) -> dict:
    """The rows of each dataset as st.vega_lite_chart sends them (Arrow bytes, or rows)."""
    return {name: pa.ipc.open_stream(data).read_all().to_pylist() if isinstance(data, bytes) else data
            for name, data in spec["datasets"].items()}


@pytest.mark.parametrize("builder, data, options", [
    ("precision_recall_chart", {"A": precision_recall_points_breakdown(Q2, n_relevant=3)},
     (("ap_area", True), ("eleven_point", True), ("f_beta_rank", 8), ("r_precision", (("A", 1 / 3),)),
      ("rounding", "lround"))),
    ("gain_contribution_chart", ndcg_breakdown([3, 2, 3, 0, 1, 2], gain="exponential"),
     (("ideal_running", "running IDCG"), ("running", "running DCG"))),
    ("roc_chart", {"q1": ([0, 0.5, 1], [0.5, 1, 1])}, ()),
    ("per_query_chart", pd.DataFrame({"query_id": ["q1", "q2"], "system": "A", "value": [0.5, 1.0]}),
     (("select", True),)),
])
def test_the_spec_sent_draws_the_builders_rows(builder, data, options):
    options = tuple((name, dict(value) if name == "r_precision" else value) for name, value in options)
    spec = chart_spec(builder, data, options)
    chart = getattr(charts, builder)(data, **dict(options)).to_dict()
    sent = _sent_rows(spec)
    assert sorted(map(len, sent.values())) == sorted(map(len, chart["datasets"].values()))
    sent_rows = sorted(json.dumps(rows, sort_keys=True) for rows in sent.values())
    chart_rows = sorted(json.dumps(rows, sort_keys=True) for rows in chart["datasets"].values())
    assert sent_rows == chart_rows


@pytest.mark.parametrize("rounding", ["ceil", "floor_plus_0.9", "lround"])
def test_precision_recall_page_chart_squares_equal_its_eleven_point_table(rounding):
    at = open_app(page_path("precision_recall"), {"rels": ",".join(map(str, Q2)), "R": "3", "rounding": rounding})
    assert not at.exception, at.exception
    squares = next(frame for frame in chart_frames(at, 0) if "recall level" in frame.columns)
    expected = eleven_point_precision_breakdown(Q2, n_relevant=3, rounding=rounding)
    assert squares["interpolated precision"].tolist() == pytest.approx(expected.table["interpolated P"].tolist())
    table = next(frame.value for frame in at.dataframe if "interpolated P" in frame.value.columns)
    assert squares["interpolated precision"].tolist() == pytest.approx(table["interpolated P"].tolist())


def test_every_chart_builder_the_pages_draw_has_a_text_alternative():
    import re
    from pathlib import Path

    from rankviz.charts.descriptions import CHART_DESCRIPTIONS, chart_description

    root = Path(__file__).resolve().parents[2]
    drawn = set()
    for page in (root / "app_pages").glob("*.py"):
        drawn |= set(re.findall(r'show_chart[(,]\s*"([a-z_]+)"', page.read_text(encoding="utf-8")))
    assert drawn and drawn <= set(CHART_DESCRIPTIONS), drawn - set(CHART_DESCRIPTIONS)
    for builder in drawn:
        text = chart_description(builder, title="T")
        assert text.startswith("Chart: T. ") and len(text) > 40  # what it shows, not just "chart"
