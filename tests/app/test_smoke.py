"""Every page in app_pages/ opens without an exception (pages added later are covered too)."""

import pytest

from app_helpers import PAGE_FILES, open_app


def test_pages_exist():
    assert "app_pages/home.py" in PAGE_FILES and "app_pages/one_ranking.py" in PAGE_FILES


@pytest.mark.parametrize("page", PAGE_FILES)
def test_page_opens_without_exception(page):
    at = open_app(page)
    assert not at.exception, at.exception
    # A second run (what any click triggers) must not fail either.
    at.run()
    assert not at.exception, at.exception


@pytest.mark.parametrize("page", PAGE_FILES)
def test_page_opens_from_a_shared_link(page):
    at = open_app(page, {"rels": "1,0,2", "k": "2", "gain": "exponential"})
    assert not at.exception, at.exception


def test_every_listed_page_is_in_the_navigation():
    from rankviz.ui.pages import available_pages

    at = open_app()
    for page in available_pages():
        at.switch_page(page.path).run()
        assert not at.exception
