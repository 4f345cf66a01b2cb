"""Feature importances as sorted horizontal bars, with their uncertainty across a forest."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go

from core.figures._layout import build_figure, styled_layout, wrap_text
from core.figures._model import FittedModel, FloatArray, is_forest, trees_of
from core.figures.palette import EDGE_COLOR, LINE_COLORS

__all__ = ["Importances", "compute_importances", "importance_figure", "wrap_name"]

#: Characters per line of a bar's name; longer names wrap so the bars keep their room.
NAME_WIDTH = 16


@dataclass(frozen=True)
class Importances:
    """Feature importances, largest first.

    Attributes
    ----------
    names : tuple of str
        Feature names, sorted by importance (largest first; ties keep column order).
    values : ndarray of shape (n_shown,)
        ``feature_importances_`` (mean decrease in impurity, summing to 1 over all features).
    spread : ndarray of shape (n_shown,) or None
        For a forest, the standard error of the mean of the trees' own importances
        (``std / sqrt(n_trees)``), drawn as error bars; None for a single tree.
    hidden : int
        Features left out by ``top``.
    """

    names: tuple[str, ...]
    values: FloatArray
    spread: FloatArray | None
    hidden: int


def compute_importances(
    model: FittedModel, *, feature_names: Sequence[str] | None = None, top: int | None = None
) -> Importances:
    """Sort a fitted model's ``feature_importances_``.

    Parameters
    ----------
    model : fitted tree or forest of ours
    feature_names : sequence of str, optional
        Default ``x[0]``, ``x[1]``...
    top : int, optional
        Keep only the ``top`` most important features.

    Returns
    -------
    Importances
    """
    values = np.asarray(model.feature_importances_, dtype=np.float64)
    names = (
        list(feature_names)
        if feature_names is not None
        else [f"x[{i}]" for i in range(len(values))]
    )
    if len(names) != len(values):
        raise ValueError(f"feature_names must have {len(values)} names, got {len(names)}")
    if top is not None and top < 1:
        raise ValueError(f"top must be None or >= 1, got {top}")
    order = np.argsort(-values, kind="stable")
    spread = None
    if is_forest(model):
        per_tree = np.array([t.feature_importances_ for t in trees_of(model)])
        spread = per_tree.std(axis=0)[order] / np.sqrt(len(per_tree))
    keep = len(order) if top is None else min(top, len(order))
    return Importances(
        names=tuple(names[i] for i in order[:keep]),
        values=values[order][:keep],
        spread=None if spread is None else spread[:keep],
        hidden=len(order) - keep,
    )


def wrap_name(name: str, width: int = NAME_WIDTH) -> str:
    """``name`` in lines of about ``width`` characters, joined by ``<br>`` for Plotly.

    Lines break after a space, ``_`` or ``/`` (``od280/od315_of_diluted_wines`` becomes
    ``od280/od315_of_<br>diluted_wines``); a word longer than ``width`` is cut at ``width``.
    Every character is kept, in order, except a space where a line breaks.
    """
    return wrap_text(name, width)


def importance_figure(
    importances: Importances, *, title: str | None = None, height: int | None = None
) -> go.Figure:
    """Horizontal bars, the most important feature on top.

    Long names wrap over lines (:func:`wrap_name`; the full name shows on hover), and the
    height grows with the number of bars and of extra lines.

    Parameters
    ----------
    importances : Importances
    title : str, optional
        Default ``"Feature importance (mean decrease in impurity)"``.
    height : int, optional
        Default grows with the number of bars.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    error = None
    if importances.spread is not None:
        error = {"type": "data", "array": importances.spread[::-1], "color": EDGE_COLOR}
    bars: dict[str, Any] = {
        "type": "bar",
        "x": importances.values[::-1],
        "y": [wrap_name(name) for name in importances.names[::-1]],
        "customdata": list(importances.names[::-1]),
        "orientation": "h",
        "marker": {"color": LINE_COLORS[0]},
        "hovertemplate": "%{customdata}: %{x:.3f}<extra></extra>",
        "name": "importance",
    }
    if error is not None:  # None leaves it unset, as Plotly does
        bars["error_x"] = error
    extra_lines = sum(wrap_name(name).count("<br>") for name in importances.names)
    if title is None:
        title = "Feature importance (mean decrease in impurity)"
        if importances.hidden:
            title += f", top {len(importances.names)}"
    layout = styled_layout(
        title=title,
        x_title="importance",
        y_title="",
        height=height or 140 + 34 * len(importances.names) + 16 * extra_lines,
    )
    layout["yaxis"].update(showgrid=False, automargin=True)
    return build_figure([bars], layout)
