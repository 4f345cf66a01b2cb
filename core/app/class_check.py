"""The followers' check, over plain HTTP: ``GET /api/class/CODE`` answers the class's version.

A student's page asks this every :data:`CHECK_EVERY` seconds from a small script in its sidebar
(``core.ui.class_panel``). While the version stays the one the page last acted on, the answer
is all that happens: a few bytes back, with no Streamlit run, no session and nothing drawn.
The server reads a class's version from the store at most once per :data:`FRESH` seconds
whatever the class's size, and answers the other checks from that read. When the version
moved, the script asks the page for one run, which opens the teacher's view
(``class_panel._check``).

The route is served when the app is started through ``serve.py`` (``st.App``, Streamlit's
own way of adding routes); a process started from ``app.py`` alone has none, and its followers
check with a fragment on a timer instead, which costs a Streamlit run each time.

Answers (JSON, never cached by a browser or a proxy):

- ``200 {"version": 7}``: the class's version now.
- ``200 {"version": null}``: no such class (ended, expired, or never started).
- ``503 {"version": null, "down": true}``: the store cannot be reached.

``?seat=TOKEN`` also checks that seat in (it counts as present, see
:meth:`core.app.classroom.Classroom.check_in`); the script adds it every
:data:`core.app.classroom.CHECK_IN_EVERY` seconds.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

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


def routes(
    classroom: Callable[[], Classroom], clock: Callable[[], float] = time.monotonic
) -> list[Route]:
    """The check's route, reading the classes ``classroom()`` returns (the app's own).

    A check with a fresh read of its class (:data:`FRESH`) is answered on the server's event
    loop at once. Otherwise the store is read on a worker thread, so that a slow store (Redis
    waits up to its timeout) never holds up the server's other work; a check-in (``?seat=``)
    always writes.
    """
    fresh: dict[str, tuple[float, int | None]] = {}

    def reply(status: int, version: int | None) -> JSONResponse:
        body: dict[str, object] = {"version": version}
        if status == 503:
            body["down"] = True
        return JSONResponse(body, status_code=status, headers=_NO_STORE)

    async def check(request: Request) -> JSONResponse:
        code = str(request.path_params["code"])
        seat = request.query_params.get("seat")
        now = clock()
        read = fresh.get(code)
        if seat is None and read is not None and now - read[0] < FRESH:
            return reply(200, read[1])
        status, version = await run_in_threadpool(answer, classroom(), code, seat)
        if status == 200 and _CODE.fullmatch(code):
            if len(fresh) >= MOST_CLASSES:
                fresh.clear()
            fresh[code] = (now, version)
        return reply(status, version)

    _served.append(True)
    return [Route(PATH, check, methods=["GET"])]


__all__ = ["CHECK_EVERY", "FRESH", "PATH", "answer", "check_path", "routes", "served"]
