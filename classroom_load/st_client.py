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
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urlencode

import websockets
from streamlit.components.v2.bidi_component.main import _make_trigger_id
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

from classroom_load.st_reader import AutoRerun, ProtocolError, Run, RunReader
from classroom_load.st_widgets import (
    shown_value,
    widget_state,
)


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
                    lambda run: (
                        run.number > after or fragment_id in (*run.fragment_ids, *run.folded)
                    ),
                    -1,
                    since,
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
