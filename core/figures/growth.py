"""Figures for watching a tree grow: split tables, the newest split's line, my split vs the tree's.

- :func:`history_rows`: the splits made so far, one plain row each, for ``st.dataframe``;
- :func:`candidate_rows`: the best split of every feature at a node (why this split);
- :func:`node_region` and :func:`split_segment`: the box a node covers in two plotted
  features, and its split drawn as a line across that box; :func:`add_split_segment` puts the
  line on a decision-boundary figure;
- :func:`split_comparison_figure`: a student's split against the tree's best, as two bars.

Everything is computed from the tree's arrays (:mod:`core.engine.replay`), then drawn.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import plotly.graph_objects as go

from core.engine.node_splits import SplitCandidates
from core.engine.replay import GrowthSteps
from core.engine.splits import SplitComparison, SplitEvaluation
from core.engine.structure import TREE_LEAF, Tree
from core.figures import rules
from core.figures._layout import build_figure, styled_layout, wrap_text
from core.figures.boundary import BoundaryData
from core.figures.palette import FONT_COLOR, LINE_COLORS, MUTED_COLOR
from core.figures.rules import Categories, category_of

__all__ = [
    "Region",
    "SplitSegment",
    "add_split_segment",
    "boundary_split_segment",
    "candidate_rows",
    "history_rows",
    "node_region",
    "rule_text",
    "side_text",
    "split_comparison_figure",
    "split_segment",
]

Row = dict[str, object]

#: Characters per line of a split's rule beside its bar.
RULE_WIDTH = 24


def rule_text(
    feature_names: Sequence[str],
    feature: int,
    threshold: float,
    categories: Categories | None = None,
    missing_left: bool | None = None,
) -> str:
    """A split rule as a student reads it: ``"petal width (cm) ≤ 0.8"``, ``"sex is not
    female"`` for a one-hot column, with ``(missing → left)`` when ``missing_left`` is given
    (see :func:`core.figures.rules.rule_text`)."""
    category = category_of(categories, feature)
    return rules.rule_text(feature_names[feature], threshold, category, missing_left)


def history_rows(
    steps: GrowthSteps,
    feature_names: Sequence[str],
    *,
    upto: int | None = None,
    categories: Categories | None = None,
) -> list[Row]:
    """The first ``upto`` splits (default all), one row each, in the order they were made.

    Columns: ``step`` (1-based), ``node`` (id in the fitted tree), ``rule``, ``samples``,
    ``impurity before``, ``weighted impurity after``, ``gain`` and ``weighted decrease``
    (``samples / N * gain``, the growth order's key).
    """
    n = len(steps) if upto is None else upto
    if not 0 <= n <= len(steps):
        raise ValueError(f"upto must be in [0, {len(steps)}] or None; got {upto}")
    return [
        {
            "step": k + 1,
            "node": int(steps.node[k]),
            "rule": rule_text(
                feature_names, int(steps.feature[k]), float(steps.threshold[k]), categories
            ),
            "samples": int(steps.n_samples[k]),
            "impurity before": float(steps.impurity[k]),
            "weighted impurity after": float(steps.child_impurity[k]),
            "gain": float(steps.gain[k]),
            "weighted decrease": float(steps.decrease[k]),
        }
        for k in range(n)
    ]


def side_text(n: int, counts: tuple[float, ...]) -> str:
    """``"52 (45/6/1)"``: samples, then class counts (classification) in class order."""
    if not counts:
        return str(n)
    return f"{n} ({'/'.join(str(round(c)) for c in counts)})"


def candidate_rows(
    candidates: SplitCandidates,
    feature_names: Sequence[str],
    categories: Categories | None = None,
) -> list[Row]:
    """The candidates table: one row per feature's best split, the tree's split first.

    Columns: ``tree's split`` (True on the split the tree made), ``feature``, ``rule``,
    ``left`` and ``right`` (samples, with class counts as ``"45/6/1"`` for a classifier),
    ``weighted impurity`` after the split and ``gain``.
    """
    rows: list[Row] = []
    for i, s in enumerate(candidates.rows):
        rows.append(
            {
                "tree's split": i == candidates.chosen,
                "feature": feature_names[s.feature],
                "rule": rule_text(
                    feature_names,
                    s.feature,
                    s.threshold,
                    categories,
                    s.missing_left if s.n_missing else None,
                ),
                "left": side_text(s.n_left, s.left_counts),
                "right": side_text(s.n_right, s.right_counts),
                "weighted impurity": s.child_impurity,
                "gain": s.gain,
            }
        )
    return rows


# --------------------------------------------------------------------------------------------
# Where a node lives in the plane of two features
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Region:
    """The box of a node in two plotted features: ``x_low < x <= x_high``, likewise for y.

    Attributes
    ----------
    features : tuple of int
        The plotted features (x, then y).
    x_low, x_high, y_low, y_high : float
        Bounds from the splits above the node, clipped to the plotted ranges.
    other_rules : tuple of (int, bool, float)
        Splits above the node on features that are not plotted: ``(feature, went_left,
        threshold)``. On a 2-D slice the box is only real when the slice satisfies them.
    """

    features: tuple[int, int]
    x_low: float
    x_high: float
    y_low: float
    y_high: float
    other_rules: tuple[tuple[int, bool, float], ...]


def _path_to(tree: Tree, node: int) -> list[int]:
    """Node ids from the root down to ``node``."""
    if not 0 <= node < tree.node_count:
        raise ValueError(f"node must be in [0, {tree.node_count - 1}]; got {node}")
    parent = np.full(tree.node_count, -1, dtype=np.int64)
    inner = np.flatnonzero(tree.children_left != TREE_LEAF)
    parent[tree.children_left[inner]] = inner
    parent[tree.children_right[inner]] = inner
    path = [node]
    while path[-1] != 0:
        path.append(int(parent[path[-1]]))
    return path[::-1]


def node_region(
    tree: Tree,
    node: int,
    features: tuple[int, int],
    *,
    x_range: tuple[float, float],
    y_range: tuple[float, float],
) -> Region:
    """The box of ``node`` in the plane of ``features``, within the plotted ranges.

    Walk from the root to the node; each split on a plotted feature moves one side of the box
    to its threshold: going left (``x <= t``) lowers the upper bound, going right raises the
    lower one.
    """
    box = {features[0]: list(x_range), features[1]: list(y_range)}
    others: list[tuple[int, bool, float]] = []
    path = _path_to(tree, node)
    for above, below in itertools.pairwise(path):
        f, t = int(tree.feature[above]), float(tree.threshold[above])
        went_left = below == tree.children_left[above]
        if f in box:
            if went_left:
                box[f][1] = min(box[f][1], t)
            else:
                box[f][0] = max(box[f][0], t)
        else:
            others.append((f, bool(went_left), t))
    x, y = box[features[0]], box[features[1]]
    return Region(features, x[0], x[1], y[0], y[1], tuple(others))


@dataclass(frozen=True)
class SplitSegment:
    """A node's split drawn in two features: a segment across the node's box.

    ``orientation`` is ``"vertical"`` for a split on the x feature (the line ``x = t``) and
    ``"horizontal"`` for one on the y feature.
    """

    node: int
    orientation: Literal["vertical", "horizontal"]
    x0: float
    y0: float
    x1: float
    y1: float
    rule: str
    region: Region


def split_segment(
    tree: Tree,
    node: int,
    features: tuple[int, int],
    *,
    x_range: tuple[float, float],
    y_range: tuple[float, float],
    feature_names: Sequence[str],
    categories: Categories | None = None,
) -> SplitSegment | None:
    """The split of ``node`` as a segment in the plane, or None.

    None when the node is a leaf or splits on a feature that is not plotted.
    """
    region = node_region(tree, node, features, x_range=x_range, y_range=y_range)
    if tree.children_left[node] == TREE_LEAF:
        return None
    f, t = int(tree.feature[node]), float(tree.threshold[node])
    rule = rule_text(feature_names, f, t, categories)
    if f == features[0]:
        return SplitSegment(node, "vertical", t, region.y_low, t, region.y_high, rule, region)
    if f == features[1]:
        return SplitSegment(node, "horizontal", region.x_low, t, region.x_high, t, rule, region)
    return None


def boundary_split_segment(data: BoundaryData, tree: Tree, node: int) -> SplitSegment | None:
    """:func:`split_segment` in the features, names and extent of a computed boundary.

    ``tree`` must be the tree the boundary was computed from (for a growth step, the tree
    after ``k`` splits, with ``node`` its newest split).
    """
    grid = data.grid
    names = [f"x[{i}]" for i in range(tree.n_features)]
    names[grid.features[0]], names[grid.features[1]] = grid.feature_names
    return split_segment(
        tree,
        node,
        grid.features,
        x_range=(float(grid.x_edges[0]), float(grid.x_edges[-1])),
        y_range=(float(grid.y_edges[0]), float(grid.y_edges[-1])),
        feature_names=names,
    )


def add_split_segment(
    fig: go.Figure, segment: SplitSegment, *, color: str = FONT_COLOR, name: str = "newest split"
) -> go.Figure:
    """Draw ``segment`` on ``fig`` (in place) as a thick line with the rule on hover."""
    # A plain dict: on a figure from build_figure it is added without validation.
    fig.add_trace(
        {
            "type": "scatter",
            "x": [segment.x0, segment.x1],
            "y": [segment.y0, segment.y1],
            "mode": "lines",
            "line": {"color": color, "width": 5},
            "name": name,
            "hovertemplate": f"{name}: {segment.rule}<extra></extra>",
        }
    )
    return fig


# --------------------------------------------------------------------------------------------
# My split against the tree's
# --------------------------------------------------------------------------------------------


def split_comparison_figure(
    comparison: SplitComparison,
    feature_names: Sequence[str],
    *,
    title: str = "",
    height: int = 320,
    categories: Categories | None = None,
) -> go.Figure:
    """Two horizontal bars, the gain of the student's split and of the tree's best split.

    The comparison in words (:func:`core.app.words.comparison_sentence`) is the caller's to
    pass as ``title``: the app's words build on the figures, so the figures cannot reach for
    them. The step page shows the sentence above the bars and leaves the title empty.
    """
    bars: list[tuple[str, SplitEvaluation, str]] = [("your split", comparison.yours, MUTED_COLOR)]
    if comparison.best is not None:
        bars.append(("the tree's best", comparison.best, LINE_COLORS[0]))
    # Whose split over its rule: on one line, the two labels took 215 of a 390 px phone's
    # 358 px and pushed the gain axis's title off the chart.
    labels = [
        f"{who}:<br>"
        + wrap_text(rule_text(feature_names, s.feature, s.threshold, categories), RULE_WIDTH)
        for who, s, _ in bars
    ]
    trace = {
        "type": "bar",
        "x": [s.gain for _, s, _ in bars],
        "y": labels,
        "orientation": "h",
        "marker": {"color": [c for _, _, c in bars], "line": {"color": FONT_COLOR, "width": 1}},
        "text": [f"{s.gain:.3g}" for _, s, _ in bars],
        "textposition": "outside",
        "cliponaxis": False,  # the gain printed past the longest bar
        "hovertemplate": "%{y}<br>gain %{x:.4f}<extra></extra>",
    }
    layout = styled_layout(
        title=title,
        x_title="gain: impurity before minus weighted impurity after",
        y_title="",
        height=height,
    )
    layout["yaxis"]["autorange"] = "reversed"
    layout["margin"]["r"] = 60  # room for that gain
    return build_figure([trace], layout)
