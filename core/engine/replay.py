"""A fitted tree replayed split by split, best first; nothing is grown here.

:mod:`core.engine.grow` grows a tree depth by depth; this module takes the finished tree and
replays its splits as a *sequence*, best first: start from the root as a single leaf; at every
step split the leaf whose split lowers the tree's impurity the most, measured by
scikit-learn's *weighted impurity decrease*

.. math::

    \\Delta(t) = \\frac{N_t}{N} \\Big( I(t) - \\frac{N_L}{N_t} I(L) - \\frac{N_R}{N_t} I(R) \\Big),

the quantity ``min_impurity_decrease`` thresholds (:math:`N` counts the root's samples,
:math:`N_t` the node's). Ties go to the lower node id.

No tree is refitted for this. A node's split depends only on the samples that reach it, so the
splits of ONE fitted tree, taken in that order, give every intermediate tree: step ``k`` is the
fitted tree with only its first ``k`` splits made, and the other nodes left as leaves holding
their own values. After the last step it *is* the fitted tree.

Why a node split as it did, or stopped, is :mod:`core.engine.node_splits`.
"""

from __future__ import annotations

import copy
import heapq
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from core.engine.structure import Tree

Int = NDArray[np.int64]
Float = NDArray[np.float64]

__all__ = [
    "GrowthPrefix",
    "GrowthSteps",
    "estimator_after",
    "estimator_of",
    "growth_steps",
    "prefix_after",
    "tree_after",
]


# --------------------------------------------------------------------------------------------
# The order of the splits
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GrowthSteps:
    """The splits of a fitted tree in best-first order; entry ``k`` is step ``k + 1``.

    Attributes
    ----------
    node : ndarray of shape (n_steps,), int64
        Id of the split node in the fitted tree.
    depth : ndarray of shape (n_steps,), int64
    feature : ndarray of shape (n_steps,), int64
    threshold : ndarray of shape (n_steps,), float64
        The rule is ``x[feature] <= threshold`` goes left.
    missing_go_to_left : ndarray of shape (n_steps,), bool
        Where a missing value (NaN) goes at the step's node.
    n_samples : ndarray of shape (n_steps,), int64
        Training samples reaching the node, :math:`N_t`.
    impurity : ndarray of shape (n_steps,), float64
        :math:`I(t)`, before the split.
    child_impurity : ndarray of shape (n_steps,), float64
        :math:`(N_L I(L) + N_R I(R)) / N_t`, after it.
    gain : ndarray of shape (n_steps,), float64
        ``impurity - child_impurity``.
    decrease : ndarray of shape (n_steps,), float64
        :math:`\\Delta(t) = N_t / N \\cdot gain`, the order's key (non-increasing only along a
        path: a child may decrease more than a sibling split earlier).
    """

    node: Int
    depth: Int
    feature: Int
    threshold: Float
    missing_go_to_left: NDArray[np.bool_]
    n_samples: Int
    impurity: Float
    child_impurity: Float
    gain: Float
    decrease: Float

    def __len__(self) -> int:
        return int(self.node.size)


