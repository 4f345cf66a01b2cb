"""The sidebar's class section: start or join a class, show its code, leave or end it.

Every page's run calls :func:`class_arrival` before it draws anything (a join link, following
the teacher) and :func:`class_panel` first in its sidebar (through :mod:`core.ui.page_hooks`,
before its settings are read).

- **The teacher** starts a class from the sidebar, shows its code, link and QR code on the
  projector, asks questions on any page (:mod:`core.ui.classroom.ask`; and "where will the
  tree split next?" on the step page, :mod:`core.ui.classroom.split`), and ends the class.
- **A student** joins by the link, the QR code or the code, and follows the teacher
  (:mod:`core.ui.classroom.follow`); moving a control leaves the teacher's view and stops
  following, and the toggle jumps back.

A reloaded page keeps its seat through a cookie (:func:`core.classroom.remembered`) that the
server sets, out of the page's scripts' reach (:mod:`core.classroom.cookie`). The store
cannot be reached: the session leaves its class with a clear notice
(:func:`~core.ui.classroom.seat.reach`), and every page goes on working alone.
"""

from __future__ import annotations

import html
import io
import json
import time
from urllib.parse import urlencode, urlsplit

import segno
import streamlit as st

from core.app.words import md
from core.classroom import (
    CLASS_TTL,
    Membership,
    clean_code,
    recalled,
    remembered,
)
from core.classroom.check import served
from core.classroom.cookie import COOKIE, cookie_path, ticket
from core.classroom.limits import client_address
from core.classroom.store import StoreDown
from core.ui.classroom.ask import ask_popover
from core.ui.classroom.follow import check, check_widget, here
from core.ui.classroom.seat import (
    RETRY_STORE_SECONDS,
    STORE_DOWN,
    TEACHER_SECONDS,
    classroom,
    come_back,
    current_seat,
    reach,
    reached,
)
from core.ui.visit import change, visit

#: The query parameter of a join link: ``/?class=KX39PA``.
JOIN_PARAMETER = "class"


def _address() -> str:
    """This browser's address, as the class check counts it (behind a proxy, its
    ``X-Forwarded-For`` only when ``ARBORETUM_TRUSTED_PROXIES`` says to trust it)."""
    peer, forwarded = st.context.ip_address, st.context.headers.get("X-Forwarded-For")
    return client_address(
        peer if isinstance(peer, str) else None,  # None on localhost, and in AppTest
        forwarded if isinstance(forwarded, str) else None,
    )


def _join(typed: str, page: str) -> None:
    """Join the class ``typed`` names, or say why not; wrong codes are counted per client
    address, with the check's (``core.classroom.limits``), so a reload or a new session
    tries no more."""
    now = time.time()
    room, address = classroom(), _address()
    if reach(lambda: room.limits.blocked(address)):
        change(class_problem="Too many codes tried: wait a minute, then try again.")
        return
    code = clean_code(typed)
    exists = code is not None and reach(lambda: room.exists(code))
    if code is None or not exists:
        if "store" in (visit().class_problem or ""):
            return  # the store is down: already said
        reach(lambda: room.limits.missed(address))
        shown = md(typed.strip()[:12])
        change(
            class_problem=f"No class has the code “{shown}”. Check it with your teacher: "
            "codes are six letters and digits, like KX39PA.",
        )
        return
    seat = reach(lambda: Membership(code, room.new_seat(code)))
    if seat is None:
        return  # the store went down that very moment: said
    if not reached(lambda: room.check_in(code, seat.seat)):
        return  # the class ended, or the store went down, that very moment: said
    change(
        seat=seat.checked(now), class_away=None, class_problem=None, class_cookie=remembered(seat)
    )
    check(page, timer=False)


def _start(page: str) -> None:
    room = classroom()
    teacher = reach(lambda: room.start(here(page)))
    if teacher is not None:
        seat = Membership(teacher.code, room.new_seat(teacher.code), secret=teacher.secret)
        change(seat=seat, class_away=None, class_problem=None, class_cookie=remembered(seat))


def _end() -> None:
    seat = current_seat()
    if seat is not None and seat.teaching:
        reach(lambda: classroom().end(seat.teacher))
    change(seat=None, class_problem=None, class_cookie="")


