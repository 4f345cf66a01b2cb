"""How the figure builders tell a forest from a tree, and a classifier from a regressor."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from core.engine import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from core.figures._model import classes_of, is_forest, n_trees, task_of, trees_of

X = np.array([[0.0], [1.0], [2.0], [3.0]])
Y = np.array([0, 0, 1, 1])


@pytest.mark.parametrize(
    ("model", "forest", "task"),
    [
        (DecisionTreeClassifier(), False, "classification"),
        (DecisionTreeRegressor(), False, "regression"),
        (RandomForestClassifier(n_estimators=3, random_state=0), True, "classification"),
        (RandomForestRegressor(n_estimators=3, random_state=0), True, "regression"),
    ],
)
def test_each_fitted_model_is_told_apart(model: object, forest: bool, task: str) -> None:
    fitted = model.fit(X, Y)  # type: ignore[attr-defined]
    assert is_forest(fitted) is forest
    assert task_of(fitted) == task
    assert trees_of(fitted) == (fitted.estimators_ if forest else [fitted])
    assert n_trees(fitted) == (3 if forest else 1)
    if task == "classification":
        np.testing.assert_array_equal(classes_of(fitted), [0, 1])
    else:
        with pytest.raises(TypeError, match="fitted classifier"):
            classes_of(fitted)


def test_a_classifier_needs_all_of_its_members() -> None:
    # classes_ alone is not enough: a classifier also predicts probabilities.
    half = SimpleNamespace(classes_=np.array([0, 1]), predict=lambda X: X)
    assert task_of(half) == "regression"
    with pytest.raises(TypeError, match="SimpleNamespace"):
        classes_of(half)
    whole = SimpleNamespace(classes_=np.array([0, 1]), predict=len, predict_proba=len)
    assert task_of(whole) == "classification"
