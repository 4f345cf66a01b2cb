"""Running a lesson on the pages: a lesson's link opens its screen with the words above the
figures, the buttons move screen by screen, the address keeps the lesson, and a bad link says
so without breaking the page."""

from __future__ import annotations

from page_helpers import HOME, SINGLE_TREE, assert_healthy, block, open_page, raw_query_of

from core.classroom.shipped import shipped_plans
from core.ui.classroom.lesson_build import PREPARE

TREE_LESSON = "how-a-tree-grows"


def _button(app, key: str):  # type: ignore[no-untyped-def]
    if key == "lesson-add-view" and all(button.key != key for button in app.button):
        app.session_state[PREPARE] = True  # opened, as a visitor opens "Prepare a lesson"
        app.run()
    return next(button for button in app.button if button.key == key)


def test_a_lessons_link_opens_its_screen_with_the_words_above_the_figures() -> None:
    app = open_page(SINGLE_TREE, dataset="sine", max_depth="2", lesson=TREE_LESSON, screen="2")
    assert_healthy(app)
    bar = block(app, "lesson-bar")
    shown = " ".join(m.value for m in bar.markdown) + " ".join(c.value for c in bar.caption)
    assert "screen 2 of 5" in shown
    assert "Depth 2: four leaves" in shown
    # The question of screen 1 asked how many numbers depth 2 predicts; this screen shows it.
    question = shipped_plans()[TREE_LESSON].screens[0].question
    assert question is not None and question.answer is not None
    expected = question.options[int(question.answer) - 1]
    assert next(m.value for m in app.metric if m.label == "Leaves") == expected
    assert raw_query_of(app)["lesson"] == TREE_LESSON
    assert raw_query_of(app)["screen"] == "2"


def test_next_and_previous_open_each_screens_settings() -> None:
    app = open_page(SINGLE_TREE, dataset="sine", max_depth="1", lesson=TREE_LESSON, screen="1")
    assert _button(app, "lesson-previous").disabled
    _button(app, "lesson-next").click().run()
    assert_healthy(app)
    query = raw_query_of(app)
    assert (query["max_depth"], query["screen"]) == ("2", "2")
    _button(app, "lesson-previous").click().run()
    query = raw_query_of(app)
    assert (query.get("max_depth"), query["screen"]) == ("1", "1")


def test_a_moved_control_stays_on_its_screen_until_the_teacher_moves_on() -> None:
    app = open_page(SINGLE_TREE, dataset="sine", max_depth="2", lesson=TREE_LESSON, screen="2")
    app.select_slider(key="max_depth").set_value(6).run()
    query = raw_query_of(app)
    assert (query["max_depth"], query["screen"]) == ("6", "2")


def test_ending_the_lesson_takes_its_bar_and_its_link_away() -> None:
    app = open_page(SINGLE_TREE, dataset="sine", max_depth="2", lesson=TREE_LESSON, screen="2")
    _button(app, "lesson-end").click().run()
    assert_healthy(app)
    assert not [b for b in app.container if b.proto.id.endswith("lesson-bar")]
    assert "lesson" not in raw_query_of(app) and "screen" not in raw_query_of(app)
    assert raw_query_of(app)["max_depth"] == "2"


def test_a_damaged_lesson_link_says_so_and_the_page_works() -> None:
    for raw in ("eNrlm7tOAlEURfv5ipv5Au6L", "<script>alert(1)</script>", "x" * 3000):
        app = open_page(SINGLE_TREE, dataset="iris", lesson=raw, screen="999999")
        assert_healthy(app)
        warned = " ".join(w.value for w in app.warning)
        assert "could not be used" in warned and "damaged" in warned
        assert "<script>" not in warned
        assert "lesson" not in raw_query_of(app)


def test_an_out_of_range_screen_opens_the_nearest_one() -> None:
    app = open_page(SINGLE_TREE, dataset="sine", lesson=TREE_LESSON, screen="77")
    assert_healthy(app)
    assert raw_query_of(app)["screen"] == "5"


def test_home_lists_the_shipped_lessons() -> None:
    app = open_page(HOME)
    assert_healthy(app)
    keys = {button.key for button in app.button}
    assert {f"lesson-start-{name}" for name in shipped_plans()} <= keys


def test_add_this_view_puts_the_page_and_its_settings_in_the_lesson_being_built() -> None:
    app = open_page(SINGLE_TREE, dataset="wine", max_depth="2")
    _button(app, "lesson-add-view").click().run()
    app.select_slider(key="max_depth").set_value(5).run()
    _button(app, "lesson-add-view").click().run()
    assert_healthy(app)
    rows = app.session_state["lesson-draft"]["rows"]
    assert [(row["order"], row["link"]) for row in rows] == [
        (1, "Single_tree?dataset=wine&max_depth=2"),
        (2, "Single_tree?dataset=wine&max_depth=5"),
    ]


def test_edit_a_copy_puts_a_shipped_lesson_in_the_editor() -> None:
    app = open_page(HOME)
    _button(app, "lesson-start-why-a-forest-beats-a-tree-copy").click().run()
    assert_healthy(app)
    plan = shipped_plans()["why-a-forest-beats-a-tree"]
    rows = app.session_state["lesson-draft"]["rows"]
    assert [row["link"] for row in rows] == [screen.link for screen in plan.screens]
    assert app.text_input(key="lesson-title").value == plan.title
