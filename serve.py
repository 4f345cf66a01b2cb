"""How Arboretum is served: the app (``app.py`` and ``pages/``) with the class mode's check.

``streamlit run serve.py`` finds the ``app`` below and serves it (``st.App``, Streamlit's way of
adding to its own server): every page as ``streamlit run app.py`` serves it, plus
``GET /api/class/CODE``, the cheap check a following student's page keeps asking (the server
holds it until the class moves, or a few seconds: ``core/app/class_check.py``), answered in
front of Streamlit's own middleware. ``make run``,
``make replicas``, the Docker image and the manifests start the app this way.

Streamlit's own frontend files (``/static/``, about 130 files on a browser's first link) are
answered from memory in front of all of it (``core/app/frontend_files.py``): through Streamlit's
handler a fresh page load cost this process 0.33-0.37 s of CPU, from memory 0.065 s.

Every connection the server accepts sends without Nagle's delay (``core/app/no_delay.py``):
Streamlit's own listening socket left it on, and each reply on a kept-alive connection waited
40 ms for the client's acknowledgement of its headers.
"""

import os

import streamlit as st
from starlette.middleware import Middleware
from streamlit import config, file_util

from core.app.class_check import check_middleware
from core.app.classroom import Classroom
from core.app.frontend_files import frontend_files_middleware
from core.app.no_delay import send_at_once

send_at_once()  # imported before the server accepts its first connection


def classroom() -> Classroom:
    """The classes the pages use (imported on the first check, once Streamlit's runtime runs:
    the UI modules' caches belong to it)."""
    from core.ui.class_panel import classroom as pages_classroom

    return pages_classroom()


def frontend_files() -> Middleware:
    """Streamlit's content-hashed frontend files (``static/`` beside its ``index.html``),
    answered from memory below the configured ``server.baseUrlPath``."""
    folder = os.path.join(file_util.get_static_dir(), "static")
    return frontend_files_middleware(folder, str(config.get_option("server.baseUrlPath") or ""))


app = st.App("app.py", middleware=[frontend_files(), check_middleware(classroom)])
