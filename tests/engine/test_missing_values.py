"""Missing values (NaN) in X, checked against scikit-learn split by split.

scikit-learn (>= 1.3 for trees, >= 1.4 for forests) sends the rows with a missing value to
whichever side gives the lower impurity, stores that side in ``tree_.missing_go_to_left`` and
sends a missing value met at prediction time the same way (to the child with more training
samples when the node saw none). The data here are continuous draws, float32-exact, so no two
splits tie exactly; each comparison first checks that scikit-learn's tree does not depend on
its random feature order (which would mean a tie), so the test can only pass on a real match.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import sklearn
from conftest import (
    IMPL,
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    RandomForestRegressor,
    float32_roundtrip,
    needs_core,
)
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.tree import DecisionTreeClassifier as SkTreeClassifier
from sklearn.tree import DecisionTreeRegressor as SkTreeRegressor

from core.engine.scan import scan_feature

# The semantics followed are scikit-learn 1.9's, checked against it. Older releases differ in
# details (1.6's decision_path does not follow missing_go_to_left, and it does not split a
# feature whose known values are all equal, whatever its missing ones): compare with 1.9+.
SKLEARN_19 = tuple(int(p) for p in sklearn.__version__.split(".")[:2]) >= (1, 9)
versus_sklearn = pytest.mark.skipif(
    not SKLEARN_19,
    reason=f"missing values are compared with scikit-learn >= 1.9, not {sklearn.__version__}",
)

ARRAYS = ("children_left", "feature", "n_node_samples", "missing_go_to_left")
CLOSE = ("threshold", "impurity", "value")
RATES = (0.05, 0.2, 0.5)


def make_data(
    seed: int, rate: float, *, n: int = 300, d: int = 4, task: str = "classification"
) -> tuple[np.ndarray, np.ndarray]:
    """Gaussian features with a random share ``rate`` missing; feature 3 is missing for every
    row with ``x0 > 0.8`` (so it is all-NaN in some nodes); y depends on x0, x1 and on
    whether x2 is missing."""
    rng = np.random.default_rng(seed)
    X = float32_roundtrip(rng.normal(size=(n, d)))
    signal = X[:, 0] + 0.8 * X[:, 1]
    X[rng.random((n, d)) < rate] = np.nan
    signal += np.where(np.isnan(X[:, 2]), 1.0, 0.0)
    X[np.nan_to_num(X[:, 0]) > 0.8, 3] = np.nan
    if task == "classification":
        y = np.digitize(signal + 0.3 * rng.normal(size=n), [-0.7, 0.6])
    else:
        y = signal + 0.3 * rng.normal(size=n)
    return X, y


def assert_same_tree(ours: Any, theirs: Any) -> None:
    assert ours.node_count == theirs.node_count
    for name in ARRAYS:
        assert_array_equal(
            np.asarray(getattr(ours, name)).astype(np.int64),
            np.asarray(getattr(theirs, name)).astype(np.int64),
            err_msg=name,
        )
    for name in CLOSE:
        assert_allclose(getattr(ours, name), getattr(theirs, name), rtol=1e-7, err_msg=name)


def sklearn_fit(estimator: Any, X: np.ndarray, y: np.ndarray, **params: Any) -> Any:
    """scikit-learn's tree, after checking that its random feature order does not matter."""
    fits = [estimator(**params, random_state=seed).fit(X, y) for seed in range(4)]
    for other in fits[1:]:
        assert_same_tree(other.tree_, fits[0].tree_)  # a tie in the data: pick other data
    return fits[0]


CASES = [
    pytest.param(criterion, rate, seed, id=f"{criterion}-{rate}-{seed}")
    for criterion in ("gini", "entropy", "squared_error")
    for rate in RATES
    for seed in (1, 3)
]


@needs_core
@versus_sklearn
@pytest.mark.parametrize(("criterion", "rate", "seed"), CASES)
def test_tree_matches_sklearn_split_by_split(criterion: str, rate: float, seed: int) -> None:
    task = "regression" if criterion == "squared_error" else "classification"
    X, y = make_data(seed, rate, task=task)
    ours_cls, theirs_cls = (
        (DecisionTreeRegressor, SkTreeRegressor)
        if task == "regression"
        else (DecisionTreeClassifier, SkTreeClassifier)
    )
    # Leaves of 20 or more rows: small class-count nodes tie too often to compare.
    params = {"criterion": criterion, "max_depth": 4, "min_samples_leaf": 20}
    ours = ours_cls(**params).fit(X, y)
    theirs = sklearn_fit(theirs_cls, X, y, **params)
    assert_same_tree(ours.tree_, theirs.tree_)
    X_new, _ = make_data(seed + 100, 0.4, task=task)
    if task == "classification":
        assert_allclose(ours.predict_proba(X_new), theirs.predict_proba(X_new), rtol=1e-12)
    else:
        assert_allclose(ours.predict(X_new), theirs.predict(X_new), rtol=1e-12)
    assert_array_equal(ours.apply(X_new), theirs.apply(X_new))
    assert_array_equal(ours.decision_path(X_new).toarray(), theirs.decision_path(X_new).toarray())


