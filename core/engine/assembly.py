"""The builder's record of every depth, and the flat arrays it finally becomes.

Part of the builder (read :mod:`core.engine.builder` first). Each depth's nodes are recorded
as a :class:`Level`; :func:`assemble` numbers every tree's nodes in depth-first preorder as flat
arrays (:class:`core.engine.structure.Tree`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.engine.samples import Bool, Float, GrowthParams, Int, Nodes, Samples
from core.engine.splits import Splits
from core.engine.structure import TREE_LEAF, TREE_UNDEFINED, Tree


@dataclass(frozen=True)
class Level:
    """The record of one depth: its nodes, their parents, and how the split ones split."""

    nodes: Nodes
    parent: Int  #: global id of each node's parent (-1 for roots)
    split_ids: Int  #: global ids of the nodes of this depth that split
    feature: Int
    threshold: Float
    missing_left: Bool


def new_level(nodes: Nodes, parent: Int) -> Level:
    """The record of a new depth: its nodes and their parents, no split yet."""
    empty = np.zeros(0, dtype=np.int64)
    return Level(nodes, parent, empty, empty, np.zeros(0), np.zeros(0, dtype=bool))


def with_splits(level: Level, split_ids: Int, splits: Splits) -> Level:
    """The record of a depth completed with how its nodes ``split_ids`` split."""
    return Level(
        level.nodes, level.parent, split_ids, splits.feature, splits.threshold,
        splits.missing_left,
    )  # fmt: skip


# ------------------------------------------------------------------------------------------------
# Assembly: preorder flat arrays, one Tree per tree
# ------------------------------------------------------------------------------------------------


def assemble(
    levels: list[Level], samples: Samples, n_trees: int, params: GrowthParams
) -> list[Tree]:
    """Number every tree's nodes in depth-first preorder and build its flat arrays.

    Level ``k`` holds the nodes at depth ``k`` (children in (left, right) pairs), and every
    node's parent is on the level before, so subtree sizes are summed bottom-up, then
    preorder positions handed out top-down: left child = parent + 1, right child = parent + 1
    + size of the left subtree.
    """
    sizes = [lv.nodes.n.size for lv in levels]
    total = sum(sizes)
    first = np.cumsum([0, *sizes])
    parent = np.concatenate([lv.parent for lv in levels])
    depth = np.repeat(np.arange(len(levels)), sizes)
    nodes = _concat_nodes([lv.nodes for lv in levels])

    left = np.full(total, TREE_LEAF, dtype=np.int64)
    right = np.full(total, TREE_LEAF, dtype=np.int64)
    feature = np.full(total, TREE_UNDEFINED, dtype=np.int64)
    threshold = np.full(total, float(TREE_UNDEFINED))
    missing_left = np.zeros(total, dtype=bool)
    for k, lv in enumerate(levels[1:], start=1):
        ids = np.arange(first[k], first[k + 1])
        left[lv.parent[0::2]], right[lv.parent[0::2]] = ids[0::2], ids[1::2]
    for lv in levels:
        feature[lv.split_ids], threshold[lv.split_ids] = lv.feature, lv.threshold
        missing_left[lv.split_ids] = lv.missing_left

    size = np.ones(total, dtype=np.int64)
    for k in range(len(levels) - 1, 0, -1):
        ids = np.arange(first[k], first[k + 1])
        size[parent[ids[0::2]]] = 1 + size[ids[0::2]] + size[ids[1::2]]
    pre = np.zeros(total, dtype=np.int64)
    for k in range(1, len(levels)):
        left_ids = np.arange(first[k], first[k + 1], 2)  # children come in (left, right) pairs
        p = parent[left_ids]
        pre[left_ids] = pre[p] + 1
        pre[left_ids + 1] = pre[p] + 1 + size[left_ids]

    tree_sizes = np.bincount(nodes.tree, minlength=n_trees)
    tree_start = np.cumsum(tree_sizes) - tree_sizes
    order = np.empty(total, dtype=np.int64)  # order[preorder position] = recorded id
    order[tree_start[nodes.tree] + pre] = np.arange(total)
    c_left = np.where(left >= 0, pre[np.maximum(left, 0)], TREE_LEAF)[order]
    c_right = np.where(right >= 0, pre[np.maximum(right, 0)], TREE_LEAF)[order]
    value = nodes.value[order]
    if params.n_classes:
        value = value / nodes.weight[order, None]  # counts -> class fractions
    feature, threshold, depth = feature[order], threshold[order], depth[order]
    missing_left = missing_left[order]
    impurity, n_node, weight = nodes.impurity[order], nodes.n[order], nodes.weight[order]
    trees = []
    for t in range(n_trees):
        sl = slice(int(tree_start[t]), int(tree_start[t] + tree_sizes[t]))
        trees.append(
            Tree(
                children_left=c_left[sl],
                children_right=c_right[sl],
                feature=feature[sl],
                threshold=threshold[sl],
                impurity=impurity[sl],
                n_node_samples=n_node[sl],
                weighted_n_node_samples=weight[sl],
                value=value[sl].reshape(-1, 1, value.shape[1]),
                n_features=samples.n_features,
                node_depth=depth[sl],
                missing_go_to_left=missing_left[sl],
            )
        )
    return trees


def _concat_nodes(parts: list[Nodes]) -> Nodes:
    return Nodes(
        np.concatenate([p.tree for p in parts]),
        np.concatenate([p.n for p in parts]),
        np.concatenate([p.weight for p in parts]),
        np.concatenate([p.stats for p in parts]),
        np.concatenate([p.impurity for p in parts]),
        np.concatenate([p.value for p in parts]),
    )
