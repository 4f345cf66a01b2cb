"""Fixtures shared by every folder of tests: the one Chromium that Playwright drives.

Playwright's synchronous API runs one event loop per thread, so a second
``sync_playwright()`` while the first is open fails ("using Playwright Sync API inside the
asyncio loop"). The browser tests and the load balancer's fault test therefore share this
session's browser.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from bench.live_app import chromium_path, launch_chromium

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
def browser(chromium: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = launch_chromium(playwright, chromium)
        yield launched
        launched.close()
