"""Draw a :class:`~core.figures.param_map.ParamMap`: a heat map of scores, and the grid layout
and click targets it shares with :mod:`core.figures.map_difference`.

Leaf sizes run across, depths down (depth 1 at the top); the current setting's cell is outlined
and a click on any cell selects its setting (:func:`clicked_setting`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

from core.figures._layout import FONT_SIZE, axis_style, build_figure, styled_layout
from core.figures.palette import SEQUENTIAL_SCALE
from core.figures.param_map import ParamMap

__all__ = ["CURRENT_COLOR", "click_points", "clicked_setting", "grid_layout", "param_map_figure"]

#: The outline of the current setting's cell: vermillion, far from every blue of the scale.
CURRENT_COLOR = "#D55E00"


def _depth_label(depth: int | None) -> str:
    return "none" if depth is None else str(depth)


def param_map_figure(
    pmap: ParamMap,
    *,
    title: str | None = None,
    height: int = 560,
    compact: bool = False,
    colour_range: tuple[float, float] | None = None,
) -> go.Figure:
    """The scores as a heat map: ``max_depth`` down, ``min_samples_leaf`` across.

    Each cell shows its score (the best in bold). Colours run from pale to dark blue over
    the :data:`~core.figures.param_map.COLOUR_SPREAD` below the best score, every lower score
    the palest, so the good region stands out. With every score written in its cell there is
    no colour bar: on a 390 px phone one took half the width, and the cells' scores ran into
    each other. The current setting's cell has a thick vermillion outline. A second, invisible
    trace puts one point on every cell, for hover text and for a click to select
    (:func:`clicked_setting`).

    Parameters
    ----------
    pmap : ParamMap
    title : str, optional
        Default ``"<scored_on> for each max_depth and min_samples_leaf"``; ``""`` for none.
    height : int, default 560
    compact : bool, default False
        For half a page: smaller cell text (still 11 px or more).
    colour_range : (float, float), optional
        The scores the colours span, ``(low, best)``: give two maps shown side by side one
        range, so a colour means one score on both. Default: this map's own.

    Returns
    -------
    plotly.graph_objects.Figure
        Trace 0 the heat map, trace 1 the clickable points (customdata ``[row, column]``).
    """
    n_rows, n_columns = pmap.scores.shape
    low, best = pmap.colour_range if colour_range is None else colour_range
    shown = [[f"{score:.3f}" for score in row] for row in pmap.scores.tolist()]
    for i, j in pmap.best_cells:
        shown[i][j] = f"<b>{shown[i][j]}</b>"
    heat: dict[str, Any] = {
        "type": "heatmap",
        "z": pmap.scores,
        "x": list(range(n_columns)),
        "y": list(range(n_rows)),
        "text": shown,
        "texttemplate": "%{text}",
        "textfont": {"size": FONT_SIZE - 4 if compact else FONT_SIZE - 2},
        "colorscale": [list(stop) for stop in SEQUENTIAL_SCALE],
        "zmin": low,
        "zmax": best if best > low else low + 1e-9,
        "xgap": 2,
        "ygap": 2,
        "hoverinfo": "skip",
        "showscale": False,
    }
    hover = [f"{pmap.scored_on} {score:.3f}" for score in pmap.scores.ravel().tolist()]
    layout = grid_layout(
        pmap,
        f"{pmap.scored_on[:1].upper()}{pmap.scored_on[1:]} for each max_depth and min_samples_leaf"
        if title is None
        else title,
        height,
    )
    return build_figure([heat, click_points(pmap, hover)], layout)


def click_points(pmap: ParamMap, lines: Sequence[str]) -> dict[str, Any]:
    """The invisible trace of one point per cell: hover text (the setting, then ``lines``,
    one per cell, row by row) and a target for a click (:func:`clicked_setting`)."""
    n_rows, n_columns = len(pmap.depths), len(pmap.leaf_sizes)
    rows, columns = np.divmod(np.arange(n_rows * n_columns), n_columns)
    hover = [
        f"max_depth {_depth_label(pmap.depths[i])}, min_samples_leaf {pmap.leaf_sizes[j]}<br>"
        f"{line}<br>click to grow this tree"
        for i, j, line in zip(rows, columns, lines, strict=True)
    ]
    return {
        "type": "scatter",
        "x": columns,
        "y": rows,
        "mode": "markers",
        "marker": {"size": 30, "symbol": "square", "color": "rgba(0,0,0,0)"},
        "customdata": np.column_stack([rows, columns]),
        "text": hover,
        "hovertemplate": "%{text}<extra></extra>",
        "showlegend": False,
    }


def grid_layout(pmap: ParamMap, title: str, height: int) -> dict[str, Any]:
    """The layout of a map's grid: leaf sizes across, depths down, the current cell outlined."""
    n_rows, n_columns = len(pmap.depths), len(pmap.leaf_sizes)
    layout = styled_layout(
        title=title, x_title="min_samples_leaf", y_title="max_depth", height=height
    )
    layout["xaxis"] = {
        **axis_style("min_samples_leaf"),
        "showgrid": False,
        "tickmode": "array",
        "tickvals": list(range(n_columns)),
        "ticktext": [str(m) for m in pmap.leaf_sizes],
        "range": [-0.5, n_columns - 0.5],
        "fixedrange": True,
    }
    layout["yaxis"] = {
        **axis_style("max_depth"),
        "showgrid": False,
        "tickmode": "array",
        "tickvals": list(range(n_rows)),
        "ticktext": [_depth_label(d) for d in pmap.depths],
        "range": [n_rows - 0.5, -0.5],  # depth 1 at the top: deeper trees further down
        "fixedrange": True,
    }
    layout["margin"]["r"] = 10
    layout["dragmode"] = False  # a drag would zoom into the grid; a click selects a cell
    layout["hoverdistance"] = -1  # anywhere in a cell hovers (and clicks) its point
    cell = pmap.current_cell
    if cell is not None:
        i, j = cell
        layout["shapes"] = [
            {
                "type": "rect",
                "x0": j - 0.5,
                "x1": j + 0.5,
                "y0": i - 0.5,
                "y1": i + 0.5,
                "xref": "x",
                "yref": "y",
                "line": {"color": CURRENT_COLOR, "width": 4},
            }
        ]
    return layout


def clicked_setting(
    points: Sequence[Mapping[str, Any]], pmap: ParamMap
) -> tuple[int | None, int] | None:
    """``(max_depth, min_samples_leaf)`` of the cell a click selected, or None.

    ``points`` is a Plotly selection event's list (``st.plotly_chart``'s
    ``event["selection"]["points"]``); only a point of the clickable trace (trace 1 of
    :func:`param_map_figure`) on this map's grid counts, the last one if several.
    """
    for point in reversed(points):
        if point.get("curve_number") != 1:
            continue
        row, column = point.get("y"), point.get("x")
        if isinstance(row, (int, float)) and isinstance(column, (int, float)):
            i, j = round(row), round(column)
            if 0 <= i < len(pmap.depths) and 0 <= j < len(pmap.leaf_sizes):
                return pmap.setting((i, j))
    return None
