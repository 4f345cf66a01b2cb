"""A classroom against the real server: N students at once, what they wait, what it costs.

Run with ``make bench-classroom`` or ``python -m classroom_load.classroom [options]``;
``--help`` lists them, and ``classroom_load/README.md`` and ``docs/benchmarks.md`` say what each
mode simulates and reports. It is a measurement, not a test: nothing fails on a slow machine;
the load average is recorded beside every run.

This module is the command line and the runs of students exploring on their own (class sizes,
``--pages``, ``--distinct``, a replica killed mid-class). Beside it: the students
(:mod:`.classroom_students`) speaking Streamlit's protocol (:mod:`.st_client`), the servers a
class meets (:mod:`.classroom_targets`), a class taught by a teacher, in class mode or running a
lesson (:mod:`.classroom_teach`), what the interactions add up to against the goals
(:mod:`.classroom_summary`), and the Markdown tables (:mod:`.classroom_report`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bench.yardstick import loop_seconds, yardstick_line
from classroom_load.classroom_browsers import BrowserRiders
from classroom_load.classroom_lesson import LESSON_HEADER
from classroom_load.classroom_report import (
    CLASS_HEADER,
    CLASS_MODE_HEADER,
    FAILOVER_HEADER,
    KIND_HEADER,
    MEMORY_HEADER,
    PAGE_HEADER,
    failover_rows,
    kind_rows,
    memory_row,
    page_row,
    report,
    table_row,
)
from classroom_load.classroom_server import (
    ProcessWatch,
    load_average,
    log_offsets,
    memory_breakdown,
    uncaught_since,
)
from classroom_load.classroom_students import (
    PAGE_BY_PATH,
    Interaction,
    Plan,
    random_settings,
    start_link,
    student,
)
from classroom_load.classroom_summary import (
    CPU_TARGETS_S,
    failover_summary,
    page_load_summary,
    percentile,
    summarize,
)
from classroom_load.classroom_targets import OUT, Target, served, warm_up
from classroom_load.classroom_teach import run_class_mode, run_lesson_mode
from classroom_load.page_load import PageAssets, find_page_assets, load_every_page
from core.app import settings as app_settings
from core.app.pages import Page
from core.classroom.shipped import shipped_plans
from deploy.haproxy import COOKIE

DEFAULT_PORT = 8651


async def _class(
    url: str,
    n: int,
    plan: Plan,
    seed: int,
    ramp: float,
    catalogue: Any,
    log: list[Interaction],
    assets: PageAssets | None,
) -> None:
    async def join(who: int) -> None:
        rng = random.Random(seed * 100_003 + who)
        await asyncio.sleep(rng.uniform(0, ramp))
        await student(who, url, plan, rng, catalogue, log, assets=assets)

    await asyncio.gather(*(join(who) for who in range(n)))


Drive = Callable[[str, list[Interaction]], Awaitable[None]]


def with_a_kill(drive: Drive, target: Target, after: float, killed: dict[str, Any]) -> Drive:
    """``drive``, with the first replica SIGKILLed ``after`` seconds in (noted in ``killed``)."""

    async def both(url: str, log: list[Interaction]) -> None:
        async def kill() -> None:
            await asyncio.sleep(after)
            killed.update(name=target.names[0], pid=target.pids[0], at=time.monotonic())
            # The replica leads its process group (deploy.process.LiveServer): dot dies too.
            os.killpg(target.pids[0], signal.SIGKILL)

        await asyncio.gather(drive(url, log), kill())

    return both


def measure(
    args: argparse.Namespace,
    name: str,
    drive: Any,
    riders: int = 0,
    prepare: Callable[[str], dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Serve, watch, run the coroutine ``drive(url, log)``, and summarize what happened.

    ``prepare(url)``, when given, runs after the warm-up and before the watch starts; what it
    returns goes into the run's numbers.
    """
    catalogue = app_settings.default_catalogue()
    with served(args, name) as target:
        if args.warm:
            asyncio.run(warm_up(target.url, len(target.pids)))
        prepared = prepare(target.url) if prepare is not None else {}
        watch = ProcessWatch(target.pids).start()
        offsets = log_offsets(target.logs)
        load_before = load_average()
        cpu0 = sum(watch.cpu().values())
        driver0 = time.process_time()
        log: list[Interaction] = []
        browsers = None
        if riders:
            rng = random.Random(args.seed + 7)
            links = [start_link(rng, catalogue, lesson_share=1.0) for _ in range(riders)]
            browsers = BrowserRiders(
                target.url, links, changes=args.browser_changes, think=args.think
            ).start()
        killed: dict[str, Any] = {}
        if args.kill_replica_after:
            drive = with_a_kill(drive, target, args.kill_replica_after, killed)
        asyncio.run(drive(target.url, log))
        if browsers is not None:
            browsers.join()
        cpu = sum(watch.cpu().values()) - cpu0
        driver = time.process_time() - driver0
        time.sleep(args.settle)  # students have left: what memory does the server keep?
        watch.stop()
        extra: dict[str, Any] = {
            **prepared,
            "driver_cpu_s": round(driver, 2),
            "server_env": args.server_env,
            "memory_end_mib": {str(pid): memory_breakdown(pid) for pid in target.pids},
        }
        if browsers is not None:
            seen = [i.seconds for i in browsers.log if not i.error]
            extra["browsers"] = {
                "students": riders,
                "changes": len(seen),
                "errors": sorted({i.error for i in browsers.log if i.error}),
                "median_s": round(statistics.median(seen), 3) if seen else 0.0,
                "p95_s": round(percentile(seen, 0.95), 3),
                # Each rider's page open (a full page load in Chromium) apart from its moves.
                "each_s": [[i.action, round(i.seconds, 3)] for i in browsers.log if not i.error],
            }
        if killed:
            extra["failover"] = {
                "after_s": args.kill_replica_after,
                "pid": killed["pid"],
                **failover_summary(log, killed["name"], killed["at"]),
            }
        uncaught = uncaught_since(target.logs, offsets)
        return summarize(
            name, log, target, watch, cpu, uncaught, (load_before, load_average()), extra
        )


