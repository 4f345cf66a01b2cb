"""A small client of Streamlit's own protocol: one simulated student, without a browser.

A browser tab talks to Streamlit over one websocket, ``/_stcore/stream``: it sends
``BackMsg`` protobufs (chiefly ``rerun_script``, carrying the URL's query string, the page and
every widget's value) and receives ``ForwardMsg`` protobufs (``new_session`` at the start of a
run, ``delta`` for each element, ``script_finished`` at the end). :class:`StudentSession`
speaks exactly that, so a benchmark can run dozens of students on one core and measure the
server, not the driver. It does what the frontend does and nothing it does not: it answers
large messages it has already seen with their hashes (Streamlit's message cache), reads widget
ids from the elements the server sent, and sends the widgets' values back on a rerun.

When the server behind a load balancer dies, :meth:`StudentSession.reconnect` does what
Streamlit's client does: a new websocket to the same URL with the same cookies (the load
balancer's affinity cookie names the dead server, so the balancer sends it to a live one and
sets a new cookie), and no rerun until the student acts; the next rerun carries the URL the
dead server last wrote and the widget values the student set.

What it cannot do is lay out or draw: a page that the server finishes but that a browser would
fail to draw looks fine here. ``tests/bench/test_st_client.py`` checks the client once against
Chromium on the same page and settings.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.Element_pb2 import Element
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

#: Element kinds that are widgets a student changes, by their ``Element`` field name.
WIDGET_KINDS = frozenset(
    {"selectbox", "slider", "checkbox", "radio", "number_input", "button_group", "button"}
)
_ENDED = (ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_WITH_COMPILE_ERROR)


class ProtocolError(RuntimeError):
    """The server closed the connection or sent something a browser would not expect."""


@dataclass(frozen=True)
class Widget:
    """One widget of a finished run, as the server described it.

    Attributes
    ----------
    key : str
        The key the page gave it (``"max_depth"``), read from the end of its id.
    kind : str
        Its ``Element`` field: ``"slider"`` (also select sliders), ``"selectbox"``...
    proto : Any
        Its protobuf message (options, range, current value).
    """

    key: str
    kind: str
    proto: Any

    @property
    def id(self) -> str:
        return str(self.proto.id)


@dataclass(frozen=True)
class Run:
    """What one script run sent: its page, elements, and how long it took.

    Attributes
    ----------
    page_hash : str
        The page the server ran (``new_session.page_script_hash``).
    elements : tuple of Element
        Every element the run sent, in order (a replaced element counts once, as drawn).
    seconds : float
        From sending the request to receiving ``script_finished``.
    status : int
        The ``script_finished`` status; 0 is a successful run.
    """

    page_hash: str
    elements: tuple[Element, ...]
    seconds: float
    status: int

    def kinds(self) -> Counter[str]:
        """How many elements of each kind (``"plotly_chart"``, ``"slider"``...) the run sent."""
        return Counter(str(element.WhichOneof("type")) for element in self.elements)

    def exceptions(self) -> list[str]:
        """The messages of the exception elements (tracebacks shown in the page)."""
        return [
            f"{e.exception.type}: {e.exception.message}"
            for e in self.elements
            if e.WhichOneof("type") == "exception"
        ]

    def widgets(self) -> dict[str, Widget]:
        """The run's widgets that carry a key, by that key."""
        found: dict[str, Widget] = {}
        for element in self.elements:
            kind = str(element.WhichOneof("type"))
            if kind not in WIDGET_KINDS:
                continue
            proto = getattr(element, kind)
            key = widget_key(proto.id)
            if key:
                found[key] = Widget(key, kind, proto)
        return found

    def headings(self) -> list[str]:
        """The text of every heading, in order (the first is the page's title)."""
        return [e.heading.body for e in self.elements if e.WhichOneof("type") == "heading"]


def widget_key(widget_id: str) -> str:
    """The user's key at the end of a Streamlit widget id (``$$ID-<hash>-<key>``), or ``""``."""
    prefix = "$$ID-"
    if not widget_id.startswith(prefix):
        return ""
    _, _, key = widget_id[len(prefix) :].partition("-")
    return key


