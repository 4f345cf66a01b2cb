"""Draw what :func:`~core.figures.variance.compute_spread` found: K resampled trees over each
other, the error of their average against k, and the trees' squared error taken apart.

The numbers are :class:`~core.figures.variance.Spread`'s and
:class:`~core.figures.variance.Decomposition`'s; this module only turns them into Plotly
figures.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import plotly.graph_objects as go

from core.figures._layout import axis_style, build_figure, merge, styled_layout
from core.figures.overlays import legend_below_layout
from core.figures.palette import FONT_COLOR, LINE_COLORS, MUTED_COLOR, class_color
from core.figures.variance import Decomposition, FloatArray, Spread

__all__ = ["averaging_figure", "decomposition_figure", "spread_figure", "step_points"]


def _runs(changed: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Runs of True along each row of ``changed``: (row, first, last) index arrays."""
    step = np.diff(np.pad(changed.astype(np.int8), ((0, 0), (1, 1))), axis=1)
    rows, first = np.nonzero(step == 1)
    _, after = np.nonzero(step == -1)  # row-major order: each run's end follows its start
    return rows, first, after - 1


def _broken_line(starts: FloatArray, ends: FloatArray) -> list[Any]:
    """Segments ``starts[i] -> ends[i]`` as one Plotly line, ``None`` between segments."""
    points = np.column_stack([starts, ends, np.full(len(starts), np.nan)]).ravel()
    return [None if np.isnan(v) else float(v) for v in points]


def _edges(classes: FloatArray, xs: FloatArray, ys: FloatArray) -> tuple[list[Any], list[Any]]:
    """Line segments between grid cells of different classes, as one broken line.

    A tree's regions are rectangles, so its boundary is made of vertical and horizontal runs
    along the cells' borders; each run is one segment.
    """
    half_x = (xs[1] - xs[0]) / 2 if len(xs) > 1 else 0.5
    half_y = (ys[1] - ys[0]) / 2 if len(ys) > 1 else 0.5
    # Vertical borders: between columns i and i + 1, along y.
    column, low, high = _runs((classes[:, :-1] != classes[:, 1:]).T)
    x = xs[column] + half_x
    vertical = (_broken_line(x, x), _broken_line(ys[low] - half_y, ys[high] + half_y))
    # Horizontal borders: between rows j and j + 1, along x.
    row, low, high = _runs(classes[:-1, :] != classes[1:, :])
    y = ys[row] + half_y
    horizontal = (_broken_line(xs[low] - half_x, xs[high] + half_x), _broken_line(y, y))
    return vertical[0] + horizontal[0], vertical[1] + horizontal[1]


