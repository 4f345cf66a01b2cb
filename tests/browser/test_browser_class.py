"""A class in real Chromium: a teacher and two students on two replicas behind HAProxy, Redis
between them (issue 21).

One cluster for the module, as ``make replicas`` starts it (``deploy.replicas.Cluster``: two
replicas, HAProxy in front, a ``redis-server`` that both name in ``ARBORETUM_REDIS_URL``),
and three browser contexts, so three cookie jars and three Streamlit sessions. HAProxy
sends a new browser to the replica with the fewest connections, so the students do not all
sit where the teacher does: a class that works here is shared through Redis, not through one
process's memory.

The tests run in order and build on one another, as a lesson does: the teacher starts a
class and the students join; the teacher moves ``max_depth``, opens the step page and
presses Next, and each student's page follows; a poll gets both answers and is revealed;
the replica of a student dies, and that student reconnects and still follows; the teacher
and a student reload, and keep their seats; a student who steps on alone stops following. The
delays measured on the way are recorded, not asserted: how fast a class follows is the
benchmark's (``classroom_load.classroom --class-mode``); here a student only has to follow at all.

One test stands apart, on the session's single served app with no cluster, so it runs alone:
a student's move turns the "Follow the teacher" toggle off in that move's run.

How long a student takes to follow is measured in the browser: every page runs a small
watcher that notes (``Date.now()``, one clock for all tabs of one Chromium) the moment its
address and what it shows reach a state, so the delay is the student's moment minus the
teacher's, with no Python polling in between. The numbers go to
``tests/artifacts/class/follow.json`` and are printed.
"""

from __future__ import annotations

import json
import os
import re
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import (
    LARGE,
    PHONE,
    PROJECTOR,
    VIEWPORT,
    AppPage,
    show_sidebar,
    start_class,
    tab,
)

from core.app.settings import GrowStepSettings
from deploy.haproxy import COOKIE as REPLICA_COOKIE
from deploy.haproxy import haproxy_binary
from deploy.process import LiveServer
from deploy.redis_server import redis_binary
from deploy.replicas import Cluster, Replica
from server.class_check import WAIT
from tests.live_app import free_port

pytestmark = pytest.mark.browser

#: A student whose page has not followed within this has not followed: one run on a replica
#: that shares two cores with three browsers took 3 to 4 s at a load average of 12, and a run
#: lost on the way is asked for again 4 to 6 s later (``RETRY_SECONDS``, a fifth either side),
#: then 8 to 12 s after that: 20 s leaves room for one lost run and a slow one. How fast
#: students follow (the issue's promise: within 2 s, as a rule) is a speed goal, measured by
#: ``classroom_load.classroom --class-mode``, never asserted here; this module only records its
#: delays in ``follow.json``.
FOLLOW_LIMIT_S = 20.0
#: A student on a dead replica: HAProxy notices within about 2 s, the client retries on its own.
RECONNECT_LIMIT_S = 30.0
START_TIMEOUT_S = 150.0
OPEN_TIMEOUT_MS = 120_000
RUN_TIMEOUT_MS = 60_000
ARTIFACT = Path(__file__).resolve().parents[1] / "artifacts" / "class" / "follow.json"

SINGLE_TREE = "Single tree"
STEP_DEFAULT = GrowStepSettings.entries["step"].defaults[GrowStepSettings.key]
STEP_PAGE = "Grow it step by step"

