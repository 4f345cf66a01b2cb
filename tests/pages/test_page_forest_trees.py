"""Random forest: up to 1000 trees, a log axis for their number, and one fit for the curve."""

from __future__ import annotations

import pytest
from page_helpers import (
    RANDOM_FOREST,
    assert_healthy,
    chart_spec,
    open_page,
    query_of,
    values,
    warnings,
)


def curve(app, name: str):
    trace = next(t for t in chart_spec(app, "forest-curve")["data"] if t.get("name") == name)
    return values(trace["x"]), values(trace["y"])


def test_a_forest_of_1000_trees_is_grown_and_its_curve_reaches_1000():
    app = open_page(RANDOM_FOREST, n_estimators="1000")
    assert_healthy(app)
    assert not warnings(app)
    assert app.slider(key="n_estimators").value == 1000
    x, _ = curve(app, "test")
    assert (x[0], x[-1], len(x)) == (1, 1000, 1000)


def test_the_log_axis_toggle_sets_the_curves_x_axis_and_the_url():
    app = open_page(RANDOM_FOREST, n_estimators="20")
    assert chart_spec(app, "forest-curve")["layout"]["xaxis"].get("type") != "log"

    app.toggle(key="log_trees").set_value(True).run()

    assert_healthy(app)
    assert chart_spec(app, "forest-curve")["layout"]["xaxis"]["type"] == "log"
    assert query_of(app)["log_trees"] == "true"


def test_a_link_can_open_the_log_axis():
    app = open_page(RANDOM_FOREST, log_trees="true")
    assert app.toggle(key="log_trees").value is True
    assert chart_spec(app, "forest-curve")["layout"]["xaxis"]["type"] == "log"


@pytest.mark.parametrize(("n_trees", "shown"), [(30, 100), (100, 100), (250, 250)])
def test_the_curve_shows_the_forest_asked_for_and_at_least_100_trees(n_trees, shown):
    app = open_page(RANDOM_FOREST, n_estimators=str(n_trees))
    x, test = curve(app, "test")
    assert x[-1] == shown
    # The curve at the forest's size is the forest on screen: the same trees, the same score.
    assert f"{test[n_trees - 1]:.3f}" == app.metric[1].value
