"""The teacher's "Ask the class a question" in the sidebar: a question typed on any page,
multiple choice or a number, put to the class (the answers, the live counts and a number
question's histogram are :mod:`core.ui.classroom.choice`'s, as for a lesson's questions)."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from core.classroom import Membership, Poll, choice_poll, number_poll
from core.ui.classroom.seat import classroom, reach

#: The key of the teacher's "Ask the class a question" popover (its open state), and of the
#: note that a question just went, which closes it at the next run.
ASK_POPOVER = "class-ask-popover"
_ASKED = "class-asked"


def ask_popover(seat: Membership) -> None:
    """The popover with the question's form; it closes once a question went."""
    if st.session_state.pop(_ASKED, False):
        st.session_state[ASK_POPOVER] = False  # asked: the popover closes
    asking = st.popover(
        "Ask the class a question",
        icon=":material/quiz:",
        width="stretch",
        key=ASK_POPOVER,
        on_change="rerun",  # its open state is the session's, so a run can close it
    )
    with asking:
        choice, number = st.tabs(["Multiple choice", "A number"])
    with choice, st.form("class-ask", border=False):
        question = st.text_input("Question", max_chars=200, key="class-question")
        options = st.text_area(
            "Answers to choose from, one per line",
            "Yes\nNo\nIt depends",
            max_chars=600,
            key="class-options",
        )
        if st.form_submit_button("Ask", icon=":material/send:"):
            _ask(seat, lambda: choice_poll(0, question, options.splitlines()))
    with number, st.form("class-ask-number", border=False):
        prompt = st.text_input(
            "Question",
            max_chars=200,
            key="class-number-question",
            placeholder="What test accuracy do you expect at depth 8?",
        )
        unit = st.text_input(
            "Unit (optional)", max_chars=20, key="class-number-unit", placeholder="e.g. %"
        )
        st.caption("Each student types a number; you see the middle answer, the range and a chart.")
        if st.form_submit_button("Ask", icon=":material/send:"):
            _ask(seat, lambda: number_poll(prompt, unit=unit))


def _ask(seat: Membership, make: Callable[[], Poll]) -> None:
    """Put the teacher's question to the class and close the popover; on a mistake it stays
    open and says why."""
    try:
        poll = make()
    except ValueError as problem:
        st.warning(str(problem), icon=":material/edit:")
        return
    if reach(lambda: classroom().ask(seat.teacher, poll)) is not None:
        st.session_state[_ASKED] = True
        st.rerun()


__all__ = ["ASK_POPOVER", "ask_popover"]
