"""Figures of the growth page: split tables, a node's box and split line, my split vs the tree's."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from numpy.testing import assert_allclose
from sklearn.datasets import load_iris

from core.app.words import comparison_sentence
from core.engine.node_splits import split_candidates
from core.engine.replay import estimator_after, growth_steps, prefix_after
from core.engine.splits import compare_with_best
from core.engine.tree import DecisionTreeClassifier, DecisionTreeRegressor
from core.figures.boundary import compute_boundary
from core.figures.boundary_plot import boundary_figure
from core.figures.growth import (
    add_split_segment,
    boundary_split_segment,
    candidate_rows,
    history_rows,
    node_region,
    rule_text,
    split_comparison_figure,
    split_segment,
)
from core.figures.tree_diagram import build_tree_diagram

# Five samples, two features (tests/figures/conftest.py's hand tree): our engine grows
# x0 <= 2.5 at the root (tied with x1 <= 0.5; the lower feature wins), then x0 <= 4.5 at node 2.
TOY_X = np.array([[1.0, 0.0], [2.0, 1.0], [3.0, 0.0], [4.0, 0.0], [5.0, 1.0]])
TOY_Y = np.array([0, 0, 1, 1, 0])
NAMES = ["a", "b"]


@pytest.fixture(scope="module")
def toy() -> Any:
    return DecisionTreeClassifier().fit(TOY_X, TOY_Y)


@pytest.fixture(scope="module")
def petals() -> tuple[Any, np.ndarray, np.ndarray, list[str]]:
    iris = load_iris()
    X = iris.data[:, 2:]
    names = list(iris.feature_names[2:])
    return DecisionTreeClassifier(max_depth=4).fit(X, iris.target), X, iris.target, names


def test_rule_text() -> None:
    assert rule_text(["petal width (cm)"], 0, 0.8) == "petal width (cm) ≤ 0.8"
    assert rule_text(["x"], 0, 1 / 3) == "x ≤ 0.3333"


def test_history_rows_by_hand(toy: Any) -> None:
    rows = history_rows(growth_steps(toy.tree_), NAMES)
    assert rows == [
        {
            "step": 1,
            "node": 0,
            "rule": "a ≤ 2.5",
            "samples": 5,
            "impurity before": pytest.approx(0.48),
            "weighted impurity after": pytest.approx(4 / 15),
            "gain": pytest.approx(0.48 - 4 / 15),
            "weighted decrease": pytest.approx(0.48 - 4 / 15),
        },
        {
            "step": 2,
            "node": 2,
            "rule": "a ≤ 4.5",
            "samples": 3,
            "impurity before": pytest.approx(4 / 9),
            "weighted impurity after": pytest.approx(0.0),
            "gain": pytest.approx(4 / 9),
            "weighted decrease": pytest.approx(3 / 5 * 4 / 9),
        },
    ]
    assert history_rows(growth_steps(toy.tree_), NAMES, upto=1) == rows[:1]
    assert history_rows(growth_steps(toy.tree_), NAMES, upto=0) == []
    with pytest.raises(ValueError, match="upto must be in"):
        history_rows(growth_steps(toy.tree_), NAMES, upto=3)


def test_candidate_rows_by_hand(toy: Any) -> None:
    rows = candidate_rows(split_candidates(toy, TOY_X, TOY_Y, 0), NAMES)
    # The tree's a <= 2.5, then b <= 0.5: rows 1, 3, 4 (classes 0, 1, 1) left, 2, 5 (0, 0) right.
    assert [r["tree's split"] for r in rows] == [True, False]
    assert [r["rule"] for r in rows] == ["a ≤ 2.5", "b ≤ 0.5"]
    assert [(r["left"], r["right"]) for r in rows] == [
        ("2 (2/0)", "3 (1/2)"),
        ("3 (1/2)", "2 (2/0)"),
    ]
    assert_allclose([r["weighted impurity"] for r in rows], [4 / 15, 4 / 15])  # type: ignore[misc]
    assert_allclose([r["gain"] for r in rows], [0.48 - 4 / 15] * 2)  # type: ignore[misc]


def test_candidate_rows_regression_show_sample_counts() -> None:
    X = np.array([[1.0], [2.0], [3.0], [4.0]])
    y = np.array([1.0, 2.0, 3.0, 10.0])
    model = DecisionTreeRegressor(max_depth=1).fit(X, y)
    (row,) = candidate_rows(split_candidates(model, X, y, 0), ["x"])
    assert (row["rule"], row["left"], row["right"]) == ("x ≤ 3.5", "3", "1")
    assert row["gain"] == pytest.approx(12.0)  # 12.5 - 3/4 * 2/3, see tests/engine


def test_region_and_segment_by_hand(toy: Any) -> None:
    tree = toy.tree_
    ranges = {"x_range": (0.0, 6.0), "y_range": (-1.0, 2.0)}
    root = node_region(tree, 0, (0, 1), **ranges)
    assert (root.x_low, root.x_high, root.y_low, root.y_high) == (0.0, 6.0, -1.0, 2.0)
    right = node_region(tree, 2, (0, 1), **ranges)
    assert (right.x_low, right.x_high, right.y_low, right.y_high) == (2.5, 6.0, -1.0, 2.0)
    inner = node_region(tree, 3, (0, 1), **ranges)
    assert (inner.x_low, inner.x_high) == (2.5, 4.5)
    segment = split_segment(tree, 2, (0, 1), feature_names=NAMES, **ranges)
    assert segment is not None
    assert segment.orientation == "vertical"
    assert (segment.x0, segment.y0, segment.x1, segment.y1) == (4.5, -1.0, 4.5, 2.0)
    assert segment.rule == "a ≤ 4.5"
    # Swapping the axes makes the same split horizontal.
    swapped = split_segment(tree, 2, (1, 0), feature_names=NAMES, x_range=(-1, 2), y_range=(0, 6))
    assert swapped is not None
    assert swapped.orientation == "horizontal"
    assert (swapped.x0, swapped.y0, swapped.x1, swapped.y1) == (-1, 4.5, 2, 4.5)
    assert split_segment(tree, 1, (0, 1), feature_names=NAMES, **ranges) is None  # a leaf


def test_region_holds_exactly_the_points_reaching_the_node(petals: Any) -> None:
    model, _, _, _ = petals
    tree = model.tree_
    xs = np.linspace(0.5, 7.5, 57)
    ys = np.linspace(-0.2, 2.7, 41)
    grid = np.array([(x, y) for x in xs for y in ys])
    reach = model.decision_path(grid).toarray().astype(bool)
    for node in range(tree.node_count):
        r = node_region(tree, node, (0, 1), x_range=(0.0, 8.0), y_range=(-1.0, 3.0))
        inside = (
            (grid[:, 0] > r.x_low)
            & (grid[:, 0] <= r.x_high)
            & (grid[:, 1] > r.y_low)
            & (grid[:, 1] <= r.y_high)
        )
        assert np.array_equal(inside, reach[:, node]), f"node {node}"
        assert r.other_rules == ()


def test_region_keeps_rules_on_unplotted_features() -> None:
    iris = load_iris()
    model = DecisionTreeClassifier(max_depth=3).fit(iris.data, iris.target)
    tree = model.tree_
    deep = int(np.flatnonzero(tree.depth == 3)[0])
    r = node_region(tree, deep, (0, 1), x_range=(4.0, 8.0), y_range=(2.0, 4.5))
    ancestors_elsewhere = [rule for rule in r.other_rules if rule[0] not in (0, 1)]
    assert ancestors_elsewhere and len(ancestors_elsewhere) == len(r.other_rules)
    with pytest.raises(ValueError, match="node must be in"):
        node_region(tree, tree.node_count, (0, 1), x_range=(0, 1), y_range=(0, 1))


def test_newest_split_line_on_a_growth_step_boundary(petals: Any) -> None:
    model, X, y, names = petals
    steps = growth_steps(model.tree_)
    k = 3
    prefix = prefix_after(model.tree_, k, steps)
    grown = estimator_after(model, k, steps)
    data = compute_boundary(grown, X, y, feature_names=names)
    assert prefix.newest is not None
    segment = boundary_split_segment(data, prefix.tree, prefix.newest)
    assert segment is not None
    assert segment.rule == rule_text(
        names, int(steps.feature[k - 1]), float(steps.threshold[k - 1])
    )
    value = segment.x0 if segment.orientation == "vertical" else segment.y0
    assert value == steps.threshold[k - 1]
    # The line lies inside the drawn area and inside the node's box.
    assert data.grid.x_edges[0] <= segment.x0 <= segment.x1 <= data.grid.x_edges[-1]
    assert data.grid.y_edges[0] <= segment.y0 <= segment.y1 <= data.grid.y_edges[-1]
    fig = add_split_segment(boundary_figure(data), segment)
    line = fig.data[-1]
    assert line.name == "newest split"
    assert list(line.x) == [segment.x0, segment.x1]
    assert segment.rule in line.hovertemplate


def test_split_comparison_figure() -> None:
    comparison = compare_with_best(TOY_X, TOY_Y, 0, 1.5, "gini", 2)
    fig = split_comparison_figure(comparison, NAMES)
    bar = fig.data[0]
    # Whose split over its rule, so the labels leave a phone's chart room for the bars.
    assert list(bar.y) == ["your split:<br>a ≤ 1.5", "the tree's best:<br>a ≤ 2.5"]
    assert bar.cliponaxis is False and fig.layout.yaxis.automargin
    assert_allclose(bar.x, [0.08, 0.48 - 4 / 15])
    assert not fig.layout.title.text, "the page shows the comparison in words above the bars"
    # A caller's title, such as the comparison in words, is shown whole (wrapped to fit).
    sentence = comparison_sentence(comparison)
    titled = split_comparison_figure(comparison, NAMES, title=sentence)
    assert titled.layout.title.text.replace("<br>", " ") == sentence
    nothing = compare_with_best(np.ones((3, 2)), np.array([0, 1, 0]), 0, 0.5, "gini", 2)
    assert len(split_comparison_figure(nothing, NAMES).data[0].x) == 1


def test_step_diagram_highlights_the_newest_split(petals: Any) -> None:
    model, _, _, names = petals
    steps = growth_steps(model.tree_)
    for k in (1, len(steps)):
        prefix = prefix_after(model.tree_, k, steps)
        assert prefix.newest is not None
        diagram = build_tree_diagram(
            estimator_after(model, k, steps), feature_names=names, highlight={prefix.newest}
        )
        assert len(diagram.nodes) == 2 * k + 1
        assert [n.node_id for n in diagram.nodes if n.highlighted] == [prefix.newest]
        newest = diagram.node(prefix.newest)
        assert (newest.feature, newest.threshold) == (steps.feature[k - 1], steps.threshold[k - 1])
