"""The followers' check, over plain HTTP: ``GET /api/class/CODE`` answers the class's version.

A student's page asks this from a small script in its sidebar
(``core/ui/classroom/class_check.js``), naming the version it knows: ``?seen=7``. If the class
is still there, the server holds the question until the class moves or :data:`WAIT` seconds
pass, then answers; the script asks again at once (at most one question per
:data:`~core.classroom.check.CHECK_EVERY` seconds). A question is all that happens: a few bytes
back, with no Streamlit run, no session and nothing drawn. The server reads a class's version
from the store at most once per :data:`FRESH` seconds whatever the class's size, and answers
every question from that read; a held question is answered as soon as the class's move is
announced (:mod:`server.class_watch`), on whichever server the teacher's page runs. When the
version differs from the one the page last acted on, the script asks the page for one run,
which opens the teacher's view (``core.ui.classroom.follow``).

The check is served when the app is started through ``serve.py`` (``st.App``, Streamlit's own
way of adding to its server, here as ASGI middleware: :class:`ClassCheck`); a process started
from ``app.py`` alone has none, and its followers check with a fragment on a timer instead,
which costs a Streamlit run each time.

Answers (JSON, never cached by a browser or a proxy):

- ``200 {"version": 7}``: the class's version now.
- ``200 {"version": null}``: no such class (ended, expired, or never started: the same answer,
  by the same path, so a wrong code cannot be told from an ended class).
- ``429 {"version": null, "wait": 42}``: too many guesses, see below; ask again after ``wait``
  seconds (also in ``Retry-After``).
- ``503 {"version": null, "down": true}``: the store cannot be reached.

``?seat=TOKEN`` names the asking student's seat, which the server signed when the student joined
(:mod:`core.classroom.seats`). A question with a seat of its class is a member's: it is never
limited, and it checks the seat in (it counts as present, see
:meth:`core.classroom.Classroom.check_in`) at most once per
:data:`core.classroom.CHECK_IN_EVERY` seconds on this server, unless it says ``?present=0``:
the teacher's page asks too, to learn at once when the store goes down, and is no student.
Any other question is a guess as far as the server can tell (:mod:`core.classroom.limits`): it
counts against its class code's limit, and when it names no class, against its client
address's misses; an address out of misses is answered 429 on every code until its window
ends. A made-up seat is no seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from collections.abc import Callable
from urllib.parse import parse_qs

from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.types import ASGIApp, Receive, Scope, Send

from core.classroom import ALPHABET, CHECK_IN_EVERY, CODE_LENGTH, Classroom
from core.classroom.check import PATH, serve
from core.classroom.limits import client_address
from core.classroom.store import StoreDown
from server.class_watch import FRESH, Watches
from server.in_flight import joined

#: Seconds a check that names the version its page shows (``?seen=``) waits for the class to
#: move before it answers "nothing new". Under the 10 s a server is given to stop (waiting
#: checks hold its shutdown), and far under any proxy's timeout (HAProxy's is 60 s).
WAIT = 8.0
#: Classes whose last read is kept; beyond it the reads are forgotten (a hostile client that
#: asks for many codes costs memory no more than this).
MOST_CLASSES = 1000
#: Seats whose last check-in on this server is kept (beyond it they are forgotten, and check in
#: again at their next question).
MOST_SEATS = 10_000

_PREFIX = PATH.removesuffix("{code}")
_CODE = re.compile(f"[{ALPHABET}]{{{CODE_LENGTH}}}")
_SEAT = re.compile(r"[A-Za-z0-9_-]{8,64}")


def answer(room: Classroom, code: str, seat: str | None = None) -> tuple[int, int | None]:
    """What the check answers for class ``code``: the HTTP status and the class's version.

    Parameters
    ----------
    room : Classroom
        The server's classes.
    code : str
        The class code from the path; anything that is not a code reads as no class.
    seat : str or None
        A seat token to check in, or None. A malformed token is ignored.

    Returns
    -------
    tuple of (int, int or None)
        ``(200, version)``, ``(200, None)`` for no such class, ``(503, None)`` when the store
        cannot be reached.
    """
    if not _CODE.fullmatch(code):
        return 200, None
    try:
        version = room.version(code)
        if version is not None and seat is not None and member(room, code, seat):
            room.check_in(code, seat)
    except StoreDown:
        return 503, None
    return 200, version


def member(room: Classroom, code: str, seat: str) -> bool:
    """Whether ``seat`` is a seat the servers gave in class ``code`` (a malformed one is not).

    Raises
    ------
    StoreDown
        When the signing key must be read and the store cannot be reached.
    """
    return _SEAT.fullmatch(seat) is not None and room.seated(code, seat)


def guard(room: Classroom, code: str, address: str) -> int | None:
    """The status refusing a question without a seat of class ``code`` from ``address``, or
    None when it may be answered: 429 once the address is out of misses or the code out of
    seatless checks (this question counts), 503 when the store cannot be reached."""
    try:
        if room.limits.blocked(address) or not room.limits.seatless(code):
            return 429
    except StoreDown:
        return 503
    return None


def check_in(room: Classroom, code: str, seat: str) -> None:
    """A member's seat is present (a store down forgets it: the next question tries again)."""
    with contextlib.suppress(StoreDown):
        room.check_in(code, seat)


