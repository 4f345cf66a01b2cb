"""A number question's histogram: one bar per bin at its middle, the counts written on the
bars, the middle answer marked, and clear messages for arrays that do not fit."""

from __future__ import annotations

import numpy as np
import pytest

from core.figures.number_answers import number_figure


def test_each_bin_is_a_bar_at_its_middle_with_its_count_and_the_middle_is_marked() -> None:
    figure = number_figure([0.0, 0.5, 1.0], [3, 0], median=0.25)
    bars = figure.data[0]
    assert np.allclose(bars.x, [0.25, 0.75]) and list(bars.y) == [3, 0]
    assert list(bars.text) == ["3", ""]
    assert figure.layout.shapes[0].x0 == 0.25
    assert figure.layout.annotations[0].text == "middle 0.25"
    assert figure.layout.yaxis.range[1] > 3  # room above the tallest bar for its count


def test_without_a_median_nothing_is_marked() -> None:
    figure = number_figure([1.0, 2.0], [4])
    assert not figure.layout.shapes and not figure.layout.annotations


@pytest.mark.parametrize(
    ("edges", "counts", "message"),
    [
        ([0.0, 1.0], [1, 2], "one longer than counts"),
        ([0.0], [], "one longer than counts"),
        ([0.0, 1.0], [-1], "counts must be >= 0"),
    ],
)
def test_arrays_that_do_not_fit_are_refused(
    edges: list[float], counts: list[int], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        number_figure(edges, counts)
