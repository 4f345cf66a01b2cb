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


def with_missing(X: np.ndarray, rng: np.random.Generator, share: float) -> np.ndarray:
    """A copy of ``X`` with about ``share`` of its entries replaced by NaN."""
    return np.where(rng.random(X.shape) < share, np.nan, X)


@pytest.mark.parametrize("chunk_pairs", [1, 7, 64, 1 << 17])
@pytest.mark.parametrize("n_trees", [1, 4, 13])
def test_walking_every_row_equals_a_plain_walk(
    chunk_pairs: int, n_trees: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Arbitrary rows with missing values, cut into row blocks of every size (some uneven)."""
    rng = np.random.default_rng(n_trees)
    X = with_missing(rng.normal(size=(300, 5)), rng, 0.1)
    y = (np.nan_to_num(X[:, 0]) + rng.normal(scale=0.5, size=300) > 0).astype(int)
    y += np.isnan(X[:, 1])  # missing values matter: trees learn where they go
    forest = RandomForestClassifier(n_trees, random_state=0).fit(X, y)
    trees = [e.tree_ for e in forest.estimators_]
    stack = StackedTrees(trees)
    rows = with_missing(rng.normal(scale=2.0, size=(211, 5)), rng, 0.2)
    monkeypatch.setattr("core.engine.predict.CHUNK_PAIRS", chunk_pairs)
    assert stack.cells(rows) is None  # every row walked on its own
    expected = plain_values(trees, rows)
    assert_array_equal(stack.leaves(rows), np.stack([tree.apply(rows) for tree in trees]))
    assert_array_equal(stack.values(rows), expected)
    total = np.zeros(expected.shape[1:])
    for per_tree in expected:  # tree after tree, in order, as the docstring promises
        total += per_tree
    assert stack.mean_values(rows).tobytes() == (total / n_trees).tobytes()


@pytest.mark.parametrize("regression", [False, True])
def test_grouped_and_ungrouped_walks_agree_bit_for_bit(
    regression: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A grid with missing values, once grouped into cells and once with every row walked."""
    rng = np.random.default_rng(3)
    X = with_missing(rng.normal(size=(250, 2)), rng, 0.05)
    target = np.nan_to_num(X[:, 0]) * 2 - np.nan_to_num(X[:, 1], nan=3.0)
    if regression:
        model: RandomForestClassifier | RandomForestRegressor = RandomForestRegressor(
            12, random_state=1
        ).fit(X, target)
    else:
        model = RandomForestClassifier(12, random_state=1).fit(X, np.digitize(target, [-1, 1]))
    stack = StackedTrees([e.tree_ for e in model.estimators_])
    rows = with_missing(grid(np.nan_to_num(X), 60), rng, 0.1)
    assert stack.cells(rows) is not None
    grouped = (stack.values(rows), stack.mean_values(rows))
    monkeypatch.setattr(StackedTrees, "cells", lambda self, X: None)
    ungrouped = (stack.values(rows), stack.mean_values(rows))
    assert_array_equal(grouped[0], ungrouped[0])
    assert grouped[1].tobytes() == ungrouped[1].tobytes()
    assert_array_equal(ungrouped[0], plain_values([e.tree_ for e in model.estimators_], rows))
