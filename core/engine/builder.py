"""Growing trees level by level: :func:`~core.engine.criteria.scan_feature` for a whole depth.

Read :mod:`core.engine.criteria` first. ``scan_feature`` finds one feature's best threshold at
one node: sort the node's samples by the feature, take cumulative sums of their statistics (class
counts, or the moments of ``y``) so that every candidate's left side is a prefix and its right
side the node's total minus it, and score every candidate with the criterion's impurity
function. This module does exactly that for *every node of a depth and every feature at once*
(and for every tree of a forest at once), with a fixed handful of NumPy calls per depth.

One depth, step by step (:func:`grow_trees` runs them until no node is left to split):

1. :func:`draw_features` picks the (node, feature) pairs to try: all features for a single
   tree, ``max_features`` random ones per node for a forest's tree (:func:`candidate_blocks`
   runs steps 1 and 2, and draws on where every drawn feature is constant in the node).
2. :func:`sort_blocks` lays out one *block* per pair, holding the node's samples, and orders
   every block by its feature with one sort (key: block number, then the sample's rank). Rows
   whose value is missing (NaN) sort last, so they close every block.
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
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from core.engine.criteria import (
    FEATURE_THRESHOLD,
    IMPURITY,
    Criterion,
    absolute_error,
    midpoint,
    prefix_absolute_deviation,
    weighted_median,
)
from core.engine.structure import TREE_LEAF, TREE_UNDEFINED, Tree

Int = NDArray[np.int64]
Float = NDArray[np.float64]
Bool = NDArray[np.bool_]

#: Called once per depth with the fraction of the training rows already settled in leaves.
Progress = Callable[[float], None]

#: A node whose impurity is at most this is pure and is not split (as in scikit-learn).
EPSILON = float(np.finfo(np.float64).eps)


@dataclass(frozen=True)
class GrowthParams:
    """Resolved growth settings (the estimators turn their hyperparameters into these).

    Attributes
    ----------
    criterion : str
        ``"gini"``, ``"entropy"``, ``"squared_error"`` or ``"absolute_error"``.
    n_classes : int
        Number of classes; 0 for regression.
    max_depth : int
        Nodes at this depth are leaves.
    min_samples_split : int
        Nodes with fewer samples are leaves.
    min_samples_leaf : int
        Every child keeps at least this many samples.
    min_impurity_decrease : float
        A split must decrease the weighted impurity,
        ``w_t / w * (I(t) - w_L / w_t * I(L) - w_R / w_t * I(R))``, by at least this much.
    max_features : int
        Number of features drawn at random at every split (all ``d`` for no sampling).
    """

    criterion: Criterion
    n_classes: int
    max_depth: int
    min_samples_split: int
    min_samples_leaf: int
    min_impurity_decrease: float
    max_features: int


@dataclass(frozen=True)
class Samples:
    """The training rows of every tree, and every feature sorted once.

    An *instance* is a (tree, sample) pair with a positive weight; instances are ordered by
    tree, then sample. Feature values and ranks are stored feature-major and flat, at
    ``feature * n_samples + sample``.
    """

    tree: Int  #: (n_instances,) the tree of each instance
    sample: Int  #: (n_instances,) its row of X
    weight: Float  #: (n_instances,) how often the tree drew that row
    y: NDArray[np.int64] | Float  #: (n_instances,) class code or target
    unit_weights: bool  #: every weight is 1 (a single tree)
    tree_weight: Float  #: (n_trees,) total weight of each tree's root
    rank: Int  #: (n_features * n_samples,) rank of each sample along each feature (NaN last)
    values: Float  #: (n_features * n_samples,) X, feature-major
    n_samples: int
    n_features: int
    has_missing: bool  #: X holds a NaN somewhere (step 5 runs only then)


@dataclass(frozen=True)
class Nodes:
    """Some nodes, one entry per node; their rows are consecutive groups of a ``rows`` array.

    ``stats`` are the statistics the criterion adds up: class counts ``(n_nodes, n_classes)``,
    or the moments ``(w, s, q)`` of ``y`` centred on the node's mean for squared error
    (``(n_nodes, 0)`` for absolute error, which has none). ``value`` is what the node predicts
    before normalisation: class counts, the mean, or the median.
    """

    tree: Int
    n: Int  #: number of instances (distinct training rows)
    weight: Float  #: their total weight
    stats: Float
    impurity: Float
    value: Float  #: (n_nodes, n_values)

    def take(self, keep: Bool | Int) -> Nodes:
        """The nodes selected by a mask or index array."""
        return Nodes(
            self.tree[keep],
            self.n[keep],
            self.weight[keep],
            self.stats[keep],
            self.impurity[keep],
            self.value[keep],
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
class Missing:
    """Step 5's view of the missing values: where they are in every block, and what they hold.

    A block's missing rows are its last entries (NaN sorts last), after its ``present`` ones.
    """

    present: Int  #: (n_blocks,) entries with a value
    count: Int  #: (n_blocks,) entries without one (the block's missing rows)
    stats: Float  #: (n_blocks, n_stats) their statistics, as the criterion adds them up
    weight: Float  #: (n_blocks,) their total weight


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


@dataclass(frozen=True)
class Level:
    """The record of one depth: its nodes, their parents, and how the split ones split."""

    nodes: Nodes
    parent: Int  #: global id of each node's parent (-1 for roots)
    split_ids: Int  #: global ids of the nodes of this depth that split
    feature: Int
    threshold: Float
    missing_left: Bool


# ------------------------------------------------------------------------------------------------
# The loop
# ------------------------------------------------------------------------------------------------


def grow_trees(
    X: Float,
    y: NDArray[np.int64] | Float,
    weights: Int,
    params: GrowthParams,
    rngs: Sequence[np.random.Generator],
    progress: Progress | None = None,
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

    Returns
    -------
    list of Tree
    """
    samples = prepare_samples(X, y, weights)
    n_trees = weights.shape[0]
    rows = np.arange(samples.tree.size)
    roots = node_statistics(samples, rows, np.bincount(samples.tree, minlength=n_trees), params)
    levels = [_level(roots, np.full(n_trees, -1, dtype=np.int64))]
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
        level = _level(children, np.repeat(ids[splits.node], 2))
        levels[-1] = _with_splits(levels[-1], ids[splits.node], splits)
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


