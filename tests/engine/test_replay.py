"""Replaying a fitted tree one split at a time, and explaining its nodes (core.engine.replay).

These are Arboretum extras: they run on our estimators whatever ARBORETUM_IMPL says, and check
themselves against plain walks, hand-computed numbers and scikit-learn stumps.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import pytest
from conftest import TREE_ARRAYS, make_sine, train_test
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.tree import DecisionTreeClassifier as SkTreeClassifier

from core.engine.node_splits import StopReason, node_rows, split_candidates, why_leaf
from core.engine.replay import (
    estimator_after,
    estimator_of,
    growth_steps,
    prefix_after,
    tree_after,
)
from core.engine.splits import best_split, compare_with_best, evaluate_split
from core.engine.structure import TREE_LEAF, TREE_UNDEFINED, Tree
from core.engine.tree import DecisionTreeClassifier, DecisionTreeRegressor

# The five-sample toy of tests/figures/conftest.py, worked by hand below.
TOY_X = np.array([[1.0, 0.0], [2.0, 1.0], [3.0, 0.0], [4.0, 0.0], [5.0, 1.0]])
TOY_Y = np.array([0, 0, 1, 1, 0])

SETTINGS = [
    pytest.param("iris", {}, id="iris"),
    pytest.param("wine", {"criterion": "entropy", "max_depth": 4}, id="wine-entropy-d4"),
    pytest.param("breast_cancer", {"min_samples_leaf": 5}, id="cancer-leaf5"),
    pytest.param("breast_cancer", {"ccp_alpha": 0.005}, id="cancer-ccp"),
    pytest.param("wine", {"max_features": 3, "random_state": 7}, id="wine-max-features"),
    pytest.param("sine", {"max_depth": 6}, id="sine-squared"),
    pytest.param("sine", {"criterion": "absolute_error", "max_depth": 4}, id="sine-absolute"),
    pytest.param("sine", {"ccp_alpha": 2.0}, id="sine-ccp"),
]


@cache
def data(dataset: str) -> tuple[np.ndarray, np.ndarray]:
    if dataset == "sine":
        return make_sine()
    X, _, y, _ = train_test(dataset)
    return X, y


def fit(dataset: str, **params: Any) -> Any:
    X, y = data(dataset)
    estimator = DecisionTreeRegressor if dataset == "sine" else DecisionTreeClassifier
    return estimator(**params).fit(X, y)


def plain_walk(tree: Tree, split: set[int], row: np.ndarray) -> int:
    """Route one row down ``tree`` from the root, stopping at the first node not in ``split``."""
    node = 0
    while node in split:
        go_left = row[tree.feature[node]] <= tree.threshold[node]
        node = int(tree.children_left[node] if go_left else tree.children_right[node])
    return node


# -- the order of the splits ----------------------------------------------------------------------


def test_toy_steps_by_hand() -> None:
    # Root: gini(3, 2) = 0.48. x0 <= 2.5 and x1 <= 0.5 both leave 3/5 * gini(1, 2) = 4/15; the
    # lower feature wins. Node 2 (rows 3, 4, 5: classes 1, 1, 0) splits purely on x0 <= 4.5.
    # Decreases: 5/5 * (0.48 - 4/15) = 0.21333 at the root, then 3/5 * (4/9 - 0) = 0.26667:
    # the child decreases the impurity MORE than its parent did.
    tree = DecisionTreeClassifier().fit(TOY_X, TOY_Y).tree_
    steps = growth_steps(tree)
    assert_array_equal(steps.node, [0, 2])
    assert_array_equal(steps.feature, [0, 0])
    assert_allclose(steps.threshold, [2.5, 4.5])
    assert_array_equal(steps.depth, [0, 1])
    assert_array_equal(steps.n_samples, [5, 3])
    assert_allclose(steps.impurity, [0.48, 4 / 9])
    assert_allclose(steps.child_impurity, [4 / 15, 0.0], atol=1e-15)
    assert_allclose(steps.gain, [0.48 - 4 / 15, 4 / 9])
    assert_allclose(steps.decrease, [0.48 - 4 / 15, 3 / 5 * 4 / 9])


def symmetric_tree() -> Tree:
    """Root 0 with children 1 and 4, both split into two pure leaves the same way."""
    left = np.array([1, 2, -1, -1, 5, -1, -1])
    right = np.array([4, 3, -1, -1, 6, -1, -1])
    counts = np.array([[4, 4], [2, 2], [2, 0], [0, 2], [2, 2], [2, 0], [0, 2]], dtype=float)
    n = counts.sum(axis=1)
    return Tree(
        children_left=left,
        children_right=right,
        feature=np.array([0, 1, -2, -2, 1, -2, -2]),
        threshold=np.array([0.5, 0.5, -2, -2, 0.5, -2, -2], dtype=float),
        impurity=np.array([0.5, 0.5, 0, 0, 0.5, 0, 0], dtype=float),
        n_node_samples=n.astype(np.int64),
        weighted_n_node_samples=n,
        value=(counts / n[:, None])[:, None, :],
        n_features=2,
    )


def test_ties_go_to_the_lower_node_id() -> None:
    # Nodes 1 and 4 both decrease the impurity by 4/8 * 0.5 = 0.25.
    steps = growth_steps(symmetric_tree())
    assert_array_equal(steps.node, [0, 1, 4])
    assert_allclose(steps.decrease, [0.0, 0.25, 0.25])


@pytest.mark.parametrize(("dataset", "params"), SETTINGS)
def test_order_is_best_first(dataset: str, params: dict[str, Any]) -> None:
    tree = fit(dataset, **params).tree_
    steps = growth_steps(tree)
    inner = set(np.flatnonzero(~tree.is_leaf).tolist())
    assert sorted(steps.node.tolist()) == sorted(inner)
    w, imp = tree.weighted_n_node_samples, tree.impurity
    frontier = {0} & inner
    for k, node in enumerate(steps.node.tolist()):
        assert node in frontier, f"step {k + 1}: node {node} is not a leaf of the tree so far"
        decrease = {}
        for t in frontier:  # the formula again, written out
            left, right = tree.children_left[t], tree.children_right[t]
            children = (w[left] * imp[left] + w[right] * imp[right]) / w[t]
            decrease[t] = w[t] / w[0] * (imp[t] - children)
        best = max(decrease.values())
        assert decrease[node] == best, f"step {k + 1}"
        assert node == min(t for t, d in decrease.items() if d == best)
        assert_allclose(steps.decrease[k], best, rtol=1e-12)
        frontier.remove(node)
        frontier |= {int(tree.children_left[node]), int(tree.children_right[node])} & inner
    assert not frontier


# -- the tree after k steps -----------------------------------------------------------------------


@pytest.mark.parametrize(("dataset", "params"), SETTINGS)
def test_last_prefix_is_the_fitted_tree(dataset: str, params: dict[str, Any]) -> None:
    model = fit(dataset, **params)
    tree = model.tree_
    prefix = prefix_after(tree, len(growth_steps(tree)))
    for name in (*TREE_ARRAYS, "depth"):
        assert_array_equal(getattr(prefix.tree, name), getattr(tree, name), err_msg=name)
    assert_array_equal(prefix.final_id, np.arange(tree.node_count))
    X, _ = data(dataset)
    assert_array_equal(estimator_after(model, len(growth_steps(tree))).predict(X), model.predict(X))


@pytest.mark.parametrize(("dataset", "params"), SETTINGS)
def test_first_prefix_is_the_root_leaf(dataset: str, params: dict[str, Any]) -> None:
    model = fit(dataset, **params)
    root = tree_after(model.tree_, 0)
    assert root.node_count == 1
    assert root.children_left[0] == TREE_LEAF
    assert root.feature[0] == TREE_UNDEFINED
    X, _ = data(dataset)
    assert_allclose(root.predict(X), np.repeat(model.tree_.value[0], len(X), axis=0))


@pytest.mark.parametrize(("dataset", "params"), SETTINGS)
def test_every_prefix_predicts_like_the_stopped_walk(dataset: str, params: dict[str, Any]) -> None:
    model = fit(dataset, **params)
    tree = model.tree_
    steps = growth_steps(tree)
    X, _ = data(dataset)
    X = X[::3]
    for k in range(len(steps) + 1):
        prefix = prefix_after(tree, k, steps)
        grown = prefix.tree
        split = set(steps.node[:k].tolist())
        expected = np.array([plain_walk(tree, split, row) for row in X])
        assert_array_equal(prefix.final_id[grown.apply(X)], expected, err_msg=f"k={k}")
        assert_array_equal(grown.predict(X), tree.value[expected, 0, :], err_msg=f"k={k}")
        assert grown.node_count == 2 * k + 1
        # The mapping: preorder kept, prefix_id inverts final_id, newest is step k's node.
        assert np.all(np.diff(prefix.final_id) > 0)
        assert_array_equal(prefix.prefix_id[prefix.final_id], np.arange(grown.node_count))
        if k:
            assert prefix.final_id[prefix.newest] == steps.node[k - 1]
            assert grown.feature[prefix.newest] == steps.feature[k - 1]
        else:
            assert prefix.newest is None


def test_estimator_after_leaves_the_model_alone() -> None:
    model = fit("iris")
    before = model.tree_
    early = estimator_after(model, 1)
    assert model.tree_ is before
    assert early.tree_.node_count == 3
    X, _ = data("iris")
    assert set(np.unique(early.predict(X))) <= set(model.classes_)
    assert early.get_n_leaves() == 2


def test_an_estimator_of_a_prefix_is_the_estimator_after_its_splits() -> None:
    model = fit("wine")
    steps = growth_steps(model.tree_)
    X, _ = data("wine")
    for k in (0, 1, 3, len(steps)):
        prefix = prefix_after(model.tree_, k, steps)
        of, after = estimator_of(model, prefix), estimator_after(model, k, steps)
        assert of.tree_ is prefix.tree and model.tree_ is not prefix.tree
        assert_array_equal(of.predict_proba(X), after.predict_proba(X))


@pytest.mark.parametrize("k", [-1, 8, 1.0])
def test_k_out_of_range(k: Any) -> None:
    tree = fit("iris", max_depth=3).tree_
    error = TypeError if isinstance(k, float) else ValueError
    with pytest.raises(error, match="k must be"):
        prefix_after(tree, k)


# -- one split, by hand ---------------------------------------------------------------------------


def test_evaluate_split_gini_by_hand() -> None:
    # x0 <= 2.5 sends rows 1, 2 (classes 0, 0) left and rows 3, 4, 5 (1, 1, 0) right.
    # gini left 0; right 1 - (1/9 + 4/9) = 4/9; children 3/5 * 4/9 = 4/15 = 0.26667;
    # parent 1 - (0.36 + 0.16) = 0.48; gain 0.48 - 0.26667 = 0.21333.
    s = evaluate_split(TOY_X, TOY_Y, 0, 2.5, "gini", 2)
    assert (s.n_left, s.n_right) == (2, 3)
    assert s.left_counts == (2.0, 0.0)
    assert s.right_counts == (1.0, 2.0)
    assert_allclose([s.parent_impurity, s.left_impurity, s.right_impurity], [0.48, 0, 4 / 9])
    assert_allclose(s.child_impurity, 4 / 15)
    assert_allclose(s.gain, 0.48 - 4 / 15)
    assert s.splits


def test_evaluate_split_entropy_by_hand() -> None:
    # parent (3, 2): -(0.6 log2 0.6 + 0.4 log2 0.4) = 0.970951; right (1, 2): 0.918296;
    # children 3/5 * 0.918296 = 0.550978; gain 0.419973.
    s = evaluate_split(TOY_X, TOY_Y, 0, 2.5, "entropy", 2)
    assert_allclose(s.parent_impurity, 0.970951, atol=1e-6)
    assert_allclose(s.right_impurity, 0.918296, atol=1e-6)
    assert_allclose(s.child_impurity, 0.550978, atol=1e-6)
    assert_allclose(s.gain, 0.419973, atol=1e-6)


def test_evaluate_split_regression_by_hand() -> None:
    X = np.array([[1.0], [2.0], [3.0], [4.0]])
    y = np.array([1.0, 2.0, 3.0, 10.0])
    # Squared error: parent mean 4, (9 + 4 + 1 + 36) / 4 = 12.5; left (1, 2, 3) mean 2,
    # (1 + 0 + 1) / 3 = 2/3; right (10) 0; children 3/4 * 2/3 = 0.5; gain 12.
    s = evaluate_split(X, y, 0, 3.5, "squared_error")
    assert_allclose([s.parent_impurity, s.left_impurity, s.right_impurity], [12.5, 2 / 3, 0])
    assert_allclose([s.child_impurity, s.gain], [0.5, 12.0])
    assert s.left_counts == ()
    # Absolute error: parent median 2.5, (1.5 + 0.5 + 0.5 + 7.5) / 4 = 2.5; left median 2,
    # 2/3; children 0.5; gain 2.
    s = evaluate_split(X, y, 0, 3.5, "absolute_error")
    assert_allclose([s.parent_impurity, s.child_impurity, s.gain], [2.5, 0.5, 2.0])


def test_a_split_with_an_empty_side_gains_nothing() -> None:
    s = evaluate_split(TOY_X, TOY_Y, 0, 100.0, "gini", 2)
    assert (s.n_left, s.n_right) == (5, 0)
    assert not s.splits
    assert s.gain == 0.0
    assert s.child_impurity == s.parent_impurity


def test_bad_split_arguments() -> None:
    with pytest.raises(ValueError, match="feature must be in"):
        evaluate_split(TOY_X, TOY_Y, 2, 0.5, "gini", 2)
    with pytest.raises(ValueError, match="criterion must be one of"):
        evaluate_split(TOY_X, TOY_Y, 0, 0.5, "gain", 2)
    with pytest.raises(ValueError, match="n_classes must be"):
        evaluate_split(TOY_X, TOY_Y, 0, 0.5, "gini", 1)
    with pytest.raises(ValueError, match="X_node must be"):
        evaluate_split(TOY_X[:, 0], TOY_Y, 0, 0.5, "gini", 2)


def test_best_split_ranks_each_features_best() -> None:
    # Both features' best leave 4/15 (see test_toy_steps_by_hand): the lower feature first.
    ranked = best_split(TOY_X, TOY_Y, "gini", 2)
    assert [(s.feature, s.threshold) for s in ranked] == [(0, 2.5), (1, 0.5)]
    assert_allclose([s.child_impurity for s in ranked], [4 / 15, 4 / 15])
    assert best_split(np.ones((3, 2)), np.array([0, 1, 0]), "gini", 2) == []


def test_a_students_threshold_keeps_the_values_it_names_left() -> None:
    # "x ≤ 1.7" as written: the rows of 1.7 (1.70000005 as the tree reads them) go left.
    X, y = np.array([[1.6], [1.7], [1.7], [1.8]]), np.array([0, 0, 1, 1])
    c = compare_with_best(X, y, 0, 1.7, "gini", 2)
    assert (c.yours.n_left, c.yours.n_right) == (3, 1)
    # The tree's own threshold between 1.7 and 1.8 is kept exactly, not rounded.
    assert c.best is not None
    assert evaluate_split(X, y, 0, c.best.threshold, "gini", 2).n_left == c.best.n_left


def test_compare_with_best_in_numbers() -> None:
    # x0 <= 1.5: left (1, 0) gini 0, right (2, 2) gini 0.5; children 4/5 * 0.5 = 0.4;
    # gain 0.48 - 0.4 = 0.08 against the best 0.21333: better by 0.13333.
    c = compare_with_best(TOY_X, TOY_Y, 0, 1.5, "gini", 2)
    assert_allclose(c.yours.gain, 0.08)
    assert c.best is not None
    assert_allclose(c.best.gain, 0.48 - 4 / 15)
    assert c.gain_difference is not None
    assert_allclose(c.gain_difference, 0.48 - 4 / 15 - 0.08)
    assert not c.found_best
    # x1 <= 0.5 leaves 4/15 too (test_best_split_ranks_each_features_best): another best split.
    tie = compare_with_best(TOY_X, TOY_Y, 1, 0.5, "gini", 2)
    assert tie.found_best
    assert tie.best is not None and tie.best.feature == 0
    # Everything on one side: no gain, the whole best gain short.
    none = compare_with_best(TOY_X, TOY_Y, 1, 5.0, "gini", 2)
    assert not none.yours.splits and none.yours.gain == 0.0
    assert none.gain_difference is not None
    assert_allclose(none.gain_difference, 0.48 - 4 / 15)
    assert not none.found_best
    # Constant features: nothing to compare with.
    nothing = compare_with_best(np.ones((3, 2)), np.array([0, 1, 0]), 0, 0.5, "gini", 2)
    assert (nothing.best, nothing.gain_difference, nothing.found_best) == (None, None, False)


# -- why this split -------------------------------------------------------------------------------


def stump_child_impurity(X: np.ndarray, y: np.ndarray, min_samples_leaf: int) -> float:
    """scikit-learn's best weighted child impurity on these rows (a depth-1 tree)."""
    stump = SkTreeClassifier(max_depth=1, min_samples_leaf=min_samples_leaf).fit(X, y)
    t = stump.tree_
    n = t.weighted_n_node_samples
    return float((n[1] * t.impurity[1] + n[2] * t.impurity[2]) / n[0])


