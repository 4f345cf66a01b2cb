"""The class mode's Streamlit side: start or join a class, follow the teacher, answer polls.

Every page calls :func:`class_panel` first (``open_page`` does), and :func:`class_wrote` when
its run has written its settings to the URL (``url_state.finish`` does).

- **The teacher** starts a class from the sidebar, shows its code, link and QR code on the
  projector, asks multiple-choice questions on any page (and "where will the tree split next?"
  on the step page, ``core.ui.classroom.split``), and ends the class. Each run publishes what the
  page shows (its script and its link's query) when it changed.
- **A student** joins by the link, the QR code or the code. A small script in the sidebar
  (``class_check.js``) asks the server for the class's version over plain HTTP, and the
  server answers when it moves or after a few seconds (``server.class_check``: no Streamlit
  run, no rerun of the page while nothing changed).
  When it moved, the script asks the page for one run, which opens the teacher's view
  (another page by ``st.switch_page``, the same page by a rerun whose ``url_state.arrive``
  reads the teacher's settings as a link's). A server started from ``app.py`` alone, without
  ``serve.py``'s check, checks with a fragment on a timer instead (a Streamlit run each time).
  Moving a control leaves the teacher's view and stops following; the toggle jumps back.

The store cannot be reached: the session leaves its class with a clear notice, and every
page goes on working alone.
"""

from __future__ import annotations

import html
import io
import json
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlencode, urlsplit

import segno
import streamlit as st
from streamlit.errors import StreamlitPageNotFoundError

from core.app.words import md
from core.classroom import (
    CHECK_IN_EVERY,
    CLASS_TTL,
    ChoiceAnswer,
    Classroom,
    Membership,
    NoClass,
    NotTeacher,
    Poll,
    Shown,
    choice_poll,
    clean_code,
    may_try_joining,
    recalled,
    remembered,
    seat_token,
)
from core.classroom.store import StoreDown, open_store
from core.figures.poll import choice_figure
from core.ui.display import chart
from core.ui.visit import change, visit
from server.class_check import CHECK_EVERY, check_path, served

#: Seconds between a follower's checks: the teacher's change shows within about this, plus
#: the page's own run.
CHECK_SECONDS = CHECK_EVERY
#: Seconds after which a follower's page run that has not finished is asked for again.
RETRY_SECONDS = 3.0
#: Seconds between the teacher's updates of the class size and a poll's answers.
TEACHER_SECONDS = 2.0
#: The cookie that lets a reloaded page keep its seat (see ``classroom.remembered``).
COOKIE = "arboretum_class"
#: The query parameter of a join link: ``/?class=KX39P``.
JOIN_PARAMETER = "class"

_T = TypeVar("_T")


@st.cache_resource(show_spinner=False)
def classroom() -> Classroom:
    """The server's classes: in its memory, or in Redis when ``ARBORETUM_REDIS_URL`` is set."""
    return Classroom(open_store())


def _seat() -> Membership | None:
    return visit().seat


def reach(call: Callable[[], _T]) -> _T | None:
    """``call()``, or None when the class is gone or the store cannot be reached: the session
    then leaves its class, with a notice that says why."""
    try:
        return call()
    except StoreDown:
        change(
            seat=None,
            class_problem="The class cannot be reached just now (its shared store is down), "
            "so class mode is off. Every page works on its own; you can start or join a class "
            "again in a moment.",
        )
    except NoClass:
        change(
            seat=None,
            class_problem="The class has ended. Thank you for taking part!",
            class_cookie="",
        )
    except NotTeacher:
        change(
            seat=None, class_problem="This session no longer controls the class.", class_cookie=""
        )
    return None


def _reached(call: Callable[[], object]) -> bool:
    """Whether ``call()`` ran (see :func:`reach`)."""
    return reach(lambda: (call(), True)[1]) is not None


# --- following -----------------------------------------------------------------------------


def _here(page: str) -> Shown:
    now = visit()
    return Shown(page, now.written if now.page == page else {})


