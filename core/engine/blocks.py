"""Steps 1 and 2 of a depth: the candidate (node, feature) blocks, sorted by their feature.

Part of the builder (read :mod:`core.engine.builder` first). :func:`draw_features` picks the
(node, feature) pairs, :func:`sort_blocks` lays out one block per pair and sorts every block by
its feature with one sort; a single tree's root needs no sort at all (:func:`root_order`), and
a single tree's later depths partition the blocks of the depth before (:func:`partition_blocks`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from core.engine.criteria import FEATURE_THRESHOLD
from core.engine.samples import (
    SHORT_RANKS,
    Bool,
    Float,
    GrowthParams,
    Int,
    Nodes,
    Ranks,
    Samples,
    ranges,
)


@dataclass(frozen=True)
class Blocks:
    """Every candidate split of one depth, laid out block by block.

    One block per (node, feature) pair holds the node's instances sorted by the feature;
    entry ``i`` of a block stands for the split that sends the block's first ``i`` rows left.
    Blocks are ordered by node, then feature.
    """

    node: Int  #: (n_blocks,) index of the block's node
    feature: Int  #: (n_blocks,)
    start: Int  #: (n_blocks,) first entry of the block
    size: Int  #: (n_blocks,) number of entries (the node's instance count)
    rows: Int  #: (n_entries,) instance at each entry
    x: Float  #: (n_entries,) its value of the block's feature
    block: Int  #: (n_entries,) block of each entry
    first: Int  #: (n_entries,) first entry of that block
    entry_node: Int  #: (n_entries,) node of each entry
    above: Int  #: (n_entries,) rows above the entry in its block (= rows sent left)


@dataclass(frozen=True)
class FeatureDraw:
    """The (node, feature) pairs to try, ordered by node, then feature.

    ``visit`` is each node's random order of all features when features are drawn (``None``
    when every node tries every feature).
    """

    node: Int
    feature: Int
    visit: Int | None = None


def draw_features(
    nodes: Nodes, n_features: int, params: GrowthParams, rngs: Sequence[np.random.Generator]
) -> FeatureDraw:
    """Step 1: all features of every node, or ``max_features`` drawn at random per node.

    Each tree draws from its own generator, in node order, so it never depends on the other
    trees of a forest.
    """
    n_nodes, d, k = nodes.n.size, n_features, params.max_features
    if k >= d:
        return FeatureDraw(np.repeat(np.arange(n_nodes), d), np.tile(np.arange(d), n_nodes))
    keys = np.empty((n_nodes, d))
    bounds = np.flatnonzero(np.diff(nodes.tree)) + 1
    for lo, hi in zip(np.r_[0, bounds], np.r_[bounds, n_nodes], strict=True):
        keys[lo:hi] = rngs[nodes.tree[lo]].random((hi - lo, d))
    visit = np.argsort(keys, axis=1)  # each node's random visiting order of the features
    chosen = np.sort(visit[:, :k], axis=1).ravel()
    return FeatureDraw(np.repeat(np.arange(n_nodes), k), chosen, visit)


def stuck_nodes(blocks: Blocks, n_nodes: int) -> Bool:
    """Nodes where no block can split: each holds a single value, or only missing values.

    As in scikit-learn, a feature with one value and some missing rows can still split (the
    present rows one side, the missing ones the other); one with only missing rows cannot.
    """
    last = blocks.start + blocks.size - 1
    usable = blocks.x[last] > blocks.x[blocks.start] + FEATURE_THRESHOLD
    if np.isnan(blocks.x[last]).any():  # NaN sorts last: the last entry says if any is missing
        usable = ~np.isnan(blocks.x[blocks.start]) & (np.isnan(blocks.x[last]) | usable)
    return np.bincount(blocks.node, weights=usable, minlength=n_nodes) == 0


def draw_more_features(
    draw: FeatureDraw,
    visit: Int,
    stuck: Bool,
    samples: Samples,
    rows: Int,
    n: Int,
    params: GrowthParams,
) -> FeatureDraw:
    """Like scikit-learn: a feature constant in the node does not count as drawn.

    For each stuck node, keep visiting features in its random order until one is not constant,
    and add that one (if any).
    """
    start = np.cumsum(n) - n
    extra_node, extra_feature = [], []
    for j in np.flatnonzero(stuck):
        sample = samples.sample[rows[start[j] : start[j] + n[j]]]
        for f in visit[j, params.max_features :]:
            column = samples.values[f * samples.n_samples + sample]
            present = column[~np.isnan(column)]
            if present.size and (
                present.size < column.size or present.max() > present.min() + FEATURE_THRESHOLD
            ):
                extra_node.append(j)
                extra_feature.append(f)
                break
    node = np.concatenate([draw.node, np.array(extra_node, dtype=np.int64)])
    feature = np.concatenate([draw.feature, np.array(extra_feature, dtype=np.int64)])
    order = np.lexsort((feature, node))
    return FeatureDraw(node[order], feature[order], visit)


def candidate_blocks(
    samples: Samples,
    rows: Int,
    nodes: Nodes,
    params: GrowthParams,
    rngs: Sequence[np.random.Generator],
) -> Blocks:
    """Steps 1 and 2: draw the features, lay out and sort the blocks.

    When features are drawn and all of a node's drawn features are constant in it, the node
    draws on (:func:`draw_more_features`) and the blocks are laid out again; this is rare.
    """
    draw = draw_features(nodes, samples.n_features, params, rngs)
    blocks = sort_blocks(samples, rows, nodes.n, draw)
    if draw.visit is not None:
        stuck = stuck_nodes(blocks, nodes.n.size)
        if stuck.any():
            draw = draw_more_features(draw, draw.visit, stuck, samples, rows, nodes.n, params)
            blocks = sort_blocks(samples, rows, nodes.n, draw)
    return blocks


def sort_blocks(samples: Samples, rows: Int, n: Int, draw: FeatureDraw) -> Blocks:
    """Step 2: one block per (node, feature) pair, every block sorted by its feature at once.

    ``rows`` holds the instances of the nodes, in consecutive groups of sizes ``n``. The sort
    key of an entry is its block number, then the sample's rank along the block's feature.
    """
    size = n[draw.node]
    start = np.cumsum(size) - size
    block = np.repeat(np.arange(size.size), size)
    base = np.repeat(draw.feature * samples.n_samples, size)  # where each entry's feature starts
    if n.size == 1 and n[0] == samples.n_samples:
        # A single tree's root, holding every sample once: its order along each feature is
        # known from the ranks already (a single tree never sorts again, see partition_blocks).
        entry_rows = root_order(samples, rows, draw.feature)
    else:
        node_start = np.cumsum(n) - n
        entry_rows = np.take(rows, ranges(node_start[draw.node], size))
        rank = np.take(samples.rank, base + np.take(samples.sample, entry_rows))
        entry_rows = np.take(entry_rows, block_order(block, rank, samples.n_samples))
    x = np.take(samples.values, base + np.take(samples.sample, entry_rows))
    first = np.repeat(start, size)
    above = np.arange(entry_rows.size) - first
    return Blocks(
        draw.node,
        draw.feature,
        start,
        size,
        entry_rows,
        x,
        block,
        first,
        np.repeat(draw.node, size),
        above,
    )


def block_order(block: Int, rank: Ranks, n_samples: int) -> Int:
    """The order of the entries by block, then rank; the entries come block by block.

    Ranks are distinct within a block, so every sort gives the same order. With fewer than
    2**16 samples (every upload the app takes) the keys are sorted in 16-bit digits by NumPy's
    radix sort, least significant first, each pass stable: by rank, then by block (one digit
    at a time). That is about a third faster than one comparison sort of ``block * n + rank``,
    which remains for bigger data (``tests/engine/test_fast_paths.py`` compares the two).
    """
    if n_samples > SHORT_RANKS:
        return np.argsort(block * n_samples + rank, kind="stable")
    order = np.argsort(rank.astype(np.uint16, copy=False), kind="stable")
    shift, top = 0, int(block[-1]) if block.size else 0
    while True:
        digit = (np.take(block, order) >> shift).astype(np.uint16)  # keeps the low 16 bits
        order = np.take(order, np.argsort(digit, kind="stable"))
        shift += 16
        if top >> shift == 0:
            return order


def root_order(samples: Samples, rows: Int, feature: Int) -> Int:
    """The instances of a node holding every sample once, sorted along each of ``feature``.

    Along a feature the ranks of the samples are a permutation of ``0..n-1`` (ties broken by
    sample index, NaN last), so inverting it lists the samples in sorted order: the order that
    sorting by (block, rank) gives, without the sort.
    """
    n = samples.n_samples
    instance = np.empty(n, dtype=np.int64)
    instance[np.take(samples.sample, rows)] = rows
    ranks = samples.rank.reshape(samples.n_features, n)[feature]
    by_rank = np.empty_like(ranks)
    np.put_along_axis(by_rank, ranks, np.arange(n), axis=1)
    return np.take(instance, by_rank.ravel())


# ------------------------------------------------------------------------------------------------
# Step 7, continued: the next depth's blocks without sorting again
# ------------------------------------------------------------------------------------------------


def partition_places(
    samples: Samples,
    rows: Int,
    first: Int,
    above: Int,
    child_rows: Int,
    child_n: Int,
    open_: Bool,
) -> tuple[Int, Int]:
    """Where each entry of a sorted group goes when the group is cut into its node's children.

    A stable partition: an entry's place in its child is the number of entries above it in its
    group that went to the same child. The groups are blocks (:func:`partition_blocks`) or a
    node's cells in one row of a table (:func:`core.engine.grid.partition_table`).

    Parameters
    ----------
    rows : ndarray of int, any shape
        The instance at each entry.
    first : ndarray of int, the shape of ``rows``
        Flat index (into ``rows.ravel()``) of the first entry of each entry's group.
    above : ndarray of int, broadcast to the shape of ``rows``
        Entries above each entry in its group.
    child_rows, child_n : ndarray
        The children's instances in consecutive groups (left and right child of each split,
        interleaved, from step 7), and their sizes.
    open_ : ndarray of bool
        Which children will be split at the next depth.

    Returns
    -------
    new_node : ndarray of int, the shape of ``rows``
        Each entry's child among the next depth's nodes; -1 when its node did not split or
        its child will not split.
    place : ndarray of int, the shape of ``rows``
        Its place in that child's group.
    """
    # Each instance's child (-1: its node did not split), then that child's index among the
    # next depth's nodes (-1: it will not split; next_index[-1] is -1, so child -1 reads -1).
    child_of = np.full(samples.tree.size, -1, dtype=np.int64)
    child_of[child_rows] = np.repeat(np.arange(child_n.size), child_n)
    next_index = np.append(np.cumsum(open_) - 1, -1)
    next_index[:-1][~open_] = -1
    child = np.take(child_of, rows)
    new_node = np.take(next_index, child)
    # Children are interleaved, left at even indices. A group's entries all go to the children
    # of one node, so those of a child left out are never counted wrongly.
    goes_right = child & 1
    right_before = np.cumsum(goes_right).reshape(rows.shape)  # over the entries, flat
    right_before -= goes_right
    right_above = right_before - np.take(right_before, first)
    place = np.where(goes_right, right_above, above - right_above)
    return new_node, place


def partition_blocks(
    samples: Samples, blocks: Blocks, child_rows: Int, child_n: Int, open_: Bool
) -> Blocks:
    """Step 7, continued: the next depth's blocks, without sorting again.

    When every node tries every feature, the block of (child, feature) holds exactly the
    entries of (parent, feature) that went to that child, in the same order: a *stable
    partition* of each parent block into its left and right part keeps every block sorted.
    Children that will not split (``open_`` false) are left out.

    Parameters
    ----------
    blocks : Blocks
        This depth's blocks.
    child_rows, child_n : ndarray
        The children's instances in consecutive groups (from :func:`split_rows`), and sizes.
    open_ : ndarray of bool
        Which children will be split at the next depth.
    """
    d = samples.n_features
    new_node, place = partition_places(
        samples, blocks.rows, blocks.first, blocks.above, child_rows, child_n, open_
    )
    keep = new_node >= 0

    n = child_n[open_]
    size = np.repeat(n, d)
    start = np.cumsum(size) - size
    feature = blocks.feature[blocks.block]
    new_block = new_node[keep] * d + feature[keep]
    at = start[new_block] + place[keep]
    rows = np.empty(at.size, dtype=np.int64)
    x = np.empty(at.size)
    rows[at], x[at] = blocks.rows[keep], blocks.x[keep]

    every_block = np.arange(size.size)
    node = every_block // d
    block = np.repeat(every_block, size)
    first = start[block]
    return Blocks(
        node=node,
        feature=every_block % d,
        start=start,
        size=size,
        rows=rows,
        x=x,
        block=block,
        first=first,
        entry_node=node[block],
        above=np.arange(rows.size) - first,
    )
