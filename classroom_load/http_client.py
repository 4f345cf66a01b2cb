"""A small HTTP/1.1 client that fetches as a browser does: keep-alive, bodies read whole.

Only what a page load needs: ``GET`` with the browser's cookies and ``Accept-Encoding``, a
connection kept open between requests (and opened again when the server closed it), and a
body read to its end by ``Content-Length``, by chunks, or to the end of the connection. A
body is counted and dropped unless asked for (``keep_body``, for a small answer the caller
reads, such as the class check's JSON): the student's driver does not decompress or parse what
a browser would, so it spends its CPU on the load the server sees, not on the files.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from classroom_load.st_client import cookie_header
from classroom_load.st_reader import ProtocolError

#: What Chromium says it accepts: the server may compress what it sends.
ACCEPT_ENCODING = "gzip, deflate, br, zstd"
_CHUNK = 1 << 18


@dataclass(frozen=True)
class Answer:
    """One HTTP response: its status, its headers (names in lower case), its body's size, and
    the body itself when it was kept (else empty)."""

    status: int
    headers: dict[str, str]
    set_cookie: tuple[str, ...]
    size: int
    body: bytes = b""


class HttpConnection:
    """One keep-alive HTTP/1.1 connection, as a browser holds one of its six to a host.

    It opens when first used and again after the server closed it; bodies are read to their
    end (by ``Content-Length``, chunks, or the end of the connection) and dropped.
    """

    def __init__(self, base_url: str) -> None:
        parts = urlsplit(base_url)
        if parts.scheme != "http" or parts.hostname is None:
            raise ValueError(f"base_url must be http://host:port; got {base_url!r}")
        self.host = parts.hostname
        self.port = parts.port or 80
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def get(
        self, target: str, cookies: Mapping[str, str], *, keep_body: bool = False
    ) -> Answer:
        """Send ``GET target`` with the browser's cookies and read the whole answer (its body
        kept only with ``keep_body``)."""
        if self._reader is None or self._writer is None:
            self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        reader, writer = self._reader, self._writer
        lines = [
            f"GET {target} HTTP/1.1",
            f"Host: {self.host}:{self.port}",
            f"Accept-Encoding: {ACCEPT_ENCODING}",
            *([f"Cookie: {cookie_header(cookies)}"] if cookies else []),
        ]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        await writer.drain()
        try:
            head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
            status = int(head[0].split()[1])
            headers: dict[str, str] = {}
            set_cookie = []
            for line in head[1:]:
                name, _, value = line.partition(":")
                if name.lower() == "set-cookie":
                    set_cookie.append(value.strip())
                elif name:
                    headers[name.lower()] = value.strip()
            kept: list[bytes] | None = [] if keep_body else None
            size, closed = await _read_body(reader, status, headers, kept)
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, IndexError, ValueError):
            await self.close()
            raise ProtocolError(f"no whole HTTP answer to GET {target}") from None
        if closed or headers.get("connection", "").lower() == "close":
            await self.close()
        return Answer(status, headers, tuple(set_cookie), size, b"".join(kept or ()))

    async def close(self) -> None:
        """Close the connection, if open."""
        writer, self._reader, self._writer = self._writer, None, None
        if writer is not None:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()


async def _drain(reader: asyncio.StreamReader, count: int, kept: list[bytes] | None) -> None:
    """Read ``count`` bytes; append them to ``kept`` unless it is None (then they are dropped)."""
    while count > 0:
        chunk = await reader.read(min(count, _CHUNK))
        if not chunk:
            raise ProtocolError("the server closed the connection inside a body")
        if kept is not None:
            kept.append(chunk)
        count -= len(chunk)


async def _read_body(
    reader: asyncio.StreamReader,
    status: int,
    headers: Mapping[str, str],
    kept: list[bytes] | None = None,
) -> tuple[int, bool]:
    """Read a body, into ``kept`` when given (else dropped): its size, and whether the server
    closed the connection."""
    if status in (204, 304) or 100 <= status < 200:
        return 0, False
    if "chunked" in headers.get("transfer-encoding", "").lower():
        size = 0
        while True:
            chunk_size = int((await reader.readline()).split(b";")[0].strip(), 16)
            if chunk_size == 0:
                while (await reader.readline()).strip():  # trailers, up to an empty line
                    pass
                return size, False
            await _drain(reader, chunk_size, kept)
            await _drain(reader, 2, None)  # the chunk's CRLF
            size += chunk_size
    if "content-length" in headers:
        size = int(headers["content-length"])
        await _drain(reader, size, kept)
        return size, False
    size = 0
    while chunk := await reader.read(_CHUNK):
        if kept is not None:
            kept.append(chunk)
        size += len(chunk)
    return size, True
