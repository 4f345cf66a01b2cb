"""The class poll "Where will the tree split this node?": score the answers, then draw them.

Each student answered a feature and a threshold (:class:`core.app.classroom.SplitAnswer`):
rows whose value is ≤ the threshold go left. An answer is scored as the tree would score that
split, with the split scan of the node (:func:`core.figures.impurity_curves.compute_split_scan`):

    gain = I(node) - (n_L I(L) + n_R I(R)) / n

Two thresholds that fall between the same two consecutive values of the node send the same
rows left, so they are the same split. The scan has one threshold per such gap (its midpoint),
so an answer takes the weighted child impurity of the scanned threshold in its own gap. Finding
the gap needs the node's values (:func:`node_rows`): between the values 2 and 3 the scan holds
2.5, and an answer of 2.2 lies below 2.5 yet makes the same split as it.

- :func:`compute_poll_results`: every answer's gain, the counts per feature, the share that
  chose the tree's feature and the tree's split, the best and median gain, and a histogram of
  the thresholds of each feature.
- :func:`poll_figure`: one feature's weighted child impurity curve, the answers as bars on a
  second axis, the node's impurity dashed; after the reveal, the tree's split.
- :func:`answer_counts_text`: the answers per feature, as one line for a caption.
- :func:`choice_figure`: the counts of a multiple-choice poll, the teacher's options escaped.
"""

from __future__ import annotations

import html
import math
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import plotly.graph_objects as go
from numpy.typing import ArrayLike

from core.app.classroom import SplitAnswer
from core.engine import node_splits
from core.figures._layout import axis_style, build_figure, merge, styled_layout, vline
from core.figures._model import FittedModel, FloatArray, IntArray, as_2d, select_tree
from core.figures.impurity_curves import SplitScanData
from core.figures.overlays import legend_below_layout
from core.figures.palette import FONT_COLOR, LINE_COLORS, blend

__all__ = [
    "AnswerHistogram",
    "PollResults",
    "ScoredAnswer",
    "Verdict",
    "answer_counts_text",
    "choice_figure",
    "compute_poll_results",
    "node_rows",
    "poll_figure",
    "score_answer",
]

#: What became of one answer:
#:
#: - ``"scored"``: a split the tree considers; ``gain`` is its gain.
#: - ``"one_side"``: below every value of the node or above them all: every row goes one way,
#:   nothing is split, the gain is 0.
#: - ``"not_allowed"``: a split the tree never scores (a side would hold fewer rows than
#:   ``min_samples_leaf``; or, with missing values, every present row left and only the missing
#:   ones right, a split the curve has no place for): no gain.
#: - ``"no_feature"``: the feature is not a column of the table: no gain.
Verdict = Literal["scored", "one_side", "not_allowed", "no_feature"]

_NOTES: dict[Verdict, str] = {
    "scored": "",
    "one_side": "every row goes the same way: nothing is split (gain 0)",
    "not_allowed": "the tree never tries this split (a side would be too small)",
    "no_feature": "no such feature in this table",
}

#: Bars of the thresholds' histogram, per feature.
N_BINS = 20
#: Characters per line of a choice's option.
OPTION_WIDTH = 30


@dataclass(frozen=True)
class ScoredAnswer:
    """One student's split, scored as the tree scores it.

    Attributes
    ----------
    feature : int
    threshold : float
    verdict : {"scored", "one_side", "not_allowed", "no_feature"}
        See :data:`Verdict`.
    n_left : int
        The node's rows with a value ≤ ``threshold`` (rows without a value not counted);
        0 when ``verdict`` is ``"no_feature"``.
    child_impurity : float or None
        ``(n_L I(L) + n_R I(R)) / n``; the node's impurity for ``"one_side"``; None when
        there is no gain.
    gain : float or None
        The node's impurity less ``child_impurity``.
    same_as_tree : bool
        The answer's split sends exactly the rows left that the tree's split sends left.
    note : str
        Why the gain is 0 or missing, in words ("" when scored).
    """

    feature: int
    threshold: float
    verdict: Verdict
    n_left: int
    child_impurity: float | None
    gain: float | None
    same_as_tree: bool
    note: str


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
class PollResults:
    """A split poll's answers at one node, scored, with the tree's own split.

    Attributes
    ----------
    scan : SplitScanData
        The node's split scan: each feature's curve, the node's impurity, the tree's split.
    answers : tuple of ScoredAnswer
        In the order given.
    counts : ndarray of shape (n_features,)
        Answers per feature.
    n_answers : int
        Every answer, those naming no feature too.
    histograms : tuple of AnswerHistogram
        One per feature.
    tree_gain : float or None
        The gain of the tree's split (None at a leaf).
    share_on_tree_feature, share_on_tree_split : float or None
        Of all answers, the share on the tree's feature, and the share making the tree's very
        split (same rows left). None with no answers, or at a leaf.
    best_gain, median_gain : float or None
        Over the answers that have a gain; None when none has.
    """

    scan: SplitScanData
    answers: tuple[ScoredAnswer, ...]
    counts: IntArray
    n_answers: int
    histograms: tuple[AnswerHistogram, ...]
    tree_gain: float | None
    share_on_tree_feature: float | None
    share_on_tree_split: float | None
    best_gain: float | None
    median_gain: float | None

    @property
    def most_answered(self) -> int:
        """The feature most answers chose (the lowest index of a tie; 0 with no answers)."""
        return int(np.argmax(self.counts)) if self.counts.size else 0


