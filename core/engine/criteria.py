"""Impurity criteria, and how one feature's best threshold is found at one node.

A split sends the samples of a node with ``x[feature] <= threshold`` to the left child and the
rest to the right. Its quality is the *weighted child impurity*

.. math::

    I_{children} = \\frac{n_L}{n} I(L) + \\frac{n_R}{n} I(R),

and the best split is the one that makes it smallest, i.e. the one with the largest impurity
decrease :math:`I(parent) - I_{children}`.

Classification criteria work on a node's class counts :math:`c_k` (:math:`n = \\sum_k c_k`,
:math:`p_k = c_k / n`):

- Gini: :math:`I = 1 - \\sum_k p_k^2`
- entropy (``"log_loss"`` is the same thing): :math:`I = -\\sum_k p_k \\log_2 p_k`, in bits
- misclassification error (drawn for comparison, not used to grow trees): :math:`1 - \\max_k p_k`

Regression criteria work on the targets :math:`y_i` of the node:

- squared error: :math:`I = \\frac{1}{n}\\sum_i (y_i - \\bar y)^2`
- absolute error: :math:`I = \\frac{1}{n}\\sum_i |y_i - \\operatorname{median}(y)|`

The functions that grow every tree are compiled with numba (``@njit``) and work on *one node*
(the small formulas are compiled into the loops that call them, ``inline="always"``: a call
per candidate threshold would cost more than the formula):
:func:`node_gini`, :func:`node_entropy` and :func:`node_squared_error` read a node's statistics,
and :func:`score_splits` scores every threshold of one feature at one node: walk the node's
rows in the feature's sorted order, move one row at a time from the right side to the left,
and between two distinct values score :math:`n_L I(L) + n_R I(R)`; the first lowest score
wins. :mod:`core.engine.grow` calls it at every node of every tree; :func:`scan_feature` calls
it on one feature and returns every candidate, for the pages.

The plain functions :func:`gini`, :func:`entropy`, :func:`squared_error_of_moments`... take
many nodes at once (one row of statistics per node) for the figures; they call the same
compiled formulas row by row.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

import numpy as np
from numba import njit
from numpy.typing import ArrayLike, NDArray

ClassificationCriterion = Literal["gini", "entropy", "log_loss"]
RegressionCriterion = Literal["squared_error", "absolute_error"]
Criterion = ClassificationCriterion | RegressionCriterion

CLASSIFICATION_CRITERIA: Final = ("gini", "entropy", "log_loss")
REGRESSION_CRITERIA: Final = ("squared_error", "absolute_error")

#: Two feature values closer than this are treated as equal, so no threshold goes between them
#: (scikit-learn uses the same constant).
FEATURE_THRESHOLD: Final = 1e-7

#: The compiled code names a criterion by a number.
GINI: Final = 0
ENTROPY: Final = 1
SQUARED_ERROR: Final = 2
ABSOLUTE_ERROR: Final = 3
CRITERION_CODE: Final = {
    "gini": GINI,
    "entropy": ENTROPY,
    "log_loss": ENTROPY,
    "squared_error": SQUARED_ERROR,
    "absolute_error": ABSOLUTE_ERROR,
}

Float = NDArray[np.float64]


# --------------------------------------------------------------------------------------------
# The impurity of one node, from its statistics
# --------------------------------------------------------------------------------------------


@njit(cache=True, nogil=True, inline="always")
def node_gini(counts: Float) -> float:
    """Gini impurity of one node's class counts: ``1 - sum_k p_k**2 = 1 - sum_k c_k**2 / n**2``.

    Computed as written on the right: with whole-number counts the sum of squares is exact,
    so two nodes whose counts are a permutation of each other get exactly the same impurity
    (the tie rule relies on it). An empty node has impurity 0.

    Parameters
    ----------
    counts : ndarray of shape (n_classes,)
        (Weighted) number of samples of each class.
    """
    n = 0.0
    squares = 0.0
    for c in counts:
        n += c
        squares += c * c
    if n == 0.0:
        return 0.0
    return 1.0 - squares / (n * n)


@njit(cache=True, nogil=True, inline="always")
def node_entropy(counts: Float) -> float:
    """Entropy of one node's class counts, in bits: ``-sum_k p_k log2 p_k`` (``0 log 0 = 0``).

    Parameters
    ----------
    counts : ndarray of shape (n_classes,)
    """
    n = 0.0
    for c in counts:
        n += c
    total = 0.0
    for c in counts:
        if c > 0.0:
            p = c / n
            total -= p * np.log2(p)
    return total


@njit(cache=True, nogil=True, inline="always")
def node_squared_error(moments: Float) -> float:
    """Squared error of one node from its moments ``(w, s, q)``: ``(q - s**2 / w) / w``.

    ``w = sum_i w_i`` is the node's weight, ``s = sum_i w_i (y_i - c)`` and
    ``q = sum_i w_i (y_i - c)**2`` for any centre ``c`` (the squared error does not depend on
    it; the node's mean keeps the subtraction exact enough). Moments add up, so moving a row
    from one side of a split to the other is three additions and three subtractions.

    Parameters
    ----------
    moments : ndarray of shape (3,)

    Returns
    -------
    float
        0 for an empty node; never negative.
    """
    w, s, q = moments[0], moments[1], moments[2]
    if w <= 0.0:
        return 0.0
    return max(q - s * s / w, 0.0) / w


@njit(cache=True, nogil=True, inline="always")
def node_impurity(stats: Float, criterion: int) -> float:
    """The impurity of one node by the criterion's formula (not absolute error, see below)."""
    if criterion == GINI:
        return node_gini(stats)
    if criterion == ENTROPY:
        return node_entropy(stats)
    return node_squared_error(stats)


@njit(cache=True, nogil=True)
def node_median(y: Float, weight: Float) -> float:
    """Weighted median, as scikit-learn's absolute-error trees define it.

    Sort the values; find the first position ``k`` where the cumulative weight reaches half the
    total. If it reaches exactly half, the median is the average of that value and the next;
    otherwise it is that value. With unit weights this is the usual median.
    """
    if y.size == 0:
        return 0.0
    order = np.argsort(y, kind="mergesort")
    half = weight.sum() / 2.0
    reached = 0.0
    for k in range(order.size):
        reached += weight[order[k]]
        if reached >= half:
            if reached == half and k + 1 < order.size:
                return (y[order[k]] + y[order[k + 1]]) / 2.0
            return y[order[k]]
    return y[order[-1]]


@njit(cache=True, nogil=True)
def node_absolute_error(y: Float, weight: Float) -> float:
    """Mean absolute deviation from the weighted median: ``sum_i w_i |y_i - m| / sum_i w_i``."""
    total = weight.sum()
    if total <= 0.0:
        return 0.0
    median = node_median(y, weight)
    return np.sum(weight * np.abs(y - median)) / total


@njit(cache=True, nogil=True)
def prefix_absolute_deviation(y: Float, weight: NDArray[np.int64]) -> Float:
    """Sum of absolute deviations from the median of every prefix of ``y``.

    ``out[k] = sum_{i<k} w_i |y_i - median(y_0..y_{k-1})|`` for ``k = 0..n``. Integer weights
    count as repeated samples. Two heaps keep the lower and upper halves of the prefix; then the
    sum of absolute deviations is ``sum(upper) - sum(lower)``, plus the lower half's top value
    when the lower half holds one element more (that element is the median and its own deviation
    is 0). O(n log n): absolute error is the one criterion without a running-sum shortcut.

    Parameters
    ----------
    y : ndarray of shape (n,)
    weight : ndarray of shape (n,), non-negative integers

    Returns
    -------
    ndarray of shape (n + 1,)
    """
    out = np.zeros(y.size + 1)
    lower = [0.0 for _ in range(0)]  # a max-heap of the lower half, as negated values
    upper = [0.0 for _ in range(0)]  # a min-heap of the upper half
    sum_lower = 0.0
    sum_upper = 0.0
    for i in range(y.size):
        value = y[i]
        for _ in range(weight[i]):
            if len(lower) > 0 and value > -lower[0]:
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


@njit(cache=True, nogil=True)
def node_statistics(
    rows: NDArray[np.intp], y: Float, weight: Float, criterion: int, stats: Float
) -> tuple[float, float, float]:
    """A node's statistics (written into ``stats``), total weight, centre and impurity.

    ``stats`` gets the class counts, or the moments ``(w, s, q)`` about the node's mean (see
    :func:`node_squared_error`); the centre is the node's mean (squared error) or its weighted
    median (absolute error, whose ``stats`` stay empty), what a regression leaf predicts.

    Returns
    -------
    (weight, centre, impurity)
    """
    stats[:] = 0.0
    total = 0.0
    for row in rows:
        total += weight[row]
    if criterion == ABSOLUTE_ERROR:
        ys, ws = y[rows], weight[rows]
        return total, node_median(ys, ws), node_absolute_error(ys, ws)
    centre = 0.0
    if criterion == SQUARED_ERROR and total > 0.0:
        for row in rows:
            centre += weight[row] * y[row]
        centre /= total
    for row in rows:
        add_row(stats, y[row], weight[row], criterion, centre, 1.0)
    return total, centre, node_impurity(stats, criterion)


# --------------------------------------------------------------------------------------------
# One feature, one node: score every threshold, keep the best
# --------------------------------------------------------------------------------------------


@njit(cache=True, nogil=True, inline="always")
def add_row(stats: Float, y: float, w: float, criterion: int, centre: float, sign: float) -> None:
    """Add (``sign=1``) or remove (``sign=-1``) one row's share of a node's statistics.

    Class counts gain ``w`` in the row's class; the moments ``(w, s, q)`` gain ``w``,
    ``w (y - centre)`` and ``w (y - centre)**2``.
    """
    if criterion in (GINI, ENTROPY):
        stats[int(y)] += sign * w
    else:
        d = y - centre
        stats[0] += sign * w
        stats[1] += sign * w * d
        stats[2] += sign * w * d * d


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
    left = np.empty(node_stats.size)
    right = np.empty(node_stats.size)
    best_cost, best_i, best_missing_left = np.inf, -1, False
    for missing_left in (False, True):
        if missing_left and n_missing == 0:
            break
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
            if i < p and not x[rows[i]] > x[row] + FEATURE_THRESHOLD:
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
            if missing_left:
                cost_left[i] = cost
            else:
                cost_right[i] = cost
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
        # The order in which rows move left: the missing ones first when they go left.
        order = np.concatenate((rows[p:], rows[:p])) if missing_left else rows
        ys = y[order]
        ws = weight[order].astype(np.int64)
        left = prefix_absolute_deviation(ys, ws)
        right = prefix_absolute_deviation(ys[::-1], ws[::-1])[::-1]
        last = p if n_missing > 0 and not missing_left else p - 1
        for i in range(1, last + 1):
            if i < p and not x[rows[i]] > x[rows[i - 1]] + FEATURE_THRESHOLD:
                continue
            n_left = i + n_missing if missing_left else i
            if n_left < leaf or n - n_left < min_samples_leaf:
                continue
            cost = left[n_left] + right[n_left]
            if missing_left:
                cost_left[i] = cost
            else:
                cost_right[i] = cost
            if cost < best_cost:
                best_cost, best_i, best_missing_left = cost, i, missing_left
    return best_cost, best_i, best_missing_left


@njit(cache=True, nogil=True)
def midpoint(low: float, high: float) -> float:
    """Threshold between two consecutive distinct sorted values ``low < high``.

    The midpoint ``low/2 + high/2``; when rounding makes it equal to ``high`` (the values are
    adjacent floats) use ``low``, so that ``low <= t < high`` always holds and ``x <= t`` sends
    exactly the lower values left.
    """
    t = low / 2.0 + high / 2.0
    if t == high or not np.isfinite(t):
        return low
    return t


# --------------------------------------------------------------------------------------------
# Many nodes at once (for the figures), and the registry
# --------------------------------------------------------------------------------------------


def _row_by_row(formula: Callable[[Float], float], stats: ArrayLike) -> Float:
    """``formula`` applied to every row of ``stats`` (shape ``(..., n_stats)``), shape ``(...)``."""
    s = np.asarray(stats, dtype=np.float64)
    rows = np.ascontiguousarray(s.reshape(-1, s.shape[-1]))
    values = np.array([formula(row) for row in rows], dtype=np.float64)
    result: Float = values.reshape(s.shape[:-1])[()]
    return result


def gini(counts: ArrayLike) -> Float:
    """Gini impurity of every row of class counts, shape ``(..., n_classes)`` -> ``(...)``.

    :func:`node_gini` row by row: ``1 - sum_k c_k**2 / n**2``; 0 for an empty node.
    """
    return _row_by_row(node_gini, counts)


def entropy(counts: ArrayLike) -> Float:
    """Entropy in bits of every row of class counts, ``(..., n_classes)`` -> ``(...)``.

    :func:`node_entropy` row by row: ``-sum_k p_k log2 p_k``.
    """
    return _row_by_row(node_entropy, counts)


def squared_error_of_moments(moments: ArrayLike) -> Float:
    """Squared error of every row of moments ``(w, s, q)``, ``(..., 3)`` -> ``(...)``.

    :func:`node_squared_error` row by row: ``(q - s**2 / w) / w``.
    """
    return _row_by_row(node_squared_error, moments)


def misclassification(counts: ArrayLike) -> Float:
    """Misclassification error of class counts: ``1 - max_k p_k``, ``(..., K)`` -> ``(...)``."""
    c = np.asarray(counts, dtype=np.float64)
    total = c.sum(axis=-1)
    safe = np.where(total > 0, total, 1.0)
    return np.where(total > 0, 1.0 - c.max(axis=-1) / safe, 0.0)


#: ``criterion -> impurity`` of every row of an array of node statistics: class counts
#: (shape ``(..., n_classes)``) for classification, moments ``(w, s, q)`` for squared error.
#: Absolute error is not here: its statistic, the median, does not add up.
IMPURITY: Final[dict[str, Callable[[ArrayLike], Float]]] = {
    "gini": gini,
    "entropy": entropy,
    "log_loss": entropy,
    "squared_error": squared_error_of_moments,
}


def _weights(y: Float, sample_weight: ArrayLike | None) -> Float:
    if sample_weight is None:
        return np.ones_like(y)
    return np.asarray(sample_weight, dtype=np.float64)


def moments(y: ArrayLike, sample_weight: ArrayLike | None = None) -> Float:
    """Moments ``(w, s, q)`` of targets centred on their weighted mean, shape (3,)."""
    yy = np.asarray(y, dtype=np.float64)
    w = _weights(yy, sample_weight)
    total = w.sum()
    if total <= 0:
        return np.zeros(3)
    centred = yy - np.dot(w, yy) / total
    return np.array([total, np.dot(w, centred), np.dot(w, centred * centred)])


def squared_error(y: ArrayLike, sample_weight: ArrayLike | None = None) -> float:
    """Mean squared deviation from the (weighted) mean: ``sum_i w_i (y_i - mean)**2 / w``."""
    return float(node_squared_error(moments(y, sample_weight)))


def weighted_median(y: ArrayLike, sample_weight: ArrayLike | None = None) -> float:
    """Weighted median (:func:`node_median`); the usual median with unit weights."""
    yy = np.asarray(y, dtype=np.float64)
    return float(node_median(yy, _weights(yy, sample_weight)))


def absolute_error(y: ArrayLike, sample_weight: ArrayLike | None = None) -> float:
    """Mean absolute deviation from the weighted median (:func:`node_absolute_error`)."""
    yy = np.asarray(y, dtype=np.float64)
    return float(node_absolute_error(yy, _weights(yy, sample_weight)))


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

    Sorts the node's samples by the feature (missing values last), then runs the compiled
    :func:`score_splits` that every node of every tree runs.

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
    xv = np.asarray(x, dtype=np.float64)
    yv = np.asarray(y, dtype=np.float64)
    n = xv.size
    w = _weights(xv, sample_weight)
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
