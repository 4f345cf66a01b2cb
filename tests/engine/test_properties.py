"""Properties every fitted tree and forest must have, whatever the data."""

from __future__ import annotations

import copy
import itertools
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from conftest import (
    IMPL,
    TREE_ARRAYS,
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
    load_dataset,
    needs_core,
    train_test,
)
from numpy.testing import assert_allclose, assert_array_equal

from core.engine.structure import impurity_decreases

# name -> (factory, dataset); forests are small so the whole module stays fast.
MODELS: dict[str, tuple[Callable[..., Any], str]] = {
    "tree-classifier": (DecisionTreeClassifier, "wine"),
    "tree-regressor": (DecisionTreeRegressor, "diabetes"),
    "forest-classifier": (
        lambda **kw: RandomForestClassifier(**{"n_estimators": 5, **kw}),
        "wine",
    ),
    "forest-regressor": (
        lambda **kw: RandomForestRegressor(**{"n_estimators": 5, **kw}),
        "diabetes",
    ),
}
CLASSIFIERS = ["tree-classifier", "forest-classifier"]


def fit(name: str, **params: Any) -> tuple[Any, np.ndarray, np.ndarray]:
    factory, dataset = MODELS[name]
    X, y = load_dataset(dataset)
    return factory(random_state=0, **params).fit(X, y), X, y


def trees_of(model: Any) -> list[Any]:
    return list(model.estimators_) if hasattr(model, "estimators_") else [model]


def tree_arrays(model: Any) -> list[dict[str, np.ndarray]]:
    """Copies of the flat arrays of every tree in a model."""
    return [{k: np.array(getattr(t.tree_, k)) for k in TREE_ARRAYS} for t in trees_of(model)]


def assert_same_trees(a: Any, b: Any) -> None:
    arrays_a, arrays_b = tree_arrays(a), tree_arrays(b)
    assert len(arrays_a) == len(arrays_b)
    for i, (ta, tb) in enumerate(zip(arrays_a, arrays_b, strict=True)):
        for key in TREE_ARRAYS:
            assert_array_equal(ta[key], tb[key], err_msg=f"tree {i}, tree_.{key}")


@pytest.mark.parametrize("name", CLASSIFIERS)
@pytest.mark.parametrize("params", [{}, {"max_depth": 2}, {"criterion": "entropy"}])
def test_proba_rows_sum_to_one(name: str, params: dict) -> None:
    model, X, _ = fit(name, **params)
    X_far = np.vstack([X, X.min(axis=0) - 10, X.max(axis=0) + 10])
    proba = model.predict_proba(X_far)
    assert proba.shape == (len(X_far), 3)
    assert np.all(proba >= 0)
    assert_allclose(proba.sum(axis=1), 1.0, rtol=1e-12)


@pytest.mark.parametrize("name", MODELS)
@pytest.mark.parametrize("max_depth", [3, None])
def test_pure_nodes_have_zero_impurity(name: str, max_depth: int | None) -> None:
    # Without bootstrap every tree is trained on all of X, so decision_path gives each
    # node's training samples.
    params = {"max_depth": max_depth}
    if name.startswith("forest"):
        params |= {"bootstrap": False, "max_features": 0.5}
    model, X, y = fit(name, **params)
    n_pure = 0
    for tree in trees_of(model):
        reach = tree.decision_path(X).tocsc()
        impurity = tree.tree_.impurity
        for node in range(tree.tree_.node_count):
            y_node = y[reach[:, node].indices]
            assert len(y_node) == tree.tree_.n_node_samples[node]
            if np.all(y_node == y_node[0]):
                n_pure += 1
                assert abs(impurity[node]) <= 1e-12 * max(1.0, np.var(y)), f"node {node}"
            else:
                assert impurity[node] > 0, f"node {node} is impure"
    if max_depth is None:
        assert n_pure > 0


@pytest.mark.parametrize("name", CLASSIFIERS)
def test_nodes_holding_one_class_have_zero_impurity(name: str) -> None:
    # With bootstrap the training samples are unknown, but value says which nodes are pure.
    model, _, _ = fit(name, max_depth=4)
    for tree in trees_of(model):
        value, impurity = tree.tree_.value[:, 0, :], tree.tree_.impurity
        pure = np.isclose(value.max(axis=1), 1.0, rtol=0, atol=1e-12)
        assert np.all(impurity[pure] == 0)
        assert np.all(impurity[~pure] > 0)


