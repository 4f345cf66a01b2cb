"""A reference tree grown with scikit-learn as the split oracle and our tie rule on top.

scikit-learn breaks ties between equally good splits by its random feature order, so its
trees cannot be compared node for node with ours wherever a tie arises. Here each node asks
scikit-learn for the best split of every feature alone (a depth-1 tree on one column, whose
scan keeps the lowest of equal thresholds) and keeps the lowest feature among those whose
weighted child impurity is exactly the best one. Every other choice is scikit-learn's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from sklearn.tree import DecisionTreeClassifier as SkTreeClassifier
from sklearn.tree import DecisionTreeRegressor as SkTreeRegressor

CLASSIFICATION_CRITERIA = ("gini", "entropy", "log_loss")
STRUCTURE = ("children_left", "children_right", "feature", "threshold", "n_node_samples")
# Two splits of a node whose weighted child impurities differ by less than this, relative to
# the node's impurity, are equally good up to rounding: the sums behind them were added in
# different orders. Which one wins then depends on the implementation's arithmetic.
ROUNDING_TIE_RTOL = 1e-10


def is_classification(criterion: str) -> bool:
    return criterion in CLASSIFICATION_CRITERIA


def sklearn_tree(criterion: str, **params: Any) -> Any:
    estimator = SkTreeClassifier if is_classification(criterion) else SkTreeRegressor
    return estimator(criterion=criterion, **params)


def child_impurity(tree: Any, node: int) -> float:
    """(n_left * impurity_left + n_right * impurity_right) / n at an internal node."""
    left, right = tree.children_left[node], tree.children_right[node]
    n = tree.weighted_n_node_samples
    return (n[left] * tree.impurity[left] + n[right] * tree.impurity[right]) / n[node]


def node_statistics(criterion: str, y: np.ndarray, classes: np.ndarray) -> tuple[Any, float]:
    """A node's value and impurity, from the formulas.

    Gini 1 - sum p_k^2 and entropy -sum p_k log2 p_k, with value the class fractions p;
    squared error mean (y - mean)^2 with value the mean; absolute error mean |y - median|
    with value the median.
    """
    if is_classification(criterion):
        p = (y[:, None] == classes[None, :]).mean(axis=0)
        # Summed in sorted order, so class counts that are a permutation of each other give
        # the same float.
        ordered = np.sort(p[p > 0])
        if criterion == "gini":
            return p, 1.0 - np.sum(ordered**2)
        return p, -np.sum(ordered * np.log2(ordered))
    if criterion == "squared_error":
        return np.mean(y), np.mean((y - np.mean(y)) ** 2)
    return np.median(y), np.mean(np.abs(y - np.median(y)))


@dataclass
class ReferenceTree:
    """Flat preorder arrays like ``tree_``, and the nodes where the followed model was kept."""

    arrays: dict[str, np.ndarray]
    classes: np.ndarray | None
    followed: list[int] = field(default_factory=list)

    @property
    def node_count(self) -> int:
        return len(self.arrays["feature"])

    def predict(self, X: np.ndarray) -> np.ndarray:
        left, right = self.arrays["children_left"], self.arrays["children_right"]
        node = np.zeros(len(X), dtype=int)
        inner = left[node] != -1
        while inner.any():
            at = node[inner]
            goes_left = X[inner, self.arrays["feature"][at]] <= self.arrays["threshold"][at]
            node[inner] = np.where(goes_left, left[at], right[at])
            inner = left[node] != -1
        value = self.arrays["value"][node]
        return value if self.classes is None else self.classes[np.argmax(value, axis=1)]


def reference_build(
    X: np.ndarray,
    y: np.ndarray,
    criterion: str,
    max_depth: int | None,
    min_samples_leaf: int,
    follow: Any = None,
) -> ReferenceTree:
    """Grow the reference tree on (X, y).

    ``follow``, a fitted tree, is taken where it picked a different split that is equally good
    up to rounding and cuts the node's samples differently (see ROUNDING_TIE_RTOL); the
    reference then grows on along its choice, so one rounding tie does not shift every later
    node. It is not taken where the two splits tie exactly (the same cut, or the same score
    by our formulas) and its split is the higher one: there our tie rule decides.
    """
    classes = np.unique(y) if is_classification(criterion) else None
    arrays: dict[str, list] = {key: [] for key in (*STRUCTURE, "value", "impurity")}
    followed: list[int] = []
    theirs = None if follow is None else follow.tree_

    def best_split(rows: np.ndarray) -> tuple[float, int, float] | None:
        best: tuple[float, int, float] | None = None
        for feature in range(X.shape[1]):
            stump = sklearn_tree(criterion, max_depth=1, min_samples_leaf=min_samples_leaf)
            stump.fit(X[rows][:, [feature]], y[rows])
            if stump.tree_.node_count == 1:
                continue
            score = child_impurity(stump.tree_, 0)
            if best is None or score < best[0]:
                best = (score, feature, float(stump.tree_.threshold[0]))
        return best

    def split_score(rows: np.ndarray, feature: int, threshold: float) -> float:
        goes_left = X[rows, feature] <= threshold
        parts = [rows[goes_left], rows[~goes_left]]
        return sum(len(p) * node_statistics(criterion, y[p], classes)[1] for p in parts) / len(rows)

    def grow(rows: np.ndarray, depth: int, their_node: int) -> int:
        node = len(arrays["feature"])
        value, impurity = node_statistics(criterion, y[rows], classes)
        for key, entry in zip(
            (*STRUCTURE, "value", "impurity"),
            (-1, -1, -2, -2.0, len(rows), value, impurity),
            strict=True,
        ):
            arrays[key].append(entry)
        can_split = (max_depth is None or depth < max_depth) and np.unique(y[rows]).size > 1
        best = best_split(rows) if can_split else None
        if best is None:
            return node
        _, feature, threshold = best
        their_feature = -2 if their_node < 0 else theirs.feature[their_node]
        follows = their_node >= 0 and (feature, threshold) == (
            their_feature,
            theirs.threshold[their_node],
        )
        if their_feature >= 0 and not follows:
            their_threshold = float(theirs.threshold[their_node])
            same_cut = np.array_equal(
                X[rows, feature] <= threshold, X[rows, their_feature] <= their_threshold
            )
            their_left = np.count_nonzero(X[rows, their_feature] <= their_threshold)
            valid = min(their_left, len(rows) - their_left) >= min_samples_leaf
            # Both scores by the same formulas: equal class counts give equal floats, so an
            # exact tie stays exact and our rule must pick the lower split.
            score = split_score(rows, feature, threshold)
            their_score = split_score(rows, their_feature, their_threshold)
            close = abs(their_score - score) <= ROUNDING_TIE_RTOL * impurity
            lower = (their_feature, their_threshold) < (feature, threshold)
            if valid and close and not same_cut and (their_score != score or lower):
                feature, threshold, follows = their_feature, their_threshold, True
                followed.append(node)
        goes_left = X[rows, feature] <= threshold
        arrays["feature"][node], arrays["threshold"][node] = feature, threshold
        left = theirs.children_left[their_node] if follows else -1
        right = theirs.children_right[their_node] if follows else -1
        arrays["children_left"][node] = grow(rows[goes_left], depth + 1, left)
        arrays["children_right"][node] = grow(rows[~goes_left], depth + 1, right)
        return node

    grow(np.arange(len(y)), 0, -1 if theirs is None else 0)
    return ReferenceTree({k: np.array(v) for k, v in arrays.items()}, classes, followed)
