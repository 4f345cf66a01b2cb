"""Controls change what is shown, and the URL and the controls stay in step."""

from __future__ import annotations

import pytest
from page_helpers import (
    GINI_VS_ENTROPY,
    HOME,
    PAGE_FILES,
    RANDOM_FOREST,
    SINGLE_TREE,
    assert_healthy,
    block,
    chart_spec,
    open_page,
    query_of,
    svg,
    warnings,
)

from core.app.pages import PAGES
from core.data.catalogue import load_dataset
from core.data.datasets import train_test_split


def test_single_tree_redraws_when_max_depth_changes():
    app = open_page(SINGLE_TREE, dataset="breast_cancer")
    before_svg, before_chart = svg(app), chart_spec(app, "boundary-chart")
    leaves_before = app.metric[3].value

    app.select_slider(key="max_depth").set_value("no limit").run()

    assert_healthy(app)
    assert svg(app) != before_svg
    assert chart_spec(app, "boundary-chart") != before_chart
    assert int(app.metric[3].value) > int(leaves_before)
    assert query_of(app)["max_depth"] == "none"


def test_single_tree_traces_the_chosen_sample():
    rows = train_test_split(load_dataset("iris"), test_size=0.25, random_state=0)
    names = load_dataset("iris").class_names
    other = next(i for i, y in enumerate(rows.y_test) if y != rows.y_test[0])
    app = open_page(SINGLE_TREE)
    assert "test sample #0 lands here" in svg(app)
    assert (
        f"true answer is **{names[rows.y_test[0]]}**"
        in block(app, "sample-path").markdown[-1].value
    )

    app.selectbox(key="sample").set_value(other).run()

    # Its leaf is on the fourth level, which the readable view folds: the path runs into the
    # grey folded box, and the whole tree shows the leaf.
    assert "sample continues here" in svg(app)
    app.segmented_control(key="tree-diagram-size").set_value("whole").run()
    assert f"test sample #{other} lands here" in svg(app)
    assert (
        f"true answer is **{names[rows.y_test[other]]}**"
        in block(app, "sample-path").markdown[-1].value
    )
    assert query_of(app)["sample"] == str(other)


def test_single_tree_can_show_the_test_data_on_the_tree():
    app = open_page(SINGLE_TREE)
    assert "test:" not in svg(app)
    app.toggle(key="test_on_tree").set_value(True).run()
    assert "test: " in svg(app)
    assert query_of(app)["test_on_tree"] == "true"


def test_changing_the_dataset_moves_to_its_own_features():
    app = open_page(SINGLE_TREE, sample="30")
    app.selectbox(key="dataset").set_value("wine").run()
    assert_healthy(app)
    query = query_of(app)
    assert (query["dataset"], query["x"], query["y"], query["sample"]) == ("wine", "6", "12", "0")
    assert chart_spec(app, "boundary-chart")["layout"]["xaxis"]["title"]["text"] == "flavanoids"


def test_forest_curve_marks_the_current_size():
    app = open_page(RANDOM_FOREST, n_estimators="50")
    before = chart_spec(app, "forest-curve")
    app.slider(key="n_estimators").set_value(120).run()
    after = chart_spec(app, "forest-curve")
    assert_healthy(app)
    assert after != before
    assert "120" in str(after["layout"]) and "120" not in str(before["layout"])
    assert query_of(app)["n_estimators"] == "120"


def test_forest_opens_any_of_its_trees():
    app = open_page(RANDOM_FOREST, n_estimators="10")
    first = svg(app)
    app.number_input(key="tree").set_value(7).run()
    assert svg(app) != first
    assert query_of(app)["tree"] == "7"


def test_forest_keeps_the_opened_tree_inside_a_smaller_forest():
    app = open_page(RANDOM_FOREST, n_estimators="10", tree="9")
    app.slider(key="n_estimators").set_value(5).run()
    assert_healthy(app)
    assert app.number_input(key="tree").value == 0
    assert query_of(app)["tree"] == "0"


def test_forest_votes_change_with_the_sample():
    app = open_page(RANDOM_FOREST, dataset="breast_cancer", n_estimators="30")
    votes = {}
    for sample in range(10):
        app.selectbox(key="sample").set_value(sample).run()
        votes[sample] = str(chart_spec(app, "votes")["data"][0]["y"])
    assert len(set(votes.values())) > 1


def test_forest_without_bootstrap_has_no_out_of_bag_score():
    app = open_page(RANDOM_FOREST, bootstrap="false", n_estimators="10")
    assert_healthy(app)
    assert app.metric[2].value == "–"
    names = [trace.get("name", "") for trace in chart_spec(app, "forest-curve")["data"]]
    assert not [n for n in names if "out-of-bag" in n.lower()]


