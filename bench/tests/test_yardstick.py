"""The machine-speed yardstick the benchmarks print beside their CPU numbers."""

from __future__ import annotations

import pytest

from bench.yardstick import STEPS, Beside, loop_seconds, yardstick_line


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


def test_the_yardstick_beside_the_work_is_the_median_of_its_loops_scaled() -> None:
    beside = Beside(steps=1000)
    with pytest.raises(ValueError, match="no loop"):
        beside.seconds()
    beside.samples += [0.003, 0.001, 0.002]  # as read: any order, one per run
    assert beside.seconds() == pytest.approx(0.002 * STEPS / 1000)
    beside.read()
    assert len(beside.samples) == 4 and beside.samples[-1] > 0


def test_a_yardstick_of_no_steps_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        Beside(steps=0)
