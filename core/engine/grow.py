"""Growing a tree: the textbook loop, compiled.

Read :mod:`core.engine.criteria` (the formulas) and :mod:`core.engine.scan` first:
:func:`~core.engine.scan.score_splits` scores every threshold of one feature at one node and
returns the best. This module is the rest of the algorithm, in one loop (:func:`grow_tree`):

1. Sort the rows along every feature, once (:mod:`core.engine.sorting`; a forest sorts once
   for all its trees, and each tree keeps the rows it drew). A node is then a range
   ``start:end`` of every feature's sorted list: the node's rows, in that feature's order.
2. Take the next node from the queue of nodes to grow; measure it (its class counts or
   moments, its impurity, what it predicts).
3. Stop if a rule that reads the node alone says so: it is pure, deep enough or too small
   (:func:`core.engine.stopping.stop_reason`, the one stopping rule, which the pages read too).
4. Otherwise try the features: all of them, or ``max_features`` drawn at random (a feature
   that is constant in the node does not count, as in scikit-learn). For each, score every
   threshold and keep the best; the lowest score wins, and among equal scores the lowest
   feature, then the lowest threshold.
5. Keep the split unless a rule that reads what the scan found stops it (the same
   :func:`~core.engine.stopping.stop_reason`): no feature varies, no threshold leaves both sides
   big enough, or the split decreases the impurity by less than ``min_impurity_decrease``.
6. Cut the node: mark which rows go left, then move every feature's sorted list of the node's
   rows into a left part and a right part, each still sorted (a stable partition: nothing is
   ever sorted again: :func:`~core.engine.sorting.partition`).
7. Put the two children at the back of the queue; they take the next two numbers. Nodes are
   grown depth by depth, so the random draws of a tree grown to depth 3 are those of the top
   of one grown deeper: the shallower tree is exactly the top of the deeper one.
8. At the end, number the nodes in depth-first preorder (:func:`in_preorder`), the order of
   :class:`~core.engine.structure.Tree` and of scikit-learn's trees.

A tree of a forest is grown the same way on its bootstrap sample: a row drawn ``k`` times has
weight ``k``. ``@njit(cache=True, nogil=True)`` compiles the loop to machine code the first
time it runs (and keeps it on disk), and lets several trees grow on several threads at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from numba import njit
from numpy.typing import NDArray

from core.engine.criteria import (
    ABSOLUTE_ERROR,
    CLASSIFICATION_CRITERIA,
    CRITERION_CODE,
    ENTROPY,
    GINI,
    node_statistics,
)
from core.engine.params import GrowthParams
from core.engine.scan import apart, midpoint, score_splits
from core.engine.sorting import partition, rows_in_bag
from core.engine.stopping import SPLIT, StopLimits, stop_reason
from core.engine.structure import TREE_LEAF, TREE_UNDEFINED, Tree

Float = NDArray[np.float64]
Int = NDArray[np.int64]

#: Called with the fraction (0 to 1) of the work done: of a tree's training rows settled in
#: leaves (:func:`report_progress`), or of a forest's trees grown.
Progress = Callable[[float], None]


class GrownTree(NamedTuple):
    """A tree as the loop grows it: flat arrays, one entry per node.

    While the loop runs, nodes are numbered in the order they are queued (breadth first) and
    the arrays have room for every node the tree could have; :func:`in_preorder` keeps the
    nodes grown, numbered as :class:`~core.engine.structure.Tree` numbers them. ``value`` has
    shape ``(n_nodes, n_values)``: class fractions, or the mean (median) of the targets.
    """

    children_left: Int
    children_right: Int
    feature: Int
    threshold: Float
    impurity: Float
    n_node_samples: Int
    weighted_n_node_samples: Float
    value: Float
    missing_go_to_left: NDArray[np.bool_]
    node_depth: Int


@njit(cache=True, nogil=True)
def empty_tree(capacity: int, n_values: int) -> GrownTree:
    """Room for ``capacity`` nodes, each a leaf until it is split."""
    return GrownTree(
        children_left=np.full(capacity, TREE_LEAF, dtype=np.int64),
        children_right=np.full(capacity, TREE_LEAF, dtype=np.int64),
        feature=np.full(capacity, TREE_UNDEFINED, dtype=np.int64),
        threshold=np.full(capacity, float(TREE_UNDEFINED)),
        impurity=np.zeros(capacity),
        n_node_samples=np.zeros(capacity, dtype=np.int64),
        weighted_n_node_samples=np.zeros(capacity),
        value=np.zeros((capacity, n_values)),
        missing_go_to_left=np.zeros(capacity, dtype=np.bool_),
        node_depth=np.zeros(capacity, dtype=np.int64),
    )


@njit(cache=True, nogil=True)
def grow_tree(
    X_by_feature: Float,
    y: Float,
    weight: Float,
    sorted_rows: Int,
    criterion: int,
    n_classes: int,
    limits: StopLimits,
    max_features: int,
    seed: int,
) -> GrownTree:
    """Grow one tree, node by node, depth by depth.

    Parameters
    ----------
    X_by_feature : ndarray of shape (n_features, n_samples)
        The training data, one feature per row (so a feature's values are contiguous),
        rounded to float32 as scikit-learn's trees read it
        (:func:`core.engine.arrays.float32_values`).
    y : ndarray of shape (n_samples,)
        Class codes ``0..n_classes-1`` as floats, or targets.
    weight : ndarray of shape (n_samples,)
        How often each row is in the training set (0: not at all; a bootstrap's counts).
    sorted_rows : ndarray of shape (n_features, m)
        Every feature's training rows (weight > 0) in sorted order; partitioned in place.
    criterion : int
        A criterion's code (:data:`core.engine.criteria.CRITERION_CODE`).
    n_classes : int
        0 for regression.
    limits : StopLimits
        What the stopping rule reads (:func:`core.engine.stopping.stop_reason`).
    max_features : int
        The number of features tried per node (:class:`core.engine.params.GrowthParams`).
    seed : int
        Seeds the draws of the features tried at each node (:func:`random_below`; only used
        when ``max_features < n_features``).

    Returns
    -------
    GrownTree
        The flat arrays of the tree, nodes in depth-first preorder.
    """
    d, m = sorted_rows.shape
    classification = criterion in (GINI, ENTROPY)
    n_stats = n_classes if classification else (0 if criterion == ABSOLUTE_ERROR else 3)
    tree = empty_tree(max(2 * m - 1, 1), n_classes if classification else 1)  # m leaves at most

    # Nodes are numbered as they are queued, and grown first in first out: node k is the range
    # node_start[k]:node_end[k] of every feature's sorted rows. Nodes before node_count are grown.
    node_start, node_end = np.empty_like(tree.children_left), np.empty_like(tree.children_left)
    node_start[0], node_end[0] = 0, m
    n_queued, node_count = 1, 0

    stats = np.zeros(n_stats)
    cost_right, cost_left = np.empty(m + 1), np.empty(m + 1)
    goes_left = np.zeros(X_by_feature.shape[1], dtype=np.bool_)
    right_rows = np.empty(m, dtype=np.int64)
    features = np.arange(d)
    random_state = np.array([seed], dtype=np.uint64)
    root_weight = 1.0

    while node_count < n_queued:
        # 2. The next node: measure it.
        node = node_count
        node_count += 1
        start, end, depth = node_start[node], node_end[node], tree.node_depth[node]
        n = end - start
        node_weight, centre, node_imp = node_statistics(
            sorted_rows[0, start:end], y, weight, criterion, stats
        )
        if node == 0:
            root_weight = node_weight
        tree.n_node_samples[node] = n
        tree.weighted_n_node_samples[node] = node_weight
        tree.impurity[node] = node_imp
        if classification:
            tree.value[node] = stats / node_weight
        else:
            tree.value[node, 0] = centre

        # 3. Stop here? The rules that read the node alone (the scan's are not known yet).
        if stop_reason(node_imp, depth, n, True, True, np.inf, limits) != SPLIT:
            continue

        # 4. The best split of every feature tried; the lowest score wins.
        best_cost, best_feature, best_i, best_missing, best_missing_left = np.inf, -1, -1, 0, False
        tried = 0
        for j in range(d):
            if max_features < d:  # draw the next feature to try among those not tried yet
                pick = j + random_below(random_state, d - j)
                features[j], features[pick] = features[pick], features[j]
            f = features[j]
            rows_f = sorted_rows[f, start:end]
            x = X_by_feature[f]
            n_missing = 0
            while n_missing < rows_f.size and np.isnan(x[rows_f[rows_f.size - 1 - n_missing]]):
                n_missing += 1
            present = rows_f.size - n_missing
            if present == 0 or (n_missing == 0 and not apart(x[rows_f[0]], x[rows_f[present - 1]])):
                continue  # constant in this node: no split, and it does not count as tried
            tried += 1
            cost, i, missing_left = score_splits(
                rows_f, x, y, weight, criterion, stats, centre, n_missing, limits.min_samples_leaf,
                cost_right, cost_left,
            )  # fmt: skip
            if i > 0 and (cost < best_cost or (cost == best_cost and f < best_feature)):
                best_cost, best_feature, best_i = cost, f, i
                best_missing, best_missing_left = n_missing, missing_left
            if tried == max_features:
                break

        # 5. Worth it? The decrease of the whole tree's weighted impurity, and the other rules.
        decrease = (node_weight * node_imp - best_cost) / root_weight
        if stop_reason(node_imp, depth, n, tried > 0, best_feature >= 0, decrease, limits) != SPLIT:
            continue

        # 6. Cut: the first best_i present rows go left, and the missing ones if they go left.
        rows_f = sorted_rows[best_feature, start:end]
        x = X_by_feature[best_feature]
        present = rows_f.size - best_missing
        for k in range(rows_f.size):
            goes_left[rows_f[k]] = k < best_i or (k >= present and best_missing_left)
        n_left = best_i + (best_missing if best_missing_left else 0)
        n_right = n - n_left
        tree.feature[node] = best_feature
        tree.threshold[node] = (
            np.inf if best_i == present else midpoint(x[rows_f[best_i - 1]], x[rows_f[best_i]])
        )
        if best_missing > 0:
            tree.missing_go_to_left[node] = best_missing_left
        else:  # no missing value seen here: later ones follow the bigger child
            tree.missing_go_to_left[node] = n_left > n_right
        # Children that will not split only need their rows, not every feature's order.
        child = stop_reason(np.inf, depth + 1, max(n_left, n_right), True, True, np.inf, limits)
        for g in range(d if child == SPLIT else 1):
            partition(sorted_rows[g, start:end], goes_left, right_rows)

        # 7. The children, to be grown after the nodes already waiting.
        tree.children_left[node], tree.children_right[node] = n_queued, n_queued + 1
        node_start[n_queued], node_end[n_queued] = start, start + n_left
        node_start[n_queued + 1], node_end[n_queued + 1] = start + n_left, end
        tree.node_depth[n_queued : n_queued + 2] = depth + 1
        n_queued += 2

    # 8. Number the nodes in depth-first preorder.
    return in_preorder(tree, node_count)


@njit(cache=True, nogil=True)
def in_preorder(tree: GrownTree, node_count: int) -> GrownTree:
    """The first ``node_count`` nodes of ``tree``, renumbered in depth-first preorder."""
    order = preorder(tree.children_left[:node_count], tree.children_right[:node_count])
    new_id = np.empty(node_count, dtype=np.int64)  # node order[k] becomes node k
    new_id[order] = np.arange(node_count)
    left, right = tree.children_left[order], tree.children_right[order]
    inner = left != TREE_LEAF
    return GrownTree(
        children_left=np.where(inner, new_id[np.maximum(left, 0)], TREE_LEAF),
        children_right=np.where(inner, new_id[np.maximum(right, 0)], TREE_LEAF),
        feature=tree.feature[order],
        threshold=tree.threshold[order],
        impurity=tree.impurity[order],
        n_node_samples=tree.n_node_samples[order],
        weighted_n_node_samples=tree.weighted_n_node_samples[order],
        value=tree.value[order],
        missing_go_to_left=tree.missing_go_to_left[order],
        node_depth=tree.node_depth[order],
    )


@njit(cache=True, nogil=True, inline="always")
def random_below(state: NDArray[np.uint64], bound: int) -> int:
    """A random whole number ``0 <= r < bound``; ``state`` (one number) moves on.

    SplitMix64, a small, well-tested generator: add a constant to the state, then scramble it
    with shifts and multiplications. The loop keeps its own generator, seeded from the tree's
    NumPy ``Generator``, because numba takes about 10 microseconds to read a ``Generator``
    argument at every call, a tenth of a small tree's whole fit.
    """
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return int(z % np.uint64(bound))


@njit(cache=True, nogil=True)
def preorder(children_left: Int, children_right: Int) -> Int:
    """The nodes in depth-first preorder: each node, then its left subtree, then its right.

    Returns
    -------
    ndarray of shape (node_count,)
        ``order[k]`` is the node that comes ``k``-th.
    """
    order = np.empty(children_left.size, dtype=np.int64)
    stack = np.empty(children_left.size, dtype=np.int64)
    stack[0] = 0
    top, k = 1, 0
    while top > 0:
        top -= 1
        node = stack[top]
        order[k] = node
        k += 1
        if children_left[node] != TREE_LEAF:
            stack[top] = children_right[node]  # the right subtree waits for the left one
            stack[top + 1] = children_left[node]
            top += 2
    return order


def grow(
    X_by_feature: Float,
    y: Float,
    weight: Float,
    sorted_rows: Int,
    params: GrowthParams,
    rng: np.random.Generator | None,
) -> Tree:
    """One tree from :func:`grow_tree`, as a :class:`~core.engine.structure.Tree`.

    Parameters
    ----------
    X_by_feature : ndarray of shape (n_features, n_samples), float64, C-contiguous
        Rounded to float32 (:func:`core.engine.arrays.float32_values`).
    y : ndarray of shape (n_samples,), float64
        Class codes or targets.
    weight : ndarray of shape (n_samples,), float64
        Whole numbers: how often each row is in this tree's training set.
    sorted_rows : ndarray of shape (n_features, n_samples)
        :func:`~core.engine.sorting.sort_rows` of the training data (shared by every tree:
        not changed).
    params : GrowthParams
    rng : numpy.random.Generator or None
        The tree's own random stream, which seeds its feature draws; None when every node
        tries every feature.
    """
    in_bag = rows_in_bag(sorted_rows, weight)
    seed = 0 if rng is None else int(rng.integers(2**63))
    limits = StopLimits(
        max_depth=params.max_depth,
        min_samples_split=params.min_samples_split,
        min_samples_leaf=params.min_samples_leaf,
        min_impurity_decrease=params.min_impurity_decrease,
    )
    grown = grow_tree(
        X_by_feature, y, weight, in_bag, CRITERION_CODE[params.criterion],
        params.n_classes if params.criterion in CLASSIFICATION_CRITERIA else 0,
        limits, params.max_features, seed,
    )  # fmt: skip
    return Tree(
        children_left=grown.children_left,
        children_right=grown.children_right,
        feature=grown.feature,
        threshold=grown.threshold,
        impurity=grown.impurity,
        n_node_samples=grown.n_node_samples,
        weighted_n_node_samples=grown.weighted_n_node_samples,
        value=grown.value.reshape(-1, 1, grown.value.shape[1]),
        n_features=X_by_feature.shape[0],
        node_depth=grown.node_depth,
        missing_go_to_left=grown.missing_go_to_left,
    )


def report_progress(tree: Tree, progress: Progress) -> None:
    """Tell ``progress`` how a tree's rows settled, one depth after the other.

    After depth ``k``, the rows in leaves at depth ``k`` or less are settled; the last call
    says 1.0.
    """
    leaf = tree.is_leaf
    total = max(int(tree.n_node_samples[0]), 1)
    settled = np.bincount(
        tree.depth[leaf], weights=tree.n_node_samples[leaf], minlength=tree.max_depth + 1
    )
    for k in range(1, tree.max_depth + 1):
        progress(min(1.0, float(settled[: k + 1].sum()) / total))
    progress(1.0)