def missed(room: Classroom, address: str) -> None:
    """``address`` asked about a code that names no class (a store down forgets it)."""
    with contextlib.suppress(StoreDown):
        room.limits.missed(address)


class ClassCheck:
    """The check as ASGI middleware in front of Streamlit's server: a ``GET`` of :data:`PATH`
    is answered here, before Streamlit's own middleware (path checks, signed session cookies,
    compression) and routing, which a few bytes of JSON do not need; every other request
    passes through untouched.

    Parameters
    ----------
    app : ASGI application
        What serves everything else (Streamlit).
    classroom : callable
        Returns the server's classes (the pages' own).
    clock : callable, default ``time.monotonic``
        Seconds, for :data:`FRESH`.
    wait : float, default :data:`WAIT`
        Seconds a check that names the version its page shows waits for a change.

    A question without a seat of its class first passes the guessing limits (:func:`guard`).
    A check with a fresh read of its class is answered from it; otherwise the store is read on
    a worker thread, so that a slow store (Redis waits up to its timeout) never holds up the
    server's other work, and checks that arrive while that read is on its way wait for it
    instead of reading again (a class that opens its pages together costs one read, not one
    per student), and a member's check-in is a write after the answer, at most one per seat every
    :data:`~core.classroom.CHECK_IN_EVERY` seconds. A check that says which version
    its page shows (``?seen=7``) and finds it current is held, for at most ``wait`` seconds,
    until the class moves (:class:`server.class_watch.Watches`: read when the move is
    announced, and every :data:`FRESH` seconds). So a class that nobody changes costs a check
    per student every ``wait`` seconds, not every second.
    """

    def __init__(
        self,
        app: ASGIApp,
        classroom: Callable[[], Classroom],
        clock: Callable[[], float] = time.monotonic,
        wait: float = WAIT,
    ) -> None:
        self.app = app
        self.classroom = classroom
        self.clock = clock
        self.wait = wait
        self.fresh: dict[str, tuple[float, int | None]] = {}
        self.reading: dict[str, asyncio.Future[tuple[int, int | None]]] = {}
        self.watches = Watches(classroom, self._from_store, self._forget)
        self.checked_in: dict[str, float] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if not path.startswith(_PREFIX):
            await self.app(scope, receive, send)
            return
        if scope["method"] != "GET":
            await _reply(send, 405, b'{"error": "GET only"}')
            return
        code = path[len(_PREFIX) :]
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        seat = query.get("seat", [None])[0]
        seen = query.get("seen", [""])[0]
        room = self.classroom()
        guessing = _CODE.fullmatch(code) is not None and not await self.member(room, code, seat)
        address = _address(scope) if guessing else ""
        if guessing:
            refused = await run_in_threadpool(guard, room, code, address)
            if refused is not None:
                await _refuse(send, refused, room.limits.wait())
                return
        status, version = await self.read(code)
        if guessing and status == 200 and version is None:
            await run_in_threadpool(missed, room, address)
        counted = query.get("present", [""])[0] != "0"  # the teacher's page: not a student
        due = (
            self.due(seat)
            if counted and not guessing and status == 200 and version is not None
            else None
        )
        if status == 200 and version is not None and seen == str(version):
            await receive()  # the request's (empty) body; the next receive is a disconnect
            status, version = await self.watches.until_moved(
                code, status, version, receive, self.wait
            )
        body = {"version": version, **({"down": True} if status == 503 else {})}
        await _reply(send, status, json.dumps(body).encode())
        if due is not None:  # after the answer: a student's check never waits for the write
            await run_in_threadpool(check_in, room, code, due)

    async def member(self, room: Classroom, code: str, seat: str | None) -> bool:
        """Whether ``seat`` is a seat of class ``code`` (see :func:`member`); the signing key
        is read on a worker thread when this server must read it again."""
        if seat is None:
            return False
        try:
            if room.seats.fresh():
                return member(room, code, seat)
            return await run_in_threadpool(member, room, code, seat)
        except StoreDown:
            return False

    def due(self, seat: str | None) -> str | None:
        """``seat`` when it must check in now (its last check-in on this server is
        :data:`~core.classroom.CHECK_IN_EVERY` seconds old), else None."""
        if seat is None:
            return None
        now, last = self.clock(), self.checked_in.get(seat)
        if last is not None and now - last < CHECK_IN_EVERY:
            return None
        if len(self.checked_in) >= MOST_SEATS:
            self.checked_in.clear()
        self.checked_in[seat] = now
        return seat

    async def read(self, code: str) -> tuple[int, int | None]:
        """The answer for class ``code`` (see :func:`answer`), from a fresh read if one is kept."""
        kept = self.fresh.get(code)
        if kept is not None and self.clock() - kept[0] < FRESH:
            return 200, kept[1]
        return await joined(self.reading, code, lambda: self._from_store(code))

    async def _from_store(self, code: str) -> tuple[int, int | None]:
        """The answer for class ``code`` read from the store on a worker thread, and kept as
        the fresh read of a real code."""
        now = self.clock()
        status, version = await run_in_threadpool(answer, self.classroom(), code)
        if status == 200 and _CODE.fullmatch(code):
            if len(self.fresh) >= MOST_CLASSES:
                self.fresh.clear()
            self.fresh[code] = (now, version)
        return status, version

    def _forget(self, code: str) -> None:
        """The fresh read of class ``code`` is stale: the class was announced to have moved."""
        self.fresh.pop(code, None)


