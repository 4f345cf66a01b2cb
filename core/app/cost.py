"""What a forest costs to grow, and one gate so that big forests grow one at a time.

A classroom server has one or two busy cores and many visitors. A link can ask for 1000
trees on a 20,000-row upload; grown while others are grown too, such a forest takes a core
for minutes. So the cost of a fit is estimated before it starts:
a fit above :data:`HEAVY_SECONDS` waits for its turn at the :class:`Gate`, and a fit above
:data:`CEILING_SECONDS` is not grown at all (the page grows the largest forest that fits).

The module is pure (no Streamlit), so the estimate and the gate are unit-tested on their own.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from core.engine.params import resolve_max_features

# Seconds of one idle core, fitted to the CPU time per tree (out-of-bag score included) of
# forests of 20-100 trees on tables from iris to 15,000 x 20; the measurements and how close
# the estimates come are in docs/benchmarks.md ("The cost model"). A server whose two cores
# are busy is several times slower.
#: Fixed cost of one tree (bootstrap draw, set-up, out-of-bag bookkeeping).
SECONDS_PER_TREE = 0.1e-3
#: Cost of one training row scanned on one candidate feature at one level, for few rows.
SECONDS_PER_SCAN = 0.02e-6
#: A scan costs ``1 + n_train / CACHE_ROWS`` times more on more rows: a depth's arrays
#: outgrow the processor's caches (15,000 rows: about three times).
CACHE_ROWS = 7000
#: A fit estimated above this waits for the other big fits (one at a time).
HEAVY_SECONDS = 0.5
#: A fit estimated above this is too big for a shared classroom server: on a 20,000-row
#: upload with 20 features, about 55 trees at √20 features a split; 1000 trees of all 30
#: features of breast cancer just fit under it.
CEILING_SECONDS = 3.0


def expected_levels(n_train: int, max_depth: int | None) -> int:
    """Levels a tree grows to: ``ceil(log2(n_train))`` for a balanced tree, at most ``max_depth``.

    Real trees are deeper on one side and stop early on the other; the balanced depth is a
    fair middle (breast cancer's 426 rows: 9 here, 6 to 8 in its trees; the noisy sine's 150
    rows: 8 here, 11 in its trees).
    """
    levels = max(1, math.ceil(math.log2(max(n_train, 2))))
    return levels if max_depth is None else min(levels, max_depth)


def forest_seconds(
    n_estimators: int,
    n_train: int,
    n_features: int,
    max_features: str | int | float | None,
    max_depth: int | None,
) -> float:
    """Estimated seconds of one core to grow a forest.

    The trees grow level by level, and each level scans every training row on each feature
    it may try, so::

        seconds = n_estimators * (SECONDS_PER_TREE + SECONDS_PER_SCAN * c * n_train * k * L)

    with ``k`` the features per split as the trees will draw them (the engine's own
    :func:`~core.engine.params.resolve_max_features`: ``"sqrt"``, ``"log2"``, a count, a
    fraction or None for all), ``L`` the levels (:func:`expected_levels`) and
    ``c = 1 + n_train / CACHE_ROWS`` the cost of a scan growing with the rows (see the
    constants for the forests they were fitted to).
    """
    k = resolve_max_features(max_features, n_features)
    scans = n_train * k * expected_levels(n_train, max_depth)
    per_tree = SECONDS_PER_TREE + SECONDS_PER_SCAN * (1 + n_train / CACHE_ROWS) * scans
    return n_estimators * per_tree


@dataclass(frozen=True)
class ForestCost:
    """What a forest asked for costs, and how many of its trees may be grown.

    Attributes
    ----------
    asked : int
        Trees asked for.
    grown : int
        Trees to grow: ``asked``, or the most whose estimate stays under the ceiling.
    seconds : float
        Estimated seconds of one core for ``asked`` trees.
    heavy : bool
        The fit of ``grown`` trees waits for its turn at the gate.
    """

    asked: int
    grown: int
    seconds: float
    heavy: bool

    @property
    def too_big(self) -> bool:
        return self.grown < self.asked

    @property
    def grown_seconds(self) -> float:
        """Estimated seconds of one core for the ``grown`` trees (what the fit will take)."""
        return self.seconds * self.grown / self.asked

    def notice(self) -> str | None:
        """What the page says when the forest asked for is not grown; None when it is."""
        if not self.too_big:
            return None
        return (
            f"This forest is too big for a shared classroom server: {self.asked} trees like "
            f"these would take about {self.seconds:.0f} s of its processor while others wait. "
            f"Showing the largest allowed instead: its first {self.grown} trees. Fewer "
            "features per split or a depth limit let more trees grow."
        )


def forest_cost(
    n_estimators: int,
    n_train: int,
    n_features: int,
    max_features: str | int | float | None,
    max_depth: int | None,
    *,
    ceiling: float | None = None,
    heavy: float | None = None,
) -> ForestCost:
    """The cost of a forest, and the trees to grow under ``ceiling`` (at least one).

    ``ceiling`` and ``heavy`` default to :data:`CEILING_SECONDS` and :data:`HEAVY_SECONDS`,
    read at each call.
    """
    ceiling = CEILING_SECONDS if ceiling is None else ceiling
    heavy = HEAVY_SECONDS if heavy is None else heavy
    # Every tree costs the same, so the cost of the first k trees is k * per_tree, and the
    # cost of ``grown`` trees gives ``grown`` again: a forest cut to its ceiling stays whole.
    per_tree = forest_seconds(1, n_train, n_features, max_features, max_depth)
    seconds = n_estimators * per_tree
    grown = n_estimators if seconds <= ceiling else max(1, int(ceiling / per_tree))
    return ForestCost(n_estimators, grown, seconds, grown * per_tree > heavy)


class Gate:
    """At most ``slots`` heavy fits at a time in this process; the others wait their turn.

    ``with gate.turn():`` blocks until a slot is free. ``busy`` says whether a caller would
    wait now (for the "yours is next" message; it may change the moment after).
    """

    def __init__(self, slots: int = 1) -> None:
        if slots < 1:
            raise ValueError(f"slots must be an int >= 1; got {slots!r}")
        self._slots = threading.BoundedSemaphore(slots)
        self._count = threading.Lock()
        self._free = slots

    @property
    def busy(self) -> bool:
        with self._count:
            return self._free == 0

    @contextmanager
    def turn(self) -> Iterator[None]:
        """Hold one slot for the ``with`` block, waiting for it when all are taken."""
        self._slots.acquire()
        with self._count:
            self._free -= 1
        try:
            yield
        finally:
            with self._count:
                self._free += 1
            self._slots.release()


__all__ = [
    "CACHE_ROWS",
    "CEILING_SECONDS",
    "HEAVY_SECONDS",
    "ForestCost",
    "Gate",
    "expected_levels",
    "forest_cost",
    "forest_seconds",
]
