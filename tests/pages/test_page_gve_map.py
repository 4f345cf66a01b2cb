"""Gini vs entropy's parameter maps (issue 20, part 3): the two trees' maps and their
difference, each outlining the page's trees, a click on any of them growing that cell's trees."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from page_helpers import GINI_VS_ENTROPY, assert_healthy, block, chart_spec, open_page, query_of
from streamlit.testing.v1 import AppTest
from test_page_param_map import _Selection

from core.figures.param_map import DEPTHS, LEAF_SIZES

MAPS = ("gve-map-gini", "gve-map-entropy", "gve-map-difference")


def click_cell(app: AppTest, key: str, depth: int | None, leaf: int) -> AppTest:
    """Click the cell of ``depth`` and ``leaf`` on the chart in container ``key``, then run."""
    row, column = DEPTHS.index(depth), LEAF_SIZES.index(leaf)
    parent = block(app, key)
    (position,) = [i for i, node in parent.children.items() if node.type == "plotly_chart"]
    index = row * len(LEAF_SIZES) + column
    point = {"curve_number": 1, "point_number": index, "point_index": index, "x": column, "y": row}
    parent.children[position] = _Selection(parent.children[position], [point])
    return app.run()


def outlined(app: AppTest, key: str) -> tuple[int, int]:
    (shape,) = chart_spec(app, key)["layout"]["shapes"]
    return round(shape["y0"] + 0.5), round(shape["x0"] + 0.5)


def cell_text(app: AppTest, key: str, cell: tuple[int, int]) -> str:
    text: Any = chart_spec(app, key)["data"][0]["text"]
    return str(text[cell[0]][cell[1]]).removeprefix("<b>").removesuffix("</b>")


def test_accuracy(app: AppTest, criterion: str) -> str:
    return next(
        m.value for m in block(app, f"side-{criterion}").metric if m.label == "Test accuracy"
    )


test_accuracy.__test__ = False  # type: ignore[attr-defined]  # a helper, not a test


def test_the_link_opens_both_maps_and_their_difference() -> None:
    app = open_page(GINI_VS_ENTROPY, view="map", dataset="wine", max_depth="5")
    assert_healthy(app)
    assert app.segmented_control(key="view").value == "map"
    assert app.toggle(key="map_cv").value is False
    current = (DEPTHS.index(5), LEAF_SIZES.index(1))
    for key in MAPS:
        assert outlined(app, key) == current
    # Each map's outlined cell is that tree as the page grows it: its test accuracy.
    shown = {c: cell_text(app, f"gve-map-{c}", current) for c in ("gini", "entropy")}
    for criterion in ("gini", "entropy"):
        assert shown[criterion] == test_accuracy(app, criterion)
    # The difference's cell is the two shown subtracted, in points of accuracy (each shown
    # to 0.001, so up to 0.1 point apart from the exact difference's one decimal).
    points = 100 * (float(shown["entropy"]) - float(shown["gini"]))
    difference = cell_text(app, "gve-map-difference", current).replace("\u2212", "-")
    assert points != 0 and float(difference) == pytest.approx(points, abs=0.1 + 1e-9)
    heat = chart_spec(app, "gve-map-difference")["data"][0]
    assert heat["zmid"] == 0 and heat["zmin"] == -heat["zmax"]
    assert "What to notice." in block(app, "gve-map-notice").info[0].value
    (caption,) = [c.value for c in app.caption if c.value.startswith("Of the 130 cells")]
    assert "one test row (2.2 points)" in caption  # wine holds out 45 rows
    # The page's criterion-matters view is not drawn with it.
    assert not [b for b in app.container if b.proto.id.endswith("-criterion-notice")]


@pytest.mark.parametrize("key", MAPS)
def test_a_click_on_any_map_sets_both_settings(key: str) -> None:
    app = open_page(GINI_VS_ENTROPY, view="map", dataset="wine")
    expected = cell_text(app, "gve-map-entropy", (DEPTHS.index(None), LEAF_SIZES.index(8)))
    click_cell(app, key, None, 8)
    assert_healthy(app)
    assert app.select_slider(key="max_depth").value == "no limit"
    assert app.slider(key="min_samples_leaf").value == 8
    query = query_of(app)
    assert (query["max_depth"], query["min_samples_leaf"], query["view"]) == ("none", "8", "map")
    for map_key in MAPS:
        assert outlined(app, map_key) == (DEPTHS.index(None), LEAF_SIZES.index(8))
    assert test_accuracy(app, "entropy") == expected


def test_cross_validated_maps_are_in_the_link() -> None:
    app = open_page(GINI_VS_ENTROPY, view="map", dataset="wine")
    before = chart_spec(app, "gve-map-gini")["data"][0]["text"]
    app.toggle(key="map_cv").set_value(True).run()
    assert_healthy(app)
    assert query_of(app)["map_cv"] == "true"
    assert chart_spec(app, "gve-map-gini")["data"][0]["text"] != before
    assert "5-fold CV accuracy" in chart_spec(app, "gve-map-difference")["data"][1]["text"][0]


def test_the_criterion_view_still_works_and_shows_no_map() -> None:
    app = open_page(GINI_VS_ENTROPY, view="criterion-matters", dataset="wine")
    assert_healthy(app)
    assert app.segmented_control(key="view").value == "criterion-matters"
    block(app, "criterion-notice")
    assert not [b for b in app.container if "-gve-map" in b.proto.id]
    assert np.all([not c.value.startswith("Of the 130 cells") for c in app.caption])


def test_an_all_white_map_says_the_criteria_score_the_same_everywhere() -> None:
    app = open_page(GINI_VS_ENTROPY, view="map", dataset="iris")
    assert_healthy(app)
    texts = chart_spec(app, "gve-map-difference")["data"][0]["text"]
    assert {cell for row in texts for cell in row} == {"0"}, "iris: the two maps are one"
    (caption,) = [c.value for c in app.caption if "cells" in c.value]
    assert caption.startswith("The two criteria score the same in every one of the 130 cells")
    assert "largest difference" not in caption and "+0.0" not in caption
    assert "the criterion changes no score" in block(app, "gve-map-notice").info[0].value


def test_the_largest_difference_is_quoted_as_its_cell_shows_it() -> None:
    app = open_page(GINI_VS_ENTROPY, view="map", dataset="xor")
    texts = chart_spec(app, "gve-map-difference")["data"][0]["text"]
    (caption,) = [c.value for c in app.caption if c.value.startswith("Of the 130 cells")]
    largest = caption.split("The largest difference is **")[1].split("**")[0]
    assert largest in {cell for row in texts for cell in row}, f"{largest!r}: no cell shows it"