def run_classes(args: argparse.Namespace) -> list[dict[str, Any]]:
    """One run per class size in ``--students``."""
    plan = Plan(
        changes=args.changes,
        think=args.think,
        reconnect=bool(args.kill_replica_after),
        affinity_cookie=COOKIE if args.replicas > 1 else "",
    )
    catalogue = app_settings.default_catalogue()
    found: list[PageAssets] = []  # what a page load fetches, recorded on the first run's server

    def prepare(url: str) -> dict[str, Any]:
        """Record the page loads once; then, in every run, load each page once as the
        teacher's browser would before the class (filling a proxy's cache alike each time)."""
        if not found:
            found.append(find_page_assets(url, list(PAGE_BY_PATH)))
        loads = asyncio.run(load_every_page(url, found[0]))
        return {"page_load": page_load_summary(found[0], loads)}

    rows = []
    for n in args.students:

        async def drive(url: str, log: list[Interaction], n: int = n) -> None:
            await _class(url, n, plan, args.seed, args.ramp, catalogue, log, found[0])

        row = measure(args, f"{args.label}-{n}", drive, riders=args.browsers, prepare=prepare)
        row["students"] = n
        rows.append(row)
        print(table_row(row), flush=True)
        print(f"\n{KIND_HEADER}\n{kind_rows(row)}\n", flush=True)
        if "failover" in row:
            print(f"\n{FAILOVER_HEADER}\n{failover_rows(row)}\n", flush=True)
    return rows


