"""The class mode under a class: a teacher, N students who follow, a poll (issue 21).

``python -m classroom_load.classroom --class-mode --students 30 [--replicas 2]`` runs it; this
module is the class itself, driven through Streamlit's own protocol
(:mod:`classroom_load.st_client`):

1. **The teacher alone.** A session opens a lesson's link and presses "Start a class"; the
   server's CPU is read over a quiet window (the teacher's own class-size fragment ticks).
2. **Joining.** Students open the join link (``/?class=CODE``) over the ramp; each lands on the
   teacher's page with the teacher's settings. Each runs its page's check as a browser does
   (:mod:`classroom_load.page_check`: ``GET /api/class/CODE`` every second), or, on a server started
   from ``app.py`` alone, keeps the page's fragment timer.
3. **Following.** The teacher makes changes (a slider, the dataset, another page, Next on the
   step page). A change is timed from sending it to each student's session finishing the run
   of the whole page that shows the teacher's view: the same page and the same query string.
   The next change comes when every student has it (or after :data:`WAIT_S`), and not before
   ``every`` seconds.
4. **Idle checks.** Nobody acts for ``idle`` seconds with the students' HTTP checks paused,
   then ``idle`` seconds with them: the server's CPU over the second window, less the first
   window's rate, divided by the checks the students made, is what one check that finds
   nothing new costs (less the teacher-alone rate instead: everything the class adds, per
   check); a run of the whole page in that window would be a check that reran the page.
5. **A poll.** The teacher asks a multiple-choice question; every student sees it, picks an
   option (student ``i`` picks option ``i mod 3``) and sends it; the teacher's page must count
   exactly one answer per student, option by option.
6. **What broke.** The websockets the servers or the load balancer closed, and the answers 503
   to the students' checks and joins: where a class falling apart shows first (a replica its
   load balancer takes for dead answers nothing, and its sessions are gone).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from classroom_load.class_members import (
    Member,
    caught_up,
    choice_counts,
    class_code,
    dismiss,
    heard,
    join_class,
    missed_state,
    same_view,
    students_per_replica,
    wait_all,
)
from classroom_load.classroom_students import new_value
from classroom_load.st_client import StudentSession
from classroom_load.st_reader import ProtocolError, Run
from core.app import settings as app_settings
from core.app.lessons import classroom_links

#: Longest wait for every student to show a change (or the poll) before moving on.
WAIT_S = 15.0
#: The teacher's changes, in order and then again: (page, control); None switches page.
TEACHER_SCRIPT: tuple[tuple[str, str | None], ...] = (
    ("Single_tree", "max_depth"),
    ("Single_tree", "dataset"),
    ("Single_tree", "max_depth"),
    ("Grow_it_step_by_step", None),
    ("Grow_it_step_by_step", "step-first"),
    ("Grow_it_step_by_step", "step-next"),
    ("Grow_it_step_by_step", "step-next"),
    ("Grow_it_step_by_step", "max_depth"),
    ("Random_forest", None),
    ("Random_forest", "n_estimators"),
    ("Single_tree", None),
    ("Single_tree", "max_depth"),
)
QUESTION = "Will test accuracy rise at depth 8?"
OPTIONS = ("Yes", "No", "It depends")


@dataclass(frozen=True)
class ClassPlan:
    """How the class goes: its size, the ramp, the teacher's pace, the quiet windows."""

    students: int = 30
    ramp: float = 10.0
    changes: int = 10
    every: float = 4.0
    idle: float = 30.0
    alone: float = 15.0
    seed: int = 0
    timeout: float = 60.0


async def _teacher_acts(teacher: Member, page: str, key: str | None, rng: random.Random) -> str:
    """The teacher's change: a switch to ``page``, or ``key`` moved or pressed there."""
    session = teacher.session
    if key is None:
        await session.switch(page)
        return f"switch to {page}"
    widget = session.last.widgets().get(key) if session.last is not None else None
    if widget is None or getattr(widget.proto, "disabled", False):
        key = "step-back" if key == "step-next" else key
        widget = session.last.widgets().get(key) if session.last is not None else None
        if widget is None:
            raise ProtocolError(f"the teacher's page has no control {key!r}")
    value = True if widget.kind == "button" else new_value(widget, session.shown(key), rng)
    await session.change(key, value)
    return key if widget.kind == "button" else f"{key} = {value}"


