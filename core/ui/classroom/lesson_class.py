"""A prepared lesson run with a class, a student's side: the screen's words, pacing, the
pause (the teacher's side is :mod:`core.ui.classroom.lesson_teach`).

The teacher's running lesson (:mod:`core.ui.classroom.lesson_run`) is published to the class
as a :class:`~core.classroom.lesson_state.ClassLesson` (the file without its notes, the
teacher's screen, pacing and pause), one field of the class's record, so every replica reads
the same. A student's page shows the screen's words above its figures, as the teacher's does;
held, a screen change brings every student along; free, a student may go back and forward up
to the teacher's screen. Paused, a student's page is covered by "Eyes on the teacher" and keeps
everything under it. Each seat tells the class where it is (its screen, whether it follows), for
the teacher's dashboard: a random seat, nothing personal.
"""

from __future__ import annotations

from functools import lru_cache

import streamlit as st

from core.app.words import md
from core.classroom import Membership, remembered
from core.classroom.lesson_state import (
    ClassLesson,
    Place,
    allowed_screen,
    reachable,
)
from core.classroom.plans import LessonPlan, Screen, read_plan
from core.ui.classroom.follow import check
from core.ui.classroom.seat import classroom, current_seat, reach, reached
from core.ui.visit import change

_MINE = "lesson-class-mine"  # the student's screen, from 0
_OPEN = "lesson-class-open"  # a screen the student chose: (page, query), opened by its page
_WROTE = "lesson-class-wrote"  # the screen number this session last put in the address
_PLACED = "lesson-class-placed"  # the place this seat last told the class: (code, text)
_LEFT = "lesson-class-left"  # the class's lesson just ended for this student
_ASK = "lesson-class-ask"  # the screen (from 1) a student's Previous or Next asks for


@lru_cache(maxsize=32)
def _plan(text: str) -> LessonPlan | None:
    """The class's copy of the lesson, read once per process and text."""
    return read_plan(text)[0]


def class_lesson(seat: Membership) -> ClassLesson | None:
    """The lesson ``seat``'s class runs, or None (none, or the store cannot be reached)."""
    state = reach(lambda: classroom().state(seat.code))
    return None if state is None else state.lesson


# --- a student --------------------------------------------------------------------------------


def student_lesson(page: str, requested: str | None) -> bool:
    """A student's part when the class runs a lesson: go where pacing allows, the bar, the
    pause. ``requested``: the screen the address asks for (a reload's, or a forged one).
    Returns whether the class runs a lesson (this session then runs none of its own)."""
    seat = current_seat()
    if seat is None or seat.teaching:
        return False
    lesson = class_lesson(seat)
    plan = None if lesson is None else _plan(lesson.plan)
    if lesson is None or plan is None or len(plan.screens) != lesson.count:
        if st.session_state.pop(_MINE, None) is not None:
            st.session_state[_LEFT] = True
        return False
    if requested == st.session_state.get(_WROTE):
        requested = None  # what this session wrote itself
    mine = st.session_state.get(_MINE)
    if seat.following or not isinstance(mine, int):
        mine = lesson.at
    why = None
    if requested is not None:
        wanted, why = allowed_screen(requested, lesson)
        if wanted != mine:
            mine = _go(page, seat, plan, lesson, wanted)
    elif mine not in reachable(lesson):  # held, or the teacher went back before this screen
        mine = _go(page, seat, plan, lesson, lesson.at)
    st.session_state[_MINE] = mine
    if why:
        st.info(why, icon=":material/block:")
    now = current_seat() or seat
    _place(now, Place(mine, now.following))
    _student_bar(plan, lesson, mine)
    if lesson.paused:
        _paused()
    return True


def _go(page: str, seat: Membership, plan: LessonPlan, lesson: ClassLesson, to: int) -> int:
    """Open screen ``to``: the teacher's screen by following again, another by its link."""
    if to == lesson.at:
        seat = seat.follow(True)
        change(seat=seat, class_cookie=remembered(seat))
        st.session_state.pop(_OPEN, None)
        check(page, timer=False)  # opens the teacher's view (this page's, or another's)
        return to
    seat = seat.follow(False)
    change(seat=seat, class_cookie=remembered(seat))
    screen = plan.screens[to]
    st.session_state[_OPEN] = (screen.page.path, dict(screen.query))
    if screen.page.path != page:
        # The switch ends this run before the caller keeps the screen: keep it now, or the
        # other page's run would show the screen this student came from.
        st.session_state[_MINE] = to
        st.switch_page(screen.page.path, query_params=dict(screen.query))
    return to


