"""The class bench's lesson run (classroom_load/classroom_lesson.py): its parts that need no
server, and the whole run, small (two students, one server), so the mode cannot silently break:
every screen change reaches every student, and every answer sent is counted on the teacher's
page, live and on its dashboard."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from streamlit.proto.Element_pb2 import Element

from classroom_load import classroom
from classroom_load.class_members import Member, Seen, lesson_screen
from classroom_load.classroom_lesson import (
    LESSON_HEADER,
    answered_on_dashboard,
    live_number_count,
    lost_answers,
    number_for,
    on_screen,
    settings_of,
)
from classroom_load.st_client import StudentSession
from classroom_load.st_reader import Run
from core.classroom.shipped import shipped_plans
from tests.live_app import free_port


def markdown(body: str) -> Element:
    element = Element()
    element.markdown.body = body
    return element


def page(*texts: str) -> Run:
    return Run("p1", tuple(markdown(t) for t in texts), 0.1, 0)


def test_a_page_names_its_lesson_screen_in_its_bar_and_the_teacher_is_not_mine() -> None:
    teacher = ":material/slideshow: **How a tree grows** · screen 2 of 5"
    assert lesson_screen(page("x", teacher)) == 2
    student_behind = ":material/slideshow: **T** · screen 1 of 5 · the teacher is on screen 3"
    assert lesson_screen(page(student_behind)) == 1
    assert lesson_screen(page("Depth 2 · screen 2 of 5 without the title")) is None


def test_a_student_is_on_the_screen_with_the_teachers_settings_whatever_the_lesson_names() -> None:
    assert settings_of("dataset=sine&max_depth=2&lesson=how-a-tree-grows&screen=2") == {
        "dataset": "sine",
        "max_depth": "2",
    }
    member = Member(0, StudentSession("http://127.0.0.1:1"))
    member.seen = [
        Seen(9.0, True, "p1", "dataset=sine&max_depth=2&screen=2", screen=2),  # before
        Seen(10.5, True, "p1", "dataset=sine&max_depth=1&screen=2", screen=2),  # old settings
        Seen(10.7, False, "p1", "dataset=sine&max_depth=2&screen=2"),  # a fragment
        Seen(11.0, True, "p1", "dataset=sine&max_depth=2&screen=2", screen=2),
    ]
    teacher = "max_depth=2&dataset=sine&lesson=how-a-tree-grows&screen=2"
    assert on_screen(member, 10.0, "p1", teacher, 2) == 1.0
    assert on_screen(member, 10.0, "p1", teacher, 3) is None
    assert on_screen(member, 10.0, "p2", teacher, 2) is None


def test_the_teachers_dashboard_and_live_box_are_read_as_counts() -> None:
    run = page(
        "**1.** With depth 2, how many?  \n3 answered · 2\\: 1; 3\\: 2",
        "**4.** What test score?  \n12 answered · middle 0\\.7, from 0\\.5 to 0\\.95",
        "**12 answers: middle 0.7, from 0.5 to 0.95**",
    )
    assert answered_on_dashboard(run, 1) == 3
    assert answered_on_dashboard(run, 4) == 12
    assert answered_on_dashboard(run, 2) is None
    assert live_number_count(run) == 12
    assert live_number_count(page("**1 answer: middle 0.5, from 0.5 to 0.5**")) == 1
    assert live_number_count(page("No answers yet.")) is None


def test_students_numbers_repeat_every_ten_so_the_middle_answer_is_known() -> None:
    assert [number_for(i) for i in (0, 1, 9, 10)] == [0.5, 0.55, 0.95, 0.5]


def test_an_answer_counted_nowhere_of_the_three_places_is_lost() -> None:
    questions: list[dict[str, Any]] = [
        {"live": [2, 1, 0], "dashboard": 3, "sent": 3},
        {"live": 5, "dashboard": 5, "sent": 5, "store": 4},
        {"live": None, "dashboard": None, "sent": 2},
    ]
    assert lost_answers(questions) == (3 + 4 + 0, 10)


@pytest.fixture
def out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The run's files in a temporary folder, and a quick yardstick (not measured here)."""
    monkeypatch.setattr(classroom, "OUT", tmp_path)
    monkeypatch.setattr(classroom, "loop_seconds", lambda: 0.5)
    return tmp_path


def test_a_small_class_runs_a_lesson_and_every_answer_is_counted(out: Path) -> None:
    lesson = "how-a-tree-grows"
    argv = ["--class-mode", "--lesson", lesson, "--students", "2", "--ramp", "1"]
    argv += ["--class-every", "0", "--settle", "0", "--cold", "--port", str(free_port())]
    classroom.main([*argv, "--label", "lesson-test"])
    row = json.loads((out / "lesson-test.json").read_text())["lesson"]
    screens = shipped_plans()[lesson].screens
    assert row["errors"] == []
    assert row["join"]["following"] == 2
    assert [c["screen"] for c in row["changes"]] == [f"{n} of 5" for n in range(2, 6)]
    assert all(len(c["latency_s"]) == 2 and c["missed"] == 0 for c in row["changes"])
    asked = [n + 1 for n, screen in enumerate(screens) if screen.question is not None]
    assert [q["screen"] for q in row["questions"]] == asked
    choice, number = row["questions"]
    assert choice["sent"] == 2 and choice["live"] == choice["expected"] == [1, 1, 0, 0]
    assert number["sent"] == 2 and number["live"] == 2 and number["median"] == 0.525
    assert all(q["dashboard"] == 2 and q["exact"] for q in row["questions"])
    assert lost_answers(row["questions"]) == (4, 4)
    table = (out / "lesson-test.md").read_text()
    assert LESSON_HEADER in table
    assert f"| {lesson} | 2 | 1 (memory) |" in table
    assert "| 4 / 4 exact | 0 |" in table
