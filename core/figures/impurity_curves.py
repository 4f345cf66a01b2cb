"""Why a node splits where it does: impurity functions, and every threshold's child impurity.

- :func:`compute_impurity_curves`: Gini, entropy (bits) and misclassification error of a
  two-class node as the share ``p`` of one class goes from 0 to 1, with a node marked on them.
- :func:`compute_split_scan`: at one node of a fitted tree, the weighted child impurity
  ``(n_L I(L) + n_R I(R)) / n`` of every valid threshold of every feature
  (:func:`core.engine.scan.scan_feature`); the tree's own split is the lowest point of all.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go
from numpy.typing import ArrayLike

from core.engine import criteria, node_splits
from core.engine.params import resolve_min_samples
from core.engine.scan import SplitScan, scan_feature
from core.figures._layout import (
    axis_style,
    build_figure,
    merge,
    styled_layout,
    subplot_grid,
    vline,
)
from core.figures._model import (
    FittedModel,
    FloatArray,
    as_2d,
    classes_of,
    encode_labels,
    select_tree,
    task_of,
)
from core.figures.overlays import legend_below_layout
from core.figures.palette import FONT_COLOR, LINE_COLORS, MUTED_COLOR, SERIES_COLORS
from core.figures.tree_diagram import CRITERION_LABELS

__all__ = [
    "FeatureScan",
    "ImpurityCurves",
    "SplitScanData",
    "compute_impurity_curves",
    "compute_split_scan",
    "impurity_figure",
    "node_proportion",
    "split_scan_figure",
]


@dataclass(frozen=True)
class ImpurityCurves:
    """Impurity of a two-class node against the share ``p`` of one class.

    Attributes
    ----------
    p : ndarray of shape (n_points,)
        Shares from 0 to 1.
    gini, entropy, misclassification : ndarray of shape (n_points,)
        ``2p(1-p)``, ``-p log2 p - (1-p) log2 (1-p)``, ``1 - max(p, 1-p)``.
    marker_p : float or None
        Share of the marked node.
    class_name : str
        The class whose share is ``p`` (x-axis title).
    """

    p: FloatArray
    gini: FloatArray
    entropy: FloatArray
    misclassification: FloatArray
    marker_p: float | None
    class_name: str


def compute_impurity_curves(
    *, n_points: int = 201, marker_p: float | None = None, class_name: str = "class 1"
) -> ImpurityCurves:
    """Sample the three impurity functions on ``p = 0..1`` (through :mod:`core.engine.criteria`).

    Parameters
    ----------
    n_points : int, default 201
    marker_p : float, optional
        Mark a node whose share of ``class_name`` is ``marker_p`` (see :func:`node_proportion`).
    class_name : str, default "class 1"

    Returns
    -------
    ImpurityCurves
    """
    if n_points < 2:
        raise ValueError(f"n_points must be >= 2, got {n_points}")
    if marker_p is not None and not 0.0 <= marker_p <= 1.0:
        raise ValueError(f"marker_p must be in [0, 1], got {marker_p}")
    p = np.linspace(0.0, 1.0, n_points)
    counts = np.stack([1.0 - p, p], axis=-1)
    return ImpurityCurves(
        p=p,
        gini=np.asarray(criteria.gini(counts)),
        entropy=np.asarray(criteria.entropy(counts)),
        misclassification=np.asarray(criteria.misclassification(counts)),
        marker_p=marker_p,
        class_name=class_name,
    )


def node_proportion(
    model: FittedModel,
    node_id: int,
    *,
    class_index: int | None = None,
    tree_index: int | None = None,
) -> float:
    """Share of one class among a node's training samples (default: its majority class).

    With more than two classes this is the share of that class against all the others.
    """
    tree = select_tree(model, tree_index)
    if task_of(model) != "classification":
        raise ValueError("node_proportion needs a classifier")
    fractions = np.asarray(tree.tree_.value, dtype=np.float64)[node_id, 0]
    k = int(np.argmax(fractions)) if class_index is None else class_index
    if not 0 <= k < len(fractions):
        raise ValueError(f"class_index must be in [0, {len(fractions) - 1}], got {class_index}")
    return float(fractions[k] / fractions.sum())


def impurity_figure(
    curves: ImpurityCurves,
    *,
    title: str | None = None,
    height: int = 420,
    legend_below: bool = False,
) -> go.Figure:
    """The three impurity functions, with the marked node as a dot on each curve.

    With ``legend_below`` the legend lies flat under the plot
    (:func:`~core.figures.overlays.legend_below_layout`).
    """
    traces: list[dict[str, Any]] = []
    series = (
        ("gini", "Gini", curves.gini, "solid"),
        ("entropy", "entropy (bits)", curves.entropy, "dash"),
        ("misclassification", "misclassification error", curves.misclassification, "dot"),
    )
    for key, name, values, dash in series:
        traces.append(
            {
                "type": "scatter",
                "x": curves.p,
                "y": values,
                "mode": "lines",
                "name": name,
                "line": {"color": SERIES_COLORS[key], "width": 3, "dash": dash},
                "hovertemplate": f"{name}: %{{y:.3f}} at p = %{{x:.2f}}<extra></extra>",
            }
        )
        if curves.marker_p is not None:
            traces.append(
                {
                    "type": "scatter",
                    "x": [curves.marker_p],
                    "y": [float(np.interp(curves.marker_p, curves.p, values))],
                    "mode": "markers",
                    "marker": {
                        "size": 13,
                        "color": SERIES_COLORS[key],
                        "line": {"color": FONT_COLOR, "width": 1.5},
                    },
                    "showlegend": False,
                    "hovertemplate": f"this node, {name}: %{{y:.3f}}<extra></extra>",
                }
            )
    layout = styled_layout(
        title="Impurity of a node with two classes" if title is None else title,
        x_title=f"share of {curves.class_name} in the node (p)",
        y_title="impurity",
        height=height,
    )
    if curves.marker_p is not None:
        line = {"color": FONT_COLOR, "width": 1.5, "dash": "dot"}
        layout["shapes"] = [vline(curves.marker_p, line)]
    if legend_below:
        merge(layout, legend_below_layout(layout["height"], layout["margin"]["t"]))
    return build_figure(traces, layout)


@dataclass(frozen=True)
class FeatureScan:
    """Every valid threshold of one feature at the node, and its weighted child impurity."""

    feature: int
    name: str
    thresholds: FloatArray
    child_impurity: FloatArray
    best_threshold: float | None
    best_impurity: float | None


@dataclass(frozen=True)
class SplitScanData:
    """The split search at one node, feature by feature, and the split the tree chose.

    ``chosen_impurity`` is computed from the tree's arrays,
    ``(w_L imp_L + w_R imp_R) / w_node``; it equals the lowest ``best_impurity`` of the scans
    when every feature was a candidate (``max_features=None``).
    """

    node_id: int
    criterion: str
    impurity_name: str
    n_samples: int
    parent_impurity: float
    scans: tuple[FeatureScan, ...]
    chosen_feature: int | None
    chosen_threshold: float | None
    chosen_impurity: float | None


def compute_split_scan(
    model: FittedModel,
    X_train: ArrayLike,
    y_train: ArrayLike,
    node_id: int,
    *,
    tree_index: int | None = None,
    feature_names: Sequence[str] | None = None,
    sample_weight: ArrayLike | None = None,
) -> SplitScanData:
    """Scan every feature's thresholds at ``node_id`` with the tree's criterion.

    Parameters
    ----------
    model : fitted tree or forest of ours
    X_train, y_train : array-like
        The data the tree was fitted on; the node's samples are the rows whose decision path
        passes through it. A fractional ``min_samples_leaf`` is a share of these rows, as in
        the fit.
    node_id : int
    tree_index : int, optional
        Which tree of a forest.
    feature_names : sequence of str, optional
    sample_weight : array-like of shape (n_samples,), optional
        Integer weights the tree was fitted with (a forest tree's bootstrap counts).

    Returns
    -------
    SplitScanData
    """
    tree = select_tree(model, tree_index)
    arrays = tree.tree_
    n_nodes = len(np.asarray(arrays.children_left))
    if not 0 <= node_id < n_nodes:
        raise ValueError(f"node_id must be in [0, {n_nodes - 1}], got {node_id}")
    X = as_2d(X_train, "X_train")
    names = (
        list(feature_names) if feature_names is not None else [f"x[{i}]" for i in range(X.shape[1])]
    )
    if len(names) != X.shape[1]:
        raise ValueError(f"feature_names must have {X.shape[1]} names, got {len(names)}")
    in_node = node_splits.node_rows(tree, X, node_id)
    weights = None if sample_weight is None else np.asarray(sample_weight)[in_node]
    if task_of(model) == "classification":
        classes = classes_of(model)
        target = encode_labels(classes, y_train)[in_node].astype(np.float64)
        n_classes: int | None = len(classes)
    else:
        target, n_classes = np.asarray(y_train, dtype=np.float64)[in_node], None
    _, min_leaf = resolve_min_samples(tree.min_samples_split, tree.min_samples_leaf, len(X))
    crit = tree.criterion
    scans = []
    parent = float(np.asarray(arrays.impurity)[node_id])
    for f in range(X.shape[1]):
        scan = scan_feature(
            X[in_node, f],
            target,
            criterion=crit,
            n_classes=n_classes,
            min_samples_leaf=min_leaf,
            sample_weight=weights,
        )
        parent = scan.parent_impurity
        thresholds, child_impurity = _curve(scan)
        scans.append(
            FeatureScan(
                f,
                names[f],
                thresholds,
                child_impurity,
                scan.best_threshold,
                scan.best_impurity,
            )
        )
    left = int(np.asarray(arrays.children_left)[node_id])
    chosen_feature = chosen_threshold = chosen_impurity = None
    if left != -1:
        right = int(np.asarray(arrays.children_right)[node_id])
        w = np.asarray(arrays.weighted_n_node_samples, dtype=np.float64)
        imp = np.asarray(arrays.impurity, dtype=np.float64)
        chosen_feature = int(np.asarray(arrays.feature)[node_id])
        chosen_threshold = float(np.asarray(arrays.threshold)[node_id])
        chosen_impurity = float((w[left] * imp[left] + w[right] * imp[right]) / w[node_id])
    return SplitScanData(
        node_id=node_id,
        criterion=crit,
        impurity_name=CRITERION_LABELS.get(crit, crit),
        n_samples=int(in_node.sum()),
        parent_impurity=parent,
        scans=tuple(scans),
        chosen_feature=chosen_feature,
        chosen_threshold=chosen_threshold,
        chosen_impurity=chosen_impurity,
    )


def _curve(scan: SplitScan) -> tuple[FloatArray, FloatArray]:
    """One point per finite threshold: with missing values, the better of sending them left
    or right (the split "known | missing", threshold inf, has no place on the axis)."""
    finite = np.isfinite(scan.thresholds)
    thresholds, inverse = np.unique(scan.thresholds[finite], return_inverse=True)
    lowest = np.full(thresholds.size, np.inf)
    np.minimum.at(lowest, inverse, scan.child_impurity[finite])
    return thresholds, lowest


def _ranked_features(data: SplitScanData, limit: int) -> list[int]:
    best = [s.best_impurity if s.best_impurity is not None else math.inf for s in data.scans]
    order = sorted(range(len(data.scans)), key=lambda f: (f != data.chosen_feature, best[f]))
    return [f for f in order if data.scans[f].thresholds.size][:limit]


def split_scan_figure(
    data: SplitScanData,
    *,
    features: Sequence[int] | None = None,
    max_panels: int = 6,
    columns: int = 3,
    title: str | None = None,
) -> go.Figure:
    """One panel per feature: weighted child impurity against the threshold.

    The node's impurity is a dotted line (a split's gain is the gap below it); each feature's
    best threshold is a dot, the tree's chosen split a large star with a vertical line.

    Parameters
    ----------
    data : SplitScanData
    features : sequence of int, optional
        Panels to draw; default the chosen feature, then the best others, ``max_panels`` in all.
    max_panels : int, default 6
    columns : int, default 3
    title : str, optional
        None gives ``"Why node <id> splits here (<n> samples)"``; ``""`` gives no title.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    shown = list(features) if features is not None else _ranked_features(data, max_panels)
    if not shown:
        raise ValueError("no feature can split this node (all values equal, or a leaf too small)")
    cols = min(columns, len(shown))
    rows = math.ceil(len(shown) / cols)
    layout = styled_layout(
        title=f"Why node {data.node_id} splits here ({data.n_samples} samples)"
        if title is None
        else title,
        x_title="",
        y_title="",
        height=170 + 260 * rows,
    )
    grid = subplot_grid(
        rows,
        cols,
        shared_yaxes=True,
        horizontal_spacing=0.04,
        vertical_spacing=0.16 if rows > 1 else 0.1,
        n_titles=len(shown),
    )
    for name, axis in grid.items():
        if name.startswith(("xaxis", "yaxis")):
            styled = axis_style("threshold" if name.startswith("xaxis") else "")
            layout[name] = merge(styled, axis)
    layout["annotations"] = grid["annotations"]
    traces: list[dict[str, Any]] = []
    shapes: list[dict[str, Any]] = []
    for k, f in enumerate(shown):
        scan = data.scans[f]
        # Subplots are numbered row by row from the top left: x, x2, x3...
        number = "" if k == 0 else str(k + 1)
        x, y = f"x{number}", f"y{number}"
        layout["annotations"][k]["text"] = scan.name
        if k % cols == 0:
            layout[f"yaxis{number}"]["title"]["text"] = f"weighted child {data.impurity_name}"
        chosen = f == data.chosen_feature
        traces.append(
            {
                "type": "scatter",
                "x": scan.thresholds,
                "y": scan.child_impurity,
                "mode": "lines+markers",
                "line": {"color": LINE_COLORS[0] if chosen else MUTED_COLOR, "width": 2.5},
                "marker": {"size": 4},
                "showlegend": False,
                "name": scan.name,
                "hovertemplate": f"{scan.name} ≤ %{{x:.3f}}: %{{y:.3f}}<extra></extra>",
                "xaxis": x,
                "yaxis": y,
            }
        )
        # The node's impurity across the panel (what fig.add_hline writes).
        shapes.append(
            {
                "type": "line",
                "x0": 0,
                "x1": 1,
                "xref": f"{x} domain",
                "y0": data.parent_impurity,
                "y1": data.parent_impurity,
                "yref": y,
                "line": {"color": FONT_COLOR, "dash": "dot", "width": 1},
            }
        )
        # (A "known | missing" split, threshold inf, has no point on the threshold axis.)
        if scan.best_threshold is not None and math.isfinite(scan.best_threshold):
            traces.append(
                {
                    "type": "scatter",
                    "x": [scan.best_threshold],
                    "y": [scan.best_impurity],
                    "mode": "markers",
                    "marker": {"size": 10, "color": LINE_COLORS[0] if chosen else MUTED_COLOR},
                    "showlegend": False,
                    "hovertemplate": "best: %{y:.3f} at %{x:.3f}<extra></extra>",
                    "xaxis": x,
                    "yaxis": y,
                }
            )
        if chosen and data.chosen_threshold is not None and math.isfinite(data.chosen_threshold):
            traces.append(
                {
                    "type": "scatter",
                    "x": [data.chosen_threshold],
                    "y": [data.chosen_impurity],
                    "mode": "markers",
                    "marker": {
                        "size": 20,
                        "symbol": "star",
                        "color": LINE_COLORS[1],
                        "line": {"color": FONT_COLOR, "width": 1},
                    },
                    "name": "the tree's split",
                    "showlegend": True,
                    "hovertemplate": "chosen: ≤ %{x:.3f}, child impurity %{y:.3f}<extra></extra>",
                    "xaxis": x,
                    "yaxis": y,
                }
            )
            line = vline(data.chosen_threshold, {"color": LINE_COLORS[1], "width": 1.5})
            shapes.append({**line, "xref": x, "yref": f"{y} domain"})
    layout["shapes"] = shapes
    return build_figure(traces, layout)
