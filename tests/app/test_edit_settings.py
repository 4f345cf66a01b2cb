"""The what-if view's edits as a setting (core/app/edits.py, the ``edit`` entry of the table):
read from a link, written back exactly, refused with a notice when broken."""

from __future__ import annotations

import numpy as np
import pytest

from core.app.edits import (
    NO_EDITS,
    apply_edits,
    edits_are_valid,
    edits_between,
    read_edits,
    write_edits,
)
from core.app.settings import (
    DatasetShape,
    RandomForestSettings,
    SingleTreeSettings,
    edits_to_keep,
    field_is_valid,
    merge,
    parse,
    to_query,
    with_dataset,
)

CATALOGUE = {
    "iris": DatasetShape("classification", 150, 4, (2, 3)),
    "wine": DatasetShape("classification", 178, 13, (6, 12)),
}


@pytest.mark.parametrize(
    ("text", "edits"),
    [
        ("", ()),
        ("none", ()),
        ("2~5.1", ((2, 5.1),)),
        ("3~missing_0~-1.25", ((0, -1.25), (3, None))),  # sorted by feature
        ("3~", ((3, None),)),
        ("1~nan", ((1, None),)),
        ("12~1e-05", ((12, 1e-05),)),
        ("0~1000000000", ((0, 1e9),)),
    ],
)
def test_read_edits(text: str, edits: tuple) -> None:
    assert read_edits(text) == edits


@pytest.mark.parametrize(
    "edits",
    [((2, 5.1),), ((0, 0.1 + 0.2), (3, None)), ((1, -7.0), (9, 1e-07)), ((4, 123456.789012345),)],
)
def test_written_edits_read_back_exactly(edits: tuple) -> None:
    assert read_edits(write_edits(edits)) == edits


def test_edits_are_written_readably() -> None:
    assert write_edits(((2, 5.1), (3, None), (7, 40.0))) == "2~5.1_3~missing_7~40"


@pytest.mark.parametrize(
    "text",
    [
        "2:5.1",  # another separator
        "2~5.1_",  # an empty pair
        "2~5.1_2~6",  # a feature twice
        "x~1",
        "-1~3",
        "2~five",
        "2~inf",
        "2~1e999",  # not finite
        "2~1e10",  # beyond a billion
        "99999~1",  # no feature number is that long
        "2~1.0.0",
        "2~1" + "_3~1" * 1000,  # longer than any link needs
    ],
)
def test_broken_edits_are_refused_with_the_rule(text: str) -> None:
    with pytest.raises(ValueError, match=r"feature~value pairs joined by _"):
        read_edits(text)


def test_a_link_with_edits_round_trips_and_no_edits_write_nothing() -> None:
    settings, notices = parse(SingleTreeSettings, {"view": "what-if", "edit": "2~5.1"}, CATALOGUE)
    assert notices == []
    assert settings.edit == ((2, 5.1),)
    query = to_query(settings, CATALOGUE)
    assert query == {"dataset": "iris", "view": "what-if", "edit": "2~5.1"}
    assert parse(SingleTreeSettings, query, CATALOGUE) == (settings, [])
    assert "edit" not in to_query(settings.replace(edit=NO_EDITS), CATALOGUE)
    assert to_query(SingleTreeSettings(), full=True)["edit"] == ""
    assert parse(SingleTreeSettings, {"edit": ""}, CATALOGUE) == (SingleTreeSettings(x=2, y=3), [])


@pytest.mark.parametrize("raw", ["2~5.1_3~", "<b>2~1</b>", "2~1e300", "a" * 5000, "2~1_2~2"])
def test_a_broken_edit_falls_back_to_none_with_a_notice(raw: str) -> None:
    settings, notices = parse(SingleTreeSettings, {"edit": raw, "seed": "4"}, CATALOGUE)
    if raw == "2~5.1_3~":  # an empty value is a missing one: nothing broken
        assert (settings.edit, notices) == (((2, 5.1), (3, None)), [])
        return
    assert settings.edit == NO_EDITS and settings.seed == 4, "the other settings still apply"
    (notice,) = notices
    assert notice.startswith("edit: the value given is not feature~value pairs")
    assert notice.endswith("using none.")
    assert "<b>" not in notice


def test_edits_of_features_the_dataset_lacks_are_left_out() -> None:
    settings, notices = parse(SingleTreeSettings, {"edit": "1~2_4~3_12~1"}, CATALOGUE)
    assert settings.edit == ((1, 2.0),)
    assert notices == [
        "edit: this dataset's features are numbered 0 to 3; the edits of any other are left out."
    ]
    wine, notices = parse(SingleTreeSettings, {"dataset": "wine", "edit": "12~1"}, CATALOGUE)
    assert (wine.edit, notices) == (((12, 1.0),), [])


def test_only_the_single_tree_page_has_edits() -> None:
    assert "edit" in SingleTreeSettings.entries
    assert "edit" not in RandomForestSettings.entries


def test_code_and_widgets_must_hand_over_valid_edits() -> None:
    assert SingleTreeSettings(edit=[(3, 1), (2, None)]).edit == ((2, None), (3, 1.0))
    for broken in [((2, "5"),), ((2, True),), ((True, 1.0),), ((2, float("nan")),), "2~5", 5]:
        assert not field_is_valid(SingleTreeSettings, "edit", broken)
        with pytest.raises(ValueError, match="edit must be"):
            SingleTreeSettings(edit=broken)
    assert not edits_are_valid(((2, 1.0), (2, 2.0))), "one pair per feature"
    last = SingleTreeSettings(edit=((2, 1.0),))
    merged, rejected = merge(SingleTreeSettings, last, {"edit": ((2, 1e12),), "seed": 3}, CATALOGUE)
    assert (merged.edit, merged.seed, rejected) == (((2, 1.0),), 3, ["edit"])


def test_edits_belong_to_their_sample() -> None:
    last = SingleTreeSettings(sample=2, edit=((2, 1.0),))
    assert edits_to_keep(last, last.replace(max_depth=5, x=0)) == ((2, 1.0),)
    for moved in ({"sample": 3}, {"seed": 1}, {"test_size": 0.3}, {"dataset": "wine"}):
        assert edits_to_keep(last, last.replace(**moved)) == NO_EDITS, moved
    assert with_dataset(last, "wine", CATALOGUE).edit == NO_EDITS


def test_edits_are_applied_by_column_and_read_back_from_a_row() -> None:
    original = np.array([1.0, np.nan, 3.0])
    columns = (2, 5, 7)  # the dataset's column numbers of the model's three
    edits = ((5, 4.0), (7, None), (9, 1.0))  # column 9 is not in this model
    row = apply_edits(original, columns, edits)
    np.testing.assert_array_equal(row, [1.0, 4.0, np.nan])
    assert np.isnan(original[1]), "the original is not changed"
    assert edits_between(original, row, columns) == ((5, 4.0), (7, None))
    assert edits_between(original, original.copy(), columns) == NO_EDITS
