"""How many levels of a tree a diagram can show and still be read from the back of a room.

A diagram fitted to a box is scaled down (or up, to a limit) until it fits both ways. With a
drawing ``W`` x ``H`` points wide and tall and a box ``w`` x ``h`` pixels, one point of the
drawing shows as

    s = min(w / W, h / H, MAX_GROWTH)   pixels,

so its smallest text, ``SMALLEST_TEXT_PT`` points, shows at ``SMALLEST_TEXT_PT * s`` pixels.
A deeper tree is a wider and taller drawing and so smaller text: :func:`fold_depth` finds the
deepest level whose drawing keeps the text at ``MIN_TEXT_PX`` or more; the levels below fold
into grey "+ n more nodes" boxes (a leaf never does: it is one box already), and the whole
tree is one click (and a zoom) away.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

__all__ = [
    "BROWSER_TALLER",
    "ESTIMATE_ERROR",
    "MIN_TEXT_PX",
    "PROJECTOR_COLUMN",
    "Fold",
    "Size",
    "choose_fold",
    "fold_depth",
    "readable",
    "settled",
    "shown_scale",
    "svg_size",
    "text_px",
]

#: ``(width, height)``: of a drawing in points, of a box on the screen in CSS pixels.
Size = tuple[float, float]

#: A tree beside its decision boundary on a 1280x720 projector: half the page's 916 px wide
#: main column (426 px once the gap is taken out; measured in Chromium), and at most 70% of
#: the window's height (the cap :func:`core.ui.display.show_svg` puts on a fitted diagram).
PROJECTOR_COLUMN: Size = (426.0, 504.0)

#: Smallest text, in pixels, a class can read on a projector from the back of the room.
MIN_TEXT_PX = 10.0

#: Smallest text in a tree's drawing, in points (``tree_dot``'s node and edge labels).
SMALLEST_TEXT_PT = 12.0

#: A fitted diagram grows to at most 1.5 times its natural size (1 pt = 4/3 CSS px).
MAX_GROWTH = 1.5 * 4.0 / 3.0


#: The browser's own Graphviz (``st.graphviz_chart``, without a ``dot`` on the server) drew
#: Iris's tree 6% taller than ``dot`` does: an estimate of ``dot``'s layout gets 10% more
#: height before it stands for the browser's.
BROWSER_TALLER = 1.1


def shown_scale(drawing: Size, box: Size) -> float:
    """Pixels per point when ``drawing`` (points) is fitted into ``box`` (pixels).

    ``s = min(box_w / W, box_h / H, MAX_GROWTH)``.
    """
    width, height = drawing
    box_width, box_height = box
    return min(box_width / max(width, 1.0), box_height / max(height, 1.0), MAX_GROWTH)


def text_px(drawing: Size, box: Size) -> float:
    """Height in pixels of the drawing's smallest text once fitted into ``box``."""
    return SMALLEST_TEXT_PT * shown_scale(drawing, box)


def readable(drawing: Size, box: Size = PROJECTOR_COLUMN) -> bool:
    """True when the drawing's smallest text shows at :data:`MIN_TEXT_PX` or more."""
    return text_px(drawing, box) >= MIN_TEXT_PX


#: How far the text size of ``dot``'s own layout can be from the estimate's
#: (:func:`~core.figures.tree_dot.estimated_size`), as the lowest and highest ratio of the two:
#: 0.665 to 1.257 over 2,158 drawings (Iris, Wine, breast cancer, penguins and the sine; forest
#: trees of every depth, both details), widened here to leave room for trees not measured.
ESTIMATE_ERROR = (0.6, 1.35)


def settled(estimate: Size, box: Size = PROJECTOR_COLUMN) -> bool:
    """True when an estimated drawing is so far from the readable threshold that ``dot``'s
    layout of it must land on the same side: its text is ``MIN_TEXT_PX / 0.6`` or more, or
    under ``MIN_TEXT_PX / 1.35`` (:data:`ESTIMATE_ERROR`). Only a drawing near the threshold
    needs a layout to say whether it is readable."""
    low, high = ESTIMATE_ERROR
    size = text_px(estimate, box)
    return size >= MIN_TEXT_PX / low or size < MIN_TEXT_PX / high


