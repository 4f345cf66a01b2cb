"""What one run of a page shows, read from Streamlit's ``ForwardMsg`` messages as the browser
reads them: the message cache (a later ``ref_hash`` names a message seen before), the page and
query string the server writes, the elements on screen (a fragment run redraws only its part),
the fragment timers the server sets (``auto_rerun``). Used by :mod:`.st_client`'s session.
"""

from __future__ import annotations

import itertools
import time
from collections import Counter, deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from streamlit.proto.Element_pb2 import Element
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from classroom_load.st_widgets import (
    TEXT_KINDS,
    WIDGET_KINDS,
    Widget,
    widget_key,
)

ENDED = (
    ForwardMsg.FINISHED_SUCCESSFULLY,
    ForwardMsg.FINISHED_WITH_COMPILE_ERROR,
    ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY,
)


class ProtocolError(RuntimeError):
    """The server closed the connection or sent something a browser would not expect."""


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
    folded : tuple of str
        The fragments of runs that began before this one and were never told to end: the
        server started this run at once after them (a click's fragment run met by a timer's),
        and what they drew is among ``elements``.
    """

    page_hash: str
    elements: tuple[Element, ...]
    seconds: float
    status: int
    fragment_ids: tuple[str, ...] = ()
    query: str = ""
    number: int = 0
    homes: tuple[str, ...] = ()
    folded: tuple[str, ...] = ()

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
    _open: bool = False  # a run began and was not told to end yet
    _folded: tuple[str, ...] = ()
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
        elif kind == "script_finished" and message.script_finished in ENDED:
            return self._finish(int(message.script_finished), message.metadata.run)
        elif (
            kind == "script_finished"
            and message.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN
        ):
            self.stopped_early["fragment" if self._fragment_ids else "page"] += 1
            self._open = False
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
        # A fragment run whose last run was never told to end carries on from what that one
        # drew, as the browser keeps it on screen (see :attr:`Run.folded`).
        folding = self._open and bool(self._fragment_ids)
        if folding:
            self._folded += self._fragment_ids
        self._open = True
        self._fragment_ids = tuple(message.metadata.run.fragment_ids)
        self._run_id = message.metadata.run.script_run_id
        if self._fragment_ids:
            if not folding:  # its part of the page redrawn over the last finished run
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
        folded, self._folded, self._open = self._folded, (), False
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
            folded,
        )
