"""Growing trees level by level: every node of every tree at one depth in one vectorized pass.

How it works
------------
A textbook tree grows one node at a time: sort the node's samples by each feature, scan the
thresholds, split, recurse. Arboretum grows *all nodes of a depth together*, and all trees of a
forest together, with a handful of NumPy operations per depth:

1. **Sort once.** Before growing, each feature's values are sorted. The builder keeps, for every
   feature ``f``, the list of samples still in play ordered by *(node, value of f)*: an
   ``(m, d)`` table whose column ``f`` is that list. Every node owns the same block of rows
   ``[start, end)`` in every column.
2. **Score every candidate at once.** A candidate split "before row i" of column ``f`` sends
   rows ``start..i-1`` left. Cumulative sums down each column, minus the sum at the node's first
   row, give the left class counts (or target sums) of every candidate; right = node total -
   left. One vectorized expression (see :mod:`core.criteria`) scores them all.
3. **Pick the best per node** with a segmented minimum over each node's block.
4. **Partition.** Each sample learns whether it goes left; a stable partition inside every
   node's block keeps each column sorted by value within the two children, so nothing is ever
   sorted again. Rows of nodes that became leaves leave the table, so it shrinks as trees grow.

Random forests add two things, both drawn from each tree's own random generator so that a tree
does not depend on the others: a bootstrap sample, kept as integer weights (how many times each
sample was drawn), and at every split a random subset of ``max_features`` features.

Ties between equally good splits go to the lowest feature index, then to the lowest threshold.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from core.criteria import (
    FEATURE_THRESHOLD,
    Criterion,
    absolute_error,
    class_impurity,
    entropy_split_score,
    gini_split_score,
    midpoint,
    prefix_absolute_deviation,
    squared_error_split_score,
    weighted_median,
)
from core.structure import TREE_LEAF, TREE_UNDEFINED, Tree

Int = NDArray[np.int64]
Float = NDArray[np.float64]
Bool = NDArray[np.bool_]

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
        A split must decrease the weighted impurity, ``w_t/w * (I(t) - w_L/w_t I(L) -
        w_R/w_t I(R))``, by at least this much.
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


@dataclass
class _Nodes:
    """Statistics of a batch of nodes, one entry per node."""

    tree: Int
    n: Int  # distinct samples
    weight: Float  # weighted samples
    impurity: Float
    value: Float  # (J, n_values): class counts while growing, or the predicted value
    node_ss: Float  # squared error only: sum_i w_i (y_i - mean)^2, else zeros


class _Record:
    """Everything known about the grown nodes, appended batch by batch.

    Node ids are global across trees and handed out in creation order, so the nodes created at
    one depth form a contiguous id range.
    """

    def __init__(self) -> None:
        self.count = 0
        self.batches: list[tuple[Int, Int, Int, _Nodes]] = []  # (ids, parent, side, stats)
        self.splits: list[tuple[Int, Int, Float, Int, Int]] = []  # (ids, feat, thr, left, right)

    def add(self, parent: Int, side: Int, stats: _Nodes) -> Int:
        ids = np.arange(self.count, self.count + stats.n.size, dtype=np.int64)
        self.count += stats.n.size
        self.batches.append((ids, parent, side, stats))
        return ids

    def split(self, ids: Int, feature: Int, threshold: Float, left: Int, right: Int) -> None:
        self.splits.append((ids, feature, threshold, left, right))


# --------------------------------------------------------------------------------------------
# Node statistics
# --------------------------------------------------------------------------------------------


def _class_stats(tree: Int, n: Int, counts: Float, criterion: Criterion) -> _Nodes:
    weight = counts.sum(axis=1)
    impurity = class_impurity(counts, "gini" if criterion == "gini" else "entropy")
    return _Nodes(tree, n, weight, impurity, counts, np.zeros(n.size))


def _squared_stats(tree: Int, n: Int, weight: Float, total: Float, node_ss: Float) -> _Nodes:
    impurity = np.maximum(node_ss, 0.0) / weight
    return _Nodes(tree, n, weight, impurity, (total / weight)[:, None], np.maximum(node_ss, 0.0))


def _absolute_stats(tree: Int, groups: Sequence[tuple[Float, Float]]) -> _Nodes:
    n = np.array([y.size for y, _ in groups], dtype=np.int64)
    weight = np.array([w.sum() for _, w in groups])
    value = np.array([[weighted_median(y, w)] for y, w in groups]).reshape(-1, 1)
    impurity = np.array([absolute_error(y, w) for y, w in groups])
    return _Nodes(tree, n, weight, impurity, value, np.zeros(n.size))


# --------------------------------------------------------------------------------------------
# The grower
# --------------------------------------------------------------------------------------------


def grow_trees(
    X: Float,
    y: NDArray[np.int64] | Float,
    weights: Int,
    params: GrowthParams,
    rngs: Sequence[np.random.Generator],
) -> list[Tree]:
    """Grow one tree per row of ``weights``, all of them together.

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

    Returns
    -------
    list of Tree
    """
    return _Grower(X, y, weights, params, rngs).grow()


class _Grower:
    def __init__(
        self,
        X: Float,
        y: NDArray[np.int64] | Float,
        weights: Int,
        params: GrowthParams,
        rngs: Sequence[np.random.Generator],
    ) -> None:
        self.X, self.params, self.rngs = X, params, rngs
        self.n_trees = weights.shape[0]
        self.n_features = X.shape[1]
        self.k = params.n_classes
        self.classification = params.n_classes > 0
        self.record = _Record()

        # Instances: (tree, sample) pairs with a positive weight, ordered by tree then sample.
        inst_tree, inst_sample = np.nonzero(weights > 0)
        self.inst_tree = inst_tree.astype(np.int64)
        self.inst_sample = inst_sample.astype(np.int64)
        self.inst_w = weights[inst_tree, inst_sample].astype(np.float64)
        self.inst_y = y[inst_sample]
        self.tree_weight = np.bincount(inst_tree, weights=self.inst_w, minlength=self.n_trees)

    # -- setup -----------------------------------------------------------------------------------

    def _sorted_table(self) -> tuple[Int, Float]:
        """Column ``f``: the instances ordered by (tree, value of feature ``f``)."""
        n = self.X.shape[0]
        m = self.inst_tree.size
        index = np.full((self.n_trees, n), -1, dtype=np.int64)
        index[self.inst_tree, self.inst_sample] = np.arange(m)
        order = np.argsort(self.X, axis=0, kind="stable")  # the one and only sort
        ids = np.empty((m, self.n_features), dtype=np.int64)
        for f in range(self.n_features):
            in_order = index[:, order[:, f]].ravel()
            ids[:, f] = in_order[in_order >= 0]
        xs = self.X[self.inst_sample[ids], np.arange(self.n_features)]
        return ids, xs

    def _root_stats(self) -> _Nodes:
        tree = np.arange(self.n_trees)
        n = np.bincount(self.inst_tree, minlength=self.n_trees).astype(np.int64)
        w = self.inst_w
        if self.classification:
            flat = self.inst_tree * self.k + self.inst_y
            counts = np.bincount(flat, weights=w, minlength=self.n_trees * self.k)
            return _class_stats(tree, n, counts.reshape(self.n_trees, self.k), self.params.criterion)
        y = self.inst_y.astype(np.float64)
        if self.params.criterion == "absolute_error":
            groups = [(y[self.inst_tree == t], w[self.inst_tree == t]) for t in tree]
            return _absolute_stats(tree, groups)
        total = np.bincount(self.inst_tree, weights=w * y, minlength=self.n_trees)
        mean = total / self.tree_weight
        centred = y - mean[self.inst_tree]
        node_ss = np.bincount(self.inst_tree, weights=w * centred**2, minlength=self.n_trees)
        return _squared_stats(tree, n, self.tree_weight, total, node_ss)

    def _can_split(self, stats: _Nodes, depth: int) -> Bool:
        p = self.params
        return (
            (depth < p.max_depth)
            & (stats.n >= p.min_samples_split)
            & (stats.n >= 2 * p.min_samples_leaf)
            & (stats.impurity > EPSILON)
        )

    # -- main loop -------------------------------------------------------------------------------

    def grow(self) -> list[Tree]:
        ids, xs = self._sorted_table()
        root = self._root_stats()
        gid = self.record.add(np.full(self.n_trees, -1), np.zeros(self.n_trees, np.int64), root)
        sizes = root.n
        live = self._can_split(root, 0)
        stats = root
        depth = 0
        # Drop the instances of roots that cannot split (one class, one sample...).
        ids, xs, start, stats, gid = self._keep_nodes(ids, xs, sizes, live, stats, gid)
        while gid.size:
            ids, xs, start, stats, gid = self._grow_level(ids, xs, start, stats, gid, depth)
            depth += 1
        return self._assemble()

    def _keep_nodes(
        self, ids: Int, xs: Float, sizes: Int, keep: Bool, stats: _Nodes, gid: Int
    ) -> tuple[Int, Float, Int, _Nodes, Int]:
        rows = np.repeat(keep, sizes)
        kept = _Nodes(
            stats.tree[keep],
            stats.n[keep],
            stats.weight[keep],
            stats.impurity[keep],
            stats.value[keep],
            stats.node_ss[keep],
        )
        start = np.concatenate([[0], np.cumsum(sizes[keep])[:-1]]).astype(np.int64)
        return ids[rows], xs[rows], start, kept, gid[keep]

    def _grow_level(
        self, ids: Int, xs: Float, start: Int, stats: _Nodes, gid: Int, depth: int
    ) -> tuple[Int, Float, Int, _Nodes, Int]:
        """Split every node of one depth; return the table and nodes of the next depth."""
        m, d = ids.shape
        n_nodes = start.size
        size = stats.n
        end = start + size
        seg = np.repeat(np.arange(n_nodes), size)  # node of every row
        row = np.arange(m)

        # Which candidates are valid: not a node's first row, both sides keep
        # min_samples_leaf rows, and the value changes between row i-1 and row i.
        msl = self.params.min_samples_leaf
        offset = row - start[seg]
        pos_ok = (offset >= max(1, msl)) & (end[seg] - row >= msl)
        valid = np.zeros((m, d), dtype=bool)
        valid[1:] = xs[1:] > xs[:-1] + FEATURE_THRESHOLD
        valid &= pos_ok[:, None]
        if self.params.max_features < d:
            valid &= self._draw_features(xs, start, end, stats.tree)[seg]

        score, left_stats = self._score(ids, xs, valid, seg, start, stats)

        # Best candidate per node: lowest score; ties go to the lowest feature, then the
        # lowest row (= lowest threshold). Candidates are listed row-major, so each node's
        # candidates are contiguous and a segmented minimum finds the best score.
        cand = np.flatnonzero(valid.ravel())
        cand_node = seg[cand // d]
        has = np.bincount(cand_node, minlength=n_nodes) > 0
        s = np.flatnonzero(has)
        first = np.searchsorted(cand_node, s)
        node_min = np.full(n_nodes, np.inf)
        best_key = np.zeros(n_nodes, dtype=np.int64)
        if s.size:
            node_min[s] = np.minimum.reduceat(score, first)
            big = np.iinfo(np.int64).max
            key = np.where(score == node_min[cand_node], (cand % d) * m + cand // d, big)
            best_key[s] = np.minimum.reduceat(key, first)
        b_feat, b_row = best_key // m, best_key % m
        pick = np.searchsorted(cand, b_row * d + b_feat)  # the winner's candidate index

        # Children of every node that has a candidate; keep the splits that decrease impurity
        # enough (min_impurity_decrease).
        left_st, right_st = self._children(ids, start, end, stats, b_feat, b_row, left_stats, pick, s)
        node = _take(stats, s)
        keep = self._improvement(node, left_st, right_st) + EPSILON >= self.params.min_impurity_decrease
        s, left_st, right_st = s[keep], _take(left_st, np.flatnonzero(keep)), _take(right_st, np.flatnonzero(keep))
        splits = np.zeros(n_nodes, dtype=bool)
        splits[s] = True

        threshold = midpoint(xs[b_row[s] - 1, b_feat[s]], xs[b_row[s], b_feat[s]])
        left_ids = self.record.add(gid[s], np.zeros(s.size, np.int64), left_st)
        right_ids = self.record.add(gid[s], np.ones(s.size, np.int64), right_st)
        self.record.split(gid[s], b_feat[s], threshold, left_ids, right_ids)
        if not s.size:
            return ids[:0], xs[:0], start[:0], _take(stats, s), gid[:0]

        # Partition: an instance goes left when it sits above the winning row in the winning
        # column of its node.
        goes_left = np.zeros(self.inst_tree.size, dtype=bool)
        r = row[splits[seg]]
        goes_left[ids[r, b_feat[seg[r]]]] = r < b_row[seg[r]]
        child_stats = _interleave(left_st, right_st)
        child_gid = np.column_stack([left_ids, right_ids]).ravel()
        live = self._can_split(child_stats, depth + 1)
        ids, xs, new_start = self._partition(ids, xs, seg, start, splits, goes_left, child_stats.n, live)
        return ids, xs, new_start, _take(child_stats, np.flatnonzero(live)), child_gid[live]

    # -- feature sampling ------------------------------------------------------------------------

    def _draw_features(self, xs: Float, start: Int, end: Int, tree: Int) -> Bool:
        """Features each node may split on, shape (n_nodes, n_features).

        Like scikit-learn: visit the features in a random order and evaluate the non-constant
        ones among the first ``max_features`` visited; if all of those are constant, keep
        visiting until a non-constant one turns up.
        """
        n_nodes, d = start.size, xs.shape[1]
        constant = xs[end - 1] <= xs[start] + FEATURE_THRESHOLD  # (n_nodes, d)
        keys = np.empty((n_nodes, d))
        for t in np.unique(tree):
            mine = np.flatnonzero(tree == t)
            keys[mine] = self.rngs[t].random((mine.size, d))
        visit = np.argsort(keys, axis=1)
        rank = np.argsort(visit, axis=1)
        const_in_order = np.take_along_axis(constant, visit, axis=1)
        first_usable = np.argmax(~const_in_order, axis=1)
        n_visit = np.maximum(self.params.max_features, first_usable + 1)
        return (rank < n_visit[:, None]) & ~constant

    # -- scoring ---------------------------------------------------------------------------------

    def _score(
        self, ids: Int, xs: Float, valid: Bool, seg: Int, start: Int, stats: _Nodes
    ) -> tuple[Float, Float]:
        """Score of every valid candidate (lower is better) and its left-side statistics.

        Returns ``(score, left)`` where ``score`` has one entry per ``True`` of ``valid``
        (row-major) and ``left`` holds the left side's class counts (classification, shape
        (n_candidates, n_classes)), or ``[weight, sum of centred y, sum of squares]``
        (squared error), or ``[weight]`` (absolute error).
        """
        m, d = ids.shape
        w = self.inst_w[ids]
        cand = np.flatnonzero(valid.ravel())
        cand_row, cand_col = cand // d, cand % d
        base = start[seg[cand_row]] * d + cand_col  # the node's first row, same column
        crit = self.params.criterion
        if self.classification:
            k = self.k
            onehot = np.zeros((m * d, k))
            onehot[np.arange(m * d), self.inst_y[ids].ravel()] = w.ravel()
            # Exclusive cumulative sums down each column of the (m, d, k) table: the counts of
            # the rows above, so "left of row i" = prefix[i] - prefix[node's first row].
            prefix = np.cumsum(onehot.reshape(m, d, k), axis=0).reshape(m * d, k) - onehot
            left = prefix[cand] - prefix[base]
            right = stats.value[seg[cand_row]] - left
            w_left, w_right = left.sum(axis=1), right.sum(axis=1)
            scorer = gini_split_score if crit == "gini" else entropy_split_score
            return scorer(left, right, w_left, w_right), left
        if crit == "squared_error":
            mean = stats.value[:, 0]
            centred = self.inst_y[ids] - mean[seg][:, None]
            parts = np.stack([w, w * centred, w * centred * centred], axis=-1)  # (m, d, 3)
            prefix = (np.cumsum(parts, axis=0) - parts).reshape(m * d, 3)
            left = prefix[cand] - prefix[base]
            node_sum = np.zeros(start.size)  # centred: the node's sum is ~0
            right_w = stats.weight[seg[cand_row]] - left[:, 0]
            right_s = node_sum[seg[cand_row]] - left[:, 1]
            return squared_error_split_score(left[:, 1], right_s, left[:, 0], right_w), left
        return self._score_absolute(ids, valid, seg, start, stats, w, cand)

    def _score_absolute(
        self, ids: Int, valid: Bool, seg: Int, start: Int, stats: _Nodes, w: Float, cand: Int
    ) -> tuple[Float, Float]:
        """Absolute error has no cumulative-sum shortcut: scan each node and feature in turn.

        For a node's rows ``a..b-1`` in one column, a split before row ``a + o`` costs the sum of
        absolute deviations of the first ``o`` rows plus that of the last ``b - a - o`` rows.
        """
        m, d = ids.shape
        total = np.full((m, d), np.inf)
        y = self.inst_y[ids]
        ends = start + stats.n
        for j in range(start.size):
            a, b = int(start[j]), int(ends[j])
            for f in np.flatnonzero(valid[a:b].any(axis=0)):
                yy, ww = y[a:b, f], w[a:b, f].astype(np.int64)
                left = prefix_absolute_deviation(yy, ww)
                right = prefix_absolute_deviation(yy[::-1], ww[::-1])
                total[a:b, f] = left[:-1] + right[::-1][:-1]
        return total.ravel()[cand], np.zeros((cand.size, 1))

    # -- children --------------------------------------------------------------------------------

    def _children(
        self,
        ids: Int,
        start: Int,
        end: Int,
        stats: _Nodes,
        b_feat: Int,
        b_row: Int,
        left_stats: Float,
        pick: Int,
        nodes: Int,
    ) -> tuple[_Nodes, _Nodes]:
        """Statistics of the two children of each node in ``nodes`` under its best split."""
        tree = stats.tree[nodes]
        n_left = b_row[nodes] - start[nodes]
        n_right = end[nodes] - b_row[nodes]
        left = left_stats[pick[nodes]]
        crit = self.params.criterion
        if self.classification:
            right = stats.value[nodes] - left
            return _class_stats(tree, n_left, left, crit), _class_stats(tree, n_right, right, crit)
        if crit == "squared_error":
            mean, weight = stats.value[nodes, 0], stats.weight[nodes]
            w_l, s_l, q_l = left[:, 0], left[:, 1], left[:, 2]
            w_r, s_r, q_r = weight - w_l, -s_l, stats.node_ss[nodes] - q_l
            return (
                _squared_stats(tree, n_left, w_l, w_l * mean + s_l, q_l - s_l * s_l / w_l),
                _squared_stats(tree, n_right, w_r, w_r * mean + s_r, q_r - s_r * s_r / w_r),
            )
        y, w = self.inst_y[ids], self.inst_w[ids]
        lefts, rights = [], []
        for j in nodes:
            f, a, r, b = int(b_feat[j]), int(start[j]), int(b_row[j]), int(end[j])
            lefts.append((y[a:r, f], w[a:r, f]))
            rights.append((y[r:b, f], w[r:b, f]))
        return _absolute_stats(tree, lefts), _absolute_stats(tree, rights)

    def _improvement(self, stats: _Nodes, left: _Nodes, right: _Nodes) -> Float:
        """Weighted impurity decrease of each node's split, as ``min_impurity_decrease`` sees it."""
        w = stats.weight
        children = (left.weight * left.impurity + right.weight * right.impurity) / w
        return w / self.tree_weight[stats.tree] * (stats.impurity - children)

    # -- partition -------------------------------------------------------------------------------

    def _partition(
        self,
        ids: Int,
        xs: Float,
        seg: Int,
        start: Int,
        splits: Bool,
        goes_left: Bool,
        child_n: Int,
        live: Bool,
    ) -> tuple[Int, Float, Int]:
        """Stable partition of every node's rows into its children, column by column.

        Keeps only the rows of children that will be split further; within a child, each column
        stays sorted by its feature because the relative order of rows never changes.
        """
        m, d = ids.shape
        rank = np.cumsum(splits) - 1  # index of each splitting node among the splitting ones
        left = goes_left[ids]  # (m, d)
        before = np.cumsum(left, axis=0) - left  # left rows above, in the whole column
        offset = (np.arange(m) - start[seg])[:, None]
        left_above = before - before[start[seg]]
        child = 2 * rank[seg][:, None] + (~left)  # child slot, left then right per node
        child_rank = np.where(left, left_above, offset - left_above)
        kept_n = np.where(live, child_n, 0)
        new_start = np.concatenate([[0], np.cumsum(kept_n)[:-1]]).astype(np.int64)
        keep = splits[seg][:, None] & live[np.where(splits[seg][:, None], child, 0)]
        m_new = int(kept_n.sum())
        new_ids = np.empty((m_new, d), dtype=np.int64)
        new_xs = np.empty((m_new, d))
        target = (new_start[child] + child_rank)[keep] * d + np.nonzero(keep)[1]
        new_ids.ravel()[target] = ids[keep]
        new_xs.ravel()[target] = xs[keep]
        return new_ids, new_xs, new_start[live]

    # -- assembly --------------------------------------------------------------------------------

    def _assemble(self) -> list[Tree]:
        """Turn the recorded nodes into one flat-array Tree per tree, in depth-first preorder."""
        rec = self.record
        total = rec.count
        ids = np.concatenate([b[0] for b in rec.batches])
        parent = np.concatenate([b[1] for b in rec.batches])
        tree = np.concatenate([b[3].tree for b in rec.batches])
        n = np.concatenate([b[3].n for b in rec.batches])
        weight = np.concatenate([b[3].weight for b in rec.batches])
        impurity = np.concatenate([b[3].impurity for b in rec.batches])
        value = np.concatenate([b[3].value for b in rec.batches])
        if self.classification:
            value = value / weight[:, None]  # counts -> class fractions, as scikit-learn stores
        order = np.argsort(ids)  # batches are already in id order; keep it explicit
        parent, tree, n, weight, impurity, value = (
            a[order] for a in (parent, tree, n, weight, impurity, value)
        )

        left = np.full(total, TREE_LEAF, dtype=np.int64)
        right = np.full(total, TREE_LEAF, dtype=np.int64)
        feature = np.full(total, TREE_UNDEFINED, dtype=np.int64)
        threshold = np.full(total, float(TREE_UNDEFINED))
        for s_ids, s_feat, s_thr, s_left, s_right in rec.splits:
            left[s_ids], right[s_ids] = s_left, s_right
            feature[s_ids], threshold[s_ids] = s_feat, s_thr

        # Subtree sizes bottom-up (children always have larger ids than their parent), then
        # preorder positions top-down: left child = parent + 1, right = parent + 1 + size(left).
        size = np.ones(total, dtype=np.int64)
        batches = [b[0] for b in rec.batches]
        for batch in reversed(batches):
            has_parent = parent[batch] >= 0
            np.add.at(size, parent[batch][has_parent], size[batch][has_parent])
        pre = np.zeros(total, dtype=np.int64)
        for batch in batches:
            p = parent[batch]
            child = batch[p >= 0]
            p = p[p >= 0]
            is_right = right[p] == child
            pre[child] = pre[p] + 1 + np.where(is_right, size[left[p]], 0)

        tree_sizes = np.bincount(tree, minlength=self.n_trees)
        tree_start = np.concatenate([[0], np.cumsum(tree_sizes)[:-1]])
        new_id = tree_start[tree] + pre
        inv = np.empty(total, dtype=np.int64)
        inv[new_id] = np.arange(total)

        def local(children: Int) -> Int:
            mapped = np.where(children >= 0, pre[np.maximum(children, 0)], TREE_LEAF)
            return mapped[inv]

        c_left, c_right = local(left), local(right)
        cols = (feature[inv], threshold[inv], impurity[inv], n[inv], weight[inv], value[inv])
        trees = []
        for t in range(self.n_trees):
            sl = slice(int(tree_start[t]), int(tree_start[t] + tree_sizes[t]))
            f, thr, imp, nn, ww, val = (c[sl] for c in cols)
            trees.append(
                Tree(
                    children_left=c_left[sl].copy(),
                    children_right=c_right[sl].copy(),
                    feature=f.copy(),
                    threshold=thr.copy(),
                    impurity=imp.copy(),
                    n_node_samples=nn.copy(),
                    weighted_n_node_samples=ww.copy(),
                    value=val.reshape(-1, 1, val.shape[1]).copy(),
                    n_features=self.n_features,
                )
            )
        return trees


def _take(stats: _Nodes, index: Int) -> _Nodes:
    return _Nodes(
        stats.tree[index],
        stats.n[index],
        stats.weight[index],
        stats.impurity[index],
        stats.value[index],
        stats.node_ss[index],
    )


def _interleave(left: _Nodes, right: _Nodes) -> _Nodes:
    """Children in slot order: left child of node 0, right child of node 0, left of node 1..."""

    def mix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        out = np.empty((a.shape[0] * 2, *a.shape[1:]), dtype=a.dtype)
        out[0::2], out[1::2] = a, b
        return out

    return _Nodes(
        mix(left.tree, right.tree),
        mix(left.n, right.n),
        mix(left.weight, right.weight),
        mix(left.impurity, right.impurity),
        mix(left.value, right.value),
        mix(left.node_ss, right.node_ss),
    )
