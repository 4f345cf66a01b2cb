"""Random forests (Breiman, 2001): many randomised trees that vote.

Each tree is grown on a bootstrap sample of the rows (``n`` draws with replacement, kept as
integer weights: how often each row was drawn) and considers only ``max_features`` randomly
chosen features at every split. Every tree is grown by the same loop as a single tree
(:func:`core.engine.grow.grow`) on rows sorted once for the whole forest; with ``n_jobs``, on
several threads at once (the compiled loop releases Python's global lock). A classifier's
probabilities are the average of its trees' leaf class fractions; a regressor's prediction is
the average of its trees' predictions.

Rows a tree never saw (its *out-of-bag* rows) give a free test set: the out-of-bag prediction of
a row averages only the trees that did not train on it.

Randomness: ``np.random.SeedSequence(random_state).spawn(n_estimators)`` gives every tree its own
stream (first its bootstrap, then its feature draws), so a forest of ``k`` trees is exactly the
first ``k`` trees of a forest of ``n > k`` trees with the same seed. That is also why
``warm_start`` (scikit-learn's name) can grow a fitted forest of ``k`` trees to ``n``: it grows
trees ``k..n-1`` only, and the forest is the one a fresh fit of ``n`` trees would give.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from core.engine.compat import ClassifierMixin, RegressorMixin
from core.engine.forest_base import BaseForest
from core.engine.tree import DecisionTreeClassifier, DecisionTreeRegressor

Float = NDArray[np.float64]


class RandomForestClassifier(ClassifierMixin, BaseForest):
    """A random forest of classification trees.

    Parameters
    ----------
    n_estimators : int, default=100
    criterion : {"gini", "entropy", "log_loss"}, default="gini"
    max_features : int, float, {"sqrt", "log2"} or None, default="sqrt"
    max_depth, min_samples_split, min_samples_leaf, min_impurity_decrease, bootstrap, \
oob_score, random_state, max_samples, ccp_alpha, n_jobs
        See :class:`BaseForest`.

    Attributes
    ----------
    estimators_ : list of DecisionTreeClassifier
    classes_, n_classes_, n_features_in_, feature_importances_
    oob_score_ : float
        Out-of-bag accuracy (with ``oob_score=True``).
    oob_decision_function_ : ndarray of shape (n_samples, n_classes)
        Out-of-bag class probabilities; NaN for rows no tree left out.
    oob_staged_scores_ : ndarray of shape (n_estimators,)
        Out-of-bag accuracy of the first ``k`` trees (NaN while no row is out of bag).
    """

    _classification = True
    _tree_class = DecisionTreeClassifier

    def __init__(
        self,
        n_estimators: int = 100,
        *,
        criterion: str = "gini",
        max_depth: int | None = None,
        min_samples_split: int | float = 2,
        min_samples_leaf: int | float = 1,
        min_impurity_decrease: float = 0.0,
        max_features: int | float | str | None = "sqrt",
        bootstrap: bool = True,
        oob_score: bool = False,
        random_state: int | None = None,
        max_samples: int | float | None = None,
        ccp_alpha: float = 0.0,
        n_jobs: int | None = None,
        warm_start: bool = False,
    ) -> None:
        super().__init__(
            n_estimators=n_estimators,
            criterion=criterion,
            max_depth=max_depth,
            min_samples_split=min_samples_split,
            min_samples_leaf=min_samples_leaf,
            min_impurity_decrease=min_impurity_decrease,
            max_features=max_features,
            bootstrap=bootstrap,
            oob_score=oob_score,
            random_state=random_state,
            max_samples=max_samples,
            ccp_alpha=ccp_alpha,
            n_jobs=n_jobs,
            warm_start=warm_start,
        )

    def predict_proba(self, X: ArrayLike) -> Float:
        """Mean of the trees' leaf class fractions, shape (n_samples, n_classes)."""
        checked = self._check_X(X)
        return self._mean_values(checked)

    def predict(self, X: ArrayLike) -> NDArray[Any]:
        """Class with the highest mean probability, shape (n_samples,)."""
        winner = np.argmax(self.predict_proba(X), axis=1)
        return self.classes_[winner]

    def _encode_for_score(self, y: NDArray[Any]) -> NDArray[Any]:
        return y

    def _staged(self, values: Float, target: NDArray[Any]) -> Float:
        known = ~np.isnan(values[:, :, 0])
        correct = (self.classes_[np.argmax(np.nan_to_num(values), axis=2)] == target) & known
        n_known = known.sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(n_known > 0, correct.sum(axis=1) / n_known, np.nan)

    def _compute_oob(self, X: Float, codes: NDArray[Any]) -> None:
        super()._compute_oob(X, self.classes_[codes])

    def _set_oob_prediction(self, values: Float) -> None:
        self.oob_decision_function_ = values


