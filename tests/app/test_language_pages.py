"""The app in the students' language (issue 23): ``?lang=zh`` opens every page in Chinese and the
link keeps it, ``?lang=en`` in English, the switch changes it, a browser's language is the default,
and cached worked tables and charts are the session's language."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest
from app_helpers import open_app
from streamlit.testing.v1 import AppTest

from rankviz.i18n import _, speaking
from rankviz.ui.cached_results import cached_call
from rankviz.ui.pages import available_pages

CJK = re.compile(r"[\u4e00-\u9fff]")
PAGES = available_pages()


def _title(at: AppTest) -> str:
    return at.subheader[0].value


@pytest.mark.parametrize("page", PAGES, ids=lambda page: Path(page.path).stem)
def test_lang_zh_opens_every_page_in_chinese_and_the_link_keeps_it(page):
    at = open_app(page.path, {"lang": "zh"})
    assert not at.exception, at.exception
    with speaking("zh"):
        expected = _(page.title) if not page.default else _("rankviz: ranking metrics that explain themselves")
    assert CJK.search(expected), f"{page.title!r} has no Chinese in app.po"
    assert _title(at) == expected
    assert at.query_params["lang"] == "zh"
    assert at.button_group(key="lang").value == "zh"


@pytest.mark.parametrize("path", ["app_pages/one_ranking.py", "app_pages/graded.py", "app_pages/precision_recall.py"])
def test_the_ranking_pages_label_their_fields_in_chinese(path):
    at = open_app(path, {"lang": "zh"})
    labels = [box.label for box in at.text_input]
    assert "按排序顺序的相关度等级" in labels and "k（截断位置）" in labels, labels
    assert all(CJK.search(label) for label in labels), labels


def test_lang_en_is_english_and_kept_in_the_link():
    at = open_app("app_pages/graded.py", {"lang": "en"})
    assert _title(at) == "Graded relevance"
    assert at.query_params["lang"] == "en"


def test_without_a_choice_english_and_no_lang_in_the_link():
    at = open_app("app_pages/graded.py")
    assert _title(at) == "Graded relevance"
    assert "lang" not in at.query_params


def test_an_unknown_language_in_the_link_is_english_without_an_error():
    at = open_app("app_pages/graded.py", {"lang": "xx"})
    assert _title(at) == "Graded relevance" and not at.error
    assert "lang" not in at.query_params


def test_the_switch_changes_the_language_and_puts_it_in_the_link():
    at = open_app("app_pages/precision_recall.py")
    at.button_group(key="lang").set_value("zh").run()
    assert _title(at) == "准确率与召回率"
    assert at.query_params["lang"] == "zh"
    at.button_group(key="lang").set_value("en").run()
    assert _title(at) == "Precision and recall"
    assert at.query_params["lang"] == "en"  # chosen: kept in the link, even English


def test_a_page_switch_keeps_the_language():
    at = open_app("app_pages/home.py", {"lang": "zh"})
    at.switch_page("app_pages/graded.py").run()
    assert _title(at) == "多级相关性"
    assert at.query_params["lang"] == "zh"


def _worksheet_link_script():
    import streamlit as st

    from rankviz.ui.language import start_language, with_language
    from rankviz.ui.link import follow_link

    follow_link()
    start_language()
    st.write(with_language("http://ir.example.edu/homework"))


@pytest.mark.parametrize(("link", "expected"), [
    ({"lang": "zh"}, "http://ir.example.edu/homework?lang=zh"),
    ({"lang": "en"}, "http://ir.example.edu/homework?lang=en"),
    ({}, "http://ir.example.edu/homework"),
])
def test_a_printed_link_opens_in_the_language_it_was_made_in(link, expected):
    at = AppTest.from_function(_worksheet_link_script)
    for name, value in link.items():
        at.query_params[name] = value
    at.run()
    assert at.markdown[0].value == expected


def recall_word():
    return _("Precision and recall")


def test_a_cached_result_is_in_the_language_of_the_session_that_asks():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "No runtime found": st.cache_data in memory outside the app
        with speaking("zh"):
            chinese = cached_call(recall_word)
        english = cached_call(recall_word)
    assert (chinese, english) == ("准确率与召回率", "Precision and recall")
