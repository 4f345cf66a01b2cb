"""The class wing's hold on a session: the server's classes, this session's seat, and every
call to the store, which may fail.

The store cannot be reached, or the class has ended: :func:`reach` makes the session leave
its class with a notice that says why, and every page goes on working alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import streamlit as st

from core.classroom import Classroom, Membership, NoClass, NotTeacher, StoreDown, open_store
from core.ui.visit import change, visit

#: Seconds between the teacher's updates of the class size and a poll's answers.
TEACHER_SECONDS = 2.0

_T = TypeVar("_T")


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
        change(
            seat=None,
            class_problem="The class cannot be reached just now (its shared store is down), "
            "so class mode is off. Every page works on its own; you can start or join a class "
            "again in a moment.",
        )
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


def reached(call: Callable[[], object]) -> bool:
    """Whether ``call()`` ran (see :func:`reach`)."""
    return reach(lambda: (call(), True)[1]) is not None


__all__ = ["TEACHER_SECONDS", "classroom", "current_seat", "reach", "reached"]
