"""Tiny data sets whose every number is worked out by hand in the comments."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    RandomForestRegressor,
    needs_core,
)
from numpy.testing import assert_allclose, assert_array_equal

# Eight samples, three classes. Feature 0 orders the samples, feature 1 alternates.
#
#   x0:  1  2  3  4  5  6  7  8
#   x1:  0  1  0  1  0  1  0  1
#   y :  0  0  0  1  0  1  2  2      class counts 4, 2, 2 of 8
X_CLS = np.array(
    [[1, 0], [2, 1], [3, 0], [4, 1], [5, 0], [6, 1], [7, 0], [8, 1]],
    dtype=float,
)
Y_CLS = np.array([0, 0, 0, 1, 0, 1, 2, 2])

# Root impurities, p = (1/2, 1/4, 1/4):
#   Gini    = 1 - (1/4 + 1/16 + 1/16)             = 1 - 6/16 = 5/8 = 0.625
#   entropy = -(1/2 log2 1/2 + 2 * 1/4 log2 1/4)  = 1/2 + 1   = 1.5 bits
ROOT_GINI = 5 / 8
ROOT_ENTROPY = 1.5

# Best Gini split. Cutting feature 0 after the k-th sample (threshold k + 0.5), weighted
# child Gini = (n_l * G_l + n_r * G_r) / 8:
#   k=1: 7/8 * (1 - (9+4+4)/49)                 = 4/7   = 0.571
#   k=2: 6/8 * (1 - (4+4+4)/36)                 = 1/2
#   k=3: 5/8 * (1 - (1+4+4)/25)                 = 2/5
#   k=4: 1/2 * 6/16 + 1/2 * 10/16               = 1/2
#   k=5: 5/8 * 8/25 + 3/8 * 4/9                 = 11/30 = 0.367
#   k=6: 6/8 * (1 - (16+4)/36) + 2/8 * 0        = 1/3   <- best
#   k=7: 7/8 * (1 - (16+4+1)/49)                = 1/2
# Feature 1 (x1 <= 0.5): left y = 0,0,0,2 (G = 6/16), right y = 0,1,1,2 (G = 10/16) -> 1/2.
# So the root splits on feature 0 at (6 + 7) / 2 = 6.5; left holds 6 samples with counts
# 4, 2, 0 (G = 4/9), right holds 2 samples of class 2 (G = 0).
#
# Entropy picks the same split. Left child H(2/3, 1/3) = log2(3) - 2/3 = 0.918 bits, weighted
# 6/8 * 0.918 = 0.689; the runner-up, k=5, gives 5/8 * H(.8, .2) + 3/8 * H(1/3, 2/3)
# = 5/8 * 0.722 + 3/8 * 0.918 = 0.796, and feature 1 gives 1/2 * 0.811 + 1/2 * 1.5 = 1.156.
LEFT_GINI = 4 / 9
LEFT_ENTROPY = np.log2(3) - 2 / 3


@pytest.mark.parametrize(
    ("criterion", "root", "left"),
    [
        ("gini", ROOT_GINI, LEFT_GINI),
        ("entropy", ROOT_ENTROPY, LEFT_ENTROPY),
        ("log_loss", ROOT_ENTROPY, LEFT_ENTROPY),
    ],
)
def test_classifier_root_split_by_hand(criterion: str, root: float, left: float) -> None:
    tree = DecisionTreeClassifier(criterion=criterion, max_depth=1).fit(X_CLS, Y_CLS).tree_
    assert tree.node_count == 3
    assert_array_equal(tree.children_left, [1, -1, -1])
    assert_array_equal(tree.children_right, [2, -1, -1])
    assert_array_equal(tree.feature, [0, -2, -2])
    assert_array_equal(tree.threshold, [6.5, -2, -2])
    assert_allclose(tree.impurity, [root, left, 0.0], rtol=1e-12, atol=1e-15)
    assert_array_equal(tree.n_node_samples, [8, 6, 2])
    assert_array_equal(tree.weighted_n_node_samples, [8, 6, 2])
    # value holds class fractions: root 4/8, 2/8, 2/8; left 4/6, 2/6, 0; right 0, 0, 1.
    expected = [[[1 / 2, 1 / 4, 1 / 4]], [[2 / 3, 1 / 3, 0]], [[0, 0, 1]]]
    assert_allclose(tree.value, expected, rtol=1e-12)


def test_classifier_stump_predictions_by_hand() -> None:
    model = DecisionTreeClassifier(max_depth=1).fit(X_CLS, Y_CLS)
    # x0 <= 6.5 -> left leaf (majority class 0), else right leaf (class 2).
    assert_array_equal(model.predict([[6.5, 9], [6.6, 0], [-100, 0]]), [0, 2, 0])
    assert_allclose(model.predict_proba([[1, 0], [8, 0]]), [[2 / 3, 1 / 3, 0], [0, 0, 1]])
    assert_array_equal(model.apply([[1, 0], [8, 0]]), [1, 2])


def test_classifier_full_tree_importances_by_hand() -> None:
    # Growing on: the left node (x0 <= 6.5, y = 0,0,0,1,0,1, G = 4/9) has two equally good
    # splits, x0 <= 3.5 and x1 <= 0.5, each leaving one pure trio and one trio 0,1,1 (G = 4/9):
    # weighted 3/6 * 4/9 = 2/9. The impure trio is then split into pure leaves by the other
    # feature. Either way each feature gets the same total, so no tie rule is involved:
    #   root:    8/8 * 5/8 - 6/8 * 4/9 = 7/24   (x0)
    #   left:    6/8 * 4/9 - 3/8 * 4/9 = 1/6    (x0 or x1)
    #   trio:    3/8 * 4/9 - 0         = 1/6    (the other one)
    # x0 = 7/24 + 4/24 = 11/24, x1 = 4/24; normalised by 15/24: 11/15 and 4/15.
    model = DecisionTreeClassifier(random_state=0).fit(X_CLS, Y_CLS)
    assert_allclose(model.feature_importances_, [11 / 15, 4 / 15], rtol=1e-12)
    assert model.tree_.node_count == 7
    assert model.get_n_leaves() == 4
    assert model.get_depth() == 3
    assert_array_equal(model.predict(X_CLS), Y_CLS)


@needs_core
def test_classifier_tie_goes_to_lowest_feature() -> None:
    # The same tree as above, where the left node's tie (x0 <= 3.5 vs x1 <= 0.5) goes to
    # feature 0. Preorder: 0 root, 1 left, 2 pure trio x0 in 1..3, 3 trio x0 in 4..6
    # (split by x1: 4 holds x0=5, 5 holds x0=4 and 6), 6 the class-2 pair.
    tree = DecisionTreeClassifier().fit(X_CLS, Y_CLS).tree_
    assert_array_equal(tree.children_left, [1, 2, -1, 4, -1, -1, -1])
    assert_array_equal(tree.children_right, [6, 3, -1, 5, -1, -1, -1])
    assert_array_equal(tree.feature, [0, 0, -2, 1, -2, -2, -2])
    assert_array_equal(tree.threshold, [6.5, 3.5, -2, 0.5, -2, -2, -2])
    assert_array_equal(tree.n_node_samples, [8, 6, 3, 3, 1, 2, 2])


@needs_core
def test_identical_features_tie_goes_to_lowest_index() -> None:
    # Columns 1 and 2 are copies of one informative column and column 0 is constant: both
    # copies give the same perfect split, and feature 1 must win.
    x = np.array([1.0, 2.0, 3.0, 4.0])
    X = np.column_stack([np.zeros(4), x, x])
    tree = DecisionTreeClassifier().fit(X, [0, 0, 1, 1]).tree_
    assert_array_equal(tree.feature, [1, -2, -2])
    assert_array_equal(tree.threshold, [2.5, -2, -2])


def test_tied_thresholds_go_to_lowest() -> None:
    # Within one feature scikit-learn also keeps the first (lowest) of equal thresholds.
    # x = 1, 2, 3, 4 with y = 0, 1, 1, 0. Weighted Gini of each cut:
    #   1.5: 1/4 * 0 + 3/4 * 4/9 = 1/3;  2.5: 1/2 * 1/2 + 1/2 * 1/2 = 1/2;  3.5: 3/4 * 4/9 = 1/3
    # 1.5 and 3.5 tie, the lower threshold wins.
    X = np.array([[1.0], [2.0], [3.0], [4.0]])
    tree = DecisionTreeClassifier(max_depth=1).fit(X, [0, 1, 1, 0]).tree_
    assert tree.threshold[0] == 1.5


# Regression toy: x = 1..5, y = 1, 2, 3, 10, 12.
X_REG = np.arange(1.0, 6.0)[:, None]
Y_REG = np.array([1.0, 2.0, 3.0, 10.0, 12.0])


# Squared error. Root mean 28/5 = 5.6, MSE = (4.6^2 + 3.6^2 + 2.6^2 + 4.4^2 + 6.4^2) / 5
# = 101.2 / 5 = 20.24. Weighted child MSE of each cut:
#   1.5: 4/5 * var(2, 3, 10, 12) = 4/5 * 18.6875          = 14.95
#   2.5: (2 * 0.25 + 3 * var(3, 10, 12) = 3 * 134/9) / 5   = 9.033
#   3.5: (3 * var(1, 2, 3) + 2 * var(10, 12)) / 5 = (3 * 2/3 + 2 * 1) / 5 = 0.8  <- best
#   4.5: 4/5 * var(1, 2, 3, 10) = 4/5 * 12.5               = 10
# Left child: mean 2, MSE 2/3; right child: mean 11, MSE 1.
#
# Absolute error (mean absolute deviation from the median). Root median 3,
# MAE = (2 + 1 + 0 + 7 + 9) / 5 = 3.8. Cuts:
#   1.5: 4/5 * MAE(2, 3, 10, 12; median 6.5) = 4/5 * 17/4   = 3.4
#   2.5: (2 * 1/2 + 3 * MAE(3, 10, 12; median 10) = 3 * 3) / 5 = 2
#   3.5: (3 * MAE(1, 2, 3) + 2 * MAE(10, 12)) / 5 = (3 * 2/3 + 2 * 1) / 5 = 0.8  <- best
#   4.5: 4/5 * MAE(1, 2, 3, 10; median 2.5) = 4/5 * 10/4     = 2
# Left child: median 2, MAE 2/3; right child: median (10 + 12) / 2 = 11, MAE 1.
@pytest.mark.parametrize(
    ("criterion", "values", "impurities"),
    [
        ("squared_error", [5.6, 2.0, 11.0], [20.24, 2 / 3, 1.0]),
        ("absolute_error", [3.0, 2.0, 11.0], [3.8, 2 / 3, 1.0]),
    ],
)
def test_regressor_stump_by_hand(criterion: str, values: list, impurities: list) -> None:
    model = DecisionTreeRegressor(criterion=criterion, max_depth=1).fit(X_REG, Y_REG)
    tree = model.tree_
    assert_array_equal(tree.feature, [0, -2, -2])
    assert_array_equal(tree.threshold, [3.5, -2, -2])
    assert_array_equal(tree.n_node_samples, [5, 3, 2])
    assert tree.value.shape == (3, 1, 1)
    assert_allclose(tree.value[:, 0, 0], values, rtol=1e-12)
    assert_allclose(tree.impurity, impurities, rtol=1e-12)
    assert_allclose(model.predict([[0.0], [3.5], [3.6]]), [values[1], values[1], values[2]])


def test_regression_importance_and_score_by_hand() -> None:
    model = DecisionTreeRegressor(max_depth=1).fit(X_REG, Y_REG)
    assert_allclose(model.feature_importances_, [1.0])
    # R^2 = 1 - SSE / SST = 1 - (5 * 0.8) / (5 * 20.24) = 1 - 0.8 / 20.24
    assert_allclose(model.score(X_REG, Y_REG), 1 - 0.8 / 20.24, rtol=1e-12)


def test_forest_of_identical_trees_by_hand() -> None:
    # Without bootstrap and with every feature considered, all trees are the stump above,
    # so the forest predicts the leaf means 2 and 11.
    forest = RandomForestRegressor(
        n_estimators=3, bootstrap=False, max_features=None, max_depth=1, random_state=0
    ).fit(X_REG, Y_REG)
    assert_allclose(forest.predict([[1.0], [5.0]]), [2.0, 11.0], rtol=1e-12)
