"""Why averaging works: the numbers of K resampled trees, and their figures (issue 20)."""

from __future__ import annotations

import itertools

import numpy as np
import plotly.graph_objects as go
import pytest

from core.data.datasets import make_sine, sine_curve
from core.engine.forest import RandomForestClassifier, RandomForestRegressor
from core.figures.variance import compute_spread, decomposition
from core.figures.variance_plot import (
    _edges,
    averaging_figure,
    decomposition_figure,
    spread_figure,
    step_points,
)


def test_the_trees_error_is_the_averages_error_plus_their_variance() -> None:
    rng = np.random.default_rng(0)
    per_tree = rng.normal(size=(17, 40)) * 3 + 1
    y = rng.normal(size=40)
    truth = y + rng.normal(scale=0.5, size=40)
    parts = decomposition(per_tree, y, truth)
    brute = np.mean([(y[i] - per_tree[k, i]) ** 2 for k in range(17) for i in range(40)])
    assert parts.trees_error == pytest.approx(brute, abs=1e-12)
    assert parts.trees_error == pytest.approx(parts.average_error + parts.variance, abs=1e-9)
    assert parts.bias2 is not None and parts.noise is not None and parts.rest is not None
    assert parts.bias2 + parts.noise + parts.rest == pytest.approx(parts.average_error, abs=1e-9)
    assert decomposition(per_tree, y).bias2 is None  # no noise-free curve: no split


def test_a_regression_spread_on_the_sine_matches_the_forest() -> None:
    data = make_sine(200, noise=2.5, random_state=0)
    X, y = data.X, data.y
    train, test = np.arange(0, 200, 2), np.arange(1, 200, 2)
    forest = RandomForestRegressor(n_estimators=12, random_state=3).fit(X[train], y[train])
    xs = np.linspace(0, 10, 50)
    spread = compute_spread(
        "regression",
        grid_values=forest.predict_per_tree(xs.reshape(-1, 1)),
        test_values=forest.predict_per_tree(X[test]),
        X_test=X[test],
        y_test=y[test],
        xs=xs,
        feature_names=("x",),
        truth=sine_curve(X[test, 0]),
    )
    assert spread.n_trees == 12
    np.testing.assert_allclose(spread.average, forest.predict(xs.reshape(-1, 1)), atol=1e-12)
    # The average of all K trees is the forest: its error is the last point of the curve.
    forest_mse = np.mean((forest.predict(X[test]) - y[test]) ** 2)
    assert spread.error_by_k[-1] == pytest.approx(forest_mse, abs=1e-9)
    assert spread.parts is not None
    assert spread.parts.average_error == pytest.approx(forest_mse, abs=1e-9)
    assert spread.tree_error == pytest.approx(spread.parts.trees_error, abs=1e-9)
    assert spread.parts.variance > 0 and spread.error_by_k[-1] < spread.tree_error


def test_a_classification_spread_counts_votes_and_pairs() -> None:
    rng = np.random.default_rng(1)
    X = rng.normal(size=(120, 2))
    y = (X[:, 0] + 0.8 * rng.normal(size=120) > 0).astype(int)
    forest = RandomForestClassifier(n_estimators=7, random_state=0).fit(X[:80], y[:80])
    xs, ys = np.linspace(-3, 3, 9), np.linspace(-3, 3, 8)
    plane = np.column_stack([np.tile(xs, len(ys)), np.repeat(ys, len(xs))])
    tests = forest.predict_per_tree(X[80:])
    spread = compute_spread(
        "classification",
        grid_values=forest.predict_per_tree(plane),
        test_values=tests,
        X_test=X[80:],
        y_test=y[80:],
        xs=xs,
        ys=ys,
        feature_names=("a", "b"),
        class_names=("no", "yes"),
    )
    assert spread.tree_values.shape == (7, 8, 9)
    np.testing.assert_array_equal(
        spread.average.ravel(), forest.predict(plane).astype(int)
    )  # the forest's rule: averaged shares
    votes = tests.argmax(axis=2)
    pairs = [
        np.mean(votes[a] == votes[b]) for a, b in itertools.permutations(range(7), 2)
    ]  # every ordered pair of trees
    assert spread.agreement == pytest.approx(np.mean(pairs), abs=1e-12)
    share = np.array(
        [np.bincount(v, minlength=2).max() / 7 for v in spread.tree_values.reshape(7, -1).T]
    )
    np.testing.assert_allclose(spread.disagreement.ravel(), 1 - share)
    assert spread.error_by_k[-1] == pytest.approx(1 - forest.score(X[80:], y[80:]), abs=1e-12)


