"""Running a prepared lesson: the screen's words above the page's figures, and the way on.

The running lesson lives in the session (:class:`Running`) and in the address bar
(``?lesson=NAME&screen=3``, the lesson packed into the link when it is not one the app
ships), so a reload or a shared link comes back to the same screen. Going to a screen opens
its link: another page by ``st.switch_page``, this page by handing its settings to
``url_state.arrive`` as a link's (the ``opened`` page hook), which is how a follower opens the
teacher's view too. With a class, the students follow each screen as they follow any move.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import streamlit as st

from core.app.pages import HOME
from core.classroom import choice_poll, number_poll
from core.classroom.plans import LessonPlan, Screen, plan_from_token, plan_token
from core.classroom.shipped import shipped_plans
from core.ui.classroom.lesson_class import (
    left_class_lesson,
    requested_screen,
    student_lesson,
    student_opened,
    student_screen,
)
from core.ui.classroom.lesson_teach import end_for_class, teacher_panel
from core.ui.classroom.seat import classroom, current_seat, reach

#: The address bar's names for the running lesson and its screen (1 is the first).
LESSON_PARAMETER, SCREEN_PARAMETER = "lesson", "screen"
_KEY = "lesson-running"


@dataclass(frozen=True)
class Running:
    """The lesson this session runs: which, its screen (from 0), and how the link names it.

    ``opening``: the screen was just chosen, and the next run of its page opens its settings.
    """

    plan: LessonPlan
    at: int
    name: str | None
    opening: bool = False

    @property
    def screen(self) -> Screen:
        return self.plan.screens[self.at]

    def moved(self, at: int) -> Running:
        return replace(self, at=max(0, min(at, len(self.plan.screens) - 1)), opening=True)


def running() -> Running | None:
    held = st.session_state.get(_KEY)
    return held if isinstance(held, Running) else None


def start_lesson(plan: LessonPlan, name: str | None = None, at: int = 0) -> None:
    """Run ``plan`` from screen ``at``: its page opens in this run (it leaves the script)."""
    st.session_state[_KEY] = Running(plan, 0, name).moved(at)
    _go()


def _go() -> None:
    """Open the running screen's page, when this run is not on it already."""
    now = running()
    if now is not None and now.opening:
        st.switch_page(now.screen.page.path, query_params=dict(now.screen.query))


def _from_link() -> list[str]:
    """A lesson named by the address (``?lesson=``) and not yet running: run it. Returns what
    could not be read, to show."""
    raw = st.query_params.get(LESSON_PARAMETER)
    if raw is None:
        return []
    now = running()
    screen = st.query_params.get(SCREEN_PARAMETER, "1")
    at = int(screen) - 1 if screen.isdigit() and len(screen) < 4 else 0
    if now is not None and raw in (now.name, plan_token(now.plan)):
        return []
    shipped = shipped_plans()
    plan, problems = (shipped[raw], []) if raw in shipped else plan_from_token(raw)
    if plan is None:
        del st.query_params[LESSON_PARAMETER]
        return problems
    st.session_state[_KEY] = Running(plan, 0, raw if raw in shipped else None).moved(at)
    return problems


def lesson_opening(page: str) -> None:
    """The lesson's part of a page's first calls: read a lesson's link, go to the chosen
    screen's page, and draw the lesson's bar at the top. A student whose class runs a lesson
    sees the class's (:mod:`core.ui.classroom.lesson_class`) and runs none of its own."""
    if student_lesson(page, requested_screen(st.query_params.get(SCREEN_PARAMETER))):
        st.session_state.pop(_KEY, None)
        if LESSON_PARAMETER in st.query_params:
            del st.query_params[LESSON_PARAMETER]
        return
    if left_class_lesson() and SCREEN_PARAMETER in st.query_params:
        del st.query_params[SCREEN_PARAMETER]  # the class's screen, not a lesson of one's own
    problems = _from_link()
    if problems:
        lines = "\n".join(f"- {problem}" for problem in problems)
        st.warning(f"Some of this lesson could not be used:\n{lines}", icon=":material/warning:")
    now = running()
    if now is None:
        return
    if page == HOME.path and LESSON_PARAMETER in st.query_params:
        _go()  # a lesson's link to the home page opens its screen
    if now.opening and now.screen.page.path != page:
        _go()
    teacher_panel(now.plan, now.at)
    _bar(now)


