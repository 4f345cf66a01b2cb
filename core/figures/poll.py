"""The class poll's figures: a split poll's answers over the node's impurity curve, and a
multiple-choice poll's counts.

They draw plain data: the node's split scan (:class:`~core.figures.impurity_curves.SplitScanData`)
and the answers' thresholds binned per feature (:class:`AnswerHistogram`); counting and
scoring the answers is the class wing's (:mod:`core.classroom.poll`).

- :func:`poll_figure`: one feature's weighted child impurity curve, the answers as bars on a
  second axis, the node's impurity dashed; after the reveal, the tree's split.
- :func:`choice_figure`: the counts of a multiple-choice poll, the teacher's options escaped.
"""

from __future__ import annotations

import html
import math
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go

from core.figures._layout import axis_style, build_figure, merge, styled_layout, vline
from core.figures._model import FloatArray, IntArray
from core.figures.impurity_curves import SplitScanData
from core.figures.overlays import legend_below_layout
from core.figures.palette import FONT_COLOR, LINE_COLORS, blend

__all__ = ["AnswerHistogram", "PollPanel", "choice_figure", "poll_figure"]

#: Characters per line of a choice's option.
OPTION_WIDTH = 30


@dataclass(frozen=True)
class AnswerHistogram:
    """The answers' thresholds on one feature, in equal bins over the node's values.

    Attributes
    ----------
    edges : ndarray of shape (n_bins + 1,)
        From the node's lowest to its highest value of the feature.
    counts : ndarray of shape (n_bins,)
        Answers per bin; one below (above) every edge is counted in the first (last) bin, so
        the counts add up to the answers on the feature.
    n_outside : int
        Answers below the first edge or above the last one.
    """

    edges: FloatArray
    counts: IntArray
    n_outside: int


@dataclass(frozen=True)
class PollPanel:
    """One feature's answers at a node: what :func:`poll_figure` draws.

    Attributes
    ----------
    scan : SplitScanData
        The node's split scan: each feature's curve, the node's impurity, the tree's split.
    feature : int
        The feature drawn.
    histogram : AnswerHistogram
        The answers' thresholds on that feature.
    n_answers : int
        Every answer of the poll, on any feature (the title's "of n").
    """

    scan: SplitScanData
    feature: int
    histogram: AnswerHistogram
    n_answers: int


def _plain(text: str) -> str:
    """``text`` shown as typed: Plotly draws some HTML tags and entities in its text.

    Plotly decodes ``&lt;``, ``&gt;`` and ``&amp;`` (not ``&quot;``), so quotes stay as they are.
    """
    return html.escape(text, quote=False)


def _wrapped(text: str, width: int) -> str:
    """``text`` escaped for Plotly, in lines of at most ``width`` characters.

    Wrapped first, escaped line by line after: an entity is never cut in two, and a ``<br>``
    the teacher typed stays text.
    """
    lines = textwrap.wrap(text, width, break_long_words=True) or [""]
    return "<br>".join(_plain(line) for line in lines)


def _number(value: float) -> str:
    """A threshold as a label: three decimals at most, no trailing zeros (2.45, 12345.5)."""
    return f"{value:.3f}".rstrip("0").rstrip(".")


def _bar_axis(top: int) -> dict[str, Any]:
    """The right-hand axis of answer counts: whole numbers from 0, about five ticks."""
    step = max(1, math.ceil(top / 5))
    return merge(
        axis_style("answers"),
        {
            "overlaying": "y",
            "side": "right",
            "showgrid": False,
            "range": [0, max(top, 1) * 1.15],
            "tick0": 0,
            "dtick": step,
        },
    )


