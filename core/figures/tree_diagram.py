"""Trace a fitted tree into plain data: nodes, edges and collapsed subtrees.

:func:`build_tree_diagram` walks the flat arrays of ``model.tree_`` (a tree of ours, or tree
``i`` of a forest) into a :class:`~core.figures.diagram.TreeDiagram`;
:func:`~core.figures.tree_dot.to_dot` turns that into Graphviz DOT text. Nothing here draws.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from core.data.datasets import Task
from core.figures._model import (
    FittedModel,
    FloatArray,
    classes_of,
    select_tree,
    task_of,
)
from core.figures.diagram import (
    CRITERION_LABELS,
    CollapsedSubtree,
    DiagramEdge,
    DiagramNode,
    TreeDiagram,
)
from core.figures.diagram_marks import missing_sides, node_test_figures, sample_path, shown_nodes
from core.figures.palette import purity, purity_fill, sequential_color
from core.figures.rules import Categories, category_of

__all__ = ["build_tree_diagram"]


def _leaf_values(arrays: Any) -> FloatArray:
    """Each node's class fractions (or mean), shape ``(n_nodes, n_values)``.

    A node shows one prediction, so only single-output trees can be drawn.
    """
    values = np.asarray(arrays.value, dtype=float)
    if values.ndim != 3 or values.shape[1] != 1:
        raise ValueError(f"only single-output trees can be drawn, got value shape {values.shape}")
    return values[:, 0, :]


def _feature_names(
    model: FittedModel, feature_names: Sequence[str] | None, n_features: int
) -> Sequence[str]:
    """The names split rules use: given, the model's own ``feature_names_in_``, or ``x[i]``.

    Checked against the highest feature the tree splits on, so no rule names a missing column.
    """
    if feature_names is None:
        names_in = getattr(model, "feature_names_in_", None)
        n_in = getattr(model, "n_features_in_", n_features)
        feature_names = (
            [str(n) for n in names_in] if names_in is not None else [f"x[{i}]" for i in range(n_in)]
        )
    if len(feature_names) < n_features:
        raise ValueError(
            f"feature_names has {len(feature_names)} names but the tree splits on feature "
            f"{n_features - 1}"
        )
    return feature_names


def _class_names(
    model: FittedModel, task: Task, class_names: Sequence[str] | None, n_classes: int
) -> tuple[str, ...]:
    """Names of ``classes_`` in order, one per column of the node values; none for regression."""
    if task != "classification":
        return ()
    classes = classes_of(model)
    names = tuple(str(c) for c in (classes if class_names is None else class_names))
    if len(names) != n_classes:
        raise ValueError(f"class_names must have {n_classes} names, got {len(names)}")
    return names


@dataclass(frozen=True)
class _Columns:
    """The tree's arrays, and what the drawing marks on them, as Python lists.

    The diagram is built one node at a time: reading each array into Python numbers once
    costs less than reading NumPy elements one by one.
    """

    left: list[int]
    right: list[int]
    depth: list[int]
    fractions: list[list[float]]
    samples: list[float]
    impurity: list[float]
    feature: list[int]
    threshold: list[float]
    shown: list[bool]
    on_path: list[bool]
    purity: list[float] | None  # classification only
    subtree_nodes: np.ndarray
    subtree_leaves: np.ndarray


def _columns(
    arrays: Any, leaf_values: FloatArray, shown: np.ndarray, on_path: np.ndarray, task: Task
) -> _Columns:
    """Read the tree's arrays into :class:`_Columns`, once per drawing."""
    node_purity = purity(leaf_values) if task == "classification" else None
    return _Columns(
        left=np.asarray(arrays.children_left).tolist(),
        right=np.asarray(arrays.children_right).tolist(),
        depth=np.asarray(arrays.depth).tolist(),
        fractions=leaf_values.tolist(),
        samples=np.asarray(arrays.weighted_n_node_samples, dtype=float).tolist(),
        impurity=np.asarray(arrays.impurity, dtype=float).tolist(),
        feature=np.asarray(arrays.feature).tolist(),
        threshold=np.asarray(arrays.threshold, dtype=float).tolist(),
        shown=shown.tolist(),
        on_path=on_path.tolist(),
        purity=None if node_purity is None else node_purity.tolist(),
        subtree_nodes=arrays.subtree_sizes,
        subtree_leaves=arrays.subtree_leaves,
    )


