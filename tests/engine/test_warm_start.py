"""``warm_start``: a fitted forest grows the trees ``n_estimators`` adds, and no others.

Scikit-learn's contract, checked on both implementations (``ARBORETUM_IMPL``): growing a forest
of ``k`` trees to ``n`` gives the forest a fresh fit of ``n`` trees gives, tree for tree, and
the trees it had are the very same objects.
"""

from __future__ import annotations

import copy
import warnings
from typing import Any

import numpy as np
import pytest
from conftest import (
    RandomForestClassifier,
    RandomForestRegressor,
    load_dataset,
    needs_core,
)
from numpy.testing import assert_array_equal
from test_properties import assert_same_trees

CASES = [
    (RandomForestClassifier, "wine", {}),
    (RandomForestClassifier, "iris", {"oob_score": True, "max_depth": 3}),
    (RandomForestClassifier, "breast_cancer", {"bootstrap": False, "max_features": 0.5}),
    (RandomForestClassifier, "wine", {"max_samples": 0.5, "oob_score": True, "n_jobs": 2}),
    (RandomForestRegressor, "diabetes", {"oob_score": True, "min_samples_leaf": 3}),
    (RandomForestRegressor, "sine", {"criterion": "absolute_error", "max_depth": 4}),
]


def _grown_warm(forest: type, X: Any, y: Any, params: dict[str, Any], steps: list[int]) -> Any:
    model = forest(n_estimators=steps[0], random_state=5, warm_start=True, **params).fit(X, y)
    for n in steps[1:]:
        model.set_params(n_estimators=n).fit(X, y)
    return model


def assert_same_forest(ours: Any, fresh: Any, X: Any, oob: bool) -> None:
    """``ours`` is ``fresh``, tree for tree: predictions, probabilities, out-of-bag results."""
    assert_same_trees(ours, fresh)
    assert_array_equal(ours.predict(X), fresh.predict(X))
    classifier = isinstance(fresh, RandomForestClassifier)
    if classifier:
        assert_array_equal(ours.predict_proba(X), fresh.predict_proba(X))
    if oob:
        assert ours.oob_score_ == fresh.oob_score_
        name = "oob_decision_function_" if classifier else "oob_prediction_"
        assert_array_equal(getattr(ours, name), getattr(fresh, name))


@pytest.mark.parametrize(("forest", "dataset", "params"), CASES)
def test_a_warm_forest_is_the_forest_a_fresh_fit_grows(
    forest: type, dataset: str, params: dict[str, Any]
) -> None:
    X, y = load_dataset(dataset)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # rows without out-of-bag trees, early
        warm = _grown_warm(forest, X, y, params, [4, 9, 16])
        fresh = forest(n_estimators=16, random_state=5, **params).fit(X, y)
    assert len(warm.estimators_) == 16
    assert_same_forest(warm, fresh, X, oob=params.get("oob_score", False))


def test_the_kept_trees_are_the_same_objects() -> None:
    X, y = load_dataset("wine")
    model = RandomForestClassifier(n_estimators=3, random_state=1, warm_start=True).fit(X, y)
    before = list(model.estimators_)
    model.set_params(n_estimators=5).fit(X, y)
    assert all(a is b for a, b in zip(before, model.estimators_[:3], strict=True))
    assert len(model.estimators_) == 5


@needs_core
def test_a_copy_grows_and_leaves_the_forest_it_was_copied_from() -> None:
    # How the app grows a shared forest: a shallow copy, warm-started; the original is unchanged.
    # (Ours makes new lists; scikit-learn's extends ``estimators_`` in place, shared by a copy.)
    X, y = load_dataset("wine")
    shared = RandomForestClassifier(n_estimators=3, random_state=1).fit(X, y)
    trees, proba = list(shared.estimators_), shared.predict_proba(X)
    grown = copy.copy(shared).set_params(n_estimators=6, warm_start=True).fit(X, y)
    assert len(grown.estimators_) == 6
    assert shared.estimators_ == trees and shared.n_estimators == 3
    assert_array_equal(shared.predict_proba(X), proba)
    fresh = RandomForestClassifier(n_estimators=6, random_state=1).fit(X, y)
    assert_array_equal(grown.predict_proba(X), fresh.predict_proba(X))