# A watcher per page: ``window.__watch(name, predicate)`` checks ``predicate()`` every 20 ms
# and notes in ``window.__seen[name]`` the first moment it holds.
WATCHER = """() => {
  if (window.__watch) return;
  window.__seen = {};
  window.__watch = (name, predicate) => {
    delete window.__seen[name];
    const timer = setInterval(() => {
      let held = false;
      try { held = predicate(); } catch (error) { held = false; }
      if (held) { window.__seen[name] = Date.now(); clearInterval(timer); }
    }, 20);
  };
}"""
# Helpers the predicates use: a query parameter of the address, a select slider's thumb, and
# the page's title.
PREDICATE_HELPERS = """
const param = (name) => new URL(location.href).searchParams.get(name);
const thumb = (key) => {
  const shown = document.querySelector(`.st-key-${key} [data-testid="stSliderThumbValue"]`);
  return shown ? shown.innerText.trim() : null;
};
const title = () => { const h = document.querySelector("h1"); return h ? h.innerText.trim() : ""; };
const settled = () => {
  const app = document.querySelector('[data-testid="stApp"]');
  return app !== null && app.dataset.testScriptState === "notRunning"
    && app.dataset.testConnectionState === "CONNECTED"
    && document.querySelector('[data-stale="true"], [data-testid="stStatusWidget"]') === null;
};
"""
# Every change of the app's connection state, with the browser's clock (as in test_failover).
WATCH_CONNECTION = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  window.__states = [];
  const record = () => window.__states.push(
    [Date.now(), app.dataset.testConnectionState, app.dataset.testScriptState]);
  record();
  new MutationObserver(record).observe(app, {attributes: true});
}"""
LEFT_AND_BACK = """() => {
  const states = window.__states;
  const left = states.findIndex((s) => s[1] !== "CONNECTED");
  return left >= 0 && states.slice(left).some((s) => s[1] === "CONNECTED");
}"""
SETTLED = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  return app !== null && app.dataset.testScriptState === "notRunning"
    && app.dataset.testConnectionState === "CONNECTED"
    && document.querySelector('[data-stale="true"], [data-testid="stStatusWidget"]') === null
    && document.querySelector("h1") !== null;
}"""


@dataclass
class Seat:
    """One browser in the class: its context (cookies), its tab and its replica."""

    role: str
    context: Any
    app: AppPage

    @property
    def page(self) -> Any:
        return self.app.page

    def replica(self) -> str:
        """The replica HAProxy's cookie pins this browser to (``r1``, ``r2``)."""
        values = [c["value"] for c in self.context.cookies() if c["name"] == REPLICA_COOKIE]
        return values[-1] if values else ""

    def class_cookie(self, prefix: str = "", timeout_s: float = RUN_TIMEOUT_MS / 1000) -> str:
        """The class cookie, once it starts with ``prefix``: the server sets it in answer to a
        request the page makes after its run, so it can come a moment after the page shows
        the class."""
        deadline = time.monotonic() + timeout_s
        while True:
            cookies = self.context.cookies()
            values = [c["value"] for c in cookies if c["name"] == "arboretum_class"]
            value = values[-1] if values else ""
            if value.startswith(prefix) or time.monotonic() > deadline:
                return value
            time.sleep(0.1)

    def href(self) -> str:
        # After st.switch_page Playwright's page.url stays behind; the document knows.
        href: str = self.page.evaluate("() => location.href")
        return href

    def sidebar(self) -> str:
        text: str = self.page.locator('[data-testid="stSidebar"]').inner_text()
        return text

    def settle(self, timeout: float = RUN_TIMEOUT_MS) -> None:
        self.page.wait_for_function(SETTLED, timeout=timeout)

    def watch(self, name: str, predicate: str) -> None:
        """Note the first moment ``predicate`` (a JavaScript expression) holds on this page."""
        self.page.evaluate(WATCHER)
        self.page.evaluate(
            f"() => {{ {PREDICATE_HELPERS}\n window.__watch({json.dumps(name)}, "
            f"() => ({predicate})); }}"
        )

    def seen(self, name: str, timeout_s: float) -> float:
        """The browser's time (ms) when the watched ``name`` first held; waits for it."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        try:
            self.page.wait_for_function(
                "(name) => window.__seen && window.__seen[name] !== undefined",
                arg=name,
                timeout=timeout_s * 1000,
            )
        except PlaywrightTimeout:
            raise AssertionError(
                f"{self.role}: {name!r} did not happen within {timeout_s} s; the page is at "
                f"{self.href()}, its sidebar says:\n{self.sidebar()}"
            ) from None
        when: float = self.page.evaluate("(name) => window.__seen[name]", name)
        return when

    def now(self) -> float:
        when: float = self.page.evaluate("() => Date.now()")
        return when


@dataclass
class Lesson:
    """The module's cluster, its three browsers, and what was measured along the way."""

    cluster: Cluster
    teacher: Seat
    students: list[Seat]
    code: str = ""
    steps_done: int = 0
    delays_s: list[float] = field(default_factory=list)
    follow_s: dict[str, list[float]] = field(default_factory=dict)
    timings_s: dict[str, float] = field(default_factory=dict)

    @property
    def everyone(self) -> list[Seat]:
        return [self.teacher, *self.students]

    def step(self, number: int) -> None:
        """Step ``number`` of the lesson starts: skipped when one before it did not finish
        (that one's failure is the one to read)."""
        if self.steps_done != number - 1:
            pytest.skip(f"step {self.steps_done + 1} of the lesson did not finish")

    def replica(self, name: str) -> Replica:
        return next(replica for replica in self.cluster.replicas if replica.name == name)

    def teacher_moves(
        self, name: str, predicate: str, act: Any, *, within: float, students: str = ""
    ) -> list[float]:
        """The teacher does ``act()``; returns each student's delay (s) after the teacher's
        own page reached ``predicate``, which every page watches for (the students' pages
        ``students`` instead, when given).

        Also noted, not returned: the delay until each student's page has also finished its
        run (every chart drawn), after the teacher's own did.
        """
        drawn = f"{name}, page drawn"
        for seat in self.everyone:
            held = students if students and seat is not self.teacher else predicate
            seat.watch(name, held)
            seat.watch(drawn, f"({predicate}) && settled()")
        acted = self.teacher.now()
        act()
        shown = self.teacher.seen(name, RUN_TIMEOUT_MS / 1000)
        followed = [seat.seen(name, within + (shown - acted) / 1000) for seat in self.students]
        delays = [round((when - shown) / 1000, 2) for when in followed]
        self.follow_s[name] = delays
        self.delays_s.extend(delays)
        self.follow_s[f"{name}, from the action"] = [round((w - acted) / 1000, 2) for w in followed]
        self.timings_s[f"{name}: teacher's own change"] = round((shown - acted) / 1000, 2)
        teacher_drawn = self.teacher.seen(drawn, RUN_TIMEOUT_MS / 1000)
        students_drawn = [seat.seen(drawn, RUN_TIMEOUT_MS / 1000) for seat in self.students]
        self.follow_s[drawn] = [round((when - teacher_drawn) / 1000, 2) for when in students_drawn]
        return delays


