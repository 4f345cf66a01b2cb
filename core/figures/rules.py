"""How a split reads, in one place: every figure and the path in words use these words.

A split node sends rows with ``x[feature] <= threshold`` left and the rest right. What a
student reads depends on the feature:

- a number: ``petal length ≤ 2.45`` (left) and ``petal length > 2.45`` (right);
- a one-hot column of a text column (``categories[j] == ("sex", "female")``, 0/1 values, the
  threshold between them): ``sex is not female`` (left) and ``sex is female`` (right);
- the split "present values left, missing ones right" (threshold ``inf``):
  ``age is known`` / ``age is missing``.

Where the node's training rows had missing values in the feature (the caller knows: it
counts them, see :func:`core.figures.tree_diagram.build_tree_diagram`), the rule says where
they went: ``age ≤ 30.5 (missing → left)``.

Pure functions of strings and numbers; the ``number`` argument formats thresholds and values
(``.4g`` by default, the diagram passes its own precision).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from core.engine.splits import sends_left

#: Per feature: ``(text column, level)`` for a one-hot column, None for a number (the
#: contract of :attr:`core.data.datasets.Dataset.categories`).
Category = tuple[str, str] | None
Categories = Sequence[Category]

__all__ = [
    "Categories",
    "Category",
    "axis_title",
    "category_of",
    "edge_text",
    "missing_note",
    "path_step",
    "rule_text",
    "side_text",
]


def _g4(x: float) -> str:
    return f"{x:.4g}"


def category_of(categories: Categories | None, feature: int) -> Category:
    """The feature's category, or None (a number) when ``categories`` is empty or None."""
    if not categories or feature >= len(categories):
        return None
    return categories[feature]


def side_text(
    name: str,
    threshold: float,
    is_left: bool,
    category: Category = None,
    number: Callable[[float], str] = _g4,
) -> str:
    """One side of a split: ``petal length ≤ 2.45`` / ``> 2.45``, ``sex is not female`` /
    ``sex is female``, ``age is known`` / ``age is missing``.
    """
    if category is not None:
        column, level = category
        return f"{column} is not {level}" if is_left else f"{column} is {level}"
    if math.isinf(threshold):
        return f"{name} is known" if is_left else f"{name} is missing"
    sign = "≤" if is_left else ">"
    return f"{name} {sign} {number(threshold)}"


def missing_note(missing_left: bool) -> str:
    """Where the node's missing values went: ``(missing → left)``."""
    return f"(missing → {'left' if missing_left else 'right'})"


def rule_text(
    name: str,
    threshold: float,
    category: Category = None,
    missing_left: bool | None = None,
    number: Callable[[float], str] = _g4,
) -> str:
    """A node's rule, its left side: ``age ≤ 30.5``, with ``(missing → left)`` when
    ``missing_left`` is given (the node's training rows had missing values).

    The split "known left, missing right" needs no note: it says it already.
    """
    text = side_text(name, threshold, True, category, number)
    if missing_left is not None and not math.isinf(threshold):
        text += " " + missing_note(missing_left)
    return text


def edge_text(
    threshold: float,
    is_left: bool,
    category: Category = None,
    number: Callable[[float], str] = _g4,
) -> str:
    """An edge's label under its node's rule: ``≤ 2.45`` / ``> 2.45``, ``not female`` /
    ``female``, ``known`` / ``missing``."""
    if category is not None:
        return f"not {category[1]}" if is_left else category[1]
    if math.isinf(threshold):
        return "known" if is_left else "missing"
    return f"{'≤' if is_left else '>'} {number(threshold)}"


def path_step(
    name: str,
    value: float,
    threshold: float,
    missing_left: bool,
    category: Category = None,
    number: Callable[[float], str] = _g4,
) -> tuple[str, bool]:
    """One step of a sample's path in words, and whether it goes left.

    ``petal width is 1.8, more than 1.75: go right``; ``sex is female: go right``; ``age is
    missing: missing values go left here``. Plain text (the caller escapes it for Markdown).
    The side is the tree's own (:func:`core.engine.splits.sends_left`, the value compared as
    float32). A value that prints as the threshold and still goes right, 1.7 at the threshold
    1.69999999 that prints "1.7", gets the threshold with the digits that tell them apart.
    """
    goes_left = bool(sends_left(value, threshold, missing_left))
    if math.isnan(value):
        side = "left" if missing_left else "right"
        return f"{name} is missing: missing values go {side} here", goes_left
    side = "go left (True)" if goes_left else "go right (False)"
    if category is not None:
        return f"{side_text(name, threshold, goes_left, category, number)}: {side}", goes_left
    if math.isinf(threshold):
        return f"{name} is known ({number(value)}): {side}", goes_left
    relation = "at most" if goes_left else "more than"
    shown = number(threshold)
    if not goes_left and shown == number(value):
        shown = _digits_apart(threshold, number(value))
    return f"{name} is {number(value)}, {relation} {shown}: {side}", goes_left


def _digits_apart(threshold: float, value_shown: str) -> str:
    """``threshold`` with the fewest significant digits that print it unlike the value."""
    for digits in range(5, 18):
        shown = f"{threshold:.{digits}g}"
        if float(shown) != float(value_shown):
            return shown
    return repr(threshold)


def axis_title(name: str, category: Category = None) -> str:
    """A plot axis for the feature: its name, or ``sex is female`` for a 0/1 column."""
    return name if category is None else f"{category[0]} is {category[1]}"
