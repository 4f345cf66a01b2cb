"""core.engine.predict: grouping rows into cells gives exactly what walking every row gives."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_array_equal

from core import RandomForestClassifier, RandomForestRegressor
from core.engine.predict import StackedTrees


def plain_values(stack_trees: list, X: np.ndarray) -> np.ndarray:
    """Every tree walked row by row on its own (structure.Tree.predict), no grouping."""
    return np.stack([tree.predict(X) for tree in stack_trees])


def grid(X: np.ndarray, n: int) -> np.ndarray:
    axes = [np.linspace(col.min() - 1, col.max() + 1, n) for col in X.T]
    return np.stack([a.ravel() for a in np.meshgrid(*axes)], axis=1)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("n_features", [1, 2, 3])
def test_cells_equal_a_plain_walk(seed: int, n_features: int) -> None:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(150, n_features))
    y = (X.sum(axis=1) + rng.normal(scale=0.5, size=150) > 0).astype(int) + (X[:, 0] > 1)
    forest = RandomForestClassifier(15, max_depth=int(rng.integers(2, 9)), random_state=seed)
    forest.fit(X, y)
    trees = [e.tree_ for e in forest.estimators_]
    stack = StackedTrees(trees)
    side = {1: 4000, 2: 70, 3: 18}[n_features]
    for rows in (grid(X, side), rng.normal(scale=2.0, size=(3000, n_features))):
        grouped = stack.cells(rows)
        if rows.shape[0] == side**n_features:
            assert grouped is not None  # a grid does fall into fewer cells than rows
        if grouped is not None:
            first, inverse = grouped
            # Rows sharing a cell reach the same leaf of every tree.
            leaves = stack.leaves(rows)
            assert_array_equal(leaves, leaves[:, first][:, inverse])
        expected = plain_values(trees, rows)
        assert_array_equal(stack.values(rows), expected)
        assert_array_equal(forest.predict_proba(rows), expected.sum(axis=0) / len(trees))


def test_cells_equal_a_plain_walk_for_regression() -> None:
    rng = np.random.default_rng(7)
    X = rng.uniform(0, 10, size=(200, 2))
    y = np.sin(X[:, 0]) + X[:, 1] ** 2
    forest = RandomForestRegressor(10, max_depth=4, random_state=0).fit(X, y)
    trees = [e.tree_ for e in forest.estimators_]
    rows = grid(X, 200)
    assert StackedTrees(trees).cells(rows) is not None
    assert_array_equal(StackedTrees(trees).values(rows), plain_values(trees, rows))


def test_rows_on_a_threshold_go_left_in_cells_too() -> None:
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    forest = RandomForestClassifier(5, bootstrap=False, random_state=0).fit(X, [0, 0, 1, 1])
    trees = [e.tree_ for e in forest.estimators_]
    rows = np.repeat(np.array([[1.5], [1.5 + 1e-12], [1.0], [2.0]]), 100, axis=0)
    assert StackedTrees(trees).cells(rows) is not None
    assert_array_equal(StackedTrees(trees).values(rows), plain_values(trees, rows))
