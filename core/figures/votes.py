"""How the trees of a forest voted on one sample: compute the votes, then draw them.

Classification: how many trees give each class the largest share. Regression: the spread of
the trees' predictions, with the forest's mean and the true value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from core.figures._layout import style_figure
from core.figures._model import FittedForest, FloatArray, IntArray, as_2d
from core.figures.palette import SERIES_COLORS, class_color


@dataclass(frozen=True)
class Votes:
    """The trees' answers for one sample.

    Attributes
    ----------
    per_tree : ndarray of shape (n_trees, n_classes) or (n_trees,)
        Each tree's class shares (classification) or prediction (regression).
    class_names : tuple of str
        Empty for regression.
    winners : ndarray of shape (n_classes,), or None for regression
        Trees whose largest share is each class.
    forest : ndarray of shape (n_classes,) or float
        The forest's answer: the mean of ``per_tree``.
    truth : float
        The true class index (classification) or value (regression).
    """

    per_tree: FloatArray
    class_names: tuple[str, ...]
    winners: IntArray | None
    forest: FloatArray
    truth: float


def compute_votes(
    forest: FittedForest, row: Sequence[float], truth: float, class_names: Sequence[str] = ()
) -> Votes:
    """Every tree's answer for the one sample ``row`` (shape ``(n_features,)``)."""
    per_tree = np.asarray(forest.predict_per_tree(as_2d(row, "row"))[:, 0], dtype=np.float64)
    winners = None
    if class_names:
        winners = np.bincount(per_tree.argmax(axis=1), minlength=len(class_names))
    return Votes(per_tree, tuple(class_names), winners, per_tree.mean(axis=0), float(truth))


def vote_figure(votes: Votes, *, height: int = 320) -> go.Figure:
    """Bars of trees per winning class, or a histogram of the trees' predictions."""
    figure = go.Figure()
    if votes.winners is not None:
        figure.add_bar(
            x=list(votes.class_names),
            y=votes.winners,
            marker_color=[class_color(k) for k in range(len(votes.class_names))],
            text=votes.winners,
            textposition="outside",
            cliponaxis=False,
            hovertemplate="%{x}: %{y} trees<extra></extra>",
        )
        # Headroom above a full bar, so its count label is not cut off.
        figure.update_yaxes(range=[0, 1.15 * len(votes.per_tree)])
        x_title, y_title = "", "trees voting for it"
    else:
        figure.add_histogram(
            x=votes.per_tree,
            nbinsx=30,
            name="one tree's prediction",
            marker_color=SERIES_COLORS["train"],
        )
        mean, truth = float(votes.forest), votes.truth
        right, left = "top right", "top left"
        figure.add_vline(
            x=mean,
            line_width=3,
            annotation_text="forest (mean)",
            annotation_position=right if mean >= truth else left,
        )
        figure.add_vline(
            x=truth,
            line_dash="dash",
            annotation_text="true value",
            annotation_position=left if mean >= truth else right,
        )
        x_title, y_title = "prediction", "trees"
    style_figure(figure, title="", x_title=x_title, y_title=y_title, height=height)
    figure.update_layout(showlegend=False, margin={"t": 30, "b": 40, "l": 60, "r": 20})
    return figure


__all__ = ["Votes", "compute_votes", "vote_figure"]
