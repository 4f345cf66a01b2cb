"""The Dockerfile, the Compose file and the Kubernetes manifests, read and checked against each
other and against the project (no Docker engine or cluster runs here: this is what we can check).
"""

from __future__ import annotations

import fnmatch
import itertools
import json
import os
import re
import shlex
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

from core.classroom.limits import TRUSTED_PROXIES_VARIABLE
from core.classroom.store import REDIS_URL_VARIABLE
from deploy.haproxy import CONTAINER_HEALTH_PORT, CONTAINER_PORT, compose_config
from deploy.replicas import DEFAULT_REPLICAS, replica_command
from server.health import HEALTH_PATH, HEALTH_PORT_VARIABLE, STALL_LIMIT

ROOT = Path(__file__).resolve().parents[2]
HEALTH = "/_stcore/health"
# A replica's peak RSS in the classroom benchmark: 30 students at once walking 1,000 distinct
# settings (README, "Classroom benchmark", 25 November 2026).
MEASURED_PEAK_MIB = 887


# --- reading -----------------------------------------------------------------------------------


def dockerfile() -> list[tuple[str, str]]:
    """The Dockerfile's instructions as (INSTRUCTION, arguments), continuations joined."""
    instructions: list[tuple[str, str]] = []
    pending = ""
    for raw in (ROOT / "Dockerfile").read_text().splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        whole = pending + line
        pending = ""
        keyword, _, rest = whole.partition(" ")
        instructions.append((keyword.upper(), rest.strip()))
    return instructions


def arguments(keyword: str) -> list[str]:
    return [rest for word, rest in dockerfile() if word == keyword]


def exec_form(text: str) -> list[str]:
    """A JSON-array instruction (``CMD ["a", "b"]``) as its list."""
    parsed = json.loads(text)
    assert isinstance(parsed, list), f"not the exec form: {text}"
    return [str(part) for part in parsed]


def make_run_command(port: str) -> list[str]:
    """The command ``make run`` starts, with ``$(PORT)`` given and the venv's path dropped."""
    makefile = (ROOT / "Makefile").read_text()
    recipe = re.search(r"^run:.*\n\t(.+)$", makefile, flags=re.MULTILINE)
    assert recipe is not None, "the Makefile has no run target"
    words = shlex.split(recipe.group(1).replace("$(PORT)", port))
    return [words[0].removeprefix("$(BIN)/"), *words[1:]]


def build_context() -> set[str]:
    """The files ``docker build .`` would send, by .dockerignore's (simple) patterns."""
    patterns = [
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert not any(p.startswith("!") for p in patterns), "exceptions are not read here"

    def ignored(relative: str) -> bool:
        parts = relative.split("/")
        prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
        return any(
            fnmatch.fnmatch(prefix, pattern.removeprefix("**/"))
            or fnmatch.fnmatch(prefix, pattern)
            or (pattern.startswith("**/") and fnmatch.fnmatch(part, pattern[3:]))
            for pattern in patterns
            for prefix, part in zip(prefixes, parts, strict=True)
        )

    return {
        path.relative_to(ROOT).as_posix()
        for path in ROOT.rglob("*")
        if path.is_file() and not ignored(path.relative_to(ROOT).as_posix())
    }


def load_yaml(path: Path) -> list[dict[str, Any]]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc is not None]


def compose() -> dict[str, Any]:
    (document,) = load_yaml(ROOT / "compose.yaml")
    return document


def manifests() -> dict[tuple[str, str], dict[str, Any]]:
    """Every manifest in deploy/k8s, by (kind, name)."""
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for path in sorted((ROOT / "deploy" / "k8s").glob("*.yaml")):
        for document in load_yaml(path):
            key = (document["kind"], document["metadata"]["name"])
            assert key not in found, f"two {key}"
            found[key] = document
    return found


def kubernetes() -> dict[str, dict[str, Any]]:
    """The app's manifests in deploy/k8s (named ``arboretum``), by kind."""
    return {kind: doc for (kind, name), doc in manifests().items() if name == "arboretum"}


def redis_manifests() -> dict[str, dict[str, Any]]:
    """The class store's manifests in deploy/k8s (named ``arboretum-redis``), by kind."""
    return {kind: doc for (kind, name), doc in manifests().items() if name == "arboretum-redis"}


