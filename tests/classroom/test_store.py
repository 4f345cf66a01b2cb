"""The class store (core/classroom/store.py): both implementations through the same tests.

``MemoryStore`` runs on a fake clock; ``RedisStore`` on a real ``redis-server`` started by the
fixtures in the top-level conftest.py, where time passes by sleeping (in tenths of a second). A
test says how long a key lives and how much time passes in *steps*, so one test reads the same
for both.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest

from core.classroom.store import (
    REDIS_URL_VARIABLE,
    MemoryStore,
    RedisStore,
    Store,
    StoreDown,
    open_store,
)
from deploy.redis_server import RedisServer, start_redis
from tests.hand_clock import HandClock
from tests.live_app import free_port

# Keys, fields and values as a class may hold them: accents, other scripts, an emoji, quotes,
# a backslash, a newline, JSON, and nothing at all.
AWKWARD = [
    "Gini: 1 − Σ pₖ²",
    "日本語の木 🌳",
    'it\'s "quoted" \\ and\nsplit',
    '{"max_depth": 4, "page": "Single_tree"}',
    "",
]


@dataclass
class Subject:
    """A store under test, and how to let time pass for it.

    Attributes
    ----------
    store : Store
        The implementation under test, empty.
    step : float
        Seconds in one step of time.
    wait : callable
        ``wait(steps)`` lets ``steps`` steps pass: the fake clock moves, or the test sleeps.
    """

    store: Store
    step: float
    wait: Callable[[float], None]

    def ttl(self, steps: float) -> float:
        return steps * self.step


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.live)])
def subject(request: pytest.FixtureRequest) -> Subject:
    if request.param == "memory":
        clock = HandClock(1000.0)
        return Subject(MemoryStore(clock=clock), 1.0, clock.advance)
    url: str = request.getfixturevalue("redis_url")
    step = 0.1
    return Subject(RedisStore(url), step, lambda steps: time.sleep(steps * step))


@pytest.fixture
def store(subject: Subject) -> Store:
    return subject.store


LONG = 3600.0  # seconds: a key no test waits out


# --- values ------------------------------------------------------------------------------------


def test_a_value_put_is_got_and_an_absent_key_is_none(store: Store) -> None:
    assert store.get("class:ABCD:view") is None
    assert store.put("class:ABCD:view", "max_depth=4", LONG) is True
    assert store.get("class:ABCD:view") == "max_depth=4"
    assert store.put("class:ABCD:view", "max_depth=5", LONG) is True
    assert store.get("class:ABCD:view") == "max_depth=5"
    assert store.get("class:ABCE:view") is None


def test_only_new_sets_an_absent_key_and_leaves_a_present_one(subject: Subject) -> None:
    store = subject.store
    assert store.put("code:K7QX", "teacher-1", subject.ttl(3), only_new=True) is True
    assert store.put("code:K7QX", "teacher-2", subject.ttl(3), only_new=True) is False
    assert store.get("code:K7QX") == "teacher-1"
    # Without only_new a write always lands.
    assert store.put("code:K7QX", "teacher-3", subject.ttl(3)) is True
    assert store.get("code:K7QX") == "teacher-3"
    # A code whose class expired can be given out again.
    subject.wait(4)
    assert store.put("code:K7QX", "teacher-4", LONG, only_new=True) is True
    assert store.get("code:K7QX") == "teacher-4"


@pytest.mark.parametrize("text", AWKWARD)
def test_text_comes_back_as_it_went_in(store: Store, text: str) -> None:
    key = f"class:{text}"
    store.put(key, text, LONG)
    assert store.get(key) == text
    store.put_field(f"poll:{text}", text, text, LONG)
    assert store.fields(f"poll:{text}") == {text: text}


# --- time to live ------------------------------------------------------------------------------


def test_every_kind_of_write_expires_after_its_ttl(subject: Subject) -> None:
    store = subject.store
    store.put("view", "v", subject.ttl(3))
    store.bump("version", subject.ttl(3))
    store.put_field("poll", "seat-1", "0.5", subject.ttl(3))
    store.put("kept", "k", LONG)
    assert store.get("view") == "v"
    assert store.count_fields("poll") == 1

    subject.wait(4)

    assert store.get("view") is None
    assert store.fields("poll") == {} and store.count_fields("poll") == 0
    assert store.bump("version", LONG) == 1, "an expired count starts again from nothing"
    assert store.get("kept") == "k"


def test_every_kind_of_write_renews_the_whole_keys_ttl(subject: Subject) -> None:
    store = subject.store
    ttl = subject.ttl(6)
    store.put("view", "v1", ttl)
    store.bump("version", ttl)
    store.put_field("poll", "seat-1", "0.5", ttl)

    subject.wait(4)
    store.put("view", "v2", ttl)
    store.bump("version", ttl)
    store.put_field("poll", "seat-2", "0.7", ttl)
    subject.wait(4)  # past the first writes' end, well before the second writes'

    assert store.get("view") == "v2"
    assert store.bump("version", ttl) == 3
    assert store.fields("poll") == {"seat-1": "0.5", "seat-2": "0.7"}


def test_memory_store_expires_a_key_exactly_at_its_ttl() -> None:
    clock = HandClock(1000.0)
    store = MemoryStore(clock=clock)
    store.put("view", "v", 10.0)
    clock.advance(9.999)
    assert store.get("view") == "v"
    clock.advance(0.001)
    assert store.get("view") is None


# --- counting ----------------------------------------------------------------------------------


def test_bump_counts_from_nothing(store: Store) -> None:
    assert [store.bump("version", LONG) for _ in range(3)] == [1, 2, 3]
    assert store.get("version") == "3"
    assert store.bump("other", LONG) == 1


def test_bump_is_atomic_across_threads(store: Store) -> None:
    threads, bumps = 8, 200
    seen: list[list[int]] = [[] for _ in range(threads)]
    start = threading.Barrier(threads)

    def work(mine: list[int]) -> None:
        start.wait()
        for _ in range(bumps):
            mine.append(store.bump("joined", LONG))

    workers = [threading.Thread(target=work, args=(mine,)) for mine in seen]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
    every = [number for mine in seen for number in mine]
    # A lost update would repeat a number and end below the total.
    assert sorted(every) == list(range(1, threads * bumps + 1))
    assert store.get("joined") == str(threads * bumps)


# --- hashes ------------------------------------------------------------------------------------


def test_fields_are_set_one_by_one_and_read_together(store: Store) -> None:
    assert store.fields("poll:1") == {} and store.count_fields("poll:1") == 0
    store.put_field("poll:1", "seat-a", "2.5", LONG)
    store.put_field("poll:1", "seat-b", "3.0", LONG)
    assert store.fields("poll:1") == {"seat-a": "2.5", "seat-b": "3.0"}
    assert store.count_fields("poll:1") == 2
    # A student who changes their answer keeps one slot.
    store.put_field("poll:1", "seat-a", "2.75", LONG)
    assert store.fields("poll:1") == {"seat-a": "2.75", "seat-b": "3.0"}
    assert store.count_fields("poll:1") == 2
    # What fields() returns is a copy: changing it changes nothing stored.
    store.fields("poll:1")["seat-c"] = "9"
    assert store.count_fields("poll:1") == 2
    assert store.fields("poll:2") == {}


def test_answers_from_many_threads_are_all_counted(store: Store) -> None:
    def answer(seat: int) -> None:
        store.put_field("poll", f"seat-{seat}", str(seat / 10), LONG)

    workers = [threading.Thread(target=answer, args=(seat,)) for seat in range(30)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
    assert store.count_fields("poll") == 30
    assert store.fields("poll") == {f"seat-{seat}": str(seat / 10) for seat in range(30)}


# --- dropping ----------------------------------------------------------------------------------


def test_drop_deletes_values_counts_and_hashes_and_ignores_absent_keys(store: Store) -> None:
    store.put("view", "v", LONG)
    store.bump("version", LONG)
    store.put_field("poll", "seat-a", "1", LONG)
    store.put("other", "o", LONG)
    store.drop("view", "version", "poll", "never-written")
    store.drop()
    assert store.get("view") is None
    assert store.bump("version", LONG) == 1
    assert store.fields("poll") == {} and store.count_fields("poll") == 0
    assert store.get("other") == "o"
    assert store.put("view", "again", LONG, only_new=True) is True


# --- Redis out of reach ------------------------------------------------------------------------

COMMANDS: dict[str, Callable[[Store], object]] = {
    "get": lambda store: store.get("k"),
    "put": lambda store: store.put("k", "v", 60),
    "put only_new": lambda store: store.put("k", "v", 60, only_new=True),
    "bump": lambda store: store.bump("n", 60),
    "put_field": lambda store: store.put_field("h", "f", "v", 60),
    "fields": lambda store: store.fields("h"),
    "count_fields": lambda store: store.count_fields("h"),
    "drop": lambda store: store.drop("k", "h"),
}


def assert_every_command_is_down(store: Store, *, within: float) -> None:
    for name, command in COMMANDS.items():
        began = time.monotonic()
        with pytest.raises(StoreDown, match="cannot be reached"):
            command(store)
        assert time.monotonic() - began < within, f"{name} waited too long"


def test_a_closed_port_is_store_down_at_once() -> None:
    store = RedisStore(f"redis://127.0.0.1:{free_port()}/0", timeout=0.2)
    assert_every_command_is_down(store, within=2.0)


@pytest.fixture
def silent_server() -> Iterator[int]:
    """A port that accepts connections and never answers: a server hung, or a firewall."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        yield listener.getsockname()[1]