def lesson_opened(page: str) -> dict[str, str] | None:
    """The chosen screen's settings, for the first run of its page after the choice."""
    chosen = student_opened(page)
    if chosen is not None:
        return chosen
    now = running()
    if now is None or not now.opening or now.screen.page.path != page:
        return None
    st.session_state[_KEY] = replace(now, opening=False)
    return dict(now.screen.query)


def lesson_wrote(page: str, query: dict[str, str]) -> None:
    """Keep the running lesson in the address bar, beside the page's settings (a student's
    screen in the class's lesson alone)."""
    mine = student_screen()
    if mine is not None and page != HOME.path:
        st.query_params[SCREEN_PARAMETER] = str(mine)
        return
    now = running()
    if now is None or page == HOME.path:
        return
    name = now.name or plan_token(now.plan)
    if name is not None:
        st.query_params[LESSON_PARAMETER] = name
        st.query_params[SCREEN_PARAMETER] = str(now.at + 1)


def _move(at: int) -> None:
    now = running()
    if now is not None:
        st.session_state[_KEY] = now.moved(at)


def _jumped() -> None:
    _move(int(st.session_state["lesson-jump"]))


def _end() -> None:
    end_for_class()
    st.session_state.pop(_KEY, None)
    for name in (LESSON_PARAMETER, SCREEN_PARAMETER):
        if name in st.query_params:
            del st.query_params[name]


def _bar(now: Running) -> None:
    """The screen's words and the lesson's controls, above the page's own figures."""
    plan, count, question = now.plan, len(now.plan.screens), now.screen.question
    with st.container(border=True, key="lesson-bar"):
        st.caption(f":material/slideshow: **{plan.title}** · screen {now.at + 1} of {count}")
        with st.container(key="lesson-words"):
            if now.screen.words:
                st.markdown(now.screen.words)
            if question is not None:
                options = "  ·  ".join(f"**{i}.** {o}" for i, o in enumerate(question.options, 1))
                st.markdown(f":material/quiz: **{question.prompt}**  {options}")
        with st.container(horizontal=True, key="lesson-controls", vertical_alignment="center"):
            st.button(
                "Previous screen",
                icon=":material/arrow_back:",
                key="lesson-previous",
                disabled=now.at == 0,
                on_click=_move,
                args=(now.at - 1,),
            )
            st.button(
                "Next screen",
                icon=":material/arrow_forward:",
                key="lesson-next",
                type="primary",
                disabled=now.at == count - 1,
                on_click=_move,
                args=(now.at + 1,),
            )
            st.session_state["lesson-jump"] = now.at
            st.selectbox(
                "Go to screen",
                range(count),
                format_func=lambda i: f"{i + 1}. {_label(plan.screens[i])}",
                key="lesson-jump",
                on_change=_jumped,
                label_visibility="collapsed",
                width=220,
            )
            if question is not None:
                _question_controls(now)
            if now.screen.notes:
                with st.popover("Notes", icon=":material/sticky_note_2:"):
                    st.caption("Your notes for this screen (the class does not see them).")
                    st.markdown(now.screen.notes)
            st.button("End lesson", icon=":material/close:", key="lesson-end", on_click=_end)


def _label(screen: Screen) -> str:
    words = screen.words.replace("*", "").split(".")[0].strip()
    return (words[:40] + "…") if len(words) > 40 else (words or screen.page.title)


def _question_controls(now: Running) -> None:
    """Ask the class the screen's question (a teacher with a class: the class's poll, kept
    under the screen's number for the summary), and show the expected answer when the
    teacher chooses."""
    question = now.screen.question
    assert question is not None
    seat = current_seat()
    if (
        seat is not None
        and seat.teaching
        and st.button("Ask the class", icon=":material/send:", key=f"lesson-ask-{now.at}")
    ):
        if question.options:
            poll = replace(
                choice_poll(0, question.prompt, list(question.options)), screen=now.at + 1
            )
        else:
            poll = number_poll(question.prompt, screen=now.at + 1)
        reach(lambda: classroom().ask(seat.teacher, poll))
    if question.answer is not None and st.toggle("Show the answer", key=f"lesson-a-{now.at}"):
        answer = question.answer
        shown = question.options[int(answer) - 1] if question.options else f"{answer:g}"
        st.markdown(f"**Answer: {shown}**")


__all__ = [
    "LESSON_PARAMETER",
    "SCREEN_PARAMETER",
    "Running",
    "lesson_opened",
    "lesson_opening",
    "lesson_wrote",
    "running",
    "start_lesson",
]
