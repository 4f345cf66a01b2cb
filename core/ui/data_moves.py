"""Moving a page to another dataset, from a callback: the picker's, an upload's, a drawing's."""

from __future__ import annotations

import streamlit as st

from core.app import settings as state
from core.app.settings import DataKind, to_widget
from core.ui.cached import catalogue
from core.ui.visit import keep, visit

KIND_KEY = "data_kind"  # the kind control's key (not a setting: the dataset says it)


def names_of(kind: DataKind, settings_type: state.Form) -> list[str]:
    """The datasets of ``kind`` a page of ``settings_type`` can show, in catalogue order."""
    return [
        name
        for name, shape in catalogue().items()
        if shape.kind == kind and settings_type.shows(shape)
    ]


def move_to(name: str) -> None:
    """Show dataset ``name``: every other setting moves with it (its pair, sample 0...).

    For callbacks, which run before the script and may still set the widgets' state.
    """
    session = st.session_state
    shape = catalogue().get(name)
    if shape is None:
        return
    now = visit()
    assert now.last is not None  # a callback runs after a first run
    moved = state.with_dataset(now.last, name, catalogue())
    for key, value in moved.items:
        session[key] = to_widget(key, value)
    keep(now.shown(shape.kind, name))
    session[KIND_KEY] = shape.kind
