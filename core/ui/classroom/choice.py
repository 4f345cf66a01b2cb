"""A multiple-choice question at the top of any page: the student's answer, the teacher's
live counts, the reveal."""

from __future__ import annotations

import streamlit as st

from core.app.words import md
from core.classroom import ChoiceAnswer, Membership, NoClass, Poll, StoreDown, choice_counts
from core.figures.poll import choice_figure
from core.ui.classroom.seat import TEACHER_SECONDS, classroom, current_seat, reach
from core.ui.display import chart


def class_poll() -> Poll | None:
    """The class's open poll, if this session is in a class (read at each full run)."""
    seat = current_seat()
    if seat is None:
        return None
    state = reach(lambda: classroom().state(seat.code))
    return None if state is None else state.poll


def choice_box() -> None:
    """The open multiple-choice question: the student's answer, or the teacher's live counts."""
    seat = current_seat()
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
    seat = current_seat()
    if seat is None:
        return
    answers = reach(lambda: classroom().answers(seat.code, poll)) or {}
    counts = choice_counts(poll, answers.values())
    chart(choice_figure(poll.options, counts), key=f"class-choice-chart-{poll.number}")
    if seat.teaching:
        reveal, close = st.columns(2)
        if not poll.revealed and reveal.button("Reveal to the class", key="class-reveal"):
            reach(lambda: classroom().reveal(seat.teacher))
            st.rerun()
        if close.button("Close the question", key="class-close"):
            reach(lambda: classroom().close_poll(seat.teacher))
            st.rerun()


__all__ = ["choice_box", "class_poll"]
