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


def test_show_svg_keeps_the_drawing_no_larger_than_its_natural_size():
    def page():
        from core import ui

        ui.show_svg(
            '<?xml version="1.0"?>\n<svg width="100%" preserveAspectRatio="xMidYMin meet" '
            'viewBox="0.00 0.00 300.00 120.00"><g/></svg>',
            key="tree-diagram",
        )

    app = AppTest.from_function(page, default_timeout=30).run()
    assert_healthy(app)
    shown = app.markdown[0].value
    assert "<?xml" not in shown
    assert 'style="width:100%;height:auto;max-width:300pt"' in shown
    assert "preserveAspectRatio" not in shown
