"""The live app for tools that drive it: how a Streamlit server is started, and headless Chromium.

Shared by the browser tests (``tests/browser/``), the latency benchmark
(``bench/bench_latency.py``) and the classroom load simulator (``classroom_load/``), so all
serve the app with the same flags (started and stopped by :class:`deploy.process.LiveServer`,
as ``make replicas`` starts its replicas) and open it in the same browser. It lives with the
tests because the tests need it: the benchmarks import it from here, never the other way.

When is a run over? Streamlit's frontend sets ``data-test-script-state`` on the ``stApp``
element (``running`` while the script runs, ``notRunning`` after), but the last elements can
reach the DOM a moment after the state flips, and elements the new run has not sent again stay
marked ``data-stale="true"``. Streamlit shows the status widget only after a run has lasted
500 ms, so it alone says nothing about short runs. So a page counts as settled when the script
is not running, the connection is up, no element is stale, the status widget is gone, and the
elements we expect are there: :data:`SETTLED_FN`.
"""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # Playwright is imported only by whoever drives a browser.
    from playwright.sync_api import Browser, Playwright, ViewportSize

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
VIEWPORT: ViewportSize = {"width": 1400, "height": 900}

_T = TypeVar("_T")

# A JavaScript statement defining ``settled(selectors)``: the run is over, everything it sent
# is drawn, and every CSS selector in ``selectors`` matches. Meant to be pasted into a predicate.
SETTLED_FN = """
const settled = (selectors) => {
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || app.dataset.testScriptState !== "notRunning") return false;
  if (app.dataset.testConnectionState !== "CONNECTED") return false;
  if (document.querySelector('[data-stale="true"], [data-testid="stStatusWidget"]')) return false;
  return selectors.every((selector) => document.querySelector(selector) !== null);
};
"""


# --- the browser -------------------------------------------------------------------------------


def chromium_path() -> str:
    """The Chromium binary to drive: ``ARBORETUM_CHROMIUM``, else Debian's.

    Returns
    -------
    str
        The path, not checked here: callers say in their own words what is missing.
    """
    return os.environ.get("ARBORETUM_CHROMIUM", DEFAULT_CHROMIUM)


def launch_chromium(playwright: Playwright, executable: str) -> Browser:
    """Launch headless Chromium with :data:`LAUNCH_ARGS` (Playwright never downloads one).

    Parameters
    ----------
    playwright : Playwright
        A started ``sync_playwright()``.
    executable : str
        The Chromium binary, usually :func:`chromium_path`.

    Returns
    -------
    Browser
        The browser; the caller closes it.
    """
    return playwright.chromium.launch(executable_path=executable, args=LAUNCH_ARGS)


def run_beside_playwright(coroutine: Coroutine[Any, Any, _T]) -> _T:
    """``asyncio.run(coroutine)`` in a thread of its own, and its result.

    Playwright's sync API keeps an event loop running in the thread that drives the browser
    (a browser test, or one run before in the same process), and ``asyncio.run`` refuses to
    start in a thread whose loop runs: the protocol client and other async drivers get a
    thread of their own.
    """
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


# --- the server --------------------------------------------------------------------------------


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago.

    Returns
    -------
    int
        The port number.
    """
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def streamlit_flags(port: int) -> list[str]:
    """The options every live server is started with, after ``streamlit run SCRIPT``.

    Parameters
    ----------
    port : int
        Where to listen, on 127.0.0.1 only.

    Returns
    -------
    list of str
        Headless, local, no usage statistics, and no file watcher.
    """
    return [
        "--server.headless=true",
        "--server.address=127.0.0.1",
        f"--server.port={port}",
        "--browser.gatherUsageStats=false",
        # Other people edit the tree while we test: never rerun or prompt on their saves.
        "--server.fileWatcherType=none",
    ]


def streamlit_command(script: Path, port: int) -> list[str]:
    """``python -m streamlit run script`` with :func:`streamlit_flags`.

    Parameters
    ----------
    script : Path
        The Streamlit script to serve.
    port : int
        Where to listen.

    Returns
    -------
    list of str
        The command, for :meth:`deploy.process.LiveServer.start`.
    """
    return [sys.executable, "-m", "streamlit", "run", str(script), *streamlit_flags(port)]
