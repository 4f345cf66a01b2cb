"""Class mode's Streamlit side, in one place: the sidebar's class panel, following the
teacher, the questions.

- :mod:`core.ui.classroom.seat`: the server's classes, this session's seat, reaching the store.
- :mod:`core.ui.classroom.follow`: following the teacher (the check, opening the teacher's
  view, publishing what the teacher's page shows); ``class_check.js`` is the check's script.
- :mod:`core.ui.classroom.panel`: start, join or leave a class, in the sidebar;
  :mod:`core.ui.classroom.ask` is its "Ask the class a question".
- :mod:`core.ui.classroom.choice`: a question at the top of any page: multiple choice, or a
  number.
- :mod:`core.ui.classroom.split`: the step page's "where will the tree split next?".
- :mod:`core.ui.classroom.lesson_run`: a prepared lesson's screens, run one after another
  (the lessons themselves are :mod:`core.classroom.plans`, plain files);
  :mod:`core.ui.classroom.lesson_teach` runs one with a class (pacing, the pause, the
  dashboard) and :mod:`core.ui.classroom.lesson_class` is a student's side of it;
  :mod:`core.ui.classroom.lesson_build` builds one, :mod:`core.ui.classroom.lesson_home` lists
  them on Home.

Class mode joins every page through :mod:`core.ui.page_hooks`, registered here once: the
pages and ``url_state`` import none of it. The class itself (its model, store and polls) is
:mod:`core.classroom`, pure.
"""

from __future__ import annotations

from core.ui.classroom.choice import choice_box, class_poll
from core.ui.classroom.follow import class_wrote, opened_view
from core.ui.classroom.lesson_build import add_view_box, keep_draft
from core.ui.classroom.lesson_run import lesson_opened, lesson_opening, lesson_wrote
from core.ui.classroom.panel import class_arrival, class_panel
from core.ui.classroom.seat import classroom
from core.ui.classroom.split import split_poll
from core.ui.page_hooks import PageHooks, register

register(
    PageHooks(
        "class",
        opening=class_panel,
        opened=opened_view,
        wrote=class_wrote,
        arriving=class_arrival,
    )
)


def _lesson_opening(page: str) -> None:
    """A prepared lesson's part of a page's first calls, after the class's sidebar: its bar at
    the top, the class's open question under the screen's words, and the sidebar's "Prepare
    a lesson"."""
    lesson_opening(page)
    choice_box()
    add_view_box(page)


def _lesson_wrote(page: str, query: dict[str, str]) -> None:
    """The running lesson and the lesson being built, kept in the address."""
    lesson_wrote(page, query)
    keep_draft(page, query)


register(PageHooks("lesson", opening=_lesson_opening, opened=lesson_opened, wrote=_lesson_wrote))

__all__ = ["choice_box", "class_panel", "class_poll", "class_wrote", "classroom", "split_poll"]
