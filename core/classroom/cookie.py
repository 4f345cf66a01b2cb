"""The class cookie, set by the server: HttpOnly, SameSite=Strict, and Secure behind TLS.

A reloaded page (or a replica that died) gives a session back its seat from a cookie
(:func:`core.classroom.remembered`: the teacher's secret, or the student's signed seat). A
Streamlit script can read cookies but not set them, and a cookie written by a page's script
cannot be HttpOnly, so any script on the page could read the teacher's secret. So the page
asks the server instead: its run leaves the cookie's value in the store under a random
one-time ticket (:func:`ticket`), and a line of script on the page posts that ticket to
``POST /api/class-cookie/TICKET`` (:mod:`server.class_cookie`), which answers with the
``Set-Cookie`` header (:func:`set_cookie`). The ticket lives :data:`TICKET_TTL` seconds and
serves once; the value never reaches the page.

Both ends know what is here; the module is pure: no Streamlit.
"""

from __future__ import annotations

import secrets

from core.classroom.room import CLASS_TTL
from core.classroom.store import Store

#: The cookie's name.
COOKIE = "arboretum_class"
#: The path the page posts its ticket to; ``{ticket}`` is the ticket.
PATH = "/api/class-cookie/{ticket}"
#: Seconds a ticket waits for the page's post.
TICKET_TTL = 60.0


def _key(ticket: str) -> str:
    return f"arb:cookie:{ticket}"


def ticket(store: Store, value: str) -> str:
    """A one-time ticket for setting the class cookie to ``value`` ("" clears it)."""
    held = secrets.token_urlsafe(18)
    store.put(_key(held), value, TICKET_TTL)
    return held


def redeem(store: Store, held: str) -> str | None:
    """The value ticket ``held`` stands for, once (None when unknown, expired or used)."""
    if not 16 <= len(held) <= 64 or not all(ch.isalnum() or ch in "-_" for ch in held):
        return None
    value = store.get(_key(held))
    if value is not None:
        store.drop(_key(held))
    return value


def cookie_path(held: str) -> str:
    """Where the page posts ticket ``held``."""
    return PATH.replace("{ticket}", held)


def set_cookie(value: str, *, secure: bool) -> str:
    """The ``Set-Cookie`` header that keeps ``value`` for a class's lifetime ("" clears it):
    out of every script's reach (HttpOnly), sent only by the app's own pages (SameSite=Strict),
    and over TLS only when the page came over TLS (Secure)."""
    age = int(CLASS_TTL) if value else 0
    flags = "; Secure" if secure else ""
    return f"{COOKIE}={value}; Path=/; Max-Age={age}; HttpOnly; SameSite=Strict{flags}"


__all__ = ["COOKIE", "PATH", "TICKET_TTL", "cookie_path", "redeem", "set_cookie", "ticket"]
