"""The class bench's sessions: a teacher and students as Streamlit's protocol shows them.

Each session of a class (:class:`Member`) records every run it finished (:class:`Seen`), so a
run of the bench can say when a student's page first showed the teacher's view; the functions
here read what a page shows (the class code, a poll's counts) and what broke, for every run of
the bench that teaches a class.
"""

from __future__ import annotations

import asyncio
import base64
import json
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

import numpy as np
import websockets

from classroom_load.page_check import PageCheck
from classroom_load.st_client import StudentSession
from classroom_load.st_reader import ProtocolError, Run
from deploy.haproxy import COOKIE


@dataclass(frozen=True)
class Seen:
    """A run a session finished: when (``time.monotonic``), of what, showing which view."""

    at: float
    whole_page: bool
    page_hash: str
    query: str
    exceptions: tuple[str, ...] = ()
    following: bool = True
    screen: int | None = None


@dataclass
class Member:
    """One session of the class (the teacher is number -1) and every run it finished."""

    who: int
    session: StudentSession
    seen: list[Seen] = field(default_factory=list)
    error: str = ""
    joined_s: float = 0.0
    check: PageCheck | None = None

    def record(self, run: Run) -> None:
        if self.check is not None:
            self.check.saw(run)
        exceptions = tuple(run.exceptions()) if run.whole_page else ()
        # A student's sidebar says whether it follows (a run of a fragment redraws only that).
        alone = run.whole_page and any(t.startswith("You explore on your own") for t in run.texts())
        screen = lesson_screen(run) if run.whole_page else None
        self.seen.append(
            Seen(
                time.monotonic(),
                run.whole_page,
                run.page_hash,
                run.query,
                exceptions,
                not alone,
                screen,
            )
        )

    def following(self) -> bool:
        """Whether the student's last page said it follows the teacher."""
        pages = [s for s in self.seen if s.whole_page]
        return pages[-1].following if pages else True

    def since(self, moment: float) -> list[Seen]:
        return [s for s in self.seen if s.at >= moment]


def lesson_screen(run: Run) -> int | None:
    """The lesson screen (from 1) a page shows in its lesson bar ("screen 2 of 5"), or None."""
    for text in run.texts():
        found = re.search(r"\*\* · screen (\d+) of \d+", text)
        if found:
            return int(found.group(1))
    return None


def same_view(page_a: str, query_a: str, page_b: str, query_b: str) -> bool:
    """Whether two pages show the same view: the same script, the same settings."""
    return page_a == page_b and dict(parse_qsl(query_a)) == dict(parse_qsl(query_b))


def caught_up(seen: list[Seen], since: float, page_hash: str, query: str) -> float | None:
    """Seconds from ``since`` to the first run of the whole page showing the view, or None."""
    for run in seen:
        if (
            run.at >= since
            and run.whole_page
            and same_view(run.page_hash, run.query, page_hash, query)
        ):
            return run.at - since
    return None


def heard(member: Member, since: float) -> float | None:
    """Seconds from ``since`` to the first run ``member``'s check asked for after it: how long
    the student took to hear of a move, before its page ran; None if it asked for none."""
    if member.check is None:
        return None
    return next((at - since for at in member.check.asked_at if at >= since), None)


def class_code(run: Run) -> str:
    """The code the teacher's sidebar shows ("You teach class `KX39P`")."""
    for text in run.texts():
        found = re.search(r"You teach class `([A-Z0-9]+)`", text)
        if found:
            return found.group(1)
    raise ProtocolError("the teacher's page shows no class code")


def choice_counts(run: Run, number: int) -> list[int] | None:
    """The counts the teacher's chart of poll ``number`` shows, or None without the chart."""
    for element in run.elements:
        if element.WhichOneof("type") != "plotly_chart":
            continue
        if not element.plotly_chart.id.endswith(f"class-choice-chart-{number}-plot"):
            continue
        xs = json.loads(element.plotly_chart.spec)["data"][0]["x"]
        if isinstance(xs, dict):  # Plotly's typed array: base64 bytes and a dtype
            xs = np.frombuffer(base64.b64decode(xs["bdata"]), dtype=xs["dtype"]).tolist()
        return [int(x) for x in xs]
    return None


async def wait_all(members: list[Member], done: Callable[[Member], bool], deadline: float) -> None:
    while time.monotonic() < deadline and not all(done(m) for m in members):
        await asyncio.sleep(0.05)


def connections(teacher: Member, students: list[Member]) -> dict[str, int]:
    """What the servers (or the load balancer) refused or broke: websockets they closed,
    answers 503 to the students' checks and to their joins, checks that got no answer."""
    checks = [m.check for m in students if m.check is not None]
    return {
        "websocket_closures": sum(m.session.closures for m in [teacher, *students]),
        "check_503": sum(check.unavailable for check in checks),
        "join_503": sum(1 for m in students if m.error == "join: refused with 503"),
        "checks_failed": sum(check.failed for check in checks),
    }


async def dismiss(
    result: dict[str, Any], teacher: Member, students: list[Member], live: list[Member]
) -> None:
    """End a class taught: the exceptions its students' pages showed (the first five) and what
    the servers closed or refused go into ``result``; every check stops and every session
    closes."""
    result["errors"] += [
        f"exception on student {m.who}'s page: {e}"
        for m in live
        for s in m.seen
        for e in s.exceptions
    ][:5]
    result["connections"] = connections(teacher, students)
    for member in [teacher, *students]:
        if member.check is not None:
            member.check.stop()
        await member.session.close()


def missed_state(member: Member) -> dict[str, Any]:
    """What a student who missed a change was doing: its timers, its last runs."""
    now = time.monotonic()
    return {
        "who": member.who,
        "timers": len(member.session.timers),
        "stopped_early": dict(member.session.stopped_early),
        "retold": member.session.retold,
        "trace": [list(line) for line in member.session.trace][-30:],
        "last_runs": [
            [round(now - s.at, 2), "page" if s.whole_page else "fragment", s.page_hash[:6]]
            for s in member.seen[-4:]
        ],
    }


def students_per_replica(members: list[Member]) -> dict[str, int]:
    """Students per replica, by the load balancer's affinity cookie (empty on one server)."""
    found: dict[str, int] = {}
    for member in members:
        name = member.session.cookies.get(COOKIE)
        if name:
            found[name] = found.get(name, 0) + 1
    return dict(sorted(found.items()))


async def join_class(
    url: str, code: str, students: int, ramp: float, rng: random.Random, timeout: float
) -> list[Member]:
    """``students`` sessions that open the join link (``/?class=CODE``) over ``ramp`` seconds,
    each with the check its page runs, as a class does when the teacher hands out the link.
    A student that could not join keeps why in :attr:`Member.error`."""
    members = [Member(who, StudentSession(url, timeout=timeout)) for who in range(students)]

    async def join(member: Member) -> None:
        await asyncio.sleep(rng.uniform(0, ramp))
        member.check = PageCheck(member.session, rng=random.Random(member.who))
        member.session.on_run = member.record
        began = time.monotonic()
        try:
            await member.session.connect()
            await member.session.open("", {"class": code})
        except (ProtocolError, OSError) as failure:  # TimeoutError is an OSError
            member.error = f"join: {type(failure).__name__} {failure}"[:200]
        except websockets.InvalidStatus as refused:  # a load balancer with no replica: 503
            member.error = f"join: refused with {refused.response.status_code}"
        member.joined_s = time.monotonic() - began

    await asyncio.gather(*(join(m) for m in members))
    return members
