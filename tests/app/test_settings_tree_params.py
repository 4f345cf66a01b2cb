"""The articles' parameters of one tree (issue 8): minimum gain, min_samples_split,
max_features, and exact pruning alphas, through the URL and into the tree's spec."""

from __future__ import annotations

import numpy as np
import pytest

from core.app.models import tree_spec
from core.app.settings import (
    DatasetShape,
    RandomForestSettings,
    SingleTreeSettings,
    alpha_at_least,
    field_is_valid,
    parse,
    pruning_stops,
    to_query,
    with_dataset,
)
from core.data.catalogue import load_dataset
from core.engine.pruning import prune, pruning_path
from core.engine.tree import DecisionTreeClassifier, DecisionTreeRegressor

CATALOGUE = {
    "iris": DatasetShape("classification", 150, 4, (2, 3)),
    "wine": DatasetShape("classification", 178, 13, (6, 12)),
    "sine": DatasetShape("regression", 200, 1, (0, 0)),
}


def test_a_link_from_before_these_settings_means_the_same_tree():
    old_link = {"dataset": "iris", "max_depth": "3", "ccp_alpha": "0.01", "seed": "4"}
    settings, notices = parse(SingleTreeSettings, old_link, CATALOGUE)
    assert notices == []
    assert (settings.min_samples_split, settings.min_impurity_decrease) == (2, 0.0)
    assert settings.max_features == "all"
    spec = tree_spec(settings, CATALOGUE["iris"])
    # The engine's own defaults: the tree grown is the one the link always meant.
    assert (spec.min_samples_split, spec.min_impurity_decrease, spec.max_features) == (2, 0.0, None)


@pytest.mark.parametrize(
    "values",
    [
        {"min_samples_split": 17},
        {"min_impurity_decrease": 0.037},
        {"max_features": "sqrt"},
        {"max_features": "log2"},
        {"max_features": 2},
        {"max_features": 11, "fit": "all", "dataset": "wine", "x": 6, "y": 12},
        {"ccp_alpha": 0.036161},
        {"ccp_alpha": 0.91529},
    ],
)
def test_the_new_values_survive_the_url(values):
    settings = SingleTreeSettings(**values)
    assert parse(SingleTreeSettings, to_query(settings), CATALOGUE) == (settings, [])


def test_regression_takes_its_own_scale_of_gain_and_pruning():
    query = {"dataset": "sine", "min_impurity_decrease": "7.5", "ccp_alpha": "168.682"}
    settings, notices = parse(SingleTreeSettings, query, CATALOGUE)
    assert (settings.min_impurity_decrease, settings.ccp_alpha, notices) == (7.5, 168.682, [])


@pytest.mark.parametrize(
    ("name", "raw", "fallback", "words"),
    [
        ("min_samples_split", "1", "2", "is not a whole number from 2 to 100"),
        ("min_samples_split", "101", "2", "is not a whole number from 2 to 100"),
        ("min_samples_split", "0.5", "2", "is not a whole number from 2 to 100"),
        ("min_impurity_decrease", "-0.1", "0", "is not a number from 0 to 10"),
        ("min_impurity_decrease", "nan", "0", "is not a number from 0 to 10"),
        ("min_impurity_decrease", "0.5", "0", "is more than 0.1, the most for a classification"),
        ("max_features", "0", "all", "is not all, sqrt, log2 or a whole number from 1 to 9999"),
        ("max_features", "sqrt2", "all", "is not all, sqrt, log2 or a whole number"),
        ("max_features", "-3", "all", "is not all, sqrt, log2 or a whole number"),
        ("max_features", "3", "all", "is more than the 2 features the tree is grown on"),
    ],
)
def test_a_bad_value_gives_a_notice_and_the_default(name, raw, fallback, words):
    settings, notices = parse(SingleTreeSettings, {"dataset": "iris", name: raw}, CATALOGUE)
    assert to_query(settings, full=True)[name] == fallback
    assert len(notices) == 1
    assert notices[0].startswith(f"{name}:")
    assert words in notices[0]
    assert notices[0].endswith(f"using {fallback}.")


def test_a_classification_alpha_above_its_most_is_refused():
    settings, notices = parse(SingleTreeSettings, {"ccp_alpha": "5"}, CATALOGUE)
    assert settings.ccp_alpha == 0.0
    assert notices == [
        "ccp_alpha: 5 is more than 2, the most for a classification dataset; using 0."
    ]


