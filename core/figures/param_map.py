"""The parameter map: test score of a tree over a grid of ``max_depth`` x ``min_samples_leaf``.

:func:`compute_param_map` scores one tree per cell of the grid, on the held-out test rows or
by k-fold cross-validation on the training rows; :mod:`core.figures.param_map_plot` draws the
scores as a heat map, the current setting outlined and the best cells in bold. Two maps compared
cell by cell (Gini vs entropy) are :mod:`core.figures.map_difference`'s, on the same grid
layout.

One tree is grown per ``min_samples_leaf`` (per fold), to full depth and unpruned; each
shallower tree is that tree cut at its depth (:meth:`~core.engine.structure.Tree.top`), then
pruned with the model's ``ccp_alpha`` (:func:`~core.engine.pruning.prune`). This is the very
tree a fit with that ``max_depth`` grows: every split depends only on its node's rows, the
builder grows (and draws its features) one depth at a time, and pruning acts on the grown
tree. A map of 13 depths then costs 10 fits, not 130 (``refit=True`` fits every cell; the
tests compare the two).

The score is the model's own ``score``: accuracy, or R² for regression,

.. math::

    R^2 = 1 - \\frac{\\sum_i (y_i - \\hat y_i)^2}{\\sum_i (y_i - \\bar y)^2}.

With ``n_folds = k`` a cell holds the mean of the k folds' scores, each of a tree grown on the
other k - 1 folds and scored on that one, as scikit-learn's ``cross_val_score(...).mean()``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from core.engine.pruning import prune
from core.figures._model import FittedTree, FloatArray, IntArray, as_2d, score, score_name, task_of

__all__ = [
    "DEPTHS",
    "LEAF_SIZES",
    "ParamMap",
    "column_scores",
    "compute_param_map",
    "fold_labels",
    "param_grid",
]

#: The map's rows: ``max_depth`` 1 to 12, then no limit (None).
DEPTHS: tuple[int | None, ...] = (*range(1, 13), None)
#: The map's columns: ``min_samples_leaf`` from 1 to 50, closer together where it matters most.
LEAF_SIZES: tuple[int, ...] = (1, 2, 3, 5, 8, 12, 18, 25, 35, 50)
#: The colours spread over this much score below the best cell; lower scores are the palest.
COLOUR_SPREAD = 0.2


@dataclass(frozen=True)
class ParamMap:
    """The score of one tree per (``max_depth``, ``min_samples_leaf``), as plain numbers.

    Attributes
    ----------
    depths : tuple of (int or None), length n_depths
        The rows' ``max_depth``, increasing; None (no limit) last.
    leaf_sizes : tuple of int, length n_leaf_sizes
        The columns' ``min_samples_leaf``, increasing.
    scores : ndarray of shape (n_depths, n_leaf_sizes)
        ``scores[i, j]``: the score of the tree with ``depths[i]`` and ``leaf_sizes[j]``.
    metric : str
        ``"accuracy"`` or ``"R²"``.
    n_folds : int or None
        None: scored on the held-out test rows; k: mean score of k-fold cross-validation on
        the training rows.
    folds : ndarray of shape (n_train,), int, or None
        With ``n_folds``, the fold (0 .. k-1) of each training row.
    current : (int or None, int) or None
        The setting to mark, ``(max_depth, min_samples_leaf)``.
    """

    depths: tuple[int | None, ...]
    leaf_sizes: tuple[int, ...]
    scores: FloatArray
    metric: str
    n_folds: int | None = None
    folds: IntArray | None = None
    current: tuple[int | None, int] | None = None

    @property
    def current_cell(self) -> tuple[int, int] | None:
        """``(row, column)`` of the current setting, or None when it is not on the grid."""
        if self.current is None:
            return None
        depth, leaf = self.current
        if depth not in self.depths or leaf not in self.leaf_sizes:
            return None
        return self.depths.index(depth), self.leaf_sizes.index(leaf)

    @property
    def best_cells(self) -> list[tuple[int, int]]:
        """``(row, column)`` of every cell with the best score, row by row."""
        best = np.max(self.scores)
        return [(int(i), int(j)) for i, j in np.argwhere(self.scores == best)]

    @property
    def scored_on(self) -> str:
        """What the scores measure, in words: ``"test accuracy"``, ``"5-fold CV R²"``."""
        if self.n_folds is None:
            return f"test {self.metric}"
        return f"{self.n_folds}-fold CV {self.metric}"

    @property
    def colour_range(self) -> tuple[float, float]:
        """``(low, best)``: the scores the map's colours span, :data:`COLOUR_SPREAD` at most."""
        best = float(np.max(self.scores))
        return max(float(np.min(self.scores)), best - COLOUR_SPREAD), best

    def setting(self, cell: tuple[int, int]) -> tuple[int | None, int]:
        """``(max_depth, min_samples_leaf)`` of the cell ``(row, column)``."""
        return self.depths[cell[0]], self.leaf_sizes[cell[1]]


