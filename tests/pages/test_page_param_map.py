"""Single tree's parameter map (issue 20, part 3): opened from its link, scoring the page's own
tree, and a click on a cell growing that tree."""

from __future__ import annotations

import inspect
import json
import textwrap
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from page_helpers import (
    SINGLE_TREE,
    assert_healthy,
    block,
    chart_spec,
    count_calls,
    how_computed_code,
    open_page,
    query_of,
    values,
)
from streamlit.proto.WidgetStates_pb2 import WidgetState
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Widget

from core.app.models import TreeSpec
from core.data.source import Source
from core.figures.param_map import DEPTHS, LEAF_SIZES, column_scores, compute_param_map
from core.ui import cached_curves

MAP = "param-map"


class _Selection(Widget):
    """A Plotly chart standing in as the widget it is in the browser, holding one selection.

    AppTest has no interaction for charts. This sends what the browser sends when a point
    is clicked: the chart's id with the selection event as JSON, so the chart's ``on_select``
    callback runs as it does there.
    """

    def __init__(self, chart: Any, points: list[dict[str, Any]]) -> None:
        super().__init__(chart.proto, chart.root)
        self.type = "plotly_chart"
        self._value = {
            "selection": {
                "points": points,
                "point_indices": [p["point_index"] for p in points],
                "box": [],
                "lasso": [],
            }
        }

    @property
    def id(self) -> str:
        return str(self.proto.id)

    @property
    def value(self) -> Any:
        return self._value

    @property
    def _widget_state(self) -> WidgetState:
        state = WidgetState()
        state.id = self.id
        state.string_value = json.dumps(self._value)  # the browser sends the event as text
        return state


def click_cell(app: AppTest, depth: int | None, leaf: int) -> AppTest:
    """Click the map's cell of ``depth`` and ``leaf`` (on the usual grid), then run."""
    row, column = DEPTHS.index(depth), LEAF_SIZES.index(leaf)
    parent = block(app, MAP)
    (position,) = [i for i, node in parent.children.items() if node.type == "plotly_chart"]
    point = {
        "curve_number": 1,
        "point_number": row * len(LEAF_SIZES) + column,
        "point_index": row * len(LEAF_SIZES) + column,
        "x": column,
        "y": row,
    }
    parent.children[position] = _Selection(parent.children[position], [point])
    return app.run()


def heat(app: AppTest) -> dict[str, Any]:
    return chart_spec(app, MAP)["data"][0]


def scores(app: AppTest) -> np.ndarray:
    """The heat map's scores, shape (n_depths, n_leaf_sizes)."""
    z = heat(app)["z"]
    if isinstance(z, dict):  # typed array: flat bytes and a shape
        return values(z).reshape([int(n) for n in z["shape"].split(",")])
    return np.asarray(z, dtype=float)


def outlined(app: AppTest) -> tuple[int, int]:
    """(row, column) of the outlined cell."""
    (shape,) = chart_spec(app, MAP)["layout"]["shapes"]
    return round(shape["y0"] + 0.5), round(shape["x0"] + 0.5)


def metric(app: AppTest, label: str) -> str:
    return next(m.value for m in app.metric if m.label == label)


