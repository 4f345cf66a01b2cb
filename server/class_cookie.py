"""``POST /api/class-cookie/TICKET``: the server sets the class cookie a page's run asked for.

A page's run leaves the cookie's value in the store under a one-time ticket
(:mod:`core.classroom.cookie`) and posts the ticket from a line of script; this middleware
answers ``204`` with ``Set-Cookie: arboretum_class=...; HttpOnly; SameSite=Strict`` (and
``Secure`` when the page came over TLS: its own scheme, or a trusted proxy's
``X-Forwarded-Proto``). An unknown, used or expired ticket is ``404``; a post from another site
(``Sec-Fetch-Site``) is ``403``; the store down is ``503``, and the page keeps the cookie it had.
"""

from __future__ import annotations

from collections.abc import Callable

from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.types import ASGIApp, Receive, Scope, Send

from core.classroom import Classroom
from core.classroom.cookie import PATH, redeem, set_cookie
from core.classroom.limits import trusted_proxies
from core.classroom.store import StoreDown

_PREFIX = PATH.removesuffix("{ticket}")


class ClassCookie:
    """The cookie's endpoint as ASGI middleware in front of Streamlit's server; every other
    request passes through untouched.

    Parameters
    ----------
    app : ASGI application
        What serves everything else (Streamlit).
    classroom : callable
        Returns the server's classes (their store holds the tickets).
    """

    def __init__(self, app: ASGIApp, classroom: Callable[[], Classroom]) -> None:
        self.app = app
        self.classroom = classroom

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if not path.startswith(_PREFIX):
            await self.app(scope, receive, send)
            return
        headers = {name.lower(): value.decode("latin-1") for name, value in scope["headers"]}
        if scope["method"] != "POST":
            await _reply(send, 405)
            return
        if headers.get(b"sec-fetch-site", "same-origin") not in ("same-origin", "none"):
            await _reply(send, 403)
            return
        try:
            store = self.classroom().store
            value = await run_in_threadpool(redeem, store, path[len(_PREFIX) :])
        except StoreDown:
            await _reply(send, 503)
            return
        if value is None:
            await _reply(send, 404)
            return
        await _reply(send, 204, set_cookie(value, secure=_secure(scope, headers)))


def _secure(scope: Scope, headers: dict[bytes, str]) -> bool:
    """Whether the page came over TLS: to this server, or to a trusted proxy that says so."""
    if scope.get("scheme") in ("https", "wss"):
        return True
    forwarded = headers.get(b"x-forwarded-proto", "").split(",")[-1].strip().lower()
    return trusted_proxies() > 0 and forwarded == "https"


async def _reply(send: Send, status: int, cookie: str | None = None) -> None:
    headers = [(b"cache-control", b"no-store"), (b"content-length", b"0")]
    if cookie is not None:
        headers.append((b"set-cookie", cookie.encode("latin-1")))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": b""})


def cookie_middleware(classroom: Callable[[], Classroom]) -> Middleware:
    """:class:`ClassCookie` over the classes ``classroom()`` returns, for ``st.App``."""
    return Middleware(ClassCookie, classroom=classroom)


__all__ = ["ClassCookie", "cookie_middleware"]
