"""Draw a :class:`~core.figures.boundary.BoundaryData`: regions shaded by confidence, points on top.

The numbers come from :func:`~core.figures.boundary.compute_boundary`; this module only turns
them into a Plotly figure, so the grid can be tested with numbers and drawn apart.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import plotly.graph_objects as go

from core.figures._layout import build_figure, merge, styled_layout
from core.figures.boundary import BoundaryData, BoundaryGrid, BoundaryPoints
from core.figures.overlays import legend_below_layout
from core.figures.palette import BACKGROUND, FONT_COLOR, MUTED_COLOR, blend, class_color
from core.figures.rules import Category, axis_title

__all__ = ["boundary_figure"]

# Region shading: a share of the class colour between these, by confidence. Light enough that
# points in the class colour stand out on their own region.
_REGION_MIN = 0.10
_REGION_MAX = 0.50


def _region_colorscale(n_classes: int) -> list[tuple[float, str]]:
    scale: list[tuple[float, str]] = []
    for k in range(n_classes):
        color = class_color(k)
        scale.append((k / n_classes, blend(color, _REGION_MIN)))
        scale.append(((k + 1) / n_classes, blend(color, _REGION_MAX)))
    return scale


def _legend_only(name: str, marker: dict[str, object]) -> dict[str, Any]:
    return {
        "type": "scatter",
        "x": [None],
        "y": [None],
        "mode": "markers",
        "name": name,
        "marker": marker,
    }


def _region_trace(grid: BoundaryGrid) -> dict[str, Any]:
    """The regions as one heat map: each cell in its winning class's colour, by confidence."""
    n_classes = len(grid.class_names)
    # z = class index + confidence, so one colour scale holds every class's light-to-strong ramp.
    # Rounded to 3 decimals: invisible in the colours, and it halves the chart data sent.
    z = np.round(grid.predicted + np.minimum(grid.confidence, 0.999), 3)
    winner = np.asarray(grid.class_names, dtype=object)[grid.predicted]
    return {
        "type": "heatmap",
        "x": grid.x_edges,  # one more edge than cells: Plotly draws each cell between them
        "y": grid.y_edges,
        "z": z,
        "zmin": 0,
        "zmax": n_classes,
        "colorscale": _region_colorscale(n_classes),
        "showscale": False,
        "text": winner,
        "customdata": np.round(grid.proba.max(axis=2), 3),
        "hovertemplate": "region: %{text}<br>p = %{customdata:.2f}<extra></extra>",
        "name": "regions",
    }


def _point_traces(grid: BoundaryGrid, points: BoundaryPoints) -> list[dict[str, Any]]:
    """One trace per class of the training (filled) or test (hollow) points.

    Each point's ``customdata`` is its row id, so a click can select the sample.
    """
    traces: list[dict[str, Any]] = []
    hollow = points.split == "test"
    # On a slice a point's own row is not on the picture's plane: its region there need not
    # be the class the model gives it. So it takes the colour of that class, and a cross
    # still marks exactly the mistakes the scores count.
    shown_as = points.predicted if grid.is_slice else points.label
    for k in range(len(grid.class_names)):
        mask = shown_as == k
        if not mask.any():
            continue
        color = class_color(k)
        marker = {
            "size": 10 if hollow else 9,
            "color": BACKGROUND if hollow else color,
            "line": {"color": color if hollow else FONT_COLOR, "width": 2.5 if hollow else 1},
        }
        traces.append(
            {
                "type": "scatter",
                "x": points.x[mask],
                "y": points.y[mask],
                "mode": "markers",
                "marker": marker,
                "name": grid.class_names[k],
                "legendgroup": grid.class_names[k],
                "showlegend": not hollow,
                "customdata": points.row_id[mask],
                "text": np.asarray(grid.class_names, dtype=object)[points.label[mask]],
                "hovertemplate": f"row %{{customdata}} ({points.split})<br>"
                f"class: %{{text}}<br>predicted: {grid.class_names[k]}<extra></extra>"
                if grid.is_slice
                else f"row %{{customdata}} ({points.split})<br>"
                f"class: {grid.class_names[k]}<extra></extra>",
            }
        )
    return traces


