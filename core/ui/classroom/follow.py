"""Following the teacher, the Streamlit side: read the class's version, open the teacher's
view, and tell the class what a run wrote.

Every page's sidebar holds a small script (``class_check.js``, :func:`check_widget`): a
student's asks the server for the class's version over plain HTTP (:mod:`server.class_check`
answers when it moves or after a few seconds: no Streamlit run while nothing changed). When it
moved, the script asks the page for one run, which opens the teacher's view (another page by
``st.switch_page``, the same page by a rerun whose ``url_state.arrive`` reads the teacher's
settings as a link's). A server started from ``app.py`` alone, without ``serve.py``'s check,
checks with a fragment on a timer instead (a Streamlit run each time). The rules of each step
are :class:`core.classroom.Membership`'s; this module reads the store and keeps the result.
"""

from __future__ import annotations

import time
from pathlib import Path

import streamlit as st
from streamlit.errors import StreamlitPageNotFoundError

from core.classroom import Membership, Shown, remembered
from core.classroom.check import CHECK_EVERY, check_path, served
from core.ui.classroom.seat import (
    classroom,
    current_seat,
    reach,
    reached,
    screen_to_write,
    screen_written,
)
from core.ui.visit import change, visit

#: Seconds between a follower's checks: the teacher's change shows within about this, plus
#: the page's own run.
CHECK_SECONDS = CHECK_EVERY
#: Seconds after which a follower's page run that has not shown is first asked for again
#: (a class of 30 or 60 follows in about 2-3 s: a slow move is not taken for a lost one).
RETRY_SECONDS = 5.0
#: The longest wait between two asks for the same run: the browser's check doubles its wait
#: at each ask (``class_check.js``), so a busy server is not kept restarting a class's runs.
RETRY_MAX_SECONDS = 40.0


def here(page: str) -> Shown:
    now = visit()
    return Shown(page, now.written if now.page == page else {})


def check(page: str, *, timer: bool) -> None:
    """Read the class's version; when it moved, open the teacher's view or redraw the poll.

    ``timer``: the fragment's own run, which only asks for a run of the page when the version
    moved; the page's run (``timer`` False) reads the class and opens the teacher's view. A
    full run reads the version first, so the fragment drawn in it finds nothing new.
    """
    held = current_seat()
    if held is None or held.teaching:
        return
    seat, room, code = held, classroom(), held.code
    version = reach(lambda: room.version(code))
    if version is None:
        if current_seat() is not None:  # the store answered: no such class any more
            change(
                seat=None,
                class_problem="The class has ended. Thank you for taking part!",
                class_cookie="",
            )
        if timer:
            st.rerun()
        return
    now = time.time()
    if seat.check_in_due(now):
        if not reached(lambda: room.check_in(code, held.seat)):
            if timer:
                st.rerun()
            return
        seat = seat.checked(now)
    change(seat=seat)
    if timer:
        # The page's own run reads the class and opens the teacher's view (or draws the new
        # poll). A page run that began but never finished (seen under load: a run lost as a
        # timer tick arrives) is asked for again, rather than leaving the old view up.
        if seat.needs(version):
            st.rerun()
        if seat.overdue(now, RETRY_SECONDS, RETRY_MAX_SECONDS):
            change(seat=seat.asking_again(now))
            st.rerun()
        return
    if not seat.needs(version):
        return
    state = reach(lambda: room.state(code))
    if state is None:
        return
    seat = seat.opening(state, here(page)).asking(now)
    change(seat=seat)
    if seat.pending is not None and seat.pending.page != page:
        try:
            st.switch_page(seat.pending.page, query_params=dict(seat.pending.query))
        except StreamlitPageNotFoundError:  # a page run on its own (tests) knows no other
            change(seat=seat.follow(False))


def check_widget(held: Membership | None, page: str) -> None:
    """The class check in the sidebar, drawn on every page, in or out of a class.

    Served by ``serve.py``, it is the script, in one of three modes: a student's follows the
    class's version; a teacher's only listens for the store going down, so the teacher's page
    says so as soon as the students' do (the teacher's own moves change the version, and its
    seat is not counted present); outside a class it waits. Drawn before a class too, its
    script is loaded already when a student joins, and starts asking at once: a script that
    first loads with a joined page waits behind that page's charts, seconds on a busy laptop.
    Without ``serve.py``'s check, a student checks with a fragment on a timer instead.
    """
    if not served():
        if held is not None and not held.teaching:
            _follower_check(page)
        return
    data: dict[str, object] = {
        "every": round(1000 * CHECK_SECONDS),
        "retry": round(1000 * RETRY_SECONDS),
        "retry_max": round(1000 * RETRY_MAX_SECONDS),
    }
    if held is not None:
        data |= {
            "url": check_path(held.code),
            "seen": held.seen,
            "seat": held.seat,
            "teaching": held.teaching,
        }
    _CHECK(key="class-check", data=data, on_moved_change=_moved, height=0)


_CHECK = st.components.v2.component(
    "arboretum_class_check",
    html="",
    js=Path(__file__).with_name("class_check.js").read_text(encoding="utf-8"),
)


def _moved() -> None:
    """The check saw the class move: this run (the page's :func:`check`) follows it, and
    opens the teacher's view even if an earlier run wrote it (``Membership.recheck``)."""
    seat = current_seat()
    if seat is not None and not seat.teaching:
        change(seat=seat.rechecked())


@st.fragment(run_every=CHECK_SECONDS)
def _follower_check(page: str) -> None:
    """The follower's check without ``serve.py``'s: a fragment run every second that
    reads the class's version, and draws nothing."""
    check(page, timer=True)


def class_wrote(page: str, query: dict[str, str]) -> None:
    """A run of ``page`` wrote ``query``: the teacher's class shows it; a student who moved a
    control away from the teacher's view stops following.

    The run that finds the move has drawn the sidebar's "Follow the teacher" toggle already
    (on, with its caption), and a widget drawn in a run keeps its value to the end of it: the
    page runs again at once, so the toggle shows off as the toast says, and one click on it
    follows again.
    """
    seat = current_seat()
    if seat is None:
        return
    if seat.teaching:
        shown, teacher, screen = Shown(page, query), seat.teacher, screen_to_write()
        if seat.shown == shown and screen is None:
            return
        if reach(lambda: classroom().show(teacher, shown, screen)) is not None:
            change(seat=seat.published(shown))
            screen_written()
        return
    left, seat = seat.wrote(page, query)
    change(seat=seat.drew())
    if left:
        change(class_cookie=remembered(seat))
        st.toast(
            "You moved a control, so you explore on your own now. Turn on “Follow the "
            "teacher” in the sidebar to jump back.",
            icon=":material/explore:",
        )
        st.rerun()  # the toast outlives the rerun


def opened_view(page: str) -> dict[str, str] | None:
    """The teacher's settings this run of ``page`` opens (a follower's), or None."""
    seat = current_seat()
    if seat is None:
        return None
    shown = seat.opened(page)
    return None if shown is None else dict(shown.query)


__all__ = [
    "CHECK_SECONDS",
    "RETRY_MAX_SECONDS",
    "RETRY_SECONDS",
    "check",
    "check_widget",
    "class_wrote",
    "here",
    "opened_view",
]
