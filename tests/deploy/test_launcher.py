"""``make replicas``'s launcher: the HAProxy configuration it writes, the class store it
starts, and a clean stop."""

from __future__ import annotations

import gzip
import itertools
import os
import re
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest
from launched import Launched, descendants, environment, haproxy_installed, still_alive

from core.classroom import store
from deploy.haproxy import (
    CONTAINER_HEALTH_PORT,
    COOKIE,
    Backend,
    check_config,
    compose_config,
    haproxy_binary,
    local_backends,
    render_config,
)
from deploy.redis_server import REDIS_URL_VARIABLE, redis_command, redis_url
from deploy.replicas import Cluster, choose_class_store, parse_args, port_is_free
from server.health import HEALTH_PATH, HEALTH_PORT_VARIABLE

ROOT = Path(__file__).resolve().parents[2]


def directives(config: str, section: str) -> list[str]:
    """The lines of the section whose header is ``section``, comments and blanks left out."""
    lines: list[str] = []
    inside = False
    for raw in config.splitlines():
        line = raw.split("#", 1)[0].rstrip()
        if not line:
            continue
        if not raw.startswith((" ", "\t")):
            inside = line == section
            continue
        if inside:
            lines.append(" ".join(line.split()))
    return lines


# --- the configuration -------------------------------------------------------------------------


def test_config_pins_each_browser_to_its_replica_by_cookie() -> None:
    config = render_config(local_backends([9001, 9002, 9003], [9101, 9102, 9103]), 9000)
    backend = directives(config, "backend replicas")
    assert f"cookie {COOKIE} insert indirect nocache httponly" in backend
    servers = [line for line in backend if line.startswith("server ")]
    # Each replica is checked at its own health port ("port"), not where it serves.
    assert servers == [
        "server r1 127.0.0.1:9001 cookie r1 port 9101",
        "server r2 127.0.0.1:9002 cookie r2 port 9102",
        "server r3 127.0.0.1:9003 cookie r3 port 9103",
    ]
    assert "bind *:9000" in directives(config, "frontend arboretum")


def test_config_checks_health_and_moves_browsers_off_a_dead_replica() -> None:
    config = render_config(local_backends([9001, 9002], [9101, 9102]), 9000)
    backend = directives(config, "backend replicas")
    assert f"option httpchk GET {HEALTH_PATH}" in backend
    assert "http-check expect string ok" in backend
    (default_server,) = [line for line in backend if line.startswith("default-server")]
    words = default_server.split()
    # A dead replica (connection refused) is out after three checks, about 2 s.
    assert words[words.index("fall") + 1] == "3"
    assert words[words.index("inter") + 1] == "1s"
    assert words[words.index("fastinter") + 1] == "500ms"
    # A busy one has 2 s to answer each check, three times in a row.
    assert "timeout check 2s" in backend
    # Sessions are never closed by HAProxy for a failed check: a dead replica's close anyway.
    assert "on-marked-down" not in words and "shutdown-sessions" not in words
    defaults = directives(config, "defaults")
    assert "option redispatch 1" in defaults
    # The websocket outlives a lesson's HTTP timeouts only through the tunnel timeout.
    (tunnel,) = [line for line in defaults if line.startswith("timeout tunnel")]
    assert tunnel == "timeout tunnel 2h"


