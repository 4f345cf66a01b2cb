"""The class check against guessing (``GET /api/class/CODE``): a wrong code reads exactly as an
ended class, an address out of misses learns nothing more until its window ends, a class code
cannot be hammered without a seat, replicas share the counts through the store, and a seat
counts only when the server gave it. Driven through the ASGI interface, as in
``test_class_check``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgi_request import request
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from core.classroom import (
    CHECK_IN_EVERY,
    MISSES_PER_ADDRESS,
    SEATLESS_PER_CLASS,
    Classroom,
    Shown,
)
from core.classroom import check as protocol
from core.classroom.check import check_path
from core.classroom.limits import TRUSTED_PROXIES_VARIABLE, WINDOW
from core.classroom.store import MemoryStore
from server.class_check import ClassCheck
from tests.hand_clock import HandClock

TREE = Shown("pages/1_Single_tree.py", {"dataset": "iris", "max_depth": "3"})


class LoggingStore(MemoryStore):
    """The in-process store, noting each command and the kind of key it touched."""

    def __init__(self, clock: HandClock) -> None:
        super().__init__(clock=clock)
        self.log: list[tuple[str, str]] = []

    def _note(self, command: str, key: str) -> None:
        kind = key.split(":")[1] if key.count(":") else key
        self.log.append((command, kind))

    def get(self, key: str) -> str | None:
        self._note("get", key)
        return super().get(key)

    def bump(self, key: str, ttl: float) -> int:
        self._note("bump", key)
        return super().bump(key, ttl)


@pytest.fixture(autouse=True)
def not_served_after(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(protocol, "_served", [])
    monkeypatch.delenv(TRUSTED_PROXIES_VARIABLE, raising=False)


@pytest.fixture
def clock() -> HandClock:
    return HandClock(60 * 20_000 + 1.0)  # just after a window starts


@pytest.fixture
def store(clock: HandClock) -> LoggingStore:
    return LoggingStore(clock)


@pytest.fixture
def room(store: LoggingStore, clock: HandClock) -> Classroom:
    return Classroom(store, clock=clock)


def replica(room: Classroom, clock: HandClock) -> Starlette:
    """One server: Streamlit's place taken by one route, the check in front."""
    return Starlette(
        routes=[Route("/{rest:path}", lambda _: PlainTextResponse("streamlit"))],
        middleware=[Middleware(ClassCheck, classroom=lambda: room, clock=clock)],
    )


@pytest.fixture
def app(room: Classroom, clock: HandClock) -> Starlette:
    return replica(room, clock)


def ask(app: Starlette, path: str, address: str = "203.0.113.7", **headers: str) -> Any:
    """One question from ``address`` (through ``X-Forwarded-For`` when the test trusts a
    proxy, else as the connection's peer)."""
    answer = request(app, path, headers={"x-forwarded-for": address, **headers})
    return answer.status, answer.headers, json.loads(answer.body)


def ended_and_wrong(room: Classroom) -> tuple[str, str]:
    """A class that ended, and a code that never named one."""
    teacher = room.start(TREE)
    room.end(teacher)
    wrong = next(c for c in ("KX39PA", "KX39AC", "KX39CE") if c != teacher.code)
    return teacher.code, wrong


