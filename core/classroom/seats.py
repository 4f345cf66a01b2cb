"""Seats only the server gives: a seat token carries the server's signature of its class.

A student's seat is a random nonce followed by an HMAC-SHA256 of the class code and that
nonce, under a key only the servers know. A check-in (``GET /api/class/CODE?seat=``) and a
reload's cookie count a seat only when its signature holds, so a made-up string counts nobody,
and a seat of one class is no seat in another. Nothing is written to sign or to check a seat,
so a class of any size costs the store nothing more.

The key is ``ARBORETUM_SECRET`` when set (the same on every replica), else a random one kept in
the store under ``arb:key``: the first server to need it writes it, the others read it, and
it lives as long as the store keeps it (with Redis' persistence, across a restart).

The module is pure: no Streamlit.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
import threading
import time
from collections.abc import Callable

from core.classroom.store import Store

#: The environment variable holding the servers' signing secret (any text, 32 characters or
#: more); unset, a random key is kept in the store.
SECRET_VARIABLE = "ARBORETUM_SECRET"
#: Where the store keeps the key when no secret is set, and how long it lives after its last
#: renewal (every :data:`KEY_FRESH` seconds while a server uses it).
KEY = "arb:key"
KEY_TTL = 30 * 24 * 3600.0
#: Seconds a server trusts the key it read before it reads (and renews) it again.
KEY_FRESH = 60.0
#: Seconds between two reads of the key caused by a seat it does not sign (made-up seats
#: cost the store at most one read per this many seconds).
REREAD_EVERY = 5.0
#: Characters of a seat's nonce and of its signature (96 bits of HMAC: a guess is right once
#: in 2**96).
NONCE_CHARACTERS = 12
SIGNATURE_CHARACTERS = 16


class Seats:
    """Give and check signed seats.

    Parameters
    ----------
    store : Store
        Where the key is kept when ``secret`` is None.
    secret : str or None
        The servers' shared secret; None reads ``ARBORETUM_SECRET``, and when that is unset too
        the key lives in ``store``.
    clock : callable, default ``time.monotonic``
        Seconds, for :data:`KEY_FRESH`.
    """

    def __init__(
        self,
        store: Store,
        secret: str | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.clock = clock
        secret = secret if secret is not None else os.environ.get(SECRET_VARIABLE, "").strip()
        self._fixed = hashlib.sha256(secret.encode()).digest() if secret else None
        self._key: bytes | None = None
        self._read_at = -KEY_FRESH
        self._reread_at = -REREAD_EVERY
        self._lock = threading.Lock()

    def fresh(self) -> bool:
        """Whether :meth:`valid` needs no store (the key is set, or read lately)."""
        return self._fixed is not None or self.clock() - self._read_at < KEY_FRESH

    def _signing_key(self) -> bytes:
        """The key: the secret's, or the store's (written by the first server that needs it).

        Raises
        ------
        StoreDown
            When the key must be read and the store cannot be reached.
        """
        if self._fixed is not None:
            return self._fixed
        with self._lock:
            if self._key is not None and self.fresh():
                return self._key
            held = self.store.get(KEY)
            if held is None:
                self.store.put(KEY, secrets.token_urlsafe(32), KEY_TTL, only_new=True)
                held = self.store.get(KEY) or ""
            else:
                self.store.put(KEY, held, KEY_TTL)  # renewed while servers use it
            self._key, self._read_at = held.encode(), self.clock()
            return self._key

    def _signature(self, key: bytes, code: str, nonce: str) -> str:
        digest = hmac.new(key, f"{code}.{nonce}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).decode()[:SIGNATURE_CHARACTERS]

    def new(self, code: str) -> str:
        """A fresh seat in class ``code``: nothing about who sits in it, and only valid there."""
        nonce = secrets.token_urlsafe(NONCE_CHARACTERS)[:NONCE_CHARACTERS]
        return nonce + self._signature(self._signing_key(), code, nonce)

    def valid(self, code: str, seat: str) -> bool:
        """Whether ``seat`` is one this server (or another sharing its key) gave in ``code``.

        A key read from the store that does not sign ``seat`` is read again (another replica
        may have written a new one after the store lost the old), at most once per
        :data:`REREAD_EVERY` seconds.
        """
        if len(seat) != NONCE_CHARACTERS + SIGNATURE_CHARACTERS:
            return False
        nonce, signature = seat[:NONCE_CHARACTERS], seat[NONCE_CHARACTERS:]
        if hmac.compare_digest(signature, self._signature(self._signing_key(), code, nonce)):
            return True
        now = self.clock()
        if self._fixed is not None or now - self._reread_at < REREAD_EVERY:
            return False
        self._read_at, self._reread_at = -KEY_FRESH, now
        return hmac.compare_digest(signature, self._signature(self._signing_key(), code, nonce))


__all__ = ["KEY", "KEY_FRESH", "KEY_TTL", "REREAD_EVERY", "SECRET_VARIABLE", "Seats"]
