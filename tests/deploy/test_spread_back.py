"""A class spreads back over the replicas after one returns, and still follows its teacher.

The real thing end to end: ``python -m deploy.replicas`` with two replicas behind HAProxy and
Redis, a teacher and seven students as Streamlit's protocol client (``classroom_load``), each
reconnecting as the browser does when its websocket closes. One replica is killed: everyone
ends on the other. It is started again (same command, same environment): within
:data:`SPREAD_LIMIT_S` the sessions are spread again, each moved one keeping its URL (its view
and its seat), none moved twice, and a teacher's move still reaches every student.

Without the replicas letting sessions go (``server/rebalance.py``) and HAProxy placing their
reconnects by ``leastconn`` (``deploy/haproxy.cfg.in``), the class stays on the replica that
survived and the test fails on the spread.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import signal
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from launched import Launched, environment

from classroom_load.class_members import Member, caught_up, class_code, wait_all
from classroom_load.classroom_students import new_value
from classroom_load.page_check import PageCheck
from classroom_load.st_client import StudentSession, cookie_header, cookies_set
from classroom_load.st_reader import Run
from core.app import settings as app_settings
from core.app.lessons import classroom_links
from deploy.haproxy import COOKIE
from deploy.process import LiveServer
from server.health import HEALTH_PORT_VARIABLE

STUDENTS = 7
COOKIE_POST = re.compile(r'fetch\("(/api/class-cookie/[^"]+)"')
TIMEOUT = 120.0
#: Every session back on the survivor: the failover's own bound (test_failover.py).
FAILOVER_LIMIT_S = 30.0
#: From the returned replica answering its health check to the class spread again.
SPREAD_LIMIT_S = 60.0
#: A replica's start on two shared, busy cores (the launcher allows as much).
START_LIMIT_S = 150.0
#: Every student shows the teacher's move.
FOLLOW_LIMIT_S = 30.0


@dataclass(frozen=True)
class Move:
    """A session that reconnected: who, from which replica to which, when."""

    who: int
    before: str
    after: str
    at: float


def replica_of(member: Member) -> str:
    return member.session.cookies.get(COOKIE, "")


def per_replica(members: list[Member]) -> dict[str, int]:
    found: dict[str, int] = {}
    for member in members:
        found[replica_of(member)] = found.get(replica_of(member), 0) + 1
    return found


def even(counts: dict[str, int], sessions: int) -> bool:
    """Whether both replicas hold within one of half the sessions."""
    return len(counts) == 2 and all(abs(2 * n - sessions) <= 2 for n in counts.values())


async def keep_connected(member: Member, moves: list[Move]) -> None:
    """What Streamlit's client does when its websocket closes: connect again at once, same
    URL, same cookies (the balancer's among them)."""
    session = member.session
    while True:
        await asyncio.sleep(0.1)
        if session.closed_by:
            before = replica_of(member)
            await session.reconnect(give_up_after=TIMEOUT)
            moves.append(Move(member.who, before, replica_of(member), time.monotonic()))


async def until(done: Callable[[], bool], seconds: float, what: Callable[[], str]) -> float:
    """Seconds until ``done()``; past ``seconds``, fails saying ``what()`` is not so."""
    began = time.monotonic()
    while not done():
        if time.monotonic() - began > seconds:
            raise AssertionError(f"not within {seconds:g} s: {what()}")
        await asyncio.sleep(0.2)
    return time.monotonic() - began


def answers(port: int) -> bool:
    url = f"http://127.0.0.1:{port}/health"
    with contextlib.suppress(OSError), urllib.request.urlopen(url, timeout=2) as reply:
        return bool(reply.read() == b"ok")
    return False


@pytest.fixture
def restarted() -> Iterator[list[LiveServer]]:
    """The replica the test starts again (the launcher does not restart one), stopped after."""
    started: list[LiveServer] = []
    yield started
    for server in started:
        server.stop()


def keeps_class_cookie(member: Member, url: str) -> Callable[[Run], None]:
    """What the browser does with the line of script a run draws to have its class cookie
    set (``core/ui/classroom/panel.py``): post the ticket with its cookies, keep the answer's.
    The seat lives in that cookie: a session that starts on another replica takes it back."""
    posted: set[str] = set()

    def post(path: str) -> None:
        session = member.session
        request = urllib.request.Request(
            url + path, method="POST", headers={"Cookie": cookie_header(session.cookies)}
        )
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
            session.cookies = cookies_set(session.cookies, answer.headers.get_all("Set-Cookie"))

    def saw(run: Run) -> None:
        member.record(run)
        for element in run.elements:
            found = COOKIE_POST.search(element.html.body) if element.HasField("html") else None
            if found and found.group(1) not in posted:
                posted.add(found.group(1))
                post(found.group(1))

    return saw


async def seated(url: str, who: int, link: str, query: dict[str, str]) -> Member:
    """A session that opens ``link`` with ``query``, its page's check and class cookie kept."""
    member = Member(who, StudentSession(url, timeout=TIMEOUT))
    if who >= 0:  # a student's page checks the class (the teacher is -1)
        member.check = PageCheck(member.session)
    member.session.on_run = keeps_class_cookie(member, url)
    await member.session.connect()
    await member.session.open(link, query)
    return member


async def teach(url: str) -> tuple[Member, list[Member]]:
    """A teacher who starts a class on the first lesson's link, and students who join it."""
    link = classroom_links(app_settings.default_catalogue())[0]
    query = app_settings.to_query(link.settings)
    teacher = await seated(url, -1, link.page.url_path, query)
    code = class_code(await teacher.session.change("class-start", True))
    students = [await seated(url, who, "", {"class": code}) for who in range(STUDENTS)]
    view = (teacher.session.page_hash, teacher.session.query)
    await wait_all(
        students, lambda m: caught_up(m.seen, 0, *view) is not None, time.monotonic() + 60
    )
    return teacher, students


async def scenario(launched: Launched, restarted: list[LiveServer], log_dir: Path) -> None:
    teacher, students = await teach(launched.url)
    members = [teacher, *students]
    moves: list[Move] = []
    keepers = [asyncio.create_task(keep_connected(m, moves)) for m in members]
    try:
        assert len(per_replica(members)) == 2, per_replica(members)  # leastconn spread them
        queries = {m.who: m.session.query for m in members}

        # 1. One replica dies: every session ends on the other.
        victim = min(launched.replicas)
        port, pid = launched.replicas[victim]
        command = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")[:-1]
        env = environment(pid)
        os.killpg(pid, signal.SIGKILL)
        await until(
            lambda: all(replica_of(m) != victim and not m.session.closed_by for m in members),
            FAILOVER_LIMIT_S,
            lambda: f"every session off {victim}: {per_replica(members)}",
        )

        # 2. It comes back: within the limit, the class is spread again.
        failed_over = len(moves)
        again = log_dir / f"{victim}-again.log"
        restarted.append(LiveServer.launch(command, f"http://127.0.0.1:{port}", again, env=env))
        health = int(env[HEALTH_PORT_VARIABLE])
        await until(lambda: answers(health), START_LIMIT_S, lambda: f"{victim} answering")
        seconds = await until(
            lambda: (
                even(per_replica(members), len(members))
                and not any(m.session.closed_by for m in members)
            ),
            SPREAD_LIMIT_S,
            lambda: f"the class spread again: {per_replica(members)}, moves {moves[failed_over:]}",
        )
        back = moves[failed_over:]
        print(f"spread again {seconds:.1f} s after {victim} answered; moves back: {back}")

        # Each went back once, to the returned replica; no herd: only as many as needed.
        assert len({move.who for move in back}) == len(back), back
        assert {(move.before, move.after) for move in back} <= {(m.before, victim) for m in back}
        assert len(back) <= len(members) // 2 + 1, back

        # 3. Every session kept its URL (view and seat), and the class still follows.
        await asyncio.sleep(1.0)  # the reconnected pages' first runs
        assert {m.who: m.session.query for m in members} == queries
        assert all(m.following() for m in students), [m.who for m in students if not m.following()]
        moved_at = time.monotonic()
        depth = teacher.session.last.widgets()["max_depth"] if teacher.session.last else None
        assert depth is not None
        await teacher.session.change(
            "max_depth", new_value(depth, teacher.session.shown("max_depth"), random.Random(4))
        )
        view = (teacher.session.page_hash, teacher.session.query)
        await wait_all(
            students,
            lambda m: caught_up(m.seen, moved_at, *view) is not None,
            time.monotonic() + FOLLOW_LIMIT_S,
        )
        behind = [m.who for m in students if caught_up(m.seen, moved_at, *view) is None]
        assert behind == [], f"students not showing the teacher's move: {behind}"
    finally:
        for keeper in keepers:
            keeper.cancel()
        for member in members:
            await member.session.close()
            if member.check is not None:
                member.check.stop()


def test_a_class_spreads_back_after_a_replica_returns(
    launcher: Callable[[int], Launched], restarted: list[LiveServer], tmp_path: Path
) -> None:
    launched = launcher(2)
    asyncio.run(scenario(launched, restarted, tmp_path))
