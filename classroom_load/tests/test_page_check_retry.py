"""The simulated check's asks again (classroom_load/page_check.py), as ``class_check.js`` makes
them: once at a move, then after ``retry`` ms, then twice as long each time the page still
has not shown that version, at most ``retry_max``, each wait within a fifth either side.

A class on a busy server whose pages all asked again every ``retry`` ms kept restarting its
runs, and no page showed the move for a minute; the class bench must ask as the script does.
"""

from __future__ import annotations

import asyncio
import itertools
import random
from typing import Any

import pytest

from classroom_load import page_check
from classroom_load.page_check import PageCheck, retry_after

DATA = {"seen": 4, "retry": 5000, "retry_max": 40000}


def test_the_wait_doubles_at_each_ask_up_to_the_most_and_spreads_a_fifth_either_side() -> None:
    rng = random.Random(7)
    for retries, middle in enumerate((5.0, 10.0, 20.0, 40.0, 40.0, 40.0)):
        waits = [retry_after(DATA, retries, rng) for _ in range(400)]
        assert middle * 0.8 <= min(waits) < middle * 0.85
        assert middle * 1.15 < max(waits) <= middle * 1.2


class Triggers:
    """A session that only records when the check asked for a run."""

    def __init__(self, clock: list[float]) -> None:
        self.clock = clock
        self.at: list[float] = []

    async def trigger(self, component_id: str, event: str, value: Any) -> None:
        self.at.append(self.clock[0])


def test_a_version_the_page_never_shows_is_asked_for_again_less_and_less_often(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = [100.0]
    monkeypatch.setattr(page_check.time, "monotonic", lambda: clock[0])
    session = Triggers(clock)
    check = PageCheck(session, rng=random.Random(3))  # type: ignore[arg-type]
    check._data, check._known = dict(DATA), 5  # the class moved to 5; the page shows 4

    async def tick_for(seconds: float) -> None:  # the script's timer, every second
        end = clock[0] + seconds
        while clock[0] < end:
            await check._consider()
            clock[0] += 1.0

    asyncio.run(tick_for(120.0))
    gaps = [b - a for a, b in itertools.pairwise(session.at)]
    assert session.at[0] == 100.0  # asked at once
    assert check.asked_at == session.at  # each ask recorded, for the bench's "heard of it"
    assert len(gaps) >= 4
    for gap, middle in zip(gaps, (5.0, 10.0, 20.0, 40.0, 40.0), strict=False):
        assert middle * 0.8 <= gap <= middle * 1.2 + 1.0  # the timer ticks every second

    # The page showed 5, then the class moved again: the next version is asked for at once,
    # and its first ask again comes after `retry` again, not after the longest wait.
    check._data["seen"], check._known = 5, 6
    start = clock[0]
    asyncio.run(tick_for(12.0))
    later = [t for t in session.at if t >= start]
    assert later[0] == start
    assert 4.0 <= later[1] - later[0] <= 7.0