@pytest.mark.parametrize(
    ("dataset", "params"),
    [
        ("iris", {}),
        ("wine", {"criterion": "entropy"}),
        ("breast_cancer", {"min_samples_leaf": 3}),
    ],
)
def test_candidates_best_is_the_trees_split(dataset: str, params: dict[str, Any]) -> None:
    model = fit(dataset, **params)
    tree = model.tree_
    X, y = data(dataset)
    leaf = params.get("min_samples_leaf", 1)
    for node in np.flatnonzero(~tree.is_leaf)[:6].tolist():
        c = split_candidates(model, X, y, node)
        chosen = c.rows[0]
        assert c.chosen == 0
        assert (chosen.feature, chosen.threshold) == (tree.feature[node], tree.threshold[node])
        left, right = tree.children_left[node], tree.children_right[node]
        w, imp = tree.weighted_n_node_samples, tree.impurity
        expected = (w[left] * imp[left] + w[right] * imp[right]) / w[node]
        assert_allclose(chosen.child_impurity, expected, rtol=1e-9, atol=1e-12)
        assert (chosen.n_left, chosen.n_right) == (tree.n_node_samples[left], w[right])
        rows = node_rows(model, X, node)
        assert c.n_samples == tree.n_node_samples[node] == rows.sum()
        if params.get("criterion", "gini") == "gini":  # the stump oracle grows with gini
            oracle = stump_child_impurity(X[rows], y[rows], leaf)
            assert_allclose(chosen.child_impurity, oracle, rtol=1e-9, atol=1e-12)
        # Every other feature's best gains at most as much (ties up to rounding allowed, as
        # in test_oracle.py: equal candidates may be another feature).
        gains = np.array([s.gain for s in c.rows])
        assert np.all(gains[1:] <= gains[0] + 1e-10)
        assert np.all(np.diff(gains[1:]) <= 0)
        assert len({s.feature for s in c.rows}) == len(c.rows)
        assert not c.best_beats_chosen
        assert not c.sampled_features


