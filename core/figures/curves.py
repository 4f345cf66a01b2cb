"""Score curves and importances: compute plain arrays, then draw them with Plotly.

- :func:`compute_forest_curve`: accuracy (R² for regression) after the first ``k`` trees of ONE
  fitted forest, on train, test and out-of-bag samples; no refitting.
- :func:`compute_depth_curve`: train and test score against ``max_depth`` for each criterion
  (this one fits trees, through a factory the caller passes).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go
from numpy.typing import ArrayLike

from core.figures._layout import style_figure
from core.figures._model import (
    FloatArray,
    IntArray,
    Task,
    as_2d,
    encode_labels,
    is_forest,
    r2_score,
    task_of,
)
from core.figures.palette import FONT_COLOR, LINE_COLORS, SERIES_COLORS

__all__ = [
    "DepthCurve",
    "ForestCurve",
    "compute_depth_curve",
    "compute_forest_curve",
    "depth_curve_figure",
    "forest_curve_figure",
]


def _score(task: Task, classes: np.ndarray | None, y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Accuracy (classification, when ``classes`` is given) or R² of predictions."""
    if task == "classification" and classes is not None:
        return float(np.mean(encode_labels(classes, y_true) == encode_labels(classes, y_pred)))
    return r2_score(np.asarray(y_true, dtype=np.float64), np.asarray(y_pred, dtype=np.float64))


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


def _per_tree_outputs(forest: object, X: FloatArray, task: Task) -> FloatArray:
    """Each tree's probabilities (n_trees, n, K) or predictions (n_trees, n, 1)."""
    trees = forest.estimators_  # type: ignore[attr-defined]
    if task == "classification":
        return np.stack([np.asarray(t.predict_proba(X), dtype=np.float64) for t in trees])
    return np.stack([np.asarray(t.predict(X), dtype=np.float64)[:, None] for t in trees])


def _staged_from_trees(forest: object, X: FloatArray, y: ArrayLike, task: Task) -> FloatArray:
    # Classifier forests average the trees' probabilities; regressors average predictions.
    outputs = _per_tree_outputs(forest, X, task)
    running = np.cumsum(outputs, axis=0) / np.arange(1, len(outputs) + 1)[:, None, None]
    if task == "classification":
        truth = encode_labels(np.asarray(forest.classes_), y)  # type: ignore[attr-defined]
        return np.mean(np.argmax(running, axis=2) == truth, axis=1).astype(np.float64)
    target = np.asarray(y, dtype=np.float64)
    return np.array([r2_score(target, stage[:, 0]) for stage in running])


def _staged_scores(forest: object, X: FloatArray, y: ArrayLike, task: Task) -> FloatArray:
    staged = getattr(forest, "staged_scores", None)
    if callable(staged):
        return np.asarray(staged(X, y), dtype=np.float64)
    return _staged_from_trees(forest, X, y, task)


def _oob_from_samples(forest: object, X: FloatArray, y: ArrayLike, task: Task) -> FloatArray:
    """Staged out-of-bag score from scikit-learn's ``estimators_samples_`` (drawn rows)."""
    trees = forest.estimators_  # type: ignore[attr-defined]
    drawn = forest.estimators_samples_  # type: ignore[attr-defined]
    n = len(X)
    width = len(forest.classes_) if task == "classification" else 1  # type: ignore[attr-defined]
    totals = np.zeros((n, width))
    votes = np.zeros(n)
    if task == "classification":
        codes = encode_labels(np.asarray(forest.classes_), y)  # type: ignore[attr-defined]
        truth = codes.astype(np.float64)
    else:
        truth = np.asarray(y, dtype=np.float64)
    scores = np.full(len(trees), np.nan)
    for k, (tree, rows) in enumerate(zip(trees, drawn, strict=True)):
        out = np.ones(n, dtype=bool)
        out[np.asarray(rows)] = False
        if out.any():
            if task == "classification":
                totals[out] += tree.predict_proba(X[out])
            else:
                totals[out, 0] += tree.predict(X[out])
            votes[out] += 1
        scored = votes > 0
        if task == "classification" and scored.any():
            scores[k] = np.mean(np.argmax(totals[scored], axis=1) == truth[scored])
        elif task == "regression" and scored.sum() >= 2:
            scores[k] = r2_score(truth[scored], totals[scored, 0] / votes[scored])
    return scores


