"""Leaves: what each leaf holds, under the Single tree diagram, run in-process (AppTest)."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
from page_helpers import SINGLE_TREE, assert_healthy, chart_spec, open_page, query_of, svg, values

from core.data.catalogue import load_dataset


def metric(app: Any, label: str) -> str:
    (value,) = [m.value for m in app.metric if m.label == label]
    return str(value)


def leaves_charts(app: Any) -> int:
    return sum(1 for b in app.container if b.proto.id.endswith("-leaves-chart"))


def opened(**query: str) -> Any:
    app = open_page(SINGLE_TREE, **query)
    assert_healthy(app)
    assert leaves_charts(app) == 0  # closed: nothing computed, nothing drawn
    app.session_state["leaves"] = True  # what clicking the expander open does
    app.run()
    assert_healthy(app)
    return app


def test_the_chart_has_one_stacked_bar_per_leaf_once_opened() -> None:
    app = opened()
    n_leaves = int(metric(app, "Leaves"))
    spec = chart_spec(app, "leaves-chart")
    bars = [trace for trace in spec["data"] if trace["type"] == "bar"]
    classes = load_dataset(query_of(app)["dataset"]).class_names
    assert [trace["name"] for trace in bars] == list(classes)  # one stacked part per class
    for trace in bars:
        assert len(trace["x"]) == n_leaves
        assert len(set(trace["x"])) == n_leaves
    heights = sum(values(trace["y"]).astype(float) for trace in bars)
    assert np.all(heights > 0)  # every leaf holds at least one training row
    assert any("One bar per leaf" in c.value for c in app.caption)

    app.session_state["leaves"] = False
    app.run()
    assert leaves_charts(app) == 0


def test_the_sine_shows_each_leafs_targets_and_its_mean() -> None:
    app = opened(dataset="sine")
    n_leaves = int(metric(app, "Leaves"))
    spec = chart_spec(app, "leaves-chart")
    box, means = spec["data"]
    assert box["type"] == "box"
    assert len(set(box["x"])) == n_leaves
    assert len(means["x"]) == n_leaves
    assert any("The diamond, their mean" in c.value for c in app.caption)


def test_a_deep_tree_shows_its_forty_largest_leaves_and_says_so() -> None:
    app = opened(dataset="breast_cancer", max_depth="none")
    n_leaves = int(metric(app, "Leaves"))
    assert n_leaves > 40
    spec = chart_spec(app, "leaves-chart")
    assert all(len(trace["x"]) == 40 for trace in spec["data"])
    assert spec["layout"]["title"]["text"] == f"The 40 largest of {n_leaves} leaves"


def test_each_leaf_is_named_by_a_number_the_diagram_shows() -> None:
    # "node 4" in the chart is "node 4" on the tree: a student finds the leaf it names.
    closed = open_page(SINGLE_TREE)
    assert "node 0" not in svg(closed), "numbers only once asked"
    app = opened()
    drawing = svg(app)
    bars = [trace for trace in chart_spec(app, "leaves-chart")["data"] if trace["type"] == "bar"]
    for name in bars[0]["x"]:
        assert name.startswith("node ")
        assert re.search(rf">{name}<", drawing), f"{name} is not on the diagram"
    assert any("named by its node number" in c.value for c in app.caption)
