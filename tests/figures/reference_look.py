"""The shared look written the long way, through Plotly's validating ``update_*`` calls,
and the legend moved under a finished figure's plot.

``core.figures._layout.styled_layout`` builds the same look as one plain dict, without Plotly's
validation (which cost tens of milliseconds per chart on every rerun); the tests hold the two
against each other, so the fast dict can never drift from what Plotly itself would write.
"""

from __future__ import annotations

import plotly.graph_objects as go

from core.figures._layout import (
    AXIS_TITLE_WIDTH,
    FONT_FAMILY,
    FONT_SIZE,
    TITLE_PAD,
    TITLE_STANDOFF,
    TITLE_WIDTH,
    wrap_text,
)
from core.figures.overlays import legend_below_layout
from core.figures.palette import BACKGROUND, EDGE_COLOR, FONT_COLOR, GRID_COLOR


def style_figure(
    fig: go.Figure,
    *,
    title: str | None,
    x_title: str,
    y_title: str,
    height: int = 520,
) -> go.Figure:
    """Apply the shared look to ``fig`` in place and return it.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure
        The figure to style.
    title, x_title, y_title : str
        Chart and axis titles (``title`` may be None). A long title wraps over lines of
        :data:`TITLE_WIDTH` characters, and the top margin grows to hold them.
    height : int, default 520
        Height in pixels; the width follows the container.

    Returns
    -------
    plotly.graph_objects.Figure
        The same figure.

    """
    axis = {
        "showgrid": True,
        "gridcolor": GRID_COLOR,
        "zeroline": False,
        "showline": True,
        "linecolor": EDGE_COLOR,
        "ticks": "outside",
        "tickcolor": EDGE_COLOR,
        "automargin": True,
        "title": {"font": {"size": FONT_SIZE}, "standoff": TITLE_STANDOFF},
    }
    if title:
        title = wrap_text(title, TITLE_WIDTH)
    top = 60 + 24 * title.count("<br>") if title else 20
    fig.update_layout(
        template="none",
        paper_bgcolor=BACKGROUND,
        plot_bgcolor=BACKGROUND,
        font={"family": FONT_FAMILY, "size": FONT_SIZE, "color": FONT_COLOR},
        title={
            "text": title,
            "x": 0.01,
            "xanchor": "left",
            "y": 1,
            "yref": "container",
            "yanchor": "top",
            "pad": {"t": TITLE_PAD},
            "font": {"size": FONT_SIZE + 2},
        },
        height=height,
        margin={"l": 70, "r": 20, "t": top, "b": 60},
        legend={
            "bgcolor": BACKGROUND,
            "bordercolor": GRID_COLOR,
            "borderwidth": 1,
            "font": {"size": FONT_SIZE - 2},
        },
        hoverlabel={"font": {"size": FONT_SIZE - 2}},
    )
    fig.update_xaxes(axis, title_text=wrap_text(x_title, AXIS_TITLE_WIDTH))
    fig.update_yaxes(axis, title_text=wrap_text(y_title, AXIS_TITLE_WIDTH))
    return fig


def legend_below(figure: go.Figure) -> go.Figure:
    """Move the legend of a finished figure under its plot, through Plotly's own objects."""
    below = legend_below_layout(figure.layout.height, figure.layout.margin.t)
    figure.layout.legend.update(below["legend"])
    figure.layout.margin.b = below["margin"]["b"]
    return figure
