"""One HTTP request sent straight through an ASGI application's interface, as uvicorn sends it:
what the middleware tests in this folder drive the server's own middleware with."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Answer:
    """What the application sent back: status, headers (names in lower case), body, and the
    seconds it took (which two answers that are alike need not share)."""

    status: int
    headers: dict[str, str]
    body: bytes
    took: float = field(compare=False)


async def ask(
    app: Any,
    path: str,
    method: str = "GET",
    headers: dict[str, str] | None = None,
    *,
    leave_after: float | None = None,
) -> Answer:
    """One request to ``app`` on the running loop; ``path`` may carry a query string.

    The client sends an empty body, then waits for the answer: the next ``receive`` returns
    only when the client goes away (``http.disconnect``), after ``leave_after`` seconds, or
    never (Starlette's responses and the class check listen for it while they work).
    """
    target, _, query = path.partition("?")
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": target,
        "raw_path": target.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": [(b"host", b"testserver")]
        + [(name.lower().encode(), value.encode()) for name, value in (headers or {}).items()],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }
    sent: list[dict[str, Any]] = []
    asked = 0

    async def receive() -> dict[str, Any]:
        nonlocal asked
        asked += 1
        if asked == 1:
            return {"type": "http.request", "body": b"", "more_body": False}
        if leave_after is None:
            await asyncio.Event().wait()  # the client stays
        await asyncio.sleep(leave_after or 0.0)
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    began = time.monotonic()
    await app(scope, receive, send)
    took = time.monotonic() - began
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    answered = {name.decode().lower(): value.decode() for name, value in start["headers"]}
    return Answer(start["status"], answered, body, took)


def request(
    app: Any, path: str, method: str = "GET", headers: dict[str, str] | None = None
) -> Answer:
    """:func:`ask`, on a loop of its own."""
    return asyncio.run(ask(app, path, method, headers))
