"""The class poll's split answers, scored against rows counted by hand, and its figures."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest

from core import DecisionTreeClassifier
from core.classroom import SplitAnswer
from core.figures.impurity_curves import SplitScanData, compute_split_scan
from core.figures.poll import (
    PollResults,
    answer_counts_text,
    choice_figure,
    compute_poll_results,
    node_rows,
    poll_figure,
    score_answer,
)

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


def assert_valid(figure: go.Figure) -> None:
    """The figure comes back unchanged through Plotly's validating constructor."""
    assert figure._validate is False
    validated = go.Figure(figure.to_dict())
    assert json.loads(pio.to_json(validated, validate=False)) == json.loads(
        pio.to_json(figure, validate=False)
    )


@pytest.fixture(scope="module")
def tiny() -> tuple[SplitScanData, np.ndarray]:
    model = DecisionTreeClassifier(max_depth=1, random_state=0).fit(TINY_X, TINY_Y)
    scan = compute_split_scan(model, TINY_X, TINY_Y, 0, feature_names=["size", "flag"])
    return scan, node_rows(model, TINY_X, 0)


@pytest.fixture(scope="module")
def iris_root(iris: Any) -> tuple[SplitScanData, np.ndarray, np.ndarray, np.ndarray]:
    model = DecisionTreeClassifier(random_state=0).fit(iris.data, iris.target)
    scan = compute_split_scan(model, iris.data, iris.target, 0, feature_names=iris.feature_names)
    return scan, node_rows(model, iris.data, 0), iris.data, iris.target


def test_the_tiny_tree_is_what_the_hand_says(tiny: Any) -> None:
    scan, rows = tiny
    assert (scan.chosen_feature, scan.chosen_threshold) == (0, 3.5)
    assert rows.shape == (6, 2)
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
    scored = score_answer(scan, node_rows(model, X, 0), SplitAnswer(0, low))
    assert scored.verdict == "not_allowed"
    assert (scored.gain, scored.child_impurity) == (None, None)
    assert scored.n_left == np.count_nonzero(X[:, 0] <= low)
    assert "never tries" in scored.note


def test_the_node_rows_must_be_the_scans(tiny: Any) -> None:
    scan, rows = tiny
    with pytest.raises(ValueError, match=r"X_node must hold the node's 6 rows of 2 features"):
        compute_poll_results(scan, [], rows[:4])
    with pytest.raises(ValueError, match="n_bins must be >= 1, got 0"):
        compute_poll_results(scan, [], rows, n_bins=0)


def test_node_rows_are_the_rows_through_the_node(iris: Any) -> None:
    model = DecisionTreeClassifier(max_depth=2, random_state=0).fit(iris.data, iris.target)
    right = int(model.tree_.children_right[0])
    rows = node_rows(model, iris.data, right)
    f, t = int(model.tree_.feature[0]), float(model.tree_.threshold[0])
    np.testing.assert_array_equal(rows, iris.data[iris.data[:, f] > t])
    last = model.tree_.node_count - 1
    with pytest.raises(ValueError, match=rf"node_id must be in \[0, {last}\], got {last + 1}"):
        node_rows(model, iris.data, last + 1)


def test_no_answers_yet(iris_root: Any) -> None:
    scan, rows, _, _ = iris_root
    results = compute_poll_results(scan, [], rows)
    assert results.n_answers == 0 and list(results.counts) == [0, 0, 0, 0]
    assert results.best_gain is None and results.median_gain is None
    assert results.share_on_tree_feature is None and results.share_on_tree_split is None
    assert answer_counts_text(results) == "No answers yet."
    for revealed in (False, True):
        figure = poll_figure(results, revealed=revealed)
        assert_valid(figure)
        assert figure.layout.title.text == "No answers yet"
        bars = [t for t in figure.data if t.type == "bar"]
        assert sum(bars[0].y) == 0


def _iris_answers(scan: SplitScanData) -> list[SplitAnswer]:
    # 7 on petal length (feature 2), 3 on petal width, 1 on sepal length far above every value.
    lengths = [1.5, 2.0, 2.45, 2.46, 4.8, 4.9, 5.2]
    return (
        [SplitAnswer(2, t) for t in lengths]
        + [SplitAnswer(3, t) for t in (0.8, 1.6, 1.7)]
        + [SplitAnswer(0, 50.0)]
    )


def _bars(figure: go.Figure) -> Any:
    (bars,) = [t for t in figure.data if t.type == "bar"]
    return bars


def test_the_poll_figure_draws_the_most_answered_feature(iris_root: Any) -> None:
    scan, rows, _, _ = iris_root
    results = compute_poll_results(scan, _iris_answers(scan), rows)
    hidden = poll_figure(results, revealed=False)
    assert_valid(hidden)
    assert sum(_bars(hidden).y) == results.counts[2] == 7
    # Before the reveal, the bars alone: the curve's lowest point is the tree's answer.
    assert [t.type for t in hidden.data] == ["bar"]
    assert _bars(hidden).yaxis == "y" and hidden.layout.yaxis.title.text == "answers"
    figure = poll_figure(results, revealed=True)
    assert_valid(figure)
    bars = _bars(figure)
    assert sum(bars.y) == 7
    assert bars.yaxis == "y2" and figure.layout.yaxis2.title.text == "answers"
    assert figure.layout.yaxis2.overlaying == "y"
    (curve,) = [t for t in figure.data if t.name == "weighted child gini"]
    np.testing.assert_array_equal(curve.x, scan.scans[2].thresholds)
    np.testing.assert_array_equal(curve.y, scan.scans[2].child_impurity)
    (parent,) = [t for t in figure.data if t.type == "scatter" and t.line.dash == "dash"]
    assert list(parent.y) == [scan.parent_impurity] * 2
    assert (
        hidden.layout.title.text.replace("<br>", " ") == "7 of 11 answers chose petal length (cm)"
    )
    # Sepal length's one answer lies above every value: drawn in the last bar, and said.
    sepal = poll_figure(results, 0, revealed=False)
    assert list(_bars(sepal).y)[-1] == 1 == sum(_bars(sepal).y)
    assert results.histograms[0].n_outside == 1


