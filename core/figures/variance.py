"""Why a forest beats one tree: K trees, each grown on its own resample, drawn over each other.

A deep tree follows its training rows closely, so trees grown on different resamples of the
same data differ wildly (variance); their average is steady. This module takes the K trees'
predictions (computed by the caller, as a forest's ``predict_per_tree`` gives them) and works
out what a class should see:

* regression: each tree's staircase, their mean, and the split of the trees' mean squared
  error on the test rows into the average's own error and the trees' spread around it;
* classification: each tree's boundary, how much the trees disagree at each point of the plane,
  and how often two trees give a test row the same class;
* for both: the test error of the average of the first k trees, k = 1..K, against one tree's.

The decomposition is exact on the rows it is measured on. With ``P[k, i]`` tree k's prediction
for test row i, ``m[i]`` their mean and ``y[i]`` the truth,

    mean_k mean_i (y_i - P_ki)^2  =  mean_i (y_i - m_i)^2  +  mean_i mean_k (P_ki - m_i)^2
    (the trees' error)             (the average's error)    (variance)

and, where the noise-free curve ``f`` is known (the generated sine), the average's error splits
into ``bias^2 = mean_i (f_i - m_i)^2``, ``noise = mean_i (y_i - f_i)^2`` and what is left,
``2 mean_i (y_i - f_i)(f_i - m_i)``, which is zero on average and small on any one test set.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go

from core.data.datasets import Task
from core.figures._layout import axis_style, build_figure, merge, styled_layout
from core.figures.overlays import legend_below_layout
from core.figures.palette import FONT_COLOR, LINE_COLORS, MUTED_COLOR, class_color

__all__ = [
    "Decomposition",
    "Spread",
    "averaging_figure",
    "compute_spread",
    "decomposition",
    "decomposition_figure",
    "spread_figure",
]

FloatArray = np.ndarray


@dataclass(frozen=True)
class Decomposition:
    """The trees' mean squared error on the test rows, taken apart (see the module).

    Attributes
    ----------
    trees_error : float
        ``mean_k mean_i (y_i - P_ki)^2``: what one tree gets wrong, on average.
    average_error : float
        ``mean_i (y_i - m_i)^2``: what their average gets wrong.
    variance : float
        ``mean_i mean_k (P_ki - m_i)^2``: how far the trees stray from their average.
    bias2, noise, rest : float or None
        The average's error split where the noise-free curve is known, else None:
        ``bias2 + noise + rest == average_error``.
    """

    trees_error: float
    average_error: float
    variance: float
    bias2: float | None = None
    noise: float | None = None
    rest: float | None = None


def decomposition(
    per_tree: FloatArray, y: FloatArray, truth: FloatArray | None = None
) -> Decomposition:
    """Take the trees' squared error apart.

    Parameters
    ----------
    per_tree : ndarray of shape (n_trees, n_rows)
        Each tree's prediction for each test row.
    y : ndarray of shape (n_rows,)
        The test rows' targets.
    truth : ndarray of shape (n_rows,), optional
        The noise-free value at each test row, when the data were generated from a known curve.
    """
    P = np.asarray(per_tree, dtype=float)
    target = np.asarray(y, dtype=float)
    mean = P.mean(axis=0)
    trees_error = float(np.mean((target[None, :] - P) ** 2))
    average_error = float(np.mean((target - mean) ** 2))
    variance = float(np.mean((P - mean[None, :]) ** 2))
    if truth is None:
        return Decomposition(trees_error, average_error, variance)
    f = np.asarray(truth, dtype=float)
    bias2 = float(np.mean((f - mean) ** 2))
    noise = float(np.mean((target - f) ** 2))
    rest = float(2.0 * np.mean((target - f) * (f - mean)))
    return Decomposition(trees_error, average_error, variance, bias2, noise, rest)


@dataclass(frozen=True)
class Spread:
    """What K resampled trees say, ready to draw.

    Attributes
    ----------
    task : {"classification", "regression"}
    n_trees : int
        K.
    feature_names : tuple of str
        The plotted feature (regression) or pair (classification).
    class_names : tuple of str
        Empty for regression.
    xs, ys : ndarray
        Grid: x positions (n_x,), and for classification y positions (n_y,).
    tree_values : ndarray
        Regression: each tree's prediction over ``xs``, shape (K, n_x). Classification: each
        tree's class (an index into ``class_names``) at each grid point, shape (K, n_y, n_x).
    average : ndarray
        Regression: the mean of the trees over ``xs``, (n_x,). Classification: the class of
        the averaged class shares (the forest's rule), (n_y, n_x).
    disagreement : ndarray or None
        Classification: ``1 - (share of the trees voting for the most voted class)`` at each
        grid point, (n_y, n_x); 0 where all agree. None for regression.
    test_x, test_y : ndarray
        The test rows to plot: (n, 1) or (n, 2) feature values, and their targets or classes.
    error_by_k : ndarray of shape (K,)
        Test error (1 - accuracy, or mean squared error) of the average of the first k trees.
    tree_error : float
        One tree's test error, averaged over the K trees.
    agreement : float or None
        Classification: the share of (pair of trees, test row) where both trees give the same
        class; None with one tree or for regression.
    parts : Decomposition or None
        Regression only.
    """

    task: Task
    n_trees: int
    feature_names: tuple[str, ...]
    class_names: tuple[str, ...]
    xs: FloatArray
    ys: FloatArray
    tree_values: FloatArray
    average: FloatArray
    disagreement: FloatArray | None
    test_x: FloatArray
    test_y: FloatArray
    error_by_k: FloatArray
    tree_error: float
    agreement: float | None
    parts: Decomposition | None


def compute_spread(
    task: Task,
    *,
    grid_values: FloatArray,
    test_values: FloatArray,
    X_test: FloatArray,
    y_test: FloatArray,
    xs: FloatArray,
    ys: FloatArray | None = None,
    feature_names: tuple[str, ...],
    class_names: tuple[str, ...] = (),
    truth: FloatArray | None = None,
) -> Spread:
    """Everything :class:`Spread` holds, from the trees' predictions.

    Parameters
    ----------
    task : {"classification", "regression"}
    grid_values : ndarray
        Each tree's prediction over the grid: regression (K, n_x), values over ``xs``;
        classification (K, n_y * n_x, n_classes), class shares at the grid points in row-major
        order (y outer, x inner).
    test_values : ndarray
        The same for the test rows: (K, n) or (K, n, n_classes).
    X_test, y_test : ndarray
        The test rows (the plotted columns) and their targets (class indices to classify).
    xs, ys : ndarray
        The grid's axes; ``ys`` only to classify.
    feature_names, class_names : tuple of str
    truth : ndarray of shape (n,), optional
        The noise-free value at each test row (regression on generated data).
    """
    grid = np.asarray(grid_values, dtype=float)
    tests = np.asarray(test_values, dtype=float)
    n_trees = int(grid.shape[0])
    counts = np.arange(1, n_trees + 1, dtype=float)
    if task == "regression":
        target = np.asarray(y_test, dtype=float)
        running = np.cumsum(tests, axis=0) / counts[:, None]
        error_by_k = np.mean((running - target[None, :]) ** 2, axis=1)
        tree_error = float(np.mean((tests - target[None, :]) ** 2))
        return Spread(
            task,
            n_trees,
            feature_names,
            (),
            np.asarray(xs, dtype=float),
            np.zeros(0),
            grid,
            grid.mean(axis=0),
            None,
            np.asarray(X_test, dtype=float),
            target,
            error_by_k,
            tree_error,
            None,
            decomposition(tests, target, truth),
        )
    assert ys is not None, "a classification grid has y positions"
    shape = (len(ys), len(xs))
    n_classes = grid.shape[2]
    votes = grid.argmax(axis=2)  # (K, n_grid): each tree's class
    tally = np.stack([(votes == c).sum(axis=0) for c in range(n_classes)])  # (C, n_grid)
    disagreement = 1.0 - tally.max(axis=0) / n_trees
    truth_classes = np.asarray(y_test).astype(int)
    running = np.cumsum(tests, axis=0) / counts[:, None, None]
    error_by_k = np.mean(running.argmax(axis=2) != truth_classes[None, :], axis=1)
    tree_classes = tests.argmax(axis=2)  # (K, n)
    tree_error = float(np.mean(tree_classes != truth_classes[None, :]))
    agreement = None
    if n_trees > 1:
        per_class = np.stack([(tree_classes == c).sum(axis=0) for c in range(n_classes)])
        pairs_agreeing = (per_class * (per_class - 1)).sum(axis=0)  # ordered pairs, per row
        agreement = float(pairs_agreeing.sum() / (n_trees * (n_trees - 1) * tests.shape[1]))
    return Spread(
        task,
        n_trees,
        feature_names,
        class_names,
        np.asarray(xs, dtype=float),
        np.asarray(ys, dtype=float),
        votes.reshape(n_trees, *shape),
        grid.mean(axis=0).argmax(axis=1).reshape(shape),
        disagreement.reshape(shape),
        np.asarray(X_test, dtype=float),
        truth_classes,
        error_by_k,
        tree_error,
        agreement,
        None,
    )


def _runs(changed: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Runs of True along each row of ``changed``: (row, first, last) index arrays."""
    step = np.diff(np.pad(changed.astype(np.int8), ((0, 0), (1, 1))), axis=1)
    rows, first = np.nonzero(step == 1)
    _, after = np.nonzero(step == -1)  # row-major order: each run's end follows its start
    return rows, first, after - 1


def _broken_line(starts: FloatArray, ends: FloatArray) -> list[Any]:
    """Segments ``starts[i] -> ends[i]`` as one Plotly line, ``None`` between segments."""
    points = np.column_stack([starts, ends, np.full(len(starts), np.nan)]).ravel()
    return [None if np.isnan(v) else float(v) for v in points]


def _edges(classes: FloatArray, xs: FloatArray, ys: FloatArray) -> tuple[list[Any], list[Any]]:
    """Line segments between grid cells of different classes, as one broken line.

    A tree's regions are rectangles, so its boundary is made of vertical and horizontal runs
    along the cells' borders; each run is one segment.
    """
    half_x = (xs[1] - xs[0]) / 2 if len(xs) > 1 else 0.5
    half_y = (ys[1] - ys[0]) / 2 if len(ys) > 1 else 0.5
    # Vertical borders: between columns i and i + 1, along y.
    column, low, high = _runs((classes[:, :-1] != classes[:, 1:]).T)
    x = xs[column] + half_x
    vertical = (_broken_line(x, x), _broken_line(ys[low] - half_y, ys[high] + half_y))
    # Horizontal borders: between rows j and j + 1, along x.
    row, low, high = _runs(classes[:-1, :] != classes[1:, :])
    y = ys[row] + half_y
    horizontal = (_broken_line(xs[low] - half_x, xs[high] + half_x), _broken_line(y, y))
    return vertical[0] + horizontal[0], vertical[1] + horizontal[1]


def step_points(xs: FloatArray, values: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The points of a staircase drawn ``hv`` (across, then up or down) that draw it all.

    A tree's prediction along ``xs`` is constant between its thresholds: only the first
    point, each point where the value changes and the last are needed; the others lie on a
    flat step. K deep trees over 400 xs sent 8,000 points (300 kB) for about 2,000 corners,
    and the browser's drawing of them was most of a first open's wait.
    """
    changes = np.flatnonzero(values[1:] != values[:-1]) + 1
    kept = np.unique(np.concatenate([[0], changes, [len(xs) - 1]]))
    return xs[kept], values[kept]


def spread_figure(spread: Spread, *, average: bool = True, height: int = 480) -> go.Figure:
    """The K trees over each other, the test rows, and (``average``) their average.

    Classification: the shading is how much the trees disagree (white: all agree), each thin
    line is one tree's boundary, the thick line the average's. Regression: each thin line is
    one tree's staircase, the thick line their mean.
    """
    thin = {"color": "rgba(26, 26, 26, 0.28)", "width": 1}
    traces: list[dict[str, Any]] = []
    if spread.task == "regression":
        xs, K = spread.xs, spread.n_trees
        steps = [step_points(xs, values) for values in spread.tree_values]
        line_x = np.concatenate([np.append(x, np.nan) for x, _ in steps]).tolist()
        line_y = np.concatenate([np.append(y, np.nan) for _, y in steps]).tolist()
        traces.append(
            {
                "type": "scatter",
                "x": [None if v != v else v for v in line_x],
                "y": [None if v != v else v for v in line_y],
                "mode": "lines",
                "line": {**thin, "shape": "hv"},
                "name": f"{K} trees, one resample each",
                "hoverinfo": "skip",
            }
        )
        traces.append(
            {
                "type": "scatter",
                "x": spread.test_x[:, 0],
                "y": spread.test_y,
                "mode": "markers",
                "marker": {"size": 7, "color": MUTED_COLOR, "line": {"width": 0}},
                "name": "test rows",
            }
        )
        if average:
            traces.append(
                {
                    "type": "scatter",
                    "x": xs,
                    "y": spread.average,
                    "mode": "lines",
                    "line": {"color": LINE_COLORS[1], "width": 4, "shape": "hv"},
                    "name": "their average",
                }
            )
        x_title, y_title = spread.feature_names[0], "prediction"
    else:
        traces.append(
            {
                "type": "heatmap",
                "x": spread.xs,
                "y": spread.ys,
                # A share shown to the percent: single precision halves what the browser reads.
                "z": np.asarray(spread.disagreement, dtype=np.float32),
                "zmin": 0.0,
                "zmax": 1.0 - 1.0 / max(len(spread.class_names), 2),
                "colorscale": [[0.0, "#FFFFFF"], [1.0, "#C4C4C4"]],
                "showscale": False,
                "hovertemplate": "trees disagreeing: %{z:.0%}<extra></extra>",
            }
        )
        edges_x: list[Any] = []
        edges_y: list[Any] = []
        for classes in spread.tree_values:
            tree_x, tree_y = _edges(classes, spread.xs, spread.ys)
            edges_x += tree_x
            edges_y += tree_y
        traces.append(
            {
                "type": "scatter",
                "x": edges_x,
                "y": edges_y,
                "mode": "lines",
                "line": thin,
                "name": f"{spread.n_trees} trees' boundaries",
                "hoverinfo": "skip",
            }
        )
        if average:
            avg_x, avg_y = _edges(spread.average, spread.xs, spread.ys)
            traces.append(
                {
                    "type": "scatter",
                    "x": avg_x,
                    "y": avg_y,
                    "mode": "lines",
                    "line": {"color": FONT_COLOR, "width": 3},
                    "name": "their average's boundary",
                    "hoverinfo": "skip",
                }
            )
        for c, name in enumerate(spread.class_names):
            rows = spread.test_y == c
            if not rows.any():
                continue
            traces.append(
                {
                    "type": "scatter",
                    "x": spread.test_x[rows, 0],
                    "y": spread.test_x[rows, 1],
                    "mode": "markers",
                    "marker": {
                        "size": 8,
                        "color": class_color(c),
                        "line": {"color": FONT_COLOR, "width": 1},
                    },
                    "name": f"test: {name}",
                }
            )
        x_title, y_title = spread.feature_names[0], spread.feature_names[1]
    layout = merge(
        styled_layout(title=None, x_title=x_title, y_title=y_title, height=height),
        {
            **merge(legend_below_layout(height, 20), {"margin": {"l": 70, "r": 20, "t": 20}}),
        },
    )
    return build_figure(traces, layout)


def averaging_figure(spread: Spread, *, height: int = 360) -> go.Figure:
    """Test error of the average of the first k trees, and one tree's, against k."""
    metric = "test error" if spread.task == "classification" else "test MSE"
    k = np.arange(1, spread.n_trees + 1)
    traces = [
        {
            "type": "scatter",
            "x": k,
            "y": spread.error_by_k,
            "mode": "lines+markers",
            "line": {"color": LINE_COLORS[1], "width": 3},
            "marker": {"size": 6},
            "name": "average of the first k trees",
        },
        {
            "type": "scatter",
            "x": [1, max(spread.n_trees, 2)],
            "y": [spread.tree_error, spread.tree_error],
            "mode": "lines",
            "line": {"color": MUTED_COLOR, "width": 3, "dash": "dash"},
            "name": "one tree (mean over the K)",
        },
    ]
    layout = merge(
        styled_layout(title=None, x_title="trees averaged (k)", y_title=metric, height=height),
        {
            **merge(legend_below_layout(height, 20), {"margin": {"l": 80, "r": 20, "t": 20}}),
            "yaxis": merge(axis_style(metric), {"rangemode": "tozero"}),
        },
    )
    return build_figure(traces, layout)


def decomposition_figure(parts: Decomposition, *, height: int = 300) -> go.Figure:
    """One bar: the trees' mean squared error as its parts, stacked."""
    if parts.bias2 is not None and parts.noise is not None:
        pieces = [("bias²", parts.bias2), ("variance", parts.variance), ("noise", parts.noise)]
    else:
        pieces = [("the average's error (bias² + noise)", parts.average_error)]
        pieces.append(("variance", parts.variance))
    colors = [LINE_COLORS[1], LINE_COLORS[0], MUTED_COLOR]
    traces = [
        {
            "type": "bar",
            "orientation": "h",
            "x": [value],
            "y": ["one tree"],
            "name": name,
            "marker": {"color": color},
            "text": [f"{value:.3g}"],
            "textposition": "inside",
            "insidetextanchor": "middle",
            "textfont": {"size": 14},
            "hovertemplate": f"{name}: %{{x:.4g}}<extra></extra>",
        }
        for (name, value), color in zip(pieces, colors, strict=False)
    ]
    layout = merge(
        styled_layout(title=None, x_title="squared error", y_title="", height=height),
        {
            "barmode": "stack",
            **merge(
                legend_below_layout(height, 10),
                {"margin": {"l": 90, "r": 20, "t": 10}, "legend": {"traceorder": "normal"}},
            ),
        },
    )
    return build_figure(traces, layout)