def test_without_warm_start_a_second_fit_grows_every_tree_again() -> None:
    X, y = load_dataset("wine")
    model = RandomForestClassifier(n_estimators=3, random_state=1).fit(X, y)
    before = list(model.estimators_)
    model.set_params(n_estimators=5).fit(X, y)
    assert not any(a is b for a, b in zip(before, model.estimators_, strict=False))


def test_a_warm_start_never_drops_trees() -> None:
    X, y = load_dataset("wine")
    model = RandomForestClassifier(n_estimators=5, random_state=1, warm_start=True).fit(X, y)
    with pytest.raises(ValueError, match="n_estimators"):
        model.set_params(n_estimators=3).fit(X, y)
    assert len(model.estimators_) == 5


def test_as_many_trees_warns_and_grows_nothing() -> None:
    X, y = load_dataset("wine")
    model = RandomForestClassifier(n_estimators=4, random_state=1, warm_start=True).fit(X, y)
    before = list(model.estimators_)
    with pytest.warns(UserWarning, match="[Ww]arm-start"):
        model.fit(X, y)
    assert model.estimators_ == before


@needs_core
def test_a_warm_start_on_other_classes_is_refused() -> None:
    X, y = load_dataset("iris")
    model = RandomForestClassifier(n_estimators=3, random_state=1, warm_start=True).fit(X, y)
    keep = y != y.max()
    with pytest.raises(ValueError, match="classes"):
        model.set_params(n_estimators=5).fit(X[keep], y[keep])


@needs_core
def test_progress_counts_the_trees_being_grown() -> None:
    X, y = load_dataset("wine")
    model = RandomForestClassifier(n_estimators=4, random_state=1, warm_start=True).fit(X, y)
    calls: list[float] = []
    model.set_params(n_estimators=8).fit(X, y, progress=calls.append)
    assert calls == [0.25, 0.5, 0.75, 1.0]
    assert np.all(np.diff(calls) > 0)


# --- the first trees of a fitted forest ------------------------------------------------------


@needs_core
@pytest.mark.parametrize(("forest", "dataset", "params"), CASES)
def test_the_first_trees_are_the_forest_a_fresh_fit_of_that_many_grows(
    forest: type, dataset: str, params: dict[str, Any]
) -> None:
    X, y = load_dataset(dataset)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # rows without out-of-bag trees, early
        big = forest(n_estimators=16, random_state=5, **params).fit(X, y)
        first = big.first_trees(7, X, y)
        fresh = forest(n_estimators=7, random_state=5, **params).fit(X, y)
    assert sorted(vars(first)) == sorted(vars(fresh)), "the same fitted attributes"
    assert first.get_params() == fresh.get_params()
    assert all(a is b for a, b in zip(first.estimators_, big.estimators_[:7], strict=True))
    assert_same_forest(first, fresh, X, oob=params.get("oob_score", False))
    if params.get("oob_score"):
        assert_array_equal(first.oob_staged_scores_, fresh.oob_staged_scores_)
    assert len(big.estimators_) == 16 and big.n_estimators == 16, "the forest as it was"


@needs_core
@pytest.mark.parametrize("n_trees", [0, 6, -1])
def test_the_first_trees_are_some_of_its_trees(n_trees: int) -> None:
    X, y = load_dataset("wine")
    model = RandomForestClassifier(n_estimators=5, random_state=1).fit(X, y)
    with pytest.raises(ValueError, match="n_trees must be from 1 to"):
        model.first_trees(n_trees, X, y)


@needs_core
@pytest.mark.filterwarnings("ignore:Some rows were in every tree")
def test_the_first_trees_need_the_rows_the_forest_was_grown_on() -> None:
    X, y = load_dataset("iris")
    model = RandomForestClassifier(n_estimators=5, random_state=1, oob_score=True).fit(X, y)
    with pytest.raises(ValueError, match="rows the forest was fitted on"):
        model.first_trees(3, X[:-1], y[:-1])
    other = np.where(y == 2, 1, y)
    with pytest.raises(ValueError, match="classes the forest was fitted on"):
        model.first_trees(3, X, other)
