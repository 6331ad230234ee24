"""Nothing a student types is lost while the server is busy with the rest of the class.

A server of its own is kept busy by simulated classmates (websocket sessions speaking
Streamlit's protocol, benchmarks/streamlit_client.py, editing the graded page without pause)
while a real Chromium tab types: answers in the homework form while a reveal reruns the page,
and three rankings in a row into the grades box, each sent before the previous one's run has
finished. Every answer must still be in its box and marked, and the page (and its link) must
end on the last ranking typed, not on one the server was still working on.
"""

from __future__ import annotations

import asyncio
import random
import sys
import threading
import time

import pytest

from conftest import ROOT, no_error_text, streamlit_server, wait_until_idle
from rankviz.teaching.homework import exercise_from_preset, steps_for
from rankviz.teaching.homework.core import tex_number

sys.path.insert(0, str(ROOT / "benchmarks"))
from load import SHARED_RANKING, edited, shared_link  # noqa: E402
from streamlit_client import StreamlitSession  # noqa: E402

pytestmark = pytest.mark.e2e

CLASSMATES = 12


class Classmates:
    """``CLASSMATES`` sessions editing the graded page back to back, in a thread of their own."""

    def __init__(self, url: str):
        self.url, self.edits, self.errors = url, 0, []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._all()), daemon=True)

    async def _one(self, number: int) -> None:
        rng, grades = random.Random(number), list(SHARED_RANKING)
        session = StreamlitSession(self.url, timeout=60)
        try:
            await session.open("graded", shared_link())
            while not self._stop.is_set():
                grades = edited(grades, rng)
                box = session.widget(kind="text_input", key="rels")
                await session.rerun(set_values={box.id: ("string_value", ",".join(map(str, grades)))})
                self.edits += 1
        except Exception as error:  # noqa: BLE001 (reported by the test, not raised in this thread)
            self.errors.append(repr(error))
        finally:
            await session.close()

    async def _all(self) -> None:
        await asyncio.gather(*(self._one(n) for n in range(CLASSMATES)))

    def __enter__(self):
        self._thread.start()
        deadline = time.monotonic() + 60
        while self.edits < CLASSMATES and time.monotonic() < deadline:  # the class is at work
            time.sleep(0.2)
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join(timeout=60)


@pytest.fixture(scope="module")
def busy_app_url(browser_or_skip, tmp_path_factory):
    """A server of this module's own (the others' tests are not slowed), busy with the class."""
    with streamlit_server(tmp_path_factory.mktemp("busy")) as url, Classmates(url) as classmates:
        yield url, classmates
    assert not classmates.errors, classmates.errors


def test_homework_answers_typed_while_the_server_is_busy_are_all_kept_and_marked(page, busy_app_url):
    url, classmates = busy_app_url
    steps = steps_for(exercise_from_preset("ap_positions_1_3_6"))
    answers = [tex_number(step.expected) for step in steps]
    page.goto(f"{url}/homework?hw_source=course&hw_preset=ap_positions_1_3_6")
    wait_until_idle(page)
    page.get_by_label(steps[0].label, exact=True).wait_for(timeout=60_000)
    before = classmates.edits
    for i, (step, answer) in enumerate(zip(steps, answers)):
        page.get_by_label(step.label, exact=True).fill(answer)
        if i == 1:  # a rerun starts while the rest are typed: the reveal opens and moves one step
            page.get_by_text("Worked solution, step by step").first.click()
    page.get_by_role("button", name="Check my answers").click()
    wait_until_idle(page)
    no_error_text(page)
    assert classmates.edits > before, "the classmates' edits kept the server busy meanwhile"
    kept = [page.get_by_label(step.label, exact=True).input_value() for step in steps]
    assert kept == answers
    # The marks table is a canvas grid: its one-line summary says how every answer was marked.
    page.get_by_text(f"{len(steps)} of {len(steps)} steps right").first.wait_for(timeout=10_000)


def test_rankings_typed_faster_than_the_busy_server_answers_end_on_the_last_one(page, busy_app_url):
    url, classmates = busy_app_url
    page.goto(f"{url}/graded?rels=1,0,1")
    wait_until_idle(page)
    box = page.get_by_role("textbox", name="Grades in ranked order", exact=True)
    box.wait_for(timeout=60_000)
    typed = ["3,2,1,0", "0,1,2,3,3", "2,2,0,1,3,0"]
    for ranking in typed:  # Enter after each, without waiting for the run it starts
        box.fill(ranking)
        box.press("Enter")
    wait_until_idle(page)
    page.wait_for_function("() => location.search.includes('rels=2%2C2%2C0%2C1%2C3%2C0') "
                           "|| location.search.includes('rels=2,2,0,1,3,0')", timeout=60_000)
    no_error_text(page)
    assert box.input_value() == typed[-1]
    assert classmates.edits > CLASSMATES and not classmates.errors