def _diagram_node(
    columns: _Columns,
    node: int,
    *,
    feature_names: Sequence[str],
    value_range: tuple[float, float],
    tests: tuple[np.ndarray, np.ndarray] | None,
    categories: Categories | None,
    highlighted: bool,
    missing_left: bool | None,
) -> DiagramNode:
    """One drawn node: its rule, its numbers, and its fill (the majority class paled by
    purity, or the value on the sequential scale)."""
    is_leaf = columns.left[node] == -1
    fractions = columns.fractions[node]
    samples = columns.samples[node]
    if columns.purity is not None:
        top_class = max(range(len(fractions)), key=fractions.__getitem__)  # first on a tie
        majority: int | None = top_class
        node_pure = columns.purity[node]
        counts = tuple(share * samples for share in fractions)
        value = max(fractions)
        fill = purity_fill(top_class, node_pure)
    else:
        majority, node_pure, counts = None, float("nan"), ()
        value = fractions[0]
        fill = sequential_color(value, *value_range)
    test_n = test_s = None
    if tests is not None:
        test_n = int(tests[0][node])
        test_s = None if test_n == 0 else float(tests[1][node])
    feature = columns.feature[node]
    return DiagramNode(
        node_id=node,
        depth=columns.depth[node],
        is_leaf=is_leaf,
        feature=None if is_leaf else feature,
        feature_name=None if is_leaf else str(feature_names[feature]),
        threshold=None if is_leaf else columns.threshold[node],
        impurity=columns.impurity[node],
        samples=samples,
        counts=counts,
        value=value,
        majority=majority,
        purity=node_pure,
        fill=fill,
        on_path=columns.on_path[node],
        highlighted=highlighted,
        test_samples=test_n,
        test_score=test_s,
        category=None if is_leaf else category_of(categories, feature),
        missing_left=missing_left,
    )


def _child_links(columns: _Columns, node: int) -> tuple[list[DiagramEdge], list[CollapsedSubtree]]:
    """The edges from a split node to its two children, and a marker for each child hidden
    below the depth cap: the marker stands for that child's whole subtree."""
    edges: list[DiagramEdge] = []
    collapsed: list[CollapsedSubtree] = []
    for child, is_left in ((columns.left[node], True), (columns.right[node], False)):
        hidden = not columns.shown[child]
        edges.append(
            DiagramEdge(
                parent=node,
                child=child,
                is_left=is_left,
                samples=columns.samples[child],
                on_path=columns.on_path[child],
                to_collapsed=hidden,
            )
        )
        if hidden:
            collapsed.append(
                CollapsedSubtree(
                    root=child,
                    hidden_nodes=int(columns.subtree_nodes[child]),
                    hidden_leaves=int(columns.subtree_leaves[child]),
                    samples=float(columns.samples[child]),
                    on_path=bool(columns.on_path[child]),
                    depth=int(columns.depth[child]),
                )
            )
    return edges, collapsed


def _trace(
    columns: _Columns,
    *,
    feature_names: Sequence[str],
    value_range: tuple[float, float],
    tests: tuple[np.ndarray, np.ndarray] | None,
    categories: Categories | None,
    highlight: set[int],
    missing_left: list[bool | None],
) -> tuple[list[DiagramNode], list[DiagramEdge], list[CollapsedSubtree]]:
    """The drawn nodes in preorder, the edges leaving them, and the markers of hidden subtrees.

    ``missing_left`` is per node: where missing values went, or None where none were seen.
    """
    nodes: list[DiagramNode] = []
    edges: list[DiagramEdge] = []
    collapsed: list[CollapsedSubtree] = []
    for node in range(len(columns.left)):
        if not columns.shown[node]:
            continue
        nodes.append(
            _diagram_node(
                columns,
                node,
                feature_names=feature_names,
                value_range=value_range,
                tests=tests,
                categories=categories,
                highlighted=node in highlight,
                missing_left=missing_left[node],
            )
        )
        if columns.left[node] != -1:
            node_edges, markers = _child_links(columns, node)
            edges += node_edges
            collapsed += markers
    return nodes, edges, collapsed


