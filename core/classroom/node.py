"""A node's training rows as its tree's criterion reads them: what a split poll is scored on.

The same rows and class codes as the step page's "your split against the tree's"
(``core.ui.growth_panels.node_targets``), so that both give one split one score.

The module is pure: no Streamlit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from core.engine.node_splits import node_rows as rows_through

FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class NodeRows:
    """A node's training rows, as the tree's criterion reads them.

    Attributes
    ----------
    X : ndarray of shape (n_node_samples, n_features)
    y : ndarray of shape (n_node_samples,)
        Class codes ``0..n_classes-1`` (a classifier's, in ``classes_`` order) or targets.
    criterion : str
        The tree's criterion.
    n_classes : int
        The classifier's classes (0 for a regressor).
    """

    X: FloatArray
    y: NDArray[Any]
    criterion: str
    n_classes: int


def node_rows(model: Any, X_train: ArrayLike, y_train: ArrayLike, node_id: int) -> NodeRows:
    """The training rows that pass through ``node_id`` of a fitted tree, and their targets as
    its criterion counts them: what :func:`compute_poll_results` scores each answer on.

    They are the rows and codes the step page's "your split against the tree's" reads
    (``core.ui.growth_panels.node_targets``), so the two give one split one score.

    Parameters
    ----------
    model : fitted tree of ours
    X_train, y_train : array-like of shape (n_samples, n_features) and (n_samples,)
        The data the tree was fitted on (as given to ``compute_split_scan``).
    node_id : int

    Returns
    -------
    NodeRows

    Raises
    ------
    ValueError
        When ``node_id`` is not a node of the tree.
    """
    n_nodes = int(model.tree_.node_count)
    if not 0 <= node_id < n_nodes:
        raise ValueError(f"node_id must be in [0, {n_nodes - 1}], got {node_id}")
    X = np.asarray(X_train, dtype=np.float64)
    at = rows_through(model, X, node_id)
    classes = getattr(model, "classes_", None)
    y_node = np.asarray(y_train)[at]
    targets = np.searchsorted(classes, y_node) if classes is not None else y_node
    n_classes = 0 if classes is None else len(classes)
    return NodeRows(X[at], targets, str(model.criterion), n_classes)


__all__ = ["NodeRows", "node_rows"]
