"""Run comparison: the significance tests against scipy and exact enumeration, the corrections
against hand computation, and compare()'s table, deltas, LaTeX and seeding."""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st

from rankviz.evaluation import significance
from rankviz.evaluation.comparison import Comparison, compare, compare_per_query
from rankviz.evaluation.evaluator import evaluate

# ------------------------------------------------------------------------------------------
# Student's t distribution and the paired t-test, against scipy (a dev-only dependency)


@pytest.mark.parametrize("df", [0.5, 1, 2, 2.5, 3, 5, 10, 29, 30, 100, 1000, 5000])
def test_student_t_sf_matches_scipy(df):
    for t in [0.0, 1e-6, 0.1, 0.5, 1.0, 1.96, 2.5, 5.0, 10.0, 30.0, 100.0, -0.3, -1.0, -4.0]:
        expected = scipy.stats.t.sf(t, df)
        assert significance.student_t_sf(t, df) == pytest.approx(expected, rel=1e-10, abs=1e-300), (t, df)


def test_student_t_sf_known_values_and_limits():
    # df = 1 is the Cauchy distribution: P(T > t) = 1/2 - arctan(t)/pi.
    for t in [0.5, 1.0, 3.0]:
        assert significance.student_t_sf(t, 1) == pytest.approx(0.5 - math.atan(t) / math.pi, rel=1e-13)
    # df = 2 has a closed form: P(T > t) = 1/2 - t / (2 sqrt(t^2 + 2)).
    assert significance.student_t_sf(1.5, 2) == pytest.approx(0.5 - 1.5 / (2 * math.sqrt(1.5 ** 2 + 2)), rel=1e-13)
    assert significance.student_t_sf(math.inf, 4) == 0.0
    assert significance.student_t_sf(-math.inf, 4) == 1.0
    with pytest.raises(ValueError, match=r"'df' parameter of student_t_sf must be a number in the range \(0, inf\)"):
        significance.student_t_sf(1.0, 0)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.floats(-1, 1, allow_nan=False), min_size=2, max_size=60), st.floats(-0.5, 0.5))
def test_paired_t_test_matches_scipy_ttest_rel(values, shift):
    baseline = np.asarray(values)
    rng = np.random.default_rng(len(values))
    run = baseline + shift + rng.normal(0, 0.1, baseline.size)
    d = run - baseline
    if np.std(d) < 1e-9:
        return  # scipy's nan for constant differences is tested separately below
    expected = scipy.stats.ttest_rel(run, baseline)
    t, p = significance.paired_t_test(d)
    assert t == pytest.approx(expected.statistic, rel=1e-9)
    assert p == pytest.approx(expected.pvalue, rel=1e-8, abs=1e-300)


def test_paired_t_test_by_hand_and_degenerate_cases():
    # d = 0.1, 0.2, 0.3: mean 0.2, sd 0.1, t = 0.2 / (0.1 / sqrt(3)) = 2 sqrt(3), df = 2
    t, p = significance.paired_t_test([0.1, 0.2, 0.3])
    assert t == pytest.approx(2 * math.sqrt(3))
    t2 = 2 * math.sqrt(3)
    assert p == pytest.approx(1 - t2 / math.sqrt(t2 ** 2 + 2))  # 2 * (1/2 - t/(2 sqrt(t^2 + 2))), df = 2
    assert significance.paired_t_test([0.0, 0.0, 0.0]) == (0.0, 1.0)  # identical runs
    assert significance.paired_t_test([0.1, 0.1, 0.1]) == (math.inf, 0.0)  # constant improvement
    assert all(math.isnan(v) for v in significance.paired_t_test([0.3]))
    with pytest.raises(ValueError, match="paired differences must be finite"):
        significance.paired_t_test([0.1, math.nan])


# ------------------------------------------------------------------------------------------
# Randomization test: exact enumeration when small, close to it when sampled


def brute_force_sign_flip_p(d) -> float:
    """Every one of the 2^n sign assignments, with plain Python loops."""
    d = list(d)
    observed = abs(sum(d) / len(d))
    hits = 0
    for signs in itertools.product((1, -1), repeat=len(d)):
        if abs(sum(s * x for s, x in zip(signs, d)) / len(d)) >= observed - 1e-12:
            hits += 1
    return hits / 2 ** len(d)


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 10, 13])
def test_randomization_is_exact_enumeration_for_small_n(n):
    rng = np.random.default_rng(n)
    d = np.round(rng.normal(0.05, 0.2, n), 2)  # rounded: ties between |sums| happen
    d[0] = 0.0 if n > 3 else d[0]
    assert significance.randomization_test(d, n_resamples=10_000) == pytest.approx(brute_force_sign_flip_p(d), abs=1e-12)


