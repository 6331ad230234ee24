"""Browser Back/Forward restores the ranking and settings the address describes.

Streamlit 1.67 answers Back/Forward with a rerun whose ``st.query_params`` hold the history entry's
query string and whose script-run context says ``is_history_navigation``. AppTest cannot press Back,
so these tests rerun with an earlier URL (a copy of ``at.query_params`` taken after an earlier run:
the history entry) and that flag set, as the browser's rerun would. A page switch reruns with the
app's parameters stripped and no flag: that must keep the state. (tests/e2e/test_history.py presses
the real buttons.)
"""

from __future__ import annotations

import functools

import pytest
from app_helpers import ONE_RANKING, open_app, result_lines
from streamlit.runtime.scriptrunner_utils.script_requests import RerunData
from streamlit.testing.v1 import local_script_runner

from rankviz.formatting import format_number
from rankviz.metrics import ndcg

PRECISION_RECALL = "app_pages/precision_recall.py"


def _entry(at) -> dict:
    """The address bar now: what the browser keeps as a history entry."""
    return dict(at.query_params)


def _rerun_at(at, link: dict, *, history: bool, monkeypatch) -> None:
    """Rerun with ``link`` in the address bar, flagged as Back/Forward (``history``) or not."""
    at.query_params.clear()
    at.query_params.update(link)
    with monkeypatch.context() as patch:
        if history:
            patch.setattr(local_script_runner, "RerunData",
                          functools.partial(RerunData, is_history_navigation=True))
        at.run()
    assert not at.exception, at.exception


def _type(at, key: str, text: str) -> None:
    at.text_input(key=key).set_value(text).run()
    assert not at.exception, at.exception


def _ndcg_line(rels, k=None) -> str:
    return f"nDCG@{k or len(rels)} = {format_number(ndcg(rels, k=k), 3)}"


def test_back_and_forward_restore_the_ranking_and_k_of_each_entry(monkeypatch):
    at = open_app(ONE_RANKING, {"rels": "1,0,3"})
    _type(at, "rels", "3,0,1,2")
    first_edit = _entry(at)
    _type(at, "k", "2")
    _type(at, "rels", "0,0,3,1")
    assert at.text_input(key="rels").value == "0,0,3,1" and _entry(at)["k"] == "2"

    _rerun_at(at, first_edit, history=True, monkeypatch=monkeypatch)  # Back, twice
    assert at.text_input(key="rels").value == "3,0,1,2"
    assert at.text_input(key="k").value == ""
    assert _ndcg_line([3, 0, 1, 2]) in result_lines(at)
    assert _entry(at) == first_edit  # nothing written over the restored entry

    _rerun_at(at, {"rels": "0,0,3,1", "k": "2"}, history=True, monkeypatch=monkeypatch)  # Forward
    assert at.text_input(key="rels").value == "0,0,3,1" and at.text_input(key="k").value == "2"
    assert _ndcg_line([0, 0, 3, 1], k=2) in result_lines(at)


def test_the_restored_ranking_takes_edits_and_writes_them_as_before(monkeypatch):
    at = open_app(ONE_RANKING, {"rels": "1,0,3"})
    first = _entry(at)
    _type(at, "rels", "2,2,2")
    _rerun_at(at, first, history=True, monkeypatch=monkeypatch)
    assert at.session_state["ranking"].grades == (1, 0, 3)
    _type(at, "rels", "0,1")  # a normal edit after Back: written to the URL, shown
    assert _entry(at) == {"rels": "0,1"}
    assert _ndcg_line([0, 1]) in result_lines(at)


def test_a_restore_drops_unsaved_settings_the_entry_does_not_hold(monkeypatch):
    # The entry is the exact state: a setting changed later is reset to what the link says (default).
    at = open_app(ONE_RANKING, {"rels": "3,2,3,0,1,2"})
    first = _entry(at)
    at.radio(key="gain").set_value("exponential").run()
    _type(at, "R", "5")
    assert _entry(at)["gain"] == "exponential" and _entry(at)["R"] == "5"
    _rerun_at(at, first, history=True, monkeypatch=monkeypatch)
    assert at.radio(key="gain").value == "linear"
    assert at.text_input(key="R").value == ""
    assert _ndcg_line([3, 2, 3, 0, 1, 2]) in result_lines(at)


