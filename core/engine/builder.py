"""Growing trees level by level: every node of every tree at one depth in one vectorized pass.

How it works
------------
A textbook tree grows one node at a time: for each feature, sort the node's samples by it, scan
the thresholds, keep the best, split, recurse. Arboretum does the same work for *all nodes of a
depth at once* (and for all trees of a forest at once), with a fixed handful of NumPy operations
per depth:

1. **Pick the features** each node may split on: all of them for a single tree, a random subset
   of ``max_features`` for a forest's tree (drawn from that tree's own random generator).
2. **Lay out the candidates.** Every (node, feature) pair gets a block holding the node's samples.
   One sort orders every block by the feature's value at once: each block's sort key is the
   pair's number, then the sample's precomputed rank for that feature.
3. **Score every threshold at once.** Down each block, cumulative sums of the class counts (or of
   the targets) give the left side of every candidate split; the right side is the node's total
   minus the left. One vectorized expression scores them all (see :mod:`core.engine.criteria`).
4. **Keep each node's best** with a segmented minimum over the node's blocks.
5. **Split.** The winning block is sorted by the winning feature, so the left child's samples
   are the block's first rows and the right child's the rest: the next depth's nodes are just
   slices of it. Nodes that stop (pure, too small, too deep) leave the working set.

Ties between equally good splits go to the lowest feature index, then the lowest threshold.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from core.engine.criteria import (
    FEATURE_THRESHOLD,
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

#: A node whose impurity is at most this is pure and is not split (as in scikit-learn).
EPSILON = float(np.finfo(np.float64).eps)

# Columns of a node-statistics matrix (one row per node): sample count, weighted sample count,
# impurity, sum of squared deviations (squared error only), tree index, then the value columns
# (class counts while growing, or the predicted value).
N_COL, W_COL, IMP_COL, SS_COL, TREE_COL, VAL_COL = 0, 1, 2, 3, 4, 5


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


def _ranges(starts: Int, lengths: Int) -> Int:
    """Concatenation of ``arange(s, s + l)`` for every ``(s, l)``."""
    total = int(lengths.sum())
    before = np.cumsum(lengths) - lengths
    return np.repeat(starts - before, lengths) + np.arange(total)


def _block_prefix(values: Float, block_start: Int, entry_block: Int) -> Float:
    """Sum of ``values`` over the entries above each entry, within its block."""
    above = np.cumsum(values) - values
    return above - above[block_start][entry_block]


def _xlog2x(c: Float) -> Float:
    """``c log2 c`` with ``0 log 0 = 0``."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(c > 0, c * np.log2(np.where(c > 0, c, 1.0)), 0.0)


