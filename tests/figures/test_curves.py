"""Score curves, impurity functions, the split scan and importances: numbers first."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import plotly.graph_objects as go
import pytest

from core import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from core.figures import (
    compute_depth_curve,
    compute_forest_curve,
    compute_importances,
    compute_impurity_curves,
    compute_split_scan,
    depth_curve_figure,
    forest_curve_figure,
    importance_figure,
    impurity_figure,
    node_proportion,
    split_scan_figure,
)
from core.figures._layout import TITLE_WIDTH
from core.figures.importances import Importances, wrap_name
from tests.figures.reference_look import style_figure


@pytest.fixture(scope="module")
def halves(iris: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    order = np.random.default_rng(0).permutation(150)
    train, test = order[:100], order[100:]
    return iris.data[train], iris.target[train], iris.data[test], iris.target[test]


def test_forest_curve_ends_at_the_forest_score(halves: Any) -> None:
    X, y, Xt, yt = halves
    forest = RandomForestClassifier(n_estimators=25, oob_score=True, random_state=0).fit(X, y)
    curve = compute_forest_curve(forest, X, y, X_test=Xt, y_test=yt)
    assert curve.metric == "accuracy"
    assert list(curve.n_trees) == list(range(1, 26))
    assert curve.test is not None and curve.oob is not None
    assert curve.train[-1] == pytest.approx(np.mean(forest.predict(X) == y))
    assert curve.test[-1] == pytest.approx(np.mean(forest.predict(Xt) == yt))
    assert curve.oob[-1] == pytest.approx(forest.oob_score_)
    # one tree: the first tree's own accuracy
    first = forest.classes_[np.argmax(forest.estimators_[0].predict_proba(Xt), axis=1)]
    assert curve.test[0] == pytest.approx(np.mean(first == yt))


def test_forest_curve_regression_r2() -> None:
    rng = np.random.default_rng(0)
    X = rng.uniform(0, 6, size=(120, 1))
    y = np.sin(X[:, 0]) + rng.normal(0, 0.1, 120)
    forest = RandomForestRegressor(n_estimators=12, random_state=0).fit(X[:80], y[:80])
    curve = compute_forest_curve(forest, X[:80], y[:80], X_test=X[80:], y_test=y[80:])
    assert curve.metric == "R²"
    assert curve.test is not None
    residual = np.sum((forest.predict(X[80:]) - y[80:]) ** 2)
    assert curve.test[-1] == pytest.approx(1 - residual / np.sum((y[80:] - y[80:].mean()) ** 2))


def test_forest_curve_is_the_forests_own_staged_scores(halves: Any) -> None:
    X, y, Xt, yt = halves
    forest = RandomForestClassifier(n_estimators=20, oob_score=True, random_state=1).fit(X, y)
    curve = compute_forest_curve(forest, X, y, X_test=Xt, y_test=yt)
    np.testing.assert_array_equal(curve.train, forest.staged_scores(X, y))
    assert curve.test is not None and curve.oob is not None
    np.testing.assert_array_equal(curve.test, forest.staged_scores(Xt, yt))
    np.testing.assert_array_equal(curve.oob, forest.oob_staged_scores_)
    without_oob = RandomForestClassifier(n_estimators=20, random_state=1).fit(X, y)
    assert compute_forest_curve(without_oob, X, y).oob is None


def test_regression_curves_score_a_constant_target_as_the_models_do() -> None:
    # R² of a constant target is 0/0; the forest's staged score and every model's ``score``
    # follow one convention (1 when predicted exactly), and so must both curves.
    X = np.arange(20.0).reshape(-1, 1)
    y = np.full(20, 3.0)
    forest = RandomForestRegressor(n_estimators=4, random_state=0).fit(X, y)
    curve = compute_forest_curve(forest, X, y, X_test=X, y_test=y)
    assert curve.train.tolist() == [forest.score(X, y)] * 4 == [1.0] * 4
    depth = compute_depth_curve(
        DecisionTreeRegressor, X, y, X, y, depths=[1, 2], criteria=["squared_error"]
    )
    assert depth.metric == "R²"
    assert depth.test.tolist() == [[1.0, 1.0]]


def test_forest_curve_figure_marks_current(halves: Any) -> None:
    X, y, Xt, yt = halves
    forest = RandomForestClassifier(n_estimators=20, oob_score=True, random_state=0).fit(X, y)
    curve = compute_forest_curve(forest, X, y, X_test=Xt, y_test=yt)
    fig = forest_curve_figure(curve, current=4)
    assert curve.oob is not None
    markers = [float(t.y[0]) for t in fig.data if t.mode == "markers"]
    assert markers == [curve.train[3], curve.test[3], curve.oob[3]]  # type: ignore[index]
    assert fig.layout.shapes[0].x0 == 4
    assert [t.name for t in fig.data if t.mode == "lines"] == ["train", "test", "out-of-bag"]
    no_test = forest_curve_figure(compute_forest_curve(forest, X, y))
    assert [t.name for t in no_test.data] == ["train", "out-of-bag"]
    with pytest.raises(TypeError, match="forest must be a fitted forest"):
        compute_forest_curve(DecisionTreeClassifier().fit(X, y), X, y)


def test_a_log_axis_of_trees_ticks_at_the_powers_of_ten(halves: Any) -> None:
    # Issue 24: Plotly's own log ticks (2 and 5 in each decade) ran "5" and "1000" together
    # into "51000" at 1280 wide.
    X, y, Xt, yt = halves
    forest = RandomForestClassifier(n_estimators=120, random_state=0).fit(X, y)
    curve = compute_forest_curve(forest, X, y, X_test=Xt, y_test=yt)
    axis = forest_curve_figure(curve, log_x=True).layout.xaxis
    assert axis.type == "log"
    assert list(axis.tickvals) == [1, 10, 100]
    assert list(axis.ticktext) == ["1", "10", "100"]
    assert forest_curve_figure(curve).layout.xaxis.tickvals is None


def test_depth_curve_fits_each_criterion_and_depth(halves: Any) -> None:
    X, y, Xt, yt = halves
    calls: list[tuple[str, int]] = []

    def factory(*, criterion: str, max_depth: int) -> DecisionTreeClassifier:
        calls.append((criterion, max_depth))
        return DecisionTreeClassifier(criterion=criterion, max_depth=max_depth, random_state=0)

    curve = compute_depth_curve(factory, X, y, Xt, yt, depths=[1, 2, 3])
    # One tree per criterion, grown to the deepest depth; the shallower ones are cut from it.
    assert calls == [("gini", 3), ("entropy", 3)]
    calls.clear()
    refitted = compute_depth_curve(factory, X, y, Xt, yt, depths=[1, 2, 3], refit=True)
    assert calls == [
        ("gini", 3),
        ("gini", 1),
        ("gini", 2),
        ("gini", 3),
        ("entropy", 3),
        ("entropy", 1),
        ("entropy", 2),
        ("entropy", 3),
    ]
    np.testing.assert_array_equal(curve.train, refitted.train)
    np.testing.assert_array_equal(curve.test, refitted.test)
    stump = DecisionTreeClassifier(criterion="entropy", max_depth=1, random_state=0).fit(X, y)
    assert curve.test[1, 0] == pytest.approx(np.mean(stump.predict(Xt) == yt))
    assert curve.train[0, 2] == pytest.approx(
        np.mean(DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y).predict(X) == y)
    )
    fig = depth_curve_figure(curve, current=2)
    assert [t.name for t in fig.data] == [
        "gini, train",
        "gini, test",
        "entropy, train",
        "entropy, test",
    ]
    with pytest.raises(ValueError, match="depths must all be >= 1"):
        compute_depth_curve(factory, X, y, Xt, yt, depths=[0])


def test_impurity_curves_values() -> None:
    curves = compute_impurity_curves(n_points=5, marker_p=0.25, class_name="yes")
    assert curves.p.tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    np.testing.assert_allclose(curves.gini, [0, 0.375, 0.5, 0.375, 0], atol=1e-12)
    h = -(0.25 * np.log2(0.25) + 0.75 * np.log2(0.75))
    np.testing.assert_allclose(curves.entropy, [0, h, 1, h, 0], atol=1e-12)
    np.testing.assert_allclose(curves.misclassification, [0, 0.25, 0.5, 0.25, 0], atol=1e-12)
    fig = impurity_figure(curves)
    marks = [float(t.y[0]) for t in fig.data if t.mode == "markers"]
    assert marks == pytest.approx([0.375, h, 0.25])
    assert "share of yes" in fig.layout.xaxis.title.text
    with pytest.raises(ValueError, match="marker_p must be in"):
        compute_impurity_curves(marker_p=1.5)


def test_node_proportion(iris: Any) -> None:
    model = DecisionTreeClassifier(max_depth=2, random_state=0).fit(iris.data, iris.target)
    right = int(model.tree_.children_right[0])
    assert node_proportion(model, right) == pytest.approx(0.5)  # versicolor 50 of 100
    assert node_proportion(model, 0, class_index=2) == pytest.approx(1 / 3)


@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_scan_minimum_is_the_chosen_split(iris: Any, criterion: str) -> None:
    X, y = iris.data, iris.target
    model = DecisionTreeClassifier(criterion=criterion, random_state=0).fit(X, y)
    internal = np.flatnonzero(model.tree_.children_left != -1)[:4]
    for node in internal:
        data = compute_split_scan(model, X, y, int(node), feature_names=iris.feature_names)
        best = min(s.best_impurity for s in data.scans if s.best_impurity is not None)
        assert data.chosen_impurity == pytest.approx(best, abs=1e-12)
        assert data.n_samples == model.tree_.n_node_samples[node]
        assert data.parent_impurity == pytest.approx(model.tree_.impurity[node])
        chosen = data.scans[data.chosen_feature]
        assert chosen.best_threshold == pytest.approx(data.chosen_threshold, abs=1e-6)
    fig = split_scan_figure(data)
    star = next(t for t in fig.data if t.name == "the tree's split")
    assert float(star.x[0]) == pytest.approx(data.chosen_threshold)
    assert fig.layout.annotations[0].text == iris.feature_names[data.chosen_feature]


def test_scan_keeps_a_fractional_min_samples_leaf(iris: Any) -> None:
    # min_samples_leaf=0.1 of 150 rows is 15: the scan offers only thresholds leaving 15 rows
    # on each side, as the fit did, so the tree's split is still the scan's lowest point.
    X, y = iris.data, iris.target
    model = DecisionTreeClassifier(min_samples_leaf=0.1, random_state=0).fit(X, y)
    data = compute_split_scan(model, X, y, 0)
    for scan in data.scans:
        on_left = (X[:, scan.feature][:, None] <= scan.thresholds).sum(axis=0)
        assert on_left.min() >= 15 and (len(X) - on_left).min() >= 15
    best = min(s.best_impurity for s in data.scans if s.best_impurity is not None)
    assert data.chosen_impurity == pytest.approx(best, abs=1e-12)


def test_scan_at_a_leaf_has_no_chosen_split(iris: Any) -> None:
    model = DecisionTreeClassifier(max_depth=1, random_state=0).fit(iris.data, iris.target)
    data = compute_split_scan(model, iris.data, iris.target, 1)  # the pure setosa leaf
    assert data.chosen_feature is None and data.chosen_impurity is None
    assert data.parent_impurity == 0.0
    with pytest.raises(ValueError, match=r"node_id must be in \[0, 2\]"):
        compute_split_scan(model, iris.data, iris.target, 3)


def test_importances_sorted(iris: Any) -> None:
    forest = RandomForestClassifier(n_estimators=8, random_state=0).fit(iris.data, iris.target)
    full = compute_importances(forest, feature_names=iris.feature_names)
    assert full.values.sum() == pytest.approx(1.0)
    assert list(full.values) == sorted(full.values, reverse=True)
    assert full.names[0] == iris.feature_names[int(np.argmax(forest.feature_importances_))]
    assert full.spread is not None and np.all(full.spread >= 0)
    top = compute_importances(forest, feature_names=iris.feature_names, top=2)
    assert top.names == full.names[:2] and top.hidden == 2
    fig = importance_figure(top)
    assert list(fig.data[0].y) == [full.names[1], full.names[0]]  # largest drawn on top
    tree = compute_importances(DecisionTreeClassifier(random_state=0).fit(iris.data, iris.target))
    assert tree.spread is None and tree.names[0].startswith("x[")


def test_empty_title_means_no_title_and_none_means_the_default(iris: Any, halves: Any) -> None:
    X, y, Xt, yt = halves
    forest = RandomForestClassifier(n_estimators=3, random_state=0).fit(X, y)
    depth = compute_depth_curve(
        functools.partial(DecisionTreeClassifier, random_state=0), X, y, Xt, yt, depths=[1, 2]
    )
    tree = DecisionTreeClassifier(max_depth=2, random_state=0).fit(iris.data, iris.target)
    builders = {
        "Accuracy as trees are added": functools.partial(
            forest_curve_figure, compute_forest_curve(forest, X, y, X_test=Xt, y_test=yt)
        ),
        "Train and test accuracy by tree depth": functools.partial(depth_curve_figure, depth),
        "Impurity of a node with two classes": functools.partial(
            impurity_figure, compute_impurity_curves(n_points=5)
        ),
        "Why node 0 splits here (150 samples)": functools.partial(
            split_scan_figure, compute_split_scan(tree, iris.data, iris.target, 0)
        ),
        "Feature importance (mean decrease in impurity)": functools.partial(
            importance_figure, compute_importances(forest)
        ),
    }
    for default, build in builders.items():
        assert build().layout.title.text.replace("<br>", " ") == default
        assert build(title="").layout.title.text in (None, "")
        assert build(title="Mine").layout.title.text == "Mine"


@pytest.mark.parametrize(
    ("name", "wrapped"),
    [
        ("alcohol", "alcohol"),
        ("od280/od315_of_diluted_wines", "od280/od315_of_<br>diluted_wines"),
        ("worst fractal dimension", "worst fractal<br>dimension"),
        ("x" * 20, "x" * 16 + "<br>" + "x" * 4),
    ],
)
def test_long_feature_names_wrap_and_keep_every_character(name: str, wrapped: str) -> None:
    assert wrap_name(name) == wrapped
    # Only a space where a line breaks may go.
    assert wrap_name(name).replace("<br>", "").replace(" ", "") == name.replace(" ", "")


def test_importance_bars_show_full_names_on_hover_and_grow_with_wrapped_lines() -> None:
    names = ("od280/od315_of_diluted_wines", "alcohol")
    short = Importances(("a", "b"), np.array([0.6, 0.4]), None, 0)
    long = Importances(names, np.array([0.6, 0.4]), None, 0)
    bar = importance_figure(long).data[0]
    assert list(bar.customdata) == ["alcohol", "od280/od315_of_diluted_wines"]
    assert "%{customdata}" in bar.hovertemplate
    assert list(bar.y) == ["alcohol", "od280/od315_of_<br>diluted_wines"]
    assert importance_figure(long).layout.height > importance_figure(short).layout.height


def test_a_long_title_wraps_to_fit_a_phone_and_the_margin_makes_room() -> None:
    title = "Slice of the full model: mean radius vs mean texture (other features at medians)"
    long = style_figure(go.Figure(), title=title, x_title="x", y_title="y")
    short = style_figure(go.Figure(), title="Decision regions", x_title="x", y_title="y")
    lines = long.layout.title.text.split("<br>")
    assert len(lines) >= 2
    assert all(len(line) <= TITLE_WIDTH for line in lines)
    assert " ".join(lines) == title
    assert long.layout.margin.t > short.layout.margin.t
    assert short.layout.title.text == "Decision regions"


def _noisy(seed: int, n: int, features: int, classes: int, missing: float):
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, features)), 1)  # rounded: many tied values and thresholds
    y = (X[:, 0] + 0.5 * X[:, 1] + rng.normal(scale=0.8, size=n) > 0).astype(int)
    if classes > 2:
        y = y + (X[:, 2] > 0.5).astype(int)
    X[rng.random(X.shape) < missing] = np.nan
    return X[: n // 2], y[: n // 2], X[n // 2 :], y[n // 2 :]


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("min_samples_leaf", [1, 4])
@pytest.mark.parametrize("max_features", [None, 2])
@pytest.mark.parametrize("missing", [0.0, 0.1])
def test_a_tree_cut_to_each_depth_scores_as_one_grown_to_it(
    seed: int, min_samples_leaf: int, max_features: int | None, missing: float
) -> None:
    # The cut is exact: each shallower tree equals the one a fit with that max_depth grows,
    # with the feature draws and missing values too, for every criterion.
    X, y, Xt, yt = _noisy(seed, 400, 4, 3, missing)
    make = functools.partial(
        DecisionTreeClassifier,
        min_samples_leaf=min_samples_leaf,
        max_features=max_features,
        random_state=seed,
    )
    cut = compute_depth_curve(make, X, y, Xt, yt)
    refit = compute_depth_curve(make, X, y, Xt, yt, refit=True)
    np.testing.assert_array_equal(cut.train, refit.train)
    np.testing.assert_array_equal(cut.test, refit.test)
    reg = functools.partial(
        DecisionTreeRegressor,
        min_samples_leaf=min_samples_leaf,
        max_features=max_features,
        random_state=seed,
    )
    target = X[:, 0] * 2.0 + np.nan_to_num(X[:, 1])
    target_test = Xt[:, 0] * 2.0 + np.nan_to_num(Xt[:, 1])
    keep, keep_test = ~np.isnan(target), ~np.isnan(target_test)
    criteria = ("squared_error", "absolute_error")
    args = (X[keep], target[keep], Xt[keep_test], target_test[keep_test])
    cut = compute_depth_curve(reg, *args, depths=[1, 2, 3, 5], criteria=criteria)
    refit = compute_depth_curve(reg, *args, depths=[1, 2, 3, 5], criteria=criteria, refit=True)
    np.testing.assert_array_equal(cut.train, refit.train)
    np.testing.assert_array_equal(cut.test, refit.test)


def test_a_pruned_tree_is_fitted_at_every_depth(halves: Any) -> None:
    # Pruning acts on the whole grown tree, so a cut would not be the tree a fit grows.
    X, y, Xt, yt = halves
    calls: list[int] = []

    def factory(*, criterion: str, max_depth: int) -> DecisionTreeClassifier:
        calls.append(max_depth)
        return DecisionTreeClassifier(criterion=criterion, max_depth=max_depth, ccp_alpha=0.02)

    compute_depth_curve(factory, X, y, Xt, yt, depths=[1, 2, 3], criteria=("gini",))
    assert calls == [3, 1, 2, 3]
