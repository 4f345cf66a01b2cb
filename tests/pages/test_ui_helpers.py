"""The pieces of core/ui.py that compute rather than draw, checked by hand."""

from __future__ import annotations

import numpy as np
import pytest
from page_helpers import assert_healthy
from streamlit.testing.v1 import AppTest

from core import DecisionTreeClassifier, DecisionTreeRegressor, ui

# Four points on a line: x <= 1.5 is class 0, x > 1.5 class 1; a second, useless feature.
X_TOY = np.array([[0.0, 5.0], [1.0, 5.0], [2.0, 5.0], [3.0, 5.0]])
Y_TOY = np.array([0, 0, 1, 1])


def stump(X=X_TOY, y=Y_TOY, **params):
    return DecisionTreeClassifier(max_depth=1, random_state=0, **params).fit(X, y)


def test_clicked_sample_maps_a_clicked_row_id_to_its_test_position():
    test_index = np.array([4, 9, 17])
    points = [{"curve_number": 2, "customdata": 17}]
    assert ui.clicked_sample(points, (1, 2), test_index) == 2
    assert ui.clicked_sample([{"curve_number": 1, "customdata": [9]}], (1,), test_index) == 1


def test_clicked_sample_ignores_training_points_and_the_regions():
    test_index = np.array([4, 9, 17])
    training = [{"curve_number": 1, "customdata": 5}]
    region = [{"curve_number": 0, "customdata": 1.0}]  # a heatmap cell: a probability
    assert ui.clicked_sample(training, (1,), test_index) is None
    assert ui.clicked_sample(region, (1, 2), test_index) is None
    assert ui.clicked_sample([], (1,), test_index) is None


def test_a_click_on_a_training_point_hiding_a_test_sample_picks_the_test_sample():
    test_index = np.array([4, 9, 17])
    test_xy = np.array([[1.0, 0.2], [1.4, 0.2], [5.0, 1.5]])
    covered = [{"curve_number": 1, "customdata": 3, "x": 1.4, "y": 0.2}]
    assert ui.clicked_sample(covered, (1,), test_index, test_xy) == 1
    elsewhere = [{"curve_number": 1, "customdata": 3, "x": 1.3, "y": 0.2}]
    assert ui.clicked_sample(elsewhere, (1,), test_index, test_xy) is None


def test_identical_trees_have_no_differing_nodes():
    assert ui.differing_nodes(stump(), stump()) == (set(), set())


def test_a_different_root_question_makes_every_node_differ():
    a = stump()
    # With the columns swapped, b's root asks about column 1 (the same x), a's about column 0.
    b = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X_TOY[:, ::-1], Y_TOY)
    only_a, only_b = ui.differing_nodes(a, b)
    assert only_a == set(range(a.tree_.node_count))
    assert only_b == set(range(b.tree_.node_count))


def test_a_deeper_tree_differs_only_below_the_shared_part():
    X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]])
    y = np.array([0, 0, 1, 1, 0, 0])
    shallow = DecisionTreeClassifier(max_depth=1, random_state=0).fit(X, y)
    deep = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    only_shallow, only_deep = ui.differing_nodes(shallow, deep)
    # Same root question; one child is a pure leaf in both trees, the other is a leaf in the
    # shallow tree but splits again in the deep one: that child and everything below differ.
    assert len(only_shallow) == 1
    assert 0 not in only_deep
    assert len(only_deep) == deep.tree_.node_count - 2


def test_path_in_words_follows_the_sample_and_names_the_answer():
    steps, answer = ui.path_in_words(stump(), np.array([2.5, 5.0]), ["x", "y"], ["no", "yes"])
    assert steps == ["**x** is 2.5, more than 1.5: go right (False)"]
    assert (
        answer
        == "so the tree predicts **yes**: 100% of the 2 training samples in this leaf are yes."
    )
    steps, _ = ui.path_in_words(stump(), np.array([0.5, 5.0]), ["x", "y"], ["no", "yes"])
    assert steps == ["**x** is 0.5, at most 1.5: go left (True)"]


def test_path_in_words_for_a_regression_tree_gives_the_leaf_mean():
    model = DecisionTreeRegressor(max_depth=1).fit(X_TOY, np.array([1.0, 3.0, 20.0, 22.0]))
    _, answer = ui.path_in_words(model, np.array([0.0, 5.0]), ["x", "y"], ())
    assert answer == "so the tree predicts **2**, the mean of the 2 training samples in this leaf."


def test_path_in_words_escapes_markdown_in_feature_names():
    steps, _ = ui.path_in_words(stump(), np.array([0.0, 5.0]), ["od_280_x", "y"], ["a", "b"])
    assert steps[0].startswith("**od\\_280\\_x**")


def test_guard_turns_an_error_into_a_friendly_message():
    def page():
        import streamlit as st

        from core import ui

        with ui.guard("the chart") as shown:
            raise ZeroDivisionError("boom")
        st.write("after" if shown.failed else "not reached")

    app = AppTest.from_function(page, default_timeout=30).run()
    assert not app.exception
    assert "could not show the chart" in app.warning[0].value
    assert "ZeroDivisionError" in app.warning[0].value
    assert app.markdown[0].value == "after"


def test_show_svg_keeps_the_drawing_no_larger_than_its_natural_size():
    def page():
        from core import ui

        ui.show_svg(
            '<?xml version="1.0"?>\n<svg width="100%" preserveAspectRatio="xMidYMin meet" '
            'viewBox="0.00 0.00 300.00 120.00"><g/></svg>',
            key="tree-diagram",
        )

    app = AppTest.from_function(page, default_timeout=30).run()
    assert_healthy(app)
    shown = app.markdown[0].value
    assert "<?xml" not in shown
    assert 'style="width:100%;height:auto;max-width:300pt"' in shown
    assert "preserveAspectRatio" not in shown


@pytest.mark.parametrize(("text", "shown"), [("a_b", "a\\_b"), ("[x](y)", "\\[x\\]\\(y\\)")])
def test_md_escapes_markdown(text, shown):
    assert ui.md(text) == shown
