"""A node's rows, without sorting them again: sort once, then partition.

The growing loop (:mod:`core.engine.grow`) sorts the training rows along every feature once
(:func:`sort_rows`; a forest sorts once for all its trees, and each tree keeps the rows it
drew: :func:`rows_in_bag`). A node is then a range ``start:end`` of every feature's sorted
list: the node's rows, in that feature's order. Cutting a node moves each list's range into a
left part and a right part, each still sorted (:func:`partition`), so nothing is ever sorted
again.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

Float = NDArray[np.float64]
Int = NDArray[np.int64]


def sort_rows(X_by_feature: Float) -> Int:
    """Every feature's rows in increasing order of value, shape ``(n_features, n_samples)``.

    ``X_by_feature`` is the data one feature per row, ``(n_features, n_samples)``. Missing
    values (NaN) sort last. Equal values may come in any order: no threshold goes between
    them, so their order changes no split (NumPy's default sort is several times faster
    than its stable one).
    """
    return np.argsort(X_by_feature, axis=1)


@njit(cache=True, nogil=True)
def rows_in_bag(sorted_rows: Int, weight: Float) -> Int:
    """The rows with a positive weight, in each feature's sorted order, ``(n_features, m)``."""
    d, n = sorted_rows.shape
    m = 0
    for row in range(n):
        if weight[row] > 0.0:
            m += 1
    kept = np.empty(d * m + 1, dtype=np.int64)  # feature f's rows at f*m .. f*m + m - 1
    for f in range(d):
        k = f * m
        for row in sorted_rows[f]:
            # Every row is written, and only one with weight counted, so the next row
            # overwrites one without: no "if" to mispredict (a bootstrap's rows are random).
            # The last write may land on the next feature's first slot (or the spare one).
            kept[k] = row
            k += weight[row] > 0.0
    return kept[: d * m].reshape(d, m)


@njit(cache=True, nogil=True)
def partition(rows: Int, goes_left: NDArray[np.bool_], right_rows: Int) -> None:
    """Move ``rows`` into those that go left, then those that go right, each in its order.

    A stable partition, in place: a node's sorted rows become its two children's sorted rows,
    so nothing is ever sorted again. ``right_rows`` is room for the right side, at least
    ``rows.size`` long.
    """
    n_left, n_right = 0, 0
    for row in rows:
        # Written to both sides and counted on its own: an "if" here would be mispredicted
        # half the time, and this loop is a forest's largest cost.
        rows[n_left] = row  # (slot n_left was read already: n_left never passes the loop)
        right_rows[n_right] = row
        n_left += goes_left[row]
        n_right += not goes_left[row]
    rows[n_left:] = right_rows[:n_right]