def _check(page: str, *, timer: bool) -> None:
    """Read the class's version; when it moved, open the teacher's view or redraw the poll.

    ``timer``: the fragment's own run, which only asks for a run of the page when the version
    moved; the page's run (``timer`` False) reads the class and opens the teacher's view. A
    full run reads the version first, so the fragment drawn in it finds nothing new.
    """
    held = _seat()
    if held is None or held.teaching:
        return
    seat, room, code = held, classroom(), held.code
    version = reach(lambda: room.version(code))
    if version is None:
        if _seat() is not None:  # the store answered: no such class any more
            change(
                seat=None,
                class_problem="The class has ended. Thank you for taking part!",
                class_cookie="",
            )
        if timer:
            st.rerun()
        return
    now = time.time()
    if now - seat.checked_in > CHECK_IN_EVERY:
        if not _reached(lambda: room.check_in(code, held.seat)):
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
        if seat.overdue(now, RETRY_SECONDS):
            change(seat=replace(seat, asked=now))
            st.rerun()
        return
    if not seat.needs(version):
        return
    state = reach(lambda: room.state(code))
    if state is None:
        return
    seat = replace(seat.opening(state, _here(page)), asked=now)
    change(seat=seat)
    if seat.pending is not None and seat.pending.page != page:
        try:
            st.switch_page(seat.pending.page, query_params=dict(seat.pending.query))
        except StreamlitPageNotFoundError:  # a page run on its own (tests) knows no other
            change(seat=seat.follow(False))


def _join(typed: str, page: str) -> None:
    """Join the class ``typed`` names, or say why not."""
    now = time.time()
    held = visit()
    if not may_try_joining(held.join_tries, now):
        change(class_problem="Too many codes tried: wait a minute, then try again.")
        return
    code = clean_code(typed)
    room = classroom()
    exists = code is not None and reach(lambda: room.exists(code))
    if code is None or not exists:
        if "store" in (visit().class_problem or ""):
            return  # the store is down: already said
        shown = md(typed.strip()[:12])
        change(
            join_tries=(*held.join_tries, now),
            class_problem=f"No class has the code “{shown}”. Check it with your teacher: "
            "codes are five letters and digits, like KX39P.",
        )
        return
    seat = Membership(code, seat_token())
    if not _reached(lambda: room.check_in(code, seat.seat)):
        return  # the class ended, or the store went down, that very moment: said
    change(seat=seat.checked(now), class_problem=None, class_cookie=remembered(seat))
    _check(page, timer=False)


def _start(page: str) -> None:
    teacher = reach(lambda: classroom().start(_here(page)))
    if teacher is not None:
        seat = Membership(teacher.code, seat_token(), secret=teacher.secret)
        change(seat=seat, class_problem=None, class_cookie=remembered(seat))


def _end() -> None:
    seat = _seat()
    if seat is not None and seat.teaching:
        reach(lambda: classroom().end(seat.teacher))
    change(seat=None, class_problem=None, class_cookie="")


def _leave() -> None:
    seat = _seat()
    if seat is not None:
        reach(lambda: classroom().leave(seat.code, seat.seat))
    change(seat=None, class_problem=None, class_cookie="")


def _set_following() -> None:
    seat = _seat()
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


# --- the sidebar -----------------------------------------------------------------------------


def class_panel(page: str) -> None:
    """The sidebar's class section for a run of ``page``; call before its settings are read.

    A join link (``?class=CODE``) joins here; a follower whose teacher moved on opens the
    teacher's view now (``arrive`` reads it), or on another page.
    """
    _recall()
    code = st.query_params.get(JOIN_PARAMETER)
    if code is not None:
        del st.query_params[JOIN_PARAMETER]
        seat = _seat()
        if seat is None or seat.code != clean_code(code):
            if seat is not None and not seat.teaching:
                _leave()
            if seat is None or not seat.teaching:
                _join(code, page)
    else:
        _check(page, timer=False)
    with st.sidebar, st.container(key="class-panel"):
        _remember()
        problem = visit().class_problem
        seat = _seat()
        if seat is None:
            _outside(page, problem)
        elif seat.teaching:
            _teacher_sidebar(seat)
        else:
            _student_sidebar(seat, page)


