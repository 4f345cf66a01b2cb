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
    free_port,
    streamlit_command,
)


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
