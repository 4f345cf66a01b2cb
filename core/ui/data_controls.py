"""The dataset picker: which kind of data, which dataset of that kind, and its own controls.

Four kinds, one segmented control, so a student sees them apart: ready-made **tables**,
generated **puzzles** (the sine and the 2-D sets: number of points, noise and data seed),
points **drawn** by hand and **uploaded** tables. The last two are the session's own
(:mod:`core.ui.own_data`). Only the dataset is a setting; the kind follows from it, except
while the visitor has chosen "Upload" and has not uploaded anything yet: the page then keeps
showing the dataset it showed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import TYPE_CHECKING, Any

import streamlit as st

from core.app import settings as state
from core.app.settings import DataKind, DatasetShape
from core.ui.cached import catalogue
from core.ui.url_state import _LAST, _to_widget

if TYPE_CHECKING:
    from core.ui.controls import Controls

_KIND = "data_kind"  # the kind control's key (not a setting: the dataset says it)
_LAST_OF_KIND = "_arboretum_last_of_kind"  # the dataset last shown of each kind

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
_KINDS: tuple[DataKind, ...] = ("table", "generated")
#: What a kind shows below the picker while it is chosen (besides a generated set's controls).
_KIND_PANELS: dict[DataKind, Callable[[Controls[Any]], None]] = {}


def names_of(kind: DataKind, settings_type: type[state.Settings]) -> list[str]:
    """The datasets of ``kind`` a page of ``settings_type`` can show, in catalogue order."""
    return [
        name
        for name, shape in catalogue().items()
        if shape.kind == kind
        and (shape.task == "classification" or not settings_type.classification_only)
    ]


def move_to(name: str) -> None:
    """Show dataset ``name``: every other setting moves with it (its pair, sample 0...).

    For callbacks, which run before the script and may still set the widgets' state.
    """
    session = st.session_state
    shape = catalogue().get(name)
    if shape is None:
        return
    moved = state.with_dataset(session[_LAST], name, catalogue())
    for f in fields(moved):
        session[f.name] = _to_widget(f.name, getattr(moved, f.name))
    session.setdefault(_LAST_OF_KIND, {})[shape.kind] = name
    session[_KIND] = shape.kind


def _on_dataset_change() -> None:
    name = st.session_state.get("dataset")
    if isinstance(name, str):
        move_to(name)  # an unknown name: the dataset control keeps the last one


def _on_kind_change(settings_type: type[state.Settings]) -> None:
    kind = st.session_state.get(_KIND)
    names = names_of(kind, settings_type) if kind in _KINDS else []
    if not names:
        return  # nothing of that kind yet (no upload): keep showing the dataset shown
    remembered = st.session_state.get(_LAST_OF_KIND, {}).get(kind)
    newest = kind in ("upload", "drawn")
    move_to(remembered if remembered in names else names[-1 if newest else 0])


def _kind(controls: Controls[Any]) -> DataKind:
    """Draw the kind control, in step with the dataset shown; return the kind chosen."""
    session = st.session_state
    shown = catalogue()[controls.settings.dataset].kind
    held = session.get(_KIND)
    waiting = held in _KINDS and not names_of(held, controls.settings_type)
    if held not in _KINDS or (held != shown and not waiting):
        session[_KIND] = shown
    chosen = st.segmented_control(
        "Data",
        _KINDS,
        format_func=KIND_LABELS.__getitem__,
        required=True,
        key=_KIND,
        on_change=_on_kind_change,
        args=(controls.settings_type,),
        help="Tables: real data, ready to use. Puzzles: points made up by a rule, to see "
        "what straight splits can and cannot do. Draw: click your own points. Upload: "
        "your own CSV table; it stays in this browser session.",
    )
    return chosen if chosen in _KINDS else shown


def pick_dataset(controls: Controls[Any]) -> DatasetShape:
    """The kind, the dataset and its own controls; returns the shape of the dataset shown."""
    kind = _kind(controls)
    names = names_of(kind, controls.settings_type)
    shapes = catalogue()
    if names:
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
        st.session_state.setdefault(_LAST_OF_KIND, {})[shapes[name].kind] = name
    shape = shapes[controls.settings.dataset]
    if shape.generated:
        generated_controls(controls, shape)
    panel = _KIND_PANELS.get(kind)
    if panel is not None:
        panel(controls)
    return catalogue()[controls.settings.dataset]


def generated_controls(controls: Controls[Any], shape: DatasetShape) -> None:
    """A generated set's number of points, noise and data seed, all in the URL."""
    low, high = state.N_SAMPLES_RANGE
    controls._control(
        "n_samples",
        lambda: st.slider(
            "Number of points",
            low,
            high,
            key="n_samples",
            help="How many points the rule makes, before the test set is held out.",
        ),
    )
    noise_max = shape.noise_max or state.NOISE_LIMIT
    steps = [round(noise_max * i / 20, 6) for i in range(21)]
    held = st.session_state.get("noise")
    extra = [held] if isinstance(held, float) and held not in steps and held <= noise_max else []
    controls._control(
        "noise",
        lambda: st.select_slider(
            "Noise",
            sorted([*steps, *extra]),
            format_func=lambda v: f"{v:g}",
            key="noise",
            help="How far the points scatter from the rule's shape (a standard deviation, "
            "in the features' units; for the sine, in y's). 0 is the bare shape.",
        ),
    )
    controls._control(
        "data_seed",
        lambda: st.number_input(
            "Data seed",
            min_value=0,
            max_value=state.SEED_LIMIT,
            step=1,
            key="data_seed",
            help="Draws the points. The Seed further down only picks the train/test split "
            "and the model's random choices, so changing it grows new trees on the very "
            "same points; change this one for a fresh draw of the same puzzle. Both are in "
            "the link.",
        ),
    )
