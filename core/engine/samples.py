"""What the tree builder works on: its settings, the training instances, and nodes.

Part of the builder (read :mod:`core.engine.builder` first for the steps of one depth).
:func:`prepare_samples` lays out every tree's instances and sorts every feature once;
:func:`node_statistics` sums a node's statistics (class counts, or the moments of ``y``) and
takes its impurity from :data:`core.engine.criteria.IMPURITY`; :func:`can_split` is the
stopping rule.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from core.engine.criteria import IMPURITY, Criterion, absolute_error, weighted_median

Int = NDArray[np.int64]
Float = NDArray[np.float64]
Bool = NDArray[np.bool_]
#: Ranks along features: 16-bit when the samples are few enough, else int64.
Ranks = NDArray[np.unsignedinteger[Any] | np.int64]
#: Up to this many samples, ranks are stored in 16 bits (and radix-sorted, see ``blocks``).
SHORT_RANKS = 1 << 16

#: Called once per depth with the fraction of the training rows already settled in leaves.
Progress = Callable[[float], None]

#: A node whose impurity is at most this is pure and is not split (as in scikit-learn).
EPSILON = float(np.finfo(np.float64).eps)


@dataclass(frozen=True)
class GrowthParams:
    """Resolved growth settings (the estimators turn their hyperparameters into these).

    Attributes
    ----------
    criterion : str
        ``"gini"``, ``"entropy"``, ``"squared_error"`` or ``"absolute_error"``.
    n_classes : int
        Number of classes; 0 for regression.
    max_depth : int
        Nodes at this depth are leaves.
    min_samples_split : int
        Nodes with fewer samples are leaves.
    min_samples_leaf : int
        Every child keeps at least this many samples.
    min_impurity_decrease : float
        A split must decrease the weighted impurity,
        ``w_t / w * (I(t) - w_L / w_t * I(L) - w_R / w_t * I(R))``, by at least this much.
    max_features : int
        Number of features drawn at random at every split (all ``d`` for no sampling).
    """

    criterion: Criterion
    n_classes: int
    max_depth: int
    min_samples_split: int
    min_samples_leaf: int
    min_impurity_decrease: float
    max_features: int


@dataclass(frozen=True)
class Samples:
    """The training rows of every tree, and every feature sorted once.

    An *instance* is a (tree, sample) pair with a positive weight; instances are ordered by
    tree, then sample. Feature values and ranks are stored feature-major and flat, at
    ``feature * n_samples + sample``.
    """

    tree: Int  #: (n_instances,) the tree of each instance
    sample: Int  #: (n_instances,) its row of X
    weight: Float  #: (n_instances,) how often the tree drew that row
    y: NDArray[np.int64] | Float  #: (n_instances,) class code or target
    unit_weights: bool  #: every weight is 1 (a single tree)
    tree_weight: Float  #: (n_trees,) total weight of each tree's root
    #: (n_features * n_samples,) rank of each sample along each feature (NaN last)
    rank: Ranks
    values: Float  #: (n_features * n_samples,) X, feature-major
    n_samples: int
    n_features: int
    has_missing: bool  #: X holds a NaN somewhere (step 5 runs only then)


@dataclass(frozen=True)
class Nodes:
    """Some nodes, one entry per node; their rows are consecutive groups of a ``rows`` array.

    ``stats`` are the statistics the criterion adds up: class counts ``(n_nodes, n_classes)``,
    or the moments ``(w, s, q)`` of ``y`` centred on the node's mean for squared error
    (``(n_nodes, 0)`` for absolute error, which has none). ``value`` is what the node predicts
    before normalisation: class counts, the mean, or the median.
    """

    tree: Int
    n: Int  #: number of instances (distinct training rows)
    weight: Float  #: their total weight
    stats: Float
    impurity: Float
    value: Float  #: (n_nodes, n_values)

    def take(self, keep: Bool | Int) -> Nodes:
        """The nodes selected by a mask or index array."""
        return Nodes(
            self.tree[keep],
            self.n[keep],
            self.weight[keep],
            self.stats[keep],
            self.impurity[keep],
            self.value[keep],
        )


def feature_ranks(X: Float) -> Ranks:
    """The one sort: each sample's rank along each feature, shape ``(n_features * n_samples,)``.

    Ties are broken by sample index, and NaN ranks last. Stored as 16-bit integers when they
    fit (up to 65,536 samples): the builder gathers ranks at every depth, and the smaller
    array stays in cache (and goes to the radix sort of :func:`~core.engine.blocks.block_order`
    as it is).
    """
    n_samples, n_features = X.shape
    order = np.argsort(X, axis=0, kind="stable")
    dtype = np.uint16 if n_samples <= SHORT_RANKS else np.int64
    rank = np.empty((n_features, n_samples), dtype=dtype)
    rank[np.arange(n_features)[:, None], order.T] = np.arange(n_samples)
    return rank.ravel()


def prepare_samples(
    X: Float,
    y: NDArray[np.int64] | Float,
    weights: Int,
    rank: Ranks | None = None,
) -> Samples:
    """Instances of every tree, and each sample's rank along each feature.

    ``rank`` is :func:`feature_ranks` of ``X`` when the caller has it already (a forest grown
    in batches sorts ``X`` once, not once a batch).
    """
    n_samples, n_features = X.shape
    tree, sample = np.nonzero(weights > 0)
    w = weights[tree, sample].astype(np.float64)
    if rank is None:
        rank = feature_ranks(X)
    return Samples(
        tree=tree.astype(np.int64),
        sample=sample.astype(np.int64),
        weight=w,
        y=y[sample],
        unit_weights=bool(np.all(w == 1.0)),
        tree_weight=np.bincount(tree, weights=w, minlength=weights.shape[0]).astype(np.float64),
        rank=rank,
        values=np.ascontiguousarray(X.T).ravel(),
        n_samples=n_samples,
        n_features=n_features,
        has_missing=bool(np.isnan(X).any()),
    )


def ranges(starts: Int, lengths: Int) -> Int:
    """Concatenation of ``arange(s, s + l)`` for every ``(s, l)``."""
    before = np.cumsum(lengths) - lengths
    return np.repeat(starts - before, lengths) + np.arange(int(before[-1] + lengths[-1]))


# ------------------------------------------------------------------------------------------------
# Node statistics and the stopping rule
# ------------------------------------------------------------------------------------------------


def node_statistics(samples: Samples, rows: Int, n: Int, params: GrowthParams) -> Nodes:
    """Statistics of the nodes whose instances are ``rows``, in consecutive groups of ``n``.

    Every group holds at least one instance. The impurity comes from the same registry function
    as every candidate's score (:data:`core.engine.criteria.IMPURITY`).
    """
    n_nodes = n.size
    group = np.repeat(np.arange(n_nodes), n)
    w = samples.weight[rows]
    tree = samples.tree[rows[np.cumsum(n) - n]]
    weight = _sums(group, w, n_nodes)
    k = params.n_classes
    if k:
        codes = np.asarray(samples.y[rows], dtype=np.int64)
        counts = _sums(group * k + codes, w, n_nodes * k).reshape(n_nodes, k)
        return Nodes(tree, n, weight, counts, IMPURITY[params.criterion](counts), counts)
    y = samples.y[rows].astype(np.float64)
    if params.criterion == "squared_error":
        # Centre each node's targets on its own mean: then s ~ 0, and a node whose targets
        # are all equal has q = 0 exactly, hence impurity 0.
        mean = _sums(group, w * y, n_nodes) / weight
        centred = y - mean[group]
        s = _sums(group, w * centred, n_nodes)
        q = _sums(group, w * centred * centred, n_nodes)
        stats = np.column_stack([weight, s, q])
        return Nodes(tree, n, weight, stats, IMPURITY["squared_error"](stats), mean[:, None])
    # Absolute error: a median does not add up, so each node is measured on its own.
    bounds = np.cumsum(n).tolist()
    parts = [(y[a:b], w[a:b]) for a, b in zip([0, *bounds[:-1]], bounds, strict=True)]
    median = np.array([weighted_median(yy, ww) for yy, ww in parts])
    impurity = np.array([absolute_error(yy, ww) for yy, ww in parts])
    return Nodes(tree, n, weight, np.zeros((n_nodes, 0)), impurity, median[:, None])


def _sums(group: Int, values: Float, n_groups: int) -> Float:
    """Sum of ``values`` in each group ``0..n_groups-1``."""
    return np.bincount(group, weights=values, minlength=n_groups).astype(np.float64, copy=False)


def can_split(nodes: Nodes, depth: int, params: GrowthParams) -> Bool:
    """Nodes that may be split: below ``max_depth``, big enough, and not pure."""
    if depth >= params.max_depth:
        return np.zeros(nodes.n.size, dtype=bool)
    big_enough = max(params.min_samples_split, 2 * params.min_samples_leaf)
    return (nodes.n >= big_enough) & (nodes.impurity > EPSILON)
