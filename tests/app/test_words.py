"""core/app/words.py: the plain-words helpers, checked by hand."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from core import DecisionTreeClassifier, DecisionTreeRegressor
from core.app import words
from core.engine.node_splits import StopReason, why_leaf
from core.engine.splits import compare_with_best
from core.figures.variance import Spread, compute_spread

# Four points on a line: x <= 1.5 is class 0, x > 1.5 class 1; a second, useless feature.
X_TOY = np.array([[0.0, 5.0], [1.0, 5.0], [2.0, 5.0], [3.0, 5.0]])
Y_TOY = np.array([0, 0, 1, 1])


def stump(X=X_TOY, y=Y_TOY, **params):
    return DecisionTreeClassifier(max_depth=1, random_state=0, **params).fit(X, y)


# --- a tree in words -----------------------------------------------------------------------


def test_a_tie_at_a_node_is_said_in_words_and_no_tie_says_nothing():
    from sklearn.datasets import load_iris

    from core.engine.node_splits import split_candidates

    iris = load_iris()
    model = DecisionTreeClassifier(max_depth=2).fit(iris.data, iris.target)
    root = split_candidates(model, iris.data, iris.target, 0)
    assert words.tie_sentence(root, iris.feature_names) == (
        "petal length (cm) ≤ 2.45 and petal width (cm) ≤ 0.8 separate these rows equally "
        "well. This tree asks the first of them; scikit-learn, which tries the features in a "
        "random order, may ask another."
    )
    right = int(model.tree_.children_right[0])
    assert words.tie_sentence(split_candidates(model, iris.data, iris.target, right), []) is None
    leaf = int(model.tree_.children_left[0])
    assert words.tie_sentence(split_candidates(model, iris.data, iris.target, leaf), []) is None


def test_accuracy_is_the_share_of_right_answers_for_a_classifier():
    model = stump()
    assert words.score(model, X_TOY, Y_TOY) == 1.0
    # The stump answers 0, 0, 1, 1; against 0, 1, 1, 0 two of four are right.
    assert words.score(model, X_TOY, np.array([0, 1, 1, 0])) == 0.5


def test_accuracy_is_r2_for_a_regressor():
    y = np.array([1.0, 3.0, 20.0, 22.0])
    model = DecisionTreeRegressor(max_depth=1).fit(X_TOY, y)
    # Leaf means 2 and 21 miss every point by 1: residual sum 4. Around the mean 11.5 the
    # total sum is 10.5² + 8.5² + 8.5² + 10.5² = 365, so R² = 1 - 4/365.
    assert words.score(model, X_TOY, y) == pytest.approx(1 - 4 / 365)


@pytest.mark.parametrize(("text", "shown"), [("a_b", "a\\_b"), ("[x](y)", "\\[x\\]\\(y\\)")])
def test_md_escapes_markdown(text, shown):
    assert words.md(text) == shown


def test_path_in_words_follows_the_sample_and_names_the_answer():
    steps, answer = words.path_in_words(stump(), np.array([2.5, 5.0]), ["x", "y"], ["no", "yes"])
    assert steps == ["**x** is 2.5, more than 1.5: go right (False)"]
    assert (
        answer
        == "so the tree predicts **yes**: 100% of the 2 training samples in this leaf are yes."
    )
    steps, _ = words.path_in_words(stump(), np.array([0.5, 5.0]), ["x", "y"], ["no", "yes"])
    assert steps == ["**x** is 0.5, at most 1.5: go left (True)"]


def test_path_in_words_for_a_regression_tree_gives_the_leaf_mean():
    model = DecisionTreeRegressor(max_depth=1).fit(X_TOY, np.array([1.0, 3.0, 20.0, 22.0]))
    _, answer = words.path_in_words(model, np.array([0.0, 5.0]), ["x", "y"], ())
    assert answer == "so the tree predicts **2**, the mean of the 2 training samples in this leaf."


def test_path_in_words_escapes_markdown_in_feature_names():
    steps, _ = words.path_in_words(stump(), np.array([0.0, 5.0]), ["od_280_x", "y"], ["a", "b"])
    assert steps[0].startswith("**od\\_280\\_x**")


def test_identical_trees_have_no_differing_nodes():
    assert words.differing_nodes(stump(), stump()) == (set(), set())


def test_a_different_root_question_makes_every_node_differ():
    a = stump()
    # With the columns swapped, b's root asks about column 1 (the same x), a's about column 0.
    b = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X_TOY[:, ::-1], Y_TOY)
    only_a, only_b = words.differing_nodes(a, b)
    assert only_a == set(range(a.tree_.node_count))
    assert only_b == set(range(b.tree_.node_count))


def test_a_deeper_tree_differs_only_below_the_shared_part():
    X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]])
    y = np.array([0, 0, 1, 1, 0, 0])
    shallow = DecisionTreeClassifier(max_depth=1, random_state=0).fit(X, y)
    deep = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    only_shallow, only_deep = words.differing_nodes(shallow, deep)
    # Same root question; one child is a pure leaf in both trees, the other is a leaf in the
    # shallow tree but splits again in the deep one: that child and everything below differ.
    assert len(only_shallow) == 1
    assert 0 not in only_deep
    assert len(only_deep) == deep.tree_.node_count - 2


def test_summary_is_the_first_two_sentences():
    assert words.summary("One. Two! Three? Four.") == "One. Two!"


# --- a node in words -----------------------------------------------------------------------

# The five-sample toy of tests/engine/test_replay.py, where its numbers are worked by hand.
NODE_X = np.array([[1.0, 0.0], [2.0, 1.0], [3.0, 0.0], [4.0, 0.0], [5.0, 1.0]])
NODE_Y = np.array([0, 0, 1, 1, 0])


def test_a_pure_leaf_names_its_class():
    # The root's x0 <= 2.5 sends two samples of class 0 to node 1; node 4 keeps one sample.
    model = DecisionTreeClassifier().fit(NODE_X, NODE_Y)
    reason = why_leaf(model, NODE_X, NODE_Y, 1)
    assert words.why_leaf_sentence(reason, classes=model.classes_) == (
        "Node 1 is pure: all its 2 samples are of class 0; there is nothing to separate."
    )
    assert words.why_leaf_sentence(why_leaf(model, NODE_X, NODE_Y, 4)) == (
        "Node 4 is pure: its only sample is of class 0; there is nothing to separate."
    )
    # The label, not the index, once the caller gives the classes.
    labels = np.array(["a", "a", "b", "b", "a"])
    model = DecisionTreeClassifier().fit(NODE_X, labels)
    reason = why_leaf(model, NODE_X, labels, 3)
    assert words.why_leaf_sentence(reason, classes=model.classes_) == (
        "Node 3 is pure: all its 2 samples are of class b; there is nothing to separate."
    )
    assert "of class 1;" in words.why_leaf_sentence(reason)


def test_a_pure_regression_leaf_has_one_target_value():
    targets = NODE_Y.astype(float)
    model = DecisionTreeRegressor().fit(NODE_X, targets)
    assert words.why_leaf_sentence(why_leaf(model, NODE_X, targets, 1)) == (
        "Node 1 is pure: all its 2 samples have the same target value; there is nothing to "
        "separate."
    )
    assert words.why_leaf_sentence(why_leaf(model, NODE_X, targets, 4)) == (
        "Node 4 is pure: its only sample has one target value; there is nothing to separate."
    )


# The numbers of tests/engine/test_replay.py's leaves, one per rule after "pure".
@pytest.mark.parametrize(
    ("reason", "sentence"),
    [
        pytest.param(
            StopReason(node=2, code="max_depth", rule=2, n_samples=78, depth=1, limit=1),
            "Node 2 is at depth 1, the limit set by max_depth=1.",
            id="max_depth",
        ),
        pytest.param(
            StopReason(node=2, code="min_samples_leaf", rule=3, n_samples=3, depth=1, limit=2),
            "Node 2 holds 3 samples: too few for two children of min_samples_leaf=2 each.",
            id="too-few-for-two-leaves",
        ),
        pytest.param(
            StopReason(node=2, code="min_samples_split", rule=4, n_samples=78, depth=1, limit=103),
            "Node 2 holds 78 samples, fewer than min_samples_split=103.",
            id="min_samples_split",
        ),
        pytest.param(
            StopReason(node=0, code="constant", rule=5, n_samples=3, depth=0),
            "Node 0 has 3 samples with the same value on every feature: no threshold "
            "separates them.",
            id="constant",
        ),
        pytest.param(
            StopReason(node=0, code="min_samples_leaf", rule=6, n_samples=4, depth=0, limit=2),
            "Node 0 cannot split: every threshold leaves a side with fewer than "
            "min_samples_leaf=2 samples.",
            id="no-threshold-leaves-enough",
        ),
        pytest.param(
            StopReason(
                node=0,
                code="min_impurity_decrease",
                rule=7,
                n_samples=113,
                depth=0,
                limit=0.4,
                best_feature=2,
                decrease=0.32322873304939237,
            ),
            "Node 0 stops: its best split, on x[2], decreases the weighted impurity by 0.323, "
            "less than min_impurity_decrease=0.4.",
            id="min_impurity_decrease",
        ),
        pytest.param(
            StopReason(
                node=3,
                code="ccp_alpha",
                rule=8,
                n_samples=46,
                depth=2,
                limit=0.1,
                best_feature=1,
                decrease=0.0055149416442221225,
            ),
            "Node 3 was split in the full tree, but cost-complexity pruning (ccp_alpha=0.1) "
            "cut the branch below it: it lowered the impurity too little for the leaves it "
            "added.",
            id="ccp_alpha",
        ),
        pytest.param(
            StopReason(
                node=0,
                code="features_drawn",
                rule=9,
                n_samples=40,
                depth=0,
                best_feature=1,
                decrease=0.5,
            ),
            "Node 0 could split, but not well enough on the features drawn at random here "
            "(max_features): others would have.",
            id="features_drawn",
        ),
    ],
)
def test_why_leaf_sentence_for_every_rule(reason, sentence):
    assert words.why_leaf_sentence(reason) == sentence


def test_the_best_split_is_named_by_its_feature():
    reason = StopReason(
        node=0,
        code="min_impurity_decrease",
        rule=7,
        n_samples=113,
        depth=0,
        limit=0.4,
        best_feature=2,
        decrease=0.32322873304939237,
    )
    names = ["sepal length", "sepal width", "petal length", "petal width"]
    assert words.why_leaf_sentence(reason, feature_names=names) == (
        "Node 0 stops: its best split, on petal length, decreases the weighted impurity by "
        "0.323, less than min_impurity_decrease=0.4."
    )
    no_split = StopReason(
        node=0, code="min_impurity_decrease", rule=7, n_samples=113, depth=0, limit=0.4
    )
    with pytest.raises(ValueError, match="must carry its best split; got best_feature=None"):
        words.why_leaf_sentence(no_split)


def test_comparison_sentence_gives_both_gains_and_a_verdict():
    # x0 <= 1.5 gains 0.08; the best (x0 <= 2.5) 0.48 - 4/15 = 0.21333: better by 0.13333.
    c = compare_with_best(NODE_X, NODE_Y, 0, 1.5, "gini", 2)
    assert words.comparison_sentence(c) == (
        "Your split gains 0.08; the tree's best gains 0.213. The tree's split is better by 0.133."
    )
    tie = compare_with_best(NODE_X, NODE_Y, 1, 0.5, "gini", 2)
    assert words.comparison_sentence(tie) == (
        "Your split gains 0.213; the tree's best gains 0.213. You found a best split."
    )
    none = compare_with_best(NODE_X, NODE_Y, 1, 5.0, "gini", 2)
    assert words.comparison_sentence(none) == (
        "Your split sends every sample to one side, so it gains nothing; the tree's best "
        "gains 0.213. The tree's split is better by 0.213."
    )
    nothing = compare_with_best(np.ones((3, 2)), np.array([0, 1, 0]), 0, 0.5, "gini", 2)
    assert words.comparison_sentence(nothing) == (
        "Your split sends every sample to one side, so it gains nothing; no split can "
        "separate these samples."
    )


def test_the_verdict_is_the_engines():
    # A gain short by rounding only is a best split: the engine's tolerance decides, not ==.
    tie = compare_with_best(NODE_X, NODE_Y, 1, 0.5, "gini", 2)
    assert words.comparison_sentence(replace(tie, gain_difference=1e-15)).endswith(
        "You found a best split."
    )
    short = replace(tie, found_best=False, gain_difference=0.0125)
    assert words.comparison_sentence(short).endswith("The tree's split is better by 0.0125.")


# --- numbers on screen in words ------------------------------------------------------------


def two_trees(shares: list[list[list[float]]]) -> Spread:
    """Two trees' class shares on two test rows of classes 0 and 1 (the grid: the same)."""
    values = np.array(shares)
    return compute_spread(
        "classification",
        grid_values=values,
        test_values=values,
        X_test=np.zeros((2, 2)),
        y_test=np.array([0, 1]),
        xs=np.arange(2.0),
        ys=np.arange(1.0),
        feature_names=("a", "b"),
        class_names=("no", "yes"),
    )


def test_the_averaging_sentence_says_better_only_when_the_numbers_do() -> None:
    # Tree A gets row 0 only, tree B both: one tree 0.75 on average. Their shares averaged
    # call row 1 class 0 (0.55 against 0.45): the average scores 0.5, worse.
    worse = two_trees([[[1, 0], [1, 0]], [[0.6, 0.4], [0.1, 0.9]]])
    assert words.averaging_numbers(worse) == ("0.750", "0.500")
    sentence = words.averaging_sentence(worse)
    assert "does not score better than one tree: 0.500 against one tree's 0.750" in sentence
    assert "With 2 test rows one row is 0.500 of accuracy" in sentence
    alike = two_trees([[[1, 0], [0, 1]], [[1, 0], [0, 1]]])
    assert "scores the same as one tree: 1.000" in words.averaging_sentence(alike)
    # Each tree gets one row; averaged, each row's right class wins 0.6 to 0.4.
    wins = two_trees([[[1, 0], [0.8, 0.2]], [[0.2, 0.8], [0, 1]]])
    assert words.averaging_numbers(wins) == ("0.500", "1.000")
    assert words.averaging_sentence(wins).startswith("Here their average does score better")