def poll_figure(
    panel: PollPanel,
    *,
    revealed: bool,
    height: int = 480,
    title: str | None = None,
) -> go.Figure:
    """One feature's answers over its weighted child impurity curve.

    Before the reveal, only the students' thresholds, as bars: the curve's lowest point would
    give the answer away on the projector. Once ``revealed``, the curve joins them: the scan's
    ``(n_L I(L) + n_R I(R)) / n`` against the threshold, with the bars on a second axis
    ("answers"), the node's impurity dashed (a split's gain is the gap below it), and the
    tree's split as a vertical line labelled "the tree's split" when the tree split on this
    feature, else a note naming its feature.

    Parameters
    ----------
    panel : PollPanel
        The feature to draw, its scan and its answers
        (:meth:`core.classroom.poll.PollResults.panel`).
    revealed : bool
        Whether the teacher revealed the tree's split.
    height : int, default 480
    title : str, optional
        None gives "<n> of <total> answers chose <feature>" (or "No answers yet"); "" none.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    scan, f, histogram = panel.scan, panel.feature, panel.histogram
    if not 0 <= f < len(scan.scans):
        raise ValueError(f"feature must be in [0, {len(scan.scans) - 1}], got {f}")
    name = _plain(scan.scans[f].name)
    count = int(histogram.counts.sum())
    if title is None:
        if panel.n_answers == 0:
            title = "No answers yet"
        else:
            title = f"{count} of {panel.n_answers} answers chose {name}"
    layout = styled_layout(
        title=title,
        x_title=f"threshold on {name}",
        y_title=f"weighted child {scan.impurity_name}",
        height=height,
    )
    low, high = float(histogram.edges[0]), float(histogram.edges[-1])
    top_count = int(histogram.counts.max(initial=0))
    if revealed:
        layout["yaxis2"] = _bar_axis(top_count)
        layout["yaxis"]["rangemode"] = "tozero"
    else:  # the answers alone: the curve's lowest point would give the answer away
        bars = {k: v for k, v in _bar_axis(top_count).items() if k != "overlaying"}
        layout["yaxis"] = {**bars, "side": "left", "showgrid": True}
    layout["xaxis"]["range"] = [low - (high - low) * 0.02, high + (high - low) * 0.02]
    traces = [_answer_bars(histogram, revealed)]
    if revealed:
        traces += _curves(scan, f, low, high)
        shapes, annotations = _tree_split_marks(scan, f, low, high)
        layout["margin"]["t"] += 26  # room for the label above the plot
        if shapes:
            layout["shapes"] = shapes
        layout["annotations"] = annotations
    layout["bargap"] = 0
    merge(layout, legend_below_layout(layout["height"], layout["margin"]["t"]))
    return build_figure(traces, layout)


def _answer_bars(histogram: AnswerHistogram, revealed: bool) -> dict[str, Any]:
    """The answers' thresholds as bars, one per bin (on the second axis once revealed)."""
    edges = histogram.edges
    bar_color = LINE_COLORS[2]
    return {
        "type": "bar",
        "x": (edges[:-1] + edges[1:]) / 2,
        "y": histogram.counts,
        "width": float(edges[1] - edges[0]),
        "customdata": np.stack([edges[:-1], edges[1:]], axis=-1),
        "name": "answers",
        "yaxis": "y2" if revealed else "y",
        "marker": {"color": blend(bar_color, 0.45), "line": {"color": bar_color, "width": 1}},
        "opacity": 0.8,
        "hovertemplate": "%{y} answers from %{customdata[0]:.3g} to %{customdata[1]:.3g}"
        "<extra></extra>",
    }


def _curves(scan: SplitScanData, feature: int, low: float, high: float) -> list[dict[str, Any]]:
    """The feature's weighted child impurity curve, and the node's impurity dashed."""
    curve = scan.scans[feature]
    name = _plain(curve.name)
    return [
        {
            "type": "scatter",
            "x": curve.thresholds,
            "y": curve.child_impurity,
            "mode": "lines",
            "name": f"weighted child {scan.impurity_name}",
            "line": {"color": LINE_COLORS[0], "width": 3},
            "hovertemplate": f"{name} ≤ %{{x:.3f}}: %{{y:.3f}}<extra></extra>",
        },
        {
            "type": "scatter",
            "x": [low, high],
            "y": [scan.parent_impurity, scan.parent_impurity],
            "mode": "lines",
            "name": f"this node's {scan.impurity_name} ({scan.parent_impurity:.3f})",
            "line": {"color": FONT_COLOR, "width": 1.5, "dash": "dash"},
            "hoverinfo": "skip",
        },
    ]


