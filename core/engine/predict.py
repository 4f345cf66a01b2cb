"""Walking many trees at once: prediction for a whole forest in a few array operations.

All trees of a forest are laid end to end in one set of flat arrays (tree ``t``'s nodes start at
``offsets[t]``). Every (tree, row) pair starts at its tree's root, and each step moves all pairs
one level down together: look up the node's feature and threshold, compare, jump to a child.
Leaves point to themselves with an infinite threshold, so pairs that arrived simply stay. A
missing value (NaN) goes where the node's ``missing_go_to_left`` says.

Many rows need no walk of their own. Between two consecutive thresholds of a feature (over the
whole forest) every value compares the same way with every node, so rows whose values fall in
the same threshold interval for every feature land in the same leaf of every tree (a missing
value is a cell of its own). A grid for a
decision-boundary picture has 40,000 rows but often only a few thousand such cells: the forest
walks one row per cell and copies the answer to the others. The result is identical to walking
every row.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from core.engine.structure import TREE_LEAF, Tree

Float = NDArray[np.float64]
Int = NDArray[np.int64]

#: Largest number of (tree, row) pairs walked at once; bounds memory for big grids and forests.
CHUNK_PAIRS = 1 << 21


class StackedTrees:
    """Several fitted trees as one set of flat arrays.

    Parameters
    ----------
    trees : sequence of Tree
        Trees grown on the same features; classifiers' trees must share the class list.
    """

    def __init__(self, trees: Sequence[Tree]) -> None:
        sizes = np.array([t.node_count for t in trees], dtype=np.int64)
        self.n_trees = len(trees)
        self.offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
        self.max_depth = max((t.max_depth for t in trees), default=0)
        left = np.concatenate([t.children_left for t in trees])
        right = np.concatenate([t.children_right for t in trees])
        shift = np.repeat(self.offsets, sizes)
        ids = np.arange(left.size, dtype=np.int64)
        leaf = left == TREE_LEAF
        self.left = np.where(leaf, ids, left + shift).astype(np.intp)
        self.right = np.where(leaf, ids, right + shift).astype(np.intp)
        self.feature = np.where(leaf, 0, np.concatenate([t.feature for t in trees])).astype(np.intp)
        self.threshold = np.where(leaf, np.inf, np.concatenate([t.threshold for t in trees]))
        self.value = np.concatenate([t.value[:, 0, :] for t in trees])
        missing_left = np.concatenate([t.missing_go_to_left for t in trees]) if trees else leaf
        self.children = np.column_stack([self.left, self.right]).ravel()  # 2 * node + go_right
        self.is_leaf = leaf
        # The walk's own copies, indexed by *twice* the node id so that a step is one lookup:
        # the child of node i is children2[2 i + go_right], itself stored doubled.
        self.children2 = 2 * self.children
        self.feature2 = np.repeat(self.feature, 2)
        self.threshold2 = np.repeat(self.threshold, 2)
        self.is_leaf2 = np.repeat(leaf, 2)
        self.missing_right2 = np.repeat(~missing_left & ~leaf, 2)
        # Sorted distinct thresholds of each feature: the cell edges used to group rows.
        inner = ~leaf
        n_features = trees[0].n_features if trees else 0
        self.cuts = [
            np.unique(self.threshold[inner & (self.feature == f)]) for f in range(n_features)
        ]
        for a in (
            self.offsets,
            self.children,
            self.is_leaf,
            self.children2,
            self.feature2,
            self.threshold2,
            self.is_leaf2,
            self.missing_right2,
            self.feature,
            self.threshold,
            self.value,
            *self.cuts,
        ):
            a.setflags(write=False)

    def _walk(self, X: Float, trees: slice) -> Int:
        """Global leaf ids for the trees in ``trees`` and all rows, shape (n_trees_in_slice, n).

        Every (tree, row) pair moves one level down per step (a pair at a leaf stays there).
        When more than half of the pairs still walking have reached a leaf, they are set
        aside, so the deep levels of a forest, where few pairs still walk, cost little.
        """
        n, d = X.shape
        flat = np.ascontiguousarray(X).ravel()
        roots = self.offsets[trees]
        leaf = np.repeat(2 * roots[:, None], n, axis=1).ravel().astype(np.intp)  # the answer
        at = leaf.copy()  # twice the node of every pair still walking
        pair = np.arange(at.size, dtype=np.intp)  # which pair that is
        base = np.tile(np.arange(n, dtype=np.intp) * d, roots.size)  # its row's offset in X
        has_missing = bool(np.isnan(flat).any())
        for step in range(self.max_depth):
            value = flat[base + self.feature2[at]]
            go_right = value > self.threshold2[at]  # False for NaN, so:
            if has_missing:
                go_right |= np.isnan(value) & self.missing_right2[at]
            at = self.children2[at + go_right]
            if step % 2 == 1 and step + 1 < self.max_depth:
                walking = np.flatnonzero(~self.is_leaf2[at])
                if walking.size < at.size // 2:
                    leaf[pair] = at  # final for the pairs set aside
                    at, pair, base = at[walking], pair[walking], base[walking]
        leaf[pair] = at
        return (leaf // 2).reshape(roots.size, n)

    def cells(self, X: Float) -> tuple[Int, Int] | None:
        """Group rows that every tree treats alike.

        Returns
        -------
        (representatives, inverse) or None
            ``X[representatives]`` has one row per occupied cell and ``inverse`` maps each row
            to its cell; None when grouping would not save work (few rows, or as many cells as
            rows, or too many features to index the cells).
        """
        n = X.shape[0]
        if n < 256 or not self.cuts:
            return None
        if math.prod(cut.size + 2 for cut in self.cuts) > 1 << 62:
            return None  # too many cells to number with one int64
        key = np.zeros(n, dtype=np.int64)
        stride = 1
        for f, cut in enumerate(self.cuts):
            if cut.size == 0:
                continue
            # cut.size + 1 intervals, and one more cell for a missing value
            cell = np.searchsorted(cut, X[:, f], side="left")
            key += np.where(np.isnan(X[:, f]), cut.size + 1, cell) * stride
            stride *= cut.size + 2
        _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        if first.size > n // 2:
            return None
        return first, inverse.ravel()

    def _chunks(self, n_rows: int) -> list[slice]:
        per = max(1, CHUNK_PAIRS // max(n_rows, 1))
        return [slice(i, min(i + per, self.n_trees)) for i in range(0, self.n_trees, per)]

    def leaves(self, X: Float) -> Int:
        """Leaf reached by every row in every tree, as node ids local to each tree.

        Returns
        -------
        ndarray of shape (n_trees, n_samples)
        """
        out = [self._walk(X, s) - self.offsets[s][:, None] for s in self._chunks(X.shape[0])]
        return np.concatenate(out) if out else np.zeros((0, X.shape[0]), dtype=np.int64)

    def values(self, X: Float) -> Float:
        """Leaf value of every tree for every row, shape (n_trees, n_samples, n_values)."""
        grouped = self.cells(X)
        if grouped is not None:
            first, inverse = grouped
            return self.values(X[first])[:, inverse]
        return np.concatenate([self.value[self._walk(X, s)] for s in self._chunks(X.shape[0])])

    def mean_values(self, X: Float) -> Float:
        """Average leaf value over the trees, shape (n_samples, n_values).

        Trees are added one after the other, in order, whatever the path, so every way of
        predicting (grouped rows or not, staged or not) gives bit-identical sums.
        """
        grouped = self.cells(X)
        if grouped is not None:
            first, inverse = grouped
            return self.mean_values(X[first])[inverse]
        total = np.zeros((X.shape[0], self.value.shape[1]))
        for s in self._chunks(X.shape[0]):
            for leaves in self._walk(X, s):
                total += self.value[leaves]
        return total / max(self.n_trees, 1)
