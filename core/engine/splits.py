"""A split of one node's samples, scored as a student asks about it: mine, the best, the two
compared.

- :func:`sends_left`: which rows ``x[feature] <= threshold`` sends left, as the tree does;
- :func:`evaluate_split`: what ``x[feature] <= threshold`` does to the node's samples (both
  sides' counts and impurities, the gain);
- :func:`best_split`: every feature's best split, ranked by gain;
- :func:`compare_with_best`: a student's split against the best one.

Each answer comes from the node's samples and the same impurity functions and scan the
builder uses (:mod:`core.engine.criteria`, :mod:`core.engine.scan`); nothing is refitted. The
answers are numbers: the sentences a student reads are the app's (:mod:`core.app.words`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from core.engine.arrays import float32_values, threshold_as_written
from core.engine.criteria import (
    CLASSIFICATION_CRITERIA,
    absolute_error,
    entropy,
    gini,
    squared_error,
)
from core.engine.scan import scan_feature

Float = NDArray[np.float64]
Bool = NDArray[np.bool_]

__all__ = [
    "SplitComparison",
    "SplitEvaluation",
    "best_split",
    "compare_with_best",
    "evaluate_split",
    "sends_left",
]


def sends_left(values: ArrayLike, threshold: float, missing_go_to_left: bool) -> Bool:
    """Which of ``values`` go to the left child at a split, as the walks send them.

    :func:`core.engine.walk.goes_left` for a column: the values are rounded to float32 first,
    as the walks round every row (:func:`core.engine.walk.rows_to_walk`), so code that routes
    rows outside the walks (a split's two sides, a sentence about a row's path) sends each row
    where the tree sends it.

    Parameters
    ----------
    values : array-like of shape (n,) (or a single number)
        The rows' values of the node's feature; NaN is missing.
    threshold : float
    missing_go_to_left : bool

    Returns
    -------
    ndarray of shape (n,), bool
    """
    x = float32_values(values)
    return np.where(np.isnan(x), missing_go_to_left, x <= threshold)


@dataclass(frozen=True)
class SplitEvaluation:
    """What the split ``x[feature] <= threshold`` does to a node's samples.

    Attributes
    ----------
    feature : int
    threshold : float
    n_left, n_right : int
        Samples sent left and right.
    left_counts, right_counts : tuple of float
        Class counts on each side (classification); empty for regression.
    parent_impurity, left_impurity, right_impurity : float
    child_impurity : float
        :math:`(n_L I(L) + n_R I(R)) / n`.
    gain : float
        ``parent_impurity - child_impurity``; 0 when one side is empty.
    n_missing : int
        Samples whose value of the feature is missing (NaN); they are counted in ``n_left``
        or ``n_right``.
    missing_left : bool
        Where the missing values go (where they would go, when there are none).
    """

    feature: int
    threshold: float
    n_left: int
    n_right: int
    left_counts: tuple[float, ...]
    right_counts: tuple[float, ...]
    parent_impurity: float
    left_impurity: float
    right_impurity: float
    child_impurity: float
    gain: float
    n_missing: int = 0
    missing_left: bool = False

    @property
    def splits(self) -> bool:
        """Both sides get samples (otherwise this is no split at all)."""
        return self.n_left > 0 and self.n_right > 0


def _impurity(y: Float, criterion: str, n_classes: int) -> tuple[float, tuple[float, ...]]:
    """Impurity of a group of samples, and its class counts (empty for regression)."""
    if criterion in CLASSIFICATION_CRITERIA:
        counts = np.bincount(y.astype(np.int64), minlength=n_classes).astype(np.float64)
        measure = gini if criterion == "gini" else entropy
        return float(measure(counts)), tuple(float(c) for c in counts)
    if criterion == "squared_error":
        return squared_error(y), ()
    if criterion == "absolute_error":
        return absolute_error(y), ()
    raise ValueError(
        "criterion must be one of gini, entropy, log_loss, squared_error, absolute_error; "
        f"got {criterion!r}"
    )


def _node_data(X_node: ArrayLike, y_node: ArrayLike) -> tuple[Float, Float]:
    X = float32_values(X_node)  # as the trees read the features
    y = np.asarray(y_node, dtype=np.float64)
    if X.ndim != 2 or y.ndim != 1 or X.shape[0] != y.shape[0]:
        raise ValueError(
            f"X_node must be (n, n_features) and y_node (n,); got shapes {X.shape} and {y.shape}"
        )
    if X.shape[0] == 0:
        raise ValueError("the node has no samples (X_node is empty)")
    return X, y


def evaluate_split(
    X_node: ArrayLike,
    y_node: ArrayLike,
    feature: int,
    threshold: float,
    criterion: str,
    n_classes: int = 0,
    missing_left: bool | None = None,
) -> SplitEvaluation:
    """Score the split ``x[feature] <= threshold`` on a node's samples.

    A sample whose value is missing (NaN) goes left when ``missing_left`` is True, right when
    it is False; by default to the side that gives the lower child impurity (right on a tie),
    as the tree builder decides. Values are compared as float32, as a tree compares them
    (:func:`sends_left`), so a tree's own split sends the rows where the tree
    sent them.

    Parameters
    ----------
    X_node : array-like of shape (n, n_features)
    y_node : array-like of shape (n,)
        Class codes ``0..n_classes-1`` (classification) or targets (regression).
    feature : int
    threshold : float
    criterion : {"gini", "entropy", "log_loss", "squared_error", "absolute_error"}
    n_classes : int, default 0
        Number of classes (classification only).

    Returns
    -------
    SplitEvaluation
        ``child_impurity = (n_L I(L) + n_R I(R)) / n`` and ``gain = I(node) - child_impurity``.
    """
    X, y = _node_data(X_node, y_node)
    if not 0 <= feature < X.shape[1]:
        raise ValueError(f"feature must be in [0, {X.shape[1] - 1}]; got {feature}")
    if criterion in CLASSIFICATION_CRITERIA and n_classes < int(y.max()) + 1:
        raise ValueError(f"n_classes must be > every class code in y_node; got {n_classes}")
    values = X[:, feature]
    missing = np.isnan(values)
    if missing_left is None:
        if missing.any():
            options = [
                evaluate_split(X, y, feature, threshold, criterion, n_classes, side)
                for side in (False, True)
            ]
            return min(options, key=lambda s: s.child_impurity)  # the first (right) on a tie
        n_present_left = int(np.count_nonzero(sends_left(values, threshold, False)))
        missing_left = n_present_left > y.size - n_present_left  # the bigger side
    go_left = sends_left(values, threshold, missing_left)  # where the tree would send them
    n, n_left = y.size, int(go_left.sum())
    parent, _ = _impurity(y, criterion, n_classes)
    left, left_counts = _impurity(y[go_left], criterion, n_classes)
    right, right_counts = _impurity(y[~go_left], criterion, n_classes)
    children = (n_left * left + (n - n_left) * right) / n
    if n_left in (0, n):
        children = parent  # everything on one side: the node is unchanged
    return SplitEvaluation(
        feature=int(feature),
        threshold=float(threshold),
        n_left=n_left,
        n_right=n - n_left,
        left_counts=left_counts,
        right_counts=right_counts,
        parent_impurity=parent,
        left_impurity=left,
        right_impurity=right,
        child_impurity=children,
        gain=parent - children,
        n_missing=int(np.count_nonzero(missing)),
        missing_left=bool(missing_left),
    )


def best_split(
    X_node: ArrayLike,
    y_node: ArrayLike,
    criterion: str,
    n_classes: int = 0,
    *,
    min_samples_leaf: int = 1,
    features: ArrayLike | None = None,
) -> list[SplitEvaluation]:
    """The best split of each feature on a node's samples, best first.

    Each feature's best threshold comes from :func:`core.engine.scan.scan_feature` (the
    lowest threshold among equals); features that cannot split the node are left out. Sorted by
    gain, largest first, then by feature index (the builder's tie rule).

    Parameters
    ----------
    X_node, y_node, criterion, n_classes
        As in :func:`evaluate_split`.
    min_samples_leaf : int, default 1
        Thresholds leaving fewer samples on a side are not candidates.
    features : array-like of int, optional
        Features to scan; default all.

    Returns
    -------
    list of SplitEvaluation
        Empty when no feature has a valid threshold.
    """
    X, y = _node_data(X_node, y_node)
    chosen = range(X.shape[1]) if features is None else np.asarray(features).tolist()
    found = []
    for f in chosen:
        scan = scan_feature(
            X[:, f],
            y,
            criterion=criterion,  # type: ignore[arg-type]
            n_classes=n_classes or None,
            min_samples_leaf=min_samples_leaf,
        )
        if scan.best_threshold is not None:
            found.append(
                evaluate_split(
                    X, y, int(f), scan.best_threshold, criterion, n_classes,
                    scan.best_missing_left,
                )
            )  # fmt: skip
    # Sorting on the scan's own child impurity would equal sorting on gain; rounding in the two
    # sums can differ, so rank on the gain shown to the student.
    return sorted(found, key=lambda s: (-s.gain, s.feature))


@dataclass(frozen=True)
class SplitComparison:
    """A student's split against the best split of the node.

    Attributes
    ----------
    yours : SplitEvaluation
    best : SplitEvaluation or None
        Best split over all features (None when nothing can split the node).
    gain_difference : float or None
        ``best.gain - yours.gain``: how much more the best split gains (None without ``best``).
    found_best : bool
        ``yours`` gains as much as ``best``, up to rounding (``1e-12`` relative to the node's
        impurity): the student found *a* best split, maybe another feature's or threshold's.
    """

    yours: SplitEvaluation
    best: SplitEvaluation | None
    gain_difference: float | None
    found_best: bool


def compare_with_best(
    X_node: ArrayLike,
    y_node: ArrayLike,
    feature: int,
    threshold: float,
    criterion: str,
    n_classes: int = 0,
    *,
    min_samples_leaf: int = 1,
) -> SplitComparison:
    """Score a student's split and the best split of the same samples (see :func:`best_split`).

    Works at any node, the root of a two-feature data set being the "beat the tree" game. The
    student's threshold is read as written (:func:`core.engine.arrays.threshold_as_written`):
    "petal width ≤ 1.7" keeps the flowers of 1.7 on the left.
    """
    yours = evaluate_split(
        X_node, y_node, feature, threshold_as_written(threshold), criterion, n_classes
    )
    ranked = best_split(X_node, y_node, criterion, n_classes, min_samples_leaf=min_samples_leaf)
    if not ranked:
        return SplitComparison(yours=yours, best=None, gain_difference=None, found_best=False)
    best = ranked[0]
    # Two equally good splits can differ in the last bits of their sums: a tie is a tie.
    tolerance = 1e-12 * max(1.0, best.parent_impurity)
    return SplitComparison(
        yours=yours,
        best=best,
        gain_difference=best.gain - yours.gain,
        found_best=yours.gain >= best.gain - tolerance,
    )
