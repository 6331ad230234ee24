"""rankviz.explain and the rich-display hooks: every registry metric with a worked table, walked.

For each one: the HTML holds the table's numbers as the app formats them and the result with its
variant; the LaTeX is one balanced display-math block; the MIME bundle has its keys (and a
Vega-Lite spec where rankviz.charts draws the metric); str() prints the value. Then known values
from the course, the errors, the lazy import, and the hooks of evaluate's and compare's results.
"""

from __future__ import annotations

import html
import json
import subprocess
import sys

import pytest

import rankviz
from rankviz.display import format_cells, latex_is_balanced
from rankviz.registry import METRICS
from rankviz.teaching.explain import (
    JUPYTERLAB_VEGA_LITE,
    NOTEBOOK_CHART_WIDTH,
    Explanation,
    explain,
    explainable_metrics,
    has_chart,
)
from rankviz.formatting import format_number

# One input per kind of per-query input (MetricSpec.inputs). A new kind fails test_every_kind_has_an_input.
INPUTS = {
    "ranking": (([3, 2, 3, 0, 1, 2],), {}),
    "ranking_levels": (([3, 2, 3, 0, 1, 2],), {}),
    "two_rankings": (([1, 2, 3, 4, 5], [2, 1, 3, 5, 4]), {}),
    "labels_scores": (([1, 0, 1, 0, 1], [0.9, 0.8, 0.4, 0.4, 0.3]), {}),
    "groups": (([1, 0, 1, 0, 1, 0], [0.9, 0.8, 0.4, 0.3, 0.5, 0.6], ["u1", "u1", "u1", "u2", "u2", "u2"]), {}),
    "per_query_values": (([0.5, 0.25, 1.0],), {}),
    "sets": (({"a", "b", "c"}, {"a", "b", "x"}, {"a", "c"}), {}),
    "counts": ((3, 4), {}),
    "subtopics": (([{"a"}, {"b"}, None, {"b"}],), {"judged": {"A": {"a"}, "B": {"b"}, "C": {"c"}, "D": {"b"}}}),
}
# Metrics whose first arguments differ from their kind's (top-K lists of item names).
SPECIAL = {"kendall_tau_distance": ((["a", "b", "c", "d"], ["b", "a", "d", "e"]), {"k": 4})}
WITH_BREAKDOWN = [spec for spec in METRICS if spec.module]
WITHOUT_BREAKDOWN = [spec for spec in METRICS if not spec.module]


def worked(spec) -> Explanation:
    args, kwargs = SPECIAL.get(spec.name, INPUTS[spec.inputs])
    return explain(spec.name, *args, **kwargs)


@pytest.fixture(scope="module", params=WITH_BREAKDOWN, ids=lambda spec: spec.name)
def explanation(request) -> Explanation:
    return worked(request.param)


def test_every_kind_has_an_input():
    assert {spec.inputs for spec in WITH_BREAKDOWN} <= set(INPUTS)
    assert explainable_metrics() == [spec.name for spec in WITH_BREAKDOWN]


def test_the_value_is_the_metric_functions(explanation):
    args, kwargs = SPECIAL.get(explanation.spec.name, INPUTS[explanation.spec.inputs])
    value = explanation.spec.function(*args, **kwargs)
    if explanation.spec.inputs == "ranking_levels":  # one value per recall level: the breakdown gives their mean
        value = sum(value) / len(value)
    value = getattr(value, "value", value)  # a named result (GAUC's) carries its value
    assert explanation.value == pytest.approx(value, nan_ok=True)


def test_html_holds_the_tables_numbers_and_the_result(explanation):
    page = explanation._repr_html_()
    cells = format_cells(explanation.table)
    for column in cells.columns:
        assert f">{html.escape(str(column))}</th>" in page
        for cell in cells[column]:
            assert f">{html.escape(cell)}</td>" in page, (column, cell)
    result = f"{html.escape(explanation.label)} = {format_number(explanation.value, 3)}"
    assert result in page
    assert html.escape(explanation.variant) in page
    # Accessible markup: a caption, column headers with their scope, the formulas labelled as math.
    assert "<caption" in page and 'scope="col"' in page and 'role="math"' in page
    assert page.count("<table") == page.count("</table>") == 1


def test_latex_is_one_balanced_display_math_block(explanation):
    latex = explanation._repr_latex_()
    assert latex.startswith("$$") and latex.endswith("$$")
    inner = latex[2:-2]
    assert "$" not in inner.replace(r"\$", "")
    assert latex_is_balanced(inner), inner
    assert explanation.worked_latex in inner and explanation.formula in inner


