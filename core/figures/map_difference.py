"""Two parameter maps compared cell by cell: the second's scores minus the first's.

On Gini vs entropy the two maps are the Gini tree's and the entropy tree's, on one grid and one
scoring. :class:`MapDifference` holds the two and checks that their cells match;
:func:`param_map_difference_figure` draws the difference in points (hundredths) of the metric,
laid out and clickable as :func:`~core.figures.param_map_plot.param_map_figure` is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go

from core.figures._layout import FONT_SIZE, build_figure
from core.figures._model import FloatArray
from core.figures.palette import DIVERGING_SCALE
from core.figures.param_map import ParamMap
from core.figures.param_map_plot import click_points, grid_layout

__all__ = ["DIFFERENCE_SPREAD", "MapDifference", "param_map_difference_figure"]


@dataclass(frozen=True)
class MapDifference:
    """Two parameter maps of one grid, compared cell by cell: ``second`` minus ``first``.

    Attributes
    ----------
    first, second : ParamMap
        Maps of the same rows, columns, metric and scoring (test rows or the same folds),
        such as the Gini tree's and the entropy tree's.

    Raises
    ------
    ValueError
        When the two maps differ in grid, metric or scoring: their cells would not match.
    """

    first: ParamMap
    second: ParamMap

    def __post_init__(self) -> None:
        for name in ("depths", "leaf_sizes", "metric", "n_folds"):
            a, b = getattr(self.first, name), getattr(self.second, name)
            if a != b:
                raise ValueError(f"the two maps must have the same {name}, got {a!r} and {b!r}")

    @property
    def scores(self) -> FloatArray:
        """``second.scores - first.scores``, shape (n_depths, n_leaf_sizes)."""
        return self.second.scores - self.first.scores

    def share_within(self, points: float) -> float:
        """The share of cells whose scores differ by at most ``points`` hundredths.

        One point of accuracy is 0.01. A small tolerance keeps a difference of exactly
        ``points`` (a few test rows, as floats) inside.
        """
        return float(np.mean(np.abs(self.scores) <= points / 100 + 1e-9))


#: The difference map's colours reach full strength at this many points or more; smaller
#: differences stay pale, so a map of tiny differences does not look like a map of large ones.
DIFFERENCE_SPREAD = 5.0


def _points_text(points: float) -> str:
    if abs(points) < 0.05:  # shows as 0.0 either way: no sign to suggest a direction
        return "0"
    return f"{points:+.1f}".replace("-", "\u2212")


def param_map_difference_figure(
    first: ParamMap,
    second: ParamMap,
    *,
    names: tuple[str, str] = ("first", "second"),
    title: str | None = None,
    height: int = 560,
) -> go.Figure:
    """The difference of two maps, ``second - first``, in points (hundredths) of the metric.

    Laid out as :func:`param_map_figure`, the current cell (``first``'s) outlined, with the
    same clickable trace: :func:`clicked_setting` reads a click on it against either map.
    Each cell shows its difference, ``"+1.3"``, ``"−2.2"`` or ``"0"`` (at 12 px, for half a
    page). The colours diverge
    from white at 0: green where ``second`` scores higher, purple where ``first`` does, at
    full strength from the largest difference or :data:`DIFFERENCE_SPREAD` points, whichever
    is larger. No colour bar, as on :func:`param_map_figure`: every cell says its number.

    Parameters
    ----------
    first, second : ParamMap
        Maps of one grid (see :class:`MapDifference`).
    names : (str, str), default ``("first", "second")``
        What to call the two maps in the hover text and the default title (``"Gini"``).
    title : str, optional
        Default ``"<second> − <first>, points of <scored_on>"``; ``""`` for none.
    height : int, default 560

    Returns
    -------
    plotly.graph_objects.Figure
        Trace 0 the heat map (``z`` in points: 100 x the difference), trace 1 the clickable
        points (customdata ``[row, column]``).

    Raises
    ------
    ValueError
        When the maps' grids, metrics or scorings differ.
    """
    difference = MapDifference(first, second)
    points = 100 * difference.scores
    spread = max(float(np.max(np.abs(points))), DIFFERENCE_SPREAD)
    n_rows, n_columns = points.shape
    unit = f"points of {first.scored_on}"
    heat: dict[str, Any] = {
        "type": "heatmap",
        "z": points,
        "x": list(range(n_columns)),
        "y": list(range(n_rows)),
        "text": [[_points_text(p) for p in row] for row in points.tolist()],
        "texttemplate": "%{text}",
        "textfont": {"size": FONT_SIZE - 4},  # drawn at half a page: "−11.1" fits a cell
        "colorscale": [list(stop) for stop in DIVERGING_SCALE],
        "zmin": -spread,
        "zmid": 0.0,
        "zmax": spread,
        "xgap": 2,
        "ygap": 2,
        "hoverinfo": "skip",
        "showscale": False,
    }
    hover = [
        f"{names[1]} {b:.3f}, {names[0]} {a:.3f}: {_points_text(p)} {unit}"
        for a, b, p in zip(
            first.scores.ravel().tolist(),
            second.scores.ravel().tolist(),
            points.ravel().tolist(),
            strict=True,
        )
    ]
    default = f"{names[1]} \u2212 {names[0]}, {unit}"
    layout = grid_layout(first, default if title is None else title, height)
    return build_figure([heat, click_points(first, hover)], layout)
