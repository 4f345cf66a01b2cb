"""Class mode's details in real Chromium: what the teacher and the students see agrees, and
both learn of trouble at once.

Each test starts its own class on the session's served app, with a teacher's tab and a
student's (two sessions).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_helpers import AppPage, tab

from deploy.process import LiveServer

pytestmark = pytest.mark.browser

RUN_TIMEOUT_MS = 60_000
STEP_PAGE = "/Grow_it_step_by_step"

THUMB = """(key) => {
  const shown = document.querySelector(`.st-key-${key} [data-testid="stSliderThumbValue"]`);
  return shown ? shown.innerText.trim() : null;
}"""


def start_class(teacher: AppPage, path: str) -> str:
    """The teacher opens ``path`` and starts a class; its code."""
    teacher.open(path, ("h1",))
    teacher.page.get_by_text("Class mode", exact=True).click()
    teacher.page.locator(".st-key-class-start button").click()
    teacher.page.locator('[data-testid="stSidebar"]', has_text="You teach class").wait_for(
        timeout=RUN_TIMEOUT_MS
    )
    teacher.settle()
    found = re.search(r"You teach class\s+([A-Z0-9]{6})", teacher.page.inner_text("body"))
    assert found is not None
    return found.group(1)


def splits_made(app: AppPage) -> str:
    """The "Splits made" metric: the step the page computed, "2 of 13"."""
    return app.metric("Splits made")


def test_the_step_slider_shows_the_step_of_the_new_tree_for_teacher_and_student(
    browser: Any, server: LiveServer
) -> None:
    """A max_depth change gives the tree another number of splits: the step slider keeps its
    step and names the new count, on the teacher's page as on the student's (it used to show
    the first option, "0 of 13", on the page that moved, while the page went on at step 2)."""
    with tab(browser, server) as teacher, tab(browser, server) as student:
        code = start_class(teacher, f"{STEP_PAGE}?dataset=wine&step=2")
        student.open(f"/?class={code}", ())
        student.page.wait_for_function(
            f"() => location.pathname.endsWith('{STEP_PAGE}')", timeout=RUN_TIMEOUT_MS
        )
        student.settle(("h1",))
        before = teacher.slider_value("step")
        assert before.startswith("2 of "), before

        teacher.nudge_slider("max_depth")
        teacher.page.wait_for_function(
            f"() => new URL(location.href).searchParams.get('max_depth') !== null "
            f"&& !({THUMB})('step').endsWith(' of {before.split(' of ')[1]}')",
            timeout=RUN_TIMEOUT_MS,
        )
        teacher.settle()
        shown = teacher.slider_value("step")
        assert shown.startswith("2 of ") and shown != before, shown
        assert splits_made(teacher) == shown
        student.page.wait_for_function(
            f"(shown) => ({THUMB})('step') === shown", arg=shown, timeout=RUN_TIMEOUT_MS
        )
        student.settle()
        assert student.slider_value("step") == shown
        assert splits_made(student) == shown

        teacher.nudge_slider("max_depth", "ArrowLeft")  # back: the step stays, the count too
        teacher.page.wait_for_function(
            f"(before) => ({THUMB})('step') === before && new URL(location.href)"
            ".searchParams.get('max_depth') === null",
            arg=before,
            timeout=RUN_TIMEOUT_MS,
        )
        teacher.settle()
        assert splits_made(teacher) == before
        assert "step=2" in teacher.page.evaluate("() => location.search")
        for app in (teacher, student):
            app.assert_healthy()
