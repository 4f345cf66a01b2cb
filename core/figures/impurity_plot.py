"""Draw :mod:`core.figures.impurity_curves`' numbers: the impurity functions, and every
threshold's weighted child impurity at one node, one panel per feature.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

from core.figures._layout import (
    axis_style,
    build_figure,
    merge,
    styled_layout,
    subplot_grid,
    vline,
)
from core.figures.impurity_curves import FeatureScan, ImpurityCurves, SplitScanData
from core.figures.overlays import legend_below_layout
from core.figures.palette import FONT_COLOR, LINE_COLORS, MUTED_COLOR, SERIES_COLORS

__all__ = ["impurity_figure", "split_scan_figure"]


def impurity_figure(
    curves: ImpurityCurves,
    *,
    title: str | None = None,
    height: int = 420,
    legend_below: bool = False,
) -> go.Figure:
    """The three impurity functions, with the marked node as a dot on each curve.

    With ``legend_below`` the legend lies flat under the plot
    (:func:`~core.figures.overlays.legend_below_layout`).
    """
    traces: list[dict[str, Any]] = []
    series = (
        ("gini", "Gini", curves.gini, "solid"),
        ("entropy", "entropy (bits)", curves.entropy, "dash"),
        ("misclassification", "misclassification error", curves.misclassification, "dot"),
    )
    for key, name, values, dash in series:
        traces.append(
            {
                "type": "scatter",
                "x": curves.p,
                "y": values,
                "mode": "lines",
                "name": name,
                "line": {"color": SERIES_COLORS[key], "width": 3, "dash": dash},
                "hovertemplate": f"{name}: %{{y:.3f}} at p = %{{x:.2f}}<extra></extra>",
            }
        )
        if curves.marker_p is not None:
            traces.append(
                {
                    "type": "scatter",
                    "x": [curves.marker_p],
                    "y": [float(np.interp(curves.marker_p, curves.p, values))],
                    "mode": "markers",
                    "marker": {
                        "size": 13,
                        "color": SERIES_COLORS[key],
                        "line": {"color": FONT_COLOR, "width": 1.5},
                    },
                    "showlegend": False,
                    "hovertemplate": f"this node, {name}: %{{y:.3f}}<extra></extra>",
                }
            )
    layout = styled_layout(
        title="Impurity of a node with two classes" if title is None else title,
        x_title=f"share of {curves.class_name} in the node (p)",
        y_title="impurity",
        height=height,
    )
    if curves.marker_p is not None:
        line = {"color": FONT_COLOR, "width": 1.5, "dash": "dot"}
        layout["shapes"] = [vline(curves.marker_p, line)]
    if legend_below:
        merge(layout, legend_below_layout(layout["height"], layout["margin"]["t"]))
    return build_figure(traces, layout)


def _ranked_features(data: SplitScanData, limit: int) -> list[int]:
    best = [s.best_impurity if s.best_impurity is not None else math.inf for s in data.scans]
    order = sorted(range(len(data.scans)), key=lambda f: (f != data.chosen_feature, best[f]))
    return [f for f in order if data.scans[f].thresholds.size][:limit]


def _panels_layout(
    data: SplitScanData, n_panels: int, cols: int, title: str | None
) -> dict[str, Any]:
    """A grid of panels sharing the impurity axis, each titled later by its feature."""
    rows = math.ceil(n_panels / cols)
    layout = styled_layout(
        title=f"Why node {data.node_id} splits here ({data.n_samples} samples)"
        if title is None
        else title,
        x_title="",
        y_title="",
        height=170 + 260 * rows,
    )
    grid = subplot_grid(
        rows,
        cols,
        shared_yaxes=True,
        horizontal_spacing=0.04,
        vertical_spacing=0.16 if rows > 1 else 0.1,
        n_titles=n_panels,
    )
    for name, axis in grid.items():
        if name.startswith(("xaxis", "yaxis")):
            styled = axis_style("threshold" if name.startswith("xaxis") else "")
            layout[name] = merge(styled, axis)
    layout["annotations"] = grid["annotations"]
    return layout


def _scan_traces(scan: FeatureScan, chosen: bool, x: str, y: str) -> list[dict[str, Any]]:
    """One feature's curve of child impurity, and its best threshold as a dot.

    The chosen feature's are in the first line colour, the others muted.
    """
    color = LINE_COLORS[0] if chosen else MUTED_COLOR
    traces: list[dict[str, Any]] = [
        {
            "type": "scatter",
            "x": scan.thresholds,
            "y": scan.child_impurity,
            "mode": "lines+markers",
            "line": {"color": color, "width": 2.5},
            "marker": {"size": 4},
            "showlegend": False,
            "name": scan.name,
            "hovertemplate": f"{scan.name} ≤ %{{x:.3f}}: %{{y:.3f}}<extra></extra>",
            "xaxis": x,
            "yaxis": y,
        }
    ]
    # (A "known | missing" split, threshold inf, has no point on the threshold axis.)
    if scan.best_threshold is not None and math.isfinite(scan.best_threshold):
        traces.append(
            {
                "type": "scatter",
                "x": [scan.best_threshold],
                "y": [scan.best_impurity],
                "mode": "markers",
                "marker": {"size": 10, "color": color},
                "showlegend": False,
                "hovertemplate": "best: %{y:.3f} at %{x:.3f}<extra></extra>",
                "xaxis": x,
                "yaxis": y,
            }
        )
    return traces


def _chosen_star(data: SplitScanData, x: str, y: str) -> dict[str, Any]:
    """The tree's own split as a large star, the one legend entry."""
    return {
        "type": "scatter",
        "x": [data.chosen_threshold],
        "y": [data.chosen_impurity],
        "mode": "markers",
        "marker": {
            "size": 20,
            "symbol": "star",
            "color": LINE_COLORS[1],
            "line": {"color": FONT_COLOR, "width": 1},
        },
        "name": "the tree's split",
        "showlegend": True,
        "hovertemplate": "chosen: ≤ %{x:.3f}, child impurity %{y:.3f}<extra></extra>",
        "xaxis": x,
        "yaxis": y,
    }


