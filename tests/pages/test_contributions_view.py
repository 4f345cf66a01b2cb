"""How a prediction is built: the forest's vote taken apart, and the what-if view."""

from __future__ import annotations

import json

import numpy as np
import pytest
from page_helpers import (
    RANDOM_FOREST,
    SINGLE_TREE,
    assert_healthy,
    block,
    chart_spec,
    open_page,
    values,
)


def test_the_forests_answer_is_taken_apart_for_the_voted_sample() -> None:
    app = open_page(RANDOM_FOREST, dataset="breast_cancer", fit="all")
    assert_healthy(app)
    (trace,) = chart_spec(app, "vote-contributions")["data"]
    assert trace["type"] == "waterfall"
    assert trace["y"][0] == "at the root" and trace["y"][-1] == "prediction"
    steps = values(trace["x"])[:-1]
    # The root's share plus every step is the forest's share: the total bar's label.
    assert float(np.sum(steps)) == pytest.approx(float(trace["text"][-1]), abs=6e-3)
    app.selectbox(key="sample").set_value(5).run()
    assert chart_spec(app, "vote-contributions")["data"][0]["x"] != trace["x"]


def test_what_if_follows_an_edited_value_and_starts_over_for_another_sample() -> None:
    app = open_page(SINGLE_TREE, view="what-if")  # iris, petal length and width, depth 3
    assert_healthy(app)
    words = block(app, "what-if-notice")
    assert words.info
    before = chart_spec(app, "what-if-contributions")["data"][0]
    assert before["y"][0] == "at the root" and before["y"][-1] == "prediction"
    assert any("setosa" in m.value for m in app.markdown), "test sample #0 is a setosa"

    app.number_input(key="what-if-0-0").set_value(5.5).run()  # a long petal: not setosa
    assert_healthy(app)
    after = chart_spec(app, "what-if-contributions")["data"][0]
    assert after["y"] != before["y"], "another path, other questions"
    assert any(m.value.startswith("Changed: petal length") for m in app.markdown)
    star = chart_spec(app, "what-if-boundary")["data"][-1]
    assert star["marker"]["symbol"] == "star" and star["x"] == [5.5]

    app.selectbox(key="sample").set_value(3).run()  # another sample: its own values
    assert any(m.value.startswith("As in the test set.") for m in app.markdown)


@pytest.mark.parametrize("dataset", ["iris", "sine"])
def test_the_what_if_view_draws_one_picture_of_the_model(dataset: str) -> None:
    # Issue 39: the page's own boundary, with the unedited sample's star, showed beside the
    # what-if view's, with the edited sample's.
    app = open_page(SINGLE_TREE, dataset=dataset, view="what-if")
    assert_healthy(app)
    pictures = [
        chart
        for chart in app.get("plotly_chart")
        if any(
            trace.get("name") == "regions" or trace.get("marker", {}).get("symbol") == "star"
            for trace in json.loads(chart.proto.spec)["data"]
        )
    ]
    assert len(pictures) == 1
    assert chart_spec(app, "what-if-boundary")["data"][-1]["marker"]["symbol"] == "star"
