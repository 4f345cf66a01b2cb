"""A health check that tells a busy server from a dead one, answered off the event loop.

Why
---
Streamlit answers ``/_stcore/health`` on its event loop, the loop that also sends every
session's page. When a whole class reruns a heavy page at once, that loop has seconds of
pages to send before it reads the check, so a load balancer that waits a second for the
answer takes a busy server for a dead one: it sends the class elsewhere, where the same
happens (the measurements are in ``docs/deploying.md``).

So ``serve.py`` also answers ``GET /health`` on a port of its own
(``ARBORETUM_HEALTH_PORT``), from a thread that does nothing else: it answers within a few
switches of the interpreter's lock however busy the script threads and the event loop are.
A process that has exited answers nothing (the connection is refused at once), which is what
a dead server looks like. And since a live thread beside a stuck event loop would answer "ok"
for ever, the event loop beats a :class:`Heartbeat` every second and the check answers
``stalled`` (503) once the loop has not turned for :data:`STALL_LIMIT` seconds: far longer
than any burst keeps it busy, short enough for a probe to restart a server that is stuck.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

#: The variable that names the check's port; unset, the server answers no check of its own.
HEALTH_PORT_VARIABLE = "ARBORETUM_HEALTH_PORT"
HEALTH_PATH = "/health"
#: Seconds the event loop may go without turning before the server counts as stuck.
STALL_LIMIT = 30.0
#: Seconds between two beats of the event loop.
BEAT_EVERY = 1.0


@dataclass
class Heartbeat:
    """When the event loop last turned, as the check's thread reads it.

    Attributes
    ----------
    clock : callable, default time.monotonic
        Seconds, for the beats and the check alike.
    last : float
        The clock at the last beat (at creation before the first).
    """

    clock: Callable[[], float] = time.monotonic
    last: float = field(default=0.0)

    def __post_init__(self) -> None:
        self.last = self.clock()

    def beat(self) -> None:
        self.last = self.clock()

    def stalled(self, limit: float = STALL_LIMIT) -> bool:
        """Whether more than ``limit`` seconds have gone by since the last beat."""
        return self.clock() - self.last > limit


async def keep_beating(heart: Heartbeat, every: float = BEAT_EVERY) -> None:
    """Beat ``heart`` every ``every`` seconds for as long as the event loop runs this task."""
    while True:
        heart.beat()
        await asyncio.sleep(every)


def health_port(environ: dict[str, str] | os._Environ[str] = os.environ) -> int | None:
    """The check's port from ``ARBORETUM_HEALTH_PORT``, or None when unset or empty.

    Raises
    ------
    ValueError
        If the variable is set to something other than a port number (1 to 65535).
    """
    text = environ.get(HEALTH_PORT_VARIABLE, "").strip()
    if not text:
        return None
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise ValueError(f"{HEALTH_PORT_VARIABLE} must be a port from 1 to 65535; got {text!r}")
    return int(text)


def check_server(
    address: str, port: int, heart: Heartbeat, limit: float = STALL_LIMIT
) -> ThreadingHTTPServer:
    """An HTTP server (not yet serving) that answers ``GET /health`` from ``heart``.

    Parameters
    ----------
    address : str
        The interface to listen on (``""``: every one, as a container's probe needs).
    port : int
        Its port (0: any free one, read back from ``server_address``).
    heart : Heartbeat
        Beaten by the event loop the check vouches for.
    limit : float, default STALL_LIMIT
        Seconds without a beat after which the answer is ``stalled``.

    Returns
    -------
    ThreadingHTTPServer
        Answers ``ok`` (200) or ``stalled`` (503) at ``/health``, 404 elsewhere.
    """

    class Check(BaseHTTPRequestHandler):
        timeout = 5.0  # a client that sends nothing holds one thread this long at most

        def do_GET(self) -> None:
            if self.path.split("?", 1)[0] != HEALTH_PATH:
                status, body = 404, b"not found"
            elif heart.stalled(limit):
                status, body = 503, b"stalled"
            else:
                status, body = 200, b"ok"
            self.send_response(status)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            """Silent: a check every second would fill the server's log."""

    server = ThreadingHTTPServer((address, port), Check)
    server.daemon_threads = True
    return server


@contextlib.asynccontextmanager
async def health_check(
    port: int | None, address: str = "", limit: float = STALL_LIMIT
) -> AsyncIterator[ThreadingHTTPServer | None]:
    """Answer the check on ``port`` while the block runs, beating the running event loop.

    Parameters
    ----------
    port : int or None
        The check's port (:func:`health_port`); None answers nothing and yields None.
    address : str, default ""
        The interface to listen on.
    limit : float, default STALL_LIMIT
        Seconds without a beat after which the answer is ``stalled``.

    Yields
    ------
    ThreadingHTTPServer or None
        The check's server, serving on a thread of its own.
    """
    if port is None:
        yield None
        return
    heart = Heartbeat()
    beating = asyncio.create_task(keep_beating(heart))
    server = check_server(address, port, heart, limit)
    thread = threading.Thread(target=server.serve_forever, name="health-check", daemon=True)
    thread.start()
    try:
        yield server
    finally:
        beating.cancel()
        await asyncio.to_thread(server.shutdown)  # waits for its loop's next turn
        server.server_close()


__all__ = [
    "HEALTH_PATH",
    "HEALTH_PORT_VARIABLE",
    "STALL_LIMIT",
    "Heartbeat",
    "check_server",
    "health_check",
    "health_port",
    "keep_beating",
]