def test_missing_values_really_split_the_data() -> None:
    # The cases above are worth something only if the missing values change the tree: some
    # node sends them left, some node sends them right.
    X, y = make_data(1, 0.2)
    tree = DecisionTreeClassifier(max_depth=4, min_samples_leaf=20).fit(X, y).tree_
    inner = tree.children_left != -1
    assert tree.missing_go_to_left[inner].any()
    assert not tree.missing_go_to_left[inner].all()


@pytest.mark.parametrize(
    "estimator",
    [DecisionTreeClassifier, pytest.param(SkTreeClassifier, marks=versus_sklearn)],
)
def test_present_values_one_side_missing_the_other(estimator: Any) -> None:
    # Present values all equal: the one split is "present left, missing right", threshold inf.
    X = np.array([[1.0], [1.0], [1.0], [np.nan], [np.nan]])
    y = np.array([0, 0, 0, 1, 1])
    model = estimator().fit(X, y)
    assert_array_equal(model.tree_.threshold, [np.inf, -2, -2])
    assert_array_equal(model.tree_.missing_go_to_left, [False, False, False])
    assert_array_equal(model.tree_.n_node_samples, [5, 3, 2])
    assert_array_equal(model.predict(np.array([[np.nan], [5.0]])), [1, 0])


@pytest.mark.parametrize("criterion", ["gini", "squared_error"])
def test_nan_only_at_predict_time_goes_to_the_bigger_child(criterion: str) -> None:
    X, y = make_data(
        2, 0.0, task="regression" if criterion == "squared_error" else "classification"
    )
    estimator = DecisionTreeRegressor if criterion == "squared_error" else DecisionTreeClassifier
    tree = estimator(criterion=criterion, max_depth=4).fit(X, y).tree_
    inner = np.flatnonzero(tree.children_left != -1)
    left, right = tree.children_left[inner], tree.children_right[inner]
    expected = tree.n_node_samples[left] > tree.n_node_samples[right]
    assert_array_equal(np.asarray(tree.missing_go_to_left)[inner].astype(bool), expected)


@needs_core
@versus_sklearn
def test_forest_trees_match_sklearn_trees_on_the_same_bootstrap() -> None:
    # Each tree of our forest is grown on a bootstrap sample drawn from its own stream of
    # SeedSequence(random_state).spawn(n_estimators); scikit-learn's tree grown on the same
    # counts (as sample weights) must be the same tree, missing directions included.
    X, y = make_data(3, 0.2, task="regression")
    forest = RandomForestRegressor(
        n_estimators=4, random_state=7, max_features=None, min_samples_leaf=5, max_depth=6
    ).fit(X, y)
    streams = np.random.SeedSequence(7).spawn(4)
    for tree, stream in zip(forest.estimators_, streams, strict=True):
        rng = np.random.default_rng(stream)
        counts = np.bincount(rng.integers(0, len(y), len(y)), minlength=len(y))
        theirs = SkTreeRegressor(min_samples_leaf=5, max_depth=6, random_state=0)
        theirs.fit(X[counts > 0], y[counts > 0], sample_weight=counts[counts > 0])
        assert_same_tree(tree.tree_, theirs.tree_)


@versus_sklearn
@pytest.mark.parametrize("max_features", [None, 2])
def test_forest_with_missing_values_scores_like_sklearn(max_features: int | None) -> None:
    from sklearn.ensemble import RandomForestRegressor as SkForest

    X, y = make_data(4, 0.3, n=600, task="regression")
    X_test, y_test = make_data(5, 0.3, n=600, task="regression")
    params = {"n_estimators": 30, "max_features": max_features, "random_state": 0}
    ours = RandomForestRegressor(**params, oob_score=True).fit(X, y)
    theirs = SkForest(**params, oob_score=True).fit(X, y)
    assert abs(ours.score(X_test, y_test) - theirs.score(X_test, y_test)) < 0.03
    assert abs(ours.oob_score_ - theirs.oob_score_) < 0.04
    assert ours.score(X_test, y_test) > 0.5  # the missing-value signal was learned


@needs_core
def test_forest_paths_agree_with_its_trees_on_missing_values() -> None:
    X, y = make_data(6, 0.3, n=400, task="regression")
    forest = RandomForestRegressor(n_estimators=8, random_state=0, max_features=2).fit(X, y)
    X_new = np.repeat(make_data(7, 0.4, n=300, task="regression")[0], 2, axis=0)
    per_tree = np.array([tree.predict(X_new) for tree in forest.estimators_])
    assert_allclose(forest.predict_per_tree(X_new), per_tree, rtol=1e-12)
    assert_allclose(forest.predict(X_new), per_tree.mean(axis=0), rtol=1e-12)
    leaves = np.column_stack([tree.apply(X_new) for tree in forest.estimators_])
    assert_array_equal(forest.apply(X_new), leaves)
    staged = forest.staged_scores(X_new, forest.predict(X_new))
    assert staged[-1] == pytest.approx(1.0)


