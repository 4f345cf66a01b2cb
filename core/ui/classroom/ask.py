"""The teacher's "Ask the class a question" in the sidebar: a question typed on any page,
put to the class (the answers are :mod:`core.ui.classroom.choice`'s)."""

from __future__ import annotations

import streamlit as st

from core.classroom import Membership, choice_poll
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
    with asking, st.form("class-ask", border=False):
        question = st.text_input("Question", max_chars=200, key="class-question")
        options = st.text_area(
            "Answers to choose from, one per line",
            "Yes\nNo\nIt depends",
            max_chars=600,
            key="class-options",
        )
        if st.form_submit_button("Ask", icon=":material/send:") and _ask_choice(
            seat, question, options
        ):
            st.session_state[_ASKED] = True
            st.rerun()


def _ask_choice(seat: Membership, question: str, options: str) -> bool:
    """Put the teacher's question to the class; whether it went (else the popover says why)."""
    try:
        poll = choice_poll(0, question, options.splitlines())
    except ValueError as problem:
        st.warning(str(problem), icon=":material/edit:")
        return False
    return reach(lambda: classroom().ask(seat.teacher, poll)) is not None


__all__ = ["ASK_POPOVER", "ask_popover"]