def test_edges_trace_the_borders_between_classes() -> None:
    classes = np.array([[0, 0, 1], [0, 0, 1], [2, 2, 2]])
    xs, ys = np.array([0.0, 1.0, 2.0]), np.array([0.0, 1.0, 2.0])
    line_x, line_y = _edges(classes, xs, ys)
    segments = {
        (line_x[i], line_y[i], line_x[i + 1], line_y[i + 1]) for i in range(0, len(line_x), 3)
    }
    assert segments == {
        (1.5, -0.5, 1.5, 1.5),  # the vertical border of class 1, two cells long, one segment
        (-0.5, 1.5, 2.5, 1.5),  # the horizontal border above class 2, across the grid
    }
    assert all(v is None for v in line_x[2::3])


def test_every_figure_is_valid_plotly() -> None:
    data = make_sine(60, random_state=0)
    forest = RandomForestRegressor(n_estimators=3, random_state=0).fit(data.X, data.y)
    xs = np.linspace(0, 10, 20)
    spread = compute_spread(
        "regression",
        grid_values=forest.predict_per_tree(xs.reshape(-1, 1)),
        test_values=forest.predict_per_tree(data.X[:10]),
        X_test=data.X[:10],
        y_test=data.y[:10],
        xs=xs,
        feature_names=("x",),
    )
    assert spread.parts is not None
    for figure in (
        spread_figure(spread),
        spread_figure(spread, average=False),
        averaging_figure(spread),
        decomposition_figure(spread.parts),
    ):
        go.Figure(figure.to_dict())  # raises on an invalid property
    assert len(spread_figure(spread, average=False).data) == len(spread_figure(spread).data) - 1


def test_a_staircase_keeps_only_its_corners_and_draws_the_same_steps() -> None:
    xs = np.linspace(0.0, 9.0, 10)
    values = np.array([1.0, 1.0, 1.0, 4.0, 4.0, 2.0, 2.0, 2.0, 2.0, 2.0])
    x, y = step_points(xs, values)
    np.testing.assert_array_equal(x, [0.0, 3.0, 5.0, 9.0])
    np.testing.assert_array_equal(y, [1.0, 4.0, 2.0, 2.0])
    # Drawn "hv", each kept point's value holds until the next: every x of the full line.
    held = y[np.searchsorted(x, xs, side="right") - 1]
    np.testing.assert_array_equal(held, values)
    flat = np.full(5, 3.0)
    np.testing.assert_array_equal(step_points(np.arange(5.0), flat)[0], [0.0, 4.0])


def test_the_trees_staircases_send_their_corners_only() -> None:
    rng = np.random.default_rng(0)
    xs = np.linspace(0.0, 1.0, 400)
    tree_values = np.stack([np.round(np.sin(6 * xs + k) * 3) for k in range(5)])
    spread = compute_spread(
        "regression",
        grid_values=tree_values,
        test_values=tree_values[:, :20],
        X_test=rng.random((20, 1)),
        y_test=rng.random(20),
        xs=xs,
        feature_names=("x",),
    )
    (lines, *_) = spread_figure(spread).data
    corners = sum(len(step_points(xs, v)[0]) for v in tree_values)
    assert len(lines.x) == corners + 5, "each tree's corners and a gap after it"
    assert corners < len(xs) * 5 / 10
