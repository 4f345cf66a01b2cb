"""The followers' check as both of its ends know it: its path, its period, and who serves it.

A following student's page asks the server for its class's version over plain HTTP
(``GET /api/class/CODE``): the server's side is :mod:`server.class_check`, the page's side a
script in the sidebar (``core/ui/classroom/class_check.js``, set up by
:mod:`core.ui.classroom.follow`). What both must agree on lives here, in the class wing, so
that neither side imports the other.

The module is pure: no Streamlit.
"""

from __future__ import annotations

#: The check's path; ``{code}`` is a class code.
PATH = "/api/class/{code}"
#: Seconds between a follower's checks: a teacher's change reaches the page within this, plus
#: the page's own run.
CHECK_EVERY = 1.0

_served: list[bool] = []


def check_path(code: str) -> str:
    """The check's URL path for class ``code``."""
    return PATH.replace("{code}", code)


def serve() -> None:
    """From now on this process serves the check (its middleware was made: ``serve.py``)."""
    _served.append(True)


def served() -> bool:
    """Whether this process serves the check; a page of a process started from ``app.py``
    alone checks with a fragment on a timer instead."""
    return bool(_served)


__all__ = ["CHECK_EVERY", "PATH", "check_path", "serve", "served"]
