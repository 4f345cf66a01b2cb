"""The shelf of fitted forests: least recently used out first, one fit per key at a time."""

from __future__ import annotations

import threading
import time

import pytest

from core.app.shelf import Shelf


def test_keeps_at_most_max_entries_dropping_the_least_recently_used() -> None:
    shelf: Shelf[str, int] = Shelf(max_entries=2)
    made: list[str] = []

    def make(key: str) -> int:
        made.append(key)
        return len(made)

    assert shelf.get_or_make("a", lambda: make("a")) == 1
    assert shelf.get_or_make("b", lambda: make("b")) == 2
    assert shelf.get_or_make("a", lambda: make("a")) == 1  # kept; now the most recent
    shelf.get_or_make("c", lambda: make("c"))  # "b" was the least recently used
    assert len(shelf) == 2
    assert "a" in shelf and "c" in shelf and "b" not in shelf
    shelf.get_or_make("b", lambda: make("b"))
    assert made == ["a", "b", "c", "b"]
    shelf.clear()
    assert len(shelf) == 0


def test_a_key_asked_for_by_many_at_once_is_made_once() -> None:
    shelf: Shelf[str, object] = Shelf(max_entries=4)
    made: list[int] = []
    start = threading.Barrier(8)

    def make() -> object:
        made.append(1)
        time.sleep(0.05)  # long enough for every other caller to arrive meanwhile
        return object()

    results: list[object] = []

    def ask() -> None:
        start.wait()
        results.append(shelf.get_or_make("forest", make))

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(made) == 1
    assert len(results) == 8 and all(r is results[0] for r in results)


def test_another_key_does_not_wait_for_a_slow_one() -> None:
    shelf: Shelf[str, str] = Shelf(max_entries=4)
    release = threading.Event()
    slow = threading.Thread(
        target=lambda: shelf.get_or_make("slow", lambda: release.wait(5) and "s")
    )
    slow.start()
    time.sleep(0.02)
    assert shelf.making("slow") and not shelf.making("quick")
    began = time.perf_counter()
    assert shelf.get_or_make("quick", lambda: "q") == "q"
    assert time.perf_counter() - began < 1.0
    release.set()
    slow.join()
    assert not shelf.making("slow")
    assert shelf.get_or_make("slow", lambda: "again") == "s"


def test_a_failed_make_keeps_nothing_and_the_next_caller_tries_again() -> None:
    shelf: Shelf[str, int] = Shelf(max_entries=2)

    def fail() -> int:
        raise RuntimeError("stopped")

    with pytest.raises(RuntimeError, match="stopped"):
        shelf.get_or_make("k", fail)
    assert "k" not in shelf
    assert shelf.get_or_make("k", lambda: 7) == 7


def test_needs_room_for_one() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        Shelf(max_entries=0)