def _leave() -> None:
    seat = current_seat()
    if seat is not None:
        reach(lambda: classroom().leave(seat.code, seat.seat))
    change(seat=None, class_problem=None, class_cookie="")


def _set_following() -> None:
    seat = current_seat()
    on = bool(st.session_state.get("class-follow", True))
    if seat is not None:
        seat = seat.follow(on)
        change(seat=seat, class_cookie=remembered(seat))  # a reload keeps the choice


def join_link(code: str) -> str:
    """The link that joins class ``code``: the app's home with ``?class=CODE``."""
    url = urlsplit(st.context.url or "http://localhost:8501/")
    base = str(st.get_option("server.baseUrlPath") or "").strip("/")
    root = f"{url.scheme}://{url.netloc}/{base + '/' if base else ''}"
    return f"{root}?{urlencode({JOIN_PARAMETER: code})}"


def qr_png(text: str) -> bytes:
    """``text`` as a QR code PNG, large enough to scan from the back of a room."""
    buffer = io.BytesIO()
    segno.make(text, error="m").save(buffer, kind="png", scale=10, border=2)
    return buffer.getvalue()


@st.dialog("Join the class", width="large")
def _show_code(code: str) -> None:
    link = join_link(code)
    left, right = st.columns([3, 2], vertical_alignment="center")
    with left:
        st.markdown(f"Open **{html.escape(urlsplit(link).netloc)}** and type the code")
        spaced = " ".join(code)
        st.markdown(
            f"<div class='class-code' style='font-size:4.5rem;font-weight:700;"
            f"letter-spacing:0.1em;font-family:monospace'>{spaced}</div>",
            unsafe_allow_html=True,
        )
        st.markdown("or scan the code with a phone, or open the link:")
        st.code(link, language=None, wrap_lines=True)
    with right:
        st.image(qr_png(link), caption="Scan to join", width=260)


def class_arrival(page: str) -> None:
    """The class's part of a run of ``page`` before anything is drawn; it draws nothing.

    A join link (``?class=CODE``) joins here; a follower whose teacher moved on opens the
    teacher's view now (``arrive`` reads it), or on another page, before this one draws its
    tab and page list. A seat the store's outage set aside comes back first, if the store
    answers again.
    """
    _recall()
    come_back()
    code = st.query_params.get(JOIN_PARAMETER)
    if code is not None:
        del st.query_params[JOIN_PARAMETER]
        seat = current_seat()
        if seat is None or seat.code != clean_code(code):
            if seat is not None and not seat.teaching:
                _leave()
            if seat is None or not seat.teaching:
                _join(code, page)
    else:
        check(page, timer=False)


def class_panel(page: str) -> None:
    """The sidebar's class section for a run of ``page`` (after :func:`class_arrival`); call
    before its settings are read."""
    with st.sidebar, st.container(key="class-panel"):
        _remember()
        check_widget(current_seat(), page)
        problem = visit().class_problem
        seat = current_seat()
        if seat is None:
            _outside(page, problem)
        elif seat.teaching:
            _teacher_sidebar(seat)
        else:
            _student_sidebar(seat, page)


def _recall() -> None:
    """A new session (a reload, or a replica that died) takes back the seat its browser
    remembers, once the store confirms it: the teacher's secret, or the student's seat."""
    if visit().page is not None or current_seat() is not None:
        return
    cookie = st.context.cookies.get(COOKIE)
    text = cookie if isinstance(cookie, str) else None
    seat = recalled(text) if text else None
    if seat is None:
        if text:
            change(class_cookie="")
        return
    room = classroom()
    try:
        if seat.teaching:
            kept = room.owns(seat.teacher)
        else:  # a made-up seat in a cookie counts nobody
            kept = room.exists(seat.code) and room.seated(seat.code, seat.seat)
    except StoreDown:  # taken back once the store answers (``come_back``)
        change(class_away=seat, class_problem=STORE_DOWN)
        return
    if kept:
        change(seat=seat, class_problem=None)
    else:  # the store answered: that class is gone
        change(class_cookie="")