def test_candidates_say_when_an_unseen_feature_splits_better() -> None:
    model = fit("breast_cancer", max_features=1, random_state=0, max_depth=3)
    X, y = data("breast_cancer")
    flagged = []
    for node in np.flatnonzero(~model.tree_.is_leaf).tolist():
        c = split_candidates(model, X, y, node)
        assert c.sampled_features
        if c.best_beats_chosen:
            flagged.append(node)
            assert c.rows[1].gain > c.rows[0].gain
            assert "random subset" in c.note
    assert flagged, "with one feature drawn per split, some node should miss a better one"


def test_candidates_name_the_splits_exactly_as_good_as_the_trees() -> None:
    # At iris's root, petal length and petal width both part setosa off alone; scikit-learn's
    # random feature order may ask either. Below it, no split ties.
    model = fit("iris", max_depth=2)
    X, y = data("iris")
    root = split_candidates(model, X, y, 0)
    assert [s.feature for s in root.rows[:2]] == [2, 3]
    assert root.tied == (1,)
    assert root.rows[1].gain == root.rows[0].gain
    assert (root.rows[1].n_left, root.rows[1].n_right) == (root.rows[0].n_left, 78)
    below = split_candidates(model, X, y, int(model.tree_.children_right[0]))
    assert below.tied == ()
    leaf = int(model.tree_.children_left[0])
    assert split_candidates(model, X, y, leaf).tied == ()