def test_randomization_sampled_is_close_to_exact():
    rng = np.random.default_rng(7)
    d = rng.normal(0.08, 0.25, 16)  # 65,536 patterns > 20,000 resamples: sampled
    exact = brute_force_sign_flip_p(d)
    sampled = significance.randomization_test(d, n_resamples=20_000, rng=np.random.default_rng(1))
    assert abs(sampled - exact) < 4 * math.sqrt(exact * (1 - exact) / 20_000) + 1e-4


def test_randomization_known_values():
    assert significance.randomization_test([1.0, 2.0, 3.0]) == 2 / 8  # +++ and --- only
    assert significance.randomization_test([0.0, 0.0]) == 1.0
    assert math.isnan(significance.randomization_test([]))
    # Sampled p-values are never 0: (1 + count) / (1 + B).
    p = significance.randomization_test(np.full(40, 0.5), n_resamples=999, rng=np.random.default_rng(0))
    # Only the all-plus and all-minus patterns (probability 2^-39) reach |mean| = 0.5: 999 draws
    # miss them, and p = (1 + 0) / (1 + 999).
    assert p == pytest.approx(1 / 1000)


# ------------------------------------------------------------------------------------------
# Bootstrap test


def test_bootstrap_is_seeded_and_close_to_the_t_test():
    rng = np.random.default_rng(3)
    for shift in (0.0, 0.05, 0.1):
        d = rng.normal(shift, 0.3, 60)
        p1 = significance.bootstrap_test(d, n_resamples=4000, rng=np.random.default_rng(11))
        p2 = significance.bootstrap_test(d, n_resamples=4000, rng=np.random.default_rng(11))
        assert p1 == p2
        # The shift bootstrap approximates the t-test's null distribution for moderate n.
        assert p1 == pytest.approx(scipy.stats.ttest_1samp(d, 0).pvalue, abs=0.04)


def test_bootstrap_known_values():
    assert significance.bootstrap_test([0.0, 0.0, 0.0]) == 1.0
    assert math.isnan(significance.bootstrap_test([]))
    # One query: no spread to resample, so no test (the paired t-test gives NaN too); it used
    # to report p = 1 / (1 + B), "significant" on a single query.
    assert math.isnan(significance.bootstrap_test([0.3]))
    assert math.isnan(significance.paired_t_test([0.3])[1])
    # Identical positive differences: every resample mean equals the observed one, so
    # |mean* - mean| = 0 < |mean| and p = 1 / (1 + B).
    assert significance.bootstrap_test([0.2] * 5, n_resamples=99) == pytest.approx(1 / 100)


# ------------------------------------------------------------------------------------------
# Effect size and corrections, by hand


def test_cohens_d_by_hand():
    assert significance.cohens_d([0.1, 0.2, 0.3]) == pytest.approx(0.2 / 0.1)
    d = [0.5, -0.1, 0.2, 0.0]
    assert significance.cohens_d(d) == pytest.approx(np.mean(d) / np.std(d, ddof=1))
    assert significance.cohens_d([0.0, 0.0]) == 0.0
    assert significance.cohens_d([0.2, 0.2]) == math.inf
    assert math.isnan(significance.cohens_d([0.2]))


def test_holm_and_bonferroni_by_hand():
    p = [0.01, 0.04, 0.03, 0.005]
    # Sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04 -> running max 0.02, 0.03, 0.06, 0.06
    np.testing.assert_allclose(significance.holm(p), [0.03, 0.06, 0.06, 0.02])
    np.testing.assert_allclose(significance.bonferroni(p), [0.04, 0.16, 0.12, 0.02])
    # NaN stays NaN and does not count in m (m = 2 here); values are capped at 1.
    np.testing.assert_allclose(significance.holm([0.6, np.nan, 0.01]), [0.6, np.nan, 0.02])
    np.testing.assert_allclose(significance.bonferroni([0.6, np.nan, 0.01]), [1.0, np.nan, 0.02])
    with pytest.raises(ValueError, match=r"p-values must lie in \[0, 1\]"):
        significance.holm([1.5])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=1, max_size=20))
def test_holm_between_raw_and_bonferroni(p):
    holm, bonf = significance.holm(p), significance.bonferroni(p)
    assert np.all(holm >= np.asarray(p) - 1e-15) and np.all(holm <= bonf + 1e-15)
    # Holm preserves the order of the raw p-values.
    order = np.argsort(p, kind="stable")
    assert np.all(np.diff(holm[order]) >= -1e-15)


