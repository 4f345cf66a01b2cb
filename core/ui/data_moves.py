"""Moving a page to another dataset, from a callback: the picker's, an upload's, a drawing's."""

from __future__ import annotations

import streamlit as st

from core.app import settings as state
from core.app.settings import DataKind
from core.ui.cached import catalogue
from core.ui.url_state import _LAST, _to_widget

KIND_KEY = "data_kind"  # the kind control's key (not a setting: the dataset says it)
LAST_OF_KIND = "_arboretum_last_of_kind"  # the dataset last shown of each kind


def names_of(kind: DataKind, settings_type: state.Form) -> list[str]:
    """The datasets of ``kind`` a page of ``settings_type`` can show, in catalogue order."""
    return [
        name
        for name, shape in catalogue().items()
        if shape.kind == kind
        and (shape.task == "classification" or not settings_type.classification_only)
    ]


def move_to(name: str) -> None:
    """Show dataset ``name``: every other setting moves with it (its pair, sample 0...).

    For callbacks, which run before the script and may still set the widgets' state.
    """
    session = st.session_state
    shape = catalogue().get(name)
    if shape is None:
        return
    moved = state.with_dataset(session[_LAST], name, catalogue())
    for key, value in moved.items:
        session[key] = _to_widget(key, value)
    session.setdefault(LAST_OF_KIND, {})[shape.kind] = name
    session[KIND_KEY] = shape.kind
