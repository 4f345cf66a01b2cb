"""A follower's page on a server started as ``make run`` starts it (``serve.py``), driven through
Streamlit's own protocol (``classroom_load.st_client``) as a browser drives it.

Under load a follower's browser asks for the run that opens the teacher's view a second time
(``class_check.js`` asks again after ``retry`` ms when the first run is slow to show). The
second request stops the first run on the server, and it carries every widget value the
browser still shows: the ones from before the teacher's move. That run must still open the
teacher's view, and the student must still follow. (A fresh-clone CI run once left a student
on the step page's old step this way.)
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qsl

import pytest

from classroom_load.class_members import class_code
from classroom_load.page_check import drawn_check
from classroom_load.st_client import StudentSession
from deploy.process import LiveServer
from tests.live_app import free_port, run_beside_playwright, streamlit_command

SERVE = Path(__file__).resolve().parents[2] / "serve.py"
#: Seconds between the two asks: from "both at once" to "the first run has long finished".
GAPS = (0.0, 0.01, 0.02, 0.03, 0.05, 0.08, 0.12, 0.2)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    log = tmp_path_factory.mktemp("served") / "server.log"
    with LiveServer.start(streamlit_command(SERVE, port), port, log) as server:
        yield server.url


def _step(session: StudentSession) -> str | None:
    return dict(parse_qsl(session.query)).get("step")


def _follows(session: StudentSession) -> bool:
    assert session.last is not None
    return any("Your page follows the teacher's" in text for text in session.last.texts())


async def _settled(session: StudentSession) -> None:
    """Wait until the last run the session started has finished and no other follows it."""
    while True:
        started = session.page_runs
        await session.wait_for(
            lambda run, last=started: run.whole_page and run.number >= last, timeout=60
        )
        await asyncio.sleep(0.5)
        if session.page_runs == started:
            return


async def _asked_twice(url: str) -> list[tuple[float, str | None, str | None, bool]]:
    """The teacher moves the step; the student's check asks twice, ``gap`` seconds apart, the
    second time with the step the student's page showed before. Returns, per gap, the
    teacher's step, the student's, and whether the student still follows."""
    teacher = await StudentSession(url, timeout=60).connect()
    student = await StudentSession(url, timeout=60).connect()
    seen = []
    try:
        await teacher.open("Grow_it_step_by_step", {"dataset": "wine"})
        code = class_code(await teacher.change("class-start", True))
        await student.open("", {"class": code})
        await student.wait_for(lambda run: run.whole_page and "step" in run.widgets())
        for number, gap in enumerate(GAPS):
            await teacher.change("step-first" if number % 2 == 0 else "step-next", True)
            assert student.last is not None
            before = student.last.widgets()["step"]
            student.fill("step", student.shown("step"))  # a browser sends what it shows
            check = drawn_check(student.last)
            assert check is not None, "a follower's sidebar holds the check"
            await student.trigger(check[0], "moved", {"version": -1, "serial": 2 * number})
            await asyncio.sleep(gap)
            await student.trigger(check[0], "moved", {"version": -1, "serial": 2 * number + 1})
            await _settled(student)
            assert before.id == student.last.widgets()["step"].id
            seen.append((gap, _step(teacher), _step(student), _follows(student)))
    finally:
        await student.close()
        await teacher.close()
    return seen


def test_a_run_asked_again_with_the_old_values_still_opens_the_teachers_view(served: str) -> None:
    seen = run_beside_playwright(_asked_twice(served))
    assert len(seen) == len(GAPS)
    wrong = [
        (gap, teacher, student, follows)
        for gap, teacher, student, follows in seen
        if student != teacher or not follows
    ]
    assert not wrong, f"(gap, teacher's step, student's step, still following): {wrong}"