class _Grower:
    """State of one call to :func:`grow_trees`."""

    def __init__(
        self,
        X: Float,
        y: NDArray[np.int64] | Float,
        weights: Int,
        params: GrowthParams,
        rngs: Sequence[np.random.Generator],
    ) -> None:
        self.params, self.rngs = params, rngs
        self.n_samples, self.n_features = X.shape
        self.n_trees = weights.shape[0]
        self.k = params.n_classes
        self.classification = params.n_classes > 0

        # Instances: (tree, sample) pairs with a positive weight, ordered by tree, then sample.
        inst_tree, inst_sample = np.nonzero(weights > 0)
        self.inst_tree = inst_tree.astype(np.int64)
        self.inst_sample = inst_sample.astype(np.int64)
        self.inst_w = weights[inst_tree, inst_sample].astype(np.float64)
        self.inst_y = y[inst_sample]
        self.unit_weights = bool(np.all(self.inst_w == 1.0))
        self.tree_weight: Float = np.bincount(
            inst_tree, weights=self.inst_w, minlength=self.n_trees
        ).astype(np.float64)

        # The one sort: rank of every sample along every feature (ties broken by sample index).
        # Feature values and ranks are stored feature-major and flat, indexed f * n + sample.
        order = np.argsort(X, axis=0, kind="stable")
        rank = np.empty((self.n_features, self.n_samples), dtype=np.int64)
        rank[np.arange(self.n_features)[:, None], order.T] = np.arange(self.n_samples)
        self.rank = rank.ravel()
        self.values = np.ascontiguousarray(X.T).ravel()

        self.batches: list[tuple[Int, Float]] = []  # (parent ids, node stats), batch by batch
        self.splits: list[tuple[Int, Int, Float, Int, Int]] = []  # (id, feat, thr, left, right)
        self.node_count = 0

    # -- node statistics -------------------------------------------------------------------------

    def _class_stats(self, tree: Float, n: Float, counts: Float) -> Float:
        """Node statistics from class counts (every node here holds at least one sample)."""
        weight = counts.sum(axis=1)
        p = counts / weight[:, None]
        if self.params.criterion == "gini":
            impurity = 1.0 - np.sum(p * p, axis=1)  # as core.engine.criteria.gini
        else:
            impurity = -np.sum(_xlog2x(p), axis=1) + 0.0  # as core.engine.criteria.entropy
        zeros = np.zeros(n.size)
        return np.column_stack([n, weight, impurity, zeros, tree, counts])

    @staticmethod
    def _squared_stats(tree: Float, n: Float, weight: Float, mean: Float, node_ss: Float) -> Float:
        stats = np.empty((n.size, VAL_COL + 1))
        ss = np.maximum(node_ss, 0.0)
        stats[:, N_COL], stats[:, W_COL], stats[:, TREE_COL] = n, weight, tree
        stats[:, IMP_COL], stats[:, SS_COL], stats[:, VAL_COL] = ss / weight, ss, mean
        return stats

    @staticmethod
    def _absolute_stats(tree: Float, groups: Sequence[tuple[Float, Float]]) -> Float:
        stats = np.zeros((len(groups), VAL_COL + 1))
        stats[:, TREE_COL] = tree
        for i, (y, w) in enumerate(groups):
            stats[i, N_COL], stats[i, W_COL] = y.size, w.sum()
            stats[i, VAL_COL] = weighted_median(y, w)
            stats[i, IMP_COL] = absolute_error(y, w)
        return stats

    def _root_stats(self) -> Float:
        t = self.inst_tree
        tree = np.arange(self.n_trees, dtype=np.float64)
        n = np.bincount(t, minlength=self.n_trees).astype(np.float64)
        w = self.inst_w
        if self.classification:
            flat = t * self.k + self.inst_y
            counts = np.bincount(flat, weights=w, minlength=self.n_trees * self.k)
            return self._class_stats(
                tree, n, counts.reshape(self.n_trees, self.k).astype(np.float64)
            )
        y = self.inst_y.astype(np.float64)
        if self.params.criterion == "absolute_error":
            return self._absolute_stats(tree, [(y[t == i], w[t == i]) for i in range(self.n_trees)])
        mean: Float = np.bincount(t, weights=w * y, minlength=self.n_trees) / self.tree_weight
        ss = np.bincount(t, weights=w * (y - mean[t]) ** 2, minlength=self.n_trees).astype(float)
        return self._squared_stats(tree, n, self.tree_weight, mean, ss)

    def _can_split(self, stats: Float, depth: int) -> Bool:
        p = self.params
        n = stats[:, N_COL]
        if depth >= p.max_depth:
            return np.zeros(n.size, dtype=bool)
        return (
            (n >= p.min_samples_split)
            & (n >= 2 * p.min_samples_leaf)
            & (stats[:, IMP_COL] > EPSILON)
        )

    def _record(self, parent: Int, stats: Float) -> Int:
        """Give the nodes in ``stats`` their ids; ``parent`` is -1 for roots."""
        ids = np.arange(self.node_count, self.node_count + stats.shape[0], dtype=np.int64)
        self.node_count += stats.shape[0]
        self.batches.append((parent, stats))
        return ids

    # -- main loop -------------------------------------------------------------------------------

    def grow(self) -> list[Tree]:
        stats = self._root_stats()
        gid = self._record(np.full(self.n_trees, -1, dtype=np.int64), stats)
        size = stats[:, N_COL].astype(np.int64)
        start = np.cumsum(size) - size
        live = self._can_split(stats, 0)
        # Working set: the instances of the nodes still to split, grouped node by node.
        members = np.arange(self.inst_tree.size)[_ranges(start[live], size[live])]
        stats, gid, size = stats[live], gid[live], size[live]
        depth = 0
        while gid.size:
            members, stats, gid, size = self._split_level(members, stats, gid, size, depth)
            depth += 1
        return self._assemble()

    def _features(self, stats: Float) -> tuple[Int, Int]:
        """The (node, feature) pairs to evaluate, ordered by node, then feature."""
        n_nodes, d, k = stats.shape[0], self.n_features, self.params.max_features
        if k >= d:
            return np.repeat(np.arange(n_nodes), d), np.tile(np.arange(d), n_nodes)
        tree = stats[:, TREE_COL].astype(np.int64)
        keys = np.empty((n_nodes, d))
        # Each tree draws from its own generator, in node order, so it never depends on the
        # other trees of the forest.
        bounds = np.flatnonzero(np.diff(tree)) + 1
        for lo, hi in zip(np.r_[0, bounds], np.r_[bounds, n_nodes], strict=True):
            keys[lo:hi] = self.rngs[tree[lo]].random((hi - lo, d))
        self._visit = np.argsort(keys, axis=1)  # visiting order, kept for the constant rule
        chosen = np.sort(self._visit[:, :k], axis=1)
        return np.repeat(np.arange(n_nodes), k), chosen.ravel()

    def _split_level(
        self, members: Int, stats: Float, gid: Int, size: Int, depth: int
    ) -> tuple[Int, Float, Int, Int]:
        """Split every node of one depth; return the working set of the next depth."""
        start = np.cumsum(size) - size
        pair_node, pair_feat = self._features(stats)
        ev = self._evaluate(members, stats, start, size, pair_node, pair_feat)
        if self.params.max_features < self.n_features:
            # Like scikit-learn: a feature that is constant in the node does not count as
            # usable; if all drawn ones are constant, keep visiting features in the drawn order
            # until a non-constant one turns up.
            stuck = self._all_constant(ev, pair_node, stats.shape[0])
            if stuck.any():
                pair_node, pair_feat = self._add_next_feature(
                    members, start, size, stuck, pair_node, pair_feat
                )
                ev = self._evaluate(members, stats, start, size, pair_node, pair_feat)
        return self._apply_best(ev, stats, gid, size, depth)

    # -- evaluation of all candidates ------------------------------------------------------------

    def _evaluate(
        self, members: Int, stats: Float, start: Int, size: Int, pair_node: Int, pair_feat: Int
    ) -> _Evaluation:
        """Lay out, sort and score every candidate split of every (node, feature) pair."""
        n = self.n_samples
        lengths = size[pair_node]
        pair_start = np.cumsum(lengths) - lengths
        entry_pair = np.repeat(np.arange(pair_node.size), lengths)
        inst = members[_ranges(start[pair_node], lengths)]
        feat_base = pair_feat[entry_pair] * n
        # Sort every block by its feature: key = pair number, then the sample's rank. (32-bit
        # keys sort faster; use them whenever the largest key fits.)
        key = entry_pair * n + self.rank[feat_base + self.inst_sample[inst]]
        if pair_node.size * n < np.iinfo(np.int32).max:
            key = key.astype(np.int32)
        inst = inst[np.argsort(key)]
        x = self.values[feat_base + self.inst_sample[inst]]
        pos = np.arange(inst.size) - pair_start[entry_pair]  # rows above, in the block

        msl = self.params.min_samples_leaf
        valid = (pos >= max(1, msl)) & (lengths[entry_pair] - pos >= msl)
        valid[1:] &= x[1:] > x[:-1] + FEATURE_THRESHOLD
        ev = _Evaluation(inst, x, pair_start, lengths, entry_pair, valid, pair_node, pair_feat)
        self._score(ev, stats, pair_node, pos)
        return ev

    def _score(self, ev: _Evaluation, stats: Float, pair_node: Int, pos: Int) -> None:
        """Fill ``ev.score`` (lower is better, inf where invalid) and ``ev.left`` statistics."""
        pair_start = ev.pair_start
        node_of = pair_node[ev.entry_pair]
        w = None if self.unit_weights else self.inst_w[ev.inst]
        w_left = (
            pos.astype(np.float64) if w is None else _block_prefix(w, pair_start, ev.entry_pair)
        )
        w_right = stats[node_of, W_COL] - w_left
        crit = self.params.criterion
        with np.errstate(divide="ignore", invalid="ignore"):
            if self.classification and self.k == 2 and crit == "gini":
                # Two classes: sum_c c^2 / n = n - 2 c0 c1 / n, so minimising
                # c0_L c1_L / n_L + c0_R c1_R / n_R is the same as minimising the Gini score.
                is_1 = self.inst_y[ev.inst].astype(np.float64)
                c1_left = _block_prefix(is_1 if w is None else is_1 * w, pair_start, ev.entry_pair)
                c0_left = w_left - c1_left
                c1_right = stats[node_of, VAL_COL + 1] - c1_left
                c0_right = w_right - c1_right
                score = c0_left * c1_left / w_left + c0_right * c1_right / w_right
                ev.left = [c0_left, c1_left]
            elif self.classification:
                codes = self.inst_y[ev.inst]
                counts = []
                for c in range(self.k - 1):
                    is_c = (codes == c).astype(np.float64)
                    counts.append(
                        _block_prefix(is_c if w is None else is_c * w, pair_start, ev.entry_pair)
                    )
                counts.append(w_left - np.sum(counts, axis=0) if counts else w_left)
                acc_left = np.zeros(ev.inst.size)
                acc_right = np.zeros(ev.inst.size)
                for c, c_left in enumerate(counts):
                    c_right = stats[node_of, VAL_COL + c] - c_left
                    if crit == "gini":
                        acc_left += c_left * c_left
                        acc_right += c_right * c_right
                    else:
                        acc_left -= _xlog2x(c_left)
                        acc_right -= _xlog2x(c_right)
                if crit == "gini":
                    # n_L I(L) + n_R I(R) = n - (sum c_L^2 / n_L + sum c_R^2 / n_R)
                    score = -(acc_left / w_left + acc_right / w_right)
                else:
                    # n_L I(L) = n_L log2 n_L - sum c_L log2 c_L, likewise on the right
                    score = _xlog2x(w_left) + acc_left + _xlog2x(w_right) + acc_right
                ev.left = counts
            elif crit == "squared_error":
                # Centre y on the node mean: the node's sum is then ~0, so the right sum is
                # -s_left, and n_L I(L) + n_R I(R) = const - (s_L^2 / n_L + s_R^2 / n_R).
                centred = self.inst_y[ev.inst] - stats[node_of, VAL_COL]
                wc = centred if w is None else w * centred
                s_left = _block_prefix(wc, pair_start, ev.entry_pair)
                score = -(s_left * s_left) * (1.0 / w_left + 1.0 / w_right)
                ev.left = []  # the winners' children are summed exactly in _children
            else:
                score = self._score_absolute(ev, w)
                ev.left = []
        ev.score = np.where(ev.valid, score, np.inf)

    def _score_absolute(self, ev: _Evaluation, w: Float | None) -> Float:
        """Absolute error has no cumulative-sum shortcut: scan each block in turn.

        A split before row ``o`` of a block costs the sum of absolute deviations of its first
        ``o`` rows plus that of the remaining rows.
        """
        y = self.inst_y[ev.inst].astype(np.float64)
        ww = np.ones(y.size, dtype=np.int64) if w is None else w.astype(np.int64)
        score = np.empty(y.size)
        for a, n in zip(ev.pair_start.tolist(), ev.lengths.tolist(), strict=True):
            yy, wb = y[a : a + n], ww[a : a + n]
            left = prefix_absolute_deviation(yy, wb)
            right = prefix_absolute_deviation(yy[::-1], wb[::-1])
            score[a : a + n] = left[:-1] + right[::-1][:-1]
        return score

    # -- the constant-feature rule of max_features ------------------------------------------------

    def _all_constant(self, ev: _Evaluation, pair_node: Int, n_nodes: int) -> Bool:
        """Nodes whose drawn features are all constant in the node."""
        last = ev.pair_start + ev.lengths - 1
        constant = ev.x[last] <= ev.x[ev.pair_start] + FEATURE_THRESHOLD
        usable = np.bincount(pair_node, weights=~constant, minlength=n_nodes)
        return usable == 0

    def _add_next_feature(
        self, members: Int, start: Int, size: Int, stuck: Bool, pair_node: Int, pair_feat: Int
    ) -> tuple[Int, Int]:
        """For each stuck node, add the first non-constant feature in its visiting order."""
        k = self.params.max_features
        extra_node, extra_feat = [], []
        for j in np.flatnonzero(stuck):
            samples = self.inst_sample[members[start[j] : start[j] + size[j]]]
            for f in self._visit[j, k:]:
                col = self.values[f * self.n_samples + samples]
                if col.max() > col.min() + FEATURE_THRESHOLD:
                    extra_node.append(j)
                    extra_feat.append(f)
                    break
        nodes = np.concatenate([pair_node, np.array(extra_node, dtype=np.int64)])
        feats = np.concatenate([pair_feat, np.array(extra_feat, dtype=np.int64)])
        order = np.lexsort((feats, nodes))
        return nodes[order], feats[order]

    # -- choosing and applying the splits --------------------------------------------------------

    def _apply_best(
        self, ev: _Evaluation, stats: Float, gid: Int, size: Int, depth: int
    ) -> tuple[Int, Float, Int, Int]:
        n_nodes = stats.shape[0]
        # Each node's blocks are contiguous and ordered by feature, then row, so the lowest
        # entry index among a node's best scores is the lowest feature, then lowest threshold.
        first_entry = ev.pair_start[np.searchsorted(ev.pair_node, np.arange(n_nodes))]
        best_score = np.minimum.reduceat(ev.score, first_entry)
        entry_node = ev.pair_node[ev.entry_pair]
        index = np.where(
            ev.score == best_score[entry_node], np.arange(ev.score.size), ev.score.size
        )
        winner = np.minimum.reduceat(index, first_entry)
        s = np.flatnonzero(np.isfinite(best_score))
        e = winner[s]
        block_start = ev.pair_start[ev.entry_pair[e]]

        # Both children of every candidate split, interleaved: left of the first node, right
        # of the first node, left of the second... Keep the splits that decrease the impurity
        # enough (min_impurity_decrease).
        children = self._children(ev, stats[s], e, block_start, size[s])
        keep = self._improvement(stats[s], children) + EPSILON >= self.params.min_impurity_decrease
        if not keep.all():
            s, e, block_start = s[keep], e[keep], block_start[keep]
            children = children[np.repeat(keep, 2)]

        feature = ev.pair_feat[ev.entry_pair[e]]
        threshold = midpoint(ev.x[e - 1], ev.x[e])
        child_gid = self._record(np.repeat(gid[s], 2), children)
        self.splits.append((gid[s], feature, threshold, child_gid[0::2], child_gid[1::2]))

        # Next depth: children that can still split; their samples are slices of the winning
        # block (sorted by the winning feature: left child first).
        child_start = np.stack([block_start, e], axis=1).ravel()
        child_size = children[:, N_COL].astype(np.int64)
        live = self._can_split(children, depth + 1)
        members = ev.inst[_ranges(child_start[live], child_size[live])]
        return members, children[live], child_gid[live], child_size[live]

    def _children(self, ev: _Evaluation, node: Float, e: Int, block_start: Int, size: Int) -> Float:
        """Statistics of both children of every node under its winning split at entry ``e``.

        Returns one row per child, interleaved: left and right child of the first node, then
        of the second...
        """
        n_left = (e - block_start).astype(np.float64)
        n = np.stack([n_left, size - n_left], axis=1).ravel()
        tree = np.repeat(node[:, TREE_COL], 2)
        crit = self.params.criterion
        if self.classification:
            counts = np.empty((2 * e.size, self.k))
            counts[0::2] = np.column_stack([c[e] for c in ev.left])
            counts[1::2] = node[:, VAL_COL:] - counts[0::2]
            return self._class_stats(tree, n, counts)
        if crit == "squared_error":
            # Two passes over each child's entries (mean, then squared deviations): exact enough
            # that a child whose targets are all equal gets impurity 0.
            starts = np.stack([block_start, e], axis=1).ravel()
            lengths = n.astype(np.int64)
            rows = ev.inst[_ranges(starts, lengths)]
            y, w = self.inst_y[rows], self.inst_w[rows]
            first = np.cumsum(lengths) - lengths
            weight = np.add.reduceat(w, first)
            mean = np.add.reduceat(w * y, first) / weight
            ss = np.add.reduceat(w * (y - np.repeat(mean, lengths)) ** 2, first)
            return self._squared_stats(tree, n, weight, mean, ss)
        y = self.inst_y[ev.inst].astype(np.float64)
        w = self.inst_w[ev.inst]
        groups = []
        for a, r, b in zip(
            block_start.tolist(), e.tolist(), (block_start + size).tolist(), strict=True
        ):
            groups += [(y[a:r], w[a:r]), (y[r:b], w[r:b])]
        return self._absolute_stats(tree, groups)

    def _improvement(self, node: Float, children: Float) -> Float:
        """Weighted impurity decrease of each split, as ``min_impurity_decrease`` sees it.

        ``children`` holds the two children of each node, interleaved (see ``_children``).
        """
        w = node[:, W_COL]
        weighted = children[:, W_COL] * children[:, IMP_COL]
        children = (weighted[0::2] + weighted[1::2]) / w
        root_weight = self.tree_weight[node[:, TREE_COL].astype(np.int64)]
        return w / root_weight * (node[:, IMP_COL] - children)

    # -- assembly --------------------------------------------------------------------------------

    def _assemble(self) -> list[Tree]:
        """Turn the recorded nodes into one flat-array Tree per tree, in depth-first preorder."""
        total = self.node_count
        parent = np.concatenate([b[0] for b in self.batches])
        stats = np.concatenate([b[1] for b in self.batches])
        tree = stats[:, TREE_COL].astype(np.int64)
        value = stats[:, VAL_COL:]
        if self.classification:
            value = value / stats[:, W_COL : W_COL + 1]  # counts -> class fractions

        left = np.full(total, TREE_LEAF, dtype=np.int64)
        right = np.full(total, TREE_LEAF, dtype=np.int64)
        feature = np.full(total, TREE_UNDEFINED, dtype=np.int64)
        threshold = np.full(total, float(TREE_UNDEFINED))
        for ids, feat, thr, s_left, s_right in self.splits:
            left[ids], right[ids], feature[ids], threshold[ids] = s_left, s_right, feat, thr

        # Subtree sizes bottom-up (a batch's parents were recorded in earlier batches), then
        # preorder positions top-down: left child = parent + 1, right = parent + 1 + size(left).
        # Batch k holds the nodes at depth k, children in (left, right) pairs.
        size = np.ones(total, dtype=np.int64)
        depth = np.zeros(total, dtype=np.int64)
        batch_ids, first = [], 0
        for k, b in enumerate(self.batches):
            batch_ids.append(np.arange(first, first + b[1].shape[0]))
            depth[first : first + b[1].shape[0]] = k
            first += b[1].shape[0]
        for ids in reversed(batch_ids[1:]):
            size[parent[ids[0::2]]] = 1 + size[ids[0::2]] + size[ids[1::2]]
        pre = np.zeros(total, dtype=np.int64)
        for ids in batch_ids[1:]:
            p = parent[ids]
            pre[ids] = pre[p] + 1 + np.where(right[p] == ids, size[left[p]], 0)

        tree_sizes = np.bincount(tree, minlength=self.n_trees)
        tree_start = np.cumsum(tree_sizes) - tree_sizes
        inv = np.empty(total, dtype=np.int64)
        inv[tree_start[tree] + pre] = np.arange(total)
        c_left = np.where(left >= 0, pre[np.maximum(left, 0)], TREE_LEAF)[inv]
        c_right = np.where(right >= 0, pre[np.maximum(right, 0)], TREE_LEAF)[inv]
        feature, threshold, value, depth = feature[inv], threshold[inv], value[inv], depth[inv]
        impurity, n_node, weight = stats[inv, IMP_COL], stats[inv, N_COL], stats[inv, W_COL]
        n_node = n_node.astype(np.int64)
        trees = []
        for t in range(self.n_trees):
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
                    n_features=self.n_features,
                    node_depth=depth[sl],
                )
            )
        return trees


class _Evaluation:
    """Every candidate split of one depth, laid out block by block.

    One *block* per (node, feature) pair, holding the node's instances sorted by the feature;
    *entry* ``i`` of a block stands for the split that sends the block's first ``i`` rows left.
    """

    def __init__(
        self,
        inst: Int,
        x: Float,
        pair_start: Int,
        lengths: Int,
        entry_pair: Int,
        valid: Bool,
        pair_node: Int,
        pair_feat: Int,
    ) -> None:
        self.inst, self.x, self.valid = inst, x, valid  # per entry
        self.pair_start, self.lengths = pair_start, lengths  # per block
        self.pair_node, self.pair_feat = pair_node, pair_feat  # per block
        self.entry_pair = entry_pair  # block of every entry
        self.score: Float = np.zeros(0)  # per entry, lower is better, inf where invalid
        self.left: list[Float] = []  # per entry: left-side statistics (see _score)
