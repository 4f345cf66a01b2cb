"""The progress hook: called once per depth with a fraction that only grows, ending at 1."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_array_equal

from core import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)

ESTIMATORS = [
    DecisionTreeClassifier(),
    DecisionTreeRegressor(max_depth=4),
    RandomForestClassifier(10, random_state=0),
    RandomForestRegressor(5, random_state=0),
]


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=lambda e: type(e).__name__)
def test_progress_grows_to_one_and_changes_nothing(estimator: object) -> None:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 4))
    y = (X[:, 0] + X[:, 1] > 0).astype(int) + (X[:, 2] > 1)
    calls: list[float] = []
    with_hook = type(estimator)(**estimator.get_params()).fit(X, y, progress=calls.append)
    without = type(estimator)(**estimator.get_params()).fit(X, y)
    assert len(calls) >= 2
    assert all(0.0 <= c <= 1.0 for c in calls)
    assert calls == sorted(calls)
    assert calls[-1] == 1.0
    assert_array_equal(with_hook.predict(X), without.predict(X))


def test_one_call_per_depth() -> None:
    X = np.arange(16, dtype=float)[:, None]
    calls: list[float] = []
    tree = DecisionTreeRegressor().fit(X, X[:, 0], progress=calls.append)
    # Depths 1..4 each report once, then the final 1.0.
    assert len(calls) == tree.get_depth() + 1
