"""Streamlit's frontend files, answered from memory: a page load costs the server little.

Why
---
A browser that opens its first link fetches Streamlit's whole frontend before the page can run:
about 130 files, several MiB (the script bundles, the style sheets, the fonts, Plotly's
chunk). Streamlit 1.67 serves them through Starlette's ``StaticFiles``: each request looks the
file up on a worker thread, then sends it in 64 KiB pieces, each read on a worker thread, all
of it through the server's middleware: a fresh load costs the server as much CPU as several
slider moves, on the interpreter that runs every student's page, and a class arriving together
waits for it. Answered from memory, a load costs a fraction of that (the measurements are in
``docs/benchmarks.md``).

What
----
:class:`FrontendFiles` sits in front of Streamlit's server (``st.App``'s middleware in
``serve.py``) and answers a plain ``GET`` of a file under ``/static/`` itself: the first time
from disk (read on a worker thread), then from memory, the whole body in one send, with the
headers Streamlit's handler gives the same file. Those are computed by the same code: Starlette's
``FileResponse`` (type, length, last modification, ETag) and Streamlit's cache header for its
content-hashed files, ``public, immutable, max-age=31536000``. The files belong to the installed
Streamlit and never change while it runs; a new version has new names. Requests that arrive
while a file is being read wait for that read instead of reading it again (a class arriving
together asks for the same 130 files at once).

Everything else goes on to Streamlit untouched: other paths, ``HEAD``, a request with a
``Range`` or a conditional header (Streamlit answers those with part of a file or a 304), a
name that is not a plain relative path (``..``, ``//``, a backslash, a hidden file: Streamlit
refuses those), a name that is no file (Streamlit answers its index page), a file outside
Streamlit's folder. The memory kept is at most that folder and its text files compressed (a
few tens of MiB; a page load asks for about a third of it).

Compressed once
---------------
Streamlit sends these files uncompressed, expecting a proxy in front to compress them (its
gzip middleware leaves ``/static/`` alone: compressing on every request would cost more CPU than
it saves). A class has no such proxy with ``make run``, and a school's Wi-Fi is shared: sixty
first links fetch the whole frontend each. Here each text file (scripts, style sheets,
SVG) is compressed once, when it is first read, at gzip's best level, and kept beside its
bytes; a browser that accepts gzip (every browser does) gets the compressed copy, about a third
of the plain bytes, for less CPU than sending them. Files that do not shrink
by a tenth (fonts and images, already compressed) are sent as they are, with Streamlit's
headers unchanged. A file that has a compressed copy says ``Vary: Accept-Encoding`` in both
forms, so that a cache in front keeps each form for the browsers that asked for it (HAProxy's
``process-vary``, ``deploy/haproxy.cfg.in``); the compressed form's ETag is the plain form's,
marked weak (``W/``), as nginx marks the files it compresses.

A proxy in front (``make replicas``, Compose, Kubernetes) caches what a replica sends.
"""

from __future__ import annotations

import asyncio
import gzip
import os
import re
import stat as file_mode
from dataclasses import dataclass
from typing import Final

from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.responses import FileResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from server.in_flight import joined

