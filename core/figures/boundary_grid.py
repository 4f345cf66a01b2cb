"""Where the boundary's grid cells go, and the model inputs of its points.

A tree's regions are rectangles between its split points, so cells cut at those points are
each one constant region and the picture is exact; with too many split points (a large forest)
the cells are equal instead, as many as :func:`grid_resolution` allows.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from core.figures._model import FittedModel, FloatArray, n_trees, trees_of

__all__ = [
    "column_medians",
    "exact_edges",
    "grid_edges",
    "grid_resolution",
    "grid_rows",
    "split_points",
    "uniform_edges",
]


def grid_rows(
    x: FloatArray, y: FloatArray, base: FloatArray, features: tuple[int, int]
) -> FloatArray:
    """The model inputs of a grid's points, row-major: ``base`` with the two plotted columns set.

    Every other column keeps ``base``'s value, so on many features the grid is a slice.
    """
    xx, yy = np.meshgrid(x, y)
    rows = np.tile(base, (xx.size, 1))
    rows[:, features[0]] = xx.ravel()
    rows[:, features[1]] = yy.ravel()
    return rows


def grid_resolution(
    model: FittedModel, *, budget: int = 2_500_000, minimum: int = 50, maximum: int = 150
) -> int:
    """Grid points per axis, fewer for models that cost more per prediction.

    ``side = sqrt(budget / n_trees)``, clipped to ``[minimum, maximum]``: a single tree and a
    100-tree forest get 150 x 150, a 500-tree forest 70 x 70. The cap is set by the browser,
    not by prediction: every cell travels to the page with its colour value, confidence and
    class name, so the chart data and Plotly's work on every redraw grow with the number of
    cells, while predicting the grid stays cheap.
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


def column_medians(X: FloatArray) -> FloatArray:
    """Each column's median over its present values (NaN for a column with none: the grid's
    rows then follow the trees' way for missing values)."""
    present = ~np.isnan(X)
    return np.array(
        [
            np.median(X[present[:, j], j]) if present[:, j].any() else np.nan
            for j in range(X.shape[1])
        ]
    )


def uniform_edges(values: FloatArray, n: int, margin: float) -> FloatArray:
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


def exact_edges(
    models: Sequence[FittedModel], feature: int, values: FloatArray, margin: float, maximum: int
) -> FloatArray | None:
    """Cell edges at the models' split points on ``feature``, or None if there are too many."""
    low, high = _limits(values, margin)
    cuts = split_points(models, feature)
    cuts = cuts[(cuts > low) & (cuts < high)]
    if cuts.size + 1 > maximum:
        return None
    return np.concatenate([[low], cuts, [high]])


def grid_edges(
    models: Sequence[FittedModel],
    X: FloatArray,
    features: tuple[int, int],
    side: int,
    margin: float,
    *,
    exact: bool,
) -> tuple[FloatArray, FloatArray]:
    """Cell edges along both axes: the models' split points when ``exact`` and both axes have
    at most ``side`` cells of them, else ``side`` equal cells on each axis.

    One exact axis beside an equal one would draw neither picture, so both go together.
    """
    cuts = [exact_edges(models, f, X[:, f], margin, side) if exact else None for f in features]
    if cuts[0] is not None and cuts[1] is not None:
        return cuts[0], cuts[1]
    return (
        uniform_edges(X[:, features[0]], side, margin),
        uniform_edges(X[:, features[1]], side, margin),
    )
