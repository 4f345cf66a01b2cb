"""Why a node splits where it does: impurity functions, and every threshold's child impurity.

- :func:`compute_impurity_curves`: Gini, entropy (bits) and misclassification error of a
  two-class node as the share ``p`` of one class goes from 0 to 1, with a node marked on them.
- :func:`compute_split_scan`: at one node of a fitted tree, the weighted child impurity
  ``(n_L I(L) + n_R I(R)) / n`` of every valid threshold of every feature
  (:func:`core.engine.scan.scan_feature`); the tree's own split is the lowest point of all.

:mod:`core.figures.impurity_plot` draws both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from core.engine import criteria, node_splits
from core.engine.params import resolve_min_samples
from core.engine.scan import SplitScan, scan_feature
from core.figures._model import (
    FittedModel,
    FloatArray,
    as_2d,
    classes_of,
    encode_labels,
    select_tree,
    task_of,
)
from core.figures.diagram import CRITERION_LABELS

__all__ = [
    "FeatureScan",
    "ImpurityCurves",
    "SplitScanData",
    "compute_impurity_curves",
    "compute_split_scan",
    "node_proportion",
]


@dataclass(frozen=True)
class ImpurityCurves:
    """Impurity of a two-class node against the share ``p`` of one class.

    Attributes
    ----------
    p : ndarray of shape (n_points,)
        Shares from 0 to 1.
    gini, entropy, misclassification : ndarray of shape (n_points,)
        ``2p(1-p)``, ``-p log2 p - (1-p) log2 (1-p)``, ``1 - max(p, 1-p)``.
    marker_p : float or None
        Share of the marked node.
    class_name : str
        The class whose share is ``p`` (x-axis title).
    """

    p: FloatArray
    gini: FloatArray
    entropy: FloatArray
    misclassification: FloatArray
    marker_p: float | None
    class_name: str


def compute_impurity_curves(
    *, n_points: int = 201, marker_p: float | None = None, class_name: str = "class 1"
) -> ImpurityCurves:
    """Sample the three impurity functions on ``p = 0..1`` (through :mod:`core.engine.criteria`).

    Parameters
    ----------
    n_points : int, default 201
    marker_p : float, optional
        Mark a node whose share of ``class_name`` is ``marker_p`` (see :func:`node_proportion`).
    class_name : str, default "class 1"

    Returns
    -------
    ImpurityCurves
    """
    if n_points < 2:
        raise ValueError(f"n_points must be >= 2, got {n_points}")
    if marker_p is not None and not 0.0 <= marker_p <= 1.0:
        raise ValueError(f"marker_p must be in [0, 1], got {marker_p}")
    p = np.linspace(0.0, 1.0, n_points)
    counts = np.stack([1.0 - p, p], axis=-1)
    return ImpurityCurves(
        p=p,
        gini=np.asarray(criteria.gini(counts)),
        entropy=np.asarray(criteria.entropy(counts)),
        misclassification=np.asarray(criteria.misclassification(counts)),
        marker_p=marker_p,
        class_name=class_name,
    )


def node_proportion(
    model: FittedModel,
    node_id: int,
    *,
    class_index: int | None = None,
    tree_index: int | None = None,
) -> float:
    """Share of one class among a node's training samples (default: its majority class).

    With more than two classes this is the share of that class against all the others.
    """
    tree = select_tree(model, tree_index)
    if task_of(model) != "classification":
        raise ValueError("node_proportion needs a classifier")
    fractions = np.asarray(tree.tree_.value, dtype=np.float64)[node_id, 0]
    k = int(np.argmax(fractions)) if class_index is None else class_index
    if not 0 <= k < len(fractions):
        raise ValueError(f"class_index must be in [0, {len(fractions) - 1}], got {class_index}")
    return float(fractions[k] / fractions.sum())


@dataclass(frozen=True)
class FeatureScan:
    """Every valid threshold of one feature at the node, and its weighted child impurity."""

    feature: int
    name: str
    thresholds: FloatArray
    child_impurity: FloatArray
    best_threshold: float | None
    best_impurity: float | None


@dataclass(frozen=True)
class SplitScanData:
    """The split search at one node, feature by feature, and the split the tree chose.

    ``chosen_impurity`` is computed from the tree's arrays,
    ``(w_L imp_L + w_R imp_R) / w_node``; it equals the lowest ``best_impurity`` of the scans
    when every feature was a candidate (``max_features=None``).
    """

    node_id: int
    criterion: str
    impurity_name: str
    n_samples: int
    parent_impurity: float
    scans: tuple[FeatureScan, ...]
    chosen_feature: int | None
    chosen_threshold: float | None
    chosen_impurity: float | None


def compute_split_scan(
    model: FittedModel,
    X_train: ArrayLike,
    y_train: ArrayLike,
    node_id: int,
    *,
    tree_index: int | None = None,
    feature_names: Sequence[str] | None = None,
    sample_weight: ArrayLike | None = None,
) -> SplitScanData:
    """Scan every feature's thresholds at ``node_id`` with the tree's criterion.

    Parameters
    ----------
    model : fitted tree or forest of ours
    X_train, y_train : array-like
        The data the tree was fitted on; the node's samples are the rows whose decision path
        passes through it. A fractional ``min_samples_leaf`` is a share of these rows, as in
        the fit.
    node_id : int
    tree_index : int, optional
        Which tree of a forest.
    feature_names : sequence of str, optional
    sample_weight : array-like of shape (n_samples,), optional
        Integer weights the tree was fitted with (a forest tree's bootstrap counts).

    Returns
    -------
    SplitScanData
    """
    tree = select_tree(model, tree_index)
    arrays = tree.tree_
    n_nodes = len(np.asarray(arrays.children_left))
    if not 0 <= node_id < n_nodes:
        raise ValueError(f"node_id must be in [0, {n_nodes - 1}], got {node_id}")
    X = as_2d(X_train, "X_train")
    names = _feature_names(feature_names, X.shape[1])
    in_node = node_splits.node_rows(tree, X, node_id)
    weights = None if sample_weight is None else np.asarray(sample_weight)[in_node]
    target, n_classes = _node_target(model, y_train, in_node)
    _, min_leaf = resolve_min_samples(tree.min_samples_split, tree.min_samples_leaf, len(X))
    crit = tree.criterion
    scans = []
    parent = float(np.asarray(arrays.impurity)[node_id])
    for f in range(X.shape[1]):
        scan = scan_feature(
            X[in_node, f],
            target,
            criterion=crit,
            n_classes=n_classes,
            min_samples_leaf=min_leaf,
            sample_weight=weights,
        )
        parent = scan.parent_impurity
        thresholds, child_impurity = _curve(scan)
        scans.append(
            FeatureScan(
                f,
                names[f],
                thresholds,
                child_impurity,
                scan.best_threshold,
                scan.best_impurity,
            )
        )
    chosen_feature, chosen_threshold, chosen_impurity = _chosen_split(arrays, node_id)
    return SplitScanData(
        node_id=node_id,
        criterion=crit,
        impurity_name=CRITERION_LABELS.get(crit, crit),
        n_samples=int(in_node.sum()),
        parent_impurity=parent,
        scans=tuple(scans),
        chosen_feature=chosen_feature,
        chosen_threshold=chosen_threshold,
        chosen_impurity=chosen_impurity,
    )


def _feature_names(feature_names: Sequence[str] | None, n_features: int) -> list[str]:
    """One name per column of ``X_train`` (default ``x[i]``), to title each feature's panel."""
    names = (
        list(feature_names) if feature_names is not None else [f"x[{i}]" for i in range(n_features)]
    )
    if len(names) != n_features:
        raise ValueError(f"feature_names must have {n_features} names, got {len(names)}")
    return names


def _node_target(
    model: FittedModel, y_train: ArrayLike, in_node: np.ndarray
) -> tuple[FloatArray, int | None]:
    """The node's rows' targets as the scan reads them: class codes (with the number of
    classes) for a classifier, the values themselves for a regressor."""
    if task_of(model) == "classification":
        classes = classes_of(model)
        return encode_labels(classes, y_train)[in_node].astype(np.float64), len(classes)
    return np.asarray(y_train, dtype=np.float64)[in_node], None


def _chosen_split(arrays: Any, node_id: int) -> tuple[int | None, float | None, float | None]:
    """The tree's own split at the node, from its arrays: feature, threshold and weighted child
    impurity ``(w_L imp_L + w_R imp_R) / w_node``; all None at a leaf."""
    left = int(np.asarray(arrays.children_left)[node_id])
    if left == -1:
        return None, None, None
    right = int(np.asarray(arrays.children_right)[node_id])
    w = np.asarray(arrays.weighted_n_node_samples, dtype=np.float64)
    imp = np.asarray(arrays.impurity, dtype=np.float64)
    return (
        int(np.asarray(arrays.feature)[node_id]),
        float(np.asarray(arrays.threshold)[node_id]),
        float((w[left] * imp[left] + w[right] * imp[right]) / w[node_id]),
    )


def _curve(scan: SplitScan) -> tuple[FloatArray, FloatArray]:
    """One point per finite threshold: with missing values, the better of sending them left
    or right (the split "known | missing", threshold inf, has no place on the axis)."""
    finite = np.isfinite(scan.thresholds)
    thresholds, inverse = np.unique(scan.thresholds[finite], return_inverse=True)
    lowest = np.full(thresholds.size, np.inf)
    np.minimum.at(lowest, inverse, scan.child_impurity[finite])
    return thresholds, lowest