#: Streamlit's header for its content-hashed frontend files (``starlette_static_routes.py``).
IMMUTABLE: Final = "public, immutable, max-age=31536000"
#: A file's name below ``/static/``: segments of letters, digits, ``_``, ``-`` and ``.``, none
#: of them starting with a dot (so no ``.``, ``..`` or hidden file) and none empty.
_NAME: Final = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]*(?:/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*")
#: Request headers after which Streamlit's handler may answer other than the whole file.
_ITS_OWN: Final = frozenset({b"range", b"if-range", b"if-none-match", b"if-modified-since"})
#: Media types worth compressing: text. Fonts (WOFF2) and images come compressed already.
_TEXT: Final = ("text/", "application/javascript", "application/json", "image/svg+xml")
#: A compressed copy is kept only when it saves at least this share of the file.
SAVES: Final = 0.1
#: Said by both forms of a file that has a compressed copy.
_VARY: Final = (b"vary", b"Accept-Encoding")


@dataclass(frozen=True)
class Kept:
    """One file as it is sent: its response headers, its bytes, and the same file compressed
    with gzip (its own headers and bytes) when that is worth sending instead."""

    headers: list[tuple[bytes, bytes]]
    body: bytes
    gzipped: Kept | None = None


def accepts_gzip(scope: Scope) -> bool:
    """Whether the request's ``Accept-Encoding`` takes gzip (``gzip``, ``x-gzip`` or ``*``,
    without ``q=0``).

    >>> accepts_gzip({"headers": [(b"accept-encoding", b"gzip, deflate, br, zstd")]})
    True
    >>> accepts_gzip({"headers": [(b"accept-encoding", b"br, gzip;q=0")]})
    False
    >>> accepts_gzip({"headers": []})
    False
    """
    for header, value in scope.get("headers", ()):
        if header != b"accept-encoding":
            continue
        for item in value.decode("latin-1").lower().split(","):
            coding, _, parameters = item.partition(";")
            if coding.strip() not in ("gzip", "x-gzip", "*"):
                continue
            quality = parameters.strip().removeprefix("q=").strip() or "1"
            try:
                return float(quality) > 0
            except ValueError:
                return False
    return False


def compressed(headers: list[tuple[bytes, bytes]], body: bytes) -> Kept | None:
    """``body`` compressed with gzip, and the headers it is sent with, when its media type is
    text and compressing saves at least :data:`SAVES` of it; else None.

    The headers are the plain file's, with the compressed length, ``Content-Encoding: gzip``
    and the ETag marked weak (the same file, other bytes). The compression is repeatable: no
    time stamp in the gzip header.
    """
    fields = dict(headers)
    kind = fields.get(b"content-type", b"").decode("latin-1")
    if not kind.startswith(_TEXT):
        return None
    packed = gzip.compress(body, compresslevel=9, mtime=0)
    if len(packed) > (1 - SAVES) * len(body):
        return None
    changed = {b"content-length", b"etag"}
    kept = [(name, value) for name, value in headers if name not in changed]
    kept += [(b"content-length", str(len(packed)).encode()), (b"content-encoding", b"gzip")]
    if b"etag" in fields:
        kept.append((b"etag", b"W/" + fields[b"etag"].removeprefix(b"W/")))
    return Kept([*kept, _VARY], packed)


def static_prefix(base_url: str) -> str:
    """Where the frontend's files are asked for: ``/static/``, below ``server.baseUrlPath``.

    >>> static_prefix("")
    '/static/'
    >>> static_prefix("/course/")
    '/course/static/'
    """
    base = base_url.strip("/")
    return f"/{base}/static/" if base else "/static/"


def read(folder: str, name: str) -> Kept | None:
    """File ``name`` of ``folder`` with the headers Streamlit sends it with (plus ``Vary``, and
    its compressed copy, when it has one: :func:`compressed`), or None when it is no regular
    file inside ``folder`` (a link out of it included)."""
    path = os.path.realpath(os.path.join(folder, name))
    if os.path.commonpath([folder, path]) != folder:
        return None
    try:
        with open(path, "rb") as file:
            status = os.fstat(file.fileno())
            if not file_mode.S_ISREG(status.st_mode):
                return None
            body = file.read()
    except OSError:  # missing, a folder, unreadable: Streamlit's handler decides
        return None
    response = FileResponse(path, stat_result=status)
    response.headers["cache-control"] = IMMUTABLE
    headers = list(response.raw_headers)
    packed = compressed(headers, body)
    if packed is None:
        return Kept(headers, body)
    return Kept([*headers, _VARY], body, packed)


class FrontendFiles:
    """ASGI middleware: Streamlit's ``/static/`` files answered from memory (module docstring).

    Parameters
    ----------
    app : ASGI app
        Streamlit's server, which answers everything else.
    folder : str
        The folder of Streamlit's content-hashed files (``static/`` beside its ``index.html``:
        ``serve.py`` reads where from Streamlit).
    base_url : str, default ""
        ``server.baseUrlPath``: the files are asked for below it.
    """

    def __init__(self, app: ASGIApp, folder: str, base_url: str = "") -> None:
        self.app = app
        self.folder = os.path.realpath(folder)
        self.prefix = static_prefix(base_url)
        self.kept: dict[str, Kept] = {}
        self.reading: dict[str, asyncio.Future[Kept | None]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        name = self.plain_get(scope)
        kept = (self.kept.get(name) or await self.first_read(name)) if name else None
        if kept is None:
            await self.app(scope, receive, send)
            return
        if kept.gzipped is not None and accepts_gzip(scope):
            kept = kept.gzipped
        await send({"type": "http.response.start", "status": 200, "headers": kept.headers})
        await send({"type": "http.response.body", "body": kept.body})

    async def first_read(self, name: str) -> Kept | None:
        """File ``name`` read (and compressed) on a worker thread, and kept; the requests
        that ask for it meanwhile wait for the same read."""
        kept = await joined(self.reading, name, lambda: run_in_threadpool(read, self.folder, name))
        if kept is not None:
            self.kept[name] = kept
        return kept

    def plain_get(self, scope: Scope) -> str:
        """The file's name (below ``/static/``) when ``scope`` is a plain ``GET`` of one that
        this middleware may answer, else ``""``."""
        if scope["type"] != "http" or scope["method"] != "GET":
            return ""
        path: str = scope.get("path", "")
        if not path.startswith(self.prefix):
            return ""
        if any(header in _ITS_OWN for header, _ in scope.get("headers", ())):
            return ""
        name = path[len(self.prefix) :]
        return name if _NAME.fullmatch(name) else ""


def frontend_files_middleware(folder: str, base_url: str) -> Middleware:
    """:class:`FrontendFiles` for ``st.App``'s ``middleware``: Streamlit's files in ``folder``,
    asked for below ``base_url`` (``server.baseUrlPath``)."""
    return Middleware(FrontendFiles, folder=folder, base_url=base_url)
