"""AppTest of the "AUC, GAUC and user measures" page: shown values equal the package's."""

import pytest

from app_helpers import open_app, table_grid_key
from rankviz.formatting import format_number
from rankviz.metrics import (
    auc,
    coverage,
    expected_search_length,
    frustration,
    gauc,
    novelty,
    recall_effort,
    relative_recall,
    satisfaction,
)
from rankviz.teaching.presets import get_preset
from rankviz.ui.user_inputs import DEFAULT_CLICK_LOG, DEFAULT_SETS, parse_id_set

PAGE = "app_pages/user_measures.py"
LOG = DEFAULT_CLICK_LOG
Q1 = list(get_preset("q1_binary").rels)
SETS = {name: parse_id_set(text, name=name) for name, text in DEFAULT_SETS.items()}


def _metrics(at) -> dict:
    return {m.label: m.value for m in at.metric}


def _results(at) -> dict:
    found = {}
    for block in at.markdown:
        if block.value.startswith("### "):
            label, value = block.value[4:].split("  \n")[0].split(" = ")
            found[label] = value
    return found


@pytest.fixture
def at():
    app = open_app(PAGE)
    assert not app.exception, app.exception
    return app


def test_gauc_and_global_auc_equal_the_package(at):
    shown = _metrics(at)
    assert shown["GAUC"] == format_number(float(gauc(LOG["label"], LOG["score"], LOG["group"])), 3)
    assert shown["AUC over all items (no groups)"] == format_number(auc(LOG["label"], LOG["score"]), 3)
    # u1: positives 0.9, 0.4 against negatives 0.6, 0.3: 3 of 4 pairs = 0.75 (hand count).
    assert _results(at)["AUC (u1)"] == format_number(0.75, 3)


def test_group_weights_switch(at):
    at.radio(key="um_weights").set_value("uniform").run()
    assert not at.exception
    expected = gauc(LOG["label"], LOG["score"], LOG["group"], weights="uniform")
    assert _metrics(at)["GAUC"] == format_number(float(expected), 3)


