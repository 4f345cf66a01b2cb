"""A fitted tree as flat arrays, and how rows walk down it.

Node ``i`` of a tree is described by position ``i`` of every array, as in scikit-learn's
``tree_`` object, so exporters and figures can read either library's trees:

==========================  ====================================================================
``children_left[i]``        id of the left child, or ``TREE_LEAF`` (-1) when ``i`` is a leaf
``children_right[i]``       id of the right child, or ``TREE_LEAF``
``feature[i]``              feature tested at ``i`` (``TREE_UNDEFINED``, -2, at leaves)
``threshold[i]``            rows with ``x[feature] <= threshold`` go left (-2.0 at leaves)
``impurity[i]``             impurity of the training samples reaching ``i``
``n_node_samples[i]``       how many (distinct) training samples reach ``i``
``weighted_n_node_samples`` the same, counted with their weights (bootstrap multiplicity)
``value[i, 0, :]``          class fractions (classifier) or predicted value (regressor)
``missing_go_to_left[i]``   where a row whose ``x[feature]`` is missing (NaN) goes at ``i``
==========================  ====================================================================

A missing value follows ``missing_go_to_left``, as in scikit-learn (1.3 and later): the side
the growing loop found best for the node's training rows with a missing value, or, when the node
had none, the child with more training samples (the right one on a tie). A threshold of
``inf`` sends every present value left and the missing ones right.

Nodes are numbered in depth-first preorder: the root is 0 and a left child directly follows its
parent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

import numpy as np
from numba import njit
from numpy.typing import NDArray
from scipy.sparse import csr_matrix

# TREE_LEAF is defined with the walk that tests it; this module names it for everyone else.
from core.engine.walk import TREE_LEAF, leaf_of_rows, path_of_rows, rows_to_walk, walked_arrays

TREE_UNDEFINED = -2

#: The flat arrays of a fitted tree, as scikit-learn's ``tree_`` names them.
TREE_ARRAYS = (
    "children_left",
    "children_right",
    "feature",
    "threshold",
    "impurity",
    "n_node_samples",
    "weighted_n_node_samples",
    "value",
    "missing_go_to_left",
)

Int = NDArray[np.int64]
Float = NDArray[np.float64]
Bool = NDArray[np.bool_]


@dataclass(frozen=True, eq=False)
class Tree:
    """Flat-array representation of one fitted decision tree.

    Parameters
    ----------
    children_left, children_right, feature : ndarray of shape (node_count,), int64
    threshold, impurity, weighted_n_node_samples : ndarray of shape (node_count,), float64
    n_node_samples : ndarray of shape (node_count,), int64
    value : ndarray of shape (node_count, 1, n_values), float64
        ``n_values`` is the number of classes for a classifier and 1 for a regressor.
    n_features : int
        Number of features the tree was grown on.
    node_depth : ndarray of shape (node_count,), int64, optional
        Depth of every node (the root is 0), when the caller already knows it; computed from
        the children arrays otherwise.
    missing_go_to_left : ndarray of shape (node_count,), bool, optional
        Where a missing value goes at every split node (False at leaves). When not given (a
        tree built without missing values), the child with more training samples, as
        scikit-learn decides for a node that saw no missing value.

    Notes
    -----
    Instances are immutable: every array is made read-only, so a tree cached by the app and
    shared by many visitors cannot be changed by accident.
    """

    children_left: Int
    children_right: Int
    feature: Int
    threshold: Float
    impurity: Float
    n_node_samples: Int
    weighted_n_node_samples: Float
    value: Float
    n_features: int
    node_depth: Int | None = field(default=None, repr=False)
    # None only until __post_init__ fills it in, so readers always see an array.
    missing_go_to_left: Bool = field(default=cast(Bool, None), repr=False)

    def __post_init__(self) -> None:
        if self.missing_go_to_left is None:
            object.__setattr__(self, "missing_go_to_left", self._to_bigger_child())
        for name in TREE_ARRAYS:
            getattr(self, name).setflags(write=False)
        if self.node_depth is None:
            depth = np.zeros(self.node_count, dtype=np.int64)
            level = np.zeros(1, dtype=np.int64)  # the nodes of one depth, root first
            d = 0
            while level.size:
                depth[level] = d
                inner = level[self.children_left[level] != TREE_LEAF]
                level = np.concatenate([self.children_left[inner], self.children_right[inner]])
                d += 1
            object.__setattr__(self, "node_depth", depth)
        self.depth.setflags(write=False)

    def _to_bigger_child(self) -> Bool:
        """True where the left child has more training samples than the right (not at leaves)."""
        inner = self.children_left != TREE_LEAF
        n = self.n_node_samples
        left = n[np.where(inner, self.children_left, 0)]
        right = n[np.where(inner, self.children_right, 0)]
        return inner & (left > right)

    @property
    def depth(self) -> Int:
        """Depth of every node (the root is 0), shape (node_count,)."""
        return cast(Int, self.node_depth)  # always set by __post_init__

    # -- sizes ----------------------------------------------------------------------------------

    @property
    def node_count(self) -> int:
        """Number of nodes, leaves included."""
        return int(self.children_left.shape[0])

    @property
    def max_depth(self) -> int:
        """Length of the longest root-to-leaf path (0 for a single leaf)."""
        return int(self.depth.max(initial=0))

    @property
    def n_leaves(self) -> int:
        """Number of leaves."""
        return int(np.count_nonzero(self.children_left == TREE_LEAF))

    @property
    def n_outputs(self) -> int:
        """Always 1: Arboretum's trees predict one target."""
        return 1

    @property
    def n_classes(self) -> Int:
        """Number of classes per output, as scikit-learn reports it (``[1]`` for regression)."""
        return np.array([self.value.shape[2]], dtype=np.int64)

    @property
    def is_leaf(self) -> NDArray[np.bool_]:
        """Boolean mask of the leaves, shape (node_count,)."""
        return self.children_left == TREE_LEAF

    # -- walking rows down the tree --------------------------------------------------------------

    def apply(self, X: Float) -> Int:
        """Leaf reached by every row.

        Each row starts at the root and steps down until it reaches a leaf: left when its value
        of the node's feature is at most the threshold, right otherwise, and where
        ``missing_go_to_left`` says when that value is missing (NaN). The loop is
        :func:`core.engine.walk.leaf_of_rows`, compiled.

        Parameters
        ----------
        X : ndarray of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
            Node id of the leaf each row lands in.
        """
        rows = rows_to_walk(X, self.n_features)
        leaves: Int = leaf_of_rows(rows, *walked_arrays(self))
        return leaves

    def predict(self, X: Float) -> Float:
        """``value`` of the leaf reached by every row, shape (n_samples, n_values)."""
        return self.value[self.apply(X), 0, :]

    def path(self, row: Float) -> Int:
        """Node ids one row passes through, root first, down to its leaf.

        Parameters
        ----------
        row : ndarray of shape (n_features,)

        Returns
        -------
        ndarray of shape (depth of the row's leaf + 1,)
            The row of :meth:`decision_path` for this one row, as ids: no sparse matrix to build
            when a forest's hundred trees are walked for one sample.
        """
        rows = rows_to_walk(np.reshape(row, (1, -1)), self.n_features)
        nodes: Int = path_of_rows(rows, *walked_arrays(self), self.max_depth)[0]
        return nodes[nodes != TREE_LEAF]

    def decision_path(self, X: Float) -> csr_matrix:
        """Nodes each row passes through, as a sparse indicator matrix.

        Parameters
        ----------
        X : ndarray of shape (n_samples, n_features)

        Returns
        -------
        scipy.sparse.csr_matrix of shape (n_samples, node_count)
            Entry ``(i, j)`` is 1 when row ``i`` passes through node ``j``; each row's nodes are
            listed root first.
        """
        rows = rows_to_walk(X, self.n_features)
        # Row i's nodes, root first, then TREE_LEAF (:func:`core.engine.walk.path_of_rows`).
        path: Int = path_of_rows(rows, *walked_arrays(self), self.max_depth)
        filled = path != TREE_LEAF
        indptr = np.concatenate([[0], np.cumsum(filled.sum(axis=1))])
        data = np.ones(int(indptr[-1]), dtype=np.int64)
        return csr_matrix((data, path[filled], indptr), shape=(rows.shape[0], self.node_count))

    # -- summaries -------------------------------------------------------------------------------

    def compute_feature_importances(self, normalize: bool = True) -> Float:
        """Mean decrease in impurity contributed by each feature.

        For each split node ``t`` on feature ``f``, add
        ``w_t I(t) - w_L I(L) - w_R I(R)`` (weighted sample counts ``w``) to ``f``
        (:func:`impurity_decreases`); divide by the root's weight; optionally normalise to sum
        to 1.

        Returns
        -------
        ndarray of shape (n_features,)
            All zeros for a tree that is a single leaf.
        """
        importances = impurity_decreases(
            self.children_left,
            self.children_right,
            self.feature,
            self.weighted_n_node_samples,
            self.impurity,
            self.n_features,
        )
        if self.node_count:
            importances /= self.weighted_n_node_samples[0]
        total = importances.sum()
        if normalize and total > 0:
            importances /= total
        return importances

    # -- subtrees (read-only helpers for the figures and the app's words) -------------------

    @property
    def subtree_sizes(self) -> Int:
        """Nodes in every node's subtree, itself included, shape (node_count,).

        In preorder the subtree of ``i`` is exactly the nodes ``i .. i + size[i] - 1``.
        """
        size = np.ones(self.node_count, dtype=np.int64)
        for node in range(self.node_count - 1, -1, -1):  # children come after their parent
            if self.children_left[node] != TREE_LEAF:
                size[node] += size[self.children_left[node]] + size[self.children_right[node]]
        return size

    @property
    def subtree_leaves(self) -> Int:
        """Leaves in every node's subtree (1 for a leaf), shape (node_count,)."""
        leaves = self.is_leaf.astype(np.int64)
        for node in range(self.node_count - 1, -1, -1):
            if self.children_left[node] != TREE_LEAF:
                leaves[node] = leaves[self.children_left[node]] + leaves[self.children_right[node]]
        return leaves

    def subtree(self, node: int) -> Int:
        """Ids of ``node`` and every node below it, in preorder."""
        return np.arange(node, node + int(self.subtree_sizes[node]), dtype=np.int64)

    def top(self, kept: NDArray[np.bool_]) -> Tree:
        """The tree made of the ``kept`` nodes, the rest cut away.

        ``kept`` must hold the root and the parent of every kept node (the top of the tree,
        as pruning leaves it, or as a tree grown for a few steps has it). Kept nodes keep their
        preorder and their statistics; one whose children are cut becomes a leaf that predicts
        its own value.

        Parameters
        ----------
        kept : ndarray of shape (node_count,), bool

        Returns
        -------
        Tree
            ``kept.sum()`` nodes, numbered ``0..`` in their original order.
        """
        keep = np.flatnonzero(kept)
        new_id = np.full(self.node_count, TREE_LEAF, dtype=np.int64)
        new_id[keep] = np.arange(keep.size)
        left, right = self.children_left[keep], self.children_right[keep]
        is_leaf = (left == TREE_LEAF) | ~kept[np.maximum(left, 0)]
        return Tree(
            children_left=np.where(is_leaf, TREE_LEAF, new_id[np.maximum(left, 0)]),
            children_right=np.where(is_leaf, TREE_LEAF, new_id[np.maximum(right, 0)]),
            feature=np.where(is_leaf, TREE_UNDEFINED, self.feature[keep]),
            threshold=np.where(is_leaf, float(TREE_UNDEFINED), self.threshold[keep]),
            impurity=self.impurity[keep].copy(),
            n_node_samples=self.n_node_samples[keep].copy(),
            weighted_n_node_samples=self.weighted_n_node_samples[keep].copy(),
            value=self.value[keep].copy(),
            n_features=self.n_features,
            node_depth=self.depth[keep].copy(),  # a kept node stays at its depth
            missing_go_to_left=~is_leaf & self.missing_go_to_left[keep],
        )