@pytest.mark.parametrize(
    ("backends", "message"),
    [((), "at least one"), ((Backend("r1", "a:1", 3), Backend("r1", "b:2", 3)), "distinct")],
)
def test_config_refuses_no_replicas_or_two_of_one_name(
    backends: tuple[Backend, ...], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        render_config(backends, 9000)


def test_the_compose_files_haproxy_config_is_the_template_rendered_for_its_services() -> None:
    committed = (ROOT / "deploy" / "compose" / "haproxy.cfg").read_text()
    assert committed == compose_config(3), (
        "deploy/compose/haproxy.cfg is out of date: "
        "python -m deploy.replicas --compose-config 3 > deploy/compose/haproxy.cfg"
    )
    servers = [line for line in directives(committed, "backend replicas") if "server " in line]
    assert [line.split()[1:3] for line in servers if line.startswith("server")] == [
        ["app1", "app1:8501"],
        ["app2", "app2:8501"],
        ["app3", "app3:8501"],
    ]
    assert all(
        line.endswith(f" port {CONTAINER_HEALTH_PORT}")
        for line in servers
        if line.startswith("server ")
    )


@pytest.mark.skipif(not haproxy_installed(), reason="validated by the tests that need HAProxy")
@pytest.mark.parametrize("which", ["local", "compose"])
def test_haproxy_accepts_the_generated_configs(which: str, tmp_path: Path) -> None:
    path = tmp_path / "haproxy.cfg"
    path.write_text(
        render_config(local_backends([9001, 9002], [9101, 9102]), 9000)
        if which == "local"
        else compose_config(3)
    )
    haproxy = haproxy_binary()
    assert haproxy is not None
    check_config(path, haproxy)
    path.write_text(path.read_text().replace("balance leastconn", "balance nonsense"))
    with pytest.raises(RuntimeError, match="balance only supports"):
        check_config(path, haproxy)


# --- the class store ---------------------------------------------------------------------------


def test_the_launcher_names_the_store_as_the_app_reads_it() -> None:
    assert REDIS_URL_VARIABLE == store.REDIS_URL_VARIABLE


def test_the_launcher_starts_redis_on_a_free_port_unless_told_which() -> None:
    chosen = choose_class_store(None, "/usr/bin/redis-server", {})
    assert chosen.redis_port is not None and port_is_free(chosen.redis_port)
    assert chosen.url == redis_url(chosen.redis_port) == f"redis://127.0.0.1:{chosen.redis_port}/0"
    given = choose_class_store(9379, "/usr/bin/redis-server", {"PATH": "/usr/bin"})
    assert (given.redis_port, given.url) == (9379, "redis://127.0.0.1:9379/0")
    assert parse_args([]).redis_port is None
    assert parse_args(["--redis-port", "9379"]).redis_port == 9379


def test_the_class_store_keeps_every_write_and_a_scratch_server_nothing(tmp_path: Path) -> None:
    kept = redis_command("redis-server", 9379, tmp_path, persist=True)
    pairs = dict(itertools.pairwise(kept))
    written = (pairs["--appendonly"], pairs["--appendfsync"], pairs["--save"])
    assert written == ("yes", "everysec", "")
    assert pairs["--dir"] == str(tmp_path)  # where a Redis started again finds the file
    scratch = dict(itertools.pairwise(redis_command("redis-server", 9379, tmp_path)))
    assert (scratch["--appendonly"], scratch["--save"]) == ("no", "")
    assert "--appendfsync" not in scratch


def test_a_store_the_environment_names_is_used_and_no_redis_started() -> None:
    chosen = choose_class_store(
        9379, "/usr/bin/redis-server", {REDIS_URL_VARIABLE: " redis://db:6379/2 "}
    )
    assert (chosen.redis_port, chosen.url) == (None, "redis://db:6379/2")
    assert "redis://db:6379/2" in chosen.note


def test_without_redis_server_the_launcher_says_replicas_share_no_class() -> None:
    chosen = choose_class_store(None, None, {REDIS_URL_VARIABLE: ""})
    assert (chosen.redis_port, chosen.url) == (None, None)
    assert chosen.note.startswith("warning: redis-server is not installed")
    assert ".ci/system-deps.sh redis" in chosen.note
    assert "without a shared class store" in chosen.note


def test_a_cluster_asked_for_redis_without_redis_server_starts_nothing(
    haproxy: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("deploy.replicas.redis_binary", lambda: None)
    with pytest.raises(RuntimeError, match="redis-server is not installed"):
        Cluster.start([9101], 9100, tmp_path / "logs", redis_port=9102)
    assert not (tmp_path / "logs").exists()


def test_redis_takes_a_port_of_its_own(haproxy: None, tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="ports must be distinct"):
        Cluster.start([9101, 9102], 9100, tmp_path / "logs", redis_port=9102)
    assert not (tmp_path / "logs").exists()


# --- the arguments and the Makefile ------------------------------------------------------------


def test_replica_ports_follow_the_public_port_unless_given() -> None:
    assert parse_args(["--replicas", "3", "--port", "8640"]).replica_ports == [8641, 8642, 8643]
    given = parse_args(["--replicas", "2", "--replica-ports", "9100,9200"])
    assert given.replica_ports == [9100, 9200]
    with pytest.raises(SystemExit):
        parse_args(["--replicas", "3", "--replica-ports", "9100,9200"])
    with pytest.raises(SystemExit):
        parse_args(["--replicas", "0"])


def test_make_replicas_runs_the_launcher_with_its_variables() -> None:
    dry = subprocess.run(
        [
            "make",
            "-n",
            "-o",
            ".venv/.arboretum-installed",
            "replicas",
            "REPLICAS=4",
            "LB_PORT=9000",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    (line,) = [line for line in dry.stdout.splitlines() if "deploy.replicas" in line]
    assert "--replicas 4" in line and "--port 9000" in line


# --- the processes -----------------------------------------------------------------------------


def test_ctrl_c_stops_haproxy_every_replica_and_redis(
    launcher: Callable[[int], Launched], redis_installed: None
) -> None:
    launched = launcher(2)
    with urllib.request.urlopen(launched.url + "/_stcore/health", timeout=10) as answer:
        assert answer.read() == b"ok"
        cookies = answer.headers.get_all("Set-Cookie")
    assert any(cookie.startswith(f"{COOKIE}=r") for cookie in cookies), cookies
    started = descendants(launched.process.pid)
    pids = {pid for _, pid in launched.replicas.values()} | {launched.haproxy_pid}
    assert pids <= started.keys(), "the launcher's children are not the processes it printed"
    # The class store: a Redis of the launcher's own, named to every replica, logging with them.
    assert launched.redis is not None, launched.printed()
    redis_port, redis_pid = launched.redis
    assert redis_pid in started
    url = redis_url(redis_port)
    for name, (_, pid) in launched.replicas.items():
        assert environment(pid).get(REDIS_URL_VARIABLE) == url, name
        # Each replica answers its own health check, on the port HAProxy was told.
        health = int(environment(pid)[HEALTH_PORT_VARIABLE])
        assert f"server {name} 127.0.0.1:" in launched.haproxy_config()
        assert f"cookie {name} port {health}" in launched.haproxy_config()
        check = f"http://127.0.0.1:{health}{HEALTH_PATH}"
        with urllib.request.urlopen(check, timeout=10) as answer:
            assert answer.read() == b"ok", name
    shared = store.RedisStore(url)
    assert shared.put("launcher-test", "answered", 60) is True
    assert shared.get("launcher-test") == "answered"
    assert "Ready to accept connections" in (launched.log_dir / "redis.log").read_text()
    # It keeps the classes in an append-only file beside the logs (test_class_store_restart.py).
    assert (launched.log_dir / "appendonlydir").is_dir()

    assert launched.stop(signal.SIGINT) == 0, launched.printed()

    assert still_alive(started) == [], f"left running:\n{launched.printed()}"
    for port in (launched.port, *(port for port, _ in launched.replicas.values()), redis_port):
        assert port_is_free(port), f"port {port} is still taken"
    assert "Stopped: HAProxy, every replica and Redis have exited." in launched.printed()
    with pytest.raises(store.StoreDown):
        shared.get("launcher-test")


def test_a_static_file_comes_from_haproxy_once_a_replica_has_sent_it(
    launcher: Callable[[int], Launched],
) -> None:
    launched = launcher(1)
    with urllib.request.urlopen(launched.url + "/", timeout=30) as answer:
        page = answer.read().decode()
    scripts = re.findall(r"\./(static/js/[\w.-]+\.js)", page)
    styles = re.findall(r"\./(static/css/[\w.-]+\.css)", page)
    assert scripts and styles, "the page names its static bundle"
    fetched, untouched = scripts[0], styles[0]
    browser = {"Accept-Encoding": "gzip, deflate, br, zstd"}  # what Chromium asks with

    def fetch(path: str, headers: dict[str, str]) -> tuple[bytes, str | None]:
        asked = urllib.request.Request(f"{launched.url}/{path}", headers=headers)
        with urllib.request.urlopen(asked, timeout=30) as answer:
            assert "immutable" in answer.headers["Cache-Control"]
            assert answer.headers["Vary"] == "Accept-Encoding"
            return answer.read(), answer.headers["Content-Encoding"]

    refuses = {"Accept-Encoding": "identity"}
    plain, packed = fetch(fetched, refuses), fetch(fetched, browser)
    assert plain[1] is None and packed[1] == "gzip"
    assert gzip.decompress(packed[0]) == plain[0]

    # No replica left to answer. Frozen, not killed: the launcher stops HAProxy as soon as
    # every replica has exited, and a frozen one fails its health checks as a dead one does.
    (_, pid) = launched.replicas["r1"]
    os.kill(pid, signal.SIGSTOP)
    try:
        deadline = time.monotonic() + 60
        while "r1 is DOWN" not in launched.haproxy_log() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert "r1 is DOWN" in launched.haproxy_log(), launched.haproxy_log()

        # The compressed form is kept for every browser, even though a client that refuses
        # gzip asked first: its plain form was not kept, so it cannot be given to browsers.
        assert fetch(fetched, browser) == packed, "the cached copy is the form the replica sent"
        with pytest.raises((urllib.error.URLError, ConnectionError)):
            fetch(fetched, refuses)
        # A file no replica sent yet cannot come from the cache: with no replica, HAProxy
        # fails it.
        with pytest.raises((urllib.error.URLError, ConnectionError)):
            urllib.request.urlopen(f"{launched.url}/{untouched}", timeout=30)
    finally:
        os.kill(pid, signal.SIGCONT)
