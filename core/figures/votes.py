"""How the trees of a forest voted on one sample: compute the votes, then draw them.

Classification has two ways to count, and a student sees both side by side:

- the *hard vote*: each tree names the class with the largest share in its leaf, and the
  class named by most trees wins (how the random-forest articles describe it);
- the *soft vote*: the trees' class shares are averaged, and the largest average wins (what
  ``predict_proba`` and ``predict`` do, here and in scikit-learn).

A tree whose leaf holds 60% of one class counts as a whole vote for it but adds only 0.6 to
the average, so the two percentages differ, and on a close call even the winners can.
Regression: the spread of the trees' predictions, with the forest's mean and the true value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from core.figures._layout import style_figure
from core.figures._model import FittedForest, FloatArray, IntArray, as_2d
from core.figures.palette import FONT_COLOR, SERIES_COLORS, class_color


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
        Trees whose largest share is each class (the hard vote).
    forest : ndarray of shape (n_classes,) or float
        The forest's answer: the mean of ``per_tree`` (the soft vote).
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
    """Hard and soft vote per class side by side (percent), or a histogram of predictions."""
    figure = go.Figure()
    if votes.winners is not None:
        n_trees = len(votes.per_tree)
        names = list(votes.class_names)
        colors = [class_color(k) for k in range(len(names))]
        hard = (100.0 * votes.winners / n_trees).tolist()
        soft = (100.0 * np.asarray(votes.forest)).tolist()
        figure.add_bar(
            name="trees voting for it",
            x=names,
            y=hard,
            marker_color=colors,
            # No label on an empty bar: beside its neighbour's, two zero labels overlap.
            text=[f"{count} of {n_trees} trees" if count else "" for count in votes.winners],
            textposition="outside",
            cliponaxis=False,
            hovertemplate="%{x}: %{y:.0f}% of the trees vote for it<extra></extra>",
            offsetgroup="hard",
        )
        figure.add_bar(
            name="average class share",
            x=names,
            y=soft,
            marker={"color": colors, "pattern": {"shape": "/", "fgcolor": FONT_COLOR}},
            opacity=0.55,
            text=[f"{share:.0f}% share" if share >= 0.5 else "" for share in soft],
            textposition="outside",
            cliponaxis=False,
            hovertemplate="%{x}: average share %{y:.1f}%<extra></extra>",
            offsetgroup="soft",
        )
        # Headroom above a full bar, so its label is not cut off.
        figure.update_yaxes(range=[0, 118], ticksuffix="%")
        figure.update_layout(barmode="group")
        x_title, y_title = "", "percent"
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
    classify = votes.winners is not None
    figure.update_layout(showlegend=classify, margin={"t": 30, "b": 40, "l": 60, "r": 20})
    if classify:
        figure.update_layout(
            legend={"orientation": "h", "yanchor": "top", "y": -0.12, "x": 0, "title": None}
        )
    return figure


__all__ = ["Votes", "compute_votes", "vote_figure"]
