"""Impurity criteria, and how one feature's best threshold is found.

A split sends the samples of a node with ``x[feature] <= threshold`` to the left child and the
rest to the right. Its quality is the *weighted child impurity*

.. math::

    I_{children} = \\frac{n_L}{n} I(L) + \\frac{n_R}{n} I(R),

and the best split is the one that makes it smallest, i.e. the one with the largest impurity
decrease :math:`I(parent) - I_{children}`.

Classification criteria work on class counts :math:`c_k` (:math:`p_k = c_k / n`):

- Gini: :math:`I = 1 - \\sum_k p_k^2`
- entropy (``"log_loss"`` is the same thing): :math:`I = -\\sum_k p_k \\log_2 p_k`, in bits
- misclassification error (drawn for comparison, not used to grow trees): :math:`1 - \\max_k p_k`

Regression criteria work on the targets :math:`y_i` of the node:

- squared error: :math:`I = \\frac{1}{n}\\sum_i (y_i - \\bar y)^2`
- absolute error: :math:`I = \\frac{1}{n}\\sum_i |y_i - \\operatorname{median}(y)|`

:func:`scan_feature` shows, on a single feature, the method the tree builder uses for every
node and every feature at once: sort the samples by the feature, take cumulative sums of the
class counts (or of the moments of :math:`y`) so that every candidate split's left and right
statistics are a subtraction away, and score every candidate threshold in one vectorized
expression. Both score with the functions of the :data:`IMPURITY` registry, which take many
nodes at once (one row of statistics per node).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

ClassificationCriterion = Literal["gini", "entropy", "log_loss"]
RegressionCriterion = Literal["squared_error", "absolute_error"]
Criterion = ClassificationCriterion | RegressionCriterion

CLASSIFICATION_CRITERIA: Final = ("gini", "entropy", "log_loss")
REGRESSION_CRITERIA: Final = ("squared_error", "absolute_error")

#: Two feature values closer than this are treated as equal, so no threshold goes between them
#: (scikit-learn uses the same constant).
FEATURE_THRESHOLD: Final = 1e-7

Float = NDArray[np.float64]


# --------------------------------------------------------------------------------------------
# Impurity of a node
# --------------------------------------------------------------------------------------------


def _as_counts(counts: ArrayLike) -> tuple[Float, Float]:
    c = np.asarray(counts, dtype=np.float64)
    total = c.sum(axis=-1)
    return c, total


def gini(counts: ArrayLike) -> Float:
    """Gini impurity of class counts: ``1 - sum_k p_k**2 = 1 - sum_k c_k**2 / n**2``.

    Computed from the counts as written on the right: with whole-number counts the sum of
    squares is exact, so two nodes whose counts are a permutation of each other get exactly the
    same impurity (the tree builder's tie rule relies on it).

    Parameters
    ----------
    counts : array-like of shape (..., n_classes)
        (Weighted) number of samples of each class.

    Returns
    -------
    ndarray of shape (...)
        0 for a pure node, ``1 - 1/K`` for ``K`` equally frequent classes; 0 for an empty node.
    """
    c = np.asarray(counts, dtype=np.float64)
    shape = c.shape[:-1]
    if c.shape[-1] == 0:
        return np.zeros(shape)
    c = c.reshape(-1, c.shape[-1])  # rows of counts (a view of the builder's arrays)
    # Class by class: the tree builder stores its counts class by class, so every column
    # c[..., k] is contiguous and each sum below is one fast pass (no (entries, classes)
    # temporary). The values are those of sum(c * c) / total**2, exactly: whole counts.
    total = np.array(c[..., 0])
    square = total * total
    scratch = np.empty_like(square)
    for k in range(1, c.shape[-1]):
        total += c[..., k]
        square += np.multiply(c[..., k], c[..., k], out=scratch)
    # An empty node (total 0, hence square 0) gets share 1 / 1, i.e. impurity 0.
    empty = total == 0
    square += empty
    np.multiply(total, total, out=scratch)
    scratch += empty
    square /= scratch
    impurity: Float = np.subtract(1.0, square, out=square).reshape(shape)[()]
    return impurity


def entropy(counts: ArrayLike) -> Float:
    """Shannon entropy of class counts in bits: ``-sum_k p_k log2 p_k`` (``0 log 0 = 0``).

    Parameters
    ----------
    counts : array-like of shape (..., n_classes)

    Returns
    -------
    ndarray of shape (...)
        0 for a pure node, ``log2(K)`` for ``K`` equally frequent classes.
    """
    c, total = _as_counts(counts)
    p = np.divide(c, total[..., None], out=np.zeros_like(c), where=total[..., None] > 0)
    log_p = np.log2(p, out=np.zeros_like(p), where=p > 0)
    return -np.sum(p * log_p, axis=-1) + 0.0


def misclassification(counts: ArrayLike) -> Float:
    """Misclassification error of class counts: ``1 - max_k p_k``.

    Parameters
    ----------
    counts : array-like of shape (..., n_classes)

    Returns
    -------
    ndarray of shape (...)
    """
    c, total = _as_counts(counts)
    safe = np.where(total > 0, total, 1.0)
    return np.where(total > 0, 1.0 - c.max(axis=-1) / safe, 0.0)


def _weights(y: Float, sample_weight: ArrayLike | None) -> Float:
    if sample_weight is None:
        return np.ones_like(y)
    return np.asarray(sample_weight, dtype=np.float64)


def squared_error_of_moments(moments: ArrayLike) -> Float:
    """Squared error of a node from its moments ``(w, s, q)``: ``(q - s**2 / w) / w``.

    ``w = sum_i w_i`` is the node's weight, ``s = sum_i w_i (y_i - c)`` and
    ``q = sum_i w_i (y_i - c)**2`` for any centre ``c`` (the squared error does not depend on
    it; a centre near the mean keeps the subtraction exact enough). Moments add up, so a
    split's left moments are a cumulative sum and its right ones the node's minus the left.

    Parameters
    ----------
    moments : array-like of shape (..., 3)

    Returns
    -------
    ndarray of shape (...)
        0 for an empty node; never negative.
    """
    m = np.asarray(moments, dtype=np.float64)
    w, s, q = m[..., 0], m[..., 1], m[..., 2]
    positive = w > 0
    spread = q - np.divide(s * s, w, out=np.zeros_like(w), where=positive)
    return np.divide(np.maximum(spread, 0.0), w, out=np.zeros_like(w), where=positive)


def moments(y: ArrayLike, sample_weight: ArrayLike | None = None) -> Float:
    """Moments ``(w, s, q)`` of targets centred on their weighted mean (see above).

    Parameters
    ----------
    y : array-like of shape (n_samples,)
    sample_weight : array-like of shape (n_samples,), optional

    Returns
    -------
    ndarray of shape (3,)
    """
    yy = np.asarray(y, dtype=np.float64)
    w = _weights(yy, sample_weight)
    total = w.sum()
    if total <= 0:
        return np.zeros(3)
    centred = yy - np.dot(w, yy) / total
    return np.array([total, np.dot(w, centred), np.dot(w, centred * centred)])


def squared_error(y: ArrayLike, sample_weight: ArrayLike | None = None) -> float:
    """Mean squared deviation from the (weighted) mean, the regression tree's default impurity.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
    sample_weight : array-like of shape (n_samples,), optional

    Returns
    -------
    float
        ``sum_i w_i (y_i - mean)**2 / sum_i w_i``; 0 for an empty node.
    """
    return float(squared_error_of_moments(moments(y, sample_weight)))


def weighted_median(y: ArrayLike, sample_weight: ArrayLike | None = None) -> float:
    """Weighted median, as scikit-learn's absolute-error trees define it.

    Sort the values; find the first position ``k`` where the cumulative weight reaches half the
    total. If it reaches exactly half, the median is the average of that value and the next;
    otherwise it is that value. With unit weights this is the usual median.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
    sample_weight : array-like of shape (n_samples,), optional

    Returns
    -------
    float
    """
    yy = np.asarray(y, dtype=np.float64)
    if yy.size == 0:
        return 0.0
    w = _weights(yy, sample_weight)
    order = np.argsort(yy, kind="stable")
    ys, cw = yy[order], np.cumsum(w[order])
    half = cw[-1] / 2.0
    k = int(np.searchsorted(cw, half, side="left"))
    if cw[k] == half and k + 1 < ys.size:
        return float((ys[k] + ys[k + 1]) / 2.0)
    return float(ys[k])


def absolute_error(y: ArrayLike, sample_weight: ArrayLike | None = None) -> float:
    """Mean absolute deviation from the weighted median.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
    sample_weight : array-like of shape (n_samples,), optional

    Returns
    -------
    float
        ``sum_i w_i |y_i - median| / sum_i w_i``; 0 for an empty node.
    """
    yy = np.asarray(y, dtype=np.float64)
    w = _weights(yy, sample_weight)
    total = w.sum()
    if total <= 0:
        return 0.0
    return float(np.dot(w, np.abs(yy - weighted_median(yy, w))) / total)


# --------------------------------------------------------------------------------------------
# The registry: one impurity function per criterion, over rows of statistics
# --------------------------------------------------------------------------------------------

#: ``criterion -> impurity`` of every row of an array of node statistics: class counts
#: (shape ``(..., n_classes)``) for classification, moments ``(w, s, q)`` for squared error.
#: :func:`scan_feature` and the tree builder both score splits with these functions. Absolute
#: error is not here: its statistic, the median, does not add up (see below).
IMPURITY: Final[dict[str, Callable[[ArrayLike], Float]]] = {
    "gini": gini,
    "entropy": entropy,
    "log_loss": entropy,
    "squared_error": squared_error_of_moments,
}


# --------------------------------------------------------------------------------------------
# Absolute error: the one criterion without a cumulative-sum shortcut
# --------------------------------------------------------------------------------------------


def prefix_absolute_deviation(y: Float, weight: NDArray[np.int64]) -> Float:
    """Sum of absolute deviations from the median of every prefix of ``y``.

    ``out[k] = sum_{i<k} w_i |y_i - median(y_0..y_{k-1})|`` for ``k = 0..n``. Integer weights
    count as repeated samples. Two heaps keep the lower and upper halves of the prefix; then the
    sum of absolute deviations is ``sum(upper) - sum(lower)``, plus the lower half's top value
    when the lower half holds one element more (that element is the median and its own deviation
    is 0). O(n log n), and a loop: absolute error is the one criterion without a cumulative-sum
    shortcut.

    Parameters
    ----------
    y : ndarray of shape (n,)
    weight : ndarray of shape (n,), positive integers

    Returns
    -------
    ndarray of shape (n + 1,)
    """
    out = np.zeros(y.size + 1)
    lower: list[float] = []  # max-heap via negated values
    upper: list[float] = []  # min-heap
    sum_lower = sum_upper = 0.0
    for i, (value, count) in enumerate(zip(y.tolist(), weight.tolist(), strict=True)):
        for _ in range(count):
            if lower and value > -lower[0]:
                heapq.heappush(upper, value)
                sum_upper += value
            else:
                heapq.heappush(lower, -value)
                sum_lower += value
            if len(lower) > len(upper) + 1:
                moved = -heapq.heappop(lower)
                sum_lower -= moved
                heapq.heappush(upper, moved)
                sum_upper += moved
            elif len(upper) > len(lower):
                moved = heapq.heappop(upper)
                sum_upper -= moved
                heapq.heappush(lower, -moved)
                sum_lower += moved
        extra = -lower[0] if len(lower) > len(upper) else 0.0
        out[i + 1] = sum_upper - sum_lower + extra
    return out


# --------------------------------------------------------------------------------------------
# One feature, one node: the readable version of the split search
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


def midpoint(low: Float, high: Float) -> Float:
    """Threshold between two consecutive distinct sorted values ``low < high``.

    The midpoint ``low/2 + high/2``; when rounding makes it equal to ``high`` (the values are
    adjacent floats) use ``low``, so that ``low <= t < high`` always holds and ``x <= t`` sends
    exactly the lower values left.
    """
    t = low / 2.0 + high / 2.0
    return np.where((t == high) | ~np.isfinite(t), low, t)


def scan_feature(
    x: ArrayLike,
    y: ArrayLike,
    *,
    criterion: Criterion,
    n_classes: int | None = None,
    min_samples_leaf: int = 1,
    sample_weight: ArrayLike | None = None,
) -> SplitScan:
    """Weighted child impurity of every valid split of one feature.

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
    if criterion not in (*CLASSIFICATION_CRITERIA, *REGRESSION_CRITERIA):
        raise ValueError(
            f"criterion must be one of gini, entropy, log_loss, squared_error, "
            f"absolute_error; got {criterion!r}"
        )
    xv = np.asarray(x, dtype=np.float64)
    n = xv.size
    w = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)

    # 1. Sort the node's samples by the feature. Missing values (NaN) sort last: the node's
    #    first `present` sorted samples have a value, the last `n_missing` have none.
    order = np.argsort(xv, kind="stable")
    xs = xv[order]
    n_missing = int(np.count_nonzero(np.isnan(xs)))
    present = n - n_missing

    # 2. A threshold between sorted present values k-1 and k sends the first k left. It is
    #    valid when the two values differ (k = 1 .. present - 1).
    k = np.arange(1, max(present, 1))
    distinct = xs[k] > xs[k - 1] + FEATURE_THRESHOLD
    thresholds = midpoint(xs[k - 1], xs[k])

    # 3-4. Score every split of the sorted order "first p samples left" at once (cumulative
    #    sums; see _children_cost). The missing samples are last, so they go right.
    cost, parent = _children_cost(order, y, w, criterion, n_classes)

    # 5. Missing values. Two more kinds of candidates, as scikit-learn searches them:
    #    - p = present: every present value left, every missing one right (threshold inf);
    #    - each threshold again with the missing samples sent left: score the order with the
    #      missing samples first, where "first n_missing + k left" is threshold k.
    passes = [(thresholds, cost[k - 1], k, distinct, False)]
    if n_missing and present:
        every_present_left = (np.array([np.inf]), cost[[present - 1]], np.array([present]))
        passes.append((*every_present_left, np.array([True]), False))
    if n_missing:
        missing_first = np.concatenate([order[present:], order[:present]])
        cost_left, _ = _children_cost(missing_first, y, w, criterion, n_classes)
        passes.append((thresholds, cost_left[n_missing + k - 1], n_missing + k, distinct, True))
    t_all = np.concatenate([t for t, _, _, _, _ in passes])
    cost_all = np.concatenate([c for _, c, _, _, _ in passes])
    n_left = np.concatenate([m for _, _, m, _, _ in passes])
    ok = np.concatenate([np.broadcast_to(v, t.shape) for t, _, _, v, _ in passes])
    sent_left = np.concatenate([np.full(t.size, side) for t, _, _, _, side in passes])

    # 6. Keep the valid candidates (both sides keep min_samples_leaf samples); the best is the
    #    first smallest.
    ok = ok & (n_left >= min_samples_leaf) & (n - n_left >= min_samples_leaf)
    child_impurity = cost_all[ok] / w.sum()
    best = int(np.argmin(child_impurity)) if child_impurity.size else -1
    n_left_kept = n_left[ok].astype(np.int64)
    return SplitScan(
        thresholds=t_all[ok],
        child_impurity=child_impurity,
        n_left=n_left_kept,
        n_right=n - n_left_kept,
        missing_left=sent_left[ok].astype(bool),
        parent_impurity=parent,
        best=best,
        n_missing=n_missing,
    )


