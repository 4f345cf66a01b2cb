"""Trace a fitted tree into plain data: nodes, edges and collapsed subtrees.

:func:`build_tree_diagram` walks the flat arrays of ``model.tree_`` (a tree of ours, or tree
``i`` of a forest) into a :class:`~core.figures.diagram.TreeDiagram`;
:func:`~core.figures.tree_dot.to_dot` turns that into Graphviz DOT text. Nothing here draws.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np
from numpy.typing import ArrayLike

from core.data.datasets import Task
from core.figures._model import (
    FittedModel,
    FittedTree,
    FloatArray,
    as_2d,
    classes_of,
    encode_labels,
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
from core.figures.palette import purity, purity_fill, sequential_color
from core.figures.rules import Categories, category_of

__all__ = ["build_tree_diagram"]


def _test_figures(
    model: FittedModel,
    tree: FittedTree,
    task: Task,
    leaf_values: FloatArray,
    X_test: ArrayLike,
    y_test: ArrayLike,
    n_nodes: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Per node: test samples reaching it, and the tree's accuracy (or MSE) over them."""
    X = as_2d(X_test, "X_test")
    indicator = tree.decision_path(X).tocsc()
    reached = np.asarray(indicator.sum(axis=0)).ravel().astype(np.intp)
    leaves = np.asarray(tree.apply(X))
    if task == "classification":
        truth = encode_labels(classes_of(model), y_test)
        per_sample = (np.argmax(leaf_values[leaves], axis=1) == truth).astype(float)
    else:
        per_sample = (leaf_values[leaves, 0] - np.asarray(y_test, dtype=float)) ** 2
    totals = np.asarray(indicator.T @ per_sample).ravel()
    with np.errstate(invalid="ignore", divide="ignore"):
        score = np.where(reached > 0, totals / np.maximum(reached, 1), np.nan)
    return reached[:n_nodes], score[:n_nodes]


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
    left = np.asarray(arrays.children_left)
    right = np.asarray(arrays.children_right)
    n_nodes = len(left)
    values = np.asarray(arrays.value, dtype=float)
    if values.ndim != 3 or values.shape[1] != 1:
        raise ValueError(f"only single-output trees can be drawn, got value shape {values.shape}")
    leaf_values = values[:, 0, :]
    weighted = np.asarray(arrays.weighted_n_node_samples, dtype=float)
    impurity = np.asarray(arrays.impurity, dtype=float)
    feature = np.asarray(arrays.feature)
    threshold = np.asarray(arrays.threshold, dtype=float)
    task = task_of(model)
    if max_depth is not None and max_depth < 0:
        raise ValueError(f"max_depth must be None or >= 0, got {max_depth}")
    if (X_test is None) != (y_test is None):
        raise ValueError("X_test and y_test must be given together")

    n_features = int(feature.max(initial=-1)) + 1
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
    names: tuple[str, ...] = ()
    if task == "classification":
        classes = classes_of(model)
        names = tuple(str(c) for c in (classes if class_names is None else class_names))
        if len(names) != leaf_values.shape[1]:
            raise ValueError(
                f"class_names must have {leaf_values.shape[1]} names, got {len(names)}"
            )

    depth, size, leaf_count = arrays.depth, arrays.subtree_sizes, arrays.subtree_leaves
    node_purity = purity(leaf_values) if task == "classification" else None
    on_path = np.zeros(n_nodes, dtype=bool)
    path_leaf: int | None = None
    if sample is not None:
        row = as_2d(sample, "sample")
        if row.shape[0] != 1:
            raise ValueError(f"sample must be one row, got {row.shape[0]} rows")
        on_path[np.asarray(tree.decision_path(row).indices)] = True
        path_leaf = int(np.asarray(tree.apply(row))[0])
    tests: tuple[np.ndarray, np.ndarray] | None = None
    if X_test is not None and y_test is not None:
        tests = _test_figures(model, tree, task, leaf_values, X_test, y_test, n_nodes)

    saw_missing = np.zeros(n_nodes, dtype=bool)
    if X_train is not None:
        X_rows = as_2d(X_train, "X_train")
        rows, at = tree.decision_path(X_rows).nonzero()  # every (row, node on its path)
        split = feature[at] >= 0
        missing = np.isnan(X_rows[rows[split], feature[at[split]]])
        saw_missing[np.unique(at[split][missing])] = True
    missing_left = np.asarray(getattr(arrays, "missing_go_to_left", saw_missing), dtype=bool)

    cap = n_nodes if max_depth is None else max_depth
    shown = depth <= cap
    parent = np.full(n_nodes, -1)
    splits = left >= 0
    parent[left[splits]] = np.flatnonzero(splits)
    parent[right[splits]] = np.flatnonzero(splits)
    for kept in unfold:
        if not 0 <= kept < n_nodes:
            raise ValueError(f"unfold names node {kept}, but the tree has {n_nodes} nodes")
        if left[kept] >= 0:
            shown[[left[kept], right[kept]]] = True
        node = int(kept)
        while node >= 0:  # the path up to the root
            shown[node] = True
            node = int(parent[node])
    value_range = (float(leaf_values[:, 0].min()), float(leaf_values[:, 0].max()))
    nodes: list[DiagramNode] = []
    edges: list[DiagramEdge] = []
    collapsed: list[CollapsedSubtree] = []
    highlight_set = {int(h) for h in highlight}
    # One node at a time below: the arrays read as Python numbers once, not per element.
    lefts, rights, depths = left.tolist(), right.tolist(), np.asarray(depth).tolist()
    fractions_of, samples_of = leaf_values.tolist(), weighted.tolist()
    impurities, features, thresholds = impurity.tolist(), feature.tolist(), threshold.tolist()
    shown_at, on_path_at = shown.tolist(), on_path.tolist()
    purities = None if node_purity is None else node_purity.tolist()
    for node in range(n_nodes):
        if not shown_at[node]:
            continue
        is_leaf = lefts[node] == -1
        fractions = fractions_of[node]
        if purities is not None:
            top_class = max(range(len(fractions)), key=fractions.__getitem__)  # first on a tie
            majority: int | None = top_class
            node_pure = purities[node]
            counts = tuple(share * samples_of[node] for share in fractions)
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
        nodes.append(
            DiagramNode(
                node_id=node,
                depth=depths[node],
                is_leaf=is_leaf,
                feature=None if is_leaf else features[node],
                feature_name=None if is_leaf else str(feature_names[features[node]]),
                threshold=None if is_leaf else thresholds[node],
                impurity=impurities[node],
                samples=samples_of[node],
                counts=counts,
                value=value,
                majority=majority,
                purity=node_pure,
                fill=fill,
                on_path=on_path_at[node],
                highlighted=node in highlight_set,
                test_samples=test_n,
                test_score=test_s,
                category=None if is_leaf else category_of(categories, features[node]),
                missing_left=bool(missing_left[node]) if saw_missing[node] else None,
            )
        )
        if is_leaf:
            continue
        for child, is_left in ((lefts[node], True), (rights[node], False)):
            hidden = not shown_at[child]
            edges.append(
                DiagramEdge(
                    parent=node,
                    child=child,
                    is_left=is_left,
                    samples=samples_of[child],
                    on_path=on_path_at[child],
                    to_collapsed=hidden,
                )
            )
            if hidden:
                collapsed.append(
                    CollapsedSubtree(
                        root=child,
                        hidden_nodes=int(size[child]),
                        hidden_leaves=int(leaf_count[child]),
                        samples=float(weighted[child]),
                        on_path=bool(on_path[child]),
                        depth=int(depth[child]),
                    )
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
        root_samples=float(weighted[0]),
        path_leaf=path_leaf,
        sample_label=(sample_label or "this sample") if sample is not None else None,
        has_test=tests is not None,
        value_range=value_range,
    )
