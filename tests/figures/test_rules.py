"""How a split reads: core.figures.rules, and every figure and words helper that uses it."""

from __future__ import annotations

import numpy as np
import pytest

from core import DecisionTreeClassifier
from core.app.words import path_in_words
from core.figures import rules
from core.figures.growth import rule_text as growth_rule_text
from core.figures.tree_diagram import build_tree_diagram
from core.figures.tree_dot import to_dot

SEX_FEMALE = ("sex", "female")


# --- the words, one form each ---------------------------------------------------------------


def test_a_number_reads_as_a_comparison() -> None:
    assert rules.rule_text("petal length", 2.45) == "petal length ≤ 2.45"
    assert rules.side_text("petal length", 2.45, True) == "petal length ≤ 2.45"
    assert rules.side_text("petal length", 2.45, False) == "petal length > 2.45"
    assert rules.edge_text(2.45, True) == "≤ 2.45"
    assert rules.edge_text(2.45, False) == "> 2.45"
    assert rules.rule_text("area", 1234.5678) == "area ≤ 1235"  # .4g, as before


def test_a_one_hot_column_reads_as_its_level() -> None:
    assert rules.rule_text("sex_female", 0.5, SEX_FEMALE) == "sex is not female"
    assert rules.side_text("sex_female", 0.5, False, SEX_FEMALE) == "sex is female"
    assert rules.edge_text(0.5, True, SEX_FEMALE) == "not female"
    assert rules.edge_text(0.5, False, SEX_FEMALE) == "female"
    assert rules.axis_title("sex_female", SEX_FEMALE) == "sex is female"
    assert rules.axis_title("age") == "age"


def test_missing_values_say_where_they_went() -> None:
    assert rules.rule_text("age", 30.5, missing_left=True) == "age ≤ 30.5 (missing → left)"
    assert rules.rule_text("age", 30.5, missing_left=False) == "age ≤ 30.5 (missing → right)"
    assert (
        rules.rule_text("sex_female", 0.5, SEX_FEMALE, missing_left=True)
        == "sex is not female (missing → left)"
    )
    # "known left, missing right" (threshold inf) says it already.
    assert rules.rule_text("age", np.inf, missing_left=False) == "age is known"
    assert rules.edge_text(np.inf, False) == "missing"


def test_a_path_step_in_each_form() -> None:
    assert rules.path_step("x", 2.5, 1.5, False) == (
        "x is 2.5, more than 1.5: go right (False)",
        False,
    )
    assert rules.path_step("x", 1.0, 1.5, False) == ("x is 1, at most 1.5: go left (True)", True)
    assert rules.path_step("sex_female", 1.0, 0.5, True, SEX_FEMALE) == (
        "sex is female: go right (False)",
        False,
    )
    assert rules.path_step("age", np.nan, 30.5, True) == (
        "age is missing: missing values go left here",
        True,
    )


def test_a_path_step_on_a_threshold_goes_as_the_tree_and_says_why() -> None:
    # Petal widths 1.6 and 1.8 as float32: the tree's threshold is 1.69999999, printed 1.7. A
    # flower of 1.7 is 1.70000005 as float32 and goes right, so the words show the digits
    # that tell the two numbers apart instead of "1.7, more than 1.7".
    threshold = float(np.float32(1.6)) / 2 + float(np.float32(1.8)) / 2
    assert rules.path_step("petal width", 1.7, threshold, False) == (
        "petal width is 1.7, more than 1.69999999: go right (False)",
        False,
    )
    assert rules.path_step("petal width", 1.6, threshold, False) == (
        "petal width is 1.6, at most 1.7: go left (True)",
        True,
    )
    model = DecisionTreeClassifier().fit([[1.6], [1.6], [1.8], [1.8]], [0, 0, 1, 1])
    steps, answer = path_in_words(model, np.array([1.7]), ["petal width"], ["a", "b"])
    assert steps == ["**petal width** is 1.7, more than 1.69999999: go right (False)"]
    assert model.predict([[1.7]])[0] == 1 and "predicts **b**" in answer


def test_category_of_defaults_to_a_number() -> None:
    assert rules.category_of(None, 0) is None
    assert rules.category_of((), 3) is None
    assert rules.category_of((None, SEX_FEMALE), 1) == SEX_FEMALE


# --- in the figures ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def titanic_like() -> tuple[np.ndarray, np.ndarray]:
    """Column 0: sex is female (0/1); column 1: age with gaps. Class: female, or young."""
    rng = np.random.default_rng(0)
    n = 200
    female = (rng.random(n) < 0.5).astype(float)
    age = np.round(rng.uniform(1, 70, n), 1)
    y = ((female == 1) | (age < 12)).astype(int)
    age[rng.random(n) < 0.2] = np.nan
    return np.column_stack([female, age]), y


