"""A lesson run with a class, through the real pages: a teacher's session and students'
sessions over one store. Students see the screen's words (never the notes) and move with the
teacher; pacing holds them or frees them up to the teacher's screen; a pause covers their
pages; a number question is answered, shown to the class, and summed up in the CSV."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from page_helpers import HOME, ROOT, SINGLE_TREE, assert_healthy, block, open_page, raw_query_of
from streamlit.testing.v1 import AppTest

from core.classroom import Membership, StoreDown
from core.classroom.shipped import shipped_plans
from core.classroom.tally import summary_csv
from core.ui.classroom import classroom
from core.ui.classroom.lesson_teach import lesson_summary

TREE_LESSON = "how-a-tree-grows"
PLAN = shipped_plans()[TREE_LESSON]


def seat(app: AppTest) -> Membership:
    held = app.session_state["_arboretum"].seat
    assert isinstance(held, Membership)
    return held


def opened(path: Any) -> AppTest:
    app = open_page(HOME)
    app.switch_page(str(path.relative_to(ROOT))).run()
    return app


def teach_lesson() -> tuple[AppTest, str]:
    """A teacher who started a class on the tree page, then the shipped tree lesson."""
    teacher = opened(SINGLE_TREE)
    teacher.button(key="class-start").click().run()
    teacher.query_params["lesson"] = TREE_LESSON
    teacher.query_params["screen"] = "1"
    teacher.run()
    assert_healthy(teacher)
    return teacher, seat(teacher).code


def join(code: str) -> AppTest:
    student = opened(SINGLE_TREE)
    student.query_params["class"] = code
    student.run()
    student.run()
    assert_healthy(student)
    return student


def bar_text(app: AppTest) -> str:
    bar = block(app, "lesson-bar")
    return " ".join(m.value for m in bar.markdown) + " " + " ".join(c.value for c in bar.caption)


def click(app: AppTest, key: str) -> None:
    next(b for b in app.button if b.key == key).click().run()
    assert_healthy(app)


def page_text(app: AppTest) -> str:
    return " ".join(m.value for m in app.markdown)


def test_students_see_the_screens_words_not_the_notes_and_move_screen_by_screen() -> None:
    teacher, code = teach_lesson()
    student = join(code)
    assert "screen 1 of 5" in bar_text(student)
    assert "Depth 1 asks one question" in bar_text(student)
    assert PLAN.screens[0].notes[:20] not in page_text(student)
    assert student.select_slider(key="max_depth").value == 1
    assert not [b for b in student.button if b.key == "lesson-next"]  # held: no way on alone

    click(teacher, "lesson-next")
    student.run()
    assert_healthy(student)
    assert "screen 2 of 5" in bar_text(student) and "Depth 2: four leaves" in bar_text(student)
    assert student.select_slider(key="max_depth").value == 2
    assert raw_query_of(student)["screen"] == "2" and "lesson" not in raw_query_of(student)


def test_a_screen_move_is_announced_once_with_its_view_already_written() -> None:
    teacher, _ = teach_lesson()
    room = classroom()
    heard: list[tuple[int, str]] = []

    def read(moved: str) -> None:  # what a student's check reads when it hears the move
        state = room.state(moved)
        assert state.lesson is not None and state.shown is not None
        heard.append((state.lesson.at, dict(state.shown.query).get("max_depth", "")))

    stop = room.on_move(read)
    try:
        click(teacher, "lesson-next")
        click(teacher, "lesson-next")
    finally:
        stop()
    # Screens 2 and 3 (the sine at depth 2, then the step page): one announcement each, and
    # never the screen's number beside the last screen's view, which would run every
    # student's page for nothing.
    assert [at for at, _ in heard] == [1, 2]
    assert heard[0][1] == "2"


def test_a_screen_move_is_one_write_of_the_class_screen_and_view_together() -> None:
    # A student's check reads the class's version every quarter second, announced or not: a
    # screen written before its view made the whole class run the page for the screen
    # alone, and those runs held the teacher's own run back from writing the view.
    teacher, code = teach_lesson()
    room = classroom()
    for screen in (2, 3, 4):  # the sine at depth 2 on the same page, the step page, back
        before = room.version(code) or 0
        click(teacher, "lesson-next")
        state = room.state(code)
        assert state.lesson is not None and state.lesson.at == screen - 1
        drawn = teacher.session_state["_arboretum"].page
        assert state.shown is not None and state.shown.page == drawn
        assert room.version(code) == before + 1


def test_held_students_cannot_open_another_screen_and_a_forged_one_says_why() -> None:
    teacher, code = teach_lesson()
    click(teacher, "lesson-next")
    student = join(code)
    for forged in ("1", "5", "99999", "-3", "nan", "<script>"):
        student.query_params["screen"] = forged
        student.run()
        assert_healthy(student)
        assert "screen 2 of 5" in bar_text(student)
        said = " ".join(i.value for i in student.info)
        assert "holds the class on screen 2" in said or "There is no such screen" in said
        assert "<script>" not in said


def test_free_students_go_back_and_on_up_to_the_teachers_screen_and_are_counted() -> None:
    teacher, code = teach_lesson()
    click(teacher, "lesson-next")
    teacher.radio(key="lesson-pacing").set_value("free").run()
    assert_healthy(teacher)
    assert classroom().state(code).lesson.pacing == "free"  # type: ignore[union-attr]
    student = join(code)
    assert next(b for b in student.button if b.key == "lesson-next").disabled
    click(student, "lesson-previous")
    student.run()
    assert "screen 1 of 5" in bar_text(student) and "teacher is on screen 2" in bar_text(student)
    assert student.select_slider(key="max_depth").value == 1
    assert not seat(student).following
    student.query_params["screen"] = "4"  # past the teacher: forged
    student.run()
    assert "you can open screens 1 to 2" in " ".join(i.value for i in student.info)
    assert "screen 2 of 5" in bar_text(student) and seat(student).following

    click(student, "lesson-previous")
    teacher.run()
    board = " ".join(
        [*(m.value for m in teacher.sidebar.markdown), *(c.value for c in teacher.sidebar.caption)]
    )
    assert "| 1 | ▮ 1 |" in board and "| 2 (you) |  0 |" in board
    assert "**1** in the lesson · **0** follow you" in board


def test_pause_covers_the_students_page_and_keeps_its_settings_until_resume() -> None:
    teacher, code = teach_lesson()
    student = join(code)
    click(teacher, "lesson-pause")
    student.run()
    assert_healthy(student)
    assert "Eyes on the teacher" in page_text(student)
    assert student.select_slider(key="max_depth").value == 1
    assert "class is paused" in page_text(teacher)
    click(teacher, "lesson-resume")
    student.run()
    assert "Eyes on the teacher" not in page_text(student)
    assert student.select_slider(key="max_depth").value == 1


def test_a_number_question_is_answered_shown_to_the_class_and_summed_up() -> None:
    teacher, code = teach_lesson()
    for _ in range(3):
        click(teacher, "lesson-next")
    student = join(code)
    assert "What test score" in bar_text(student)
    click(teacher, "lesson-ask-3")
    student.run()
    key = next(t.key for t in student.text_input if t.key.startswith("class-number-"))
    for hostile in ("nan", "1e999", "lots", "-inf"):
        student.text_input(key=key).set_value(hostile).run()
        click(student, f"{key}-send")
        assert any("Type a number" in w.value for w in student.warning)
        assert not student.exception
    student.text_input(key=key).set_value("0.9").run()
    click(student, f"{key}-send")
    assert any("Sent" in s.value for s in student.success)

    teacher.run()
    assert "1 answer: middle 0.9, from 0.9 to 0.9" in page_text(teacher)
    click(teacher, "class-reveal")
    student.run()
    assert "1 answer: middle 0.9" in page_text(student)
    assert [c for c in student.get("plotly_chart") if "class-number-chart" in c.proto.id]

    teacher.run()
    button = next(
        b for b in teacher.get("download_button") if b.proto.id.endswith("lesson-summary")
    )
    assert not button.proto.disabled
    assert button.proto.url.endswith(".csv")
    rows = lesson_summary(code, classroom().asked(code))
    assert list(csv.DictReader(io.StringIO(summary_csv(rows)))) == [
        {
            "screen": "4",
            "question": PLAN.screens[3].question.prompt,  # type: ignore[union-attr]
            "kind": "number",
            "answered": "1",
            "answers": "middle 0.9, from 0.9 to 0.9",
        }
    ]


def test_a_lost_store_loses_the_live_answers_and_says_so_and_the_lesson_runs_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    teacher, _ = teach_lesson()
    store = classroom().store

    def down(*_: object, **__: object) -> None:
        raise StoreDown("the class store cannot be reached")

    for command in ("get", "put", "bump", "put_field", "fields", "count_fields"):
        monkeypatch.setattr(store, command, down)
    teacher.run()
    teacher.run()
    assert_healthy(teacher)
    said = " ".join(i.value for i in teacher.info)
    assert "live answers" in said and "runs on" in said
    click(teacher, "lesson-next")
    assert "screen 2 of 5" in bar_text(teacher)
    assert not [b for b in teacher.button if b.key == "lesson-pause"]


def test_a_held_student_who_explored_is_brought_to_the_next_screen_and_the_end_clears_it() -> None:
    teacher, code = teach_lesson()
    student = join(code)
    student.select_slider(key="max_depth").set_value(6).run()
    student.run()
    assert not seat(student).following
    assert "screen 1 of 5" in bar_text(student)  # exploring on the teacher's screen

    click(teacher, "lesson-next")
    student.run()
    assert_healthy(student)
    assert seat(student).following
    assert "screen 2 of 5" in bar_text(student)
    assert student.select_slider(key="max_depth").value == 2

    click(teacher, "lesson-end")
    student.run()
    assert_healthy(student)
    assert not [b for b in student.container if b.proto.id.endswith("lesson-bar")]
    assert "screen" not in raw_query_of(student)