def _level(nodes: Nodes, parent: Int) -> Level:
    empty = np.zeros(0, dtype=np.int64)
    return Level(nodes, parent, empty, empty, np.zeros(0), np.zeros(0, dtype=bool))


def _with_splits(level: Level, split_ids: Int, splits: Splits) -> Level:
    return Level(
        level.nodes, level.parent, split_ids, splits.feature, splits.threshold,
        splits.missing_left,
    )  # fmt: skip


def prepare_samples(X: Float, y: NDArray[np.int64] | Float, weights: Int) -> Samples:
    """Instances of every tree, and the one sort: each sample's rank along each feature."""
    n_samples, n_features = X.shape
    tree, sample = np.nonzero(weights > 0)
    w = weights[tree, sample].astype(np.float64)
    order = np.argsort(X, axis=0, kind="stable")  # ties broken by sample index; NaN last
    rank = np.empty((n_features, n_samples), dtype=np.int64)
    rank[np.arange(n_features)[:, None], order.T] = np.arange(n_samples)
    return Samples(
        tree=tree.astype(np.int64),
        sample=sample.astype(np.int64),
        weight=w,
        y=y[sample],
        unit_weights=bool(np.all(w == 1.0)),
        tree_weight=np.bincount(tree, weights=w, minlength=weights.shape[0]).astype(np.float64),
        rank=rank.ravel(),
        values=np.ascontiguousarray(X.T).ravel(),
        n_samples=n_samples,
        n_features=n_features,
        has_missing=bool(np.isnan(X).any()),
    )


def _ranges(starts: Int, lengths: Int) -> Int:
    """Concatenation of ``arange(s, s + l)`` for every ``(s, l)``."""
    before = np.cumsum(lengths) - lengths
    return np.repeat(starts - before, lengths) + np.arange(int(before[-1] + lengths[-1]))


# ------------------------------------------------------------------------------------------------
# Node statistics and the stopping rule
# ------------------------------------------------------------------------------------------------