def test_editing_a_label_changes_gauc(at):
    at.session_state[table_grid_key(at, "um_clicks")] = {"edited_rows": {7: {"label": 1}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert not at.exception
    labels = LOG["label"].tolist()
    labels[7] = 1  # u3 now has a click at 0.7 against a skip at 0.1: AUC 1, no longer skipped
    assert _metrics(at)["GAUC"] == format_number(float(gauc(labels, LOG["score"], LOG["group"])), 3)


def test_a_bad_label_is_named_and_the_last_valid_log_kept(at):
    before = _metrics(at)
    at.session_state[table_grid_key(at, "um_clicks")] = {"edited_rows": {2: {"label": 5}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert not at.exception
    assert any("Row 3 (c)" in e.value and "label" in e.value for e in at.error)
    assert _metrics(at) == before


def test_one_group_auc_pair_table(at):
    at.selectbox(key="um_group").set_value("u2").run()
    # u2: positive e (0.35) against f (0.2, below) and g (0.5, above): 1 of 2 pairs.
    assert _results(at)["AUC (u2)"] == format_number(0.5, 3)


def test_user_measures_equal_the_package_on_the_defaults(at):
    results = _results(at)
    assert results["coverage"] == format_number(coverage(SETS["R"], SETS["A"], SETS["K"]), 3)
    assert results["novelty"] == format_number(novelty(SETS["R"], SETS["A"], SETS["K"]), 3)
    assert results["relative recall"] == format_number(relative_recall(4, 5), 3)
    assert results["recall effort"] == format_number(recall_effort(5, 10), 3)
    assert results["ESL (wanted 2)"] == format_number(expected_search_length(Q1, 2), 3)
    assert results["satisfaction@15"] == format_number(satisfaction(Q1), 3)
    assert results["frustration@15"] == format_number(frustration(Q1), 3)
    # q1: K ∩ R = {d3, d5, d56, d89}, of which d3 and d56 were retrieved: coverage 2/4.
    assert results["coverage"] == format_number(0.5, 3)


def test_known_set_and_tie_levels_from_the_inputs(at):
    at.text_input(key="um_K").input("d3").run()
    at.text_input(key="um_levels").input(",".join(["1"] * 5 + ["2"] * 10)).run()
    assert not at.exception
    results = _results(at)
    assert results["novelty"] == format_number(novelty(SETS["R"], SETS["A"], ["d3"]), 3)
    levels = [1] * 5 + [2] * 10
    assert results["ESL (wanted 2)"] == format_number(expected_search_length(Q1, 2, levels=levels), 3)


@pytest.mark.parametrize("key, text, needle", [
    ("um_rels", "1,abc", "'abc'"),
    ("um_rels", "", "grade"),
    ("um_levels", "2,1", "levels"),
    ("um_expected", "0", "# expected"),
    ("um_examined", "x", "# examined"),
    ("um_wanted", "-1", "wanted"),
])
def test_bad_input_shows_a_message_and_no_exception(at, key, text, needle):
    at.text_input(key=key).input(text).run()
    assert not at.exception
    assert any(needle.lower() in e.value.lower() for e in at.error), [e.value for e in at.error]


def test_examined_below_expected_is_explained_not_raised(at):
    at.text_input(key="um_examined").input("2").run()
    assert not at.exception
    assert any("examined" in e.value for e in at.error)


def test_roc_curves_are_drawn_for_the_groups_with_both_classes_only():
    from teaching_helpers import chart_frames

    at = open_app(PAGE)
    assert not at.exception
    curves = next(frame for frame in chart_frames(at, 0) if "curve" in frame.columns)
    names = {name.split(" (")[0] for name in curves["curve"]}
    # u3 of the default log has negatives only (labels 0, 0): no ROC curve, as GAUC leaves it out
    assert names == {"u1", "u2", "all items"}


def _rules_table(at) -> dict[str, list[str]]:
    """The GAUC rules table (a Markdown table whose first data row is GAUC): {first cell: the other cells}."""
    block = next(m.value for m in at.markdown if "| **GAUC** |" in m.value)
    rows = [line.strip("|").split(" | ") for line in block.splitlines()]
    return {cells[0].strip(): [c.strip() for c in cells[1:]] for cells in rows if not cells[0].startswith("-")}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_gauc_under_each_tools_rules(lang):
    from rankviz.evaluation.tools import gauc_as_tool
    from rankviz.i18n import _, speaking

    app = open_app(PAGE, {"lang": lang})
    assert not app.exception, app.exception
    table = _rules_table(app)
    ours = gauc(LOG["label"], LOG["score"], LOG["group"])
    torchrec = gauc_as_tool(LOG["label"], LOG["score"], LOG["group"], "torchrec")
    assert table["**GAUC**"] == [f"**{format_number(float(ours), 3)}**", f"**{format_number(torchrec, 3)}**"]
    with speaking(lang):
        left_out = _("groups left out")
        u3 = _("{group}: {reason}").format(group="u3", reason=_("only clicks or only non-clicks"))
        because = _("{tool} differs from rankviz here because of: {reasons} (in bold).").format(
            tool=_("{title} (from its source)").format(title="TorchRec"), reasons=_("GAUC group weights"))
    assert table[left_out] == [u3, u3]
    assert because in [c.value for c in app.caption]


def test_torchrec_leaves_out_a_group_whose_scores_are_all_equal(at):
    from rankviz.evaluation.tools import gauc_as_tool

    # u2's three rows (e, f, g: rows 4-6) all scored 0.5: rankviz counts u2 with AUC 0.5, torchrec drops it.
    at.session_state[table_grid_key(at, "um_clicks")] = {
        "edited_rows": {4: {"score": 0.5}, 5: {"score": 0.5}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert not at.exception
    scores = LOG["score"].tolist()
    scores[4] = scores[5] = 0.5
    ours = gauc(LOG["label"], scores, LOG["group"])
    torchrec = gauc_as_tool(LOG["label"], scores, LOG["group"], "torchrec")
    table = _rules_table(at)
    assert table["**GAUC**"] == [f"**{format_number(float(ours), 3)}**", f"**{format_number(torchrec, 3)}**"]
    assert ours.per_group["u2"] == 0.5 and float(ours) != torchrec
    assert table["groups left out"][1] == "u2: every score equal; u3: only clicks or only non-clicks"
