"""Datasets: the table types, the sine generator and the train/test split.

Every table, built-in or uploaded, becomes a :class:`Dataset` through
:func:`core.data.prepare.prepare_table`, so a teacher's file and a student's upload meet the
same friendly checks. The catalogue that lists and loads the built-in tables
(``datasets/manifest.json``) lives in :mod:`core.data.catalogue`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal, get_args

import numpy as np
import pandas as pd

__all__ = [
    "SINE_NOISE",
    "Dataset",
    "DatasetInfo",
    "Split",
    "Task",
    "make_sine",
    "train_test_split",
]

Task = Literal["classification", "regression"]

SINE_NOISE = 2.5  # the classic picture adds 0.5 * Normal(0, 5), a standard deviation of 2.5


def _read_only(array: np.ndarray) -> np.ndarray:
    # Freeze a copy, so the flags of an array the caller still owns never change.
    if array.flags.writeable:
        array = np.array(array, order="C")
        array.setflags(write=False)
    return array


def _check_int(value: Any, name: str, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")


def _check_number(value: Any, name: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float | np.number):
        raise TypeError(f"{name} must be a number, got {value!r}")


# eq=False: field-wise == would compare arrays, which have no single truth value; identity
# equality also keeps datasets hashable, so they can key caches.
@dataclass(frozen=True, eq=False)
class Dataset:
    """A table ready for a tree: numeric features, an encoded target and words for students.

    Attributes
    ----------
    name, title : str
        Catalogue key (``"iris"``) and display title (``"Iris flowers"``).
    task : {"classification", "regression"}
    X : ndarray of shape (n_samples, n_features), float64, read-only
        NaN marks a missing value (the trees route it at every split); infinities are refused.
    y : ndarray of shape (n_samples,), read-only, never missing
        int64 codes ``0..K-1`` indexing ``class_names`` (classification), else float64.
    feature_names : tuple of str, length n_features
    target_name : str
    class_names : tuple of str, length K, empty for regression
    description, provenance : str
        What the rows are and what is predicted; where the data comes from and its licence.
    categories : tuple, empty or length n_features
        Where a text column became 0/1 columns (one-hot): entry ``j`` is ``(column, level)``
        when feature ``j`` is 1 exactly where the table's ``column`` holds ``level`` (the rule
        ``x[j] <= 0.5`` then reads "column is not level"), and None for a numeric feature.
        Empty when every feature is numeric.
    """

    name: str
    title: str
    task: Task
    X: np.ndarray
    y: np.ndarray
    feature_names: tuple[str, ...]
    target_name: str
    class_names: tuple[str, ...]
    description: str
    provenance: str
    categories: tuple[tuple[str, str] | None, ...] = ()

    def __post_init__(self) -> None:
        if self.task not in get_args(Task):
            raise ValueError(f"task must be 'classification' or 'regression', got {self.task!r}")
        classify = self.task == "classification"
        X = _read_only(np.asarray(self.X, dtype=np.float64))
        y = _read_only(np.asarray(self.y).astype(np.int64 if classify else np.float64, copy=False))
        names, classes = tuple(self.feature_names), tuple(self.class_names)
        if X.ndim != 2 or y.shape != (X.shape[0],) or len(names) != X.shape[1]:
            raise ValueError(
                f"X must be (n_samples, n_features) with one name per feature and y "
                f"(n_samples,), got X {X.shape}, y {y.shape} and {len(names)} feature names"
            )
        if classify != bool(classes) or (
            y.size and classify and not 0 <= y.min() <= y.max() < len(classes)
        ):
            raise ValueError(
                f"class_names must name every class code of y for classification and be empty "
                f"for regression, got {classes} for codes {np.unique(y)[:10]}"
            )
        if np.isinf(X).any():
            raise ValueError("X must not hold infinite values; NaN marks a missing value")
        if not classify and not np.isfinite(y).all():
            raise ValueError("y must hold finite numbers: drop the rows whose target is missing")
        categories = tuple(self.categories)
        if categories and len(categories) != X.shape[1]:
            raise ValueError(
                f"categories must be empty or give one entry per feature, got "
                f"{len(categories)} entries for {X.shape[1]} features"
            )
        object.__setattr__(self, "categories", categories)
        object.__setattr__(self, "X", X)
        object.__setattr__(self, "y", y)
        object.__setattr__(self, "feature_names", names)
        object.__setattr__(self, "class_names", classes)

    @property
    def n_samples(self) -> int:
        return int(self.X.shape[0])

    @property
    def n_features(self) -> int:
        return int(self.X.shape[1])

    @property
    def n_classes(self) -> int:
        """Number of classes K; 0 for regression."""
        return len(self.class_names)

    def frame(self) -> pd.DataFrame:
        """Return a new table of shape (n_samples, n_features + 1): the features, then the target.

        For classification the target column is categorical, categories in class-code order.
        """
        table = pd.DataFrame(self.X.copy(), columns=list(self.feature_names))
        if self.task == "classification":
            categories = pd.Index(list(self.class_names))
            table[self.target_name] = pd.Categorical.from_codes(self.y.copy(), categories)
        else:
            table[self.target_name] = self.y.copy()
        return table


@dataclass(frozen=True)
class DatasetInfo:
    """Cheap summary of one catalogue entry for the home page cards, read from the manifest."""

    name: str
    title: str
    task: Task
    n_samples: int
    n_features: int
    n_classes: int
    description: str
    pair: tuple[int, int] = (0, 1)  # the two features the boundary plot starts with
    noise: float | None = None  # a generated set's default noise; None for a table


@dataclass(frozen=True, eq=False)
class Split:
    """Train and test rows of a dataset; all arrays read-only.

    Shapes: ``X_train`` (n_train, n_features), ``X_test`` (n_test, n_features), ``y_train``
    (n_train,), ``y_test`` (n_test,). ``train_index`` (n_train,) and ``test_index`` (n_test,)
    are sorted row ids into the dataset.
    """

    X_train: np.ndarray
    X_test: np.ndarray
    y_train: np.ndarray
    y_test: np.ndarray
    train_index: np.ndarray
    test_index: np.ndarray


def sine_curve(x: np.ndarray) -> np.ndarray:
    """The sine set's noise-free curve, ``y = 0.5 x^2 + 10 sin(2.5 x)``, at each ``x``."""
    return 0.5 * x**2 + 10.0 * np.sin(2.5 * x)


