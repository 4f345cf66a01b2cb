"""The changes the bench's page tools make to a page under ``AppTest``, each with its label.

``bench.page_cpu`` moves a student's controls and ``bench.follow_cpu`` a teacher's; both say
what they changed in their tables, so a change is a label and what it does to the page's widgets
before the next ``run``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from streamlit.testing.v1 import AppTest

from core.app import pages

#: One change: a label, and what it does to the page's widgets (before ``run``).
Change = tuple[str, Callable[[AppTest], Any]]


def select_slider(key: str, value: Any) -> Change:
    """Set the select slider ``key`` to ``value``."""
    return f"{key}={value}", lambda app: app.select_slider(key=key).set_value(value)


def slider(key: str, value: Any) -> Change:
    """Set the slider ``key`` to ``value``."""
    return f"{key}={value}", lambda app: app.slider(key=key).set_value(value)


def number(key: str, value: int) -> Change:
    """Set the number input ``key`` to ``value``."""
    return f"{key}={value}", lambda app: app.number_input(key=key).set_value(value)


def select(key: str, value: Any) -> Change:
    """Choose ``value`` in the select box ``key``."""
    return f"{key}={value}", lambda app: app.selectbox(key=key).set_value(value)


def toggle(key: str, value: bool) -> Change:
    """Turn the toggle ``key`` on or off."""
    return f"{key}={value}", lambda app: app.toggle(key=key).set_value(value)


def segmented(key: str, value: str) -> Change:
    """Choose ``value`` in the segmented control ``key``."""

    def change(app: AppTest) -> Any:
        return app.button_group(key=key).set_value(value)

    return f"{key}={value}", change


def press(key: str) -> Change:
    """Press the button ``key``."""
    return key, lambda app: app.button(key=key).click()


def switch(url_path: str) -> Change:
    """Go to the page whose address is ``url_path``, as the sidebar's link does."""
    path = next(p.path for p in pages.PAGES if p.url_path == url_path)
    return f"switch to {url_path}", lambda app: app.switch_page(path)
