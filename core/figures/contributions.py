"""How one prediction is built: the value at the root, then what each question on the path adds.

A tree predicts the value of the leaf a row lands in: a class share (classification) or the
mean of the leaf's training targets (regression). Each node has such a value too, so along the
row's path from the root to its leaf, node ``v_0`` (the root) to ``v_L`` (the leaf),

    prediction = v_L = v_0 + (v_1 - v_0) + (v_2 - v_1) + ... + (v_L - v_{L-1}),

and each step ``v_{j+1} - v_j`` is the work of one question, on one feature. Summed per feature
they are that feature's contribution to this prediction. For a forest, whose prediction is the
mean of its trees', the contributions are the mean of each tree's: the root values' mean plus
the features' mean contributions is again exactly the forest's prediction.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go
from numpy.typing import ArrayLike

from core.figures._layout import build_figure, merge, styled_layout, wrap_text
from core.figures.palette import LINE_COLORS, MUTED_COLOR

__all__ = [
    "Contributions",
    "forest_contributions",
    "path_contributions",
    "waterfall_figure",
]


@dataclass(frozen=True)
class Contributions:
    """A prediction taken apart.

    Attributes
    ----------
    what : str
        What the numbers are: ``"share of virginica"`` or ``"prediction"``.
    start : float
        The value at the root (the training share of the class, or the training mean); for a
        forest, the mean over the trees.
    steps : tuple of (str, float)
        The change at each step, labelled: a tree's questions in path order
        (``"petal width ≤ 1.75"``), or a forest's features, largest change first.
    prediction : float
        ``start + sum of the steps``: the tree's leaf value or the forest's prediction.
    """

    what: str
    start: float
    steps: tuple[tuple[str, float], ...]
    prediction: float


def _path(tree: Any, row: np.ndarray) -> list[int]:
    """Node ids from the root to the row's leaf (preorder ids grow down a path).

    ``row`` is already a float array, so it goes to the flat tree itself: the estimator's
    ``decision_path`` would check it again for each of a forest's hundred trees.
    """
    return [int(n) for n in tree.tree_.path(row)]


def _node_values(tree: Any, column: int) -> np.ndarray:
    """Each node's value: its share of class ``column``, or its mean (column 0)."""
    values = np.asarray(tree.tree_.value, dtype=float)[:, 0, :]
    if values.shape[1] > 1:
        values = values / np.maximum(values.sum(axis=1, keepdims=True), 1e-300)
    return values[:, column]


def path_contributions(
    tree: Any,
    row: ArrayLike,
    feature_names: Sequence[str],
    *,
    class_index: int | None = None,
    class_name: str = "",
) -> Contributions:
    """One tree's prediction for ``row``, from the root's value through each question.

    Parameters
    ----------
    tree : fitted tree of ours
    row : sequence of float, length n_features
    feature_names : sequence of str
    class_index : int, optional
        Which class's share to explain (a column of ``tree_.value``); default the class the
        tree predicts. Ignored for regression.
    class_name : str
        Its name, for ``what``.
    """
    x = np.asarray(row, dtype=float)
    path = _path(tree, x)
    values = np.asarray(tree.tree_.value, dtype=float)[:, 0, :]
    classify = values.shape[1] > 1 or hasattr(tree, "classes_")
    if classify and class_index is None:
        class_index = int(np.argmax(values[path[-1]]))
    column = int(class_index or 0) if classify else 0
    v = _node_values(tree, column)
    arrays = tree.tree_
    steps = []
    for parent, child in itertools.pairwise(path):
        f = int(arrays.feature[parent])
        side = "≤" if child == int(arrays.children_left[parent]) else ">"
        steps.append(
            (
                f"{feature_names[f]} {side} {float(arrays.threshold[parent]):.4g}",
                float(v[child] - v[parent]),
            )
        )
    what = f"share of {class_name}" if classify else "prediction"
    return Contributions(what, float(v[path[0]]), tuple(steps), float(v[path[-1]]))


def forest_contributions(
    forest: Any,
    row: ArrayLike,
    feature_names: Sequence[str],
    *,
    class_index: int | None = None,
    class_name: str = "",
    top: int = 8,
) -> Contributions:
    """The forest's prediction for ``row``: the trees' root values and per-feature changes,
    averaged over the trees (see the module).

    The ``top`` features with the largest changes come one by one, largest first; the others
    together as one step, "other features", so the sum stays exact.
    """
    x = np.asarray(row, dtype=float)
    classify = hasattr(forest, "classes_")
    if classify and class_index is None:
        class_index = int(np.argmax(forest.predict_proba(x.reshape(1, -1))[0]))
    column = int(class_index or 0) if classify else 0
    # Each tree's root value and its questions' changes, as path_contributions takes them
    # apart, added over the trees in one compiled walk and divided by their number.
    start, by_feature = forest.mean_path_changes(x, column)
    order = [f for f in np.argsort(-np.abs(by_feature), kind="stable") if by_feature[f] != 0]
    steps = [(str(feature_names[f]), float(by_feature[f])) for f in order[:top]]
    if len(order) > top:
        steps.append(("other features", float(by_feature[order[top:]].sum())))
    what = f"share of {class_name}" if classify else "prediction"
    return Contributions(what, float(start), tuple(steps), float(start + by_feature.sum()))


def waterfall_figure(parts: Contributions, *, height: int | None = None) -> go.Figure:
    """The root's value, each step as a rise or a fall, and the prediction they sum to.

    Bars run across, one row per step, top to bottom in order: the labels (rules, feature
    names) then read on one line each, also on a phone. ``height`` defaults to 60 px a row.
    """
    # A long feature name wraps: on a phone the names would leave the bars no room.
    names = [wrap_text(label, 16) for label, _ in parts.steps]
    labels = ["at the root", *names, "prediction"]
    measures = ["absolute", *("relative" for _ in parts.steps), "total"]
    values = [parts.start, *(change for _, change in parts.steps), 0.0]
    texts = [f"{parts.start:.2g}", *(f"{change:+.2g}" for _, change in parts.steps)]
    texts.append(f"{parts.prediction:.3g}")
    trace = {
        "type": "waterfall",
        "orientation": "h",
        "y": labels,
        "x": values,
        "measure": measures,
        "text": texts,
        "textposition": "outside",
        "cliponaxis": False,
        "textfont": {"size": 14},
        "increasing": {"marker": {"color": LINE_COLORS[0]}},
        "decreasing": {"marker": {"color": LINE_COLORS[1]}},
        "totals": {"marker": {"color": MUTED_COLOR}},
        "connector": {"line": {"color": MUTED_COLOR, "width": 1}},
        "hovertemplate": "%{y}: %{text}<extra></extra>",
        "showlegend": False,
    }
    rows = len(labels) + sum(label.count("<br>") for label in names)
    # Room beside the longest bar for its label: the labels stand outside short bars.
    levels = np.cumsum([parts.start, *(change for _, change in parts.steps)])
    low, high = min(0.0, float(levels.min())), max(0.0, float(levels.max()))
    pad = 0.5 * (high - low or 1.0)
    falls = low < 0 or any(change < 0 for _, change in parts.steps)
    layout = merge(
        styled_layout(title=None, x_title=parts.what, y_title="", height=height or 60 + 34 * rows),
        {
            "yaxis": {"autorange": "reversed", "automargin": True, "showgrid": False},
            # A fall's label stands left of its bar: room on that side too, whenever one falls.
            "xaxis": {"range": [low - (pad if falls else 0.0), high + pad]},
            "margin": {"t": 20, "b": 60, "r": 30},
        },
    )
    return build_figure([trace], layout)
