"""Bad input fails loudly with a message naming the culprit; odd but valid data just works."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from conftest import (
    IMPL,
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.exceptions import NotFittedError


def make(kind: str, **params: Any) -> Any:
    if kind.startswith("forest"):
        params = {"n_estimators": 3, "random_state": 0, **params}
    return {
        "tree-classifier": DecisionTreeClassifier,
        "tree-regressor": DecisionTreeRegressor,
        "forest-classifier": RandomForestClassifier,
        "forest-regressor": RandomForestRegressor,
    }[kind](**params)


KINDS = ["tree-classifier", "tree-regressor", "forest-classifier", "forest-regressor"]
CLASSIFIERS = ["tree-classifier", "forest-classifier"]
REGRESSORS = ["tree-regressor", "forest-regressor"]
FORESTS = ["forest-classifier", "forest-regressor"]

X_OK = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 1.0], [3.0, 0.0], [4.0, 1.0], [5.0, 0.0]])
Y_OK = np.array([0, 0, 0, 1, 1, 1])

BAD_TREE_PARAMS = [
    ("max_depth", 0),
    ("max_depth", -1),
    ("max_depth", 2.5),
    ("max_depth", "3"),
    ("min_samples_leaf", 0),
    ("min_samples_split", 1),
    ("max_features", 2.5),
    ("max_features", 0),
    ("max_features", "auto"),  # removed from scikit-learn in 1.3
    ("max_features", -1),
    ("ccp_alpha", -1),
    ("min_impurity_decrease", -0.1),
]
BAD_FOREST_PARAMS = [
    ("n_estimators", 0),
    ("max_samples", 0),
    ("max_samples", 1.5),
]


def bad_param_cases() -> list[Any]:
    cases = [
        pytest.param(kind, name, value, id=f"{kind}-{name}={value!r}")
        for kind in KINDS
        for name, value in BAD_TREE_PARAMS
    ]
    cases += [
        pytest.param(kind, "criterion", value, id=f"{kind}-criterion={value!r}")
        for kind, value in [
            ("tree-classifier", "gin"),
            ("forest-classifier", "gin"),
            ("tree-regressor", "squared"),
            ("forest-regressor", "gini"),
        ]
    ]
    cases += [
        pytest.param(kind, name, value, id=f"{kind}-{name}={value!r}")
        for kind in FORESTS
        for name, value in BAD_FOREST_PARAMS
    ]
    return cases


@pytest.mark.parametrize(("kind", "name", "value"), bad_param_cases())
def test_invalid_hyperparameter_is_named(kind: str, name: str, value: Any) -> None:
    if IMPL == "sklearn" and (name, value) == ("max_samples", 1.5):
        pytest.skip("recent scikit-learn draws more than n samples for max_samples > 1.0")
    model = make(kind, **{name: value})
    with pytest.raises((ValueError, TypeError), match=re.escape(name)) as raised:
        model.fit(X_OK, Y_OK)
    # The message also shows what was received.
    assert str(value) in str(raised.value)


@pytest.mark.parametrize("kind", KINDS)
def test_nan_in_X_is_a_missing_value(kind: str) -> None:
    # As in scikit-learn >= 1.3 (trees) and >= 1.4 (forests): NaN is a missing value, not an
    # error, and every row gets a prediction.
    X = X_OK.copy()
    X[2, 1] = np.nan
    model = make(kind).fit(X, Y_OK)
    assert len(model.predict(X)) == len(X)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("value", [np.inf, -np.inf])
def test_infinity_in_X(kind: str, value: float) -> None:
    X = X_OK.copy()
    X[2, 1] = value
    with pytest.raises(ValueError, match=r"(?i)\binf"):
        make(kind).fit(X, Y_OK)


@pytest.mark.parametrize("kind", KINDS)
def test_nan_in_y(kind: str) -> None:
    y = Y_OK.astype(float)
    y[3] = np.nan
    with pytest.raises(ValueError, match=r"(?i)\bnan\b"):
        make(kind).fit(X_OK, y)


@pytest.mark.parametrize("kind", KINDS)
def test_nan_in_X_at_predict_follows_the_bigger_child(kind: str) -> None:
    # Trained without missing values, a node sends a missing one to its child with more
    # training samples (the right one on a tie), as scikit-learn does.
    model = make(kind).fit(X_OK, Y_OK)
    X = X_OK.copy()
    X[:, :] = np.nan
    tree = (model.estimators_[0] if hasattr(model, "estimators_") else model).tree_
    node = 0
    while tree.children_left[node] != -1:
        left, right = tree.children_left[node], tree.children_right[node]
        bigger_left = tree.n_node_samples[left] > tree.n_node_samples[right]
        node = left if bigger_left else right
    leaves = model.apply(X[:1])
    assert np.ravel(leaves)[0] == node


@pytest.mark.parametrize("kind", KINDS)
def test_empty_X(kind: str) -> None:
    with pytest.raises(ValueError, match=r"(?i)empty|0 sample|no sample|at least one"):
        make(kind).fit(np.empty((0, 2)), np.empty(0))


@pytest.mark.parametrize("kind", KINDS)
def test_one_dimensional_X(kind: str) -> None:
    with pytest.raises(ValueError, match=r"(?i)2D|2-D|two-dimensional|1D|1-D|one-dimensional"):
        make(kind).fit(X_OK[:, 0], Y_OK)


@pytest.mark.parametrize("kind", KINDS)
def test_mismatched_lengths(kind: str) -> None:
    with pytest.raises(ValueError, match=r"(?i)inconsistent|length|same number|number of"):
        make(kind).fit(X_OK, Y_OK[:-1])


@pytest.mark.parametrize("kind", REGRESSORS)
def test_regressor_with_non_numeric_y(kind: str) -> None:
    y = np.array(["low", "low", "low", "high", "high", "high"])
    with pytest.raises((ValueError, TypeError), match=r"(?i)numeric|float|number"):
        make(kind).fit(X_OK, y)


# Forests' decision_path has its own test in test_forest.py.
PREDICTING_METHODS = [
    pytest.param(kind, method, id=f"{kind}-{method}")
    for kind in KINDS
    for method in ("predict", "predict_proba", "apply", "decision_path")
    if (method != "predict_proba" or kind in CLASSIFIERS)
    and (method != "decision_path" or kind not in FORESTS)
]


@pytest.mark.parametrize(("kind", "method"), PREDICTING_METHODS)
@pytest.mark.parametrize("n_features", [1, 3])
def test_predict_with_wrong_number_of_features(kind: str, method: str, n_features: int) -> None:
    model = make(kind).fit(X_OK, Y_OK)
    with pytest.raises(ValueError, match=rf"(?i)\b{n_features} features"):
        getattr(model, method)(np.zeros((2, n_features)))


@pytest.mark.parametrize(("kind", "method"), PREDICTING_METHODS)
def test_not_fitted(kind: str, method: str) -> None:
    model = make(kind)
    if IMPL == "sklearn" and method == "decision_path":
        pytest.skip("scikit-learn's unfitted tree decision_path raises a bare AttributeError")
    with pytest.raises(NotFittedError, match=r"(?i)not fitted"):
        getattr(model, method)(X_OK)


@pytest.mark.parametrize("kind", KINDS)
def test_not_fitted_attributes(kind: str) -> None:
    with pytest.raises(NotFittedError, match=r"(?i)not fitted"):
        _ = make(kind).feature_importances_


def assert_valid_single_leaf(model: Any, X: np.ndarray, expected: Any) -> None:
    for tree in getattr(model, "estimators_", [model]):
        assert tree.tree_.node_count == 1
        assert tree.get_depth() == 0
        assert tree.get_n_leaves() == 1
    assert_array_equal(model.predict(X), np.full(len(X), expected))


@pytest.mark.parametrize("kind", KINDS)
def test_one_sample(kind: str) -> None:
    model = make(kind).fit([[1.0, 2.0]], [7])
    assert_valid_single_leaf(model, np.array([[0.0, 0.0], [9.0, 9.0]]), 7)
    if kind in CLASSIFIERS:
        assert_array_equal(model.classes_, [7])
        assert_array_equal(model.predict_proba([[0.0, 0.0]]), [[1.0]])


@pytest.mark.parametrize("kind", KINDS)
def test_one_class(kind: str) -> None:
    model = make(kind).fit(X_OK, np.full(len(X_OK), 4))
    assert_valid_single_leaf(model, X_OK, 4)
    assert_array_equal(model.feature_importances_, [0.0, 0.0])


@pytest.mark.parametrize("kind", KINDS)
def test_all_features_constant(kind: str) -> None:
    X = np.ones((6, 3))
    params = {"bootstrap": False} if kind in FORESTS else {}
    model = make(kind, **params).fit(X, Y_OK)
    if kind in CLASSIFIERS:
        # Classes 0 and 1 tie at 3 samples each: the first class wins, as in np.argmax.
        assert_valid_single_leaf(model, X, 0)
        assert_allclose(model.predict_proba(X[:1]), [[0.5, 0.5]])
    else:
        assert_valid_single_leaf(model, X, 0.5)


@pytest.mark.parametrize("kind", KINDS)
def test_duplicate_rows_with_different_labels(kind: str) -> None:
    # Rows 0-1 and 2-3 are identical with different labels; 4-5 can be separated.
    X = np.array([[1.0, 1.0], [1.0, 1.0], [2.0, 2.0], [2.0, 2.0], [3.0, 0.0], [4.0, 0.0]])
    y = np.array([0, 1, 0, 1, 1, 1])
    params = {"bootstrap": False} if kind in FORESTS else {}
    model = make(kind, **params).fit(X, y)
    for tree in getattr(model, "estimators_", [model]):
        inner = tree.tree_.children_left != -1
        leaves = tree.apply(X)
        # Every leaf holding an identical pair stays impure: nothing can split it.
        assert tree.tree_.impurity[leaves[0]] > 0
        assert leaves[0] == leaves[1]
        assert leaves[2] == leaves[3]
        assert np.all(tree.tree_.n_node_samples[inner] >= 2)
    if kind in CLASSIFIERS:
        proba = model.predict_proba(X)
        assert_allclose(proba[:4], 0.5)
        assert_array_equal(model.predict(X[4:]), [1, 1])
    else:
        assert_allclose(model.predict(X), [0.5, 0.5, 0.5, 0.5, 1.0, 1.0])


@pytest.mark.parametrize("kind", CLASSIFIERS)
def test_string_class_labels(kind: str) -> None:
    y = np.array(["owl", "owl", "owl", "elk", "elk", "elk"])
    params = {"bootstrap": False} if kind in FORESTS else {}
    model = make(kind, **params).fit(X_OK, y)
    assert_array_equal(model.classes_, ["elk", "owl"])
    assert model.n_classes_ == 2
    prediction = model.predict(X_OK)
    assert prediction.dtype.kind in "UO"
    assert_array_equal(prediction, y)
    assert model.score(X_OK, y) == 1.0
    assert_array_equal(model.predict_proba(X_OK[:1]), [[0.0, 1.0]])


@pytest.mark.parametrize("kind", CLASSIFIERS)
def test_thousand_classes_finish(kind: str) -> None:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(2000, 3))
    y = np.repeat(np.arange(1000), 2)
    model = make(kind, max_depth=12).fit(X, y)
    assert model.n_classes_ == 1000
    proba = model.predict_proba(X[:5])
    assert proba.shape == (5, 1000)
    assert_allclose(proba.sum(axis=1), 1.0)
    assert set(model.predict(X).tolist()) <= set(range(1000))


def test_thousand_classes_fully_grown_tree() -> None:
    rng = np.random.default_rng(1)
    X = rng.normal(size=(2000, 3))
    y = np.repeat(np.arange(1000), 2)
    model = DecisionTreeClassifier().fit(X, y)
    # Distinct rows: growing on until every leaf is pure fits the training set exactly.
    assert_array_equal(model.predict(X), y)
    assert 1000 <= model.get_n_leaves() <= 2000
