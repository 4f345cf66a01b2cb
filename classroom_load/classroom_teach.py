"""A class taught on fresh servers: the class mode (:mod:`.classroom_class`) and a lesson run with
a class (:mod:`.classroom_lesson`), each with the load, the servers' memory and CPU, and the
store's own count of the answers beside what the teacher's page counted.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Callable, Coroutine
from typing import Any

from classroom_load.classroom_class import ClassPlan, run_class
from classroom_load.classroom_lesson import LessonClassPlan, lesson_row, run_lesson, store_answers
from classroom_load.classroom_report import class_row
from classroom_load.classroom_server import (
    ProcessWatch,
    cpu_seconds,
    load_average,
    log_offsets,
    memory_breakdown,
    uncaught_since,
)
from classroom_load.classroom_summary import CLASS_P95_TARGET_S, class_latency
from classroom_load.classroom_targets import redis_of, served, warm_up

#: A class taught: ``teach(url, cpu)`` drives it, ``cpu()`` reading the servers' CPU seconds.
Teach = Callable[[str, Callable[[], dict[int, float]]], Coroutine[Any, Any, dict[str, Any]]]


def teach_on_servers(
    args: argparse.Namespace,
    name: str,
    students: int,
    teach: Teach,
    count_store: Callable[[str, dict[str, Any]], None],
) -> dict[str, Any]:
    """A class taught on fresh servers (or ``--url``), with the load, the servers' memory and
    what their logs say went uncaught beside what ``teach`` returns. ``count_store(redis_url,
    result)`` reads the store's own counts into the result while Redis still runs."""
    with served(args, name) as target:
        if args.warm:
            asyncio.run(warm_up(target.url, len(target.pids)))
        redis = redis_of(target)
        pids = [*target.pids, *([redis[1]] if redis else [])]
        watch = ProcessWatch(target.pids).start()
        offsets = log_offsets(target.logs)
        load_before = load_average()
        driver0 = time.process_time()
        result = asyncio.run(teach(target.url, lambda: {p: cpu_seconds(p) for p in pids}))
        driver = time.process_time() - driver0
        load_after = load_average()
        if redis is not None:  # the store's own count, beside the teacher's page's
            count_store(redis[0], result)
        time.sleep(args.settle)
        watch.stop()
        uncaught = uncaught_since(target.logs, offsets)
        row = {
            "name": name,
            "students": students,
            "replicas": len(target.pids),
            "store": "Redis" if redis else "memory",
            "redis_pid": redis[1] if redis else None,
            "load_before": load_before,
            "load_after": load_after,
            **class_latency(result),
            **result,
            "uncaught": uncaught[:3],
            "driver_cpu_s": round(driver, 2),
            "rss_peak_mib": {str(pid): round(watch.peak(pid), 1) for pid in target.pids},
            "rss_end_mib": {str(pid): watch.samples[pid][-1][1] for pid in target.pids},
            "memory_end_mib": {str(pid): memory_breakdown(pid) for pid in target.pids},
        }
    if uncaught:
        row["errors"].append(f"{len(uncaught)} uncaught in the server log")
    return row


def run_class_mode(args: argparse.Namespace) -> dict[str, Any]:
    """A teacher and ``--students`` followers on fresh servers (:mod:`.classroom_class`)."""
    plan = ClassPlan(
        students=args.students[0] if args.students else 30,
        ramp=args.ramp,
        changes=args.class_changes,
        every=args.class_every,
        idle=args.idle,
        alone=args.alone,
        seed=args.seed,
    )

    def count_store(url: str, result: dict[str, Any]) -> None:
        result["poll"]["store_count"] = _store_count(url, result["code"])

    name = f"{args.label}-class-{plan.students}"
    row = teach_on_servers(
        args, name, plan.students, lambda url, cpu: run_class(url, plan, cpu), count_store
    )
    if not row["poll"]["exact"]:
        row["errors"].append(
            f"poll: counted {row['poll']['teacher_counts']}, sent {row['poll']['expected_counts']}"
        )
    if row["idle"]["page_runs"]:
        row["errors"].append(f"idle checks reran the page {row['idle']['page_runs']} times")
    print(class_row(row), flush=True)
    return row


def run_lesson_mode(args: argparse.Namespace) -> dict[str, Any]:
    """A teacher runs ``--lesson`` with ``--students`` on fresh servers
    (:mod:`.classroom_lesson`)."""
    plan = LessonClassPlan(
        lesson=args.lesson,
        students=args.students[0] if args.students else 30,
        ramp=args.ramp,
        every=args.class_every,
        seed=args.seed,
    )

    def count_store(url: str, result: dict[str, Any]) -> None:
        held = store_answers(url, result["code"])
        for question in result["questions"]:
            question["store"] = held.get(question["poll"])
            question["exact"] = question["exact"] and question["store"] == question["sent"]

    name = f"{args.label}-lesson-{plan.students}"
    row = teach_on_servers(
        args, name, plan.students, lambda url, cpu: run_lesson(url, plan, cpu), count_store
    )
    row["lesson"] = plan.lesson
    for question in row["questions"]:
        if not question["exact"]:
            row["errors"].append(
                f"screen {question['screen']}: sent {question['sent']} of {question['students']}"
                f", counted {question['live']} live, {question['dashboard']} on the dashboard"
                + (f", {question['store']} in the store" if "store" in question else "")
            )
    print(lesson_row(row, CLASS_P95_TARGET_S), flush=True)
    return row


def _store_count(url: str, code: str) -> int | None:
    """How many answers the store holds for the class's open poll."""
    from core.classroom import Classroom, NoClass
    from core.classroom.store import RedisStore

    room = Classroom(RedisStore(url))
    try:
        poll = room.state(code).poll
    except NoClass:
        return None
    return None if poll is None else len(room.answers(code, poll))
