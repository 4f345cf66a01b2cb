"""URL state and navigation: the sidebar's page list, the settings a run starts from and
ends with, the notices about a link that could not be used, and the share link.

Widget keys are the settings' field names, and the URL holds ``to_query(settings)``.
``arrive`` runs before a page's controls (``ui.start`` calls it): when the visitor has just
arrived on the page (or the browser's back or forward button changed its URL) it parses
the URL (or, when the URL says nothing about this page, the settings carried over from the
last page) and writes the values into the widgets' session state. A browser that reconnects
to a server which has never seen it (its replica died; the load balancer sent it to another)
has not arrived: its widgets already show the page, and ``reconnected_keys`` names the ones
whose values it sent, which the controls leave to the browser. ``finish`` runs after the
controls (``Controls.finish`` calls it) and writes the settings back into the URL, so a copied
link reproduces the view.
"""

from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st
from streamlit.errors import StreamlitPageNotFoundError

from core.app import settings as state
from core.app.pages import PAGES, Page
from core.ui.cached import catalogue
from core.ui.internals import history_navigation, sent_label, unread_browser_states
from core.ui.page_hooks import page_opened, page_wrote
from core.ui.visit import keep, visit

# --- URL state -----------------------------------------------------------------------------


def _url_query(form: state.Form) -> dict[str, str]:
    """The URL's values for this page's settings; other names (``embed``...) are not ours."""
    names = form.entries
    return {name: st.query_params[name] for name in st.query_params if name in names}


def navigation() -> None:
    """List the pages in the sidebar under friendly names.

    Streamlit's own page list names the home page after its file ("app"), so
    ``.streamlit/config.toml`` hides it and every page draws this one instead. Pages are still
    discovered from ``pages/``, so each one keeps its own URL.
    """
    with st.sidebar, st.container(key="app-navigation"):
        try:
            for page in PAGES:
                st.page_link(page.path, label=page.title, icon=page.icon)
        except StreamlitPageNotFoundError:
            # A page run as its own entry point (as AppTest does) knows no other pages; the
            # app itself always starts from app.py, where every page is known.
            return


def reconnected_label(key: str) -> str | None:
    """The option label a reconnecting browser's widget keyed ``key`` showed (a selectbox's, a
    select slider's), or None.

    A label names an option only while the options are the ones the browser was shown: a
    control whose labels depend on other settings (a tree's splits, a test set's samples)
    may have got a stale one, when the change just made moved those settings.
    """
    return sent_label(key) if key in reconnected_keys() else None


def _dataset_titled(label: str | None) -> str | None:
    """The dataset the picker shows under ``label`` (its title, else its name), or None."""
    for name, shape in catalogue().items():
        if (shape.title or name) == label:
            return name
    return None


def reconnected_keys() -> frozenset[str]:
    """The settings whose widgets a reconnecting browser holds in this run (see ``arrive``).

    A control whose key is here must not write its session state: that would overwrite the
    value the student has just chosen with the URL's older one.
    """
    return visit().reconnected


def arrive(page: Page, form: state.Form) -> state.Settings:
    """Settings this run starts from; call before the page's controls.

    On arrival (or when the back or forward button took the browser to another URL of this
    page) the URL wins, then the settings carried over from another page, then the defaults;
    otherwise the widgets hold the truth.

    Every other rerun carries the URL the browser showed when the visitor acted, which can be
    older than the URL the last run wrote: five quick arrow presses on a slider send five
    reruns, and the later ones may leave before the browser has taken the first run's URL. Such
    a URL is stale, not a link, and reading it would move the slider back.

    A fresh session is not always an arrival. When the server a student was on dies, the
    browser reconnects (through the load balancer) to a server that has never seen it, keeps
    the page it shows, and the student's next action sends a run carrying every widget's
    value, the one just moved included, with the URL the dead server last wrote. That URL is
    older than the moved widget, so the widgets the browser sent win (``reconnected_keys``);
    the URL still gives the settings the browser sent no widget for, and those whose option
    label the move made stale (``reconnected_label``; the controls check). A move to another
    dataset moves every setting with it, as the picker's callback would have. A fresh session
    whose run carries no widget of this page (a link opened, a reload), or one that came by
    the back or forward button, is an arrival as before. A reconnect is told from an in-app move to
    another page by the URL: ``finish`` always leaves the page's settings there, while a link
    in the page list opens a page without them.
    """
    query = _url_query(form)
    handed = page_opened(page.path)  # e.g. a follower opens the teacher's view as a link
    now = visit()
    unread = frozenset(unread_browser_states()) if now.page is None and query else frozenset()
    arrived, held = now.arrival(page.path, form, query, history_navigation(), unread)
    if handed is not None:
        query = {name: value for name, value in handed.items() if name in form.entries}
        arrived, held = True, frozenset()
    if arrived:
        source = query if query else now.carried
        settings, notices = state.parse(form, source, catalogue())
        moved_to = _dataset_titled(sent_label("dataset")) if "dataset" in held else None
        if moved_to is not None and moved_to != settings.dataset:
            # The move was to another dataset, whose callback (data_moves.move_to) cannot run
            # in a session that never drew the picker: do what it does. Every other widget the
            # browser sent belongs to the old dataset.
            settings = state.with_dataset(settings, moved_to, catalogue())
            held = frozenset()
        for name, value in settings.items:
            if name not in held:
                st.session_state[name] = form.entries[name].to_widget(value)
        now = now.adopt(settings, notices)
    now = now.run(page.path, held)
    keep(now)
    assert now.last is not None  # adopted on the session's first run
    return now.last


def finish(settings: state.Settings) -> dict[str, str]:
    """Put ``settings`` in the URL and carry them to the other pages; call after the controls.

    Returns the query written (the share link's).
    """
    query = state.to_query(settings, catalogue())
    if dict(visit().written) != query or _url_query(settings.form) != query:
        # from_dict keeps Streamlit's own embed options in the URL.
        st.query_params.from_dict(query)
    keep(visit().finish(settings, query, state.to_query(settings, full=True)))
    if visit().page is not None:
        page_wrote(str(visit().page), query)
    return query


def show_notices(settings: state.Settings) -> None:
    """What the URL asked for that could not be used, until the visitor changes something."""
    now = visit()
    notices = now.notices
    if notices and now.adopted == settings:
        lines = "\n".join(f"- {notice}" for notice in notices)
        st.warning(
            f"Some settings in this link could not be used:\n{lines}", icon=":material/warning:"
        )


def share_link(query: dict[str, str]) -> str:
    """The URL of this exact view, whose settings ``query`` holds (``finish``'s)."""
    base = st.context.url or ""
    return f"{base}?{urlencode(query)}"


def share_box(settings: state.Settings, query: dict[str, str]) -> None:
    """A visible "copy link" box: the link, with Streamlit's copy button.

    A link carries settings, never data: on a session's own data (an upload, drawn points)
    the box says plainly that the link cannot bring that data along.
    """
    shape = catalogue().get(settings.dataset)
    with st.container(key="share-link"):
        st.markdown(":material/link: **Copy link to this view**")
        st.code(share_link(query), language=None, wrap_lines=True)
        if shape is not None and shape.kind not in state.SHAREABLE_KINDS:
            what = (
                "uploaded table: it stays" if shape.kind == "upload" else "drawn points: they stay"
            )
            st.warning(
                f"A link cannot carry your {what} in this browser session only "
                "(reloading the page forgets them too). Opened anywhere else, the link "
                "shows the page's usual dataset with these settings.",
                icon=":material/link_off:",
            )
        else:
            st.caption(
                "Use the copy button on the right of the box; the link opens this exact view."
            )
