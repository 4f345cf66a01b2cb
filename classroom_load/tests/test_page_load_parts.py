"""A link's page load and the report by kind (issue 23), without Streamlit.

The page load runs against a tiny HTTP server made here, which answers in the three ways a
body can end (a length, chunks, the end of the connection), sets a cookie, and says which
answers a browser may keep; the report's numbers are checked on a hand-made log.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from classroom_load.classroom import think_bounds
from classroom_load.classroom_report import kind_rows, page_load_line
from classroom_load.classroom_students import Interaction, kind_of
from classroom_load.classroom_summary import by_kind
from classroom_load.http_client import HttpConnection
from classroom_load.page_load import Asset, Browser, load_page, reusable
from tests.live_app import run_beside_playwright

IMMUTABLE = "public, immutable, max-age=31536000"
#: target -> (status, Cache-Control, body, how the body ends)
ROUTES: dict[str, tuple[int, str, bytes, str]] = {
    "/page": (200, "no-cache", b"<html></html>" * 20, "length"),
    "/static/app.js": (200, IMMUTABLE, b"a" * 70_000, "chunked"),
    "/_stcore/health": (200, "no-cache", b"ok", "close"),
    "/static/app.css": (200, "public, max-age=60", b"b" * 3_000, "length"),
    "/page/_stcore/health": (404, "", b"", "length"),
}
PAGE = (
    Asset("/page", document=True),
    Asset("/static/app.js"),
    Asset("/_stcore/health"),
    Asset("/static/app.css"),
    Asset("/page/_stcore/health", status=404),
)


@dataclass
class Seen:
    """What the tiny server saw: each request's target and Cookie header, and connections."""

    requests: list[tuple[str, str]] = field(default_factory=list)
    connections: int = 0


