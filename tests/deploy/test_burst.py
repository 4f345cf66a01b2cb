"""A whole class reruns a heavy page at once: the replica is busy, not dead, and HAProxy knows it.

Forty sessions (the protocol client of ``classroom_load``, which speaks Streamlit's websocket
protocol as the browser does) open the Random forest page through HAProxy on one replica, then
all move the seed at once, twice: every move is a new forest and new figures for every session,
so the replica's event loop has seconds of pages to send. Streamlit's ``/_stcore/health``, on
that loop, then answered seconds late; HAProxy, which waited a second, took the replica for
dead, answered 503 and closed every websocket on it. The check HAProxy asks now is the
replica's own (``server/health.py``), answered off the loop, with room for a burst.

With the previous configuration (``/_stcore/health``, a one-second timeout, two failures,
``on-marked-down shutdown-sessions``) this test failed: the replica was marked down ("Layer7
timeout, check duration: 1002ms", 39 sessions active) while the class was still opening the page,
and HAProxy closed the sessions. One replica keeps the test short (one server to start); the
``launcher`` fixture marks it ``live``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from launched import Launched

from classroom_load.st_client import StudentSession

SESSIONS = 40
MOVES = 2
PAGE = "Random_forest"
# A move of forty sessions on one busy replica: far longer than a move takes, short of a hang.
RUN_TIMEOUT = 300.0


@dataclass(frozen=True)
class Burst:
    """What the sessions saw: why any was closed, the moves that failed, the seeds shown."""

    closed: list[str]
    failures: list[BaseException]
    seeds: set[int]


async def burst(url: str) -> Burst:
    """Open the page in every session, then move the seed in all at once, ``MOVES`` times."""
    sessions = [StudentSession(url, timeout=RUN_TIMEOUT) for _ in range(SESSIONS)]
    failures: list[BaseException] = []
    try:
        for session in sessions:  # one after another, as a class's links arrive
            await session.connect()
            await session.open(PAGE, {"dataset": "iris"})
        for move in range(1, MOVES + 1):
            done = await asyncio.gather(
                *(s.change("seed", 1000 * move + i) for i, s in enumerate(sessions)),
                return_exceptions=True,
            )
            failures += [outcome for outcome in done if isinstance(outcome, BaseException)]
        # A socket HAProxy closed at the end of the last move is seen closed by now.
        await asyncio.sleep(1.0)
        closed = [s.closed_by for s in sessions if s.closed_by]
        seeds = {int(s.shown("seed")) for s in sessions if s.last is not None}
        return Burst(closed, failures, seeds)
    finally:
        for session in sessions:
            await session.close()


def test_a_class_rerunning_a_heavy_page_keeps_its_replica_and_its_sessions(
    launcher: Callable[[int], Launched],
) -> None:
    launched = launcher(1)
    seen = asyncio.run(burst(launched.url))
    log = launched.haproxy_log()
    assert "is DOWN" not in log, log
    assert " 503 " not in log, log
    assert seen.closed == [], f"{len(seen.closed)} sessions closed: {seen.closed[:3]}"
    assert seen.failures == [], seen.failures[:3]
    assert seen.seeds == {1000 * MOVES + i for i in range(SESSIONS)}
