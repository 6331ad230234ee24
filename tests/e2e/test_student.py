"""The homework checker as a student meets it: keyboard only and on a 390x844 phone (issue 20, items 5-8).

- Tab goes through the answer boxes in the order of the working, and a phone stacks them in that
  order, for every kind of exercise (course, practice and own-list exercises);
- the slide's own numbers are recognised in their row, with the notes' reason;
- after a check on a phone the verdict and its reason are on screen (no sideways scrolling, no
  grid scrolling inside itself), sums wrap, the reveal's fractions keep apart; at 1280 px nothing is cut;
- no Tab stop is invisible on any page (focus never vanishes off-screen);
- taps are at least 24x24 px at 390 px (axe's target-size rule, and the help and remove buttons measured).
Screenshots: docs/screenshots/homework_phone_*.png (390x844) and homework_marks_1280.png (1280x800).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import SCREENSHOTS, no_error_text, wait_until_idle
from rankviz.teaching.homework import KINDS, exercise_from_preset, generate_exercise, own_exercise, steps_for
from rankviz.teaching.homework.core import KIND_SPECS
from rankviz.ui.pages import PAGES

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
STEMS = [Path(page.path).stem for page in PAGES]
# Lecture 002's printed NDCG working: terms cut to 3 decimals, 1.286 for 3/log2(5) = 1.292 at IDCG rank 4.
SLIDE = ["11", "7", "1.892", "3.5", "0", "0.386", "1.068", "13.846", "7", "4.416", "1.5", "1.286", "0.386",
         "14.588", "0.949"]


def _exercises():
    """Every page state with answer boxes: each kind (its first course exercise, else a practice one),
    and one on the student's own list (the three sources lay boxes out alike). (query, exercise)."""
    for kind in KINDS:
        presets = list(KIND_SPECS[kind].presets)
        if presets:
            yield f"hw_source=course&hw_preset={presets[0]}", exercise_from_preset(presets[0])
        else:
            yield f"hw_source=practice&hw_kind={kind}&seed=3", generate_exercise(3, kind)
    yield "hw_source=own&hw_kind=ap&hw_rels=1,0,1,0,1&hw_R=4", own_exercise("ap", rels=(1, 0, 1, 0, 1), n_relevant=4)


EXERCISES = list(_exercises())


def _open(tab, app_url, query: str) -> None:
    tab.goto(f"{app_url}/homework?{query}")
    wait_until_idle(tab)
    tab.get_by_role("button", name="Check my answers").wait_for(timeout=60_000)
    wait_until_idle(tab)


def _boxes(tab):
    return tab.get_by_test_id("stForm").first.locator('input[type="text"]')


def _focused_label(tab) -> str:
    return tab.evaluate("() => document.activeElement.getAttribute('aria-label')")


@pytest.mark.parametrize(("query", "exercise"), EXERCISES, ids=[query.split("&", 1)[1] for query, _ in EXERCISES])
def test_tab_and_the_phone_follow_the_order_of_the_working(page, app_url, query, exercise):
    labels = [step.label for step in steps_for(exercise, mistakes=False)]
    page.set_viewport_size(DESKTOP)
    _open(page, app_url, query)
    _boxes(page).first.focus()
    typed_order = [_focused_label(page)]
    for _ in labels[1:]:
        page.keyboard.press("Tab")
        typed_order.append(_focused_label(page))
    assert typed_order == labels, "Tab leaves the order of the working"
    page.set_viewport_size(PHONE)  # Streamlit stacks columns below 640 px
    page.wait_for_timeout(300)
    boxes = [(box.bounding_box(), box.get_attribute("aria-label")) for box in _boxes(page).all()]
    stacked = [label for box, label in sorted(boxes, key=lambda item: (round(item[0]["y"]), item[0]["x"]))]
    assert stacked == labels, "a phone stacks the boxes out of the order of the working"
    assert len({round(box["x"]) for box, _ in boxes}) == 1, "on a phone the boxes stack in one column"


def _marks(tab) -> list[dict]:
    """The rows of the marks table as the browser shows them: cell text and box of each cell."""
    return tab.evaluate("""() => [...document.querySelectorAll('table.rv-wrap-table tbody tr')].map(tr =>
        Object.fromEntries([...tr.children].map(td => { const r = td.getBoundingClientRect();
            return [td.dataset.label, {text: td.innerText.trim(), left: r.left, right: r.right, top: r.top,
                                       width: r.width, height: r.height}]; })))""")


def _type_the_slide(tab, answers) -> None:
    for box, answer in zip(_boxes(tab).all(), answers):
        box.fill(answer)
    tab.get_by_role("button", name="Check my answers").click()
    tab.get_by_text("Your answers, marked").wait_for()
    wait_until_idle(tab)


