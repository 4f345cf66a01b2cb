"""The pure helpers of core/explain.py (re-exported by core.ui), checked by hand."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import plotly.graph_objects as go
import pytest

from core import DecisionTreeClassifier, DecisionTreeRegressor, explain
from core.state import DatasetShape, SingleTreeSettings

# Four points on a line: x <= 1.5 is class 0, x > 1.5 class 1; a second, useless feature.
X_TOY = np.array([[0.0, 5.0], [1.0, 5.0], [2.0, 5.0], [3.0, 5.0]])
Y_TOY = np.array([0, 0, 1, 1])


def stump(X=X_TOY, y=Y_TOY, **params):
    return DecisionTreeClassifier(max_depth=1, random_state=0, **params).fit(X, y)


# --- what a model is grown on --------------------------------------------------------------


def test_columns_are_the_plotted_pair_unless_the_model_sees_all_features():
    shape = DatasetShape(task="classification", n_samples=150, n_features=4)
    assert explain.columns(SingleTreeSettings(x=0, y=2), shape) == (0, 2)
    assert explain.columns(SingleTreeSettings(x=0, y=2, fit="all"), shape) == (0, 1, 2, 3)
    # Settings without a "fit" field are grown on the pair.
    assert explain.columns(SimpleNamespace(x=3, y=1), shape) == (3, 1)


def test_a_regression_is_grown_on_every_feature_whatever_the_pair():
    shape = DatasetShape(task="regression", n_samples=200, n_features=1, pair=(0, 0))
    assert explain.columns(SingleTreeSettings(x=0, y=0, fit="pair"), shape) == (0,)


def test_regression_criterion_keeps_a_classifier_choice_and_regresses_on_squared_error():
    assert explain.regression_criterion("classification", "entropy") == "entropy"
    assert explain.regression_criterion("classification", "gini") == "gini"
    assert explain.regression_criterion("regression", "entropy") == "squared_error"


# --- a tree in words -----------------------------------------------------------------------


def test_accuracy_is_the_share_of_right_answers_for_a_classifier():
    model = stump()
    assert explain.accuracy(model, X_TOY, Y_TOY) == 1.0
    # The stump answers 0, 0, 1, 1; against 0, 1, 1, 0 two of four are right.
    assert explain.accuracy(model, X_TOY, np.array([0, 1, 1, 0])) == 0.5


def test_accuracy_is_r2_for_a_regressor():
    y = np.array([1.0, 3.0, 20.0, 22.0])
    model = DecisionTreeRegressor(max_depth=1).fit(X_TOY, y)
    # Leaf means 2 and 21 miss every point by 1: residual sum 4. Around the mean 11.5 the
    # total sum is 10.5² + 8.5² + 8.5² + 10.5² = 365, so R² = 1 - 4/365.
    assert explain.accuracy(model, X_TOY, y) == pytest.approx(1 - 4 / 365)


@pytest.mark.parametrize(("text", "shown"), [("a_b", "a\\_b"), ("[x](y)", "\\[x\\]\\(y\\)")])
def test_md_escapes_markdown(text, shown):
    assert explain.md(text) == shown


def test_path_in_words_follows_the_sample_and_names_the_answer():
    steps, answer = explain.path_in_words(stump(), np.array([2.5, 5.0]), ["x", "y"], ["no", "yes"])
    assert steps == ["**x** is 2.5, more than 1.5: go right (False)"]
    assert (
        answer
        == "so the tree predicts **yes**: 100% of the 2 training samples in this leaf are yes."
    )
    steps, _ = explain.path_in_words(stump(), np.array([0.5, 5.0]), ["x", "y"], ["no", "yes"])
    assert steps == ["**x** is 0.5, at most 1.5: go left (True)"]


def test_path_in_words_for_a_regression_tree_gives_the_leaf_mean():
    model = DecisionTreeRegressor(max_depth=1).fit(X_TOY, np.array([1.0, 3.0, 20.0, 22.0]))
    _, answer = explain.path_in_words(model, np.array([0.0, 5.0]), ["x", "y"], ())
    assert answer == "so the tree predicts **2**, the mean of the 2 training samples in this leaf."


def test_path_in_words_escapes_markdown_in_feature_names():
    steps, _ = explain.path_in_words(stump(), np.array([0.0, 5.0]), ["od_280_x", "y"], ["a", "b"])
    assert steps[0].startswith("**od\\_280\\_x**")


def test_identical_trees_have_no_differing_nodes():
    assert explain.differing_nodes(stump(), stump()) == (set(), set())


def test_a_different_root_question_makes_every_node_differ():
    a = stump()
    # With the columns swapped, b's root asks about column 1 (the same x), a's about column 0.
    b = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X_TOY[:, ::-1], Y_TOY)
    only_a, only_b = explain.differing_nodes(a, b)
    assert only_a == set(range(a.tree_.node_count))
    assert only_b == set(range(b.tree_.node_count))


def test_a_deeper_tree_differs_only_below_the_shared_part():
    X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]])
    y = np.array([0, 0, 1, 1, 0, 0])
    shallow = DecisionTreeClassifier(max_depth=1, random_state=0).fit(X, y)
    deep = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    only_shallow, only_deep = explain.differing_nodes(shallow, deep)
    # Same root question; one child is a pure leaf in both trees, the other is a leaf in the
    # shallow tree but splits again in the deep one: that child and everything below differ.
    assert len(only_shallow) == 1
    assert 0 not in only_deep
    assert len(only_deep) == deep.tree_.node_count - 2


# --- click-to-trace ------------------------------------------------------------------------


def test_clicked_sample_maps_a_clicked_row_id_to_its_test_position():
    test_index = np.array([4, 9, 17])
    points = [{"curve_number": 2, "customdata": 17}]
    assert explain.clicked_sample(points, (1, 2), test_index) == 2
    assert explain.clicked_sample([{"curve_number": 1, "customdata": [9]}], (1,), test_index) == 1


def test_clicked_sample_ignores_training_points_and_the_regions():
    test_index = np.array([4, 9, 17])
    training = [{"curve_number": 1, "customdata": 5}]
    region = [{"curve_number": 0, "customdata": 1.0}]  # a heatmap cell: a probability
    assert explain.clicked_sample(training, (1,), test_index) is None
    assert explain.clicked_sample(region, (1, 2), test_index) is None
    assert explain.clicked_sample([], (1,), test_index) is None


def test_a_click_on_a_training_point_hiding_a_test_sample_picks_the_test_sample():
    test_index = np.array([4, 9, 17])
    test_xy = np.array([[1.0, 0.2], [1.4, 0.2], [5.0, 1.5]])
    covered = [{"curve_number": 1, "customdata": 3, "x": 1.4, "y": 0.2}]
    assert explain.clicked_sample(covered, (1,), test_index, test_xy) == 1
    elsewhere = [{"curve_number": 1, "customdata": 3, "x": 1.3, "y": 0.2}]
    assert explain.clicked_sample(elsewhere, (1,), test_index, test_xy) is None


def test_mark_sample_stars_the_row_at_the_plotted_pair():
    figure = go.Figure(go.Scatter(x=[0.0], y=[0.0], name="data"))
    # Features 2 and 0 are on the x and y axes: the star sits at (row[2], row[0]) = (3, 1).
    explain.mark_sample(figure, [1.0, 2.0, 3.0], (2, 0), "Sample <#4>")
    assert len(figure.data) == 2
    star = figure.data[-1]  # drawn last, so above every other point
    assert (star.x, star.y) == ((3.0,), (1.0,))
    assert star.marker.symbol == "star"
    assert star.name == "Sample <#4>"
    assert star.hovertemplate == "Sample &lt;#4&gt;<extra></extra>"


# --- figure layout -------------------------------------------------------------------------


def test_legend_below_lays_the_legend_flat_under_the_plot():
    figure = go.Figure()
    assert explain.legend_below(figure) is figure
    legend = figure.layout.legend
    assert (legend.orientation, legend.x, legend.y, legend.yanchor) == ("h", 0, -0.2, "top")
    assert figure.layout.margin.b == 130
