"""axe-core's WCAG 2.1 A/AA audit of every page in the default view (in both views in Chinese:
tests/e2e/test_language.py; the projector view's CSS is the same in either language, and one visit
per page and view keeps the suite under its time), and of the homework checker in its working
states (answers marked, a mistake named, the reveal open): no serious or critical violation.
axe-core's script ships in the axe-playwright-python wheel (requirements-dev.txt); it runs in the
same headless Chromium as the other browser tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import open_drawn, wait_until_idle
from rankviz.ui.pages import PAGES

pytestmark = pytest.mark.e2e

WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
STEMS = [Path(page.path).stem for page in PAGES]


def _serious_violations(tab) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    response = Axe().run(tab, options={"runOnly": {"type": "tag", "values": WCAG_TAGS}}).response
    return [f"{v['id']} ({v['impact']}): {v['help']} at {[node['target'] for node in v['nodes'][:3]]}"
            for v in response["violations"] if v["impact"] in ("serious", "critical")]


def _open(tab, url: str) -> None:
    open_drawn(tab, url)


@pytest.mark.parametrize("stem", STEMS)
def test_every_page_passes_axe(page, app_url, stem):
    _open(page, f"{app_url}/{'' if stem == 'home' else stem}")
    assert _serious_violations(page) == []


def test_the_homework_checker_passes_axe_while_marking_and_revealing(page, app_url):
    _open(page, f"{app_url}/homework?hw_source=course&hw_preset=ndcg_exercise&hw_step=9&projector=true")
    page.get_by_role("textbox", name="DCG term at rank 2 (grade 2)", exact=True).fill("2.731")
    page.get_by_role("textbox", name="CG", exact=True).fill("eleven")
    page.get_by_role("button", name="Check my answers").click()
    page.get_by_text("First step that went wrong").first.wait_for()
    wait_until_idle(page)
    assert _serious_violations(page) == []