def test_the_mimebundle_has_its_keys_and_the_chart_where_there_is_one(explanation):
    pytest.importorskip("altair")
    bundle = explanation._repr_mimebundle_()
    assert {"text/plain", "text/html", "text/latex"} <= set(bundle)
    charts = [key for key in bundle if key.startswith("application/vnd.vegalite.v")]
    assert len(charts) == (1 if has_chart(explanation.spec.name) else 0)
    for key in charts:
        spec = bundle[key]
        assert isinstance(spec, dict) and "$schema" in spec
        assert key == f"application/vnd.vegalite.v{spec['$schema'].split('/vega-lite/v')[1].split('.')[0]}+json"
        json.dumps(spec)  # the front-end receives JSON


def test_str_prints_the_value_the_formula_and_the_table(explanation):
    text = str(explanation)
    assert text == repr(explanation)
    assert f"{explanation.label} = {format_number(explanation.value, 3)}" in text.splitlines()[0]
    assert explanation.formula in text and explanation.worked_latex in text
    first_row = "  ".join(format_cells(explanation.table).iloc[0]).split()
    assert all(cell in text for cell in first_row)
    assert "<" not in text.splitlines()[0]  # no markup in a terminal


# ---------------------------------------------------------------------------------------------
# Known values from the course


def test_the_lectures_ndcg_with_exponential_gain():
    # rels 3, 2, 3, 0, 1, 2; gains 7, 3, 7, 0, 1, 3: DCG = 7 + 3/log2 3 + 7/2 + 0 + 1/log2 6 + 3/log2 7 = 13.848,
    # IDCG (3, 3, 2, 2, 1, 0) = 7 + 7/log2 3 + 3/2 + 3/log2 5 + 1/log2 6 = 14.595; 13.848 / 14.595 = 0.949
    worked = rankviz.explain("ndcg", [3, 2, 3, 0, 1, 2], gain="exponential")
    assert worked.result_text == "nDCG@6 = 0.949  (exponential gain 2^g − 1, log2(i + 1) discount)"
    page = worked._repr_html_()
    assert "nDCG@6 = 0.949" in page and ">13.848</td>" in page and ">14.595</td>" in page  # the running DCG, IDCG
    assert ">7</td>" in page  # the gain of grade 3 is 2^3 - 1 = 7
    assert r"\frac{13.848}{14.595}" in worked._repr_latex_()
    assert "nDCG@6 = 0.949" in str(worked)


def test_the_readmes_values():
    assert format_number(rankviz.explain("average_precision", [1, 0, 1, 0, 0, 1]).value, 3) == "0.722"  # (1 + 2/3 + 3/6) / 3
    assert rankviz.explain("precision", [1, 0, 1, 1, 0, 0], k=10).result_text.startswith("P@10 = 0.3 ")  # 3 / 10
    assert rankviz.explain("reciprocal_rank", [0, 0, 1, 1], k=2).value == 0.0  # first relevant below S_h = 2


def test_interpolated_precision_at_one_level_is_labelled_with_it():
    # rels 1, 0, 1 (R = 2): recall 0.5 is reached at rank 1, P = 1
    assert explain("interpolated_precision", [1, 0, 1], [0.5]).result_text.startswith(
        "Interpolated precision at recall 0.5 = 1 ")
    assert explain("interpolated_precision", [1, 0, 1]).label == "Mean interpolated precision over 11 recall levels"


def test_kendall_and_spearman_name_their_variant():
    tau = explain("kendall_tau", [1, 2, 3, 4, 5], [2, 1, 3, 5, 4])  # C = 8, D = 2: (8 - 2) / 10
    assert tau.label == "Kendall's τ-b" and tau.value == pytest.approx(0.6)
    assert explain("kendall_tau", [1, 2, 3, 4, 5], [2, 1, 3, 5, 4], "a").label == "Kendall's τ-a"
    assert "no ties" in explain("spearman_rho", [1, 2, 3], [1, 3, 2]).variant  # 1 - 6 * 2 / (3 * 8) = 0.5


def test_a_measure_name_is_accepted_without_a_cutoff():
    assert explain("nDCG", [3, 2, 3]).spec.name == "ndcg"
    assert explain("AP", [1, 0, 1]).value == explain("average_precision", [1, 0, 1]).value
    with pytest.raises(ValueError, match=r"without a cutoff.*explain\('ndcg', rels, k=10\)"):
        explain("nDCG@10", [3, 2])


# ---------------------------------------------------------------------------------------------
# Errors


@pytest.mark.parametrize("spec", WITHOUT_BREAKDOWN, ids=lambda spec: spec.name)
def test_a_measure_of_evaluate_only_names_what_explain_takes(spec):
    with pytest.raises(ValueError, match=rf"^{spec.name} has no per-query function to work out: .*explain takes: "
                                         r"hit, precision, .*frustration, .*subtopic_recall\.$"):
        explain(spec.name, [1, 0])