def depth_is(depth: int) -> str:
    return f"param('max_depth') === '{depth}' && thumb('max_depth') === '{depth}'"


def step_is(step: int) -> str:
    shown = f"(thumb('step') || '').startsWith('{step} of ')"
    # A link leaves out the page's default, and the step page opens at its first split.
    linked = f"param('step') === {json.dumps(None if step == STEP_DEFAULT else str(step))}"
    return f"title() === '{STEP_PAGE}' && {linked} && {shown}"


def open_seat(browser: Any, cluster: Cluster, role: str, url: str) -> Seat:
    """A new browser (its own cookies, so its own session) at ``url``, its first run over."""
    context = browser.new_context(viewport=VIEWPORT)
    front = LiveServer(cluster.balancer.process, cluster.url, cluster.balancer.log)
    seat = Seat(role, context, AppPage(context.new_page(), front))
    seat.page.goto(url)
    seat.settle(OPEN_TIMEOUT_MS)
    return seat


def warm_up(browser: Any, cluster: Cluster) -> None:
    """Open the step page once on each replica, straight, not through HAProxy: a replica's
    first run of a page imports its modules and loads its compiled loops, a cost each process
    pays once, before any class, and not what following the teacher costs."""
    contexts = [browser.new_context(viewport=VIEWPORT) for _ in cluster.replicas]
    try:
        pages = [context.new_page() for context in contexts]
        for page, replica in zip(pages, cluster.replicas, strict=True):
            page.goto(f"{replica.url}/Grow_it_step_by_step")
        for page in pages:
            page.wait_for_function(SETTLED, timeout=OPEN_TIMEOUT_MS)
    finally:
        for context in contexts:
            context.close()


