"""The URL is the shareable link: one encoding of values (rankviz.ui.state.url_text / url_flag) and
one writer (write_url_param) serve the app's ranking and settings (sync_url), the pages' own link
widgets (rankviz.ui.teaching.to_link) and a page's table in the link (many queries)."""

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from rankviz.ui.state import url_flag, url_text

ROOT = Path(__file__).resolve().parents[2]


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


def test_only_rankviz_ui_state_writes_query_parameters():
    # Every other module reads the link but writes it through state.write_url_param, so the
    # encoding (defaults left out, booleans as true/false) cannot drift between writers.
    writes = re.compile(r"(del\s+st\.query_params\[|st\.query_params\[[^\]]+\]\s*=[^=]|st\.query_params\.(clear|update|"
                        r"from_dict|pop)\()")
    offenders = [str(path.relative_to(ROOT)) for folder in ("rankviz", "app_pages") for path in (ROOT / folder).rglob("*.py")
                 if path.name != "state.py" and writes.search(path.read_text(encoding="utf-8"))]
    offenders += ["app.py"] if writes.search((ROOT / "app.py").read_text(encoding="utf-8")) else []
    assert offenders == []


def _writer_script():
    import streamlit as st

    from rankviz.ui.state import write_url_param
    from rankviz.ui.teaching import to_link

    st.session_state.setdefault("beta", "2")
    st.session_state.setdefault("on", True)
    to_link("beta", "1")          # differs from its default: written
    to_link("on", False)          # a flag: written as true
    write_url_param("k", "", "")  # at its default: taken out of the link
    write_url_param("seed", 7, 7)


def test_to_link_and_write_url_param_write_the_same_encoding():
    at = AppTest.from_function(_writer_script)
    at.query_params["k"] = "5"
    at.query_params["seed"] = "7"
    at.run()
    assert not at.exception, at.exception
    assert _param(at, "beta") == "2" and _param(at, "on") == "true"
    assert "k" not in at.query_params and "seed" not in at.query_params