def test_gini_page_highlights_where_the_trees_differ():
    same = open_page(GINI_VS_ENTROPY, dataset="iris", max_depth="3")
    differ = open_page(GINI_VS_ENTROPY, dataset="wine", max_depth="4")
    assert same.metric[0].value == "100.0%"
    assert (same.metric[2].value, same.metric[3].value) == ("0", "0")
    assert differ.metric[2].value != "0"
    assert svg(differ, "tree-gini") != svg(same, "tree-gini")


def test_gini_page_marks_the_chosen_depth_on_the_depth_curve():
    app = open_page(GINI_VS_ENTROPY, max_depth="3")
    before = chart_spec(app, "depth-curves")
    app.select_slider(key="max_depth").set_value(6).run()
    assert chart_spec(app, "depth-curves") != before
    assert svg(app, "tree-entropy") != ""


# --- the URL sets the controls ---------------------------------------------------------------


def test_url_parameters_set_the_single_tree_controls():
    app = open_page(
        SINGLE_TREE,
        dataset="wine",
        criterion="entropy",
        max_depth="5",
        min_samples_leaf="4",
        ccp_alpha="0.02",
        x="0",
        y="9",
        seed="7",
        sample="3",
        test_on_tree="true",
        fit="all",
    )
    assert_healthy(app)
    assert not app.warning
    assert app.selectbox(key="dataset").value == "wine"
    assert app.segmented_control(key="criterion").value == "entropy"
    assert app.select_slider(key="max_depth").value == 5
    assert app.slider(key="min_samples_leaf").value == 4
    assert app.select_slider(key="ccp_alpha").value == pytest.approx(0.02)
    assert (app.selectbox(key="x").value, app.selectbox(key="y").value) == (0, 9)
    assert app.number_input(key="seed").value == 7
    assert app.selectbox(key="sample").value == 3
    assert app.toggle(key="test_on_tree").value is True
    assert app.radio(key="fit").value == "all"


def test_url_parameters_set_the_forest_controls():
    app = open_page(
        RANDOM_FOREST, n_estimators="42", max_features="log2", bootstrap="false", tree="41"
    )
    assert_healthy(app)
    assert app.slider(key="n_estimators").value == 42
    assert app.segmented_control(key="max_features").value == "log2"
    assert app.toggle(key="bootstrap").value is False
    assert app.number_input(key="tree").value == 41


@pytest.mark.parametrize(
    ("path", "query", "fallback"),
    [
        (SINGLE_TREE, {"dataset": "mnist"}, {"dataset": "iris"}),
        (SINGLE_TREE, {"max_depth": "abc"}, {"max_depth": "3"}),
        (SINGLE_TREE, {"sample": "9999"}, {"sample": "0"}),
        (SINGLE_TREE, {"x": "3", "y": "3"}, {"x": "2", "y": "3"}),
        (RANDOM_FOREST, {"n_estimators": "1000000000"}, {"n_estimators": "100"}),
        (RANDOM_FOREST, {"max_features": "0.5"}, {"max_features": "sqrt"}),
        (GINI_VS_ENTROPY, {"dataset": "sine"}, {"dataset": "iris"}),
        (GINI_VS_ENTROPY, {"seed": "-1"}, {"seed": "0"}),
        (GINI_VS_ENTROPY, {"dataset": "<img src=x onerror=alert(1)>"}, {"dataset": "iris"}),
    ],
)
def test_a_hostile_url_falls_back_with_a_notice(path, query, fallback):
    app = open_page(path, **query)
    assert_healthy(app)
    notices = warnings(app)
    assert len(notices) == 1
    assert notices[0].startswith("Some settings in this link could not be used")
    assert "<" not in notices[0], "markup from the URL must never be echoed"
    for name, value in fallback.items():
        assert query_of(app)[name] == value


def test_the_notice_goes_once_the_visitor_changes_something():
    app = open_page(SINGLE_TREE, max_depth="abc")
    assert warnings(app)
    app.select_slider(key="max_depth").set_value(4).run()
    assert not warnings(app)
    assert query_of(app)["max_depth"] == "4"


def test_a_link_with_foreign_parameters_keeps_the_visitors_changes():
    # A learning platform may add its own parameters; they must not pin the settings.
    app = open_page(SINGLE_TREE, embed="true", utm_source="course", max_depth="5")
    app.select_slider(key="max_depth").set_value(7).run()
    app.run()  # one more rerun: the change must survive it
    assert app.select_slider(key="max_depth").value == 7
    assert query_of(app)["max_depth"] == "7"
    assert query_of(app)["embed"] == "true"