def test_unknown_names_and_bad_inputs():
    with pytest.raises(ValueError, match=r"Unknown metric 'ndgc'. Did you mean 'ndcg'"):
        explain("ndgc", [1])
    with pytest.raises(ValueError, match=r"relevance grades in .rels. of ndcg_breakdown must be non-negative numbers; got -1 at rank 2"):
        explain("ndcg", [3, -1])
    with pytest.raises(TypeError, match=r"explain\('ndcg', \.\.\.\) takes the arguments of rankviz.metrics.ndcg"):
        explain("ndcg", [3, 1], colour="red")


# ---------------------------------------------------------------------------------------------
# Jupyter, marimo, and the import


def test_ipython_display_shows_the_worked_example_then_the_chart(monkeypatch):
    pytest.importorskip("altair")
    display_module = pytest.importorskip("IPython.display")
    shown = []
    monkeypatch.setattr(display_module, "display", lambda obj, raw=False: shown.append((obj, raw)))
    explain("ndcg", [3, 2, 3, 0, 1, 2], gain="exponential")._ipython_display_()
    assert [sorted(obj) for obj, _ in shown][0] == ["text/html", "text/latex", "text/plain"]
    assert any(key.startswith("application/vnd.vegalite.v") for key in shown[1][0]) and all(raw for _, raw in shown)
    # JupyterLab 4 renders Vega-Lite 3-5 only: the chart goes under v5's type too (the same spec), and at a
    # fixed width (JupyterLab re-rendered a "container"-wide chart without end).
    chart = shown[1][0]
    spec = chart[JUPYTERLAB_VEGA_LITE]
    assert all(data is spec for key, data in chart.items() if key != "text/plain")
    assert spec["width"] == NOTEBOOK_CHART_WIDTH
    shown.clear()
    explain("hit", [0, 1])._ipython_display_()  # no chart: one output
    assert len(shown) == 1


def test_marimo_gets_the_html():
    worked = explain("ndcg", [3, 2])
    assert worked._mime_() == ("text/html", worked._repr_html_())


def test_include_and_exclude_are_honoured():
    worked = explain("ndcg", [3, 2])
    assert sorted(worked._repr_mimebundle_(include=["text/plain"])) == ["text/plain"]
    assert "text/latex" not in worked._repr_mimebundle_(exclude=["text/latex"])


def test_import_rankviz_and_explaining_import_neither_altair_nor_streamlit():
    code = ("import sys, rankviz\n"
            "worked = rankviz.explain('ndcg', [3, 2, 3, 0, 1, 2], gain='exponential')\n"
            "worked._repr_html_(), worked._repr_latex_(), str(worked)\n"
            "assert 'altair' not in sys.modules and 'streamlit' not in sys.modules, 'heavy import'\n")
    subprocess.run([sys.executable, "-c", code], check=True)


# ---------------------------------------------------------------------------------------------
# evaluate's and compare's results

QRELS = "q1 0 a 2\nq1 0 b 1\nq2 0 c 1\n"
RUN_A = "q1 Q0 x 1 3 bm25\nq1 Q0 a 2 2 bm25\nq1 Q0 b 3 1 bm25\nq2 Q0 c 1 1 bm25\n"
RUN_B = "q1 Q0 a 1 3 dense\nq1 Q0 b 2 2 dense\nq2 Q0 x 1 2 dense\nq2 Q0 c 2 1 dense\n"


def test_an_eval_result_shows_its_measures_with_their_conventions():
    result = rankviz.evaluate(QRELS, RUN_A, ["P(rel=2)@2", "AP", "nDCG(gain=exponential)", "NumRet"])
    page = result._repr_html_()
    # AP: q1 (1/2 + 2/3) / 2 = 0.5833, q2 1: mean 0.7917; P(rel=2)@2: q1 1/2, q2 0: 0.25
    for cell in ("0.7917", "0.2500", ">4</td>", "relevant: grade ≥ 2", "exponential gain 2^g − 1", "sum over queries",
                 "map", "Evaluation of run bm25 over 2 queries"):
        assert html.escape(cell).replace("&gt;", ">").replace("&lt;", "<") in page, cell
    assert 'scope="row"' in page and "<caption" in page
    text = str(result)
    assert text == repr(result) and "0.7917" in text and "mean over queries" in text
    assert set(result._repr_mimebundle_()) == {"text/plain", "text/html"}


def test_a_comparison_shows_the_means_the_marks_and_the_conventions():
    comparison = rankviz.compare(QRELS, {"bm25": RUN_A, "dense": RUN_B}, ["AP", "RR"])
    page = comparison._repr_html_()
    # RR: bm25 (1/2 + 1) / 2 = 0.75, dense (1 + 1/2) / 2 = 0.75
    assert ">0.7500</td>" in page and "baseline bm25" in page and "Holm correction" in page
    assert "mean over queries" in page and "mean over queries" in str(comparison)
    assert set(comparison._repr_mimebundle_(exclude=["text/plain"])) == {"text/html"}
