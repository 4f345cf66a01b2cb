"""Growing a tree: the textbook loop, compiled.

Read :mod:`core.engine.criteria` (the formulas) and :mod:`core.engine.scan` first:
:func:`~core.engine.scan.score_splits` scores every threshold of one feature at one node and
returns the best. This module is the rest of the algorithm, in one loop (:func:`grow_tree`):

1. Sort the rows along every feature, once (:func:`sort_rows`; a forest sorts once for all its
   trees, and each tree keeps the rows it drew: :func:`rows_in_bag`). A node is then a range
   ``start:end`` of every feature's sorted list: the node's rows, in that feature's order.
2. Take the next node from the queue of nodes to grow; measure it (its class counts or
   moments, its impurity, what it predicts).
3. Stop if it is deep enough, too small, or pure.
4. Otherwise try the features: all of them, or ``max_features`` drawn at random (a feature
   that is constant in the node does not count, as in scikit-learn). For each, score every
   threshold and keep the best; the lowest score wins, and among equal scores the lowest
   feature, then the lowest threshold.
5. Keep the split if it decreases the impurity by at least ``min_impurity_decrease``.
6. Cut the node: mark which rows go left, then move every feature's sorted list of the node's
   rows into a left part and a right part, each still sorted (a stable partition: nothing is
   ever sorted again).
7. Put the two children at the back of the queue. Nodes are grown depth by depth, so the
   random draws of a tree grown to depth 3 are those of the top of one grown deeper: the
   shallower tree is exactly the top of the deeper one.
8. At the end, number the nodes in depth-first preorder (:func:`preorder`), the order of
   :class:`~core.engine.structure.Tree` and of scikit-learn's trees.

A tree of a forest is grown the same way on its bootstrap sample: a row drawn ``k`` times has
weight ``k``. ``@njit(cache=True, nogil=True)`` compiles the loop to machine code the first
time it runs (and keeps it on disk), and lets several trees grow on several threads at once.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit
from numpy.typing import NDArray

from core.engine.criteria import (
    ABSOLUTE_ERROR,
    CLASSIFICATION_CRITERIA,
    CRITERION_CODE,
    ENTROPY,
    FEATURE_THRESHOLD,
    GINI,
    node_statistics,
)
from core.engine.params import GrowthParams
from core.engine.scan import midpoint, score_splits
from core.engine.structure import TREE_LEAF, TREE_UNDEFINED, Tree

Float = NDArray[np.float64]
Int = NDArray[np.int64]

#: Called with the fraction (0 to 1) of the work done: of a tree's training rows settled in
#: leaves (:func:`report_progress`), or of a forest's trees grown.
Progress = Callable[[float], None]

#: A node whose impurity is at most this is pure and is not split (as in scikit-learn).
EPSILON = float(np.finfo(np.float64).eps)


def sort_rows(X_by_feature: Float) -> Int:
    """Every feature's rows in increasing order of value, shape ``(n_features, n_samples)``.

    ``X_by_feature`` is the data one feature per row, ``(n_features, n_samples)``. Missing
    values (NaN) sort last. Equal values may come in any order: no threshold goes between
    them, so their order changes no split (NumPy's default sort is several times faster
    than its stable one).
    """
    return np.argsort(X_by_feature, axis=1)


@njit(cache=True, nogil=True)
def rows_in_bag(sorted_rows: Int, weight: Float) -> Int:
    """The rows with a positive weight, in each feature's sorted order, ``(n_features, m)``."""
    d, n = sorted_rows.shape
    m = 0
    for row in range(n):
        if weight[row] > 0.0:
            m += 1
    kept = np.empty(d * m + 1, dtype=np.int64)  # feature f's rows at f*m .. f*m + m - 1
    for f in range(d):
        k = f * m
        for row in sorted_rows[f]:
            # Every row is written, and only one with weight counted, so the next row
            # overwrites one without: no "if" to mispredict (a bootstrap's rows are random).
            # The last write may land on the next feature's first slot (or the spare one).
            kept[k] = row
            k += weight[row] > 0.0
    return kept[: d * m].reshape(d, m)


