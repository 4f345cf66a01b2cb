"""The lesson being built survives a reload: the address keeps it, and a new session (a
reload, a bookmarked page) starts from it."""

from __future__ import annotations

from page_helpers import HOME, SINGLE_TREE, assert_healthy, open_page, raw_query_of

from core.classroom.plans import plan_from_token
from core.ui.classroom.lesson_build import PREPARE


def _button(app, key: str):  # type: ignore[no-untyped-def]
    if key == "lesson-add-view" and all(button.key != key for button in app.button):
        app.session_state[PREPARE] = True  # opened, as a visitor opens "Prepare a lesson"
        app.run()
    return next(button for button in app.button if button.key == key)


def _links(app) -> list[str]:  # type: ignore[no-untyped-def]
    return [row["link"] for row in app.session_state["lesson-draft"]["rows"]]


def test_a_new_session_finds_the_draft_its_address_keeps() -> None:
    app = open_page(SINGLE_TREE, dataset="wine", max_depth="2")
    assert "draft" not in raw_query_of(app)  # nothing built: nothing in the address
    _button(app, "lesson-add-view").click().run()
    app.select_slider(key="max_depth").set_value(5).run()
    _button(app, "lesson-add-view").click().run()
    token = raw_query_of(app)["draft"]
    plan, problems = plan_from_token(token)
    assert plan is not None and not problems and len(plan.screens) == 2

    # The tab reloads: a new session, on the same address.
    again = open_page(SINGLE_TREE, **raw_query_of(app))
    assert_healthy(again)
    assert _links(again) == [
        "Single_tree?dataset=wine&max_depth=2",
        "Single_tree?dataset=wine&max_depth=5",
    ]
    _button(again, "lesson-add-view").click().run()
    assert len(_links(again)) == 3

    # Home's editor, opened by a link that keeps the draft, shows it, title and all.
    home = open_page(HOME, draft=raw_query_of(again)["draft"])
    assert_healthy(home)
    assert len(_links(home)) == 3
    assert home.text_input(key="lesson-title").value == "My lesson"
    assert raw_query_of(home)["draft"] == raw_query_of(again)["draft"]


def test_start_over_takes_the_draft_out_of_the_address() -> None:
    app = open_page(SINGLE_TREE, dataset="wine", max_depth="2")
    _button(app, "lesson-add-view").click().run()
    home = open_page(HOME, draft=raw_query_of(app)["draft"])
    _button(home, "lesson-clear").click().run()
    assert_healthy(home)
    assert "draft" not in raw_query_of(home)
    assert _links(home) == []


def test_a_damaged_draft_in_the_address_starts_an_empty_lesson() -> None:
    app = open_page(SINGLE_TREE, dataset="wine", draft="not-a-lesson!!")
    assert_healthy(app)
    assert _links(app) == []
    assert "draft" not in raw_query_of(app)
