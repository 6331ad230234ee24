"""Real-browser walks of the lecture hall (issue 20, items 1-4): a 1280x800 projector driven with
a clicker's keys (PageDown / PageUp). A reveal's step stays with the exercise it was reached on;
each step brings its new row into view; projector mode scales every table a class reads and cuts
no title, button or formula; shared links name the address the browser used.
"""

from __future__ import annotations

import re

import pytest

from conftest import CHROMIUM, CHROMIUM_ARGS, no_error_text, wait_until_idle
from rankviz.teaching.homework import own_exercise, steps_for

pytestmark = pytest.mark.e2e

PROJECTOR_SCREEN = {"width": 1280, "height": 800}
NDCG_LINK = "/graded?rels=3,2,3,0,1,2&gain=exponential"


@pytest.fixture
def screen(browser):
    """A fresh 1280x800 tab: the lecture hall's projector."""
    context = browser.new_context(viewport=PROJECTOR_SCREEN)
    tab = context.new_page()
    tab.set_default_timeout(30_000)
    yield tab
    context.close()


def _go(tab, url: str) -> None:
    tab.goto(url)
    wait_until_idle(tab)
    tab.get_by_test_id("stMain").locator("h3").first.wait_for(timeout=60_000)  # a cold server imports a while
    wait_until_idle(tab)


def _reveal_caption(tab) -> str:
    """The reveal's status line: "N steps in M stages..." while hidden, "Step i of N: ..." once started."""
    captions = tab.get_by_test_id("stCaptionContainer").all_inner_texts()
    return next((text for text in captions if re.match(r"(Step \d+ of \d+|\d+ steps in)", text)), "")


def _click_link(tab, name: str) -> None:
    tab.get_by_role("link", name=name).first.click()
    wait_until_idle(tab)
    tab.wait_for_timeout(500)
    wait_until_idle(tab)


def test_a_reveal_step_stays_with_the_exercise_it_was_reached_on(screen, app_url):
    ndcg_steps = steps_for(own_exercise("ndcg", rels=(3, 2, 3, 0, 1, 2), gain="exponential"), mistakes=False)
    # A link made at step 9 opens its own exercise at step 9.
    _go(screen, f"{app_url}{NDCG_LINK}&step=9")
    assert _reveal_caption(screen).startswith(f"Step 9 of {len(ndcg_steps)}: {ndcg_steps[8].label}")

    # The page navigation to another page: its working starts hidden.
    _click_link(screen, "Precision and recall")
    screen.wait_for_url(re.compile(r"/precision_recall"))
    assert not re.search(r"[?&]step=", screen.url), screen.url
    assert "Step 9" not in screen.get_by_test_id("stMain").inner_text()

    # Home -> a course exercise -> its page: hidden too (the walk: AP opened at "Step 9 of 16").
    _go(screen, f"{app_url}{NDCG_LINK}&step=9")
    _click_link(screen, "Home")
    screen.get_by_test_id("stSelectbox").first.click()
    screen.get_by_role("option", name=re.compile("^Query q1: 15 ranked")).click()
    wait_until_idle(screen)
    screen.get_by_role("button", name=re.compile("Open it on")).click()
    screen.wait_for_url(re.compile(r"/precision_recall"))
    wait_until_idle(screen)
    screen.get_by_text("AP step by step").wait_for()
    assert not re.search(r"[?&]step=", screen.url), screen.url
    main = screen.get_by_test_id("stMain").inner_text()
    assert "Step 9" not in main and "P@9" not in main.split("AP step by step")[-1]
    screen.get_by_text("AP step by step").click()  # opened: at step 0, nothing of the answer shown
    wait_until_idle(screen)
    assert _reveal_caption(screen).startswith("16 steps in"), _reveal_caption(screen)

    # Another ranking on the same page: hidden again.
    _go(screen, f"{app_url}{NDCG_LINK}&step=9")
    grades = screen.get_by_role("textbox", name="Grades in ranked order")
    grades.fill("3,2,3,0,1,2,1")
    grades.press("Enter")
    wait_until_idle(screen)
    screen.wait_for_timeout(500)
    wait_until_idle(screen)
    assert not _reveal_caption(screen).startswith("Step"), _reveal_caption(screen)  # closed, or open at step 0
    assert not re.search(r"[?&]step=", screen.url), screen.url
    no_error_text(screen)


