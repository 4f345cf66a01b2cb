"""Panels for asking a tree why: which node, "why this split?" at any node, and a student's
own split against the tree's ("your split").

Everything is read from ONE fitted tree: a node's candidates come from
:mod:`core.engine.node_splits`. Nothing is refitted. The step page's own panels (the step
buttons, the tree after k splits) are in :mod:`core.ui.step_panels`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import streamlit as st

from core.app.models import ModelView
from core.app.words import comparison_sentence, md, tie_sentence, why_leaf_sentence
from core.engine.node_splits import node_rows, split_candidates, why_leaf
from core.engine.splits import SplitEvaluation, compare_with_best
from core.engine.structure import TREE_LEAF
from core.figures import compute_split_scan, split_scan_figure
from core.figures.growth import (
    candidate_rows,
    rule_text,
    side_text,
    split_comparison_figure,
)
from core.figures.wire import wire_form
from core.ui.built import built_once
from core.ui.display import chart, table

# How the tables show impurities and gains: enough digits to see two candidates differ.
_NUMBER = st.column_config.NumberColumn(format="%.4f")

# --- which node -----------------------------------------------------------------------------


def describe_node(model: Any, view: ModelView) -> Callable[[int], str]:
    """``node -> "node 3: flavanoids ≤ 1.4"`` (or ``"node 4: leaf"``), for a node picker."""
    tree = model.tree_

    def describe(node: int) -> str:
        if tree.children_left[node] == TREE_LEAF:
            return f"node {node}: leaf, {int(tree.n_node_samples[node])} samples"
        rule = rule_text(
            view.names, int(tree.feature[node]), float(tree.threshold[node]), view.categories
        )
        return f"node {node}: {rule}"

    return describe


def pick_node(model: Any, view: ModelView, *, key: str) -> int:
    """A node picker of its own (not a setting): the node numbers shown on the diagram."""
    n_nodes = int(model.tree_.node_count)
    held = st.session_state.get(key)
    if not (isinstance(held, int) and 0 <= held < n_nodes):
        st.session_state[key] = 0  # a smaller tree than the last one: back to the root
    return int(
        st.selectbox(
            "Node (its number is on the diagram)",
            range(n_nodes),
            format_func=describe_node(model, view),
            key=key,
        )
    )


# --- why this split -------------------------------------------------------------------------


def why_this_split(model: Any, view: ModelView, node: int) -> None:
    """At a split node: the impurity of every threshold of every feature, and the best split
    of each feature ranked by gain, the tree's first. At a leaf: why it stopped.
    """
    X, y = view.X_train, view.y_train
    leaf = model.tree_.children_left[node] == TREE_LEAF

    def draw() -> tuple[Any, Any]:
        # The scans, the reason and the figure follow from the model and the node alone:
        # remembered beside the model, a new step or sample elsewhere rebuilds none of them.
        candidates = split_candidates(model, X, y, node)
        if leaf:
            reason = why_leaf(model, X, y, node)
            classes = model.classes_ if view.classify else None
            return candidates, why_leaf_sentence(reason, view.names, classes)
        scan = compute_split_scan(model, X, y, node, feature_names=view.names)
        return candidates, wire_form(split_scan_figure(scan, title=""))

    candidates, shown = built_once([model], ("why-this-split", node), draw)
    if leaf:
        with st.container(key="leaf-reason"):
            st.info(md(shown), icon=":material/eco:")
    else:
        chart(shown, key="split-scan")
        st.caption(
            f"Node {node} holds {candidates.n_samples} training samples. For every feature and "
            "every threshold between two of their values: the impurity the two children would "
            "have, weighted by their sizes. The tree takes the lowest point of all (the star); "
            "the dotted line is the node's own impurity, so the gap below it is the gain."
        )
    if not candidates.rows:
        return
    with st.container(key="split-candidates"):
        st.markdown(f"**The best split of each feature at node {node}**")
        table(
            candidate_rows(candidates, view.names, view.categories),
            column_config={"weighted impurity": _NUMBER, "gain": _NUMBER},
        )
        st.caption(candidates.note)
        tie = tie_sentence(candidates, view.names, view.categories)
        if tie is not None:
            st.caption(md(tie))


# --- your split against the tree's ----------------------------------------------------------


def _split_row(who: str, split: SplitEvaluation, view: ModelView) -> dict[str, object]:
    return {
        "split": who,
        "rule": rule_text(view.names, split.feature, split.threshold, view.categories),
        "left": side_text(split.n_left, split.left_counts),
        "left impurity": split.left_impurity,
        "right": side_text(split.n_right, split.right_counts),
        "right impurity": split.right_impurity,
        "weighted impurity": split.child_impurity,
        "gain": split.gain,
    }


def _slider_step(low: float, high: float) -> float:
    """A round step giving about a hundred to a thousand positions between low and high."""
    return float(10 ** math.floor(math.log10((high - low) / 100)))


def node_targets(model: Any, view: ModelView, node: int) -> tuple[np.ndarray, np.ndarray, int]:
    """The training rows at ``node``, their targets as the criterion counts them (class
    codes, or values), and the number of classes (0 for regression)."""
    classes = model.classes_ if view.classify else None

    def gather() -> tuple[np.ndarray, np.ndarray, int]:
        at = node_rows(model, view.X_train, node)
        X_node, y_node = view.X_train[at], view.y_train[at]
        targets = np.searchsorted(classes, y_node) if classes is not None else y_node
        for shared in (X_node, targets):  # every visitor of this tree reads the same arrays
            shared.setflags(write=False)
        return X_node, targets, 0 if classes is None else len(classes)

    # Read again on every step of the step page, for the same tree and node: remembered.
    return built_once([model], ("node targets", node), gather)


class NoSplit(ValueError):
    """The picked feature cannot split the node's rows; the message says why, in words."""


