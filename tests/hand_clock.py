"""A clock for tests of anything that reads the time: it moves only when the test moves it."""

from __future__ import annotations


class HandClock:
    """Seconds that stand still until :meth:`advance` moves them or a test sets ``now``.

    Parameters
    ----------
    now : float, default 1_000_000.0
        The time it reads first. Tests of windowed counters start it at a chosen place in
        a window, so a test says where the window's edge is.
    """

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
