"""The machine-speed yardstick the benchmarks print beside their CPU numbers."""

from __future__ import annotations

import pytest

from bench.yardstick import loop_seconds, yardstick_line


def test_a_longer_loop_takes_longer() -> None:
    short = loop_seconds(steps=20_000, repeats=3)
    long = loop_seconds(steps=2_000_000, repeats=3)
    assert 0 < short < long


@pytest.mark.parametrize(("steps", "repeats"), [(0, 1), (1, 0), (-5, 3)])
def test_a_loop_of_nothing_is_refused(steps: int, repeats: int) -> None:
    with pytest.raises(ValueError, match="at least 1"):
        loop_seconds(steps=steps, repeats=repeats)


def test_the_line_gives_steps_and_seconds() -> None:
    assert yardstick_line(0.5612, steps=10_000_000) == (
        "machine speed: a bare Python loop of 10,000,000 steps took 0.56 s of CPU"
    )