@pytest.fixture(scope="module")
def lesson(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lesson]:
    # ``browser`` is the session's Chromium: it fails when Chromium is missing and skips
    # under ARBORETUM_SKIP_BROWSER=1.
    if haproxy_binary() is None or redis_binary() is None:
        pytest.fail("HAProxy and redis-server are needed: bash .ci/system-deps.sh", pytrace=False)
    ports: list[int] = []
    while len(ports) < 4:
        port = free_port()
        if port not in ports:
            ports.append(port)
    began = time.monotonic()
    try:
        cluster = Cluster.start(
            ports[1:3],
            ports[0],
            tmp_path_factory.mktemp("class-cluster"),
            bind="127.0.0.1",
            timeout=START_TIMEOUT_S,
            redis_port=ports[3],
        )
    except RuntimeError as error:
        pytest.fail(str(error), pytrace=False)
    seats: list[Seat] = []
    try:
        warm_up(browser, cluster)
        started = time.monotonic()
        teacher = open_seat(browser, cluster, "teacher", f"{cluster.url}/Single_tree")
        seats.append(teacher)
        lesson = Lesson(cluster, teacher, [])
        lesson.timings_s["start the cluster"] = round(started - began, 1)
        lesson.timings_s["open the teacher's page"] = round(time.monotonic() - started, 1)
        yield lesson
        seats.extend(lesson.students)
        ARTIFACT.parent.mkdir(parents=True, exist_ok=True)
        ARTIFACT.write_text(
            json.dumps({"follow_s": lesson.follow_s, "timings_s": lesson.timings_s}, indent=2)
        )
        print(f"\nclass follow delays (s): {lesson.follow_s}\ntimings (s): {lesson.timings_s}")
        logs = "".join(r.process.log.read_text(errors="replace") for r in cluster.replicas)
        if "Uncaught app execution" in logs or "Traceback" in logs:
            pytest.fail(f"a replica raised:\n{logs[-4000:]}", pytrace=False)
    finally:
        for seat in seats:
            seat.context.close()
        cluster.stop()


def shoot(seat: Any, dirs: list[Path], name: str) -> None:
    """The seat's screen as the projector shows it (1280x720), for the README."""
    for folder in dirs:
        folder.mkdir(parents=True, exist_ok=True)
        seat.page.screenshot(path=str(folder / name))


def test_the_teacher_starts_a_class_and_two_students_join_on_both_replicas(
    lesson: Lesson, browser: Any, screenshot_dirs: list[Path]
) -> None:
    lesson.step(1)
    teacher = lesson.teacher
    teacher.page.get_by_text("Class mode", exact=True).click()
    teacher.page.locator(".st-key-class-start button").click()
    teacher.page.wait_for_function(
        "() => document.querySelector('[data-testid=\"stSidebar\"]').innerText"
        ".includes('You teach class')",
        timeout=RUN_TIMEOUT_MS,
    )
    found = re.search(r"You teach class\s+([A-Z0-9]{6})", teacher.sidebar())
    assert found is not None, teacher.sidebar()
    lesson.code = found.group(1)
    assert teacher.class_cookie(f"t.{lesson.code}.").startswith(f"t.{lesson.code}.")

    # The join link the projector shows: through HAProxy, as the students' browsers see it.
    teacher.page.locator(".st-key-class-show-code").get_by_role("button", name="Code").click()
    dialog = teacher.page.get_by_role("dialog")
    dialog.locator('[data-testid="stImage"] img').wait_for(timeout=RUN_TIMEOUT_MS)
    link = dialog.locator('[data-testid="stCode"]').inner_text().strip()
    assert link == f"{lesson.cluster.url}/?class={lesson.code}"
    assert " ".join(lesson.code) in dialog.inner_text()
    shoot(teacher, screenshot_dirs, "class-code.png")
    teacher.page.keyboard.press("Escape")
    dialog.wait_for(state="hidden", timeout=10_000)

    began = time.monotonic()
    for n in (1, 2):
        student = open_seat(browser, lesson.cluster, f"student {n}", link)
        lesson.students.append(student)
        # The join link opens the home page; the student's session moves to the teacher's.
        student.page.wait_for_function(
            f"() => {{ {PREDICATE_HELPERS} return title() === '{SINGLE_TREE}'; }}",
            timeout=RUN_TIMEOUT_MS,
        )
        student.settle()
        assert f"Class {lesson.code}" in student.sidebar()
        assert student.page.locator(".st-key-class-follow input").is_checked()
        assert student.class_cookie(f"s.{lesson.code}.").startswith(f"s.{lesson.code}.")
    lesson.timings_s["two students join"] = round(time.monotonic() - began, 1)

    replicas = [seat.replica() for seat in lesson.everyone]
    assert set(replicas) == {"r1", "r2"}, f"teacher and students on {replicas}"
    assert replicas[1] != replicas[0], "HAProxy sends the first student to the idle replica"
    teacher.page.wait_for_function(
        "() => document.querySelector('[data-testid=\"stSidebar\"]').innerText"
        ".includes('2 students in the class')",
        timeout=10_000,
    )
    lesson.steps_done = 1