def _mistakes_trace(points: tuple[BoundaryPoints, ...]) -> dict[str, Any]:
    """A dark cross on every misclassified point, training and test alike."""
    wrong_x = np.concatenate([p.x[p.label != p.predicted] for p in points])
    wrong_y = np.concatenate([p.y[p.label != p.predicted] for p in points])
    wrong_id = np.concatenate([p.row_id[p.label != p.predicted] for p in points])
    cross = {"symbol": "x-thin", "size": 13, "line": {"color": FONT_COLOR, "width": 2.5}}
    return {
        "type": "scatter",
        "x": wrong_x,
        "y": wrong_y,
        "mode": "markers",
        "marker": cross,
        "name": "misclassified",
        "customdata": wrong_id,
        "hovertemplate": "row %{customdata}: misclassified<extra></extra>",
    }


def _layout(
    grid: BoundaryGrid,
    title: str | None,
    height: int,
    categories: tuple[Category, Category],
    legend_below: bool,
) -> dict[str, Any]:
    """Titles (saying when the view is a slice or a stand-in), yes/no ticks on a one-hot axis,
    and axes that end where the outer cells end."""
    x_name, y_name = (axis_title(n, c) for n, c in zip(grid.feature_names, categories, strict=True))
    if title is None:
        title = f"Decision regions: {x_name} vs {y_name}"
    note = ""
    if grid.stand_in:
        # Said on the picture itself: the page's scores and tree are the model on all features.
        note = (
            f"Regions: a {grid.stand_in} with the same settings grown on these 2 of the "
            f"{grid.model_features} features alone; crosses are its mistakes"
        )
    elif grid.is_slice:
        # Short lines: the title must fit a phone's width and a half-width column.
        note = f"A slice: other features held at {grid.through}; dots coloured by prediction"
    if note:
        title = f"{title}<br><sup>{note}</sup>" if title else note
    layout = styled_layout(title=title, x_title=x_name, y_title=y_name, height=height)
    yes_no = {"tickmode": "array", "tickvals": [0, 1], "ticktext": ["no", "yes"]}
    # The axes end where the outer cells end (a tree that never splits on a feature has one
    # cell across that axis).
    for axis, category, edges in (
        ("xaxis", categories[0], grid.x_edges),
        ("yaxis", categories[1], grid.y_edges),
    ):
        if category is not None:
            layout[axis].update(yes_no)
        layout[axis].update(range=[edges[0], edges[-1]], showgrid=False)
    if legend_below:
        merge(layout, legend_below_layout(layout["height"], layout["margin"]["t"]))
    return layout


def boundary_figure(
    data: BoundaryData,
    *,
    title: str | None = None,
    height: int = 560,
    categories: tuple[Category, Category] = (None, None),
    legend_below: bool = False,
) -> go.Figure:
    """Draw decision regions and points.

    Regions take the winning class's colour, stronger where the model is surer. Training points
    are filled, test points hollow, misclassified points carry a dark cross. Each point's
    ``customdata`` is its row id, so a click can select the sample.

    Parameters
    ----------
    data : BoundaryData
        From :func:`compute_boundary`.
    title : str, optional
        Default names the features, and says so when the view is a slice.
    height : int, default 560
        Height in pixels.
    categories : pair of (str, str) or None, default (None, None)
        For each axis, ``(text column, level)`` when the feature is a one-hot 0/1 column: the
        axis is titled ``sex is female`` and its ticks read "no" (0) and "yes" (1).
    legend_below : bool, default False
        The legend flat under the plot (:func:`~core.figures.overlays.legend_below_layout`).

    Returns
    -------
    plotly.graph_objects.Figure
    """
    grid = data.grid
    traces = [_region_trace(grid)]
    for points in data.points:
        traces += _point_traces(grid, points)
    traces.append(_mistakes_trace(data.points))
    traces.append(_legend_only("training point", {"size": 9, "color": MUTED_COLOR}))
    if len(data.points) > 1:
        hollow_marker = {
            "size": 10,
            "color": BACKGROUND,
            "line": {"color": MUTED_COLOR, "width": 2.5},
        }
        traces.append(_legend_only("test point", hollow_marker))
    return build_figure(traces, _layout(grid, title, height, categories, legend_below))
