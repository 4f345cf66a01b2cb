"""Regression predictions along one feature: the piecewise-constant steps over the scatter.

:func:`compute_regression_lines` predicts with one or several models (trees of depth 1, 2, 4
and 8; a tree against a forest) on a fine grid along one feature; :func:`regression_figure` draws
the steps over the training (filled) and test (hollow) points.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go
from numpy.typing import ArrayLike

from core.figures._layout import build_figure, merge, styled_layout
from core.figures._model import FittedModel, FloatArray, IntArray, as_2d, n_trees
from core.figures.overlays import legend_below_layout
from core.figures.palette import BACKGROUND, LINE_COLORS, MUTED_COLOR

__all__ = ["RegressionLines", "RegressionPoints", "compute_regression_lines", "regression_figure"]

_DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")


@dataclass(frozen=True)
class RegressionPoints:
    """Samples drawn as a scatter, with their row ids for click-to-select."""

    split: str
    x: FloatArray
    y: FloatArray
    row_id: IntArray


@dataclass(frozen=True)
class RegressionLines:
    """Predictions of several models along one feature.

    Attributes
    ----------
    feature : int
        Column on the x axis.
    feature_name : str
        Its name.
    x : ndarray of shape (n_grid,)
        Grid along the feature.
    names : tuple of str
        One name per model (legend).
    predictions : ndarray of shape (n_models, n_grid)
        Each model's prediction on the grid.
    is_slice : bool
        The models use more than one feature; the others are held at their training medians.
    points : tuple of RegressionPoints
        Training points, then test points when given.
    """

    feature: int
    feature_name: str
    x: FloatArray
    names: tuple[str, ...]
    predictions: FloatArray
    is_slice: bool
    points: tuple[RegressionPoints, ...]


def _scatter(
    X: FloatArray, y: ArrayLike, feature: int, ids: ArrayLike | None, split: str
) -> RegressionPoints:
    row_id = np.arange(len(X)) if ids is None else np.asarray(ids)
    target = np.asarray(y, dtype=np.float64)
    if len(row_id) != len(X) or len(target) != len(X):
        raise ValueError(f"{split} rows, targets and ids must have the same length")
    return RegressionPoints(split, X[:, feature].copy(), target, row_id.astype(np.intp))


def compute_regression_lines(
    models: Mapping[str, FittedModel],
    X_train: ArrayLike,
    y_train: ArrayLike,
    *,
    X_test: ArrayLike | None = None,
    y_test: ArrayLike | None = None,
    feature: int = 0,
    feature_name: str | None = None,
    train_ids: ArrayLike | None = None,
    test_ids: ArrayLike | None = None,
    n_grid: int | None = None,
    margin: float = 0.02,
) -> RegressionLines:
    """Predict with each model along one feature.

    Parameters
    ----------
    models : mapping of str to fitted regressor (tree or forest of ours)
        Legend name -> model, drawn in this order (for example ``{"depth 1": ..., ...}``).
    X_train, y_train : array-like of shape (n, n_features), (n,)
        Training data; extra columns are held at their medians on the grid.
    X_test, y_test : array-like, optional
        Test data, drawn hollow.
    feature : int, default 0
        Column on the x axis.
    feature_name : str, optional
        Default ``x[feature]``.
    train_ids, test_ids : array-like of int, optional
        Row ids carried by the points (default ``0..n-1``).
    n_grid : int, optional
        Grid points; default 1000, fewer (down to 200) for large forests.
    margin : float, default 0.02
        Padding beyond the data, as a share of the range.

    Returns
    -------
    RegressionLines
    """
    if not models:
        raise ValueError("models must name at least one fitted regressor")
    X = as_2d(X_train, "X_train")
    if not 0 <= feature < X.shape[1]:
        raise ValueError(
            f"feature must be a column of X_train (0..{X.shape[1] - 1}), got {feature}"
        )
    if (X_test is None) != (y_test is None):
        raise ValueError("X_test and y_test must be given together")
    if n_grid is None:
        total_trees = sum(n_trees(m) for m in models.values())
        n_grid = int(np.clip(200_000 // max(total_trees, 1), 200, 1000))
    if n_grid < 2:
        raise ValueError(f"n_grid must be >= 2, got {n_grid}")
    X_all = X if X_test is None else np.vstack([X, as_2d(X_test, "X_test")])
    low, high = float(X_all[:, feature].min()), float(X_all[:, feature].max())
    pad = margin * (high - low) if high > low else 0.5
    grid_x = np.linspace(low - pad, high + pad, n_grid)
    rows = np.tile(np.median(X, axis=0), (n_grid, 1))
    rows[:, feature] = grid_x
    predictions = np.vstack(
        [np.asarray(m.predict(rows), dtype=np.float64) for m in models.values()]
    )
    points = [_scatter(X, y_train, feature, train_ids, "train")]
    if X_test is not None and y_test is not None:
        points.append(_scatter(as_2d(X_test, "X_test"), y_test, feature, test_ids, "test"))
    return RegressionLines(
        feature=feature,
        feature_name=feature_name or f"x[{feature}]",
        x=grid_x,
        names=tuple(models),
        predictions=predictions,
        is_slice=X.shape[1] > 1,
        points=tuple(points),
    )


def regression_figure(
    lines: RegressionLines,
    *,
    title: str | None = None,
    target_name: str = "y",
    height: int = 500,
    legend_below: bool = False,
) -> go.Figure:
    """Draw each model's steps over the training (filled) and test (hollow) points.

    Each point's ``customdata`` is its row id, so a click can select the sample.

    Parameters
    ----------
    lines : RegressionLines
        From :func:`compute_regression_lines`.
    title : str, optional
        Default ``"Predictions along <feature>"`` (and says so when it is a slice).
    target_name : str, default "y"
        Title of the y axis.
    height : int, default 500
        Height in pixels.
    legend_below : bool, default False
        The legend flat under the plot (:func:`~core.figures.overlays.legend_below_layout`).

    Returns
    -------
    plotly.graph_objects.Figure
    """
    traces: list[dict[str, Any]] = []
    for points in lines.points:
        hollow = points.split == "test"
        marker = {
            "size": 8,
            "color": BACKGROUND if hollow else MUTED_COLOR,
            "line": {"color": MUTED_COLOR if hollow else "#6B6B6B", "width": 2 if hollow else 1},
        }
        traces.append(
            {
                "type": "scatter",
                "x": points.x,
                "y": points.y,
                "mode": "markers",
                "marker": marker,
                "name": f"{points.split} points",
                "customdata": points.row_id,
                "hovertemplate": f"row %{{customdata}} ({points.split})<br>"
                f"{lines.feature_name} = %{{x:.3f}}<br>{target_name} = %{{y:.3f}}<extra></extra>",
            }
        )
    for k, (name, prediction) in enumerate(zip(lines.names, lines.predictions, strict=True)):
        traces.append(
            {
                "type": "scatter",
                "x": lines.x,
                "y": prediction,
                "mode": "lines",
                "line": {
                    "color": LINE_COLORS[k % len(LINE_COLORS)],
                    "width": 3,
                    "shape": "hv",
                    "dash": _DASHES[k % len(_DASHES)],
                },
                "name": name,
                "hovertemplate": f"{name}: %{{y:.3f}}<extra></extra>",
            }
        )
    if title is None:
        title = f"Predictions along {lines.feature_name}"
        if lines.is_slice:
            title += " (other features at their medians)"
    layout = styled_layout(
        title=title, x_title=lines.feature_name, y_title=target_name, height=height
    )
    if legend_below:
        merge(layout, legend_below_layout(layout["height"], layout["margin"]["t"]))
    return build_figure(traces, layout)