def node_rows(
    model: FittedModel, X_train: ArrayLike, node_id: int, *, tree_index: int | None = None
) -> FloatArray:
    """The training rows that pass through ``node_id``: what :func:`compute_poll_results` needs
    beside the scan to find which split each answer makes.

    Parameters
    ----------
    model : fitted tree or forest of ours
    X_train : array-like of shape (n_samples, n_features)
        The data the tree was fitted on (as given to ``compute_split_scan``).
    node_id : int
    tree_index : int, optional
        Which tree of a forest.

    Returns
    -------
    ndarray of shape (n_node_samples, n_features)
    """
    tree = select_tree(model, tree_index)
    n_nodes = len(np.asarray(tree.tree_.children_left))
    if not 0 <= node_id < n_nodes:
        raise ValueError(f"node_id must be in [0, {n_nodes - 1}], got {node_id}")
    X = as_2d(X_train, "X_train")
    return X[node_splits.node_rows(tree, X, node_id)]


@dataclass(frozen=True)
class _Gaps:
    """One feature at the node: its values, and the scanned threshold of each gap."""

    present: FloatArray  # the node's values of the feature, NaN left out, sorted
    values: FloatArray  # the distinct ones
    has_missing: bool
    # scanned[k]: the index in the scan's thresholds of the split "the k lowest values left"
    scanned: dict[int, int]


def _gaps(scan: SplitScanData, X_node: FloatArray) -> tuple[_Gaps, ...]:
    gaps = []
    for feature_scan, column in zip(scan.scans, X_node.T, strict=True):
        present = np.sort(column[~np.isnan(column)])
        values = np.unique(present)
        # A scanned threshold t lies in [low, high) of its gap (core.engine.scan.midpoint):
        # the values <= t are the values below the gap, so t is "the k lowest values left".
        below = np.searchsorted(values, feature_scan.thresholds, side="right")
        scanned = {int(k): i for i, k in enumerate(below)}
        gaps.append(_Gaps(present, values, present.size < column.size, scanned))
    return tuple(gaps)


def _score(
    scan: SplitScanData, gaps: Sequence[_Gaps], answer: SplitAnswer, tree_left: int | None
) -> ScoredAnswer:
    feature, threshold = int(answer.feature), float(answer.threshold)
    if not 0 <= feature < len(scan.scans):
        return ScoredAnswer(
            feature, threshold, "no_feature", 0, None, None, False, _NOTES["no_feature"]
        )
    gap = gaps[feature]
    # NaN compares false with every value: no row goes left.
    at = -math.inf if math.isnan(threshold) else threshold
    k = int(np.searchsorted(gap.values, at, side="right"))
    n_left = int(np.searchsorted(gap.present, at, side="right"))
    verdict: Verdict
    child: float | None
    if k in gap.scanned:
        verdict = "scored"
        child = float(scan.scans[feature].child_impurity[gap.scanned[k]])
    elif k == 0 or (k == gap.values.size and not gap.has_missing):
        verdict, child = "one_side", scan.parent_impurity
    else:
        verdict, child = "not_allowed", None
    gain = None if child is None else scan.parent_impurity - child
    same = feature == scan.chosen_feature and n_left == tree_left
    return ScoredAnswer(feature, threshold, verdict, n_left, child, gain, same, _NOTES[verdict])


def _histogram(gap: _Gaps, thresholds: Sequence[float], n_bins: int) -> AnswerHistogram:
    if gap.values.size:
        low, high = float(gap.values[0]), float(gap.values[-1])
    else:
        low = high = 0.0
    if high <= low:  # one value: a bin a unit wide around it
        low, high = low - 0.5, high + 0.5
    edges = np.linspace(low, high, n_bins + 1)
    at = np.asarray(thresholds, dtype=np.float64)
    at[np.isnan(at)] = -np.inf  # sends no row left, as a threshold below every value
    outside = int(np.count_nonzero((at < low) | (at > high)))
    counts, _ = np.histogram(np.clip(at, low, high), bins=edges)
    return AnswerHistogram(edges, counts.astype(np.intp), outside)