def test_settings_carry_over_to_another_page():
    app = open_page(HOME)
    app.switch_page("pages/1_Single_tree.py").run()
    app.selectbox(key="dataset").set_value("wine").run()
    app.select_slider(key="max_depth").set_value(6).run()
    app.number_input(key="seed").set_value(5).run()

    # Following a sidebar link: the new page's URL has none of its settings yet.
    app.switch_page("pages/3_Gini_vs_entropy.py")
    app.query_params.clear()
    app.run()

    assert_healthy(app)
    assert app.selectbox(key="dataset").value == "wine"
    assert app.select_slider(key="max_depth").value == 6
    assert app.number_input(key="seed").value == 5
    assert query_of(app)["dataset"] == "wine"


def test_a_link_wins_over_carried_settings():
    app = open_page(HOME)
    app.switch_page("pages/1_Single_tree.py").run()
    app.selectbox(key="dataset").set_value("wine").run()
    app.switch_page("pages/2_Random_forest.py")
    app.query_params.clear()
    app.query_params["dataset"] = "breast_cancer"
    app.run()
    assert app.selectbox(key="dataset").value == "breast_cancer"


def test_home_page_needs_no_settings():
    app = open_page(HOME, max_depth="abc")
    assert_healthy(app)
    assert not app.warning


@pytest.mark.parametrize("page", [p for p in PAGES if p.settings], ids=lambda p: p.url_path)
def test_a_page_works_without_the_home_page_having_run(page):
    # Opened directly: a fresh session whose first script is this page.
    app = open_page(PAGE_FILES[page.url_path])
    assert_healthy(app)
    assert query_of(app)["dataset"] == page.settings().dataset  # iris; wine to grow step by step


def test_forest_vote_chart_has_room_for_the_label_of_a_full_bar():
    app = open_page(RANDOM_FOREST, dataset="iris", n_estimators="40")
    spec = chart_spec(app, "votes")
    assert spec["layout"]["yaxis"]["range"][1] > 100  # above a bar of all 40 trees (100%)
    assert all(bar["cliponaxis"] is False for bar in spec["data"])


def test_forest_votes_show_hard_and_soft_votes_that_agree_with_the_text():
    # Issue 12: depth-1 trees on breast cancer, 99 of 100 trees for one class while the text
    # spoke of a 90% share: both are right, and the page must show and name both.
    app = open_page(RANDOM_FOREST, dataset="breast_cancer", n_estimators="100", max_depth="1")
    hard, soft = chart_spec(app, "votes")["data"]
    assert hard["name"] == "trees voting for it, of 100"
    assert soft["name"] == "average class share"
    assert sum(hard["y"]) == pytest.approx(100.0) and sum(soft["y"]) == pytest.approx(100.0)
    text = " ".join(m.value for m in app.markdown)
    top = max(range(len(hard["y"])), key=lambda k: hard["y"][k])
    assert f"{round(hard['y'][top])} of 100 trees" in text
    shown = max(soft["y"])
    assert f"{shown:.0f}%" in text
    assert hard["y"][top] != pytest.approx(shown), "this case was chosen for differing counts"


@pytest.mark.parametrize(
    ("path", "key"),
    [
        (SINGLE_TREE, "boundary-chart"),
        (RANDOM_FOREST, "boundary-chart"),
        (GINI_VS_ENTROPY, "boundary-gini"),
    ],
)
def test_every_decision_boundary_puts_its_legend_below(path, key):
    app = open_page(path, dataset="iris")
    assert chart_spec(app, key)["layout"]["legend"]["orientation"] == "h"


def test_gini_page_charts_put_their_legends_below():
    app = open_page(GINI_VS_ENTROPY, dataset="iris")
    for key in ("impurity-curves", "depth-curves"):
        assert chart_spec(app, key)["layout"]["legend"]["orientation"] == "h", key


@pytest.mark.parametrize("path", PAGE_FILES.values(), ids=PAGE_FILES.keys())
def test_every_page_holds_out_the_share_of_rows_its_link_asks_for(path):
    app = open_page(path, dataset="wine", test_size="0.4", seed="2")
    assert_healthy(app)
    assert not app.warning
    rows = train_test_split(load_dataset("wine"), test_size=0.4, random_state=2)
    assert app.select_slider(key="test_size").value == 0.4
    if [box for box in app.selectbox if box.key == "sample"]:  # pages that trace a sample
        assert len(app.selectbox(key="sample").options) == len(rows.y_test)
    assert query_of(app)["test_size"] == "0.4"


def test_moving_the_test_size_slider_changes_the_test_set_and_the_url():
    app = open_page(SINGLE_TREE, dataset="iris")
    assert len(app.selectbox(key="sample").options) == 38  # 25% of 150, rounded up
    app.select_slider(key="test_size").set_value(0.1).run()
    assert_healthy(app)
    assert len(app.selectbox(key="sample").options) == 15
    assert query_of(app)["test_size"] == "0.1"


