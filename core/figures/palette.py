"""One palette for every figure: class colours, purity blending, a sequential scale, theme colours.

The categorical colours follow Okabe and Ito's colour-blind-safe set (black left out, because it
is the text colour). Class ``i`` gets ``CLASS_COLORS[i]`` in the tree diagram, the decision
boundary and every chart, so a class keeps its colour from page to page.

Graphviz ignores the app's light or dark theme, so diagrams and charts carry their own near-white
background and dark text (:data:`BACKGROUND`, :data:`FONT_COLOR`): they then read the same on a
projector and in both themes.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "BACKGROUND",
    "CLASS_COLORS",
    "DIVERGING_SCALE",
    "EDGE_COLOR",
    "FONT_COLOR",
    "GRID_COLOR",
    "LINE_COLORS",
    "MUTED_COLOR",
    "SEQUENTIAL_SCALE",
    "SERIES_COLORS",
    "blend",
    "class_color",
    "purity",
    "purity_fill",
    "sequential_color",
]

#: Twenty class colours. The first seven are Okabe-Ito's, without black (orange, sky blue,
#: bluish green, yellow, blue, vermillion, reddish purple), colour-blind safe; a table of more
#: classes (an upload, up to :data:`core.data.prepare.MAX_CLASSES`) goes on with Paul Tol's
#: muted scheme (wine, teal, indigo, olive, purple, green, rose, cyan, sand, brown) and three
#: of ColorBrewer's (lavender, slate, rust), chosen to lie far from each other in RGB. Six of
#: those (teal, purple, rose, lavender, slate, rust) are moved to the nearest colour that a
#: protanope and a deuteranope still tell from every other class (tests/figures/test_palette.py
#: measures it); the legends name each class too.
CLASS_COLORS: tuple[str, ...] = (
    "#E69F00",
    "#56B4E9",
    "#009E73",
    "#F0E442",
    "#0072B2",
    "#D55E00",
    "#CC79A7",
    "#882255",
    "#55BB99",
    "#332288",
    "#999933",
    "#993388",
    "#117733",
    "#DD6677",
    "#88CCEE",
    "#DDCC77",
    "#661100",
    "#CCAACC",
    "#7788CC",
    "#994411",
)

#: Text on diagrams and charts: near-black, readable on the background and on every fill.
FONT_COLOR = "#1A1A1A"
#: Node borders and ordinary edges.
EDGE_COLOR = "#4D4D4D"
#: Edges and markers that are not on the highlighted path, legend-only neutral markers.
MUTED_COLOR = "#A6A6A6"
#: Background of every diagram and chart (near-white, so it never blends with a dark theme).
BACKGROUND = "#FFFFFF"
#: Grid lines and axis lines on charts.
GRID_COLOR = "#E3E3E3"

#: Colours of series that are not classes (curves of train / test / out-of-bag scores, and
#: the two criteria). They are always paired with a distinct dash so that they read without
#: colour too.
SERIES_COLORS: dict[str, str] = {
    "train": "#0072B2",
    "test": "#D55E00",
    "oob": "#009E73",
    "gini": "#0072B2",
    "entropy": "#D55E00",
    "misclassification": "#6B6B6B",
}

#: Colours of several models' lines on one chart (depth 1, 2, 4, 8...), darkest first so that
#: none is pale on the white background; paired with distinct dashes.
LINE_COLORS: tuple[str, ...] = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")

#: Sequential scale for regression values, light to dark blue (colour-blind safe, monotone in
#: lightness). Positions in [0, 1] with hex colours, in Plotly's colorscale format.
SEQUENTIAL_SCALE: tuple[tuple[float, str], ...] = (
    (0.0, "#F7FBFF"),
    (0.25, "#C6DBEF"),
    (0.5, "#6BAED6"),
    (0.75, "#2171B5"),
    (1.0, "#08306B"),
)


#: Diverging scale for a difference, purple (below 0) through white (0) to green (above 0):
#: ColorBrewer's PRGn, colour-blind safe, and far from the vermillion that outlines a cell.
DIVERGING_SCALE: tuple[tuple[float, str], ...] = (
    (0.0, "#762A83"),
    (0.25, "#C2A5CF"),
    (0.5, "#F7F7F7"),
    (0.75, "#A6DBA0"),
    (1.0, "#1B7837"),
)


def class_color(i: int) -> str:
    """Colour of class ``i`` (its index in ``classes_``), as ``#RRGGBB``.

    Parameters
    ----------
    i : int
        Class index, ``>= 0``. Indices past the palette wrap around.

    Returns
    -------
    str
        Hex colour.
    """
    if i < 0:
        raise ValueError(f"class index i must be >= 0, got {i}")
    return CLASS_COLORS[i % len(CLASS_COLORS)]


# Plain Python for one colour at a time: a tree's diagram blends one per node, and three
# channels are fewer than NumPy's cost of making an array.


@lru_cache(maxsize=256)
def _to_rgb(color: str) -> tuple[float, float, float]:
    text = color.lstrip("#")
    if len(text) != 6:
        raise ValueError(f"color must look like '#RRGGBB', got {color!r}")
    red, green, blue = (float(int(text[k : k + 2], 16)) for k in (0, 2, 4))
    return red, green, blue


def _to_hex(rgb: Sequence[float]) -> str:
    """``#RRGGBB`` of three channels, each rounded half to even and kept in 0..255."""
    channels = [min(max(round(float(c)), 0), 255) for c in rgb]
    return "#{:02X}{:02X}{:02X}".format(*channels)


