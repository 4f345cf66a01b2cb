"""The vote chart with many classes: one label per bar, each in its own place, each true."""

from __future__ import annotations

import numpy as np
import pytest

from core.engine import RandomForestClassifier
from core.figures.votes import (
    ROW_HEIGHT,
    UPRIGHT_CLASSES,
    VOTE_TEXT_SIZE,
    Votes,
    compute_votes,
    percent_text,
    vote_figure,
)

N_CLASSES = 14  # the accelerometer table of the forest article has 14 activities
NAMES = [f"activity {k}" for k in range(N_CLASSES)]


@pytest.fixture(scope="module")
def fourteen() -> tuple[RandomForestClassifier, np.ndarray]:
    """A forest of 100 trees on 14 overlapping classes, so most samples split the vote."""
    rng = np.random.default_rng(0)
    y = np.repeat(np.arange(N_CLASSES), 30)
    X = rng.normal(size=(len(y), 4))
    X[:, 0] += y % 4
    X[:, 1] += y // 4
    forest = RandomForestClassifier(n_estimators=100, max_depth=4, random_state=0).fit(X, y)
    return forest, X


def _votes(forest: RandomForestClassifier, row: np.ndarray) -> Votes:
    return compute_votes(forest, row, 0.0, NAMES)


@pytest.mark.parametrize(
    ("share", "text"),
    [(0.0, ""), (0.2, "<1%"), (0.5, "<1%"), (0.99, "<1%"), (1.0, "1%"), (44.0, "44%")],
)
def test_a_share_that_is_not_zero_never_reads_as_zero(share: float, text: str) -> None:
    # Issue 39: 0.5% printed "0%" (round half to even), beside a count of 5: "50%".
    assert percent_text(share) == text


def test_a_share_short_of_all_never_reads_as_all() -> None:
    assert percent_text(99.6) == ">99%"
    assert percent_text(100.0) == "100%"


def test_many_classes_lie_a_row_each_with_one_label_per_bar(
    fourteen: tuple[RandomForestClassifier, np.ndarray],
) -> None:
    forest, X = fourteen
    votes = _votes(forest, X[0])
    assert votes.winners is not None
    figure = vote_figure(votes)
    hard, soft = figure.data
    assert hard.orientation == soft.orientation == "h"
    assert list(hard.y) == list(soft.y) == NAMES  # a row per class, both bars in it
    assert figure.layout.yaxis.autorange == "reversed"  # the first class on top
    # One text per bar, in that bar's place: the bar's end, outside it.
    for trace in (hard, soft):
        assert len(trace.text) == len(trace.x) == N_CLASSES
        assert trace.textposition == "outside" and trace.constraintext == "none"
        assert trace.offsetgroup in ("hard", "soft")
    assert hard.offsetgroup != soft.offsetgroup
    # The count and its share as one label, "44 (44%)"; the average alone, "43%".
    n_trees = len(votes.per_tree)
    for count, text in zip(votes.winners, hard.text, strict=True):
        assert text == (f"{count} ({percent_text(100 * count / n_trees)})" if count else "")
    np.testing.assert_allclose(hard.x, 100 * votes.winners / n_trees)
    np.testing.assert_allclose(soft.x, 100 * votes.forest)
    assert list(soft.text) == [percent_text(100 * share) for share in votes.forest]
    # Split votes: several classes carry labels.
    assert sum(bool(text) for text in hard.text) >= 2


def test_a_lying_bar_is_taller_than_its_label(
    fourteen: tuple[RandomForestClassifier, np.ndarray],
) -> None:
    # Each label has its bar's row to itself: the bar must be as tall as the text.
    forest, X = fourteen
    layout = vote_figure(_votes(forest, X[0])).layout
    margin = layout.margin
    plot_height = layout.height - margin.t - margin.b
    bar = plot_height / N_CLASSES * (1 - layout.bargap) / 2  # two bars share a class's row
    assert bar >= VOTE_TEXT_SIZE + 2
    assert layout.height >= ROW_HEIGHT * N_CLASSES
    assert min(trace.textfont.size for trace in vote_figure(_votes(forest, X[0])).data) >= 11


def test_the_label_of_a_full_lying_bar_has_room_past_100(
    fourteen: tuple[RandomForestClassifier, np.ndarray],
) -> None:
    forest, X = fourteen
    layout = vote_figure(_votes(forest, X[0])).layout
    # "100 (100%)" is about ten characters of 12 px after a bar of 100%.
    assert layout.xaxis.range[1] >= 130 and layout.xaxis.ticksuffix == "%"
    assert layout.legend.y >= 1 and layout.legend.yanchor == "bottom"  # apart from the axis


def test_few_classes_still_stand(fourteen: tuple[RandomForestClassifier, np.ndarray]) -> None:
    rng = np.random.default_rng(1)
    y = np.repeat(np.arange(UPRIGHT_CLASSES), 20)
    X = rng.normal(size=(len(y), 2)) + y[:, None]
    forest = RandomForestClassifier(n_estimators=10, random_state=0).fit(X, y)
    figure = vote_figure(compute_votes(forest, X[0], 0.0, NAMES[:UPRIGHT_CLASSES]))
    assert figure.data[0].orientation is None
    assert list(figure.data[0].x) == NAMES[:UPRIGHT_CLASSES]
