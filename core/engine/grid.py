"""A single tree's depth as one table: every node's rows, sorted along every feature.

Part of the builder (read :mod:`core.engine.builder` first). When every node tries every
feature (a single tree, ``max_features`` all of them), a node's blocks are its rows sorted along
each feature, so they all have the same size. Then one depth fits in a table of shape
``(n_features, n_rows)``: row ``f`` holds the open nodes' rows, node after node, each node's
sorted by feature ``f``; a node owns the same columns in every row. Every step of
:func:`core.engine.criteria.scan_feature` is then a few NumPy calls over the whole table, and
the per-block bookkeeping of the general layout (:mod:`core.engine.blocks`) disappears (the
breast-cancer and 5000 x 20 trees of ``make bench`` grow 15-20% faster this way).

One depth (:func:`grow_table` runs them until no node is left to split):

3. :func:`table_statistics`: the statistics of the rows left of every cell in its node's
   columns (the split "before this cell"), by one cumulative sum along the table;
4. :func:`table_scores`: ``n_L I(L) + n_R I(R)`` of every cell, with the criterion's function
   from :data:`core.engine.criteria.IMPURITY`, ``inf`` where the cell is no valid split;
6. :func:`table_best`: each node's best cell: the best of every feature's columns, then the
   lowest feature among the best (scikit-learn's tie order, as :func:`best_per_node`);
7. :func:`table_children` cuts the winning row of every node into its children, and
   :func:`partition_table` moves every row's cells to their child's columns, keeping them
   sorted (a stable partition, as :func:`~core.engine.blocks.partition_blocks`).

A classification tree grown here is bit for bit the one the general layout grows. A
regression tree's moments are summed in another order, so two splits that tie up to rounding
may be picked the other way; every split is still the best ``scan_feature`` finds (both checked
in ``tests/engine/test_grid.py``). The table does not handle missing values, absolute error (no
cumulative sum), weighted rows or drawn features; :func:`fits_table` says when it applies.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.engine.assembly import Level, assemble, new_level, with_splits
from core.engine.blocks import partition_places, root_order
from core.engine.criteria import FEATURE_THRESHOLD, IMPURITY, midpoint
from core.engine.samples import (
    EPSILON,
    Bool,
    Float,
    GrowthParams,
    Int,
    Nodes,
    Progress,
    Samples,
    can_split,
    node_statistics,
)
from core.engine.splits import Splits, impurity_decrease
from core.engine.structure import Tree

__all__ = [
    "Table",
    "first_cells",
    "fits_table",
    "grow_table",
    "partition_table",
    "table_best",
    "table_children",
    "table_scores",
    "table_statistics",
]


@dataclass(frozen=True)
class Table:
    """The open nodes of one depth, as a table of their rows sorted along every feature.

    Row ``f`` lists the nodes' instances, node after node; within a node's columns, sorted by
    feature ``f``. Node ``j`` owns columns ``start[j] : start[j] + size[j]`` of every row.
    """

    rows: Int  #: (n_features, n_columns) instance in each cell
    x: Float  #: (n_features, n_columns) its value of the row's feature
    node: Int  #: (n_columns,) node owning each column
    start: Int  #: (n_nodes,) first column of each node
    above: Int  #: (n_columns,) columns left of each column in its node (= rows sent left)


def fits_table(samples: Samples, params: GrowthParams) -> bool:
    """Whether the tree can grow on a :class:`Table`.

    It can when it is one tree (so its root holds every sample once), with unit weights, no
    missing value, every feature tried at every node, and a criterion with a cumulative sum.
    """
    return (
        samples.tree_weight.size == 1
        and samples.unit_weights
        and not samples.has_missing
        and params.max_features >= samples.n_features
        and params.criterion != "absolute_error"
    )


def root_table(samples: Samples) -> Table:
    """The root's table: every sample, sorted along each feature.

    A single tree's instance ``i`` is sample ``i``, and along each feature the ranks are a
    permutation of the samples, so the order is read off them (:func:`root_order`) without a
    sort. Later depths partition this table (:func:`partition_table`) and never sort again.
    """
    n, d = samples.n_samples, samples.n_features
    order = root_order(samples, np.arange(n), np.arange(d)).reshape(d, n)
    return Table(
        order,
        _values(samples, order),
        np.zeros(n, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        np.arange(n),
    )


def first_cells(table: Table) -> Int:
    """Where each cell's node starts in the cell's row.

    Returns
    -------
    ndarray of shape (n_features, n_columns)
        Flat index, into ``table.rows.ravel()``, of the first cell of the cell's node in its row.
    """
    d, m = table.rows.shape
    first: Int = np.arange(d)[:, None] * m + table.start[table.node]
    return first


def _values(samples: Samples, order: Int) -> Float:
    """Every cell's value of its row's feature (a single tree's instance is its sample)."""
    offset = np.arange(samples.n_features)[:, None] * samples.n_samples
    return np.take(samples.values, order + offset)


# ------------------------------------------------------------------------------------------------
# Steps 3, 4 and 6 on the table
# ------------------------------------------------------------------------------------------------


def table_statistics(samples: Samples, table: Table, nodes: Nodes, params: GrowthParams) -> Float:
    """Step 3: statistics of the rows left of every cell within its node's columns.

    Returns
    -------
    ndarray of shape (n_stats, n_features * n_columns)
        Class counts, or the moments ``(w, s, q)`` of ``y`` centred on the node's mean; cell
        ``(f, c)`` at ``f * n_columns + c``. (Stored statistic by statistic, as
        :func:`~core.engine.scores.cumulative_statistics` stores its result.)
    """
    y = np.take(samples.y, table.rows)
    if params.n_classes:
        per_cell = (np.arange(params.n_classes)[:, None, None] == y).astype(np.float64)
    else:
        centred = y - nodes.value[table.node, 0]
        per_cell = np.stack([np.ones_like(centred), centred, centred * centred])
    per_cell = per_cell.reshape(per_cell.shape[0], -1)
    # An exclusive running sum over the whole table; a cell's left side is that sum minus the
    # sum at the first column of its node, in the same row.
    before = np.cumsum(per_cell, axis=1)
    before -= per_cell
    left: Float = before - np.take(before, first_cells(table).ravel(), axis=1)
    return left


def table_scores(table: Table, left: Float, nodes: Nodes, params: GrowthParams) -> Float:
    """Step 4: ``n_L I(L) + n_R I(R)`` of every cell (``inf``: not a valid split).

    Returns
    -------
    ndarray of shape (n_features, n_columns)
    """
    d, m = table.rows.shape
    msl = params.min_samples_leaf
    size = nodes.n[table.node]
    valid = np.empty((d, m), dtype=bool)
    valid[:, 0] = False
    np.greater(table.x[:, 1:], table.x[:, :-1] + FEATURE_THRESHOLD, out=valid[:, 1:])
    valid &= (table.above >= max(1, msl)) & (size - table.above >= msl)
    impurity = IMPURITY[params.criterion]
    right = (nodes.stats.T[:, table.node][:, None, :] - left.reshape(-1, d, m)).reshape(-1, d * m)
    w_left = table.above.astype(np.float64)
    w_right = nodes.weight[table.node] - w_left
    score = w_left * impurity(left.T).reshape(d, m) + w_right * impurity(right.T).reshape(d, m)
    return np.where(valid, score, np.inf)


def table_best(table: Table, score: Float) -> tuple[Int, Int, Int]:
    """Step 6: each node's best cell: the lowest score, lowest feature, leftmost column.

    Returns
    -------
    node, feature, column : ndarray of shape (n_split,)
        The nodes that have a valid split, their best feature and the column of the best cell
        (its left child gets the node's columns left of it).
    """
    per_feature = np.minimum.reduceat(score, table.start, axis=1)  # (n_features, n_nodes)
    feature = np.argmin(per_feature, axis=0)  # the first, i.e. lowest, among equal bests
    best = per_feature[feature, np.arange(feature.size)]
    winning_row = score[feature[table.node], np.arange(table.node.size)]
    column = np.where(winning_row == best[table.node], np.arange(table.node.size), score.size)
    leftmost = np.minimum.reduceat(column, table.start)
    node = np.flatnonzero(np.isfinite(best))
    return node, feature[node], leftmost[node]


# ------------------------------------------------------------------------------------------------
# Step 7 on the table
# ------------------------------------------------------------------------------------------------


def table_children(
    samples: Samples,
    table: Table,
    left: Float,
    nodes: Nodes,
    best: tuple[Int, Int, Int],
    params: GrowthParams,
) -> tuple[Int, Nodes, Splits]:
    """Step 7: each split's children, from the winning row of its node.

    In the winning feature's row a node's columns are sorted by that feature, so its left
    child's rows are the columns left of the best cell, and the right child's the rest.
    Splits that do not decrease the weighted impurity by ``min_impurity_decrease`` are dropped.

    Returns
    -------
    rows, children, splits
        As :func:`core.engine.splits.split_rows` returns them.
    """
    node, feature, column = best
    start, n = table.start[node], nodes.n[node]
    n_left = column - start
    x = table.x[feature, column]
    threshold = midpoint(table.x[feature, column - 1], x)
    splits = Splits(
        node=node,
        feature=feature,
        threshold=threshold,
        start=start,
        n_left=n_left,
        present=n,
        missing_left=n_left > n - n_left,  # no missing value in training: the bigger side
    )
    # The nodes' own columns of their winning rows, node after node: left child, then right.
    splitting = np.zeros(nodes.n.size, dtype=bool)
    splitting[node] = True
    winner = np.zeros(nodes.n.size, dtype=np.int64)
    winner[node] = feature
    columns = np.flatnonzero(splitting[table.node])
    rows = table.rows[winner[table.node[columns]], columns]
    child_n = np.empty(2 * n.size, dtype=np.int64)
    child_n[0::2], child_n[1::2] = n_left, n - n_left
    if params.n_classes:
        # A left child's class counts are the winning cell's left statistics (step 3), and
        # the right child's the node's minus them: whole numbers, as summing its rows gives.
        counts = np.empty((child_n.size, params.n_classes))
        counts[0::2] = left[:, feature * table.node.size + column].T
        counts[1::2] = nodes.stats[node] - counts[0::2]
        impurity = IMPURITY[params.criterion](counts)
        tree = np.zeros(child_n.size, dtype=np.int64)
        children = Nodes(tree, child_n, child_n.astype(np.float64), counts, impurity, counts)
    else:
        children = node_statistics(samples, rows, child_n, params)
    gain = impurity_decrease(nodes.take(node), children, samples.tree_weight)
    keep = gain + EPSILON >= params.min_impurity_decrease
    if keep.all():
        return rows, children, splits
    kept_children = np.repeat(keep, 2)
    return rows[np.repeat(kept_children, child_n)], children.take(kept_children), splits.take(keep)


def partition_table(
    samples: Samples, table: Table, child_rows: Int, child_n: Int, open_: Bool
) -> Table:
    """Step 7, continued: the next depth's table, without sorting again.

    Every row of a split node's columns is cut into its left and right child's cells, each in
    the order it had (a stable partition), so every child's columns stay sorted along every
    feature. Children that will not split (``open_`` false) are left out.
    """
    d = table.rows.shape[0]
    # A cell's column in its child: the cells left of it in its node's columns, in its row,
    # that went to the same child.
    new_node, place = partition_places(
        samples, table.rows, first_cells(table), table.above, child_rows, child_n, open_
    )
    n = child_n[open_]
    start = np.cumsum(n) - n
    keep = new_node >= 0
    width = int(n.sum())
    at = (np.arange(d)[:, None] * width + start[np.maximum(new_node, 0)] + place)[keep]
    rows = np.empty(d * width, dtype=np.int64)
    rows[at] = table.rows[keep]
    rows = rows.reshape(d, width)
    node = np.repeat(np.arange(n.size), n)
    return Table(rows, _values(samples, rows), node, start, np.arange(width) - start[node])


# ------------------------------------------------------------------------------------------------
# The loop
# ------------------------------------------------------------------------------------------------


def grow_table(
    samples: Samples,
    params: GrowthParams,
    progress: Progress | None = None,
) -> Tree:
    """Grow one tree on a :class:`Table`, one depth at a time (see :func:`fits_table`).

    Parameters
    ----------
    samples : Samples
        One tree's instances (:func:`core.engine.samples.prepare_samples`).
    params : GrowthParams
    progress : callable, optional
        As for :func:`core.engine.builder.grow_together`.

    Returns
    -------
    Tree
    """
    rows = np.arange(samples.tree.size)
    roots = node_statistics(samples, rows, np.array([rows.size]), params)
    levels: list[Level] = [new_level(roots, np.full(1, -1, dtype=np.int64))]
    nodes, ids = roots, np.zeros(1, dtype=np.int64)
    depth, next_id = 0, 1
    open_ = can_split(nodes, 0, params)
    table = root_table(samples) if open_[0] else None
    while table is not None:
        left = table_statistics(samples, table, nodes, params)
        score = table_scores(table, left, nodes, params)
        best = table_best(table, score)
        child_rows, children, splits = table_children(samples, table, left, nodes, best, params)
        levels[-1] = with_splits(levels[-1], ids[splits.node], splits)
        levels.append(new_level(children, np.repeat(ids[splits.node], 2)))
        child_ids = np.arange(next_id, next_id + children.n.size)
        next_id += children.n.size
        depth += 1
        open_ = can_split(children, depth, params)
        if open_.any():
            table = partition_table(samples, table, child_rows, children.n, open_)
        else:
            table = None
        nodes, ids = children.take(open_), child_ids[open_]
        if progress is not None:
            settled = samples.tree.size - int(nodes.n.sum())
            progress(settled / max(samples.tree.size, 1))
    if progress is not None:
        progress(1.0)
    return assemble(levels, samples, 1, params)[0]
