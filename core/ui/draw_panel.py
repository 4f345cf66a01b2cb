"""Drawing your own points: the drawing area, a class to add, clear, start from a puzzle, CSV.

The points live in the session's state (:mod:`core.ui.visit`), and, whenever they can make a tree
(at least ``MIN_POINTS`` of two classes), as the session's own dataset ``drawn``
every click gives new rows, so a new private cache key, and the
page's tree, boundary and diagram are grown again on them. When they cannot, the page says
what is missing instead of showing a tree.
"""

from __future__ import annotations

import streamlit as st

from core.app import settings as state
from core.app.own_data import DRAWN
from core.app.words import md
from core.data.catalogue import load_dataset
from core.data.drawn import DrawnPoints, dataset_from_points, points_csv, points_from_dataset
from core.figures.palette import CLASS_COLORS
from core.ui.binding import Binding
from core.ui.cached import builtin_catalogue
from core.ui.data_moves import move_to
from core.ui.draw import draw_points
from core.ui.visit import change, keep_own, visit

#: The classes a drawing offers, coloured as the figures colour class codes 0, 1, 2.
CLASS_NAMES = ("class A", "class B", "class C")
#: What "start from a puzzle" starts from when the visitor picks Draw for the first time.
FIRST_PUZZLE = "xor"
#: Points taken from a puzzle: enough to see its shape, few enough to click away.
PUZZLE_POINTS = 60

#: The drawing area's extent on both axes: the puzzles' points lie within it (their noise
#: aside); a point beyond it widens the area.
AREA = (-2.0, 2.0)

_CLASS = "drawn_class"
_PUZZLE = "drawn_puzzle"


def _points() -> DrawnPoints:
    held = visit().points
    return held if isinstance(held, DrawnPoints) else DrawnPoints()


def _store(points: DrawnPoints) -> None:
    """Keep ``points``; as the dataset ``drawn`` when they can make a tree."""
    try:
        data = dataset_from_points(points, CLASS_NAMES)
    except ValueError as error:
        change(points=points, drawing_problem=str(error))
        return
    change(points=points, drawing_problem=None)
    keep_own(DRAWN, "drawn", data, "Your points")


def puzzles() -> list[str]:
    """The built-in 2-D classification puzzles a drawing can start from."""
    return [
        name
        for name, shape in builtin_catalogue().items()
        if shape.generated and shape.task == "classification" and shape.n_features == 2
    ]


def _puzzle_points(name: str) -> DrawnPoints:
    points = points_from_dataset(load_dataset(name, n_samples=PUZZLE_POINTS))
    # A puzzle of more classes than a drawing offers keeps the classes it can show.
    keep_rows = [row for row in points.rows() if row[2] < len(CLASS_NAMES)]
    return DrawnPoints.from_rows(keep_rows)


def start_drawing() -> None:
    """Make sure the session has points to draw on: a puzzle's, the first time."""
    if visit().points is None:
        _store(_puzzle_points(FIRST_PUZZLE))


def _on_clear() -> None:
    _store(DrawnPoints())


def _on_puzzle() -> None:
    name = st.session_state.get(_PUZZLE)
    if name in puzzles():
        _store(_puzzle_points(name))
        move_to(DRAWN)


def problem() -> str | None:
    """Why the drawn points cannot make a tree yet, or None."""
    return visit().drawing_problem


def draw_panel(controls: Binding) -> None:
    """The drawing area and its controls, while the page shows the drawn points."""
    start_drawing()
    if st.session_state.get(_CLASS) not in range(len(CLASS_NAMES)):
        st.session_state[_CLASS] = 0
    chosen = st.segmented_control(
        "Class of a new point",
        range(len(CLASS_NAMES)),
        format_func=CLASS_NAMES.__getitem__,
        required=True,
        key=_CLASS,
        help="Click on empty space to add a point of this class; click on a point to remove it.",
    )
    chosen_class = chosen if isinstance(chosen, int) and 0 <= chosen < len(CLASS_NAMES) else 0
    points = _points()
    drawn = draw_points(
        points,
        chosen_class=chosen_class,
        class_colors=CLASS_COLORS[: len(CLASS_NAMES)],
        key="drawn-area",
        x_range=AREA,
        y_range=AREA,
    )
    if drawn != points:
        _store(drawn)
    clear, download = st.columns(2)
    clear.button("Clear", key="drawn-clear", on_click=_on_clear, icon=":material/delete:")
    download.download_button(
        "CSV",
        points_csv(_points(), CLASS_NAMES),
        file_name="arboretum-drawn-points.csv",
        mime="text/csv",
        key="drawn-download",
        icon=":material/download:",
        help="The points as a table (x1, x2, class), to keep them or upload them again: "
        "drawn points stay in this browser session only.",
    )
    names = puzzles()
    shapes = builtin_catalogue()
    with st.container(horizontal=True, vertical_alignment="bottom"):
        st.selectbox(
            "Start from a puzzle",
            names,
            format_func=lambda n: shapes[n].title or n,
            key=_PUZZLE,
        )
        st.button("Start", key="drawn-start", on_click=_on_puzzle)
    trouble = problem()
    if trouble is not None:
        st.warning(md(trouble), icon=":material/touch_app:")


def unusable(settings: state.Settings) -> str | None:
    """Why the page cannot grow a tree on ``settings``' dataset (drawn points), or None."""
    return problem() if settings.dataset == DRAWN else None


__all__ = ["CLASS_NAMES", "draw_panel", "problem", "puzzles", "start_drawing", "unusable"]
