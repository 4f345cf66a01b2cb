"""The shared look's text: titles that wrap to fit a phone and stay clear of the plot."""

from __future__ import annotations

import re

from core.figures._layout import (
    AXIS_TITLE_WIDTH,
    FONT_SIZE,
    SUP_SCALE,
    TITLE_PAD,
    TITLE_WIDTH,
    axis_style,
    styled_layout,
    wrap_text,
)

#: Plotly puts each line of a title 1.3 of its font size below the one before.
LINE_SPACING = 1.3


def test_small_print_wraps_at_its_own_size_each_line_small() -> None:
    small = "A slice: other features held at test sample #12; dots coloured by prediction"
    wrapped = wrap_text(f"Forest of 300<br><sup>{small}</sup>", TITLE_WIDTH)
    first, *rest = wrapped.split("<br>")
    assert first == "Forest of 300"
    # Two lines, not three: at 70% of the size a line holds 51 characters, not 36.
    assert len(rest) == 2
    assert all(line.startswith("<sup>") and line.endswith("</sup>") for line in rest)
    inner = [line.removeprefix("<sup>").removesuffix("</sup>") for line in rest]
    assert all(len(line) <= TITLE_WIDTH / SUP_SCALE for line in inner)
    assert max(len(line) for line in inner) > TITLE_WIDTH
    assert " ".join(inner) == small


def test_a_long_axis_title_wraps_and_stands_off_its_tick_labels() -> None:
    title = "gain: impurity before minus weighted impurity after"
    axis = axis_style(title)
    lines = axis["title"]["text"].split("<br>")
    assert lines == ["gain: impurity before minus", "weighted impurity after"]
    assert all(len(line) <= AXIS_TITLE_WIDTH for line in lines)
    # Placed from the tick labels' real depth, with the margin grown to hold both.
    assert axis["automargin"] is True
    assert axis["title"]["standoff"] > 0
    assert axis_style("max_depth")["title"]["text"] == "max_depth"


def test_a_title_of_many_lines_hangs_from_the_top_inside_its_margin() -> None:
    title = "Forest of 300<br><sup>A slice: other features held at test sample #12; dots</sup>"
    layout = styled_layout(
        title=f"{title}<br><sup>coloured by prediction</sup>", x_title="", y_title=""
    )
    assert (layout["title"]["yref"], layout["title"]["y"], layout["title"]["yanchor"]) == (
        "container",
        1,
        "top",
    )
    # The last line's descenders, then room for the top tick label (half its height above the
    # plot) and a gap: Plotly's own place, the first baseline mid-margin, ran a third line
    # into the plot.
    lines = len(re.findall("<br>", layout["title"]["text"])) + 1
    size = FONT_SIZE + 2
    bottom = TITLE_PAD + size + LINE_SPACING * size * (lines - 1) + 0.25 * size
    assert layout["margin"]["t"] >= bottom + FONT_SIZE / 2 + 4
    assert styled_layout(title="", x_title="", y_title="")["margin"]["t"] == 20
