"""Random_forest?view=variance: K resampled trees over each other, opened from a link."""

from __future__ import annotations

import json

import pytest
from page_helpers import (
    RANDOM_FOREST,
    assert_healthy,
    block,
    chart_spec,
    open_page,
    query_of,
    raw_query_of,
)
from page_helpers import values as values_of


def metric_values(app) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return {m.label: m.value for m in app.metric}


@pytest.mark.parametrize("dataset", ["moons", "sine"])
def test_the_link_opens_the_view_with_its_trees_and_numbers(dataset: str) -> None:
    app = open_page(RANDOM_FOREST, dataset=dataset, view="variance", max_depth="none")
    assert_healthy(app)
    assert not app.warning
    trees = chart_spec(app, "variance-trees")
    assert trees["data"], "the trees over each other"
    curve = chart_spec(app, "variance-curve")
    assert len(values_of(curve["data"][0]["x"])) == 20, (
        "one point per number of trees averaged, K = 20"
    )
    numbers = metric_values(app)
    if dataset == "sine":
        assert chart_spec(app, "variance-parts")["data"]
        one, average = (
            float(numbers["One tree's test MSE (mean of the 20 trees)"]),
            float(numbers["Their average's test MSE"]),
        )
        assert average < one, "deep trees on resamples: their average errs less"
    else:
        assert "Two trees agree on a test row" in numbers
    assert block(app, "variance-notice").info
    assert query_of(app)["view"] == "variance"


def shown_pair(app, measure: str, n_trees: int = 20) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    """One tree's score and their average's, as the metrics show them."""
    numbers = metric_values(app)
    return (
        numbers[f"One tree's test {measure} (mean of the {n_trees} trees)"],
        numbers[f"Their average's test {measure}"],
    )


@pytest.mark.parametrize(
    ("dataset", "average_wins"), [("iris", False), ("wine", True), ("sine", True)]
)
def test_the_notice_says_what_the_two_numbers_beside_it_show(
    dataset: str, average_wins: bool
) -> None:
    app = open_page(RANDOM_FOREST, dataset=dataset, view="variance")
    assert_healthy(app)
    measure = "MSE" if dataset == "sine" else "accuracy"
    one, average = shown_pair(app, measure)
    better = float(average) < float(one) if measure == "MSE" else float(average) > float(one)
    assert better == average_wins, "the case this test is about"
    notice = block(app, "variance-notice").info[0].value
    assert ("does score better" in notice) == better
    assert ("does not score better" in notice) == (not better and float(one) != float(average))
    assert one in notice and average in notice, "the sentence quotes the numbers shown"
    if not better:
        # iris: 38 test rows, one row is 1/38 of accuracy
        assert "With 38 test rows one row is 0.026 of accuracy" in notice


def test_numbers_side_by_side_have_one_precision_and_k_is_a_number() -> None:
    app = open_page(RANDOM_FOREST, dataset="sine", view="variance", resamples="12")
    one, average = shown_pair(app, "MSE", n_trees=12)
    decimals = {len(text.partition(".")[2]) for text in (one, average)}
    assert len(decimals) == 1, f"{one!r} beside {average!r}"
    assert not [m for m in app.metric if "K" in m.label.split()]


def test_moving_k_and_the_average_toggle_redraws_and_stays_in_the_link() -> None:
    app = open_page(RANDOM_FOREST, dataset="moons", view="variance")
    before = chart_spec(app, "variance-trees")
    app.slider(key="resamples").set_value(5).run()
    assert_healthy(app)
    assert len(values_of(chart_spec(app, "variance-curve")["data"][0]["x"])) == 5
    app.toggle(key="average").set_value(False).run()
    after = chart_spec(app, "variance-trees")
    assert len(after["data"]) == len(before["data"]) - 1, "no average line"
    assert raw_query_of(app)["resamples"] == "5" and raw_query_of(app)["average"] == "false"


def test_without_the_view_nothing_of_it_is_computed_and_another_pages_view_is_ignored() -> None:
    for query in ({}, {"view": "map"}):
        app = open_page(RANDOM_FOREST, dataset="moons", **query)
        assert_healthy(app)
        assert not [c for c in app.get("plotly_chart") if "variance" in c.proto.id]
        assert "view" not in raw_query_of(app)


def test_the_forest_at_a_glance_draws_twelve_trees_once_opened() -> None:
    app = open_page(RANDOM_FOREST, dataset="wine")
    assert not [c for c in app.get("plotly_chart") if "glance" in c.proto.id], "closed: nothing"
    app.session_state["glance"] = True  # what opening the expander does
    app.run()
    assert_healthy(app)
    (chart,) = [c for c in app.get("plotly_chart") if "forest-glance" in c.proto.id]
    data = json.loads(chart.proto.spec)["data"]
    maps = [trace for trace in data if trace["type"] == "heatmap"]
    targets = [trace for trace in data if trace["type"] == "scatter"]
    assert len(maps) == 12 and len(targets) == 12
    numbers = {int(values_of(trace["customdata"])[0]) for trace in targets}
    assert numbers == set(range(12)), "each map's click targets carry its tree's number"


def test_the_open_trees_map_is_framed_at_a_glance() -> None:
    # Issue 39: a click on a map opened its tree with nothing on the map to say which.
    app = open_page(RANDOM_FOREST, dataset="wine", tree="5")
    app.session_state["glance"] = True  # what opening the expander does
    app.run()
    assert_healthy(app)
    (chart,) = [c for c in app.get("plotly_chart") if "forest-glance" in c.proto.id]
    layout = json.loads(chart.proto.spec)["layout"]
    (frame,) = layout["shapes"]
    assert (frame["xref"], frame["yref"]) == ("x6 domain", "y6 domain")
    assert layout["annotations"][5]["text"] == "<b>tree 5</b>"
