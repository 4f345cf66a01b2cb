"""Decision regions of a classifier over two features: compute the grid (drawn apart).

:func:`compute_boundary` predicts class probabilities on a grid (through ``predict_proba``) and
collects the training and test points; :func:`~core.figures.boundary_plot.boundary_figure`
draws the regions, shaded by how sure the model is, with the points on top. A model fitted on
exactly the two plotted features gives its true regions. A model on more features has no
regions in a plane; it is shown either by its *stand-in*, the same estimator grown on the two
plotted features alone (exact regions of every class those two separate), or on a 2-D
*slice*, the other features held at the values of a traced sample (so its star sits in the
region of its own prediction), or at their training medians. A slice of a model that asks
mostly about other features is often one colour from edge to edge, points of every class on
it: the stand-in is the picture a class can read, the slice the one that follows one row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike

from core.figures._model import Classifier, FittedModel, FloatArray, IntArray, as_2d, encode_labels
from core.figures.boundary_grid import column_medians, grid_edges, grid_resolution, grid_rows
from core.figures.palette import purity

__all__ = ["BoundaryData", "BoundaryGrid", "BoundaryPoints", "compute_boundary", "grown_on_pair"]

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
    stand_in : str
        ``"tree"`` or ``"forest"`` when the regions are those of the model's stand-in (the
        same estimator grown on the two plotted features alone); empty when they are the
        model's own. ``base`` and :meth:`points` are then the stand-in's two columns.
    model_features : int
        How many features the model itself uses.
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
    stand_in: str = ""
    model_features: int = 2

    def points(self) -> FloatArray:
        """The model inputs of all grid points, shape ``(ny * nx, n_features)``, row-major."""
        return grid_rows(self.x, self.y, self.base, self.features)

    def cell_areas(self) -> FloatArray:
        """Each cell's share of the plotted area, shape ``(ny, nx)``, summing to 1.

        Cells of an exact grid differ in size, so a share of the picture (how much of it two
        models agree on, say) is an area-weighted average over cells, not a plain mean.
        """
        area = np.outer(np.diff(self.y_edges), np.diff(self.x_edges))
        return area / area.sum()


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


def _check_axes(
    features: tuple[int, int], n_features: int, X_test: ArrayLike | None, y_test: ArrayLike | None
) -> None:
    """Refuse a pair that is not two different columns, or test rows without their labels."""
    if len(features) != 2 or features[0] == features[1]:
        raise ValueError(f"features must be two different columns, got {features}")
    if not all(0 <= f < n_features for f in features):
        raise ValueError(
            f"features must be columns of X_train (0..{n_features - 1}), got {features}"
        )
    if (X_test is None) != (y_test is None):
        raise ValueError("X_test and y_test must be given together")


def _names(
    model: Classifier,
    n_features: int,
    feature_names: Sequence[str] | None,
    class_names: Sequence[str] | None,
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The columns' and the classes' names, checked against the data and the classifier.

    A boundary lies between two classes at least.
    """
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
    return names, labels


def _slice_base(
    X: FloatArray, through: ArrayLike | None, through_name: str
) -> tuple[FloatArray, str]:
    """The row every grid point starts from, and what it is in words.

    A slice through a traced sample shows, at that sample's point, exactly what the model
    predicts for it; without one, the training medians.
    """
    if through is None:
        return column_medians(X), "the medians"
    base = np.asarray(through, dtype=np.float64).reshape(-1)
    if base.shape != (X.shape[1],):
        raise ValueError(f"through must be one row of {X.shape[1]} values, got {base.shape}")
    return base, through_name or "the chosen sample"


def grown_on_pair(
    model: Any, X_train: ArrayLike, y_train: ArrayLike, features: tuple[int, int]
) -> Any:
    """The same estimator, with the same settings and seed, grown on two columns alone.

    A model on many features has no regions in a plane; this one has, and it is what the model
    would be had it been shown only these two features (the page's "grow on the two plotted
    features"). Seeded like the model, it is the same every time it is grown. ``model`` is
    any estimator with scikit-learn's ``get_params`` and ``fit``, as ours have.
    """
    columns = list(features)
    X = as_2d(X_train, "X_train")[:, columns]
    settings = model.get_params()
    if settings.get("oob_score"):  # its own out-of-bag score is never shown
        settings["oob_score"] = False
    return type(model)(**settings).fit(X, y_train)


def _stand_in_kind(model: FittedModel) -> str:
    return "forest" if hasattr(model, "estimators_") else "tree"


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
    stand_in: bool = False,
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
        cells), or, when a forest has more than
        :func:`~core.figures.boundary_grid.grid_resolution` of them on an axis, that many
        equal cells.
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
    stand_in : bool, default False
        On more than two columns, draw the model's stand-in instead of a slice
        (:func:`grown_on_pair`, the models of ``edges_from`` too): its exact regions, its
        points judged by it. ``through`` is then unused.

    Returns
    -------
    BoundaryData
    """
    X = as_2d(X_train, "X_train")
    n_features = X.shape[1]
    _check_axes(features, n_features, X_test, y_test)
    if not isinstance(model, Classifier):  # only a classifier has regions
        raise TypeError(f"model must be a fitted classifier, got {type(model).__name__}")
    names, labels = _names(model, n_features, feature_names, class_names)
    if stand_in and n_features > 2:
        pair = (int(features[0]), int(features[1]))
        columns = list(pair)
        own = compute_boundary(
            grown_on_pair(model, X, y_train, pair),
            X[:, columns],
            y_train,
            X_test=None if X_test is None else as_2d(X_test, "X_test")[:, columns],
            y_test=y_test,
            features=(0, 1),
            feature_names=[names[f] for f in pair],
            class_names=labels,
            train_ids=train_ids,
            test_ids=test_ids,
            resolution=resolution,
            margin=margin,
            edges_from=None
            if edges_from is None
            else [grown_on_pair(m, X, y_train, pair) for m in edges_from],
        )
        grid = replace(
            own.grid, features=pair, stand_in=_stand_in_kind(model), model_features=n_features
        )
        return BoundaryData(grid=grid, points=own.points)
    side = grid_resolution(model) if resolution is None else resolution
    if side < 2:
        raise ValueError(f"resolution must be >= 2, got {side}")
    X_all = X if X_test is None else np.vstack([X, as_2d(X_test, "X_test")])
    pair = (int(features[0]), int(features[1]))
    sources = [model] if edges_from is None else list(edges_from)
    x_edges, y_edges = grid_edges(sources, X_all, pair, side, margin, exact=resolution is None)
    x = (x_edges[:-1] + x_edges[1:]) / 2.0
    y = (y_edges[:-1] + y_edges[1:]) / 2.0
    base, through_words = _slice_base(X, through, through_name)
    proba = np.asarray(model.predict_proba(grid_rows(x, y, base, pair)), dtype=np.float64)
    proba = proba.reshape(len(y), len(x), len(labels))
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
        model_features=n_features,
    )
    points = [_points(model, X, y_train, grid.features, train_ids, "train")]
    if X_test is not None and y_test is not None:
        points.append(_points(model, as_2d(X_test), y_test, grid.features, test_ids, "test"))
    return BoundaryData(grid=grid, points=tuple(points))
