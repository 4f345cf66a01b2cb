"""The class poll of the step page: "where will the tree split next?".

The teacher, at step k, asks where the tree will split the node it splits at step k + 1.
Each student who shows the same tree drags a threshold on a feature and sends it; the
teacher's screen counts the answers live, as a histogram over the thresholds. "Reveal" draws
the tree's split over them, and shows each student their own split against the tree's,
gain for gain. While the question is open, a student's "Why this split?" stays hidden: it
would give the answer away.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from core.app.models import ModelView
from core.app.words import md
from core.classroom import Membership, Poll, Shown, SplitAnswer
from core.classroom.poll import answer_counts_text, compute_poll_results, node_rows
from core.classroom.store import StoreDown
from core.engine.replay import GrowthSteps
from core.figures import compute_split_scan
from core.figures.poll import poll_figure
from core.ui.built import built_once
from core.ui.classroom.choice import class_poll
from core.ui.classroom.follow import here
from core.ui.classroom.seat import TEACHER_SECONDS, classroom, current_seat, reach, store_down
from core.ui.display import chart
from core.ui.growth_panels import NoSplit, node_targets, pick_split, split_against_best
from core.ui.visit import visit


def _here() -> Shown:
    """What this session shows now: the page its last run drew, with its settings."""
    return here(str(visit().page))


def split_poll(model: Any, view: ModelView, steps: GrowthSteps, k: int) -> bool:
    """The step page's poll at step ``k``; call after the page's settings are written.

    Returns whether this session must not see the answer yet (a student, the question open).
    """
    seat = current_seat()
    if seat is None:
        return False
    poll = class_poll()
    if seat.teaching:
        _teacher(seat, poll, model, view, steps, k)
        return False
    if poll is None or poll.kind != "split":
        return False
    return _student(seat, poll, model, view)


def _teacher(
    seat: Membership, poll: Poll | None, model: Any, view: ModelView, steps: GrowthSteps, k: int
) -> None:
    here = _here()
    if poll is not None and poll.kind == "split" and poll.shown == here:
        with st.container(border=True, key="class-split-poll"):
            st.markdown(f"**:material/quiz: You asked:** {md(poll.question)}")
            _live_answers(model, view)
        return
    if k >= len(steps.node):
        st.caption("Step back to ask the class where the next split will go.")
        return
    node = int(steps.node[k])
    asked = st.button(
        f"Ask the class: where will node {node} split?",
        icon=":material/quiz:",
        key="class-ask-split",
        help="Each student drags a threshold on a feature; you see their answers as they "
        "come, then reveal the tree's split.",
    )
    if asked:
        question = f"Where will the tree split node {node} next?"
        teacher = seat.teacher
        reach(lambda: classroom().ask(teacher, Poll(0, "split", question, shown=here, node=node)))
        st.rerun()


@st.fragment(run_every=TEACHER_SECONDS)
def _live_answers(model: Any, view: ModelView) -> None:
    """The teacher's count and histogram, redrawn as answers come in (the page stays: a
    fragment's own runs reuse the arguments of the page's last run)."""
    seat, poll = current_seat(), class_poll()
    if seat is None or poll is None or poll.kind != "split":
        st.rerun()
        return
    answers = reach(lambda: classroom().answers(seat.code, poll)) or {}
    splits = [answer for answer in answers.values() if isinstance(answer, SplitAnswer)]
    node = poll.node
    scan, rows = built_once(
        [model],
        ("class-poll-scan", node),
        lambda: (
            compute_split_scan(model, view.X_train, view.y_train, node, feature_names=view.names),
            node_rows(model, view.X_train, view.y_train, node),
        ),
    )
    results = compute_poll_results(scan, splits, rows)
    st.markdown(f"**{md(answer_counts_text(results))}**")
    # Revealed: the tree's own feature, its split drawn over the class's answers there.
    shown = scan.chosen_feature if poll.revealed else None
    figure = poll_figure(results.panel(shown), revealed=poll.revealed, height=380)
    chart(figure, key="class-split-chart")
    teacher = seat.teacher
    reveal, close = st.columns(2)
    if not poll.revealed and reveal.button(
        "Reveal the tree's split", icon=":material/visibility:", key="class-reveal-split"
    ):
        reach(lambda: classroom().reveal(teacher))
        st.rerun()
    if close.button("Close the question", icon=":material/close:", key="class-close-split"):
        reach(lambda: classroom().close_poll(teacher))
        st.rerun()


def _student(seat: Membership, poll: Poll, model: Any, view: ModelView) -> bool:
    here = _here()
    with st.container(border=True, key="class-split-poll"):
        st.markdown(f"**:material/quiz: The teacher asks:** {md(poll.question)}")
        if poll.shown != here:
            st.info(
                "The question is about the teacher's tree. Turn on “Follow the teacher” in "
                "the sidebar to see it and answer.",
                icon=":material/groups:",
            )
            return False
        X_node = node_targets(model, view, poll.node)[0]
        st.caption(
            f"Node {poll.node} holds {len(X_node)} training samples. Which question about "
            "one feature would separate them best?"
        )
        key = f"class-split-{seat.code}-{poll.number}"
        sent = _sent(seat, poll)
        if poll.revealed:
            if sent is None:
                st.markdown("The answers are in; you did not send one this time.")
                return False
            st.markdown(f"You answered **{md(view.names[sent.feature])} ≤ {sent.threshold:.4g}**.")
            split_against_best(model, view, poll.node, sent.feature, sent.threshold, key=key)
            return False
        try:
            feature, threshold = pick_split(view, X_node, poll.node, key=key)
        except NoSplit as why:
            st.info(str(why))
            return True
        if st.button("Send my answer", icon=":material/send:", key=f"{key}-send"):
            try:
                classroom().answer(
                    seat.code, poll, seat.seat, SplitAnswer(int(feature), float(threshold))
                )
                sent = SplitAnswer(int(feature), float(threshold))
            except ValueError as problem:
                st.warning(str(problem))
            except StoreDown:
                store_down()
        if sent is not None:
            st.success(
                f"Sent: {md(view.names[sent.feature])} ≤ {sent.threshold:.4g}. You can change "
                "it until the teacher reveals the tree's split."
            )
    return True


def _sent(seat: Membership, poll: Poll) -> SplitAnswer | None:
    answers = reach(lambda: classroom().answers(seat.code, poll)) or {}
    answer = answers.get(seat.seat)
    return answer if isinstance(answer, SplitAnswer) else None


__all__ = ["split_poll"]
