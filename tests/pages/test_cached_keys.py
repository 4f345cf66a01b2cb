"""Cache keys of core.ui.cached: settings a result does not read must not make a new entry."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from core.app import cost as app_cost
from core.app.cost import forest_seconds
from core.app.models import ForestSpec, TreeSpec, affordable
from core.data.source import Source
from core.ui import cached, cached_curves
from tests.pages.page_helpers import count_calls

WINE = TreeSpec(source=Source.table("wine"), columns=(0, 12), criterion="gini", max_depth=4)


@pytest.fixture
def curve_fits(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the depth curves actually computed (not served from the cache)."""
    cached_curves._depth_curve.clear()
    yield count_calls(monkeypatch, cached_curves, "compute_depth_curve")
    cached_curves._depth_curve.clear()


def test_the_depth_curve_is_computed_once_for_every_depth_and_criterion(curve_fits):
    first = cached_curves.depth_curve(WINE)
    for changed in (
        replace(WINE, max_depth=9),
        replace(WINE, max_depth=None, criterion="entropy"),
        replace(WINE, ccp_alpha=0.01, min_samples_split=5, min_impurity_decrease=0.02),
    ):
        again = cached_curves.depth_curve(changed)
        np.testing.assert_array_equal(again.test, first.test)
        np.testing.assert_array_equal(again.train, first.train)
    assert len(curve_fits) == 1


@pytest.mark.parametrize(
    "changed",
    [
        replace(WINE, min_samples_leaf=5),
        replace(WINE, seed=3),
        replace(WINE, columns=(0, 1)),
        replace(WINE, test_size=0.4),
    ],
)
def test_what_the_depth_curve_reads_still_makes_a_new_curve(curve_fits, changed):
    cached_curves.depth_curve(WINE)
    cached_curves.depth_curve(changed)
    assert len(curve_fits) == 2


# --- the specs' own cache keys --------------------------------------------------------------


def test_every_field_of_a_spec_reaches_its_cache_key():
    # The keys are the specs' repr: a field it left out would serve one spec's model for
    # another's.
    moons = Source.generated("moons", 0.2, 200, 0)
    specs = [
        WINE,
        replace(WINE, max_depth=5),
        replace(WINE, criterion="entropy"),
        replace(WINE, columns=(0, 1)),
        replace(WINE, seed=1),
        replace(WINE, test_size=0.3),
        replace(WINE, source=moons),
        replace(WINE, source=replace(moons, noise=0.3)),
        replace(WINE, source=replace(moons, n_samples=300)),
        replace(WINE, source=replace(moons, data_seed=1)),
        ForestSpec(source=WINE.source, columns=WINE.columns, max_depth=4),
    ]
    keys = [cached.SPEC_KEYS[type(spec)](spec) for spec in specs]
    assert len(set(keys)) == len(specs)
    data_keys = {cached.SPEC_KEYS[type(spec.data)](spec.data) for spec in specs[:7]}
    assert len(data_keys) == 4  # the wine rows, the other seed, the other test size, moons


def test_a_spec_built_again_finds_its_model():
    cached.clear_caches()
    again = TreeSpec(source=Source.table("wine"), columns=(0, 12), criterion="gini", max_depth=4)
    assert again is not WINE
    assert cached.fit_tree(again) is cached.fit_tree(WINE)
    assert cached.fit_tree(replace(WINE, max_depth=3)) is not cached.fit_tree(WINE)


# --- a forest's cost, estimated once ---------------------------------------------------------

IRIS_FOREST = ForestSpec(
    source=Source.table("iris"),
    columns=(2, 3),
    criterion="gini",
    max_depth=3,
    n_estimators=10,
    max_features="sqrt",
    bootstrap=True,
    seed=0,
)


def test_a_forest_is_grown_only_with_the_cost_estimated_for_it():
    spec, cost = affordable(IRIS_FOREST, cached._view(IRIS_FOREST.data, IRIS_FOREST.columns))
    rule = r"cost must be the cost affordable\(\) returned with spec: it grows 10 trees"
    with pytest.raises(ValueError, match=rule + "; got a spec of 11"):
        cached.fit_forest(replace(spec, n_estimators=11), cost)


def test_the_curves_longer_forest_stays_under_the_ceiling(monkeypatch):
    view = cached._view(IRIS_FOREST.data, IRIS_FOREST.columns)
    per_tree = forest_seconds(1, len(view.y_train), 2, "sqrt", 3)
    # 10 trees fit under the ceiling; the curve's CURVE_FLOOR (100) do not, 40 do.
    monkeypatch.setattr(app_cost, "CEILING_SECONDS", 40.5 * per_tree)
    cached.clear_caches()
    spec, cost = affordable(IRIS_FOREST, view)
    assert spec.n_estimators == 10 and not cost.too_big
    curve = cached_curves.forest_curve(spec, cost)
    np.testing.assert_array_equal(curve.n_trees, np.arange(1, 41))
    cached.clear_caches()


