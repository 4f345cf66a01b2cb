"""Where a simulated class is sent: a server started as ``make run`` starts it, replicas behind
HAProxy as ``make replicas`` runs them, or a server named by ``--url``; and a warm-up that opens
every page once, so a class meets a server at work rather than one importing its pages.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from classroom_load.classroom_students import PAGE_BY_PATH
from classroom_load.st_client import StudentSession
from deploy.haproxy import replica_names
from deploy.process import LiveServer
from tests.live_app import ROOT, streamlit_command

OUT = ROOT / "build" / "classroom"


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


def redis_of(target: Target) -> tuple[str, int] | None:
    """The URL and pid of the Redis that ``deploy.replicas`` started, from its launcher's log."""
    for log in target.logs:
        if log.name != "launcher.log":
            continue
        found = re.search(r"redis: \S+, pid (\d+), .*ARBORETUM_REDIS_URL=(\S+)\)", log.read_text())
        if found:
            return found.group(2), int(found.group(1))
    return None


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
