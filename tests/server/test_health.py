"""The health check off the event loop: it answers while the loop is busy, says ``stalled`` once
the loop has not turned for too long, and is there only when a port is named."""

from __future__ import annotations

import asyncio
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest

from server.health import (
    HEALTH_PATH,
    HEALTH_PORT_VARIABLE,
    Heartbeat,
    check_server,
    health_check,
    health_port,
)
from tests.hand_clock import HandClock
from tests.live_app import free_port


def ask(port: int, path: str = HEALTH_PATH) -> tuple[int, bytes]:
    """The status and body of ``GET path`` at 127.0.0.1:``port``."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


@pytest.fixture
def clock() -> HandClock:
    return HandClock(100.0)


@pytest.fixture
def checked(clock: HandClock) -> Iterator[tuple[int, Heartbeat]]:
    """A check server on a free port, serving a heart beaten by hand with ``clock``."""
    heart = Heartbeat(clock)
    server = check_server("127.0.0.1", 0, heart, limit=30.0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1], heart
    server.shutdown()
    server.server_close()


def test_a_heart_is_stalled_only_after_the_limit_without_a_beat(clock: HandClock) -> None:
    heart = Heartbeat(clock)
    clock.now += 30.0
    assert not heart.stalled(30.0)
    clock.now += 0.5
    assert heart.stalled(30.0)
    heart.beat()
    assert not heart.stalled(30.0)


def test_the_check_says_ok_then_stalled_then_ok_again(
    checked: tuple[int, Heartbeat], clock: HandClock
) -> None:
    port, heart = checked
    assert ask(port) == (200, b"ok")
    clock.now += 31.0
    assert ask(port) == (503, b"stalled")
    heart.beat()
    assert ask(port) == (200, b"ok")


def test_the_check_answers_only_its_own_path(checked: tuple[int, Heartbeat]) -> None:
    port, _ = checked
    assert ask(port, "/_stcore/health")[0] == 404
    assert ask(port, HEALTH_PATH + "?from=haproxy") == (200, b"ok")


@pytest.mark.parametrize(
    ("environ", "expected"),
    [({}, None), ({HEALTH_PORT_VARIABLE: ""}, None), ({HEALTH_PORT_VARIABLE: " 8502 "}, 8502)],
)
def test_the_port_comes_from_the_environment(environ: dict[str, str], expected: int | None) -> None:
    assert health_port(environ) == expected


@pytest.mark.parametrize("text", ["0", "65536", "80a", "-1"])
def test_a_port_that_is_not_one_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match=f"{HEALTH_PORT_VARIABLE} must be a port.*{text}"):
        health_port({HEALTH_PORT_VARIABLE: text})


def test_without_a_port_nothing_is_served() -> None:
    async def enter() -> object:
        async with health_check(None) as server:
            return server

    assert asyncio.run(enter()) is None


def ask_while_blocked(block: float, after: float, limit: float) -> tuple[float, int, bytes]:
    """Serve the check, hold the event loop for ``block`` seconds, and ask the check ``after``
    seconds into it: how long the answer took, and the answer."""
    port = free_port()
    answers: list[tuple[float, int, bytes]] = []

    def ask_during_the_block() -> None:
        time.sleep(after)
        began = time.monotonic()
        status, body = ask(port)
        answers.append((time.monotonic() - began, status, body))

    async def serve_and_block() -> None:
        async with health_check(port, "127.0.0.1", limit=limit):
            asker = threading.Thread(target=ask_during_the_block)
            asker.start()
            time.sleep(block)  # the loop is held: no beat, no other task runs
            await asyncio.to_thread(asker.join, 10)
        # Once the block is left the check stops: the port is closed.
        with pytest.raises(urllib.error.URLError):
            ask(port)

    asyncio.run(serve_and_block())
    (answer,) = answers
    return answer


def test_the_check_answers_at_once_while_the_event_loop_is_blocked() -> None:
    # What a class rerunning a heavy page does to Streamlit's loop, in miniature: the loop is
    # held for 1.5 s; the check, on its own thread, answers meanwhile.
    seconds, status, body = ask_while_blocked(1.5, after=0.3, limit=30.0)
    assert (status, body) == (200, b"ok")
    assert seconds < 1.0, "the check waited for the event loop"


def test_a_loop_that_stops_turning_for_longer_than_the_limit_is_reported_stalled() -> None:
    _, status, body = ask_while_blocked(1.5, after=1.0, limit=0.5)
    assert (status, body) == (503, b"stalled")
