"""Score curves and importances: compute plain arrays, then draw them with Plotly.

- :func:`compute_forest_curve`: accuracy (R² for regression) after the first ``k`` trees of ONE
  fitted forest, on train, test and out-of-bag samples; no refitting.
- :func:`compute_depth_curve`: train and test score against ``max_depth`` for each criterion
  (this one fits trees, through a factory the caller passes).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import plotly.graph_objects as go
from numpy.typing import ArrayLike

from core.data.datasets import Task
from core.figures._layout import build_figure, merge, styled_layout, vline
from core.figures._model import (
    FittedForest,
    FittedTree,
    FloatArray,
    IntArray,
    as_2d,
    is_forest,
    score,
    score_name,
    task_of,
)
from core.figures.overlays import legend_below_layout
from core.figures.palette import FONT_COLOR, LINE_COLORS, SERIES_COLORS

__all__ = [
    "DepthCurve",
    "ForestCurve",
    "compute_depth_curve",
    "compute_forest_curve",
    "depth_curve_figure",
    "forest_curve_figure",
]


@dataclass(frozen=True)
class ForestCurve:
    """Scores of a forest's first ``k`` trees, for ``k = 1..n_estimators``.

    Attributes
    ----------
    n_trees : ndarray of shape (n_estimators,)
        ``1, 2, ..., n_estimators``.
    train, test, oob : ndarray of shape (n_estimators,) or None
        Accuracy (R²) on the training set, the test set, and out of bag (each sample scored
        only by trees that did not draw it; NaN where no sample has such a tree yet).
    metric : str
        ``"accuracy"`` or ``"R²"``.
    """

    n_trees: IntArray
    train: FloatArray
    test: FloatArray | None
    oob: FloatArray | None
    metric: str


def compute_forest_curve(
    forest: FittedForest,
    X_train: ArrayLike,
    y_train: ArrayLike,
    *,
    X_test: ArrayLike | None = None,
    y_test: ArrayLike | None = None,
) -> ForestCurve:
    """Score after the first ``k`` trees of one fitted forest, for every ``k``.

    The numbers are the forest's own: ``staged_scores(X, y)`` on the training and the test
    data (its last point is the forest's ``score``), and ``oob_staged_scores_`` out of bag,
    which the forest has when fitted with ``oob_score=True`` (else ``oob`` is None).

    Parameters
    ----------
    forest : fitted forest of ours
    X_train, y_train : array-like
        The data the forest was fitted on.
    X_test, y_test : array-like, optional
        Held-out data.

    Returns
    -------
    ForestCurve
    """
    if not is_forest(forest):
        raise TypeError(f"forest must be a fitted forest (with estimators_), got {type(forest)}")
    if (X_test is None) != (y_test is None):
        raise ValueError("X_test and y_test must be given together")
    task = task_of(forest)
    train = np.asarray(forest.staged_scores(as_2d(X_train, "X_train"), y_train), dtype=np.float64)
    test = None
    if X_test is not None and y_test is not None:
        test = np.asarray(forest.staged_scores(as_2d(X_test, "X_test"), y_test), dtype=np.float64)
    oob: FloatArray | None = None
    if hasattr(forest, "oob_staged_scores_"):
        oob = np.asarray(forest.oob_staged_scores_, dtype=np.float64)
    return ForestCurve(
        n_trees=np.arange(1, len(train) + 1, dtype=np.intp),
        train=train,
        test=test,
        oob=oob,
        metric=score_name(task),
    )


_SERIES = (("train", "solid"), ("test", "dash"), ("oob", "dot"))


def forest_curve_figure(
    curve: ForestCurve,
    *,
    current: int | None = None,
    title: str | None = None,
    height: int = 440,
    log_x: bool = False,
) -> go.Figure:
    """Train / test / out-of-bag score against the number of trees.

    Parameters
    ----------
    curve : ForestCurve
    current : int, optional
        Mark this forest size (the one on screen) with a vertical line and a dot per curve.
    title : str, optional
        None gives ``"<metric> as trees are added"``; ``""`` gives no title.
    height : int, default 440
    log_x : bool, default False
        A logarithmic axis for the number of trees: 1-10, 10-100 and 100-1000 get equal room.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    traces: list[dict[str, Any]] = []
    labels = {"train": "train", "test": "test", "oob": "out-of-bag"}
    for key, dash in _SERIES:
        values = getattr(curve, key)
        if values is None:
            continue
        traces.append(
            {
                "type": "scatter",
                "x": curve.n_trees,
                "y": values,
                "mode": "lines",
                "name": labels[key],
                "line": {"color": SERIES_COLORS[key], "width": 3, "dash": dash},
                "hovertemplate": f"{labels[key]}: %{{y:.3f}} with %{{x}} trees<extra></extra>",
            }
        )
        if current is not None and 1 <= current <= len(values):
            traces.append(
                {
                    "type": "scatter",
                    "x": [current],
                    "y": [float(values[current - 1])],
                    "mode": "markers",
                    "marker": {"size": 12, "color": SERIES_COLORS[key], "line": {"width": 0}},
                    "showlegend": False,
                    "hovertemplate": f"{labels[key]} now: %{{y:.3f}}<extra></extra>",
                }
            )
    layout = styled_layout(
        title=f"{curve.metric.capitalize()} as trees are added" if title is None else title,
        x_title="number of trees",
        y_title=curve.metric,
        height=height,
    )
    if current is not None:
        layout["shapes"] = [vline(current, {"color": FONT_COLOR, "width": 1.5, "dash": "dot"})]
    if log_x:
        # Ticks at the powers of ten only: Plotly's own log ticks add 2 and 5 in each decade,
        # and at 1280 wide "5" and "1000" ran together into "51000".
        most = int(curve.n_trees.max()) if len(curve.n_trees) else 1
        decades = [10**k for k in range(len(str(most)))]
        layout["xaxis"].update(
            type="log", tickmode="array", tickvals=decades, ticktext=[str(d) for d in decades]
        )
    return build_figure(traces, layout)


@dataclass(frozen=True)
class DepthCurve:
    """Train and test score of trees grown to each ``max_depth``, per criterion.

    Attributes
    ----------
    depths : ndarray of shape (n_depths,)
    criteria : tuple of str
    train, test : ndarray of shape (n_criteria, n_depths)
        Accuracy (R²) of the tree with ``criteria[i]`` and ``depths[j]`` at ``[i, j]``.
    metric : str
        ``"accuracy"`` or ``"R²"``.
    """

    depths: IntArray
    criteria: tuple[str, ...]
    train: FloatArray
    test: FloatArray
    metric: str


def cut_to_depth(model: Any, depth: int) -> Any:
    """A copy of a fitted tree estimator whose tree keeps only the nodes down to ``depth``.

    Everything but ``tree_`` is shared with ``model``, which is left untouched.
    """
    cut = copy.copy(model)
    cut.tree_ = model.tree_.top(model.tree_.depth <= depth)
    return cut


class UnfittedTree(Protocol):
    """A tree of ours before ``fit``, which returns it fitted."""

    def fit(self, X: ArrayLike, y: ArrayLike) -> FittedTree: ...


def compute_depth_curve(
    make_model: Callable[..., UnfittedTree],
    X_train: ArrayLike,
    y_train: ArrayLike,
    X_test: ArrayLike,
    y_test: ArrayLike,
    *,
    depths: Sequence[int] = tuple(range(1, 11)),
    criteria: Sequence[str] = ("gini", "entropy"),
    refit: bool = False,
) -> DepthCurve:
    """Score a tree per criterion and depth on train and test data.

    Scores are what the trees' own ``score`` gives (computed by :func:`core.figures.score`):
    accuracy, or R² for regression trees.

    A tree grown to ``max_depth = d`` is the top ``d`` levels of the same tree grown deeper:
    each split depends only on its node's rows, and the builder grows (and draws its features)
    one depth at a time. So one tree per criterion is grown to the deepest depth, and each
    shallower tree is that tree cut at its depth (:meth:`~core.engine.structure.Tree.top`):
    every node below ``d`` cut away, a node at depth ``d`` predicting its own value. Pruning
    (``ccp_alpha > 0``) acts on the whole grown tree and breaks this, so such trees are
    fitted once per depth, as ``refit=True`` always does.

    Parameters
    ----------
    make_model : callable
        Called as ``make_model(criterion=c, max_depth=d)`` and returns an unfitted tree of
        ours: an estimator class, or ``functools.partial(DecisionTreeClassifier,
        random_state=0)``.
    X_train, y_train, X_test, y_test : array-like
        Data to fit on and to score on.
    depths : sequence of int, default 1..10
    criteria : sequence of str, default ("gini", "entropy")
        For regression pass ``("squared_error", "absolute_error")``.
    refit : bool, default False
        Fit one tree per criterion and depth instead of cutting the deepest (the same scores,
        ten times the work; the tests compare the two).

    Returns
    -------
    DepthCurve
    """
    if not depths or not criteria:
        raise ValueError("depths and criteria must each name at least one value")
    if any(d < 1 for d in depths):
        raise ValueError(f"depths must all be >= 1, got {list(depths)}")
    X, Xt = as_2d(X_train, "X_train"), as_2d(X_test, "X_test")
    train = np.zeros((len(criteria), len(depths)))
    test = np.zeros_like(train)
    task: Task = "classification"
    for i, criterion in enumerate(criteria):
        deepest = make_model(criterion=criterion, max_depth=max(depths)).fit(X, y_train)
        task = task_of(deepest)
        cut = not refit and getattr(deepest, "ccp_alpha", 0.0) == 0.0
        for j, depth in enumerate(depths):
            if cut:
                model = cut_to_depth(deepest, int(depth))
            else:
                model = make_model(criterion=criterion, max_depth=int(depth)).fit(X, y_train)
            train[i, j] = score(model, X, y_train)
            test[i, j] = score(model, Xt, y_test)
    return DepthCurve(
        depths=np.asarray(depths, dtype=np.intp),
        criteria=tuple(criteria),
        train=train,
        test=test,
        metric=score_name(task),
    )


def depth_curve_figure(
    curve: DepthCurve,
    *,
    current: int | None = None,
    title: str | None = None,
    height: int = 440,
    legend_below: bool = False,
) -> go.Figure:
    """Train (dashed) and test (solid) score against ``max_depth``, one colour per criterion.

    Parameters
    ----------
    curve : DepthCurve
    current : int, optional
        Mark this depth with a vertical line.
    title : str, optional
        None gives ``"Train and test <metric> by tree depth"``; ``""`` gives no title.
    height : int, default 440
    legend_below : bool, default False
        The legend flat under the plot (:func:`~core.figures.overlays.legend_below_layout`).

    Returns
    -------
    plotly.graph_objects.Figure
    """
    traces: list[dict[str, Any]] = []
    for i, criterion in enumerate(curve.criteria):
        color = SERIES_COLORS.get(criterion, LINE_COLORS[i % len(LINE_COLORS)])
        for split, values, dash, symbol in (
            ("train", curve.train[i], "dash", "circle-open"),
            ("test", curve.test[i], "solid", "circle"),
        ):
            traces.append(
                {
                    "type": "scatter",
                    "x": curve.depths,
                    "y": values,
                    "mode": "lines+markers",
                    "name": f"{criterion}, {split}",
                    # Criteria often agree exactly: the first is drawn wider, so both show.
                    "line": {"color": color, "width": 6 if i == 0 else 2.5, "dash": dash},
                    "marker": {"size": 8, "symbol": symbol, "color": color},
                    "hovertemplate": f"{criterion} {split}: %{{y:.3f}} at depth %{{x}}"
                    "<extra></extra>",
                }
            )
    layout = styled_layout(
        title=f"Train and test {curve.metric} by tree depth" if title is None else title,
        x_title="max_depth",
        y_title=curve.metric,
        height=height,
    )
    if current is not None:
        layout["shapes"] = [vline(current, {"color": FONT_COLOR, "width": 1.5, "dash": "dot"})]
    layout["xaxis"]["dtick"] = 1
    if legend_below:
        merge(layout, legend_below_layout(layout["height"], layout["margin"]["t"]))
    return build_figure(traces, layout)
