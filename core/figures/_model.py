"""The slice of the estimator interface the figure builders read, and small helpers on it.

Our engine and scikit-learn share these names, so every builder accepts either.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np
from numpy.typing import ArrayLike, NDArray

from core.data.datasets import Task

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]


class TreeArrays(Protocol):
    """The flat arrays of a fitted tree (``model.tree_``), nodes in depth-first preorder."""

    @property
    def children_left(self) -> np.ndarray: ...
    @property
    def children_right(self) -> np.ndarray: ...
    @property
    def feature(self) -> np.ndarray: ...
    @property
    def threshold(self) -> np.ndarray: ...
    @property
    def impurity(self) -> np.ndarray: ...
    @property
    def n_node_samples(self) -> np.ndarray: ...
    @property
    def weighted_n_node_samples(self) -> np.ndarray: ...
    @property
    def value(self) -> np.ndarray: ...
    @property
    def node_count(self) -> int: ...
    @property
    def max_depth(self) -> int: ...


@runtime_checkable
class FittedTree(Protocol):
    """A fitted decision tree: ``tree_``, ``criterion`` and the row-wise queries."""

    @property
    def tree_(self) -> TreeArrays: ...
    @property
    def criterion(self) -> str: ...
    def decision_path(self, X: Any) -> Any: ...
    def apply(self, X: Any) -> np.ndarray: ...


@runtime_checkable
class FittedForest(Protocol):
    """A fitted forest of ours: its trees, and the per-tree and staged queries."""

    @property
    def estimators_(self) -> Sequence[FittedTree]: ...
    def predict_per_tree(self, X: Any) -> np.ndarray: ...
    def staged_scores(self, X: Any, y: Any) -> np.ndarray: ...


def is_forest(model: object) -> bool:
    """True when ``model`` is a fitted ensemble (it has ``estimators_``)."""
    return hasattr(model, "estimators_")


def task_of(model: object) -> Task:
    """``"classification"`` when the model has ``classes_``, else ``"regression"``."""
    return "classification" if hasattr(model, "classes_") else "regression"


def n_trees(model: object) -> int:
    """Number of trees in ``model``: ``len(estimators_)`` for a forest, 1 for a tree."""
    estimators = getattr(model, "estimators_", None)
    return 1 if estimators is None else len(estimators)


def select_tree(model: object, tree_index: int | None) -> FittedTree:
    """The tree to draw: ``model`` itself, or ``model.estimators_[tree_index]`` for a forest.

    Raises
    ------
    ValueError
        When ``tree_index`` is out of range, or given for a single tree, or missing for a forest.
    TypeError
        When the chosen object has no ``tree_``.
    """
    if is_forest(model):
        estimators = model.estimators_  # type: ignore[attr-defined]
        if tree_index is None:
            raise ValueError("tree_index is required for a forest: which tree should be drawn?")
        if not 0 <= tree_index < len(estimators):
            raise ValueError(
                f"tree_index must be in [0, {len(estimators) - 1}] for this forest, "
                f"got {tree_index}"
            )
        tree = estimators[tree_index]
    else:
        if tree_index not in (None, 0):
            raise ValueError(f"tree_index must be None (or 0) for a single tree, got {tree_index}")
        tree = model
    if not hasattr(tree, "tree_"):
        raise TypeError(
            "model must be a fitted decision tree or forest (with tree_), "
            f"got {type(tree).__name__}"
        )
    return tree


def as_2d(X: ArrayLike, name: str = "X") -> FloatArray:
    """``X`` as a 2-D float array, with a clear message when it is not one."""
    array = np.asarray(X, dtype=float)
    if array.ndim == 1:
        array = array.reshape(1, -1)
    if array.ndim != 2:
        raise ValueError(f"{name} must be 2-D (n_samples, n_features), got shape {array.shape}")
    return array


def encode_labels(classes: np.ndarray, y: ArrayLike) -> IntArray:
    """Positions of the labels ``y`` in ``classes`` (sorted, as ``classes_`` always is).

    Raises
    ------
    ValueError
        When a label is not one of ``classes``.
    """
    labels = np.asarray(y)
    codes = np.searchsorted(classes, labels)
    codes = np.clip(codes, 0, len(classes) - 1)
    if not np.array_equal(np.asarray(classes)[codes], labels):
        unknown = sorted(set(labels.tolist()) - set(np.asarray(classes).tolist()))
        raise ValueError(f"y has labels the model was not fitted on: {unknown[:5]}")
    return codes.astype(np.intp)


def r2_score(y_true: FloatArray, y_pred: FloatArray) -> float:
    """Coefficient of determination ``1 - SS_res / SS_tot``; NaN when ``y_true`` is constant."""
    residual = float(np.sum((y_true - y_pred) ** 2))
    total = float(np.sum((y_true - np.mean(y_true)) ** 2))
    return float("nan") if total == 0.0 else 1.0 - residual / total
