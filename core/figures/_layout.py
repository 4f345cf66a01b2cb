"""The one Plotly look of every chart: own background, dark text, large fonts for a projector.

Pages show these figures with ``st.plotly_chart(fig, theme=None)`` so Streamlit's theme does not
repaint them: the chart then reads the same in the light and the dark app theme.
"""

from __future__ import annotations

import plotly.graph_objects as go

from core.figures.palette import BACKGROUND, EDGE_COLOR, FONT_COLOR, GRID_COLOR

FONT_FAMILY = "Helvetica, Arial, sans-serif"
FONT_SIZE = 16


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
        Chart and axis titles (``title`` may be None).
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
        "title": {"font": {"size": FONT_SIZE}},
    }
    fig.update_layout(
        template="none",
        paper_bgcolor=BACKGROUND,
        plot_bgcolor=BACKGROUND,
        font={"family": FONT_FAMILY, "size": FONT_SIZE, "color": FONT_COLOR},
        title={"text": title, "x": 0.01, "xanchor": "left", "font": {"size": FONT_SIZE + 2}},
        height=height,
        margin={"l": 70, "r": 20, "t": 60 if title else 20, "b": 60},
        legend={
            "bgcolor": BACKGROUND,
            "bordercolor": GRID_COLOR,
            "borderwidth": 1,
            "font": {"size": FONT_SIZE - 2},
        },
        hoverlabel={"font": {"size": FONT_SIZE - 2}},
    )
    fig.update_xaxes(axis, title_text=x_title)
    fig.update_yaxes(axis, title_text=y_title)
    return fig
