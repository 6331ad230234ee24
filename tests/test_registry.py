"""Invariants that every metric in the registry must satisfy (scikit-learn's common-tests idea).

Each property is checked for every spec that takes one ranked list, so a metric added to the
registry is tested without writing a new test; the registry's own consistency (functions,
kernels, measure names, trec_eval's order and sets) is checked for every entry.
"""

from __future__ import annotations

import inspect
import math
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rankviz import registry
from rankviz.metrics import Breakdown
from rankviz.registry import EVALUATE_SOURCES, METRICS, TREC_PRINT_ORDER, get_spec, ranking_metric_table, specs_for

RANKING_SPECS = specs_for(inputs="ranking")
RANKING_IDS = [s.name for s in RANKING_SPECS]

grades = st.lists(st.integers(min_value=0, max_value=3), min_size=1, max_size=12)
# Metrics that reach their maximum, 1, on an ideal ranking when the list holds every relevant
# document (R taken from the list) and at least one is relevant.
IDEAL_IS_ONE = {"hit", "r_precision", "average_precision", "eleven_point_precision",
                "interpolated_average_precision", "reciprocal_rank", "ndcg", "recall"}


def call(spec, rels, **settings):
    return spec.function(rels, **spec.applicable(settings))


FUNCTION_SPECS = [s for s in METRICS if s.module]


def test_registry_names_are_unique_and_resolve():
    names = [s.name for s in METRICS]
    assert len(names) == len(set(names))
    for spec in METRICS:
        if spec.module:
            assert callable(spec.function), spec.name
            assert callable(spec.breakdown), spec.name
            assert spec.function.__name__ == spec.name
        else:  # a batch-only measure: evaluate computes it
            assert spec.function is None and spec.breakdown is None and spec.measure, spec.name
        if spec.kernel_path:
            # A kernel serves evaluate through the measure, or the explorer through spec.cut (F_β).
            assert callable(spec.kernel) and (spec.measure or spec.sweep), spec.name
        if spec.value_range is not None:
            low, high = spec.value_range
            assert low < high


@pytest.mark.parametrize("spec", FUNCTION_SPECS, ids=[s.name for s in FUNCTION_SPECS])
def test_params_are_the_functions_keywords_with_their_defaults(spec):
    """The registry's parameters cannot drift from the functions': same keywords, same defaults."""
    for func in (spec.function, spec.breakdown):
        keywords = {name: p.default for name, p in inspect.signature(func).parameters.items()
                    if p.default is not inspect.Parameter.empty and name != "queries"}
        assert keywords == {p.name: p.default for p in spec.params if p.per_query}, func.__name__


@pytest.mark.parametrize("spec", FUNCTION_SPECS, ids=[s.name for s in FUNCTION_SPECS])
def test_every_public_function_documents_formula_reference_and_example(spec):
    for func in (spec.function, spec.breakdown):
        doc = func.__doc__ or ""
        for section in ("Parameters", "Returns", "References", "Examples"):
            assert section in doc, f"{func.__name__} docstring lacks {section}"
        assert ">>>" in doc


MEASURE_SPECS = [s for s in METRICS if s.measure]


def test_every_measure_has_a_kernel_and_one_set_of_names():
    """Each spelling (canonical, trec_eval's, aliases) names one entry; every measure but runid
    (the run's tag, not a number) has a kernel."""
    owner = {}
    for spec in MEASURE_SPECS:
        assert spec.kernel_path or spec.measure == "runid", spec.name
        for name in {spec.measure, spec.trec, spec.trec_cut, *spec.aliases} - {None}:
            assert owner.setdefault(name, spec.name) == spec.name, f"{name!r} names {owner[name]} and {spec.name}"
        assert spec.cutoff in ("none", "int", "optional_int", "float", "recall")
        assert spec.aggregate in ("mean", "gmean", "sum", "none")
        assert bool(spec.default_cutoffs) <= bool(spec.trec_cut), spec.name
        assert spec.trec_param_syntax in (None, "gains", "values", "keywords")
        for p in spec.params:
            assert p.evaluate is None or p.evaluate in EVALUATE_SOURCES, (spec.name, p.name)
    assert not [s.name for s in METRICS if not s.measure and ((s.kernel_path and not s.sweep) or s.trec or s.aliases)]


