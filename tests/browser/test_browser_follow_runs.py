"""A follower's page runs once per move of the teacher, after a change of page too.

Counted in the browser, as Chromium sends them: every request for a run (Streamlit's
``rerun_script`` message) on the student's websocket. The teacher moves ``max_depth`` on
Single tree, opens the step page from the sidebar, and moves it again there. A page change
used to leave the old page's class check asking on its own beside the new page's, so the
teacher's next move brought two runs: a quarter of a class's runs wasted.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import AppPage, start_class, tab
from streamlit.proto.BackMsg_pb2 import BackMsg

from deploy.process import LiveServer

pytestmark = pytest.mark.browser

FOLLOW_TIMEOUT_MS = 60_000
#: After a student's page has followed, how long a second run would take to show up: the two
#: checks answered the same moment, so a duplicate comes at once; this is ample.
LATE_RUN_MS = 2_500


def runs_asked(app: AppPage) -> list[str]:
    """The runs ``app``'s page asks for from now on, each as its page hash and query."""
    asked: list[str] = []

    def sent(payload: Any) -> None:
        if isinstance(payload, str):
            return
        message = BackMsg()
        message.ParseFromString(payload)
        if message.WhichOneof("type") == "rerun_script":
            run = message.rerun_script
            asked.append(f"{run.page_script_hash[:8]} {run.query_string}")

    app.page.on("websocket", lambda socket: socket.on("framesent", sent))
    return asked


def followed(student: AppPage, path: str, depth: int) -> None:
    student.page.wait_for_function(
        """([path, depth]) => {
          const thumb = document.querySelector(
            '.st-key-max_depth [data-testid="stSliderThumbValue"]');
          return location.pathname.endsWith(path) && thumb !== null
            && thumb.textContent.trim() === String(depth);
        }""",
        arg=[path, depth],
        timeout=FOLLOW_TIMEOUT_MS,
    )
    student.settle()
    student.page.wait_for_timeout(LATE_RUN_MS)


def test_a_follower_runs_once_per_teachers_move_before_and_after_a_page_change(
    browser: Any, server: LiveServer
) -> None:
    with tab(browser, server) as teacher, tab(browser, server) as student:
        code = start_class(teacher, "/Single_tree")
        asked = runs_asked(student)
        student.open(f"/?class={code}", ())
        depth, path = int(teacher.slider_value("max_depth")), "/Single_tree"
        followed(student, path, depth)

        counts: dict[str, list[str]] = {}
        for move in ("depth", "page", "depth after the page", "again"):
            asked.clear()
            if move == "page":
                step_page = teacher.page.locator(".st-key-app-navigation a", has_text="Grow it")
                step_page.click()
                path = "/Grow_it_step_by_step"
            else:
                teacher.nudge_slider("max_depth")
                depth += 1
            teacher.settle()
            followed(student, path, depth)
            counts[move] = list(asked)
        once = dict.fromkeys(counts, 1)
        assert {move: len(runs) for move, runs in counts.items()} == once, counts
        for app in (teacher, student):
            app.assert_healthy()
