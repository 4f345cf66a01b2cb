"""A single tree grows on a table (core.engine.grid): the same trees as the general layout.

The table path and the block path (core.engine.blocks) run the same steps on two layouts.
Classification counts are whole numbers, so both score every candidate bit for bit alike and
grow the very same tree. Regression moments are floats summed in another order, so where two
candidates tie only up to rounding the two paths may pick differently; there the test is the
textbook's: every split the table path makes is the best ``scan_feature`` finds.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from core import DecisionTreeClassifier, DecisionTreeRegressor, RandomForestRegressor
from core.engine import builder, criteria, grid
from core.engine.samples import GrowthParams, prepare_samples
from core.engine.structure import TREE_ARRAYS, Tree

FIELDS = (*TREE_ARRAYS, "node_depth")


def by_table(X: np.ndarray, y: np.ndarray, params: GrowthParams) -> Tree:
    samples = prepare_samples(X, y, np.ones((1, X.shape[0]), dtype=np.int64))
    assert grid.fits_table(samples, params)
    return grid.grow_table(samples, params)


def by_blocks(
    X: np.ndarray, y: np.ndarray, params: GrowthParams, monkeypatch: pytest.MonkeyPatch
) -> Tree:
    with monkeypatch.context() as patch:
        patch.setattr(builder, "fits_table", lambda *_: False)
        weights = np.ones((1, X.shape[0]), dtype=np.int64)
        return builder.grow_together(X, y, weights, params, [np.random.default_rng(0)])[0]


def random_problems(criteria_: tuple[str, ...], count: int) -> Iterator[tuple]:
    """Small random problems: ties (few distinct values) on every other one, and settings."""
    rng = np.random.default_rng(7)
    for trial in range(count):
        n, d = int(rng.integers(2, 250)), int(rng.integers(1, 7))
        if trial % 2:
            X = rng.integers(0, 5, size=(n, d)).astype(np.float64)
        else:
            X = rng.normal(size=(n, d))
        criterion = criteria_[trial % len(criteria_)]
        if criterion == "squared_error":
            y, k = rng.normal(size=n), 0
        else:
            y = rng.integers(0, int(rng.integers(2, 5)), size=n)
            k = int(y.max()) + 1
        params = GrowthParams(
            criterion=criterion,  # type: ignore[arg-type]
            n_classes=k,
            max_depth=int(rng.choice([1, 3, 2**31 - 1])),
            min_samples_split=int(rng.choice([2, 6])),
            min_samples_leaf=int(rng.choice([1, 3])),
            min_impurity_decrease=float(rng.choice([0.0, 0.0, 0.02])),
            max_features=d,
        )
        yield trial, X, y, params


@pytest.mark.parametrize(
    ("trial", "X", "y", "params"), list(random_problems(("gini", "entropy"), 40))
)
def test_classification_table_grows_the_block_layouts_tree_bit_for_bit(
    trial: int, X: np.ndarray, y: np.ndarray, params: GrowthParams, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, blocks = by_table(X, y, params), by_blocks(X, y, params, monkeypatch)
    for field in FIELDS:
        assert_array_equal(getattr(table, field), getattr(blocks, field), err_msg=field)


def node_rows(tree: Tree, X: np.ndarray) -> list[np.ndarray]:
    """The training rows reaching each node (preorder: a parent is listed before its children)."""
    rows = [np.arange(X.shape[0])] + [np.zeros(0, dtype=np.int64)] * (tree.node_count - 1)
    for node in range(tree.node_count):
        left, right = tree.children_left[node], tree.children_right[node]
        if left != -1:
            goes_left = X[rows[node], tree.feature[node]] <= tree.threshold[node]
            rows[left], rows[right] = rows[node][goes_left], rows[node][~goes_left]
    return rows


@pytest.mark.parametrize(
    ("trial", "X", "y", "params"), list(random_problems(("squared_error",), 30))
)
def test_every_regression_split_is_the_best_scan_feature_finds(
    trial: int, X: np.ndarray, y: np.ndarray, params: GrowthParams
) -> None:
    tree = by_table(X, y, params)
    for node, rows in enumerate(node_rows(tree, X)):
        assert tree.n_node_samples[node] == rows.size
        scans = [
            criteria.scan_feature(
                X[rows, f], y[rows], criterion="squared_error",
                min_samples_leaf=params.min_samples_leaf,
            )
            for f in range(X.shape[1])
        ]  # fmt: skip
        found = [s.child_impurity[s.best] for s in scans if s.best >= 0]
        left = tree.children_left[node]
        if left == -1:
            continue
        right = tree.children_right[node]
        chosen = (
            tree.weighted_n_node_samples[left] * tree.impurity[left]
            + tree.weighted_n_node_samples[right] * tree.impurity[right]
        ) / rows.size
        assert found, f"node {node} split where no split is valid"
        assert_allclose(chosen, min(found), rtol=1e-9, atol=1e-12, err_msg=f"node {node}")


def test_regression_table_and_blocks_agree_where_scores_do_not_tie(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # One feature: the table's single row is laid out exactly as the blocks are, so even the
    # floats are summed in the same order.
    rng = np.random.default_rng(3)
    X, y = rng.uniform(0, 6, size=(300, 1)), rng.normal(size=300)
    params = GrowthParams("squared_error", 0, 2**31 - 1, 2, 1, 0.0, 1)
    table, blocks = by_table(X, y, params), by_blocks(X, y, params, monkeypatch)
    for field in FIELDS:
        assert_array_equal(getattr(table, field), getattr(blocks, field), err_msg=field)


def test_the_estimators_grow_single_trees_on_the_table_and_forests_on_blocks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[int] = []
    real = grid.grow_table

    def counted(*args: object, **kwargs: object) -> Tree:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builder, "grow_table", counted)
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(60, 3)), rng.integers(0, 2, size=60)
    DecisionTreeClassifier(random_state=0).fit(X, y)
    DecisionTreeRegressor(random_state=0).fit(X, y.astype(float))
    assert len(calls) == 2
    # The block layout: drawn features, absolute error, missing values, bootstrap weights.
    DecisionTreeClassifier(max_features=1, random_state=0).fit(X, y)
    DecisionTreeRegressor(criterion="absolute_error").fit(X, y.astype(float))
    with_gap = X.copy()
    with_gap[0, 0] = np.nan
    DecisionTreeClassifier().fit(with_gap, y)
    RandomForestRegressor(3, random_state=0).fit(X, y.astype(float))
    assert len(calls) == 2


def test_progress_reports_settled_rows_and_ends_at_one() -> None:
    rng = np.random.default_rng(1)
    X, y = rng.normal(size=(200, 3)), rng.integers(0, 3, size=200)
    seen: list[float] = []
    DecisionTreeClassifier(random_state=0).fit(X, y, progress=seen.append)
    assert seen[-1] == 1.0
    assert len(seen) >= 3
    assert all(0.0 <= a <= b <= 1.0 for a, b in pairwise(seen))
