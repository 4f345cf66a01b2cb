"""The pruning walk: numbers checked against scikit-learn's pruning, then the figure."""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn import datasets
from sklearn.tree import DecisionTreeClassifier as SkClassifier
from sklearn.tree import DecisionTreeRegressor as SkRegressor

from core.engine.tree import DecisionTreeClassifier, DecisionTreeRegressor
from core.figures.palette import SERIES_COLORS
from core.figures.pruning_walk import PruningWalk, compute_pruning_walk, pruning_walk_figure


@cache
def split(name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A fixed 75/25 split; X float32-exact so both libraries see the same thresholds."""
    if name == "sine":
        rng = np.random.default_rng(0)
        x = rng.uniform(0.0, 10.0, size=200)
        X = x[:, None]
        y = 0.5 * x**2 + 10.0 * np.sin(2.5 * x) + rng.normal(0.0, 2.0, size=200)
    else:
        X, y = getattr(datasets, f"load_{name}")(return_X_y=True)
    X = np.asarray(X, dtype=np.float32).astype(np.float64)
    order = np.random.default_rng(12345).permutation(len(y))
    test, train = order[: len(y) // 4], order[len(y) // 4 :]
    return X[train], X[test], y[train], y[test]


def estimators(name: str) -> tuple[Any, Any]:
    if name == "sine":
        return DecisionTreeRegressor, SkRegressor
    return DecisionTreeClassifier, SkClassifier


@cache
def walk(name: str, max_depth: int | None = None) -> tuple[Any, PruningWalk]:
    X, Xt, y, yt = split(name)
    model = estimators(name)[0](max_depth=max_depth).fit(X, y)
    return model, compute_pruning_walk(model, X, y, Xt, yt, current_alpha=None)


@pytest.mark.parametrize("name", ["wine", "breast_cancer", "sine"])
def test_walk_matches_scikit_learn(name: str) -> None:
    X, _, y, _ = split(name)
    _, w = walk(name)
    sk_class = estimators(name)[1]
    path = sk_class(random_state=0).cost_complexity_pruning_path(X, y)
    assert_allclose(w.ccp_alphas, path.ccp_alphas, rtol=1e-9, atol=1e-15)
    assert_allclose(w.impurities, path.impurities, rtol=1e-9, atol=1e-12)
    # Step k's tree is the one kept for every alpha in [alpha_k, alpha_k+1). scikit-learn is
    # refitted in the middle of that interval: at alpha_k itself its recomputed g(t) can round
    # a hair above alpha_k and keep the branch (wine: 5 leaves instead of 4 at 0.02796).
    upper = np.append(w.ccp_alphas[1:], 2 * w.ccp_alphas[-1])
    for k, alpha in enumerate(w.ccp_alphas):
        if upper[k] == alpha:
            continue  # two cuts at the same alpha: no alpha keeps the tree in between
        # We cut the one fitted tree. Ties between equal splits may send scikit-learn down
        # another feature (see test_oracle.py), which can change test predictions but not the
        # training fit or the sizes.
        sk = sk_class(random_state=0, ccp_alpha=(alpha + upper[k]) / 2).fit(X, y)
        assert w.n_leaves[k] == sk.get_n_leaves(), f"alpha {alpha}"
        assert w.node_count[k] == sk.tree_.node_count, f"alpha {alpha}"
        assert_allclose(w.train_score[k], sk.score(X, y), err_msg=f"alpha {alpha}")


@pytest.mark.parametrize("name", ["wine", "sine"])
def test_walk_equals_refitting_with_each_alpha(name: str) -> None:
    X, Xt, y, yt = split(name)
    _, w = walk(name)
    assert w.test_score is not None
    for k, alpha in enumerate(w.ccp_alphas):
        refit = estimators(name)[0](ccp_alpha=alpha).fit(X, y)
        assert w.n_leaves[k] == refit.get_n_leaves()
        assert w.train_score[k] == refit.score(X, y)
        assert w.test_score[k] == refit.score(Xt, yt)


def test_walk_shrinks_to_the_root() -> None:
    model, w = walk("breast_cancer")
    assert w.n_leaves[0] == model.get_n_leaves()
    assert w.n_leaves[-1] == 1
    assert np.all(np.diff(w.n_leaves) < 0)
    assert np.all(np.diff(w.ccp_alphas) >= 0)
    assert_array_equal(w.node_count, 2 * w.n_leaves - 1)
    assert w.metric == "accuracy"
    assert walk("sine")[1].metric == "R²"
    # The root alone predicts the majority class: its training accuracy is that class's share.
    _, _, y, _ = split("breast_cancer")
    assert_allclose(w.train_score[-1], np.bincount(y).max() / len(y))


def test_current_step_is_the_tree_ccp_alpha_keeps() -> None:
    model, w = walk("wine")
    X, _, y, _ = split("wine")
    middle = float((w.ccp_alphas[2] + w.ccp_alphas[3]) / 2)
    marked = compute_pruning_walk(model, X, y, current_alpha=middle)
    assert marked.current_step == 2
    assert marked.test_score is None
    kept = DecisionTreeClassifier(ccp_alpha=middle).fit(X, y)
    assert marked.n_leaves[2] == kept.get_n_leaves()
    assert compute_pruning_walk(model, X, y, current_alpha=0.0).current_step == 0
    assert (
        compute_pruning_walk(model, X, y, current_alpha=1e9).current_step == len(w.ccp_alphas) - 1
    )


def test_walk_refuses_a_pruned_model_and_half_test_data() -> None:
    X, Xt, y, _ = split("wine")
    pruned = DecisionTreeClassifier(ccp_alpha=0.01).fit(X, y)
    with pytest.raises(ValueError, match="fit the model with ccp_alpha=0"):
        compute_pruning_walk(pruned, X, y)
    full = DecisionTreeClassifier().fit(X, y)
    with pytest.raises(ValueError, match="X_test and y_test must be given together"):
        compute_pruning_walk(full, X, y, Xt)
    with pytest.raises(ValueError, match="current_alpha must be >= 0"):
        compute_pruning_walk(full, X, y, current_alpha=-1.0)


def test_figure_draws_leaves_and_scores_with_the_current_alpha() -> None:
    model, w = walk("wine")
    X, Xt, y, yt = split("wine")
    alpha = float(w.ccp_alphas[3])
    marked = compute_pruning_walk(model, X, y, Xt, yt, current_alpha=alpha)
    fig = pruning_walk_figure(marked)
    names = [t.name for t in fig.data]
    assert names[:3] == ["leaves", "train accuracy", "test accuracy"]
    leaves = fig.data[0]
    assert leaves.line.shape == "hv"
    assert list(leaves.y[:-1]) == marked.n_leaves.tolist()
    assert fig.data[1].line.color == SERIES_COLORS["train"]
    assert fig.data[2].line.color == SERIES_COLORS["test"]
    dots = fig.data[3:]
    assert [float(d.x[0]) for d in dots] == [alpha] * 3
    assert float(dots[0].y[0]) == marked.n_leaves[3]
    assert float(dots[2].y[0]) == pytest.approx(marked.test_score[3])  # type: ignore[index]
    assert len([s for s in fig.layout.shapes if s.x0 == alpha]) == 2
    assert fig.layout.yaxis2.title.text == "accuracy"
    assert fig.layout.xaxis2.title.text == "ccp_alpha"
    unmarked = pruning_walk_figure(w, title="")
    assert len(unmarked.data) == 3
    assert not unmarked.layout.shapes