def _remember() -> None:
    """Have the browser's class cookie set (or cleared) when the seat changed.

    Streamlit reads cookies (``st.context.cookies``) but cannot set one, and a cookie a page's
    script writes cannot be HttpOnly. Served by ``serve.py``, the run leaves the value under a
    one-time ticket and a line of script posts it to the server, which sets the cookie
    HttpOnly (:mod:`core.classroom.cookie`); ``app.py`` alone has no such endpoint and writes
    it from the script, as before.
    """
    value = visit().class_cookie
    if value is None:
        return
    if served():
        held = reach(lambda: ticket(classroom().store, value))
        if held is None:
            return  # the store is down: said; the browser keeps the cookie it had
        path = json.dumps(cookie_path(held))
        script = f"<script>fetch({path}, {{method: 'POST', credentials: 'same-origin'}});</script>"
    else:
        age = int(CLASS_TTL) if value else 0
        cookie = f"{COOKIE}={value}; path=/; max-age={age}; SameSite=Strict"
        script = f"<script>document.cookie = {json.dumps(cookie)};</script>"
    st.html(script, unsafe_allow_javascript=True)
    change(class_cookie=None)


def _outside(page: str, problem: str | None) -> None:
    with st.expander("Class mode", icon=":material/groups:", expanded=problem is not None):
        if problem:
            st.info(problem, icon=":material/info:")
        if visit().class_away is not None:
            _waiting_for_the_store()
        st.caption("Teacher: start a class, and the students' pages follow yours.")
        if st.button("Start a class", icon=":material/co_present:", key="class-start"):
            _start(page)
            st.rerun()
        with st.form("class-join", border=False, enter_to_submit=True):
            typed = st.text_input(
                "Student: the class code", max_chars=12, placeholder="e.g. KX39PA", key="class-code"
            )
            if st.form_submit_button("Join the class", icon=":material/login:"):
                _join(typed, page)
                st.rerun()


@st.fragment(run_every=RETRY_STORE_SECONDS)
def _waiting_for_the_store() -> None:
    """While the store is down, try it every few seconds; once it answers, the whole page runs
    again, in its class (the notice goes)."""
    if come_back() or visit().class_away is None:
        st.rerun()


def _teacher_sidebar(seat: Membership) -> None:
    st.markdown(f"**:material/co_present: You teach class `{seat.code}`**")
    _class_size()
    left, right = st.columns(2)
    if left.button(
        "Code",
        icon=":material/qr_code_2:",
        key="class-show-code",
        width="stretch",
        help="The class code, its join link and a QR code, large, for the projector.",
    ):
        _show_code(seat.code)
    if right.button(
        "End",
        icon=":material/logout:",
        key="class-end",
        width="stretch",
        help="End the class: every student's page stops following and the answers go.",
    ):
        _end()
        st.rerun()
    ask_popover(seat)


@st.fragment(run_every=TEACHER_SECONDS)
def _class_size() -> None:
    seat = current_seat()
    if seat is None:
        return
    students = reach(lambda: classroom().students(seat.code))
    if students is None and current_seat() is None:
        st.rerun()
    count = students or 0
    st.caption(f"{count} student{'s' if count != 1 else ''} in the class. Your page is theirs.")


def _student_sidebar(seat: Membership, page: str) -> None:
    st.markdown(f"**:material/groups: Class `{seat.code}`**")
    st.session_state["class-follow"] = seat.following
    st.toggle(
        "Follow the teacher",
        key="class-follow",
        on_change=_set_following,
        help="On: your page shows what the teacher's shows. Off: explore on your own; turn "
        "it on again to jump back to the teacher.",
    )
    count = reach(lambda: classroom().students(seat.code))
    others = f" {count} students are in the class." if count and count > 1 else ""
    st.caption(
        (
            "Your page follows the teacher's."
            if seat.following
            else "You explore on your own; the teacher's questions still reach you."
        )
        + others
    )
    if st.button("Leave the class", icon=":material/logout:", key="class-leave"):
        _leave()
        st.rerun()


__all__ = ["COOKIE", "JOIN_PARAMETER", "class_arrival", "class_panel", "join_link", "qr_png"]
