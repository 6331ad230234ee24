"""Browser Back/Forward: the page shows the ranking and settings the address bar describes.

Every URL write pushes a history entry; on Back/Forward Streamlit reruns the app with that entry's
query parameters, and the app loads its state from them as opening the link would
(rankviz.ui.link.follow_link). A cell edit in the grid is the second edit so that going back also
proves the grid was renewed (its old cell edit is not re-applied to the restored rows).
"""

from __future__ import annotations

import re

import pytest

from conftest import edit_grade_in_grid, free_port, no_error_text, streamlit_server, type_into, wait_until_idle
from rankviz.formatting import format_number
from rankviz.metrics import ndcg

pytestmark = pytest.mark.e2e


def _shows(tab, rels, k=None, gain="linear") -> None:
    """Wait until the page shows ``rels`` (paste box) and its nDCG (worked result) for cut-off ``k``."""
    want = f"nDCG@{k or len(rels)} = {format_number(ndcg(rels, k=k, gain=gain), 3)}"
    tab.wait_for_function(
        "(want) => [...document.querySelectorAll('h3')].some(h => h.innerText.startsWith(want))",
        arg=want, timeout=20_000)
    wait_until_idle(tab)
    assert tab.get_by_role("textbox", name="Grades in ranked order").input_value() == ",".join(map(str, rels))
    assert tab.get_by_role("textbox", name="k (cut-off)").input_value() == ("" if k is None else str(k))
    no_error_text(tab)


class ScriptRuns:
    """Counts the script runs the server finished for a tab (``script_finished`` messages on its
    websocket). Attach before ``goto``.

    Some tests assert that Back shows the same values as before: waiting for the values alone
    could pass before the rerun began, and the app's script-state attribute can flip to running
    and back within one render, so the server's own message is the reliable sign.
    """

    def __init__(self, tab):
        self.finished = 0
        tab.on("websocket", lambda socket: socket.on("framereceived", self._frame))

    def _frame(self, payload) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        if not isinstance(payload, bytes):
            return
        message = ForwardMsg()
        try:
            message.ParseFromString(payload)
        except Exception:  # noqa: BLE001 (not a ForwardMsg: not a finished run)
            return
        if message.WhichOneof("type") == "script_finished":
            self.finished += 1


def _history(tab, runs: ScriptRuns, direction: str) -> None:
    """Press Back or Forward and wait until the rerun it starts has finished."""
    before = runs.finished
    tab.go_back() if direction == "back" else tab.go_forward()
    for _ in range(200):
        if runs.finished > before:
            break
        tab.wait_for_timeout(100)  # lets Playwright deliver the websocket events
    else:
        raise AssertionError(f"no script run finished within 20 s of pressing {direction}")
    wait_until_idle(tab)


def test_back_and_forward_show_the_ranking_and_metric_of_each_entry(page, app_url):
    runs = ScriptRuns(page)
    page.goto(f"{app_url}/one_ranking?rels=3,2,3,0,1,2")
    wait_until_idle(page)
    _shows(page, [3, 2, 3, 0, 1, 2])

    type_into(page, "Grades in ranked order", "1,0,3,0")  # first edit
    _shows(page, [1, 0, 3, 0])
    page.wait_for_url(re.compile(r"rels=1%2C0%2C3%2C0$|rels=1,0,3,0$"))
    type_into(page, "k (cut-off)", "2")
    _shows(page, [1, 0, 3, 0], k=2)
    edit_grade_in_grid(page, rank=2, grade=3)  # second edit, in the grid
    _shows(page, [1, 3, 3, 0], k=2)
    page.wait_for_url(re.compile(r"rels=1%2C3%2C3%2C0|rels=1,3,3,0"))

    _history(page, runs, "back")
    _shows(page, [1, 0, 3, 0], k=2)
    _history(page, runs, "back")
    _shows(page, [1, 0, 3, 0])
    page.wait_for_url(re.compile(r"rels=1%2C0%2C3%2C0$|rels=1,0,3,0$"))  # the address still agrees

    _history(page, runs, "forward")
    _shows(page, [1, 0, 3, 0], k=2)
    _history(page, runs, "forward")
    _shows(page, [1, 3, 3, 0], k=2)

    type_into(page, "Grades in ranked order", "0,0,2")  # editing after Back/Forward works as before
    _shows(page, [0, 0, 2], k=2)
    page.wait_for_url(re.compile(r"rels=0%2C0%2C2|rels=0,0,2"))


def test_back_after_a_course_exercise_never_stops_at_half_of_it(page, app_url):
    # The exercise sets the ranking and the gain in one run: one history entry, not one per value
    # (with one per value, the entry holding the ranking without the gain showed linear gain).
    lecture = [3, 2, 3, 0, 1, 2]  # 002 lecture, "Class Exercise - Compute DCG / IDCG / NDCG"
    runs = ScriptRuns(page)
    page.goto(app_url)
    wait_until_idle(page)
    page.get_by_role("button", name=re.compile("Open it on")).click()  # opens the graded page
    wait_until_idle(page)
    page.get_by_test_id("stTopNav").get_by_role("link", name="One ranking, every metric").click()
    wait_until_idle(page)
    _shows(page, lecture, gain="exponential")
    type_into(page, "k (cut-off)", "3")
    _shows(page, lecture, k=3, gain="exponential")

    _history(page, runs, "back")
    _shows(page, lecture, gain="exponential")
    for _ in range(3):  # back to the graded page, through the entries of the page switch, if any
        _history(page, runs, "back")
        _never_half_of_the_exercise(page)
        if "/graded" in page.url:
            break
    assert "/graded" in page.url

    for _ in range(4):
        _history(page, runs, "forward")
        _never_half_of_the_exercise(page)
        if "k=3" in page.url:
            break
    _shows(page, lecture, k=3, gain="exponential")


def _never_half_of_the_exercise(page) -> None:
    """Where the page shows a ranking, it is the exercise's, with its exponential gain. (How many
    entries a page switch adds depends on timing: Streamlit may push one before the app writes.)"""
    no_error_text(page)
    box = page.get_by_role("textbox", name="Grades in ranked order")
    if box.count():
        assert box.input_value() == "3,2,3,0,1,2"
        assert page.get_by_role("radio", name="exponential").first.is_checked()


def test_a_session_cut_by_a_server_restart_reopens_from_its_link(page, browser_or_skip, tmp_path):
    """A student edits, the server restarts (a crash, a redeploy): reloading the tab brings back
    the ranking they had typed, because the link holds it."""
    port = free_port()
    (tmp_path / "first").mkdir()
    (tmp_path / "second").mkdir()
    box = page.get_by_role("textbox", name="Grades in ranked order")
    with streamlit_server(tmp_path / "first", port=port) as url:
        page.goto(f"{url}/graded?rels=3,2,3,0,1,2&gain=exponential")
        wait_until_idle(page)
        box.fill("0,2,3,0,1,2")
        box.press("Enter")
        wait_until_idle(page)
        page.wait_for_function("() => new URLSearchParams(location.search).get('rels') === '0,2,3,0,1,2'")
    with streamlit_server(tmp_path / "second", port=port):
        page.reload()
        wait_until_idle(page)
        page.get_by_test_id("stMain").get_by_text("Graded relevance", exact=True).first.wait_for(timeout=60_000)
        wait_until_idle(page)
        assert box.input_value() == "0,2,3,0,1,2"
        no_error_text(page)
