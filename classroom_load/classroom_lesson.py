"""A lesson with a class, under a class: the teacher runs a shipped lesson, N students follow it
screen by screen and answer its questions (issue 42).

``python -m classroom_load.classroom --class-mode --lesson how-a-tree-grows --students 60
--replicas 2`` runs it, with the class mode's students (:mod:`classroom_load.class_members`):

1. **The lesson starts.** A teacher session opens the lesson's first screen by its link
   (``?lesson=NAME&screen=1``) and presses "Start a class": the class runs the lesson, every
   student held to the teacher's screen.
2. **Joining.** Students open the join link over the ramp, each running its page's check as a
   browser does, and land on the teacher's screen.
3. **A question.** On a screen with a question the teacher presses "Ask the class"; every
   student answers (student ``i`` picks option ``i mod k``, or types the number
   :func:`number_for` gives it) and sends it. The teacher's live count and the dashboard's
   "answered" must equal what was sent, answer by answer (and the store's, on Redis: read after
   the run by :func:`store_answers`).
4. **Next.** The teacher presses Next; the change is timed from sending it to each student's
   session finishing a run of the whole page that shows that screen: the teacher's page and
   settings, and "screen n of N" in the lesson's bar. The next comes when every student has it
   (or after :data:`WAIT_S`), and not before ``every`` seconds.
5. **What broke**, as in the class mode: websockets closed, answers 503.
"""

from __future__ import annotations

import asyncio
import random
import re
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from classroom_load.class_members import (
    Member,
    choice_counts,
    class_code,
    dismiss,
    heard,
    join_class,
    lesson_screen,
    missed_state,
    students_per_replica,
    wait_all,
)
from classroom_load.st_client import StudentSession
from classroom_load.st_reader import ProtocolError, Run
from core.classroom.plans import LessonPlan, Question
from core.classroom.shipped import shipped_plans

#: Longest wait for every student to show a screen, or to send an answer, before moving on.
WAIT_S = 15.0
#: The address's names of a lesson and its screen, which a student's address writes apart.
LESSON_NAMES = frozenset({"lesson", "screen"})


@dataclass(frozen=True)
class LessonClassPlan:
    """How the lesson goes: which, the class's size, the ramp, the teacher's pace."""

    lesson: str = "how-a-tree-grows"
    students: int = 30
    ramp: float = 10.0
    every: float = 4.0
    seed: int = 0
    timeout: float = 60.0


def number_for(who: int) -> float:
    """The number student ``who`` answers a number question with: ten values 0.5 to 0.95, so
    the middle answer and the range are known."""
    return round(0.5 + 0.05 * (who % 10), 2)


def settings_of(query: str) -> dict[str, str]:
    """A page's settings in its query string, without the lesson's own names (a student's
    address carries the screen alone, the teacher's the lesson too)."""
    return {k: v for k, v in parse_qsl(query) if k not in LESSON_NAMES}


def on_screen(
    member: Member, since: float, page_hash: str, query: str, screen: int
) -> float | None:
    """Seconds from ``since`` to the first run of the whole page showing lesson ``screen`` (from
    1) with the teacher's page and settings, or None."""
    wanted = settings_of(query)
    for seen in member.seen:
        if (
            seen.at >= since
            and seen.whole_page
            and seen.screen == screen
            and seen.page_hash == page_hash
            and settings_of(seen.query) == wanted
        ):
            return seen.at - since
    return None


def answered_on_dashboard(run: Run, screen: int) -> int | None:
    """How many answered screen ``screen``'s question, as the teacher's dashboard says
    ("**4.** the question  \\n12 answered · ..."), or None without that row."""
    for text in run.texts():
        found = re.match(rf"\*\*{screen}\.\*\* .*\n(\d+) answered · ", text, re.DOTALL)
        if found:
            return int(found.group(1))
    return None


def live_number_count(run: Run) -> int | None:
    """How many answers the teacher's live box counts for a number question ("**12 answers:
    middle ...**"), or None without it."""
    for text in run.texts():
        found = re.fullmatch(r"\*\*(\d+) answers?: .*\*\*", text)
        if found:
            return int(found.group(1))
    return None


def _answer_key(run: Run, code: str, after: int) -> str | None:
    """The student's answer widget (a radio or a text box) of a question numbered above
    ``after``: the class's earlier question may still be open on the page."""
    for key, widget in run.widgets().items():
        kind, _, number = key.rpartition("-")
        if (
            kind in (f"class-choice-{code}", f"class-number-{code}")
            and number.isdigit()
            and int(number) > after
            and widget.kind in ("radio", "text_input")
        ):
            return key
    return None


