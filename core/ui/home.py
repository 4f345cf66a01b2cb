"""Opening a page (its browser tab and the sidebar's page list), and the home page's link cards."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from core.app.lessons import ClassroomLink
from core.app.pages import HOME, Page
from core.app.settings import to_query
from core.ui.cached import catalogue
from core.ui.page_hooks import page_arriving, page_opened, page_opening, page_wrote
from core.ui.url_state import navigation

_PAGE_CSS = Path(__file__).with_name("page.css").read_text(encoding="utf-8")


def open_page(page: Page) -> None:
    """The first calls of every page script (a shared link may open any page first).

    The wings' arrival comes first: a follower whose teacher moved to another page goes there
    before this page draws its tab, style and page list (a fifth of such a run's CPU before).
    """
    page_arriving(page.path)  # class mode: a join link, following the teacher
    st.set_page_config(page_title=page.tab_title, page_icon=page.tab_icon, layout="wide")
    st.html(f"<style>{_PAGE_CSS}</style>")  # style only: it takes no room on the page
    navigation()
    page_opening(page.path)  # class mode's sidebar section, among others


def start_home() -> None:
    """Open the home page, which has no settings of its own."""
    open_page(HOME)
    page_opened(HOME.path)  # a follower's move to the home page: nothing to read
    page_wrote(HOME.path, {})


def link_cards(links: tuple[ClassroomLink, ...], key: str) -> None:
    """Links three to a row, each in a card of equal height under its lesson."""
    with st.container(key=key):
        for start in range(0, len(links), 3):
            row = st.columns(3)
            for column, link in zip(row, links[start : start + 3], strict=False):
                with column, st.container(border=True, height="stretch"):  # equal heights
                    query = to_query(link.settings, catalogue())
                    st.page_link(
                        link.page.path, label=link.title, icon=link.page.icon, query_params=query
                    )
                    st.caption(link.lesson)