def widget_state(widget: Widget, value: Any) -> WidgetState:
    """The ``WidgetState`` a browser sends when ``widget`` is set to ``value``.

    ``value`` is what the student picks as the widget shows it: an option's label for
    selectboxes, radios, segmented controls and select sliders; a number for sliders and
    number inputs; a bool for toggles and checkboxes; anything for a button (a click).
    """
    state = WidgetState(id=widget.id)
    if widget.kind == "slider" and len(widget.proto.options) > 0:
        state.string_array_value.data.append(str(value))
    elif widget.kind == "slider":
        state.double_array_value.data.append(float(value))
    elif widget.kind in ("selectbox", "radio"):
        state.string_value = str(value)
    elif widget.kind == "button_group":
        state.string_array_value.data.append(str(value))
    elif widget.kind == "number_input":
        state.double_value = float(value)
    elif widget.kind == "checkbox":
        state.bool_value = bool(value)
    elif widget.kind == "button":
        state.trigger_value = True
    else:
        raise ValueError(f"widget kind must be one of {sorted(WIDGET_KINDS)}; got {widget.kind!r}")
    return state


def shown_value(widget: Widget, sent: WidgetState | None = None) -> Any:
    """The value ``widget`` shows, as :func:`widget_state` takes it.

    The server sends a widget's value only when the script set it (``set_value``); otherwise
    the browser shows what it last sent (``sent``), or the widget's default.
    """
    proto, kind = widget.proto, widget.kind
    if kind == "slider" and len(proto.options) > 0:
        if proto.set_value and len(proto.raw_value):
            return proto.raw_value[0]
        if sent is not None:
            return sent.string_array_value.data[0]
        return proto.options[int(proto.default[0])]
    if kind == "slider":
        if proto.set_value and len(proto.value):
            return proto.value[0]
        return sent.double_array_value.data[0] if sent is not None else proto.default[0]
    if kind in ("selectbox", "radio"):
        if proto.set_value:
            return proto.raw_value
        return sent.string_value if sent is not None else proto.options[proto.default]
    if kind == "button_group":
        if proto.set_value and len(proto.raw_values):
            return proto.raw_values[0]
        if sent is not None:
            return sent.string_array_value.data[0]
        return proto.options[proto.default[0]].content if len(proto.default) else None
    if kind == "number_input":
        if proto.set_value:
            return proto.value
        return sent.double_value if sent is not None else proto.default
    if kind == "checkbox":
        if proto.set_value:
            return proto.value
        return sent.bool_value if sent is not None else proto.default
    return None  # a button shows no value


def cookies_set(jar: Mapping[str, str], set_cookie: Iterable[str]) -> dict[str, str]:
    """``jar`` with the cookies of these ``Set-Cookie`` header values added or replaced.

    Only a cookie's name and value matter here (one host, one path, a session's length), so
    the attributes after the first ``;`` are dropped; a header without ``=`` is ignored.
    """
    updated = dict(jar)
    for header in set_cookie:
        pair = header.split(";", 1)[0].strip()
        name, equals, value = pair.partition("=")
        if equals and name.strip():
            updated[name.strip()] = value.strip()
    return updated


def cookie_header(jar: Mapping[str, str]) -> str:
    """The ``Cookie`` request header a browser sends with the cookies of ``jar``."""
    return "; ".join(f"{name}={value}" for name, value in jar.items())


