"""A session's seat and following the teacher, as pure transitions: the follower opens the
teacher's view, a moved control stops following, a remembered seat comes back."""

from __future__ import annotations

from dataclasses import replace

import pytest

from core.classroom import (
    CHECK_IN_EVERY,
    Classroom,
    ClassState,
    Membership,
    NotTeacher,
    Shown,
    Teacher,
    recalled,
    remembered,
    seat_token,
)
from core.classroom.store import MemoryStore

TREE = Shown("pages/1_Single_tree.py", {"dataset": "iris", "max_depth": "3"})
DEEPER = Shown("pages/1_Single_tree.py", {"dataset": "iris", "max_depth": "4"})
STEP = Shown("pages/3_Grow_it_step_by_step.py", {"dataset": "iris", "step": "2"})


def test_a_follower_reads_the_state_only_when_the_version_moved() -> None:
    member = Membership("KX39PA", "seat")
    assert member.following and not member.teaching
    assert member.needs(None)  # the class is gone: the next read says so
    assert not member.needs(0)
    assert member.needs(3)
    read = member.opening(ClassState("KX39PA", 3, TREE, None), here=STEP)
    assert (read.seen, read.pending) == (3, TREE)
    assert not read.needs(3) and read.needs(4)
    # Already on the teacher's view: nothing to open.
    assert read.opening(ClassState("KX39PA", 4, TREE, None), here=TREE).pending is None
    assert read.opening(ClassState("KX39PA", 4, None, None), here=STEP).pending is None


def test_the_teachers_view_opens_on_its_own_page() -> None:
    member = Membership("KX39PA", "seat", landed={"old": "1"})
    member = member.opening(ClassState("KX39PA", 2, TREE, None), here=STEP)
    assert member.opened(STEP.page) is None
    assert member.opened(TREE.page) == TREE


def test_a_run_stopped_before_it_wrote_the_teachers_view_leaves_it_for_the_next() -> None:
    """Under load the browser asks again, and the newer run stops the one that was opening
    the teacher's view: the newer run must open it too, or it keeps the browser's settings."""
    member = Membership("KX39PA", "seat").opening(ClassState("KX39PA", 2, TREE, None), here=STEP)
    assert member.opened(TREE.page) == TREE  # the first run reads it, then is stopped
    assert member.opened(TREE.page) == TREE  # the next run opens it again
    left, landed = member.wrote(TREE.page, TREE.query)  # a run of the page wrote its settings
    assert not left and landed.pending is None and landed.landed == TREE.query
    assert landed.opened(TREE.page) is None


def test_a_run_the_check_asked_for_opens_the_teachers_view_even_if_written_already() -> None:
    """The browser asked again before it showed the view an earlier run wrote: this run
    carries the old widget values, so it must open the teacher's view once more."""
    member = Membership("KX39PA", "seat", seen=2, landed=dict(TREE.query))
    state = ClassState("KX39PA", 2, TREE, None)
    assert not member.needs(2) and member.opening(state, here=TREE).pending is None
    asked = member.rechecked()
    assert asked.needs(2)
    opened = asked.opening(state, here=TREE)
    assert opened.pending == TREE and not opened.recheck
    alone = replace(asked, following=False).opening(state, here=STEP)
    assert alone.pending is None and not alone.recheck  # exploring alone: nothing opens


def test_a_follower_who_moves_a_control_stops_following() -> None:
    member = Membership("KX39PA", "seat").opening(ClassState("KX39PA", 2, TREE, None), here=STEP)
    assert member.opened(TREE.page) == TREE
    left, member = member.wrote(TREE.page, TREE.query)  # the run that opened the view lands
    assert not left and member.landed == TREE.query
    left, again = member.wrote(TREE.page, dict(TREE.query))  # a rerun with the same settings
    assert not left and again == member
    left, member = member.wrote(TREE.page, DEEPER.query)  # the student moved max_depth
    assert left and not member.following and member.landed is None
    assert member.needs(7)  # explores alone, but still reads a change (a poll may open)...
    assert member.opening(ClassState("KX39PA", 7, TREE, None), here=STEP).pending is None
    assert member.needs(None)  # ...and hears that the class ended
    left, alone = member.wrote(TREE.page, TREE.query)
    assert not left and alone == member


def test_following_again_jumps_back_to_the_teacher() -> None:
    member = Membership("KX39PA", "seat", following=False, seen=5, landed={"a": "1"})
    back = member.follow(True)
    assert back.following and back.seen == 0 and back.landed is None
    assert back.needs(5)  # reads the class at once, even though nothing moved
    away = back.follow(False)
    assert not away.following and away.pending is None


