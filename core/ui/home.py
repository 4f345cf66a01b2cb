"""Opening a page: its browser tab and the sidebar's page list."""

from __future__ import annotations

import streamlit as st

from core.app.pages import HOME, Page
from core.ui.url_state import navigation


def open_page(page: Page) -> None:
    """The first calls of every page script (a shared link may open any page first)."""
    st.set_page_config(page_title=page.tab_title, page_icon=page.tab_icon, layout="wide")
    navigation()


def start_home() -> None:
    """Open the home page, which has no settings of its own."""
    open_page(HOME)