def _share(amount: float) -> float:
    """``amount`` clipped to [0, 1]; NaN counts as 0."""
    return min(float(amount), 1.0) if amount > 0.0 else 0.0


def blend(color: str, amount: float, towards: str = BACKGROUND) -> str:
    """Mix ``color`` with ``towards`` (white by default).

    ``result = amount * color + (1 - amount) * towards``, channel by channel in sRGB.

    Parameters
    ----------
    color : str
        ``#RRGGBB``.
    amount : float
        Share of ``color``, clipped to [0, 1]: 1 keeps ``color``, 0 gives ``towards``.
    towards : str, default BACKGROUND
        The colour to blend towards.

    Returns
    -------
    str
        Hex colour.
    """
    share = _share(amount)
    mixed = zip(_to_rgb(color), _to_rgb(towards), strict=True)
    return _to_hex([share * channel + (1.0 - share) * other for channel, other in mixed])


# Fills stay between these shares of the class colour: the palest still names the class, the
# strongest keeps dark text readable on the darkest class colour (blue).
_FILL_MIN = 0.12
_FILL_MAX = 0.72


def purity(fractions: ArrayLike) -> NDArray[np.float64]:
    """How clearly one class leads a mix, along the last axis: ``(p_max - 1/K) / (1 - 1/K)``.

    Parameters
    ----------
    fractions : array-like of shape (..., K)
        Class fractions (a node's ``value``, a row of ``predict_proba``), summing to 1.

    Returns
    -------
    ndarray of shape (...)
        0 for an even mix of the ``K`` classes, 1 when one class has it all (always 1 for
        ``K = 1``); clipped to [0, 1] against rounding.
    """
    p = np.asarray(fractions, dtype=np.float64)
    k = p.shape[-1]
    if k == 1:
        return np.ones(p.shape[:-1])
    return np.clip((p.max(axis=-1) - 1.0 / k) / (1.0 - 1.0 / k), 0.0, 1.0)


def purity_fill(class_index: int, purity: float) -> str:
    """Node fill: the class colour, stronger the purer the node.

    Parameters
    ----------
    class_index : int
        Majority class of the node.
    purity : float
        0 for an even mix of the classes, 1 for a pure node (see :func:`purity`); clipped
        to [0, 1].

    Returns
    -------
    str
        Hex colour, ``blend(class_color(class_index), 0.12 + 0.6 * purity)``.
    """
    share = _FILL_MIN + (_FILL_MAX - _FILL_MIN) * _share(purity)
    return blend(class_color(class_index), share)


def sequential_color(value: float, vmin: float, vmax: float, *, max_share: float = 0.6) -> str:
    """Colour of a regression value on :data:`SEQUENTIAL_SCALE`.

    Parameters
    ----------
    value, vmin, vmax : float
        The value and the range it is placed in; ``vmin == vmax`` maps to the middle.
    max_share : float, default 0.6
        Highest position used on the scale; below 1 keeps dark text readable on the fill.

    Returns
    -------
    str
        Hex colour, interpolated linearly between the scale's stops.
    """
    t = 0.5 if vmax <= vmin else (value - vmin) / (vmax - vmin)
    t = float(np.clip(t, 0.0, 1.0)) * max_share
    positions = [p for p, _ in SEQUENTIAL_SCALE]
    colors = np.array([_to_rgb(c) for _, c in SEQUENTIAL_SCALE])
    rgb = [np.interp(t, positions, colors[:, k]) for k in range(3)]
    return _to_hex(rgb)
