"""The what-if view's edits are in the link: opened from one, edited into one, cleared with the
sample they belong to."""

from __future__ import annotations

from page_helpers import (
    SINGLE_TREE,
    assert_healthy,
    chart_spec,
    open_page,
    raw_query_of,
    warnings,
)
from streamlit.testing.v1 import AppTest


def _said(app: AppTest, start: str) -> bool:
    return any(m.value.startswith(start) for m in app.markdown)


def test_a_link_with_edits_opens_the_edited_sample() -> None:
    # Iris, petal length (feature 2) and width (3); test sample #0 is a setosa, whose petals
    # are short. The link makes its petal 5.5 cm long: the tree no longer calls it setosa.
    plain = open_page(SINGLE_TREE, view="what-if")
    app = open_page(SINGLE_TREE, view="what-if", edit="2~5.5")
    assert_healthy(app)
    assert app.number_input(key="what-if-0-0").value == 5.5
    assert app.number_input(key="what-if-0-1").value == plain.number_input(key="what-if-0-1").value
    assert _said(app, "Changed: petal length")
    star = chart_spec(app, "what-if-boundary")["data"][-1]
    assert star["marker"]["symbol"] == "star" and star["x"] == [5.5]
    before = chart_spec(plain, "what-if-contributions")["data"][0]
    after = chart_spec(app, "what-if-contributions")["data"][0]
    assert after["y"] != before["y"], "another path, other questions"
    assert before["text"][-1] != after["text"][-1], "another prediction"
    assert raw_query_of(app)["edit"] == "2~5.5", "the link keeps what it asked for"


def test_a_missing_value_opens_empty_and_stays_missing() -> None:
    app = open_page(SINGLE_TREE, view="what-if", edit="3~missing")
    assert_healthy(app)
    assert app.number_input(key="what-if-0-1").value is None
    assert _said(app, "Changed: petal width")
    assert raw_query_of(app)["edit"] == "3~missing"


def test_editing_writes_the_link_and_another_sample_clears_it() -> None:
    app = open_page(SINGLE_TREE, view="what-if")
    assert "edit" not in raw_query_of(app), "no edits, nothing in the link"
    app.number_input(key="what-if-0-1").set_value(2.25).run()
    assert_healthy(app)
    assert raw_query_of(app)["edit"] == "3~2.25"
    app.number_input(key="what-if-0-0").set_value(None).run()
    assert raw_query_of(app)["edit"] == "2~missing_3~2.25"
    assert _said(app, "Changed: petal length \\(cm\\), petal width")

    app.selectbox(key="sample").set_value(3).run()  # edits belong to their sample
    assert_healthy(app)
    assert "edit" not in raw_query_of(app)
    assert _said(app, "As in the test set.")
    app.selectbox(key="sample").set_value(0).run()  # and do not come back with it
    assert app.number_input(key="what-if-0-1").value != 2.25
    assert "edit" not in raw_query_of(app)


def test_closing_the_view_drops_its_edits_from_the_link() -> None:
    app = open_page(SINGLE_TREE, view="what-if", edit="2~5.5")
    app.segmented_control(key="view").set_value(None).run()
    assert_healthy(app)
    assert "edit" not in raw_query_of(app) and "view" not in raw_query_of(app)


def test_a_garbled_edit_is_a_notice_not_a_traceback() -> None:
    app = open_page(SINGLE_TREE, view="what-if", edit="2~5.5_2~1e999<script>")
    assert_healthy(app)
    (notice,) = [w for w in warnings(app) if "could not be used" in w]
    assert "edit:" in notice and "<script>" not in notice
    assert app.number_input(key="what-if-0-0").value != 5.5, "the whole value is refused"
    assert "edit" not in raw_query_of(app)


def test_edits_of_a_feature_the_dataset_lacks_are_left_out_with_a_notice() -> None:
    app = open_page(SINGLE_TREE, view="what-if", edit="2~5.5_40~1")
    assert_healthy(app)
    assert any("numbered 0 to 3" in w for w in warnings(app))
    assert app.number_input(key="what-if-0-0").value == 5.5
    assert raw_query_of(app)["edit"] == "2~5.5"


def test_edits_from_a_link_are_edited_on_and_keep_their_sample() -> None:
    app = open_page(SINGLE_TREE, view="what-if", sample="3", edit="3~2")
    assert_healthy(app)
    assert app.number_input(key="what-if-3-1").value == 2.0, "the link's sample keeps its edits"
    app.number_input(key="what-if-3-0").set_value(4.75).run()
    assert raw_query_of(app)["edit"] == "2~4.75_3~2"
    assert app.number_input(key="what-if-3-1").value == 2.0


def test_another_plotted_pair_keeps_the_edits_by_feature() -> None:
    # Iris's plotted pair is petal length (2) and width (3); the inputs follow the pair.
    app = open_page(SINGLE_TREE, view="what-if", edit="3~2")
    first = app.number_input(key="what-if-0-0").value
    app.selectbox(key="x").set_value(0).run()  # sepal length and petal width
    assert_healthy(app)
    assert app.number_input(key="what-if-0-0").label.startswith("sepal length")
    assert app.number_input(key="what-if-0-0").value != first, "sepal length's own value"
    assert app.number_input(key="what-if-0-1").value == 2.0
    assert raw_query_of(app)["edit"] == "3~2"
