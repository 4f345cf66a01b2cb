"""Does the criterion matter? Where a Gini tree and an entropy tree part, and how often it counts.

Three views of one question (``Gini_vs_entropy?view=criterion-matters``):

* :func:`first_parting`: walking both trees from the root, the first node where they ask
  different questions, and at that node how much each criterion's impurity each candidate split
  lowers, as a share of the node's impurity (the two are on different scales: Gini's largest
  value is ``1 - 1/K``, entropy's ``log2 K`` bits), so the two curves can be laid side by side;
* :func:`seed_study`: the two trees grown again on many train/test splits: how often their root
  questions differ, how often their test predictions differ, and by how much their test
  accuracies differ;
* :func:`split_lab`: one split of a two-class node, counted by hand: both impurities of the node
  and of each side, and both gains.

Impurities, for class shares ``p_k``: Gini ``1 - sum p_k^2``, entropy ``-sum p_k log2 p_k``;
a split's gain is the node's impurity minus its children's, weighted by their sizes:
``I(node) - (n_L I(L) + n_R I(R)) / n``. :mod:`core.figures.criterion_plot` draws the three.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from core.engine.node_splits import node_rows
from core.engine.scan import SplitScan, scan_feature

__all__ = [
    "LabSide",
    "Parting",
    "SeedStudy",
    "entropy",
    "first_parting",
    "gini",
    "same_question",
    "seed_study",
    "split_lab",
]

FloatArray = np.ndarray


def gini(counts: Sequence[float]) -> float:
    """Gini impurity ``1 - sum p_k^2`` of a node with these class counts (0 when empty)."""
    total = float(sum(counts))
    return 0.0 if total <= 0 else 1.0 - sum((c / total) ** 2 for c in counts)


def entropy(counts: Sequence[float]) -> float:
    """Entropy ``-sum p_k log2 p_k`` in bits of a node with these class counts (0 when empty)."""
    total = float(sum(counts))
    return 0.0 if total <= 0 else -sum((c / total) * np.log2(c / total) for c in counts if c > 0)


# --- where the two trees part ----------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """One criterion's best split at the parting node."""

    feature: int
    threshold: float
    decrease: float  # its own impurity's decrease, as a share of the node's impurity
    decrease_of_other: float  # its impurity's decrease at the other criterion's split


@dataclass(frozen=True)
class Parting:
    """The first node where the two trees ask different questions.

    Attributes
    ----------
    node_gini, node_entropy : int
        The node's id in each tree (the same rows reach both).
    depth : int
        Its depth (root = 0).
    n_samples : int
        Training rows reaching it.
    path : tuple of (int, float, bool)
        The questions above it, shared by both trees: feature, threshold, and True where the
        path goes left (``feature <= threshold``).
    choices : dict
        ``"gini"`` and ``"entropy"``: each criterion's :class:`Choice`, or None where that tree
        makes the node a leaf.
    scans : dict
        ``(criterion, feature)`` -> :class:`~core.engine.scan.SplitScan` of the chosen features.
    """

    node_gini: int
    node_entropy: int
    depth: int
    n_samples: int
    path: tuple[tuple[int, float, bool], ...]
    choices: dict[str, Choice | None]
    scans: dict[tuple[str, int], SplitScan]


def same_question(ta: Any, na: int, tb: Any, nb: int, *, atol: float = 1e-9) -> bool:
    """Whether node ``na`` of tree arrays ``ta`` and node ``nb`` of ``tb`` ask one question:
    both split, on the same feature, at the same threshold (to ``atol``).
    """
    return bool(
        ta.children_left[na] != -1
        and tb.children_left[nb] != -1
        and ta.feature[na] == tb.feature[nb]
        and abs(float(ta.threshold[na]) - float(tb.threshold[nb])) <= atol
    )


def _decrease(scan: SplitScan, threshold: float) -> float:
    """Share of the node's impurity the split at ``threshold`` removes."""
    if scan.parent_impurity <= 0:
        return 0.0
    at = int(np.argmin(np.abs(scan.thresholds - threshold)))
    return float((scan.parent_impurity - scan.child_impurity[at]) / scan.parent_impurity)


