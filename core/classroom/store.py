"""State shared by every session and every replica: a small key-value store.

A class (``core.classroom``) spreads over sessions, and, behind the load balancer, over
replicas: the teacher's session writes what the class shows, each student's session reads it.
Sessions of one process could share a Python dict; replicas cannot, so the store has two
implementations behind one small interface, modelled on the few Redis commands a class needs:

- :class:`MemoryStore`, in the process (the default: ``make run`` needs nothing more);
- :class:`RedisStore`, a Redis server, when ``ARBORETUM_REDIS_URL`` is set (``make replicas``
  starts one).

Every key carries a time to live, so a class nobody ends still goes away. Both raise
:class:`StoreDown` when the store cannot be reached, and nothing else, so the app can say so
and go on without a class.

The module is pure: no Streamlit.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol

#: The environment variable naming the Redis server, e.g. ``redis://127.0.0.1:6379/0``.
REDIS_URL_VARIABLE = "ARBORETUM_REDIS_URL"
#: Seconds a listener (:meth:`RedisStore.listen`) waits before it tries a lost server again.
LISTEN_AGAIN_AFTER = 1.0

_LOG = logging.getLogger(__name__)


class StoreDown(RuntimeError):
    """The shared store cannot be reached (its server is down, or unreachable)."""


class Store(Protocol):
    """The commands a class needs; each key lives ``ttl`` seconds after its last write."""

    def get(self, key: str) -> str | None:
        """The text under ``key``, or None when there is none (or it expired)."""
        ...

    def put(self, key: str, value: str, ttl: float, *, only_new: bool = False) -> bool:
        """Set ``key`` to ``value``; with ``only_new``, only when it is absent. True if set."""
        ...

    def bump(self, key: str, ttl: float) -> int:
        """Add one to the number under ``key`` (absent counts as 0) and return it, atomically."""
        ...

    def put_field(self, key: str, field: str, value: str, ttl: float) -> None:
        """Set one ``field`` of the hash ``key`` (a poll's answer: one field per student)."""
        ...

    def fields(self, key: str) -> dict[str, str]:
        """Every field of the hash ``key`` (empty when there is none)."""
        ...

    def count_fields(self, key: str) -> int:
        """How many fields the hash ``key`` holds."""
        ...

    def drop(self, *keys: str) -> None:
        """Delete ``keys`` (absent ones are ignored)."""
        ...

    def announce(self, channel: str, message: str) -> None:
        """Tell whoever listens to ``channel``, in any process on this store, ``message``.

        Nothing is kept: a listener that is not there (or whose connection is broken) never
        hears it, so an announcement only hurries what a reader would find anyway.
        """
        ...

    def listen(self, channel: str, heard: Callable[[str], None]) -> Callable[[], None]:
        """Call ``heard(message)`` for every message announced on ``channel`` from now on, on a
        thread of the store's own; returns what stops listening."""
        ...


class MemoryStore:
    """The store in this process's memory: every session of one server shares it.

    A lock makes each command atomic across the sessions' script threads; an expired key is
    removed when it is next touched, and every hundredth write sweeps the rest.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._values: dict[str, str | dict[str, str]] = {}
        self._until: dict[str, float] = {}
        self._writes = 0
        self._listeners: dict[str, list[Callable[[str], None]]] = {}

    def _live(self, key: str) -> str | dict[str, str] | None:
        until = self._until.get(key)
        if until is not None and until <= self._clock():
            self._values.pop(key, None)
            self._until.pop(key, None)
        return self._values.get(key)

    def _wrote(self, key: str, ttl: float) -> None:
        now = self._clock()
        self._until[key] = now + ttl
        self._writes += 1
        if self._writes % 100 == 0:
            for old in [k for k, until in self._until.items() if until <= now]:
                self._values.pop(old, None)
                self._until.pop(old, None)

    def get(self, key: str) -> str | None:
        with self._lock:
            value = self._live(key)
            return value if isinstance(value, str) else None

    def put(self, key: str, value: str, ttl: float, *, only_new: bool = False) -> bool:
        with self._lock:
            if only_new and self._live(key) is not None:
                return False
            self._values[key] = value
            self._wrote(key, ttl)
            return True

    def bump(self, key: str, ttl: float) -> int:
        with self._lock:
            held = self._live(key)
            number = int(held) + 1 if isinstance(held, str) else 1
            self._values[key] = str(number)
            self._wrote(key, ttl)
            return number

    def put_field(self, key: str, field: str, value: str, ttl: float) -> None:
        with self._lock:
            held = self._live(key)
            table = held if isinstance(held, dict) else {}
            table[field] = value
            self._values[key] = table
            self._wrote(key, ttl)

    def fields(self, key: str) -> dict[str, str]:
        with self._lock:
            held = self._live(key)
            return dict(held) if isinstance(held, dict) else {}

    def count_fields(self, key: str) -> int:
        with self._lock:
            held = self._live(key)
            return len(held) if isinstance(held, dict) else 0

    def drop(self, *keys: str) -> None:
        with self._lock:
            for key in keys:
                self._values.pop(key, None)
                self._until.pop(key, None)

    def announce(self, channel: str, message: str) -> None:
        # Called on the announcing thread: a listener hands the message on (to its event
        # loop), it does no work here.
        with self._lock:
            listeners = list(self._listeners.get(channel, ()))
        for heard in listeners:
            try:
                heard(message)
            except Exception:  # one listener's failure is not the announcer's
                _LOG.exception("a listener of %s failed", channel)

    def listen(self, channel: str, heard: Callable[[str], None]) -> Callable[[], None]:
        with self._lock:
            self._listeners.setdefault(channel, []).append(heard)

        def stop() -> None:
            with self._lock:
                listeners = self._listeners.get(channel, [])
                if heard in listeners:
                    listeners.remove(heard)

        return stop


class RedisStore:
    """The store on a Redis server, shared by every replica that names the same URL.

    Parameters
    ----------
    url : str
        The server, as ``redis://host:port/db``.
    timeout : float
        Seconds to wait for the server before :class:`StoreDown`: a page waits on it, so it
        is short.
    """

    def __init__(self, url: str, timeout: float = 0.5) -> None:
        import redis  # only where a Redis server is named
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        self._errors: tuple[type[BaseException], ...] = (redis.RedisError, OSError)
        self._client = redis.Redis.from_url(
            url,
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
            decode_responses=True,
            health_check_interval=30,
            # One retry at once, after a lost connection only: a connection the server closed
            # (it restarted) is opened again; a server that is gone or hung is StoreDown
            # now, not after the client's default ten retries with growing pauses.
            retry=Retry(NoBackoff(), 1, supported_errors=(redis.ConnectionError,)),
        )

    @contextmanager
    def _reaching(self) -> Iterator[None]:
        try:
            yield
        except self._errors as error:
            raise StoreDown(f"the class store (Redis) cannot be reached: {error}") from error

    @staticmethod
    def _ms(ttl: float) -> int:
        return max(1, int(ttl * 1000))

    def get(self, key: str) -> str | None:
        with self._reaching():
            value = self._client.get(key)
        return value if isinstance(value, str) else None

    def put(self, key: str, value: str, ttl: float, *, only_new: bool = False) -> bool:
        with self._reaching():
            return bool(self._client.set(key, value, px=self._ms(ttl), nx=only_new))

    def bump(self, key: str, ttl: float) -> int:
        with self._reaching():
            pipe = self._client.pipeline()  # MULTI/EXEC: both or neither
            pipe.incr(key)
            pipe.pexpire(key, self._ms(ttl))
            number, _ = pipe.execute()
        return int(number)

    def put_field(self, key: str, field: str, value: str, ttl: float) -> None:
        with self._reaching():
            pipe = self._client.pipeline()
            pipe.hset(key, field, value)
            pipe.pexpire(key, self._ms(ttl))
            pipe.execute()

    def fields(self, key: str) -> dict[str, str]:
        with self._reaching():
            table = self._client.hgetall(key)
        return {str(k): str(v) for k, v in table.items()} if isinstance(table, dict) else {}

    def count_fields(self, key: str) -> int:
        with self._reaching():
            return int(self._client.hlen(key))

    def drop(self, *keys: str) -> None:
        if keys:
            with self._reaching():
                self._client.delete(*keys)

    def announce(self, channel: str, message: str) -> None:
        with self._reaching():
            self._client.publish(channel, message)

    def listen(self, channel: str, heard: Callable[[str], None]) -> Callable[[], None]:
        """Subscribe on a connection of its own, read by a daemon thread.

        When the server is gone the thread tries again every :data:`LISTEN_AGAIN_AFTER`
        seconds, and subscribes again once it is back; what was announced meanwhile is lost.
        """
        pubsub = self._client.pubsub(ignore_subscribe_messages=True)
        stopping = threading.Event()

        def deliver(message: dict[str, object]) -> None:
            data = message.get("data")
            if isinstance(data, str):
                heard(data)

        def read() -> None:
            while not stopping.is_set():
                try:
                    if not pubsub.subscribed:
                        pubsub.subscribe(**{channel: deliver})
                    pubsub.get_message(timeout=LISTEN_AGAIN_AFTER)  # calls deliver
                except self._errors as error:
                    _LOG.warning("listening to %s: %s; trying again", channel, error)
                    stopping.wait(LISTEN_AGAIN_AFTER)

        threading.Thread(target=read, name=f"listen {channel}", daemon=True).start()

        def stop() -> None:
            stopping.set()

        return stop


def open_store(url: str | None = None) -> Store:
    """The store this server uses: Redis when ``url`` (or ``ARBORETUM_REDIS_URL``) names one,
    else one in this process's memory."""
    url = url if url is not None else os.environ.get(REDIS_URL_VARIABLE, "").strip()
    return RedisStore(url) if url else MemoryStore()


__all__ = [
    "REDIS_URL_VARIABLE",
    "MemoryStore",
    "RedisStore",
    "Store",
    "StoreDown",
    "open_store",
]
