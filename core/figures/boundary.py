"""Decision regions of a classifier over two features: compute the grid, then draw it.

:func:`compute_boundary` predicts class probabilities on a grid (through ``predict_proba``) and
collects the training and test points; :func:`boundary_figure` draws the regions, shaded by how
sure the model is, with the points on top. A model fitted on exactly the two plotted features
gives its true regions; a model on more features is shown on a 2-D *slice*, the other features
held at the values of a traced sample (so its star sits in the region of its own prediction), or
at their training medians.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import plotly.graph_objects as go
from numpy.typing import ArrayLike

from core.figures._layout import build_figure, merge, styled_layout
from core.figures._model import (
    Classifier,
    FittedModel,
    FloatArray,
    IntArray,
    as_2d,
    encode_labels,
    n_trees,
    trees_of,
)
from core.figures.overlays import legend_below_layout
from core.figures.palette import BACKGROUND, FONT_COLOR, MUTED_COLOR, blend, class_color, purity
from core.figures.rules import Category, axis_title

__all__ = [
    "BoundaryData",
    "BoundaryGrid",
    "BoundaryPoints",
    "boundary_figure",
    "compute_boundary",
    "grid_resolution",
    "split_points",
]

Split = Literal["train", "test"]


@dataclass(frozen=True)
class BoundaryGrid:
    """Predictions on a grid of cells over two features.

    Attributes
    ----------
    features : tuple of int
        Columns of the model's input on the x and y axes.
    feature_names : tuple of str
        Their names (axis titles).
    class_names : tuple of str
        Names of ``classes_`` in order.
    x, y : ndarray of shape (nx,), (ny,)
        Cell centres along each axis.
    x_edges, y_edges : ndarray of shape (nx + 1,), (ny + 1,)
        Cell edges along each axis. For a tree or forest whose split points on the two
        features are few, the edges are those split points: every cell is then one constant
        region of the model, and the picture is exact rather than sampled.
    base : ndarray of shape (n_features,)
        The input row every grid point starts from (for a slice: a traced sample's row, or
        the training medians); the two plotted columns are then set to the grid values.
    proba : ndarray of shape (ny, nx, n_classes)
        ``predict_proba`` at each grid point.
    predicted : ndarray of shape (ny, nx)
        Index of the winning class, ``argmax(proba)``.
    confidence : ndarray of shape (ny, nx)
        :func:`~core.figures.palette.purity` of ``proba``: 0 where the classes tie, 1 where
        the model is sure.
    is_slice : bool
        The model uses more than the two plotted features.
    through : str
        What a slice holds the other features at, in words (``"test sample #3"``, or
        ``"the medians"``); empty when the view is not a slice.
    """

    features: tuple[int, int]
    feature_names: tuple[str, str]
    class_names: tuple[str, ...]
    x: FloatArray
    y: FloatArray
    x_edges: FloatArray
    y_edges: FloatArray
    base: FloatArray
    proba: FloatArray
    predicted: IntArray
    confidence: FloatArray
    is_slice: bool
    through: str = ""

    def points(self) -> FloatArray:
        """The model inputs of all grid points, shape ``(ny * nx, n_features)``, row-major."""
        return _grid_rows(self.x, self.y, self.base, self.features)

    def cell_areas(self) -> FloatArray:
        """Each cell's share of the plotted area, shape ``(ny, nx)``, summing to 1.

        Cells of an exact grid differ in size, so a share of the picture (how much of it two
        models agree on, say) is an area-weighted average over cells, not a plain mean.
        """
        area = np.outer(np.diff(self.y_edges), np.diff(self.x_edges))
        return area / area.sum()


def _grid_rows(
    x: FloatArray, y: FloatArray, base: FloatArray, features: tuple[int, int]
) -> FloatArray:
    xx, yy = np.meshgrid(x, y)
    rows = np.tile(base, (xx.size, 1))
    rows[:, features[0]] = xx.ravel()
    rows[:, features[1]] = yy.ravel()
    return rows


@dataclass(frozen=True)
class BoundaryPoints:
    """Samples drawn on the boundary, with their row ids for click-to-select."""

    split: Split
    x: FloatArray
    y: FloatArray
    label: IntArray
    predicted: IntArray
    row_id: IntArray


@dataclass(frozen=True)
class BoundaryData:
    """A grid and the points drawn over it."""

    grid: BoundaryGrid
    points: tuple[BoundaryPoints, ...]


def grid_resolution(
    model: FittedModel, *, budget: int = 2_500_000, minimum: int = 50, maximum: int = 150
) -> int:
    """Grid points per axis, fewer for models that cost more per prediction.

    ``side = sqrt(budget / n_trees)``, clipped to ``[minimum, maximum]``: a single tree and a
    100-tree forest get 150 x 150, a 500-tree forest 70 x 70. The cap is set by the browser,
    not by prediction: every cell travels to the page with its colour value, confidence and
    class name, and a 300 x 300 grid was 3.2 MB of chart data and 130 ms of Plotly work per
    redraw, against 0.8 MB and 15 ms at 150 x 150. Prediction itself is cheap: the 100-tree
    iris grid takes about 4 ms with our engine's ``predict_proba``.
    """
    side = int(np.sqrt(budget / max(n_trees(model), 1)))
    return int(np.clip(side, minimum, maximum))


def _limits(values: FloatArray, margin: float) -> tuple[float, float]:
    """The range of the values present (missing ones, NaN, have no place on an axis)."""
    present = values[~np.isnan(values)]
    if present.size == 0:
        return 0.0 - margin, 1.0 + margin
    low, high = float(present.min()), float(present.max())
    pad = margin * (high - low) if high > low else 0.5
    return low - pad, high + pad


def _medians(X: FloatArray) -> FloatArray:
    """Each column's median over its present values (NaN for a column with none: the grid's
    rows then follow the trees' way for missing values)."""
    present = ~np.isnan(X)
    return np.array(
        [
            np.median(X[present[:, j], j]) if present[:, j].any() else np.nan
            for j in range(X.shape[1])
        ]
    )


