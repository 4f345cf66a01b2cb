"""The class poll's split answers, scored against rows counted by hand."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from sklearn.datasets import load_iris

from core import DecisionTreeClassifier
from core.classroom import SplitAnswer
from core.classroom.poll import (
    PollResults,
    answer_counts_text,
    compute_poll_results,
    node_rows,
    score_answer,
)
from core.figures.impurity_curves import SplitScanData, compute_split_scan

# Six rows, two features, two classes. Feature 0 parts the classes best at 3.5 (rows 1-3 are
# class 0, then 1, 1, 0); feature 1 holds two values only.
TINY_X = np.array([[1.0, 0.0], [2.0, 0.0], [3.0, 1.0], [4.0, 1.0], [5.0, 1.0], [6.0, 0.0]])
TINY_Y = np.array([0, 0, 0, 1, 1, 0])


def gini(labels: np.ndarray, n_classes: int) -> float:
    """1 - sum_k p_k^2 of the labels, from their counts."""
    if labels.size == 0:
        return 0.0
    p = np.bincount(labels, minlength=n_classes) / labels.size
    return float(1.0 - np.sum(p**2))


def gain_by_hand(x: np.ndarray, y: np.ndarray, threshold: float) -> float:
    """I(node) - (n_L I(L) + n_R I(R)) / n, the rows counted one by one."""
    k = int(y.max()) + 1
    left, right = y[x <= threshold], y[x > threshold]
    child = (left.size * gini(left, k) + right.size * gini(right, k)) / y.size
    return gini(y, k) - child


@pytest.fixture(scope="module")
def iris() -> Any:
    return load_iris()


@pytest.fixture(scope="module")
def tiny() -> tuple[SplitScanData, np.ndarray]:
    model = DecisionTreeClassifier(max_depth=1, random_state=0).fit(TINY_X, TINY_Y)
    scan = compute_split_scan(model, TINY_X, TINY_Y, 0, feature_names=["size", "flag"])
    return scan, node_rows(model, TINY_X, TINY_Y, 0)


@pytest.fixture(scope="module")
def iris_root(iris: Any) -> tuple[SplitScanData, np.ndarray, np.ndarray, np.ndarray]:
    model = DecisionTreeClassifier(random_state=0).fit(iris.data, iris.target)
    scan = compute_split_scan(model, iris.data, iris.target, 0, feature_names=iris.feature_names)
    return scan, node_rows(model, iris.data, iris.target, 0), iris.data, iris.target


def test_the_tiny_tree_is_what_the_hand_says(tiny: Any) -> None:
    scan, rows = tiny
    assert (scan.chosen_feature, scan.chosen_threshold) == (0, 3.5)
    assert rows.X.shape == (6, 2)
    # Parent: 4 of class 0, 2 of class 1: 1 - (4/6)^2 - (2/6)^2 = 4/9.
    assert scan.parent_impurity == pytest.approx(4 / 9)


@pytest.mark.parametrize(
    ("feature", "threshold", "n_left"),
    [
        (0, 3.5, 3),  # the tree's own split
        (0, 3.0, 3),  # on a value: the same rows as 3.5
        (0, 3.2, 3),  # below the scanned 3.5, same gap: same split
        (0, 2.9, 2),  # the gap below: the split at 2.5
        (0, 4.7, 4),
        (0, 5.5, 5),
        (1, 0.5, 3),
        (1, 0.0, 3),
    ],
)
def test_a_gain_is_the_gain_of_the_rows_it_sends_left(
    tiny: Any, feature: int, threshold: float, n_left: int
) -> None:
    scan, rows = tiny
    scored = score_answer(scan, rows, SplitAnswer(feature, threshold))
    x = TINY_X[:, feature]
    assert scored.verdict == "scored"
    assert scored.n_left == n_left == np.count_nonzero(x <= threshold)
    assert scored.gain == pytest.approx(gain_by_hand(x, TINY_Y, threshold), abs=1e-12)
    assert scored.child_impurity == pytest.approx(scan.parent_impurity - scored.gain)
    assert scored.note == ""


def test_the_tiny_split_by_hand_in_numbers(tiny: Any) -> None:
    scan, rows = tiny
    # x0 <= 3.5: left [0, 0, 0] pure, right [1, 1, 0] gini 1 - 1/9 - 4/9 = 4/9;
    # child 3/6 * 4/9 = 2/9, gain 4/9 - 2/9 = 2/9.
    scored = score_answer(scan, rows, SplitAnswer(0, 3.2))
    assert scored.gain == pytest.approx(2 / 9)
    assert scored.same_as_tree
    # x0 <= 2.5: left [0, 0], right [0, 1, 1, 0] gini 1/2; child 4/6 * 1/2 = 1/3, gain 1/9.
    assert score_answer(scan, rows, SplitAnswer(0, 2.9)).gain == pytest.approx(1 / 9)


@pytest.mark.parametrize("threshold", [0.5, -1e9, 6.0, 100.0, float("nan"), float("inf")])
def test_an_answer_that_splits_nothing_gains_nothing_and_says_so(
    tiny: Any, threshold: float
) -> None:
    scan, rows = tiny
    scored = score_answer(scan, rows, SplitAnswer(0, threshold))
    assert scored.verdict == "one_side"
    assert scored.gain == 0.0
    assert scored.child_impurity == scan.parent_impurity
    assert scored.n_left in (0, 6)
    assert "nothing is split" in scored.note
    assert not scored.same_as_tree


def test_iris_root_every_gap_of_every_feature_against_counted_rows(iris_root: Any) -> None:
    scan, rows, X, y = iris_root
    rng = np.random.default_rng(0)
    for feature in range(4):
        values = np.unique(X[:, feature])
        # On every value, halfway to the next one, and a little above each.
        thresholds = np.concatenate(
            [values, (values[:-1] + values[1:]) / 2, values[:-1] + 0.1 * np.diff(values)]
        )
        thresholds = np.concatenate([thresholds, rng.uniform(values[0], values[-1], 20)])
        results = compute_poll_results(
            scan, [SplitAnswer(feature, float(t)) for t in thresholds], rows
        )
        for t, scored in zip(thresholds, results.answers, strict=True):
            assert scored.n_left == np.count_nonzero(X[:, feature] <= t)
            assert scored.gain == pytest.approx(gain_by_hand(X[:, feature], y, t), abs=1e-12)
            assert scored.verdict == ("one_side" if t >= values[-1] else "scored")


def test_the_trees_split_gets_the_trees_gain(iris_root: Any) -> None:
    scan, rows, X, y = iris_root
    assert scan.chosen_feature is not None and scan.chosen_threshold is not None
    f, t = scan.chosen_feature, scan.chosen_threshold
    answers = [
        SplitAnswer(f, t),
        SplitAnswer(f, float(X[:, f][X[:, f] <= t].max())),  # the highest value sent left
        SplitAnswer(f, t + 1.0),  # on the tree's feature, past the gap: another split
        SplitAnswer((f + 1) % 4, 1.0),
    ]
    results = compute_poll_results(scan, answers, rows)
    tree_gain = scan.parent_impurity - (scan.chosen_impurity or 0.0)
    assert results.tree_gain == pytest.approx(tree_gain)
    assert results.tree_gain == pytest.approx(gain_by_hand(X[:, f], y, t))
    for scored in results.answers[:2]:
        assert scored.same_as_tree
        assert scored.gain == pytest.approx(tree_gain, abs=1e-12)
    assert [a.same_as_tree for a in results.answers] == [True, True, False, False]
    assert results.share_on_tree_feature == pytest.approx(3 / 4)
    assert results.share_on_tree_split == pytest.approx(2 / 4)
    assert results.best_gain == pytest.approx(tree_gain)
    gains = [a.gain for a in results.answers]
    assert all(g is not None for g in gains)
    assert results.median_gain == pytest.approx(float(np.median(np.array(gains, dtype=float))))


def test_counts_per_feature_and_answers_naming_no_feature(tiny: Any) -> None:
    scan, rows = tiny
    answers = [SplitAnswer(0, 3.0)] * 3 + [SplitAnswer(1, 0.5), SplitAnswer(2, 1.0)]
    answers.append(SplitAnswer(-1, 1.0))  # not the last feature counted from the end
    results = compute_poll_results(scan, answers, rows)
    assert list(results.counts) == [3, 1]
    assert results.n_answers == 6
    assert results.most_answered == 0
    strays = results.answers[-2:]
    assert [a.verdict for a in strays] == ["no_feature", "no_feature"]
    assert all(a.gain is None for a in strays)
    # The two strays count in the shares' denominators: 3 of 6 made the tree's split.
    assert results.share_on_tree_split == pytest.approx(3 / 6)
    assert [int(h.counts.sum()) for h in results.histograms] == [3, 1]
    text = answer_counts_text(results)
    assert text == "6 answers: size 3 · flag 1 · no such feature 2"


def test_a_split_the_tree_never_tries_has_no_gain(iris: Any) -> None:
    # min_samples_leaf=15: the tree never leaves fewer than 15 rows on a side, and the scan
    # has no point for such a split.
    X, y = iris.data, iris.target
    model = DecisionTreeClassifier(min_samples_leaf=15, random_state=0).fit(X, y)
    scan = compute_split_scan(model, X, y, 0)
    low = float(np.sort(X[:, 0])[3])  # 4 rows go left
    scored = score_answer(scan, node_rows(model, X, y, 0), SplitAnswer(0, low))
    assert scored.verdict == "not_allowed"
    assert (scored.gain, scored.child_impurity) == (None, None)
    assert scored.n_left == np.count_nonzero(X[:, 0] <= low)
    assert "never tries" in scored.note


def test_the_node_rows_must_be_the_scans(tiny: Any) -> None:
    scan, rows = tiny
    with pytest.raises(ValueError, match=r"X_node must hold the node's 6 rows of 2 features"):
        compute_poll_results(scan, [], replace(rows, X=rows.X[:4], y=rows.y[:4]))
    with pytest.raises(ValueError, match="n_bins must be >= 1, got 0"):
        compute_poll_results(scan, [], rows, n_bins=0)


def test_node_rows_are_the_rows_through_the_node(iris: Any) -> None:
    model = DecisionTreeClassifier(max_depth=2, random_state=0).fit(iris.data, iris.target)
    right = int(model.tree_.children_right[0])
    rows = node_rows(model, iris.data, iris.target, right)
    f, t = int(model.tree_.feature[0]), float(model.tree_.threshold[0])
    np.testing.assert_array_equal(rows.X, iris.data[iris.data[:, f] > t])
    last = model.tree_.node_count - 1
    with pytest.raises(ValueError, match=rf"node_id must be in \[0, {last}\], got {last + 1}"):
        node_rows(model, iris.data, iris.target, last + 1)


def test_poll_results_is_frozen(tiny: Any) -> None:
    scan, rows = tiny
    results = compute_poll_results(scan, [], rows)
    assert isinstance(results, PollResults)
    with pytest.raises(AttributeError):
        results.n_answers = 3  # type: ignore[misc]


def test_an_answer_on_a_value_keeps_that_value_left_as_written() -> None:
    # "x ≤ 1.7" keeps the rows of 1.7 left, though the tree reads them as 1.70000005
    # (float32) and its own threshold between 1.6 and 1.8 (1.69999999) sends them right.
    X = np.array([[1.6], [1.7], [1.7], [1.8]])
    y = np.array([0, 0, 1, 1])
    model = DecisionTreeClassifier(max_depth=1, random_state=0).fit(X, y)
    scan = compute_split_scan(model, X, y, 0, feature_names=["petal width"])
    rows = node_rows(model, X, y, 0)
    scored = score_answer(scan, rows, SplitAnswer(0, 1.7))
    assert (scored.verdict, scored.n_left, scored.threshold) == ("scored", 3, 1.7)
    assert scored.gain == pytest.approx(gain_by_hand(X[:, 0], y, 1.7), abs=1e-12)
