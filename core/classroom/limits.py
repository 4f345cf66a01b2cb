"""How fast anyone may guess class codes: counters per client address and per class, in the store.

Whoever holds no seat of a class (:mod:`core.classroom.seats`) and asks about a code is, as far
as the server can tell, guessing. Two counters bound it, each over a fixed window of
:data:`WINDOW` seconds, kept in the store so that every replica adds to the same count (a
client spread over replicas gets no more):

- per client address, the **misses**: codes that name no class, whether asked of the followers'
  check or typed on a page. After :data:`MISSES_PER_ADDRESS` in a window the address is answered
  "wait" on every code, live or not, until the window ends (so the limit cannot tell a live
  code from a dead one either).
- per class code, the **checks without a seat**: a code someone learned cannot be hammered.

A student's page always shows its seat, so a class at work never meets either limit, whatever
the number of students behind one school's address.

Keys: ``arb:limit:miss:{address}:{window}`` and ``arb:limit:class:{code}:{window}``, each
living two windows.

The module is pure: no Streamlit.
"""

from __future__ import annotations

import ipaddress
import os
import time
from collections.abc import Callable

from core.classroom.store import Store

#: Seconds of one window of the counters.
WINDOW = 60.0
#: Wrong codes a client address may try per window (a school behind one address shares them:
#: ten typing mistakes a minute is more than a class makes, and the link and the QR code
#: never miss).
MISSES_PER_ADDRESS = 10
#: Checks of one class code without a seat of it, per window.
SEATLESS_PER_CLASS = 60
#: The environment variable that says how many proxies in front of the server add their peer
#: to ``X-Forwarded-For`` (HAProxy with ``option forwardfor``: 1). Unset or 0, the header is
#: ignored (anyone may write it) and the connection's own address counts.
TRUSTED_PROXIES_VARIABLE = "ARBORETUM_TRUSTED_PROXIES"


def trusted_proxies() -> int:
    """How many proxies' ``X-Forwarded-For`` entries to trust (:data:`TRUSTED_PROXIES_VARIABLE`)."""
    text = os.environ.get(TRUSTED_PROXIES_VARIABLE, "").strip()
    return int(text) if text.isdigit() else 0


def client_address(peer: str | None, forwarded: str | None, proxies: int | None = None) -> str:
    """The address whose guesses are counted: the peer, or a trusted proxy's word for it.

    Each of ``proxies`` trusted proxies appends the address it saw to ``X-Forwarded-For``, so
    the client is the ``proxies``-th entry from the right; entries to its left were written by
    the client and count for nothing. An IPv6 address counts by its /64 (one subscriber's
    network), so a client cannot spread its guesses over its own addresses.

    >>> client_address("10.0.0.2", "1.2.3.4, 203.0.113.7", proxies=1)
    '203.0.113.7'
    >>> client_address("10.0.0.2", "203.0.113.7", proxies=0)
    '10.0.0.2'
    >>> client_address("2001:db8::1:2", None, proxies=0)
    '2001:db8::/64'
    """
    proxies = trusted_proxies() if proxies is None else proxies
    text = peer or ""
    if proxies > 0 and forwarded:
        entries = [entry.strip() for entry in forwarded.split(",") if entry.strip()]
        if entries:
            text = entries[max(0, len(entries) - proxies)]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return text[:64] or "local"
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


class Limits:
    """The guessing counters over ``store``.

    Parameters
    ----------
    store : Store
        Where the counters live (the class store: shared by every replica).
    clock : callable, default ``time.time``
        Wall-clock seconds: replicas must agree on the window.
    """

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

    def _key(self, kind: str, who: str) -> str:
        return f"arb:limit:{kind}:{who}:{int(self.clock() // WINDOW)}"

    def blocked(self, address: str) -> bool:
        """Whether ``address`` has used up its misses in this window."""
        held = self.store.get(self._key("miss", address))
        return held is not None and held.isdigit() and int(held) >= MISSES_PER_ADDRESS

    def missed(self, address: str) -> None:
        """``address`` asked about a code that names no class."""
        self.store.bump(self._key("miss", address), 2 * WINDOW)

    def seatless(self, code: str) -> bool:
        """Count a check of ``code`` without a seat; whether it is within the class's limit."""
        return self.store.bump(self._key("class", code), 2 * WINDOW) <= SEATLESS_PER_CLASS

    def wait(self) -> float:
        """Seconds until the window ends (what a blocked client is told to wait)."""
        return WINDOW - self.clock() % WINDOW


__all__ = [
    "MISSES_PER_ADDRESS",
    "SEATLESS_PER_CLASS",
    "TRUSTED_PROXIES_VARIABLE",
    "WINDOW",
    "Limits",
    "client_address",
    "trusted_proxies",
]
