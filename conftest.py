"""Fixtures shared by every folder of tests: the one Chromium that Playwright drives, and a
real Redis server for the class store.

They sit at the top of the project, above ``tests/``, ``bench/tests/`` and
``classroom_load/tests/``, because there must be one of each per test process: Playwright's
synchronous API runs one event loop per thread, so a second ``sync_playwright()`` while the
first is open fails ("using Playwright Sync API inside the asyncio loop"). The browser tests,
the protocol client's comparison with Chromium and the load balancer's fault test therefore
share this session's browser.

The class store's tests run against Debian's ``redis-server`` (``make test`` installs it):
one server for the session (:func:`redis_server`), emptied before each test that asks for
:func:`redis_url`, and a server of its own for a test that stops it (:func:`own_redis`).
As with HAProxy, a missing ``redis-server`` fails those tests and says how to install it
(:func:`redis_installed`, also for the tests of ``make replicas``'s Redis).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from deploy.redis_server import MISSING_REDIS, RedisServer, redis_binary, start_redis
from tests.live_app import chromium_path, free_port, launch_chromium

MISSING_CHROMIUM = """\
Chromium was not found at {path}.
The browser tests drive the real app in Debian's Chromium. Install it with
    sudo apt-get install -y chromium fonts-dejavu-core    (or: make system-browser)
or point ARBORETUM_CHROMIUM at another Chromium binary.
To run the other tests without a browser, set ARBORETUM_SKIP_BROWSER=1."""

MISSING_PLAYWRIGHT = """\
Playwright for Python is not installed: pip install -e '.[test]'
(Only the Python package is needed; the browser is the system's Chromium.)
To run the other tests without a browser, set ARBORETUM_SKIP_BROWSER=1."""

#: Fixtures that start a process for the test to talk to: a Streamlit server (the browser
#: tests' ``server``, a module's own ``served`` or ``timer_app``), Redis, or the launcher with
#: HAProxy. A test that asks for one, directly or through another fixture, is ``live``.
LIVE_FIXTURES = frozenset(
    {"server", "served", "timer_app", "redis_server", "own_redis", "launcher"}
)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``live`` every test whose fixtures start a server; group and order them for workers.

    The mark is read from the fixtures rather than written in each file, so a new test that
    starts a server through one is marked too, and ``make check`` (``-m "not browser and not
    live"``) stays quick without anyone remembering the mark.

    Then the files are ordered for pytest-xdist's ``--dist loadfile`` (``make pytest``), which
    hands each worker one whole file at a time in the order collected: see :func:`_slow_first`.
    """
    for item in items:
        if LIVE_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.live)
    items[:] = _slow_first(items)


def _slow_first(items: list[pytest.Item]) -> list[pytest.Item]:
    """The files of browser tests first, then those that start a server, then the rest.

    A worker takes the next group when it is free, so the long groups go first and the many
    quick ones fill in at the end, and both workers finish at about the same time. Whole files
    move, keeping their order inside, so a module-scoped fixture still starts once.
    """

    def rank(item: pytest.Item) -> int:
        if item.get_closest_marker("browser"):
            return 0
        return 1 if item.get_closest_marker("live") else 2

    ranks: dict[str, int] = {}
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        ranks[path] = min(ranks.get(path, 2), rank(item))
    return sorted(items, key=lambda item: ranks[item.nodeid.split("::", 1)[0]])


@pytest.fixture(scope="session")
def chromium() -> str:
    """The Chromium binary to drive; skips only when asked to, fails when missing."""
    if os.environ.get("ARBORETUM_SKIP_BROWSER") == "1":
        pytest.skip("ARBORETUM_SKIP_BROWSER=1")
    path = chromium_path()
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        pytest.fail(MISSING_CHROMIUM.format(path=path), pytrace=False)
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.fail(MISSING_PLAYWRIGHT, pytrace=False)
    return path


@pytest.fixture(scope="session")
def browser(chromium: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = launch_chromium(playwright, chromium)
        yield launched
        launched.close()


@pytest.fixture(autouse=True)
def _no_browser_loop(request: pytest.FixtureRequest) -> Iterator[None]:
    """Hide the session browser's event loop from a test that does not drive the browser.

    Playwright's synchronous API leaves its event loop marked as running in the thread that
    started it, so after a browser test ``asyncio.run`` in that thread fails ("cannot be called
    from a running event loop"). A test that runs its own loop would then pass or fail by which
    tests ran before it in the same process, and with the tests spread over workers that order
    is not fixed. So the mark is taken off for the length of any test that does not use the
    browser, and put back after it, before Playwright next runs.
    """
    loop = asyncio.events._get_running_loop()
    if loop is None or "browser" in request.fixturenames:
        yield
        return
    asyncio.events._set_running_loop(None)
    try:
        yield
    finally:
        asyncio.events._set_running_loop(loop)


@pytest.fixture(scope="session")
def redis_installed() -> None:
    """Fails, saying how to install it, when redis-server is missing (``make test`` installs it)."""
    if redis_binary() is None:
        pytest.fail(MISSING_REDIS, pytrace=False)


def _start_redis(directory: Path) -> RedisServer:
    """A redis-server on a free loopback port, answering PING."""
    # free_port's port can be taken by another process before the server binds it: try again.
    tries = 3
    for attempt in range(1, tries + 1):
        try:
            return start_redis(free_port(), directory / f"redis-{attempt}.log")
        except RuntimeError:
            if attempt == tries:
                raise
    raise RuntimeError(f"redis-server did not start in {tries} tries")


@pytest.fixture(scope="session")
def redis_server(
    redis_installed: None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[RedisServer]:
    """One redis-server for the whole session, stopped at its end (``.url`` names it)."""
    with _start_redis(tmp_path_factory.mktemp("redis")) as server:
        yield server


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """The session's Redis, emptied for this test: ``redis://127.0.0.1:PORT/0``."""
    import redis

    with redis.Redis.from_url(redis_server.url) as client:
        client.flushdb()
    return redis_server.url


@pytest.fixture
def own_redis(redis_installed: None, tmp_path: Path) -> Iterator[RedisServer]:
    """A redis-server for this test alone, which it may stop (``.stop()``); stopped after it."""
    with _start_redis(tmp_path) as server:
        yield server