def _uniform_edges(values: FloatArray, n: int, margin: float) -> FloatArray:
    """``n`` equal cells over the data's range plus the margin."""
    low, high = _limits(values, margin)
    return np.linspace(low, high, n + 1)


def split_points(models: Sequence[FittedModel], feature: int) -> FloatArray:
    """Sorted distinct thresholds that the trees of ``models`` use on ``feature``.

    ``models`` are fitted trees or forests of ours; a forest contributes all its trees.
    """
    cuts = [np.zeros(0)]
    for model in models:
        for tree in trees_of(model):
            t = tree.tree_
            cuts.append(t.threshold[~t.is_leaf & (t.feature == feature)])
    return np.unique(np.concatenate(cuts))


def _exact_edges(
    models: Sequence[FittedModel], feature: int, values: FloatArray, margin: float, maximum: int
) -> FloatArray | None:
    """Cell edges at the models' split points on ``feature``, or None if there are too many."""
    low, high = _limits(values, margin)
    cuts = split_points(models, feature)
    cuts = cuts[(cuts > low) & (cuts < high)]
    if cuts.size + 1 > maximum:
        return None
    return np.concatenate([[low], cuts, [high]])


def _points(
    model: Classifier,
    X: FloatArray,
    y: ArrayLike,
    features: tuple[int, int],
    ids: ArrayLike | None,
    split: Split,
) -> BoundaryPoints:
    classes = np.asarray(model.classes_)
    row_id = np.arange(len(X)) if ids is None else np.asarray(ids)
    if len(row_id) != len(X) or len(np.asarray(y)) != len(X):
        raise ValueError(f"{split} rows, labels and ids must have the same length")
    return BoundaryPoints(
        split=split,
        x=X[:, features[0]].copy(),
        y=X[:, features[1]].copy(),
        label=encode_labels(classes, y),
        predicted=encode_labels(classes, model.predict(X)),
        row_id=row_id.astype(np.intp),
    )