async def run_class(
    url: str, plan: ClassPlan, cpu: Callable[[], dict[int, float]]
) -> dict[str, Any]:
    """Teach a class of ``plan.students`` at ``url``; ``cpu()`` reads the servers' CPU seconds.

    Returns plain data: per change the students' latencies, the idle window's cost per check,
    the poll's counts, and every failure met.
    """
    rng = random.Random(plan.seed)
    link = classroom_links(app_settings.default_catalogue())[0]
    teacher = Member(-1, StudentSession(url, timeout=plan.timeout))
    teacher.session.on_run = teacher.record
    await teacher.session.connect()
    await teacher.session.open(link.page.url_path, app_settings.to_query(link.settings))
    started = await teacher.session.change("class-start", True)
    code = class_code(started)
    result: dict[str, Any] = {"code": code, "errors": []}

    # 1. The teacher alone: the server's quiet rate with the teacher's own fragment ticking.
    cpu0, t0 = cpu(), time.monotonic()
    await asyncio.sleep(plan.alone)
    alone_rate = (sum(cpu().values()) - sum(cpu0.values())) / (time.monotonic() - t0)
    result["alone"] = {"seconds": plan.alone, "cpu_per_s": round(alone_rate, 4)}

    # 2. Joining over the ramp.
    students = await join_class(url, code, plan.students, plan.ramp, rng, plan.timeout)
    view = (teacher.session.page_hash, teacher.session.query)
    deadline = time.monotonic() + WAIT_S
    await wait_all(
        students, lambda m: bool(m.error) or caught_up(m.seen, 0, *view) is not None, deadline
    )
    result["join"] = {
        "seconds": [round(m.joined_s, 3) for m in students],
        "following": sum(
            1 for m in students if not m.error and caught_up(m.seen, 0, *view) is not None
        ),
        "timers": sorted({round(t, 3) for m in students for t in m.session.timers.values()}),
        "replicas": students_per_replica(students),
    }
    result["errors"] += [m.error for m in students if m.error]
    live = [m for m in students if not m.error]

    # 3. Following the teacher's changes.
    changes: list[dict[str, Any]] = []
    for step in range(plan.changes):
        page, key = TEACHER_SCRIPT[step % len(TEACHER_SCRIPT)]
        before = (teacher.session.page_hash, teacher.session.query)
        # What the move costs until the last student shows it: the servers' CPU, and this
        # driver's (the class's simulated browsers share the servers' cores; real ones do not).
        servers0, driver0 = sum(cpu().values()), time.process_time()
        sent = time.monotonic()
        try:
            action = await _teacher_acts(teacher, page, key, rng)
        except (ProtocolError, OSError) as failure:
            result["errors"].append(f"teacher: {type(failure).__name__} {failure}"[:200])
            break
        teacher_s = time.monotonic() - sent
        view = (teacher.session.page_hash, teacher.session.query)
        if same_view(*before, *view):
            changes.append({"action": action, "skipped": "the view did not change"})
            continue

        def arrived(member: Member, since: float = sent, shown: tuple[str, str] = view) -> bool:
            return caught_up(member.seen, since, *shown) is not None

        await wait_all(live, arrived, sent + WAIT_S)
        servers_cpu, driver_cpu = sum(cpu().values()) - servers0, time.process_time() - driver0
        latencies = [caught_up(m.seen, sent, *view) for m in live]
        behind = [m for m, x in zip(live, latencies, strict=True) if x is None]
        changes.append(
            {
                "action": action,
                "page": page,
                "teacher_s": round(teacher_s, 3),
                "latency_s": [round(x, 3) for x in latencies if x is not None],
                "heard_s": [round(x, 3) for m in live if (x := heard(m, sent)) is not None],
                "servers_cpu_s": round(servers_cpu, 3),
                "driver_cpu_s": round(driver_cpu, 3),
                "missed": len(behind),
                "missed_not_following": sum(1 for m in behind if not m.following()),
                "missed_views": sorted({m.seen[-1].query for m in behind if m.seen})[:3],
                "missed_state": [missed_state(m) for m in behind][:5],
                "page_runs": sum(1 for m in live for s in m.since(sent) if s.whole_page),
            }
        )
        await asyncio.sleep(max(0.0, sent + plan.every - time.monotonic()))
    result["changes"] = changes

    # 4. Idle checks: nobody acts. First a window with the students' HTTP checks paused (what
    # the class costs the servers just by being there), then the window with them.
    await asyncio.sleep(2.0)
    _pause_checks(live, True)
    quiet0, q0 = cpu(), time.monotonic()
    await asyncio.sleep(plan.idle)
    quiet1, q1 = cpu(), time.monotonic()
    quiet_rate = (sum(quiet1.values()) - sum(quiet0.values())) / (q1 - q0)
    _pause_checks(live, False)
    await asyncio.sleep(2.0)
    cpu0, t0 = cpu(), time.monotonic()
    counts0 = _counts(live)
    teacher_runs0 = len(teacher.seen)
    await asyncio.sleep(plan.idle)
    cpu1, t1 = cpu(), time.monotonic()
    counts1 = _counts(live)
    window = t1 - t0
    spent = {pid: cpu1[pid] - cpu0[pid] for pid in cpu1}
    checks = counts1["checks"] - counts0["checks"]
    followers_cpu = sum(spent.values()) - alone_rate * window
    result["idle"] = {
        "seconds": round(window, 2),
        "cpu_s_by_pid": {str(pid): round(v, 3) for pid, v in spent.items()},
        "cpu_s": round(sum(spent.values()), 3),
        "followers_cpu_s": round(followers_cpu, 3),
        "checks": checks,
        "checks_per_s": round(checks / window, 2),
        "cpu_ms_per_check": round(1000 * followers_cpu / max(1, checks), 3),
        "cpu_ms_per_check_raw": round(1000 * sum(spent.values()) / max(1, checks), 3),
        "quiet_cpu_per_s": round(quiet_rate, 4),
        "cpu_ms_per_check_over_quiet": round(
            1000 * (sum(spent.values()) - quiet_rate * window) / max(1, checks), 3
        ),
        "page_runs": counts1["page_runs"] - counts0["page_runs"],
        "checks_that_reran": counts1["reran"] - counts0["reran"],
        "http_checks": counts1["http_checks"] - counts0["http_checks"],
        "runs_asked": counts1["asked"] - counts0["asked"],
        "timer_sends": counts1["sent"] - counts0["sent"],
        "teacher_runs": len(teacher.seen) - teacher_runs0,
    }

    # 5. A multiple-choice poll.
    result["poll"] = await _poll(teacher, live, code, rng)
    await dismiss(result, teacher, students, live)
    return result


