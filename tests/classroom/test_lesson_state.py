"""A lesson run with a class, in the pure parts: pacing and forged screens, students' places,
number answers (hostile ones too), the store's lesson fields, and the summary's CSV."""

from __future__ import annotations

import csv
import io
import math
from dataclasses import replace

import numpy as np
import pytest

from core.classroom import (
    MOST_NUMBER,
    Classroom,
    NumberAnswer,
    Poll,
    Shown,
    choice_poll,
    number_answer,
    number_poll,
    read_answer,
)
from core.classroom.lesson_state import ClassLesson, Place, allowed_screen, progress, reachable
from core.classroom.plans import class_copy, read_plan, write_plan
from core.classroom.shipped import shipped_plans
from core.classroom.store import MemoryStore
from core.classroom.tally import number_summary, summary_csv, summary_rows

TREE = Shown("pages/1_Single_tree.py", {"dataset": "sine", "max_depth": "1"})


def lesson(at: int, pacing: str = "held", count: int = 5) -> ClassLesson:
    return ClassLesson("format = 1", count, at, pacing, False)  # type: ignore[arg-type]


# --- pacing ------------------------------------------------------------------------------------


def test_held_students_reach_only_the_teachers_screen_and_free_ones_every_one_up_to_it() -> None:
    assert list(reachable(lesson(2, "held"))) == [2]
    assert list(reachable(lesson(2, "free"))) == [0, 1, 2]


@pytest.mark.parametrize(
    ("wanted", "pacing", "screen", "said"),
    [
        ("2", "free", 1, None),
        ("3", "free", 2, None),
        ("4", "free", 2, "you can open screens 1 to 3"),
        ("99999", "free", 2, "There is no such screen"),
        ("0", "free", 2, "you can open screens 1 to 3"),
        ("-1", "free", 2, "There is no such screen"),
        ("1e9", "free", 2, "There is no such screen"),
        ("nan", "free", 2, "There is no such screen"),
        ("<b>x</b>" * 40, "free", 2, "There is no such screen"),
        ("1", "held", 2, "holds the class on screen 3"),
        ("3", "held", 2, None),
    ],
)
def test_a_forged_screen_opens_the_nearest_allowed_one_with_a_reason(
    wanted: str, pacing: str, screen: int, said: str | None
) -> None:
    at, why = allowed_screen(wanted, lesson(2, pacing))
    assert at == screen
    if said is None:
        assert why is None
    else:
        assert why is not None and said in why and len(why) < 120


def test_the_class_lesson_reads_back_and_refuses_what_it_did_not_write() -> None:
    held = ClassLesson("plan", 4, 3, "free", True)
    assert ClassLesson.from_dict(held.as_dict()) == held
    for broken in (
        None,
        [],
        {"plan": 1},
        {**held.as_dict(), "at": 4},
        {**held.as_dict(), "at": -1},
        {**held.as_dict(), "pacing": "loose"},
        {**held.as_dict(), "count": 0},
        {**held.as_dict(), "count": "4"},
    ):
        assert ClassLesson.from_dict(broken) is None


def test_places_count_the_present_seats_per_screen_and_those_following() -> None:
    places = {"a": "0f", "b": "2f", "c": "2e", "gone": "1f", "d": "junk", "e": "99f", "f": "1x"}
    counted = progress(places, ["a", "b", "c", "d", "e", "f", "new"], count=3)
    assert counted.per_screen == (1, 0, 2)
    assert (counted.students, counted.following) == (3, 2)
    assert Place.read(Place(7, False).text()) == Place(7, False)


# --- number answers ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "value"),
    [("0.85", 0.85), (" 85 % ", 85.0), ("0,9", 0.9), ("1e3", 1000.0), ("-2", -2.0)],
)
def test_a_typed_number_is_read_as_people_write_it(typed: str, value: float) -> None:
    assert number_answer(typed) == NumberAnswer(value)