def make_sine(n_samples: int = 200, *, noise: float = SINE_NOISE, random_state: int = 0) -> Dataset:
    """Generate the noisy sine regression set.

    ``x ~ Uniform[0, 10]``, sorted, and ``y = 0.5 x^2 + 10 sin(2.5 x) + noise * z`` with
    ``z ~ Normal(0, 1)``. A seed fixes ``x`` and ``z`` whatever the noise, so a noise slider
    only changes how far the points stray from the curve.

    Parameters
    ----------
    n_samples : int, default 200
        Number of points, at least 2.
    noise : float, default 2.5
        Standard deviation of the noise, finite and >= 0; 0 gives the bare curve.
    random_state : int, default 0
        Seed for ``np.random.default_rng``.

    Returns
    -------
    Dataset
        Regression set, X of shape (n_samples, 1) named ``"x"``, target ``"y"``.
    """
    _check_int(n_samples, "n_samples", 2)
    _check_number(noise, "noise")
    if not (math.isfinite(noise) and noise >= 0):
        raise ValueError(f"noise must be finite and >= 0, got {noise}")
    _check_int(random_state, "random_state", 0)
    rng = np.random.default_rng(random_state)
    x = np.sort(rng.uniform(0.0, 10.0, size=n_samples))
    y = sine_curve(x) + float(noise) * rng.standard_normal(n_samples)
    return Dataset(
        name="sine",
        title="Noisy sine wave",
        task="regression",
        X=x.reshape(-1, 1),
        y=y,
        feature_names=("x",),
        target_name="y",
        class_names=(),
        description=f"{n_samples} points around y = 0.5 x² + 10 sin(2.5 x), noise {noise:g}.",
        provenance="Synthetic, generated by Arboretum's make_sine.",
    )


def train_test_split(dataset: Dataset, *, test_size: float = 0.25, random_state: int = 0) -> Split:
    """Split the rows at random into a training and a test set, stratified for classification.

    The test set has ``ceil(test_size * n_samples)`` rows, clipped to ``[1, n_samples - 1]``.
    For classification every class gets its share of them (largest remainder first) and keeps
    at least one training row whenever the totals allow.

    Parameters
    ----------
    dataset : Dataset
    test_size : float, default 0.25
        Fraction of rows held out, strictly between 0 and 1.
    random_state : int, default 0
        Seed for ``np.random.default_rng``.

    Returns
    -------
    Split
    """
    _check_number(test_size, "test_size")
    if not 0.0 < test_size < 1.0:
        raise ValueError(f"test_size must be strictly between 0 and 1, got {test_size}")
    _check_int(random_state, "random_state", 0)
    rng = np.random.default_rng(random_state)
    n = dataset.n_samples
    if n < 2:
        raise ValueError(f"dataset must have at least 2 rows to split, got {n}")
    n_test = min(max(math.ceil(test_size * n), 1), n - 1)
    if dataset.task == "regression":
        test = rng.permutation(n)[:n_test]
    else:
        counts = np.bincount(dataset.y, minlength=dataset.n_classes)
        ideal = counts * (n_test / n)
        share = np.minimum(np.floor(ideal).astype(np.int64), np.maximum(counts - 1, 0))
        # Hand out the remaining test rows one at a time to the class furthest below its ideal
        # share; the second pass (emptying a class's training rows) only runs if n_test forces it.
        for cap in (np.maximum(counts - 1, 0), counts):
            while share.sum() < n_test and np.any(share < cap):
                share[np.argmax(np.where(share < cap, ideal - share, -np.inf))] += 1
        test = np.concatenate(
            [rng.permutation(np.flatnonzero(dataset.y == k))[:s] for k, s in enumerate(share)]
        )
    is_test = np.zeros(n, dtype=bool)
    is_test[test] = True
    train, test = np.flatnonzero(~is_test), np.flatnonzero(is_test)
    parts = (dataset.X[train], dataset.X[test], dataset.y[train], dataset.y[test], train, test)
    return Split(*(_read_only(part) for part in parts))
