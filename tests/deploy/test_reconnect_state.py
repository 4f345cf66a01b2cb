"""A browser that reconnects to a server which never saw it keeps what the student just chose.

The fault test (``test_failover.py``) shows it with Chromium and HAProxy; these tests make the
same first run in a fresh session with Streamlit's AppTest, in seconds: one AppTest plays the
dead replica (it draws the page and the student moves a widget), a second one plays the live
replica, which runs the page for the first time with the first one's widget states and URL,
just as the browser's first rerun after the move arrives.
"""

from __future__ import annotations

from typing import Any

from streamlit.testing.v1 import AppTest

from tests.pages.page_helpers import SINGLE_TREE, open_page, query_of

LINK = {"dataset": "wine", "max_depth": "2", "criterion": "entropy", "x": "0", "y": "3"}


def first_run_elsewhere(dead: AppTest, url: dict[str, str]) -> AppTest:
    """Run the page in a fresh session with ``dead``'s widget states and this URL.

    ``AppTest._run(widget_state)`` is how AppTest itself sends widget states with a run; the
    public ``run()`` always sends the new AppTest's own (none, in a fresh one).
    """
    live = AppTest.from_file(str(SINGLE_TREE), default_timeout=120)
    for name, value in url.items():
        live.query_params[name] = value
    return live._run(dead._tree.get_widget_states())


def slider(app: AppTest, key: str) -> Any:
    return app.select_slider(key).value


def test_the_students_move_survives_the_fresh_session() -> None:
    dead = open_page(SINGLE_TREE, **LINK)
    assert slider(dead, "max_depth") == 2
    dead.select_slider("max_depth").set_value(3)  # moved; the URL still says 2
    live = first_run_elsewhere(dead, LINK)
    assert not live.exception
    assert slider(live, "max_depth") == 3
    assert query_of(live)["max_depth"] == "3"
    # Every other setting is the view the student had, widget and URL alike.
    assert live.selectbox("dataset").value == "wine"
    assert query_of(live)["dataset"] == "wine"
    assert query_of(live)["criterion"] == "entropy"
    assert (live.selectbox("x").value, live.selectbox("y").value) == (0, 3)
    assert query_of(live)["y"] == "3"


def test_a_moved_selectbox_survives_too() -> None:
    dead = open_page(SINGLE_TREE, **LINK)
    dead.selectbox("y").set_value(5)
    live = first_run_elsewhere(dead, LINK)
    assert (live.selectbox("x").value, live.selectbox("y").value) == (0, 5)
    assert query_of(live)["y"] == "5"
    assert slider(live, "max_depth") == 2


def test_a_link_opened_in_a_fresh_session_is_still_an_arrival() -> None:
    # No widget states: a link opened, a reload. The URL wins over the defaults.
    live = open_page(SINGLE_TREE, dataset="wine", max_depth="4")
    assert slider(live, "max_depth") == 4
    assert live.selectbox("dataset").value == "wine"


def test_a_fresh_session_without_the_pages_settings_in_the_url_is_an_arrival() -> None:
    # A page opened from the page list carries no settings in its URL: the widgets the
    # browser sends then belong to the page it left, not to a view to keep.
    dead = open_page(SINGLE_TREE, **LINK)
    dead.select_slider("max_depth").set_value(5)
    live = first_run_elsewhere(dead, {})
    assert slider(live, "max_depth") == 3  # the page's default
    assert query_of(live)["max_depth"] == "3"
    assert live.selectbox("dataset").value == "iris"


def url_of(app: AppTest) -> dict[str, str]:
    """The settings the last run wrote in the URL."""
    return {name: str(app.query_params[name]) for name in app.query_params}


def test_a_label_the_move_made_stale_gives_way_to_the_url() -> None:
    # The sample picker's labels name rows of the test set, which the seed draws: after a new
    # seed, the label the browser sends names a sample of the old test set. The same server
    # would keep the sample's number; so does the live one (it takes it from the URL).
    # (Sample 2's label differs between the two seeds: "#2 (row 8, ...)", "#2 (row 10, ...)".)
    dead = open_page(SINGLE_TREE, **LINK)
    dead.selectbox("sample").set_value(2).run()
    assert query_of(dead)["sample"] == "2"
    url = url_of(dead)
    dead.number_input("seed").set_value(7)  # the move the dead replica never ran
    live = first_run_elsewhere(dead, url)
    assert not live.exception
    assert live.number_input("seed").value == 7
    assert query_of(live)["seed"] == "7"
    assert live.selectbox("sample").value == 2
    assert query_of(live)["sample"] == "2"


def test_a_move_to_another_dataset_moves_every_setting_with_it() -> None:
    # The picker's callback, which moves the other settings to the new dataset's (its pair,
    # its sample...), cannot run in a session that never drew the picker; arrive does what
    # it does, as the same server would have.
    dead = open_page(SINGLE_TREE, **LINK)
    dead.selectbox("sample").set_value(2).run()
    url = url_of(dead)
    dead.selectbox("dataset").set_value("breast_cancer")
    live = first_run_elsewhere(dead, url)
    same_server = open_page(SINGLE_TREE, **url)
    same_server.selectbox("dataset").set_value("breast_cancer").run()
    assert query_of(same_server)["sample"] == "0"  # the new dataset's first sample
    assert not live.exception
    assert query_of(live)["dataset"] == "breast_cancer"
    assert url_of(live) == url_of(same_server)
    assert (live.selectbox("x").value, live.selectbox("y").value) == (
        same_server.selectbox("x").value,
        same_server.selectbox("y").value,
    )