@pytest.mark.parametrize("name", MODELS)
def test_apply_returns_leaf_ids(name: str) -> None:
    model, X, _ = fit(name, max_depth=5)
    X_test = np.vstack([X, X.min(axis=0) - 1, X.max(axis=0) + 1])
    leaves = model.apply(X_test)
    trees = trees_of(model)
    leaves = leaves.reshape(len(X_test), len(trees))
    assert np.issubdtype(leaves.dtype, np.integer)
    for column, tree in zip(leaves.T, trees, strict=True):
        assert np.all((column >= 0) & (column < tree.tree_.node_count))
        assert np.all(tree.tree_.children_left[column] == -1)
        assert np.all(tree.tree_.children_right[column] == -1)
        assert np.all(tree.tree_.feature[column] == -2)


@pytest.mark.parametrize("name", MODELS)
def test_decision_path_is_root_to_leaf_chain_ending_at_apply(name: str) -> None:
    model, X, _ = fit(name, max_depth=6)
    for tree in trees_of(model):
        path = tree.decision_path(X)
        assert sp.issparse(path)
        assert path.format == "csr"
        assert path.shape == (len(X), tree.tree_.node_count)
        leaves = tree.apply(X)
        left, right = tree.tree_.children_left, tree.tree_.children_right
        for row in range(len(X)):
            start, stop = path.indptr[row], path.indptr[row + 1]
            nodes = np.sort(path.indices[start:stop])
            assert_array_equal(path.data[start:stop], 1)
            assert nodes[0] == 0
            # Preorder puts every child after its parent, so sorting the path orders it.
            for parent, child in itertools.pairwise(nodes):
                assert child in (left[parent], right[parent]), f"row {row}: {nodes}"
            assert nodes[-1] == leaves[row]


@pytest.mark.parametrize("name", MODELS)
def test_feature_importances_sum_to_one(name: str) -> None:
    model, X, _ = fit(name)
    importances = model.feature_importances_
    assert importances.shape == (X.shape[1],)
    assert np.all(importances >= 0)
    assert_allclose(importances.sum(), 1.0, rtol=1e-12)


@needs_core
@pytest.mark.parametrize("name", MODELS)
def test_importances_loop_adds_each_split_nodes_decrease(name: str) -> None:
    """The compiled loop over nodes (``impurity_decreases``) gives, bit for bit, the sum of the
    split nodes' decreases ``w_t I(t) - w_L I(L) - w_R I(R)`` per feature added in node order
    (``np.bincount`` of the vectorized formula), for every tree of the model."""
    model, _, _ = fit(name)
    for estimator in trees_of(model):
        tree = estimator.tree_
        split = np.flatnonzero(tree.children_left != -1)
        w, imp = tree.weighted_n_node_samples, tree.impurity
        left, right = tree.children_left[split], tree.children_right[split]
        decrease = w[split] * imp[split] - w[left] * imp[left] - w[right] * imp[right]
        expected = np.bincount(tree.feature[split], weights=decrease, minlength=tree.n_features)
        got = impurity_decreases(
            tree.children_left, tree.children_right, tree.feature, w, imp, tree.n_features
        )
        assert got.tobytes() == expected.astype(np.float64).tobytes()
        assert_array_equal(tree.compute_feature_importances(normalize=False), got / w[0])


@pytest.mark.parametrize("name", MODELS)
def test_single_leaf_has_zero_importances(name: str) -> None:
    factory, _ = MODELS[name]
    X = np.arange(12.0).reshape(6, 2)
    model = factory(random_state=0).fit(X, np.full(6, 3))
    for tree in trees_of(model):
        assert tree.tree_.node_count == 1
    assert_array_equal(model.feature_importances_, [0.0, 0.0])


