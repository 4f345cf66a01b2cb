"""A redis-server that keeps its data across a restart (append-only file), on a free port: what a
deployment with persistence runs, for the tests that stop the store mid-class and start it
again. ``deploy.redis_server`` starts the same server, without persistence."""

from __future__ import annotations

import time
from pathlib import Path

from deploy.redis_server import RedisServer, redis_binary, redis_command, redis_url
from tests.live_app import free_port


def start_kept_redis(
    folder: Path, port: int | None = None, *, timeout: float = 10.0
) -> RedisServer:
    """A redis-server writing every change to an append-only file in ``folder`` and reading it
    back when it starts there again (on ``port``, or a free one), answering PING."""
    binary = redis_binary()
    if binary is None:
        raise RuntimeError("redis-server is not installed")
    port = port or free_port()
    command = redis_command(binary, port, folder)
    command[command.index("--appendonly") + 1] = "yes"
    command += ["--appendfsync", "always"]
    log = folder / f"redis-{time.monotonic_ns()}.log"
    server = RedisServer.launch(command, redis_url(port), log, name="redis-server")
    server.wait_healthy(time.monotonic() + timeout)
    return server
