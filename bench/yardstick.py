"""How fast this machine runs Python today: a yardstick printed beside every CPU measurement.

The development machine is shared, and its cores do not run at one speed: on 28 November a
bare loop of ten million steps took 1.62 s, on 29 November 0.47-0.61 s, and a page's CPU per
move moved with it. A number of CPU seconds means little without the speed it was measured
at, so the benchmarks print this yardstick before and after they measure, and a reader can
compare two runs by their ratio to it (CPU seconds per yardstick second) as well as by their
seconds.
"""

from __future__ import annotations

import statistics
import time

__all__ = ["STEPS", "Beside", "loop_seconds", "yardstick_line"]

#: Steps of the bare loop: about half a second of CPU on a fast day.
STEPS = 10_000_000


def loop_seconds(steps: int = STEPS, repeats: int = 3) -> float:
    """The CPU seconds of the fastest of ``repeats`` bare ``for`` loops of ``steps`` steps.

    The loop does nothing but count, so it measures the interpreter on this core, not memory
    or caches. The fastest run is the one least disturbed by other work on the machine;
    ``time.process_time`` counts only this process's CPU, so waiting for a busy core does not
    count either.

    Parameters
    ----------
    steps : int, default :data:`STEPS`
        Steps per loop; at least 1.
    repeats : int, default 3
        Loops run; at least 1.

    Returns
    -------
    float
        Seconds, greater than 0.
    """
    if steps < 1 or repeats < 1:
        raise ValueError(f"steps and repeats must be at least 1; got {steps} and {repeats}")
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        for _ in range(steps):
            pass
        best = min(best, time.process_time() - start)
    return max(best, 1e-9)


class Beside:
    """A yardstick read beside the work: a short loop after each measured piece of it.

    Read once before and once after a benchmark, the yardstick catches whichever speed the
    machine has in that second, and this machine's speed can double from one minute to the
    next while the runs measured in between keep their times (``docs/benchmarks.md``, the
    yardstick). Read after every measured run (:meth:`read`), it samples the machine's speeds
    in the proportions the runs met them, and its median (:meth:`seconds`) is the yardstick
    that goes with the runs' median.

    Parameters
    ----------
    steps : int, default a tenth of :data:`STEPS`
        Steps of each short loop; :meth:`seconds` scales the median to
        :data:`STEPS`, so it reads as the long yardstick does.
    """

    def __init__(self, steps: int = STEPS // 10) -> None:
        if steps < 1:
            raise ValueError(f"steps must be at least 1; got {steps}")
        self.steps = steps
        self.samples: list[float] = []

    def read(self) -> None:
        """Run one short loop and keep its CPU seconds."""
        self.samples.append(loop_seconds(self.steps, repeats=1))

    def seconds(self) -> float:
        """The median short loop, as the seconds of a loop of :data:`STEPS` steps."""
        if not self.samples:
            raise ValueError("no loop was read beside the work")
        return statistics.median(self.samples) * STEPS / self.steps


def yardstick_line(seconds: float, steps: int = STEPS) -> str:
    """The sentence a benchmark prints with its results about the machine's speed."""
    return f"machine speed: a bare Python loop of {steps:,} steps took {seconds:.2f} s of CPU"
