"""The one stopping rule: its order, and the loop and ``why_leaf`` reading it alike."""

from __future__ import annotations

import numpy as np
import pytest

from core.engine import DecisionTreeClassifier, DecisionTreeRegressor
from core.engine.node_splits import why_leaf
from core.engine.stopping import (
    CONSTANT,
    EPSILON,
    FEATURES_DRAWN,
    FEWER_THAN_TWO_LEAVES,
    LEAVES_TOO_SMALL,
    MAX_DEPTH,
    MIN_IMPURITY_DECREASE,
    MIN_SAMPLES_SPLIT,
    PRUNED,
    PURE,
    SPLIT,
    StopLimits,
    stop_reason,
)

LIMITS = StopLimits(
    max_depth=3, min_samples_split=10, min_samples_leaf=4, min_impurity_decrease=0.1
)


def reason(
    impurity: float = 0.5,
    depth: int = 1,
    n_samples: int = 20,
    varies: bool = True,
    can_split: bool = True,
    decrease: float = 1.0,
) -> int:
    return int(stop_reason(impurity, depth, n_samples, varies, can_split, decrease, LIMITS))


def test_a_node_no_rule_stops_is_split() -> None:
    assert reason() == SPLIT


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        # Everything stops this node: the first rule, purity, wins.
        ({"impurity": 0.0, "depth": 3, "n_samples": 1, "varies": False}, PURE),
        ({"impurity": EPSILON, "depth": 9}, PURE),
        ({"depth": 3, "n_samples": 1, "varies": False}, MAX_DEPTH),
        ({"n_samples": 7, "varies": False}, FEWER_THAN_TWO_LEAVES),
        ({"n_samples": 9, "varies": False, "can_split": False}, MIN_SAMPLES_SPLIT),
        ({"varies": False, "can_split": False, "decrease": 0.0}, CONSTANT),
        ({"can_split": False, "decrease": 0.0}, LEAVES_TOO_SMALL),
        ({"decrease": 0.05}, MIN_IMPURITY_DECREASE),
    ],
)
def test_the_first_rule_that_holds_wins(arguments: dict, expected: int) -> None:
    assert reason(**arguments) == expected


def test_rounding_does_not_stop_a_split_of_exactly_the_minimum_decrease() -> None:
    assert reason(decrease=LIMITS.min_impurity_decrease - EPSILON / 2) == SPLIT


def test_the_rules_are_numbered_one_to_nine_in_their_order() -> None:
    rules = (PURE, MAX_DEPTH, FEWER_THAN_TWO_LEAVES, MIN_SAMPLES_SPLIT, CONSTANT)
    rules += (LEAVES_TOO_SMALL, MIN_IMPURITY_DECREASE, PRUNED, FEATURES_DRAWN)
    assert rules == tuple(range(1, 10))


@pytest.mark.parametrize(
    "params",
    [
        {"max_depth": 3},
        {"min_samples_leaf": 9},
        {"min_samples_split": 40},
        {"min_impurity_decrease": 0.02},
        {"ccp_alpha": 0.01},
        {"max_features": 1, "random_state": 0},
    ],
)
def test_every_leaf_of_a_grown_tree_is_stopped_by_a_rule(params: dict) -> None:
    # why_leaf asks the rule the loop asked: at every leaf the loop made, some rule holds, and
    # rules 8 and 9 (after growing) only appear when pruning or drawn features can cause them.
    rng = np.random.default_rng(0)
    X = rng.normal(size=(150, 3))
    y = (X[:, 0] + 0.5 * rng.normal(size=150) > 0).astype(int)
    model = DecisionTreeClassifier(**params).fit(X, y)
    tree = model.tree_
    rules = {
        why_leaf(model, X, y, int(leaf)).rule for leaf in np.flatnonzero(tree.children_left == -1)
    }
    assert SPLIT not in rules
    if "ccp_alpha" not in params:
        assert PRUNED not in rules
    if "max_features" not in params:
        assert FEATURES_DRAWN not in rules


def test_a_regression_leaf_at_the_depth_limit_says_so() -> None:
    X = np.arange(20.0).reshape(-1, 1)
    model = DecisionTreeRegressor(max_depth=1).fit(X, X[:, 0] ** 2)
    reason_left = why_leaf(model, X, X[:, 0] ** 2, 1)
    assert (reason_left.rule, reason_left.code, reason_left.limit) == (MAX_DEPTH, "max_depth", 1)
