"""Decision trees with scikit-learn's interface, grown by Arboretum's own loop.

The estimator classes are a thin shell: they check the hyperparameters
(:mod:`core.engine.params`) and the data (:mod:`core.engine.compat`), hand the work to
:func:`core.engine.grow.grow` (the compiled textbook loop), and keep the result as a
flat-array :class:`core.engine.structure.Tree` in ``tree_``.
"""

from __future__ import annotations

from typing import Any, ClassVar, Self

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.sparse import csr_matrix

from core.engine.arrays import plain_array
from core.engine.compat import (
    Bunch,
    ClassifierMixin,
    Estimator,
    RegressorMixin,
    check_fitted,
    encode_classes,
    fit_data,
    predict_data,
)
from core.engine.grow import Progress, grow, report_progress
from core.engine.params import (
    UNLIMITED_DEPTH,
    check_non_negative,
    check_random_state,
    resolve_growth_params,
)
from core.engine.pruning import prune, pruning_path
from core.engine.sorting import sort_rows
from core.engine.structure import Tree

Float = NDArray[np.float64]

__all__ = [
    "UNLIMITED_DEPTH",
    "BaseDecisionTree",
    "DecisionTreeClassifier",
    "DecisionTreeRegressor",
]


class BaseDecisionTree(Estimator):
    """Shared parameters and machinery of the classifier and the regressor.

    Parameters
    ----------
    criterion : str
        How a node's impurity is measured (see :mod:`core.engine.criteria`).
    max_depth : int or None, default=None
        Nodes at this depth become leaves; None grows until leaves are pure or too small.
    min_samples_split : int or float, default=2
        A node needs this many samples (or this fraction of them) to be split.
    min_samples_leaf : int or float, default=1
        Each child keeps at least this many samples (or this fraction).
    min_impurity_decrease : float, default=0.0
        A split must decrease the weighted impurity by at least this much.
    max_features : int, float, {"sqrt", "log2"} or None, default=None
        Number of features drawn at random at every split; None uses all of them.
    random_state : int or None, default=None
        Seed of the feature draws (which only matter with ``max_features``); 0 is a seed.
    ccp_alpha : float, default=0.0
        Cost-complexity pruning strength (see :mod:`core.engine.pruning`); 0 does not prune.
    """

    _classification: ClassVar[bool]

    def __init__(
        self,
        *,
        criterion: str,
        max_depth: int | None = None,
        min_samples_split: int | float = 2,
        min_samples_leaf: int | float = 1,
        min_impurity_decrease: float = 0.0,
        max_features: int | float | str | None = None,
        random_state: int | None = None,
        ccp_alpha: float = 0.0,
    ) -> None:
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.max_features = max_features
        self.random_state = random_state
        self.ccp_alpha = ccp_alpha

    # -- fitting -------------------------------------------------------------------------------

    def _encode_target(self, y: NDArray[Any]) -> tuple[NDArray[Any], int]:
        """Class codes 0..K-1 (classification) or float targets; and K (0 for regression)."""
        return y, 0

    def fit(self, X: ArrayLike, y: ArrayLike, *, progress: Progress | None = None) -> Self:
        """Grow the tree on ``X`` (n_samples, n_features) and ``y`` (n_samples,); return self.

        ``progress``, if given, is called after every depth with the fraction (0 to 1) of the
        training rows that have reached a leaf (:func:`core.engine.grow.report_progress`).
        """
        check_random_state(self.random_state)
        ccp_alpha = check_non_negative("ccp_alpha", self.ccp_alpha)
        X_checked, y_checked = fit_data(self, X, y, classification=self._classification)
        codes, n_classes = self._encode_target(y_checked)
        n_samples, n_features = X_checked.shape
        params = resolve_growth_params(
            self,
            classification=self._classification,
            n_samples=n_samples,
            n_features=n_features,
            n_classes=n_classes,
        )
        # Features are drawn only when a node tries fewer than all of them.
        draws = (
            np.random.default_rng(self.random_state) if params.max_features < n_features else None
        )
        X_by_feature = plain_array(X_checked.T, np.float64)
        targets = plain_array(codes, np.float64)
        weight = np.ones(n_samples)
        tree = grow(X_by_feature, targets, weight, sort_rows(X_by_feature), params, draws)
        if progress is not None:
            report_progress(tree, progress)
        self.tree_ = prune(tree, ccp_alpha)
        self.max_features_ = params.max_features
        return self

    @classmethod
    def from_tree(
        cls,
        tree: Tree,
        settings: dict[str, Any],
        *,
        max_features: int,
        classes: NDArray[Any] | None = None,
        feature_names: NDArray[Any] | None = None,
    ) -> Self:
        """An estimator around a tree grown elsewhere (a forest's), as if ``fit`` had grown it.

        Parameters
        ----------
        tree : Tree
        settings : dict
            The estimator's hyperparameters.
        max_features : int
            Resolved number of features drawn per split.
        classes : ndarray, optional
            A classifier's class labels.
        feature_names : ndarray of str, optional
        """
        estimator = cls(**settings)
        estimator.tree_ = tree
        estimator.n_features_in_ = tree.n_features
        estimator.max_features_ = max_features
        if classes is not None:
            estimator.classes_ = classes
            estimator.n_classes_ = int(classes.size)
        if feature_names is not None:
            estimator.feature_names_in_ = feature_names
        return estimator

    # -- using the tree --------------------------------------------------------------------------

    def _check_X(self, X: ArrayLike) -> Float:
        return predict_data(self, X, "tree_")

    def apply(self, X: ArrayLike) -> NDArray[np.int64]:
        """Index of the leaf each sample ends up in, shape (n_samples,)."""
        checked = self._check_X(X)
        return self.tree_.apply(checked)

    def decision_path(self, X: ArrayLike) -> csr_matrix:
        """Sparse (n_samples, node_count) indicator of the nodes each sample passes through."""
        checked = self._check_X(X)
        return self.tree_.decision_path(checked)

    def get_depth(self) -> int:
        """Depth of the tree: the longest root-to-leaf path (0 for a single leaf)."""
        check_fitted(self, "tree_")
        return self.tree_.max_depth

    def get_n_leaves(self) -> int:
        """Number of leaves."""
        check_fitted(self, "tree_")
        return self.tree_.n_leaves

    @property
    def feature_importances_(self) -> Float:
        """Normalised total impurity decrease brought by each feature, shape (n_features,)."""
        check_fitted(self, "tree_")
        return self.tree_.compute_feature_importances()

    def cost_complexity_pruning_path(self, X: ArrayLike, y: ArrayLike) -> Bunch:
        """Weakest-link pruning path of the unpruned tree grown on ``(X, y)``.

        Returns
        -------
        sklearn.utils.Bunch
            ``ccp_alphas`` (increasing effective alphas, starting at 0) and ``impurities``
            (total leaf impurity of the pruned tree at each alpha).
        """
        full = self.__class__(**{**self.get_params(), "ccp_alpha": 0.0}).fit(X, y)
        path = pruning_path(full.tree_)
        return Bunch(ccp_alphas=path.ccp_alphas, impurities=path.impurities)


