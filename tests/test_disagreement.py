"""``rankviz.disagreement``: each convention found by switching conventions one at a time.

For every convention and each of its other choices, profiles that differ in exactly that convention
(trec_eval's, and trec_eval's with that one choice changed) are compared on generated runs: every
query whose values differ names that convention and only it, and some query does differ.
"""

from __future__ import annotations

import math

import pandas as pd
import numpy as np
import pytest

import rankviz
import rankviz.evaluation.tools as tools
from generated_runs import SEEDS, frames, generated
from rankviz.conventions import CONVENTIONS, MEASURE_FAMILIES, PROFILES

OTHER_NUMBERS = {"rel_threshold": (2, 3), "log_base": (10, math.e)}


def alternatives(convention):
    if convention.param.choices:
        return [v for v in convention.param.values if v != convention.default]
    return list(OTHER_NUMBERS[convention.id])


def measure_names(convention):
    """Each measure the convention changes, at cutoff 5 where the measure takes one (DCG and bpref do not)."""
    names = []
    for family in convention.measures:
        try:
            tools.parse_tool_measure(f"{family}@5")
            names.append(f"{family}@5")
        except ValueError:
            names.append(family)
    return names


# Conventions of the run measures (Kendall's variants compare two rankings: tested against scipy below).
CASES = [(c.id, value) for c in CONVENTIONS.values() if set(c.measures) <= set(MEASURE_FAMILIES)
         for value in alternatives(c)]


def frames_for(convention: str, seed: int, qrels, run):
    """The generated run as tables; for the item weights, with a weight column (a run has none otherwise)."""
    judgments, ranked = frames(qrels, run)
    if convention == "item_weights":
        ranked["weight"] = np.random.default_rng(seed).choice([0.5, 1.0, 2.0], len(ranked))
    return judgments, ranked


@pytest.mark.parametrize(("convention", "value"), CASES, ids=[f"{c}={v}" for c, v in CASES])
def test_one_convention_apart_names_it_and_only_it(convention, value):
    b = {"tool": "trec_eval", convention: value}
    differing = 0
    for seed in SEEDS:
        qrels, run = generated(seed)
        for measure in measure_names(CONVENTIONS[convention]):
            table = rankviz.disagreement(*frames_for(convention, seed, qrels, run), measure, a={"tool": "trec_eval"}, b=b)
            assert list(table.columns[:4]) == ["query", "a", "b", "conventions"]
            for row in table.itertuples():
                same = (math.isnan(row.a) and math.isnan(row.b)) or row.a == pytest.approx(row.b)
                assert row.conventions == (() if same else (convention,)), (seed, measure, row)
                assert not row.jointly
                differing += not same
    assert differing, f"no generated query tells {convention}={value!r} from trec_eval's choice"


def test_trec_eval_and_sklearn_differ_only_by_ties_when_the_run_holds_every_judged_document():
    """With every judged document retrieved, the ideal ranking and R are the same from the run or the
    judgments: what is left between trec_eval and scikit-learn is the tie order."""
    seen = set()
    for seed in SEEDS:
        qrels, run = generated(seed, all_judged_retrieved=True)
        for measure in ("nDCG@5", "nDCG", "AP"):
            table = rankviz.disagreement(*frames(qrels, run), measure, a="trec_eval", b="sklearn")
            seen |= {c for named in table["conventions"] for c in named}
    assert seen == {"ties"}


def test_a_relevant_document_never_retrieved_is_the_ideal_rankings_convention():
    # q1: a (grade 2) first, b (grade 0); c (grade 1) judged and never retrieved; no ties.
    qrels = {"q1": {"a": 2, "b": 0, "c": 1}}
    run = {"q1": {"a": 2.0, "b": 1.0}}
    table = rankviz.disagreement(qrels, run, "nDCG@2", a="trec_eval", b="sklearn")
    ideal = 2 + 1 / math.log2(3)  # the judgments' ideal: a then c
    assert table.loc[0, "a"] == pytest.approx(2 / ideal)
    assert table.loc[0, "b"] == pytest.approx(1.0)  # the run's ideal is the run itself
    assert table.loc[0, "conventions"] == ("ideal_from",)
    assert table.attrs["summary"] == "1 of 1 queries differ: IDCG and R from the run 1"


