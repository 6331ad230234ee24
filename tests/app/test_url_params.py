"""The URL is the shareable link, kept by one mechanism: every value in it is a row of the table
rankviz.ui.url_keys, drawn by rankviz.ui.link.link_widget (or kept by keep_in_link), encoded by
url_text / url_flag and written by link.sync_url only."""

import re
from pathlib import Path

import pytest
from app_helpers import open_app
from hypothesis import given
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from rankviz.teaching.homework import KINDS as HOMEWORK_KINDS
from rankviz.ui.pages import PAGES
from rankviz.ui.url_keys import FROM_PAGE, KINDS, URL_KEYS, url_flag, url_key, url_text

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [ROOT / "app.py", *(ROOT / "rankviz").rglob("*.py"), *(ROOT / "app_pages").glob("*.py")]


def _param(at, name):
    value = at.query_params[name]
    return value[0] if isinstance(value, list) else value


@pytest.mark.parametrize("value, default, text", [
    (True, False, "true"), (False, True, "false"), (False, False, None),
    (5, "", "5"), ("3,2,0", None, "3,2,0"), ("linear", "linear", None), (None, "", None), ("", "", None),
])
def test_url_text_leaves_defaults_and_none_out(value, default, text):
    assert url_text(value, default) == text


@pytest.mark.parametrize("text, on", [("true", True), ("TRUE", True), ("1", True), (" yes ", True), ("on", True),
                                      ("false", False), ("0", False), ("", False), ("nope", False)])
def test_url_flag_reads_what_people_type_in_links(text, on):
    assert url_flag(text) is on


@given(st.booleans())
def test_a_flag_round_trips_through_the_url(value):
    assert url_flag(url_text(value, not value)) is value


def test_only_rankviz_ui_link_writes_query_parameters():
    # Every other module reads the link through rankviz.ui.link, so the encoding (defaults left
    # out, booleans as true/false) and the one-message-per-run rule cannot drift between writers.
    writes = re.compile(r"(del\s+st\.query_params\[|st\.query_params\[[^\]]+\]\s*=[^=]|st\.query_params\.(clear|update|"
                        r"from_dict|pop)\()")
    offenders = [str(path.relative_to(ROOT)) for path in SOURCES
                 if path.name != "link.py" and writes.search(path.read_text(encoding="utf-8"))]
    assert offenders == []


def test_no_widget_is_bound_to_the_url_by_streamlit():
    # bind="query-params" would be a second mechanism, and its edits replace the browser's history
    # entry instead of adding one (see rankviz/ui/link.py): Back would skip them.
    offenders = [str(path.relative_to(ROOT)) for path in SOURCES
                 if re.search(r"[(,]\s*bind\s*=", path.read_text(encoding="utf-8"))]
    assert offenders == []


def test_pages_stop_through_the_link():
    # After st.stop() Streamlit sends no message in the run: rankviz.ui.link.stop writes the link first.
    offenders = [str(path.relative_to(ROOT)) for path in SOURCES
                 if path.name != "link.py" and re.search(r"\bst\.stop\(", path.read_text(encoding="utf-8"))]
    assert offenders == []


def test_only_rankviz_ui_link_reads_query_parameters():
    reads = re.compile(r"st\.query_params")
    offenders = [str(path.relative_to(ROOT)) for path in SOURCES
                 if path.name != "link.py" and reads.search(path.read_text(encoding="utf-8"))]
    assert offenders == []


def test_the_table_of_url_keys_is_consistent():
    stems = {Path(page.path).stem for page in PAGES} | {"app"}
    names = [key.name for key in URL_KEYS.values()]
    assert len(names) == len(set(names))
    for widget_key, key in URL_KEYS.items():
        assert key.widget_key == widget_key and key.kind in KINDS
        assert key.pages and set(key.pages) <= stems, key
        if key.kind == "flag":
            assert key.default is False, key
        elif key.default is not FROM_PAGE and key.default is not None:
            assert isinstance(key.default, str), key  # text widgets and choices of text
    with pytest.raises(ValueError, match="not in the table of URL keys"):
        url_key("no_such_key")


# Each page in the states that draw all of its URL keys (some appear only with a setting on).
PAGE_STATES = {
    "home": [{}],
    "one_ranking": [{}],
    "precision_recall": [{}, {"compare": "true"}],
    "graded": [{}],
    "correlation": [{}],
    "homework": [{}, {"hw_source": "practice"}, {"hw_source": "practice", "hw_kind": "err"},
                 {"hw_source": "practice", "hw_kind": "kendall"}, {"hw_source": "practice", "hw_kind": "gauc"},
                 # every kind's own form (issue 22): each input of each kind is a field in the link
                 *({"hw_source": "own", "hw_kind": kind} for kind in HOMEWORK_KINDS)],
    "many_queries": [{}, {"mq_mode": "AP per query"}],
    "explorer": [{}, {"ex_generator": "perturbed"}],
    "user_measures": [{}],
    "run_files": [{}],
    "ties": [{}],
    "why": [{}],
    "glossary": [{}],
}


@pytest.mark.parametrize("page", PAGES, ids=lambda page: Path(page.path).stem)
def test_each_page_draws_exactly_the_url_keys_the_table_lists_for_it(page):
    stem = Path(page.path).stem
    drawn = set()
    for link in PAGE_STATES[stem]:
        at = open_app(page.path, link)
        assert not at.exception, at.exception
        drawn |= set(at.session_state["_link_drawn"])  # what link_widget / keep_in_link showed in the run
    listed = {key.widget_key for key in URL_KEYS.values() if stem in key.pages or "app" in key.pages}
    assert drawn == listed


def _writer_script():
    import streamlit as st

    from rankviz.ui.link import follow_link, keep_in_link, link_widget, sync_url

    follow_link()
    st.session_state.setdefault("beta", "2")
    st.session_state.setdefault("compare", True)
    link_widget(st.text_input, "beta", key="beta")        # differs from its default "1": written
    link_widget(st.toggle, "compare", key="compare")      # a flag: written as true
    link_widget(st.text_input, "k", key="k")              # blank, the default: taken out of the link
    keep_in_link("mq_queries", "a=1", default="a=1")      # at its default: taken out too
    sync_url()


def test_widgets_and_kept_values_write_the_same_encoding_and_leave_other_parameters():
    at = AppTest.from_function(_writer_script)
    at.query_params.update({"k": "5", "mq_queries": "b=0", "other": "kept"})
    at.run()
    assert not at.exception, at.exception
    assert _param(at, "beta") == "2" and _param(at, "compare") == "true"
    assert at.text_input(key="k").value == "5"  # the link's value is read first...
    at.text_input(key="k").set_value("").run()  # ...and an edit back to the default leaves the link
    assert "k" not in at.query_params and "mq_queries" not in at.query_params
    assert _param(at, "other") == "kept"