def test_the_sines_noise_is_a_control_only_for_the_sine():
    iris = open_page(SINGLE_TREE, dataset="iris")
    assert not [s for s in iris.select_slider if s.key == "noise"]
    app = open_page(SINGLE_TREE, dataset="sine", noise="0")
    assert_healthy(app)
    assert app.select_slider(key="noise").value == 0.0
    # Without noise every point lies on the wave itself.
    wave = load_dataset("sine", noise=0.0)
    rows = train_test_split(wave, test_size=0.25, random_state=0)
    first = app.selectbox(key="sample").options[0]
    assert first.endswith(f"y = {float(rows.y_test[0]):.2f})")
    app.select_slider(key="noise").set_value(8.0).run()
    assert_healthy(app)
    assert app.selectbox(key="sample").options[0] != first
    assert query_of(app)["noise"] == "8"


def test_a_forest_too_big_for_the_server_grows_its_largest_allowed_prefix(monkeypatch):
    # A ceiling low enough that 50 iris trees are over it, so the test stays quick.
    monkeypatch.setattr("core.app.cost.CEILING_SECONDS", 0.005)
    app = open_page(RANDOM_FOREST, dataset="iris", n_estimators="50", tree="40")
    assert_healthy(app)
    notices = [w for w in warnings(app) if "too big for a shared classroom server" in w]
    assert len(notices) == 1
    grown = int(notices[0].split("its first ")[1].split(" trees")[0])
    assert 1 <= grown < 50
    assert f"Forest of {grown}" in str(chart_spec(app, "boundary-chart"))
    assert app.number_input(key="tree").proto.max == grown - 1
    # What was asked for is kept: the slider and the link still say 50.
    assert app.slider(key="n_estimators").value == 50
    assert query_of(app)["n_estimators"] == "50"
    app.slider(key="n_estimators").set_value(10).run()
    assert_healthy(app)
    assert not [w for w in warnings(app) if "too big" in w]


def test_forest_page_on_the_sine_speaks_of_r2_and_the_fit_not_accuracy_or_a_boundary():
    app = open_page(RANDOM_FOREST, dataset="sine", n_estimators="20")
    assert_healthy(app)
    words = " ".join(
        [
            *(m.value for m in app.markdown),
            *(c.value for c in app.caption),
            *(m.label for m in app.metric),
        ]
        + [h.value for h in app.subheader]
    )
    assert "R²" in words
    assert "accuracy" not in words.lower()
    assert "boundary" not in words.lower()


def test_forest_page_tells_its_two_single_trees_apart_with_one_number_each():
    app = open_page(RANDOM_FOREST, dataset="wine", n_estimators="20", tree="3")
    assert_healthy(app)
    lone = next(m for m in app.metric if m.label.startswith("Lone tree's test"))
    note = next(c.value for c in app.caption if c.value.startswith("Tree 3 of the forest"))
    assert "bootstrap sample" in note and "max_features=sqrt" in note
    lone_words = "The lone tree beside the forest above, grown on all rows with every feature"
    assert f"{lone_words}, scores {lone.value}" in note


def test_single_tree_names_the_predicted_class_as_the_table_spells_it():
    # "Adelie", not "adelie": the sentence starts with a capital, the class keeps its own case.
    app = open_page(SINGLE_TREE, dataset="penguins", max_depth="3")
    answer = block(app, "sample-path").markdown[-1].value
    assert answer.startswith("So the tree predicts **")
    predicted = answer.split("**")[1]
    assert predicted in load_dataset("penguins").class_names


def test_a_long_forest_fit_shows_a_progress_bar_that_goes_when_it_is_done(monkeypatch):
    # Every forest counts as long here; the bar is fed by the engine's progress hook.
    from core.ui import cached

    monkeypatch.setattr(cached, "PROGRESS_SECONDS", 0.0)
    cached.FORESTS.clear()
    shown: list[int] = []
    real = cached.GrowthBar.__call__

    def seen(bar: cached.GrowthBar, fraction: float) -> None:
        real(bar, fraction)
        shown.append(bar.shown)

    monkeypatch.setattr(cached.GrowthBar, "__call__", seen)
    app = open_page(RANDOM_FOREST, dataset="wine", n_estimators="30", seed="3")
    assert_healthy(app)
    assert shown and shown[-1] == 100
    assert shown == sorted(shown)
    assert not app.get("progress")  # emptied once the forest is grown
    # The same forest again (a rerun, or another student): no fit, so no bar.
    shown.clear()
    app.run()
    assert_healthy(app)
    assert shown == []