def selects(selector: dict[str, str], labels: dict[str, str]) -> bool:
    return selector.items() <= labels.items()


def store_address(url: str) -> tuple[str, int]:
    """The host and port of a ``redis://HOST:PORT/0`` class store address."""
    parts = urlsplit(url)
    assert parts.scheme == "redis" and parts.path == "/0", url
    assert parts.hostname is not None and parts.port is not None, url
    return parts.hostname, parts.port


def keeps_every_write(command: list[str]) -> bool:
    """Whether redis-server's ``command`` writes every change to the append-only file, flushed
    every second, and takes no snapshots besides (``deploy.redis_server.redis_command``'s)."""
    pairs = dict(itertools.pairwise(command))
    return (
        pairs.get("--appendonly") == "yes"
        and pairs.get("--appendfsync") == "everysec"
        and pairs.get("--save") == ""
    )


def mebibytes(quantity: str) -> float:
    found = re.fullmatch(r"(\d+(?:\.\d+)?)(Mi|Gi)", quantity)
    assert found is not None, f"memory in Mi or Gi expected; got {quantity}"
    return float(found.group(1)) * (1024 if found.group(2) == "Gi" else 1)


# --- the Dockerfile ----------------------------------------------------------------------------


def test_dockerfile_is_slim_python_with_graphviz_from_debian() -> None:
    assert arguments("FROM") == ["python:3.11-slim"]
    runs = " ".join(arguments("RUN"))
    assert re.search(r"apt-get install [^&]*\bgraphviz\b", runs)
    assert "rm -rf /var/lib/apt/lists/*" in runs


def test_dockerfile_installs_no_test_or_dev_tools() -> None:
    runs = " ".join(arguments("RUN"))
    assert "pip install" in runs
    for tool in ("[test", "[dev", "pytest", "playwright", "ruff", "mypy"):
        assert tool not in runs, tool


def test_dockerfile_runs_as_a_non_root_user_it_creates() -> None:
    instructions = dockerfile()
    users = arguments("USER")
    assert users and users[-1] not in ("root", "0")
    created = re.search(r"useradd .*--uid (\d+) (\S+)", " ".join(arguments("RUN")))
    assert created is not None and created.group(2) == users[-1]
    last_user = max(i for i, (word, _) in enumerate(instructions) if word == "USER")
    assert all(word != "RUN" for word, _ in instructions[last_user:]), "RUN after USER"


def test_dockerfile_starts_the_app_as_make_run_does_and_checks_its_health() -> None:
    (cmd,) = arguments("CMD")
    command = exec_form(cmd)
    port = command[command.index("--server.port") + 1]
    assert command == make_run_command(port)
    assert arguments("EXPOSE") == [port] == [str(CONTAINER_PORT)]
    (healthcheck,) = arguments("HEALTHCHECK")
    probe = exec_form(healthcheck.split("CMD", 1)[1].strip())
    assert f"http://127.0.0.1:{port}{HEALTH}" in " ".join(probe)


def test_the_build_context_holds_the_app_and_its_config_and_nothing_else() -> None:
    context = build_context()
    needed = {
        "app.py",
        "serve.py",
        "pyproject.toml",
        ".streamlit/config.toml",
        "datasets/manifest.json",
    }
    assert needed <= context
    for folder in ("pages", "core", "server", "datasets"):
        tracked = {p.relative_to(ROOT).as_posix() for p in (ROOT / folder).rglob("*.py")}
        tracked |= {p.relative_to(ROOT).as_posix() for p in (ROOT / folder).rglob("*.csv")}
        assert tracked <= context, folder
    for kept_out in ("tests/", "bench/", "classroom_load/", ".venv/", ".git/", "docs/", "build/"):
        assert not any(path.startswith(kept_out) for path in context), kept_out
    assert not any("__pycache__" in path for path in context)


# --- the Compose file --------------------------------------------------------------------------


