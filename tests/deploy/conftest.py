"""Fixtures for the deploy tests: HAProxy must be there, and nothing they start may outlive them."""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from launched import MISSING_HAPROXY, Launched, descendants, haproxy_installed, still_alive


@pytest.fixture(scope="session")
def haproxy() -> None:
    """Fails, saying how to install it, when HAProxy is missing (``make test`` installs it)."""
    if not haproxy_installed():
        pytest.fail(MISSING_HAPROXY, pytrace=False)


def start_launcher(count: int, directory: Path) -> tuple[Launched, Callable[[], None]]:
    """The launcher with ``count`` replicas, and a clean-up that kills what it left running."""
    launched = Launched.start(count, directory)
    started = descendants(launched.process.pid)

    def clean_up() -> None:
        launched.stop(signal.SIGTERM)
        for pid in still_alive(started):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)

    return launched, clean_up


@pytest.fixture
def launcher(haproxy: None, tmp_path: Path) -> Iterator[Callable[[int], Launched]]:
    """Start the launcher with N replicas; whatever a test leaves running is killed after it."""
    clean_ups: list[Callable[[], None]] = []

    def start(count: int) -> Launched:
        launched, clean_up = start_launcher(count, tmp_path)
        clean_ups.append(clean_up)
        return launched

    yield start
    for clean_up in clean_ups:
        clean_up()
