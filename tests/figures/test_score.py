"""The app's one scorer gives what the model's own ``score`` (scikit-learn's metrics) gives."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import load_iris, make_regression

from core.engine import DecisionTreeClassifier, DecisionTreeRegressor, RandomForestClassifier
from core.figures import score


@pytest.mark.parametrize("depth", [1, 2, None])
def test_accuracy_is_the_models_own_score(depth: int | None) -> None:
    X, y = load_iris(return_X_y=True)
    labels = np.array(["setosa", "versicolor", "virginica"])[y]  # string labels, as uploads
    for model in (
        DecisionTreeClassifier(max_depth=depth, random_state=0),
        RandomForestClassifier(n_estimators=7, max_depth=depth, random_state=0),
    ):
        model.fit(X[::2], labels[::2])
        assert score(model, X[1::2], labels[1::2]) == model.score(X[1::2], labels[1::2])


def test_r2_is_the_models_own_score() -> None:
    X, y = make_regression(n_samples=120, n_features=3, noise=5.0, random_state=1)
    model = DecisionTreeRegressor(max_depth=3, random_state=0).fit(X[:80], y[:80])
    assert score(model, X[80:], y[80:]) == pytest.approx(model.score(X[80:], y[80:]), abs=1e-12)


def test_r2_of_equal_targets_is_one_when_all_are_hit_else_zero() -> None:
    X = np.arange(10.0).reshape(-1, 1)
    hit = DecisionTreeRegressor().fit(X, np.full(10, 3.0))
    assert score(hit, X, np.full(10, 3.0)) == hit.score(X, np.full(10, 3.0)) == 1.0
    assert score(hit, X, np.full(10, 4.0)) == hit.score(X, np.full(10, 4.0)) == 0.0
