"""How fast anyone may guess class codes (core/classroom/limits.py): misses per client address,
seatless checks per class, fixed windows in the store, and which address counts."""

from __future__ import annotations

import pytest

from core.classroom import MISSES_PER_ADDRESS, SEATLESS_PER_CLASS, Limits
from core.classroom.limits import TRUSTED_PROXIES_VARIABLE, WINDOW, client_address
from core.classroom.store import MemoryStore
from tests.hand_clock import HandClock


@pytest.fixture
def clock() -> HandClock:
    return HandClock(60 * 16_667 + 20.0)  # 20 s into a window


@pytest.fixture
def limits(clock: HandClock) -> Limits:
    return Limits(MemoryStore(clock=clock), clock=clock)


def test_an_address_is_blocked_after_its_misses_until_the_window_ends(
    limits: Limits, clock: HandClock
) -> None:
    for _ in range(MISSES_PER_ADDRESS - 1):
        limits.missed("203.0.113.7")
    assert not limits.blocked("203.0.113.7")
    limits.missed("203.0.113.7")
    assert limits.blocked("203.0.113.7")
    assert not limits.blocked("203.0.113.8")  # another address is not
    assert limits.wait() == pytest.approx(WINDOW - 20.0)
    clock.now += limits.wait()  # the next window starts afresh
    assert not limits.blocked("203.0.113.7")


def test_the_count_is_the_stores_so_every_replica_adds_to_it(clock: HandClock) -> None:
    store = MemoryStore(clock=clock)
    replicas = [Limits(store, clock=clock), Limits(store, clock=clock)]
    for k in range(MISSES_PER_ADDRESS):
        replicas[k % 2].missed("203.0.113.7")
    assert all(replica.blocked("203.0.113.7") for replica in replicas)


def test_seatless_checks_of_a_class_are_limited_per_window(
    limits: Limits, clock: HandClock
) -> None:
    assert all(limits.seatless("KX39PA") for _ in range(SEATLESS_PER_CLASS))
    assert not limits.seatless("KX39PA")
    assert limits.seatless("KX39AC")  # another class is not
    clock.now += WINDOW
    assert limits.seatless("KX39PA")


def test_the_forwarded_address_counts_only_behind_trusted_proxies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    forwarded = "198.51.100.1, 203.0.113.7"  # the client wrote the first, the proxy the second
    monkeypatch.delenv(TRUSTED_PROXIES_VARIABLE, raising=False)
    assert client_address("10.0.0.2", forwarded) == "10.0.0.2"
    monkeypatch.setenv(TRUSTED_PROXIES_VARIABLE, "1")
    assert client_address("10.0.0.2", forwarded) == "203.0.113.7"
    assert client_address("10.0.0.2", "203.0.113.7") == "203.0.113.7"
    assert client_address("10.0.0.2", None) == "10.0.0.2"
    monkeypatch.setenv(TRUSTED_PROXIES_VARIABLE, "2")
    assert client_address("10.0.0.2", forwarded) == "198.51.100.1"
    monkeypatch.setenv(TRUSTED_PROXIES_VARIABLE, "yes")  # not a number: trusted by nobody
    assert client_address("10.0.0.2", forwarded) == "10.0.0.2"


def test_an_ipv6_client_counts_by_its_network_and_nothing_counts_as_local() -> None:
    assert client_address("2001:db8:1:2::5", None, 0) == client_address("2001:db8:1:2::9", None, 0)
    assert client_address("2001:db8:1:3::5", None, 0) != client_address("2001:db8:1:2::5", None, 0)
    assert client_address(None, None, 0) == "local"
    assert client_address("not an address" * 10, None, 0) == ("not an address" * 10)[:64]