def _tree_split_marks(
    scan: SplitScanData, feature: int, low: float, high: float
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The revealed tree's split: a labelled line on its own feature, else a note above."""
    note = _tree_split_note(scan, feature)
    above = {"yref": "paper", "y": 1, "yanchor": "bottom", "showarrow": False}
    if note is not None or scan.chosen_threshold is None:
        text = note or ""
        return [], [{**above, "text": text, "x": 0, "xref": "paper", "xanchor": "left"}]
    at = scan.chosen_threshold
    label = {
        **above,
        "text": f"the tree's split (≤ {_number(at)})",
        "x": at,
        "xref": "x",
        "xanchor": "left" if at <= (low + high) / 2 else "right",
        "font": {"color": LINE_COLORS[1], "size": 15},
    }
    return [vline(at, {"color": LINE_COLORS[1], "width": 3})], [label]


def _tree_split_note(scan: SplitScanData, feature: int) -> str | None:
    """What the revealed figure says of the tree's split when no line can show it here."""
    if scan.chosen_feature is None or scan.chosen_threshold is None:
        return "The tree does not split this node: it is a leaf"
    if scan.chosen_feature != feature:
        other = _plain(scan.scans[scan.chosen_feature].name)
        return f"The tree split on {other} (≤ {_number(scan.chosen_threshold)})"
    if not math.isfinite(scan.chosen_threshold):
        return "The tree split the rows without a value from the others"
    return None


def choice_figure(
    options: Sequence[str], counts: Sequence[int], *, height: int | None = None
) -> go.Figure:
    """A multiple-choice poll's counts as horizontal bars, the count and share at each bar.

    The options are drawn as typed: escaped for Plotly (a teacher's ``<b>`` shows as
    ``<b>``), wrapped at :data:`OPTION_WIDTH` characters, first option at the top.

    Parameters
    ----------
    options : sequence of str
        The options, as the teacher typed them.
    counts : sequence of int
        Answers per option, same length, each >= 0.
    height : int, optional
        Default ``120 + 70 * len(options)`` px.

    Returns
    -------
    plotly.graph_objects.Figure

    Raises
    ------
    ValueError
        When the lengths differ, there is no option, or a count is negative.
    """
    if len(options) != len(counts):
        raise ValueError(
            f"options and counts must have the same length, got {len(options)} and {len(counts)}"
        )
    if not options:
        raise ValueError("options must hold at least one option, got none")
    number = np.asarray(counts, dtype=np.intp)
    if (number < 0).any():
        raise ValueError(f"counts must be >= 0, got {list(counts)}")
    total = int(number.sum())
    shares = number / total if total else np.zeros(len(number))
    texts = [f"{n} ({share:.0%})" for n, share in zip(number, shares, strict=True)]
    place = np.arange(len(options))  # by position: two options with the same text stay two
    layout = styled_layout(
        title=None, x_title="answers", y_title="", height=height or 120 + 70 * len(options)
    )
    top = max(int(number.max()), 1)
    merge(
        layout,
        {
            "xaxis": {"range": [0, top * 1.3], "rangemode": "tozero", "tick0": 0},
            "yaxis": {
                "tickvals": place,
                "ticktext": [_wrapped(option, OPTION_WIDTH) for option in options],
                "autorange": "reversed",
                "showgrid": False,
            },
            "bargap": 0.35,
        },
    )
    layout["xaxis"]["dtick"] = max(1, math.ceil(top / 5))
    trace = {
        "type": "bar",
        "orientation": "h",
        "x": number,
        "y": place,
        "text": texts,
        "textposition": "outside",
        "cliponaxis": False,
        "textfont": {"size": 16, "color": FONT_COLOR},
        "marker": {"color": LINE_COLORS[0]},
        "hovertemplate": "%{text}<extra></extra>",
        "showlegend": False,
    }
    return build_figure([trace], layout)
