"""A redis-server for the class store (``core.classroom.store``): ``make replicas`` and the tests.

Replicas share a class only through a store outside every one of them; ``make replicas``
starts a Redis server for it beside HAProxy, and the store's tests start their own. Both run
Debian's ``redis-server`` (``bash .ci/system-deps.sh redis``) the same way, on 127.0.0.1 only
and in the foreground. The one a class is taught on keeps it (``persist``): every write goes
to an append-only file flushed every second, so a Redis that restarts mid-class reads every
running class and its seats back: all of it after a clean stop, all but the last few seconds'
writes after a crash; snapshots would lose every write since the last one. A test's scratch
server keeps nothing, so each starts empty.
"""

from __future__ import annotations

import shutil
import socket
import time
from pathlib import Path

from deploy.process import LiveServer

#: The variable that names the store to a replica: ``core.classroom.store.REDIS_URL_VARIABLE``, not
#: imported from there, since importing ``core`` loads the engine (a test checks they agree).
REDIS_URL_VARIABLE = "ARBORETUM_REDIS_URL"
MISSING_REDIS = """\
redis-server is not installed. The class store runs on a real Redis server:
    bash .ci/system-deps.sh redis    (or: make system-redis; Debian's package `redis-server`)"""


def redis_binary() -> str | None:
    """Redis's server executable, or None when it is not installed."""
    return shutil.which("redis-server") or shutil.which(
        "redis-server", path="/usr/bin:/usr/local/bin"
    )


def redis_url(port: int) -> str:
    """The store's address for a server on 127.0.0.1:``port`` (database 0), as
    ``ARBORETUM_REDIS_URL`` names it."""
    return f"redis://127.0.0.1:{port}/0"


def redis_command(binary: str, port: int, directory: Path, *, persist: bool = False) -> list[str]:
    """``redis-server`` on 127.0.0.1:``port``, in the foreground.

    Parameters
    ----------
    binary : str
        The executable, from :func:`redis_binary`.
    port : int
        Where it listens, on the loopback interface only.
    directory : Path
        Its working directory (``--dir``): where the append-only file goes (in
        ``appendonlydir/``), and where a server started again in it reads it back.
    persist : bool, default False
        Write every change to the append-only file, flushed to disk every second
        (``appendfsync everysec``); without it nothing is kept. Snapshots are off either way.

    Returns
    -------
    list of str
        The command line.
    """
    return [
        binary,
        "--port",
        str(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "yes" if persist else "no",
        *(["--appendfsync", "everysec"] if persist else []),
        "--daemonize",
        "no",
        "--dir",
        str(directory),
    ]


class RedisServer(LiveServer):
    """A redis-server as a :class:`LiveServer`: healthy once it answers PING.

    Its :attr:`url` is ``redis://127.0.0.1:PORT/0``, the value for ``ARBORETUM_REDIS_URL``.
    """

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1].split("/", 1)[0])

    @property
    def health_check(self) -> str:
        return f"PING to {self.url}"

    def healthy(self) -> bool:
        """Whether the server answers ``PING`` with ``PONG`` within 1 s."""
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as connection:
                connection.sendall(b"*1\r\n$4\r\nPING\r\n")  # the protocol's array of one word
                return connection.recv(64).startswith(b"+PONG")
        except OSError:
            return False


def launch_redis(
    port: int, log: Path, *, binary: str | None = None, persist: bool = False
) -> RedisServer:
    """Start a redis-server on 127.0.0.1:``port`` without waiting for it.

    Parameters
    ----------
    port : int
        Where it listens.
    log : Path
        Where its output goes; its folder is also its ``--dir``.
    binary : str, optional
        The executable; :func:`redis_binary` by default.
    persist : bool, default False
        Keep every write in an append-only file in the log's folder (:func:`redis_command`).

    Returns
    -------
    RedisServer
        The server, perhaps not answering yet.

    Raises
    ------
    RuntimeError
        If redis-server is not installed (the message says how to install it).
    """
    binary = binary or redis_binary()
    if binary is None:
        raise RuntimeError(MISSING_REDIS)
    return RedisServer.launch(
        redis_command(binary, port, log.parent, persist=persist),
        redis_url(port),
        log,
        name="redis-server",
    )


def start_redis(
    port: int, log: Path, *, timeout: float = 10.0, persist: bool = False
) -> RedisServer:
    """Start a redis-server on 127.0.0.1:``port`` and wait until it answers PING.

    Parameters
    ----------
    port : int
        Where it listens, usually a free port (``tests.live_app.free_port``).
    log : Path
        Where its output goes.
    timeout : float, default 10.0
        Seconds to wait for the first PONG (a server reading a long append-only file back
        answers once it has).
    persist : bool, default False
        Keep every write in an append-only file in the log's folder (:func:`redis_command`).

    Returns
    -------
    RedisServer
        The running server; stop it with :meth:`RedisServer.stop` or a ``with`` block.

    Raises
    ------
    RuntimeError
        If redis-server is missing, exits (a port already taken) or does not answer in time;
        the message ends with the tail of its log.
    """
    server = launch_redis(port, log, persist=persist)
    server.wait_healthy(time.monotonic() + timeout)
    return server


__all__ = [
    "MISSING_REDIS",
    "REDIS_URL_VARIABLE",
    "RedisServer",
    "launch_redis",
    "redis_binary",
    "redis_command",
    "redis_url",
    "start_redis",
]