def test_a_page_switch_strips_the_link_without_the_flag_and_keeps_the_state(monkeypatch):
    at = open_app(ONE_RANKING, {"rels": "1,0,3"})
    _type(at, "rels", "0,2")
    _rerun_at(at, {}, history=False, monkeypatch=monkeypatch)
    assert at.text_input(key="rels").value == "0,2"
    assert _entry(at) == {"rels": "0,2"}  # written back at the end of the run


def test_an_entry_without_the_apps_parameters_keeps_the_state(monkeypatch):
    # Streamlit pushes such an entry on every page switch, before the app writes its parameters.
    at = open_app(ONE_RANKING, {"rels": "1,0,3"})
    _type(at, "rels", "0,2")
    _rerun_at(at, {}, history=True, monkeypatch=monkeypatch)
    assert at.text_input(key="rels").value == "0,2"
    assert _entry(at) == {"rels": "0,2"}


def test_history_navigation_to_the_current_link_changes_nothing(monkeypatch):
    at = open_app(ONE_RANKING, {"rels": "1,0,3"})
    _type(at, "rels", "0,2")
    revision = at.session_state["ranking_revision"]
    _rerun_at(at, _entry(at), history=True, monkeypatch=monkeypatch)
    assert at.text_input(key="rels").value == "0,2"
    assert at.session_state["ranking_revision"] == revision  # the grid was not renewed for nothing


def test_back_renews_the_grid_so_old_cell_edits_are_not_reapplied(monkeypatch):
    from app_helpers import edit_grid

    at = open_app(ONE_RANKING, {"rels": "1,0,3"})
    first = _entry(at)
    edit_grid(at, edited_rows={1: {"grade": 2}})
    assert at.session_state["ranking"].grades == (1, 2, 3)
    revision = at.session_state["ranking_revision"]
    _rerun_at(at, first, history=True, monkeypatch=monkeypatch)
    assert at.session_state["ranking"].grades == (1, 0, 3)
    assert at.session_state["ranking_revision"] > revision
    assert _ndcg_line([1, 0, 3]) in result_lines(at)


def test_a_pages_own_link_settings_follow_back_and_forward(monkeypatch):
    # precision_recall keeps beta (a number field) and compare (a toggle) in the link (rankviz.ui.link).
    at = open_app(PRECISION_RECALL, {"rels": "1,0,1"})
    first = _entry(at)
    _type(at, "beta", "2")
    at.toggle(key="compare").set_value(True).run()
    later = _entry(at)
    assert later["beta"] == "2" and later["compare"] == "true"

    _rerun_at(at, first, history=True, monkeypatch=monkeypatch)
    assert at.text_input(key="beta").value == "1"
    assert at.toggle(key="compare").value is False
    assert "beta" not in _entry(at) and "compare" not in _entry(at)

    _rerun_at(at, later, history=True, monkeypatch=monkeypatch)
    assert at.text_input(key="beta").value == "2"
    assert at.toggle(key="compare").value is True


@pytest.mark.parametrize("bad", ["abc", "0"])
def test_after_back_a_bad_link_value_falls_back_to_the_default_like_a_fresh_link(monkeypatch, bad):
    fresh = open_app(PRECISION_RECALL, {"rels": "1,0,1", "beta": bad})
    at = open_app(PRECISION_RECALL, {"rels": "1,0,1"})
    _type(at, "beta", "3")
    _rerun_at(at, {"rels": "1,0,1", "beta": bad}, history=True, monkeypatch=monkeypatch)
    assert [e.value for e in at.error] == [e.value for e in fresh.error]


def _sync_script():
    import streamlit as st

    from rankviz.ui.link import link_widget, set_value, sync_url
    from rankviz.registry import GAIN
    from rankviz.ui.state import init_state

    init_state()
    for key, value in st.session_state.get("new_values", {}).items():
        set_value(key, value)
    for key in ("rels", "k", "R"):
        link_widget(st.text_input, key, key=key)
    link_widget(st.radio, "gain", GAIN.values, key="gain")
    sync_url()


def _count_url_messages(monkeypatch) -> list:
    """Record every message that changes the URL (each one is a browser history entry)."""
    from streamlit.runtime.state.query_params import QueryParams

    sent = []
    original = QueryParams._send_query_param_msg

    def counting(self):
        sent.append(dict(self._query_params))
        original(self)

    monkeypatch.setattr(QueryParams, "_send_query_param_msg", counting)
    return sent


