"""The class poll's figures: a split poll's answers over the node's curve, a choice's counts."""

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
from core.classroom.poll import answer_counts_text, compute_poll_results, node_rows
from core.figures.impurity_curves import SplitScanData, compute_split_scan
from core.figures.poll import choice_figure, poll_figure

# Six rows, two features, two classes (as the scoring tests' tiny tree).
TINY_X = np.array([[1.0, 0.0], [2.0, 0.0], [3.0, 1.0], [4.0, 1.0], [5.0, 1.0], [6.0, 0.0]])
TINY_Y = np.array([0, 0, 0, 1, 1, 0])


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


def assert_valid(figure: go.Figure) -> None:
    """The figure comes back unchanged through Plotly's validating constructor."""
    assert figure._validate is False
    validated = go.Figure(figure.to_dict())
    assert json.loads(pio.to_json(validated, validate=False)) == json.loads(
        pio.to_json(figure, validate=False)
    )


def test_no_answers_yet(iris_root: Any) -> None:
    scan, rows, _, _ = iris_root
    results = compute_poll_results(scan, [], rows)
    assert results.n_answers == 0 and list(results.counts) == [0, 0, 0, 0]
    assert results.best_gain is None and results.median_gain is None
    assert results.share_on_tree_feature is None and results.share_on_tree_split is None
    assert answer_counts_text(results) == "No answers yet."
    for revealed in (False, True):
        figure = poll_figure(results.panel(), revealed=revealed)
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
    hidden = poll_figure(results.panel(), revealed=False)
    assert_valid(hidden)
    assert sum(_bars(hidden).y) == results.counts[2] == 7
    # Before the reveal, the bars alone: the curve's lowest point is the tree's answer.
    assert [t.type for t in hidden.data] == ["bar"]
    assert _bars(hidden).yaxis == "y" and hidden.layout.yaxis.title.text == "answers"
    figure = poll_figure(results.panel(), revealed=True)
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
    sepal = poll_figure(results.panel(0), revealed=False)
    assert list(_bars(sepal).y)[-1] == 1 == sum(_bars(sepal).y)
    assert results.histograms[0].n_outside == 1


def test_the_reveal_adds_the_trees_split_and_only_the_reveal(iris_root: Any) -> None:
    scan, rows, _, _ = iris_root
    results = compute_poll_results(scan, _iris_answers(scan), rows)
    hidden = poll_figure(results.panel(), revealed=False)
    assert not hidden.layout.shapes and not hidden.layout.annotations
    assert "tree" not in json.dumps(hidden.to_dict()).lower()
    shown = poll_figure(results.panel(), revealed=True)
    assert_valid(shown)
    (line,) = shown.layout.shapes
    assert line.x0 == line.x1 == scan.chosen_threshold
    (label,) = shown.layout.annotations
    assert label.text.startswith("the tree's split")
    assert label.x == scan.chosen_threshold
    # The other panels name the tree's feature instead of drawing a line.
    elsewhere = poll_figure(results.panel(3), revealed=True)
    assert not elsewhere.layout.shapes
    (note,) = elsewhere.layout.annotations
    assert note.text == "The tree split on petal length (cm) (≤ 2.45)"
    assert sum(_bars(elsewhere).y) == results.counts[3] == 3


def test_at_a_leaf_the_reveal_says_so(iris: Any) -> None:
    model = DecisionTreeClassifier(max_depth=1, random_state=0).fit(iris.data, iris.target)
    scan = compute_split_scan(model, iris.data, iris.target, 1)
    results = compute_poll_results(
        scan, [SplitAnswer(0, 5.0)], node_rows(model, iris.data, iris.target, 1)
    )
    assert results.tree_gain is None and results.share_on_tree_split is None
    figure = poll_figure(results.panel(), revealed=True)
    assert not figure.layout.shapes
    assert "does not split this node" in figure.layout.annotations[0].text


def test_the_poll_figure_escapes_feature_names(tiny: Any) -> None:
    scan, rows = tiny
    odd = replace(scan.scans[0], name="<b>size</b>")
    named = replace(scan, scans=(odd, scan.scans[1]))
    results = compute_poll_results(named, [SplitAnswer(0, 3.0)], rows)
    figure = poll_figure(results.panel(), revealed=False)
    assert "&lt;b&gt;size&lt;/b&gt;" in figure.layout.xaxis.title.text.replace("<br>", "")
    assert "<b>" not in json.dumps(figure.to_dict())


def test_a_feature_out_of_range_is_refused(tiny: Any) -> None:
    scan, rows = tiny
    results = compute_poll_results(scan, [], rows)
    with pytest.raises(ValueError, match=r"feature must be in \[0, 1\], got 2"):
        poll_figure(results.panel(2), revealed=False)


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
