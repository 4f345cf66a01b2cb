"""Shared setup for the engine's tests: which implementation runs, and the datasets.

The suite is written against scikit-learn's API, so it can check itself: run it with
``ARBORETUM_IMPL=sklearn`` and every test that is about the shared contract must pass on
scikit-learn's own estimators. The default, ``ARBORETUM_IMPL=core``, tests our engine.
Tests of what only Arboretum has (staged scores, per-tree predictions, our tie rule) skip
under scikit-learn with ``needs_core``; they never skip under core.
"""

from __future__ import annotations

import os
from functools import cache

import numpy as np
import pytest
from sklearn import datasets as sk_datasets

from core.engine.structure import TREE_ARRAYS

IMPL = os.environ.get("ARBORETUM_IMPL", "core")


if IMPL == "core":
    from core import (
        DecisionTreeClassifier,
        DecisionTreeRegressor,
        RandomForestClassifier,
        RandomForestRegressor,
    )
elif IMPL == "sklearn":
    from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor
    from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
else:
    raise pytest.UsageError(f"ARBORETUM_IMPL must be 'core' or 'sklearn', got {IMPL!r}")

__all__ = [
    "CLASSIFIER_DATASETS",
    "IMPL",
    "TREE_ARRAYS",
    "DecisionTreeClassifier",
    "DecisionTreeRegressor",
    "RandomForestClassifier",
    "RandomForestRegressor",
    "float32_roundtrip",
    "load_dataset",
    "make_sine",
    "needs_core",
    "train_test",
]

needs_core = pytest.mark.skipif(
    IMPL == "sklearn",
    reason="Arboretum extra (not part of scikit-learn's API): only testable on core",
)


CLASSIFIER_DATASETS = ("iris", "wine", "breast_cancer")


def float32_roundtrip(X: np.ndarray) -> np.ndarray:
    """Cast to float32 and back, as scikit-learn's trees see X.

    scikit-learn splits on float32 copies of X; with values that are exactly float32, our
    float64 engine and scikit-learn search the same candidate thresholds.
    """
    return np.asarray(X, dtype=np.float32).astype(np.float64)


def make_sine(n_samples: int = 200, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The sine regression set: x ~ U[0, 10], y = 0.5 x^2 + 10 sin(2.5 x) + N(0, 2)."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(0.0, 10.0, size=n_samples)
    y = 0.5 * x**2 + 10.0 * np.sin(2.5 * x) + rng.normal(0.0, 2.0, size=n_samples)
    return x[:, None], y


@cache
def _load(name: str) -> tuple[np.ndarray, np.ndarray]:
    if name == "sine":
        X, y = make_sine()
    else:
        loader = getattr(sk_datasets, f"load_{name}")
        X, y = loader(return_X_y=True)
    X = float32_roundtrip(X)
    X.flags.writeable = False
    y = np.asarray(y)
    y.flags.writeable = False
    return X, y


def load_dataset(name: str) -> tuple[np.ndarray, np.ndarray]:
    """iris, wine, breast_cancer or sine, with X float32-exact (read-only, cached)."""
    return _load(name)


@cache
def _split(name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    X, y = _load(name)
    rng = np.random.default_rng(12345)
    order = rng.permutation(len(y))
    n_test = len(y) // 4
    test, train = order[:n_test], order[n_test:]
    return X[train], X[test], y[train], y[test]


def train_test(name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A fixed 75/25 split of a dataset: X_train, X_test, y_train, y_test."""
    return _split(name)