def test_diagram_speaks_of_categories_and_missing_values(titanic_like) -> None:
    X, y = titanic_like
    model = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    diagram = build_tree_diagram(
        model,
        feature_names=["sex_female", "age"],
        class_names=["died", "lived"],
        categories=(SEX_FEMALE, None),
        X_train=X,
    )
    dot = to_dot(diagram)
    assert "<B>sex is not female</B>" in dot
    assert "sex_female" not in dot
    edges = to_dot(diagram, edge_labels="inequality")
    assert "[label=<not female>" in edges
    assert "[label=<female>" in edges
    age_nodes = [n for n in diagram.nodes if n.feature == 1]
    assert age_nodes and all(n.missing_left is not None for n in age_nodes)
    note = rules.missing_note(bool(age_nodes[0].missing_left))
    assert note in dot  # (missing → left) or (missing → right)


def test_diagram_without_training_rows_shows_no_missing_note(titanic_like) -> None:
    X, y = titanic_like
    model = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    dot = to_dot(build_tree_diagram(model, feature_names=["sex_female", "age"]))
    assert "missing →" not in dot
    assert "sex_female ≤ 0.5" in dot  # all-numeric by default, as before


def test_a_node_without_missing_rows_has_no_note() -> None:
    X = np.array([[1.0], [2.0], [3.0], [4.0]])
    model = DecisionTreeClassifier().fit(X, [0, 0, 1, 1])
    diagram = build_tree_diagram(model, feature_names=["age"], X_train=X)
    assert diagram.node(0).missing_left is None
    assert "<B>age ≤ 2.5</B>" in to_dot(diagram)


def test_growth_rule_text_uses_the_same_words() -> None:
    names = ["sex_female", "age"]
    assert growth_rule_text(names, 1, 30.5) == "age ≤ 30.5"
    assert growth_rule_text(names, 0, 0.5, (SEX_FEMALE, None)) == "sex is not female"
    assert growth_rule_text(names, 1, 30.5, missing_left=True) == "age ≤ 30.5 (missing → left)"


def test_path_in_words_says_a_value_was_missing(titanic_like) -> None:
    X, y = titanic_like
    model = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    row = np.array([0.0, np.nan])  # a man of unknown age
    steps, _ = path_in_words(
        model, row, ["sex_female", "age"], ["died", "lived"], (SEX_FEMALE, None)
    )
    assert steps[0] == "**sex** is not female: go left (True)"
    side = "left" if model.tree_.missing_go_to_left[model.tree_.children_left[0]] else "right"
    assert steps[1] == f"**age** is missing: missing values go {side} here"


# --- the boundary's axes -------------------------------------------------------------------


def test_a_one_hot_axis_is_no_and_yes_and_missing_values_leave_the_grid_whole(
    titanic_like,
) -> None:
    from core.figures.boundary import compute_boundary
    from core.figures.boundary_plot import boundary_figure

    X, y = titanic_like
    model = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    data = compute_boundary(model, X, y, feature_names=["sex_female", "age"], resolution=20)
    assert np.isfinite(data.grid.x_edges).all() and np.isfinite(data.grid.y_edges).all()
    assert np.isfinite(data.grid.proba).all()
    figure = boundary_figure(data, categories=(SEX_FEMALE, None))
    assert figure.layout.xaxis.title.text == "sex is female"
    assert list(figure.layout.xaxis.ticktext) == ["no", "yes"]
    assert list(figure.layout.xaxis.tickvals) == [0, 1]
    assert figure.layout.yaxis.title.text == "age"
    assert figure.layout.yaxis.ticktext is None


def test_split_scan_curve_has_one_point_per_threshold_with_missing_values(titanic_like) -> None:
    from core.figures.impurity_curves import compute_split_scan
    from core.figures.impurity_plot import split_scan_figure

    X, y = titanic_like
    model = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    data = compute_split_scan(model, X, y, 0, feature_names=["sex_female", "age"])
    age = data.scans[1]
    assert np.isfinite(age.thresholds).all()
    assert np.all(np.diff(age.thresholds) > 0)  # distinct, increasing: one point each
    # Each point is the better of the two ways to send the missing ages.
    assert age.best_impurity == pytest.approx(float(age.child_impurity.min()))
    split_scan_figure(data)  # draws without an infinite threshold on the axis
