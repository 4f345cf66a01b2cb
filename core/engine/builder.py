"""Growing trees level by level: :func:`~core.engine.criteria.scan_feature` for a whole depth.

Read :mod:`core.engine.criteria` first. ``scan_feature`` finds one feature's best threshold at
one node: sort the node's samples by the feature, take cumulative sums of their statistics (class
counts, or the moments of ``y``) so that every candidate's left side is a prefix and its right
side the node's total minus it, and score every candidate with the criterion's impurity
function. This module does exactly that for *every node of a depth and every feature at once*
(and for every tree of a forest at once, in batches of trees: :func:`grow_trees`), with a fixed
handful of NumPy calls per depth.

One depth, step by step (:func:`grow_together` runs them until no node is left to split):

1. :func:`draw_features` picks the (node, feature) pairs to try: all features for a single
   tree, ``max_features`` random ones per node for a forest's tree (:func:`candidate_blocks`
   runs steps 1 and 2, and draws on where every drawn feature is constant in the node).
2. :func:`sort_blocks` lays out one *block* per pair, holding the node's samples, and orders
   every block by its feature with one sort (by block number, then the sample's rank:
   :func:`block_order`). Rows whose value is missing (NaN) sort last, so they close every
   block. (A single tree's root needs no sort: :func:`root_order` reads its order off the
   ranks.)
3. :func:`cumulative_statistics` gives, for every *entry* of every block, the statistics of the
   rows above it: the left side of the split "before this entry" (``scan_feature``'s step 3).
4. :func:`score_candidates` scores every entry as ``n_L I(L) + n_R I(R)`` with the impurity
   function from :data:`core.engine.criteria.IMPURITY` (``scan_feature``'s step 4). The
   missing rows, at the block's end, go right; the first of them stands for the split "every
   present value left, every missing one right" (threshold ``inf``).
5. :func:`missing_values` (only when ``X`` has a NaN) finds each block's missing rows and their
   statistics, and :func:`score_missing_left` scores the same thresholds again with the
   missing rows sent left: ``scan_feature``'s step 5, scikit-learn's second pass.
6. :func:`best_per_node` keeps each node's best candidate with a segmented minimum over its
   blocks.
7. :func:`split_rows` cuts the winning blocks: a block is sorted by its feature, so the left
   child's rows are its first entries (and its missing rows, when they go left) and the right
   child's the rest. :func:`node_statistics` describes the children; those that may still
   split form the next depth.

Ties between equally good splits go to the lowest feature index, then, within a feature, to
the candidates with the missing rows sent right (the lowest threshold first, ``inf`` last),
then to those with the missing rows sent left: scikit-learn's order of search.
Each depth's nodes are recorded; :func:`assemble` finally numbers every tree's nodes in
depth-first preorder as flat arrays (:class:`core.engine.structure.Tree`).

A single tree trying every feature at every node (the default tree) takes a shortcut with the
same steps: every node's blocks then have the same size, so a depth is one table with a row per
feature (:mod:`core.engine.grid`, with less bookkeeping per depth). Forests, drawn
features, missing values and absolute error use the blocks above.

This module runs the loop; the steps live in modules of their own, and every name above can
be imported from here: :mod:`core.engine.samples` (the instances, node statistics, the
stopping rule), :mod:`core.engine.blocks` (steps 1-2, and step 7's partition of the blocks),
:mod:`core.engine.scores` (steps 3-5), :mod:`core.engine.splits` (steps 6-7) and
:mod:`core.engine.assembly` (the record of each depth, and the flat arrays).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from core.engine.assembly import Level, assemble, new_level, with_splits
from core.engine.blocks import (
    Blocks,
    FeatureDraw,
    block_order,
    candidate_blocks,
    draw_features,
    draw_more_features,
    partition_blocks,
    root_order,
    sort_blocks,
    stuck_nodes,
)
from core.engine.grid import fits_table, grow_table
from core.engine.samples import (
    EPSILON,
    Float,
    GrowthParams,
    Int,
    Nodes,
    Progress,
    Ranks,
    Samples,
    can_split,
    feature_ranks,
    node_statistics,
    prepare_samples,
)
from core.engine.scores import (
    Missing,
    cumulative_statistics,
    missing_values,
    score_candidates,
    score_missing_left,
)
from core.engine.splits import Splits, best_per_node, impurity_decrease, split_rows
from core.engine.structure import Tree

__all__ = [
    "EPSILON",
    "Blocks",
    "FeatureDraw",
    "GrowthParams",
    "Level",
    "Missing",
    "Nodes",
    "Progress",
    "Samples",
    "Splits",
    "assemble",
    "best_per_node",
    "block_order",
    "can_split",
    "candidate_blocks",
    "cumulative_statistics",
    "draw_features",
    "draw_more_features",
    "feature_ranks",
    "grow_together",
    "grow_trees",
    "impurity_decrease",
    "missing_values",
    "node_statistics",
    "partition_blocks",
    "prepare_samples",
    "root_order",
    "score_candidates",
    "score_missing_left",
    "sort_blocks",
    "split_rows",
    "stuck_nodes",
]

# ------------------------------------------------------------------------------------------------
# The loop
# ------------------------------------------------------------------------------------------------


#: Trees are grown together in batches of about this many entries (instance, feature pairs)
#: per depth, 2 MiB per array of floats. Bigger batches pay the per-depth overhead less often,
#: but a depth's arrays then outgrow the caches, and past 32 MiB glibc serves each of them by
#: mmap, faulting in every page afresh (see :mod:`core.engine.runtime`). Measured on the
#: 100-tree forests of the benchmark: 5000x20 fits in 1.22 s instead of 1.50 s with one
#: batch, 20,000x20 in 8.8 s instead of 13.5 s; 2**16 was slower again. Each tree draws from
#: its own generator, so how the trees are batched never changes a tree.
BATCH_ENTRIES = 1 << 18


def grow_trees(
    X: Float,
    y: NDArray[np.int64] | Float,
    weights: Int,
    params: GrowthParams,
    rngs: Sequence[np.random.Generator],
    progress: Progress | None = None,
    batch_entries: int = BATCH_ENTRIES,
) -> list[Tree]:
    """Grow one tree per row of ``weights``: in batches of trees, each with :func:`grow_together`.

    Parameters
    ----------
    X, y, weights, params, rngs
        As for :func:`grow_together`.
    progress : callable, optional
        Called after every depth of every batch with the fraction (0 to 1) of all the training
        instances that have reached a leaf, and with 1.0 at the end.
    batch_entries : int, default=BATCH_ENTRIES
        About how many entries a batch holds at its first depth (one tree at least).

    Returns
    -------
    list of Tree
    """
    n_features = X.shape[1]
    per_tree = np.count_nonzero(weights, axis=1) * min(params.max_features, n_features)
    total = int(per_tree.sum())
    # A new batch wherever the running count of entries passes another multiple of the budget.
    batch = (np.cumsum(per_tree) - per_tree) // max(batch_entries, 1)
    bounds = np.flatnonzero(np.diff(batch)) + 1
    starts, stops = np.r_[0, bounds], np.r_[bounds, weights.shape[0]]
    trees: list[Tree] = []
    done = 0
    rank = feature_ranks(X)  # sorted once for every batch
    for lo, hi in zip(starts.tolist(), stops.tolist(), strict=True):
        part = int(per_tree[lo:hi].sum())
        hook = progress
        if progress is not None and starts.size > 1:
            hook = _scaled(progress, done, part, max(total, 1))
        trees += grow_together(X, y, weights[lo:hi], params, rngs[lo:hi], hook, rank)
        done += part
    return trees


def _scaled(progress: Progress, done: int, part: int, total: int) -> Progress:
    """A batch's progress as a share of all the trees' (the batches before it are done)."""
    return lambda fraction: progress(min(1.0, (done + fraction * part) / total))


def grow_together(
    X: Float,
    y: NDArray[np.int64] | Float,
    weights: Int,
    params: GrowthParams,
    rngs: Sequence[np.random.Generator],
    progress: Progress | None = None,
    rank: Ranks | None = None,
) -> list[Tree]:
    """Grow one tree per row of ``weights``, all of them together, one depth at a time.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float64
    y : ndarray of shape (n_samples,)
        Class codes ``0..n_classes-1`` or float targets.
    weights : ndarray of shape (n_trees, n_samples), int64
        How many times each sample is in each tree's training set (0: left out; a bootstrap
        sample's counts for a forest, all ones for a single tree).
    params : GrowthParams
    rngs : sequence of numpy Generators, one per tree
        Used only to draw the features considered at each split.
    progress : callable, optional
        Called after every depth with the fraction (0 to 1) of training instances that have
        reached a leaf, and once with 1.0 at the end.
    rank : ndarray, optional
        :func:`core.engine.samples.feature_ranks` of ``X``, if already computed.

    Returns
    -------
    list of Tree
    """
    samples = prepare_samples(X, y, weights, rank)
    if fits_table(samples, params):
        # One tree trying every feature: a depth is one table (core.engine.grid), same tree.
        return [grow_table(samples, params, progress)]
    n_trees = weights.shape[0]
    rows = np.arange(samples.tree.size)
    roots = node_statistics(samples, rows, np.bincount(samples.tree, minlength=n_trees), params)
    levels = [new_level(roots, np.full(n_trees, -1, dtype=np.int64))]
    nodes, ids = roots, np.arange(n_trees)
    open_ = can_split(nodes, 0, params)
    rows = rows[np.repeat(open_, nodes.n)]
    nodes, ids = nodes.take(open_), ids[open_]
    depth, next_id = 0, n_trees
    every_feature = params.max_features >= samples.n_features
    blocks = None
    while ids.size:
        if blocks is None:
            blocks = candidate_blocks(samples, rows, nodes, params, rngs)
        left = cumulative_statistics(samples, blocks, nodes, params)
        missing = None
        if samples.has_missing:
            missing = missing_values(samples, blocks, left, nodes, params)
        score = score_candidates(samples, blocks, left, nodes, params, missing)
        score_left = None
        if missing is not None and missing.count.any():
            score_left = score_missing_left(samples, blocks, left, nodes, params, missing)
        splits = best_per_node(blocks, nodes, score, score_left, missing)
        child_rows, children, splits = split_rows(samples, blocks, splits, nodes, params)
        level = new_level(children, np.repeat(ids[splits.node], 2))
        levels[-1] = with_splits(levels[-1], ids[splits.node], splits)
        levels.append(level)
        child_ids = np.arange(next_id, next_id + children.n.size)
        next_id += children.n.size
        depth += 1
        open_ = can_split(children, depth, params)
        # Every node trying every feature: the children's blocks are the parent's, partitioned.
        # Otherwise each node draws its own features: lay the blocks out afresh.
        if every_feature and open_.any():
            blocks = partition_blocks(samples, blocks, child_rows, children.n, open_)
        else:
            blocks = None
        rows = child_rows[np.repeat(open_, children.n)]
        nodes, ids = children.take(open_), child_ids[open_]
        if progress is not None:
            progress(1.0 - rows.size / max(samples.tree.size, 1))
    if progress is not None:
        progress(1.0)
    return assemble(levels, samples, n_trees, params)
