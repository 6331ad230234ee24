"""The load benchmark's Streamlit client (benchmarks/streamlit_client.py) encodes what it means to
send and reads what a server sends: message round trips only, no server and no timing (the load
run itself is benchmarks/load.py, never a test)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("websockets")  # ships with streamlit

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402
from streamlit_client import FINISHED_EARLY, RunResult, StreamlitSession, rerun_message  # noqa: E402


def test_a_rerun_request_round_trips():
    data = rerun_message(query_string="rels=3,2,0", page_script_hash="abc",
                         widgets={"$$ID-1-rels": ("string_value", "3,2,1"), "$$ID-2-go": ("trigger_value", True)},
                         cached_hashes=["h1"], url="http://x/graded?rels=3,2,0")
    msg = BackMsg()
    msg.ParseFromString(data)
    state = msg.rerun_script
    assert msg.WhichOneof("type") == "rerun_script"
    assert (state.query_string, state.page_script_hash, state.page_name) == ("rels=3,2,0", "abc", "")
    assert [(w.id, w.WhichOneof("value")) for w in state.widget_states.widgets] == [
        ("$$ID-1-rels", "string_value"), ("$$ID-2-go", "trigger_value")]
    assert state.widget_states.widgets[0].string_value == "3,2,1"
    assert list(state.cached_message_hashes) == ["h1"]
    assert state.context_info.url == "http://x/graded?rels=3,2,0"


def test_the_session_reads_pages_widgets_links_exceptions_and_the_end_of_a_run():
    session = StreamlitSession("http://127.0.0.1:1")
    result = RunResult(seconds=0.0, status=None)

    def handle(msg: ForwardMsg):
        return session._handle(ForwardMsg.FromString(msg.SerializeToString()), result)

    nav = ForwardMsg()
    page = nav.navigation.app_pages.add()
    page.url_pathname, page.page_script_hash = "graded", "h-graded"
    nav.navigation.page_script_hash = "h-graded"
    info = ForwardMsg()
    info.page_info_changed.query_string = "rels=1%2C0"
    box = ForwardMsg()
    box.delta.new_element.text_input.id = "$$ID-9-rels"
    box.delta.new_element.text_input.label = "Grades in ranked order"
    box.hash, box.metadata.cacheable = "h-box", True
    boom = ForwardMsg()
    boom.delta.new_element.exception.type = "ValueError"
    boom.delta.new_element.exception.message = "bad"
    reference = ForwardMsg()
    reference.ref_hash = "h-box"
    early, done = ForwardMsg(), ForwardMsg()
    early.script_finished = FINISHED_EARLY
    done.script_finished = ForwardMsg.FINISHED_SUCCESSFULLY

    assert [handle(m) for m in (nav, info, box, boom, reference)] == [None] * 5
    assert handle(early) == FINISHED_EARLY
    assert handle(done) == ForwardMsg.FINISHED_SUCCESSFULLY
    assert session.pages == {"graded": "h-graded"} and session.page_script_hash == "h-graded"
    assert session.query_string == "rels=1%2C0"
    assert list(session._cache) == ["h-box"]  # cached, so the next request lists it
    assert session._run_widgets["$$ID-9-rels"].proto.label == "Grades in ranked order"
    assert result.exceptions == ["ValueError: bad"]
