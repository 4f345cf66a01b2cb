"""Building a lesson in the app: "add this view as a screen" on every page, and the editor on
Home (order, words, notes, questions; run it, download it, or copy it as a link).

The lesson being built is the session's (:data:`_DRAFT`): rows as the editor shows them. Each
edit in the editor is applied to those rows by the editor's own callback, and the editor then
starts afresh from them, so an edit is never applied twice and survives a visit to another page
to add a screen there.

A session does not survive a reload, so every page also keeps the draft in its address
(``?draft=``, the packed lesson a lesson's link uses), and a new session starts from it. The
address rather than the browser's storage: Streamlit reads and writes the address itself,
with no script of our own and no round trip before the first run, and the server keeps nothing
of the teacher's. A reload, the browser's back button or a bookmarked page keeps the
draft; the screens only, without a row still too incomplete to read as a screen, and none of
a lesson too long for a link (download its file).
"""

from __future__ import annotations

import re
from contextlib import suppress
from typing import Any

import streamlit as st
from streamlit.errors import StreamlitPageNotFoundError

from core.app.pages import HOME, PAGES
from core.classroom.plan_table import COLUMNS, apply_edits, plan_rows, rows_plan, screen_row
from core.classroom.plans import LessonPlan, Screen, plan_from_token, plan_token, write_plan
from core.ui.classroom.lesson_run import LESSON_PARAMETER, start_lesson
from core.ui.visit import visit

_DRAFT = "lesson-draft"
#: The query parameter that keeps the lesson being built across a reload: ``?draft=...``.
DRAFT_PARAMETER = "draft"


def _draft() -> dict[str, Any]:
    """The lesson being built; a new session's is the one its address keeps, if any."""
    draft = st.session_state.get(_DRAFT)
    if not isinstance(draft, dict):
        draft = {"title": "My lesson", "rows": [], "version": 0}
        plan, _ = plan_from_token(st.query_params.get(DRAFT_PARAMETER) or "")
        if plan is not None:
            draft.update(title=plan.title, rows=plan_rows(plan))
        st.session_state[_DRAFT] = draft
    return draft


def _draft_token(draft: dict[str, Any]) -> str | None:
    """The draft packed for the address, packed again only when it changed."""
    if not draft["rows"]:
        return None
    made = (draft["version"], draft["title"])
    if draft.get("packed", (None,))[0] != made:
        plan, _ = rows_plan(draft["title"], draft["rows"])
        draft["packed"] = (made, None if plan is None else plan_token(plan))
    token: str | None = draft["packed"][1]
    return token


def keep_draft(page: str, query: dict[str, str]) -> None:
    """Keep the lesson being built in the address, after the page wrote its own settings
    there (a page hook: ``query`` is the page's, unused)."""
    token = _draft_token(_draft())
    if token is not None:
        if st.query_params.get(DRAFT_PARAMETER) != token:
            st.query_params[DRAFT_PARAMETER] = token
    elif DRAFT_PARAMETER in st.query_params:
        del st.query_params[DRAFT_PARAMETER]


def draft_screens() -> int:
    """How many screens the lesson being built has."""
    return len(_draft()["rows"])


def edit_copy(plan: LessonPlan) -> None:
    """Put ``plan`` in the editor, to change it and save it as the teacher's own."""
    draft = _draft()
    draft.update(title=plan.title, rows=plan_rows(plan), version=draft["version"] + 1)


def _add_view(path: str) -> None:
    now = visit()
    page = next((p for p in PAGES if p.path == path), None)
    if page is None or now.page != path:
        return
    draft = _draft()
    screen = Screen(page, tuple(now.written.items()))
    draft["rows"].append(screen_row(screen, len(draft["rows"]) + 1))
    draft["version"] += 1
    st.toast(f"Screen {len(draft['rows'])} added: {screen.page.title}.", icon=":material/add:")


#: The key of the sidebar's "Prepare a lesson" expander (``st.session_state[key]``: open or not).
PREPARE = "lesson-prepare"


