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
from typing import Any

import numpy as np
import plotly.graph_objects as go

from core.figures._layout import build_figure, merge, styled_layout, vline
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


#: The size of the labels over the bars (px): readable from the back of a room at 1280 wide.
VOTE_TEXT_SIZE = 12
#: Up to this many classes the bars stand, the class names under them. Beyond it a bar is
#: narrower than its label on a 390 px phone (two bars per class), and the labels of
#: neighbouring bars ran into each other ("44044%"): the bars then lie, one row each, and
#: every label has its bar's row to itself, however narrow the screen.
UPRIGHT_CLASSES = 4
#: Height of one class's row of lying bars (px): two bars, each taller than its label.
ROW_HEIGHT = 36
_ROW_GAP = 0.15  # share of a row between classes (Plotly's ``bargap``)


def percent_text(share: float) -> str:
    """A share in percent as a label says it: never "0%" for a share that is not zero.

    ``share`` is in percent. A class some trees voted for must not read as none ("0%" beside
    its count of 5), nor a class short of all of them as all: "<1%" and ">99%" say so.
    """
    if share <= 0.0:
        return ""
    if share < 1.0:
        return "<1%"
    if 99.0 < share < 100.0:
        return ">99%"
    return f"{share:.0f}%"


def vote_figure(votes: Votes, *, height: int = 320) -> go.Figure:
    """Hard and soft vote per class side by side (percent), or a histogram of predictions.

    With more than :data:`UPRIGHT_CLASSES` classes the bars lie, a row per class, and the
    figure grows to give each bar room for its label.
    """
    classify = votes.winners is not None
    if votes.winners is not None:
        traces, layout = _class_votes(votes, votes.winners, height)
    else:
        traces, layout = _value_votes(votes, height)
    layout["showlegend"] = classify
    merge(layout, {"margin": {"t": 30, "b": 40, "l": 60, "r": 20}})
    if classify:
        # Above the bars: below them it covered the class names at 1280 wide.
        merge(layout, {"margin": {"t": 50}})
        merge(layout, {"legend": {"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0}})
    return build_figure(traces, layout)


def _class_votes(
    votes: Votes, winners: IntArray, height: int
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Per class, the share of trees voting for it beside the average class share (percent).

    The two are how a forest can vote: each tree's class (hard), or each tree's class shares
    averaged (soft, what ``predict`` does). Each bar carries one label, its own.
    """
    n_trees = len(votes.per_tree)
    names = list(votes.class_names)
    lying = len(names) > UPRIGHT_CLASSES
    colors = [class_color(k) for k in range(len(names))]
    hard = (100.0 * winners / n_trees).tolist()
    soft = (100.0 * np.asarray(votes.forest)).tolist()
    if lying:
        # A row to itself: the count and its share, "44 (44%)", read as one.
        hard_text = [
            f"{count} ({percent_text(share)})" if count else ""
            for count, share in zip(winners, hard, strict=True)
        ]
    else:
        # The legend says of how many: a bar's label is its count alone. "974/1000" beside
        # "97%" ran into it on a 390 px phone, where a bar is 37 px wide. No label on an
        # empty bar: beside its neighbour's, two zero labels overlap.
        hard_text = [str(count) if count else "" for count in winners]
    bars: dict[str, Any] = {
        "textposition": "outside",
        "textfont": {"size": VOTE_TEXT_SIZE},
        "cliponaxis": False,
        # A label keeps its size: shrunk to its bar it was unreadable, and the row or the
        # column beside the bar is its room.
        "constraintext": "none",
        **({"orientation": "h"} if lying else {}),
    }

    def placed(values: list[float]) -> dict[str, Any]:
        return {"x": values, "y": names} if lying else {"x": names, "y": values}

    value = "%{x" if lying else "%{y"
    category = "%{y}" if lying else "%{x}"
    traces: list[dict[str, Any]] = [
        {
            "type": "bar",
            "name": f"trees voting for it, of {n_trees}",
            **placed(hard),
            "marker": {"color": colors},
            "text": hard_text,
            **bars,
            "customdata": winners.tolist(),
            "hovertemplate": f"{category}: %{{customdata}} of {n_trees} trees ({value}:.0f}}%) "
            "vote for it<extra></extra>",
            "offsetgroup": "hard",
        },
        {
            "type": "bar",
            "name": "average class share",
            **placed(soft),
            # The bars pale, not the trace: a trace's opacity paled its labels too, to a
            # grey a class could not read from the back (about 2.7:1 on white).
            "marker": {
                "color": colors,
                "opacity": 0.55,
                "pattern": {"shape": "/", "fgcolor": FONT_COLOR},
            },
            "text": [percent_text(share) for share in soft],
            **bars,
            "hovertemplate": f"{category}: average share {value}:.1f}}%<extra></extra>",
            "offsetgroup": "soft",
        },
    ]
    return traces, _class_layout(len(names), lying, height)


def _class_layout(n_classes: int, lying: bool, height: int) -> dict[str, Any]:
    """Percent ticks on the value axis, with room beyond 100% for the label of a full bar."""
    # The ticks say "%": an axis title beside them ran over them at 1280 wide.
    layout = styled_layout(title="", x_title="", y_title="", height=height)
    layout["barmode"] = "group"
    # Plotly shrinks a label to its bar's width ("1000 of 1000 trees" was 6 px at 1280):
    # short labels, never below a size a class can read.
    layout["uniformtext"] = {"minsize": VOTE_TEXT_SIZE, "mode": "show"}
    if not lying:
        # Headroom above a full bar, so its label is not cut off.
        layout["yaxis"].update(range=[0, 118], ticksuffix="%")
        return layout
    # The first class on top, as a list reads; past 100% the room of "100 (100%)".
    layout["yaxis"].update(autorange="reversed", type="category", automargin=True)
    layout["xaxis"].update(range=[0, 135], ticksuffix="%", dtick=50)
    layout["bargap"] = _ROW_GAP
    # Top and bottom margins as vote_figure sets them, plus a row per class.
    layout["height"] = max(height, 50 + 40 + ROW_HEIGHT * n_classes)
    return layout


def _value_votes(votes: Votes, height: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A histogram of the trees' predictions, with the forest's mean and the true value."""
    traces: list[dict[str, Any]] = [
        {
            "type": "histogram",
            "x": votes.per_tree,
            "nbinsx": 30,
            "name": "one tree's prediction",
            "marker": {"color": SERIES_COLORS["train"]},
        }
    ]
    mean, truth = float(votes.forest), votes.truth
    # Each label on the side away from the other line, so the two never overlap.
    mean_side, truth_side = ("left", "right") if mean >= truth else ("right", "left")
    layout = styled_layout(title="", x_title="prediction", y_title="trees", height=height)
    layout["shapes"] = [vline(mean, {"width": 3}), vline(truth, {"dash": "dash"})]
    layout["annotations"] = [
        _line_label(mean, "forest (mean)", mean_side),
        _line_label(truth, "true value", truth_side),
    ]
    return traces, layout


def _line_label(x: float, text: str, anchor: str) -> dict[str, Any]:
    """The label ``add_vline`` puts at the top of a line at ``x``, on its ``anchor`` side.

    ``anchor="left"`` is the text's left edge at the line: the label reads right of it.
    """
    return {
        "showarrow": False,
        "text": text,
        "x": x,
        "xanchor": anchor,
        "xshift": 4 if anchor == "left" else -4,  # clear of the 3 px line it names
        "xref": "x",
        "y": 1,
        "yanchor": "top",
        "yref": "y domain",
    }


__all__ = ["UPRIGHT_CLASSES", "Votes", "compute_votes", "percent_text", "vote_figure"]
