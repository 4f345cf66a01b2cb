"""A model grown on all features, drawn on two: the regions a class can read, and what they are.

Issue 39: the all-features boundary was a slice through one sample, one colour from edge to
edge with points of every class on it (article 003's link, the parameter map's link). It is
now the same estimator grown on the two plotted features alone, and its title says so.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from page_helpers import RANDOM_FOREST, SINGLE_TREE, assert_healthy, chart_spec, open_page, values

from core.app.lessons import ARTICLES

ARTICLE_003 = dict(ARTICLES[0].values)  # iris, depth 2, all features, 20% held out, seed 3


def _regions(spec: dict[str, Any]) -> set[int]:
    """The classes the shaded regions show (a cell's z is its class plus its confidence)."""
    (heatmap,) = [trace for trace in spec["data"] if trace.get("name") == "regions"]
    return {int(z) for z in values(heatmap["z"]).ravel()}


def _title(spec: dict[str, Any]) -> str:
    """The title's words, without its line breaks and ``<sup>`` tags."""
    return re.sub(r"</?sup>", "", str(spec["layout"]["title"]["text"]).replace("<br>", " "))


@pytest.mark.parametrize(
    "query",
    [
        {key: str(value) for key, value in ARTICLE_003.items()},
        {"dataset": "breast_cancer", "fit": "all", "view": "map"},  # the parameter map's link
    ],
    ids=["article-003", "parameter-map"],
)
def test_a_tree_on_all_features_shows_the_regions_of_its_stand_in(query: dict[str, str]) -> None:
    app = open_page(SINGLE_TREE, **query)
    assert_healthy(app)
    spec = chart_spec(app, "boundary-chart")
    assert len(_regions(spec)) >= 2, "a region for more than one class"
    n_features = {"iris": 4, "breast_cancer": 30}[query["dataset"]]
    assert (
        f"a tree with the same settings grown on these 2 of the {n_features} features alone"
        in _title(spec)
    )


def test_a_forest_on_all_features_and_its_lone_tree_show_their_stand_ins() -> None:
    app = open_page(RANDOM_FOREST, dataset="wine", fit="all", n_estimators="20")
    assert_healthy(app)
    for key, kind in (("lone-boundary-chart", "tree"), ("boundary-chart", "forest")):
        spec = chart_spec(app, key)
        assert len(_regions(spec)) == 3, key
        assert f"a {kind} with the same settings grown on these 2 of the 13 features" in _title(
            spec
        )


def test_links_keep_their_settings() -> None:
    # The stand-in changes the picture, not the link: x, y and fit read as before.
    app = open_page(SINGLE_TREE, dataset="wine", fit="all", x="6", y="12")
    assert_healthy(app)
    spec = chart_spec(app, "boundary-chart")
    assert spec["layout"]["xaxis"]["title"]["text"] == "flavanoids"
    assert spec["layout"]["yaxis"]["title"]["text"] == "proline"
    assert np.isfinite(values(spec["data"][0]["z"]).astype(float)).all()
