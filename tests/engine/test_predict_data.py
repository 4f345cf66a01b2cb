"""core.engine.compat.predict_data: plain arrays skip scikit-learn's general checks, and get
exactly what those checks give (the rows read as float32, as scikit-learn's trees read them);
everything else still meets them."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from core import DecisionTreeClassifier, RandomForestRegressor
from core.engine import compat
from core.engine.compat import predict_data


def _fitted(X: np.ndarray | pd.DataFrame) -> DecisionTreeClassifier:
    y = (np.asarray(X)[:, 0] > 0.5).astype(int)
    return DecisionTreeClassifier(random_state=0).fit(X, y)


def _general(estimator: object, X: object) -> np.ndarray:
    """What scikit-learn's checks give, the plain path turned off."""
    original = compat._plain_rows
    compat._plain_rows = lambda estimator, X: None  # type: ignore[assignment]
    try:
        return predict_data(estimator, X, "tree_")  # type: ignore[arg-type]
    finally:
        compat._plain_rows = original


ROWS = np.random.default_rng(0).random((40, 3))


@pytest.mark.parametrize(
    "X",
    [
        ROWS,
        ROWS.astype(np.float32),
        (ROWS * 10).astype(np.int64),
        ROWS > 0.5,
        np.where(ROWS > 0.9, np.nan, ROWS),
        np.asfortranarray(ROWS),
        ROWS[:, ::-1].astype(">f8"),
    ],
    ids=["float64", "float32", "int", "bool", "nan", "fortran", "big-endian"],
)
def test_plain_rows_are_what_scikit_learns_checks_give(X: np.ndarray) -> None:
    tree = _fitted(ROWS)
    assert compat._plain_rows(tree, X) is not None  # the plain path is the one taken
    fast, general = predict_data(tree, X, "tree_"), _general(tree, X)
    assert fast.dtype == general.dtype == np.float64
    np.testing.assert_array_equal(fast, general)
    np.testing.assert_array_equal(fast, np.asarray(X, dtype=np.float32))
    np.testing.assert_array_equal(tree.predict(X), tree.predict(pd.DataFrame(X).to_numpy()))


@pytest.mark.parametrize(
    ("X", "message"),
    [
        (np.array([[0.1, np.inf, 0.2]]), "infinity"),
        (ROWS[:, :2], "features"),
        (np.empty((0, 3)), "0 sample"),
        (ROWS.tolist(), None),  # a list: fine, through the general checks
    ],
)
def test_anything_else_meets_scikit_learns_checks(X: object, message: str | None) -> None:
    tree = _fitted(ROWS)
    assert compat._plain_rows(tree, X) is None
    if message is None:
        np.testing.assert_array_equal(predict_data(tree, X, "tree_"), ROWS.astype(np.float32))
    else:
        with pytest.raises(ValueError, match=message):
            tree.predict(X)


def test_a_model_fitted_on_named_columns_still_warns_about_unnamed_rows() -> None:
    frame = pd.DataFrame(ROWS, columns=["a", "b", "c"])
    tree = _fitted(frame)
    assert compat._plain_rows(tree, ROWS) is None
    with pytest.warns(UserWarning, match="feature names"):
        tree.predict(ROWS)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tree.predict(frame)


def test_a_forest_predicts_plain_rows_as_before() -> None:
    y = ROWS @ np.array([1.0, -2.0, 0.5])
    forest = RandomForestRegressor(n_estimators=5, random_state=0).fit(ROWS, y)
    np.testing.assert_array_equal(forest.predict(ROWS), forest.predict(ROWS.tolist()))