@needs_core
@versus_sklearn
def test_pruning_keeps_missing_directions() -> None:
    X, y = make_data(8, 0.3)
    full = DecisionTreeClassifier(random_state=0).fit(X, y)
    pruned = DecisionTreeClassifier(random_state=0, ccp_alpha=0.01).fit(X, y)
    assert 1 < pruned.tree_.node_count < full.tree_.node_count
    theirs = SkTreeClassifier(random_state=0, ccp_alpha=0.01).fit(X, y)
    assert_same_tree(pruned.tree_, theirs.tree_)


@pytest.mark.skipif(IMPL == "sklearn", reason="scan_feature is Arboretum's")
@pytest.mark.parametrize("criterion", ["gini", "entropy", "squared_error", "absolute_error"])
@pytest.mark.parametrize("rate", RATES)
def test_scan_feature_agrees_with_the_builder(criterion: str, rate: float) -> None:
    # A depth-1 tree on one feature is the builder's scan of that feature at the root.
    task = "classification" if criterion in ("gini", "entropy") else "regression"
    X, y = make_data(9, rate, n=120, task=task)
    estimator = DecisionTreeClassifier if task == "classification" else DecisionTreeRegressor
    for f in range(X.shape[1]):
        tree = estimator(criterion=criterion, max_depth=1, min_samples_leaf=3)
        tree = tree.fit(X[:, [f]], y).tree_
        scan = scan_feature(X[:, f], y, criterion=criterion, min_samples_leaf=3)  # type: ignore[arg-type]
        if scan.best < 0:
            assert tree.node_count == 1
            continue
        assert tree.threshold[0] == scan.best_threshold
        assert bool(tree.missing_go_to_left[0]) == (
            scan.best_missing_left
            if scan.n_missing
            else tree.n_node_samples[1] > tree.n_node_samples[2]
        )
        assert tree.n_node_samples[1] == scan.n_left[scan.best]


def test_scan_feature_lists_missing_candidates_in_search_order() -> None:
    # x: 1, 2, 3 present, two missing; y puts the missing rows with x = 1.
    x = np.array([1.0, 2.0, 3.0, np.nan, np.nan])
    y = np.array([0, 1, 1, 0, 0])
    scan = scan_feature(x, y, criterion="gini")
    assert_array_equal(scan.thresholds, [1.5, 2.5, np.inf, 1.5, 2.5])
    assert_array_equal(scan.missing_left, [False, False, False, True, True])
    assert_array_equal(scan.n_left, [1, 2, 3, 3, 4])
    assert scan.best == 3  # {1, NaN, NaN} | {2, 3}: both sides pure
    assert scan.best_impurity == 0.0


@needs_core
def test_why_this_split_sees_the_missing_direction() -> None:
    from core.engine.node_splits import split_candidates
    from core.engine.splits import evaluate_split

    X, y = make_data(1, 0.2)
    model = DecisionTreeClassifier(max_depth=4, min_samples_leaf=20).fit(X, y)
    tree = model.tree_
    for node in np.flatnonzero(tree.children_left != -1):
        candidates = split_candidates(model, X, y, int(node))
        mine = candidates.rows[0]
        assert mine.missing_left == bool(tree.missing_go_to_left[node])
        left = tree.children_left[node]
        assert mine.n_left == tree.n_node_samples[left]  # the missing rows went where it says
        assert not candidates.best_beats_chosen  # every feature tried: the tree's is the best
    # Without a direction, evaluate_split sends the missing rows to the better side.
    free = evaluate_split(X, y, 2, 0.0, "gini", 3)
    forced = [evaluate_split(X, y, 2, 0.0, "gini", 3, side) for side in (False, True)]
    assert free.n_missing > 0
    assert free.child_impurity == min(s.child_impurity for s in forced)


@needs_core
def test_best_first_replay_keeps_missing_directions() -> None:
    from core.engine.replay import growth_steps, tree_after

    X, y = make_data(1, 0.2)
    model = DecisionTreeClassifier(max_depth=4, min_samples_leaf=20).fit(X, y)
    steps = growth_steps(model.tree_)
    assert_array_equal(
        steps.missing_go_to_left, np.asarray(model.tree_.missing_go_to_left)[steps.node]
    )
    full = tree_after(model.tree_, len(steps))
    X_new, _ = make_data(11, 0.5)
    assert_array_equal(full.predict(X_new), model.tree_.predict(X_new))
    two = tree_after(model.tree_, 2)
    # The two split nodes keep their preorder, so the kept splits are the first two steps'
    # nodes in increasing id, with their missing directions.
    original = np.sort(steps.node[:2])
    kept = np.flatnonzero(two.children_left != -1)
    assert_array_equal(two.missing_go_to_left[kept], model.tree_.missing_go_to_left[original])
