"""A server process the tools start and stop: one piece of code for all of them.

``make replicas`` (``deploy.replicas``) runs its app replicas and HAProxy as :class:`LiveServer`
processes, and its Redis as one that answers PING instead of ``/_stcore/health``
(``deploy.redis_server.RedisServer``); the benchmarks and the browser tests
(``tests.live_app``) serve the app the same way. Each runs in its own process group, so
whatever it starts (Graphviz's ``dot``) stops with it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Self

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class LiveServer:
    """A server in its own process group, logging to a file: the one piece of code that starts
    and stops the processes the tools drive (a Streamlit server here, and ``deploy.replicas``'s
    replicas and HAProxy).

    Start it with :meth:`start` (or :meth:`launch` and then :meth:`wait_healthy`, to start
    several at once); use it as a context manager, or call :meth:`stop`.

    Attributes
    ----------
    process : subprocess.Popen
        The server process, leader of its own process group (so a child it starts, such as
        Graphviz's ``dot``, goes with it).
    url : str
        ``http://127.0.0.1:PORT``, without a trailing slash.
    log : Path
        The server's standard output and error.
    name : str, default "Streamlit"
        What the error messages call it.
    """

    process: subprocess.Popen[bytes]
    url: str
    log: Path
    name: str = "Streamlit"

    @classmethod
    def launch(
        cls,
        command: list[str],
        url: str,
        log: Path,
        *,
        name: str = "Streamlit",
        env: Mapping[str, str] | None = None,
    ) -> Self:
        """Run ``command`` (cwd: the project, so its config applies) without waiting for it.

        Parameters
        ----------
        command : list of str
            The command; it should answer :meth:`healthy` at ``url`` once up.
        url : str
            Where it serves, without a trailing slash.
        log : Path
            Where its output goes.
        name : str, default "Streamlit"
            What the error messages call it.
        env : mapping of str to str, optional
            Variables to set on top of this process's environment (a replica's
            ``ARBORETUM_REDIS_URL``).

        Returns
        -------
        LiveServer
            The server, perhaps not answering yet.
        """
        # As `make run` serves: two malloc arenas unless the caller's environment says otherwise.
        environment = {"MALLOC_ARENA_MAX": "2", **os.environ, **(env or {})}
        with log.open("wb") as out:
            process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=environment,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        return cls(process, url, log, name)

    @classmethod
    def start(
        cls, command: list[str], port: int, log: Path, *, timeout: float = 60.0
    ) -> LiveServer:
        """Run ``command`` (cwd: the project, so its config applies) and wait until healthy.

        Parameters
        ----------
        command : list of str
            A command that serves Streamlit on ``port``, such as
            :func:`tests.live_app.streamlit_command`.
        port : int
            The port ``command`` listens on, usually from :func:`tests.live_app.free_port`.
        log : Path
            Where the server's output goes.
        timeout : float, default 60.0
            Seconds to wait for ``/_stcore/health`` to answer ``ok``.

        Returns
        -------
        LiveServer
            The healthy server.

        Raises
        ------
        RuntimeError
            If the server exits or is not healthy in time; the message ends with the tail of
            its log, and the server is stopped.
        """
        server = cls.launch(command, f"http://127.0.0.1:{port}", log)
        server.wait_healthy(time.monotonic() + timeout)
        return server

    @property
    def health_check(self) -> str:
        """What :meth:`healthy` asks, as the error messages name it."""
        return f"{self.url}/_stcore/health"

    def healthy(self) -> bool:
        """Whether ``/_stcore/health`` answers ``ok`` within 2 s."""
        try:
            with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=2) as answer:
                return bool(answer.read().strip() == b"ok")
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return False

    def wait_healthy(self, deadline: float) -> None:
        """Wait until healthy, or stop the server and raise.

        Parameters
        ----------
        deadline : float
            The latest ``time.monotonic()`` to wait until.

        Raises
        ------
        RuntimeError
            If the server exits or is not healthy by ``deadline``; the message ends with the
            tail of its log.
        """
        while time.monotonic() < deadline:
            if not self.alive():
                raise RuntimeError(
                    f"{self.name} exited with code {self.process.returncode}; its log "
                    f"({self.log}) ends:\n{self.log_tail()}"
                )
            if self.healthy():
                return
            time.sleep(0.25)
        self.stop()
        raise RuntimeError(
            f"{self.name} was not healthy at {self.health_check} in time; its log "
            f"({self.log}) ends:\n{self.log_tail()}"
        )

    @property
    def pid(self) -> int:
        """The process id, which is also its process group's."""
        return self.process.pid

    def alive(self) -> bool:
        """Whether the server process has not exited."""
        return self.process.poll() is None

    def signal(self, signum: int) -> None:
        """Send ``signum`` to the whole process group, if the server is still there."""
        if self.alive():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signum)

    def log_tail(self, lines: int = 40) -> str:
        """The last ``lines`` lines of the server's log (empty if it has none yet)."""
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self, grace: float = 10.0) -> None:
        """Stop the whole process group: SIGTERM, SIGKILL after ``grace`` s. Safe to repeat.

        Returns once the server is reaped and nothing is left in its group.
        """
        self.signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self.signal(signal.SIGKILL)
            self.process.wait(timeout=grace)
        # The leader is gone; anything left in its group (a `dot` mid-render) goes too.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()
