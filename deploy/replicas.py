"""N replicas of Arboretum behind HAProxy on one machine: ``make replicas``.

One Streamlit process runs every session's script on the threads of one Python interpreter,
so it serves a classroom on about one core. Several identical processes behind a load balancer
use them all. Each replica listens on 127.0.0.1 only; HAProxy listens on the public port,
pins each browser to one replica with a cookie (a Streamlit session lives in one process) and
moves a browser to a live replica when its own dies. Because every Arboretum view is in its
URL, a student moved that way sees the same page again after Streamlit's client reconnects.

Run from the project folder::

    python -m deploy.replicas --replicas 3 --port 8640

It starts the replicas (ports 8641, 8642, ... unless ``--replica-ports`` says otherwise),
waits until each answers ``/_stcore/health``, writes HAProxy's configuration from
``deploy/haproxy.cfg.in``, checks it with ``haproxy -c``, starts HAProxy, prints where to open
the app, and runs until Ctrl-C or SIGTERM, when it stops every process it started. HAProxy
checks each replica at a health port of its own (a free one, named to the replica in
``ARBORETUM_HEALTH_PORT``: ``server/health.py``), which a replica busy with a whole class
still answers at once. A replica that dies is reported and left out by HAProxy; the others go
on. Everything each process prints goes to ``--log-dir`` (``build/replicas/`` by default).

A class (``core.classroom``) spreads over every replica, so the replicas keep it in one
store outside them all: the launcher first starts a ``redis-server`` on 127.0.0.1 (a free
port, or ``--redis-port``), keeping every write in an append-only file in ``--log-dir`` so that
a restarted Redis still has every class, and names it to every replica in
``ARBORETUM_REDIS_URL``. When that
variable already names a store, the replicas use that one and none is started. Without
``redis-server`` (``bash .ci/system-deps.sh redis``) the launcher says so and the replicas run
anyway, each keeping its classes in its own memory: a class then reaches only the students
HAProxy sends to the teacher's replica.

``python -m deploy.replicas --compose-config 3`` prints the configuration the Compose file
uses (``deploy/compose/haproxy.cfg``): the same template, with replicas found by name.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType, TracebackType

from core.classroom.limits import TRUSTED_PROXIES_VARIABLE
from deploy.haproxy import (
    DEFAULT_PORT,
    check_config,
    compose_config,
    haproxy_binary,
    local_backends,
    render_config,
)
from deploy.process import LiveServer
from deploy.redis_server import (
    REDIS_URL_VARIABLE,
    RedisServer,
    launch_redis,
    redis_binary,
    redis_url,
)
from server.health import HEALTH_PORT_VARIABLE

ROOT = Path(__file__).resolve().parents[1]
#: One replica per core: a replica's Python code runs on one core at a time.
DEFAULT_REPLICAS = os.cpu_count() or 2
HEALTH = "/_stcore/health"


# --- the processes -----------------------------------------------------------------------------


def replica_command(port: int) -> list[str]:
    """``streamlit run serve.py`` as ``make run`` starts it, on 127.0.0.1:``port`` only.

    The file watcher is off: a replica serves students and never reruns on a file save.
    """
    return [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        "serve.py",
        "--server.headless",
        "true",
        "--server.port",
        str(port),
        "--browser.gatherUsageStats",
        "false",
        "--server.address",
        "127.0.0.1",
        "--server.fileWatcherType",
        "none",
    ]


def port_is_free(port: int, host: str = "127.0.0.1") -> bool:
    """Whether nothing listens on ``host:port`` and we may bind it."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
        return True