def test_compose_runs_haproxy_in_front_of_its_app_replicas() -> None:
    services = compose()["services"]
    apps = sorted(name for name in services if name.startswith("app"))
    assert apps == [f"app{i}" for i in range(1, len(apps) + 1)] and len(apps) >= 2
    assert set(services) == {*apps, "haproxy", "redis"}
    haproxy = services["haproxy"]
    assert haproxy["image"].startswith("haproxy:")
    assert haproxy["ports"] == ["8640:8640"]
    assert haproxy["depends_on"] == {app: {"condition": "service_healthy"} for app in apps}
    (volume,) = haproxy["volumes"]
    source, target, mode = volume.split(":")
    assert (ROOT / source).is_file() and target == "/usr/local/etc/haproxy/haproxy.cfg"
    assert mode == "ro"
    # HAProxy's configuration names exactly these services, on the port they listen on.
    assert (ROOT / source).read_text() == compose_config(len(apps))
    servers = re.findall(
        r"^\s+server (\S+) (\S+):(\d+) cookie (\S+)", compose_config(len(apps)), re.M
    )
    assert servers == [(app, app, str(CONTAINER_PORT), app) for app in apps]


def test_compose_replicas_are_the_image_healthy_and_reached_only_through_haproxy() -> None:
    services = compose()["services"]
    for name, service in services.items():
        if name in ("haproxy", "redis"):
            continue
        assert service["build"] == "."
        assert "ports" not in service, f"{name} publishes a port around HAProxy"
        assert service["expose"] == [str(CONTAINER_PORT), str(CONTAINER_HEALTH_PORT)]
        # Checked where HAProxy checks it: the replica's own health port, off its event loop.
        assert service["environment"][HEALTH_PORT_VARIABLE] == str(CONTAINER_HEALTH_PORT)
        test = " ".join(service["healthcheck"]["test"])
        assert f"http://127.0.0.1:{CONTAINER_HEALTH_PORT}{HEALTH_PATH}" in test
    config = compose_config(3)
    assert "cookie arboretum_replica insert" in config
    assert f"option httpchk GET {HEALTH_PATH}" in config
    assert f"port {CONTAINER_HEALTH_PORT}" in config


def test_compose_replicas_share_the_redis_service_as_their_class_store() -> None:
    services = compose()["services"]
    redis = services["redis"]
    assert redis["image"].startswith("redis:7")
    assert "ports" not in redis, "Redis is for the replicas only"
    assert redis["command"][0] == "redis-server" and keeps_every_write(redis["command"])
    # Redis's image keeps its files in /data: a named volume there outlives the container.
    (volume,) = redis["volumes"]
    name, folder = volume.split(":")
    assert folder == "/data" and name in compose()["volumes"]
    assert redis["healthcheck"]["test"] == ["CMD", "redis-cli", "ping"]
    apps = [name for name in services if name.startswith("app")]
    for name in apps:
        host, port = store_address(services[name]["environment"][REDIS_URL_VARIABLE])
        assert (host, str(port)) == ("redis", redis["expose"][0]), name
        assert "redis" in services[name]["depends_on"], name
    assert "redis" not in services["haproxy"]["depends_on"]


# --- Kubernetes --------------------------------------------------------------------------------


def test_kubernetes_has_the_apps_deployment_service_and_ingress_and_a_redis() -> None:
    assert set(manifests()) == {
        ("Deployment", "arboretum"),
        ("Service", "arboretum"),
        ("Ingress", "arboretum"),
        ("Deployment", "arboretum-redis"),
        ("Service", "arboretum-redis"),
        ("PersistentVolumeClaim", "arboretum-redis"),
    }


def test_deployment_selector_service_and_ingress_agree() -> None:
    manifests = kubernetes()
    deployment, service, ingress = (manifests[k] for k in ("Deployment", "Service", "Ingress"))
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    selector = deployment["spec"]["selector"]["matchLabels"]
    assert selector.items() <= labels.items()
    assert service["spec"]["selector"].items() <= labels.items()
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    container_ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert container_ports == {"http": CONTAINER_PORT, "health": CONTAINER_HEALTH_PORT}
    (service_port,) = service["spec"]["ports"]
    assert service_port["targetPort"] in container_ports
    (rule,) = ingress["spec"]["rules"]
    (path,) = rule["http"]["paths"]
    backend = path["backend"]["service"]
    assert backend["name"] == service["metadata"]["name"]
    assert backend["port"]["name"] == service_port["name"]


