"""Gini_vs_entropy?view=criterion-matters: where the trees part, over 50 splits, and by hand."""

from __future__ import annotations

from page_helpers import (
    GINI_VS_ENTROPY,
    assert_healthy,
    chart_spec,
    open_page,
    query_of,
    raw_query_of,
)

from core.ui.cached_curves import STUDY_SEEDS


def test_the_link_opens_the_three_parts() -> None:
    app = open_page(GINI_VS_ENTROPY, dataset="wine", view="criterion-matters")
    assert_healthy(app)
    for key in ("parting-curves", "criterion-seeds", "criterion-lab"):
        assert chart_spec(app, key)["data"], key
    words = " ".join(m.value for m in app.markdown)
    assert "The two trees first part at the root" in words
    assert "Gini asks **proline" in words and "Entropy asks **flavanoids" in words
    labels = [m.label for m in app.metric]
    assert "Splits where the roots differ" in labels
    histogram = chart_spec(app, "criterion-seeds")["data"][0]
    assert histogram["type"] == "histogram"
    assert query_of(app)["view"] == "criterion-matters"
    assert STUDY_SEEDS == 50


def test_the_lab_follows_its_sliders_and_keeps_them_in_the_link() -> None:
    app = open_page(GINI_VS_ENTROPY, view="criterion-matters")
    app.slider(key="left_b").set_value(0).run()
    app.slider(key="right_a").set_value(0).run()
    assert_healthy(app)
    bars = chart_spec(app, "criterion-lab")["data"]
    assert bars[0]["text"][1:] == ["0.000", "0.000"], "both sides pure: no impurity left"
    assert raw_query_of(app)["left_b"] == "0"
    gains = [m.value for m in app.markdown if m.value.startswith("Gain:")]
    assert gains and "(100% of the node's)" in gains[0]


def test_the_page_without_the_view_computes_none_of_it() -> None:
    app = open_page(GINI_VS_ENTROPY, dataset="wine")
    assert_healthy(app)
    assert not [c for c in app.get("plotly_chart") if "criterion" in c.proto.id]