def param_grid(
    current: tuple[int | None, int] | None = None,
    depths: Sequence[int | None] = DEPTHS,
    leaf_sizes: Sequence[int] = LEAF_SIZES,
) -> tuple[tuple[int | None, ...], tuple[int, ...]]:
    """The map's rows and columns: ``depths`` and ``leaf_sizes`` with ``current``'s own added.

    So the current setting always has a cell, even off the usual grid (``max_depth=15``,
    ``min_samples_leaf=4``). Rows increase with None last; columns increase.
    """
    rows, columns = set(depths), set(leaf_sizes)
    if current is not None:
        rows.add(current[0])
        columns.add(current[1])
    numbers = sorted(d for d in rows if d is not None)
    return (*numbers, *([None] if None in rows else [])), tuple(sorted(columns))


def fold_labels(y: ArrayLike, n_folds: int, *, seed: int = 0, stratify: bool = True) -> IntArray:
    """The fold (0 .. ``n_folds`` - 1) of each row, at random, stratified by class.

    The rows are shuffled with ``np.random.default_rng(seed)``, grouped by class (in that
    shuffled order) when ``stratify``, then dealt out to the folds in turn, like cards: the
    folds' sizes differ by at most one row, and so do a class's counts in any two folds.

    Parameters
    ----------
    y : array-like of shape (n,)
        Class labels (with ``stratify``) or targets.
    n_folds : int
        At least 2 and at most n.
    seed : int, default 0
    stratify : bool, default True

    Returns
    -------
    ndarray of shape (n,), int
    """
    labels = np.asarray(y)
    n = len(labels)
    if isinstance(n_folds, bool) or not isinstance(n_folds, (int, np.integer)):
        raise TypeError(f"n_folds must be an int; got {type(n_folds).__name__}")
    if not 2 <= n_folds <= n:
        raise ValueError(f"n_folds must be from 2 to the number of rows ({n}); got {n_folds}")
    order = np.random.default_rng(seed).permutation(n)
    if stratify:
        order = order[np.argsort(labels[order], kind="stable")]
    folds = np.empty(n, dtype=np.intp)
    folds[order] = np.arange(n) % n_folds
    return folds


def _check_grid(depths: Sequence[int | None], leaf_sizes: Sequence[int]) -> None:
    if not depths or not leaf_sizes:
        raise ValueError("depths and leaf_sizes must each hold at least one value")
    for name, values in (("depths", depths), ("leaf_sizes", leaf_sizes)):
        if len(set(values)) != len(values):
            raise ValueError(f"{name} must not repeat a value; got {list(values)}")
    if any(d is not None and (isinstance(d, bool) or d < 1) for d in depths):
        raise ValueError(f"depths must be whole numbers >= 1 or None; got {list(depths)}")
    if any(isinstance(m, bool) or m < 1 for m in leaf_sizes):
        raise ValueError(f"leaf_sizes must be whole numbers >= 1; got {list(leaf_sizes)}")


def column_scores(
    make_model: Callable[..., Any],
    leaf: int,
    depths: Sequence[int | None],
    X: FloatArray,
    y: np.ndarray,
    X_score: FloatArray,
    y_score: np.ndarray,
    refit: bool = False,
) -> tuple[FloatArray, Any]:
    """One column of the map: the trees with ``min_samples_leaf=leaf``, one per depth, scored.

    One tree is grown to full depth without pruning; the tree of depth ``d`` is its nodes
    down to depth ``d`` (deeper ones cut away), then pruned with the model's ``ccp_alpha``.
    With ``refit`` every depth is fitted instead.

    Parameters
    ----------
    make_model : callable
        As :func:`compute_param_map` takes it.
    leaf : int
        The column's ``min_samples_leaf``.
    depths : sequence of (int or None), length n_depths
    X, y : ndarray of shape (n, n_features), (n,)
        The rows the trees are grown on.
    X_score, y_score : ndarray of shape (m, n_features), (m,)
        The rows they are scored on.
    refit : bool, default False

    Returns
    -------
    scores : ndarray of shape (n_depths,)
    model : a fitted tree of the column (to read the task from)
    """
    scores = np.empty(len(depths))
    if refit:
        model = None
        for i, depth in enumerate(depths):
            model = make_model(max_depth=depth, min_samples_leaf=leaf).fit(X, y)
            scores[i] = score(model, X_score, y_score)
        return scores, model
    unfitted = make_model(max_depth=None, min_samples_leaf=leaf)
    alpha = float(unfitted.get_params().get("ccp_alpha", 0.0))
    full: FittedTree = unfitted.set_params(ccp_alpha=0.0).fit(X, y)
    cut = copy.copy(full)  # a private copy whose tree_ is swapped; full stays as it is
    for i, depth in enumerate(depths):
        grown = full.tree_ if depth is None else full.tree_.top(full.tree_.depth <= depth)
        cut.tree_ = prune(grown, alpha)
        scores[i] = score(cut, X_score, y_score)
    return scores, full


