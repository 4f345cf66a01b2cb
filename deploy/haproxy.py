"""HAProxy's configuration for Arboretum's replicas, from the template ``deploy/haproxy.cfg.in``.

One template serves both places the replicas run behind HAProxy: ``make replicas`` on one
machine (replicas on 127.0.0.1, :func:`local_backends`) and the Compose file (replicas found by
service name, :func:`compose_config`, committed as ``deploy/compose/haproxy.cfg``). The
template says why each setting is there.
"""

from __future__ import annotations

import shutil
import string
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

TEMPLATE = Path(__file__).with_name("haproxy.cfg.in")
COOKIE = "arboretum_replica"
DEFAULT_PORT = 8640
# Streamlit inside the Compose file's containers, where each replica is its own host.
CONTAINER_PORT = 8501
# Each container's own health check (serve.py's ARBORETUM_HEALTH_PORT, server/health.py).
CONTAINER_HEALTH_PORT = 8502
# Compose's embedded DNS: a replica container that restarts may come back on a new address.
COMPOSE_RESOLVERS = """
resolvers docker
    nameserver dns 127.0.0.11:53
    hold valid 1s
"""


@dataclass(frozen=True)
class Backend:
    """One replica as HAProxy sees it.

    Attributes
    ----------
    name : str
        The server's name in HAProxy, also the value of the affinity cookie (``r1``, ``r2``...).
    address : str
        ``host:port`` where the replica listens.
    health_port : int
        The port on the same host where the replica answers ``GET /health`` off its event
        loop (``ARBORETUM_HEALTH_PORT``, ``server/health.py``): what HAProxy checks.
    """

    name: str
    address: str
    health_port: int


def render_config(
    backends: Sequence[Backend],
    port: int,
    *,
    bind: str = "*",
    server_options: str = "",
    resolvers: str = "",
) -> str:
    """HAProxy's configuration for ``backends``, from the template ``deploy/haproxy.cfg.in``.

    Parameters
    ----------
    backends : sequence of Backend
        The replicas, at least one, with distinct names.
    port : int
        Where HAProxy listens for browsers.
    bind : str, default "*"
        The address HAProxy listens on (``*``: every interface, so a classroom can reach it).
    server_options : str, default ""
        Extra options for every server line (the Compose file's name resolution).
    resolvers : str, default ""
        A ``resolvers`` section to append, or nothing.

    Returns
    -------
    str
        The configuration, ready for ``haproxy -f``.

    Raises
    ------
    ValueError
        If ``backends`` is empty or two share a name.
    """
    names = [backend.name for backend in backends]
    if not names:
        raise ValueError("backends must name at least one replica; got none")
    if len(set(names)) != len(names):
        raise ValueError(f"backend names must be distinct; got {names}")
    servers = "\n".join(
        f"    server {b.name} {b.address} cookie {b.name} port {b.health_port}" for b in backends
    )
    return string.Template(TEMPLATE.read_text()).substitute(
        bind=bind,
        port=port,
        cookie=COOKIE,
        over_share=over_share(names),
        server_options=server_options,
        servers=servers,
        resolvers=resolvers,
    )


def over_share(names: Sequence[str]) -> str:
    """The backend's lines that place a websocket by leastconn when its cookie names a
    replica holding more connections than its share (``txn.share``, set in the frontend).

    HAProxy reads one server's connection count only by its name, so each replica gets an
    ``acl`` and an ``ignore-persist`` of its own.
    """
    lines = []
    for name in names:
        lines += [
            f"    acl over_share_{name} srv_conn(replicas/{name}),sub(txn.share) gt 0",
            f"    ignore-persist if stream {{ req.cook({COOKIE}) -m str {name} }} "
            f"over_share_{name}",
        ]
    return "\n".join(lines)


def replica_names(count: int) -> list[str]:
    """The names of ``count`` local replicas, in order: ``r1``, ``r2``..."""
    return [f"r{i}" for i in range(1, count + 1)]


def local_backends(ports: Sequence[int], health_ports: Sequence[int]) -> tuple[Backend, ...]:
    """Replicas ``r1``, ``r2``... on 127.0.0.1 at ``ports``, checked at ``health_ports``, in
    order."""
    return tuple(
        Backend(name, f"127.0.0.1:{port}", health)
        for name, port, health in zip(replica_names(len(ports)), ports, health_ports, strict=True)
    )


def compose_config(replicas: int) -> str:
    """The configuration of the Compose file's HAProxy: services ``app1`` to ``appN``.

    Parameters
    ----------
    replicas : int
        How many app services the Compose file declares.

    Returns
    -------
    str
        The configuration; ``deploy/compose/haproxy.cfg`` must be exactly this.
    """
    backends = [
        Backend(f"app{i}", f"app{i}:{CONTAINER_PORT}", CONTAINER_HEALTH_PORT)
        for i in range(1, replicas + 1)
    ]
    # Resolve at start, keep the last address if DNS fails, and start even if a replica's
    # name is not known yet; the resolvers section follows later address changes.
    options = " resolvers docker init-addr last,libc,none"
    return render_config(
        backends, DEFAULT_PORT, server_options=options, resolvers=COMPOSE_RESOLVERS
    )


def haproxy_binary() -> str | None:
    """HAProxy's executable (Debian puts it in /usr/sbin, often not on a user's PATH)."""
    return shutil.which("haproxy") or shutil.which("haproxy", path="/usr/sbin:/usr/local/sbin")


def check_config(path: Path, haproxy: str) -> None:
    """Ask HAProxy whether the configuration in ``path`` is valid.

    Raises
    ------
    RuntimeError
        With HAProxy's own explanation, if it is not.
    """
    checked = subprocess.run(
        [haproxy, "-c", "-f", str(path)], capture_output=True, text=True, check=False
    )
    if checked.returncode != 0:
        raise RuntimeError(f"haproxy -c rejected {path}:\n{checked.stdout}{checked.stderr}")
