"""Only valid input goes into the link (issue 20, item 10): a field whose text is not valid shows
its error and keeps what was typed, while the address keeps the last valid text (at first the
default), so a copied link reopens what the page shows, never the error.

Every field kind that parses text is typed into here once: the ranking's grades and doc ids, k, R
(and R the page overrides), the unretrieved grades, a number (β), the correlation page's three
boxes, the explorer's ranking to perturb, the homework's own grades. tests/e2e/test_link_validity.py
does the issue's own example in a browser.
"""

from __future__ import annotations

import pytest
from app_helpers import ONE_RANKING, open_app


def _type(at, key: str, text: str):
    boxes = [box for box in (*at.text_input, *at.text_area) if box.key == key]  # a list is a text area
    boxes[0].set_value(text).run()
    assert not at.exception, at.exception
    return at


def _link(at) -> dict:
    return dict(at.query_params)


@pytest.mark.parametrize(("key", "good", "bad"), [
    ("rels", "3,0,1", "2,abc,1"),
    ("docs", "a,b,c", "a,b"),            # two ids for three grades
    ("k", "2", "0"),
    ("R", "5", "abc"),
    ("R", "5", "1"),                     # fewer than the 2 relevant the ranking holds: the page uses 2
    ("unretrieved", "2,1", "2,x"),
])
def test_a_bad_ranking_field_leaves_the_link_at_its_last_valid_text(key, good, bad):
    at = open_app(ONE_RANKING, {"rels": "3,0,1"})
    _type(at, key, good)
    good_link = _link(at)
    assert good_link.get(key) == good
    _type(at, key, bad)
    assert at.error, f"{key} = {bad!r} shows no error"
    assert at.text_input(key=key).value == bad  # what was typed stays in the box
    assert _link(at) == good_link
    # A session opening the copied link sees no error.
    assert not open_app(ONE_RANKING, _link(at)).error


def test_a_link_opened_with_bad_values_is_rewritten_to_what_the_page_shows():
    at = open_app(ONE_RANKING, {"rels": "2,abc,1", "k": "0"})
    assert len(at.error) == 2
    assert at.text_input(key="rels").value == "2,abc,1" and at.text_input(key="k").value == "0"
    assert "k" not in _link(at) and _link(at).get("rels") != "2,abc,1"
    assert not open_app(ONE_RANKING, _link(at)).error


def test_a_number_field_and_the_correlation_boxes_keep_their_last_valid_text():
    at = open_app("app_pages/precision_recall.py")
    _type(at, "beta", "2")
    _type(at, "beta", "-1")
    assert at.error and _link(at)["beta"] == "2"
    at = open_app("app_pages/correlation.py")
    before = _link(at)
    _type(at, "r2", "1,1,x")
    assert at.error and _link(at) == before


def test_the_explorers_ranking_and_the_homeworks_own_grades_keep_their_last_valid_text():
    at = open_app("app_pages/explorer.py", {"ex_generator": "perturbed"})
    _type(at, "ex_base", "3,2,1")
    _type(at, "ex_base", "3,two")
    assert at.error and _link(at)["ex_base"] == "3,2,1"
    at = open_app("app_pages/homework.py", {"hw_source": "own", "hw_kind": "ap"})
    _type(at, "hw_rels", "1,0,1")
    _type(at, "hw_rels", "1,0,x")
    assert at.error and _link(at)["hw_rels"] == "1,0,1"
