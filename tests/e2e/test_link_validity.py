"""Only valid input goes into the link, in a browser (issue 20, item 10): typing ``2,abc,1`` as the
grades and ``0`` as k shows the errors beside the boxes and keeps the typed text there, while the
address bar keeps the last valid ranking and k; the copied address opens without an error. A link
that arrives with bad values is rewritten to what the page shows."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

from conftest import no_error_text, type_into, wait_until_idle

pytestmark = pytest.mark.e2e


def _params(tab) -> dict:
    return {name: values[0] for name, values in parse_qs(urlparse(tab.url).query).items()}


def test_bad_grades_and_k_stay_out_of_the_link(page, browser, app_url):
    page.goto(f"{app_url}/graded?rels=3,2,3,0,1,2&k=4")
    wait_until_idle(page)
    assert _params(page) == {"rels": "3,2,3,0,1,2", "k": "4"}
    type_into(page, "Grades in ranked order", "2,abc,1")
    type_into(page, "k (cut-off)", "0")
    no_error_text(page)
    errors = page.get_by_test_id("stAlertContentError").all_inner_texts()
    assert len(errors) == 2, errors
    assert page.get_by_role("textbox", name="Grades in ranked order").input_value() == "2,abc,1"
    assert page.get_by_role("textbox", name="k (cut-off)").input_value() == "0"
    assert _params(page) == {"rels": "3,2,3,0,1,2", "k": "4"}, page.url
    # The copied link, opened by a colleague: the page as it was shown, no error.
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        other = context.new_page()
        other.goto(page.url)
        wait_until_idle(other)
        no_error_text(other)
        assert other.get_by_test_id("stAlertContentError").count() == 0
        assert other.get_by_role("textbox", name="Grades in ranked order").input_value() == "3,2,3,0,1,2"
    finally:
        context.close()


def test_a_link_with_bad_values_is_rewritten_to_the_page_it_opens(page, app_url):
    page.goto(f"{app_url}/graded?rels=2,abc,1&k=0")
    wait_until_idle(page)
    page.wait_for_function("() => !location.search.includes('abc')", timeout=20_000)
    assert page.get_by_test_id("stAlertContentError").count() == 2
    assert "k" not in _params(page) and "abc" not in page.url
