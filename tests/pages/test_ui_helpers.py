"""The pieces of core.ui that draw: a failure turned into a message, an inline SVG.

The pure helpers they use are in core/app/words.py and core/figures/overlays.py, checked by
hand in tests/app/test_words.py and tests/figures/test_overlays.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from page_helpers import RANDOM_FOREST, SINGLE_TREE, assert_healthy, open_page, query_of
from streamlit.testing.v1 import AppTest

from core.figures.wire import TYPED_ARRAYS


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


def test_a_chart_is_sent_as_streamlit_would_send_the_figure_itself():
    # core.ui.display.plotly_chart hands Streamlit the figure already in Plotly.js's form
    # (core.figures.wire): the browser must receive exactly what st.plotly_chart(figure) sent.
    def page():
        import numpy as np
        import streamlit as st

        from core.figures._layout import build_figure, styled_layout
        from core.ui.display import plotly_chart

        figure = build_figure(
            [
                {"type": "heatmap", "z": np.arange(6.0).reshape(2, 3), "x": np.arange(4)},
                {"type": "scatter", "x": np.array([1.0, 2.5]), "customdata": np.array([7, 9])},
            ],
            styled_layout(title="A chart", x_title="x", y_title="y", height=300),
        )
        plotly_chart(figure, key="ours", on_select="rerun", selection_mode="points")
        st.plotly_chart(
            figure,
            key="streamlits",
            on_select="rerun",
            selection_mode="points",
            width="stretch",
            theme=None,
        )

    app = AppTest.from_function(page, default_timeout=30).run()
    assert_healthy(app)
    ours, streamlits = (chart.proto for chart in app.get("plotly_chart"))
    # The same JSON; only the order of keys may differ (ours is the builder's own dicts).
    assert json.loads(ours.spec) == json.loads(streamlits.spec)
    if TYPED_ARRAYS:  # Plotly 6 and later: arrays travel as bytes, in both forms
        assert '"bdata"' in ours.spec
    assert (ours.theme, ours.selection_mode) == (streamlits.theme, streamlits.selection_mode)


def test_a_table_shows_the_rows_as_st_dataframe_shows_them():
    # core.ui.display.table hands Streamlit an Arrow table; a column Arrow cannot type goes
    # the pandas way. Both read back as the rows, in order, with the column settings.
    def page():
        import streamlit as st

        from core.ui.display import table

        rows = [
            {"split": "yours", "gain": 0.25, "samples": 40, "tree's": False},
            {"split": "the tree's best", "gain": 0.5, "samples": 38, "tree's": True},
        ]
        table(rows, column_config={"gain": st.column_config.NumberColumn(format="%.3f")})
        st.dataframe(rows, hide_index=True, width="stretch")
        table([{"value": "a"}, {"value": 1.5}])  # text and a number in one column

    app = AppTest.from_function(page, default_timeout=30).run()
    assert_healthy(app)
    ours, streamlits, mixed = app.dataframe
    assert ours.value.to_dict("records") == streamlits.value.to_dict("records")
    assert list(ours.value.columns) == ["split", "gain", "samples", "tree's"]
    assert '"%.3f"' in ours.proto.columns
    assert [str(v) for v in mixed.value["value"]] == ["a", "1.5"]


def test_a_chart_sent_by_plotly_chart_is_never_made_into_plotly_objects():
    # A figure that goes straight to the browser is sent from the builder's own dicts: nothing on
    # the way (not even the check whether it is a dict already) makes its Plotly objects.
    def page():
        import numpy as np
        import streamlit as st

        from core.figures._layout import DeferredFigure, build_figure, styled_layout
        from core.ui.display import plotly_chart

        figure = build_figure(
            [{"type": "scatter", "x": np.array([1.0, 2.5]), "y": np.array([0.0, 1.0])}],
            styled_layout(title="A chart", x_title="x", y_title="y", height=300),
        )
        plotly_chart(figure, key="ours")
        st.write(f"still deferred: {type(figure) is DeferredFigure}")

    app = AppTest.from_function(page, default_timeout=30).run()
    assert_healthy(app)
    assert [m.value for m in app.markdown] == ["still deferred: True"]


@pytest.mark.parametrize("path", [SINGLE_TREE, RANDOM_FOREST])
def test_no_chart_shows_plotlys_toolbar_over_its_title(path: Path) -> None:
    # Issue 39: the toolbar covered the titles of the glance grid and the leaves chart.
    app = open_page(path)
    assert_healthy(app)
    charts = app.get("plotly_chart")
    assert charts
    for shown in charts:
        assert json.loads(shown.proto.config)["displayModeBar"] is False
