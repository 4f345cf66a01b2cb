"""The session's own datasets, in ``st.session_state``: where uploads and drawn points live.

The registry (:class:`core.app.own_data.OwnData`) is kept under one session-state key, so it
lives exactly as long as the browser session (a reload starts a new, empty one) and no other
session can read it. The caches reach own rows only through :func:`own_rows`, which looks a
private key up in the *calling* session's registry; see :mod:`core.app.own_data` for why
those keys cannot serve one session's data to another.
"""

from __future__ import annotations

import streamlit as st

from core.app.own_data import OwnData, OwnKind
from core.app.settings import DatasetShape
from core.data.datasets import Dataset

_OWN = "_arboretum_own_data"


class OwnDataGone(ValueError):
    """The rows asked for are not (or no longer) in this session: a friendly message."""


def own_data() -> OwnData:
    """This session's registry (empty until the visitor uploads or draws)."""
    held = st.session_state.get(_OWN)
    if not isinstance(held, OwnData):
        held = OwnData()
        st.session_state[_OWN] = held
    return held


def keep(name: str, kind: OwnKind, data: Dataset, title: str) -> None:
    """Put ``data`` in this session's registry under the public ``name``."""
    st.session_state[_OWN] = own_data().add(name, kind, data, title)


def forget(name: str) -> None:
    st.session_state[_OWN] = own_data().remove(name)


def own_catalogue() -> dict[str, DatasetShape]:
    """The session's own datasets, by public name."""
    return own_data().catalogue()


def own_rows(key: str) -> Dataset:
    """The rows under the private ``key``, from this session's registry only."""
    data = own_data().rows(key)
    if data is None:
        raise OwnDataGone(
            "This table or these points are no longer in this browser session; choose "
            "another dataset."
        )
    return data
