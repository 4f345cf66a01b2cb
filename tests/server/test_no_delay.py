"""server.no_delay: connections accepted on a listening socket bound as Streamlit binds it
(``socket.socket(family)``, protocol number 0) send without Nagle's delay."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
from asyncio import base_events
from collections.abc import Iterator
from pathlib import Path

import pytest

from server import no_delay


def _accepted_no_delay() -> int:
    """TCP_NODELAY of the server side of one connection to an asyncio server whose listening
    socket was bound with protocol number 0."""
    listening = socket.socket(socket.AF_INET)  # as Streamlit's server binds it
    listening.bind(("127.0.0.1", 0))
    listening.listen()
    listening.setblocking(False)
    seen: list[int] = []

    class Server(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            sock = transport.get_extra_info("socket")
            seen.append(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))

    async def connect() -> None:
        server = await asyncio.get_running_loop().create_server(Server, sock=listening)
        port = listening.getsockname()[1]
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        for _ in range(100):
            if seen:
                break
            await asyncio.sleep(0.01)
        writer.close()
        server.close()
        await server.wait_closed()

    asyncio.run(connect())
    return seen[0]


@pytest.fixture
def original_nodelay() -> Iterator[object]:
    saved = getattr(base_events, no_delay.HELPER)
    yield saved
    setattr(base_events, no_delay.HELPER, saved)


def test_an_accepted_connection_sends_at_once(original_nodelay: object) -> None:
    no_delay.send_at_once()
    assert _accepted_no_delay() != 0


def test_twice_is_once(original_nodelay: object) -> None:
    no_delay.send_at_once()
    patched = getattr(base_events, no_delay.HELPER)
    no_delay.send_at_once()
    assert getattr(base_events, no_delay.HELPER) is patched


def test_serving_the_app_sends_at_once() -> None:
    # What `streamlit run serve.py` imports, in a fresh process: asyncio's helper is ours.
    root = Path(__file__).resolve().parents[2]
    probe = (
        "import serve\n"
        "from asyncio import base_events\n"
        "from server import no_delay\n"
        "print(getattr(base_events, no_delay.HELPER) is no_delay._no_delay)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=root, capture_output=True, text=True, timeout=120
    )
    assert done.stdout.strip().splitlines()[-1:] == ["True"], done.stderr[-2000:]
