"""The widget of a setting honours its limits, as the settings table declares them."""

from __future__ import annotations

from dataclasses import replace

import pytest
from page_helpers import SINGLE_TREE, assert_healthy, open_page, query_of
from streamlit.testing.v1 import AppTest

from core.app.settings import SINGLE
from core.app.settings import table as settings_table


@pytest.fixture
def raised_gain_floor(monkeypatch: pytest.MonkeyPatch) -> None:
    """The single tree page with a minimum gain of at least 0.02 (its default 0.05)."""
    page = settings_table.BY_PAGE[SINGLE]
    entry = page["min_impurity_decrease"]
    raised = replace(entry, low=0.02, defaults={**entry.defaults, SINGLE: 0.05})
    monkeypatch.setitem(settings_table.BY_PAGE, SINGLE, {**page, "min_impurity_decrease": raised})


def test_a_float_slider_starts_at_its_settings_lower_limit(raised_gain_floor):
    app = open_page(SINGLE_TREE)
    assert_healthy(app)
    slider = app.slider(key="min_impurity_decrease")
    # From the setting's lower limit to the top of the classification scale, never below.
    assert (slider.proto.min, slider.proto.max) == pytest.approx((0.02, 0.1))
    assert slider.value == pytest.approx(0.05)
    slider.set_value(0.02).run()
    assert_healthy(app)
    assert query_of(app)["min_impurity_decrease"] == "0.02"


def test_a_slider_is_handed_the_number_its_key_holds_as_a_number_of_its_kind():
    # A float setting accepts a whole number (a link's "0"); beside a float slider's bounds
    # Streamlit refuses a whole number as the value, so it is handed as a float.
    def script() -> None:
        import streamlit as st

        from core.ui.binding import held_value

        for key, value in (("a", 0), ("b", 2.5), ("c", True), ("d", "x")):
            st.session_state.setdefault(key, value)
        handed = [held_value("a", float), held_value("a", int), held_value("b", int)]
        handed += [held_value(key, int) for key in ("c", "d", "missing")]
        st.text(repr(handed))
        st.slider("a", 0.0, 1.0, held_value("a", float), key="a")

    app = AppTest.from_function(script).run()
    assert not app.exception, app.exception
    assert app.text[0].value == "[0.0, 0, None, None, None, None]"
    assert app.slider(key="a").value == 0.0