def test_map_at_k_over_min_r_k_is_recboles_and_the_tie_order_too():
    # q1: R = 4, the top 2 both relevant and tied at 1.0: trec_eval's map_cut.2 is (1 + 1) / 4; RecBole's (1 + 1) / 2.
    qrels = {"q1": {"a": 1, "b": 1, "c": 1, "d": 1}}
    run = {"q1": {"a": 1.0, "b": 1.0, "x": 0.5}}
    table = rankviz.disagreement(qrels, run, "AP@2", a="trec_eval", b="recbole")
    assert (table.loc[0, "a"], table.loc[0, "b"]) == (pytest.approx(0.5), pytest.approx(1.0))
    assert table.loc[0, "conventions"] == ("ap_denominator",)  # both relevant: the tie order changes nothing


def test_the_summary_counts_queries_per_convention_most_first():
    qrels, run = generated(5)
    table = rankviz.disagreement(*frames(qrels, run), "nDCG@5", a="trec_eval", b="sklearn")
    differ = table[table["conventions"].map(len) > 0]
    assert table.attrs["summary"].startswith(f"{len(differ)} of {len(table)} queries differ: ")
    for c in {c for named in differ["conventions"] for c in named}:
        count = sum(c in named for named in differ["conventions"])
        assert f"{CONVENTIONS[c].title} {count}" in table.attrs["summary"]


def test_agreeing_tools_say_so():
    qrels, run = generated(2)
    table = rankviz.disagreement(*frames(qrels, run), "AP", a="trec_eval", b="pytrec_eval")
    assert table["conventions"].map(len).sum() == 0
    assert table.attrs["summary"] == f"no query differs: both give the same AP for all {len(table)} queries"


def test_a_difference_only_several_conventions_explain_is_named_jointly(monkeypatch):
    """Three conventions where the value changes only when at least two are switched: no single
    switch from either side changes a value, so all three are named, jointly."""
    switched = {"ties": "input_order", "gain": "exponential", "ideal_from": "run"}

    def majority(queries, measure, settings):
        changed = sum(settings[c] == v for c, v in switched.items())
        return {q: float(changed >= 2) for q in queries}

    monkeypatch.setattr(tools, "query_values", majority)
    qrels, run = generated(0)
    table = tools.disagreement(*frames(qrels, run), "nDCG@5", a="trec_eval", b={"tool": "trec_eval", **switched})
    assert table["jointly"].all()
    assert set(table["conventions"]) == {("ties", "ideal_from", "gain")}
    assert table.attrs["summary"].endswith(f": several conventions together {len(table)}")


def test_errors_name_the_tool_and_its_measures():
    qrels, run = generated(0)
    with pytest.raises(ValueError, match=r"scikit-learn has no P@5"):
        rankviz.disagreement(*frames(qrels, run), "P@5", a="trec_eval", b="sklearn")
    with pytest.raises(ValueError, match="Unknown convention"):
        rankviz.disagreement(*frames(qrels, run), "P@5", a="trec_eval", b={"tie": "input_order"})


def test_the_contract_names():
    assert rankviz.TOOLS == tuple(PROFILES)
    assert {"trec_eval", "pytrec_eval", "ir_measures", "ranx", "trectools", "sklearn", "torchmetrics", "recbole",
            "spark", "tensorflow_ranking", "elasticsearch", "torchrec"} == set(rankviz.TOOLS)
    for convention in rankviz.CONVENTIONS.values():
        assert convention.description and convention.tools
        for use in convention.tools:
            assert use.name and use.reference
    table = rankviz.disagreement({"q": {"a": 1}}, {"q": {"a": 1.0}}, "AP", a="trec_eval", b="ranx")
    assert isinstance(table, pd.DataFrame) and list(table.columns[:4]) == ["query", "a", "b", "conventions"]


