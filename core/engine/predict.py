"""Prediction for a whole forest: its trees laid end to end, walked by compiled loops.

All trees of a forest are concatenated into one set of flat arrays, tree ``t``'s nodes starting
at ``offsets[t]`` and keeping their own ids (each tree's root is its node 0). The walks are
:mod:`core.engine.walk`'s loops: for every tree, every row goes from the root to a leaf.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from core.engine.structure import Tree
from core.engine.walk import (
    forest_leaves,
    forest_mean,
    forest_path_changes,
    rows_to_walk,
    walked_arrays,
)

Float = NDArray[np.float64]
Int = NDArray[np.int64]


class StackedTrees:
    """Several fitted trees as one set of flat arrays.

    Parameters
    ----------
    trees : sequence of Tree
        At least one tree; all grown on the same features, and classifiers' trees must share
        the class list.

    Attributes
    ----------
    n_trees : int
    n_features : int
        Number of features the trees were grown on.
    offsets : ndarray of shape (n_trees,), int64
        Where each tree's nodes start in the arrays below.
    children_left, children_right, feature, threshold, missing_go_to_left : ndarray
        The trees' arrays end to end, shape (total node count,).
    value : ndarray of shape (total node count, n_values), float64
    """

    def __init__(self, trees: Sequence[Tree]) -> None:
        sizes = np.array([t.node_count for t in trees], dtype=np.int64)
        self.n_trees = len(trees)
        self.n_features = max(t.n_features for t in trees)
        self.offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
        self.children_left = np.concatenate([t.children_left for t in trees])
        self.children_right = np.concatenate([t.children_right for t in trees])
        self.feature = np.concatenate([t.feature for t in trees])
        self.threshold = np.concatenate([t.threshold for t in trees])
        self.missing_go_to_left = np.concatenate([t.missing_go_to_left for t in trees])
        self.value = np.concatenate([t.value[:, 0, :] for t in trees])
        for a in (self.offsets, *walked_arrays(self), self.value):
            a.setflags(write=False)

    def leaves(self, X: Float) -> Int:
        """Leaf reached by every row in every tree, as node ids local to each tree.

        Returns
        -------
        ndarray of shape (n_trees, n_samples)
        """
        rows = rows_to_walk(X, self.n_features)
        leaves: Int = forest_leaves(rows, self.offsets, *walked_arrays(self))
        return leaves

    def values(self, X: Float) -> Float:
        """Leaf value of every tree for every row, shape (n_trees, n_samples, n_values)."""
        return self.value[self.leaves(X) + self.offsets[:, None]]

    def mean_values(self, X: Float) -> Float:
        """Average leaf value over the trees, shape (n_samples, n_values).

        Trees are added one after the other, in order, then divided by ``n_trees``
        (:func:`core.engine.walk.forest_mean`), so the sum is bit for bit that of the trees'
        own predictions added in order (as the staged scores add them).
        """
        rows = rows_to_walk(X, self.n_features)
        mean: Float = forest_mean(rows, self.offsets, *walked_arrays(self), self.value)
        return mean

    def mean_path_changes(self, x: Float, column: int) -> tuple[float, Float]:
        """For one row: the trees' mean root value, and each feature's mean change on the way
        down to the row's leaves (:func:`core.engine.walk.forest_path_changes`, over ``n_trees``).

        Parameters
        ----------
        x : ndarray of shape (n_features,)
        column : int
            The class whose share is followed; 0 for a regressor.

        Returns
        -------
        root : float
        changes : ndarray of shape (n_features,)
            ``root + changes.sum()`` is the mean of the trees' leaf values (the class's share).
        """
        row = rows_to_walk(np.reshape(x, (1, -1)), self.n_features)[0]
        roots, changes = forest_path_changes(
            row, self.offsets, *walked_arrays(self), self.value, column
        )
        return roots / self.n_trees, changes / self.n_trees
