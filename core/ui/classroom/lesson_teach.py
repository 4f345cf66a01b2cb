"""A prepared lesson run with a class, the teacher's side: tell the class the screen, set the
pacing, pause, and watch the dashboard.

The teacher's running lesson (:mod:`core.ui.classroom.lesson_run`) is published to the class
as a :class:`~core.classroom.lesson_state.ClassLesson` (the file without its notes, the
teacher's screen, pacing and pause), one field of the class's record, so every replica reads
the same; the students' side is :mod:`core.ui.classroom.lesson_class`. The sidebar counts
students per screen and sums up the answers, which download as CSV. A store that is lost takes
only the live answers: the lesson is the teacher's file.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import streamlit as st

from core.app.words import md
from core.classroom import Answer, Poll
from core.classroom.lesson_state import PACING_WORDS, PACINGS, ClassLesson, Pacing, progress
from core.classroom.plans import LessonPlan, class_copy, write_plan
from core.classroom.tally import summary_csv, summary_rows
from core.ui.classroom.lesson_class import class_lesson
from core.ui.classroom.seat import (
    TEACHER_SECONDS,
    classroom,
    current_seat,
    forget_screen,
    hold_screen,
    reach,
    screen_to_write,
    told,
)
from core.ui.visit import visit


def publish(plan: LessonPlan, at: int) -> None:
    """The teacher runs ``plan`` at screen ``at`` (from 0): the class reads it, notes left out;
    the pacing and the pause stay as the teacher set them.

    The screen is written with its view, when this run writes the page's settings
    (:func:`~core.ui.classroom.seat.hold_screen`, written by ``class_wrote``): one write, one
    run of each student's page. A run that never writes them leaves it to the next.
    """
    seat = current_seat()
    if seat is None or not seat.teaching:
        return
    text = write_plan(class_copy(plan))
    sent = (seat.code, text, at)
    if told(sent):
        return
    held = class_lesson(seat)
    pacing: Pacing = held.pacing if held is not None else "held"
    paused = held.paused if held is not None else False
    hold_screen(ClassLesson(text, len(plan.screens), at, pacing, paused), sent)


def end_for_class() -> None:
    """The teacher ended the lesson: the students' bars go (the class goes on)."""
    seat = current_seat()
    forget_screen()
    if seat is not None and seat.teaching:
        reach(lambda: classroom().run_lesson(seat.teacher, None))


def _set(**changes: Any) -> None:
    seat = current_seat()
    if seat is None or not seat.teaching:
        return
    held = class_lesson(seat)
    if held is not None:
        reach(lambda: classroom().run_lesson(seat.teacher, replace(held, **changes)))


def _paced() -> None:
    pacing = st.session_state.get("lesson-pacing")
    if pacing in PACINGS:
        _set(pacing=pacing)


def teacher_panel(plan: LessonPlan, at: int) -> None:
    """The teacher's part with a class: tell the class the screen (:func:`publish`), a pause
    notice above the page, and in the sidebar the pacing, the pause and the dashboard."""
    publish(plan, at)
    seat = current_seat()
    problem = visit().class_problem or ""
    if seat is None:
        if visit().class_away is not None or "store" in problem:
            st.info(
                "The class's store was lost, and the class's live answers with it. Your lesson "
                "is your own file and runs on; the students come back with the store.",
                icon=":material/cloud_off:",
            )
        return
    if not seat.teaching:
        return
    lesson = screen_to_write() or class_lesson(seat)  # the screen this run writes, if new
    if lesson is None:
        return
    if lesson.paused:
        with st.container(border=True, key="lesson-paused-teacher", horizontal=True):
            st.markdown(
                "**:material/front_hand: The class is paused:** students see “Eyes on "
                "the teacher”, their pages kept underneath."
            )
            st.button(
                "Resume",
                icon=":material/play_arrow:",
                key="lesson-resume",
                type="primary",
                on_click=_set,
                kwargs={"paused": False},
            )
    with st.sidebar, st.container(border=True, key="lesson-class"):
        st.markdown("**:material/slideshow: The lesson with your class**")
        st.session_state["lesson-pacing"] = lesson.pacing
        st.radio(
            "Pacing",
            PACINGS,
            format_func=PACING_WORDS.__getitem__,
            key="lesson-pacing",
            on_change=_paced,
        )
        st.button(
            "Resume the class" if lesson.paused else "Pause the class",
            icon=":material/play_arrow:" if lesson.paused else ":material/front_hand:",
            key="lesson-pause",
            width="stretch",
            on_click=_set,
            kwargs={"paused": not lesson.paused},
            help="Paused, every student's page shows “Eyes on the teacher” and keeps its work.",
        )
        _dashboard(lesson.count, lesson.at)


@st.fragment(run_every=TEACHER_SECONDS)
def _dashboard(count: int, at: int) -> None:
    """Students per screen, how many follow, and the answers so far: redrawn every couple of
    seconds, without running the page."""
    seat = current_seat()
    if seat is None:
        return
    room = classroom()
    read = reach(lambda: (room.places(seat.code), room.present(seat.code), room.asked(seat.code)))
    if read is None:
        st.rerun()  # the store went, or the class: the page says so
        return
    places, present, asked = read
    counted = progress(places, present, count)
    st.caption(f"**{counted.students}** in the lesson · **{counted.following}** follow you")
    lines = [
        f"| {n + 1}{' (you)' if n == at else ''} | {'▮' * min(k, 30)} {k} |"
        for n, k in enumerate(counted.per_screen)
    ]
    st.markdown("| Screen | Students |\n|---|---|\n" + "\n".join(lines))
    rows = lesson_summary(seat.code, asked)
    with st.expander("Answers per screen", icon=":material/table_chart:"):
        if rows:
            for row in rows:
                st.markdown(
                    f"**{row['screen']}.** {md(str(row['question']))}  \n"
                    f"{row['answered']} answered · {md(str(row['answers']))}"
                )
        else:
            st.caption("No question asked yet: “Ask the class” on a screen with a question.")
    st.download_button(
        "Download the answers (CSV)",
        summary_csv(rows),
        file_name="lesson-answers.csv",
        mime="text/csv",
        icon=":material/download:",
        key="lesson-summary",
        on_click="ignore",
        disabled=not rows,
        width="stretch",
    )


def lesson_summary(code: str, asked: list[Poll]) -> list[dict[str, str | int]]:
    """One row per question a lesson's screen asked class ``code``, with its answers summed up
    (:func:`core.classroom.tally.summary_rows`): what the dashboard shows and downloads."""
    room = classroom()
    lesson_polls = [poll for poll in asked if poll.screen is not None]
    answers: dict[int, list[Answer]] = {}
    for poll in lesson_polls:
        held = reach(lambda poll=poll: room.answers(code, poll))  # type: ignore[misc]
        answers[poll.number] = list((held or {}).values())
    return summary_rows(lesson_polls, answers)


__all__ = ["end_for_class", "lesson_summary", "publish", "teacher_panel"]