def pick_split(view: ModelView, X_node: np.ndarray, node: int, *, key: str) -> tuple[int, float]:
    """A feature and a threshold on it, chosen with a select box and a slider over the
    node's range ``X_node`` (its rows, of shape (n_node, n_features)).

    Raises
    ------
    NoSplit
        When the chosen feature cannot split the node's rows (all missing, or all equal).
    """
    left, right = st.columns([1, 2])
    feature = int(
        left.selectbox(
            "Your feature",
            range(len(view.names)),
            format_func=view.names.__getitem__,
            key=f"{key}-feature",
        )
    )
    present = X_node[:, feature][~np.isnan(X_node[:, feature])]
    if present.size == 0:
        raise NoSplit(
            f"Every sample at node {node} is missing {md(view.names[feature])}: no "
            "threshold splits them. Pick another feature."
        )
    low, high = float(present.min()), float(present.max())
    if low == high:
        raise NoSplit(
            f"Every sample at node {node} has {md(view.names[feature])} = {low:.4g}: no "
            "threshold splits them. Pick another feature."
        )
    step = _slider_step(low, high)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    threshold = right.slider(
        f"{view.names[feature]} ≤",
        min_value=low,
        max_value=high,
        value=round((low + high) / 2 / step) * step,
        step=step,
        key=f"{key}-threshold-{node}-{feature}",
    )
    return feature, float(threshold)


def your_split(model: Any, view: ModelView, node: int, *, key: str = "your-split") -> None:
    """The student picks a feature and a threshold at ``node``; their split against the best."""
    X_node = node_targets(model, view, node)[0]  # the range each feature's slider offers
    with st.container(key=key):
        if node == 0 and view.classify:
            st.markdown(
                "**Beat the tree.** Choose a feature and slide its threshold: can your "
                "question about all the training samples gain more than the tree's first one?"
            )
        try:
            feature, threshold = pick_split(view, X_node, node, key=key)
        except NoSplit as why:
            st.info(str(why))
            return
        split_against_best(model, view, node, feature, threshold, key=key)


def split_against_best(
    model: Any,
    view: ModelView,
    node: int,
    feature: int,
    threshold: float,
    *,
    key: str,
) -> None:
    """A split at ``node``'s rows against the tree's best one: a sentence, a table, two bars.

    The comparison and its chart are remembered beside the model: a new step of the step page
    asks again about the same split of the same node.
    """

    def compare() -> tuple[Any, dict[str, Any]]:
        X_node, targets, n_classes = node_targets(model, view, node)
        comparison = compare_with_best(
            X_node,
            targets,
            feature,
            float(threshold),
            str(model.criterion),
            n_classes,
            min_samples_leaf=int(model.min_samples_leaf),
        )
        bars = split_comparison_figure(comparison, view.names, title="", height=240)
        return comparison, wire_form(bars)

    comparison, bars = built_once(
        [model], ("split against best", node, feature, float(threshold)), compare
    )
    st.markdown(f"**{md(comparison_sentence(comparison))}**")
    rows = [_split_row("yours", comparison.yours, view)]
    if comparison.best is not None:
        rows.append(_split_row("the tree's best", comparison.best, view))
    table(
        rows,
        column_config={
            name: _NUMBER
            for name in ("left impurity", "right impurity", "weighted impurity", "gain")
        },
    )
    chart(bars, key=f"{key}-bars")
    st.caption(
        "Left and right: samples on each side"
        + (", with their class counts" if view.classify else "")
        + ". The weighted impurity is the children's impurities weighted by their sizes; "
        "the gain is how far it falls below the node's own impurity."
    )
