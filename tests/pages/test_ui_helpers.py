"""The pieces of core.ui that draw: a failure turned into a message, an inline SVG.

The pure helpers they use are in core/explain.py, checked by hand in tests/test_explain.py.
"""

from __future__ import annotations

from page_helpers import assert_healthy
from streamlit.testing.v1 import AppTest

from core import explain, ui


def test_ui_re_exports_the_pure_helpers_the_pages_call():
    # They live in core/explain.py (tested in tests/test_explain.py); pages reach them as ui.*.
    for name in (
        "accuracy",
        "clicked_sample",
        "columns",
        "differing_nodes",
        "legend_below",
        "mark_sample",
        "md",
        "path_in_words",
        "regression_criterion",
    ):
        assert getattr(ui, name) is getattr(explain, name), name


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
    assert f'style="{centred};max-width:450pt"' in shown  # 1.5 times its natural size
    assert f'style="{centred};max-width:300pt"' in natural
    assert "preserveAspectRatio" not in shown
