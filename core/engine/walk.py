"""Walking rows down fitted trees: the textbook loop, compiled.

For each row: start at the root; while the node is not a leaf, compare the row's value of the
node's feature with the node's threshold and go to the left child when it is at most the
threshold, to the right one otherwise; a missing value (NaN) goes where
``missing_go_to_left`` says. The leaf reached is the answer.

A row's values are first rounded to float32 (:func:`core.engine.arrays.float32_values`), as
scikit-learn's trees read them, and compared with the float64 threshold: between petal widths
1.6 and 1.8 the threshold is 1.69999999 (the midpoint of their float32 values), printed
"≤ 1.7", and a flower of 1.7 (1.70000005 as float32) goes right, in both libraries. Code
outside the walks routes rows with :func:`core.engine.splits.sends_left`, the same comparison.

The functions read a tree's flat arrays (see :mod:`core.engine.structure`); a forest's trees are
laid end to end in one set of arrays, tree ``t``'s nodes starting at ``offsets[t]``, each tree
keeping its own node ids (its root is its node 0). They are compiled by numba; called from
Python they take NumPy arrays, with ``X`` of dtype float64.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit
from numpy.typing import ArrayLike, NDArray

from core.engine.arrays import float32_values

#: ``children_left`` (and ``children_right``) of a leaf.
TREE_LEAF = -1

Float = NDArray[np.float64]
Int = NDArray[np.int64]
Bool = NDArray[np.bool_]


def rows_to_walk(X: ArrayLike, n_features: int) -> Float:
    """``X`` as the walks read it: rounded to float32 (held as float64), each row's values side
    by side (C order), writable (:func:`core.engine.arrays.float32_values`: the kind of array
    the walks were compiled for).

    The compiled walks do not check their indices (a check per lookup would cost time), so the
    shape is checked here: a row shorter than a feature id would make them read other memory.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    n_features : int
        Number of features the trees were grown on; ``X`` needs at least that many columns.

    Returns
    -------
    ndarray of shape (n_samples, n_features), float64
        A rounded copy of ``X``.
    """
    rows = float32_values(X)
    if rows.ndim != 2 or rows.shape[1] < n_features:
        raise ValueError(
            f"X must be a 2-dimensional array with {n_features} columns (the features the "
            f"trees were grown on), got shape {rows.shape}"
        )
    return rows


# inline="always": numba pastes this into the walks; called as a function, every step of a
# 100-tree forest's walk over a grid took twice as long (measured).
@njit(cache=True, nogil=True, inline="always")
def goes_left(value: float, threshold: float, missing_go_to_left: bool) -> bool:
    """Whether a row goes to the left child at a split.

    Left when ``value <= threshold``; a missing value (NaN) goes left when
    ``missing_go_to_left``. The NaN is asked about first, because it compares false with
    everything (``NaN <= t`` is False).

    Parameters
    ----------
    value : float
        The row's value of the feature the node tests.
    threshold : float
        The node's threshold.
    missing_go_to_left : bool
        The node's side for a missing value.

    Returns
    -------
    bool
    """
    if np.isnan(value):
        return missing_go_to_left
    return value <= threshold


# The walks below index with ids cast to unsigned integers: for a signed index numba adds a
# check for Python's from-the-end (negative) indexing at every lookup, which made the walk about
# twice as slow (measured). The ids used are never negative: a leaf's -1 and -2 are never read.
# A step is written out in each loop rather than as a function of the tree's arrays: called at
# every step, such a function made the walk about forty times slower (measured, even with
# inline="always"); goes_left, which takes plain numbers, costs nothing once inlined.


@njit(cache=True, nogil=True)
def leaf_of_row(
    x: Float,
    children_left: Int,
    children_right: Int,
    feature: Int,
    threshold: Float,
    missing_go_to_left: Bool,
) -> np.int64:
    """The leaf one row lands in: from the root, step down until a leaf.

    Parameters
    ----------
    x : ndarray of shape (n_features,)
        One row.
    children_left, children_right, feature : ndarray of shape (node_count,), int64
    threshold : ndarray of shape (node_count,), float64
    missing_go_to_left : ndarray of shape (node_count,), bool
        One tree's arrays (:class:`core.engine.structure.Tree`).

    Returns
    -------
    int
        Node id of the leaf.
    """
    node = np.uint64(0)  # the root
    while children_left[node] != TREE_LEAF:
        if goes_left(x[np.uint64(feature[node])], threshold[node], missing_go_to_left[node]):
            node = np.uint64(children_left[node])
        else:
            node = np.uint64(children_right[node])
    return np.int64(node)


@njit(cache=True, nogil=True)
def leaf_of_rows(
    X: Float,
    children_left: Int,
    children_right: Int,
    feature: Int,
    threshold: Float,
    missing_go_to_left: Bool,
) -> Int:
    """The leaf every row lands in (one tree).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float64
    children_left, children_right, feature, threshold, missing_go_to_left : ndarray
        One tree's arrays, as in :func:`leaf_of_row`.

    Returns
    -------
    ndarray of shape (n_samples,), int64
    """
    leaves = np.empty(X.shape[0], dtype=np.int64)
    for row in range(X.shape[0]):
        leaves[row] = leaf_of_row(
            X[row], children_left, children_right, feature, threshold, missing_go_to_left
        )
    return leaves


@njit(cache=True, nogil=True)
def path_of_rows(
    X: Float,
    children_left: Int,
    children_right: Int,
    feature: Int,
    threshold: Float,
    missing_go_to_left: Bool,
    max_depth: int,
) -> Int:
    """The nodes every row passes through (one tree), root first.

    The walk of :func:`leaf_of_row`, writing down each node on the way.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float64
    children_left, children_right, feature, threshold, missing_go_to_left : ndarray
        One tree's arrays, as in :func:`leaf_of_row`.
    max_depth : int
        The tree's depth: no path has more than ``max_depth + 1`` nodes.

    Returns
    -------
    ndarray of shape (n_samples, max_depth + 1), int64
        Row ``i`` lists the nodes of row ``i``'s path, root first, then ``TREE_LEAF`` (-1)
        after its leaf.
    """
    path = np.full((X.shape[0], max_depth + 1), TREE_LEAF, dtype=np.int64)
    for row in range(X.shape[0]):
        x = X[row]
        node = np.uint64(0)
        path[row, 0] = 0
        depth = 1
        while children_left[node] != TREE_LEAF:
            if goes_left(x[np.uint64(feature[node])], threshold[node], missing_go_to_left[node]):
                node = np.uint64(children_left[node])
            else:
                node = np.uint64(children_right[node])
            path[row, depth] = node
            depth += 1
    return path


@njit(cache=True, nogil=True, inline="always")
def one_tree(
    t: int,
    offsets: Int,
    children_left: Int,
    children_right: Int,
    feature: Int,
    threshold: Float,
    missing_go_to_left: Bool,
) -> tuple[Int, Int, Int, Float, Bool]:
    """Tree ``t``'s own arrays (views), cut out of the trees laid end to end.

    Tree ``t``'s nodes run from ``offsets[t]`` to the next tree's start (or the end).
    """
    start = offsets[t]
    stop = offsets[t + 1] if t + 1 < offsets.shape[0] else children_left.shape[0]
    return (
        children_left[start:stop],
        children_right[start:stop],
        feature[start:stop],
        threshold[start:stop],
        missing_go_to_left[start:stop],
    )


def walked_arrays(trees: Any) -> tuple[Int, Int, Int, Float, Bool]:
    """The arrays a walk reads, in this module's order, from a tree or trees laid end to end.

    ``trees`` is a :class:`core.engine.structure.Tree` or a
    :class:`core.engine.predict.StackedTrees`: both name their arrays as scikit-learn does.
    """
    return (
        trees.children_left,
        trees.children_right,
        trees.feature,
        trees.threshold,
        trees.missing_go_to_left,
    )


@njit(cache=True, nogil=True)
def forest_leaves(
    X: Float,
    offsets: Int,
    children_left: Int,
    children_right: Int,
    feature: Int,
    threshold: Float,
    missing_go_to_left: Bool,
) -> Int:
    """The leaf every row lands in, in every tree of a forest.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float64
    offsets : ndarray of shape (n_trees,), int64
        Where each tree's nodes start in the other arrays (the first is 0; at least one tree).
    children_left, children_right, feature, threshold, missing_go_to_left : ndarray
        The trees' arrays laid end to end, shape (total node count,); node ids are each tree's
        own.

    Returns
    -------
    ndarray of shape (n_trees, n_samples), int64
        Node ids within each tree.
    """
    n_trees = offsets.shape[0]
    leaves = np.empty((n_trees, X.shape[0]), dtype=np.int64)
    for t in range(n_trees):
        # One tree at a time, all rows: its few nodes stay in the processor's cache, and
        # neighbouring rows (a grid's) take the same turns, which the processor learns to
        # predict. Every tree for one row, then the next row, took twice as long (measured).
        left, right, feat, thresh, missing_left = one_tree(
            t, offsets, children_left, children_right, feature, threshold, missing_go_to_left
        )
        for row in range(X.shape[0]):
            leaves[t, row] = leaf_of_row(X[row], left, right, feat, thresh, missing_left)
    return leaves


@njit(cache=True, nogil=True)
def forest_mean(
    X: Float,
    offsets: Int,
    children_left: Int,
    children_right: Int,
    feature: Int,
    threshold: Float,
    missing_go_to_left: Bool,
    value: Float,
) -> Float:
    """The forest's average leaf value for every row.

    ``mean = (v_0 + v_1 + ... + v_{T-1}) / T``, where ``v_t`` is the value of the leaf the row
    reaches in tree ``t``. The sum is taken tree after tree, in tree order, starting from 0, so
    it is bit for bit the sum of the trees' own predictions in that order (floating-point
    addition depends on the order).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float64
    offsets, children_left, children_right, feature, threshold, missing_go_to_left : ndarray
        The trees laid end to end, as in :func:`forest_leaves`.
    value : ndarray of shape (total node count, n_values), float64
        Every node's value (class fractions, or the predicted value of a regressor).

    Returns
    -------
    ndarray of shape (n_samples, n_values), float64
    """
    n_trees = offsets.shape[0]
    total = np.zeros((X.shape[0], value.shape[1]))
    for t in range(n_trees):
        left, right, feat, thresh, missing_left = one_tree(
            t, offsets, children_left, children_right, feature, threshold, missing_go_to_left
        )
        tree_value = value[offsets[t] : offsets[t] + left.shape[0]]
        for row in range(X.shape[0]):
            leaf = np.uint64(leaf_of_row(X[row], left, right, feat, thresh, missing_left))
            for k in range(value.shape[1]):
                # Unsigned, as in the walks: the sum read and wrote total and tree_value with a
                # from-the-end check at every lookup, a fifth of the forest's time on a
                # boundary grid.
                total[np.uint64(row), np.uint64(k)] += tree_value[leaf, np.uint64(k)]
    return total / n_trees


@njit(cache=True, nogil=True, inline="always")
def node_value(value: Float, node: int, column: int) -> float:
    """A node's value: its share of class ``column``, or its one value (a regressor's)."""
    if value.shape[1] == 1:
        return value[node, 0]
    total = 0.0
    for k in range(value.shape[1]):
        total += value[node, k]
    return value[node, column] / max(total, 1e-300)


@njit(cache=True, nogil=True)
def forest_path_changes(
    x: Float,
    offsets: Int,
    children_left: Int,
    children_right: Int,
    feature: Int,
    threshold: Float,
    missing_go_to_left: Bool,
    value: Float,
    column: int,
) -> tuple[float, Float]:
    """What each feature's questions change in one row's value, added over a forest's trees.

    In each tree the row walks from the root ``n_0`` to its leaf ``n_L``. The question at
    ``n_j``, on feature ``f(n_j)``, moves the value from ``v(n_j)`` to ``v(n_{j+1})``, so

        v(n_L) = v(n_0) + sum over j of (v(n_{j+1}) - v(n_j)),

    and each change is credited to the feature asked. ``v`` is :func:`node_value`.

    Parameters
    ----------
    x : ndarray of shape (n_features,), float64
        One row.
    offsets, children_left, children_right, feature, threshold, missing_go_to_left : ndarray
        The trees laid end to end, as in :func:`forest_leaves`.
    value : ndarray of shape (total node count, n_values), float64
    column : int
        The class whose share is followed (ignored with one value per node).

    Returns
    -------
    roots : float
        The sum over the trees of the root's value.
    changes : ndarray of shape (n_features,), float64
        Per feature, the sum over the trees of its questions' changes.
    """
    roots = 0.0
    changes = np.zeros(x.shape[0])
    for t in range(offsets.shape[0]):
        left, right, feat, thresh, missing_left = one_tree(
            t, offsets, children_left, children_right, feature, threshold, missing_go_to_left
        )
        tree_value = value[offsets[t] : offsets[t] + left.shape[0]]
        node = 0
        here = node_value(tree_value, node, column)
        roots += here
        while left[node] != TREE_LEAF:
            if goes_left(x[feat[node]], thresh[node], missing_left[node]):
                child = left[node]
            else:
                child = right[node]
            there = node_value(tree_value, child, column)
            changes[feat[node]] += there - here
            node, here = child, there
    return roots, changes
