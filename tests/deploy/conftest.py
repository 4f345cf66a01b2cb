"""Fixtures for the deploy tests: HAProxy must be there, and nothing they start may outlive them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from launched import MISSING_HAPROXY, Launched, haproxy_installed, start_launcher


@pytest.fixture(scope="session")
def haproxy() -> None:
    """Fails, saying how to install it, when HAProxy is missing (``make test`` installs it)."""
    if not haproxy_installed():
        pytest.fail(MISSING_HAPROXY, pytrace=False)


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
