"""scikit-learn's estimator contract, in one place.

The engine's estimators behave like scikit-learn's (``get_params``, ``clone``, ``score``,
input checks, ``check_estimator``), and borrow the machinery for it from scikit-learn itself.
This module is the only one in :mod:`core.engine` that imports scikit-learn, so that
:mod:`core.engine.tree` and :mod:`core.engine.forest` read as plain NumPy.

- :class:`Estimator`, :class:`ClassifierMixin`, :class:`RegressorMixin`: base classes giving
  ``get_params``/``set_params``, ``score`` and the tags scikit-learn's checks read.
- :func:`fit_data`, :func:`predict_data`: validate ``X`` (and ``y``) as scikit-learn does,
  recording ``n_features_in_`` and ``feature_names_in_`` at fit time; ``X`` comes back rounded
  to float32, as scikit-learn's trees read it (:func:`core.engine.arrays.float32_values`).
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

from core.engine.arrays import float32_values

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
    :mod:`core.engine.criteria`), as scikit-learn's trees and forests do; infinity is refused.
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
        Rounded to float32 (:func:`core.engine.arrays.float32_values`).
    y : ndarray of shape (n_samples,)
        As given for a classifier (see :func:`encode_classes`), float64 for a regressor.
    """
    plain = _plain_training_arrays(X, y)
    if plain is not None:
        # What validate_data records, without its general machinery (a third of a small
        # tree's fit): the columns have no names; the count is the shape's.
        X_checked, y_checked = plain
        estimator.n_features_in_ = X_checked.shape[1]
        if hasattr(estimator, "feature_names_in_"):
            del estimator.feature_names_in_
    else:
        X_float32, y_checked = validate_data(
            estimator,
            X,
            y,
            dtype=np.float32,  # as scikit-learn's trees check it: too large for float32 fails
            y_numeric=not classification,
            ensure_all_finite="allow-nan",
        )
        X_checked = float32_values(X_float32)
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


def _plain_training_arrays(X: Any, y: Any) -> tuple[Float, NDArray[Any]] | None:
    """``(X, y)``, ``X`` rounded to float32 and ``y`` as given, when they are the plainest
    valid training data.

    That is: NumPy arrays; ``X`` two-dimensional, numeric, with at least one row and one
    column, no infinity even once rounded to float32 (NaN is a missing value); ``y``
    one-dimensional, integer, boolean or finite float, one entry per row. Anything else
    returns None and goes through scikit-learn's own checks, which give the messages for bad
    data.
    """
    X_float = _plain_matrix(X)
    if X_float is None or type(y) is not np.ndarray:
        return None
    if y.ndim != 1 or y.shape[0] != X_float.shape[0] or y.dtype.kind not in "biuf":
        return None
    if y.dtype.kind == "f" and not np.isfinite(y).all():
        return None
    return X_float, y


def _plain_matrix(X: Any) -> Float | None:
    """``X`` rounded to float32 (held as float64) when it is a NumPy array, two-dimensional,
    numeric, with at least one row and one column, and no value that is infinite once rounded
    (NaN is a missing value); else None, and scikit-learn's checks give the message."""
    if type(X) is not np.ndarray or X.ndim != 2 or X.shape[0] < 1 or X.shape[1] < 1:
        return None
    if X.dtype.kind not in "biuf":
        return None
    X_float = float32_values(X)
    return None if np.isinf(X_float).any() else X_float


def encode_classes(y: NDArray[Any]) -> tuple[NDArray[Any], NDArray[np.int64]]:
    """Sorted class labels, and the code ``0..n_classes-1`` of every row's label."""
    if y.dtype.kind not in "biuUS":
        # Integer, boolean and string labels in one column are always classes; floats and
        # objects may be continuous or mixed, which scikit-learn's check refuses.
        check_classification_targets(y)
    classes, codes = np.unique(y, return_inverse=True)
    return classes, codes.astype(np.int64).ravel()


def predict_data(estimator: Estimator, X: ArrayLike, fitted: str) -> Float:
    """Check the data to predict on; the estimator must be fitted (have attribute ``fitted``).

    ``X`` comes back rounded to float32 and held as float64, as :func:`fit_data` gives it.
    """
    check_is_fitted(estimator, fitted)
    plain = _plain_rows(estimator, X)
    if plain is not None:
        # What validate_data returns, without its general machinery, which a page's run would
        # pay a dozen times (scores, the boundary's grid, the sample's path).
        return plain
    checked = validate_data(
        estimator, X, dtype=np.float32, reset=False, ensure_all_finite="allow-nan"
    )
    return float32_values(checked)


def _plain_rows(estimator: Estimator, X: Any) -> Float | None:
    """``X`` rounded to float32, when it is the plainest valid data to predict on; else None.

    That is: a NumPy array, two-dimensional, numeric, with at least one row and as many
    columns as the estimator was fitted on, no infinity (NaN is a missing value), for an
    estimator fitted without column names. Anything else goes through scikit-learn's checks,
    which give the messages (and the warning about names) for it.
    """
    if type(X) is not np.ndarray or X.ndim != 2:
        return None
    if X.shape[1] != getattr(estimator, "n_features_in_", None):
        return None
    if hasattr(estimator, "feature_names_in_"):
        return None
    return _plain_matrix(X)


def check_fitted(estimator: Estimator, fitted: str) -> None:
    """Raise scikit-learn's ``NotFittedError`` unless the estimator has attribute ``fitted``."""
    check_is_fitted(estimator, fitted)
