"""What a following student's page script does, for the simulated students of the class bench.

A student's sidebar holds ``core/ui/classroom/class_check.js``: it asks
``GET /api/class/CODE?seen=V``
(``server/class_check.py``) over the browser's kept-alive HTTP connection, with the browser's
cookies (the load balancer's affinity cookie among them), where ``V`` is the version it knows;
the server holds the question until the class moves or a few seconds pass, and the script asks
again (two questions at least ``every`` ms apart). While the answer is the version the page last
acted on (``seen``), nothing else happens. When it differs, the script sends the component's
trigger ``moved`` (a rerun of the page); if the page has not acted on that version ``retry`` ms
later, it sends it again, then waits twice as long before each further trigger, at most
``retry_max`` ms, each wait drawn within a fifth either side (:func:`retry_after`). Every question
carries the seat (``?seat=``), which the server signed.

:class:`PageCheck` does the same for one :class:`classroom_load.st_client.StudentSession`: feed it
every finished run (:meth:`PageCheck.saw`); it starts when a run draws the script and stops when a
run of the whole page no longer does.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from classroom_load.http_client import HttpConnection
from classroom_load.st_client import StudentSession
from classroom_load.st_reader import ProtocolError, Run

#: The component's name (``core.ui.classroom.follow``).
COMPONENT = "arboretum_class_check"


def drawn_check(run: Run) -> tuple[str, dict[str, Any]] | None:
    """The check script ``run`` shows: its element id and its data, or None."""
    for element in run.elements:
        if element.WhichOneof("type") != "bidi_component":
            continue
        component = element.bidi_component
        if component.component_name == COMPONENT:
            return str(component.id), json.loads(component.json)
    return None


def retry_after(data: dict[str, Any], retries: int, rng: random.Random) -> float:
    """Seconds before the script asks again for a run of the version it asked ``retries + 1``
    times already: ``retry`` ms doubled at each further ask, at most ``retry_max``, within a
    fifth either side (the script's ``retryAfter``)."""
    wait = min(float(data["retry"]) * 2**retries, float(data["retry_max"]))
    return wait * rng.uniform(0.8, 1.2) / 1000


class Http:
    """The browser's kept-alive connection for the script's questions
    (:class:`classroom_load.http_client.HttpConnection`, bodies kept), with a timeout, and opened
    again once when it broke."""

    def __init__(self, base_url: str, timeout: float) -> None:
        self.connection = HttpConnection(base_url)
        self.timeout = timeout

    async def get(self, path: str, cookies: dict[str, str]) -> tuple[int, bytes]:
        """``GET path``: the status and the body; a broken connection is opened again once."""
        for attempt in (1, 2):
            try:
                answer = await asyncio.wait_for(
                    self.connection.get(path, cookies, keep_body=True), self.timeout
                )
                return answer.status, answer.body
            except (OSError, ProtocolError):  # a timeout is an OSError
                await self.connection.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def close(self) -> None:
        await self.connection.close()


@dataclass
class PageCheck:
    """The check script of one simulated student's page.

    Attributes
    ----------
    checks : int
        HTTP checks answered.
    asked : int
        Runs of the page asked for (triggers sent).
    asked_at : list of float
        When (``time.monotonic``) each run was asked for: the class bench splits a follower's
        latency into hearing of the move and the page's run.
    failed : int
        Checks that got no answer (the next one asks again, as the script does).
    unavailable : int
        Checks answered 503 (a load balancer with no replica to send them to, or a server
        without its store).
    paused : bool
        While true the script skips its checks (the benchmark's window of students who sit
        there without checking, the baseline of what the checks cost).
    rng : random.Random
        Draws the spread of each wait before asking again (the script's ``Math.random``).
    """

    session: StudentSession
    timeout: float = 30.0
    checks: int = 0
    asked: int = 0
    asked_at: list[float] = field(default_factory=list)
    failed: int = 0
    unavailable: int = 0
    paused: bool = False
    rng: random.Random = field(default_factory=random.Random)
    _data: dict[str, Any] = field(default_factory=dict)
    _element: str = ""
    _task: asyncio.Task[None] | None = None
    _asked: tuple[Any, float] = (None, 0.0)  # the version asked for, when to ask again
    _retries: int = 0
    _known: Any = "unknown"

    def saw(self, run: Run) -> None:
        """A run finished: start, update or stop the script as the page now draws it."""
        drawn = drawn_check(run)
        if drawn is None:
            if run.whole_page:
                self.stop()
            return
        self._element, self._data = drawn
        if self._task is None:
            self._task = asyncio.create_task(self._loop(float(self._data["every"]) / 1000))

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def _loop(self, every: float) -> None:
        http = Http(self.session.base_url, self.timeout)
        retry = asyncio.create_task(self._retry(every))
        try:
            while True:
                began = time.monotonic()
                if not self.paused:
                    await self._ask(http)
                await asyncio.sleep(max(0.0, began + every - time.monotonic()))
        finally:
            retry.cancel()
            await http.close()

    async def _retry(self, every: float) -> None:
        """The script's timer: a run asked for and lost is asked for again."""
        while True:
            await asyncio.sleep(every)
            await self._consider()

    async def _ask(self, http: Http) -> None:
        data = self._data
        known = data["seen"] if self._known == "unknown" else self._known
        query = {"seen": str(known)} if isinstance(known, int) else {}
        query["seat"] = str(data["seat"])
        path = str(data["url"]) + ("?" + urlencode(query) if query else "")
        try:
            status, body = await http.get(path, self.session.cookies)
        except (OSError, ProtocolError):
            self.failed += 1
            return
        self.checks += 1
        self.unavailable += status == 503
        self._known = json.loads(body).get("version") if status == 200 else "down"
        await self._consider()

    async def _consider(self) -> None:
        version, now = self._known, time.monotonic()
        if version == "unknown" or version == self._data["seen"]:
            return
        asked_version, again_at = self._asked
        if asked_version == version and now < again_at:
            return
        self._retries = self._retries + 1 if asked_version == version else 0
        self._asked = (version, now + retry_after(self._data, self._retries, self.rng))
        self.asked += 1
        self.asked_at.append(now)
        with contextlib.suppress(Exception):  # a closed socket: the session reconnects
            await self.session.trigger(
                self._element, "moved", {"version": version, "serial": self.asked}
            )
