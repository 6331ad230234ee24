"""A worksheet printed by a real browser (the session's headless Chromium) on A4: no exercise wider
than the page or split across pages, at most one page per exercise."""

from __future__ import annotations

import re

import pytest

from rankviz.teaching.homework import KINDS
from rankviz.teaching.homework.worksheets import make_worksheet, worksheet_html

pytestmark = pytest.mark.e2e

BASE = "https://rankviz.example/homework"


def test_ten_exercises_print_on_a_few_pages(browser):
    sheet = make_worksheet(list(KINDS), 10, 42)
    a4_content_px = round((210 - 28) / 25.4 * 96)  # A4 less the @page margins, at CSS's 96 px per inch
    page_px = (297 - 29) / 25.4 * 96
    context = browser.new_context(viewport={"width": a4_content_px, "height": 1000})
    try:
        tab = context.new_page()
        for answers in (False, True):
            tab.set_content(worksheet_html(sheet, answers=answers, base_url=BASE))
            tab.emulate_media(media="print")
            assert tab.evaluate("document.documentElement.scrollWidth") <= a4_content_px
            heights = tab.eval_on_selector_all(
                "header, section.exercise",
                "els => els.map(e => e.getBoundingClientRect().height + parseFloat(getComputedStyle(e).marginBottom))")
            assert max(heights) < page_px, "an exercise taller than a page would be split"
            pages, used = 1, 0.0
            for height in heights:  # whole exercises, one after another
                if used + height > page_px and used:
                    pages, used = pages + 1, 0.0
                used += height
            # Whole exercises packed onto pages: never more than one page per exercise (a 20-step
            # exercise with its writing rows fills most of an A4 page).
            assert pages <= 10, f"{'answer key' if answers else 'worksheet'} of 10 exercises: {pages} pages"
            pdf = tab.pdf(format="A4")
            assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) <= 10
    finally:
        context.close()
