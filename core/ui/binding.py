"""The binding every control goes through: a widget's value, checked against its setting.

:class:`Binding` is the part of a page's controls that the data panels (``data_controls``,
``draw_panel``, ``upload_panel``) need; :class:`core.ui.controls.Controls` adds the widgets.
Keeping it here lets ``controls`` import the panels without the panels importing it back;
so is :func:`float_steps`, the select slider of numbers both draw (test size, pruning, noise).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import streamlit as st

from core.app import settings as state
from core.app.pages import Page
from core.ui.cached import catalogue
from core.ui.url_state import reconnected_keys

_LOG = logging.getLogger(__name__)
_MISSING = object()


class Binding:
    """What every control of one run of a page goes through.

    It holds the last good settings and the values drawn so far, and checks each widget's
    value against its setting before and after the widget is drawn.
    """

    def __init__(self, page: Page, form: state.Form, last: state.Settings, notice: Any) -> None:
        self.page = page
        self.settings_type = form
        self.last = last
        self.values: dict[str, Any] = {}
        self.widgets: set[str] = set()  # the settings drawn as a widget of their own
        self._merged: tuple[tuple[tuple[str, Any], ...], state.Settings] | None = None
        self.notice = notice  # a placeholder atop the page, for what stops it early

    # -- the binding every control goes through ---------------------------------------------

    def _valid(self, key: str, value: Any) -> bool:
        if key == "dataset":
            shape = catalogue().get(value) if isinstance(value, str) else None
            return shape is not None and self.settings_type.shows(shape)
        return state.field_is_valid(self.settings_type, key, value)

    def _control(self, key: str, draw: Callable[[], Any]) -> Any:
        """Draw the widget keyed ``key`` with a valid value in it; return its valid value."""
        session = st.session_state
        entry = self.settings_type.entries[key]
        held = session.get(key, _MISSING)
        if held is _MISSING and key in reconnected_keys():
            pass  # a reconnecting browser holds this widget's value: the widget reads it
        elif held is _MISSING or not self._valid(key, entry.from_widget(held)):
            if held is not _MISSING:
                _LOG.warning("control %s held %r; showing its last value", key, held)
            session[key] = entry.to_widget(getattr(self.last, key))
        value = entry.from_widget(draw())
        if not self._valid(key, value):
            _LOG.warning("control %s gave %r; keeping its last value", key, value)
            value = getattr(self.last, key)
        self.values[key] = value
        self.widgets.add(key)
        return value

    def hold(self, key: str, value: Any) -> Any:
        """Take ``value`` for setting ``key`` from a control of the page's own (several inputs
        that make one setting, as the what-if view's); checked as a widget's value is."""
        if not self._valid(key, value):
            _LOG.warning("control %s gave %r; keeping its last value", key, value)
            value = getattr(self.last, key)
        self.values[key] = value
        return value

    @property
    def settings(self) -> state.Settings:
        """The settings the controls drawn so far show; the others keep the last run's.

        Merged again only when a control has been drawn since the last call: a page asks for
        them several times a run.
        """
        drawn = tuple(self.values.items())
        if self._merged is None or self._merged[0] != drawn:
            settings, _ = state.merge(self.settings_type, self.last, self.values, catalogue())
            self._merged = (drawn, settings)
        return self._merged[1]


def held_value(key: str, kind: type[int] | type[float]) -> int | float | None:
    """The number session state holds for the slider keyed ``key``, as a ``kind``, to hand the
    slider as its value; None when it holds no number.

    A slider given no value looks for one in the whole session state (Streamlit's
    ``filtered_state``, which reads every widget's value, on every run of every page). Its value
    comes from the key either way, and :meth:`Binding._control` has put a valid one there
    before the widget is drawn; the value handed must only be of the slider's kind (a whole
    number beside a float slider's bounds is refused).
    """
    held = st.session_state.get(key)
    if isinstance(held, bool) or not isinstance(held, int | float):
        return None
    if kind is int and not isinstance(held, int):
        return None
    return kind(held)


def float_steps(entry: state.Setting, top: float, most: float, label: str, help: str) -> Any:
    """A select slider over ``entry.steps`` steps up to ``top``, plus the value held off them
    when it is at most ``most``.

    A plain slider would snap a value set elsewhere (an exact effective alpha from the
    pruning walk, beyond the slider's scale; a link's test size of 0.33) to its step.
    """
    low = float(entry.low)
    steps = [round(low + (top - low) * i / entry.steps, 6) for i in range(entry.steps + 1)]
    held = st.session_state.get(entry.name)
    extra = [held] if isinstance(held, float) and held not in steps and held <= most else []
    spec = entry.format or (".3f" if top < 1 else ".1f")
    odd = ".1%" if spec.endswith("%") else ".6g"
    return st.select_slider(
        label,
        sorted([*steps, *extra]),
        format_func=lambda v: format(v, spec if v in steps else odd),
        key=entry.name,
        help=help,
    )