def compute_poll_results(
    scan: SplitScanData,
    answers: Sequence[SplitAnswer],
    X_node: ArrayLike,
    *,
    n_bins: int = N_BINS,
) -> PollResults:
    """Score every answer of a split poll as the tree scores a split, and sum them up.

    An answer "rows with ``feature`` ≤ ``threshold`` go left" is the split of the scan whose
    threshold lies between the same two consecutive values of the node; it takes that
    threshold's weighted child impurity from the scan (with missing values, the better side
    for them, as the tree picks it), and its gain is

        gain = I(node) - (n_L I(L) + n_R I(R)) / n

    An answer below every value of the node, or above them all, splits nothing: gain 0.

    Parameters
    ----------
    scan : SplitScanData
        The node's split scan (:func:`~core.figures.impurity_curves.compute_split_scan`).
    answers : sequence of SplitAnswer
        The students' answers (any order; one per student).
    X_node : array-like of shape (n_node_samples, n_features)
        The node's training rows (:func:`node_rows`), which place each answer between two
        values.
    n_bins : int, default 20
        Bars of each feature's histogram of thresholds.

    Returns
    -------
    PollResults

    Raises
    ------
    ValueError
        When ``X_node`` does not have the scan's shape, or ``n_bins`` < 1.
    """
    if n_bins < 1:
        raise ValueError(f"n_bins must be >= 1, got {n_bins}")
    rows = as_2d(X_node, "X_node")
    if rows.shape != (scan.n_samples, len(scan.scans)):
        raise ValueError(
            f"X_node must hold the node's {scan.n_samples} rows of {len(scan.scans)} features, "
            f"got shape {rows.shape}"
        )
    gaps = _gaps(scan, rows)
    tree_left = None
    tree_gain = None
    if scan.chosen_feature is not None and scan.chosen_threshold is not None:
        present = gaps[scan.chosen_feature].present
        tree_left = int(np.searchsorted(present, scan.chosen_threshold, side="right"))
    if scan.chosen_impurity is not None:
        tree_gain = scan.parent_impurity - scan.chosen_impurity
    scored = tuple(_score(scan, gaps, answer, tree_left) for answer in answers)
    n_features = len(scan.scans)
    counts = np.zeros(n_features, dtype=np.intp)
    for one in scored:
        if one.verdict != "no_feature":
            counts[one.feature] += 1
    histograms = tuple(
        _histogram(gaps[f], [a.threshold for a in scored if a.feature == f], n_bins)
        for f in range(n_features)
    )
    gains = [a.gain for a in scored if a.gain is not None]
    n = len(scored)
    on_feature = on_split = None
    if n and scan.chosen_feature is not None:
        on_feature = sum(a.feature == scan.chosen_feature for a in scored) / n
        on_split = sum(a.same_as_tree for a in scored) / n
    return PollResults(
        scan=scan,
        answers=scored,
        counts=counts,
        n_answers=n,
        histograms=histograms,
        tree_gain=tree_gain,
        share_on_tree_feature=on_feature,
        share_on_tree_split=on_split,
        best_gain=max(gains) if gains else None,
        median_gain=float(np.median(gains)) if gains else None,
    )


def score_answer(scan: SplitScanData, X_node: ArrayLike, answer: SplitAnswer) -> ScoredAnswer:
    """One answer scored as the tree would score its split (a student's own gain).

    Parameters
    ----------
    scan : SplitScanData
        The node's split scan.
    X_node : array-like of shape (n_node_samples, n_features)
        The node's rows (:func:`node_rows`).
    answer : SplitAnswer

    Returns
    -------
    ScoredAnswer
    """
    return compute_poll_results(scan, [answer], X_node).answers[0]