def test_the_slides_numbers_are_recognised_and_the_why_column_is_whole_at_1280(browser, app_url):
    context = browser.new_context(viewport=DESKTOP)
    tab = context.new_page()
    tab.set_default_timeout(30_000)
    _open(tab, app_url, "hw_source=course&hw_preset=ndcg_exercise")
    _type_the_slide(tab, SLIDE)
    no_error_text(tab)
    rows = {row["step"]["text"]: row for row in _marks(tab)}
    assert rows["DCG"]["mark"]["text"] == "✓ as the notes print it"
    assert rows["DCG"]["why"]["text"] == ("The course notes print this; they cut each term to 3 decimals before "
                                          "adding (exact 13.848).")
    assert "a slip on the slide: 3/2.322 = 1.292" in rows["IDCG term at rank 4 (grade 2)"]["why"]["text"]
    assert "(exact 14.595)" in rows["IDCG"]["why"]["text"] and "away" not in rows["IDCG"]["why"]["text"]
    main = tab.get_by_test_id("stMain").bounding_box()
    for row in rows.values():  # the "why" column is whole: inside the page, no cell scrolls or clips
        assert row["why"]["right"] <= main["x"] + main["width"] + 1, row["step"]["text"]
    assert tab.evaluate("() => { const t = document.querySelector('table.rv-wrap-table');"
                        " return t.scrollWidth <= t.parentElement.clientWidth + 1; }")
    tab.locator("table.rv-wrap-table").evaluate("t => { t.scrollIntoView({block: 'start'}); "
                                                 "t.closest('[data-testid=stMain]').scrollBy(0, -90); }")
    wait_until_idle(tab)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(SCREENSHOTS / "homework_marks_1280.png"))
    context.close()


def _inside(box, width: float, what: str) -> None:
    assert box["left"] >= -1 and box["right"] <= width + 1, f"{what} runs past the edge: {box}"


def test_the_checker_on_a_phone_shows_each_verdict_and_its_reason(browser, app_url):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    tab = context.new_page()
    tab.set_default_timeout(30_000)
    _open(tab, app_url, "hw_source=course&hw_preset=ndcg_exercise")
    answers = list(SLIDE)
    answers[2] = "2.731"  # DCG term at rank 2 with ln: a named mistake, so "Where your working parts" is drawn
    _type_the_slide(tab, answers)
    tab.get_by_text("Where your working parts from the formula").wait_for()
    wait_until_idle(tab)
    no_error_text(tab)
    assert tab.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    main = tab.get_by_test_id("stMain")
    assert main.evaluate("m => m.scrollWidth - m.clientWidth") <= 1, "the page scrolls sideways"
    rows = _marks(tab)
    assert len(rows) == len(SLIDE)
    for row in rows:
        for column in ("step", "mark", "why"):
            _inside(row[column], PHONE["width"], f"{row['step']['text']}: {column}")
    assert "natural logarithm" in rows[2]["why"]["text"]
    # No grid scrolls sideways inside itself (the marks were a glide grid whose "why" was off-screen).
    assert tab.get_by_test_id("stDataFrame").count() == 0
    # The sums of "Where your working parts" and of the working from there wrap within the screen.
    formulas = tab.locator('[data-testid="stMain"] .stMarkdown .katex')
    assert formulas.count() >= 4
    for box in tab.evaluate("() => [...document.querySelectorAll('[data-testid=stMain] .stMarkdown .katex')]"
                            ".map(k => { const r = k.getBoundingClientRect(); return {left: r.left, right: r.right};"
                            " })"):
        _inside(box, PHONE["width"], "a formula")
    tab.set_viewport_size({"width": 390, "height": 6000})  # one tall shot: Streamlit scrolls inside its main block
    wait_until_idle(tab)
    tab.get_by_test_id("stMainBlockContainer").screenshot(path=str(SCREENSHOTS / "homework_phone_marks.png"))
    context.close()