def test_students_follow_the_teachers_depth_page_and_step(lesson: Lesson) -> None:
    lesson.step(2)
    teacher = lesson.teacher
    before = int(teacher.app.slider_value("max_depth"))

    def nudge() -> None:
        teacher.app.nudge_slider("max_depth")

    delays = lesson.teacher_moves("max_depth", depth_is(before + 1), nudge, within=FOLLOW_LIMIT_S)
    assert max(delays) <= FOLLOW_LIMIT_S, lesson.follow_s

    def open_step_page() -> None:
        teacher.page.locator(".st-key-app-navigation a", has_text=STEP_PAGE).click()

    # The teacher's page is the class's once its run publishes it: just after the step slider
    # is drawn (the address and the title change at the click). A student's page has followed
    # once its address and title are the step page's: its session runs that page, and how
    # soon its charts are drawn is the browser's and the replica's load ("page drawn").
    on_step_page = (
        f"location.pathname.endsWith('/Grow_it_step_by_step') && title() === '{STEP_PAGE}'"
    )
    delays = lesson.teacher_moves(
        "step page",
        f"{on_step_page} && thumb('step') !== null",
        open_step_page,
        within=FOLLOW_LIMIT_S,
        students=on_step_page,
    )
    assert max(delays) <= FOLLOW_LIMIT_S, lesson.follow_s
    for seat in lesson.students:
        assert "/Grow_it_step_by_step" in seat.href()

    def first() -> None:
        teacher.page.locator(".st-key-step-first button").click()

    delays = lesson.teacher_moves("step 0", step_is(0), first, within=FOLLOW_LIMIT_S)
    assert max(delays) <= FOLLOW_LIMIT_S, lesson.follow_s

    def next_step() -> None:
        teacher.page.locator(".st-key-step-next button").click()

    delays = lesson.teacher_moves("step 1", step_is(1), next_step, within=FOLLOW_LIMIT_S)
    assert max(delays) <= FOLLOW_LIMIT_S, lesson.follow_s
    for seat in lesson.everyone:
        assert seat.app.exceptions() == [], (seat.role, seat.app.exceptions())
    lesson.steps_done = 2


def test_a_poll_gets_both_answers_and_is_revealed(
    lesson: Lesson, screenshot_dirs: list[Path]
) -> None:
    lesson.step(3)
    teacher = lesson.teacher
    # By its role: the key's container also holds a hidden copy of the button (its tooltip's).
    ask = teacher.page.locator(".st-key-class-ask-split").get_by_role(
        "button", name=re.compile(r"Ask the class: where will node \d+ split\?")
    )
    ask.click()
    teacher.page.locator(".st-key-class-split-poll").wait_for(timeout=RUN_TIMEOUT_MS)
    for seat in lesson.students:
        send = seat.page.locator(".st-key-class-split-poll button", has_text="Send my answer")
        send.wait_for(timeout=RUN_TIMEOUT_MS)
        assert "Hidden while the class answers" in seat.page.locator("body").inner_text()
        send.click()
        seat.page.locator(".st-key-class-split-poll", has_text="Sent:").wait_for(
            timeout=RUN_TIMEOUT_MS
        )
    # The teacher's count is a fragment redrawn every 2 s.
    teacher.page.locator(".st-key-class-split-poll", has_text="2 answers").wait_for(
        timeout=RUN_TIMEOUT_MS
    )
    assert teacher.app.chart_traces("class-split-chart") >= 1, "no histogram of the answers"
    teacher.page.locator(".st-key-class-reveal-split button").click()
    for seat in lesson.students:
        seat.page.locator(".st-key-class-split-poll", has_text="You answered").wait_for(
            timeout=10_000
        )
        assert "Hidden while the class answers" not in seat.page.locator("body").inner_text()
    # Revealed: the teacher's button is gone and the chart draws the curve over the answers.
    teacher.page.locator(".st-key-class-reveal-split").wait_for(state="detached", timeout=10_000)
    teacher.settle()
    shoot(teacher, screenshot_dirs, "class-poll-teacher.png")
    shoot(lesson.students[0], screenshot_dirs, "class-poll-student.png")
    lesson.steps_done = 3


