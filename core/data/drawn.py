"""Points a student draws: the plain record, the edits a click makes, and the table they become.

:class:`DrawnPoints` is three tuples, so it is hashable and can key caches and live in the
session. A click in the drawing area (:mod:`core.ui.draw`) arrives as an *edit*, a small JSON
object; :func:`apply_edits` checks each one and applies those that make sense, ignoring the
rest, so that nothing a browser sends can raise. :func:`dataset_from_points` turns the points
into a :class:`~core.data.datasets.Dataset` with friendly messages when there is not yet
enough to learn from; :func:`points_csv` writes them as a CSV that can be uploaded again.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from core.data.datasets import Dataset

__all__ = [
    "DIGITS",
    "MAX_POINTS",
    "MIN_POINTS",
    "DrawnPoints",
    "apply_edits",
    "dataset_from_points",
    "points_csv",
    "points_from_dataset",
    "view_ranges",
]

MIN_POINTS = 3  # fewer leaves nothing to test a tree on
MAX_POINTS = 1000  # a drawing area stays readable, and a burst of clicks cannot grow a table
DIGITS = 3  # coordinates are rounded to this many decimals: a click is no finer than that
FEATURES = ("x1", "x2")  # the same names as the 2-D puzzles, so a drawing can start from one
TARGET = "class"


@dataclass(frozen=True)
class DrawnPoints:
    """Points on the plane, each with a class code: plain tuples, hashable, equal by value.

    Attributes
    ----------
    x, y : tuple of float, length n
        The coordinates (the features ``x1`` and ``x2`` of the table they become).
    label : tuple of int, length n
        Class codes ``0..K-1``, indexing the class names the drawing area was given.
    """

    x: tuple[float, ...] = ()
    y: tuple[float, ...] = ()
    label: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        x = tuple(float(value) for value in self.x)
        y = tuple(float(value) for value in self.y)
        label = tuple(int(value) for value in self.label)
        if not len(x) == len(y) == len(label):
            raise ValueError(
                f"x, y and label must have one entry per point, got lengths "
                f"{len(x)}, {len(y)} and {len(label)}"
            )
        object.__setattr__(self, "x", x)
        object.__setattr__(self, "y", y)
        object.__setattr__(self, "label", label)

    def __len__(self) -> int:
        return len(self.label)

    def rows(self) -> list[tuple[float, float, int]]:
        """The points as ``(x, y, label)`` triples, in order."""
        return list(zip(self.x, self.y, self.label, strict=True))

    @classmethod
    def from_rows(cls, rows: Iterable[tuple[float, float, int]]) -> DrawnPoints:
        """Build from ``(x, y, label)`` triples."""
        triples = list(rows)
        return cls(
            tuple(row[0] for row in triples),
            tuple(row[1] for row in triples),
            tuple(row[2] for row in triples),
        )


def _number(value: Any) -> float | None:
    # A finite JSON number, rounded like a click; None for anything else (bools included).
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = float(value)
    return round(number, DIGITS) if math.isfinite(number) else None


def apply_edits(
    points: DrawnPoints,
    edits: Any,
    *,
    n_classes: int,
    x_range: tuple[float, float],
    y_range: tuple[float, float],
    limit: int = MAX_POINTS,
) -> DrawnPoints:
    """Apply the clicks a drawing area sent; anything malformed is skipped, never raised.

    ``edits`` should be a list of ``{"op": "add", "x": .., "y": .., "label": k}`` (a point of
    class ``k`` at ``(x, y)``) and ``{"op": "remove", "x": .., "y": ..}`` (the point there).
    Coordinates are rounded to ``DIGITS`` decimals and points are keyed by them, so each edit
    *sets* what is at one spot: adding where a point already is changes its class, removing
    where none is does nothing. Applying a list again, or after some of it was applied, gives
    the same points; a browser may safely resend edits it has no answer for yet.

    Parameters
    ----------
    points : DrawnPoints
        The points before the clicks.
    edits : object
        What the browser sent; anything but a list of such objects changes nothing.
    n_classes : int
        Labels must be ``0 .. n_classes - 1``.
    x_range, y_range : tuple of float
        The drawing area; points added outside it are skipped.
    limit : int, default MAX_POINTS
        Additions beyond this many points are skipped.

    Returns
    -------
    DrawnPoints
        The new points, or ``points`` itself when nothing changed.
    """
    if not isinstance(edits, list):
        return points
    # Keyed by the rounded spot; a point keeps the coordinates it came with.
    placed = {(_number(x), _number(y)): (x, y, label) for x, y, label in points.rows()}
    for edit in edits:
        if not isinstance(edit, dict):
            continue
        x, y = _number(edit.get("x")), _number(edit.get("y"))
        if x is None or y is None:
            continue
        if edit.get("op") == "remove":
            placed.pop((x, y), None)
            continue
        label = edit.get("label")
        inside = x_range[0] <= x <= x_range[1] and y_range[0] <= y <= y_range[1]
        if (
            edit.get("op") != "add"
            or isinstance(label, bool)
            or not isinstance(label, int)
            or not 0 <= label < n_classes
            or not inside
            or ((x, y) not in placed and len(placed) >= limit)
        ):
            continue
        old_x, old_y, _ = placed.get((x, y), (x, y, label))
        placed[(x, y)] = (old_x, old_y, label)
    changed = DrawnPoints.from_rows(placed.values())
    return points if changed == points else changed


def _class_count(points: DrawnPoints) -> int:
    return len(set(points.label))


def dataset_from_points(points: DrawnPoints, class_names: Sequence[str]) -> Dataset:
    """Turn drawn points into a two-feature classification table.

    The features are ``x1`` and ``x2`` and the target ``class``. Only the classes that have
    points become classes of the table, in the order of ``class_names``; with every class drawn,
    the codes stay the drawing's own.

    Parameters
    ----------
    points : DrawnPoints
    class_names : sequence of str
        The name of each class code the drawing area offers.

    Returns
    -------
    Dataset
        Named ``"drawn"``, one row per point, in drawing order.

    Raises
    ------
    ValueError
        With a message for students: fewer than ``MIN_POINTS`` points, a single class, or a
        label that ``class_names`` does not name.
    """
    names = tuple(str(name) for name in class_names)
    if len(points) < MIN_POINTS:
        drawn = {0: "No points yet", 1: "Only 1 point so far"}.get(
            len(points), f"Only {len(points)} points so far"
        )
        raise ValueError(
            f"{drawn}: click in the drawing area to add at least {MIN_POINTS} points, "
            "of at least two classes, before a tree can learn from them."
        )
    unknown = sorted({label for label in points.label if not 0 <= label < len(names)})
    if unknown:
        raise ValueError(
            f"class_names must name every drawn class; got {len(names)} names for labels {unknown}"
        )
    used = sorted(set(points.label))
    if len(used) < 2:
        raise ValueError(
            f"All {len(points)} points are {names[used[0]]!r}: pick another class and add "
            "a few points of it, so the tree has something to tell apart."
        )
    code = {label: index for index, label in enumerate(used)}
    return Dataset(
        name="drawn",
        title="Drawn points",
        task="classification",
        X=np.column_stack([points.x, points.y]),
        y=np.array([code[label] for label in points.label], dtype=np.int64),
        feature_names=FEATURES,
        target_name=TARGET,
        class_names=tuple(names[label] for label in used),
        description=f"{len(points)} points drawn by hand in the drawing area.",
        provenance="Drawn in Arboretum by its user.",
    )


def points_csv(points: DrawnPoints, class_names: Sequence[str]) -> bytes:
    """Write the points as UTF-8 CSV with the columns ``x1``, ``x2`` and ``class``.

    ``class`` holds the class names, so uploading the file again gives the same table with
    the same words. Raises ``ValueError`` when a label has no name.
    """
    names = tuple(str(name) for name in class_names)
    if any(not 0 <= label < len(names) for label in points.label):
        raise ValueError(
            f"class_names must name every drawn class; got {len(names)} names for labels "
            f"{sorted(set(points.label))}"
        )
    table = pd.DataFrame(
        {
            FEATURES[0]: list(points.x),
            FEATURES[1]: list(points.y),
            TARGET: [names[label] for label in points.label],
        }
    )
    out = io.StringIO()
    table.to_csv(out, index=False, lineterminator="\n")
    return out.getvalue().encode("utf-8")


def points_from_dataset(dataset: Dataset, limit: int = 300) -> DrawnPoints:
    """The first two features of a classification table as points to draw on ("start from a
    puzzle").

    Tables with more than ``limit`` rows give a random sample of ``limit`` of them (seeded,
    so the same table always gives the same points), kept in table order. Coordinates are
    rounded to ``DIGITS`` decimals; rows that then coincide are kept once.

    Raises
    ------
    ValueError
        For a regression table or one with fewer than two features, and for ``limit < 1``.
    """
    if dataset.task != "classification":
        raise ValueError(f"only a classification table can be drawn on; {dataset.title!r} is not")
    if dataset.n_features < 2:
        raise ValueError(f"drawing needs two features; {dataset.title!r} has {dataset.n_features}")
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise ValueError(f"limit must be an integer >= 1, got {limit!r}")
    rows = np.arange(dataset.n_samples)
    if dataset.n_samples > limit:
        rows = np.sort(np.random.default_rng(0).choice(rows, size=limit, replace=False))
    placed: dict[tuple[float, float], int] = {}
    for row in rows:
        spot = (round(float(dataset.X[row, 0]), DIGITS), round(float(dataset.X[row, 1]), DIGITS))
        placed.setdefault(spot, int(dataset.y[row]))
    return DrawnPoints.from_rows((x, y, label) for (x, y), label in placed.items())


def view_ranges(
    points: DrawnPoints, x_range: tuple[float, float], y_range: tuple[float, float]
) -> tuple[tuple[float, float], tuple[float, float]]:
    """The area to show: the given ranges, widened to whole units around any point outside.

    Returns
    -------
    tuple
        ``(x_range, y_range)``, each ``(low, high)`` with ``low < high``.
    """

    def widen(low: float, high: float, values: tuple[float, ...]) -> tuple[float, float]:
        finite = [value for value in values if math.isfinite(value)]
        if finite:
            low = min(low, math.floor(min(finite) - 0.25))
            high = max(high, math.ceil(max(finite) + 0.25))
        return (float(low), float(high))

    return widen(*x_range, points.x), widen(*y_range, points.y)
