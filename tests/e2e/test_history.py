"""Browser Back/Forward: the page shows the ranking and settings the address bar describes.

Every URL write pushes a history entry; on Back/Forward Streamlit reruns the app with that entry's
query parameters, and the app loads its state from them as opening the link would
(rankviz.ui.state.init_state). A cell edit in the grid is the second edit so that going back also
proves the grid was renewed (its old cell edit is not re-applied to the restored rows).
"""

from __future__ import annotations

import re

import pytest

from conftest import no_error_text, wait_until_idle
from rankviz.export import format_number
from rankviz.metrics import ndcg

pytestmark = pytest.mark.e2e


def _shows(tab, rels, k=None) -> None:
    """Wait until the page shows ``rels`` (paste box) and its nDCG (worked result) for cut-off ``k``."""
    want = f"nDCG@{k or len(rels)} = {format_number(ndcg(rels, k=k), 3)}"
    tab.wait_for_function(
        "(want) => [...document.querySelectorAll('h3')].some(h => h.innerText.startsWith(want))",
        arg=want, timeout=20_000)
    wait_until_idle(tab)
    assert tab.get_by_role("textbox", name="Grades in ranked order").input_value() == ",".join(map(str, rels))
    assert tab.get_by_role("textbox", name="k (cut-off)").input_value() == ("" if k is None else str(k))
    no_error_text(tab)


def _type(tab, label: str, text: str) -> None:
    box = tab.get_by_role("textbox", name=label)
    box.fill(text)
    box.press("Enter")
    tab.wait_for_timeout(300)
    wait_until_idle(tab)


def _edit_grade_in_grid(tab, rank: int, grade: int) -> None:
    """Type ``grade`` into the grade cell of ``rank`` (see ../shared/TESTING.md for the waits)."""
    grid = tab.get_by_test_id("stDataFrame").first
    previous = None
    for _ in range(20):  # wait until the grid stops moving before computing coordinates
        box = grid.bounding_box()
        if box == previous:
            break
        previous = box
        tab.wait_for_timeout(150)
    tab.wait_for_timeout(200)
    row_height = 35  # px at the default 16 px root font
    grid.click(position={"x": box["width"] - 40, "y": row_height * rank + row_height / 2})
    tab.wait_for_timeout(200)
    tab.keyboard.type(str(grade))
    editor = tab.locator("input.gdg-input")
    editor.wait_for()
    assert editor.input_value() == str(grade)
    tab.keyboard.press("Enter")
    tab.wait_for_timeout(500)
    wait_until_idle(tab)


def test_back_and_forward_show_the_ranking_and_metric_of_each_entry(page, app_url):
    page.goto(f"{app_url}/one_ranking?rels=3,2,3,0,1,2")
    wait_until_idle(page)
    _shows(page, [3, 2, 3, 0, 1, 2])

    _type(page, "Grades in ranked order", "1,0,3,0")  # first edit
    _shows(page, [1, 0, 3, 0])
    page.wait_for_url(re.compile(r"rels=1%2C0%2C3%2C0$|rels=1,0,3,0$"))
    _type(page, "k (cut-off)", "2")
    _shows(page, [1, 0, 3, 0], k=2)
    _edit_grade_in_grid(page, rank=2, grade=3)  # second edit, in the grid
    _shows(page, [1, 3, 3, 0], k=2)

    page.go_back()
    _shows(page, [1, 0, 3, 0], k=2)
    page.go_back()
    _shows(page, [1, 0, 3, 0])
    page.wait_for_url(re.compile(r"rels=1%2C0%2C3%2C0$|rels=1,0,3,0$"))  # the address still agrees

    page.go_forward()
    _shows(page, [1, 0, 3, 0], k=2)
    page.go_forward()
    _shows(page, [1, 3, 3, 0], k=2)

    _type(page, "Grades in ranked order", "0,0,2")  # editing after Back/Forward works as before
    _shows(page, [0, 0, 2], k=2)
    page.wait_for_url(re.compile(r"rels=0%2C0%2C2|rels=0,0,2"))
