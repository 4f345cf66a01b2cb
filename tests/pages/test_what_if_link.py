"""The what-if view's edits are in the link: opened from one, edited into one, cleared with the
sample they belong to."""

from __future__ import annotations

from typing import Any
from unittest import mock

import streamlit.testing.v1.local_script_runner as runner
from page_helpers import (
    SINGLE_TREE,
    assert_healthy,
    chart_spec,
    open_page,
    raw_query_of,
    warnings,
)
from streamlit.testing.v1 import AppTest

#: The source article's tree; its test sample #0 is a setosa with values 4.7, 3.2, 1.3, 0.2.
ARTICLE = {"dataset": "iris", "max_depth": "2", "fit": "all", "seed": "3", "test_size": "0.2"}


def _said(app: AppTest, start: str) -> bool:
    return any(m.value.startswith(start) for m in app.markdown)


def _in_the_fragment(app: AppTest, widget: Any) -> AppTest:
    """Run ``widget``'s change as the browser does for a widget inside the page's fragment
    (``st.fragment``): only the fragment reruns, with the ``Controls`` of the last full run.

    ``AppTest`` runs the whole script on every change, which hides what a fragment's rerun
    sees; this asks its runner for a rerun of the page's one fragment instead.
    """
    (fragment,) = app._fragment_storage._fragments  # the page's one fragment, by its id
    rerun = runner.RerunData

    def scoped(**data: Any) -> Any:
        return rerun(**data, fragment_id_queue=[fragment])

    with mock.patch.object(runner, "RerunData", scoped):
        return widget.run()


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


def test_edits_typed_one_after_another_in_the_fragment_all_stay() -> None:
    app = open_page(SINGLE_TREE, view="what-if", **ARTICLE)
    flower = [5.9, 3.0, 5.1, 1.8]  # the article's "predict a new flower"
    for feature, value in enumerate(flower):
        _in_the_fragment(app, app.number_input(key=f"what-if-0-{feature}").set_value(value))
        assert_healthy(app)
        shown = [app.number_input(key=f"what-if-0-{i}").value for i in range(feature + 1)]
        assert shown == flower[: feature + 1], f"the inputs after edit {feature + 1}"
        link = "_".join(f"{i}~{v:g}" for i, v in enumerate(flower[: feature + 1]))
        assert raw_query_of(app).get("edit") == link, f"the link after edit {feature + 1}"
    # Petal length 5.1 > 2.45 and petal width 1.8 > 1.75: the tree's right-hand leaf.
    assert any("so the tree predicts **virginica**" in m.value for m in app.markdown)


def test_plus_on_two_inputs_in_the_fragment_keeps_both_steps() -> None:
    app = open_page(SINGLE_TREE, view="what-if", **ARTICLE)
    _in_the_fragment(app, app.number_input(key="what-if-0-0").increment())
    _in_the_fragment(app, app.number_input(key="what-if-0-1").increment())
    assert_healthy(app)
    assert app.number_input(key="what-if-0-0").value == 4.7 + 0.01
    assert app.number_input(key="what-if-0-1").value == 3.2 + 0.01
    assert raw_query_of(app).get("edit") == f"0~{4.7 + 0.01!r}_1~{3.2 + 0.01!r}"
