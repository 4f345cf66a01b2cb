"""core/ui/internals.py reads Streamlit's private state; these fail when Streamlit changes it."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def _probe() -> None:
    import streamlit as st

    from core.ui import internals

    unread = internals.unread_browser_states()  # before the widget is drawn in this session
    st.slider("probe", 0, 10, key="probe_slider")
    st.markdown(f"history={internals.history_navigation()} unread={sorted(unread)}")


def test_a_session_that_drew_a_widget_reads_it_and_nothing_is_unread():
    app = AppTest.from_function(_probe).run()
    assert not app.exception
    assert app.markdown[0].value == "history=False unread=[]"


def test_the_widget_state_of_another_server_is_unread_by_its_key():
    # A second session gets the first one's widget states, as a reconnecting browser sends.
    first = AppTest.from_function(_probe).run()
    first.slider("probe_slider").set_value(7)
    second = AppTest.from_function(_probe)
    second = second._run(first._tree.get_widget_states())
    assert not second.exception
    assert second.markdown[0].value == "history=False unread=['probe_slider']"
    assert second.slider("probe_slider").value == 7