def test_candidates_at_a_leaf_have_no_chosen_row() -> None:
    model = fit("iris", max_depth=1)
    X, y = data("iris")
    leaf = int(np.flatnonzero(model.tree_.is_leaf & (model.tree_.impurity > 0))[0])
    c = split_candidates(model, X, y, leaf)
    assert c.chosen is None
    assert c.rows and all(s.splits for s in c.rows)
    assert c.rows[0].gain >= c.rows[-1].gain


# -- why a leaf stopped ---------------------------------------------------------------------------


def test_why_pure() -> None:
    # The root's x0 <= 2.5 sends the first two rows, both of class 0, to node 1.
    model = DecisionTreeClassifier().fit(TOY_X, TOY_Y)
    assert why_leaf(model, TOY_X, TOY_Y, 1) == StopReason(
        node=1, code="pure", rule=1, n_samples=2, depth=1, pure_class=0
    )
    # Class 1 is the second of classes_, whatever its label.
    labels = np.array(["no", "no", "yes", "yes", "no"])
    model = DecisionTreeClassifier().fit(TOY_X, labels)
    pure = [why_leaf(model, TOY_X, labels, int(n)) for n in np.flatnonzero(model.tree_.is_leaf)]
    assert [(r.code, r.n_samples, r.pure_class) for r in pure] == [
        ("pure", 2, 0),
        ("pure", 2, 1),
        ("pure", 1, 0),
    ]
    # A regressor's pure leaf has one target value and no class.
    targets = TOY_Y.astype(np.float64)
    model = DecisionTreeRegressor().fit(TOY_X, targets)
    assert why_leaf(model, TOY_X, targets, 1) == StopReason(
        node=1, code="pure", rule=1, n_samples=2, depth=1, pure_class=None
    )


