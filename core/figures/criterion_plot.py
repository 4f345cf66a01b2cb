"""Draw :mod:`core.figures.criterion`'s answers: where a Gini tree and an entropy tree part,
how far apart their test accuracies fall over many splits, and one split counted by hand.

Each criterion keeps one colour (:data:`CRITERION_COLORS`) in all three figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

from core.figures._layout import build_figure, merge, styled_layout
from core.figures.criterion import LabSide, Parting, SeedStudy
from core.figures.overlays import legend_below_layout
from core.figures.palette import LINE_COLORS, MUTED_COLOR

__all__ = ["CRITERION_COLORS", "lab_figure", "parting_figure", "seed_figure"]

CRITERION_COLORS = {"gini": LINE_COLORS[0], "entropy": LINE_COLORS[1]}


def parting_figure(
    parting: Parting, feature_names: Sequence[str], *, height: int = 380
) -> go.Figure:
    """Each criterion's impurity decrease (share of the node's) for each candidate question.

    The x axis counts the node's rows each question sends left, so two features with their
    own units share one axis.
    """
    traces: list[dict[str, Any]] = []
    features = sorted({feature for _, feature in parting.scans})
    for criterion in ("gini", "entropy"):
        for feature in features:
            scan = parting.scans[criterion, feature]
            finite = np.isfinite(scan.thresholds)
            share = (
                (scan.parent_impurity - scan.child_impurity[finite]) / scan.parent_impurity
                if scan.parent_impurity > 0
                else np.zeros(int(finite.sum()))
            )
            dash = "solid" if feature == features[0] else "dot"
            label = f"{criterion}, {feature_names[feature]}"
            traces.append(
                {
                    "type": "scatter",
                    "x": scan.n_left[finite],
                    "y": share,
                    "customdata": scan.thresholds[finite],
                    "mode": "lines",
                    "line": {"color": CRITERION_COLORS[criterion], "width": 3, "dash": dash},
                    "name": label,
                    "hovertemplate": f"{label} ≤ %{{customdata:.4g}}: %{{y:.1%}}<extra></extra>",
                }
            )
        choice = parting.choices[criterion]
        if choice is not None:
            scan = parting.scans[criterion, choice.feature]
            at = int(np.argmin(np.abs(scan.thresholds - choice.threshold)))
            traces.append(
                {
                    "type": "scatter",
                    "x": [int(scan.n_left[at])],
                    "y": [choice.decrease],
                    "mode": "markers",
                    "marker": {"size": 16, "color": CRITERION_COLORS[criterion], "symbol": "star"},
                    "name": f"{criterion} picks {feature_names[choice.feature]}",
                    "showlegend": False,  # the caption says what the stars are
                }
            )
    x_title = f"rows sent left (of {parting.n_samples})"
    layout = merge(
        styled_layout(title=None, x_title=x_title, y_title="impurity removed", height=height),
        {
            "yaxis": {"tickformat": ".0%"},
            **merge(legend_below_layout(height, 20), {"margin": {"l": 80, "r": 20, "t": 20}}),
        },
    )
    return build_figure(traces, layout)


def seed_figure(study: SeedStudy, *, height: int = 340) -> go.Figure:
    """How far apart the two trees' test accuracies are, over the splits: a histogram."""
    gaps = np.round(study.accuracy_gap * 100, 6)
    traces = [
        {
            "type": "histogram",
            "x": gaps,
            "xbins": {"size": max(float(np.ptp(gaps)) / 15, 0.5)},
            "marker": {"color": MUTED_COLOR, "line": {"color": "#FFFFFF", "width": 1}},
            "hovertemplate": "%{y} splits: entropy − Gini %{x} points<extra></extra>",
        }
    ]
    layout = merge(
        styled_layout(
            title=None,
            x_title="entropy's test accuracy − Gini's (points)",
            y_title="train/test splits",
            height=height,
        ),
        {"margin": {"l": 80, "r": 20, "t": 20, "b": 70}, "bargap": 0.05},
    )
    return build_figure(traces, layout)


def lab_figure(sides: list[LabSide], *, height: int = 300) -> go.Figure:
    """Both impurities of the node and of each side, as grouped bars (entropy in bits)."""
    names = [side.name for side in sides]
    traces = [
        {
            "type": "bar",
            "x": names,
            "y": [getattr(side, criterion) for side in sides],
            "name": "Gini" if criterion == "gini" else "entropy (bits)",
            "marker": {"color": CRITERION_COLORS[criterion]},
            "text": [f"{getattr(side, criterion):.3f}" for side in sides],
            "textposition": "outside",
            "textfont": {"size": 14},
        }
        for criterion in ("gini", "entropy")
    ]
    layout = merge(
        styled_layout(title=None, x_title="", y_title="impurity", height=height),
        {
            "barmode": "group",
            "yaxis": {"range": [0, 1.2]},
            **merge(legend_below_layout(height, 20), {"margin": {"l": 70, "r": 20, "t": 20}}),
        },
    )
    return build_figure(traces, layout)