async def _answer(
    member: Member, code: str, question: Question, after: int, sent: dict[int, tuple[int, str]]
) -> str:
    """One student answers the question asked after poll ``after``; what it sent goes in
    ``sent`` (its poll's number and the answer). Returns what went wrong, or ""."""
    session, stage = member.session, "waiting for the question"
    try:
        run = await session.wait_for(
            lambda r: _answer_key(r, code, after) is not None, timeout=WAIT_S
        )
        key = _answer_key(run, code, after) or ""
        if question.options:
            given = question.options[member.who % len(question.options)]
            stage = "picking an option"
            await session.change(key, given)
        else:
            given = f"{number_for(member.who):g}"
            session.fill(key, given)
        after = session.page_runs
        stage = "sending it"
        await session.change(f"{key}-send", True)
        stage = "waiting for 'Sent.'"
        await session.wait_for(
            lambda r: any(t.startswith("Sent.") for t in r.texts()), after=after, timeout=WAIT_S
        )
        sent[member.who] = (int(key.rpartition("-")[2]), given)
        return ""
    except (ProtocolError, OSError) as failure:  # TimeoutError is an OSError
        return f"student {member.who}, {stage}: {type(failure).__name__} {failure}"[:300]


async def ask(
    teacher: Member, live: list[Member], code: str, at: int, question: Question, after: int
) -> dict[str, Any]:
    """The teacher asks screen ``at``'s question (from 0; the class's last poll was numbered
    ``after``); every student answers; the teacher's live count and dashboard must count every
    answer sent."""
    session = teacher.session
    await session.change(f"lesson-ask-{at}", True)
    answers: dict[int, tuple[int, str]] = {}
    problems = await asyncio.gather(*(_answer(m, code, question, after, answers) for m in live))
    polls = {poll for poll, _ in answers.values()}
    poll = max(polls, default=after + 1)
    if len(polls) > 1:
        problems.append(f"students answered different questions: {sorted(polls)}")
    sent = {who: given for who, (_, given) in answers.items()}
    if question.options:
        expected: Any = [sum(1 for g in sent.values() if g == o) for o in question.options]
    else:
        expected = len(sent)

    def live_count(run: Run) -> Any:
        return choice_counts(run, poll) if question.options else live_number_count(run)

    def counted(run: Run) -> bool:
        return live_count(run) == expected and answered_on_dashboard(run, at + 1) == len(sent)

    try:
        run = await session.wait_for(counted, fresh=True, timeout=WAIT_S)
    except TimeoutError:
        run = session.last  # type: ignore[assignment]
    shown = live_count(run) if run is not None else None
    board = answered_on_dashboard(run, at + 1) if run is not None else None
    numbers = sorted(float(g) for g in sent.values()) if not question.options else []
    return {
        "screen": at + 1,
        "kind": "choice" if question.options else "number",
        "poll": poll,
        "students": len(live),
        "sent": len(sent),
        "expected": expected,
        "live": shown,
        "dashboard": board,
        "median": statistics.median(numbers) if numbers else None,
        "exact": shown == expected and board == len(sent) == len(live),
        "problems": [p for p in problems if p][:5],
    }


async def _next_screen(
    teacher: Member,
    live: list[Member],
    screen: int,
    count: int,
    cpu: Callable[[], dict[int, float]],
) -> dict[str, Any]:
    """The teacher presses Next to ``screen`` (from 1); each student's time to show it, when
    each heard of it, and the CPU it cost until the last showed it (``cpu()``: the servers')."""
    session = teacher.session
    runs = session.page_runs
    servers0, driver0 = sum(cpu().values()), time.process_time()
    sent = time.monotonic()
    await session.change("lesson-next", True)
    await session.wait_for(
        lambda r: r.whole_page and lesson_screen(r) == screen, after=runs, timeout=WAIT_S
    )
    teacher_s = time.monotonic() - sent
    view = (session.page_hash, session.query, screen)

    def arrived(member: Member) -> bool:
        return on_screen(member, sent, *view) is not None

    await wait_all(live, arrived, sent + WAIT_S)
    servers_cpu, driver_cpu = sum(cpu().values()) - servers0, time.process_time() - driver0
    latencies = [on_screen(m, sent, *view) for m in live]
    behind = [m for m, x in zip(live, latencies, strict=True) if x is None]
    return {
        "screen": f"{screen} of {count}",
        "teacher_s": round(teacher_s, 3),
        "latency_s": [round(x, 3) for x in latencies if x is not None],
        "heard_s": [round(x, 3) for m in live if (x := heard(m, sent)) is not None],
        "servers_cpu_s": round(servers_cpu, 3),
        "driver_cpu_s": round(driver_cpu, 3),
        "page_runs": sum(1 for m in live for s in m.since(sent) if s.whole_page),
        "missed": len(behind),
        "missed_not_following": sum(1 for m in behind if not m.following()),
        "missed_state": [missed_state(m) for m in behind][:5],
        "sent_at": sent,
    }


