"""Shared fixtures: a hand-made tree with hand-checkable numbers, and small fitted models."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from scipy import sparse
from sklearn.datasets import load_breast_cancer, load_iris

from core.engine.structure import Tree


class HandTree:
    """A fitted-tree stand-in built from hand-written arrays (our engine's interface).

    Five samples, two features, two classes::

        X = [[1, 0], [2, 1], [3, 0], [4, 0], [5, 1]],  y = [0, 0, 1, 1, 0]

        node 0: x0 <= 2.5, counts [3, 2], gini 1 - (0.6^2 + 0.4^2) = 0.48
          node 1: leaf, counts [2, 0], gini 0
          node 2: x1 <= 0.5, counts [1, 2], gini 1 - (1/9 + 4/9) = 4/9
            node 3: leaf, counts [0, 2], gini 0
            node 4: leaf, counts [1, 0], gini 0
    """

    X = np.array([[1.0, 0.0], [2.0, 1.0], [3.0, 0.0], [4.0, 0.0], [5.0, 1.0]])
    y = np.array([0, 0, 1, 1, 0])

    def __init__(self) -> None:
        counts = np.array([[3, 2], [2, 0], [1, 2], [0, 2], [1, 0]], dtype=float)
        samples = counts.sum(axis=1)
        self.tree_ = Tree(
            children_left=np.array([1, -1, 3, -1, -1]),
            children_right=np.array([2, -1, 4, -1, -1]),
            feature=np.array([0, -2, 1, -2, -2]),
            threshold=np.array([2.5, -2.0, 0.5, -2.0, -2.0]),
            impurity=np.array([0.48, 0.0, 4.0 / 9.0, 0.0, 0.0]),
            n_node_samples=samples.astype(np.int64),
            weighted_n_node_samples=samples,
            value=(counts / samples[:, None])[:, None, :],
            n_features=2,
        )
        self.criterion = "gini"
        self.classes_ = np.array([0, 1])
        self.n_features_in_ = 2

    def _path(self, row: np.ndarray) -> list[int]:
        t = self.tree_
        node, path = 0, [0]
        while t.children_left[node] != -1:
            go_left = row[t.feature[node]] <= t.threshold[node]
            node = int(t.children_left[node] if go_left else t.children_right[node])
            path.append(node)
        return path

    def decision_path(self, X: Any) -> sparse.csr_matrix:
        rows = np.atleast_2d(np.asarray(X, dtype=float))
        indicator = np.zeros((len(rows), self.tree_.node_count))
        for i, row in enumerate(rows):
            indicator[i, self._path(row)] = 1
        return sparse.csr_matrix(indicator)

    def apply(self, X: Any) -> np.ndarray:
        rows = np.atleast_2d(np.asarray(X, dtype=float))
        return np.array([self._path(row)[-1] for row in rows])

    def predict_proba(self, X: Any) -> np.ndarray:
        return self.tree_.value[self.apply(X), 0, :]

    def predict(self, X: Any) -> np.ndarray:
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]


@pytest.fixture
def hand_tree() -> HandTree:
    return HandTree()


@pytest.fixture(scope="session")
def iris() -> Any:
    return load_iris()


@pytest.fixture(scope="session")
def breast_cancer() -> Any:
    return load_breast_cancer()
