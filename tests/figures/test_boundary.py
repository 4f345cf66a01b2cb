"""Decision boundaries and regression steps: grid numbers first, then the figure's contents."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from core import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from core.figures import (
    boundary_figure,
    class_color,
    compute_boundary,
    compute_regression_lines,
    grid_resolution,
    regression_figure,
    split_points,
)


@pytest.fixture(scope="module")
def iris_split(iris: Any) -> dict[str, Any]:
    order = np.random.default_rng(0).permutation(len(iris.target))
    train, test = np.sort(order[:110]), np.sort(order[110:])
    return {"X": iris.data, "y": iris.target, "train": train, "test": test}


@pytest.mark.parametrize(
    ("kind", "params"),
    [(DecisionTreeClassifier, {"max_depth": 3}), (RandomForestClassifier, {"n_estimators": 10})],
    ids=["tree", "forest"],
)
def test_regions_agree_with_predict(
    iris_split: dict[str, Any], iris: Any, kind: Any, params: dict[str, int]
) -> None:
    s = iris_split
    X_train, y_train = s["X"][s["train"]][:, 2:], s["y"][s["train"]]
    model = kind(random_state=0, **params).fit(X_train, y_train)
    data = compute_boundary(
        model, X_train, y_train, feature_names=iris.feature_names[2:], resolution=60
    )
    grid = data.grid
    assert grid.proba.shape == (60, 60, 3)
    assert not grid.is_slice
    predicted = model.predict(grid.points()).reshape(60, 60)
    np.testing.assert_array_equal(model.classes_[grid.predicted], predicted)
    np.testing.assert_allclose(grid.proba.sum(axis=2), 1.0)
    # rows of the grid are y, columns x: the point at [i, j] is (x[j], y[i])
    i, j = 7, 41
    np.testing.assert_allclose(model.predict_proba([[grid.x[j], grid.y[i]]])[0], grid.proba[i, j])
    assert grid.confidence.min() >= 0.0 and grid.confidence.max() <= 1.0


def test_slice_of_full_model_holds_medians(iris_split: dict[str, Any]) -> None:
    s = iris_split
    X_train, y_train = s["X"][s["train"]], s["y"][s["train"]]
    model = DecisionTreeClassifier(random_state=0).fit(X_train, y_train)
    data = compute_boundary(model, X_train, y_train, features=(2, 3), resolution=40)
    assert data.grid.is_slice
    rows = data.grid.points()
    np.testing.assert_allclose(rows[:, :2], np.tile(np.median(X_train[:, :2], axis=0), (1600, 1)))
    np.testing.assert_array_equal(model.classes_[data.grid.predicted.ravel()], model.predict(rows))
    fig = boundary_figure(data)
    # Each line of the small print is small: its own <sup>.
    title = fig.layout.title.text.replace("</sup><br><sup>", " ").replace("<br>", " ")
    assert (
        "<sup>A slice: other features held at the medians; dots coloured by prediction</sup>"
        in title
    )
    assert fig.layout.xaxis.title.text == "x[2]"


def test_slice_through_a_sample_puts_it_in_its_own_region(breast_cancer: Any) -> None:
    # On all 30 features the slice through the medians (a benign-looking row) can be benign
    # everywhere, even for a malignant sample's star; through the traced sample, that sample's
    # own point of the picture shows what the model predicts for it.
    X, y = breast_cancer.data, breast_cancer.target
    model = DecisionTreeClassifier(random_state=0).fit(X[:400], y[:400])
    features = (0, 1)
    medians = compute_boundary(model, X[:400], y[:400], features=features)
    assert set(model.classes_[np.unique(medians.grid.predicted)]) == {1}
    malignant = [i for i in range(400, len(y)) if model.predict(X[i : i + 1])[0] == 0]
    row = X[malignant[0]]
    data = compute_boundary(
        model, X[:400], y[:400], features=features, through=row, through_name="test sample #7"
    )
    grid = data.grid
    np.testing.assert_array_equal(grid.base, row)
    j = int(np.searchsorted(grid.x_edges, row[0]) - 1)
    i = int(np.searchsorted(grid.y_edges, row[1]) - 1)
    assert model.classes_[grid.predicted[i, j]] == model.predict(row[None, :])[0] == 0
    title = boundary_figure(data, title="One tree").layout.title.text
    # The small print's lines hold as many words as the title's width at its smaller size:
    # three lines of it at the title's width ran into the plot (issue 24).
    assert title == (
        "One tree<br><sup>A slice: other features held at test sample #7; dots</sup>"
        "<br><sup>coloured by prediction</sup>"
    )
    with pytest.raises(ValueError, match="through must be one row of 30 values"):
        compute_boundary(model, X[:400], y[:400], through=row[:5])


def test_on_a_slice_each_point_takes_the_colour_of_its_prediction(breast_cancer: Any) -> None:
    # Issue 24: on all 30 features the medians' slice is benign everywhere, and malignant
    # points coloured by their true class sat on it with almost no crosses: the picture
    # contradicted the scores. Coloured by the model's prediction for their own row, a dot
    # differs from its region only where the slice does, and the crosses are the mistakes.
    X, y = breast_cancer.data, breast_cancer.target
    model = DecisionTreeClassifier(random_state=0).fit(X[:400], y[:400])
    data = compute_boundary(model, X[:400], y[:400], X_test=X[400:], y_test=y[400:])
    fig = boundary_figure(data)
    predicted = model.predict(X[400:])
    for k, name in enumerate(data.grid.class_names):
        (test,) = [t for t in fig.data if t.name == name and not t.showlegend]
        assert test.marker.line.color == class_color(k)
        assert len(test.x) == int(np.sum(predicted == model.classes_[k]))
        wrong = sum(truth != name for truth in test.text)  # hover names the true class
        assert wrong == int(np.sum((predicted == model.classes_[k]) & (y[400:] != k)))
    (crosses,) = [t for t in fig.data if t.name == "misclassified"]
    assert len(crosses.x) == int(np.sum(model.predict(X) != y)), "train and test mistakes"


def test_points_carry_row_ids_and_misclassified(iris_split: dict[str, Any], iris: Any) -> None:
    s = iris_split
    X_train, y_train = s["X"][s["train"]][:, :2], s["y"][s["train"]]  # sepal: overlapping classes
    X_test, y_test = s["X"][s["test"]][:, :2], s["y"][s["test"]]
    model = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X_train, y_train)
    data = compute_boundary(
        model,
        X_train,
        y_train,
        X_test=X_test,
        y_test=y_test,
        train_ids=s["train"],
        test_ids=s["test"],
        class_names=list(iris.target_names),
        resolution=30,
    )
    fig = boundary_figure(data)
    ids: list[int] = []
    for trace in fig.data[1:]:
        if trace.customdata is not None and trace.name != "misclassified":
            ids.extend(int(i) for i in trace.customdata)
    assert sorted(ids) == list(range(150))
    wrong = next(t for t in fig.data if t.name == "misclassified")
    expected = np.concatenate(
        [s["train"][model.predict(X_train) != y_train], s["test"][model.predict(X_test) != y_test]]
    )
    assert len(expected) > 0
    assert sorted(int(i) for i in wrong.customdata) == sorted(expected.tolist())
    train_virginica = next(t for t in fig.data if t.name == "virginica" and t.showlegend)
    assert train_virginica.marker.color == class_color(2)
    hollow = [t for t in fig.data if t.legendgroup == "virginica" and t.showlegend is False]
    assert hollow[0].marker.line.color == class_color(2)
    assert {t.name for t in fig.data} >= {"setosa", "versicolor", "virginica", "test point"}


def test_four_classes_and_two_classes() -> None:
    rng = np.random.default_rng(1)
    X = rng.normal(size=(200, 2))
    for n_classes in (2, 4):
        y = (np.arctan2(X[:, 1], X[:, 0]) + np.pi) // (2 * np.pi / n_classes)
        model = DecisionTreeClassifier(max_depth=4, random_state=0).fit(X, y.astype(int))
        data = compute_boundary(model, X, y.astype(int), resolution=25)
        assert set(np.unique(data.grid.predicted)) == set(range(n_classes))
        heatmap = boundary_figure(data).data[0]
        assert heatmap.zmax == n_classes
        assert len(heatmap.colorscale) == 2 * n_classes


def test_grid_resolution_shrinks_with_the_forest(iris_split: dict[str, Any]) -> None:
    # How fast the grid is computed is measured by bench/, never asserted here: a timed test
    # would fail on a slow machine. This checks the resolution rule itself.
    s = iris_split
    X_train, y_train = s["X"][s["train"]][:, 2:], s["y"][s["train"]]
    forest_class = RandomForestClassifier
    forest = forest_class(n_estimators=100, random_state=0).fit(X_train, y_train)
    side = grid_resolution(forest)
    assert side == 150  # sqrt(2.5e6 / 100) = 158, capped at 150 for the browser's sake
    assert grid_resolution(DecisionTreeClassifier().fit(X_train, y_train)) == 150
    big = forest_class(n_estimators=500, random_state=0)
    assert grid_resolution(big.fit(X_train, y_train)) == 70  # sqrt(2.5e6 / 500)
    grid = compute_boundary(forest, X_train, y_train, resolution=side).grid
    assert grid.points().shape == (side * side, 2)


def test_boundary_validation(iris_split: dict[str, Any]) -> None:
    s = iris_split
    X, y = s["X"][s["train"]], s["y"][s["train"]]
    model = DecisionTreeClassifier(max_depth=1).fit(X, y)
    with pytest.raises(ValueError, match="features must be two different columns"):
        compute_boundary(model, X, y, features=(1, 1))
    with pytest.raises(ValueError, match=r"features must be columns of X_train \(0..3\)"):
        compute_boundary(model, X, y, features=(0, 4))
    with pytest.raises(ValueError, match="class_names must have 3 names"):
        compute_boundary(model, X, y, class_names=["a", "b"])
    with pytest.raises(ValueError, match="X_test and y_test must be given together"):
        compute_boundary(model, X, y, X_test=X)
    regressor = DecisionTreeRegressor(max_depth=1).fit(X, y.astype(float))
    with pytest.raises(TypeError, match="model must be a fitted classifier"):
        compute_boundary(regressor, X, y)


def test_regression_steps_match_predict() -> None:
    rng = np.random.default_rng(0)
    X = rng.uniform(0, 2 * np.pi, size=(120, 1))
    y = np.sin(X[:, 0]) + rng.normal(0, 0.1, 120)
    tree = DecisionTreeRegressor
    forest = RandomForestRegressor
    models = {f"depth {d}": tree(max_depth=d).fit(X, y) for d in (1, 2, 4, 8)}
    models["forest"] = forest(n_estimators=10, random_state=0).fit(X, y)
    lines = compute_regression_lines(
        models,
        X[:90],
        y[:90],
        X_test=X[90:],
        y_test=y[90:],
        test_ids=np.arange(90, 120),
        feature_name="x",
    )
    assert lines.names == ("depth 1", "depth 2", "depth 4", "depth 8", "forest")
    for name, prediction in zip(lines.names, lines.predictions, strict=True):
        np.testing.assert_allclose(prediction, models[name].predict(lines.x[:, None]))
    assert len(np.unique(lines.predictions[0])) == 2  # a stump has two steps
    fig = regression_figure(lines)
    assert [t.name for t in fig.data][:2] == ["train points", "test points"]
    assert list(fig.data[1].customdata) == list(range(90, 120))
    assert all(t.line.shape == "hv" for t in fig.data[2:])
    assert fig.layout.xaxis.title.text == "x"


def test_exact_grid_cells_are_constant_regions_of_the_tree(iris_split: dict[str, Any]) -> None:
    s = iris_split
    X, y = s["X"][s["train"]][:, 2:], s["y"][s["train"]]
    model = DecisionTreeClassifier(max_depth=4, random_state=0).fit(X, y)
    grid = compute_boundary(model, X, y).grid
    # The edges are the tree's own split points (inside the plotted range) plus the limits.
    for axis, edges in ((0, grid.x_edges), (1, grid.y_edges)):
        cuts = split_points([model], axis)
        inside = cuts[(cuts > edges[0]) & (cuts < edges[-1])]
        np.testing.assert_array_equal(edges[1:-1], inside)
    # Any point anywhere in a cell is predicted as the cell says: the picture is exact.
    rng = np.random.default_rng(0)
    iy, ix = np.meshgrid(np.arange(grid.y.size), np.arange(grid.x.size), indexing="ij")
    fx, fy = rng.uniform(0.01, 0.99, (2, *iy.shape))
    px = grid.x_edges[ix] + fx * np.diff(grid.x_edges)[ix]
    py = grid.y_edges[iy] + fy * np.diff(grid.y_edges)[iy]
    predicted = model.predict(np.column_stack([px.ravel(), py.ravel()])).reshape(iy.shape)
    np.testing.assert_array_equal(predicted, model.classes_[grid.predicted])
    assert grid.cell_areas().sum() == pytest.approx(1.0)
    assert grid.cell_areas().min() > 0


def test_two_models_share_one_grid_when_asked(iris_split: dict[str, Any]) -> None:
    s = iris_split
    X, y = s["X"][s["train"]][:, 2:], s["y"][s["train"]]
    gini = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    entropy = DecisionTreeClassifier(criterion="entropy", max_depth=3, random_state=0).fit(X, y)
    both = (gini, entropy)
    a = compute_boundary(gini, X, y, edges_from=both).grid
    b = compute_boundary(entropy, X, y, edges_from=both).grid
    np.testing.assert_array_equal(a.x_edges, b.x_edges)
    np.testing.assert_array_equal(a.y_edges, b.y_edges)
    # An explicit resolution asks for equal cells instead.
    uniform = compute_boundary(gini, X, y, resolution=40).grid
    assert uniform.proba.shape[:2] == (40, 40)
    np.testing.assert_allclose(np.diff(uniform.x_edges), np.diff(uniform.x_edges)[0])


def test_a_stump_draws_one_cell_across_the_feature_it_never_uses(
    iris_split: dict[str, Any],
) -> None:
    s = iris_split
    X, y = s["X"][s["train"]][:, 2:], s["y"][s["train"]]
    stump = DecisionTreeClassifier(max_depth=1).fit(X, y)
    data = compute_boundary(stump, X, y)
    used = int(stump.tree_.feature[0])
    # proba is (y cells, x cells): splitting on x (feature 0) leaves one row of cells, and
    # splitting on y leaves one column.
    assert data.grid.proba.shape[used] == 1
    fig = boundary_figure(data)
    assert list(fig.layout.xaxis.range) == [data.grid.x_edges[0], data.grid.x_edges[-1]]
    assert len(fig.data[0].x) == data.grid.proba.shape[1] + 1  # edges, one more than cells