def test_trec_print_order_names_exactly_the_registrys_trec_eval_measures():
    """trec_eval prints map_cut and ndcg_cut as measures of their own, so both names of a
    measure with a cutoff family have a place; nothing else has one."""
    trec_names = {name for spec in MEASURE_SPECS for name in (spec.trec, spec.trec_cut) if name}
    assert len(TREC_PRINT_ORDER) == len(set(TREC_PRINT_ORDER))
    assert set(TREC_PRINT_ORDER) == trec_names


def test_named_sets_are_trec_eval_10s():
    # trec_eval 10.0, measures.c: the "official", "set", "all_trec", "all_prefs", "prefs" and "qrels_jg" nicknames (as sets of names:
    # the order of the output is TREC_PRINT_ORDER's).
    sets = registry.named_sets()
    assert set(sets["official"]) == {"runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec",
                                     "bpref", "recip_rank", "iprec_at_recall", "P"}
    assert set(sets["set"]) == {"runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P",
                                "set_recall", "set_relative_P", "set_map", "set_F"}
    assert set(sets["all_trec"]) == set(sets["official"]) | {
        "relstring", "recall", "unj", "rbp", "rbp_resid", "infAP", "gm_bpref", "utility", "11pt_avg", "ndcg",
        "relative_P", "Rprec_mult", "success", "map_cut", "ndcg_cut", "ndcg_rel", "Rndcg", "binG", "G", "set_P",
        "set_recall", "set_relative_P", "set_map", "set_F", "num_nonrel_judged_ret"}
    assert set(sets["all_prefs"]) == {"runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful",
                                      "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair", "prefs_avgjg",
                                      "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret",
                                      "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp"}
    assert set(sets["prefs"]) == {"runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful",
                                  "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair", "prefs_avgjg"}
    assert set(sets["qrels_jg"]) == {"runid", "num_q", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg"}
    position = {name: i for i, name in enumerate(TREC_PRINT_ORDER)}
    for names in sets.values():
        assert list(names) == sorted(names, key=position.__getitem__)


def test_a_parsed_measure_is_its_registry_entry():
    import rankviz.metrics
    from rankviz.evaluation.measures import parse_measure, parse_measures

    assert parse_measure("AP").spec.function is rankviz.metrics.average_precision
    assert parse_measure("map_cut_10").spec is get_spec("average_precision")
    assert parse_measure("ndcg_cut_10").spec.kernel is get_spec("ndcg").kernel
    assert parse_measure("bpref").spec.function is None  # a batch-only measure
    for spec in MEASURE_SPECS:
        for name in {spec.measure, spec.trec, *spec.aliases} - {None}:
            cutoff = {"int": "@5", "float": "@0.5", "recall": "@0.5"}.get(spec.cutoff, "")
            assert {m.spec for m in parse_measures(name + cutoff)} == {spec}, name


def test_per_query_keywords_are_the_functions():
    """What the registry says evaluate's value corresponds to is a valid call of the function."""
    from rankviz.evaluation.measures import Measure

    for spec in MEASURE_SPECS:
        cutoff = {"int": 5, "optional_int": 5, "float": 0.5, "recall": 0.5}.get(spec.cutoff)
        keywords = spec.per_query_keywords(Measure(spec.measure, cutoff), judged=[2, 1, 0], qrels_max_grade=3)
        if spec.inputs not in ("ranking", "ranking_levels"):
            assert keywords is None, spec.name
            continue
        assert set(keywords) <= spec.param_names, spec.name
        spec.function([1, 0, 2], **keywords)
    # Where the two conventions differ, the entry says how (not the caller).
    assert get_spec("err").per_query_keywords(Measure("ERR", 10), judged=[1], qrels_max_grade=4)["max_grade"] == 4
    rounding = get_spec("interpolated_precision").per_query_keywords(
        Measure("IPrec", 0.3), judged=[1], qrels_max_grade=1, trec_eval_version="9")
    assert rounding == {"recall_levels": [0.3], "judged": [1], "rel_threshold": 1, "rounding": "floor_plus_0.9"}
    own_rel = get_spec("precision").per_query_keywords(Measure("P", 10, (("rel", 2),)), judged=[], qrels_max_grade=2,
                                                       rel_threshold=1)
    assert own_rel == {"k": 10, "rel_threshold": 2}
    assert get_spec("eleven_point_precision").per_query_keywords(
        Measure("11pt_avg", None, (("levels", (0.5,)),)), judged=[1], qrels_max_grade=1) is None


def test_unknown_metric_names_close_matches():
    with pytest.raises(ValueError, match="Did you mean 'ndcg'"):
        get_spec("ndgc")


@pytest.mark.parametrize("spec", RANKING_SPECS, ids=RANKING_IDS)
@settings(max_examples=40, deadline=None)
@given(rels=grades, k=st.one_of(st.none(), st.integers(min_value=1, max_value=15)))
def test_value_in_declared_range(spec, rels, k):
    value = call(spec, rels, k=k, wanted=1)
    low, high = spec.value_range
    assert isinstance(value, float)
    assert low - 1e-12 <= value <= high + 1e-12


@pytest.mark.parametrize("spec", RANKING_SPECS, ids=RANKING_IDS)
@settings(max_examples=25, deadline=None)
@given(rels=grades)
def test_list_ndarray_and_series_agree_and_input_is_not_mutated(spec, rels):
    as_array = np.array(rels, dtype=float)
    before = as_array.copy()
    expected = call(spec, rels)
    assert call(spec, as_array) == pytest.approx(expected, abs=0, rel=1e-12)
    assert call(spec, pd.Series(rels)) == pytest.approx(expected, abs=0, rel=1e-12)
    np.testing.assert_array_equal(as_array, before)


@pytest.mark.parametrize("spec", [s for s in RANKING_SPECS if s.name in IDEAL_IS_ONE],
                         ids=[n for n in RANKING_IDS if n in IDEAL_IS_ONE])
@settings(max_examples=30, deadline=None)
@given(rels=grades.filter(lambda r: max(r) >= 1))
def test_ideal_ranking_scores_one(spec, rels):
    ideal = sorted(rels, reverse=True)
    assert call(spec, ideal) == pytest.approx(1.0)


@pytest.mark.parametrize("spec", [s for s in RANKING_SPECS if s.monotone],
                         ids=[s.name for s in RANKING_SPECS if s.monotone])
@settings(max_examples=40, deadline=None)
@given(rels=grades, data=st.data())
def test_moving_a_better_document_up_never_lowers_the_value(spec, rels, data):
    # Swap an adjacent pair so that the higher grade moves up one rank.
    pairs = [i for i in range(len(rels) - 1) if rels[i] < rels[i + 1]]
    if not pairs:
        return
    i = data.draw(st.sampled_from(pairs))
    improved = list(rels)
    improved[i], improved[i + 1] = improved[i + 1], improved[i]
    k = data.draw(st.one_of(st.none(), st.integers(min_value=1, max_value=13)))
    # The same R and the same ideal for both lists: they hold the same documents.
    assert call(spec, improved, k=k) >= call(spec, rels, k=k) - 1e-12


@pytest.mark.parametrize("spec", RANKING_SPECS, ids=RANKING_IDS)
@settings(max_examples=30, deadline=None)
@given(rels=grades, k=st.one_of(st.none(), st.integers(min_value=1, max_value=15)))
def test_breakdown_value_equals_the_scalar(spec, rels, k):
    used = spec.applicable({"k": k})
    worked = spec.breakdown(rels, **used)
    assert isinstance(worked, Breakdown)
    value = worked.value
    assert value == pytest.approx(spec.function(rels, **used), rel=1e-9, abs=1e-12) or (
        math.isnan(value) and math.isnan(spec.function(rels, **used)))
    assert isinstance(worked.latex, str) and worked.latex


@pytest.mark.parametrize("spec", RANKING_SPECS, ids=RANKING_IDS)
@pytest.mark.parametrize(("bad", "message"), [
    ([1, -1, 0], r"non-negative.*rank 2"),
    ([1, float("nan")], r"finite.*rank 2"),
    ([1, "abc"], r"numbers.*'abc'.*rank 2"),
])
def test_bad_grades_raise_naming_the_rank(spec, bad, message):
    with pytest.raises(ValueError, match=message):
        call(spec, bad)


@pytest.mark.parametrize("spec", [s for s in RANKING_SPECS if "k" in s.param_names],
                         ids=[s.name for s in RANKING_SPECS if "k" in s.param_names])
@pytest.mark.parametrize("k", [0, -2, 1.5, "3"])
def test_bad_k_raises(spec, k):
    with pytest.raises(ValueError, match=r"'k' parameter of \w+ must be an int in the range \[1, inf\)"):
        spec.function([1, 0, 1], k=k)


def test_ranking_metric_table_lists_every_ranking_metric_with_its_variant():
    table = ranking_metric_table([3, 2, 3, 0, 1, 2], k=6, gain="exponential")
    assert list(table["metric"]) == RANKING_IDS
    ndcg_row = table.set_index("metric").loc["ndcg"]
    # Course 002, 'Class Exercise - Compute NDCG': 13.848 / 14.595 = 0.949.
    assert ndcg_row["value"] == pytest.approx(0.9488, abs=1e-4)
    assert "gain=exponential" in ndcg_row["variant"] and "discount=log2" in ndcg_row["variant"]
    assert table["error"].isna().all()


def test_ranking_metric_table_collects_errors_per_metric_or_raises():
    # max_grade=2 is below the list's grade 3: ERR rejects it, every other metric is computed.
    table = ranking_metric_table([3, 0, 1], families=("graded",), errors="collect", max_grade=2)
    assert list(table["metric"]) == [s.name for s in specs_for(inputs="ranking", families=("graded",))]
    by_name = table.set_index("metric")
    assert math.isnan(by_name.loc["err", "value"]) and "max_grade" in by_name.loc["err", "error"]
    assert by_name.loc["dcg", "value"] == pytest.approx(3 + 1 / 2)  # 3/log2(2) + 0 + 1/log2(4)
    with pytest.raises(ValueError, match="max_grade"):
        ranking_metric_table([3, 0, 1], max_grade=2)
    with pytest.raises(ValueError, match=r"'errors' parameter of ranking_metric_table must be 'raise' or 'collect'"):
        ranking_metric_table([1], errors="ignore")


def test_import_rankviz_is_light():
    code = ("import sys, rankviz, rankviz.metrics, rankviz.registry, rankviz.evaluation.measures; "
            "heavy = [m for m in ('streamlit', 'altair', 'scipy', 'sklearn', 'pandas') if m in sys.modules]; "
            "print(','.join(heavy))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_registry_module_exports():
    assert set(registry.__all__) >= {"METRICS", "get_spec", "MetricSpec"}


def test_generated_metric_reference_is_up_to_date():
    from pathlib import Path

    from rankviz.registry import metrics_markdown

    docs = Path(__file__).resolve().parents[1] / "docs" / "metrics.md"
    assert docs.read_text(encoding="utf-8") == metrics_markdown(), (
        "docs/metrics.md is stale: regenerate it with `python -m rankviz.registry > docs/metrics.md`")


@pytest.mark.parametrize("spec", [s for s in RANKING_SPECS if "rel_threshold" in s.param_names],
                         ids=[s.name for s in RANKING_SPECS if "rel_threshold" in s.param_names])
def test_rel_threshold_policy_is_the_same_for_every_binary_metric(spec):
    # trec_eval's -l accepts any level; 0 makes every document relevant (grade 0 included).
    with_zero = spec.function([0, 0, 2], **spec.applicable({"rel_threshold": 0}))
    assert with_zero == spec.function([1, 1, 1], **spec.applicable({"rel_threshold": 1}))
    for bad in (-1, float("nan"), "abc"):
        with pytest.raises(ValueError, match=r"'rel_threshold' parameter of \w+ must be a number in the range \[0, inf\)"):
            spec.function([1, 0], **spec.applicable({"rel_threshold": bad}))


# ---------------------------------------------------------------------------------------------
# One vocabulary (issue 21): choices with their words, and what the side tables used to hold.


CHOICE_PARAMS = {id(p): (spec.name, p) for spec in METRICS for p in spec.params if p.choices}


@pytest.mark.parametrize("name, param", list(CHOICE_PARAMS.values()), ids=[f"{n}.{p.name}" for n, p in
                                                                          CHOICE_PARAMS.values()])
def test_every_choice_has_its_words_once(name, param):
    assert len(set(param.values)) == len(param.values) and param.default in param.values
    assert len({c.label for c in param.choices}) == len(param.choices), "two choices read alike"
    for choice in param.choices:
        assert choice.label and choice.formula and choice.description, (name, choice.value)
        assert param.choice(choice.value) is choice and param.label(choice.value) == choice.label
        assert all(param.canonical(alias) == choice.value for alias in choice.aliases)
    with pytest.raises(ValueError, match=rf"The '{param.name}' parameter must be one of"):
        param.choice("no such choice")


def test_a_param_refuses_bare_choices_and_a_default_outside_them():
    from rankviz.registry import Choice, Param

    with pytest.raises(TypeError, match="must be Choice objects"):
        Param("gain", "linear", "Gain.", choices=("linear", "exponential"))
    with pytest.raises(ValueError, match="not one of its choices"):
        Param("gain", "cubic", "Gain.", choices=(Choice("linear", "linear gain g", "g", "The grade."),))


def test_the_specs_say_what_the_side_tables_said():
    from rankviz.teaching.explain import has_chart

    # explain draws every chart the registry names, and nothing else has one.
    assert [s.name for s in METRICS if s.chart and not has_chart(s.name)] == []
    assert not [s.name for s in METRICS if not s.chart and s.module and has_chart(s.name)]
    # The tie-averaged closed forms resolve, and an order-free measure is one evaluate computes.
    assert {s.tie_average.__name__ for s in METRICS if s.tie_average_path} == {
        "expected_precision", "expected_recall", "expected_r_precision", "expected_average_precision",
        "expected_reciprocal_rank", "expected_success", "expected_dcg", "expected_ndcg"}
    assert all(s.measure for s in METRICS if s.order_free or s.tie_average_path or s.from_clicks)
    # A sweepable metric is a [0, 1]-valued function of one ranking.
    assert all(s.inputs == "ranking" and s.value_range == (0.0, 1.0) for s in METRICS if s.sweep)


@pytest.mark.parametrize("name, keywords, cutoff, params", [
    ("ndcg", {"k": 5, "gain": "exponential", "judged": [3, 2]}, 5,
     {"gain": "exponential", "discount": "log2", "log_base": 2}),  # judged: the lists carry it
    ("recall", {"n_relevant": 4, "rel_threshold": 2}, None, {"rel": 2}),  # rel_threshold: the measure's rel=
    ("eleven_point_precision", {}, None, {"rel": 1, "rounding": "ceil"}),
    ("f_beta", {"k": 3, "beta": 2.0}, 3, {"beta": 2.0, "rel": 1}),
])
def test_cut_puts_each_keyword_where_the_kernel_reads_it(name, keywords, cutoff, params):
    cut = get_spec(name).cut(keywords)
    assert (cut.cutoff, cut.params) == (cutoff, params)
    assert get_spec("interpolated_precision").cut({"recall_levels": [0.5]}) is None  # one level per kernel call