def _recall() -> None:
    """A new session (a reload, or a replica that died) takes back the seat its browser
    remembers, once the store confirms it: the teacher's secret, or the student's seat."""
    if visit().page is not None or _seat() is not None:
        return
    cookie = st.context.cookies.get(COOKIE)
    text = cookie if isinstance(cookie, str) else None
    seat = recalled(text) if text else None
    if seat is None:
        if text:
            change(class_cookie="")
        return
    room = classroom()
    if seat.teaching:
        teacher = seat.teacher
        kept = reach(lambda: room.owns(teacher))
    else:
        kept = reach(lambda: room.exists(seat.code))
    if kept:
        change(seat=seat, class_problem=None)
    elif kept is not None:  # the store answered: that class is gone
        change(class_cookie="")


def _remember() -> None:
    """Write (or clear) the browser's class cookie when the seat changed (a short script:
    Streamlit reads cookies, ``st.context.cookies``, but has no call to set one)."""
    value = visit().class_cookie
    if value is None:
        return
    age = int(CLASS_TTL) if value else 0
    cookie = f"{COOKIE}={value}; path=/; max-age={age}; SameSite=Strict"
    script = f"<script>document.cookie = {json.dumps(cookie)};</script>"
    st.html(script, unsafe_allow_javascript=True)
    change(class_cookie=None)


def _outside(page: str, problem: str | None) -> None:
    with st.expander("Class mode", icon=":material/groups:", expanded=problem is not None):
        if problem:
            st.info(problem, icon=":material/info:")
        st.caption("Teacher: start a class, and the students' pages follow yours.")
        if st.button("Start a class", icon=":material/co_present:", key="class-start"):
            _start(page)
            st.rerun()
        with st.form("class-join", border=False, enter_to_submit=True):
            typed = st.text_input(
                "Student: the class code", max_chars=12, placeholder="e.g. KX39P", key="class-code"
            )
            if st.form_submit_button("Join the class", icon=":material/login:"):
                _join(typed, page)
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
    asking = st.popover("Ask the class a question", icon=":material/quiz:", width="stretch")
    with asking, st.form("class-ask", border=False):
        question = st.text_input("Question", max_chars=200, key="class-question")
        options = st.text_area(
            "Answers to choose from, one per line",
            "Yes\nNo\nIt depends",
            max_chars=600,
            key="class-options",
        )
        if st.form_submit_button("Ask", icon=":material/send:"):
            _ask_choice(seat, question, options)


def _ask_choice(seat: Membership, question: str, options: str) -> None:
    try:
        poll = choice_poll(0, question, options.splitlines())
    except ValueError as problem:
        st.warning(str(problem), icon=":material/edit:")
        return
    reach(lambda: classroom().ask(seat.teacher, poll))


@st.fragment(run_every=TEACHER_SECONDS)
def _class_size() -> None:
    seat = _seat()
    if seat is None:
        return
    students = reach(lambda: classroom().students(seat.code))
    if students is None and _seat() is None:
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
    if served():
        _CHECK(
            key="class-check",
            data={
                "url": check_path(seat.code),
                "seen": seat.seen,
                "seat": seat.seat,
                "every": round(1000 * CHECK_SECONDS),
                "retry": round(1000 * RETRY_SECONDS),
                "checkIn": round(1000 * CHECK_IN_EVERY),
            },
            on_moved_change=_moved,
            height=0,
        )
    else:
        _follower_check(page)


_CHECK = st.components.v2.component(
    "arboretum_class_check",
    html="",
    js=Path(__file__).with_name("class_check.js").read_text(encoding="utf-8"),
)


def _moved() -> None:
    """The check saw the class move: this run (``class_panel``'s ``_check``) follows it, and
    opens the teacher's view even if an earlier run wrote it (``Membership.recheck``)."""
    seat = _seat()
    if seat is not None and not seat.teaching:
        change(seat=seat.rechecked())


@st.fragment(run_every=CHECK_SECONDS)
def _follower_check(page: str) -> None:
    """The follower's check without ``serve.py``'s: a fragment run every second that
    reads the class's version, and draws nothing."""
    _check(page, timer=True)


# --- what a run wrote ------------------------------------------------------------------------