@pytest.fixture
def maps_scored(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the maps actually scored (not served from the cache)."""
    cached_curves._param_map.clear()
    yield count_calls(monkeypatch, cached_curves, "compute_param_map")
    cached_curves._param_map.clear()


def test_the_link_opens_the_map_of_the_pages_own_tree():
    # Every other setting of the page's tree shapes every cell: the outlined one is the tree
    # the page shows, so its score is the page's test accuracy.
    app = open_page(
        SINGLE_TREE,
        view="map",
        dataset="breast_cancer",
        fit="all",
        criterion="entropy",
        max_depth="4",
        min_samples_leaf="5",
        min_samples_split="10",
        ccp_alpha="0.01",
    )
    assert_healthy(app)
    assert app.segmented_control(key="view").value == "map"
    assert app.toggle(key="map_cv").value is False
    assert scores(app).shape == (13, 10)
    assert outlined(app) == (DEPTHS.index(4), LEAF_SIZES.index(5))
    text = heat(app)["text"][DEPTHS.index(4)][LEAF_SIZES.index(5)]
    assert text.removeprefix("<b>").removesuffix("</b>") == metric(app, "Test accuracy")
    assert "What to notice." in block(app, "param-map-notice").info[0].value
    assert any("Click a cell to grow that tree" in c.value for c in app.caption)
    # Above the page's usual figures, and its code in "How this is computed".
    order = [b.proto.id for b in app.container if b.proto.id.startswith("$$ID")]
    boundary = block(app, "boundary-chart").proto.id
    assert order.index(block(app, MAP).proto.id) < order.index(boundary)
    sources = how_computed_code(app)
    for function in (compute_param_map, column_scores):
        assert textwrap.dedent(inspect.getsource(function)).strip() in sources


def test_a_click_on_a_cell_grows_that_tree(maps_scored):
    app = open_page(SINGLE_TREE, view="map", dataset="breast_cancer")
    assert_healthy(app)
    assert outlined(app) == (DEPTHS.index(3), 0)
    expected = heat(app)["text"][DEPTHS.index(None)][LEAF_SIZES.index(8)]

    click_cell(app, None, 8)

    assert_healthy(app)
    assert app.select_slider(key="max_depth").value == "no limit"
    assert app.slider(key="min_samples_leaf").value == 8
    query = query_of(app)
    assert (query["max_depth"], query["min_samples_leaf"], query["view"]) == ("none", "8", "map")
    assert outlined(app) == (DEPTHS.index(None), LEAF_SIZES.index(8))
    assert metric(app, "Test accuracy") == expected.removeprefix("<b>").removesuffix("</b>")
    assert len(maps_scored) == 1  # the map itself was scored once, not again for the click


def test_moving_the_sliders_moves_the_mark_and_scores_no_new_map(maps_scored):
    app = open_page(SINGLE_TREE, view="map", dataset="wine")
    before = heat(app)["text"]
    app.slider(key="min_samples_leaf").set_value(12).run()
    app.select_slider(key="max_depth").set_value(7).run()
    assert_healthy(app)
    assert outlined(app) == (DEPTHS.index(7), LEAF_SIZES.index(12))
    assert heat(app)["text"] == before
    assert len(maps_scored) == 1
    # A setting off the usual grid gets a column of its own, and is marked there.
    app.slider(key="min_samples_leaf").set_value(4).run()
    assert_healthy(app)
    ticks = chart_spec(app, MAP)["layout"]["xaxis"]["ticktext"]
    assert ticks == ["1", "2", "3", "4", "5", "8", "12", "18", "25", "35", "50"]
    assert outlined(app) == (DEPTHS.index(7), 3)
    assert len(maps_scored) == 2


def test_cross_validation_scores_on_the_training_rows_and_is_in_the_link():
    app = open_page(SINGLE_TREE, view="map", dataset="sine")
    held_out = heat(app)["text"]
    assert chart_spec(app, MAP)["layout"]["title"]["text"] == "Test R²"
    app.toggle(key="map_cv").set_value(True).run()
    assert_healthy(app)
    assert heat(app)["text"] != held_out
    assert any("5-fold cross-validation on the 150 training rows" in c.value for c in app.caption)
    assert query_of(app)["map_cv"] == "true"
    assert "5-fold CV R²" in chart_spec(app, MAP)["data"][1]["text"][0]


def test_another_pages_view_shows_no_map_and_no_error(maps_scored):
    app = open_page(SINGLE_TREE, view="variance")
    assert_healthy(app)
    assert app.segmented_control(key="view").value is None
    assert not [b for b in app.container if b.proto.id.endswith(f"-{MAP}")]
    assert not maps_scored
    # And without a view, nothing of the map either: it is computed only when open.
    app = open_page(SINGLE_TREE)
    assert not [b for b in app.container if b.proto.id.endswith(f"-{MAP}")]
    assert not maps_scored


def test_the_maps_cache_key_leaves_out_the_two_settings_it_maps(maps_scored):
    wine = TreeSpec(source=Source.table("wine"), columns=(6, 12), criterion="gini", max_depth=4)
    first = cached_curves.param_map(wine)
    moved = cached_curves.param_map(replace(wine, max_depth=None, min_samples_leaf=25))
    assert len(maps_scored) == 1
    assert first.current == (4, 1) and moved.current == (None, 25)
    np.testing.assert_array_equal(first.scores, moved.scores)
    for changed in (
        replace(wine, criterion="entropy"),
        replace(wine, ccp_alpha=0.01),
        replace(wine, seed=1),
        replace(wine, max_depth=15),  # off the grid: a row of its own
    ):
        cached_curves.param_map(changed)
    cached_curves.param_map(wine, 5)
    assert len(maps_scored) == 6
