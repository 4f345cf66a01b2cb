"""The articles' parameters in the real app: a link with minimum gain, the pruning walk, and a
forest of 1000 trees on a log axis."""

from __future__ import annotations

import pytest
from browser_helpers import RANDOM_FOREST, SINGLE_TREE, AppPage, url_query

from core.data.catalogue import load_dataset
from core.data.datasets import train_test_split
from core.engine.tree import DecisionTreeClassifier

pytestmark = pytest.mark.browser


def leaves_of(min_impurity_decrease: float) -> int:
    rows = train_test_split(load_dataset("breast_cancer"), test_size=0.25, random_state=0)
    model = DecisionTreeClassifier(min_impurity_decrease=min_impurity_decrease, random_state=0)
    return model.fit(rows.X_train[:, [0, 1]], rows.y_train).get_n_leaves()


def test_a_link_with_a_minimum_gain_grows_that_tree(app: AppPage) -> None:
    query = "dataset=breast_cancer&max_depth=none&min_impurity_decrease=0.004"
    app.open(f"{SINGLE_TREE.path}?{query}", SINGLE_TREE.ready)

    app.assert_healthy()
    assert app.notices() == []
    assert app.slider_value("min_impurity_decrease") == "0.004"
    assert url_query(app)["min_impurity_decrease"] == "0.004"
    expected = leaves_of(0.004)
    assert expected < leaves_of(0.0)
    assert int(app.metric("Leaves")) == expected


def test_walking_the_pruning_path_prunes_the_tree_and_keeps_the_exact_alpha(
    app: AppPage,
) -> None:
    app.open(f"{SINGLE_TREE.path}?dataset=breast_cancer&max_depth=none", SINGLE_TREE.ready)
    leaves_before = int(app.metric("Leaves"))
    app.page.get_by_text("Walk the pruning path").click()
    app.settle((".st-key-pruning-walk .js-plotly-plot .main-svg",))
    before = app.html(".st-key-tree-diagram")

    for _ in range(3):
        app.nudge_slider("pruning-walk-step")
        before = app.wait_for_new_content(".st-key-tree-diagram", before)

    app.assert_healthy()
    alpha = url_query(app)["ccp_alpha"]
    assert float(alpha) > 0
    # The sidebar's control shows the walk's exact alpha, off its own 0.001 steps.
    assert app.slider_value("ccp_alpha") == alpha
    assert app.slider_value("pruning-walk-step").startswith(f"α = {alpha}: ")
    leaves = int(app.metric("Leaves"))
    assert leaves < leaves_before
    assert app.slider_value("pruning-walk-step").endswith(f": {leaves} leaves")


def test_a_cell_of_the_parameter_map_loads_its_settings_into_the_sidebar(app: AppPage) -> None:
    # The map is drawn in the part of the page that reruns alone (st.fragment); the cell's
    # max_depth and min_samples_leaf are the sidebar's, so the click must run the whole page.
    app.open(f"{SINGLE_TREE.path}?dataset=iris&view=map", (".st-key-param-map .main-svg",))
    grid = app.page.locator(".st-key-param-map .nsewdrag").first
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    assert box is not None
    before = app.html(".st-key-tree-diagram")
    # Rows are max_depth 1, 2, 3...; columns min_samples_leaf 1, 2, 3...: the second of each.
    app.page.mouse.click(box["x"] + box["width"] * 0.13, box["y"] + box["height"] * 0.1)
    app.wait_for_new_content(".st-key-tree-diagram", before)
    app.settle()

    app.assert_healthy()
    query = url_query(app)
    assert (query["max_depth"], query["min_samples_leaf"]) == ("2", "2")
    assert app.slider_value("max_depth") == "2"
    assert app.slider_value("min_samples_leaf") == "2"
    assert app.metric("Depth") == "2"


def test_a_forest_of_1000_trees_on_a_log_axis(app: AppPage) -> None:
    app.open(f"{RANDOM_FOREST.path}?n_estimators=1000&log_trees=true", RANDOM_FOREST.ready)

    app.assert_healthy()
    assert app.notices() == []
    assert app.slider_value("n_estimators") == "1000"
    assert "Forest of 1000" in app.html(".st-key-boundary .gtitle")
    axis = app.page.evaluate(
        "() => { const plot = document.querySelector('.st-key-forest-curve .js-plotly-plot');"
        " const x = plot._fullLayout.xaxis; return [x.type, x.range]; }"
    )
    assert axis[0] == "log"
    assert 10 ** axis[1][1] >= 1000  # the axis reaches the 1000th tree


def test_growing_on_all_features_shows_the_features_per_split_at_once(app: AppPage) -> None:
    # Issue 24: after "Grow the model on -> all features" max_features still read "all 2" (the
    # pair's count) until the next move, and that move sent the stale label back.
    app.open(f"{SINGLE_TREE.path}?dataset=wine", SINGLE_TREE.ready)
    shown = app.selectbox_value("max_features")
    before = app.html(".st-key-tree-diagram")
    app.page.locator(".st-key-fit").get_by_text("all features").click()
    before = app.wait_for_new_content(".st-key-tree-diagram", before)
    app.settle(SINGLE_TREE.ready)
    assert app.selectbox_value("max_features") == shown, "the same choice, the same words"
    assert url_query(app)["fit"] == "all"

    app.page.locator(".st-key-seed button").last.click()  # the next move, anywhere
    app.wait_for_new_content(".st-key-tree-diagram", before)
    app.settle(SINGLE_TREE.ready)
    app.assert_healthy()
    assert app.selectbox_value("max_features") == shown
    assert url_query(app)["max_features"] == "all"
    assert url_query(app)["seed"] == "1"
    app.page.locator(".st-key-max_features").click()
    options = app.page.locator('[role="option"]').all_inner_texts()
    assert options[-1] == "13", "every one of wine's 13 features can be the number per split"