@pytest.mark.parametrize(
    "typed", ["", "abc", "nan", "NaN", "inf", "-infinity", "1e999", "2e9", "9" * 400, "1,000,000"]
)
def test_a_hostile_number_gets_a_friendly_message(typed: str) -> None:
    with pytest.raises(ValueError, match="Type a number"):
        number_answer(typed)


def test_the_store_keeps_no_number_that_is_not_finite_or_is_huge() -> None:
    poll = number_poll("What accuracy at depth 8?", screen=4)
    assert read_answer('{"value": 0.8}', poll) == NumberAnswer(0.8)
    for text in (
        '{"value": NaN}',
        '{"value": Infinity}',
        f'{{"value": {MOST_NUMBER * 10}}}',
        '{"value": "x"}',
        '{"option": 1}',
        "[]",
    ):
        assert read_answer(text, poll) is None
    assert Poll.from_dict(poll.as_dict()) == poll


def test_a_number_summary_gives_the_spread_and_a_histogram_of_every_answer() -> None:
    summary = number_summary([0.6, 0.8, 0.8, 0.9, 1.0])
    assert (summary.n, summary.low, summary.median, summary.high) == (5, 0.6, 0.8, 1.0)
    assert int(summary.counts.sum()) == 5 and summary.edges[0] == 0.6 and summary.edges[-1] == 1.0
    assert list(summary.counts) == [1, 0, 0, 0, 0, 2, 0, 1, 0, 1]  # bars 0.04 wide from 0.6
    assert summary.text() == "5 answers: middle 0.8, from 0.6 to 1"
    one = number_summary([3.0, 3.0, math.nan])
    assert one.n == 2 and list(one.counts) == [2] and np.allclose(one.edges, [2.5, 3.5])
    assert number_summary([]).text() == "No answers yet."


# --- the store ---------------------------------------------------------------------------------


def test_the_lesson_pacing_and_pause_live_in_the_class_record_for_every_replica() -> None:
    store = MemoryStore()
    teacher = Classroom(store).start(TREE)
    other_replica = Classroom(store)
    before = other_replica.version(teacher.code)
    Classroom(store).run_lesson(teacher, lesson(1, "free"))
    state = other_replica.state(teacher.code)
    assert state.lesson == lesson(1, "free") and state.version == (before or 0) + 1
    Classroom(store).run_lesson(teacher, lesson(1, "free"))  # unchanged: no write
    assert other_replica.version(teacher.code) == state.version
    Classroom(store).run_lesson(teacher, None)
    assert other_replica.state(teacher.code).lesson is None


def test_polls_asked_are_kept_for_the_summary_and_everything_goes_with_the_class() -> None:
    store = MemoryStore()
    room = Classroom(store)
    teacher = room.start(TREE)
    seat = room.new_seat(teacher.code)
    first = room.ask(teacher, number_poll("Accuracy at depth 8?", screen=4))
    room.answer(teacher.code, first, seat, NumberAnswer(0.75))
    second = room.ask(teacher, choice_poll(0, "Overfit?", ["yes", "no"]))
    assert [(p.number, p.kind, p.screen) for p in room.asked(teacher.code)] == [
        (first.number, "number", 4),
        (second.number, "choice", None),
    ]
    room.place(teacher.code, seat, Place(3, True))
    assert room.places(teacher.code) == {seat: "3f"}
    room.end(teacher)
    assert room.asked(teacher.code) == [] and room.places(teacher.code) == {}


def test_the_summary_has_one_row_per_lesson_question_and_no_formula_cells() -> None:
    number = Poll(1, "number", "=HYPERLINK(1)", screen=4)
    choice = Poll(2, "choice", "Overfit?", ("yes", "no"), screen=5)
    loose = Poll(3, "choice", "Not from the lesson", ("a", "b"))
    from core.classroom import ChoiceAnswer

    rows = summary_rows(
        [number, choice, loose],
        {1: [NumberAnswer(0.7), NumberAnswer(0.9)], 2: [ChoiceAnswer(1)]},
    )
    assert [(r["screen"], r["answered"]) for r in rows] == [(4, 2), (5, 1)]
    assert rows[1]["answers"] == "yes: 0; no: 1"
    read = list(csv.DictReader(io.StringIO(summary_csv(rows))))
    assert read[0]["question"] == "'=HYPERLINK(1)"
    assert read[0]["answers"] == "middle 0.8, from 0.7 to 0.9"


