"""Forests: how the trees combine, the staged and out-of-bag curves, and parity in score."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import (
    CLASSIFIER_DATASETS,
    RandomForestClassifier,
    RandomForestRegressor,
    needs_core,
    train_test,
)
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.ensemble import RandomForestClassifier as SkForestClassifier
from sklearn.ensemble import RandomForestRegressor as SkForestRegressor
from sklearn.metrics import r2_score

FORESTS = {
    "classifier": (RandomForestClassifier, "wine"),
    "regressor": (RandomForestRegressor, "sine"),
}


def fit(kind: str, dataset: str | None = None, **params: Any) -> tuple[Any, tuple]:
    forest, default_dataset = FORESTS[kind]
    split = train_test(dataset or default_dataset)
    params = {"n_estimators": 12, "random_state": 0, **params}
    return forest(**params).fit(split[0], split[2]), split


@pytest.mark.parametrize("kind", FORESTS)
def test_forest_averages_its_trees(kind: str) -> None:
    forest, (X_train, X_test, _, _) = fit(kind)
    X = np.vstack([X_train, X_test])
    if kind == "classifier":
        per_tree = [tree.predict_proba(X) for tree in forest.estimators_]
        assert_allclose(forest.predict_proba(X), np.mean(per_tree, axis=0), rtol=1e-12)
    else:
        per_tree = [tree.predict(X) for tree in forest.estimators_]
        assert_allclose(forest.predict(X), np.mean(per_tree, axis=0), rtol=1e-12)


@pytest.mark.parametrize("kind", FORESTS)
def test_importances_are_the_mean_over_trees(kind: str) -> None:
    forest, _ = fit(kind, "breast_cancer", max_depth=4)
    per_tree = [tree.feature_importances_ for tree in forest.estimators_]
    assert_allclose(forest.feature_importances_, np.mean(per_tree, axis=0), rtol=1e-12)


@pytest.mark.parametrize("kind", FORESTS)
def test_apply_has_one_column_per_tree(kind: str) -> None:
    forest, (X_train, _, _, _) = fit(kind)
    leaves = forest.apply(X_train)
    assert leaves.shape == (len(X_train), len(forest.estimators_))
    for column, tree in zip(leaves.T, forest.estimators_, strict=True):
        assert_array_equal(column, tree.apply(X_train))


@pytest.mark.parametrize("kind", FORESTS)
def test_decision_path_stacks_the_trees(kind: str) -> None:
    # scikit-learn's forest API: the trees' indicators side by side, and where each begins.
    forest, (X_train, _, _, _) = fit(kind)
    indicator, starts = forest.decision_path(X_train)
    assert sp.issparse(indicator)
    sizes = [tree.tree_.node_count for tree in forest.estimators_]
    assert_array_equal(starts, np.concatenate([[0], np.cumsum(sizes)]))
    assert indicator.shape == (len(X_train), starts[-1])
    for i, tree in enumerate(forest.estimators_):
        block = indicator[:, starts[i] : starts[i + 1]].toarray()
        assert_array_equal(block, tree.decision_path(X_train).toarray())


@pytest.mark.parametrize("kind", FORESTS)
def test_bootstrap_sample_size(kind: str) -> None:
    # Rows drawn n times with replacement are counted by weighted_n_node_samples at the root;
    # without bootstrap every tree sees each row once.
    forest, (X_train, _, _, _) = fit(kind, max_samples=0.5)
    n = len(X_train)
    for tree in forest.estimators_:
        assert tree.tree_.weighted_n_node_samples[0] == round(0.5 * n)
        assert tree.tree_.n_node_samples[0] < round(0.5 * n)  # some rows drawn twice
    forest, _ = fit(kind, bootstrap=False)
    for tree in forest.estimators_:
        assert tree.tree_.n_node_samples[0] == n
        assert tree.tree_.weighted_n_node_samples[0] == n


@pytest.mark.parametrize("kind", FORESTS)
def test_oob_score_matches_oob_predictions(kind: str) -> None:
    forest, (_, _, y_train, _) = fit(kind, n_estimators=50, oob_score=True)
    if kind == "classifier":
        decision = forest.oob_decision_function_
        assert decision.shape == (len(y_train), len(forest.classes_))
        assert_allclose(decision.sum(axis=1), 1.0, rtol=1e-12)
        predicted = forest.classes_[np.argmax(decision, axis=1)]
        assert forest.oob_score_ == np.mean(predicted == y_train)
    else:
        assert forest.oob_prediction_.shape == y_train.shape
        assert_allclose(forest.oob_score_, r2_score(y_train, forest.oob_prediction_))


@needs_core
@pytest.mark.parametrize("kind", FORESTS)
def test_predict_per_tree(kind: str) -> None:
    forest, (_, X_test, _, _) = fit(kind)
    per_tree = forest.predict_per_tree(X_test)
    if kind == "classifier":
        assert per_tree.shape == (12, len(X_test), forest.n_classes_)
        assert_allclose(per_tree.sum(axis=2), 1.0, rtol=1e-12)
        assert_allclose(per_tree.mean(axis=0), forest.predict_proba(X_test), rtol=1e-12)
        for k, tree in enumerate(forest.estimators_):
            assert_allclose(per_tree[k], tree.predict_proba(X_test), rtol=1e-12)
    else:
        assert per_tree.shape == (12, len(X_test))
        assert_allclose(per_tree.mean(axis=0), forest.predict(X_test), rtol=1e-12)
        for k, tree in enumerate(forest.estimators_):
            assert_allclose(per_tree[k], tree.predict(X_test), rtol=1e-12)


@needs_core
@pytest.mark.parametrize("kind", FORESTS)
def test_staged_scores_are_scores_of_the_first_k_trees(kind: str) -> None:
    forest, (_, X_test, _, y_test) = fit(kind)
    staged = forest.staged_scores(X_test, y_test)
    assert staged.shape == (12,)
    assert staged[-1] == pytest.approx(forest.score(X_test, y_test), rel=1e-12, abs=1e-12)
    per_tree = forest.predict_per_tree(X_test)
    for k in range(1, 13):
        mean = per_tree[:k].mean(axis=0)
        if kind == "classifier":
            expected = np.mean(forest.classes_[np.argmax(mean, axis=1)] == y_test)
        else:
            expected = r2_score(y_test, mean)
        assert staged[k - 1] == pytest.approx(expected, rel=1e-12, abs=1e-12), f"k={k}"


@needs_core
@pytest.mark.parametrize("kind", FORESTS)
def test_staged_scores_match_smaller_forests(kind: str) -> None:
    forest, (X_train, X_test, y_train, y_test) = fit(kind, n_estimators=6)
    staged = forest.staged_scores(X_test, y_test)
    estimator = FORESTS[kind][0]
    for k in (1, 3, 6):
        smaller = estimator(n_estimators=k, random_state=0).fit(X_train, y_train)
        assert staged[k - 1] == pytest.approx(smaller.score(X_test, y_test), rel=1e-12)


@needs_core
@pytest.mark.parametrize("kind", FORESTS)
def test_oob_staged_scores_end_at_oob_score(kind: str) -> None:
    forest, _ = fit(kind, n_estimators=25, oob_score=True)
    curve = forest.oob_staged_scores_
    assert curve.shape == (25,)
    assert curve[-1] == pytest.approx(forest.oob_score_, rel=1e-12, abs=1e-12)
    # NaN only before the first tree with out-of-bag rows; defined from then on.
    defined = ~np.isnan(curve)
    assert defined.any()
    assert defined[np.argmax(defined) :].all()


@needs_core
def test_oob_staged_scores_nan_until_a_tree_leaves_rows_out() -> None:
    # Three rows: a bootstrap draws all three with probability 6/27, and then that tree has
    # no out-of-bag row. Look for a seed whose first tree is like that.
    X, y = np.array([[0.0], [1.0], [2.0]]), np.array([0, 1, 1])
    for seed in range(30):
        forest = RandomForestClassifier(n_estimators=10, oob_score=True, random_state=seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # rows without out-of-bag trees are warned about
            forest.fit(X, y)
        leaves_rows_out = [tree.tree_.n_node_samples[0] < 3 for tree in forest.estimators_]
        if not leaves_rows_out[0]:
            break
    else:
        pytest.fail("no seed in 30 drew all three rows for the first tree")
    expected_nan = ~np.logical_or.accumulate(leaves_rows_out)
    assert_array_equal(np.isnan(forest.oob_staged_scores_), expected_nan)


# Parity with scikit-learn: 5 seeds of 50 trees, scored on held-out data. The seeds do not
# match between the two implementations, so compare the means within sampling noise: 2
# points of accuracy or 0.03 of R^2, or three standard errors of the difference of the means
# when the seeds scatter more than that (wine's 44 test rows make one row 2.3 points).
PARITY_SEEDS = range(5)


def scores(forest: type, dataset: str, **params: Any) -> np.ndarray:
    X_train, X_test, y_train, y_test = train_test(dataset)
    return np.array(
        [
            forest(n_estimators=50, random_state=seed, **params)
            .fit(X_train, y_train)
            .score(X_test, y_test)
            for seed in PARITY_SEEDS
        ]
    )


@pytest.mark.parametrize(
    ("dataset", "criterion"),
    [(name, "gini") for name in CLASSIFIER_DATASETS] + [("breast_cancer", "entropy")],
)
def test_classifier_accuracy_matches_sklearn(dataset: str, criterion: str) -> None:
    ours = scores(RandomForestClassifier, dataset, criterion=criterion)
    theirs = scores(SkForestClassifier, dataset, criterion=criterion)
    noise = 3 * np.sqrt((ours.var(ddof=1) + theirs.var(ddof=1)) / len(PARITY_SEEDS))
    assert abs(ours.mean() - theirs.mean()) <= max(0.02, noise), (ours, theirs)


@pytest.mark.parametrize("criterion", ["squared_error", "absolute_error"])
def test_regressor_r2_matches_sklearn(criterion: str) -> None:
    ours = scores(RandomForestRegressor, "sine", criterion=criterion)
    theirs = scores(SkForestRegressor, "sine", criterion=criterion)
    assert abs(ours.mean() - theirs.mean()) <= 0.03, (ours, theirs)
