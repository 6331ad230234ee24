"""A minimal Streamlit client: one browser tab's websocket session, without a browser.

Used by ``benchmarks/load.py``. It speaks the protocol of Streamlit 1.67 as its own frontend does
(learned from ``streamlit/web/server/starlette/starlette_websocket.py``,
``streamlit/runtime/app_session.py`` and the ``streamlit.proto`` messages in the wheel):

* connect to ``ws://HOST:PORT/_stcore/stream`` with the websocket subprotocol header
  ``streamlit`` (its 2nd and 3rd entries, an XSRF token and a session id to resume, stay empty);
* ask for every script run with a ``BackMsg`` whose ``rerun_script`` (a ``ClientState``) holds the
  address bar's query string, the page (``page_name`` from the URL path on the first run,
  ``page_script_hash`` afterwards), the widget values, and the hashes of the large messages this
  client has cached (the server then sends a ``ref_hash`` instead of the message again);
* read ``ForwardMsg``s until ``script_finished`` ends the run. ``FINISHED_EARLY_FOR_RERUN`` ends
  only a run that ``st.rerun()`` restarted, so a request is answered by the next other status.

What a tab keeps between runs is kept here too: the query string the app last wrote
(``page_info_changed``), the page hashes (``new_session`` / ``navigation``), the widgets of the
last run (their ids and labels, from ``delta.new_element``) and the values this client set.
Unlike the browser it sends only the values it set, not every mounted widget's default: the
server keeps a widget's last value when a run does not list it, and the rankviz app writes every
link widget's value into session state before drawing it, so the runs do the same work.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from dataclasses import dataclass, field

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

SUBPROTOCOL = "streamlit"
STREAM_PATH = "/_stcore/stream"
FINISHED_EARLY = ForwardMsg.FINISHED_EARLY_FOR_RERUN
FINISHED_WITH_COMPILE_ERROR = ForwardMsg.FINISHED_WITH_COMPILE_ERROR
MAX_CACHED_HASHES = 2000  # the browser's own cache is bounded too


def rerun_message(*, query_string: str = "", page_name: str = "", page_script_hash: str = "",
                  widgets: dict[str, tuple[str, object]] | None = None, cached_hashes=(),
                  url: str = "", timezone: str = "Europe/Berlin", locale: str = "en-GB") -> bytes:
    """A serialized ``BackMsg`` asking for a script run.

    ``widgets`` maps a widget id to ``(field, value)``: the ``WidgetState`` value field to set
    (``"string_value"``, ``"trigger_value"``, ``"int_value"``, ...) and its value.
    """
    msg = BackMsg()
    state = msg.rerun_script
    state.query_string = query_string
    state.page_name = page_name
    state.page_script_hash = page_script_hash
    for widget_id, (value_field, value) in (widgets or {}).items():
        widget = state.widget_states.widgets.add()
        widget.id = widget_id
        setattr(widget, value_field, value)
    state.cached_message_hashes.extend(cached_hashes)
    state.context_info.timezone = timezone
    state.context_info.timezone_offset = -60
    state.context_info.locale = locale
    state.context_info.url = url
    return msg.SerializeToString()


@dataclass
class Widget:
    """A widget the last run drew: its element type and the proto (label, form, ...)."""

    id: str
    kind: str
    proto: object


@dataclass
class RunResult:
    """What one requested run answered: its time, status, and the problems it showed."""

    seconds: float
    status: int | None  # ForwardMsg.ScriptFinishedStatus, None when no answer came
    exceptions: list[str] = field(default_factory=list)
    page_not_found: bool = False
    messages: int = 0
    bytes: int = 0
    kinds: Counter = field(default_factory=Counter)  # messages per kind: "block", "dataframe", "markdown"...


class StreamlitSession:
    """One tab. ``await open(page, query)``, then ``await rerun(...)`` per interaction."""

    def __init__(self, base_url: str, *, timeout: float = 120.0, cookie: str | None = None):
        self.base_url = base_url.rstrip("/")
        self.cookie = cookie  # what a browser sends after its first page load (a proxy's sticky cookie)
        self.ws_url = self.base_url.replace("http://", "ws://", 1).replace("https://", "wss://", 1) + STREAM_PATH
        self.timeout = timeout
        self.ws = None
        self.query_string = ""
        self.page_name = ""
        self.page_script_hash = ""
        self.pages: dict[str, str] = {}  # url path name -> page_script_hash
        self.widgets: dict[str, Widget] = {}  # widgets of the last run, by id
        self.values: dict[str, tuple[str, object]] = {}  # values this client set, by widget id
        self._cache: dict[str, ForwardMsg] = {}
        self._run_widgets: dict[str, Widget] = {}

    async def connect(self) -> None:
        headers = {"Cookie": self.cookie} if self.cookie else None
        self.ws = await websockets.connect(self.ws_url, subprotocols=[SUBPROTOCOL], max_size=None,
                                           open_timeout=self.timeout, ping_interval=None,
                                           compression=None, additional_headers=headers)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    def widget(self, *, kind: str, key: str | None = None, label: str | None = None) -> Widget | None:
        """A widget of the last run by type and user key (its id ends with ``-key``) or label."""
        for widget in self.widgets.values():
            if widget.kind != kind:
                continue
            if key is not None and widget.id.endswith(f"-{key}"):
                return widget
            if label is not None and getattr(widget.proto, "label", None) == label:
                return widget
        return None

    async def open(self, page_name: str, query_string: str) -> RunResult:
        """The first run of a tab opened at ``/page_name?query_string`` (connect included)."""
        start = time.perf_counter()
        await self.connect()
        self.page_name, self.query_string = page_name, query_string
        return await self._run(start, page_name=page_name)

    async def rerun(self, *, set_values: dict[str, tuple[str, object]] | None = None,
                    triggers: dict[str, tuple[str, object]] | None = None) -> RunResult:
        """A widget interaction on the current page: the new values (kept for later runs) and
        one-shot triggers (a button press)."""
        self.values.update(set_values or {})
        return await self._run(time.perf_counter(), page_script_hash=self.page_script_hash,
                               extra=triggers)

    async def switch_page(self, page_name: str) -> RunResult:
        """A click on a page link: the app's query parameters are dropped (none is bound to a
        widget with ``bind=``), the widget values go along."""
        self.query_string = ""
        self.page_name = page_name
        return await self._run(time.perf_counter(), page_script_hash=self.pages.get(page_name, ""),
                               page_name=page_name)

    async def _run(self, start: float, *, page_script_hash: str = "", page_name: str = "",
                   extra: dict | None = None) -> RunResult:
        widgets = dict(self.values)
        widgets.update(extra or {})
        path = page_name or self.page_name
        url = f"{self.base_url}/{path}" + (f"?{self.query_string}" if self.query_string else "")
        await self.ws.send(rerun_message(query_string=self.query_string, page_name=page_name,
                                         page_script_hash=page_script_hash, widgets=widgets,
                                         cached_hashes=list(self._cache)[-MAX_CACHED_HASHES:], url=url))
        result = RunResult(seconds=0.0, status=None)
        self._run_widgets = {}
        deadline = start + self.timeout
        while True:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise asyncio.TimeoutError
            data = await asyncio.wait_for(self.ws.recv(), remaining)
            result.messages += 1
            result.bytes += len(data)
            msg = ForwardMsg()
            msg.ParseFromString(data)
            status = self._handle(msg, result)
            if status is not None and status != FINISHED_EARLY:
                result.status = status
                result.seconds = time.perf_counter() - start
                self.widgets = self._run_widgets
                return result

    def _handle(self, msg: ForwardMsg, result: RunResult) -> int | None:
        kind = msg.WhichOneof("type")
        if kind == "ref_hash":
            cached = self._cache.get(msg.ref_hash)
            if cached is None:
                result.exceptions.append(f"ref_hash {msg.ref_hash} not in this client's cache")
                return None
            msg, kind = cached, cached.WhichOneof("type")
        elif msg.metadata.cacheable and msg.hash:
            self._cache[msg.hash] = msg
        if kind == "script_finished":
            return msg.script_finished
        if kind == "new_session":
            self._learn_pages(msg.new_session.app_pages)
            if msg.new_session.page_script_hash:
                self.page_script_hash = msg.new_session.page_script_hash
        elif kind == "navigation":
            self._learn_pages(msg.navigation.app_pages)
            if msg.navigation.page_script_hash:
                self.page_script_hash = msg.navigation.page_script_hash
        elif kind == "page_info_changed":
            self.query_string = msg.page_info_changed.query_string
        elif kind == "page_not_found":
            result.page_not_found = True
        if kind == "delta":
            delta_kind = msg.delta.WhichOneof("type")
            result.kinds["block" if delta_kind == "add_block" else
                         msg.delta.new_element.WhichOneof("type") if delta_kind == "new_element" else delta_kind] += 1
        if kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            element = msg.delta.new_element
            element_kind = element.WhichOneof("type")
            if element_kind == "exception":
                result.exceptions.append(f"{element.exception.type}: {element.exception.message}"[:300])
            elif element_kind is not None:
                proto = getattr(element, element_kind)
                widget_id = getattr(proto, "id", "")
                if isinstance(widget_id, str) and widget_id.startswith("$$ID"):
                    self._run_widgets[widget_id] = Widget(widget_id, element_kind, proto)
        return None

    def _learn_pages(self, app_pages) -> None:
        for page in app_pages:
            if page.url_pathname:
                self.pages[page.url_pathname] = page.page_script_hash
