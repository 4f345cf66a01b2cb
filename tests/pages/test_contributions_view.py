"""How a prediction is built: the forest's vote taken apart, and the what-if view."""

from __future__ import annotations

import numpy as np
import pytest
from page_helpers import RANDOM_FOREST, assert_healthy, chart_spec, open_page, values


def test_the_forests_answer_is_taken_apart_for_the_voted_sample() -> None:
    app = open_page(RANDOM_FOREST, dataset="breast_cancer", fit="all")
    assert_healthy(app)
    (trace,) = chart_spec(app, "vote-contributions")["data"]
    assert trace["type"] == "waterfall"
    assert trace["x"][0] == "at the root" and trace["x"][-1] == "prediction"
    steps = values(trace["y"])[:-1]
    # The root's share plus every step is the forest's share: the total bar's label.
    assert float(np.sum(steps)) == pytest.approx(float(trace["text"][-1]), abs=6e-3)
    app.selectbox(key="sample").set_value(5).run()
    assert chart_spec(app, "vote-contributions")["data"][0]["y"] != trace["y"]
