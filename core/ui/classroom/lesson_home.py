"""The home page's lessons: the ones Arboretum ships, and a teacher's own file to open."""

from __future__ import annotations

import streamlit as st

from core.app.words import md
from core.classroom.plans import LessonPlan, read_plan
from core.classroom.shipped import shipped_plans
from core.ui.classroom.lesson_build import draft_screens, edit_copy, lesson_editor
from core.ui.classroom.lesson_run import start_lesson

#: What a lesson file may be called; its content decides, not its name.
FILE_TYPES = ["toml", "json", "txt"]


def _summary(plan: LessonPlan) -> str:
    pages = dict.fromkeys(screen.page.title for screen in plan.screens)
    questions = sum(screen.question is not None for screen in plan.screens)
    asked = f", {questions} questions" if questions > 1 else ", 1 question" if questions else ""
    return f"{len(plan.screens)} screens{asked} · {', '.join(pages)}"


def lesson_cards() -> None:
    """The shipped lessons, three to a row, each with its first screen's words and a start."""
    plans = shipped_plans()
    with st.container(key="lesson-cards"):
        for column, (name, plan) in zip(st.columns(3), plans.items(), strict=False):
            with column, st.container(border=True, height="stretch"):
                st.markdown(f"**{md(plan.title)}**")
                st.caption(_summary(plan))
                _run_or_edit(plan, name, "Run this lesson", f"lesson-start-{name}")


def _run_or_edit(plan: LessonPlan, name: str | None, run: str, key: str) -> None:
    """Run ``plan`` (named ``name`` in links when the app ships it), or edit a copy of it."""
    with st.container(horizontal=True):
        if st.button(run, icon=":material/slideshow:", key=key, type="primary"):
            start_lesson(plan, name)
        st.button(
            "Edit a copy",
            icon=":material/edit:",
            key=f"{key}-copy",
            on_click=edit_copy,
            args=(plan,),
        )


def own_lessons() -> None:
    """A teacher's own lesson: open a file, or build one from the app's pages."""
    with st.expander(
        "Your own lesson: open a file, or build one",
        icon=":material/edit_note:",
        expanded=draft_screens() > 0,
    ):
        _open_lesson_file()
        lesson_editor()


def _open_lesson_file() -> None:
    """Open a lesson from a file: its screens that can open run, and what could not is said."""
    uploaded = st.file_uploader(
        "Open a lesson file",
        type=FILE_TYPES,
        key="lesson-file",
        help="A lesson saved from Arboretum, or written by hand (docs/lessons.md).",
    )
    if uploaded is None:
        return
    plan, problems = read_plan(uploaded.getvalue())
    if problems:
        lines = "\n".join(f"- {problem}" for problem in problems)
        st.warning(f"Some of this lesson could not be used:\n{lines}", icon=":material/warning:")
    if plan is None:
        return
    st.markdown(f"**{md(plan.title)}** · {_summary(plan)}")
    _run_or_edit(plan, None, "Run it", "lesson-run-file")


__all__ = ["lesson_cards", "own_lessons"]
