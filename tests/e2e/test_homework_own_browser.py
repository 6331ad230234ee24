"""The homework page's form for a student's own exercise, in a real browser (issue 22).

- Tab goes through the form's fields in the order the sheet gives them (two to a row, row by row, then
  the conventions), for kinds with one, several and many inputs;
- on a 390x844 phone every kind's form fits: nothing runs past the edge, no field is off-screen;
- the hint ladder renders its formulas (KaTeX) on the phone, inside the screen, and the marks' hints
  column with them.
Screenshot: docs/screenshots/homework_own_phone.png (390 px, the AP form, checked, two hints shown).
"""

from __future__ import annotations

import pytest

from conftest import SCREENSHOTS, no_error_text, wait_until_idle
from rankviz.teaching.homework import KINDS, own_fields

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
# The focused element's name: its own aria-label, or for a radio its group's.
_FOCUSED = """() => { const e = document.activeElement;
  const group = e.closest('[role=radiogroup]');
  return e.getAttribute('aria-label') || (group && group.getAttribute('aria-label')) || e.tagName; }"""


def _open(tab, app_url, query: str) -> None:
    tab.goto(f"{app_url}/homework?{query}")
    wait_until_idle(tab)
    tab.get_by_role("button", name="Check my answers").wait_for(timeout=60_000)
    wait_until_idle(tab)


def _form_order(kind: str) -> list[str]:
    """The fields as the page lays them out: text fields row by row, then the conventions."""
    fields = own_fields(kind)
    return ([f.label for f in fields if f.kind not in ("choice", "option")]
            + [f.label for f in fields if f.kind in ("choice", "option")])


@pytest.mark.parametrize("kind", ["precision_recall", "map", "kendall", "user"])
def test_tab_follows_the_order_of_the_sheet(page, app_url, kind):
    page.set_viewport_size(DESKTOP)
    _open(page, app_url, f"hw_source=own&hw_kind={kind}")
    expected = _form_order(kind)
    page.get_by_label(expected[0], exact=True).focus()
    seen = [page.evaluate(_FOCUSED)]
    while len(seen) < len(expected):
        page.keyboard.press("Tab")
        name = page.evaluate(_FOCUSED)
        if name.startswith("Help for "):
            continue  # each field's help icon sits before it
        if name != seen[-1]:  # a radio group is one stop, whatever radio is checked
            seen.append(name)
    assert seen == expected


def _outside(tab, selector: str, width: int) -> list:
    return tab.evaluate(f"""() => [...document.querySelectorAll('{selector}')].map(e => {{
        const r = e.getBoundingClientRect();
        return {{name: e.getAttribute('aria-label') || e.tagName, left: r.left, right: r.right}}; }})
        .filter(b => b.right > 0 && (b.left < -1 || b.right > {width} + 1))""")


def test_every_kinds_form_fits_a_phone(browser, app_url):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    tab = context.new_page()
    tab.set_default_timeout(30_000)
    for kind in KINDS:
        _open(tab, app_url, f"hw_source=own&hw_kind={kind}")
        no_error_text(tab)
        assert tab.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"], kind
        main = tab.get_by_test_id("stMain")
        assert main.evaluate("m => m.scrollWidth - m.clientWidth") <= 1, f"{kind}: the page scrolls sideways"
        assert _outside(tab, "[data-testid=stMain] textarea, [data-testid=stMain] input, "
                             "[data-testid=stMain] [role=radiogroup]", PHONE["width"]) == [], kind
        labels = [field.label for field in own_fields(kind)]
        for label in labels:  # each field of the kind is on the page, and only those
            assert tab.get_by_label(label, exact=True).count() >= 1, f"{kind}: no field {label!r}"
    context.close()


def test_the_hint_ladder_and_the_marks_on_a_phone(browser, app_url):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    tab = context.new_page()
    tab.set_default_timeout(30_000)
    _open(tab, app_url, "hw_source=own&hw_kind=ap&hw_rels=R+N+R+N&hw_R=3")
    boxes = tab.get_by_test_id("stForm").first.locator('input[type="text"]')
    boxes.nth(0).fill("1")
    boxes.nth(2).fill("0.6")
    tab.get_by_role("button", name="Check my answers").click()
    tab.get_by_text("Your answers, marked").wait_for()
    wait_until_idle(tab)
    for _ in range(2):
        tab.get_by_role("button", name="Show the next hint").click()
        wait_until_idle(tab)
    hint = tab.get_by_text("With this exercise's numbers")  # P@3 is counted, not computed from earlier steps
    hint.wait_for()
    assert hint.locator(".katex").count() == 1, "the formula with the exercise's numbers is not rendered"
    assert tab.get_by_text("P@3 is the fraction of the top 3").count() == 1  # the ladder opened on P@3
    assert _outside(tab, "[data-testid=stMain] .katex", PHONE["width"]) == []
    cells = tab.evaluate("""() => [...document.querySelectorAll('table.rv-wrap-table tbody td')].map(td => {
        const r = td.getBoundingClientRect(); return {label: td.dataset.label, text: td.innerText.trim(),
                                                      left: r.left, right: r.right}; })""")
    hints = [cell for cell in cells if cell["label"] == "hints"]
    assert [cell["text"] for cell in hints] == ["—", "—", "2 of 3: the formula with your numbers", "—", "—"]
    assert all(cell["left"] >= -1 and cell["right"] <= PHONE["width"] + 1 for cell in cells)
    no_error_text(tab)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    tab.set_viewport_size({"width": 390, "height": 4200})  # one tall shot: Streamlit scrolls inside its main block
    wait_until_idle(tab)
    tab.get_by_test_id("stMainBlockContainer").screenshot(path=str(SCREENSHOTS / "homework_own_phone.png"))
    context.close()
