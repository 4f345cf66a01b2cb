"""The class wing's hold on a session: the server's classes, this session's seat, and every
call to the store, which may fail.

The store cannot be reached, or the class has ended: :func:`reach` makes the session leave
its class with a notice that says why, and every page goes on working alone. A seat left
because the store stopped answering is kept aside, and :func:`come_back` takes it back once
the store answers again: the notice goes, the student is still seated, the teacher still
teaches.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

import streamlit as st

from core.classroom import Classroom, Membership, NoClass, NotTeacher, StoreDown, open_store
from core.classroom.lesson_state import ClassLesson
from core.ui.visit import change, visit

#: Seconds between the teacher's updates of the class size and a poll's answers.
TEACHER_SECONDS = 2.0
#: Seconds between a cut-off session's tries to reach the store again.
RETRY_STORE_SECONDS = 3.0
#: What a session cut off from the store says while it waits.
STORE_DOWN = (
    "The class cannot be reached just now (its shared store is down), so class mode is off. "
    "Every page works on its own, and this page takes its seat back by itself when the store "
    "answers again."
)

_T = TypeVar("_T")

#: What a teacher's class was last told of its lesson (the lesson wing's own marker).
_TOLD = "lesson-class-sent"
#: A lesson's screen a teacher's run moved to, with its marker, until the run writes the view.
_HELD_SCREEN = "lesson-class-pending"


@st.cache_resource(show_spinner=False)
def classroom() -> Classroom:
    """The server's classes: in its memory, or in Redis when ``ARBORETUM_REDIS_URL`` is set."""
    return Classroom(open_store())


def current_seat() -> Membership | None:
    """This session's seat in a class (teacher or student), or None."""
    held = visit().seat
    return held if isinstance(held, Membership) else None


def reach(call: Callable[[], _T]) -> _T | None:
    """``call()``, or None when the class is gone or the store cannot be reached: the session
    then leaves its class, with a notice that says why."""
    try:
        return call()
    except StoreDown:
        store_down()
    except NoClass:
        change(
            seat=None,
            class_problem="The class has ended. Thank you for taking part!",
            class_cookie="",
        )
    except NotTeacher:
        change(
            seat=None, class_problem="This session no longer controls the class.", class_cookie=""
        )
    return None


def store_down() -> None:
    """The store stopped answering: the session leaves its class for now, its seat aside."""
    away = current_seat() or visit().class_away
    change(seat=None, class_away=away, class_problem=STORE_DOWN)


def come_back() -> bool:
    """Take back the seat the store's outage set aside, if the store answers again; whether
    the session is in its class again.

    The store answers and the class is gone (a store restarted without persistence, or the
    class ended meanwhile): the session says so and forgets the seat.
    """
    away = visit().class_away
    if not isinstance(away, Membership) or current_seat() is not None:
        return False
    room = classroom()
    try:
        if away.teaching:
            kept = room.owns(away.teacher)
        else:
            kept = room.exists(away.code) and room.seated(away.code, away.seat)
    except StoreDown:
        return False
    if kept:
        change(seat=away, class_away=None, class_problem=None)
        return True
    change(
        class_away=None,
        class_problem="The store is back, but the class did not survive its outage: start or "
        "join a class again.",
        class_cookie="",
    )
    return False


def reached(call: Callable[[], object]) -> bool:
    """Whether ``call()`` ran (see :func:`reach`)."""
    return reach(lambda: (call(), True)[1]) is not None


def hold_screen(lesson: ClassLesson, sent: Hashable) -> None:
    """Keep the lesson's screen this teacher's run moved to for the write of the page's view
    (``follow.class_wrote``): written apart, every student's check read the screen beside
    the last screen's view, and the class's runs for it held the teacher's run back from
    writing the view for seconds. ``sent`` marks it told once written (:func:`told`)."""
    st.session_state[_HELD_SCREEN] = (lesson, sent)


def screen_to_write() -> ClassLesson | None:
    """The lesson's screen this run moved to and the class has not been told, if any."""
    held = st.session_state.get(_HELD_SCREEN)
    return None if held is None else held[0]


def screen_written() -> None:
    """The class was told the screen :func:`screen_to_write` gave."""
    held = st.session_state.pop(_HELD_SCREEN, None)
    if held is not None:
        st.session_state[_TOLD] = held[1]


def told(sent: Hashable) -> bool:
    """Whether the class was told ``sent`` last. Then nothing is held: a screen held for a
    move the teacher undid before any run wrote it goes."""
    if st.session_state.get(_TOLD) != sent:
        return False
    st.session_state.pop(_HELD_SCREEN, None)
    return True


def forget_screen() -> None:
    """The lesson ended: nothing told, nothing held."""
    st.session_state.pop(_TOLD, None)
    st.session_state.pop(_HELD_SCREEN, None)


__all__ = [
    "RETRY_STORE_SECONDS",
    "STORE_DOWN",
    "TEACHER_SECONDS",
    "classroom",
    "come_back",
    "current_seat",
    "forget_screen",
    "hold_screen",
    "reach",
    "reached",
    "screen_to_write",
    "screen_written",
    "store_down",
    "told",
]
