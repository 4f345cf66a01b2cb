"""What a page adds to a finished figure: the traced sample's star, a legend below, and which
test sample a click on the figure picked. Pure Plotly and NumPy, no Streamlit.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

from core.figures._layout import vline
from core.figures.palette import BACKGROUND, FONT_COLOR


def sample_star(xy: Sequence[float], label: str) -> dict[str, Any]:
    """The traced sample's star at plot coordinates ``xy``: a plain trace dict.

    It holds no arrays, so it is already in the form the browser reads
    (:func:`~core.figures.wire.with_traces` adds it to a figure sent before).
    """
    return {
        "type": "scatter",
        "x": [float(xy[0])],
        "y": [float(xy[1])],
        "mode": "markers",
        "marker": {
            "symbol": "star",
            "size": 22,
            "color": BACKGROUND,
            "line": {"color": FONT_COLOR, "width": 2.5},
        },
        "name": label,
        "hovertemplate": f"{html.escape(label)}<extra></extra>",
    }


def mark_sample(figure: go.Figure, xy: Sequence[float], label: str) -> go.Figure:
    """A star on the traced sample at plot coordinates ``xy``, above every other point."""
    # A plain dict: on a figure from build_figure it is added without validation.
    figure.add_trace(sample_star(xy, label))
    return figure


def add_vertical_line(figure: go.Figure, x: float, line: Mapping[str, Any]) -> go.Figure:
    """A vertical line across the plot at ``x`` (in place).

    ``add_shape`` with the line ``fig.add_vline`` would draw: on a figure from
    :func:`~core.figures._layout.build_figure`, ``add_vline`` also leaves an empty annotation
    list behind.
    """
    figure.add_shape(vline(x, line))
    return figure


#: Pixels between the plot's lower edge and the legend under it: room for the tick labels and
#: the axis title, whatever the plot's height.
LEGEND_GAP_PX = 80
#: The bottom margin that holds the axis title and a legend of up to three rows.
LEGEND_MARGIN_PX = 130


def legend_below_layout(height: int | None = None, top: int | None = None) -> dict[str, Any]:
    """The legend flat under the plot, for a builder to merge into its own layout dict.

    The plot then keeps the whole width for the data.

    Plotly places a legend in fractions of the plot's height, so a fixed fraction lands on the
    axis title of a short plot. Given the figure's ``height`` and top margin ``top`` (pixels),
    the legend starts :data:`LEGEND_GAP_PX` below the plot, ``y = -gap / plot height``;
    without them, a fifth of the plot's height below it.

    Merged before the figure is made, it costs nothing; set afterwards on a finished figure it
    costs Plotly's validation of the whole layout (``tests/figures/reference_look.py`` keeps
    that way, as the reference the builders are held to).
    """
    y = -0.2
    if height is not None and top is not None:
        plot = height - top - LEGEND_MARGIN_PX
        if plot > LEGEND_GAP_PX:
            y = -round(LEGEND_GAP_PX / plot, 4)
    return {
        "legend": {"orientation": "h", "x": 0, "xanchor": "left", "y": y, "yanchor": "top"},
        "margin": {"b": LEGEND_MARGIN_PX},
    }


def clicked_sample(
    points: Sequence[Mapping[str, Any]],
    curves: Sequence[int],
    test_index: np.ndarray,
    test_xy: np.ndarray | None = None,
) -> int | None:
    """Position in the test set of the clicked test sample, if any.

    ``points`` is a Plotly selection; a point counts when it lies on one of ``curves`` (the
    scatter traces) and its ``customdata`` is the row id of a test sample. A click on a
    training point that hides a test sample at the same spot (``test_xy``, shape
    ``(n_test, 2)`` in plot coordinates) picks that test sample.
    """
    for point in points:
        row = point.get("customdata")
        if point.get("curve_number") not in curves or row is None:
            continue
        row = row[0] if isinstance(row, list) else row
        position = np.flatnonzero(test_index == int(row))
        if position.size:
            return int(position[0])
    if test_xy is not None:
        for point in points:
            if point.get("curve_number") in curves and "x" in point and "y" in point:
                spot = np.array([point["x"], point["y"]], dtype=float)
                hidden = np.flatnonzero(np.all(np.isclose(test_xy, spot), axis=1))
                if hidden.size:
                    return int(hidden[0])
    return None


__all__ = [
    "add_vertical_line",
    "clicked_sample",
    "legend_below_layout",
    "mark_sample",
    "sample_star",
]