def compute_param_map(
    make_model: Callable[..., Any],
    X_train: ArrayLike,
    y_train: ArrayLike,
    X_test: ArrayLike | None = None,
    y_test: ArrayLike | None = None,
    *,
    depths: Sequence[int | None] = DEPTHS,
    leaf_sizes: Sequence[int] = LEAF_SIZES,
    n_folds: int | None = None,
    seed: int = 0,
    current: tuple[int | None, int] | None = None,
    refit: bool = False,
) -> ParamMap:
    """Score one tree per ``max_depth`` in ``depths`` and ``min_samples_leaf`` in ``leaf_sizes``.

    Parameters
    ----------
    make_model : callable
        Called as ``make_model(max_depth=d, min_samples_leaf=m)``; returns an unfitted tree of
        ours with every other setting fixed: an estimator class, or
        ``functools.partial(DecisionTreeClassifier, criterion="entropy", random_state=0)``.
    X_train, y_train : array-like of shape (n_train, n_features), (n_train,)
        The rows the trees are grown on (and cross-validated on, with ``n_folds``).
    X_test, y_test : array-like, optional
        The held-out rows every tree is scored on; required unless ``n_folds`` is given.
    depths : sequence of (int >= 1 or None), default :data:`DEPTHS`
    leaf_sizes : sequence of int >= 1, default :data:`LEAF_SIZES`
    n_folds : int, optional
        Score by ``n_folds``-fold cross-validation on the training rows instead: folds from
        :func:`fold_labels` (stratified for a classifier), the mean of the folds' scores.
    seed : int, default 0
        Draws the folds.
    current : (int or None, int), optional
        The setting to mark, ``(max_depth, min_samples_leaf)``.
    refit : bool, default False
        Fit one tree per cell instead of cutting and pruning the full tree (the same scores,
        many times the work).

    Returns
    -------
    ParamMap
        Rows and columns sorted as :func:`param_grid` sorts them.

    Raises
    ------
    ValueError
        On an empty or repeating grid, a depth or leaf size below 1, test rows missing (or
        half given) without ``n_folds``, or ``n_folds`` out of range.
    """
    _check_grid(depths, leaf_sizes)
    depths, leaf_sizes = param_grid(None, depths, leaf_sizes)
    if (X_test is None) != (y_test is None):
        raise ValueError("X_test and y_test must be given together")
    X, y = as_2d(X_train, "X_train"), np.asarray(y_train)
    scores = np.empty((len(depths), len(leaf_sizes)))
    folds: IntArray | None = None
    model: Any = None
    if n_folds is not None:
        # Unfitted, a classifier has no classes_ yet (task_of's test), but it can give
        # probabilities: stratify the folds by class then.
        unfitted = make_model(max_depth=None, min_samples_leaf=1)
        classify = callable(getattr(unfitted, "predict_proba", None))
        folds = fold_labels(y, n_folds, seed=seed, stratify=classify)
        per_fold = np.empty((n_folds, *scores.shape))
        for k in range(n_folds):
            fit, held = folds != k, folds == k
            for j, leaf in enumerate(leaf_sizes):
                per_fold[k, :, j], model = column_scores(
                    make_model, leaf, depths, X[fit], y[fit], X[held], y[held], refit
                )
        scores = per_fold.mean(axis=0)
    elif X_test is not None and y_test is not None:
        Xt, yt = as_2d(X_test, "X_test"), np.asarray(y_test)
        for j, leaf in enumerate(leaf_sizes):
            scores[:, j], model = column_scores(make_model, leaf, depths, X, y, Xt, yt, refit)
    else:
        raise ValueError("give X_test and y_test, or n_folds to cross-validate")
    return ParamMap(
        depths=depths,
        leaf_sizes=leaf_sizes,
        scores=scores,
        metric=score_name(task_of(model)),
        n_folds=n_folds,
        folds=folds,
        current=current,
    )