# ------------------------------------------------------------------------------------------
# compare_per_query: the statistics core


def _scores(values: dict, queries=None) -> pd.DataFrame:
    queries = queries or [f"q{i}" for i in range(len(next(iter(values.values()))))]
    return pd.DataFrame(values, index=pd.Index(queries, name="query_id"))


BASE = _scores({"AP": [0.2, 0.4, 0.3, 0.5, 0.1], "P@10": [0.1, 0.3, 0.3, 0.6, 0.0]})
BETTER = _scores({"AP": [0.3, 0.6, 0.6, 0.5, 0.2], "P@10": [0.2, 0.2, 0.5, 0.6, 0.1]})
WORSE = _scores({"AP": [0.1, 0.3, 0.1, 0.4, 0.1], "P@10": [0.1, 0.3, 0.2, 0.6, 0.0]})


def test_table_values_match_scipy_and_hand_counts():
    result = compare_per_query({"base": BASE, "better": BETTER, "worse": WORSE}, correction=None)
    assert isinstance(result, Comparison)
    assert list(result.table.columns) == ["run", "measure", "baseline_mean", "mean", "delta", "p_value", "p_adjusted",
                                          "significant", "effect_size", "wins", "ties", "losses", "n_queries"]
    row = result.table.set_index(["run", "measure"]).loc[("better", "AP")]
    # d = 0.1, 0.2, 0.3, 0.0, 0.1 -> mean 0.14, 4 wins, 1 tie, 0 losses
    assert row["delta"] == pytest.approx(0.14)
    assert (row["wins"], row["ties"], row["losses"], row["n_queries"]) == (4, 1, 0, 5)
    assert row["p_value"] == pytest.approx(scipy.stats.ttest_rel(BETTER["AP"], BASE["AP"]).pvalue, rel=1e-9)
    assert row["p_adjusted"] == row["p_value"]
    d = BETTER["AP"] - BASE["AP"]
    assert row["effect_size"] == pytest.approx(d.mean() / d.std(ddof=1))
    assert row["mean"] == pytest.approx(0.44) and row["baseline_mean"] == pytest.approx(0.3)
    worse = result.table.set_index(["run", "measure"]).loc[("worse", "P@10")]
    # d = 0, 0, -0.1, 0, 0
    assert (worse["wins"], worse["ties"], worse["losses"]) == (0, 4, 1)


def test_deltas_and_means_tables():
    result = compare_per_query({"base": BASE, "better": BETTER, "worse": WORSE})
    deltas = result.deltas
    assert list(deltas.columns) == ["query_id", "measure", "run", "baseline_value", "value", "delta"]
    assert len(deltas) == 2 * 2 * 5  # runs x measures x queries
    one = deltas[(deltas.run == "worse") & (deltas.measure == "AP")].set_index("query_id")
    np.testing.assert_allclose(one.loc[BASE.index, "delta"], WORSE["AP"] - BASE["AP"])
    assert list(result.means.index) == ["base", "better", "worse"]
    assert result.means.loc["worse", "P@10"] == pytest.approx(np.mean([0.1, 0.3, 0.2, 0.6, 0.0]))


def test_holm_families_by_hand():
    runs = {"base": BASE, "better": BETTER, "worse": WORSE}
    raw = compare_per_query(runs, correction=None).table
    p = raw.set_index(["run", "measure"])["p_value"]
    per_measure = compare_per_query(runs, correction="holm").table.set_index(["run", "measure"])["p_adjusted"]
    for measure in ("AP", "P@10"):
        a, b = p[("better", measure)], p[("worse", measure)]
        low, high = min(a, b), max(a, b)
        expected = {low: min(1, 2 * low), high: max(min(1, 2 * low), min(1, high))}
        assert per_measure[("better", measure)] == pytest.approx(expected[a])
        assert per_measure[("worse", measure)] == pytest.approx(expected[b])
    everything = compare_per_query(runs, correction="bonferroni", family="all").table
    np.testing.assert_allclose(everything["p_adjusted"], np.minimum(1, 4 * raw["p_value"]))
    significant = compare_per_query(runs, correction="bonferroni", family="all", alpha=0.2).table
    assert significant["significant"].tolist() == (np.minimum(1, 4 * raw["p_value"]) < 0.2).tolist()


