"""The tables the teaching pages show for two conventions: Kendall's tau under every variant
(kendall_table) against scipy.stats, and a click log's GAUC under every tool's rules
(gauc_rules_table) against gauc_as_tool and rankviz.metrics.gauc. Expected values come from those
references, computed here, never copied."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import rankviz.metrics
from rankviz.conventions import CONVENTIONS, PROFILES
from rankviz.evaluation.tools import GAUC_CONVENTIONS, gauc_as_tool, gauc_rules_table, kendall_table

stats = pytest.importorskip("scipy.stats")


def random_rankings(seed: int):
    """Two rankings of the same n items as ranks (1 first; tied items share their average rank)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 14))
    levels = 3 if seed % 2 else 1000  # every other pair full of ties
    a = stats.rankdata(-rng.integers(0, levels, n))
    b = stats.rankdata(-rng.integers(0, levels, n))
    return a, b


def tau_a_by_hand(a, b) -> float:
    """(concordant − discordant) over all n(n − 1)/2 pairs, pair by pair."""
    n = len(a)
    signs = [np.sign(a[i] - a[j]) * np.sign(b[i] - b[j]) for i in range(n) for j in range(i + 1, n)]
    return float(sum(signs)) / (n * (n - 1) / 2)


@pytest.mark.parametrize("seed", range(40))
def test_kendall_table_equals_scipy(seed):
    a, b = random_rankings(seed)
    if len(set(a)) < 2 or len(set(b)) < 2:
        return
    table = kendall_table(a, b).set_index("variant")
    assert list(table.index) == list(CONVENTIONS["kendall"].param.values)
    assert table.loc["a", "tau"] == pytest.approx(tau_a_by_hand(a, b))
    assert table.loc["b", "tau"] == pytest.approx(stats.kendalltau(a, b, variant="b").statistic)
    assert table.loc["c", "tau"] == pytest.approx(stats.kendalltau(a, b, variant="c").statistic)
    # Rank 1 is the top; weightedtau weighs the largest values: the ranks negated.
    assert table.loc["weighted", "tau"] == pytest.approx(stats.weightedtau(-a, -b).statistic)


def test_weighted_tau_counts_a_swap_at_the_top_more():
    top = kendall_table([1, 2, 3, 4, 5], [2, 1, 3, 4, 5]).set_index("variant")["tau"]
    bottom = kendall_table([1, 2, 3, 4, 5], [1, 2, 3, 5, 4]).set_index("variant")["tau"]
    assert top["b"] == bottom["b"]  # one discordant pair of ten either way: (9 − 1) / 10
    assert top["b"] == pytest.approx(0.8)
    assert top["weighted"] < bottom["weighted"]


def test_kendall_table_names_each_variants_tools_from_the_catalogue():
    table = kendall_table([1, 2, 3], [1, 3, 2]).set_index("variant")
    for choice in CONVENTIONS["kendall"].param.choices:
        expected = tuple((u.tool, u.name) for u in CONVENTIONS["kendall"].tools if u.choice == choice.value)
        assert table.loc[choice.value, "tools"] == expected
        assert table.loc[choice.value, "label"] == choice.source_label
        assert table.loc[choice.value, "formula"] == choice.formula
    assert ("scipy", "kendalltau(variant='c')") in table.loc["c", "tools"]


def test_kendall_table_of_an_all_tied_ranking_is_nan_with_warnings():
    with pytest.warns(RuntimeWarning):
        table = kendall_table([1, 2, 3], [2, 2, 2])
    assert table["tau"].isna().all()


def random_log(seed: int):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(4, 40))
    groups = rng.integers(0, 5, n).astype(str)
    labels = (rng.random(n) < 0.4).astype(int)
    scores = np.round(rng.random(n), 1)
    for g in rng.choice(np.unique(groups), 1):  # one group's scores all equal, for torchrec to drop
        scores[groups == g] = 0.5
    return labels, scores, groups


@pytest.mark.parametrize("seed", range(30))
def test_gauc_rules_table_equals_gauc_as_tool_and_rankviz_gauc(seed):
    labels, scores, groups = random_log(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        table = gauc_rules_table(labels, scores, groups)
        ours = rankviz.metrics.gauc(labels, scores, groups)
        torchrec = gauc_as_tool(labels, scores, groups, "torchrec")
    assert list(table.index) == ["rankviz"] + [t for t, p in PROFILES.items() if p.measure("GAUC") is not None]
    assert (math.isnan(ours.value) and math.isnan(table.loc["rankviz", "gauc"])) or \
        table.loc["rankviz", "gauc"] == pytest.approx(ours.value)
    assert table.loc["torchrec", "gauc"] == pytest.approx(torchrec, nan_ok=True)
    # Who counts: rankviz's groups are rankviz.metrics.gauc's, its left-out ones its skipped groups.
    assert set(table.loc["rankviz", "counted"]) == set(ours.per_group)
    assert {g for g, _ in table.loc["rankviz", "left_out"]} == set(ours.skipped_groups)
    constant = {g for g in set(ours.per_group) if len(set(scores[groups == g])) == 1}
    assert set(table.loc["torchrec", "counted"]) == set(ours.per_group) - constant
    assert {g for g, why in table.loc["torchrec", "left_out"] if why == "constant predictions"} == constant
    for c in GAUC_CONVENTIONS:
        assert table.loc["torchrec", c] == PROFILES["torchrec"].setting("GAUC", c)


def test_gauc_rules_table_names_the_conventions_that_make_the_difference():
    # Sessions: u ranks its click first (AUC 1, 2 rows), v's scores are all 0.5 (AUC 0.5, 2 rows), w
    # has no click. rankviz (2·1 + 2·0.5) / 4 = 0.75; torchrec drops v: u alone, 1. The weights do not
    # matter once v is out (one group left), so only the constant-predictions rule is named.
    labels, scores, groups = [1, 0, 1, 0, 0, 0], [0.9, 0.1, 0.5, 0.5, 0.3, 0.2], list("uuvvww")
    table = gauc_rules_table(labels, scores, groups)
    assert table.loc["rankviz", "gauc"] == pytest.approx(gauc_as_tool(labels, scores, groups))
    assert table.loc["torchrec", "gauc"] == pytest.approx(gauc_as_tool(labels, scores, groups, "torchrec"))
    assert table.loc["torchrec", "differs_by"] == ("gauc_constant",)
    assert table.loc["rankviz", "differs_by"] == ()
    # Add a session x (AUC 1/2, 3 rows): now the plain mean differs from the weighted one too.
    labels, scores, groups = labels + [1, 0, 0], scores + [0.2, 0.8, 0.1], groups + ["x"] * 3
    table = gauc_rules_table(labels, scores, groups)
    assert set(table.loc["torchrec", "differs_by"]) == {"gauc_constant", "gauc_weights"}
    # Nothing to count: NaN for rankviz, 0.5 for torchrec; only that rule makes the difference.
    table = gauc_rules_table([1, 1, 0], [0.3, 0.4, 0.2], ["u", "u", "v"])
    assert math.isnan(table.loc["rankviz", "gauc"]) and table.loc["torchrec", "gauc"] == 0.5
    assert table.loc["torchrec", "differs_by"] == ("gauc_empty",)
