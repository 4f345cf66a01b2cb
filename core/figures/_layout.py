"""The one Plotly look of every chart: own background, dark text, large fonts for a projector.

Pages show these figures with ``st.plotly_chart(fig, theme=None)`` so Streamlit's theme does not
repaint them: the chart then reads the same in the light and the dark app theme.

Builders write each trace and the whole layout as plain dicts and make the figure once with
:func:`build_figure`, which skips Plotly's property validation: ``update_layout``,
``update_xaxes`` and ``add_trace`` check every property in Python, on every rerun, and that
costs more than the model fits behind most charts. The tests check
that every builder's output survives Plotly's validating constructor unchanged.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from core.figures.palette import BACKGROUND, EDGE_COLOR, FONT_COLOR, GRID_COLOR

FONT_FAMILY = "Helvetica, Arial, sans-serif"
FONT_SIZE = 16
#: Characters per line of a chart title: about what a 390 px phone shows at the title's size.
TITLE_WIDTH = 36
#: Characters per line of an axis title (a size smaller than the chart's title, on a plot
#: narrower than the chart): the x title of a 390 px phone's chart runs off it past about 36.
AXIS_TITLE_WIDTH = 32
#: The size of ``<sup>`` text against its line's, as Plotly draws it.
SUP_SCALE = 0.7
#: Pixels from the figure's top to the top of its title's first line: its baseline sits where
#: a one-line title centred in the 60 px top margin had it.
TITLE_PAD = 18
#: Pixels between an axis's tick labels and its title (Plotly's default offset ignored the
#: labels' real depth: tilted or wrapped labels ran into the title).
TITLE_STANDOFF = 10
_SUP = re.compile(r"<sup>([^<]*)</sup>")


def wrap_text(text: str, width: int) -> str:
    """``text`` in lines of about ``width`` characters, joined by ``<br>`` for Plotly.

    Plotly never wraps a title or a tick label by itself; a long one runs off a narrow
    screen. Lines break after a space, ``_`` or ``/``; a word longer than ``width`` is cut
    at ``width``. Every character is kept, in order, except a space where a line breaks. A
    ``<br>`` already in ``text`` is kept as a line break of its own. A line that is all
    ``<sup>`` (Plotly draws it at :data:`SUP_SCALE` of the size) holds ``width / SUP_SCALE``
    characters, and each of its lines keeps its own ``<sup>`` tags.
    """
    if "<br>" in text:
        return "<br>".join(wrap_text(part, width) for part in text.split("<br>"))
    small = _SUP.fullmatch(text)
    if small:
        wrapped = wrap_text(small.group(1), int(width / SUP_SCALE))
        return "<br>".join(f"<sup>{line}</sup>" for line in wrapped.split("<br>"))
    pieces = re.findall(r"[^ _/]+[ _/]*|[ _/]+", text)
    lines: list[str] = []
    line = ""
    for piece in pieces:
        while len(piece) > width:  # one long word: cut it
            if line:
                lines.append(line)
                line = ""
            lines.append(piece[:width])
            piece = piece[width:]
        if line and len(line.rstrip()) + len(piece.rstrip()) > width:
            lines.append(line)
            line = ""
        line += piece
    if line or not lines:
        lines.append(line)
    return "<br>".join(part.removesuffix(" ") for part in lines)


def axis_style(title: str) -> dict[str, Any]:
    """One axis of the shared look, titled ``title`` (a fresh dict: callers may add to it).

    A long title wraps over lines of :data:`AXIS_TITLE_WIDTH` characters. The title stands
    :data:`TITLE_STANDOFF` px off the tick labels however deep they are, and the margin grows
    to hold both (``automargin``): with Plotly's fixed offset, tick labels it tilted to fit a
    narrow plot ran into the title, and a margin too small for them pushed the title onto
    them.
    """
    return {
        "showgrid": True,
        "gridcolor": GRID_COLOR,
        "zeroline": False,
        "showline": True,
        "linecolor": EDGE_COLOR,
        "ticks": "outside",
        "tickcolor": EDGE_COLOR,
        "automargin": True,
        "title": {
            "font": {"size": FONT_SIZE},
            "text": wrap_text(title, AXIS_TITLE_WIDTH),
            "standoff": TITLE_STANDOFF,
        },
    }


def styled_layout(
    *,
    title: str | None,
    x_title: str,
    y_title: str,
    height: int = 520,
) -> dict[str, Any]:
    """The shared look as one plain layout dict, with one x and one y axis.

    Parameters
    ----------
    title, x_title, y_title : str
        Chart and axis titles (``title`` may be None). A long title wraps over lines of
        :data:`TITLE_WIDTH` characters, and the top margin grows to hold them.
    height : int, default 520
        Height in pixels; the width follows the container.

    Returns
    -------
    dict
        Fresh on every call, so a builder may add to it or :func:`merge` into it. Plotly's
        validation would write the same (``tests/figures/reference_look.py`` holds it to that).
    """
    if title:
        title = wrap_text(title, TITLE_WIDTH)
    top = 60 + 24 * title.count("<br>") if title else 20
    # Hung from the top: Plotly's automatic place puts the first line's baseline in the middle
    # of the margin and the others below it, so a title of three lines ran into the plot.
    title_layout: dict[str, Any] = {
        "x": 0.01,
        "xanchor": "left",
        "y": 1,
        "yref": "container",
        "yanchor": "top",
        "pad": {"t": TITLE_PAD},
        "font": {"size": FONT_SIZE + 2},
    }
    if title is not None:  # None leaves the text unset, as Plotly does
        title_layout["text"] = title
    return {
        # template="none" as a validated figure writes it out: no theme at all.
        "template": {"data": {"scatter": [{"type": "scatter"}]}},
        "paper_bgcolor": BACKGROUND,
        "plot_bgcolor": BACKGROUND,
        "font": {"family": FONT_FAMILY, "size": FONT_SIZE, "color": FONT_COLOR},
        "title": title_layout,
        "height": height,
        "margin": {"l": 70, "r": 20, "t": top, "b": 60},
        "legend": {
            "bgcolor": BACKGROUND,
            "bordercolor": GRID_COLOR,
            "borderwidth": 1,
            "font": {"size": FONT_SIZE - 2},
        },
        "hoverlabel": {"font": {"size": FONT_SIZE - 2}},
        "xaxis": axis_style(x_title),
        "yaxis": axis_style(y_title),
    }


def merge(base: dict[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    """Merge ``extra`` into ``base`` in place, nested dicts key by key (as ``update_layout``)."""
    for key, value in extra.items():
        if isinstance(value, Mapping) and isinstance(base.get(key), dict):
            merge(base[key], value)
        else:
            base[key] = value
    return base


def vline(x: float, line: Mapping[str, Any]) -> dict[str, Any]:
    """A vertical line across the plot at ``x``, as ``fig.add_vline`` writes it."""
    return {
        "type": "line",
        "x0": x,
        "x1": x,
        "xref": "x",
        "y0": 0,
        "y1": 1,
        "yref": "y domain",
        "line": dict(line),
    }


@functools.lru_cache(maxsize=32)
def _subplot_grid_json(
    rows: int,
    cols: int,
    shared_xaxes: bool,
    shared_yaxes: bool,
    horizontal_spacing: float | None,
    vertical_spacing: float | None,
    n_titles: int,
) -> str:
    # make_subplots validates everything it sets (tens of ms); its axes and title positions
    # depend only on these arguments, so they are worked out once and kept as JSON text.
    fig = make_subplots(
        rows=rows,
        cols=cols,
        shared_xaxes=shared_xaxes,
        shared_yaxes=shared_yaxes,
        horizontal_spacing=horizontal_spacing,
        vertical_spacing=vertical_spacing,
        subplot_titles=[f"panel {k}" for k in range(n_titles)] if n_titles else None,
    )
    return json.dumps(fig.layout.to_plotly_json())


def subplot_grid(
    rows: int,
    cols: int,
    *,
    shared_xaxes: bool = False,
    shared_yaxes: bool = False,
    horizontal_spacing: float | None = None,
    vertical_spacing: float | None = None,
    n_titles: int = 0,
) -> dict[str, Any]:
    """The layout ``make_subplots`` makes for this grid: axes, and ``n_titles`` panel titles.

    A fresh dict each call. Subplots are numbered row by row from the top left (``xaxis``,
    ``xaxis2``...); the panel titles are annotations whose text the caller sets.
    """
    grid: dict[str, Any] = json.loads(
        _subplot_grid_json(
            rows, cols, shared_xaxes, shared_yaxes, horizontal_spacing, vertical_spacing, n_titles
        )
    )
    return grid


class DeferredFigure(go.Figure):
    """A figure whose Plotly objects are made only when something reads them.

    Most figures a page builds go straight to the browser: :func:`~core.figures.wire.
    wire_form` reads the traces and layout the figure was built of (:meth:`unread_source`),
    and Plotly's own objects (one per trace and per nested property, with a deep copy of every
    array) are never made. Anything else asked of the figure
    (``fig.data``, ``fig.update_layout(...)``, ``fig.to_dict()``, ``fig == other``, a pickle)
    makes them first, from the same dicts, and the figure becomes an ordinary ``go.Figure``
    (its class too). The dicts are the figure's own: nothing may change them afterwards.
    """

    def __init__(self, data: list[dict[str, Any]], layout: dict[str, Any]) -> None:
        # No go.Figure.__init__ yet: _made runs it on the first read.
        object.__setattr__(self, "_deferred", (data, layout))

    def _made(self) -> None:
        """Make the Plotly figure, unvalidated, and become a plain ``go.Figure``."""
        data, layout = object.__getattribute__(self, "_deferred")
        object.__delattr__(self, "_deferred")
        object.__setattr__(self, "__class__", go.Figure)
        go.Figure.__init__(self, data=data, layout=layout, _validate=False)

    def __getattribute__(self, name: str) -> Any:
        # ``__class__`` is what ``isinstance(figure, dict)`` reads once the type alone has
        # said no: answering it builds nothing (it is DeferredFigure, a go.Figure, until read).
        if name not in ("unread_source", "__class__"):
            DeferredFigure._made(self)
        return object.__getattribute__(self, name)

    def __setattr__(self, name: str, value: Any) -> None:
        DeferredFigure._made(self)
        setattr(self, name, value)

    def __reduce__(self) -> Any:
        # Pickled (st.cache_data keeps values pickled) as the plain figure it stands for.
        DeferredFigure._made(self)
        return self.__reduce__()

    def unread_source(self) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """The traces and layout this figure was built of (nothing has read it yet: once
        something has, it is a plain ``go.Figure`` without this method)."""
        source: tuple[list[dict[str, Any]], dict[str, Any]] = object.__getattribute__(
            self, "_deferred"
        )
        return source


def build_figure(data: Sequence[Mapping[str, Any]], layout: Mapping[str, Any]) -> go.Figure:
    """The figure of these traces (dicts with their ``type``) and this layout, unvalidated.

    Plotly's validation is skipped: the builders' tests pass every figure through the
    validating constructor and require the same figure back. Its Plotly objects are made
    only if something reads them (:class:`DeferredFigure`), when the layout names its
    template (:func:`styled_layout`'s does); without one, Plotly adds its default now.
    """
    traces, whole = [dict(trace) for trace in data], dict(layout)
    if "template" not in whole:  # Plotly would add its default template: let it
        return go.Figure(data=traces, layout=whole, _validate=False)
    return DeferredFigure(traces, whole)
