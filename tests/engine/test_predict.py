"""core.engine.walk and core.engine.predict: the compiled walks against a walk written here.

The reference below is the textbook loop in plain Python, sharing no code with the engine, so a
mistake in the compiled walk (a ``<`` for a ``<=``, a NaN sent the wrong way, a tree's nodes read
at the wrong offset, a value not read as float32 as scikit-learn reads it) shows as a difference.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from numpy.testing import assert_array_equal

from core import RandomForestClassifier, RandomForestRegressor
from core.engine.predict import StackedTrees
from core.engine.structure import Tree


def reference_path(tree: Tree, x: np.ndarray) -> list[int]:
    """Nodes one row passes through, root first, walked in plain Python.

    The row's value is read as float32 and compared with the float64 threshold, as in
    scikit-learn's ``Tree.apply`` (``X_i_node_feature <= node.threshold``, X float32).
    """
    node, path = 0, [0]
    while tree.children_left[node] != -1:
        value = float(np.float32(x[tree.feature[node]]))
        if np.isnan(value):
            left = bool(tree.missing_go_to_left[node])
        else:
            left = bool(value <= tree.threshold[node])
        node = int(tree.children_left[node] if left else tree.children_right[node])
        path.append(node)
    return path


def reference_leaves(tree: Tree, X: np.ndarray) -> np.ndarray:
    return np.array([reference_path(tree, x)[-1] for x in X], dtype=np.int64)


def with_missing(X: np.ndarray, rng: np.random.Generator, share: float) -> np.ndarray:
    """A copy of ``X`` with about ``share`` of its entries replaced by NaN."""
    return np.where(rng.random(X.shape) < share, np.nan, X)


def on_thresholds(trees: list[Tree], n_rows: int, rng: np.random.Generator) -> np.ndarray:
    """Rows whose every value is one of the trees' thresholds for that feature."""
    n_features = trees[0].n_features
    X = np.empty((n_rows, n_features))
    for f in range(n_features):
        cuts = np.concatenate(
            [t.threshold[(t.feature == f) & (t.children_left != -1)] for t in trees]
        )
        X[:, f] = rng.choice(cuts, size=n_rows) if cuts.size else 0.0
    return X


def fitted_forest(regression: bool, n_trees: int, seed: int) -> tuple[list[Tree], np.ndarray]:
    """A forest grown on data with missing values (so both NaN directions occur) and new rows."""
    rng = np.random.default_rng(seed)
    X = with_missing(rng.normal(size=(300, 4)), rng, 0.1)
    signal = np.nan_to_num(X[:, 0]) - np.nan_to_num(X[:, 1], nan=2.0) + rng.normal(size=300)
    model: RandomForestClassifier | RandomForestRegressor
    if regression:
        model = RandomForestRegressor(n_trees, random_state=seed).fit(X, signal)
    else:
        model = RandomForestClassifier(n_trees, random_state=seed).fit(
            X, np.digitize(signal, [-1, 1])
        )
    trees = [e.tree_ for e in model.estimators_]
    rows = np.concatenate(
        [
            with_missing(rng.normal(scale=2.0, size=(200, 4)), rng, 0.2),
            on_thresholds(trees, 200, rng),
            with_missing(on_thresholds(trees, 100, rng), rng, 0.3),
        ]
    )
    return trees, rows


@pytest.mark.parametrize("regression", [False, True], ids=["classifier", "regressor"])
@pytest.mark.parametrize("n_trees", [1, 4, 13])
def test_forest_walk_equals_each_trees_walk(regression: bool, n_trees: int) -> None:
    trees, rows = fitted_forest(regression, n_trees, seed=n_trees)
    inner = np.concatenate([t.missing_go_to_left[t.children_left != -1] for t in trees])
    assert inner.any() and not inner.all()  # missing values go both ways somewhere
    expected = np.stack([reference_leaves(tree, rows) for tree in trees])
    stack = StackedTrees(trees)
    assert_array_equal(stack.leaves(rows), expected)
    assert_array_equal(np.stack([tree.apply(rows) for tree in trees]), expected)
    values = np.stack(
        [tree.value[leaves, 0, :] for tree, leaves in zip(trees, expected, strict=True)]
    )
    assert_array_equal(stack.values(rows), values)
    assert_array_equal(np.stack([tree.predict(rows) for tree in trees]), values)