# --- the figures -------------------------------------------------------------------------------


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
    results: PollResults,
    feature: int | None = None,
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
    results : PollResults
    feature : int, optional
        The feature to draw; default the one most answers chose.
    revealed : bool
        Whether the teacher revealed the tree's split.
    height : int, default 480
    title : str, optional
        None gives "<n> of <total> answers chose <feature>" (or "No answers yet"); "" none.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    scan = results.scan
    f = results.most_answered if feature is None else feature
    if not 0 <= f < len(scan.scans):
        raise ValueError(f"feature must be in [0, {len(scan.scans) - 1}], got {feature}")
    curve = scan.scans[f]
    histogram = results.histograms[f]
    name = _plain(curve.name)
    count = int(results.counts[f])
    if title is None:
        if results.n_answers == 0:
            title = "No answers yet"
        else:
            title = f"{count} of {results.n_answers} answers chose {name}"
    layout = styled_layout(
        title=title,
        x_title=f"threshold on {name}",
        y_title=f"weighted child {scan.impurity_name}",
        height=height,
    )
    edges = histogram.edges
    centres = (edges[:-1] + edges[1:]) / 2
    low, high = float(edges[0]), float(edges[-1])
    top_count = int(histogram.counts.max(initial=0))
    if revealed:
        layout["yaxis2"] = _bar_axis(top_count)
        layout["yaxis"]["rangemode"] = "tozero"
    else:  # the answers alone: the curve's lowest point would give the answer away
        bars = {k: v for k, v in _bar_axis(top_count).items() if k != "overlaying"}
        layout["yaxis"] = {**bars, "side": "left", "showgrid": True}
    layout["xaxis"]["range"] = [low - (high - low) * 0.02, high + (high - low) * 0.02]
    bar_color = LINE_COLORS[2]
    traces: list[dict[str, Any]] = [
        {
            "type": "bar",
            "x": centres,
            "y": histogram.counts,
            "width": float(edges[1] - edges[0]),
            "customdata": np.stack([edges[:-1], edges[1:]], axis=-1),
            "name": "answers",
            "yaxis": "y2" if revealed else "y",
            "marker": {"color": blend(bar_color, 0.45), "line": {"color": bar_color, "width": 1}},
            "opacity": 0.8,
            "hovertemplate": "%{y} answers from %{customdata[0]:.3g} to %{customdata[1]:.3g}"
            "<extra></extra>",
        },
    ]
    curves: list[dict[str, Any]] = [
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
    if revealed:
        traces += curves
    shapes: list[dict[str, Any]] = []
    annotations: list[dict[str, Any]] = []
    if revealed:
        note = _tree_split_note(results, f)
        above = {"yref": "paper", "y": 1, "yanchor": "bottom", "showarrow": False}
        if note is None and scan.chosen_threshold is not None:
            at = scan.chosen_threshold
            shapes.append(vline(at, {"color": LINE_COLORS[1], "width": 3}))
            left_half = at <= (low + high) / 2
            annotations.append(
                {
                    **above,
                    "text": f"the tree's split (≤ {_number(at)})",
                    "x": at,
                    "xref": "x",
                    "xanchor": "left" if left_half else "right",
                    "font": {"color": LINE_COLORS[1], "size": 15},
                }
            )
        elif note is not None:
            annotations.append({**above, "text": note, "x": 0, "xref": "paper", "xanchor": "left"})
        layout["margin"]["t"] += 26  # room for the label above the plot
    if shapes:
        layout["shapes"] = shapes
    if annotations:
        layout["annotations"] = annotations
    layout["bargap"] = 0
    merge(layout, legend_below_layout(layout["height"], layout["margin"]["t"]))
    return build_figure(traces, layout)


def _tree_split_note(results: PollResults, feature: int) -> str | None:
    """What the revealed figure says of the tree's split when no line can show it here."""
    scan = results.scan
    if scan.chosen_feature is None or scan.chosen_threshold is None:
        return "The tree does not split this node: it is a leaf"
    if scan.chosen_feature != feature:
        other = _plain(scan.scans[scan.chosen_feature].name)
        return f"The tree split on {other} (≤ {_number(scan.chosen_threshold)})"
    if not math.isfinite(scan.chosen_threshold):
        return "The tree split the rows without a value from the others"
    return None


def answer_counts_text(results: PollResults) -> str:
    """How many answered on each feature, most first, as one plain line for a caption.

    >>> "30 answers: petal length (cm) 18 · petal width (cm) 12"  # doctest: +SKIP

    Feature names are as the table has them (not escaped: the caller escapes for Markdown).
    """
    if results.n_answers == 0:
        return "No answers yet."
    order = sorted(range(len(results.counts)), key=lambda f: (-results.counts[f], f))
    parts = [
        f"{results.scan.scans[f].name} {results.counts[f]}" for f in order if results.counts[f]
    ]
    elsewhere = results.n_answers - int(results.counts.sum())
    if elsewhere:
        parts.append(f"no such feature {elsewhere}")
    word = "answer" if results.n_answers == 1 else "answers"
    return f"{results.n_answers} {word}: " + " · ".join(parts)


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
