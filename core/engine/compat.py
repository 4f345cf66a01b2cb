"""scikit-learn's estimator contract, in one place.

The engine's estimators behave like scikit-learn's (``get_params``, ``clone``, ``score``,
input checks, ``check_estimator``), and borrow the machinery for it from scikit-learn itself.
This module is the only one in :mod:`core.engine` that imports scikit-learn, so that
:mod:`core.engine.tree` and :mod:`core.engine.forest` read as plain NumPy.

- :class:`Estimator`, :class:`ClassifierMixin`, :class:`RegressorMixin`: base classes giving
  ``get_params``/``set_params``, ``score`` and the tags scikit-learn's checks read.
- :func:`fit_data`, :func:`predict_data`: validate ``X`` (and ``y``) as scikit-learn does,
  recording ``n_features_in_`` and ``feature_names_in_`` at fit time.
- :func:`encode_classes`: sorted class labels and each row's class code.
- :class:`Bunch`: the dict-with-attributes returned by ``cost_complexity_pruning_path``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.utils import Bunch
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

__all__ = [
    "Bunch",
    "ClassifierMixin",
    "Estimator",
    "RegressorMixin",
    "encode_classes",
    "fit_data",
    "predict_data",
]

Float = NDArray[np.float64]


class Estimator(BaseEstimator):
    """scikit-learn's ``BaseEstimator``, with tags saying that ``X`` may hold NaN.

    Missing values (NaN) in ``X`` are handled by the trees themselves (see
    :mod:`core.engine.builder`), as scikit-learn's trees and forests do; infinity is refused.
    """

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags


def fit_data(
    estimator: Estimator, X: ArrayLike, y: ArrayLike, *, classification: bool
) -> tuple[Float, NDArray[Any]]:
    """Check training data; record ``n_features_in_`` (and ``feature_names_in_``) on it.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features), float64
    y : ndarray of shape (n_samples,)
        As given for a classifier (see :func:`encode_classes`), float64 for a regressor.
    """
    X_checked, y_checked = validate_data(
        estimator,
        X,
        y,
        dtype=np.float64,
        y_numeric=not classification,
        ensure_all_finite="allow-nan",
    )
    if classification:
        return X_checked, y_checked
    try:
        y_float = np.asarray(y_checked, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(
            f"{type(estimator).__name__} needs numeric targets y; got values of type "
            f"{np.asarray(y_checked).dtype} (for class labels use a classifier)"
        ) from None
    if not np.all(np.isfinite(y_float)):
        raise ValueError("y must not contain NaN or infinity")
    return X_checked, y_float


def encode_classes(y: NDArray[Any]) -> tuple[NDArray[Any], NDArray[np.int64]]:
    """Sorted class labels, and the code ``0..n_classes-1`` of every row's label."""
    if y.dtype.kind not in "biuUS":
        # Integer, boolean and string labels in one column are always classes; floats and
        # objects may be continuous or mixed, which scikit-learn's check refuses.
        check_classification_targets(y)
    classes, codes = np.unique(y, return_inverse=True)
    return classes, codes.astype(np.int64).ravel()


def predict_data(estimator: Estimator, X: ArrayLike, fitted: str) -> Float:
    """Check the data to predict on; the estimator must be fitted (have attribute ``fitted``)."""
    check_is_fitted(estimator, fitted)
    checked: Float = validate_data(
        estimator, X, dtype=np.float64, reset=False, ensure_all_finite="allow-nan"
    )
    return checked


def check_fitted(estimator: Estimator, fitted: str) -> None:
    """Raise scikit-learn's ``NotFittedError`` unless the estimator has attribute ``fitted``."""
    check_is_fitted(estimator, fitted)
