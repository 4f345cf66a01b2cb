"""Tests for the dataset catalogue: built-in tables against scikit-learn, the sine generator,
the stratified split, the Dataset's own checks and a catalogue added by a teacher (the checks of
``prepare_table`` are in ``test_prepare.py``)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from sklearn import datasets as sk_datasets

from core.data.catalogue import list_datasets, load_dataset
from core.data.datasets import Dataset, make_sine, train_test_split
from core.data.prepare import prepare_table

BUILT_IN = {"iris": (150, 4, 3), "wine": (178, 13, 3), "breast_cancer": (569, 30, 2)}


def sine_curve(x: np.ndarray) -> np.ndarray:
    return 0.5 * x**2 + 10.0 * np.sin(2.5 * x)


# ---------------------------------------------------------------- built-in tables and manifest


@pytest.mark.parametrize("name", sorted(BUILT_IN))
def test_built_in_table_matches_scikit_learn(name: str) -> None:
    reference = getattr(sk_datasets, f"load_{name}")()
    dataset = load_dataset(name)
    n_samples, n_features, _ = BUILT_IN[name]
    assert dataset.X.shape == (n_samples, n_features) == reference.data.shape
    assert (dataset.n_samples, dataset.n_features, dataset.n_classes) == BUILT_IN[name]
    assert dataset.X.dtype == np.float64 and dataset.y.dtype == np.int64
    assert dataset.feature_names == tuple(reference.feature_names)
    np.testing.assert_allclose(dataset.X, reference.data, rtol=0, atol=1e-12)
    assert dataset.class_names == tuple(reference.target_names)
    np.testing.assert_array_equal(dataset.y, reference.target)
    assert dataset.task == "classification" and dataset.name == name
    assert dataset.description and dataset.provenance and dataset.title != name


def test_class_codes_follow_class_names_in_the_csv() -> None:
    raw = pd.read_csv(Path(__file__).resolve().parents[2] / "datasets" / "iris.csv")
    dataset = load_dataset("iris")
    assert list(raw["species"][[0, 50, 100]]) == ["setosa", "versicolor", "virginica"]
    named = np.asarray(dataset.class_names)[dataset.y]
    np.testing.assert_array_equal(named, raw["species"].to_numpy())


def test_arrays_are_read_only() -> None:
    dataset = load_dataset("wine")
    with pytest.raises(ValueError, match="read-only"):
        dataset.X[0, 0] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        dataset.y[0] = 1


def test_frame_has_features_then_class_names_and_round_trips() -> None:
    dataset = load_dataset("iris")
    frame = dataset.frame()
    assert list(frame.columns) == [*dataset.feature_names, "species"]
    assert list(frame["species"].iloc[[0, 149]]) == ["setosa", "virginica"]
    frame.iloc[0, 0] = -1.0  # a fresh copy: the dataset must not change
    assert dataset.X[0, 0] == 5.1
    again = prepare_table(dataset.frame(), target="species").dataset
    np.testing.assert_array_equal(again.X, dataset.X)
    np.testing.assert_array_equal(again.y, dataset.y)
    assert again.class_names == dataset.class_names


def test_list_datasets_follows_the_manifest_and_agrees_with_load_dataset() -> None:
    infos = list_datasets()
    assert [info.name for info in infos][:5] == [
        "iris",
        "wine",
        "breast_cancer",
        "penguins",
        "sine",
    ]
    assert infos[0].title == "Iris flowers"
    for info in infos:
        dataset = load_dataset(info.name)
        assert (info.title, info.task, info.description) == (
            dataset.title,
            dataset.task,
            dataset.description,
        )
        assert (info.n_samples, info.n_features, info.n_classes) == (
            dataset.n_samples,
            dataset.n_features,
            dataset.n_classes,
        )


def test_manifest_entries_have_every_documented_key() -> None:
    path = Path(__file__).resolve().parents[2] / "datasets" / "manifest.json"
    entries = json.loads(path.read_text(encoding="utf-8"))
    keys = {"name", "title", "file", "target", "task", "feature_names", "class_names"}
    keys |= {"description", "provenance"}
    for entry in entries:
        assert keys <= entry.keys(), entry["name"]
        assert len(entry["description"]) > 200 and "licen" in entry["provenance"].lower()
    sine = next(entry for entry in entries if entry["name"] == "sine")
    assert sine["file"] is None and sine["generator"] == "sine"
    assert sine["parameters"] == {"n_samples": 200, "noise": 2.5}


def test_penguins_load_with_words_and_gaps() -> None:
    # Loading only: fitting trees on its gaps needs the engine's missing-value support.
    raw = pd.read_csv(Path(__file__).resolve().parents[2] / "datasets" / "penguins.csv")
    dataset = load_dataset("penguins")
    assert (dataset.n_samples, dataset.n_features, dataset.n_classes) == (344, 9, 3)
    assert dataset.feature_names == (
        "island = Biscoe",
        "island = Dream",
        "island = Torgersen",
        "bill_length_mm",
        "bill_depth_mm",
        "flipper_length_mm",
        "body_mass_g",
        "sex = male",
        "sex = female",
    )
    assert dataset.categories[0] == ("island", "Biscoe") and dataset.categories[3] is None
    assert dataset.categories[-1] == ("sex", "female")
    np.testing.assert_array_equal(np.bincount(dataset.y), [152, 68, 124])
    np.testing.assert_array_equal(np.isnan(dataset.X).sum(axis=0), [0, 0, 0, 2, 2, 2, 2, 11, 11])
    np.testing.assert_array_equal(dataset.X[:, 4], raw["bill_depth_mm"])
    female = np.where(raw["sex"].isna(), np.nan, (raw["sex"] == "female").astype(float))
    np.testing.assert_array_equal(dataset.X[:, -1], female)
    np.testing.assert_array_equal(np.asarray(dataset.class_names)[dataset.y], raw["species"])
    info = next(info for info in list_datasets() if info.name == "penguins")
    assert info.pair == (3, 4) and info.n_features == 9


def test_unknown_name_lists_the_valid_names() -> None:
    with pytest.raises(ValueError, match=r"name must be one of \['iris', 'wine'.*got 'irsi'"):
        load_dataset("irsi")


# ---------------------------------------------------------------------------- the sine wave


def test_sine_defaults() -> None:
    dataset = make_sine()
    x = dataset.X[:, 0]
    assert dataset.X.shape == (200, 1) and dataset.y.shape == (200,)
    assert dataset.task == "regression" and dataset.n_classes == 0
    assert dataset.feature_names == ("x",) and dataset.target_name == "y"
    assert np.all(np.diff(x) >= 0) and x[0] >= 0.0 and x[-1] <= 10.0
    residual_sd = np.std(dataset.y - sine_curve(x))
    assert 2.3 < residual_sd < 2.8  # the classic picture: noise of standard deviation 2.5


def test_sine_is_seeded() -> None:
    first, again, other = (
        make_sine(random_state=0),
        make_sine(random_state=0),
        make_sine(random_state=1),
    )
    np.testing.assert_array_equal(first.X, again.X)
    np.testing.assert_array_equal(first.y, again.y)
    assert not np.allclose(first.X, other.X)


def test_sine_without_noise_is_exactly_the_formula_and_noise_keeps_x() -> None:
    clean = make_sine(50, noise=0.0, random_state=7)
    np.testing.assert_array_equal(clean.y, sine_curve(clean.X[:, 0]))
    loud = make_sine(50, noise=4.0, random_state=7)
    np.testing.assert_array_equal(loud.X, clean.X)
    assert np.std(loud.y - clean.y) > 2.0


def test_load_sine_uses_manifest_words_and_overrides() -> None:
    dataset = load_dataset("sine", noise=0, random_state=3)
    expected = make_sine(200, noise=0.0, random_state=3)
    np.testing.assert_array_equal(dataset.X, expected.X)
    np.testing.assert_array_equal(dataset.y, expected.y)
    assert dataset.title == "Noisy sine wave" and "0.5 x" in dataset.description
    assert not np.array_equal(load_dataset("sine").y, expected.y)


@pytest.mark.parametrize(
    ("kwargs", "error", "pattern"),
    [
        ({"n_samples": 1}, ValueError, r"n_samples must be >= 2, got 1"),
        ({"n_samples": 2.5}, TypeError, r"n_samples must be an integer, got 2.5"),
        ({"noise": -0.1}, ValueError, r"noise must be finite and >= 0, got -0.1"),
        ({"noise": float("nan")}, ValueError, r"noise must be finite"),
        ({"noise": float("inf")}, ValueError, r"noise must be finite"),
        ({"noise": "2"}, TypeError, r"noise must be a number"),
        ({"random_state": -1}, ValueError, r"random_state must be >= 0, got -1"),
        ({"random_state": True}, TypeError, r"random_state must be an integer"),
    ],
)
def test_sine_rejects_bad_parameters(kwargs: dict[str, Any], error: type, pattern: str) -> None:
    with pytest.raises(error, match=pattern):
        make_sine(**kwargs)


# ------------------------------------------------------------------------------- the split


def test_split_is_stratified_disjoint_and_complete() -> None:
    dataset = load_dataset("breast_cancer")
    split = train_test_split(dataset, test_size=0.3, random_state=5)
    assert len(split.test_index) == 171  # ceil(0.3 * 569)
    both = np.concatenate([split.train_index, split.test_index])
    np.testing.assert_array_equal(np.sort(both), np.arange(569))
    np.testing.assert_array_equal(split.X_test, dataset.X[split.test_index])
    np.testing.assert_array_equal(split.y_train, dataset.y[split.train_index])
    test_counts = np.bincount(split.y_test, minlength=2)
    assert np.all(np.abs(test_counts - 0.3 * np.bincount(dataset.y)) <= 1)
    assert not split.X_train.flags.writeable


def test_split_is_seeded() -> None:
    dataset = load_dataset("iris")
    first = train_test_split(dataset, random_state=0)
    again = train_test_split(dataset, random_state=0)
    other = train_test_split(dataset, random_state=1)
    np.testing.assert_array_equal(first.test_index, again.test_index)
    assert not np.array_equal(first.test_index, other.test_index)
    np.testing.assert_array_equal(np.bincount(first.y_test), [13, 13, 12])


def test_split_keeps_every_class_in_training_where_possible() -> None:
    frame = pd.DataFrame({"f": np.arange(7.0), "label": ["a"] * 5 + ["b", "c"]})
    dataset = prepare_table(frame, target="label").dataset
    for seed in range(5):
        split = train_test_split(dataset, test_size=0.5, random_state=seed)
        assert len(split.test_index) == 4
        np.testing.assert_array_equal(np.unique(split.y_train), [0, 1, 2])


def test_split_regression_sizes() -> None:
    split = train_test_split(make_sine(10), test_size=0.25)
    assert (len(split.train_index), len(split.test_index)) == (7, 3)
    assert np.intersect1d(split.train_index, split.test_index).size == 0


@pytest.mark.parametrize("test_size", [0.0, 1.0, 1.5, -0.2])
def test_split_rejects_bad_test_size(test_size: float) -> None:
    with pytest.raises(ValueError, match=r"test_size must be strictly between 0 and 1, got"):
        train_test_split(load_dataset("iris"), test_size=test_size)


# ----------------------------------------------------------------------- the Dataset


def test_dataset_checks_its_own_consistency() -> None:
    with pytest.raises(ValueError, match="one name per feature"):
        Dataset("d", "D", "regression", np.zeros((3, 2)), np.zeros(3), ("a",), "t", (), "", "")
    with pytest.raises(ValueError, match="class_names must name every class code"):
        Dataset(
            "d",
            "D",
            "classification",
            np.zeros((2, 1)),
            np.array([0, 2]),
            ("a",),
            "t",
            ("p", "q"),
            "",
            "",
        )


def test_dataset_keeps_missing_features_and_refuses_infinities() -> None:
    X = np.array([[1.0, np.nan], [2.0, 3.0]])
    dataset = Dataset("d", "D", "regression", X, np.array([0.5, 1.5]), ("a", "b"), "t", (), "", "")
    assert np.isnan(dataset.X[0, 1]) and dataset.X[1, 1] == 3.0
    infinite = np.array([[1.0, np.nan], [2.0, np.inf]])
    with pytest.raises(ValueError, match="X must not hold infinite values"):
        Dataset("d", "D", "regression", infinite, np.zeros(2), ("a", "b"), "t", (), "", "")
    with pytest.raises(ValueError, match="y must hold finite numbers"):
        Dataset("d", "D", "regression", X, np.array([np.nan, 1.0]), ("a", "b"), "t", (), "", "")


# -------------------------------------------------------------- a catalogue added by a teacher


def write_catalogue(directory: Path, entries: list[dict[str, Any]]) -> None:
    (directory / "manifest.json").write_text(json.dumps(entries), encoding="utf-8")


def later(path: Path) -> None:
    # File clocks can tick coarsely: make sure an edit made in the same tick counts as newer.
    status = path.stat()
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns + 1_000_000_000))


PETS = {
    "name": "pets",
    "title": "Pets",
    "file": "pets.csv",
    "target": "kind",
    "feature_names": ["weight (kg)", "legs"],
    "description": "Animals at home.",
    "provenance": "Made up for a test.",
}


@pytest.fixture
def catalogue(tmp_path: Path) -> Path:
    frame = pd.DataFrame(
        {
            "id": [101, 102, 103, 104, 105],
            "weight (kg)": [4.0, 30.0, 0.1, 5.5, 25.0],
            "legs": [4, 4, 2, 4, 4],
            "kind": ["cat", "dog", "bird", "cat", "dog"],
        }
    )
    frame.to_csv(tmp_path / "pets.csv", index=False)
    write_catalogue(
        tmp_path,
        [
            PETS,
            {
                **PETS,
                "name": "pets2",
                "class_names": ["dog", "cat", "bird"],
                "task": "classification",
                "n_samples": 5,
            },
        ],
    )
    return tmp_path


def test_a_new_csv_and_entry_need_no_code(catalogue: Path) -> None:
    dataset = load_dataset("pets", catalogue_dir=catalogue)
    assert dataset.feature_names == ("weight (kg)", "legs")  # the id column is left out
    assert dataset.task == "classification" and dataset.class_names == ("bird", "cat", "dog")
    np.testing.assert_array_equal(dataset.y, [1, 2, 0, 1, 2])
    ordered = load_dataset("pets2", catalogue_dir=str(catalogue))
    np.testing.assert_array_equal(ordered.y, [1, 0, 2, 1, 0])
    infos = list_datasets(catalogue_dir=catalogue)
    assert [(i.name, i.n_samples, i.n_features, i.n_classes) for i in infos] == [
        ("pets", 5, 2, 3),
        ("pets2", 5, 2, 3),
    ]


def test_an_edited_csv_is_read_again(catalogue: Path) -> None:
    assert load_dataset("pets", catalogue_dir=catalogue).X[0, 0] == 4.0
    path = catalogue / "pets.csv"
    path.write_text(path.read_text().replace("101,4.0", "101,4.5"))  # same size
    later(path)
    assert load_dataset("pets", catalogue_dir=catalogue).X[0, 0] == 4.5


@pytest.mark.parametrize(
    ("entry", "pattern"),
    [
        ({**PETS, "n_samples": 6}, r"manifest says n_samples=6, but pets.csv has 5 rows"),
        ({**PETS, "file": "cats.csv"}, r"its file 'cats.csv' is not in"),
        ({**PETS, "feature_names": ["tail"]}, r"manifest columns \['tail'\] are not in pets.csv"),
        ({**PETS, "colour": "red"}, r"entry 0: missing keys \[\], unknown \['colour'\]"),
        ({k: v for k, v in PETS.items() if k != "target"}, r"missing keys \['target'\]"),
        ({**PETS, "generator": "sine"}, r"exactly one of 'file' and 'generator'"),
        ({**PETS, "file": None, "generator": "spiral"}, r"generator must be one of \['sine', "),
    ],
)
def test_catalogue_mistakes_are_reported(
    catalogue: Path, entry: dict[str, Any], pattern: str
) -> None:
    write_catalogue(catalogue, [entry])
    with pytest.raises(ValueError, match=pattern):
        load_dataset("pets", catalogue_dir=catalogue)


def test_a_listed_feature_that_would_be_left_out_is_reported(catalogue: Path) -> None:
    table = pd.read_csv(catalogue / "pets.csv").assign(legs=4)
    table.to_csv(catalogue / "pets.csv", index=False)
    later(catalogue / "pets.csv")
    with pytest.raises(
        ValueError, match=r"feature_names left out: \{'legs': 'the same value \(4\)"
    ):
        load_dataset("pets", catalogue_dir=catalogue)


def test_generator_null_is_a_csv_entry_and_bad_json_is_reported(catalogue: Path) -> None:
    write_catalogue(catalogue, [{**PETS, "generator": None}])
    assert load_dataset("pets", catalogue_dir=catalogue).n_samples == 5
    (catalogue / "manifest.json").write_text("[{", encoding="utf-8")
    later(catalogue / "manifest.json")
    with pytest.raises(ValueError, match=r"manifest\.json is not valid JSON"):
        list_datasets(catalogue_dir=catalogue)


def test_datasets_are_hashable_and_compare_by_identity() -> None:
    first, again = load_dataset("iris"), load_dataset("iris")
    assert first == first and first != again
    assert {first: 1}[first] == 1


def test_duplicate_names_and_missing_manifest_are_reported(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"catalogue_dir must hold a manifest\.json"):
        list_datasets(catalogue_dir=tmp_path)
    write_catalogue(tmp_path, [PETS, PETS])
    with pytest.raises(ValueError, match="the name 'pets' is used more than once"):
        list_datasets(catalogue_dir=tmp_path)
