"""The followers' check, over plain HTTP: ``GET /api/class/CODE`` answers the class's version.

A student's page asks this every :data:`CHECK_EVERY` seconds from a small script in its sidebar
(``core.ui.class_panel``). While the version stays the one the page last acted on, the answer
is all that happens: a few bytes back, with no Streamlit run, no session and nothing drawn.
The server reads a class's version from the store at most once per :data:`FRESH` seconds
whatever the class's size, and answers the other checks from that read. When the version
moved, the script asks the page for one run, which opens the teacher's view
(``class_panel._check``).

The check is served when the app is started through ``serve.py`` (``st.App``, Streamlit's own
way of adding to its server, here as ASGI middleware: :class:`ClassCheck`); a process started
from ``app.py`` alone has none, and its followers check with a fragment on a timer instead,
which costs a Streamlit run each time.

Answers (JSON, never cached by a browser or a proxy):

- ``200 {"version": 7}``: the class's version now.
- ``200 {"version": null}``: no such class (ended, expired, or never started).
- ``503 {"version": null, "down": true}``: the store cannot be reached.

``?seat=TOKEN`` also checks that seat in (it counts as present, see
:meth:`core.app.classroom.Classroom.check_in`); the script adds it every
:data:`core.app.classroom.CHECK_IN_EVERY` seconds.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from urllib.parse import parse_qs

from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.types import ASGIApp, Receive, Scope, Send

from core.app.classroom import ALPHABET, CODE_LENGTH, Classroom
from core.app.store import StoreDown

#: The route's path; ``{code}`` is a class code.
PATH = "/api/class/{code}"
#: Seconds between a follower's checks: a teacher's change reaches the page within this, plus
#: the page's own run.
CHECK_EVERY = 1.0
#: Seconds a version read from the store answers the checks of the whole class.
FRESH = 0.25
#: Classes whose last read is kept; beyond it the reads are forgotten (a hostile client that
#: asks for many codes costs memory no more than this).
MOST_CLASSES = 1000

_PREFIX = PATH.removesuffix("{code}")
_CODE = re.compile(f"[{ALPHABET}]{{{CODE_LENGTH}}}")
_SEAT = re.compile(r"[A-Za-z0-9_-]{8,64}")
_NO_STORE = {"Cache-Control": "no-store"}

_served: list[bool] = []


def served() -> bool:
    """Whether this process serves the check's route (the app was started by ``serve.py``)."""
    return bool(_served)


def check_path(code: str) -> str:
    """The check's URL path for class ``code``."""
    return PATH.replace("{code}", code)


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
        if version is not None and seat is not None and _SEAT.fullmatch(seat):
            room.check_in(code, seat)
    except StoreDown:
        return 503, None
    return 200, version


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

    A check with a fresh read of its class is answered on the server's event loop at once.
    Otherwise the store is read on a worker thread, so that a slow store (Redis waits up to
    its timeout) never holds up the server's other work; a check-in (``?seat=``) always
    writes.
    """

    def __init__(
        self,
        app: ASGIApp,
        classroom: Callable[[], Classroom],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.app = app
        self.classroom = classroom
        self.clock = clock
        self.fresh: dict[str, tuple[float, int | None]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if not path.startswith(_PREFIX):
            await self.app(scope, receive, send)
            return
        if scope["method"] != "GET":
            await _reply(send, 405, b'{"error": "GET only"}')
            return
        code = path[len(_PREFIX) :]
        seat = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("seat", [None])[0]
        status, version = await self.read(code, seat)
        body = {"version": version, **({"down": True} if status == 503 else {})}
        await _reply(send, status, json.dumps(body).encode())

    async def read(self, code: str, seat: str | None) -> tuple[int, int | None]:
        """The answer for class ``code`` (see :func:`answer`), from a fresh read if one is kept."""
        now = self.clock()
        kept = self.fresh.get(code)
        if seat is None and kept is not None and now - kept[0] < FRESH:
            return 200, kept[1]
        status, version = await run_in_threadpool(answer, self.classroom(), code, seat)
        if status == 200 and _CODE.fullmatch(code):
            if len(self.fresh) >= MOST_CLASSES:
                self.fresh.clear()
            self.fresh[code] = (now, version)
        return status, version


def check_middleware(classroom: Callable[[], Classroom]) -> Middleware:
    """:class:`ClassCheck` over the classes ``classroom()`` returns, for ``st.App``'s
    ``middleware``; from now on this process serves the check (:func:`served`)."""
    _served.append(True)
    return Middleware(ClassCheck, classroom=classroom)


async def _reply(send: Send, status: int, body: bytes) -> None:
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store"),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


__all__ = [
    "CHECK_EVERY",
    "FRESH",
    "PATH",
    "ClassCheck",
    "answer",
    "check_middleware",
    "check_path",
    "served",
]
