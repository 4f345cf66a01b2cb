"""Streamlit's frontend files, answered from memory: a page load costs the server little.

Why
---
A browser that opens its first link fetches Streamlit's whole frontend before the page can run:
about 130 files, 9.3 MiB (the script bundles, the style sheets, the fonts, Plotly's 4.7 MB
chunk). Streamlit 1.67 serves them through Starlette's ``StaticFiles``: each request looks the
file up on a worker thread, then sends it in 64 KiB pieces, each read on a worker thread, all
of it through the server's middleware. Measured on one server started by ``streamlit run
serve.py`` (10 fresh loads of the Random forest page, issue 23): 0.33-0.37 s of the server's
CPU per load, as much as four slider moves, on the interpreter that runs every student's page.
Twenty students arriving within ten seconds asked for seven seconds of it, and their links
waited up to 16 s. Answered from memory, a load costs 0.065 s.

What
----
:class:`FrontendFiles` sits in front of Streamlit's server (``st.App``'s middleware in
``serve.py``) and answers a plain ``GET`` of a file under ``/static/`` itself: the first time
from disk (read on a worker thread), then from memory, the whole body in one send, with the
headers Streamlit's handler gives the same file. Those are computed by the same code: Starlette's
``FileResponse`` (type, length, last modification, ETag) and Streamlit's cache header for its
content-hashed files, ``public, immutable, max-age=31536000``. The files belong to the installed
Streamlit and never change while it runs; a new version has new names.

Everything else goes on to Streamlit untouched: other paths, ``HEAD``, a request with a
``Range`` or a conditional header (Streamlit answers those with part of a file or a 304), a
name that is not a plain relative path (``..``, ``//``, a backslash, a hidden file: Streamlit
refuses those), a name that is no file (Streamlit answers its index page), a file outside
Streamlit's folder. The memory kept is at most that folder (26 MiB for Streamlit 1.67).

A proxy in front (``make replicas``, Compose, Kubernetes) still caches what a replica sends: the
bytes and headers are the ones Streamlit would send.
"""

from __future__ import annotations

import os
import re
import stat as file_mode
from dataclasses import dataclass
from typing import Final

from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.responses import FileResponse
from starlette.types import ASGIApp, Receive, Scope, Send

#: Streamlit's header for its content-hashed frontend files (``starlette_static_routes.py``).
IMMUTABLE: Final = "public, immutable, max-age=31536000"
#: A file's name below ``/static/``: segments of letters, digits, ``_``, ``-`` and ``.``, none
#: of them starting with a dot (so no ``.``, ``..`` or hidden file) and none empty.
_NAME: Final = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]*(?:/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*")
#: Request headers after which Streamlit's handler may answer other than the whole file.
_ITS_OWN: Final = frozenset({b"range", b"if-range", b"if-none-match", b"if-modified-since"})


@dataclass(frozen=True)
class Kept:
    """One file as it is sent: its response headers and its bytes."""

    headers: list[tuple[bytes, bytes]]
    body: bytes


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
    """File ``name`` of ``folder`` with the headers Streamlit sends it with, or None when it
    is no regular file inside ``folder`` (a link out of it included)."""
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
    return Kept(list(response.raw_headers), body)


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

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        name = self.plain_get(scope)
        kept = self.kept.get(name) if name else None
        if name and kept is None:
            kept = await run_in_threadpool(read, self.folder, name)
            if kept is not None:
                self.kept[name] = kept
        if kept is None:
            await self.app(scope, receive, send)
            return
        await send({"type": "http.response.start", "status": 200, "headers": kept.headers})
        await send({"type": "http.response.body", "body": kept.body})

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