def check_middleware(classroom: Callable[[], Classroom]) -> Middleware:
    """:class:`ClassCheck` over the classes ``classroom()`` returns, for ``st.App``'s
    ``middleware``; from now on this process serves the check
    (:func:`core.classroom.check.served`)."""
    serve()
    return Middleware(ClassCheck, classroom=classroom)


def _address(scope: Scope) -> str:
    """The asking client's address, by :func:`core.classroom.limits.client_address`."""
    client = scope.get("client")
    forwarded = [
        value.decode("latin-1")
        for name, value in scope.get("headers", [])
        if name.lower() == b"x-forwarded-for"
    ]
    return client_address(client[0] if client else None, ", ".join(forwarded) or None)


async def _refuse(send: Send, status: int, wait: float) -> None:
    """No answer for now: 429 with the seconds to wait, or 503 when the store is down."""
    if status == 503:
        await _reply(send, 503, b'{"version": null, "down": true}')
        return
    seconds = str(max(1, round(wait)))
    body = json.dumps({"version": None, "wait": int(seconds)}).encode()
    await _reply(send, 429, body, [(b"retry-after", seconds.encode())])


async def _reply(
    send: Send, status: int, body: bytes, extra: list[tuple[bytes, bytes]] | None = None
) -> None:
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store"),
        *(extra or []),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


__all__ = [
    "FRESH",
    "MOST_SEATS",
    "WAIT",
    "ClassCheck",
    "answer",
    "check_middleware",
    "guard",
    "member",
]
