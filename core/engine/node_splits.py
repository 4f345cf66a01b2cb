"""A node of a fitted tree, as a student asks about it: its rows, its candidates, and why a leaf
stopped.

- :func:`node_rows`: which training rows reach the node;
- :func:`split_candidates`: the best split of every feature at a node, ranked by gain, the
  tree's own split first;
- :func:`why_leaf`: why a leaf was not split, as a stop code and the numbers behind it.

Each answer comes from the node's training rows and the same functions the builder uses
(:mod:`core.engine.splits`, :mod:`core.engine.criteria`); nothing is refitted. The answers are
codes and numbers: the sentences a student reads are the app's (:mod:`core.app.words`), so the
engine's results stay the same whatever the wording.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from core.engine.params import UNLIMITED_DEPTH, resolve_min_samples
from core.engine.splits import SplitEvaluation, best_split, evaluate_split
from core.engine.stopping import (
    CONSTANT,
    FEATURES_DRAWN,
    FEWER_THAN_TWO_LEAVES,
    LEAVES_TOO_SMALL,
    MAX_DEPTH,
    MIN_IMPURITY_DECREASE,
    MIN_SAMPLES_SPLIT,
    PRUNED,
    PURE,
    SPLIT,
    StopLimits,
    stop_reason,
)
from core.engine.structure import TREE_LEAF

Float = NDArray[np.float64]

__all__ = [
    "SplitCandidates",
    "StopCode",
    "StopReason",
    "node_rows",
    "split_candidates",
    "why_leaf",
]

# --------------------------------------------------------------------------------------------
# Why this split, at a node of a fitted tree
# --------------------------------------------------------------------------------------------


def _check_node(model: Any, node: int) -> None:
    n_nodes = int(model.tree_.node_count)
    if not 0 <= node < n_nodes:
        raise ValueError(f"node must be in [0, {n_nodes - 1}]; got {node}")


def node_rows(model: Any, X: ArrayLike, node: int) -> NDArray[np.bool_]:
    """Mask of the rows of ``X`` whose path through ``model``'s tree passes ``node``.

    The one answer to "which rows are in node k": the candidates and stop reasons here, and
    the figures' split scan and class poll, all ask it, so they all see the same rows.
    """
    _check_node(model, node)
    path = model.decision_path(np.asarray(X, dtype=np.float64)).tocsc()
    return np.asarray(path[:, node].toarray()).ravel() > 0


def _targets(model: Any, y: ArrayLike) -> tuple[Float, int]:
    """Class codes and the number of classes (classifier), or float targets and 0."""
    classes = getattr(model, "classes_", None)
    if classes is None:
        return np.asarray(y, dtype=np.float64), 0
    codes = np.searchsorted(classes, np.asarray(y))
    codes = np.clip(codes, 0, len(classes) - 1)
    if not np.array_equal(classes[codes], np.asarray(y)):
        raise ValueError("y_train has labels the model was not fitted on")
    return codes.astype(np.float64), len(classes)


def _min_samples(model: Any) -> tuple[int, int]:
    """``min_samples_split`` (at least twice the leaf minimum) and ``min_samples_leaf``."""
    n = int(model.tree_.n_node_samples[0])
    return resolve_min_samples(model.min_samples_split, model.min_samples_leaf, n)


@dataclass(frozen=True)
class SplitCandidates:
    """The best split of every feature at one node, ranked, with the tree's own split first.

    Attributes
    ----------
    node : int
    n_samples : int
    parent_impurity : float
    rows : tuple of SplitEvaluation
        The tree's split first (when the node is split), then every other feature's best
        split by decreasing gain. Features that cannot split the node are left out.
    chosen : int or None
        Index in ``rows`` of the tree's split (0), None at a leaf.
    sampled_features : bool
        The tree drew ``max_features`` < all features at each split, so it may not have seen
        the best feature here.
    best_beats_chosen : bool
        Another feature's best split gains more than the tree's (only possible when
        ``sampled_features``).
    note : str
        What the table shows, in words.
    tied : tuple of int
        Indices in ``rows`` of other features' splits exactly as good as the tree's (equal
        gain, up to rounding): scikit-learn, which tries the features in a random order, may
        ask any of them here, where this tree asks the lowest feature's question.
    """

    node: int
    n_samples: int
    parent_impurity: float
    rows: tuple[SplitEvaluation, ...]
    chosen: int | None
    sampled_features: bool
    best_beats_chosen: bool
    note: str
    tied: tuple[int, ...] = ()


def split_candidates(
    model: Any, X_train: ArrayLike, y_train: ArrayLike, node: int
) -> SplitCandidates:
    """Why the tree split ``node`` where it did: every feature's best split on its rows.

    Parameters
    ----------
    model : fitted DecisionTreeClassifier or DecisionTreeRegressor (ours or scikit-learn's)
    X_train, y_train : array-like of shape (n_samples, n_features), (n_samples,)
        The data the model was fitted on.
    node : int
        Node id in ``model.tree_``.

    Returns
    -------
    SplitCandidates
    """
    X = np.asarray(X_train, dtype=np.float64)
    at = node_rows(model, X, node)
    y, n_classes = _targets(model, y_train)
    tree, criterion = model.tree_, str(model.criterion)
    _, min_leaf = _min_samples(model)
    ranked = best_split(X[at], y[at], criterion, n_classes, min_samples_leaf=min_leaf)
    rows: list[SplitEvaluation] = []
    chosen: int | None = None
    best_beats = False
    tied: tuple[int, ...] = ()
    if tree.children_left[node] != TREE_LEAF:
        f = int(tree.feature[node])
        mine = evaluate_split(
            X[at], y[at], f, float(tree.threshold[node]), criterion, n_classes,
            bool(tree.missing_go_to_left[node]),
        )  # fmt: skip
        others = [s for s in ranked if s.feature != f]
        rows, chosen = [mine, *others], 0
        tolerance = 1e-10 * max(1.0, mine.parent_impurity)
        best_beats = bool(others) and others[0].gain > mine.gain + tolerance
        tied = tuple(
            k for k, s in enumerate(rows) if k > 0 and abs(s.gain - mine.gain) <= tolerance
        )
    else:
        rows = ranked
    drawn = getattr(model, "max_features_", None)
    sampled = drawn is not None and int(drawn) < X.shape[1]
    if chosen is None:
        note = "A leaf: the best split each feature could make here, had the tree split it."
    elif best_beats:
        note = (
            "The tree looked at a random subset of the features here (max_features), and a "
            "feature it did not see splits better."
        )
    else:
        note = "The tree's split comes first: no feature gains more."
    return SplitCandidates(
        node=int(node),
        n_samples=int(at.sum()),
        parent_impurity=float(tree.impurity[node]),
        rows=tuple(rows),
        chosen=chosen,
        sampled_features=sampled,
        best_beats_chosen=best_beats,
        note=note,
        tied=tied,
    )


# --------------------------------------------------------------------------------------------
# Why a leaf stopped
# --------------------------------------------------------------------------------------------

StopCode = Literal[
    "pure",
    "max_depth",
    "min_samples_split",
    "min_samples_leaf",
    "constant",
    "min_impurity_decrease",
    "ccp_alpha",
    "features_drawn",
]


#: The name of each rule of :func:`why_leaf`, by its number (:mod:`core.engine.stopping`).
STOP_CODES: dict[int, StopCode] = {
    PURE: "pure",
    MAX_DEPTH: "max_depth",
    FEWER_THAN_TWO_LEAVES: "min_samples_leaf",
    MIN_SAMPLES_SPLIT: "min_samples_split",
    CONSTANT: "constant",
    LEAVES_TOO_SMALL: "min_samples_leaf",
    MIN_IMPURITY_DECREASE: "min_impurity_decrease",
    PRUNED: "ccp_alpha",
    FEATURES_DRAWN: "features_drawn",
}


@dataclass(frozen=True)
class StopReason:
    """Why a leaf was not split: the rule that stopped it and the numbers that rule read.

    Only numbers: :func:`core.app.words.why_leaf_sentence` says it in words.

    Attributes
    ----------
    node : int
    code : StopCode
        The rule's name: the parameter that stopped the node, or ``pure``, ``constant``,
        ``features_drawn``.
    rule : int
        Which of :func:`why_leaf`'s nine rules, numbered in its order (1 to 9): the code alone
        does not tell rule 3 (too few samples for two leaves) from rule 6 (no threshold leaves
        both sides big enough), both ``min_samples_leaf``.
    n_samples : int
        Training samples at the node.
    depth : int
        The node's depth, the root's being 0.
    limit : int, float or None
        The value of the parameter named by ``code`` (``max_depth``, ``min_samples_leaf``,
        ``min_samples_split`` as int; ``min_impurity_decrease``, ``ccp_alpha`` as float);
        None for ``pure``, ``constant`` and ``features_drawn``.
    pure_class : int or None
        At a pure node of a classifier: the index of its one class in ``model.classes_``.
        None otherwise (a regressor's pure node has one target value, whatever it is).
    best_feature : int or None
        The best split's feature over all features, once the rules have looked for it
        (rules 7 to 9); None before.
    decrease : float or None
        That split's weighted impurity decrease, ``n_samples / n_root * gain``, the number
        ``min_impurity_decrease`` is compared with (rules 7 to 9).
    """

    node: int
    code: StopCode
    rule: int
    n_samples: int
    depth: int
    limit: float | None = None
    pure_class: int | None = None
    best_feature: int | None = None
    decrease: float | None = None


def why_leaf(
    model: Any,
    X_train: ArrayLike,
    y_train: ArrayLike,
    node: int,
) -> StopReason:
    """The first stopping rule, in the builder's order, that keeps ``node`` a leaf.

    Rules 1 to 7 are the builder's own (:func:`core.engine.stopping.stop_reason`, asked here
    as the growing loop asks it); 8 and 9 say why a node that could split did not:

    1. ``pure``: impurity 0 (one class, or one target value);
    2. ``max_depth``: the node is at the depth limit;
    3. ``min_samples_leaf``: fewer than ``2 * min_samples_leaf`` samples;
    4. ``min_samples_split``: fewer than ``min_samples_split`` samples;
    5. ``constant``: every feature is constant on the node's samples;
    6. ``min_samples_leaf``: every threshold leaves a side too small;
    7. ``min_impurity_decrease``: the best split's weighted decrease is below the minimum;
    8. ``ccp_alpha``: the node could split, so pruning cut it (the model has ``ccp_alpha > 0``);
    9. ``features_drawn``: it could split, but not on the features drawn (``max_features``).

    Rules 5 to 9 scan all features; with ``max_features`` the tree saw only some of them.

    Parameters
    ----------
    model : fitted DecisionTreeClassifier or DecisionTreeRegressor (ours or scikit-learn's)
    X_train, y_train : array-like of shape (n_samples, n_features), (n_samples,)
        The data the model was fitted on.
    node : int
        A leaf's id in ``model.tree_``.

    Returns
    -------
    StopReason
        The rule's code and number, and the numbers it read; no words
        (:func:`core.app.words.why_leaf_sentence` gives them).

    Raises
    ------
    ValueError
        When ``node`` is not a leaf.
    """
    _check_node(model, node)
    tree = model.tree_
    if tree.children_left[node] != TREE_LEAF:
        raise ValueError(f"node {node} is not a leaf: it splits on feature {tree.feature[node]}")
    X = np.asarray(X_train, dtype=np.float64)
    at = node_rows(model, X, node)
    y, n_classes = _targets(model, y_train)
    n = int(at.sum())
    depth = int(model.decision_path(X[at][:1]).sum()) - 1  # nodes on the path, minus the root
    split, leaf = _min_samples(model)
    max_depth = UNLIMITED_DEPTH if model.max_depth is None else int(model.max_depth)
    minimum, alpha = float(model.min_impurity_decrease), float(model.ccp_alpha)
    impurity = float(tree.impurity[node])
    stop_limits = StopLimits(max_depth, split, leaf, minimum)
    limits = {
        MAX_DEPTH: max_depth,
        FEWER_THAN_TWO_LEAVES: leaf,
        MIN_SAMPLES_SPLIT: split,
        LEAVES_TOO_SMALL: leaf,
        MIN_IMPURITY_DECREASE: minimum,
        PRUNED: alpha,
    }

    def stopped(rule: int, **found: Any) -> StopReason:
        """Every rule reports the node, its samples and its depth, and the limit it read."""
        return StopReason(
            node=int(node), code=STOP_CODES[rule], rule=rule, n_samples=n, depth=depth,
            limit=limits.get(rule), **found,
        )  # fmt: skip

    # First the rules that read the node alone, as the loop asks before scanning it.
    rule = stop_reason(impurity, depth, n, True, True, np.inf, stop_limits)
    if rule == PURE:
        return stopped(rule, pure_class=int(np.argmax(tree.value[node, 0])) if n_classes else None)
    if rule != SPLIT:
        return stopped(rule)
    # Then what the scan of every feature finds.
    criterion = str(model.criterion)
    varies = bool(best_split(X[at], y[at], criterion, n_classes))
    ranked = best_split(X[at], y[at], criterion, n_classes, min_samples_leaf=leaf) if varies else []
    decrease = n / float(tree.n_node_samples[0]) * ranked[0].gain if ranked else -np.inf
    rule = stop_reason(impurity, depth, n, varies, bool(ranked), decrease, stop_limits)
    if rule in (CONSTANT, LEAVES_TOO_SMALL):
        return stopped(rule)
    # The best split's feature, not its rule: how a rule reads (one-hot columns, missing
    # values) is core.figures.rules' job, and the engine does not import figures.
    found = {"best_feature": ranked[0].feature, "decrease": decrease}
    if rule == SPLIT:  # the node could split: after growing, something else stopped it
        rule = PRUNED if alpha > 0.0 else FEATURES_DRAWN
    return stopped(rule, **found)