def test_several_changes_in_one_run_make_one_history_entry(monkeypatch):
    # A course exercise sets the ranking, gain and R at once and clears k: Back must not stop at
    # an entry holding only some of them (a state the page never showed).
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(_sync_script)
    at.query_params.update({"rels": "1,0", "k": "2", "other": "kept"})
    at.session_state["new_values"] = {"rels": "3,2,3,0,1,2", "gain": "exponential", "R": "4", "k": ""}
    sent = _count_url_messages(monkeypatch)
    at.run()
    assert not at.exception, at.exception
    assert len(sent) == 1
    assert _entry(at) == {"rels": "3,2,3,0,1,2", "gain": "exponential", "R": "4", "other": "kept"}


def test_a_run_that_changes_nothing_sends_no_url_message(monkeypatch):
    # Every message is a history entry: a rerun showing the same values must not add one.
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(_sync_script)
    at.query_params.update({"rels": "1,0", "k": "2"})
    at.run()
    sent = _count_url_messages(monkeypatch)
    at.run()
    assert not at.exception, at.exception
    assert sent == [] and _entry(at) == {"rels": "1,0", "k": "2"}


def test_a_page_that_stops_early_still_writes_its_link(monkeypatch):
    # The homework page calls st.stop() when the exercise cannot be read; its settings must reach the link.
    at = open_app("app_pages/homework.py", {"hw_source": "own", "hw_rels": "3,abc"})
    at.selectbox(key="hw_kind").set_value("ap").run()
    assert not at.exception, at.exception
    # The settings reach the link; the grades that made no exercise do not (issue 20: a copied link
    # would reopen the error), the box keeps them.
    assert _entry(at) == {"hw_source": "own", "hw_kind": "ap"}
    assert at.text_area(key="hw_rels").value == "3,abc"


def test_back_on_one_page_keeps_the_settings_of_another_page(monkeypatch):
    # beta lives in precision_recall's link only; Back on the one-ranking page (whose link never
    # held it) must not reset it, while the ranking follows the entry.
    at = open_app(PRECISION_RECALL, {"rels": "1,0,1"})
    _type(at, "beta", "2")
    at.switch_page(ONE_RANKING)
    at.query_params.clear()  # as the browser does on a page switch (AppTest keeps them)
    at.run()
    first = _entry(at)
    assert first == {"rels": "1,0,1"}
    _type(at, "rels", "0,1,1")
    _rerun_at(at, first, history=True, monkeypatch=monkeypatch)
    assert at.text_input(key="rels").value == "1,0,1"
    at.switch_page(PRECISION_RECALL).run()
    assert at.text_input(key="beta").value == "2"


def test_a_pages_own_text_and_choice_settings_follow_back_and_forward(monkeypatch):
    # The explorer's settings are URL keys like any other (rankviz.ui.url_keys): one mechanism.
    at = open_app("app_pages/explorer.py", {"ex_m": "50"})
    first = _entry(at)
    assert first == {"ex_m": "50"}
    _type(at, "ex_seed", "7")
    at.selectbox(key="ex_scale").set_value("0-3").run()
    later = _entry(at)
    assert later["ex_seed"] == "7" and later["ex_scale"] == "0-3"

    _rerun_at(at, first, history=True, monkeypatch=monkeypatch)
    assert at.text_input(key="ex_seed").value == "42" and at.selectbox(key="ex_scale").value == "0-1"
    assert at.text_input(key="ex_m").value == "50" and _entry(at) == first

    _rerun_at(at, later, history=True, monkeypatch=monkeypatch)
    assert at.text_input(key="ex_seed").value == "7" and at.selectbox(key="ex_scale").value == "0-3"


def test_a_table_kept_in_the_link_follows_back(monkeypatch):
    from app_helpers import table_with

    at = open_app("app_pages/many_queries.py", {"mq_queries": "a=1,0,1/4;b=0,0,1"})
    first = _entry(at)
    assert first["mq_queries"] == "a=1,0,1/4;b=0,0,1"
    at.button(key="mq_load").click().run()  # the course example replaces the table: left out of the link
    assert "mq_queries" not in _entry(at)
    _rerun_at(at, first, history=True, monkeypatch=monkeypatch)
    assert list(table_with(at, "grades")["query"]) == ["a", "b"]
    assert _entry(at) == first
