"""The dataset picker: which kind of data, which dataset of that kind, and its own controls.

Four kinds, one segmented control, so a student sees them apart: ready-made **tables**,
generated **puzzles** (the sine and the 2-D sets: number of points, noise and data seed),
points **drawn** by hand and **uploaded** tables. The last two are the session's own
(:mod:`core.app.own_data`). Only the dataset is a setting; the kind follows from it, except
while the visitor has chosen "Upload" and has not uploaded anything yet: the page then keeps
showing the dataset it showed.
"""

from __future__ import annotations

import streamlit as st

from core.app import settings as state
from core.app.own_data import DRAWN
from core.app.settings import DataKind, DatasetShape
from core.app.words import md
from core.ui.binding import Binding, float_steps, held_value
from core.ui.cached import catalogue
from core.ui.data_moves import KIND_KEY, move_to, names_of
from core.ui.draw_panel import start_drawing
from core.ui.url_state import reconnected_keys
from core.ui.visit import keep, visit

KIND_LABELS: dict[DataKind, str] = {
    "table": ":material/table: Tables",
    "generated": ":material/scatter_plot: Puzzles",
    "drawn": ":material/draw: Draw",
    "upload": ":material/upload_file: Upload",
}
_PICKER_LABELS: dict[DataKind, str] = {
    "table": "Table",
    "generated": "Puzzle",
    "drawn": "Your points",
    "upload": "Your table",
}
#: The kinds the picker offers, in its order.
_KINDS: tuple[DataKind, ...] = ("table", "generated", "drawn", "upload")


def _on_dataset_change() -> None:
    name = st.session_state.get("dataset")
    if isinstance(name, str):
        move_to(name)  # an unknown name: the dataset control keeps the last one


def _on_kind_change(settings_type: state.Form) -> None:
    kind = st.session_state.get(KIND_KEY)
    if kind == "drawn":
        start_drawing()  # the first time, a puzzle's points to start from
    names = names_of(kind, settings_type) if kind in _KINDS else []
    if not names:
        return  # nothing of that kind yet (no upload): keep showing the dataset shown
    remembered = visit().last_of_kind.get(str(kind))
    newest = kind in ("upload", "drawn")
    move_to(remembered if remembered in names else names[-1 if newest else 0])


def _kind(controls: Binding) -> DataKind:
    """Draw the kind control, in step with the dataset shown; return the kind chosen."""
    session = st.session_state
    held_name = session.get("dataset")
    if not (isinstance(held_name, str) and controls._valid("dataset", held_name)):
        held_name = controls.last.dataset
    shown = catalogue()[held_name].kind  # the dataset a callback may just have moved to
    held = session.get(KIND_KEY)
    waiting = held in _KINDS and not names_of(held, controls.settings_type)
    if held not in _KINDS or (held != shown and not waiting):
        session[KIND_KEY] = shown
    chosen = st.segmented_control(
        "Data",
        _KINDS,
        format_func=KIND_LABELS.__getitem__,
        # The kind shown is also the default: a page opened from the page list mounts this
        # control afresh, and without one the browser showed no choice.
        default=shown,
        required=True,
        key=KIND_KEY,
        on_change=_on_kind_change,
        args=(controls.settings_type,),
        help="Tables: real data, ready to use. Puzzles: points made up by a rule, to see "
        "what straight splits can and cannot do. Draw: click your own points. Upload: "
        "your own CSV table; it stays in this browser session.",
    )
    return chosen if chosen in _KINDS else shown


def pick_dataset(controls: Binding) -> DataKind:
    """The kind, the dataset and a generated set's controls; returns the kind chosen.

    The kind's own panel (the uploader, the drawing) is the caller's to draw.
    """
    kind = _kind(controls)
    names = names_of(kind, controls.settings_type)
    shapes = catalogue()
    if kind == "drawn" and names == [DRAWN]:
        controls._control("dataset", lambda: DRAWN)  # one set of points: nothing to choose
    elif names:
        held = st.session_state.get("dataset")
        if held not in names and "dataset" not in reconnected_keys():  # never a choice it lacks
            st.session_state["dataset"] = (
                controls.last.dataset if controls.last.dataset in names else names[0]
            )
        name = controls._control(
            "dataset",
            lambda: st.selectbox(
                _PICKER_LABELS[kind],
                names,
                format_func=lambda n: shapes[n].title or n if n in shapes else n,
                key="dataset",
                on_change=_on_dataset_change,
            ),
        )
        keep(visit().shown(shapes[name].kind, name))
    elif kind == "upload":
        title = shapes[controls.settings.dataset].title or controls.settings.dataset
        st.caption(f"Showing {md(title)} until your table is read.")
    shape = shapes[controls.settings.dataset]
    if shape.generated:
        generated_controls(controls, shape)
    return kind


def generated_controls(controls: Binding, shape: DatasetShape) -> None:
    """A generated set's number of points, noise and data seed, all in the URL."""
    entries = controls.settings_type.entries
    points, noise, seed = entries["n_samples"], entries["noise"], entries["data_seed"]
    controls._control(
        "n_samples",
        lambda: st.slider(
            points.label,
            int(points.low),
            int(points.high),
            held_value("n_samples", int),
            key="n_samples",
            help=points.help,
        ),
    )
    noise_max = shape.noise_max or noise.high  # each generated set's own scale
    controls._control(
        "noise", lambda: float_steps(noise, noise_max, noise_max, noise.label, noise.help)
    )
    controls._control(
        "data_seed",
        lambda: st.number_input(
            seed.label, int(seed.low), int(seed.high), step=1, key="data_seed", help=seed.help
        ),
    )