def test_a_student_whose_replica_dies_reconnects_and_still_follows(lesson: Lesson) -> None:
    lesson.step(4)
    teacher_replica = lesson.teacher.replica()
    moved = next(seat for seat in lesson.students if seat.replica() != teacher_replica)
    victim = lesson.replica(moved.replica())
    for seat in lesson.everyone:
        seat.page.evaluate(WATCH_CONNECTION)
    killed = moved.now()
    os.killpg(victim.process.pid, signal.SIGKILL)
    moved.page.wait_for_function(LEFT_AND_BACK, timeout=RECONNECT_LIMIT_S * 1000)
    states = moved.page.evaluate("() => window.__states")
    left = next(i for i, s in enumerate(states) if s[1] != "CONNECTED")
    back = next(s for s in states[left:] if s[1] == "CONNECTED")
    lesson.timings_s["a student reconnects after its replica died"] = round(
        (back[0] - killed) / 1000, 2
    )
    assert moved.replica() == teacher_replica  # HAProxy rewrote the cookie

    step = int(lesson.teacher.app.slider_value("step").split(" of ")[0])

    def next_step() -> None:
        lesson.teacher.page.locator(".st-key-step-next button").click()

    # The live replica never saw this student: its cookie gave the seat back when the client
    # reconnected (and reran the page), so it follows as fast as before.
    delays = lesson.teacher_moves("after the failover", step_is(step + 1), next_step, within=30)
    assert max(delays) <= FOLLOW_LIMIT_S, lesson.follow_s
    assert f"Class {lesson.code}" in moved.sidebar()
    assert moved.page.locator(".st-key-class-follow input").is_checked()
    lesson.steps_done = 4


def test_the_teacher_and_a_student_reload_and_keep_their_seats(lesson: Lesson) -> None:
    lesson.step(5)
    teacher = lesson.teacher
    teacher.page.reload()
    teacher.settle(OPEN_TIMEOUT_MS)
    assert f"You teach class {lesson.code}" in " ".join(teacher.sidebar().split())
    student = lesson.students[0]
    student.page.reload()
    student.settle(OPEN_TIMEOUT_MS)
    assert f"Class {lesson.code}" in student.sidebar()
    assert student.page.locator(".st-key-class-follow input").is_checked()

    step = int(teacher.app.slider_value("step").split(" of ")[0])

    def next_step() -> None:
        teacher.page.locator(".st-key-step-next button").click()

    delays = lesson.teacher_moves(
        "after the reloads", step_is(step + 1), next_step, within=FOLLOW_LIMIT_S
    )
    assert max(delays) <= FOLLOW_LIMIT_S, lesson.follow_s
    for seat in lesson.everyone:
        assert seat.app.exceptions() == [], (seat.role, seat.app.exceptions())
        assert seat.app.page_errors == [], (seat.role, seat.app.page_errors)
    lesson.steps_done = 5


def test_a_students_page_checks_the_class_over_http(lesson: Lesson) -> None:
    """The students' pages ask ``/api/class/CODE?seen=V`` (serve.py's check, which costs no
    Streamlit run): the server holds the question until the class moves, at most ``WAIT`` s,
    and answers the class's version."""
    lesson.step(6)
    for seat in lesson.students:
        with seat.page.expect_response(
            lambda response: "/api/class/" in response.url, timeout=(WAIT + 4) * 1000
        ) as asked:
            pass
        response = asked.value
        assert response.status == 200
        assert response.url.split("?")[0].endswith(f"/api/class/{lesson.code}")
        assert isinstance(response.json()["version"], int)
        assert f"seen={response.json()['version']}" in response.url  # nothing new: it waited
    lesson.steps_done = 6


