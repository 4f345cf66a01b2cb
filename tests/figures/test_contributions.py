"""A prediction taken apart: the root's value plus each step is exactly the prediction."""

from __future__ import annotations

import itertools

import numpy as np
import plotly.graph_objects as go
import pytest
from sklearn.datasets import load_breast_cancer, load_iris

from core.data.datasets import make_sine
from core.engine.forest import RandomForestClassifier, RandomForestRegressor
from core.engine.tree import DecisionTreeClassifier, DecisionTreeRegressor
from core.figures.contributions import (
    forest_contributions,
    path_contributions,
    waterfall_figure,
)


def total(parts) -> float:  # type: ignore[no-untyped-def]
    return parts.start + sum(change for _, change in parts.steps)


def test_a_trees_path_sums_to_its_leaf_for_every_class_and_row() -> None:
    iris = load_iris()
    tree = DecisionTreeClassifier(max_depth=4, random_state=0).fit(iris.data, iris.target)
    proba = tree.predict_proba(iris.data)
    for i in range(0, 150, 7):
        for c in range(3):
            parts = path_contributions(tree, iris.data[i], iris.feature_names, class_index=c)
            assert total(parts) == pytest.approx(proba[i, c], abs=1e-12)
            assert parts.prediction == pytest.approx(proba[i, c], abs=1e-12)
            assert parts.start == pytest.approx(np.mean(tree_classes(tree) == c), abs=1e-12)
            assert len(parts.steps) == tree.decision_path(iris.data[i : i + 1]).nnz - 1
    first = path_contributions(tree, iris.data[0], iris.feature_names, class_name="setosa")
    assert first.what == "share of setosa" and first.steps[0][0].startswith("petal")


def tree_classes(tree):  # type: ignore[no-untyped-def]
    return load_iris().target  # the tree saw every row: the root's shares are the data's


def test_a_regression_path_sums_to_the_leaf_mean() -> None:
    sine = make_sine(120, random_state=1)
    tree = DecisionTreeRegressor(max_depth=5, random_state=0).fit(sine.X, sine.y)
    for row in sine.X[::11]:
        parts = path_contributions(tree, row, ["x"])
        assert parts.start == pytest.approx(sine.y.mean())
        assert total(parts) == pytest.approx(tree.predict(row.reshape(1, -1))[0], abs=1e-9)
        assert parts.what == "prediction"


def test_a_forests_parts_sum_to_its_prediction() -> None:
    cancer = load_breast_cancer()
    forest = RandomForestClassifier(n_estimators=25, random_state=0).fit(cancer.data, cancer.target)
    proba = forest.predict_proba(cancer.data[:20])
    for i in range(20):
        parts = forest_contributions(forest, cancer.data[i], cancer.feature_names, top=5)
        k = int(np.argmax(proba[i]))
        assert total(parts) == pytest.approx(proba[i, k], abs=1e-12)
        assert len(parts.steps) <= 6
        named = [abs(change) for name, change in parts.steps if name != "other features"]
        assert named == sorted(named, reverse=True), "largest first"
    sine = make_sine(100, random_state=0)
    regressor = RandomForestRegressor(n_estimators=10, random_state=0).fit(sine.X, sine.y)
    parts = forest_contributions(regressor, sine.X[3], ["x"])
    assert total(parts) == pytest.approx(regressor.predict(sine.X[3:4])[0], abs=1e-9)


def _by_tree(forest, row, column):  # type: ignore[no-untyped-def]
    """The forest's parts as the module defines them: each tree walked on its own."""
    start, changes = 0.0, np.zeros(len(row))
    for tree in forest.estimators_:
        arrays = tree.tree_
        values = np.asarray(arrays.value, dtype=float)[:, 0, :]
        if values.shape[1] > 1:
            values = values / values.sum(axis=1, keepdims=True)
        path = [int(n) for n in tree.decision_path(row.reshape(1, -1)).indices]
        start += values[path[0], column]
        for parent, child in itertools.pairwise(path):
            changes[arrays.feature[parent]] += values[child, column] - values[parent, column]
    return start / len(forest.estimators_), changes / len(forest.estimators_)


def test_a_forests_walk_adds_up_each_trees_path() -> None:
    # The compiled walk over every tree at once gives what walking each tree alone gives,
    # missing values included.
    cancer = load_breast_cancer()
    X = cancer.data.copy()
    X[::5, 3] = np.nan
    forest = RandomForestClassifier(n_estimators=15, random_state=1).fit(X, cancer.target)
    for i in range(0, 60, 6):
        for column in (0, 1):
            start, changes = forest.mean_path_changes(X[i], column)
            expected_start, expected_changes = _by_tree(forest, X[i], column)
            assert start == pytest.approx(expected_start, abs=1e-15)
            np.testing.assert_allclose(changes, expected_changes, rtol=0, atol=1e-15)
    sine = make_sine(80, random_state=2)
    regressor = RandomForestRegressor(n_estimators=6, random_state=0).fit(sine.X, sine.y)
    start, changes = regressor.mean_path_changes(sine.X[5])
    expected_start, expected_changes = _by_tree(regressor, sine.X[5], 0)
    assert start == pytest.approx(expected_start, rel=1e-12)
    np.testing.assert_allclose(changes, expected_changes, rtol=1e-12, atol=1e-9)


def test_the_waterfall_starts_at_the_root_and_ends_at_the_prediction() -> None:
    iris = load_iris()
    tree = DecisionTreeClassifier(max_depth=3, random_state=0).fit(iris.data, iris.target)
    parts = path_contributions(tree, iris.data[100], iris.feature_names)
    figure = waterfall_figure(parts)
    go.Figure(figure.to_dict())
    (trace,) = figure.data
    assert list(trace.measure) == ["absolute", *["relative"] * len(parts.steps), "total"]
    assert trace.y[0] == "at the root" and trace.y[-1] == "prediction"
    assert trace.text[-1] == f"{parts.prediction:.3g}"
