"""Two parameter maps compared cell by cell (core/figures/map_difference.py): the Gini and the
entropy tree's maps of Wine, and hand-made maps whose differences are checked by hand."""

from __future__ import annotations

import functools
from functools import cache
from typing import Any

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from core.engine.tree import DecisionTreeClassifier
from core.figures.map_difference import (
    DIFFERENCE_SPREAD,
    MapDifference,
    param_map_difference_figure,
)
from core.figures.param_map import DEPTHS, LEAF_SIZES, ParamMap, compute_param_map
from core.figures.param_map_plot import CURRENT_COLOR, clicked_setting
from tests.figures.test_fast_figures import assert_valid
from tests.figures.test_param_map import rows


def _map(scores: list[list[float]], **changes: Any) -> ParamMap:
    """A hand-made map of depths (1, 2) and leaf sizes (1, 5), current (1, 5)."""
    fields: dict[str, Any] = {
        "depths": (1, 2),
        "leaf_sizes": (1, 5),
        "scores": np.array(scores),
        "metric": "accuracy",
        "current": (1, 5),
    }
    return ParamMap(**{**fields, **changes})


@cache
def criterion_maps(name: str) -> tuple[ParamMap, ParamMap]:
    """The Gini and the entropy tree's held-out maps, (3, 1) marked."""
    X, Xt, y, yt = rows(name)
    return tuple(  # type: ignore[return-value]
        compute_param_map(
            functools.partial(DecisionTreeClassifier, criterion=c, random_state=0),
            X,
            y,
            Xt,
            yt,
            current=(3, 1),
        )
        for c in ("gini", "entropy")
    )


def test_the_difference_map_is_the_second_maps_scores_minus_the_firsts() -> None:
    gini, entropy = criterion_maps("wine")
    difference = MapDifference(gini, entropy).scores
    assert_array_equal(difference, entropy.scores - gini.scores)
    assert np.any(difference != 0) and np.any(difference == 0)  # both kinds of cell to check
    figure = param_map_difference_figure(gini, entropy, names=("Gini", "entropy"))
    assert_valid(figure)
    heat, points = figure.data
    # In points of accuracy: 100 x the difference, each written in its cell.
    assert_allclose(np.asarray(heat.z), 100 * difference)
    text = np.asarray(heat.text)
    for i, j in np.ndindex(text.shape):
        d = 100 * difference[i, j]
        expected = "0" if d == 0 else f"{d:+.1f}".replace("-", "\u2212")
        assert text[i, j] == expected
    assert (
        figure.layout.title.text.replace("<br>", " ")
        == "entropy \u2212 Gini, points of test accuracy"
    )
    # Diverging, centred on 0: as far below as above, at least DIFFERENCE_SPREAD points.
    assert heat.zmid == 0 and heat.zmin == -heat.zmax
    assert heat.zmax == max(DIFFERENCE_SPREAD, np.abs(100 * difference).max())
    assert heat.textfont.size >= 11
    # The same grid as the maps: current cell outlined, one clickable point per cell.
    (outline,) = figure.layout.shapes
    assert (outline.x0, outline.y0) == (-0.5, 1.5) and outline.line.color == CURRENT_COLOR
    k = int(np.flatnonzero(difference)[0])
    i, j = divmod(k, len(LEAF_SIZES))
    assert (points.y[k], points.x[k]) == (i, j)
    assert f"entropy {entropy.scores[i, j]:.3f}, Gini {gini.scores[i, j]:.3f}" in points.text[k]
    click = {"curve_number": 1, "x": int(points.x[k]), "y": int(points.y[k])}  # as JSON sends it
    assert clicked_setting([click], gini) == (DEPTHS[i], LEAF_SIZES[j])


def test_the_share_of_close_cells_counts_a_difference_of_exactly_one_point_in() -> None:
    first = _map([[0.5, 0.5], [0.5, 0.5]])
    # 0.51 - 0.5 is 0.010000000000000009 as floats: one point, and within it.
    second = _map([[0.5, 0.51], [0.52, 0.485]])
    difference = MapDifference(first, second)
    assert difference.share_within(1) == 0.5
    assert difference.share_within(2) == 1.0
    assert difference.share_within(0) == 0.25
    text = param_map_difference_figure(first, second).data[0].text
    assert [list(row) for row in text] == [["0", "+1.0"], ["+2.0", "\u22121.5"]]


@pytest.mark.parametrize(
    ("changes", "name"),
    [
        ({"leaf_sizes": (1, 6)}, "leaf_sizes"),
        ({"depths": (1, None)}, "depths"),
        ({"metric": "R²"}, "metric"),
        ({"n_folds": 5}, "n_folds"),
    ],
)
def test_maps_of_different_grids_or_scorings_are_not_compared(
    changes: dict[str, Any], name: str
) -> None:
    first, second = _map([[0.5, 0.5], [0.5, 0.5]]), _map([[0.5, 0.5], [0.5, 0.5]], **changes)
    with pytest.raises(ValueError, match=f"the two maps must have the same {name}"):
        MapDifference(first, second)
    with pytest.raises(ValueError, match=f"same {name}"):
        param_map_difference_figure(first, second)
