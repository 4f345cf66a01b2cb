"""Steps 6 and 7 of a depth: each node's best split, and its children.

Part of the builder (read :mod:`core.engine.builder` first). :func:`best_per_node` keeps each
node's best candidate with a segmented minimum over its blocks; :func:`split_rows` cuts the
winning blocks into the children's rows and describes the children.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.engine.blocks import Blocks
from core.engine.criteria import midpoint
from core.engine.samples import (
    EPSILON,
    Bool,
    Float,
    GrowthParams,
    Int,
    Nodes,
    Samples,
    node_statistics,
    ranges,
)
from core.engine.scores import Missing


@dataclass(frozen=True)
class Splits:
    """The chosen split of every node that splits."""

    node: Int  #: index of the split node
    feature: Int
    threshold: Float
    start: Int  #: first entry of the winning block: the left child's rows start here
    n_left: Int  #: entries sent left (missing ones included when they go left)
    present: Int  #: entries of the winning block with a value (the rest are missing)
    missing_left: Bool  #: where a missing value goes (``Tree.missing_go_to_left``)

    def take(self, keep: Bool) -> Splits:
        return Splits(
            self.node[keep], self.feature[keep], self.threshold[keep], self.start[keep],
            self.n_left[keep], self.present[keep], self.missing_left[keep],
        )  # fmt: skip


# ------------------------------------------------------------------------------------------------
# Step 6: the best split of every node
# ------------------------------------------------------------------------------------------------


def _block_best(blocks: Blocks, score: Float) -> tuple[Float, Int]:
    """Each block's lowest score and the first entry that has it."""
    best = np.minimum.reduceat(score, blocks.start)
    is_best = score == best[blocks.block]
    entry = np.minimum.reduceat(np.where(is_best, np.arange(score.size), score.size), blocks.start)
    return best, entry


def best_per_node(
    blocks: Blocks,
    nodes: Nodes,
    score: Float,
    score_left: Float | None = None,
    missing: Missing | None = None,
) -> Splits:
    """Step 6: each node's best candidate, by a segmented minimum over the node's blocks.

    First each block's best entry (the lowest threshold among equal scores), then each node's
    best block. A node's blocks are consecutive and ordered by feature; with step 5's scores,
    each block offers two candidates, its best with the missing rows sent right, then its best
    with them sent left. Among equal scores the first candidate wins: the lowest feature, then
    missing right before missing left (scikit-learn's order). Nodes with no valid split are
    left out.

    Where a node's winning block has no missing rows, ``missing_left`` tells a missing value
    met at prediction time to follow the majority: left when more training rows went left.
    """
    best, entry = _block_best(blocks, score)
    sent_left = np.zeros(best.size, dtype=bool)
    if score_left is not None:
        best_left, entry_left = _block_best(blocks, score_left)
        best = np.column_stack([best, best_left]).ravel()  # per block: right, then left
        entry = np.column_stack([entry, entry_left]).ravel()
        sent_left = np.tile([False, True], blocks.size.size)
    per_block = best.size // blocks.size.size
    first = per_block * np.searchsorted(blocks.node, np.arange(nodes.n.size))
    node_best = np.minimum.reduceat(best, first)
    is_best = best == node_best[np.repeat(blocks.node, per_block)]
    winner = np.minimum.reduceat(np.where(is_best, np.arange(best.size), best.size), first)
    node = np.flatnonzero(np.isfinite(node_best))
    candidate = winner[node]
    e, left_pass = entry[candidate], sent_left[candidate]
    block = blocks.block[e]
    size = blocks.size[block]
    present = size if missing is None else missing.present[block]
    n_left = np.where(left_pass, blocks.above[e] + size - present, blocks.above[e])
    all_present_left = blocks.above[e] == present  # only when there are missing rows
    threshold = np.where(all_present_left, np.inf, midpoint(blocks.x[e - 1], blocks.x[e]))
    # With missing rows, the pass that won says where they go; without, the bigger side.
    missing_left = np.where(present < size, left_pass, n_left > size - n_left)
    return Splits(
        node=node,
        feature=blocks.feature[block],
        threshold=threshold,
        start=blocks.start[block],
        n_left=n_left,
        present=present,
        missing_left=missing_left,
    )


# ------------------------------------------------------------------------------------------------
# Step 7: split the rows
# ------------------------------------------------------------------------------------------------


def split_rows(
    samples: Samples, blocks: Blocks, splits: Splits, nodes: Nodes, params: GrowthParams
) -> tuple[Int, Nodes, Splits]:
    """Step 7: the children of every split, and their rows.

    A winning block is sorted by the winning feature, its missing rows last. The left child's
    rows are its first entries, then, when the missing rows go left, those last ones; the
    right child's are the entries in between (and the missing rows when they go right).
    Splits that do not decrease the weighted impurity by ``min_impurity_decrease`` are
    dropped (their node stays a leaf).

    Returns
    -------
    rows : ndarray
        The children's instances, in consecutive groups: left and right child of the first
        split, then of the second...
    children : Nodes
        Interleaved the same way.
    splits : Splits
        The splits kept.
    """
    n = nodes.n[splits.node]
    child_n = np.column_stack([splits.n_left, n - splits.n_left]).ravel()
    if n.size:
        # Three runs of each winning block: present rows sent left, missing rows sent left
        # (empty unless they go left and exist), the rest (the right child).
        moved = np.where(splits.missing_left, n - splits.present, 0)
        cut = splits.n_left - moved
        starts = np.column_stack([splits.start, splits.start + splits.present, splits.start + cut])
        lengths = np.column_stack([cut, moved, n - cut - moved])
        rows = blocks.rows[ranges(starts.ravel(), lengths.ravel())]
    else:
        rows = np.zeros(0, dtype=np.int64)
    children = node_statistics(samples, rows, child_n, params)
    gain = impurity_decrease(nodes.take(splits.node), children, samples.tree_weight)
    keep = gain + EPSILON >= params.min_impurity_decrease
    if keep.all():
        return rows, children, splits
    kept_children = np.repeat(keep, 2)
    return (
        rows[np.repeat(kept_children, child_n)],
        children.take(kept_children),
        splits.take(keep),
    )


def impurity_decrease(parents: Nodes, children: Nodes, tree_weight: Float) -> Float:
    """Weighted impurity decrease of each split, as ``min_impurity_decrease`` sees it.

    ``w_t / w * (I(t) - w_L / w_t * I(L) - w_R / w_t * I(R))``, with ``children`` interleaved
    (left and right child of the first parent, then of the second...).
    """
    weighted = children.weight * children.impurity
    child = (weighted[0::2] + weighted[1::2]) / parents.weight
    result: Float = parents.weight / tree_weight[parents.tree] * (parents.impurity - child)
    return result
