"""Does the criterion matter? Where two trees part, over many splits, and one split by hand."""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go
import pytest
from sklearn.datasets import load_wine
from sklearn.model_selection import train_test_split as sk_split

from core.engine.tree import DecisionTreeClassifier
from core.figures.criterion import entropy, first_parting, gini, seed_study, split_lab
from core.figures.criterion_plot import lab_figure, parting_figure, seed_figure


def test_the_impurities_by_their_formulas() -> None:
    assert gini([5, 5]) == pytest.approx(0.5)
    assert entropy([5, 5]) == pytest.approx(1.0)
    assert gini([10, 0]) == 0.0 and entropy([10, 0]) == 0.0
    assert entropy([1, 1, 1, 1]) == pytest.approx(2.0)
    assert gini([0, 0]) == 0.0 and entropy([]) == 0.0


def test_the_lab_counts_a_split_by_hand() -> None:
    sides, gains = split_lab((30, 5), (10, 55))
    assert [s.counts for s in sides] == [(40, 60), (30, 5), (10, 55)]
    node_gini = 1 - 0.4**2 - 0.6**2
    left_gini = 1 - (30 / 35) ** 2 - (5 / 35) ** 2
    right_gini = 1 - (10 / 65) ** 2 - (55 / 65) ** 2
    expected = node_gini - (35 * left_gini + 65 * right_gini) / 100
    assert gains["gini"] == pytest.approx(expected, abs=1e-12)
    h = -(0.4 * math.log2(0.4) + 0.6 * math.log2(0.6))
    assert sides[0].entropy == pytest.approx(h)
    assert gains["entropy share"] == pytest.approx(gains["entropy"] / h)
    _, no_gain = split_lab((0, 0), (0, 0))
    assert no_gain["gini"] == 0.0 and no_gain["gini share"] == 0.0


@pytest.fixture(scope="module")
def wine_trees():  # type: ignore[no-untyped-def]
    data = load_wine()
    X, y = data.data[:, [6, 12]], data.target  # flavanoids, proline: the roots differ
    trees = {
        c: DecisionTreeClassifier(criterion=c, max_depth=4, random_state=0).fit(X, y)
        for c in ("gini", "entropy")
    }
    return trees, X, y


def test_the_parting_node_holds_each_trees_own_question(wine_trees) -> None:  # type: ignore[no-untyped-def]
    trees, X, y = wine_trees
    parting = first_parting(trees["gini"], trees["entropy"], X, y)
    assert parting is not None
    g, e = trees["gini"].tree_, trees["entropy"].tree_
    for criterion, tree, node in (
        ("gini", g, parting.node_gini),
        ("entropy", e, parting.node_entropy),
    ):
        choice = parting.choices[criterion]
        assert choice is not None
        assert (choice.feature, choice.threshold) == (
            int(tree.feature[node]),
            float(tree.threshold[node]),
        )
        # Its own decrease is the tree's: (I(node) - weighted I(children)) / I(node).
        left, right = tree.children_left[node], tree.children_right[node]
        n = tree.weighted_n_node_samples
        children = (n[left] * tree.impurity[left] + n[right] * tree.impurity[right]) / n[node]
        assert choice.decrease == pytest.approx(1 - children / tree.impurity[node], abs=1e-9)
        # Each criterion's pick is its own best: the other's question removes no more.
        assert choice.decrease >= choice.decrease_of_other - 1e-12
    assert parting.n_samples == int(g.n_node_samples[parting.node_gini])
    go.Figure(parting_figure(parting, ["flavanoids", "proline"]).to_dict())


def test_identical_trees_never_part() -> None:
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([0, 0, 1, 1])
    a = DecisionTreeClassifier(criterion="gini").fit(X, y)
    b = DecisionTreeClassifier(criterion="entropy").fit(X, y)
    assert first_parting(a, b, X, y) is None


def test_the_seed_study_compares_the_two_trees_on_each_split() -> None:
    data = load_wine()
    X, y = data.data, data.target

    def grow(criterion: str, seed: int):  # type: ignore[no-untyped-def]
        X_train, X_test, y_train, y_test = sk_split(X, y, test_size=0.3, random_state=seed)
        tree = DecisionTreeClassifier(criterion=criterion, max_depth=3, random_state=seed)
        return tree.fit(X_train, y_train), X_test, y_test

    study = seed_study(grow, range(6))
    for i, seed in enumerate(range(6)):
        g, X_test, y_test = grow("gini", seed)
        e, _, _ = grow("entropy", seed)
        assert study.predictions_differ[i] == pytest.approx(
            np.mean(g.predict(X_test) != e.predict(X_test))
        )
        gap = np.mean(e.predict(X_test) == y_test) - np.mean(g.predict(X_test) == y_test)
        assert study.accuracy_gap[i] == pytest.approx(gap)
        root = (g.tree_.feature[0], g.tree_.threshold[0]) != (
            e.tree_.feature[0],
            e.tree_.threshold[0],
        )
        assert bool(study.root_differs[i]) == root
        assert not study.root_differs[i] or study.trees_differ[i]
    go.Figure(seed_figure(study).to_dict())
    go.Figure(lab_figure(split_lab((3, 1), (1, 3))[0]).to_dict())