def _row_in_view(tab, step: int) -> dict:
    """Where the reveal's ``step``-th row is drawn, and the visible band of the screen (below the top bar)."""
    return tab.evaluate("""(step) => {
        const rows = [...document.querySelectorAll('.st-key-step_open tbody tr')];
        const row = rows[step - 1];
        const bar = document.querySelector('[data-testid="stHeader"]');
        const box = row ? row.getBoundingClientRect() : null;
        return {label: row ? row.cells[0].textContent.trim() : null, top: box && box.top, bottom: box && box.bottom,
                barBottom: bar ? bar.getBoundingClientRect().bottom : 0, height: window.innerHeight};
    }""", step)


def _assert_row_in_view(tab, step: int, label: str) -> None:
    wait_until_idle(tab)
    where = _row_in_view(tab, step)
    for _ in range(20):  # the row is drawn, then brought into view: allow a loaded machine its time
        visible = where["top"] is not None and where["top"] >= where["barBottom"] - 1 and where["bottom"] <= where["height"] + 1
        if where["label"] == label and visible:
            break
        tab.wait_for_timeout(150)
        where = _row_in_view(tab, step)
    assert where["label"] == label, (step, where)
    assert where["top"] >= where["barBottom"] - 1 and where["bottom"] <= where["height"] + 1, (step, where)


def test_each_reveal_step_brings_its_row_into_view(screen, app_url):
    steps = steps_for(own_exercise("ndcg", rels=(3, 2, 3, 0, 1, 2), gain="exponential"), mistakes=False)
    _go(screen, f"{app_url}{NDCG_LINK}&projector=true")
    screen.get_by_text("nDCG step by step").click()
    wait_until_idle(screen)
    screen.get_by_role("button", name="Next step").scroll_into_view_if_needed()
    for step in range(1, len(steps) + 1):
        screen.keyboard.press("PageDown")  # a clicker's "next"
        _assert_row_in_view(screen, step, steps[step - 1].label)
    for step in range(len(steps) - 1, len(steps) - 5, -1):
        screen.keyboard.press("PageUp")  # and back: the row now last comes into view
        _assert_row_in_view(screen, step, steps[step - 1].label)
    no_error_text(screen)


# What a projector shows, measured as rendered: the root and prose type, and each grid's text size
# and row height (Streamlit's grids carry their text size in a CSS variable and draw rows
# ``scrollHeight / aria-rowcount`` tall; a grid mounted before the projector CSS kept 14 px text
# and 35 px rows in a frame sized for 44 px rows: the empty rows at its foot).
_MEASURE = """() => {
    const px = (el) => parseFloat(getComputedStyle(el).fontSize);
    const prose = document.querySelector('[data-testid="stMain"] [data-testid="stCaptionContainer"]');
    const grids = [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stDataFrame"]')].map((grid) => {
        const themed = grid.querySelector('[style*="--gdg-base-font-style"]');
        const scroller = grid.querySelector('.dvn-scroller');
        const rows = Number(grid.querySelector('[aria-rowcount]')?.getAttribute('aria-rowcount') || 0);
        return {text: themed ? parseFloat(themed.style.getPropertyValue('--gdg-base-font-style').trim().split(' ').pop()) : 0,
                row: scroller && rows ? scroller.scrollHeight / rows : 0,
                content: scroller ? scroller.scrollHeight : 0, frame: scroller ? scroller.clientHeight : 0};
    });
    return {root: px(document.documentElement), prose: prose ? px(prose) : 0, grids};
}"""