def _decreases(tree: Tree) -> tuple[Float, Float]:
    """Weighted child impurity and weighted impurity decrease of every node (0 at leaves)."""
    w, imp = tree.weighted_n_node_samples, tree.impurity
    inner = ~tree.is_leaf
    left = np.where(inner, tree.children_left, 0)
    right = np.where(inner, tree.children_right, 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        children = (w[left] * imp[left] + w[right] * imp[right]) / w
    children = np.where(inner, children, imp)
    decrease = w / w[0] * (imp - children)
    return children, np.where(inner, decrease, 0.0)


def growth_steps(tree: Tree) -> GrowthSteps:
    """Order the splits of ``tree`` best first.

    The *frontier* holds the leaves of the tree grown so far that the fitted tree splits. Each
    step takes the frontier node with the largest weighted impurity decrease (the lowest id on
    a tie), splits it, and puts its children that the fitted tree splits on the frontier.

    Parameters
    ----------
    tree : Tree
        A fitted tree (``model.tree_``), pruned or not.

    Returns
    -------
    GrowthSteps
        One entry per internal node of ``tree``: ``len(steps) == node_count - n_leaves``.
    """
    child_impurity, decrease = _decreases(tree)
    order: list[int] = []
    # heapq pops the smallest: key (-decrease, id) gives the largest decrease, lowest id first.
    frontier: list[tuple[float, int]] = []
    if not tree.is_leaf[0]:
        frontier.append((-float(decrease[0]), 0))
    while frontier:
        _, node = heapq.heappop(frontier)
        order.append(node)
        for child in (int(tree.children_left[node]), int(tree.children_right[node])):
            if not tree.is_leaf[child]:
                heapq.heappush(frontier, (-float(decrease[child]), child))
    nodes = np.array(order, dtype=np.int64)
    return GrowthSteps(
        node=nodes,
        depth=tree.depth[nodes].copy(),
        feature=tree.feature[nodes].copy(),
        threshold=tree.threshold[nodes].copy(),
        missing_go_to_left=np.asarray(tree.missing_go_to_left, dtype=bool)[nodes],
        n_samples=tree.n_node_samples[nodes].copy(),
        impurity=tree.impurity[nodes].copy(),
        child_impurity=child_impurity[nodes],
        gain=tree.impurity[nodes] - child_impurity[nodes],
        decrease=decrease[nodes],
    )


# --------------------------------------------------------------------------------------------
# The tree after k steps
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GrowthPrefix:
    """The tree after the first ``k`` splits, and how its nodes map to the fitted tree's.

    Attributes
    ----------
    k : int
        Number of splits made.
    tree : Tree
        A valid tree in preorder; nodes the fitted tree splits later are leaves here.
    final_id : ndarray of shape (tree.node_count,), int64
        Fitted-tree id of every node of ``tree``.
    prefix_id : ndarray of shape (fitted node_count,), int64
        Id in ``tree`` of every node of the fitted tree, -1 for nodes not grown yet.
    newest : int or None
        Id in ``tree`` of the node split at step ``k`` (None for ``k == 0``).
    """

    k: int
    tree: Tree
    final_id: Int
    prefix_id: Int
    newest: int | None


def prefix_after(tree: Tree, k: int, steps: GrowthSteps | None = None) -> GrowthPrefix:
    """The tree grown by the first ``k`` best-first splits of ``tree``.

    Its nodes are the root and the children of the ``k`` split nodes, numbered in the fitted
    tree's preorder (which, restricted to them, is their own preorder). Unsplit nodes keep their
    impurity, sample counts and value, so they predict what the fitted tree's node would.

    Parameters
    ----------
    tree : Tree
    k : int
        ``0 <= k <= len(steps)``; 0 gives the root alone, ``len(steps)`` the fitted tree.
    steps : GrowthSteps, optional
        ``growth_steps(tree)``, when the caller already has it.

    Returns
    -------
    GrowthPrefix
    """
    steps = growth_steps(tree) if steps is None else steps
    if isinstance(k, bool) or not isinstance(k, int | np.integer):
        raise TypeError(f"k must be an int; got {k!r}")
    if not 0 <= k <= len(steps):
        raise ValueError(f"k must be in [0, {len(steps)}] for this tree; got {k}")
    split = np.zeros(tree.node_count, dtype=bool)
    split[steps.node[:k]] = True
    grown = np.zeros(tree.node_count, dtype=bool)
    grown[0] = True
    grown[tree.children_left[split]] = True
    grown[tree.children_right[split]] = True

    keep = np.flatnonzero(grown)
    prefix_id = np.full(tree.node_count, -1, dtype=np.int64)
    prefix_id[keep] = np.arange(keep.size)
    prefix = tree.top(grown)
    newest = None if k == 0 else int(prefix_id[steps.node[k - 1]])
    return GrowthPrefix(k=int(k), tree=prefix, final_id=keep, prefix_id=prefix_id, newest=newest)


def tree_after(tree: Tree, k: int) -> Tree:
    """The tree after ``k`` best-first splits (see :func:`prefix_after`)."""
    return prefix_after(tree, k).tree


def estimator_after(model: Any, k: int, steps: GrowthSteps | None = None) -> Any:
    """A copy of a fitted tree estimator whose ``tree_`` is the tree after ``k`` splits.

    Everything else (``classes_``, ``criterion``, ``n_features_in_``...) is shared with
    ``model``, which is left untouched, so ``predict``, ``build_tree_diagram`` and
    ``compute_boundary`` work on the copy as on the fitted model.
    """
    return estimator_of(model, prefix_after(model.tree_, k, steps))


def estimator_of(model: Any, prefix: GrowthPrefix) -> Any:
    """:func:`estimator_after` from a prefix already cut from ``model``'s tree."""
    grown = copy.copy(model)
    grown.tree_ = prefix.tree
    return grown