def split_scan_figure(
    data: SplitScanData,
    *,
    features: Sequence[int] | None = None,
    max_panels: int = 6,
    columns: int = 3,
    title: str | None = None,
) -> go.Figure:
    """One panel per feature: weighted child impurity against the threshold.

    The node's impurity is a dotted line (a split's gain is the gap below it); each feature's
    best threshold is a dot, the tree's chosen split a large star with a vertical line.

    Parameters
    ----------
    data : SplitScanData
    features : sequence of int, optional
        Panels to draw; default the chosen feature, then the best others, ``max_panels`` in all.
    max_panels : int, default 6
    columns : int, default 3
    title : str, optional
        None gives ``"Why node <id> splits here (<n> samples)"``; ``""`` gives no title.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    shown = list(features) if features is not None else _ranked_features(data, max_panels)
    if not shown:
        raise ValueError("no feature can split this node (all values equal, or a leaf too small)")
    cols = min(columns, len(shown))
    layout = _panels_layout(data, len(shown), cols, title)
    traces: list[dict[str, Any]] = []
    shapes: list[dict[str, Any]] = []
    for k, f in enumerate(shown):
        scan = data.scans[f]
        # Subplots are numbered row by row from the top left: x, x2, x3...
        number = "" if k == 0 else str(k + 1)
        x, y = f"x{number}", f"y{number}"
        layout["annotations"][k]["text"] = scan.name
        if k % cols == 0:
            layout[f"yaxis{number}"]["title"]["text"] = f"weighted child {data.impurity_name}"
        chosen = f == data.chosen_feature
        traces += _scan_traces(scan, chosen, x, y)
        # The node's impurity across the panel (what fig.add_hline writes).
        shapes.append(
            {
                "type": "line",
                "x0": 0,
                "x1": 1,
                "xref": f"{x} domain",
                "y0": data.parent_impurity,
                "y1": data.parent_impurity,
                "yref": y,
                "line": {"color": FONT_COLOR, "dash": "dot", "width": 1},
            }
        )
        if chosen and data.chosen_threshold is not None and math.isfinite(data.chosen_threshold):
            traces.append(_chosen_star(data, x, y))
            line = vline(data.chosen_threshold, {"color": LINE_COLORS[1], "width": 1.5})
            shapes.append({**line, "xref": x, "yref": f"{y} domain"})
    layout["shapes"] = shapes
    return build_figure(traces, layout)