def _grids_settled(tab, root_px: float, count: int) -> dict:
    """The measures once ``count`` grids are drawn at the type ``root_px`` asks for (the page may be
    drawn once more for it: allow a loaded machine its time), or the last measures seen."""
    sizes = tab.evaluate(_MEASURE)
    for _ in range(60):
        if (sizes["root"] == root_px and len(sizes["grids"]) >= count
                and all(abs(g["text"] - 0.875 * root_px) < 0.5 for g in sizes["grids"])):
            break
        tab.wait_for_timeout(250)
        sizes = tab.evaluate(_MEASURE)
    wait_until_idle(tab)
    return tab.evaluate(_MEASURE)


def _assert_tables_at_projector_size(sizes: dict) -> None:
    from rankviz.ui.layout import PROJECTOR_FONT_PX

    assert sizes["root"] == PROJECTOR_FONT_PX, sizes
    assert sizes["prose"] >= PROJECTOR_FONT_PX, sizes
    assert len(sizes["grids"]) >= 4, sizes  # editor, every gain and discount, the DCG/IDCG table, ERR
    for grid in sizes["grids"]:
        # Grid text keeps its default ratio to the prose (14 of 16 px): 17.5 px under 21 px prose, not 14 px.
        assert grid["text"] >= 0.8 * sizes["prose"], sizes
        assert grid["row"] >= 0.95 * 35 * PROJECTOR_FONT_PX / 16, sizes
        assert grid["content"] >= grid["frame"] - 2, f"empty rows at the foot of a grid: {sizes}"


def _no_sidebar_needed(tab) -> None:
    """Projector mode is switched on the page itself: no sidebar (which took a third of the width and
    squeezed the ranking grid until its grade column read "g")."""
    assert tab.get_by_test_id("stSidebar").count() == 0
    switch = tab.get_by_text("Projector mode", exact=True)
    box = switch.bounding_box()
    assert box and 0 <= box["y"] and box["y"] + box["height"] <= PROJECTOR_SCREEN["height"], box


def test_a_projector_link_opened_fresh_draws_every_table_at_projector_size(browser, fresh_app_url):
    context = browser.new_context(viewport=PROJECTOR_SCREEN)
    tab = context.new_page()
    tab.set_default_timeout(60_000)
    try:
        _go(tab, f"{fresh_app_url}{NDCG_LINK}&projector=true")  # the first request of a fresh server
        _assert_tables_at_projector_size(_grids_settled(tab, 20, 4))
        _no_sidebar_needed(tab)
        no_error_text(tab)
    finally:
        context.close()


def _press_projector_switch(tab) -> None:
    switch = tab.get_by_text("Projector mode", exact=True)
    box = switch.bounding_box()
    if box is None or box["x"] < 0:  # a switch in a collapsed sidebar: open it (_no_sidebar_needed fails on that)
        tab.get_by_test_id("stExpandSidebarButton").click()
        tab.wait_for_timeout(500)
    switch.click()


def test_projector_mode_switched_on_and_off_in_a_session_resizes_every_table(screen, app_url):
    _go(screen, f"{app_url}{NDCG_LINK}")
    _press_projector_switch(screen)
    _assert_tables_at_projector_size(_grids_settled(screen, 20, 4))
    assert re.search(r"[?&]projector=true", screen.url), screen.url
    _press_projector_switch(screen)
    back = _grids_settled(screen, 16, 4)
    assert back["root"] == 16 and all(g["text"] == 14 and g["row"] < 36 for g in back["grids"]), back
    _no_sidebar_needed(screen)


# Every text a class reads in projector mode, whole: no formula scrolled off its box, no label or
# chart text ending in an ellipsis (Vega writes "…" into the SVG text it cuts).
_CUT = """() => {
    const main = document.querySelector('[data-testid="stMain"]');
    const formulas = [...main.querySelectorAll('.katex-display')]
        .filter((box) => box.scrollWidth > box.clientWidth + 1).map((box) => box.textContent.slice(0, 60));
    const ellipsed = [...main.querySelectorAll('p, span, div, label, button, th, td, h1, h2, h3')].filter((el) => {
        if (el.closest('.rv-sr-only, .katex')) return false;
        const style = getComputedStyle(el);
        return style.textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 1;
    }).map((el) => el.textContent.slice(0, 60));
    const chartText = [...main.querySelectorAll('[data-testid="stVegaLiteChart"] svg text')]
        .map((t) => t.textContent).filter((t) => t.includes('\\u2026'));
    const tables = [...main.querySelectorAll('[data-testid="stTable"] td, [data-testid="stTable"] th')]
        .filter((cell) => cell.scrollWidth > cell.clientWidth + 1).map((cell) => cell.textContent);
    return {formulas, ellipsed, chartText, tables, katex: main.querySelectorAll('.katex-display').length};
}"""

