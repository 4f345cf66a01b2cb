"""The widgets a simulated student reads from a run and changes: which elements are widgets,
their ids and keys, the ``WidgetState`` a browser sends back for a value, and the value a widget
shows. Shared by the run reader (:mod:`.st_reader`) and the session (:mod:`.st_client`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from streamlit.proto.WidgetStates_pb2 import WidgetState

#: Element kinds that are widgets a student changes, by their ``Element`` field name.
WIDGET_KINDS = frozenset(
    {"selectbox", "slider", "checkbox", "radio", "number_input", "button_group", "button"}
)


#: Widgets the client can also fill in (a form's text, sent with its submit button).
TEXT_KINDS = frozenset({"text_input", "text_area"})


@dataclass(frozen=True)
class Widget:
    """One widget of a finished run, as the server described it.

    Attributes
    ----------
    key : str
        The key the page gave it (``"max_depth"``), read from the end of its id.
    kind : str
        Its ``Element`` field: ``"slider"`` (also select sliders), ``"selectbox"``...
    proto : Any
        Its protobuf message (options, range, current value).
    fragment_id : str
        The fragment that drew it (``Delta.fragment_id``), or "" for the page's own: a browser
        reruns only that fragment when the widget changes.
    """

    key: str
    kind: str
    proto: Any
    fragment_id: str = ""

    @property
    def id(self) -> str:
        return str(self.proto.id)


def widget_key(widget_id: str) -> str:
    """The user's key at the end of a Streamlit widget id (``$$ID-<hash>-<key>``), or ``""``."""
    prefix = "$$ID-"
    if not widget_id.startswith(prefix):
        return ""
    _, _, key = widget_id[len(prefix) :].partition("-")
    return key


def widget_state(widget: Widget, value: Any) -> WidgetState:
    """The ``WidgetState`` a browser sends when ``widget`` is set to ``value``.

    ``value`` is what the student picks as the widget shows it: an option's label for
    selectboxes, radios, segmented controls and select sliders; a number for sliders and
    number inputs; a bool for toggles and checkboxes; anything for a button (a click).
    """
    state = WidgetState(id=widget.id)
    if widget.kind == "slider" and len(widget.proto.options) > 0:
        state.string_array_value.data.append(str(value))
    elif widget.kind == "slider":
        state.double_array_value.data.append(float(value))
    elif widget.kind in ("selectbox", "radio"):
        state.string_value = str(value)
    elif widget.kind == "button_group":
        state.string_array_value.data.append(str(value))
    elif widget.kind == "number_input":
        state.double_value = float(value)
    elif widget.kind == "checkbox":
        state.bool_value = bool(value)
    elif widget.kind == "button":
        state.trigger_value = True
    elif widget.kind in TEXT_KINDS:
        state.string_value = str(value)
    else:
        kinds = sorted(WIDGET_KINDS | TEXT_KINDS)
        raise ValueError(f"widget kind must be one of {kinds}; got {widget.kind!r}")
    return state


def shown_value(widget: Widget, sent: WidgetState | None = None) -> Any:
    """The value ``widget`` shows, as :func:`widget_state` takes it.

    The server sends a widget's value only when the script set it (``set_value``); otherwise
    the browser shows what it last sent (``sent``), or the widget's default.
    """
    proto, kind = widget.proto, widget.kind
    if kind == "slider" and len(proto.options) > 0:
        if proto.set_value and len(proto.raw_value):
            return proto.raw_value[0]
        if sent is not None:
            return sent.string_array_value.data[0]
        return proto.options[int(proto.default[0])]
    if kind == "slider":
        if proto.set_value and len(proto.value):
            return proto.value[0]
        return sent.double_array_value.data[0] if sent is not None else proto.default[0]
    if kind in ("selectbox", "radio"):
        if proto.set_value:
            return proto.raw_value
        return sent.string_value if sent is not None else proto.options[proto.default]
    if kind == "button_group":
        if proto.set_value and len(proto.raw_values):
            return proto.raw_values[0]
        if sent is not None:
            return sent.string_array_value.data[0]
        return proto.options[proto.default[0]].content if len(proto.default) else None
    if kind == "number_input":
        if proto.set_value:
            return proto.value
        return sent.double_value if sent is not None else proto.default
    if kind == "checkbox":
        if proto.set_value:
            return proto.value
        return sent.bool_value if sent is not None else proto.default
    if kind in TEXT_KINDS:
        if proto.set_value:
            return proto.value
        return sent.string_value if sent is not None else proto.default
    return None  # a button shows no value