def compute_boundary(
    model: FittedModel,
    X_train: ArrayLike,
    y_train: ArrayLike,
    *,
    X_test: ArrayLike | None = None,
    y_test: ArrayLike | None = None,
    features: tuple[int, int] = (0, 1),
    feature_names: Sequence[str] | None = None,
    class_names: Sequence[str] | None = None,
    train_ids: ArrayLike | None = None,
    test_ids: ArrayLike | None = None,
    resolution: int | None = None,
    margin: float = 0.05,
    edges_from: Sequence[FittedModel] | None = None,
    through: ArrayLike | None = None,
    through_name: str = "",
) -> BoundaryData:
    """Predict class probabilities on a grid over two features, and collect the points.

    Parameters
    ----------
    model : fitted classifier of ours, tree or forest
        Read through ``predict_proba``, ``classes_`` and its trees' split points.
    X_train, y_train : array-like of shape (n, n_features), (n,)
        The model's training data; with more than two columns the grid is a slice: the other
        features are held at ``through``'s values, or at their training medians.
    X_test, y_test : array-like, optional
        Test data, drawn hollow.
    features : tuple of int, default (0, 1)
        Columns on the x and y axes.
    feature_names, class_names : sequence of str, optional
        Names of all columns and of ``classes_``; defaults ``x[i]`` and ``str(class)``.
    train_ids, test_ids : array-like of int, optional
        Row ids carried by the points (default ``0..n-1``).
    resolution : int, optional
        Grid cells per axis, equally spaced. By default the cells run between the split
        points the trees use on the two features (exact regions, usually a few hundred
        cells), or, when a forest has more than :func:`grid_resolution` of them on an axis,
        :func:`grid_resolution` equal cells.
    margin : float, default 0.05
        Padding around the data, as a share of each axis's range.
    edges_from : sequence of models, optional
        Whose split points make the exact grid (default: ``model`` alone). Give two models the
        same ``edges_from`` to draw them on one common grid and compare them cell by cell.
    through : array-like of shape (n_features,), optional
        The row a slice passes through, usually the sample being traced: the model then
        predicts, at that sample's point of the picture, exactly what it predicts for the
        sample. Default: the training medians (on many features these can sit in one class's
        region everywhere, so a slice through a real sample is the better picture).
    through_name : str, default ""
        That row in words, for the title (``"test sample #3"``).

    Returns
    -------
    BoundaryData
    """
    X = as_2d(X_train, "X_train")
    n_features = X.shape[1]
    if len(features) != 2 or features[0] == features[1]:
        raise ValueError(f"features must be two different columns, got {features}")
    if not all(0 <= f < n_features for f in features):
        raise ValueError(
            f"features must be columns of X_train (0..{n_features - 1}), got {features}"
        )
    if (X_test is None) != (y_test is None):
        raise ValueError("X_test and y_test must be given together")
    if not isinstance(model, Classifier):
        raise TypeError(f"model must be a fitted classifier, got {type(model).__name__}")
    classes = np.asarray(model.classes_)
    n_classes = len(classes)
    if n_classes < 2:
        raise ValueError(f"the model must know at least 2 classes, got {n_classes}")
    names = (
        tuple(feature_names)
        if feature_names is not None
        else tuple(f"x[{i}]" for i in range(n_features))
    )
    if len(names) != n_features:
        raise ValueError(f"feature_names must have {n_features} names, got {len(names)}")
    labels = tuple(str(c) for c in (classes if class_names is None else class_names))
    if len(labels) != n_classes:
        raise ValueError(f"class_names must have {n_classes} names, got {len(labels)}")
    side = grid_resolution(model) if resolution is None else resolution
    if side < 2:
        raise ValueError(f"resolution must be >= 2, got {side}")

    X_all = X if X_test is None else np.vstack([X, as_2d(X_test, "X_test")])
    pair = (int(features[0]), int(features[1]))
    sources = [model] if edges_from is None else list(edges_from)
    exact = [
        None if resolution is not None else _exact_edges(sources, f, X_all[:, f], margin, side)
        for f in pair
    ]
    if exact[0] is not None and exact[1] is not None:
        x_edges, y_edges = exact[0], exact[1]
    else:
        x_edges = _uniform_edges(X_all[:, pair[0]], side, margin)
        y_edges = _uniform_edges(X_all[:, pair[1]], side, margin)
    x = (x_edges[:-1] + x_edges[1:]) / 2.0
    y = (y_edges[:-1] + y_edges[1:]) / 2.0
    if through is None:
        base = _medians(X)
        through_words = "the medians"
    else:
        base = np.asarray(through, dtype=np.float64).reshape(-1)
        if base.shape != (n_features,):
            raise ValueError(f"through must be one row of {n_features} values, got {base.shape}")
        through_words = through_name or "the chosen sample"
    rows = _grid_rows(x, y, base, pair)
    proba = np.asarray(model.predict_proba(rows), dtype=np.float64)
    proba = proba.reshape(len(y), len(x), n_classes)
    grid = BoundaryGrid(
        features=pair,
        feature_names=(names[pair[0]], names[pair[1]]),
        class_names=labels,
        x=x,
        y=y,
        x_edges=x_edges,
        y_edges=y_edges,
        base=base,
        proba=proba,
        predicted=np.argmax(proba, axis=2).astype(np.intp),
        confidence=purity(proba),
        is_slice=n_features > 2,
        through=through_words if n_features > 2 else "",
    )
    points = [_points(model, X, y_train, grid.features, train_ids, "train")]
    if X_test is not None and y_test is not None:
        points.append(_points(model, as_2d(X_test), y_test, grid.features, test_ids, "test"))
    return BoundaryData(grid=grid, points=tuple(points))