def test_a_server_that_never_answers_is_store_down_after_the_timeout(silent_server: int) -> None:
    store = RedisStore(f"redis://127.0.0.1:{silent_server}/0", timeout=0.2)
    began = time.monotonic()
    with pytest.raises(StoreDown, match="cannot be reached"):
        store.get("k")
    # One timeout, not a wait of the client's defaults (none) or a string of retries.
    assert 0.15 < time.monotonic() - began < 2.0


def test_a_stopped_server_is_store_down_and_a_restarted_one_serves_again(
    own_redis: RedisServer,
) -> None:
    store = RedisStore(own_redis.url, timeout=0.2)
    store.put("k", "v", 60)
    assert store.get("k") == "v"

    own_redis.stop()
    assert_every_command_is_down(store, within=2.0)

    # The same store object reconnects once a server is back (its data is gone: no persistence).
    log = own_redis.log.with_name("redis-again.log")
    with start_redis(own_redis.port, log) as again:
        assert again.url == own_redis.url
        assert store.get("k") is None
        assert store.put("k", "w", 60) is True
        assert store.get("k") == "w"


# --- announcements ----------------------------------------------------------------------------


def heard_within(said: list[str], count: int, seconds: float = 5.0) -> list[str]:
    """``said`` once it holds ``count`` messages, or as it is after ``seconds`` (Redis delivers
    on its listener's thread, the memory store at once)."""
    deadline = time.monotonic() + seconds
    while len(said) < count and time.monotonic() < deadline:
        time.sleep(0.01)
    return list(said)