def free_port(host: str = "127.0.0.1") -> int:
    """A port on ``host`` that was free a moment ago (the system picks it)."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port


def free_ports(count: int, avoid: Sequence[int] = ()) -> list[int]:
    """``count`` distinct ports that were free a moment ago, none of them in ``avoid``."""
    ports: list[int] = []
    while len(ports) < count:
        port = free_port()
        if port not in ports and port not in avoid:
            ports.append(port)
    return ports


@dataclass(frozen=True)
class ClassStore:
    """Where the replicas keep their classes, as :func:`choose_class_store` decides.

    Attributes
    ----------
    redis_port : int or None
        Start a redis-server on 127.0.0.1 at this port, or start none.
    url : str or None
        The store the replicas use (``ARBORETUM_REDIS_URL``); None when each keeps its own.
    note : str
        What the launcher tells its user about it.
    """

    redis_port: int | None
    url: str | None
    note: str


def choose_class_store(
    redis_port: int | None, binary: str | None, environ: Mapping[str, str]
) -> ClassStore:
    """The class store for the replicas: the one the environment names, else a redis-server
    of our own, else none (each replica on its own, with a warning).

    Parameters
    ----------
    redis_port : int or None
        ``--redis-port``; None picks a free port.
    binary : str or None
        redis-server's executable (:func:`deploy.redis_server.redis_binary`), None if missing.
    environ : mapping of str to str
        The launcher's environment, which the replicas inherit.

    Returns
    -------
    ClassStore
        What to start, and what to say.
    """
    named = environ.get(REDIS_URL_VARIABLE, "").strip()
    if named:
        return ClassStore(
            None, named, f"class store: {named} (from {REDIS_URL_VARIABLE}); no Redis started"
        )
    if binary is None:
        return ClassStore(
            None,
            None,
            "warning: redis-server is not installed (bash .ci/system-deps.sh redis), so the "
            "replicas run without a shared class store: each keeps its classes to itself, and "
            "a class reaches only the students on the teacher's replica",
        )
    port = redis_port if redis_port is not None else free_port()
    return ClassStore(
        port, redis_url(port), f"class store: starting Redis at {redis_url(port)} for the replicas"
    )


@dataclass(frozen=True)
class Replica:
    """One Streamlit replica: its HAProxy name, port, server process and the port of its own
    health check (``ARBORETUM_HEALTH_PORT``, which HAProxy asks)."""

    name: str
    port: int
    process: LiveServer
    health_port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@dataclass
class Cluster:
    """Replicas, the HAProxy in front of them and the Redis behind them, started by
    :meth:`start`.

    Use it as a context manager, or call :meth:`stop`: either stops every process it started.

    Attributes
    ----------
    port : int
        HAProxy's port.
    log_dir : Path
        Where every process logs, and where ``haproxy.cfg`` is written.
    replicas : list of Replica
        The replicas, in HAProxy's order (``r1`` first).
    haproxy : LiveServer or None
        HAProxy, once started (:attr:`balancer` when it must be there).
    redis : RedisServer or None
        The class store the replicas share, when the cluster started one.
    """

    port: int
    log_dir: Path
    replicas: list[Replica] = field(default_factory=list)
    haproxy: LiveServer | None = None
    redis: RedisServer | None = None

    @property
    def config(self) -> Path:
        return self.log_dir / "haproxy.cfg"

    @property
    def balancer(self) -> LiveServer:
        """HAProxy, which every started cluster has."""
        if self.haproxy is None:
            raise RuntimeError("this cluster has no HAProxy: start one with Cluster.start")
        return self.haproxy

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @classmethod
    def start(
        cls,
        replica_ports: Sequence[int],
        port: int,
        log_dir: Path,
        *,
        bind: str = "*",
        timeout: float = 120.0,
        redis_port: int | None = None,
    ) -> Cluster:
        """Start Redis if asked, then the replicas; once they are healthy, HAProxy before them.

        Parameters
        ----------
        replica_ports : sequence of int
            One port per replica, on 127.0.0.1.
        port : int
            HAProxy's port.
        log_dir : Path
            Where the logs and ``haproxy.cfg`` go (created if missing).
        bind : str, default "*"
            HAProxy's listening address.
        timeout : float, default 120.0
            Seconds to wait for Redis, all replicas, then HAProxy, to be healthy.
        redis_port : int, optional
            Start a redis-server on 127.0.0.1 at this port first, and name it to every replica
            in ``ARBORETUM_REDIS_URL``; without it the replicas inherit this environment.

        Returns
        -------
        Cluster
            Everything running and healthy.

        Raises
        ------
        RuntimeError
            If HAProxy (or the Redis asked for) is missing, a port is taken, or a process does
            not come up in time; what was started is stopped first, and the message says why
            (with the log's tail).
        """
        haproxy = haproxy_binary()
        if haproxy is None:
            raise RuntimeError(
                "HAProxy is not installed: run `bash .ci/system-deps.sh haproxy` "
                "(or `sudo apt-get install -y haproxy`)"
            )
        if redis_port is not None and redis_binary() is None:
            raise RuntimeError(
                "redis-server is not installed: run `bash .ci/system-deps.sh redis` "
                "(or `sudo apt-get install -y redis-server`)"
            )
        ports = [port, *replica_ports, *([redis_port] if redis_port is not None else [])]
        # Each replica's health check gets a free port of its own: only HAProxy asks it.
        health_ports = free_ports(len(replica_ports), avoid=ports)
        if len(set(ports)) != len(ports):
            raise RuntimeError(
                f"ports must be distinct; got {port}, {list(replica_ports)} and Redis {redis_port}"
            )
        taken = [p for p in ports if not port_is_free(p)]
        if taken:
            raise RuntimeError(
                f"ports already in use: {taken} (pick others with --port or --redis-port)"
            )
        log_dir.mkdir(parents=True, exist_ok=True)
        cluster = cls(port, log_dir)
        try:
            deadline = time.monotonic() + timeout
            store: dict[str, str] = {}
            if redis_port is not None:
                # The class store outlives a restart of its Redis (or of make replicas): its
                # append-only file stays in the log folder, and a Redis started there reads it.
                cluster.redis = launch_redis(redis_port, log_dir / "redis.log", persist=True)
                cluster.redis.wait_healthy(deadline)
                store = {REDIS_URL_VARIABLE: cluster.redis.url}
            backends = local_backends(replica_ports, health_ports)
            for backend, replica_port in zip(backends, replica_ports, strict=True):
                # Launched together and waited for after: they start in parallel.
                process = LiveServer.launch(
                    replica_command(replica_port),
                    f"http://127.0.0.1:{replica_port}",
                    log_dir / f"{backend.name}.log",
                    name=backend.name,
                    env={
                        **store,
                        HEALTH_PORT_VARIABLE: str(backend.health_port),
                        TRUSTED_PROXIES_VARIABLE: "1",  # HAProxy's X-Forwarded-For
                    },
                )
                cluster.replicas.append(
                    Replica(backend.name, replica_port, process, backend.health_port)
                )
            for replica in cluster.replicas:
                replica.process.wait_healthy(deadline)
            cluster.config.write_text(render_config(backends, port, bind=bind))
            check_config(cluster.config, haproxy)
            # HAProxy answers /_stcore/health once it forwards to a healthy replica.
            cluster.haproxy = LiveServer.launch(
                [haproxy, "-db", "-f", str(cluster.config)],
                cluster.url,
                log_dir / "haproxy.log",
                name="haproxy",
            )
            cluster.haproxy.wait_healthy(deadline)
        except BaseException:
            cluster.stop()
            raise
        return cluster

    def processes(self) -> list[LiveServer]:
        """Every process started, in the order they stop: HAProxy, the replicas, Redis."""
        front = [self.haproxy] if self.haproxy is not None else []
        back = [self.redis] if self.redis is not None else []
        return front + [replica.process for replica in self.replicas] + back

    def stop(self) -> None:
        """Stop HAProxy, then every replica at once, then Redis (which the replicas may use
        until they are gone); returns when all are gone."""
        if self.haproxy is not None:
            self.haproxy.stop()
        for replica in self.replicas:
            replica.process.signal(signal.SIGTERM)
        for replica in self.replicas:
            replica.process.stop()
        if self.redis is not None:
            self.redis.stop()

    def __enter__(self) -> Cluster:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()


# --- the command -------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m deploy.replicas",
        description="Run N Arboretum replicas behind HAProxy, until Ctrl-C or SIGTERM.",
    )
    parser.add_argument(
        "--replicas", type=int, default=DEFAULT_REPLICAS, help="how many (default: %(default)s)"
    )
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help="HAProxy's port (default: %(default)s)"
    )
    parser.add_argument(
        "--replica-ports",
        type=lambda text: [int(part) for part in text.split(",")],
        help="comma-separated ports of the replicas (default: the ports after --port)",
    )
    parser.add_argument("--bind", default="*", help="HAProxy's address (default: every interface)")
    parser.add_argument(
        "--redis-port",
        type=int,
        help="the class store's Redis port on 127.0.0.1 (default: a free one)",
    )
    parser.add_argument("--log-dir", type=Path, default=ROOT / "build" / "replicas")
    parser.add_argument(
        "--compose-config",
        type=int,
        metavar="N",
        help="print the Compose file's HAProxy configuration for N replicas, and exit",
    )
    args = parser.parse_args(argv)
    if args.replica_ports is None:
        args.replica_ports = [args.port + i for i in range(1, args.replicas + 1)]
    if args.replicas < 1 or len(args.replica_ports) != args.replicas:
        parser.error(
            f"--replicas must be >= 1 and match --replica-ports; "
            f"got {args.replicas} and {args.replica_ports}"
        )
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Start the replicas and HAProxy, wait for Ctrl-C or SIGTERM, stop everything.

    Returns
    -------
    int
        0 after a requested stop; 1 if starting failed, HAProxy died, or every replica did
        (Redis dying is only reported: the replicas go on, without classes).
    """
    args = parse_args(argv)
    if args.compose_config is not None:
        print(compose_config(args.compose_config), end="")
        return 0

    stopping = threading.Event()

    def request_stop(signum: int, frame: FrameType | None) -> None:
        stopping.set()

    # Installed before anything starts, so a Ctrl-C during start-up still cleans up.
    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)
    print(f"Starting {args.replicas} Arboretum replicas behind HAProxy...", flush=True)
    store = choose_class_store(args.redis_port, redis_binary(), os.environ)
    print(store.note, flush=True)
    try:
        cluster = Cluster.start(
            args.replica_ports,
            args.port,
            args.log_dir,
            bind=args.bind,
            redis_port=store.redis_port,
        )
    except RuntimeError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    with cluster:
        _announce(cluster, args.bind)
        code = _supervise(cluster, stopping)
    stopped = (
        "HAProxy, every replica and Redis"
        if cluster.redis is not None
        else "HAProxy and every replica"
    )
    print(f"Stopped: {stopped} have exited.", flush=True)
    return code


