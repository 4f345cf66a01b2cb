"""core/app/words.py: the plain-words helpers, checked by hand."""

from __future__ import annotations

import numpy as np
import pytest

from core import DecisionTreeClassifier, DecisionTreeRegressor
from core.app import words

# Four points on a line: x <= 1.5 is class 0, x > 1.5 class 1; a second, useless feature.
X_TOY = np.array([[0.0, 5.0], [1.0, 5.0], [2.0, 5.0], [3.0, 5.0]])
Y_TOY = np.array([0, 0, 1, 1])


def stump(X=X_TOY, y=Y_TOY, **params):
    return DecisionTreeClassifier(max_depth=1, random_state=0, **params).fit(X, y)


# --- a tree in words -----------------------------------------------------------------------


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