def add_view_box(page: str) -> None:
    """The sidebar's "Prepare a lesson": add the view on screen to the lesson being built.

    The expander is lazy (Streamlit's ``on_change="rerun"``): its button, caption and link
    are made and sent only while it is open, so the runs of a page nobody prepares a lesson
    on (a class's followers, most runs) do not pay for them. Opening it reruns the page once.
    """
    if page == HOME.path:
        return
    count = len(_draft()["rows"])  # read before the page writes its address, open or not
    with st.sidebar:
        box = st.expander(
            "Prepare a lesson", icon=":material/slideshow:", key=PREPARE, on_change="rerun"
        )
    if not box.open:
        return
    with box:
        st.button(
            "Add this view as a screen",
            icon=":material/add:",
            key="lesson-add-view",
            on_click=_add_view,
            args=(page,),
            width="stretch",
            help="This page with exactly these settings becomes the next screen.",
        )
        shown = "No screens yet." if count == 0 else f"{count} screen{'s' * (count > 1)} so far."
        st.caption(f"{shown} Write the words and questions, then save, on Home.")
        with suppress(StreamlitPageNotFoundError):  # a page run alone (AppTest) knows no Home
            st.page_link(HOME.path, label="Edit the lesson", icon=":material/edit:")


def _edited(key: str) -> None:
    """The editor's callback: apply its changes to the draft's rows, in their new order."""
    draft = _draft()
    draft["rows"] = apply_edits(draft["rows"], st.session_state.get(key, {}))
    draft["version"] += 1


def _titled() -> None:
    _draft()["title"] = st.session_state["lesson-title"]


def lesson_editor() -> None:
    """The lesson being built, as a table to edit, with what the teacher can do with it."""
    draft = _draft()
    if not draft["rows"]:
        st.caption(
            "Build your own: on any page, set it up as the class should see it, then "
            "**Prepare a lesson → Add this view as a screen** in the sidebar. The screens "
            "gather here, to put words and questions on and save."
        )
        return
    st.text_input("Title", draft["title"], key="lesson-title", on_change=_titled, max_chars=200)
    key = f"lesson-editor-{draft['version']}"
    st.data_editor(
        [{name: row.get(name, "") for name in COLUMNS} for row in draft["rows"]],
        key=key,
        on_change=_edited,
        args=(key,),
        num_rows="dynamic",
        hide_index=True,
        width="stretch",
        column_config={
            "order": st.column_config.NumberColumn("#", min_value=0, step=1, width=50),
            "link": st.column_config.TextColumn("Page and settings", width="medium"),
            "words": st.column_config.TextColumn("Words for the class", width="large"),
            "notes": st.column_config.TextColumn("Your notes"),
            "question": st.column_config.TextColumn("Question (optional)"),
            "options": st.column_config.TextColumn(
                "Choices", help="A multiple-choice question's answers, as: yes | no | maybe"
            ),
            "answer": st.column_config.TextColumn(
                "Answer", help="The choice's number (1 for the first), or the expected number"
            ),
        },
    )
    st.caption("Renumber **#** to reorder; select a row's left edge and delete to remove it.")
    plan, problems = rows_plan(draft["title"], draft["rows"])
    if problems:
        lines = "\n".join(f"- {problem}" for problem in problems)
        st.warning(f"Not every screen can open yet:\n{lines}", icon=":material/edit:")
    if plan is not None:
        _lesson_actions(plan)


def _lesson_actions(plan: LessonPlan) -> None:
    with st.container(horizontal=True, key="lesson-actions"):
        if st.button("Run it", icon=":material/slideshow:", key="lesson-run-draft", type="primary"):
            start_lesson(plan)
        slug = re.sub(r"[^a-z0-9]+", "-", plan.title.lower()).strip("-") or "lesson"
        st.download_button(
            "Download the lesson file",
            write_plan(plan),
            file_name=f"{slug[:60]}.toml",
            mime="application/toml",
            icon=":material/download:",
            key="lesson-download",
        )
        if st.button("Start over", icon=":material/delete:", key="lesson-clear"):
            st.session_state.pop(_DRAFT, None)
            if DRAFT_PARAMETER in st.query_params:
                del st.query_params[DRAFT_PARAMETER]  # else the next run reads it back
            st.rerun()
    token = plan_token(plan)
    if token is None:
        st.caption("Too long to fit in a link: share the file instead.")
    else:
        st.caption("Or share it as a link (it opens the lesson at its first screen):")
        link = f"{st.context.url or ''}?{LESSON_PARAMETER}={token}"
        st.code(link, language=None, wrap_lines=True)


__all__ = [
    "DRAFT_PARAMETER",
    "PREPARE",
    "add_view_box",
    "draft_screens",
    "edit_copy",
    "keep_draft",
    "lesson_editor",
]