@dataclass
class RunReader:
    """Turns the ``ForwardMsg`` bytes of one connection into finished :class:`Run` s.

    It keeps what a browser keeps between runs: the large messages it has seen (so a later
    ``ref_hash`` can be read), every page's hash, and the query string the server last wrote.
    Used by :class:`StudentSession` and by the test that reads Chromium's own websocket frames.
    """

    cache: dict[str, ForwardMsg] = field(default_factory=dict)
    pages: dict[str, str] = field(default_factory=dict)
    query: str = ""
    _elements: dict[tuple[int, ...], Element] = field(default_factory=dict)
    _page_hash: str = ""
    _started: float = 0.0

    def start(self, started: float) -> None:
        """A new run was asked for at ``started`` (``time.perf_counter``)."""
        self._started = started
        self._elements = {}

    def feed(self, raw: bytes) -> Run | None:
        """Read one message; the finished run when it ends one, else None."""
        message = ForwardMsg()
        message.ParseFromString(raw)
        kind = message.WhichOneof("type")
        if kind == "ref_hash":
            if message.ref_hash not in self.cache:
                raise ProtocolError(f"reference to a message never seen: {message.ref_hash}")
            path = list(message.metadata.delta_path)
            message = self.cache[message.ref_hash]
            message.metadata.delta_path[:] = path
            kind = message.WhichOneof("type")
        elif message.metadata.cacheable:
            self.cache[message.hash] = message
        if kind == "new_session":
            self._elements = {}
        elif kind == "navigation":
            # The page that runs, and every page's hash for the sidebar's links.
            self._page_hash = message.navigation.page_script_hash
            self.pages = {
                page.url_pathname: page.page_script_hash for page in message.navigation.app_pages
            }
        elif kind == "delta" and message.delta.WhichOneof("type") == "new_element":
            self._elements[tuple(message.metadata.delta_path)] = message.delta.new_element
        elif kind == "page_info_changed":
            self.query = message.page_info_changed.query_string
        elif kind == "script_finished" and message.script_finished in _ENDED:
            elements = tuple(self._elements[path] for path in sorted(self._elements))
            self._elements = {}
            seconds = time.perf_counter() - self._started
            return Run(self._page_hash, elements, seconds, int(message.script_finished))
        return None