def comparable_state(obj: Any) -> Any:
    """A deep copy of an object's state that can be compared with ``assert_same_state``."""
    if isinstance(obj, np.ndarray):
        return obj.copy()
    if isinstance(obj, dict):
        return {key: comparable_state(value) for key, value in obj.items()}
    if isinstance(obj, list | tuple):
        return (type(obj).__name__, [comparable_state(value) for value in obj])
    if obj is None or isinstance(obj, str | bytes | int | float | complex | np.generic | type):
        return obj
    if hasattr(obj, "__dict__"):
        return (type(obj).__name__, comparable_state(vars(obj)))
    state = obj.__getstate__()  # scikit-learn's Cython Tree, slotted classes
    if state is not None:
        return (type(obj).__name__, comparable_state(state))
    return copy.deepcopy(obj)


def assert_same_state(before: Any, after: Any, where: str = "model") -> None:
    assert type(before) is type(after), where
    if isinstance(before, np.ndarray):
        assert (before.dtype, before.shape) == (after.dtype, after.shape), where
        if before.dtype.names:  # structured: compare fields, never the padding bytes
            for field in before.dtype.names:
                assert_same_state(before[field], after[field], f"{where}[{field!r}]")
        elif before.dtype == object:
            assert before.tolist() == after.tolist(), where
        else:
            assert before.tobytes() == after.tobytes(), where
    elif isinstance(before, dict):
        assert before.keys() == after.keys(), f"{where}: attributes added or removed"
        for key in before:
            assert_same_state(before[key], after[key], f"{where}.{key}")
    elif isinstance(before, tuple | list):
        assert len(before) == len(after), where
        for i, (a, b) in enumerate(zip(before, after, strict=True)):
            assert_same_state(a, b, f"{where}[{i}]")
    elif isinstance(before, float) and math.isnan(before):
        assert math.isnan(after), where
    else:
        assert before == after, where


@pytest.mark.parametrize("name", MODELS)
def test_predicting_never_changes_the_model(name: str) -> None:
    model, X, y = fit(name, max_depth=6)
    arrays_before = tree_arrays(model)
    state_before = comparable_state(model)
    X_new = np.vstack([X[::-1], X.max(axis=0) + 1])
    model.predict(X_new)
    if name in CLASSIFIERS:
        model.predict_proba(X_new)
    model.apply(X_new)
    model.decision_path(X_new)
    model.score(X, y)
    if IMPL == "core" and name.startswith("forest"):
        model.staged_scores(X, y)
        model.predict_per_tree(X_new)
    for tree in trees_of(model):
        tree.predict(X_new)
    for i, (before, after) in enumerate(zip(arrays_before, tree_arrays(model), strict=True)):
        for key in TREE_ARRAYS:
            assert_array_equal(before[key], after[key], err_msg=f"tree {i}: tree_.{key}")
    assert_same_state(state_before, comparable_state(model))


@pytest.mark.parametrize("name", MODELS)
def test_same_random_state_gives_identical_models(name: str) -> None:
    factory, dataset = MODELS[name]
    X, y = load_dataset(dataset)
    params = {"max_features": "sqrt", "random_state": 7}
    a, b = factory(**params).fit(X, y), factory(**params).fit(X, y)
    assert_same_trees(a, b)
    assert_array_equal(a.predict(X), b.predict(X))


@pytest.mark.parametrize("forest", [RandomForestClassifier, RandomForestRegressor])
def test_smaller_forest_is_prefix_of_larger(forest: type) -> None:
    X, y = load_dataset("wine" if forest is RandomForestClassifier else "sine")
    small = forest(n_estimators=3, random_state=11).fit(X, y)
    large = forest(n_estimators=8, random_state=11).fit(X, y)
    assert len(large.estimators_) == 8
    for i in range(3):
        assert_same_trees(small.estimators_[i], large.estimators_[i])


@pytest.mark.parametrize("forest", [RandomForestClassifier, RandomForestRegressor])
def test_random_state_zero_is_a_seed_like_any_other(forest: type) -> None:
    # `if random_state:` would treat 0 as "no seed": two fits with 0 would then differ.
    X, y = load_dataset("wine" if forest is RandomForestClassifier else "sine")
    zero_a = forest(n_estimators=4, random_state=0).fit(X, y)
    zero_b = forest(n_estimators=4, random_state=0).fit(X, y)
    one = forest(n_estimators=4, random_state=1).fit(X, y)
    assert_same_trees(zero_a, zero_b)
    assert any(
        not np.array_equal(a.tree_.threshold, b.tree_.threshold)
        for a, b in zip(zero_a.estimators_, one.estimators_, strict=True)
    )


