"""A classroom against the real server: N students at once, what they wait, what it costs.

Run with ``make bench-classroom`` or ``python -m classroom_load.classroom [options]``;
``--help`` lists them. It is a measurement, not a test: nothing fails on a slow machine; the
load average is recorded beside every run.

What it simulates
-----------------
Each student (:mod:`classroom_load.classroom_students`) is one browser whose tabs speak Streamlit's
own websocket protocol (:mod:`classroom_load.st_client`, which keeps the browser's message cache and
sends the widgets' values). A student arrives by a classroom link or a random valid URL, then acts
``--changes`` times, thinking between actions uniformly 2 to 6 s (``--think 2,6``, seeded). An
action is one of three kinds, each reported apart:

- ``move``: one control changed (most actions);
- ``sidebar``: the sidebar's link to another page, same tab and session (one in ten);
- ``link``: a new link opened in a new tab (one in ten, and the arrival): the page's HTML and
  files over HTTP, then a new websocket session and its first run, timed together.

What a link fetches over HTTP (:mod:`classroom_load.page_load`) is recorded once, at the start, by
loading each page in headless Chromium (without Chromium: the HTML's script and link tags,
and the report says so). A student is one browser with one HTTP cache: its first link fetches
everything its page needs (about 130 requests, 10 MB, over six keep-alive connections), a
later link only what the cache may not reuse (the HTML, the frontend's health and host-config
checks) and lazy chunks it never loaded. Streamlit serves its ``/static/`` files
``public, immutable, max-age=31536000`` and the HTML and the checks ``no-cache``. Before each
class every page is loaded once, as the teacher's browser would: behind HAProxy
(``--replicas``), whose cache keeps ``/static/``, the replicas then serve only the HTML and the
checks; one server serves everything, as ``make run`` does.

Students join over the first ``--ramp`` seconds (10), as a class does when the teacher hands
out the link. A few real Chromium students (``--browsers``) ride along and report what a person
sees.

Modes (any combination; each run starts its own server, or with ``--replicas 3`` three replicas
behind HAProxy as ``make replicas`` runs them, unless ``--url`` names a server to measure):

- ``--students 10,30,60``: one run per class size, each on a fresh server.
- ``--pages``: the server's CPU per change on each page alone (4 students staying on it,
  thinking 0.5-1.5 s, no page loads over HTTP).
- ``--class-mode --students 30``: the class mode (issue 21, :mod:`classroom_load.classroom_class`):
  a teacher starts a class, the students join by its link and follow; the time from each of the
  teacher's changes to each student's page showing it, what an idle follower's check costs the
  server, and a poll every student answers, counted exactly. With ``--lesson NAME``
  (:mod:`classroom_load.classroom_lesson`) the teacher runs a shipped lesson instead: each screen
  change timed to each student's page, each question answered by every student and counted on
  the teacher's page (and in the store, on Redis).
- ``--distinct 1000``: 30 students at once open fresh random links (each a new session, no
  page load over HTTP) until the server has shown that many distinct settings; memory during
  and after.
- ``--kill-replica-after 20`` (with ``--replicas 2`` or more): SIGKILL the first replica that
  many seconds into each class (issue 11). Students reconnect as the browser does (a new
  websocket, same URL and cookies, the change made again with their widget values) and the
  report splits them: those on the killed replica against the others, with errors, reconnect
  times, and whether the moved students' next run kept their view (same query string, but
  for the control just moved, which must have moved).

What it reports
---------------
Per run: interactions completed, errors (an exception in the page, "Uncaught app execution"
in the server's log, a timeout, a closed connection, the wrong page, a page load's request
answered with another status than Chromium got), latency (median, p95, max) over all
interactions and for each kind (a move or a sidebar link from sending it to the server's
``script_finished``; a link from its first HTTP request, with the HTTP part apart), each p95
against its goal (issue 23: moves 0.5 s, links 3 s, all 1 s), the server's CPU seconds per
interaction of any kind (``/proc/<pid>/stat``, ``dot`` included), resident memory (peak and
end) of every server process, sampled twice a second. The Markdown tables go to
``build/classroom/<label>.md`` and everything, memory timelines and every interaction included,
to ``build/classroom/<label>.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import re
import signal
import statistics
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

from bench.yardstick import loop_seconds, yardstick_line
from classroom_load.classroom_browsers import BrowserRiders
from classroom_load.classroom_class import ClassPlan, run_class
from classroom_load.classroom_lesson import (
    LESSON_HEADER,
    LessonClassPlan,
    lesson_row,
    run_lesson,
    store_answers,
)
from classroom_load.classroom_server import (
    ProcessWatch,
    cpu_seconds,
    load_average,
    log_offsets,
    memory_breakdown,
    uncaught_since,
)
from classroom_load.classroom_students import (
    KINDS,
    PAGE_BY_PATH,
    Interaction,
    Plan,
    kind_of,
    random_settings,
    start_link,
    student,
)
from classroom_load.page_load import PageAssets, PageLoad, find_page_assets, load_every_page
from classroom_load.st_client import StudentSession
from core.app import settings as app_settings
from core.app.pages import Page
from core.classroom.shipped import shipped_plans
from deploy.haproxy import COOKIE, replica_names
from deploy.process import LiveServer
from tests.live_app import ROOT, streamlit_command

OUT = ROOT / "build" / "classroom"
DEFAULT_PORT = 8651

#: What a classroom run must show to count as served (stated before measuring).
P95_TARGET_S = 1.0
#: Each kind's p95 goal (issue 23); a sidebar link has none of its own, only the goal of all.
KIND_GOALS_S: dict[str, float | None] = {
    "move": 0.5,
    "sidebar": None,
    "link": 3.0,
    "all": P95_TARGET_S,
}
#: The class mode's goal (issue 21): a student's page shows the teacher's change within 2 s.
CLASS_P95_TARGET_S = 2.0
RSS_BUDGET_MIB = 1024.0
#: Server CPU seconds per change, per page: the budget that lets two cores serve a class of 30
#: moving a control every few seconds (30 students / 3 s = 10 changes a second).
CPU_TARGETS_S = {
    "Single_tree": 0.10,
    "Random_forest": 0.30,
    "Gini_vs_entropy": 0.10,
    "Grow_it_step_by_step": 0.10,
}


@dataclass(frozen=True)
class Target:
    """Where the students are sent and which processes and logs serve them.

    ``names`` are the replicas' names in the load balancer's affinity cookie, one per pid
    (empty for a single server or ``--url``).
    """

    url: str
    pids: list[int]
    logs: list[Path]
    names: list[str] = field(default_factory=list)


def pids_listening(ports: list[int]) -> list[int]:
    """The Streamlit processes started with ``--server.port`` one of ``ports``, in that order."""
    found: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().decode(errors="replace").split("\0")
        except OSError:
            continue
        if "streamlit" not in argv:
            continue
        for i, arg in enumerate(argv[:-1]):
            if arg == "--server.port" and argv[i + 1].isdigit():
                found[int(argv[i + 1])] = int(entry.name)
    return [found[port] for port in ports if port in found]


@contextmanager
def replicas(args: argparse.Namespace, name: str) -> Iterator[Target]:
    """``--replicas`` copies of the app behind HAProxy (``deploy.replicas``), then stopped."""
    ports = [args.port + 1 + i for i in range(args.replicas)]
    logs = OUT / f"replicas-{name}"
    command = [
        sys.executable,
        "-m",
        "deploy.replicas",
        "--replicas",
        str(args.replicas),
        "--port",
        str(args.port),
        "--replica-ports",
        ",".join(map(str, ports)),
        "--bind",
        "127.0.0.1",
        "--log-dir",
        str(logs),
    ]
    logs.mkdir(parents=True, exist_ok=True)
    with LiveServer.start(command, args.port, logs / "launcher.log", timeout=180) as cluster:
        # HAProxy answers a moment before the launcher prints what it started (Redis's line).
        deadline = time.monotonic() + 30
        while "is ready" not in cluster.log_tail() and time.monotonic() < deadline:
            time.sleep(0.1)
        pids = pids_listening(ports)
        if len(pids) != args.replicas:
            raise RuntimeError(f"found {len(pids)} replica processes of {args.replicas}")
        names = replica_names(len(ports))
        yield Target(cluster.url, pids, sorted(logs.glob("*.log")), names)


@contextmanager
def served(args: argparse.Namespace, name: str) -> Iterator[Target]:
    """The server to measure: ``--url`` as given, ``--replicas`` behind HAProxy, or one on
    ``--port``, fresh for each run."""
    if args.url:
        yield Target(args.url, list(args.pid), [Path(p) for p in args.log])
        return
    if args.replicas > 1:
        with replicas(args, name) as target:
            yield target
        return
    OUT.mkdir(parents=True, exist_ok=True)
    log = OUT / f"server-{name}.log"
    command = streamlit_command(ROOT / "serve.py", args.port)
    saved = dict(os.environ)
    os.environ.update(dict(pair.split("=", 1) for pair in args.server_env))
    try:
        server = LiveServer.start(command, args.port, log)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    with server:
        yield Target(server.url, [server.process.pid], [log])


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile of ``values`` (nearest rank), 0 when empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


#: Changes after which the rest of the view may move too: a new dataset resets its controls,
#: and the x feature moved onto the y feature's moves y (Controls.pair keeps them distinct).
CASCADING_KEYS = frozenset({"dataset", "x"})


def _same_setting(shown: str, in_url: str) -> bool:
    """Whether a widget's value and a URL's value say the same (``"3.0"`` and ``"3"`` do)."""
    if shown == in_url:
        return True
    try:
        return float(shown) == float(in_url)
    except ValueError:
        return False


def view_kept(
    query_before: str, query_after: str, key: str, value: str = ""
) -> tuple[bool, bool] | None:
    """Whether a change of control ``key`` to ``value`` kept the view:
    ``(others kept, move applied)``.

    ``others kept``: every setting of the URL but ``key`` is as before; ``move applied``: the
    URL's ``key`` changed. None when the URL cannot tell: ``key`` is not a setting in it (a
    button, a page switch), changing it legitimately moves other settings (a dataset), or
    ``value`` is what the URL already held (the protocol client can pick the value shown:
    it knows a widget's value only from what it sent or the widget's default).
    """
    before, after = dict(parse_qsl(query_before)), dict(parse_qsl(query_after))
    if key not in before or key in CASCADING_KEYS or _same_setting(value, before[key]):
        return None
    others_kept = {k: v for k, v in before.items() if k != key} == {
        k: v for k, v in after.items() if k != key
    }
    return others_kept, after.get(key) != before[key]


def failover_summary(log: list[Interaction], killed: str, killed_at: float) -> dict[str, Any]:
    """What the students on the killed replica and the others went through.

    A student's replica is the one their first interaction was sent to: one websocket carries
    a whole visit, so only the kill moves a student (even one whose first page was loading).
    Each group reports its students, its interactions and errors before and after
    ``killed_at`` (``time.monotonic``), its p95 latency before and after, its reconnects and
    their seconds, and for each change made again after a reconnect whether the view was kept
    (:func:`view_kept`).
    """
    first: dict[int, str] = {}
    for i in sorted(log, key=lambda i: i.started):
        first.setdefault(i.student, i.replica_before)
    groups: dict[str, dict[str, Any]] = {}
    for name, on_killed in (("killed replica", True), ("other replicas", False)):
        students = {who for who, replica in first.items() if (replica == killed) == on_killed}
        mine = [i for i in log if i.student in students]
        before = [i for i in mine if i.started + i.seconds < killed_at]
        after = [i for i in mine if i.started + i.seconds >= killed_at]
        moved = [i for i in mine if i.reconnect_s is not None]
        checks = [(i, view_kept(i.query_before, i.query_after, i.action, i.value)) for i in moved]
        judged = [(i, c) for i, c in checks if c is not None and not i.error]
        groups[name] = {
            "students": len(students),
            "students_reconnected": len({i.student for i in moved}),
            "interactions": len(mine),
            "errors_before": sum(1 for i in before if i.error),
            "errors_after": sum(1 for i in after if i.error),
            "error_examples": sorted({i.error for i in mine if i.error})[:3],
            "p95_before_s": round(percentile([i.seconds for i in before if not i.error], 0.95), 3),
            "p95_after_s": round(percentile([i.seconds for i in after if not i.error], 0.95), 3),
            "reconnect_s": sorted(round(i.reconnect_s or 0.0, 3) for i in moved),
            "change_with_reconnect_s": sorted(round(i.seconds, 3) for i in moved),
            "view_checked": len(judged),
            "view_kept": sum(1 for _, (kept, applied) in judged if kept and applied),
            "view_not_kept": [
                [i.student, i.action, i.query_before, i.query_after]
                for i, (kept, applied) in judged
                if not (kept and applied)
            ],
            "view_not_comparable": [i.action for i, c in checks if c is None or i.error],
        }
    return {"killed": killed, "groups": groups}


def by_kind(log: list[Interaction], uncaught: int = 0) -> dict[str, dict[str, Any]]:
    """Each kind of interaction's numbers (:func:`.classroom_students.kind_of`), then all.

    For each of ``move``, ``sidebar``, ``link`` and ``all``: the interactions that finished
    well, the errors (``all`` adds the ``uncaught`` errors of the server's log), the median,
    p95 and max seconds of those that finished well, and the p95 goal (:data:`KIND_GOALS_S`).
    Links also give the median and p95 of their HTTP part and the MiB it fetched.
    """
    groups: dict[str, list[Interaction]] = {kind: [] for kind in KINDS}
    for i in log:
        groups[kind_of(i.action)].append(i)
    groups["all"] = list(log)
    summary: dict[str, dict[str, Any]] = {}
    for kind, mine in groups.items():
        done = [i.seconds for i in mine if not i.error]
        summary[kind] = {
            "interactions": len(done),
            "errors": sum(1 for i in mine if i.error) + (uncaught if kind == "all" else 0),
            "p50_s": round(statistics.median(done), 3) if done else 0.0,
            "p95_s": round(percentile(done, 0.95), 3),
            "max_s": round(max(done), 3) if done else 0.0,
            "goal_s": KIND_GOALS_S[kind],
        }
    loaded = [i for i in groups["link"] if i.http_s is not None and not i.error]
    http = [i.http_s for i in loaded if i.http_s is not None]
    summary["link"].update(
        http_p50_s=round(statistics.median(http), 3) if http else None,
        http_p95_s=round(percentile(http, 0.95), 3) if http else None,
        http_mib=round(sum(i.http_bytes for i in loaded) / 2**20, 1),
    )
    return summary


def summarize(
    name: str,
    log: list[Interaction],
    target: Target,
    watch: ProcessWatch,
    cpu: float,
    uncaught: list[str],
    load: tuple[str, str],
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One run's numbers, as plain data for the JSON and the table."""
    done = [i.seconds for i in log if not i.error]
    errors = Counter(i.error.split(":")[0] for i in log if i.error)
    if uncaught:
        errors["uncaught in server log"] += len(uncaught)
    by_page: dict[str, list[float]] = {}
    for i in log:
        if not i.error:
            by_page.setdefault(i.page, []).append(i.seconds)
    return {
        "name": name,
        "replicas": len(target.pids),
        "load_before": load[0],
        "load_after": load[1],
        "interactions": len(done),
        "errors": dict(errors),
        "error_examples": sorted({i.error for i in log if i.error})[:5] + uncaught[:3],
        "median_s": round(statistics.median(done), 3) if done else 0.0,
        "p95_s": round(percentile(done, 0.95), 3),
        "max_s": round(max(done), 3) if done else 0.0,
        "p95_by_page_s": {p: round(percentile(v, 0.95), 3) for p, v in sorted(by_page.items())},
        "by_kind": by_kind(log, len(uncaught)),
        "cpu_s": round(cpu, 2),
        "cpu_per_interaction_s": round(cpu / max(1, len(done)), 4),
        "rss_peak_mib": {str(pid): round(watch.peak(pid), 1) for pid in target.pids},
        "rss_end_mib": {str(pid): watch.samples[pid][-1][1] for pid in target.pids},
        "rss_timeline_mib": {str(pid): watch.samples[pid] for pid in target.pids},
        "interaction_log": [
            [i.student, i.page, i.action, round(i.seconds, 3), i.error]
            + (
                [i.replica_before, i.replica, i.reconnect_s]
                if i.replica or i.replica_before
                else []
            )
            for i in log
        ],
        # Each link's HTTP part: seconds and bytes (none without a page load).
        "link_log": [
            [
                i.student,
                i.page,
                i.action,
                round(i.seconds, 3),
                None if i.http_s is None else round(i.http_s, 3),
                i.http_bytes,
                i.error,
            ]
            for i in log
            if kind_of(i.action) == "link"
        ],
        **(extra or {}),
    }


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


async def warm_up(url: str, replicas: int) -> None:
    """Open every page once per replica, as a server that has been up a while has.

    Streamlit imports a page's modules on its first run; a class meeting a server just
    started would measure that, once, rather than the server at work.
    """
    for _ in range(replicas):
        session = await StudentSession(url, timeout=300).connect()
        try:
            for path in PAGE_BY_PATH:
                await session.open(path)
        finally:
            await session.close()


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


def page_load_summary(assets: PageAssets, loads: dict[str, PageLoad]) -> dict[str, Any]:
    """How the page loads were found, and what a fresh browser's load of each page fetched."""
    return {
        "source": assets.source,
        "pages": {
            path: {
                "requests": load.requests,
                "static_requests": load.static_requests,
                "bytes": load.bytes,
                "seconds": round(load.seconds, 3),
                "error": load.error,
            }
            for path, load in loads.items()
        },
    }


def _redis_of(target: Target) -> tuple[str, int] | None:
    """The URL and pid of the Redis that ``deploy.replicas`` started, from its launcher's log."""
    for log in target.logs:
        if log.name != "launcher.log":
            continue
        found = re.search(r"redis: \S+, pid (\d+), .*ARBORETUM_REDIS_URL=(\S+)\)", log.read_text())
        if found:
            return found.group(2), int(found.group(1))
    return None


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
        redis = _redis_of(target)
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
        args, name, plan.students, lambda url, cpu: run_lesson(url, plan), count_store
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


def class_latency(result: dict[str, Any]) -> dict[str, Any]:
    """Median, p95 and max over every student's latency for every change, and the misses."""
    values = [x for change in result.get("changes", []) for x in change.get("latency_s", [])]
    return {
        "samples": len(values),
        "median_s": round(statistics.median(values), 3) if values else 0.0,
        "p95_s": round(percentile(values, 0.95), 3),
        "max_s": round(max(values), 3) if values else 0.0,
        "missed": sum(change.get("missed", 0) for change in result.get("changes", [])),
    }


# --- the report ----------------------------------------------------------------------------


def _mib(values: dict[str, float]) -> str:
    return " / ".join(f"{v:.0f}" for v in values.values())


def _errors(row: dict[str, Any]) -> str:
    total = sum(row["errors"].values())
    return (
        "0" if not total else f"{total} ({', '.join(f'{k} {v}' for k, v in row['errors'].items())})"
    )


CLASS_HEADER = (
    "| students | replicas | load before / after | interactions | errors | median | p95 | max "
    "| server CPU / interaction | RSS peak (MiB) | RSS end (MiB) | Chromium riders |\n"
    "| ---: | ---: | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
)


def table_row(row: dict[str, Any]) -> str:
    riders = row.get("browsers")
    ride = (
        f"{riders['changes']} changes, p95 {riders['p95_s']:.2f} s, {len(riders['errors'])} errors"
        if riders
        else "-"
    )
    served = "ok" if row["p95_s"] <= P95_TARGET_S and not row["errors"] else "MISS"
    return (
        f"| {row['students']} | {row['replicas']} | {row['load_before']} / {row['load_after']} "
        f"| {row['interactions']} | {_errors(row)} | {row['median_s']:.2f} s "
        f"| {row['p95_s']:.2f} s {served} | {row['max_s']:.1f} s "
        f"| {row['cpu_per_interaction_s']:.3f} s | {_mib(row['rss_peak_mib'])} "
        f"| {_mib(row['rss_end_mib'])} | {ride} |"
    )


KIND_HEADER = (
    "| students | replicas | kind | interactions | errors | p50 | p95 (goal) | max "
    "| a link's HTTP part: p50 / p95 (MiB in all) |\n"
    "| ---: | ---: | --- | ---: | ---: | ---: | --- | ---: | --- |"
)


def kind_rows(row: dict[str, Any]) -> str:
    """A run's numbers by kind of interaction, one row each, each p95 against its goal."""
    lines = []
    for kind, numbers in row["by_kind"].items():
        goal = numbers["goal_s"]
        if goal is None:
            judged = f"{numbers['p95_s']:.2f} s (none)"
        else:
            met = "ok" if numbers["p95_s"] <= goal and not numbers["errors"] else "MISS"
            judged = f"{numbers['p95_s']:.2f} s {met} (≤ {goal:g} s)"
        http = "-"
        if kind == "link" and numbers["http_p50_s"] is not None:
            http = (
                f"{numbers['http_p50_s']:.2f} / {numbers['http_p95_s']:.2f} s "
                f"({numbers['http_mib']:g})"
            )
        lines.append(
            f"| {row['students']} | {row['replicas']} | {kind} | {numbers['interactions']} "
            f"| {numbers['errors']} | {numbers['p50_s']:.2f} s | {judged} "
            f"| {numbers['max_s']:.2f} s | {http} |"
        )
    return "\n".join(lines)


def page_load_line(page_load: dict[str, Any]) -> str:
    """One sentence: what a student's first link to a page fetches, and how it was found."""
    pages = page_load["pages"].values()

    def span(values: list[str]) -> str:
        """``"131-148"``, or one value when every page has the same."""
        low, high = min(values, key=float), max(values, key=float)
        return low if low == high else f"{low}-{high}"

    requests = span([str(p["requests"]) for p in pages])
    static = span([str(p["static_requests"]) for p in pages])
    mib = span([f"{p['bytes'] / 2**20:.1f}" for p in pages])
    return (
        f"A student's first link fetches its page's {requests} requests "
        f"({static} under /static/, {mib} MiB) over six connections; a later link only what "
        "its browser's cache may not reuse (the HTML, the health and host-config checks) and "
        "lazy chunks it never loaded. "
        f"Each page's list of requests: from {page_load['source']}."
    )


FAILOVER_HEADER = (
    "| killed after | students on | students (reconnected) | interactions | errors before / after "
    "| p95 before / after | reconnect (median, max) | change with reconnect (max) "
    "| next run kept the view |\n"
    "| ---: | --- | ---: | ---: | ---: | ---: | --- | ---: | --- |"
)


def failover_rows(row: dict[str, Any]) -> str:
    """The failover table's two rows: the killed replica's students, then the others."""
    failover = row["failover"]
    lines = []
    for name, group in failover["groups"].items():
        times = group["reconnect_s"]
        reconnect = f"{statistics.median(times):.2f} s, {max(times):.2f} s" if times else "-"
        changes = group["change_with_reconnect_s"]
        longest = f"{max(changes):.2f} s" if changes else "-"
        unjudged = len(group["view_not_comparable"])
        kept = (
            f"{group['view_kept']} of {group['view_checked']}"
            + (f" (+{unjudged} not comparable)" if unjudged else "")
            if times
            else "-"
        )
        who = f"{name} ({failover['killed']})" if name == "killed replica" else name
        lines.append(
            f"| {failover['after_s']:g} s | {who} "
            f"| {group['students']} ({group['students_reconnected']}) | {group['interactions']} "
            f"| {group['errors_before']} / {group['errors_after']} "
            f"| {group['p95_before_s']:.2f} s / {group['p95_after_s']:.2f} s | {reconnect} "
            f"| {longest} | {kept} |"
        )
    return "\n".join(lines)


PAGE_HEADER = (
    "| page | interactions | errors | median | p95 | server CPU / change | target |\n"
    "| --- | ---: | --- | ---: | ---: | ---: | ---: |"
)


def page_row(row: dict[str, Any]) -> str:
    met = "ok" if row["cpu_per_interaction_s"] <= row["cpu_target_s"] else "MISS"
    return (
        f"| {row['page']} | {row['interactions']} | {_errors(row)} | {row['median_s']:.2f} s "
        f"| {row['p95_s']:.2f} s | {row['cpu_per_interaction_s']:.3f} s "
        f"| {row['cpu_target_s']:.2f} s {met} |"
    )


MEMORY_HEADER = (
    "| distinct settings | students at once | interactions | errors | p95 | RSS peak (MiB) "
    "| RSS end (MiB) | budget |\n| ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |"
)


def memory_row(row: dict[str, Any]) -> str:
    peak = max(row["rss_peak_mib"].values())
    met = "ok" if peak < RSS_BUDGET_MIB else "MISS"
    return (
        f"| {row['distinct_links']} | {row['concurrent']} | {row['interactions']} "
        f"| {_errors(row)} | {row['p95_s']:.2f} s | {_mib(row['rss_peak_mib'])} "
        f"| {_mib(row['rss_end_mib'])} | {RSS_BUDGET_MIB:.0f} {met} |"
    )


CLASS_MODE_HEADER = (
    "| students | replicas (store) | load before / after | joined, following | teacher's "
    "changes | change to each student's page: median / p95 / max | missed | poll counted "
    "/ sent | idle checks / s | server CPU per idle check: over students who do not check "
    "/ all the class adds | page reruns while idle | websockets closed | answers 503 "
    "| RSS peak / end (MiB) | errors |\n"
    "| ---: | --- | --- | ---: | ---: | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: "
    "| --- | --- |"
)


def class_row(row: dict[str, Any]) -> str:
    """One class mode run as a table row (``P95 goal: 2 s``)."""
    met = "ok" if row["p95_s"] <= CLASS_P95_TARGET_S and not row["missed"] else "MISS"
    poll, idle = row["poll"], row["idle"]
    counted = f"{poll['counted']} / {poll['answers_sent']}" + (" exact" if poll["exact"] else "")
    measured = [c for c in row["changes"] if "latency_s" in c]
    peak = " / ".join(f"{v:.0f}" for v in row["rss_peak_mib"].values())
    end = " / ".join(f"{v:.0f}" for v in row["rss_end_mib"].values())
    broken = row["connections"]
    refused = broken["check_503"] + broken["join_503"]
    return (
        f"| {row['students']} | {row['replicas']} ({row['store']}) "
        f"| {row['load_before']} / {row['load_after']} "
        f"| {row['join']['following']} of {row['students']} | {len(measured)} "
        f"| {row['median_s']:.2f} / {row['p95_s']:.2f} {met} / {row['max_s']:.2f} s "
        f"| {row['missed']} | {counted} | {idle['checks_per_s']:.1f} "
        f"| {idle['cpu_ms_per_check_over_quiet']:.2f} / {idle['cpu_ms_per_check']:.2f} ms "
        f"| {idle['page_runs']} | {broken['websocket_closures']} | {refused} | {peak} / {end} "
        f"| {len(row['errors'])} |"
    )


def report(args: argparse.Namespace, results: dict[str, Any]) -> str:
    """The Markdown tables of every mode that ran."""
    parts = [
        f"Classroom benchmark `{args.label}` ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())})"
    ]
    if results.get("classes"):
        parts += ["", CLASS_HEADER, *map(table_row, results["classes"])]
        parts += ["", KIND_HEADER, *map(kind_rows, results["classes"])]
        page_load = results["classes"][0].get("page_load")
        if page_load:
            parts += ["", page_load_line(page_load)]
        killed = [row for row in results["classes"] if "failover" in row]
        if killed:
            parts += ["", FAILOVER_HEADER, *map(failover_rows, killed)]
    if results.get("pages"):
        parts += ["", PAGE_HEADER, *map(page_row, results["pages"])]
    if results.get("distinct"):
        parts += ["", MEMORY_HEADER, memory_row(results["distinct"])]
    if results.get("class_mode"):
        parts += ["", CLASS_MODE_HEADER, class_row(results["class_mode"])]
    if results.get("lesson"):
        parts += ["", LESSON_HEADER, lesson_row(results["lesson"], CLASS_P95_TARGET_S)]
    for when in ("before", "after"):
        if f"loop_seconds_{when}" in results:
            parts += ["", f"{yardstick_line(results[f'loop_seconds_{when}'])} ({when} the run)"]
    return "\n".join(parts) + "\n"


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
