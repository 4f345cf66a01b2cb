"""The only place Arboretum reads Streamlit's private internals (1.66-1.67); nothing else does.

No public call tells a fresh session from one whose browser reconnected after its server
died, or a run asked for by the back or forward button from any other: both are read here,
from the inside. ``tests/deploy/test_internals.py`` fails when Streamlit changes what these
read; ``tests/deploy/test_reconnect_state.py`` shows what they are for.
"""

from __future__ import annotations

from typing import Any

from streamlit.elements.lib.utils import GENERATED_ELEMENT_ID_PREFIX
from streamlit.runtime.scriptrunner import get_script_run_ctx


def history_navigation() -> bool:
    """Whether this run was asked for by the browser's back or forward button."""
    context = get_script_run_ctx()
    return bool(getattr(context, "is_history_navigation", False))


def unread_browser_states() -> dict[str, Any]:
    """The values the browser sent with this run for widgets no run of this session has drawn,
    by key, as Streamlit's ``WidgetState`` protobufs.

    A session that drew a widget knows how to read its value (Streamlit keeps the widget's
    metadata); a value the session cannot read yet comes from a browser whose page another
    server drew, and the browser reconnected here. Streamlit names a keyed widget
    ``$$ID-<hash>-<key>`` and keeps the states in ``SessionState._new_widget_state``.
    """
    context = get_script_run_ctx()
    if context is None:
        return {}
    widgets = context.session_state._state._new_widget_state
    prefix = f"{GENERATED_ELEMENT_ID_PREFIX}-"
    return {
        widget_id.split("-", 2)[2]: getattr(held, "value", None)
        for widget_id, held in widgets.states.items()
        if widget_id.startswith(prefix)
        and widget_id.count("-") >= 2
        and widget_id not in widgets.widget_metadata
    }


def sent_label(key: str) -> str | None:
    """The option label the browser sent for the unread widget keyed ``key``, or None."""
    sent = unread_browser_states().get(key)
    if sent is None:
        return None
    kind = sent.WhichOneof("value")
    if kind == "string_value":
        return str(sent.string_value)
    if kind == "string_array_value" and len(sent.string_array_value.data) == 1:
        return str(sent.string_array_value.data[0])
    return None
