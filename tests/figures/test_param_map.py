"""The parameter map: every cell against scikit-learn (held out and cross-validated), then the
figure and what a click on it selects."""

from __future__ import annotations

import functools
from functools import cache
from typing import Any

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.model_selection import PredefinedSplit, cross_val_score
from sklearn.tree import DecisionTreeClassifier as SkClassifier
from sklearn.tree import DecisionTreeRegressor as SkRegressor

from core.data.catalogue import load_dataset
from core.data.datasets import train_test_split
from core.engine.tree import DecisionTreeClassifier, DecisionTreeRegressor
from core.figures.param_map import (
    DEPTHS,
    LEAF_SIZES,
    ParamMap,
    compute_param_map,
    fold_labels,
    param_grid,
)
from core.figures.param_map_plot import CURRENT_COLOR, clicked_setting, param_map_figure
from tests.figures.test_fast_figures import assert_valid

#: The page's default plotted pair of each dataset (the manifest's suggested pair).
COLUMNS = {
    "iris": [2, 3],
    "iris-all": [0, 1, 2, 3],
    "sine": [0],
    "breast_cancer": slice(None),
    "wine": [6, 12],
}


@cache
def rows(name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The page's split (seed 0, a quarter held out), X float32-exact.

    scikit-learn compares float32 copies of X with its thresholds; values that float32 cannot
    hold may fall on the other side of a threshold there than here.
    """
    split = train_test_split(load_dataset(name.removesuffix("-all")), random_state=0)
    columns = COLUMNS[name]

    def exact(X: np.ndarray) -> np.ndarray:
        return X[:, columns].astype(np.float32).astype(np.float64)

    return exact(split.X_train), exact(split.X_test), split.y_train, split.y_test


def ours(name: str, **params: Any) -> Any:
    if name == "sine":
        return functools.partial(DecisionTreeRegressor, criterion="squared_error", **params)
    return functools.partial(DecisionTreeClassifier, criterion="gini", **params)


def theirs(name: str, **params: Any) -> Any:
    if name == "sine":
        return SkRegressor(criterion="squared_error", **params)
    return SkClassifier(criterion="gini", **params)


@cache
def held_out(name: str) -> ParamMap:
    X, Xt, y, yt = rows(name)
    return compute_param_map(ours(name, random_state=0), X, y, Xt, yt, current=(3, 1))


@cache
def cross_validated(name: str) -> ParamMap:
    X, _, y, _ = rows(name)
    return compute_param_map(ours(name, random_state=0), X, y, n_folds=5, seed=0)


@pytest.mark.parametrize("name", ["iris", "sine"])
def test_each_cell_is_scikit_learns_test_score(name: str) -> None:
    X, Xt, y, yt = rows(name)
    pmap = held_out(name)
    assert pmap.scores.shape == (len(DEPTHS), len(LEAF_SIZES)) == (13, 10)
    assert pmap.metric == ("R²" if name == "sine" else "accuracy")
    expected = np.array(
        [
            [
                theirs(name, max_depth=d, min_samples_leaf=m, random_state=0)
                .fit(X, y)
                .score(Xt, yt)
                for m in pmap.leaf_sizes
            ]
            for d in pmap.depths
        ]
    )
    assert_allclose(pmap.scores, expected, rtol=1e-12, atol=0)
    assert len(np.unique(pmap.scores)) >= 3  # a map, not a constant


@pytest.mark.parametrize("name", ["iris", "sine"])
def test_on_the_rows_as_the_page_holds_them_each_cell_is_scikit_learns(name: str) -> None:
    # The page's rows are float64, not float32-exact: a test flower of petal width 1.7 lies
    # on the threshold printed 1.7. Both engines read it as float32 and send it the same way.
    split = train_test_split(load_dataset(name), random_state=0)
    X, Xt = split.X_train[:, COLUMNS[name]], split.X_test[:, COLUMNS[name]]
    y, yt = split.y_train, split.y_test
    pmap = compute_param_map(ours(name, random_state=0), X, y, Xt, yt, current=(3, 1))
    expected = [
        [
            theirs(name, max_depth=d, min_samples_leaf=m, random_state=0).fit(X, y).score(Xt, yt)
            for m in pmap.leaf_sizes
        ]
        for d in pmap.depths
    ]
    assert_allclose(pmap.scores, expected, rtol=1e-12, atol=0)


@pytest.mark.parametrize("name", ["iris", "sine"])
def test_each_cell_is_scikit_learns_cross_val_score_on_the_same_folds(name: str) -> None:
    X, _, y, _ = rows(name)
    pmap = cross_validated(name)
    assert pmap.n_folds == 5 and pmap.folds is not None
    folds = PredefinedSplit(pmap.folds)
    expected = np.array(
        [
            [
                cross_val_score(
                    theirs(name, max_depth=d, min_samples_leaf=m, random_state=0), X, y, cv=folds
                ).mean()
                for m in pmap.leaf_sizes
            ]
            for d in pmap.depths
        ]
    )
    assert_allclose(pmap.scores, expected, rtol=1e-12, atol=0)
    # Cross-validated scores are not the held-out ones.
    assert not np.allclose(pmap.scores, held_out(name).scores)


@pytest.mark.parametrize("name", ["iris-all", "breast_cancer"])
def test_with_tied_splits_each_cell_is_a_scikit_learn_score(name: str) -> None:
    # With several features two splits can tie; scikit-learn takes the first in its random
    # feature order, so its score for a cell depends on its random_state, and ours (lowest
    # feature first) is the score of one of those orders.
    X, Xt, y, yt = rows(name)
    pmap = held_out(name)
    differs = 0
    for (i, j), score in np.ndenumerate(pmap.scores):
        d, m = pmap.setting((i, j))
        for seed in range(30):
            theirs_ = theirs(name, max_depth=d, min_samples_leaf=m, random_state=seed)
            if theirs_.fit(X, y).score(Xt, yt) == pytest.approx(score, rel=1e-12, abs=0):
                differs += seed > 0
                break
        else:
            pytest.fail(f"max_depth {d}, min_samples_leaf {m}: {score} is no scikit-learn score")
    assert differs > 0  # ties do arise here: the test would miss a wrong tie rule otherwise


@pytest.mark.parametrize(
    "params",
    [
        {"ccp_alpha": 0.01},
        {"max_features": "sqrt", "random_state": 3},
        {"min_samples_split": 12, "min_impurity_decrease": 0.005, "criterion": "entropy"},
    ],
)
def test_cutting_the_full_tree_scores_as_refitting_each_cell(params: dict[str, Any]) -> None:
    X, Xt, y, yt = rows("breast_cancer")
    make = functools.partial(DecisionTreeClassifier, **{"criterion": "gini", **params})
    cut = compute_param_map(make, X, y, Xt, yt)
    refit = compute_param_map(make, X, y, Xt, yt, refit=True)
    assert_array_equal(cut.scores, refit.scores)
    cv_cut = compute_param_map(make, X, y, n_folds=3, leaf_sizes=(1, 8), depths=(2, 5, None))
    cv_refit = compute_param_map(
        make, X, y, n_folds=3, leaf_sizes=(1, 8), depths=(2, 5, None), refit=True
    )
    assert_array_equal(cv_cut.scores, cv_refit.scores)


def test_a_regression_map_is_scored_by_r2() -> None:
    pmap = held_out("sine")
    X, Xt, y, yt = rows("sine")
    # Depth 1 is one step: R² well below the best; the best is a deeper tree.
    best = pmap.best_cells[0]
    assert pmap.depths[best[0]] not in (1, 2)
    assert pmap.scores[0].max() < pmap.scores.max() - 0.2
    # R² by its formula, for one cell.
    model = DecisionTreeRegressor(criterion="squared_error", max_depth=4, min_samples_leaf=5)
    predicted = model.fit(X, y).predict(Xt)
    r2 = 1 - np.sum((yt - predicted) ** 2) / np.sum((yt - yt.mean()) ** 2)
    assert pmap.scores[DEPTHS.index(4), LEAF_SIZES.index(5)] == pytest.approx(r2, rel=1e-12)


def test_folds_are_stratified_even_and_seeded() -> None:
    y = np.array([0] * 37 + [1] * 50 + [2] * 25)
    folds = fold_labels(y, 5, seed=4)
    assert sorted(np.bincount(folds)) == [22, 22, 22, 23, 23]
    for label in (0, 1, 2):
        counts = np.bincount(folds[y == label], minlength=5)
        assert counts.max() - counts.min() <= 1, (label, counts)
    assert_array_equal(folds, fold_labels(y, 5, seed=4))
    assert not np.array_equal(folds, fold_labels(y, 5, seed=5))
    # Unstratified: a shuffle dealt out in turn.
    plain = fold_labels(y, 5, seed=4, stratify=False)
    assert_array_equal(plain[np.random.default_rng(4).permutation(112)], np.arange(112) % 5)
    with pytest.raises(ValueError, match="n_folds must be from 2 to the number of rows"):
        fold_labels(y[:3], 5)
    with pytest.raises(TypeError, match="n_folds must be an int"):
        fold_labels(y, 2.5)  # type: ignore[arg-type]


def test_the_grid_holds_the_current_setting_off_the_usual_values() -> None:
    assert param_grid() == (DEPTHS, LEAF_SIZES)
    assert param_grid((3, 5)) == (DEPTHS, LEAF_SIZES)
    depths, leaf_sizes = param_grid((15, 4))
    assert depths == (*range(1, 13), 15, None)
    assert leaf_sizes == (1, 2, 3, 4, 5, 8, 12, 18, 25, 35, 50)
    X, Xt, y, yt = rows("iris")
    pmap = compute_param_map(
        ours("iris"), X, y, Xt, yt, depths=depths, leaf_sizes=leaf_sizes, current=(15, 4)
    )
    assert pmap.current_cell == (12, 3)
    assert pmap.setting((12, 3)) == (15, 4)
    assert pmap.scores.shape == (14, 11)


def test_bad_grids_and_missing_rows_are_refused() -> None:
    X, Xt, y, yt = rows("iris")
    make = ours("iris")
    with pytest.raises(ValueError, match="leaf_sizes must be whole numbers >= 1"):
        compute_param_map(make, X, y, Xt, yt, leaf_sizes=(0, 1))
    with pytest.raises(ValueError, match="depths must be whole numbers >= 1 or None"):
        compute_param_map(make, X, y, Xt, yt, depths=(0, None))
    with pytest.raises(ValueError, match="depths must not repeat a value"):
        compute_param_map(make, X, y, Xt, yt, depths=(2, 2))
    with pytest.raises(ValueError, match="at least one value"):
        compute_param_map(make, X, y, Xt, yt, leaf_sizes=())
    with pytest.raises(ValueError, match="give X_test and y_test, or n_folds"):
        compute_param_map(make, X, y)
    with pytest.raises(ValueError, match="must be given together"):
        compute_param_map(make, X, y, Xt)


def test_figure_shows_every_score_and_outlines_the_current_cell() -> None:
    pmap = held_out("iris")
    figure = param_map_figure(pmap)
    assert_valid(figure)
    heat, points = figure.data
    assert heat.type == "heatmap" and points.type == "scatter"
    assert_array_equal(np.asarray(heat.z), pmap.scores)
    # Every cell's score is written in it, at 11 px or more; the best ones in bold.
    text = np.asarray(heat.text)
    assert text.shape == pmap.scores.shape
    assert heat.texttemplate == "%{text}"
    assert heat.textfont.size >= 11
    best = pmap.best_cells
    for i, j in np.ndindex(text.shape):
        shown = f"{pmap.scores[i, j]:.3f}"
        assert text[i, j] == (f"<b>{shown}</b>" if (i, j) in best else shown)
    # The colours span the 0.2 below the best: the best cells are the darkest.
    assert heat.zmax == pmap.scores.max()
    assert heat.zmin == pytest.approx(max(pmap.scores.min(), pmap.scores.max() - 0.2))
    # Axes: leaf sizes across, depths down (depth 1 on top), both titled.
    assert list(figure.layout.xaxis.ticktext) == [str(m) for m in LEAF_SIZES]
    assert list(figure.layout.yaxis.ticktext) == [*map(str, range(1, 13)), "none"]
    assert figure.layout.yaxis.range == (12.5, -0.5)
    assert figure.layout.xaxis.title.text == "min_samples_leaf"
    assert figure.layout.yaxis.title.text == "max_depth"
    assert figure.layout.title.text.startswith("Test accuracy")
    # max_depth 3, min_samples_leaf 1 is row 2, column 0: outlined.
    (outline,) = figure.layout.shapes
    assert (outline.x0, outline.x1, outline.y0, outline.y1) == (-0.5, 0.5, 1.5, 2.5)
    assert outline.line.color == CURRENT_COLOR
    # One clickable point per cell, at its centre, its hover naming the setting and score.
    assert len(points.x) == pmap.scores.size
    k = 2 * len(LEAF_SIZES) + 0
    assert (points.y[k], points.x[k]) == (2, 0)
    assert points.text[k].startswith("max_depth 3, min_samples_leaf 1<br>test accuracy ")


def test_figure_of_a_cross_validated_map_without_a_current_setting() -> None:
    pmap = cross_validated("sine")
    figure = param_map_figure(pmap, title="")
    assert_valid(figure)
    assert not figure.layout.shapes
    assert figure.data[0].showscale is False, "every cell writes its score: no colour bar"
    assert figure.data[1].text[0].split("<br>")[1].startswith("5-fold CV R² ")
    assert param_map_figure(pmap).layout.title.text.startswith("5-fold CV R²")


def test_a_click_selects_its_cells_setting() -> None:
    pmap = held_out("iris")
    none_row = len(DEPTHS) - 1
    click = {"curve_number": 1, "point_index": 0, "x": 4, "y": none_row}
    assert clicked_setting([click], pmap) == (None, 8)
    assert clicked_setting([{"curve_number": 1, "x": 0, "y": 0}], pmap) == (1, 1)
    # The heat map itself, a point off the grid, or nothing: no setting.
    assert clicked_setting([{"curve_number": 0, "x": 4, "y": 2}], pmap) is None
    assert clicked_setting([{"curve_number": 1, "x": 40, "y": 2}], pmap) is None
    assert clicked_setting([], pmap) is None


def test_r2_of_a_constant_target_is_scikit_learns() -> None:
    # Every target equal: R²'s denominator is 0. scikit-learn calls a perfect fit 1 and any
    # other 0; every tree here predicts the constant, so every cell is 1.
    X, Xt, _, _ = rows("sine")
    y, yt = np.full(len(X), 2.5), np.full(len(Xt), 2.5)
    pmap = compute_param_map(ours("sine"), X, y, Xt, yt, depths=(1, None), leaf_sizes=(1, 5))
    assert_array_equal(pmap.scores, 1.0)
    assert SkRegressor().fit(X, y).score(Xt, yt) == 1.0
    shifted = compute_param_map(ours("sine"), X, y, Xt, yt + 1.0, depths=(1,), leaf_sizes=(1,))
    assert shifted.scores[0, 0] == SkRegressor().fit(X, y).score(Xt, yt + 1.0) == 0.0
