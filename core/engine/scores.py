"""Steps 3 to 5 of a depth: cumulative statistics, and the score of every candidate split.

Part of the builder (read :mod:`core.engine.builder` first). :func:`cumulative_statistics` is
``scan_feature``'s step 3 for every block at once, :func:`score_candidates` its step 4 (the
criterion's function from :data:`core.engine.criteria.IMPURITY` on both sides of every entry),
:func:`missing_values` and :func:`score_missing_left` its step 5.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.engine.blocks import Blocks
from core.engine.criteria import FEATURE_THRESHOLD, IMPURITY, prefix_absolute_deviation
from core.engine.samples import Float, GrowthParams, Int, Nodes, Samples


@dataclass(frozen=True)
class Missing:
    """Step 5's view of the missing values: where they are in every block, and what they hold.

    A block's missing rows are its last entries (NaN sorts last), after its ``present`` ones.
    """

    present: Int  #: (n_blocks,) entries with a value
    count: Int  #: (n_blocks,) entries without one (the block's missing rows)
    stats: Float  #: (n_blocks, n_stats) their statistics, as the criterion adds them up
    weight: Float  #: (n_blocks,) their total weight


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
