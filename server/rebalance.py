"""A class spreads back over the replicas after one returns: a replica holding clearly more
sessions than the emptiest one lets a few of them go at a time.

Why
---
When a replica dies, its students' tabs reconnect through the load balancer to the live ones
and stay there: their affinity cookie now names a live replica, and nothing ever closes their
websocket again. When the dead replica comes back, only new visitors go to it (``balance
leastconn``), so a seated class stays on the replicas that survived, which then run every
follower's page alone for each teacher move.

So each replica reports how many sessions it holds to the class store (Redis, which every
replica already shares) and reads the others'. One that holds at least two more than the
emptiest replica closes the websockets of a few sessions (:data:`BATCH`, then looks again):
each browser reconnects as after a failover, keeping its view (the URL) and its seat (the
class cookie), and HAProxy places that reconnect by ``leastconn`` instead of the cookie
because the cookie names a replica over its share (``deploy/haproxy.cfg.in``). A replica is
counted only once it has reported for :data:`SETTLE` seconds, so sessions go to a replica that
HAProxy already sends browsers to, and never all at once.

Counts, not speed, decide: a replica that is merely slow (a class-wide burst) keeps its
sessions, and none is moved while its script runs. Without a shared store (one process, or
replicas without Redis) a replica knows of no other and lets nobody go. Behind a balancer
that sends a reconnect by its cookie whatever the load (ingress-nginx's persistent affinity),
the sessions let go come straight back: the replica sees them resume and stops trying for
:data:`BACK_OFF` seconds, so a student is not disconnected over and over for nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field

from core.classroom.store import RedisStore, Store, StoreDown, open_store

_LOGGER = logging.getLogger(__name__)

#: The store's table of replicas: one field per replica, ``"<sessions> <unix time>"``.
REPLICAS_KEY = "arboretum:replicas"
#: Seconds between two looks at the counts.
EVERY = 2.0
#: Sessions a replica lets go per look: a few reconnects at a time, never a herd.
BATCH = 2
#: Seconds a replica must have reported before it counts (HAProxy takes it back after two
#: health checks, about 2 s).
SETTLE = 6.0
#: Seconds a replica lets nobody go after sessions it let go came back to it.
BACK_OFF = 300.0
#: Seconds after which a report that was not renewed means the replica is gone (or too busy
#: to report, and then too busy to take anyone).
STALE = 2.5 * EVERY


def to_release(mine: int, others: Mapping[str, int], batch: int = BATCH) -> int:
    """How many sessions this replica lets go now.

    Moving one session from here to the emptiest replica narrows the gap by two, so it is
    worth it only while the gap is two or more; half the gap evens the pair, and ``batch``
    caps it so that browsers reconnect a few at a time.

    Parameters
    ----------
    mine : int
        Sessions on this replica.
    others : mapping of str to int
        Sessions on every other live replica, by its id.
    batch : int, default BATCH
        The most to let go at once.

    Returns
    -------
    int
        ``min(batch, (mine - min(others)) // 2)``, and 0 without others or below a gap of two.
    """
    if not others:
        return 0
    gap = mine - min(others.values())
    return min(batch, gap // 2) if gap >= 2 else 0


@dataclass
class Census:
    """What one replica has seen of the counts: when each other replica was first seen live,
    and when its own count last grew.

    Two waits keep moves to the right moment. Another replica counts once it has reported for
    :data:`SETTLE` seconds, so sessions go only to one HAProxy sends browsers to again. And a
    replica lets nobody go within :data:`SETTLE` seconds of gaining sessions: when a replica
    dies, its tabs arrive at the others while its last report still looks live (up to
    :data:`STALE` seconds), and moving them toward it would only make them reconnect twice.

    Attributes
    ----------
    me : str
        This replica's id in the table.
    first_seen : dict of str to float
        Each other live replica's first report since it was last missing, by id.
    mine : int
        This replica's count at the last look.
    grew_at : float
        When that count last grew (``-inf``: never).
    """

    me: str
    first_seen: dict[str, float] = field(default_factory=dict)
    mine: int = 0
    grew_at: float = float("-inf")

    def settled(self, table: Mapping[str, str], now: float) -> dict[str, int]:
        """The other replicas that reported within :data:`STALE` seconds and have been
        reporting for :data:`SETTLE`, with their session counts."""
        live: dict[str, int] = {}
        for name, report in table.items():
            count, _, stamp = report.partition(" ")
            if name != self.me and count.isdigit() and now - float(stamp or 0) <= STALE:
                live[name] = int(count)
        self.first_seen = {name: self.first_seen.get(name, now) for name in live}
        return {n: c for n, c in live.items() if now - self.first_seen[n] >= SETTLE}

    def steady(self, mine: int, now: float) -> bool:
        """Record this replica's count; whether it has not grown for :data:`SETTLE` seconds."""
        if mine > self.mine:
            self.grew_at = now
        self.mine = mine
        return now - self.grew_at >= SETTLE


# --- Streamlit's side: its sessions, read and closed (private reads fenced here) -------------


def idle_sessions_newest_first() -> list[tuple[str, object]]:
    """The ids and websocket clients of this server's sessions whose script is not running,
    the last to connect first.

    The newest are the ones a failover brought here, and the first session on a replica is
    most often the teacher's, who opened the class before the students came: it stays put.
    """
    from streamlit.runtime import Runtime
    from streamlit.runtime.app_session import AppSessionState

    manager = Runtime.instance()._session_mgr
    return [
        (info.session.id, info.client)
        for info in reversed(manager.list_active_sessions())
        if info.session._state != AppSessionState.APP_IS_RUNNING
    ]


def active_ids() -> set[str]:
    """The ids of this server's sessions with an open websocket (a browser that reconnects
    here resumes its session under the same id)."""
    from streamlit.runtime import Runtime

    return {info.session.id for info in Runtime.instance()._session_mgr.list_active_sessions()}


def session_count() -> int:
    """Sessions with an open websocket on this server."""
    from streamlit.runtime import Runtime

    return Runtime.instance()._session_mgr.num_active_sessions()


async def let_go(client: object) -> None:
    """Close a session's websocket with "service restart" (1012): the browser reconnects
    at once, as it does after any closure, and its tab keeps what it shows."""
    websocket = getattr(client, "_websocket", None)
    if websocket is not None:
        with contextlib.suppress(Exception):  # already closing: nothing to move
            await websocket.close(code=1012)


async def keep_even(
    store: Store,
    me: str,
    *,
    count: Callable[[], int] = session_count,
    sessions: Callable[[], list[tuple[str, object]]] = idle_sessions_newest_first,
    present: Callable[[], set[str]] = active_ids,
    every: float = EVERY,
) -> None:
    """Report this replica's sessions and let a few go while it holds more than its share,
    every ``every`` seconds, for as long as the event loop runs this task.

    A session let go that is back here a round later (the same id resumed) says the load
    balancer sent its reconnect by the cookie: letting more go would only make them reconnect
    too, so the replica waits :data:`BACK_OFF` seconds before it tries again.
    """
    census = Census(me)
    released: set[str] = set()
    resume_at = 0.0
    while True:
        await asyncio.sleep(every)
        try:
            mine = count()
            now = time.time()
            # On a thread: a slow store must not hold up the pages this loop sends.
            await asyncio.to_thread(
                store.put_field, REPLICAS_KEY, me, f"{mine} {now:.1f}", 4 * STALE
            )
            others = census.settled(await asyncio.to_thread(store.fields, REPLICAS_KEY), now)
        except StoreDown:
            continue  # no counts, no moves: the store's own notice tells the pages
        if released & present():
            _LOGGER.warning("sessions let go came back here: none moves for %g s", BACK_OFF)
            resume_at = now + BACK_OFF
        released = set()
        if not census.steady(mine, now) or now < resume_at:
            continue
        moving = sessions()[: to_release(mine, others)]
        if moving:
            _LOGGER.info("%d sessions here, others %s: letting %d go", mine, others, len(moving))
        for session_id, client in moving:
            released.add(session_id)
            await let_go(client)


@contextlib.asynccontextmanager
async def spreading(url: str | None = None) -> AsyncIterator[bool]:
    """Keep this replica's share of sessions while the block runs, when a shared store is
    named (``ARBORETUM_REDIS_URL``); yields whether it does."""
    store = open_store(url)
    if not isinstance(store, RedisStore):
        yield False
        return
    task = asyncio.create_task(keep_even(store, uuid.uuid4().hex[:12]))
    try:
        yield True
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


__all__ = [
    "BACK_OFF",
    "BATCH",
    "REPLICAS_KEY",
    "SETTLE",
    "Census",
    "keep_even",
    "spreading",
    "to_release",
]
