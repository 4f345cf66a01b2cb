"""A number question's answers as a histogram: how the class's guesses spread.

The counts come from :func:`core.classroom.tally.number_summary` (the class wing sums them up;
this module only draws arrays), so the figure knows no class.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from numpy.typing import ArrayLike

from core.figures._layout import build_figure, merge, styled_layout
from core.figures.palette import FONT_COLOR, LINE_COLORS


def number_figure(
    edges: Sequence[float] | ArrayLike,
    counts: Sequence[int] | ArrayLike,
    *,
    median: float | None = None,
    height: int = 300,
) -> go.Figure:
    """The answers per bin as bars, each bar's count above it, and the middle answer marked.

    Parameters
    ----------
    edges : sequence of float
        Bin edges, increasing, one more than ``counts``.
    counts : sequence of int
        Answers per bin, each >= 0.
    median : float, optional
        The middle answer, drawn as a dashed line.
    height : int, default 300
        Small: it sits under a question, above the page's own figures.

    Raises
    ------
    ValueError
        When the lengths do not match, or a count is negative.
    """
    left = np.asarray(edges, dtype=np.float64)
    number = np.asarray(counts, dtype=np.intp)
    if left.size != number.size + 1 or number.size == 0:
        raise ValueError(
            f"edges must be one longer than counts (>= 1), got {left.size} and {number.size}"
        )
    if (number < 0).any():
        raise ValueError(f"counts must be >= 0, got {number.tolist()}")
    layout = styled_layout(title=None, x_title="answer", y_title="students", height=height)
    top = max(int(number.max()), 1)
    merge(layout, {"yaxis": {"range": [0, top * 1.3], "dtick": max(1, int(np.ceil(top / 4)))}})
    trace = {
        "type": "bar",
        "x": (left[:-1] + left[1:]) / 2,
        "y": number,
        "width": np.diff(left) * 0.9,
        "text": [str(n) if n else "" for n in number],
        "textposition": "outside",
        "cliponaxis": False,
        "textfont": {"size": 16, "color": FONT_COLOR},
        "marker": {"color": LINE_COLORS[0]},
        "hovertemplate": "%{y} answers<extra></extra>",
        "showlegend": False,
    }
    if median is not None:
        layout["shapes"] = [
            {
                "type": "line",
                "x0": median,
                "x1": median,
                "y0": 0,
                "y1": 1,
                "yref": "paper",
                "line": {"color": FONT_COLOR, "dash": "dash", "width": 2},
            }
        ]
        layout["annotations"] = [
            {
                "x": median,
                "y": 1,
                "yref": "paper",
                "text": f"middle {median:g}",
                "showarrow": False,
                "yanchor": "bottom",
                "font": {"size": 14, "color": FONT_COLOR},
            }
        ]
    return build_figure([trace], layout)


__all__ = ["number_figure"]