def test_a_student_who_stops_following_is_not_moved_by_a_view_read_before() -> None:
    member = Membership("KX39PA", "seat").opening(ClassState("KX39PA", 2, TREE, None), here=STEP)
    alone = member.follow(False)
    assert alone.opened(TREE.page) is None


def test_the_teacher_never_stops_following_itself() -> None:
    teacher = Membership("KX39PA", "seat", secret="s3cret")
    assert teacher.teaching and teacher.teacher == Teacher("KX39PA", "s3cret")
    for query in (TREE.query, DEEPER.query, STEP.query):
        left, teacher = teacher.wrote(TREE.page, query)
        assert not left
    assert teacher.following and teacher.landed is None
    with pytest.raises(NotTeacher):
        _ = Membership("KX39PA", "seat").teacher
    assert teacher.published(TREE).shown == TREE
    assert teacher.checked(12.0).checked_in == 12.0


def test_seat_tokens_are_fresh_and_unguessable() -> None:
    seats = {seat_token() for _ in range(100)}
    assert len(seats) == 100 and all(len(seat) >= 16 for seat in seats)


def test_a_remembered_seat_is_recalled_and_garbage_is_not() -> None:
    room = Classroom(MemoryStore())
    teacher = room.start()
    mine = Membership(teacher.code, seat_token(), secret=teacher.secret)
    back = recalled(remembered(mine))
    assert back is not None and back.teaching and back.secret == teacher.secret
    assert room.owns(back.teacher)
    assert not room.owns(Teacher(teacher.code, "a-guessed-secret"))
    student = Membership(teacher.code, seat_token())
    again = recalled(remembered(student))
    assert again == Membership(teacher.code, student.seat)  # following, from the start
    alone = recalled(remembered(student.follow(False)))
    assert alone == Membership(teacher.code, student.seat, following=False)  # as it was left
    for garbage in (
        "",
        "x",
        "t.KX39PA",
        "t.kx39pa.abcdefghij",
        "s.KX39PA.short",
        "q.KX39PA.abcdefghij",
        "s.KX39PA.abc def ghij",
        "s.KX39PA." + "a" * 65,
        "t.KX39PA.<script>alert(1)",
    ):
        assert recalled(garbage) is None, garbage
    room.end(teacher)
    assert not room.owns(back.teacher)


def test_a_page_run_that_never_finished_is_overdue_after_a_while() -> None:
    seat = Membership("KX39PA", "seat").opening(ClassState("KX39PA", 4, TREE, None), here=STEP)
    began = replace(seat, asked=100.0)
    assert not began.overdue(101.0, after=3.0)  # its run may still be going
    assert began.overdue(104.0, after=3.0)  # it was lost: ask again
    assert not replace(began, drawn=4).overdue(200.0, after=3.0)  # it finished


def test_a_run_asked_and_drawn_through_the_seats_own_steps() -> None:
    seat = Membership("KX39PA", "seat").opening(ClassState("KX39PA", 4, TREE, None), here=STEP)
    began = seat.asking(100.0)
    assert began == replace(seat, asked=100.0)
    assert began.overdue(104.0, after=3.0)
    assert not began.drew().overdue(200.0, after=3.0)  # it finished: version 4 drawn
    assert began.drew().drawn == 4


def test_a_seat_checks_in_again_only_after_its_period() -> None:
    seat = Membership("KX39PA", "seat").checked(1000.0)
    assert not seat.check_in_due(1000.0 + CHECK_IN_EVERY)  # within the period: no write
    assert seat.check_in_due(1000.0 + CHECK_IN_EVERY + 0.5)
    assert Membership("KX39PA", "seat").check_in_due(CHECK_IN_EVERY + 1.0)  # never checked in


def test_a_run_asked_for_again_waits_twice_as_long_each_time_up_to_the_most() -> None:
    seat = Membership("KX39PA", "seat").opening(ClassState("KX39PA", 4, TREE, None), here=STEP)
    first = seat.asking(100.0)
    assert first.overdue(103.5, after=3.0, most=10.0)  # 3 s after the first ask
    second = first.asking_again(103.5)
    assert not second.overdue(109.0, after=3.0, most=10.0)  # now 6 s: still waiting
    assert second.overdue(109.6, after=3.0, most=10.0)
    third = second.asking_again(109.6)
    assert not third.overdue(119.5, after=3.0, most=10.0)
    assert third.overdue(119.7, after=3.0, most=10.0)  # 12 s, held to at most 10 s
    fresh = third.opening(ClassState("KX39PA", 5, STEP, None), here=STEP).asking(130.0)
    assert fresh.asks == 0 and fresh.overdue(133.1, after=3.0, most=10.0)  # a new move: 3 s
