"""A forest at a glance: small multiples of its trees' decision regions (Orange's Pythagorean
forest shows a forest this way; here each panel is a tree's own map of the plane).

Each panel colours a grid over the two plotted features by the class one tree predicts there.
Side by side, twelve trees grown on resamples, with a few features per split, look alike in
the middle of each class and differ at the edges: the forest averages those differences away.
Clicking a panel opens that tree: every panel holds a lattice of invisible points whose
``customdata`` is the tree's number. The opened tree's panel is framed
(:func:`mark_opened`), so the map says which tree is open below it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

from core.figures._layout import FONT_SIZE, build_figure, subplot_grid
from core.figures.palette import BACKGROUND, FONT_COLOR, blend, class_color

__all__ = ["glance_figure", "mark_opened"]

#: Invisible click targets per panel side.
TARGETS = 8


def _class_scale(n_classes: int) -> list[list[Any]]:
    """A stepped colour scale: class ``k`` (z = k) in its own colour, paled for a background."""
    scale: list[list[Any]] = []
    for k in range(n_classes):
        color = blend(class_color(k), 0.45)
        scale += [[k / n_classes, color], [(k + 1) / n_classes, color]]
    return scale


def _panel_traces(
    classes: np.ndarray, xs: np.ndarray, ys: np.ndarray, number: int, panel: int, n_classes: int
) -> list[dict[str, Any]]:
    """One tree's panel: its classes as a heat map, and a lattice of invisible click targets.

    A heat map takes no clicks, so the targets (``customdata``: the tree's number) do.
    """
    gx = np.linspace(xs[0], xs[-1], TARGETS)
    gy = np.linspace(ys[0], ys[-1], TARGETS)
    targets_x, targets_y = np.tile(gx, TARGETS), np.repeat(gy, TARGETS)
    axes = {
        "xaxis": f"x{panel + 1 if panel else ''}",
        "yaxis": f"y{panel + 1 if panel else ''}",
    }
    return [
        {
            "type": "heatmap",
            "x": xs,
            "y": ys,
            "z": classes,
            "zmin": -0.5,
            "zmax": n_classes - 0.5,
            "colorscale": _class_scale(n_classes),
            "showscale": False,
            "hoverinfo": "skip",
            **axes,
        },
        {
            "type": "scatter",
            "x": targets_x,
            "y": targets_y,
            "mode": "markers",
            "marker": {"size": 18, "opacity": 0},
            "customdata": np.full(len(targets_x), number),
            "hovertemplate": f"open tree {number}<extra></extra>",
            "showlegend": False,
            **axes,
        },
    ]


def glance_figure(
    classes: np.ndarray,
    xs: np.ndarray,
    ys: np.ndarray,
    numbers: Sequence[int],
    n_classes: int,
    *,
    columns: int = 4,
    panel_height: int = 170,
) -> go.Figure:
    """Small multiples of the trees' predicted classes.

    Parameters
    ----------
    classes : ndarray of shape (n_panels, n_y, n_x)
        Each tree's class (an index) at each grid point, y outer.
    xs, ys : ndarray
        The grid's axes.
    numbers : sequence of int
        Each panel's tree number, shown as its title and given to a click.
    n_classes : int
    columns : int, default 4
    panel_height : int, default 170
    """
    n_panels = len(numbers)
    rows = -(-n_panels // columns)
    layout = subplot_grid(
        rows, columns, horizontal_spacing=0.03, vertical_spacing=0.12, n_titles=n_panels
    )
    traces: list[dict[str, Any]] = []
    for panel, number in enumerate(numbers):
        traces += _panel_traces(classes[panel], xs, ys, number, panel, n_classes)
        layout["annotations"][panel]["text"] = f"tree {number}"
        layout["annotations"][panel]["font"] = {"size": FONT_SIZE}
    for name in list(layout):
        if name.startswith(("xaxis", "yaxis")):
            layout[name].update(
                {"showticklabels": False, "ticks": "", "showgrid": False, "showline": False}
            )
    layout.update(
        {
            "height": rows * panel_height + 40,
            "margin": {"l": 10, "r": 10, "t": 40, "b": 10},
            "paper_bgcolor": BACKGROUND,
            "plot_bgcolor": BACKGROUND,
            "showlegend": False,
            "hovermode": "closest",
            "clickmode": "event",
            "dragmode": False,
        }
    )
    return build_figure(traces, layout)


def mark_opened(form: dict[str, Any], panel: int) -> dict[str, Any]:
    """The wire form of a glance figure with panel ``panel`` framed and titled as the open one.

    The figure is kept for every visitor, unmarked; each visitor's opened tree is marked as it
    is shown. ``form`` is left as it was. A click on a map used to open a tree below the
    page's fold with nothing on the map to say which.
    """
    layout = dict(form["layout"])
    axis = panel + 1 if panel else ""
    frame = {
        "type": "rect",
        "xref": f"x{axis} domain",
        "yref": f"y{axis} domain",
        "x0": 0,
        "x1": 1,
        "y0": 0,
        "y1": 1,
        "line": {"color": FONT_COLOR, "width": 4},
        "fillcolor": "rgba(0,0,0,0)",
    }
    layout["shapes"] = [*layout.get("shapes", ()), frame]
    titles = [dict(title) for title in layout.get("annotations", ())]
    if panel < len(titles):
        titles[panel]["text"] = f"<b>{titles[panel]['text']}</b>"  # short: 4 panels on a phone
    layout["annotations"] = titles
    return {**form, "layout": layout}