PROJECTOR_PAGES = {
    "graded": NDCG_LINK + "&",  # the ERR sum, the longest formula
    "precision_recall": "/precision_recall?rels=1,0,1,0,0,1,0,0,0,1,0,0,0,0,1&R=10&compare=true"
                        "&b_rels=0,0,1,0,0,0,0,1,0,0,0,0,0,0,1&b_R=3&",
    "correlation": "/correlation?",
    "many_queries": "/many_queries?",
}


@pytest.mark.parametrize("stem", list(PROJECTOR_PAGES))
def test_nothing_a_class_reads_is_cut_in_projector_mode(screen, app_url, stem):
    _go(screen, f"{app_url}{PROJECTOR_PAGES[stem]}projector=true")
    screen.wait_for_function("() => [...document.querySelectorAll('[data-testid=\"stVegaLiteChart\"]')].every("
                             "c => c.querySelector('svg, canvas'))", timeout=30_000)
    screen.wait_for_timeout(500)
    cut = screen.evaluate(_CUT)
    assert cut["katex"] > 0 or stem == "many_queries", cut
    assert cut["formulas"] == [], cut
    assert cut["ellipsed"] == [], cut
    assert cut["chartText"] == [], cut
    assert cut["tables"] == [], cut
    if stem == "many_queries":
        assert "lecture's MAP (mean iAP)" in screen.get_by_test_id("stMain").inner_text()
    no_error_text(screen)


def _worksheet_links(tab, base: str) -> tuple[list[str], set[str]]:
    """Make the worksheet on the checker opened at ``base``: the warnings shown, and the hosts its HTML sheet links to."""
    _go(tab, f"{base}/homework")
    tab.get_by_text("Worksheet for the class").click()
    wait_until_idle(tab)
    tab.get_by_role("button", name="Make the worksheet").click()
    wait_until_idle(tab)
    with tab.expect_download() as download:
        tab.get_by_role("button", name="Worksheet (HTML, prints cleanly)").click()
    with open(download.value.path(), encoding="utf-8") as sheet:
        links = set(re.findall(r'href="(https?://[^"]+)"', sheet.read()))
    warnings = tab.get_by_test_id("stAlertContentWarning").all_inner_texts()
    return warnings, {link.split("?", 1)[0] for link in links}


def test_worksheet_links_use_the_address_the_browser_used_and_say_when_it_is_loopback(browser, app_url):
    context = browser.new_context(viewport=PROJECTOR_SCREEN, accept_downloads=True)
    tab = context.new_page()
    tab.set_default_timeout(30_000)
    try:
        warnings, pages = _worksheet_links(tab, app_url)
    finally:
        context.close()
    assert pages == {f"{app_url}/homework"}, pages
    assert any(f"The sheet's links start {app_url}/homework" in text and "only this computer" in text
               for text in warnings), warnings

    # The same server reached by a name (as a class would, through the course's host name): its
    # links use that name, and there is nothing to warn about.
    port = app_url.rsplit(":", 1)[1]
    named = browser.browser_type.launch(executable_path=CHROMIUM,
                                        args=CHROMIUM_ARGS + ["--host-resolver-rules=MAP rankviz.test 127.0.0.1"])
    try:
        tab = named.new_context(viewport=PROJECTOR_SCREEN, accept_downloads=True).new_page()
        tab.set_default_timeout(30_000)
        warnings, pages = _worksheet_links(tab, f"http://rankviz.test:{port}")
    finally:
        named.close()
    assert pages == {f"http://rankviz.test:{port}/homework"}, pages
    assert not any("only this computer" in text for text in warnings), warnings