async def run_lesson(
    url: str, plan: LessonClassPlan, cpu: Callable[[], dict[int, float]]
) -> dict[str, Any]:
    """Run lesson ``plan.lesson`` with a class of ``plan.students`` at ``url``; ``cpu()`` reads
    the servers' CPU seconds.

    Returns plain data: the join, per screen change the students' latencies, per question
    what was sent and what the teacher's page counted, and every failure met.
    """
    lesson: LessonPlan = shipped_plans()[plan.lesson]
    count = len(lesson.screens)
    rng = random.Random(plan.seed)
    teacher = Member(-1, StudentSession(url, timeout=plan.timeout))
    teacher.session.on_run = teacher.record
    await teacher.session.connect()
    first = lesson.screens[0]
    query = {**dict(first.query), "lesson": plan.lesson, "screen": "1"}
    await teacher.session.open(first.page.url_path, query)
    code = class_code(await teacher.session.change("class-start", True))
    result: dict[str, Any] = {"code": code, "lesson": plan.lesson, "errors": []}

    students = await join_class(url, code, plan.students, plan.ramp, rng, plan.timeout)
    view = (teacher.session.page_hash, teacher.session.query, 1)
    await wait_all(
        students,
        lambda m: bool(m.error) or on_screen(m, 0, *view) is not None,
        time.monotonic() + WAIT_S,
    )
    live = [m for m in students if not m.error]
    result["join"] = {
        "seconds": [round(m.joined_s, 3) for m in students],
        "following": sum(1 for m in live if on_screen(m, 0, *view) is not None),
        "replicas": students_per_replica(students),
    }
    result["errors"] += [m.error for m in students if m.error]

    changes: list[dict[str, Any]] = []
    questions: list[dict[str, Any]] = []
    try:
        for at, screen in enumerate(lesson.screens):
            if screen.question is not None:
                last_poll = questions[-1]["poll"] if questions else 0
                questions.append(await ask(teacher, live, code, at, screen.question, last_poll))
            if at + 1 < count:
                changes.append(await _next_screen(teacher, live, at + 2, count, cpu))
                sent = changes[-1].pop("sent_at")
                await asyncio.sleep(max(0.0, sent + plan.every - time.monotonic()))
    except (ProtocolError, OSError) as failure:
        result["errors"].append(f"teacher: {type(failure).__name__} {failure}"[:200])
    result["changes"], result["questions"] = changes, questions
    await dismiss(result, teacher, students, live)
    return result


def store_answers(url: str, code: str) -> dict[int, int]:
    """How many answers the Redis store at ``url`` holds for each question the class was asked,
    by poll number: the store's own count, beside the teacher's page's."""
    from core.classroom import Classroom, NoClass
    from core.classroom.store import RedisStore

    room = Classroom(RedisStore(url))
    try:
        return {poll.number: len(room.answers(code, poll)) for poll in room.asked(code)}
    except NoClass:
        return {}


LESSON_HEADER = (
    "| lesson | students | replicas (store) | load before / after | joined, following "
    "| screen changes | change to each student's page: median / p95 / max | missed "
    "| answers counted / sent | lost answers | websockets closed | answers 503 "
    "| RSS peak / end (MiB) | errors |\n"
    "| --- | ---: | --- | --- | ---: | ---: | --- | ---: | --- | ---: | ---: | ---: | --- | ---: |"
)


def lost_answers(questions: list[dict[str, Any]]) -> tuple[int, int]:
    """Answers the teacher's page counted (the fewest of its live box, its dashboard and, on
    Redis, the store) and answers the students sent, over every question."""
    counted = sent = 0
    for question in questions:
        live = question["live"]
        shown = sum(live) if isinstance(live, list) else live or 0
        found = [shown, question["dashboard"] or 0]
        if "store" in question:
            found.append(question["store"] or 0)
        counted += min(found)
        sent += question["sent"]
    return counted, sent


def lesson_row(row: dict[str, Any], goal_s: float) -> str:
    """One lesson run as a table row; ``ok`` when the p95 is within ``goal_s`` and none missed."""
    met = "ok" if row["p95_s"] <= goal_s and not row["missed"] else "MISS"
    counted, sent = lost_answers(row["questions"])
    exact = all(q["exact"] for q in row["questions"]) and counted == sent
    peak = " / ".join(f"{v:.0f}" for v in row["rss_peak_mib"].values())
    end = " / ".join(f"{v:.0f}" for v in row["rss_end_mib"].values())
    broken = row["connections"]
    return (
        f"| {row['lesson']} | {row['students']} | {row['replicas']} ({row['store']}) "
        f"| {row['load_before']} / {row['load_after']} "
        f"| {row['join']['following']} of {row['students']} | {len(row['changes'])} "
        f"| {row['median_s']:.2f} / {row['p95_s']:.2f} {met} / {row['max_s']:.2f} s "
        f"| {row['missed']} | {counted} / {sent}{' exact' if exact else ''} | {sent - counted} "
        f"| {broken['websocket_closures']} | {broken['check_503'] + broken['join_503']} "
        f"| {peak} / {end} | {len(row['errors'])} |"
    )
