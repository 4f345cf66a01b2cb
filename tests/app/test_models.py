"""core/app/models.py: what a model is grown on, from a page's settings."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest

from core.app import cost as app_cost
from core.app.cost import forest_seconds
from core.app.models import (
    ForestSpec,
    ModelView,
    affordable,
    columns,
    criterion_for,
    data_spec,
    forest_spec,
    tree_spec,
)
from core.app.settings import (
    DatasetShape,
    GiniEntropySettings,
    RandomForestSettings,
    SingleTreeSettings,
)
from core.data.datasets import Dataset, train_test_split
from core.data.source import Source

# --- what a model is grown on --------------------------------------------------------------


def test_columns_are_the_plotted_pair_unless_the_model_sees_all_features():
    shape = DatasetShape(task="classification", n_samples=150, n_features=4)
    assert columns(SingleTreeSettings(x=0, y=2), shape) == (0, 2)
    assert columns(SingleTreeSettings(x=0, y=2, fit="all"), shape) == (0, 1, 2, 3)
    # Settings without a "fit" field are grown on the pair.
    assert columns(SimpleNamespace(x=3, y=1), shape) == (3, 1)


def test_a_regression_is_grown_on_every_feature_whatever_the_pair():
    shape = DatasetShape(task="regression", n_samples=200, n_features=1, pair=(0, 0))
    assert columns(SingleTreeSettings(x=0, y=0, fit="pair"), shape) == (0,)


def test_the_criterion_is_the_chosen_one_to_classify_and_squared_error_to_regress():
    classes = DatasetShape(task="classification", n_samples=150, n_features=4)
    sine = DatasetShape(task="regression", n_samples=200, n_features=1, pair=(0, 0))
    assert criterion_for(SingleTreeSettings(criterion="entropy"), classes) == "entropy"
    assert criterion_for(GiniEntropySettings(), classes) == "gini"
    assert criterion_for(SingleTreeSettings(criterion="entropy", x=0, y=0), sine) == "squared_error"


def test_a_tree_spec_takes_the_settings_and_single_changes():
    shape = DatasetShape(task="classification", n_samples=150, n_features=4)
    spec = tree_spec(SingleTreeSettings(x=2, y=3, max_depth=4, seed=7), shape, max_depth=1)
    assert (spec.columns, spec.max_depth, spec.seed, spec.criterion) == ((2, 3), 1, 7, "gini")


SINE = DatasetShape("regression", 200, 1, (0, 0), noise=2.5)
IRIS = DatasetShape("classification", 150, 4, (2, 3))


def test_the_split_and_the_sines_noise_are_part_of_every_model_key():
    sine = SingleTreeSettings(dataset="sine", x=0, y=0, test_size=0.4, noise=6.0)
    tree = tree_spec(sine, SINE)
    assert (tree.test_size, tree.source.noise) == (0.4, 6.0)
    assert tree.data == data_spec(sine, SINE)
    assert tree != tree_spec(SingleTreeSettings(dataset="sine", x=0, y=0), SINE)
    forest = forest_spec(RandomForestSettings(dataset="sine", x=0, y=0, noise=0.5), SINE)
    assert (forest.test_size, forest.source.noise) == (0.25, 0.5)


def test_a_tables_rows_do_not_depend_on_a_noise_left_over_from_the_sine():
    noisy = SingleTreeSettings(noise=9.0)
    assert data_spec(noisy, IRIS).source == Source.table("iris")
    assert tree_spec(noisy, IRIS) == tree_spec(SingleTreeSettings(), IRIS)


# --- the rows a page's models see ----------------------------------------------------------


def colours() -> Dataset:
    """Eight rows: a number ``a``, then a text column ``colour`` one-hot as two features."""
    a = np.arange(8.0)
    red = np.array([1.0, 0.0] * 4)
    return Dataset(
        name="colours",
        title="Colours",
        task="classification",
        X=np.column_stack([a, red, 1.0 - red]),
        y=np.array([0, 1] * 4),
        feature_names=("a", "colour=red", "colour=blue"),
        target_name="class",
        class_names=("no", "yes"),
        description="",
        provenance="",
        categories=(None, ("colour", "red"), ("colour", "blue")),
    )


def test_a_view_holds_its_columns_in_its_order():
    data = colours()
    rows = train_test_split(data, test_size=0.25, random_state=1)
    view = ModelView(data, rows, (2, 0))
    assert view.names == ("colour=blue", "a")
    assert view.categories == (("colour", "blue"), None)
    # Column 0 of the view is blue (1 - red); column 1 is a, the row's own number.
    assert view.X_train.shape == (6, 2) and view.X_test.shape == (2, 2)
    np.testing.assert_array_equal(view.X_train[:, 1], rows.train_index)
    np.testing.assert_array_equal(view.X_test[:, 1], rows.test_index)
    np.testing.assert_array_equal(view.X_test[:, 0], rows.test_index % 2)
    assert ModelView(data, rows, (0,)).categories == (None,)


def test_a_view_is_sliced_once_and_every_read_is_that_slice():
    data = colours()
    view = ModelView(data, train_test_split(data), (0, 1))
    # The same arrays on every read: a page reading X_test five times slices nothing.
    assert view.X_train is view.X_train and view.X_test is view.X_test
    assert view.names is view.names
    # Shared by every visitor, so no one may write into them.
    for array in (view.X_train, view.X_test):
        assert not array.flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            array[0, 0] = -1.0


# --- what a forest costs -------------------------------------------------------------------

COLOURS_FOREST = ForestSpec(
    source=Source.table("colours"),
    columns=(0, 1),
    criterion="gini",
    max_depth=None,
    n_estimators=1000,
    max_features=None,  # every feature per split, as the estimator takes it
    bootstrap=True,
    seed=0,
)


def test_a_forest_is_estimated_on_its_views_training_rows_and_columns(monkeypatch):
    data = colours()
    # Half of the 8 rows held out: 4 training rows (a spec's own test_size is not read).
    view = ModelView(data, train_test_split(data, test_size=0.5), (0, 1))
    per_tree = forest_seconds(1, 4, 2, None, None)  # "all" features: None to the engine
    grown, cost = affordable(COLOURS_FOREST, view)
    assert cost.seconds == pytest.approx(1000 * per_tree)
    assert grown == COLOURS_FOREST and not cost.too_big
    # Under a ceiling of 300.5 trees' worth, the first 300 trees are grown.
    monkeypatch.setattr(app_cost, "CEILING_SECONDS", 300.5 * per_tree)
    grown, cost = affordable(COLOURS_FOREST, view)
    assert cost.too_big and cost.grown == grown.n_estimators == 300
    assert grown == replace(COLOURS_FOREST, n_estimators=300)
    # The cut forest, estimated again, keeps its 300 trees.
    again, its_cost = affordable(grown, view)
    assert again == grown and (its_cost.asked, its_cost.grown) == (300, 300)
    assert its_cost.seconds == pytest.approx(cost.grown_seconds)


def test_a_forest_is_not_estimated_on_another_views_columns():
    data = colours()
    view = ModelView(data, train_test_split(data), (0, 2))
    with pytest.raises(ValueError, match=r"view must show the forest's columns \(0, 1\)"):
        affordable(COLOURS_FOREST, view)


# --- the default page's numbers are scikit-learn's -------------------------------------------


def test_the_default_single_tree_scores_as_sklearns_tree_on_the_same_split():
    # The page's model: the default settings' spec, grown on its view's rows (what
    # core.ui.cached.fit_tree does), scored on the held-out rows. One test flower has petal
    # width 1.7, on the threshold printed "1.7" (1.69999999 from float32 values, as
    # scikit-learn computes it): it goes right in both, and both score 0.947.
    from sklearn.tree import DecisionTreeClassifier as SkTreeClassifier

    from core.app.settings import default_catalogue, parse
    from core.data.catalogue import load_dataset
    from core.engine import DecisionTreeClassifier

    settings, _ = parse(SingleTreeSettings, {})  # the page opened without a query
    shape = default_catalogue()[settings.dataset]
    spec = tree_spec(settings, shape)
    data = load_dataset(settings.dataset)
    rows = train_test_split(data, test_size=spec.test_size, random_state=spec.seed)
    view = ModelView(data, rows, spec.columns)
    ours = DecisionTreeClassifier(**spec.arguments()).fit(view.X_train, view.y_train)
    theirs = SkTreeClassifier(**spec.arguments()).fit(view.X_train, view.y_train)
    # The root's two questions tie (petal length ≤ 2.45, petal width ≤ 0.8): same rows.
    np.testing.assert_array_equal(ours.apply(view.X_test), theirs.apply(view.X_test))
    assert ours.score(view.X_test, view.y_test) == theirs.score(view.X_test, view.y_test)
    assert f"{ours.score(view.X_test, view.y_test):.3f}" == "0.947"