def node_statistics(samples: Samples, rows: Int, n: Int, params: GrowthParams) -> Nodes:
    """Statistics of the nodes whose instances are ``rows``, in consecutive groups of ``n``.

    Every group holds at least one instance. The impurity comes from the same registry function
    as every candidate's score (:data:`core.engine.criteria.IMPURITY`).
    """
    n_nodes = n.size
    group = np.repeat(np.arange(n_nodes), n)
    w = samples.weight[rows]
    tree = samples.tree[rows[np.cumsum(n) - n]]
    weight = _sums(group, w, n_nodes)
    k = params.n_classes
    if k:
        codes = np.asarray(samples.y[rows], dtype=np.int64)
        counts = _sums(group * k + codes, w, n_nodes * k).reshape(n_nodes, k)
        return Nodes(tree, n, weight, counts, IMPURITY[params.criterion](counts), counts)
    y = samples.y[rows].astype(np.float64)
    if params.criterion == "squared_error":
        # Centre each node's targets on its own mean: then s ~ 0, and a node whose targets
        # are all equal has q = 0 exactly, hence impurity 0.
        mean = _sums(group, w * y, n_nodes) / weight
        centred = y - mean[group]
        s = _sums(group, w * centred, n_nodes)
        q = _sums(group, w * centred * centred, n_nodes)
        stats = np.column_stack([weight, s, q])
        return Nodes(tree, n, weight, stats, IMPURITY["squared_error"](stats), mean[:, None])
    # Absolute error: a median does not add up, so each node is measured on its own.
    bounds = np.cumsum(n).tolist()
    parts = [(y[a:b], w[a:b]) for a, b in zip([0, *bounds[:-1]], bounds, strict=True)]
    median = np.array([weighted_median(yy, ww) for yy, ww in parts])
    impurity = np.array([absolute_error(yy, ww) for yy, ww in parts])
    return Nodes(tree, n, weight, np.zeros((n_nodes, 0)), impurity, median[:, None])


def _sums(group: Int, values: Float, n_groups: int) -> Float:
    """Sum of ``values`` in each group ``0..n_groups-1``."""
    return np.bincount(group, weights=values, minlength=n_groups).astype(np.float64, copy=False)


def can_split(nodes: Nodes, depth: int, params: GrowthParams) -> Bool:
    """Nodes that may be split: below ``max_depth``, big enough, and not pure."""
    if depth >= params.max_depth:
        return np.zeros(nodes.n.size, dtype=bool)
    big_enough = max(params.min_samples_split, 2 * params.min_samples_leaf)
    return (nodes.n >= big_enough) & (nodes.impurity > EPSILON)


# ------------------------------------------------------------------------------------------------
# Steps 1-2: the candidate blocks
# ------------------------------------------------------------------------------------------------


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
        entry_rows = np.take(rows, _ranges(node_start[draw.node], size))
        rank = np.take(samples.rank, base + np.take(samples.sample, entry_rows))
        key = block * samples.n_samples + rank
        # Keys are distinct, so every sort gives the same order; the stable one (timsort) is
        # many times faster here, because the keys already come in runs, one per block.
        entry_rows = np.take(entry_rows, np.argsort(key, kind="stable"))
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
# Steps 3-4: cumulative statistics, the scores
# ------------------------------------------------------------------------------------------------


def cumulative_statistics(
    samples: Samples, blocks: Blocks, nodes: Nodes, params: GrowthParams
) -> Float:
    """Step 3: statistics of the rows above every entry in its block (the split's left side).

    Returns
    -------
    ndarray of shape (n_entries, n_stats)
        Class counts, or the moments ``(w, s, q)`` of ``y`` centred on the node's mean (the
        centre of the node's own moments, so ``right = node - left`` holds);
        ``(n_entries, 0)`` for absolute error. The array is stored statistic by statistic
        (it is the transpose of a C-ordered ``(n_stats, n_entries)`` array): sums over a row's
        few statistics then run down long contiguous columns, many times faster.
    """
    m = blocks.rows.size
    w = None if samples.unit_weights else samples.weight[blocks.rows]
    if params.n_classes:
        one_hot = np.arange(params.n_classes)[:, None] == samples.y[blocks.rows]
        per_row = one_hot.astype(np.float64) if w is None else one_hot * w
    elif params.criterion == "squared_error":
        centred = samples.y[blocks.rows] - nodes.value[blocks.entry_node, 0]
        w = np.ones(m) if w is None else w
        per_row = np.stack([w, w * centred, w * centred * centred])
    else:
        return np.zeros((m, 0))
    # prefix[:, i] is the sum of the first i entries, so the rows above entry i in its block
    # sum to prefix[:, i] - prefix[:, first entry of the block].
    prefix = np.zeros((per_row.shape[0], m + 1))
    np.cumsum(per_row, axis=1, out=prefix[:, 1:])
    # (np.take along an axis is many times faster than fancy indexing prefix[:, first].)
    left: Float = (prefix[:, :-1] - np.take(prefix, blocks.first, axis=1)).T
    return left


