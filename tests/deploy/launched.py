"""``python -m deploy.replicas`` run as a user runs it, and the processes it leaves behind.

The deploy tests start the real command (not its classes), read what it prints, signal it as
Ctrl-C or a service manager would, and look in ``/proc`` for anything still alive afterwards.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from deploy.redis_server import REDIS_URL_VARIABLE
from tests.live_app import ROOT, free_port

READY = "Arboretum is ready"
# "  replica r1: 127.0.0.1:8641, pid 1234, log ...", "  haproxy: pid 1240, config ..." and
# "  redis: 127.0.0.1:41234, pid 1230, log ..."
REPLICA_LINE = re.compile(r"replica (r\d+): 127\.0\.0\.1:(\d+), pid (\d+)")
HAPROXY_LINE = re.compile(r"haproxy: pid (\d+)")
REDIS_LINE = re.compile(r"redis: 127\.0\.0\.1:(\d+), pid (\d+)")
START_TIMEOUT = 150.0  # two Streamlit processes starting on two shared, busy cores

MISSING_HAPROXY = """\
HAProxy is not installed. The deploy tests run the replicas behind the real load balancer:
    bash .ci/system-deps.sh haproxy    (or: make system-haproxy; Debian's package `haproxy`)"""


def haproxy_installed() -> bool:
    return shutil.which("haproxy", path=f"{os.environ.get('PATH', '')}:/usr/sbin") is not None


def free_ports(count: int) -> list[int]:
    """``count`` distinct ports that were free a moment ago."""
    ports: list[int] = []
    while len(ports) < count:
        port = free_port()
        if port not in ports:
            ports.append(port)
    return ports


def process_start_time(pid: int) -> str | None:
    """The kernel's start time of ``pid`` (field 22 of ``/proc/PID/stat``), None if gone.

    A pid and its start time name one process for good: a new process may reuse the pid.
    """
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = stat[stat.rindex(")") + 2 :].split()
    if fields[0] == "Z":  # a zombie has exited; only its parent's bookkeeping is left
        return None
    return fields[19]


def environment(pid: int) -> dict[str, str]:
    """The environment ``pid`` was started with (``/proc/PID/environ``)."""
    raw = Path(f"/proc/{pid}/environ").read_bytes().decode(errors="replace")
    return dict(entry.split("=", 1) for entry in raw.split("\0") if "=" in entry)


def descendants(pid: int) -> dict[int, str]:
    """Every living process below ``pid`` (children, grandchildren...), with start times."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except (FileNotFoundError, ProcessLookupError):
            continue
        parent = int(stat[stat.rindex(")") + 2 :].split()[1])
        children.setdefault(parent, []).append(int(entry.name))
    found: dict[int, str] = {}
    todo = list(children.get(pid, []))
    while todo:
        child = todo.pop()
        started = process_start_time(child)
        if started is not None:
            found[child] = started
        todo.extend(children.get(child, []))
    return found


def still_alive(processes: dict[int, str]) -> list[int]:
    """The pids in ``processes`` that still run as the same process."""
    return [pid for pid, started in processes.items() if process_start_time(pid) == started]


@dataclass
class Launched:
    """The launcher running in the background, once it said it is ready.

    Attributes
    ----------
    process : subprocess.Popen
        ``python -m deploy.replicas ...``, in its own process group as in a terminal.
    port : int
        HAProxy's port.
    replicas : dict of str to (int, int)
        Replica name -> (port, pid), as the launcher printed them.
    haproxy_pid : int
        HAProxy's pid, as printed.
    redis : (int, int) or None
        The class store's (port, pid), as printed; None when the launcher started no Redis.
    output : Path
        What the launcher printed.
    log_dir : Path
        The replicas' and HAProxy's logs.
    """

    process: subprocess.Popen[bytes]
    port: int
    replicas: dict[str, tuple[int, int]]
    haproxy_pid: int
    redis: tuple[int, int] | None
    output: Path
    log_dir: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @classmethod
    def start(cls, count: int, directory: Path) -> Launched:
        port, *replica_ports = free_ports(count + 1)
        log_dir = directory / "logs"
        output = directory / "launcher.out"
        command = [
            sys.executable,
            "-m",
            "deploy.replicas",
            f"--replicas={count}",
            f"--port={port}",
            f"--replica-ports={','.join(map(str, replica_ports))}",
            "--bind=127.0.0.1",
            f"--log-dir={log_dir}",
        ]
        # A store named by the caller's environment would stand in for the launcher's own Redis.
        env = {name: value for name, value in os.environ.items() if name != REDIS_URL_VARIABLE}
        with output.open("wb") as out:
            process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + START_TIMEOUT
        while READY not in output.read_text():
            if process.poll() is not None or time.monotonic() > deadline:
                text = output.read_text()
                if process.poll() is None:
                    os.killpg(process.pid, signal.SIGINT)
                    process.wait(timeout=30)
                raise RuntimeError(f"the launcher did not get ready:\n{text}")
            time.sleep(0.25)
        text = output.read_text()
        replicas = {
            name: (int(replica_port), int(pid))
            for name, replica_port, pid in REPLICA_LINE.findall(text)
        }
        haproxy = HAPROXY_LINE.search(text)
        if haproxy is None or len(replicas) != count:
            raise RuntimeError(f"the launcher's report is not as expected:\n{text}")
        redis = REDIS_LINE.search(text)
        return cls(
            process,
            port,
            replicas,
            int(haproxy.group(1)),
            (int(redis.group(1)), int(redis.group(2))) if redis is not None else None,
            output,
            log_dir,
        )

    def printed(self) -> str:
        return self.output.read_text(errors="replace")

    def haproxy_log(self) -> str:
        return (self.log_dir / "haproxy.log").read_text(errors="replace")

    def haproxy_config(self) -> str:
        return (self.log_dir / "haproxy.cfg").read_text()

    def stop(self, signum: int = signal.SIGTERM, timeout: float = 40.0) -> int | None:
        """Send ``signum`` to the launcher alone: its exit code, or None if it hung (killed)."""
        if self.process.poll() is None:
            self.process.send_signal(signum)
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
            return None


def start_launcher(count: int, directory: Path) -> tuple[Launched, Callable[[], None]]:
    """The launcher with ``count`` replicas, and a clean-up that kills what it left running."""
    launched = Launched.start(count, directory)
    started = descendants(launched.process.pid)

    def clean_up() -> None:
        launched.stop(signal.SIGTERM)
        for pid in still_alive(started):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)

    return launched, clean_up