@pytest.mark.parametrize("test", ["randomization", "bootstrap"])
def test_resampling_is_seeded_and_independent_of_other_runs(test):
    rng = np.random.default_rng(0)
    queries = [f"q{i}" for i in range(40)]  # 2^40 sign patterns: sampled, so the seed matters
    base = _scores({"AP": rng.random(40)}, queries)
    a = _scores({"AP": base["AP"].to_numpy() + rng.normal(0.03, 0.2, 40)}, queries)
    b = _scores({"AP": base["AP"].to_numpy() + rng.normal(0.0, 0.2, 40)}, queries)
    first = compare_per_query({"base": base, "a": a}, test=test, n_resamples=2000, seed=5).table
    again = compare_per_query({"base": base, "a": a}, test=test, n_resamples=2000, seed=5).table
    pd.testing.assert_frame_equal(first, again)
    other_seed = compare_per_query({"base": base, "a": a}, test=test, n_resamples=2000, seed=6).table
    assert other_seed["p_value"].iloc[0] != first["p_value"].iloc[0]
    with_b = compare_per_query({"base": base, "b": b, "a": a}, test=test, n_resamples=2000, seed=5,
                               correction=None).table
    assert with_b.set_index("run").loc["a", "p_value"] == first["p_value"].iloc[0]


def test_queries_missing_on_one_side_are_left_out_with_a_warning():
    base = _scores({"AP": [0.1, 0.2, 0.3, 0.4]}, ["q1", "q2", "q3", "q4"])
    run = _scores({"AP": [0.3, 0.2, 0.5]}, ["q3", "q1", "q2"])  # no q4, other order
    with pytest.warns(RuntimeWarning, match=r"1 query scored for only one of 'base' and 'run' left out"):
        result = compare_per_query({"base": base, "run": run})
    row = result.table.iloc[0]
    assert row["n_queries"] == 3
    assert row["delta"] == pytest.approx(np.mean([0.2 - 0.1, 0.5 - 0.2, 0.3 - 0.3]))


def test_baseline_choice_and_non_numeric_columns():
    base = BASE.assign(relstring=["1", "0", "1", "0", "1"])
    result = compare_per_query({"x": BETTER, "base": base}, baseline="base")
    assert set(result.table["run"]) == {"x"}
    assert set(result.table["measure"]) == {"AP", "P@10"}  # relstring is not a number
    assert result.baseline == "base"
    assert result.table.set_index("measure").loc["AP", "delta"] == pytest.approx(0.14)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"test": "wilcoxon"}, r"'test' parameter of compare_per_query must be one of 't', 'randomization', 'bootstrap'"),
        ({"correction": "fdr"}, r"'correction' parameter .* must be one of 'holm', 'bonferroni', None"),
        ({"baseline": "nope"}, r"'baseline' parameter .* must be one of the run names \['base', 'better'\]"),
        ({"alpha": 1.5}, r"'alpha' parameter .* range \(0, 1\)"),
        ({"n_resamples": 0}, r"'n_resamples' parameter .* range \[1, inf\)"),
        ({"seed": -1}, r"'seed' parameter .* range \[0, inf\)"),
        ({"family": "run"}, r"'family' parameter"),
        ({"measures": ["nDCG"]}, r"run 'base' has no column 'nDCG'"),
    ],
)
def test_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        compare_per_query({"base": BASE, "better": BETTER}, **kwargs)


def test_needs_two_runs_in_a_dict():
    with pytest.raises(ValueError, match=r"needs at least 2 runs to compare. Got 1"):
        compare_per_query({"base": BASE})
    with pytest.raises(ValueError, match=r"must be a dict \{run name: run\}. Got list"):
        compare_per_query([BASE, BETTER])


# ------------------------------------------------------------------------------------------
# LaTeX


def test_to_latex_marks_best_and_significance():
    strong = _scores({"AP": BASE["AP"].to_numpy() + 0.2, "P@10": BASE["P@10"].to_numpy() - 0.05})
    strong.loc["q0", "P@10"] = 0.1  # keep one tie so the P@10 drop is not constant
    result = compare_per_query({"base_line": BASE, "strong": strong}, test="t", correction=None)
    latex = result.to_latex(digits=3, label="tab:runs")
    lines = latex.splitlines()
    assert lines[0] == r"\begin{table}[t]" and r"\toprule" in lines and lines[-1] == r"\end{table}"
    assert lines[4] == r"Run & AP & P@10 \\"
    base_row = next(line for line in lines if line.startswith(r"base\_line &"))
    strong_row = next(line for line in lines if line.startswith("strong &"))
    # AP: 0.3 vs 0.5 (better, significant); P@10: base best, strong significantly worse?
    assert r"\textbf{0.500}$^{\dagger}$" in strong_row
    assert r"\textbf{0.260}" in base_row
    row = result.table.set_index("measure").loc["P@10"]
    assert (r"$^{\ddagger}$" in strong_row) == bool(row["significant"])
    assert r"\label{tab:runs}" in latex and r"paired t-test" in latex and r"base\_line" in latex


