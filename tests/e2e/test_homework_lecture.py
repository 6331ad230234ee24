"""Real-browser walks of the homework checker as a lecture uses it: projector mode at 1280x720,
the worked solution revealed one step at a time from the keyboard (PageDown / PageUp, what a
presentation clicker sends), the revealed step in the link, a student's named mistake, and the
course's F-measure homework. Screenshots go to docs/screenshots/ (looked at when they change).
"""

from __future__ import annotations

import re

import pytest

from conftest import SCREENSHOTS, no_error_text, wait_until_idle
from rankviz.teaching.homework import exercise_from_preset, steps_for
from rankviz.teaching.homework.core import tex_number

pytestmark = pytest.mark.e2e


def _open(tab, app_url, query: str) -> None:
    tab.goto(f"{app_url}/homework{query}")
    wait_until_idle(tab)
    tab.get_by_test_id("stMain").get_by_text("Homework checker", exact=True).first.wait_for(timeout=60_000)
    wait_until_idle(tab)


def _fits(tab, what: str) -> None:
    """No sideways scrolling, and every table of the reveal inside the main column."""
    overflow = tab.evaluate("() => { const m = document.querySelector('[data-testid=\"stMain\"]');"
                            " return m.scrollWidth - m.clientWidth; }")
    assert overflow <= 1, f"{what}: the page scrolls sideways by {overflow} px at 1280 px"
    main = tab.get_by_test_id("stMain").bounding_box()
    for table in tab.locator('[data-testid="stExpander"] table').all():
        box = table.bounding_box()
        assert box["x"] >= main["x"] and box["x"] + box["width"] <= main["x"] + main["width"] + 1, what


def _revealed(tab) -> list[str]:
    """The step labels of the revealed rows, in order."""
    cells = tab.locator('[data-testid="stExpander"] table tbody tr td:first-child').all_inner_texts()
    return [cell.strip() for cell in cells]


def _press(tab, key: str, times: int = 1) -> None:
    for _ in range(times):
        tab.keyboard.press(key)
        wait_until_idle(tab)


def _start_reveal(tab) -> None:
    tab.get_by_text("Worked solution, step by step").first.click()
    wait_until_idle(tab)


def test_ndcg_exercise_revealed_step_by_step_from_the_keyboard_in_projector_mode(page, app_url):
    steps = steps_for(exercise_from_preset("ndcg_exercise"))
    _open(page, app_url, "?hw_source=course&hw_preset=ndcg_exercise&projector=true")
    root_font = page.evaluate("() => parseFloat(getComputedStyle(document.documentElement).fontSize)")
    assert root_font > 16, "projector mode is not on"
    _start_reveal(page)
    _press(page, "PageDown", 3)
    assert _revealed(page) == ["CG", "DCG term at rank 1 (grade 3)", "DCG term at rank 2 (grade 2)", "DCG (so far)"]
    assert re.search(r"hw_step=3\b", page.url), page.url
    _press(page, "PageUp")
    assert _revealed(page)[-1] == "DCG (so far)" and len(_revealed(page)) == 3
    _press(page, "PageDown", 7)  # through DCG and the first IDCG term: "Step 3: IDCG" appears
    assert _revealed(page)[:8] == [step.label for step in steps[:8]]
    page.get_by_text("Step 3: IDCG").first.scroll_into_view_if_needed()
    wait_until_idle(page)
    no_error_text(page)
    _fits(page, "reveal at step 9")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "homework_reveal_projector.png"))

    page.get_by_role("button", name="Show all").click()
    wait_until_idle(page)
    assert _revealed(page) == [step.label for step in steps]
    last = page.locator('[data-testid="stExpander"] table tbody tr').last.inner_text()
    assert tex_number(steps[-1].expected) in last  # NDCG = 0.949
    _fits(page, "every step revealed")


def test_a_link_opens_the_reveal_at_its_step(page, app_url):
    _open(page, app_url, "?hw_source=course&hw_preset=ndcg_exercise&hw_step=2&projector=true")
    assert _revealed(page) == ["CG", "DCG term at rank 1 (grade 3)", "DCG (so far)"]


def test_a_students_ln_slip_is_named_in_the_browser(page, app_url):
    _open(page, app_url, "?hw_source=course&hw_preset=ndcg_exercise&projector=true")
    page.get_by_role("textbox", name="DCG term at rank 2 (grade 2)", exact=True).fill("2.731")  # 3 / ln 3
    page.get_by_role("button", name="Check my answers").click()
    page.get_by_text("First step that went wrong: DCG term at rank 2 (grade 2).").wait_for()
    wait_until_idle(page)
    no_error_text(page)
    assert "natural logarithm" in page.get_by_test_id("stMain").inner_text()
    page.get_by_text("Where your working parts from the formula").scroll_into_view_if_needed()
    wait_until_idle(page)
    _fits(page, "named mistake")
    page.screenshot(path=str(SCREENSHOTS / "homework_mistake_named.png"))


def test_the_fmeasure_homework_walked_in_projector_mode(page, app_url):
    """The lecture's only homework: Q1's F-measures. The student types P, R and F1 right and the
    slide's F0.5 (0.5 P + R below): the checker names the slip; the lecturer reveals the first cut-off."""
    steps = steps_for(exercise_from_preset("fmeasure_q1"))
    _open(page, app_url, "?hw_source=course&hw_preset=fmeasure_q1&projector=true")
    no_error_text(page)
    answers = {"P@1": "1", "R@1": "0.1", "F1@1": "0.182", "F2@1": "0.122", "F0.5@1": "0.208"}
    for label, answer in answers.items():
        page.get_by_role("textbox", name=label, exact=True).fill(answer)
    page.get_by_role("button", name="Check my answers").click()
    page.get_by_text("First step that went wrong: F0.5@1.").wait_for()
    wait_until_idle(page)
    no_error_text(page)
    text = page.get_by_test_id("stMain").inner_text()
    assert "(0.5)P + R" in text and "β²" in text
    page.get_by_text("Where your working parts from the formula").scroll_into_view_if_needed()
    wait_until_idle(page)
    _fits(page, "F-measure mistake")
    page.screenshot(path=str(SCREENSHOTS / "homework_fmeasure_mistake.png"))

    _start_reveal(page)
    _press(page, "PageDown", 5)
    assert _revealed(page) == [step.label for step in steps[:5]]  # the whole of "Cut-off k = 1"
    page.get_by_text("Cut-off k = 1").first.scroll_into_view_if_needed()
    wait_until_idle(page)
    _fits(page, "F-measure reveal")
    page.screenshot(path=str(SCREENSHOTS / "homework_fmeasure_reveal.png"))
