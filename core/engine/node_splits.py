"""One node's splits, as a student asks about them: every candidate, my own, and why a leaf
stopped.

- :func:`split_candidates`: the best split of every feature at a node, ranked by gain, the
  tree's own split first;
- :func:`why_leaf`: why a leaf was not split, as a stop code and the numbers behind it;
- :func:`evaluate_split` and :func:`compare_with_best`: how good *my* split is, against the
  tree's.

Each answer comes from the node's training rows and the same impurity functions the builder
uses (:mod:`core.engine.criteria`); nothing is refitted. The answers are codes and numbers:
the sentences a student reads are the app's (:mod:`core.app.words`), so the engine's results
stay the same whatever the wording.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from core.engine.criteria import (
    CLASSIFICATION_CRITERIA,
    absolute_error,
    entropy,
    gini,
    squared_error,
)
from core.engine.grow import EPSILON
from core.engine.params import resolve_min_samples
from core.engine.scan import scan_feature
from core.engine.structure import TREE_LEAF

Int = NDArray[np.int64]
Float = NDArray[np.float64]

__all__ = [
    "SplitCandidates",
    "SplitComparison",
    "SplitEvaluation",
    "StopCode",
    "StopReason",
    "best_split",
    "compare_with_best",
    "evaluate_split",
    "node_rows",
    "split_candidates",
    "why_leaf",
]


# --------------------------------------------------------------------------------------------
# One split of one node's samples
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SplitEvaluation:
    """What the split ``x[feature] <= threshold`` does to a node's samples.

    Attributes
    ----------
    feature : int
    threshold : float
    n_left, n_right : int
        Samples sent left and right.
    left_counts, right_counts : tuple of float
        Class counts on each side (classification); empty for regression.
    parent_impurity, left_impurity, right_impurity : float
    child_impurity : float
        :math:`(n_L I(L) + n_R I(R)) / n`.
    gain : float
        ``parent_impurity - child_impurity``; 0 when one side is empty.
    n_missing : int
        Samples whose value of the feature is missing (NaN); they are counted in ``n_left``
        or ``n_right``.
    missing_left : bool
        Where the missing values go (where they would go, when there are none).
    """

    feature: int
    threshold: float
    n_left: int
    n_right: int
    left_counts: tuple[float, ...]
    right_counts: tuple[float, ...]
    parent_impurity: float
    left_impurity: float
    right_impurity: float
    child_impurity: float
    gain: float
    n_missing: int = 0
    missing_left: bool = False

    @property
    def splits(self) -> bool:
        """Both sides get samples (otherwise this is no split at all)."""
        return self.n_left > 0 and self.n_right > 0


def _impurity(y: Float, criterion: str, n_classes: int) -> tuple[float, tuple[float, ...]]:
    """Impurity of a group of samples, and its class counts (empty for regression)."""
    if criterion in CLASSIFICATION_CRITERIA:
        counts = np.bincount(y.astype(np.int64), minlength=n_classes).astype(np.float64)
        measure = gini if criterion == "gini" else entropy
        return float(measure(counts)), tuple(float(c) for c in counts)
    if criterion == "squared_error":
        return squared_error(y), ()
    if criterion == "absolute_error":
        return absolute_error(y), ()
    raise ValueError(
        "criterion must be one of gini, entropy, log_loss, squared_error, absolute_error; "
        f"got {criterion!r}"
    )


def _node_data(X_node: ArrayLike, y_node: ArrayLike) -> tuple[Float, Float]:
    X = np.asarray(X_node, dtype=np.float64)
    y = np.asarray(y_node, dtype=np.float64)
    if X.ndim != 2 or y.ndim != 1 or X.shape[0] != y.shape[0]:
        raise ValueError(
            f"X_node must be (n, n_features) and y_node (n,); got shapes {X.shape} and {y.shape}"
        )
    if X.shape[0] == 0:
        raise ValueError("the node has no samples (X_node is empty)")
    return X, y


def evaluate_split(
    X_node: ArrayLike,
    y_node: ArrayLike,
    feature: int,
    threshold: float,
    criterion: str,
    n_classes: int = 0,
    missing_left: bool | None = None,
) -> SplitEvaluation:
    """Score the split ``x[feature] <= threshold`` on a node's samples.

    A sample whose value is missing (NaN) goes left when ``missing_left`` is True, right when
    it is False; by default to the side that gives the lower child impurity (right on a tie),
    as the tree builder decides.

    Parameters
    ----------
    X_node : array-like of shape (n, n_features)
    y_node : array-like of shape (n,)
        Class codes ``0..n_classes-1`` (classification) or targets (regression).
    feature : int
    threshold : float
    criterion : {"gini", "entropy", "log_loss", "squared_error", "absolute_error"}
    n_classes : int, default 0
        Number of classes (classification only).

    Returns
    -------
    SplitEvaluation
        ``child_impurity = (n_L I(L) + n_R I(R)) / n`` and ``gain = I(node) - child_impurity``.
    """
    X, y = _node_data(X_node, y_node)
    if not 0 <= feature < X.shape[1]:
        raise ValueError(f"feature must be in [0, {X.shape[1] - 1}]; got {feature}")
    if criterion in CLASSIFICATION_CRITERIA and n_classes < int(y.max()) + 1:
        raise ValueError(f"n_classes must be > every class code in y_node; got {n_classes}")
    values = X[:, feature]
    missing = np.isnan(values)
    if missing_left is None:
        if missing.any():
            options = [
                evaluate_split(X, y, feature, threshold, criterion, n_classes, side)
                for side in (False, True)
            ]
            return min(options, key=lambda s: s.child_impurity)  # the first (right) on a tie
        n_present_left = int(np.count_nonzero(values <= threshold))
        missing_left = n_present_left > y.size - n_present_left  # the bigger side
    go_left = (values <= threshold) | (missing & missing_left)
    n, n_left = y.size, int(go_left.sum())
    parent, _ = _impurity(y, criterion, n_classes)
    left, left_counts = _impurity(y[go_left], criterion, n_classes)
    right, right_counts = _impurity(y[~go_left], criterion, n_classes)
    children = (n_left * left + (n - n_left) * right) / n
    if n_left in (0, n):
        children = parent  # everything on one side: the node is unchanged
    return SplitEvaluation(
        feature=int(feature),
        threshold=float(threshold),
        n_left=n_left,
        n_right=n - n_left,
        left_counts=left_counts,
        right_counts=right_counts,
        parent_impurity=parent,
        left_impurity=left,
        right_impurity=right,
        child_impurity=children,
        gain=parent - children,
        n_missing=int(np.count_nonzero(missing)),
        missing_left=bool(missing_left),
    )


def best_split(
    X_node: ArrayLike,
    y_node: ArrayLike,
    criterion: str,
    n_classes: int = 0,
    *,
    min_samples_leaf: int = 1,
    features: ArrayLike | None = None,
) -> list[SplitEvaluation]:
    """The best split of each feature on a node's samples, best first.

    Each feature's best threshold comes from :func:`core.engine.scan.scan_feature` (the
    lowest threshold among equals); features that cannot split the node are left out. Sorted by
    gain, largest first, then by feature index (the builder's tie rule).

    Parameters
    ----------
    X_node, y_node, criterion, n_classes
        As in :func:`evaluate_split`.
    min_samples_leaf : int, default 1
        Thresholds leaving fewer samples on a side are not candidates.
    features : array-like of int, optional
        Features to scan; default all.

    Returns
    -------
    list of SplitEvaluation
        Empty when no feature has a valid threshold.
    """
    X, y = _node_data(X_node, y_node)
    chosen = range(X.shape[1]) if features is None else np.asarray(features).tolist()
    found = []
    for f in chosen:
        scan = scan_feature(
            X[:, f],
            y,
            criterion=criterion,  # type: ignore[arg-type]
            n_classes=n_classes or None,
            min_samples_leaf=min_samples_leaf,
        )
        if scan.best_threshold is not None:
            found.append(
                evaluate_split(
                    X, y, int(f), scan.best_threshold, criterion, n_classes,
                    scan.best_missing_left,
                )
            )  # fmt: skip
    # Sorting on the scan's own child impurity would equal sorting on gain; rounding in the two
    # sums can differ, so rank on the gain shown to the student.
    return sorted(found, key=lambda s: (-s.gain, s.feature))


@dataclass(frozen=True)
class SplitComparison:
    """A student's split against the best split of the node.

    Attributes
    ----------
    yours : SplitEvaluation
    best : SplitEvaluation or None
        Best split over all features (None when nothing can split the node).
    gain_difference : float or None
        ``best.gain - yours.gain``: how much more the best split gains (None without ``best``).
    found_best : bool
        ``yours`` gains as much as ``best``, up to rounding (``1e-12`` relative to the node's
        impurity): the student found *a* best split, maybe another feature's or threshold's.
    """

    yours: SplitEvaluation
    best: SplitEvaluation | None
    gain_difference: float | None
    found_best: bool


def compare_with_best(
    X_node: ArrayLike,
    y_node: ArrayLike,
    feature: int,
    threshold: float,
    criterion: str,
    n_classes: int = 0,
    *,
    min_samples_leaf: int = 1,
) -> SplitComparison:
    """Score a student's split and the best split of the same samples (see :func:`best_split`).

    Works at any node, the root of a two-feature data set being the "beat the tree" game.
    """
    yours = evaluate_split(X_node, y_node, feature, threshold, criterion, n_classes)
    ranked = best_split(X_node, y_node, criterion, n_classes, min_samples_leaf=min_samples_leaf)
    if not ranked:
        return SplitComparison(yours=yours, best=None, gain_difference=None, found_best=False)
    best = ranked[0]
    # Two equally good splits can differ in the last bits of their sums: a tie is a tie.
    tolerance = 1e-12 * max(1.0, best.parent_impurity)
    return SplitComparison(
        yours=yours,
        best=best,
        gain_difference=best.gain - yours.gain,
        found_best=yours.gain >= best.gain - tolerance,
    )


# --------------------------------------------------------------------------------------------
# Why this split, at a node of a fitted tree
# --------------------------------------------------------------------------------------------


def _check_node(model: Any, node: int) -> None:
    n_nodes = int(model.tree_.node_count)
    if not 0 <= node < n_nodes:
        raise ValueError(f"node must be in [0, {n_nodes - 1}]; got {node}")


def node_rows(model: Any, X: ArrayLike, node: int) -> NDArray[np.bool_]:
    """Mask of the rows of ``X`` whose path through ``model``'s tree passes ``node``."""
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
    """

    node: int
    n_samples: int
    parent_impurity: float
    rows: tuple[SplitEvaluation, ...]
    chosen: int | None
    sampled_features: bool
    best_beats_chosen: bool
    note: str


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

    # Every rule reports the node, its samples and its depth; each adds the numbers it read.
    stop = partial(StopReason, node=int(node), n_samples=n, depth=depth)

    if tree.impurity[node] <= EPSILON:
        pure_class = int(np.argmax(tree.value[node, 0])) if n_classes else None
        return stop(code="pure", rule=1, pure_class=pure_class)
    if model.max_depth is not None and depth >= model.max_depth:
        return stop(code="max_depth", rule=2, limit=int(model.max_depth))
    if n < 2 * leaf:
        return stop(code="min_samples_leaf", rule=3, limit=leaf)
    if n < split:
        return stop(code="min_samples_split", rule=4, limit=split)
    criterion = str(model.criterion)
    if not best_split(X[at], y[at], criterion, n_classes):
        return stop(code="constant", rule=5)
    ranked = best_split(X[at], y[at], criterion, n_classes, min_samples_leaf=leaf)
    if not ranked:
        return stop(code="min_samples_leaf", rule=6, limit=leaf)
    # The best split's feature, not its rule: how a rule reads (one-hot columns, missing
    # values) is core.figures.rules' job, and the engine does not import figures.
    best_feature = ranked[0].feature
    decrease = n / float(tree.n_node_samples[0]) * ranked[0].gain
    minimum = float(model.min_impurity_decrease)
    if decrease + EPSILON < minimum:
        return stop(
            code="min_impurity_decrease",
            rule=7,
            limit=minimum,
            best_feature=best_feature,
            decrease=decrease,
        )
    if float(model.ccp_alpha) > 0.0:
        return stop(
            code="ccp_alpha",
            rule=8,
            limit=float(model.ccp_alpha),
            best_feature=best_feature,
            decrease=decrease,
        )
    return stop(code="features_drawn", rule=9, best_feature=best_feature, decrease=decrease)
