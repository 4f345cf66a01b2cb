"""Fixtures for the end-to-end tests: the real app, served by Streamlit, in headless Chromium.

The browser is Debian's Chromium (``/usr/bin/chromium``, or the binary ``ARBORETUM_CHROMIUM``
names); Playwright never downloads one. Without it these tests fail and say how to install
it, unless ``ARBORETUM_SKIP_BROWSER=1`` is set.

Screenshots of every page go to ``tests/artifacts/screenshots/`` on each run; with
``ARBORETUM_UPDATE_SCREENSHOTS=1`` they also replace the ones in ``docs/images/``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import AppPage

from bench.live_app import (
    ROOT,
    VIEWPORT,
    LiveServer,
    chromium_path,
    free_port,
    launch_chromium,
    streamlit_command,
)

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
def server(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    log = tmp_path_factory.mktemp("streamlit") / "server.log"
    port = free_port()
    try:
        running = LiveServer.start(streamlit_command(ROOT / "app.py", port), port, log)
    except RuntimeError as error:
        pytest.fail(str(error), pytrace=False)
    yield running
    running.stop()


@pytest.fixture(scope="session")
def browser(chromium: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = launch_chromium(playwright, chromium)
        yield launched
        launched.close()


@pytest.fixture
def app(browser: Any, server: LiveServer) -> Iterator[AppPage]:
    """A fresh tab, and so a fresh Streamlit session: nothing carries over between tests.

    The test fails when the server logged an uncaught exception while it ran, even if the
    page hid it from the visitor.
    """
    start = server.log.stat().st_size if server.log.exists() else 0
    context = browser.new_context(viewport=VIEWPORT)
    try:
        yield AppPage(context.new_page(), server)
    finally:
        context.close()
    with server.log.open("rb") as log:
        log.seek(start)
        logged = log.read().decode(errors="replace")
    if "Uncaught app execution" in logged:
        pytest.fail(f"the app raised on the server:\n{logged[-4000:]}", pytrace=False)


@pytest.fixture(scope="session")
def screenshot_dirs() -> list[Path]:
    dirs = [ROOT / "tests" / "artifacts" / "screenshots"]
    if os.environ.get("ARBORETUM_UPDATE_SCREENSHOTS") == "1":
        dirs.append(ROOT / "docs" / "images")
    return dirs
