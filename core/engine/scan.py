"""How one feature's best threshold is found at one node: score every split, keep the best.

Read :mod:`core.engine.criteria` first (the impurity formulas). :func:`score_splits` walks the
node's rows in the feature's sorted order and moves them one at a time from the right side to
the left; between two distinct values it scores the split by its weighted child impurity
:math:`n_L I(L) + n_R I(R)`, and the first lowest score wins. :mod:`core.engine.grow` calls it
at every node of every tree; :func:`scan_feature` calls it on one feature and lists every
candidate, for the pages.

Rows with a missing value (NaN) are tried on both sides, in scikit-learn's order of search:
every threshold with them on the right, then "every present value left, every missing one
right" (threshold ``inf``), then every threshold with them on the left.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit
from numpy.typing import ArrayLike, NDArray

from core.engine.arrays import float32_values, plain_array
from core.engine.criteria import (
    ABSOLUTE_ERROR,
    CRITERION_CODE,
    ENTROPY,
    FEATURE_THRESHOLD,
    GINI,
    SQUARED_ERROR,
    Criterion,
    add_row,
    node_impurity,
    node_statistics,
    prefix_absolute_deviation,
)

Float = NDArray[np.float64]


@njit(cache=True, nogil=True)
def score_splits(
    rows: NDArray[np.intp],
    x: Float,
    y: Float,
    weight: Float,
    criterion: int,
    node_stats: Float,
    centre: float,
    n_missing: int,
    min_samples_leaf: int,
    cost_right: Float,
    cost_left: Float,
) -> tuple[float, int, bool]:
    """The weighted child impurity ``n_L I(L) + n_R I(R)`` of every split of one feature.

    The node's rows come sorted by the feature, the ``n_missing`` rows without a value (NaN)
    last; ``p`` rows have one. Three kinds of candidates, in scikit-learn's order of search:

    - ``cost_right[i]`` for ``i = 1 .. p-1``: the first ``i`` rows left, the rest right (the
      missing rows too). Valid only between two distinct values, with at least
      ``min_samples_leaf`` rows on each side;
    - ``cost_right[p]``, when rows are missing: every present row left, every missing row right
      (threshold ``inf``);
    - ``cost_left[i]`` for ``i = 1 .. p-1``: the same thresholds with the missing rows sent left.

    Every other entry, and every candidate that is not valid, is ``inf``.

    Parameters
    ----------
    rows : ndarray of shape (n,)
        The node's rows, sorted by the feature, missing values last.
    x, y, weight : ndarray of shape (n_samples,)
        The feature's values, the targets (class codes as floats for classification) and the
        row weights, indexed by row.
    criterion : int
        ``GINI``, ``ENTROPY``, ``SQUARED_ERROR`` or ``ABSOLUTE_ERROR``.
    node_stats : ndarray
        The node's statistics: class counts, or the moments ``(w, s, q)`` about ``centre``
        (unused for absolute error).
    centre : float
        The node's mean (squared error), so that moments stay small.
    n_missing : int
    min_samples_leaf : int
    cost_right, cost_left : ndarray of shape (>= n + 1,)
        Filled in.

    Returns
    -------
    (cost, i, missing_left)
        The first lowest score, in the order above: ``i`` present rows go left (the threshold
        lies between sorted rows ``i - 1`` and ``i``, or is ``inf`` when ``i = p``), and the
        missing ones too if ``missing_left``. ``i = -1`` when no candidate is valid.
    """
    n = rows.size
    p = n - n_missing
    cost_right[: n + 1] = np.inf
    cost_left[: n + 1] = np.inf
    if p == 0:
        return np.inf, -1, False
    if criterion == ABSOLUTE_ERROR:
        return _absolute_error_costs(
            rows, x, y, weight, n_missing, min_samples_leaf, cost_right, cost_left
        )
    leaf = max(min_samples_leaf, 1)
    node_weight = 0.0
    for row in rows:
        node_weight += weight[row]
    left, right = np.empty(node_stats.size), np.empty(node_stats.size)
    best_cost, best_i, best_missing_left = np.inf, -1, False
    for missing_left in (False, True):
        if missing_left and n_missing == 0:
            break
        costs = cost_left if missing_left else cost_right  # where this pass's scores go
        # The left side starts empty, or holding the missing rows when they go left.
        left[:] = 0.0
        w_left = 0.0
        if missing_left:
            for row in rows[p:]:
                add_row(left, y[row], weight[row], criterion, centre, 1.0)
                w_left += weight[row]
        # Move the present rows to the left one at a time; after i of them, score the split.
        # (With the missing rows right, "every present row left" is a split too: i = p.)
        last = p if n_missing > 0 and not missing_left else p - 1
        for i in range(1, last + 1):
            row = rows[i - 1]
            add_row(left, y[row], weight[row], criterion, centre, 1.0)
            w_left += weight[row]
            if i < p and not apart(x[row], x[rows[i]]):
                continue  # no threshold between two equal values
            n_left = i + n_missing if missing_left else i
            if n_left < leaf or n - n_left < min_samples_leaf:
                continue
            for k in range(right.size):
                right[k] = node_stats[k] - left[k]
            # n_L I(L) + n_R I(R), with n counted in weights
            w_right = node_weight - w_left
            cost = w_left * node_impurity(left, criterion)
            cost += w_right * node_impurity(right, criterion)
            costs[i] = cost
            if cost < best_cost:  # strictly lower: the first of equal scores stays
                best_cost, best_i, best_missing_left = cost, i, missing_left
    return best_cost, best_i, best_missing_left


@njit(cache=True, nogil=True)
def _absolute_error_costs(
    rows: NDArray[np.intp],
    x: Float,
    y: Float,
    weight: Float,
    n_missing: int,
    min_samples_leaf: int,
    cost_right: Float,
    cost_left: Float,
) -> tuple[float, int, bool]:
    """:func:`score_splits` for absolute error: ``SAD(left) + SAD(right)`` of every candidate.

    A median does not add up, so each side's sum of absolute deviations (SAD) comes from
    :func:`prefix_absolute_deviation`, once forwards and once backwards over the rows.
    """
    n = rows.size
    p = n - n_missing
    leaf = max(min_samples_leaf, 1)
    best_cost, best_i, best_missing_left = np.inf, -1, False
    for missing_left in (False, True):
        if missing_left and n_missing == 0:
            break
        costs = cost_left if missing_left else cost_right  # where this pass's scores go
        # The order in which rows move left: the missing ones first when they go left.
        order = np.concatenate((rows[p:], rows[:p])) if missing_left else rows
        ys = y[order]
        ws = weight[order].astype(np.int64)
        left = prefix_absolute_deviation(ys, ws)
        right = prefix_absolute_deviation(ys[::-1], ws[::-1])[::-1]
        last = p if n_missing > 0 and not missing_left else p - 1
        for i in range(1, last + 1):
            if i < p and not apart(x[rows[i - 1]], x[rows[i]]):
                continue
            n_left = i + n_missing if missing_left else i
            if n_left < leaf or n - n_left < min_samples_leaf:
                continue
            cost = left[n_left] + right[n_left]
            costs[i] = cost
            if cost < best_cost:
                best_cost, best_i, best_missing_left = cost, i, missing_left
    return best_cost, best_i, best_missing_left


@njit(cache=True, nogil=True, inline="always")
def apart(low: float, high: float) -> bool:
    """Whether a threshold goes between two sorted values ``low <= high``.

    ``high > low + FEATURE_THRESHOLD``, the sum rounded to float32 as scikit-learn's splitter
    adds two float32 numbers: near 1.0 one float32 step (1.2e-7) is then no gap, as there.
    """
    return bool(high > np.float32(np.float32(low) + np.float32(FEATURE_THRESHOLD)))


@njit(cache=True, nogil=True)
def midpoint(low: float, high: float) -> float:
    """Threshold between two consecutive distinct sorted values ``low < high``.

    The midpoint ``low/2 + high/2``, scikit-learn's formula. The values are float32 ones
    (:func:`core.engine.arrays.float32_values`), so in float64 the midpoint is exact and lies
    strictly between them; for other values, should rounding make it equal to ``high``, use
    ``low``, so that ``low <= t < high`` always holds and ``x <= t`` sends exactly the lower
    values left.
    """
    t = low / 2.0 + high / 2.0
    if t == high or not np.isfinite(t):
        return low
    return t


# --------------------------------------------------------------------------------------------
# One feature at one node, every candidate listed: what the pages draw
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SplitScan:
    """Every valid split of one feature at one node, with its weighted child impurity.

    Candidates come in scikit-learn's order of search: each threshold with the missing values
    (if any) sent right, then the split "every present value left, every missing one right"
    (threshold ``inf``), then each threshold with the missing values sent left.

    Attributes
    ----------
    thresholds : ndarray of shape (n_candidates,)
        Midpoints between consecutive distinct values (increasing within each pass), or
        ``inf``.
    child_impurity : ndarray of shape (n_candidates,)
        ``(n_L I(L) + n_R I(R)) / n`` for each candidate.
    n_left, n_right : ndarray of shape (n_candidates,)
        Number of samples sent left and right, missing ones included.
    missing_left : ndarray of shape (n_candidates,), bool
        Whether the candidate sends the missing values left (False when there are none).
    parent_impurity : float
        Impurity of the node before splitting.
    best : int
        Index of the best candidate (the first one on a tie), or -1 when no split is valid.
    n_missing : int
        Samples whose value is missing (NaN).
    """

    thresholds: Float
    child_impurity: Float
    n_left: NDArray[np.int64]
    n_right: NDArray[np.int64]
    missing_left: NDArray[np.bool_]
    parent_impurity: float
    best: int
    n_missing: int = 0

    @property
    def best_threshold(self) -> float | None:
        """The winning threshold, or ``None`` when the feature cannot split the node."""
        return None if self.best < 0 else float(self.thresholds[self.best])

    @property
    def best_impurity(self) -> float | None:
        """Weighted child impurity of the winning threshold, or ``None``."""
        return None if self.best < 0 else float(self.child_impurity[self.best])

    @property
    def best_missing_left(self) -> bool | None:
        """Where the winning split sends the missing values, or ``None`` (no valid split)."""
        return None if self.best < 0 else bool(self.missing_left[self.best])


def scan_feature(
    x: ArrayLike,
    y: ArrayLike,
    *,
    criterion: Criterion,
    n_classes: int | None = None,
    min_samples_leaf: int = 1,
    sample_weight: ArrayLike | None = None,
) -> SplitScan:
    """Weighted child impurity of every valid split of one feature, as the tree scores them.

    Rounds the values to float32 as the trees do, sorts the node's samples by the feature
    (missing values last), then runs the compiled :func:`score_splits` that every node of
    every tree runs.

    Parameters
    ----------
    x : array-like of shape (n_samples,)
        Values of the feature for the samples of the node; NaN is a missing value.
    y : array-like of shape (n_samples,)
        Class codes ``0..n_classes-1`` (classification) or targets (regression).
    criterion : {"gini", "entropy", "log_loss", "squared_error", "absolute_error"}
    n_classes : int, optional
        Number of classes; defaults to ``max(y) + 1`` for classification.
    min_samples_leaf : int, default=1
        Candidates leaving fewer samples on either side are not valid.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative integer weights (a bootstrap sample's counts); default 1.

    Returns
    -------
    SplitScan
    """
    if criterion not in CRITERION_CODE:
        raise ValueError(
            f"criterion must be one of gini, entropy, log_loss, squared_error, "
            f"absolute_error; got {criterion!r}"
        )
    code = CRITERION_CODE[criterion]
    xv = float32_values(x)  # as the trees read a feature
    yv = plain_array(y, np.float64)
    n = xv.size
    w = np.ones(n) if sample_weight is None else plain_array(sample_weight, np.float64)
    rows = np.argsort(xv, kind="stable")  # NaN sorts last
    n_missing = int(np.count_nonzero(np.isnan(xv)))
    if code in (GINI, ENTROPY):
        n_stats = int(n_classes) if n_classes is not None else int(yv.max(initial=-1)) + 1
    else:
        n_stats = 3 if code == SQUARED_ERROR else 0
    stats = np.zeros(n_stats)
    _, centre, parent = node_statistics(np.arange(n), yv, w, code, stats)
    cost_right, cost_left = np.empty(n + 1), np.empty(n + 1)
    score_splits(
        rows, xv, yv, w, code, stats, centre, n_missing, min_samples_leaf, cost_right, cost_left
    )  # every candidate's cost, in the two arrays
    # The candidates in the order of search, as score_splits visits them.
    p = n - n_missing
    xs = xv[rows]
    i = np.arange(1, max(p, 1))
    steps = [(i, cost_right[i], False), (i, cost_left[i], True)]
    if n_missing and p:
        steps.insert(1, (np.array([p]), cost_right[[p]], False))
    at = np.concatenate([s[0] for s in steps])
    cost = np.concatenate([s[1] for s in steps])
    missing_left = np.concatenate([np.full(s[0].size, s[2]) for s in steps])
    ok = np.isfinite(cost)
    at, cost, missing_left = at[ok], cost[ok], missing_left[ok]
    thresholds = np.array(
        [np.inf if k == p else midpoint(xs[k - 1], xs[k]) for k in at.tolist()], dtype=np.float64
    )
    n_left = (at + np.where(missing_left, n_missing, 0)).astype(np.int64)
    total = w.sum()
    child_impurity = cost / total if total > 0 else cost
    return SplitScan(
        thresholds=thresholds,
        child_impurity=child_impurity,
        n_left=n_left,
        n_right=n - n_left,
        missing_left=missing_left.astype(bool),
        parent_impurity=parent,
        best=int(np.argmin(cost)) if cost.size else -1,
        n_missing=n_missing,
    )
