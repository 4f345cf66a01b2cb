"""The geometry the chart text tests judge with: overlaps of tilted boxes, and what is a problem.

No browser: these check ``chart_text.py``'s arithmetic on boxes laid out by hand, so a wrong
overlap rule fails here rather than passing or failing every page at once.
"""

from __future__ import annotations

import math

import pytest
from chart_text import SLACK_PX, Chart, Point, Text, overlap, problems


def _box(x: float, y: float, width: float, height: float, degrees: float = 0.0) -> list[Point]:
    """A box with its top left corner at (x, y), turned ``degrees`` about that corner."""
    turn = math.radians(degrees)
    cos, sin = math.cos(turn), math.sin(turn)
    return [
        (x + dx * cos - dy * sin, y + dx * sin + dy * cos)
        for dx, dy in ((0, 0), (width, 0), (width, height), (0, height))
    ]


def test_upright_boxes_overlap_by_their_shallower_side() -> None:
    assert overlap(_box(0, 0, 40, 12), _box(30, 8, 40, 12)) == pytest.approx(4.0)
    assert overlap(_box(0, 0, 40, 12), _box(40.5, 0, 40, 12)) == 0.0
    assert overlap(_box(0, 0, 40, 12), _box(10, 2, 5, 5)) == pytest.approx(5.0)


def test_tilted_neighbours_whose_upright_rectangles_meet_do_not_overlap() -> None:
    # Two tick labels turned 30 degrees, 25 px apart: their upright bounding rectangles share
    # about 20 px, the words themselves nothing.
    first, second = _box(0, 0, 60, 12, 30), _box(25, 0, 60, 12, 30)
    rectangles = [
        [(min(x for x, _ in b), min(y for _, y in b)), (max(x for x, _ in b), max(y for _, y in b))]
        for b in (first, second)
    ]
    assert rectangles[0][1][0] - rectangles[1][0][0] > 20
    assert overlap(first, second) == 0.0
    assert overlap(first, _box(10, 5, 60, 12, 30)) > SLACK_PX


def test_a_text_beyond_the_chart_or_over_another_is_a_problem() -> None:
    def text(name: str, corners: list[Point], size: float = 14.0, legend: bool = False) -> Text:
        return Text(name, "xtick", size, size * 1.15, tuple(corners), legend)

    chart = Chart(
        ("votes",),
        (0.0, 0.0, 300.0, 200.0),
        (
            text("1000/1000", _box(10, 10, 60, 14), size=7.0),
            text("100%", _box(50, 12, 40, 14)),
            text("setosa", _box(280, 150, 40, 14)),
            text("versicolor", _box(100, 100, 60, 14)),
            text("in the legend", _box(100, 160, 60, 14), legend=True),
        ),
        (tuple(_box(90, 110, 100, 60)),),  # a legend box over "versicolor", holding its own text
    )
    found = problems(chart, "votes", check_size=True)
    assert len(found) == 4, found
    assert "'1000/1000' (xtick) is 7.0 px" in found[0]
    assert "overlap by 12.0 px" in found[1]
    assert "the legend's box covers 'versicolor' (xtick) by 4.0 px" in found[2]
    assert "'setosa' (xtick) runs past" in found[3]
    assert len(problems(chart, "votes", check_size=False)) == 3