def test_the_revealed_fractions_keep_apart_on_a_phone(browser, app_url):
    """The reveal's cells wrap display-style fractions onto a second line; KaTeX's boxes are tight (a
    denominator's parenthesis reaches below its box), so boxes on consecutive lines that touch overlap on
    screen. They keep a gap."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    tab = context.new_page()
    tab.set_default_timeout(30_000)
    _open(tab, app_url, "hw_source=course&hw_preset=ndcg_exercise&hw_step=15")
    gaps = tab.evaluate("""() => [...document.querySelectorAll('[data-testid=stExpander] table td')].flatMap(td => {
        const boxes = [...td.querySelectorAll('.katex-html > .base')].map(b => b.getBoundingClientRect());
        // a box that starts below the one before it begins a new line: the gap between the two lines
        return boxes.slice(1).map((box, i) => [boxes[i], box]).filter(([above, box]) => box.top >= above.bottom - 1)
                    .map(([above, box]) => box.top - above.bottom);
      })""")
    assert gaps, "no cell of the reveal wraps onto a second line at 390 px"
    assert min(gaps) >= 4, f"fractions on consecutive lines touch: gaps {gaps}"
    assert tab.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    tab.set_viewport_size({"width": 390, "height": 3400})
    wait_until_idle(tab)
    tab.get_by_test_id("stExpander").first.screenshot(path=str(SCREENSHOTS / "homework_phone_reveal.png"))
    context.close()


def test_the_projector_switch_works_from_the_keyboard(page, app_url):
    """The switch sits at the top of every page (no sidebar to expand): visible, and Space toggles it."""
    page.goto(app_url)
    wait_until_idle(page)
    toggle = page.get_by_role("switch", name="Projector mode")
    assert toggle.is_visible()
    assert page.get_by_role("button", name="Expand sidebar").count() == 0
    toggle.focus()
    page.keyboard.press("Space")
    page.wait_for_function("() => location.search.includes('projector=true')")
    assert toggle.is_checked()


_SMALL_TAPS = """() => [...document.querySelectorAll(
    '[data-testid="stTooltipIcon"] button, [data-testid="stHeaderActionElements"] a, [data-tag] button')]
  .map(e => { const r = e.getBoundingClientRect(); return {label: e.getAttribute('aria-label'), width: r.width,
                                                           height: r.height}; })
  .filter(t => t.width > 0 && (t.width < 23.5 || t.height < 23.5))"""


# A data grid draws its cells on a canvas and keeps focus in a hidden table for screen readers: a
# focused cell there shows as the canvas's focus ring, so the grid's own box is what must be visible.
_FOCUS = """() => { const e = document.activeElement; if (!e || e === document.body) return null;
  const grid = e.closest('[data-testid="stDataFrame"]');
  const r = (grid || e).getBoundingClientRect(); const s = getComputedStyle(e);
  return {label: e.getAttribute('aria-label') || (e.innerText || '').slice(0, 40) || e.tagName,
          left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height,
          visibility: s.visibility, tag: e.tagName, same: e === window.__rvFirst,
          first: (window.__rvFirst = window.__rvFirst || e) === e}; }"""


def _tab_stops_are_visible(tab, stem: str) -> None:
    seen = 0
    for _ in range(250):
        tab.keyboard.press("Tab")
        focus = tab.evaluate(_FOCUS)
        if focus is None or (focus["same"] and seen):
            break  # past the last stop, or round to the first again
        seen += 1
        visible = (focus["width"] > 0 and focus["height"] > 0 and focus["visibility"] == "visible"
                   and focus["right"] > 0 and focus["left"] < DESKTOP["width"]
                   and focus["bottom"] > 0 and focus["top"] < DESKTOP["height"])
        assert visible, f"{stem}: Tab stop {seen} ({focus['label']!r}) is not visible: {focus}"
    assert seen > 3


def _taps_are_large_enough(tab, stem: str) -> None:
    from axe_playwright_python.sync_playwright import Axe

    if stem == "homework":  # the worksheet's kinds, each with its remove button
        tab.get_by_text("Worksheet for the class").first.click()
        wait_until_idle(tab)
    tab.wait_for_timeout(500)
    response = Axe().run(tab, options={"runOnly": {"type": "rule", "values": ["target-size"]}}).response
    assert [node["target"] for violation in response["violations"] for node in violation["nodes"]] == [], stem
    assert tab.evaluate(_SMALL_TAPS) == [], stem
    if stem == "homework":
        assert tab.locator("[data-tag] button").count() >= 4


@pytest.mark.parametrize("stem", STEMS)
def test_every_tab_stop_is_visible_and_every_tap_is_24_px_on_a_phone(page, app_url, stem):
    """Keyboard at 1280x800: each Tab lands on something visible in the viewport. Then the same page at
    390 px: axe's target-size rule finds nothing, and help icons, heading anchors and a multiselect's
    remove buttons measure at least 24x24 (WCAG 2.5.8)."""
    page.set_viewport_size(DESKTOP)
    page.goto(f"{app_url}/{'' if stem == 'home' else stem}")
    wait_until_idle(page)
    page.wait_for_timeout(1000)  # charts and grids finish drawing after the script run
    wait_until_idle(page)
    _tab_stops_are_visible(page, stem)
    page.set_viewport_size(PHONE)
    wait_until_idle(page)
    _taps_are_large_enough(page, stem)