def test_latex_escapes_specials():
    result = compare_per_query({"a_b": _scores({"P_10 & 5%": [0.1, 0.2]}), "c#d": _scores({"P_10 & 5%": [0.2, 0.3]})})
    latex = result.to_latex()
    assert r"P\_10 \& 5\%" in latex and r"c\#d &" in latex


# ------------------------------------------------------------------------------------------
# compare(): evaluate, then the core


QRELS = """\
q1 0 a 1
q1 0 b 1
q2 0 c 2
q2 0 d 0
q3 0 e 1
q4 0 f 1
"""
RUN_A = """\
q1 Q0 x 1 3 A
q1 Q0 a 2 2 A
q1 Q0 b 3 1 A
q2 Q0 d 1 2 A
q2 Q0 c 2 1 A
q3 Q0 e 1 1 A
q4 Q0 y 1 1 A
"""
RUN_B = """\
q1 Q0 a 1 3 B
q1 Q0 b 2 2 B
q2 Q0 c 1 2 B
q2 Q0 d 2 1 B
q3 Q0 z 1 2 B
q3 Q0 e 2 1 B
"""


def test_compare_end_to_end_matches_evaluate():
    with pytest.warns(RuntimeWarning, match="1 query scored for only one"):  # q4 is not in run B
        result = compare(QRELS, {"A": RUN_A, "B": RUN_B}, ["AP", "RR"], test="t")
    a = evaluate(QRELS, RUN_A, ["AP", "RR"], per_query=True)
    b = evaluate(QRELS, RUN_B, ["AP", "RR"], per_query=True)
    table = result.table.set_index("measure")
    assert table.loc["AP", "mean"] == pytest.approx(b.mean["AP"])
    assert table.loc["AP", "baseline_mean"] == pytest.approx(a.mean["AP"])
    common = ["q1", "q2", "q3"]
    d = b.per_query.loc[common, "RR"] - a.per_query.loc[common, "RR"]
    # RR by hand: A = 1/2, 1/2, 1 (q1..q3); B = 1, 1, 1/2 -> d = 1/2, 1/2, -1/2
    np.testing.assert_allclose(d, [0.5, 0.5, -0.5])
    assert table.loc["RR", "delta"] == pytest.approx(0.5 / 3)
    assert table.loc["RR", "p_value"] == pytest.approx(scipy.stats.ttest_rel(b.per_query.loc[common, "RR"],
                                                                             a.per_query.loc[common, "RR"]).pvalue)


def test_compare_complete_scores_missing_queries_as_zero():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no query is left out with complete=True
        result = compare(QRELS, {"A": RUN_A, "B": RUN_B}, ["RR"], complete=True, test="randomization")
    row = result.table.iloc[0]
    assert row["n_queries"] == 4
    # RR: A = 1/2, 1/2, 1, 0 ; B = 1, 1, 1/2, 0 (q4 missing from B) -> d = 1/2, 1/2, -1/2, 0
    assert row["delta"] == pytest.approx(0.5 / 4)
    assert row["p_value"] == pytest.approx(brute_force_sign_flip_p([0.5, 0.5, -0.5, 0.0]))
    assert (row["wins"], row["ties"], row["losses"]) == (2, 1, 1)


def test_compare_reads_qrels_once_from_any_source(tmp_path):
    path = tmp_path / "q.qrels"
    path.write_text(QRELS)
    first = compare(path, {"A": RUN_A, "A again": RUN_A}, ["AP"], test="bootstrap", seed=3)
    row = first.table.iloc[0]
    assert row["delta"] == 0.0 and row["p_value"] == 1.0 and row["ties"] == 4 and not row["significant"]


def test_scipy_is_not_needed_at_runtime():
    import subprocess
    import sys

    runs = {"A": RUN_A, "B": RUN_B}
    code = "\n".join([
        "import sys",
        "from rankviz.evaluation.comparison import compare",
        "for test in ('t', 'randomization', 'bootstrap'):",
        f"    compare({QRELS!r}, {runs!r}, ['AP'], complete=True, test=test)",
        "assert not [m for m in sys.modules if m.startswith('scipy')], 'scipy was imported'",
    ])
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
