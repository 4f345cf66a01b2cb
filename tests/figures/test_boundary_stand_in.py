"""A model on more features than the two plotted, drawn by its stand-in: the same estimator
grown on those two alone. Its regions are exact, and hold every class the two separate."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import load_iris

from core.engine import DecisionTreeClassifier, RandomForestClassifier
from core.figures import boundary_figure, compute_boundary
from core.figures.boundary import grown_on_pair


@pytest.fixture(scope="module")
def fourteen() -> tuple[np.ndarray, np.ndarray]:
    """14 classes on a 4 x 4 lattice of the first two columns, two noise columns beside."""
    rng = np.random.default_rng(0)
    y = np.repeat(np.arange(14), 30)
    X = rng.normal(scale=0.5, size=(len(y), 4))
    X[:, 0] += 3 * (y % 4)
    X[:, 1] += 3 * (y // 4)
    return X, y


def test_the_stand_in_is_the_same_estimator_grown_on_the_pair() -> None:
    X, y = load_iris(return_X_y=True)
    tree = DecisionTreeClassifier(max_depth=2, random_state=3).fit(X, y)
    stand_in = grown_on_pair(tree, X, y, (0, 1))
    assert stand_in.get_params() == tree.get_params()
    assert stand_in.n_features_in_ == 2
    again = DecisionTreeClassifier(max_depth=2, random_state=3).fit(X[:, :2], y)
    np.testing.assert_array_equal(stand_in.predict(X[:, :2]), again.predict(X[:, :2]))


def test_its_regions_and_points_are_the_stand_ins(fourteen: tuple[np.ndarray, np.ndarray]) -> None:
    X, y = fourteen
    forest = RandomForestClassifier(n_estimators=10, max_depth=6, random_state=0).fit(X, y)
    data = compute_boundary(forest, X, y, X_test=X[:40], y_test=y[:40], stand_in=True)
    grid = data.grid
    assert grid.stand_in == "forest" and grid.model_features == 4
    assert not grid.is_slice and grid.features == (0, 1)
    own = RandomForestClassifier(n_estimators=10, max_depth=6, random_state=0).fit(X[:, :2], y)
    expected = own.predict_proba(grid.points()).argmax(axis=1).reshape(grid.predicted.shape)
    np.testing.assert_array_equal(grid.predicted, expected)
    np.testing.assert_array_equal(data.points[0].predicted, own.predict(X[:, :2]))
    np.testing.assert_array_equal(data.points[0].x, X[:, 0])


def test_a_14_class_forest_shows_a_region_for_every_class(
    fourteen: tuple[np.ndarray, np.ndarray],
) -> None:
    X, y = fourteen
    forest = RandomForestClassifier(n_estimators=10, random_state=0).fit(X, y)
    stand_in = compute_boundary(forest, X, y, stand_in=True).grid
    assert len(np.unique(stand_in.predicted)) == 14
    areas = stand_in.cell_areas()
    shown = {k for k in range(14) if areas[stand_in.predicted == k].sum() > 0.02}
    assert len(shown) == 14, "every class has a region of its own"


def test_two_columns_need_no_stand_in() -> None:
    X, y = load_iris(return_X_y=True)
    tree = DecisionTreeClassifier(max_depth=2).fit(X[:, 2:], y)
    grid = compute_boundary(tree, X[:, 2:], y, stand_in=True).grid
    assert grid.stand_in == "" and grid.model_features == 2 and not grid.is_slice


def test_models_on_one_grid_are_drawn_on_their_stand_ins_common_edges() -> None:
    X, y = load_iris(return_X_y=True)
    gini = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    entropy = DecisionTreeClassifier(criterion="entropy", max_depth=3, random_state=0).fit(X, y)
    pair = (2, 3)
    first, second = (
        compute_boundary(m, X, y, features=pair, edges_from=(gini, entropy), stand_in=True).grid
        for m in (gini, entropy)
    )
    np.testing.assert_array_equal(first.x_edges, second.x_edges)
    np.testing.assert_array_equal(first.y_edges, second.y_edges)
    assert first.features == second.features == pair


def test_the_title_says_what_the_regions_are() -> None:
    X, y = load_iris(return_X_y=True)
    tree = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    figure = boundary_figure(compute_boundary(tree, X, y, features=(2, 3), stand_in=True))
    title = figure.layout.title.text.replace("<br>", " ").replace("<sup>", "")
    title = title.replace("</sup>", "")
    assert "a tree with the same settings grown on these 2 of the 4 features alone" in title
    assert "A slice" not in title