def score_candidates(
    samples: Samples,
    blocks: Blocks,
    left: Float,
    nodes: Nodes,
    params: GrowthParams,
    missing: Missing | None = None,
) -> Float:
    """Step 4: the weighted child impurity ``n_L I(L) + n_R I(R)`` of every entry.

    ``I`` is the criterion's function from :data:`core.engine.criteria.IMPURITY`, applied to
    the left statistics and to the node's minus them. Entries that are not valid splits (an
    empty or too small side, or equal feature values on both sides) score ``inf``. A block's
    missing rows are its last entries, so here they go right; the first of them is the split
    "every present value left, every missing one right" (given ``missing``, from step 5).

    Returns
    -------
    ndarray of shape (n_entries,)
        Lower is better.
    """
    size = blocks.size[blocks.block]
    msl = params.min_samples_leaf
    valid = (blocks.above >= max(1, msl)) & (size - blocks.above >= msl)
    valid[1:] &= blocks.x[1:] > blocks.x[:-1] + FEATURE_THRESHOLD  # False beside a NaN
    if missing is not None:
        count = missing.count[blocks.block]
        all_present_left = (blocks.above == missing.present[blocks.block]) & (count > 0)
        valid |= all_present_left & (blocks.above >= max(1, msl)) & (count >= msl)
    if params.criterion == "absolute_error":
        score = _absolute_error_scores(samples, blocks)
    else:
        impurity = IMPURITY[params.criterion]
        w_left = _left_weight(samples, blocks, left, params)
        w_right = nodes.weight[blocks.entry_node] - w_left
        node_stats = np.take(nodes.stats.T, blocks.entry_node, axis=1)
        right = (node_stats - left.T).T  # stored like left
        score = w_left * impurity(left) + w_right * impurity(right)
    return np.where(valid, score, np.inf)


def _left_weight(
    samples: Samples, blocks: Blocks, left: Float, params: GrowthParams, at: Int | None = None
) -> Float:
    """Weight of the rows above every entry in its block (or above the entries ``at`` only).

    With unit weights it is the number of rows above. Otherwise step 3 has summed it already:
    it is the sum of the left class counts, or the moment ``w``. Weights are whole numbers,
    so these sums are exact: the same value as summing the weights again, without the pass
    over every entry's weight that would cost.
    """
    if samples.unit_weights:
        above = blocks.above if at is None else blocks.above[at]
        return above.astype(np.float64)
    if params.n_classes or params.criterion == "squared_error":
        rows = left if at is None else left[at]
        if not params.n_classes:
            return rows[:, 0].copy()  # the moment w
        total = rows[:, 0].copy()
        for k in range(1, rows.shape[1]):
            total += rows[:, k]
        return total
    w = samples.weight[blocks.rows]
    prefix = np.cumsum(w) - w
    weight: Float = prefix - prefix[blocks.first]
    return weight if at is None else weight[at]


def _absolute_error_scores(samples: Samples, blocks: Blocks, moved: Int | None = None) -> Float:
    """Absolute error has no cumulative-sum shortcut: scan each block in turn.

    A split before row ``o`` of a block costs the sum of absolute deviations of its first
    ``o`` rows plus that of the remaining rows. With ``moved`` (step 5), each block's last
    ``moved`` rows (its missing ones) are put first, and a split before row ``o`` sends them
    left with the ``o`` rows above it.
    """
    y = samples.y[blocks.rows].astype(np.float64)
    w = samples.weight[blocks.rows].astype(np.int64)
    score = np.full(y.size, np.inf)
    counts = np.zeros(blocks.size.size, dtype=np.int64) if moved is None else moved
    for a, n, m in zip(blocks.start.tolist(), blocks.size.tolist(), counts.tolist(), strict=True):
        if moved is not None and m == 0:
            continue  # no missing rows: nothing to send left
        order = np.r_[n - m : n, 0 : n - m]  # the missing rows first (none when m == 0)
        yy, ww = y[a : a + n][order], w[a : a + n][order]
        left = prefix_absolute_deviation(yy, ww)
        right = prefix_absolute_deviation(yy[::-1], ww[::-1])[::-1]
        cut = np.arange(n - m) + m  # rows sent left when the split is before row o
        score[a : a + n - m] = left[cut] + right[cut]
    return score