class RandomForestRegressor(RegressorMixin, BaseForest):
    """A random forest of regression trees.

    Parameters
    ----------
    n_estimators : int, default=100
    criterion : {"squared_error", "absolute_error"}, default="squared_error"
    max_features : int, float, {"sqrt", "log2"} or None, default=1.0
        1.0 (all features) is scikit-learn's default for regression forests.
    max_depth, min_samples_split, min_samples_leaf, min_impurity_decrease, bootstrap, \
oob_score, random_state, max_samples, ccp_alpha, n_jobs
        See :class:`BaseForest`.

    Attributes
    ----------
    estimators_ : list of DecisionTreeRegressor
    n_features_in_, feature_importances_
    oob_score_ : float
        Out-of-bag R² (with ``oob_score=True``).
    oob_prediction_ : ndarray of shape (n_samples,)
        Out-of-bag predictions; NaN for rows no tree left out.
    oob_staged_scores_ : ndarray of shape (n_estimators,)
    """

    _classification = False
    _tree_class = DecisionTreeRegressor

    def __init__(
        self,
        n_estimators: int = 100,
        *,
        criterion: str = "squared_error",
        max_depth: int | None = None,
        min_samples_split: int | float = 2,
        min_samples_leaf: int | float = 1,
        min_impurity_decrease: float = 0.0,
        max_features: int | float | str | None = 1.0,
        bootstrap: bool = True,
        oob_score: bool = False,
        random_state: int | None = None,
        max_samples: int | float | None = None,
        ccp_alpha: float = 0.0,
        n_jobs: int | None = None,
        warm_start: bool = False,
    ) -> None:
        super().__init__(
            n_estimators=n_estimators,
            criterion=criterion,
            max_depth=max_depth,
            min_samples_split=min_samples_split,
            min_samples_leaf=min_samples_leaf,
            min_impurity_decrease=min_impurity_decrease,
            max_features=max_features,
            bootstrap=bootstrap,
            oob_score=oob_score,
            random_state=random_state,
            max_samples=max_samples,
            ccp_alpha=ccp_alpha,
            n_jobs=n_jobs,
            warm_start=warm_start,
        )

    def predict(self, X: ArrayLike) -> Float:
        """Mean of the trees' predictions, shape (n_samples,)."""
        checked = self._check_X(X)
        return self._mean_values(checked)[:, 0]

    def _encode_for_score(self, y: NDArray[Any]) -> NDArray[Any]:
        return np.asarray(y, dtype=np.float64)

    def _staged(self, values: Float, target: NDArray[Any]) -> Float:
        """R² of each prefix: ``1 - sum (y - pred)² / sum (y - mean y)²`` over known rows."""
        pred = values[:, :, 0]
        known = ~np.isnan(pred)
        n_known = known.sum(axis=1)
        y = np.broadcast_to(target, pred.shape)
        with np.errstate(divide="ignore", invalid="ignore"):
            mean = np.where(known, y, 0.0).sum(axis=1) / n_known
            total = np.where(known, (y - mean[:, None]) ** 2, 0.0).sum(axis=1)
            residual = np.where(known, (y - np.nan_to_num(pred)) ** 2, 0.0).sum(axis=1)
            r2 = 1.0 - residual / total
        # As scikit-learn's r2_score: a constant target scores 1 if predicted exactly, else 0.
        r2 = np.where(total == 0, np.where(residual == 0, 1.0, 0.0), r2)
        return np.where(n_known >= 2, r2, np.nan)

    def _set_oob_prediction(self, values: Float) -> None:
        self.oob_prediction_ = values[:, 0]
