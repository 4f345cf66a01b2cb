"""Minimal cost-complexity pruning (Breiman et al., 1984), as scikit-learn's ``ccp_alpha``.

A tree ``T`` costs :math:`R_\\alpha(T) = R(T) + \\alpha |leaves(T)|`, where :math:`R(T)` is the
total impurity of its leaves, each leaf weighted by the fraction of training samples it holds.
Replacing the branch below an internal node ``t`` by a leaf changes :math:`R` by
:math:`R(t) - R(T_t)` and removes :math:`|leaves(T_t)| - 1` leaves, so that branch is worth
keeping only while

.. math::

    \\alpha < g(t) = \\frac{R(t) - R(T_t)}{|leaves(T_t)| - 1}.

*Weakest-link pruning* repeatedly cuts the branch with the smallest :math:`g(t)` (the first in
node order on a tie). The successive values of :math:`g` form the pruning path; fitting with
``ccp_alpha = a`` keeps cutting while the weakest link's :math:`g(t) <= a`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from core.engine.structure import TREE_LEAF, Tree

Float = NDArray[np.float64]


@dataclass(frozen=True)
class PruningPath:
    """The weakest-link sequence of a tree.

    Attributes
    ----------
    ccp_alphas : ndarray of shape (n_steps,)
        0, then the :math:`g(t)` of each cut in order (non-decreasing).
    impurities : ndarray of shape (n_steps,)
        Total leaf impurity :math:`R` of the tree after each cut.
    """

    ccp_alphas: Float
    impurities: Float


def _weakest_link(tree: Tree, ccp_alpha: float | None) -> tuple[PruningPath, NDArray[np.bool_]]:
    """Run weakest-link pruning; stop once the weakest link exceeds ``ccp_alpha`` (None: never).

    Returns the path and the mask of nodes that are leaves of the pruned tree or above them.
    """
    n = tree.node_count
    left, right = tree.children_left, tree.children_right
    r_node = tree.weighted_n_node_samples * tree.impurity / tree.weighted_n_node_samples[0]
    parent = np.full(n, -1, dtype=np.int64)
    inner = np.flatnonzero(left != TREE_LEAF)
    parent[left[inner]] = inner
    parent[right[inner]] = inner

    # Subtree sizes (descendants of t are the ids t+1 .. t+size-1 in preorder), leaf counts and
    # R(T_t), bottom-up: children have larger ids than their parent.
    size = np.ones(n, dtype=np.int64)
    n_leaves = (left == TREE_LEAF).astype(np.int64)
    r_branch = np.where(left == TREE_LEAF, r_node, 0.0)
    for t in range(n - 1, 0, -1):
        p = parent[t]
        size[p] += size[t]
        n_leaves[p] += n_leaves[t]
        r_branch[p] += r_branch[t]

    candidate = left != TREE_LEAF
    in_tree = np.ones(n, dtype=bool)
    alphas, impurities = [0.0], [float(r_branch[0])]
    while candidate[0]:
        with np.errstate(divide="ignore", invalid="ignore"):
            g = np.where(candidate, (r_node - r_branch) / (n_leaves - 1), np.inf)
        t = int(np.argmin(g))
        alpha = float(g[t])
        if ccp_alpha is not None and ccp_alpha < alpha:
            break
        # Cut below t: its descendants leave the tree, t becomes a leaf.
        candidate[t : t + size[t]] = False
        in_tree[t + 1 : t + size[t]] = False
        removed, gain = n_leaves[t] - 1, r_node[t] - r_branch[t]
        n_leaves[t], r_branch[t] = 1, r_node[t]
        p = parent[t]
        while p != -1:
            n_leaves[p] -= removed
            r_branch[p] += gain
            p = parent[p]
        alphas.append(alpha)
        impurities.append(float(r_branch[0]))
    return PruningPath(np.array(alphas), np.array(impurities)), in_tree


def pruning_path(tree: Tree) -> PruningPath:
    """Effective alphas and total leaf impurities of the whole weakest-link sequence."""
    return _weakest_link(tree, None)[0]


def prune(tree: Tree, ccp_alpha: float) -> Tree:
    """The subtree that minimal cost-complexity pruning keeps for ``ccp_alpha``.

    Parameters
    ----------
    tree : Tree
        A fully grown tree (nodes in preorder).
    ccp_alpha : float
        Complexity parameter; 0 keeps the tree as it is.

    Returns
    -------
    Tree
        Kept nodes in their original (preorder) order; cut nodes become leaves.
    """
    if ccp_alpha <= 0.0:
        return tree
    _, in_tree = _weakest_link(tree, ccp_alpha)
    return tree.top(in_tree)