@pytest.mark.parametrize("regression", [False, True], ids=["classifier", "regressor"])
def test_mean_adds_the_trees_in_order_then_divides(regression: bool) -> None:
    trees, rows = fitted_forest(regression, n_trees=9, seed=5)
    total = np.zeros((rows.shape[0], trees[0].value.shape[2]))
    for tree in trees:
        total += tree.predict(rows)
    assert StackedTrees(trees).mean_values(rows).tobytes() == (total / len(trees)).tobytes()


def leaf(value: float) -> Tree:
    """A tree that is a single leaf predicting ``value``."""
    return Tree(
        children_left=np.array([-1]),
        children_right=np.array([-1]),
        feature=np.array([-2]),
        threshold=np.array([-2.0]),
        impurity=np.array([0.0]),
        n_node_samples=np.array([1]),
        weighted_n_node_samples=np.array([1.0]),
        value=np.array([[[value]]]),
        n_features=1,
    )


def test_mean_keeps_the_tree_order_where_the_order_changes_the_sum() -> None:
    # In order: (1 + 1e16) rounds to 1e16, minus 1e16 is 0. Any other order keeps the 1.
    stack = StackedTrees([leaf(1.0), leaf(1e16), leaf(-1e16)])
    assert_array_equal(stack.mean_values(np.zeros((2, 1))), [[0.0], [0.0]])
    reordered = StackedTrees([leaf(1e16), leaf(-1e16), leaf(1.0)])
    assert_array_equal(reordered.mean_values(np.zeros((2, 1))), [[1 / 3], [1 / 3]])


def stump(threshold: float, missing_go_to_left: bool) -> Tree:
    """x0 <= threshold goes to leaf 1 (value 10), otherwise to leaf 2 (value 20)."""
    return Tree(
        children_left=np.array([1, -1, -1]),
        children_right=np.array([2, -1, -1]),
        feature=np.array([0, -2, -2]),
        threshold=np.array([threshold, -2.0, -2.0]),
        impurity=np.zeros(3),
        n_node_samples=np.array([2, 1, 1]),
        weighted_n_node_samples=np.array([2.0, 1.0, 1.0]),
        value=np.array([15.0, 10.0, 20.0]).reshape(3, 1, 1),
        n_features=1,
        missing_go_to_left=np.array([missing_go_to_left, False, False]),
    )


@pytest.mark.parametrize("missing_go_to_left", [True, False])
def test_a_split_by_hand(missing_go_to_left: bool) -> None:
    tree = stump(2.5, missing_go_to_left)
    above32 = float(np.nextafter(np.float32(2.5), np.float32(np.inf)))  # the next float32
    above64 = np.nextafter(2.5, np.inf)  # read as float32, it is 2.5: left
    X = np.array([[2.5], [above32], [-np.inf], [np.inf], [np.nan], [above64]])
    missing = 1 if missing_go_to_left else 2
    assert_array_equal(tree.apply(X), [1, 2, 1, 2, missing, 1])  # on the threshold: left
    stack = StackedTrees([stump(2.5, missing_go_to_left), stump(0.0, not missing_go_to_left)])
    other = 2 if missing_go_to_left else 1
    assert_array_equal(stack.leaves(X), [[1, 2, 1, 2, missing, 1], [2, 2, 1, 2, other, 2]])
    expected_mean = [15.0, 20.0, 10.0, 20.0, 15.0, 15.0]
    assert_array_equal(stack.mean_values(X), np.array(expected_mean)[:, None])


def test_an_infinite_threshold_sends_present_values_left_and_missing_ones_right() -> None:
    tree = stump(np.inf, missing_go_to_left=False)
    assert_array_equal(tree.apply(np.array([[1e308], [np.inf], [np.nan]])), [1, 1, 2])