# ------------------------------------------------------------------------------------------------
# Step 5: the missing values
# ------------------------------------------------------------------------------------------------


def missing_values(
    samples: Samples, blocks: Blocks, left: Float, nodes: Nodes, params: GrowthParams
) -> Missing:
    """Step 5a: each block's missing rows (its last entries) and their statistics.

    Their statistics are the node's minus those above the first missing entry (the present
    rows'); a block without missing rows gets zeros.
    """
    present = np.bincount(
        blocks.block, weights=~np.isnan(blocks.x), minlength=blocks.size.size
    ).astype(np.int64)
    count = blocks.size - present
    first_missing = np.minimum(blocks.start + present, blocks.rows.size - 1)
    has = count > 0
    node_stats = nodes.stats[blocks.node]
    stats = np.where(has[:, None], node_stats - left[first_missing], 0.0)
    w_left = _left_weight(samples, blocks, left, params, at=first_missing)
    weight = np.where(has, nodes.weight[blocks.node] - w_left, 0.0)
    return Missing(present=present, count=count, stats=stats, weight=weight)


def score_missing_left(
    samples: Samples,
    blocks: Blocks,
    left: Float,
    nodes: Nodes,
    params: GrowthParams,
    missing: Missing,
) -> Float:
    """Step 5b: every threshold scored again, the block's missing rows sent left.

    Entry ``i`` stands for the split sending left the present rows above it *and* the missing
    rows: left statistics ``left[i] + missing.stats``, right ones the node's minus that. (The
    split sending left the missing rows alone is step 4's "present left, missing right" seen
    from the other side, so it is not scored twice.) Blocks without missing rows score ``inf``.

    Returns
    -------
    ndarray of shape (n_entries,)
        Lower is better.
    """
    count = missing.count[blocks.block]
    n_left = blocks.above + count
    msl = params.min_samples_leaf
    valid = (count > 0) & (blocks.above >= 1) & (n_left >= msl)
    valid &= blocks.size[blocks.block] - n_left >= msl
    valid[1:] &= blocks.x[1:] > blocks.x[:-1] + FEATURE_THRESHOLD  # False at a NaN entry
    if params.criterion == "absolute_error":
        score = _absolute_error_scores(samples, blocks, moved=missing.count)
    else:
        impurity = IMPURITY[params.criterion]
        w_left = _left_weight(samples, blocks, left, params) + missing.weight[blocks.block]
        w_right = nodes.weight[blocks.entry_node] - w_left
        left_stats = left + missing.stats[blocks.block]
        right = nodes.stats[blocks.entry_node] - left_stats
        score = w_left * impurity(left_stats) + w_right * impurity(right)
    return np.where(valid, score, np.inf)


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
        rows = blocks.rows[_ranges(starts.ravel(), lengths.ravel())]
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
    # Each instance's child (-1: its node did not split), then that child's index among the
    # next depth's nodes (-1: it will not split).
    child_of = np.full(samples.tree.size, -1, dtype=np.int64)
    child_of[child_rows] = np.repeat(np.arange(child_n.size), child_n)
    # next_index[-1] is -1, so child -1 (its node did not split) reads -1 too.
    next_index = np.append(np.cumsum(open_) - 1, -1)
    next_index[:-1][~open_] = -1
    child = child_of[blocks.rows]
    new_node = next_index[child]
    keep = new_node >= 0

    # An entry's place in its new block: the entries above it in its old block that went to
    # the same side (children are interleaved, left at even positions). A block's entries all
    # go to the children of one node, so those of a child left out are never counted wrongly.
    goes_right = child & 1
    right_prefix = np.cumsum(goes_right)
    right_prefix -= goes_right
    right_above = right_prefix - right_prefix[blocks.first]
    place = np.where(goes_right, right_above, blocks.above - right_above)

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
        ids = np.arange(first[k], first[k + 1])
        p = parent[ids]
        is_right = np.tile([False, True], ids.size // 2)
        pre[ids] = pre[p] + 1 + np.where(is_right, size[left[p]], 0)

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