class DecisionTreeClassifier(ClassifierMixin, BaseDecisionTree):
    """A classification tree (CART), grown by Arboretum's compiled loop.

    Parameters
    ----------
    criterion : {"gini", "entropy", "log_loss"}, default="gini"
        Gini impurity, or entropy in bits (``"log_loss"`` is another name for it).
    max_depth, min_samples_split, min_samples_leaf, min_impurity_decrease, max_features, \
random_state, ccp_alpha
        See :class:`BaseDecisionTree`.

    Attributes
    ----------
    tree_ : Tree
        The fitted tree as flat arrays; ``tree_.value`` holds class fractions.
    classes_ : ndarray of shape (n_classes,)
        The class labels, sorted.
    n_classes_ : int
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when fitted on a DataFrame with string column names.
    feature_importances_ : ndarray of shape (n_features,)

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> DecisionTreeClassifier(max_depth=2).fit(X, y).score(X, y)
    0.96
    """

    _classification = True

    def __init__(
        self,
        *,
        criterion: str = "gini",
        max_depth: int | None = None,
        min_samples_split: int | float = 2,
        min_samples_leaf: int | float = 1,
        min_impurity_decrease: float = 0.0,
        max_features: int | float | str | None = None,
        random_state: int | None = None,
        ccp_alpha: float = 0.0,
    ) -> None:
        super().__init__(
            criterion=criterion,
            max_depth=max_depth,
            min_samples_split=min_samples_split,
            min_samples_leaf=min_samples_leaf,
            min_impurity_decrease=min_impurity_decrease,
            max_features=max_features,
            random_state=random_state,
            ccp_alpha=ccp_alpha,
        )

    def _encode_target(self, y: NDArray[Any]) -> tuple[NDArray[Any], int]:
        self.classes_, codes = encode_classes(y)
        self.n_classes_ = int(self.classes_.size)
        return codes, self.n_classes_

    def predict_proba(self, X: ArrayLike) -> Float:
        """Class fractions of the leaf each sample reaches, shape (n_samples, n_classes)."""
        checked = self._check_X(X)
        return self.tree_.predict(checked)

    def predict(self, X: ArrayLike) -> NDArray[Any]:
        """Majority class of the leaf each sample reaches, shape (n_samples,)."""
        winner = np.argmax(self.predict_proba(X), axis=1)
        return self.classes_[winner]


class DecisionTreeRegressor(RegressorMixin, BaseDecisionTree):
    """A regression tree (CART), grown by Arboretum's compiled loop.

    Parameters
    ----------
    criterion : {"squared_error", "absolute_error"}, default="squared_error"
        Leaves predict the mean (squared error) or the median (absolute error) of their
        samples.
    max_depth, min_samples_split, min_samples_leaf, min_impurity_decrease, max_features, \
random_state, ccp_alpha
        See :class:`BaseDecisionTree`.

    Attributes
    ----------
    tree_ : Tree
        The fitted tree as flat arrays; ``tree_.value[:, 0, 0]`` is each node's prediction.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
    feature_importances_ : ndarray of shape (n_features,)
    """

    _classification = False

    def __init__(
        self,
        *,
        criterion: str = "squared_error",
        max_depth: int | None = None,
        min_samples_split: int | float = 2,
        min_samples_leaf: int | float = 1,
        min_impurity_decrease: float = 0.0,
        max_features: int | float | str | None = None,
        random_state: int | None = None,
        ccp_alpha: float = 0.0,
    ) -> None:
        super().__init__(
            criterion=criterion,
            max_depth=max_depth,
            min_samples_split=min_samples_split,
            min_samples_leaf=min_samples_leaf,
            min_impurity_decrease=min_impurity_decrease,
            max_features=max_features,
            random_state=random_state,
            ccp_alpha=ccp_alpha,
        )

    def predict(self, X: ArrayLike) -> Float:
        """Value of the leaf each sample reaches (float), shape (n_samples,)."""
        checked = self._check_X(X)
        return self.tree_.predict(checked)[:, 0].astype(np.float64)