def _pause_checks(members: list[Member], paused: bool) -> None:
    """Pause (or resume) the students' HTTP checks: questions in flight still get answered."""
    for member in members:
        if member.check is not None:
            member.check.paused = paused


def _counts(members: list[Member]) -> dict[str, int]:
    """The students' checks so far: over HTTP (the page's script, served by ``serve.py``) or as
    fragment runs (``app.py`` alone: ended or rerunning), the runs they asked for, page runs."""
    fragment_runs = sum(1 for m in members for s in m.seen if not s.whole_page)
    reran = sum(m.session.stopped_early["fragment"] for m in members)
    http = sum(m.check.checks for m in members if m.check is not None)
    return {
        "checks": fragment_runs + reran + http,
        "http_checks": http,
        "asked": sum(m.check.asked for m in members if m.check is not None),
        "reran": reran,
        "page_runs": sum(m.session.page_runs for m in members),
        "sent": sum(m.session.auto_reruns for m in members),
    }


async def _poll(
    teacher: Member, live: list[Member], code: str, rng: random.Random
) -> dict[str, Any]:
    """The teacher asks; every student answers; the teacher's chart must count them all."""
    session = teacher.session
    session.fill("class-question", QUESTION)
    session.fill("class-options", "\n".join(OPTIONS))
    asked = time.monotonic()
    await session.change("FormSubmitter:class-ask-Ask", True)
    prefix = f"class-choice-{code}-"

    def radio_key(run: Run) -> str | None:
        return next(
            (k for k, w in run.widgets().items() if k.startswith(prefix) and w.kind == "radio"),
            None,
        )

    sent: dict[int, int] = {}
    shown_s: dict[int, float] = {}
    problems: list[str] = []
    traces: dict[int, list[list[Any]]] = {}

    async def answer(member: Member) -> None:
        stage = "waiting for the question"
        try:
            run = await member.session.wait_for(lambda r: radio_key(r) is not None, timeout=WAIT_S)
            shown_s[member.who] = time.monotonic() - asked
            key = radio_key(run) or ""
            await asyncio.sleep(rng.uniform(0.5, 3.0))  # reading the question
            option = member.who % len(OPTIONS)
            after = member.session.page_runs
            stage = "picking an option"
            await member.session.change(key, OPTIONS[option])
            stage = "sending it"
            await member.session.change(f"{key}-send", True)
            stage = "waiting for 'Sent.'"
            await member.session.wait_for(
                lambda r: any(t.startswith("Sent.") for t in r.texts()), after=after, timeout=WAIT_S
            )
            sent[member.who] = option
        except (ProtocolError, OSError) as failure:
            texts = " | ".join(member.session.last.texts()[-4:]) if member.session.last else ""
            problems.append(
                f"student {member.who}, {stage}: {type(failure).__name__} {failure}; {texts}"[:300]
            )
            traces[member.who] = [
                list(line)
                for line in member.session.trace
                if asked - 1 <= line[0] <= asked + 20 and line[1] != "sent tick"
            ][:60]

    await asyncio.gather(*(answer(m) for m in live))
    last_sent = time.monotonic()
    expected = [sum(1 for o in sent.values() if o == i) for i in range(len(OPTIONS))]
    counts: list[int] | None = None
    try:
        run = await session.wait_for(
            lambda r: choice_counts(r, 1) == expected, fresh=True, timeout=WAIT_S
        )
        counts = choice_counts(run, 1)
    except TimeoutError:
        counts = choice_counts(session.last, 1) if session.last is not None else None
    return {
        "students": len(live),
        "saw_question_s": sorted(round(v, 3) for v in shown_s.values()),
        "answers_sent": len(sent),
        "expected_counts": expected,
        "teacher_counts": counts,
        "counted": sum(counts) if counts else 0,
        "count_shown_after_s": round(time.monotonic() - last_sent, 3),
        "exact": counts == expected and len(sent) == len(live),
        "problems": problems[:5],
        "traces": dict(list(traces.items())[:3]),
        "asked_at": round(asked, 3),
    }
