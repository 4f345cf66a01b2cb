"""Tests for drawn points: the record, the edits clicks make (bursts, replays, nonsense), the
table and its messages, the CSV round trip, and starting from a puzzle."""

from __future__ import annotations

import io
import math
from typing import Any

import numpy as np
import pandas as pd
import pytest

from core.data import drawn
from core.data.catalogue import load_dataset
from core.data.datasets import dataset_from_frame, train_test_split
from core.data.drawn import DrawnPoints, apply_edits, dataset_from_points, points_csv
from core.data.puzzles import make_blobs, make_moons

NAMES = ("red", "blue", "green")
BOX = {"n_classes": 3, "x_range": (-3.0, 3.0), "y_range": (-3.0, 3.0)}
THREE = DrawnPoints((0.0, 1.0, -1.5), (0.5, -2.0, 2.0), (0, 1, 1))


def add(x: Any, y: Any, label: Any = 0) -> dict[str, Any]:
    return {"op": "add", "x": x, "y": y, "label": label}


def remove(x: Any, y: Any) -> dict[str, Any]:
    return {"op": "remove", "x": x, "y": y}


# ---------------------------------------------------------------- the record


def test_points_are_plain_hashable_and_equal_by_value() -> None:
    again = DrawnPoints([0, 1, -1.5], (0.5, -2, 2), [0, 1, 1])  # type: ignore[arg-type]
    assert again == THREE and hash(again) == hash(THREE) and len(THREE) == 3
    assert again.x == (0.0, 1.0, -1.5) and isinstance(again.label[0], int)
    assert THREE.rows()[1] == (1.0, -2.0, 1)
    assert DrawnPoints.from_rows(THREE.rows()) == THREE
    with pytest.raises(ValueError, match="one entry per point, got lengths 2, 1 and 1"):
        DrawnPoints((0.0, 1.0), (0.0,), (0,))


# ---------------------------------------------------------------- edits from clicks


def test_an_add_puts_a_rounded_point_of_its_class_and_a_remove_takes_it_away() -> None:
    one = apply_edits(DrawnPoints(), [add(0.123456, -1.98765, 2)], **BOX)
    assert one == DrawnPoints((0.123,), (-1.988,), (2,))
    assert apply_edits(one, [remove(0.1231, -1.9879)], **BOX) == DrawnPoints()


def test_nothing_changed_gives_the_same_object() -> None:
    assert apply_edits(THREE, [], **BOX) is THREE
    assert apply_edits(THREE, None, **BOX) is THREE
    assert apply_edits(THREE, [remove(2.5, 2.5)], **BOX) is THREE  # no point there
    assert apply_edits(THREE, [add(0.0, 0.5, 0)], **BOX) is THREE  # already there, same class


def test_adding_on_a_point_sets_its_class_in_place() -> None:
    changed = apply_edits(THREE, [add(1.0, -2.0, 2)], **BOX)
    assert changed.label == (0, 2, 1) and changed.x == THREE.x


def test_a_burst_resent_in_part_or_in_full_gives_the_same_points() -> None:
    # The browser resends clicks until a run answers them: replaying must change nothing.
    burst = [add(0.5, 0.5, 0), add(1.5, 1.5, 1), remove(0.5, 0.5), add(-1.0, 2.0, 2)]
    once = apply_edits(THREE, burst, **BOX)
    assert once.rows() == [*THREE.rows(), (1.5, 1.5, 1), (-1.0, 2.0, 2)]
    for applied in range(len(burst) + 1):
        partly = apply_edits(THREE, burst[:applied], **BOX)
        assert apply_edits(partly, burst, **BOX) == once
    assert apply_edits(once, burst, **BOX) is once


@pytest.mark.parametrize(
    "edits",
    [
        "add",
        {"op": "add"},
        [None, 3, "x", [], {}],
        [add(None, 1.0), add("1", 1.0), add(True, 1.0), add(math.nan, 0), add(0, math.inf)],
        [add(0, 0, label) for label in (-1, 3, 1.0, "0", None, True)],
        [add(3.5, 0.0), add(0.0, -3.01)],  # outside the drawing area
        [{"op": "move", "x": 0, "y": 0, "label": 0}, {"x": 0, "y": 0, "label": 0}],
        [remove("0.0", 0.5), remove(None, None)],
    ],
)
def test_nonsense_from_the_browser_changes_nothing(edits: Any) -> None:
    assert apply_edits(THREE, edits, **BOX) is THREE


def test_additions_stop_at_the_limit_but_removals_and_changes_go_on() -> None:
    full = apply_edits(THREE, [add(0, 0), add(0, 1)], **BOX, limit=4)
    assert len(full) == 4
    changed = apply_edits(full, [add(2, 2), add(0.0, 0.5, 2), remove(1.0, -2.0)], **BOX, limit=4)
    assert len(changed) == 3 and changed.label[0] == 2


def test_a_point_not_on_the_grid_can_still_be_removed() -> None:
    fine = DrawnPoints((0.12345678,), (1.0,), (0,))
    assert apply_edits(fine, [remove(0.123, 1.0)], **BOX) == DrawnPoints()


# ---------------------------------------------------------------- the table and its messages


