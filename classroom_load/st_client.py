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

A page may keep a part of itself fresh on a timer (``st.fragment(run_every=...)``, the class
mode's follower check). The server then sends ``auto_rerun`` (a fragment id and an interval),
and the browser sends a ``rerun_script`` carrying that fragment id every interval, whether a
run is going on or not; a full run of the page drops every timer (the page sets them again as it
runs), ``stop_auto_rerun`` drops some. The server may also start a run itself: a fragment that
calls ``st.rerun()`` or ``st.switch_page()``. So the session reads its websocket all the time,
keeps its timers as the browser does, and takes its page and query string from what the server
says (``new_session.page_script_hash`` of a full run, ``page_info_changed``), as the frontend
does.

What it cannot do is lay out or draw: a page that the server finishes but that a browser would
fail to draw looks fine here. ``classroom_load/tests/test_browser_protocol_client.py`` checks
the client once against Chromium on the same page and settings.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urlencode

import websockets
from streamlit.components.v2.bidi_component.main import _make_trigger_id
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.Element_pb2 import Element
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

#: Element kinds that are widgets a student changes, by their ``Element`` field name.
WIDGET_KINDS = frozenset(
    {"selectbox", "slider", "checkbox", "radio", "number_input", "button_group", "button"}
)
#: Widgets the client can also fill in (a form's text, sent with its submit button).
TEXT_KINDS = frozenset({"text_input", "text_area"})
_ENDED = (
    ForwardMsg.FINISHED_SUCCESSFULLY,
    ForwardMsg.FINISHED_WITH_COMPILE_ERROR,
    ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY,
)


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
    fragment_id : str
        The fragment that drew it (``Delta.fragment_id``), or "" for the page's own: a browser
        reruns only that fragment when the widget changes.
    """

    key: str
    kind: str
    proto: Any
    fragment_id: str = ""

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
        Every element the page shows after the run, in order (a replaced element counts once,
        as drawn): a full run's own, or a fragment run's over the page's last ones.
    seconds : float
        From sending the request (or, for a run the server started, its ``new_session``) to
        receiving ``script_finished``.
    status : int
        The ``script_finished`` status; 0 is a successful run, 3 a fragment's.
    fragment_ids : tuple of str
        The fragments a fragment run ran; empty for a run of the whole page.
    query : str
        The URL's query string once the run finished.
    number : int
        How many runs of the whole page this connection had started by then (a fragment run
        carries the number of the page run it redrew part of).
    homes : tuple of str
        The fragment that drew each of ``elements`` ("" for the page's own), in their order.
    """

    page_hash: str
    elements: tuple[Element, ...]
    seconds: float
    status: int
    fragment_ids: tuple[str, ...] = ()
    query: str = ""
    number: int = 0
    homes: tuple[str, ...] = ()

    @property
    def whole_page(self) -> bool:
        """Whether the run ran the page's whole script (not only fragments of it)."""
        return not self.fragment_ids

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
        homes = self.homes or ("",) * len(self.elements)
        for element, home in zip(self.elements, homes, strict=True):
            kind = str(element.WhichOneof("type"))
            if kind not in WIDGET_KINDS | TEXT_KINDS:
                continue
            proto = getattr(element, kind)
            key = widget_key(proto.id)
            if key:
                found[key] = Widget(key, kind, proto, home)
        return found

    def headings(self) -> list[str]:
        """The text of every heading, in order (the first is the page's title)."""
        return [e.heading.body for e in self.elements if e.WhichOneof("type") == "heading"]

    def texts(self) -> list[str]:
        """The text of every Markdown element and alert (info, success...), in order."""
        found = []
        for element in self.elements:
            kind = element.WhichOneof("type")
            if kind == "markdown":
                found.append(element.markdown.body)
            elif kind == "alert":
                found.append(element.alert.body)
        return found


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
    elif widget.kind in TEXT_KINDS:
        state.string_value = str(value)
    else:
        kinds = sorted(WIDGET_KINDS | TEXT_KINDS)
        raise ValueError(f"widget kind must be one of {kinds}; got {widget.kind!r}")
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
    if kind in TEXT_KINDS:
        if proto.set_value:
            return proto.value
        return sent.string_value if sent is not None else proto.default
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


@dataclass(frozen=True)
class AutoRerun:
    """A fragment the server asked the browser to rerun every ``interval`` seconds.

    ``number`` tells a timer set again (after a full run dropped the last one) from the one
    before, as the browser's new ``setInterval`` is a new timer.
    """

    fragment_id: str
    interval: float
    number: int


@dataclass
class RunReader:
    """Turns the ``ForwardMsg`` bytes of one connection into finished :class:`Run` s.

    It keeps what a browser keeps between runs: the large messages it has seen (so a later
    ``ref_hash`` can be read), every page's hash, the page shown, the query string the server
    last wrote, the elements on screen (a fragment run redraws only its part) and the
    fragments' timers (:attr:`timers`, kept as the frontend's ``handleAutoRerun``,
    ``handleStopAutoRerun`` and ``cleanupAutoReruns`` keep them). Used by
    :class:`StudentSession` and by the test that reads Chromium's own websocket frames.

    Attributes
    ----------
    page_hash : str
        The page shown: the ``page_script_hash`` of the last full run (its ``new_session``,
        or the ``navigation`` message).
    timers : dict of str to AutoRerun
        The fragments to rerun on a timer, by fragment id.
    starts : int
        Runs of the whole page started on this connection.
    retold : int
        Runs whose ``script_finished`` named another run than the last ``new_session``
        (the finish's word is taken).
    stopped_early : Counter of str
        Runs that ended for a rerun (``FINISHED_EARLY_FOR_RERUN``), ``"page"`` or ``"fragment"``:
        a fragment that called ``st.rerun()`` ends that way, and so does a fragment run whose
        messages were still queued when the next run started. A fragment's such run is still
        returned as a run (with that status), as a browser shows what it drew; a page's is not.
    """

    cache: dict[str, ForwardMsg] = field(default_factory=dict)
    pages: dict[str, str] = field(default_factory=dict)
    query: str = ""
    page_hash: str = ""
    timers: dict[str, AutoRerun] = field(default_factory=dict)
    starts: int = 0
    stopped_early: Counter[str] = field(default_factory=Counter)
    retold: int = 0
    #: The last lifecycle messages read and reruns sent, for a report of what went wrong:
    #: (``time.monotonic``, what, run id, fragment ids or status).
    trace: deque[tuple[float, str, str, str]] = field(default_factory=lambda: deque(maxlen=400))
    _elements: dict[tuple[int, ...], Element] = field(default_factory=dict)
    _shown: dict[tuple[int, ...], Element] = field(default_factory=dict)
    # The fragment that drew each element ("" for the page's own), by the element's place.
    _homes: dict[tuple[int, ...], str] = field(default_factory=dict)
    _shown_homes: dict[tuple[int, ...], str] = field(default_factory=dict)
    _fragment_ids: tuple[str, ...] = ()
    _run_id: str = ""
    _counted: str = ""
    _started: float = 0.0
    _asked: float | None = None
    _numbers: Iterator[int] = field(default_factory=itertools.count)

    def note(self, what: str, run_id: str = "", detail: str = "") -> None:
        """Add one line to :attr:`trace`."""
        self.trace.append((round(time.monotonic(), 3), what, run_id, detail))

    def start(self, started: float) -> None:
        """A run was asked for at ``started`` (``time.perf_counter``): the next run to start
        is timed from then, not from its ``new_session``."""
        self._asked = started

    def feed(self, raw: bytes) -> Run | None:
        """Read one message; the finished run when it ends one, else None."""
        message = ForwardMsg()
        message.ParseFromString(raw)
        kind = message.WhichOneof("type")
        if kind == "ref_hash":
            if message.ref_hash not in self.cache:
                raise ProtocolError(f"reference to a message never seen: {message.ref_hash}")
            # The cached message with the reference's own metadata, as the frontend reads it:
            # its place (delta_path) and its run (a new_session's fragment ids: one cached
            # new_session serves full runs and fragment runs of the same page alike).
            referenced = ForwardMsg()
            referenced.CopyFrom(self.cache[message.ref_hash])
            referenced.metadata.CopyFrom(message.metadata)
            message = referenced
            kind = message.WhichOneof("type")
        elif message.metadata.cacheable:
            self.cache[message.hash] = message
        if kind in ("new_session", "script_finished"):
            run = message.metadata.run
            detail = str(message.script_finished) if kind == "script_finished" else ""
            self.note(kind, run.script_run_id[:8], ",".join(run.fragment_ids)[:12] or detail)
        if kind == "new_session":
            self._begin(message)
        elif kind == "navigation":
            # The page that runs, and every page's hash for the sidebar's links.
            self.page_hash = message.navigation.page_script_hash
            self.pages = {
                page.url_pathname: page.page_script_hash for page in message.navigation.app_pages
            }
        elif kind == "delta" and message.delta.WhichOneof("type") == "new_element":
            place = tuple(message.metadata.delta_path)
            self._elements[place] = message.delta.new_element
            self._homes[place] = message.delta.fragment_id
        elif kind == "page_info_changed":
            self.query = message.page_info_changed.query_string
        elif kind == "auto_rerun":
            self._set_timer(message.auto_rerun.fragment_id, message.auto_rerun.interval)
        elif kind == "stop_auto_rerun":
            for fragment_id in message.stop_auto_rerun.fragment_ids:
                self.timers.pop(fragment_id, None)
        elif kind == "script_finished" and message.script_finished in _ENDED:
            return self._finish(int(message.script_finished), message.metadata.run)
        elif (
            kind == "script_finished"
            and message.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN
        ):
            self.stopped_early["fragment" if self._fragment_ids else "page"] += 1
            if self._fragment_ids:
                # What arrived stays on the browser's screen. A fragment run is also told as
                # "early" when it had finished but the next run started before its messages
                # left the server (Streamlit's queue rewrites the status and keeps the
                # fragment's elements): the run happened, and the browser shows it.
                return self._finish(int(message.script_finished), message.metadata.run)
        return None

    def _begin(self, message: ForwardMsg) -> None:
        """A run starts. A full run draws the page anew and drops every timer (the browser's
        ``cleanupAutoReruns``: the run sets them again); a fragment run keeps both."""
        self._fragment_ids = tuple(message.metadata.run.fragment_ids)
        self._run_id = message.metadata.run.script_run_id
        if self._fragment_ids:
            self._elements, self._homes = dict(self._shown), dict(self._shown_homes)
        else:
            self._elements, self._homes = {}, {}
            self.timers = {}
            self.page_hash = message.new_session.page_script_hash
            self.starts += 1
            self._counted = self._run_id
        self._started = self._asked if self._asked is not None else time.perf_counter()
        self._asked = None

    def _set_timer(self, fragment_id: str, interval: float) -> None:
        """The browser's ``handleAutoRerun``: a timer per fragment, kept while its interval is
        the same, replaced when it changes."""
        if not fragment_id:
            return
        held = self.timers.get(fragment_id)
        if held is None or held.interval != interval:
            self.timers[fragment_id] = AutoRerun(fragment_id, interval, next(self._numbers))

    def _finish(self, status: int, run: Any) -> Run:
        """The run ends: what it was is what its ``script_finished`` says (its run identity, as
        the frontend's ``handleScriptFinished`` reads it), else what its ``new_session`` said."""
        if run.script_run_id:
            if run.script_run_id != self._run_id or tuple(run.fragment_ids) != self._fragment_ids:
                self.retold += 1
            self._fragment_ids = tuple(run.fragment_ids)
            if not self._fragment_ids and run.script_run_id != self._counted:
                self.starts += 1  # a page run whose start was not told as one
                self._counted = run.script_run_id
        self._shown, self._shown_homes = dict(self._elements), dict(self._homes)
        places = sorted(self._elements)
        elements = tuple(self._elements[path] for path in places)
        seconds = time.perf_counter() - self._started
        return Run(
            self.page_hash,
            elements,
            seconds,
            status,
            self._fragment_ids,
            self.query,
            self.starts,
            tuple(self._homes.get(path, "") for path in places),
        )


@dataclass
class StudentSession:
    """One browser tab's websocket session with a Streamlit server.

    Open with :meth:`connect`; :meth:`open` runs a page from a link, :meth:`change` sets one
    widget and waits for the rerun, :meth:`switch` follows a link to another page of the app.
    Between them the session goes on reading what the server sends, reruns its fragments on
    their timers, and follows a page switch the server makes; :meth:`wait_for` waits for a run
    that shows something.

    Attributes
    ----------
    base_url : str
        ``http://host:port`` of the server (or the load balancer in front of it).
    pages : dict of str to str
        Every page's script hash by its URL path (``""`` is the home page), from the server.
    last : Run or None
        The last finished run (of the page, or of a fragment over it).
    cookies : dict of str to str
        The cookies the server (or the load balancer) set, sent again on every connection.
    reconnects : int
        How many times :meth:`reconnect` opened a new websocket.
    on_run : callable, optional
        Called with every finished run, whoever asked for it, as it arrives.
    auto_reruns : int
        Fragment reruns sent on a timer.
    closures : int
        Websockets the other side closed (the server, or a load balancer in front of it); one
        this side closes (:meth:`close`, :meth:`reconnect`) does not count.
    """

    base_url: str
    timeout: float = 60.0
    pages: dict[str, str] = field(default_factory=dict)
    last: Run | None = None
    cookies: dict[str, str] = field(default_factory=dict)
    reconnects: int = 0
    on_run: Callable[[Run], None] | None = None
    auto_reruns: int = 0
    closures: int = 0
    _socket: Any = None
    _reader: RunReader = field(default_factory=RunReader)
    _states: dict[str, WidgetState] = field(default_factory=dict)
    _receiver: asyncio.Task[None] | None = None
    _timers: dict[str, tuple[AutoRerun, asyncio.Task[None]]] = field(default_factory=dict)
    _recent: deque[tuple[int, Run]] = field(default_factory=lambda: deque(maxlen=64))
    _received: int = 0
    _arrived: asyncio.Condition | None = None
    _broken: str = ""

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
        self._broken = ""
        self._arrived = self._arrived or asyncio.Condition()
        self._receiver = asyncio.create_task(self._receive(self._socket))
        return self

    @property
    def query(self) -> str:
        """The query string of the URL the browser shows: the one the server last wrote."""
        return self._reader.query

    @property
    def page_hash(self) -> str:
        """The script hash of the page the browser shows."""
        return self._reader.page_hash

    @property
    def timers(self) -> dict[str, float]:
        """The fragments rerun on a timer: their intervals in seconds, by fragment id."""
        return {fragment_id: t.interval for fragment_id, t in self._reader.timers.items()}

    @property
    def stopped_early(self) -> Counter[str]:
        """Runs that ended for a rerun, ``"page"`` or ``"fragment"`` (see :class:`RunReader`)."""
        return Counter(self._reader.stopped_early)

    @property
    def trace(self) -> list[tuple[float, str, str, str]]:
        """The last lifecycle messages read and reruns sent (see :attr:`RunReader.trace`)."""
        return list(self._reader.trace)

    @property
    def retold(self) -> int:
        """Runs whose end named another run than their start (see :class:`RunReader`)."""
        return self._reader.retold

    @property
    def closed_by(self) -> str:
        """Why the last websocket ended (``"connection closed: ..."``), or "" while it is open
        or was closed by this side (:meth:`close`, :meth:`reconnect`)."""
        return self._broken

    @property
    def page_runs(self) -> int:
        """Runs of the whole page started on this connection."""
        return self._reader.starts

    async def reconnect(self, give_up_after: float = 60.0) -> float:
        """Open a new websocket after the old one broke, as Streamlit's client does.

        Same URL, same cookies; tries again after 0.1 s, 0.2 s... (at most 2 s apart) while
        the connection is refused. No rerun is sent unless the page has fragments on a timer
        (then the browser asks for a run at once, and so does this): the page keeps what it
        shows until the student acts, and that rerun carries the widget values and the URL as
        before.

        Parameters
        ----------
        give_up_after : float, default 60.0
            Seconds of failed attempts after which the last failure is raised.

        Returns
        -------
        float
            Seconds from the call until the new websocket was open.
        """
        await self._drop_socket()
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
            if self._reader.timers:
                await self._send(self._reader.page_hash)
            return time.monotonic() - began

    async def _drop_socket(self) -> None:
        for _, task in self._timers.values():
            task.cancel()
        self._timers = {}
        if self._receiver is not None:
            self._receiver.cancel()
            self._receiver = None
        if self._socket is not None:
            with contextlib.suppress(Exception):  # it may be broken: how it fails to close is moot
                await self._socket.close()
            self._socket = None

    async def close(self) -> None:
        """Close the websocket; the server ends the session."""
        await self._drop_socket()

    async def open(self, url_path: str, query: dict[str, str] | None = None) -> Run:
        """Load page ``url_path`` with the query ``query``: what opening a link does."""
        self._reader.query = urlencode(query or {})
        self._states = {}
        return await self._rerun(page_name=url_path)

    async def switch(self, url_path: str) -> Run:
        """Follow the sidebar's link to another page (no query: the page finds its own)."""
        if url_path not in self.pages:
            raise ProtocolError(f"page {url_path!r} is not one of {sorted(self.pages)}")
        self._reader.query = ""
        self._states = {}
        return await self._rerun(page_hash=self.pages[url_path])

    def shown(self, key: str) -> Any:
        """The value the widget keyed ``key`` shows after the last run (see :func:`shown_value`)."""
        widget = self.last.widgets().get(key) if self.last is not None else None
        if widget is None:
            raise ProtocolError(f"no widget keyed {key!r} on the page")
        return shown_value(widget, self._states.get(widget.id))

    def fill(self, key: str, value: Any) -> None:
        """Set the widget keyed ``key`` without a rerun, as typing into a form's field does (the
        form's submit button sends it)."""
        if self.last is None or key not in self.last.widgets():
            raise ProtocolError(f"no widget keyed {key!r} on the page")
        widget = self.last.widgets()[key]
        self._states[widget.id] = widget_state(widget, value)

    async def change(self, key: str, value: Any) -> Run:
        """Set the widget keyed ``key`` of the last run to ``value`` and wait for the rerun.

        A widget drawn by a fragment (``st.fragment``) reruns that fragment alone, as in a
        browser; the run returned is the fragment's, or the page's when the fragment asked
        for one (``st.rerun()``).
        """
        if self.last is None:
            raise ProtocolError("change() before any page was opened")
        self.fill(key, value)
        home = self.last.widgets()[key].fragment_id
        return await self._rerun(page_hash=self._reader.page_hash, fragment_id=home)

    async def trigger(self, component_id: str, event: str, value: Any) -> None:
        """What a custom component's ``setTriggerValue(event, value)`` does in a browser: a
        rerun of the page carrying every widget's value and, once, the trigger.

        Parameters
        ----------
        component_id : str
            The component's element id (``bidi_component.id``).
        event, value
            The trigger's name and its JSON-able value.
        """
        state = WidgetState(id=_make_trigger_id(component_id, "events"))
        state.json_trigger_value = json.dumps([{"event": event, "value": value}])
        self._reader.start(time.perf_counter())
        await self._send(self._reader.page_hash, extra=(state,))

    async def wait_for(
        self,
        shows: Callable[[Run], bool],
        *,
        after: int = 0,
        fresh: bool = False,
        timeout: float | None = None,
    ) -> Run:
        """The first finished run that ``shows`` accepts.

        Parameters
        ----------
        shows : callable
            Takes a :class:`Run` (of the page or of a fragment), says whether it is the one.
        after : int, default 0
            Only runs of a page run numbered above this (:attr:`page_runs` before asking for
            a run: a run that had started before does not count).
        fresh : bool, default False
            Only runs that arrive after this call.
        timeout : float, optional
            Seconds to wait (default: the session's ``timeout``); then ``TimeoutError``.
        """
        since = self._received if fresh else -1
        return await asyncio.wait_for(self._first(shows, after, since), timeout or self.timeout)

    async def _first(self, shows: Callable[[Run], bool], after: int, since: int) -> Run:
        if self._arrived is None:
            raise ProtocolError("not connected")
        async with self._arrived:
            while True:
                for index, run in self._recent:
                    if index > since and run.number > after and shows(run):
                        return run
                if self._broken:
                    raise ProtocolError(self._broken)
                await self._arrived.wait()

    async def _rerun(
        self, *, page_hash: str = "", page_name: str = "", fragment_id: str = ""
    ) -> Run:
        """Ask for a run of the page (or of its fragment ``fragment_id``) and wait for the
        first run of the page that starts after (or the first that ran that fragment)."""
        if self._socket is None:
            raise ProtocolError("not connected")
        after, since = self._reader.starts, self._received
        started = time.perf_counter()
        self._reader.start(started)
        await self._send(page_hash, page_name, fragment_id=fragment_id)
        # A click is sent once; the value of every other widget stays until it changes.
        self._states = {i: s for i, s in self._states.items() if not s.HasField("trigger_value")}
        if fragment_id:
            run = await asyncio.wait_for(
                self._first(
                    lambda run: run.number > after or fragment_id in run.fragment_ids, -1, since
                ),
                self.timeout,
            )
        else:
            run = await self.wait_for(lambda run: run.whole_page, after=after)
        return replace(run, seconds=time.perf_counter() - started)

    async def _send(
        self,
        page_hash: str,
        page_name: str = "",
        *,
        fragment_id: str = "",
        auto: bool = False,
        extra: Iterable[WidgetState] = (),
    ) -> None:
        """Send a ``rerun_script`` as the frontend's ``sendRerunBackMsg`` builds it."""
        if self._socket is None:
            raise ProtocolError("not connected")
        current = self.last.widgets() if self.last is not None else {}
        live_ids = {w.id for w in current.values()}
        # A browser sends the values of the widgets it shows; ids of widgets gone are dropped.
        if page_name or page_hash != self._reader.page_hash:
            states = list(self._states.values())
        else:
            states = [s for i, s in self._states.items() if i in live_ids]
        if auto:  # a timer sends no click (the browser sent it once, with its own rerun)
            states = [s for s in states if not s.HasField("trigger_value")]
        states = [*states, *extra]
        self._reader.note("sent " + ("tick" if auto else "rerun"), "", fragment_id[:12])
        message = BackMsg()
        client = message.rerun_script
        client.query_string = self._reader.query
        client.page_script_hash = page_hash
        client.page_name = page_name
        client.fragment_id = fragment_id
        client.is_auto_rerun = auto
        client.widget_states.widgets.extend(states)
        client.cached_message_hashes.extend(self._reader.cache)
        client.context_info.url = f"{self.base_url}/{page_name}"
        client.context_info.timezone = "UTC"
        client.context_info.locale = "en-US"
        try:
            await self._socket.send(message.SerializeToString())
        except websockets.ConnectionClosed as closed:
            raise ProtocolError(f"connection closed: {closed}") from None

    async def _receive(self, socket: Any) -> None:
        """Read every message while the connection lasts: runs, page and query, timers."""
        try:
            async for raw in socket:
                run = self._reader.feed(raw)
                self._sync_timers()
                if run is None:
                    continue
                self.pages = self._reader.pages
                self.last = run
                if self.on_run is not None:
                    self.on_run(run)
                if self._arrived is not None:
                    async with self._arrived:
                        self._received += 1
                        self._recent.append((self._received, run))
                        self._arrived.notify_all()
            self._broken = "connection closed by the server"
            self.closures += 1
        except websockets.ConnectionClosed as closed:
            self._broken = f"connection closed: {closed}"
            self.closures += 1
        finally:
            if self._arrived is not None and self._broken:
                async with self._arrived:
                    self._arrived.notify_all()

    def _sync_timers(self) -> None:
        """Start a task for each timer the reader holds and stop the ones it dropped."""
        wanted = self._reader.timers
        for fragment_id, (timer, task) in list(self._timers.items()):
            if wanted.get(fragment_id) is not timer:
                task.cancel()
                del self._timers[fragment_id]
        for fragment_id, timer in wanted.items():
            if fragment_id not in self._timers:
                self._timers[fragment_id] = (timer, asyncio.create_task(self._tick(timer)))

    async def _tick(self, timer: AutoRerun) -> None:
        """The browser's ``setInterval``: a fragment rerun every ``interval`` seconds from when
        the timer was set, whether a run is going on or not."""
        began = time.monotonic()
        for beat in itertools.count(1):
            await asyncio.sleep(max(0.0, began + beat * timer.interval - time.monotonic()))
            try:
                await self._send(self._reader.page_hash, fragment_id=timer.fragment_id, auto=True)
            except ProtocolError:
                return
            self.auto_reruns += 1