def fold_depth(
    size_at: Callable[[int], Size],
    deepest: int,
    box: Size = PROJECTOR_COLUMN,
    *,
    start: int = 2,
) -> int:
    """The deepest level to draw, so that the drawing stays readable in ``box``.

    Parameters
    ----------
    size_at : callable
        ``size_at(d)`` is the size in points of the drawing that shows levels ``0..d``
        (deeper ones folded): measured from Graphviz's layout, or estimated without it.
    deepest : int
        The tree's own depth: showing it folds nothing.
    box : (float, float)
        Where the drawing goes, in pixels.
    start : int, default 2
        First level tried; the search walks down while level ``d`` is unreadable, or up while
        level ``d + 1`` is readable, so it draws only a few candidates.

    Returns
    -------
    int
        The level in ``0..deepest``; 0 (the root alone, its children folded) when not even
        that is readable, since less cannot be shown.
    """
    depth = min(max(start, 0), deepest)
    if readable(size_at(depth), box):
        while depth < deepest and readable(size_at(depth + 1), box):
            depth += 1
        return depth
    while depth > 0:
        depth -= 1
        if readable(size_at(depth), box):
            break
    return depth


_VIEW_BOX = re.compile(r'viewBox="[-\d.]+ [-\d.]+ ([\d.]+) ([\d.]+)"')


def svg_size(svg: str) -> Size:
    """The drawing's size in points, read from the ``viewBox`` Graphviz writes on its SVG."""
    match = _VIEW_BOX.search(svg)
    if match is None:
        raise ValueError("the SVG has no viewBox")
    return float(match.group(1)), float(match.group(2))


@dataclass(frozen=True)
class Fold:
    """How to draw a tree so that a class can read it.

    Attributes
    ----------
    depth : int
        Levels ``0..depth`` drawn; deeper ones fold.
    detail : {"detailed", "beginner"}
        Full node details, or the rule and class bar only.
    unfold : bool
        The nodes the page asked to keep in sight are drawn (with their path), whatever
        their depth.
    """

    depth: int
    detail: Literal["detailed", "beginner"]
    unfold: bool


def choose_fold(
    size_of: Callable[[Fold], Size],
    deepest: int,
    details: Sequence[Literal["detailed", "beginner"]] = ("detailed", "beginner"),
    *,
    unfold: bool = False,
    box: Size = PROJECTOR_COLUMN,
) -> Fold:
    """The best readable way to draw a tree: what a class should see, in this order.

    1. readable at all (text of :data:`MIN_TEXT_PX` or more);
    2. the nodes the page keeps in sight (``unfold``), if it asked;
    3. as many levels as possible (:func:`fold_depth` for each detail);
    4. full details, when they reach as deep as the short ones; when nothing is readable, the
       larger text.

    Parameters
    ----------
    size_of : callable
        The drawing's size in points for a :class:`Fold`: estimated, as this tries several.
    deepest : int
        The tree's depth.
    details : sequence of {"detailed", "beginner"}
        The node details allowed, preferred first.
    unfold : bool, default False
        The page asked to keep some nodes in sight; else every option leaves them out.
    box : (float, float)
        Where the drawing goes, in pixels.
    """

    def sizes(first: Fold) -> Callable[[int], Size]:
        return lambda depth: size_of(replace(first, depth=depth))

    options = []
    for keep in (True, False) if unfold else (False,):
        for detail in details:
            first = Fold(0, detail, keep)
            options.append(replace(first, depth=fold_depth(sizes(first), deepest, box)))

    def rank(fold: Fold) -> tuple[bool, bool, int, float]:
        size = size_of(fold)
        if not readable(size, box):
            return False, fold.unfold, fold.depth, text_px(size, box)
        return True, fold.unfold, fold.depth, -details.index(fold.detail)

    return max(options, key=rank)
