"""What a tree diagram marks on a fitted tree, node by node, besides the tree's own arrays.

Which nodes are drawn (a depth cap, and nodes unfolded below it), the path of a traced
sample, the test rows reaching each node and the score over them, and where missing values
went. :func:`~core.figures.tree_diagram.build_tree_diagram` reads these per node.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from core.data.datasets import Task
from core.figures._model import (
    FittedModel,
    FittedTree,
    FloatArray,
    as_2d,
    classes_of,
    encode_labels,
)

__all__ = ["missing_sides", "node_test_figures", "sample_path", "shown_nodes"]


def node_test_figures(
    model: FittedModel,
    tree: FittedTree,
    task: Task,
    leaf_values: FloatArray,
    X_test: ArrayLike,
    y_test: ArrayLike,
    n_nodes: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Per node: test samples reaching it, and the tree's accuracy (or MSE) over them."""
    X = as_2d(X_test, "X_test")
    indicator = tree.decision_path(X).tocsc()
    reached = np.asarray(indicator.sum(axis=0)).ravel().astype(np.intp)
    leaves = np.asarray(tree.apply(X))
    if task == "classification":
        truth = encode_labels(classes_of(model), y_test)
        per_sample = (np.argmax(leaf_values[leaves], axis=1) == truth).astype(float)
    else:
        per_sample = (leaf_values[leaves, 0] - np.asarray(y_test, dtype=float)) ** 2
    totals = np.asarray(indicator.T @ per_sample).ravel()
    with np.errstate(invalid="ignore", divide="ignore"):
        score = np.where(reached > 0, totals / np.maximum(reached, 1), np.nan)
    return reached[:n_nodes], score[:n_nodes]


def sample_path(
    tree: FittedTree, sample: ArrayLike | None, n_nodes: int
) -> tuple[np.ndarray, int | None]:
    """The nodes a sample passes through (a mask) and the leaf it reaches, to highlight them."""
    on_path = np.zeros(n_nodes, dtype=bool)
    if sample is None:
        return on_path, None
    row = as_2d(sample, "sample")
    if row.shape[0] != 1:
        raise ValueError(f"sample must be one row, got {row.shape[0]} rows")
    on_path[np.asarray(tree.decision_path(row).indices)] = True
    return on_path, int(np.asarray(tree.apply(row))[0])


def missing_sides(tree: FittedTree, X_train: ArrayLike | None, n_nodes: int) -> list[bool | None]:
    """Per node, whether missing values (NaN) went left; None where no training row had the
    split feature missing.

    Only such nodes say where missing values went: the tree's ``missing_go_to_left`` is set
    at every node, with or without missing values.
    """
    arrays = tree.tree_
    feature = np.asarray(arrays.feature)
    saw_missing = np.zeros(n_nodes, dtype=bool)
    if X_train is not None:
        X_rows = as_2d(X_train, "X_train")
        rows, at = tree.decision_path(X_rows).nonzero()  # every (row, node on its path)
        split = feature[at] >= 0
        missing = np.isnan(X_rows[rows[split], feature[at[split]]])
        saw_missing[np.unique(at[split][missing])] = True
    missing_left = np.asarray(getattr(arrays, "missing_go_to_left", saw_missing), dtype=bool)
    # Read as Python values once: one NumPy element read per node costs more.
    return [
        side if seen else None
        for side, seen in zip(missing_left.tolist(), saw_missing.tolist(), strict=True)
    ]


def shown_nodes(arrays: Any, max_depth: int | None, unfold: Collection[int]) -> np.ndarray:
    """Which nodes are drawn: down to ``max_depth``, each unfolded node with its children
    and its path up to the root, so that it hangs from the drawn tree, and every leaf whose
    parent is drawn.

    A folded box stands for a subtree in one box; a single leaf already is one box, and the
    leaf says what it predicts where the box would only say "1 leaf": leaves never fold."""
    left = np.asarray(arrays.children_left)
    right = np.asarray(arrays.children_right)
    n_nodes = len(left)
    cap = n_nodes if max_depth is None else max_depth
    shown = arrays.depth <= cap
    parent = np.full(n_nodes, -1)
    splits = left >= 0
    parent[left[splits]] = np.flatnonzero(splits)
    parent[right[splits]] = np.flatnonzero(splits)
    for kept in unfold:
        if not 0 <= kept < n_nodes:
            raise ValueError(f"unfold names node {kept}, but the tree has {n_nodes} nodes")
        if left[kept] >= 0:
            shown[[left[kept], right[kept]]] = True
        node = int(kept)
        while node >= 0:  # the path up to the root
            shown[node] = True
            node = int(parent[node])
    has_parent = parent >= 0
    shown[has_parent] |= (left[has_parent] < 0) & shown[parent[has_parent]]
    return shown
