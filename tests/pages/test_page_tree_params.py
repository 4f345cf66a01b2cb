"""Single tree: minimum gain, min_samples_split and max_features change the tree grown."""

from __future__ import annotations

import pytest
from page_helpers import SINGLE_TREE, assert_healthy, open_page, query_of, svg, warnings

from core.data.catalogue import load_dataset
from core.data.datasets import train_test_split
from core.engine.tree import DecisionTreeClassifier


def leaves(app) -> int:
    return int(app.metric[3].value)


def test_a_high_minimum_gain_stops_the_weak_splits():
    app = open_page(SINGLE_TREE, dataset="breast_cancer", max_depth="none")
    before = leaves(app)

    app.slider(key="min_impurity_decrease").set_value(0.01).run()

    assert_healthy(app)
    assert leaves(app) < before
    assert query_of(app)["min_impurity_decrease"] == "0.01"


def test_min_samples_split_keeps_small_nodes_as_leaves():
    app = open_page(SINGLE_TREE, dataset="breast_cancer", max_depth="none")
    before = leaves(app)

    app.slider(key="min_samples_split").set_value(60).run()

    assert_healthy(app)
    assert leaves(app) < before
    assert query_of(app)["min_samples_split"] == "60"


def test_the_help_gives_the_gain_formula():
    app = open_page(SINGLE_TREE)
    assert "N_t / N · (impurity − N_L / N_t · impurity_L" in (
        app.slider(key="min_impurity_decrease").help
    )


def engine_tree(seed: int, max_features: int | None) -> DecisionTreeClassifier:
    rows = train_test_split(load_dataset("wine"), test_size=0.25, random_state=seed)
    model = DecisionTreeClassifier(max_features=max_features, random_state=seed)
    return model.fit(rows.X_train, rows.y_train)


@pytest.mark.parametrize("seed", [0, 5])
def test_max_features_grows_the_seeded_random_tree(seed):
    app = open_page(SINGLE_TREE, dataset="wine", fit="all", max_depth="none", seed=str(seed))
    every_feature = svg(app)

    app.selectbox(key="max_features").set_value(1).run()

    assert_healthy(app)
    assert query_of(app)["max_features"] == "1"
    assert svg(app) != every_feature
    expected = engine_tree(seed, max_features=1)
    assert leaves(app) == expected.get_n_leaves()
    assert int(app.metric[2].value) == expected.get_depth()
    assert leaves(app) != engine_tree(seed, max_features=None).get_n_leaves()


def test_max_features_offers_only_the_columns_the_tree_sees():
    app = open_page(SINGLE_TREE, dataset="wine", fit="all", max_features="9")
    assert app.selectbox(key="max_features").value == 9
    app.radio(key="fit").set_value("pair").run()
    assert_healthy(app)
    assert app.selectbox(key="max_features").value == "all"
    assert app.selectbox(key="max_features").options[-1] == "2"
    assert query_of(app)["max_features"] == "all"


def test_a_link_with_too_many_features_says_so():
    app = open_page(SINGLE_TREE, dataset="iris", max_features="3")
    assert_healthy(app)
    assert any("max_features: 3 is more than the 2 features" in w for w in warnings(app))
    assert app.selectbox(key="max_features").value == "all"


def test_an_exact_pruning_alpha_from_a_link_is_kept():
    app = open_page(SINGLE_TREE, dataset="breast_cancer", max_depth="none", ccp_alpha="0.006441")
    assert_healthy(app)
    assert not warnings(app)
    assert app.select_slider(key="ccp_alpha").value == 0.006441
    assert query_of(app)["ccp_alpha"] == "0.006441"