def test_the_downloaded_summary_is_exactly_these_bytes() -> None:
    """The CSV a teacher downloads, byte for byte: the header, one row per lesson question in
    the order asked, the counts, a cell with a comma or a quote quoted (its quotes doubled), a
    formula-like cell defused, an unanswered question's empty cell, UTF-8 without a byte order
    mark (what the download button sends for text), and one newline per row."""
    from core.classroom import ChoiceAnswer

    choice = Poll(1, "choice", 'Split "left", or right?', ("yes, mostly", 'no "never"', "R² ≥ 0.9"))
    polls = [
        replace(choice, screen=1),
        Poll(2, "choice", "Asked from the sidebar", ("a", "b")),
        Poll(3, "number", "Test score at depth 8?", screen=4),
        Poll(4, "number", "-1 or more?", screen=5),
    ]
    answers = {
        1: [ChoiceAnswer(0), ChoiceAnswer(2), ChoiceAnswer(0)],
        2: [ChoiceAnswer(1)],
        3: [NumberAnswer(0.95), NumberAnswer(0.6), NumberAnswer(0.8)],
    }
    expected = (
        b"screen,question,kind,answered,answers\n"
        b'1,"Split ""left"", or right?",choice,3,'
        b'"yes, mostly: 2; no ""never"": 0; R\xc2\xb2 \xe2\x89\xa5 0.9: 1"\n'
        b'4,Test score at depth 8?,number,3,"middle 0.8, from 0.6 to 0.95"\n'
        b"5,'-1 or more?,number,0,\n"
    )
    assert summary_csv(summary_rows(polls, answers)).encode("utf-8") == expected


def test_the_class_copy_of_a_lesson_keeps_no_private_notes() -> None:
    plan = shipped_plans()["how-a-tree-grows"]
    assert any(screen.notes for screen in plan.screens)
    text = write_plan(class_copy(plan))
    assert "notes" not in text
    copy, problems = read_plan(text)
    assert copy is not None and not problems
    assert [s.words for s in copy.screens] == [s.words for s in plan.screens]


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.live)])
def two_replicas(request: pytest.FixtureRequest) -> tuple[Classroom, Classroom]:
    """Two servers' classes over one store: one process's memory, or one Redis for two
    clients, as two replicas hold it."""
    if request.param == "memory":
        shared = MemoryStore()
        return Classroom(shared), Classroom(shared)
    from core.classroom.store import RedisStore

    url: str = request.getfixturevalue("redis_url")
    return Classroom(RedisStore(url)), Classroom(RedisStore(url))


def test_a_replica_reads_the_pacing_pause_places_and_answers_another_wrote(
    two_replicas: tuple[Classroom, Classroom],
) -> None:
    teachers, students = two_replicas
    teacher = teachers.start(TREE)
    teachers.run_lesson(teacher, ClassLesson("format = 1", 5, 3, "free", True))
    assert students.state(teacher.code).lesson == ClassLesson("format = 1", 5, 3, "free", True)
    seat = students.new_seat(teacher.code)
    students.check_in(teacher.code, seat)
    students.place(teacher.code, seat, Place(1, False))
    poll = teachers.ask(teacher, number_poll("Accuracy at depth 8?", screen=4))
    students.answer(teacher.code, poll, seat, number_answer("0.8"))
    counted = progress(teachers.places(teacher.code), teachers.present(teacher.code), count=5)
    assert counted.per_screen == (0, 1, 0, 0, 0) and counted.following == 0
    assert list(teachers.answers(teacher.code, poll).values()) == [NumberAnswer(0.8)]
    teachers.end(teacher)
    assert students.places(teacher.code) == {} and students.asked(teacher.code) == []