async def _answer(seen: Seen, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    seen.connections += 1
    try:
        while True:
            try:
                head = (await reader.readuntil(b"\r\n\r\n")).decode().split("\r\n")
            except asyncio.IncompleteReadError:
                return
            target = head[0].split()[1]
            cookie = next((h.split(":", 1)[1].strip() for h in head if h.startswith("Cookie:")), "")
            seen.requests.append((target, cookie))
            status, cache, body, ending = ROUTES[target.split("?")[0]]
            lines = [f"HTTP/1.1 {status} X", "Set-Cookie: replica=r1; Path=/; HttpOnly"]
            lines += [f"Cache-Control: {cache}"] if cache else []
            if ending == "length":
                lines.append(f"Content-Length: {len(body)}")
                writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
            elif ending == "chunked":
                lines.append("Transfer-Encoding: chunked")
                writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
                for start in range(0, len(body), 30_000):
                    chunk = body[start : start + 30_000]
                    writer.write(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
                writer.write(b"0\r\n\r\n")
            else:  # the body ends with the connection
                writer.write(("\r\n".join([*lines, "Connection: close"]) + "\r\n\r\n").encode())
                writer.write(body)
                await writer.drain()
                return
            await writer.drain()
    finally:
        writer.close()


def _with_server(use: Callable[[str, Seen], Awaitable[Any]]) -> tuple[Any, Seen]:
    """Run ``use(base_url, seen)`` against the tiny server; its result and what it saw."""
    seen = Seen()

    async def both() -> Any:
        server = await asyncio.start_server(lambda r, w: _answer(seen, r, w), "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        async with server:
            return await use(f"http://127.0.0.1:{port}", seen)

    return run_beside_playwright(both()), seen


def test_a_first_load_fetches_everything_the_html_first_and_the_query_on_it_alone() -> None:
    browser = Browser()

    async def load(url: str, seen: Seen) -> Any:
        return await load_page(url, PAGE, {"dataset": "wine", "max_depth": "3"}, browser)

    loaded, seen = _with_server(load)
    assert loaded.error == ""
    assert loaded.requests == 5 and loaded.static_requests == 2
    assert loaded.bytes == sum(len(body) for _, _, body, _ in ROUTES.values())
    targets = [target for target, _ in seen.requests]
    assert targets[0] == "/page?dataset=wine&max_depth=3"
    assert sorted(targets[1:]) == sorted(asset.target for asset in PAGE[1:])
    # The HTML's answer set the cookie: every later request carries it, as a browser's would.
    assert seen.requests[0][1] == ""
    assert all(cookie == "replica=r1" for _, cookie in seen.requests[1:])
    assert browser.cookies == {"replica": "r1"}
    assert browser.cached == {"/static/app.js", "/static/app.css"}


def test_a_later_load_by_the_same_browser_fetches_only_what_it_may_not_reuse() -> None:
    browser = Browser()

    async def twice(url: str, seen: Seen) -> Any:
        await load_page(url, PAGE, {}, browser)
        del seen.requests[:]
        return await load_page(url, PAGE, {"dataset": "iris"}, browser)

    loaded, seen = _with_server(twice)
    assert (loaded.error, loaded.requests, loaded.static_requests) == ("", 3, 0)
    assert sorted(target for target, _ in seen.requests) == [
        "/_stcore/health",
        "/page/_stcore/health",
        "/page?dataset=iris",
    ]


def test_one_connection_is_kept_alive_and_opened_again_after_the_server_closed_it() -> None:
    async def load(url: str, seen: Seen) -> Any:
        return await load_page(url, PAGE, {}, Browser(), connections=1)

    loaded, seen = _with_server(load)
    assert loaded.requests == 5
    assert [target for target, _ in seen.requests] == [asset.target for asset in PAGE]
    assert seen.connections == 2  # the health check's answer ended with its connection


def test_a_kept_body_comes_back_whole_however_it_ends_and_a_dropped_one_is_counted() -> None:
    async def fetch(url: str, seen: Seen) -> Any:
        connection = HttpConnection(url)
        try:
            return [
                (await connection.get(target, {}, keep_body=keep))
                for target in ("/page", "/static/app.js", "/_stcore/health")
                for keep in (True, False)
            ]
        finally:
            await connection.close()

    answers, _ = _with_server(fetch)
    for kept, dropped, target in zip(
        answers[::2], answers[1::2], ("/page", "/static/app.js", "/_stcore/health"), strict=True
    ):
        assert kept.body == ROUTES[target][2]  # a length, chunks, the end of the connection
        assert kept.size == dropped.size == len(ROUTES[target][2])
        assert dropped.body == b""


def test_another_status_than_chromium_got_is_an_error_and_is_not_kept() -> None:
    expected_gone = (Asset("/page", document=True), Asset("/static/app.js", status=404))
    browser = Browser()

    async def load(url: str, seen: Seen) -> Any:
        return await load_page(url, expected_gone, {}, browser)

    loaded, _ = _with_server(load)
    assert loaded.error == "HTTP 200 for /static/app.js (expected 404)"
    assert browser.cached == set()


@pytest.mark.parametrize(
    ("cache_control", "kept"),
    [
        (IMMUTABLE, True),
        ("max-age=60", True),
        ("Public, Max-Age=60", True),
        ("no-cache", False),
        ("max-age=60, no-store", False),
        ("public, max-age=0", False),
        ("", False),
    ],
)
def test_a_browser_reuses_only_answers_fresh_for_a_while(cache_control: str, kept: bool) -> None:
    assert reusable({"cache-control": cache_control}) is kept


def test_actions_have_three_kinds() -> None:
    assert [kind_of(a) for a in ("open", "new tab", "switch", "max_depth", "step-next")] == [
        "link",
        "link",
        "sidebar",
        "move",
        "move",
    ]


def _log() -> list[Interaction]:
    def act(action: str, seconds: float, error: str = "", http: float | None = None) -> Interaction:
        return Interaction(0, "Single_tree", action, 0.0, seconds, error, http_s=http)

    moves = [act("max_depth", s) for s in (0.1, 0.2, 0.3, 0.6)]
    return [
        *moves,
        act("switch", 0.4),
        act("open", 2.0, http=1.5),
        act("new tab", 0.5, http=0.1),
        act("new tab", 9.0, error="timeout after 60 s"),
    ]


def test_by_kind_reports_each_kind_and_all_against_their_goals() -> None:
    numbers = by_kind(_log(), uncaught=1)
    assert {kind: n["interactions"] for kind, n in numbers.items()} == {
        "move": 4,
        "sidebar": 1,
        "link": 2,
        "all": 7,
    }
    assert {kind: n["errors"] for kind, n in numbers.items()} == {
        "move": 0,
        "sidebar": 0,
        "link": 1,
        "all": 2,  # the timeout and the uncaught error of the server's log
    }
    # Nearest rank: the p95 of four moves is the largest; the median of two is their mean.
    assert (numbers["move"]["p50_s"], numbers["move"]["p95_s"]) == (0.25, 0.6)
    assert (numbers["link"]["p50_s"], numbers["link"]["p95_s"]) == (1.25, 2.0)
    assert (numbers["link"]["http_p50_s"], numbers["link"]["http_p95_s"]) == (0.8, 1.5)
    assert [numbers[k]["goal_s"] for k in ("move", "sidebar", "link", "all")] == [
        0.5,
        None,
        3.0,
        1.0,
    ]
    rows = kind_rows({"students": 3, "replicas": 2, "by_kind": numbers}).splitlines()
    assert "| move | 4 | 0 | 0.25 s | 0.60 s MISS (≤ 0.5 s) |" in rows[0]
    assert "| sidebar | 1 | 0 | 0.40 s | 0.40 s (none) |" in rows[1]
    # A link's p95 is within its goal, but one link was lost: not served.
    assert "| link | 2 | 1 | 1.25 s | 2.00 s MISS (≤ 3 s) |" in rows[2]
    assert rows[2].endswith("| 0.80 / 1.50 s (0) |")
    assert "| all | 7 | 2 |" in rows[3]


def test_think_bounds_read_low_high_or_one_fixed_time() -> None:
    assert think_bounds("2,6") == (2.0, 6.0)
    assert think_bounds("0.5") == (0.5, 0.5)
    for wrong in ("6,2", "-1,2", "1,2,3"):
        with pytest.raises(argparse.ArgumentTypeError, match="--think must be LOW,HIGH"):
            think_bounds(wrong)


def test_the_page_load_line_gives_ranges_over_pages_and_says_how_the_list_was_found() -> None:
    def page(requests: int, static: int, mib: float) -> dict[str, Any]:
        return {"requests": requests, "static_requests": static, "bytes": int(mib * 2**20)}

    varied = {"source": "Chromium", "pages": {"a": page(148, 141, 10.7), "b": page(9, 7, 9.3)}}
    line = page_load_line(varied)
    assert "its page's 9-148 requests (7-141 under /static/, 9.3-10.7 MiB)" in line
    assert line.endswith("from Chromium.")
    same = {"source": "the HTML's tags", "pages": {"a": page(63, 61, 2.2), "b": page(63, 61, 2.2)}}
    assert "its page's 63 requests (61 under /static/, 2.2 MiB)" in page_load_line(same)
