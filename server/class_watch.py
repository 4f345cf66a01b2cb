"""The held checks of :mod:`server.class_check`: wait for a class to move, and wake them all.

A follower's check that names the version its page shows is held until the class moves. One
task per class on this server reads the class's version while any of its checks waits, and
answers them all at once when it moved. It reads when the class's code is announced on the
store (:meth:`core.classroom.Classroom.on_move`: the teacher's change, on any server of the
store), and every :data:`FRESH` seconds whatever is heard: an announcement is lost when the
store's connection breaks, a read never is.

Without the announcement a class heard of a move :data:`FRESH` / 2 seconds late on average,
and a twentieth of its students :data:`FRESH` late (``classroom_load``'s "heard of each move").
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from starlette.types import Receive

from core.classroom import Classroom

#: Seconds a version read from the store answers the checks of the whole class; also how often
#: a replica reads the version of a class whose students wait for it to move, announced or not.
FRESH = 0.25

#: Reads the answer for a class (status and version) from the store.
Read = Callable[[str], Awaitable[tuple[int, int | None]]]


@dataclass
class _Watch:
    """The checks of one class waiting on one server for its version to move."""

    status: int
    version: int | None
    moved: asyncio.Event = field(default_factory=asyncio.Event)
    heard: asyncio.Event = field(default_factory=asyncio.Event)  # its code was announced
    waiting: int = 0


class Watches:
    """The classes whose checks wait on this server, each read by one task.

    Parameters
    ----------
    classroom : callable
        Returns the server's classes, whose store announces their moves.
    read : callable
        ``await read(code)``: the class's status and version from the store, on a worker
        thread (:meth:`server.class_check.ClassCheck._from_store`, which also keeps it fresh).
    forget : callable
        ``forget(code)``: drop this server's fresh read of class ``code``, which an
        announcement makes stale.
    """

    def __init__(
        self, classroom: Callable[[], Classroom], read: Read, forget: Callable[[str], None]
    ) -> None:
        self.classroom = classroom
        self.read = read
        self.forget = forget
        self.by_code: dict[str, _Watch] = {}
        self._loop: asyncio.AbstractEventLoop | None = None

    async def until_moved(
        self, code: str, status: int, version: int | None, receive: Receive, wait: float
    ) -> tuple[int, int | None]:
        """Wait until class ``code`` is no longer at ``version``, the client leaves, or
        ``wait`` seconds pass; then the class's status and version."""
        self._listen()
        watch = self.by_code.get(code)
        if watch is None:
            watch = self.by_code[code] = _Watch(status, version)
            asyncio.get_running_loop().create_task(self._follow(code, watch))
        watch.waiting += 1
        moved = asyncio.ensure_future(watch.moved.wait())
        gone = asyncio.ensure_future(receive())
        try:
            await asyncio.wait({moved, gone}, timeout=wait, return_when=asyncio.FIRST_COMPLETED)
        finally:
            watch.waiting -= 1
            moved.cancel()
            gone.cancel()
        return watch.status, watch.version

    def _listen(self) -> None:
        """From the first held check on: hear the store's announcements of moves."""
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
            self.classroom().on_move(self._announced)

    def _announced(self, code: str) -> None:
        """On the store's thread: hand the announcement to the event loop (never past its
        close, when the server stops)."""
        if self._loop is not None:
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self._wake, code)

    def _wake(self, code: str) -> None:
        self.forget(code)
        watch = self.by_code.get(code)
        if watch is not None:
            watch.heard.set()

    async def _follow(self, code: str, watch: _Watch) -> None:
        """Read class ``code`` when it is announced, or after :data:`FRESH` seconds, while
        checks wait for it; wake them when it moved."""
        try:
            while True:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(watch.heard.wait(), FRESH)
                watch.heard.clear()
                if watch.waiting == 0:
                    return
                status, version = await self.read(code)
                if (status, version) != (watch.status, watch.version):
                    watch.status, watch.version = status, version
                    watch.moved.set()
                    watch.moved = asyncio.Event()
        finally:
            del self.by_code[code]


__all__ = ["FRESH", "Watches"]
