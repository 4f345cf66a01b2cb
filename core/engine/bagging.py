"""Bagging: every tree of a forest grown on its own bootstrap sample, and the rows it left out.

A tree's bootstrap sample is ``n_draws`` rows drawn with replacement from its own random
stream, kept as integer weights: how often each row was drawn (:func:`bootstrap_weights`).
:func:`grow_trees` grows one tree per sample, by the single tree's loop, on rows sorted once for
all of them, on one thread or several. The rows a tree never drew are its *out-of-bag* rows: a
free test set (:func:`out_of_bag_staged`).
"""

from __future__ import annotations

import warnings
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numpy.typing import NDArray

from core.engine.grow import Progress, grow
from core.engine.params import GrowthParams
from core.engine.pruning import prune
from core.engine.sorting import sort_rows
from core.engine.structure import Tree

Float = NDArray[np.float64]
Int = NDArray[np.int64]


def bootstrap_weights(rngs: list[np.random.Generator], n_samples: int, n_draws: int | None) -> Int:
    """How often each tree drew each row, shape ``(n_trees, n_samples)``.

    Tree ``t`` draws ``n_draws`` rows with replacement from ``rngs[t]``; a row drawn ``k``
    times weighs ``k``. ``n_draws=None`` is no bootstrap: every tree has every row once.
    """
    if n_draws is None:
        return np.ones((len(rngs), n_samples), dtype=np.int64)
    drawn = [np.bincount(rng.integers(0, n_samples, n_draws), minlength=n_samples) for rng in rngs]
    return np.stack(drawn).astype(np.int64)


def grow_trees(
    X_by_feature: Float,
    targets: Float,
    weights: Int,
    params: GrowthParams,
    rngs: list[np.random.Generator],
    ccp_alpha: float,
    n_threads: int,
    progress: Progress | None = None,
) -> list[Tree]:
    """One tree per row of ``weights``, grown by :func:`core.engine.grow.grow` and pruned.

    Parameters
    ----------
    X_by_feature : ndarray of shape (n_features, n_samples), float64, C-contiguous
    targets : ndarray of shape (n_samples,), float64
        Class codes or targets.
    weights : ndarray of shape (n_trees, n_samples)
        Each tree's :func:`bootstrap_weights`.
    params : GrowthParams
    rngs : list of numpy.random.Generator
        Each tree's stream (its bootstrap sample was drawn from it first).
    ccp_alpha : float
        Cost-complexity pruning of each tree (0: none).
    n_threads : int
        Trees grown at once; the trees are the same whatever the number.
    progress : callable, optional
        Called after each batch of trees with the fraction grown, from the calling thread.
    """
    sorted_rows = sort_rows(X_by_feature)  # once for every tree; each keeps its own rows of it
    n_trees = len(rngs)

    def grow_some(batch: range) -> list[Tree]:
        return [
            prune(grow(X_by_feature, targets, weights[t].astype(np.float64), sorted_rows,
                       params, rngs[t]), ccp_alpha)
            for t in batch
        ]  # fmt: skip

    # On threads, trees go in a few batches per thread: a task per tree cost more than a
    # small tree's fit (100 iris trees took twice as long on two threads as on one).
    size = 1 if n_threads == 1 else max(1, -(-n_trees // (4 * n_threads)))
    batches = [range(lo, min(lo + size, n_trees)) for lo in range(0, n_trees, size)]
    trees: list[Tree] = []
    with ThreadPoolExecutor(max_workers=n_threads) as pool:
        grown = pool.map(grow_some, batches) if n_threads > 1 else map(grow_some, batches)
        for batch in grown:  # in order, whichever thread grew it
            trees += batch
            if progress is not None:
                progress(len(trees) / n_trees)
    return trees


def out_of_bag_staged(per_tree: Float, in_bag: NDArray[np.bool_]) -> Float:
    """Every row's out-of-bag prediction by the first ``k`` trees, for every ``k``.

    The out-of-bag prediction of a row averages only the trees that did not draw it.

    Parameters
    ----------
    per_tree : ndarray of shape (n_trees, n_samples, n_values)
        Every tree's leaf values for every training row.
    in_bag : ndarray of bool, shape (n_trees, n_samples)
        Which rows each tree drew.

    Returns
    -------
    ndarray of shape (n_trees, n_samples, n_values)
        NaN where none of the first ``k`` trees left the row out. Warns when some row was
        drawn by every tree.
    """
    out_of_bag = ~in_bag
    counts = np.cumsum(out_of_bag, axis=0)  # trees so far that had each row out of bag
    sums = np.cumsum(per_tree * out_of_bag[:, :, None], axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        staged = sums / counts[:, :, None]  # NaN where no tree had the row out of bag yet
    if np.any(counts[-1] == 0):
        warnings.warn(
            "Some rows were in every tree's bootstrap sample, so they have no out-of-bag "
            "prediction; the out-of-bag score leaves them out. Use more trees.",
            UserWarning,
            stacklevel=4,
        )
    return staged