# Region shading: a share of the class colour between these, by confidence. Light enough that
# points in the class colour stand out on their own region.
_REGION_MIN = 0.10
_REGION_MAX = 0.50


def _region_colorscale(n_classes: int) -> list[tuple[float, str]]:
    scale: list[tuple[float, str]] = []
    for k in range(n_classes):
        color = class_color(k)
        scale.append((k / n_classes, blend(color, _REGION_MIN)))
        scale.append(((k + 1) / n_classes, blend(color, _REGION_MAX)))
    return scale


def _legend_only(name: str, marker: dict[str, object]) -> dict[str, Any]:
    return {
        "type": "scatter",
        "x": [None],
        "y": [None],
        "mode": "markers",
        "name": name,
        "marker": marker,
    }


def boundary_figure(
    data: BoundaryData,
    *,
    title: str | None = None,
    height: int = 560,
    categories: tuple[Category, Category] = (None, None),
    legend_below: bool = False,
) -> go.Figure:
    """Draw decision regions and points.

    Regions take the winning class's colour, stronger where the model is surer. Training points
    are filled, test points hollow, misclassified points carry a dark cross. Each point's
    ``customdata`` is its row id, so a click can select the sample.

    Parameters
    ----------
    data : BoundaryData
        From :func:`compute_boundary`.
    title : str, optional
        Default names the features, and says so when the view is a slice.
    height : int, default 560
        Height in pixels.
    categories : pair of (str, str) or None, default (None, None)
        For each axis, ``(text column, level)`` when the feature is a one-hot 0/1 column: the
        axis is titled ``sex is female`` and its ticks read "no" (0) and "yes" (1).
    legend_below : bool, default False
        The legend flat under the plot (:func:`~core.figures.overlays.legend_below_layout`).

    Returns
    -------
    plotly.graph_objects.Figure
    """
    grid = data.grid
    n_classes = len(grid.class_names)
    # z = class index + confidence, so one colour scale holds every class's light-to-strong ramp.
    # Rounded to 3 decimals: invisible in the colours, and it halves the chart data sent.
    z = np.round(grid.predicted + np.minimum(grid.confidence, 0.999), 3)
    winner = np.asarray(grid.class_names, dtype=object)[grid.predicted]
    traces: list[dict[str, Any]] = [
        {
            "type": "heatmap",
            "x": grid.x_edges,  # one more edge than cells: Plotly draws each cell between them
            "y": grid.y_edges,
            "z": z,
            "zmin": 0,
            "zmax": n_classes,
            "colorscale": _region_colorscale(n_classes),
            "showscale": False,
            "text": winner,
            "customdata": np.round(grid.proba.max(axis=2), 3),
            "hovertemplate": "region: %{text}<br>p = %{customdata:.2f}<extra></extra>",
            "name": "regions",
        }
    ]
    for points in data.points:
        hollow = points.split == "test"
        # On a slice a point's own row is not on the picture's plane: its region there need not
        # be the class the model gives it. So it takes the colour of that class, and a cross
        # still marks exactly the mistakes the scores count (issue 24).
        shown_as = points.predicted if grid.is_slice else points.label
        for k in range(n_classes):
            mask = shown_as == k
            if not mask.any():
                continue
            color = class_color(k)
            marker = {
                "size": 10 if hollow else 9,
                "color": BACKGROUND if hollow else color,
                "line": {"color": color if hollow else FONT_COLOR, "width": 2.5 if hollow else 1},
            }
            traces.append(
                {
                    "type": "scatter",
                    "x": points.x[mask],
                    "y": points.y[mask],
                    "mode": "markers",
                    "marker": marker,
                    "name": grid.class_names[k],
                    "legendgroup": grid.class_names[k],
                    "showlegend": not hollow,
                    "customdata": points.row_id[mask],
                    "text": np.asarray(grid.class_names, dtype=object)[points.label[mask]],
                    "hovertemplate": f"row %{{customdata}} ({points.split})<br>"
                    f"class: %{{text}}<br>predicted: {grid.class_names[k]}<extra></extra>"
                    if grid.is_slice
                    else f"row %{{customdata}} ({points.split})<br>"
                    f"class: {grid.class_names[k]}<extra></extra>",
                }
            )
    wrong_x = np.concatenate([p.x[p.label != p.predicted] for p in data.points])
    wrong_y = np.concatenate([p.y[p.label != p.predicted] for p in data.points])
    wrong_id = np.concatenate([p.row_id[p.label != p.predicted] for p in data.points])
    cross = {"symbol": "x-thin", "size": 13, "line": {"color": FONT_COLOR, "width": 2.5}}
    traces.append(
        {
            "type": "scatter",
            "x": wrong_x,
            "y": wrong_y,
            "mode": "markers",
            "marker": cross,
            "name": "misclassified",
            "customdata": wrong_id,
            "hovertemplate": "row %{customdata}: misclassified<extra></extra>",
        }
    )
    traces.append(_legend_only("training point", {"size": 9, "color": MUTED_COLOR}))
    if len(data.points) > 1:
        hollow_marker = {
            "size": 10,
            "color": BACKGROUND,
            "line": {"color": MUTED_COLOR, "width": 2.5},
        }
        traces.append(_legend_only("test point", hollow_marker))
    x_name, y_name = (axis_title(n, c) for n, c in zip(grid.feature_names, categories, strict=True))
    if title is None:
        title = f"Decision regions: {x_name} vs {y_name}"
    if grid.is_slice:
        # Short lines: the title must fit a phone's width and a half-width column.
        held = f"other features held at {grid.through}; dots coloured by prediction"
        title = f"{title}<br><sup>A slice: {held}</sup>" if title else f"A slice: {held}"
    layout = styled_layout(title=title, x_title=x_name, y_title=y_name, height=height)
    yes_no = {"tickmode": "array", "tickvals": [0, 1], "ticktext": ["no", "yes"]}
    # The axes end where the outer cells end (a tree that never splits on a feature has one
    # cell across that axis).
    for axis, category, edges in (
        ("xaxis", categories[0], grid.x_edges),
        ("yaxis", categories[1], grid.y_edges),
    ):
        if category is not None:
            layout[axis].update(yes_no)
        layout[axis].update(range=[edges[0], edges[-1]], showgrid=False)
    if legend_below:
        merge(layout, legend_below_layout(layout["height"], layout["margin"]["t"]))
    return build_figure(traces, layout)
