"""What each leaf holds: its training rows' classes, or their targets (dtreeviz's leaves).

A leaf's prediction is a summary of the training rows that reach it: the class shares
(classification) or their mean (regression). This module sends the training rows down the
tree (``model.apply``), groups them by leaf, and draws one bar per leaf (the class counts,
stacked) or one box per leaf (the targets, with the mean the leaf predicts). The leaves go
left to right in the order the diagram draws them: the preorder of the tree's flat arrays,

    visit(node) = [node] if node is a leaf else visit(left[node]) + visit(right[node]).

The counts are checked against the tree's own arrays, ``value * weighted_n_node_samples``,
so rows other than the ones the tree was grown on raise an error rather than draw a
misleading chart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go
from numpy.typing import ArrayLike

from core.data.datasets import Task
from core.engine.structure import TREE_LEAF, Tree
from core.figures._layout import axis_style, build_figure, merge, styled_layout
from core.figures._model import (
    FittedTree,
    FloatArray,
    IntArray,
    as_2d,
    classes_of,
    encode_labels,
    task_of,
)
from core.figures.overlays import legend_below_layout
from core.figures.palette import FONT_COLOR, MUTED_COLOR, class_color

__all__ = ["MAX_LEAVES", "Leaves", "compute_leaves", "leaves_figure", "preorder_leaves"]

#: Leaves drawn at most: past this, bars thinner than a tick label stop reading as bars.
MAX_LEAVES = 40


@dataclass(frozen=True)
class Leaves:
    """Each leaf's training rows, in the diagram's left-to-right order.

    Attributes
    ----------
    task : {"classification", "regression"}
    nodes : ndarray of shape (n_leaves,), int
        Each leaf's node id in the tree's flat arrays, in preorder.
    n_samples : ndarray of shape (n_leaves,), int
        Training rows reaching each leaf.
    prediction : ndarray of shape (n_leaves,)
        What each leaf predicts: a class index (classification) or the mean target.
    counts : ndarray of shape (n_leaves, n_classes)
        Training rows of each class in each leaf; shape (n_leaves, 0) for regression.
    targets : tuple of ndarray
        Regression: the training targets reaching each leaf, one array per leaf (lengths
        ``n_samples``); empty for classification.
    shown : ndarray of shape (n_shown,), int
        Positions (into the arrays above) of the leaves to draw: all of them, or the
        ``max_leaves`` with the most training rows, still in left-to-right order.
    """

    task: Task
    nodes: IntArray
    n_samples: IntArray
    prediction: FloatArray
    counts: FloatArray
    targets: tuple[FloatArray, ...]
    shown: IntArray

    @property
    def note(self) -> str | None:
        """What is left out, when some leaves are (for the figure's title), else None."""
        if len(self.shown) == len(self.nodes):
            return None
        return f"The {len(self.shown)} largest of {len(self.nodes)} leaves"


def preorder_leaves(tree: Tree) -> IntArray:
    """The leaves' node ids, left to right: a depth-first walk, left child first.

    Parameters
    ----------
    tree : Tree
        Flat arrays; ``children_left[i] == TREE_LEAF`` marks a leaf.

    Returns
    -------
    ndarray of shape (n_leaves,), int
    """
    leaves: list[int] = []
    stack = [0]
    while stack:
        node = stack.pop()
        if tree.children_left[node] == TREE_LEAF:
            leaves.append(node)
        else:  # right pushed first, so the left subtree is walked first
            stack.append(int(tree.children_right[node]))
            stack.append(int(tree.children_left[node]))
    return np.asarray(leaves, dtype=np.intp)


def compute_leaves(
    model: FittedTree,
    X_train: ArrayLike,
    y_train: ArrayLike,
    *,
    max_leaves: int = MAX_LEAVES,
) -> Leaves:
    """Group the training rows by the leaf they reach.

    Parameters
    ----------
    model : fitted DecisionTreeClassifier or DecisionTreeRegressor
    X_train : array-like of shape (n_train, n_features)
        The rows the tree was grown on.
    y_train : array-like of shape (n_train,)
        Their labels (classification) or targets (regression).
    max_leaves : int, default MAX_LEAVES
        Leaves to draw at most; the ones with the most training rows are kept.

    Returns
    -------
    Leaves

    Raises
    ------
    ValueError
        When ``max_leaves < 1``, ``X_train`` and ``y_train`` differ in length, or the rows
        do not reproduce the tree's own counts (they are not the rows it was grown on).
    """
    if max_leaves < 1:
        raise ValueError(f"max_leaves must be >= 1, got {max_leaves}")
    X = as_2d(X_train, "X_train")
    y = np.asarray(y_train)
    if len(y) != len(X):
        raise ValueError(f"X_train has {len(X)} rows but y_train has {len(y)}")
    tree = model.tree_
    nodes = preorder_leaves(tree)
    reached = np.asarray(model.apply(X))
    n_samples = np.array([np.count_nonzero(reached == node) for node in nodes], dtype=np.intp)
    task = task_of(model)
    if task == "classification":
        codes = encode_labels(classes_of(model), y)
        n_classes = int(tree.value.shape[2])
        counts = np.array(
            [np.bincount(codes[reached == node], minlength=n_classes) for node in nodes],
            dtype=float,
        ).reshape(len(nodes), n_classes)
        own = tree.value[nodes, 0, :] * tree.weighted_n_node_samples[nodes, None]
        if not np.allclose(counts, own, atol=1e-6):
            raise ValueError(
                "X_train, y_train must be the rows the tree was grown on: their class counts "
                "per leaf differ from the tree's value * weighted_n_node_samples"
            )
        prediction = counts.argmax(axis=1).astype(float)
        targets: tuple[FloatArray, ...] = ()
    else:
        target = y.astype(float)
        targets = tuple(target[reached == node] for node in nodes)
        if not np.array_equal(n_samples, tree.n_node_samples[nodes]):
            raise ValueError(
                "X_train must be the rows the tree was grown on: the rows per leaf differ "
                "from the tree's n_node_samples"
            )
        prediction = np.asarray(tree.value[nodes, 0, 0], dtype=float)
        counts = np.zeros((len(nodes), 0))
    # The largest leaves, kept in left-to-right order; a stable sort keeps ties left first.
    largest = np.argsort(-n_samples, kind="stable")[:max_leaves]
    shown = np.sort(largest).astype(np.intp)
    return Leaves(task, nodes, n_samples, prediction, counts, targets, shown)


def _labels(leaves: Leaves) -> list[str]:
    # Named as the tree diagram numbers its nodes ("node 4"), so a bar is found on the tree.
    return [f"node {int(leaves.nodes[i])}" for i in leaves.shown]


def _class_traces(leaves: Leaves, class_names: Sequence[str]) -> list[dict[str, Any]]:
    labels = _labels(leaves)
    n_classes = leaves.counts.shape[1]
    names = list(class_names) or [f"class {c}" for c in range(n_classes)]
    return [
        {
            "type": "bar",
            "x": labels,
            "y": leaves.counts[leaves.shown, c],
            "name": names[c],
            "marker": {"color": class_color(c), "line": {"color": FONT_COLOR, "width": 0.5}},
            "hovertemplate": f"%{{x}}: %{{y}} {names[c]}<extra></extra>",
        }
        for c in range(n_classes)
    ]


def _value_traces(leaves: Leaves) -> list[dict[str, Any]]:
    labels = _labels(leaves)
    xs = [label for i, label in zip(leaves.shown, labels, strict=True) for _ in leaves.targets[i]]
    ys = np.concatenate([leaves.targets[i] for i in leaves.shown])
    return [
        {
            "type": "box",
            "x": xs,
            "y": ys,
            "name": "training targets",
            "boxpoints": "all",
            "jitter": 0.4,
            "pointpos": 0,
            "fillcolor": "rgba(0, 0, 0, 0)",
            "line": {"color": MUTED_COLOR, "width": 1.5},
            "marker": {"color": "#0072B2", "size": 5, "opacity": 0.55},
            "hoverinfo": "y",
        },
        {
            "type": "scatter",
            "x": labels,
            "y": leaves.prediction[leaves.shown],
            "mode": "markers",
            "name": "the leaf's prediction (their mean)",
            "marker": {
                "symbol": "diamond",
                "size": 12,
                "color": "#D55E00",
                "line": {"color": FONT_COLOR, "width": 1},
            },
            "hovertemplate": "%{x} predicts %{y:.4g}<extra></extra>",
        },
    ]


def leaves_figure(
    leaves: Leaves,
    *,
    class_names: Sequence[str] = (),
    target_name: str = "target",
    height: int = 340,
) -> go.Figure:
    """One bar (classification) or box (regression) per leaf, in the diagram's order.

    Parameters
    ----------
    leaves : Leaves
        From :func:`compute_leaves`; only ``leaves.shown`` are drawn.
    class_names : sequence of str, optional
        Names of the classes, in ``classes_`` order; ``"class <i>"`` when empty.
    target_name : str, default "target"
        The y-axis title of a regression.
    height : int, default 340
        Height in pixels; the width follows the container.

    Returns
    -------
    go.Figure
        Classification: the class counts stacked, in the palette's class colours.
        Regression: each leaf's training targets as points over a box, its mean a diamond.
    """
    classify = leaves.task == "classification"
    traces = _class_traces(leaves, class_names) if classify else _value_traces(leaves)
    y_title = "training rows" if classify else target_name
    layout = styled_layout(title=leaves.note, x_title="", y_title=y_title, height=height)
    top = int(layout["margin"]["t"])
    labels = _labels(leaves)
    return build_figure(
        traces,
        merge(
            layout,
            {
                # Plotly lists a stack's classes top bar first; the classes' own order reads
                # the same as the diagram's legend.
                **merge(legend_below_layout(height, top), {"legend": {"traceorder": "normal"}}),
                "barmode": "stack",
                "bargap": 0.25,
                "xaxis": merge(
                    axis_style(""),
                    {"type": "category", "categoryorder": "array", "categoryarray": labels},
                ),
            },
        ),
    )