def _moved(to: int) -> None:
    """A student's Previous or Next: the next run opens the screen (``requested``)."""
    st.session_state[_WROTE] = None
    st.session_state[_ASK] = str(to + 1)


def requested_screen(from_address: str | None) -> str | None:
    """The screen a student asked for: a button's this run, else the address's."""
    asked = st.session_state.pop(_ASK, None)
    return asked if isinstance(asked, str) else from_address


def student_opened(page: str) -> dict[str, str] | None:
    """The settings of the screen a student chose, for the run of its page that opens it."""
    held = st.session_state.get(_OPEN)
    if not isinstance(held, tuple) or held[0] != page:
        return None
    del st.session_state[_OPEN]
    return dict(held[1])


def left_class_lesson() -> bool:
    """Whether the class's lesson ended since this student's last run (once)."""
    return bool(st.session_state.pop(_LEFT, False))


def student_screen() -> int | None:
    """The student's screen (from 1) for the address, or None outside a class's lesson."""
    mine = st.session_state.get(_MINE)
    if not isinstance(mine, int):
        return None
    st.session_state[_WROTE] = str(mine + 1)
    return mine + 1


def _place(seat: Membership, place: Place) -> None:
    """Tell the class where this seat is, when it moved (the teacher's dashboard counts it)."""
    placed = (seat.code, place.text())
    if st.session_state.get(_PLACED) != placed and reached(
        lambda: classroom().place(seat.code, seat.seat, place)
    ):
        st.session_state[_PLACED] = placed


def _student_bar(plan: LessonPlan, lesson: ClassLesson, mine: int) -> None:
    screen: Screen = plan.screens[mine]
    with st.container(border=True, key="lesson-bar"):
        where = f"screen {mine + 1} of {lesson.count}"
        if mine != lesson.at:
            where += f" · the teacher is on screen {lesson.at + 1}"
        st.caption(f":material/slideshow: **{md(plan.title)}** · {where}")
        with st.container(key="lesson-words"):
            if screen.words:
                st.markdown(screen.words)
            question = screen.question
            if question is not None:
                options = "  ·  ".join(f"**{i}.** {o}" for i, o in enumerate(question.options, 1))
                st.markdown(f":material/quiz: **{question.prompt}**  {options}")
        if lesson.pacing == "held":
            st.caption("Your teacher moves the class from screen to screen.")
            return
        with st.container(horizontal=True, key="lesson-controls", vertical_alignment="center"):
            st.button(
                "Previous screen",
                icon=":material/arrow_back:",
                key="lesson-previous",
                disabled=mine == 0,
                on_click=_moved,
                args=(mine - 1,),
            )
            st.button(
                "Next screen",
                icon=":material/arrow_forward:",
                key="lesson-next",
                type="primary",
                disabled=mine >= lesson.at,
                on_click=_moved,
                args=(mine + 1,),
            )
            st.caption(f"You can go back, and on up to the teacher's screen ({lesson.at + 1}).")


def _paused() -> None:
    """ "Eyes on the teacher" over the whole page; the page stays as it is underneath.

    The notice is drawn in the main column, whose layer lies under the sidebar's: while it
    shows, the sidebar is put on the main column's level, so the notice covers both.
    """
    st.markdown(
        "<style>section[data-testid='stSidebar']{z-index:0}</style>"
        "<div class='lesson-paused' role='alert' style='position:fixed;inset:0;z-index:999990;"
        "background:rgba(17,24,39,0.95);color:#fff;display:flex;flex-direction:column;"
        "align-items:center;justify-content:center;text-align:center;padding:2rem'>"
        "<div style='font-size:4rem;font-weight:700;line-height:1.2'>Eyes on the teacher</div>"
        "<div style='font-size:1.5rem;margin-top:1rem'>The teacher paused the class. Your page "
        "and your settings stay just as they are.</div></div>",
        unsafe_allow_html=True,
    )


__all__ = [
    "class_lesson",
    "left_class_lesson",
    "requested_screen",
    "student_lesson",
    "student_opened",
    "student_screen",
]
