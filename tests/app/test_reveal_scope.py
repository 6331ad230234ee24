"""A reveal's step belongs to the exercise it was reached on (issue 20, item 1): the graded,
precision-recall and correlation pages share the URL key ``step``, and a step reached on one
exercise must not open another page, ranking or setting part-way through its answer. A link's
step (a fresh session, or Back/Forward) applies to the exercise that link opens.
(tests/e2e/test_lecture_hall.py walks the same in a browser.)
"""

from __future__ import annotations

import re

from app_helpers import open_app
from teaching_helpers import open_reveal, page_path
from test_history_navigation import _entry, _rerun_at


def _step_caption(at) -> str:
    return next((c.value for c in at.caption if re.match(r"Step \d+ of \d+", c.value)), "")


def test_a_step_reached_on_one_page_does_not_open_another_page_part_way():
    at = open_app(page_path("graded"), {"rels": "3,2,3,0,1,2", "gain": "exponential", "step": "9"})
    assert _step_caption(at).startswith("Step 9 of 15")
    at.switch_page(page_path("precision_recall")).run()
    assert not at.exception
    assert _step_caption(at) == ""
    assert at.query_params.get("step") in (None, "0", ["0"])
    open_reveal(at)
    assert any(c.value.startswith("7 steps in") for c in at.caption)  # AP of 3,2,3,0,1,2: at step 0


def test_another_ranking_or_gain_starts_the_reveal_again():
    at = open_app(page_path("graded"), {"rels": "3,2,3,0,1,2", "gain": "exponential", "step": "4"})
    assert _step_caption(at).startswith("Step 4 of")
    at.radio(key="gain").set_value("linear").run()
    assert _step_caption(at) == "" and at.query_params.get("step") in (None, "0", ["0"])
    open_reveal(at)
    at.button(key="step_next").click().run()
    assert _step_caption(at).startswith("Step 1 of")
    at.text_input(key="rels").set_value("3,2,3,0,1").run()
    assert _step_caption(at) == ""


def test_back_to_a_link_keeps_the_step_that_link_holds(monkeypatch):
    at = open_app(page_path("graded"), {"rels": "3,2,3,0,1,2", "step": "5"})
    at_step_5 = _entry(at)
    at.text_input(key="rels").set_value("1,0,2").run()  # another ranking: hidden again, a new history entry
    assert _step_caption(at) == ""
    _rerun_at(at, at_step_5, history=True, monkeypatch=monkeypatch)  # Back
    assert _step_caption(at).startswith("Step 5 of 15")
