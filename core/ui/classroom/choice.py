"""A question at the top of any page, multiple choice or a number: the student's answer, the
teacher's live counts, and the answers shown to the class."""

from __future__ import annotations

import streamlit as st

from core.app.words import md
from core.classroom import (
    ChoiceAnswer,
    Membership,
    NoClass,
    Poll,
    StoreDown,
    choice_counts,
    number_answer,
)
from core.classroom.model import Answer
from core.classroom.tally import number_summary, numbers
from core.figures.number_answers import number_figure
from core.figures.poll import choice_figure
from core.ui.classroom.seat import TEACHER_SECONDS, classroom, current_seat, reach
from core.ui.display import chart

#: The questions this box asks (a split poll has its own, on the step page).
BOX_KINDS = ("choice", "number")


def class_poll() -> Poll | None:
    """The class's open poll, if this session is in a class (read at each full run)."""
    seat = current_seat()
    if seat is None:
        return None
    state = reach(lambda: classroom().state(seat.code))
    return None if state is None else state.poll


def choice_box() -> None:
    """The open question: the student's answer, or the teacher's live counts."""
    seat = current_seat()
    poll = class_poll()
    if seat is None or poll is None or poll.kind not in BOX_KINDS:
        return
    with st.container(border=True, key="class-choice"):
        st.markdown(f"**:material/quiz: Question for the class:** {md(poll.question)}")
        if seat.teaching:
            _live_choice_results()
        elif poll.kind == "number":
            _number_answer(seat, poll)
        else:
            _choice_answer(seat, poll)


def _send(seat: Membership, poll: Poll, answer: Answer) -> None:
    try:
        classroom().answer(seat.code, poll, seat.seat, answer)
        st.success("Sent. You can change it until the teacher shows the answers.")
    except ValueError as problem:
        st.warning(str(problem))
    except (StoreDown, NoClass):
        reach(lambda: classroom().state(seat.code))


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
        _send(seat, poll, ChoiceAnswer(int(picked or 0)))


def _number_answer(seat: Membership, poll: Poll) -> None:
    """A number typed as text, so that anything typed gets a sentence back, not a traceback."""
    key = f"class-number-{seat.code}-{poll.number}"
    typed = st.text_input(
        "Your answer (a number)",
        key=key,
        max_chars=40,
        disabled=poll.revealed,
        placeholder="e.g. 0.85",
    )
    if poll.revealed:
        st.caption("The teacher has closed the answers; here is what the class answered.")
        _choice_results(poll)
        return
    if st.button("Send my answer", key=f"{key}-send"):
        try:
            answer = number_answer(typed)
        except ValueError as problem:
            st.warning(str(problem), icon=":material/edit:")
            return
        _send(seat, poll, answer)


@st.fragment(run_every=TEACHER_SECONDS)
def _live_choice_results() -> None:
    """The teacher's counts, redrawn as answers arrive (the page does not rerun)."""
    poll = class_poll()
    if poll is None or poll.kind not in BOX_KINDS:
        st.rerun()  # closed meanwhile (another tab of the teacher's): redraw the page
    else:
        _choice_results(poll)


def _choice_results(poll: Poll) -> None:
    seat = current_seat()
    if seat is None:
        return
    answers = reach(lambda: classroom().answers(seat.code, poll)) or {}
    if poll.kind == "number":
        summary = number_summary(numbers(answers.values()))
        st.markdown(f"**{summary.text()}**")
        if summary.n:
            figure = number_figure(summary.edges, summary.counts, median=summary.median)
            chart(figure, key=f"class-number-chart-{poll.number}")
    else:
        counts = choice_counts(poll, answers.values())
        chart(choice_figure(poll.options, counts), key=f"class-choice-chart-{poll.number}")
    if seat.teaching:
        reveal, close = st.columns(2)
        if not poll.revealed and reveal.button(
            "Show these answers to the class", icon=":material/visibility:", key="class-reveal"
        ):
            reach(lambda: classroom().reveal(seat.teacher))
            st.rerun()
        if close.button("Close the question", key="class-close"):
            reach(lambda: classroom().close_poll(seat.teacher))
            st.rerun()


__all__ = ["BOX_KINDS", "choice_box", "class_poll"]
