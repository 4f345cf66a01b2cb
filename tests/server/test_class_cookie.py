"""The class cookie set by the server (``POST /api/class-cookie/TICKET``): HttpOnly,
SameSite=Strict, Secure behind TLS, a ticket that serves once, and nothing for a stranger's
ticket or another site's post. Driven through the ASGI interface, as in ``test_class_check``."""

from __future__ import annotations

import pytest
from asgi_request import request
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from core.classroom import CLASS_TTL, Classroom
from core.classroom.cookie import COOKIE, TICKET_TTL, cookie_path, redeem, ticket
from core.classroom.limits import TRUSTED_PROXIES_VARIABLE
from core.classroom.store import MemoryStore
from server.class_cookie import ClassCookie
from tests.hand_clock import HandClock


@pytest.fixture
def clock() -> HandClock:
    return HandClock(1000.0)


@pytest.fixture
def room(clock: HandClock) -> Classroom:
    return Classroom(MemoryStore(clock=clock), clock=clock)


@pytest.fixture
def app(room: Classroom) -> Starlette:
    return Starlette(
        routes=[Route("/{rest:path}", lambda _: PlainTextResponse("streamlit"), methods=["POST"])],
        middleware=[Middleware(ClassCookie, classroom=lambda: room)],
    )


def post(app: Starlette, held: str, **headers: str) -> tuple[int, str]:
    answer = request(app, cookie_path(held), "POST", headers)
    return answer.status, answer.headers.get("set-cookie", "")


def test_the_server_sets_the_cookie_httponly_and_strict(app: Starlette, room: Classroom) -> None:
    status, cookie = post(app, ticket(room.store, "t.KX39PA.the-teachers-secret"))
    assert status == 204
    parts = [part.strip() for part in cookie.split(";")]
    assert parts[0] == f"{COOKIE}=t.KX39PA.the-teachers-secret"
    assert {"HttpOnly", "SameSite=Strict", "Path=/", f"Max-Age={int(CLASS_TTL)}"} <= set(parts)
    assert "Secure" not in parts  # plain HTTP: a Secure cookie would never come back


def test_an_empty_value_clears_the_cookie(app: Starlette, room: Classroom) -> None:
    status, cookie = post(app, ticket(room.store, ""))
    assert status == 204
    assert cookie.startswith(f"{COOKIE}=;") and "Max-Age=0" in cookie


def test_a_ticket_serves_once_and_expires(
    app: Starlette, room: Classroom, clock: HandClock
) -> None:
    held = ticket(room.store, "s.KX39PA.seat")
    assert post(app, held)[0] == 204
    assert post(app, held) == (404, "")
    late = ticket(room.store, "s.KX39PA.seat")
    clock.now += TICKET_TTL
    assert post(app, late) == (404, "")


@pytest.mark.parametrize("held", ["", "short", "x" * 65, "../../etc", "<script>alert(1)</script>"])
def test_a_made_up_ticket_sets_nothing(app: Starlette, held: str) -> None:
    assert post(app, held) == (404, "")
    assert redeem(MemoryStore(), held) is None


def test_another_sites_post_and_a_get_set_nothing(app: Starlette, room: Classroom) -> None:
    held = ticket(room.store, "t.KX39PA.secret")
    assert post(app, held, **{"sec-fetch-site": "cross-site"}) == (403, "")
    assert request(app, cookie_path(held)).status == 405
    assert post(app, held, **{"sec-fetch-site": "same-origin"})[0] == 204


def test_behind_tls_the_cookie_is_secure_when_the_proxy_is_trusted(
    app: Starlette, room: Classroom, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(TRUSTED_PROXIES_VARIABLE, raising=False)
    over_tls = {"x-forwarded-proto": "https"}
    assert "Secure" not in post(app, ticket(room.store, "v"), **over_tls)[1]  # anyone may say so
    monkeypatch.setenv(TRUSTED_PROXIES_VARIABLE, "1")
    assert "; Secure" in post(app, ticket(room.store, "v"), **over_tls)[1]


def test_every_other_request_passes_through(app: Starlette) -> None:
    answer = request(app, "/api/class-cookies", "POST")
    assert (answer.status, answer.body) == (200, b"streamlit")
