"""Class mode's details in real Chromium: what the teacher and the students see agrees, a
student who joins starts following at once, and the teacher learns that the store is down as
soon as the students do.

Each test starts its own class, with a teacher's tab and a student's (two sessions): on the
session's served app, or, where the store must go down, on a server of its own whose classes
live in a redis-server that the test stops.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import OPEN_TIMEOUT_MS, AppPage, serve, start_class, tab

from deploy.process import LiveServer
from deploy.redis_server import RedisServer, redis_binary, redis_url, start_redis
from tests.live_app import ROOT, free_port

pytestmark = pytest.mark.browser

RUN_TIMEOUT_MS = 60_000
#: The teacher's page says the store is down within this after the student's page does: both
#: hear it from the same check, which reads the store every quarter second.
TEACHER_LATE_S = 1.5
STEP_PAGE = "/Grow_it_step_by_step"

THUMB = """(key) => {
  const shown = document.querySelector(`.st-key-${key} [data-testid="stSliderThumbValue"]`);
  return shown ? shown.innerText.trim() : null;
}"""


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


# Every question of the class check this tab asks, and the first moment the tab shows a
# chart, on the browser's clock (``performance.now()``).
CHECKS = """
window.__checks = [];
const asked = window.fetch;
window.fetch = function (input, init) {
  const url = typeof input === "string" ? input : input.url;
  if (url.includes("/api/class/")) window.__checks.push([performance.now(), url]);
  return asked.apply(this, arguments);
};
window.__marks = {};
setInterval(() => {
  const marks = window.__marks;
  if (marks.chart === undefined
      && document.querySelector('[data-testid="stPlotlyChart"] .main-svg'))
    marks.chart = performance.now();
  if (marks.joined === undefined && location.pathname.endsWith("/Single_tree"))
    marks.joined = performance.now();
}, 10);
"""


def test_a_student_who_types_the_code_starts_checking_at_once(
    browser: Any, server: LiveServer
) -> None:
    """Joined by the code typed on Home, the student's page asks the class check as its
    teacher's page opens, before that page's charts are drawn: the script is on the page
    before the join. (It used to load with the joined page and wait behind its charts: 1.3 to 6 s
    on a busy laptop, and the teacher's first move after the join came that late.)"""
    with tab(browser, server) as teacher, tab(browser, server) as student:
        code = start_class(teacher, "/Single_tree")
        student.page.add_init_script(CHECKS)
        student.open("/", ("h1",))
        assert student.page.evaluate("() => window.__checks") == []  # no class, no question
        student.page.get_by_text("Class mode", exact=True).click()
        student.page.locator(".st-key-class-code input").fill(code)
        student.page.get_by_role("button", name="Join the class").click()
        # The join is the student's first open of the teacher's page: a first visit's timeout
        # (one CI run under two workers' load did not draw its first chart within 60 s).
        student.page.wait_for_function(
            "() => window.__marks.chart !== undefined && window.__checks.length > 0",
            timeout=OPEN_TIMEOUT_MS,
        )
        student.settle()
        checks = student.page.evaluate("() => window.__checks")
        marks = student.page.evaluate("() => window.__marks")
        first, url = checks[0]
        assert f"/api/class/{code}?" in url and "seat=" in url and "present=" not in url
        assert first < marks["chart"], (checks, marks)
        print(
            f"\nfirst check {round(first - marks['joined'])} ms after the teacher's page "
            f"opened, {round(marks['chart'] - first)} ms before its first chart was drawn"
        )
        for app in (teacher, student):
            app.assert_healthy()


@pytest.fixture
def redis_app(chromium: str, tmp_path: Path) -> Iterator[tuple[LiveServer, RedisServer]]:
    """A served app whose classes live in a redis-server of its own (the test may stop it)."""
    if redis_binary() is None:
        pytest.fail("redis-server is needed: bash .ci/system-deps.sh", pytrace=False)
    (tmp_path / "redis").mkdir()
    store = start_redis(free_port(), tmp_path / "redis" / "redis.log")
    try:
        with serve(
            ROOT / "serve.py", tmp_path, environment={"ARBORETUM_REDIS_URL": redis_url(store.port)}
        ) as app:
            yield app, store
    finally:
        store.signal(signal.SIGCONT)
        store.stop()


def test_the_teacher_learns_that_the_store_is_down_as_soon_as_the_students(
    browser: Any, redis_app: tuple[LiveServer, RedisServer]
) -> None:
    """The store stops answering: the student's check hears it, and the teacher's page asks
    the same check (without counting as a student), so it says so as soon as the student's
    page does, not at the teacher's next move."""
    server, store = redis_app
    down = (
        "() => document.querySelector('[data-testid=\"stSidebar\"]').innerText"
        ".includes('cannot be reached')"
    )
    with tab(browser, server) as teacher, tab(browser, server) as student:
        code = start_class(teacher, "/Single_tree")
        asked: list[str] = []
        teacher.page.on(
            "request", lambda r: asked.append(r.url) if "/api/class/" in r.url else None
        )
        student.open(f"/?class={code}", ())
        student.page.wait_for_function(
            "() => location.pathname.endsWith('/Single_tree')", timeout=RUN_TIMEOUT_MS
        )
        student.settle(("h1",))
        teacher.page.locator('[data-testid="stSidebar"]', has_text="1 student in").wait_for(
            timeout=RUN_TIMEOUT_MS
        )  # the teacher's own questions count no student
        assert any(f"/api/class/{code}?" in url and "present=0" in url for url in asked), asked

        store.signal(signal.SIGSTOP)  # hung, as a store behind a dead network
        began = time.monotonic()
        student.page.wait_for_function(down, timeout=RUN_TIMEOUT_MS)
        student_s = time.monotonic() - began
        teacher.page.wait_for_function(down, timeout=RUN_TIMEOUT_MS)
        teacher_s = time.monotonic() - began
        print(
            f"\nstore down: the student knew after {student_s:.1f} s, the teacher {teacher_s:.1f} s"
        )
        assert teacher_s - student_s <= TEACHER_LATE_S, (student_s, teacher_s)
        for app in (teacher, student):
            assert app.exceptions() == [], app.exceptions()
