"""core/app/session.py: a session's own state and its transitions, without Streamlit."""

from __future__ import annotations

from core.app.own_data import OwnData
from core.app.session import Visit
from core.app.settings import RandomForestSettings, SingleTreeSettings

SINGLE, FOREST = "pages/1_Single_tree.py", "pages/2_Random_forest.py"
NONE: frozenset[str] = frozenset()


def visited(page: str = SINGLE, written: dict[str, str] | None = None) -> Visit:
    settings = SingleTreeSettings() if page == SINGLE else RandomForestSettings()
    return Visit().adopt(settings, []).run(page, NONE).finish(settings, written or {}, {})


def test_the_first_run_of_a_session_is_an_arrival():
    assert Visit().arrival(SINGLE, SingleTreeSettings, {}, False, NONE) == (True, NONE)


def test_a_rerun_of_the_same_page_is_not_an_arrival_whatever_the_url_says():
    # The URL of a rerun can be older than the last run's (issue 12): the widgets hold the truth.
    stale = {"dataset": "iris", "max_depth": "2"}
    assert visited().arrival(SINGLE, SingleTreeSettings, stale, False, NONE) == (False, NONE)


def test_another_page_is_an_arrival():
    arrived, _ = visited().arrival(FOREST, RandomForestSettings, {}, False, NONE)
    assert arrived


def test_back_or_forward_to_another_url_of_the_page_is_an_arrival():
    now = visited(written={"dataset": "iris"})
    back = {"dataset": "wine"}
    assert now.arrival(SINGLE, SingleTreeSettings, back, True, NONE) == (True, NONE)
    same = {"dataset": "iris"}
    assert now.arrival(SINGLE, SingleTreeSettings, same, True, NONE) == (False, NONE)


def test_a_reconnecting_browser_keeps_the_widgets_it_sent_for_this_page_only():
    query = {"dataset": "wine", "max_depth": "2"}
    unread = frozenset({"max_depth", "seed", "some_other_widget"})
    arrived, held = Visit().arrival(SINGLE, SingleTreeSettings, query, False, unread)
    assert (arrived, held) == (True, frozenset({"max_depth", "seed"}))


def test_a_page_opened_from_the_page_list_holds_no_widgets():
    # Its URL holds none of its settings: the widgets the browser sends are another page's.
    unread = frozenset({"max_depth"})
    assert Visit().arrival(SINGLE, SingleTreeSettings, {}, False, unread) == (True, NONE)


def test_finish_carries_every_setting_to_the_next_page_and_remembers_the_url():
    settings = SingleTreeSettings(max_depth=5)
    now = visited().finish(settings, {"dataset": "iris", "max_depth": "5"}, {"max_depth": "5"})
    later = now.finish(settings, {"dataset": "iris"}, {"seed": "3"})
    assert later.carried == {"max_depth": "5", "seed": "3"}
    assert later.written == {"dataset": "iris"}
    assert later.last == settings


def test_notices_follow_the_adopted_link_only():
    settings = SingleTreeSettings()
    assert Visit().noted(settings, ["ignored"]).notices == ()
    adopted = Visit().adopt(settings, ["first"])
    moved = settings.replace(sample=0)
    assert adopted.noted(moved, ["second"]).notices == ("first", "second")


def test_the_picker_remembers_the_last_dataset_of_each_kind():
    now = Visit().shown("table", "wine").shown("generated", "moons").shown("table", "iris")
    assert now.last_of_kind == {"table": "iris", "generated": "moons"}


def test_transitions_never_change_the_visit_they_start_from():
    start = Visit()
    start.adopt(SingleTreeSettings(), ["x"]).run(SINGLE, NONE).shown("table", "wine")
    assert start == Visit(own=start.own)
    assert isinstance(start.own, OwnData)
