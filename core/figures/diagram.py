"""A traced tree as plain data: the nodes, edges and collapsed subtrees a drawing shows.

:func:`~core.figures.tree_diagram.build_tree_diagram` fills these from a fitted tree's arrays;
:func:`~core.figures.tree_dot.to_dot` and :func:`~core.figures.tree_dot.estimated_size` read
them. Holding them apart from both lets either side change without the other.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.data.datasets import Task
from core.figures.rules import Category

__all__ = [
    "CRITERION_LABELS",
    "CollapsedSubtree",
    "DiagramEdge",
    "DiagramNode",
    "TreeDiagram",
]

#: How each criterion's impurity is named on a node.
CRITERION_LABELS: dict[str, str] = {
    "gini": "gini",
    "entropy": "entropy (bits)",
    "log_loss": "entropy (bits)",
    "squared_error": "squared error",
    "friedman_mse": "squared error (Friedman)",
    "absolute_error": "absolute error",
    "poisson": "Poisson deviance",
}


@dataclass(frozen=True)
class DiagramNode:
    """One visible node of the tree.

    Attributes
    ----------
    node_id : int
        Index in the tree's arrays (depth-first preorder).
    depth : int
        Root is 0.
    is_leaf : bool
        True when the node has no children in the fitted tree.
    feature, feature_name, threshold
        The split rule ``feature_name <= threshold``; None at leaves.
    impurity : float
        The node's impurity under the tree's criterion.
    samples : float
        Weighted number of training samples at the node (bootstrap draws count for forest trees).
    counts : tuple of float
        Classification: weighted count of each class, ``value * samples``; regression: empty.
    value : float
        Classification: fraction of the majority class; regression: mean target.
    majority : int or None
        Classification: index of the majority class in ``classes_``; regression: None.
    purity : float
        Classification: :func:`~core.figures.palette.purity` of the class fractions,
        ``(p_max - 1/K) / (1 - 1/K)`` in [0, 1]; regression: NaN.
    fill : str
        Fill colour (majority class blended by purity, or the value on the sequential scale).
    on_path : bool
        The highlighted sample passes through this node.
    highlighted : bool
        The node is in the caller's highlight set (for example, where two trees differ).
    test_samples : int or None
        Number of test samples reaching the node (None when no test data was given).
    test_score : float or None
        Test accuracy (classification) or mean squared error (regression) of the tree's
        predictions over the test samples reaching the node; None without test data or when no
        test sample reaches it.
    category : (str, str) or None
        ``(text column, level)`` when the split feature is a one-hot column (see
        :mod:`core.figures.rules`); None for a number and at leaves.
    missing_left : bool or None
        Where the missing values went, when some of the node's training rows (``X_train``)
        had the split feature missing; None otherwise (nothing to show).
    """

    node_id: int
    depth: int
    is_leaf: bool
    feature: int | None
    feature_name: str | None
    threshold: float | None
    impurity: float
    samples: float
    counts: tuple[float, ...]
    value: float
    majority: int | None
    purity: float
    fill: str
    on_path: bool
    highlighted: bool
    test_samples: int | None
    test_score: float | None
    category: Category = None
    missing_left: bool | None = None


@dataclass(frozen=True)
class CollapsedSubtree:
    """A subtree hidden below the depth cap, drawn as one marker.

    Attributes
    ----------
    root : int
        Node id of the hidden subtree's root (a child of a visible node).
    hidden_nodes : int
        Nodes in the hidden subtree, its root and leaves included.
    hidden_leaves : int
        Leaves in the hidden subtree.
    samples : float
        Weighted training samples entering the subtree.
    on_path : bool
        The highlighted sample continues into this subtree.
    depth : int
        Depth of the hidden subtree's root, where the marker stands (root = 0).
    """

    root: int
    hidden_nodes: int
    hidden_leaves: int
    samples: float
    on_path: bool
    depth: int = 0


@dataclass(frozen=True)
class DiagramEdge:
    """An edge from a visible split node to a child node or to a collapsed marker.

    ``is_left`` is True for the branch taken when the rule ``feature <= threshold`` holds.
    """

    parent: int
    child: int
    is_left: bool
    samples: float
    on_path: bool
    to_collapsed: bool


@dataclass(frozen=True)
class TreeDiagram:
    """Everything :func:`~core.figures.tree_dot.to_dot` needs, as plain data.

    Attributes
    ----------
    task : {"classification", "regression"}
    criterion : str
        The model's criterion, as given (``"gini"``...).
    impurity_name : str
        How the impurity is named on nodes (``"entropy (bits)"``...).
    class_names : tuple of str
        Names of ``classes_`` in order (empty for regression).
    nodes, edges, collapsed
        The visible nodes in preorder, their edges, and the markers of hidden subtrees.
    root_samples : float
        Weighted samples at the root, the scale for edge widths.
    path_leaf : int or None
        Leaf reached by the highlighted sample (it may be hidden below the depth cap).
    sample_label : str or None
        How the highlighted sample is named on its leaf (``"sample #12"``).
    has_test : bool
        Test figures were computed.
    value_range : tuple of float
        Smallest and largest node value (regression fill scale).
    """

    task: Task
    criterion: str
    impurity_name: str
    class_names: tuple[str, ...]
    nodes: tuple[DiagramNode, ...]
    edges: tuple[DiagramEdge, ...]
    collapsed: tuple[CollapsedSubtree, ...]
    root_samples: float
    path_leaf: int | None
    sample_label: str | None
    has_test: bool
    value_range: tuple[float, float]

    def node(self, node_id: int) -> DiagramNode:
        """The visible node with this id (KeyError when it is hidden or absent)."""
        for node in self.nodes:
            if node.node_id == node_id:
                return node
        raise KeyError(node_id)
