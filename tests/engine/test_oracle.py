"""Trees checked against scikit-learn, node by node, on iris, wine, breast cancer and sine.

X is float32-exact (see ``float32_roundtrip``), so both implementations see the same
candidate thresholds. Where several splits are exactly as good, scikit-learn picks one by its
random feature order and we pick the lowest feature index, then the lowest threshold; each
test below says how it deals with that.
"""

from __future__ import annotations

import itertools
from functools import cache
from typing import Any

import numpy as np
import pytest
from conftest import (
    CLASSIFIER_DATASETS,
    IMPL,
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    train_test,
)
from numpy.testing import assert_allclose, assert_array_equal
from sklearn_reference import (
    STRUCTURE,
    child_impurity,
    is_classification,
    reference_build,
    sklearn_tree,
)

CLASSIFICATION = [
    (dataset, criterion)
    for dataset in CLASSIFIER_DATASETS
    for criterion in ("gini", "entropy", "log_loss")
]
REGRESSION = [("sine", "squared_error"), ("sine", "absolute_error")]
DATA_CRITERIA = CLASSIFICATION + REGRESSION
MAX_DEPTHS = (1, 3, None)
MIN_SAMPLES_LEAF = (1, 5)
SETTINGS = [
    pytest.param(dataset, criterion, depth, leaf, id=f"{dataset}-{criterion}-d{depth}-l{leaf}")
    for (dataset, criterion), depth, leaf in itertools.product(
        DATA_CRITERIA, MAX_DEPTHS, MIN_SAMPLES_LEAF
    )
]
FULL_TREES = [
    pytest.param(dataset, criterion, leaf, id=f"{dataset}-{criterion}-l{leaf}")
    for (dataset, criterion), leaf in itertools.product(DATA_CRITERIA, MIN_SAMPLES_LEAF)
]
# scikit-learn seeds tried to see whether a setting has ties (a seed only changes the order
# in which scikit-learn visits features when max_features=None). 50 seeds between them make
# every test prediction that a 51st seed's tree made in 100 trials on these data sets.
SKLEARN_SEEDS = range(50)
# The seed of the model under test; outside SKLEARN_SEEDS, so under ARBORETUM_IMPL=sklearn
# the model is not simply one of the trees it is compared with. Our trees ignore it here.
MODEL_SEED = 1000


@cache
def fitted(dataset: str, criterion: str, max_depth: int | None, min_samples_leaf: int) -> Any:
    X, _, y, _ = train_test(dataset)
    estimator = DecisionTreeClassifier if is_classification(criterion) else DecisionTreeRegressor
    return estimator(
        criterion=criterion,
        max_depth=max_depth,
        min_samples_leaf=min_samples_leaf,
        random_state=MODEL_SEED,
    ).fit(X, y)


@cache
def sklearn_fits(dataset: str, criterion: str, max_depth: int | None, leaf: int) -> list[Any]:
    X, _, y, _ = train_test(dataset)
    return [
        sklearn_tree(criterion, max_depth=max_depth, min_samples_leaf=leaf, random_state=seed).fit(
            X, y
        )
        for seed in SKLEARN_SEEDS
    ]


def node_depths(tree: Any) -> np.ndarray:
    depth = np.zeros(tree.node_count, dtype=int)
    for node in range(tree.node_count):  # preorder: parents come first
        for child in (tree.children_left[node], tree.children_right[node]):
            if child != -1:
                depth[child] = depth[node] + 1
    return depth


def node_rows(model: Any, X: np.ndarray) -> list[np.ndarray]:
    """The rows of X reaching each node."""
    reach = model.decision_path(X).tocsc()
    return [np.sort(reach[:, node].indices) for node in range(model.tree_.node_count)]


@pytest.mark.parametrize(("dataset", "criterion", "max_depth", "min_samples_leaf"), SETTINGS)
def test_every_split_is_optimal(
    dataset: str, criterion: str, max_depth: int | None, min_samples_leaf: int
) -> None:
    # A depth-1 scikit-learn tree fitted on a node's samples finds the best split there. Its
    # weighted child impurity does not depend on which of several tied splits it picked.
    X, _, y, _ = train_test(dataset)
    model = fitted(dataset, criterion, max_depth, min_samples_leaf)
    tree = model.tree_
    rows = node_rows(model, X)
    depths = node_depths(tree)
    atol = 1e-12 * max(1.0, tree.impurity[0])
    assert max_depth is None or depths.max() <= max_depth
    for node in range(tree.node_count):
        assert len(rows[node]) == tree.n_node_samples[node], f"node {node}"
        stump = sklearn_tree(criterion, max_depth=1, min_samples_leaf=min_samples_leaf)
        stump.fit(X[rows[node]], y[rows[node]])
        assert_allclose(tree.impurity[node], stump.tree_.impurity[0], rtol=1e-9, atol=atol)
        if tree.children_left[node] == -1:
            assert tree.n_node_samples[node] >= min_samples_leaf, f"leaf {node}"
            if max_depth is None or depths[node] < max_depth:
                assert stump.tree_.node_count == 1, f"leaf {node} could still be split"
            continue
        assert stump.tree_.node_count == 3, f"node {node} was split where no split is valid"
        assert_allclose(
            child_impurity(tree, node),
            child_impurity(stump.tree_, 0),
            rtol=1e-9,
            atol=atol,
            err_msg=f"node {node}: split on feature {tree.feature[node]} is not the best",
        )