def test_a_hostile_max_features_is_never_echoed():
    _, notices = parse(SingleTreeSettings, {"max_features": "<img src=x>"}, CATALOGUE)
    assert notices == [
        "max_features: the value given is not all, sqrt, log2 or a whole number from 1 to "
        "9999; using all."
    ]


def test_max_features_counts_the_columns_the_tree_is_grown_on():
    on_all = {"dataset": "wine", "fit": "all", "max_features": "13"}
    assert parse(SingleTreeSettings, on_all, CATALOGUE)[0].max_features == 13
    too_many = {**on_all, "max_features": "14"}
    settings, notices = parse(SingleTreeSettings, too_many, CATALOGUE)
    assert settings.max_features == "all"
    assert notices == [
        "max_features: 14 is more than the 13 features the tree is grown on; using all."
    ]


def test_a_control_value_of_the_wrong_kind_is_refused():
    assert field_is_valid(SingleTreeSettings, "max_features", 3)
    assert field_is_valid(SingleTreeSettings, "max_features", "log2")
    assert not field_is_valid(SingleTreeSettings, "max_features", True)
    assert not field_is_valid(SingleTreeSettings, "max_features", None)
    assert not field_is_valid(SingleTreeSettings, "min_samples_split", 1)


def test_moving_to_a_smaller_dataset_drops_what_does_not_fit():
    wide = SingleTreeSettings(dataset="wine", x=6, y=12, fit="all", max_features=9)
    moved = with_dataset(wide, "iris", CATALOGUE)
    assert moved.max_features == "all"
    gain = SingleTreeSettings(dataset="sine", x=0, y=0, min_impurity_decrease=4.0)
    assert with_dataset(gain, "iris", CATALOGUE).min_impurity_decrease == 0.0


def test_a_forests_max_features_is_not_the_lone_trees():
    forest = RandomForestSettings(max_features="sqrt")
    assert tree_spec(forest, CATALOGUE["iris"]).max_features is None
    one_tree = SingleTreeSettings(max_features="log2", min_samples_split=9)
    spec = tree_spec(one_tree, CATALOGUE["iris"])
    assert (spec.max_features, spec.min_samples_split) == ("log2", 9)


@pytest.mark.parametrize(
    ("name", "model"),
    [
        ("breast_cancer", DecisionTreeClassifier(random_state=0)),
        ("wine", DecisionTreeClassifier(criterion="entropy", random_state=0)),
        ("sine", DecisionTreeRegressor(random_state=0)),
    ],
)
def test_an_effective_alpha_as_a_link_holds_it_prunes_the_same_tree(name, model):
    data = load_dataset(name)
    tree = model.fit(data.X, data.y).tree_
    alphas = pruning_path(tree).ccp_alphas
    assert len(alphas) > 5
    rounded_past_next_cut = 0
    for k, alpha in enumerate(alphas):
        held = alpha_at_least(float(alpha))
        assert held >= alpha
        # It is what a link writes and reads back, unchanged.
        settings = SingleTreeSettings(dataset=name, ccp_alpha=held)
        assert float(to_query(settings, full=True)["ccp_alpha"]) == settings.ccp_alpha == held
        following = alphas[k + 1] if k + 1 < len(alphas) else np.inf
        if held < following:  # the kept tree is the one this cut leaves
            assert prune(tree, held).n_leaves == prune(tree, float(alpha)).n_leaves
        else:  # only when two cuts are closer than a link's rounding
            assert following - alpha <= max(1e-6, 1e-5 * alpha)
            rounded_past_next_cut += 1
    assert rounded_past_next_cut <= 2
    assert np.all(np.diff([alpha_at_least(float(a)) for a in alphas]) >= 0)


@pytest.mark.parametrize(
    ("alpha", "held"),
    [(0.0, 0.0), (0.0123456789, 0.012346), (0.036161, 0.036161), (168.68183333, 168.682)],
)
def test_alpha_at_least_rounds_up_to_what_a_link_keeps(alpha, held):
    assert alpha_at_least(alpha) == held


def test_pruning_stops_merge_cuts_a_link_cannot_tell_apart_and_stop_at_the_most():
    alphas = [0.0, 0.0012344, 0.00123441, 0.05, 0.4, 2.5]
    leaves = [9, 7, 6, 4, 2, 1]
    assert pruning_stops(alphas, leaves, most=2.0) == (
        (0.0, 9),
        (0.001235, 6),  # both cuts round up to 0.001235, where the second is made too
        (0.05, 4),
        (0.4, 2),
    )
