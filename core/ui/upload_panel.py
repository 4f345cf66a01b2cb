"""Uploading a CSV table: the file, its target column and task, what became of each column.

The file is read (``core.data.tables.read_table``) and made ready
(``core.data.prepare.prepare_table``) in the uploader's callback, before the page runs. A
table that works joins the session's own datasets (:mod:`core.ui.visit`) and the page
moves to it; one that fails leaves a friendly message and the page shows what it showed.
Nothing is written to disk: Streamlit keeps an upload in memory, and so does the session.

Names and values from the file are only ever shown as text: in widgets' labels of options
(plain text), in tables (``st.dataframe``), or escaped (:func:`core.app.words.md`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace

import pandas as pd
import streamlit as st

from core.app import settings as state
from core.app.own_data import new_upload_name
from core.app.words import md
from core.data.datasets import Task
from core.data.prepare import Prepared, infer_task, prepare_table, suggest_target
from core.data.tables import MAX_UPLOAD_MB, TableError, read_table
from core.ui.binding import Binding
from core.ui.cached import catalogue
from core.ui.data_moves import move_to, names_of
from core.ui.visit import change, keep_own, own_data, visit

_LOG = logging.getLogger(__name__)

_FILE = "upload_file"  # the uploader's key
_TARGET = "upload_target"
_TASK = "upload_task"
_TASKS: tuple[Task, ...] = ("classification", "regression")
_UNEXPECTED = (
    "This file could not be read as a table. Save it as a CSV file (comma, semicolon or tab "
    "between values, one row per line) and upload it again."
)


@dataclass(frozen=True, eq=False)
class UploadedTable:
    """An upload that worked: the table as read, and how it was made ready."""

    name: str
    filename: str
    frame: pd.DataFrame
    target: str
    task: Task
    prepared: Prepared


def _tables() -> dict[str, UploadedTable]:
    """This session's uploads that worked, by public name (kept with their rows)."""
    return {d.name: d.source for d in own_data().datasets if isinstance(d.source, UploadedTable)}


def _prepare(frame: pd.DataFrame, target: str, task: Task, filename: str) -> Prepared:
    prepared = prepare_table(frame, target=target, task=task, name="upload", title=filename)
    if prepared.dataset.task == "classification" and prepared.dataset.n_features < 2:
        raise TableError(
            "A boundary needs two feature columns, and this table has one besides the "
            "target. Add a column, or choose a number column as target (regression)."
        )
    return prepared


def _show(table: UploadedTable, settings_type: state.Form) -> None:
    """Keep ``table`` in the session and move the page to it, if this page can show it."""
    keep_own(table.name, "upload", table.prepared.dataset, table.filename, table)
    st.session_state[_TARGET] = table.target
    st.session_state[_TASK] = table.task
    if table.name in names_of("upload", settings_type):
        move_to(table.name)


def _on_upload(settings_type: state.Form) -> None:
    """A file was chosen: read it and make it ready, or say plainly why not."""
    file = st.session_state.get(_FILE)
    if file is None:
        return  # the file was taken off the uploader: its table stays in the picker
    change(upload_problem=None)
    try:
        frame = read_table(file.getvalue(), file.name)
        target = suggest_target(frame)
        task = infer_task(frame, target)
        table = UploadedTable(
            new_upload_name(),
            file.name,
            frame,
            target,
            task,
            _prepare(frame, target, task, file.name),
        )
    except TableError as error:
        change(upload_problem=str(error))
        return
    except Exception:  # a reader's bug must not cost the visitor the page
        _LOG.exception("upload %r could not be read", getattr(file, "name", "?"))
        change(upload_problem=_UNEXPECTED)
        return
    _show(table, settings_type)


def _on_retarget(name: str, settings_type: state.Form, field: str) -> None:
    """Another target column (its task inferred again) or another task, for upload ``name``."""
    table = _tables().get(name)
    if table is None:
        return
    session = st.session_state
    target = session.get(_TARGET, table.target)
    if field == "target":
        task = infer_task(table.frame, target) if target in table.frame.columns else table.task
    else:
        task = session.get(_TASK, table.task)
    change(upload_problem=None)
    try:
        prepared = _prepare(table.frame, target, task, table.filename)
    except TableError as error:
        change(upload_problem=str(error))
    except Exception:
        _LOG.exception("upload %r could not be prepared", table.filename)
        change(upload_problem=_UNEXPECTED)
    else:
        _show(replace(table, target=target, task=task, prepared=prepared), settings_type)
        return
    session[_TARGET], session[_TASK] = table.target, table.task  # back to what is shown


def upload_panel(controls: Binding) -> None:
    """The uploader, and for the table shown: its target, its task, what became of its columns."""
    settings_type = controls.settings_type
    file = st.file_uploader(
        "Upload a CSV table",
        key=_FILE,
        on_change=_on_upload,
        args=(settings_type,),
        help=f"A CSV file of up to {MAX_UPLOAD_MB} MB, one row per line and a header row of "
        "column names. It stays in this browser session: it is not saved anywhere, and "
        "nobody else can see it.",
    )
    if file is None:  # the file that failed was taken off (or never there): nothing to say
        change(upload_problem=None)
    problem = visit().upload_problem
    if isinstance(problem, str):
        with st.container(key="upload-problem"):
            st.error(md(problem), icon=":material/error:")
            title = catalogue()[controls.settings.dataset].title
            st.caption(f"Still showing {md(title or controls.settings.dataset)}.")
    table = _tables().get(controls.settings.dataset)
    if table is None:
        if not names_of("upload", settings_type):
            st.caption("Your table's rows and columns appear here once it is read.")
        return
    columns = list(table.frame.columns)
    if st.session_state.get(_TARGET) not in columns:
        st.session_state[_TARGET] = table.target
    st.selectbox(
        "Column to predict (target)",
        columns,
        key=_TARGET,
        on_change=_on_retarget,
        args=(table.name, settings_type, "target"),
    )
    tasks = _TASKS if not settings_type.classification_only else ("classification",)
    if st.session_state.get(_TASK) not in tasks:
        st.session_state[_TASK] = table.task if table.task in tasks else tasks[0]
    st.radio(
        "Task",
        tasks,
        key=_TASK,
        horizontal=True,
        on_change=_on_retarget,
        args=(table.name, settings_type, "task"),
        help="Classification predicts a class, regression a number. Inferred from the "
        "target column; a column of a few whole numbers can be read either way.",
    )
    report(table.prepared)


def report(prepared: Prepared) -> None:
    """The notices about the table, and which columns became features and why the others not."""
    data = prepared.dataset
    with st.container(key="upload-report"):
        st.caption(
            f"{data.n_samples:,} rows · {data.n_features} feature columns · "
            + ("classification" if data.task == "classification" else "regression")
        )
        for notice in prepared.notices:
            st.info(md(notice), icon=":material/info:")
        with st.expander("Which columns became features, and why", icon=":material/view_column:"):
            roles = {
                "feature": "feature",
                "one-hot": "feature (one per level)",
                "target": "target",
                "dropped": "left out",
            }
            st.dataframe(
                pd.DataFrame(
                    {
                        "column": [c.name for c in prepared.columns],
                        "became": [roles.get(c.role, c.role) for c in prepared.columns],
                        "why": [c.reason for c in prepared.columns],
                    }
                ),
                hide_index=True,
                width="stretch",
            )