@pytest.mark.parametrize(("dataset", "criterion", "max_depth", "min_samples_leaf"), SETTINGS)
def test_thresholds_are_midpoints_and_route_left_when_less_or_equal(
    dataset: str, criterion: str, max_depth: int | None, min_samples_leaf: int
) -> None:
    X, _, _, _ = train_test(dataset)
    model = fitted(dataset, criterion, max_depth, min_samples_leaf)
    tree = model.tree_
    rows = node_rows(model, X)
    for node in np.flatnonzero(tree.children_left != -1):
        feature, threshold = tree.feature[node], tree.threshold[node]
        column = X[rows[node], feature]
        values = np.unique(column)
        midpoints = (values[:-1] + values[1:]) / 2
        assert threshold in midpoints, f"node {node}: {threshold} is not a midpoint"
        went_left = rows[node][column <= threshold]
        assert_array_equal(rows[tree.children_left[node]], went_left, err_msg=f"node {node}")


def predictions_close(criterion: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if is_classification(criterion):
        return a == b
    return np.isclose(a, b, rtol=1e-9, atol=1e-9)


@cache
def reference(dataset: str, criterion: str, max_depth: int | None, min_samples_leaf: int) -> Any:
    X, _, y, _ = train_test(dataset)
    model = fitted(dataset, criterion, max_depth, min_samples_leaf)
    return reference_build(X, y, criterion, max_depth, min_samples_leaf, follow=model)


@pytest.mark.parametrize(("dataset", "criterion", "min_samples_leaf"), FULL_TREES)
def test_fully_grown_tree_matches_sklearn(
    dataset: str, criterion: str, min_samples_leaf: int
) -> None:
    # Ties. scikit-learn trees fitted with different seeds differ only where several splits
    # are equally good. Their shapes and training predictions agree on every setting here
    # but one (breast cancer, entropy, leaf 5), and ours must match one seed's tree. Test
    # predictions differ wherever two features cut a node's training samples the same way but
    # not the test samples, so each of ours must be one that some seed's tree makes.
    # Splits tied up to rounding (absolute error on sine has some) never show up as seeds
    # disagreeing: where ours differs from scikit-learn's unanimous tree, it must be because
    # of such a tie, and then it must equal the reference tree (sklearn_reference.py).
    X_train, X_test, _, _ = train_test(dataset)
    ours = fitted(dataset, criterion, None, min_samples_leaf)
    theirs = sklearn_fits(dataset, criterion, None, min_samples_leaf)

    def shape(model: Any) -> tuple[int, int, int]:
        return model.tree_.node_count, model.get_depth(), model.get_n_leaves()

    def same_fit(model: Any) -> bool:
        return shape(ours) == shape(model) and bool(
            predictions_close(criterion, ours.predict(X_train), model.predict(X_train)).all()
        )

    ours_test = ours.predict(X_test)
    theirs_test = np.array([model.predict(X_test) for model in theirs])
    if not any(same_fit(model) for model in theirs):
        tied = reference(dataset, criterion, None, min_samples_leaf)
        assert tied.followed, f"shape {shape(ours)}, scikit-learn {shape(theirs[0])}"
        assert ours.tree_.node_count == tied.node_count
        for X in (X_train, X_test):
            assert_array_equal(predictions_close(criterion, ours.predict(X), tied.predict(X)), True)
        return
    seen = predictions_close(criterion, ours_test[None, :], theirs_test).any(axis=0)
    assert_array_equal(seen, True, err_msg="test predictions no scikit-learn tree makes")


@pytest.mark.parametrize(("dataset", "criterion", "max_depth", "min_samples_leaf"), SETTINGS)
def test_tree_equals_reference_build(
    dataset: str, criterion: str, max_depth: int | None, min_samples_leaf: int
) -> None:
    # Our tie rule makes the tree unique, so on core every array must equal the reference's.
    # scikit-learn breaks exact ties its own way: under ARBORETUM_IMPL=sklearn this checks the
    # reference itself, fully where scikit-learn's seeds all build the same tree, and by node
    # count and training predictions elsewhere.
    X_train, X_test, _, _ = train_test(dataset)
    model = fitted(dataset, criterion, max_depth, min_samples_leaf)
    tied = reference(dataset, criterion, max_depth, min_samples_leaf)
    tree = model.tree_
    scale = max(1.0, tied.arrays["impurity"][0])

    if IMPL == "sklearn":
        theirs = sklearn_fits(dataset, criterion, max_depth, min_samples_leaf)
        if len({m.tree_.feature.tobytes() + m.tree_.threshold.tobytes() for m in theirs}) > 1:
            assert any(m.tree_.node_count == tied.node_count for m in theirs)
            assert any(
                predictions_close(criterion, m.predict(X_train), tied.predict(X_train)).all()
                for m in theirs
            )
            return

    for key in STRUCTURE:
        assert_array_equal(getattr(tree, key), tied.arrays[key], err_msg=f"tree_.{key}")
    value = tree.value[:, 0, :] if is_classification(criterion) else tree.value[:, 0, 0]
    assert_allclose(value, tied.arrays["value"], rtol=1e-9, atol=1e-12 * scale)
    assert_allclose(tree.impurity, tied.arrays["impurity"], rtol=1e-9, atol=1e-12 * scale)
    for X in (X_train, X_test):
        assert_array_equal(predictions_close(criterion, model.predict(X), tied.predict(X)), True)
