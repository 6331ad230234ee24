"""AppTest of the rank-correlation page: Spearman, Kendall and the distance at K as the package computes them."""

import pytest

from app_helpers import open_app
from rankviz.metrics import kendall_tau, kendall_tau_distance, spearman_rho, spearman_rho_breakdown
from rankviz.teaching.presets import PRESETS
from teaching_helpers import chart_frames, errors, page_path, results, shown

PAGE = page_path("correlation")
SRCC = PRESETS["srcc_exercise"]


def _open(query=None):
    at = open_app(PAGE, query)
    assert not at.exception, at.exception
    return at


def _ordered(items, ranks):
    return [item for _, item in sorted(zip(ranks, items))]


def test_srcc_course_exercise_is_the_default():
    # Lecture 002, "SRCC - class exercise": sum d^2 = 24, rho = 1 - 6 * 24 / (10 * 99) = 0.855 (slide 0.854)
    at = _open()
    values = results(at)
    assert values["ρ (Spearman)"] == "0.855"
    assert values["τ-b"] == shown(kendall_tau(SRCC.ranks_a, SRCC.ranks_b))
    assert values["τ-a"] == shown(kendall_tau(SRCC.ranks_a, SRCC.ranks_b, "a"))
    top5 = kendall_tau_distance(_ordered(SRCC.doc_ids, SRCC.ranks_a), _ordered(SRCC.doc_ids, SRCC.ranks_b), k=5)
    assert values["K_n@5"] == shown(top5)
    table = next(d.value for d in at.dataframe if "d^2" in d.value.columns)
    assert table["d^2"].sum() == 24
    note = next(info.value for info in at.info if "Course exercise" in info.value)
    assert "| Σd² | 24 | 24 |" in note and "| ρ | 0.854 | 0.855 |" in note


def test_url_parameters_restore_the_rankings_k_and_p():
    at = _open({"items": "a,b,c,d", "r1": "1,2,3,4", "r2": "4,3,2,1", "topk": "2", "p": "0"})
    values = results(at)
    assert values["ρ (Spearman)"] == "-1"
    assert values["τ-b"] == "-1"
    assert values["K_n@2"] == shown(kendall_tau_distance(list("abcd"), list("dcba"), k=2, penalty=0))
    assert at.text_input(key="topk").value == "2"


def test_ties_make_tau_a_and_tau_b_differ():
    at = _open({"items": "a,b,c,d", "r1": "1,2,3,4", "r2": "1,1,3,4"})
    values = results(at)
    assert values["τ-b"] == shown(kendall_tau([1, 2, 3, 4], [1, 1, 3, 4]))
    assert values["τ-a"] == shown(kendall_tau([1, 2, 3, 4], [1, 1, 3, 4], "a"))
    assert values["τ-a"] != values["τ-b"]
    assert values["ρ (Spearman)"] == shown(spearman_rho([1, 2, 3, 4], [1, 1, 3, 4]))


def test_scatter_joins_the_discordant_pairs():
    at = _open({"items": "x,y,z", "r1": "1,2,3", "r2": "2,1,3"})
    segments = next(frame for frame in chart_frames(at, 0) if "pair is" in frame.columns)
    assert set(segments["pair"]) == {"x, y"} and set(segments["pair is"]) == {"discordant"}


def test_editing_a_rank_in_the_grid_changes_rho():
    at = _open({"items": "a,b,c", "r1": "1,2,3", "r2": "1,2,3"})
    assert results(at)["ρ (Spearman)"] == "1"
    revision = at.session_state["two_rankings_revision"]
    at.session_state[f"two_rankings_grid_{revision}"] = {"edited_rows": {0: {"rank in R2": 3}, 2: {"rank in R2": 1}},
                                                         "added_rows": [], "deleted_rows": []}
    at.run()
    assert not at.exception
    assert at.text_input(key="r2").value == "3,2,1"
    assert results(at)["ρ (Spearman)"] == "-1"


def test_load_preset_button_restores_the_course_exercise():
    at = _open({"r1": "1,2", "r2": "2,1"})
    at.button(key="corr_load_preset").click().run()
    assert not at.exception
    assert results(at)["ρ (Spearman)"] == "0.855"
    assert at.text_input(key="r2").value == ",".join(map(str, SRCC.ranks_b))
    expected = spearman_rho_breakdown(SRCC.ranks_a, SRCC.ranks_b, items=list(SRCC.doc_ids))
    shown_table = next(d.value for d in at.dataframe if "d^2" in d.value.columns)
    assert shown_table["doc"].tolist() == expected.table["doc"].tolist()


