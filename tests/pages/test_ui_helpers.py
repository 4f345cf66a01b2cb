"""The pieces of core.ui that draw: a failure turned into a message, an inline SVG.

The pure helpers they use are in core/app/words.py and core/figures/overlays.py, checked by
hand in tests/app/test_words.py and tests/figures/test_overlays.py.
"""

from __future__ import annotations

from page_helpers import SINGLE_TREE, assert_healthy, open_page, query_of
from streamlit.testing.v1 import AppTest


def test_a_broken_control_keeps_its_last_value_and_the_others_apply():
    # Issue 12: a segmented control arrived empty under load, and the whole change was lost.
    app = open_page(SINGLE_TREE)
    app.session_state["criterion"] = None  # as a browser under load sent it
    app.select_slider(key="max_depth").set_value(5).run()
    assert_healthy(app)
    query = query_of(app)
    assert (query["criterion"], query["max_depth"]) == ("gini", "5")
    assert app.segmented_control(key="criterion").value == "gini"


def test_guard_turns_an_error_into_a_friendly_message():
    def page():
        import streamlit as st

        from core import ui

        with ui.guard("the chart") as shown:
            raise ZeroDivisionError("boom")
        st.write("after" if shown.failed else "not reached")

    app = AppTest.from_function(page, default_timeout=30).run()
    assert not app.exception
    assert "could not show the chart" in app.warning[0].value
    assert "ZeroDivisionError" in app.warning[0].value
    assert app.markdown[0].value == "after"


def test_show_svg_centres_the_drawing_and_caps_its_growth():
    def page():
        from core import ui

        svg = (
            '<?xml version="1.0"?>\n<svg width="100%" preserveAspectRatio="xMidYMin meet" '
            'viewBox="0.00 0.00 300.00 120.00"><g/></svg>'
        )
        ui.show_svg(svg, key="tree-diagram")
        ui.show_svg(svg, key="natural", max_scale=1.0)

    app = AppTest.from_function(page, default_timeout=30).run()
    assert_healthy(app)
    shown, natural = app.markdown[0].value, app.markdown[1].value
    assert "<?xml" not in shown
    centred = "display:block;margin:0 auto;width:100%;height:auto"
    # 1.5 times its natural size, and no taller than 70% of the window
    assert f'style="{centred};max-width:450pt;max-height:70vh"' in shown
    assert f'style="{centred};max-width:300pt;max-height:70vh"' in natural
    assert "preserveAspectRatio" not in shown
