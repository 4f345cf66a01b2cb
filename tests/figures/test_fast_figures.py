"""The builders skip Plotly's validation (build_figure): prove nothing invalid slips through.

Each figure a page shows is passed through Plotly's validating constructor; an unknown or
misspelt property, a value of the wrong type or a bad enumeration would raise there or come
back changed, so "the same JSON back" means the unvalidated figure is a valid one. The shared
look is also checked against what the validating ``update_layout`` path gives.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest
from sklearn.datasets import load_iris

from core import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from core.engine.splits import compare_with_best
from core.figures import (
    boundary_figure,
    compute_boundary,
    compute_depth_curve,
    compute_forest_curve,
    compute_importances,
    compute_impurity_curves,
    compute_regression_lines,
    compute_split_scan,
    depth_curve_figure,
    forest_curve_figure,
    importance_figure,
    impurity_figure,
    regression_figure,
    split_scan_figure,
)
from core.figures._layout import DeferredFigure, build_figure, styled_layout
from core.figures.growth import add_split_segment, split_comparison_figure, split_segment
from core.figures.overlays import LEGEND_GAP_PX, add_vertical_line, mark_sample
from core.figures.pruning_walk import compute_pruning_walk, pruning_walk_figure
from core.figures.votes import compute_votes, vote_figure
from core.figures.wire import wire_form
from tests.figures.reference_look import legend_below, style_figure


def _json(figure: go.Figure) -> Any:
    return json.loads(pio.to_json(figure, validate=False))


def assert_valid(figure: go.Figure) -> None:
    """The figure survives Plotly's validating constructor unchanged, and the pages send it
    as Plotly would: :func:`~core.figures.wire.wire_form` of the figure nothing has read yet
    (made from the builder's own dicts) is the same JSON up to the order of keys, and of the
    figure once read, the same JSON byte for byte."""
    unread = None
    if type(figure) is DeferredFigure:  # as a builder returns it (a test may read it first)
        unread = wire_form(figure)
        assert type(figure) is DeferredFigure, "wire_form made no Plotly objects"
    assert figure._validate is False  # the fast path, or this test proves nothing
    assert type(figure) is go.Figure, "once read, a plain figure"
    validated = go.Figure(figure.to_dict())  # raises on an invalid property or value
    assert _json(validated) == _json(figure)
    plotly_form = pio.to_json(figure.to_dict(), validate=False)
    assert pio.to_json(wire_form(figure), validate=False) == plotly_form
    if unread is not None:
        assert json.loads(pio.to_json(unread, validate=False)) == json.loads(plotly_form)


@pytest.fixture(scope="module")
def iris_halves() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    iris = load_iris()
    order = np.random.default_rng(0).permutation(150)
    train, test = order[:100], order[100:]
    return iris.data[train], iris.target[train], iris.data[test], iris.target[test]


@pytest.fixture(scope="module")
def forest(iris_halves: Any) -> RandomForestClassifier:
    X, y, _, _ = iris_halves
    return RandomForestClassifier(n_estimators=12, oob_score=True, random_state=0).fit(X, y)


@pytest.mark.parametrize("categories", [(None, None), (("sex", "female"), None)])
@pytest.mark.parametrize("features", [(2, 3), (0, 1)])
def test_boundary_figure_is_valid(iris_halves: Any, features: Any, categories: Any) -> None:
    X, y, Xt, yt = iris_halves
    # Fitted on all four features: the (0, 1) view is a slice, with a two-line title.
    tree = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    data = compute_boundary(
        tree,
        X,
        y,
        X_test=Xt,
        y_test=yt,
        features=features,
        class_names=["setosa", "versicolor", "virginica"],
    )
    figure = boundary_figure(data, categories=categories)
    assert_valid(figure)
    # The legend merged below before the figure is made, or moved there afterwards: the same.
    below = boundary_figure(data, categories=categories, legend_below=True)
    assert _json(below) == _json(legend_below(boundary_figure(data, categories=categories)))
    mark_sample(legend_below(figure), (1.0, 2.0), "test sample #3")
    assert_valid(figure)
    layout = figure.layout
    assert (layout.legend.orientation, layout.margin.b) == ("h", 130)
    # LEGEND_GAP_PX under the plot, which is the figure less its top and 130 px bottom margins.
    plot = layout.height - layout.margin.t - 130
    assert layout.legend.y * plot == pytest.approx(-LEGEND_GAP_PX, abs=0.05)
    assert figure.data[-1].marker.symbol == "star"
    assert list(layout.xaxis.range) == [data.grid.x_edges[0], data.grid.x_edges[-1]]
    if categories[0] is not None:
        assert list(layout.xaxis.ticktext) == ["no", "yes"]


@pytest.mark.parametrize("log_x", [False, True])
@pytest.mark.parametrize("current", [None, 5])
def test_curve_figures_are_valid(
    iris_halves: Any, forest: Any, log_x: bool, current: int | None
) -> None:
    X, y, Xt, yt = iris_halves
    curve = compute_forest_curve(forest, X, y, X_test=Xt, y_test=yt)
    figure = forest_curve_figure(curve, current=current, log_x=log_x)
    assert_valid(figure)
    assert figure.layout.xaxis.type == ("log" if log_x else None)
    assert len(figure.layout.shapes) == (current is not None)
    depth = compute_depth_curve(
        lambda **kw: DecisionTreeClassifier(random_state=0, **kw), X, y, Xt, yt, depths=[1, 2, 3]
    )
    assert_valid(legend_below(depth_curve_figure(depth, current=current, title="")))
    # The legend merged in by the builder is the one legend_below puts on the finished figure.
    below = depth_curve_figure(depth, current=current, title="", legend_below=True)
    assert _json(below) == _json(legend_below(depth_curve_figure(depth, current=current, title="")))


def test_vote_importance_and_impurity_figures_are_valid(iris_halves: Any, forest: Any) -> None:
    _, _, Xt, yt = iris_halves
    votes = compute_votes(forest, Xt[0], float(yt[0]), ["setosa", "versicolor", "virginica"])
    figure = vote_figure(votes)
    assert_valid(figure)
    # 12 trees: the hard-vote bar of each class is its share of the trees, in percent.
    np.testing.assert_allclose(figure.data[0].y, 100 * votes.winners / 12)
    assert_valid(importance_figure(compute_importances(forest, top=3)))
    curves = compute_impurity_curves(marker_p=0.25, class_name="setosa")
    assert_valid(legend_below(impurity_figure(curves)))
    below = impurity_figure(curves, legend_below=True)
    assert _json(below) == _json(legend_below(impurity_figure(curves)))


def test_the_vote_chart_reads_at_1280(iris_halves: Any, forest: Any) -> None:
    # Issue 24: "967 of 1000 trees" was shrunk to its bar's width (6-7 px at 1280), the axis
    # title "percent" ran over its ticks, and the legend below covered the class names.
    _, _, Xt, yt = iris_halves
    figure = vote_figure(compute_votes(forest, Xt[0], float(yt[0]), ["a", "b", "c"]))
    layout = figure.layout
    assert layout.uniformtext.minsize >= 11 and layout.uniformtext.mode == "show"
    assert all(trace.textfont.size >= 11 for trace in figure.data)
    assert all(len(text) <= 6 for trace in figure.data for text in trace.text)  # "12", "67%"
    # A count alone: "974/1000" beside "97%" ran into it on a phone; the legend says of how many.
    hard = figure.data[0]
    assert list(hard.text) == [str(n) if n else "" for n in hard.customdata]
    assert hard.name == "trees voting for it, of 12"
    assert not layout.yaxis.title.text and layout.yaxis.ticksuffix == "%"
    assert layout.legend.y >= 1 and layout.legend.yanchor == "bottom"
    # Only the average's bars are pale: its labels keep the full text colour.
    soft = figure.data[1]
    assert soft.marker.opacity < 1 and soft.opacity is None


def test_regression_figures_are_valid() -> None:
    rng = np.random.default_rng(1)
    X = rng.uniform(0, 10, (60, 1))
    y = np.sin(X[:, 0]) + rng.normal(0, 0.1, 60)
    tree = DecisionTreeRegressor(max_depth=3).fit(X[:40], y[:40])
    forest = RandomForestRegressor(n_estimators=8, random_state=0).fit(X[:40], y[:40])
    lines = compute_regression_lines(
        {"tree": tree, "forest": forest}, X[:40], y[:40], X_test=X[40:], y_test=y[40:]
    )
    figure = regression_figure(lines, target_name="y")
    assert_valid(figure)
    below = regression_figure(lines, target_name="y", legend_below=True)
    assert _json(below) == _json(legend_below(regression_figure(lines, target_name="y")))
    assert below.layout.legend.orientation == "h" and figure.layout.legend.orientation is None
    add_vertical_line(figure, 5.0, {"color": "#000000", "width": 3, "dash": "dash"})
    assert_valid(mark_sample(figure, (5.0, 0.0), "test sample #0"))
    assert figure.layout.shapes[0].x0 == 5.0
    votes = compute_votes(forest, X[40], float(y[40]))
    assert_valid(vote_figure(votes))  # a histogram with two labelled lines


@pytest.mark.parametrize(("max_panels", "columns"), [(1, 3), (3, 3), (4, 3), (5, 2)])
def test_split_scan_figure_is_valid_on_any_grid(max_panels: int, columns: int) -> None:
    iris = load_iris()
    tree = DecisionTreeClassifier(max_depth=2).fit(iris.data, iris.target)
    scan = compute_split_scan(tree, iris.data, iris.target, 0)
    figure = split_scan_figure(scan, max_panels=max_panels, columns=columns)
    assert_valid(figure)
    curves = [t for t in figure.data if t.mode == "lines+markers"]
    panels = min(max_panels, 4)  # iris has four features
    assert len(curves) == panels
    cols = min(columns, panels)
    # One y title per row, on the first panel of the row; every panel's x axis says threshold.
    axes = [f"{k + 1 if k else ''}" for k in range(panels)]
    y_titles = [figure.layout[f"yaxis{n}"].title.text for n in axes]
    assert y_titles == ["weighted child gini" if k % cols == 0 else "" for k in range(panels)]
    assert {figure.layout[f"xaxis{n}"].title.text for n in axes} == {"threshold"}
    # Each panel is titled with the feature its curve scans, and the curve sits on its axes.
    assert [a.text for a in figure.layout.annotations] == [t.name for t in curves]
    assert [(t.xaxis, t.yaxis) for t in curves] == [(f"x{n}", f"y{n}") for n in axes]


@pytest.mark.parametrize("alpha", [None, 0.0, 0.01])
def test_pruning_walk_figure_is_valid(iris_halves: Any, alpha: float | None) -> None:
    X, y, Xt, yt = iris_halves
    tree = DecisionTreeClassifier(random_state=0).fit(X, y)
    walk = replace(compute_pruning_walk(tree, X, y, Xt, yt), current_alpha=alpha)
    figure = pruning_walk_figure(walk)
    assert_valid(figure)
    # Leaves on the top panel, scores on the bottom one; the alpha axis titled once, below.
    assert [(t.name, t.yaxis) for t in figure.data[:3]] == [
        ("leaves", "y"),
        ("train accuracy", "y2"),
        ("test accuracy", "y2"),
    ]
    layout = figure.layout
    assert (layout.xaxis.title.text, layout.xaxis2.title.text) == ("", "ccp_alpha")
    assert (layout.yaxis.title.text, layout.yaxis2.title.text) == ("leaves", "accuracy")
    assert len(layout.shapes) == (0 if alpha is None else 2)


def test_split_comparison_and_segment_are_valid() -> None:
    X = np.array([[1.0, 0.0], [2.0, 1.0], [3.0, 0.0], [4.0, 0.0], [5.0, 1.0]])
    y = np.array([0, 0, 1, 1, 0])
    figure = split_comparison_figure(compare_with_best(X, y, 0, 1.5, "gini", 2), ["a", "b"])
    assert_valid(figure)
    assert figure.layout.yaxis.autorange == "reversed"
    tree = DecisionTreeClassifier(max_depth=1).fit(X, y)
    segment = split_segment(
        tree.tree_, 0, (0, 1), x_range=(0.0, 6.0), y_range=(-1.0, 2.0), feature_names=["a", "b"]
    )
    assert segment is not None
    data = compute_boundary(tree, X, y)
    figure = add_split_segment(boundary_figure(data), segment)
    assert_valid(figure)
    # The root splits a <= 2.5 (hand tree of tests/figures/conftest.py): a vertical segment.
    assert list(figure.data[-1].x) == [2.5, 2.5]


@pytest.mark.parametrize(
    "title", [None, "", "A title long enough to wrap over two lines, or three"]
)
def test_styled_layout_is_what_style_figure_gives(title: str | None) -> None:
    """The shared look as one dict equals the look the validating update_* calls give."""
    old = style_figure(go.Figure(), title=title, x_title="x name", y_title="y name", height=400)
    new = build_figure(
        [], styled_layout(title=title, x_title="x name", y_title="y name", height=400)
    )
    assert _json(new) == _json(old)
    template = go.Figure(layout={"template": "none"}).to_dict()["layout"]["template"]
    assert new.to_dict()["layout"]["template"] == template