@dataclass
class StudentSession:
    """One browser tab's websocket session with a Streamlit server.

    Open with :meth:`connect`; :meth:`open` runs a page from a link, :meth:`change` sets one
    widget and waits for the rerun, :meth:`switch` follows a link to another page of the app.

    Attributes
    ----------
    base_url : str
        ``http://host:port`` of the server (or the load balancer in front of it).
    pages : dict of str to str
        Every page's script hash by its URL path (``""`` is the home page), from the server.
    last : Run or None
        The last finished run.
    cookies : dict of str to str
        The cookies the server (or the load balancer) set, sent again on every connection.
    reconnects : int
        How many times :meth:`reconnect` opened a new websocket.
    """

    base_url: str
    timeout: float = 60.0
    pages: dict[str, str] = field(default_factory=dict)
    last: Run | None = None
    cookies: dict[str, str] = field(default_factory=dict)
    reconnects: int = 0
    _socket: Any = None
    _reader: RunReader = field(default_factory=RunReader)
    _states: dict[str, WidgetState] = field(default_factory=dict)
    _query: str = ""
    _page_hash: str = ""

    async def connect(self) -> StudentSession:
        """Open the websocket; one connection stays on one server behind a load balancer.

        The cookies of :attr:`cookies` go with the handshake, and the ones its answer sets
        are kept, as a browser keeps them.
        """
        ws_url = "ws" + self.base_url.removeprefix("http") + "/_stcore/stream"
        headers = {"Cookie": cookie_header(self.cookies)} if self.cookies else None
        self._socket = await asyncio.wait_for(
            websockets.connect(
                ws_url,
                subprotocols=[websockets.Subprotocol("streamlit")],
                max_size=None,
                open_timeout=self.timeout,
                ping_interval=None,
                additional_headers=headers,
            ),
            self.timeout,
        )
        response = self._socket.response
        if response is not None:
            self.cookies = cookies_set(self.cookies, response.headers.get_all("Set-Cookie"))
        return self

    @property
    def query(self) -> str:
        """The query string of the URL the browser shows: the one the server last wrote."""
        return self._query

    async def reconnect(self, give_up_after: float = 60.0) -> float:
        """Open a new websocket after the old one broke, as Streamlit's client does.

        Same URL, same cookies; tries again after 0.1 s, 0.2 s... (at most 2 s apart) while
        the connection is refused. No rerun is sent: the page keeps what it shows until the
        student acts, and that rerun carries the widget values and the URL as before.

        Parameters
        ----------
        give_up_after : float, default 60.0
            Seconds of failed attempts after which the last failure is raised.

        Returns
        -------
        float
            Seconds from the call until the new websocket was open.
        """
        if self._socket is not None:
            with contextlib.suppress(Exception):  # it is broken: how it fails to close is moot
                await self._socket.close()
            self._socket = None
        began = time.monotonic()
        delay = 0.1
        while True:
            try:
                await self.connect()
            except (OSError, websockets.InvalidHandshake):  # TimeoutError is an OSError
                if time.monotonic() - began > give_up_after:
                    raise
                await asyncio.sleep(delay)
                delay = min(2 * delay, 2.0)
                continue
            self.reconnects += 1
            return time.monotonic() - began

    async def close(self) -> None:
        """Close the websocket; the server ends the session."""
        if self._socket is not None:
            await self._socket.close()
            self._socket = None

    async def open(self, url_path: str, query: dict[str, str] | None = None) -> Run:
        """Load page ``url_path`` with the query ``query``: what opening a link does."""
        self._query = urlencode(query or {})
        self._states = {}
        return await self._rerun(page_name=url_path)

    async def switch(self, url_path: str) -> Run:
        """Follow the sidebar's link to another page (no query: the page finds its own)."""
        if url_path not in self.pages:
            raise ProtocolError(f"page {url_path!r} is not one of {sorted(self.pages)}")
        self._query = ""
        self._states = {}
        return await self._rerun(page_hash=self.pages[url_path])

    def shown(self, key: str) -> Any:
        """The value the widget keyed ``key`` shows after the last run (see :func:`shown_value`)."""
        widget = self.last.widgets().get(key) if self.last is not None else None
        if widget is None:
            raise ProtocolError(f"no widget keyed {key!r} on the page")
        return shown_value(widget, self._states.get(widget.id))

    async def change(self, key: str, value: Any) -> Run:
        """Set the widget keyed ``key`` of the last run to ``value`` and wait for the rerun."""
        if self.last is None:
            raise ProtocolError("change() before any page was opened")
        widget = self.last.widgets().get(key)
        if widget is None:
            raise ProtocolError(f"no widget keyed {key!r} on the page")
        self._states[widget.id] = widget_state(widget, value)
        return await self._rerun(page_hash=self._page_hash)

    async def _rerun(self, *, page_hash: str = "", page_name: str = "") -> Run:
        if self._socket is None:
            raise ProtocolError("not connected")
        current = self.last.widgets() if self.last is not None else {}
        live_ids = {w.id for w in current.values()}
        # A browser sends the values of the widgets it shows; ids of widgets gone are dropped.
        if page_name or page_hash != self._page_hash:
            states = list(self._states.values())
        else:
            states = [s for i, s in self._states.items() if i in live_ids]
        message = BackMsg()
        client = message.rerun_script
        client.query_string = self._query
        client.page_script_hash = page_hash
        client.page_name = page_name
        client.widget_states.widgets.extend(states)
        client.cached_message_hashes.extend(self._reader.cache)
        client.context_info.url = f"{self.base_url}/{page_name}"
        client.context_info.timezone = "UTC"
        client.context_info.locale = "en-US"
        # A click is sent once; the value of every other widget stays until it changes.
        self._states = {i: s for i, s in self._states.items() if not s.HasField("trigger_value")}
        started = time.perf_counter()
        try:
            await self._socket.send(message.SerializeToString())
        except websockets.ConnectionClosed as closed:
            raise ProtocolError(f"connection closed: {closed}") from None
        return await asyncio.wait_for(self._collect(started), self.timeout)

    async def _collect(self, started: float) -> Run:
        self._reader.start(started)
        while True:
            try:
                raw = await self._socket.recv()
            except websockets.ConnectionClosed as closed:
                raise ProtocolError(f"connection closed: {closed}") from None
            run = self._reader.feed(raw)
            if run is not None:
                self._page_hash = run.page_hash
                self.pages = self._reader.pages
                self._query = self._reader.query
                self.last = run
                return run