def run_pages(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Server CPU per change on each page alone: 4 students staying on it."""
    plan = Plan(changes=args.changes, think=(0.5, 1.5))
    catalogue = app_settings.default_catalogue()
    rows = []
    for path, page in PAGE_BY_PATH.items():

        async def drive(
            url: str, log: list[Interaction], path: str = path, page: Page = page
        ) -> None:
            async def one(who: int) -> None:
                rng = random.Random(args.seed * 1009 + who)
                start = (path, app_settings.to_query(random_settings(page, rng, catalogue)))
                await student(who, url, plan, rng, catalogue, log, start=start, stay=True)

            await asyncio.gather(*(one(who) for who in range(4)))

        row = measure(args, f"{args.label}-page-{path}", drive)
        row["page"] = path
        row["cpu_target_s"] = CPU_TARGETS_S[path]
        rows.append(row)
        print(page_row(row), flush=True)
    return rows


def run_distinct(args: argparse.Namespace) -> dict[str, Any]:
    """30 students at once open fresh random links until ``--distinct`` settings were shown."""
    catalogue = app_settings.default_catalogue()
    plan = Plan(changes=args.distinct_changes, think=(0.1, 0.9))
    seen: set[str] = set()

    async def drive(url: str, log: list[Interaction]) -> None:
        async def one(who: int) -> None:
            rng = random.Random(args.seed * 7919 + who)
            while len(seen) < args.distinct:
                path = rng.choice(list(PAGE_BY_PATH))
                query = app_settings.to_query(random_settings(PAGE_BY_PATH[path], rng, catalogue))
                key = path + "?" + json.dumps(query, sort_keys=True)
                if key in seen:
                    continue
                seen.add(key)
                await student(who, url, plan, rng, catalogue, log, start=(path, query), stay=True)

        await asyncio.gather(*(one(who) for who in range(args.concurrent)))

    row = measure(args, f"{args.label}-distinct", drive)
    row["distinct_links"] = len(seen)
    row["concurrent"] = args.concurrent
    print(memory_row(row), flush=True)
    return row


def think_bounds(text: str) -> tuple[float, float]:
    """``--think``'s value: ``"2,6"`` is (2.0, 6.0); one number is a fixed time."""
    bounds = [float(part) for part in text.split(",")]
    if len(bounds) == 1:
        bounds *= 2
    if len(bounds) != 2 or not 0 <= bounds[0] <= bounds[1]:
        raise argparse.ArgumentTypeError(
            f"--think must be LOW,HIGH seconds with 0 <= LOW <= HIGH; got {text!r}"
        )
    return bounds[0], bounds[1]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--students", type=lambda s: [int(n) for n in s.split(",") if n], default=[]
    )
    parser.add_argument("--pages", action="store_true", help="CPU per change on each page")
    parser.add_argument("--distinct", type=int, default=0, help="distinct settings to walk")
    parser.add_argument("--concurrent", type=int, default=30, help="students at once (--distinct)")
    parser.add_argument(
        "--distinct-changes", type=int, default=0, help="changes after each link (--distinct)"
    )
    parser.add_argument("--changes", type=int, default=15, help="changes per student")
    parser.add_argument(
        "--think",
        type=think_bounds,
        default=(2.0, 6.0),
        metavar="LOW,HIGH",
        help="seconds between a student's actions, uniform between the two (default 2,6)",
    )
    parser.add_argument("--ramp", type=float, default=10.0, help="seconds over which students join")
    parser.add_argument("--browsers", type=int, default=0, help="Chromium students riding along")
    parser.add_argument(
        "--browser-changes", type=int, default=5, help="changes per Chromium student"
    )
    parser.add_argument("--settle", type=float, default=5.0, help="seconds after, for 'RSS end'")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--cold", dest="warm", action="store_false", help="no warm-up visit of each page"
    )
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="for the server it starts")
    parser.add_argument(
        "--replicas",
        type=int,
        default=1,
        help="more than 1: that many replicas behind HAProxy (make replicas), ports after --port",
    )
    parser.add_argument(
        "--kill-replica-after",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="with --replicas >= 2 and --students: SIGKILL the first replica this far into "
        "each class; students reconnect as browsers do (issue 11)",
    )
    parser.add_argument("--url", default="", help="measure this server (or load balancer) instead")
    parser.add_argument(
        "--pid", type=int, action="append", default=[], help="with --url: a server process"
    )
    parser.add_argument("--log", action="append", default=[], help="with --url: a server log")
    parser.add_argument(
        "--server-env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="environment of the server it starts (MALLOC_ARENA_MAX=2)",
    )
    parser.add_argument(
        "--class-mode",
        action="store_true",
        help="a teacher and --students followers (the first size given; default 30)",
    )
    parser.add_argument(
        "--lesson",
        default="",
        choices=["", *shipped_plans()],
        metavar="NAME",
        help="with --class-mode: the teacher runs this shipped lesson with the class instead "
        f"({', '.join(shipped_plans())})",
    )
    parser.add_argument(
        "--class-changes", type=int, default=10, help="the teacher's changes (--class-mode)"
    )
    parser.add_argument(
        "--class-every",
        type=float,
        default=4.0,
        help="seconds between them, or between screens (--class-mode)",
    )
    parser.add_argument(
        "--idle", type=float, default=30.0, help="seconds of idle checks measured (--class-mode)"
    )
    parser.add_argument(
        "--alone",
        type=float,
        default=15.0,
        help="seconds of the teacher alone, the baseline of the idle checks (--class-mode)",
    )
    parser.add_argument("--label", default="1-replica", help="names the output files")
    args = parser.parse_args(argv)
    if args.url and not args.pid:
        parser.error("--url needs --pid for every server process behind it")
    if args.kill_replica_after and (args.replicas < 2 or args.url or args.pages or args.distinct):
        parser.error(
            "--kill-replica-after needs --replicas >= 2 started here, and classes only "
            f"(--students); got --replicas {args.replicas}"
        )
    if args.class_mode and (args.pages or args.distinct or args.kill_replica_after):
        parser.error("--class-mode runs alone: no --pages, --distinct or --kill-replica-after")
    if args.lesson and not args.class_mode:
        parser.error("--lesson needs --class-mode")
    if not (args.students or args.pages or args.distinct or args.class_mode):
        args.students = [10, 30, 60]
    results: dict[str, Any] = {"label": args.label, "args": vars(args), "cores": os.cpu_count()}
    # The machine's speed before and after: a slow day makes every CPU number larger.
    results["loop_seconds_before"] = loop_seconds()
    print(yardstick_line(results["loop_seconds_before"]), flush=True)
    if args.lesson:
        print(LESSON_HEADER, flush=True)
        results["lesson"] = run_lesson_mode(args)
    elif args.class_mode:
        print(CLASS_MODE_HEADER, flush=True)
        results["class_mode"] = run_class_mode(args)
    elif args.students:
        print(CLASS_HEADER, flush=True)
        results["classes"] = run_classes(args)
    if args.pages:
        print(PAGE_HEADER, flush=True)
        results["pages"] = run_pages(args)
    if args.distinct:
        print(MEMORY_HEADER, flush=True)
        results["distinct"] = run_distinct(args)
    results["loop_seconds_after"] = loop_seconds()
    print(yardstick_line(results["loop_seconds_after"]), flush=True)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"{args.label}.json").write_text(json.dumps(results, indent=1, default=str))
    (OUT / f"{args.label}.md").write_text(report(args, results))
    print(f"\nwritten: {OUT / args.label}.md and .json")


if __name__ == "__main__":
    main()
