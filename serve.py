"""How Arboretum is served: the app (``app.py`` and ``pages/``) with the server's own parts
(``server/``) in front of Streamlit's.

``streamlit run serve.py`` finds the ``app`` below and serves it (``st.App``, Streamlit's way of
adding to its own server): every page as ``streamlit run app.py`` serves it, plus
``GET /api/class/CODE``, the cheap check a following student's page keeps asking (the server
holds it until the class moves, or a few seconds: ``server/class_check.py``), answered in
front of Streamlit's own middleware, and ``POST /api/class-cookie/TICKET``, which sets the
class cookie HttpOnly (``server/class_cookie.py``). ``make run``, ``make replicas``, the Docker
image and the manifests start the app this way.

Streamlit's own frontend files (``/static/``, about 130 files on a browser's first link) are
answered from memory in front of all of it (``server/frontend_files.py``), so that a page load
costs this process a fraction of the CPU Streamlit's handler spends on it.

When the server starts, before it answers anyone, it loads what every page's first run needs
(:func:`preload`): the pages' modules (``core.ui``, which imports the figure builders) and the
engine's compiled loops from numba's cache. Otherwise the first student on a fresh server (the
teacher, on ``make run``; the first of each replica) would wait for all of that inside the
first page's run; the server answers its health check a little later instead.

When ``ARBORETUM_HEALTH_PORT`` names a port, the server also answers ``GET /health`` there, from
a thread of its own (``server/health.py``): ``/_stcore/health`` is answered on the event loop,
which a class rerunning a heavy page together keeps busy for seconds, and a load balancer or
a probe must not take that busy server for a dead one. ``make replicas``, Compose and the
Kubernetes manifests check that port.

Every connection the server accepts sends without Nagle's delay (``server/no_delay.py``):
Streamlit's own listening socket left it on, and each reply on a kept-alive connection waited
for the client's acknowledgement of its headers.
"""

import asyncio
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import streamlit as st
from starlette.middleware import Middleware
from streamlit import config, file_util

from core.classroom import Classroom
from server.class_check import check_middleware
from server.class_cookie import cookie_middleware
from server.frontend_files import frontend_files_middleware
from server.health import health_check, health_port
from server.no_delay import send_at_once
from server.rebalance import spreading

send_at_once()  # imported before the server accepts its first connection


def classroom() -> Classroom:
    """The classes the pages use (imported on the first check, once Streamlit's runtime runs:
    the UI modules' caches belong to it)."""
    from core.ui.classroom import classroom as pages_classroom

    return pages_classroom()


def frontend_files() -> Middleware:
    """Streamlit's content-hashed frontend files (``static/`` beside its ``index.html``),
    answered from memory below the configured ``server.baseUrlPath``."""
    folder = os.path.join(file_util.get_static_dir(), "static")
    return frontend_files_middleware(folder, str(config.get_option("server.baseUrlPath") or ""))


def preload() -> None:
    """Import the pages' modules and load every compiled loop from numba's cache (compiling
    any that is missing), as a page's first run would."""
    import core.ui  # noqa: F401  (the figure builders and the engine with it)
    from core.engine.compiled import compile_everything

    compile_everything()


@asynccontextmanager
async def warm_up(_app: st.App) -> AsyncIterator[None]:
    """``st.App``'s lifespan: once Streamlit's runtime has started (the pages' caches belong to
    it), :func:`preload`, on a worker thread so that the runtime's own tasks go on; then the
    server answers, and so does its own health check (when ``ARBORETUM_HEALTH_PORT`` asks
    for one), until the server stops; behind a load balancer with a shared store, it also keeps
    to its share of the sessions (``server/rebalance.py``)."""
    await asyncio.to_thread(preload)
    address = str(config.get_option("server.address") or "")
    async with health_check(health_port(), address), spreading():
        yield


app = st.App(
    "app.py",
    lifespan=warm_up,
    middleware=[frontend_files(), check_middleware(classroom), cookie_middleware(classroom)],
)