def test_a_student_who_steps_on_alone_stops_following_and_the_toggle_says_so(
    lesson: Lesson,
) -> None:
    """The step bar reruns its part of the page alone (a fragment), yet a follower who moves
    it leaves the teacher's view as after any other move: the sidebar's toggle turns off."""
    lesson.step(7)
    student = lesson.students[-1]
    assert student.page.locator(".st-key-class-follow input").is_checked()
    step = int(student.app.slider_value("step").split(" of ")[0])
    student.page.locator(".st-key-step-next button").click()
    student.page.wait_for_function(
        "() => !document.querySelector('.st-key-class-follow input').checked",
        timeout=RUN_TIMEOUT_MS,
    )
    student.settle()
    assert int(student.app.slider_value("step").split(" of ")[0]) == step + 1
    assert "explore on your own" in student.page.locator("body").inner_text()
    assert int(lesson.teacher.app.slider_value("step").split(" of ")[0]) == step
    assert student.app.exceptions() == [], student.app.exceptions()
    lesson.steps_done = 7


@pytest.mark.parametrize(
    "viewport", [PROJECTOR, LARGE, PHONE], ids=["1280x720", "1920x1080", "390x844"]
)
def test_a_students_move_turns_the_toggle_off_at_once_and_one_click_follows_again(
    browser: Any, server: LiveServer, viewport: dict[str, int]
) -> None:
    """On one served app (no cluster, so it runs alone): a student who moves a control sees
    the toggle off and "explore on your own" when that move's run is over, not only after the
    teacher's next change, and one click on the toggle opens the teacher's view again; on the
    student's screen of each size (a phone's sidebar, with the toggle, opens from its button)."""
    with tab(browser, server) as teacher, tab(browser, server, viewport=viewport) as student:
        code = start_class(teacher, "/Single_tree")
        before = int(teacher.slider_value("max_depth"))
        teacher.nudge_slider("max_depth")
        teacher.page.wait_for_function(
            f"() => {{ {PREDICATE_HELPERS} return {depth_is(before + 1)} && settled(); }}",
            timeout=RUN_TIMEOUT_MS,
        )

        student.open(f"/?class={code}", ())
        student.page.wait_for_function(
            f"() => {{ {PREDICATE_HELPERS} return {depth_is(before + 1)} && settled(); }}",
            timeout=RUN_TIMEOUT_MS,
        )
        show_sidebar(student)
        follow = student.page.locator(".st-key-class-follow input")
        sidebar = student.page.locator('[data-testid="stSidebar"]')
        toggle = student.page.locator(".st-key-class-follow label").bounding_box()
        assert toggle is not None and toggle["x"] + toggle["width"] <= viewport["width"], toggle
        assert follow.is_checked()
        assert "Your page follows the teacher's" in sidebar.inner_text()

        student.nudge_slider("max_depth")
        student.page.locator('[data-testid="stToast"]', has_text="explore on your own").wait_for(
            timeout=RUN_TIMEOUT_MS
        )
        student.page.wait_for_function(
            f"() => {{ {PREDICATE_HELPERS} return {depth_is(before + 2)} && settled(); }}",
            timeout=RUN_TIMEOUT_MS,
        )
        student.settle()
        assert not follow.is_checked(), "the toggle still says the page follows the teacher"
        assert "You explore on your own" in sidebar.inner_text()
        assert "Your page follows the teacher's" not in sidebar.inner_text()

        student.page.locator(".st-key-class-follow label").click()  # one click
        student.page.wait_for_function(
            f"() => {{ {PREDICATE_HELPERS} return {depth_is(before + 1)} && settled(); }}",
            timeout=RUN_TIMEOUT_MS,
        )
        student.settle()
        assert follow.is_checked()
        assert "Your page follows the teacher's" in sidebar.inner_text()
        for app in (teacher, student):
            app.assert_healthy()