def test_why_max_depth() -> None:
    X, y = data("iris")
    model = DecisionTreeClassifier(max_depth=1).fit(X, y)
    impure = int(np.flatnonzero(model.tree_.impurity > 0.1)[-1])
    r = why_leaf(model, X, y, impure)
    assert r == StopReason(
        node=impure,
        code="max_depth",
        rule=2,
        n_samples=int(model.tree_.n_node_samples[impure]),
        depth=1,
        limit=1,
    )


def test_why_min_samples_split() -> None:
    X, y = data("iris")
    model = DecisionTreeClassifier(min_samples_split=len(y) - 10).fit(X, y)
    assert model.tree_.node_count == 3
    big = 1 if model.tree_.impurity[1] > 0 else 2
    r = why_leaf(model, X, y, big)
    assert (r.code, r.rule, r.limit) == ("min_samples_split", 4, len(y) - 10)
    assert r.n_samples == model.tree_.n_node_samples[big] < len(y) - 10
    # A fraction is resolved as the builder resolves it: ceil(0.9 * n) samples.
    model = DecisionTreeClassifier(min_samples_split=0.9).fit(X, y)
    assert why_leaf(model, X, y, big).limit == int(np.ceil(0.9 * len(y)))


def test_why_min_samples_leaf_too_few_samples() -> None:
    # The root (5 samples) splits 2 | 3 on x0 <= 2.5; 3 < 2 * 2, so node 2 cannot split.
    model = DecisionTreeClassifier(min_samples_leaf=2).fit(TOY_X, TOY_Y)
    assert model.tree_.node_count == 3
    assert why_leaf(model, TOY_X, TOY_Y, 2) == StopReason(
        node=2, code="min_samples_leaf", rule=3, n_samples=3, depth=1, limit=2
    )