def test_tree_random_state_zero_is_a_seed_like_any_other() -> None:
    X, y = load_dataset("breast_cancer")
    fits = {
        seed: [DecisionTreeClassifier(max_features=1, random_state=seed).fit(X, y) for _ in "ab"]
        for seed in (0, 1)
    }
    for a, b in fits.values():
        assert_same_trees(a, b)
    assert not np.array_equal(fits[0][0].tree_.feature, fits[1][0].tree_.feature)


@pytest.mark.parametrize(
    "make",
    [
        lambda: DecisionTreeRegressor(max_depth=1),
        lambda: RandomForestRegressor(n_estimators=3, bootstrap=False, max_depth=1, random_state=0),
    ],
    ids=["tree", "forest"],
)
def test_regressor_predictions_are_floats_for_integer_targets(make: Callable[[], Any]) -> None:
    # Leaves hold the means of 0, 1 and of 4, 5: a cast to int would give 0 and 4.
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    model = make().fit(X, np.array([0, 1, 4, 5]))
    prediction = model.predict(X)
    assert prediction.dtype.kind == "f"
    assert_array_equal(prediction, [0.5, 0.5, 4.5, 4.5])


@pytest.mark.parametrize("estimator", [DecisionTreeClassifier, DecisionTreeRegressor])
def test_unlimited_depth_grows_past_ten_levels(estimator: type) -> None:
    # 1025 alternating labels on one feature: a perfect fit needs 1025 leaves, and a binary
    # tree of depth d has at most 2^d leaves, so depth >= 11.
    X = np.arange(1025.0)[:, None]
    y = np.arange(1025) % 2
    model = estimator(max_depth=None).fit(X, y)
    assert_allclose(model.predict(X), y, rtol=0, atol=1e-9)
    assert model.get_n_leaves() == 1025
    assert model.get_depth() >= 11


def informative_features_data() -> tuple[np.ndarray, np.ndarray]:
    """Four uniform features; the class counts how many exceed 0.5, so each one matters."""
    rng = np.random.default_rng(3)
    X = rng.uniform(size=(300, 4))
    return X, (X > 0.5).sum(axis=1)


def test_tree_draws_features_per_split() -> None:
    X, y = informative_features_data()
    tree = DecisionTreeClassifier(max_features=1, random_state=0).fit(X, y).tree_
    used = set(tree.feature[tree.feature >= 0].tolist())
    # One draw per tree would put a single feature in every node.
    assert len(used) > 1


def test_forest_trees_draw_features_per_split() -> None:
    X, y = informative_features_data()
    forest = RandomForestClassifier(
        n_estimators=5, max_features=1, bootstrap=False, random_state=0
    ).fit(X, y)
    for tree in forest.estimators_:
        feature = tree.tree_.feature
        assert len(set(feature[feature >= 0].tolist())) > 1


@pytest.mark.parametrize("name", CLASSIFIERS)
def test_score_is_accuracy(name: str) -> None:
    model, _, _ = fit(name, max_depth=2)
    _, X_test, _, y_test = train_test("wine")
    assert model.score(X_test, y_test) == np.mean(model.predict(X_test) == y_test)


@pytest.mark.parametrize("name", MODELS)
def test_fitted_attributes_from_a_dataframe(name: str) -> None:
    factory, dataset = MODELS[name]
    X, y = load_dataset(dataset)
    columns = [f"feature {i}" for i in range(X.shape[1])]
    frame = pd.DataFrame(X, columns=columns)
    model = factory(random_state=0, max_depth=3).fit(frame, y)
    assert model.n_features_in_ == X.shape[1]
    assert_array_equal(model.feature_names_in_, columns)
    from_array = factory(random_state=0, max_depth=3).fit(X, y)
    assert_array_equal(model.predict(frame), from_array.predict(X))
    if name in CLASSIFIERS:
        assert_array_equal(model.classes_, np.unique(y))
        assert model.n_classes_ == len(np.unique(y))
        for tree in trees_of(model):
            assert tree.tree_.value.shape == (tree.tree_.node_count, 1, model.n_classes_)
    else:
        for tree in trees_of(model):
            assert tree.tree_.value.shape == (tree.tree_.node_count, 1, 1)