def test_a_tree_that_is_a_single_leaf() -> None:
    X = np.array([[np.nan], [3.0], [-1.0]])
    assert_array_equal(leaf(7.0).apply(X), [0, 0, 0])
    assert_array_equal(leaf(7.0).predict(X), [[7.0]] * 3)
    assert leaf(7.0).decision_path(X).toarray().tolist() == [[1], [1], [1]]
    stack = StackedTrees([stump(0.0, True), leaf(7.0), stump(1.0, False)])
    assert_array_equal(stack.offsets, [0, 3, 4])
    assert_array_equal(stack.leaves(X), [[1, 2, 1], [0, 0, 0], [2, 2, 1]])
    assert_array_equal(stack.values(X)[:, :, 0], [[10, 20, 10], [7, 7, 7], [20, 20, 10]])


@pytest.mark.parametrize("n_rows", [0, 1])
@pytest.mark.parametrize("regression", [False, True], ids=["classifier", "regressor"])
def test_one_row_and_no_rows(n_rows: int, regression: bool) -> None:
    trees, rows = fitted_forest(regression, n_trees=3, seed=1)
    rows = rows[:n_rows]
    n_values = trees[0].value.shape[2]
    stack = StackedTrees(trees)
    assert stack.leaves(rows).shape == (3, n_rows)
    assert stack.values(rows).shape == (3, n_rows, n_values)
    assert stack.mean_values(rows).shape == (n_rows, n_values)
    for tree in trees:
        assert_array_equal(tree.apply(rows), reference_leaves(tree, rows))
        assert tree.predict(rows).shape == (n_rows, n_values)
        assert tree.decision_path(rows).shape == (n_rows, tree.node_count)
    assert_array_equal(stack.leaves(rows), np.stack([reference_leaves(t, rows) for t in trees]))


def test_decision_path_lists_the_walked_nodes_root_first() -> None:
    trees, rows = fitted_forest(regression=False, n_trees=3, seed=2)
    for tree in trees:
        path = tree.decision_path(rows)
        assert path.shape == (rows.shape[0], tree.node_count)
        for i, x in enumerate(rows):
            nodes = path.indices[path.indptr[i] : path.indptr[i + 1]]
            assert nodes.tolist() == reference_path(tree, x)
        assert_array_equal(path.data, 1)


def test_one_rows_path_is_its_walked_nodes_root_first() -> None:
    trees, rows = fitted_forest(regression=True, n_trees=3, seed=4)
    for tree in trees:
        for x in rows:  # with missing values among them (fitted_forest's rows)
            assert tree.path(x).tolist() == reference_path(tree, x)


def test_any_layout_or_number_type_walks_as_float64() -> None:
    trees, rows = fitted_forest(regression=False, n_trees=3, seed=3)
    stack = StackedTrees(trees)
    wide = np.repeat(rows, 2, axis=1)[:, ::2]  # the same values, not side by side in memory
    single = rows.astype(np.float32)
    integers = np.round(np.clip(np.nan_to_num(rows), -9, 9) * 3).astype(np.int64)
    for X in (np.asfortranarray(rows), wide, single, integers):
        as_float64 = X.astype(np.float64)
        expected = np.stack([reference_leaves(tree, as_float64) for tree in trees])
        assert_array_equal(stack.leaves(X), expected)
        assert_array_equal(np.stack([tree.apply(X) for tree in trees]), expected)


@pytest.mark.parametrize("shape", [(5, 3), (5,), (2, 5, 4)])
def test_rows_of_the_wrong_shape_are_refused(shape: tuple[int, ...]) -> None:
    trees, _ = fitted_forest(regression=False, n_trees=2, seed=4)
    X = np.zeros(shape)
    message = "X must be a 2-dimensional array with 4 columns .*" + re.escape(f"got shape {shape}")
    for walk in (
        StackedTrees(trees).leaves,
        StackedTrees(trees).mean_values,
        trees[0].apply,
        trees[0].decision_path,
    ):
        with pytest.raises(ValueError, match=message):
            walk(X)
