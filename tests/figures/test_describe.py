"""Figures in words: what a screen reader gets for a chart and a tree diagram."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import plotly.graph_objects as go

from core.figures.describe import _count, chart_text, plain, tree_text, values
from core.figures.wire import typed_array, wire_form

GOLDEN = Path(__file__).parent / "golden"


def test_a_chart_names_its_title_axes_ranges_and_series() -> None:
    figure = go.Figure(
        [
            go.Scatter(x=np.arange(1, 11), y=np.linspace(0.6, 1.0, 10), name="train"),
            go.Scatter(x=np.arange(1, 11), y=np.linspace(0.7, 0.9, 10), name="test"),
        ],
        layout={
            "title": {"text": "Accuracy <i>by</i> depth"},
            "xaxis": {"title": {"text": "max_depth"}},
            "yaxis": {"title": {"text": "accuracy"}},
        },
    )
    assert chart_text(wire_form(figure)) == (
        "Chart: Accuracy by depth. Horizontal axis: max_depth from 1 to 10; vertical axis: "
        "accuracy from 0.6 to 1. 2 series: train (points or lines, 10 points), test (points "
        "or lines, 10 points)."
    )


def test_typed_arrays_and_lists_read_alike() -> None:
    numbers = np.array([3.0, 1.5, 2.0])
    typed = wire_form(go.Figure(go.Scatter(x=numbers, y=numbers)))["data"][0]["x"]
    assert list(values(typed)) == list(values([3.0, 1.5, 2.0])) == [3.0, 1.5, 2.0]
    assert values(["setosa", "versicolor"]).size == 0  # words are no range


def test_a_chart_without_a_title_or_axes_titles_still_says_what_it_holds() -> None:
    text = chart_text(wire_form(go.Figure(go.Bar(x=["a", "b"], y=[1, 4], name="votes"))))
    assert text == "Chart. Vertical axis from 1 to 4. 1 series: votes (bars, 2 points)."


def test_plain_drops_tags_and_entities() -> None:
    assert plain("a &amp; b<br>c <b>d</b>") == "a & b. c d"
    assert plain(None) == ""


def test_a_tree_says_its_boxes_leaves_and_first_question() -> None:
    dot = (GOLDEN / "hand_tree_beginner_path.dot").read_text(encoding="utf-8")
    assert tree_text(dot) == (
        "Tree diagram: 5 boxes, 3 of them leaves. The first question: x[0] ≤ 2.5?"
    )
    detailed = (GOLDEN / "hand_tree_detailed.dot").read_text(encoding="utf-8")
    assert tree_text(detailed).endswith("The first question: size & <weight> ≤ 2.5?")


def test_a_typed_arrays_count_read_from_its_text_is_the_count_of_its_numbers() -> None:
    rng = np.random.default_rng(0)
    for size in range(1, 14):  # every padding of the text: none, "=" and "=="
        for array in (
            rng.normal(size=size),
            rng.normal(size=size).astype(np.float32),
            rng.integers(0, 200, size=size),
            rng.integers(-30_000, 30_000, size=size),
            rng.integers(-(2**31), 2**31 - 1, size=size),
        ):
            typed = typed_array(array)
            assert isinstance(typed, dict), array.dtype
            assert _count(typed) == values(typed).size == size, (typed["dtype"], size)
    grid = typed_array(rng.normal(size=(150, 150)))
    assert isinstance(grid, dict) and _count(grid) == 150 * 150