def build_tree_diagram(
    model: FittedModel,
    *,
    tree_index: int | None = None,
    feature_names: Sequence[str] | None = None,
    class_names: Sequence[str] | None = None,
    max_depth: int | None = None,
    sample: ArrayLike | None = None,
    sample_label: str | None = None,
    X_test: ArrayLike | None = None,
    y_test: ArrayLike | None = None,
    highlight: Collection[int] = (),
    categories: Categories | None = None,
    X_train: ArrayLike | None = None,
    unfold: Collection[int] = (),
) -> TreeDiagram:
    """Trace a fitted tree, or tree ``tree_index`` of a forest, into a :class:`TreeDiagram`.

    Parameters
    ----------
    model : fitted tree or forest of ours
        Read through ``tree_``, ``criterion``, ``classes_``, ``decision_path`` and ``apply``.
    tree_index : int, optional
        Which tree of a forest (required for a forest, None for a tree).
    feature_names : sequence of str, optional
        Default ``feature_names_in_`` when the model has it, else ``x[0]``, ``x[1]``...
    class_names : sequence of str, optional
        Default ``str`` of each entry of ``classes_``.
    max_depth : int, optional
        Show nodes down to this depth (root = 0); deeper subtrees become collapsed markers.
    sample : array-like of shape (n_features,), optional
        Highlight this sample's decision path and leaf.
    sample_label : str, optional
        Name shown on the sample's leaf, default ``"this sample"``.
    X_test, y_test : array-like, optional
        Test data: each node gets the number of test samples reaching it and the score there.
    highlight : collection of int
        Node ids to outline (for example nodes where two trees differ).
    categories : sequence of (str, str) or None, optional
        Per feature, ``(text column, level)`` for a one-hot column (its rule reads ``sex is
        female``), None for a number; empty or None: every feature is a number.
    X_train : array-like of shape (n_samples, n_features), optional
        The training rows. A split node whose rows had missing values (NaN) in its feature
        says where they went: ``age ≤ 30.5 (missing → left)``. The tree's arrays alone cannot
        say it: ``missing_go_to_left`` is set at every node, with or without missing values.
    unfold : collection of int
        Node ids shown below ``max_depth`` too, with the path down to them and their children
        (a step's newest split and the leaves it made, a node asked about).

    Returns
    -------
    TreeDiagram
    """
    tree = select_tree(model, tree_index)
    arrays = tree.tree_
    leaf_values = _leaf_values(arrays)
    n_nodes = len(leaf_values)
    feature = np.asarray(arrays.feature)
    task = task_of(model)
    if max_depth is not None and max_depth < 0:
        raise ValueError(f"max_depth must be None or >= 0, got {max_depth}")
    if (X_test is None) != (y_test is None):
        raise ValueError("X_test and y_test must be given together")
    feature_names = _feature_names(model, feature_names, int(feature.max(initial=-1)) + 1)
    names = _class_names(model, task, class_names, leaf_values.shape[1])
    on_path, path_leaf = sample_path(tree, sample, n_nodes)
    tests: tuple[np.ndarray, np.ndarray] | None = None
    if X_test is not None and y_test is not None:
        tests = node_test_figures(model, tree, task, leaf_values, X_test, y_test, n_nodes)
    missing_left = missing_sides(tree, X_train, n_nodes)
    columns = _columns(arrays, leaf_values, shown_nodes(arrays, max_depth, unfold), on_path, task)
    value_range = (float(leaf_values[:, 0].min()), float(leaf_values[:, 0].max()))
    nodes, edges, collapsed = _trace(
        columns,
        feature_names=feature_names,
        value_range=value_range,
        tests=tests,
        categories=categories,
        highlight={int(h) for h in highlight},
        missing_left=missing_left,
    )
    criterion = str(tree.criterion)
    return TreeDiagram(
        task=task,
        criterion=criterion,
        impurity_name=CRITERION_LABELS.get(criterion, criterion.replace("_", " ")),
        class_names=names,
        nodes=tuple(nodes),
        edges=tuple(edges),
        collapsed=tuple(collapsed),
        root_samples=columns.samples[0],
        path_leaf=path_leaf,
        sample_label=(sample_label or "this sample") if sample is not None else None,
        has_test=tests is not None,
        value_range=value_range,
    )