def compute_forest_curve(
    forest: object,
    X_train: ArrayLike,
    y_train: ArrayLike,
    *,
    X_test: ArrayLike | None = None,
    y_test: ArrayLike | None = None,
) -> ForestCurve:
    """Score after the first ``k`` trees of one fitted forest, for every ``k``.

    Uses the forest's ``staged_scores(X, y)`` and ``oob_staged_scores_`` when it has them;
    otherwise averages the trees' own outputs (probabilities for classifiers), which is what
    the forest's ``predict`` does, so the last point equals the forest's score. Out-of-bag
    scores need ``oob_staged_scores_``, or scikit-learn's ``estimators_samples_`` with
    ``bootstrap=True``; else ``oob`` is None.

    Parameters
    ----------
    forest : fitted forest
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
    X = as_2d(X_train, "X_train")
    train = _staged_scores(forest, X, y_train, task)
    test = None
    if X_test is not None and y_test is not None:
        test = _staged_scores(forest, as_2d(X_test, "X_test"), y_test, task)
    oob: FloatArray | None = None
    if hasattr(forest, "oob_staged_scores_"):
        oob = np.asarray(forest.oob_staged_scores_, dtype=np.float64)
    elif getattr(forest, "bootstrap", False) and hasattr(forest, "estimators_samples_"):
        oob = _oob_from_samples(forest, X, y_train, task)
    return ForestCurve(
        n_trees=np.arange(1, len(train) + 1, dtype=np.intp),
        train=train,
        test=test,
        oob=oob,
        metric="accuracy" if task == "classification" else "R²",
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
    fig = go.Figure()
    labels = {"train": "train", "test": "test", "oob": "out-of-bag"}
    for key, dash in _SERIES:
        values = getattr(curve, key)
        if values is None:
            continue
        fig.add_trace(
            go.Scatter(
                x=curve.n_trees,
                y=values,
                mode="lines",
                name=labels[key],
                line={"color": SERIES_COLORS[key], "width": 3, "dash": dash},
                hovertemplate=f"{labels[key]}: %{{y:.3f}} with %{{x}} trees<extra></extra>",
            )
        )
        if current is not None and 1 <= current <= len(values):
            fig.add_trace(
                go.Scatter(
                    x=[current],
                    y=[values[current - 1]],
                    mode="markers",
                    marker={"size": 12, "color": SERIES_COLORS[key], "line": {"width": 0}},
                    showlegend=False,
                    hovertemplate=f"{labels[key]} now: %{{y:.3f}}<extra></extra>",
                )
            )
    if current is not None:
        fig.add_vline(x=current, line={"color": FONT_COLOR, "width": 1.5, "dash": "dot"})
    style_figure(
        fig,
        title=f"{curve.metric.capitalize()} as trees are added" if title is None else title,
        x_title="number of trees",
        y_title=curve.metric,
        height=height,
    )
    if log_x:
        fig.update_xaxes(type="log")
    return fig


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


def compute_depth_curve(
    make_model: Callable[..., object],
    X_train: ArrayLike,
    y_train: ArrayLike,
    X_test: ArrayLike,
    y_test: ArrayLike,
    *,
    depths: Sequence[int] = tuple(range(1, 11)),
    criteria: Sequence[str] = ("gini", "entropy"),
) -> DepthCurve:
    """Fit one tree per criterion and depth, and score each on train and test data.

    Parameters
    ----------
    make_model : callable
        Called as ``make_model(criterion=c, max_depth=d)`` and returns an unfitted tree: an
        estimator class, or ``functools.partial(DecisionTreeClassifier, random_state=0)``.
    X_train, y_train, X_test, y_test : array-like
        Data to fit on and to score on.
    depths : sequence of int, default 1..10
    criteria : sequence of str, default ("gini", "entropy")
        For regression pass ``("squared_error", "absolute_error")``.

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
        for j, depth in enumerate(depths):
            model = make_model(criterion=criterion, max_depth=int(depth))
            model.fit(X, y_train)  # type: ignore[attr-defined]
            task = task_of(model)
            classes = np.asarray(model.classes_) if task == "classification" else None  # type: ignore[attr-defined]
            train[i, j] = _score(task, classes, y_train, model.predict(X))  # type: ignore[attr-defined]
            test[i, j] = _score(task, classes, y_test, model.predict(Xt))  # type: ignore[attr-defined]
    return DepthCurve(
        depths=np.asarray(depths, dtype=np.intp),
        criteria=tuple(criteria),
        train=train,
        test=test,
        metric="accuracy" if task == "classification" else "R²",
    )


def depth_curve_figure(
    curve: DepthCurve, *, current: int | None = None, title: str | None = None, height: int = 440
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

    Returns
    -------
    plotly.graph_objects.Figure
    """
    fig = go.Figure()
    for i, criterion in enumerate(curve.criteria):
        color = SERIES_COLORS.get(criterion, LINE_COLORS[i % len(LINE_COLORS)])
        for split, values, dash, symbol in (
            ("train", curve.train[i], "dash", "circle-open"),
            ("test", curve.test[i], "solid", "circle"),
        ):
            fig.add_trace(
                go.Scatter(
                    x=curve.depths,
                    y=values,
                    mode="lines+markers",
                    name=f"{criterion}, {split}",
                    # Criteria often agree exactly: the first is drawn wider, so both show.
                    line={"color": color, "width": 6 if i == 0 else 2.5, "dash": dash},
                    marker={"size": 8, "symbol": symbol, "color": color},
                    hovertemplate=f"{criterion} {split}: %{{y:.3f}} at depth %{{x}}<extra></extra>",
                )
            )
    if current is not None:
        fig.add_vline(x=current, line={"color": FONT_COLOR, "width": 1.5, "dash": "dot"})
    style_figure(
        fig,
        title=f"Train and test {curve.metric} by tree depth" if title is None else title,
        x_title="max_depth",
        y_title=curve.metric,
        height=height,
    )
    fig.update_xaxes(dtick=1)
    return fig
