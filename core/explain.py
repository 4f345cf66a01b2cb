"""Pure helpers behind the pages' explanations: no Streamlit, so they are unit-tested directly.

``core.ui`` re-exports every name here, so pages call them as ``ui.path_in_words`` and so on.

- What a model is grown on: :func:`columns`, :func:`regression_criterion`.
- A tree in words: :func:`md`, :func:`path_in_words`, :func:`differing_nodes`, :func:`accuracy`.
- Click-to-trace: :func:`clicked_sample` (which test sample a click picked) and
  :func:`mark_sample` (the star on it).
- Figure layout: :func:`legend_below`.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

from core.state import DatasetShape

# --- what a model is grown on --------------------------------------------------------------


def columns(settings: Any, shape: DatasetShape) -> tuple[int, ...]:
    """Feature columns a model is grown on: the plotted pair, all, or the one of a regression."""
    if shape.task == "regression":
        return tuple(range(shape.n_features))
    if getattr(settings, "fit", "pair") == "all":
        return tuple(range(shape.n_features))
    return (settings.x, settings.y)


def regression_criterion(task: str, criterion: str) -> str:
    """The criterion a tree is grown with: ``criterion`` to classify, squared error to regress."""
    return criterion if task == "classification" else "squared_error"


# --- a tree in words -----------------------------------------------------------------------


def accuracy(model: Any, X: np.ndarray, y: np.ndarray) -> float:
    """Accuracy for classifiers, R² for regressors (``model.score``)."""
    return float(model.score(X, y))


_MARKDOWN_SPECIAL = str.maketrans({c: "\\" + c for c in "\\`*_{}[]<>()#+-.!|$~:"})


def md(text: str) -> str:
    """``text`` with Markdown's special characters escaped, so it shows as typed."""
    return text.translate(_MARKDOWN_SPECIAL)


def path_in_words(
    model: Any, row: np.ndarray, feature_names: Sequence[str], class_names: Sequence[str]
) -> tuple[list[str], str]:
    """The questions ``row`` answers on its way down ``model``, and the leaf's answer.

    Returns Markdown: one line per split (``petal width is 1.8, more than 1.75: right``) and
    the prediction, with the share of training samples of that class at the leaf.
    """
    tree = model.tree_
    node, steps = 0, []
    while tree.children_left[node] != tree.children_right[node]:
        name = md(feature_names[int(tree.feature[node])])
        value, threshold = float(row[int(tree.feature[node])]), float(tree.threshold[node])
        if value <= threshold:
            steps.append(f"**{name}** is {value:.4g}, at most {threshold:.4g}: go left (True)")
            node = int(tree.children_left[node])
        else:
            steps.append(f"**{name}** is {value:.4g}, more than {threshold:.4g}: go right (False)")
            node = int(tree.children_right[node])
    leaf = np.asarray(tree.value[node][0], dtype=float)
    samples = int(tree.n_node_samples[node])
    if class_names:
        k = int(np.argmax(leaf))
        share = leaf[k] / leaf.sum() if leaf.sum() > 0 else 0.0
        answer = (
            f"so the tree predicts **{md(class_names[k])}**: {share:.0%} of the {samples} "
            f"training samples in this leaf are {md(class_names[k])}."
        )
    else:
        answer = (
            f"so the tree predicts **{leaf[0]:.4g}**, the mean of the {samples} training "
            "samples in this leaf."
        )
    return steps, answer


def differing_nodes(a: Any, b: Any, *, atol: float = 1e-9) -> tuple[set[int], set[int]]:
    """Nodes of fitted trees ``a`` and ``b`` with no identical counterpart in the other.

    Both trees are walked together from the root. Two nodes match when their parents matched
    and they ask the same question (same feature, same threshold), or are both leaves; once
    a node differs, its whole subtree differs, since it receives different samples.
    """
    ta, tb = a.tree_, b.tree_
    only_a: set[int] = set()
    only_b: set[int] = set()

    def subtree(tree: Any, node: int, into: set[int]) -> None:
        stack = [node]
        while stack:
            n = stack.pop()
            into.add(n)
            if tree.children_left[n] != -1:
                stack += [int(tree.children_left[n]), int(tree.children_right[n])]

    pairs = [(0, 0)]
    while pairs:
        na, nb = pairs.pop()
        leaf_a, leaf_b = ta.children_left[na] == -1, tb.children_left[nb] == -1
        if leaf_a and leaf_b:
            continue
        same = (
            not leaf_a
            and not leaf_b
            and ta.feature[na] == tb.feature[nb]
            and abs(float(ta.threshold[na]) - float(tb.threshold[nb])) <= atol
        )
        if not same:
            subtree(ta, na, only_a)
            subtree(tb, nb, only_b)
            continue
        pairs.append((int(ta.children_left[na]), int(tb.children_left[nb])))
        pairs.append((int(ta.children_right[na]), int(tb.children_right[nb])))
    return only_a, only_b


# --- click-to-trace ------------------------------------------------------------------------


def clicked_sample(
    points: Sequence[Mapping[str, Any]],
    curves: Sequence[int],
    test_index: np.ndarray,
    test_xy: np.ndarray | None = None,
) -> int | None:
    """Position in the test set of the clicked test sample, if any.

    ``points`` is a Plotly selection; a point counts when it lies on one of ``curves`` (the
    scatter traces) and its ``customdata`` is the row id of a test sample. A click on a
    training point that hides a test sample at the same spot (``test_xy``, shape
    ``(n_test, 2)`` in plot coordinates) picks that test sample.
    """
    for point in points:
        row = point.get("customdata")
        if point.get("curve_number") not in curves or row is None:
            continue
        row = row[0] if isinstance(row, list) else row
        position = np.flatnonzero(test_index == int(row))
        if position.size:
            return int(position[0])
    if test_xy is not None:
        for point in points:
            if point.get("curve_number") in curves and "x" in point and "y" in point:
                spot = np.array([point["x"], point["y"]], dtype=float)
                hidden = np.flatnonzero(np.all(np.isclose(test_xy, spot), axis=1))
                if hidden.size:
                    return int(hidden[0])
    return None


def mark_sample(figure: Any, row: Sequence[float], axes: tuple[int, int], label: str) -> None:
    """A star on the traced sample, above every other point (a 2-feature plot)."""
    figure.add_trace(
        go.Scatter(
            x=[float(row[axes[0]])],
            y=[float(row[axes[1]])],
            mode="markers",
            marker={
                "symbol": "star",
                "size": 22,
                "color": "#FFFFFF",
                "line": {"color": "#1A1A1A", "width": 2.5},
            },
            name=label,
            hovertemplate=f"{html.escape(label)}<extra></extra>",
        )
    )


# --- figure layout -------------------------------------------------------------------------


def legend_below(figure: Any) -> Any:
    """Move the legend under the plot, for figures that share the width with another."""
    figure.update_layout(
        legend={"orientation": "h", "x": 0, "xanchor": "left", "y": -0.2, "yanchor": "top"},
        margin={"b": 130},
    )
    return figure
