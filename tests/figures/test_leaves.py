"""What each leaf holds: counts against the tree's own arrays, order, targets, the figure."""

from __future__ import annotations

from typing import Any

import numpy as np
import plotly.graph_objects as go
import pytest
from sklearn.datasets import load_breast_cancer, load_iris

from core import DecisionTreeClassifier, DecisionTreeRegressor
from core.data.datasets import make_sine
from core.engine.structure import Tree
from core.figures.leaves import compute_leaves, leaves_figure, preorder_leaves
from core.figures.palette import class_color


@pytest.fixture(scope="module")
def iris() -> tuple[Any, np.ndarray, np.ndarray]:
    X, y = load_iris(return_X_y=True)
    return DecisionTreeClassifier(max_depth=4, random_state=0).fit(X, y), X, y


def test_the_hand_tree_leaves_are_its_hand_counts_left_to_right(hand_tree: Any) -> None:
    leaves = compute_leaves(hand_tree, hand_tree.X, hand_tree.y)
    assert leaves.nodes.tolist() == [1, 3, 4]  # node 2's children come after leaf 1
    assert leaves.counts.tolist() == [[2, 0], [0, 2], [1, 0]]
    assert leaves.n_samples.tolist() == [2, 2, 1]
    assert leaves.prediction.tolist() == [0, 1, 0]
    assert leaves.note is None


def test_counts_equal_the_trees_value_times_its_samples(iris: Any) -> None:
    model, X, y = iris
    leaves = compute_leaves(model, X, y)
    t = model.tree_
    expected = t.value[leaves.nodes, 0, :] * t.weighted_n_node_samples[leaves.nodes, None]
    np.testing.assert_allclose(leaves.counts, expected)
    assert leaves.counts.sum() == len(y)  # every training row lands in exactly one leaf
    assert len(leaves.nodes) == model.get_n_leaves()


def test_leaves_come_in_preorder_left_child_first(iris: Any) -> None:
    model, _, _ = iris
    t = model.tree_

    def walk(node: int) -> list[int]:  # the recursive definition, as the docstring states it
        if t.children_left[node] == -1:
            return [node]
        return walk(int(t.children_left[node])) + walk(int(t.children_right[node]))

    assert preorder_leaves(t).tolist() == walk(0)


def test_leaf_order_follows_the_children_not_the_node_ids() -> None:
    # Our trees number nodes depth first, so sorted ids would pass the test above; here the
    # ids run against the drawing: root 0 -> (left 2, right 1), node 2 -> (left 4, right 3).
    samples = np.array([5.0, 1.0, 4.0, 2.0, 2.0])
    tree = Tree(
        children_left=np.array([2, -1, 4, -1, -1]),
        children_right=np.array([1, -1, 3, -1, -1]),
        feature=np.array([0, -2, 0, -2, -2]),
        threshold=np.array([3.5, -2.0, 1.5, -2.0, -2.0]),
        impurity=np.zeros(5),
        n_node_samples=samples.astype(np.int64),
        weighted_n_node_samples=samples,
        value=np.ones((5, 1, 1)),
        n_features=1,
    )
    assert preorder_leaves(tree).tolist() == [4, 3, 1]


def test_rows_the_tree_was_not_grown_on_are_refused(iris: Any) -> None:
    model, X, y = iris
    with pytest.raises(ValueError, match="rows the tree was grown on"):
        compute_leaves(model, X[::2], y[::2])
    with pytest.raises(ValueError, match="y_train has 149"):
        compute_leaves(model, X, y[1:])
    with pytest.raises(ValueError, match="max_leaves must be >= 1, got 0"):
        compute_leaves(model, X, y, max_leaves=0)


def test_regression_targets_reach_their_leaf_and_average_to_its_value() -> None:
    data = make_sine(200, random_state=0)
    model = DecisionTreeRegressor(max_depth=3, random_state=0).fit(data.X, data.y)
    leaves = compute_leaves(model, data.X, data.y)
    assert leaves.counts.shape == (8, 0)
    for node, targets, predicted in zip(
        leaves.nodes, leaves.targets, leaves.prediction, strict=True
    ):
        assert targets.mean() == pytest.approx(model.tree_.value[node, 0, 0], abs=1e-10)
        assert predicted == model.tree_.value[node, 0, 0]
        rows = model.apply(data.X) == node
        np.testing.assert_array_equal(np.sort(targets), np.sort(data.y[rows]))
    assert sum(len(t) for t in leaves.targets) == 200


def test_many_leaves_keep_the_largest_in_order_and_say_so() -> None:
    X, y = load_breast_cancer(return_X_y=True)
    model = DecisionTreeClassifier(random_state=0).fit(X[:, :2], y)  # deep: many small leaves
    leaves = compute_leaves(model, X[:, :2], y, max_leaves=10)
    n = model.get_n_leaves()
    assert n > 10
    assert len(leaves.shown) == 10
    assert np.all(np.diff(leaves.shown) > 0)  # left to right still
    smallest_kept = leaves.n_samples[leaves.shown].min()
    dropped = np.setdiff1d(np.arange(n), leaves.shown)
    assert leaves.n_samples[dropped].max() <= smallest_kept
    assert leaves.note == f"The 10 largest of {n} leaves"
    figure = leaves_figure(leaves, class_names=("malignant", "benign"))
    assert f"of {n} leaves" in figure.layout.title.text
    assert len(figure.data[0].x) == 10


def test_the_class_figure_stacks_one_bar_per_leaf_in_the_class_colours(iris: Any) -> None:
    model, X, y = iris
    leaves = compute_leaves(model, X, y)
    figure = leaves_figure(leaves, class_names=("setosa", "versicolor", "virginica"))
    assert go.Figure(figure.to_dict()) == figure  # valid Plotly, unchanged by validation
    assert figure.layout.barmode == "stack"
    assert figure.layout.legend.traceorder == "normal"  # classes in their own order
    assert [trace.name for trace in figure.data] == ["setosa", "versicolor", "virginica"]
    assert [trace.marker.color for trace in figure.data] == [class_color(c) for c in range(3)]
    labels = [f"node {node}" for node in leaves.nodes]  # as the diagram numbers them
    for c, trace in enumerate(figure.data):
        assert list(trace.x) == labels
        np.testing.assert_array_equal(trace.y, leaves.counts[:, c])
    assert figure.layout.title.text is None


def test_the_regression_figure_marks_each_leafs_mean() -> None:
    data = make_sine(120, random_state=1)
    model = DecisionTreeRegressor(max_depth=2, random_state=0).fit(data.X, data.y)
    leaves = compute_leaves(model, data.X, data.y)
    figure = leaves_figure(leaves, target_name="y")
    assert go.Figure(figure.to_dict()) == figure
    box, means = figure.data
    assert box.type == "box" and len(box.y) == 120
    np.testing.assert_allclose(means.y, [t.mean() for t in leaves.targets])
    assert list(means.x) == [f"node {node}" for node in leaves.nodes]
    assert figure.layout.yaxis.title.text == "y"