def test_why_min_samples_leaf_no_threshold_keeps_it() -> None:
    # Values 0, 0, 0, 1: the only threshold leaves 3 | 1, and each side needs 2.
    X = np.array([[0.0], [0.0], [0.0], [1.0]])
    y = np.array([0, 1, 0, 1])
    model = DecisionTreeClassifier(min_samples_leaf=2).fit(X, y)
    assert why_leaf(model, X, y, 0) == StopReason(
        node=0, code="min_samples_leaf", rule=6, n_samples=4, depth=0, limit=2
    )


def test_why_constant_features() -> None:
    X = np.ones((3, 2))
    y = np.array([0, 1, 0])
    model = DecisionTreeClassifier().fit(X, y)
    assert why_leaf(model, X, y, 0) == StopReason(
        node=0, code="constant", rule=5, n_samples=3, depth=0
    )


def test_why_min_impurity_decrease() -> None:
    # Iris's best root split separates one class from the other two: in this training set
    # 35 | 45 + 33 samples. Its decrease is gini(35, 45, 33) - 78/113 * gini(45, 33) < 0.4.
    X, y = data("iris")
    counts = np.bincount(y)
    assert counts.tolist() == [35, 45, 33]

    def gini(c: np.ndarray) -> float:
        return float(1 - ((c / c.sum()) ** 2).sum())

    decrease = gini(counts) - 78 / 113 * gini(counts[1:])
    model = DecisionTreeClassifier(min_impurity_decrease=0.4).fit(X, y)
    r = why_leaf(model, X, y, 0)
    assert (r.code, r.rule, r.n_samples, r.depth, r.limit) == (
        "min_impurity_decrease",
        7,
        113,
        0,
        0.4,
    )
    # Petal length and petal width both separate it: the lower feature, as the builder.
    assert r.best_feature == 2
    assert r.decrease == pytest.approx(decrease)


