"""The CSV and LaTeX the app's download buttons hand over."""

import io

import pandas as pd
import pytest

from rankviz.formatting import format_number
from rankviz.teaching.export import to_csv_bytes, to_latex_table


@pytest.fixture
def worked_table():
    # The lecture's DCG exercise, first three ranks: rel 3, 2, 3 with gain 2^rel - 1 = 7, 3, 7.
    df = pd.DataFrame({"rank": [1, 2, 3], "rel": [3.0, 2.0, 3.0], "log2(1+i)": [1.0, 1.584962500721156, 2.0],
                       "contribution": [7.0, 3 / 1.584962500721156, 3.5], "doc_id": ["d1", "d_2", "50%"]})
    return df


def test_csv_round_trips_at_full_precision(worked_table):
    back = pd.read_csv(io.BytesIO(to_csv_bytes(worked_table)))
    assert list(back.columns) == list(worked_table.columns)
    assert back["contribution"].tolist() == worked_table["contribution"].tolist()
    assert back["doc_id"].tolist() == ["d1", "d_2", "50%"]


def test_csv_writes_whole_floats_without_decimals(worked_table):
    lines = to_csv_bytes(worked_table).decode("utf-8").splitlines()
    assert lines[0] == "rank,rel,log2(1+i),contribution,doc_id"
    assert lines[1].startswith("1,3,1,7,")  # not 3.0 / 1.0 / 7.0


def test_csv_does_not_touch_the_input(worked_table):
    before = worked_table.copy()
    to_csv_bytes(worked_table)
    pd.testing.assert_frame_equal(worked_table, before)


def test_latex_table_is_a_booktabs_tabular_with_escaped_text(worked_table):
    tex = to_latex_table(worked_table)
    lines = tex.splitlines()
    assert lines[0] == r"\begin{tabular}{rrrrl}"
    assert lines[1:4] == [r"\toprule", r"rank & rel & log2(1+i) & contribution & doc\_id \\", r"\midrule"]
    assert lines[4] == r"1 & 3 & 1 & 7 & d1 \\"
    assert lines[5] == r"2 & 2 & 1.585 & 1.8928 & d\_2 \\"  # 3 / log2(3) = 1.89279
    assert lines[6] == r"3 & 3 & 2 & 3.5 & 50\% \\"
    assert lines[-2:] == [r"\bottomrule", r"\end{tabular}"]


def test_latex_caption_wraps_a_table():
    tex = to_latex_table(pd.DataFrame({"a": [1]}), caption="nDCG@6 & friends")
    assert tex.startswith("\\begin{table}[ht]\n\\centering\n\\begin{tabular}{r}")
    assert "\\caption{nDCG@6 \\& friends}" in tex and tex.endswith("\\end{table}")


@pytest.mark.parametrize(("value", "text"), [(7.0, "7"), (0.5, "0.5"), (1 / 3, "0.3333"), (2 / 3, "0.6667"),
                                             (float("nan"), "NaN"), (float("inf"), "inf"), (True, "True"), ("x", "x"),
                                             # a tiny negative delta rounds to 0, not "-0"
                                             (-0.00004, "0"), (-0.0, "0"), (-0.25, "-0.25")])
def test_format_number(value, text):
    assert format_number(value) == text
