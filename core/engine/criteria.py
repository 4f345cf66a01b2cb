"""Impurity criteria: how mixed a node is, by the formulas of the textbook.

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

The formulas that grow every tree are compiled with numba (``@njit``) and read *one node's*
statistics: :func:`node_gini` and :func:`node_entropy` its class counts,
:func:`node_squared_error` the moments of its targets, :func:`node_absolute_error` the targets
themselves. (They are compiled into the loops that call them, ``inline="always"``: a call per
candidate threshold would cost more than the formula.) :func:`add_row` moves one row's share
into a node's statistics, so a split's two sides are updated one row at a time:
:mod:`core.engine.scan` does that for every threshold of one feature.

The plain functions :func:`gini`, :func:`entropy`, :func:`squared_error_of_moments`... take
many nodes at once (one row of statistics per node) for the figures; they call the same
compiled formulas row by row.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from typing import Final, Literal

import numpy as np
from numba import njit
from numpy.typing import ArrayLike, NDArray

from core.engine.arrays import plain_array

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
# A split's two sides, one row at a time
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


# --------------------------------------------------------------------------------------------
# Many nodes at once (for the figures), and the registry
# --------------------------------------------------------------------------------------------


def _row_by_row(formula: Callable[[Float], float], stats: ArrayLike) -> Float:
    """``formula`` applied to every row of ``stats`` (shape ``(..., n_stats)``), shape ``(...)``."""
    s = np.asarray(stats, dtype=np.float64)
    rows = plain_array(s.reshape(-1, s.shape[-1]), np.float64)
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
    return plain_array(sample_weight, np.float64)


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
    yy = plain_array(y, np.float64)
    return float(node_median(yy, _weights(yy, sample_weight)))


def absolute_error(y: ArrayLike, sample_weight: ArrayLike | None = None) -> float:
    """Mean absolute deviation from the weighted median (:func:`node_absolute_error`)."""
    yy = plain_array(y, np.float64)
    return float(node_absolute_error(yy, _weights(yy, sample_weight)))