def test_ideal_against_the_shared_ranking():
    # rels 1,3,0,3 (d1..d4), edited on the graded page: the ideal order puts d2 and d4 (grade 3) first,
    # tied at rank 1.5, then d1, d3
    at = open_app(page_path("graded"), {"rels": "1,3,0,3"})
    at.switch_page(PAGE).run()
    at.button(key="corr_load_shared").click().run()
    assert not at.exception
    assert at.text_input(key="items").value == "d1,d2,d3,d4"
    assert at.text_input(key="r1").value == "3,1.5,4,1.5"
    assert at.text_input(key="r2").value == "1,2,3,4"
    ideal = [3, 1.5, 4, 1.5]
    values = results(at)
    assert values["τ-b"] == shown(kendall_tau(ideal, [1, 2, 3, 4]))
    assert values["τ-a"] == shown(kendall_tau(ideal, [1, 2, 3, 4], "a"))
    assert values["τ-a"] != values["τ-b"]


@pytest.mark.parametrize("key, value, message", [
    ("r2", "1,2,x", "R2: position 3 is 'x'"),
    ("r2", "1,2", "R1 has 10 ranks and R2 has 2"),
    ("r1", "0,1,2,3,4,5,6,7,8,9", "R1: position 1 is 0"),
    ("items", "a,a,b,c,d,e,f,g,h,i", "appears twice"),
    ("topk", "0", "K (top of each list) must be a whole number"),
    ("p", "2", "p (penalty"),
])
def test_bad_input_shows_a_message_and_keeps_the_last_valid_rankings(key, value, message):
    at = _open()
    at.text_input(key=key).set_value(value).run()
    assert not at.exception
    assert any(message in text for text in errors(at)), errors(at)
    assert results(at)["ρ (Spearman)"] == "0.855"


def test_a_hundred_documents_in_reverse_order_draw_without_error():
    n = 100  # every one of the 4950 pairs is discordant: too many segments to draw
    at = _open({"items": "", "r1": ",".join(map(str, range(1, n + 1))), "r2": ",".join(map(str, range(n, 0, -1)))})
    assert results(at)["τ-b"] == "-1"
    assert any("4950 discordant pairs are too many to draw" in caption.value for caption in at.caption)


def test_all_tied_ranking_warns_instead_of_failing():
    at = _open({"items": "a,b,c", "r1": "1,2,3", "r2": "1,1,1"})
    assert any("undefined" in warning.value for warning in at.warning)
    assert results(at)["ρ (Spearman)"] == "NaN"


def test_tau_a_caption_and_spearman_variant_come_from_the_package():
    # a = 1,2,3,4 ; b = 1,1,3,4: 5 concordant pairs, 1 tied in b, of 4 * 3 / 2 = 6 pairs
    at = _open({"items": "a,b,c,d", "r1": "1,2,3,4", "r2": "1,1,3,4"})
    text = " ".join(m.value for m in at.markdown)
    assert "(C − D) / (n(n − 1)/2) = (5 − 0) / 6" in text
    assert "with ties: Pearson correlation of the average ranks" in " ".join(c.value for c in at.caption) + text


def test_the_spearman_working_reveals_step_by_step():
    at = open_app(page_path("correlation"), {"step": "100"})  # past the end: every step, ending with rho
    assert not at.exception, at.exception
    lines = [line for m in at.markdown for line in m.value.splitlines()]
    assert any(line.startswith("| ρ (Spearman) |") and "**0.855**" in line for line in lines), lines


def _variants_table(at) -> dict[str, list[str]]:
    """The Kendall variants table (a Markdown table headed by τ): {first cell: the other cells}."""
    block = next(m.value for m in at.markdown if m.value.startswith("| ") and " | τ | " in m.value.splitlines()[0])
    rows = [line.strip("|").split(" | ") for line in block.splitlines()[2:]]
    return {cells[0].strip(): [c.strip() for c in cells[1:]] for cells in rows}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_kendall_under_every_variant_beside_its_tools(lang):
    from scipy import stats

    from rankviz.conventions import CONVENTIONS
    from rankviz.i18n import speaking

    r1, r2 = [1, 2, 3, 4, 5, 6], [1, 1, 4, 3, 6, 5]  # a tie at the top of R2, two swaps below
    query = {"items": "a,b,c,d,e,f", "r1": ",".join(map(str, r1)), "r2": ",".join(map(str, r2))}
    at = _open({**query, "lang": lang})
    table = _variants_table(at)
    expected = {"a": kendall_tau(r1, r2, "a"), "b": stats.kendalltau(r1, r2).statistic,
                "c": stats.kendalltau(r1, r2, variant="c").statistic,
                # rank 1 is the top; scipy's weightedtau weighs the largest values most
                "weighted": stats.weightedtau([-r for r in r1], [-r for r in r2]).statistic}
    with speaking(lang):
        labels = {choice.value: choice.label for choice in CONVENTIONS["kendall"].param.choices}
    for variant, label in labels.items():
        assert table[label][0] == f"**{shown(expected[variant])}**", (variant, table)
    assert "scipy `kendalltau(variant='c')`" in table[labels["c"]][1]
    assert "`weightedtau" in table[labels["weighted"]][1]
    assert table[labels["a"]][1] == "—"
    assert len({row[0] for row in table.values()}) == 4  # the four differ on this pair of rankings
