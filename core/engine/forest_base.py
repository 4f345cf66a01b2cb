"""What the forest classifier and regressor share: their parameters, ``fit``, and prediction
through every tree at once.

Read :mod:`core.engine.forest` first (what a random forest is); the two public estimators
there add what differs between voting on classes and averaging numbers.
"""

from __future__ import annotations

import warnings
from typing import Any, ClassVar, Self

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.sparse import csr_matrix
from scipy.sparse import hstack as sparse_hstack

from core.engine.arrays import plain_array
from core.engine.bagging import bootstrap_weights, grow_trees, out_of_bag_staged
from core.engine.compat import (
    Estimator,
    check_fitted,
    encode_classes,
    fit_data,
    predict_data,
)
from core.engine.grow import Progress
from core.engine.params import (
    check_bool,
    check_n_estimators,
    check_n_jobs,
    check_non_negative,
    check_random_state,
    resolve_growth_params,
    resolve_max_samples,
)
from core.engine.predict import StackedTrees
from core.engine.tree import BaseDecisionTree

Float = NDArray[np.float64]


class BaseForest(Estimator):
    """Shared parameters and machinery of the forest classifier and regressor.

    Parameters
    ----------
    n_estimators : int, default=100
        Number of trees.
    criterion, max_depth, min_samples_split, min_samples_leaf, min_impurity_decrease, \
max_features, ccp_alpha
        As for one tree (:class:`core.engine.tree.BaseDecisionTree`), applied to every tree.
    bootstrap : bool, default=True
        Grow each tree on a bootstrap sample; False grows every tree on all rows (the trees
        then differ only through ``max_features``).
    oob_score : bool, default=False
        Compute the out-of-bag score (needs ``bootstrap=True``).
    random_state : int or None, default=None
        Seed of the bootstrap samples and feature draws; 0 is a seed like any other.
    max_samples : int, float or None, default=None
        Bootstrap sample size: all rows (None), a number, or a fraction of the rows.
    n_jobs : int or None, default=None
        Trees grown at once, on threads: None or 1 one at a time, -1 one per core. The
        trees are the same whatever the number.
    warm_start : bool, default=False
        When the forest is fitted already, ``fit`` keeps its trees and grows only the ones
        ``n_estimators`` adds (on the same rows: the caller's promise, as in scikit-learn).
        The result equals a fresh fit of ``n_estimators`` trees, tree for tree.
    """

    _classification: ClassVar[bool]
    _tree_class: ClassVar[type[BaseDecisionTree]]
    # Set by fit (declared for the type checker: an unfitted forest has neither).
    estimators_: list[BaseDecisionTree]
    _in_bag: NDArray[np.bool_]

    def __init__(
        self,
        *,
        n_estimators: int = 100,
        criterion: str,
        max_depth: int | None = None,
        min_samples_split: int | float = 2,
        min_samples_leaf: int | float = 1,
        min_impurity_decrease: float = 0.0,
        max_features: int | float | str | None,
        bootstrap: bool = True,
        oob_score: bool = False,
        random_state: int | None = None,
        max_samples: int | float | None = None,
        ccp_alpha: float = 0.0,
        n_jobs: int | None = None,
        warm_start: bool = False,
    ) -> None:
        self.n_estimators = n_estimators
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.max_features = max_features
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.random_state = random_state
        self.max_samples = max_samples
        self.ccp_alpha = ccp_alpha
        self.n_jobs = n_jobs
        self.warm_start = warm_start

    def _tree_settings(self) -> dict[str, Any]:
        """The hyperparameters every tree of the forest gets."""
        names = (
            "criterion",
            "max_depth",
            "min_samples_split",
            "min_samples_leaf",
            "min_impurity_decrease",
            "max_features",
            "ccp_alpha",
        )
        return {name: getattr(self, name) for name in names}

    # -- fitting ---------------------------------------------------------------------------------

    def fit(self, X: ArrayLike, y: ArrayLike, *, progress: Progress | None = None) -> Self:
        """Grow ``n_estimators`` trees on ``X`` (n_samples, n_features) and ``y``; return self.

        With ``warm_start`` and a fitted forest, the trees it has stay and only the missing
        ones grow (fewer trees than it has is an error, as many a warning and nothing grown).
        ``progress``, if given, is called after every tree grown with the fraction (0 to 1)
        of the trees to grow, always from the calling thread.
        """
        n_trees = check_n_estimators(self.n_estimators)
        bootstrap = check_bool("bootstrap", self.bootstrap)
        if check_bool("oob_score", self.oob_score) and not bootstrap:
            raise ValueError(
                "oob_score=True needs bootstrap=True: without bootstrap no row is out of bag"
            )
        seed = check_random_state(self.random_state)
        n_threads = check_n_jobs(self.n_jobs)
        ccp_alpha = check_non_negative("ccp_alpha", self.ccp_alpha)
        kept = self._kept_trees(n_trees)
        if kept and len(kept) == n_trees:
            return self
        known_classes = getattr(self, "classes_", None) if kept else None

        X_checked, y_checked = fit_data(self, X, y, classification=self._classification)
        codes = self._targets(y_checked, known_classes)
        n_samples, n_features = X_checked.shape
        params = resolve_growth_params(
            self,
            classification=self._classification,
            n_samples=n_samples,
            n_features=n_features,
            n_classes=self.n_classes_ if self._classification else 0,
        )
        n_draws = resolve_max_samples(self.max_samples, n_samples) if bootstrap else None

        # One independent stream per tree: its bootstrap sample first, then its feature draws.
        # Tree t's stream does not depend on how many trees there are: a warm start takes
        # the streams of the trees it adds, and the trees it keeps are those they were.
        streams = np.random.SeedSequence(seed).spawn(n_trees)[len(kept) :]
        rngs = [np.random.default_rng(s) for s in streams]
        weights = bootstrap_weights(rngs, n_samples, n_draws)
        X_by_feature = plain_array(X_checked.T, np.float64)
        targets = plain_array(codes, np.float64)
        trees = grow_trees(
            X_by_feature, targets, weights, params, rngs, ccp_alpha, n_threads, progress
        )
        settings = self._tree_settings()
        grown_now = [
            self._tree_class.from_tree(
                tree,
                settings,
                max_features=params.max_features,
                classes=getattr(self, "classes_", None),
                feature_names=getattr(self, "feature_names_in_", None),
            )
            for tree in trees
        ]
        in_bag = weights > 0
        self._hold(
            kept + grown_now,
            np.concatenate([self._in_bag, in_bag]) if kept else in_bag,
            X_checked,
            codes,
        )
        return self

    def _kept_trees(self, n_trees: int) -> list[BaseDecisionTree]:
        """The trees a warm start keeps: none without ``warm_start`` or before a first fit.

        Fewer trees than kept is an error; as many, a warning (``fit`` then grows nothing).
        """
        warm = check_bool("warm_start", self.warm_start) and hasattr(self, "estimators_")
        kept = list(self.estimators_) if warm else []
        if len(kept) > n_trees:
            raise ValueError(
                f"n_estimators={n_trees} must be at least len(estimators_)={len(kept)} when "
                "warm_start is True: a warm start only adds trees"
            )
        if kept and len(kept) == n_trees:
            warnings.warn(
                "Warm-start fitting without increasing n_estimators grows no new tree.",
                UserWarning,
                stacklevel=3,
            )
        return kept

    def _targets(self, y_checked: NDArray[Any], known_classes: NDArray[Any] | None) -> NDArray[Any]:
        """What the trees are grown on: a classifier's class codes (``classes_`` and
        ``n_classes_`` set from ``y``), a regressor's values as they are.

        Raises ``ValueError`` when ``known_classes`` (the classes of trees this forest keeps)
        are not ``y``'s: the kept trees' leaves count other classes.
        """
        if not self._classification:
            return y_checked
        self.classes_, codes = encode_classes(y_checked)
        self.n_classes_ = int(self.classes_.size)
        if known_classes is not None and not np.array_equal(known_classes, self.classes_):
            raise ValueError(
                "y must hold the classes the forest was fitted on: "
                f"{known_classes.tolist()}, got {self.classes_.tolist()}"
            )
        return codes

    def _hold(
        self,
        estimators: list[BaseDecisionTree],
        in_bag: NDArray[np.bool_],
        X: Float,
        codes: NDArray[Any],
    ) -> None:
        """Make ``estimators`` this forest's trees: the stacked arrays predictions walk, which
        rows each tree saw (``in_bag``, shape (n_trees, n_samples)), and, with ``oob_score``,
        the out-of-bag scores measured on the training rows ``X`` and their ``codes``."""
        self.estimators_ = estimators
        self._stack = StackedTrees([estimator.tree_ for estimator in estimators])
        self._in_bag = in_bag
        if self.oob_score:
            self._compute_oob(X, codes)

    def first_trees(self, n_trees: int, X: ArrayLike, y: ArrayLike) -> Self:
        """The forest of this one's first ``n_trees`` trees: a fit of ``n_trees`` trees gives
        the same (each tree's random stream depends on its index alone), tree for tree.

        The trees are shared, not copied, and this forest is left as it is. ``X`` and ``y``
        must be the rows this forest was fitted on: the new forest's out-of-bag score is
        measured on them, over its own trees only.

        Parameters
        ----------
        n_trees : int
            From 1 to ``len(estimators_)``.
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        forest
            A new fitted forest of this one's class and parameters, ``n_estimators=n_trees``.
        """
        check_fitted(self, "estimators_")
        if not 1 <= n_trees <= len(self.estimators_):
            raise ValueError(
                f"n_trees must be from 1 to len(estimators_)={len(self.estimators_)}; got {n_trees}"
            )
        forest = type(self)(**{**self.get_params(), "n_estimators": n_trees})
        X_checked, y_checked = fit_data(forest, X, y, classification=self._classification)
        if X_checked.shape[0] != self._in_bag.shape[1]:
            raise ValueError(
                f"X must be the {self._in_bag.shape[1]} rows the forest was fitted on; "
                f"got {X_checked.shape[0]}"
            )
        codes = forest._targets(y_checked, getattr(self, "classes_", None))
        forest._hold(self.estimators_[:n_trees], self._in_bag[:n_trees], X_checked, codes)
        return forest

    def _compute_oob(self, X: Float, codes: NDArray[Any]) -> None:
        staged = out_of_bag_staged(self._per_tree_values(X), self._in_bag)
        self.oob_staged_scores_ = self._staged(staged, codes)
        self.oob_score_ = float(self.oob_staged_scores_[-1])
        self._set_oob_prediction(staged[-1])

    # -- prediction ------------------------------------------------------------------------------

    def _check_X(self, X: ArrayLike) -> Float:
        return predict_data(self, X, "estimators_")

    def _per_tree_values(self, X: Float) -> Float:
        """Leaf values of every tree for every row, shape (n_trees, n_samples, n_values)."""
        return self._stack.values(X)

    def _mean_values(self, X: Float) -> Float:
        """Average leaf value over the trees, shape (n_samples, n_values)."""
        return self._stack.mean_values(X)

    def mean_path_changes(self, x: ArrayLike, column: int = 0) -> tuple[float, Float]:
        """For one row: the trees' mean root value and each feature's mean change along the
        row's paths, which add up to the forest's prediction (the share of class ``column``).

        See :mod:`core.figures.contributions`; one compiled walk over every tree.

        Returns
        -------
        root : float
        changes : ndarray of shape (n_features_in_,)
        """
        checked = self._check_X(np.reshape(np.asarray(x, dtype=float), (1, -1)))
        return self._stack.mean_path_changes(checked[0], column)

    def apply(self, X: ArrayLike) -> NDArray[np.int64]:
        """Leaf index of every row in every tree, shape (n_samples, n_estimators)."""
        checked = self._check_X(X)
        return self._stack.leaves(checked).T

    def decision_path(self, X: ArrayLike) -> tuple[csr_matrix, NDArray[np.int64]]:
        """Nodes every row passes through, all trees side by side (as scikit-learn's forests).

        Returns
        -------
        indicator : scipy.sparse.csr_matrix of shape (n_samples, total node count)
            Columns ``n_nodes_ptr[t]:n_nodes_ptr[t + 1]`` are tree ``t``'s nodes.
        n_nodes_ptr : ndarray of shape (n_estimators + 1,)
        """
        checked = self._check_X(X)
        paths = [e.tree_.decision_path(checked) for e in self.estimators_]
        ptr = np.concatenate([[0], np.cumsum([p.shape[1] for p in paths])]).astype(np.int64)
        return sparse_hstack(paths).tocsr(), ptr

    @property
    def feature_importances_(self) -> Float:
        """Mean of the trees' normalised impurity-decrease importances, shape (n_features,)."""
        check_fitted(self, "estimators_")
        grown = [e.tree_ for e in self.estimators_ if e.tree_.node_count > 1]
        if not grown:
            return np.zeros(self.n_features_in_)
        mean = np.mean([t.compute_feature_importances() for t in grown], axis=0)
        total = mean.sum()
        return mean / total if total > 0 else mean

    def staged_scores(self, X: ArrayLike, y: ArrayLike) -> Float:
        """Score of the first ``k`` trees for every ``k = 1..n_estimators``, in one pass.

        The forest's prediction with ``k`` trees is the running mean of the per-tree
        predictions, so one cumulative sum over trees gives every prefix at once.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        ndarray of shape (n_estimators,)
            Accuracy (classifier) or R² (regressor); the last entry equals ``score(X, y)``.
        """
        X_checked = self._check_X(X)
        per_tree = self._per_tree_values(X_checked)
        running = np.cumsum(per_tree, axis=0)
        counts = np.arange(1, per_tree.shape[0] + 1, dtype=np.float64)[:, None, None]
        target = self._encode_for_score(np.asarray(y))
        return self._staged(running / counts, target)

    def predict_per_tree(self, X: ArrayLike) -> Float:
        """Every tree's prediction for every row.

        Returns
        -------
        ndarray
            Classifier: class probabilities, shape (n_estimators, n_samples, n_classes).
            Regressor: predictions, shape (n_estimators, n_samples).
        """
        checked = self._check_X(X)
        values = self._per_tree_values(checked)
        return values if self._classification else values[:, :, 0]

    # -- hooks for the two kinds -----------------------------------------------------------------

    def _encode_for_score(self, y: NDArray[Any]) -> NDArray[Any]:
        raise NotImplementedError

    def _staged(self, values: Float, target: NDArray[Any]) -> Float:
        """Score of each prefix: ``values`` (n_prefixes, n_samples, n_values), NaN = unknown.

        Rows whose value is NaN (no out-of-bag tree yet) are left out of that prefix's score;
        a prefix with no known row scores NaN.
        """
        raise NotImplementedError

    def _set_oob_prediction(self, values: Float) -> None:
        raise NotImplementedError