def test_an_announcement_reaches_every_listener_of_its_channel_and_no_other(store: Store) -> None:
    first: list[str] = []
    second: list[str] = []
    elsewhere: list[str] = []
    stops = [
        store.listen("moved", first.append),
        store.listen("moved", second.append),
        store.listen("other", elsewhere.append),
    ]
    try:
        time.sleep(0.3)  # a Redis listener subscribes on its own thread
        for text in ["K7QX", *AWKWARD]:
            store.announce("moved", text)
        assert heard_within(first, 1 + len(AWKWARD)) == ["K7QX", *AWKWARD]
        assert heard_within(second, 1 + len(AWKWARD)) == ["K7QX", *AWKWARD]
        assert elsewhere == []
    finally:
        for stop in stops:
            stop()


def test_a_listener_stopped_hears_nothing_more_and_nobody_listening_is_no_error(
    store: Store,
) -> None:
    said: list[str] = []
    stop = store.listen("moved", said.append)
    time.sleep(0.3)
    store.announce("moved", "one")
    assert heard_within(said, 1) == ["one"]
    stop()
    time.sleep(1.2)  # a Redis listener ends at its next read (at most a second)
    store.announce("moved", "two")
    store.announce("nobody", "three")
    time.sleep(0.3)
    assert said == ["one"]


def test_a_listener_whose_server_restarted_hears_again(own_redis: RedisServer) -> None:
    store = RedisStore(own_redis.url, timeout=0.2)
    said: list[str] = []
    stop = store.listen("moved", said.append)
    try:
        time.sleep(0.3)
        store.announce("moved", "before")
        assert heard_within(said, 1) == ["before"]
        own_redis.stop()
        with pytest.raises(StoreDown):
            store.announce("moved", "lost")
        log = own_redis.log.with_name("redis-again.log")
        with start_redis(own_redis.port, log):
            # The listener subscribes again once it reaches the server (it tries every second).
            deadline = time.monotonic() + 10.0
            while len(said) < 2 and time.monotonic() < deadline:
                store.announce("moved", "after")
                time.sleep(0.2)
            assert said[:2] == ["before", "after"]
    finally:
        stop()


# --- choosing the store ------------------------------------------------------------------------


def test_open_store_is_in_memory_unless_the_environment_names_redis(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(REDIS_URL_VARIABLE, raising=False)
    assert isinstance(open_store(), MemoryStore)
    monkeypatch.setenv(REDIS_URL_VARIABLE, "   ")
    assert isinstance(open_store(), MemoryStore)


def test_open_store_reaches_the_redis_the_environment_names(
    monkeypatch: pytest.MonkeyPatch, redis_url: str
) -> None:
    monkeypatch.setenv(REDIS_URL_VARIABLE, f" {redis_url} ")
    store = open_store()
    assert isinstance(store, RedisStore)
    store.put("k", "from the environment", 60)
    assert RedisStore(redis_url).get("k") == "from the environment"


def test_an_explicit_url_wins_over_the_environment(
    monkeypatch: pytest.MonkeyPatch, redis_url: str
) -> None:
    monkeypatch.setenv(REDIS_URL_VARIABLE, f"redis://127.0.0.1:{free_port()}/0")  # nobody there
    store = open_store(redis_url)
    assert isinstance(store, RedisStore)
    assert store.put("k", "v", 60) is True
    monkeypatch.delenv(REDIS_URL_VARIABLE)
    assert isinstance(open_store(""), MemoryStore)