def test_deployment_probes_health_and_states_its_memory() -> None:
    spec = kubernetes()["Deployment"]["spec"]["template"]["spec"]
    (container,) = spec["containers"]
    env = {item["name"]: item["value"] for item in container["env"]}
    assert env[HEALTH_PORT_VARIABLE] == str(CONTAINER_HEALTH_PORT)
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        get = container[probe]["httpGet"]
        assert get["path"] == HEALTH_PATH and get["port"] == "health", probe
    # Readiness may flap for a moment; liveness restarts only a pod that failed for a minute,
    # which is longer than the check needs to say a stuck event loop is stalled.
    readiness, liveness = container["readinessProbe"], container["livenessProbe"]
    assert readiness["periodSeconds"] * readiness["failureThreshold"] <= 10
    patience = liveness["periodSeconds"] * liveness["failureThreshold"]
    assert patience >= 60 > STALL_LIMIT
    assert liveness["timeoutSeconds"] >= readiness["timeoutSeconds"] >= 2
    # Starting (the pages and the compiled engine loaded first) has minutes, not seconds.
    startup = container["startupProbe"]
    assert startup["periodSeconds"] * startup["failureThreshold"] >= 120
    resources = container["resources"]
    request = mebibytes(resources["requests"]["memory"])
    limit = mebibytes(resources["limits"]["memory"])
    assert 0 < request <= limit
    # The limit holds the classroom benchmark's measured peak per replica (README).
    assert limit >= MEASURED_PEAK_MIB
    # Non-root, as the image's user.
    users = re.search(r"--uid (\d+)", " ".join(arguments("RUN")))
    assert users is not None
    assert spec["securityContext"] == {"runAsNonRoot": True, "runAsUser": int(users.group(1))}


def test_compose_limits_memory_as_kubernetes_does() -> None:
    limit = compose()["x-app"]["mem_limit"]
    found = re.fullmatch(r"(\d+)m", limit)
    assert found is not None, f"mem_limit in m expected; got {limit}"
    spec = kubernetes()["Deployment"]["spec"]["template"]["spec"]
    (container,) = spec["containers"]
    assert int(found.group(1)) == mebibytes(container["resources"]["limits"]["memory"])
    assert int(found.group(1)) >= MEASURED_PEAK_MIB


def test_ingress_keeps_a_browser_on_its_pod_and_its_websocket_open() -> None:
    notes = kubernetes()["Ingress"]["metadata"]["annotations"]
    prefix = "nginx.ingress.kubernetes.io/"
    assert notes[prefix + "affinity"] == "cookie"
    assert notes[prefix + "affinity-mode"] == "persistent"
    assert notes[prefix + "session-cookie-name"]
    assert notes[prefix + "session-cookie-change-on-failure"] == "true"
    for timeout in ("proxy-read-timeout", "proxy-send-timeout"):
        assert int(notes[prefix + timeout]) >= 3600, timeout


def test_every_pod_names_the_redis_service_and_the_service_reaches_redis() -> None:
    app, redis = kubernetes(), redis_manifests()
    (container,) = app["Deployment"]["spec"]["template"]["spec"]["containers"]
    env = {item["name"]: item["value"] for item in container["env"]}
    host, port = store_address(env[REDIS_URL_VARIABLE])
    service = redis["Service"]
    assert host == service["metadata"]["name"]
    (service_port,) = service["spec"]["ports"]
    assert service_port["port"] == port

    pod = redis["Deployment"]["spec"]["template"]
    assert redis["Deployment"]["spec"]["replicas"] == 1, "one store, or classes split"
    assert selects(
        redis["Deployment"]["spec"]["selector"]["matchLabels"], pod["metadata"]["labels"]
    )
    assert selects(service["spec"]["selector"], pod["metadata"]["labels"])
    (redis_container,) = pod["spec"]["containers"]
    container_ports = {p["name"]: p["containerPort"] for p in redis_container["ports"]}
    assert container_ports == {service_port["targetPort"]: 6379}
    assert redis_container["image"].startswith("redis:7")
    assert keeps_every_write(redis_container["args"])
    # Its files on the volume claimed beside it, mounted by one pod at a time.
    (mount,) = redis_container["volumeMounts"]
    assert mount["mountPath"] == "/data"
    (volume,) = pod["spec"]["volumes"]
    assert volume["name"] == mount["name"]
    claim = redis["PersistentVolumeClaim"]
    assert volume["persistentVolumeClaim"]["claimName"] == claim["metadata"]["name"]
    assert claim["spec"]["accessModes"] == ["ReadWriteOnce"]
    assert redis["Deployment"]["spec"]["strategy"]["type"] == "Recreate"
    assert pod["spec"]["securityContext"]["fsGroup"] == pod["spec"]["securityContext"]["runAsUser"]
    assert redis_container["readinessProbe"]["exec"]["command"] == ["redis-cli", "ping"]
    assert pod["spec"]["securityContext"]["runAsNonRoot"] is True
    resources = redis_container["resources"]
    assert (
        0 < mebibytes(resources["requests"]["memory"]) <= mebibytes(resources["limits"]["memory"])
    )
    # The app's Service (and so its Ingress) never sends a browser to the Redis pod, nor the
    # Redis Service a store command to an app pod.
    app_pod = app["Deployment"]["spec"]["template"]["metadata"]["labels"]
    assert not selects(app["Service"]["spec"]["selector"], pod["metadata"]["labels"])
    assert not selects(service["spec"]["selector"], app_pod)