def test_docs_conventions_md_is_generated_from_the_data():
    from pathlib import Path

    from rankviz.conventions import conventions_markdown

    docs = Path(__file__).resolve().parents[1] / "docs" / "conventions.md"
    assert docs.read_text(encoding="utf-8") == conventions_markdown(), (
        "docs/conventions.md is stale: regenerate it with `python -m rankviz.conventions > docs/conventions.md`")
    for convention in CONVENTIONS.values():
        assert f"### `{convention.id}`" in docs.read_text(encoding="utf-8")


def test_the_summary_speaks_chinese():
    from rankviz.i18n import speaking

    frame = pd.DataFrame({"query": ["1", "2", "3"], "a": [0.5, 1.0, 0.2], "b": [0.25, 1.0, 0.1],
                          "conventions": [("ties",), (), ("ties", "ideal_from")], "jointly": [False] * 3})
    with speaking("zh"):
        assert tools.disagreement_summary(frame) == "3 个查询中有 2 个不同：并列顺序 2，IDCG 和 R 取自 run 1"


def test_kendall_variants_equal_scipys():
    """tau-b and tau-c against scipy.stats.kendalltau, weighted tau against scipy.stats.weightedtau
    (defaults: hyperbolic weigher, additive, rank by (x, y) and by (y, x)), with and without ties."""
    import numpy as np
    from scipy import stats

    rng = np.random.default_rng(24)
    for trial in range(200):
        n = int(rng.integers(3, 12))
        x = rng.integers(0, 4 if trial % 2 else 1000, n)
        y = rng.integers(0, 3 if trial % 3 else 1000, n)
        if len(set(x)) < 2 or len(set(y)) < 2:
            continue
        got = tools.kendall_variants(x, y)
        assert got["b"] == pytest.approx(stats.kendalltau(x, y).statistic)
        assert got["c"] == pytest.approx(stats.kendalltau(x, y, variant="c").statistic)
        assert got["weighted"] == pytest.approx(stats.weightedtau(x, y).statistic)


def test_kendall_variants_undefined_is_nan_with_a_warning():
    from rankviz.metrics.kernels.conventions import kendall_tau_c, weighted_tau

    with pytest.warns(RuntimeWarning, match="tau-c is undefined"):
        assert math.isnan(kendall_tau_c([1, 2, 3], [5, 5, 5]))
    with pytest.warns(RuntimeWarning, match="Weighted tau is undefined"):
        assert math.isnan(weighted_tau([1, 2, 3], [5, 5, 5]))


def test_fallout_over_the_judged_or_the_listed_non_relevant_documents():
    # Judged non-relevant: b, c, x; the list b, a, d (unjudged), c. Top 3 = b, a, d.
    qrels = {"q": {"a": 1, "b": 0, "c": 0, "x": 0}}
    run = {"q": {"b": 2.0, "a": 1.0, "d": 0.5, "c": 0.1}}
    table = rankviz.disagreement(qrels, run, "Fallout@3", a={"tool": "trec_eval"}, b="torchmetrics")
    assert table.loc[0, "a"] == pytest.approx(1 / 3)  # b of the judged b, c, x
    assert table.loc[0, "b"] == pytest.approx(2 / 3)  # b and d of the list's b, d, c
    assert table.loc[0, "conventions"] == ("fallout_denominator",)


def test_bpref_over_min_r_n_or_r():
    # R = 3 (a, c, z), N = 1 (b): b above c. trec_eval: (1 + (1 − 1/1)) / 3; over R: (1 + (1 − 1/3)) / 3.
    qrels = {"q": {"a": 1, "b": 0, "c": 1, "z": 1}}
    run = {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}
    table = rankviz.disagreement(qrels, run, "bpref", a="trec_eval", b={"tool": "trec_eval", "bpref_denominator": "R"})
    assert (table.loc[0, "a"], table.loc[0, "b"]) == (pytest.approx(1 / 3), pytest.approx(5 / 9))
    assert table.loc[0, "conventions"] == ("bpref_denominator",)
