"""The followers' HTTP check (``GET /api/class/CODE``): what it answers, what it writes, that
a class's version is read from the store at most once per ``FRESH`` seconds whatever the number
of students asking, and that only seats the server gave count. Driven through the ASGI
interface, as uvicorn drives it, in front of a small Starlette app standing for Streamlit's
server."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from asgi_request import ask, request
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from core.classroom import Classroom, Shown, Teacher
from core.classroom import check as protocol
from core.classroom.check import CHECK_EVERY, PATH, check_path, served
from core.classroom.store import MemoryStore, StoreDown
from server import class_check, class_watch
from server.class_check import (
    FRESH,
    MOST_CLASSES,
    WAIT,
    ClassCheck,
    answer,
    check_middleware,
)
from tests.hand_clock import HandClock

TREE = Shown("pages/1_Single_tree.py", {"dataset": "iris", "max_depth": "3"})
DEEPER = Shown("pages/1_Single_tree.py", {"dataset": "iris", "max_depth": "4"})
#: Well formed, and not one the server gave.
MADE_UP = "AbCdEfGhIjKlMnOpQrStUvWxYz01"


class CountingStore(MemoryStore):
    """The in-process store, counting reads of classes (not of the guessing counters or the
    seats' key) and able to go down."""

    def __init__(self, clock: HandClock) -> None:
        super().__init__(clock=clock)
        self.reads = 0
        self.down = False

    def get(self, key: str) -> str | None:
        if self.down:
            raise StoreDown("gone")
        self.reads += key.startswith("arb:class:")
        return super().get(key)

    def bump(self, key: str, ttl: float) -> int:
        if self.down:
            raise StoreDown("gone")
        return super().bump(key, ttl)


@pytest.fixture(autouse=True)
def not_served_after(monkeypatch: pytest.MonkeyPatch) -> None:
    """Making the middleware marks the process as serving the check: undone after each test, so the
    page tests that follow in this process use their timer check, as ``app.py`` alone does."""
    monkeypatch.setattr(protocol, "_served", [])


@pytest.fixture
def clock() -> HandClock:
    return HandClock()


@pytest.fixture
def store(clock: HandClock) -> CountingStore:
    return CountingStore(clock)


@pytest.fixture
def room(store: CountingStore, clock: HandClock) -> Classroom:
    return Classroom(store, clock=clock)


def get(app: Starlette, path: str, method: str = "GET") -> tuple[int, dict[str, str], Any]:
    """One request through ``app``: status, headers, and the body read as JSON when it is."""
    answer = request(app, path, method)
    json_body = answer.headers.get("content-type") == "application/json"
    return answer.status, answer.headers, json.loads(answer.body) if json_body else answer.body


def behind(request: Any) -> PlainTextResponse:
    return PlainTextResponse(f"streamlit saw {request.url.path}")


@pytest.fixture
def app(room: Classroom, clock: HandClock) -> Starlette:
    """Streamlit's place taken by one catch-all route; the check in front, as serve.py puts it."""
    return Starlette(
        routes=[Route("/{rest:path}", behind, methods=["GET", "POST"])],
        middleware=[Middleware(ClassCheck, classroom=lambda: room, clock=clock)],
    )


def test_answer_reads_the_version_and_says_none_for_no_class(room: Classroom) -> None:
    teacher = room.start(TREE)
    assert answer(room, teacher.code) == (200, room.version(teacher.code))
    room.show(teacher, DEEPER)
    assert answer(room, teacher.code) == (200, room.version(teacher.code))
    room.end(teacher)
    assert answer(room, teacher.code) == (200, None)


@pytest.mark.parametrize(
    "code", ["", "kx39pa", "KX39P", "KX39PAC", "BBBBBB", "<b>X", "../..", "K 39PA"]
)
def test_anything_but_a_code_reads_as_no_class_without_asking_the_store(
    room: Classroom, store: CountingStore, code: str
) -> None:
    assert answer(room, code) == (200, None)
    assert store.reads == 0


def seats(room: Classroom, code: str, n: int) -> list[str]:
    """``n`` seats the server gives in class ``code`` (as ``n`` students joining)."""
    return [room.new_seat(code) for _ in range(n)]


def test_a_seat_checks_in_only_with_a_well_formed_token(room: Classroom) -> None:
    teacher = room.start(TREE)
    answer(room, teacher.code, "<script>")
    answer(room, teacher.code, "short")
    assert room.students(teacher.code) == 0
    answer(room, teacher.code, room.new_seat(teacher.code))
    assert room.students(teacher.code) == 1


def test_a_seat_of_an_ended_class_is_not_written(room: Classroom, store: CountingStore) -> None:
    teacher = room.start(TREE)
    seat = room.new_seat(teacher.code)
    room.end(teacher)
    assert answer(room, teacher.code, seat) == (200, None)
    assert store.fields(f"class:{teacher.code}:seats") == {}


def test_a_store_that_is_down_answers_503(room: Classroom, store: CountingStore) -> None:
    teacher = room.start(TREE)
    store.down = True
    assert answer(room, teacher.code) == (503, None)


def test_the_check_answers_json_that_nobody_caches(app: Starlette, room: Classroom) -> None:
    teacher = room.start(TREE)
    status, headers, body = get(app, check_path(teacher.code))
    assert status == 200
    assert headers["cache-control"] == "no-store"
    assert body == {"version": room.version(teacher.code)}
    other = next(code for code in ("KX39PA", "KX39AC") if code != teacher.code)
    status, headers, body = get(app, check_path(other))
    assert (status, headers["cache-control"], body) == (200, "no-store", {"version": None})


def test_the_check_takes_only_get(app: Starlette, room: Classroom) -> None:
    teacher = room.start(TREE)
    assert get(app, check_path(teacher.code), method="POST")[0] == 405


@pytest.mark.parametrize("path", ["/", "/Single_tree", "/_stcore/health", "/api/other", "/api"])
def test_every_other_request_reaches_streamlit_untouched(app: Starlette, path: str) -> None:
    status, headers, body = get(app, path)
    assert (status, body) == (200, f"streamlit saw {path}".encode())
    assert "cache-control" not in headers


def test_a_class_of_any_size_costs_one_store_read_per_fresh_window(
    app: Starlette, room: Classroom, store: CountingStore, clock: HandClock
) -> None:
    teacher = room.start(TREE)
    path = check_path(teacher.code)
    class_seats = seats(room, teacher.code, 60)
    before = store.reads
    answers = [get(app, f"{path}?seat={seat}")[2]["version"] for seat in class_seats]
    assert store.reads - before == 1
    first = answers[0]
    assert answers == [first] * 60

    room.show(teacher, DEEPER)  # the teacher moves: seen once the read is stale
    moved = room.version(teacher.code)
    before = store.reads
    assert get(app, f"{path}?seat={class_seats[0]}")[2]["version"] == first != moved
    assert store.reads == before
    clock.now += FRESH
    assert get(app, f"{path}?seat={class_seats[1]}")[2]["version"] == moved
    assert store.reads == before + 1


class SlowStore(CountingStore):
    """A store whose reads take a while (as Redis across a network does)."""

    def get(self, key: str) -> str | None:
        time.sleep(0.05)
        return super().get(key)


def test_a_class_that_arrives_together_shares_one_read(clock: HandClock) -> None:
    store = SlowStore(clock)
    room = Classroom(store, clock=clock)
    teacher = room.start(TREE)
    check = ClassCheck(nothing, classroom=lambda: room, clock=clock)
    paths = [f"{check_path(teacher.code)}?seat={seat}" for seat in seats(room, teacher.code, 60)]

    async def lesson() -> tuple[list[Any], bool]:
        before = store.reads
        asking = [asyncio.ensure_future(call(check, path)) for path in paths]
        await asyncio.sleep(0.01)  # the read is on its way; one student closes the tab
        asking[0].cancel()
        done = await asyncio.gather(*asking, return_exceptions=True)
        assert store.reads - before == 1
        return done[1:], isinstance(done[0], asyncio.CancelledError)

    answers, left = asyncio.run(lesson())
    assert left
    # The others still got the read their classmate's request started.
    assert {(status, body["version"]) for status, body, _ in answers} == {
        (200, room.version(teacher.code))
    }
    assert check.reading == {}  # nothing kept once the read is done


def test_a_check_in_always_reaches_the_store(
    app: Starlette, room: Classroom, store: CountingStore
) -> None:
    teacher = room.start(TREE)
    path = check_path(teacher.code)
    get(app, path)
    for seat in seats(room, teacher.code, 3):
        assert get(app, f"{path}?seat={seat}")[0] == 200
    assert room.students(teacher.code) == 3


def test_the_teachers_check_is_a_members_but_not_counted_present(
    app: Starlette, room: Classroom, store: CountingStore, clock: HandClock
) -> None:
    """The teacher's page asks too (to learn at once when the store goes down), with its
    seat and ``present=0``: answered as a member's, never limited, and no student."""
    teacher = room.start(TREE)
    path = check_path(teacher.code)
    (seat,) = seats(room, teacher.code, 1)
    for _ in range(3):
        status, _, body = get(app, f"{path}?seat={seat}&present=0")
        assert (status, body) == (200, {"version": room.version(teacher.code)})
    assert room.students(teacher.code) == 0
    store.down = True
    clock.now += FRESH
    status, _, body = get(app, f"{path}?seat={seat}&present=0")
    assert (status, body) == (503, {"version": None, "down": True})


def test_the_check_says_when_the_store_is_down_and_recovers(
    app: Starlette, room: Classroom, store: CountingStore, clock: HandClock
) -> None:
    teacher = room.start(TREE)
    store.down = True
    status, _, body = get(app, check_path(teacher.code))
    assert (status, body) == (503, {"version": None, "down": True})
    store.down = False
    status, _, body = get(app, check_path(teacher.code))
    assert (status, body) == (200, {"version": room.version(teacher.code)})


def test_many_codes_never_grow_the_memory_of_reads(
    app: Starlette, room: Classroom, store: CountingStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(class_check, "MOST_CLASSES", 5)
    first, *others = ["KX39PA", "KX39AC", "KX39CE", "KX39EF", "KX39FH", "KX39HJ"]
    get(app, check_path(first))
    reads = store.reads
    get(app, check_path(first))
    assert store.reads == reads  # remembered
    for code in others:  # the sixth class forgets the first five
        get(app, check_path(code))
    reads = store.reads
    get(app, check_path(first))
    assert store.reads == reads + 1
    assert MOST_CLASSES >= 100


def test_the_check_is_served_once_its_middleware_is_made_and_its_path_is_outside_streamlits(
    room: Classroom,
) -> None:
    assert not served()
    made = check_middleware(lambda: room)
    assert made.cls is ClassCheck
    assert served()
    assert PATH.startswith("/api/")
    for reserved in ("/_stcore/", "/static/", "/media/", "/component/"):
        assert not PATH.startswith(reserved)


# --- a check that waits for the class to move (?seen=) ----------------------------------------


async def call(
    app: ClassCheck, path: str, *, leave_after: float | None = None
) -> tuple[int, Any, float]:
    """One request on the running loop: status, JSON body, seconds it took. ``leave_after``:
    the client goes away then (``http.disconnect``), as a closed tab does."""
    answer = await ask(app, path, leave_after=leave_after)
    return answer.status, json.loads(answer.body), answer.took


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reads every 20 ms instead of every quarter second: the same logic, faster tests."""
    monkeypatch.setattr(class_check, "FRESH", 0.02)
    monkeypatch.setattr(class_watch, "FRESH", 0.02)


async def nothing(scope: Any, receive: Any, send: Any) -> None:
    raise AssertionError("the check must not reach Streamlit")


def held_then(
    room: Classroom, act: Callable[[Teacher], object], *, after: float = 0.1
) -> tuple[int, Any, float, int | None, object]:
    """A class starts; a student's check names its version and is held; ``after`` seconds on,
    ``act(teacher)`` happens. Returns the check's status, body and seconds, the version it
    named, and what ``act`` returned."""
    teacher = room.start(TREE)
    check = ClassCheck(nothing, classroom=lambda: room, wait=5.0)
    shown = room.version(teacher.code)

    async def lesson() -> tuple[tuple[int, Any, float], object]:
        waiting = asyncio.ensure_future(call(check, f"{check_path(teacher.code)}?seen={shown}"))
        await asyncio.sleep(after)
        assert not waiting.done()  # nothing new: the question is held
        acted = act(teacher)
        return await waiting, acted

    (status, body, took), acted = asyncio.run(lesson())
    assert check.watches.by_code == {}  # nobody waits any more: the class is not read
    return status, body, took, shown, acted


@pytest.fixture
def unread(monkeypatch: pytest.MonkeyPatch) -> None:
    """The held checks' own reads five seconds apart: only an announcement answers them
    sooner."""
    monkeypatch.setattr(class_watch, "FRESH", 5.0)


# With reads every 20 ms, or five seconds apart: then only the teacher's announced move
# answers the check within the second.
@pytest.mark.parametrize("reads", ["quick", "unread"])
def test_a_check_that_knows_the_version_waits_until_the_teacher_moves(
    room: Classroom, reads: str, request: pytest.FixtureRequest
) -> None:
    request.getfixturevalue(reads)
    status, body, took, shown, moved = held_then(
        room, lambda teacher: room.show(teacher, DEEPER), after=0.2
    )
    assert (status, body) == (200, {"version": moved})
    assert body["version"] != shown
    assert 0.2 <= took < 1.0


@pytest.mark.usefixtures("unread")
def test_a_class_that_ends_is_announced_to_its_held_checks_too(room: Classroom) -> None:
    status, body, took, *_ = held_then(room, room.end, after=0.2)
    assert (status, body) == (200, {"version": None})
    assert 0.2 <= took < 1.0


@pytest.mark.usefixtures("quick")
def test_a_move_announced_when_the_store_is_down_is_still_found_by_the_reads(
    room: Classroom, store: CountingStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    def lost(channel: str, message: str) -> None:
        raise StoreDown("the announcement is lost")

    monkeypatch.setattr(store, "announce", lost)
    status, body, took, _, moved = held_then(
        room, lambda teacher: room.show(teacher, DEEPER), after=0.2
    )
    assert (status, body) == (200, {"version": moved})  # the teacher's move stood
    assert 0.2 <= took < 1.0


@pytest.mark.usefixtures("quick")
def test_a_check_that_finds_nothing_new_answers_after_its_wait(room: Classroom) -> None:
    teacher = room.start(TREE)
    check = ClassCheck(nothing, classroom=lambda: room, wait=0.3)
    shown = room.version(teacher.code)
    status, body, took = asyncio.run(call(check, f"{check_path(teacher.code)}?seen={shown}"))
    assert (status, body) == (200, {"version": shown})
    assert 0.3 <= took < 1.0


@pytest.mark.usefixtures("quick")
@pytest.mark.parametrize("seen", ["", "0", "abc", "-1"])
def test_a_check_that_knows_another_version_is_answered_at_once(room: Classroom, seen: str) -> None:
    teacher = room.start(TREE)
    check = ClassCheck(nothing, classroom=lambda: room, wait=5.0)
    seat = room.new_seat(teacher.code)  # a student's page names its seat
    path = f"{check_path(teacher.code)}?seen={seen}&seat={seat}"
    status, body, took = asyncio.run(call(check, path))
    assert (status, body) == (200, {"version": room.version(teacher.code)})
    assert took < 0.2


@pytest.mark.usefixtures("quick")
def test_a_student_who_leaves_ends_the_wait(room: Classroom) -> None:
    teacher = room.start(TREE)
    check = ClassCheck(nothing, classroom=lambda: room, wait=5.0)
    shown = room.version(teacher.code)
    path = f"{check_path(teacher.code)}?seen={shown}"
    status, _, took = asyncio.run(call(check, path, leave_after=0.1))
    assert status == 200
    assert took < 1.0


@pytest.mark.usefixtures("quick")
def test_a_waiting_class_costs_one_read_per_fresh_window_and_wakes_all_at_once(
    room: Classroom, store: CountingStore
) -> None:
    teacher = room.start(TREE)
    check = ClassCheck(nothing, classroom=lambda: room, wait=5.0)
    shown = room.version(teacher.code)
    paths = [
        f"{check_path(teacher.code)}?seen={shown}&seat={seat}"
        for seat in seats(room, teacher.code, 60)
    ]

    async def lesson() -> tuple[list[tuple[int, Any, float]], int, int, float]:
        before = store.reads
        waiting = [asyncio.ensure_future(call(check, path)) for path in paths]
        while (held := check.watches.by_code.get(teacher.code)) is None or held.waiting < 60:
            await asyncio.sleep(0.001)  # until the whole class is held
        arriving, began = store.reads - before, time.monotonic()
        await asyncio.sleep(0.4)  # about 20 windows of 20 ms, more on a loaded machine
        reads, windows = store.reads - before - arriving, (time.monotonic() - began) / FRESH
        room.show(teacher, DEEPER)
        return list(await asyncio.gather(*waiting)), arriving, reads, windows

    FRESH = class_check.FRESH
    answers, arriving, reads, windows = asyncio.run(lesson())
    # The class arrived together: its checks shared one read (and perhaps one window's).
    assert arriving <= 2
    # One read per window for the whole class while it waits, not one per student (60 per
    # window). The windows are counted on the clock the check uses, so a slow machine's longer
    # sleep counts as the windows it took.
    assert reads <= windows + 2
    moved = room.version(teacher.code)
    assert {(status, body["version"]) for status, body, _ in answers} == {(200, moved)}
    assert max(took for _, _, took in answers) < 2.0  # woken together, not timed out


@pytest.mark.usefixtures("quick")
def test_a_store_that_goes_down_while_students_wait_answers_503(
    room: Classroom, store: CountingStore
) -> None:
    status, body, took, *_ = held_then(room, lambda _: setattr(store, "down", True))
    assert (status, body) == (503, {"version": None, "down": True})
    assert took < 1.0  # woken, not timed out


@pytest.mark.usefixtures("quick")
def test_a_class_that_ends_while_students_wait_says_so(room: Classroom) -> None:
    status, body, took, *_ = held_then(room, room.end)
    assert (status, body) == (200, {"version": None})
    assert took < 1.0  # woken, not timed out


def test_the_wait_stays_under_a_servers_stop_and_a_proxys_timeout() -> None:
    assert WAIT < 10.0  # deploy.process gives a stopping server 10 s; waiting checks hold it
    assert WAIT < 60.0  # HAProxy's server timeout (deploy/haproxy.cfg.in)
    assert WAIT > 4 * CHECK_EVERY  # or waiting would not save much