@njit(cache=True, nogil=True)
def impurity_decreases(
    children_left: Int,
    children_right: Int,
    feature: Int,
    weighted_n_node_samples: Float,
    impurity: Float,
    n_features: int,
) -> Float:
    """Each feature's total impurity decrease over a tree's split nodes.

    For every split node ``t`` on feature ``f``, with children ``L`` and ``R``:

        decrease[f] += w_t I(t) - w_L I(L) - w_R I(R)

    where ``w`` is the weighted number of training samples at a node and ``I`` its impurity.
    Nodes are visited in order, so the sums are those of the same additions made one by one.

    Parameters
    ----------
    children_left, children_right, feature : ndarray of shape (node_count,), int64
    weighted_n_node_samples, impurity : ndarray of shape (node_count,), float64
    n_features : int

    Returns
    -------
    ndarray of shape (n_features,), float64
        Not yet divided by the root's weight (see :meth:`Tree.compute_feature_importances`).
    """
    decrease = np.zeros(n_features)
    w, imp = weighted_n_node_samples, impurity
    for node in range(children_left.shape[0]):
        left, right = children_left[node], children_right[node]
        if left == TREE_LEAF:
            continue
        decrease[feature[node]] += w[node] * imp[node] - w[left] * imp[left] - w[right] * imp[right]
    return decrease
