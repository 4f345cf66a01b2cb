"""The pruning walk: how cost-complexity pruning shrinks a tree as ``ccp_alpha`` grows.

:func:`compute_pruning_walk` takes the weakest-link sequence of a fully grown tree
(:func:`core.engine.pruning.pruning_path`) and, for each effective alpha, the subtree that
``ccp_alpha = alpha`` keeps (:func:`core.engine.pruning.prune` on the same fitted tree, no
refit): its number of leaves and its train and test score. :func:`pruning_walk_figure` draws
both against alpha, the current alpha marked.

Pruning at alpha keeps the subtree minimising :math:`R(T) + \\alpha |leaves(T)|`; between two
effective alphas the kept tree does not change, so both curves are steps.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go
from numpy.typing import ArrayLike

from core.engine.pruning import prune, pruning_path
from core.figures._layout import axis_style, build_figure, merge, styled_layout, subplot_grid, vline
from core.figures._model import FittedTree, FloatArray, IntArray, as_2d, score, score_name, task_of
from core.figures.palette import FONT_COLOR, LINE_COLORS, SERIES_COLORS

__all__ = ["PruningWalk", "compute_pruning_walk", "pruning_walk_figure"]


@dataclass(frozen=True)
class PruningWalk:
    """The pruned tree at every effective alpha, as plain numbers.

    Attributes
    ----------
    ccp_alphas : ndarray of shape (n_steps,)
        0, then the effective alphas of the weakest-link cuts (non-decreasing).
    impurities : ndarray of shape (n_steps,)
        Total leaf impurity :math:`R(T)` of the pruned tree, weighted by sample share.
    n_leaves, node_count : ndarray of shape (n_steps,), int
        Size of the tree ``prune(tree, alpha)`` keeps.
    train_score : ndarray of shape (n_steps,)
        Accuracy (classifier) or R² (regressor) on the training data.
    test_score : ndarray of shape (n_steps,) or None
        The same on the test data, when given.
    metric : str
        ``"accuracy"`` or ``"R²"``.
    current_alpha : float or None
        The alpha to mark (the page's slider).
    """

    ccp_alphas: FloatArray
    impurities: FloatArray
    n_leaves: IntArray
    node_count: IntArray
    train_score: FloatArray
    test_score: FloatArray | None
    metric: str
    current_alpha: float | None

    @property
    def current_step(self) -> int | None:
        """Index of the tree that ``ccp_alpha = current_alpha`` keeps (last alpha <= it)."""
        if self.current_alpha is None:
            return None
        return int(np.searchsorted(self.ccp_alphas, self.current_alpha, side="right")) - 1


def compute_pruning_walk(
    model: FittedTree,
    X_train: ArrayLike,
    y_train: ArrayLike,
    X_test: ArrayLike | None = None,
    y_test: ArrayLike | None = None,
    *,
    current_alpha: float | None = None,
) -> PruningWalk:
    """Prune a fully grown tree at each of its effective alphas and score every subtree.

    Parameters
    ----------
    model : fitted DecisionTreeClassifier or DecisionTreeRegressor (ours), with ``ccp_alpha=0``
        The full tree; every pruned tree is cut from its ``tree_``.
    X_train, y_train : array-like of shape (n, n_features), (n,)
    X_test, y_test : array-like, optional
    current_alpha : float, optional
        Marked on the figure; must be >= 0.

    Returns
    -------
    PruningWalk

    Raises
    ------
    ValueError
        When the model is already pruned (its weakest links are gone, so the walk would start
        part-way), or the test data come without labels.
    """
    alpha = float(getattr(model, "ccp_alpha", 0.0))
    if alpha > 0.0:
        raise ValueError(
            f"the pruning walk starts from the full tree: fit the model with ccp_alpha=0 "
            f"(got ccp_alpha={alpha:g}) and pass the page's alpha as current_alpha"
        )
    if current_alpha is not None and current_alpha < 0:
        raise ValueError(f"current_alpha must be >= 0 or None; got {current_alpha}")
    if (X_test is None) != (y_test is None):
        raise ValueError("X_test and y_test must be given together")
    path = pruning_path(model.tree_)
    pruned = copy.copy(model)  # a private copy whose tree_ is swapped; model stays as it is
    leaves, nodes, train, test = [], [], [], []
    for a in path.ccp_alphas.tolist():
        pruned.tree_ = prune(model.tree_, a)
        leaves.append(pruned.tree_.n_leaves)
        nodes.append(pruned.tree_.node_count)
        train.append(score(pruned, as_2d(X_train, "X_train"), y_train))
        if X_test is not None and y_test is not None:
            test.append(score(pruned, as_2d(X_test, "X_test"), y_test))
    return PruningWalk(
        ccp_alphas=path.ccp_alphas,
        impurities=path.impurities,
        n_leaves=np.array(leaves, dtype=np.intp),
        node_count=np.array(nodes, dtype=np.intp),
        train_score=np.array(train, dtype=np.float64),
        test_score=None if X_test is None else np.array(test, dtype=np.float64),
        metric=score_name(task_of(model)),
        current_alpha=current_alpha,
    )


def _walk_layout(walk: PruningWalk, title: str | None, height: int) -> dict[str, Any]:
    """Two rows sharing the alpha axis: leaves on axes x/y, scores on x2/y2."""
    layout = styled_layout(
        title=f"Pruning a tree: leaves and {walk.metric} as ccp_alpha grows"
        if title is None
        else title,
        x_title="",
        y_title="",
        height=height,
    )
    grid = subplot_grid(2, 1, shared_xaxes=True, vertical_spacing=0.08)
    titles = {"xaxis": "", "xaxis2": "ccp_alpha", "yaxis": "leaves", "yaxis2": walk.metric}
    for name, text in titles.items():
        layout[name] = merge(axis_style(text), grid[name])
    return layout


def _step_traces(
    walk: PruningWalk, x: FloatArray, scores: list[tuple[str, FloatArray, str]]
) -> list[dict[str, Any]]:
    """Leaves (top) and each score (bottom) as step lines over ``x``, the alphas and one more.

    The kept tree changes only at an effective alpha, so every line steps there and holds its
    last value to the end.
    """

    def extend(values: np.ndarray) -> np.ndarray:
        return np.append(values, values[-1])

    traces: list[dict[str, Any]] = [
        {
            "type": "scatter",
            "x": x,
            "y": extend(walk.n_leaves),
            "mode": "lines+markers",
            "line": {"shape": "hv", "color": LINE_COLORS[0], "width": 3},
            "name": "leaves",
            "hovertemplate": "alpha %{x:.4g}: %{y} leaves<extra></extra>",
            "xaxis": "x",
            "yaxis": "y",
        }
    ]
    for name, values, dash in scores:
        traces.append(
            {
                "type": "scatter",
                "x": x,
                "y": extend(values),
                "mode": "lines+markers",
                "line": {"shape": "hv", "color": SERIES_COLORS[name], "width": 3, "dash": dash},
                "name": f"{name} {walk.metric}",
                "hovertemplate": f"alpha %{{x:.4g}}: {name} {walk.metric} %{{y:.3f}}"
                "<extra></extra>",
                "xaxis": "x2",
                "yaxis": "y2",
            }
        )
    return traces


def _current_mark(alpha: float, row: str, value: float, color: str) -> dict[str, Any]:
    """The current alpha's tree on one line, as a large dot (row ``""`` top, ``"2"`` bottom)."""
    return {
        "type": "scatter",
        "x": [alpha],
        "y": [value],
        "mode": "markers",
        "marker": {
            "size": 13,
            "color": color,
            "line": {"color": FONT_COLOR, "width": 1},
        },
        "showlegend": False,
        "hovertemplate": "current alpha %{x:.4g}: %{y:.3f}<extra></extra>",
        "xaxis": f"x{row}",
        "yaxis": f"y{row}",
    }


def pruning_walk_figure(
    walk: PruningWalk, *, title: str | None = None, height: int = 620
) -> go.Figure:
    """Two panels sharing the alpha axis: leaves (top) and train/test score (bottom).

    Both are step lines (the kept tree changes only at an effective alpha); the current alpha
    is a dotted vertical line with its tree's values as large dots.

    Parameters
    ----------
    walk : PruningWalk
    title : str, optional
        Default ``"Pruning a tree: leaves and <metric> as ccp_alpha grows"``; ``""`` for none.
    height : int, default 620

    Returns
    -------
    plotly.graph_objects.Figure
    """
    layout = _walk_layout(walk, title, height)
    # The last tree lasts for every larger alpha: extend the steps a little past the last cut.
    last = float(walk.ccp_alphas[-1])
    x = np.append(walk.ccp_alphas, last * 1.1 if last > 0 else 1.0)
    scores = [("train", walk.train_score, "solid")]
    if walk.test_score is not None:
        scores.append(("test", walk.test_score, "dash"))
    traces = _step_traces(walk, x, scores)
    step = walk.current_step
    if step is not None and walk.current_alpha is not None:
        marks = [("", float(walk.n_leaves[step]), FONT_COLOR)]
        marks += [("2", float(values[step]), SERIES_COLORS[name]) for name, values, _ in scores]
        traces += [_current_mark(walk.current_alpha, *mark) for mark in marks]
        line = {"color": FONT_COLOR, "dash": "dot", "width": 1.5}
        layout["shapes"] = [
            {**vline(walk.current_alpha, line), "xref": f"x{row}", "yref": f"y{row} domain"}
            for row in ("", "2")
        ]
    return build_figure(traces, layout)