def test_the_criterion_study_is_grown_once_for_every_page_seed(monkeypatch):
    cached_curves._criterion_study.clear()
    studies = count_calls(monkeypatch, cached_curves, "seed_study")
    first = cached_curves.criterion_study(WINE)
    again = cached_curves.criterion_study(replace(WINE, seed=7, criterion="entropy"))
    np.testing.assert_array_equal(again.accuracy_gap, first.accuracy_gap)
    assert len(studies) == 1, "the study grows its own seeds and criteria"
    cached_curves.criterion_study(replace(WINE, max_depth=2))  # what it reads makes a new study
    assert len(studies) == 2
    cached_curves._criterion_study.clear()


# --- a forest with more trees grows only the new ones ----------------------------------------


def _fit(spec: ForestSpec):
    spec, cost = affordable(spec, cached._view(spec.data, spec.columns))
    return cached.fit_forest(spec, cost, show_progress=False)


def _trees_grown(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many trees each forest fit grows (its progress calls: one per tree, one at a time)."""
    grown: list[int] = []
    real_fit = cached.RandomForestClassifier.fit

    def counting_fit(self, X, y, progress=None):
        calls: list[float] = []
        result = real_fit(self, X, y, progress=calls.append)
        grown.append(len(calls))
        return result

    monkeypatch.setattr(cached.RandomForestClassifier, "fit", counting_fit)
    return grown


def assert_as_a_fresh_fit(forest, n_estimators: int) -> None:
    """``forest`` predicts and scores as IRIS_FOREST of ``n_estimators`` trees fitted anew."""
    view = cached._view(IRIS_FOREST.data, IRIS_FOREST.columns)
    spec = replace(IRIS_FOREST, n_estimators=n_estimators)
    fresh = cached.RandomForestClassifier(**spec.arguments()).fit(view.X_train, view.y_train)
    np.testing.assert_array_equal(
        forest.predict_proba(view.X_test), fresh.predict_proba(view.X_test)
    )
    assert forest.oob_score_ == fresh.oob_score_


@pytest.mark.filterwarnings("ignore:Some rows were in every tree")
def test_more_trees_grow_onto_the_kept_forest_and_equal_a_fresh_fit(monkeypatch):
    cached.clear_caches()
    small = _fit(IRIS_FOREST)
    small_trees = list(small.estimators_)
    grown = _trees_grown(monkeypatch)
    bigger = _fit(replace(IRIS_FOREST, n_estimators=25))
    assert grown == [15], "only the 15 new trees are grown"
    assert bigger.estimators_[:10] == small_trees and len(bigger.estimators_) == 25
    assert small.estimators_ == small_trees and small.n_estimators == 10, "the kept one as it was"
    assert not bigger.warm_start
    assert_as_a_fresh_fit(bigger, 25)
    cached.clear_caches()


@pytest.mark.filterwarnings("ignore:Some rows were in every tree")
@pytest.mark.parametrize(
    "other",
    [{"seed": 1}, {"max_depth": 2}, {"bootstrap": False}, {"columns": (0, 1)}],
)
def test_a_forest_of_other_settings_grows_every_tree(monkeypatch, other):
    cached.clear_caches()
    _fit(IRIS_FOREST)
    grown = _trees_grown(monkeypatch)
    _fit(replace(IRIS_FOREST, n_estimators=25, **other))
    assert grown == [25]
    cached.clear_caches()


@pytest.mark.filterwarnings("ignore:Some rows were in every tree")
def test_more_trees_grow_from_the_largest_smaller_forest(monkeypatch):
    cached.clear_caches()
    for n in (5, 12):
        _fit(replace(IRIS_FOREST, n_estimators=n))
    grown = _trees_grown(monkeypatch)
    _fit(replace(IRIS_FOREST, n_estimators=20))  # from the 12, not the 5
    assert grown == [8]
    cached.clear_caches()


@pytest.mark.filterwarnings("ignore:Some rows were in every tree")
def test_fewer_trees_are_the_first_trees_of_the_smallest_larger_forest(monkeypatch):
    cached.clear_caches()
    forests = {n: _fit(replace(IRIS_FOREST, n_estimators=n)) for n in (5, 30, 60)}
    grown = _trees_grown(monkeypatch)
    fewer = _fit(replace(IRIS_FOREST, n_estimators=20))
    assert grown == [], "nothing grown: the first 20 trees of the 30"
    assert fewer.estimators_ == forests[30].estimators_[:20]
    assert len(forests[30].estimators_) == 30, "the kept one as it was"
    assert_as_a_fresh_fit(fewer, 20)
    cached.clear_caches()