# --- serving defaults ------------------------------------------------------------------------


def recipe(target: str) -> list[str]:
    """The words of a Makefile target's command (its first recipe line)."""
    makefile = (ROOT / "Makefile").read_text()
    found = re.search(rf"^{target}:(?! export).*\n\t(.+)$", makefile, flags=re.MULTILINE)
    assert found is not None, f"the Makefile has no {target} target"
    return shlex.split(found.group(1))


def served_setting(command: list[str], name: str) -> str | None:
    """The value ``command`` gives Streamlit's ``--server.<name>``, if it gives one."""
    flag = f"--server.{name}"
    for i, word in enumerate(command):
        if word == flag:
            return command[i + 1]
        if word.startswith(f"{flag}="):
            return word.split("=", 1)[1]
    return None


def test_the_file_watcher_is_off_wherever_students_are_served() -> None:
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["server"]["fileWatcherType"] == "none"
    # Every serving path reads that file and none turns the watcher back on.
    (cmd,) = arguments("CMD")
    for command in (recipe("run"), exec_form(cmd), replica_command(8641)):
        assert served_setting(command, "fileWatcherType") in (None, "none"), command
    assert ".streamlit/config.toml" in build_context()  # the image (Compose, k8s) has it


def test_every_serving_path_starts_serve_py_with_the_class_check() -> None:
    """``serve.py`` adds the followers' HTTP check to Streamlit's server; a path that started
    ``app.py`` would leave every student's page checking by a Streamlit run each second."""
    (cmd,) = arguments("CMD")
    for command in (recipe("run"), recipe("dev"), exec_form(cmd), replica_command(8641)):
        assert command[command.index("run") + 1] == "serve.py", command
    served = (ROOT / "serve.py").read_text(encoding="utf-8")
    # The middleware order is checked on the imported app (tests/server/test_frontend_files).
    assert "check_middleware(classroom)" in served


def test_make_dev_is_make_run_with_the_watcher_on() -> None:
    dev, run = recipe("dev"), recipe("run")
    assert served_setting(dev, "fileWatcherType") == "auto"
    assert served_setting(dev, "runOnSave") == "true"
    assert dev == [*run, "--server.fileWatcherType", "auto", "--server.runOnSave", "true"]


def test_make_replicas_starts_one_replica_per_core_by_default() -> None:
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^REPLICAS \?= \$\(shell nproc", makefile, flags=re.MULTILINE)
    assert (os.cpu_count() or 2) == DEFAULT_REPLICAS


def test_every_balancer_names_its_clients_and_the_replicas_trust_that_one_entry() -> None:
    # Wrong class codes are counted per client address; behind a balancer that does not say
    # who the client is, every student would be one address and share one allowance.
    assert "option forwardfor" in compose_config(3)
    assert "option forwardfor" in (ROOT / "deploy" / "haproxy.cfg.in").read_text()
    for name, service in compose()["services"].items():
        if name not in ("haproxy", "redis"):
            assert service["environment"][TRUSTED_PROXIES_VARIABLE] == "1", name
    spec = kubernetes()["Deployment"]["spec"]["template"]["spec"]
    (container,) = spec["containers"]
    env = {item["name"]: item["value"] for item in container["env"]}
    assert env[TRUSTED_PROXIES_VARIABLE] == "1"
