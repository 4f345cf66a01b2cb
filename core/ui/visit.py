"""The session's own state (:class:`core.app.session.Visit`), under one key of ``st.session_state``.

It lives exactly as long as the browser session (a reload starts a new, empty one) and no
other session can read it. Its own rows (uploads, drawn points) are what keeps them loadable
by their private key (:class:`core.data.source.Source`); see :mod:`core.app.own_data` for why
those keys cannot serve one session's data to another.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import streamlit as st

from core.app.own_data import OwnData, OwnKind
from core.app.session import Visit
from core.app.settings import DatasetShape
from core.data.datasets import Dataset

#: The one session-state key Arboretum keeps its own state under (widgets have their own).
KEY = "_arboretum"


def visit() -> Visit:
    """This session's state (a fresh one on its first run)."""
    held = st.session_state.get(KEY)
    if not isinstance(held, Visit):
        held = Visit()
        st.session_state[KEY] = held
    return held


def keep(changed: Visit) -> None:
    """Make ``changed`` this session's state."""
    st.session_state[KEY] = changed


def change(**changes: Any) -> Visit:
    """This session's state with ``changes`` (fields of :class:`Visit`), kept; returned."""
    changed = replace(visit(), **changes)
    keep(changed)
    return changed


def following() -> bool:
    """Whether this session is a student following the teacher's view in a class."""
    seat = visit().seat
    return seat is not None and seat.following and not seat.teaching


def own_data() -> OwnData:
    """This session's own datasets (none until the visitor uploads or draws)."""
    return visit().own


def keep_own(name: str, kind: OwnKind, data: Dataset, title: str, source: Any = None) -> None:
    """Put ``data`` (made from ``source``, an upload's table) among the session's own datasets."""
    change(own=own_data().add(name, kind, data, title, source))


def own_catalogue() -> dict[str, DatasetShape]:
    """The session's own datasets, by public name."""
    return own_data().catalogue()