def test_a_wrong_code_is_answered_exactly_as_an_ended_class(
    app: Starlette, room: Classroom, store: LoggingStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(TRUSTED_PROXIES_VARIABLE, "1")
    ended, wrong = ended_and_wrong(room)
    answers, commands = [], []
    for code in (ended, wrong):
        del store.log[:]
        status, headers, body = ask(app, check_path(code))
        answers.append((status, headers, body))
        commands.append(list(store.log))
    assert answers[0] == answers[1] == (answers[0][0], answers[0][1], {"version": None})
    assert answers[0][0] == 200
    # The same store commands in the same order: the same path, so the same timing class.
    assert commands[0] == commands[1]
    assert ("bump", "limit") in commands[0]  # and both count as a miss


def test_an_address_out_of_misses_learns_nothing_more_until_its_window_ends(
    app: Starlette, room: Classroom, clock: HandClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(TRUSTED_PROXIES_VARIABLE, "1")
    live = room.start(TREE)
    ended, wrong = ended_and_wrong(room)
    for _ in range(MISSES_PER_ADDRESS):
        assert ask(app, check_path(wrong))[0] == 200
    for code in (wrong, ended, live.code):  # a live code too: no answer tells them apart
        status, headers, body = ask(app, check_path(code))
        assert status == 429
        assert body == {"version": None, "wait": int(headers["retry-after"])}
        assert 0 < int(headers["retry-after"]) <= WINDOW
    # Another address, and a student of the live class behind the blocked one, are answered.
    assert ask(app, check_path(live.code), "198.51.100.9")[2] == {"version": 1}
    seat = room.new_seat(live.code)
    assert ask(app, f"{check_path(live.code)}?seat={seat}")[0] == 200
    clock.now += WINDOW
    assert ask(app, check_path(wrong))[0] == 200


def test_replicas_share_the_count_through_the_store(
    room: Classroom, clock: HandClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(TRUSTED_PROXIES_VARIABLE, "1")
    replicas = [replica(room, clock), replica(room, clock)]
    _, wrong = ended_and_wrong(room)
    for k in range(MISSES_PER_ADDRESS):
        assert ask(replicas[k % 2], check_path(wrong))[0] == 200
    assert [ask(each, check_path(wrong))[0] for each in replicas] == [429, 429]


def test_a_forged_forwarded_header_counts_for_nothing_unless_a_proxy_is_trusted(
    app: Starlette, room: Classroom
) -> None:
    _, wrong = ended_and_wrong(room)
    # Each guess claims another address; with no trusted proxy the connection's counts.
    statuses = [
        ask(app, check_path(wrong), f"198.51.100.{n}")[0] for n in range(MISSES_PER_ADDRESS + 1)
    ]
    assert statuses == [200] * MISSES_PER_ADDRESS + [429]


def test_a_class_code_cannot_be_hammered_without_a_seat(
    app: Starlette, room: Classroom, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(TRUSTED_PROXIES_VARIABLE, "1")
    teacher = room.start(TREE)
    path = check_path(teacher.code)
    statuses = [ask(app, path, f"198.51.100.{n % 250}")[0] for n in range(SEATLESS_PER_CLASS + 1)]
    assert statuses == [200] * SEATLESS_PER_CLASS + [429]
    seat = room.new_seat(teacher.code)
    assert ask(app, f"{path}?seat={seat}")[2] == {"version": 1}  # its students are not limited


def test_forty_made_up_seats_count_nobody(app: Starlette, room: Classroom) -> None:
    teacher = room.start(TREE)
    path = check_path(teacher.code)
    real = room.new_seat(teacher.code)
    ask(app, f"{path}?seat={real}")
    assert room.students(teacher.code) == 1
    elsewhere = room.new_seat(room.start(TREE).code)  # a real seat, of another class
    made_up = [f"{n:02d}AbCdEfGhIjKlMnOpQrStUvWxYz"[:28] for n in range(38)]
    for seat in [*made_up, elsewhere, real[:-1] + ("A" if real[-1] != "A" else "B")]:
        ask(app, f"{path}?seat={seat}", f"198.51.100.{len(seat)}")
    assert room.students(teacher.code) == 1


def test_a_students_questions_check_the_seat_in_once_per_period(
    app: Starlette, room: Classroom, store: LoggingStore, clock: HandClock
) -> None:
    teacher = room.start(TREE)
    seat = room.new_seat(teacher.code)
    path = f"{check_path(teacher.code)}?seat={seat}"
    writes = []
    original = store.put_field

    def put_field(key: str, field: str, value: str, ttl: float) -> None:
        writes.append(field)
        original(key, field, value, ttl)

    store.put_field = put_field  # type: ignore[method-assign]
    for _ in range(5):
        ask(app, path)
    assert writes == [seat]
    clock.now += CHECK_IN_EVERY
    ask(app, path)
    assert writes == [seat, seat]
