"""The forest at a glance: the opened tree's map is framed, on its own panel."""

from __future__ import annotations

import copy

import numpy as np

from core.figures.glance import glance_figure, mark_opened
from core.figures.wire import wire_form


def _form() -> dict:
    classes = np.zeros((6, 5, 5), dtype=int)
    axis = np.linspace(0.0, 1.0, 5)
    return wire_form(glance_figure(classes, axis, axis, list(range(6)), 2))


def test_the_opened_trees_panel_is_framed_and_its_title_bold() -> None:
    form = _form()
    kept = copy.deepcopy(form)
    marked = mark_opened(form, 5)
    (frame,) = marked["layout"]["shapes"]
    assert (frame["xref"], frame["yref"]) == ("x6 domain", "y6 domain")
    assert (frame["x0"], frame["x1"], frame["y0"], frame["y1"]) == (0, 1, 0, 1)
    assert frame["line"]["width"] >= 3
    titles = [title["text"] for title in marked["layout"]["annotations"]]
    assert titles[5] == "<b>tree 5</b>"
    assert [t for i, t in enumerate(titles) if i != 5] == [f"tree {i}" for i in (0, 1, 2, 3, 4)]
    assert form == kept, "the figure kept for every visitor is left as it was"


def test_the_first_panel_is_on_the_first_axes() -> None:
    (frame,) = mark_opened(_form(), 0)["layout"]["shapes"]
    assert (frame["xref"], frame["yref"]) == ("x domain", "y domain")
