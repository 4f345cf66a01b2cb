"""When a node stops growing: the stopping rule, written once.

The growing loop (:func:`core.engine.grow.grow_tree`) asks :func:`stop_reason` at every node,
and :func:`core.engine.node_splits.why_leaf` asks it about a leaf of a fitted tree, so both
stop a node by the same rules, in the same order. The first rule that holds wins:

1. :data:`PURE`: impurity 0 (one class, or one target value);
2. :data:`MAX_DEPTH`: the node is at the depth limit;
3. :data:`FEWER_THAN_TWO_LEAVES`: fewer than ``2 * min_samples_leaf`` samples;
4. :data:`MIN_SAMPLES_SPLIT`: fewer than ``min_samples_split`` samples;
5. :data:`CONSTANT`: every feature is constant on the node's samples;
6. :data:`LEAVES_TOO_SMALL`: every threshold leaves a side with fewer than
   ``min_samples_leaf`` samples;
7. :data:`MIN_IMPURITY_DECREASE`: the best split's weighted impurity decrease is below
   ``min_impurity_decrease``.

Rules 1 to 4 read the node alone; rules 5 to 7 read what scanning the features found. So the
loop asks twice: before the scan, with the scan's answers taken as "a split is possible" (a
node stopped there is never scanned), and after it. Two more reasons come after growing, and
only :func:`~core.engine.node_splits.why_leaf` gives them: 8, :data:`PRUNED` (cost-complexity
pruning cut the node's children), and 9, :data:`FEATURES_DRAWN` (a split existed, but not on
the ``max_features`` features the tree drew).
"""

from __future__ import annotations

from typing import Final, NamedTuple

import numpy as np
from numba import njit

#: A node whose impurity is at most this is pure and is not split (as in scikit-learn).
EPSILON: Final = float(np.finfo(np.float64).eps)

#: No rule stops the node: it is split.
SPLIT: Final = 0
PURE: Final = 1
MAX_DEPTH: Final = 2
FEWER_THAN_TWO_LEAVES: Final = 3
MIN_SAMPLES_SPLIT: Final = 4
CONSTANT: Final = 5
LEAVES_TOO_SMALL: Final = 6
MIN_IMPURITY_DECREASE: Final = 7
PRUNED: Final = 8
FEATURES_DRAWN: Final = 9


class StopLimits(NamedTuple):
    """The hyperparameters the stopping rule reads, resolved for one data set.

    As in :class:`core.engine.params.GrowthParams`: no depth limit is a very large
    ``max_depth``, and ``min_samples_split`` is at least ``2 * min_samples_leaf``.
    """

    max_depth: int
    min_samples_split: int
    min_samples_leaf: int
    min_impurity_decrease: float


@njit(cache=True, nogil=True, inline="always")
def stop_reason(
    impurity: float,
    depth: int,
    n_samples: int,
    varies: bool,
    can_split: bool,
    decrease: float,
    limits: StopLimits,
) -> int:
    """The first rule that keeps a node a leaf (1 to 7, in the module's order), or :data:`SPLIT`.

    Parameters
    ----------
    impurity : float
        The node's impurity.
    depth : int
        The node's depth, the root's being 0.
    n_samples : int
        The node's training samples.
    varies : bool
        Some feature is not constant on the node's samples (True before the scan).
    can_split : bool
        Some threshold leaves ``min_samples_leaf`` samples on both sides (True before the scan).
    decrease : float
        The best split's weighted impurity decrease, ``n_node / n_root * gain`` (``inf`` before
        the scan).
    limits : StopLimits
        The tree's resolved hyperparameters.
    """
    if impurity <= EPSILON:
        return PURE
    if depth >= limits.max_depth:
        return MAX_DEPTH
    if n_samples < 2 * limits.min_samples_leaf:
        return FEWER_THAN_TWO_LEAVES
    if n_samples < limits.min_samples_split:
        return MIN_SAMPLES_SPLIT
    if not varies:
        return CONSTANT
    if not can_split:
        return LEAVES_TOO_SMALL
    if decrease + EPSILON < limits.min_impurity_decrease:  # rounding must not stop a split
        return MIN_IMPURITY_DECREASE
    return SPLIT
