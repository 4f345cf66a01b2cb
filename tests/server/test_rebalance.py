"""How many sessions a replica lets go, and when: only over a gap of two, a few at a time, to
replicas that have reported for a while, and not while its own count is still growing.

The whole thing, replicas and HAProxy, is ``tests/deploy/test_spread_back.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

import pytest

from core.classroom.store import MemoryStore
from server import rebalance
from server.rebalance import BATCH, SETTLE, STALE, Census, spreading, to_release


@pytest.mark.parametrize(
    ("mine", "others", "released"),
    [
        (8, {}, 0),  # alone: nowhere to go
        (8, {"b": 0}, BATCH),  # a replica back, empty: a batch, not the gap's half (4)
        (6, {"b": 2}, 2),
        (5, {"b": 3}, 1),
        (4, {"b": 3}, 0),  # within one of even: moving one would only swap the two
        (4, {"b": 4}, 0),
        (3, {"b": 5}, 0),  # the fuller replica lets go, not this one
        (9, {"b": 8, "c": 6}, 1),  # measured against the emptiest
    ],
)
def test_a_replica_lets_go_half_the_gap_a_batch_at_most(
    mine: int, others: dict[str, int], released: int
) -> None:
    assert to_release(mine, others) == released


def report(count: int, at: float) -> str:
    return f"{count} {at:.1f}"


def test_another_replica_counts_once_it_has_reported_for_a_while() -> None:
    census = Census("a")
    table = {"a": report(8, 100.0), "b": report(0, 100.0)}
    assert census.settled(table, 100.0) == {}  # just back: HAProxy may not send it anyone yet
    table["b"] = report(0, 100.0 + SETTLE)
    assert census.settled(table, 100.0 + SETTLE) == {"b": 0}


def test_a_replica_that_stopped_reporting_is_gone_and_must_settle_again() -> None:
    census = Census("a")
    census.settled({"b": report(3, 100.0)}, 100.0)
    assert census.settled({"b": report(3, 100.0 + SETTLE)}, 100.0 + SETTLE) == {"b": 3}
    later = 100.0 + SETTLE + STALE + 1
    last = {"b": report(3, 100.0 + SETTLE)}
    assert census.settled(last, later) == {}  # dead, or too busy to report
    assert census.settled({"b": report(3, later)}, later) == {}  # back: settles again


def test_a_report_that_is_not_a_count_is_left_out() -> None:
    census = Census("a")
    census.settled({"b": "many 100.0", "c": report(1, 100.0)}, 100.0)
    assert census.settled({"b": "many 103.0", "c": report(1, 103.0)}, 100.0 + SETTLE) == {"c": 1}


def test_nobody_goes_while_sessions_arrive() -> None:
    # A replica that dies leaves a live-looking report for a few seconds while its tabs arrive
    # here: moving them toward it would only have them reconnect twice.
    census = Census("a")
    assert census.steady(4, 100.0) is False  # grew from nothing
    assert census.steady(8, 102.0) is False  # a dead replica's tabs arrive
    assert census.steady(8, 102.0 + SETTLE - 0.1) is False
    assert census.steady(8, 102.0 + SETTLE) is True
    assert census.steady(6, 102.0 + SETTLE + 2) is True  # letting go is no growth


def test_without_a_shared_store_a_replica_keeps_every_session() -> None:
    async def spread() -> bool:
        async with spreading("") as keeping:
            return keeping

    assert asyncio.run(spread()) is False


class Socket:
    """A session's websocket as :func:`server.rebalance.let_go` closes it."""

    def __init__(self, closed: list[int]) -> None:
        self.closed = closed

    async def close(self, code: int) -> None:
        self.closed.append(code)


class Client:
    def __init__(self, closed: list[int]) -> None:
        self._websocket = Socket(closed)


def run_rounds(back_here: set[str], monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Ten quick rounds of a replica holding eight sessions beside an empty one; the codes of
    the websockets it closed. ``back_here`` are the sessions present again after a round."""
    monkeypatch.setattr(rebalance, "SETTLE", 0.0)
    store = MemoryStore()
    store.put_field(rebalance.REPLICAS_KEY, "b", f"0 {time.time():.1f}", 60)
    closed: list[int] = []
    sessions = [(f"s{i}", Client(closed)) for i in range(8)]

    async def rounds() -> None:
        task = asyncio.create_task(
            rebalance.keep_even(
                store,
                "a",
                count=lambda: 8,
                sessions=lambda: list(sessions),
                present=lambda: back_here,
                every=0.01,
            )
        )
        await asyncio.sleep(0.2)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    asyncio.run(rounds())
    return closed


def test_sessions_let_go_are_closed_as_a_service_restart(monkeypatch: pytest.MonkeyPatch) -> None:
    closed = run_rounds(set(), monkeypatch)
    assert closed and set(closed) == {1012}  # the browser reconnects at once


def test_sessions_that_come_back_stop_the_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    # A balancer that sends a reconnect by its cookie (not by load) brings them back here.
    closed = run_rounds({"s0", "s1"}, monkeypatch)
    assert len(closed) == BATCH  # one batch, then it waits