def test_the_reveal_adds_the_trees_split_and_only_the_reveal(iris_root: Any) -> None:
    scan, rows, _, _ = iris_root
    results = compute_poll_results(scan, _iris_answers(scan), rows)
    hidden = poll_figure(results, revealed=False)
    assert not hidden.layout.shapes and not hidden.layout.annotations
    assert "tree" not in json.dumps(hidden.to_dict()).lower()
    shown = poll_figure(results, revealed=True)
    assert_valid(shown)
    (line,) = shown.layout.shapes
    assert line.x0 == line.x1 == scan.chosen_threshold
    (label,) = shown.layout.annotations
    assert label.text.startswith("the tree's split")
    assert label.x == scan.chosen_threshold
    # The other panels name the tree's feature instead of drawing a line.
    elsewhere = poll_figure(results, 3, revealed=True)
    assert not elsewhere.layout.shapes
    (note,) = elsewhere.layout.annotations
    assert note.text == "The tree split on petal length (cm) (≤ 2.45)"
    assert sum(_bars(elsewhere).y) == results.counts[3] == 3


def test_at_a_leaf_the_reveal_says_so(iris: Any) -> None:
    model = DecisionTreeClassifier(max_depth=1, random_state=0).fit(iris.data, iris.target)
    scan = compute_split_scan(model, iris.data, iris.target, 1)
    results = compute_poll_results(scan, [SplitAnswer(0, 5.0)], node_rows(model, iris.data, 1))
    assert results.tree_gain is None and results.share_on_tree_split is None
    figure = poll_figure(results, revealed=True)
    assert not figure.layout.shapes
    assert "does not split this node" in figure.layout.annotations[0].text


def test_the_poll_figure_escapes_feature_names(tiny: Any) -> None:
    scan, rows = tiny
    odd = replace(scan.scans[0], name="<b>size</b>")
    named = replace(scan, scans=(odd, scan.scans[1]))
    results = compute_poll_results(named, [SplitAnswer(0, 3.0)], rows)
    figure = poll_figure(results, revealed=False)
    assert "&lt;b&gt;size&lt;/b&gt;" in figure.layout.xaxis.title.text.replace("<br>", "")
    assert "<b>" not in json.dumps(figure.to_dict())


def test_a_feature_out_of_range_is_refused(tiny: Any) -> None:
    scan, rows = tiny
    results = compute_poll_results(scan, [], rows)
    with pytest.raises(ValueError, match=r"feature must be in \[0, 1\], got 2"):
        poll_figure(results, 2, revealed=False)


def test_the_choice_figure_shows_counts_and_shares() -> None:
    figure = choice_figure(["yes", "no", "it depends"], [6, 3, 1])
    assert_valid(figure)
    (bars,) = figure.data
    assert list(bars.x) == [6, 3, 1]
    assert list(bars.text) == ["6 (60%)", "3 (30%)", "1 (10%)"]
    assert list(figure.layout.yaxis.ticktext) == ["yes", "no", "it depends"]
    assert figure.layout.yaxis.autorange == "reversed"  # the first option at the top
    none = choice_figure(["yes", "no"], [0, 0])
    assert list(none.data[0].text) == ["0 (0%)", "0 (0%)"]


def test_the_choice_figure_shows_typed_html_as_text() -> None:
    figure = choice_figure(["<b>x</b>", "a & b", "<br>", "&lt;"], [1, 2, 0, 0])
    ticks = list(figure.layout.yaxis.ticktext)
    assert ticks == ["&lt;b&gt;x&lt;/b&gt;", "a &amp; b", "&lt;br&gt;", "&amp;lt;"]
    assert "<b>" not in json.dumps(figure.to_dict())


def test_the_choice_figure_wraps_long_options_and_keeps_twins_apart() -> None:
    long = "Will test accuracy rise when the tree may grow to depth eight? " * 2
    figure = choice_figure([long, "same", "same"], [4, 1, 1])
    (bars,) = figure.data
    assert len(bars.y) == 3 and len(set(bars.y)) == 3  # two "same" stay two bars
    lines = figure.layout.yaxis.ticktext[0].split("<br>")
    assert len(lines) > 2 and all(len(line) <= 30 for line in lines)
    assert " ".join(lines) == long.strip()


def test_the_choice_figure_refuses_what_it_cannot_draw() -> None:
    with pytest.raises(ValueError, match="same length, got 2 and 1"):
        choice_figure(["a", "b"], [1])
    with pytest.raises(ValueError, match="at least one option"):
        choice_figure([], [])
    with pytest.raises(ValueError, match=r"counts must be >= 0, got \[1, -1\]"):
        choice_figure(["a", "b"], [1, -1])


def test_poll_results_is_frozen(tiny: Any) -> None:
    scan, rows = tiny
    results = compute_poll_results(scan, [], rows)
    assert isinstance(results, PollResults)
    with pytest.raises(AttributeError):
        results.n_answers = 3  # type: ignore[misc]