def step_points(xs: FloatArray, values: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The points of a staircase drawn ``hv`` (across, then up or down) that draw it all.

    A tree's prediction along ``xs`` is constant between its thresholds: only the first
    point, each point where the value changes and the last are needed; the others lie on a
    flat step. K deep trees over 400 xs sent 8,000 points (300 kB) for about 2,000 corners,
    and the browser's drawing of them was most of a first open's wait.
    """
    changes = np.flatnonzero(values[1:] != values[:-1]) + 1
    kept = np.unique(np.concatenate([[0], changes, [len(xs) - 1]]))
    return xs[kept], values[kept]


#: Each tree's line: thin and faint, so that many of them show where they crowd together.
_THIN = {"color": "rgba(26, 26, 26, 0.28)", "width": 1}


def _regression_traces(spread: Spread, average: bool) -> list[dict[str, Any]]:
    """The trees' staircases as one broken line, the test rows, and (``average``) their mean."""
    xs, K = spread.xs, spread.n_trees
    steps = [step_points(xs, values) for values in spread.tree_values]
    line_x = np.concatenate([np.append(x, np.nan) for x, _ in steps]).tolist()
    line_y = np.concatenate([np.append(y, np.nan) for _, y in steps]).tolist()
    traces: list[dict[str, Any]] = [
        {
            "type": "scatter",
            "x": [None if v != v else v for v in line_x],
            "y": [None if v != v else v for v in line_y],
            "mode": "lines",
            "line": {**_THIN, "shape": "hv"},
            "name": f"{K} trees, one resample each",
            "hoverinfo": "skip",
        },
        {
            "type": "scatter",
            "x": spread.test_x[:, 0],
            "y": spread.test_y,
            "mode": "markers",
            "marker": {"size": 7, "color": MUTED_COLOR, "line": {"width": 0}},
            "name": "test rows",
        },
    ]
    if average:
        traces.append(
            {
                "type": "scatter",
                "x": xs,
                "y": spread.average,
                "mode": "lines",
                "line": {"color": LINE_COLORS[1], "width": 4, "shape": "hv"},
                "name": "their average",
            }
        )
    return traces


def _classification_traces(spread: Spread, average: bool) -> list[dict[str, Any]]:
    """The trees' disagreement as shading, their boundaries as one broken line, (``average``)
    the average's boundary, and the test rows."""
    traces: list[dict[str, Any]] = [
        {
            "type": "heatmap",
            "x": spread.xs,
            "y": spread.ys,
            # A share shown to the percent: single precision halves what the browser reads.
            "z": np.asarray(spread.disagreement, dtype=np.float32),
            "zmin": 0.0,
            "zmax": 1.0 - 1.0 / max(len(spread.class_names), 2),
            "colorscale": [[0.0, "#FFFFFF"], [1.0, "#C4C4C4"]],
            "showscale": False,
            "hovertemplate": "trees disagreeing: %{z:.0%}<extra></extra>",
        }
    ]
    edges_x: list[Any] = []
    edges_y: list[Any] = []
    for classes in spread.tree_values:
        tree_x, tree_y = _edges(classes, spread.xs, spread.ys)
        edges_x += tree_x
        edges_y += tree_y
    traces.append(
        {
            "type": "scatter",
            "x": edges_x,
            "y": edges_y,
            "mode": "lines",
            "line": _THIN,
            "name": f"{spread.n_trees} trees' boundaries",
            "hoverinfo": "skip",
        }
    )
    if average:
        avg_x, avg_y = _edges(spread.average, spread.xs, spread.ys)
        traces.append(
            {
                "type": "scatter",
                "x": avg_x,
                "y": avg_y,
                "mode": "lines",
                "line": {"color": FONT_COLOR, "width": 3},
                "name": "their average's boundary",
                "hoverinfo": "skip",
            }
        )
    return traces + _test_row_traces(spread)


def _test_row_traces(spread: Spread) -> list[dict[str, Any]]:
    """The test rows in their class colours, one trace per class present (one legend entry)."""
    traces: list[dict[str, Any]] = []
    for c, name in enumerate(spread.class_names):
        rows = spread.test_y == c
        if not rows.any():
            continue
        traces.append(
            {
                "type": "scatter",
                "x": spread.test_x[rows, 0],
                "y": spread.test_x[rows, 1],
                "mode": "markers",
                "marker": {
                    "size": 8,
                    "color": class_color(c),
                    "line": {"color": FONT_COLOR, "width": 1},
                },
                "name": f"test: {name}",
            }
        )
    return traces


def spread_figure(spread: Spread, *, average: bool = True, height: int = 480) -> go.Figure:
    """The K trees over each other, the test rows, and (``average``) their average.

    Classification: the shading is how much the trees disagree (white: all agree), each thin
    line is one tree's boundary, the thick line the average's. Regression: each thin line is
    one tree's staircase, the thick line their mean.
    """
    if spread.task == "regression":
        traces = _regression_traces(spread, average)
        x_title, y_title = spread.feature_names[0], "prediction"
    else:
        traces = _classification_traces(spread, average)
        x_title, y_title = spread.feature_names[0], spread.feature_names[1]
    layout = merge(
        styled_layout(title=None, x_title=x_title, y_title=y_title, height=height),
        {
            **merge(legend_below_layout(height, 20), {"margin": {"l": 70, "r": 20, "t": 20}}),
        },
    )
    return build_figure(traces, layout)


def averaging_figure(spread: Spread, *, height: int = 360) -> go.Figure:
    """Test error of the average of the first k trees, and one tree's, against k."""
    metric = "test error" if spread.task == "classification" else "test MSE"
    k = np.arange(1, spread.n_trees + 1)
    traces = [
        {
            "type": "scatter",
            "x": k,
            "y": spread.error_by_k,
            "mode": "lines+markers",
            "line": {"color": LINE_COLORS[1], "width": 3},
            "marker": {"size": 6},
            "name": "average of the first k trees",
        },
        {
            "type": "scatter",
            "x": [1, max(spread.n_trees, 2)],
            "y": [spread.tree_error, spread.tree_error],
            "mode": "lines",
            "line": {"color": MUTED_COLOR, "width": 3, "dash": "dash"},
            "name": "one tree (mean over the K)",
        },
    ]
    layout = merge(
        styled_layout(title=None, x_title="trees averaged (k)", y_title=metric, height=height),
        {
            **merge(legend_below_layout(height, 20), {"margin": {"l": 80, "r": 20, "t": 20}}),
            "yaxis": merge(axis_style(metric), {"rangemode": "tozero"}),
        },
    )
    return build_figure(traces, layout)


def decomposition_figure(parts: Decomposition, *, height: int = 300) -> go.Figure:
    """One bar: the trees' mean squared error as its parts, stacked."""
    if parts.bias2 is not None and parts.noise is not None:
        pieces = [("bias²", parts.bias2), ("variance", parts.variance), ("noise", parts.noise)]
    else:
        pieces = [("the average's error (bias² + noise)", parts.average_error)]
        pieces.append(("variance", parts.variance))
    colors = [LINE_COLORS[1], LINE_COLORS[0], MUTED_COLOR]
    traces = [
        {
            "type": "bar",
            "orientation": "h",
            "x": [value],
            "y": ["one tree"],
            "name": name,
            "marker": {"color": color},
            "text": [f"{value:.3g}"],
            "textposition": "inside",
            "insidetextanchor": "middle",
            "textfont": {"size": 14},
            "hovertemplate": f"{name}: %{{x:.4g}}<extra></extra>",
        }
        for (name, value), color in zip(pieces, colors, strict=False)
    ]
    layout = merge(
        styled_layout(title=None, x_title="squared error", y_title="", height=height),
        {
            "barmode": "stack",
            **merge(
                legend_below_layout(height, 10),
                {"margin": {"l": 90, "r": 20, "t": 10}, "legend": {"traceorder": "normal"}},
            ),
        },
    )
    return build_figure(traces, layout)
