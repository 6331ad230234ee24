"""Real-browser tests of the teaching pages (precision and recall, graded relevance, rank
correlation, homework checker): each opens from a shared link at 1280x720 with its key number
visible, KaTeX rendered and no sideways scrolling, and is screenshotted for docs/screenshots/.
The homework checker is driven as a student would: type the slide's working, press Check.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import SCREENSHOTS, no_error_text, wait_until_idle
from rankviz.formatting import format_number
from rankviz.teaching.homework import describe, generate_exercise
from rankviz.metrics import average_precision, kendall_tau, ndcg, spearman_rho
from rankviz.teaching.presets import get_preset
from rankviz.ui.pages import PAGES

pytestmark = pytest.mark.e2e

TALL = {"width": 1280, "height": 3600}
Q1, Q2, SRCC = get_preset("q1_binary"), get_preset("q2_binary"), get_preset("srcc_exercise")


def _path(stem: str) -> str:
    """The page's URL path: st.navigation names a page after its file (the folder may be renamed)."""
    return next(Path(page.path).stem for page in PAGES if Path(page.path).stem == stem)


def _grades(rels) -> str:
    return ",".join(map(str, rels))


# Per page: a shared link and the texts that page must show for it, computed by the package.
LINKS = {
    "precision_recall": (f"?rels={_grades(Q1.rels)}&R=10&compare=true&b_rels={_grades(Q2.rels)}&b_R=3",
                         [f"AP@15 = {format_number(average_precision(Q1.rels, n_relevant=10), 3)}"]),
    "graded": ("?rels=3,2,3,0,1,2&gain=exponential",
               [f"nDCG@6 = {format_number(ndcg([3, 2, 3, 0, 1, 2], gain='exponential'), 3)}", "13.846", "13.848"]),
    "correlation": ("", [f"ρ (Spearman) = {format_number(spearman_rho(SRCC.ranks_a, SRCC.ranks_b), 3)}",
                         f"τ-b = {format_number(kendall_tau(SRCC.ranks_a, SRCC.ranks_b), 3)}"]),
    "homework": ("?seed=1234", [describe(generate_exercise(1234, "ndcg"))]),
}


def _open(tab, app_url, stem: str, query: str = "") -> None:
    tab.goto(f"{app_url}/{_path(stem)}{query}")
    wait_until_idle(tab)
    title = next(page.title for page in PAGES if Path(page.path).stem == stem)
    # The page's own title in the main block (not the navigation); a cold server imports for a while.
    tab.get_by_test_id("stMain").get_by_text(title, exact=True).first.wait_for(timeout=60_000)
    wait_until_idle(tab)
    # Charts draw after the script run: wait until each has its canvas or SVG.
    tab.wait_for_function("() => [...document.querySelectorAll('[data-testid=\"stVegaLiteChart\"]')].every("
                          "c => c.querySelector('canvas, svg'))", timeout=20_000)
    tab.wait_for_timeout(500)


def _no_sideways_scrolling(tab, stem: str) -> None:
    overflow = tab.evaluate("() => { const m = document.querySelector('[data-testid=\"stMain\"]');"
                            " return m.scrollWidth - m.clientWidth; }")
    assert overflow <= 1, f"{stem}: the page scrolls sideways by {overflow} px at 1280 px"


def _screenshots(tab, stem: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(SCREENSHOTS / f"{stem}.png"))
    tab.set_viewport_size(TALL)
    wait_until_idle(tab)
    tab.wait_for_timeout(800)
    tab.screenshot(path=str(SCREENSHOTS / f"{stem}_full.png"))


@pytest.mark.parametrize("stem", ["precision_recall", "graded", "correlation"])
def test_page_opens_from_a_link_shows_its_numbers_and_is_screenshotted(page, app_url, stem):
    query, wanted = LINKS[stem]
    _open(page, app_url, stem, query)
    no_error_text(page)
    text = page.get_by_test_id("stMain").inner_text()
    for expected in wanted:
        assert expected in text, f"{stem}: {expected!r} is not shown"
    assert page.locator(".katex").count() > 0  # formulas rendered by KaTeX, not shown as TeX source
    _no_sideways_scrolling(page, stem)
    _screenshots(page, stem)


def test_homework_seed_link_and_checking_the_slides_working(page, app_url):
    query, wanted = LINKS["homework"]
    _open(page, app_url, "homework", query)
    no_error_text(page)
    assert wanted[0] in page.get_by_test_id("stMain").inner_text()  # the shared seed's exercise

    _open(page, app_url, "homework", "?hw_source=course&hw_preset=ndcg_exercise")
    # Lecture 002's printed working: 1.286 at IDCG rank 4 is the slip (3 / log2 5 = 1.292).
    answers = {"CG": "11", "DCG term at rank 1 (grade 3)": "7", "DCG term at rank 2 (grade 2)": "1.892",
               "DCG term at rank 3 (grade 3)": "3.5", "DCG term at rank 4 (grade 0)": "0",
               "DCG term at rank 5 (grade 1)": "0.386", "DCG term at rank 6 (grade 2)": "1.068", "DCG": "13.846",
               "IDCG term at rank 1 (grade 3)": "7", "IDCG term at rank 2 (grade 3)": "4.416",
               "IDCG term at rank 3 (grade 2)": "1.5", "IDCG term at rank 4 (grade 2)": "1.286",
               "IDCG term at rank 5 (grade 1)": "0.386", "IDCG": "14.588", "NDCG": "0.949"}
    for label, answer in answers.items():
        page.get_by_role("textbox", name=label, exact=True).fill(answer)
    page.get_by_role("button", name="Check my answers").click()
    page.get_by_text("First step that went wrong: IDCG term at rank 4 (grade 2).").wait_for()
    wait_until_idle(page)
    no_error_text(page)
    assert page.locator(".katex").count() >= 3  # the working from there on, as formulas
    _no_sideways_scrolling(page, "homework")
    _screenshots(page, "homework")


@pytest.mark.parametrize("stem", list(LINKS))
def test_projector_mode_fits_1280_px(page, app_url, stem):
    query, wanted = LINKS[stem]
    _open(page, app_url, stem, (query or "?") + ("&" if query else "") + "projector=true")
    no_error_text(page)
    assert wanted[0] in page.get_by_test_id("stMain").inner_text()
    root_font = page.evaluate("() => parseFloat(getComputedStyle(document.documentElement).fontSize)")
    assert root_font > 16, "projector mode is not on"
    _no_sideways_scrolling(page, stem)


@pytest.mark.parametrize("stem", ["graded", "correlation"])
def test_download_buttons_keep_their_label_on_one_line(page, app_url, stem):
    """A worked table's CSV and LaTeX buttons sit in one row; their labels once broke letter by letter
    ("C / S / V") when the row gave each button its narrowest width."""
    _open(page, app_url, stem, LINKS[stem][0])
    # Each label's lines (an inline element has a box per line); a hidden copy has none.
    lines = page.evaluate("() => [...document.querySelectorAll('[data-testid=\"stDownloadButton\"] p')]"
                          ".map(p => [p.textContent, p.getClientRects().length]).filter(([, n]) => n > 0)")
    assert lines and all(count == 1 for _, count in lines), lines
