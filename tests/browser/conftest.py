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

from deploy.process import LiveServer
from tests.browser.browser_helpers import AppPage, serve, tab
from tests.live_app import ROOT


@pytest.fixture(scope="session")
def server(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with serve(ROOT / "serve.py", tmp_path_factory.mktemp("serve")) as running:
        yield running


@pytest.fixture
def app(browser: Any, server: LiveServer) -> Iterator[AppPage]:
    """A fresh tab on the app; fails if the server logged an uncaught exception meanwhile."""
    with tab(browser, server) as page:
        yield page


@pytest.fixture(scope="session")
def screenshot_dirs() -> list[Path]:
    dirs = [ROOT / "tests" / "artifacts" / "screenshots"]
    if os.environ.get("ARBORETUM_UPDATE_SCREENSHOTS") == "1":
        dirs.append(ROOT / "docs" / "images")
    return dirs