def class_wrote(page: str, query: dict[str, str]) -> None:
    """A run of ``page`` wrote ``query``: the teacher's class shows it; a student who moved a
    control away from the teacher's view stops following."""
    seat = _seat()
    if seat is None:
        return
    if seat.teaching:
        shown, teacher = Shown(page, query), seat.teacher
        if seat.shown != shown and reach(lambda: classroom().show(teacher, shown)) is not None:
            change(seat=seat.published(shown))
        return
    left, seat = seat.wrote(page, query)
    change(seat=replace(seat, drawn=seat.seen))
    if left:
        change(class_cookie=remembered(seat))
        st.toast(
            "You moved a control, so you explore on your own now. Turn on “Follow the "
            "teacher” in the sidebar to jump back.",
            icon=":material/explore:",
        )


def opened_view(page: str) -> dict[str, str] | None:
    """The teacher's settings this run of ``page`` opens (a follower's), or None."""
    seat = _seat()
    if seat is None:
        return None
    shown = seat.opened(page)
    return None if shown is None else dict(shown.query)


# --- a choice poll, at the top of any page ------------------------------------------------------


def class_poll() -> Poll | None:
    """The class's open poll, if this session is in a class (read at each full run)."""
    seat = _seat()
    if seat is None:
        return None
    state = reach(lambda: classroom().state(seat.code))
    return None if state is None else state.poll


def choice_box() -> None:
    """The open multiple-choice question: the student's answer, or the teacher's live counts."""
    seat = _seat()
    poll = class_poll()
    if seat is None or poll is None or poll.kind != "choice":
        return
    with st.container(border=True, key="class-choice"):
        st.markdown(f"**:material/quiz: Question for the class:** {md(poll.question)}")
        if seat.teaching:
            _live_choice_results()
        else:
            _choice_answer(seat, poll)


def _choice_answer(seat: Membership, poll: Poll) -> None:
    key = f"class-choice-{seat.code}-{poll.number}"
    picked = st.radio(
        "Your answer",
        range(len(poll.options)),
        format_func=lambda i: md(poll.options[i]),
        index=None,
        key=key,
        disabled=poll.revealed,
        horizontal=True,
    )
    if poll.revealed:
        st.caption("The teacher has closed the answers; the class's counts are on the board.")
        _choice_results(poll)
        return
    if st.button("Send my answer", key=f"{key}-send", disabled=picked is None):
        try:
            classroom().answer(seat.code, poll, seat.seat, ChoiceAnswer(int(picked or 0)))
            st.success("Sent. You can change it until the teacher reveals the answers.")
        except ValueError as problem:
            st.warning(str(problem))
        except (StoreDown, NoClass):
            reach(lambda: classroom().state(seat.code))


@st.fragment(run_every=TEACHER_SECONDS)
def _live_choice_results() -> None:
    """The teacher's counts, redrawn as answers arrive (the page does not rerun)."""
    poll = class_poll()
    if poll is None or poll.kind != "choice":
        st.rerun()  # closed meanwhile (another tab of the teacher's): redraw the page
    else:
        _choice_results(poll)


def _choice_results(poll: Poll) -> None:
    seat = _seat()
    if seat is None:
        return
    answers = reach(lambda: classroom().answers(seat.code, poll)) or {}
    counts = [0] * len(poll.options)
    for answer in answers.values():
        if isinstance(answer, ChoiceAnswer):
            counts[answer.option] += 1
    chart(choice_figure(poll.options, counts), key=f"class-choice-chart-{poll.number}")
    if seat.teaching:
        reveal, close = st.columns(2)
        if not poll.revealed and reveal.button("Reveal to the class", key="class-reveal"):
            reach(lambda: classroom().reveal(seat.teacher))
            st.rerun()
        if close.button("Close the question", key="class-close"):
            reach(lambda: classroom().close_poll(seat.teacher))
            st.rerun()


__all__ = [
    "CHECK_SECONDS",
    "JOIN_PARAMETER",
    "TEACHER_SECONDS",
    "choice_box",
    "class_panel",
    "class_poll",
    "class_wrote",
    "classroom",
    "join_link",
    "opened_view",
    "qr_png",
    "reach",
]