def _children_cost(
    order: NDArray[np.intp],
    y: ArrayLike,
    w: Float,
    criterion: Criterion,
    n_classes: int | None,
) -> tuple[Float, float]:
    """``n_L I(L) + n_R I(R)`` of every split "the first p samples of ``order`` left".

    Returns
    -------
    cost : ndarray of shape (n - 1,)
        For p = 1 .. n - 1 (entry p - 1).
    parent : float
        The node's impurity.
    """
    n = order.size
    ws = w[order]
    total_w = ws.sum()
    if criterion == "absolute_error":
        ys = np.asarray(y, dtype=np.float64)[order]
        counts = ws.astype(np.int64)
        left_sad = prefix_absolute_deviation(ys, counts)[1:-1]
        right_sad = prefix_absolute_deviation(ys[::-1], counts[::-1])[::-1][1:-1]
        return left_sad + right_sad, absolute_error(ys, ws)
    # 3. Left statistics of every split at once from cumulative sums; right = total - left.
    #    (Class counts, or the moments (w, s, q) of y; IMPURITY turns either into impurities.)
    if criterion in CLASSIFICATION_CRITERIA:
        codes = np.asarray(y, dtype=np.int64)[order]
        k = int(n_classes) if n_classes is not None else int(codes.max(initial=-1)) + 1
        stats = np.zeros((n, k))
        stats[np.arange(n), codes] = ws
    else:
        ys = np.asarray(y, dtype=np.float64)[order]
        centred = ys - np.dot(ws, ys) / total_w if n else ys
        stats = np.column_stack([ws, ws * centred, ws * centred * centred])
    left = np.cumsum(stats, axis=0)[:-1]
    right = stats.sum(axis=0) - left
    w_left = np.cumsum(ws)[:-1]
    # 4. Score: the weighted child impurity n_L I(L) + n_R I(R) of every split.
    impurity = IMPURITY[criterion]
    cost = w_left * impurity(left) + (total_w - w_left) * impurity(right)
    return cost, float(impurity(stats.sum(axis=0)))