@njit(cache=True, nogil=True)
def grow_tree(
    X_by_feature: Float,
    y: Float,
    weight: Float,
    sorted_rows: Int,
    criterion: int,
    n_classes: int,
    max_depth: int,
    min_samples_split: int,
    min_samples_leaf: int,
    min_impurity_decrease: float,
    max_features: int,
    seed: int,
) -> tuple[Int, Int, Int, Float, Float, Int, Float, Float, NDArray[np.bool_], Int]:
    """Grow one tree, node by node, depth by depth.

    Parameters
    ----------
    X_by_feature : ndarray of shape (n_features, n_samples)
        The training data, one feature per row (so a feature's values are contiguous).
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
    max_depth, min_samples_split, min_samples_leaf, min_impurity_decrease, max_features
        The stopping rules and the number of features tried per node
        (:class:`core.engine.params.GrowthParams`).
    seed : int
        Seeds the draws of the features tried at each node (:func:`random_below`; only used
        when ``max_features < n_features``).

    Returns
    -------
    children_left, children_right, feature, threshold, impurity, n_node_samples, \
weighted_n_node_samples, value, missing_go_to_left, depth
        The flat arrays of the tree, nodes in depth-first preorder; ``value`` has shape
        ``(node_count, n_values)``: class fractions, or the mean (median) of the targets.
    """
    d, m = sorted_rows.shape
    classification = criterion in (GINI, ENTROPY)
    n_stats = n_classes if classification else (0 if criterion == ABSOLUTE_ERROR else 3)
    n_values = n_classes if classification else 1
    capacity = max(2 * m - 1, 1)  # a binary tree with m leaves at most

    # The tree, as flat arrays.
    children_left = np.full(capacity, TREE_LEAF, dtype=np.int64)
    children_right = np.full(capacity, TREE_LEAF, dtype=np.int64)
    feature = np.full(capacity, TREE_UNDEFINED, dtype=np.int64)
    threshold = np.full(capacity, float(TREE_UNDEFINED))
    impurity = np.zeros(capacity)
    n_node_samples = np.zeros(capacity, dtype=np.int64)
    weighted_n_node_samples = np.zeros(capacity)
    value = np.zeros((capacity, n_values))
    missing_go_to_left = np.zeros(capacity, dtype=np.bool_)
    node_depth = np.zeros(capacity, dtype=np.int64)

    # Nodes still to grow, first in first out: their range start:end, depth, parent, and
    # whether they are its left child.
    queue = np.empty((capacity, 5), dtype=np.int64)
    queue[0, 0], queue[0, 1], queue[0, 2], queue[0, 3], queue[0, 4] = 0, m, 0, -1, 0
    n_queued = 1

    stats = np.zeros(n_stats)
    cost_right = np.empty(m + 1)
    cost_left = np.empty(m + 1)
    goes_left = np.zeros(X_by_feature.shape[1], dtype=np.bool_)
    right_rows = np.empty(m, dtype=np.int64)
    features = np.arange(d)
    random_state = np.array([seed], dtype=np.uint64)
    smallest_split = max(min_samples_split, 2 * min_samples_leaf)
    root_weight = 1.0
    node_count = 0

    while node_count < n_queued:
        # 2. The next node: record it, measure it.
        node = node_count
        node_count += 1
        start, end, depth, parent, is_left = (
            queue[node, 0], queue[node, 1], queue[node, 2], queue[node, 3], queue[node, 4]
        )  # fmt: skip
        if parent >= 0:
            if is_left:
                children_left[parent] = node
            else:
                children_right[parent] = node
        rows = sorted_rows[0, start:end]
        node_weight, centre, node_imp = node_statistics(rows, y, weight, criterion, stats)
        if node == 0:
            root_weight = node_weight
        n_node_samples[node] = end - start
        weighted_n_node_samples[node] = node_weight
        impurity[node] = node_imp
        node_depth[node] = depth
        if classification:
            value[node] = stats / node_weight
        else:
            value[node, 0] = centre

        # 3. Stop here?
        if depth >= max_depth or end - start < smallest_split or node_imp <= EPSILON:
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
            if present == 0 or (
                n_missing == 0 and x[rows_f[present - 1]] <= x[rows_f[0]] + FEATURE_THRESHOLD
            ):
                continue  # constant in this node: no split, and it does not count as tried
            tried += 1
            cost, i, missing_left = score_splits(
                rows_f, x, y, weight, criterion, stats, centre, n_missing, min_samples_leaf,
                cost_right, cost_left,
            )  # fmt: skip
            if i > 0 and (cost < best_cost or (cost == best_cost and f < best_feature)):
                best_cost, best_feature, best_i = cost, f, i
                best_missing, best_missing_left = n_missing, missing_left
            if tried == max_features:
                break
        if best_feature < 0:
            continue  # no valid split: a leaf

        # 5. Worth it? The decrease of the whole tree's weighted impurity.
        decrease = (node_weight * node_imp - best_cost) / root_weight
        if decrease + EPSILON < min_impurity_decrease:
            continue

        # 6. Cut: the first best_i present rows go left, and the missing ones if they go left.
        rows_f = sorted_rows[best_feature, start:end]
        x = X_by_feature[best_feature]
        present = rows_f.size - best_missing
        for k in range(rows_f.size):
            goes_left[rows_f[k]] = k < best_i or (k >= present and best_missing_left)
        n_left = best_i + (best_missing if best_missing_left else 0)
        feature[node] = best_feature
        threshold[node] = (
            np.inf if best_i == present else midpoint(x[rows_f[best_i - 1]], x[rows_f[best_i]])
        )
        if best_missing > 0:
            missing_go_to_left[node] = best_missing_left
        else:  # no missing value seen here: later ones follow the bigger child
            missing_go_to_left[node] = n_left > rows_f.size - n_left
        # Children that will not split only need their rows, not every feature's order.
        n_right = rows_f.size - n_left
        grows = depth + 1 < max_depth and max(n_left, n_right) >= smallest_split
        for g in range(d if grows else 1):
            part = sorted_rows[g, start:end]
            n_l, n_r = 0, 0
            for row in part:
                # Written to both sides and counted on its own: an "if" here would be
                # mispredicted half the time, and this loop is a forest's largest cost.
                part[n_l] = row  # (slot n_l was read already: n_l never passes the loop)
                right_rows[n_r] = row
                n_l += goes_left[row]
                n_r += not goes_left[row]
            part[n_l:] = right_rows[:n_r]

        # 7. The children, to be grown after the nodes already waiting.
        for child_start, child_end, child_is_left in (
            (start, start + n_left, 1),
            (start + n_left, end, 0),
        ):
            queue[n_queued, 0], queue[n_queued, 1] = child_start, child_end
            queue[n_queued, 2], queue[n_queued, 3] = depth + 1, node
            queue[n_queued, 4] = child_is_left
            n_queued += 1

    # 8. Number the nodes in depth-first preorder: node order[k] becomes node k.
    order = preorder(children_left[:node_count], children_right[:node_count])
    new_id = np.empty(node_count, dtype=np.int64)
    new_id[order] = np.arange(node_count)
    left, right = children_left[order], children_right[order]
    inner = left != TREE_LEAF
    return (
        np.where(inner, new_id[np.maximum(left, 0)], TREE_LEAF),
        np.where(inner, new_id[np.maximum(right, 0)], TREE_LEAF),
        feature[order],
        threshold[order],
        impurity[order],
        n_node_samples[order],
        weighted_n_node_samples[order],
        value[order],
        missing_go_to_left[order],
        node_depth[order],
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
    y : ndarray of shape (n_samples,), float64
        Class codes or targets.
    weight : ndarray of shape (n_samples,), float64
        Whole numbers: how often each row is in this tree's training set.
    sorted_rows : ndarray of shape (n_features, n_samples)
        :func:`sort_rows` of the training data (shared by every tree: not changed).
    params : GrowthParams
    rng : numpy.random.Generator or None
        The tree's own random stream, which seeds its feature draws; None when every node
        tries every feature.
    """
    in_bag = rows_in_bag(sorted_rows, weight)
    seed = 0 if rng is None else int(rng.integers(2**63))
    arrays = grow_tree(
        X_by_feature, y, weight, in_bag, CRITERION_CODE[params.criterion],
        params.n_classes if params.criterion in CLASSIFICATION_CRITERIA else 0,
        params.max_depth, params.min_samples_split, params.min_samples_leaf,
        params.min_impurity_decrease, params.max_features, seed,
    )  # fmt: skip
    left, right, feature, threshold, impurity, n_node, weighted, value, missing_left, depth = arrays
    return Tree(
        children_left=left,
        children_right=right,
        feature=feature,
        threshold=threshold,
        impurity=impurity,
        n_node_samples=n_node,
        weighted_n_node_samples=weighted,
        value=value.reshape(-1, 1, value.shape[1]),
        n_features=X_by_feature.shape[0],
        node_depth=depth,
        missing_go_to_left=missing_left,
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