def _announce(cluster: Cluster, bind: str) -> None:
    for replica in cluster.replicas:
        print(
            f"  replica {replica.name}: 127.0.0.1:{replica.port}, pid {replica.process.pid}, "
            f"health check 127.0.0.1:{replica.health_port}, log {replica.process.log}"
        )
    where = f"http://localhost:{cluster.port}"
    if bind in ("*", "0.0.0.0", "::"):
        where += f" (from other machines: http://{socket.gethostname()}:{cluster.port})"
    print(f"  haproxy: pid {cluster.balancer.pid}, config {cluster.config}")
    if cluster.redis is not None:
        print(
            f"  redis: 127.0.0.1:{cluster.redis.port}, pid {cluster.redis.pid}, "
            f"log {cluster.redis.log} (the class store: {REDIS_URL_VARIABLE}={cluster.redis.url})"
        )
    print(f"Arboretum is ready: open {where}. Ctrl-C stops everything.", flush=True)


def _supervise(cluster: Cluster, stopping: threading.Event) -> int:
    reported: set[str] = set()
    redis_reported = False
    while not stopping.wait(0.5):
        if not cluster.balancer.alive():
            print(f"error: HAProxy exited; its log ends:\n{cluster.balancer.log_tail()}")
            return 1
        for replica in cluster.replicas:
            if not replica.process.alive() and replica.name not in reported:
                reported.add(replica.name)
                print(
                    f"warning: replica {replica.name} exited with code "
                    f"{replica.process.process.returncode}; HAProxy sends its students to the "
                    f"others (log: {replica.process.log})",
                    flush=True,
                )
        if len(reported) == len(cluster.replicas):
            print("error: every replica has exited", file=sys.stderr)
            return 1
        if cluster.redis is not None and not cluster.redis.alive() and not redis_reported:
            redis_reported = True
            print(
                f"warning: Redis exited with code {cluster.redis.process.returncode}; the "
                f"replicas go on, but no class works until make replicas starts again "
                f"(log: {cluster.redis.log})",
                flush=True,
            )
    print("Stopping HAProxy and the replicas...", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