def first_parting(
    gini_tree: Any, entropy_tree: Any, X: FloatArray, y: FloatArray, *, min_samples_leaf: int = 1
) -> Parting | None:
    """Walk both fitted trees from the root, level by level; None when they never part.

    ``X`` and ``y`` are the training rows both were grown on (``y`` as class codes); the
    parting node's rows are those the Gini tree sends there
    (:func:`core.engine.node_splits.node_rows`, the tree's own walk), which the shared
    questions above it send there in the entropy tree too.
    """
    ta, tb = gini_tree.tree_, entropy_tree.tree_
    queue: list[tuple[int, int, tuple[tuple[int, float, bool], ...]]] = [(0, 0, ())]
    while queue:
        na, nb, path = queue.pop(0)
        leaf_a, leaf_b = ta.children_left[na] == -1, tb.children_left[nb] == -1
        if leaf_a and leaf_b:
            continue
        if same_question(ta, na, tb, nb):
            question = (int(ta.feature[na]), float(ta.threshold[na]))
            queue.append(
                (int(ta.children_left[na]), int(tb.children_left[nb]), (*path, (*question, True)))
            )
            queue.append(
                (
                    int(ta.children_right[na]),
                    int(tb.children_right[nb]),
                    (*path, (*question, False)),
                )
            )
            continue
        rows = node_rows(gini_tree, X, na)  # the rows the shared questions send here
        codes = np.asarray(y)[rows].astype(np.int64)
        n_classes = int(np.max(y)) + 1
        picks = {
            "gini": None if leaf_a else (int(ta.feature[na]), float(ta.threshold[na])),
            "entropy": None if leaf_b else (int(tb.feature[nb]), float(tb.threshold[nb])),
        }
        scans: dict[tuple[str, int], SplitScan] = {}
        for criterion in ("gini", "entropy"):
            for pick in picks.values():
                if pick is not None and (criterion, pick[0]) not in scans:
                    scans[criterion, pick[0]] = scan_feature(
                        X[rows, pick[0]],
                        codes,
                        criterion=criterion,
                        n_classes=n_classes,
                        min_samples_leaf=min_samples_leaf,
                    )
        choices: dict[str, Choice | None] = {}
        for criterion, other in (("gini", "entropy"), ("entropy", "gini")):
            pick, theirs = picks[criterion], picks[other]
            if pick is None:
                choices[criterion] = None
                continue
            own = _decrease(scans[criterion, pick[0]], pick[1])
            at_other = own if theirs is None else _decrease(scans[criterion, theirs[0]], theirs[1])
            choices[criterion] = Choice(pick[0], pick[1], own, at_other)
        return Parting(na, nb, len(path), int(rows.sum()), path, choices, scans)
    return None


# --- over many splits ------------------------------------------------------------------------


@dataclass(frozen=True)
class SeedStudy:
    """The two trees grown on ``len(seeds)`` train/test splits.

    Attributes
    ----------
    seeds : ndarray of shape (n,)
    root_differs : ndarray of bool, shape (n,)
        The two roots ask different questions.
    trees_differ : ndarray of bool, shape (n,)
        The two trees differ anywhere.
    predictions_differ : ndarray of shape (n,)
        Share of the test rows the two trees classify differently.
    accuracy_gap : ndarray of shape (n,)
        Entropy tree's test accuracy minus the Gini tree's.
    """

    seeds: FloatArray
    root_differs: FloatArray
    trees_differ: FloatArray
    predictions_differ: FloatArray
    accuracy_gap: FloatArray


def _same_questions(a: Any, b: Any) -> bool:
    """Whether two fitted trees' arrays ask the same questions in the same places."""
    return bool(
        a.node_count == b.node_count
        and np.array_equal(a.children_left, b.children_left)
        and np.array_equal(a.feature, b.feature)
        and np.allclose(a.threshold, b.threshold, rtol=0.0, atol=1e-9)
    )


def seed_study(
    grow: Callable[[str, int], tuple[Any, FloatArray, FloatArray]], seeds: Sequence[int]
) -> SeedStudy:
    """Grow both trees for every seed and compare them.

    ``grow(criterion, seed)`` returns the fitted tree and that seed's test rows ``(X, y)``.
    """
    root, anywhere, differ, gap = [], [], [], []
    for seed in seeds:
        g, X_test, y_test = grow("gini", seed)
        e, _, _ = grow("entropy", seed)
        tg, te = g.tree_, e.tree_
        root.append(
            bool(
                tg.feature[0] != te.feature[0]
                or abs(float(tg.threshold[0]) - float(te.threshold[0])) > 1e-9
            )
        )
        anywhere.append(not _same_questions(tg, te))
        pg, pe = g.predict(X_test), e.predict(X_test)
        differ.append(float(np.mean(pg != pe)))
        gap.append(float(np.mean(pe == y_test) - np.mean(pg == y_test)))
    return SeedStudy(
        np.asarray(seeds),
        np.asarray(root),
        np.asarray(anywhere),
        np.asarray(differ),
        np.asarray(gap),
    )


# --- one split, by hand ----------------------------------------------------------------------


@dataclass(frozen=True)
class LabSide:
    """One of the node, its left side and its right side: counts and both impurities."""

    name: str
    counts: tuple[int, int]
    gini: float
    entropy: float


def split_lab(
    left: tuple[int, int], right: tuple[int, int]
) -> tuple[list[LabSide], dict[str, float]]:
    """The node, its two sides and both gains of a two-class split counted by hand.

    Returns
    -------
    sides : list of LabSide
        The node (left + right), the left side, the right side.
    gains : dict
        ``"gini"`` and ``"entropy"``: the node's impurity minus the sides', weighted by size,
        and the same as a share of the node's impurity (``"gini share"``...).
    """
    node = (left[0] + right[0], left[1] + right[1])
    sides = [
        LabSide(name, counts, gini(counts), entropy(counts))
        for name, counts in (("the node", node), ("left", left), ("right", right))
    ]
    n = sum(node)
    gains: dict[str, float] = {}
    for criterion in ("gini", "entropy"):
        parent = getattr(sides[0], criterion)
        children = sum(sum(s.counts) * getattr(s, criterion) for s in sides[1:]) / n if n else 0.0
        gains[criterion] = parent - children
        gains[f"{criterion} share"] = (parent - children) / parent if parent > 0 else 0.0
    return sides, gains