def test_why_pruned() -> None:
    X, y = data("iris")
    model = DecisionTreeClassifier(ccp_alpha=0.1).fit(X, y)
    full = DecisionTreeClassifier().fit(X, y)
    assert model.tree_.n_leaves < full.tree_.n_leaves
    reasons = [why_leaf(model, X, y, int(n)) for n in np.flatnonzero(model.tree_.is_leaf)]
    assert "ccp_alpha" in [r.code for r in reasons]
    assert {r.code for r in reasons} <= {"pure", "ccp_alpha"}
    for r in reasons:
        if r.code == "ccp_alpha":
            # The branch pruning cut would have decreased the impurity, by no more than alpha
            # per leaf it added.
            assert (r.rule, r.limit) == (8, 0.1)
            assert r.best_feature is not None and r.decrease is not None
            assert 0.0 < r.decrease < 0.1
            # Weighted by the node's share of the samples, as min_impurity_decrease reads it.
            rows = node_rows(model, X, r.node)
            best = best_split(X[rows], y[rows], "gini", 3)[0]
            assert r.n_samples < len(y)
            assert r.best_feature == best.feature
            assert r.decrease == pytest.approx(r.n_samples / len(y) * best.gain)


def test_why_the_drawn_features() -> None:
    # Feature 0 is noise, feature 1 is the class: a root that draws only feature 0 finds no
    # split worth min_impurity_decrease, though feature 1 would have separated everything.
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1], 20)
    X = np.column_stack([rng.normal(size=40), y + rng.normal(scale=0.1, size=40)])
    for seed in range(20):
        model = DecisionTreeClassifier(
            max_features=1, min_impurity_decrease=0.1, random_state=seed
        ).fit(X, y)
        if model.tree_.node_count == 1:
            # Over all features the best split is feature 1's, which separates the classes:
            # the root's whole Gini impurity 0.5.
            assert why_leaf(model, X, y, 0) == StopReason(
                node=0,
                code="features_drawn",
                rule=9,
                n_samples=40,
                depth=0,
                best_feature=1,
                decrease=pytest.approx(0.5),
            )
            return
    pytest.fail("no seed drew the noise feature at the root")


def test_why_refuses_a_split_node() -> None:
    model = DecisionTreeClassifier().fit(TOY_X, TOY_Y)
    with pytest.raises(ValueError, match="node 0 is not a leaf"):
        why_leaf(model, TOY_X, TOY_Y, 0)
    with pytest.raises(ValueError, match="node must be in"):
        why_leaf(model, TOY_X, TOY_Y, 9)