@pytest.mark.parametrize(
    ("points", "message"),
    [
        (DrawnPoints(), "No points yet: click in the drawing area to add at least 3 points"),
        (DrawnPoints((0.0,), (0.0,), (1,)), "Only 1 point so far: click"),
        (DrawnPoints((0.0, 1.0), (0.0, 1.0), (0, 1)), "Only 2 points so far: click"),
        (DrawnPoints((0.0, 1.0, 2.0), (0.0, 1.0, 2.0), (1, 1, 1)), "All 3 points are 'blue'"),
    ],
)
def test_too_little_to_learn_from_gets_a_friendly_message(
    points: DrawnPoints, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        dataset_from_points(points, NAMES)


def test_a_label_without_a_name_is_reported() -> None:
    with pytest.raises(ValueError, match=r"got 2 names for labels \[2\]"):
        dataset_from_points(DrawnPoints((0, 1, 2), (0, 1, 2), (0, 1, 2)), NAMES[:2])


def test_points_become_a_two_feature_table() -> None:
    data = dataset_from_points(THREE, NAMES)
    assert data.task == "classification" and data.name == "drawn"
    assert data.feature_names == ("x1", "x2") and data.target_name == "class"
    np.testing.assert_array_equal(data.X, [[0.0, 0.5], [1.0, -2.0], [-1.5, 2.0]])
    np.testing.assert_array_equal(data.y, [0, 1, 1])
    assert data.class_names == ("red", "blue")  # green has no points, so it is no class
    split = train_test_split(data, random_state=0)
    assert len(split.y_test) == 1 and set(split.y_train.tolist()) == {0, 1}


def test_classes_without_points_are_left_out_in_order() -> None:
    points = DrawnPoints((0, 1, 2, 3), (0, 1, 2, 3), (2, 0, 2, 0))
    data = dataset_from_points(points, NAMES)
    assert data.class_names == ("red", "green")
    np.testing.assert_array_equal(data.y, [1, 0, 1, 0])


# ---------------------------------------------------------------- CSV


def test_csv_round_trips_through_pandas_and_the_upload_checks() -> None:
    points = DrawnPoints((0.001, -2.5, 1e-3, 2.999), (1.0, 0.25, -3.0, 0.0), (0, 1, 2, 1))
    names = ("red, warm", 'say "blue"', "grün")  # commas, quotes and accents survive
    text = points_csv(points, names)
    assert text.decode("utf-8").splitlines()[0] == "x1,x2,class"
    table = pd.read_csv(io.BytesIO(text))
    assert list(table.columns) == ["x1", "x2", "class"]
    np.testing.assert_array_equal(table["x1"], points.x)
    np.testing.assert_array_equal(table["x2"], points.y)
    assert table["class"].tolist() == ["red, warm", 'say "blue"', "grün", 'say "blue"']
    again = dataset_from_frame(table, target="class")
    assert set(again.class_names) == set(names)
    mine = dataset_from_points(points, names)
    as_words = np.asarray(mine.class_names)[mine.y]
    np.testing.assert_array_equal(np.asarray(again.class_names)[again.y], as_words)
    np.testing.assert_array_equal(again.X, mine.X)


def test_csv_of_no_points_is_just_the_header() -> None:
    assert points_csv(DrawnPoints(), NAMES) == b"x1,x2,class\n"
    with pytest.raises(ValueError, match="class_names must name every drawn class"):
        points_csv(THREE, ("red",))


# ---------------------------------------------------------------- starting from a puzzle


def test_a_small_puzzle_becomes_its_own_points() -> None:
    moons = make_moons(50, noise=0.1, random_state=2)
    points = drawn.points_from_dataset(moons)
    assert len(points) == 50
    np.testing.assert_allclose(points.x, moons.X[:, 0], atol=5e-4)
    np.testing.assert_allclose(points.y, moons.X[:, 1], atol=5e-4)
    assert points.label == tuple(moons.y.tolist())
    assert dataset_from_points(points, moons.class_names).class_names == moons.class_names


def test_a_large_table_is_sampled_the_same_way_every_time() -> None:
    blobs = make_blobs(1000, n_classes=4, random_state=1)
    points = drawn.points_from_dataset(blobs, limit=120)
    assert len(points) == 120 and points == drawn.points_from_dataset(blobs, limit=120)
    assert set(points.label) == {0, 1, 2, 3}
    rows = {(round(a, 3), round(b, 3)) for a, b in blobs.X.tolist()}
    assert all((x, y) in rows for x, y in zip(points.x, points.y, strict=True))


def test_points_from_a_table_that_cannot_be_drawn_on() -> None:
    with pytest.raises(ValueError, match="only a classification table"):
        drawn.points_from_dataset(load_dataset("sine"))
    with pytest.raises(ValueError, match="limit must be an integer >= 1, got 0"):
        drawn.points_from_dataset(make_moons(), limit=0)


# ---------------------------------------------------------------- the area to show


def test_the_area_widens_to_whole_units_around_points_outside_it() -> None:
    box = ((-3.0, 3.0), (-3.0, 3.0))
    assert drawn.view_ranges(THREE, *box) == box
    blobs = drawn.points_from_dataset(make_blobs(random_state=0))
    (x_low, x_high), (y_low, y_high) = drawn.view_ranges(blobs, *box)
    assert x_low <= min(blobs.x) - 0.25 and x_high >= max(blobs.x) + 0.25
    assert y_low <= min(blobs.y) - 0.25 and y_high >= max(blobs.y) + 0.25
    assert all(float(bound).is_integer() for bound in (x_low, x_high, y_low, y_high))
    odd = DrawnPoints((math.nan, 4.2), (0.0, math.inf), (0, 1))
    assert drawn.view_ranges(odd, *box) == ((-3.0, 5.0), (-3.0, 3.0))
