"""Send each reply at once: Nagle's algorithm off on every connection the server accepts.

Why
---
A TCP sender that has unacknowledged data holds back a new small segment until the
acknowledgement arrives (Nagle's algorithm), and a receiver may wait up to 40 ms before it
acknowledges (delayed ACK). A web server that writes a reply as two sends, its headers then
its body, is caught between the two: on a kept-alive connection the body waited for the
acknowledgement of the headers, so every small file after the first waited for the receiver's
delay, and a student's page load took several times the server's CPU for it (the measurements
are in ``docs/benchmarks.md``).

asyncio turns the algorithm off (``TCP_NODELAY``) on every connection it accepts, but only
when the socket says its protocol is TCP; Streamlit's server (1.66, 1.67) binds its listening
socket as ``socket.socket(family)``, whose protocol number is 0, and the accepted sockets
inherit that 0, so asyncio leaves them alone. :func:`send_at_once` makes asyncio's check look
at what the socket is (an IPv4 or IPv6 stream socket) rather than at that number.
"""

from __future__ import annotations

import socket
from asyncio import base_events
from typing import Any

#: asyncio's helper that each accepted connection's transport calls on its socket.
HELPER = "_set_nodelay"
_PATCHED = "_arboretum_no_delay"


def _no_delay(sock: socket.socket) -> None:
    """``TCP_NODELAY`` on ``sock`` when it is a TCP stream (any protocol number)."""
    if sock.family in (socket.AF_INET, socket.AF_INET6) and sock.type == socket.SOCK_STREAM:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def send_at_once() -> None:
    """From now on, every TCP connection an asyncio server accepts in this process sends
    without waiting (``TCP_NODELAY``). Idempotent; ``serve.py`` calls it before the server
    accepts its first connection. A Python without the helper is left as it is (its test
    then says whether connections still wait)."""
    current: Any = getattr(base_events, HELPER, None)
    if current is None or getattr(current, _PATCHED, False):
        return
    setattr(_no_delay, _PATCHED, True)
    setattr(base_events, HELPER, _no_delay)  # the transports look it up on each accept
